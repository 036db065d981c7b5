/*
 * test_vc.c - the VC analysis (src/vc/): verdicts with exact
 * expectations (rings, HyperX, Dragonflies, the VC counts Cano, Camarero,
 * Martinez and Beivide derive in "Analysing Mechanisms for Virtual Channel
 * Management in Low-Diameter Networks", Section II), every witness re-walked
 * and tampered with, every certificate checked and tampered with, and the
 * verdicts of random small graphs against a brute-force cycle search of
 * the dependency graph; tk_vc_load over threads and slices, against an
 * independent sum of its rule.
 */
#include <config.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

#include "vc_check.h"

static void rings(void)
{
    for (int n = 3; n <= 7; n++) {
        char a[16];
        snprintf(a, sizeof a, "n=%d", n);
        tk_graph_t *g = gen("ring", a, NULL, NULL);
        run_t x = analyse(g, "min", "none");
        ok(x.ok && x.acyclic == (n == 3), "ring n=%d, min, one VC: %s", n,
           n == 3 ? "acyclic (one hop)" : "cyclic");
        if (n > 3)
            is_int(x.nsteps, n, "ring n=%d: the shortest cycle goes round (%d steps)", n, n);
        x = analyse(g, "min", "dateline");
        ok(x.ok && x.acyclic && x.vmax == (n == 3 ? 2 : 2), "ring n=%d, dateline: acyclic", n);
        tk_graph_free(g);
    }
    tk_graph_t *g = gen("torus", "sides=4,4", NULL, NULL);
    run_t x = analyse(g, "dor", "dateline");
    ok(x.ok && x.acyclic && x.vmax == 2, "torus 4x4, dor, dateline: acyclic with 2 VCs");
    x = analyse(g, "dor", "none");
    ok(x.ok && !x.acyclic, "torus 4x4, dor, one VC: cyclic");
    tk_graph_free(g);
    g = gen("hyperx", "sides=4,4", NULL, NULL);
    x = analyse(g, "dor", "none");
    ok(x.ok && x.acyclic && x.vmax == 1, "hyperx 4x4, dor, one VC: acyclic");
    x = analyse(g, "min", "none");
    ok(x.ok && !x.acyclic, "hyperx 4x4, min, one VC: cyclic");
    tk_graph_free(g);
}

/* Section II of Cano et al.: Ladder needs 2D VCs under Valiant on a
 * D-dimensional HyperX, 2Phases 2 with dimension order in each phase. */
static void hyperx(void)
{
    const char *sides[] = {"sides=3", "sides=3,3", "sides=3,3,3"};
    for (int d = 1; d <= 3; d++) {
        tk_graph_t *g = gen("hyperx", sides[d - 1], NULL, NULL);
        run_t x = analyse(g, "dor", "ladder");
        ok(x.ok && x.acyclic && x.vmax == d, "hyperx D=%d, dor, ladder: %d VCs", d, d);
        x = analyse(g, "valiant,dor", "ladder");
        ok(x.ok && x.acyclic && x.vmax == 2 * d && x.max_hops == 2 * d,
           "hyperx D=%d, valiant,dor, ladder: 2D = %d VCs", d, 2 * d);
        x = analyse(g, "valiant,dor", "2phases,minfirst");
        ok(x.ok && x.acyclic && x.vmax == 2, "hyperx D=%d, valiant,dor, 2phases: 2 VCs", d);
        x = analyse(g, "valiant,dor", "2phases,minlast");
        ok(x.ok && x.acyclic && x.vmax == 2, "hyperx D=%d, valiant,dor, 2phases,minlast", d);
        x = analyse(g, "valiant,dor", "ladder-reuse");
        ok(x.ok && x.acyclic && x.duato && x.vmax == 2 * d,
           "hyperx D=%d: ladder-reuse deadlock-free by Duato with Ladder's %d VCs", d, 2 * d);
        if (d >= 2) {
            x = analyse(g, "valiant,dor", "none");
            ok(x.ok && !x.acyclic, "hyperx D=%d, valiant,dor, one VC: cyclic", d);
        }
        tk_graph_free(g);
    }
}

