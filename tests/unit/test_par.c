/*
 * test_par.c - the deterministic parallel driver (tk_par.h).
 *
 * The promise: the same job gives the same accumulator bit for bit with
 * any thread count and with any split of its units into slices merged by
 * integer addition.  Checked on a synthetic job whose units add values of
 * very different magnitudes (so any change of the floating-point summation
 * order would show), on an exact integer job, and on real link-load plans
 * (tk_load_plan_new) of several routing models, for splits 1, 2, 3 and 7
 * and 1, 2 and 3 threads.  Also: the smallest failing unit's error
 * whatever the split, and the refusals.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

#define W 97

/* Unit u adds to entry (u * 31 + k) % W, k = 0..7, a value spanning 40
 * orders of magnitude: floating-point sums of these depend on their
 * order. */
static tk_status_t syn_unit(void *ctx, void *ws, int64_t u, double *buf, tk_error_t *err)
{
    (void)ctx;
    (void)ws;
    (void)err;
    for (int k = 0; k < 8; k++) {
        double x = ldexp(1.0 + (double)((u * 7919 + k * 104729) % 1000) / 997.0,
                         (int)((u * 13 + k * 5) % 40) - 20);
        buf[(u * 31 + k) % W] += x;
    }
    return TK_OK;
}

static tk_status_t exact_unit(void *ctx, void *ws, int64_t u, int64_t *buf, tk_error_t *err)
{
    (void)ctx;
    (void)ws;
    (void)err;
    buf[u % W] += u * u;
    buf[(u * 3) % W] += 1;
    return TK_OK;
}

/* Fails at units 333 and 1200 (the smallest, 333, must be reported). */
static tk_status_t bad_unit(void *ctx, void *ws, int64_t u, double *buf, tk_error_t *err)
{
    if (u == 333 || u == 1200)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "unit %lld failed", (long long)u);
    return syn_unit(ctx, ws, u, buf, err);
}

/* Unit 500 adds NaN, unit 700 infinity, unit 900 a value far beyond the
 * bound (which would wrap the 128-bit fixed point); ctx selects which. */
static tk_status_t nonfinite_unit(void *ctx, void *ws, int64_t u, double *buf, tk_error_t *err)
{
    int which = *(const int *)ctx;
    if (which == 0 && u == 500)
        buf[3] += NAN;
    else if (which == 1 && u == 700)
        buf[4] -= INFINITY;
    else if (which == 2 && u == 900)
        buf[5] += 1e30;
    else
        return syn_unit(NULL, ws, u, buf, err);
    return TK_OK;
}

/* The accumulator of job over `parts` slices (each run with `threads`
 * threads, in reverse order), merged. */
static tk_acc_t *sliced(const tk_par_job_t *job, int parts, int threads, tk_status_t *st,
                        tk_error_t *err)
{
    tk_acc_t *total = NULL, *part = NULL;
    *st = tk_par_acc_new(job, &total, err);
    for (int i = parts - 1; i >= 0 && *st == TK_OK; i--) {
        int64_t lo, hi;
        tk_par_slice(job, i, parts, &lo, &hi);
        *st = tk_par_acc_new(job, &part, err);
        if (*st == TK_OK)
            *st = tk_par_run(job, lo, hi, threads, part, err);
        if (*st == TK_OK)
            *st = tk_acc_merge(total, part, err);
        tk_acc_free(part);
        part = NULL;
    }
    if (*st != TK_OK) {
        tk_acc_free(total);
        return NULL;
    }
    return total;
}

