/*
 * test_maxmin.c - the max-min systems of tk_sim.h and their solvers
 * (src/sim/maxmin.c): fair (exact progressive filling), rr and transit
 * (the damped Jacobi fixed point).
 *
 * Every expectation is derived in a comment from the definitions of
 * tk_sim.h: closed forms on a link shared by n flows, parking lots, an
 * output where rr and fair differ, transit starving injection, the Ant
 * Mill pattern on an even cycle, aggregated against unaggregated systems
 * (rr and transit: bit for bit with exact member coefficients); the fair
 * levels against the solves; every refusal of tk_mm_check; and on random
 * instances, the fair allocation against an independent naive filling and
 * the max-min bottleneck condition, the rr and transit ones against the
 * bottleneck checker of maxmin_internal.h and against the same system
 * relabelled (bit for bit).
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"
#include "sim/maxmin_internal.h"

/* ------------------------------------------------------------------------ */
/* A growable system: resources, inputs, variables, then each variable's
 * entries right after it (variable-major). */

typedef struct sys {
    tk_mm_t mm;
} sys_t;

/* p grown to hold index i (tests: one realloc per element is fine). */
static void *grow(void *p, int64_t i, size_t sz)
{
    return realloc(p, (size_t)(i + 1) * sz);
}

static void sys_init(sys_t *s)
{
    memset(s, 0, sizeof *s);
    s->mm.voff = calloc(1, sizeof *s->mm.voff);
}

static void sys_free(sys_t *s)
{
    tk_mm_t *m = &s->mm;
    free(m->cap);
    free(m->copies);
    free(m->own_in);
    free(m->demand);
    free(m->mult);
    free(m->in_mult);
    free(m->in_transit);
    free(m->voff);
    free(m->eres);
    free(m->ein);
    free(m->ecoef);
    free(m->emcoef);
}

/* A resource of capacity cap made of `copies` copies, own input own. */
static int64_t res(sys_t *s, double cap, double copies, int64_t own)
{
    tk_mm_t *m = &s->mm;
    int64_t r = m->nres++;
    m->cap = grow(m->cap, r, sizeof *m->cap);
    m->copies = grow(m->copies, r, sizeof *m->copies);
    m->own_in = grow(m->own_in, r, sizeof *m->own_in);
    m->cap[r] = cap;
    m->copies[r] = copies;
    m->own_in[r] = own;
    return r;
}

static int64_t link(sys_t *s, double cap)
{
    return res(s, cap, 1, -1);
}

/* An input: in transit or a group of `mult` injection ports. */
static int64_t input(sys_t *s, int transit, double mult)
{
    tk_mm_t *m = &s->mm;
    int64_t i = m->nin++;
    m->in_mult = grow(m->in_mult, i, sizeof *m->in_mult);
    m->in_transit = grow(m->in_transit, i, sizeof *m->in_transit);
    m->in_mult[i] = mult;
    m->in_transit[i] = (uint8_t)transit;
    return i;
}

/* A variable of `mult` members asking for demand each; its entries
 * follow (ent). */
static int64_t var(sys_t *s, double demand, double mult)
{
    tk_mm_t *m = &s->mm;
    int64_t v = m->nvar++;
    m->demand = grow(m->demand, v, sizeof *m->demand);
    m->mult = grow(m->mult, v, sizeof *m->mult);
    m->voff = grow(m->voff, v + 1, sizeof *m->voff);
    m->demand[v] = demand;
    m->mult[v] = mult;
    m->voff[v + 1] = m->voff[v];
    return v;
}

static void ent(sys_t *s, int64_t r, int64_t in, double coef)
{
    tk_mm_t *m = &s->mm;
    int64_t e = m->voff[m->nvar]++;
    m->eres = grow(m->eres, e, sizeof *m->eres);
    m->ein = grow(m->ein, e, sizeof *m->ein);
    m->ecoef = grow(m->ecoef, e, sizeof *m->ecoef);
    m->eres[e] = r;
    m->ein[e] = in;
    m->ecoef[e] = coef;
}

/* Solves; returns the rates (malloc'd) or NULL with a failed assertion. */
static double *solve(const sys_t *s, tk_arb_t arb, double rho, int another, int64_t *bneck,
                     tk_mm_info_t *info, const char *what)
{
    tk_error_t err;
    tk_mm_info_t tmp;
    double *x = calloc((size_t)s->mm.nvar + 1, sizeof *x);
    tk_status_t st = tk_mm_solve(&s->mm, arb, rho, 0, another, x, bneck, info ? info : &tmp, &err);
    if (st != TK_OK) {
        ok(0, "%s: %s solve (%s)", what, tk_arb_name(arb), err.msg);
        free(x);
        return NULL;
    }
    return x;
}

/* Asserts x[v] = want[v] (absolute 1e-9) for every variable. */
static void expect(const sys_t *s, tk_arb_t arb, double rho, const double *want, const char *what)
{
    tk_mm_info_t info;
    double *x = solve(s, arb, rho, 0, NULL, &info, what);
    if (!x)
        return;
    int good = info.converged;
    for (int64_t v = 0; v < s->mm.nvar; v++)
        if (fabs(x[v] - want[v]) > 1e-9)
            good = 0;
    ok(good, "%s: %s", what, tk_arb_name(arb));
    if (!good)
        for (int64_t v = 0; v < s->mm.nvar; v++)
            tap_diag("  x[%lld] = %.17g, want %.17g", (long long)v, x[v], want[v]);
    free(x);
}

/* ------------------------------------------------------------------------ */

static void test_arb(void)
{
    tk_arb_t a = TK_ARB_FAIR;
    tk_error_t err;
    ok(tk_arb_parse("rr", &a, &err) == TK_OK && a == TK_ARB_RR, "parse rr");
    ok(tk_arb_parse("transit", &a, &err) == TK_OK && a == TK_ARB_TRANSIT, "parse transit");
    ok(tk_arb_parse("fair", &a, &err) == TK_OK && a == TK_ARB_FAIR, "parse fair");
    tk_status_t st = tk_arb_parse("Fair", &a, &err); /* before ok(), whose message reads err */
    ok(st == TK_EINVAL && strncmp(err.msg, "Fair: ", 6) == 0,
       "parse: an unknown name is refused, the message starts with it (%s)", err.msg);
    is_str(tk_arb_name(TK_ARB_FAIR), "fair", "name fair");
    is_str(tk_arb_name(TK_ARB_RR), "rr", "name rr");
    is_str(tk_arb_name(TK_ARB_TRANSIT), "transit", "name transit");
}

/* One link of capacity c = 1.5 shared by n = 5 flows of demand 1, each
 * through its own injection port: every policy gives c / n = 0.3 (fair:
 * 5 t = 1.5; rr: 5 ports, 0.3 each; transit: no transit port, the
 * injection ports round-robin the whole capacity).  All five through
 * one port: the same, the port gets c and its members c / n.  Weighted,
 * demands 1, 2, 3 on c = 1 under fair: (1 + 2 + 3) t = 1, t = 1/6, rates
 * 1/6, 2/6, 3/6.  At rho = 0.2 the five flows ask for 1 < 1.5: all fully
 * served, bneck -1. */
