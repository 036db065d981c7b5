/*
 * topo-pattern - make a traffic pattern for a topology and write it as a
 * pattern file, or print its distance distribution.  See topo-pattern(1).
 *
 *   topo-pattern KIND [KEY=VALUE ...] [-s SEED] [-o FILE] [--stats] [TOPOLOGY]
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

#define USAGE                                                                                      \
    "topo-pattern KIND [KEY=VALUE ...] [-s SEED] [--form FORM | --explicit] [--force] [--stats]\n" \
    "                    [--threads N] [--progress] [-o FILE] [TOPOLOGY]"

typedef struct args {
    const char *kind;
    int nkv;
    char **kv;
    const char *topology; /* operand without '=' (NULL = stdin) */
    uint64_t seed;
    int stats;
    int threads;
    const char *output;
    tk_pattern_form_t form;
    int force;
} args_t;

static void help(void)
{
    printf("usage: %s\n"
           "       topo-pattern --list | --help | --version\n\n"
           "Make a traffic pattern for the topology read from TOPOLOGY (or standard input)\n"
           "and write it as a pattern file (topokit-formats(5)).  Every pattern is checked\n"
           "(admissible: each endpoint sends and receives at most 1) before it is written.\n\n"
           "Kinds (definitions and sources in topo-pattern(1)):\n"
           "  uniform [level=server|switch]      every endpoint to every endpoint of the\n"
           "                                     other switches, 1/K each\n"
           "  all-to-all                         switch level, 1/(n-1) to every other switch\n"
           "  server-perm                        random derangement of the servers [-s]\n"
           "  switch-perm [level=switch|server]  random derangement of the switches [-s]\n"
           "  perm-distance lambda=L [level=..]  every switch to a distinct switch at\n"
           "                                     distance exactly L [-s]\n"
           "  shift offset=K [level=..]          endpoint i to i+K mod count\n"
           "  random-shift [level=..]            shift by a random offset (Faizian et al.) [-s]\n"
           "  tornado [level=..]                 tori/HyperX: half way round each dimension\n"
           "  transpose [level=..]               2-D tori/HyperX: (x,y) to (y,x)\n"
           "  dim-shift dims=XY.. i=I [level=..] shift by I in the named dimensions\n"
           "                                     (Cano et al.)\n"
           "  bit-complement [level=..]          hypercubes: switch u to ~u\n"
           "  adv i=I                            Dragonfly ADV+i: same server of group g+i\n"
           "  advr i=I                           Dragonfly: random server of group g+i [-s]\n"
           "  advc                               Dragonfly ADVc (Fuentes et al.)\n"
           "  longest-matching [level=..]        permutation of largest total distance\n"
           "  mixed base=KIND percent=X level=switch|server  the mixes of Chaulagain\n"
           "                                     and Yuan [-s]\n"
           "  hotspot [count=H]                  every other server to H hot servers [-s]\n"
           "  file path=FILE                     read, check and re-emit a pattern file\n\n"
           "Options:\n"
           "  -s, --seed=SEED    seed of the randomized kinds (default 1)\n"
           "      --stats        print the distance distribution of the pattern's switch\n"
           "                     pairs instead: columns distance pairs weight fraction\n"
           "  -o, --output=FILE  write FILE (atomically) instead of standard output\n"
           "      --form=FORM    auto (default), explicit, spec or aggregate: how the\n"
           "                     file holds the demands (auto: explicit up to 4096\n"
           "                     demands, else the spec line, else per-switch entries)\n"
           "      --explicit     the same as --form=explicit: one line per demand\n"
           "      --force        file: accept a pattern file made for another topology\n"
           "                     (and stamp it for this one)\n"
           "      --threads=N    worker threads (the output never depends on it)\n"
           "      --progress     progress on stderr (percentage, rate, ETA)\n"
           "      --list         print the kind names, one per line\n"
           "  -h, --help         this help\n"
           "      --version      print the version\n\n"
           "Exit status: 0 success, 1 data error or unsupported pattern, 2 usage error.\n"
           "See topo-pattern(1).\n",
           USAGE);
}

