/*
 * mcf_paths.c - maximum concurrent flow restricted to a routing model's path
 * sets: one LP column per path, one equality row per demand pair (the
 * pair's path variables sum to theta), one capacity row per arc.
 */
#include <config.h>

#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcf_internal.h"

/* Sort helper for merging repeated arcs of one path. */
static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

/* All path columns of the routing model. */
typedef struct pool {
    int64_t ncols, nz, capc, capz, npairs;
    int64_t *ptr; /* ncols + 1: first entry (1-based) */
    int *row;     /* entries 1..nz */
    double *val;
    uint8_t *in; /* column in the LP */
} pool_t;

static int pool_reserve(pool_t *P, int64_t entries)
{
    if (P->ncols + 2 > P->capc) {
        int64_t nc = P->capc ? 2 * P->capc : 1024;
        int64_t *p = tk_realloc_array(P->ptr, (size_t)nc, sizeof *p);
        if (!p)
            return 0;
        P->ptr = p;
        uint8_t *in = tk_realloc_array(P->in, (size_t)nc, 1);
        if (!in)
            return 0;
        memset(in + P->capc, 0, (size_t)(nc - P->capc));
        P->in = in;
        P->capc = nc;
    }
    if (P->nz + entries + 2 > P->capz) {
        int64_t nz = P->capz ? 2 * P->capz : 4096;
        while (nz < P->nz + entries + 2)
            nz *= 2;
        int *r = tk_realloc_array(P->row, (size_t)nz, sizeof *r);
        if (!r)
            return 0;
        P->row = r;
        double *v = tk_realloc_array(P->val, (size_t)nz, sizeof *v);
        if (!v)
            return 0;
        P->val = v;
        P->capz = nz;
    }
    return 1;
}

static void pool_free(pool_t *P)
{
    free(P->ptr);
    free(P->row);
    free(P->val);
    free(P->in);
}

/* Weak-duality bounds on theta from the path sets (GLPK gets theta <= the
 * least of them, see mcf_solve_lp): with unit lengths on the arcs some
 * path uses, theta <= (their capacity) / sum_pairs d * (shortest path
 * length); every path of source s leaves by its first arc, so theta <=
 * (capacity of those first arcs) / (demand of s), and likewise for the last
 * arcs into each destination.  (The first arc of a path from s leaves s.) */
typedef struct bound {
    uint8_t *used, *first, *last; /* m: arc counted already      */
    double *fcap, *lcap;          /* n: first-arc / last-arc capacity */
    double *sdem, *tdem;          /* n: demand out of s / into t  */
    double ucap, alpha;
} bound_t;

static int bound_init(bound_t *B, const tk_graph_t *g)
{
    size_t n = (size_t)g->n + 1, m = (size_t)g->m + 1;
    B->used = tk_calloc_array(m, 1);
    B->first = tk_calloc_array(m, 1);
    B->last = tk_calloc_array(m, 1);
    B->fcap = tk_calloc_array(n, sizeof *B->fcap);
    B->lcap = tk_calloc_array(n, sizeof *B->lcap);
    B->sdem = tk_calloc_array(n, sizeof *B->sdem);
    B->tdem = tk_calloc_array(n, sizeof *B->tdem);
    return B->used && B->first && B->last && B->fcap && B->lcap && B->sdem && B->tdem;
}

static void bound_free(bound_t *B)
{
    free(B->used);
    free(B->first);
    free(B->last);
    free(B->fcap);
    free(B->lcap);
    free(B->sdem);
    free(B->tdem);
}

static void bound_path(bound_t *B, const tk_graph_t *g, tk_id_t s, const int64_t *arc, int64_t len)
{
    if (len <= 0)
        return;
    for (int64_t i = 0; i < len; i++)
        if (!B->used[arc[i]]) {
            B->used[arc[i]] = 1;
            B->ucap += tk_graph_cap(g, arc[i]);
        }
    if (!B->first[arc[0]]) {
        B->first[arc[0]] = 1;
        B->fcap[s] += tk_graph_cap(g, arc[0]);
    }
    if (!B->last[arc[len - 1]]) {
        B->last[arc[len - 1]] = 1;
        B->lcap[g->head[arc[len - 1]]] += tk_graph_cap(g, arc[len - 1]);
    }
}

