/*
 * ksp.c - k shortest simple paths (their lengths) of every ordered pair,
 * and the number of simple paths of at most H hops (ALLPATH(H)).
 *
 * Both are counts, never lists of paths.  The k-shortest search uses the
 * low diameter of the graphs of interest: with the distances d(v,t) to the
 * target, a partial path of length l ending at v can be completed within a
 * bound L only if l + d(v,t) <= L.  Per target t (one BFS on the reversed
 * graph) every source s is searched with L = d(s,t), d(s,t)+1, ...; each
 * bound counts the simple paths of length exactly L (stopping as soon as
 * the k paths are complete).  Two accelerations:
 *  - the out-arcs of every switch the search visits are sorted (once per
 *    target, on first use) by d(head,t), so the search stops scanning a
 *    switch's arcs at the first one beyond the bound;
 *  - zero slack: when the remaining budget equals d(v,t), every completion
 *    is a shortest v->t path, and if no switch of the partial path is
 *    closer to t than v none of them can meet the partial path; their
 *    number sigma_t(v) (counted by the BFS) is added in O(1).
 * A bound at which no partial path was cut by the bound (nor shortcut)
 * proves that no longer simple path exists: the pair then keeps the paths
 * it has ("short" pair).
 *
 * The bound d(v,t) ignores the switches already on the path, so a search
 * can wander through every simple path of a part of the graph from which t
 * is reachable only through the path (a switch of degree 1 as target: its
 * neighbour is the source).  Once a pair's search has scanned n + m arcs,
 * every descent first checks by a breadth-first search that t is still
 * reachable from the new switch avoiding the path, within the bound
 * (free_dist): dead branches are cut, and the bound of the next round comes
 * from these exact distances.  Only branches with no completion are cut,
 * so the lengths found do not change; the pendant graphs that took
 * exponential time (4 s for 30 switches at k = 2) take milliseconds.
 *
 * Workspace per thread: about 81n + 4m bytes (m arcs).  Nothing depends on the
 * thread count: every result is an integer sum, minimum or maximum.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tk_metric.h"
#include "tk_paths.h"

typedef unsigned __int128 u128;

typedef struct ksp_ws {
    tk_id_t n;
    int32_t *dt;         /* d(v, t) for the current target                     */
    uint64_t *sig;       /* shortest v->t paths, saturating at UINT64_MAX      */
    tk_id_t *queue;      /* BFS order                                          */
    const tk_graph_t *g; /* the graph searched                             */
    tk_id_t t;           /* current target                                     */
    int32_t *stamp;      /* target for which v's sorted arcs were built        */
    int32_t *scnt;       /* number of sorted out-arcs of v ...                 */
    tk_id_t *shead;      /* ... stored at shead[g->off[v] ...]: heads with
                            finite d, no self-loops, sorted by d(head, t)      */
    uint8_t *onpath;     /* switch is on the current partial path              */
    tk_id_t *node;       /* DFS stack: switch at each depth                    */
    int64_t *pos;        /*            next arc to scan                        */
    int64_t *pend;       /*            end of its arcs                         */
    int32_t *mind;       /*            min d(w,t) over the path before it      */
    uint64_t *cnt;       /* ALLPATH per source: paths to every switch          */
    uint64_t *cnt2;      /* raw paths: second vector                           */
    uint32_t *seen;      /* reachability check: visited when == epoch          */
    tk_id_t *rq;         /*                     its queue                      */
    uint32_t epoch;      /*                     current visit mark             */
    int check;           /* this pair's search checks reachability (budget)    */
    int64_t steps;       /* arcs scanned for this pair                         */
    int64_t budget;      /* steps before the reachability checks start         */
    int overflow;        /* a raw-path count exceeded 2^64 - 1                 */
    tk_ksp_result_t r;   /* partial results of this thread                     */
} ksp_ws_t;

