/*
 * valiant.c - Valiant routing: an intermediate switch m drawn uniformly,
 * then min (uniform over the shortest paths, hop lengths applied) from s
 * to m and from m to t.  As an oblivious routing, its expectation: every
 * draw (m, P1, P2), P1 a shortest s->m path and P2 a shortest m->t path, is
 * one path P1.P2 of weight Pr(m) / (sigma(s,m) sigma(m,t)), with via = m
 * and its second phase starting at hop |P1|.  Concatenations are walks
 * (they may repeat switches and arcs); two draws that give the same walk
 * stay two paths.
 *   valiant           m over all n switches (Pr 1/n); m = s gives a
 *                     minimal path wholly in the second phase, m = t one
 *                     wholly in the first
 *   valiant,minfirst  the same paths and weights, but the draws m = s and
 *                     m = t travel wholly in the first phase (the MinFirst
 *                     policy of Cano, Camarero, Martinez and Beivide,
 *                     "Analysing Mechanisms for Virtual Channel Management
 *                     in Low-Diameter Networks")
 *   valiant,exclude   m over the n - 2 switches other than s and t (with
 *                     n = 2: the minimal paths, without intermediate)
 *   valiant,servers   m over the switches that have servers (the leaves of
 *                     a Dragonfly+, as Cano et al. draw them), Pr 1/count;
 *                     m = s or t as in the default; the load engine below
 *                     does not apply (the per-pair engine does)
 *   valiant,early     m over all n switches, but a first-phase path that
 *                     passes through t ends there (wholly in the first
 *                     phase): the Valiant of the Ant Mill paper ("the
 *                     first subroute may include the destination, and the
 *                     communication is completed at that point"); per-pair
 *                     engine, no segments
 * Paths cost, per pair, the sum over m of O(n + m) plus the
 * concatenations, then a sort.
 *
 * Load: the draws of all pairs aggregate into two segments' demands, both
 * routed by min: a source x sends, through its intermediates, D1(x, m) =
 * wout(x) / n to every m (segment 1), and every m forwards D2(m, y) =
 * win(y) / n to every y (segment 2), so the min engine (min.c) runs on the
 * rows wt(x, y) = (wout(x) + win(y)) / n.  exclude: divide by n - 2 and
 * take out the draws m = s and m = t (2 w(x, y) / (n - 2)).  O(n) per row
 * on top of the min engine.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

/* The segments of the draw (s, m, t) into ws->seg1 and ws->seg2. */
static tk_status_t segments(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m,
                            tk_id_t t, uint64_t max_paths, tk_error_t *err)
{
    /* a segment may hold more paths than the pair when the other has one */
    uint64_t cap = max_paths ? 64 * max_paths + 1000000 : 0;
    tk_pathset_t *a = &ws->seg1, *b = &ws->seg2;
    tk_status_t st;
    rt_ps_clear(a);
    rt_ps_clear(b);
    if (m == s)
        st = rt_ps_push(a, NULL, 0, 1.0, err);
    else
        st = rt_dag_paths(r, ws, RT_DAG_MIN, s, m, cap, a, err);
    if (st)
        return st;
    if (m == t)
        return rt_ps_push(b, NULL, 0, 1.0, err);
    return rt_dag_paths(r, ws, RT_DAG_MIN, m, t, cap, b, err);
}

/* ws->seg1 x ws->seg2 into out (rt_ps_concat), but with early stopping
 * (valiant,early) a first segment whose path reaches t ends there: that
 * path alone, weight scale w1, via m, wholly in the first phase. */
static tk_status_t concat(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t t, double scale,
                          tk_id_t m, int phase2_end, tk_pathset_t *out, tk_error_t *err)
{
    const tk_pathset_t *a = &ws->seg1;
    if (r->spec.valiant != TK_VALIANT_EARLY)
        return rt_ps_concat(a, &ws->seg2, scale, m, phase2_end, ws->path, out, err);
    for (int64_t i = 0; i < a->npaths; i++) {
        const int64_t *arc = a->arc + a->off[i];
        int64_t len = a->off[i + 1] - a->off[i], k = 0;
        while (k < len && r->g->head[arc[k]] != t)
            k++;
        tk_status_t st;
        if (k < len) {
            st = rt_ps_push_via(out, arc, k + 1, scale * a->w[i], m, (int32_t)(k + 1), err);
        } else {
            tk_pathset_t one = *a; /* path i alone */
            one.npaths = 1;
            one.off = a->off + i;
            one.w = a->w + i;
            st = rt_ps_concat(&one, &ws->seg2, scale, m, phase2_end, ws->path, out, err);
        }
        if (st != TK_OK)
            return st;
    }
    return TK_OK;
}

