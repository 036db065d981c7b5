/*
 * load.c - per-VC load (tk_vc_load): the arc loads of tk_load_compute,
 * divided among the VCs in the proportions the listed paths give.
 * Sequential over sources (the shares are sums of doubles, whose order
 * fixes their bits), then one pass over the arcs.  The phase-1 injection
 * share sums its terms (demand x path weight) exactly, in 128-bit fixed
 * point at 2^-F with the demand total below 2^125 (every term whose last
 * bit is at least 2^-F is exact), and divides once: with every draw of a
 * pair weighing the same, it is the exact share of such draws.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_load.h"
#include "vc/vc_internal.h"

/* Divide L among the VCs v with share[v] > 0 as integer multiples of L's
 * last bit (largest remainders, ties to the lower VC). */
static void split(double L, const double *share, double *out)
{
    double tot = 0;
    int used = 0, last = -1;
    for (int v = 0; v < TK_VC_MAX; v++) {
        out[v] = 0;
        if (share[v] > 0) {
            tot += share[v];
            used++;
            last = v;
        }
    }
    if (L == 0 || used == 0)
        return;
    if (used == 1) {
        out[last] = L;
        return;
    }
    int e;
    double fr = frexp(L, &e);
    uint64_t M = (uint64_t)ldexp(fr, 53), sum = 0;
    double unit = ldexp(1.0, e - 53), rem[TK_VC_MAX];
    uint64_t q[TK_VC_MAX];
    for (int v = 0; v < TK_VC_MAX; v++) {
        q[v] = 0;
        rem[v] = -1;
        if (share[v] > 0) {
            double x = (double)M * (share[v] / tot);
            double f = floor(x);
            q[v] = (uint64_t)f;
            rem[v] = x - f;
            sum += q[v];
        }
    }
    while (sum > M) { /* rounding up in x: take back from the largest */
        int b = -1;
        for (int v = 0; v < TK_VC_MAX; v++)
            if (q[v] && (b < 0 || q[v] > q[b]))
                b = v;
        q[b]--;
        sum--;
    }
    while (sum < M) {
        int b = -1;
        for (int v = 0; v < TK_VC_MAX; v++)
            if (share[v] > 0 && (b < 0 || rem[v] > rem[b]))
                b = v;
        q[b]++;
        rem[b] = -1;
        sum++;
    }
    for (int v = 0; v < TK_VC_MAX; v++)
        out[v] = (double)q[v] * unit;
}

/* x * 2^F rounded to an integer (x >= 0, small enough to fit). */
static __int128 fix(double x, int F)
{
    if (x <= 0)
        return 0;
    int e;
    double fr = frexp(x, &e);
    __int128 m = (__int128)(int64_t)ldexp(fr, 53);
    int sh = e - 53 + F;
    if (sh >= 0)
        return sh > 70 ? 0 : m << sh;
    if (sh <= -64)
        return 0;
    return (m + ((__int128)1 << (-sh - 1))) >> -sh;
}

/* a / b for 0 <= a <= b, b > 0, b < 2^126: 64 quotient bits by long
 * division, then one rounding to a double. */
static double ratio(__int128 a, __int128 b)
{
    if (a >= b)
        return a == b ? 1.0 : (double)a / (double)b;
    uint64_t q = 0;
    for (int i = 0; i < 64; i++) {
        a *= 2;
        q <<= 1;
        if (a >= b) {
            a -= b;
            q |= 1;
        }
    }
    return ldexp((double)q, -64);
}

/* The demand total's fixed-point exponent: scale 2^F with the total
 * below 2^125. */
static int inj_scale(const tk_swdemand_t *dem)
{
    int F = 0;
    (void)frexp(dem->total > 0 ? dem->total : 1, &F);
    return 124 - F;
}

void tk_vc_terms_destroy(tk_vc_terms_t *t)
{
    if (!t)
        return;
    free(t->idx);
    free(t->part);
    memset(t, 0, sizeof *t);
}

static int terms_push(tk_vc_terms_t *t, uint64_t idx, double part)
{
    if (t->len == t->cap) {
        int64_t cap = t->cap ? 2 * t->cap : 1024;
        uint64_t *i = realloc(t->idx, (size_t)cap * sizeof *i);
        if (i)
            t->idx = i;
        double *p = i ? realloc(t->part, (size_t)cap * sizeof *p) : NULL;
        if (!p)
            return -1;
        t->part = p;
        t->cap = cap;
    }
    t->idx[t->len] = idx;
    t->part[t->len] = part;
    t->len++;
    return 0;
}

/* Workspace of the terms: the policy context, the routing workspace, a
 * path set and each hop's VC range. */
typedef struct terms_ws {
    vc_ctx_t c;
    tk_route_ws_t *ws;
    tk_pathset_t ps;
    int32_t *vlo, *vhi, *esc;
    int64_t cap;
} terms_ws_t;

static void terms_ws_free(terms_ws_t *w)
{
    tk_route_ws_free(w->ws);
    tk_pathset_destroy(&w->ps);
    free(w->vlo);
    free(w->vhi);
    free(w->esc);
    vc_ctx_destroy(&w->c);
}

static tk_status_t terms_ws_init(terms_ws_t *w, const tk_router_t *r, const tk_vc_policy_t *pol,
                                 tk_error_t *err)
{
    memset(w, 0, sizeof *w);
    tk_pathset_init(&w->ps);
    tk_status_t st = vc_ctx_init(&w->c, r, pol, err);
    if (st == TK_OK)
        st = tk_route_ws_new(r, &w->ws, err);
    return st;
}

