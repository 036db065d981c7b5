/*
 * prove.c - proofs by counting that no Hamiltonian cycle has a given delta
 * (issue 28).  See antmill_internal.h.
 *
 * A window is admissible iff it is the unique shortest path between its
 * ends, so it is named by its ends: the admissible windows of length delta
 * are the ordered pairs (x, y) at distance delta with one shortest path
 * (the bits of the unique-path table).  A cycle with that delta starts one
 * window at each of its n switches, and consecutive windows overlap in
 * delta switches: the window graph has an arc (x, y) -> (x', y') when x' is
 * the second switch of the first window and y' a neighbour of y that ends
 * the second window (its last step comes from y).  A Hamiltonian cycle
 * with that delta is a closed walk of n windows in this graph, every
 * switch starting one of them.  The proofs, cheapest first:
 *   1. fewer admissible windows than switches;
 *   2. a switch that starts no window, or that no window ends at;
 *   3. undirected graphs: a switch with fewer than two admissible
 *      continuations (distinct first steps of windows from it: its
 *      successor and, by symmetry, its predecessor on the cycle are two);
 *   4. the window graph has no cycle: then no walk of L links has all its
 *      windows admissible, L - 1 the longest (longest path in the DAG);
 *   5. after removing every window with no predecessor or no successor
 *      until none is left (the windows on closed walks remain), fewer
 *      windows than switches, or a switch that starts none of them.
 * Time O(n ball(delta) d + W d log W) for W windows; memory about 57 bytes
 * a window and 16 an arc of the window graph (checked against the memory
 * limit; proofs 4 and 5 are skipped when they do not fit).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antmill_internal.h"

typedef struct wgraph {
    const tk_graph_t *g;
    const am_utable_t *ut;
    int32_t *rank; /* per table word: bits of its row in the words before */
    int64_t *off;  /* windows from x: off[x] .. off[x+1]-1, sorted by end */
    tk_id_t *end, *first, *last;
    int64_t w;
} wgraph_t;

/* The window from x to y, or -1: its index is the rank of bit (x, y) in
 * the table, from the count of bits in the words before (rank). */
static inline int64_t find(const wgraph_t *wg, tk_id_t x, tk_id_t y)
{
    const am_utable_t *ut = wg->ut;
    size_t w = (size_t)x * (size_t)ut->words + (size_t)(y >> 6);
    uint64_t word = ut->bits[w], bit = (uint64_t)1 << (y & 63);
    if (!(word & bit))
        return -1;
    return wg->off[x] + wg->rank[w] + __builtin_popcountll(word & (bit - 1));
}

/* Fill first and last steps by a BFS per switch (paths counted, capped). */
static int fill_steps(wgraph_t *wg, const am_utable_t *ut)
{
    const tk_graph_t *g = wg->g;
    tk_id_t n = g->n;
    int32_t *dist = tk_malloc_array((size_t)n, sizeof *dist);
    uint8_t *sig = tk_malloc_array((size_t)n, 1);
    tk_id_t *queue = tk_malloc_array((size_t)n, sizeof *queue);
    tk_id_t *fst = tk_malloc_array((size_t)n, sizeof *fst);
    tk_id_t *par = tk_malloc_array((size_t)n, sizeof *par);
    int rc = 0;

    if (!dist || !sig || !queue || !fst || !par) {
        rc = -1;
        goto out;
    }
    for (tk_id_t v = 0; v < n; v++)
        dist[v] = -1;
    for (tk_id_t s = 0; s < n; s++) {
        int64_t qh = 0, qt = 0;
        dist[s] = 0;
        sig[s] = 1;
        fst[s] = s;
        par[s] = -1;
        queue[qt++] = s;
        while (qh < qt) {
            tk_id_t u = queue[qh++];
            if (dist[u] == ut->delta)
                continue;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    sig[v] = sig[u];
                    fst[v] = u == s ? v : fst[u];
                    par[v] = u;
                    queue[qt++] = v;
                } else if (dist[v] == dist[u] + 1) {
                    sig[v] = 2;
                }
            }
        }
        for (int64_t k = wg->off[s]; k < wg->off[s + 1]; k++) {
            tk_id_t y = wg->end[k];
            wg->first[k] = fst[y];
            wg->last[k] = par[y];
        }
        for (int64_t q = 0; q < qt; q++)
            dist[queue[q]] = -1;
    }
