/*
 * dynamic.c - the dynamic mode of the simulator (tk_sim.h, "Dynamic
 * mode"): flows arrive and complete, and after every event the max-min
 * fair rates are re-solved on the event's component only.
 *
 * The state: resources 0 .. m-1 are the arcs, m + i the injection link of
 * server i, m + N + i its ejection link; each keeps the list of the active
 * flows on it with their coefficients.  Every active flow has a rate x, the
 * bytes rem it still had to send at time last (its last rate change), a
 * finish time in a heap, and a recorded bottleneck: the resource it froze
 * at in the progressive filling that last set its rate.
 *
 * Why a component re-solve is exact.  An allocation is max-min fair iff
 * every flow has a bottleneck: a saturated resource on which no flow is
 * faster.  Let C be the event's component (tk_sim_dynamic's comment): no
 * flow outside C has its recorded bottleneck on a resource a flow of C
 * uses (C brings in every such flow) or on the departed flow's resources
 * (they are opened first), so re-solving C with the other rates fixed
 * leaves every outside flow's bottleneck as it was.  The filling gives
 * every flow of C a saturated resource on which no flow of C is faster;
 * when no flow outside C is faster there either, every flow has a
 * bottleneck and the whole allocation is the max-min fair one.  Otherwise
 * the faster outside flows join C and C is filled again (C only grows, so
 * this ends, at the latest with every active flow in C).
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "sim_internal.h"
#include "tk_sim.h"

/* A resource's active flows f and their coefficients c. */
typedef struct rent {
    int32_t f;
    double c;
} rent_t;
typedef struct rlist {
    int32_t n, cap;
    rent_t *e;
} rlist_t;

/* A resource's scratch in the filling, together. */
typedef struct rstate {
    double rem;    /* capacity left for the unfrozen flows of C         */
    double w;      /* their summed coefficients                         */
    double key;    /* saturation level rem / w                          */
    double maxout; /* fastest flow outside C on it (-1 none)            */
    int64_t mark;  /* == epoch: opened                                  */
    int32_t nunf;  /* unfrozen flows of C on it                         */
    int32_t hpos;  /* position in the filling heap (-1 none)            */
} rstate_t;

/* A flow's state that the scans of resource lists read: one cache line
 * fetch per entry. */
typedef struct fstate {
    double x;      /* rate                                              */
    double newx;   /* the filling's rate (-1: not frozen yet)           */
    int64_t fmark; /* == epoch: in C                                    */
    int32_t bneck; /* recorded bottleneck (-1 none)                     */
    int32_t nb;    /* the filling's bottleneck                          */
} fstate_t;

typedef struct sim {
    const tk_sim_workload_t *w;
    const tk_sim_dyn_opts_t *o;
    int32_t nres;
    double *cap; /* nres: capacities                                   */
    rlist_t *rl; /* nres                                               */
    /* per flow (workload order) */
    int32_t nf;
    int64_t *eoff;  /* nf + 1: flow f uses eres/ecoef[eoff[f] .. eoff[f+1]-1] */
    int32_t *eres;  /* resources                                        */
    double *ecoef;  /* coefficients                                     */
    fstate_t *fs;   /* what the list scans read, together               */
    double *rem;    /* bytes left at time last                          */
    double *last;   /* time of the last rate change                     */
    double *finish; /* completion time (exact once completed)           */
    double *bytes;  /* check_bytes: integral of the rate, else NULL     */
    int32_t *hpos;  /* position in the completion heap (-1 none)        */
    int32_t *apos;  /* position in the active list (-1 none)            */
    rstate_t *rs;   /* nres: the filling's scratch                       */
    int64_t epoch;
    /* the component */
    int32_t *cf, *cr;
    int64_t ncf, ncr;
    /* heaps: filling (resources by (rkey, id)), completions (flows by
     * (finish, id)); the active flows */
    int32_t *fh, *ch, *act;
    int64_t nfh, nch, nact;
    double now;
    tk_sim_dyn_result_t *res;
    double sum_cf, sum_cr, sum_act;
} sim_t;

void tk_sim_dyn_opts_init(tk_sim_dyn_opts_t *o)
{
    memset(o, 0, sizeof *o);
}

void tk_sim_dyn_result_free(tk_sim_dyn_result_t *r)
{
    if (!r)
        return;
    free(r->start);
    free(r->finish);
    free(r->size);
    free(r->bytes);
    memset(r, 0, sizeof *r);
}

/* ------------------------------------------------------------------------ */
/* Routes: one per distinct switch pair of the workload. */

typedef struct routes {
    int64_t np;
    int64_t *key;  /* np: t * n + s, sorted (grouped by destination)    */
    int64_t *roff; /* np + 1                                            */
    int32_t *arc;
    double *w;
} routes_t;

