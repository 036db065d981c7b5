/*
 * mcf.c - maximum concurrent flow: option handling, the uniform demand, the
 * source-aggregated arc LP and the routing-restricted path LP (both handed
 * to GLPK through mcf_glpk.c), dispatch between exact and approx.
 */
#include <config.h>

#include <limits.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mcf_internal.h"

void tk_mcf_opts_init(tk_mcf_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->method = TK_MCF_AUTO;
    o->eps = 0.01;
}

void tk_mcf_result_init(tk_mcf_result_t *r)
{
    memset(r, 0, sizeof *r);
}

void tk_mcf_result_destroy(tk_mcf_result_t *r)
{
    if (!r)
        return;
    free(r->sat_arc);
    free(r->sat_dual);
    free(r->sat_load);
    memset(r, 0, sizeof *r);
}

const char *tk_mcf_method_name(tk_mcf_method_t m)
{
    switch (m) {
    case TK_MCF_EXACT:
        return "exact";
    case TK_MCF_APPROX:
        return "approx";
    default:
        return "auto";
    }
}

tk_status_t tk_mcf_uniform(const tk_graph_t *g, uint64_t mem_limit, tk_swdemand_t *out,
                           tk_error_t *err)
{
    if (g->n < 2)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "uniform: needs at least 2 switches (n=%" PRId64 ")", (int64_t)g->n);
    return tk_swdemand_uniform(g, mem_limit, out, err);
}

/* Cap on theta from the per-endpoint injection and ejection limits. */
double mcf_server_cap(const tk_swdemand_t *d, const tk_mcf_opts_t *o)
{
    double cap = HUGE_VAL;
    if (!o->server_limits)
        return cap;
    for (int64_t s = 0; s < d->n; s++) {
        if (d->inject && d->inject[s] > 0 && 1.0 / d->inject[s] < cap)
            cap = 1.0 / d->inject[s];
        if (d->eject && d->eject[s] > 0 && 1.0 / d->eject[s] < cap)
            cap = 1.0 / d->eject[s];
    }
    return cap;
}

tk_status_t mcf_check_inputs(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                             tk_error_t *err)
{
    if (d->n != g->n)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "demands: %d switches, topology has %d",
                            (int)d->n, (int)g->n);
    if (!(o->eps > 0 && o->eps < 1))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "eps=%g: must be in (0, 1)", o->eps);
    if (!(o->time_limit >= 0))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "time-limit=%g: must be >= 0", o->time_limit);
    for (int64_t k = 0; k < d->len; k++)
        if (!(d->w[k] >= 0) || !isfinite(d->w[k]))
            return tk_error_set(err, TK_EINVAL, NULL, 0, "demands: weight %g is not valid",
                                d->w[k]);
    for (int64_t a = 0; a < g->m; a++)
        if (!(tk_graph_cap(g, a) > 0))
            return tk_error_set(err, TK_EINVAL, NULL, 0, "arc %" PRId64 ": capacity must be > 0",
                                a);
    return TK_OK;
}

int mcf_has_network_demand(const tk_swdemand_t *d)
{
    for (int64_t k = 0; k < d->len; k++)
        if (d->w[k] > 0)
            return 1;
    return 0;
}

