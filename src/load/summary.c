/*
 * summary.c - summaries of arc loads (tk_load_summarize) and the
 * saturation throughput they imply (tk_load_throughput).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_load.h"

/* tk_load_summarize: see tk_load.h. */
tk_status_t tk_load_summarize(const tk_graph_t *g, const double *arcload, tk_load_summary_t *out,
                              tk_error_t *err)
{
    if (!g || !arcload || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_summarize: NULL argument");
    int nc = g->nclasses < 1 ? 1 : g->nclasses;
    tk_load_summary_t s;
    memset(&s, 0, sizeof s);
    s.nclasses = nc;
    s.max_load = tk_calloc_array((size_t)nc + 1, sizeof *s.max_load);
    s.avg_load = tk_calloc_array((size_t)nc + 1, sizeof *s.avg_load);
    s.arcs = tk_calloc_array((size_t)nc + 1, sizeof *s.arcs);
    if (!s.max_load || !s.avg_load || !s.arcs) {
        tk_load_summary_destroy(&s);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    s.argmax = g->m > 0 ? 0 : -1;
    double best = -1;
    for (int64_t a = 0; a < g->m; a++) {
        int c = g->cls ? g->cls[a] : 0;
        if (c >= nc)
            c = 0;
        double x = arcload[a] / tk_graph_cap(g, a);
        if (x > s.max_load[c])
            s.max_load[c] = x;
        s.avg_load[c] += x;
        s.arcs[c]++;
        s.avg_load[nc] += x;
        s.arcs[nc]++;
        if (x > best) {
            best = x;
            s.argmax = a;
        }
    }
    s.max_load[nc] = best > 0 ? best : 0;
    for (int c = 0; c <= nc; c++)
        if (s.arcs[c])
            s.avg_load[c] /= (double)s.arcs[c];
    *out = s;
    return TK_OK;
}

void tk_load_summary_destroy(tk_load_summary_t *s)
{
    if (!s)
        return;
    free(s->max_load);
    free(s->avg_load);
    free(s->arcs);
    memset(s, 0, sizeof *s);
}

/* tk_throughput: see tk_load.h. */
double tk_throughput(double theta, double limit)
{
    double th = 1.0;
    if (theta < th)
        th = theta;
    if (limit < th)
        th = limit;
    return th;
}

/* tk_swdemand_limit: see tk_load.h. */
double tk_swdemand_limit(const tk_swdemand_t *dem)
{
    double lim = 1.0;
    if (dem && dem->inject && dem->eject) {
        for (tk_id_t s = 0; s < dem->n; s++) {
            if (dem->inject[s] > 0 && 1.0 / dem->inject[s] < lim)
                lim = 1.0 / dem->inject[s];
            if (dem->eject[s] > 0 && 1.0 / dem->eject[s] < lim)
                lim = 1.0 / dem->eject[s];
        }
    }
    return lim;
}

/* tk_load_throughput: see tk_load.h. */
double tk_load_throughput(double max_load, const tk_swdemand_t *dem)
{
    return tk_throughput(max_load > 0 ? 1.0 / max_load : INFINITY, tk_swdemand_limit(dem));
}
