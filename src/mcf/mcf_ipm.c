/*
 * mcf_ipm.c - the exact unrestricted maximum concurrent flow by a
 * primal-dual interior point method (barrier), for the large LPs where the
 * simplex's iteration count grows too fast.
 *
 * LP, in the congestion form (theta = 1 / lambda) and standard form
 * (min c'x, Ax = b, x >= 0), restricted to each source's hop-count
 * shortest-path DAG pruned to the ancestors of its destinations:
 *   variables  lambda (cost 1), x(k, a) for the DAG arcs a of source k,
 *              and a slack s(a) per arc;
 *   rows       (k, v), v != s_k in the pruned DAG:
 *                  sum_in x(k, .) - sum_out x(k, .) = w(k, v);
 *              a:  sum_k x(k, a) + s(a) - cap(a) lambda = 0.
 * The congestion form keeps every column sparse in the rows that are not
 * dense anyway: lambda meets only the capacity rows, whose block of the
 * factor fills in completely whatever the form (theta would meet every
 * conservation row, and a dense column treated by Sherman-Morrison makes
 * the solves unstable near the optimum).
 * Mehrotra's predictor-corrector (Nocedal & Wright, Numerical Optimization,
 * algorithm 14.3) with separate primal and dual step lengths.  Each step
 * solves the normal equations A D A' dy = r with D = X/Z by CHOLMOD's
 * supernodal Cholesky of A D^1/2 (A D^1/2)' (ordered once; through the
 * glue, src/metric/chol_internal.h), refined iteratively against the
 * unfactored matrix.
 *
 * The result is certified, not trusted: the lower bound is a flow rebuilt
 * from the iterate's splits (exact conservation, every demand served at
 * least theta_lb, capacities respected), the upper bound is the weak
 * duality bound of the capacity duals as arc lengths over ALL arcs
 * (mcf_dual_bound), so it also bounds the unrestricted LP.  The barrier
 * succeeds when the two meet to MCF_IPM_GAP; otherwise (a pattern whose
 * optimum needs non-shortest paths, or numerical trouble) the caller runs
 * the simplex.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcf_internal.h"
#include "metric/chol_internal.h"

#define IPM_MAX_ITER 120

struct cert;
typedef struct ipm ipm_t;
/* Certify an iterate (x, y) near the optimum: *lb the theta of a feasible
 * flow rebuilt from x (its arc loads at that theta into C->load), *ub a
 * weak-duality bound from the capacity duals in y (the lengths into
 * C->len). */
typedef tk_status_t (*ipm_certify_fn)(ipm_t *P, struct cert *C, const double *x, const double *y,
                                      const double *z, double *lb, double *ub, tk_error_t *err);

struct ipm {
    const tk_graph_t *g;
    const tk_swdemand_t *d;
    int64_t S, nr, ncons, nx, N; /* sources, rows, conservation rows, flows, variables */
    int64_t m;
    tk_id_t *src;     /* S */
    int32_t *rowid;   /* S*n: row of (k, v) + 1, 0 when none */
    int64_t *kstart;  /* S+1: first flow column of source k */
    int64_t *carc;    /* nx: arc of flow column j */
    double *b;        /* nr */
    tk_chol_aat_t *F; /* the factor of A D A' (A D^1/2 in Ap, Ai, Ax) */
    int *Ap, *Ai;     /* nr x N: lambda, flow, slack columns */
    double *Ax;       /* scaled values of A: A D^1/2 */
    int64_t nnz;      /* A's entries */
    double *aval;     /* unscaled values of A */
    double *r0, *res; /* nr: refinement */
    double *tmp;      /* N */
    double *cg;       /* 3 nr: conjugate gradient work */
    int use_cg;       /* ipm_solve: conjugate gradients, else refinement */
    double c0;        /* the cost of column 0: 1 (lambda), -1 (theta) */
    ipm_certify_fn certify;
    /* the path LP (mcf_barrier_paths): np pair rows, then one row per arc
     * some path uses */
    int64_t np;
    int64_t *pstart; /* np+1: first variable of pair k's paths */
    int64_t *arcrow; /* m: row - np of arc a, -1 when no path uses it */
    int64_t *rowarc; /* arc of arc row np + r */
};

static void ipm_free(ipm_t *P)
{
    tk_chol_aat_free(P->F);
    free(P->src);
    free(P->rowid);
    free(P->kstart);
    free(P->carc);
    free(P->b);
    free(P->aval);
    free(P->r0);
    free(P->res);
    free(P->tmp);
    free(P->cg);
    free(P->pstart);
    free(P->arcrow);
    free(P->rowarc);
}

/* The matrix A of nr rows and N columns with room for nzmax entries: its
 * arrays are the factor's (P->F). */
static tk_status_t ipm_matrix(ipm_t *P, int64_t nzmax, tk_error_t *err)
{
    tk_status_t st = tk_chol_aat_new(P->nr, P->N, nzmax, "barrier", &P->F, err);
    if (st == TK_OK)
        tk_chol_aat_arrays(P->F, &P->Ap, &P->Ai, &P->Ax);
    return st;
}

/* Each source's hop-count shortest-path DAG: dag_order fills key, the BFS
 * distance from s (-1: unreachable), and the BFS order q; returns the
 * number reached.  dag_arc: is arc a = (u, v) in the DAG. */
static int64_t dag_order(const ipm_t *P, tk_id_t s, double *key, tk_id_t *q)
{
    const tk_graph_t *g = P->g;
    int64_t qh = 0, qt = 0;
    for (tk_id_t v = 0; v < g->n; v++)
        key[v] = -1;
    key[s] = 0;
    q[qt++] = s;
    while (qh < qt) {
        tk_id_t u = q[qh++];
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (key[v] < 0) {
                key[v] = key[u] + 1;
                q[qt++] = v;
            }
        }
    }
    return qt;
}

static int dag_arc(const double *key, tk_id_t u, tk_id_t v)
{
    return u != v && key[v] == key[u] + 1;
}

/* keep[v]: v lies on a DAG path from s to a destination with demand (the
 * destinations marked in dem).  q: DAG order of qt nodes. */
static void prune(const ipm_t *P, const double *key, const tk_id_t *q, int64_t qt,
                  const double *dem, uint8_t *keep)
{
    const tk_graph_t *g = P->g;
    for (int64_t i = qt - 1; i >= 0; i--) {
        tk_id_t u = q[i];
        uint8_t k = dem[u] > 0;
        for (int64_t a = g->off[u]; a < g->off[u + 1] && !k; a++) {
            tk_id_t v = g->head[a];
            if (dag_arc(key, u, v) && keep[v])
                k = 1;
        }
        keep[u] = k;
    }
}