static void ws_free(ksp_ws_t *w)
{
    free(w->dt);
    free(w->sig);
    free(w->queue);
    free(w->stamp);
    free(w->scnt);
    free(w->shead);
    free(w->onpath);
    free(w->node);
    free(w->pos);
    free(w->pend);
    free(w->mind);
    free(w->cnt);
    free(w->cnt2);
    free(w->seen);
    free(w->rq);
    free(w->r.len_hist);
    memset(w, 0, sizeof *w);
}

static int ws_alloc(ksp_ws_t *w, const tk_graph_t *g)
{
    size_t n = (size_t)g->n;
    memset(w, 0, sizeof *w);
    w->n = g->n;
    w->dt = tk_malloc_array(n, sizeof *w->dt);
    w->sig = tk_malloc_array(n, sizeof *w->sig);
    w->queue = tk_malloc_array(n, sizeof *w->queue);
    w->g = g;
    w->stamp = tk_malloc_array(n, sizeof *w->stamp);
    w->scnt = tk_malloc_array(n, sizeof *w->scnt);
    w->shead = tk_malloc_array(g->m > 0 ? (size_t)g->m : 1, sizeof *w->shead);
    w->onpath = tk_calloc_array(n, sizeof *w->onpath);
    w->node = tk_malloc_array(n + 1, sizeof *w->node);
    w->pos = tk_malloc_array(n + 1, sizeof *w->pos);
    w->pend = tk_malloc_array(n + 1, sizeof *w->pend);
    w->mind = tk_malloc_array(n + 1, sizeof *w->mind);
    w->cnt = tk_malloc_array(n, sizeof *w->cnt);
    w->cnt2 = tk_malloc_array(n, sizeof *w->cnt2);
    w->seen = tk_calloc_array(n, sizeof *w->seen);
    w->rq = tk_malloc_array(n, sizeof *w->rq);
    w->r.len_hist = tk_calloc_array(n, sizeof *w->r.len_hist);
    w->r.len_hist_len = (int32_t)n;
    w->r.allpath_min = UINT64_MAX;
    if (!w->dt || !w->sig || !w->queue || !w->stamp || !w->scnt || !w->shead || !w->onpath ||
        !w->node || !w->pos || !w->pend || !w->mind || !w->cnt || !w->cnt2 || !w->seen || !w->rq ||
        !w->r.len_hist)
        return -1;
    for (size_t v = 0; v < n; v++)
        w->stamp[v] = -1;
    return 0;
}

static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
    uint64_t c = a + b;
    return c < a ? UINT64_MAX : c;
}

/* Per-target tables: d(v,t) and sigma_t(v), the number of shortest v->t
 * paths, by one breadth-first search over the in-arcs of t (rg: the
 * reversed graph, or g itself when undirected) that pushes path counts
 * along as it goes (parallel arcs count separately).  O(n + m).  The
 * sorted out-arcs are built lazily, per switch the search visits
 * (sorted_arcs). */
static void target_setup(ksp_ws_t *w, const tk_graph_t *rg, tk_id_t t)
{
    const tk_id_t n = rg->n;
    int32_t *dt = w->dt;
    uint64_t *sig = w->sig;
    for (tk_id_t v = 0; v < n; v++) {
        dt[v] = TK_INF;
        sig[v] = 0;
    }
    size_t qh = 0, qt = 0;
    dt[t] = 0;
    sig[t] = 1;
    w->t = t;
    w->queue[qt++] = t;
    while (qh < qt) {
        tk_id_t x = w->queue[qh++];
        int32_t dn = dt[x] + 1;
        uint64_t sx = sig[x];
        for (int64_t a = rg->off[x]; a < rg->off[x + 1]; a++) {
            tk_id_t y = rg->head[a];
            if (dt[y] == TK_INF) {
                dt[y] = dn;
                w->queue[qt++] = y;
            }
            if (dt[y] == dn)
                sig[y] = sat_add(sig[y], sx);
        }
    }
}

