/*
 * topo-route - paths of a routing model (topokit(7), ROUTING MODELS):
 * per graph a summary over all ordered pairs of switches, or per pair the
 * number of paths and their hop lengths, or the paths of one pair with
 * their weights.  See topo-route(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"

static const char usage[] = "topo-route [-r ROUTING] [--pair S,D [--paths] | --pairs | "
                            "--dump next|paths] [--max-paths N] [--json] [--threads N] "
                            "[--progress] [-o FILE] [FILE...]";

typedef struct args {
    tk_route_spec_t spec; /* -r ROUTING                                   */
    int have_spec;
    int pair; /* --pair S,D given                             */
    int64_t ps, pd;
    int pairs;          /* --pairs                                      */
    int dump;           /* --dump: 1 next hops, 2 paths, of every pair  */
    int paths;          /* --paths                                      */
    uint64_t max_paths; /* --max-paths N (with --paths)                 */
    int json;           /* --json: JSON Lines                           */
    int progress;
    int threads;
    const char *output;
    char **inputs;
    int ninputs;
    int header_done;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Paths of a routing model on every graph read from FILE (or standard input).\n"
          "Default: one TSV row per graph summarising all ordered pairs of distinct\n"
          "switches, with the columns\n"
          "  name routing pairs paths_min paths_avg paths_max min_len avg_len max_len\n"
          "  walks_min walks_avg walks_max\n"
          "(paths per pair, draws through different intermediates apart; hop lengths:\n"
          "the shortest, the traffic-weighted mean over pairs, the longest; distinct\n"
          "walks per pair).  Routing models (topokit(7)): min, ecmp, ksp:K[,spread],\n"
          "allpath:H, valiant[,exclude|,minfirst|,servers|,early], dragonfly-min,\n"
          "dragonfly-valiant, dragonfly-valiant-crg, polarized, dor, valiant,dor,\n"
          "dragonfly-ugal, dragonfly-par, dragonfly-olm; hop lengths per link class as\n"
          "options, e.g. min,global=2.\n\n"
          "Options:\n"
          "  -r, --routing MODEL   the routing model (default min)\n"
          "  --pair S,D            one row for the pair S -> D:\n"
          "                        name src dst paths min_len max_len avg_len walks\n"
          "  --pairs               such a row for every ordered pair of distinct switches\n"
          "  --dump next           every ordered pair's next hops, for table routing:\n"
          "                        name src dst next weight (the share of the pair's\n"
          "                        traffic whose first hop goes to switch next)\n"
          "  --dump paths          every ordered pair's paths, one row each, as --paths\n"
          "  --paths               with --pair: the paths themselves, one row each:\n"
          "                        name src dst index weight hops path via phase2\n"
          "  --max-paths N         with --paths or --dump: refuse a pair with more than N\n"
          "                        paths (default 100000)\n"
          "  --json                JSON Lines: one object per row, same names and values\n"
          "  --threads N           OpenMP threads (N >= 1); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error (pair out of range, model not supported\n"
          "by the graph, too many paths), 2 usage error.  See topo-route(1).\n",
          stdout);
}

enum {
    OPT_PAIR = 256,
    OPT_PAIRS,
    OPT_DUMP,
    OPT_PATHS,
    OPT_MAXP,
    OPT_JSON,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_VERSION
};

