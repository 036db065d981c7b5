/*
 * graph.c - the containers of the VC analysis: a hash set of 64-bit keys
 * (channels and dependencies as the threads collect them) and Kahn's
 * algorithm on the sorted channel and dependency arrays (acyclicity and
 * the rank certificate).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "vc/vc_internal.h"

static inline size_t hash64(uint64_t k)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    k *= 0xc4ceb9fe1a85ec53ULL;
    k ^= k >> 33;
    return (size_t)k;
}

static int grow(vc_set_t *s)
{
    size_t nc = s->cap ? 2 * s->cap : 1024;
    uint64_t *ns = calloc(nc, sizeof *ns);
    if (!ns)
        return -1;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i]) {
            size_t j = hash64(s->slot[i] - 1) & (nc - 1);
            while (ns[j])
                j = (j + 1) & (nc - 1);
            ns[j] = s->slot[i];
        }
    free(s->slot);
    s->slot = ns;
    s->cap = nc;
    return 0;
}

int vc_set_add(vc_set_t *s, uint64_t key)
{
    if (2 * (s->n + 1) > s->cap && grow(s))
        return -1;
    size_t j = hash64(key) & (s->cap - 1);
    while (s->slot[j]) {
        if (s->slot[j] == key + 1)
            return 0;
        j = (j + 1) & (s->cap - 1);
    }
    s->slot[j] = key + 1;
    s->n++;
    return 1;
}

void vc_set_free(vc_set_t *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}

static int u64cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t *vc_set_sorted(const vc_set_t *s)
{
    uint64_t *k = malloc((s->n ? s->n : 1) * sizeof *k);
    size_t n = 0;
    if (!k)
        return NULL;
    for (size_t i = 0; i < s->cap; i++)
        if (s->slot[i])
            k[n++] = s->slot[i] - 1;
    qsort(k, n, sizeof *k, u64cmp);
    return k;
}

int64_t vc_node_index(const uint32_t *node, int64_t nn, uint32_t x)
{
    int64_t lo = 0, hi = nn;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (node[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < nn && node[lo] == x ? lo : -1;
}

int vc_kahn(const uint32_t *node, int64_t nn, const uint64_t *dep, int64_t nd, int32_t *rank,
            uint8_t *done)
{
    int64_t *off = calloc((size_t)nn + 1, sizeof *off);
    int64_t *to = malloc(((size_t)nd + 1) * sizeof *to);
    int64_t *indeg = calloc((size_t)nn + 1, sizeof *indeg);
    int64_t *queue = malloc(((size_t)nn + 1) * sizeof *queue);
    int32_t *rk = calloc((size_t)nn + 1, sizeof *rk);
    int64_t head = 0, tail = 0;
    int ok = -1;
    if (!off || !to || !indeg || !queue || !rk)
        goto done;
    /* deps are sorted by from, so the CSR is their order */
    for (int64_t e = 0; e < nd; e++) {
        int64_t f = vc_node_index(node, nn, (uint32_t)(dep[e] >> 32));
        int64_t t = vc_node_index(node, nn, (uint32_t)dep[e]);
        off[f + 1]++;
        to[e] = t;
        indeg[t]++;
    }
    for (int64_t i = 0; i < nn; i++)
        off[i + 1] += off[i];
    for (int64_t i = 0; i < nn; i++)
        if (!indeg[i])
            queue[tail++] = i;
    while (head < tail) {
        int64_t u = queue[head++];
        for (int64_t e = off[u]; e < off[u + 1]; e++) {
            int64_t v = to[e];
            if (rk[u] + 1 > rk[v])
                rk[v] = rk[u] + 1;
            if (--indeg[v] == 0)
                queue[tail++] = v;
        }
    }
    ok = tail == nn;
    if (rank && ok)
        memcpy(rank, rk, (size_t)nn * sizeof *rank);
    if (done) {
        memset(done, 0, (size_t)nn);
        for (int64_t i = 0; i < tail; i++)
            done[queue[i]] = 1;
    }
done:
    free(off);
    free(to);
    free(indeg);
    free(queue);
    free(rk);
    return ok;
}
