/*
 * topo-bounds - theoretical bounds of regular topologies (Lemmas 1-4, 7, 9
 * and 10 of Faizian et al., "Random Regular Graph and Generalized De Bruijn
 * Graph with k-shortest Path Routing"; Moore; Cerf et al.; Singla et al.;
 * the Ant Mill, Valiant and Dragonfly bounds of the Ant Mill paper and of
 * Fuentes et al., "Network Unfairness in Dragonfly Topologies"): for
 * parameter sweeps, for the graphs of the inputs, or joined with measured
 * values from topo-dist / topo-ksp.  See topo-bounds(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "measured.h"
#include "tk_bounds.h"

static const char usage[] =
    "topo-bounds [-o FILE] N=N[:N2[:STEP]] r=R[...] [k=K[...]] [H=H[...]] [p=P[...]]\n"
    "       topo-bounds [-o FILE] [k=K] [H=H] [p=P] [FILE...]\n"
    "       topo-bounds --measured [--r R] [-o FILE] [FILE...]\n"
    "       topo-bounds --traffic [-o FILE] [p=..] [d=..] [Dbar=..] [lambda=..] [delta=..]\n"
    "                   [a=..] [h=..] [l=..]\n"
    "       (every form also takes --threads N)";

typedef struct args {
    int measured, traffic;
    int64_t r_override; /* --r R (0 = not given) */
    int threads;
    const char *output;
    char **files;
    int nfiles;
    char **params;
    int nparams;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Theoretical bounds of regular topologies, computed exactly.\n"
          "Parameter mode (N= and r= given): one TSV row per point of the sweep,\n"
          "ranges LO:HI or LO:HI:STEP, columns\n"
          "  N r k H p diam_lb lk paths_ub ml_lb gdbg_diam_ub gdbg_paths_lb gdbg_ml_ub\n"
          "  moore_diam cerf_avg singla_theta singla_server\n"
          "Graph mode (no N=/r=): the same columns after 'name directed' for every\n"
          "regular graph read from FILE (or standard input).\n"
          "--measured: reads topo-dist or topo-ksp tables and prints\n"
          "  name N r k measure value bound bound_value gap rel_gap\n"
          "--traffic: Ant Mill / Valiant / Dragonfly bounds, columns\n"
          "  p d Dbar lambda delta a h l theta_u valiant_ub antmill_ub antmill_slowdown\n"
          "  antmill_adverse lambda_min adv_i_ub advc_ub\n\n"
          "Options:\n"
          "  --measured          join measured rows to their bounds\n"
          "  --r R               (--measured) degree R instead of arcs/n or 'degree'\n"
          "  --traffic           traffic and routing bounds\n"
          "  --threads N         accepted for uniformity (N >= 1); no effect\n"
          "  -o, --output FILE   write to FILE (atomically) instead of stdout\n"
          "  -h, --help          this help\n"
          "      --version       print the version\n\n"
          "Exit status: 0 success, 1 data or parameter error, 2 usage error.\n"
          "Every formula and its source: topo-bounds(1).\n",
          stdout);
}

enum { OPT_MEASURED = 256, OPT_TRAFFIC, OPT_R, OPT_THREADS, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"measured", no_argument, NULL, OPT_MEASURED},
        {"traffic", no_argument, NULL, OPT_TRAFFIC},
        {"r", required_argument, NULL, OPT_R},
        {"threads", required_argument, NULL, OPT_THREADS},
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
        case OPT_MEASURED:
            a->measured = 1;
            break;
        case OPT_TRAFFIC:
            a->traffic = 1;
            break;
        case OPT_R:
            a->r_override = cli_int_arg("--r", optarg, 1, (int64_t)TK_BOUNDS_MAX_R);
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
    if (a->measured && a->traffic)
        cli_usage_fail(usage, "--measured and --traffic are different modes: use one");
    if (a->r_override && !a->measured)
        cli_usage_fail(usage, "--r is only meaningful with --measured");
    /* Split operands: KEY=VALUE parameters and input files. */
    a->params = calloc((size_t)(argc - optind) + 1, sizeof *a->params);
    a->files = calloc((size_t)(argc - optind) + 1, sizeof *a->files);
    if (!a->params || !a->files) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    for (int i = optind; i < argc; i++) {
        if (cli_is_kv(argv[i]))
            a->params[a->nparams++] = argv[i];
        else
            a->files[a->nfiles++] = argv[i];
    }
}

