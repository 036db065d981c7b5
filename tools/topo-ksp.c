/*
 * topo-ksp - k shortest simple paths of every ordered pair (average length
 * and length distribution) and hop-limited simple-path counts, ALLPATH(H),
 * of every graph of the inputs.  See topo-ksp(1).
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
    "topo-ksp [-k K] [--allpath H [--raw]] [--pairs N [-s SEED]] [--hist] [--json]\n"
    "                [--threads N] [--progress] [--shard I/P] [-o FILE] [FILE...]";

#define DEFAULT_K 8

typedef struct args {
    int32_t k;       /* -k K (0: not computed)                       */
    int k_given;     /* -k was given                                 */
    int32_t allpath; /* --allpath H (0: not computed)                */
    int raw;         /* --raw: raw H-hop paths (walks)               */
    uint64_t sample; /* --pairs N (0: all pairs)                     */
    uint64_t seed;   /* -s SEED                                      */
    int seed_given;
    int hist;           /* --hist: length distribution table            */
    int json;           /* --json                                       */
    int progress;       /* --progress                                   */
    int threads;        /* --threads N (0 when not given)               */
    const char *output; /* -o FILE (NULL = stdout)                      */
    char **inputs;      /* operands (none = stdin)                      */
    int ninputs;
    int header_done; /* run state                                    */
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Average length of the k shortest simple paths over all ordered pairs of\n"
          "distinct switches of every graph read from FILE (or standard input), one TSV\n"
          "row per graph with the columns\n"
          "  name n k avg_ksp_length degree pairs sampled short_pairs min_length max_length\n"
          "and, with --allpath H, also\n"
          "  H allpath_min allpath_avg allpath_max\n"
          "A pair with fewer than k simple paths uses all it has (short_pairs counts them).\n\n"
          "Options:\n"
          "  -k K                  paths per pair (K >= 1, default 8; with --allpath the\n"
          "                        k-shortest columns are computed only when -k is given)\n"
          "  --allpath H           also count the simple paths of at most H hops of every\n"
          "                        pair (H >= 1)\n"
          "  --raw                 with --allpath: count raw H-hop paths instead (walks\n"
          "                        of exactly H links; switches and self-loops may\n"
          "                        repeat), the paths of Lemma 9 of Faizian et al.\n"
          "  --pairs N             sample N ordered pairs uniformly (with replacement)\n"
          "                        instead of all pairs\n"
          "  -s, --seed SEED       seed of the sample (default 1)\n"
          "  --hist                table 'name length paths': how many of the chosen\n"
          "                        paths have each length\n"
          "  --json                JSON Lines, one object per graph (with the length\n"
          "                        distribution as an array)\n"
          "  --threads N           OpenMP threads (N >= 1); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  --shard I/P           compute shard I of P only and write it as a shard\n"
          "                        file; topo-merge(1) combines the P shards\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error, 2 usage error.  See topo-ksp(1).\n",
          stdout);
}

enum {
    OPT_ALLPATH = 256,
    OPT_RAW,
    OPT_PAIRS,
    OPT_HIST,
    OPT_JSON,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_SHARD,
    OPT_VERSION
};

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"allpath", required_argument, NULL, OPT_ALLPATH},
        {"raw", no_argument, NULL, OPT_RAW},
        {"pairs", required_argument, NULL, OPT_PAIRS},
        {"seed", required_argument, NULL, 's'},
        {"hist", no_argument, NULL, OPT_HIST},
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
    a->seed = 1;
    cli_shard_args("topo-ksp", &argc, &argv, ":hk:s:o:", longopts, usage);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hk:s:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            a->k = (int32_t)cli_int_arg("-k", optarg, 1, INT32_MAX);
            a->k_given = 1;
            break;
        case OPT_ALLPATH:
            a->allpath = (int32_t)cli_int_arg("--allpath", optarg, 1, 1000);
            break;
        case OPT_PAIRS:
            a->sample = (uint64_t)cli_int_arg("--pairs", optarg, 1, INT64_C(1) << 40);
            break;
        case 's':
            a->seed = cli_u64_arg("--seed", optarg);
            a->seed_given = 1;
            break;
        case OPT_RAW:
            a->raw = 1;
            break;
        case OPT_HIST:
            a->hist = 1;
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
    if (!a->k_given && !a->allpath)
        a->k = DEFAULT_K;
    if (a->raw && !a->allpath)
        cli_usage_fail(usage, "--raw needs --allpath H");
    if (a->seed_given && !a->sample)
        cli_usage_fail(usage, "-s/--seed only makes sense with --pairs");
    if (a->hist && !a->k)
        cli_usage_fail(usage, "--hist needs the k-shortest search: give -k with --allpath");
    if (a->hist && a->json)
        cli_usage_fail(usage, "--hist and --json: the JSON object already has the lengths");
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
    if (a->hist) {
        fputs("name\tlength\tpaths\n", fp);
        return;
    }
    fputs("name\tn\tk\tavg_ksp_length\tdegree\tpairs\tsampled\tshort_pairs\tmin_length\t"
          "max_length",
          fp);
    if (a->allpath)
        fputs("\tH\tallpath_min\tallpath_avg\tallpath_max", fp);
    fputc('\n', fp);
}