/* Some demand pair not connected by a directed path? */
tk_status_t mcf_unreachable_demand(const tk_graph_t *g, const tk_swdemand_t *d, int *bad,
                                   tk_error_t *err)
{
    int32_t *seen = tk_malloc_array((size_t)g->n, sizeof *seen);
    tk_id_t *q = tk_malloc_array((size_t)g->n, sizeof *q);
    *bad = 0;
    if (!seen || !q) {
        free(seen);
        free(q);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (tk_id_t v = 0; v < g->n; v++)
        seen[v] = -1;
    for (tk_id_t s = 0; s < g->n && !*bad; s++) {
        if (d->off[s] == d->off[s + 1])
            continue;
        int64_t qh = 0, qt = 0;
        q[qt++] = s;
        seen[s] = s;
        while (qh < qt) {
            tk_id_t u = q[qh++];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                if (seen[g->head[a]] != s) {
                    seen[g->head[a]] = s;
                    q[qt++] = g->head[a];
                }
        }
        for (int64_t k = d->off[s]; k < d->off[s + 1]; k++)
            if (d->w[k] > 0 && seen[d->dst[k]] != s)
                *bad = 1;
    }
    free(seen);
    free(q);
    return TK_OK;
}

/* Fill the saturated-arc list from capacity-row duals and activities. */
static tk_status_t fill_links(const tk_graph_t *g, const double *dual, const double *act,
                              double theta, tk_mcf_result_t *out, tk_error_t *err)
{
    int64_t cnt = 0;
    double norm = 0;
    for (int64_t a = 0; a < g->m; a++)
        if (dual[a] > 1e-9) {
            cnt++;
            norm += dual[a] * tk_graph_cap(g, a);
        }
    out->nsat = 0;
    if (cnt == 0)
        return TK_OK;
    out->sat_arc = tk_malloc_array((size_t)cnt, sizeof *out->sat_arc);
    out->sat_dual = tk_malloc_array((size_t)cnt, sizeof *out->sat_dual);
    out->sat_load = tk_malloc_array((size_t)cnt, sizeof *out->sat_load);
    if (!out->sat_arc || !out->sat_dual || !out->sat_load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    (void)theta;
    for (int64_t a = 0; a < g->m; a++)
        if (dual[a] > 1e-9) {
            out->sat_arc[out->nsat] = a;
            out->sat_dual[out->nsat] = dual[a] / norm;
            out->sat_load[out->nsat] = act[a] / tk_graph_cap(g, a);
            out->nsat++;
        }
    return TK_OK;
}

/* Arrays of one LP under construction. */

void mcf_lpbuf_free(mcf_lpbuf_t *b)
{
    free(b->ia);
    free(b->ja);
    free(b->ar);
    free(b->ub);
    memset(b, 0, sizeof *b);
}

tk_status_t mcf_lpbuf_alloc(mcf_lpbuf_t *b, int64_t nnz, int64_t ncap, uint64_t mem_limit,
                            tk_error_t *err)
{
    /* GLPK keeps about 5 further copies of the matrix in its own layout. */
    uint64_t bytes = (uint64_t)nnz * 16 * 6;
    if (nnz >= INT_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "LP of %" PRId64 " nonzeros is too large for GLPK", nnz);
    if (mem_limit && bytes > mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "LP of %" PRId64 " nonzeros needs about %" PRIu64
                            " MB, over the memory limit (use --method approx)",
                            nnz, bytes >> 20);
    b->ia = tk_malloc_array((size_t)nnz + 1, sizeof *b->ia);
    b->ja = tk_malloc_array((size_t)nnz + 1, sizeof *b->ja);
    b->ar = tk_malloc_array((size_t)nnz + 1, sizeof *b->ar);
    b->ub = tk_malloc_array((size_t)ncap + 1, sizeof *b->ub);
    b->cap = nnz;
    b->nnz = 0;
    if (!b->ia || !b->ja || !b->ar || !b->ub) {
        mcf_lpbuf_free(b);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory building the LP");
    }
    return TK_OK;
}

/* theta's bound for GLPK: a relative margin keeps rounding in the bound's
 * computation from cutting the optimum off */
static double bound_margin(double bound)
{
    return isfinite(bound) ? bound * (1 + 1e-9) : HUGE_VAL;
}

/* Capacity rows' duals and activities (dual, act: by row) by arc instead,
 * through rowof (arc -> row, 1 = first, 0 = none): an arc without a row
 * gets price 0 and activity 0 (it is never reported: fill_links lists the
 * arcs with a positive price). */
static tk_status_t links_by_arc(const tk_graph_t *g, const int *rowof, double *dual, double *act,
                                tk_error_t *err)
{
    double *rd = tk_malloc_array((size_t)g->m + 1, sizeof *rd);
    double *ra = tk_malloc_array((size_t)g->m + 1, sizeof *ra);
    if (!rd || !ra) {
        free(rd);
        free(ra);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    memcpy(rd, dual, (size_t)g->m * sizeof *rd);
    memcpy(ra, act, (size_t)g->m * sizeof *ra);
    for (int64_t a = 0; a < g->m; a++) {
        dual[a] = rowof[a] ? rd[rowof[a] - 1] : 0;
        act[a] = rowof[a] ? ra[rowof[a] - 1] : 0;
    }
    free(rd);
    free(ra);
    return TK_OK;
}

/* Common tail of both exact solvers. */
tk_status_t mcf_solve_lp(const tk_graph_t *g, mcf_lpbuf_t *b, int nrows, int ncols, int nfixed,
                         double tcap, double tbound, mcf_pricer_fn pricer, void *pctx,
                         mcf_separator_fn sep, void *sctx, const int *rowof, const tk_mcf_opts_t *o,
                         tk_mcf_result_t *out, tk_error_t *err)
{
    /* not tbound with links: GLPK's feasibility tolerance would let theta
     * sit on a bound the capacities meet exactly, taking their dual
     * prices; twice it never binds at the optimum */
    double lub = sep && isfinite(tbound) && tbound > 0 ? 2 * tbound : HUGE_VAL;
    double tub = fmin(tcap, o->links ? lub : bound_margin(tbound));
    mcf_lp_t lp = {nrows, ncols, nfixed, b->ub, tub, (int)b->nnz, b->ia, b->ja, b->ar};
    double *dual = NULL, *act = NULL, theta = 0;
    tk_status_t st;

    if (o->links) {
        /* by row (at most m rows), then by arc with rowof */
        dual = tk_calloc_array((size_t)g->m + 1, sizeof *dual);
        act = tk_calloc_array((size_t)g->m + 1, sizeof *act);
        if (!dual || !act) {
            free(dual);
            free(act);
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        }
    }
    st = mcf_glpk_solve(&lp, o->time_limit, 0, pricer, pctx, sep, sctx, &theta, dual, act,
                        &out->iterations, &out->rounds, err);
    if (st == TK_OK) {
        /* GLPK may settle theta on its bound within its feasibility
         * tolerance; the certified bound itself is then the optimum */
        if (theta > tbound)
            theta = tbound;
        out->theta = out->upper = theta;
        out->gap = 0;
        out->method = TK_MCF_EXACT;
        out->limited_by_servers = isfinite(tcap) && theta >= tcap * (1 - 1e-9);
        if (o->links && rowof)
            st = links_by_arc(g, rowof, dual, act, err);
        if (o->links && st == TK_OK)
            st = fill_links(g, dual, act, theta, out, err);
    }
    free(dual);
    free(act);
    return st;
}

/* Column generation state of the arc formulation.  Rows (k, v) of the flow
 * conservation of source k at a node v whose only in-arc in the source's
 * BFS DAG is par(v) are eliminated with that arc's variable: x(par(v)) =
 * theta w(v) + the flow out of v, substituted into every row it appears in
 * (the capacity row of par(v) and the row of the tail, recursively up to
 * the first kept row).  This removes about 40% of the rows of uniform
 * traffic on random regular graphs.  A priced column that enters an
 * eliminated node voids the elimination: the LP is then rebuilt without. */
typedef struct arcgen {
    const tk_graph_t *g;
    const tk_swdemand_t *d;
    const tk_id_t *tail;
    tk_id_t *src; /* S active sources                      */
    int64_t S, nfixed;
    uint8_t *in;     /* S*m: column (k, a) in the LP           */
    int32_t *rowid;  /* S*n: row of (k, v); 0: s or eliminated */
    int64_t *par;    /* S*n: the eliminated in-arc, or -1      */
    tk_id_t *order;  /* S*n: BFS order of source k             */
    double *pi;      /* n                                      */
    int broke;       /* a priced column enters an eliminated node */
    int64_t *colptr; /* buffers of the new columns             */
    int *row;
    double *val;
    int64_t cap, nzcap;
} arcgen_t;

static tk_status_t arc_reserve(arcgen_t *G, int64_t nc, int64_t nz, tk_error_t *err)
{
    if (nc + 1 > G->cap) {
        int64_t nb = G->cap ? 2 * G->cap : 1024;
        while (nb < nc + 1)
            nb *= 2;
        int64_t *cp = tk_realloc_array(G->colptr, (size_t)nb + 1, sizeof *cp);
        if (!cp)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        G->colptr = cp;
        G->cap = nb;
    }
    if (nz + 1 > G->nzcap) {
        int64_t nb = G->nzcap ? 2 * G->nzcap : 8192;
        while (nb < nz + 1)
            nb *= 2;
        int *rw = tk_realloc_array(G->row, (size_t)nb + 1, sizeof *rw);
        if (rw)
            G->row = rw;
        double *vl = tk_realloc_array(G->val, (size_t)nb + 1, sizeof *vl);
        if (vl)
            G->val = vl;
        if (!rw || !vl)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        G->nzcap = nb;
    }
    return TK_OK;
}

/* Entries of the term "+x" leaving node u for source k: walk up the
 * eliminated in-arcs to the first kept row.  Appends to row/val at *nz
 * (at most n + 1 entries); coef: the term's value. */
static void arc_walk_up(const arcgen_t *G, int64_t k, tk_id_t u, double coef, int *row, double *val,
                        int64_t *nz)
{
    int64_t n = G->g->n;
    tk_id_t s = G->src[k];
    while (u != s) {
        int64_t p = G->par[k * n + u];
        if (p < 0) {
            (*nz)++;
            row[*nz] = G->rowid[k * n + u];
            val[*nz] = coef;
            return;
        }
        (*nz)++;
        row[*nz] = (int)(G->nfixed + p + 1);
        val[*nz] = coef;
        u = G->tail[p];
    }
}

/* Pricing: add every arc column with positive reduced cost
 * -(pi(u) - pi(v) + y(a)) (pi(s) = 0; pi of an eliminated node v is
 * pi(tail(par v)) + y(par v), its in-arc having reduced cost 0). */
static tk_status_t arc_pricer(void *ctx, const double *dual, mcf_newcols_t *out, tk_error_t *err)
{
    arcgen_t *G = ctx;
    const tk_graph_t *g = G->g;
    int64_t n = g->n, m = g->m, nc = 0, nz = 0;
    const double *y = dual + G->nfixed + 1;
    tk_status_t st;

    for (int64_t k = 0; k < G->S; k++) {
        tk_id_t s = G->src[k];
        const tk_id_t *ord = G->order + k * n;
        G->pi[s] = 0;
        for (int64_t i = 1; i < n; i++) {
            tk_id_t v = ord[i];
            int64_t p = G->par[k * n + v];
            G->pi[v] = p < 0 ? dual[G->rowid[k * n + v]] : G->pi[G->tail[p]] + y[p];
        }
        for (int64_t a = 0; a < m; a++) {
            tk_id_t u = G->tail[a], v = g->head[a];
            if (u == v || v == s || G->in[k * m + a])
                continue;
            double rc = -(G->pi[u] - G->pi[v] + y[a]);
            if (rc <= 1e-9)
                continue;
            if (G->par[k * n + v] >= 0) {
                G->broke = 1;
                out->ncols = 0;
                return TK_OK;
            }
            if ((st = arc_reserve(G, nc + 1, nz + n + 2, err)) != TK_OK)
                return st;
            G->colptr[nc] = nz + 1;
            arc_walk_up(G, k, u, 1.0, G->row, G->val, &nz);
            nz++;
            G->row[nz] = G->rowid[k * n + v];
            G->val[nz] = -1.0;
            nz++;
            G->row[nz] = (int)(G->nfixed + a + 1);
            G->val[nz] = 1.0;
            G->in[k * m + a] = 1;
            nc++;
        }
    }
    if (nc > 0)
        G->colptr[nc] = nz + 1;
    out->ncols = nc;
    out->colptr = G->colptr;
    out->row = G->row;
    out->val = G->val;
    return TK_OK;
}

/* Each source's BFS DAG: its BFS order (unreachable nodes last), the
 * in-arcs on shortest paths as the LP's first columns (G->in), and with
 * elim the rows it eliminates (a node whose only DAG in-arc is par(v));
 * the kept rows are numbered 1..*nfixed.  dist, npar: n of work. */
static void arc_dags(arcgen_t *G, int elim, int32_t *dist, int32_t *npar, int64_t *nfixed)
{
    const tk_graph_t *g = G->g;
    const tk_swdemand_t *d = G->d;
    int64_t n = g->n, m = g->m, k = 0;

    for (tk_id_t s = 0; s < n; s++) {
        if (d->off[s + 1] == d->off[s])
            continue;
        tk_id_t *q = G->order + k * n;
        int32_t *rid = G->rowid + k * n;
        int64_t *par = G->par + k * n;
        G->src[k] = s;
        for (tk_id_t v = 0; v < n; v++) {
            dist[v] = -1;
            npar[v] = 0;
            par[v] = -1;
        }
        int64_t qh = 0, qt = 0;
        q[qt++] = s;
        dist[s] = 0;
        while (qh < qt) {
            tk_id_t u = q[qh++];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    q[qt++] = v;
                }
                if (dist[v] == dist[u] + 1 && u != v) {
                    npar[v]++;
                    par[v] = a;
                    G->in[k * m + a] = 1;
                }
            }
        }
        for (tk_id_t v = 0; v < n; v++) /* unreachable nodes last */
            if (dist[v] < 0)
                q[qt++] = v;
        for (int64_t i = 0; i < n; i++) {
            tk_id_t v = q[i];
            if (v != s && npar[v] == 1 && elim) {
                rid[v] = 0;
                continue;
            }
            par[v] = -1;
            rid[v] = v == s ? 0 : (int32_t)++ * nfixed;
        }
        k++;
    }
}

/* The LP's nonzeros: every kept DAG arc column has 3 entries plus its
 * chain up the eliminated arcs; theta's column at most S * n + m. */
static int64_t arc_nnz(const arcgen_t *G)
{
    const tk_graph_t *g = G->g;
    int64_t n = g->n, m = g->m, nnz = 0, extra = 0;

    for (int64_t k = 0; k < G->S; k++)
        for (int64_t a = 0; a < m; a++)
            if (G->in[k * m + a] && G->par[k * n + g->head[a]] < 0)
                nnz += 3;
    nnz += G->S * n + m;
    /* exact count of the chain entries */
    for (int64_t k = 0; k < G->S; k++)
        for (int64_t a = 0; a < m; a++)
            if (G->in[k * m + a] && G->par[k * n + g->head[a]] < 0)
                for (tk_id_t u = G->tail[a]; u != G->src[k] && G->par[k * n + u] >= 0;
                     u = G->tail[G->par[k * n + u]])
                    extra++;
    return nnz + extra;
}

/* The flow columns of the DAG arcs into b (*ncols counts them after theta),
 * and theta's coefficients by row into tcoef: a demand to a kept node on
 * its row, to an eliminated node on its in-arc's capacity row and up the
 * chain. */
static void arc_columns(arcgen_t *G, mcf_lpbuf_t *b, double *tcoef, int64_t *ncols)
{
    const tk_graph_t *g = G->g;
    const tk_swdemand_t *d = G->d;
    int64_t n = g->n, m = g->m, nfixed = G->nfixed;

    for (int64_t k = 0; k < G->S; k++) {
        tk_id_t s = G->src[k];
        for (int64_t a = 0; a < m; a++) {
            tk_id_t v = g->head[a];
            if (!G->in[k * m + a] || G->par[k * n + v] >= 0)
                continue;
            int64_t z = 0;
            (*ncols)++;
            arc_walk_up(G, k, G->tail[a], 1.0, G->row, G->val, &z);
            for (int64_t i = 1; i <= z; i++)
                mcf_lp_put(b, G->row[i], *ncols, G->val[i]);
            mcf_lp_put(b, G->rowid[k * n + v], *ncols, -1.0);
            mcf_lp_put(b, nfixed + a + 1, *ncols, 1.0);
        }
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++) {
            tk_id_t t = d->dst[e];
            int64_t z = 0;
            if (t == s || d->w[e] == 0)
                continue;
            if (G->par[k * n + t] < 0) {
                tcoef[G->rowid[k * n + t]] += d->w[e];
                continue;
            }
            /* demand at an eliminated node: its in-arc, then up */
            int64_t p = G->par[k * n + t];
            tcoef[nfixed + p + 1] += d->w[e];
            arc_walk_up(G, k, G->tail[p], d->w[e], G->row, G->val, &z);
            for (int64_t i = 1; i <= z; i++)
                tcoef[G->row[i]] += G->val[i];
        }
    }
}

