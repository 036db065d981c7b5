/*
 * load.c - per-VC load (tk_vc_load): the arc loads of tk_load_compute,
 * divided among the VCs in the proportions the listed paths give.
 *
 * The proportions (shares) are integers: every term (a hop's traffic,
 * demand x path weight, split evenly among the VCs the hop may use) is
 * truncated to fixed point at 2^-FS, FS = 99 - e for a demand total below
 * 2^e (exact for every term above 2^-46 of the total), and added as an
 * integer.  So a share depends on its terms only, never on their order.
 * The sums are one job of the parallel driver (tk_par.h) over blocks of
 * sources, run by the router's runner as the arc loads are: a unit adds
 * its block's terms exactly into a thread's 128-bit workspace, then
 * writes every sum into the chunk buffer as two limbs of 53 bits, each an
 * integer double at its own power of two (one unit per chunk: the fold
 * turns them back into integers exactly).  The shares are then the same
 * integers for any thread count, any MPI rank count and any --shard split,
 * and only the accumulator crosses between processes.  One pass over the
 * arcs divides each arc's load in its shares.
 *
 * The phase-1 injection share sums its terms (demand x path weight)
 * exactly, in 128-bit fixed point at 2^-FI with the demand total below
 * 2^125 (every term whose last bit is at least 2^-FI is exact), and
 * divides once: with every draw of a pair weighing the same, it is the
 * exact share of such draws.  Its two sums ride in the same job, three
 * limbs each.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_load.h"
#include "tk_par.h"
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

/* The job's units: blocks of consecutive sources, about VC_UNITS of them
 * whatever the thread or rank count (a unit scans its workspace once, the
 * fold its buffer). */
#define VC_UNITS 512
/* Limbs: 53 bits each; a share below 2^106 in two, tot and inj (below
 * 2^125) in three. */
#define LIMB_BITS 53
#define SHARE_LIMBS 2
#define SUM_LIMBS 3
/* The job: the shares of every (arc, VC < nv) as limbs at
 * SHARE_LIMBS * (a * nv + v), then the limbs of tot, then those of inj. */
typedef struct vc_job {
    const tk_router_t *r;
    const tk_vc_policy_t *pol;
    const tk_vc_opts_t *opts;
    const tk_swdemand_t *dem;
    int32_t nv;    /* VCs per arc in the accumulator               */
    int64_t ns;    /* m * nv shares                                */
    int64_t block; /* sources per unit                             */
    int fs, fi;    /* scale exponents of the shares, of tot and inj */
    int fj;        /* the job's: a limb k is the double limb * 2^(53k - fj),
                      folded into limb * 2^53k, below 2^126 */
} vc_job_t;

/* Workspace of a thread: the policy context, the routing workspace, a
 * path set, each hop's VC range and the unit's exact sums. */
typedef struct terms_ws {
    vc_ctx_t c;
    tk_route_ws_t *ws;
    tk_pathset_t ps;
    int32_t *vlo, *vhi, *esc;
    int64_t cap;
    __int128 *sum; /* ns shares of the unit */
} terms_ws_t;

static void terms_ws_free(void *p)
{
    terms_ws_t *w = p;
    if (!w)
        return;
    tk_route_ws_free(w->ws);
    tk_pathset_destroy(&w->ps);
    free(w->vlo);
    free(w->vhi);
    free(w->esc);
    free(w->sum);
    vc_ctx_destroy(&w->c);
    free(w);
}

/* The policy's errors were seen before the job: a failure here is one of
 * memory. */
static void *terms_ws_new(void *ctx)
{
    const vc_job_t *J = ctx;
    tk_error_t err;
    terms_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    tk_pathset_init(&w->ps);
    int ok = vc_ctx_init(&w->c, J->r, J->pol, &err) == TK_OK;
    if (!ok)
        memset(&w->c, 0, sizeof w->c);
    ok = ok && tk_route_ws_new(J->r, &w->ws, &err) == TK_OK;
    ok = ok && (w->sum = tk_calloc_array((size_t)J->ns + 1, sizeof *w->sum)) != NULL;
    if (!ok) {
        terms_ws_free(w);
        return NULL;
    }
    return w;
}

static int ws_room(terms_ws_t *w, int64_t len)
{
    if (len <= w->cap)
        return 0;
    int64_t cap = len + 64;
    int32_t *a = realloc(w->vlo, (size_t)cap * sizeof *a);
    if (!a)
        return -1;
    w->vlo = a;
    int32_t *b = realloc(w->vhi, (size_t)cap * sizeof *b);
    if (!b)
        return -1;
    w->vhi = b;
    int32_t *e = realloc(w->esc, (size_t)cap * sizeof *e);
    if (!e)
        return -1;
    w->esc = e;
    w->cap = cap;
    return 0;
}