static tk_status_t too_many(tk_id_t s, tk_id_t t, uint64_t max_paths, tk_error_t *err)
{
    return tk_error_set(err, TK_ELIMIT, NULL, 0,
                        "pair %" PRId32 ",%" PRId32 ": more than %" PRIu64 " paths", s, t,
                        max_paths);
}

static tk_status_t valiant_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                 uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_id_t n = r->g->n;
    int excl = r->spec.valiant == TK_VALIANT_EXCLUDE;
    int minfirst = r->spec.valiant == TK_VALIANT_MINFIRST;
    int srv = r->spec.valiant == TK_VALIANT_SERVERS;
    tk_status_t st;
    uint64_t routes = 0;

    if (excl && n <= 2)
        return rt_dag_paths(r, ws, RT_DAG_MIN, s, t, max_paths, out, err);
    tk_id_t pool = excl ? n - 2 : n;
    if (srv) {
        pool = 0;
        for (tk_id_t m = 0; m < n; m++)
            pool += tk_graph_servers(r->g, m) > 0;
        if (!pool)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: no switch has servers",
                                r->spec.text);
    }
    double pm = 1.0 / (double)pool;
    for (tk_id_t m = 0; m < n; m++) {
        if ((excl && (m == s || m == t)) || (srv && tk_graph_servers(r->g, m) <= 0))
            continue;
        if ((st = segments(r, ws, s, m, t, max_paths, err)) != TK_OK)
            return st;
        routes += (uint64_t)ws->seg1.npaths * (uint64_t)ws->seg2.npaths;
        if (max_paths && routes > max_paths)
            return too_many(s, t, max_paths, err);
        st = concat(r, ws, t, pm, m, minfirst && (m == s || m == t), out, err);
        if (st)
            return st;
    }
    return rt_ps_sort(out, 0, err);
}

