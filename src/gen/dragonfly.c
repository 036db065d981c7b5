/*
 * dragonfly.c - canonical Dragonfly (complete groups, complete or trunked
 * global graph) and the global-link arrangements shared with Dragonfly+.
 *
 * Global ports.  Each of the g groups has P = a*h global ports: port
 * t = i*h + k is global port k (0 <= k < h) of global router i
 * (0 <= i < a).  An arrangement assigns to every port a slot s (0 <= s < P;
 * the identity except for arrangement=random) and pairs slot s of group j
 * with slot s' of group j'.  Write s = rho*(g-1) + c (0 <= c < g-1),
 * m = floor(P/(g-1)) and r = P mod (g-1).  The m full rounds rho < m give
 * every other group exactly one link each; the partial round rho = m
 * (c < r) adds r links per group along a circulant.  Arithmetic on group
 * numbers is mod g.
 *
 *  palmtree  the arrangement of the Dragonfly unfairness paper's authors
 *            (Fuentes, Vallejo, Camarero, Beivide and Valero, "Network
 *            Unfairness in Dragonfly Topologies", after Garcia et al.; as in
 *            their simulators FOGSim and CAMINOS).  Count slots from the
 *            end: u = P - 1 - s, u = rho*(g-1) + c as above.  (rho < m)
 *            slot u goes to group j + c + 1 and arrives at the slot whose
 *            u' = m*(g-1) - 1 - u (round m-1-rho, offset g - 1 - c back);
 *            the partial round is that of every arrangement, on u - m*(g-1).
 *            At maximum size (g = a*h + 1) router i port k goes to group
 *            j - (i*h + k) - 1 and lands on router a-1-i, port h-1-k.
 *  relative  (rho < m)  slot c goes to group j + c + 1, arriving at slot
 *            c' = g - 2 - c of the same round rho (offset g - 1 - c back);
 *            SST merlin's "relative" global route mode.  At maximum size
 *            router i port k goes to group j + i*h + k + 1 and lands on
 *            router a-1-i, port h-1-k: palmtree with routers renumbered
 *            i -> a-1-i in every group.  When g - 1 divides a*h with m >= 2
 *            rounds the two are not isomorphic in general (a=4 h=2 g=3).
 *  circulant (rho < m)  offsets +1, -1, +2, -2, ...: c even goes to
 *            j + c/2 + 1 and arrives at c' = c + 1; c odd goes to
 *            j - (c+1)/2 and arrives at c' = c - 1; when g is even the last
 *            c = g - 2 goes to j + g/2 and arrives at c' = c.
 *  absolute  (rho < m)  slot c goes to the c-th other group in absolute
 *            order: j' = c if c < j, else c + 1; it arrives at the slot
 *            c' = j if j < j', else j - 1 (BookSim's "absolute" dragonfly).
 *  random    the relative pairing of slots, with each group's ports
 *            assigned to slots by a uniform random permutation (stream
 *            (seed, j) for group j): every router keeps h global links and
 *            every pair of groups keeps its number of links.
 *  partial round (rho = m, every arrangement): c even and c < r - 1 (or
 *            r even) goes to j + c/2 + 1, arriving at c + 1; c odd goes to
 *            j - (c+1)/2 arriving at c - 1; if r is odd the last c = r - 1
 *            goes to j + g/2 arriving at c' = c (g is then even).
 * Each pairing is an involution, so every port gets exactly one link; pairs
 * of groups get m or m + 1 links (m + 1 for the offsets of the partial
 * round).  The global ports can be paired if and only if g*a*h is even.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_internal.h"

static const char *const arr_name[] = {"palmtree", "absolute", "circulant", "random", "relative"};

const char *tkg_arrangement_name(int arr)
{
    return arr >= 0 && arr <= TKG_ARR_LAST ? arr_name[arr] : "?";
}

tk_status_t tkg_arrangement(tk_kv_t *kv, int *arr, tk_error_t *err)
{
    const char *s;
    tk_status_t st = tk_kv_str(kv, "arrangement", 1, NULL, &s, err);
    int i;

    if (st)
        return st;
    if (!s) {
        *arr = TKG_ARR_PALMTREE;
        return tkg_kv_add(kv, "arrangement", "palmtree", err);
    }
    for (i = 0; i <= TKG_ARR_LAST; i++)
        if (strcmp(s, arr_name[i]) == 0) {
            *arr = i;
            return TK_OK;
        }
    return tk_error_set(
        err, TK_EINVAL, NULL, 0,
        "arrangement=%s: unknown (palmtree, relative, absolute, circulant or random)", s);
}

tk_status_t tkg_check_groups(int64_t g, int64_t a, int64_t h, const char *akey, tk_error_t *err)
{
    int64_t P = a * h;

    if (g < 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "g=%" PRId64 ": must be at least 2", g);
    if (g > P + 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "g=%" PRId64 ": at most %s*h+1 = %" PRId64
                            " groups (one global link per pair of groups)",
                            g, akey, P + 1);
    if ((g % 2) && (P % 2))
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "g=%" PRId64 ": g*%s*h = %" PRId64 "*%" PRId64
                            " global ports is odd, so they cannot be paired: make "
                            "%s*h or g even",
                            g, akey, g, P, akey);
    return TK_OK;
}

/* The partial round (every arrangement): offset and partner c of slot c
 * among the last r = P mod (g-1) slots. */