enum {
    OPT_VERSION = 256,
    OPT_THREADS,
    OPT_STATS,
    OPT_LIST,
    OPT_FORM,
    OPT_EXPLICIT,
    OPT_FORCE,
    OPT_PROGRESS
};

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"seed", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},
        {"stats", no_argument, NULL, OPT_STATS},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"list", no_argument, NULL, OPT_LIST},
        {"form", required_argument, NULL, OPT_FORM},
        {"explicit", no_argument, NULL, OPT_EXPLICIT},
        {"force", no_argument, NULL, OPT_FORCE},
        {"help", no_argument, NULL, 'h'},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    a->seed = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hs:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 's':
            a->seed = cli_u64_arg("-s", optarg);
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_STATS:
            a->stats = 1;
            break;
        case OPT_FORM:
            if (strcmp(optarg, "auto") == 0)
                a->form = TK_PATTERN_AUTO;
            else if (strcmp(optarg, "explicit") == 0)
                a->form = TK_PATTERN_EXPLICIT;
            else if (strcmp(optarg, "spec") == 0)
                a->form = TK_PATTERN_SPEC;
            else if (strcmp(optarg, "aggregate") == 0)
                a->form = TK_PATTERN_AGGREGATE;
            else
                cli_usage_fail(USAGE, "--form=%s: must be auto, explicit, spec or aggregate",
                               optarg);
            break;
        case OPT_EXPLICIT:
            a->form = TK_PATTERN_EXPLICIT;
            break;
        case OPT_FORCE:
            a->force = 1;
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case OPT_LIST:
            for (const char *const *k = tk_pattern_kinds(); *k; k++)
                puts(*k);
            exit(CLI_EXIT_OK);
        case OPT_PROGRESS:
            cli_progress_enable(1);
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, USAGE, help);
        }
    }
    if (optind >= argc)
        cli_usage_fail(USAGE, "missing pattern KIND");
    a->kind = argv[optind++];
    {
        int known = 0;
        for (const char *const *k = tk_pattern_kinds(); *k; k++)
            known |= strcmp(*k, a->kind) == 0;
        if (!known)
            cli_usage_fail(USAGE, "unknown pattern kind '%s' (see topo-pattern --list)", a->kind);
    }
    a->kv = argv + optind;
    for (; optind < argc; optind++) {
        if (strchr(argv[optind], '=')) {
            if (a->topology)
                cli_usage_fail(USAGE, "'%s': KEY=VALUE after the TOPOLOGY operand", argv[optind]);
            a->nkv++;
        } else {
            if (a->topology)
                cli_usage_fail(USAGE, "more than one TOPOLOGY operand ('%s')", argv[optind]);
            a->topology = argv[optind];
        }
    }
}

/* Read exactly one graph from the topology operand. */
static int read_topology(const args_t *a, tk_graph_t **g, const char **name)
{
    tk_error_t err;
    tk_reader_t *r = NULL;
    tk_graph_t *extra = NULL;
    FILE *in = cli_open_input(a->topology, name);
    int rc = 1;

    if (!in)
        return 1;
    tk_error_clear(&err);
    if (tk_reader_new(&r, in, *name, TK_FMT_AUTO, cli_mem_limit(), &err) != TK_OK) {
        cli_error(&err);
        goto done;
    }
    tk_status_t st = tk_reader_next(r, g, &err);
    if (st == TK_EOF) {
        cli_errorf("%s: no graph in input", *name);
        goto done;
    }
    if (st != TK_OK) {
        cli_error(&err);
        goto done;
    }
    cli_warn_parallel(r, *g, *name, 1);
    st = tk_reader_next(r, &extra, &err);
    if (st == TK_OK) {
        tk_graph_free(extra);
        tk_graph_free(*g);
        *g = NULL;
        cli_errorf("%s: more than one graph in input (a pattern is made for one topology)", *name);
        goto done;
    }
    if (st != TK_EOF) {
        tk_graph_free(*g);
        *g = NULL;
        cli_error(&err);
        goto done;
    }
    rc = 0;
done:
    tk_reader_free(r);
    cli_close_input(in);
    return rc;
}

