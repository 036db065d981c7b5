/*
 * topo-dist - distance summary of every graph of the inputs: diameter,
 * radius, average distance, girth; per-switch eccentricities or the
 * distance histogram on request.  See topo-dist(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "topo-dist [--ecc | --hist] [--json] [--allow-disconnected] [--max-diameter D]\n"
    "                 [--symmetry | --no-symmetry] [--threads N] [--progress] [--shard I/P]\n"
    "                 [-o FILE] [FILE...]";

typedef struct args {
    int ecc;            /* --ecc: per-switch eccentricities            */
    int hist;           /* --hist: distance histogram                  */
    int json;           /* --json: JSON Lines                          */
    int allow_disc;     /* --allow-disconnected                        */
    int progress;       /* --progress                                  */
    int sym;            /* 0 auto, 1 --symmetry, -1 --no-symmetry      */
    int32_t max_diam;   /* --max-diameter D (0 = none)                 */
    int threads;        /* --threads N (0 when not given)              */
    const char *output; /* -o FILE (NULL = stdout)                     */
    char **inputs;      /* operands (none = stdin)                     */
    int ninputs;
    int header_done; /* run state: header line printed              */
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Distance summary of every graph read from FILE (or standard input):\n"
          "one TSV row per graph with the columns\n"
          "  name n arcs directed connected diameter radius avg_distance girth\n"
          "Input formats (native, graph6, sparse6, digraph6, edge list, GraphML, GML,\n"
          "BookSim anynet, CAMINOS) are detected.\n\n"
          "Options:\n"
          "  --ecc                 table 'name switch eccentricity' instead\n"
          "  --hist                table 'name distance pairs' instead\n"
          "  --json                JSON Lines, one object per graph (--ecc and --hist\n"
          "                        add arrays and may then be combined)\n"
          "  --allow-disconnected  exit 0 even if some graph is not (strongly) connected\n"
          "  --max-diameter D      stop a graph's search once its diameter exceeds D\n"
          "                        (D >= 1); the row then says '>D'\n"
          "  --symmetry            one search per orbit of the automorphism group\n"
          "  --no-symmetry         one search per switch (default: orbits when the\n"
          "                        plain search would be costly; same results)\n"
          "  --threads N           OpenMP threads (N >= 1; default OMP_NUM_THREADS or\n"
          "                        the core count); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  --shard I/P           compute shard I of P only and write it as a shard\n"
          "                        file; topo-merge(1) combines the P shards\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error or disconnected graph, 2 usage error.\n"
          "See topo-dist(1).\n",
          stdout);
}

enum {
    OPT_ECC = 256,
    OPT_HIST,
    OPT_JSON,
    OPT_ALLOW,
    OPT_MAXD,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_VERSION,
    OPT_NOSYM,
    OPT_SYM,
    OPT_SHARD
};

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"ecc", no_argument, NULL, OPT_ECC},
        {"hist", no_argument, NULL, OPT_HIST},
        {"json", no_argument, NULL, OPT_JSON},
        {"allow-disconnected", no_argument, NULL, OPT_ALLOW},
        {"max-diameter", required_argument, NULL, OPT_MAXD},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"no-symmetry", no_argument, NULL, OPT_NOSYM},
        {"symmetry", no_argument, NULL, OPT_SYM},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    cli_shard_args("topo-dist", &argc, &argv, ":ho:", longopts, usage);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_ECC:
            a->ecc = 1;
            break;
        case OPT_HIST:
            a->hist = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_ALLOW:
            a->allow_disc = 1;
            break;
        case OPT_PROGRESS:
            a->progress = 1;
            break;
        case OPT_NOSYM:
            a->sym = -1;
            break;
        case OPT_SYM:
            a->sym = 1;
            break;
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case OPT_MAXD:
            a->max_diam = (int32_t)cli_int_arg("--max-diameter", optarg, 1, INT32_MAX - 1);
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
    if (a->ecc && a->hist && !a->json)
        cli_usage_fail(usage, "--ecc and --hist print different tables: use one, or --json");
    if (a->max_diam && (a->ecc || a->hist))
        cli_usage_fail(usage, "--max-diameter cannot be combined with --ecc or --hist");
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
}

