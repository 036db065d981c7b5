/*
 * test_vcadapt.c - the path sets of the Dragonfly adaptive routings
 * (dragonfly-ugal, dragonfly-par, dragonfly-olm; src/route/dfadapt.c)
 * against closed forms on Dragonflies with complete groups and one global
 * link per pair of groups, and their VC counts under the per-hop-type
 * ladder dfhops (Fuentes, Vallejo, Camarero, Beivide and Valero, "Network
 * Unfairness in Dragonfly Topologies", Section 2.3: MIN 2/1, source-adaptive
 * 4/2, OLM 3/2 local/global): the least acyclic caps, one VC fewer cyclic
 * with a re-walked witness, every verdict against a brute-force cycle
 * search.  In-transit adaptive routing with opportunistic local
 * misrouting (dragonfly-olm under olm) against an independent brute force:
 * its paths from a walk over every arc with the rules of topokit(7), their
 * VCs and escape hops from the rule of tk_vc.h, and the escape graph built
 * from them, channel for channel and dependency for dependency.
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
 *   UGAL: dragonfly-min + dragonfly-valiant
 *   PAR:  UGAL + (s != x ? dragonfly-valiant(x, t) : 0)
 * and every weight 1 / paths. */
static void pathsets(void)
{
    tk_graph_t *g = gen("dragonfly", "a=4", "h=2", NULL);
    tk_router_t *rmin = router(g, "dragonfly-min"), *rval = router(g, "dragonfly-valiant");
    tk_router_t *rug = router(g, "dragonfly-ugal"), *rpar = router(g, "dragonfly-par");
    tk_router_t *rolm = router(g, "dragonfly-olm");
    tk_pathset_t ps;
    int bad_ugal = 0, bad_par = 0, bad_w = 0, bad_min = 0;
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
            tk_id_t x = s;
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
                    if (g->group[u] != g->group[g->head[arc]])
                        x = u;
                }
            }
            int64_t nval = paths(rval, s, t, &ps);
            if (s < 4) { /* OLM's paths: olm_brute */
                paths(rolm, s, t, &ps);
                bad_w += !even(&ps);
            }
            int64_t nug = paths(rug, s, t, &ps);
            bad_w += !even(&ps);
            bad_ugal += nug != nval + 1;
            int64_t npar = paths(rpar, s, t, &ps);
            bad_w += !even(&ps);
            int64_t extra = !same && s != x ? paths(rval, x, t, &ps) : 0;
            bad_par += npar != nug + extra;
        }
    ok(bad_min == 0, "dragonfly a=4 h=2: one dragonfly-min path per pair");
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
        {"dragonfly-olm", "llgllgll", 6, 2, "OLM's path set as a ladder: 6/2"},
    };
    char pol[96];
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        if (strcmp(c[i].routing, "dragonfly-olm") == 0 && g->n > 12)
            continue; /* a=4 h=2: tests/cli/topo-vc-adapt.sh (time) */
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

/* ------------------------------------------------------------------------
 * OLM by brute force, on a Dragonfly with complete groups and one global
 * arc per ordered pair of groups. */

typedef struct bf {
    const tk_graph_t *g;
    tk_id_t *tail;
    int64_t *gw; /* gw[A * ng + B]: the global arc A -> B */
    int32_t ng, gcls;
    tk_id_t t;
    int64_t path[16];
    int len;
    int64_t npaths;
    /* the escape graph: channels arc * TK_VC_MAX + vc, dependencies */
    uint64_t *node, *dep;
    int64_t nn, nd, capn, capd;
} bf_t;

static int bf_glob(const bf_t *b, int64_t a)
{
    return b->g->cls && b->g->cls[a] == b->gcls;
}

/* local-global-local hop count */
static int bf_dist(const bf_t *b, tk_id_t u, tk_id_t t)
{
    int32_t A = b->g->group[u], B = b->g->group[t];
    if (u == t)
        return 0;
    if (A == B)
        return 1;
    int64_t a = b->gw[A * b->ng + B];
    return (u != b->tail[a]) + 1 + (b->g->head[a] != t);
}

static int bf_min(const bf_t *b, int64_t a)
{
    tk_id_t u = b->tail[a], v = b->g->head[a];
    if (bf_glob(b, a) && b->g->group[v] != b->g->group[b->t])
        return 0;
    return bf_dist(b, v, b->t) == bf_dist(b, u, b->t) - 1;
}

static void bf_add(uint64_t **set, int64_t *n, int64_t *cap, uint64_t x)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 1024;
        *set = realloc(*set, (size_t)*cap * sizeof **set);
    }
    (*set)[(*n)++] = x;
}

/* A path found: its VCs by the rule (a hop index raised at every hop but
 * the first, a local misroute and a global hop after a local one), its
 * escape hops (minimal, or global right after a local misroute in the
 * source group), into the graph. */
