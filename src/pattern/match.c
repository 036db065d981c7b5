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

/* Every switch's candidates: lists[u] (allocated here, cnt[u + 1] entries)
 * holds the switches at distance exactly lambda from u, shuffled with the
 * stream (seed, u) so that the matching depends on the seed and never on
 * the thread count.  One depth-limited search per switch, in parallel.
 * Returns 0 or -1 (out of memory). */
static int sphere_lists(const tk_graph_t *g, int64_t lambda, uint64_t seed, int threads,
                        int64_t *cnt, tk_id_t **lists)
{
    tk_id_t n = g->n;
    int fail = 0;

#pragma omp parallel num_threads(tkp_threads(threads)) reduction(| : fail) if (n > 64)
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
            if (tk_rng_new(&r, seed, (uint64_t)u, NULL)) {
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
    return fail ? -1 : 0;
}

/* Hopcroft-Karp's graph u -> lists[u] as CSR in adj (off: prefix sums;
 * each list is freed once copied), with nobody matched. */
static void hk_load(hk_t *h, tk_id_t n, const int64_t *off, tk_id_t *adj, tk_id_t **lists)
{
    for (tk_id_t u = 0; u < n; u++) {
        memcpy(adj + off[u], lists[u], (size_t)(off[u + 1] - off[u]) * sizeof *adj);
        free(lists[u]);
        lists[u] = NULL;
    }
    h->n = n;
    h->off = off;
    h->adj = adj;
    for (tk_id_t u = 0; u < n; u++)
        h->mate_l[u] = h->mate_r[u] = -1;
}

/* Greedy start: the left side in a random order of stream (seed, n + 1),
 * each matched to its first free candidate.  order: n of work. */
static tk_status_t hk_greedy(hk_t *h, uint64_t seed, int64_t *order, tk_error_t *err)
{
    tk_status_t st = tkp_random_perm(seed, (uint64_t)h->n + 1, h->n, 0, order, err);

    if (st)
        return st;
    for (tk_id_t i = 0; i < h->n; i++) {
        tk_id_t u = (tk_id_t)order[i];
        for (int64_t a = h->off[u]; a < h->off[u + 1]; a++)
            if (h->mate_r[h->adj[a]] < 0) {
                h->mate_l[u] = h->adj[a];
                h->mate_r[h->adj[a]] = u;
                break;
            }
    }
    return TK_OK;
}

/* TK_EUNSUPPORTED: no perfect matching at distance lambda (the largest
 * covers size switches), with the reason: only now the radius is computed
 * (bit-parallel all-pairs). */
static tk_status_t no_perm_error(const tkp_mk_t *m, int64_t lambda, int64_t size, tk_error_t *err)
{
    char why[160] = "";
    tk_dist_opts_t dopts;
    tk_dist_summary_t ds;
    tk_status_t st;

    memset(&dopts, 0, sizeof dopts);
    dopts.threads = m->threads;
    st = tk_dist_summary(m->g, &dopts, &ds, err);
    if (st)
        return st;
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
                 radius, lambda, size, (int64_t)m->g->n);
    return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                        "lambda=%" PRId64 ": no permutation of the switches at distance %" PRId64
                        " exists%s",
                        lambda, lambda, why);
}

/* perm-distance lambda=L: a perfect matching of u -> v with D(u,v) = L. */
tk_status_t tkp_gen_perm_distance(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_id_t n = g->n;
    int64_t lambda, size;
    tk_level_t level;
    int64_t *cnt = NULL, *off = NULL, *map = NULL;
    tk_id_t *adj = NULL, **lists = NULL;
    hk_t h;
    tk_status_t st;

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
    if (!cnt || !lists || sphere_lists(g, lambda, m->seed, m->threads, cnt, lists) != 0) {
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
    hk_load(&h, n, off, adj, lists);
    if ((st = hk_greedy(&h, m->seed, map, err)) != TK_OK) /* map: scratch */
        goto done;
    size = hk_run(&h);
    if (size < n) {
        st = no_perm_error(m, lambda, size, err);
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

/* The n x n distance matrix (*D, allocated here), one BFS per switch in
 * parallel; TK_EDISCONNECTED when some distance is infinite. */
static tk_status_t all_distances(const tk_graph_t *g, int threads, int32_t **D, tk_error_t *err)
{
    tk_id_t n = g->n;
    int32_t *d = tk_malloc_array((size_t)n * (size_t)n, sizeof *d);
    int fail = 0;

    *D = NULL;
    if (!d)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
#pragma omp parallel num_threads(tkp_threads(threads)) reduction(| : fail) if (n > 64)
    {
#pragma omp for schedule(dynamic, 8)
        for (tk_id_t s = 0; s < n; s++)
            if (tk_bfs(g, s, d + (size_t)s * n, NULL) != TK_OK)
                fail = 1;
    }
    if (fail) {
        free(d);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (size_t k = 0; k < (size_t)n * n; k++)
        if (d[k] == TK_INF) {
            free(d);
            return tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                                "longest-matching: the topology is not connected");
        }
    *D = d;
    return TK_OK;
}

/* The assignment of largest total distance: the Hungarian algorithm with
 * potentials (1-based), minimising -D.  map[s] = the switch s sends to;
 * *total its distance sum.  Returns 0 or -1 (out of memory).  O(n^3). */
static int max_assignment(const int32_t *D, tk_id_t n, int64_t *map, int64_t *total)
{
    int64_t *u = tk_calloc_array((size_t)n + 1, sizeof *u);
    int64_t *v = tk_calloc_array((size_t)n + 1, sizeof *v);
    int64_t *minv = tk_malloc_array((size_t)n + 1, sizeof *minv);
    int *p = tk_calloc_array((size_t)n + 1, sizeof *p);
    int *way = tk_calloc_array((size_t)n + 1, sizeof *way);
    char *used = tk_malloc_array((size_t)n + 1, 1);
    int res = -1;

    if (!u || !v || !minv || !p || !way || !used)
        goto done;
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
    *total = 0;
    for (int j = 1; j <= n; j++) {
        map[p[j] - 1] = j - 1;
        *total += D[(size_t)(p[j] - 1) * n + (j - 1)];
    }
    res = 0;
done:
    free(u);
    free(v);
    free(minv);
    free(p);
    free(way);
    free(used);
    return res;
}

/* longest-matching: the permutation of the switches of largest total
 * distance (exact, n <= LM_MAX_N). */
tk_status_t tkp_gen_longest_matching(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_id_t n = g->n;
    tk_level_t level;
    int32_t *D = NULL;
    int64_t *map = NULL, total;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);

    if (st)
        return st;
    if (n > LM_MAX_N)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "longest-matching: n=%" PRId64 " switches is over the limit of %d "
                            "of the exact O(n^3) assignment",
                            (int64_t)n, LM_MAX_N);
    if ((st = all_distances(g, m->threads, &D, err)) != TK_OK)
        return st;
    map = tk_malloc_array((size_t)n, sizeof *map);
    if (!map || max_assignment(D, n, map, &total) != 0) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    tkp_spec_result(m, "total", "%" PRId64, total);
    st = tkp_begin(m, level, err);
    if (!st)
        st = tkp_add_switch_map(m, level, map, err);
done:
    free(D);
    free(map);
    return st;
}