static void dragonfly(void)
{
    tk_graph_t *g = gen("dragonfly", "a=4", "h=2", NULL);
    int gl = tk_graph_class_index(g, "global"), lo = tk_graph_class_index(g, "local");
    run_t x = analyse(g, "dragonfly-min", "none");
    ok(x.ok && !x.acyclic, "dragonfly, local-global-local, one VC: cyclic");
    x = analyse(g, "dragonfly-min", "dfladder");
    ok(x.ok && x.acyclic && x.vcs[lo] == 2 && x.vcs[gl] == 1,
       "dragonfly-min, VC raised at the global hop: acyclic, 2 local + 1 global");
    x = analyse(g, "dragonfly-valiant", "dfladder");
    ok(x.ok && x.acyclic && x.vcs[lo] == 4 && x.vcs[gl] == 2,
       "dragonfly-valiant, dfladder: acyclic with 4 local + 2 global");
    x = analyse(g, "dragonfly-valiant", "dfladder-local");
    ok(x.ok && !x.acyclic && x.vcs[lo] == 4 && x.vcs[gl] == 2,
       "dragonfly-valiant, counting local hops: cyclic even with 4 local + 2 global");
    x = analyse(g, "dragonfly-valiant", "ladder");
    ok(x.ok && x.acyclic && x.vmax == 6, "dragonfly-valiant, ladder: 6 VCs");
    x = analyse(g, "dragonfly-valiant", "ladder-reuse");
    ok(x.ok && x.acyclic && x.duato && x.vmax == 6, "dragonfly-valiant, ladder-reuse: Duato");
    x = analyse(g, "dragonfly-valiant", "ladder,cap=4");
    ok(x.ok && !x.acyclic, "dragonfly-valiant, ladder,cap=4: cyclic");
    x = analyse(g, "dragonfly-valiant", "ladder,cap=5");
    ok(x.ok && x.acyclic, "dragonfly-valiant, ladder,cap=5: acyclic");
    tk_graph_free(g);
}

static void random_graphs(void)
{
    const char *pol[] = {"none", "ladder,cap=2", "ladder", "ladder-reuse,cap=2"};
    for (int seed = 1; seed <= 6; seed++) {
        tk_gen_opts_t o;
        tk_graph_t *g = NULL;
        tk_error_t err;
        char *argv[] = {"n=8", "d=3"};
        memset(&o, 0, sizeof o);
        o.seed = (uint64_t)seed;
        if (tk_generate("rrg", 2, argv, &o, &g, &err) != TK_OK)
            continue;
        for (int p = 0; p < 4; p++) {
            run_t x = analyse(g, seed % 2 ? "min" : "valiant", pol[p]);
            ok(x.ok, "rrg seed %d %s analysed", seed, pol[p]);
        }
        tk_graph_free(g);
    }
}

/* dor against its definition, pair by pair: every path is a shortest
 * path that never returns to a dimension it left (dimensions in increasing
 * order), the weights sum to 1, and the count is the product over the
 * dimensions of the ties (2 for a torus ring of even side at half its
 * length, else 1).  valiant,dor: one path per intermediate on a HyperX,
 * its second phase starting after Hamming(s, m) hops. */
static int hop_dim(const tk_graph_t *g, int64_t a, tk_id_t u)
{
    for (int k = 0; k < g->ncoord; k++)
        if (g->coord[(int64_t)u * g->ncoord + k] != g->coord[(int64_t)g->head[a] * g->ncoord + k])
            return k;
    return -1;
}

