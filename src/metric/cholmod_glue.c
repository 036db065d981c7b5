/*
 * cholmod_glue.c - the only file that talks to CHOLMOD (chol_internal.h):
 * the sparse Cholesky factor of the shifted Laplacian L + sigma I for
 * shift-invert Lanczos (spectral.c), and that of the normal equations
 * A A' + beta I for the barrier (src/mcf/mcf_ipm.c).
 * CHOLMOD's printing is switched off (print level 0, no error handler);
 * its status codes become tk errors.  Each factor owns its own
 * cholmod_common, so there is no global state.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include <cholmod.h>

#include "chol_internal.h"
#include "spectral_internal.h"

struct tk_chol {
    cholmod_common c;
    cholmod_sparse *A;
    cholmod_factor *L;
    cholmod_dense *B;
    int64_t n;
};

static tk_status_t chol_fail(tk_chol_t *c, const char *what, tk_error_t *err);

tk_status_t tk_chol_solve_block(tk_chol_t *c, const double *B, double *X, int k, tk_error_t *err)
{
    cholmod_dense *Bd, *Xd;
    size_t len = (size_t)c->n * (size_t)k;

    Bd = cholmod_allocate_dense((size_t)c->n, (size_t)k, (size_t)c->n, CHOLMOD_REAL, &c->c);
    if (!Bd)
        return chol_fail(c, "allocation", err);
    memcpy(Bd->x, B, len * sizeof(double));
    Xd = cholmod_solve(CHOLMOD_A, c->L, Bd, &c->c);
    cholmod_free_dense(&Bd, &c->c);
    if (!Xd || c->c.status < CHOLMOD_OK) {
        if (Xd)
            cholmod_free_dense(&Xd, &c->c);
        return chol_fail(c, "solve", err);
    }
    memcpy(X, Xd->x, len * sizeof(double));
    cholmod_free_dense(&Xd, &c->c);
    return TK_OK;
}

void tk_chol_free(tk_chol_t *c)
{
    if (!c)
        return;
    if (c->B)
        cholmod_free_dense(&c->B, &c->c);
    if (c->L)
        cholmod_free_factor(&c->L, &c->c);
    if (c->A)
        cholmod_free_sparse(&c->A, &c->c);
    cholmod_finish(&c->c);
    free(c);
}

static tk_status_t chol_fail(tk_chol_t *c, const char *what, tk_error_t *err)
{
    int st = c->c.status;
    tk_status_t code = st == CHOLMOD_OUT_OF_MEMORY ? TK_ENOMEM
                       : st == CHOLMOD_TOO_LARGE   ? TK_ELIMIT
                                                   : TK_EINTERNAL;
    return tk_error_set(err, code, NULL, 0, "solver=cholmod: %s failed (CHOLMOD status %d)", what,
                        st);
}

tk_status_t tk_chol_analyze(const tk_lap_t *l, double sigma, tk_chol_t **out, double *lnz,
                            double *flops, tk_error_t *err)
{
    tk_chol_t *c;
    int64_t n = l->n, nnz = 0;

    *out = NULL;
    /* The lower triangle with the diagonal. */
    for (int64_t v = 0; v < n; v++)
        for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
            if (l->col[a] > v)
                nnz++;
    nnz += n;
    if (n > INT32_MAX / 2 || nnz > INT32_MAX / 2)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "solver=cholmod: n=%lld too large",
                            (long long)n);
    c = calloc(1, sizeof *c);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    c->n = n;
    cholmod_start(&c->c);
    c->c.print = 0;
    c->c.error_handler = NULL;
    c->A =
        cholmod_allocate_sparse((size_t)n, (size_t)n, (size_t)nnz, 1, 1, -1, CHOLMOD_REAL, &c->c);
    if (!c->A) {
        tk_status_t st = chol_fail(c, "allocation", err);
        tk_chol_free(c);
        return st;
    }
    {
        int *Ap = c->A->p, *Ai = c->A->i;
        double *Ax = c->A->x;
        int64_t k = 0;
        for (int64_t v = 0; v < n; v++) {
            Ap[v] = (int)k;
            Ai[k] = (int)v;
            Ax[k++] = l->deg[v] + sigma;
            for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
                if (l->col[a] > v) {
                    Ai[k] = l->col[a];
                    Ax[k++] = -l->w[a];
                }
        }
        Ap[n] = (int)k;
    }
    /* The estimate uses AMD alone (fast even when the factor would fill in);
     * tk_chol_factor analyses again with CHOLMOD's default choice (AMD, and
     * METIS when AMD's fill is high), whose factor is never larger. */
    c->c.nmethods = 1;
    c->c.method[0].ordering = CHOLMOD_AMD;
    c->L = cholmod_analyze(c->A, &c->c);
    if (!c->L || c->c.status < CHOLMOD_OK) {
        tk_status_t st = chol_fail(c, "analysis", err);
        tk_chol_free(c);
        return st;
    }
    *lnz = c->c.lnz;
    *flops = c->c.fl;
    *out = c;
    return TK_OK;
}

