/*
 * msbfs.c - all-pairs distance summary by multi-source bit-parallel BFS.
 *
 * A batch searches from up to 64*W sources at once (W words of 64 bits per
 * switch, W in {1, 2, 4, 8}).  Bit i of a switch's word set says "source
 * s0+i has reached this switch".  Three word arrays per batch:
 *   seen   sources that have reached the switch,
 *   front  sources that reached it at the current level,
 *   next   sources reaching it at the next level.
 * One level pushes the frontier words of every switch with a non-zero
 * frontier into `next` of each out-neighbour, then masks `next` by ~seen.
 * The popcount of the new bits at level L is the number of (source, switch)
 * pairs at distance L, which gives the histogram and the distance sum; the
 * OR of the new bits of a level tells which sources are still growing, so
 * the last level at which a source found a new switch is its eccentricity
 * (provided it reached every switch, checked by AND-ing `seen` at the end).
 *
 * Self-loops and parallel arcs OR the same word twice: no effect.
 *
 * Batches run in parallel (OpenMP), each thread with its own workspace.
 * Every result is an integer sum, minimum or maximum, or written to a slot
 * owned by one source, so nothing depends on the thread count or on the
 * batch width W.
 *
 * Memory: 3 * n * W * 8 bytes plus about 17n bytes (two id lists, marks,
 * histogram) per thread, plus 4n bytes of eccentricities.  Never n^2.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tk_metric.h"

#define MS_MAXW 8

typedef struct ms_ws {
    uint64_t *seen, *front, *next; /* n * W words each                      */
    tk_id_t *act, *touch;          /* n ids each: active / touched switches  */
    uint8_t *mark;                 /* n flags: touched at this level         */
    uint64_t *hist;                /* hist[L]: pairs found at level L        */
    int32_t hist_max;              /* largest level with hist[L] > 0         */
    uint64_t pairs;                /* pairs (s,t), s != t, t reachable       */
    unsigned __int128 dist_sum;
} ms_ws_t;

static void ms_ws_free(ms_ws_t *ws)
{
    free(ws->seen);
    free(ws->front);
    free(ws->next);
    free(ws->act);
    free(ws->touch);
    free(ws->mark);
    free(ws->hist);
    memset(ws, 0, sizeof *ws);
}

static int ms_ws_alloc(ms_ws_t *ws, int64_t n, int W)
{
    memset(ws, 0, sizeof *ws);
    size_t words = (size_t)n * (size_t)W;
    ws->seen = tk_malloc_array(words, sizeof(uint64_t));
    ws->front = tk_malloc_array(words, sizeof(uint64_t));
    ws->next = tk_calloc_array(words, sizeof(uint64_t));
    ws->act = tk_malloc_array((size_t)n, sizeof(tk_id_t));
    ws->touch = tk_malloc_array((size_t)n, sizeof(tk_id_t));
    ws->mark = tk_calloc_array((size_t)n, 1);
    ws->hist = tk_calloc_array((size_t)n, sizeof(uint64_t));
    if (!ws->seen || !ws->front || !ws->next || !ws->act || !ws->touch || !ws->mark || !ws->hist) {
        ms_ws_free(ws);
        return -1;
    }
    return 0;
}

/* One batch: sources s0 .. s0+k-1 (k <= 64*W).  Writes ecc[s0..s0+k-1] and
 * adds to the workspace sums.  Returns 1 when max_diameter (maxd > 0) was
 * exceeded or *cancel was raised by another batch, else 0.  W is a constant
 * in each specialised copy (see ms_batch).
 *
 * Only switches with a non-zero frontier word are visited (list `act`), and
 * only switches whose `next` word was written are masked (list `touch`), so
 * a level costs O(W * (arcs out of the frontier + touched switches)) and a
 * high-diameter graph does not pay O(n) per level. */
