/*
 * adapt_build.c - the adaptive state of a simulated network (issue 22):
 * the distinct switch pairs of the flow classes, every pair's candidates
 * (adapt_cand.c, adapt_polar.c) built in parallel and counted against
 * the memory limit, the rate system's arrays, the rules' per-router
 * state (ugal-le's counters, dgb's biases), and the first split
 * (adaptive.c); and the size of it all (tk_sim_adapt_size).
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#endif

#include "adapt_internal.h"
#include "tk_metric.h"

static int pair_cmp2(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    if (x[1] != y[1])
        return x[1] < y[1] ? -1 : 1;
    return (x[2] > y[2]) - (x[2] < y[2]);
}

/* What the iteration allocates beside the candidates, per class, system
 * entry, share and arc (the system's arrays, the fair solver's kept
 * workspace, the Anderson ring of AD_AA_M + 1 values and differences per
 * share, the per-arc signals): an estimate on the safe side. */
static uint64_t iter_bytes(int64_t nfc, int64_t cap, int64_t nshare, int64_t m)
{
    return (uint64_t)nfc * 96 + (uint64_t)cap * 64 +
           (uint64_t)nshare * 2 * (AD_AA_M + 1) * sizeof(double) + (uint64_t)m * 160;
}

tk_status_t sim_adapt_build(tk_sim_net_t *net, tk_error_t *err)
{
    const tk_graph_t *g = net->g;
    const tk_adapt_t *a = net->o.adapt;
    tk_status_t st = TK_OK;
    if (net->o.coupled || net->o.split != TK_SPLIT_OBLIVIOUS)
        return tk_error_set(err, TK_EUNSUPPORTED, "routing", 0,
                            "%s: adaptive routing splits each flow itself (no --coupled, no "
                            "--split independent)",
                            a->text);
    {
        /* the router must be the candidate model of the rule */
        tk_route_spec_t want;
        st = tk_adapt_candidates(a, g, &want, err);
        if (st != TK_OK)
            return st;
        if (strcmp(want.text, tk_router_spec(net->r)->text) != 0)
            return tk_error_set(err, TK_EINVAL, "routing", 0,
                                "%s: the router is %s, the rule's candidates are %s", a->text,
                                tk_router_spec(net->r)->text, want.text);
    }
    if (a->rule == TK_ADAPT_POLAR && g->directed)
        return tk_error_set(err, TK_EUNSUPPORTED, "routing", 0, "%s: needs an undirected graph",
                            a->text);
    struct sim_adapt *ad = calloc(1, sizeof *ad);
    if (!ad)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
    net->ad = ad;
    ad->a = *a;
    /* distinct switch pairs of the classes */
    int64_t nfc = net->nfc;
    int64_t *key = tk_malloc_array((size_t)(3 * (nfc > 0 ? nfc : 1)), sizeof *key);
    ad->cls_pair = tk_malloc_array((size_t)(nfc > 0 ? nfc : 1), sizeof *ad->cls_pair);
    if (!key || !ad->cls_pair) {
        free(key);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
    }
    for (int64_t c = 0; c < nfc; c++) {
        key[3 * c] = net->gsw[net->fc[c].gs];
        key[3 * c + 1] = net->gsw[net->fc[c].gd];
        key[3 * c + 2] = c;
    }
    qsort(key, (size_t)nfc, 3 * sizeof *key, pair_cmp2);
    int64_t np = 0;
    for (int64_t c = 0; c < nfc; c++) {
        if (c == 0 || key[3 * c] != key[3 * (c - 1)] || key[3 * c + 1] != key[3 * (c - 1) + 1])
            np++;
        ad->cls_pair[key[3 * c + 2]] = np - 1;
    }
    ad->pair = tk_calloc_array((size_t)(np > 0 ? np : 1), sizeof *ad->pair);
    if (!ad->pair) {
        free(key);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
    }
    np = 0;
    for (int64_t c = 0; c < nfc; c++)
        if (c == 0 || key[3 * c] != key[3 * (c - 1)] || key[3 * c + 1] != key[3 * (c - 1) + 1]) {
            ad->pair[np].s = (tk_id_t)key[3 * c];
            ad->pair[np].t = (tk_id_t)key[3 * c + 1];
            np++;
        }
    ad->npairs = np;
    free(key);
    ad->gcls = tk_graph_class_index(g, "global");
    if (a->rule == TK_ADAPT_IT_MM) {
        tk_route_spec_t rs;
        st = tk_route_parse("dragonfly-valiant", &rs, err);
        if (st == TK_OK)
            st = tk_router_new(g, &rs, net->o.threads, net->o.mem_limit, &ad->rrg, err);
        if (st != TK_OK)
            return st;
    }
    /* candidates, in parallel over pairs (each in its own slot); the
     * bytes they hold are counted against the memory budget, and once the
     * count passes it the remaining pairs are skipped */
    int64_t bad = -1;
    tk_error_t e1;
    tk_error_clear(&e1);
    sim_budget_t bud;
    sim_budget_init(&bud, net);
#pragma omp parallel num_threads(net->o.threads > 0 ? net->o.threads : omp_get_max_threads())
    {
        tk_route_ws_t *ws = NULL, *ws2 = NULL;
        sim_route_ws_t rws;
        tk_route_cands_t c, c2;
        sim_route_t r;
        tk_error_t e;
        tk_error_clear(&e);
        sim_route_ws_init(&rws);
        tk_route_cands_init(&c);
        tk_route_cands_init(&c2);
        sim_route_init(&r);
        polar_ws_t pws;
        memset(&pws, 0, sizeof pws);
        tk_status_t s = tk_route_ws_new(net->r, &ws, &e);
        if (s == TK_OK && ad->rrg)
            s = tk_route_ws_new(ad->rrg, &ws2, &e);
        if (s == TK_OK && a->rule == TK_ADAPT_POLAR && ad_polar_ws_init(&pws, g))
            s = tk_error_set(&e, TK_ENOMEM, NULL, 0, "out of memory (adaptive candidates)");
#pragma omp for schedule(dynamic, 16)
        for (int64_t i = 0; i < np; i++) {
            if (sim_budget_over(&bud))
                continue;
            if (s == TK_OK && a->rule == TK_ADAPT_POLAR)
                s = ad_polar_build(g, &ad->pair[i], &pws, &e);
            else if (s == TK_OK)
                s = ad_build_pair(net, a, &ad->pair[i], ws, ws2, &rws, &c, &c2, &r, &e);
            if (s == TK_OK) {
                /* an eighth more: the allocator's overhead and the
                 * build's scratch (measured: a run stopped at 8 GiB
                 * had 9.1 GB resident without it) */
                uint64_t b = ad_pair_bytes(&ad->pair[i]);
                sim_budget_add(&bud, b + b / 8);
            }
            if (s != TK_OK) {
#pragma omp critical
                if (bad < 0 || i < bad) {
                    bad = i;
                    e1 = e;
                    if (e1.code == TK_OK)
                        e1.code = s;
                }
                s = TK_OK;
                tk_error_clear(&e);
            }
        }
        tk_route_ws_free(ws);
        tk_route_ws_free(ws2);
        ad_polar_ws_destroy(&pws);
        sim_route_ws_destroy(&rws);
        tk_route_cands_destroy(&c);
        tk_route_cands_destroy(&c2);
        sim_route_destroy(&r);
    }
    if (bud.over)
        return sim_too_big(a->text, "candidates", np, &bud, err);
    if (bad >= 0) {
        if (err)
            *err = e1;
        return e1.code;
    }
    /* the system's variables: one per class, entries sized for every key */
    tk_mm_t *mm = &net->mm;
    int64_t cap = 0, nshare = 0;
    for (int64_t c = 0; c < nfc; c++)
        cap += ad->pair[ad->cls_pair[c]].nk + 2;
    for (int64_t i = 0; i < np; i++)
        nshare += ad->pair[i].ny;
    if (bud.lim && bud.held + iter_bytes(nfc, cap, nshare, g->m) > bud.lim)
        return sim_too_big(a->text, "candidates", np, &bud, err);
    mm->nvar = nfc;
    mm->demand = tk_malloc_array((size_t)(nfc > 0 ? nfc : 1), sizeof *mm->demand);
    mm->mult = tk_malloc_array((size_t)(nfc > 0 ? nfc : 1), sizeof *mm->mult);
    mm->voff = tk_malloc_array((size_t)nfc + 1, sizeof *mm->voff);
    mm->eres = tk_malloc_array((size_t)(cap > 0 ? cap : 1), sizeof *mm->eres);
    mm->ecoef = tk_malloc_array((size_t)(cap > 0 ? cap : 1), sizeof *mm->ecoef);
    if (net->o.arb != TK_ARB_FAIR)
        mm->ein = tk_malloc_array((size_t)(cap > 0 ? cap : 1), sizeof *mm->ein);
    net->vsrc = tk_malloc_array((size_t)(nfc > 0 ? nfc : 1), sizeof *net->vsrc);
    net->fc_var = tk_malloc_array((size_t)nfc + 1, sizeof *net->fc_var);
    ad->use = tk_calloc_array((size_t)g->m + 1, sizeof *ad->use);
    ad->blk = tk_calloc_array((size_t)g->m + 1, sizeof *ad->blk);
    ad->qd = tk_calloc_array((size_t)g->m + 1, sizeof *ad->qd);
    ad->qr = tk_calloc_array((size_t)g->m + 1, sizeof *ad->qr);
    ad->pz = tk_calloc_array((size_t)g->m + 1, sizeof *ad->pz);
    ad->lq = tk_calloc_array((size_t)g->m + 1, sizeof *ad->lq);
    ad->mark = tk_calloc_array((size_t)g->m + 1, sizeof *ad->mark);
    ad->wl = tk_malloc_array((size_t)g->m + 1, sizeof *ad->wl);
    ad->flag = tk_calloc_array((size_t)g->m + 1, sizeof *ad->flag);
    ad->bufa = tk_calloc_array((size_t)g->m + 1, sizeof *ad->bufa);
    ad->aq = tk_calloc_array((size_t)g->m + 1, sizeof *ad->aq);
    ad->fws = sim_fair_ws_new();
    if (!ad->fws || !mm->demand || !mm->mult || !mm->voff || !mm->eres || !mm->ecoef ||
        (net->o.arb != TK_ARB_FAIR && !mm->ein) || !net->vsrc || !net->fc_var || !ad->use ||
        !ad->blk || !ad->qd || !ad->qr || !ad->pz || !ad->lq || !ad->mark || !ad->wl || !ad->flag ||
        !ad->bufa || !ad->aq)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
    for (int64_t e = 0; e < g->m; e++)
        ad->bufa[e] = !isnan(ad->a.gbuf) && ad->gcls >= 0 && g->cls && g->cls[e] == ad->gcls
                          ? ad->a.gbuf
                          : ad->a.buffer;
    for (int64_t c = 0; c < nfc; c++) {
        mm->demand[c] = net->fc[c].w;
        mm->mult[c] = net->fc[c].count;
        net->vsrc[c] = net->fc[c].gs;
        net->fc_var[c] = c;
    }
    net->fc_var[nfc] = nfc;
    if (adapt_is_dgb(a->rule)) {
        ad->rb = tk_calloc_array((size_t)g->n + 1, sizeof *ad->rb);
        ad->rg = tk_calloc_array((size_t)g->n + 1, sizeof *ad->rg);
        ad->rw = tk_calloc_array((size_t)g->n + 1, sizeof *ad->rw);
        ad->rd = tk_calloc_array((size_t)g->n + 1, sizeof *ad->rd);
        ad->rgp = tk_calloc_array((size_t)g->n + 1, sizeof *ad->rgp);
        if (!ad->rb || !ad->rg || !ad->rw || !ad->rd || !ad->rgp)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
        /* |b_r| <= B x the longest alternative: a larger bias decides
         * every comparison of full queues the same way */
        int32_t hmax = 1;
        for (int64_t i = 0; i < np; i++)
            for (int64_t k = 0; k < ad->pair[i].nalt; k++)
                if (ad->pair[i].alt[k].maxhops > hmax)
                    hmax = ad->pair[i].alt[k].maxhops;
        ad->bmax = a->buffer * hmax;
        ad->nrb = g->n;
        for (tk_id_t u = 0; u < g->n; u++)
            ad->rb[u] = a->bias;
    }
    if (adapt_is_le(a->rule)) {
        int32_t gmax = 0;
        for (tk_id_t u = 0; u < g->n; u++)
            if (g->group[u] + 1 > gmax)
                gmax = g->group[u] + 1;
        int32_t *sz = tk_calloc_array((size_t)gmax + 1, sizeof *sz);
        ad->gidx = tk_malloc_array((size_t)g->n + 1, sizeof *ad->gidx);
        if (!sz || !ad->gidx) {
            free(sz);
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
        }
        for (tk_id_t u = 0; u < g->n; u++)
            ad->gidx[u] = sz[g->group[u]]++;
        int32_t amax = 0;
        for (int32_t k = 0; k < gmax; k++)
            if (sz[k] > amax)
                amax = sz[k];
        free(sz);
        ad->ngroup_topo = gmax;
        ad->amax = amax;
        ad->cnt = tk_calloc_array((size_t)g->n * (size_t)amax * (size_t)gmax + 1, sizeof *ad->cnt);
        ad->C = tk_calloc_array((size_t)g->n * (size_t)gmax + 1, sizeof *ad->C);
        if (!ad->cnt || !ad->C)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
        /* every pair's keys whose arc ends in the source group, in key
         * order (the routers that count its traffic) */
        for (int64_t i = 0; i < np; i++) {
            ad_pair_t *p = &ad->pair[i];
            int32_t gi = g->group[p->s];
            int64_t k = 0;
            for (int64_t u = 0; u < p->nk && p->key[u] < g->m; u++)
                k += g->group[g->head[p->key[u]]] == gi;
            p->sk = tk_malloc_array((size_t)(k > 0 ? k : 1), sizeof *p->sk);
            if (!p->sk)
                return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
            for (int64_t u = 0; u < p->nk && p->key[u] < g->m; u++)
                if (g->group[g->head[p->key[u]]] == gi)
                    p->sk[p->nsk++] = u;
        }
    }
    /* hop statistics are those of the last solve's split */
    net->hhist = tk_calloc_array(1, sizeof *net->hhist);
    if (!net->hhist)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive routing)");
    /* the first split, and the rate system from it */
    st = ad_first_split(net, err);
    if (st == TK_OK)
        st = sim_net_resources(net, err);
    return st;
}

tk_status_t tk_sim_adapt_size(const tk_sim_net_t *net, tk_adapt_size_t *out, tk_error_t *err)
{
    if (!net->ad)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "not an adaptive simulation");
    const struct sim_adapt *ad = net->ad;
    memset(out, 0, sizeof *out);
    out->pairs = ad->npairs;
    for (int64_t i = 0; i < ad->npairs; i++) {
        const ad_pair_t *p = &ad->pair[i];
        out->keys += p->nk;
        out->shares += p->ny;
        if (p->pol) {
            out->alternatives += p->pol->narc;
            out->entries += p->pol->nent;
        } else {
            out->alternatives += p->nalt;
            if (p->nalt > 0)
                out->entries += p->alt[p->nalt - 1].off + p->alt[p->nalt - 1].n;
        }
        out->bytes += ad_pair_bytes(p);
    }
    out->classes = net->nfc;
    for (int64_t c = 0; c < net->nfc; c++)
        out->coefficients += ad->pair[ad->cls_pair[c]].nk;
    return TK_OK;
}
