/*
 * bounds.c - exact theoretical bounds of regular topologies (tk_bounds.h).
 *
 * Sources: Faizian, Mollah, Yuan, Pakin and Lang, "Random Regular Graph
 * and Generalized De Bruijn Graph with k-shortest Path Routing", Lemmas 1,
 * 2, 3, 4, 7, 9, 10; the Moore bound; Cerf, Cowan, Mullin and Stanton
 * (Networks 4, 1974) as quoted in Faizian et al. Sec. III-B; Singla,
 * Godfrey and Kolla (NSDI 2014) Theorem 1; the Ant Mill paper (the adverse
 * pattern of Hamiltonian cycles with unique shortest paths on random
 * regular graphs) Definition 1 and Remark 1; Fuentes, Vallejo, Camarero,
 * Beivide and Valero, "Network Unfairness in Dragonfly Topologies",
 * Sec. 3.2.2.  The formulas are written out in
 * topo-bounds(1).  All integer work is in checked unsigned 128-bit
 * arithmetic.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "tk_bounds.h"

/* Results stay below 2^127 so that TK_BOUND_NA (2^128-1) never collides. */
#define U128_SAFE ((tk_u128_t)1 << 127)

static int mul_ok(tk_u128_t a, tk_u128_t b, tk_u128_t *out)
{
    if (__builtin_mul_overflow(a, b, out))
        return 0;
    return *out < U128_SAFE;
}

static int add_ok(tk_u128_t a, tk_u128_t b, tk_u128_t *out)
{
    if (__builtin_add_overflow(a, b, out))
        return 0;
    return *out < U128_SAFE;
}

static tk_status_t overflow(tk_error_t *err, const char *key, uint64_t v, const char *what)
{
    return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s=%" PRIu64 ": %s overflows 128-bit arithmetic",
                        key, v, what);
}

/* Lemma 2 numerator for T = k(N-1) paths: with h the largest integer such
 * that R = T - (r + r^2 + .. + r^(h-1)) >= 0, num = sum_{j<h} j r^j + h R. */
static tk_status_t lk_num(uint64_t T, uint64_t r, tk_u128_t *num, tk_error_t *err)
{
    tk_u128_t sum = 0, wsum = 0, pw = r, h = 1, t;

    if (r == 1) { /* h - 1 = T, R = 0: num = 1 + 2 + .. + T */
        *num = (tk_u128_t)T * (T + 1) / 2;
        return TK_OK;
    }
    while (sum + pw <= T) { /* sum <= T <= 10^18, pw <= r T: no overflow */
        sum += pw;
        wsum += h * pw;
        h++;
        pw *= r;
    }
    if (!add_ok(wsum, h * (T - sum), &t))
        return overflow(err, "k", T, "LK");
    *num = t;
    return TK_OK;
}

static tk_status_t check_param(const char *key, uint64_t v, uint64_t lo, uint64_t hi,
                               tk_error_t *err)
{
    if (v < lo)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%" PRIu64 ": must be at least %" PRIu64,
                            key, v, lo);
    if (v > hi)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%s=%" PRIu64 ": larger than the supported %" PRIu64, key, v, hi);
    return TK_OK;
}

/* Lemma 1: the smallest D with 1 + r + .. + r^D >= N. */
static tk_u128_t drg_diameter(uint64_t N, uint64_t r)
{
    tk_u128_t s = 1, pw = 1, D = 0;

    if (r == 1)
        return N - 1;
    while (s < N) {
        pw *= r;
        s += pw;
        D++;
    }
    return D;
}

/* Lemma 7: the smallest D with r^D >= N (none for r = 1). */
static tk_u128_t gdbg_diameter(uint64_t N, uint64_t r)
{
    tk_u128_t pw = 1, D = 0;

    if (r == 1)
        return TK_BOUND_NA;
    while (pw < N) {
        pw *= r;
        D++;
    }
    return D;
}

/* Lemmas 3, 9, 10 for the hop limit b->H: paths_ub, gdbg_paths_lb and
 * gdbg_ml_ub.  TK_ELIMIT when the sums overflow. */
static tk_status_t hop_bounds(tk_bounds_t *b, tk_error_t *err)
{
    uint64_t N = b->N, r = b->r, T1 = N - 1;
    tk_u128_t sum = 0, pw = 1, wsum = 0, q, t;

    for (uint64_t i = 1; i <= b->H; i++) {
        /* wsum += i r^(i-1); pw = r^i; sum += r^i */
        if (!mul_ok(i, pw, &t) || !add_ok(wsum, t, &wsum) || !mul_ok(pw, r, &pw) ||
            !add_ok(sum, pw, &sum))
            return overflow(err, "H", b->H, r == 1 ? "r+..+r^H" : "r^H");
    }
    b->paths_ub = sum / T1;
    q = pw / N; /* pw = r^H */
    b->gdbg_paths_lb = q;
    if (q) {
        b->gdbg_ml_ub.num = wsum;
        b->gdbg_ml_ub.den = q;
    }
    return TK_OK;
}