static void test_splits(const char *what, const tk_par_job_t *job)
{
    static const int parts[] = {1, 2, 3, 7};
    tk_error_t err;
    tk_status_t st;
    tk_acc_t *ref = sliced(job, 1, 1, &st, &err);
    ok(ref != NULL, "%s: whole job runs (%s)", what, st ? err.msg : "ok");
    if (!ref)
        return;
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
        for (int threads = 1; threads <= 3; threads++) {
            tk_acc_t *a = sliced(job, parts[i], threads, &st, &err);
            ok(a && tk_acc_equal(a, ref), "%s: %d slice(s), %d thread(s): identical accumulator",
               what, parts[i], threads);
            tk_acc_free(a);
        }
    /* the words round-trip (what an MPI rank would send) */
    tk_acc_t *b = NULL;
    tk_acc_new(tk_acc_width(ref), tk_acc_scale_exp(ref), &b, NULL);
    memcpy(tk_acc_words(b), tk_acc_words(ref), (size_t)tk_acc_width(ref) * 16);
    ok(tk_acc_equal(b, ref), "%s: accumulator words copy to an equal accumulator", what);
    tk_acc_free(b);
    tk_acc_free(ref);
}

static void test_synthetic(void)
{
    tk_par_job_t job;
    memset(&job, 0, sizeof job);
    job.units = 5000;
    job.chunk = 64;
    job.width = W;
    job.bound = 5000.0 * 8 * 2 * 1048576.0;
    job.unit = syn_unit;
    test_splits("synthetic doubles", &job);

    /* The slices cover every unit once, at chunk boundaries. */
    int okc = 1;
    for (int parts = 1; parts <= 9; parts++) {
        int64_t prev = 0;
        for (int i = 0; i < parts; i++) {
            int64_t lo, hi;
            tk_par_slice(&job, i, parts, &lo, &hi);
            okc &= lo == prev && hi >= lo && lo % job.chunk == 0 &&
                   (hi % job.chunk == 0 || hi == job.units);
            prev = hi;
        }
        okc &= prev == job.units;
    }
    ok(okc, "tk_par_slice: slices of 1..9 parts tile the units at chunk boundaries");

    /* Doubles against a plain sum: the accumulator is the exact sum of
     * the chunks' double sums, truncated at 2^-F. */
    double *out = calloc(W, sizeof *out);
    ok(tk_par_sum(&job, 2, out, NULL) == TK_OK, "tk_par_sum runs");
    double *plain = calloc(W, sizeof *plain);
    for (int64_t u = 0; u < job.units; u++)
        syn_unit(NULL, NULL, u, plain, NULL);
    double worst = 0;
    for (int i = 0; i < W; i++)
        worst = fmax(worst, fabs(out[i] - plain[i]) / plain[i]);
    ok(worst < 1e-12, "tk_par_sum = plain sum within rounding (rel %g)", worst);
    free(out);
    free(plain);

    /* Errors: the smallest failing unit, whatever the split and threads. */
    job.unit = bad_unit;
    int same = 1;
    for (int parts = 1; parts <= 3; parts++)
        for (int threads = 1; threads <= 2; threads++) {
            tk_error_t err;
            tk_status_t st;
            tk_acc_t *a = sliced(&job, parts, threads, &st, &err);
            same &= !a && st == TK_ERANGE && strcmp(err.msg, "unit 333 failed") == 0;
            tk_acc_free(a);
        }
    ok(same, "a failing unit: the smallest one's error (unit 333) at every split and thread count");
    job.unit = syn_unit;

    /* Refusals. */
    tk_acc_t *a = NULL, *b = NULL;
    tk_error_t err;
    tk_par_acc_new(&job, &a, NULL);
    is_int(tk_par_run(&job, 10, 64, 1, a, &err), TK_EINVAL,
           "a slice not cut at a chunk boundary: EINVAL (%s)", err.msg);
    is_int(tk_par_run(&job, 0, 6000, 1, a, &err), TK_EINVAL, "a slice beyond the units: EINVAL");
    tk_acc_new(W, 3, &b, NULL);
    is_int(tk_par_run(&job, 0, 64, 1, b, &err), TK_EINVAL,
           "an accumulator of another scale: EINVAL");
    is_int(tk_acc_merge(a, b, &err), TK_EINVAL, "merging accumulators of other scales: EINVAL");
    tk_acc_free(a);
    tk_acc_free(b);
    ok(tk_par_run(&job, 0, 0, 1, NULL, &err) == TK_EINVAL, "NULL accumulator: EINVAL");

    /* The job's memory limit (a process's share of its node): one
     * thread's buffers (24 bytes per entry, ws_bytes, 4096) beyond it are
     * refused; a limit that fits one thread runs on one, same sum. */
    {
        tk_acc_t *full = NULL, *one = NULL;
        tk_par_acc_new(&job, &full, NULL);
        tk_par_acc_new(&job, &one, NULL);
        tk_par_run(&job, 0, job.units, 2, full, NULL);
        job.mem_limit = W * 24u + 4096u - 1u;
        is_int(tk_par_run(&job, 0, job.units, 2, one, &err), TK_ELIMIT,
               "buffers beyond the job's mem_limit: ELIMIT (%s)", err.msg);
        tk_acc_clear(one);
        job.mem_limit = W * 24u + 4096u;
        ok(tk_par_run(&job, 0, job.units, 2, one, &err) == TK_OK && tk_acc_equal(full, one),
           "a mem_limit of one thread's buffers: the same accumulator");
        /* ... and the accumulator: W entries of 16 bytes. */
        tk_acc_t *acc = NULL;
        job.mem_limit = W * 16u - 1u;
        is_int(tk_par_acc_new(&job, &acc, &err), TK_ELIMIT,
               "an accumulator beyond the job's mem_limit: ELIMIT (%s)", err.msg);
        tk_par_runner_t share = {NULL, NULL, W * 16u};
        ok(tk_par_acc_new_with(&share, &job, &acc, NULL) == TK_OK && tk_acc_width(acc) == W,
           "the runner's mem_limit (this process's share) decides when set");
        tk_acc_free(acc);
        acc = NULL;
        share.mem_limit = W * 16u - 1u;
        job.mem_limit = 0;
        is_int(tk_par_acc_new_with(&share, &job, &acc, &err), TK_ELIMIT,
               "an accumulator beyond the runner's mem_limit: ELIMIT");
        is_int(tk_par_sum_with(&share, &job, 1, NULL, &err), TK_ELIMIT,
               "tk_par_sum_with: the runner's mem_limit refuses the accumulator up front");
        job.mem_limit = W * 16u;
        ok(tk_par_acc_new(&job, &acc, NULL) == TK_OK, "an accumulator within mem_limit");
        tk_acc_free(acc);
        job.mem_limit = 0;
        tk_acc_free(full);
        tk_acc_free(one);
    }

    /* A fold map: entry i of the buffer lands in entry map[i]. */
    int64_t map[W];
    for (int i = 0; i < W; i++)
        map[i] = (i * 5 + 3) % W; /* a permutation: 5 and 97 are coprime */
    double *unfolded = calloc(W, sizeof *unfolded), *folded = calloc(W, sizeof *folded);
    tk_par_sum(&job, 2, unfolded, NULL);
    job.fold_map = map;
    ok(tk_par_sum(&job, 2, folded, NULL) == TK_OK, "a job with a fold map runs");
    int same_fold = 1;
    for (int i = 0; i < W; i++)
        same_fold &= folded[map[i]] == unfolded[i];
    ok(same_fold, "fold map: entry i lands in entry map[i], bit for bit");
    test_splits("synthetic doubles, folded", &job);
    map[7] = map[8];
    is_int(tk_par_sum(&job, 1, folded, &err), TK_EINVAL,
           "a fold map that is not a permutation: EINVAL (%s)", err.msg);
    job.fold_map = NULL;
    free(unfolded);
    free(folded);
}

