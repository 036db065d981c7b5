/*
 * load.c - analytic link load of switch-level demands under a routing
 * model (tk_load.h), and its summary and throughput.
 *
 * Engines (counting replaces path lists wherever the model allows it):
 *   min      per source s: BFS with shortest-path counts sigma (doubles),
 *            then one backward sweep over the shortest-path DAG with
 *            coef(u) = w(s,u)/sigma(u) + sum of coef(v) over the DAG arcs
 *            u->v; arc u->v carries sigma(u) * coef(v), which is
 *            sum_t w(s,t) sigma(s,u) sigma(v,t) / sigma(s,t).  O(n + m).
 *   ecmp     per destination t: BFS towards t, then every switch, farthest
 *            first, splits its flow (own demand to t plus what it received)
 *            evenly over its arcs to switches one hop closer.  O(n + m).
 *   valiant  (all / minfirst / exclude, min segments): the two segments'
 *            demands aggregated per source in O(n), then the min engine.
 *   allpath  per source, a depth-H search of the simple paths: first the
 *            path count of every destination, then every arc gets the sum
 *            of w(s,t)/count(s,t) over the paths below it.
 *   dragonfly-valiant
 *            the two segments' demands aggregated per source (a groups x n
 *            table), routed pair by pair by a dragonfly-min router.
 *   min, ecmp with per-class hop lengths: Dial's buckets (wt_run).
 *   others   per pair through tk_route_paths.
 * The min and ecmp searches are level-synchronous and direction-optimizing
 * (lbfs_run): they record the DAG arcs into every level, so the backward
 * sweeps touch DAG arcs only.
 *
 * Determinism.  Units (sources or destinations) are processed in fixed
 * chunks of LOAD_CHUNK consecutive ids whatever the thread count; a chunk's
 * contributions are summed in doubles in unit order, then truncated once to
 * 128-bit fixed point (scale 2^F with the total demand below 2^(125-F))
 * and added to a per-thread integer accumulator.  Integer sums do not
 * depend on their order, so the loads are byte-identical for any number
 * of threads.  Memory per thread: 24 bytes per arc plus the engine's O(n).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tk_load.h"
#include "tk_metric.h"
#include "flow/load_internal.h"

typedef __int128 i128;

#define LOAD_CHUNK 128
/* Paths of one pair the generic engine accepts from tk_route_paths. */
#define LOAD_MAX_PATHS ((uint64_t)1 << 24)
/* Simple paths one allpath search may visit before TK_ELIMIT. */
#define LOAD_MAX_ALLPATH 4000000000.0

/* ------------------------------------------------------------------------ */
/* Demands: a tk_swdemand_t, or the implicit all-to-all with srcw[s].       */

typedef struct rows {
    tk_id_t n;
    const tk_swdemand_t *dem; /* NULL: all-to-all                          */
    const double *srcw;       /* all-to-all weights (NULL = 1)              */
} rows_t;

static double rows_total(const rows_t *r)
{
    double t = 0;
    if (r->dem) {
        for (int64_t i = 0; i < r->dem->len; i++)
            t += r->dem->w[i];
    } else {
        for (tk_id_t s = 0; s < r->n; s++)
            t += (r->srcw ? r->srcw[s] : 1.0) * (double)(r->n - 1);
    }
    return t;
}

static tk_status_t rows_check(const tk_graph_t *g, const rows_t *r, tk_error_t *err)
{
    if (r->dem) {
        const tk_swdemand_t *d = r->dem;
        if (d->n != g->n)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "demands: %ld switches, graph has %ld",
                                (long)d->n, (long)g->n);
        for (int64_t i = 0; i < d->len; i++)
            if (d->dst[i] < 0 || d->dst[i] >= g->n || !(d->w[i] >= 0) || !isfinite(d->w[i]))
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "demands: entry %ld: bad destination or weight", (long)i);
    } else if (r->srcw) {
        for (tk_id_t s = 0; s < g->n; s++)
            if (!(r->srcw[s] >= 0) || !isfinite(r->srcw[s]))
                return tk_error_set(err, TK_EINVAL, NULL, 0, "srcw[%ld]: not a finite weight >= 0",
                                    (long)s);
    }
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The deterministic parallel driver.                                       */

typedef struct engine {
    const tk_graph_t *g;
    tk_id_t units; /* units 0 .. units-1                           */
    void *ctx;
    size_t ws_bytes; /* engine workspace per thread (estimate)        */
    void *(*ws_new)(void *ctx);
    void (*ws_free)(void *ws);
    /* Add unit u's loads into cacc (m doubles). */
    tk_status_t (*unit)(void *ctx, void *ws, tk_id_t u, double *cacc, tk_error_t *err);
    double bound; /* upper bound of every arc's load              */
    int rev_fold; /* unit() adds arc a's load at rev[a]           */
} engine_t;

/* y (0 <= y < 2^126, a multiple of its ulp above 2^53) truncated to a
 * 128-bit integer with two 64-bit conversions (no libgcc call): the high
 * word is y / 2^64 truncated, the remainder is exact in a double. */
static inline i128 to_fixed(double y)
{
    uint64_t hi = (uint64_t)(y * 0x1p-64);
    double rest = y - (double)hi * 0x1p64;
    return (i128)(((unsigned __int128)hi << 64) + (uint64_t)rest);
}

/* acc += round(cacc * scale) arc by arc (through rev[] when the engine
 * accumulates every arc's load on its partner), and clear cacc. */
static void fold(i128 *acc, double *cacc, int64_t m, double scale, const int64_t *rev)
{
    for (int64_t a = 0; a < m; a++) {
        if (cacc[a] != 0) {
            acc[rev ? rev[a] : a] += to_fixed(cacc[a] * scale);
            cacc[a] = 0;
        }
    }
}

static tk_status_t engine_run(const engine_t *e, int threads, double *arcload, tk_error_t *err)
{
    const tk_graph_t *g = e->g;
    int64_t m = g->m;
    int nt = 1;
#ifdef _OPENMP
    nt = threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
#endif
    /* Fixed point: the bound times 2^F stays below 2^125. */
    int ex = 0;
    double bound = e->bound > 0 ? e->bound : 1.0;
    (void)frexp(bound, &ex);
    int F = 125 - ex;
    if (F > 1000)
        F = 1000;
    if (F < -1000)
        F = -1000;
    double scale = ldexp(1.0, F), inv = ldexp(1.0, -F);

    /* Memory: 24 bytes per arc and the workspace per thread. */
    uint64_t per = (uint64_t)m * 24u + e->ws_bytes + 4096u;
    uint64_t lim = tk_memory_limit_default();
    if (lim && per > lim)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "link load: %llu bytes of workspace exceed the memory limit",
                            (unsigned long long)per);
    if (lim && (uint64_t)nt * per > lim)
        nt = (int)(lim / per);
    if (nt < 1)
        nt = 1;
    if ((int64_t)nt > (e->units + LOAD_CHUNK - 1) / LOAD_CHUNK)
        nt = (int)((e->units + LOAD_CHUNK - 1) / LOAD_CHUNK);
    if (nt < 1)
        nt = 1;

    i128 **accs = calloc((size_t)nt, sizeof *accs);
    if (!accs)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    tk_status_t st = TK_OK;
    int64_t bad_unit = INT64_MAX;
    tk_error_t bad_err;
    tk_error_clear(&bad_err);
    int64_t nchunks = ((int64_t)e->units + LOAD_CHUNK - 1) / LOAD_CHUNK;

#pragma omp parallel num_threads(nt)
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        double *cacc = tk_calloc_array((size_t)m + 1, sizeof *cacc);
        i128 *acc = tk_calloc_array((size_t)m + 1, sizeof *acc);
        void *ws = e->ws_new(e->ctx);
        accs[tid] = acc;
        int ok = cacc && acc && ws;
        if (!ok) {
#pragma omp critical
            if (bad_unit > -1) {
                bad_unit = -1;
                tk_error_set(&bad_err, TK_ENOMEM, NULL, 0, "link load: out of memory");
            }
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t c = 0; c < nchunks; c++) {
            if (!ok)
                continue;
            int64_t lo = c * LOAD_CHUNK, hi = lo + LOAD_CHUNK;
            if (hi > e->units)
                hi = e->units;
            for (int64_t u = lo; u < hi; u++) {
                int64_t cur;
                __atomic_load(&bad_unit, &cur, __ATOMIC_RELAXED);
                if (u > cur)
                    break;
                tk_error_t le;
                tk_error_clear(&le);
                if (e->unit(e->ctx, ws, (tk_id_t)u, cacc, &le) != TK_OK) {
#pragma omp critical
                    if (u < bad_unit) {
                        bad_unit = u;
                        bad_err = le;
                    }
                    break;
                }
            }
            fold(acc, cacc, m, scale, e->rev_fold ? g->rev : NULL);
        }
        free(cacc);
        if (ws)
            e->ws_free(ws);
    }
    if (bad_unit != INT64_MAX) {
        st = bad_err.code ? bad_err.code : TK_EINTERNAL;
        if (err)
            *err = bad_err;
    } else {
        for (int t = 0; t < nt; t++)
            if (!accs[t])
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    if (st == TK_OK) {
        for (int64_t a = 0; a < m; a++) {
            i128 s = 0;
            for (int t = 0; t < nt; t++)
                s += accs[t][a];
            arcload[a] = (double)s * inv;
        }
    }
    for (int t = 0; t < nt; t++)
        free(accs[t]);
    free(accs);
    return st;
}

