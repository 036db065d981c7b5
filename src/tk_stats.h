/*
 * tk_stats.h - sample statistics for averaging over random samples
 * (graphs, patterns, seeds): mean, standard deviation and the Student t
 * confidence interval of the mean, with GSL's t quantile.
 */
#ifndef TK_STATS_H
#define TK_STATS_H

#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_sample_stats {
    int64_t n; /* values                                          */
    double mean;
    double sd; /* sample standard deviation (n - 1); 0 if n < 2    */
    double min, max;
    double halfwidth; /* t_{(1+level)/2, n-1} sd / sqrt(n); +inf if n < 2 */
} tk_sample_stats_t;

/* Statistics of x[0..n-1] and the two-sided confidence interval of the
 * mean at `level` (0 < level < 1, e.g. 0.95): mean +- halfwidth.
 * Errors: TK_EINVAL (n < 1, a value not finite, level outside (0,1)).
 * Time O(n), no allocation. */
TK_API tk_status_t tk_sample_stats(const double *x, int64_t n, double level, tk_sample_stats_t *out,
                                   tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_STATS_H */