out:
    free(dist);
    free(sig);
    free(queue);
    free(fst);
    free(par);
    return rc;
}

/* The successor windows of window k: (first[k], y') for the links y -> y'
 * of its end y whose window's last step is y.  Calls f(ctx, k, t) for each;
 * the table bit is checked before the search. */
static int64_t succ_windows(const wgraph_t *wg, int64_t k, int64_t *out)
{
    const tk_graph_t *g = wg->g;
    tk_id_t y = wg->end[k], h = wg->first[k];
    int64_t c = 0;
    for (int64_t a = g->off[y]; a < g->off[y + 1]; a++) {
        int64_t t = find(wg, h, g->head[a]);
        if (t >= 0 && wg->last[t] == y) {
            if (out)
                out[c] = t;
            c++;
        }
    }
    return c;
}

/* Proofs 4 and 5 on the window graph, held as successor and predecessor
 * lists (8 bytes each per arc).  Returns 1 with reason, 0 (also when the
 * lists would pass mem_limit), -1 out of memory. */
static int walk_proofs(const wgraph_t *wg, const am_utable_t *ut, uint64_t mem_limit, char *reason,
                       size_t cap)
{
    tk_id_t n = wg->g->n;
    int32_t delta = ut->delta;
    int64_t W = wg->w, T = 0;
    int64_t *soff = tk_malloc_array((size_t)W + 1, sizeof *soff);
    int64_t *poff = tk_calloc_array((size_t)W + 2, sizeof *poff);
    int64_t *sa = NULL, *pa = NULL;
    int32_t *indeg = tk_calloc_array((size_t)W, sizeof *indeg);
    int32_t *outdeg = tk_calloc_array((size_t)W, sizeof *outdeg);
    int32_t *len = tk_calloc_array((size_t)W, sizeof *len);
    int64_t *queue = tk_malloc_array((size_t)W, sizeof *queue);
    uint8_t *dead = tk_calloc_array((size_t)W, 1);
    int rc = 0;

    if (!soff || !poff || !indeg || !outdeg || !len || !queue || !dead) {
        rc = -1;
        goto out;
    }
    /* successor lists in one pass, the array grown by doubling */
    {
        const tk_graph_t *g = wg->g;
        int64_t capa = W + 1024;
        sa = tk_malloc_array((size_t)capa, sizeof *sa);
        if (!sa) {
            rc = -1;
            goto out;
        }
        soff[0] = 0;
        for (int64_t k = 0; k < W; k++) {
            tk_id_t y = wg->end[k];
            int64_t deg = g->off[y + 1] - g->off[y];
            if (T + deg > capa) {
                int64_t nc = 2 * capa + deg;
                if (mem_limit && (uint64_t)nc * 16u > mem_limit)
                    goto out;
                int64_t *x = tk_realloc_array(sa, (size_t)nc, sizeof *sa);
                if (!x) {
                    rc = -1;
                    goto out;
                }
                sa = x;
                capa = nc;
            }
            T += succ_windows(wg, k, sa + T);
            soff[k + 1] = T;
        }
    }
    pa = tk_malloc_array((size_t)(T ? T : 1), sizeof *pa);
    if (!pa) {
        rc = -1;
        goto out;
    }
    for (int64_t q = 0; q < T; q++)
        poff[sa[q] + 2]++;
    for (int64_t k = 0; k < W; k++)
        poff[k + 2] += poff[k + 1];
    for (int64_t k = 0; k < W; k++)
        for (int64_t q = soff[k]; q < soff[k + 1]; q++)
            pa[poff[sa[q] + 1]++] = k;
    /* now pa[poff[t] .. poff[t+1]-1] are the predecessors of t */
    for (int64_t k = 0; k < W; k++) {
        outdeg[k] = (int32_t)(soff[k + 1] - soff[k]);
        indeg[k] = (int32_t)(poff[k + 1] - poff[k]);
    }
    /* Kahn from the windows with no predecessor: longest walks */
    int64_t qh = 0, qt = 0, removed = 0;
    int32_t longest = 0;
    for (int64_t k = 0; k < W; k++) {
        len[k] = 1;
        if (indeg[k] == 0)
            queue[qt++] = k;
    }
    while (qh < qt) {
        int64_t k = queue[qh++];
        dead[k] = 1;
        removed++;
        if (len[k] > longest)
            longest = len[k];
        for (int64_t q = soff[k]; q < soff[k + 1]; q++) {
            int64_t t = sa[q];
            if (len[k] + 1 > len[t])
                len[t] = len[k] + 1;
            if (--indeg[t] == 0)
                queue[qt++] = t;
        }
    }
    if (removed == W) {
        /* the longest run of windows: a walk of delta + longest - 1 links */
        snprintf(reason, cap,
                 "no walk of %" PRId64
                 " links has all its windows admissible (the longest has %" PRId64 ")",
                 (int64_t)delta + longest, (int64_t)delta + longest - 1);
        rc = 1;
        goto out;
    }
    /* then the windows with no successor left, until none */
    for (int64_t k = 0; k < W; k++) {
        if (dead[k])
            continue;
        outdeg[k] = 0;
        for (int64_t q = soff[k]; q < soff[k + 1]; q++)
            outdeg[k] += !dead[sa[q]];
    }
    qh = qt = 0;
    for (int64_t k = 0; k < W; k++)
        if (!dead[k] && outdeg[k] == 0)
            queue[qt++] = k;
    while (qh < qt) {
        int64_t k = queue[qh++];
        dead[k] = 1;
        removed++;
        for (int64_t q = poff[k]; q < poff[k + 1]; q++) {
            int64_t t = pa[q];
            if (!dead[t] && --outdeg[t] == 0)
                queue[qt++] = t;
        }
    }
    if (W - removed < n) {
        snprintf(reason, cap,
                 "only %" PRId64 " admissible windows lie on closed walks of admissible windows, "
                 "fewer than the %" PRId32 " switches",
                 W - removed, n);
        rc = 1;
        goto out;
    }
    for (tk_id_t x = 0; x < n; x++) {
        int any = 0;
        for (int64_t k = wg->off[x]; k < wg->off[x + 1] && !any; k++)
            any = !dead[k];
        if (!any) {
            snprintf(reason, cap,
                     "switch %" PRId32 " starts no window on a closed walk of admissible windows",
                     x);
            rc = 1;
            goto out;
        }
    }
out:
    free(soff);
    free(poff);
    free(sa);
    free(pa);
    free(indeg);
    free(outdeg);
    free(len);
    free(queue);
    free(dead);
    return rc;
}