/* --pair S,D: two switch ids. */
static void parse_pair(const char *s, args_t *a)
{
    const char *comma = strchr(s, ',');
    char part[32], why[CLI_WHY_MAX];
    size_t len = comma ? (size_t)(comma - s) : 0;

    if (!comma || len >= sizeof part)
        cli_arg_fail("--pair", s, "expected S,D (two switch ids)");
    memcpy(part, s, len);
    part[len] = '\0';
    if (cli_parse_int(part, 0, INT32_MAX, &a->ps, why) ||
        cli_parse_int(comma + 1, 0, INT32_MAX, &a->pd, why))
        cli_arg_fail("--pair", s, "switch ids: %s", why);
    a->pair = 1;
}

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"routing", required_argument, NULL, 'r'},
        {"pair", required_argument, NULL, OPT_PAIR},
        {"pairs", no_argument, NULL, OPT_PAIRS},
        {"dump", required_argument, NULL, OPT_DUMP},
        {"paths", no_argument, NULL, OPT_PATHS},
        {"max-paths", required_argument, NULL, OPT_MAXP},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;
    tk_error_t err;

    memset(a, 0, sizeof *a);
    a->max_paths = 100000;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hr:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            if (tk_route_parse(optarg, &a->spec, &err) != TK_OK)
                cli_usage_fail(usage, "%s", err.msg);
            a->have_spec = 1;
            break;
        case OPT_PAIR:
            parse_pair(optarg, a);
            break;
        case OPT_PAIRS:
            a->pairs = 1;
            break;
        case OPT_DUMP: {
            static const char *const kinds[] = {"next", "paths", NULL};
            a->dump = 1 + cli_choice_arg("--dump", optarg, kinds);
            break;
        }
        case OPT_PATHS:
            a->paths = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_MAXP:
            a->max_paths = (uint64_t)cli_int_arg("--max-paths", optarg, 1, INT64_MAX);
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
    if (!a->have_spec && tk_route_parse("min", &a->spec, &err) != TK_OK)
        cli_usage_fail(usage, "%s", err.msg);
    if (a->pair && a->pairs)
        cli_usage_fail(usage, "--pair and --pairs exclude each other");
    if (a->paths && !a->pair)
        cli_usage_fail(usage, "--paths needs --pair S,D");
    if (a->dump && (a->pair || a->pairs))
        cli_usage_fail(usage, "--dump excludes --pair and --pairs");
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
    if (a->dump == 1)
        fputs("name\tsrc\tdst\tnext\tweight\n", fp);
    else if (a->paths || a->dump == 2)
        fputs("name\tsrc\tdst\tindex\tweight\thops\tpath\tvia\tphase2\n", fp);
    else if (a->pair || a->pairs)
        fputs("name\tsrc\tdst\tpaths\tmin_len\tmax_len\tavg_len\twalks\n", fp);
    else
        fputs("name\trouting\tpairs\tpaths_min\tpaths_avg\tpaths_max\tmin_len\tavg_len\tmax_len"
              "\twalks_min\twalks_avg\twalks_max\n",
              fp);
}

static void print_pair_row(FILE *out, int json, const char *name, tk_id_t s, tk_id_t t,
                           const tk_route_count_t *c)
{
    cli_row_t row;
    cli_row_begin(&row, out, json);
    cli_cell_str(&row, "name", name);
    cli_cell_int(&row, "src", s, 0);
    cli_cell_int(&row, "dst", t, 0);
    cli_cell_double(&row, "paths", c->paths);
    cli_cell_int(&row, "min_len", c->min_len, 0);
    cli_cell_int(&row, "max_len", c->max_len, 0);
    cli_cell_double(&row, "avg_len", c->avg_len);
    cli_cell_double(&row, "walks", c->walks);
    cli_row_end(&row);
}

/* Path i of ps as the text "s-v1-v2-..." in *buf (grown as needed: 12
 * bytes a switch).  NULL when out of memory. */
static const char *path_text(char **buf, size_t *cap, const tk_graph_t *g, int64_t s,
                             const tk_pathset_t *ps, int64_t i)
{
    size_t need = (size_t)(ps->off[i + 1] - ps->off[i] + 1) * 12 + 1, len;

    if (need > *cap) {
        char *p = realloc(*buf, need);
        if (!p)
            return NULL;
        *buf = p;
        *cap = need;
    }
    len = (size_t)snprintf(*buf, *cap, "%" PRId64, s);
    for (int64_t k = ps->off[i]; k < ps->off[i + 1]; k++)
        len += (size_t)snprintf(*buf + len, *cap - len, "-%" PRId32, g->head[ps->arc[k]]);
    return *buf;
}