static double bound_value(const bound_t *B, const tk_graph_t *g)
{
    double t = B->alpha > 0 ? B->ucap / B->alpha : HUGE_VAL;
    for (int64_t v = 0; v < g->n; v++) {
        if (B->sdem[v] > 0 && B->fcap[v] / B->sdem[v] < t)
            t = B->fcap[v] / B->sdem[v];
        if (B->tdem[v] > 0 && B->lcap[v] / B->tdem[v] < t)
            t = B->lcap[v] / B->tdem[v];
    }
    return t;
}

/* Whether the flow of theta = tb times the demands fits the capacities
 * with every pair's demand split over its paths by a few passes of rip-up
 * and reroute: the pair's flow is taken off, then put back in SPLIT_CHUNKS
 * equal chunks, each on the path whose fullest arc would be the least full
 * (ties: the first path).  With the a-priori bound tb, such a flow proves
 * theta = tb without an LP: with plain ksp:K the K paths of a pair often
 * share their first arc (depth-first ties) and that source's cut is the
 * bound; on the random regular graphs of Figure 14 of Faizian et al.,
 * "Random Regular Graph and Generalized De Bruijn Graph with k-shortest
 * Path Routing", from N = 500 this settles most samples
 * (tests/bench/RESULTS.md).  Deterministic; O(passes * SPLIT_CHUNKS *
 * the pool's entries) time.  load: m doubles, frac: ncols doubles. */
#define SPLIT_CHUNKS 16
#define SPLIT_PASSES 4
/* The largest load / capacity on the arcs of column c if tb * q times
 * its entries were added to load (the loop the split check spends its time
 * in: the pool's arrays as local restrict pointers, the capacities as one
 * array or none). */
static inline double split_peak(const tk_graph_t *g, const pool_t *P, int64_t c, double tb,
                                double q, const double *restrict load)
{
    const int *restrict row = P->row;
    const double *restrict val = P->val;
    const double *restrict cap = g->cap;
    const int64_t shift = P->npairs + 1;
    double v = 0;
    for (int64_t k = P->ptr[c] + 1; k < P->ptr[c + 1]; k++) {
        int64_t a = row[k] - shift;
        double x = (load[a] + tb * val[k] * q) / (cap ? cap[a] : 1.0);
        v = x > v ? x : v; /* fmax without the call: v is never NaN, a NaN x is skipped */
    }
    return v;
}

static int split_fits(const tk_graph_t *g, const pool_t *P, double tb, double *load, double *frac)
{
    const double q = 1.0 / SPLIT_CHUNKS;
    for (int64_t a = 0; a < g->m; a++)
        load[a] = 0;
    for (int64_t j = 0; j < P->ncols; j++)
        frac[j] = 0;
    for (int pass = 0; pass < SPLIT_PASSES; pass++) {
        double peak = 0;
        for (int64_t j = 0; j < P->ncols;) {
            int pair = P->row[P->ptr[j]];
            int64_t e = j;
            while (e < P->ncols && P->row[P->ptr[e]] == pair)
                e++;
            for (int64_t c = j; c < e; c++) {
                for (int64_t k = P->ptr[c] + 1; k < P->ptr[c + 1]; k++)
                    load[P->row[k] - P->npairs - 1] -= tb * P->val[k] * frac[c];
                frac[c] = 0;
            }
            for (int chunk = 0; chunk < SPLIT_CHUNKS; chunk++) {
                int64_t best = j;
                double bestv = HUGE_VAL;
                for (int64_t c = j; c < e; c++) {
                    double v = split_peak(g, P, c, tb, q, load);
                    if (v < bestv) {
                        bestv = v;
                        best = c;
                    }
                }
                frac[best] += q;
                for (int64_t k = P->ptr[best] + 1; k < P->ptr[best + 1]; k++)
                    load[P->row[k] - P->npairs - 1] += tb * P->val[k] * q;
            }
            j = e;
        }
        for (int64_t a = 0; a < g->m; a++)
            peak = fmax(peak, load[a] / tk_graph_cap(g, a));
        if (peak <= 1 + 1e-12)
            return 1;
    }
    return 0;
}

