/*
 * test_sweep.c - the offered loads the simulator is solved at
 * (src/sim/sweep.c): the points of a sweep A:B:STEP and the saturation
 * search's bisection (tk_sim_bisect_t, topo-sim --bisect).
 *
 * Expected values: sweep points equal to the decimals meant (k / 20 is the
 * double nearest k * 0.05); the bisection on synthetic "served" functions
 * with known thresholds: with one threshold for both criteria and RES a
 * power of 2, exactly the loads of a binary search computed here in exact
 * dyadic arithmetic; with two thresholds and any RES down to 1e-6, every
 * load the rounded midpoint of the first bracket still wider than RES that
 * the rounding can split, at most 6 decimals, brackets that hold the
 * thresholds and end at most RES wide, and no more loads than the
 * documented bound.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "tap.h"
#include "topokit.h"

/* --- sweeps ------------------------------------------------------------------ */
static void test_sweep(void)
{
    is_int(tk_sim_sweep_count(0.05, 1, 0.05), 20, "0.05:1:0.05 has 20 points");
    is_int(tk_sim_sweep_count(0.3, 0.9, 0.3), 3, "0.3:0.9:0.3 has 3 points (0.9 kept)");
    is_int(tk_sim_sweep_count(0.2, 1, 0.4), 3, "0.2:1:0.4 has 3 points");
    is_int(tk_sim_sweep_count(0.1, 0.5, 0.1), 5, "0.1:0.5:0.1 has 5 points");
    is_int(tk_sim_sweep_count(0.5, 0.5, 0.1), 1, "A = B: one point");
    is_int(tk_sim_sweep_count(0.1, 0.35, 0.1), 3, "B between points: the points below it");
    ok(0.1 + 2 * 0.1 != 0.3 && tk_sim_sweep_point(0.1, 0.1, 2) == 0.3,
       "point 2 of 0.1:...:0.1 is 0.3, not the sum 0.30000000000000004");
    int bad = 0;
    for (int64_t i = 0; i < 20; i++)
        bad += tk_sim_sweep_point(0.05, 0.05, i) != (double)(i + 1) / 20;
    is_int(bad, 0, "every point of 0.05:1:0.05 is the double nearest its decimal");
}

/* --- bisection ------------------------------------------------------------------ */

/* The synthetic network: every flow served up to t0, 99.5% served up to
 * t1, half served above. */
static double served(double rho, double t0, double t1)
{
    return rho <= t0 ? 1 : rho <= t1 ? 0.995 : 0.5;
}

/* Runs the search; its loads into rho[] (at most max); the count. */
static int64_t search(tk_sim_bisect_t *b, double res, double t0, double t1, double *rho, int max)
{
    int64_t n = 0;
    tk_sim_bisect_init(b, res);
    for (double r; (r = tk_sim_bisect_next(b)) != 0 && n < max; n++) {
        rho[n] = r;
        tk_sim_bisect_take(b, r, served(r, t0, t1));
    }
    return n;
}

static void test_bisect_example(void)
{
    /* threshold 0.3 for both, RES 1/64: a binary search of 6 halvings */
    static const double want[] = {1, 0.5, 0.25, 0.375, 0.3125, 0.28125, 0.296875};
    double rho[64];
    tk_sim_bisect_t b;
    int64_t n = search(&b, 1.0 / 64, 0.3, 0.3, rho, 64);
    is_int(n, 7, "T = 0.3, RES = 1/64: 7 loads (1 + log2(64))");
    int same = n == 7;
    for (int i = 0; same && i < 7; i++)
        same = rho[i] == want[i];
    ok(same, "the loads 1, 0.5, 0.25, 0.375, 0.3125, 0.28125, 0.296875");
    ok(b.lo[0] == 0.296875 && b.hi[0] == 0.3125 && b.lo[1] == 0.296875 && b.hi[1] == 0.3125,
       "both brackets [0.296875, 0.3125]");
    is_int(b.probes, 7, "probes counts the loads taken");

    /* every load served: 1 only */
    n = search(&b, 0.01, 2, 2, rho, 64);
    ok(n == 1 && rho[0] == 1 && b.lo[0] == 1 && b.lo[1] == 1, "all served: the load 1 only");
    /* nothing served: down to the first bracket [0, RES] */
    n = search(&b, 1.0 / 64, 0, 0, rho, 64);
    ok(n == 7 && rho[6] == 1.0 / 64 && b.lo[0] == 0 && b.hi[0] == 1.0 / 64 && b.hi[1] == 1.0 / 64,
       "nothing served: 7 loads down to 1/64, brackets [0, 1/64]");
    /* 99% only above t0: bracket 0 first, then bracket 1 */
    n = search(&b, 0.25, 0.3, 0.8, rho, 64);
    ok(n == 4 && rho[0] == 1 && rho[1] == 0.5 && rho[2] == 0.25 && rho[3] == 0.75,
       "t0 0.3, t1 0.8, RES 1/4: loads 1, 0.5, 0.25 (bracket 0), 0.75 (bracket 1)");
    ok(b.lo[0] == 0.25 && b.hi[0] == 0.5 && b.lo[1] == 0.75 && b.hi[1] == 1,
       "brackets [0.25, 0.5] and [0.75, 1]");

    /* RES 1e-6: bracket 0 ends [0.290757, 0.290758], 1e-6 wide but
     * 1.0000000000287557e-06 in binary, which the rounding cannot split;
     * bracket 1 is bisected next (it was left [0.5, 1]) */
    n = search(&b, 1e-6, 0.290757274, 0.570993389, rho, 64);
    ok(b.lo[0] == 0.290757 && b.hi[0] == 0.290758 && b.lo[1] == 0.570993 && b.hi[1] == 0.570994,
       "RES 1e-6, t0 0.290757274, t1 0.570993389: brackets [0.290757, 0.290758] and "
       "[0.570993, 0.570994]");
    ok(n <= 43, "... in %lld loads (at most 43)", (long long)n);

    /* a load outside a bracket narrows nothing, and counts */
    tk_sim_bisect_init(&b, 0.1);
    tk_sim_bisect_take(&b, 0.5, 0.5);
    tk_sim_bisect_take(&b, 0.7, 0.5);
    tk_sim_bisect_take(&b, 0.2, 1);
    tk_sim_bisect_take(&b, 0.1, 1);
    ok(b.hi[0] == 0.5 && b.hi[1] == 0.5 && b.lo[0] == 0.2 && b.lo[1] == 0.2 && b.probes == 4,
       "takes outside the brackets change nothing but probes");
    ok(tk_sim_bisect_next(&b) == 0.35, "next: the midpoint of [0.2, 0.5]");
    tk_sim_bisect_take(&b, 0.45, 0.995);
    ok(b.lo[0] == 0.2 && b.hi[0] == 0.45 && b.lo[1] == 0.45 && b.hi[1] == 0.5,
       "a load served 99.5%%: narrows bracket 0 from above, bracket 1 from below");
}

