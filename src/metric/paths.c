/*
 * paths.c - shortest-path counts sigma(s,t) by breadth-first search with
 * path counting (never enumeration), and their all-pairs summary by
 * distance.
 *
 * Counts are unsigned 128-bit integers with overflow detection: hypercubes
 * have d! shortest paths between switches at Hamming distance d (Q_34's
 * antipodes: 34! ~ 2.95e38 still fits; 35! does not), and a graph whose
 * counts exceed 2^128 - 1 is refused with TK_ERANGE rather than rounded.
 * Sums of counts are 256-bit (two 128-bit halves), so averages are exact
 * before the final division and do not depend on the summation order.
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

/* tk_sigma_from: see tk_paths.h.  Time O(n + m). */
tk_status_t tk_sigma_from(const tk_graph_t *g, tk_id_t s, int32_t *dist, u128 *sigma,
                          tk_id_t *queue, tk_error_t *err)
{
    if (!g || !dist || !sigma || !queue)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_sigma_from: NULL argument");
    if (s < 0 || s >= g->n)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "source %ld: out of range (n=%ld)", (long)s,
                            (long)g->n);
    for (tk_id_t v = 0; v < g->n; v++) {
        dist[v] = TK_INF;
        sigma[v] = 0;
    }
    size_t qh = 0, qt = 0;
    dist[s] = 0;
    sigma[s] = 1;
    queue[qt++] = s;
    while (qh < qt) {
        tk_id_t v = queue[qh++];
        int32_t dn = dist[v] + 1;
        u128 sv = sigma[v];
        /* sigma[v] is final here: every arc into v from the previous level
         * was scanned before v left the queue. */
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
            tk_id_t u = g->head[a];
            if (dist[u] == TK_INF) {
                dist[u] = dn;
                queue[qt++] = u;
            }
            if (dist[u] == dn) {
                u128 t = sigma[u] + sv;
                if (t < sv)
                    return tk_error_set(err, TK_ERANGE, NULL, 0,
                                        "shortest-path count from switch %ld to switch %ld "
                                        "exceeds 2^128-1",
                                        (long)s, (long)u);
                sigma[u] = t;
            }
        }
    }
    return TK_OK;
}

void tk_sigma_summary_destroy(tk_sigma_summary_t *s)
{
    if (!s)
        return;
    free(s->pairs);
    free(s->min);
    free(s->max);
    free(s->sum_lo);
    free(s->sum_hi);
    free(s->unique);
    memset(s, 0, sizeof *s);
}

/* Grow the per-distance arrays of s to len entries (zero-filled; min set
 * to all ones so that the first value replaces it). */
static int sum_grow(tk_sigma_summary_t *s, int32_t len)
{
    if (len <= s->len)
        return 0;
    uint64_t *p = tk_realloc_array(s->pairs, (size_t)len, sizeof *p);
    if (!p)
        return -1;
    s->pairs = p;
    u128 *a = tk_realloc_array(s->min, (size_t)len, sizeof *a);
    if (!a)
        return -1;
    s->min = a;
    a = tk_realloc_array(s->max, (size_t)len, sizeof *a);
    if (!a)
        return -1;
    s->max = a;
    a = tk_realloc_array(s->sum_lo, (size_t)len, sizeof *a);
    if (!a)
        return -1;
    s->sum_lo = a;
    a = tk_realloc_array(s->sum_hi, (size_t)len, sizeof *a);
    if (!a)
        return -1;
    s->sum_hi = a;
    p = tk_realloc_array(s->unique, (size_t)len, sizeof *p);
    if (!p)
        return -1;
    s->unique = p;
    for (int32_t d = s->len; d < len; d++) {
        s->pairs[d] = 0;
        s->min[d] = ~(u128)0;
        s->max[d] = 0;
        s->sum_lo[d] = 0;
        s->sum_hi[d] = 0;
        s->unique[d] = 0;
    }
    s->len = len;
    return 0;
}

static inline void add256(u128 *lo, u128 *hi, u128 v)
{
    u128 t = *lo + v;
    if (t < v)
        (*hi)++;
    *lo = t;
}