/* Row generation (a cutting-plane loop) on the path LP: the LP starts with
 * the capacity rows of the arcs in a guess of the bottleneck, and after
 * every optimal solve the rows of the arcs its flow overloads are added,
 * until it overloads none: the restricted LP is a relaxation, so its
 * optimum is then the whole LP's.  Most arcs of a routed pattern have
 * slack at the optimum (measured in tests/bench/RESULTS.md), so the LP
 * GLPK factorizes is a fraction of the whole.  An arc counts as overloaded
 * beyond a relative ROWGEN_TOL, well under the tolerances of the results'
 * comparisons. */
#define ROWGEN_TOL 1e-12
#define ROWGEN_START 1.0
typedef struct rowgen {
    const tk_graph_t *g;
    int *rowof;    /* m: the arc's capacity row (1 = first), 0 = none */
    int nrows;     /* capacity rows in the LP */
    int64_t *aptr; /* m + 1: the arc's entries in acol / aval */
    int *acol;     /* LP column */
    double *aval;
    mcf_newrows_t nr; /* rowptr m + 1, col / val all entries, ub m */
} rowgen_t;

static void rowgen_free(rowgen_t *R)
{
    free(R->rowof);
    free(R->aptr);
    free(R->acol);
    free(R->aval);
    free(R->nr.rowptr);
    free(R->nr.col);
    free(R->nr.val);
    free(R->nr.ub);
}

static tk_status_t rowgen_sep(void *ctx, const double *x, int ncols, mcf_newrows_t *out,
                              tk_error_t *err)
{
    rowgen_t *R = ctx;
    mcf_newrows_t *nr = &R->nr;
    int64_t nz = 0;

    (void)ncols;
    (void)err;
    nr->nrows = 0;
    for (int64_t a = 0; a < R->g->m; a++) {
        double f = 0, c = tk_graph_cap(R->g, a);
        if (R->rowof[a])
            continue;
        for (int64_t e = R->aptr[a]; e < R->aptr[a + 1]; e++)
            f += R->aval[e] * x[R->acol[e]];
        if (!(f > c * (1 + ROWGEN_TOL)))
            continue;
        R->rowof[a] = ++R->nrows;
        nr->rowptr[nr->nrows] = nz;
        nr->ub[nr->nrows] = c;
        for (int64_t e = R->aptr[a]; e < R->aptr[a + 1]; e++) {
            nr->col[nz] = R->acol[e];
            nr->val[nz] = R->aval[e];
            nz++;
        }
        nr->nrows++;
    }
    nr->rowptr[nr->nrows] = nz;
    *out = *nr;
    return TK_OK;
}

/* GLPK's simplex on the pool's columns marked in P->in; start (m flags, or
 * NULL for all) marks the arcs whose capacity rows the LP starts with, the
 * others joining by row generation. */