static void dor_routes(void)
{
    const char *fam[] = {"hyperx", "torus", "torus", "mesh"};
    const char *arg[] = {"sides=3,4,2", "sides=4,3", "sides=4,4", "sides=3,4"};
    for (int f = 0; f < 4; f++) {
        tk_graph_t *g = gen(fam[f], arg[f], NULL, NULL);
        tk_route_spec_t spec;
        tk_router_t *r = NULL;
        tk_route_ws_t *ws = NULL;
        tk_pathset_t ps;
        tk_error_t err;
        int32_t *dist = malloc((size_t)g->n * sizeof *dist);
        unsigned __int128 *sig = malloc((size_t)g->n * sizeof *sig);
        tk_id_t *q = malloc((size_t)g->n * sizeof *q);
        int bad = 0;
        tk_pathset_init(&ps);
        tk_route_parse("dor", &spec, &err);
        if (tk_router_new(g, &spec, 1, 0, &r, &err) || tk_route_ws_new(r, &ws, &err)) {
            ok(0, "%s %s: dor router: %s", fam[f], arg[f], err.msg);
            continue;
        }
        for (tk_id_t s = 0; s < g->n; s++) {
            tk_sigma_from(g, s, dist, sig, q, &err);
            for (tk_id_t t = 0; t < g->n; t++) {
                if (s == t || tk_route_paths(r, ws, s, t, 0, &ps, &err) != TK_OK) {
                    bad |= s != t;
                    continue;
                }
                int64_t want = 1;
                for (int k = 0; k < g->ncoord; k++) {
                    int32_t side = 0, x = g->coord[(int64_t)s * g->ncoord + k],
                            y = g->coord[(int64_t)t * g->ncoord + k];
                    for (tk_id_t u = 0; u < g->n; u++)
                        if (g->coord[(int64_t)u * g->ncoord + k] + 1 > side)
                            side = g->coord[(int64_t)u * g->ncoord + k] + 1;
                    if (strcmp(fam[f], "torus") == 0 && side % 2 == 0 &&
                        (x - y == side / 2 || y - x == side / 2))
                        want *= 2;
                }
                double wsum = 0;
                bad |= ps.npaths != want;
                for (int64_t i = 0; i < ps.npaths; i++) {
                    tk_id_t u = s;
                    int last = -1;
                    wsum += ps.w[i];
                    bad |= ps.off[i + 1] - ps.off[i] != dist[t];
                    for (int64_t j = ps.off[i]; j < ps.off[i + 1]; j++) {
                        int d = hop_dim(g, ps.arc[j], u);
                        bad |= d < last || g->off[u] > ps.arc[j] || ps.arc[j] >= g->off[u + 1];
                        last = d;
                        u = g->head[ps.arc[j]];
                    }
                    bad |= u != t;
                }
                bad |= wsum < 1 - 1e-12 || wsum > 1 + 1e-12;
            }
        }
        ok(!bad, "%s %s: dor paths shortest, in dimension order, ties counted, weights sum to 1",
           fam[f], arg[f]);
        tk_route_ws_free(ws);
        tk_router_free(r);
        if (f == 0) {
            tk_route_parse("valiant,dor", &spec, &err);
            tk_router_new(g, &spec, 1, 0, &r, &err);
            tk_route_ws_new(r, &ws, &err);
            bad = 0;
            for (tk_id_t s = 0; s < g->n; s += 5)
                for (tk_id_t t = 0; t < g->n; t += 3) {
                    if (s == t)
                        continue;
                    bad |= tk_route_paths(r, ws, s, t, 0, &ps, &err) != TK_OK;
                    bad |= ps.npaths != g->n;
                    for (int64_t i = 0; i < ps.npaths; i++) {
                        tk_id_t m = ps.via[i];
                        int32_t h = 0;
                        for (int k = 0; k < g->ncoord; k++)
                            h += g->coord[(int64_t)s * g->ncoord + k] !=
                                 g->coord[(int64_t)m * g->ncoord + k];
                        bad |= ps.phase2[i] != h || ps.w[i] != 1.0 / g->n;
                    }
                }
            ok(!bad, "hyperx: valiant,dor has one path per intermediate, phase 2 after "
                     "Hamming(s, m) hops");
            tk_route_ws_free(ws);
            tk_router_free(r);
        }
        tk_pathset_destroy(&ps);
        free(dist);
        free(sig);
        free(q);
        tk_graph_free(g);
    }
}

/* The segment engine (two-phase routings) against the enumeration of every
 * pair's paths: the same channels and dependencies, bit for bit. */
