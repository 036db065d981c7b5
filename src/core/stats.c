/*
 * stats.c - sample mean, standard deviation and Student t confidence
 * interval (tk_stats.h).  GSL provides the t quantile; the sums are
 * two-pass (mean, then squared deviations) for accuracy.
 */
#include <config.h>

#include <math.h>

#include <gsl/gsl_cdf.h>

#include "tk_stats.h"

tk_status_t tk_sample_stats(const double *x, int64_t n, double level, tk_sample_stats_t *out,
                            tk_error_t *err)
{
    double sum = 0, ss = 0, lo = INFINITY, hi = -INFINITY;

    if (!x || !out || n < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "no values");
    if (!(level > 0 && level < 1))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "level=%g: must be between 0 and 1", level);
    for (int64_t i = 0; i < n; i++) {
        if (!isfinite(x[i]))
            return tk_error_set(err, TK_EINVAL, NULL, 0, "value %lld is not finite",
                                (long long)i + 1);
        sum += x[i];
        if (x[i] < lo)
            lo = x[i];
        if (x[i] > hi)
            hi = x[i];
    }
    out->n = n;
    out->mean = sum / (double)n;
    for (int64_t i = 0; i < n; i++)
        ss += (x[i] - out->mean) * (x[i] - out->mean);
    out->min = lo;
    out->max = hi;
    if (n < 2) {
        out->sd = 0;
        out->halfwidth = INFINITY;
        return TK_OK;
    }
    out->sd = sqrt(ss / (double)(n - 1));
    /* gsl_cdf_tdist_Pinv never calls the GSL error handler for P in (0,1) */
    out->halfwidth =
        gsl_cdf_tdist_Pinv(0.5 + level / 2, (double)(n - 1)) * out->sd / sqrt((double)n);
    return TK_OK;
}