/* ------------------------------------------------------------------------ */
/* min: Brandes-style accumulation per source.                              */

/* ------------------------------------------------------------------------ */
/* Level-synchronous BFS with shortest-path DAG, shared by min and ecmp.    */
/*
 * One search from s records, level by level, the DAG arcs u->v (dist(v) =
 * dist(u) + 1) into each level, and optionally sigma (path counts) and nin
 * (DAG in-arcs per switch).  Direction-optimizing: on undirected graphs a
 * level is expanded bottom-up (every unvisited switch scans its own arcs
 * for neighbours on the frontier) when the unvisited switches have fewer
 * arcs than the frontier; the search stops as soon as every switch is
 * visited.  On a random regular graph of 10000 switches and degree 16 the
 * last level holds a few dozen switches: bottom-up scans their 16 arcs
 * each instead of the 108000 arcs of the level before.  The choice depends
 * on the graph and s only, so results stay deterministic.
 */
typedef struct lbfs {
    int32_t *dist;   /* n: level, TK_INF when unvisited            */
    tk_id_t *order;  /* n: switches by level                        */
    int64_t *lstart; /* n+2: level L is order[lstart[L] .. +1]     */
    int64_t *dseg;   /* n+2: DAG arcs into level L: dseg[L] .. +1  */
    int64_t *dag;    /* m: DAG arcs u->v (arc ids of g)             */
    tk_id_t *dtail;  /* m: their tails u                            */
    tk_id_t *dhead;  /* m: their heads v                            */
    tk_id_t *unv;    /* n: unvisited switches (bottom-up)           */
    int32_t nlev;    /* levels 0 .. nlev-1                          */
    int64_t nvis;    /* switches visited                            */
} lbfs_t;

static void lbfs_free(lbfs_t *b)
{
    free(b->dist);
    free(b->order);
    free(b->lstart);
    free(b->dseg);
    free(b->dag);
    free(b->dtail);
    free(b->dhead);
    free(b->unv);
    memset(b, 0, sizeof *b);
}