/* Fold the row of one source into s.  dist/sigma of n switches. */
static int fold_source(tk_sigma_summary_t *s, tk_id_t n, tk_id_t src, const int32_t *dist,
                       const u128 *sigma)
{
    for (tk_id_t t = 0; t < n; t++) {
        if (t == src)
            continue;
        int32_t d = dist[t];
        if (d == TK_INF) {
            s->unreachable++;
            continue;
        }
        if (d >= s->len && sum_grow(s, d + 1 > 2 * s->len ? d + 1 : 2 * s->len) != 0)
            return -1;
        u128 c = sigma[t];
        s->pairs[d]++;
        if (c < s->min[d])
            s->min[d] = c;
        if (c > s->max[d])
            s->max[d] = c;
        add256(&s->sum_lo[d], &s->sum_hi[d], c);
        if (c == 1)
            s->unique[d]++;
    }
    return 0;
}

/* Merge a thread's partial summary into the total. */
static int merge(tk_sigma_summary_t *to, const tk_sigma_summary_t *from)
{
    if (from->len > to->len && sum_grow(to, from->len) != 0)
        return -1;
    for (int32_t d = 1; d < from->len; d++) {
        if (!from->pairs[d])
            continue;
        to->pairs[d] += from->pairs[d];
        if (from->min[d] < to->min[d])
            to->min[d] = from->min[d];
        if (from->max[d] > to->max[d])
            to->max[d] = from->max[d];
        add256(&to->sum_lo[d], &to->sum_hi[d], from->sum_lo[d]);
        to->sum_hi[d] += from->sum_hi[d];
        to->unique[d] += from->unique[d];
    }
    to->unreachable += from->unreachable;
    return 0;
}

/* tk_sigma_summary: see tk_paths.h.  Time O(n (n + m)), memory 28n bytes
 * per thread. */
/* What the threads of tk_sigma_summary share. */
typedef struct sigma_team {
    int failed;       /* out of memory somewhere                              */
    int64_t fail_src; /* smallest source whose counts overflow: sources below
                         it are still searched, so the error names the same
                         source whatever the thread count                    */
    tk_status_t st;   /* the first failure reported, with its message      */
    tk_error_t err;
    tk_progress_t *progress; /* sources searched (NULL: not watched)     */
} sigma_team_t;

/* One thread of the team (called inside the parallel region: its loop is
 * the team's worksharing loop): its share of the sources folded into its
 * own summary, merged into out at the end. */
static void sigma_thread(const tk_graph_t *g, tk_id_t lo, tk_id_t hi, sigma_team_t *T,
                         tk_sigma_summary_t *out)
{
    const tk_id_t n = g->n;
    tk_sigma_summary_t part;
    memset(&part, 0, sizeof part);
    int32_t *dist = tk_malloc_array((size_t)n, sizeof *dist);
    u128 *sigma = tk_malloc_array((size_t)n, sizeof *sigma);
    tk_id_t *queue = tk_malloc_array((size_t)n, sizeof *queue);
    tk_error_t lerr;
    tk_status_t lst = TK_OK;

    tk_error_clear(&lerr);
    if (!dist || !sigma || !queue || sum_grow(&part, 2) != 0)
        lst = tk_error_set(&lerr, TK_ENOMEM, NULL, 0, "out of memory (n=%ld)", (long)n);
#pragma omp for schedule(dynamic, 8)
    for (tk_id_t s = lo; s < hi; s++) {
        if (lst != TK_OK || __atomic_load_n(&T->failed, __ATOMIC_RELAXED) ||
            s >= __atomic_load_n(&T->fail_src, __ATOMIC_RELAXED))
            continue;
        tk_status_t r = tk_sigma_from(g, s, dist, sigma, queue, NULL);
        if (r == TK_ERANGE) {
            int64_t cur = __atomic_load_n(&T->fail_src, __ATOMIC_RELAXED);
            while (s < cur && !__atomic_compare_exchange_n(&T->fail_src, &cur, (int64_t)s, 0,
                                                           __ATOMIC_RELAXED, __ATOMIC_RELAXED))
                ;
            continue;
        }
        if (r != TK_OK || fold_source(&part, n, s, dist, sigma) != 0) {
            lst = tk_error_set(&lerr, TK_ENOMEM, NULL, 0, "out of memory");
            __atomic_store_n(&T->failed, 1, __ATOMIC_RELAXED);
        }
        tk_progress_add(T->progress, 1);
    }
#pragma omp critical
    {
        if (lst != TK_OK) {
            /* Report the failure with the smallest status code seen
             * first; any failure fails the whole graph. */
            if (T->st == TK_OK) {
                T->st = lst;
                T->err = lerr;
            }
        } else if (T->st == TK_OK && merge(out, &part) != 0) {
            T->st = tk_error_set(&T->err, TK_ENOMEM, NULL, 0, "out of memory");
        }
    }
    tk_sigma_summary_destroy(&part);
    free(dist);
    free(sigma);
    free(queue);
}