/* Results of one graph, computed before anything of it is printed. */
typedef struct result {
    char name[1024];
    const tk_graph_t *g;
    tk_dist_summary_t s;
    int32_t girth;
} result_t;

/* A row of the --hist table (distance TK_INF: the unreachable pairs). */
static void hist_row(FILE *fp, const char *name, int32_t distance, uint64_t pairs)
{
    cli_row_t row;

    cli_row_begin(&row, fp, 0);
    cli_cell_text(&row, "name", name);
    cli_cell_int(&row, "distance", distance, TK_INF);
    cli_cell_u64(&row, "pairs", pairs);
    cli_row_end(&row);
}

/* The row of one graph (TSV: with --ecc or --hist, a row per switch or per
 * distance instead; JSON: one object, --ecc and --hist as arrays). */
static void print_row(FILE *fp, const args_t *a, const result_t *r)
{
    const tk_dist_summary_t *s = &r->s;
    const tk_graph_t *g = r->g;
    cli_row_t row;

    if (!a->json && a->ecc) {
        for (int64_t v = 0; v < g->n; v++) {
            cli_row_begin(&row, fp, 0);
            cli_cell_text(&row, "name", r->name);
            cli_cell_int(&row, "switch", v, 0);
            cli_cell_int(&row, "eccentricity", s->ecc[v], TK_INF);
            cli_row_end(&row);
        }
        return;
    }
    if (!a->json && a->hist) {
        for (int32_t k = 1; k < s->hist_len; k++)
            hist_row(fp, r->name, k, s->hist[k]);
        if (s->unreachable)
            hist_row(fp, r->name, TK_INF, s->unreachable);
        return;
    }
    cli_row_begin(&row, fp, a->json);
    cli_cell_text(&row, "name", r->name);
    cli_cell_int(&row, "n", g->n, 0);
    cli_cell_int(&row, "arcs", g->m, 0);
    cli_cell_bool(&row, "directed", g->directed);
    if (s->stopped) { /* --max-diameter: only "diameter > D" is known */
        char more[24];
        snprintf(more, sizeof more, ">%" PRId32, a->max_diam);
        cli_cell_null(&row, "connected");
        cli_cell_text(&row, "diameter", more);
        cli_cell_null(&row, "radius");
        cli_cell_null(&row, "avg_distance");
    } else {
        cli_cell_bool(&row, "connected", s->connected);
        cli_cell_int(&row, "diameter", s->diameter, TK_INF);
        cli_cell_int(&row, "radius", s->radius, TK_INF);
        cli_cell_double(&row, "avg_distance", s->avg_distance);
    }
    cli_cell_int(&row, "girth", r->girth, TK_INF);
    if (a->ecc) {
        cli_cell_open(&row, "ecc", '[');
        for (int64_t v = 0; v < g->n; v++)
            cli_cell_int(&row, NULL, s->ecc[v], TK_INF);
        cli_cell_close(&row);
    }
    if (a->hist) {
        cli_cell_open(&row, "hist", '[');
        for (int32_t k = 0; k < s->hist_len; k++)
            cli_cell_u64(&row, NULL, s->hist[k]);
        cli_cell_close(&row);
        cli_cell_u64(&row, "unreachable", s->unreachable);
    }
    cli_row_end(&row);
}

/* The header goes out with the first row (so that a run failing before any
 * row prints nothing), or at the end of a successful run without rows. */
static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->ecc)
        fputs("name\tswitch\teccentricity\n", fp);
    else if (a->hist)
        fputs("name\tdistance\tpairs\n", fp);
    else
        fputs("name\tn\tarcs\tdirected\tconnected\tdiameter\tradius\tavg_distance\tgirth\n", fp);
}

