/*
 * cdg.c - the channel dependency graph of a routing under a VC policy
 * (tk_vc_analyse), its shortest cycle, the witness and certificate checks
 * and the least caps of the capped families.
 *
 * Construction: OpenMP over sources (dynamic, one source a unit); every
 * thread lists the paths of its pairs (tk_route_paths), gives their hops
 * VCs (vc_assign) and inserts channels and dependencies into its own hash
 * sets; the sets are merged by sorting their union, so the graph does not
 * depend on the thread count.  A dependency is recorded once however many
 * paths make it, so the cost is that of listing the paths (the product of
 * a Valiant pair's segment sets included: no counting shortcut here).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#define omp_get_thread_num() 0
#endif

#include "vc/vc_internal.h"

typedef struct cdg {
    uint32_t *node;
    int64_t nn;
    uint64_t *dep;
    int64_t nd;
    int32_t max_hops;
} cdg_t;

static void cdg_free(cdg_t *c)
{
    free(c->node);
    free(c->dep);
    memset(c, 0, sizeof *c);
}

typedef struct tstate {
    vc_set_t nodes, deps;
    tk_route_ws_t *ws;
    tk_pathset_t ps;
    int32_t *lo, *hi, *esc;
    int64_t cap;
    uint8_t *escall; /* olm: the escape flags of a pair's every hop */
    int64_t capall;
    int32_t max_hops;
    tk_status_t st;
    tk_id_t es; /* source of the recorded error */
    tk_error_t err;
} tstate_t;

static int grow_hops(tstate_t *t, int64_t len)
{
    if (len <= t->cap)
        return 0;
    int64_t c = len + 64;
    int32_t *a = realloc(t->lo, (size_t)c * sizeof *a), *b, *e;
    if (!a)
        return -1;
    t->lo = a;
    if (!(b = realloc(t->hi, (size_t)c * sizeof *b)))
        return -1;
    t->hi = b;
    if (!(e = realloc(t->esc, (size_t)c * sizeof *e)))
        return -1;
    t->esc = e;
    t->cap = c;
    return 0;
}

/* Channels and dependencies of one path into t's sets.  duato: 0 the
 * plain CDG, 1 the extended CDG over the ladder's escape VCs, 2 the escape
 * hops of olm (esc[i] = 1: hop i is one). */
static int add_path(tstate_t *t, const vc_path_t *p, int duato)
{
    int bad = 0;
    for (int32_t i = 0; i < p->len; i++) {
        for (int32_t x = t->lo[i]; x <= t->hi[i]; x++) {
            uint64_t from = VC_NODE(p->arc[i], x);
            bad |= vc_set_add(&t->nodes, from) < 0;
            if (duato == 2) {
                if (i + 1 < p->len && t->esc[i + 1])
                    for (int32_t y = t->lo[i + 1]; y <= t->hi[i + 1]; y++)
                        bad |= vc_set_add(&t->deps, from << 32 | VC_NODE(p->arc[i + 1], y)) < 0;
            } else if (!duato) {
                if (i + 1 < p->len)
                    for (int32_t y = t->lo[i + 1]; y <= t->hi[i + 1]; y++)
                        bad |= vc_set_add(&t->deps, from << 32 | VC_NODE(p->arc[i + 1], y)) < 0;
            } else {
                for (int32_t k = i + 1; k < p->len; k++)
                    bad |= vc_set_add(&t->deps, from << 32 | VC_NODE(p->arc[k], t->esc[k])) < 0;
            }
        }
    }
    return bad ? -1 : 0;
}

/* olm: every state of pair (s, d), i.e. every proper prefix of one of
 * its paths, must be continued by an escape hop of some path of the pair
 * (Duato: the escape is offered everywhere).  The paths come sorted by arc
 * sequence, so the paths that share a prefix are consecutive. */