static void test_one_link(void)
{
    sys_t s, s1, w;
    double want[5];
    sys_init(&s);
    sys_init(&s1);
    int64_t L = link(&s, 1.5), L1 = link(&s1, 1.5), in1 = input(&s1, 0, 1);
    for (int k = 0; k < 5; k++) {
        int64_t in = input(&s, 0, 1);
        var(&s, 1, 1);
        ent(&s, L, in, 1);
        var(&s1, 1, 1);
        ent(&s1, L1, in1, 1);
        want[k] = 0.3;
    }
    for (int a = 0; a < 3; a++) {
        expect(&s, (tk_arb_t)a, 1, want, "one link, 5 ports");
        expect(&s1, (tk_arb_t)a, 1, want, "one link, one port of 5 flows");
    }
    int64_t b[5];
    double *x = solve(&s, TK_ARB_FAIR, 0.2, 0, b, NULL, "rho 0.2");
    if (x) {
        int good = 1;
        for (int k = 0; k < 5; k++)
            good &= x[k] == 0.2 && b[k] == -1;
        ok(good, "one link at rho = 0.2: every flow fully served (0.2, bneck -1)");
        free(x);
    }
    x = solve(&s, TK_ARB_FAIR, 1, 0, b, NULL, "bneck");
    if (x) {
        ok(b[0] == L && b[4] == L, "one link at rho = 1: bneck is the link");
        free(x);
    }
    sys_free(&s);
    sys_free(&s1);

    sys_init(&w);
    L = link(&w, 1);
    for (int k = 0; k < 3; k++) {
        var(&w, k + 1, 1);
        ent(&w, L, input(&w, 0, 1), 1);
    }
    double ww[3] = {1.0 / 6, 2.0 / 6, 3.0 / 6};
    expect(&w, TK_ARB_FAIR, 1, ww, "one link, demands 1, 2, 3: proportional");
    sys_free(&w);
}

/* A demand below the share.  One link c = 1, three flows through three
 * ports, demands 0.1, 1, 1 at rho = 1.  rr is unweighted: the ports' level
 * theta with min(0.1, theta) + 2 theta = 1 is 0.45 > 0.1, so the small flow
 * is fully served and the other two share the rest, 0.45 each.  fair is
 * weighted by demand: (0.1 + 1 + 1) t = 1, t = 1/2.1, rates 0.1/2.1 and
 * 1/2.1 (no one reaches its demand before t = rho = 1). */
static void test_demand_cap(void)
{
    sys_t s;
    sys_init(&s);
    int64_t L = link(&s, 1);
    double d[3] = {0.1, 1, 1};
    for (int k = 0; k < 3; k++) {
        var(&s, d[k], 1);
        ent(&s, L, input(&s, 0, 1), 1);
    }
    double wr[3] = {0.1, 0.45, 0.45};
    double wf[3] = {0.1 / 2.1, 1 / 2.1, 1 / 2.1};
    expect(&s, TK_ARB_RR, 1, wr, "demand 0.1 below the rr share: served, the rest shared");
    expect(&s, TK_ARB_TRANSIT, 1, wr, "demand 0.1 below the transit share");
    expect(&s, TK_ARB_FAIR, 1, wf, "demands 0.1, 1, 1 under fair: proportional");
    sys_free(&s);
}

/* Parking lot: links 0 .. k-1 (capacity 1) in a row, the long flow over
 * all of them (injected at link 0, then arriving at link j through link
 * j-1), short flow j on link j alone (injected).  Every link carries two
 * flows, so fair gives 1/2 each (every link saturates at t = 1/2).  rr:
 * two ports per link, 1/2 each.  transit: at link 0 both are injected
 * (1/2 each); at link j >= 1 the long flow has priority but only desires
 * the 1/2 link 0 grants it, so the short flow gets the other 1/2.
 * With a second short flow on link 1: link 1 has three flows, saturates
 * first at t = 1/3 and freezes the long flow and both its short flows at
 * 1/3; on every other link the short flow then rises to 1 - 1/3 = 2/3. */
static void test_parking_lot(void)
{
    enum { K = 5 };
    sys_t s, s2;
    double want[K + 2];
    for (int extra = 0; extra < 2; extra++) {
        sys_t *p = extra ? &s2 : &s;
        sys_init(p);
        int64_t L[K], inj[K + 1];
        for (int j = 0; j < K; j++)
            L[j] = link(p, 1);
        for (int j = 0; j <= K; j++)
            inj[j] = input(p, 0, 1);
        var(p, 1, 1); /* the long flow */
        ent(p, L[0], inj[K], 1);
        for (int j = 1; j < K; j++)
            ent(p, L[j], input(p, 1, 1), 1);
        for (int j = 0; j < K; j++) {
            var(p, 1, 1);
            ent(p, L[j], inj[j], 1);
        }
        if (extra) {
            var(p, 1, 1);
            ent(p, L[1], input(p, 0, 1), 1);
        }
    }
    for (int v = 0; v <= K; v++)
        want[v] = 0.5;
    for (int a = 0; a < 3; a++)
        expect(&s, (tk_arb_t)a, 1, want, "parking lot of 5 links: 1/2 each");
    want[0] = 1.0 / 3;
    for (int j = 0; j < K; j++)
        want[1 + j] = j == 1 ? 1.0 / 3 : 2.0 / 3;
    want[K + 1] = 1.0 / 3;
    expect(&s2, TK_ARB_FAIR, 1, want, "parking lot, two short flows on link 1: 1/3 and 2/3");
    sys_free(&s);
    sys_free(&s2);
}

/* rr against fair.  Flows 0, 1, 2 are injected at link U (capacity 1, a
 * port each) and go on to link L (capacity 1), which they reach through
 * the input U; flow 3 is injected at L.  fair: L carries four flows, 1/4
 * each (U carries 3/4 < 1).  rr: L has two ports, U's and the injection
 * port, each asking for more than 1/2: 1/2 each; U's 1/2 splits over its
 * three flows, 1/6 each, and the lone flow gets 1/2 (U carries 1/2).
 * transit: U's port is in transit and asks for 3 x 1/3 (what U itself
 * grants), which fills L: 1/3 each, the injected flow 0. */
static void test_rr_vs_fair(void)
{
    sys_t s;
    sys_init(&s);
    int64_t U = link(&s, 1), L = link(&s, 1), tU = input(&s, 1, 1);
    for (int k = 0; k < 3; k++) {
        var(&s, 1, 1);
        ent(&s, U, input(&s, 0, 1), 1);
        ent(&s, L, tU, 1);
    }
    var(&s, 1, 1);
    ent(&s, L, input(&s, 0, 1), 1);
    double wf[4] = {0.25, 0.25, 0.25, 0.25};
    double wr[4] = {1.0 / 6, 1.0 / 6, 1.0 / 6, 0.5};
    double wt[4] = {1.0 / 3, 1.0 / 3, 1.0 / 3, 0};
    expect(&s, TK_ARB_FAIR, 1, wf, "3 flows through one port, 1 through another: fair 1/4 each");
    expect(&s, TK_ARB_RR, 1, wr, "3 flows through one port, 1 through another: rr 1/6 and 1/2");
    expect(&s, TK_ARB_TRANSIT, 1, wt,
           "3 flows through one port, 1 through another: transit 1/3, injection 0");
    int64_t b[4];
    double *x = solve(&s, TK_ARB_RR, 1, 0, b, NULL, "rr bneck");
    if (x) {
        ok(b[0] == L && b[3] == L, "rr: the bottleneck of all four is L (got %lld, %lld)",
           (long long)b[0], (long long)b[3]);
        free(x);
    }
    sys_free(&s);
}

/* transit starving injection.  Output L (capacity 1) is fed by an incoming
 * link carrying two transit flows and by a local injection port carrying
 * one flow of demand 1.  With transit demands 0.3 each (0.6 < 1) the
 * transit port is served and the injection flow gets the leftover 0.4.
 * With demands 0.6 each (1.2 >= 1) the transit port takes everything,
 * 0.5 each, and the injection flow gets 0; rr instead splits L between
 * the two ports: 0.5 to the injection flow, 0.25 to each transit flow. */
