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
 *              Depth-first order still exhausts one subtree before the
 *              next: on graphs with many ties at the K-th length (rrg
 *              n=700 d=16: 82 four-hop paths for some pairs) all K paths
 *              can leave by the same first arc.
 *              Fewer than K simple paths: all of them.
 *   ksp:K,spread  the same lengths, but at the K-th length every tie is
 *              listed and the K still needed are those with the smallest
 *              keys mix64 over (s, t, arc ids): a pseudo-random subset,
 *              the same in every run, kept in enumeration order.  A pair
 *              with more than RT_SPREAD_MAX ties is refused (TK_ELIMIT).
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
 * No allocation besides the output's growth (and, for spread, the
 * workspace's heap of kept paths).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

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

/* ksp spread: ties listed per pair before the pair is refused. */
#define RT_SPREAD_MAX 1000000

/* The selection of ksp spread: the `need` listed paths with the smallest
 * (key, rank) so far, a max-heap in ws->skey / ws->sseq / ws->shops /
 * ws->sbuf (stride ws->sstride arcs). */
typedef struct sel {
    int64_t need, kept, seen;
    tk_id_t s, t;
} sel_t;

static int rank_cmp(const void *x, const void *y)
{
    int64_t a = ((const rt_rank_t *)x)->seq, b = ((const rt_rank_t *)y)->seq;
    return a < b ? -1 : a > b;
}

static int sel_less(const tk_route_ws_t *ws, int64_t i, int64_t j)
{
    return ws->skey[i] < ws->skey[j] || (ws->skey[i] == ws->skey[j] && ws->sseq[i] < ws->sseq[j]);
}

static void sel_swap(tk_route_ws_t *ws, int64_t i, int64_t j)
{
    uint64_t k = ws->skey[i];
    int64_t q = ws->sseq[i], h = ws->shops[i], *a = ws->sbuf + i * ws->sstride,
            *b = ws->sbuf + j * ws->sstride;
    ws->skey[i] = ws->skey[j];
    ws->skey[j] = k;
    ws->sseq[i] = ws->sseq[j];
    ws->sseq[j] = q;
    ws->shops[i] = ws->shops[j];
    ws->shops[j] = h;
    for (int64_t x = 0; x < ws->sstride; x++) {
        int64_t v = a[x];
        a[x] = b[x];
        b[x] = v;
    }
}

/* Room for need paths of at most stride arcs. */
static tk_status_t sel_reserve(tk_route_ws_t *ws, int64_t need, int64_t stride, tk_error_t *err)
{
    if (need > ws->scap || need * stride > ws->sbufcap) {
        int64_t c = need > ws->scap ? need : ws->scap;
        uint64_t *k = tk_realloc_array(ws->skey, (size_t)c, sizeof *k);
        if (k)
            ws->skey = k;
        int64_t *q = tk_realloc_array(ws->sseq, (size_t)c, sizeof *q);
        if (q)
            ws->sseq = q;
        int64_t *h = tk_realloc_array(ws->shops, (size_t)c, sizeof *h);
        if (h)
            ws->shops = h;
        int64_t *b = tk_realloc_array(ws->sbuf, (size_t)(c * stride), sizeof *b);
        if (b)
            ws->sbuf = b;
        rt_rank_t *o = tk_realloc_array(ws->srank, (size_t)c, sizeof *o);
        if (o)
            ws->srank = o;
        if (!k || !q || !h || !b || !o)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (ksp spread)");
        ws->scap = c;
        ws->sbufcap = c * stride;
    }
    ws->sstride = stride;
    return TK_OK;
}

/* Offer the listed path ws->path[0 .. hops-1] to the selection. */
static tk_status_t sel_offer(tk_route_ws_t *ws, sel_t *sl, int64_t hops, tk_error_t *err)
{
    uint64_t key =
        tk_mix64(((uint64_t)(uint32_t)sl->s << 32 | (uint32_t)sl->t) ^ 0x5851f42d4c957f2du);
    int64_t i;
    for (int64_t x = 0; x < hops; x++)
        key = tk_mix64(key ^ (uint64_t)ws->path[x]);
    if (++sl->seen > RT_SPREAD_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": more than %d paths of one length "
                            "to choose from (ksp spread)",
                            sl->s, sl->t, RT_SPREAD_MAX);
    if (sl->kept < sl->need) {
        i = sl->kept++;
    } else {
        /* replace the root (the largest kept) if the new path is smaller */
        if (!(key < ws->skey[0]))
            return TK_OK;
        i = 0;
    }
    ws->skey[i] = key;
    ws->sseq[i] = sl->seen;
    ws->shops[i] = hops;
    memcpy(ws->sbuf + i * ws->sstride, ws->path, (size_t)hops * sizeof *ws->path);
    if (i > 0) { /* sift up the appended entry */
        while (i > 0 && sel_less(ws, (i - 1) / 2, i)) {
            sel_swap(ws, i, (i - 1) / 2);
            i = (i - 1) / 2;
        }
    } else if (sl->kept == sl->need) { /* sift down the new root */
        for (;;) {
            int64_t l = 2 * i + 1, r = l + 1, big = i;
            if (l < sl->kept && sel_less(ws, big, l))
                big = l;
            if (r < sl->kept && sel_less(ws, big, r))
                big = r;
            if (big == i)
                break;
            sel_swap(ws, i, big);
            i = big;
        }
    }
    return TK_OK;
}

