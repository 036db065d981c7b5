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

#include "vc_check.h"

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