static void test_transit_starves(void)
{
    for (int heavy = 0; heavy < 2; heavy++) {
        sys_t s;
        sys_init(&s);
        int64_t L = link(&s, 1), t = input(&s, 1, 1), inj = input(&s, 0, 1);
        double dt = heavy ? 0.6 : 0.3;
        for (int k = 0; k < 2; k++) {
            var(&s, dt, 1);
            ent(&s, L, t, 1);
        }
        var(&s, 1, 1);
        ent(&s, L, inj, 1);
        double light[3] = {0.3, 0.3, 0.4}, starve[3] = {0.5, 0.5, 0}, rr[3] = {0.25, 0.25, 0.5};
        if (heavy) {
            expect(&s, TK_ARB_TRANSIT, 1, starve, "transit demand 1.2 >= 1: injection starves");
            expect(&s, TK_ARB_RR, 1, rr, "the same under rr: 1/2 per port");
            int64_t b[3];
            double *x = solve(&s, TK_ARB_TRANSIT, 1, 0, b, NULL, "starve bneck");
            if (x) {
                ok(b[2] == L && x[2] == 0, "the starved flow's bottleneck is L");
                free(x);
            }
        } else {
            expect(&s, TK_ARB_TRANSIT, 1, light, "transit demand 0.6 < 1: injection gets 0.4");
        }
        sys_free(&s);
    }
}

/* The Ant Mill pattern on an even cycle of length 8 with lambda = 2: node
 * j's p servers (one variable of p members, demand 1) send to node j + 2
 * over links j and j + 1 (capacity 1): injected at link j through node
 * j's group of p injection ports, reaching link j + 1 through link j.
 * Every link carries 2p member flows.
 *  fair: 2p t = 1, 1/(2p) each: 1/2 for p = 1, 1/4 for p = 2.
 *  rr, p = 1: the equilibrium is unique, 1/2 each (alternating rates a and
 *  b with a + b = 1, a > b, would leave the b flows without a link where
 *  their port's share is the largest).
 *  rr, p = 2: link j has two injection ports (node j's servers, rate a
 *  each) and one transit port (node j-1's two flows, b each); with
 *  rates alternating a, b around the cycle, 2a + 2b = 1 saturates every
 *  link, and the a flows are bottlenecked at link j + 1 (their transit
 *  port's 2a is the largest share) when 2a >= b, the b flows likewise when
 *  2b >= a: every a in [1/6, 1/3] is an equilibrium (Max/Min up to
 *  p = 2), the symmetric 1/4 among them.  The Jacobi sweeps commute with
 *  the rotation of the cycle and start from a rotation-invariant state,
 *  so every sweep treats every node alike, bit for bit: they reach the
 *  symmetric equilibrium 1/4, and so does the second start (every grant
 *  0), so `another` stays 0.  (Gauss-Seidel sweeps in link order, which
 *  topo-sim had before, broke the symmetry and reached a = 4/15,
 *  b = 7/30.)
 *  Checked: every flow at the same rate, 1/4 (within 1e-12), the checker,
 *  the flag; and the
 *  interval directly: a = 1/6, 1/5, 1/4, 1/3 pass the bottleneck checker,
 *  a = 0.15 and 0.35 do not. */
static void antmill(sys_t *s, int n, double p)
{
    sys_init(s);
    for (int j = 0; j < n; j++)
        link(s, 1);
    for (int j = 0; j < n; j++)
        input(s, 0, p); /* node j's injection ports: input j */
    for (int j = 0; j < n; j++)
        input(s, 1, 1); /* link j as an input: input n + j */
    for (int j = 0; j < n; j++) {
        var(s, 1, p);
        ent(s, j, j, p);
        ent(s, (j + 1) % n, n + j, p);
    }
}

static void test_antmill(void)
{
    enum { N = 8 };
    double want[N];
    sys_t s1, s2;
    antmill(&s1, N, 1);
    antmill(&s2, N, 2);
    for (int j = 0; j < N; j++)
        want[j] = 0.5;
    expect(&s1, TK_ARB_FAIR, 1, want, "Ant Mill cycle of 8, lambda 2, p = 1: fair 1/2");
    expect(&s1, TK_ARB_RR, 1, want, "Ant Mill cycle of 8, lambda 2, p = 1: rr 1/2 (unique)");
    for (int j = 0; j < N; j++)
        want[j] = 0.25;
    expect(&s2, TK_ARB_FAIR, 1, want, "Ant Mill cycle of 8, lambda 2, p = 2: fair 1/4");
    for (int p = 1; p <= 2; p++) {
        sys_t *s = p == 1 ? &s1 : &s2;
        tk_mm_info_t info;
        double *x = solve(s, TK_ARB_RR, 1, 1, NULL, &info, "antmill another");
        if (!x)
            continue;
        char why[256] = "";
        int c = sim_mm_rr_check(&s->mm, TK_ARB_RR, 1, x, 1e-9, why, sizeof why);
        ok(info.converged && c == 1,
           "Ant Mill p = %d: rr converged (%lld sweeps) to an equilibrium %s", p,
           (long long)info.iterations, why);
        tap_diag("Ant Mill p = %d under rr: x[0] = %.12g, x[1] = %.12g, another = %d", p, x[0],
                 x[1], info.another);
        int same = 1;
        for (int j = 1; j < N; j++)
            same &= x[j] == x[0];
        ok(same && fabs(x[0] - 0.5 / p) < 1e-12 && info.another == 0,
           "Ant Mill p = %d: rr gives every flow the same rate, 1/(2p); the second start agrees",
           p);
        free(x);
    }
    /* The interval of rr equilibria for p = 2. */
    double as[6] = {1.0 / 6, 0.2, 0.25, 1.0 / 3, 0.15, 0.35};
    for (int k = 0; k < 6; k++) {
        double x[N];
        for (int j = 0; j < N; j++)
            x[j] = j % 2 ? 0.5 - as[k] : as[k];
        int c = sim_mm_rr_check(&s2.mm, TK_ARB_RR, 1, x, 1e-9, NULL, 0);
        is_int(c, k < 4, "Ant Mill p = 2: alternating (%.4g, %.4g) %s an rr equilibrium", as[k],
               0.5 - as[k], k < 4 ? "is" : "is not");
    }
    sys_free(&s1);
    sys_free(&s2);
}

/* Aggregation.  Three servers at one switch, each with an injection link
 * (capacity 1), send flow A to link L (capacity 1) and flow B to link M
 * (capacity 10); two more flows C arrive at L through an incoming link.
 * Unaggregated: injection links I0..I2 with own inputs P0..P2 (the
 * server's port, also its port at L and M), six server variables.
 * Aggregated: one injection resource of 3 copies and capacity 3 whose own
 * input is the group P of 3 injection ports, A and B of 3 members each
 * (coefficients 3 = members x fraction).
 *  fair: L carries five flows and saturates first, at t = 1/5 (A and C);
 *  then each injection link has B alone: B = 1 - 1/5 = 4/5.
 *  rr: L has 4 ports (3 servers, the incoming link): 1/4 each, so A =
 *  1/4 and C = 1/8; the injection link's single port leaves B 3/4.
 *  transit: L's incoming link asks for 2 and takes all of L: C = 1/2,
 *  A = 0, B = 1.
 * Both systems must give these same rates; under rr and transit, with the
 * aggregate's member coefficients given exactly (emcoef 1), bit for bit,
 * in the same number of sweeps. */
