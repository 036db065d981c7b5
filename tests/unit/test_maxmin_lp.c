/*
 * test_maxmin_lp.c - tk_mm_solve's fair allocation against an independent
 * solver: weighted lexicographic max-min computed by a sequence of GLPK LPs.
 *
 * The reference (lexmaxmin below) knows nothing of progressive filling or
 * heaps.  Every free variable v is held at demand[v] * t; each round
 *   1. a level LP (GLPK's simplex; not glp_exact, whose answers on this
 *      LP came back 3e-11 below the exact optimum rho):
 *        maximise t  subject to  sum_v A[r][v] x_v <= cap[r] for every
 *        resource with a free variable on it, x_v = demand[v] * t for the
 *        free variables, the frozen ones at their values, 0 <= t <= rho;
 *   2. one LP per free variable v: with every free u at least demand[u] * t*
 *      (written x_u = demand[u] * t* + y_u, y_u >= 0, so the rounding of t*
 *      cannot make the LP infeasible), maximise y_v; v cannot increase when
 *      the optimum is below 1e-9 of its rate, and is then frozen at
 *      demand[v] * t* (every free variable when t* = rho);
 * until every variable is frozen.  A[r][v] sums v's coefficients on r (a
 * variable may have several entries on one resource).
 *
 * Checked, relative 1e-9: tk_mm_solve(TK_ARB_FAIR) against it on 200 random
 * systems (2-12 resources, 2-15 variables, demands in (0,1], 1-4 entries per
 * variable, some on one resource twice; every fourth system with integer
 * capacities and unit coefficients, where ties abound; now and then a
 * variable with demand 0 or no entry), the bottleneck each solve reports
 * (saturated and used by the variable) and tk_mm_fair_levels
 * (demand[v] * min(rho, tau[v])).  Then 100 aggregated systems (copies,
 * mult) against their unaggregated expansion: a resource of k copies and
 * capacity k * c becomes k resources of capacity c, a variable of mult m
 * becomes m variables, member j on copy j of each multi-copy resource, each
 * coefficient divided by m (ecoef counts all m members): tk on the
 * aggregate, tk on the expansion and the LPs on the expansion all agree.
 */
#include <config.h>

#include <glpk.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

#define MAXR 64
#define MAXV 64
#define MAXE 512
#define TOL 1e-9

/* ------------------------------------------------------------------------ */
/* A deterministic generator of its own (splitmix64), independent of the
 * library's streams. */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static double unif(void) /* [0, 1) */
{
    return (double)(rnd() >> 11) * 0x1.0p-53;
}
static int range(int lo, int hi) /* lo .. hi */
{
    return lo + (int)(rnd() % (uint64_t)(hi - lo + 1));
}

/* ------------------------------------------------------------------------ */
typedef struct inst {
    int64_t nres, nvar;
    double cap[MAXR], copies[MAXR];
    double demand[MAXV], mult[MAXV];
    int64_t voff[MAXV + 1];
    int64_t eres[MAXE];
    double ecoef[MAXE];
} inst_t;

static void to_mm(const inst_t *in, int aggregated, tk_mm_t *mm)
{
    memset(mm, 0, sizeof *mm);
    mm->nres = in->nres;
    mm->cap = (double *)in->cap;
    mm->copies = aggregated ? (double *)in->copies : NULL;
    mm->nvar = in->nvar;
    mm->demand = (double *)in->demand;
    mm->mult = aggregated ? (double *)in->mult : NULL;
    mm->voff = (int64_t *)in->voff;
    mm->eres = (int64_t *)in->eres;
    mm->ecoef = (double *)in->ecoef;
}

static void describe(const inst_t *in, double rho)
{
    tap_diag("system: %lld resources, %lld variables, rho=%.17g", (long long)in->nres,
             (long long)in->nvar, rho);
    for (int64_t r = 0; r < in->nres; r++)
        tap_diag("  r%lld cap %.17g copies %g", (long long)r, in->cap[r], in->copies[r]);
    for (int64_t v = 0; v < in->nvar; v++) {
        char buf[512];
        int len = 0;
        for (int64_t e = in->voff[v]; e < in->voff[v + 1] && len < 400; e++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, " r%lld*%.17g",
                            (long long)in->eres[e], in->ecoef[e]);
        buf[len] = '\0';
        tap_diag("  v%lld demand %.17g mult %g:%s", (long long)v, in->demand[v], in->mult[v], buf);
    }
}

