/*
 * debruijn.c - digraphs of the De Bruijn / Kautz kind: generalized De
 * Bruijn (GDBG), Imase-Itoh, Kautz and De Bruijn.
 *
 * All four are directed, out- and in-regular.  GDBG and Imase-Itoh have
 * parallel arcs when the degree exceeds n (kept: the graph stays regular).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>

#include "gen_internal.h"

/* i -> (i*r + a) mod n for 0 <= a < r, with the given spec.  Time O(n r). */
static tk_status_t gdbg(int64_t n, int64_t r, tk_graph_t **g, const char *spec, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t i, a;
    tk_status_t st;

    st = tk_builder_new(&b, n, 1, err);
    if (!st)
        st = tk_builder_reserve(b, n * r, err);
    for (i = 0; !st && i < n; i++) {
        int64_t t = (i * (r % n)) % n; /* i < 2^31 and r % n < 2^31 */
        for (a = 0; a < r && !st; a++) {
            st = tk_builder_add(b, i, t, err);
            if (++t == n)
                t = 0;
        }
    }
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, g, err, "%s", spec);
}

/* Number of loop-back arcs of GDBG(n, r): pairs (i, a) with
 * i*(r-1) + a = 0 mod n.  For each a, the congruence has gcd(r-1, n)
 * solutions when the gcd divides a, so the count is g * ceil(r / g).
 * (Hence at most r + g - 1 <= 2r - 1 for r >= 2: Lemma 5 of Faizian et al.,
 * "Random Regular Graph and Generalized De Bruijn Graph with k-shortest
 * Path Routing".) */
static int64_t gdbg_loops(int64_t n, int64_t r)
{
    int64_t x = r - 1, y = n, t;

    while (y) {
        t = x % y;
        x = y;
        y = t;
    }
    /* x = gcd(r-1, n); gcd(0, n) = n. */
    return x * ((r + x - 1) / x);
}

static tk_status_t check_nr(const char *nk, int64_t n, const char *rk, int64_t r, tk_error_t *err)
{
    char what[64];

    if (n < 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%" PRId64 ": must be at least 1", nk, n);
    if (r < 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%" PRId64 ": must be at least 1", rk, r);
    snprintf(what, sizeof what, "%s=%" PRId64 " %s=%" PRId64, nk, n, rk, r);
    return tkg_check_size(what, n, tkg_mul(n, r), 0, 0, err);
}

/* Generalized De Bruijn digraph GDBG(n, r): i -> (i*r + a) mod n for
 * 0 <= a < r.  Self-loops are kept (their number, g*ceil(r/g) with
 * g = gcd(r-1, n), is recorded in the spec as "loops=L"); r > n gives
 * parallel arcs.  Errors: TK_ERANGE (n < 1, r < 1), TK_ELIMIT.
 * Time and memory O(n r). */
tk_status_t tk_gen_gdbg(int64_t n, int64_t r, tk_graph_t **g, tk_error_t *err)
{
    char spec[128];
    tk_status_t st = check_nr("n", n, "r", r, err);

    if (st)
        return st;
    snprintf(spec, sizeof spec, "gdbg n=%" PRId64 " r=%" PRId64 " loops=%" PRId64, n, r,
             gdbg_loops(n, r));
    return gdbg(n, r, g, spec, err);
}

/* Imase-Itoh digraph II(n, d): i -> (-d*i - a) mod n for 1 <= a <= d.
 * Errors: TK_ERANGE (n < 1, d < 1), TK_ELIMIT.  Time and memory O(n d). */
tk_status_t tk_gen_imase_itoh(int64_t n, int64_t d, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t i, a;
    tk_status_t st = check_nr("n", n, "d", d, err);

    if (st)
        return st;
    st = tk_builder_new(&b, n, 1, err);
    if (!st)
        st = tk_builder_reserve(b, n * d, err);
    for (i = 0; !st && i < n; i++) {
        int64_t t = (n - (i * (d % n)) % n) % n; /* -d*i mod n */
        for (a = 1; a <= d && !st; a++) {
            t = t == 0 ? n - 1 : t - 1;
            st = tk_builder_add(b, i, t, err);
        }
    }
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, g, err, "imase-itoh n=%" PRId64 " d=%" PRId64, n, d);
}

/* Sizes of K(d, D) / B(d, D); -1 on overflow.  Check d >= 2, D >= 1. */
static tk_status_t check_dD(const char *fam, int64_t d, int64_t D, int64_t *n, tk_error_t *err)
{
    char what[64];
    int64_t p;

    if (d < 2)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "d=%" PRId64 ": must be at least 2", d);
    if (D < 1)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "D=%" PRId64 ": must be at least 1", D);
    p = tkg_pow(d, D - 1);
    if (fam[0] == 'k')
        *n = p < 0 || tkg_mul(p, d + 1) < 0 ? -1 : p * (d + 1); /* d^D + d^(D-1) */
    else
        *n = tkg_mul(p, d); /* d^D */
    snprintf(what, sizeof what, "d=%" PRId64 " D=%" PRId64, d, D);
    return tkg_check_size(what, *n, tkg_mul(*n, d), 0, 0, err);
}

/* Kautz digraph K(d, D): the words x_1..x_D over the alphabet {0..d} with
 * x_k != x_{k+1}, an arc from x_1..x_D to x_2..x_D y for every y != x_D.
 * n = d^D + d^(D-1) switches, out- and in-degree d, no loops, diameter D.
 * Numbering: x_1 d^(D-1) + sum_{k=2..D} (c_k - 1) d^(D-k), where
 * c_k = (x_k - x_{k-1}) mod (d+1) in 1..d.  Errors: TK_ERANGE (d < 2,
 * D < 1), TK_ELIMIT.  Time and memory O(n d). */