static void test_aggregation(void)
{
    sys_t u, g;
    sys_init(&u);
    int64_t P[3], I[3], L, M, T;
    for (int k = 0; k < 3; k++)
        P[k] = input(&u, 0, 1);
    T = input(&u, 1, 1);
    for (int k = 0; k < 3; k++)
        I[k] = res(&u, 1, 1, P[k]);
    L = link(&u, 1);
    M = link(&u, 10);
    for (int k = 0; k < 3; k++) {
        var(&u, 1, 1);
        ent(&u, I[k], P[k], 1);
        ent(&u, L, P[k], 1);
    }
    for (int k = 0; k < 3; k++) {
        var(&u, 1, 1);
        ent(&u, I[k], P[k], 1);
        ent(&u, M, P[k], 1);
    }
    for (int k = 0; k < 2; k++) {
        var(&u, 1, 1);
        ent(&u, L, T, 1);
    }

    sys_init(&g);
    int64_t PG = input(&g, 0, 3), TG = input(&g, 1, 1);
    int64_t IG = res(&g, 3, 3, PG), LG = link(&g, 1), MG = link(&g, 10);
    var(&g, 1, 3);
    ent(&g, IG, PG, 3);
    ent(&g, LG, PG, 3);
    var(&g, 1, 3);
    ent(&g, IG, PG, 3);
    ent(&g, MG, PG, 3);
    for (int k = 0; k < 2; k++) {
        var(&g, 1, 1);
        ent(&g, LG, TG, 1);
    }

    g.mm.emcoef = malloc((size_t)g.mm.voff[g.mm.nvar] * sizeof *g.mm.emcoef);
    for (int64_t e = 0; e < g.mm.voff[g.mm.nvar]; e++)
        g.mm.emcoef[e] = 1; /* every coefficient is mult x 1 */
    double w[3][3] = {{0.2, 0.8, 0.2}, {0.25, 0.75, 0.125}, {0, 1, 0.5}};
    for (int a = 0; a < 3; a++) {
        double wu[8], wg[4] = {w[a][0], w[a][1], w[a][2], w[a][2]};
        for (int k = 0; k < 3; k++) {
            wu[k] = w[a][0];
            wu[3 + k] = w[a][1];
        }
        wu[6] = wu[7] = w[a][2];
        expect(&u, (tk_arb_t)a, 1, wu, "three servers, unaggregated");
        expect(&g, (tk_arb_t)a, 1, wg, "three servers aggregated (3 members, 3 copies)");
        if (a == TK_ARB_FAIR)
            continue;
        tk_mm_info_t iu, ig;
        double *xu = solve(&u, (tk_arb_t)a, 1, 0, NULL, &iu, "unaggregated");
        double *xg = solve(&g, (tk_arb_t)a, 1, 0, NULL, &ig, "aggregated");
        if (xu && xg)
            ok(xu[0] == xg[0] && xu[1] == xg[0] && xu[2] == xg[0] && xu[3] == xg[1] &&
                   xu[4] == xg[1] && xu[5] == xg[1] && xu[6] == xg[2] && xu[7] == xg[3] &&
                   iu.iterations == ig.iterations && iu.residual == ig.residual,
               "%s: aggregated = unaggregated bit for bit (%lld sweeps)", tk_arb_name((tk_arb_t)a),
               (long long)ig.iterations);
        free(xu);
        free(xg);
    }
    sys_free(&u);
    sys_free(&g);
}

/* ------------------------------------------------------------------------ */
/* Random instances. */

static uint64_t rnd_state;
static uint64_t rnd(void)
{
    rnd_state ^= rnd_state << 13;
    rnd_state ^= rnd_state >> 7;
    rnd_state ^= rnd_state << 17;
    return rnd_state;
}
static double unif(void)
{
    return (double)(rnd() >> 11) / 9007199254740992.0;
}

/* A random system: nres resources (some of 2 or 3 copies with a matching
 * capacity, some with an own input), nin inputs, nvar variables of 1 to
 * maxe entries, some of demand 0. */
static void random_sys(sys_t *s, uint64_t seed, int nres, int nin, int nvar, int maxe)
{
    rnd_state = seed * 2654435761u + 12345;
    sys_init(s);
    for (int i = 0; i < nin; i++)
        input(s, (int)(rnd() % 2), 1 + (double)(rnd() % 3));
    for (int r = 0; r < nres; r++) {
        double c = 1 + (double)(rnd() % 3 == 0 ? rnd() % 2 : 0);
        res(s, c * (0.2 + unif()), c, rnd() % 4 == 0 ? (int64_t)(rnd() % nin) : -1);
    }
    for (int v = 0; v < nvar; v++) {
        double d = rnd() % 8 == 0 ? 0 : 0.1 + unif();
        var(s, d, 1 + (double)(rnd() % 3));
        int ne = 1 + (int)(rnd() % (uint64_t)maxe);
        for (int k = 0; k < ne; k++)
            ent(s, (int64_t)(rnd() % nres), (int64_t)(rnd() % (nin + 1)) - 1,
                s->mm.mult[v] * (0.1 + unif()));
    }
}

/* Naive weighted max-min: raise t, at each step find the smallest level
 * at which a resource fills given the frozen variables, freeze everything
 * on the resources that fill there.  O(steps x entries). */
static void naive_fair(const tk_mm_t *mm, double rho, double *x)
{
    int64_t nv = mm->nvar, nr = mm->nres;
    char *fr = calloc((size_t)nv + 1, 1);
    double *F = calloc((size_t)nr + 1, sizeof *F), *S = calloc((size_t)nr + 1, sizeof *S);
    double *lv = calloc((size_t)nr + 1, sizeof *lv);
    for (int64_t v = 0; v < nv; v++)
        if (mm->demand[v] == 0) {
            fr[v] = 1;
            x[v] = 0;
        }
    for (;;) {
        memset(F, 0, (size_t)nr * sizeof *F);
        memset(S, 0, (size_t)nr * sizeof *S);
        for (int64_t v = 0; v < nv; v++)
            for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
                if (fr[v])
                    F[mm->eres[e]] += mm->ecoef[e] * x[v];
                else
                    S[mm->eres[e]] += mm->ecoef[e] * mm->demand[v];
            }
        double t = rho;
        for (int64_t r = 0; r < nr; r++) {
            lv[r] = S[r] > 0 ? (mm->cap[r] - F[r]) / S[r] : INFINITY;
            if (lv[r] < t)
                t = lv[r];
        }
        int any = 0;
        for (int64_t v = 0; v < nv; v++) {
            if (fr[v])
                continue;
            int hit = t >= rho;
            for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
                if (lv[mm->eres[e]] <= t * (1 + 1e-12))
                    hit = 1;
            if (hit) {
                fr[v] = 1;
                x[v] = mm->demand[v] * t;
                any |= 1;
            } else {
                any |= 2;
            }
        }
        if (!(any & 2))
            break;
    }
    free(fr);
    free(F);
    free(S);
    free(lv);
}

/* The max-min bottleneck condition for fair: feasible, and every variable
 * not fully served has a saturated resource on which its x / demand is
 * the largest. */
static int fair_bottlenecks(const tk_mm_t *mm, double rho, const double *x, double tol)
{
    double *use = calloc((size_t)mm->nres + 1, sizeof *use);
    double *mx = calloc((size_t)mm->nres + 1, sizeof *mx);
    int good = 1;
    for (int64_t v = 0; v < mm->nvar; v++)
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            use[mm->eres[e]] += mm->ecoef[e] * x[v];
            if (mm->demand[v] > 0 && x[v] / mm->demand[v] > mx[mm->eres[e]])
                mx[mm->eres[e]] = x[v] / mm->demand[v];
        }
    for (int64_t r = 0; r < mm->nres; r++)
        if (use[r] > mm->cap[r] * (1 + tol))
            good = 0;
    for (int64_t v = 0; v < mm->nvar; v++) {
        double d = mm->demand[v];
        if (d == 0 || x[v] >= rho * d * (1 - tol))
            continue;
        int found = 0;
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            int64_t r = mm->eres[e];
            if (use[r] >= mm->cap[r] * (1 - tol) && x[v] / d >= mx[r] * (1 - tol))
                found = 1;
        }
        good &= found;
    }
    free(use);
    free(mx);
    return good;
}

