/*
 * rrg.c - random connected simple d-regular graphs ("rrg", the Jellyfish
 * topology's switch graph).
 *
 * Algorithm (documented in topo-gen(1), section "rrg"):
 *  1. Dense case 2d >= n: generate a random simple k-regular graph with
 *     k = n-1-d by the steps below (without step 5) and return its
 *     complement.  Complementing is a bijection between k-regular and
 *     d-regular graphs, and every simple d-regular graph with 2d >= n-1 is
 *     connected (a component needs d+1 switches).  k = 0 gives K_n.
 *  2. Pairing (configuration) model: n*d stubs, stub s belongs to switch
 *     s / d; a Fisher-Yates shuffle, then stubs 2i and 2i+1 form link i.
 *  3. Repair: while some link is a loop or repeats another link, switch it
 *     with a uniformly chosen link (double-edge switch (a,b),(c,d) ->
 *     (a,d),(c,b), orientation of the second link chosen at random),
 *     accepting only switches whose two new links are neither loops nor
 *     already present.  Each accepted switch removes one bad link.  After
 *     50*L + 10000 attempts without success (tiny graphs) start again at 2.
 *  4. Mixing: 10*L steps of the switch Markov chain: each step chooses two
 *     links uniformly and an orientation, and switches them when the rule
 *     of step 3 allows it (else the step changes nothing).  The chain is
 *     symmetric on simple d-regular graphs, so its stationary distribution
 *     is uniform.  (Counting accepted switches instead would bias the
 *     result towards graphs with many valid switches.)
 *  5. Connectivity: while the graph is disconnected, switch a uniformly
 *     chosen link with a uniformly chosen link of another component (such a
 *     switch is always simple and merges the two components unless both
 *     links are bridges).  For d = 2 the result is exactly uniform over
 *     Hamiltonian cycles (by symmetry); for d >= 3 a random regular graph
 *     is connected with probability tending to 1 and the step rarely runs.
 * L = n*d/2 links.  All random numbers come from one stream (seed, task 0),
 * so the graph depends on the seed only.
 *
 * Time O(L) expected per phase (hash set of links: O(1) membership), memory
 * about 40 bytes per link besides the graph.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

#define EMPTY UINT64_MAX
#define MIX_STEPS 10 /* mixing steps (attempted switches) per link */
#define REPAIR_ATTEMPT 50
#define MAX_RESTARTS 1000

/* Links as pairs of int32 ends, plus a hash multiset of unordered links. */
typedef struct rr {
    int64_t n, d, L;
    int32_t *end; /* 2L ends: link i is end[2i], end[2i+1] */
    uint64_t *tab;
    uint64_t mask;
    int shift;
    tk_rng_t *rng;
} rr_t;

static inline uint64_t key_of(int32_t u, int32_t v)
{
    return u < v ? ((uint64_t)u << 32) | (uint32_t)v : ((uint64_t)v << 32) | (uint32_t)u;
}

static inline uint64_t home(const rr_t *r, uint64_t k)
{
    return (k * UINT64_C(0x9E3779B97F4A7C15)) >> r->shift;
}

static int has(const rr_t *r, uint64_t k)
{
    uint64_t i = home(r, k);

    while (r->tab[i] != EMPTY) {
        if (r->tab[i] == k)
            return 1;
        i = (i + 1) & r->mask;
    }
    return 0;
}

static int count(const rr_t *r, uint64_t k)
{
    uint64_t i = home(r, k);
    int c = 0;

    while (r->tab[i] != EMPTY) {
        c += r->tab[i] == k;
        i = (i + 1) & r->mask;
    }
    return c;
}

static void insert(rr_t *r, uint64_t k)
{
    uint64_t i = home(r, k);

    while (r->tab[i] != EMPTY)
        i = (i + 1) & r->mask;
    r->tab[i] = k;
}

/* Remove one copy of k (present); backward-shift deletion keeps probe
 * sequences intact without tombstones. */
static void erase(rr_t *r, uint64_t k)
{
    uint64_t i = home(r, k), j;

    while (r->tab[i] != k)
        i = (i + 1) & r->mask;
    r->tab[i] = EMPTY;
    j = i;
    for (;;) {
        uint64_t h;
        j = (j + 1) & r->mask;
        if (r->tab[j] == EMPTY)
            break;
        h = home(r, r->tab[j]);
        /* The entry at j may stay if its home lies cyclically in (i, j]. */
        if (i <= j ? (i < h && h <= j) : (i < h || h <= j))
            continue;
        r->tab[i] = r->tab[j];
        r->tab[j] = EMPTY;
        i = j;
    }
}