static void arcgen_free(arcgen_t *G)
{
    free(G->src);
    free(G->in);
    free(G->rowid);
    free(G->par);
    free(G->order);
    free(G->pi);
    free(G->colptr);
    free(G->row);
    free(G->val);
}

/* Source-aggregated arc formulation, started on each source's
 * shortest-path (hop) DAG and completed by column generation; elim: use
 * the row elimination above. */
static tk_status_t exact_arc(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                             double tcap, int elim, int *broke, tk_mcf_result_t *out,
                             tk_error_t *err)
{
    int64_t n = g->n, m = g->m, S = 0, ncols = 1, nrows, nfixed = 0;
    tk_id_t *tail = NULL;
    int32_t *dist = NULL, *npar = NULL;
    double *tcoef = NULL;
    arcgen_t G;
    mcf_lpbuf_t b;
    tk_status_t st;

    *broke = 0;
    memset(&b, 0, sizeof b);
    memset(&G, 0, sizeof G);
    for (int64_t s = 0; s < n; s++)
        if (d->off[s + 1] > d->off[s])
            S++;
    if ((double)S * (double)n + m >= (double)INT_MAX ||
        (double)S * (double)m + 1 >= (double)INT_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "LP too large for GLPK");
    if (o->mem_limit && (uint64_t)S * (uint64_t)m * 60 > o->mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "exact LP of %" PRId64 " x %" PRId64
                            " flow columns is over the memory limit (use --method approx)",
                            S, m);
    tail = tk_malloc_array((size_t)m + 1, sizeof *tail);
    dist = tk_malloc_array((size_t)n, sizeof *dist);
    npar = tk_malloc_array((size_t)n, sizeof *npar);
    G.src = tk_malloc_array((size_t)S + 1, sizeof *G.src);
    G.in = tk_calloc_array((size_t)(S * m) + 1, 1);
    G.rowid = tk_malloc_array((size_t)(S * n) + 1, sizeof *G.rowid);
    G.par = tk_malloc_array((size_t)(S * n) + 1, sizeof *G.par);
    G.order = tk_malloc_array((size_t)(S * n) + 1, sizeof *G.order);
    G.pi = tk_malloc_array((size_t)n, sizeof *G.pi);
    if (!tail || !dist || !npar || !G.src || !G.in || !G.rowid || !G.par || !G.order || !G.pi) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t u = 0; u < n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            tail[a] = (tk_id_t)u;
    G.g = g;
    G.d = d;
    G.tail = tail;
    G.S = S;
    arc_dags(&G, elim, dist, npar, &nfixed);
    G.nfixed = nfixed;
    nrows = nfixed + m;
    tcoef = tk_calloc_array((size_t)nrows + 1, sizeof *tcoef);
    if (!tcoef) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if ((st = mcf_lpbuf_alloc(&b, arc_nnz(&G), m, o->mem_limit, err)) != TK_OK)
        goto done;
    for (int64_t a = 0; a < m; a++)
        b.ub[a] = tk_graph_cap(g, a);
    if ((st = arc_reserve(&G, 1, n + 2, err)) != TK_OK)
        goto done;
    arc_columns(&G, &b, tcoef, &ncols);
    for (int64_t r = 1; r <= nrows; r++)
        if (tcoef[r] != 0) {
            if (b.nnz == b.cap) {
                st = tk_error_set(err, TK_EINTERNAL, NULL, 0, "LP size miscounted");
                goto done;
            }
            mcf_lp_put(&b, r, 1, tcoef[r]);
        }
    /* no bound on theta here: a weak-duality bound (unit lengths, cuts
     * around one switch) left GLPK's iterations unchanged on this LP */
    st = mcf_solve_lp(g, &b, (int)nrows, (int)ncols, (int)nfixed, tcap, HUGE_VAL, arc_pricer, &G,
                      NULL, NULL, NULL, o, out, err);
    *broke = G.broke;
done:
    mcf_lpbuf_free(&b);
    free(tail);
    free(dist);
    free(npar);
    free(tcoef);
    arcgen_free(&G);
    return st;
}