/* The terms of sources [lo, hi) appended to out, in order. */
static tk_status_t terms_range(terms_ws_t *w, const tk_router_t *r, const tk_vc_opts_t *opts,
                               const tk_swdemand_t *dem, tk_id_t lo, tk_id_t hi, tk_vc_terms_t *out,
                               tk_error_t *err)
{
    int F = inj_scale(dem);
    tk_status_t st;

    for (tk_id_t s = lo; s < hi; s++)
        for (int64_t k = dem->off[s]; k < dem->off[s + 1]; k++) {
            tk_id_t t = dem->dst[k];
            double wd = dem->w[k];
            if (wd == 0 || t == s)
                continue;
            if ((st = tk_route_paths(r, w->ws, s, t, opts->max_paths, &w->ps, err)) != TK_OK)
                return st;
            const tk_pathset_t *ps = &w->ps;
            for (int64_t i = 0; i < ps->npaths; i++) {
                vc_path_t p = {
                    ps->arc + ps->off[i], (int32_t)(ps->off[i + 1] - ps->off[i]), s, t, ps->via[i],
                    ps->phase2[i]};
                if (p.len > w->cap) {
                    int64_t cap = p.len + 64;
                    int32_t *a = realloc(w->vlo, (size_t)cap * sizeof *a);
                    if (a)
                        w->vlo = a;
                    int32_t *b = a ? realloc(w->vhi, (size_t)cap * sizeof *b) : NULL;
                    if (b)
                        w->vhi = b;
                    int32_t *e = b ? realloc(w->esc, (size_t)cap * sizeof *e) : NULL;
                    if (!e)
                        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                    w->esc = e;
                    w->cap = cap;
                }
                if ((st = vc_assign(&w->c, &p, w->vlo, w->vhi, w->esc, err)) != TK_OK)
                    return st;
                double x = wd * ps->w[i];
                for (int32_t h = 0; h < p.len; h++) {
                    double part = x / (double)(w->vhi[h] - w->vlo[h] + 1);
                    for (int32_t v = w->vlo[h]; v <= w->vhi[h]; v++)
                        if (terms_push(out, (uint64_t)p.arc[h] * TK_VC_MAX + (uint64_t)v, part))
                            return tk_error_set(err, TK_ENOMEM, NULL, 0,
                                                "out of memory (per-VC load terms)");
                }
                out->tot += fix(x, F);
                if (p.len > 0 && vc_phase(&w->c, &p, 0) == 1)
                    out->inj += fix(x, F);
            }
        }
    return TK_OK;
}

tk_status_t tk_vc_load_terms(const tk_router_t *r, const tk_vc_policy_t *pol,
                             const tk_vc_opts_t *opts, const tk_swdemand_t *dem, tk_id_t lo,
                             tk_id_t hi, tk_vc_terms_t *out, tk_error_t *err)
{
    terms_ws_t w;

    if (lo < 0 || hi > dem->n || lo > hi)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "per-VC loads: bad source range %lld..%lld",
                            (long long)lo, (long long)hi);
    tk_status_t st = terms_ws_init(&w, r, pol, err);
    if (st == TK_OK)
        st = terms_range(&w, r, opts, dem, lo, hi, out, err);
    terms_ws_free(&w);
    return st;
}

void tk_vc_load_add(double *share, const tk_vc_terms_t *t, __int128 *tot, __int128 *inj)
{
    for (int64_t i = 0; i < t->len; i++)
        share[t->idx[i]] += t->part[i];
    *tot += t->tot;
    *inj += t->inj;
}

void tk_vc_load_split(const tk_graph_t *g, const double *arcload, const double *share, __int128 tot,
                      __int128 inj, double *load, double *inject2)
{
    for (int64_t a = 0; a < g->m; a++)
        split(arcload[a], share + a * TK_VC_MAX, load + a * TK_VC_MAX);
    if (inject2)
        *inject2 = tot > 0 ? ratio(inj, tot) : 0;
}

tk_status_t tk_vc_load(const tk_router_t *r, const tk_vc_policy_t *pol, const tk_vc_opts_t *opts,
                       const tk_swdemand_t *dem, double *load, double *inject2, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    vc_ctx_t c;
    terms_ws_t w;
    tk_vc_terms_t t;
    double *arcload = NULL, *share = NULL;
    __int128 inj = 0, tot = 0;
    tk_status_t st;

    memset(&t, 0, sizeof t);
    memset(&w, 0, sizeof w);
    tk_pathset_init(&w.ps);
    /* the policy's errors first, as before the terms */
    st = vc_ctx_init(&c, r, pol, err);
    vc_ctx_destroy(&c);
    if (st != TK_OK)
        return st;
    arcload = tk_calloc_array((size_t)g->m + 1, sizeof *arcload);
    share = tk_calloc_array((size_t)g->m * TK_VC_MAX + 1, sizeof *share);
    if (!arcload || !share) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (per-VC loads)");
        goto out;
    }
    if ((st = tk_load_compute(r, dem, opts->threads, arcload, err)) != TK_OK)
        goto out;
    if ((st = terms_ws_init(&w, r, pol, err)) != TK_OK)
        goto out;
    /* one source's terms at a time */
    for (tk_id_t s = 0; s < dem->n && st == TK_OK; s++) {
        t.len = 0;
        t.tot = t.inj = 0;
        if ((st = terms_range(&w, r, opts, dem, s, s + 1, &t, err)) == TK_OK)
            tk_vc_load_add(share, &t, &tot, &inj);
    }
    if (st == TK_OK)
        tk_vc_load_split(g, arcload, share, tot, inj, load, inject2);
out:
    terms_ws_free(&w);
    tk_vc_terms_destroy(&t);
    free(arcload);
    free(share);
    return st;
}