static int lbfs_init(lbfs_t *b, const tk_graph_t *g)
{
    size_t n = (size_t)g->n + 2;
    memset(b, 0, sizeof *b);
    b->dist = tk_malloc_array(n, sizeof *b->dist);
    b->order = tk_malloc_array(n, sizeof *b->order);
    b->lstart = tk_malloc_array(n + 1, sizeof *b->lstart);
    b->dseg = tk_malloc_array(n + 1, sizeof *b->dseg);
    b->dag = tk_malloc_array((size_t)g->m + 1, sizeof *b->dag);
    b->dtail = tk_malloc_array((size_t)g->m + 1, sizeof *b->dtail);
    b->dhead = tk_malloc_array((size_t)g->m + 1, sizeof *b->dhead);
    b->unv = tk_malloc_array(n, sizeof *b->unv);
    if (!b->dist || !b->order || !b->lstart || !b->dseg || !b->dag || !b->dtail || !b->dhead ||
        !b->unv) {
        lbfs_free(b);
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        b->dist[i] = TK_INF;
    return 1;
}

/* Search g from s (rev: partner arcs, allowing bottom-up; NULL for
 * directed graphs).  sigma and nin may be NULL.  Leaves dist[] set for the
 * visited switches (lbfs_reset clears them).  head16, when not NULL, is
 * g->head as 16-bit ids (n < 65536): half the cache lines per adjacency
 * row, which is what the search waits for on large random graphs.  The
 * body is instantiated for both head types. */
#define LBFS_RUN(NAME, HT)                                                                         \
    static void NAME(const tk_graph_t *g, const HT *headp, const int64_t *rev, tk_id_t s,          \
                     lbfs_t *b, double *restrict sigma, int32_t *restrict nin)                     \
    {                                                                                              \
        const int64_t *off = g->off;                                                               \
        const HT *restrict head = headp;                                                           \
        int32_t *restrict dist = b->dist;                                                          \
        tk_id_t *restrict order = b->order;                                                        \
        int64_t *restrict dag = b->dag;                                                            \
        tk_id_t *restrict dtail = b->dtail, *restrict dhead = b->dhead;                            \
        tk_id_t n = g->n;                                                                          \
        int64_t qt = 0, nd = 0, nunv = -1;                                                         \
        uint64_t degvis = (uint64_t)(off[s + 1] - off[s]), m = (uint64_t)g->m;                     \
        int32_t L = 0;                                                                             \
                                                                                                   \
        dist[s] = 0;                                                                               \
        if (sigma)                                                                                 \
            sigma[s] = 1;                                                                          \
        if (nin)                                                                                   \
            nin[s] = 0;                                                                            \
        order[qt++] = s;                                                                           \
        b->lstart[0] = 0;                                                                          \
        b->dseg[0] = 0;                                                                            \
        for (;;) {                                                                                 \
            int64_t lo = b->lstart[L], hi = qt;                                                    \
            b->lstart[L + 1] = hi;                                                                 \
            b->dseg[L + 1] = nd;                                                                   \
            if (lo == hi || qt == n) /* nothing beyond this level */                               \
                break;                                                                             \
            int32_t dn = L + 1;                                                                    \
            uint64_t fdeg = 0;                                                                     \
            for (int64_t i = lo; i < hi; i++)                                                      \
                fdeg += (uint64_t)(off[order[i] + 1] - off[order[i]]);                             \
            if (rev && m - degvis < fdeg) {                                                        \
                /* Bottom-up: every unvisited v collects its frontier neighbours. */               \
                if (nunv < 0) {                                                                    \
                    nunv = 0;                                                                      \
                    for (tk_id_t v = 0; v < n; v++)                                                \
                        if (dist[v] == TK_INF)                                                     \
                            b->unv[nunv++] = v;                                                    \
                }                                                                                  \
                int64_t keep = 0;                                                                  \
                for (int64_t j = 0; j < nunv; j++) {                                               \
                    tk_id_t v = b->unv[j];                                                         \
                    if (dist[v] != TK_INF)                                                         \
                        continue; /* found top-down meanwhile */                                   \
                    double sv = 0;                                                                 \
                    int32_t cnt = 0;                                                               \
                    for (int64_t a = off[v], end = off[v + 1]; a < end; a++) {                     \
                        tk_id_t u = head[a];                                                       \
                        if (dist[u] == L) {                                                        \
                            if (sigma)                                                             \
                                sv += sigma[u];                                                    \
                            cnt++;                                                                 \
                            dag[nd] = rev[a];                                                      \
                            dhead[nd] = v;                                                         \
                            dtail[nd++] = u;                                                       \
                        }                                                                          \
                    }                                                                              \
                    if (cnt) {                                                                     \
                        dist[v] = dn;                                                              \
                        if (sigma)                                                                 \
                            sigma[v] = sv;                                                         \
                        if (nin)                                                                   \
                            nin[v] = cnt;                                                          \
                        order[qt++] = v;                                                           \
                        degvis += (uint64_t)(off[v + 1] - off[v]);                                 \
                    } else {                                                                       \
                        b->unv[keep++] = v;                                                        \
                    }                                                                              \
                }                                                                                  \
                nunv = keep;                                                                       \
            } else {                                                                               \
                for (int64_t i = lo; i < hi; i++) {                                                \
                    tk_id_t u = order[i];                                                          \
                    double su = sigma ? sigma[u] : 0;                                              \
                    for (int64_t a = off[u], end = off[u + 1]; a < end; a++) {                     \
                        tk_id_t v = head[a];                                                       \
                        int32_t dv = dist[v];                                                      \
                        if (dv == TK_INF) {                                                        \
                            dist[v] = dv = dn;                                                     \
                            if (sigma)                                                             \
                                sigma[v] = 0;                                                      \
                            if (nin)                                                               \
                                nin[v] = 0;                                                        \
                            order[qt++] = v;                                                       \
                            degvis += (uint64_t)(off[v + 1] - off[v]);                             \
                        }                                                                          \
                        /* Branch-free: the DAG test is a coin toss for the predictor. */          \
                        int in_dag = dv == dn;                                                     \
                        if (sigma)                                                                 \
                            sigma[v] += su * (double)in_dag;                                       \
                        if (nin)                                                                   \
                            nin[v] += in_dag;                                                      \
                        dag[nd] = a;                                                               \
                        dhead[nd] = v;                                                             \
                        dtail[nd] = u;                                                             \
                        nd += in_dag;                                                              \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            L++;                                                                                   \
        }                                                                                          \
        /* Levels 0 .. L are non-empty unless the last frontier was empty. */                      \
        b->nlev = b->lstart[L] == b->lstart[L + 1] ? L : L + 1;                                    \
        b->lstart[b->nlev] = qt;                                                                   \
        b->dseg[b->nlev] = nd;                                                                     \
        b->nvis = qt;                                                                              \
    }
LBFS_RUN(lbfs_run32, tk_id_t)
LBFS_RUN(lbfs_run16, uint16_t)
#undef LBFS_RUN

static void lbfs_run(const tk_graph_t *g, const uint16_t *head16, const int64_t *rev, tk_id_t s,
                     lbfs_t *b, double *sigma, int32_t *nin)
{
    if (head16)
        lbfs_run16(g, head16, rev, s, b, sigma, nin);
    else
        lbfs_run32(g, g->head, rev, s, b, sigma, nin);
}

/* g->head as 16-bit ids when n < 65536 (NULL otherwise or without memory:
 * the 32-bit search is used then). */
static uint16_t *head16_new(const tk_graph_t *g)
{
    if (g->n >= 65536)
        return NULL;
    uint16_t *h = tk_malloc_array((size_t)g->m + 1, sizeof *h);
    if (h)
        for (int64_t a = 0; a < g->m; a++)
            h[a] = (uint16_t)g->head[a];
    return h;
}

static void lbfs_reset(lbfs_t *b)
{
    for (int64_t i = 0; i < b->nvis; i++)
        b->dist[b->order[i]] = TK_INF;
}

typedef struct min_ctx {
    const tk_graph_t *g;
    rows_t rows;
    /* valiant transform (mode >= 0): per-source aggregate rows */
    int valiant;              /* -1 none, else tk_valiant_mode_t           */
    const double *wout, *win; /* valiant: totals per switch                 */
    const uint16_t *head16;   /* g->head as 16-bit ids, or NULL             */
} min_ctx_t;

typedef struct min_ws {
    lbfs_t b;
    double *sigma, *coef, *acc, *wt;
} min_ws_t;

static void min_ws_free(void *p)
{
    min_ws_t *w = p;
    if (!w)
        return;
    lbfs_free(&w->b);
    free(w->sigma);
    free(w->coef);
    free(w->acc);
    free(w->wt);
    free(w);
}

static void *min_ws_new(void *ctxp)
{
    min_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1;
    min_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (!lbfs_init(&w->b, c->g)) {
        free(w);
        return NULL;
    }
    w->sigma = tk_calloc_array(n, sizeof *w->sigma);
    w->coef = tk_calloc_array(n, sizeof *w->coef);
    w->acc = tk_calloc_array(n, sizeof *w->acc);
    w->wt = tk_calloc_array(n, sizeof *w->wt);
    if (!w->sigma || !w->coef || !w->acc || !w->wt) {
        min_ws_free(w);
        return NULL;
    }
    return w;
}

/* Fill the dense weight row wt[] of source s; returns 0 when it is empty. */
static int min_fill(const min_ctx_t *c, tk_id_t s, double *wt)
{
    tk_id_t n = c->g->n;
    const tk_swdemand_t *d = c->rows.dem;
    int any = 0;

    if (c->valiant >= 0) {
        /* Segment 1 (s, m) and segment 2 (m, t) aggregated: row x = s. */
        if (c->valiant == TK_VALIANT_ALL) {
            for (tk_id_t y = 0; y < n; y++)
                wt[y] = y == s ? 0 : (c->wout[s] + c->win[y]) / (double)n;
        } else {
            for (tk_id_t y = 0; y < n; y++)
                wt[y] = y == s ? 0 : (c->wout[s] + c->win[y]) / (double)(n - 2);
            if (d) {
                for (int64_t i = d->off[s]; i < d->off[s + 1]; i++)
                    if (d->dst[i] != s)
                        wt[d->dst[i]] -= 2.0 * d->w[i] / (double)(n - 2);
            } else {
                double ws = c->rows.srcw ? c->rows.srcw[s] : 1.0;
                for (tk_id_t y = 0; y < n; y++)
                    if (y != s)
                        wt[y] -= 2.0 * ws / (double)(n - 2);
            }
            for (tk_id_t y = 0; y < n; y++)
                if (wt[y] < 0)
                    wt[y] = 0; /* rounding */
        }
        for (tk_id_t y = 0; y < n; y++)
            if (wt[y] != 0)
                return 1;
        return 0;
    }
    if (d) {
        for (int64_t i = d->off[s]; i < d->off[s + 1]; i++) {
            if (d->dst[i] != s && d->w[i] != 0) {
                wt[d->dst[i]] += d->w[i];
                any = 1;
            }
        }
        return any;
    }
    double ws = c->rows.srcw ? c->rows.srcw[s] : 1.0;
    if (ws == 0)
        return 0;
    for (tk_id_t y = 0; y < n; y++)
        wt[y] = y == s ? 0 : ws;
    return n > 1;
}

static void min_clear(const min_ctx_t *c, tk_id_t s, double *wt)
{
    const tk_swdemand_t *d = c->rows.dem;
    if (d && c->valiant < 0) {
        for (int64_t i = d->off[s]; i < d->off[s + 1]; i++)
            wt[d->dst[i]] = 0;
    } else {
        memset(wt, 0, (size_t)c->g->n * sizeof *wt);
    }
}

static tk_status_t min_unit(void *ctxp, void *wsp, tk_id_t s, double *cacc, tk_error_t *err)
{
    const min_ctx_t *c = ctxp;
    min_ws_t *w = wsp;
    const tk_graph_t *g = c->g;
    lbfs_t *b = &w->b;
    double *restrict sigma = w->sigma, *restrict coef = w->coef, *restrict acc = w->acc;
    double *restrict wt = w->wt;
    tk_status_t st = TK_OK;

    if (!min_fill(c, s, wt)) {
        min_clear(c, s, wt);
        return TK_OK;
    }
    /* Forward: levels, path counts, DAG arcs by level. */
    lbfs_run(g, c->head16, g->directed ? NULL : g->rev, s, b, sigma, NULL);
    /* Every demand must be reachable. */
    if (b->nvis < g->n) {
        for (tk_id_t t = 0; t < g->n; t++) {
            if (wt[t] != 0 && b->dist[t] == TK_INF) {
                st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                  "switch %ld cannot reach switch %ld", (long)s, (long)t);
                break;
            }
        }
    }
    /* Backward, deepest level first: coef(v) = wt(v)/sigma(v) + sum over
     * DAG arcs v->x of coef(x) (collected in acc(v)); DAG arc u->v carries
     * sigma(u) coef(v). */
    if (st == TK_OK) {
        for (int32_t L = b->nlev - 1; L >= 1; L--) {
            for (int64_t i = b->lstart[L]; i < b->lstart[L + 1]; i++) {
                tk_id_t v = b->order[i];
                coef[v] = wt[v] / sigma[v] + acc[v];
                acc[v] = 0;
            }
            for (int64_t k = b->dseg[L]; k < b->dseg[L + 1]; k++) {
                int64_t a = b->dag[k];
                tk_id_t u = b->dtail[k];
                double cv = coef[b->dhead[k]];
                cacc[a] += sigma[u] * cv;
                acc[u] += cv;
            }
        }
    }
    acc[s] = 0;
    if (st != TK_OK)
        for (int64_t i = 0; i < b->nvis; i++)
            acc[b->order[i]] = 0;
    lbfs_reset(b);
    min_clear(c, s, wt);
    return st;
}

static tk_status_t min_run(min_ctx_t *c, int threads, double bound, double *arcload,
                           tk_error_t *err)
{
    uint16_t *h16 = head16_new(c->g);
    c->head16 = h16;
    engine_t e = {
        c->g,       c->g->n,     c,        (size_t)(c->g->n + 1) * 68u + (size_t)c->g->m * 12u,
        min_ws_new, min_ws_free, min_unit, bound,
        0};
    tk_status_t st = engine_run(&e, threads, arcload, err);
    free(h16);
    return st;
}

tk_status_t tk_load_min_graph(const tk_graph_t *g, const tk_swdemand_t *dem, const double *srcw,
                              int threads, double *arcload, tk_error_t *err)
{
    if (!g || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_min_graph: NULL argument");
    min_ctx_t c = {g, {g->n, dem, srcw}, -1, NULL, NULL, NULL};
    tk_status_t st = rows_check(g, &c.rows, err);
    if (st != TK_OK)
        return st;
    return min_run(&c, threads, rows_total(&c.rows), arcload, err);
}

tk_status_t tk_load_valiant_graph(const tk_graph_t *g, tk_valiant_mode_t mode,
                                  const tk_swdemand_t *dem, const double *srcw, int threads,
                                  double *arcload, tk_error_t *err)
{
    if (!g || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_valiant_graph: NULL argument");
    if (mode != TK_VALIANT_ALL && mode != TK_VALIANT_EXCLUDE)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "valiant: only the all and exclude modes aggregate");
    if (mode == TK_VALIANT_EXCLUDE && g->n < 3)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "valiant,exclude: needs at least 3 switches");
    min_ctx_t c = {g, {g->n, dem, srcw}, (int)mode, NULL, NULL, NULL};
    tk_status_t st = rows_check(g, &c.rows, err);
    if (st != TK_OK)
        return st;
    double *wout = tk_calloc_array((size_t)g->n + 1, sizeof *wout);
    double *win = tk_calloc_array((size_t)g->n + 1, sizeof *win);
    if (!wout || !win) {
        free(wout);
        free(win);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    double total = 0;
    for (tk_id_t s = 0; s < g->n; s++) {
        if (dem) {
            for (int64_t i = dem->off[s]; i < dem->off[s + 1]; i++) {
                if (dem->dst[i] == s)
                    continue;
                wout[s] += dem->w[i];
                win[dem->dst[i]] += dem->w[i];
            }
        } else {
            double ws = srcw ? srcw[s] : 1.0;
            wout[s] = ws * (double)(g->n - 1);
            total += ws;
        }
    }
    if (!dem) /* win[t] = sum of srcw over s != t */
        for (tk_id_t t = 0; t < g->n; t++)
            win[t] = total - (srcw ? srcw[t] : 1.0);
    c.wout = wout;
    c.win = win;
    st = min_run(&c, threads, 2.0 * rows_total(&c.rows), arcload, err);
    free(wout);
    free(win);
    return st;
}

/* ------------------------------------------------------------------------ */
/* ecmp: per destination, even split over the shortest next hops.           */

typedef struct ecmp_ctx {
    const tk_graph_t *g, *rg; /* graph and its reverse (== g if undirected) */
    const uint16_t *head16;   /* rg->head as 16-bit ids, or NULL            */
    const double *srcw;       /* all-to-all weights when coff == NULL       */
    const int64_t *coff;      /* column t: sources csrc[coff[t]..], cw[]    */
    const tk_id_t *csrc;
    const double *cw;
} ecmp_ctx_t;

typedef struct ecmp_ws {
    lbfs_t b;
    int32_t *nnext;
    double *in;
} ecmp_ws_t;

static void ecmp_ws_free(void *p)
{
    ecmp_ws_t *w = p;
    if (!w)
        return;
    lbfs_free(&w->b);
    free(w->nnext);
    free(w->in);
    free(w);
}

static void *ecmp_ws_new(void *ctxp)
{
    ecmp_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1;
    ecmp_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    if (!lbfs_init(&w->b, c->rg)) {
        free(w);
        return NULL;
    }
    w->nnext = tk_calloc_array(n, sizeof *w->nnext);
    w->in = tk_calloc_array(n, sizeof *w->in);
    if (!w->nnext || !w->in) {
        ecmp_ws_free(w);
        return NULL;
    }
    return w;
}

static tk_status_t ecmp_unit(void *ctxp, void *wsp, tk_id_t t, double *cacc, tk_error_t *err)
{
    const ecmp_ctx_t *c = ctxp;
    ecmp_ws_t *w = wsp;
    const tk_graph_t *g = c->g, *rg = c->rg;
    tk_id_t n = g->n;
    lbfs_t *b = &w->b;
    int32_t *restrict nnext = w->nnext;
    double *restrict in = w->in;
    tk_status_t st = TK_OK;

    /* Own demands to t go into in[] first. */
    if (c->coff) {
        if (c->coff[t] == c->coff[t + 1])
            return TK_OK;
        for (int64_t i = c->coff[t]; i < c->coff[t + 1]; i++)
            in[c->csrc[i]] += c->cw[i];
    } else {
        int any = 0;
        for (tk_id_t s = 0; s < n; s++) {
            in[s] = s == t ? 0 : (c->srcw ? c->srcw[s] : 1.0);
            any |= in[s] != 0;
        }
        if (!any) {
            memset(in, 0, (size_t)n * sizeof *in);
            return TK_OK;
        }
    }
    /* Distances to t (search of the reverse graph) and nnext[v], the
     * number of arcs from v to switches one hop closer (DAG in-arcs of v
     * in the reverse graph). */
    lbfs_run(rg, c->head16, g->directed ? NULL : g->rev, t, b, NULL, nnext);
    if (b->nvis < n) {
        for (tk_id_t s = 0; s < n; s++) {
            if (in[s] != 0 && b->dist[s] == TK_INF) {
                st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                  "switch %ld cannot reach switch %ld", (long)s, (long)t);
                break;
            }
        }
    }
    if (st == TK_OK && !g->directed) {
        /* Pull, farthest level first: in[v] becomes v's share per next hop
         * once its level is complete; the DAG arc u->v (u one hop closer)
         * then carries that share on arc v->u = rev(u->v) (folded with
         * rev) into u. */
        for (int32_t L = b->nlev - 1; L >= 1; L--) {
            for (int64_t i = b->lstart[L]; i < b->lstart[L + 1]; i++) {
                tk_id_t v = b->order[i];
                in[v] /= (double)nnext[v];
            }
            for (int64_t k = b->dseg[L]; k < b->dseg[L + 1]; k++) {
                double x = in[b->dhead[k]];
                cacc[b->dag[k]] += x;
                in[b->dtail[k]] += x;
            }
        }
    } else if (st == TK_OK) {
        /* Directed: push, farthest first (a switch's inflow is complete
         * when it is reached). */
        const int32_t *dist = b->dist;
        for (int64_t i = b->nvis - 1; i >= 1; i--) {
            tk_id_t u = b->order[i];
            double f = in[u];
            if (f == 0)
                continue;
            int32_t dn = dist[u] - 1;
            double share = f / (double)nnext[u];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] == dn) {
                    cacc[a] += share;
                    in[v] += share;
                }
            }
        }
    }
    for (int64_t i = 0; i < b->nvis; i++)
        in[b->order[i]] = 0;
    if (st != TK_OK || b->nvis < n)
        memset(in, 0, (size_t)n * sizeof *in);
    lbfs_reset(b);
    return st;
}