static tk_status_t pool_solve(const tk_graph_t *g, const pool_t *P, double tcap, double tbound,
                              const uint8_t *start, const tk_mcf_opts_t *o, tk_mcf_result_t *out,
                              tk_error_t *err)
{
    mcf_lpbuf_t b;
    rowgen_t R;
    int64_t nnz = P->npairs, ncols = 1, all = P->npairs;
    tk_status_t st;

    memset(&b, 0, sizeof b);
    memset(&R, 0, sizeof R);
    R.g = g;
    R.rowof = tk_calloc_array((size_t)g->m + 1, sizeof *R.rowof);
    if (start)
        R.aptr = tk_calloc_array((size_t)g->m + 2, sizeof *R.aptr);
    if (!R.rowof || (start && !R.aptr)) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t a = 0; a < g->m; a++)
        if (!start || start[a])
            R.rowof[a] = ++R.nrows;
    for (int64_t j = 0; j < P->ncols; j++)
        if (P->in[j]) {
            nnz++; /* the pair row */
            for (int64_t k = P->ptr[j] + 1; k < P->ptr[j + 1]; k++) {
                int64_t a = P->row[k] - P->npairs - 1;
                if (start) { /* the transposed pool's counts */
                    all++;
                    R.aptr[a + 2]++;
                }
                if (R.rowof[a])
                    nnz++;
            }
        }
    if ((st = mcf_lpbuf_alloc(&b, nnz, R.nrows, o->mem_limit, err)) != TK_OK)
        goto done;
    if (start) {
        /* the transposed pool: arc -> (LP column, value) */
        for (int64_t a = 0; a < g->m; a++)
            R.aptr[a + 2] += R.aptr[a + 1];
        R.acol = tk_malloc_array((size_t)all + 1, sizeof *R.acol);
        R.aval = tk_malloc_array((size_t)all + 1, sizeof *R.aval);
        R.nr.rowptr = tk_malloc_array((size_t)g->m + 1, sizeof *R.nr.rowptr);
        R.nr.col = tk_malloc_array((size_t)all + 1, sizeof *R.nr.col);
        R.nr.val = tk_malloc_array((size_t)all + 1, sizeof *R.nr.val);
        R.nr.ub = tk_malloc_array((size_t)g->m + 1, sizeof *R.nr.ub);
        if (!R.acol || !R.aval || !R.nr.rowptr || !R.nr.col || !R.nr.val || !R.nr.ub) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            goto done;
        }
    }
    for (int64_t a = 0; a < g->m; a++)
        if (R.rowof[a])
            b.ub[R.rowof[a] - 1] = tk_graph_cap(g, a);
    for (int64_t pr = 1; pr <= P->npairs; pr++)
        mcf_lp_put(&b, pr, 1, -1.0);
    for (int64_t j = 0; j < P->ncols; j++) {
        if (!P->in[j])
            continue;
        ncols++;
        mcf_lp_put(&b, P->row[P->ptr[j]], ncols, P->val[P->ptr[j]]);
        for (int64_t k = P->ptr[j] + 1; k < P->ptr[j + 1]; k++) {
            int64_t a = P->row[k] - P->npairs - 1;
            if (R.rowof[a])
                mcf_lp_put(&b, P->npairs + R.rowof[a], ncols, P->val[k]);
            if (start) {
                int64_t e = R.aptr[a + 1]++;
                R.acol[e] = (int)ncols;
                R.aval[e] = P->val[k];
            }
        }
    }
    st = mcf_solve_lp(g, &b, (int)(P->npairs + R.nrows), (int)ncols, (int)P->npairs, tcap, tbound,
                      NULL, NULL, start ? rowgen_sep : NULL, &R, R.rowof, o, out, err);
done:
    mcf_lpbuf_free(&b);
    rowgen_free(&R);
    return st;
}

/* The options of the next solve stage, with what is left of the run's
 * time limit (counted from t0: path enumeration, the split check and
 * earlier stages use it up too); TK_ELIMIT when nothing is left. */
static tk_status_t stage_opts(const tk_mcf_opts_t *o, double t0, tk_mcf_opts_t *so, tk_error_t *err)
{
    *so = *o;
    if (o->time_limit > 0) {
        so->time_limit = o->time_limit - (mcf_now() - t0);
        if (so->time_limit <= 0)
            return tk_error_set(err, TK_ELIMIT, NULL, 0, "time limit of %g s reached (exact LP)",
                                o->time_limit);
    }
    return TK_OK;
}

/* A stage's time limit error names the run's limit, not the stage's. */
static tk_status_t stage_status(tk_status_t st, const tk_mcf_opts_t *o, tk_error_t *err)
{
    if (st == TK_ELIMIT && err && o->time_limit > 0)
        tk_error_set(err, TK_ELIMIT, NULL, 0, "time limit of %g s reached (exact LP)",
                     o->time_limit);
    return st;
}

/* No LP needed: no network demand (theta is the server cap) or a demand
 * that no path serves (theta = 0).  *settled = 1 then, out filled. */
