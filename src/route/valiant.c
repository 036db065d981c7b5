/*
 * valiant.c - Valiant routing: an intermediate switch m drawn uniformly,
 * then min (uniform over the shortest paths, hop lengths applied) from s to
 * m and from m to t.  As an oblivious routing its expectation: every
 * concatenation P1.P2 (P1 a shortest s->m path, P2 a shortest m->t path)
 * with weight Pr(m) / (sigma(s,m) sigma(m,t)).  Concatenations are walks
 * (they may repeat switches and arcs); equal arc sequences obtained through
 * different intermediates are one path whose weights add up.
 *   valiant           m over all n switches (Pr 1/n); m = s or m = t gives
 *                     a minimal path
 *   valiant,minfirst  the same paths and weights (seed 002's MinFirst: the
 *                     draws m = s and m = t are routed minimally, in the
 *                     first VC phase; the phase matters to deadlock
 *                     analysis only)
 *   valiant,exclude   m over the n - 2 switches other than s and t (with
 *                     n = 2: the minimal paths)
 * Cost per pair: sum over m of O(n + m) plus the concatenations, then a
 * sort to merge equal paths.
 */
#include <config.h>

#include <inttypes.h>

#include "route_internal.h"

tk_status_t rt_valiant_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    tk_id_t n = r->g->n;
    int excl = r->spec.valiant == TK_VALIANT_EXCLUDE;
    double pm;
    tk_status_t st;
    uint64_t routes = 0, cap;

    if (excl && n <= 2)
        return rt_dag_paths(r, ws, RT_DAG_MIN, s, t, max_paths, out, err);
    pm = 1.0 / (double)(excl ? n - 2 : n);
    cap = max_paths ? 64 * max_paths + 1000000 : 0;
    for (tk_id_t m = 0; m < n; m++) {
        if (excl && (m == s || m == t))
            continue;
        tk_pathset_t *a = &ws->seg1, *b = &ws->seg2;
        rt_ps_clear(a);
        rt_ps_clear(b);
        if (m == s)
            st = rt_ps_push(a, NULL, 0, 1.0, err);
        else
            st = rt_dag_paths(r, ws, RT_DAG_MIN, s, m, cap, a, err);
        if (st)
            return st;
        if (m == t)
            st = rt_ps_push(b, NULL, 0, 1.0, err);
        else
            st = rt_dag_paths(r, ws, RT_DAG_MIN, m, t, cap, b, err);
        if (st)
            return st;
        routes += (uint64_t)a->npaths * (uint64_t)b->npaths;
        if (cap && routes > cap)
            return tk_error_set(err, TK_ELIMIT, NULL, 0,
                                "pair %" PRId32 ",%" PRId32 ": more than %" PRIu64 " paths", s, t,
                                max_paths);
        for (int64_t i = 0; i < a->npaths; i++)
            for (int64_t j = 0; j < b->npaths; j++) {
                int64_t l1 = a->off[i + 1] - a->off[i], l2 = b->off[j + 1] - b->off[j];
                for (int64_t k = 0; k < l1; k++)
                    ws->path[k] = a->arc[a->off[i] + k];
                for (int64_t k = 0; k < l2; k++)
                    ws->path[l1 + k] = b->arc[b->off[j] + k];
                st = rt_ps_push(out, ws->path, l1 + l2, pm * a->w[i] * b->w[j], err);
                if (st)
                    return st;
            }
    }
    if ((st = rt_ps_merge(out, err)) != TK_OK)
        return st;
    if (max_paths && (uint64_t)out->npaths > max_paths)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": more than %" PRIu64 " paths", s, t,
                            max_paths);
    return TK_OK;
}
