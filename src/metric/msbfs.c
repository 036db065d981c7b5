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
 * Batches are the units of the parallel driver (tk_par.h), an exact job:
 * every result is an integer sum into the job's accumulator (an
 * eccentricity is the sum of its own batch's value and zeros), so nothing
 * depends on the thread count, on a split of the batches into slices, or on
 * the batch width W.  W depends on the graph only (never on the thread
 * count), so every process of a split computes the same batches.
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
#include "tk_par.h"

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

/* One batch: sources src[0 .. k-1] (k <= 64*W).  Writes ecc[0 .. k-1] and
 * adds to the workspace sums.  Returns 1 when max_diameter (maxd > 0) was
 * exceeded or *cancel was raised by another batch, else 0.  W is a constant
 * in each specialised copy (see ms_batch).
 *
 * Only switches with a non-zero frontier word are visited (list `act`), and
 * only switches whose `next` word was written are masked (list `touch`), so
 * a level costs O(W * (arcs out of the frontier + touched switches)) and a
 * high-diameter graph does not pay O(n) per level. */
#define MS_INLINE static inline __attribute__((always_inline))

/* Bits set in x.  Without -mpopcnt, __builtin_popcountll is a call into
 * libgcc (12% of a topo-dist run at n=20000); this inline form is a few
 * shifts, masks and one multiply, and the compiler turns it back into the
 * instruction when the target has it. */
MS_INLINE uint64_t ms_popcount(uint64_t x)
{
#ifdef __POPCNT__
    return (uint64_t)__builtin_popcountll(x);
#else
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (x * 0x0101010101010101ULL) >> 56;
#endif
}

/* One level's push: next[u] |= front[v] for every arc v->u out of the
 * frontier act[0 .. nact-1] (`next` is all zero here).  A sparse level
 * also lists the switches it touches (returned count, in touch); a dense
 * one (frontier above n/16 switches) returns -1: every switch is masked,
 * which is cheaper than the bookkeeping. */
MS_INLINE int64_t ms_push(const tk_graph_t *g, const int W, const uint64_t *front, uint64_t *next,
                          const tk_id_t *act, int64_t nact, tk_id_t *touch, uint8_t *mark)
{
    const int64_t *off = g->off;
    const tk_id_t *head = g->head;
    const int dense = nact > g->n / 16;
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
    return dense ? -1 : ntouch;
}

/* Mask the written `next` words by ~seen and count the new bits (*cnt);
 * the switches with new bits, listed in touch, form the next frontier
 * (returned count); grew[w] collects the sources that found a switch. */
MS_INLINE int64_t ms_mask(int64_t n, const int W, int64_t ntouch, uint64_t *next, uint64_t *seen,
                          tk_id_t *touch, uint8_t *mark, uint64_t *cnt, uint64_t *grew)
{
    int64_t nnew = 0;
    const int64_t nscan = ntouch < 0 ? n : ntouch;
    for (int64_t i = 0; i < nscan; i++) {
        tk_id_t u = ntouch < 0 ? (tk_id_t)i : touch[i];
        uint64_t *nu = next + (int64_t)u * W, *su = seen + (int64_t)u * W;
        uint64_t any = 0;
        mark[u] = 0;
        for (int w = 0; w < W; w++) {
            uint64_t x = nu[w] & ~su[w];
            su[w] |= x;
            nu[w] = x;
            any |= x;
            *cnt += ms_popcount(x);
            grew[w] |= x;
        }
        if (any)
            touch[nnew++] = u;
    }
    return nnew;
}

/* Eccentricities of the batch: a source reached every switch iff its bit
 * is set in every seen word; else TK_INF.  Returns 1 when some source
 * missed a switch. */
MS_INLINE int ms_ecc(int64_t n, const int W, const uint64_t *seen, int k, const int32_t *last,
                     int32_t *ecc)
{
    uint64_t all[MS_MAXW];
    int inf = 0;
    for (int w = 0; w < W; w++)
        all[w] = ~(uint64_t)0;
    for (int64_t i = 0; i < n * W; i += W)
        for (int w = 0; w < W; w++)
            all[w] &= seen[i + w];
    for (int i = 0; i < k; i++) {
        if (all[i >> 6] >> (i & 63) & 1) {
            ecc[i] = last[i];
        } else {
            ecc[i] = TK_INF;
            inf = 1;
        }
    }
    return inf;
}

