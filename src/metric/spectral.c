/*
 * spectral.c - the second-smallest eigenpair (lambda2, Fiedler vector) of
 * the capacity-weighted Laplacian L = D - W, with three solvers:
 *
 *  dense    GSL's symmetric eigensolver (gsl_eigen_symmv) on the n x n
 *           matrix: every eigenpair, so the whole eigenspace of a repeated
 *           lambda2.  O(n^3) time, 2 n^2 doubles.
 *  lanczos  Lanczos on L with full reorthogonalisation (classical
 *           Gram-Schmidt, twice) against the Krylov basis and the deflated
 *           vectors (the constant vector, and eigenvectors already found),
 *           explicit restarts from the current Ritz vector.  Suits
 *           expanders, whose lambda2 is well separated relative to ||L||.
 *  cholmod  Shift-invert with a sparse Cholesky factor of L + sigma I
 *           (cholmod_glue.c), sigma = 1e-6 * max weighted degree: block
 *           inverse iteration with 10 vectors and Rayleigh-Ritz on L (one
 *           multi-column solve per step, so a repeated lambda2 comes out
 *           whole), falling back to Lanczos on (L + sigma I)^-1.  Shift-
 *           invert turns the small, clustered eigenvalues of tori and meshes
 *           into large, well-separated ones.
 *
 * Convergence: the Ritz residual ||Op x - theta x|| <= tol * scale (scale
 * ||L|| <= 2 max degree for lanczos and block iteration, theta for
 * shift-invert Lanczos), tol 1e-10 by default; lambda2 is then the Rayleigh quotient x'Lx of the
 * Ritz vector, whose error is of the order of the squared residual.  A repeated lambda2 is found by
 * locking: the converged vector joins the deflation set and Lanczos runs again, until the next
 * eigenvalue differs (at most TK_SPEC_MAXMULT vectors).
 *
 * Auto choice: dense for n <= dense_max; otherwise CHOLMOD analyses L + sigma
 * I and is used when its factor (nnz estimate * 12 bytes) fits mem_budget and
 * its flop count fits flop_budget; otherwise Lanczos (the factor of an
 * expander fills in almost completely).
 *
 * Determinism: starting vectors come from tk_rng_new(seed, task); matrix-
 * vector products and the reorthogonalisation's combinations run in parallel
 * by rows, every dot product is a serial sum, so results do not depend on
 * the thread count.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "chol_internal.h"
#include "spectral_internal.h"
#include "tk_metric.h"

const char *tk_eig_solver_name(tk_eig_solver_t s)
{
    switch (s) {
    case TK_EIG_AUTO:
        return "auto";
    case TK_EIG_DENSE:
        return "dense";
    case TK_EIG_LANCZOS:
        return "lanczos";
    case TK_EIG_CHOLMOD:
        return "cholmod";
    case TK_EIG_NONE:
        return "none";
    }
    return "?";
}

/* ------------------------------------------------------------------------ */
/* The weighted adjacency.                                                  */

void tk_lap_free(tk_lap_t *l)
{
    if (!l)
        return;
    free(l->off);
    free(l->col);
    free(l->w);
    free(l->deg);
    free(l);
}

typedef struct colw {
    int32_t c;
    double w;
} colw_t;

static int colw_cmp(const void *a, const void *b)
{
    const colw_t *x = a, *y = b;
    return (x->c > y->c) - (x->c < y->c);
}

/* Entries per row into l->off (prefix sums): undirected arcs are already
 * symmetric pairs; a directed arc u->v gives both (u,v) and (v,u); loops
 * none. */
static void lap_count(const tk_graph_t *g, tk_lap_t *l)
{
    int64_t n = g->n;

    for (int64_t u = 0; u < n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            int64_t v = g->head[a];
            if (v == u)
                continue;
            l->off[u + 1]++;
            if (g->directed)
                l->off[v + 1]++;
        }
    for (int64_t u = 0; u < n; u++)
        l->off[u + 1] += l->off[u];
}

/* The entries (column, capacity) row by row into e; fill: n + 1 of
 * work. */