tk_status_t tk_chol_factor(tk_chol_t *c, tk_error_t *err)
{
    cholmod_free_factor(&c->L, &c->c);
    c->c.nmethods = 0;
    c->L = cholmod_analyze(c->A, &c->c);
    if (!c->L || c->c.status < CHOLMOD_OK)
        return chol_fail(c, "analysis", err);
    if (!cholmod_factorize(c->A, c->L, &c->c) || c->c.status != CHOLMOD_OK)
        return chol_fail(c, "factorisation", err);
    c->B = cholmod_allocate_dense((size_t)c->n, 1, (size_t)c->n, CHOLMOD_REAL, &c->c);
    if (!c->B)
        return chol_fail(c, "allocation", err);
    return TK_OK;
}

tk_status_t tk_chol_solve(tk_chol_t *c, const double *b, double *x, tk_error_t *err)
{
    cholmod_dense *X;

    memcpy(c->B->x, b, (size_t)c->n * sizeof(double));
    X = cholmod_solve(CHOLMOD_A, c->L, c->B, &c->c);
    if (!X || c->c.status < CHOLMOD_OK) {
        if (X)
            cholmod_free_dense(&X, &c->c);
        return chol_fail(c, "solve", err);
    }
    memcpy(x, X->x, (size_t)c->n * sizeof(double));
    cholmod_free_dense(&X, &c->c);
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Normal equations A A' + beta I (the barrier). */

struct tk_chol_aat {
    cholmod_common c;
    cholmod_sparse *A; /* nrow x ncol */
    cholmod_factor *L;
    cholmod_dense *B; /* the right-hand side */
    const char *who;
};

/* Status codes to tk errors; `what` failed. */
static tk_status_t aat_fail(tk_chol_aat_t *c, const char *what, tk_error_t *err)
{
    int st = c->c.status;
    tk_status_t code = st == CHOLMOD_OUT_OF_MEMORY ? TK_ENOMEM
                       : st == CHOLMOD_TOO_LARGE   ? TK_ELIMIT
                                                   : TK_EINTERNAL;
    return tk_error_set(err, code, NULL, 0, "%s: CHOLMOD %s failed (status %d)", c->who, what, st);
}

void tk_chol_aat_free(tk_chol_aat_t *c)
{
    if (!c)
        return;
    if (c->A)
        cholmod_free_sparse(&c->A, &c->c);
    if (c->L)
        cholmod_free_factor(&c->L, &c->c);
    if (c->B)
        cholmod_free_dense(&c->B, &c->c);
    cholmod_finish(&c->c);
    free(c);
}

tk_status_t tk_chol_aat_new(int64_t nrow, int64_t ncol, int64_t nzmax, const char *who,
                            tk_chol_aat_t **out, tk_error_t *err)
{
    tk_chol_aat_t *c = calloc(1, sizeof *c);

    *out = NULL;
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    c->who = who;
    cholmod_start(&c->c);
    c->c.print = 0;
    c->c.error_handler = NULL;
    c->c.supernodal = CHOLMOD_SUPERNODAL;
    c->A = cholmod_allocate_sparse((size_t)nrow, (size_t)ncol, (size_t)nzmax, 1, 1, 0, CHOLMOD_REAL,
                                   &c->c);
    if (!c->A) {
        tk_status_t st = aat_fail(c, "allocation", err);
        tk_chol_aat_free(c);
        return st;
    }
    *out = c;
    return TK_OK;
}

void tk_chol_aat_arrays(tk_chol_aat_t *c, int **p, int **i, double **x)
{
    *p = c->A->p;
    *i = c->A->i;
    *x = c->A->x;
}

tk_status_t tk_chol_aat_analyze(tk_chol_aat_t *c, double *lnz, tk_error_t *err)
{
    c->A->nzmax = (size_t)((int *)c->A->p)[c->A->ncol];
    c->c.nmethods = 1;
    c->c.method[0].ordering = CHOLMOD_AMD;
    c->L = cholmod_analyze(c->A, &c->c);
    if (!c->L || c->c.status < CHOLMOD_OK)
        return aat_fail(c, "analysis", err);
    *lnz = c->c.lnz;
    c->B = cholmod_allocate_dense(c->A->nrow, 1, c->A->nrow, CHOLMOD_REAL, &c->c);
    if (!c->B)
        return aat_fail(c, "allocation", err);
    return TK_OK;
}

tk_status_t tk_chol_aat_factor(tk_chol_aat_t *c, double beta, int *not_posdef, tk_error_t *err)
{
    double b[2] = {beta, 0};

    *not_posdef = 0;
    if (cholmod_factorize_p(c->A, b, NULL, 0, c->L, &c->c) && c->c.status == CHOLMOD_OK)
        return TK_OK;
    *not_posdef = c->c.status == CHOLMOD_NOT_POSDEF;
    return aat_fail(c, "factorisation", err);
}

tk_status_t tk_chol_aat_solve(tk_chol_aat_t *c, double *r, tk_error_t *err)
{
    cholmod_dense *X;

    memcpy(c->B->x, r, c->A->nrow * sizeof(double));
    X = cholmod_solve(CHOLMOD_A, c->L, c->B, &c->c);
    if (!X || c->c.status < CHOLMOD_OK) {
        if (X)
            cholmod_free_dense(&X, &c->c);
        return aat_fail(c, "solve", err);
    }
    memcpy(r, X->x, c->A->nrow * sizeof(double));
    cholmod_free_dense(&X, &c->c);
    return TK_OK;
}