/* One batch: sources src[0 .. k-1] (k <= 64*W).  Writes ecc[0 .. k-1] and
 * adds to the workspace sums.  Returns 1 when max_diameter (maxd > 0) was
 * exceeded or *cancel was raised by another batch, else 0.  W is a constant
 * in each specialised copy (see ms_batch).
 *
 * Only switches with a non-zero frontier word are visited (list `act`), and
 * only switches whose `next` word was written are masked (list `touch`), so
 * a level costs O(W * (arcs out of the frontier + touched switches)) and a
 * high-diameter graph does not pay O(n) per level. */
MS_INLINE int ms_batch_w(const tk_graph_t *g, ms_ws_t *ws, const int W, const tk_id_t *src, int k,
                         uint64_t wt, int32_t *ecc, int32_t maxd, int *cancel)
{
    const int64_t n = g->n;
    uint64_t *seen = ws->seen, *front = ws->front, *next = ws->next;
    tk_id_t *act = ws->act, *touch = ws->touch;
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
    for (int32_t level = 1;; level++) {
        int64_t ntouch = ms_push(g, W, front, next, act, nact, touch, ws->mark);
        /* Clear the old frontier: it becomes the next all-zero `next`. */
        for (int64_t i = 0; i < nact; i++)
            memset(front + (int64_t)act[i] * W, 0, (size_t)W * sizeof *front);
        uint64_t cnt = 0, grew[MS_MAXW] = {0};
        int64_t nnew = ms_mask(n, W, ntouch, next, seen, touch, ws->mark, &cnt, grew);
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
    return ms_ecc(n, W, seen, k, last, ecc) && maxd > 0;
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

/* The job's accumulator: pairs, the distance sum in two 32-bit halves
 * (a batch's sum may exceed 2^63), the histogram (n levels) and the
 * eccentricities (n slots). */
#define MS_PAIRS 0
#define MS_SUM_HI 1
#define MS_SUM_LO 2
#define MS_HIST 3
#define MS_ECC(n) (3 + (n))

/* Batches: the sources in order of weight, cut every 64 W sources and
 * wherever the weight changes (a batch has one weight). */
typedef struct ms_plan {
    const tk_graph_t *g;
    int W;
    int32_t maxd;
    tk_id_t *src;    /* nsrc sources, by weight then id             */
    int64_t *swt;    /* their weights                               */
    int64_t *bstart; /* nbatch+1: batch b is src[bstart[b] .. +1]    */
    int64_t nbatch;
    int cancel; /* set when a batch exceeds maxd: the others stop early */
} ms_plan_t;

static void ms_plan_free(ms_plan_t *p)
{
    free(p->src);
    free(p->swt);
    free(p->bstart);
}

/* Batch width: a level costs O(W) per frontier arc, and a switch is in the
 * frontier of a batch at up to min(64 W, diameter) levels, so wide batches
 * pay off on low-diameter graphs only: probe the depth with one plain BFS
 * and use W = 1 for deep graphs.  Otherwise the widest batch that still
 * gives at least 4 batches (2 each for 2 threads; wider batches save
 * adjacency passes, and graphs with few batches take milliseconds): a
 * property of the graph, never of the thread count. */
static tk_status_t ms_width(const tk_graph_t *g, int64_t nsrc, int *W, tk_error_t *err)
{
    int32_t *d = tk_malloc_array((size_t)g->n, sizeof *d);
    if (!d)
        return tk_error_set(err, TK_ENOMEM, NULL, 0,
                            "out of memory for the distance summary (n=%ld)", (long)g->n);
    int32_t depth = 0;
    if (tk_bfs(g, 0, d, NULL) == TK_OK)
        for (int64_t v = 0; v < g->n; v++)
            if (d[v] != TK_INF && d[v] > depth)
                depth = d[v];
    free(d);
    *W = depth >= 32 ? 1 : MS_MAXW;
    while (*W > 1 && (nsrc + 64 * *W - 1) / (64 * *W) < 4)
        *W /= 2;
    return TK_OK;
}

/* Sources: every switch, or one per orbit weighted by the orbit size
 * (grouped by weight so that a batch has one weight); then the batches. */
static tk_status_t ms_plan_make(const tk_graph_t *g, const tk_dist_opts_t *opts, ms_plan_t *p,
                                tk_error_t *err)
{
    const int64_t n = g->n;
    ms_src_t *sw = tk_malloc_array((size_t)n, sizeof *sw);
    memset(p, 0, sizeof *p);
    p->g = g;
    p->maxd = opts->max_diameter;
    p->src = tk_malloc_array((size_t)n, sizeof *p->src);
    p->swt = tk_malloc_array((size_t)n, sizeof *p->swt);
    p->bstart = tk_malloc_array((size_t)n + 1, sizeof *p->bstart);
    if (!sw || !p->src || !p->swt || !p->bstart) {
        free(sw);
        ms_plan_free(p);
        return tk_error_set(err, TK_ENOMEM, NULL, 0,
                            "out of memory for the distance summary (n=%ld)", (long)n);
    }
    int64_t nsrc = 0;
    if (opts->orbit) {
        for (int64_t v = 0; v < n; v++)
            sw[v].wt = 0;
        for (int64_t v = 0; v < n; v++)
            sw[opts->orbit[v]].wt++;
        for (int64_t v = 0; v < n; v++)
            if (opts->orbit[v] == v) {
                sw[nsrc].wt = sw[v].wt;
                sw[nsrc].id = (tk_id_t)v;
                nsrc++;
            }
        qsort(sw, (size_t)nsrc, sizeof *sw, ms_src_cmp);
    } else {
        for (int64_t v = 0; v < n; v++) {
            sw[v].wt = 1;
            sw[v].id = (tk_id_t)v;
        }
        nsrc = n;
    }
    for (int64_t i = 0; i < nsrc; i++) {
        p->src[i] = sw[i].id;
        p->swt[i] = sw[i].wt;
    }
    free(sw);
    tk_status_t st = ms_width(g, nsrc, &p->W, err);
    if (st != TK_OK) {
        ms_plan_free(p);
        return st;
    }
    const int64_t bsize = 64 * (int64_t)p->W;
    for (int64_t i = 0; i < nsrc; p->nbatch++) {
        p->bstart[p->nbatch] = i;
        int64_t j = i + 1;
        while (j < nsrc && j - i < bsize && p->swt[j] == p->swt[i])
            j++;
        i = j;
    }
    p->bstart[p->nbatch] = nsrc;
    return TK_OK;
}

static void *ms_job_ws_new(void *ctx)
{
    const ms_plan_t *p = ctx;
    ms_ws_t *ws = malloc(sizeof *ws);
    if (ws && ms_ws_alloc(ws, p->g->n, p->W) != 0) {
        free(ws);
        return NULL;
    }
    return ws;
}

static void ms_job_ws_free(void *w)
{
    if (w)
        ms_ws_free(w);
    free(w);
}

/* The error of a batch stopped by max_diameter (the caller turns it into
 * `stopped`; a runner that ran the batch in another process hands the
 * message back, so it is recognised by its text too). */
#define MS_STOP_MSG "max_diameter exceeded"

/* One batch into the accumulator's buffer; TK_ELIMIT (MS_STOP_MSG) when
 * an eccentricity exceeds maxd. */
static tk_status_t ms_unit(void *ctx, void *w, int64_t b, int64_t *buf, tk_error_t *err)
{
    ms_plan_t *p = ctx;
    ms_ws_t *ws = w;
    const int64_t n = p->g->n, s0 = p->bstart[b];
    const int k = (int)(p->bstart[b + 1] - s0);
    int32_t ecc[64 * MS_MAXW];
    ws->pairs = 0;
    ws->dist_sum = 0;
    ws->hist_max = 0;
    if (ms_batch(p->g, ws, p->W, p->src + s0, k, (uint64_t)p->swt[s0], ecc, p->maxd, &p->cancel)) {
        __atomic_store_n(&p->cancel, 1, __ATOMIC_RELAXED);
        return tk_error_set(err, TK_ELIMIT, NULL, 0, MS_STOP_MSG);
    }
    buf[MS_PAIRS] += (int64_t)ws->pairs;
    buf[MS_SUM_HI] += (int64_t)(ws->dist_sum >> 32);
    buf[MS_SUM_LO] += (int64_t)(ws->dist_sum & 0xffffffffu);
    for (int32_t L = 1; L <= ws->hist_max; L++) {
        buf[MS_HIST + L] += (int64_t)ws->hist[L];
        ws->hist[L] = 0;
    }
    for (int i = 0; i < k; i++)
        buf[MS_ECC(n) + p->src[s0 + i]] += ecc[i];
    return TK_OK;
}

/* The summary from the accumulator. */
static tk_status_t ms_finish(const tk_graph_t *g, const tk_dist_opts_t *opts, const tk_acc_t *acc,
                             tk_dist_summary_t *out, tk_error_t *err)
{
    const int64_t n = g->n;
    int32_t *ecc = tk_malloc_array((size_t)n, sizeof *ecc);
    uint64_t *hist = opts->want_hist ? tk_calloc_array((size_t)n, sizeof *hist) : NULL;
    if (!ecc || (opts->want_hist && !hist)) {
        free(ecc);
        free(hist);
        return tk_error_set(err, TK_ENOMEM, NULL, 0,
                            "out of memory for the distance summary (n=%ld)", (long)n);
    }
    for (int64_t v = 0; v < n; v++)
        ecc[v] = (int32_t)tk_acc_get(acc, MS_ECC(n) + (opts->orbit ? opts->orbit[v] : v));
    int32_t dmax = 0, rmin = TK_INF;
    for (int64_t v = 0; v < n; v++) {
        if (ecc[v] > dmax)
            dmax = ecc[v];
        if (ecc[v] < rmin)
            rmin = ecc[v];
    }
    unsigned __int128 dist_sum = ((unsigned __int128)tk_acc_get(acc, MS_SUM_HI) << 32) +
                                 (unsigned __int128)tk_acc_get(acc, MS_SUM_LO);
    uint64_t all = (uint64_t)n * (uint64_t)(n - 1);
    out->n = n;
    out->pairs = (uint64_t)tk_acc_get(acc, MS_PAIRS);
    out->unreachable = all - out->pairs;
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
        int32_t hmax = 0;
        for (int64_t L = 1; L < n; L++)
            if ((hist[L] = (uint64_t)tk_acc_get(acc, MS_HIST + L)) != 0)
                hmax = (int32_t)L;
        hist[0] = (uint64_t)n;
        out->hist_len = hmax + 1;
        uint64_t *h = tk_realloc_array(hist, (size_t)out->hist_len, sizeof *h);
        out->hist = h ? h : hist;
    }
    return TK_OK;
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
 * Errors: TK_EINVAL (NULL argument, empty graph), TK_ENOMEM, TK_ELIMIT
 * (the per-thread buffers beyond the memory limit).
 * Time: per batch of 64W sources O(n W) set-up plus O(W) word operations
 * per arc out of, and per switch reached by, each level's frontier; at
 * most O(n m W / 64 * min(64 W, diameter)) overall, typically about
 * O(n m diameter / 64) for low-diameter networks.  Memory O(n W) per
 * thread, plus the driver's 24 bytes per accumulator entry (2n + 3). */
tk_status_t tk_dist_summary(const tk_graph_t *g, const tk_dist_opts_t *opts, tk_dist_summary_t *out,
                            tk_error_t *err)
{
    static const tk_dist_opts_t defaults = {0, 0, 0, 0, NULL, NULL, NULL};
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
    ms_plan_t plan;
    tk_status_t st = ms_plan_make(g, opts, &plan, err);
    if (st != TK_OK)
        return st;
    tk_par_job_t job;
    memset(&job, 0, sizeof job);
    job.units = plan.nbatch;
    job.chunk = 1;
    job.width = MS_ECC(n) + n;
    job.ws_bytes = (size_t)n * (size_t)plan.W * 24u + (size_t)n * 17u;
    job.ctx = &plan;
    job.ws_new = ms_job_ws_new;
    job.ws_free = ms_job_ws_free;
    job.unit_exact = ms_unit;
    job.progress = opts->progress;
    tk_acc_t *acc = NULL;
    tk_error_t jerr;
    tk_error_clear(&jerr);
    st = tk_par_acc_new_with(opts->runner, &job, &acc, err);
    if (st == TK_OK) {
        tk_progress_begin(opts->progress, "distances", "source batches", job.units);
        st = tk_par_run_with(opts->runner, &job, opts->threads, acc, &jerr);
        tk_progress_end(opts->progress);
        if (st == TK_ELIMIT && (plan.cancel || strcmp(jerr.msg, MS_STOP_MSG) == 0)) {
            /* Stopped by max_diameter: only diameter > max_diameter is known. */
            out->n = n;
            out->stopped = 1;
            out->connected = 0;
            out->diameter = opts->max_diameter + 1;
            out->radius = TK_INF;
            out->avg_distance = NAN;
            st = TK_OK;
        } else if (st != TK_OK) {
            if (err)
                *err = jerr;
        } else {
            st = ms_finish(g, opts, acc, out, err);
        }
    }
    tk_acc_free(acc);
    ms_plan_free(&plan);
    return st;
}