/* Try the switch of links e1=(a,b) and e2=(c,d) (or (d,c) when flip) into
 * (a,d),(c,b).  Accepted only if the new links are no loops, differ, and
 * are absent.  Returns 1 if done. */
static int try_switch(rr_t *r, int64_t e1, int64_t e2, int flip)
{
    int32_t a = r->end[2 * e1], b = r->end[2 * e1 + 1];
    int32_t c = r->end[2 * e2 + flip], d = r->end[2 * e2 + 1 - flip];
    uint64_t k1, k2;

    if (e1 == e2 || a == d || c == b)
        return 0;
    k1 = key_of(a, d);
    k2 = key_of(c, b);
    if (k1 == k2 || has(r, k1) || has(r, k2))
        return 0;
    erase(r, key_of(a, b));
    erase(r, key_of(c, d));
    insert(r, k1);
    insert(r, k2);
    r->end[2 * e1 + 1] = d;
    r->end[2 * e2] = c;
    r->end[2 * e2 + 1] = b;
    return 1;
}

static int is_bad(const rr_t *r, int64_t e)
{
    int32_t a = r->end[2 * e], b = r->end[2 * e + 1];
    return a == b || count(r, key_of(a, b)) > 1;
}

/* Steps 2-3: a simple d-regular multigraph-free pairing.  Returns TK_OK,
 * TK_ENOMEM or TK_EINTERNAL (gave up after MAX_RESTARTS). */
static tk_status_t pairing(rr_t *r, tk_error_t *err)
{
    int64_t S = 2 * r->L, s, e, nbad, attempts, budget = REPAIR_ATTEMPT * r->L + 10000;
    int64_t *bad = tk_malloc_array((size_t)(r->L ? r->L : 1), sizeof *bad);
    int restart;

    if (!bad)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (restart = 0; restart < MAX_RESTARTS; restart++) {
        for (s = 0; s < S; s++)
            r->end[s] = (int32_t)(s / r->d);
        for (s = S - 1; s > 0; s--) {
            int64_t t = (int64_t)tk_rng_below(r->rng, (uint64_t)s + 1);
            int32_t x = r->end[s];
            r->end[s] = r->end[t];
            r->end[t] = x;
        }
        memset(r->tab, 0xff, (size_t)(r->mask + 1) * sizeof *r->tab);
        nbad = 0;
        for (e = 0; e < r->L; e++) {
            int32_t a = r->end[2 * e], b = r->end[2 * e + 1];
            uint64_t k = key_of(a, b);
            if (a == b || has(r, k))
                bad[nbad++] = e;
            insert(r, k);
        }
        attempts = 0;
        while (nbad > 0 && attempts < budget) {
            int64_t e1 = bad[nbad - 1];
            if (!is_bad(r, e1)) {
                nbad--;
                continue;
            }
            attempts++;
            if (try_switch(r, e1, (int64_t)tk_rng_below(r->rng, (uint64_t)r->L),
                           (int)tk_rng_below(r->rng, 2)))
                nbad--;
        }
        if (nbad == 0) {
            free(bad);
            return TK_OK;
        }
    }
    free(bad);
    return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                        "n=%" PRId64 " d=%" PRId64 ": no simple pairing after %d restarts", r->n,
                        r->d, MAX_RESTARTS);
}

/* Step 4.  The random choices are drawn PF attempts ahead so that the links
 * and hash slots they touch can be prefetched (the memory latency dominates);
 * every attempt still re-reads its data, so prefetching changes no result. */
#define PF 8
static void mix(rr_t *r)
{
    int64_t steps, e1[PF], e2[PF];
    int flip[PF], t;
    uint64_t L = (uint64_t)r->L;

    if (r->L < 2)
        return;
    for (t = 0; t < PF; t++) {
        e1[t] = (int64_t)tk_rng_below(r->rng, L);
        e2[t] = (int64_t)tk_rng_below(r->rng, L);
        flip[t] = (int)tk_rng_below(r->rng, 2);
    }
    t = 0;
    for (steps = 0; steps < MIX_STEPS * r->L; steps++) {
        int h = (t + PF / 2) % PF;
        int32_t a = r->end[2 * e1[h]], b = r->end[2 * e1[h] + 1];
        int32_t c = r->end[2 * e2[h]], d = r->end[2 * e2[h] + 1];

        __builtin_prefetch(&r->tab[home(r, key_of(a, b))]);
        __builtin_prefetch(&r->tab[home(r, key_of(c, d))]);
        if (flip[h]) {
            int32_t x = c;
            c = d;
            d = x;
        }
        __builtin_prefetch(&r->tab[home(r, key_of(a, d))]);
        __builtin_prefetch(&r->tab[home(r, key_of(c, b))]);

        try_switch(r, e1[t], e2[t], flip[t]);
        e1[t] = (int64_t)tk_rng_below(r->rng, L);
        e2[t] = (int64_t)tk_rng_below(r->rng, L);
        flip[t] = (int)tk_rng_below(r->rng, 2);
        __builtin_prefetch(&r->end[2 * e1[t]]);
        __builtin_prefetch(&r->end[2 * e2[t]]);
        t = (t + 1) % PF;
    }
}

