/*
 * test_antmill.c - Ant Mill cycles (the Ant Mill paper, an adverse traffic
 * pattern for networks on random regular graphs): search, the largest delta
 * reached, independent verifier, cycle files, pattern, medoid.  Expected
 * deltas come from the paper's arguments (girth, Moore graphs, path counts)
 * and from closed forms.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antmill/antmill_internal.h"
#include "tap.h"
#include "topokit.h"

static tk_graph_t *gen(const char *family, const char *params)
{
    char buf[256], *argv[16];
    int argc = 0;
    tk_gen_opts_t o;
    tk_graph_t *g = NULL;
    tk_error_t err;

    snprintf(buf, sizeof buf, "%s", params);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    memset(&o, 0, sizeof o);
    o.seed = 7;
    o.seed_given = 1;
    if (tk_generate(family, argc, argv, &o, &g, &err)) {
        printf("# generate %s %s: %s\n", family, params, err.msg);
        return NULL;
    }
    return g;
}

/* Search with delta D, verify independently; returns the verified delta or
 * -1 on failure (status in *st). */
static int32_t search_verify(const tk_graph_t *g, int32_t delta, uint64_t seed, double budget,
                             tk_status_t *st, tk_antmill_stats_t *stats, tk_id_t *out)
{
    tk_antmill_opts_t o;
    tk_error_t err;
    tk_id_t *c = malloc((size_t)g->n * sizeof *c);
    int32_t d = -1;

    memset(&o, 0, sizeof o);
    o.delta = delta;
    o.seed = seed;
    o.budget = budget;
    *st = tk_antmill_search(g, &o, c, stats, &err);
    if (*st == TK_OK) {
        if (tk_antmill_verify(g, c, g->n, "test", NULL, &d, &err) != TK_OK) {
            printf("# verify: %s\n", err.msg);
            d = -2;
        }
        if (out)
            memcpy(out, c, (size_t)g->n * sizeof *c);
    } else {
        printf("# search delta=%d: %s\n", (int)delta, err.msg);
    }
    free(c);
    return d;
}

static void family_case(const char *fam, const char *params, int32_t want_delta, int exact,
                        const char *why)
{
    tk_graph_t *g = gen(fam, params);
    tk_status_t st;
    tk_antmill_stats_t stats;
    if (!g) {
        ok(0, "%s %s generated", fam, params);
        return;
    }
    int32_t d = search_verify(g, 0, 3, 20, &st, &stats, NULL);
    ok(st == TK_OK && d >= 0, "%s %s: H-hat found and verified Hamiltonian (delta %d)", fam, params,
       (int)d);
    if (want_delta > 0) {
        d = search_verify(g, want_delta, 5, 20, &st, &stats, NULL);
        if (exact)
            is_int(d, want_delta, "%s %s: H with delta %d found, verified delta exactly %d (%s)",
                   fam, params, (int)want_delta, (int)want_delta, why);
        else
            ok(d >= want_delta, "%s %s: H with delta >= %d found and verified (%s)", fam, params,
               (int)want_delta, why);
    }
    tk_graph_free(g);
}

/* tk_antmill_max_delta from delta 0 up to bound, seed 3: the verified delta
 * (-1 on failure, status in *st), the cycle in out (may be NULL). */
static int32_t max_delta(const tk_graph_t *g, int32_t from, int32_t bound, double budget,
                         tk_status_t *st, tk_antmill_stats_t *stats, tk_id_t *out)
{
    tk_antmill_opts_t o;
    tk_error_t err;
    tk_id_t *c = malloc((size_t)g->n * sizeof *c);
    int32_t d = -1, check = -2;

    memset(&o, 0, sizeof o);
    o.delta = from;
    o.seed = 3;
    o.budget = budget;
    *st = tk_antmill_max_delta(g, &o, bound, c, &d, stats, &err);
    if (*st != TK_OK) {
        printf("# max_delta from %d to %d: %s\n", (int)from, (int)bound, err.msg);
        d = -1;
    } else if (tk_antmill_verify(g, c, g->n, "test", NULL, &check, &err) != TK_OK || check != d) {
        printf("# max_delta: returned delta %d, verifier says %d\n", (int)d, (int)check);
        d = -2;
    }
    if (out && *st == TK_OK)
        memcpy(out, c, (size_t)g->n * sizeof *c);
    free(c);
    return d;
}