static double ratio(u128 num, uint64_t den)
{
    return den ? (double)((long double)num / (long double)den) : 0.0;
}

static int32_t min_length(const tk_ksp_result_t *r)
{
    for (int32_t L = 0; L < r->len_hist_len; L++)
        if (r->len_hist[L])
            return L;
    return -1;
}

/* The k-shortest cells: TSV k avg_ksp_length ... short_pairs min_length
 * max_length ("-" without -k); JSON adds the exact counts and the length
 * distribution. */
static void ksp_cells(cli_row_t *row, const args_t *a, const tk_ksp_result_t *r)
{
    int32_t lmin = min_length(r);

    if (!a->k) {
        if (!row->json) {
            cli_cell_null(row, "short_pairs");
            cli_cell_null(row, "min_length");
            cli_cell_null(row, "max_length");
        }
        return;
    }
    if (row->json) {
        cli_cell_u64(row, "short_pairs", r->short_pairs);
        cli_cell_u128(row, "paths", r->paths);
        cli_cell_u128(row, "length_sum", r->len_sum);
        cli_cell_open(row, "length_paths", '[');
        for (int32_t L = 0; L < r->len_hist_len; L++)
            cli_cell_u64(row, NULL, r->len_hist[L]);
        cli_cell_close(row);
        return;
    }
    cli_cell_u64(row, "short_pairs", r->short_pairs);
    if (lmin >= 0) {
        cli_cell_int(row, "min_length", lmin, 0);
        cli_cell_int(row, "max_length", r->len_hist_len - 1, 0);
    } else {
        cli_cell_null(row, "min_length");
        cli_cell_null(row, "max_length");
    }
}

/* The row of one graph (TSV) or its JSON object; --hist: the length table. */
static void print_row(FILE *fp, const args_t *a, const tk_graph_t *g, const char *name,
                      const tk_ksp_result_t *r)
{
    int64_t deg = tk_graph_regular_degree(g);
    uint64_t paths = (uint64_t)r->paths;
    cli_row_t row;

    if (a->hist) {
        for (int32_t L = 0; L < r->len_hist_len; L++) {
            if (!r->len_hist[L])
                continue;
            cli_row_begin(&row, fp, 0);
            cli_cell_text(&row, "name", name);
            cli_cell_int(&row, "length", L, 0);
            cli_cell_u64(&row, "paths", r->len_hist[L]);
            cli_row_end(&row);
        }
        return;
    }
    cli_row_begin(&row, fp, a->json);
    cli_cell_text(&row, "name", name);
    cli_cell_int(&row, "n", g->n, 0);
    if (a->k) {
        cli_cell_int(&row, "k", a->k, 0);
        if (paths)
            cli_cell_double(&row, "avg_ksp_length", ratio(r->len_sum, paths));
        else
            cli_cell_null(&row, "avg_ksp_length");
    } else if (!a->json) {
        cli_cell_null(&row, "k");
        cli_cell_null(&row, "avg_ksp_length");
    }
    if (deg >= 0)
        cli_cell_int(&row, "degree", deg, 0);
    else
        cli_cell_null(&row, "degree");
    cli_cell_u64(&row, "pairs", r->pairs);
    cli_cell_bool(&row, "sampled", a->sample != 0);
    ksp_cells(&row, a, r);
    if (a->allpath) {
        cli_cell_int(&row, "H", a->allpath, 0);
        cli_cell_u64(&row, "allpath_min", r->allpath_min);
        cli_cell_double(&row, "allpath_avg", ratio(r->allpath_sum, r->pairs));
        cli_cell_u64(&row, "allpath_max", r->allpath_max);
        if (a->json)
            cli_cell_u128(&row, "allpath_sum", r->allpath_sum);
    }
    cli_row_end(&row);
}

/* Under MPI (several ranks): the plan's units in blocks of one unit per
 * thread, handed out dynamically (cli_mpi_units); a block's partial
 * result crosses as integers and rank 0 merges the blocks in order. */
typedef struct ksp_mpi {
    const tk_ksp_plan_t *plan;
    int64_t block, units;
    int threads;
    tk_ksp_result_t sum; /* rank 0: the merged result */
} ksp_mpi_t;

static void put_u128(FILE *fp, u128 x)
{
    fwrite(&x, sizeof x, 1, fp);
}

static tk_status_t ksp_block(void *ctx, int64_t b, FILE *fp, tk_error_t *err)
{
    ksp_mpi_t *m = ctx;
    int64_t lo = b * m->block, hi = lo + m->block < m->units ? lo + m->block : m->units;
    tk_ksp_result_t r;
    tk_status_t st = tk_ksp_plan_run(m->plan, lo, hi, m->threads, &r, err);
    if (st != TK_OK)
        return st;
    uint64_t w[5] = {r.pairs, r.short_pairs, r.allpath_min, r.allpath_max,
                     (uint64_t)r.len_hist_len};
    fwrite(w, sizeof w, 1, fp);
    put_u128(fp, r.paths);
    put_u128(fp, r.len_sum);
    put_u128(fp, r.allpath_sum);
    fwrite(r.len_hist, sizeof *r.len_hist, (size_t)r.len_hist_len, fp);
    tk_ksp_result_destroy(&r);
    return TK_OK;
}