static int32_t find_root(int32_t *parent, int32_t x)
{
    while (parent[x] != x) {
        parent[x] = parent[parent[x]];
        x = parent[x];
    }
    return x;
}

/* Union-find components; comp[u] = root.  Returns the component count. */
static int64_t components(const rr_t *r, int32_t *comp)
{
    int64_t u, e, c = 0;

    for (u = 0; u < r->n; u++)
        comp[u] = (int32_t)u;
    for (e = 0; e < r->L; e++) {
        int32_t x = find_root(comp, r->end[2 * e]), y = find_root(comp, r->end[2 * e + 1]);
        if (x != y)
            comp[x < y ? y : x] = x < y ? x : y;
    }
    for (u = 0; u < r->n; u++) {
        comp[u] = find_root(comp, (int32_t)u);
        c += comp[u] == u;
    }
    return c;
}

/* Step 5.  The hash set is not needed (links across components are new). */
static tk_status_t make_connected(rr_t *r, tk_error_t *err)
{
    int32_t *comp = tk_malloc_array((size_t)r->n, sizeof *comp);
    int64_t rounds = 0;

    if (!comp)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    while (components(r, comp) > 1) {
        int64_t e1 = (int64_t)tk_rng_below(r->rng, (uint64_t)r->L), e2;
        int32_t a, b, c, d, cu = comp[r->end[2 * e1]];
        int flip;

        if (++rounds > 100000 + r->n) {
            free(comp);
            return tk_error_set(err, TK_EINTERNAL, NULL, 0,
                                "n=%" PRId64 " d=%" PRId64 ": connectivity repair did not finish",
                                r->n, r->d);
        }
        do
            e2 = (int64_t)tk_rng_below(r->rng, (uint64_t)r->L);
        while (comp[r->end[2 * e2]] == cu);
        flip = (int)tk_rng_below(r->rng, 2);
        a = r->end[2 * e1];
        b = r->end[2 * e1 + 1];
        c = r->end[2 * e2 + flip];
        d = r->end[2 * e2 + 1 - flip];
        r->end[2 * e1 + 1] = d;
        r->end[2 * e2] = c;
        r->end[2 * e2 + 1] = b;
        (void)a;
    }
    free(comp);
    return TK_OK;
}

/* Random simple d-regular graph into r->end (connected if want_connected). */
static tk_status_t sample(rr_t *r, int want_connected, tk_error_t *err)
{
    tk_status_t st;
    int bits = 4;

    r->end = tk_malloc_array((size_t)(2 * r->L + 1), sizeof *r->end);
    while (((uint64_t)1 << bits) < (uint64_t)(2 * r->L))
        bits++;
    r->mask = ((uint64_t)1 << bits) - 1;
    r->shift = 64 - bits;
    r->tab = tk_malloc_array((size_t)r->mask + 1, sizeof *r->tab);
    if (!r->end || !r->tab)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    st = pairing(r, err);
    if (st)
        return st;
    mix(r);
    free(r->tab);
    r->tab = NULL;
    if (want_connected)
        return make_connected(r, err);
    return TK_OK;
}

/* Check the parameters; TK_ERANGE / TK_ELIMIT with the parameter named. */
static tk_status_t check(int64_t n, int64_t d, uint64_t mem_limit, tk_error_t *err)
{
    char what[64];
    int64_t arcs;

    if (n < 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "n=%" PRId64 ": must be at least 2", n);
    if (d < 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "d=%" PRId64 ": must be at least 1", d);
    if (d >= n)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "d=%" PRId64 ": must be less than n=%" PRId64,
                            d, n);
    snprintf(what, sizeof what, "n=%" PRId64 " d=%" PRId64, n, d);
    arcs = tkg_mul(n, d);
    if (arcs >= 0 && arcs % 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "d=%" PRId64 ": n*d must be even (n=%" PRId64 ")", d, n);
    if (d == 1 && n > 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "d=1: a 1-regular graph is connected only for n=2 (n=%" PRId64 ")", n);
    /* Working memory: ends (8 bytes per link), hash set (<= 32 bytes per
     * link), union-find and complement marks (8 bytes per switch). */
    return tkg_check_size(what, n, arcs, arcs < 0 ? 0 : 20 * (uint64_t)arcs + 8 * (uint64_t)n,
                          mem_limit, err);
}

