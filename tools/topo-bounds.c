/*
 * topo-bounds - theoretical bounds of regular topologies (seed 003 Lemmas
 * 1-4, 7, 9, 10; Moore; Cerf et al.; Singla et al.; Ant Mill, Valiant and
 * Dragonfly bounds of seeds 000 and 004): for parameter sweeps, for the
 * graphs of the inputs, or joined with measured values from topo-dist /
 * topo-ksp.  See topo-bounds(1).
 */
#include <config.h>

#include <errno.h>
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
    "                   [a=..] [h=..] [l=..]";

typedef struct range {
    const char *key;
    uint64_t lo, hi, step;
    int given;
} range_t;

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

static int is_param(const char *s)
{
    const char *eq = strchr(s, '=');
    if (!eq || eq == s)
        return 0;
    for (const char *c = s; c < eq; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            return 0;
    return 1;
}

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
        if (is_param(argv[i]))
            a->params[a->nparams++] = argv[i];
        else
            a->files[a->nfiles++] = argv[i];
    }
}

/* ------------------------------------------------------------------------ */
/* Parameters.                                                              */

/* Strict unsigned decimal; 0 on success. */
static int parse_u64(const char *s, const char *end, uint64_t *v)
{
    uint64_t x = 0;
    if (s == end)
        return -1;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        if (x > (UINT64_MAX - 9) / 10)
            return -1;
        x = x * 10 + (uint64_t)(*s - '0');
    }
    *v = x;
    return 0;
}

/* Parse "LO", "LO:HI" or "LO:HI:STEP" of parameter text `kv` ("N=2:10"). */
static int parse_range(const char *kv, range_t *r)
{
    const char *val = strchr(kv, '=') + 1, *c1 = strchr(val, ':'), *c2 = NULL;
    const char *end = val + strlen(val);

    if (c1)
        c2 = strchr(c1 + 1, ':');
    if (c2 && strchr(c2 + 1, ':')) {
        cli_errorf("%s: bad range: use LO, LO:HI or LO:HI:STEP", kv);
        return -1;
    }
    r->step = 1;
    if (parse_u64(val, c1 ? c1 : end, &r->lo) || (c1 && parse_u64(c1 + 1, c2 ? c2 : end, &r->hi)) ||
        (c2 && parse_u64(c2 + 1, end, &r->step))) {
        cli_errorf("%s: not a non-negative integer or range LO:HI[:STEP]", kv);
        return -1;
    }
    if (!c1)
        r->hi = r->lo;
    if (r->step == 0) {
        cli_errorf("%s: range step must be at least 1", kv);
        return -1;
    }
    if (r->lo > r->hi) {
        cli_errorf("%s: reversed range (%" PRIu64 " > %" PRIu64 ")", kv, r->lo, r->hi);
        return -1;
    }
    r->given = 1;
    return 0;
}

/* Assign each parameter operand to its range; unknown or repeated keys are
 * errors.  `ranges` ends with a NULL key. */
static int parse_params(const args_t *a, range_t *ranges, const char *known)
{
    for (int i = 0; i < a->nparams; i++) {
        const char *kv = a->params[i];
        size_t klen = (size_t)(strchr(kv, '=') - kv);
        range_t *r = NULL;
        for (range_t *x = ranges; x->key; x++)
            if (strlen(x->key) == klen && strncmp(x->key, kv, klen) == 0)
                r = x;
        if (!r) {
            cli_errorf("%.*s: unknown parameter (known: %s)", (int)klen, kv, known);
            return -1;
        }
        if (r->given) {
            cli_errorf("%s: parameter %s given twice", kv, r->key);
            return -1;
        }
        if (parse_range(kv, r))
            return -1;
    }
    return 0;
}

static uint64_t range_count(const range_t *r)
{
    return (r->hi - r->lo) / r->step + 1;
}

/* ------------------------------------------------------------------------ */
/* Output buffer: rows are formatted into a large buffer and written with
 * fwrite (the full N = 2..10^6 sweep is about 60 MB). */

typedef struct obuf {
    FILE *fp;
    char *buf;
    size_t len, cap;
    int failed;
} obuf_t;

static void ob_flush(obuf_t *o)
{
    if (o->len && fwrite(o->buf, 1, o->len, o->fp) != o->len)
        o->failed = 1;
    o->len = 0;
}