/* The "file" kind: read path=FILE, check it against g. */
static int read_pattern_file(const args_t *a, const tk_graph_t *g, tk_pattern_t **p)
{
    const char *path = NULL, *pname;
    tk_error_t err;

    for (int i = 0; i < a->nkv; i++) {
        if (strncmp(a->kv[i], "path=", 5) == 0 && !path)
            path = a->kv[i] + 5;
        else {
            cli_errorf("%s: unknown parameter for file (only path=FILE)", a->kv[i]);
            return CLI_EXIT_USAGE;
        }
    }
    if (!path) {
        cli_errorf("file: missing parameter path");
        return CLI_EXIT_USAGE;
    }
    FILE *fp = cli_open_input(path, &pname);
    if (!fp)
        return 1;
    tk_error_clear(&err);
    tk_status_t st = tk_pattern_read(fp, pname, p, &err);
    cli_close_input(fp);
    if (st == TK_OK) { /* bound to g, checked, stamped for g */
        st = tk_pattern_bind(*p, g, a->force ? TK_PATTERN_FORCE : 0, pname, &err);
        if (st == TK_OK)
            st = tk_pattern_check(*p, g, pname, &err);
        if (st == TK_OK)
            st = tk_pattern_set_topology(*p, g, &err);
        if (st != TK_OK) {
            tk_pattern_free(*p);
            *p = NULL;
        }
    }
    if (st != TK_OK) {
        cli_error(&err);
        return 1;
    }
    return 0;
}

/* The pattern of KIND.  The generators do not report their own progress:
 * the meter shows one unit (the pattern) and the time it took. */
static tk_status_t make_pattern(const args_t *a, const tk_graph_t *g, tk_pattern_t **p,
                                tk_error_t *err)
{
    tk_progress_t *meter = cli_meter("");
    tk_status_t st;

    tk_progress_begin(meter, a->kind, "patterns", 1);
    st = tk_pattern_make(g, a->kind, a->nkv, a->kv, a->seed, a->threads, p, err);
    if (st == TK_OK)
        tk_progress_add(meter, 1);
    tk_progress_end(meter);
    return st;
}

/* --stats, step 1: the distance of every switch-level demand entry k of d
 * (dist[k]).  One BFS per source switch with demands, in parallel; each
 * entry is written once, so the result does not depend on the threads.
 * 0, or 1 when out of memory. */
static int demand_distances(const tk_graph_t *g, const tk_swdemand_t *d, int32_t *dist)
{
    int fail = 0;
    tk_progress_t *meter = cli_meter("");

    tk_progress_begin(meter, "--stats distances", "switches", g->n);
#pragma omp parallel reduction(| : fail)
    {
        int32_t *dv = tk_malloc_array((size_t)g->n, sizeof *dv);
        if (!dv)
            fail = 1;
#pragma omp for schedule(dynamic, 16)
        for (tk_id_t s = 0; s < g->n; s++) {
            if (!dv || d->off[s] == d->off[s + 1])
                continue;
            if (tk_bfs(g, s, dv, NULL) != TK_OK) {
                fail = 1;
                continue;
            }
            for (int64_t k = d->off[s]; k < d->off[s + 1]; k++)
                dist[k] = dv[d->dst[k]];
            tk_progress_add(meter, 1);
        }
        free(dv);
    }
    tk_progress_end(meter);
    return fail;
}

/* --stats, step 2: the switches with demands between their own servers (the
 * distance-0 pairs).  -1 when out of memory. */