static void lap_fill(const tk_graph_t *g, const tk_lap_t *l, int64_t *fill, colw_t *e)
{
    int64_t n = g->n;

    memcpy(fill, l->off, (size_t)(n + 1) * sizeof *fill);
    for (int64_t u = 0; u < n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            int64_t v = g->head[a];
            /* A directed arc is half a link: the cut is then the mean of
             * the capacities crossing in each direction. */
            double c = tk_graph_cap(g, a) * (g->directed ? 0.5 : 1.0);
            if (v == u)
                continue;
            e[fill[u]++] = (colw_t){(int32_t)v, c};
            if (g->directed)
                e[fill[v]++] = (colw_t){(int32_t)u, c};
        }
}

/* Sort each row (directed graphs; undirected rows come sorted) and merge
 * parallel links in place; the weighted degrees and their maximum. */
static void lap_merge(const tk_graph_t *g, tk_lap_t *l, colw_t *e)
{
    int64_t n = l->n, k = 0;

    for (int64_t u = 0; u < n; u++) {
        int64_t b = l->off[u], end = l->off[u + 1];
        if (g->directed)
            qsort(e + b, (size_t)(end - b), sizeof *e, colw_cmp);
        l->off[u] = k;
        for (int64_t a = b; a < end; a++) {
            l->deg[u] += e[a].w;
            if (k > l->off[u] && e[k - 1].c == e[a].c)
                e[k - 1].w += e[a].w;
            else
                e[k++] = e[a];
        }
        if (l->deg[u] > l->maxdeg)
            l->maxdeg = l->deg[u];
    }
    l->off[n] = k;
}

tk_status_t tk_lap_build(const tk_graph_t *g, int symmetrize, tk_lap_t **out, tk_error_t *err)
{
    tk_lap_t *l;
    int64_t n = g->n, *fill = NULL;
    colw_t *e = NULL;

    *out = NULL;
    if (g->directed && !symmetrize)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "directed graph: bisection is defined for undirected graphs "
                            "(use --symmetrize to take each arc as a link)");
    if (n < 2)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "n=%lld: bisection needs at least 2 switches",
                            (long long)n);
    l = calloc(1, sizeof *l);
    if (!l)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    l->n = n;
    l->off = tk_calloc_array((size_t)n + 1, sizeof *l->off);
    l->deg = tk_calloc_array((size_t)n, sizeof *l->deg);
    fill = tk_calloc_array((size_t)n + 1, sizeof *fill);
    if (!l->off || !l->deg || !fill)
        goto nomem;
    lap_count(g, l);
    e = tk_malloc_array((size_t)l->off[n] + 1, sizeof *e);
    if (!e)
        goto nomem;
    lap_fill(g, l, fill, e);
    l->links = g->directed ? l->off[n] / 2 : l->off[n] / 2;
    lap_merge(g, l, e);
    l->col = tk_malloc_array((size_t)l->off[n] + 1, sizeof *l->col);
    l->w = tk_malloc_array((size_t)l->off[n] + 1, sizeof *l->w);
    if (!l->col || !l->w)
        goto nomem;
    for (int64_t a = 0; a < l->off[n]; a++) {
        l->col[a] = e[a].c;
        l->w[a] = e[a].w;
    }
    free(e);
    free(fill);
    *out = l;
    return TK_OK;
nomem:
    free(e);
    free(fill);
    tk_lap_free(l);
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
}

void tk_lap_mul(const tk_lap_t *l, const double *x, double *y)
{
    int64_t n = l->n;
#pragma omp parallel for schedule(static) if (n > 50000)
    for (int64_t v = 0; v < n; v++) {
        double s = l->deg[v] * x[v];
        for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
            s -= l->w[a] * x[l->col[a]];
        y[v] = s;
    }
}

int64_t tk_lap_components(const tk_lap_t *l, int32_t *order)
{
    int64_t n = l->n, comps = 0, qt = 0;
    int32_t *q = order ? order : malloc((size_t)n * sizeof *q);
    uint8_t *seen = calloc((size_t)n, 1);

    if (!q || !seen) {
        if (!order)
            free(q);
        free(seen);
        return -1;
    }
    for (int64_t s = 0; s < n; s++) {
        if (seen[s])
            continue;
        comps++;
        int64_t qh = qt;
        seen[s] = 1;
        q[qt++] = (int32_t)s;
        while (qh < qt) {
            int32_t v = q[qh++];
            for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
                if (!seen[l->col[a]]) {
                    seen[l->col[a]] = 1;
                    q[qt++] = l->col[a];
                }
        }
    }
    if (!order)
        free(q);
    free(seen);
    return comps;
}

