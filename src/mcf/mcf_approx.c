/*
 * mcf_approx.c - certified (1 - eps) maximum concurrent flow: Garg-Koenemann
 * / Fleischer multiplicative length updates, with all demands of one source
 * routed together on shortest path trees (Karakostas).
 *
 * Lengths start at l(a) = 1 / cap(a).  The demands are scaled by U, the
 * initial dual bound, so one phase routes at least the optimum's worth of
 * every demand.  A phase routes, for every source s in turn, its whole
 * remaining demand on a shortest path tree from s, in steps scaled down by
 * sigma = max(1, max_a treeload(a) / cap(a)), and multiplies each tree arc's
 * length by 1 + step * flow(a) / cap(a).
 *
 * Bounds, both certified:
 *  lower: phase k routes U_k * d (U_k the best dual bound when it
 *         starts), so theta >= sum_k U_k / max_a (F(a) / cap(a));
 *  upper: weak duality, theta* <= D(l) / alpha(l) for any lengths l >= 0,
 *         D(l) = sum_a l(a) cap(a), alpha(l) = sum_st d(s,t) dist_l(s,t).
 *         Lengths only grow within a phase, so the distances of each
 *         source's first tree of the phase are at most those at the phase's
 *         end: D(l_end) / sum_s alpha_s(first tree) is a valid bound.
 * The run stops when (upper - lower) / upper <= eps.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#endif

#include "mcf_internal.h"

typedef struct heap {
    int32_t *h;   /* heap of nodes */
    int32_t *pos; /* position in heap or -1 */
    int32_t len;
} heap_t;

static void heap_up(heap_t *H, const double *key, int32_t i)
{
    int32_t v = H->h[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (key[H->h[p]] <= key[v])
            break;
        H->h[i] = H->h[p];
        H->pos[H->h[i]] = i;
        i = p;
    }
    H->h[i] = v;
    H->pos[v] = i;
}

static void heap_down(heap_t *H, const double *key, int32_t i)
{
    int32_t v = H->h[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= H->len)
            break;
        if (c + 1 < H->len && key[H->h[c + 1]] < key[H->h[c]])
            c++;
        if (key[H->h[c]] >= key[v])
            break;
        H->h[i] = H->h[c];
        H->pos[H->h[i]] = i;
        i = c;
    }
    H->h[i] = v;
    H->pos[v] = i;
}

typedef struct work {
    const tk_graph_t *g;
    double *len;    /* m arc lengths      */
    double *dist;   /* n                   */
    int64_t *pred;  /* n: tree arc into v  */
    int32_t *order; /* n: settle order     */
    double *acc;    /* n: demand below v   */
    double *rem;    /* n: remaining demand of the current source per dst */
    int32_t *tail;  /* m */
    heap_t H;
} work_t;

/* Dijkstra from s over all switches; fills dist, pred, order; returns the
 * number of settled switches.  O(m log n). */
static int32_t dijkstra(work_t *w, tk_id_t s)
{
    const tk_graph_t *g = w->g;
    heap_t *H = &w->H;
    int32_t nset = 0;

    for (tk_id_t v = 0; v < g->n; v++) {
        w->dist[v] = HUGE_VAL;
        H->pos[v] = -1;
        w->pred[v] = -1;
    }
    w->dist[s] = 0;
    H->len = 1;
    H->h[0] = s;
    H->pos[s] = 0;
    while (H->len > 0) {
        int32_t u = H->h[0];
        H->len--;
        H->pos[u] = -2; /* settled */
        if (H->len > 0) {
            H->h[0] = H->h[H->len];
            H->pos[H->h[0]] = 0;
            heap_down(H, w->dist, 0);
        }
        w->order[nset++] = u;
        double du = w->dist[u];
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            int32_t v = g->head[a];
            double nd = du + w->len[a];
            if (nd < w->dist[v]) {
                if (H->pos[v] == -2)
                    continue;
                w->dist[v] = nd;
                w->pred[v] = a;
                if (H->pos[v] < 0) {
                    H->h[H->len] = v;
                    H->pos[v] = H->len;
                    H->len++;
                }
                heap_up(H, w->dist, H->pos[v]);
            }
        }
    }
    return nset;
}