static void routes_free(routes_t *rt)
{
    free(rt->key);
    free(rt->roff);
    free(rt->arc);
    free(rt->w);
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

/* One pair's arcs and coefficients (the route's entries merged over their
 * inputs: fair arbitration ignores ports), into fresh arrays. */
static tk_status_t route_one(const tk_router_t *r, tk_route_ws_t *ws, tk_pathset_t *ps,
                             sim_route_ws_t *sws, sim_route_t *sr, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, int32_t *n, int32_t **arc, double **w,
                             tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_status_t st = tk_route_paths(r, ws, s, t, max_paths, ps, err);
    if (st == TK_OK)
        st = sim_route_from_paths_ws(g, ps, -1, sws, sr, err);
    if (st != TK_OK)
        return st;
    *arc = tk_malloc_array((size_t)(sr->n > 0 ? sr->n : 1), sizeof **arc);
    *w = tk_malloc_array((size_t)(sr->n > 0 ? sr->n : 1), sizeof **w);
    if (!*arc || !*w)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (routes)");
    int32_t k = 0;
    for (int64_t j = 0; j < sr->n; j++) {
        if (k > 0 && (*arc)[k - 1] == sr->arc[j])
            (*w)[k - 1] += sr->w[j];
        else {
            (*arc)[k] = (int32_t)sr->arc[j];
            (*w)[k++] = sr->w[j];
        }
    }
    *n = k;
    return TK_OK;
}

/* Every pair's route, in parallel; each depends on its pair only, and the
 * error reported is that of the first failing pair, so neither depends on
 * the threads. */
static tk_status_t routes_compute(const tk_router_t *r, const tk_sim_dyn_opts_t *o, routes_t *rt,
                                  int32_t *rn, int32_t **rarc, double **rw, tk_error_t *err)
{
    tk_id_t n = tk_router_graph(r)->n;
    uint64_t maxp = o->max_paths ? o->max_paths : (uint64_t)1 << 20;
    int64_t bad = rt->np;
    tk_error_t first;
    tk_error_clear(&first);
#ifdef _OPENMP
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
#pragma omp parallel num_threads(nt) if (rt->np > 64)
#endif
    {
        tk_route_ws_t *ws = NULL;
        tk_pathset_t ps;
        sim_route_t sr;
        sim_route_ws_t sws;
        tk_error_t e;
        tk_status_t st = tk_route_ws_new(r, &ws, &e);
        tk_pathset_init(&ps);
        sim_route_init(&sr);
        sim_route_ws_init(&sws);
#pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0; i < rt->np; i++) {
            tk_id_t s = (tk_id_t)(rt->key[i] % n), t = (tk_id_t)(rt->key[i] / n);
            tk_status_t sti = st;
            if (sti == TK_OK)
                sti = route_one(r, ws, &ps, &sws, &sr, s, t, maxp, &rn[i], &rarc[i], &rw[i], &e);
            if (sti != TK_OK) {
#pragma omp critical
                if (i < bad) {
                    bad = i;
                    first = e;
                }
            }
        }
        tk_route_ws_free(ws);
        tk_pathset_destroy(&ps);
        sim_route_destroy(&sr);
        sim_route_ws_destroy(&sws);
    }
    if (bad < rt->np) {
        if (err)
            *err = first;
        return first.code ? first.code : TK_EINTERNAL;
    }
    return TK_OK;
}

/* The distinct pairs of the workload's flows (fpair[f]: the index of flow
 * f's pair) and their routes, packed. */
static tk_status_t routes_build(const tk_router_t *r, const tk_sim_workload_t *w,
                                const int32_t *sw_of, const tk_sim_dyn_opts_t *o, routes_t *rt,
                                int32_t *fpair, tk_error_t *err)
{
    tk_id_t n = tk_router_graph(r)->n;
    int32_t *rn = NULL, **rarc = NULL;
    double **rw = NULL;
    tk_status_t st = TK_OK;

    memset(rt, 0, sizeof *rt);
    rt->key = tk_malloc_array((size_t)(w->n > 0 ? w->n : 1), sizeof *rt->key);
    if (!rt->key)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (routes)");
    for (int64_t f = 0; f < w->n; f++)
        rt->key[f] = (int64_t)sw_of[w->f[f].dst] * n + sw_of[w->f[f].src];
    qsort(rt->key, (size_t)w->n, sizeof *rt->key, cmp_i64);
    for (int64_t f = 0; f < w->n; f++)
        if (rt->np == 0 || rt->key[rt->np - 1] != rt->key[f])
            rt->key[rt->np++] = rt->key[f];
    for (int64_t f = 0; f < w->n; f++) {
        int64_t k = (int64_t)sw_of[w->f[f].dst] * n + sw_of[w->f[f].src];
        const int64_t *p = bsearch(&k, rt->key, (size_t)rt->np, sizeof k, cmp_i64);
        fpair[f] = (int32_t)(p - rt->key);
    }
    rn = tk_calloc_array((size_t)rt->np + 1, sizeof *rn);
    rarc = tk_calloc_array((size_t)rt->np + 1, sizeof *rarc);
    rw = tk_calloc_array((size_t)rt->np + 1, sizeof *rw);
    rt->roff = tk_malloc_array((size_t)rt->np + 1, sizeof *rt->roff);
    if (!rn || !rarc || !rw || !rt->roff) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (routes)");
        goto done;
    }
    if ((st = routes_compute(r, o, rt, rn, rarc, rw, err)) != TK_OK)
        goto done;
    rt->roff[0] = 0;
    for (int64_t i = 0; i < rt->np; i++)
        rt->roff[i + 1] = rt->roff[i] + rn[i];
    rt->arc = tk_malloc_array((size_t)rt->roff[rt->np] + 1, sizeof *rt->arc);
    rt->w = tk_malloc_array((size_t)rt->roff[rt->np] + 1, sizeof *rt->w);
    if (!rt->arc || !rt->w) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (routes)");
        goto done;
    }
    for (int64_t i = 0; i < rt->np; i++) {
        memcpy(rt->arc + rt->roff[i], rarc[i], (size_t)rn[i] * sizeof *rt->arc);
        memcpy(rt->w + rt->roff[i], rw[i], (size_t)rn[i] * sizeof *rt->w);
    }