tk_status_t am_prove(const tk_graph_t *g, const am_utable_t *ut, uint64_t mem_limit, int full,
                     int *impossible, char *reason, size_t cap, tk_error_t *err)
{
    tk_id_t n = g->n;
    int32_t delta = ut->delta;
    wgraph_t wg;
    uint8_t *hasin = NULL;
    tk_status_t st = TK_OK;

    *impossible = 0;
    memset(&wg, 0, sizeof wg);
    wg.g = g;
    wg.ut = ut;
    wg.rank = tk_malloc_array((size_t)n * (size_t)ut->words, sizeof *wg.rank);
    wg.off = tk_malloc_array((size_t)n + 1, sizeof *wg.off);
    hasin = tk_calloc_array((size_t)n, 1);
    if (!wg.off || !hasin || !wg.rank)
        goto nomem;
    wg.off[0] = 0;
    for (tk_id_t x = 0; x < n; x++) {
        const uint64_t *row = ut->bits + (size_t)x * (size_t)ut->words;
        int64_t c = 0;
        for (int64_t w = 0; w < ut->words; w++) {
            uint64_t b = row[w];
            wg.rank[(size_t)x * (size_t)ut->words + (size_t)w] = (int32_t)c;
            c += __builtin_popcountll(b);
            while (b) {
                hasin[w * 64 + __builtin_ctzll(b)] = 1;
                b &= b - 1;
            }
        }
        wg.off[x + 1] = wg.off[x] + c;
    }
    wg.w = wg.off[n];
    /* 1 */
    if (wg.w < n) {
        snprintf(reason, cap,
                 "fewer ordered pairs at distance %" PRId32 " with a unique shortest path (%" PRId64
                 ") than switches (%" PRId32 ")",
                 delta, wg.w, n);
        *impossible = 1;
        goto done;
    }
    /* 2 */
    for (tk_id_t x = 0; x < n; x++) {
        if (wg.off[x + 1] == wg.off[x]) {
            snprintf(reason, cap,
                     "switch %" PRId32 " has no switch at distance %" PRId32
                     " with a unique shortest path",
                     x, delta);
            *impossible = 1;
            goto done;
        }
        if (!hasin[x]) {
            snprintf(reason, cap,
                     "no switch has a unique shortest path of length %" PRId32
                     " to switch %" PRId32,
                     delta, x);
            *impossible = 1;
            goto done;
        }
    }
    /* the windows with their first and last steps: 12 bytes each here, 45
     * more in walk_proofs */
    if (!full || (mem_limit && (uint64_t)wg.w * 57u > mem_limit))
        goto done;
    wg.end = tk_malloc_array((size_t)wg.w, sizeof *wg.end);
    wg.first = tk_malloc_array((size_t)wg.w, sizeof *wg.first);
    wg.last = tk_malloc_array((size_t)wg.w, sizeof *wg.last);
    if (!wg.end || !wg.first || !wg.last)
        goto nomem;
    for (tk_id_t x = 0; x < n; x++) {
        const uint64_t *row = ut->bits + (size_t)x * (size_t)ut->words;
        int64_t k = wg.off[x];
        for (int64_t w = 0; w < ut->words; w++) {
            uint64_t b = row[w];
            while (b) {
                wg.end[k++] = (tk_id_t)(w * 64 + __builtin_ctzll(b));
                b &= b - 1;
            }
        }
    }
    if (fill_steps(&wg, ut))
        goto nomem;
    /* 3 */
    if (!g->directed && n >= 3) {
        for (tk_id_t x = 0; x < n; x++) {
            tk_id_t f0 = -1;
            int two = 0;
            for (int64_t k = wg.off[x]; k < wg.off[x + 1] && !two; k++) {
                if (f0 < 0)
                    f0 = wg.first[k];
                else if (wg.first[k] != f0)
                    two = 1;
            }
            if (!two) {
                snprintf(reason, cap,
                         "switch %" PRId32
                         " has fewer than two admissible continuations (every window from it "
                         "starts with the link to switch %" PRId32 ")",
                         x, f0);
                *impossible = 1;
                goto done;
            }
        }
    }
    /* 4, 5 */
    {
        int r = walk_proofs(&wg, ut, mem_limit, reason, cap);
        if (r < 0)
            goto nomem;
        *impossible = r;
    }
    goto done;
nomem:
    st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the impossibility proofs");
done:
    free(wg.off);
    free(wg.rank);
    free(wg.end);
    free(wg.first);
    free(wg.last);
    free(hasin);
    return st;
}
