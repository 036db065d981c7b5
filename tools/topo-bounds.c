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

/* Integral bounds: TK_BOUND_NA is missing ("-"). */
static void cell_u128(cli_row_t *row, const char *name, tk_u128_t v)
{
    char buf[48];

    if (v == TK_BOUND_NA) {
        cli_cell_null(row, name);
        return;
    }
    tk_u128_format(buf, v);
    cli_cell_num(row, name, buf);
}

/* Exact rationals with 17 significant digits ("-" when undefined). */
static void cell_ratio(cli_row_t *row, const char *name, tk_ratio_t q)
{
    char buf[128];

    tk_ratio_format(buf, q, 17);
    cli_cell_num(row, name, buf);
}

/* Decimals in their shortest form ("1e+02" for 100); NaN is missing. */
static void cell_real(cli_row_t *row, const char *name, double v)
{
    char buf[64];

    if (isnan(v))
        cli_cell_null(row, name);
    else
        cli_cell_num(row, name, cli_format_double(buf, sizeof buf, v, 1));
}

static const char bound_cols[] =
    "N\tr\tk\tH\tp\tdiam_lb\tlk\tpaths_ub\tml_lb\tgdbg_diam_ub\tgdbg_paths_lb\t"
    "gdbg_ml_ub\tmoore_diam\tcerf_avg\tsingla_theta\tsingla_server\n";

static const tk_ratio_t na_ratio = {0, 0};

/* The bound columns of one point (the undirected bounds only when they
 * apply). */
