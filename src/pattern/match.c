/*
 * match.c - perm-distance (a perfect matching in the bipartite graph
 * u -> v with D(u,v) = lambda, Hopcroft-Karp) and longest-matching (a
 * permutation of the switches of largest total distance: the assignment
 * problem, Hungarian algorithm with potentials, O(n^3)).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "pattern_internal.h"

/* OpenMP thread count for a request (0 = runtime default). */
static int tkp_threads(int want) __attribute__((unused));
static int tkp_threads(int want)
{
#ifdef _OPENMP
    return want > 0 ? want : omp_get_max_threads();
#else
    return want > 0 ? want : 1;
#endif
}

/* ------------------------------------------------------------------------ */
/* perm-distance */

/* Hopcroft-Karp on a bipartite graph given as CSR (left u -> right adj[]).
 * mate_l[u] / mate_r[v] = partner or -1.  O(E sqrt(V)). */
typedef struct hk {
    tk_id_t n;
    const int64_t *off;
    const tk_id_t *adj;
    tk_id_t *mate_l, *mate_r;
    int32_t *dist;
    tk_id_t *queue;
    int64_t *it; /* DFS iterators */
    tk_id_t *stack;
} hk_t;

#define HK_INF INT32_MAX

static int hk_bfs(hk_t *h)
{
    tk_id_t qh = 0, qt = 0;
    int found = 0;

    for (tk_id_t u = 0; u < h->n; u++) {
        if (h->mate_l[u] < 0) {
            h->dist[u] = 0;
            h->queue[qt++] = u;
        } else {
            h->dist[u] = HK_INF;
        }
    }
    while (qh < qt) {
        tk_id_t u = h->queue[qh++];
        for (int64_t a = h->off[u]; a < h->off[u + 1]; a++) {
            tk_id_t w = h->mate_r[h->adj[a]];
            if (w < 0)
                found = 1;
            else if (h->dist[w] == HK_INF) {
                h->dist[w] = h->dist[u] + 1;
                h->queue[qt++] = w;
            }
        }
    }
    return found;
}

/* Iterative DFS along the BFS layers from free left vertex root. */
static int hk_dfs(hk_t *h, tk_id_t root)
{
    int32_t sp = 0;

    h->stack[sp++] = root;
    while (sp > 0) {
        tk_id_t u = h->stack[sp - 1];
        int advanced = 0;
        for (; h->it[u] < h->off[u + 1]; h->it[u]++) {
            tk_id_t v = h->adj[h->it[u]];
            tk_id_t w = h->mate_r[v];
            if (w < 0) {
                /* Augment along the stack. */
                for (int32_t k = sp - 1; k >= 0; k--) {
                    tk_id_t x = h->stack[k];
                    tk_id_t y = h->adj[h->it[x]];
                    tk_id_t prev = h->mate_l[x];
                    h->mate_l[x] = y;
                    h->mate_r[y] = x;
                    (void)prev;
                }
                return 1;
            }
            if (h->dist[w] == h->dist[u] + 1) {
                h->stack[sp++] = w;
                advanced = 1;
                break;
            }
        }
        if (!advanced) {
            h->dist[u] = HK_INF; /* dead end */
            sp--;
            if (sp > 0)
                h->it[h->stack[sp - 1]]++;
        }
    }
    return 0;
}

static int64_t hk_run(hk_t *h)
{
    int64_t size = 0;

    for (tk_id_t u = 0; u < h->n; u++)
        size += h->mate_l[u] >= 0;
    while (hk_bfs(h)) {
        for (tk_id_t u = 0; u < h->n; u++)
            h->it[u] = h->off[u];
        for (tk_id_t u = 0; u < h->n; u++)
            if (h->mate_l[u] < 0 && hk_dfs(h, u))
                size++;
    }
    return size;
}

/* The switches at distance exactly lambda from u, by a breadth-first
 * search cut at depth lambda: O(size of the ball of radius lambda), not
 * O(n + m).  stamp[] (n entries, zero at first) marks visits with u + 1,
 * so nothing is cleared between sources; queue[] has n entries.  The
 * sphere is left in queue[*first .. *last - 1]. */
static void sphere(const tk_graph_t *g, tk_id_t u, int64_t lambda, int32_t *stamp, tk_id_t *queue,
                   int64_t *first, int64_t *last)
{
    int64_t head = 0, tail = 0, level_end;
    stamp[u] = u + 1;
    queue[tail++] = u;
    for (int64_t d = 0; d < lambda && head < tail; d++) {
        level_end = tail;
        for (; head < level_end; head++) {
            tk_id_t x = queue[head];
            for (int64_t a = g->off[x]; a < g->off[x + 1]; a++) {
                tk_id_t v = g->head[a];
                if (stamp[v] != u + 1) {
                    stamp[v] = u + 1;
                    queue[tail++] = v;
                }
            }
        }
    }
    *first = head;
    *last = tail;
}

