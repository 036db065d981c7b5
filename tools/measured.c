/*
 * measured.c - topo-bounds --measured: the rows of topo-dist and topo-ksp
 * tables joined to the bounds of their parameters, and the bound cells
 * topo-bounds prints.  A module of its own so that the fuzz harness
 * "measured" reads tables exactly as topo-bounds does.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "measured.h"

const char cli_measured_header[] =
    "name\tN\tr\tk\tmeasure\tvalue\tbound\tbound_value\tgap\trel_gap\n";

static const tk_ratio_t na_ratio = {0, 0};

/* Integral bounds: TK_BOUND_NA is missing ("-"). */
void cli_cell_bound(cli_row_t *row, const char *name, tk_u128_t v)
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
void cli_cell_ratio(cli_row_t *row, const char *name, tk_ratio_t q)
{
    char buf[128];

    tk_ratio_format(buf, q, 17);
    cli_cell_num(row, name, buf);
}

/* Decimals in their shortest form ("1e+02" for 100); NaN is missing. */
void cli_cell_real(cli_row_t *row, const char *name, double v)
{
    char buf[64];

    if (isnan(v))
        cli_cell_null(row, name);
    else
        cli_cell_num(row, name, cli_format_double(buf, sizeof buf, v, 1));
}

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
    int64_t r_override; /* --r R (0: none) */
    char *header;       /* the first header line, to skip its repeats */
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
             (t->col[COL_DEGREE] >= 0 || t->r_override))
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

    if (t->r_override) {
        *r = (uint64_t)t->r_override;
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
    cli_cell_bound(&row, "N", b->N);
    cli_cell_bound(&row, "r", b->r);
    cli_cell_bound(&row, "k", b->k);
    cli_cell_text(&row, "measure", measure);
    cli_cell_real(&row, "value", value);
    cli_cell_text(&row, "bound", bound);
    if (integral)
        cli_cell_bound(&row, "bound_value", ival);
    else
        cli_cell_ratio(&row, "bound_value", q);
    cli_cell_real(&row, "gap", gap);
    cli_cell_real(&row, "rel_gap", bv > 0 ? gap / bv : (gap == 0 ? 0 : INFINITY));
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

int cli_measured_join(FILE *fp, cli_lines_t *L, int64_t r_override)
{
    table_t t;
    int rc = 0, more, nf;

    memset(&t, 0, sizeof t);
    t.L = *L;
    t.r_override = r_override;
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
    *L = t.L; /* the line buffer, for cli_lines_close */
    return rc ? -1 : 0;
}