done:
    for (int64_t i = 0; rarc && i < rt->np; i++) {
        free(rarc[i]);
        free(rw[i]);
    }
    free(rn);
    free(rarc);
    free(rw);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Heaps.  The filling heap holds resources by (rkey, id), the completion
 * heap flows by (finish, id); both indexed (position arrays), so a key can
 * move either way. */

static inline int fh_less(const sim_t *S, int32_t a, int32_t b)
{
    return S->rs[a].key < S->rs[b].key || (S->rs[a].key == S->rs[b].key && a < b);
}

static inline int ch_less(const sim_t *S, int32_t a, int32_t b)
{
    return S->finish[a] < S->finish[b] || (S->finish[a] == S->finish[b] && a < b);
}

/* The indexed heap P of items S->H[0 .. S->N - 1] (positions POS(S, v),
 * -1 outside), ordered by LESS: P_fix sifts the item at position i up
 * and down, P_push adds v, P_remove takes v out. */
#define HEAP_OPS(P, LESS, POS, H, N)                                                               \
    static void P##_fix(sim_t *S, int64_t i)                                                       \
    {                                                                                              \
        int32_t *h = S->H, v = h[i];                                                               \
        int64_t n = S->N;                                                                          \
        while (i > 0 && LESS(S, v, h[(i - 1) / 2])) {                                              \
            h[i] = h[(i - 1) / 2];                                                                 \
            POS(S, h[i]) = (int32_t)i;                                                             \
            i = (i - 1) / 2;                                                                       \
        }                                                                                          \
        for (;;) {                                                                                 \
            int64_t c = 2 * i + 1;                                                                 \
            if (c >= n)                                                                            \
                break;                                                                             \
            if (c + 1 < n && LESS(S, h[c + 1], h[c]))                                              \
                c++;                                                                               \
            if (!LESS(S, h[c], v))                                                                 \
                break;                                                                             \
            h[i] = h[c];                                                                           \
            POS(S, h[i]) = (int32_t)i;                                                             \
            i = c;                                                                                 \
        }                                                                                          \
        h[i] = v;                                                                                  \
        POS(S, v) = (int32_t)i;                                                                    \
    }                                                                                              \
    static void P##_push(sim_t *S, int32_t v)                                                      \
    {                                                                                              \
        S->H[S->N] = v;                                                                            \
        POS(S, v) = (int32_t)S->N;                                                                 \
        S->N++;                                                                                    \
        P##_fix(S, S->N - 1);                                                                      \
    }                                                                                              \
    static void P##_remove(sim_t *S, int32_t v)                                                    \
    {                                                                                              \
        int64_t i = POS(S, v);                                                                     \
        POS(S, v) = -1;                                                                            \
        S->N--;                                                                                    \
        if (i == S->N)                                                                             \
            return;                                                                                \
        S->H[i] = S->H[S->N];                                                                      \
        POS(S, S->H[i]) = (int32_t)i;                                                              \
        P##_fix(S, i);                                                                             \
    }
#define FH_POS(S, v) ((S)->rs[v].hpos)
#define CH_POS(S, v) ((S)->hpos[v])
HEAP_OPS(fh, fh_less, FH_POS, fh, nfh)
HEAP_OPS(ch, ch_less, CH_POS, ch, nch)

/* ------------------------------------------------------------------------ */
/* Resource lists. */

static int rl_add(rlist_t *l, int32_t f, double c)
{
    if (l->n == l->cap) {
        int32_t nc = l->cap ? 2 * l->cap : 4;
        rent_t *e = tk_realloc_array(l->e, (size_t)nc, sizeof *e);
        if (!e)
            return -1;
        l->e = e;
        l->cap = nc;
    }
    l->e[l->n].f = f;
    l->e[l->n++].c = c;
    return 0;
}

static void rl_del(rlist_t *l, int32_t f)
{
    for (int32_t j = 0; j < l->n; j++)
        if (l->e[j].f == f) {
            l->n--;
            l->e[j] = l->e[l->n];
            return;
        }
}

/* ------------------------------------------------------------------------ */
/* The component: closure and progressive filling. */