static tk_status_t check_escape(const vc_ctx_t *c, const tk_pathset_t *ps, const uint8_t *esc,
                                tk_id_t s, tk_id_t d, tk_error_t *err)
{
    int64_t maxlen = 0;
    for (int64_t i = 0; i < ps->npaths; i++)
        if (ps->off[i + 1] - ps->off[i] > maxlen)
            maxlen = ps->off[i + 1] - ps->off[i];
    for (int64_t k = 1; k < maxlen; k++) { /* prefixes of k arcs */
        int64_t i = 0;
        while (i < ps->npaths) {
            if (ps->off[i + 1] - ps->off[i] <= k) {
                i++;
                continue;
            }
            int found = 0;
            int64_t j = i;
            for (; j < ps->npaths && ps->off[j + 1] - ps->off[j] > k; j++) {
                if (j > i && memcmp(ps->arc + ps->off[i], ps->arc + ps->off[j],
                                    (size_t)k * sizeof *ps->arc) != 0)
                    break;
                found |= esc[ps->off[j] + k];
            }
            if (!found) {
                int64_t a = ps->arc[ps->off[i] + k - 1];
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "%s: pair %" PRId32 ",%" PRId32
                                    ": no escape hop after hop %" PRId64 " (%" PRId32 ">%" PRId32
                                    ") of path %" PRId64,
                                    c->pol.text, s, d, k - 1, c->tail[a], c->g->head[a], i);
            }
            i = j;
        }
    }
    return TK_OK;
}