/* The out-arcs of v toward t, sorted by d(head, t) (heads that cannot
 * reach t and self-loops left out), built on first use for the current
 * target: three buckets by d(u,t) - d(v,t) = -1 (down), 0 (level), >= 1
 * (up; a single value in an undirected graph), each in head order, then
 * the up bucket insertion-sorted (a no-op when its values are equal).
 * Returns the index of the first arc in shead; *end gets the end. */
static inline int64_t sorted_arcs(ksp_ws_t *w, tk_id_t v, int64_t *end)
{
    const tk_graph_t *g = w->g;
    const int32_t *dt = w->dt;
    int64_t k = g->off[v];
    if (w->stamp[v] == w->t) {
        *end = k + w->scnt[v];
        return k;
    }
    const int32_t dv = dt[v];
    int64_t c0 = 0, c1 = 0, c2 = 0;
    for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
        tk_id_t u = g->head[a];
        int32_t du = dt[u];
        if (u == v || du == TK_INF)
            continue;
        if (du < dv)
            c0++;
        else if (du == dv)
            c1++;
        else
            c2++;
    }
    int64_t p0 = k, p1 = k + c0, p2 = k + c0 + c1;
    for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
        tk_id_t u = g->head[a];
        int32_t du = dt[u];
        if (u == v || du == TK_INF)
            continue;
        if (du < dv)
            w->shead[p0++] = u;
        else if (du == dv)
            w->shead[p1++] = u;
        else
            w->shead[p2++] = u;
    }
    int64_t b = k + c0 + c1, e = b + c2;
    for (int64_t i = b + 1; i < e; i++) {
        tk_id_t u = w->shead[i];
        int32_t du = dt[u];
        int64_t j = i;
        while (j > b && dt[w->shead[j - 1]] > du) {
            w->shead[j] = w->shead[j - 1];
            j--;
        }
        w->shead[j] = u;
    }
    w->stamp[v] = w->t;
    w->scnt[v] = (int32_t)(e - k);
    *end = e;
    return k;
}

/* Length of a shortest u->t path that avoids the switches of the current
 * partial path (breadth-first search from u, stopping at t or at depth
 * limit + 1); INT32_MAX when t cannot be reached that way within limit.
 * O(n + m) at worst. */
static int32_t free_dist(ksp_ws_t *w, tk_id_t u, tk_id_t t, int32_t limit)
{
    const tk_graph_t *g = w->g;
    if (u == t)
        return 0;
    if (++w->epoch == 0) { /* wrapped: clear the marks */
        memset(w->seen, 0, (size_t)w->n * sizeof *w->seen);
        w->epoch = 1;
    }
    const uint32_t ep = w->epoch;
    size_t qh = 0, qt = 0, level_end;
    int32_t d = 0;
    w->seen[u] = ep;
    w->rq[qt++] = u;
    level_end = qt;
    while (qh < qt && d < limit) {
        tk_id_t x = w->rq[qh++];
        for (int64_t a = g->off[x]; a < g->off[x + 1]; a++) {
            tk_id_t y = g->head[a];
            if (y == t)
                return d + 1;
            if (w->seen[y] == ep || w->onpath[y])
                continue;
            w->seen[y] = ep;
            w->rq[qt++] = y;
        }
        if (qh == level_end) {
            d++;
            level_end = qt;
        }
    }
    return INT32_MAX;
}

/* Number of simple s->t paths of length exactly L, counting stops once
 * `need` are found (the result may then exceed need).  Paths shorter than
 * L are not counted.  *next gets a lower bound on the length of every
 * simple s->t path longer than L (INT32_MAX: there is none), valid when the
 * count stayed below need: a path the search abandoned at the arc v->u
 * (depth l) because l + 1 + d(u,t) > L is at least that long; one through
 * a zero-slack shortcut is at least L + 1.  Requires d(s,t) <= L, s != t,
 * and *next = INT32_MAX on entry. */