static inline void comp_add_flow(sim_t *S, int32_t f)
{
    if (S->fs[f].fmark == S->epoch)
        return;
    S->fs[f].fmark = S->epoch;
    S->cf[S->ncf++] = f;
}

/* Open resource r: every flow bottlenecked at it (connected: every flow
 * on it) joins C. */
static void comp_open(sim_t *S, int32_t r)
{
    if (S->rs[r].mark == S->epoch)
        return;
    S->rs[r].mark = S->epoch;
    S->cr[S->ncr++] = r;
    const rlist_t *l = &S->rl[r];
    for (int32_t j = 0; j < l->n; j++)
        if (S->o->connected || S->fs[l->e[j].f].bneck == r)
            comp_add_flow(S, l->e[j].f);
}

/* Open the resources of the flows of C from position `from` on (C grows
 * while this runs). */
static void comp_close(sim_t *S, int64_t from)
{
    for (int64_t i = from; i < S->ncf; i++) {
        int32_t f = S->cf[i];
        for (int64_t e = S->eoff[f]; e < S->eoff[f + 1]; e++)
            comp_open(S, S->eres[e]);
    }
}

/* Set up the filling on C: per opened resource the capacity left by the
 * flows outside C, the coefficients of the flows of C, the fastest flow
 * outside C; the heap of saturation levels. */
static void fill_setup(sim_t *S)
{
    S->nfh = 0;
    for (int64_t i = 0; i < S->ncf; i++)
        S->fs[S->cf[i]].newx = -1;
    for (int64_t i = 0; i < S->ncr; i++) {
        int32_t r = S->cr[i], nunf = 0;
        const rlist_t *l = &S->rl[r];
        double w = 0, out = 0, maxout = -1;
        for (int32_t j = 0; j < l->n; j++) {
            int32_t h = l->e[j].f;
            if (S->fs[h].fmark == S->epoch) {
                w += l->e[j].c;
                nunf++;
            } else {
                out += l->e[j].c * S->fs[h].x;
                if (S->fs[h].x > maxout)
                    maxout = S->fs[h].x;
            }
        }
        S->rs[r].rem = S->cap[r] - out;
        S->rs[r].w = w;
        S->rs[r].nunf = nunf;
        S->rs[r].maxout = maxout;
        S->rs[r].hpos = -1;
        if (nunf > 0) {
            S->rs[r].key = S->rs[r].rem / w;
            fh_push(S, r);
        }
    }
}

/* Freeze flow h of C at rate t, bottleneck r. */
static void fill_freeze(sim_t *S, int32_t h, double t, int32_t r)
{
    S->fs[h].newx = t;
    S->fs[h].nb = r;
    for (int64_t e = S->eoff[h]; e < S->eoff[h + 1]; e++) {
        int32_t q = S->eres[e];
        double c = S->ecoef[e];
        S->rs[q].rem -= c * t;
        S->rs[q].w -= c;
        if (--S->rs[q].nunf == 0) {
            if (S->rs[q].hpos >= 0)
                fh_remove(S, q);
        } else {
            S->rs[q].key = S->rs[q].rem / S->rs[q].w;
            if (S->rs[q].hpos >= 0)
                fh_fix(S, S->rs[q].hpos);
        }
    }
}

/* Resource r's capacity left and slope recomputed from its list, in list
 * order: the updates of fill_freeze subtract, which can cancel, so they
 * only order the heap; a resource fires with these exact sums (the same
 * for the same frozen set, whatever the order of the freezes). */
static void fill_refresh(sim_t *S, int32_t r)
{
    const rlist_t *l = &S->rl[r];
    double w = 0, used = 0;
    for (int32_t j = 0; j < l->n; j++) {
        int32_t h = l->e[j].f;
        if (S->fs[h].fmark != S->epoch)
            used += l->e[j].c * S->fs[h].x;
        else if (S->fs[h].newx < 0)
            w += l->e[j].c;
        else
            used += l->e[j].c * S->fs[h].newx;
    }
    S->rs[r].rem = S->cap[r] - used;
    S->rs[r].w = w;
    S->rs[r].key = S->rs[r].rem / w;
}

/* Progressive filling of C.  1: every flow of C frozen and the result
 * certified; 0: a flow of C froze at a resource where a flow outside C is
 * faster; those flows joined C (not yet closed). */
static int fill_run(sim_t *S)
{
    double level = 0;
    fill_setup(S);
    while (S->nfh > 0) {
        int32_t r = S->fh[0];
        double key = S->rs[r].key;
        fill_refresh(S, r);
        if (S->rs[r].key != key) {
            fh_fix(S, 0);
            if (S->fh[0] != r)
                continue;
        }
        double t = S->rs[r].key > level ? S->rs[r].key : level;
        level = t;
        if (S->rs[r].maxout > t) {
            const rlist_t *l = &S->rl[r];
            for (int32_t j = 0; j < l->n; j++)
                if (S->fs[l->e[j].f].fmark != S->epoch && S->fs[l->e[j].f].x > t)
                    comp_add_flow(S, l->e[j].f);
            for (int64_t i = 0; i < S->nfh; i++)
                S->rs[S->fh[i]].hpos = -1;
            S->nfh = 0;
            return 0;
        }
        const rlist_t *l = &S->rl[r];
        for (int32_t j = 0; j < l->n && S->rs[r].nunf > 0; j++) {
            int32_t h = l->e[j].f;
            if (S->fs[h].fmark == S->epoch && S->fs[h].newx < 0)
                fill_freeze(S, h, t, r);
        }
    }
    return 1;
}