static void test_exact(void)
{
    tk_par_job_t job;
    memset(&job, 0, sizeof job);
    job.units = 1000;
    job.chunk = 10;
    job.width = W;
    job.unit_exact = exact_unit;
    test_splits("exact integers", &job);
    tk_acc_t *a = NULL;
    tk_par_acc_new(&job, &a, NULL);
    tk_par_run(&job, 0, job.units, 2, a, NULL);
    __int128 want = 0;
    for (int64_t u = 0; u < 1000; u++)
        if (u % W == 5)
            want += u * u;
    for (int64_t u = 0; u < 1000; u++)
        if ((u * 3) % W == 5)
            want += 1;
    ok(tk_acc_scale_exp(a) == 0 && tk_acc_get(a, 5) == want, "exact job: entry 5 is the exact sum");
    tk_acc_free(a);
}

/* A NaN, an infinity or a value beyond the job's bound is an error
 * (TK_ERANGE naming the units of the chunk), never a wrapped or NaN sum,
 * at any thread count. */
static void test_nonfinite(void)
{
    static const char *what[] = {"NaN", "-infinity", "1e30 with bound 1e6"};
    static const int64_t unit[] = {500, 700, 900};
    for (int which = 0; which < 3; which++)
        for (int threads = 1; threads <= 2; threads++) {
            tk_par_job_t job;
            memset(&job, 0, sizeof job);
            job.units = 1000;
            job.chunk = 10;
            job.width = W;
            job.bound = 1e6;
            job.ctx = &which;
            job.unit = nonfinite_unit;
            double out[W];
            tk_error_t err;
            tk_status_t st = tk_par_sum(&job, threads, out, &err);
            char want[64];
            snprintf(want, sizeof want, "units %lld..%lld", (long long)unit[which],
                     (long long)unit[which] + 9);
            ok(st == TK_ERANGE && strstr(err.msg, want) != NULL,
               "%s in unit %lld, %d thread(s): TK_ERANGE naming its chunk", what[which],
               (long long)unit[which], threads);
        }
}