static void work_free(work_t *w)
{
    free(w->len);
    free(w->dist);
    free(w->pred);
    free(w->order);
    free(w->acc);
    free(w->rem);
    free(w->tail);
    free(w->H.h);
    free(w->H.pos);
}

/* The arrays every Dijkstra user needs (len, dist, pred, order, heap);
 * 0 when one is missing (work_free frees what was allocated). */
static int work_init(work_t *w, const tk_graph_t *g)
{
    int64_t n = g->n, m = g->m;
    memset(w, 0, sizeof *w);
    w->g = g;
    w->len = tk_malloc_array((size_t)m + 1, sizeof *w->len);
    w->dist = tk_malloc_array((size_t)n, sizeof *w->dist);
    w->pred = tk_malloc_array((size_t)n, sizeof *w->pred);
    w->order = tk_malloc_array((size_t)n, sizeof *w->order);
    w->H.h = tk_malloc_array((size_t)n, sizeof *w->H.h);
    w->H.pos = tk_malloc_array((size_t)n, sizeof *w->H.pos);
    return w->len && w->dist && w->pred && w->order && w->H.h && w->H.pos;
}

tk_status_t mcf_dual_bound(const tk_graph_t *g, const tk_swdemand_t *d, const double *len,
                           double *ub, tk_error_t *err)
{
    work_t w;
    double D = 0, alpha = 0;
    int64_t n = g->n, m = g->m;

    if (!work_init(&w, g)) {
        work_free(&w);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int64_t a = 0; a < m; a++) {
        w.len[a] = len[a] > 0 ? len[a] : 0;
        D += w.len[a] * tk_graph_cap(g, a);
    }
    for (tk_id_t s = 0; s < n; s++) {
        if (d->off[s + 1] == d->off[s])
            continue;
        dijkstra(&w, s);
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
            if (d->dst[e] != s)
                alpha += d->w[e] * w.dist[d->dst[e]];
    }
    *ub = alpha > 0 ? D / alpha : HUGE_VAL;
    work_free(&w);
    return TK_OK;
}

/* The lengths of the first trees: l(a) = 1 / cap(a). */
static void first_lengths(const tk_graph_t *g, double *len)
{
    for (int64_t a = 0; a < g->m; a++)
        len[a] = 1.0 / tk_graph_cap(g, a);
}

tk_status_t tk_mcf_approx_first(const tk_graph_t *g, const tk_swdemand_t *d, tk_id_t lo, tk_id_t hi,
                                int threads, double *dist, tk_error_t *err)
{
    if (!g || !d || d->n != g->n || lo < 0 || hi > g->n || lo > hi)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "approximation: bad source range %lld..%lld",
                            (long long)lo, (long long)hi);
    int nt = threads > 0 ? threads : omp_get_max_threads();
    int64_t busy = 0;
    for (tk_id_t s = lo; s < hi; s++)
        busy += d->off[s + 1] > d->off[s];
    if (nt > busy)
        nt = busy > 0 ? (int)busy : 1;
    int bad = 0;
    /* Sources are independent: each thread its own Dijkstra arrays, each
     * source its own slots of dist, so any thread count gives the same
     * bytes. */
#pragma omp parallel num_threads(nt) reduction(| : bad)
    {
        work_t w;
        int ok = work_init(&w, g);
        if (ok)
            first_lengths(g, w.len);
        else
            bad = 1;
#pragma omp for schedule(dynamic, 1)
        for (tk_id_t s = lo; s < hi; s++) {
            if (!ok || d->off[s + 1] == d->off[s])
                continue;
            dijkstra(&w, s);
            for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
                dist[e - d->off[lo]] = w.dist[d->dst[e]];
        }
        work_free(&w);
    }
    return bad ? tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory") : TK_OK;
}

void tk_mcf_approx_first_add(const tk_swdemand_t *d, tk_id_t lo, tk_id_t hi, const double *dist,
                             double *alpha)
{
    double x = *alpha;
    for (int64_t e = d->off[lo]; e < d->off[hi]; e++)
        x += d->w[e] * dist[e - d->off[lo]];
    *alpha = x;
}

/* Sources per block of the first trees (their distances are held a block
 * at a time). */