/* Moore bound: the smallest D with 1 + r(1 + (r-1) + .. + (r-1)^(D-1))
 * >= N. */
static tk_u128_t moore_diameter(uint64_t N, uint64_t r)
{
    tk_u128_t s = 1, tt = r, D = 0;

    if (r == 1)
        return N == 2 ? 1 : TK_BOUND_NA;
    if (r == 2)
        return N / 2; /* 1 + 2D >= N */
    while (s < N) {
        s += tt;
        tt *= r - 1;
        D++;
    }
    return D;
}

/* Cerf et al.: h largest with R = (N-1) - sum_{j<h} r(r-1)^(j-1) >= 0,
 * bound (sum_{j<h} j r (r-1)^(j-1) + h R) / (N-1); none (den 0) for r = 1
 * beyond N = 2. */
static tk_ratio_t cerf_average(uint64_t N, uint64_t r)
{
    tk_u128_t T1 = N - 1;
    tk_ratio_t q = {0, 0};

    if (r == 1) {
        if (N == 2)
            q.num = 1, q.den = 1;
    } else if (r == 2) {
        tk_u128_t m = T1 / 2, R = T1 - 2 * m;
        q.num = m * (m + 1) + (m + 1) * R;
        q.den = T1;
    } else {
        tk_u128_t sum = 0, wsum = 0, tt = r, h = 1;
        while (sum + tt <= T1) {
            sum += tt;
            wsum += h * tt;
            h++;
            tt *= r - 1;
        }
        q.num = wsum + h * (T1 - sum);
        q.den = T1;
    }
    return q;
}

tk_status_t tk_bounds_compute(const tk_bounds_params_t *p, tk_bounds_t *out, tk_error_t *err)
{
    tk_bounds_t b;
    uint64_t N = p->N, r = p->r, k = p->k, H = p->H, T1 = N - 1;
    tk_u128_t num1, numk;
    tk_status_t st;

    if ((st = check_param("N", N, 2, TK_BOUNDS_MAX_N, err)) ||
        (st = check_param("r", r, 1, TK_BOUNDS_MAX_R, err)) ||
        (st = check_param("k", k, 1, TK_BOUNDS_MAX_K, err)) ||
        (st = check_param("H", H, 0, TK_BOUNDS_MAX_H, err)) ||
        (st = check_param("p", p->p, 0, TK_BOUNDS_MAX_P, err)))
        return st;

    memset(&b, 0, sizeof b);
    b.N = N, b.r = r, b.k = k, b.p = p->p;
    b.diam_lb = drg_diameter(N, r);
    b.gdbg_diam_ub = gdbg_diameter(N, r);
    b.H = H ? H : (b.gdbg_diam_ub == TK_BOUND_NA ? 0 : (uint64_t)b.gdbg_diam_ub);

    /* Lemma 2 and Lemma 4. */
    if ((st = lk_num(T1, r, &num1, err)))
        return st;
    if (k == 1) {
        numk = num1;
    } else if ((st = lk_num((uint64_t)k * T1, r, &numk, err))) {
        return st;
    }
    b.lk.num = numk;
    b.lk.den = (tk_u128_t)k * T1;
    b.ml_lb.num = num1;
    b.ml_lb.den = r;

    b.paths_ub = b.gdbg_paths_lb = TK_BOUND_NA;
    if (b.H && (st = hop_bounds(&b, err)))
        return st;
    b.moore_diam = moore_diameter(N, r);
    b.cerf_avg = cerf_average(N, r);

    /* Singla et al.: theta <= N r / (d* f), d* = cerf_avg.
     * f = N(N-1): theta <= r / (d* (N-1)) = r / cerf_num.
     * f = N p:    theta <= r / (p d*)     = r (N-1) / (p cerf_num). */
    if (b.cerf_avg.den) {
        b.singla_theta.num = r;
        b.singla_theta.den = b.cerf_avg.num;
        if (p->p) {
            b.singla_server.num = (tk_u128_t)r * T1;
            b.singla_server.den = (tk_u128_t)p->p * b.cerf_avg.num;
        }
    }
    *out = b;
    return TK_OK;
}

size_t tk_u128_format(char *buf, tk_u128_t v)
{
    char tmp[48];
    size_t n = 0, i;

    while (v > UINT64_MAX) {
        tmp[n++] = (char)('0' + (int)(v % 10));
        v /= 10;
    }
    uint64_t w = (uint64_t)v; /* 64-bit division is much faster */
    do {
        tmp[n++] = (char)('0' + (int)(w % 10));
        w /= 10;
    } while (w);
    for (i = 0; i < n; i++)
        buf[i] = tmp[n - 1 - i];
    buf[n] = '\0';
    return n;
}

/* Exact fractional digits of rem / den into frac (*nf of them), 9 at a
 * time (one 128/64-bit division per chunk), until sig + 1 significant
 * digits are known (got: those of the integer part) or the expansion
 * ends.  Half-up rounding then only needs the first dropped digit. */