/* Flow h's new rate from the filling: bring its bytes up to now, set the
 * rate, move its finish time. */
static void commit_flow(sim_t *S, int32_t h)
{
    double nx = S->fs[h].newx;
    S->fs[h].bneck = S->fs[h].nb;
    if (nx == S->fs[h].x)
        return;
    S->rem[h] -= S->fs[h].x * (S->now - S->last[h]);
    if (S->rem[h] < 0)
        S->rem[h] = 0;
    S->last[h] = S->now;
    S->fs[h].x = nx;
    S->finish[h] = S->now + S->rem[h] / nx;
    if (S->hpos[h] < 0)
        ch_push(S, h);
    else
        ch_fix(S, S->hpos[h]);
}

/* Close C, fill it until certified, commit its rates. */
static tk_status_t resolve(sim_t *S, tk_error_t *err)
{
    int64_t done = 0;
    for (;;) {
        comp_close(S, done);
        done = S->ncf;
        if (S->ncf == 0)
            break;
        S->res->solves++;
        if (fill_run(S))
            break;
        S->res->expansions++;
        if (S->ncf == done)
            return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                                "dynamic mode: a re-solve at time %.17g failed to certify", S->now);
    }
    for (int64_t i = 0; i < S->ncf; i++) {
        int32_t h = S->cf[i];
        if (!(S->fs[h].newx > 0))
            return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                                "dynamic mode: flow %" PRId32 " got rate %g at time %.17g", h,
                                S->fs[h].newx, S->now);
        commit_flow(S, h);
    }
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Events. */

static tk_status_t arrive(sim_t *S, int32_t f, tk_error_t *err)
{
    S->fs[f].x = 0;
    S->rem[f] = S->w->f[f].size;
    S->last[f] = S->now;
    S->fs[f].bneck = -1;
    for (int64_t e = S->eoff[f]; e < S->eoff[f + 1]; e++)
        if (rl_add(&S->rl[S->eres[e]], f, S->ecoef[e]))
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (resource lists)");
    S->apos[f] = (int32_t)S->nact;
    S->act[S->nact++] = f;
    S->epoch++;
    S->ncf = S->ncr = 0;
    comp_add_flow(S, f);
    return TK_OK;
}

static void depart(sim_t *S, int32_t f)
{
    ch_remove(S, f);
    for (int64_t e = S->eoff[f]; e < S->eoff[f + 1]; e++)
        rl_del(&S->rl[S->eres[e]], f);
    int32_t last = S->act[--S->nact];
    S->act[S->apos[f]] = last;
    S->apos[last] = S->apos[f];
    S->apos[f] = -1;
    S->fs[f].x = 0;
    S->fs[f].bneck = -1;
    S->epoch++;
    S->ncf = S->ncr = 0;
    for (int64_t e = S->eoff[f]; e < S->eoff[f + 1]; e++)
        comp_open(S, S->eres[e]);
}

/* check_bytes: every active flow's rate over [now, t]. */
static void integrate(sim_t *S, double t)
{
    double dt = t - S->now;
    for (int64_t i = 0; i < S->nact; i++)
        S->bytes[S->act[i]] += S->fs[S->act[i]].x * dt;
}

/* verify: the whole active system solved from scratch by tk_mm_solve
 * (fair, demand 1, rho 1) against the incremental rates. */
static tk_status_t verify(sim_t *S, tk_error_t *err)
{
    int64_t nv = S->nact, ne = 0;
    for (int64_t i = 0; i < nv; i++)
        ne += S->eoff[S->act[i] + 1] - S->eoff[S->act[i]];
    tk_mm_t mm;
    memset(&mm, 0, sizeof mm);
    mm.nres = S->nres;
    mm.cap = S->cap;
    mm.nvar = nv;
    mm.demand = tk_malloc_array((size_t)nv + 1, sizeof *mm.demand);
    mm.voff = tk_malloc_array((size_t)nv + 1, sizeof *mm.voff);
    mm.eres = tk_malloc_array((size_t)ne + 1, sizeof *mm.eres);
    mm.ecoef = tk_malloc_array((size_t)ne + 1, sizeof *mm.ecoef);
    double *xs = tk_malloc_array((size_t)nv + 1, sizeof *xs);
    tk_status_t st = TK_OK;
    if (!mm.demand || !mm.voff || !mm.eres || !mm.ecoef || !xs) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (verify)");
        goto done;
    }
    mm.voff[0] = 0;
    for (int64_t i = 0, k = 0; i < nv; i++) {
        int32_t f = S->act[i];
        mm.demand[i] = 1;
        for (int64_t e = S->eoff[f]; e < S->eoff[f + 1]; e++, k++) {
            mm.eres[k] = S->eres[e];
            mm.ecoef[k] = S->ecoef[e];
        }
        mm.voff[i + 1] = k;
    }
    tk_mm_info_t info;
    if (nv > 0 && (st = tk_mm_solve(&mm, TK_ARB_FAIR, 1.0, 0, 0, xs, NULL, &info, err)) != TK_OK)
        goto done;
    for (int64_t i = 0; i < nv; i++) {
        double a = S->fs[S->act[i]].x, b = xs[i];
        double d = fabs(a - b) / fmax(fabs(a), fabs(b));
        S->res->verified++;
        if (d > S->res->max_rel_diff)
            S->res->max_rel_diff = d;
        if (!(d <= 1e-12))
            S->res->mismatches++;
    }