/* Radius of g (the upper bound of every cycle's delta). */
static int32_t radius_of(const tk_graph_t *g)
{
    tk_dist_opts_t o;
    tk_dist_summary_t s;
    tk_error_t err;
    int32_t r;

    memset(&o, 0, sizeof o);
    if (tk_dist_summary(g, &o, &s, &err) != TK_OK)
        return -1;
    r = s.radius;
    tk_dist_summary_destroy(&s);
    return r;
}

static void max_delta_cases(void)
{
    tk_status_t st, st2;
    tk_antmill_stats_t stats;
    tk_graph_t *g;

    /* Q4: distance-2 pairs have 2 shortest paths, so the raise from delta 1
     * (H-hat) ends at the first step, without an error. */
    g = gen("hypercube", "dim=4");
    is_int(max_delta(g, 0, radius_of(g), 20, &st, &stats, NULL), 1,
           "Q4: the raise stops at delta 1 (delta 2 impossible), no error");
    ok(stats.extensions > 0 && stats.seconds >= 0, "Q4: statistics summed over the searches");
    /* The required delta is the caller's: unreachable is an error. */
    max_delta(g, 2, 4, 20, &st, &stats, NULL);
    is_int(st, TK_EUNSUPPORTED, "Q4: required delta 2 refused as by tk_antmill_search");
    tk_graph_free(g);

    /* Hoffman-Singleton (Moore graph, radius 2): every cycle has delta 2; a
     * bound above the radius is harmless (delta 3 has no unique pair). */
    g = gen("slimfly", "q=5");
    is_int(radius_of(g), 2, "Hoffman-Singleton: radius 2");
    is_int(max_delta(g, 0, 2, 20, &st, &stats, NULL), 2, "Hoffman-Singleton: delta 2 = radius");
    is_int(max_delta(g, 0, 1000, 20, &st, &stats, NULL), 2,
           "Hoffman-Singleton: bound 1000 (clipped to n-1) still gives delta 2");
    tk_graph_free(g);

    /* Tori: every Hamiltonian cycle zigzags, so delta 1 whatever the bound
     * (the Ant Mill paper, section 4.1). */
    g = gen("torus", "sides=6,6");
    is_int(max_delta(g, 0, radius_of(g), 20, &st, &stats, NULL), 1, "torus 6x6: delta 1 at most");
    tk_graph_free(g);

    /* Slim Fly q=7: the raise reaches delta 2 = radius; with no raise the
     * call is the plain search plus verification (same cycle). */
    g = gen("slimfly", "q=7");
    {
        tk_id_t *c1 = malloc((size_t)g->n * sizeof *c1), *c2 = malloc((size_t)g->n * sizeof *c2);
        tk_antmill_opts_t o;
        tk_error_t err;
        int32_t d1, d2 = -1;

        is_int(max_delta(g, 0, radius_of(g), 20, &st, &stats, c1), 2,
               "Slim Fly q=7: raised to delta 2 = radius");
        d1 = max_delta(g, 0, radius_of(g), 20, &st2, &stats, c2);
        ok(st == TK_OK && st2 == TK_OK && d1 == 2 && memcmp(c1, c2, (size_t)g->n * sizeof *c1) == 0,
           "Slim Fly q=7: same seed, same cycle");
        d1 = max_delta(g, 1, 0, 20, &st, &stats, c1);
        memset(&o, 0, sizeof o);
        o.delta = 1;
        o.seed = 3;
        o.budget = 20;
        st2 = tk_antmill_search(g, &o, c2, NULL, &err);
        if (st2 == TK_OK)
            st2 = tk_antmill_verify(g, c2, g->n, NULL, NULL, &d2, &err);
        ok(st == TK_OK && st2 == TK_OK && d1 == d2 &&
               memcmp(c1, c2, (size_t)g->n * sizeof *c1) == 0,
           "Slim Fly q=7: bound 0 = tk_antmill_search + tk_antmill_verify (delta %d)", (int)d1);
        free(c1);
        free(c2);
    }
    tk_graph_free(g);

    /* RRG: at least the girth guarantee floor((g-1)/2), at most the radius. */
    g = gen("rrg", "n=60 d=5");
    {
        int32_t girth = 0, r = radius_of(g), d;
        tk_error_t err;
        tk_girth(g, 1, &girth, &err);
        d = max_delta(g, 0, r, 20, &st, &stats, NULL);
        ok(d >= (girth - 1) / 2 && d <= r && d >= 1,
           "RRG(60,5): girth %d, radius %d: delta %d in [floor((g-1)/2), radius]", (int)girth,
           (int)r, (int)d);
    }
    tk_graph_free(g);

    /* A budget spent before the required delta is reached is an error. */
    g = gen("rrg", "n=2000 d=6");
    max_delta(g, 0, 5, 1e-9, &st, &stats, NULL);
    is_int(st, TK_ELIMIT, "RRG(2000,6): budget spent in the first search is TK_ELIMIT");
    tk_graph_free(g);
}

