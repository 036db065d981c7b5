/*
 * topo-paths - shortest-path structure of every graph of the inputs: the
 * number of shortest paths sigma(s,t) of all ordered pairs, summarised by
 * distance (min/avg/max, fraction of pairs with a unique shortest path),
 * or per pair on request.  See topo-paths(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef unsigned __int128 u128;

static const char usage[] =
    "topo-paths [--pairs] [--json] [--threads N] [--progress] [--shard I/P] [-o FILE]\n"
    "                  [FILE...]";

typedef struct args {
    int pairs;          /* --pairs: per-pair rows                      */
    int json;           /* --json: JSON Lines                          */
    int progress;       /* --progress                                  */
    int threads;        /* --threads N (0 when not given)              */
    const char *output; /* -o FILE (NULL = stdout)                     */
    char **inputs;      /* operands (none = stdin)                     */
    int ninputs;
    int header_done; /* run state: header line printed              */
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Number of shortest paths sigma(s,t) of every ordered pair of switches of every\n"
          "graph read from FILE (or standard input), summarised by distance: one TSV row\n"
          "per graph and distance, plus a row with distance 'all', with the columns\n"
          "  name distance pairs sigma_min sigma_avg sigma_max unique_fraction\n"
          "Parallel links count as different paths; self-loops are never on a shortest\n"
          "path.  Counts are exact (128-bit); larger counts are refused.\n\n"
          "Options:\n"
          "  --pairs               table 'name src dst distance sigma' instead, one row\n"
          "                        per ordered pair of distinct switches\n"
          "  --json                JSON Lines, one object per graph (with --pairs: one\n"
          "                        object per pair)\n"
          "  --threads N           OpenMP threads (N >= 1); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  --shard I/P           compute shard I of P only and write it as a shard\n"
          "                        file; topo-merge(1) combines the P shards\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error, 2 usage error.  See topo-paths(1).\n",
          stdout);
}

enum { OPT_PAIRS = 256, OPT_JSON, OPT_THREADS, OPT_PROGRESS, OPT_SHARD, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"pairs", no_argument, NULL, OPT_PAIRS},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    cli_shard_args("topo-paths", &argc, &argv, ":ho:", longopts, usage);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_PAIRS:
            a->pairs = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_PROGRESS:
            a->progress = 1;
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->pairs)
        fputs("name\tsrc\tdst\tdistance\tsigma\n", fp);
    else
        fputs("name\tdistance\tpairs\tsigma_min\tsigma_avg\tsigma_max\tunique_fraction\n", fp);
}

/* The statistics of one distance class ("1", "2", ..., "all", "inf"): the
 * cells of a TSV row or of a JSON object. */
typedef struct sigma_stats {
    uint64_t pairs;
    u128 min, max;
    double avg, unique;
} sigma_stats_t;

static void stats_cells(cli_row_t *row, const sigma_stats_t *st)
{
    cli_cell_u64(row, "pairs", st->pairs);
    cli_cell_u128(row, "sigma_min", st->min);
    cli_cell_double(row, "sigma_avg", st->avg);
    cli_cell_u128(row, "sigma_max", st->max);
    cli_cell_double(row, "unique_fraction", st->unique);
}

/* A TSV row of the summary. */
static void stats_row(FILE *fp, const char *name, const char *distance, const sigma_stats_t *st)
{
    cli_row_t row;

    cli_row_begin(&row, fp, 0);
    cli_cell_text(&row, "name", name);
    cli_cell_text(&row, "distance", distance);
    stats_cells(&row, st);
    cli_row_end(&row);
}

/* The statistics of distance d and of all the reachable pairs. */
static void sigma_stats(const tk_sigma_summary_t *s, int32_t d, sigma_stats_t *st)
{
    st->pairs = s->pairs[d];
    st->min = s->min[d];
    st->max = s->max[d];
    st->avg = tk_sigma_summary_avg(s, d);
    st->unique = (double)s->unique[d] / (double)s->pairs[d];
}

static void sigma_stats_all(const tk_sigma_summary_t *s, sigma_stats_t *st)
{
    uint64_t uniq = 0;
    u128 sum_lo = 0, sum_hi = 0; /* exact 256-bit total of sigma */

    memset(st, 0, sizeof *st);
    st->min = ~(u128)0;
    for (int32_t d = 1; d < s->len; d++) {
        if (!s->pairs[d])
            continue;
        st->pairs += s->pairs[d];
        uniq += s->unique[d];
        if (s->min[d] < st->min)
            st->min = s->min[d];
        if (s->max[d] > st->max)
            st->max = s->max[d];
        u128 t = sum_lo + s->sum_lo[d];
        sum_hi += s->sum_hi[d] + (t < sum_lo);
        sum_lo = t;
    }
    if (!st->pairs) {
        st->min = 0;
        return;
    }
    st->avg = (double)(((long double)sum_hi * 340282366920938463463374607431768211456.0L +
                        (long double)sum_lo) /
                       (long double)st->pairs);
    st->unique = (double)uniq / (double)st->pairs;
}