/* Paths of one pair: one row each. */
static int one_pair_paths(FILE *out, args_t *a, const tk_router_t *r, tk_route_ws_t *ws,
                          const char *name, int64_t src, int64_t dst, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_pathset_t ps;
    char *buf = NULL;
    size_t cap = 0;
    int rc = 0;

    tk_pathset_init(&ps);
    if (tk_route_paths(r, ws, (tk_id_t)src, (tk_id_t)dst, a->max_paths, &ps, err) != TK_OK) {
        tk_pathset_destroy(&ps);
        return 1;
    }
    print_header(out, a);
    for (int64_t i = 0; i < ps.npaths && !rc; i++) {
        const char *path = path_text(&buf, &cap, g, src, &ps, i);
        cli_row_t row;

        if (!path) {
            rc = 1;
            tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            break;
        }
        cli_row_begin(&row, out, a->json);
        cli_cell_str(&row, "name", name);
        cli_cell_int(&row, "src", src, 0);
        cli_cell_int(&row, "dst", dst, 0);
        cli_cell_int(&row, "index", i, 0);
        cli_cell_double(&row, "weight", ps.w[i]);
        cli_cell_int(&row, "hops", ps.off[i + 1] - ps.off[i], 0);
        cli_cell_text(&row, "path", path);
        /* the intermediate and the first hop of the second phase */
        if (ps.via[i] >= 0) {
            cli_cell_int(&row, "via", ps.via[i], 0);
            cli_cell_int(&row, "phase2", ps.phase2[i], 0);
        } else {
            cli_cell_str(&row, "via", "-");
            cli_cell_str(&row, "phase2", "-");
        }
        cli_row_end(&row);
    }
    free(buf);
    tk_pathset_destroy(&ps);
    return rc;
}

/* Per-target results of the all-pairs modes. */
typedef struct tstat {
    double pmin, pmax, psum, lsum;
    double wmin, wmax, wsum; /* walks */
    int32_t lmin, lmax;
    int64_t pairs;
} tstat_t;

static const tstat_t tstat_empty = {1e308, 0, 0, 0, 1e308, 0, 0, INT32_MAX, 0, 0};

/* Add the counts of one pair, or the statistics of one target, to st. */
static void tstat_add_pair(tstat_t *st, const tk_route_count_t *c)
{
    st->pairs++;
    st->psum += c->paths;
    st->lsum += c->avg_len;
    if (c->paths < st->pmin)
        st->pmin = c->paths;
    if (c->paths > st->pmax)
        st->pmax = c->paths;
    st->wsum += c->walks;
    if (c->walks < st->wmin)
        st->wmin = c->walks;
    if (c->walks > st->wmax)
        st->wmax = c->walks;
    if (c->min_len < st->lmin)
        st->lmin = c->min_len;
    if (c->max_len > st->lmax)
        st->lmax = c->max_len;
}

static void tstat_add(tstat_t *tot, const tstat_t *t)
{
    if (!t->pairs)
        return;
    tot->pairs += t->pairs;
    tot->psum += t->psum;
    tot->lsum += t->lsum;
    if (t->pmin < tot->pmin)
        tot->pmin = t->pmin;
    if (t->pmax > tot->pmax)
        tot->pmax = t->pmax;
    tot->wsum += t->wsum;
    if (t->wmin < tot->wmin)
        tot->wmin = t->wmin;
    if (t->wmax > tot->wmax)
        tot->wmax = t->wmax;
    if (t->lmin < tot->lmin)
        tot->lmin = t->lmin;
    if (t->lmax > tot->lmax)
        tot->lmax = t->lmax;
}

/* The pairs (s, t) of one target t: statistics in *st, the counts in pc
 * (row s, column t; NULL: not kept). */
static tk_status_t target_pairs(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t t, tstat_t *st,
                                tk_route_count_t *pc, tk_error_t *err)
{
    tk_id_t n = tk_router_graph(r)->n;

    *st = tstat_empty;
    for (tk_id_t s = 0; s < n; s++) {
        tk_route_count_t c;
        tk_status_t status;
        if (s == t)
            continue;
        if ((status = tk_route_count(r, ws, s, t, &c, err)) != TK_OK)
            return status;
        if (pc)
            pc[(size_t)s * (size_t)n + (size_t)t] = c;
        tstat_add_pair(st, &c);
    }
    return TK_OK;
}

/* The summary row of all pairs: the targets' statistics reduced in target
 * order (the output does not depend on the thread count). */