static void partial(int64_t g, int64_t r, int64_t c, int64_t *d, int64_t *c2)
{
    if ((r % 2) && c == r - 1) {
        *d = g / 2;
        *c2 = c;
    } else if (c % 2 == 0) {
        *d = c / 2 + 1;
        *c2 = c + 1;
    } else {
        *d = g - (c + 1) / 2;
        *c2 = c - 1;
    }
}

/* Partner (group, slot) of slot s of group j. */
static void partner(int arr, int64_t g, int64_t P, int64_t j, int64_t s, int64_t *pj, int64_t *ps)
{
    int64_t m = P / (g - 1), r = P % (g - 1), q = m * (g - 1), rho, c, d, c2, jj;

    if (arr == TKG_ARR_PALMTREE) { /* slots counted from the end: u = P-1-s */
        int64_t u = P - 1 - s;
        if (u < q) {
            *pj = (j + u % (g - 1) + 1) % g;
            *ps = P - 1 - (q - 1 - u);
        } else {
            partial(g, r, u - q, &d, &c2);
            *pj = (j + d) % g;
            *ps = P - 1 - (q + c2);
        }
        return;
    }
    rho = s / (g - 1);
    c = s % (g - 1);
    if (rho == m) { /* partial round */
        partial(g, r, c, &d, &c2);
        jj = (j + d) % g;
    } else if (arr == TKG_ARR_CIRCULANT) {
        if (g % 2 == 0 && c == g - 2) {
            d = g / 2;
            c2 = c;
        } else if (c % 2 == 0) {
            d = c / 2 + 1;
            c2 = c + 1;
        } else {
            d = g - (c + 1) / 2;
            c2 = c - 1;
        }
        jj = (j + d) % g;
    } else if (arr == TKG_ARR_ABSOLUTE) {
        jj = c < j ? c : c + 1;
        c2 = j < jj ? j : j - 1;
    } else { /* relative, random */
        jj = (j + c + 1) % g;
        c2 = g - 2 - c;
    }
    *pj = jj;
    *ps = rho * (g - 1) + c2;
}

tk_status_t tkg_global_links(tk_builder_t *b, int64_t g, int64_t a, int64_t h, int64_t stride,
                             int64_t base, int arr, uint64_t seed, int cls, tk_error_t *err)
{
    int64_t P = a * h, j, t;
    int32_t *perm = NULL, *inv = NULL; /* port -> slot, slot -> port (random) */
    tk_status_t st = TK_OK;

    if (arr == TKG_ARR_RANDOM) {
        perm = tk_malloc_array((size_t)(g * P), sizeof *perm);
        inv = tk_malloc_array((size_t)(g * P), sizeof *inv);
        if (!perm || !inv) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            goto done;
        }
        for (j = 0; j < g && !st; j++) {
            tk_rng_t *rng = NULL;
            int32_t *pj = perm + j * P;
            st = tk_rng_new(&rng, seed, (uint64_t)j, err);
            if (st)
                break;
            for (t = 0; t < P; t++)
                pj[t] = (int32_t)t;
            for (t = P - 1; t > 0; t--) {
                int64_t u = (int64_t)tk_rng_below(rng, (uint64_t)t + 1);
                int32_t x = pj[t];
                pj[t] = pj[u];
                pj[u] = x;
            }
            tk_rng_free(rng);
            for (t = 0; t < P; t++)
                inv[j * P + pj[t]] = (int32_t)t;
        }
        if (st)
            goto done;
    }
    for (j = 0; j < g && !st; j++) {
        for (t = 0; t < P && !st; t++) {
            int64_t s = perm ? perm[j * P + t] : t, j2, s2, t2;
            partner(arr, g, P, j, s, &j2, &s2);
            t2 = inv ? inv[j2 * P + s2] : s2;
            if (j2 < j || (j2 == j && t2 <= t))
                continue; /* added from the other end */
            st = tk_builder_add_ex(b, j * stride + base + t / h, j2 * stride + base + t2 / h, cls,
                                   1.0, err);
        }
    }
done:
    free(perm);
    free(inv);
    return st;
}