/* ------------------------------------------------------------------------ */
/* Parameters and cells.                                                    */

/* The KEY=VALUE operands into keys (unknown or repeated keys are errors,
 * printed).  0 or -1. */
static int parse_params(const args_t *a, cli_kv_t *keys, const char *known)
{
    tk_error_t err;

    tk_error_clear(&err);
    if (cli_kv_parse(a->nparams, a->params, keys, known, &err) == 0)
        return 0;
    cli_error(&err);
    return -1;
}

/* The value of point `idx` of the sweep over the ranges of keys[0..n-1]
 * (an odometer: the last key runs fastest). */
static void sweep_point(const cli_kv_t *keys, int n, uint64_t idx, uint64_t *v)
{
    for (int i = n - 1; i >= 0; i--) {
        uint64_t c = cli_range_count(&keys[i].range);
        v[i] = keys[i].range.lo + (idx % c) * keys[i].range.step;
        idx /= c;
    }
}

/* The number of points of the sweep, or 0 (printed) when above limit. */
static uint64_t sweep_points(const cli_kv_t *keys, int n, uint64_t limit, const char *what)
{
    uint64_t points = 1;

    for (int i = 0; i < n; i++) {
        uint64_t c = cli_range_count(&keys[i].range);
        if (points > limit / c) {
            cli_errorf("%s: %s", keys[i].key, what);
            return 0;
        }
        points *= c;
    }
    return points;
}

static const char bound_cols[] =
    "N\tr\tk\tH\tp\tdiam_lb\tlk\tpaths_ub\tml_lb\tgdbg_diam_ub\tgdbg_paths_lb\t"
    "gdbg_ml_ub\tmoore_diam\tcerf_avg\tsingla_theta\tsingla_server\n";

static const tk_ratio_t na_ratio = {0, 0};

/* The bound columns of one point (the undirected bounds only when they
 * apply). */
static void bounds_cells(cli_row_t *row, const tk_bounds_t *b, int undirected_ok)
{
    cli_cell_bound(row, "N", b->N);
    cli_cell_bound(row, "r", b->r);
    cli_cell_bound(row, "k", b->k);
    cli_cell_bound(row, "H", b->H ? b->H : TK_BOUND_NA);
    cli_cell_bound(row, "p", b->p);
    cli_cell_bound(row, "diam_lb", b->diam_lb);
    cli_cell_ratio(row, "lk", b->lk);
    cli_cell_bound(row, "paths_ub", b->paths_ub);
    cli_cell_ratio(row, "ml_lb", b->ml_lb);
    cli_cell_bound(row, "gdbg_diam_ub", b->gdbg_diam_ub);
    cli_cell_bound(row, "gdbg_paths_lb", b->gdbg_paths_lb);
    cli_cell_ratio(row, "gdbg_ml_ub", b->gdbg_ml_ub);
    cli_cell_bound(row, "moore_diam", undirected_ok ? b->moore_diam : TK_BOUND_NA);
    cli_cell_ratio(row, "cerf_avg", undirected_ok ? b->cerf_avg : na_ratio);
    cli_cell_ratio(row, "singla_theta", undirected_ok ? b->singla_theta : na_ratio);
    cli_cell_ratio(row, "singla_server", undirected_ok ? b->singla_server : na_ratio);
}

/* Open the output of a sweep, in 1 MiB blocks (the full N = 2..10^6 sweep
 * is about 60 MB).  0, or -1 (printed). */
static int out_begin(cli_out_t *out, const char *path)
{
    if (cli_out_open(out, path))
        return -1;
    setvbuf(out->fp, NULL, _IOFBF, (size_t)1 << 20);
    return 0;
}

