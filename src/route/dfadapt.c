/*
 * dfadapt.c - the path sets of the Dragonfly adaptive routings, as
 * oblivious models for static analysis (topo-vc(1) only needs which paths
 * a rule may take; the flow splits of the adaptive rules live in the
 * simulator):
 *   dragonfly-ugal  dragonfly-min and dragonfly-valiant (UGAL chooses
 *                   between them at injection)
 *   dragonfly-par   those, plus one minimal local hop s -> r in the source
 *                   group and then dragonfly-valiant from r (PAR: progressive
 *                   adaptive routing re-decides after that hop; not when
 *                   that hop reaches t)
 *   dragonfly-olm   in-transit adaptive routing with opportunistic local
 *                   misrouting (OLM), as Fuentes, Vallejo, Camarero,
 *                   Beivide and Valero describe it ("Network Unfairness in
 *                   Dragonfly Topologies", Section 2.2.3) and their
 *                   simulator FOGSim implements it, the union over its
 *                   global misrouting policies (CRG, RRG, NRG, MM):
 *                   s, t in one group: a minimal path in which one extra
 *                   local hop may be taken once, at a router whose next
 *                   minimal hop is local.  Otherwise, in the source group
 *                   either the minimal path, or a global misroute decided
 *                   at s or after the first minimal local hop (at r): a
 *                   global arc of that router, or one non-minimal local hop
 *                   and then a global arc of the router it reaches (the
 *                   "mandatory" global misroute after a local one), into
 *                   a group other than those of s and t; a local misroute
 *                   in the source group always leads to a global one.  In
 *                   every later group (intermediate, destination) the path
 *                   is minimal but may take one opportunistic local hop,
 *                   once per group, at a router whose next minimal hop is
 *                   local.
 * Weights: an even split over the paths (each draw of an intermediate is
 * one path), which is not how the adaptive rules weigh them.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "route/dragonfly_internal.h"

#define DFA_MAX_HOPS 64

/* Every path of ps gets weight 1 / npaths. */
static void even(tk_pathset_t *ps)
{
    for (int64_t i = 0; i < ps->npaths; i++)
        ps->w[i] = 1.0 / (double)ps->npaths;
}

/* The dragonfly-valiant draws of u -> t with m outside the groups of u and
 * t, each path prefixed by `pre` (npre arcs), second phase from the hop
 * after the first segment. */