/* ------------------------------------------------------------------------ */
/* Dense.                                                                   */

static tk_status_t solve_dense(const tk_lap_t *l, double tol, double *lambda2, double *vecs,
                               int *mult, int *nvec, tk_error_t *err)
{
    size_t n = (size_t)l->n;
    gsl_matrix *A = gsl_matrix_calloc(n, n), *Z = gsl_matrix_alloc(n, n);
    gsl_vector *ev = gsl_vector_alloc(n);
    gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc(n);
    tk_status_t st = TK_OK;

    if (!A || !Z || !ev || !ws) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "solver=dense: out of memory (n=%zu)", n);
        goto done;
    }
    for (size_t v = 0; v < n; v++) {
        gsl_matrix_set(A, v, v, l->deg[v]);
        for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
            gsl_matrix_set(A, v, (size_t)l->col[a], -l->w[a]);
    }
    if (gsl_eigen_symmv(A, ev, Z, ws) != GSL_SUCCESS ||
        gsl_eigen_symmv_sort(ev, Z, GSL_EIGEN_SORT_VAL_ASC) != GSL_SUCCESS) {
        st = tk_error_set(err, TK_EINTERNAL, NULL, 0, "solver=dense: GSL eigensolver failed");
        goto done;
    }
    *lambda2 = gsl_vector_get(ev, 1);
    /* Eigenvectors sharing lambda2 (numerically: within a relative 1e-8 of
     * the spectral scale, far above the dense solver's error). */
    {
        double eps = 1e-8 * (l->maxdeg > 0 ? l->maxdeg : 1);
        (void)tol; /* the dense solver works to machine precision */
        int k = 0;
        *mult = 0;
        for (size_t j = 1; j < n && k < TK_SPEC_MAXMULT; j++) {
            if (gsl_vector_get(ev, j) - *lambda2 <= eps)
                *mult = k + 1;
            for (size_t v = 0; v < n; v++)
                vecs[(size_t)k * n + v] = gsl_matrix_get(Z, v, j);
            k++;
        }
        *nvec = k;
    }
done:
    if (ws)
        gsl_eigen_symmv_free(ws);
    gsl_vector_free(ev);
    gsl_matrix_free(Z);
    gsl_matrix_free(A);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Lanczos.                                                                 */

typedef struct lz_op {
    const tk_lap_t *l;
    tk_chol_t *chol; /* shift-invert when not NULL */
} lz_op_t;

static tk_status_t op_apply(const lz_op_t *op, const double *x, double *y, tk_error_t *err)
{
    if (op->chol)
        return tk_chol_solve(op->chol, x, y, err);
    tk_lap_mul(op->l, x, y);
    return TK_OK;
}

static double dot(int64_t n, const double *x, const double *y)
{
    double s = 0;
    for (int64_t i = 0; i < n; i++)
        s += x[i] * y[i];
    return s;
}

/* w -= sum_i (B_i . w) B_i over k columns of B (n each): classical
 * Gram-Schmidt, repeated once when the first pass removed most of w
 * ("twice is enough", Kahan-Parlett criterion). */
static void orth(int64_t n, const double *B, int k, double *w, double *c)
{
    double before;

    if (k <= 0)
        return;
    before = dot(n, w, w);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1 && dot(n, w, w) > 0.5 * before)
            break;
        for (int i = 0; i < k; i++)
            c[i] = dot(n, B + (size_t)i * n, w);
#pragma omp parallel for schedule(static) if (n > 50000)
        for (int64_t r = 0; r < n; r++) {
            double s = 0;
            for (int i = 0; i < k; i++)
                s += c[i] * B[(size_t)i * n + r];
            w[r] -= s;
        }
    }
}

static void normalize(int64_t n, double *x)
{
    double s = sqrt(dot(n, x, x));
    if (s > 0)
        for (int64_t i = 0; i < n; i++)
            x[i] /= s;
}

/* Extreme eigenpair of the operator restricted to the complement of the nq
 * orthonormal columns of Q: smallest eigenvalue (largest when `largest`).
 * x gets the unit Ritz vector.  scale > 0: absolute residual tolerance
 * tol * scale, else tol * |theta|. */
/* Lanczos step j: w = op(v_j) - alpha_j v_j - beta_j v_{j-1},
 * orthogonalised against Q and v_0..v_j (full reorthogonalisation);
 * beta_{j+1} = |w|.  c: work of nq + j + 1. */