#define FIRST_BLOCK 256

/* The demand scale U: the dual bound at the initial lengths, whose alpha
 * is o->first_alpha when the caller computed it (another process), else
 * the first trees' here, a block of sources at a time. */
static tk_status_t initial_scale(work_t *w, const tk_swdemand_t *d, const double *cap,
                                 const tk_mcf_opts_t *o, double *U, tk_error_t *err)
{
    const tk_graph_t *g = w->g;
    double D = 0, alpha = 0;

    for (int64_t a = 0; a < g->m; a++)
        D += w->len[a] * cap[a];
    if (o->first_alpha > 0) {
        *U = D / o->first_alpha;
        return TK_OK;
    }
    for (tk_id_t lo = 0; lo < g->n; lo += FIRST_BLOCK) {
        tk_id_t hi = g->n - lo > FIRST_BLOCK ? lo + FIRST_BLOCK : g->n;
        double *dist = tk_malloc_array((size_t)(d->off[hi] - d->off[lo]) + 1, sizeof *dist);
        if (!dist)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        tk_status_t st = tk_mcf_approx_first(g, d, lo, hi, o->threads, dist, err);
        if (st == TK_OK)
            tk_mcf_approx_first_add(d, lo, hi, dist, &alpha);
        free(dist);
        if (st != TK_OK)
            return st;
    }
    *U = D / alpha;
    return TK_OK;
}

/* One step of source s: its remaining demands (w->rem) on the current
 * shortest path tree (nset nodes settled), scaled down by sigma =
 * max(1, peak tree load / capacity); the flow joins F and lengthens the
 * tree arcs.  Returns sigma. */
static double tree_step(work_t *w, int32_t nset, double step, double *F, const double *cap)
{
    double sigma = 1;

    for (int32_t i = 0; i < nset; i++)
        w->acc[w->order[i]] = w->rem[w->order[i]];
    for (int32_t i = nset - 1; i > 0; i--) {
        int32_t v = w->order[i];
        int64_t a = w->pred[v];
        if (w->acc[v] <= 0)
            continue;
        w->acc[w->tail[a]] += w->acc[v];
        if (w->acc[v] / cap[a] > sigma)
            sigma = w->acc[v] / cap[a];
    }
    for (int32_t i = nset - 1; i > 0; i--) {
        int32_t v = w->order[i];
        int64_t a = w->pred[v];
        if (w->acc[v] <= 0)
            continue;
        double f = w->acc[v] / sigma;
        F[a] += f;
        w->len[a] *= 1 + step * f / cap[a];
    }
    for (int32_t i = 0; i < nset; i++)
        w->acc[w->order[i]] = 0;
    return sigma;
}

/* Route U times the demands of source s, step after step on the current
 * shortest path tree, until nothing is left; *alpha gains the demands'
 * distances in the first tree. */
static void route_source(work_t *w, const tk_swdemand_t *d, tk_id_t s, double U, double step,
                         double *F, const double *cap, double *alpha)
{
    int first = 1;
    double left = 0;

    for (int64_t e = d->off[s]; e < d->off[s + 1]; e++) {
        w->rem[d->dst[e]] += U * d->w[e];
        left += U * d->w[e];
    }
    while (left > 0) {
        int32_t nset = dijkstra(w, s);
        if (first) {
            for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
                *alpha += d->w[e] * w->dist[d->dst[e]];
            first = 0;
        }
        double sigma = tree_step(w, nset, step, F, cap);
        if (sigma <= 1) {
            for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
                w->rem[d->dst[e]] = 0;
            left = 0;
        } else {
            left = 0;
            for (int64_t e = d->off[s]; e < d->off[s + 1]; e++) {
                w->rem[d->dst[e]] *= 1 - 1 / sigma;
                left += w->rem[d->dst[e]];
            }
            if (left < 1e-12 * U)
                left = 0;
            if (left == 0)
                for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
                    w->rem[d->dst[e]] = 0;
        }
    }
}

/* --links: the arcs at the peak congestion of the routed flow F, within
 * eps, priced by their lengths. */