done:
    free(mm.demand);
    free(mm.voff);
    free(mm.eres);
    free(mm.ecoef);
    free(xs);
    return st;
}

static void event_stats(sim_t *S)
{
    tk_sim_dyn_result_t *R = S->res;
    R->events++;
    S->sum_cf += (double)S->ncf;
    S->sum_cr += (double)S->ncr;
    S->sum_act += (double)S->nact;
    if (S->ncf > R->comp_max)
        R->comp_max = S->ncf;
    if (S->nact > R->max_active)
        R->max_active = S->nact;
}

static tk_status_t run(sim_t *S, tk_error_t *err)
{
    const tk_sim_workload_t *w = S->w;
    int32_t next = 0, done = 0;
    tk_status_t st = TK_OK;

    S->now = 0;
    while (next < S->nf || S->nch > 0) {
        int comp = S->nch > 0 && (next >= S->nf || S->finish[S->ch[0]] <= w->f[next].time);
        double t = comp ? S->finish[S->ch[0]] : w->f[next].time;
        if (t < S->now)
            t = S->now;
        if (S->bytes)
            integrate(S, t);
        S->now = t;
        if (comp) {
            int32_t f = S->ch[0];
            S->finish[f] = t;
            depart(S, f);
            done++;
        } else if ((st = arrive(S, next++, err)) != TK_OK)
            return st;
        if ((st = resolve(S, err)) != TK_OK)
            return st;
        event_stats(S);
        if (S->o->verify && (st = verify(S, err)) != TK_OK)
            return st;
        if (S->o->progress && (S->res->events & 0xffff) == 0)
            S->o->progress(S->o->progress_arg, S->now, done, S->nf);
    }
    if (S->o->progress)
        S->o->progress(S->o->progress_arg, S->now, done, S->nf);
    S->res->end = S->now;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Set-up and the entry point. */

static void sim_free(sim_t *S)
{
    for (int32_t r = 0; S->rl && r < S->nres; r++)
        free(S->rl[r].e);
    void *p[] = {S->cap,  S->rl,   S->eoff, S->eres, S->ecoef, S->fs, S->rem, S->last,
                 S->hpos, S->apos, S->rs,   S->cf,   S->cr,    S->fh, S->ch,  S->act};
    for (size_t i = 0; i < sizeof p / sizeof p[0]; i++)
        free(p[i]);
}

#define ALLOC(p, n) ((p) = tk_malloc_array((size_t)(n) + 1, sizeof *(p))) == NULL

/* The state arrays: nf flows, nres resources, ne flow entries. */
static tk_status_t sim_alloc(sim_t *S, int64_t ne, tk_error_t *err)
{
    int64_t nf = S->nf, nr = S->nres;
    if (ALLOC(S->cap, nr) || ALLOC(S->eres, ne) || ALLOC(S->ecoef, ne) || ALLOC(S->fs, nf) ||
        ALLOC(S->rem, nf) || ALLOC(S->last, nf) || ALLOC(S->hpos, nf) || ALLOC(S->apos, nf) ||
        ALLOC(S->rs, nr) || ALLOC(S->cf, nf) || ALLOC(S->cr, nr) || ALLOC(S->fh, nr) ||
        ALLOC(S->ch, nf) || ALLOC(S->act, nf) ||
        (S->rl = tk_calloc_array((size_t)nr, sizeof *S->rl)) == NULL)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dynamic mode)");
    for (int64_t f = 0; f < nf; f++) {
        S->hpos[f] = S->apos[f] = -1;
        S->fs[f].x = S->fs[f].newx = 0;
        S->fs[f].fmark = 0;
        S->fs[f].bneck = S->fs[f].nb = -1;
    }
    for (int64_t r = 0; r < nr; r++) {
        S->rs[r].mark = 0;
        S->rs[r].hpos = -1;
    }
    return TK_OK;
}