static tk_status_t trivial_case(const tk_graph_t *g, const tk_swdemand_t *d, double tcap,
                                int *settled, tk_mcf_result_t *out, tk_error_t *err)
{
    tk_status_t st;
    int bad;

    *settled = 0;
    if (!mcf_has_network_demand(d)) {
        out->theta = out->upper = tcap;
        out->method = TK_MCF_EXACT;
        out->limited_by_servers = isfinite(tcap);
        *settled = 1;
        return TK_OK;
    }
    if ((st = mcf_unreachable_demand(g, d, &bad, err)) != TK_OK)
        return st;
    if (bad) {
        out->method = TK_MCF_EXACT;
        *settled = 1;
    }
    return TK_OK;
}

/* Append one pair's paths (ps; pair row npairs, demand w from s) to the
 * pool as columns: the pair row +1, then the capacity rows of the arcs
 * (arc ids for now, sorted, repeated arcs merged) at w * multiplicity.
 * The a-priori bounds see every path and the pair's shortest one.
 * tmp: work of *tmpcap arcs, grown as needed. */
static tk_status_t pool_add_pair(pool_t *P, bound_t *B, const tk_graph_t *g, tk_id_t s, tk_id_t t,
                                 double w, int64_t npairs, const tk_pathset_t *ps, int64_t **tmp,
                                 int64_t *tmpcap, tk_error_t *err)
{
    int64_t bestlen = INT64_MAX;

    for (int64_t p = 0; p < ps->npaths; p++) {
        int64_t len = ps->off[p + 1] - ps->off[p];
        if (!pool_reserve(P, len + 1))
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        if (len > *tmpcap) {
            free(*tmp);
            *tmpcap = 2 * len;
            *tmp = tk_malloc_array((size_t)*tmpcap, sizeof **tmp);
            if (!*tmp)
                return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        }
        P->ptr[P->ncols] = P->nz + 1;
        P->nz++;
        P->row[P->nz] = (int)npairs;
        P->val[P->nz] = 1.0;
        memcpy(*tmp, ps->arc + ps->off[p], (size_t)len * sizeof **tmp);
        qsort(*tmp, (size_t)len, sizeof **tmp, cmp_i64);
        for (int64_t i = 0; i < len;) {
            int64_t j = i;
            while (j < len && (*tmp)[j] == (*tmp)[i])
                j++;
            P->nz++;
            P->row[P->nz] = (int)(*tmp)[i]; /* arc id; shifted by pool_build */
            P->val[P->nz] = w * (double)(j - i);
            i = j;
        }
        if (len < bestlen)
            bestlen = len;
        bound_path(B, g, s, ps->arc + ps->off[p], len);
        P->ncols++;
    }
    P->ptr[P->ncols] = P->nz + 1;
    /* Column generation from one shortest path per pair was measured
     * slower (GDBG(100,16), ALLPATH(3), switch permutation: 12 s against
     * 4 s): nearly every path is in the optimal basis.  So the whole pool
     * goes in. */
    for (int64_t j = P->ncols - ps->npaths; j < P->ncols; j++)
        P->in[j] = 1;
    if (bestlen > 0) {
        B->alpha += w * (double)bestlen;
        B->sdem[s] += w;
        B->tdem[t] += w;
    }
    return TK_OK;
}

/* The pool: every path (at most max_paths per pair) of every pair with
 * demand as an LP column, 1-based entries as GLPK wants: pair rows
 * 1..npairs, then the capacity row npairs + 1 + a of arc a.  Fills the
 * a-priori bounds B.  Errors: the router's, TK_EUNSUPPORTED (a pair
 * without paths), TK_ELIMIT (beyond GLPK's int indices), TK_ENOMEM. */