static inline __attribute__((always_inline)) int ms_batch_w(const tk_graph_t *g, ms_ws_t *ws,
                                                            const int W, const tk_id_t *src, int k,
                                                            uint64_t wt, int32_t *ecc, int32_t maxd,
                                                            int *cancel)
{
    const int64_t n = g->n;
    const int64_t *off = g->off;
    const tk_id_t *head = g->head;
    uint64_t *seen = ws->seen, *front = ws->front, *next = ws->next;
    tk_id_t *act = ws->act, *touch = ws->touch;
    uint8_t *mark = ws->mark;
    int32_t last[64 * MS_MAXW];
    int64_t nact = 0;
    int stop = 0;

    memset(seen, 0, (size_t)n * W * sizeof *seen);
    memset(front, 0, (size_t)n * W * sizeof *front);
    for (int i = 0; i < k; i++) {
        int64_t v = src[i];
        uint64_t bit = (uint64_t)1 << (i & 63);
        seen[v * W + (i >> 6)] |= bit;
        front[v * W + (i >> 6)] |= bit;
        act[nact++] = (tk_id_t)v;
        last[i] = 0;
    }

    int32_t level = 0;
    for (;;) {
        level++;
        /* Push: next[u] |= front[v] for every arc v->u out of the frontier.
         * `next` is all zero here.  A sparse level also lists the switches
         * it touches; a dense one (frontier above n/16 switches) masks
         * every switch instead, which is cheaper than the bookkeeping. */
        const int dense = nact > n / 16;
        int64_t ntouch = 0;
        for (int64_t i = 0; i < nact; i++) {
            tk_id_t v = act[i];
            const uint64_t *fv = front + (int64_t)v * W;
            if (dense) {
                for (int64_t a = off[v]; a < off[v + 1]; a++) {
                    uint64_t *nu = next + (int64_t)head[a] * W;
                    for (int w = 0; w < W; w++)
                        nu[w] |= fv[w];
                }
            } else {
                for (int64_t a = off[v]; a < off[v + 1]; a++) {
                    tk_id_t u = head[a];
                    uint64_t *nu = next + (int64_t)u * W;
                    if (!mark[u]) {
                        mark[u] = 1;
                        touch[ntouch++] = u;
                    }
                    for (int w = 0; w < W; w++)
                        nu[w] |= fv[w];
                }
            }
        }
        /* Clear the old frontier: it becomes the next all-zero `next`. */
        for (int64_t i = 0; i < nact; i++)
            memset(front + (int64_t)act[i] * W, 0, (size_t)W * sizeof *front);
        /* Mask the written words by ~seen and count; the switches with new
         * bits form the next frontier (listed in `touch`, reused). */
        uint64_t cnt = 0;
        uint64_t grew[MS_MAXW] = {0};
        int64_t nnew = 0;
        const int64_t nscan = dense ? n : ntouch;
        for (int64_t i = 0; i < nscan; i++) {
            tk_id_t u = dense ? (tk_id_t)i : touch[i];
            uint64_t *nu = next + (int64_t)u * W, *su = seen + (int64_t)u * W;
            uint64_t any = 0;
            mark[u] = 0;
            for (int w = 0; w < W; w++) {
                uint64_t x = nu[w] & ~su[w];
                su[w] |= x;
                nu[w] = x;
                any |= x;
                cnt += (uint64_t)__builtin_popcountll(x);
                grew[w] |= x;
            }
            if (any)
                touch[nnew++] = u;
        }
        uint64_t *t = front;
        front = next;
        next = t;
        tk_id_t *ta = act;
        act = touch;
        touch = ta;
        nact = nnew;
        if (cnt == 0)
            break;
        cnt *= wt;
        ws->hist[level] += cnt;
        if (level > ws->hist_max)
            ws->hist_max = level;
        ws->pairs += cnt;
        ws->dist_sum += (unsigned __int128)cnt * (uint64_t)level;
        for (int w = 0; w < W; w++)
            for (uint64_t x = grew[w]; x; x &= x - 1)
                last[w * 64 + __builtin_ctzll(x)] = level;
        if ((maxd > 0 && level > maxd) || __atomic_load_n(cancel, __ATOMIC_RELAXED)) {
            stop = 1;
            break;
        }
    }
    /* The arrays were swapped once per level: hand them back so that the
     * workspace's `next` is the all-zero one the following batch expects
     * (after an early stop the workspace is not used again). */
    ws->front = front;
    ws->next = next;
    ws->act = act;
    ws->touch = touch;
    if (stop)
        return 1;

    /* A source reached every switch iff its bit is set in every seen word. */
    uint64_t all[MS_MAXW];
    for (int w = 0; w < W; w++)
        all[w] = ~(uint64_t)0;
    for (int64_t i = 0; i < n * W; i += W)
        for (int w = 0; w < W; w++)
            all[w] &= seen[i + w];
    int inf = 0;
    for (int i = 0; i < k; i++) {
        if (all[i >> 6] >> (i & 63) & 1) {
            ecc[src[i]] = last[i];
        } else {
            ecc[src[i]] = TK_INF;
            inf = 1;
        }
    }
    return maxd > 0 && inf;
}

static int ms_batch(const tk_graph_t *g, ms_ws_t *ws, int W, const tk_id_t *src, int k, uint64_t wt,
                    int32_t *ecc, int32_t maxd, int *cancel)
{
    switch (W) {
    case 1:
        return ms_batch_w(g, ws, 1, src, k, wt, ecc, maxd, cancel);
    case 2:
        return ms_batch_w(g, ws, 2, src, k, wt, ecc, maxd, cancel);
    case 4:
        return ms_batch_w(g, ws, 4, src, k, wt, ecc, maxd, cancel);
    default:
        return ms_batch_w(g, ws, 8, src, k, wt, ecc, maxd, cancel);
    }
}