static void bounds_cells(cli_row_t *row, const tk_bounds_t *b, int undirected_ok)
{
    cell_u128(row, "N", b->N);
    cell_u128(row, "r", b->r);
    cell_u128(row, "k", b->k);
    cell_u128(row, "H", b->H ? b->H : TK_BOUND_NA);
    cell_u128(row, "p", b->p);
    cell_u128(row, "diam_lb", b->diam_lb);
    cell_ratio(row, "lk", b->lk);
    cell_u128(row, "paths_ub", b->paths_ub);
    cell_ratio(row, "ml_lb", b->ml_lb);
    cell_u128(row, "gdbg_diam_ub", b->gdbg_diam_ub);
    cell_u128(row, "gdbg_paths_lb", b->gdbg_paths_lb);
    cell_ratio(row, "gdbg_ml_ub", b->gdbg_ml_ub);
    cell_u128(row, "moore_diam", undirected_ok ? b->moore_diam : TK_BOUND_NA);
    cell_ratio(row, "cerf_avg", undirected_ok ? b->cerf_avg : na_ratio);
    cell_ratio(row, "singla_theta", undirected_ok ? b->singla_theta : na_ratio);
    cell_ratio(row, "singla_server", undirected_ok ? b->singla_server : na_ratio);
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

/* ------------------------------------------------------------------------ */
/* --measured: join topo-dist / topo-ksp rows to their bounds.              */

enum {
    COL_NAME,
    COL_N,
    COL_ARCS,
    COL_DIRECTED,
    COL_DIAMETER,
    COL_AVGD,
    COL_K,
    COL_AKSP,
    COL_DEGREE,
    COL_H,
    COL_APMIN,
    NCOLS
};
static const char *const col_names[NCOLS] = {
    "name",           "n",      "arcs", "directed",   "diameter", "avg_distance", "k",
    "avg_ksp_length", "degree", "H",    "allpath_min"};

#define MAX_FIELDS 256

/* The table being read: its header and where the columns are. */
typedef struct table {
    cli_lines_t L;
    const args_t *a;
    char *header; /* the first header line, to skip its repeats */
    int col[NCOLS];
    int nf;
    int kind; /* 0 before the header, 1 topo-dist, 2 topo-ksp */
    char *f[MAX_FIELDS];
} table_t;

/* The header line: which tool wrote the table, and its columns. */
static int read_header(table_t *t, int nf)
{
    for (int c = 0; c < NCOLS; c++)
        t->col[c] = cli_field_index(t->f, nf, col_names[c]);
    t->nf = nf;
    if (t->col[COL_N] >= 0 && t->col[COL_ARCS] >= 0 && t->col[COL_DIAMETER] >= 0 &&
        t->col[COL_AVGD] >= 0)
        t->kind = 1;
    else if (t->col[COL_N] >= 0 && t->col[COL_K] >= 0 && t->col[COL_AKSP] >= 0 &&
             (t->col[COL_DEGREE] >= 0 || t->a->r_override))
        t->kind = 2;
    else {
        cli_lines_error(&t->L, "header lacks the columns of topo-dist (n arcs diameter "
                               "avg_distance) or topo-ksp (n k avg_ksp_length degree)");
        return -1;
    }
    return 0;
}

/* Field c of the current row. */
static const char *field(const table_t *t, int c)
{
    return t->f[t->col[c]];
}

/* An integer or a decimal of column c; -1 (printed) when it is not. */
static int int_field(const table_t *t, int c, uint64_t *v)
{
    char why[CLI_WHY_MAX];

    if (cli_parse_u64(field(t, c), v, why) == 0)
        return 0;
    cli_lines_error(&t->L, "column %s: '%s': %s", col_names[c], field(t, c), why);
    return -1;
}

static int real_field(const table_t *t, int c, double *v)
{
    char why[CLI_WHY_MAX];

    if (cli_parse_double(field(t, c), 0, HUGE_VAL, CLI_INF, v, why) == 0)
        return 0;
    cli_lines_error(&t->L, "column %s: '%s': %s", col_names[c], field(t, c), why);
    return -1;
}

/* The degree of a row: --r, arcs / n (topo-dist) or the degree column. */
static int row_degree(const table_t *t, uint64_t n, uint64_t *r)
{
    uint64_t arcs;

    if (t->a->r_override) {
        *r = (uint64_t)t->a->r_override;
        return 0;
    }
    if (t->kind == 2) {
        char why[CLI_WHY_MAX];
        if (cli_parse_u64(field(t, COL_DEGREE), r, why) == 0)
            return 0;
        cli_lines_error(&t->L,
                        "column degree: '%s': %s: not a regular graph (use --r R to force a "
                        "degree)",
                        field(t, COL_DEGREE), why);
        return -1;
    }
    if (int_field(t, COL_ARCS, &arcs))
        return -1;
    if (n == 0 || arcs % n) {
        cli_lines_error(&t->L,
                        "arcs=%" PRIu64 " is not a multiple of n=%" PRIu64
                        ": not a regular graph (use --r R to force a degree)",
                        arcs, n);
        return -1;
    }
    *r = arcs / n;
    return 0;
}

/* One joined row: a measure against one bound. */
static void join_row(FILE *fp, const char *name, const tk_bounds_t *b, const char *measure,
                     double value, const char *bound, tk_u128_t ival, tk_ratio_t q)
{
    int integral = q.den == 0;
    double bv, gap;
    cli_row_t row;

    if (integral && ival == TK_BOUND_NA)
        return;
    bv = integral ? (double)ival : tk_ratio_double(q);
    gap = value - bv;
    cli_row_begin(&row, fp, 0);
    cli_cell_text(&row, "name", name);
    cell_u128(&row, "N", b->N);
    cell_u128(&row, "r", b->r);
    cell_u128(&row, "k", b->k);
    cli_cell_text(&row, "measure", measure);
    cell_real(&row, "value", value);
    cli_cell_text(&row, "bound", bound);
    if (integral)
        cell_u128(&row, "bound_value", ival);
    else
        cell_ratio(&row, "bound_value", q);
    cell_real(&row, "gap", gap);
    cell_real(&row, "rel_gap", bv > 0 ? gap / bv : (gap == 0 ? 0 : INFINITY));
    cli_row_end(&row);
}

/* topo-dist row: the diameter and the average distance against theirs. */
static int join_dist(FILE *fp, const table_t *t, const char *name, const tk_bounds_t *b)
{
    int undirected = t->col[COL_DIRECTED] >= 0 && strcmp(field(t, COL_DIRECTED), "0") == 0;
    double d, v;

    if (real_field(t, COL_DIAMETER, &d) || real_field(t, COL_AVGD, &v))
        return -1;
    join_row(fp, name, b, "diameter", d, "diam_lb", b->diam_lb, na_ratio);
    if (undirected)
        join_row(fp, name, b, "diameter", d, "moore_diam", b->moore_diam, na_ratio);
    join_row(fp, name, b, "avg_distance", v, "lk", 0, b->lk);
    if (undirected && b->cerf_avg.den)
        join_row(fp, name, b, "avg_distance", v, "cerf_avg", 0, b->cerf_avg);
    return 0;
}

/* topo-ksp row: the k-shortest length and the ALLPATH(H) minimum. */
static int join_ksp(FILE *fp, const table_t *t, const char *name, const tk_bounds_t *b, int have_ap)
{
    int have_k = strcmp(field(t, COL_K), "-") != 0;
    double v = 0, apmin = 0;

    if ((have_k && real_field(t, COL_AKSP, &v)) || (have_ap && real_field(t, COL_APMIN, &apmin)))
        return -1;
    if (have_k)
        join_row(fp, name, b, "avg_ksp_length", v, "lk", 0, b->lk);
    if (have_ap) {
        join_row(fp, name, b, "allpath_min", apmin, "paths_ub", b->paths_ub, na_ratio);
        join_row(fp, name, b, "allpath_min", apmin, "gdbg_paths_lb", b->gdbg_paths_lb, na_ratio);
    }
    return 0;
}

/* One data row of the table; -1 (printed) on an error. */
static int measured_row(FILE *fp, table_t *t, int nf)
{
    uint64_t n, r = 0, k = 1, H = 0;
    int have_ap = t->kind == 2 && t->col[COL_H] >= 0 && t->col[COL_APMIN] >= 0 &&
                  strcmp(field(t, COL_H), "-") != 0;
    tk_bounds_params_t bp;
    tk_bounds_t b;
    tk_error_t err;

    if (nf != t->nf) {
        cli_lines_error(&t->L, "%d fields, the header has %d", nf, t->nf);
        return -1;
    }
    if (int_field(t, COL_N, &n) ||
        (t->kind == 2 && strcmp(field(t, COL_K), "-") != 0 && int_field(t, COL_K, &k)) ||
        row_degree(t, n, &r) || (have_ap && int_field(t, COL_H, &H)))
        return -1;
    bp = (tk_bounds_params_t){n, r, k, H, 0};
    tk_error_clear(&err);
    if (tk_bounds_compute(&bp, &b, &err)) {
        cli_lines_error(&t->L, "%s", err.msg);
        return -1;
    }
    const char *name = t->col[COL_NAME] >= 0 ? field(t, COL_NAME) : "-";
    return t->kind == 1 ? join_dist(fp, t, name, &b) : join_ksp(fp, t, name, &b, have_ap);
}

/* Join every row of one input (concatenated tables: repeated headers are
 * skipped).  0, or 1 (printed). */
static int measured_input(const args_t *a, FILE *fp, const char *path)
{
    table_t t;
    int rc = 0, more, nf;

    memset(&t, 0, sizeof t);
    t.a = a;
    if (cli_lines_open(&t.L, path))
        return 1;
    while (!rc && (more = cli_lines_next(&t.L)) > 0) {
        if (t.L.len == 0 || (t.header && strcmp(t.L.line, t.header) == 0))
            continue;
        if (!t.header && !(t.header = strdup(t.L.line))) {
            cli_errorf("out of memory");
            rc = 1;
            break;
        }
        nf = cli_split_tabs(t.L.line, t.f, MAX_FIELDS);
        if (nf < 0) {
            cli_lines_error(&t.L, "more than %d columns", MAX_FIELDS);
            rc = 1;
        } else if (!t.kind) {
            rc = read_header(&t, nf) != 0;
        } else {
            rc = measured_row(fp, &t, nf) != 0;
        }
    }
    if (more < 0)
        rc = 1;
    else if (!rc && !t.kind) {
        cli_errorf("%s: no table in input (expected a header line)", t.L.name);
        rc = 1;
    }
    free(t.header);
    cli_lines_close(&t.L);
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
    fputs("name\tN\tr\tk\tmeasure\tvalue\tbound\tbound_value\tgap\trel_gap\n", out.fp);
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
                cell_real(&row, "Dbar", dbar->given ? dv : NAN);
            cell_u128(&row, rg[i].key, rg[i].given ? v[i] : TK_BOUND_NA);
        }
        cell_real(&row, "theta_u", t.theta_u);
        cell_real(&row, "valiant_ub", t.valiant_ub);
        cell_real(&row, "antmill_ub", t.antmill_ub);
        cell_real(&row, "antmill_slowdown", t.antmill_slowdown);
        cell_u128(&row, "antmill_adverse",
                  t.antmill_adverse < 0 ? TK_BOUND_NA : (tk_u128_t)t.antmill_adverse);
        cell_u128(&row, "lambda_min", t.lambda_min < 0 ? TK_BOUND_NA : (tk_u128_t)t.lambda_min);
        cell_real(&row, "adv_i_ub", t.adv_i_ub);
        cell_real(&row, "advc_ub", t.advc_ub);
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