static void test_random(void)
{
    int fair_ok = 0, naive_ok = 0, levels_ok = 0, conv[2] = {0, 0}, eq[2] = {0, 0};
    int another[2] = {0, 0};
    char why[2][256] = {"", ""};
    for (int seed = 1; seed <= 100; seed++) {
        sys_t s;
        random_sys(&s, (uint64_t)seed, 1 + seed % 8, 1 + seed % 5, 1 + seed % 11, 4);
        const tk_mm_t *mm = &s.mm;
        double rho = 0.2 + 1.3 * unif();
        double *x = solve(&s, TK_ARB_FAIR, rho, 0, NULL, NULL, "random fair");
        double *y = calloc((size_t)mm->nvar + 1, sizeof *y);
        double *tau = calloc((size_t)mm->nvar + 1, sizeof *tau);
        if (!x)
            break;
        fair_ok += fair_bottlenecks(mm, rho, x, 1e-9);
        naive_fair(mm, rho, y);
        int same = 1;
        for (int64_t v = 0; v < mm->nvar; v++)
            same &= fabs(x[v] - y[v]) <= 1e-9 * (1 + y[v]);
        naive_ok += same;
        if (tk_mm_fair_levels(mm, tau, NULL, NULL) == TK_OK) {
            int eqs = 1;
            for (int64_t v = 0; v < mm->nvar; v++)
                eqs &= x[v] == mm->demand[v] * (tau[v] < rho ? tau[v] : rho);
            levels_ok += eqs;
        }
        for (int a = 0; a < 2; a++) {
            tk_arb_t arb = a ? TK_ARB_TRANSIT : TK_ARB_RR;
            tk_mm_info_t info;
            double *z = solve(&s, arb, rho, 1, NULL, &info, "random rr");
            if (!z)
                continue;
            if (info.converged) {
                conv[a]++;
                int c = sim_mm_rr_check(mm, arb, rho, z, 1e-9, why[a], sizeof why[a]);
                eq[a] += c == 1;
                if (c != 1)
                    tap_diag("seed %d %s: %s", seed, tk_arb_name(arb), why[a]);
            }
            another[a] += info.another;
            free(z);
        }
        free(x);
        free(y);
        free(tau);
        sys_free(&s);
    }
    is_int(fair_ok, 100,
           "100 random systems: fair is feasible with a bottleneck for every "
           "flow not fully served");
    is_int(naive_ok, 100, "100 random systems: fair equals a naive progressive filling");
    is_int(levels_ok, 100,
           "100 random systems: demand min(rho, tau) is the fair solve, bit for bit");
    is_int(conv[0], 100, "100 random systems: rr converges");
    is_int(eq[0], conv[0], "every converged rr result passes the bottleneck checker");
    is_int(conv[1], 100, "100 random systems: transit converges");
    is_int(eq[1], conv[1], "every converged transit result passes the bottleneck checker");
    tap_diag("random systems with a second equilibrium from the zero start: rr %d, transit %d",
             another[0], another[1]);
}

/* A random permutation of 0 .. n-1 (Fisher-Yates on rnd). */
static int64_t *perm(int64_t n)
{
    int64_t *q = malloc((size_t)(n > 0 ? n : 1) * sizeof *q);
    for (int64_t i = 0; i < n; i++)
        q[i] = i;
    for (int64_t i = n - 1; i > 0; i--) {
        int64_t j = (int64_t)(rnd() % (uint64_t)(i + 1)), t = q[i];
        q[i] = q[j];
        q[j] = t;
    }
    return q;
}

/* Relabelling.  The rr and transit sweeps are Jacobi iterations whose
 * sums run over water-filling runs in increasing demand: nothing in them
 * depends on how resources, inputs, variables and entries are numbered.
 * So a random system and the same system with its resources, inputs and
 * variables renumbered and every variable's entries listed in another
 * order take the same sweeps (count and residual) to the same rates, bit
 * for bit (variable v of the first is variable qv[v] of the second). */
static void test_relabel(void)
{
    int same[2] = {0, 0};
    for (int seed = 1; seed <= 60; seed++) {
        sys_t s, t;
        random_sys(&s, (uint64_t)seed + 500, 2 + seed % 9, 1 + seed % 5, 2 + seed % 13, 5);
        const tk_mm_t *m = &s.mm;
        int64_t *qr = perm(m->nres), *qi = perm(m->nin), *qv = perm(m->nvar);
        int64_t *iv = malloc((size_t)(m->nvar + 1) * sizeof *iv); /* inverse of qv */
        for (int64_t v = 0; v < m->nvar; v++)
            iv[qv[v]] = v;
        sys_init(&t);
        int64_t *ir = malloc((size_t)(m->nres + 1) * sizeof *ir),
                *ii = malloc((size_t)(m->nin + 1) * sizeof *ii);
        for (int64_t r = 0; r < m->nres; r++)
            ir[qr[r]] = r;
        for (int64_t i = 0; i < m->nin; i++)
            ii[qi[i]] = i;
        for (int64_t i = 0; i < m->nin; i++)
            input(&t, m->in_transit[ii[i]], m->in_mult[ii[i]]);
        for (int64_t r = 0; r < m->nres; r++) {
            int64_t o = m->own_in[ir[r]];
            res(&t, m->cap[ir[r]], m->copies[ir[r]], o < 0 ? -1 : qi[o]);
        }
        for (int64_t w = 0; w < m->nvar; w++) {
            int64_t v = iv[w];
            var(&t, m->demand[v], m->mult[v]);
            for (int64_t e = m->voff[v + 1] - 1; e >= m->voff[v]; e--)
                ent(&t, qr[m->eres[e]], m->ein[e] < 0 ? -1 : qi[m->ein[e]], m->ecoef[e]);
        }
        for (int a = 0; a < 2; a++) {
            tk_arb_t arb = a ? TK_ARB_TRANSIT : TK_ARB_RR;
            tk_mm_info_t is, it;
            double *xs = solve(&s, arb, 0.9, 0, NULL, &is, "relabel");
            double *xt = solve(&t, arb, 0.9, 0, NULL, &it, "relabelled");
            int eq = xs && xt && is.iterations == it.iterations && is.residual == it.residual;
            for (int64_t v = 0; eq && v < m->nvar; v++)
                eq = xs[v] == xt[qv[v]];
            if (!eq)
                tap_diag("seed %d %s: %lld sweeps vs %lld, residual %.17g vs %.17g", seed,
                         tk_arb_name(arb), (long long)is.iterations, (long long)it.iterations,
                         is.residual, it.residual);
            same[a] += eq;
            free(xs);
            free(xt);
        }
        free(qr);
        free(qi);
        free(qv);
        free(iv);
        free(ir);
        free(ii);
        sys_free(&s);
        sys_free(&t);
    }
    is_int(same[0], 60, "60 random systems relabelled: rr gives the same rates, bit for bit");
    is_int(same[1], 60, "60 random systems relabelled: transit gives the same rates, bit for bit");
}

/* Variables with many entries (the min trees of the rr sweeps, over 16
 * entries) and resources with many entries (deep sum trees). */
static void test_random_wide(void)
{
    int good = 0;
    for (int seed = 1; seed <= 5; seed++) {
        sys_t s;
        random_sys(&s, (uint64_t)seed + 1000, 40, 6, 60, 50);
        double *x = solve(&s, TK_ARB_FAIR, 1, 0, NULL, NULL, "wide fair");
        double *y = calloc((size_t)s.mm.nvar, sizeof *y);
        naive_fair(&s.mm, 1, y);
        int same = x != NULL;
        for (int64_t v = 0; x && v < s.mm.nvar; v++)
            same &= fabs(x[v] - y[v]) <= 1e-9 * (1 + y[v]);
        tk_mm_info_t info;
        double *z = solve(&s, TK_ARB_RR, 1, 0, NULL, &info, "wide rr");
        char why[256] = "";
        int c = z ? sim_mm_rr_check(&s.mm, TK_ARB_RR, 1, z, 1e-9, why, sizeof why) : 0;
        if (!same || !info.converged || c != 1)
            tap_diag("wide seed %d: fair %d, rr converged %d, check %d %s", seed, same,
                     info.converged, c, why);
        good += same && info.converged && c == 1;
        free(x);
        free(y);
        free(z);
        sys_free(&s);
    }
    is_int(good, 5, "5 systems of up to 50 entries per variable: fair exact, rr an equilibrium");
}