tk_status_t tk_gen_kautz(int64_t d, int64_t D, tk_graph_t **g, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    int64_t n, p, q, i, c;
    tk_status_t st = check_dD("kautz", d, D, &n, err);

    if (st)
        return st;
    p = n / (d + 1); /* d^(D-1) */
    q = p / d;       /* d^(D-2), 0 when D = 1 */
    st = tk_builder_new(&b, n, 1, err);
    if (!st)
        st = tk_builder_reserve(b, n * d, err);
    for (i = 0; !st && i < n; i++) {
        int64_t x1 = i / p, rest = i % p;
        if (D == 1) {
            /* Words of one letter: x -> y for every y != x. */
            for (c = 0; c <= d && !st; c++)
                if (c != x1)
                    st = tk_builder_add(b, i, c, err);
            continue;
        }
        /* Shift: x_2 becomes the first letter, c_3..c_D move up one place,
         * and the new last letter has offset c in 1..d. */
        int64_t x2 = (x1 + rest / q + 1) % (d + 1);
        for (c = 1; c <= d && !st; c++)
            st = tk_builder_add(b, i, x2 * p + (rest % q) * d + (c - 1), err);
    }
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tkg_finish(b, g, err, "kautz d=%" PRId64 " D=%" PRId64, d, D);
}

/* De Bruijn digraph B(d, D): d^D switches (words of length D over d
 * letters read as base-d numbers), i -> (d*i + a) mod d^D for 0 <= a < d;
 * diameter D, d self-loops.  Errors: TK_ERANGE (d < 2, D < 1), TK_ELIMIT.
 * Time and memory O(n d). */
tk_status_t tk_gen_debruijn(int64_t d, int64_t D, tk_graph_t **g, tk_error_t *err)
{
    char spec[96];
    int64_t n;
    tk_status_t st = check_dD("debruijn", d, D, &n, err);

    if (st)
        return st;
    snprintf(spec, sizeof spec, "debruijn d=%" PRId64 " D=%" PRId64, d, D);
    return gdbg(n, d, g, spec, err);
}

/* ------------------------------------------------------------------------ */
/* Family builders. */

static tk_status_t mem_check(const char *k1, int64_t v1, const char *k2, int64_t v2, int64_t n,
                             int64_t deg, const tk_gen_opts_t *o, tk_error_t *err)
{
    char what[64];

    snprintf(what, sizeof what, "%s=%" PRId64 " %s=%" PRId64, k1, v1, k2, v2);
    return tkg_check_size(what, n, tkg_mul(n, deg), 0, o->mem_limit, err);
}

tk_status_t tkg_build_gdbg(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    int64_t n, r, loops = -1, want;
    tk_status_t st;

    st = tk_kv_int(kv, "n", 1, INT64_MAX, 0, 0, &n, err);
    if (!st)
        st = tk_kv_int(kv, "r", 1, INT64_MAX, 0, 0, &r, err);
    if (!st)
        st = tk_kv_int(kv, "loops", 0, INT64_MAX, 1, -1, &loops, err);
    if (!st)
        st = tk_kv_check_unused(kv, "gdbg", err);
    if (!st)
        st = mem_check("n", n, "r", r, n, r, o, err);
    if (st)
        return st;
    want = gdbg_loops(n, r);
    /* loops=L on the command line (as in a recorded spec) is a check. */
    if (loops >= 0 && loops != want)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "loops=%" PRId64 ": GDBG(%" PRId64 ",%" PRId64 ") has %" PRId64
                            " loop-back links",
                            loops, n, r, want);
    st = tkg_kv_add_int(kv, "loops", want, err);
    return st ? st : tk_gen_gdbg(n, r, g, err);
}

tk_status_t tkg_build_imase_itoh(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                 tk_error_t *err)
{
    int64_t n, d;
    tk_status_t st;

    st = tk_kv_int(kv, "n", 1, INT64_MAX, 0, 0, &n, err);
    if (!st)
        st = tk_kv_int(kv, "d", 1, INT64_MAX, 0, 0, &d, err);
    if (!st)
        st = tk_kv_check_unused(kv, "imase-itoh", err);
    if (!st)
        st = mem_check("n", n, "d", d, n, d, o, err);
    return st ? st : tk_gen_imase_itoh(n, d, g, err);
}

static tk_status_t build_dD(tk_kv_t *kv, const tk_gen_opts_t *o, const char *fam, tk_graph_t **g,
                            tk_error_t *err)
{
    int64_t d, D, n;
    tk_status_t st;

    st = tk_kv_int(kv, "d", 2, INT64_MAX, 0, 0, &d, err);
    if (!st)
        st = tk_kv_int(kv, "D", 1, INT64_MAX, 0, 0, &D, err);
    if (!st)
        st = tk_kv_check_unused(kv, fam, err);
    if (!st)
        st = check_dD(fam, d, D, &n, err);
    if (!st)
        st = mem_check("d", d, "D", D, n, d, o, err);
    if (st)
        return st;
    return fam[0] == 'k' ? tk_gen_kautz(d, D, g, err) : tk_gen_debruijn(d, D, g, err);
}

tk_status_t tkg_build_kautz(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    return build_dD(kv, o, "kautz", g, err);
}

tk_status_t tkg_build_debruijn(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err)
{
    return build_dD(kv, o, "debruijn", g, err);
}