/* Order and analyse the pattern of the built matrix A (AMD), check the
 * factor's size against the memory limit (hint: appended to that error),
 * allocate the right-hand side. */
static tk_status_t ipm_analyse(ipm_t *P, const tk_mcf_opts_t *o, const char *hint, tk_error_t *err)
{
    double lnz = 0;
    tk_status_t st;

    memcpy(P->Ax, P->aval, (size_t)P->nnz * sizeof(double));
    if ((st = tk_chol_aat_analyze(P->F, &lnz, err)) != TK_OK)
        return st;
    if (o->mem_limit && lnz * 12.0 + (double)P->nnz * 40 > (double)o->mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "barrier factor of %.0f nonzeros is over the memory limit%s", lnz,
                            hint);
    return TK_OK;
}

/* Pass 1, the rows: source k's conservation rows are the nodes of its
 * pruned DAG but the source (P->rowid, numbered 1..*nr), and its flow
 * columns the DAG arcs into them (P->kstart[k], *nx counts them).  dist,
 * q, keep, dem: n of work (keep and dem zero on entry). */
static void ipm_rows(ipm_t *P, double *dist, tk_id_t *q, uint8_t *keep, double *dem, int64_t *nr,
                     int64_t *nx)
{
    const tk_graph_t *g = P->g;
    const tk_swdemand_t *d = P->d;
    int64_t n = g->n, k = 0;

    for (tk_id_t s = 0; s < n; s++) {
        if (d->off[s + 1] == d->off[s])
            continue;
        P->src[k] = s;
        P->kstart[k] = *nx;
        int64_t qt = dag_order(P, s, dist, q);
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
            if (d->dst[e] != s)
                dem[d->dst[e]] += d->w[e];
        prune(P, dist, q, qt, dem, keep);
        for (int64_t i = 1; i < qt; i++) {
            tk_id_t v = q[i];
            if (keep[v])
                P->rowid[k * n + v] = (int32_t)++ * nr;
        }
        for (int64_t i = 0; i < qt; i++) {
            tk_id_t u = q[i];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dag_arc(dist, u, v) && keep[v])
                    (*nx)++;
            }
        }
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
            dem[d->dst[e]] = 0;
        k++;
    }
    P->kstart[P->S] = *nx;
}

/* Pass 2, the columns of A (rows sorted within each column, as the factor
 * wants: tail row, head row, capacity row) and the right-hand side b:
 * lambda, the flows source by source, the slacks.  dist, q: n of work. */
static void ipm_columns(ipm_t *P, double *dist, tk_id_t *q)
{
    const tk_graph_t *g = P->g;
    const tk_swdemand_t *d = P->d;
    int64_t n = g->n, m = g->m, nr = P->ncons, j = 0, z = 0;
    int *Ap = P->Ap, *Ai = P->Ai;

    Ap[j++] = 0; /* lambda */
    for (int64_t a = 0; a < m; a++) {
        Ai[z] = (int)(nr + a);
        P->aval[z++] = -tk_graph_cap(g, a);
    }
    for (int64_t k = 0; k < P->S; k++) {
        tk_id_t s = P->src[k];
        int64_t qt = dag_order(P, s, dist, q);
        for (int64_t i = 0; i < qt; i++) {
            tk_id_t u = q[i];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (!dag_arc(dist, u, v) || !P->rowid[k * n + v])
                    continue;
                int ru = u == s ? -1 : P->rowid[k * n + u] - 1;
                int rv = P->rowid[k * n + v] - 1;
                Ap[j] = (int)z;
                P->carc[j - 1] = a;
                if (ru >= 0 && ru < rv) {
                    Ai[z] = ru;
                    P->aval[z++] = -1;
                }
                Ai[z] = rv;
                P->aval[z++] = 1;
                if (ru > rv) {
                    Ai[z] = ru;
                    P->aval[z++] = -1;
                }
                Ai[z] = (int)(nr + a);
                P->aval[z++] = 1;
                j++;
            }
        }
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++) {
            tk_id_t t = d->dst[e];
            if (t != s)
                P->b[P->rowid[k * n + t] - 1] += d->w[e];
        }
    }
    /* the flow columns of a source are not in arc order: the repair
     * and the pricing walk them by arc through a per-source map */
    for (int64_t a = 0; a < m; a++) {
        Ap[j] = (int)z;
        Ai[z] = (int)(nr + a);
        P->aval[z++] = 1;
        j++;
    }
    Ap[j] = (int)z;
    P->nnz = z;
}

/* Build rows, columns and the matrix A (in the factor's arrays); analyse
 * the pattern. */
static tk_status_t ipm_build(ipm_t *P, const tk_mcf_opts_t *o, tk_error_t *err)
{
    const tk_graph_t *g = P->g;
    const tk_swdemand_t *d = P->d;
    int64_t n = g->n, m = g->m, S = 0, nr = 0, nx = 0;
    double *dist = NULL;
    tk_id_t *q = NULL;
    uint8_t *keep = NULL;
    double *dem = NULL;
    tk_status_t st = TK_OK;

    for (int64_t s = 0; s < n; s++)
        if (d->off[s + 1] > d->off[s])
            S++;
    P->S = S;
    P->m = m;
    if ((double)S * (double)n + (double)m >= (double)INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "barrier: LP too large");
    P->src = tk_malloc_array((size_t)S + 1, sizeof *P->src);
    P->rowid = tk_calloc_array((size_t)(S * n) + 1, sizeof *P->rowid);
    P->kstart = tk_malloc_array((size_t)S + 2, sizeof *P->kstart);
    dist = tk_malloc_array((size_t)n, sizeof *dist);
    q = tk_malloc_array((size_t)n, sizeof *q);
    keep = tk_calloc_array((size_t)n, 1);
    dem = tk_calloc_array((size_t)n, sizeof *dem);
    if (!P->src || !P->rowid || !P->kstart || !dist || !q || !keep || !dem) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    ipm_rows(P, dist, q, keep, dem, &nr, &nx);
    P->ncons = nr;
    P->nr = nr + m;
    P->nx = nx;
    P->N = 1 + nx + m;
    if ((double)nx * 3 + (double)m >= (double)INT32_MAX) {
        st = tk_error_set(err, TK_ELIMIT, NULL, 0, "barrier: LP too large");
        goto done;
    }
    if (o->mem_limit && (uint64_t)(nx + 2 * m) * 3 * 40 > o->mem_limit) {
        st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                          "barrier LP of %" PRId64 " flow columns is over the memory limit "
                          "(use --method approx)",
                          nx);
        goto done;
    }
    P->carc = tk_malloc_array((size_t)nx + 1, sizeof *P->carc);
    P->b = tk_calloc_array((size_t)P->nr + 1, sizeof *P->b);
    P->r0 = tk_calloc_array((size_t)P->nr + 1, sizeof *P->r0);
    P->res = tk_calloc_array((size_t)P->nr + 1, sizeof *P->res);
    P->tmp = tk_calloc_array((size_t)P->N + 1, sizeof *P->tmp);
    if (!P->carc || !P->b || !P->r0 || !P->res || !P->tmp) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if ((st = ipm_matrix(P, 3 * nx + 2 * m, err)) != TK_OK)
        goto done;
    P->aval = tk_malloc_array((size_t)(3 * nx + 2 * m) + 1, sizeof *P->aval);
    if (!P->aval) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    ipm_columns(P, dist, q);
    st = ipm_analyse(P, o, " (use --method approx)", err);