/* Under MPI (several ranks): the sources in blocks, handed out
 * dynamically (cli_mpi_units); rank 0 merges the blocks' summaries (sent
 * as integers) or writes their rows, in block order. */
typedef struct paths_mpi {
    const tk_graph_t *g;
    const args_t *a;
    const char *name;
    int64_t block;
    int threads;
    int rows;               /* blocks print their per-pair rows */
    FILE *out;              /* rank 0: where rows go */
    tk_sigma_summary_t sum; /* rank 0: the merged summary */
} paths_mpi_t;

static void block_range(const paths_mpi_t *m, int64_t b, tk_id_t *lo, tk_id_t *hi)
{
    int64_t l = b * m->block, h = l + m->block;
    *lo = (tk_id_t)l;
    *hi = (tk_id_t)(h < m->g->n ? h : m->g->n);
}

static tk_status_t summary_block(void *ctx, int64_t b, FILE *fp, tk_error_t *err)
{
    paths_mpi_t *m = ctx;
    tk_id_t lo, hi;
    tk_sigma_summary_t s;
    block_range(m, b, &lo, &hi);
    tk_status_t st = tk_sigma_summary_range(m->g, lo, hi, m->threads, NULL, &s, err);
    if (st != TK_OK)
        return st;
    int64_t head[2] = {s.len, (int64_t)s.unreachable};
    fwrite(head, sizeof head, 1, fp);
    for (int32_t d = 0; d < s.len; d++) {
        uint64_t w[2] = {s.pairs[d], s.unique[d]};
        u128 x[4] = {s.min[d], s.max[d], s.sum_lo[d], s.sum_hi[d]};
        fwrite(w, sizeof w, 1, fp);
        fwrite(x, sizeof x, 1, fp);
    }
    tk_sigma_summary_destroy(&s);
    return TK_OK;
}

static tk_status_t summary_take(void *ctx, int64_t b, const unsigned char *p, size_t len,
                                tk_error_t *err)
{
    paths_mpi_t *m = ctx;
    int64_t head[2];
    const size_t per = 2 * sizeof(uint64_t) + 4 * sizeof(u128);
    tk_sigma_summary_t s;
    if (len < sizeof head)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "source block %lld: short result",
                            (long long)b);
    memcpy(head, p, sizeof head);
    if (head[0] < 0 || head[0] > INT32_MAX || len != sizeof head + (size_t)head[0] * per)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "source block %lld: bad result length",
                            (long long)b);
    memset(&s, 0, sizeof s);
    s.len = (int32_t)head[0];
    s.unreachable = (uint64_t)head[1];
    size_t k = (size_t)s.len ? (size_t)s.len : 1;
    s.pairs = malloc(k * sizeof *s.pairs);
    s.unique = malloc(k * sizeof *s.unique);
    s.min = malloc(k * sizeof *s.min);
    s.max = malloc(k * sizeof *s.max);
    s.sum_lo = malloc(k * sizeof *s.sum_lo);
    s.sum_hi = malloc(k * sizeof *s.sum_hi);
    tk_status_t st = TK_OK;
    if (!s.pairs || !s.unique || !s.min || !s.max || !s.sum_lo || !s.sum_hi)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (shortest-path summary)");
    p += sizeof head;
    for (int32_t d = 0; d < s.len && st == TK_OK; d++, p += per) {
        uint64_t w[2];
        u128 x[4];
        memcpy(w, p, sizeof w);
        memcpy(x, p + sizeof w, sizeof x);
        s.pairs[d] = w[0];
        s.unique[d] = w[1];
        s.min[d] = x[0];
        s.max[d] = x[1];
        s.sum_lo[d] = x[2];
        s.sum_hi[d] = x[3];
    }
    if (st == TK_OK)
        st = tk_sigma_summary_merge(&m->sum, &s, err);
    tk_sigma_summary_destroy(&s);
    return st;
}

/* A block's sources: searched (every count checked), and with m->rows
 * their per-pair rows written to fp. */