/* --- impossibility proofs against brute force (issue 28) ----------------- */

/* Largest delta of any Hamiltonian cycle of g (n <= 10), by enumerating
 * them all from switch 0 and measuring each with tk_antmill_verify; -1 when
 * g has none. */
static void bf_rec(const tk_graph_t *g, tk_id_t *path, uint8_t *used, int l, int32_t *best)
{
    tk_error_t err;
    tk_id_t e = path[l - 1];
    if (*best >= 3) /* the most the callers ask about */
        return;
    if (l == g->n) {
        int32_t d;
        /* each undirected cycle twice (both directions): harmless */
        if (tk_graph_has_arc(g, e, path[0]) &&
            tk_antmill_verify(g, path, g->n, "bf", NULL, &d, &err) == TK_OK && d > *best)
            *best = d;
        return;
    }
    for (int64_t a = g->off[e]; a < g->off[e + 1]; a++) {
        tk_id_t w = g->head[a];
        if (used[w])
            continue;
        used[w] = 1;
        path[l] = w;
        bf_rec(g, path, used, l + 1, best);
        used[w] = 0;
    }
}

static int32_t brute_max_delta(const tk_graph_t *g)
{
    tk_id_t path[16];
    uint8_t used[16] = {0};
    int32_t best = -1;
    path[0] = 0;
    used[0] = 1;
    bf_rec(g, path, used, 1, &best);
    return best;
}

/* G(n, p) from a 64-bit LCG (seed), undirected (directed: every ordered
 * pair is an arc with probability p). */
static tk_graph_t *gnp_dir(int n, int p_per_100, uint64_t seed, int directed)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    tk_error_t err;
    uint64_t x = seed * 0x9E3779B97F4A7C15ull + 1;
    tk_builder_new(&b, n, directed, &err);
    for (int u = 0; u < n; u++)
        for (int v = directed ? 0 : u + 1; v < n; v++) {
            if (v == u)
                continue;
            x = x * 6364136223846793005ull + 1442695040888963407ull;
            if ((int)((x >> 33) % 100) < p_per_100)
                tk_builder_add(b, u, v, &err);
        }
    tk_builder_finish(b, &g, &err);
    return g;
}

static tk_graph_t *gnp(int n, int p_per_100, uint64_t seed)
{
    return gnp_dir(n, p_per_100, seed, 0);
}

static const char *const reason_kind[] = {
    "fewer ordered pairs at distance",         "has no switch at distance",
    "fewer than two admissible continuations", "no walk of",
    "admissible windows lie on closed walks",  "starts no window on a closed walk",
};
#define NKINDS ((int)(sizeof reason_kind / sizeof *reason_kind))
#ifndef NGRAPHS
#define NGRAPHS 300
#endif

/* Every proof given on small random graphs is confirmed by brute force (no
 * Hamiltonian cycle reaches that delta), every cycle found is verified, and
 * each kind of proof occurs. */
static void test_proofs_brute_force(void)
{
    int hits[NKINDS] = {0};
    int unsound = 0, wrong = 0, proofs = 0, found = 0;
    for (uint64_t seed = 1; seed <= NGRAPHS; seed++) {
        /* G(n, p) with n 8..11 and p 25..45 %, random 3- and 4-regular
         * graphs with 8..12 switches */
        tk_graph_t *g = NULL;
        tk_error_t gerr;
        if (seed % 3 == 0)
            g = gnp(8 + (int)(seed % 4), 25 + 5 * (int)(seed % 5), seed);
        else if (tk_gen_rrg(8 + 2 * (int64_t)(seed % 3), seed % 3 == 1 ? 3 : 4, seed, 0, &g, &gerr))
            continue;
        int32_t bf = -2;
        for (int32_t delta = 2; delta <= 3; delta++) {
            tk_antmill_opts_t o;
            tk_antmill_stats_t stats;
            tk_error_t err;
            tk_id_t c[16];
            int32_t d;
            memset(&o, 0, sizeof o);
            o.delta = delta;
            o.seed = seed;
            o.budget = 0.05;
            tk_status_t st = tk_antmill_search(g, &o, c, &stats, &err);
            if (st == TK_OK) {
                found++;
                if (tk_antmill_verify(g, c, g->n, "t", NULL, &d, &err) != TK_OK || d < delta)
                    wrong++;
                continue;
            }
            if (stats.outcome != TK_ANTMILL_IMPOSSIBLE)
                continue;
            proofs++;
            if (bf == -2)
                bf = brute_max_delta(g);
            if (bf >= delta) {
                unsound++;
                printf("# seed %d delta %d: '%s' but a cycle has delta %d\n", (int)seed, (int)delta,
                       stats.reason, (int)bf);
            }
            for (int k = 0; k < NKINDS; k++)
                if (strstr(stats.reason, reason_kind[k]))
                    hits[k]++;
        }
        tk_graph_free(g);
    }
    printf("# %d proofs, %d cycles found\n", proofs, found);
    is_int(unsound, 0, "every impossibility proof confirmed by brute force (small random graphs)");
    is_int(wrong, 0, "every cycle found verified at the delta asked");
    for (int k = 0; k < NKINDS; k++)
        ok(hits[k] > 0, "proof '%s' occurs and is confirmed (%d times)", reason_kind[k], hits[k]);
}