static tk_status_t approx_links(const work_t *w, const double *F, const double *cap, double eps,
                                tk_mcf_result_t *out, tk_error_t *err)
{
    int64_t m = w->g->m, cnt = 0;
    double cong = 0, norm = 0;

    for (int64_t a = 0; a < m; a++)
        if (F[a] / cap[a] > cong)
            cong = F[a] / cap[a];
    for (int64_t a = 0; a < m; a++)
        if (F[a] / cap[a] >= (1 - eps) * cong) {
            cnt++;
            norm += w->len[a] * cap[a];
        }
    out->sat_arc = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_arc);
    out->sat_dual = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_dual);
    out->sat_load = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_load);
    if (!out->sat_arc || !out->sat_dual || !out->sat_load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t a = 0; a < m; a++)
        if (F[a] / cap[a] >= (1 - eps) * cong) {
            out->sat_arc[out->nsat] = a;
            out->sat_dual[out->nsat] = w->len[a] / norm;
            out->sat_load[out->nsat] = F[a] / cap[a] / cong;
            out->nsat++;
        }
    return TK_OK;
}

tk_status_t mcf_approx(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                       tk_mcf_result_t *out, tk_error_t *err)
{
    work_t w;
    double *F = NULL, *cap = NULL;
    int64_t n = g->n, m = g->m;
    double U = 0, lower = 0, upper = HUGE_VAL, step, t0 = mcf_now();
    int64_t phases = 0;
    double routed = 0; /* sum of the demand scales of the finished phases */
    tk_status_t st = TK_OK;

    int have = work_init(&w, g);
    w.acc = tk_calloc_array((size_t)n, sizeof *w.acc);
    w.rem = tk_calloc_array((size_t)n, sizeof *w.rem);
    w.tail = tk_malloc_array((size_t)m + 1, sizeof *w.tail);
    F = tk_calloc_array((size_t)m + 1, sizeof *F);
    cap = tk_malloc_array((size_t)m + 1, sizeof *cap);
    if (!have || !w.acc || !w.rem || !w.tail || !F || !cap) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t u = 0; u < n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            w.tail[a] = (int32_t)u;
    for (int64_t a = 0; a < m; a++)
        cap[a] = tk_graph_cap(g, a);
    first_lengths(g, w.len);
    if ((st = initial_scale(&w, d, cap, o, &U, err)) != TK_OK)
        goto done;
    upper = U;
    step = o->eps / 2;
    /* The number of phases is not known in advance: the sources routed are
     * counted without a total. */
    tk_progress_begin(o->progress, "approximation", "sources", 0);
    for (;;) {
        double alpha = 0, D = 0, cong = 0;
        for (tk_id_t s = 0; s < n; s++)
            if (d->off[s + 1] > d->off[s]) {
                route_source(&w, d, s, U, step, F, cap, &alpha);
                tk_progress_add(o->progress, 1);
            }
        phases++;
        routed += U;
        for (int64_t a = 0; a < m; a++) {
            D += w.len[a] * cap[a];
            if (F[a] / cap[a] > cong)
                cong = F[a] / cap[a];
        }
        if (alpha > 0 && D / alpha < upper)
            upper = D / alpha;
        if (cong > 0 && routed / cong > lower)
            lower = routed / cong;
        U = upper; /* the next phase routes the current bound's worth */
        /* rescale lengths (ratios are all that matter) */
        for (int64_t a = 0; a < m; a++)
            w.len[a] /= D;
        if (upper - lower <= o->eps * upper)
            break;
        if (o->time_limit > 0 && mcf_now() - t0 > o->time_limit) {
            if (!(lower > 0 && isfinite(upper))) {
                st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                                  "time limit of %g s reached (approx: no certified interval "
                                  "after %lld phases)",
                                  o->time_limit, (long long)phases);
                goto done;
            }
            /* stopped: [lower, upper] is still certified */
            out->stopped = 1;
            break;
        }
    }
    out->theta = lower;
    out->upper = upper;
    out->gap = upper > 0 ? (upper - lower) / upper : 0;
    out->method = TK_MCF_APPROX;
    out->iterations = phases;
    if (o->links)
        st = approx_links(&w, F, cap, o->eps, out, err);
done:
    tk_progress_end(o->progress);
    work_free(&w);
    free(F);
    free(cap);
    return st;
}
