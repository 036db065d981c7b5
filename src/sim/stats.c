/*
 * stats.c - fairness statistics of a set of rates (topo-sim(1)): mean,
 * min, max, Max/Min, coefficient of variation, Jain's index.
 */
#include <math.h>

#include "tk_sim.h"

void tk_fair_stats(const double *v, int64_t n, tk_fair_stats_t *out)
{
    double s = 0, s2 = 0, mn = INFINITY, mx = -INFINITY;

    if (n <= 0) {
        *out = (tk_fair_stats_t){0, 0, 0, 1, 0, 1};
        return;
    }
    for (int64_t i = 0; i < n; i++) {
        s += v[i];
        s2 += v[i] * v[i];
        if (v[i] < mn)
            mn = v[i];
        if (v[i] > mx)
            mx = v[i];
    }
    double mean = s / (double)n;
    /* the variance from deviations (not s2/n - mean^2, which cancels) */
    double dev = 0;
    for (int64_t i = 0; i < n; i++)
        dev += (v[i] - mean) * (v[i] - mean);
    out->mean = mean;
    out->min = mn;
    out->max = mx;
    out->maxmin = mx == 0 ? 1 : (mn == 0 ? INFINITY : mx / mn);
    out->cov = mean > 0 ? sqrt(dev / (double)n) / mean : 0;
    out->jain = s2 > 0 ? s * s / ((double)n * s2) : 1;
}
