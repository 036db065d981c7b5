/*
 * vdor.c - valiant,dor: Valiant routing whose two segments are
 * dimension-order paths (dor.c), as the HyperX experiments of Cano,
 * Camarero, Martinez and Beivide ("Analysing Mechanisms for Virtual Channel
 * Management in Low-Diameter Networks") use it: an intermediate switch m
 * drawn uniformly, then dor from s to m and from m to t.  Every draw
 * (m, P1, P2) is one path P1.P2 with via = m and its second phase starting
 * at hop |P1|, weight Pr(m) w(P1) w(P2).  The valiant options apply:
 * `exclude` draws m among the n - 2 switches other than s and t,
 * `minfirst` keeps the draws m = s and m = t wholly in the first phase
 * (see valiant.c).  Per pair: n segment pairs, each O(hops x degree) when
 * the segments are unique (a HyperX), then a sort.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>

#include "route/route_internal.h"

static tk_status_t vdor_segments(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t m,
                                 tk_id_t t, tk_error_t *err)
{
    tk_status_t st;
    rt_ps_clear(&ws->seg1);
    rt_ps_clear(&ws->seg2);
    if ((st = rt_dor_paths(r, ws, s, m, 0, &ws->seg1, err)) != TK_OK)
        return st;
    return rt_dor_paths(r, ws, m, t, 0, &ws->seg2, err);
}

static tk_status_t vdor_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                              uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_id_t n = r->g->n;
    int excl = r->spec.valiant == TK_VALIANT_EXCLUDE;
    int minfirst = r->spec.valiant == TK_VALIANT_MINFIRST;
    tk_status_t st;

    if (excl && n <= 2)
        return rt_dor_paths(r, ws, s, t, max_paths, out, err);
    double pm = 1.0 / (double)(excl ? n - 2 : n);
    for (tk_id_t m = 0; m < n; m++) {
        if (excl && (m == s || m == t))
            continue;
        if ((st = vdor_segments(r, ws, s, m, t, err)) != TK_OK)
            return st;
        st = rt_ps_concat(&ws->seg1, &ws->seg2, pm, m, minfirst && (m == s || m == t), ws->path,
                          out, err);
        if (st == TK_OK)
            st = rt_ps_check_max(s, t, max_paths, out, err);
        if (st)
            return st;
    }
    return rt_ps_sort(out, 0, err);
}

static tk_status_t vdor_candidates(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                   uint64_t max_paths, tk_route_cands_t *out, tk_error_t *err)
{
    tk_id_t n = r->g->n;
    tk_status_t st = rt_dor_paths(r, ws, s, t, max_paths, &out->min, err);
    if (st || n <= 2)
        return st;
    double gw = 1.0 / (double)(n - 2);
    for (tk_id_t m = 0; m < n; m++) {
        if (m == s || m == t)
            continue;
        if ((st = vdor_segments(r, ws, s, m, t, err)) != TK_OK)
            return st;
        if ((st = rt_cands_add_group(out, m, gw, err)) != TK_OK)
            return st;
        st = rt_ps_concat(&ws->seg1, &ws->seg2, 1.0, m, 0, ws->path, &out->nonmin, err);
        if (st == TK_OK)
            st = rt_ps_check_max(s, t, max_paths, &out->nonmin, err);
        if (st)
            return st;
    }
    return TK_OK;
}

static tk_status_t vdor_segment(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t v,
                                uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    if (r->spec.valiant == TK_VALIANT_EXCLUDE && r->g->n <= 2)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: no intermediate", r->spec.text);
    return rt_dor_paths(r, ws, u, v, max_paths, out, err);
}

static int vdor_via_ok(const tk_router_t *r, tk_id_t x, tk_id_t m)
{
    if (r->spec.valiant == TK_VALIANT_EXCLUDE)
        return x != m;
    if (r->spec.valiant == TK_VALIANT_SERVERS)
        return tk_graph_servers(r->g, m) > 0;
    return 1;
}

const rt_model_t rt_model_vdor = {
    .kind = TK_ROUTE_VALIANT_DOR,
    .name = "valiant,dor",
    .opts = RT_OPT_VALIANT,
    .table = RT_TABLE_NONE,
    .prepare = rt_dor_prepare,
    .paths = vdor_paths,
    .candidates = vdor_candidates,
    .segment = vdor_segment,
    .via_ok = vdor_via_ok,
};