static uint64_t count_exact(ksp_ws_t *w, tk_id_t s, tk_id_t t, int32_t L, uint64_t need,
                            int32_t *next)
{
    const int32_t *dt = w->dt;
    uint64_t count = 0;

    if (dt[s] == L) {
        /* Zero slack at the root: the shortest paths. */
        *next = L + 1;
        return w->sig[s];
    }
    int32_t depth = 0;
    w->node[0] = s;
    w->pos[0] = sorted_arcs(w, s, &w->pend[0]);
    w->mind[0] = INT32_MAX;
    w->onpath[s] = 1;
    while (depth >= 0) {
        tk_id_t v = w->node[depth];
        int64_t end = w->pend[depth];
        if (w->pos[depth] == end) {
            w->onpath[v] = 0;
            depth--;
            continue;
        }
        tk_id_t u = w->shead[w->pos[depth]++];
        int32_t du = dt[u];
        int32_t rem1 = L - depth - 1; /* budget left after the arc v->u */
        w->steps++;
        if (du > rem1) {
            /* Sorted by d: every later arc is beyond the bound too, and
             * this one gives the smallest bound among them. */
            if (depth + 1 + du < *next)
                *next = depth + 1 + du;
            w->pos[depth] = end;
            continue;
        }
        if (u == t) {
            if (rem1 == 0 && ++count >= need)
                break;
            continue;
        }
        if (w->onpath[u])
            continue;
        int32_t m = w->mind[depth] < dt[v] ? w->mind[depth] : dt[v];
        if (du == rem1 && m >= du) {
            if (L + 1 < *next)
                *next = L + 1;
            count = sat_add(count, w->sig[u]);
            if (count >= need)
                break;
            continue;
        }
        if (!w->check && w->steps > w->budget)
            w->check = 1;
        if (w->check) {
            /* Past the budget: descend only where t can still be reached
             * without the switches of the path, within the bound (the
             * remaining completions are then at least that long). */
            int32_t fd = free_dist(w, u, t, w->n);
            if (fd == INT32_MAX)
                continue;
            if (fd > rem1) {
                if (depth + 1 + fd < *next)
                    *next = depth + 1 + fd;
                continue;
            }
        }
        depth++;
        w->node[depth] = u;
        w->pos[depth] = sorted_arcs(w, u, &w->pend[depth]);
        w->mind[depth] = m;
        w->onpath[u] = 1;
    }
    for (; depth >= 0; depth--)
        w->onpath[w->node[depth]] = 0;
    return count;
}

/* k shortest simple paths of (s, t): fold their lengths into w->r. */
static void ksp_pair(ksp_ws_t *w, tk_id_t s, tk_id_t t, int32_t k)
{
    tk_ksp_result_t *r = &w->r;
    if (w->dt[s] == TK_INF) {
        r->short_pairs++;
        return;
    }
    uint64_t have = 0;
    int32_t L = w->dt[s];
    w->check = 0;
    w->steps = 0;
    w->budget = (int64_t)w->n + w->g->m;
    for (;;) {
        int32_t next = INT32_MAX;
        uint64_t need = (uint64_t)k - have;
        uint64_t c = count_exact(w, s, t, L, need, &next);
        uint64_t take = c < need ? c : need;
        have += take;
        r->len_sum += (u128)take * (u128)L;
        r->len_hist[L] += take;
        if (have == (uint64_t)k)
            break;
        /* No simple path is longer than n - 1 hops. */
        if (next == INT32_MAX || next > w->n - 1) {
            r->short_pairs++;
            break;
        }
        L = next; /* > L; no simple path has a length in between */
    }
    r->paths += have;
}

/* Simple s->t paths of at most H hops, with the target tables: depth-first
 * search pruned by l + d(v,t) <= H, zero-slack completions counted by
 * sigma_t. */