static tk_status_t lanczos_step(const lz_op_t *op, int64_t n, const double *Q, int nq,
                                const double *V, int j, double *alpha, double *beta, double *w,
                                double *c, tk_error_t *err)
{
    const double *vj = V + (size_t)j * n;
    tk_status_t st;

    if ((st = op_apply(op, vj, w, err)) != TK_OK)
        return st;
    alpha[j] = dot(n, vj, w);
    for (int64_t i = 0; i < n; i++)
        w[i] -= alpha[j] * vj[i] + (j ? beta[j] * vj[i - n] : 0);
    orth(n, Q, nq, w, c);
    orth(n, V, j + 1, w, c);
    beta[j + 1] = sqrt(dot(n, w, w));
    return TK_OK;
}

/* The Ritz pairs of the tridiagonal T_kk (alpha, beta) in T's and S's
 * leading kk x kk blocks, sorted (largest first when largest): the first
 * eigenvalue *theta, its eigenvector in S's column 0, and the residual
 * estimate *res = beta_kk |s_{kk-1,0}|. */
static tk_status_t ritz_pairs(gsl_matrix *T, gsl_matrix *S, gsl_vector *ev, const double *alpha,
                              const double *beta, int kk, int largest, double *theta, double *res,
                              tk_error_t *err)
{
    gsl_matrix_view Tv = gsl_matrix_submatrix(T, 0, 0, (size_t)kk, (size_t)kk);
    gsl_matrix_view Sv = gsl_matrix_submatrix(S, 0, 0, (size_t)kk, (size_t)kk);
    gsl_vector_view ew = gsl_vector_subvector(ev, 0, (size_t)kk);
    gsl_eigen_symmv_workspace *w2 = gsl_eigen_symmv_alloc((size_t)kk);

    if (!w2)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "lanczos: out of memory");
    gsl_matrix_set_zero(&Tv.matrix);
    for (int i = 0; i < kk; i++) {
        gsl_matrix_set(&Tv.matrix, (size_t)i, (size_t)i, alpha[i]);
        if (i + 1 < kk) {
            gsl_matrix_set(&Tv.matrix, (size_t)i, (size_t)i + 1, beta[i + 1]);
            gsl_matrix_set(&Tv.matrix, (size_t)i + 1, (size_t)i, beta[i + 1]);
        }
    }
    int gs = gsl_eigen_symmv(&Tv.matrix, &ew.vector, &Sv.matrix, w2);
    gsl_eigen_symmv_free(w2);
    if (gs != GSL_SUCCESS)
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "lanczos: GSL failed");
    gsl_eigen_symmv_sort(&ew.vector, &Sv.matrix,
                         largest ? GSL_EIGEN_SORT_VAL_DESC : GSL_EIGEN_SORT_VAL_ASC);
    *theta = gsl_vector_get(&ew.vector, 0);
    *res = beta[kk] * fabs(gsl_matrix_get(&Sv.matrix, (size_t)kk - 1, 0));
    return TK_OK;
}

/* x = V s, the Ritz vector of S's column 0 (kk Lanczos vectors). */
static void ritz_vector(const gsl_matrix *S, const double *V, int kk, int64_t n, double *x)
{
#pragma omp parallel for schedule(static) if (n > 20000)
    for (int64_t r = 0; r < n; r++) {
        double s = 0;
        for (int i = 0; i < kk; i++)
            s += gsl_matrix_get(S, (size_t)i, 0) * V[(size_t)i * n + r];
        x[r] = s;
    }
}