/* perm-distance lambda=L: a perfect matching of u -> v with D(u,v) = L. */
tk_status_t tkp_gen_perm_distance(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_id_t n = g->n;
    int64_t lambda;
    tk_level_t level;
    int64_t *cnt = NULL, *off = NULL, *map = NULL;
    tk_id_t *adj = NULL, **lists = NULL;
    hk_t h;
    tk_status_t st;
    int fail = 0;

    memset(&h, 0, sizeof h);
    m->randomized = 1;
    st = tk_kv_int(m->kv, "lambda", 1, INT32_MAX - 1, 0, 0, &lambda, err);
    if (st)
        return st;
    tkp_spec_add(m, "lambda=%" PRId64, lambda);
    st = tkp_level(m, TK_LEVEL_SERVER, &level, err);
    if (st)
        return st;
    cnt = tk_calloc_array((size_t)n + 1, sizeof *cnt);
    lists = tk_calloc_array((size_t)n, sizeof *lists);
    if (!cnt || !lists) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    /* One depth-limited search per switch: the switches at distance
     * exactly lambda, shuffled with the stream (seed, u) so that the
     * matching depends on the seed and never on the thread count. */
#pragma omp parallel num_threads(tkp_threads(m->threads)) reduction(| : fail) if (n > 64)
    {
        int32_t *stamp = tk_calloc_array((size_t)n, sizeof *stamp);
        tk_id_t *queue = tk_malloc_array((size_t)n, sizeof *queue);
        if (!stamp || !queue)
            fail = 1;
#pragma omp for schedule(dynamic, 64)
        for (tk_id_t u = 0; u < n; u++) {
            if (!stamp || !queue || fail)
                continue;
            tk_rng_t *r = NULL;
            int64_t first, last;
            if (tk_rng_new(&r, m->seed, (uint64_t)u, NULL)) {
                fail = 1;
                continue;
            }
            sphere(g, u, lambda, stamp, queue, &first, &last);
            int64_t k = last - first;
            lists[u] = tk_malloc_array((size_t)(k ? k : 1), sizeof **lists);
            if (!lists[u]) {
                fail = 1;
                tk_rng_free(r);
                continue;
            }
            memcpy(lists[u], queue + first, (size_t)k * sizeof **lists);
            for (int64_t i = k - 1; i > 0; i--) {
                int64_t j = (int64_t)tk_rng_below(r, (uint64_t)i + 1);
                tk_id_t t = lists[u][i];
                lists[u][i] = lists[u][j];
                lists[u][j] = t;
            }
            cnt[u + 1] = k;
            tk_rng_free(r);
        }
        free(stamp);
        free(queue);
    }
    if (fail) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (tk_id_t u = 0; u < n; u++)
        cnt[u + 1] += cnt[u];
    off = cnt;
    cnt = NULL;
    adj = tk_malloc_array((size_t)(off[n] ? off[n] : 1), sizeof *adj);
    h.mate_l = tk_malloc_array((size_t)n, sizeof *h.mate_l);
    h.mate_r = tk_malloc_array((size_t)n, sizeof *h.mate_r);
    h.dist = tk_malloc_array((size_t)n, sizeof *h.dist);
    h.queue = tk_malloc_array((size_t)n, sizeof *h.queue);
    h.it = tk_malloc_array((size_t)n, sizeof *h.it);
    h.stack = tk_malloc_array((size_t)n + 1, sizeof *h.stack);
    map = tk_malloc_array((size_t)n, sizeof *map);
    if (!adj || !h.mate_l || !h.mate_r || !h.dist || !h.queue || !h.it || !h.stack || !map) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (tk_id_t u = 0; u < n; u++) {
        memcpy(adj + off[u], lists[u], (size_t)(off[u + 1] - off[u]) * sizeof *adj);
        free(lists[u]);
        lists[u] = NULL;
    }
    h.n = n;
    h.off = off;
    h.adj = adj;
    for (tk_id_t u = 0; u < n; u++)
        h.mate_l[u] = h.mate_r[u] = -1;
    /* Greedy start in a seeded random order of the left side. */
    {
        int64_t *order = map; /* reused as scratch */
        st = tkp_random_perm(m->seed, (uint64_t)n + 1, n, 0, order, err);
        if (st)
            goto done;
        for (tk_id_t i = 0; i < n; i++) {
            tk_id_t u = (tk_id_t)order[i];
            for (int64_t a = off[u]; a < off[u + 1]; a++)
                if (h.mate_r[adj[a]] < 0) {
                    h.mate_l[u] = adj[a];
                    h.mate_r[adj[a]] = u;
                    break;
                }
        }
    }
    int64_t size = hk_run(&h);
    if (size < n) {
        /* Only now the radius, for the message (bit-parallel all-pairs). */
        char why[160] = "";
        tk_dist_opts_t dopts;
        tk_dist_summary_t ds;
        memset(&dopts, 0, sizeof dopts);
        dopts.threads = m->threads;
        st = tk_dist_summary(g, &dopts, &ds, err);
        if (st)
            goto done;
        int32_t radius = ds.radius;
        tk_dist_summary_destroy(&ds);
        if (radius == TK_INF)
            snprintf(why, sizeof why, " (the topology is not connected)");
        else if (lambda > radius)
            snprintf(why, sizeof why,
                     ": lambda exceeds the radius %" PRId32
                     " (some switch has no switch at that distance)",
                     radius);
        else
            snprintf(why, sizeof why,
                     " (radius %" PRId32 "; the largest matching at distance "
                     "%" PRId64 " covers %" PRId64 " of %" PRId64 " switches)",
                     radius, lambda, size, (int64_t)n);
        st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                          "lambda=%" PRId64 ": no permutation of the switches at distance %" PRId64
                          " exists%s",
                          lambda, lambda, why);
        goto done;
    }
    for (tk_id_t u = 0; u < n; u++)
        map[u] = h.mate_l[u];
    st = tkp_begin(m, level, err);
    if (!st)
        st = tkp_add_switch_map(m, level, map, err);