static void bf_record(bf_t *b, int cap_l, int cap_g)
{
    int v = 0, esc[16], vc[16];
    for (int i = 0; i < b->len; i++) {
        int64_t a = b->path[i];
        int glob = bf_glob(b, a), mn = bf_min(b, a);
        int srcmis = 1;
        for (int k = 0; k < i; k++)
            srcmis &= !bf_glob(b, b->path[k]);
        srcmis = srcmis && i > 0 && !bf_glob(b, b->path[i - 1]) && !bf_min(b, b->path[i - 1]);
        if (i > 0 && (glob || mn) && !(glob && !bf_glob(b, b->path[i - 1])))
            v++;
        esc[i] = mn || (glob && srcmis);
        vc[i] = glob ? (v < cap_g ? v : cap_g - 1) : (v < cap_l ? v : cap_l - 1);
    }
    for (int i = 0; i < b->len; i++) {
        uint64_t c = (uint64_t)b->path[i] * TK_VC_MAX + (uint64_t)vc[i];
        bf_add(&b->node, &b->nn, &b->capn, c);
        if (i + 1 < b->len && esc[i + 1])
            bf_add(&b->dep, &b->nd, &b->capd,
                   c << 32 | ((uint64_t)b->path[i + 1] * TK_VC_MAX + (uint64_t)vc[i + 1]));
    }
    b->npaths++;
}

/* Walk on from u.  src: still in the source group of a pair across
 * groups (mis: after a local misroute there); used: the opportunistic hop
 * of u's group is taken. */
static void bf_walk(bf_t *b, tk_id_t u, int src, int mis, int used, int cap_l, int cap_g)
{
    const tk_graph_t *g = b->g;
    int32_t A = g->group[u], S = g->group[b->tail[b->path[0]]], B = g->group[b->t];
    if (u == b->t) {
        bf_record(b, cap_l, cap_g);
        return;
    }
    int minlocal = 0; /* is a next minimal hop local? */
    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
        minlocal |= bf_min(b, a) && !bf_glob(b, a);
    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
        int glob = bf_glob(b, a), mn = bf_min(b, a);
        int32_t X = g->group[g->head[a]];
        int go = 0, nsrc = src && !glob, nmis = 0, nused = glob ? 0 : used;
        if (src && mis)
            go = glob && X != S && X != B;
        else if (src) {
            go = mn;
            if (!mn && b->len <= 1 && glob && X != S && X != B)
                go = 1;
            if (!mn && b->len <= 1 && !glob)
                go = nmis = 1;
        } else {
            go = mn;
            if (!mn && !glob && !used && minlocal)
                go = nused = 1;
        }
        (void)A;
        if (!go)
            continue;
        b->path[b->len++] = a;
        bf_walk(b, g->head[a], nsrc, nmis, nused, cap_l, cap_g);
        b->len--;
    }
}