/* Commit the output, or abort it after a failure.  The exit status. */
static int out_end(cli_out_t *out, int rc)
{
    if (rc && out->path) {
        cli_out_abort(out);
        return CLI_EXIT_DATA;
    }
    if (cli_out_commit(out) != 0)
        return CLI_EXIT_DATA;
    return rc ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

/* ------------------------------------------------------------------------ */
/* Parameter mode: a sweep over N, r, k, H, p.                              */

/* Every bound grows with N, r, k, H: the two corners (and the corner of the
 * largest automatic H) show every parameter error and overflow before
 * anything is printed. */
static int check_corners(const cli_kv_t *rg)
{
    tk_bounds_params_t lo = {rg[0].range.lo, rg[1].range.lo, rg[2].range.lo, rg[3].range.lo,
                             rg[4].range.lo};
    tk_bounds_params_t hi = {cli_range_last(&rg[0].range), cli_range_last(&rg[1].range),
                             cli_range_last(&rg[2].range), cli_range_last(&rg[3].range),
                             cli_range_last(&rg[4].range)};
    tk_bounds_t b;
    tk_error_t err;

    tk_error_clear(&err);
    if (tk_bounds_compute(&lo, &b, &err) || tk_bounds_compute(&hi, &b, &err)) {
        cli_error(&err);
        return -1;
    }
    if (hi.H == 0 && lo.r >= 2) { /* auto H: the largest is at N max, r min */
        tk_bounds_params_t c = hi;
        c.r = lo.r;
        if (tk_bounds_compute(&c, &b, &err)) {
            cli_error(&err);
            return -1;
        }
    }
    return 0;
}

static int run_sweep(const args_t *a)
{
    cli_kv_t rg[] = {{.key = "N", .range = {0, 0, 1}}, {.key = "r", .range = {0, 0, 1}},
                     {.key = "k", .range = {1, 1, 1}}, {.key = "H", .range = {0, 0, 1}},
                     {.key = "p", .range = {1, 1, 1}}, {.key = NULL}};
    uint64_t points, v[5];
    tk_error_t err;
    cli_out_t out;
    int rc = 0;

    if (a->nfiles) {
        cli_errorf("%s: input files are not read in parameter mode (N= and r= given)", a->files[0]);
        return CLI_EXIT_USAGE;
    }
    if (parse_params(a, rg, "N r k H p"))
        return CLI_EXIT_DATA;
    if (!rg[0].given || !rg[1].given) {
        cli_errorf("%s: missing parameter (parameter mode needs N= and r=)",
                   rg[0].given ? "r" : "N");
        return CLI_EXIT_DATA;
    }
    points = sweep_points(rg, 5, UINT64_C(1000000000), "sweep of more than 10^9 points refused");
    if (!points || check_corners(rg))
        return CLI_EXIT_DATA;
    if (out_begin(&out, a->output))
        return CLI_EXIT_DATA;
    fputs(bound_cols, out.fp);
    tk_error_clear(&err);
    for (uint64_t idx = 0; idx < points; idx++) {
        tk_bounds_params_t pt;
        tk_bounds_t b;
        cli_row_t row;

        sweep_point(rg, 5, idx, v);
        pt = (tk_bounds_params_t){v[0], v[1], v[2], v[3], v[4]};
        if (tk_bounds_compute(&pt, &b, &err)) {
            cli_error(&err);
            rc = 1;
            break;
        }
        cli_row_begin(&row, out.fp, 0);
        bounds_cells(&row, &b, 1);
        cli_row_end(&row);
    }
    return out_end(&out, rc);
}

/* ------------------------------------------------------------------------ */
/* Graph mode: the bounds of every regular graph of the inputs.             */

typedef struct graph_mode {
    cli_kv_t *rg; /* k H p */
    int header;
} graph_mode_t;

static void graph_header(void *ctx, FILE *out)
{
    graph_mode_t *gm = ctx;

    if (gm->header)
        return;
    gm->header = 1; /* with the first row: a failed run prints nothing */
    fputs("name\tdirected\t", out);
    fputs(bound_cols, out);
}

static int graph_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    graph_mode_t *gm = ctx;
    int64_t deg = tk_graph_regular_degree(g), p = tk_graph_servers(g, 0);
    tk_bounds_params_t bp;
    tk_bounds_t b;
    tk_error_t err;
    char name[1024];
    cli_row_t row;

    cli_graph_name(g, input, index, name, sizeof name);
    if (deg < 0) {
        cli_errorf("%s: graph %ld (%s): not regular; the bounds need a regular graph", input, index,
                   name);
        return 1;
    }
    if (g->servers)
        for (tk_id_t v = 1; v < g->n; v++)
            if (g->servers[v] != p)
                p = 0; /* not uniform: per-server bound not applicable */
    if (gm->rg[2].given)
        p = (int64_t)gm->rg[2].range.lo;
    bp = (tk_bounds_params_t){(uint64_t)g->n, (uint64_t)deg, gm->rg[0].range.lo, gm->rg[1].range.lo,
                              (uint64_t)p};
    tk_error_clear(&err);
    if (tk_bounds_compute(&bp, &b, &err)) {
        cli_errorf("%s: graph %ld (%s): %s", input, index, name, err.msg);
        return 1;
    }
    graph_header(gm, out);
    cli_row_begin(&row, out, 0);
    cli_cell_text(&row, "name", name);
    cli_cell_bool(&row, "directed", g->directed);
    bounds_cells(&row, &b, !g->directed);
    cli_row_end(&row);
    return 0;
}