static tk_status_t valiant_from(const tk_router_t *r, tk_route_ws_t *ws, const int64_t *pre,
                                int32_t npre, tk_id_t u, tk_id_t t, uint64_t max_paths,
                                tk_pathset_t *out, tk_error_t *err)
{
    const rt_groups_t *df = r->df;
    int32_t A = df->gof[u], B = df->gof[t];
    int64_t buf[DFA_MAX_HOPS];
    tk_status_t st;
    for (tk_id_t m = 0; m < r->g->n; m++) {
        if (df->gof[m] == A || df->gof[m] == B)
            continue;
        rt_ps_clear(&ws->dv1);
        rt_ps_clear(&ws->dv2);
        if ((st = rt_dfmin(r, ws, u, m, 1.0, &ws->dv1, err)) != TK_OK ||
            (st = rt_dfmin(r, ws, m, t, 1.0, &ws->dv2, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < ws->dv1.npaths; i++) {
            int64_t l1 = ws->dv1.off[i + 1] - ws->dv1.off[i];
            for (int64_t j = 0; j < ws->dv2.npaths; j++) {
                int64_t l2 = ws->dv2.off[j + 1] - ws->dv2.off[j];
                if (npre + l1 + l2 > DFA_MAX_HOPS)
                    return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s: path too long", r->spec.text);
                if (npre > 0) /* pre may be NULL when empty */
                    memcpy(buf, pre, (size_t)npre * sizeof *buf);
                if (l1 > 0)
                    memcpy(buf + npre, ws->dv1.arc + ws->dv1.off[i], (size_t)l1 * sizeof *buf);
                if (l2 > 0)
                    memcpy(buf + npre + l1, ws->dv2.arc + ws->dv2.off[j], (size_t)l2 * sizeof *buf);
                st = rt_ps_push_via(out, buf, npre + l1 + l2, 1.0, m, (int32_t)(npre + l1), err);
                if (st)
                    return st;
            }
        }
        if ((st = rt_ps_check_max(u, t, max_paths, out, err)) != TK_OK)
            return st;
    }
    return TK_OK;
}

/* The distinct first arcs of the dragonfly-min paths of u -> t (u != t),
 * in a new array (*na of them). */
static tk_status_t min_first(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t u, tk_id_t t,
                             int64_t **arcs, int64_t *na, tk_error_t *err)
{
    rt_ps_clear(&ws->seg1);
    tk_status_t st = rt_dfmin(r, ws, u, t, 1.0, &ws->seg1, err);
    if (st)
        return st;
    int64_t *a = tk_calloc_array((size_t)ws->seg1.npaths + 1, sizeof *a);
    if (!a)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "%s: out of memory", r->spec.text);
    int64_t k = 0;
    for (int64_t i = 0; i < ws->seg1.npaths; i++) {
        int64_t x = ws->seg1.arc[ws->seg1.off[i]], j;
        for (j = 0; j < k && a[j] != x; j++)
            ;
        if (j == k)
            a[k++] = x;
    }
    *arcs = a;
    *na = k;
    return TK_OK;
}

static tk_status_t ugal(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                        uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = rt_dfmin(r, ws, s, t, 1.0, out, err);
    if (st == TK_OK)
        st = valiant_from(r, ws, NULL, 0, s, t, max_paths, out, err);
    return st;
}

static tk_status_t dfugal_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                                uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_status_t st = ugal(r, ws, s, t, max_paths, out, err);
    if (st == TK_OK)
        st = rt_ps_sort(out, 0, err);
    if (st == TK_OK)
        even(out);
    return st;
}

static tk_status_t dfpar_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                               uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    int64_t *first = NULL, nf = 0;
    tk_status_t st = ugal(r, ws, s, t, max_paths, out, err);
    if (st == TK_OK)
        st = min_first(r, ws, s, t, &first, &nf, err);
    for (int64_t i = 0; i < nf && st == TK_OK; i++)
        if (rt_df_local(r, first[i], s) && r->g->head[first[i]] != t)
            st = valiant_from(r, ws, &first[i], 1, r->g->head[first[i]], t, max_paths, out, err);
    free(first);
    if (st == TK_OK)
        st = rt_ps_sort(out, 0, err);
    if (st == TK_OK)
        even(out);
    return st;
}

/* Is global arc a of the source group's router a global misroute: does
 * it lead to a group other than A and B? */
static int misroute_global(const tk_router_t *r, int64_t a, tk_id_t u, int32_t A, int32_t B)
{
    int32_t X = r->df->gof[r->g->head[a]];
    return !rt_df_local(r, a, u) && X != A && X != B && r->g->head[a] != u;
}

/* The opportunistic part of OLM: the paths from u (prefix pre, npre arcs)
 * to t that are minimal but for one extra local hop per group, taken at a
 * router whose next minimal hop is local; `used`: the extra hop of u's
 * group is taken. */
static tk_status_t olm(const tk_router_t *r, tk_route_ws_t *ws, int64_t *pre, int32_t npre,
                       tk_id_t u, tk_id_t t, int used, uint64_t max_paths, tk_pathset_t *out,
                       tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    if (u == t) {
        tk_status_t st = rt_ps_push(out, pre, npre, 1.0, err);
        return st ? st : rt_ps_check_max(u, t, max_paths, out, err);
    }
    if (npre + 1 >= DFA_MAX_HOPS)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s: path too long", r->spec.text);
    int64_t *first = NULL, nf = 0;
    tk_status_t st = min_first(r, ws, u, t, &first, &nf, err);
    for (int64_t i = 0; i < nf && st == TK_OK; i++) {
        tk_id_t v = g->head[first[i]];
        pre[npre] = first[i];
        st = olm(r, ws, pre, npre + 1, v, t, used && rt_df_local(r, first[i], u), max_paths, out,
                 err);
    }
    /* the extra hop replaces a minimal local hop: not at a router whose
     * next minimal hop is global */
    if (nf > 0 && !rt_df_local(r, first[0], u))
        used = 1;
    for (int64_t a = g->off[u]; a < g->off[u + 1] && st == TK_OK && !used; a++) {
        int64_t j;
        if (!rt_df_local(r, a, u))
            continue;
        for (j = 0; j < nf && first[j] != a; j++)
            ;
        if (j < nf)
            continue; /* a minimal hop, listed above */
        pre[npre] = a;
        st = olm(r, ws, pre, npre + 1, g->head[a], t, 1, max_paths, out, err);
    }
    free(first);
    return st;
}