done:
    free(dist);
    free(q);
    free(keep);
    free(dem);
    return st;
}

static double norm_inf(const double *v, int64_t len)
{
    double r = 0;
    for (int64_t i = 0; i < len; i++)
        if (fabs(v[i]) > r)
            r = fabs(v[i]);
    return r;
}

/* r = A x (x over all N variables, theta first). */
static void ipm_ax(const ipm_t *P, const double *x, double *r)
{
    const int *Ap = P->Ap, *Ai = P->Ai;
    for (int64_t i = 0; i < P->nr; i++)
        r[i] = 0;
    for (int64_t j = 0; j < P->N; j++)
        for (int p = Ap[j]; p < Ap[j + 1]; p++)
            r[Ai[p]] += P->aval[p] * x[j];
}

/* r = A' y. */
static void ipm_aty(const ipm_t *P, const double *y, double *r)
{
    const int *Ap = P->Ap, *Ai = P->Ai;
    for (int64_t j = 0; j < P->N; j++) {
        double s = 0;
        for (int p = Ap[j]; p < Ap[j + 1]; p++)
            s += P->aval[p] * y[Ai[p]];
        r[j] = s;
    }
}

/* Solve M_s v = r in place (r, v: nr). */
static tk_status_t ipm_solve_s(ipm_t *P, double *r, tk_error_t *err)
{
    return tk_chol_aat_solve(P->F, r, err);
}

/* Factor M = A D A' for D = x / z (all 1 when x is NULL), filled into D. */
static tk_status_t ipm_factor(ipm_t *P, const double *x, const double *z, double *D,
                              tk_error_t *err)
{
    const int *Ap = P->Ap;
    double *Ax = P->Ax, beta = 0, dmax = 0;
    int not_posdef = 0;
    tk_status_t st = TK_OK;
    for (int64_t j = 0; j < P->N; j++) {
        D[j] = x ? x[j] / z[j] : 1;
        double sd = sqrt(D[j]);
        if (D[j] > dmax)
            dmax = D[j];
        for (int p = Ap[j]; p < Ap[j + 1]; p++)
            Ax[p] = P->aval[p] * sd;
    }
    /* near the optimum of a degenerate LP, rounding in the large entries
     * of D can hide a small pivot: a diagonal shift keeps the factor
     * defined, and ipm_solve works against the unshifted M; the
     * certification judges the result, never this solve */
    for (int tries = 0; tries < 8; tries++) {
        st = tk_chol_aat_factor(P->F, beta, &not_posdef, err);
        if (st == TK_OK || !not_posdef)
            break;
        beta = beta > 0 ? beta * 100 : 1e-14 * (dmax > 1 ? dmax : 1);
    }
    return st;
}

/* res = r - M v with M = A D A' computed from the unscaled matrix. */
static void ipm_residual(const ipm_t *P, const double *D, const double *r, const double *v,
                         double *res, double *tmp)
{
    ipm_aty(P, v, tmp);
    for (int64_t j = 0; j < P->N; j++)
        tmp[j] *= D[j];
    ipm_ax(P, tmp, res);
    for (int64_t i = 0; i < P->nr; i++)
        res[i] = r[i] - res[i];
}

/* M v = r in place against the exact M = A D A', from the factor's
 * solution (exact up to rounding, or of a shifted M after ipm_factor had
 * to shift): by three passes of iterative refinement (the arc LP), or by
 * conjugate gradients preconditioned by the factor (the path LP, whose
 * shifted factors near the optimum leave refinement stuck at 1e-8; one
 * or two steps when the factor is good, more when it was shifted).
 * Measured: conjugate gradients on the arc LP reach smaller residuals
 * but worse iterates (rrg n=200 d=10: certified gap 3e-10 against 4e-13),
 * the shifted solve's damping of the largest D there being worth more
 * than an exact Newton step. */
