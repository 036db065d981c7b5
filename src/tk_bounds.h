/*
 * tk_bounds.h - theoretical bounds of regular topologies, computed exactly:
 * the directed-regular-graph (DRG) bounds of Faizian, Mollah, Yuan, Pakin
 * and Lang, "Random Regular Graph and Generalized De Bruijn Graph with
 * k-shortest Path Routing" (Lemmas 1-4) and its GDBG guarantees (Lemmas 7,
 * 9, 10), the Moore and Cerf-Cowan-Mullin-Stanton bounds of undirected
 * regular graphs, Singla et al.'s throughput bound, and the traffic/routing
 * bounds of the Ant Mill paper (Ant Mill, Valiant) and of Fuentes et al.,
 * "Network Unfairness in Dragonfly Topologies" (Dragonfly ADV+i / ADVc).
 * Every formula is written out in topo-bounds(1).
 *
 * Integral bounds are exact integers, the others exact rationals
 * (numerator / denominator, 128-bit, not reduced).  Every product is checked:
 * parameters whose bounds would not fit are refused with TK_ELIMIT and a
 * message naming the parameter, never computed with a silent overflow.
 */
#ifndef TK_BOUNDS_H
#define TK_BOUNDS_H

#include <stddef.h>
#include <stdint.h>
#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Unsigned 128-bit integer (GNU C). */
typedef unsigned __int128 tk_u128_t;

/* Largest parameters accepted by tk_bounds_compute. */
#define TK_BOUNDS_MAX_N 1000000000000ULL /* 10^12 switches     */
#define TK_BOUNDS_MAX_R 100000ULL        /* 10^5 links/switch  */
#define TK_BOUNDS_MAX_K 1000000ULL       /* 10^6 paths per pair */
#define TK_BOUNDS_MAX_H 64ULL            /* hop limit          */
#define TK_BOUNDS_MAX_P 1000000ULL       /* servers per switch */

/* An exact non-negative rational num/den; den == 0 means "not applicable"
 * (printed "-"). */
typedef struct tk_ratio {
    tk_u128_t num;
    tk_u128_t den;
} tk_ratio_t;

/* "Not applicable" marker of the integral bounds. */
#define TK_BOUND_NA ((tk_u128_t)-1)

/* Parameters of one point.  N >= 2, r >= 1, k >= 1, H >= 1 or 0 for "the
 * smallest H with r^H >= N" (the ALLPATH(H) hop limit of Faizian et al.), p >= 0
 * servers per switch (0: per-server bounds not applicable). */
typedef struct tk_bounds_params {
    uint64_t N, r, k, H, p;
} tk_bounds_params_t;

/* All bounds of one point.  Integral members are TK_BOUND_NA, ratios have
 * den == 0, when the bound does not apply (see topo-bounds(1)). */
typedef struct tk_bounds {
    uint64_t N, r, k, H, p;   /* H resolved (never 0 unless no H exists)      */
    tk_u128_t diam_lb;        /* Lemma 1: smallest D, 1+r+..+r^D >= N          */
    tk_ratio_t lk;            /* Lemma 2: LK(N,r,k)                            */
    tk_u128_t paths_ub;       /* Lemma 3: floor((r+..+r^H)/(N-1))              */
    tk_ratio_t ml_lb;         /* Lemma 4: LK(N,r,1)(N-1)/r                     */
    tk_u128_t gdbg_diam_ub;   /* Lemma 7: smallest D with r^D >= N             */
    tk_u128_t gdbg_paths_lb;  /* Lemma 9: floor(r^H/N)                        */
    tk_ratio_t gdbg_ml_ub;    /* Lemma 10: (1+2r+..+H r^(H-1)) / floor(r^H/N) */
    tk_u128_t moore_diam;     /* Moore: smallest D, 1+r(1+(r-1)+..+(r-1)^(D-1)) >= N */
    tk_ratio_t cerf_avg;      /* Cerf et al.: average distance lower bound     */
    tk_ratio_t singla_theta;  /* N r / (d* f), f = N(N-1) switch pairs       */
    tk_ratio_t singla_server; /* N r / (d* f), f = N p server flows          */
} tk_bounds_t;

/* Compute every bound of one point.
 * Errors (message starts with the parameter, where = NULL): TK_EINVAL for
 * N < 2, r < 1, k < 1; TK_ELIMIT for parameters above the TK_BOUNDS_MAX_*
 * limits or bounds that would overflow 128 bits ("H=9: r^H overflows ...").
 * Time O(log_r(kN) + H) (closed forms for r <= 2); no allocation. */
TK_API tk_status_t tk_bounds_compute(const tk_bounds_params_t *p, tk_bounds_t *out,
                                     tk_error_t *err);

/* Format an unsigned 128-bit integer in decimal into buf (at least 40
 * bytes).  Returns the length. */
TK_API size_t tk_u128_format(char *buf, tk_u128_t v);

/* Format a ratio: "-" when den == 0, else the exact value correctly rounded
 * (half up) to `sig` significant digits (1..36), trailing fractional zeros
 * removed ("15/9" -> "1.6666666666666667" with sig 17, "3/2" -> "1.5").
 * The integer part is always written in full.  buf needs at least
 * sig + 80 bytes.  Returns the length.  Time O(sig + digits). */
TK_API size_t tk_ratio_format(char *buf, tk_ratio_t q, int sig);

/* Nearest double of a ratio (NAN when den == 0); accurate to a few ulps. */
TK_API double tk_ratio_double(tk_ratio_t q);

/* Traffic and routing bounds (the Ant Mill paper; Fuentes et al.): per-server throughput in
 * units of the link rate.  Inputs that are 0 (or Dbar <= 0) are absent and
 * make the bounds needing them NAN / -1. */
typedef struct tk_traffic_params {
    uint64_t p;      /* servers per switch                          */
    uint64_t d;      /* switch-to-switch degree                     */
    double Dbar;     /* average switch distance under minimal routing */
    uint64_t lambda; /* Ant Mill distance along the cycle           */
    uint64_t delta;  /* largest unique-shortest-path distance       */
    uint64_t a;      /* Dragonfly: switches per group               */
    uint64_t h;      /* Dragonfly: global links per switch          */
    uint64_t l;      /* Dragonfly: global links per group pair      */
} tk_traffic_params_t;

typedef struct tk_traffic_bounds {
    double theta_u;          /* min(1, d/(p Dbar)): uniform, minimal routing */
    double valiant_ub;       /* theta_u / 2                                  */
    double antmill_ub;       /* 1/(p lambda)                                 */
    double antmill_slowdown; /* d lambda / Dbar                              */
    int antmill_adverse;     /* 2 Dbar/d < lambda <= delta: 1, else 0; -1 NA */
    int64_t lambda_min;      /* floor(2 Dbar/d) + 1; -1 NA                   */
    double adv_i_ub;         /* l/(a p)                                      */
    double advc_ub;          /* h/(a p)                                      */
} tk_traffic_bounds_t;

/* Compute the traffic bounds.  Errors: TK_EINVAL for a negative or
 * non-finite Dbar ("Dbar=...: ..."), or lambda > 0 with p = 0 is fine (NA).
 * O(1). */
TK_API tk_status_t tk_traffic_bounds(const tk_traffic_params_t *p, tk_traffic_bounds_t *out,
                                     tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_BOUNDS_H */