static tk_status_t source_paths(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                                int duato, tstate_t *t, tk_id_t s)
{
    tk_id_t n = c->g->n;
    tk_status_t st;
    if (o->server_pairs && tk_graph_servers(c->g, s) <= 0)
        return TK_OK;
    for (tk_id_t d = 0; d < n; d++) {
        if (d == s || (o->server_pairs && tk_graph_servers(c->g, d) <= 0))
            continue;
        if ((st = tk_route_paths(r, t->ws, s, d, o->max_paths, &t->ps, &t->err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < t->ps.npaths; i++) {
            vc_path_t p = {t->ps.arc + t->ps.off[i],
                           (int32_t)(t->ps.off[i + 1] - t->ps.off[i]),
                           s,
                           d,
                           t->ps.via[i],
                           t->ps.phase2[i]};
            if (grow_hops(t, p.len))
                return tk_error_set(&t->err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
            if ((st = vc_assign(c, &p, t->lo, t->hi, t->esc, &t->err)) != TK_OK)
                return st;
            if (p.len > t->max_hops)
                t->max_hops = p.len;
            if (add_path(t, &p, duato))
                return tk_error_set(&t->err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
            if (duato == 2) {
                int64_t need = t->ps.off[t->ps.npaths];
                if (need > t->capall) {
                    uint8_t *e = realloc(t->escall, (size_t)need + 64);
                    if (!e)
                        return tk_error_set(&t->err, TK_ENOMEM, NULL, 0,
                                            "out of memory (VC analysis)");
                    t->escall = e;
                    t->capall = need + 64;
                }
                for (int32_t k = 0; k < p.len; k++)
                    t->escall[t->ps.off[i] + k] = (uint8_t)t->esc[k];
            }
        }
        if (duato == 2 && (st = check_escape(c, &t->ps, t->escall, s, d, &t->err)) != TK_OK)
            return st;
    }
    return TK_OK;
}

static int vc_u64cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* The sorted union of sets[0 .. nt-1] (freed). */
static uint64_t *merge_sets(vc_set_t *sets, int nt, int64_t *count)
{
    size_t total = 0, n = 0;
    for (int i = 0; i < nt; i++)
        total += sets[i].n;
    uint64_t *all = malloc((total ? total : 1) * sizeof *all);
    for (int i = 0; i < nt; i++) {
        uint64_t *k = all ? vc_set_sorted(&sets[i]) : NULL;
        if (k) {
            memcpy(all + n, k, sets[i].n * sizeof *k);
            n += sets[i].n;
        }
        if (!k) {
            free(all);
            all = NULL;
        }
        free(k);
        vc_set_free(&sets[i]);
    }
    if (!all)
        return NULL;
    size_t w = 0;
    if (n) {
        qsort(all, n, sizeof *all, vc_u64cmp);
        for (size_t i = 0; i < n; i++)
            if (!w || all[w - 1] != all[i])
                all[w++] = all[i];
    }
    *count = (int64_t)w;
    return all;
}

/* The graph from the sets (freed). */
static tk_status_t finish(vc_set_t *ns, vc_set_t *ds, int nt, cdg_t *out, tk_error_t *err)
{
    uint64_t *nodes = merge_sets(ns, nt, &out->nn);
    out->dep = merge_sets(ds, nt, &out->nd);
    out->node = nodes ? malloc(((size_t)out->nn + 1) * sizeof *out->node) : NULL;
    if (out->node)
        for (int64_t i = 0; i < out->nn; i++)
            out->node[i] = (uint32_t)nodes[i];
    free(nodes);
    if (!out->node || !out->dep) {
        cdg_free(out);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
    }
    return TK_OK;
}

/* The segment engine when it applies (TK_EUNSUPPORTED: it does not). */
static tk_status_t build_segments(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                                  cdg_t *out, tk_error_t *err)
{
    tk_route_ws_t *ws = NULL;
    tk_pathset_t ps;
    tk_error_t e;
    tk_status_t st;
    vc_set_t *ns = NULL, *ds = NULL;
    int nt = 0;
    if (o->enumerate || !vc_segments_apply(r, &c->pol))
        return TK_EUNSUPPORTED;
    tk_pathset_init(&ps);
    st = tk_route_ws_new(r, &ws, err);
    if (st == TK_OK && tk_route_segment(r, ws, 0, 0, 0, &ps, &e) != TK_OK)
        st = TK_EUNSUPPORTED;
    tk_route_ws_free(ws);
    tk_pathset_destroy(&ps);
    if (st != TK_OK)
        return st;
    if ((st = vc_build_segments(r, c, o, &ns, &ds, &nt, &out->max_hops, err)) != TK_OK)
        return st == TK_EUNSUPPORTED ? TK_EINVAL : st;
    st = finish(ns, ds, nt, out, err);
    free(ns);
    free(ds);
    return st;
}

static tk_status_t build(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o, int duato,
                         cdg_t *out, tk_error_t *err)
{
    tk_id_t n = c->g->n;
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    tstate_t *ts = calloc((size_t)nt, sizeof *ts);
    tk_status_t st = TK_OK;
    memset(out, 0, sizeof *out);
    if (!duato && (st = build_segments(r, c, o, out, err)) != TK_EUNSUPPORTED) {
        free(ts);
        return st;
    }
    st = TK_OK;
    if (!ts)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
    for (int i = 0; i < nt; i++) {
        tk_pathset_init(&ts[i].ps);
        ts[i].es = n;
        if (st == TK_OK)
            st = tk_route_ws_new(r, &ts[i].ws, err);
    }
    if (st == TK_OK) {
        tk_progress_t *pr = tk_router_progress(r);
        tk_progress_begin(pr, "channel dependencies", "sources", n);
#pragma omp parallel num_threads(nt)
        {
            tstate_t *t = &ts[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
            for (tk_id_t s = 0; s < n; s++) {
                if (t->st != TK_OK)
                    continue;
                tk_status_t e = source_paths(r, c, o, duato, t, s);
                if (e != TK_OK) {
                    t->st = e;
                    t->es = s;
                }
                tk_progress_add(pr, 1);
            }
        }
        tk_progress_end(pr);
        /* the error of the smallest failing source a thread met */
        int best = -1;
        for (int i = 0; i < nt; i++)
            if (ts[i].st != TK_OK && (best < 0 || ts[i].es < ts[best].es))
                best = i;
        if (best >= 0) {
            st = ts[best].st;
            if (err)
                *err = ts[best].err;
        }
    }
    if (st == TK_OK) {
        for (int i = 0; i < nt; i++)
            if (ts[i].max_hops > out->max_hops)
                out->max_hops = ts[i].max_hops;
        vc_set_t *ns = calloc((size_t)nt, sizeof *ns), *ds = calloc((size_t)nt, sizeof *ds);
        if (!ns || !ds)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
        for (int i = 0; i < nt && st == TK_OK; i++) {
            ns[i] = ts[i].nodes;
            ds[i] = ts[i].deps;
            memset(&ts[i].nodes, 0, sizeof ts[i].nodes);
            memset(&ts[i].deps, 0, sizeof ts[i].deps);
        }
        if (st == TK_OK)
            st = finish(ns, ds, nt, out, err);
        free(ns);
        free(ds);
    }
    for (int i = 0; i < nt; i++) {
        vc_set_free(&ts[i].nodes);
        vc_set_free(&ts[i].deps);
        tk_route_ws_free(ts[i].ws);
        tk_pathset_destroy(&ts[i].ps);
        free(ts[i].lo);
        free(ts[i].hi);
        free(ts[i].esc);
        free(ts[i].escall);
    }
    free(ts);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Shortest cycle.                                                          */

/* A shortest cycle among the nodes Kahn left (done[i] == 0): a
 * breadth-first search from each in index order, bounded by the best cycle
 * so far.  cyc receives the node indices (len returned), 0 if none. */
static int64_t shortest_cycle(const cdg_t *g, const uint8_t *done, int64_t **cyc)
{
    int64_t nn = g->nn, best = INT64_MAX, bestlen = 0;
    int64_t *off = calloc((size_t)nn + 1, sizeof *off), *to = malloc(((size_t)g->nd + 1) * 8);
    int64_t *dist = malloc(((size_t)nn + 1) * 8), *par = malloc(((size_t)nn + 1) * 8);
    int64_t *q = malloc(((size_t)nn + 1) * 8), *res = NULL;
    int64_t *touched = malloc(((size_t)nn + 1) * 8);
    if (!off || !to || !dist || !par || !q || !touched)
        goto out;
    for (int64_t e = 0; e < g->nd; e++) {
        off[vc_node_index(g->node, nn, (uint32_t)(g->dep[e] >> 32)) + 1]++;
        to[e] = vc_node_index(g->node, nn, (uint32_t)g->dep[e]);
    }
    for (int64_t i = 0; i < nn; i++) {
        off[i + 1] += off[i];
        dist[i] = -1;
    }
    for (int64_t src = 0; src < nn && best > 1; src++) {
        if (done[src])
            continue;
        int64_t h = 0, tl = 0, nt = 0, found = -1;
        dist[src] = 0;
        q[tl++] = src;
        touched[nt++] = src;
        while (h < tl && found < 0) {
            int64_t u = q[h++];
            if (dist[u] + 1 >= best)
                break;
            for (int64_t e = off[u]; e < off[u + 1]; e++) {
                int64_t v = to[e];
                if (done[v])
                    continue;
                if (v == src) {
                    found = u;
                    break;
                }
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    par[v] = u;
                    q[tl++] = v;
                    touched[nt++] = v;
                }
            }
        }
        if (found >= 0 && dist[found] + 1 < best) {
            best = dist[found] + 1;
            free(res);
            res = malloc((size_t)best * sizeof *res);
            if (!res)
                goto out;
            for (int64_t k = best - 1, x = found; k >= 0; k--, x = par[x])
                res[k] = x;
            bestlen = best;
        }
        for (int64_t i = 0; i < nt; i++)
            dist[touched[i]] = -1;
    }
out:
    free(off);
    free(to);
    free(dist);
    free(par);
    free(q);
    free(touched);
    *cyc = res;
    return res ? bestlen : 0;
}

/* Does path p (with its VCs) make dependency from -> to?  The hop that
 * makes it, or -1. */
static int32_t makes(const vc_path_t *p, const int32_t *lo, const int32_t *hi, const int32_t *esc,
                     int duato, uint32_t from, uint32_t to)
{
    for (int32_t i = 0; i + 1 < p->len; i++) {
        if (p->arc[i] != VC_ARC(from) || VC_VC(from) < lo[i] || VC_VC(from) > hi[i])
            continue;
        if (duato == 2) {
            if (esc[i + 1] && p->arc[i + 1] == VC_ARC(to) && VC_VC(to) >= lo[i + 1] &&
                VC_VC(to) <= hi[i + 1])
                return i;
        } else if (!duato) {
            if (p->arc[i + 1] == VC_ARC(to) && VC_VC(to) >= lo[i + 1] && VC_VC(to) <= hi[i + 1])
                return i;
        } else {
            for (int32_t k = i + 1; k < p->len; k++)
                if (p->arc[k] == VC_ARC(to) && esc[k] == VC_VC(to))
                    return i;
        }
    }
    return -1;
}

/* The first pair (in (s, t) order), path and hop that make each step's
 * dependency. */
static tk_status_t find_makers(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                               int duato, const uint32_t *cyc, int32_t len, tk_vc_step_t *step,
                               tk_error_t *err)
{
    tstate_t t;
    tk_status_t st = TK_OK;
    int32_t left = len;
    tk_id_t n = c->g->n;
    memset(&t, 0, sizeof t);
    tk_pathset_init(&t.ps);
    for (int32_t k = 0; k < len; k++) {
        step[k].arc = VC_ARC(cyc[k]);
        step[k].vc = VC_VC(cyc[k]);
        step[k].src = -1;
    }
    if ((st = tk_route_ws_new(r, &t.ws, err)) != TK_OK)
        goto out;
    for (tk_id_t s = 0; s < n && left; s++)
        for (tk_id_t d = 0; d < n && left; d++) {
            if (d == s || (o->server_pairs &&
                           (tk_graph_servers(c->g, s) <= 0 || tk_graph_servers(c->g, d) <= 0)))
                continue;
            if ((st = tk_route_paths(r, t.ws, s, d, o->max_paths, &t.ps, err)) != TK_OK)
                goto out;
            for (int64_t i = 0; i < t.ps.npaths && left; i++) {
                vc_path_t p = {t.ps.arc + t.ps.off[i],
                               (int32_t)(t.ps.off[i + 1] - t.ps.off[i]),
                               s,
                               d,
                               t.ps.via[i],
                               t.ps.phase2[i]};
                if (grow_hops(&t, p.len)) {
                    st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                    goto out;
                }
                if ((st = vc_assign(c, &p, t.lo, t.hi, t.esc, err)) != TK_OK)
                    goto out;
                for (int32_t k = 0; k < len; k++) {
                    if (step[k].src >= 0)
                        continue;
                    int32_t h = makes(&p, t.lo, t.hi, t.esc, duato, cyc[k], cyc[(k + 1) % len]);
                    if (h >= 0) {
                        step[k].src = s;
                        step[k].dst = d;
                        step[k].via = p.via;
                        step[k].hop = h;
                        left--;
                    }
                }
            }
        }
    if (left)
        st = tk_error_set(err, TK_EINVAL, NULL, 0, "witness: a dependency has no path (bug)");
out:
    tk_route_ws_free(t.ws);
    tk_pathset_destroy(&t.ps);
    free(t.lo);
    free(t.hi);
    free(t.esc);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Public entry points.                                                     */

void tk_vc_result_destroy(tk_vc_result_t *res)
{
    if (!res)
        return;
    free(res->node);
    free(res->dep);
    free(res->rank);
    free(res->step);
    memset(res, 0, sizeof *res);
}

/* 1: Duato over the ladder's escape VCs; 2: over olm's escape hops. */
static int is_duato(const tk_vc_policy_t *pol)
{
    return pol->kind == TK_VC_LADDER_REUSE ? 1 : pol->kind == TK_VC_OLM ? 2 : 0;
}

/* escape: the escape routing's CDG on VC 0 (see tk_vc.h), and the VCs
 * of the classes the routing's paths use: 1 + A. */
static tk_status_t analyse_escape(const tk_router_t *r, const tk_vc_policy_t *pol,
                                  const tk_vc_opts_t *opts, tk_vc_result_t *out, tk_error_t *err)
{
    tk_vc_policy_t none;
    tk_vc_opts_t o = *opts;
    tk_vc_result_t main;
    tk_status_t st;
    if (!opts->escape || tk_router_graph(opts->escape) != tk_router_graph(r))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "%s: needs an escape routing on the same graph", pol->text);
    tk_vc_parse("none", &none, err);
    o.escape = NULL;
    /* the routing's own paths: which classes they use, their longest */
    o.witness = 0;
    o.keep_graph = 0;
    if ((st = tk_vc_analyse(r, &none, &o, &main, err)) != TK_OK)
        return st;
    o = *opts;
    o.escape = NULL;
    o.server_pairs = 0;
    st = tk_vc_analyse(opts->escape, &none, &o, out, err);
    if (st == TK_OK) {
        out->duato = 1;
        out->max_hops = main.max_hops;
        for (int cl = 0; cl < TK_MAX_CLASSES; cl++)
            out->vcs[cl] = main.vcs[cl] || out->vcs[cl] ? 1 + pol->cap : 0;
    }
    tk_vc_result_destroy(&main);
    return st;
}

tk_status_t tk_vc_analyse(const tk_router_t *r, const tk_vc_policy_t *pol, const tk_vc_opts_t *opts,
                          tk_vc_result_t *out, tk_error_t *err)
{
    vc_ctx_t c;
    cdg_t g;
    tk_status_t st;
    uint8_t *done = NULL;
    int32_t *rank = NULL;
    memset(out, 0, sizeof *out);
    memset(&g, 0, sizeof g);
    if (pol->kind == TK_VC_ESCAPE)
        return analyse_escape(r, pol, opts, out, err);
    if ((st = vc_ctx_init(&c, r, pol, err)) != TK_OK)
        goto out;
    out->duato = is_duato(pol);
    if ((st = build(r, &c, opts, out->duato, &g, err)) != TK_OK)
        goto out;
    out->channels = g.nn;
    out->deps = g.nd;
    out->max_hops = g.max_hops;
    out->nclasses = c.g->nclasses;
    for (int64_t i = 0; i < g.nn; i++) {
        int cl = c.g->cls ? c.g->cls[VC_ARC(g.node[i])] : 0;
        if (VC_VC(g.node[i]) + 1 > out->vcs[cl])
            out->vcs[cl] = VC_VC(g.node[i]) + 1;
    }
    done = malloc((size_t)g.nn + 1);
    rank = malloc(((size_t)g.nn + 1) * sizeof *rank);
    if (!done || !rank) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
        goto out;
    }
    int k = vc_kahn(g.node, g.nn, g.dep, g.nd, rank, done);
    if (k < 0) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
        goto out;
    }
    out->acyclic = k;
    if (!k && opts->witness) {
        int64_t *cyc = NULL;
        int64_t len = shortest_cycle(&g, done, &cyc);
        uint32_t *cn = len ? malloc((size_t)len * sizeof *cn) : NULL;
        out->step = len ? calloc((size_t)len, sizeof *out->step) : NULL;
        if (!cyc || !cn || !out->step) {
            free(cyc);
            free(cn);
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (witness)");
            goto out;
        }
        for (int64_t i = 0; i < len; i++)
            cn[i] = g.node[cyc[i]];
        free(cyc);
        out->nsteps = (int32_t)len;
        st = find_makers(r, &c, opts, out->duato, cn, (int32_t)len, out->step, err);
        free(cn);
        if (st)
            goto out;
    }
    if (opts->keep_graph) {
        out->node = g.node;
        out->dep = g.dep;
        g.node = NULL;
        g.dep = NULL;
        if (k) {
            out->rank = rank;
            rank = NULL;
        }
    }
out:
    if (st != TK_OK)
        tk_vc_result_destroy(out);
    free(done);
    free(rank);
    cdg_free(&g);
    vc_ctx_destroy(&c);
    return st;
}

tk_status_t tk_vc_witness_check(const tk_router_t *r, const tk_vc_policy_t *pol,
                                const tk_vc_step_t *step, int32_t nsteps, tk_error_t *err)
{
    vc_ctx_t c;
    tstate_t t;
    tk_status_t st;
    memset(&t, 0, sizeof t);
    tk_pathset_init(&t.ps);
    if (nsteps < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "witness: no step");
    if (pol->kind == TK_VC_ESCAPE)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "escape: check the witness on the escape routing under none");
    if ((st = vc_ctx_init(&c, r, pol, err)) != TK_OK)
        return st;
    if ((st = tk_route_ws_new(r, &t.ws, err)) != TK_OK)
        goto out;
    for (int32_t k = 0; k < nsteps && st == TK_OK; k++) {
        const tk_vc_step_t *a = &step[k], *b = &step[(k + 1) % nsteps];
        int ok = 0;
        if ((st = tk_route_paths(r, t.ws, a->src, a->dst, 0, &t.ps, err)) != TK_OK)
            break;
        for (int64_t i = 0; i < t.ps.npaths && !ok && st == TK_OK; i++) {
            vc_path_t p = {t.ps.arc + t.ps.off[i],
                           (int32_t)(t.ps.off[i + 1] - t.ps.off[i]),
                           a->src,
                           a->dst,
                           t.ps.via[i],
                           t.ps.phase2[i]};
            if (p.via != a->via || a->hop < 0 || a->hop + 1 >= p.len || p.arc[a->hop] != a->arc)
                continue;
            if (grow_hops(&t, p.len)) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                break;
            }
            if ((st = vc_assign(&c, &p, t.lo, t.hi, t.esc, err)) != TK_OK)
                break;
            if (a->vc < t.lo[a->hop] || a->vc > t.hi[a->hop])
                continue;
            if (is_duato(pol) == 2)
                ok = t.esc[a->hop + 1] && p.arc[a->hop + 1] == b->arc &&
                     b->vc >= t.lo[a->hop + 1] && b->vc <= t.hi[a->hop + 1];
            else if (!is_duato(pol))
                ok = p.arc[a->hop + 1] == b->arc && b->vc >= t.lo[a->hop + 1] &&
                     b->vc <= t.hi[a->hop + 1];
            else
                for (int32_t j = a->hop + 1; j < p.len; j++)
                    ok |= p.arc[j] == b->arc && t.esc[j] == b->vc;
        }
        if (st == TK_OK && !ok)
            st = tk_error_set(err, TK_EINVAL, NULL, 0,
                              "witness: step %" PRId32 " (pair %" PRId32 ",%" PRId32
                              ", hop %" PRId32 ") does not make its dependency",
                              k, a->src, a->dst, a->hop);
    }
out:
    tk_route_ws_free(t.ws);
    tk_pathset_destroy(&t.ps);
    free(t.lo);
    free(t.hi);
    free(t.esc);
    vc_ctx_destroy(&c);
    return st;
}

tk_status_t tk_vc_cert_check(const tk_router_t *r, const tk_vc_policy_t *pol,
                             const tk_vc_opts_t *opts, const int64_t *arc, const int32_t *vc,
                             const int64_t *rank, int64_t nc, tk_error_t *err)
{
    vc_ctx_t c;
    cdg_t g;
    tk_status_t st;
    int64_t *rk = NULL;
    memset(&g, 0, sizeof g);
    if (pol->kind == TK_VC_ESCAPE) { /* the escape routing's graph */
        tk_vc_policy_t none;
        tk_vc_opts_t o = *opts;
        if (!opts->escape)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: needs an escape routing", pol->text);
        tk_vc_parse("none", &none, err);
        o.escape = NULL;
        o.server_pairs = 0;
        return tk_vc_cert_check(opts->escape, &none, &o, arc, vc, rank, nc, err);
    }
    if ((st = vc_ctx_init(&c, r, pol, err)) != TK_OK)
        return st;
    if ((st = build(r, &c, opts, is_duato(pol), &g, err)) != TK_OK)
        goto out;
    rk = malloc(((size_t)g.nn + 1) * sizeof *rk);
    if (!rk) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto out;
    }
    for (int64_t i = 0; i < g.nn; i++)
        rk[i] = INT64_MIN;
    for (int64_t i = 0; i < nc; i++) {
        if (arc[i] < 0 || arc[i] >= c.g->m || vc[i] < 0 || vc[i] >= TK_VC_MAX)
            continue;
        int64_t x = vc_node_index(g.node, g.nn, VC_NODE(arc[i], vc[i]));
        if (x >= 0)
            rk[x] = rank[i];
    }
    for (int64_t i = 0; i < g.nn && st == TK_OK; i++)
        if (rk[i] == INT64_MIN)
            st = tk_error_set(
                err, TK_EINVAL, NULL, 0,
                "certificate: channel %" PRId32 ">%" PRId32 " vc %" PRId32 " has no rank",
                c.tail[VC_ARC(g.node[i])], c.g->head[VC_ARC(g.node[i])], VC_VC(g.node[i]));
    for (int64_t e = 0; e < g.nd && st == TK_OK; e++) {
        uint32_t f = (uint32_t)(g.dep[e] >> 32), t = (uint32_t)g.dep[e];
        if (rk[vc_node_index(g.node, g.nn, f)] >= rk[vc_node_index(g.node, g.nn, t)])
            st = tk_error_set(err, TK_EINVAL, NULL, 0,
                              "certificate: dependency %" PRId32 ">%" PRId32 " vc %" PRId32
                              " -> %" PRId32 ">%" PRId32 " vc %" PRId32
                              " does not increase the rank",
                              c.tail[VC_ARC(f)], c.g->head[VC_ARC(f)], VC_VC(f), c.tail[VC_ARC(t)],
                              c.g->head[VC_ARC(t)], VC_VC(t));
    }
out:
    free(rk);
    cdg_free(&g);
    vc_ctx_destroy(&c);
    return st;
}