/* The certified barrier; on success caps theta at the server limit (flows
 * scale, so the capped optimum is min(cap, uncapped optimum)). */
static tk_status_t exact_barrier(const tk_graph_t *g, const tk_swdemand_t *d,
                                 const tk_mcf_opts_t *o, double tcap, int *certified,
                                 tk_mcf_result_t *out, tk_error_t *err)
{
    tk_status_t st = mcf_barrier(g, d, o, certified, out, err);
    if (st != TK_OK || !*certified)
        return st;
    out->barrier = 1;
    mcf_cap_theta(out, tcap);
    return TK_OK;
}

void mcf_cap_theta(tk_mcf_result_t *out, double tcap)
{
    if (out->theta >= tcap) {
        out->theta = out->upper = tcap;
        out->gap = 0;
        out->limited_by_servers = 1;
    } else if (out->upper > tcap) {
        out->upper = tcap;
        out->gap = (out->upper - out->theta) / out->upper;
    }
}

/* The simplex on the arc LP (with the row elimination, rebuilt without it
 * when a priced column voids it); time_limit: what is left of the run's. */
static tk_status_t exact_simplex(const tk_graph_t *g, const tk_swdemand_t *d,
                                 const tk_mcf_opts_t *o, double tcap, double t0,
                                 tk_mcf_result_t *out, tk_error_t *err)
{
    tk_mcf_opts_t so = *o;
    int broke = 0;
    tk_status_t st;

    if (so.time_limit > 0) {
        so.time_limit -= mcf_now() - t0;
        if (so.time_limit <= 0)
            return tk_error_set(err, TK_ELIMIT, NULL, 0, "time limit of %g s reached (exact LP)",
                                o->time_limit);
    }
    st = exact_arc(g, d, &so, tcap, 1, &broke, out, err);
    if (st == TK_OK && broke) {
        tk_mcf_result_destroy(out);
        tk_mcf_result_init(out);
        out->method = TK_MCF_EXACT;
        st = exact_arc(g, d, &so, tcap, 0, &broke, out, err);
    }
    if (st == TK_ELIMIT && err && so.time_limit != o->time_limit)
        tk_error_set(err, TK_ELIMIT, NULL, 0, "time limit of %g s reached (exact LP)",
                     o->time_limit);
    return st;
}