/* The dense case: the links of the complement of r's k-regular graph into
 * b (a CSR of r's links, then for each u every v > u that is not a
 * neighbour). */
static tk_status_t add_complement(const rr_t *r, tk_builder_t *b, tk_error_t *err)
{
    int64_t n = r->n, u, e;
    int64_t *off = tk_calloc_array((size_t)n + 1, sizeof *off);
    int32_t *adj = tk_malloc_array((size_t)(2 * r->L + 1), sizeof *adj);
    int32_t *mark = tk_malloc_array((size_t)n, sizeof *mark);
    tk_status_t st = TK_OK;

    if (!off || !adj || !mark) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (e = 0; e < 2 * r->L; e++)
        off[r->end[e] + 1]++;
    for (u = 0; u < n; u++)
        off[u + 1] += off[u];
    for (e = 0; e < r->L; e++) {
        int32_t x = r->end[2 * e], y = r->end[2 * e + 1];
        adj[off[x]++] = y;
        adj[off[y]++] = x;
    }
    for (u = n; u > 0; u--)
        off[u] = off[u - 1];
    off[0] = 0;
    for (u = 0; u < n; u++)
        mark[u] = -1;
    for (u = 0; u < n && st == TK_OK; u++) {
        for (e = off[u]; e < off[u + 1]; e++)
            mark[adj[e]] = (int32_t)u;
        for (int64_t v = u + 1; v < n && st == TK_OK; v++)
            if (mark[v] != u)
                st = tk_builder_add(b, u, v, err);
    }
done:
    free(off);
    free(adj);
    free(mark);
    return st;
}

/* Random connected simple d-regular graph.  Errors: TK_ERANGE (n < 2, d < 1,
 * d >= n, n*d odd, d = 1 with n > 2), TK_ELIMIT (too large), TK_ENOMEM.
 * Expected time O(n*d) (about 10*n*d/2 switches), memory about 40 bytes per
 * link besides the graph. */
tk_status_t tk_gen_rrg(int64_t n, int64_t d, uint64_t seed, uint64_t mem_limit, tk_graph_t **g,
                       tk_error_t *err)
{
    rr_t r;
    tk_builder_t *b = NULL;
    int64_t e, k;
    char spec[96];
    tk_status_t st;
    int dense;

    st = check(n, d, mem_limit, err);
    if (st)
        return st;
    memset(&r, 0, sizeof r);
    dense = 2 * d >= n;
    k = dense ? n - 1 - d : d;
    r.n = n;
    r.d = k;
    r.L = n * k / 2;
    st = tk_rng_new(&r.rng, seed, 0, err);
    if (st)
        goto fail;
    if (k > 0) {
        st = sample(&r, !dense, err);
        if (st)
            goto fail;
    }
    st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, n * d / 2, err);
    if (st)
        goto fail;
    if (!dense) {
        for (e = 0; e < r.L; e++) {
            st = tk_builder_add(b, r.end[2 * e], r.end[2 * e + 1], err);
            if (st)
                goto fail;
        }
    } else if ((st = add_complement(&r, b, err)) != TK_OK) {
        goto fail;
    }
    snprintf(spec, sizeof spec, "rrg n=%" PRId64 " d=%" PRId64 " s=%" PRIu64, n, d, seed);
    st = tk_builder_set_spec(b, spec, err);
    if (st)
        goto fail;
    free(r.end);
    tk_rng_free(r.rng);
    st = tk_builder_finish(b, g, err);
    return st;
fail:
    free(r.end);
    free(r.tab);
    tk_rng_free(r.rng);
    tk_builder_free(b);
    return st;
}

tk_status_t tkg_build_rrg(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t n, d;
    tk_status_t st;

    st = tk_kv_int(kv, "n", 2, INT64_MAX, 0, 0, &n, err);
    if (!st)
        st = tk_kv_int(kv, "d", 1, INT64_MAX, 0, 0, &d, err);
    if (!st)
        st = tk_kv_check_unused(kv, "rrg", err);
    if (st)
        return st;
    return tk_gen_rrg(n, d, o->seed, o->mem_limit, g, err);
}