static char *ob_room(obuf_t *o, size_t need)
{
    if (o->len + need > o->cap)
        ob_flush(o);
    return o->buf + o->len;
}

static void ob_str(obuf_t *o, const char *s)
{
    size_t n = strlen(s);
    memcpy(ob_room(o, n + 1), s, n);
    o->len += n;
}

static void ob_chr(obuf_t *o, char c)
{
    *ob_room(o, 1) = c;
    o->len++;
}

static void ob_u128(obuf_t *o, tk_u128_t v)
{
    if (v == TK_BOUND_NA) {
        ob_chr(o, '-');
        return;
    }
    o->len += tk_u128_format(ob_room(o, 48), v);
}

static void ob_ratio(obuf_t *o, tk_ratio_t q)
{
    o->len += tk_ratio_format(ob_room(o, 128), q, 17);
}

static void ob_double(obuf_t *o, double v)
{
    char tmp[64];
    if (isnan(v)) {
        ob_chr(o, '-');
        return;
    }
    /* Shortest round-trip, as cli_print_double (few values: not hot). */
    if (isinf(v)) {
        ob_str(o, v > 0 ? "inf" : "-inf");
        return;
    }
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (strtod(tmp, NULL) == v)
            break;
    }
    ob_str(o, tmp);
}

static const char bound_cols[] =
    "N\tr\tk\tH\tp\tdiam_lb\tlk\tpaths_ub\tml_lb\tgdbg_diam_ub\tgdbg_paths_lb\t"
    "gdbg_ml_ub\tmoore_diam\tcerf_avg\tsingla_theta\tsingla_server\n";

static const tk_ratio_t na_ratio = {0, 0};

static void ob_bounds(obuf_t *o, const tk_bounds_t *b, int undirected_ok)
{
    ob_u128(o, b->N), ob_chr(o, '\t');
    ob_u128(o, b->r), ob_chr(o, '\t');
    ob_u128(o, b->k), ob_chr(o, '\t');
    ob_u128(o, b->H ? b->H : TK_BOUND_NA), ob_chr(o, '\t');
    ob_u128(o, b->p), ob_chr(o, '\t');
    ob_u128(o, b->diam_lb), ob_chr(o, '\t');
    ob_ratio(o, b->lk), ob_chr(o, '\t');
    ob_u128(o, b->paths_ub), ob_chr(o, '\t');
    ob_ratio(o, b->ml_lb), ob_chr(o, '\t');
    ob_u128(o, b->gdbg_diam_ub), ob_chr(o, '\t');
    ob_u128(o, b->gdbg_paths_lb), ob_chr(o, '\t');
    ob_ratio(o, b->gdbg_ml_ub), ob_chr(o, '\t');
    ob_u128(o, undirected_ok ? b->moore_diam : TK_BOUND_NA), ob_chr(o, '\t');
    ob_ratio(o, undirected_ok ? b->cerf_avg : na_ratio), ob_chr(o, '\t');
    ob_ratio(o, undirected_ok ? b->singla_theta : na_ratio), ob_chr(o, '\t');
    ob_ratio(o, undirected_ok ? b->singla_server : na_ratio), ob_chr(o, '\n');
}

static int out_begin(cli_out_t *out, obuf_t *ob, const char *path)
{
    if (cli_out_open(out, path) != 0)
        return -1;
    memset(ob, 0, sizeof *ob);
    ob->fp = out->fp;
    ob->cap = (size_t)1 << 20;
    ob->buf = malloc(ob->cap + 256);
    if (!ob->buf) {
        cli_errorf("out of memory");
        cli_out_abort(out);
        return -1;
    }
    return 0;
}

/* Finish: flush and commit on success, abort on failure.  Returns the exit
 * status. */