/* The exact method on an LP of cols arc columns: the certified barrier
 * first when opts.lp asks for it (or auto from TK_MCF_AUTO_BARRIER_COLS),
 * the simplex when it is not run or not certified. */
static tk_status_t exact_lp(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                            double tcap, double cols, double t0, tk_mcf_result_t *out,
                            tk_error_t *err)
{
    int certified = 0;
    tk_status_t st;

    if (o->lp == TK_MCF_LP_BARRIER ||
        (o->lp == TK_MCF_LP_AUTO && cols >= TK_MCF_AUTO_BARRIER_COLS)) {
        st = exact_barrier(g, d, o, tcap, &certified, out, err);
        if (st != TK_OK || certified)
            return st;
        tk_mcf_result_destroy(out);
        tk_mcf_result_init(out);
        out->method = TK_MCF_EXACT;
    }
    return exact_simplex(g, d, o, tcap, t0, out, err);
}

/* The approximation, its bounds capped at the server limit tcap. */
static tk_status_t approx_capped(const tk_graph_t *g, const tk_swdemand_t *d,
                                 const tk_mcf_opts_t *o, double tcap, tk_mcf_result_t *out,
                                 tk_error_t *err)
{
    tk_status_t st = mcf_approx(g, d, o, out, err);

    if (st == TK_OK && isfinite(tcap)) {
        if (out->theta >= tcap) {
            out->theta = tcap;
            out->limited_by_servers = 1;
            out->stopped = 0; /* the cap is the answer, whatever the gap */
        }
        if (out->upper > tcap)
            out->upper = tcap;
        out->gap = out->upper > 0 ? (out->upper - out->theta) / out->upper : 0;
    }
    return st;
}