/* Does mm solved through ws (arb, load rho, at most max_sweeps, rr's
 * sweeps on nth threads) give the bits of a solve without a workspace on
 * one thread: rates, bottlenecks, event or sweep counts, the residual and
 * the convergence flag? */
static int ws_same_nth(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps, int nth,
                       sim_fair_ws_t *ws)
{
    int64_t nv = mm->nvar;
    double *x = calloc((size_t)nv + 1, sizeof *x), *y = calloc((size_t)nv + 1, sizeof *y);
    int64_t *bx = calloc((size_t)nv + 1, sizeof *bx), *by = calloc((size_t)nv + 1, sizeof *by);
    tk_mm_info_t ix, iy;
    tk_error_t err;
    int same =
        x && y && bx && by && tk_mm_solve(mm, arb, rho, max_sweeps, 0, x, bx, &ix, &err) == TK_OK &&
        sim_mm_solve_ws(mm, arb, rho, max_sweeps, 0, y, by, &iy, nth, ws, &err) == TK_OK &&
        memcmp(x, y, (size_t)nv * sizeof *x) == 0 && memcmp(bx, by, (size_t)nv * sizeof *bx) == 0 &&
        ix.iterations == iy.iterations &&
        memcmp(&ix.residual, &iy.residual, sizeof ix.residual) == 0 && ix.converged == iy.converged;
    free(x);
    free(y);
    free(bx);
    free(by);
    return same;
}

static int ws_same(const tk_mm_t *mm, tk_arb_t arb, double rho, sim_fair_ws_t *ws)
{
    return ws_same_nth(mm, arb, rho, 0, 1, ws);
}

/* rr's and transit's sweeps on threads: systems of more than the 4096
 * entries below which a sweep stays on one thread, solved on 2 and 3
 * threads, with and without a workspace (the same workspace after a
 * smaller system and a larger one: the per-thread scratch regrown), give
 * the bits of one thread: rates, bottlenecks, sweeps, residual. */
static void test_threads(void)
{
    static const int shape[][4] = {{300, 12, 2500, 8}, {40, 6, 60, 50}, {600, 20, 4000, 10}};
    int n = (int)(sizeof shape / sizeof shape[0]), good = 0, tried = 0;
    sim_fair_ws_t *ws = sim_fair_ws_new();
    for (int i = 0; i < n; i++) {
        sys_t s;
        random_sys(&s, (uint64_t)i + 4000, shape[i][0], shape[i][1], shape[i][2], shape[i][3]);
        for (int a = 1; a < 3; a++)
            for (int nth = 2; nth <= 3; nth++) {
                tk_arb_t arb = a == 1 ? TK_ARB_RR : TK_ARB_TRANSIT;
                int same = ws_same_nth(&s.mm, arb, 0.8, 300, nth, nth == 2 ? ws : NULL);
                if (!same)
                    tap_diag("threads: system %d (%s, %d threads) differs", i, tk_arb_name(arb),
                             nth);
                good += same;
                tried++;
            }
        if (i == 0)
            ok(s.mm.voff[s.mm.nvar] > 4096, "threads: system 0 has %" PRId64 " > 4096 entries",
               s.mm.voff[s.mm.nvar]);
        sys_free(&s);
    }
    sim_fair_ws_free(ws);
    is_int(good, tried, "threads: rr and transit on 2 and 3 threads: the bits of one thread");
}

/* The fair solver's workspace (sim_fair_ws_t): one workspace through
 * systems that grow and shrink (its arrays kept, or grown, between
 * solves, never cleared) gives every solve the bits of a solve without
 * one: rates, bottlenecks and event or sweep counts, under fair, rr and
 * transit in turn (rr's and transit's buffers are the workspace's too). */
static void test_workspace(void)
{
    static const int shape[][4] = {{40, 6, 60, 50}, {10, 3, 12, 4},  {60, 8, 90, 40},
                                   {5, 2, 6, 3},    {60, 8, 90, 40}, {30, 4, 200, 20}};
    int n = (int)(sizeof shape / sizeof shape[0]), good = 0;
    sim_fair_ws_t *ws = sim_fair_ws_new();
    ok(ws != NULL, "workspace: allocated");
    for (int i = 0; i < n; i++) {
        for (int a = 0; a < 3; a++) {
            tk_arb_t arb = a == 0 ? TK_ARB_FAIR : a == 1 ? TK_ARB_RR : TK_ARB_TRANSIT;
            sys_t s;
            random_sys(&s, (uint64_t)i + 2000, shape[i][0], shape[i][1], shape[i][2], shape[i][3]);
            int same = ws_same(&s.mm, arb, 0.8, ws);
            if (!same)
                tap_diag("workspace: system %d (%s) differs", i, tk_arb_name(arb));
            good += same;
            sys_free(&s);
        }
    }
    sim_fair_ws_free(ws);
    sim_fair_ws_free(NULL);
    is_int(good, 3 * n,
           "workspace: %d systems, growing and shrinking, fair, rr and transit: the same "
           "bits as without one",
           n);
}

/* The fair workspace's kept transpose: one workspace through a sequence
 * of systems of one shape (the adaptive iteration's: the same entries,
 * new coefficients, demands and capacities, some demands 0) gives every
 * solve the bits of a solve without one; so do systems of the same sizes
 * whose shape changed (one entry moved to another resource, one
 * variable's entries shifted to its neighbour), which must transpose
 * again. */
static void test_workspace_shape(void)
{
    sim_fair_ws_t *ws = sim_fair_ws_new();
    int good = 0, n = 0;
    for (int sys = 0; sys < 3; sys++) {
        sys_t s;
        random_sys(&s, (uint64_t)sys + 3000, 50, 4, 120, 12);
        int64_t nv = s.mm.nvar, nr = s.mm.nres, ne = s.mm.voff[nv];
        for (int step = 0; step < 8; step++) {
            if (step > 0) {
                for (int64_t e = 0; e < ne; e++)
                    s.mm.ecoef[e] *= 0.5 + unif();
                for (int64_t v = 0; v < nv; v++)
                    s.mm.demand[v] = rnd() % 8 == 0 ? 0 : 0.1 + unif();
                for (int64_t r = 0; r < nr; r++)
                    s.mm.cap[r] *= 0.8 + 0.4 * unif();
            }
            if (step == 5) /* a new resource for one entry */
                s.mm.eres[ne / 2] = (s.mm.eres[ne / 2] + 1) % nr;
            if (step == 6) { /* the first variable with 2 entries gives one away */
                for (int64_t v = 0; v + 1 < nv; v++)
                    if (s.mm.voff[v + 1] - s.mm.voff[v] >= 2) {
                        s.mm.voff[v + 1]--;
                        break;
                    }
            }
            int same = ws_same(&s.mm, TK_ARB_FAIR, 0.9, ws);
            if (!same)
                tap_diag("workspace shape: system %d step %d differs", sys, step);
            good += same;
            n++;
        }
        sys_free(&s);
    }
    sim_fair_ws_free(ws);
    is_int(good, n,
           "workspace: %d solves of kept and changed shapes, new values each time: the same "
           "bits as without one",
           n);
}