done:
    if (lists)
        for (tk_id_t u = 0; u < n; u++)
            free(lists[u]);
    free(lists);
    free(cnt);
    free(off);
    free(adj);
    free(map);
    free(h.mate_l);
    free(h.mate_r);
    free(h.dist);
    free(h.queue);
    free(h.it);
    free(h.stack);
    return st;
}

/* ------------------------------------------------------------------------ */
/* longest-matching */

#define LM_MAX_N 4096

tk_status_t tkp_gen_longest_matching(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_id_t n = g->n;
    tk_level_t level;
    int32_t *D = NULL;
    int64_t *u = NULL, *v = NULL, *minv = NULL, *map = NULL;
    int *p = NULL, *way = NULL;
    char *used = NULL;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);
    int fail = 0;

    if (st)
        return st;
    if (n > LM_MAX_N)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "longest-matching: n=%" PRId64 " switches is over the limit of %d "
                            "of the exact O(n^3) assignment",
                            (int64_t)n, LM_MAX_N);
    D = tk_malloc_array((size_t)n * (size_t)n, sizeof *D);
    if (!D)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
#pragma omp parallel num_threads(tkp_threads(m->threads)) reduction(| : fail) if (n > 64)
    {
#pragma omp for schedule(dynamic, 8)
        for (tk_id_t s = 0; s < n; s++)
            if (tk_bfs(g, s, D + (size_t)s * n, NULL) != TK_OK)
                fail = 1;
    }
    if (fail) {
        free(D);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (size_t k = 0; k < (size_t)n * n; k++)
        if (D[k] == TK_INF) {
            free(D);
            return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                "longest-matching: the topology is not connected");
        }
    /* Hungarian algorithm (potentials, 1-based), minimising -D. */
    u = tk_calloc_array((size_t)n + 1, sizeof *u);
    v = tk_calloc_array((size_t)n + 1, sizeof *v);
    minv = tk_malloc_array((size_t)n + 1, sizeof *minv);
    p = tk_calloc_array((size_t)n + 1, sizeof *p);
    way = tk_calloc_array((size_t)n + 1, sizeof *way);
    used = tk_malloc_array((size_t)n + 1, 1);
    map = tk_malloc_array((size_t)n, sizeof *map);
    if (!u || !v || !minv || !p || !way || !used || !map) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int i = 1; i <= n; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= n; j++) {
            minv[j] = INT64_MAX;
            used[j] = 0;
        }
        do {
            used[j0] = 1;
            int i0 = p[j0], j1 = 0;
            int64_t delta = INT64_MAX;
            const int32_t *row = D + (size_t)(i0 - 1) * n;
            for (int j = 1; j <= n; j++) {
                if (used[j])
                    continue;
                int64_t cur = -(int64_t)row[j - 1] - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= n; j++) {
                if (used[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    int64_t total = 0;
    for (int j = 1; j <= n; j++) {
        map[p[j] - 1] = j - 1;
        total += D[(size_t)(p[j] - 1) * n + (j - 1)];
    }
    tkp_spec_add(m, "total=%" PRId64, total);
    st = tkp_begin(m, level, err);
    if (!st)
        st = tkp_add_switch_map(m, level, map, err);
done:
    free(D);
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
    free(map);
    return st;
}