static tk_status_t lanczos(const lz_op_t *op, int64_t n, const double *Q, int nq, int largest,
                           double tol, double scale, uint64_t seed, uint64_t task, double *x,
                           int *iters, tk_error_t *err)
{
    int64_t dim = n - nq;
    int kmax = (int)(dim < 300 ? dim : 300);
    int max_restarts = 60;
    double *V = NULL, *alpha = NULL, *beta = NULL, *c = NULL, *w = NULL;
    gsl_matrix *T = NULL, *S = NULL;
    gsl_vector *ev = NULL;
    gsl_eigen_symmv_workspace *ws = NULL;
    tk_rng_t *rng = NULL;
    tk_status_t st = TK_OK;
    int total = 0;

    if (dim < 1)
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "lanczos: empty subspace");
    V = tk_malloc_array((size_t)(kmax + 1) * (size_t)n, sizeof *V);
    alpha = tk_malloc_array((size_t)kmax + 1, sizeof *alpha);
    beta = tk_malloc_array((size_t)kmax + 2, sizeof *beta);
    c = tk_malloc_array((size_t)(kmax + nq + 1), sizeof *c);
    w = tk_malloc_array((size_t)n, sizeof *w);
    T = gsl_matrix_alloc((size_t)kmax, (size_t)kmax);
    S = gsl_matrix_alloc((size_t)kmax, (size_t)kmax);
    ev = gsl_vector_alloc((size_t)kmax);
    ws = gsl_eigen_symmv_alloc((size_t)kmax);
    if (!V || !alpha || !beta || !c || !w || !T || !S || !ev || !ws) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "lanczos: out of memory (n=%lld)", (long long)n);
        goto done;
    }
    if ((st = tk_rng_new(&rng, seed, task, err)) != TK_OK)
        goto done;
    for (int64_t i = 0; i < n; i++)
        V[i] = tk_rng_uniform(rng) - 0.5;
    for (int restart = 0;; restart++) {
        int converged = 0, j, kk = 0, next_check = 8;
        double theta = 0;

        orth(n, Q, nq, V, c);
        normalize(n, V);
        beta[0] = 0;
        for (j = 0; j < kmax; j++) {
            if ((st = lanczos_step(op, n, Q, nq, V, j, alpha, beta, w, c, err)) != TK_OK)
                goto done;
            total++;
            int invariant = beta[j + 1] <= 1e-14 * (fabs(alpha[j]) + 1e-300);
            kk = j + 1;
            if (kk == next_check || j == kmax - 1 || invariant || kk == dim) {
                double res = 0;
                next_check = kk + (kk / 4 > 8 ? kk / 4 : 8);
                st = ritz_pairs(T, S, ev, alpha, beta, kk, largest, &theta, &res, err);
                if (st != TK_OK)
                    goto done;
                double lim = tol * (scale > 0 ? scale : fabs(theta));
                if (res <= lim || invariant || kk == dim)
                    converged = 1;
                if (converged || j == kmax - 1) {
                    ritz_vector(S, V, kk, n, x);
                    break;
                }
            }
            for (int64_t i = 0; i < n; i++)
                V[(size_t)(j + 1) * n + i] = w[i] / beta[j + 1];
        }
        (void)theta;
        if (converged)
            break;
        if (restart >= max_restarts) {
            st = tk_error_set(err, TK_EINTERNAL, NULL, 0,
                              "solver=%s: no convergence after %d iterations (tol %g)",
                              op->chol ? "cholmod" : "lanczos", total, tol);
            goto done;
        }
        memcpy(V, x, (size_t)n * sizeof *V);
    }
    orth(n, Q, nq, x, c);
    normalize(n, x);
done:
    *iters += total;
    tk_rng_free(rng);
    if (ws)
        gsl_eigen_symmv_free(ws);
    gsl_vector_free(ev);
    gsl_matrix_free(S);
    gsl_matrix_free(T);
    free(w);
    free(c);
    free(beta);
    free(alpha);
    free(V);
    return st;
}

/* Orthonormalise the k columns of Y (n each) against the unit constant
 * vector and each other (modified Gram-Schmidt, twice); a column that
 * vanishes is replaced by a random one.  */
static void block_orth(int64_t n, double *Y, int k, tk_rng_t *rng)
{
    double q = 1.0 / sqrt((double)n);
    for (int j = 0; j < k; j++) {
        double *y = Y + (size_t)j * n;
        for (int attempt = 0; attempt < 3; attempt++) {
            double before = sqrt(dot(n, y, y));
            for (int pass = 0; pass < 2; pass++) {
                double s = 0;
                for (int64_t i = 0; i < n; i++)
                    s += y[i];
                s *= q;
                for (int64_t i = 0; i < n; i++)
                    y[i] -= s * q;
                for (int i = 0; i < j; i++) {
                    const double *z = Y + (size_t)i * n;
                    double c = dot(n, z, y);
                    for (int64_t r = 0; r < n; r++)
                        y[r] -= c * z[r];
                }
            }
            double after = sqrt(dot(n, y, y));
            if (after > 1e-8 * before && after > 0) {
                for (int64_t i = 0; i < n; i++)
                    y[i] /= after;
                break;
            }
            for (int64_t i = 0; i < n; i++)
                y[i] = tk_rng_uniform(rng) - 0.5;
        }
    }
}