tk_status_t tk_load_ecmp_graph(const tk_graph_t *g, const tk_swdemand_t *dem, const double *srcw,
                               int threads, double *arcload, tk_error_t *err)
{
    if (!g || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_ecmp_graph: NULL argument");
    rows_t rows = {g->n, dem, srcw};
    tk_status_t st = rows_check(g, &rows, err);
    if (st != TK_OK)
        return st;
    ecmp_ctx_t c = {g, g, NULL, srcw, NULL, NULL, NULL};
    uint16_t *h16 = NULL;
    tk_graph_t *rg = NULL;
    int64_t *coff = NULL;
    tk_id_t *csrc = NULL;
    double *cw = NULL;

    if (g->directed) {
        st = tk_graph_reverse(g, &rg, err);
        if (st != TK_OK)
            return st;
        c.rg = rg;
    }
    if (dem) {
        /* Transpose the demands: columns by destination, sources in order. */
        coff = tk_calloc_array((size_t)g->n + 2, sizeof *coff);
        csrc = tk_malloc_array((size_t)dem->len + 1, sizeof *csrc);
        cw = tk_malloc_array((size_t)dem->len + 1, sizeof *cw);
        if (!coff || !csrc || !cw) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
            goto done;
        }
        for (tk_id_t s = 0; s < g->n; s++)
            for (int64_t i = dem->off[s]; i < dem->off[s + 1]; i++)
                if (dem->dst[i] != s)
                    coff[dem->dst[i] + 2]++;
        for (tk_id_t t = 0; t < g->n; t++)
            coff[t + 2] += coff[t + 1];
        for (tk_id_t s = 0; s < g->n; s++)
            for (int64_t i = dem->off[s]; i < dem->off[s + 1]; i++) {
                if (dem->dst[i] == s)
                    continue;
                int64_t k = coff[dem->dst[i] + 1]++;
                csrc[k] = s;
                cw[k] = dem->w[i];
            }
        c.coff = coff;
        c.csrc = csrc;
        c.cw = cw;
        /* Column t is now coff[t] .. coff[t+1]-1. */
    }
    c.head16 = h16 = head16_new(c.rg);
    {
        engine_t e = {
            g,           g->n,         &c,        (size_t)(g->n + 1) * 60u + (size_t)g->m * 16u,
            ecmp_ws_new, ecmp_ws_free, ecmp_unit, rows_total(&rows),
            !g->directed};
        st = engine_run(&e, threads, arcload, err);
    }
done:
    free(h16);
    tk_graph_free(rg);
    free(coff);
    free(csrc);
    free(cw);
    return st;
}

/* ------------------------------------------------------------------------ */
/* allpath:H: per source, depth-H search of the simple paths.               */

typedef struct ap_ctx {
    min_ctx_t base; /* graph and rows (valiant = -1)             */
    int32_t h;
} ap_ctx_t;

typedef struct ap_ws {
    double *cnt, *wt, *sum;
    tk_id_t *node;
    int64_t *arc, *in;
    uint8_t *onp;
} ap_ws_t;