/* Is the image of g under the per-class caps acyclic?  1, 0, -1 (memory). */
static int capped_acyclic(const cdg_t *g, const tk_graph_t *gr, const int32_t *cap)
{
    uint64_t *nk = malloc(((size_t)g->nn + 1) * sizeof *nk);
    uint64_t *dk = malloc(((size_t)g->nd + 1) * sizeof *dk);
    uint32_t *nodes = malloc(((size_t)g->nn + 1) * sizeof *nodes);
    int res = -1;
    if (!nk || !dk || !nodes)
        goto out;
#define CAPN(x)                                                                                    \
    VC_NODE(VC_ARC(x), VC_VC(x) < cap[gr->cls ? gr->cls[VC_ARC(x)] : 0]                            \
                           ? VC_VC(x)                                                              \
                           : cap[gr->cls ? gr->cls[VC_ARC(x)] : 0] - 1)
    for (int64_t i = 0; i < g->nn; i++)
        nk[i] = CAPN(g->node[i]);
    for (int64_t e = 0; e < g->nd; e++)
        dk[e] = (uint64_t)CAPN((uint32_t)(g->dep[e] >> 32)) << 32 | CAPN((uint32_t)g->dep[e]);
#undef CAPN
    qsort(nk, (size_t)g->nn, sizeof *nk, vc_u64cmp);
    qsort(dk, (size_t)g->nd, sizeof *dk, vc_u64cmp);
    int64_t nn = 0, nd = 0;
    for (int64_t i = 0; i < g->nn; i++)
        if (!nn || nodes[nn - 1] != (uint32_t)nk[i])
            nodes[nn++] = (uint32_t)nk[i];
    for (int64_t e = 0; e < g->nd; e++)
        if (!nd || dk[nd - 1] != dk[e])
            dk[nd++] = dk[e];
    res = vc_kahn(nodes, nn, dk, nd, NULL, NULL);
out:
    free(nk);
    free(dk);
    free(nodes);
    return res;
}