/* --- the exact search against brute force (issue 28) -------------------- */

/* The exact search alone (no proofs, no heuristic), cadical, no limit. */
static tk_status_t exact_only(const tk_graph_t *g, int32_t delta, tk_id_t *cycle,
                              tk_antmill_stats_t *stats, tk_error_t *err)
{
    tk_antmill_opts_t o;
    am_utable_t *ut[8] = {NULL};
    struct timespec t0;
    tk_status_t st = TK_OK;

    memset(&o, 0, sizeof o);
    memset(stats, 0, sizeof *stats);
    o.delta = delta;
    o.exact_solver = "cadical";
    for (int32_t k = 1; k <= delta && !st; k++)
        st = am_utable_new(g, k, 1, 0, &ut[k], err);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    if (!st)
        st = am_exact_search(g, &o, (const am_utable_t *const *)ut, &t0, cycle, stats, err);
    for (int32_t k = 1; k <= delta; k++)
        am_utable_free(ut[k]);
    return st;
}

/* Small random graphs (random 3- and 4-regular with 8 to 14 switches, G(n,
 * p) with 8 to 11, directed G(n, p) with 7 to 9), delta 1 to 3: the exact
 * search finds a cycle (verified at that delta) iff brute force finds one,
 * and says unsatisfiable iff there is none; the whole search with the
 * exact mode agrees.  Where the exact search ran in it and refuted an
 * undirected case, the heuristic alone (no exact mode) gives no proof. */
static void test_exact_brute_force(void)
{
    tk_error_t err;
    int wrong = 0, sat = 0, unsat = 0, agree = 0, cases = 0, by_exact = 0, open = 0, refuted = 0;
    int dsat = 0, dunsat = 0;

    if (tk_antmill_solver_check("cadical", &err) != TK_OK) {
        ok(1, "# SKIP exact search: cadical not installed");
        return;
    }
    for (uint64_t seed = 1; seed <= 32; seed++) {
        tk_graph_t *g = NULL;
        int directed = seed % 4 == 0;
        if (directed)
            g = gnp_dir(7 + (int)(seed % 3), 30 + 5 * (int)(seed % 3), seed, 1);
        else if (seed % 4 == 1)
            g = gnp(8 + (int)(seed % 4), 30 + 5 * (int)(seed % 3), seed);
        else if (tk_gen_rrg(8 + 2 * (int64_t)(seed % 4), seed % 2 ? 3 : 4, seed, 0, &g, &err))
            continue;
        int32_t bf = brute_max_delta(g);
        for (int32_t delta = 1; delta <= 3; delta++) {
            tk_antmill_stats_t stats;
            tk_antmill_opts_t o;
            tk_id_t c[16];
            int32_t d = -1;
            int bad = 0;
            tk_status_t st = exact_only(g, delta, c, &stats, &err);
            cases++;
            if (st == TK_OK) {
                sat++;
                dsat += directed;
                bad = tk_antmill_verify(g, c, g->n, "t", NULL, &d, &err) != TK_OK || d < delta ||
                      bf < delta;
            } else if (st == TK_EUNSUPPORTED && stats.outcome == TK_ANTMILL_IMPOSSIBLE &&
                       strcmp(stats.reason, "exact search: unsatisfiable") == 0) {
                unsat++;
                dunsat += directed;
                bad = bf >= delta;
            } else {
                bad = 1;
            }
            if (bad)
                printf("# seed %d delta %d: exact %d (%s), brute force %d\n", (int)seed, (int)delta,
                       (int)st, st ? err.msg : "found", (int)bf);
            wrong += bad;
            /* the whole search: proofs, quick searches, then the exact one */
            memset(&o, 0, sizeof o);
            o.delta = delta;
            o.seed = seed;
            o.exact_solver = "cadical";
            st = tk_antmill_search(g, &o, c, &stats, &err);
            if ((st == TK_OK) == (bf >= delta) &&
                (st == TK_OK || stats.outcome == TK_ANTMILL_IMPOSSIBLE))
                agree++;
            if (stats.sat_rounds == 0)
                continue;
            by_exact++;
            if (st == TK_OK || directed)
                continue;
            /* refuted by the exact search: the heuristic alone has no proof */
            refuted++;
            o.exact_solver = NULL;
            o.budget = 0.05;
            st = tk_antmill_search(g, &o, c, &stats, &err);
            if (st != TK_OK && stats.outcome != TK_ANTMILL_IMPOSSIBLE)
                open++;
        }
        tk_graph_free(g);
    }
    printf("# %d cases: %d satisfiable (%d directed), %d unsatisfiable (%d directed); the exact "
           "search ran in %d of the whole searches\n",
           cases, sat, dsat, unsat, dunsat, by_exact);
    is_int(wrong, 0,
           "exact search: a verified cycle iff brute force has one, unsatisfiable iff "
           "not (%d cases)",
           cases);
    ok(sat > 0 && unsat > 0 && dsat > 0 && dunsat > 0,
       "both answers occur, on undirected and directed graphs");
    is_int(agree, cases, "the search with the exact mode decides every case as brute force does");
    ok(refuted > 0 && open == refuted,
       "%d undirected cases refuted by the exact search, where the heuristic alone has no proof",
       refuted);
}