/* Canonical Dragonfly; see topo-gen(1).  Errors: TK_ERANGE (bad sizes, see
 * tkg_check_groups), TK_ELIMIT, TK_ENOMEM.  Time and memory O(g*a*(a+h)). */
tk_status_t tk_gen_dragonfly(int64_t p, int64_t a, int64_t h, int64_t g, int arrangement,
                             uint64_t seed, uint64_t mem_limit, tk_graph_t **out, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t n, local, global, j, i, k;
    int cl, cg;
    char what[128];
    tk_status_t st;

    if (a < 1 || h < 1 || p < 0)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s: a and h must be at least 1, p at least 0",
                            a < 1   ? "a"
                            : h < 1 ? "h"
                                    : "p");
    if (arrangement < 0 || arrangement > TKG_ARR_LAST)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "arrangement: unknown (%d)", arrangement);
    if (a > INT32_MAX || h > INT32_MAX || tkg_mul(a, h) < 0 || a * h > INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "a=%" PRId64 " h=%" PRId64 ": too large", a,
                            h);
    st = tkg_check_groups(g, a, h, "a", err);
    if (st)
        return st;
    snprintf(what, sizeof what, "a=%" PRId64 " h=%" PRId64 " g=%" PRId64, a, h, g);
    n = tkg_mul(a, g);
    local = tkg_mul(n, a - 1) < 0 ? -1 : tkg_mul(n, a - 1) / 2;
    global = tkg_mul(n, h) < 0 ? -1 : tkg_mul(n, h) / 2;
    st = tkg_check_size(what, n, local < 0 || global < 0 ? -1 : 2 * (local + global),
                        n > 0 ? 12 * (uint64_t)n : 0, mem_limit, err);
    if (!st && p > INT32_MAX)
        st = tk_error_set(err, TK_ERANGE, NULL, 0, "p=%" PRId64 ": too large", p);
    if (!st)
        st = tk_builder_new(&b, n, 0, err);
    if (!st)
        st = tk_builder_reserve(b, local + global, err);
    if (!st)
        st = tk_builder_class(b, "local", &cl, err);
    if (!st)
        st = tk_builder_class(b, "global", &cg, err);
    if (!st)
        st = tk_builder_set_servers_uniform(b, (int32_t)p, err);
    if (!st)
        st = tk_builder_set_ncoord(b, 2, err);
    for (j = 0; j < g && !st; j++)
        for (i = 0; i < a && !st; i++) {
            int32_t x[2] = {(int32_t)j, (int32_t)i};
            int64_t u = j * a + i;
            st = tk_builder_set_group(b, u, (int32_t)j, err);
            if (!st)
                st = tk_builder_set_coord(b, u, x, err);
            for (k = i + 1; k < a && !st; k++)
                st = tk_builder_add_ex(b, u, j * a + k, cl, 1.0, err);
        }
    if (!st)
        st = tkg_global_links(b, g, a, h, a, 0, arrangement, seed, cg, err);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, out, err,
                      "dragonfly p=%" PRId64 " a=%" PRId64 " h=%" PRId64 " g=%" PRId64
                      " arrangement=%s s=%" PRIu64,
                      p, a, h, g, arr_name[arrangement], seed);
}

tk_status_t tkg_build_dragonfly(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                tk_error_t *err)
{
    int64_t p, a, h, ng;
    int arr;
    tk_status_t st;

    /* h alone gives the load-balanced Dragonfly, a = 2p = 2h (Chaulagain
     * and Yuan, "Enhanced UGAL Routing Schemes for Dragonfly Networks",
     * Sec. 2), with the largest g = a h + 1 */
    st = tk_kv_int(kv, "h", 1, INT32_MAX / 2, 0, 0, &h, err);
    if (!st)
        st = tk_kv_int(kv, "a", 1, INT32_MAX, 1, 2 * h, &a, err);
    if (!st && !tk_kv_has(kv, "a"))
        st = tkg_kv_add_int(kv, "a", a, err);
    if (!st)
        st = tk_kv_int(kv, "p", 0, INT32_MAX, 1, h, &p, err);
    if (!st)
        st = tk_kv_int(kv, "g", 2, INT32_MAX, 1, a * h + 1, &ng, err);
    if (st)
        return st;
    /* defaulted keys go into the spec (tkg_kv_add keeps given ones) */
    if (o->servers_given)
        p = o->servers;
    else if ((st = tkg_kv_add_int(kv, "p", p, err)))
        return st;
    if ((st = tkg_kv_add_int(kv, "g", ng, err)))
        return st;
    st = tkg_arrangement(kv, &arr, err);
    if (st)
        return st;
    return tk_gen_dragonfly(p, a, h, ng, arr, o->seed, o->mem_limit, g, err);
}