tk_status_t tk_vc_min_caps(const tk_router_t *r, const tk_vc_policy_t *pol,
                           const tk_vc_opts_t *opts, int32_t *caps, int32_t *ncaps, int32_t maxcaps,
                           tk_error_t *err)
{
    vc_ctx_t c;
    cdg_t g;
    tk_vc_policy_t raw = *pol;
    tk_status_t st;
    int32_t cap[TK_MAX_CLASSES];
    *ncaps = 0;
    if (pol->kind != TK_VC_LADDER && pol->kind != TK_VC_DFLADDER && pol->kind != TK_VC_DFHOPS)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: --min-vcs searches the caps of ladder, dfladder and dfhops only",
                            pol->text);
    raw.cap = raw.capg = 0;
    memset(&g, 0, sizeof g);
    if ((st = vc_ctx_init(&c, r, &raw, err)) != TK_OK)
        return st;
    if ((st = build(r, &c, opts, 0, &g, err)) != TK_OK)
        goto out;
    if (pol->kind == TK_VC_LADDER) {
        for (int32_t k = 1; k <= (g.max_hops > 1 ? g.max_hops : 1); k++) {
            for (int i = 0; i < TK_MAX_CLASSES; i++)
                cap[i] = k;
            int a = capped_acyclic(&g, c.g, cap);
            if (a < 0) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                goto out;
            }
            if (a) {
                if (maxcaps > 0)
                    caps[(*ncaps)++] = k;
                break;
            }
        }
    } else {
        /* (L, G) pairs, L local and G global caps: the minimal acyclic
         * ones, for L = 1 .. 4 and G = 1 .. 2 (dfladder's uncapped
         * counts), L = 1 .. 8 and G = 1 .. 4 for dfhops */
        int32_t maxl = pol->kind == TK_VC_DFHOPS ? 8 : 4, maxg = maxl / 2;
        for (int32_t L = 1; L <= maxl; L++)
            for (int32_t G = 1; G <= maxg; G++) {
                int dominated = 0;
                for (int32_t i = 0; i < *ncaps; i++)
                    dominated |= caps[i] % 256 <= L && caps[i] / 256 <= G;
                if (dominated)
                    continue;
                for (int i = 0; i < TK_MAX_CLASSES; i++)
                    cap[i] = i == c.global_cls ? G : L;
                int a = capped_acyclic(&g, c.g, cap);
                if (a < 0) {
                    st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                    goto out;
                }
                if (a && *ncaps < maxcaps)
                    caps[(*ncaps)++] = L + 256 * G;
            }
    }
out:
    cdg_free(&g);
    vc_ctx_destroy(&c);
    return st;
}