static void engines(void)
{
    const char *fam[][3] = {{"ring", "n=6", NULL},         {"torus", "sides=3,4", NULL},
                            {"hyperx", "sides=3,3", NULL}, {"dragonfly", "a=4", "h=2"},
                            {"rrg", "n=10", "d=3"},        {"dragonfly+", "leaves=3", "spines=3"}};
    const char *rt[] = {"valiant", "valiant,exclude", "valiant,dor", "valiant,servers",
                        "dragonfly-valiant"};
    const char *pol[] = {"none",
                         "ladder",
                         "ladder,cap=3",
                         "2phases,minfirst",
                         "2phases,minlast",
                         "2phases,minboth",
                         "dateline",
                         "dfladder",
                         "dfladder-local,minlast"};
    int compared = 0, differ = 0;
    for (int f = 0; f < 6; f++) {
        tk_graph_t *g = gen(fam[f][0], fam[f][1], fam[f][2], f == 5 ? "h=3" : NULL);
        for (int i = 0; i < 5; i++)
            for (int j = 0; j < 9; j++) {
                tk_route_spec_t spec;
                tk_vc_policy_t p;
                tk_router_t *r = NULL;
                tk_error_t err;
                tk_vc_result_t a, b;
                /* the Dragonfly+: pairs of leaves only */
                tk_vc_opts_t oa = {2, 0, 0, 1, f == 5, 0, NULL}, ob = {1, 0, 0, 1, f == 5, 1, NULL};
                tk_route_parse(rt[i], &spec, &err);
                tk_vc_parse(pol[j], &p, &err);
                if (tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK)
                    continue;
                tk_status_t sa = tk_vc_analyse(r, &p, &oa, &a, &err);
                tk_status_t sb = tk_vc_analyse(r, &p, &ob, &b, &err);
                if (sa == TK_OK && sb == TK_OK) {
                    compared++;
                    int same = a.channels == b.channels && a.deps == b.deps &&
                               a.max_hops == b.max_hops && a.acyclic == b.acyclic &&
                               !memcmp(a.node, b.node, (size_t)a.channels * sizeof *a.node) &&
                               !memcmp(a.dep, b.dep, (size_t)a.deps * sizeof *a.dep);
                    if (!same) {
                        differ++;
                        printf("# differ: %s %s %s\n", g->spec, rt[i], pol[j]);
                    }
                    tk_vc_result_destroy(&a);
                    tk_vc_result_destroy(&b);
                } else {
                    ok(sa == sb, "%s %s %s: both engines fail alike", g->spec, rt[i], pol[j]);
                    if (sa == TK_OK)
                        tk_vc_result_destroy(&a);
                    if (sb == TK_OK)
                        tk_vc_result_destroy(&b);
                }
                tk_router_free(r);
            }
        tk_graph_free(g);
    }
    ok(compared > 100 && differ == 0,
       "segment engine = enumeration on %d routing x policy x graph cases", compared);
}

static void errors(void)
{
    tk_vc_policy_t pol;
    tk_error_t err;
    ok(tk_vc_parse("ladder,cap=0", &pol, &err) == TK_EINVAL, "cap=0 refused");
    ok(tk_vc_parse("ladder,cap=65", &pol, &err) == TK_EINVAL, "cap=65 refused (64 VCs)");
    ok(tk_vc_parse("2phases,cap=2", &pol, &err) == TK_EINVAL, "cap on 2phases refused");
    ok(tk_vc_parse("none,minlast", &pol, &err) == TK_EINVAL, "MODE on none refused");
    ok(tk_vc_parse("bogus", &pol, &err) == TK_EINVAL, "unknown policy refused");
    ok(tk_vc_parse("dfladder,minboth,cap=3/1", &pol, &err) == TK_OK &&
           strcmp(pol.text, "dfladder,minboth,cap=3/1") == 0,
       "dfladder,minboth,cap=3/1 parsed");
    tk_graph_t *g = gen("hyperx", "sides=4,4", NULL, NULL);
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_vc_result_t res;
    tk_vc_opts_t o = {1, 0, 0, 0, 0, 0, NULL};
    tk_route_parse("min", &spec, &err);
    tk_router_new(g, &spec, 1, 0, &r, &err);
    tk_vc_parse("2phases", &pol, &err);
    ok(tk_vc_analyse(r, &pol, &o, &res, &err) == TK_EUNSUPPORTED, "2phases without via: %s",
       err.msg);
    tk_vc_parse("dateline", &pol, &err);
    ok(tk_vc_analyse(r, &pol, &o, &res, &err) == TK_EUNSUPPORTED, "dateline on hyperx 4x4: %s",
       err.msg);
    tk_vc_parse("dfladder", &pol, &err);
    ok(tk_vc_analyse(r, &pol, &o, &res, &err) == TK_EUNSUPPORTED, "dfladder without global: %s",
       err.msg);
    tk_router_free(r);
    tk_graph_free(g);
    g = gen("ring", "n=140", NULL, NULL);
    tk_route_parse("min", &spec, &err);
    tk_router_new(g, &spec, 1, 0, &r, &err);
    tk_vc_parse("ladder", &pol, &err);
    ok(tk_vc_analyse(r, &pol, &o, &res, &err) == TK_ELIMIT, "ladder on a ring of 140: %s", err.msg);
    tk_router_free(r);
    tk_graph_free(g);
}

