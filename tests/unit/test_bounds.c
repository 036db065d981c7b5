/*
 * test_bounds.c - the bounds of tk_bounds.h against values derived by hand
 * (derivations in the comments) and the known extremal graphs.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

static tk_bounds_t B(uint64_t N, uint64_t r, uint64_t k, uint64_t H, uint64_t p)
{
    tk_bounds_params_t par = {N, r, k, H, p};
    tk_bounds_t b;
    tk_error_t err;
    memset(&b, 0, sizeof b);
    if (tk_bounds_compute(&par, &b, &err) != TK_OK)
        tap_diag("unexpected error: %s", err.msg);
    return b;
}

/* Ratio equal to a/c (cross-multiplied, exact). */
static int ratio_is(tk_ratio_t q, unsigned long long a, unsigned long long c)
{
    return q.den != 0 && q.num * c == (tk_u128_t)a * q.den;
}

static const char *fmt(tk_ratio_t q, int sig)
{
    static char buf[256];
    tk_ratio_format(buf, q, sig);
    return buf;
}

static tk_ratio_t R(unsigned long long a, unsigned long long c)
{
    tk_ratio_t q = {a, c};
    return q;
}

static void expect_error(uint64_t N, uint64_t r, uint64_t k, uint64_t H, tk_status_t code,
                         const char *prefix, const char *desc)
{
    tk_bounds_params_t par = {N, r, k, H, 1};
    tk_bounds_t b;
    tk_error_t err;
    tk_error_clear(&err);
    tk_status_t st = tk_bounds_compute(&par, &b, &err);
    ok(st == code && strncmp(err.msg, prefix, strlen(prefix)) == 0, "%s: '%s'", desc, err.msg);
}