static int graph_mode(const args_t *a)
{
    cli_kv_t rg[] = {{.key = "k", .range = {1, 1, 1}},
                     {.key = "H", .range = {0, 0, 1}},
                     {.key = "p", .range = {0, 0, 1}},
                     {.key = NULL}};
    graph_mode_t gm = {rg, 0};
    cli_table_t t = {a->output, a->nfiles, a->files, cli_mem_limit(), graph_row, graph_header, &gm};

    if (parse_params(a, rg, "k H p (graph mode); N r start parameter mode"))
        return CLI_EXIT_DATA;
    for (int i = 0; i < 3; i++)
        if (rg[i].range.lo != rg[i].range.hi) {
            cli_errorf("%s=%" PRIu64 ":%" PRIu64 ": ranges need parameter mode (N= r=)", rg[i].key,
                       rg[i].range.lo, rg[i].range.hi);
            return CLI_EXIT_DATA;
        }
    return cli_run_table(&t);
}

/* Join every row of one input (NULL: stdin).  0, or 1 (printed). */
static int measured_input(const args_t *a, FILE *fp, const char *path)
{
    cli_lines_t L;
    int rc;

    if (cli_lines_open(&L, path))
        return 1;
    rc = cli_measured_join(fp, &L, a->r_override) != 0;
    cli_lines_close(&L);
    return rc;
}

static int run_measured(const args_t *a)
{
    cli_out_t out;
    int rc = 0;

    if (a->nparams) {
        cli_errorf("%s: --measured takes no parameters (use --r R)", a->params[0]);
        return CLI_EXIT_USAGE;
    }
    /* held: a failed run prints no partial table */
    if (cli_out_open_held(&out, a->output))
        return CLI_EXIT_DATA;
    fputs(cli_measured_header, out.fp);
    if (a->nfiles == 0)
        rc = measured_input(a, out.fp, NULL);
    for (int i = 0; i < a->nfiles && !rc; i++)
        rc = measured_input(a, out.fp, a->files[i]);
    if (rc) {
        cli_out_abort(&out);
        return CLI_EXIT_DATA;
    }
    return out_end(&out, 0);
}

/* ------------------------------------------------------------------------ */
/* --traffic.                                                               */

