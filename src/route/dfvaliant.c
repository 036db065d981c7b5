/*
 * dfvaliant.c - dragonfly-valiant: an intermediate router m drawn
 * uniformly among the routers outside the groups of s and t, then
 * dragonfly-min from s to m and from m to t (up to lgl-lgl, 6 hops).  Every
 * draw (m, P1, P2) is one path with via = m and its second phase starting
 * at hop |P1|; two draws that give the same walk stay two paths.  With no
 * router outside those groups: dragonfly-min (no intermediate).
 *
 * Load: the draws of all pairs aggregate into demands routed pair by pair
 * by dragonfly-min: with nm(x, y) the intermediates of (x, y),
 *   D0(x, y) = w(x, y)                   when nm(x, y) = 0,
 *   D1(x, m) = sum over t with G(m) not in {G(x), G(t)} of w(x,t)/nm(x,t),
 *   D2(m, y) = sum over s with G(m) not in {G(s), G(y)} of w(s,y)/nm(s,y).
 * D1 depends on m only through its group, and D2's sum is a total minus
 * the sources of m's group: a groups x n table b[g][y] of segment-2 demand
 * per source group makes each row O(n + row length).  Memory ngroups x n
 * doubles (above 1/8 of the physical memory: enumerate per pair instead).
 *
 * dragonfly-valiant-crg: the CRG global misrouting of Fuentes, Vallejo,
 * Camarero, Beivide, Valero ("Network Unfairness in Dragonfly
 * Topologies"): the intermediate group is restricted to the groups that
 * the source router itself links to.  A global arc e of s whose far group
 * X is neither G(s) nor G(t) is drawn uniformly among such arcs, then an
 * intermediate router m uniformly in X; the path is e, the shortest local
 * path from e's head to m, and dragonfly-min from m to t (up to g-l-lgl,
 * 5 hops: the first local hop of dragonfly-valiant is saved).  Draw
 * (e, m) weighs 1/(|E| |X|) for E the eligible arcs of s; the draws of
 * one m are its candidate group.  With no eligible arc (every global link
 * of s leads to G(t)): dragonfly-min.  Load: the generic per-pair engine.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/dragonfly_internal.h"

/* Paths of one pair the aggregated engine accepts. */
#define DFV_MAX_PATHS ((uint64_t)1 << 24)

/* Intermediates of (s, t): the routers outside the groups of s and t. */
static int64_t dfv_nm(const tk_router_t *r, tk_id_t s, tk_id_t t)
{
    const rt_groups_t *df = r->df;
    int32_t A = df->gof[s], B = df->gof[t];
    return r->g->n - rt_df_gsize(df, A) - (A != B ? rt_df_gsize(df, B) : 0);
}

/* The dragonfly-min segments of the draw (s, m, t) into ws->dv1, ws->dv2. */
static tk_status_t segments(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m,
                            tk_id_t t, tk_error_t *err)
{
    tk_status_t st;
    rt_ps_clear(&ws->dv1);
    rt_ps_clear(&ws->dv2);
    if ((st = rt_dfmin(r, ws, s, m, 1.0, &ws->dv1, err)) != TK_OK)
        return st;
    return rt_dfmin(r, ws, m, t, 1.0, &ws->dv2, err);
}

/* A Valiant variant's draws for (s, t): total() is their normaliser (0:
 * no intermediate, so dragonfly-min), draw() the weight *pm of
 * intermediate m (0: not one) with its segments in ws->dv1, ws->dv2. */
typedef struct variant {
    int64_t (*total)(const tk_router_t *r, tk_id_t s, tk_id_t t);
    tk_status_t (*draw)(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m, tk_id_t t,
                        int64_t total, double *pm, tk_error_t *err);
} variant_t;

static tk_status_t variant_paths(const variant_t *v, const tk_router_t *r, tk_route_ws_t *ws,
                                 tk_id_t s, tk_id_t t, uint64_t max_paths, tk_pathset_t *out,
                                 tk_error_t *err)
{
    int64_t tot = v->total(r, s, t);
    tk_status_t st;
    if (tot == 0)
        return rt_dfmin_paths(r, ws, s, t, max_paths, out, err);
    for (tk_id_t m = 0; m < r->g->n; m++) {
        double pm;
        if ((st = v->draw(r, ws, s, m, t, tot, &pm, err)) != TK_OK)
            return st;
        if (pm == 0)
            continue;
        if ((st = rt_ps_concat(&ws->dv1, &ws->dv2, pm, m, 0, ws->path, out, err)) != TK_OK)
            return st;
        if ((st = rt_ps_check_max(s, t, max_paths, out, err)) != TK_OK)
            return st;
    }
    return rt_ps_sort(out, 0, err);
}