static tk_status_t valiant_candidates(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                      uint64_t max_paths, tk_route_cands_t *out, tk_error_t *err)
{
    tk_id_t n = r->g->n;
    tk_status_t st = rt_dag_paths(r, ws, RT_DAG_MIN, s, t, max_paths, &out->min, err);
    if (st || n <= 2)
        return st;
    int64_t groups = n - 2;
    if (r->spec.valiant == TK_VALIANT_SERVERS) {
        groups = 0;
        for (tk_id_t m = 0; m < n; m++)
            groups += m != s && m != t && tk_graph_servers(r->g, m) > 0;
        if (!groups)
            return TK_OK;
    }
    double gw = 1.0 / (double)groups;
    for (tk_id_t m = 0; m < n; m++) {
        if (m == s || m == t ||
            (r->spec.valiant == TK_VALIANT_SERVERS && tk_graph_servers(r->g, m) <= 0))
            continue;
        if ((st = segments(r, ws, s, m, t, max_paths, err)) != TK_OK)
            return st;
        if (max_paths &&
            (uint64_t)out->nonmin.npaths + (uint64_t)ws->seg1.npaths * (uint64_t)ws->seg2.npaths >
                max_paths)
            return too_many(s, t, max_paths, err);
        if ((st = rt_cands_add_group(out, m, gw, err)) != TK_OK)
            return st;
        st = concat(r, ws, t, 1.0, m, 0, &out->nonmin, err);
        if (st)
            return st;
    }
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Load: the aggregated rows, routed by the min engine.                     */

typedef struct val_rows {
    const tk_rows_t *rows;
    tk_id_t n;
    int exclude;
    double *wout, *win; /* totals sent and received per switch */
} val_rows_t;

/* Row x = s of the two segments' aggregate demands. */
static int val_fill(const void *p, tk_id_t s, double *wt)
{
    const val_rows_t *v = p;
    const tk_rows_t *d = v->rows;
    tk_id_t n = v->n;
    if (!v->exclude) {
        for (tk_id_t y = 0; y < n; y++)
            wt[y] = y == s ? 0 : (v->wout[s] + v->win[y]) / (double)n;
    } else {
        for (tk_id_t y = 0; y < n; y++)
            wt[y] = y == s ? 0 : (v->wout[s] + v->win[y]) / (double)(n - 2);
        if (d->off) {
            for (int64_t i = d->off[s]; i < d->off[s + 1]; i++)
                if (d->dst[i] != s)
                    wt[d->dst[i]] -= 2.0 * d->w[i] / (double)(n - 2);
        } else {
            double ws = d->srcw ? d->srcw[s] : 1.0;
            for (tk_id_t y = 0; y < n; y++)
                if (y != s)
                    wt[y] -= 2.0 * ws / (double)(n - 2);
        }
        for (tk_id_t y = 0; y < n; y++)
            if (wt[y] < 0)
                wt[y] = 0; /* rounding */
    }
    for (tk_id_t y = 0; y < n; y++)
        if (wt[y] != 0)
            return 1;
    return 0;
}

static void val_clear(const void *p, tk_id_t s, double *wt)
{
    (void)s;
    memset(wt, 0, (size_t)((const val_rows_t *)p)->n * sizeof *wt);
}

typedef struct val_owner {
    val_rows_t vr;
    tk_load_job_t min; /* the min engine's job on vr */
} val_owner_t;

static void val_release(void *p)
{
    val_owner_t *o = p;
    if (!o)
        return;
    tk_load_job_release(&o->min);
    free(o->vr.wout);
    free(o->vr.win);
    free(o);
}

/* wout[x] and win[y]: what every switch sends and receives. */
static void val_totals(const tk_rows_t *d, double *wout, double *win)
{
    tk_id_t n = d->n;
    double total = 0;
    for (tk_id_t s = 0; s < n; s++) {
        if (d->off) {
            for (int64_t i = d->off[s]; i < d->off[s + 1]; i++) {
                if (d->dst[i] == s)
                    continue;
                wout[s] += d->w[i];
                win[d->dst[i]] += d->w[i];
            }
        } else {
            double ws = d->srcw ? d->srcw[s] : 1.0;
            wout[s] = ws * (double)(n - 1);
            total += ws;
        }
    }
    if (!d->off) /* win[t] = sum of srcw over s != t */
        for (tk_id_t t = 0; t < n; t++)
            win[t] = total - (d->srcw ? d->srcw[t] : 1.0);
}

static tk_status_t valiant_load(const tk_router_t *r, const tk_rows_t *rows, tk_load_job_t *job,
                                tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int exclude = r->spec.valiant == TK_VALIANT_EXCLUDE;
    /* Hop lengths, exclude without a third switch, servers: enumerate. */
    if (r->weighted || (exclude && g->n < 3) || r->spec.valiant == TK_VALIANT_SERVERS ||
        r->spec.valiant == TK_VALIANT_EARLY)
        return TK_EUNSUPPORTED;
    val_owner_t *o = calloc(1, sizeof *o);
    if (!o)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    o->vr.rows = rows;
    o->vr.n = g->n;
    o->vr.exclude = exclude;
    o->vr.wout = tk_calloc_array((size_t)g->n + 1, sizeof *o->vr.wout);
    o->vr.win = tk_calloc_array((size_t)g->n + 1, sizeof *o->vr.win);
    if (!o->vr.wout || !o->vr.win) {
        val_release(o);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    val_totals(rows, o->vr.wout, o->vr.win);
    tk_status_t st =
        rt_min_job(g, &o->vr, val_fill, val_clear, 2.0 * tk_rows_total(rows), &o->min, err);
    if (st != TK_OK) {
        val_release(o);
        return st;
    }
    *job = o->min;
    job->owner = o;
    job->release = val_release;
    return TK_OK;
}

/* One segment (tk_route_segment) and the pool rule (m != x for exclude,
 * a switch with servers for servers). */
static tk_status_t valiant_segment(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                                   uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    if (r->spec.valiant == TK_VALIANT_EXCLUDE && r->g->n <= 2)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: no intermediate", r->spec.text);
    if (r->spec.valiant == TK_VALIANT_EARLY)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: a route that stops early is not two segments", r->spec.text);
    if (u == v)
        return rt_ps_push(out, NULL, 0, 1.0, err);
    return rt_dag_paths(r, ws, RT_DAG_MIN, u, v, max_paths, out, err);
}

static int valiant_via_ok(const tk_router_t *r, tk_id_t x, tk_id_t m)
{
    if (r->spec.valiant == TK_VALIANT_EXCLUDE)
        return x != m;
    if (r->spec.valiant == TK_VALIANT_SERVERS)
        return tk_graph_servers(r->g, m) > 0;
    return 1;
}

const rt_model_t rt_model_valiant = {
    .kind = TK_ROUTE_VALIANT,
    .name = "valiant",
    .opts = RT_OPT_VALIANT | RT_OPT_WEIGHTS,
    .table = RT_TABLE_NEED,
    .paths = valiant_paths,
    .candidates = valiant_candidates,
    .segment = valiant_segment,
    .via_ok = valiant_via_ok,
    .load = valiant_load,
};