/* Levels: one link of capacity 1 with flows of demands 1 and 1 and a link
 * of capacity 0.3 under the first: the first freezes at t = 0.3 on the
 * small link, the second rises to 0.7 (t = 0.7); a third flow on no
 * resource is never limited (tau +inf).  At rho = 0.2, 0.5, 0.9: rates
 * min(rho, tau) = (0.2, 0.2), (0.3, 0.5), (0.3, 0.7). */
static void test_levels(void)
{
    sys_t s;
    sys_init(&s);
    int64_t L = link(&s, 1), S = link(&s, 0.3);
    var(&s, 1, 1);
    ent(&s, L, -1, 1);
    ent(&s, S, -1, 1);
    var(&s, 1, 1);
    ent(&s, L, -1, 1);
    var(&s, 2, 1);
    double tau[3];
    int64_t b[3];
    tk_error_t err;
    ok(tk_mm_fair_levels(&s.mm, tau, b, &err) == TK_OK, "fair levels run");
    is_dbl(tau[0], 0.3, 1e-15, "tau of the flow on the small link");
    is_dbl(tau[1], 0.7, 1e-15, "tau of the other flow");
    ok(isinf(tau[2]) && b[2] == -1, "a flow on no resource: tau +inf, bneck -1");
    ok(b[0] == S && b[1] == L, "bottlenecks: the small link, then the big one");
    double rhos[3] = {0.2, 0.5, 0.9},
           want[3][3] = {{0.2, 0.2, 0.4}, {0.3, 0.5, 1}, {0.3, 0.7, 1.8}};
    for (int k = 0; k < 3; k++)
        expect(&s, TK_ARB_FAIR, rhos[k], want[k], "levels example at one rho");
    sys_free(&s);
}

/* Single-entry resources (injection and ejection links, rate bounds): the
 * filling keeps one event per variable for them, the first of its own to
 * fill, beside the heap of the resources with several entries; the events
 * fire in (level, resource id) order as if every resource had one. */
static void test_single_entry(void)
{
    sys_t s;
    double tau[2];
    int64_t b[2];
    tk_error_t err;

    /* v0 alone on r0 (1) and r2 (1), both at level 1: the lower id is its
     * bottleneck; v1 on the shared r1 (10) with v0 gets 10 - 1 = 9. */
    sys_init(&s);
    link(&s, 1);
    link(&s, 10);
    link(&s, 1);
    var(&s, 1, 1);
    ent(&s, 2, -1, 1);
    ent(&s, 0, -1, 1);
    ent(&s, 1, -1, 1);
    var(&s, 1, 1);
    ent(&s, 1, -1, 1);
    /* solved before ok(): its message reads tau and b, and the order in
     * which a call's arguments are evaluated is unspecified */
    tk_status_t st = tk_mm_fair_levels(&s.mm, tau, b, &err);
    ok(st == TK_OK && tau[0] == 1 && tau[1] == 9 && b[0] == 0 && b[1] == 1,
       "two single-entry resources at one level: the lower id limits (tau %g %g, bneck %lld "
       "%lld)",
       tau[0], tau[1], (long long)b[0], (long long)b[1]);
    sys_free(&s);

    /* A shared resource (capacity 2, v0 and v1) and each variable's own
     * link (capacity 1) all fill at level 1.  Shared first (r0): it fires
     * and limits both; own links first (r0, r1; shared r2): each variable
     * stops at its own link, v0 before the shared one is looked at again,
     * v1's own link (1, r1) before the shared (1, r2). */
    for (int shared_first = 1; shared_first >= 0; shared_first--) {
        sys_init(&s);
        int64_t sh = -1, own[2];
        if (shared_first)
            sh = link(&s, 2);
        own[0] = link(&s, 1);
        own[1] = link(&s, 1);
        if (!shared_first)
            sh = link(&s, 2);
        for (int v = 0; v < 2; v++) {
            var(&s, 1, 1);
            ent(&s, own[v], -1, 1);
            ent(&s, sh, -1, 1);
        }
        ok(tk_mm_fair_levels(&s.mm, tau, b, &err) == TK_OK && tau[0] == 1 && tau[1] == 1 &&
               (shared_first ? b[0] == sh && b[1] == sh : b[0] == own[0] && b[1] == own[1]),
           "a tie between single-entry and shared resources goes by id (%s first: bneck %lld "
           "%lld)",
           shared_first ? "shared" : "own links", (long long)b[0], (long long)b[1]);
        sys_free(&s);
    }

    /* Two entries of one variable on one resource are not a single entry:
     * r0 (1) carries 2 x, so v0 stops at 1/2, before its own r1 (0.7). */
    sys_init(&s);
    link(&s, 1);
    link(&s, 0.7);
    var(&s, 1, 1);
    ent(&s, 0, -1, 1);
    ent(&s, 1, -1, 1);
    ent(&s, 0, -1, 1);
    ok(tk_mm_fair_levels(&s.mm, tau, b, &err) == TK_OK && tau[0] == 0.5 && b[0] == 0,
       "two entries of one variable on one resource: tau %g, bneck %lld", tau[0], (long long)b[0]);
    /* At rho below every level: fully served, no bottleneck. */
    double *x = solve(&s, TK_ARB_FAIR, 0.25, 0, b, NULL, "single entry below rho");
    ok(x && x[0] == 0.25 && b[0] == -1, "below the levels: the demand, no bottleneck");
    free(x);
    sys_free(&s);

    /* Random systems shaped like a network's: every variable has one to
     * three links of its own (capacity 1 or random) and shared links; the
     * filling against the naive one, and its levels against the solve. */
    int naive_ok = 0, levels_ok = 0, bneck_ok = 0;
    for (int seed = 1; seed <= 100; seed++) {
        rnd_state = (uint64_t)seed * 0x9e3779b97f4a7c15ULL + 1;
        sys_init(&s);
        int nsh = 1 + seed % 7, nv = 1 + seed % 13, nown = 1 + seed % 3;
        for (int r = 0; r < nsh; r++)
            link(&s, 0.5 + 2 * unif());
        for (int v = 0; v < nv; v++)
            for (int k = 0; k < nown; k++)
                link(&s, rnd() % 2 ? 1 : 0.2 + unif());
        for (int v = 0; v < nv; v++) {
            var(&s, rnd() % 10 == 0 ? 0 : rnd() % 2 ? 1 : 0.1 + unif(), 1);
            for (int k = 0; k < nown; k++)
                ent(&s, nsh + v * nown + k, -1, rnd() % 2 ? 1 : 0.1 + unif());
            for (int k = (int)(rnd() % 4); k > 0; k--)
                ent(&s, (int64_t)(rnd() % (uint64_t)nsh), -1, 0.1 + unif());
        }
        const tk_mm_t *mm = &s.mm;
        double rho = 0.2 + 1.5 * unif();
        int64_t *bn = calloc((size_t)nv, sizeof *bn);
        double *y = calloc((size_t)nv, sizeof *y), *t = calloc((size_t)nv, sizeof *t);
        x = solve(&s, TK_ARB_FAIR, rho, 0, bn, NULL, "single-entry random");
        if (!x || !bn || !y || !t)
            break;
        naive_fair(mm, rho, y);
        int same = 1, lv = 1, bk = 1;
        for (int64_t v = 0; v < nv; v++)
            same &= fabs(x[v] - y[v]) <= 1e-9 * (1 + y[v]);
        if (tk_mm_fair_levels(mm, t, NULL, &err) == TK_OK) {
            for (int64_t v = 0; v < nv; v++)
                lv &= x[v] == mm->demand[v] * (t[v] < rho ? t[v] : rho);
        } else {
            lv = 0;
        }
        /* a limited variable's bottleneck is one of its resources, full */
        for (int64_t v = 0; v < nv; v++) {
            if (bn[v] < 0) {
                bk &= x[v] == mm->demand[v] * rho;
                continue;
            }
            double use = 0;
            int on = 0;
            for (int64_t u = 0; u < nv; u++)
                for (int64_t e = mm->voff[u]; e < mm->voff[u + 1]; e++)
                    if (mm->eres[e] == bn[v]) {
                        use += mm->ecoef[e] * x[u];
                        on |= u == v;
                    }
            bk &= on && use >= mm->cap[bn[v]] * (1 - 1e-12);
        }
        naive_ok += same;
        levels_ok += lv;
        bneck_ok += bk;
        free(x);
        free(bn);
        free(y);
        free(t);
        sys_free(&s);
    }
    is_int(naive_ok, 100, "100 systems with links of their own: fair equals the naive filling");
    is_int(levels_ok, 100, "and demand min(rho, tau) is the solve, bit for bit");
    is_int(bneck_ok, 100, "and every bottleneck is a full resource of its variable");
}