#define IPM_CG_MAX 40
static tk_status_t ipm_solve(ipm_t *P, const double *D, double *r, tk_error_t *err)
{
    int64_t nr = P->nr;
    double rn = norm_inf(r, nr), rz = 0;
    double *res = P->res, *zv, *pv, *q;
    tk_status_t st;

    if (!P->cg) {
        P->cg = tk_malloc_array((size_t)(3 * nr) + 1, sizeof *P->cg);
        if (!P->cg)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    zv = P->cg;
    pv = zv + nr;
    q = pv + nr;
    memcpy(P->r0, r, (size_t)nr * sizeof(double));
    if ((st = ipm_solve_s(P, r, err)) != TK_OK)
        return st;
    ipm_residual(P, D, P->r0, r, res, P->tmp);
    if (!P->use_cg) {
        /* iterative refinement, three passes at most */
        for (int pass = 0; pass < 3 && norm_inf(res, nr) > 1e-14 * rn; pass++) {
            memcpy(zv, res, (size_t)nr * sizeof(double));
            if ((st = ipm_solve_s(P, zv, err)) != TK_OK)
                return st;
            for (int64_t i = 0; i < nr; i++)
                r[i] += zv[i];
            ipm_residual(P, D, P->r0, r, res, P->tmp);
        }
        return TK_OK;
    }
    for (int it = 0; it < IPM_CG_MAX && norm_inf(res, nr) > 1e-14 * rn; it++) {
        double rz1 = 0, pq = 0;
        memcpy(zv, res, (size_t)nr * sizeof(double));
        if ((st = ipm_solve_s(P, zv, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < nr; i++)
            rz1 += res[i] * zv[i];
        for (int64_t i = 0; i < nr; i++)
            pv[i] = it == 0 ? zv[i] : zv[i] + rz1 / rz * pv[i];
        rz = rz1;
        ipm_aty(P, pv, P->tmp); /* q = M pv */
        for (int64_t j = 0; j < P->N; j++)
            P->tmp[j] *= D[j];
        ipm_ax(P, P->tmp, q);
        for (int64_t i = 0; i < nr; i++)
            pq += pv[i] * q[i];
        if (!(pq > 0) || !(rz > 0))
            break;
        double alpha = rz / pq;
        for (int64_t i = 0; i < nr; i++) {
            r[i] += alpha * pv[i];
            res[i] -= alpha * q[i];
        }
    }
    return TK_OK;
}

/* The Newton direction for the residuals rb = Ax - b, rc = A'y + z - c and
 * the complementarity target rxz (Z dx + X dz = rxz):
 *   M dy = -rb - A (rxz / z + D rc),  dz = -rc - A' dy,
 *   dx = (rxz - x dz) / z. */
static tk_status_t ipm_direction(ipm_t *P, const double *x, const double *z, const double *D,
                                 const double *rb, const double *rc, const double *rxz, double *dx,
                                 double *dy, double *dz, tk_error_t *err)
{
    int64_t N = P->N;
    tk_status_t st;
    for (int64_t j = 0; j < N; j++)
        dx[j] = rxz[j] / z[j] + D[j] * rc[j];
    ipm_ax(P, dx, dy);
    for (int64_t i = 0; i < P->nr; i++)
        dy[i] = -rb[i] - dy[i];
    if ((st = ipm_solve(P, D, dy, err)) != TK_OK)
        return st;
    ipm_aty(P, dy, dz);
    for (int64_t j = 0; j < N; j++) {
        dz[j] = -rc[j] - dz[j];
        dx[j] = (rxz[j] - x[j] * dz[j]) / z[j];
    }
    return TK_OK;
}

static double step_to_boundary(const double *v, const double *dv, int64_t N)
{
    double a = 1;
    for (int64_t j = 0; j < N; j++)
        if (dv[j] < 0 && -v[j] / dv[j] < a)
            a = -v[j] / dv[j];
    return a;
}

/* A feasible flow from the iterate: every source's flow is rebuilt in BFS
 * order, each node splitting what actually reaches it in the iterate's
 * proportions between its own demand and its out-arcs (so conservation is
 * exact whatever the iterate's residuals).  Returns the theta this flow
 * certifies: the least delivered fraction of a demand divided by the peak
 * load / capacity; load (m) gets the rebuilt flow scaled to that theta. */
static double ipm_repair(const ipm_t *P, const double *x, double *load, int64_t *colof, double *in,
                         double *dist, tk_id_t *q)
{
    const tk_graph_t *g = P->g;
    int64_t n = g->n, m = g->m;
    double tmin = HUGE_VAL, peak = 0;

    for (int64_t a = 0; a < m; a++)
        load[a] = 0;
    for (int64_t k = 0; k < P->S; k++) {
        tk_id_t s = P->src[k];
        int64_t qt = dag_order(P, s, dist, q);
        for (int64_t j = P->kstart[k]; j < P->kstart[k + 1]; j++)
            colof[P->carc[j]] = j;
        for (int64_t i = 0; i < qt; i++)
            in[q[i]] = 0;
        for (int64_t i = 0; i < qt; i++) {
            tk_id_t u = q[i];
            double out = 0, scale = 1;
            int32_t r = P->rowid[k * n + u];
            if (u != s && !r)
                continue;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                if (colof[a] >= 0)
                    out += fmax(x[colof[a] + 1], 0);
            if (u != s) {
                double own = P->b[r - 1]; /* the demand of (s, u) */
                double plan = own + out;
                scale = plan > 0 ? in[u] / plan : 0;
                /* u receives own * scale: that fraction of its demand */
                if (own > 0 && scale < tmin)
                    tmin = scale;
            }
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                if (colof[a] >= 0) {
                    double f = fmax(x[colof[a] + 1], 0) * scale;
                    in[g->head[a]] += f;
                    load[a] += f;
                }
        }
        for (int64_t j = P->kstart[k]; j < P->kstart[k + 1]; j++)
            colof[P->carc[j]] = -1;
    }
    for (int64_t a = 0; a < m; a++) {
        double c = tk_graph_cap(g, a);
        if (load[a] / c > peak)
            peak = load[a] / c;
    }
    if (!(tmin < HUGE_VAL) || peak <= 0)
        return 0;
    for (int64_t a = 0; a < m; a++)
        load[a] /= peak;
    return tmin / peak;
}

/* The saturated links of a certified result: the arcs with a positive
 * price in the bounding duals len (NULL: the hop bound won, every arc has
 * price 1), loads from the certified flow. */
static tk_status_t barrier_links(const tk_graph_t *g, const double *len, const double *load,
                                 tk_mcf_result_t *out, tk_error_t *err)
{
    int64_t m = g->m, cnt = 0;
    double norm = 0, lmax = len ? norm_inf(len, m) : 1;
    for (int64_t a = 0; a < m; a++)
        if (!len || len[a] > 1e-7 * lmax) {
            cnt++;
            norm += (len ? len[a] : 1) * tk_graph_cap(g, a);
        }
    out->sat_arc = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_arc);
    out->sat_dual = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_dual);
    out->sat_load = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_load);
    if (!out->sat_arc || !out->sat_dual || !out->sat_load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t a = 0; a < m; a++)
        if (!len || len[a] > 1e-7 * lmax) {
            out->sat_arc[out->nsat] = a;
            out->sat_dual[out->nsat] = (len ? len[a] : 1) / norm;
            out->sat_load[out->nsat] = load[a] / tk_graph_cap(g, a);
            out->nsat++;
        }
    return TK_OK;
}

/* Certificate state: the best bounds met so far, and work arrays. */
typedef struct cert {
    double best_lb, best_ub;
    double *best_load, *best_len; /* m: the flow of best_lb, duals of best_ub */
    int have_len, stall;
    double mark;                    /* the gap when stall was last reset */
    double *len, *load, *in, *dist; /* m, m, n, n: work */
    uint8_t *support;               /* path LP: columns of the best lb's flow */
    int64_t *colof;                 /* m: work, all -1 between uses */
    tk_id_t *q;                     /* n: work */
} cert_t;