/* A runner that cuts every job into `parts` slices (tk_par_slice), runs
 * each into an accumulator of its own, on `threads` threads, and merges
 * them by integer addition: what the MPI ranks and --shard do. */
typedef struct slicer {
    int parts, threads, jobs;
} slicer_t;

static tk_status_t slice_run(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                             tk_error_t *err)
{
    slicer_t *S = ctx;
    tk_status_t st = TK_OK;
    (void)threads;
    S->jobs++;
    for (int i = 0; i < S->parts && st == TK_OK; i++) {
        int64_t lo, hi;
        tk_acc_t *part = NULL;
        tk_par_slice(job, i, S->parts, &lo, &hi);
        st = tk_par_acc_new(job, &part, err);
        if (st == TK_OK)
            st = tk_par_run(job, lo, hi, S->threads, part, err);
        if (st == TK_OK)
            st = tk_acc_merge(acc, part, err);
        tk_acc_free(part);
    }
    return st;
}

/* The shares of the rule of tk_vc_load, summed here in long double with
 * the VCs of ladder (hop i on VC i) or 2phases,minboth (VC 0 before the
 * second phase; every hop on 0 when the intermediate is the source, on 1
 * when it is the destination): share[a * TK_VC_MAX + v]. */
static int ref_shares(const tk_router_t *r, const tk_swdemand_t *dem, int ladder,
                      long double *share)
{
    tk_route_ws_t *ws = NULL;
    tk_pathset_t ps;
    tk_error_t err;
    tk_pathset_init(&ps);
    if (tk_route_ws_new(r, &ws, &err) != TK_OK)
        return -1;
    int bad = 0;
    for (tk_id_t s = 0; s < dem->n && !bad; s++)
        for (int64_t k = dem->off[s]; k < dem->off[s + 1] && !bad; k++) {
            tk_id_t t = dem->dst[k];
            if (t == s || tk_route_paths(r, ws, s, t, 0, &ps, &err) != TK_OK) {
                bad = t != s;
                continue;
            }
            for (int64_t i = 0; i < ps.npaths; i++)
                for (int64_t h = ps.off[i]; h < ps.off[i + 1]; h++) {
                    int64_t j = h - ps.off[i];
                    int v = ladder              ? (int)j
                            : ps.via[i] == s    ? 0
                            : ps.via[i] == t    ? 1
                            : j >= ps.phase2[i] ? 1
                                                : 0;
                    share[ps.arc[h] * TK_VC_MAX + v] += (long double)dem->w[k] * ps.w[i];
                }
        }
    tk_pathset_destroy(&ps);
    tk_route_ws_free(ws);
    return bad ? -1 : 0;
}

/* tk_vc_load: the same bytes at 1 and 3 threads, with its sources cut
 * into 2 and 3 slices merged as integers (a runner, as MPI and --shard),
 * and with the accumulator narrowed to the VCs used; every arc's VC loads
 * add up to its load of tk_load_compute exactly; the proportions are the
 * rule's (an independent long-double sum); MinBoth's phase-1 injection
 * share is the double nearest 1/12 (one draw in twelve through the
 * destination); too few VCs is TK_ELIMIT. */