/* ------------------------------------------------------------------------ */
/* Refusals. */

static void refused(sys_t *s, const char *prefix, const char *what)
{
    tk_error_t err;
    tk_status_t st = tk_mm_check(&s->mm, &err);
    ok(st == TK_EINVAL && strncmp(err.msg, prefix, strlen(prefix)) == 0,
       "tk_mm_check refuses %s (%s)", what, st == TK_OK ? "accepted" : err.msg);
}

static void base(sys_t *s)
{
    sys_init(s);
    int64_t L = link(s, 1), i = input(s, 0, 2);
    link(s, 2);
    var(s, 1, 1);
    ent(s, L, i, 1);
    ent(s, 1, -1, 2);
    var(s, 0.5, 2);
    ent(s, 1, i, 1);
}

static void test_check(void)
{
    sys_t s;
    tk_error_t err;
    base(&s);
    ok(tk_mm_check(&s.mm, &err) == TK_OK, "the base system passes");
#define BAD(stmt, prefix, what)                                                                    \
    do {                                                                                           \
        base(&s);                                                                                  \
        tk_mm_t *m = &s.mm;                                                                        \
        stmt;                                                                                      \
        refused(&s, prefix, what);                                                                 \
        sys_free(&s);                                                                              \
    } while (0)
    sys_free(&s);
    BAD(m->nres = -1, "max-min system: negative size", "a negative size");
    BAD(m->cap[1] = 0, "cap[1]=0:", "a zero capacity");
    BAD(m->cap[0] = NAN, "cap[0]=nan:", "a NaN capacity");
    BAD(m->cap[0] = INFINITY, "cap[0]=inf:", "an infinite capacity");
    BAD(m->copies[1] = 0.5, "copies[1]=0.5:", "copies below 1");
    BAD(m->demand[1] = -1, "demand[1]=-1:", "a negative demand");
    BAD(m->demand[0] = INFINITY, "demand[0]=inf:", "an infinite demand");
    BAD(m->mult[1] = 0, "mult[1]=0:", "a zero multiplicity");
    BAD(m->in_mult[0] = 0.5, "in_mult[0]=0.5:", "an input multiplicity below 1");
    BAD(m->own_in[1] = 1, "own_in[1]=1:", "an own input out of range");
    BAD(m->voff[0] = 1, "voff[0]=1:", "voff not starting at 0");
    BAD(m->voff[1] = 4, "voff[2]=3: below voff[1]=4", "decreasing voff");
    BAD(m->eres[2] = 2, "eres[2]=2:", "an entry's resource out of range");
    BAD(m->eres[0] = -1, "eres[0]=-1:", "a negative resource");
    BAD(m->ecoef[1] = 0, "ecoef[1]=0:", "a zero coefficient");
    BAD(m->ecoef[2] = NAN, "ecoef[2]=nan:", "a NaN coefficient");
    BAD(m->ein[1] = -2, "ein[1]=-2:", "an input below -1");
    BAD(m->ein[0] = 1, "ein[0]=1:", "an input out of range");
    BAD((free(m->cap), m->cap = NULL), "max-min system: cap", "a missing capacity array");
    /* member coefficients: 1, 2 (mult 1), then 1 / 2 (mult 2) */
    BAD((m->emcoef = malloc(3 * sizeof *m->emcoef), m->emcoef[0] = 1, m->emcoef[1] = 2,
         m->emcoef[2] = 1),
        "emcoef[2]=1: must be ecoef[2] / mult[1] = 0.5", "a member coefficient not ecoef / mult");
    BAD((m->emcoef = malloc(3 * sizeof *m->emcoef), m->emcoef[0] = 1, m->emcoef[1] = NAN,
         m->emcoef[2] = 0.5),
        "emcoef[1]=nan:", "a NaN member coefficient");
#undef BAD
    base(&s);
    s.mm.emcoef = malloc(3 * sizeof *s.mm.emcoef);
    s.mm.emcoef[0] = 1;
    s.mm.emcoef[1] = 2;
    s.mm.emcoef[2] = 0.5;
    ok(tk_mm_check(&s.mm, &err) == TK_OK, "exact member coefficients pass");
    sys_free(&s);
    base(&s);
    double x[2];
    ok(tk_mm_solve(&s.mm, TK_ARB_FAIR, 0, 0, 0, x, NULL, NULL, &err) == TK_EINVAL &&
           strncmp(err.msg, "rho=0:", 6) == 0,
       "solve refuses rho = 0 (%s)", err.msg);
    ok(tk_mm_solve(&s.mm, TK_ARB_RR, NAN, 0, 0, x, NULL, NULL, &err) == TK_EINVAL,
       "solve refuses rho = NaN");
    ok(tk_mm_solve(&s.mm, TK_ARB_RR, 1, -1, 0, x, NULL, NULL, &err) == TK_EINVAL &&
           strncmp(err.msg, "max_sweeps=-1:", 14) == 0,
       "solve refuses a negative sweep limit");
    ok(tk_mm_solve(&s.mm, (tk_arb_t)7, 1, 0, 0, x, NULL, NULL, &err) == TK_EINVAL,
       "solve refuses an unknown arbitration");
    ok(tk_mm_solve(&s.mm, TK_ARB_FAIR, 1, 0, 0, NULL, NULL, NULL, &err) == TK_EINVAL,
       "solve refuses NULL rates");
    s.mm.demand[0] = -1;
    ok(tk_mm_solve(&s.mm, TK_ARB_FAIR, 1, 0, 0, x, NULL, NULL, &err) == TK_EINVAL &&
           tk_mm_fair_levels(&s.mm, x, NULL, &err) == TK_EINVAL,
       "solve and levels check the system");
    sys_free(&s);
}

/* A sweep limit that is reached is reported, not hidden. */
static void test_sweep_limit(void)
{
    sys_t s;
    antmill(&s, 8, 2);
    tk_mm_info_t info;
    tk_error_t err;
    double x[8];
    tk_status_t st = tk_mm_solve(&s.mm, TK_ARB_RR, 1, 2, 0, x, NULL, &info, &err);
    ok(st == TK_OK && info.iterations == 2 && !info.converged && info.residual > 1e-13,
       "a sweep limit of 2: 2 sweeps, not converged, residual %g", info.residual);
    st = tk_mm_solve(&s.mm, TK_ARB_FAIR, 1, 0, 0, x, NULL, &info, &err);
    ok(st == TK_OK && info.converged && info.residual == 0 && info.iterations >= 4 &&
           info.iterations <= 8,
       "fair reports its saturation events (%lld, of the 8 links) and residual 0",
       (long long)info.iterations);
    sys_free(&s);
}

int main(void)
{
    test_arb();
    test_one_link();
    test_demand_cap();
    test_parking_lot();
    test_rr_vs_fair();
    test_transit_starves();
    test_antmill();
    test_aggregation();
    test_levels();
    test_single_entry();
    test_random();
    test_random_wide();
    test_workspace();
    test_workspace_shape();
    test_threads();
    test_relabel();
    test_check();
    test_sweep_limit();
    return tap_done();
}