static int u64cmp(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static int64_t uniq(uint64_t *v, int64_t n)
{
    int64_t w = 0;
    qsort(v, (size_t)n, sizeof *v, u64cmp);
    for (int64_t i = 0; i < n; i++)
        if (!w || v[w - 1] != v[i])
            v[w++] = v[i];
    return w;
}

/* dragonfly-olm's paths and olm's escape graph against the brute force,
 * with caps L/G. */
static void olm_brute(const char *spec1, const char *spec2, int cap_l, int cap_g)
{
    tk_graph_t *g = gen("dragonfly", spec1, spec2, NULL);
    tk_router_t *r = g ? router(g, "dragonfly-olm") : NULL;
    bf_t b;
    tk_pathset_t ps;
    char pol[64];
    memset(&b, 0, sizeof b);
    tk_pathset_init(&ps);
    if (!r) {
        ok(0, "dragonfly %s %s: dragonfly-olm", spec1, spec2);
        tk_graph_free(g);
        return;
    }
    b.g = g;
    b.gcls = tk_graph_class_index(g, "global");
    b.tail = malloc((size_t)g->m * sizeof *b.tail);
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            b.tail[a] = u;
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->group[u] + 1 > b.ng)
            b.ng = g->group[u] + 1;
    b.gw = calloc((size_t)b.ng * (size_t)b.ng, sizeof *b.gw);
    for (int64_t a = 0; a < g->m; a++)
        if (bf_glob(&b, a))
            b.gw[g->group[b.tail[a]] * b.ng + g->group[g->head[a]]] = a;
    int bad_count = 0;
    for (tk_id_t s = 0; s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            if (s == t)
                continue;
            int64_t before = b.npaths;
            b.t = t;
            b.len = 0;
            /* the first hop fixes S in bf_walk: walk it here */
            for (int64_t a = g->off[s]; a < g->off[s + 1]; a++) {
                int same = g->group[s] == g->group[t];
                int glob = bf_glob(&b, a), mn = bf_min(&b, a);
                int32_t X = g->group[g->head[a]];
                int go, nmis = 0, nused = 0;
                if (same) {
                    int minlocal = 1; /* t is in s's group: the minimal hop is local */
                    go = mn || (!glob && minlocal);
                    nused = !mn;
                } else {
                    go = mn || (glob && X != g->group[s] && X != g->group[t]) || !glob;
                    nmis = !mn && !glob;
                }
                if (!go)
                    continue;
                b.path[b.len++] = a;
                bf_walk(&b, g->head[a], !same && !glob, nmis, nused, cap_l, cap_g);
                b.len--;
            }
            bad_count += paths(r, s, t, &ps) != b.npaths - before;
        }
    ok(bad_count == 0,
       "dragonfly %s %s: dragonfly-olm's paths, pair by pair, as the brute force (%ld)", spec1,
       spec2, (long)b.npaths);
    b.nn = uniq(b.node, b.nn);
    b.nd = uniq(b.dep, b.nd);
    snprintf(pol, sizeof pol, "olm,cap=%d/%d", cap_l, cap_g);
    tk_vc_policy_t p;
    tk_vc_result_t res;
    tk_error_t err;
    tk_vc_opts_t o = {1, 0, 0, 1, 0, 0, NULL};
    int same = 0;
    if (tk_vc_parse(pol, &p, &err) == TK_OK && tk_vc_analyse(r, &p, &o, &res, &err) == TK_OK) {
        same = res.channels == b.nn && res.deps == b.nd;
        for (int64_t i = 0; same && i < b.nn; i++)
            same = res.node[i] == b.node[i];
        for (int64_t i = 0; same && i < b.nd; i++)
            same = res.dep[i] == b.dep[i];
        tk_vc_result_destroy(&res);
    } else
        printf("# %s: %s\n", pol, err.msg);
    ok(same,
       "dragonfly %s %s %s: the escape graph as the brute force builds it (%ld channels, "
       "%ld dependencies)",
       spec1, spec2, pol, (long)b.nn, (long)b.nd);
    free(b.node);
    free(b.dep);
    free(b.tail);
    free(b.gw);
    tk_pathset_destroy(&ps);
    tk_router_free(r);
    tk_graph_free(g);
}

/* olm's verdicts: 3/2 deadlock-free by Duato's condition (a certificate),
 * one VC fewer of either class, or srcreuse, cyclic (a re-walked
 * witness); each against the brute-force cycle search. */
static void olm_verdicts(const char *spec1, const char *spec2)
{
    tk_graph_t *g = gen("dragonfly", spec1, spec2, NULL);
    if (!g) {
        ok(0, "dragonfly %s %s", spec1, spec2);
        return;
    }
    int gl = tk_graph_class_index(g, "global"), lo = tk_graph_class_index(g, "local");
    run_t x = analyse(g, "dragonfly-olm", "olm");
    ok(x.ok && x.duato && x.acyclic && x.vcs[lo] == 3 && x.vcs[gl] == 2 && x.max_hops == 8,
       "%s dragonfly-olm olm: 3 local and 2 global VCs, deadlock-free (Duato), paths of 8 hops",
       g->spec);
    static const char *const prone[] = {"olm,cap=2/2", "olm,cap=3/1", "olm,srcreuse"};
    for (int i = 0; i < 3; i++) {
        x = analyse(g, "dragonfly-olm", prone[i]);
        ok(x.ok && x.duato && !x.acyclic && x.nsteps > 0, "%s dragonfly-olm %s: deadlock-prone",
           g->spec, prone[i]);
    }
    x = analyse(g, "dragonfly-min", "olm");
    ok(x.ok && x.acyclic && x.vcs[lo] == 2 && x.vcs[gl] == 1, "%s dragonfly-min olm: 2/1", g->spec);
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
    ok(tk_vc_parse("olm,srcreuse,cap=3/2", &p, &err) == TK_OK &&
           strcmp(p.text, "olm,cap=3/2,srcreuse") == 0,
       "olm: canonical text (%s)", p.text);
    ok(tk_vc_parse("ladder,srcreuse", &p, &err) == TK_EINVAL, "srcreuse is for olm only");
    ok(tk_vc_parse("olm,cap=3", &p, &err) == TK_EINVAL, "olm: cap=L/G");
}

int main(void)
{
    pathsets();
    counts("a=4", "h=2");
    counts("a=3", "h=1");
    olm_brute("a=4", "h=2", 3, 2);
    olm_brute("a=3", "h=1", 3, 2);
    olm_brute("a=3", "h=1", 2, 2);
    olm_brute("a=3", "h=1", 3, 1);
    olm_verdicts("a=3", "h=1");
    errors();
    return tap_done();
}