static tk_status_t ksp_take(void *ctx, int64_t b, const unsigned char *p, size_t len,
                            tk_error_t *err)
{
    ksp_mpi_t *m = ctx;
    tk_ksp_result_t r;
    uint64_t w[5];
    (void)b;
    memset(&r, 0, sizeof r);
    if (len < sizeof w + 3 * sizeof(u128))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "k-shortest block %lld: short result",
                            (long long)b);
    memcpy(w, p, sizeof w);
    r.pairs = w[0];
    r.short_pairs = w[1];
    r.allpath_min = w[2];
    r.allpath_max = w[3];
    r.len_hist_len = (int32_t)w[4];
    p += sizeof w;
    memcpy(&r.paths, p, sizeof r.paths);
    memcpy(&r.len_sum, p + 16, sizeof r.len_sum);
    memcpy(&r.allpath_sum, p + 32, sizeof r.allpath_sum);
    p += 48;
    if (len != sizeof w + 48 + (size_t)r.len_hist_len * sizeof *r.len_hist)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "k-shortest block %lld: bad result length",
                            (long long)b);
    uint64_t *h = r.len_hist_len ? malloc((size_t)r.len_hist_len * sizeof *h) : NULL;
    if (r.len_hist_len && !h)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (length histogram)");
    if (h)
        memcpy(h, p, (size_t)r.len_hist_len * sizeof *h);
    r.len_hist = h;
    tk_status_t st = tk_ksp_result_merge(&m->sum, &r, err);
    free(h);
    return st;
}

/* tk_ksp over the MPI ranks: the same result on rank 0 (the others' is
 * not used). */
static tk_status_t ksp_ranks(const tk_graph_t *g, const tk_ksp_opts_t *opts, tk_ksp_result_t *out,
                             tk_error_t *err)
{
    tk_ksp_plan_t *plan = NULL;
    tk_ksp_opts_t o = *opts;
    ksp_mpi_t m;

    memset(out, 0, sizeof *out);
    memset(&m, 0, sizeof m);
    o.progress = NULL; /* each rank sees only its own blocks */
    tk_status_t st = tk_ksp_plan_new(g, &o, &plan, err);
    st = cli_mpi_agree(st, err, 0);
    if (st != TK_OK) {
        tk_ksp_plan_free(plan);
        return st;
    }
    m.plan = plan;
    m.threads = o.threads > 0 ? o.threads : cli_threads();
    m.block = cli_units_threads(m.threads); /* --shard: whatever --threads */
    m.units = tk_ksp_plan_units(plan);
    m.sum.allpath_min = UINT64_MAX;
    cli_units_t job = {(m.units + m.block - 1) / m.block, 0, ksp_block, ksp_take, &m, 0, 0};
    st = cli_mpi_units(&job, err);
    if (st == TK_OK && !cli_shard_partial()) {
        tk_ksp_result_finish(plan, &m.sum);
        *out = m.sum;
    } else {
        tk_ksp_result_destroy(&m.sum);
    }
    tk_ksp_plan_free(plan);
    return st;
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024];
    tk_error_t err;
    tk_ksp_result_t r;
    tk_ksp_opts_t opts = {
        a->threads, a->k, a->allpath, a->raw, a->sample, a->seed, cli_meter_graph(input, index)};

    cli_graph_name(g, input, index, name, sizeof name);
    cli_progress("%s: graph %ld: n=%" PRId64 " arcs=%" PRId64 ": paths", input, index,
                 (int64_t)g->n, g->m);
    tk_error_clear(&err);
    /* topokit(7): a graph that is not connected is an error, not an
     * average over the pairs that happen to be reachable */
    tk_status_t st = tk_check_connected(g, &err);
    if (st == TK_OK)
        st = cli_units_distributed() ? ksp_ranks(g, &opts, &r, &err) : tk_ksp(g, &opts, &r, &err);
    if (cli_mpi_agree(st, &err, 1) != TK_OK) { /* MPI: every rank stops */
        cli_graph_error(input, index, &err);
        return 1;
    }
    if (cli_shard_partial()) /* --shard: the merge prints it */
        return 0;
    print_header(out, a);
    print_row(out, a, g, name, &r);
    tk_ksp_result_destroy(&r);
    return 0;
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
    /* The sample is stored (16 bytes a pair: the pair and its group). */
    if (a->sample && mem_limit && a->sample > mem_limit / 16) {
        cli_errorf("--pairs %" PRIu64 ": the sample needs %" PRIu64
                   " bytes, more than the memory limit (%" PRIu64 " bytes)",
                   a->sample, a->sample * 16, mem_limit);
        return CLI_EXIT_DATA;
    }
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