static int out_end(cli_out_t *out, obuf_t *ob, int rc)
{
    ob_flush(ob);
    free(ob->buf);
    if (ob->failed && !rc) {
        cli_errorf("write error");
        rc = 1;
    }
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

static int run_sweep(const args_t *a)
{
    range_t rg[] = {{"N", 0, 0, 1, 0}, {"r", 0, 0, 1, 0}, {"k", 1, 1, 1, 0},
                    {"H", 0, 0, 1, 0}, {"p", 1, 1, 1, 0}, {NULL, 0, 0, 0, 0}};
    tk_bounds_params_t lo, hi, pt;
    tk_bounds_t b;
    tk_error_t err;
    cli_out_t out;
    obuf_t ob;
    uint64_t points = 1;

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
    for (int i = 0; i < 5; i++) {
        uint64_t c = range_count(&rg[i]);
        if (points > UINT64_C(1000000000) / c) {
            cli_errorf("%s: sweep of more than 10^9 points refused", rg[i].key);
            return CLI_EXIT_DATA;
        }
        points *= c;
    }
    /* Every bound grows with N, r, k, H: the two corners show every
     * parameter error and overflow before anything is printed. */
    lo = (tk_bounds_params_t){rg[0].lo, rg[1].lo, rg[2].lo, rg[3].lo, rg[4].lo};
    hi = (tk_bounds_params_t){rg[0].lo + (range_count(&rg[0]) - 1) * rg[0].step,
                              rg[1].lo + (range_count(&rg[1]) - 1) * rg[1].step,
                              rg[2].lo + (range_count(&rg[2]) - 1) * rg[2].step,
                              rg[3].lo + (range_count(&rg[3]) - 1) * rg[3].step,
                              rg[4].lo + (range_count(&rg[4]) - 1) * rg[4].step};
    tk_error_clear(&err);
    if (tk_bounds_compute(&lo, &b, &err) || tk_bounds_compute(&hi, &b, &err)) {
        cli_error(&err);
        return CLI_EXIT_DATA;
    }
    if (hi.H == 0 && lo.r >= 2) { /* auto H: the largest is at N max, r min */
        tk_bounds_params_t c = hi;
        c.r = lo.r;
        if (tk_bounds_compute(&c, &b, &err)) {
            cli_error(&err);
            return CLI_EXIT_DATA;
        }
    }
    if (out_begin(&out, &ob, a->output))
        return CLI_EXIT_DATA;
    ob_str(&ob, bound_cols);
    int rc = 0;
    for (pt.N = lo.N; pt.N <= hi.N && !rc; pt.N += rg[0].step)
        for (pt.r = lo.r; pt.r <= hi.r && !rc; pt.r += rg[1].step)
            for (pt.k = lo.k; pt.k <= hi.k && !rc; pt.k += rg[2].step)
                for (pt.H = lo.H; pt.H <= hi.H && !rc; pt.H += rg[3].step)
                    for (pt.p = lo.p; pt.p <= hi.p; pt.p += rg[4].step) {
                        if (tk_bounds_compute(&pt, &b, &err)) {
                            cli_error(&err);
                            rc = 1;
                            break;
                        }
                        ob_bounds(&ob, &b, 1);
                    }
    return out_end(&out, &ob, rc);
}

/* ------------------------------------------------------------------------ */
/* Graph mode.                                                              */

static int graph_mode(const args_t *a)
{
    range_t rg[] = {{"k", 1, 1, 1, 0}, {"H", 0, 0, 1, 0}, {"p", 0, 0, 1, 0}, {NULL, 0, 0, 0, 0}};
    cli_out_t out;
    obuf_t ob;
    int rc = 0, header = 0, nin = a->nfiles ? a->nfiles : 1;
    uint64_t mem_limit = cli_mem_limit();

    if (parse_params(a, rg, "k H p (graph mode); N r start parameter mode"))
        return CLI_EXIT_DATA;
    for (int i = 0; i < 3; i++)
        if (rg[i].lo != rg[i].hi) {
            cli_errorf("%s=%" PRIu64 ":%" PRIu64 ": ranges need parameter mode (N= r=)", rg[i].key,
                       rg[i].lo, rg[i].hi);
            return CLI_EXIT_DATA;
        }
    if (out_begin(&out, &ob, a->output))
        return CLI_EXIT_DATA;
    for (int i = 0; i < nin; i++) {
        const char *name;
        FILE *fp = cli_open_input(a->nfiles ? a->files[i] : NULL, &name);
        tk_reader_t *rd = NULL;
        tk_error_t err;

        if (!fp) {
            rc = 1;
            continue;
        }
        tk_error_clear(&err);
        if (tk_reader_new(&rd, fp, name, TK_FMT_AUTO, mem_limit, &err) != TK_OK) {
            cli_error(&err);
            cli_close_input(fp);
            rc = 1;
            continue;
        }
        for (;;) {
            tk_graph_t *g = NULL;
            tk_status_t st = tk_reader_next(rd, &g, &err);
            char gname[1024];
            long idx = tk_reader_count(rd);
            if (st == TK_EOF) {
                if (idx == 0) {
                    tk_error_set(&err, TK_EFORMAT, name, 0, "no graph in input");
                    cli_error(&err);
                    rc = 1;
                }
                break;
            }
            if (st != TK_OK) {
                cli_error(&err);
                rc = 1;
                break;
            }
            int64_t deg = tk_graph_regular_degree(g);
            int64_t p = tk_graph_servers(g, 0);
            tk_bounds_params_t bp;
            tk_bounds_t b;
            cli_graph_name(g, name, idx, gname, sizeof gname);
            if (deg < 0) {
                cli_errorf("%s: graph %ld (%s): not regular; the bounds need a regular graph", name,
                           idx, gname);
                rc = 1;
                tk_graph_free(g);
                continue;
            }
            if (g->servers)
                for (tk_id_t v = 1; v < g->n; v++)
                    if (g->servers[v] != p)
                        p = 0; /* not uniform: per-server bound not applicable */
            if (rg[2].given)
                p = (int64_t)rg[2].lo;
            bp = (tk_bounds_params_t){(uint64_t)g->n, (uint64_t)deg, rg[0].lo, rg[1].lo,
                                      (uint64_t)p};
            if (tk_bounds_compute(&bp, &b, &err)) {
                cli_errorf("%s: graph %ld (%s): %s", name, idx, gname, err.msg);
                rc = 1;
            } else {
                if (!header) { /* with the first row: a failed run prints nothing */
                    ob_str(&ob, "name\tdirected\t");
                    ob_str(&ob, bound_cols);
                    header = 1;
                }
                ob_str(&ob, gname);
                ob_str(&ob, g->directed ? "\t1\t" : "\t0\t");
                ob_bounds(&ob, &b, !g->directed);
            }
            tk_graph_free(g);
        }
        tk_reader_free(rd);
        cli_close_input(fp);
    }
    if (!header && !rc) {
        ob_str(&ob, "name\tdirected\t");
        ob_str(&ob, bound_cols);
    }
    return out_end(&out, &ob, rc);
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

static int split_tabs(char *line, char **f)
{
    int n = 0;
    char *s = line;
    for (;;) {
        char *t = strchr(s, '\t');
        if (n == MAX_FIELDS)
            return -1;
        f[n++] = s;
        if (!t)
            break;
        *t = '\0';
        s = t + 1;
    }
    return n;
}

/* Strict non-negative double ("inf" allowed); 0 ok. */
static int parse_value(const char *s, double *v)
{
    char *end;
    if (strcmp(s, "inf") == 0) {
        *v = INFINITY;
        return 0;
    }
    if (!*s || !((*s >= '0' && *s <= '9') || *s == '.'))
        return -1;
    errno = 0;
    *v = strtod(s, &end);
    return (*end || errno || !isfinite(*v)) ? -1 : 0;
}

/* One joined row: measure against one bound. */
static void ob_join(obuf_t *o, const char *name, const tk_bounds_t *b, const char *measure,
                    double value, const char *bound, tk_u128_t ival, tk_ratio_t q)
{
    double bv, gap;
    int integral = q.den == 0;

    if (integral ? ival == TK_BOUND_NA : 0)
        return;
    bv = integral ? (double)ival : tk_ratio_double(q);
    ob_str(o, name), ob_chr(o, '\t');
    ob_u128(o, b->N), ob_chr(o, '\t');
    ob_u128(o, b->r), ob_chr(o, '\t');
    ob_u128(o, b->k), ob_chr(o, '\t');
    ob_str(o, measure), ob_chr(o, '\t');
    ob_double(o, value), ob_chr(o, '\t');
    ob_str(o, bound), ob_chr(o, '\t');
    if (integral)
        ob_u128(o, ival);
    else
        ob_ratio(o, q);
    ob_chr(o, '\t');
    gap = value - bv;
    ob_double(o, gap), ob_chr(o, '\t');
    ob_double(o, bv > 0 ? gap / bv : (gap == 0 ? 0 : INFINITY)), ob_chr(o, '\n');
}

static int measured_input(const args_t *a, obuf_t *ob, const char *path)
{
    const char *name;
    FILE *fp = cli_open_input(path, &name);
    char *line = NULL, *f[MAX_FIELDS];
    size_t cap = 0;
    ssize_t len;
    long lineno = 0;
    int col[NCOLS], nf, nhead = 0, rc = 0, kind = 0; /* kind 1 dist, 2 ksp */
    char *header = NULL;

    if (!fp)
        return 1;
    while ((len = getline(&line, &cap, fp)) >= 0) {
        lineno++;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        if (len == 0)
            continue;
        /* Concatenated tables (one run per graph): skip repeated headers. */
        if (header && strcmp(line, header) == 0)
            continue;
        if (!header && !(header = strdup(line))) {
            cli_errorf("out of memory");
            rc = 1;
            break;
        }
        nf = split_tabs(line, f);
        if (nf < 0) {
            cli_errorf("%s:%ld: more than %d columns", name, lineno, MAX_FIELDS);
            rc = 1;
            break;
        }
        if (!kind) { /* header */
            for (int c = 0; c < NCOLS; c++) {
                col[c] = -1;
                for (int i = 0; i < nf; i++)
                    if (strcmp(f[i], col_names[c]) == 0)
                        col[c] = i;
            }
            nhead = nf;
            if (col[COL_N] >= 0 && col[COL_ARCS] >= 0 && col[COL_DIAMETER] >= 0 &&
                col[COL_AVGD] >= 0)
                kind = 1;
            else if (col[COL_N] >= 0 && col[COL_K] >= 0 && col[COL_AKSP] >= 0 &&
                     (col[COL_DEGREE] >= 0 || a->r_override))
                kind = 2;
            else {
                cli_errorf("%s:%ld: header lacks the columns of topo-dist (n arcs diameter "
                           "avg_distance) or topo-ksp (n k avg_ksp_length degree)",
                           name, lineno);
                rc = 1;
                break;
            }
            continue;
        }
        if (nf != nhead) {
            cli_errorf("%s:%ld: %d fields, the header has %d", name, lineno, nf, nhead);
            rc = 1;
            break;
        }
        uint64_t n, arcs, r = 0, k = 1;
        const char *bad = NULL;
        if (parse_u64(f[col[COL_N]], f[col[COL_N]] + strlen(f[col[COL_N]]), &n))
            bad = "n";
        else if (kind == 1 &&
                 parse_u64(f[col[COL_ARCS]], f[col[COL_ARCS]] + strlen(f[col[COL_ARCS]]), &arcs))
            bad = "arcs";
        else if (kind == 2 && strcmp(f[col[COL_K]], "-") != 0 &&
                 parse_u64(f[col[COL_K]], f[col[COL_K]] + strlen(f[col[COL_K]]), &k))
            bad = "k";
        if (bad) {
            int c = strcmp(bad, "n") == 0 ? COL_N : strcmp(bad, "k") == 0 ? COL_K : COL_ARCS;
            cli_errorf("%s:%ld: column %s: '%s' is not a non-negative integer", name, lineno, bad,
                       f[col[c]]);
            rc = 1;
            break;
        }
        if (a->r_override) {
            r = (uint64_t)a->r_override;
        } else if (kind == 1) {
            if (n == 0 || arcs % n) {
                cli_errorf("%s:%ld: arcs=%" PRIu64 " is not a multiple of n=%" PRIu64
                           ": not a regular graph (use --r R to force a degree)",
                           name, lineno, arcs, n);
                rc = 1;
                break;
            }
            r = arcs / n;
        } else {
            const char *s = f[col[COL_DEGREE]];
            if (parse_u64(s, s + strlen(s), &r)) {
                cli_errorf("%s:%ld: column degree: '%s' is not an integer: not a regular "
                           "graph (use --r R to force a degree)",
                           name, lineno, s);
                rc = 1;
                break;
            }
        }
        uint64_t H = 0;
        int have_ap =
            kind == 2 && col[COL_H] >= 0 && col[COL_APMIN] >= 0 && strcmp(f[col[COL_H]], "-") != 0;
        if (have_ap && parse_u64(f[col[COL_H]], f[col[COL_H]] + strlen(f[col[COL_H]]), &H)) {
            cli_errorf("%s:%ld: column H: '%s' is not a non-negative integer", name, lineno,
                       f[col[COL_H]]);
            rc = 1;
            break;
        }
        tk_bounds_params_t bp = {n, r, k, H, 0};
        tk_bounds_t b;
        tk_error_t err;
        tk_error_clear(&err);
        if (tk_bounds_compute(&bp, &b, &err)) {
            cli_errorf("%s:%ld: %s", name, lineno, err.msg);
            rc = 1;
            break;
        }
        const char *rowname = col[COL_NAME] >= 0 ? f[col[COL_NAME]] : "-";
        int undirected =
            kind == 1 && col[COL_DIRECTED] >= 0 && strcmp(f[col[COL_DIRECTED]], "0") == 0;
        double v;
        if (kind == 1) {
            double d;
            if (parse_value(f[col[COL_DIAMETER]], &d)) {
                cli_errorf("%s:%ld: column diameter: '%s' is not a number", name, lineno,
                           f[col[COL_DIAMETER]]);
                rc = 1;
                break;
            }
            if (parse_value(f[col[COL_AVGD]], &v)) {
                cli_errorf("%s:%ld: column avg_distance: '%s' is not a number", name, lineno,
                           f[col[COL_AVGD]]);
                rc = 1;
                break;
            }
            ob_join(ob, rowname, &b, "diameter", d, "diam_lb", b.diam_lb, na_ratio);
            if (undirected)
                ob_join(ob, rowname, &b, "diameter", d, "moore_diam", b.moore_diam, na_ratio);
            ob_join(ob, rowname, &b, "avg_distance", v, "lk", 0, b.lk);
            if (undirected && b.cerf_avg.den)
                ob_join(ob, rowname, &b, "avg_distance", v, "cerf_avg", 0, b.cerf_avg);
        } else {
            int have_k = strcmp(f[col[COL_K]], "-") != 0;
            if (have_k && parse_value(f[col[COL_AKSP]], &v)) {
                cli_errorf("%s:%ld: column avg_ksp_length: '%s' is not a number", name, lineno,
                           f[col[COL_AKSP]]);
                rc = 1;
                break;
            }
            double apmin = 0;
            if (have_ap && parse_value(f[col[COL_APMIN]], &apmin)) {
                cli_errorf("%s:%ld: column allpath_min: '%s' is not a number", name, lineno,
                           f[col[COL_APMIN]]);
                rc = 1;
                break;
            }
            if (have_k)
                ob_join(ob, rowname, &b, "avg_ksp_length", v, "lk", 0, b.lk);
            if (have_ap) {
                ob_join(ob, rowname, &b, "allpath_min", apmin, "paths_ub", b.paths_ub, na_ratio);
                ob_join(ob, rowname, &b, "allpath_min", apmin, "gdbg_paths_lb", b.gdbg_paths_lb,
                        na_ratio);
            }
        }
    }
    if (!rc && !kind) {
        cli_errorf("%s: no table in input (expected a header line)", name);
        rc = 1;
    }
    free(line);
    free(header);
    cli_close_input(fp);
    return rc;
}

static int run_measured(const args_t *a)
{
    cli_out_t out;
    obuf_t ob;
    int rc = 0;

    if (a->nparams) {
        cli_errorf("%s: --measured takes no parameters (use --r R)", a->params[0]);
        return CLI_EXIT_USAGE;
    }
    if (out_begin(&out, &ob, a->output))
        return CLI_EXIT_DATA;
    ob_str(&ob, "name\tN\tr\tk\tmeasure\tvalue\tbound\tbound_value\tgap\trel_gap\n");
    if (a->nfiles == 0)
        rc = measured_input(a, &ob, NULL);
    for (int i = 0; i < a->nfiles && !rc; i++)
        rc = measured_input(a, &ob, a->files[i]);
    if (rc && !a->output) {
        /* No partial table on stdout: drop what is still buffered. */
        ob.len = 0;
    }
    return out_end(&out, &ob, rc);
}

/* ------------------------------------------------------------------------ */
/* --traffic.                                                               */

static int run_traffic(const args_t *a)
{
    range_t rg[] = {{"p", 0, 0, 1, 0},     {"d", 0, 0, 1, 0}, {"lambda", 0, 0, 1, 0},
                    {"delta", 0, 0, 1, 0}, {"a", 0, 0, 1, 0}, {"h", 0, 0, 1, 0},
                    {"l", 0, 0, 1, 0},     {NULL, 0, 0, 0, 0}};
    args_t b = *a;
    double dbar = 0;
    const char *dbar_s = NULL;
    char *params[64];
    cli_out_t out;
    obuf_t ob;
    tk_traffic_params_t tp;
    tk_traffic_bounds_t t;
    tk_error_t err;
    uint64_t points = 1;

    if (a->nfiles) {
        cli_errorf("%s: --traffic reads no input (parameters are KEY=VALUE)", a->files[0]);
        return CLI_EXIT_USAGE;
    }
    /* Dbar is a real number: take it out before the integer ranges. */
    b.params = params;
    b.nparams = 0;
    for (int i = 0; i < a->nparams; i++) {
        if (strncmp(a->params[i], "Dbar=", 5) == 0) {
            char *end;
            if (dbar_s) {
                cli_errorf("%s: parameter Dbar given twice", a->params[i]);
                return CLI_EXIT_DATA;
            }
            dbar_s = a->params[i];
            errno = 0;
            dbar = strtod(a->params[i] + 5, &end);
            if (end == a->params[i] + 5 || *end || errno || !isfinite(dbar) || dbar <= 0) {
                cli_errorf("%s: not a positive number", a->params[i]);
                return CLI_EXIT_DATA;
            }
        } else if (b.nparams < 64) {
            params[b.nparams++] = a->params[i];
        }
    }
    if (parse_params(&b, rg, "p d Dbar lambda delta a h l"))
        return CLI_EXIT_DATA;
    for (int i = 0; i < 7; i++) {
        uint64_t c = range_count(&rg[i]);
        if (points > UINT64_C(100000000) / c) {
            cli_errorf("%s: more than 10^8 points refused", rg[i].key);
            return CLI_EXIT_DATA;
        }
        points *= c;
    }
    if (out_begin(&out, &ob, a->output))
        return CLI_EXIT_DATA;
    ob_str(&ob, "p\td\tDbar\tlambda\tdelta\ta\th\tl\ttheta_u\tvaliant_ub\tantmill_ub\t"
                "antmill_slowdown\tantmill_adverse\tlambda_min\tadv_i_ub\tadvc_ub\n");
    uint64_t v[7];
    for (uint64_t idx = 0; idx < points; idx++) {
        uint64_t x = idx;
        for (int i = 6; i >= 0; i--) { /* odometer, last key fastest */
            uint64_t c = range_count(&rg[i]);
            v[i] = rg[i].lo + (x % c) * rg[i].step;
            x /= c;
        }
        tp = (tk_traffic_params_t){v[0], v[1], dbar, v[2], v[3], v[4], v[5], v[6]};
        tk_error_clear(&err);
        if (tk_traffic_bounds(&tp, &t, &err)) {
            cli_error(&err);
            return out_end(&out, &ob, 1);
        }
        for (int i = 0; i < 2; i++)
            ob_u128(&ob, rg[i].given ? v[i] : TK_BOUND_NA), ob_chr(&ob, '\t');
        ob_double(&ob, dbar_s ? dbar : NAN), ob_chr(&ob, '\t');
        for (int i = 2; i < 7; i++)
            ob_u128(&ob, rg[i].given ? v[i] : TK_BOUND_NA), ob_chr(&ob, '\t');
        ob_double(&ob, t.theta_u), ob_chr(&ob, '\t');
        ob_double(&ob, t.valiant_ub), ob_chr(&ob, '\t');
        ob_double(&ob, t.antmill_ub), ob_chr(&ob, '\t');
        ob_double(&ob, t.antmill_slowdown), ob_chr(&ob, '\t');
        ob_u128(&ob, t.antmill_adverse < 0 ? TK_BOUND_NA : (tk_u128_t)t.antmill_adverse);
        ob_chr(&ob, '\t');
        ob_u128(&ob, t.lambda_min < 0 ? TK_BOUND_NA : (tk_u128_t)t.lambda_min);
        ob_chr(&ob, '\t');
        ob_double(&ob, t.adv_i_ub), ob_chr(&ob, '\t');
        ob_double(&ob, t.advc_ub), ob_chr(&ob, '\n');
    }
    return out_end(&out, &ob, 0);
}

int main(int argc, char **argv)
{
    args_t a;
    int rc;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    cli_set_threads(a.threads);
    if (a.traffic)
        rc = run_traffic(&a);
    else if (a.measured)
        rc = run_measured(&a);
    else {
        int sweep = 0;
        for (int i = 0; i < a.nparams; i++)
            if (strncmp(a.params[i], "N=", 2) == 0 || strncmp(a.params[i], "r=", 2) == 0)
                sweep = 1;
        rc = sweep ? run_sweep(&a) : graph_mode(&a);
    }
    free(a.params);
    free(a.files);
    return rc;
}
