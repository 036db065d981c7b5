/*
 * rows.c - switch-level demand rows as the load engines see them
 * (route_load.h): totals, checks, and the dense row of one source.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "route/route_internal.h"

double tk_rows_total(const tk_rows_t *r)
{
    double t = 0;
    if (r->off) {
        for (int64_t i = 0; i < r->off[r->n]; i++)
            t += r->w[i];
    } else {
        for (tk_id_t s = 0; s < r->n; s++)
            t += (r->srcw ? r->srcw[s] : 1.0) * (double)(r->n - 1);
    }
    return t;
}

tk_status_t tk_rows_check(const tk_graph_t *g, const tk_rows_t *r, tk_error_t *err)
{
    if (r->off) {
        if (r->n != g->n)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "demands: %ld switches, graph has %ld",
                                (long)r->n, (long)g->n);
        for (int64_t i = 0; i < r->off[r->n]; i++)
            if (r->dst[i] < 0 || r->dst[i] >= g->n || !(r->w[i] >= 0) || !isfinite(r->w[i]))
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "demands: entry %ld: bad destination or weight", (long)i);
    } else if (r->srcw) {
        for (tk_id_t s = 0; s < g->n; s++)
            if (!(r->srcw[s] >= 0) || !isfinite(r->srcw[s]))
                return tk_error_set(err, TK_EINVAL, NULL, 0, "srcw[%ld]: not a finite weight >= 0",
                                    (long)s);
    }
    return TK_OK;
}

int rt_rows_fill(const void *rowsp, tk_id_t s, double *wt)
{
    const tk_rows_t *r = rowsp;
    int any = 0;
    if (r->off) {
        for (int64_t i = r->off[s]; i < r->off[s + 1]; i++) {
            if (r->dst[i] != s && r->w[i] != 0) {
                wt[r->dst[i]] += r->w[i];
                any = 1;
            }
        }
        return any;
    }
    double ws = r->srcw ? r->srcw[s] : 1.0;
    if (ws == 0)
        return 0;
    for (tk_id_t y = 0; y < r->n; y++)
        wt[y] = y == s ? 0 : ws;
    return r->n > 1;
}

void rt_rows_clear(const void *rowsp, tk_id_t s, double *wt)
{
    const tk_rows_t *r = rowsp;
    if (r->off) {
        for (int64_t i = r->off[s]; i < r->off[s + 1]; i++)
            wt[r->dst[i]] = 0;
    } else {
        memset(wt, 0, (size_t)r->n * sizeof *wt);
    }
}