/* The overflow error of source src, by repeating its search for the
 * message. */
static tk_status_t overflow_error(const tk_graph_t *g, tk_id_t src, tk_error_t *err)
{
    size_t nn = (size_t)g->n;
    int32_t *dist = tk_malloc_array(nn, sizeof *dist);
    u128 *sigma = tk_malloc_array(nn, sizeof *sigma);
    tk_id_t *queue = tk_malloc_array(nn, sizeof *queue);
    tk_status_t st;

    if (!dist || !sigma || !queue)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    else
        st = tk_sigma_from(g, src, dist, sigma, queue, err);
    if (st == TK_OK) /* cannot happen: the search is deterministic */
        st = tk_error_set(err, TK_EINTERNAL, NULL, 0, "shortest-path count overflow");
    free(dist);
    free(sigma);
    free(queue);
    return st;
}

tk_status_t tk_sigma_summary_range(const tk_graph_t *g, int64_t lo, int64_t hi, int threads,
                                   tk_progress_t *progress, tk_sigma_summary_t *out,
                                   tk_error_t *err)
{
    if (!g || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_sigma_summary: NULL argument");
    memset(out, 0, sizeof *out);
    if (g->n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "empty graph");
    if (lo < 0 || hi > g->n || lo > hi)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "tk_sigma_summary_range: sources [%lld, %lld) of %lld", (long long)lo,
                            (long long)hi, (long long)g->n);
    int nt = 1;
#ifdef _OPENMP
    nt = threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
#endif
    if (nt > hi - lo)
        nt = hi > lo ? (int)(hi - lo) : 1;
    if (sum_grow(out, 2) != 0)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");

    sigma_team_t T = {0, INT64_MAX, TK_OK, {0}, progress};
    tk_error_clear(&T.err);
#pragma omp parallel num_threads(nt)
    sigma_thread(g, (tk_id_t)lo, (tk_id_t)hi, &T, out);
    if (T.st == TK_OK && T.fail_src != INT64_MAX)
        T.st = overflow_error(g, (tk_id_t)T.fail_src, &T.err);
    if (T.st != TK_OK) {
        tk_sigma_summary_destroy(out);
        if (err)
            *err = T.err;
        return T.st;
    }
    /* Trim trailing distances without pairs (the arrays grow by doubling). */
    while (out->len > 1 && out->pairs[out->len - 1] == 0)
        out->len--;
    return TK_OK;
}

tk_status_t tk_sigma_summary_merge(tk_sigma_summary_t *to, const tk_sigma_summary_t *from,
                                   tk_error_t *err)
{
    if (!to || !from)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_sigma_summary_merge: NULL argument");
    if (merge(to, from) != 0)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    while (to->len > 1 && to->pairs[to->len - 1] == 0)
        to->len--;
    return TK_OK;
}

tk_status_t tk_sigma_summary(const tk_graph_t *g, int threads, tk_progress_t *progress,
                             tk_sigma_summary_t *out, tk_error_t *err)
{
    if (!g || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_sigma_summary: NULL argument");
    tk_progress_begin(progress, "shortest-path counts", "sources", g->n);
    tk_status_t st = tk_sigma_summary_range(g, 0, g->n, threads, progress, out, err);
    tk_progress_end(progress);
    return st;
}

double tk_sigma_summary_avg(const tk_sigma_summary_t *s, int32_t d)
{
    if (!s || d < 1 || d >= s->len || !s->pairs[d])
        return 0.0;
    long double two128 = 340282366920938463463374607431768211456.0L;
    long double sum = (long double)s->sum_hi[d] * two128 + (long double)s->sum_lo[d];
    return (double)(sum / (long double)s->pairs[d]);
}