static tk_status_t pairs_block(void *ctx, int64_t b, FILE *fp, tk_error_t *err)
{
    paths_mpi_t *m = ctx;
    const tk_graph_t *g = m->g;
    size_t n = (size_t)g->n;
    tk_id_t lo, hi;
    int32_t *dist = tk_malloc_array(n, sizeof *dist);
    u128 *sigma = tk_malloc_array(n, sizeof *sigma);
    tk_id_t *queue = tk_malloc_array(n, sizeof *queue);
    tk_status_t st = TK_OK;
    block_range(m, b, &lo, &hi);
    if (!dist || !sigma || !queue)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%zu)", n);
    for (tk_id_t s = lo; s < hi && st == TK_OK; s++) {
        if ((st = tk_sigma_from(g, s, dist, sigma, queue, err)) != TK_OK || !m->rows)
            continue;
        for (tk_id_t t = 0; t < g->n; t++) {
            if (t == s)
                continue;
            cli_row_t row;
            cli_row_begin(&row, fp, m->a->json);
            cli_cell_text(&row, "name", m->name);
            cli_cell_int(&row, "src", s, 0);
            cli_cell_int(&row, "dst", t, 0);
            cli_cell_int(&row, "distance", dist[t], TK_INF);
            cli_cell_u128(&row, "sigma", sigma[t]);
            cli_row_end(&row);
        }
    }
    free(dist);
    free(sigma);
    free(queue);
    return st;
}

static tk_status_t pairs_take(void *ctx, int64_t b, const unsigned char *p, size_t len,
                              tk_error_t *err)
{
    paths_mpi_t *m = ctx;
    (void)b;
    (void)err;
    if (m->rows && len)
        fwrite(p, 1, len, m->out);
    return TK_OK;
}

static void paths_mpi_init(paths_mpi_t *m, const tk_graph_t *g, const args_t *a, const char *name,
                           FILE *out)
{
    memset(m, 0, sizeof *m);
    m->g = g;
    m->a = a;
    m->name = name;
    m->out = out;
    m->threads = a->threads > 0 ? a->threads : cli_threads();
    m->block = 8 * (int64_t)cli_units_threads(m->threads); /* --shard: whatever --threads */
}

static int64_t paths_blocks(const paths_mpi_t *m)
{
    return (m->g->n + m->block - 1) / m->block;
}

/* tk_sigma_summary over the ranks (the result on rank 0). */
static tk_status_t summary_ranks(const tk_graph_t *g, const args_t *a, const char *name,
                                 tk_sigma_summary_t *out, tk_error_t *err)
{
    paths_mpi_t m;
    paths_mpi_init(&m, g, a, name, NULL);
    cli_units_t job = {paths_blocks(&m), 0, summary_block, summary_take, &m, 0, 0};
    tk_status_t st = cli_mpi_units(&job, err);
    if (st != TK_OK)
        tk_sigma_summary_destroy(&m.sum);
    *out = m.sum;
    return st;
}

/* Per-pair rows over the ranks: every count checked first (so that an
 * overflow prints nothing), then the rows, gathered in rounds of about
 * 1 MB that rank 0 writes in source order. */
static int per_pair_ranks(FILE *out, args_t *a, const tk_graph_t *g, const char *name,
                          tk_error_t *err)
{
    paths_mpi_t m;
    paths_mpi_init(&m, g, a, name, out);
    cli_units_t job = {paths_blocks(&m), 0, pairs_block, pairs_take, &m, 0, 0};
    if (cli_mpi_units(&job, err) != TK_OK)
        return 1;
    if (!cli_shard_partial()) /* --shard: the merge prints it */
        print_header(out, a);
    m.rows = 1;
    uint64_t row_bytes = (uint64_t)g->n * (strlen(name) + (a->json ? 80 : 40)) + 1;
    uint64_t round = ((uint64_t)1 << 20) / row_bytes / (uint64_t)m.block;
    job.round = round ? (int64_t)round : 1;
    return cli_mpi_units(&job, err) != TK_OK;
}

/* Summary of one graph: rows for d = 1..diameter, then 'all' (the
 * reachable pairs), then 'inf' (unreachable pairs) when there are any.
 * JSON: one object, the distances as an array. */