/* Block inverse (subspace) iteration with the CHOLMOD factor: p = min(10,
 * n-1) vectors, a multi-column solve per step (BLAS-3 in CHOLMOD), then
 * Rayleigh-Ritz with L.  Finds lambda2 and up to TK_SPEC_MAXMULT copies at
 * once; the convergence factor of the wanted vectors is about
 * (lambda2 + sigma) / (lambda_(p+2) + sigma).  Returns TK_EUNSUPPORTED when
 * it has not converged within 50 steps (the caller falls back to
 * shift-invert Lanczos). */
/* Rayleigh-Ritz on the orthonormal block Y (p columns of n): LY = L Y,
 * H = Y' L Y, and its eigenpairs (ev ascending, S's columns).  Returns
 * GSL's status. */
static int rayleigh_ritz(const tk_lap_t *l, const double *Y, double *LY, int p, gsl_matrix *H,
                         gsl_vector *ev, gsl_matrix *S, gsl_eigen_symmv_workspace *ws)
{
    int64_t n = l->n;
    int gs;

    for (int j = 0; j < p; j++)
        tk_lap_mul(l, Y + (size_t)j * n, LY + (size_t)j * n);
    for (int a = 0; a < p; a++)
        for (int b = a; b < p; b++) {
            double h = dot(n, Y + (size_t)a * n, LY + (size_t)b * n);
            gsl_matrix_set(H, (size_t)a, (size_t)b, h);
            gsl_matrix_set(H, (size_t)b, (size_t)a, h);
        }
    gs = gsl_eigen_symmv(H, ev, S, ws);
    if (gs != GSL_SUCCESS)
        return gs;
    return gsl_eigen_symmv_sort(ev, S, GSL_EIGEN_SORT_VAL_ASC);
}

/* The Ritz vectors X = Y S, and whether the pairs within eps of the
 * smallest (*k of them, at most TK_SPEC_MAXMULT) have converged: the
 * residual ||LY s - theta Y s|| of each at most lim. */
static int ritz_vectors(const double *Y, const double *LY, int p, int64_t n, const gsl_vector *ev,
                        const gsl_matrix *S, double eps, double lim, double *X, int *k)
{
    double theta0 = gsl_vector_get(ev, 0);
    int conv = 1;

    for (int j = 0; j < p; j++) {
        double th = gsl_vector_get(ev, (size_t)j), r2 = 0;
        double *x = X + (size_t)j * n;
        for (int64_t r = 0; r < n; r++) {
            double xv = 0, lv = 0;
            for (int a = 0; a < p; a++) {
                double s = gsl_matrix_get(S, (size_t)a, (size_t)j);
                xv += s * Y[(size_t)a * n + r];
                lv += s * LY[(size_t)a * n + r];
            }
            x[r] = xv;
            r2 += (lv - th * xv) * (lv - th * xv);
        }
        if (th - theta0 <= eps && *k < TK_SPEC_MAXMULT) {
            (*k)++;
            if (sqrt(r2) > lim)
                conv = 0;
        }
    }
    return conv;
}