/* ------------------------------------------------------------------------ */
/* The reference: lexicographic weighted max-min by LPs.  x[nvar]; returns
 * the number of rounds, or -1 when GLPK fails. */

/* max t, rows r: coef[r] * t <= rhs[r]; 0 <= t <= rho. */
static int level_lp(int nrows, const double *coef, const double *rhs, double rho, double *t)
{
    glp_prob *P = glp_create_prob();
    glp_smcp parm;
    int ok_ = 0;
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_cols(P, 1);
    glp_set_col_bnds(P, 1, GLP_DB, 0.0, rho);
    glp_set_obj_coef(P, 1, 1.0);
    if (nrows > 0)
        glp_add_rows(P, nrows);
    for (int i = 0; i < nrows; i++) {
        int ind[2] = {0, 1};
        double val[2] = {0.0, coef[i]};
        glp_set_row_bnds(P, i + 1, GLP_UP, 0.0, rhs[i]);
        glp_set_mat_row(P, i + 1, 1, ind, val);
    }
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (glp_simplex(P, &parm) == 0 && glp_get_status(P) == GLP_OPT) {
        *t = glp_get_obj_val(P);
        ok_ = 1;
    }
    glp_delete_prob(P);
    return ok_;
}

/* max y[target] subject to sum_u A[r][u] y_u <= slack[r] (rows with a free
 * variable), y >= 0.  free_idx: the free variables' indices. */
