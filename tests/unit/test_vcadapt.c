/*
 * test_vcadapt.c - the path sets of the Dragonfly adaptive routings
 * (dragonfly-ugal, dragonfly-par, dragonfly-olm; src/route/dfadapt.c)
 * against closed forms on Dragonflies with complete groups and one global
 * link per pair of groups, and their VC counts under the per-hop-type
 * ladder dfhops (Fuentes, Vallejo, Camarero, Beivide and Valero, "Network
 * Unfairness in Dragonfly Topologies", Section 2.3: MIN 2/1, source-adaptive
 * 4/2, OLM 3/2 local/global): the least acyclic caps, one VC fewer cyclic
 * with a re-walked witness, every verdict against a brute-force cycle
 * search.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

static tk_graph_t *gen(const char *family, const char *a1, const char *a2, const char *a3)
{
    char *argv[3];
    int argc = 0;
    tk_gen_opts_t o;
    tk_graph_t *g = NULL;
    tk_error_t err;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    if (a1)
        argv[argc++] = (char *)a1;
    if (a2)
        argv[argc++] = (char *)a2;
    if (a3)
        argv[argc++] = (char *)a3;
    if (tk_generate(family, argc, argv, &o, &g, &err) != TK_OK) {
        printf("# generate %s: %s\n", family, err.msg);
        return NULL;
    }
    return g;
}

/* A directed brute-force cycle search (colour DFS, recursive) on the
 * result's dependency graph: 1 when it has a cycle. */
static int dfs_cycle(const tk_vc_result_t *r, int64_t u, uint8_t *col)
{
    col[u] = 1;
    for (int64_t e = 0; e < r->deps; e++) {
        if ((uint32_t)(r->dep[e] >> 32) != r->node[u])
            continue;
        int64_t v = 0;
        while (r->node[v] != (uint32_t)r->dep[e])
            v++;
        if (col[v] == 1 || (col[v] == 0 && dfs_cycle(r, v, col)))
            return 1;
    }
    col[u] = 2;
    return 0;
}

static int brute_cyclic(const tk_vc_result_t *r)
{
    uint8_t *col = calloc((size_t)r->channels + 1, 1);
    int cyc = 0;
    for (int64_t u = 0; u < r->channels && !cyc; u++)
        if (!col[u])
            cyc = dfs_cycle(r, u, col);
    free(col);
    return cyc;
}

typedef struct run {
    int ok, acyclic, duato;
    int32_t vcs[TK_MAX_CLASSES], vmax, max_hops, nsteps;
} run_t;

/* Analyse g under routing and policy; check the witness (re-walked, then
 * tampered: must fail) or the certificate (checked, then tampered: must
 * fail), and the verdict against the brute-force search. */
static run_t analyse(const tk_graph_t *g, const char *routing, const char *policy)
{
    tk_route_spec_t spec;
    tk_vc_policy_t pol;
    tk_router_t *r = NULL;
    tk_vc_result_t res;
    tk_error_t err;
    run_t out;
    memset(&out, 0, sizeof out);
    if (tk_route_parse(routing, &spec, &err) || tk_vc_parse(policy, &pol, &err) ||
        tk_router_new(g, &spec, 2, 0, &r, &err)) {
        printf("# %s / %s: %s\n", routing, policy, err.msg);
        return out;
    }
    tk_vc_opts_t o = {2, 0, 1, 1, 0, 0, NULL};
    if (tk_vc_analyse(r, &pol, &o, &res, &err) != TK_OK) {
        printf("# %s / %s: %s\n", routing, policy, err.msg);
        tk_router_free(r);
        return out;
    }
    out.ok = 1;
    out.acyclic = res.acyclic;
    out.duato = res.duato;
    out.max_hops = res.max_hops;
    out.nsteps = res.nsteps;
    memcpy(out.vcs, res.vcs, sizeof out.vcs);
    for (int c = 0; c < TK_MAX_CLASSES; c++)
        if (res.vcs[c] > out.vmax)
            out.vmax = res.vcs[c];
    ok(brute_cyclic(&res) == !res.acyclic, "%s %s %s: brute-force search agrees", g->spec, routing,
       policy);
    if (!res.acyclic) {
        ok(res.nsteps > 0 && tk_vc_witness_check(r, &pol, res.step, res.nsteps, &err) == TK_OK,
           "%s %s %s: witness of %d steps re-walked", g->spec, routing, policy, res.nsteps);
        if (res.nsteps > 0) {
            res.step[0].hop++;
            ok(tk_vc_witness_check(r, &pol, res.step, res.nsteps, &err) != TK_OK,
               "%s %s %s: a tampered witness fails", g->spec, routing, policy);
        }
    } else {
        int64_t *arc = malloc((size_t)res.channels * sizeof *arc);
        int64_t *rank = malloc((size_t)res.channels * sizeof *rank);
        int32_t *vc = malloc((size_t)res.channels * sizeof *vc);
        for (int64_t i = 0; i < res.channels; i++) {
            arc[i] = res.node[i] / TK_VC_MAX;
            vc[i] = (int32_t)(res.node[i] % TK_VC_MAX);
            rank[i] = res.rank[i];
        }
        ok(tk_vc_cert_check(r, &pol, &o, arc, vc, rank, res.channels, &err) == TK_OK,
           "%s %s %s: certificate checks", g->spec, routing, policy);
        if (res.deps > 0) {
            /* give the head of the first dependency its tail's rank */
            uint32_t f = (uint32_t)(res.dep[0] >> 32), t = (uint32_t)res.dep[0];
            int64_t fi = 0, ti = 0;
            while (res.node[fi] != f)
                fi++;
            while (res.node[ti] != t)
                ti++;
            rank[ti] = rank[fi];
            ok(tk_vc_cert_check(r, &pol, &o, arc, vc, rank, res.channels, &err) != TK_OK,
               "%s %s %s: a tampered certificate fails", g->spec, routing, policy);
        }
        free(arc);
        free(rank);
        free(vc);
    }
    tk_vc_result_destroy(&res);
    tk_router_free(r);
    return out;
}

