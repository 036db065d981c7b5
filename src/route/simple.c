/*
 * simple.c - models made of simple paths:
 *   ksp:K      the K shortest simple s->t paths (length = sum of hop
 *              lengths), even split.  Among paths of equal length the order
 *              is lexicographic in a pair-dependent rotation of every
 *              switch's arc order: at switch u the arcs are taken from
 *              position rot(s,t,u) = mix64(s, t, u) mod deg(u) onwards,
 *              cyclically.  A fixed rotation that depends on the pair
 *              breaks the ties at the K-th length pseudo-randomly, like
 *              an implementation that picks any K shortest paths, without
 *              the bias of plain arc order (which sent every tie through
 *              the lowest-numbered neighbours and overloaded their links).
 *              Fewer than K simple paths: all of them.
 *   allpath:H  every simple s->t path of at most H hops; even split.
 *
 * Search: d(v,t) from the router's table (or the workspace cache).  A
 * depth-first search in (rotated, for ksp) arc order extends a partial path of length l at u
 * by an arc u->v (v not on the path) only if l + len + d(v,t) <= L, so it
 * lists the simple paths of length <= L (allpath, L = H) or exactly L (ksp)
 * in that order.  ksp runs L = d(s,t), then the smallest value
 * l + len + d(v,t) > L among the extensions the bound cut (no simple path
 * has a length in between), and so on until K paths are listed or no
 * extension was cut (no longer simple path exists).  Like the length-only
 * counter of src/metric/ksp.c this stays small on low-diameter graphs
 * (rrg, Slim Fly, Dragonfly) and is exponential in the worst case.
 * No allocation besides the output's growth.
 */
#include <config.h>

#include <inttypes.h>

#include "route_internal.h"

/* Position of the first arc tried at switch u for pair (s,t): 0 for
 * allpath (plain arc order), a pseudo-random rotation for ksp. */
static inline int64_t rot(int rotate, tk_id_t s, tk_id_t t, tk_id_t u, int64_t deg)
{
    if (!rotate || deg <= 1)
        return 0;
    uint64_t h = tk_mix64(((uint64_t)(uint32_t)s << 32 | (uint32_t)t) ^
                          tk_mix64((uint64_t)(uint32_t)u + 0x9e3779b97f4a7c15u));
    return (int64_t)(h % (uint64_t)deg);
}

/* Simple s->t paths of length <= L (exact = 0) or == L (exact = 1), in
 * (rotated if `rotate`) arc order, appended to out until out->npaths
 * reaches cap.  *cut receives the smallest lower bound of an extension cut
 * by L (INT64_MAX if none).  ws->sarc[depth] counts the arcs of the switch
 * at that depth already tried; ws->mind[depth] holds the path length. */
static tk_status_t bounded(const tk_router_t *r, tk_route_ws_t *ws, const int32_t *dt, tk_id_t s,
                           tk_id_t t, int64_t L, int exact, int rotate, int64_t cap,
                           tk_pathset_t *out, int64_t *cut, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int64_t depth = 0, best_cut = INT64_MAX;
    int32_t *len = ws->mind; /* length of the partial path at each depth */
    tk_status_t st = TK_OK;

    ws->stk[0] = s;
    ws->sarc[0] = 0;
    len[0] = 0;
    ws->onpath[s] = 1;
    while (depth >= 0) {
        tk_id_t u = ws->stk[depth];
        if (u == t || out->npaths >= cap) {
            if (u == t && out->npaths < cap && (!exact || len[depth] == L))
                if ((st = rt_ps_push(out, ws->path, depth, 0, err)) != TK_OK)
                    break;
            ws->onpath[u] = 0;
            depth--;
            continue;
        }
        int64_t base = g->off[u], deg = g->off[u + 1] - base;
        int64_t r0 = rot(rotate, s, t, u, deg), i = ws->sarc[depth], a = 0;
        for (; i < deg; i++) {
            int64_t j = r0 + i;
            a = base + (j >= deg ? j - deg : j);
            tk_id_t v = g->head[a];
            if (ws->onpath[v] || dt[v] == TK_INF)
                continue;
            int64_t lb = (int64_t)len[depth] + rt_len(r, a) + dt[v];
            if (lb <= L)
                break;
            if (lb < best_cut)
                best_cut = lb;
        }
        if (i == deg) {
            ws->onpath[u] = 0;
            depth--;
            continue;
        }
        tk_id_t v = g->head[a];
        ws->sarc[depth] = i + 1;
        ws->path[depth] = a;
        depth++;
        ws->stk[depth] = v;
        ws->sarc[depth] = 0;
        len[depth] = len[depth - 1] + rt_len(r, a);
        ws->onpath[v] = 1;
    }
    if (st) /* clear the marks left on the stack */
        for (; depth >= 0; depth--)
            ws->onpath[ws->stk[depth]] = 0;
    *cut = best_cut;
    return st;
}

tk_status_t rt_simple_paths(const tk_router_t *r, tk_route_ws_t *ws, int ksp, tk_id_t s,
                            tk_id_t t, uint64_t max_paths, tk_pathset_t *out,
                            tk_error_t *err)
{
    const int32_t *dt = rt_dist_to(r, ws, t);
    tk_status_t st;
    int64_t cut;

    if (dt[s] == TK_INF)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                            "no path from %" PRId32 " to %" PRId32, s, t);
    if (ksp) {
        int64_t K = r->spec.k, L = dt[s];
        if (max_paths && (uint64_t)K > max_paths) {
            /* fewer simple paths than K could still fit: list first */
            K = (int64_t)max_paths + 1;
        }
        for (;;) {
            st = bounded(r, ws, dt, s, t, L, 1, 1, K, out, &cut, err);
            if (st)
                return st;
            if (out->npaths >= K || cut == INT64_MAX)
                break;
            L = cut;
        }
    } else {
        int64_t cap = max_paths ? (int64_t)max_paths + 1 : INT64_MAX;
        if (dt[s] > r->spec.h)
            return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                "%s: no path from %" PRId32 " to %" PRId32
                                " within %" PRId32 " hops (distance %" PRId32 ")",
                                r->spec.text, s, t, r->spec.h, dt[s]);
        st = bounded(r, ws, dt, s, t, r->spec.h, 0, 0, cap, out, &cut, err);
        if (st)
            return st;
    }
    if (max_paths && (uint64_t)out->npaths > max_paths)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": more than %" PRIu64 " paths", s, t,
                            max_paths);
    for (int64_t i = 0; i < out->npaths; i++)
        out->w[i] = 1.0 / (double)out->npaths;
    return TK_OK;
}