static tk_status_t pool_build(const tk_router_t *r, const tk_swdemand_t *d, uint64_t max_paths,
                              uint64_t mem_limit, pool_t *P, bound_t *B, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_route_ws_t *ws = NULL;
    tk_pathset_t ps;
    int64_t *tmp = NULL, tmpcap = 0, npairs = 0;
    tk_status_t st;

    tk_pathset_init(&ps);
    if ((st = tk_route_ws_new(r, &ws, err)) != TK_OK)
        return st;
    for (tk_id_t s = 0; s < d->n; s++)
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++) {
            if (!(d->w[e] > 0))
                continue;
            st = tk_route_paths(r, ws, s, d->dst[e], max_paths, &ps, err);
            /* A column per distinct walk: draws through different
             * intermediates that give the same walk are one column. */
            for (int64_t p = 0; st == TK_OK && p < ps.npaths; p++)
                if (ps.via[p] >= 0) {
                    st = tk_pathset_merge_walks(&ps, err);
                    break;
                }
            if (st != TK_OK)
                goto done;
            if (ps.npaths == 0) {
                st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                  "routing %s has no path from switch %d to %d",
                                  tk_router_spec(r)->text, (int)s, (int)d->dst[e]);
                goto done;
            }
            npairs++;
            st = pool_add_pair(P, B, g, s, d->dst[e], d->w[e], npairs, &ps, &tmp, &tmpcap, err);
            if (st != TK_OK)
                goto done;
            /* the pool as allocated, against the limit: past it the
             * build stops here rather than when the machine runs out */
            uint64_t held = (uint64_t)P->capc * (sizeof *P->ptr + sizeof *P->in) +
                            (uint64_t)P->capz * (sizeof *P->row + sizeof *P->val);
            if (mem_limit && held > mem_limit) {
                char b[32];
                tk_fmt_bytes(mem_limit, b, sizeof b);
                st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                                  "%s: the path pool would need more than the memory limit of %s "
                                  "after %" PRId64 " switch pairs (TOPOKIT_MEMORY_LIMIT)",
                                  tk_router_spec(r)->text, b, npairs);
                goto done;
            }
        }
    if (npairs + g->m >= INT_MAX || P->ncols >= INT_MAX || P->nz >= INT_MAX) {
        st = tk_error_set(err, TK_ELIMIT, NULL, 0, "LP too large for GLPK");
        goto done;
    }
    /* capacity rows come after the npairs pair rows */
    for (int64_t j = 0; j < P->ncols; j++)
        for (int64_t k = P->ptr[j] + 1; k < P->ptr[j + 1]; k++)
            P->row[k] += (int)npairs + 1;
    P->npairs = npairs;
done:
    free(tmp);
    tk_pathset_destroy(&ps);
    tk_route_ws_free(ws);
    return st;
}

/* The split check (split_fits) at the a-priori bound tb: when the split
 * fits, theta = tb with no LP (*settled = 1, out filled; not with --links,
 * which wants the LP's prices); otherwise the arcs it loads to capacity
 * start the row generation (*start: m flags, *nstart of them). */