static uint64_t count_upto(ksp_ws_t *w, tk_id_t s, tk_id_t t, int32_t H)
{
    const int32_t *dt = w->dt;
    if (dt[s] > H)
        return 0;
    if (dt[s] == H)
        return w->sig[s];
    uint64_t count = 0;
    int32_t depth = 0;
    w->node[0] = s;
    w->pos[0] = sorted_arcs(w, s, &w->pend[0]);
    w->mind[0] = INT32_MAX;
    w->onpath[s] = 1;
    while (depth >= 0) {
        tk_id_t v = w->node[depth];
        int64_t end = w->pend[depth];
        if (w->pos[depth] == end) {
            w->onpath[v] = 0;
            depth--;
            continue;
        }
        tk_id_t u = w->shead[w->pos[depth]++];
        int32_t du = dt[u];
        int32_t rem1 = H - depth - 1;
        if (du > rem1) {
            w->pos[depth] = end;
            continue;
        }
        if (u == t) {
            count++;
            continue;
        }
        if (w->onpath[u])
            continue;
        int32_t m = w->mind[depth] < dt[v] ? w->mind[depth] : dt[v];
        if (du == rem1 && m >= du) {
            count = sat_add(count, w->sig[u]);
            continue;
        }
        depth++;
        w->node[depth] = u;
        w->pos[depth] = sorted_arcs(w, u, &w->pend[depth]);
        w->mind[depth] = m;
        w->onpath[u] = 1;
    }
    return count;
}

static void allpath_fold(tk_ksp_result_t *r, uint64_t c)
{
    if (c < r->allpath_min)
        r->allpath_min = c;
    if (c > r->allpath_max)
        r->allpath_max = c;
    r->allpath_sum += c;
}

/* ALLPATH(H) from one source to every target: depth-first search of depth
 * H over the out-arcs; every partial simple path s..v is one path to v. */
static void allpath_source(ksp_ws_t *w, const tk_graph_t *g, tk_id_t s, int32_t H)
{
    const tk_id_t n = g->n;
    uint64_t *cnt = w->cnt;
    memset(cnt, 0, (size_t)n * sizeof *cnt);
    int32_t depth = 0;
    w->node[0] = s;
    w->pos[0] = g->off[s];
    w->onpath[s] = 1;
    while (depth >= 0) {
        tk_id_t v = w->node[depth];
        int64_t end = g->off[v + 1];
        if (depth == H - 1) {
            /* Last hop: count the arrivals without descending. */
            for (int64_t a = w->pos[depth]; a < end; a++) {
                tk_id_t u = g->head[a];
                cnt[u] += !w->onpath[u];
            }
            w->pos[depth] = end;
        }
        if (w->pos[depth] == end) {
            w->onpath[v] = 0;
            depth--;
            continue;
        }
        tk_id_t u = g->head[w->pos[depth]++];
        if (w->onpath[u])
            continue;
        cnt[u]++;
        depth++;
        w->node[depth] = u;
        w->pos[depth] = g->off[u];
        w->onpath[u] = 1;
    }
    for (tk_id_t t = 0; t < n; t++)
        if (t != s)
            allpath_fold(&w->r, cnt[t]);
}

/* Raw H-hop paths (walks of exactly H arcs) from x to every switch along
 * the arcs of g: H sparse vector-matrix products.  Returns the count vector
 * (w->cnt or w->cnt2); sets w->overflow on 64-bit overflow. */
static uint64_t *raw_walks(ksp_ws_t *w, const tk_graph_t *g, tk_id_t x, int32_t H)
{
    const tk_id_t n = g->n;
    uint64_t *cur = w->cnt, *nxt = w->cnt2;
    memset(cur, 0, (size_t)n * sizeof *cur);
    cur[x] = 1;
    for (int32_t h = 0; h < H; h++) {
        memset(nxt, 0, (size_t)n * sizeof *nxt);
        for (tk_id_t v = 0; v < n; v++) {
            uint64_t c = cur[v];
            if (!c)
                continue;
            for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
                uint64_t *p = &nxt[g->head[a]];
                if (__builtin_add_overflow(*p, c, p))
                    w->overflow = 1;
            }
        }
        uint64_t *tmp = cur;
        cur = nxt;
        nxt = tmp;
    }
    return cur;
}

/* to += from: sums, minimum and maximum; to's histogram grows to from's
 * length.  -1 when out of memory (to unchanged). */