static tk_status_t solve_subspace(const tk_lap_t *l, tk_chol_t *chol, const tk_spectral_opts_t *o,
                                  double tol, double *lambda2, double *vecs, int *mult, int *iters,
                                  tk_error_t *err)
{
    int64_t n = l->n;
    int p = (int)(n - 1 < 10 ? n - 1 : 10);
    double *Y = tk_malloc_array((size_t)p * (size_t)n, sizeof *Y);
    double *X = tk_malloc_array((size_t)p * (size_t)n, sizeof *X);
    double *LY = tk_malloc_array((size_t)p * (size_t)n, sizeof *LY);
    gsl_matrix *H = gsl_matrix_alloc((size_t)p, (size_t)p),
               *S = gsl_matrix_alloc((size_t)p, (size_t)p);
    gsl_vector *ev = gsl_vector_alloc((size_t)p);
    gsl_eigen_symmv_workspace *ws = gsl_eigen_symmv_alloc((size_t)p);
    tk_rng_t *rng = NULL;
    tk_status_t st = TK_OK;
    double scale = 2 * l->maxdeg, eps = 1e-7 * l->maxdeg;

    if (!Y || !X || !LY || !H || !S || !ev || !ws) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "solver=cholmod: out of memory");
        goto done;
    }
    if ((st = tk_rng_new(&rng, o->seed, 100, err)) != TK_OK)
        goto done;
    for (size_t i = 0; i < (size_t)p * (size_t)n; i++)
        X[i] = tk_rng_uniform(rng) - 0.5;
    block_orth(n, X, p, rng);
    st = TK_EUNSUPPORTED;
    for (int it = 0; it < 50; it++) {
        tk_status_t s2 = tk_chol_solve_block(chol, X, Y, p, err);
        if (s2 != TK_OK) {
            st = s2;
            goto done;
        }
        (*iters)++;
        block_orth(n, Y, p, rng);
        if (rayleigh_ritz(l, Y, LY, p, H, ev, S, ws) != GSL_SUCCESS) {
            st = tk_error_set(err, TK_EINTERNAL, NULL, 0, "solver=cholmod: GSL failed");
            goto done;
        }
        double theta0 = gsl_vector_get(ev, 0);
        int k = 0, conv = ritz_vectors(Y, LY, p, n, ev, S, eps, tol * scale, X, &k);
        if (conv) {
            *lambda2 = theta0;
            *mult = k;
            memcpy(vecs, X, (size_t)k * (size_t)n * sizeof *vecs);
            st = TK_OK;
            break;
        }
    }
done:
    tk_rng_free(rng);
    if (ws)
        gsl_eigen_symmv_free(ws);
    gsl_vector_free(ev);
    gsl_matrix_free(S);
    gsl_matrix_free(H);
    free(LY);
    free(X);
    free(Y);
    return st;
}

/* lambda2 and its eigenvectors by Lanczos (direct or shift-invert), with
 * locking for repeated eigenvalues. */
static tk_status_t solve_lanczos(const tk_lap_t *l, tk_chol_t *chol, const tk_spectral_opts_t *o,
                                 double tol, double *lambda2, double *vecs, int *mult, int *iters,
                                 tk_error_t *err)
{
    int64_t n = l->n;
    double *Q = tk_malloc_array((size_t)(TK_SPEC_MAXMULT + 1) * (size_t)n, sizeof *Q);
    double *y = tk_malloc_array((size_t)n, sizeof *y);
    lz_op_t op = {l, chol};
    tk_status_t st = TK_OK;
    int k = 0;

    if (!Q || !y) {
        free(Q);
        free(y);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int64_t i = 0; i < n; i++)
        Q[i] = 1.0 / sqrt((double)n);
    /* The search for further copies of lambda2 costs a full run each: it is
     * done for n <= 4096 (plain Lanczos) or n <= 50000 (shift-invert, a few
     * dozen solves per run); larger graphs report the first vector only. */
    int maxk = n <= (chol ? 50000 : 4096) ? TK_SPEC_MAXMULT : 1;
    while (k < maxk && k + 1 < n) {
        double *x = Q + (size_t)(k + 1) * n, lam;
        st = lanczos(&op, n, Q, k + 1, chol != NULL, tol, chol ? 0 : 2 * l->maxdeg, o->seed,
                     (uint64_t)k, x, iters, err);
        if (st != TK_OK)
            break;
        tk_lap_mul(l, x, y);
        lam = dot(n, x, y);
        if (k == 0) {
            *lambda2 = lam;
        } else if (fabs(lam - *lambda2) > 1e-7 * l->maxdeg) {
            break;
        }
        memcpy(vecs + (size_t)k * n, x, (size_t)n * sizeof *x);
        k++;
        if (lam < *lambda2)
            *lambda2 = lam;
    }
    *mult = k;
    free(Q);
    free(y);
    return k > 0 ? TK_OK : st;
}