static tk_router_t *router(const tk_graph_t *g, const char *text)
{
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_error_t err;
    if (tk_route_parse(text, &spec, &err) || tk_router_new(g, &spec, 1, 0, &r, &err)) {
        printf("# %s: %s\n", text, err.msg);
        return NULL;
    }
    return r;
}

/* The paths of (s, t) into ps; their count, -1 on error. */
static int64_t paths(const tk_router_t *r, tk_id_t s, tk_id_t t, tk_pathset_t *ps)
{
    tk_route_ws_t *ws = NULL;
    tk_error_t err;
    int64_t k = -1;
    if (tk_route_ws_new(r, &ws, &err) == TK_OK && tk_route_paths(r, ws, s, t, 0, ps, &err) == TK_OK)
        k = ps->npaths;
    else
        printf("# paths %d,%d: %s\n", (int)s, (int)t, err.msg);
    tk_route_ws_free(ws);
    return k;
}

/* Every weight of ps is 1 / npaths. */
static int even(const tk_pathset_t *ps)
{
    for (int64_t i = 0; i < ps->npaths; i++)
        if (ps->w[i] != 1.0 / (double)ps->npaths)
            return 0;
    return 1;
}

/* dragonfly a=4 h=2 (9 groups, complete groups, one global link per pair
 * of groups).  With x the gateway of s's group towards t's group and e the
 * router it reaches (the unique dragonfly-min path):
 *   OLM:  same group: a - 1 paths (direct, or through any of the a - 2
 *         other routers); else (s == x ? 1 : a-1) (e == t ? 1 : a-1)
 *   UGAL: dragonfly-min + dragonfly-valiant
 *   PAR:  UGAL + (s != x ? dragonfly-valiant(x, t) : 0)
 * and every weight 1 / paths. */
static void pathsets(void)
{
    const int64_t a = 4;
    tk_graph_t *g = gen("dragonfly", "a=4", "h=2", NULL);
    tk_router_t *rmin = router(g, "dragonfly-min"), *rval = router(g, "dragonfly-valiant");
    tk_router_t *rug = router(g, "dragonfly-ugal"), *rpar = router(g, "dragonfly-par");
    tk_router_t *rolm = router(g, "dragonfly-olm");
    tk_pathset_t ps;
    int bad_olm = 0, bad_ugal = 0, bad_par = 0, bad_w = 0, bad_min = 0;
    tk_pathset_init(&ps);
    if (!g || !rmin || !rval || !rug || !rpar || !rolm) {
        ok(0, "dragonfly a=4 h=2: routers");
        return;
    }
    for (tk_id_t s = 0; s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            if (s == t)
                continue;
            int same = g->group[s] == g->group[t];
            tk_id_t x = s, e = s;
            int64_t nmin = paths(rmin, s, t, &ps);
            if (nmin != 1) {
                bad_min++;
                continue;
            }
            if (!same) { /* the global arc of the min path */
                for (int64_t i = ps.off[0]; i < ps.off[1]; i++) {
                    int64_t arc = ps.arc[i];
                    tk_id_t u = 0;
                    while (g->off[u + 1] <= arc)
                        u++;
                    if (g->group[u] != g->group[g->head[arc]]) {
                        x = u;
                        e = g->head[arc];
                    }
                }
            }
            int64_t nval = paths(rval, s, t, &ps);
            int64_t nolm = paths(rolm, s, t, &ps);
            bad_w += !even(&ps);
            int64_t want = same ? a - 1 : (s == x ? 1 : a - 1) * (e == t ? 1 : a - 1);
            bad_olm += nolm != want;
            int64_t nug = paths(rug, s, t, &ps);
            bad_w += !even(&ps);
            bad_ugal += nug != nval + 1;
            int64_t npar = paths(rpar, s, t, &ps);
            bad_w += !even(&ps);
            int64_t extra = !same && s != x ? paths(rval, x, t, &ps) : 0;
            bad_par += npar != nug + extra;
        }
    ok(bad_min == 0, "dragonfly a=4 h=2: one dragonfly-min path per pair");
    ok(bad_olm == 0, "dragonfly-olm: (a-1) per group with a minimal local hop, a-1 in-group");
    ok(bad_ugal == 0, "dragonfly-ugal: dragonfly-min plus dragonfly-valiant");
    ok(bad_par == 0, "dragonfly-par: UGAL plus dragonfly-valiant from the first minimal hop");
    ok(bad_w == 0, "adaptive path sets: even split");
    tk_pathset_destroy(&ps);
    tk_router_free(rmin);
    tk_router_free(rval);
    tk_router_free(rug);
    tk_router_free(rpar);
    tk_router_free(rolm);
    tk_graph_free(g);
}