/* --- rounds of attempts through a runner (tk_antmill_runner_t) ---------- */
/* A runner that runs every task of a batch in reverse order through its
 * record (tk_antmill_batch_run into memory, then tk_antmill_batch_take),
 * as a process on another machine would: the cycle is the one of the
 * search without a runner, whatever the workers per round. */
typedef struct rev {
    int64_t tasks; /* tasks run */
    int agrees;    /* budget questions */
    int bad;       /* truncated records taken */
} rev_t;

static tk_status_t rev_run(void *ctx, tk_antmill_batch_t *b, tk_error_t *err)
{
    rev_t *r = ctx;
    for (int64_t i = tk_antmill_batch_tasks(b) - 1; i >= 0; i--) {
        char *buf = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&buf, &len);
        tk_status_t st;
        if (!fp)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        st = tk_antmill_batch_run(b, i, fp, err);
        fclose(fp);
        if (st == TK_OK && len > 0 && /* a truncated record is refused */
            tk_antmill_batch_take(b, i, (unsigned char *)buf, len - 1, err) != TK_EINVAL)
            r->bad++;
        if (st == TK_OK)
            st = tk_antmill_batch_take(b, i, (unsigned char *)buf, len, err);
        free(buf);
        if (st)
            return st;
        r->tasks++;
    }
    return TK_OK;
}

static int rev_agree(void *ctx, int spent)
{
    ((rev_t *)ctx)->agrees++;
    return spent;
}

static void test_rounds(void)
{
    tk_graph_t *g = gen("rrg", "n=150 d=4");
    tk_id_t *want, *got;
    tk_error_t err;
    int same = 1, ok_all = 1;
    rev_t r1 = {0, 0, 0};
    int bad = 0;

    if (!g) {
        ok(0, "rounds: graph");
        return;
    }
    want = malloc((size_t)g->n * sizeof *want);
    got = malloc((size_t)g->n * sizeof *got);
    for (int w = 0; w <= 3 && want && got; w++) {
        tk_antmill_opts_t o;
        rev_t r = {0, 0, 0};
        tk_antmill_runner_t run = {rev_run, rev_agree, w, &r};
        memset(&o, 0, sizeof o);
        o.delta = 3;
        o.seed = 3;
        o.threads = 1;
        o.runner = w ? &run : NULL;
        tk_status_t st = tk_antmill_search(g, &o, w ? got : want, NULL, &err);
        if (st != TK_OK) {
            printf("# workers %d: %s\n", w, err.msg);
            ok_all = 0;
            break;
        }
        if (w && memcmp(want, got, (size_t)g->n * sizeof *got) != 0)
            same = 0;
        if (w == 1)
            r1 = r;
        bad += r.bad;
    }
    ok(ok_all && same, "rounds of 1 to 3 workers through a runner: the cycle of the search alone");
    ok(ok_all && bad == 0, "rounds: a truncated result record is refused");
    /* workers 1: one task per attempt up to the deciding one (the fifth) */
    ok(r1.tasks == 5 && r1.agrees >= r1.tasks,
       "rounds: the fifth attempt decides (%lld attempts, %d budget questions)",
       (long long)r1.tasks, r1.agrees);
    for (int t = 3; t <= 3 && ok_all; t++) {
        tk_antmill_opts_t o;
        memset(&o, 0, sizeof o);
        o.delta = 3;
        o.seed = 3;
        o.threads = t;
        if (tk_antmill_search(g, &o, got, NULL, &err) != TK_OK ||
            memcmp(want, got, (size_t)g->n * sizeof *got) != 0)
            same = 0;
    }
    ok(ok_all && same, "rounds of 3 threads: the same cycle");
    free(want);
    free(got);
    tk_graph_free(g);
}