static void load_parallel(void)
{
    tk_graph_t *g = gen("hyperx", "sides=3,4", NULL, NULL);
    tk_swdemand_t dem;
    tk_error_t err;
    tk_vc_opts_t o = {1, 0, 0, 0, 0, 0, NULL};
    int64_t w = g->m * TK_VC_MAX;
    double *l1 = calloc((size_t)w, sizeof *l1), *l2 = calloc((size_t)w, sizeof *l2);
    double *arc = calloc((size_t)g->m, sizeof *arc);
    long double *ref = calloc((size_t)w, sizeof *ref);
    static const char *const pols[] = {"2phases,minboth", "ladder"};
    memset(&dem, 0, sizeof dem);
    int good = !tk_swdemand_all_to_all(g, 0, &dem, &err);
    for (int pi = 0; pi < 2 && good; pi++) {
        tk_route_spec_t spec;
        tk_vc_policy_t pol;
        tk_router_t *r = NULL;
        double i1 = -1, i2 = -2;
        int32_t nv = pi ? 4 : 2;
        good = !tk_route_parse("valiant,dor", &spec, &err) && !tk_vc_parse(pols[pi], &pol, &err) &&
               !tk_router_new(g, &spec, 1, 0, &r, &err) &&
               !tk_vc_load(r, &pol, &o, &dem, l1, &i1, &err) &&
               !tk_load_compute(r, &dem, 1, arc, &err);
        if (!ok(good, "%s: per-VC loads computed", pols[pi])) {
            tap_diag("%s", err.msg);
            tk_router_free(r);
            break;
        }
        tk_vc_opts_t o3 = o;
        o3.threads = 3;
        memset(l2, 0xff, (size_t)w * sizeof *l2);
        ok(!tk_vc_load(r, &pol, &o3, &dem, l2, &i2, &err) &&
               memcmp(l1, l2, (size_t)w * sizeof *l1) == 0 && i1 == i2,
           "%s: 3 threads give the bytes of 1", pols[pi]);
        for (int parts = 2; parts <= 3; parts++) {
            slicer_t S = {parts, 2, 0};
            tk_par_runner_t run = {slice_run, &S, 0};
            tk_router_set_runner(r, &run);
            memset(l2, 0xff, (size_t)w * sizeof *l2);
            int same = !tk_vc_load(r, &pol, &o, &dem, l2, &i2, &err) &&
                       memcmp(l1, l2, (size_t)w * sizeof *l1) == 0 && i1 == i2;
            ok(same && S.jobs == 2,
               "%s: %d slices merged as integers give the bytes of one run (%d jobs)", pols[pi],
               parts, S.jobs);
            tk_router_set_runner(r, NULL);
        }
        memset(l2, 0xff, (size_t)w * sizeof *l2);
        ok(!tk_vc_load_with(r, &pol, &o, &dem, nv, l2, &i2, &err) &&
               memcmp(l1, l2, (size_t)w * sizeof *l1) == 0 && i1 == i2,
           "%s: the shares of %d VCs only: the same bytes", pols[pi], nv);
        ok(tk_vc_load_with(r, &pol, &o, &dem, nv - 1, l2, &i2, &err) == TK_ELIMIT,
           "%s: vcs = %d is too few: %s", pols[pi], nv - 1, err.msg);
        ok(tk_vc_load_with(r, &pol, &o, &dem, 0, l2, &i2, &err) == TK_EINVAL &&
               tk_vc_load_with(r, &pol, &o, &dem, TK_VC_MAX + 1, l2, &i2, &err) == TK_EINVAL,
           "%s: 0 or %d VCs refused", pols[pi], TK_VC_MAX + 1);
        int sums = 1, used = 0;
        for (int64_t a = 0; a < g->m; a++) {
            double x = 0;
            for (int v = 0; v < TK_VC_MAX; v++) {
                x += l1[a * TK_VC_MAX + v];
                used |= (v >= nv && l1[a * TK_VC_MAX + v] != 0) << 1;
            }
            sums &= x == arc[a];
        }
        ok(sums && !used, "%s: the VC loads of every arc add up to its load exactly", pols[pi]);
        memset(ref, 0, (size_t)w * sizeof *ref);
        if (ok(ref_shares(r, &dem, pi, ref) == 0, "%s: reference shares", pols[pi])) {
            long double worst = 0;
            for (int64_t a = 0; a < g->m; a++) {
                long double tot = 0;
                for (int v = 0; v < TK_VC_MAX; v++)
                    tot += ref[a * TK_VC_MAX + v];
                for (int v = 0; v < TK_VC_MAX && tot > 0; v++) {
                    long double d = l1[a * TK_VC_MAX + v] - arc[a] * (ref[a * TK_VC_MAX + v] / tot);
                    if (d < 0)
                        d = -d;
                    if (d / arc[a] > worst)
                        worst = d / arc[a];
                }
            }
            ok(worst < 1e-14L, "%s: the rule's proportions (worst relative error %.3Lg)", pols[pi],
               worst);
        }
        if (pi == 0)
            ok(i1 == 1.0 / 12, "%s: phase-1 injection share 1/12 exactly (%.17g)", pols[pi], i1);
        else
            ok(i1 == 0, "%s: no phase-1 injection", pols[pi]);
        tk_router_free(r);
    }
    tk_swdemand_destroy(&dem);
    tk_graph_free(g);
    free(l1);
    free(l2);
    free(arc);
    free(ref);
}

int main(void)
{
    dor_routes();
    rings();
    hyperx();
    dragonfly();
    random_graphs();
    engines();
    errors();
    load_parallel();
    return tap_done();
}
