/*
 * test_adaccel.c - the Anderson step of the adaptive fixed point
 * (src/sim/adapt_accel.c) against a plain implementation of the same
 * formula: the Gram matrix of the differences recomputed in full at every
 * step (as the step did before it kept the matrix between steps).  The
 * splits must agree bit for bit over a run that fills the ring, wraps it
 * and is reset (as a halving of the damping does), and at 1 and 2
 * threads.
 */
#include <config.h>

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/adapt_internal.h"
#include "tap.h"

#define NP 3
#define STEPS 40

/* The reference: ring of g and f, full Gram every step. */
typedef struct ref {
    int64_t n;
    double g[AD_AA_M + 1][64], f[AD_AA_M + 1][64];
    int h, head;
} ref_t;

/* y (n shares, in place) from ynew. */
static void ref_step(ref_t *A, double *y, const double *ynew, double damp)
{
    int64_t n = A->n;
    int slot = A->h == 0 ? 0 : (A->head + 1) % (AD_AA_M + 1);
    for (int64_t e = 0; e < n; e++) {
        A->g[slot][e] = y[e] + damp * (ynew[e] - y[e]);
        A->f[slot][e] = A->g[slot][e] - y[e];
    }
    A->head = slot;
    if (A->h < AD_AA_M + 1)
        A->h++;
    int h = A->h - 1;
    if (h > 0) {
        int sl[AD_AA_M + 1];
        for (int k = 0; k <= h; k++)
            sl[k] = (A->head - h + k + 2 * (AD_AA_M + 1)) % (AD_AA_M + 1);
        double M[AD_AA_M][AD_AA_M] = {{0}}, b[AD_AA_M] = {0};
        for (int64_t e = 0; e < n; e++) {
            double d[AD_AA_M];
            for (int k = 0; k < h; k++)
                d[k] = A->f[sl[k + 1]][e] - A->f[sl[k]][e];
            for (int k = 0; k < h; k++) {
                b[k] += d[k] * A->f[slot][e];
                for (int l = 0; l <= k; l++)
                    M[k][l] += d[k] * d[l];
            }
        }
        double tr = 0;
        for (int k = 0; k < h; k++) {
            for (int l = 0; l < k; l++)
                M[l][k] = M[k][l];
            tr += M[k][k];
        }
        for (int k = 0; k < h; k++)
            M[k][k] += 1e-12 * tr + DBL_MIN;
        if (tr > 0 && ad_aa_lsolve(h, M, b)) {
            for (int64_t e = 0; e < n; e++) {
                double v = A->g[slot][e];
                for (int k = 0; k < h; k++)
                    v -= b[k] * (A->g[sl[k + 1]][e] - A->g[sl[k]][e]);
                y[e] = v < 0 ? 0 : v > 1 ? 1 : v;
            }
            return;
        }
    }
    for (int64_t e = 0; e < n; e++)
        y[e] = A->g[slot][e];
}

static uint64_t rng = 88172645463325252ull;
static double urand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) / 9007199254740992.0;
}

int main(void)
{
    static const int64_t ny[NP] = {5, 17, 9};
    int64_t n = 0;
    for (int i = 0; i < NP; i++)
        n += ny[i];
    int same[2] = {1, 1};
    double yref[64], ynew[STEPS][64], yout[2][64];
    for (int s = 0; s < STEPS; s++)
        for (int64_t e = 0; e < n; e++)
            /* a target that drifts slowly, so the steps correlate */
            ynew[s][e] = 0.5 + 0.4 * sin(0.3 * (double)s + (double)e) * urand();
    for (int th = 1; th <= 2; th++) {
        struct sim_adapt ad;
        ad_pair_t pair[NP];
        memset(&ad, 0, sizeof ad);
        memset(pair, 0, sizeof pair);
        ad.npairs = NP;
        ad.pair = pair;
        for (int i = 0; i < NP; i++) {
            pair[i].ny = ny[i];
            pair[i].y = calloc((size_t)ny[i], sizeof(double));
            pair[i].ynew = calloc((size_t)ny[i], sizeof(double));
        }
        ref_t R;
        memset(&R, 0, sizeof R);
        R.n = n;
        for (int64_t e = 0; e < n; e++)
            yref[e] = 0.5;
        for (int i = 0; i < NP; i++)
            for (int64_t j = 0; j < ny[i]; j++)
                pair[i].y[j] = 0.5;
        ad_aa_t A;
        if (ad_aa_init(&A, &ad)) {
            ok(0, "out of memory");
            return tap_done();
        }
        double damp = 0.5;
        for (int s = 0; s < STEPS; s++) {
            if (s == 17 || s == 29) {
                /* a halving of the damping: the history restarts */
                damp /= 2;
                ad_aa_reset(&A);
                R.h = 0;
            }
            int64_t e = 0;
            for (int i = 0; i < NP; i++)
                for (int64_t j = 0; j < ny[i]; j++, e++)
                    pair[i].ynew[j] = ynew[s][e];
            ad_aa_step(&ad, &A, damp, th);
            ref_step(&R, yref, ynew[s], damp);
            e = 0;
            for (int i = 0; i < NP; i++)
                for (int64_t j = 0; j < ny[i]; j++, e++) {
                    if (memcmp(&pair[i].y[j], &yref[e], sizeof(double)) != 0)
                        same[th - 1] = 0;
                    yout[th - 1][e] = pair[i].y[j];
                }
        }
        ad_aa_free(&A);
        for (int i = 0; i < NP; i++) {
            free(pair[i].y);
            free(pair[i].ynew);
        }
    }
    ok(same[0],
       "kept Gram matrix = full recomputation, bit for bit, %d steps (ring wraps, "
       "two resets), 1 thread",
       STEPS);
    ok(same[1], "the same at 2 threads");
    ok(memcmp(yout[0], yout[1], (size_t)n * sizeof(double)) == 0,
       "the last split: the same bytes at 1 and 2 threads");
    return tap_done();
}