static void fraction_digits(tk_u128_t rem, tk_u128_t den, int got, int sig, char *frac,
                            size_t fsize, size_t *nf)
{
    int chunk = den < ((tk_u128_t)1 << 98) ? 9 : 1;

    while ((got <= sig || *nf == 0) && rem && *nf + 9 < fsize) {
        tk_u128_t x = rem * (chunk == 9 ? 1000000000u : 10u);
        uint64_t qd = (uint64_t)(x / den);
        rem = x % den;
        for (int j = chunk - 1; j >= 0; j--) {
            frac[*nf + (size_t)j] = (char)('0' + qd % 10);
            qd /= 10;
        }
        for (int j = 0; j < chunk; j++)
            if (got || frac[*nf + (size_t)j] != '0')
                got++;
        *nf += (size_t)chunk;
    }
}

/* Add one unit in the last place of the number whose integer digits are
 * buf (*n of them) and fractional digits frac (nf), carrying into the
 * integer part (which may grow by a digit). */
static void round_up(char *buf, size_t *n, char *frac, size_t nf)
{
    size_t i;

    for (i = nf; i > 0; i--) {
        if (frac[i - 1] != '9') {
            frac[i - 1]++;
            return;
        }
        frac[i - 1] = '0';
    }
    /* carry into the integer digits */
    size_t j = *n;
    while (j > 0 && buf[j - 1] == '9')
        buf[--j] = '0';
    if (j == 0) {
        memmove(buf + 1, buf, *n + 1);
        buf[0] = '1';
        (*n)++;
    } else {
        buf[j - 1]++;
    }
}

size_t tk_ratio_format(char *buf, tk_ratio_t q, int sig)
{
    tk_u128_t num = q.num, den = q.den, ip, rem;
    char frac[128];
    size_t n, nf = 0, cut;
    int got;

    if (den == 0) {
        buf[0] = '-', buf[1] = '\0';
        return 1;
    }
    if (sig < 1)
        sig = 1;
    if (sig > 36)
        sig = 36;
    /* Keep rem * 10 in range (exact whenever den < 2^123). */
    while (den >= ((tk_u128_t)1 << 123)) {
        num >>= 1;
        den >>= 1;
    }
    if (num <= UINT64_MAX && den <= UINT64_MAX) {
        ip = (uint64_t)num / (uint64_t)den;
        rem = (uint64_t)num % (uint64_t)den;
    } else {
        ip = num / den;
        rem = num % den;
    }
    n = tk_u128_format(buf, ip);
    fraction_digits(rem, den, ip ? (int)n : 0, sig, frac, sizeof frac, &nf);
    /* Cut after the sig-th significant digit. */
    cut = 0;
    got = ip ? (int)n : 0;
    while (cut < nf && got < sig) {
        if (got || frac[cut] != '0')
            got++;
        cut++;
    }
    if (cut < nf && frac[cut] >= '5') /* round half up */
        round_up(buf, &n, frac, cut);
    nf = cut;
    while (nf > 0 && frac[nf - 1] == '0')
        nf--;
    if (nf) {
        buf[n++] = '.';
        memcpy(buf + n, frac, nf);
        n += nf;
    }
    buf[n] = '\0';
    return n;
}

double tk_ratio_double(tk_ratio_t q)
{
    if (q.den == 0)
        return NAN;
    return (double)q.num / (double)q.den;
}

tk_status_t tk_traffic_bounds(const tk_traffic_params_t *p, tk_traffic_bounds_t *out,
                              tk_error_t *err)
{
    tk_traffic_bounds_t t;
    int have_dbar = p->Dbar > 0;

    if (!isfinite(p->Dbar) || p->Dbar < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "Dbar=%g: must be a finite non-negative number", p->Dbar);
    t.theta_u = t.valiant_ub = t.antmill_ub = t.antmill_slowdown = NAN;
    t.adv_i_ub = t.advc_ub = NAN;
    t.antmill_adverse = -1;
    t.lambda_min = -1;
    if (p->p && p->d && have_dbar) {
        /* Singla per-server form with the measured average distance. */
        t.theta_u = (double)p->d / ((double)p->p * p->Dbar);
        if (t.theta_u > 1)
            t.theta_u = 1;
        t.valiant_ub = t.theta_u / 2; /* Ant Mill paper Sec. 2: Valiant gives half */
    }
    if (p->p && p->lambda)
        t.antmill_ub = 1.0 / ((double)p->p * (double)p->lambda);
    if (p->d && have_dbar) {
        t.lambda_min = (int64_t)floor(2 * p->Dbar / (double)p->d) + 1;
        if (p->lambda) {
            t.antmill_slowdown = (double)p->d * (double)p->lambda / p->Dbar;
            if (p->delta)
                t.antmill_adverse = (int64_t)p->lambda >= t.lambda_min && p->lambda <= p->delta;
        }
    }
    if (p->a && p->p) {
        if (p->l)
            t.adv_i_ub = (double)p->l / ((double)p->a * (double)p->p);
        if (p->h)
            t.advc_ub = (double)p->h / ((double)p->a * (double)p->p);
    }
    *out = t;
    return TK_OK;
}