/* One threshold for both criteria, RES = 2^-m: the loads of a binary
 * search in exact dyadic arithmetic. */
static void test_bisect_binary(void)
{
    int bad = 0, m;
    for (m = 1; m <= 6; m++) {
        double res = ldexp(1, -m);
        for (int j = 0; j <= 1000; j++) {
            double t = (j + 1.0 / 3) / 1000, rho[64];
            tk_sim_bisect_t b;
            int64_t n = search(&b, res, t, t, rho, 64);
            double lo = 0, hi = 1;
            int k = 0, good = rho[k++] == 1;
            if (t >= 1)
                hi = lo = 1;
            while (hi - lo > res) {
                double mid = (lo + hi) / 2;
                good = good && k < n && rho[k++] == mid;
                if (mid <= t)
                    lo = mid;
                else
                    hi = mid;
            }
            good = good && k == n && n == (t >= 1 ? 1 : 1 + m) && b.lo[0] == lo && b.hi[0] == hi &&
                   b.lo[1] == lo && b.hi[1] == hi;
            if (!good && bad++ == 0)
                tap_diag("RES 2^-%d, t %g: %lld loads", m, t, (long long)n);
        }
    }
    is_int(bad, 0, "one threshold, RES 2^-1 .. 2^-6: the loads of a binary search, 1 + m of them");
}

static int decimals6(double x)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.6f", x);
    return strtod(buf, NULL) == x;
}

/* Two thresholds, any RES: the documented order, the bound, the end. */
static void test_bisect_general(void)
{
    static const double resv[] = {0.3, 0.1, 0.05, 0.01, 1e-3, 1e-4, 3e-6, 2e-6, 1.5e-6, 1e-6};
    uint64_t s = 12345;
    for (size_t r = 0; r < sizeof resv / sizeof *resv; r++) {
        double res = resv[r];
        int64_t bound = 1 + 2 * ((int64_t)ceil(log2(1 / res)) + 1), most = 0;
        int order = 0, dec = 0, held = 0, width = 0, over = 0;
        for (int trial = 0; trial < 2000; trial++) {
            /* thresholds anywhere, equal now and then, outside [0, 1] too */
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            double t0 = (double)(s >> 11) / 9007199254740992.0 * 1.2 - 0.1;
            s = s * 6364136223846793005ULL + 1442695040888963407ULL;
            double t1 = trial % 5 == 0 ? t0 : t0 + (double)(s >> 11) / 9007199254740992.0 * 0.5;
            tk_sim_bisect_t b;
            int64_t n = 0;
            tk_sim_bisect_init(&b, res);
            for (;;) {
                /* the documented next load, from the brackets */
                double want = 0;
                if (b.probes == 0) {
                    want = 1;
                } else {
                    for (int k = 0; k < 2; k++)
                        if (b.hi[k] - b.lo[k] > res) {
                            char buf[64];
                            snprintf(buf, sizeof buf, "%.6f", (b.lo[k] + b.hi[k]) / 2);
                            want = strtod(buf, NULL);
                            if (want > b.lo[k] && want < b.hi[k])
                                break;
                            want = 0; /* cannot split: done */
                        }
                }
                double got = tk_sim_bisect_next(&b);
                order += got != want;
                if (got == 0 || n == 100)
                    break;
                dec += !decimals6(got);
                tk_sim_bisect_take(&b, got, served(got, t0, t1));
                n++;
            }
            if (n > most)
                most = n;
            over += n > bound;
            double t[2] = {t0, t1};
            for (int k = 0; k < 2; k++) {
                held += !(b.lo[k] <= t[k] || b.lo[k] == 0) || !(b.hi[k] > t[k] || b.hi[k] == 1);
                width += !(b.hi[k] - b.lo[k] <= res * (1 + 1e-9));
            }
        }
        is_int(order, 0, "RES %g: every load is the documented one (1, then midpoints)", res);
        is_int(dec, 0, "RES %g: every load has at most 6 decimals", res);
        is_int(held, 0, "RES %g: every bracket holds its threshold", res);
        is_int(width, 0, "RES %g: both brackets end at most RES wide", res);
        ok(over == 0, "RES %g: at most %lld loads (the most: %lld)", res, (long long)bound,
           (long long)most);
    }
}

int main(void)
{
    test_sweep();
    test_bisect_example();
    test_bisect_binary();
    test_bisect_general();
    return tap_done();
}
