/*
 * medoid.c - medoid of standardized feature vectors (topo-medoid(1)).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "tk_antmill.h"

tk_status_t tk_medoid_select(const double *x, int64_t m, int k, double *z, double *sumdist,
                             int64_t *medoid, tk_error_t *err)
{
    double *zz, *sd;
    int64_t best = 0;

    if (m < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "samples=%lld: must be at least 1",
                            (long long)m);
    if (k < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "features=%d: must be at least 1", k);
    zz = tk_malloc_array((size_t)m * (size_t)k, sizeof *zz);
    sd = tk_malloc_array((size_t)m, sizeof *sd);
    if (!zz || !sd) {
        free(zz);
        free(sd);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int f = 0; f < k; f++) {
        double mean = 0, var = 0;
        for (int64_t i = 0; i < m; i++)
            mean += x[i * k + f];
        mean /= (double)m;
        for (int64_t i = 0; i < m; i++)
            var += (x[i * k + f] - mean) * (x[i * k + f] - mean);
        var /= (double)m;
        double s = sqrt(var);
        for (int64_t i = 0; i < m; i++)
            zz[i * k + f] = s > 0 ? (x[i * k + f] - mean) / s : 0.0;
    }
    for (int64_t i = 0; i < m; i++) {
        double t = 0;
        for (int64_t j = 0; j < m; j++) {
            double q = 0;
            for (int f = 0; f < k; f++) {
                double d = zz[i * k + f] - zz[j * k + f];
                q += d * d;
            }
            t += sqrt(q);
        }
        sd[i] = t;
        if (t < sd[best])
            best = i;
    }
    if (z)
        for (int64_t i = 0; i < m * k; i++)
            z[i] = zz[i];
    if (sumdist)
        for (int64_t i = 0; i < m; i++)
            sumdist[i] = sd[i];
    *medoid = best;
    free(zz);
    free(sd);
    return TK_OK;
}