/* y >= 0 (an integer part below 2^126 is kept) truncated to an integer
 * with two 64-bit conversions. */
static inline __int128 trunc128(double y)
{
    uint64_t hi = (uint64_t)(y * 0x1p-64);
    double rest = y - (double)hi * 0x1p64;
    return (__int128)(((unsigned __int128)hi << 64) + (uint64_t)rest);
}

/* v (0 <= v < 2^(53 nl)) into buf[0 .. nl-1]: limb k as the double
 * limb * 2^(53k - fj), exact. */
static void put_limbs(double *buf, __int128 v, int nl, int fj)
{
    const uint64_t mask = ((uint64_t)1 << LIMB_BITS) - 1;
    for (int k = 0; k < nl; k++) {
        uint64_t limb = (uint64_t)((unsigned __int128)v >> (LIMB_BITS * k)) & mask;
        if (limb)
            buf[k] += ldexp((double)limb, LIMB_BITS * k - fj);
    }
}

/* The limbs of one sum, added back into an integer. */
static __int128 get_limbs(const tk_acc_t *acc, int64_t at, int nl)
{
    __int128 v = 0;
    for (int k = 0; k < nl; k++)
        v += tk_acc_get(acc, at + k);
    return v;
}

/* Unit u: the terms of sources [u * block, (u + 1) * block). */
static tk_status_t vc_unit(void *ctx, void *wsp, int64_t u, double *buf, tk_error_t *err)
{
    const vc_job_t *J = ctx;
    const tk_swdemand_t *dem = J->dem;
    terms_ws_t *w = wsp;
    const double scale = ldexp(1.0, J->fs);
    int64_t lo = u * J->block, hi = lo + J->block < dem->n ? lo + J->block : dem->n;
    __int128 tot = 0, inj = 0;
    tk_status_t st;

    for (tk_id_t s = (tk_id_t)lo; s < hi; s++)
        for (int64_t k = dem->off[s]; k < dem->off[s + 1]; k++) {
            tk_id_t t = dem->dst[k];
            double wd = dem->w[k];
            if (!(wd > 0) || t == s)
                continue;
            if ((st = tk_route_paths(J->r, w->ws, s, t, J->opts->max_paths, &w->ps, err)) != TK_OK)
                goto fail;
            const tk_pathset_t *ps = &w->ps;
            for (int64_t i = 0; i < ps->npaths; i++) {
                vc_path_t p = {
                    ps->arc + ps->off[i], (int32_t)(ps->off[i + 1] - ps->off[i]), s, t, ps->via[i],
                    ps->phase2[i]};
                if (ws_room(w, p.len)) {
                    st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (per-VC loads)");
                    goto fail;
                }
                if ((st = vc_assign(&w->c, &p, w->vlo, w->vhi, w->esc, err)) != TK_OK)
                    goto fail;
                double x = wd * ps->w[i];
                for (int32_t h = 0; h < p.len; h++) {
                    if (w->vhi[h] >= J->nv) {
                        st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                                          "per-VC loads: pair %ld -> %ld uses VC %ld (VCs "
                                          "0 .. %ld were asked for)",
                                          (long)s, (long)t, (long)w->vhi[h], (long)J->nv - 1);
                        goto fail;
                    }
                    __int128 part = trunc128(x / (double)(w->vhi[h] - w->vlo[h] + 1) * scale);
                    __int128 *b = w->sum + p.arc[h] * J->nv;
                    for (int32_t v = w->vlo[h]; v <= w->vhi[h]; v++)
                        b[v] += part;
                }
                tot += fix(x, J->fi);
                if (p.len > 0 && vc_phase(&w->c, &p, 0) == 1)
                    inj += fix(x, J->fi);
            }
        }
    st = TK_OK;
    for (int64_t e = 0; e < J->ns; e++)
        if (w->sum[e]) {
            if (w->sum[e] >> (LIMB_BITS * SHARE_LIMBS) && st == TK_OK)
                st = tk_error_set(err, TK_ERANGE, NULL, 0,
                                  "per-VC loads: a share of sources %lld..%lld exceeds 64 "
                                  "times the demand total",
                                  (long long)lo, (long long)hi - 1);
            put_limbs(buf + SHARE_LIMBS * e, w->sum[e], SHARE_LIMBS, J->fj);
            w->sum[e] = 0;
        }
    put_limbs(buf + SHARE_LIMBS * J->ns, tot, SUM_LIMBS, J->fj);
    put_limbs(buf + SHARE_LIMBS * J->ns + SUM_LIMBS, inj, SUM_LIMBS, J->fj);
    return st;