static void ap_ws_free(void *p)
{
    ap_ws_t *w = p;
    if (!w)
        return;
    free(w->cnt);
    free(w->wt);
    free(w->sum);
    free(w->node);
    free(w->arc);
    free(w->in);
    free(w->onp);
    free(w);
}

static void *ap_ws_new(void *ctxp)
{
    ap_ctx_t *c = ctxp;
    size_t n = (size_t)c->base.g->n + 1, h = (size_t)c->h + 2;
    ap_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->cnt = tk_calloc_array(n, sizeof *w->cnt);
    w->wt = tk_calloc_array(n, sizeof *w->wt);
    w->onp = tk_calloc_array(n, sizeof *w->onp);
    w->sum = tk_calloc_array(h, sizeof *w->sum);
    w->node = tk_calloc_array(h, sizeof *w->node);
    w->arc = tk_calloc_array(h, sizeof *w->arc);
    w->in = tk_calloc_array(h, sizeof *w->in);
    if (!w->cnt || !w->wt || !w->onp || !w->sum || !w->node || !w->arc || !w->in) {
        ap_ws_free(w);
        return NULL;
    }
    return w;
}

static tk_status_t ap_unit(void *ctxp, void *wsp, tk_id_t s, double *cacc, tk_error_t *err)
{
    const ap_ctx_t *c = ctxp;
    ap_ws_t *w = wsp;
    const tk_graph_t *g = c->base.g;
    const int64_t *off = g->off;
    const tk_id_t *head = g->head;
    double *cnt = w->cnt, *wt = w->wt, *sum = w->sum;
    tk_id_t *node = w->node;
    int64_t *arc = w->arc, *in = w->in;
    uint8_t *onp = w->onp;
    int32_t h = c->h;
    tk_status_t st = TK_OK;

    if (!min_fill(&c->base, s, wt)) {
        min_clear(&c->base, s, wt);
        return TK_OK;
    }
    /* Pass 1: number of simple paths of at most h hops from s to each t. */
    double visits = 0;
    int32_t d = 0;
    node[0] = s;
    arc[0] = off[s];
    onp[s] = 1;
    while (d >= 0) {
        tk_id_t u = node[d];
        if (d < h && arc[d] < off[u + 1]) {
            tk_id_t v = head[arc[d]++];
            if (onp[v])
                continue;
            cnt[v] += 1;
            if (++visits > LOAD_MAX_ALLPATH) {
                st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                                  "allpath:%ld: more than %.0f paths from switch %ld", (long)h,
                                  LOAD_MAX_ALLPATH, (long)s);
                break;
            }
            if (d + 1 < h) {
                d++;
                node[d] = v;
                arc[d] = off[v];
                onp[v] = 1;
            }
        } else {
            onp[u] = 0;
            d--;
        }
    }
    if (st == TK_OK) {
        for (tk_id_t t = 0; t < g->n; t++) {
            if (wt[t] != 0 && cnt[t] == 0) {
                st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                  "switch %ld has no path of at most %ld hops to switch %ld",
                                  (long)s, (long)h, (long)t);
                break;
            }
            wt[t] = cnt[t] > 0 ? wt[t] / cnt[t] : 0; /* share of one path */
        }
    }
    if (st == TK_OK) {
        /* Pass 2: every arc gets the shares of the paths through it. */
        d = 0;
        node[0] = s;
        arc[0] = off[s];
        sum[0] = 0;
        onp[s] = 1;
        while (d >= 0) {
            tk_id_t u = node[d];
            if (d < h && arc[d] < off[u + 1]) {
                int64_t a = arc[d]++;
                tk_id_t v = head[a];
                if (onp[v])
                    continue;
                if (d + 1 < h) {
                    d++;
                    node[d] = v;
                    arc[d] = off[v];
                    in[d] = a;
                    sum[d] = wt[v];
                    onp[v] = 1;
                } else {
                    cacc[a] += wt[v];
                    sum[d] += wt[v];
                }
            } else {
                onp[u] = 0;
                if (d > 0) {
                    cacc[in[d]] += sum[d];
                    sum[d - 1] += sum[d];
                }
                d--;
            }
        }
    } else {
        for (int32_t k = 0; k <= d && k <= h; k++)
            onp[node[k]] = 0;
        onp[s] = 0;
    }
    for (tk_id_t t = 0; t < g->n; t++)
        cnt[t] = 0;
    memset(wt, 0, (size_t)g->n * sizeof *wt);
    return st;
}

tk_status_t tk_load_allpath_graph(const tk_graph_t *g, int32_t h, const tk_swdemand_t *dem,
                                  const double *srcw, int threads, double *arcload, tk_error_t *err)
{
    if (!g || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_allpath_graph: NULL argument");
    if (h < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "allpath:%ld: H must be at least 1", (long)h);
    ap_ctx_t c = {{g, {g->n, dem, srcw}, -1, NULL, NULL, NULL}, h};
    tk_status_t st = rows_check(g, &c.base.rows, err);
    if (st != TK_OK)
        return st;
    engine_t e = {g,         g->n,       &c,      (size_t)(g->n + 1) * 17u + (size_t)(h + 2) * 32u,
                  ap_ws_new, ap_ws_free, ap_unit, rows_total(&c.base.rows),
                  0};
    return engine_run(&e, threads, arcload, err);
}

/* ------------------------------------------------------------------------ */
/* Every other model: per pair through tk_route_paths.                      */

/* dragonfly-valiant as aggregate demands (see dfv_prepare). */
typedef struct dfv {
    int32_t ngroups;
    int32_t *gid;   /* n: group renumbered 0..ngroups-1             */
    int64_t *gsize; /* ngroups                                      */
    double *b;      /* ngroups x n: b[g*n + y] = sum over s in g of
                       w(s,y)/nm(s,y)                               */
    double *btot;   /* n: sum over g of b[g*n + y]                  */
} dfv_t;

typedef struct gen_ctx {
    const tk_router_t *r;
    rows_t rows;
    const dfv_t *dfv; /* NULL, or route the dragonfly-valiant rows     */
} gen_ctx_t;

typedef struct gen_ws {
    tk_route_ws_t *rws;
    tk_pathset_t ps;
    double *wt, *a; /* dfv: dense row (n), per-group sums (ngroups)  */
} gen_ws_t;

static void gen_ws_free(void *p)
{
    gen_ws_t *w = p;
    if (!w)
        return;
    tk_route_ws_free(w->rws);
    tk_pathset_destroy(&w->ps);
    free(w->wt);
    free(w->a);
    free(w);
}

static void *gen_ws_new(void *ctxp)
{
    gen_ctx_t *c = ctxp;
    gen_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    tk_pathset_init(&w->ps);
    if (c->dfv) {
        w->wt = tk_calloc_array((size_t)c->rows.n + 1, sizeof *w->wt);
        w->a = tk_calloc_array((size_t)c->dfv->ngroups + 1, sizeof *w->a);
    }
    if ((c->dfv && (!w->wt || !w->a)) || tk_route_ws_new(c->r, &w->rws, NULL) != TK_OK) {
        free(w->wt);
        free(w->a);
        free(w);
        return NULL;
    }
    return w;
}

static tk_status_t gen_pair(const gen_ctx_t *c, gen_ws_t *w, tk_id_t s, tk_id_t t, double wd,
                            double *cacc, tk_error_t *err)
{
    tk_status_t st = tk_route_paths(c->r, w->rws, s, t, LOAD_MAX_PATHS, &w->ps, err);
    if (st != TK_OK)
        return st;
    if (w->ps.npaths == 0)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0, "switch %ld cannot reach switch %ld",
                            (long)s, (long)t);
    for (int64_t i = 0; i < w->ps.npaths; i++) {
        double x = wd * w->ps.w[i];
        for (int64_t k = w->ps.off[i]; k < w->ps.off[i + 1]; k++)
            cacc[w->ps.arc[k]] += x;
    }
    return TK_OK;
}

/* Intermediates of dragonfly-valiant for pair (s,t): the switches outside
 * the groups of s and t. */
static double dfv_nm(const dfv_t *v, tk_id_t n, tk_id_t s, tk_id_t t)
{
    int32_t A = v->gid[s], B = v->gid[t];
    return (double)(n - v->gsize[A] - (A != B ? v->gsize[B] : 0));
}

/* Row x of the aggregate demands of dragonfly-valiant, routed by
 * dragonfly-min: D0(x,y) = w(x,y) when no intermediate exists; D1(x,m) =
 * sum over t with G(m) not in {G(x), G(t)} of w(x,t)/nm(x,t); D2(m,y) =
 * sum over s with G(m) not in {G(s), G(y)} of w(s,y)/nm(s,y).  O(n + row). */