/* The minimal candidates, then one group per intermediate. */
static tk_status_t variant_candidates(const variant_t *v, const tk_router_t *r, tk_route_ws_t *ws,
                                      tk_id_t s, tk_id_t t, uint64_t max_paths,
                                      tk_route_cands_t *out, tk_error_t *err)
{
    int64_t tot = v->total(r, s, t);
    tk_status_t st = rt_dfmin_paths(r, ws, s, t, max_paths, &out->min, err);
    if (st || tot == 0)
        return st;
    for (tk_id_t m = 0; m < r->g->n; m++) {
        double pm;
        if ((st = v->draw(r, ws, s, m, t, tot, &pm, err)) != TK_OK)
            return st;
        if (pm == 0)
            continue;
        if ((st = rt_cands_add_group(out, m, pm, err)) != TK_OK)
            return st;
        st = rt_ps_concat(&ws->dv1, &ws->dv2, 1.0, m, 0, ws->path, &out->nonmin, err);
        if (st == TK_OK)
            st = rt_ps_check_max(s, t, max_paths, &out->nonmin, err);
        if (st)
            return st;
    }
    return TK_OK;
}

/* dragonfly-valiant: every router outside the groups of s and t, 1/nm. */
static tk_status_t dfv_draw(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m,
                            tk_id_t t, int64_t nm, double *pm, tk_error_t *err)
{
    const rt_groups_t *df = r->df;
    *pm = 0;
    if (df->gof[m] == df->gof[s] || df->gof[m] == df->gof[t])
        return TK_OK;
    *pm = 1.0 / (double)nm;
    return segments(r, ws, s, m, t, err);
}

static const variant_t dfv_variant = {dfv_nm, dfv_draw};

static tk_status_t dfv_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return variant_paths(&dfv_variant, r, ws, s, t, max_paths, out, err);
}

static tk_status_t dfv_candidates(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                  uint64_t max_paths, tk_route_cands_t *out, tk_error_t *err)
{
    return variant_candidates(&dfv_variant, r, ws, s, t, max_paths, out, err);
}

/* ------------------------------------------------------------------------ */
/* dragonfly-valiant-crg.                                                   */

/* Is arc a of s a global arc to a group other than A and B? */
static int crg_arc(const tk_router_t *r, int64_t a, int32_t A, int32_t B)
{
    const tk_graph_t *g = r->g;
    const rt_groups_t *df = r->df;
    if (!g->cls || (int)g->cls[a] != df->global_cls)
        return 0;
    int32_t X = df->gof[g->head[a]];
    return X != A && X != B;
}

/* Eligible arcs of s (|E|), and of them those into group X (*kx). */
static int64_t crg_count(const tk_router_t *r, tk_id_t s, int32_t B, int32_t X, int64_t *kx)
{
    const tk_graph_t *g = r->g;
    int32_t A = r->df->gof[s];
    int64_t ne = 0, k = 0;
    for (int64_t a = g->off[s]; a < g->off[s + 1]; a++)
        if (crg_arc(r, a, A, B)) {
            ne++;
            if (r->df->gof[g->head[a]] == X)
                k++;
        }
    if (kx)
        *kx = k;
    return ne;
}

/* The draws of intermediate m: first segments (every eligible arc into
 * G(m), weight 1/k each, then local to m) into ws->dv1, dragonfly-min
 * m -> t into ws->dv2. */