fail: /* the workspace clean for the thread's next unit */
    memset(w->sum, 0, (size_t)J->ns * sizeof *w->sum);
    return st;
}

tk_status_t tk_vc_load_with(const tk_router_t *r, const tk_vc_policy_t *pol,
                            const tk_vc_opts_t *opts, const tk_swdemand_t *dem, int32_t vcs,
                            double *load, double *inject2, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    const tk_par_runner_t *runner = tk_router_runner(r);
    tk_progress_t *pr = tk_router_progress(r);
    vc_ctx_t c;
    tk_acc_t *acc = NULL;
    double *arcload = NULL;
    tk_status_t st;

    if (vcs < 1 || vcs > TK_VC_MAX)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "per-VC loads: %ld VCs per arc (1 .. %d)",
                            (long)vcs, TK_VC_MAX);
    if (!(dem->total == 0 || (dem->total >= 0x1p-512 && dem->total < 0x1p512)))
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "per-VC loads: the demand total %g is out of range", dem->total);
    /* the policy's errors first, as before the loads */
    st = vc_ctx_init(&c, r, pol, err);
    vc_ctx_destroy(&c);
    if (st != TK_OK)
        return st;
    /* A share is at most the total times the most times a path takes one
     * arc (twice for two phases): below 2^6 times the total, 2^105 in
     * fixed point at FS. */
    int e = 0;
    (void)frexp(dem->total > 0 ? dem->total : 1, &e);
    int64_t block = (dem->n + VC_UNITS - 1) / VC_UNITS;
    vc_job_t J = {r, pol, opts, dem, vcs, g->m * vcs, block > 0 ? block : 1, 99 - e, inj_scale(dem),
                  0};
    tk_par_job_t job;
    memset(&job, 0, sizeof job);
    job.units = (dem->n + J.block - 1) / J.block;
    job.chunk = 1;
    job.width = SHARE_LIMBS * J.ns + 2 * SUM_LIMBS;
    job.bound = 1; /* every limb below 2^126 once folded: fj = 124 */
    job.ws_bytes = ((size_t)g->n + 1) * 64u + (size_t)g->m * 8u + (size_t)J.ns * 16u;
    job.ctx = &J;
    job.ws_new = terms_ws_new;
    job.ws_free = terms_ws_free;
    job.unit = vc_unit;
    job.progress = pr;
    J.fj = tk_par_scale_exp(&job);

    arcload = tk_calloc_array((size_t)g->m + 1, sizeof *arcload);
    if (!arcload)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (per-VC loads)");
    if ((st = tk_load_compute(r, dem, opts->threads, arcload, err)) != TK_OK)
        goto out;
    if ((st = tk_par_acc_new_with(runner, &job, &acc, err)) != TK_OK)
        goto out;
    tk_progress_begin(pr, "per-VC loads", "blocks of sources", job.units);
    st = tk_par_run_with(runner, &job, opts->threads, acc, err);
    tk_progress_end(pr);
    if (st != TK_OK)
        goto out;
    for (int64_t a = 0; a < g->m; a++) {
        double share[TK_VC_MAX] = {0};
        for (int32_t v = 0; v < vcs; v++)
            share[v] = (double)get_limbs(acc, SHARE_LIMBS * (a * vcs + v), SHARE_LIMBS);
        split(arcload[a], share, load + a * TK_VC_MAX);
    }
    if (inject2) {
        __int128 tot = get_limbs(acc, SHARE_LIMBS * J.ns, SUM_LIMBS),
                 inj = get_limbs(acc, SHARE_LIMBS * J.ns + SUM_LIMBS, SUM_LIMBS);
        *inject2 = tot > 0 ? ratio(inj, tot) : 0;
    }
out:
    tk_acc_free(acc);
    free(arcload);
    return st;
}

tk_status_t tk_vc_load(const tk_router_t *r, const tk_vc_policy_t *pol, const tk_vc_opts_t *opts,
                       const tk_swdemand_t *dem, double *load, double *inject2, tk_error_t *err)
{
    return tk_vc_load_with(r, pol, opts, dem, TK_VC_MAX, load, inject2, err);
}