/* Simple s->t paths of length <= L (exact = 0) or == L (exact = 1), in
 * (rotated if `rotate`) arc order, appended to out until out->npaths
 * reaches cap.  *cut receives the smallest lower bound of an extension cut
 * by L (INT64_MAX if none).  ws->sarc[depth] counts the arcs of the switch
 * at that depth already tried; ws->mind[depth] holds the path length. */
static tk_status_t bounded(const tk_router_t *r, tk_route_ws_t *ws, const int32_t *dt, tk_id_t s,
                           tk_id_t t, int64_t L, int exact, int rotate, int64_t cap, sel_t *sel,
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
            if (u == t && out->npaths < cap && (!exact || len[depth] == L)) {
                st =
                    sel ? sel_offer(ws, sel, depth, err) : rt_ps_push(out, ws->path, depth, 0, err);
                if (st != TK_OK)
                    break;
            }
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

tk_status_t rt_simple_paths(const tk_router_t *r, tk_route_ws_t *ws, int ksp, tk_id_t s, tk_id_t t,
                            uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    const int32_t *dt = rt_dist_to(r, ws, t);
    tk_status_t st;
    int64_t cut;

    if (dt[s] == TK_INF)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0, "no path from %" PRId32 " to %" PRId32,
                            s, t);
    if (ksp) {
        int64_t K = r->spec.k, L = dt[s];
        if (max_paths && (uint64_t)K > max_paths) {
            /* fewer simple paths than K could still fit: list first */
            K = (int64_t)max_paths + 1;
        }
        for (;;) {
            if (r->spec.spread) {
                /* list every path of length L, keep the K - npaths with the
                 * smallest keys, in enumeration order */
                sel_t sl = {K - out->npaths, 0, 0, s, t};
                if ((st = sel_reserve(ws, sl.need, L, err)) != TK_OK)
                    return st;
                st = bounded(r, ws, dt, s, t, L, 1, 1, INT64_MAX, &sl, out, &cut, err);
                if (st)
                    return st;
                /* out in enumeration order: heap entries by rank */
                for (int64_t i = 0; i < sl.kept; i++) {
                    ws->srank[i].seq = ws->sseq[i];
                    ws->srank[i].at = i;
                }
                qsort(ws->srank, (size_t)sl.kept, sizeof *ws->srank, rank_cmp);
                for (int64_t i = 0; i < sl.kept; i++) {
                    int64_t at = ws->srank[i].at;
                    if ((st = rt_ps_push(out, ws->sbuf + at * ws->sstride, ws->shops[at], 0,
                                         err)) != TK_OK)
                        return st;
                }
            } else {
                st = bounded(r, ws, dt, s, t, L, 1, 1, K, NULL, out, &cut, err);
                if (st)
                    return st;
            }
            if (out->npaths >= K || cut == INT64_MAX)
                break;
            L = cut;
        }
    } else {
        int64_t cap = max_paths ? (int64_t)max_paths + 1 : INT64_MAX;
        if (dt[s] > r->spec.h)
            return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                "%s: no path from %" PRId32 " to %" PRId32 " within %" PRId32
                                " hops (distance %" PRId32 ")",
                                r->spec.text, s, t, r->spec.h, dt[s]);
        st = bounded(r, ws, dt, s, t, r->spec.h, 0, 0, cap, NULL, out, &cut, err);
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

/* ------------------------------------------------------------------------ */
/* The ksp model (allpath: allpath.c).                                      */

static tk_status_t ksp_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return rt_simple_paths(r, ws, 1, s, t, max_paths, out, err);
}

const rt_model_t rt_model_ksp = {
    .kind = TK_ROUTE_KSP,
    .name = "ksp",
    .opts = RT_OPT_K | RT_OPT_SPREAD | RT_OPT_WEIGHTS,
    .table = RT_TABLE_WANT,
    .paths = ksp_paths,
};