/* Link-load plans: the loads of tk_load_compute, sliced. */
static void test_load_plans(void)
{
    tk_graph_t *rrg = NULL, *df = NULL;
    tk_gen_rrg(300, 6, 11, 0, &rrg, NULL);
    tk_gen_dragonfly(2, 4, 2, 9, TK_ARR_PALMTREE, 1, 0, &df, NULL);
    static const struct {
        int df;
        const char *model;
    } cases[] = {{0, "min"},          {0, "ecmp"},         {0, "valiant"},
                 {0, "ksp:3"},        {0, "allpath:5"},    {1, "dragonfly-valiant"},
                 {1, "min,global=2"}, {1, "ecmp,global=2"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const tk_graph_t *g = cases[i].df ? df : rrg;
        tk_route_spec_t sp;
        tk_router_t *r = NULL;
        tk_load_plan_t *p = NULL;
        char what[96];
        snprintf(what, sizeof what, "load plan %s on %s", cases[i].model,
                 cases[i].df ? "dragonfly a=4 h=2" : "rrg n=300 d=6");
        if (tk_route_parse(cases[i].model, &sp, NULL) || tk_router_new(g, &sp, 2, 0, &r, NULL) ||
            tk_load_plan_new(r, NULL, NULL, &p, NULL)) {
            ok(0, "%s: set up", what);
            tk_router_free(r);
            continue;
        }
        test_splits(what, tk_load_plan_job(p));
        /* and the merged slices are tk_load_all_to_all's loads */
        double *a = calloc((size_t)g->m, sizeof *a), *b = calloc((size_t)g->m, sizeof *b);
        tk_status_t st;
        tk_acc_t *acc = sliced(tk_load_plan_job(p), 7, 2, &st, NULL);
        if (acc)
            tk_acc_to_double(acc, a);
        st = tk_load_all_to_all(r, NULL, 1, b, NULL);
        ok(acc && st == TK_OK && memcmp(a, b, (size_t)g->m * sizeof *a) == 0,
           "%s: 7 merged slices give tk_load_all_to_all's loads byte for byte", what);
        free(a);
        free(b);
        tk_acc_free(acc);
        tk_load_plan_free(p);
        tk_router_free(r);
    }
    tk_graph_free(rrg);
    tk_graph_free(df);
}

/* A runner as an MPI rank set would be: `parts` slices, merged. */
typedef struct slicer {
    int parts, calls;
} slicer_t;

static tk_status_t slicer_run(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                              tk_error_t *err)
{
    slicer_t *s = ctx;
    tk_status_t st;
    s->calls++;
    tk_acc_t *a = sliced(job, s->parts, threads, &st, err);
    if (a)
        st = tk_acc_merge(acc, a, err);
    tk_acc_free(a);
    return st;
}

static tk_status_t failing_run(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                               tk_error_t *err)
{
    (void)ctx, (void)job, (void)threads, (void)acc;
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "rank 2: out of memory");
}