/* The arc LP's certificate: the flow rebuilt source by source, and the
 * capacity duals as lengths over all arcs (so the bound also holds for the
 * LP beyond the shortest-path DAGs). */
static tk_status_t certify_arcs(ipm_t *P, cert_t *C, const double *x, const double *y,
                                const double *z, double *lb, double *ub, tk_error_t *err)
{
    (void)z;
    *lb = ipm_repair(P, x, C->load, C->colof, C->in, C->dist, C->q);
    for (int64_t a = 0; a < P->m; a++)
        C->len[a] = fmax(0, -y[P->ncons + a]);
    return mcf_dual_bound(P->g, P->d, C->len, ub, err);
}

/* The iterate (x, y, z) of an interior point solve, the scaling D, the
 * residuals and the directions (N entries, y and its kin nr). */
typedef struct iter {
    double *x, *z, *D, *rc, *rxz, *dx, *dz, *ax, *az; /* N */
    double *y, *rb, *dy, *ay;                         /* nr */
} iter_t;

static void iter_free(iter_t *I)
{
    free(I->x);
    free(I->z);
    free(I->y);
    free(I->D);
    free(I->rb);
    free(I->rc);
    free(I->rxz);
    free(I->dx);
    free(I->dy);
    free(I->dz);
    free(I->ax);
    free(I->ay);
    free(I->az);
}

static int iter_alloc(iter_t *I, int64_t N, int64_t nr)
{
    memset(I, 0, sizeof *I);
    I->x = tk_malloc_array((size_t)N, sizeof *I->x);
    I->z = tk_malloc_array((size_t)N, sizeof *I->z);
    I->D = tk_malloc_array((size_t)N, sizeof *I->D);
    I->rc = tk_malloc_array((size_t)N, sizeof *I->rc);
    I->rxz = tk_malloc_array((size_t)N, sizeof *I->rxz);
    I->dx = tk_malloc_array((size_t)N, sizeof *I->dx);
    I->dz = tk_malloc_array((size_t)N, sizeof *I->dz);
    I->ax = tk_malloc_array((size_t)N, sizeof *I->ax);
    I->az = tk_malloc_array((size_t)N, sizeof *I->az);
    I->y = tk_calloc_array((size_t)nr, sizeof *I->y);
    I->rb = tk_malloc_array((size_t)nr, sizeof *I->rb);
    I->dy = tk_malloc_array((size_t)nr, sizeof *I->dy);
    I->ay = tk_malloc_array((size_t)nr, sizeof *I->ay);
    return I->x && I->z && I->D && I->rc && I->rxz && I->dx && I->dz && I->ax && I->az && I->y &&
           I->rb && I->dy && I->ay;
}

/* Mehrotra's starting point: x = A'(AA')^-1 b, y = (AA')^-1 A c,
 * z = c - A'y, shifted into the interior. */
static tk_status_t ipm_start(ipm_t *P, iter_t *I, tk_error_t *err)
{
    int64_t N = P->N, nr = P->nr;
    double *x = I->x, *y = I->y, *z = I->z, *D = I->D, *dy = I->dy;
    double sx, sz, dxs, dzs, xz;
    tk_status_t st;

    if ((st = ipm_factor(P, NULL, NULL, D, err)) != TK_OK)
        return st;
    memcpy(dy, P->b, (size_t)nr * sizeof *dy);
    if ((st = ipm_solve(P, D, dy, err)) != TK_OK)
        return st;
    ipm_aty(P, dy, x);
    for (int64_t i = 0; i < nr; i++)
        y[i] = 0;
    for (int p = P->Ap[0]; p < P->Ap[1]; p++)
        y[P->Ai[p]] = P->c0 * P->aval[p]; /* A c, c = c0 e_0 */
    if ((st = ipm_solve(P, D, y, err)) != TK_OK)
        return st;
    ipm_aty(P, y, z);
    for (int64_t j = 0; j < N; j++)
        z[j] = (j == 0 ? P->c0 : 0.0) - z[j];
    sx = sz = 0;
    dxs = dzs = 0;
    for (int64_t j = 0; j < N; j++) {
        if (-1.5 * x[j] > dxs)
            dxs = -1.5 * x[j];
        if (-1.5 * z[j] > dzs)
            dzs = -1.5 * z[j];
    }
    xz = 0;
    for (int64_t j = 0; j < N; j++) {
        x[j] += dxs;
        z[j] += dzs;
        sx += x[j];
        sz += z[j];
    }
    for (int64_t j = 0; j < N; j++)
        xz += x[j] * z[j];
    for (int64_t j = 0; j < N; j++) {
        x[j] += 0.5 * xz / (sz > 0 ? sz : 1) + 1e-8;
        z[j] += 0.5 * xz / (sx > 0 ? sx : 1) + 1e-8;
    }
    return TK_OK;
}

/* The residuals rb = Ax - b, rc = A'y + z - c of the iterate, and its
 * measures: mu (the mean complementarity), the relative primal and dual
 * infeasibilities and the relative gap; *pobj the primal objective. */
typedef struct resid {
    double mu, pobj, pinf, dinf, rgap;
} resid_t;

static void ipm_residuals(const ipm_t *P, iter_t *I, resid_t *R)
{
    int64_t N = P->N, nr = P->nr;
    double mu = 0, pobj = P->c0 * I->x[0], dobj = 0, nb = norm_inf(P->b, nr);

    ipm_ax(P, I->x, I->rb);
    for (int64_t i = 0; i < nr; i++) {
        I->rb[i] -= P->b[i];
        dobj += P->b[i] * I->y[i];
    }
    ipm_aty(P, I->y, I->rc);
    for (int64_t j = 0; j < N; j++) {
        I->rc[j] += I->z[j] - (j == 0 ? P->c0 : 0.0);
        mu += I->x[j] * I->z[j];
    }
    mu /= (double)N;
    R->mu = mu;
    R->pobj = pobj;
    R->pinf = norm_inf(I->rb, nr) / (1 + nb);
    R->dinf = norm_inf(I->rc, N) / 2;
    R->rgap = fabs(pobj - dobj) / (1 + fabs(pobj));
}