static void print_summary(FILE *out, const args_t *a, const tk_router_t *r, const char *name,
                          const tstat_t *ts)
{
    tstat_t tot = tstat_empty;
    cli_row_t row;

    for (tk_id_t t = 0; t < tk_router_graph(r)->n; t++)
        tstat_add(&tot, &ts[t]);
    if (!tot.pairs) {
        tot.pmin = 0;
        tot.wmin = 0;
        tot.lmin = 0;
    }
    cli_row_begin(&row, out, a->json);
    cli_cell_str(&row, "name", name);
    cli_cell_str(&row, "routing", tk_router_spec(r)->text);
    cli_cell_int(&row, "pairs", tot.pairs, 0);
    cli_cell_double(&row, "paths_min", tot.pmin);
    cli_cell_double(&row, "paths_avg", tot.pairs ? tot.psum / (double)tot.pairs : 0.0);
    cli_cell_double(&row, "paths_max", tot.pmax);
    cli_cell_int(&row, "min_len", tot.lmin, 0);
    cli_cell_double(&row, "avg_len", tot.pairs ? tot.lsum / (double)tot.pairs : 0.0);
    cli_cell_int(&row, "max_len", tot.lmax, 0);
    cli_cell_double(&row, "walks_min", tot.wmin);
    cli_cell_double(&row, "walks_avg", tot.pairs ? tot.wsum / (double)tot.pairs : 0.0);
    cli_cell_double(&row, "walks_max", tot.wmax);
    cli_row_end(&row);
}

/* Keep the error of the smallest failing target (-1: a workspace), so the
 * message does not depend on the thread count. */
static void keep_failure(int64_t t, const tk_error_t *e, int64_t *fail_t, tk_error_t *ferr)
{
#ifdef _OPENMP
#pragma omp critical(topo_route_fail)
#endif
    {
        if (t < *fail_t) {
            *fail_t = t;
            *ferr = *e;
        }
    }
}

/* All ordered pairs, per target t in parallel (min and ecmp search the
 * distances per target).  Per-pair rows are kept (n^2 counts) only with
 * --pairs. */
static int all_pairs(FILE *out, args_t *a, const tk_router_t *r, const char *name, tk_error_t *err)
{
    tk_id_t n = tk_router_graph(r)->n;
    tstat_t *ts = tk_calloc_array((size_t)n, sizeof *ts);
    tk_route_count_t *pc = NULL;
    int64_t fail_t = INT64_MAX;

    if (!ts)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory"), 1;
    if (a->pairs && !(pc = tk_malloc_array((size_t)n * (size_t)n, sizeof *pc))) {
        free(ts);
        tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (--pairs keeps n^2 rows)");
        return 1;
    }
#ifdef _OPENMP
#pragma omp parallel
#endif
    {
        tk_route_ws_t *ws = NULL;
        tk_error_t e;
        if (tk_route_ws_new(r, &ws, &e) != TK_OK)
            keep_failure(-1, &e, &fail_t, err);
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 4)
#endif
        for (tk_id_t t = 0; t < n; t++)
            if (ws && target_pairs(r, ws, t, &ts[t], pc, &e) != TK_OK)
                keep_failure(t, &e, &fail_t, err);
        tk_route_ws_free(ws);
    }
    if (fail_t == INT64_MAX) {
        print_header(out, a);
        if (pc) {
            for (tk_id_t s = 0; s < n; s++)
                for (tk_id_t t = 0; t < n; t++)
                    if (s != t)
                        print_pair_row(out, a->json, name, s, t,
                                       &pc[(size_t)s * (size_t)n + (size_t)t]);
        } else {
            print_summary(out, a, r, name, ts);
        }
    }
    free(ts);
    free(pc);
    return fail_t != INT64_MAX;
}

static int cmp_hop(const void *x, const void *y)
{
    const double *a = x, *b = y;
    return a[0] < b[0] ? -1 : a[0] > b[0];
}

/* The next hops of pair (s, t): the paths' weights summed by the switch
 * their first arc leads to, in switch order. */