static int grow_lp(const inst_t *in, double A[MAXR][MAXV], const int *free_idx, int nfree,
                   const double *slack, int target, double *ymax)
{
    glp_prob *P = glp_create_prob();
    glp_smcp parm;
    int ok_ = 0, nrows = 0;
    int ind[MAXV + 1];
    double val[MAXV + 1];
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_cols(P, nfree);
    for (int j = 0; j < nfree; j++) {
        glp_set_col_bnds(P, j + 1, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(P, j + 1, free_idx[j] == target ? 1.0 : 0.0);
    }
    for (int64_t r = 0; r < in->nres; r++) {
        int len = 0;
        for (int j = 0; j < nfree; j++)
            if (A[r][free_idx[j]] != 0.0) {
                ind[len + 1] = j + 1;
                val[len + 1] = A[r][free_idx[j]];
                len++;
            }
        if (len == 0)
            continue;
        nrows++;
        glp_add_rows(P, 1);
        glp_set_row_bnds(P, nrows, GLP_UP, 0.0, slack[r] > 0.0 ? slack[r] : 0.0);
        glp_set_mat_row(P, nrows, len, ind, val);
    }
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (glp_simplex(P, &parm) == 0) {
        int st = glp_get_status(P);
        if (st == GLP_OPT) {
            *ymax = glp_get_obj_val(P);
            ok_ = 1;
        } else if (st == GLP_UNBND) {
            *ymax = INFINITY;
            ok_ = 1;
        }
    }
    glp_delete_prob(P);
    return ok_;
}

static int lexmaxmin(const inst_t *in, double rho, double *x)
{
    static double A[MAXR][MAXV];
    int frozen[MAXV];
    int rounds = 0;
    for (int64_t r = 0; r < in->nres; r++)
        for (int64_t v = 0; v < in->nvar; v++)
            A[r][v] = 0.0;
    for (int64_t v = 0; v < in->nvar; v++) {
        for (int64_t e = in->voff[v]; e < in->voff[v + 1]; e++)
            A[in->eres[e]][v] += in->ecoef[e];
        frozen[v] = in->demand[v] == 0.0;
        x[v] = 0.0;
    }
    for (;;) {
        int free_idx[MAXV], nfree = 0, nrows = 0, row_of[MAXR];
        double coef[MAXR], rhs[MAXR], resid[MAXR], slack[MAXR], t;
        for (int64_t v = 0; v < in->nvar; v++)
            if (!frozen[v])
                free_idx[nfree++] = (int)v;
        if (nfree == 0)
            return rounds;
        rounds++;
        /* the level LP */
        for (int64_t r = 0; r < in->nres; r++) {
            double used = 0.0, grow = 0.0;
            for (int64_t v = 0; v < in->nvar; v++) {
                if (frozen[v])
                    used += A[r][v] * x[v];
                else
                    grow += A[r][v] * in->demand[v];
            }
            resid[r] = in->cap[r] - used;
            row_of[r] = -1;
            if (grow > 0.0) {
                row_of[r] = nrows;
                coef[nrows] = grow;
                rhs[nrows] = resid[r];
                nrows++;
            }
        }
        if (!level_lp(nrows, coef, rhs, rho, &t))
            return -1;
        if (t >= rho) {
            for (int j = 0; j < nfree; j++) {
                x[free_idx[j]] = in->demand[free_idx[j]] * rho;
                frozen[free_idx[j]] = 1;
            }
            continue;
        }
        /* which free variables can still grow */
        for (int64_t r = 0; r < in->nres; r++)
            slack[r] = row_of[r] < 0 ? INFINITY : resid[r] - coef[row_of[r]] * t;
        int nfrozen = 0;
        int grows[MAXV];
        for (int j = 0; j < nfree; j++) {
            double ymax;
            int v = free_idx[j];
            if (!grow_lp(in, A, free_idx, nfree, slack, v, &ymax))
                return -1;
            grows[j] = ymax > 1e-9 * in->demand[v] * t;
            nfrozen += !grows[j];
        }
        if (nfrozen == 0)
            return -1; /* a level no variable stops at: the LPs disagree */
        for (int j = 0; j < nfree; j++) {
            int v = free_idx[j];
            x[v] = in->demand[v] * t;
            if (!grows[j])
                frozen[v] = 1;
        }
    }
}

/* ------------------------------------------------------------------------ */
static double relerr(double got, double want)
{
    double d = fabs(got - want);
    double s = fabs(want);
    return s > 0.0 ? d / s : d;
}

/* Random system: kind 0 continuous, 1 integer capacities and unit
 * coefficients (ties). */
static void gen_plain(inst_t *in, int kind)
{
    int64_t e = 0;
    in->nres = range(2, 12);
    in->nvar = range(2, 15);
    for (int64_t r = 0; r < in->nres; r++) {
        in->cap[r] = kind ? (double)range(1, 3) : 0.2 + 4.8 * unif();
        in->copies[r] = 1.0;
    }
    int zero = (rnd() % 10 == 0) ? range(0, (int)in->nvar - 1) : -1;
    int none = (rnd() % 10 == 0) ? range(0, (int)in->nvar - 1) : -1;
    for (int64_t v = 0; v < in->nvar; v++) {
        int k = range(1, in->nres < 4 ? (int)in->nres : 4);
        int64_t chosen[4];
        in->demand[v] = kind ? (rnd() % 2 ? 1.0 : 0.5) : 1.0 - unif(); /* (0, 1] */
        if (v == zero)
            in->demand[v] = 0.0;
        in->mult[v] = 1.0;
        in->voff[v] = e;
        if (v == none)
            continue;
        for (int i = 0; i < k; i++) {
            int64_t r;
            int dup;
            do {
                r = (int64_t)(rnd() % (uint64_t)in->nres);
                dup = 0;
                for (int j = 0; j < i; j++)
                    dup |= chosen[j] == r;
            } while (dup);
            chosen[i] = r;
            in->eres[e] = r;
            in->ecoef[e] = kind ? 1.0 : 0.25 + 1.75 * unif();
            e++;
            /* now and then a second entry on the same resource */
            if (rnd() % 8 == 0) {
                in->eres[e] = r;
                in->ecoef[e] = kind ? 1.0 : 0.25 + 1.75 * unif();
                e++;
            }
        }
    }
    in->voff[in->nvar] = e;
}

static double gen_rho(void)
{
    /* log-uniform in [0.05, 20]: sometimes every variable is capped, often
     * none */
    return exp(log(0.05) + unif() * (log(20.0) - log(0.05)));
}

/* An aggregated system (copies, mult) and its expansion; member[v] = the
 * first unaggregated variable of v (members are consecutive). */
static void gen_aggregated(inst_t *ag, inst_t *un, int64_t *member)
{
    int K = range(2, 4);
    int64_t base[MAXR], e = 0, ue = 0;
    ag->nres = range(3, 10);
    ag->nvar = range(2, 10);
    un->nres = 0;
    for (int64_t r = 0; r < ag->nres; r++) {
        double c0 = 0.2 + 4.8 * unif();
        ag->copies[r] = r > 0 && rnd() % 5 < 2 ? (double)K : 1.0; /* r0: one copy */
        ag->cap[r] = ag->copies[r] * c0;
        base[r] = un->nres;
        for (int j = 0; j < (int)ag->copies[r]; j++) {
            un->cap[un->nres] = c0;
            un->copies[un->nres] = 1.0;
            un->nres++;
        }
    }
    un->nvar = 0;
    for (int64_t v = 0; v < ag->nvar; v++) {
        int m, u = (int)(rnd() % 3);
        m = u == 0 ? 1 : u == 1 ? K : (K == 2 ? 3 : 2);
        ag->mult[v] = m;
        ag->demand[v] = 1.0 - unif();
        ag->voff[v] = e;
        /* resources a member of v may use: single copies, or one copy per
         * member */
        int64_t allowed[MAXR], na = 0;
        for (int64_t r = 0; r < ag->nres; r++)
            if (ag->copies[r] == 1.0 || ag->copies[r] == (double)m)
                allowed[na++] = r;
        int k = range(1, na < 4 ? (int)na : 4);
        for (int i = 0; i < k; i++) {
            int64_t j = i + (int64_t)(rnd() % (uint64_t)(na - i));
            int64_t r = allowed[j];
            allowed[j] = allowed[i];
            allowed[i] = r;
            ag->eres[e] = r;
            ag->ecoef[e] = m * (0.25 + 1.75 * unif()); /* all m members */
            e++;
        }
        ag->voff[v + 1] = e;
        member[v] = un->nvar;
        for (int j = 0; j < m; j++) {
            int64_t w = un->nvar++;
            un->demand[w] = ag->demand[v];
            un->mult[w] = 1.0;
            un->voff[w] = ue;
            for (int64_t f = ag->voff[v]; f < ag->voff[v + 1]; f++) {
                int64_t r = ag->eres[f];
                un->eres[ue] = base[r] + (ag->copies[r] > 1.0 ? j : 0);
                un->ecoef[ue] = ag->ecoef[f] / m;
                ue++;
            }
            un->voff[w + 1] = ue;
        }
    }
    ag->voff[ag->nvar] = e;
}

/* ------------------------------------------------------------------------ */
/* One plain system: tk against the LPs, its bottlenecks, its levels. */
static void check_plain(int seed)
{
    inst_t in;
    tk_mm_t mm;
    tk_error_t err;
    tk_mm_info_t info;
    double x[MAXV], ref[MAXV], tau[MAXV];
    int64_t bneck[MAXV], bneck2[MAXV];
    rng_state = 0x5eed0000ULL + (uint64_t)seed;
    int kind = seed % 4 == 0;
    gen_plain(&in, kind);
    double rho = gen_rho();
    to_mm(&in, 0, &mm);

    int rounds = lexmaxmin(&in, rho, ref);
    if (!ok(rounds > 0, "seed %d: GLPK reference solved (%d rounds)", seed, rounds)) {
        describe(&in, rho);
        return;
    }
    tk_status_t st = tk_mm_solve(&mm, TK_ARB_FAIR, rho, 0, 0, x, bneck, &info, &err);
    if (!ok(st == TK_OK, "seed %d: tk_mm_solve fair", seed)) {
        tap_diag("error: %s", err.msg);
        describe(&in, rho);
        return;
    }
    double worst = 0.0;
    int64_t wv = 0;
    for (int64_t v = 0; v < in.nvar; v++)
        if (relerr(x[v], ref[v]) > worst) {
            worst = relerr(x[v], ref[v]);
            wv = v;
        }
    if (!ok(worst <= TOL, "seed %d (%s, %lld res, %lld var): fair = lexicographic max-min by LPs",
            seed, kind ? "ties" : "continuous", (long long)in.nres, (long long)in.nvar)) {
        tap_diag("worst v%lld: tk %.17g, LPs %.17g (relative %.3g)", (long long)wv, x[wv], ref[wv],
                 worst);
        for (int64_t v = 0; v < in.nvar; v++)
            tap_diag("  v%lld: tk %.17g LPs %.17g", (long long)v, x[v], ref[v]);
        describe(&in, rho);
    }

    /* bottlenecks: a capped variable names a saturated resource it uses */
    double load[MAXR] = {0};
    for (int64_t v = 0; v < in.nvar; v++)
        for (int64_t e = in.voff[v]; e < in.voff[v + 1]; e++)
            load[in.eres[e]] += in.ecoef[e] * x[v];
    int bad = 0;
    for (int64_t v = 0; v < in.nvar && !bad; v++) {
        if (x[v] >= rho * in.demand[v] * (1.0 - TOL))
            continue; /* served (or tied with a saturation at rho) */
        int64_t r = bneck[v];
        int uses = 0;
        for (int64_t e = in.voff[v]; e < in.voff[v + 1]; e++)
            uses |= r >= 0 && in.eres[e] == r;
        if (!uses || fabs(load[r] - in.cap[r]) > TOL * in.cap[r]) {
            bad = 1;
            tap_diag("v%lld rate %.17g < rho*demand %.17g, bneck %lld (uses it: %d)", (long long)v,
                     x[v], rho * in.demand[v], (long long)r, uses);
        }
    }
    ok(!bad, "seed %d: every limited variable's bottleneck is a saturated resource it uses", seed);

    /* levels: demand[v] * min(rho, tau[v]) */
    st = tk_mm_fair_levels(&mm, tau, bneck2, &err);
    worst = 0.0;
    for (int64_t v = 0; v < in.nvar && st == TK_OK; v++) {
        double want = in.demand[v] * fmin(rho, tau[v]);
        if (relerr(want, ref[v]) > worst) {
            worst = relerr(want, ref[v]);
            wv = v;
        }
    }
    if (!ok(st == TK_OK && worst <= TOL, "seed %d: tk_mm_fair_levels gives the same rates", seed)) {
        if (st != TK_OK)
            tap_diag("error: %s", err.msg);
        else
            tap_diag("v%lld: demand*min(rho, tau=%.17g) = %.17g, LPs %.17g", (long long)wv, tau[wv],
                     in.demand[wv] * fmin(rho, tau[wv]), ref[wv]);
    }
}

/* One aggregated system: tk(aggregate) = tk(expansion) = LPs(expansion). */
static void check_aggregated(int seed)
{
    static inst_t ag, un;
    int64_t member[MAXV];
    tk_mm_t mma, mmu;
    tk_error_t err;
    tk_mm_info_t info;
    double xa[MAXV], xu[MAXV], ref[MAXV];
    rng_state = 0xa66e0000ULL + (uint64_t)seed;
    gen_aggregated(&ag, &un, member);
    double rho = gen_rho();
    to_mm(&ag, 1, &mma);
    to_mm(&un, 0, &mmu);
    int rounds = lexmaxmin(&un, rho, ref);
    tk_status_t sa = tk_mm_solve(&mma, TK_ARB_FAIR, rho, 0, 0, xa, NULL, &info, &err);
    if (sa != TK_OK)
        tap_diag("aggregate: %s", err.msg);
    tk_status_t su = tk_mm_solve(&mmu, TK_ARB_FAIR, rho, 0, 0, xu, NULL, &info, &err);
    if (su != TK_OK)
        tap_diag("expansion: %s", err.msg);
    if (!ok(rounds > 0 && sa == TK_OK && su == TK_OK, "aggregated seed %d: all three solved",
            seed)) {
        describe(&ag, rho);
        return;
    }
    double wa = 0.0, wl = 0.0;
    for (int64_t v = 0; v < ag.nvar; v++)
        for (int j = 0; j < (int)ag.mult[v]; j++) {
            int64_t w = member[v] + j;
            wa = fmax(wa, relerr(xa[v], xu[w]));
            wl = fmax(wl, relerr(xa[v], ref[w]));
        }
    if (!ok(wa <= TOL, "aggregated seed %d (%lld var -> %lld): aggregate = expansion under tk",
            seed, (long long)ag.nvar, (long long)un.nvar))
        tap_diag("largest relative difference %.3g", wa);
    if (!ok(wl <= TOL, "aggregated seed %d: aggregate = LPs on the expansion", seed)) {
        tap_diag("largest relative difference %.3g", wl);
        for (int64_t v = 0; v < ag.nvar; v++)
            tap_diag("  v%lld: tk %.17g LPs(member 0) %.17g", (long long)v, xa[v], ref[member[v]]);
        describe(&ag, rho);
    }
}

int main(void)
{
    glp_term_out(GLP_OFF);
    for (int seed = 1; seed <= 200; seed++)
        check_plain(seed);
    for (int seed = 1; seed <= 100; seed++)
        check_aggregated(seed);
    glp_free_env();
    return tap_done();
}