static void dfv_row(const gen_ctx_t *c, gen_ws_t *w, tk_id_t x)
{
    const dfv_t *v = c->dfv;
    const tk_swdemand_t *d = c->rows.dem;
    tk_id_t n = c->rows.n;
    double *wt = w->wt, *a = w->a, atot = 0;
    int32_t gx = v->gid[x];

    memset(a, 0, (size_t)v->ngroups * sizeof *a);
    memset(wt, 0, (size_t)n * sizeof *wt);
    /* segment 1 sums a[g] and the direct (no intermediate) pairs */
    if (d) {
        for (int64_t i = d->off[x]; i < d->off[x + 1]; i++) {
            tk_id_t t = d->dst[i];
            if (t == x)
                continue;
            double nm = dfv_nm(v, n, x, t);
            if (nm > 0)
                a[v->gid[t]] += d->w[i] / nm;
            else
                wt[t] += d->w[i];
        }
    } else {
        double ws = c->rows.srcw ? c->rows.srcw[x] : 1.0;
        for (tk_id_t t = 0; t < n && ws != 0; t++) {
            if (t == x)
                continue;
            double nm = dfv_nm(v, n, x, t);
            if (nm > 0)
                a[v->gid[t]] += ws / nm;
            else
                wt[t] += ws;
        }
    }
    for (int32_t g = 0; g < v->ngroups; g++)
        atot += a[g];
    for (tk_id_t y = 0; y < n; y++) {
        if (y == x)
            continue;
        int32_t gy = v->gid[y];
        if (gy != gx)
            wt[y] += (atot - a[gy]) + (v->btot[y] - v->b[(size_t)gx * (size_t)n + (size_t)y]);
    }
}

static tk_status_t gen_unit(void *ctxp, void *wsp, tk_id_t s, double *cacc, tk_error_t *err)
{
    const gen_ctx_t *c = ctxp;
    gen_ws_t *w = wsp;
    const tk_swdemand_t *d = c->rows.dem;
    tk_status_t st = TK_OK;

    if (c->dfv) {
        dfv_row(c, w, s);
        for (tk_id_t t = 0; t < c->rows.n && st == TK_OK; t++)
            if (t != s && w->wt[t] > 0)
                st = gen_pair(c, w, s, t, w->wt[t], cacc, err);
        return st;
    }

    if (d) {
        for (int64_t i = d->off[s]; i < d->off[s + 1] && st == TK_OK; i++)
            if (d->dst[i] != s && d->w[i] != 0)
                st = gen_pair(c, w, s, d->dst[i], d->w[i], cacc, err);
    } else {
        double ws = c->rows.srcw ? c->rows.srcw[s] : 1.0;
        for (tk_id_t t = 0; t < c->rows.n && st == TK_OK && ws != 0; t++)
            if (t != s)
                st = gen_pair(c, w, s, t, ws, cacc, err);
    }
    return st;
}

/* ------------------------------------------------------------------------ */
/* Public entry points.                                                     */

/* ------------------------------------------------------------------------ */
/* min and ecmp with per-class hop lengths: Dial's buckets.                 */
/*
 * Hop lengths are small integers (clen[class] >= 1), so distances come
 * from Dial's algorithm: a circular array of W+1 buckets (W the largest
 * length), switches finalised in non-decreasing distance.  min: then, in
 * that order, the DAG arcs (dist(v) = dist(u) + len(a)) with sigma pushed
 * forward, and the backward sweep of the unweighted engine per switch.
 * ecmp: distances to t on the reverse graph, then every switch, farthest
 * first, pushes its flow evenly over its arcs a to v with dist(v) + len(a)
 * = dist(u).  O(m + n W) per source or destination.
 */
typedef struct wt_ctx {
    const tk_graph_t *g, *rg; /* rg: reverse graph (== g if undirected) */
    int32_t clen[TK_MAX_CLASSES];
    int32_t wmax;
    int ecmp;
    min_ctx_t base;      /* rows (valiant = -1)                     */
    const int64_t *coff; /* ecmp with demands: columns by dest      */
    const tk_id_t *csrc;
    const double *cw;
} wt_ctx_t;

typedef struct wt_ws {
    int32_t *dist;
    tk_id_t *order;
    int64_t *bnext, *bhead; /* bucket lists: heads per bucket slot       */
    double *sigma, *coef, *wt;
    int64_t *dstart, *dag;
    int64_t nord;
} wt_ws_t;

static void wt_ws_free(void *p)
{
    wt_ws_t *w = p;
    if (!w)
        return;
    free(w->dist);
    free(w->order);
    free(w->bnext);
    free(w->bhead);
    free(w->sigma);
    free(w->coef);
    free(w->wt);
    free(w->dstart);
    free(w->dag);
    free(w);
}

static void *wt_ws_new(void *ctxp)
{
    wt_ctx_t *c = ctxp;
    size_t n = (size_t)c->g->n + 1;
    wt_ws_t *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    w->dist = tk_malloc_array(n, sizeof *w->dist);
    w->order = tk_malloc_array(n, sizeof *w->order);
    /* a switch may sit in several buckets (lazy deletion): one list cell
     * per relaxation, at most m + 1 */
    w->bnext = tk_malloc_array((size_t)c->g->m + 2, sizeof *w->bnext);
    w->bhead = tk_malloc_array((size_t)c->wmax + 1, sizeof *w->bhead);
    w->sigma = tk_calloc_array(n, sizeof *w->sigma);
    w->coef = tk_calloc_array(n, sizeof *w->coef);
    w->wt = tk_calloc_array(n, sizeof *w->wt);
    w->dstart = tk_malloc_array(n + 1, sizeof *w->dstart);
    w->dag = tk_malloc_array((size_t)c->g->m + 1, sizeof *w->dag);
    if (!w->dist || !w->order || !w->bnext || !w->bhead || !w->sigma || !w->coef || !w->wt ||
        !w->dstart || !w->dag) {
        wt_ws_free(w);
        return NULL;
    }
    for (size_t i = 0; i < n; i++)
        w->dist[i] = TK_INF;
    return w;
}

static inline int32_t wt_len(const wt_ctx_t *c, const tk_graph_t *g, int64_t a)
{
    return g->cls ? c->clen[g->cls[a]] : c->clen[0];
}

/* Dial's algorithm from s on h (hop lengths of h's arcs); w->order gets
 * the switches reached, by non-decreasing distance. */
static void wt_dial(const wt_ctx_t *c, const tk_graph_t *h, tk_id_t s, wt_ws_t *w, tk_id_t *cellv)
{
    int32_t B = c->wmax + 1, *dist = w->dist;
    int64_t ncell = 0, pending = 0;
    for (int32_t i = 0; i < B; i++)
        w->bhead[i] = -1;
    w->nord = 0;
    dist[s] = 0;
    cellv[ncell] = s;
    w->bnext[ncell] = -1;
    w->bhead[0] = ncell++;
    pending = 1;
    for (int32_t d = 0; pending > 0; d++) {
        int32_t slot = d % B;
        while (w->bhead[slot] >= 0) {
            int64_t cell = w->bhead[slot];
            w->bhead[slot] = w->bnext[cell];
            pending--;
            tk_id_t u = cellv[cell];
            if (dist[u] != d)
                continue; /* stale entry */
            w->order[w->nord++] = u;
            for (int64_t a = h->off[u]; a < h->off[u + 1]; a++) {
                tk_id_t v = h->head[a];
                int32_t nd = d + wt_len(c, h, a);
                if (nd < dist[v]) {
                    dist[v] = nd;
                    int32_t sl = nd % B;
                    cellv[ncell] = v;
                    w->bnext[ncell] = w->bhead[sl];
                    w->bhead[sl] = ncell++;
                    pending++;
                }
            }
        }
    }
}