static int run_traffic(const args_t *a)
{
    cli_kv_t rg[] = {
        {.key = "p", .range = {0, 0, 1}},
        {.key = "d", .range = {0, 0, 1}},
        {.key = "lambda", .range = {0, 0, 1}},
        {.key = "delta", .range = {0, 0, 1}},
        {.key = "a", .range = {0, 0, 1}},
        {.key = "h", .range = {0, 0, 1}},
        {.key = "l", .range = {0, 0, 1}},
        {.key = "Dbar", .kind = CLI_KV_DOUBLE, .min = 0, .max = HUGE_VAL, .flags = CLI_GT_MIN},
        {.key = NULL}};
    const cli_kv_t *dbar = &rg[7];
    uint64_t points, v[7];
    cli_out_t out;
    int rc = 0;

    if (a->nfiles) {
        cli_errorf("%s: --traffic reads no input (parameters are KEY=VALUE)", a->files[0]);
        return CLI_EXIT_USAGE;
    }
    if (parse_params(a, rg, "p d Dbar lambda delta a h l"))
        return CLI_EXIT_DATA;
    {
        int any = 0;
        for (int k = 0; rg[k].key; k++)
            any |= rg[k].given;
        if (!any) { /* a row of '-' says nothing: a usage error */
            cli_errorf("--traffic needs parameters: p, d, Dbar, lambda, delta, a, h or l "
                       "(see topo-bounds(1))");
            return CLI_EXIT_USAGE;
        }
    }
    points = sweep_points(rg, 7, UINT64_C(100000000), "more than 10^8 points refused");
    if (!points)
        return CLI_EXIT_DATA;
    if (out_begin(&out, a->output))
        return CLI_EXIT_DATA;
    fputs("p\td\tDbar\tlambda\tdelta\ta\th\tl\ttheta_u\tvaliant_ub\tantmill_ub\t"
          "antmill_slowdown\tantmill_adverse\tlambda_min\tadv_i_ub\tadvc_ub\n",
          out.fp);
    for (uint64_t idx = 0; idx < points && !rc; idx++) {
        double dv = dbar->given ? dbar->value : 0;
        tk_traffic_params_t tp;
        tk_traffic_bounds_t t;
        tk_error_t err;
        cli_row_t row;

        sweep_point(rg, 7, idx, v);
        tp = (tk_traffic_params_t){v[0], v[1], dv, v[2], v[3], v[4], v[5], v[6]};
        tk_error_clear(&err);
        if (tk_traffic_bounds(&tp, &t, &err)) {
            cli_error(&err);
            rc = 1;
            break;
        }
        cli_row_begin(&row, out.fp, 0);
        for (int i = 0; i < 7; i++) {
            if (i == 2)
                cli_cell_real(&row, "Dbar", dbar->given ? dv : NAN);
            cli_cell_bound(&row, rg[i].key, rg[i].given ? v[i] : TK_BOUND_NA);
        }
        cli_cell_real(&row, "theta_u", t.theta_u);
        cli_cell_real(&row, "valiant_ub", t.valiant_ub);
        cli_cell_real(&row, "antmill_ub", t.antmill_ub);
        cli_cell_real(&row, "antmill_slowdown", t.antmill_slowdown);
        cli_cell_bound(&row, "antmill_adverse",
                       t.antmill_adverse < 0 ? TK_BOUND_NA : (tk_u128_t)t.antmill_adverse);
        cli_cell_bound(&row, "lambda_min",
                       t.lambda_min < 0 ? TK_BOUND_NA : (tk_u128_t)t.lambda_min);
        cli_cell_real(&row, "adv_i_ub", t.adv_i_ub);
        cli_cell_real(&row, "advc_ub", t.advc_ub);
        cli_row_end(&row);
    }
    return out_end(&out, rc);
}

/* The mode: --traffic, --measured, a sweep (N= or r= given) or graphs. */
static int run(const args_t *a)
{
    int sweep = 0;

    cli_set_threads(a->threads);
    if (a->traffic)
        return run_traffic(a);
    if (a->measured)
        return run_measured(a);
    for (int i = 0; i < a->nparams; i++)
        if (strncmp(a->params[i], "N=", 2) == 0 || strncmp(a->params[i], "r=", 2) == 0)
            sweep = 1;
    return sweep ? run_sweep(a) : graph_mode(a);
}

int main(int argc, char **argv)
{
    args_t a;
    int rc;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    rc = run(&a);
    free(a.params);
    free(a.files);
    return rc;
}