static int merge(tk_ksp_result_t *to, const tk_ksp_result_t *from)
{
    if (from->len_hist_len > to->len_hist_len) {
        uint64_t *h = tk_realloc_array(to->len_hist, (size_t)from->len_hist_len, sizeof *h);
        if (!h)
            return -1;
        memset(h + to->len_hist_len, 0,
               (size_t)(from->len_hist_len - to->len_hist_len) * sizeof *h);
        to->len_hist = h;
        to->len_hist_len = from->len_hist_len;
    }
    to->pairs += from->pairs;
    to->short_pairs += from->short_pairs;
    to->paths += from->paths;
    to->len_sum += from->len_sum;
    for (int32_t L = 0; L < from->len_hist_len; L++)
        to->len_hist[L] += from->len_hist[L];
    if (from->allpath_min < to->allpath_min)
        to->allpath_min = from->allpath_min;
    if (from->allpath_max > to->allpath_max)
        to->allpath_max = from->allpath_max;
    to->allpath_sum += from->allpath_sum;
    return 0;
}

tk_status_t tk_ksp_result_merge(tk_ksp_result_t *to, const tk_ksp_result_t *from, tk_error_t *err)
{
    if (!to || !from)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_ksp_result_merge: NULL argument");
    if (merge(to, from) != 0)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (length histogram)");
    return TK_OK;
}

void tk_ksp_result_destroy(tk_ksp_result_t *r)
{
    if (!r)
        return;
    free(r->len_hist);
    memset(r, 0, sizeof *r);
}

static int cmp_pair(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* tk_ksp: see tk_paths.h. */
static tk_status_t check_opts(const tk_graph_t *g, const tk_ksp_opts_t *opts, tk_error_t *err)
{
    if (opts->k < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "k=%ld: must not be negative", (long)opts->k);
    if (opts->allpath_h < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "H=%ld: must not be negative",
                            (long)opts->allpath_h);
    if (opts->k == 0 && opts->allpath_h == 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "k=0 and H=0: nothing to compute");
    if (g->n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "empty graph");
    if (opts->sample && g->n < 2)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "pairs: cannot sample pairs of a graph with one switch");
    return TK_OK;
}

/* opts->sample ordered pairs s != t drawn uniformly with replacement
 * (stream (seed, 0)), as t << 32 | s sorted, grouped by target: group i
 * is pairs[gstart[i] .. gstart[i+1]-1], *ngroups groups. */
static tk_status_t sample_pairs(const tk_ksp_opts_t *opts, tk_id_t n, uint64_t **pairs,
                                int64_t **gstart, int64_t *ngroups, tk_error_t *err)
{
    uint64_t *p = tk_malloc_array((size_t)opts->sample, sizeof *p);
    int64_t *gs = tk_malloc_array((size_t)opts->sample + 1, sizeof *gs);
    tk_rng_t *rng = NULL;
    tk_status_t st;

    *pairs = p;
    *gstart = gs;
    if (!p || !gs)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "pairs=%llu: out of memory",
                            (unsigned long long)opts->sample);
    st = tk_rng_new(&rng, opts->seed, 0, err);
    if (st != TK_OK)
        return st;
    for (uint64_t i = 0; i < opts->sample; i++) {
        uint64_t s = tk_rng_below(rng, (uint64_t)n);
        uint64_t t = tk_rng_below(rng, (uint64_t)n - 1);
        if (t >= s)
            t++;
        p[i] = t << 32 | s;
    }
    tk_rng_free(rng);
    qsort(p, (size_t)opts->sample, sizeof *p, cmp_pair);
    for (uint64_t i = 0; i < opts->sample; i++)
        if (i == 0 || p[i] >> 32 != p[i - 1] >> 32)
            gs[(*ngroups)++] = (int64_t)i;
    gs[*ngroups] = (int64_t)opts->sample;
    return TK_OK;
}