/* tk_dist_summary and the loads of a router with a runner: the bytes of
 * the plain run, and the runner's errors come back. */
static void test_runners(void)
{
    tk_graph_t *g = NULL;
    tk_gen_rrg(700, 5, 3, 0, &g, NULL);
    slicer_t sl = {3, 0};
    tk_par_runner_t run = {slicer_run, &sl, 0}, fail = {failing_run, NULL, 0};
    tk_dist_opts_t o1 = {2, 1, 1, 0, NULL, NULL, NULL}, o2 = {2, 1, 1, 0, NULL, NULL, &run};
    tk_dist_summary_t a, b;
    tk_error_t err;
    int same = tk_dist_summary(g, &o1, &a, NULL) == TK_OK &&
               tk_dist_summary(g, &o2, &b, NULL) == TK_OK && a.dist_sum == b.dist_sum &&
               a.pairs == b.pairs && a.hist_len == b.hist_len &&
               memcmp(a.ecc, b.ecc, (size_t)g->n * sizeof *a.ecc) == 0 &&
               memcmp(a.hist, b.hist, (size_t)a.hist_len * sizeof *a.hist) == 0;
    ok(same && sl.calls == 1, "tk_dist_summary with a 3-slice runner: the plain summary");
    tk_dist_summary_destroy(&a);
    tk_dist_summary_destroy(&b);
    o2.runner = &fail;
    ok(tk_dist_summary(g, &o2, &b, &err) == TK_ENOMEM &&
           strcmp(err.msg, "rank 2: out of memory") == 0,
       "tk_dist_summary: the runner's error comes back");
    tk_dist_summary_destroy(&b);
    /* The accumulator (n eccentricity entries and more, 16 bytes each)
     * is checked against the runner's share of memory, before any work. */
    o2.runner = &run;
    run.mem_limit = 16u * (uint64_t)g->n;
    sl.calls = 0;
    ok(tk_dist_summary(g, &o2, &b, &err) == TK_ELIMIT && sl.calls == 0 &&
           strstr(err.msg, "accumulator") != NULL,
       "tk_dist_summary: an accumulator beyond the runner's mem_limit: ELIMIT (%s)", err.msg);
    tk_dist_summary_destroy(&b);
    run.mem_limit = 0;

    tk_route_spec_t sp;
    tk_router_t *r = NULL;
    double *x = calloc((size_t)g->m, sizeof *x), *y = calloc((size_t)g->m, sizeof *y);
    if (tk_route_parse("ecmp", &sp, NULL) == TK_OK &&
        tk_router_new(g, &sp, 2, 0, &r, NULL) == TK_OK) {
        tk_status_t s1 = tk_load_all_to_all(r, NULL, 2, x, NULL);
        sl.calls = 0;
        tk_router_set_runner(r, &run);
        tk_status_t s2 = tk_load_all_to_all(r, NULL, 2, y, NULL);
        ok(s1 == TK_OK && s2 == TK_OK && sl.calls == 1 && tk_router_runner(r) == &run &&
               memcmp(x, y, (size_t)g->m * sizeof *x) == 0,
           "loads of a router with a 3-slice runner: the plain loads byte for byte");
        tk_router_set_runner(r, &fail);
        ok(tk_load_all_to_all(r, NULL, 2, y, &err) == TK_ENOMEM,
           "loads: the runner's error comes back");
    } else {
        ok(0, "router set up");
    }
    tk_router_free(r);
    free(x);
    free(y);
    tk_graph_free(g);
}

int main(void)
{
    test_synthetic();
    test_exact();
    test_nonfinite();
    test_load_plans();
    test_runners();
    return tap_done();
}