static tk_status_t crg_segments(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m,
                                tk_id_t t, int64_t k, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int32_t A = r->df->gof[s], B = r->df->gof[t], X = r->df->gof[m];
    tk_status_t st;
    rt_ps_clear(&ws->dv1);
    rt_ps_clear(&ws->dv2);
    for (int64_t a = g->off[s]; a < g->off[s + 1]; a++) {
        if (!crg_arc(r, a, A, B) || r->df->gof[g->head[a]] != X)
            continue;
        rt_ps_clear(&ws->seg1);
        if ((st = rt_dfmin(r, ws, g->head[a], m, 1.0 / (double)k, &ws->seg1, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < ws->seg1.npaths; i++) {
            int64_t l = ws->seg1.off[i + 1] - ws->seg1.off[i];
            ws->path[0] = a;
            memcpy(ws->path + 1, ws->seg1.arc + ws->seg1.off[i], (size_t)l * sizeof *ws->path);
            if ((st = rt_ps_push(&ws->dv1, ws->path, l + 1, ws->seg1.w[i], err)) != TK_OK)
                return st;
        }
    }
    return rt_dfmin(r, ws, m, t, 1.0, &ws->dv2, err);
}

/* Normaliser of the CRG draws of (s, t): the eligible arcs of s. */
static int64_t crg_total(const tk_router_t *r, tk_id_t s, tk_id_t t)
{
    return crg_count(r, s, r->df->gof[t], -1, NULL);
}

/* Intermediate m weighs k/(|E| |G(m)|), k the eligible arcs into G(m). */
static tk_status_t crg_draw(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m,
                            tk_id_t t, int64_t ne, double *pm, tk_error_t *err)
{
    const rt_groups_t *df = r->df;
    int64_t k;
    crg_count(r, s, df->gof[t], df->gof[m], &k);
    *pm = 0;
    if (k == 0)
        return TK_OK;
    *pm = (double)k / (double)ne / (double)rt_df_gsize(df, df->gof[m]);
    return crg_segments(r, ws, s, m, t, k, err);
}

static const variant_t crg_variant = {crg_total, crg_draw};

static tk_status_t crg_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return variant_paths(&crg_variant, r, ws, s, t, max_paths, out, err);
}

static tk_status_t crg_candidates(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                  uint64_t max_paths, tk_route_cands_t *out, tk_error_t *err)
{
    return variant_candidates(&crg_variant, r, ws, s, t, max_paths, out, err);
}

const rt_model_t rt_model_dfcrg = {
    .kind = TK_ROUTE_DF_VALIANT_CRG,
    .name = "dragonfly-valiant-crg",
    .opts = 0,
    .table = RT_TABLE_NONE,
    .prepare = rt_dragonfly_prepare,
    .paths = crg_paths,
    .candidates = crg_candidates,
};

/* ------------------------------------------------------------------------ */
/* Load: the aggregate demands, routed by dragonfly-min.                    */

typedef struct dfv_ctx {
    const tk_router_t *r;
    const tk_rows_t *rows;
    double *b;    /* ngroups x n: b[g*n + y] = sum over s in g of w(s,y)/nm(s,y) */
    double *btot; /* n: sum over g of b[g*n + y]                                */
} dfv_ctx_t;

typedef struct dfv_ws {
    tk_route_ws_t *rws;
    tk_pathset_t ps;
    double *wt, *a; /* dense row (n), per-group sums (ngroups) */
} dfv_ws_t;

static void dfv_ws_free(void *p)
{
    dfv_ws_t *w = p;
    if (!w)
        return;
    tk_route_ws_free(w->rws);
    tk_pathset_destroy(&w->ps);
    free(w->wt);
    free(w->a);
    free(w);
}

static void *dfv_ws_new(void *ctxp)
{
    dfv_ctx_t *c = ctxp;
    dfv_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    tk_pathset_init(&w->ps);
    w->wt = tk_calloc_array((size_t)c->rows->n + 1, sizeof *w->wt);
    w->a = tk_calloc_array((size_t)c->r->df->ngroups + 1, sizeof *w->a);
    if (!w->wt || !w->a || tk_route_ws_new(c->r, &w->rws, NULL) != TK_OK) {
        dfv_ws_free(w);
        return NULL;
    }
    return w;
}

/* Row x of the aggregate demands into w->wt.  O(n + row). */
static void dfv_row(const dfv_ctx_t *c, dfv_ws_t *w, tk_id_t x)
{
    const rt_groups_t *df = c->r->df;
    const tk_rows_t *d = c->rows;
    tk_id_t n = d->n;
    double *wt = w->wt, *a = w->a, atot = 0;
    int32_t gx = df->gof[x];

    memset(a, 0, (size_t)df->ngroups * sizeof *a);
    memset(wt, 0, (size_t)n * sizeof *wt);
    /* segment 1 sums a[g] and the direct (no intermediate) pairs */
    if (d->off) {
        for (int64_t i = d->off[x]; i < d->off[x + 1]; i++) {
            tk_id_t t = d->dst[i];
            if (t == x)
                continue;
            double nm = (double)dfv_nm(c->r, x, t);
            if (nm > 0)
                a[df->gof[t]] += d->w[i] / nm;
            else
                wt[t] += d->w[i];
        }
    } else {
        double ws = d->srcw ? d->srcw[x] : 1.0;
        for (tk_id_t t = 0; t < n && ws != 0; t++) {
            if (t == x)
                continue;
            double nm = (double)dfv_nm(c->r, x, t);
            if (nm > 0)
                a[df->gof[t]] += ws / nm;
            else
                wt[t] += ws;
        }
    }
    for (int32_t g = 0; g < df->ngroups; g++)
        atot += a[g];
    for (tk_id_t y = 0; y < n; y++) {
        if (y == x)
            continue;
        int32_t gy = df->gof[y];
        if (gy != gx)
            wt[y] += (atot - a[gy]) + (c->btot[y] - c->b[(size_t)gx * (size_t)n + (size_t)y]);
    }
}

static tk_status_t dfv_unit(void *ctxp, void *wsp, int64_t unit, double *buf, tk_error_t *err)
{
    const dfv_ctx_t *c = ctxp;
    dfv_ws_t *w = wsp;
    tk_id_t s = (tk_id_t)unit;
    tk_status_t st = TK_OK;

    dfv_row(c, w, s);
    for (tk_id_t t = 0; t < c->rows->n && st == TK_OK; t++) {
        if (t == s || !(w->wt[t] > 0))
            continue;
        rt_ps_clear(&w->ps);
        st = rt_dfmin_paths(c->r, w->rws, s, t, DFV_MAX_PATHS, &w->ps, err);
        if (st == TK_OK)
            st = rt_ps_accumulate(&w->ps, s, t, w->wt[t], buf, err);
    }
    return st;
}

static void dfv_release(void *p)
{
    dfv_ctx_t *c = p;
    if (!c)
        return;
    free(c->b);
    free(c->btot);
    free(c);
}

/* b[g][y]: segment-2 demand into y from the sources of group g. */
static void dfv_tables(dfv_ctx_t *c)
{
    const rt_groups_t *df = c->r->df;
    const tk_rows_t *d = c->rows;
    tk_id_t n = d->n;
    for (tk_id_t s = 0; s < n; s++) {
        double *bg = c->b + (size_t)df->gof[s] * (size_t)n;
        if (d->off) {
            for (int64_t i = d->off[s]; i < d->off[s + 1]; i++) {
                tk_id_t y = d->dst[i];
                double nm = (double)dfv_nm(c->r, s, y);
                if (y != s && nm > 0)
                    bg[y] += d->w[i] / nm;
            }
        } else {
            double ws = d->srcw ? d->srcw[s] : 1.0;
            for (tk_id_t y = 0; y < n && ws != 0; y++) {
                double nm = (double)dfv_nm(c->r, s, y);
                if (y != s && nm > 0)
                    bg[y] += ws / nm;
            }
        }
    }
    for (int32_t gg = 0; gg < df->ngroups; gg++)
        for (tk_id_t y = 0; y < n; y++)
            c->btot[y] += c->b[(size_t)gg * (size_t)n + (size_t)y];
}

static tk_status_t dfv_load(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                            tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_id_t n = g->n;
    int64_t G = r->df->ngroups;
    uint64_t lim = tk_memory_limit_default();
    if (lim && (uint64_t)G * (uint64_t)n * 8u > lim / 8)
        return TK_EUNSUPPORTED; /* too many groups to aggregate: per pair */
    dfv_ctx_t *c = calloc(1, sizeof *c);
    if (c) {
        c->r = r;
        c->rows = rows;
        c->b = tk_calloc_array((size_t)G * (size_t)n, sizeof *c->b);
        c->btot = tk_calloc_array((size_t)n + 1, sizeof *c->btot);
    }
    if (!c || !c->b || !c->btot) {
        dfv_release(c);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    dfv_tables(c);
    memset(job, 0, sizeof *job);
    job->par.units = n;
    job->par.width = g->m;
    job->par.bound = 2.0 * tk_rows_total(rows);
    job->par.ws_bytes = (size_t)(n + 1) * 72u + (size_t)G * 8u;
    job->par.ctx = c;
    job->par.ws_new = dfv_ws_new;
    job->par.ws_free = dfv_ws_free;
    job->par.unit = dfv_unit;
    job->owner = c;
    job->release = dfv_release;
    return TK_OK;
}

/* One dragonfly-min segment (tk_route_segment; fewer than 3 groups leave
 * some pair without intermediate) and the pool rule: m outside x's group. */
static tk_status_t dfv_segment(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                               uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    if (r->df->ngroups < 3)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: fewer than 3 groups", r->spec.text);
    if (u == v)
        return rt_ps_push(out, NULL, 0, 1.0, err);
    tk_status_t st = rt_dfmin(r, ws, u, v, 1.0, out, err);
    return st ? st : rt_ps_check_max(u, v, max_paths, out, err);
}

static int dfv_via_ok(const tk_router_t *r, tk_id_t x, tk_id_t m)
{
    return r->df->gof[x] != r->df->gof[m];
}

const rt_model_t rt_model_dfvaliant = {
    .kind = TK_ROUTE_DF_VALIANT,
    .name = "dragonfly-valiant",
    .opts = 0,
    .table = RT_TABLE_NONE,
    .prepare = rt_dragonfly_prepare,
    .paths = dfv_paths,
    .candidates = dfv_candidates,
    .segment = dfv_segment,
    .via_ok = dfv_via_ok,
    .load = dfv_load,
};