static tk_status_t wt_unit(void *ctxp, void *wsp, tk_id_t x, double *cacc, tk_error_t *err)
{
    const wt_ctx_t *c = ctxp;
    wt_ws_t *w = wsp;
    const tk_graph_t *g = c->g;
    tk_id_t n = g->n;
    int32_t *dist = w->dist;
    double *sigma = w->sigma, *coef = w->coef, *wt = w->wt;
    tk_status_t st = TK_OK;
    /* cells of the bucket lists hold switch ids; reuse dag[] as storage */
    tk_id_t *cellv = (tk_id_t *)w->dag;

    if (!c->ecmp) {
        if (!min_fill(&c->base, x, wt)) {
            min_clear(&c->base, x, wt);
            return TK_OK;
        }
    } else if (c->coff) {
        if (c->coff[x] == c->coff[x + 1])
            return TK_OK;
        for (int64_t i = c->coff[x]; i < c->coff[x + 1]; i++)
            wt[c->csrc[i]] += c->cw[i];
    } else {
        for (tk_id_t s = 0; s < n; s++)
            wt[s] = s == x ? 0 : (c->base.rows.srcw ? c->base.rows.srcw[s] : 1.0);
    }
    wt_dial(c, c->ecmp ? c->rg : g, x, w, cellv);
    if (w->nord < n) {
        for (tk_id_t t = 0; t < n; t++) {
            if (wt[t] != 0 && dist[t] == TK_INF) {
                st = c->ecmp ? tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                            "switch %ld cannot reach switch %ld", (long)t, (long)x)
                             : tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                            "switch %ld cannot reach switch %ld", (long)x, (long)t);
                break;
            }
        }
    }
    if (st == TK_OK && !c->ecmp) {
        /* Forward in distance order: sigma and the DAG arcs of each u. */
        int64_t nd = 0;
        for (int64_t i = 0; i < w->nord; i++)
            sigma[w->order[i]] = 0;
        sigma[x] = 1;
        for (int64_t i = 0; i < w->nord; i++) {
            tk_id_t u = w->order[i];
            w->dstart[i] = nd;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] == dist[u] + wt_len(c, g, a)) {
                    sigma[v] += sigma[u];
                    w->dag[nd++] = a;
                }
            }
        }
        w->dstart[w->nord] = nd;
        /* Backward: coef(u) = wt(u)/sigma(u) + sum of coef over DAG arcs. */
        for (int64_t i = w->nord - 1; i >= 0; i--) {
            tk_id_t u = w->order[i];
            double su = sigma[u], sum = 0;
            for (int64_t k = w->dstart[i]; k < w->dstart[i + 1]; k++) {
                int64_t a = w->dag[k];
                double cv = coef[g->head[a]];
                cacc[a] += su * cv;
                sum += cv;
            }
            coef[u] = wt[u] / su + sum;
        }
    } else if (st == TK_OK) {
        /* ecmp: farthest first, even split over the next hops. */
        for (int64_t i = w->nord - 1; i >= 1; i--) {
            tk_id_t u = w->order[i];
            double f = wt[u];
            if (f == 0)
                continue;
            int64_t cnt = 0;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                cnt += dist[g->head[a]] + wt_len(c, g, a) == dist[u];
            double share = f / (double)cnt;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] + wt_len(c, g, a) == dist[u]) {
                    cacc[a] += share;
                    wt[v] += share;
                }
            }
        }
    }
    for (int64_t i = 0; i < w->nord; i++)
        dist[w->order[i]] = TK_INF;
    memset(wt, 0, (size_t)n * sizeof *wt);
    return st;
}

/* min or ecmp with hop lengths.  Returns TK_EUNSUPPORTED (caller falls
 * back to the per-pair engine) for lengths that could overflow. */
static tk_status_t wt_run(const tk_router_t *r, int ecmp, const tk_swdemand_t *dem,
                          const double *srcw, int threads, double *arcload, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    const tk_route_spec_t *sp = tk_router_spec(r);
    wt_ctx_t c;
    tk_graph_t *rg = NULL;
    int64_t *coff = NULL;
    tk_id_t *csrc = NULL;
    double *cw = NULL;
    tk_status_t st;

    memset(&c, 0, sizeof c);
    c.g = g;
    c.rg = g;
    c.ecmp = ecmp;
    c.base.g = g;
    c.base.rows.n = g->n;
    c.base.rows.dem = dem;
    c.base.rows.srcw = srcw;
    c.base.valiant = -1;
    for (int k = 0; k < TK_MAX_CLASSES; k++)
        c.clen[k] = 1;
    c.wmax = 1;
    for (int i = 0; i < sp->nweights; i++) {
        int k = tk_graph_class_index(g, sp->wclass[i]);
        if (k < 0 || sp->wlen[i] < 1 || sp->wlen[i] > 1000000)
            return TK_EUNSUPPORTED;
        c.clen[k] = sp->wlen[i];
        if (sp->wlen[i] > c.wmax)
            c.wmax = sp->wlen[i];
    }
    if ((int64_t)c.wmax * (int64_t)g->n >= INT32_MAX / 2)
        return TK_EUNSUPPORTED;
    if ((st = rows_check(g, &c.base.rows, err)) != TK_OK)
        return st;
    if (ecmp && g->directed) {
        if ((st = tk_graph_reverse(g, &rg, err)) != TK_OK)
            return st;
        c.rg = rg;
    }
    if (ecmp && dem) {
        coff = tk_calloc_array((size_t)g->n + 2, sizeof *coff);
        csrc = tk_malloc_array((size_t)dem->len + 1, sizeof *csrc);
        cw = tk_malloc_array((size_t)dem->len + 1, sizeof *cw);
        if (!coff || !csrc || !cw) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
            goto done;
        }
        for (tk_id_t s = 0; s < g->n; s++)
            for (int64_t i = dem->off[s]; i < dem->off[s + 1]; i++)
                if (dem->dst[i] != s)
                    coff[dem->dst[i] + 2]++;
        for (tk_id_t t = 0; t < g->n; t++)
            coff[t + 2] += coff[t + 1];
        for (tk_id_t s = 0; s < g->n; s++)
            for (int64_t i = dem->off[s]; i < dem->off[s + 1]; i++) {
                if (dem->dst[i] == s)
                    continue;
                int64_t k = coff[dem->dst[i] + 1]++;
                csrc[k] = s;
                cw[k] = dem->w[i];
            }
        c.coff = coff;
        c.csrc = csrc;
        c.cw = cw;
    }
    {
        engine_t e = {g,         g->n,       &c,      (size_t)(g->n + 1) * 48u + (size_t)g->m * 16u,
                      wt_ws_new, wt_ws_free, wt_unit, rows_total(&c.base.rows),
                      0};
        st = engine_run(&e, threads, arcload, err);
    }
done:
    tk_graph_free(rg);
    free(coff);
    free(csrc);
    free(cw);
    return st;
}

static int has_weights(const tk_route_spec_t *sp)
{
    for (int i = 0; i < sp->nweights; i++)
        if (sp->wlen[i] != 1)
            return 1;
    return 0;
}

static int cmp_i32(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* dragonfly-valiant through its aggregate demands, routed pair by pair by a
 * dragonfly-min router of the same graph and hop lengths.  Memory
 * ngroups x n doubles (TK_EUNSUPPORTED above 1/8 of the physical memory,
 * so the caller falls back to the per-pair model). */
static tk_status_t dfv_run(const tk_router_t *r, const tk_swdemand_t *dem, const double *srcw,
                           int threads, double *arcload, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    tk_id_t n = g->n;
    tk_route_spec_t sp = *tk_router_spec(r);
    tk_router_t *rmin = NULL;
    dfv_t v;
    int32_t *ids = NULL;
    tk_status_t st;
    rows_t rows = {n, dem, srcw};

    memset(&v, 0, sizeof v);
    if ((st = rows_check(g, &rows, err)) != TK_OK)
        return st;
    /* Renumber the groups by increasing id. */
    ids = tk_malloc_array((size_t)n + 1, sizeof *ids);
    v.gid = tk_malloc_array((size_t)n + 1, sizeof *v.gid);
    if (!ids || !v.gid) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
        goto done;
    }
    memcpy(ids, g->group, (size_t)n * sizeof *ids);
    qsort(ids, (size_t)n, sizeof *ids, cmp_i32);
    for (tk_id_t i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            ids[v.ngroups++] = ids[i];
    for (tk_id_t u = 0; u < n; u++) {
        int32_t *p = bsearch(&g->group[u], ids, (size_t)v.ngroups, sizeof *ids, cmp_i32);
        v.gid[u] = (int32_t)(p - ids);
    }
    uint64_t lim = tk_memory_limit_default();
    if (lim && (uint64_t)v.ngroups * (uint64_t)n * 8u > lim / 8) {
        st = TK_EUNSUPPORTED;
        goto done;
    }
    v.gsize = tk_calloc_array((size_t)v.ngroups, sizeof *v.gsize);
    v.b = tk_calloc_array((size_t)v.ngroups * (size_t)n, sizeof *v.b);
    v.btot = tk_calloc_array((size_t)n + 1, sizeof *v.btot);
    if (!v.gsize || !v.b || !v.btot) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
        goto done;
    }
    for (tk_id_t u = 0; u < n; u++)
        v.gsize[v.gid[u]]++;
    /* b[g][y]: segment-2 demand into y from the sources of group g. */
    for (tk_id_t s = 0; s < n; s++) {
        double *bg = v.b + (size_t)v.gid[s] * (size_t)n;
        if (dem) {
            for (int64_t i = dem->off[s]; i < dem->off[s + 1]; i++) {
                tk_id_t y = dem->dst[i];
                double nm = dfv_nm(&v, n, s, y);
                if (y != s && nm > 0)
                    bg[y] += dem->w[i] / nm;
            }
        } else {
            double ws = srcw ? srcw[s] : 1.0;
            for (tk_id_t y = 0; y < n && ws != 0; y++) {
                double nm = dfv_nm(&v, n, s, y);
                if (y != s && nm > 0)
                    bg[y] += ws / nm;
            }
        }
    }
    for (int32_t gg = 0; gg < v.ngroups; gg++)
        for (tk_id_t y = 0; y < n; y++)
            v.btot[y] += v.b[(size_t)gg * (size_t)n + (size_t)y];
    /* The segments' router: dragonfly-min with the same hop lengths. */
    sp.kind = TK_ROUTE_DF_MIN;
    if ((st = tk_router_new(g, &sp, threads, 0, &rmin, err)) != TK_OK)
        goto done;
    {
        gen_ctx_t c = {rmin, rows, &v};
        engine_t e = {
            g,          n,           &c,       (size_t)(n + 1) * 72u + (size_t)v.ngroups * 8u,
            gen_ws_new, gen_ws_free, gen_unit, 2.0 * rows_total(&rows),
            0};
        st = engine_run(&e, threads, arcload, err);
    }
done:
    tk_router_free(rmin);
    free(ids);
    free(v.gid);
    free(v.gsize);
    free(v.b);
    free(v.btot);
    return st;
}