/* Certify the iterate: a flow below, the duals' bound above, kept in C
 * when they improve on the best.  *stop = 1 when the bounds meet to
 * rounding or the gap has not halved in 4 certified iterates. */
static tk_status_t ipm_certify_iterate(ipm_t *P, cert_t *C, const iter_t *I, int *stop,
                                       tk_error_t *err)
{
    int64_t m = P->g->m;
    double lb, ub, gap;
    tk_status_t st;

    if ((st = P->certify(P, C, I->x, I->y, I->z, &lb, &ub, err)) != TK_OK)
        return st;
    if (lb > C->best_lb) {
        C->best_lb = lb;
        memcpy(C->best_load, C->load, (size_t)m * sizeof *C->load);
    }
    if (ub < C->best_ub) {
        C->best_ub = ub;
        memcpy(C->best_len, C->len, (size_t)m * sizeof *C->len);
        C->have_len = 1;
    }
    /* stalled: the gap has not halved in 4 certified iterates */
    gap = (C->best_ub - C->best_lb) / C->best_ub;
    if (C->stall == 0 || gap <= 0.5 * C->mark) {
        C->mark = gap;
        C->stall = 1;
    } else {
        C->stall++;
    }
    *stop = C->best_ub - C->best_lb <= 1e-13 * C->best_ub || C->stall > 4;
    return TK_OK;
}

/* One predictor-corrector step from the iterate (mu: its mean
 * complementarity), with separate primal and dual step lengths. */
static tk_status_t ipm_step(ipm_t *P, iter_t *I, double mu, tk_error_t *err)
{
    int64_t N = P->N, nr = P->nr;
    double *x = I->x, *z = I->z, *D = I->D, *rxz = I->rxz;
    tk_status_t st;

    if ((st = ipm_factor(P, x, z, D, err)) != TK_OK)
        return st;
    /* predictor */
    for (int64_t j = 0; j < N; j++)
        rxz[j] = -x[j] * z[j];
    if ((st = ipm_direction(P, x, z, D, I->rb, I->rc, rxz, I->ax, I->ay, I->az, err)) != TK_OK)
        return st;
    double ap = step_to_boundary(x, I->ax, N), ad = step_to_boundary(z, I->az, N);
    double muaff = 0;
    for (int64_t j = 0; j < N; j++)
        muaff += (x[j] + ap * I->ax[j]) * (z[j] + ad * I->az[j]);
    muaff /= (double)N;
    double sigma = pow(muaff / mu, 3);
    /* corrector */
    for (int64_t j = 0; j < N; j++)
        rxz[j] = -x[j] * z[j] - I->ax[j] * I->az[j] + sigma * mu;
    if ((st = ipm_direction(P, x, z, D, I->rb, I->rc, rxz, I->dx, I->dy, I->dz, err)) != TK_OK)
        return st;
    ap = fmin(1, 0.995 * step_to_boundary(x, I->dx, N));
    ad = fmin(1, 0.995 * step_to_boundary(z, I->dz, N));
    for (int64_t j = 0; j < N; j++) {
        x[j] += ap * I->dx[j];
        z[j] += ad * I->dz[j];
    }
    for (int64_t i = 0; i < nr; i++)
        I->y[i] += ad * I->dy[i];
    return TK_OK;
}

/* One interior point solve of P's LP from Mehrotra's starting point,
 * certifying every iterate near the optimum into C; iters += iterations. */
static tk_status_t ipm_round(ipm_t *P, const tk_mcf_opts_t *o, double t0, cert_t *C, int64_t *iters,
                             tk_error_t *err)
{
    int64_t N = P->N, it, since = 0;
    iter_t I;
    resid_t R;
    tk_status_t st = TK_OK;
    int stop = 0;

    if (!iter_alloc(&I, N, P->nr)) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    C->stall = 0;
    if ((st = ipm_start(P, &I, err)) != TK_OK)
        goto done;
    for (it = 0; it < IPM_MAX_ITER; it++) {
        ipm_residuals(P, &I, &R);
        if (R.pinf < 1e-6 && R.rgap < 1e-6) {
            if ((st = ipm_certify_iterate(P, C, &I, &stop, err)) != TK_OK)
                goto done;
            since = 0;
            if (stop)
                break;
        }
        if (R.pinf < 1e-13 && R.dinf < 1e-13 && R.rgap < 1e-13)
            break;
        /* nothing left to gain: complementarity at rounding level, or no
         * certifiable iterate for 6 iterations after the first */
        if (R.mu * (double)N < 1e-15 * (1 + fabs(R.pobj)))
            break;
        if (C->best_lb > 0 && ++since > 6)
            break;
        if (o->time_limit > 0 && mcf_now() - t0 > o->time_limit) {
            st = tk_error_set(err, TK_ELIMIT, NULL, 0, "time limit of %g s reached (exact LP)",
                              o->time_limit);
            goto done;
        }
        if ((st = ipm_step(P, &I, R.mu, err)) != TK_OK)
            goto done;
    }
    *iters += it;
done:
    iter_free(&I);
    return st;
}

static void cert_free(cert_t *C)
{
    free(C->len);
    free(C->load);
    free(C->best_len);
    free(C->best_load);
    free(C->in);
    free(C->dist);
    free(C->colof);
    free(C->q);
}

/* The result of a solve: out->theta and out->upper are the best bounds
 * met (0 and inf when none); certified when they meet within MCF_IPM_GAP,
 * with the saturated links when asked. */
static tk_status_t cert_finish(const tk_graph_t *g, cert_t *C, int64_t iters,
                               const tk_mcf_opts_t *o, int *certified, tk_mcf_result_t *out,
                               tk_error_t *err)
{
    if (C->best_lb > C->best_ub)
        C->best_lb = C->best_ub; /* rounding in either bound */
    out->iterations = iters;
    out->rounds = 0;
    out->theta = C->best_lb;
    out->upper = C->best_ub;
    if (!(C->best_lb > 0 && C->best_ub - C->best_lb <= MCF_IPM_GAP * C->best_ub))
        return TK_OK;
    *certified = 1;
    out->gap = (C->best_ub - C->best_lb) / C->best_ub;
    out->method = TK_MCF_EXACT;
    if (o->links)
        return barrier_links(g, C->have_len ? C->best_len : NULL, C->best_load, out, err);
    return TK_OK;
}