static int summary(FILE *out, args_t *a, const tk_graph_t *g, const char *name, tk_error_t *err)
{
    tk_sigma_summary_t s;
    sigma_stats_t st;
    cli_row_t row;

    if ((cli_units_distributed()
             ? summary_ranks(g, a, name, &s, err)
             : tk_sigma_summary(g, a->threads, cli_meter(name), &s, err)) != TK_OK)
        return 1;
    if (cli_shard_partial()) { /* --shard: the merge prints it */
        tk_sigma_summary_destroy(&s);
        return 0;
    }
    print_header(out, a);
    if (a->json) {
        cli_row_begin(&row, out, 1);
        cli_cell_text(&row, "name", name);
        cli_cell_int(&row, "n", g->n, 0);
        cli_cell_bool(&row, "directed", g->directed);
        cli_cell_open(&row, "distances", '[');
    }
    for (int32_t d = 1; d < s.len; d++) {
        char dbuf[16];
        if (!s.pairs[d])
            continue;
        sigma_stats(&s, d, &st);
        if (a->json) {
            cli_cell_open(&row, NULL, '{');
            cli_cell_int(&row, "distance", d, 0);
            stats_cells(&row, &st);
            cli_cell_close(&row);
        } else {
            snprintf(dbuf, sizeof dbuf, "%" PRId32, d);
            stats_row(out, name, dbuf, &st);
        }
    }
    sigma_stats_all(&s, &st);
    if (a->json) {
        cli_cell_close(&row);
        cli_cell_open(&row, "all", '{');
        cli_cell_text(&row, "distance", "all");
        stats_cells(&row, &st);
        cli_cell_close(&row);
        cli_cell_u64(&row, "unreachable", s.unreachable);
        cli_row_end(&row);
    } else {
        stats_row(out, name, "all", &st);
        if (s.unreachable) {
            memset(&st, 0, sizeof st);
            st.pairs = s.unreachable;
            stats_row(out, name, "inf", &st);
        }
    }
    tk_sigma_summary_destroy(&s);
    return 0;
}

/* Per-pair rows, source by source (the output dominates the time). */
static int per_pair(FILE *out, args_t *a, const tk_graph_t *g, const char *name, tk_error_t *err)
{
    if (cli_units_distributed())
        return per_pair_ranks(out, a, g, name, err);
    size_t n = (size_t)g->n;
    int32_t *dist = tk_malloc_array(n, sizeof *dist);
    u128 *sigma = tk_malloc_array(n, sizeof *sigma);
    tk_id_t *queue = tk_malloc_array(n, sizeof *queue);
    int rc = 0;
    if (!dist || !sigma || !queue) {
        tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%zu)", n);
        rc = 1;
        goto done;
    }
    /* Check every source first so that an overflow prints nothing (the
     * meter counts both passes). */
    tk_progress_t *pr = cli_meter(name);
    tk_progress_begin(pr, "per-pair counts", "sources", 2 * (int64_t)g->n);
    for (tk_id_t s = 0; s < g->n && !rc; s++) {
        if (tk_sigma_from(g, s, dist, sigma, queue, err) != TK_OK)
            rc = 1;
        tk_progress_add(pr, 1);
    }
    if (rc) {
        tk_progress_end(pr);
        goto done;
    }
    print_header(out, a);
    for (tk_id_t s = 0; s < g->n; s++) {
        tk_progress_add(pr, 1);
        tk_sigma_from(g, s, dist, sigma, queue, NULL);
        for (tk_id_t t = 0; t < g->n; t++) {
            if (t == s)
                continue;
            cli_row_t row;
            cli_row_begin(&row, out, a->json);
            cli_cell_text(&row, "name", name);
            cli_cell_int(&row, "src", s, 0);
            cli_cell_int(&row, "dst", t, 0);
            cli_cell_int(&row, "distance", dist[t], TK_INF);
            cli_cell_u128(&row, "sigma", sigma[t]);
            cli_row_end(&row);
        }
    }
    tk_progress_end(pr);
done:
    free(dist);
    free(sigma);
    free(queue);
    return rc;
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024];
    tk_error_t err;

    cli_graph_name(g, input, index, name, sizeof name);
    cli_progress("%s: graph %ld: n=%" PRId64 " arcs=%" PRId64 ": shortest-path counts", input,
                 index, (int64_t)g->n, g->m);
    tk_error_clear(&err);
    tk_status_t st;
    if (g->n <= 0)
        st = tk_error_set(&err, TK_EINVAL, NULL, 0, "empty graph");
    else if (!(a->pairs ? per_pair : summary)(out, a, g, name, &err))
        st = TK_OK;
    else
        st = err.code != TK_OK ? err.code : TK_EINTERNAL;
    if (cli_mpi_agree(st, &err, 1) == TK_OK) /* MPI: every rank stops */
        return 0;
    cli_graph_error(input, index, &err);
    return 1;
}

/* cli_run_table callbacks. */
static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    return one_graph(out, ctx, g, input, index);
}

static void table_header(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

static int run(args_t *a)
{
    uint64_t mem_limit = cli_mem_limit();

    cli_set_threads(a->threads);
    cli_progress_enable(a->progress);
    cli_table_t t = {a->output, a->ninputs, a->inputs, mem_limit, table_row, table_header, a};

    return cli_run_table(&t);
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