static int64_t local_pairs(const tk_pattern_t *p, const tk_graph_t *g)
{
    char *has = calloc((size_t)g->n, 1);
    int64_t *first = NULL, count = 0;

    if (!has)
        return -1;
    if (p->level == TK_LEVEL_SERVER) { /* servers of switch u: first[u] .. first[u+1]-1 */
        first = tk_malloc_array((size_t)g->n + 1, sizeof *first);
        if (first) {
            first[0] = 0;
            for (tk_id_t u = 0; u < g->n; u++)
                first[u + 1] = first[u] + tk_graph_servers(g, u);
        }
    }
    for (int64_t i = 0; i < p->len; i++) {
        int64_t s = p->d[i].src, t = p->d[i].dst;
        if (p->level == TK_LEVEL_SERVER && first) {
            tk_id_t lo = 0, hi = g->n - 1;
            while (lo < hi) {
                tk_id_t mid = lo + (hi - lo + 1) / 2;
                if (first[mid] <= s)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            s = lo;
            t = first[lo] <= t && t < first[lo + 1] ? lo : -1;
        }
        if (s == t)
            has[s] = 1;
    }
    for (tk_id_t u = 0; u < g->n; u++)
        count += has[u];
    free(has);
    free(first);
    return count;
}

/* One row of the --stats table (distance TK_INF: the unreachable pairs). */
static void stats_row(FILE *out, int32_t distance, int64_t pairs, double weight, double total)
{
    cli_row_t row;

    cli_row_begin(&row, out, 0);
    cli_cell_int(&row, "distance", distance, TK_INF);
    cli_cell_int(&row, "pairs", pairs, 0);
    cli_cell_double(&row, "weight", weight);
    cli_cell_double(&row, "fraction", total > 0 ? weight / total : 0);
    cli_row_end(&row);
}

/* --stats: the distance of every switch pair of the pattern, pairs and
 * weight per distance. */
static int print_stats(FILE *out, const tk_pattern_t *p, const tk_graph_t *g)
{
    tk_swdemand_t d;
    tk_error_t err;
    int32_t *dist = NULL, maxd = 0;
    int64_t unreach = 0, *pairs = NULL;
    double *w = NULL, wun = 0, total;
    int rc = 1;

    tk_error_clear(&err);
    if (tk_pattern_to_switch(p, g, &d, &err) != TK_OK) {
        cli_error(&err);
        return 1;
    }
    total = d.total + d.local;
    dist = tk_malloc_array((size_t)(d.len ? d.len : 1), sizeof *dist);
    if (!dist || demand_distances(g, &d, dist))
        goto nomem;
    for (int64_t k = 0; k < d.len; k++)
        if (dist[k] >= 0 && dist[k] < TK_INF && dist[k] > maxd)
            maxd = dist[k];
    pairs = tk_calloc_array((size_t)maxd + 1, sizeof *pairs);
    w = tk_calloc_array((size_t)maxd + 1, sizeof *w);
    if (!pairs || !w)
        goto nomem;
    for (int64_t k = 0; k < d.len; k++) {
        if (dist[k] < 0 || dist[k] >= TK_INF) {
            unreach++;
            wun += d.w[k];
        } else {
            pairs[dist[k]]++;
            w[dist[k]] += d.w[k];
        }
    }
    if (d.local > 0) {
        if ((pairs[0] = local_pairs(p, g)) < 0)
            goto nomem;
        w[0] = d.local;
    }
    fputs("distance\tpairs\tweight\tfraction\n", out);
    for (int32_t k = 0; k <= maxd; k++)
        if (pairs[k])
            stats_row(out, k, pairs[k], w[k], total);
    if (unreach)
        stats_row(out, TK_INF, unreach, wun, total);
    rc = 0;
    goto done;
nomem:
    cli_errorf("out of memory");
done:
    free(pairs);
    free(w);
    free(dist);
    tk_swdemand_destroy(&d);
    return rc;
}

static int run(const args_t *a)
{
    tk_graph_t *g = NULL;
    tk_pattern_t *p = NULL;
    tk_error_t err;
    const char *name;
    cli_out_t out;
    int rc;

    cli_set_threads(a->threads);
    if (read_topology(a, &g, &name) != 0)
        return 1;
    tk_error_clear(&err);
    if (strcmp(a->kind, "file") == 0) {
        rc = read_pattern_file(a, g, &p);
        if (rc) {
            tk_graph_free(g);
            return rc;
        }
    } else if (make_pattern(a, g, &p, &err) != TK_OK) {
        cli_error(&err);
        tk_graph_free(g);
        /* A malformed KEY=VALUE list is a usage error; everything else is
         * about this topology. */
        return err.code == TK_EINVAL && !err.where[0] && strstr(err.msg, "KEY=VALUE")
                   ? CLI_EXIT_USAGE
                   : 1;
    }
    if (cli_out_open(&out, a->output) != 0) {
        tk_pattern_free(p);
        tk_graph_free(g);
        return 1;
    }
    if (a->stats) {
        rc = print_stats(out.fp, p, g);
    } else {
        rc = tk_pattern_write_form(out.fp, p, g, a->form, NULL, &err) != TK_OK;
        if (rc)
            cli_error(&err);
    }
    if (rc)
        cli_out_abort(&out);
    else if (cli_out_commit(&out) != 0)
        rc = 1;
    tk_pattern_free(p);
    tk_graph_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    return run(&a);
}