static tk_status_t split_check(const tk_graph_t *g, const pool_t *P, double tb, double tcap,
                               const tk_mcf_opts_t *o, uint8_t **start, int64_t *nstart,
                               int *settled, tk_mcf_result_t *out, tk_error_t *err)
{
    double *load = tk_malloc_array((size_t)g->m + 1, sizeof *load);
    double *frac = tk_malloc_array((size_t)P->ncols + 1, sizeof *frac);
    int fits = 0;

    *settled = 0;
    *start = tk_malloc_array((size_t)g->m + 1, 1);
    if (!load || !frac || !*start) {
        free(load);
        free(frac);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    fits = split_fits(g, P, tb, load, frac);
    for (int64_t a = 0; a < g->m; a++) {
        (*start)[a] = load[a] >= ROWGEN_START * tk_graph_cap(g, a);
        *nstart += (*start)[a];
    }
    free(load);
    free(frac);
    if (fits && !o->links) {
        out->theta = out->upper = tb;
        out->gap = 0;
        out->method = TK_MCF_EXACT;
        out->no_lp = 1;
        out->limited_by_servers = isfinite(tcap) && tb >= tcap;
        *settled = 1;
    }
    return TK_OK;
}

/* The barrier on the path LP; *settled = 1 when it answers: certified, or
 * (without --links) the simplex on the paths of the barrier's best flow
 * meets the barrier's upper bound.  Otherwise out is reset and every path
 * is back in the pool for the simplex over all paths. */
static tk_status_t barrier_stage(const tk_graph_t *g, pool_t *P, const bound_t *B, double tcap,
                                 const uint8_t *start, const tk_mcf_opts_t *o, double t0,
                                 int *settled, tk_mcf_result_t *out, tk_error_t *err)
{
    mcf_pathlp_t L = {P->npairs, P->ncols, P->ptr, P->row, P->val};
    uint8_t *support = tk_calloc_array((size_t)P->ncols + 1, 1);
    tk_mcf_opts_t so;
    int certified = 0;
    double ub;
    tk_status_t st;

    *settled = 0;
    if (!support)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if ((st = stage_opts(o, t0, &so, err)) != TK_OK)
        goto done;
    if ((st = stage_status(mcf_barrier_paths(g, &L, &so, &certified, support, out, err), o, err)) !=
        TK_OK)
        goto done;
    if (certified) {
        out->barrier = 1;
        mcf_cap_theta(out, tcap);
        *settled = 1;
        goto done;
    }
    ub = out->upper;
    tk_mcf_result_destroy(out);
    tk_mcf_result_init(out);
    if (!isfinite(ub) || o->links)
        goto done;
    /* the simplex on the paths the barrier's best flow uses: a
     * restriction, so its optimum is a lower bound, which meets the
     * barrier's upper bound when the support was right */
    for (int64_t j = 0; j < P->ncols; j++)
        P->in[j] = support[j];
    if ((st = stage_opts(o, t0, &so, err)) != TK_OK)
        goto done;
    st = stage_status(pool_solve(g, P, tcap, fmin(ub, bound_value(B, g)), start, &so, out, err), o,
                      err);
    if (st != TK_OK)
        goto done;
    if (out->theta >= fmin(ub, tcap) * (1 - MCF_IPM_GAP)) {
        out->upper = fmax(out->theta, fmin(ub, tcap));
        out->gap = (out->upper - out->theta) / out->upper;
        out->barrier = 1;
        *settled = 1;
        goto done;
    }
    tk_mcf_result_destroy(out);
    tk_mcf_result_init(out);
    for (int64_t j = 0; j < P->ncols; j++)
        P->in[j] = 1;
done:
    free(support);
    return st;
}

tk_status_t tk_mcf_solve_paths(const tk_router_t *r, const tk_swdemand_t *d, uint64_t max_paths,
                               const tk_mcf_opts_t *o, tk_mcf_result_t *out, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    uint8_t *start = NULL;
    int64_t nstart = 0;
    pool_t P;
    bound_t B;
    tk_mcf_opts_t so;
    double tcap, t0 = mcf_now();
    tk_status_t st;
    int settled = 0;

    tk_mcf_result_init(out);
    memset(&P, 0, sizeof P);
    memset(&B, 0, sizeof B);
    if ((st = mcf_check_inputs(g, d, o, err)) != TK_OK)
        return st;
    tcap = mcf_server_cap(d, o);
    if ((st = trivial_case(g, d, tcap, &settled, out, err)) != TK_OK)
        return st;
    if (settled) {
        out->seconds = mcf_now() - t0;
        return TK_OK;
    }
    if (!bound_init(&B, g)) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if ((st = pool_build(r, d, max_paths, o->mem_limit, &P, &B, err)) != TK_OK)
        goto done;
    if (!o->no_presolve && isfinite(bound_value(&B, g)) && (!o->links || bound_value(&B, g) > 0)) {
        st = split_check(g, &P, fmin(tcap, bound_value(&B, g)), tcap, o, &start, &nstart, &settled,
                         out, err);
        if (st != TK_OK || settled)
            goto done;
    }
    if (o->lp == TK_MCF_LP_BARRIER ||
        (o->lp == TK_MCF_LP_AUTO && P.ncols >= TK_MCF_AUTO_PATH_BARRIER_COLS &&
         (!start || (double)nstart >= TK_MCF_AUTO_PATH_BARRIER_START * (double)g->m))) {
        st = barrier_stage(g, &P, &B, tcap, start, o, t0, &settled, out, err);
        if (st != TK_OK || settled)
            goto done;
    }
    if ((st = stage_opts(o, t0, &so, err)) != TK_OK)
        goto done;
    st = stage_status(pool_solve(g, &P, tcap, bound_value(&B, g), start, &so, out, err), o, err);
done:
    free(start);
    bound_free(&B);
    pool_free(&P);
    out->seconds = mcf_now() - t0;
    if (st != TK_OK)
        tk_mcf_result_destroy(out);
    return st;
}