/* The source group of OLM (u in group A of s, t in group B != A, no
 * global misroute yet): the minimal hops, and at a decision point (s, or
 * the router one minimal local hop from s) the global misroutes, direct or
 * after one non-minimal local hop. */
static tk_status_t olm_src(const tk_router_t *r, tk_route_ws_t *ws, int64_t *pre, int32_t npre,
                           tk_id_t u, tk_id_t t, uint64_t max_paths, tk_pathset_t *out,
                           tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int32_t A = r->df->gof[u], B = r->df->gof[t];
    if (npre + 3 >= DFA_MAX_HOPS)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s: path too long", r->spec.text);
    int64_t *first = NULL, nf = 0;
    tk_status_t st = min_first(r, ws, u, t, &first, &nf, err);
    for (int64_t i = 0; i < nf && st == TK_OK; i++) {
        pre[npre] = first[i];
        if (rt_df_local(r, first[i], u))
            st = olm_src(r, ws, pre, npre + 1, g->head[first[i]], t, max_paths, out, err);
        else
            st = olm(r, ws, pre, npre + 1, g->head[first[i]], t, 0, max_paths, out, err);
    }
    for (int64_t a = g->off[u]; a < g->off[u + 1] && st == TK_OK && npre <= 1; a++) {
        int64_t j;
        pre[npre] = a;
        if (misroute_global(r, a, u, A, B)) {
            st = olm(r, ws, pre, npre + 1, g->head[a], t, 0, max_paths, out, err);
            continue;
        }
        if (!rt_df_local(r, a, u))
            continue;
        for (j = 0; j < nf && first[j] != a; j++)
            ;
        if (j < nf)
            continue; /* a minimal local hop: not a local misroute */
        tk_id_t w = g->head[a];
        for (int64_t b = g->off[w]; b < g->off[w + 1] && st == TK_OK; b++)
            if (misroute_global(r, b, w, A, B)) {
                pre[npre + 1] = b;
                st = olm(r, ws, pre, npre + 2, g->head[b], t, 0, max_paths, out, err);
            }
    }
    free(first);
    return st;
}

static tk_status_t dfolm_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                               uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    int64_t pre[DFA_MAX_HOPS];
    tk_status_t st = r->df->gof[s] == r->df->gof[t]
                         ? olm(r, ws, pre, 0, s, t, 0, max_paths, out, err)
                         : olm_src(r, ws, pre, 0, s, t, max_paths, out, err);
    if (st == TK_OK)
        st = rt_ps_sort(out, 1, err);
    if (st == TK_OK)
        even(out);
    return st;
}

const rt_model_t rt_model_dfugal = {
    .pathset_only = 1,
    .kind = TK_ROUTE_DF_UGAL,
    .name = "dragonfly-ugal",
    .table = RT_TABLE_NONE,
    .prepare = rt_dragonfly_prepare,
    .paths = dfugal_paths,
};

const rt_model_t rt_model_dfpar = {
    .pathset_only = 1,
    .kind = TK_ROUTE_DF_PAR,
    .name = "dragonfly-par",
    .table = RT_TABLE_NONE,
    .prepare = rt_dragonfly_prepare,
    .paths = dfpar_paths,
};

const rt_model_t rt_model_dfolm = {
    .pathset_only = 1,
    .kind = TK_ROUTE_DF_OLM,
    .name = "dragonfly-olm",
    .table = RT_TABLE_NONE,
    .prepare = rt_dragonfly_prepare,
    .paths = dfolm_paths,
};