tk_status_t tk_spec_fiedler(const tk_lap_t *l, const tk_spectral_opts_t *o, double *lambda2,
                            double *vecs, int *mult, int *nvec, tk_eig_solver_t *used, int *iters,
                            double *factor_nnz, double *factor_flops, tk_error_t *err)
{
    tk_eig_solver_t s = o->solver;
    double tol = o->tol > 0 ? o->tol : 1e-10;
    int64_t dense_max = o->dense_max > 0 ? o->dense_max : 800;
    uint64_t budget = o->mem_budget ? o->mem_budget : (uint64_t)512 << 20;
    double flop_budget = o->flop_budget > 0 ? o->flop_budget : 2e11;
    double sigma = 1e-6 * (l->maxdeg > 0 ? l->maxdeg : 1);
    tk_chol_t *chol = NULL;
    tk_status_t st;

    *iters = 0;
    *factor_nnz = 0;
    *factor_flops = 0;
    if (s == TK_EIG_AUTO && l->n <= dense_max)
        s = TK_EIG_DENSE;
    if (s == TK_EIG_DENSE) {
        double bytes = 16.0 * (double)l->n * (double)l->n;
        if (bytes > 4.0 * (double)budget)
            return tk_error_set(err, TK_ELIMIT, NULL, 0,
                                "solver=dense: n=%lld needs %.0f MiB, over the budget",
                                (long long)l->n, bytes / 1048576.0);
        *used = TK_EIG_DENSE;
        return solve_dense(l, tol, lambda2, vecs, mult, nvec, err);
    }
    if (s == TK_EIG_AUTO || s == TK_EIG_CHOLMOD) {
        double lnz = 0, fl = 0;
        st = tk_chol_analyze(l, sigma, &chol, &lnz, &fl, err);
        if (st != TK_OK)
            return st;
        *factor_nnz = lnz;
        *factor_flops = fl;
        /* An expander's factor fills in (a large fraction of the dense
         * triangle) and its lambda2 is well separated: Lanczos wins. */
        double dense_tri = 0.5 * (double)l->n * ((double)l->n + 1);
        if (s == TK_EIG_AUTO &&
            (lnz * 12.0 > (double)budget || fl > flop_budget || lnz > 0.05 * dense_tri)) {
            tk_chol_free(chol);
            chol = NULL;
            s = TK_EIG_LANCZOS;
        } else {
            if (s == TK_EIG_CHOLMOD && lnz * 12.0 > 4.0 * (double)budget) {
                tk_chol_free(chol);
                return tk_error_set(err, TK_ELIMIT, NULL, 0,
                                    "solver=cholmod: factor of %.3g nonzeros over the budget", lnz);
            }
            s = TK_EIG_CHOLMOD;
            if ((st = tk_chol_factor(chol, err)) != TK_OK) {
                tk_chol_free(chol);
                return st;
            }
        }
    }
    *used = s;
    st = TK_EUNSUPPORTED;
    if (chol)
        st = solve_subspace(l, chol, o, tol, lambda2, vecs, mult, iters, err);
    if (st == TK_EUNSUPPORTED)
        st = solve_lanczos(l, chol, o, tol, lambda2, vecs, mult, iters, err);
    *nvec = *mult;
    tk_chol_free(chol);
    return st;
}

tk_status_t tk_laplacian_lambda2(const tk_graph_t *g, const tk_spectral_opts_t *opts,
                                 double *lambda2, double *vec, tk_eig_solver_t *used,
                                 tk_error_t *err)
{
    tk_spectral_opts_t o0 = {0};
    const tk_spectral_opts_t *o = opts ? opts : &o0;
    tk_lap_t *l = NULL;
    double *vecs = NULL, fnnz, ffl;
    int mult = 0, nvec = 0, iters;
    int64_t comps;
    tk_status_t st;

    if ((st = tk_lap_build(g, o->symmetrize, &l, err)) != TK_OK)
        return st;
    comps = tk_lap_components(l, NULL);
    if (comps < 0) {
        tk_lap_free(l);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    if (comps > 1) {
        tk_lap_free(l);
        if (!o->allow_disconnected)
            return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                "graph is not connected (%lld components): lambda2 = 0",
                                (long long)comps);
        *lambda2 = 0;
        if (used)
            *used = TK_EIG_NONE;
        if (vec)
            for (int64_t i = 0; i < g->n; i++)
                vec[i] = 0;
        return TK_OK;
    }
    vecs = tk_malloc_array((size_t)TK_SPEC_MAXMULT * (size_t)l->n, sizeof *vecs);
    if (!vecs) {
        tk_lap_free(l);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    tk_eig_solver_t u = TK_EIG_AUTO;
    st = tk_spec_fiedler(l, o, lambda2, vecs, &mult, &nvec, &u, &iters, &fnnz, &ffl, err);
    if (st == TK_OK) {
        if (used)
            *used = u;
        if (vec)
            memcpy(vec, vecs, (size_t)l->n * sizeof *vec);
    }
    free(vecs);
    tk_lap_free(l);
    return st;
}