/* The flows' entries: injection link, route arcs, ejection link. */
static void sim_entries(sim_t *S, const tk_graph_t *g, const routes_t *rt, const int32_t *fpair)
{
    int64_t m = g->m, ns = S->w->nservers;
    for (int64_t a = 0; a < m; a++)
        S->cap[a] = tk_graph_cap(g, a);
    for (int64_t i = m; i < S->nres; i++)
        S->cap[i] = 1;
    for (int32_t f = 0; f < S->nf; f++) {
        int64_t k = S->eoff[f], p = fpair[f];
        S->eres[k] = (int32_t)(m + S->w->f[f].src);
        S->ecoef[k++] = 1;
        for (int64_t j = rt->roff[p]; j < rt->roff[p + 1]; j++, k++) {
            S->eres[k] = rt->arc[j];
            S->ecoef[k] = rt->w[j];
        }
        S->eres[k] = (int32_t)(m + ns + S->w->f[f].dst);
        S->ecoef[k] = 1;
    }
}

static tk_status_t sim_check(const tk_graph_t *g, const tk_sim_workload_t *w, tk_error_t *err)
{
    int64_t ns = tk_graph_total_servers(g);
    if (w->nservers != ns)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "the workload is for %" PRId64 " servers, the topology has %" PRId64,
                            w->nservers, ns);
    if (w->n >= INT32_MAX || g->m + 2 * ns >= INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "dynamic mode: at most 2^31 - 1 flows and resources (%" PRId64
                            " flows, %" PRId64 " resources)",
                            w->n, g->m + 2 * ns);
    return TK_OK;
}

/* Bytes of the state for nf flows with ne entries on nr resources (the
 * routes and the resource lists aside, which are smaller). */
static uint64_t sim_bytes(int64_t nf, int64_t ne, int64_t nr)
{
    return (uint64_t)nf * 128 + (uint64_t)ne * 12 + (uint64_t)nr * 80;
}

static tk_status_t sim_setup(sim_t *S, const tk_router_t *r, const int32_t *sw_of, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    routes_t rt;
    int32_t *fpair = tk_malloc_array((size_t)S->nf + 1, sizeof *fpair);
    if (!fpair)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dynamic mode)");
    tk_status_t st = routes_build(r, S->w, sw_of, S->o, &rt, fpair, err);
    S->res->pairs = rt.np;
    if (st == TK_OK && (S->eoff = tk_malloc_array((size_t)S->nf + 1, sizeof *S->eoff)) == NULL)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dynamic mode)");
    if (st == TK_OK) {
        S->eoff[0] = 0;
        for (int32_t f = 0; f < S->nf; f++)
            S->eoff[f + 1] = S->eoff[f] + 2 + (rt.roff[fpair[f] + 1] - rt.roff[fpair[f]]);
        uint64_t lim = S->o->mem_limit ? S->o->mem_limit : tk_memory_limit_default();
        uint64_t need = sim_bytes(S->nf, S->eoff[S->nf], S->nres);
        if (lim && need > lim)
            st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                              "dynamic mode: %" PRId32 " flows need about %" PRIu64
                              " bytes (limit %" PRIu64 ")",
                              S->nf, need, lim);
    }
    if (st == TK_OK && (st = sim_alloc(S, S->eoff[S->nf], err)) == TK_OK)
        sim_entries(S, g, &rt, fpair);
    routes_free(&rt);
    free(fpair);
    return st;
}

static tk_status_t result_alloc(tk_sim_dyn_result_t *R, const tk_sim_workload_t *w, int bytes,
                                tk_error_t *err)
{
    int64_t n = w->n;
    memset(R, 0, sizeof *R);
    R->nflows = n;
    if (ALLOC(R->start, n) || ALLOC(R->finish, n) || ALLOC(R->size, n) ||
        (bytes && (R->bytes = tk_calloc_array((size_t)n + 1, sizeof *R->bytes)) == NULL)) {
        tk_sim_dyn_result_free(R);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dynamic mode)");
    }
    for (int64_t i = 0; i < n; i++) {
        R->start[i] = w->f[i].time;
        R->size[i] = w->f[i].size;
    }
    return TK_OK;
}

/* The switch of every server (switch-major numbering). */
static int32_t *server_switches(const tk_graph_t *g, int64_t ns)
{
    int32_t *sw = tk_malloc_array((size_t)ns + 1, sizeof *sw);
    if (!sw)
        return NULL;
    for (int64_t u = 0, k = 0; u < g->n; u++)
        for (int32_t j = 0; j < tk_graph_servers(g, (tk_id_t)u); j++)
            sw[k++] = (int32_t)u;
    return sw;
}