static tk_status_t load_dispatch(const tk_router_t *r, const tk_swdemand_t *dem, const double *srcw,
                                 int threads, double *arcload, tk_error_t *err)
{
    if (!r || !arcload)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_compute: NULL argument");
    const tk_graph_t *g = tk_router_graph(r);
    const tk_route_spec_t *sp = tk_router_spec(r);
    int fast = !has_weights(sp);

    if (!fast && (sp->kind == TK_ROUTE_MIN || sp->kind == TK_ROUTE_ECMP)) {
        tk_status_t st = wt_run(r, sp->kind == TK_ROUTE_ECMP, dem, srcw, threads, arcload, err);
        if (st != TK_EUNSUPPORTED)
            return st;
    }
    if (fast && sp->kind == TK_ROUTE_MIN)
        return tk_load_min_graph(g, dem, srcw, threads, arcload, err);
    if (fast && sp->kind == TK_ROUTE_ECMP)
        return tk_load_ecmp_graph(g, dem, srcw, threads, arcload, err);
    /* valiant,minfirst has the paths and weights of valiant (src/route/
     * valiant.c: the draws m = s, t differ only in their VC phase). */
    if (fast && sp->kind == TK_ROUTE_VALIANT && sp->valiant == TK_VALIANT_MINFIRST)
        return tk_load_valiant_graph(g, TK_VALIANT_ALL, dem, srcw, threads, arcload, err);
    if (fast && sp->kind == TK_ROUTE_VALIANT &&
        (sp->valiant == TK_VALIANT_ALL || (sp->valiant == TK_VALIANT_EXCLUDE && g->n >= 3)))
        return tk_load_valiant_graph(g, sp->valiant, dem, srcw, threads, arcload, err);
    if (sp->kind == TK_ROUTE_ALLPATH)
        return tk_load_allpath_graph(g, sp->h, dem, srcw, threads, arcload, err);

    if (sp->kind == TK_ROUTE_DF_VALIANT && g->group) {
        tk_status_t st = dfv_run(r, dem, srcw, threads, arcload, err);
        if (st != TK_EUNSUPPORTED)
            return st;
        tk_error_clear(err); /* too many groups to aggregate: per pair */
    }
    gen_ctx_t c = {r, {g->n, dem, srcw}, NULL};
    tk_status_t st = rows_check(g, &c.rows, err);
    if (st != TK_OK)
        return st;
    engine_t e = {g,          g->n,        &c,       (size_t)(g->n + 1) * 64u,
                  gen_ws_new, gen_ws_free, gen_unit, 4.0 * rows_total(&c.rows),
                  0};
    return engine_run(&e, threads, arcload, err);
}

/* tk_load_compute: see tk_load.h. */
tk_status_t tk_load_compute(const tk_router_t *r, const tk_swdemand_t *dem, int threads,
                            double *arcload, tk_error_t *err)
{
    if (!dem)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_compute: NULL demands");
    return load_dispatch(r, dem, NULL, threads, arcload, err);
}

/* tk_load_all_to_all: see tk_load.h. */
tk_status_t tk_load_all_to_all(const tk_router_t *r, const double *srcw, int threads,
                               double *arcload, tk_error_t *err)
{
    return load_dispatch(r, NULL, srcw, threads, arcload, err);
}

/* tk_load_bytes: see tk_load.h. */
uint64_t tk_load_bytes(const tk_graph_t *g, int threads)
{
    if (!g)
        return 0;
    unsigned __int128 b = ((unsigned __int128)g->m * 32u + ((unsigned __int128)g->n + 1) * 64u) *
                          (unsigned)(threads > 0 ? threads : 1);
    return b > UINT64_MAX ? UINT64_MAX : (uint64_t)b;
}

/* tk_load_summarize: see tk_load.h. */
tk_status_t tk_load_summarize(const tk_graph_t *g, const double *arcload, tk_load_summary_t *out,
                              tk_error_t *err)
{
    if (!g || !arcload || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_summarize: NULL argument");
    int nc = g->nclasses < 1 ? 1 : g->nclasses;
    tk_load_summary_t s;
    memset(&s, 0, sizeof s);
    s.nclasses = nc;
    s.max_load = tk_calloc_array((size_t)nc + 1, sizeof *s.max_load);
    s.avg_load = tk_calloc_array((size_t)nc + 1, sizeof *s.avg_load);
    s.arcs = tk_calloc_array((size_t)nc + 1, sizeof *s.arcs);
    if (!s.max_load || !s.avg_load || !s.arcs) {
        tk_load_summary_destroy(&s);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "link load: out of memory");
    }
    s.argmax = g->m > 0 ? 0 : -1;
    double best = -1;
    for (int64_t a = 0; a < g->m; a++) {
        int c = g->cls ? g->cls[a] : 0;
        if (c >= nc)
            c = 0;
        double x = arcload[a] / tk_graph_cap(g, a);
        if (x > s.max_load[c])
            s.max_load[c] = x;
        s.avg_load[c] += x;
        s.arcs[c]++;
        s.avg_load[nc] += x;
        s.arcs[nc]++;
        if (x > best) {
            best = x;
            s.argmax = a;
        }
    }
    s.max_load[nc] = best > 0 ? best : 0;
    for (int c = 0; c <= nc; c++)
        if (s.arcs[c])
            s.avg_load[c] /= (double)s.arcs[c];
    *out = s;
    return TK_OK;
}

void tk_load_summary_destroy(tk_load_summary_t *s)
{
    if (!s)
        return;
    free(s->max_load);
    free(s->avg_load);
    free(s->arcs);
    memset(s, 0, sizeof *s);
}

/* tk_load_uniform: see tk_load.h. */
tk_status_t tk_load_uniform(const tk_router_t *r, int threads, double *pair_load, double *cap_load,
                            double *limit, tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    int uniform = 1;
    double p0 = 0, ptot = 0;
    tk_status_t st = TK_OK;

    if (!cap_load)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_load_uniform: NULL output");
    for (tk_id_t u = 0; u < g->n; u++) {
        int32_t p = tk_graph_servers(g, u);
        double pe = p > 0 ? p : 1;
        if (u == 0)
            p0 = pe;
        uniform &= pe == p0;
        ptot += pe;
    }
    if (limit)
        *limit = 1.0;
    if (g->n < 2) {
        for (int64_t x = 0; x < g->m; x++) {
            cap_load[x] = 0;
            if (pair_load)
                pair_load[x] = 0;
        }
        return TK_OK;
    }
    if (uniform) {
        /* route once at one unit per pair, then scale */
        double scale = p0 / (double)(g->n - 1);
        st = tk_load_all_to_all(r, NULL, threads, pair_load ? pair_load : cap_load, err);
        if (st != TK_OK)
            return st;
        for (int64_t x = 0; x < g->m; x++)
            cap_load[x] = (pair_load ? pair_load[x] : cap_load[x]) * scale;
    } else {
        double *srcw = tk_malloc_array((size_t)g->n, sizeof *srcw);
        if (!srcw)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        for (tk_id_t u = 0; u < g->n; u++) {
            int32_t p = tk_graph_servers(g, u);
            srcw[u] = (p > 0 ? p : 1) / (double)(g->n - 1);
        }
        st = tk_load_all_to_all(r, srcw, threads, cap_load, err);
        free(srcw);
        if (st == TK_OK && pair_load)
            st = tk_load_all_to_all(r, NULL, threads, pair_load, err);
        if (st != TK_OK)
            return st;
    }
    /* Every endpoint of t receives sum_{s != t} p(s)/(n-1) / p(t). */
    if (limit)
        for (tk_id_t u = 0; u < g->n; u++) {
            int32_t p = tk_graph_servers(g, u);
            double pe = p > 0 ? p : 1;
            double recv = (ptot - pe) / (double)(g->n - 1) / pe;
            if (recv > 0 && 1.0 / recv < *limit)
                *limit = 1.0 / recv;
        }
    return TK_OK;
}

/* tk_load_throughput: see tk_load.h. */
double tk_load_throughput(double max_load, const tk_swdemand_t *dem)
{
    double th = 1.0;
    if (max_load > 0 && 1.0 / max_load < th)
        th = 1.0 / max_load;
    if (dem && dem->inject && dem->eject) {
        for (tk_id_t s = 0; s < dem->n; s++) {
            if (dem->inject[s] > 0 && 1.0 / dem->inject[s] < th)
                th = 1.0 / dem->inject[s];
            if (dem->eject[s] > 0 && 1.0 / dem->eject[s] < th)
                th = 1.0 / dem->eject[s];
        }
    }
    return th;
}