int main(void)
{
    tk_bounds_t b;

    /* Lemma 1: smallest D with 1 + r + .. + r^D >= N.  r = 20:
     * 1 + 20 = 21, 1 + 20 + 400 = 421, 1 + 20 + 400 + 8000 = 8421. */
    is_int(B(21, 20, 1, 0, 1).diam_lb, 1, "Lemma 1: N=21 r=20 -> 1 (1+20 >= 21)");
    is_int(B(22, 20, 1, 0, 1).diam_lb, 2, "Lemma 1: N=22 r=20 -> 2");
    is_int(B(421, 20, 1, 0, 1).diam_lb, 2, "Lemma 1: N=421 r=20 -> 2 (1+20+400)");
    is_int(B(422, 20, 1, 0, 1).diam_lb, 3, "Lemma 1: N=422 r=20 -> 3");
    is_int(B(8421, 20, 1, 0, 1).diam_lb, 3, "Lemma 1: N=8421 r=20 -> 3");
    is_int(B(8422, 20, 1, 0, 1).diam_lb, 4, "Lemma 1: N=8422 r=20 -> 4");
    /* r = 1: a directed cycle is the only strongly connected DRG: N - 1. */
    is_int(B(7, 1, 1, 0, 1).diam_lb, 6, "Lemma 1: r=1 gives N-1");
    /* Kautz K(2,3): N = 2^3 + 2^2 = 12, 1+2+4 = 7 < 12 <= 15 -> 3. */
    is_int(B(12, 2, 1, 0, 1).diam_lb, 3, "Lemma 1: Kautz(2,3) parameters -> 3");

    /* Lemma 7 (Table I, GDBG column): smallest D with r^D >= N. */
    is_int(B(20, 20, 1, 0, 1).gdbg_diam_ub, 1, "Lemma 7: N=20 r=20 -> 1");
    is_int(B(21, 20, 1, 0, 1).gdbg_diam_ub, 2, "Lemma 7: N=21 r=20 -> 2");
    is_int(B(400, 20, 1, 0, 1).gdbg_diam_ub, 2, "Lemma 7: N=400 r=20 -> 2");
    is_int(B(401, 20, 1, 0, 1).gdbg_diam_ub, 3, "Lemma 7: N=401 r=20 -> 3");
    is_int(B(8000, 20, 1, 0, 1).gdbg_diam_ub, 3, "Lemma 7: N=8000 r=20 -> 3");
    is_int(B(8001, 20, 1, 0, 1).gdbg_diam_ub, 4, "Lemma 7: N=8001 r=20 -> 4");
    ok(B(5, 1, 1, 0, 1).gdbg_diam_ub == TK_BOUND_NA, "Lemma 7: r=1 not applicable");
    /* Table I (N = 2..8421, r = 20).  By hand: Lemma 1 is 1 for N = 2..21,
     * 2 for 22..421, 3 for 422..8421; Lemma 7 is 1 for 2..20, 2 for 21..400,
     * 3 for 401..8000, 4 for 8001..8421.  They agree on the paper's ranges
     * N = 2-20, 22-400, 422-8000: 19 + 379 + 7579 = 7977 sizes (the text
     * says 7974, 94.7%; its own ranges add up to 7977 = 94.74%). */
    {
        int same = 0;
        for (uint64_t N = 2; N <= 8421; N++) {
            b = B(N, 20, 1, 0, 1);
            same += b.diam_lb == b.gdbg_diam_ub;
        }
        is_int(same, 7977, "Table I: N=2..8421 r=20, Lemma 7 = Lemma 1 for 7977 sizes");
    }

    /* Lemma 2.  N=21 r=20 k=1: T = 20 paths, all 20 one-hop: LK = 20/20 = 1.
     * N=22: T = 21: 20 at 1 hop, R = 1 at 2 hops: (20 + 2)/21 = 22/21. */
    ok(ratio_is(B(21, 20, 1, 0, 1).lk, 1, 1), "Lemma 2: LK(21,20,1) = 1");
    ok(ratio_is(B(22, 20, 1, 0, 1).lk, 22, 21), "Lemma 2: LK(22,20,1) = 22/21");
    /* N=10 r=3 k=2: T = 18: 3 at 1 hop, 9 at 2 hops (sum 12), h = 3, R = 6:
     * (3 + 2*9 + 3*6)/18 = 39/18. */
    ok(ratio_is(B(10, 3, 2, 0, 1).lk, 39, 18), "Lemma 2: LK(10,3,2) = 39/18");
    /* r = 1, N = 5: T = 4 paths of 1, 2, 3, 4 hops: 10/4 (a directed C_5). */
    ok(ratio_is(B(5, 1, 1, 0, 1).lk, 10, 4), "Lemma 2: r=1 is the directed cycle, N/2");
    /* Kautz K(3,2), N = 12: 3 at 1 hop, R = 8 at 2 hops: (3 + 16)/11 = 19/11,
     * met with equality by the Kautz graph (checked in topo-bounds.sh). */
    ok(ratio_is(B(12, 3, 1, 0, 1).lk, 19, 11), "Lemma 2: LK(12,3,1) = 19/11");

    /* Lemma 3: floor((r + .. + r^H)/(N-1)).  GDBG(3000,40) H=3:
     * (40 + 1600 + 64000)/2999 = 65640/2999 = 21.88 -> 21. */
    b = B(3000, 40, 1, 3, 1);
    is_int(b.paths_ub, 21, "Lemma 3: N=3000 r=40 H=3 -> 21");
    is_int(B(10, 3, 1, 3, 1).paths_ub, 4, "Lemma 3: N=10 r=3 H=3 -> 39/9 -> 4");
    is_int(B(10, 3, 1, 1, 1).paths_ub, 0, "Lemma 3: N=10 r=3 H=1 -> 3/9 -> 0");

    /* Lemma 9: floor(r^H/N).  GDBG(3000,40): H = 3 (40^2 = 1600 < 3000 <=
     * 64000), 64000/3000 = 21.33 -> 21, the paper's "at least 21 paths". */
    is_int(b.H, 3, "ALLPATH H for GDBG(3000,40) is 3");
    is_int(b.gdbg_paths_lb, 21, "Lemma 9: GDBG(3000,40) -> 21");
    is_int(B(3000, 40, 1, 0, 1).gdbg_paths_lb, 21, "Lemma 9 with H=0 (auto) -> 21");
    is_int(B(10, 3, 1, 2, 1).gdbg_paths_lb, 0, "Lemma 9: 9/10 -> 0 when r^H < N");

    /* Lemma 10: (1 + 2r + .. + H r^(H-1)) / floor(r^H/N).
     * GDBG(3000,40) H=3: 1 + 80 + 3*1600 = 4881, / 21.
     * N=10 r=3 H=3: (1 + 6 + 27)/floor(27/10) = 34/2 = 17; the closed form
     * (H r^H - (r^H-1)/(r-1))/(r-1) = (81 - 13)/2 = 34 agrees. */
    ok(ratio_is(b.gdbg_ml_ub, 4881, 21), "Lemma 10: GDBG(3000,40) = 4881/21");
    ok(ratio_is(B(10, 3, 1, 3, 1).gdbg_ml_ub, 17, 1), "Lemma 10: N=10 r=3 H=3 = 17");
    ok(B(10, 3, 1, 2, 1).gdbg_ml_ub.den == 0, "Lemma 10: not applicable when r^H < N");

    /* Lemma 4: LK(N,r,1)(N-1)/r.  N=10 r=3: LK = (3 + 2*6)/9 = 15/9,
     * ML = 15/9 * 9/3 = 5.  N=3000 r=40: T = 2999: 40 at 1, 1600 at 2,
     * R = 1359 at 3: (40 + 3200 + 4077)/40 = 7317/40. */
    ok(ratio_is(B(10, 3, 1, 0, 1).ml_lb, 5, 1), "Lemma 4: ML(10,3) = 5");
    ok(ratio_is(B(3000, 40, 1, 0, 1).ml_lb, 7317, 40), "Lemma 4: ML(3000,40) = 7317/40");

    /* Moore bound: smallest D with 1 + r(1 + (r-1) + .. + (r-1)^(D-1)) >= N.
     * Petersen (10,3): 1 + 3 + 6 = 10 -> 2; Hoffman-Singleton (50,7):
     * 1 + 7 + 42 = 50 -> 2; one more switch needs 3.  Cycles: 1 + 2D >= N. */
    is_int(B(10, 3, 1, 0, 1).moore_diam, 2, "Moore: Petersen parameters -> 2");
    is_int(B(11, 3, 1, 0, 1).moore_diam, 3, "Moore: N=11 r=3 -> 3");
    is_int(B(50, 7, 1, 0, 1).moore_diam, 2, "Moore: Hoffman-Singleton parameters -> 2");
    is_int(B(51, 7, 1, 0, 1).moore_diam, 3, "Moore: N=51 r=7 -> 3");
    is_int(B(7, 2, 1, 0, 1).moore_diam, 3, "Moore: C_7 -> 3");
    is_int(B(8, 2, 1, 0, 1).moore_diam, 4, "Moore: C_8 -> 4");
    ok(B(3, 1, 1, 0, 1).moore_diam == TK_BOUND_NA, "Moore: r=1 N=3 has no connected graph");

    /* Cerf et al.: Moore graphs meet it with equality.
     * Petersen: (1*3 + 2*6)/9 = 15/9; Hoffman-Singleton: (7 + 2*42)/49 =
     * 91/49; C_6: 2 at 1, 2 at 2, 1 at 3: 9/5; K_5: 4/4 = 1. */
    ok(ratio_is(B(10, 3, 1, 0, 1).cerf_avg, 15, 9), "Cerf: Petersen 15/9");
    ok(ratio_is(B(50, 7, 1, 0, 1).cerf_avg, 91, 49), "Cerf: Hoffman-Singleton 91/49");
    ok(ratio_is(B(6, 2, 1, 0, 1).cerf_avg, 9, 5), "Cerf: C_6 9/5");
    ok(ratio_is(B(5, 4, 1, 0, 1).cerf_avg, 1, 1), "Cerf: K_5 1");
    /* Singla: N r/(d* f).  Petersen, f = N(N-1) = 90: 30/(15/9 * 90) = 1/5;
     * per server p = 2, f = 20: 30/(15/9 * 20) = 9/10. */
    ok(ratio_is(B(10, 3, 1, 0, 1).singla_theta, 1, 5), "Singla: Petersen all-to-all 1/5");
    ok(ratio_is(B(10, 3, 1, 0, 2).singla_server, 9, 10), "Singla: Petersen p=2 -> 9/10");
    ok(B(10, 3, 1, 0, 0).singla_server.den == 0, "Singla per server: p=0 not applicable");

    /* Limits and overflow: refused with the parameter named. */
    expect_error(1, 3, 1, 0, TK_EINVAL, "N=1: must be at least 2", "N=1 refused");
    expect_error(10, 0, 1, 0, TK_EINVAL, "r=0: must be at least 1", "r=0 refused");
    expect_error(10, 3, 0, 0, TK_EINVAL, "k=0: must be at least 1", "k=0 refused");
    expect_error(1000000000001ULL, 3, 1, 0, TK_ELIMIT, "N=1000000000001:", "N > 10^12 refused");
    expect_error(100, 100001, 1, 0, TK_ELIMIT, "r=100001:", "r > 10^5 refused");
    expect_error(100, 3, 1, 65, TK_ELIMIT, "H=65:", "H > 64 refused");
    /* 10^5^8 = 10^40 > 2^127 ~ 1.7e38. */
    expect_error(100, 100000, 1, 8, TK_ELIMIT, "H=8: r^H overflows", "r=10^5 H=8 overflows");
    /* 10^38 < 2^127 but 1 + 2*10 + .. + 38*10^37 > 2^127. */
    expect_error(100, 10, 1, 38, TK_ELIMIT, "H=38:", "r=10 H=38: Lemma 10 sum overflows");
    b = B(100, 100000, 1, 7, 1);
    ok(b.gdbg_paths_lb == (tk_u128_t)100000000000000ULL * 10000000000000000000ULL,
       "r=10^5 H=7: r^H = 10^35 exact, floor(10^35/100) = 10^14 * 10^19");
    b = B(1000000000000ULL, 100000, 1000000, 0, 1000000);
    ok(b.N == 1000000000000ULL && b.diam_lb == 3 && b.lk.den != 0,
       "largest N, r, k, p: exact (diam_lb 3: 1+10^5+10^10 < 10^12 <= .. + 10^15)");

    /* Formatting. */
    char buf[256];
    is_str(fmt(R(15, 9), 17), "1.6666666666666667", "ratio 15/9 to 17 digits");
    is_str(fmt(R(3, 2), 17), "1.5", "ratio 3/2 exact");
    is_str(fmt(R(2, 3), 3), "0.667", "ratio 2/3 to 3 digits");
    is_str(fmt(R(999999, 1000000), 3), "1", "0.999999 to 3 digits carries to 1");
    is_str(fmt(R(95, 10), 1), "10", "9.5 to 1 digit rounds half up to 10");
    is_str(fmt(R(1, 400000), 17), "0.0000025", "1/400000 exact with leading zeros");
    is_str(fmt(R(0, 5), 17), "0", "zero");
    is_str(fmt(R(1, 0), 17), "-", "den 0 is not applicable");
    is_str(fmt(R(1234567, 1), 3), "1234567", "integer part written in full");
    is_str(fmt(R(91, 49), 17), "1.8571428571428571", "91/49 = 1.857142857142857142...");
    tk_u128_format(buf, (tk_u128_t)1 << 127);
    is_str(buf, "170141183460469231731687303715884105728", "u128 format 2^127");
    tk_u128_format(buf, 0);
    is_str(buf, "0", "u128 format 0");

    /* Traffic bounds.  p=8 d=16 Dbar=2: d/(p Dbar) = 1 -> theta_u 1, Valiant
     * 1/2; lambda=3: Ant Mill 1/(8*3) = 1/24, slowdown 16*3/2 = 24; adverse
     * range 2*2/16 = 0.25 < lambda <= delta=3: lambda_min 1, adverse. */
    tk_traffic_params_t tp = {8, 16, 2.0, 3, 3, 4, 2, 1};
    tk_traffic_bounds_t t;
    tk_error_t err;
    ok(tk_traffic_bounds(&tp, &t, &err) == TK_OK, "traffic bounds");
    is_dbl(t.theta_u, 1, 1e-15, "theta_u = min(1, d/(p Dbar)) = 1");
    is_dbl(t.valiant_ub, 0.5, 1e-15, "Valiant at most 1/2");
    is_dbl(t.antmill_ub, 1.0 / 24, 1e-15, "Ant Mill 1/(p lambda) = 1/24");
    is_dbl(t.antmill_slowdown, 24, 1e-12, "Ant Mill slowdown d lambda/Dbar = 24");
    is_int(t.lambda_min, 1, "lambda_min = floor(2 Dbar/d) + 1 = 1");
    is_int(t.antmill_adverse, 1, "lambda=3 <= delta=3: adverse");
    /* Dragonfly a=4 p=8 h=2 l=1: ADV+i l/(a p) = 1/32, ADVc h/(a p) = 2/32. */
    is_dbl(t.adv_i_ub, 1.0 / 32, 1e-15, "ADV+i l/(a p) = 1/32");
    is_dbl(t.advc_ub, 2.0 / 32, 1e-15, "ADVc h/(a p) = 1/16");
    /* d=4, Dbar=3: 2 Dbar/d = 1.5, so lambda must be >= 2; lambda=1 is not
     * adverse (slowdown 4/3 < 2). */
    tk_traffic_params_t tq = {1, 4, 3.0, 1, 5, 0, 0, 0};
    ok(tk_traffic_bounds(&tq, &t, &err) == TK_OK, "traffic bounds (2)");
    is_int(t.lambda_min, 2, "lambda_min = floor(1.5) + 1 = 2");
    is_int(t.antmill_adverse, 0, "lambda=1 below the adverse range");
    ok(isnan(t.adv_i_ub), "Dragonfly bounds absent without a");
    tk_traffic_params_t tr = {1, 4, -1.0, 1, 5, 0, 0, 0};
    ok(tk_traffic_bounds(&tr, &t, &err) == TK_EINVAL && strncmp(err.msg, "Dbar=", 5) == 0,
       "negative Dbar refused naming Dbar");
    return tap_done();
}