/* Sources grouped by weight (orbit size), ascending, then by id. */
typedef struct ms_src {
    int64_t wt;
    tk_id_t id;
} ms_src_t;

static int ms_src_cmp(const void *x, const void *y)
{
    const ms_src_t *a = x, *b = y;
    if (a->wt != b->wt)
        return a->wt < b->wt ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

void tk_dist_summary_destroy(tk_dist_summary_t *s)
{
    if (!s)
        return;
    free(s->ecc);
    free(s->hist);
    s->ecc = NULL;
    s->hist = NULL;
    s->hist_len = 0;
}

/* tk_dist_summary: see tk_metric.h.
 *   opts  may be NULL (defaults: runtime thread count, no ecc, no hist, no
 *         early stop)
 *   out   filled on success; free its arrays with tk_dist_summary_destroy.
 * Directed graphs: out-distances, so ecc[] are out-eccentricities and
 * connected means strongly connected.  radius can be finite on a directed
 * graph that is not strongly connected (a switch reaching all others).
 * When max_diameter stops the run early (out->stopped = 1) only
 * "diameter > max_diameter" is known: diameter is set to max_diameter + 1
 * (a lower bound), connected to 0, radius to TK_INF, the pair counts and sum
 * to 0, avg_distance to NaN, and ecc/hist are not returned (NULL).
 * Errors: TK_EINVAL (NULL argument, empty graph), TK_ENOMEM.
 * Time: per batch of 64W sources O(n W) set-up plus O(W) word operations
 * per arc out of, and per switch reached by, each level's frontier; at
 * most O(n m W / 64 * min(64 W, diameter)) overall, typically about
 * O(n m diameter / 64) for low-diameter networks.  Memory O(n W) per
 * thread. */
tk_status_t tk_dist_summary(const tk_graph_t *g, const tk_dist_opts_t *opts, tk_dist_summary_t *out,
                            tk_error_t *err)
{
    static const tk_dist_opts_t defaults = {0, 0, 0, 0, NULL};
    if (!g || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_dist_summary: NULL argument");
    if (!opts)
        opts = &defaults;
    memset(out, 0, sizeof *out);
    if (g->n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "empty graph");
    if (opts->max_diameter < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "max_diameter=%ld: must be >= 0",
                            (long)opts->max_diameter);

    const int64_t n = g->n;
    if (opts->orbit)
        for (int64_t v = 0; v < n; v++) {
            int32_t r = opts->orbit[v];
            if (r < 0 || r > v || opts->orbit[r] != r)
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "orbit[%ld]=%ld: not the smallest switch of an orbit", (long)v,
                                    (long)r);
        }
    int nt = 1;
#ifdef _OPENMP
    nt = opts->threads > 0 ? opts->threads : omp_get_max_threads();
#endif
    /* Batch width.  A level costs O(W) per frontier arc, and a switch is in
     * the frontier of a batch at up to min(64 W, diameter) levels, so wide
     * batches pay off on low-diameter graphs only: probe the depth with one
     * plain BFS and use W = 1 for deep graphs (results never depend on W).
     * Otherwise the widest batch that still gives every thread about two
     * batches. */
    int W = MS_MAXW;
    {
        int32_t *d = tk_malloc_array((size_t)n, sizeof *d);
        if (!d)
            return tk_error_set(err, TK_ENOMEM, NULL, 0,
                                "out of memory for the distance summary (n=%ld)", (long)n);
        int32_t depth = 0;
        if (tk_bfs(g, 0, d, NULL) == TK_OK)
            for (int64_t v = 0; v < n; v++)
                if (d[v] != TK_INF && d[v] > depth)
                    depth = d[v];
        free(d);
        if (depth >= 32)
            W = 1;
    }
    /* Sources: every switch, or one per orbit weighted by the orbit size
     * (grouped by weight so that a batch has one weight). */
    ms_src_t *srcw = tk_malloc_array((size_t)n, sizeof *srcw);
    tk_id_t *src = tk_malloc_array((size_t)n, sizeof *src);
    int64_t *bstart = tk_malloc_array((size_t)n + 1, sizeof *bstart);
    int32_t *ecc = tk_malloc_array((size_t)n, sizeof *ecc);
    uint64_t *hist = tk_calloc_array((size_t)n, sizeof *hist);
    if (!srcw || !src || !bstart || !ecc || !hist) {
        free(srcw);
        free(src);
        free(bstart);
        free(ecc);
        free(hist);
        return tk_error_set(err, TK_ENOMEM, NULL, 0,
                            "out of memory for the distance summary (n=%ld)", (long)n);
    }
    int64_t nsrc = 0;
    if (opts->orbit) {
        for (int64_t v = 0; v < n; v++)
            srcw[v].wt = 0;
        for (int64_t v = 0; v < n; v++)
            srcw[opts->orbit[v]].wt++;
        for (int64_t v = 0; v < n; v++)
            if (opts->orbit[v] == v) {
                srcw[nsrc].wt = srcw[v].wt;
                srcw[nsrc].id = (tk_id_t)v;
                nsrc++;
            }
        qsort(srcw, (size_t)nsrc, sizeof *srcw, ms_src_cmp);
    } else {
        for (int64_t v = 0; v < n; v++) {
            srcw[v].wt = 1;
            srcw[v].id = (tk_id_t)v;
        }
        nsrc = n;
    }
    for (int64_t i = 0; i < nsrc; i++)
        src[i] = srcw[i].id;
    while (W > 1 && (nsrc + 64 * W - 1) / (64 * W) < 2 * nt)
        W /= 2;
    const int64_t bsize = 64 * (int64_t)W;
    int64_t nbatch = 0;
    for (int64_t i = 0; i < nsrc; nbatch++) {
        bstart[nbatch] = i;
        int64_t j = i + 1;
        while (j < nsrc && j - i < bsize && srcw[j].wt == srcw[i].wt)
            j++;
        i = j;
    }
    bstart[nbatch] = nsrc;
    if (nt > nbatch)
        nt = (int)nbatch;

    int cancel = 0, nomem = 0;
    int32_t hist_max = 0;
    uint64_t pairs = 0;
    unsigned __int128 dist_sum = 0;

#pragma omp parallel num_threads(nt)
    {
        ms_ws_t ws;
        int have = ms_ws_alloc(&ws, n, W) == 0;
        if (!have) {
            __atomic_store_n(&nomem, 1, __ATOMIC_RELAXED);
            __atomic_store_n(&cancel, 1, __ATOMIC_RELAXED);
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t b = 0; b < nbatch; b++) {
            if (!have || __atomic_load_n(&cancel, __ATOMIC_RELAXED))
                continue;
            int64_t s0 = bstart[b];
            int k = (int)(bstart[b + 1] - s0);
            if (ms_batch(g, &ws, W, src + s0, k, (uint64_t)srcw[s0].wt, ecc, opts->max_diameter,
                         &cancel))
                __atomic_store_n(&cancel, 1, __ATOMIC_RELAXED);
        }
        if (have) {
#pragma omp critical
            {
                pairs += ws.pairs;
                dist_sum += ws.dist_sum;
                if (ws.hist_max > hist_max)
                    hist_max = ws.hist_max;
                for (int32_t L = 1; L <= ws.hist_max; L++)
                    hist[L] += ws.hist[L];
            }
            ms_ws_free(&ws);
        }
    }

    free(srcw);
    free(src);
    free(bstart);
    if (nomem) {
        free(ecc);
        free(hist);
        return tk_error_set(err, TK_ENOMEM, NULL, 0,
                            "out of memory for the BFS workspace (n=%ld, %d threads)", (long)n, nt);
    }

    out->n = n;
    if (cancel) {
        /* Stopped by max_diameter: only diameter > max_diameter is known. */
        free(ecc);
        free(hist);
        out->stopped = 1;
        out->connected = 0;
        out->diameter = opts->max_diameter + 1;
        out->radius = TK_INF;
        out->avg_distance = NAN;
        return TK_OK;
    }

    if (opts->orbit)
        for (int64_t v = 0; v < n; v++)
            ecc[v] = ecc[opts->orbit[v]];
    int32_t dmax = 0, rmin = TK_INF;
    for (int64_t v = 0; v < n; v++) {
        if (ecc[v] > dmax)
            dmax = ecc[v];
        if (ecc[v] < rmin)
            rmin = ecc[v];
    }
    uint64_t all = (uint64_t)n * (uint64_t)(n - 1);
    out->pairs = pairs;
    out->unreachable = all - pairs;
    out->dist_sum = dist_sum;
    out->connected = out->unreachable == 0;
    out->diameter = out->connected ? dmax : TK_INF;
    out->radius = rmin;
    if (!out->connected)
        out->avg_distance = INFINITY;
    else if (n == 1)
        out->avg_distance = 0.0;
    else
        out->avg_distance = (double)((long double)dist_sum / (long double)all);

    if (opts->want_ecc)
        out->ecc = ecc;
    else
        free(ecc);
    if (opts->want_hist) {
        hist[0] = (uint64_t)n;
        out->hist_len = hist_max + 1;
        uint64_t *h = tk_realloc_array(hist, (size_t)out->hist_len, sizeof *h);
        out->hist = h ? h : hist;
    } else {
        free(hist);
    }
    return TK_OK;
}