struct tk_ksp_plan {
    const tk_graph_t *g;
    tk_graph_t *rg;     /* reversed graph (directed g), or NULL     */
    tk_ksp_opts_t opts; /* a copy                                   */
    uint64_t *pairs;    /* sampled pairs, t << 32 | s, sorted       */
    int64_t *gstart;    /* group boundaries (one group per target)  */
    int64_t ngroups;    /* groups                                   */
    int64_t units;      /* work units                               */
};

/* Unit u: a sampled pairs' target group, or (all pairs) target u for the k
 * shortest paths (u < n when k > 0), then source u - n (or u) for
 * ALLPATH(H); into w->r.  rv: the graph whose out-arcs are g's in-arcs.
 * All-pairs units count their pairs: the k-shortest units when k > 0,
 * else the ALLPATH ones. */
static void plan_unit(ksp_ws_t *w, const tk_ksp_plan_t *p, int64_t u)
{
    const tk_graph_t *g = p->g, *rv = p->rg ? p->rg : p->g;
    const tk_ksp_opts_t *opts = &p->opts;
    const tk_id_t n = g->n;
    const int32_t k = opts->k, H = opts->allpath_h;

    if (opts->sample) {
        const uint64_t *pairs = p->pairs;
        const int64_t *gstart = p->gstart;
        tk_id_t t = (tk_id_t)(pairs[gstart[u]] >> 32);
        const uint64_t *raw = NULL;
        if (k > 0 || (H > 0 && !opts->allpath_raw))
            target_setup(w, rv, t);
        if (H > 0 && opts->allpath_raw)
            raw = raw_walks(w, rv, t, H); /* walks into t */
        for (int64_t i = gstart[u]; i < gstart[u + 1]; i++) {
            tk_id_t s = (tk_id_t)(pairs[i] & 0xffffffffu);
            w->r.pairs++;
            if (k > 0)
                ksp_pair(w, s, t, k);
            if (H > 0)
                allpath_fold(&w->r, raw ? raw[s] : count_upto(w, s, t, H));
        }
        tk_progress_add(opts->progress, gstart[u + 1] - gstart[u]);
        return;
    }
    if (k > 0 && u < n) {
        tk_id_t t = (tk_id_t)u;
        target_setup(w, rv, t);
        for (tk_id_t s = 0; s < n; s++)
            if (s != t)
                ksp_pair(w, s, t, k);
        w->r.pairs += (uint64_t)(n - 1);
        tk_progress_add(opts->progress, n - 1);
        return;
    }
    tk_id_t s = (tk_id_t)(k > 0 ? u - n : u);
    if (opts->allpath_raw) {
        const uint64_t *raw = raw_walks(w, g, s, H);
        for (tk_id_t t = 0; t < n; t++)
            if (t != s)
                allpath_fold(&w->r, raw[t]);
    } else {
        allpath_source(w, g, s, H);
    }
    if (k == 0)
        w->r.pairs += (uint64_t)(n - 1);
    tk_progress_add(opts->progress, n - 1);
}