tk_status_t mcf_barrier(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                        int *certified, tk_mcf_result_t *out, tk_error_t *err)
{
    cert_t C;
    int64_t n = g->n, m = g->m, iters = 0;
    ipm_t P;
    double t0 = mcf_now();
    tk_status_t st = TK_OK;

    *certified = 0;
    memset(&C, 0, sizeof C);
    C.best_ub = HUGE_VAL;
    C.len = tk_malloc_array((size_t)m + 1, sizeof *C.len);
    C.load = tk_malloc_array((size_t)m + 1, sizeof *C.load);
    C.best_len = tk_malloc_array((size_t)m + 1, sizeof *C.best_len);
    C.best_load = tk_calloc_array((size_t)m + 1, sizeof *C.best_load);
    C.in = tk_malloc_array((size_t)n, sizeof *C.in);
    C.dist = tk_malloc_array((size_t)n, sizeof *C.dist);
    C.colof = tk_malloc_array((size_t)m + 1, sizeof *C.colof);
    C.q = tk_malloc_array((size_t)n, sizeof *C.q);
    if (!C.len || !C.load || !C.best_len || !C.best_load || !C.in || !C.dist || !C.colof || !C.q) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t a = 0; a < m; a++)
        C.colof[a] = -1;
    /* the unit-length (hop) bound */
    for (int64_t a = 0; a < m; a++)
        C.len[a] = 1;
    if ((st = mcf_dual_bound(g, d, C.len, &C.best_ub, err)) != TK_OK)
        goto done;
    memset(&P, 0, sizeof P);
    P.g = g;
    P.d = d;
    P.c0 = 1;
    P.certify = certify_arcs;
    st = ipm_build(&P, o, err);
    if (st == TK_OK)
        st = ipm_round(&P, o, t0, &C, &iters, err);
    ipm_free(&P);
    if (st == TK_OK)
        st = cert_finish(g, &C, iters, o, certified, out, err);
done:
    cert_free(&C);
    return st;
}

/*
 * The path LP (mcf_paths.c's columns) by the same interior point method.
 * Standard form, theta maximised (cost -1 on column 0):
 *   variables  theta, x(p) for every path p, a slack s(a) per used arc;
 *   rows       r < np-1:  sum_{p of pair r} x(p) - sum_{p of pair r+1} x(p) = 0,
 *              np-1:      sum_{p of pair np-1} x(p) - theta = 0,
 *              a:         sum_p d(p) mult(p, a) x(p) + s(a) = cap(a).
 * The pair rows telescope "every pair's paths carry theta" so that theta
 * meets one row: written directly, its column would meet all np pair rows
 * and make their block of A D A' dense.
 * Certificate: the flow that routes every pair's whole demand in the
 * iterate's proportions over its paths, scaled to the peak load (below),
 * and for arc lengths len >= 0 from the capacity duals, weak duality
 *   theta <= sum_a len(a) cap(a) / sum_pairs min_p sum_a d(p) mult(p, a) len(a)
 * (above): both hold for the path LP whatever the iterate's residuals.
 */
static double path_bound(const ipm_t *P, const double *len)
{
    const int *Ap = P->Ap, *Ai = P->Ai;
    double num = 0, den = 0;
    for (int64_t r = 0; r < P->nr - P->np; r++)
        num += len[P->rowarc[r]] * tk_graph_cap(P->g, P->rowarc[r]);
    for (int64_t k = 0; k < P->np; k++) {
        double best = HUGE_VAL;
        for (int64_t j = P->pstart[k]; j < P->pstart[k + 1]; j++) {
            double c = 0;
            for (int p = Ap[j]; p < Ap[j + 1]; p++)
                if (Ai[p] >= P->np)
                    c += P->aval[p] * len[P->rowarc[Ai[p] - P->np]];
            if (c < best)
                best = c;
        }
        den += best;
    }
    return den > 0 ? num / den : HUGE_VAL;
}

/* The theta of the flow that routes every pair's whole demand over its
 * paths in proportion to w(p) = x(p), or with purify, to x(p) where x(p) >=
 * z(p) and 0 elsewhere (the paths the iterate prices out carry their
 * residue of flow onto saturated arcs; each pair keeps its largest x).
 * load (m) gets the flow's arc loads at that theta. */
static double path_flow(const ipm_t *P, const double *x, const double *z, int purify, double *load)
{
    const int *Ap = P->Ap, *Ai = P->Ai;
    double peak = 0;
    for (int64_t a = 0; a < P->m; a++)
        load[a] = 0;
    for (int64_t k = 0; k < P->np; k++) {
        double tot = 0, big = -1;
        int64_t arg = P->pstart[k];
        for (int64_t j = P->pstart[k]; j < P->pstart[k + 1]; j++)
            if (x[j] > big) {
                big = x[j];
                arg = j;
            }
        for (int64_t j = P->pstart[k]; j < P->pstart[k + 1]; j++)
            if (!purify || j == arg || x[j] >= z[j])
                tot += fmax(x[j], 0);
        if (!(tot > 0))
            return 0; /* a pair without flow */
        for (int64_t j = P->pstart[k]; j < P->pstart[k + 1]; j++) {
            if (purify && j != arg && x[j] < z[j])
                continue;
            double f = fmax(x[j], 0) / tot;
            for (int p = Ap[j]; p < Ap[j + 1]; p++)
                if (Ai[p] >= P->np)
                    load[P->rowarc[Ai[p] - P->np]] += P->aval[p] * f;
        }
    }
    for (int64_t a = 0; a < P->m; a++)
        peak = fmax(peak, load[a] / tk_graph_cap(P->g, a));
    if (!(peak > 0))
        return 0;
    for (int64_t a = 0; a < P->m; a++)
        load[a] /= peak;
    return 1 / peak;
}

static tk_status_t certify_paths(ipm_t *P, cert_t *C, const double *x, const double *y,
                                 const double *z, double *lb, double *ub, tk_error_t *err)
{
    double lb2;
    (void)err;
    /* C->len is free until the upper bound: the purified flow's loads */
    *lb = path_flow(P, x, z, 0, C->load);
    lb2 = path_flow(P, x, z, 1, C->len);
    if (lb2 > *lb) {
        *lb = lb2;
        memcpy(C->load, C->len, (size_t)P->m * sizeof *C->load);
    }
    if (C->support && *lb > C->best_lb) /* the purified flow's paths */
        for (int64_t k = 0; k < P->np; k++) {
            int64_t arg = P->pstart[k];
            for (int64_t j = P->pstart[k]; j < P->pstart[k + 1]; j++)
                if (x[j] > x[arg])
                    arg = j;
            for (int64_t j = P->pstart[k]; j < P->pstart[k + 1]; j++)
                C->support[j - 1] = j == arg || x[j] >= z[j];
        }
    for (int64_t a = 0; a < P->m; a++)
        C->len[a] = 0;
    for (int64_t r = 0; r < P->nr - P->np; r++)
        C->len[P->rowarc[r]] = fmax(0, -y[P->np + r]);
    *ub = path_bound(P, C->len);
    return TK_OK;
}