tk_status_t tk_mcf_solve(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                         tk_mcf_result_t *out, tk_error_t *err)
{
    double tcap, cols, t0 = mcf_now();
    tk_mcf_method_t meth;
    tk_status_t st;
    int bad, certified = 0;
    int64_t S = 0;

    tk_mcf_result_init(out);
    if ((st = mcf_check_inputs(g, d, o, err)) != TK_OK)
        return st;
    tcap = mcf_server_cap(d, o);
    for (int64_t s = 0; s < d->n; s++)
        S += d->off[s + 1] > d->off[s];
    cols = (double)S * (double)g->m;
    meth = o->method;
    out->method = meth == TK_MCF_AUTO
                      ? (cols <= TK_MCF_AUTO_BARRIER_MAX ? TK_MCF_EXACT : TK_MCF_APPROX)
                      : meth;
    if (!mcf_has_network_demand(d)) {
        out->theta = out->upper = tcap;
        out->limited_by_servers = isfinite(tcap);
        out->seconds = mcf_now() - t0;
        return TK_OK;
    }
    if ((st = mcf_unreachable_demand(g, d, &bad, err)) != TK_OK)
        return st;
    if (bad) {
        out->seconds = mcf_now() - t0;
        return TK_OK;
    }
    if (meth == TK_MCF_AUTO) {
        /* exact while the simplex is quick; above that, exact only when the
         * certified barrier answers; else the approximation */
        if (cols <= TK_MCF_AUTO_EXACT_COLS) {
            meth = TK_MCF_EXACT;
        } else if (cols <= TK_MCF_AUTO_BARRIER_MAX && o->lp != TK_MCF_LP_SIMPLEX) {
            st = exact_barrier(g, d, o, tcap, &certified, out, err);
            if (st != TK_OK)
                goto fail;
            if (certified)
                goto finish;
            meth = TK_MCF_APPROX;
        } else {
            meth = TK_MCF_APPROX;
        }
    }
    tk_mcf_result_destroy(out);
    tk_mcf_result_init(out);
    out->method = meth;
    if (meth == TK_MCF_EXACT)
        st = exact_lp(g, d, o, tcap, cols, t0, out, err);
    else
        st = approx_capped(g, d, o, tcap, out, err);
    if (st != TK_OK)
        goto fail;
finish:
    out->seconds = mcf_now() - t0;
    return TK_OK;
fail:
    out->seconds = mcf_now() - t0;
    tk_mcf_result_destroy(out);
    return st;
}
