/*
 * measured.h - topo-bounds' bound cells and its --measured join (measured.c).
 */
#ifndef TK_TOOLS_MEASURED_H
#define TK_TOOLS_MEASURED_H

#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "tk_bounds.h"

/* The header line of the joined table. */
extern const char cli_measured_header[];

/* An integral bound (TK_BOUND_NA: missing, "-"). */
void cli_cell_bound(cli_row_t *row, const char *name, tk_u128_t v);
/* An exact rational with 17 significant digits ("-" when undefined). */
void cli_cell_ratio(cli_row_t *row, const char *name, tk_ratio_t q);
/* A decimal in its shortest form; NaN is missing. */
void cli_cell_real(cli_row_t *row, const char *name, double v);

/* Join every data row of the topo-dist or topo-ksp tables read from L (an
 * open cli_lines_t; concatenated tables: repeated headers are skipped) to
 * the bounds of its n, degree and k, as rows of cli_measured_header on fp.
 * r_override: --r R, the degree of every row (0: from the table).  0, or
 * -1 with one error line printed ("NAME:LINE: ..."). */
int cli_measured_join(FILE *fp, cli_lines_t *L, int64_t r_override);

#endif