/* The path LP's columns of A: theta, the paths pair by pair (P->pstart),
 * the slacks of the P->nr - P->np used arcs.  TK_EINTERNAL when L's
 * columns are not in pair order or a pair has none. */
static tk_status_t ipm_path_columns(ipm_t *P, const mcf_pathlp_t *L, tk_error_t *err)
{
    int *Ap = P->Ap, *Ai = P->Ai;
    int64_t np = P->np, mu = P->nr - P->np, j = 0, z = 0, k = -1;

    Ap[j++] = 0; /* theta */
    Ai[z] = (int)(np - 1);
    P->aval[z++] = -1;
    for (int64_t c = 0; c < L->ncols; c++) {
        int64_t pk = L->row[L->ptr[c]] - 1; /* the pair, 0-based */
        if (pk < k || pk >= np)
            return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                                "barrier: path columns out of pair order");
        while (k < pk)
            P->pstart[++k] = j;
        Ap[j++] = (int)z;
        if (pk > 0) {
            Ai[z] = (int)(pk - 1);
            P->aval[z++] = -1;
        }
        Ai[z] = (int)pk;
        P->aval[z++] = 1;
        for (int64_t e = L->ptr[c] + 1; e < L->ptr[c + 1]; e++) {
            Ai[z] = (int)(np + P->arcrow[L->row[e] - np - 1]);
            P->aval[z++] = L->val[e];
        }
    }
    if (k != np - 1)
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "barrier: a pair without paths");
    P->pstart[np] = j;
    for (int64_t r = 0; r < mu; r++) {
        Ap[j++] = (int)z;
        Ai[z] = (int)(np + r);
        P->aval[z++] = 1;
    }
    Ap[j] = (int)z;
    P->nnz = z;
    return TK_OK;
}

static tk_status_t ipm_build_paths(ipm_t *P, const mcf_pathlp_t *L, const tk_mcf_opts_t *o,
                                   tk_error_t *err)
{
    const tk_graph_t *g = P->g;
    int64_t m = g->m, np = L->npairs, mu = 0, nz;
    tk_status_t st;

    P->m = m;
    P->np = np;
    P->arcrow = tk_malloc_array((size_t)m + 1, sizeof *P->arcrow);
    P->rowarc = tk_malloc_array((size_t)m + 1, sizeof *P->rowarc);
    P->pstart = tk_malloc_array((size_t)np + 2, sizeof *P->pstart);
    if (!P->arcrow || !P->rowarc || !P->pstart)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t a = 0; a < m; a++)
        P->arcrow[a] = -1;
    nz = 1 + 2 * L->ncols;
    for (int64_t j = 0; j < L->ncols; j++)
        for (int64_t e = L->ptr[j] + 1; e < L->ptr[j + 1]; e++) {
            P->arcrow[L->row[e] - np - 1] = 0;
            nz++;
        }
    for (int64_t a = 0; a < m; a++)
        if (P->arcrow[a] >= 0) {
            P->rowarc[mu] = a;
            P->arcrow[a] = mu++;
        }
    nz += mu;
    P->nr = np + mu;
    P->N = 1 + L->ncols + mu;
    if ((double)nz >= (double)INT32_MAX || (double)P->N >= (double)INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "barrier: LP too large");
    if (o->mem_limit && (uint64_t)nz * 3 * 40 > o->mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "barrier LP of %" PRId64 " path columns is over the memory limit",
                            L->ncols);
    P->b = tk_calloc_array((size_t)P->nr + 1, sizeof *P->b);
    P->r0 = tk_calloc_array((size_t)P->nr + 1, sizeof *P->r0);
    P->res = tk_calloc_array((size_t)P->nr + 1, sizeof *P->res);
    P->tmp = tk_calloc_array((size_t)P->N + 1, sizeof *P->tmp);
    P->aval = tk_malloc_array((size_t)nz + 1, sizeof *P->aval);
    if (!P->b || !P->r0 || !P->res || !P->tmp || !P->aval)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t r = 0; r < mu; r++)
        P->b[np + r] = tk_graph_cap(g, P->rowarc[r]);
    if ((st = ipm_matrix(P, nz, err)) != TK_OK || (st = ipm_path_columns(P, L, err)) != TK_OK)
        return st;
    return ipm_analyse(P, o, "", err);
}

tk_status_t mcf_barrier_paths(const tk_graph_t *g, const mcf_pathlp_t *L, const tk_mcf_opts_t *o,
                              int *certified, uint8_t *support, tk_mcf_result_t *out,
                              tk_error_t *err)
{
    cert_t C;
    int64_t m = g->m, iters = 0;
    ipm_t P;
    double t0 = mcf_now();
    tk_status_t st = TK_OK;

    *certified = 0;
    memset(&C, 0, sizeof C);
    memset(&P, 0, sizeof P);
    C.best_ub = HUGE_VAL;
    C.len = tk_malloc_array((size_t)m + 1, sizeof *C.len);
    C.load = tk_malloc_array((size_t)m + 1, sizeof *C.load);
    C.best_len = tk_calloc_array((size_t)m + 1, sizeof *C.best_len);
    C.best_load = tk_calloc_array((size_t)m + 1, sizeof *C.best_load);
    if (!C.len || !C.load || !C.best_len || !C.best_load) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    C.support = support;
    P.g = g;
    P.c0 = -1;
    P.use_cg = 1;
    P.certify = certify_paths;
    st = ipm_build_paths(&P, L, o, err);
    if (st == TK_OK) {
        /* the unit-length (hop) bound over the used arcs */
        for (int64_t a = 0; a < m; a++)
            C.best_len[a] = P.arcrow[a] >= 0;
        C.best_ub = path_bound(&P, C.best_len);
        C.have_len = 1;
        st = ipm_round(&P, o, t0, &C, &iters, err);
    }
    ipm_free(&P);
    if (st == TK_OK)
        st = cert_finish(g, &C, iters, o, certified, out, err);
done:
    cert_free(&C);
    return st;
}