/* VC counts under dfhops: the uncapped counts, the least acyclic caps (one
 * fewer local VC, and one fewer global VC, cyclic, with a re-walked
 * witness). */
static void counts(const char *spec1, const char *spec2)
{
    tk_graph_t *g = gen("dragonfly", spec1, spec2, NULL);
    if (!g) {
        ok(0, "dragonfly %s %s", spec1, spec2);
        return;
    }
    int gl = tk_graph_class_index(g, "global"), lo = tk_graph_class_index(g, "local");
    static const struct {
        const char *routing, *tmpl;
        int32_t l, gg;
        const char *what;
    } c[] = {
        {"dragonfly-min", "lgllgl", 2, 1, "MIN 2/1"},
        {"dragonfly-ugal", "lgllgl", 4, 2, "UGAL 4/2"},
        {"dragonfly-par", "llgllgl", 5, 2, "PAR 5/2"},
        {"dragonfly-olm", "llgll", 4, 1, "OLM without global misrouting: 4/1"},
    };
    char pol[96];
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        snprintf(pol, sizeof pol, "dfhops,template=%s", c[i].tmpl);
        run_t x = analyse(g, c[i].routing, pol);
        ok(x.ok && x.acyclic && x.vcs[lo] == c[i].l && x.vcs[gl] == c[i].gg,
           "%s %s: %s, acyclic (local %d, global %d)", g->spec, c[i].routing, c[i].what, x.vcs[lo],
           x.vcs[gl]);
        snprintf(pol, sizeof pol, "dfhops,template=%s,cap=%d/%d", c[i].tmpl, c[i].l - 1, c[i].gg);
        x = analyse(g, c[i].routing, pol);
        ok(x.ok && !x.acyclic && x.nsteps > 0, "%s %s: one local VC fewer is cyclic", g->spec,
           c[i].routing);
        if (c[i].gg > 1) {
            snprintf(pol, sizeof pol, "dfhops,template=%s,cap=%d/%d", c[i].tmpl, c[i].l,
                     c[i].gg - 1);
            x = analyse(g, c[i].routing, pol);
            ok(x.ok && !x.acyclic && x.nsteps > 0, "%s %s: one global VC fewer is cyclic", g->spec,
               c[i].routing);
        }
    }
    /* counting local hops per type without the template (the dest
     * group's first local hop on VC 0) is cyclic even for MIN */
    run_t x = analyse(g, "dragonfly-min", "dfhops,template=lgl");
    ok(x.ok && x.acyclic, "%s dragonfly-min: template lgl acyclic", g->spec);
    x = analyse(g, "dragonfly-olm", "dfhops,template=lglgl");
    ok(!x.ok, "%s dragonfly-olm: paths that do not fit the template are refused", g->spec);
    tk_graph_free(g);
}

static void errors(void)
{
    tk_vc_policy_t p;
    tk_error_t err;
    ok(tk_vc_parse("dfhops,template=lgx", &p, &err) == TK_EINVAL &&
           strstr(err.msg, "letters l and g"),
       "dfhops: bad template letter (%s)", err.msg);
    ok(tk_vc_parse("dfhops,template=lgl,template=lgl", &p, &err) == TK_EINVAL,
       "dfhops: template twice");
    ok(tk_vc_parse("dfhops", &p, &err) == TK_OK && strcmp(p.text, "dfhops,template=lgllgl") == 0,
       "dfhops: default template lgllgl (%s)", p.text);
    ok(tk_vc_parse("ladder,template=lgl", &p, &err) == TK_EINVAL, "template is for dfhops only");
}

int main(void)
{
    pathsets();
    counts("a=4", "h=2");
    counts("a=3", "h=1");
    errors();
    return tap_done();
}