static int pair_next_hops(FILE *out, args_t *a, const tk_router_t *r, tk_route_ws_t *ws,
                          const char *name, tk_id_t s, tk_id_t t, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_pathset_t ps;
    double *hop = NULL; /* (next, weight) pairs */

    tk_pathset_init(&ps);
    if (tk_route_paths(r, ws, s, t, a->max_paths, &ps, err) != TK_OK) {
        tk_pathset_destroy(&ps);
        return 1;
    }
    if (ps.npaths > 0 && !(hop = tk_malloc_array((size_t)ps.npaths * 2, sizeof *hop))) {
        tk_pathset_destroy(&ps);
        tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        return 1;
    }
    for (int64_t i = 0; i < ps.npaths; i++) {
        hop[2 * i] = ps.off[i + 1] > ps.off[i] ? g->head[ps.arc[ps.off[i]]] : t;
        hop[2 * i + 1] = ps.w[i];
    }
    qsort(hop, (size_t)ps.npaths, 2 * sizeof *hop, cmp_hop);
    for (int64_t i = 0; i < ps.npaths;) {
        double w = 0;
        int64_t j = i;
        for (; j < ps.npaths && hop[2 * j] == hop[2 * i]; j++)
            w += hop[2 * j + 1];
        cli_row_t row;
        cli_row_begin(&row, out, a->json);
        cli_cell_str(&row, "name", name);
        cli_cell_int(&row, "src", s, 0);
        cli_cell_int(&row, "dst", t, 0);
        cli_cell_int(&row, "next", (int64_t)hop[2 * i], 0);
        cli_cell_double(&row, "weight", w);
        cli_row_end(&row);
        i = j;
    }
    free(hop);
    tk_pathset_destroy(&ps);
    return 0;
}

/* --dump: every ordered pair of distinct switches, in (src, dst) order. */
static int dump_pairs(FILE *out, args_t *a, const tk_router_t *r, const char *name, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_route_ws_t *ws = NULL;
    int rc = 0;

    if (tk_route_ws_new(r, &ws, err) != TK_OK)
        return 1;
    print_header(out, a);
    tk_progress_t *pr = cli_meter(name);
    tk_progress_begin(pr, "--dump", "sources", g->n);
    for (tk_id_t s = 0; s < g->n && !rc; s++) {
        for (tk_id_t t = 0; t < g->n && !rc; t++) {
            if (s == t)
                continue;
            rc = a->dump == 1 ? pair_next_hops(out, a, r, ws, name, s, t, err)
                              : one_pair_paths(out, a, r, ws, name, s, t, err);
            if (rc) {
                char msg[TK_ERRMSG_MAX];
                snprintf(msg, sizeof msg, "%s", err->msg);
                tk_error_set(err, err->code, NULL, 0, "pair %" PRId32 ",%" PRId32 ": %s", s, t,
                             msg);
            }
        }
        tk_progress_add(pr, 1);
    }
    tk_progress_end(pr);
    tk_route_ws_free(ws);
    return rc;
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024];
    tk_error_t err;
    tk_router_t *r = NULL;
    tk_route_ws_t *ws = NULL;
    int rc = 1;

    cli_graph_name(g, input, index, name, sizeof name);
    cli_progress("%s: graph %ld: n=%" PRId64 ": routing %s", input, index, (int64_t)g->n,
                 a->spec.text);
    tk_error_clear(&err);
    if (g->n <= 0) {
        tk_error_set(&err, TK_EINVAL, NULL, 0, "empty graph");
        goto done;
    }
    if (a->pair && (a->ps >= g->n || a->pd >= g->n)) {
        tk_error_set(&err, TK_ERANGE, NULL, 0,
                     "--pair %" PRId64 ",%" PRId64 ": switch ids are 0..%" PRId32, a->ps, a->pd,
                     g->n - 1);
        goto done;
    }
    if (tk_router_new(g, &a->spec, a->threads, cli_mem_limit(), &r, &err) != TK_OK)
        goto done;
    if (a->pair) {
        if (tk_route_ws_new(r, &ws, &err) != TK_OK)
            goto done;
        if (a->paths) {
            rc = one_pair_paths(out, a, r, ws, name, a->ps, a->pd, &err);
        } else {
            tk_route_count_t c;
            if (tk_route_count(r, ws, (tk_id_t)a->ps, (tk_id_t)a->pd, &c, &err) == TK_OK) {
                print_header(out, a);
                print_pair_row(out, a->json, name, (tk_id_t)a->ps, (tk_id_t)a->pd, &c);
                rc = 0;
            }
        }
    } else if (a->dump) {
        rc = dump_pairs(out, a, r, name, &err);
    } else {
        rc = all_pairs(out, a, r, name, &err);
    }
done:
    tk_route_ws_free(ws);
    tk_router_free(r);
    if (rc)
        cli_graph_error(input, index, &err);
    return rc;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    return one_graph(out, ctx, g, input, index);
}

static void table_header(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    cli_set_threads(a.threads);
    cli_progress_enable(a.progress);
    cli_table_t t = {a.output, a.ninputs, a.inputs, cli_mem_limit(), table_row, table_header, &a};
    return cli_run_table(&t);
}