/* Is the automorphism search likely to pay for itself?  On shallow graphs
 * (one switch's eccentricity at most 3: Dragonflies, Slim Fly, HyperX,
 * random graphs) the plain bit-parallel search is cheap, and nauty on a
 * dense vertex-transitive graph costs more than it saves (HyperX 24^3:
 * 0.66 s of automorphisms against 0.28 s of plain search), unless the
 * graph is so large that n*m/64 word operations dominate.  Deep graphs
 * (tori, hypercubes, Kautz) gain one search per orbit.  One BFS, O(n + m). */
static int symmetry_pays(const tk_graph_t *g)
{
    int32_t *d = tk_malloc_array((size_t)g->n, sizeof *d), ecc = 0;

    if (!d || g->n < 2 || tk_bfs(g, 0, d, NULL) != TK_OK) {
        free(d);
        return 0;
    }
    for (tk_id_t v = 0; v < g->n; v++)
        if (d[v] > ecc)
            ecc = d[v];
    free(d);
    return ecc > 3 || (double)g->n * (double)g->m / 64.0 > 2e9;
}

/* Compute and print one graph.  Returns 0, or 1 for an error or (unless
 * allowed) a disconnected graph; prints nothing of the graph on error. */
static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    result_t r;
    tk_error_t err;
    tk_dist_opts_t opts = {a->threads, a->ecc, a->hist, a->max_diam, NULL, NULL, cli_runner()};
    tk_auto_t sym;

    memset(&r, 0, sizeof r);
    memset(&sym, 0, sizeof sym);
    r.g = g;
    cli_graph_name(g, input, index, r.name, sizeof r.name);
    cli_progress("%s: graph %ld: n=%" PRId64 " arcs=%" PRId64 ": distances", input, index,
                 (int64_t)g->n, g->m);
    tk_error_clear(&err);
    if (!g->directed && !a->ecc && !a->hist && g->n > 1 &&
        tk_check_connected(g, NULL) == TK_EDISCONNECTED) {
        /* Disconnected and undirected: every eccentricity is infinite, so
         * the row is known without the all-pairs searches. */
        r.s.n = g->n;
        r.s.diameter = r.s.radius = TK_INF;
        r.s.avg_distance = INFINITY;
    } else if (a->sym > 0 || (a->sym == 0 && symmetry_pays(g))) {
        /* One search per orbit.  The automorphism search is bounded (and a
         * graph with a discrete colour refinement never reaches nauty);
         * a capped search still gives valid (subgroup) orbits.  Any
         * failure just means no speed-up. */
        tk_auto_opts_t ao = {0, 0, 0, cli_mem_limit()};
        if (tk_auto_compute(g, &ao, &sym, NULL) == TK_OK && sym.norbits < g->n)
            opts.orbit = sym.orbit;
    }
    opts.progress = cli_meter_graph(input, index);
    /* (r.s.n set: the disconnected row above, known without searching) */
    tk_status_t st = r.s.n == 0 ? tk_dist_summary(g, &opts, &r.s, &err) : TK_OK;
    tk_auto_destroy(&sym);
    if (st == TK_OK && !cli_shard_partial()) /* --shard: the merge computes it */
        st = tk_girth(g, a->threads, &r.girth, &err);
    if (cli_mpi_agree(st, &err, 1) != TK_OK) { /* MPI: every rank stops */
        tk_dist_summary_destroy(&r.s);
        cli_graph_error(input, index, &err);
        return 1;
    }
    print_header(out, a);
    print_row(out, a, &r);
    int rc = 0;
    if (!r.s.stopped && !r.s.connected && !cli_shard_partial()) {
        cli_warnf("%s: graph %ld (%s) is not %sconnected", input, index, r.name,
                  g->directed ? "strongly " : "");
        if (!a->allow_disc)
            rc = 1;
    }
    tk_dist_summary_destroy(&r.s);
    return rc;
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
