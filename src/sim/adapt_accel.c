/*
 * adapt_accel.c - Anderson acceleration of the adaptive fixed point
 * (adaptive.c's iteration, topokit(7) ADAPTIVE ROUTING, Iteration):
 * Anderson, "Iterative procedures for nonlinear integral equations",
 * 1965; Walker and Ni, "Anderson acceleration for fixed-point
 * iterations", 2011.  The damped map is G(y) = y + mu (y* - y); with the
 * last h <= AD_AA_M + 1 values g_i = G(y_i) and f_i = g_i - y_i, the next
 * split is g_k - sum_j gamma_j (g_{j+1} - g_j), gamma the least-squares
 * solution of sum_j gamma_j (f_{j+1} - f_j) = f_k, clamped to [0, 1].
 * Every sum is taken serially in the order of the shares, so the bytes do
 * not depend on the thread count.  The Gram matrix of the differences is
 * kept between steps: a step computes only the products with its new
 * difference (each entry is the same serial sum as when it was first
 * computed, so the matrix is the one a full recomputation gives, bit for
 * bit).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "adapt_internal.h"

void ad_aa_free(ad_aa_t *A)
{
    free(A->yoff);
    free(A->g);
    free(A->f);
}

int ad_aa_init(ad_aa_t *A, const struct sim_adapt *ad)
{
    memset(A, 0, sizeof *A);
    A->yoff = tk_calloc_array((size_t)ad->npairs + 1, sizeof *A->yoff);
    if (!A->yoff)
        return -1;
    for (int64_t i = 0; i < ad->npairs; i++)
        A->yoff[i + 1] = A->yoff[i] + ad->pair[i].ny;
    A->n = A->yoff[ad->npairs];
    A->g = tk_calloc_array((size_t)(AD_AA_M + 1) * (size_t)(A->n ? A->n : 1), sizeof *A->g);
    A->f = tk_calloc_array((size_t)(AD_AA_M + 1) * (size_t)(A->n ? A->n : 1), sizeof *A->f);
    return A->g && A->f ? 0 : -1;
}

void ad_aa_reset(ad_aa_t *A)
{
    A->h = 0;
}

/* ad_aa_lsolve: see adapt_internal.h. */
int ad_aa_lsolve(int h, double M[AD_AA_M][AD_AA_M], double *b)
{
    for (int c = 0; c < h; c++) {
        int piv = c;
        for (int r = c + 1; r < h; r++)
            if (fabs(M[r][c]) > fabs(M[piv][c]))
                piv = r;
        if (!(fabs(M[piv][c]) > 0))
            return 0;
        if (piv != c) {
            for (int k = 0; k < h; k++) {
                double t = M[c][k];
                M[c][k] = M[piv][k];
                M[piv][k] = t;
            }
            double t = b[c];
            b[c] = b[piv];
            b[piv] = t;
        }
        for (int r = c + 1; r < h; r++) {
            double q = M[r][c] / M[c][c];
            for (int k = c; k < h; k++)
                M[r][k] -= q * M[c][k];
            b[r] -= q * b[c];
        }
    }
    for (int c = h - 1; c >= 0; c--) {
        double v = b[c];
        for (int k = c + 1; k < h; k++)
            v -= M[c][k] * b[k];
        b[c] = v / M[c][c];
    }
    for (int c = 0; c < h; c++)
        if (!isfinite(b[c]))
            return 0;
    return 1;
}

/* The accelerated step: record g, f of the current split and write the
 * next split into every pair's y (the caller refreshes the pairs' shares
 * and coefficients). */
int ad_aa_step(struct sim_adapt *ad, ad_aa_t *A, double damp, int nth)
{
    int64_t n = A->n;
    int slot = A->h == 0 ? 0 : (A->head + 1) % (AD_AA_M + 1);
    double *g = A->g + (size_t)slot * (size_t)n, *f = A->f + (size_t)slot * (size_t)n;
#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t i = 0; i < ad->npairs; i++) {
        const ad_pair_t *p = &ad->pair[i];
        for (int64_t j = 0; j < p->ny; j++) {
            double y = p->y[j], gv = y + damp * (p->ynew[j] - y);
            g[A->yoff[i] + j] = gv;
            f[A->yoff[i] + j] = gv - y;
        }
    }
    A->head = slot;
    int full = A->h == AD_AA_M + 1; /* the oldest value is dropped */
    if (A->h < AD_AA_M + 1)
        A->h++;
    int h = A->h - 1; /* differences */
    /* the Gram matrix of the differences held: drop the oldest's row
     * and column when the ring was full; the new row is computed below */
    if (full)
        for (int k = 0; k + 1 < h; k++)
            for (int l = 0; l <= k; l++)
                A->gram[k][l] = A->gram[k + 1][l + 1];
    double gam[AD_AA_M] = {0};
    int ok = 0;
    if (h > 0) {
        /* slots from oldest to newest */
        int sl[AD_AA_M + 1];
        for (int k = 0; k <= h; k++)
            sl[k] = (A->head - h + k + 2 * (AD_AA_M + 1)) % (AD_AA_M + 1);
        double M[AD_AA_M][AD_AA_M] = {{0}}, b[AD_AA_M] = {0}, row[AD_AA_M] = {0};
        int k1 = h - 1;
        for (int64_t e = 0; e < n; e++) {
            double d[AD_AA_M];
            for (int k = 0; k < h; k++)
                d[k] = A->f[(size_t)sl[k + 1] * (size_t)n + (size_t)e] -
                       A->f[(size_t)sl[k] * (size_t)n + (size_t)e];
            for (int k = 0; k < h; k++)
                b[k] += d[k] * f[e];
            for (int l = 0; l <= k1; l++)
                row[l] += d[k1] * d[l];
        }
        for (int l = 0; l <= k1; l++)
            A->gram[k1][l] = row[l];
        double tr = 0;
        for (int k = 0; k < h; k++) {
            for (int l = 0; l <= k; l++)
                M[k][l] = M[l][k] = A->gram[k][l];
            tr += M[k][k];
        }
        for (int k = 0; k < h; k++)
            M[k][k] += 1e-12 * tr + DBL_MIN;
        ok = tr > 0 && ad_aa_lsolve(h, M, b);
        if (ok) {
            for (int k = 0; k < h; k++)
                gam[k] = b[k];
                /* write g_k - sum gamma_j (g_{j+1} - g_j) */
#pragma omp parallel for num_threads(nth) schedule(static)
            for (int64_t i = 0; i < ad->npairs; i++) {
                ad_pair_t *p = &ad->pair[i];
                for (int64_t j = 0; j < p->ny; j++) {
                    int64_t e = A->yoff[i] + j;
                    double v = g[e];
                    for (int k = 0; k < h; k++)
                        v -= gam[k] * (A->g[(size_t)sl[k + 1] * (size_t)n + (size_t)e] -
                                       A->g[(size_t)sl[k] * (size_t)n + (size_t)e]);
                    p->y[j] = v < 0 ? 0 : v > 1 ? 1 : v;
                }
            }
            return 1;
        }
    }
#pragma omp parallel for num_threads(nth) schedule(static)
    for (int64_t i = 0; i < ad->npairs; i++) {
        ad_pair_t *p = &ad->pair[i];
        for (int64_t j = 0; j < p->ny; j++)
            p->y[j] = g[A->yoff[i] + j];
    }
    return 0;
}