int main(void)
{
    tk_status_t st;
    tk_antmill_stats_t stats;
    tk_error_t err;
    tk_graph_t *g;

    /* --- families: every cycle goes through the independent verifier ---- */
    family_case("rrg", "n=60 d=5", 2, 0, "RRG, girth guarantee and search");
    family_case("slimfly", "q=7", 2, 1,
                "Slim Fly: girth 3 but few triangles, delta 2 = radius (Ant Mill paper 4.1)");
    family_case("projective", "q=5", 2, 1,
                "demi-projective ER_q: delta 2 = radius (Ant Mill paper 4.1)");
    family_case("projective", "q=3 levi=1", 2, 0, "Levi graph, girth 6 (Ant Mill paper 4.1)");
    family_case("dragonfly", "a=4 h=2", 2, 0, "Dragonfly, delta 2 (Ant Mill paper 4.1)");
    family_case("hypercube", "dim=5", 1, 1, "hypercube: 2 paths at distance 2");
    family_case("torus", "sides=6,6", 0, 0, "torus");
    family_case("gdbg", "n=40 r=3", 0, 0, "GDBG directed");

    /* Moore graph (Hoffman-Singleton = Slim Fly q=5): all shortest paths are
     * unique, so every Hamiltonian cycle has delta = diameter = 2. */
    g = gen("slimfly", "q=5");
    is_int(search_verify(g, 0, 11, 20, &st, &stats, NULL), 2,
           "Hoffman-Singleton: any Hamiltonian cycle has delta 2 (Moore graph)");
    tk_graph_free(g);

    /* Hypercube: distance-2 pairs have 2 shortest paths, so delta = 1 for
     * every cycle and delta 2 is refused at once. */
    g = gen("hypercube", "dim=4");
    is_int(search_verify(g, 0, 1, 20, &st, &stats, NULL), 1, "Q4: H-hat has delta 1");
    search_verify(g, 2, 1, 20, &st, &stats, NULL);
    is_int(st, TK_EUNSUPPORTED, "Q4: delta 2 impossible (no unique distance-2 pair)");
    tk_graph_free(g);

    /* Levi graph of PG(2,3): distance-3 pairs (point to non-incident line)
     * have q+1 = 4 paths, so delta 3 is impossible (the paper: delta 2). */
    g = gen("projective", "q=3 levi=1");
    search_verify(g, 3, 1, 20, &st, &stats, NULL);
    is_int(st, TK_EUNSUPPORTED, "Levi PG(2,3): delta 3 impossible");
    tk_graph_free(g);

    /* Torus: every Hamiltonian cycle zigzags, so delta = 1 (Ant Mill paper 4.1). */
    g = gen("torus", "sides=6,6");
    is_int(search_verify(g, 0, 2, 20, &st, &stats, NULL), 1, "torus 6x6: H-hat has delta 1");
    tk_graph_free(g);

    /* Petersen is not Hamiltonian: the search must stop (budget or
     * exhaustion), never hang. */
    g = gen("slimfly", "q=5");
    tk_graph_free(g);
    {
        tk_builder_t *b;
        tk_builder_new(&b, 10, 0, &err);
        for (int i = 0; i < 5; i++) {
            tk_builder_add(b, i, (i + 1) % 5, &err);
            tk_builder_add(b, i, i + 5, &err);
            tk_builder_add(b, 5 + i, 5 + (i + 2) % 5, &err);
        }
        tk_builder_finish(b, &g, &err);
        search_verify(g, 0, 1, 0.5, &st, &stats, NULL);
        ok(st == TK_ELIMIT || st == TK_EUNSUPPORTED,
           "Petersen: no Hamiltonian cycle, search stops");
        tk_graph_free(g);
    }

    /* --- backtracking: directed circulant i -> i+1, i -> i+2 (mod 15).  Its
     * only Hamiltonian cycles are all-steps-1 and all-steps-2 (a step of 2
     * from i forces i+1 to be entered from i-1, which forces every step to
     * be 2), so any greedy path that mixes the two dead-ends and must be
     * undone.  Candidates tie on the free-neighbour count, so the order is
     * random and some seed of five mixes. */
    {
        tk_builder_t *b;
        uint64_t bt = 0;
        int all_ok = 1;
        tk_builder_new(&b, 15, 1, &err);
        for (int i = 0; i < 15; i++) {
            tk_builder_add(b, i, (i + 1) % 15, &err);
            tk_builder_add(b, i, (i + 2) % 15, &err);
        }
        tk_builder_finish(b, &g, &err);
        for (uint64_t s = 1; s <= 5; s++) {
            int32_t d = search_verify(g, 0, s, 20, &st, &stats, NULL);
            if (d < 0)
                all_ok = 0;
            bt += stats.backtracks;
        }
        ok(all_ok, "skip circulant: cycles found and verified for 5 seeds");
        ok(bt > 0, "skip circulant: backtracking exercised (%llu extensions undone)",
           (unsigned long long)bt);
        tk_graph_free(g);
    }

    /* --- verifier on closed forms: the ring C_n itself has delta
     * floor((n-1)/2) (at distance n/2 an even ring has two paths). */
    for (int n = 5; n <= 8; n++) {
        tk_id_t c[8];
        int32_t d = -1;
        tk_gen_ring(n, &g, &err);
        for (int i = 0; i < n; i++)
            c[i] = i;
        tk_antmill_verify(g, c, n, "ring", NULL, &d, &err);
        is_int(d, (n - 1) / 2, "ring C_%d: delta floor((n-1)/2)", n);
        tk_graph_free(g);
    }
    {
        tk_id_t c[6] = {0, 1, 2, 3, 4, 5};
        int32_t d = -1;
        tk_gen_complete(6, &g, &err);
        tk_antmill_verify(g, c, 6, "k6", NULL, &d, &err);
        is_int(d, 1, "K6: any cycle has delta 1");
        /* bad cycles */
        tk_id_t rep[6] = {0, 1, 2, 3, 2, 5};
        long lines[6] = {3, 4, 5, 6, 7, 8};
        st = tk_antmill_verify(g, rep, 6, "f", lines, &d, &err);
        ok(st == TK_EFORMAT && err.line == 7 && strstr(err.msg, "repeated"),
           "repeated switch named at its line (%s:%ld: %s)", err.where, err.line, err.msg);
        st = tk_antmill_verify(g, c, 5, "f", lines, &d, &err);
        ok(st == TK_EFORMAT && strstr(err.msg, "5 switches"), "wrong count refused");
        tk_graph_free(g);
        tk_gen_ring(6, &g, &err);
        tk_id_t nh[6] = {0, 1, 2, 4, 3, 5};
        st = tk_antmill_verify(g, nh, 6, "f", lines, &d, &err);
        ok(st == TK_EFORMAT && err.line == 6 && strstr(err.msg, "no link"),
           "non-adjacent step named at its line (%ld: %s)", err.line, err.msg);
        tk_graph_free(g);
    }

    /* --- cycle files ------------------------------------------------------ */
    {
        char good[1200];
        memset(good, 'x', sizeof good);
        memcpy(good, "# ", 2);
        snprintf(good + 1000, 200, "\n0\n1\n\n2\n3\n"); /* a 1000-byte comment line first */
        const char *bad[] = {"0\n1\n2\n", "0\n1\n1\n3\n", "0\n1\n9\n3\n", "0\nx\n2\n3\n",
                             "0\n1\n2\n3\n4\n"};
        const char *want[] = {"3 switches", "repeated (first at line 2)", "out of range",
                              "expected", "out of range"};
        long wline[] = {3, 3, 3, 2, 5};
        tk_id_t *c;
        int64_t len;
        long *lines;
        FILE *fp = fmemopen((void *)good, strlen(good), "r");
        st = tk_cycle_read(fp, "good", 4, &c, &len, &lines, &err);
        fclose(fp);
        ok(st == TK_OK && len == 4 && c[2] == 2 && lines[2] == 5,
           "cycle file read with line numbers");
        if (st == TK_OK) {
            free(c);
            free(lines);
        }
        for (int i = 0; i < 5; i++) {
            fp = fmemopen((void *)bad[i], strlen(bad[i]), "r");
            st = tk_cycle_read(fp, "bad", 4, &c, &len, &lines, &err);
            fclose(fp);
            ok(st != TK_OK && err.line == wline[i] && strstr(err.msg, want[i]),
               "bad cycle file %d: %s:%ld: %s", i, err.where, err.line, err.msg);
        }
    }

    /* --- determinism: the budget never changes the cycle ------------------ */
    {
        g = gen("rrg", "n=80 d=6");
        tk_id_t *c1 = malloc(80 * sizeof *c1), *c2 = malloc(80 * sizeof *c2);
        search_verify(g, 2, 9, 0, &st, &stats, c1);
        tk_status_t st2;
        search_verify(g, 2, 9, 1000, &st2, &stats, c2);
        ok(st == TK_OK && st2 == TK_OK && memcmp(c1, c2, 80 * sizeof *c1) == 0,
           "same seed, different budgets: same cycle");
        free(c1);
        free(c2);

        /* pattern: server j of x_i -> server j of x_{i+lambda} */
        tk_graph_t *g2;
        tk_gen_opts_t o;
        char *argv[] = {(char *)"n=80", (char *)"d=6"};
        memset(&o, 0, sizeof o);
        o.seed = 7;
        o.seed_given = 1;
        o.servers = 3;
        o.servers_given = 1;
        tk_generate("rrg", 2, argv, &o, &g2, &err);
        tk_id_t *c = malloc(80 * sizeof *c);
        search_verify(g2, 2, 1, 0, &st, &stats, c);
        tk_pattern_t *p = NULL;
        st = tk_antmill_pattern(g2, c, 2, "delta=2", &p, &err);
        int good =
            st == TK_OK && p->level == TK_LEVEL_SERVER && p->endpoints == 240 && p->len == 240;
        for (int64_t k = 0; good && k < p->len; k++) {
            int64_t i = k / 3, j = k % 3;
            good = p->d[k].src == (int64_t)c[i] * 3 + j &&
                   p->d[k].dst == (int64_t)c[(i + 2) % 80] * 3 + j && p->d[k].w == 1.0;
        }
        ok(good, "(H,2)-Ant-mill pattern: 240 server demands x_i.j -> x_{i+2}.j");
        tk_pattern_free(p);
        st = tk_antmill_pattern(g2, c, 80, NULL, &p, &err);
        is_int(st, TK_EINVAL, "lambda = n refused");
        free(c);
        tk_graph_free(g2);
        tk_graph_free(g);
    }

    /* --- the largest delta reached (tk_antmill_max_delta) ----------------- */
    max_delta_cases();

    /* --- medoid ------------------------------------------------------------ */
    {
        double x1[] = {0, 1, 2, 3, 10};
        int64_t m = -1;
        tk_medoid_select(x1, 5, 1, NULL, NULL, &m, &err);
        is_int(m, 2, "1-D medoid of {0,1,2,3,10} is the median 2");
        double x2[] = {0, 1};
        tk_medoid_select(x2, 2, 1, NULL, NULL, &m, &err);
        is_int(m, 0, "tie goes to the smallest index");
        /* z-scores make the medoid scale invariant; a symmetric cross has
         * its centre as medoid */
        double x3[] = {0, 0, 1, 1000, 2, 3000, 3, 2000, 10, 9000};
        double x3s[10];
        double z[10];
        int64_t m2 = -1;
        for (int i = 0; i < 10; i++)
            x3s[i] = i % 2 ? x3[i] / 1000 : x3[i] * 7;
        tk_medoid_select(x3, 5, 2, z, NULL, &m, &err);
        tk_medoid_select(x3s, 5, 2, NULL, NULL, &m2, &err);
        is_int(m2, m, "medoid invariant under scaling each feature");
        double cross[] = {1, 0, -1, 0, 0, 0, 0, 1, 0, -1};
        tk_medoid_select(cross, 5, 2, NULL, NULL, &m2, &err);
        is_int(m2, 2, "symmetric cross: the centre is the medoid");
        is_dbl(z[0] + z[2] + z[4] + z[6] + z[8], 0, 1e-12, "z-scores have mean 0");
        double x4[] = {5, 5, 5};
        tk_medoid_select(x4, 3, 1, z, NULL, &m, &err);
        ok(m == 0 && z[1] == 0, "constant feature: z 0, medoid 0");
        st = tk_medoid_select(x4, 0, 1, NULL, NULL, &m, &err);
        is_int(st, TK_EINVAL, "no samples refused");
    }
    test_proofs_brute_force();
    test_exact_brute_force();
    test_rounds();
    return tap_done();
}