tk_status_t tk_sim_dynamic(const tk_router_t *r, const tk_sim_workload_t *w,
                           const tk_sim_dyn_opts_t *o, tk_sim_dyn_result_t *out, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_sim_dyn_opts_t defaults;
    sim_t S;
    tk_sim_dyn_result_t R;
    tk_status_t st;

    if (!o) {
        tk_sim_dyn_opts_init(&defaults);
        o = &defaults;
    }
    if ((st = sim_check(g, w, err)) != TK_OK)
        return st;
    if ((st = result_alloc(&R, w, o->check_bytes, err)) != TK_OK)
        return st;
    memset(&S, 0, sizeof S);
    S.w = w;
    S.o = o;
    S.res = &R;
    S.nf = (int32_t)w->n;
    S.nres = (int32_t)(g->m + 2 * w->nservers);
    int32_t *sw_of = server_switches(g, w->nservers);
    st = sw_of ? sim_setup(&S, r, sw_of, err)
               : tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dynamic mode)");
    free(sw_of);
    if (st == TK_OK) {
        S.finish = R.finish;
        S.bytes = R.bytes;
        st = run(&S, err);
    }
    sim_free(&S);
    if (st != TK_OK) {
        tk_sim_dyn_result_free(&R);
        return st;
    }
    if (R.events > 0) {
        R.comp_flows = S.sum_cf / (double)R.events;
        R.comp_res = S.sum_cr / (double)R.events;
        R.mean_active = S.sum_act / (double)R.events;
    }
    for (int64_t i = 0; R.bytes && i < R.nflows; i++) {
        double e = fabs(R.bytes[i] - R.size[i]) / R.size[i];
        if (e > R.max_bytes_err)
            R.max_bytes_err = e;
    }
    *out = R;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Size buckets. */

static int cmp_dbl(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest rank: the ceil(p n / 100)-th smallest of the n sorted values. */
static double pct(const double *v, int64_t n, double p)
{
    int64_t k = (int64_t)ceil(p * (double)n / 100.0);
    if (k < 1)
        k = 1;
    return v[k - 1];
}

/* The bucket of a size: decades (edges == NULL) as the exponent, else the
 * number of edges <= size. */
static int64_t bucket_of(double s, const double *edges, int64_t nedges)
{
    if (!edges) {
        int64_t k = (int64_t)floor(log10(s));
        while (pow(10, (double)(k + 1)) <= s)
            k++;
        while (pow(10, (double)k) > s)
            k--;
        return k;
    }
    int64_t lo = 0, hi = nedges;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (edges[mid] <= s)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

typedef struct bflow {
    int64_t b, i;
    double fct, sd;
} bflow_t;

/* By bucket, then flow number (so the sums of a bucket are in flow order). */
static int cmp_bflow(const void *a, const void *b)
{
    const bflow_t *x = a, *y = b;
    if (x->b != y->b)
        return (x->b > y->b) - (x->b < y->b);
    return (x->i > y->i) - (x->i < y->i);
}

/* One bucket from its flows v[0 .. n-1] (scratch t of n doubles). */
static void bucket_fill(tk_sim_bucket_t *B, const bflow_t *v, int64_t n, double *t)
{
    double s = 0;
    B->count = n;
    for (int pass = 0; pass < 2; pass++) {
        s = 0;
        for (int64_t i = 0; i < n; i++) {
            t[i] = pass ? v[i].sd : v[i].fct;
            s += t[i];
        }
        qsort(t, (size_t)n, sizeof *t, cmp_dbl);
        double mean = s / (double)n, p50 = pct(t, n, 50), p99 = pct(t, n, 99), mx = t[n - 1];
        if (pass) {
            B->sd_mean = mean, B->sd_p50 = p50, B->sd_p99 = p99, B->sd_max = mx;
        } else {
            B->fct_mean = mean, B->fct_p50 = p50, B->fct_p99 = p99, B->fct_max = mx;
        }
    }
}

tk_status_t tk_sim_dyn_buckets(const tk_sim_dyn_result_t *r, const double *edges, int64_t nedges,
                               tk_sim_bucket_t **out, int64_t *nout, tk_error_t *err)
{
    for (int64_t i = 0; edges && i < nedges; i++)
        if (!isfinite(edges[i]) || edges[i] <= 0 || (i > 0 && edges[i] <= edges[i - 1]))
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "bucket edge %g: edges must be finite, > 0 and increasing",
                                edges[i]);
    int64_t n = r->nflows, nb = 0;
    bflow_t *v = tk_malloc_array((size_t)n + 1, sizeof *v);
    double *t = tk_malloc_array((size_t)n + 1, sizeof *t);
    tk_sim_bucket_t *B = tk_calloc_array((size_t)n + 1, sizeof *B);
    if (!v || !t || !B) {
        free(v);
        free(t);
        free(B);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (buckets)");
    }
    for (int64_t i = 0; i < n; i++) {
        v[i].b = bucket_of(r->size[i], edges, nedges);
        v[i].i = i;
        v[i].fct = r->finish[i] - r->start[i];
        v[i].sd = v[i].fct / r->size[i];
    }
    qsort(v, (size_t)n, sizeof *v, cmp_bflow);
    for (int64_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && v[j].b == v[i].b; j++)
            ;
        int64_t b = v[i].b;
        if (!edges) {
            B[nb].lo = pow(10, (double)b);
            B[nb].hi = pow(10, (double)(b + 1));
        } else {
            B[nb].lo = b == 0 ? 0 : edges[b - 1];
            B[nb].hi = b == nedges ? INFINITY : edges[b];
        }
        bucket_fill(&B[nb++], v + i, j - i, t);
    }
    free(v);
    free(t);
    *out = B;
    *nout = nb;
    return TK_OK;
}
