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
    "topo-paths [--pairs] [--json] [--threads N] [--progress] [-o FILE] [FILE...]";

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
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error, 2 usage error.  See topo-paths(1).\n",
          stdout);
}

enum { OPT_PAIRS = 256, OPT_JSON, OPT_THREADS, OPT_PROGRESS, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"pairs", no_argument, NULL, OPT_PAIRS},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
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

/* One summary row (TSV) or object (JSON) of statistics. */
static void print_stats(FILE *fp, const args_t *a, const char *name, const char *dist,
                        uint64_t pairs, u128 mn, double avg, u128 mx, double uniq)
{
    if (a->json) {
        fprintf(fp, "{\"distance\":%s,\"pairs\":%" PRIu64 ",\"sigma_min\":", dist, pairs);
        cli_print_u128(fp, mn);
        fputs(",\"sigma_avg\":", fp);
        cli_print_double(fp, avg);
        fputs(",\"sigma_max\":", fp);
        cli_print_u128(fp, mx);
        fputs(",\"unique_fraction\":", fp);
        cli_print_double(fp, uniq);
        fputc('}', fp);
        return;
    }
    fprintf(fp, "%s\t%s\t%" PRIu64 "\t", name, dist, pairs);
    cli_print_u128(fp, mn);
    fputc('\t', fp);
    cli_print_double(fp, avg);
    fputc('\t', fp);
    cli_print_u128(fp, mx);
    fputc('\t', fp);
    cli_print_double(fp, uniq);
    fputc('\n', fp);
}

/* Summary of one graph: rows for d = 1..diameter, then 'all' (the
 * reachable pairs), then 'inf' (unreachable pairs) when there are any. */
static int summary(FILE *out, args_t *a, const tk_graph_t *g, const char *name, tk_error_t *err)
{
    tk_sigma_summary_t s;
    if (tk_sigma_summary(g, a->threads, &s, err) != TK_OK)
        return 1;
    print_header(out, a);
    if (a->json) {
        fputs("{\"name\":", out);
        cli_print_json_string(out, name);
        fprintf(out, ",\"n\":%" PRId64 ",\"directed\":%s,\"distances\":[", (int64_t)g->n,
                g->directed ? "true" : "false");
    }
    uint64_t pairs = 0, uniq = 0;
    u128 mn = ~(u128)0, mx = 0;
    u128 sum_lo = 0, sum_hi = 0; /* exact 256-bit total of sigma */
    int first = 1;
    for (int32_t d = 1; d < s.len; d++) {
        if (!s.pairs[d])
            continue;
        char dbuf[16];
        snprintf(dbuf, sizeof dbuf, "%" PRId32, d);
        if (a->json && !first)
            fputc(',', out);
        first = 0;
        print_stats(out, a, name, dbuf, s.pairs[d], s.min[d], tk_sigma_summary_avg(&s, d), s.max[d],
                    (double)s.unique[d] / (double)s.pairs[d]);
        pairs += s.pairs[d];
        uniq += s.unique[d];
        if (s.min[d] < mn)
            mn = s.min[d];
        if (s.max[d] > mx)
            mx = s.max[d];
        u128 t = sum_lo + s.sum_lo[d];
        sum_hi += s.sum_hi[d] + (t < sum_lo);
        sum_lo = t;
    }
    if (!pairs)
        mn = 0;
    if (a->json)
        fputs("],\"all\":", out);
    print_stats(out, a, name, a->json ? "\"all\"" : "all", pairs, mn,
                pairs ? (double)(((long double)sum_hi * 340282366920938463463374607431768211456.0L +
                                  (long double)sum_lo) /
                                 (long double)pairs)
                      : 0.0,
                mx, pairs ? (double)uniq / (double)pairs : 0.0);
    if (a->json)
        fprintf(out, ",\"unreachable\":%" PRIu64 "}\n", s.unreachable);
    else if (s.unreachable)
        print_stats(out, a, name, "inf", s.unreachable, 0, 0.0, 0, 0.0);
    tk_sigma_summary_destroy(&s);
    return 0;
}

/* Per-pair rows, source by source (the output dominates the time). */
static int per_pair(FILE *out, args_t *a, const tk_graph_t *g, const char *name, tk_error_t *err)
{
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
    /* Check every source first so that an overflow prints nothing. */
    for (tk_id_t s = 0; s < g->n && !rc; s++)
        if (tk_sigma_from(g, s, dist, sigma, queue, err) != TK_OK)
            rc = 1;
    if (rc)
        goto done;
    print_header(out, a);
    for (tk_id_t s = 0; s < g->n; s++) {
        tk_sigma_from(g, s, dist, sigma, queue, NULL);
        for (tk_id_t t = 0; t < g->n; t++) {
            if (t == s)
                continue;
            if (a->json) {
                fputs("{\"name\":", out);
                cli_print_json_string(out, name);
                fprintf(out, ",\"src\":%" PRId32 ",\"dst\":%" PRId32 ",\"distance\":", s, t);
                if (dist[t] == TK_INF)
                    fputs("\"inf\"", out);
                else
                    fprintf(out, "%" PRId32, dist[t]);
                fputs(",\"sigma\":", out);
                cli_print_u128(out, sigma[t]);
                fputs("}\n", out);
            } else {
                fprintf(out, "%s\t%" PRId32 "\t%" PRId32 "\t", name, s, t);
                cli_print_int_or_inf(out, dist[t], TK_INF);
                fputc('\t', out);
                cli_print_u128(out, sigma[t]);
                fputc('\n', out);
            }
        }
    }
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
    if (g->n <= 0)
        tk_error_set(&err, TK_EINVAL, NULL, 0, "empty graph");
    else if (!(a->pairs ? per_pair : summary)(out, a, g, name, &err))
        return 0;
    cli_errorf("%s: graph %ld: %s", input, index, err.msg[0] ? err.msg : tk_status_str(err.code));
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
    return run(&a);
}
