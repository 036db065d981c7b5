/*
 * vc_check.h - what the topo-vc unit tests share: a generator call, a
 * brute-force cycle search on a result's dependency graph, and analyse(),
 * which runs an analysis and checks its witness or certificate (re-walked
 * or checked, then tampered with) and its verdict against the brute force.
 * Included by test_vc.c and test_vcadapt.c (after tap.h and topokit.h).
 */
#ifndef TK_TESTS_VC_CHECK_H
#define TK_TESTS_VC_CHECK_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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

#endif /* TK_TESTS_VC_CHECK_H */