tk_status_t tk_ksp_plan_new(const tk_graph_t *g, const tk_ksp_opts_t *opts, tk_ksp_plan_t **out,
                            tk_error_t *err)
{
    if (!g || !opts || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_ksp_plan_new: NULL argument");
    *out = NULL;
    tk_status_t st = check_opts(g, opts, err);
    if (st != TK_OK)
        return st;
    tk_ksp_plan_t *p = calloc(1, sizeof *p);
    if (!p)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (k-shortest plan)");
    p->g = g;
    p->opts = *opts;
    if (g->directed && (opts->k > 0 || opts->sample) && /* in-arcs of the targets */
        (st = tk_graph_reverse(g, &p->rg, err)) != TK_OK)
        goto fail;
    if (opts->sample) {
        if ((st = sample_pairs(opts, g->n, &p->pairs, &p->gstart, &p->ngroups, err)) != TK_OK)
            goto fail;
        p->units = p->ngroups;
    } else {
        p->units = (opts->k > 0 ? (int64_t)g->n : 0) + (opts->allpath_h > 0 ? (int64_t)g->n : 0);
    }
    *out = p;
    return TK_OK;
fail:
    tk_ksp_plan_free(p);
    return st;
}

void tk_ksp_plan_free(tk_ksp_plan_t *p)
{
    if (!p)
        return;
    tk_graph_free(p->rg);
    free(p->pairs);
    free(p->gstart);
    free(p);
}

int64_t tk_ksp_plan_units(const tk_ksp_plan_t *p)
{
    return p ? p->units : 0;
}

tk_status_t tk_ksp_plan_run(const tk_ksp_plan_t *p, int64_t lo, int64_t hi, int threads,
                            tk_ksp_result_t *out, tk_error_t *err)
{
    if (!p || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_ksp_plan_run: NULL argument");
    memset(out, 0, sizeof *out);
    if (lo < 0 || hi > p->units || lo > hi)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_ksp_plan_run: units [%lld, %lld) of %lld",
                            (long long)lo, (long long)hi, (long long)p->units);
    const tk_id_t n = p->g->n;
    int nt = 1;
#ifdef _OPENMP
    nt = threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
#endif
    if (nt > hi - lo)
        nt = hi - lo > 0 ? (int)(hi - lo) : 1;
    out->allpath_min = UINT64_MAX;
    int failed = 0, overflow = 0;

#pragma omp parallel num_threads(nt)
    {
        ksp_ws_t w;
        int ok = ws_alloc(&w, p->g) == 0;
        if (!ok)
            __atomic_store_n(&failed, 1, __ATOMIC_RELAXED);
#pragma omp for schedule(dynamic, 1)
        for (int64_t u = lo; u < hi; u++)
            if (ok && !__atomic_load_n(&failed, __ATOMIC_RELAXED))
                plan_unit(&w, p, u);
#pragma omp critical
        {
            if (ok && !failed && merge(out, &w.r) != 0)
                failed = 1;
            if (w.overflow)
                overflow = 1;
        }
        ws_free(&w);
    }
    tk_status_t st = TK_OK;
    if (failed)
        st =
            tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%ld, threads=%d)", (long)n, nt);
    else if (overflow)
        st = tk_error_set(err, TK_ERANGE, NULL, 0, "H=%ld: a raw-path count exceeds 2^64-1",
                          (long)p->opts.allpath_h);
    if (st != TK_OK) {
        tk_ksp_result_destroy(out);
        return st;
    }
    while (out->len_hist_len > 0 && out->len_hist[out->len_hist_len - 1] == 0)
        out->len_hist_len--;
    return TK_OK;
}

void tk_ksp_result_finish(const tk_ksp_plan_t *p, tk_ksp_result_t *r)
{
    if (!p || !r)
        return;
    while (r->len_hist_len > 0 && r->len_hist[r->len_hist_len - 1] == 0)
        r->len_hist_len--;
    if (p->opts.allpath_h == 0 || r->pairs == 0)
        r->allpath_min = 0;
}

tk_status_t tk_ksp(const tk_graph_t *g, const tk_ksp_opts_t *opts, tk_ksp_result_t *out,
                   tk_error_t *err)
{
    if (!g || !opts || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_ksp: NULL argument");
    memset(out, 0, sizeof *out);

    tk_ksp_plan_t *p = NULL;
    tk_status_t st = tk_ksp_plan_new(g, opts, &p, err);
    if (st != TK_OK)
        return st;
    const tk_id_t n = g->n;
    int64_t npairs = (int64_t)n * (n - 1);
    tk_progress_begin(opts->progress, "paths", "pairs",
                      opts->sample
                          ? (int64_t)opts->sample
                          : (opts->k > 0 ? npairs : 0) + (opts->allpath_h > 0 ? npairs : 0));
    st = tk_ksp_plan_run(p, 0, p->units, opts->threads, out, err);
    tk_progress_end(opts->progress);
    if (st == TK_OK)
        tk_ksp_result_finish(p, out);
    tk_ksp_plan_free(p);
    return st;
}
