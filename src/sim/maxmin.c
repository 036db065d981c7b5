/*
 * maxmin.c - the max-min systems of tk_sim.h and their three solvers:
 * tk_arb_parse/name, tk_mm_check, tk_mm_solve, tk_mm_fair_levels, and
 * the rr bottleneck checker of maxmin_internal.h.
 *
 * fair: exact weighted max-min by progressive filling.  Every free member
 * of v runs at demand[v] t while the level t rises; resource r's use is
 * F_r + S_r t, F_r the use of the frozen variables (sum ecoef x, added as
 * they freeze) and S_r the slope, sum ecoef demand over the free entries.
 * A binary heap holds one event per resource, keyed (level, resource id)
 * at (cap_r - F_r) / S_r; the smallest pops, its resource saturates and
 * freezes every free variable with an entry on it at rate demand t, where
 * t is the popped level (never below the current one).  A freeze changes
 * the slope and frozen use of the variable's resources and can only push
 * their events later, so keys are lazy: a resource touched by a freeze is
 * marked dirty, and a dirty event that pops is recomputed and pushed back
 * instead of firing (a stale key is a lower bound, so the stop test at
 * rho may use it).  The slope is not kept by subtraction, which cancels:
 * every resource has a sum tree over its entries (resource-major, in entry
 * order); a freeze zeroes the variable's leaves and re-adds the paths to
 * the roots, so S_r is always the same sum of nonnegative terms in the same
 * order for the same set of free entries, never negative, exactly 0 when
 * none is free (a count of free entries per resource says when).  Cost:
 * O(entries log(max entries per resource) + (entries + nres) log nres).
 *
 * rr, transit: a fixed point of local round-robin arbitration.  The state
 * is a grant G_e per entry e (the rate e's output would let a member of
 * its variable have through e's port), in [0, R_v] where R_v = rho
 * demand[v] is the request (a grant of R_v means "not limited here").  The
 * rate of a member is x_v = min(R_v, min_e G_e) and the desire of entry e
 * is w_e = min(R_v, min over v's OTHER entries e' of G_e').  (This is the
 * header's "grants at every other output" taken per entry: when v has two
 * entries at one output, through two ports, each entry's desire also sees
 * the other's grant, so that at a fixed point the shares an output hands
 * out are exactly the shares the rates use.)
 *
 * One output r, given the desires (the derivation of the header's rule):
 * the traffic of entry e, ecoef_e w_e, is spread evenly over the copies_r
 * copies of r and the n_i ports of its input i (n_i = in_mult[i], or 1 for
 * own_in[r]), so a port of i asks for D_i = sum_{e via i} ecoef_e w_e /
 * (copies_r n_i).  A copy's capacity K = cap_r / copies_r is shared
 * max-min among its ports (level theta: sum_i n_i min(D_i, theta) = K;
 * transit: the in-transit ports share K, then the injection ports share
 * what they leave).  In a port, v's mult_v members are spread the same
 * way, m_e = mult_v / (copies_r n_i) of them per port, and a member's use
 * of the port per unit of its rate is f_e = ecoef_e / mult_v (ecoef is all
 * members' use): so a port's members ask for u_e = f_e w_e each, with
 * weight m_e (sum m_e u_e = D_i), and share the port's theta max-min
 * (level phi: sum m_e min(u_e, phi) = theta).  Entries without a port
 * (ein -1) form one in-transit port of count 1.
 *
 * The grant of e is its greedy share: the level ONE member of e would
 * get if it asked for more than anyone, everybody else's desire as it is
 * (one of the n_i ports of its input greedy: theta' among the ports; in
 * it, one member greedy and the other m_e - 1 of v as they are: phi' over
 * theta'; weights below 1 greedy as a whole), as a rate: phi' / f_e,
 * capped at R_v.  For a member that the output limits this is the level
 * phi itself; for one it does not limit it is what it could have, never
 * less than its desire.  So a member's share at the output is always
 * min(its desire, its grant); the grant does not depend on the member's
 * own desire, which keeps the map from desires to grants continuous (a
 * grant of "phi if limited, else R_v" jumps where a port stops being
 * limited, and sweeps then cycle around the jump); and one member rather
 * than all of v is what makes an aggregate of m servers compute what its m
 * servers would compute one by one (unaggregated, a server's flow is one
 * member in its own port).
 *
 * The algorithm (the equilibrium it picks is the one it converges to): the
 * grants start at R_v (every desire is the request: "from the top").  A
 * sweep visits the outputs in resource-id order (Gauss-Seidel: an output
 * sees the grants the outputs before it set in the same sweep; within an
 * output the desires are taken before any of its grants change) and moves
 * every grant towards its computed value c_e: to c_e in the first sweep,
 * then by alpha = 1/2 of the way (damping: the map from grants to grants
 * is antitone, higher grants, higher desires, lower shares, so undamped
 * sweeps can alternate between two states forever).  A sweep's residual
 * is the largest change of a rate, relative to its request, between the
 * rates before the sweep and the rates the sweep's computed (undamped)
 * grants give: the distance from a fixed point whatever the damping
 * (relative to the request rather than the rate, since a starved rate
 * tends to 0).  Where the map is steep the damped sweeps can still cycle:
 * when the residual has not halved in 50 sweeps, alpha halves (down to
 * 1e-6).  Sweeps stop when the residual is at most 1e-13 (converged) or at
 * the sweep limit (not converged: the rates are then the last sweep's and
 * need not be an equilibrium; some transit systems, and a few rr ones,
 * never settle: on them the continuous-time dynamics itself oscillates).
 * A fixed point is an equilibrium: every member not fully served is
 * limited at some output where its port got the largest share and it the
 * largest share in its port (sim_mm_rr_check), and the output shares are
 * exactly those the rates use.  Rates within 1e-11 of the request are then
 * reported as fully served (the approach to a request is geometric and
 * can stop an ulp short).
 *
 * Which equilibrium: where it is unique (a link shared by ports, parking
 * lots, the Ant Mill pattern with one server per switch) this is it; where
 * it is not, the one these sweeps reach from the top.  It depends on the
 * resource order (Gauss-Seidel is not invariant under relabelling: on the
 * even Ant Mill cycle with lambda = 2 and p >= 2 servers per switch, whose
 * equilibria alternate a and 1/p - a, they reach an alternating one, not
 * the symmetric 1/(2p): see test_maxmin.c), but an aggregated system and
 * its expansion whose resources come in the same order (net.c: arcs
 * first) follow the same sweeps.  check_another solves a second time from
 * the opposite start, every grant 0 (every desire 0), in the same order,
 * and says when a rate differs by more than 1e-9 of its request: a witness
 * of a second equilibrium, never a proof that there is none.  Cost per
 * sweep: O(entries log(entries per output)).
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/maxmin_internal.h"
#include "tk_sim.h"

#define MM_TOL 1e-13     /* rr/transit: convergence, relative to the request */
#define MM_SNAP 1e-11    /* rr/transit: a rate this close to its request is served */
#define MM_ANOTHER 1e-9  /* rr/transit: two starts differ by more than this */
#define MM_SWEEPS 100000 /* rr/transit: default sweep limit */
#define MM_SMALL 16      /* variables with more entries keep a min tree */
#define MM_DAMP 0.5      /* rr/transit: the damping after the first sweep */
#define MM_DAMPMIN 1e-6  /* rr/transit: the least damping */
#define MM_STALL 50      /* rr/transit: sweeps without halving the residual */

/* ------------------------------------------------------------------------ */
/* Arbitration names. */

static const char *const arb_names[] = {"fair", "rr", "transit"};

tk_status_t tk_arb_parse(const char *text, tk_arb_t *out, tk_error_t *err)
{
    if (!text || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_arb_parse: NULL argument");
    for (int a = 0; a < 3; a++)
        if (strcmp(text, arb_names[a]) == 0) {
            *out = (tk_arb_t)a;
            return TK_OK;
        }
    return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: unknown arbitration (fair, rr or transit)",
                        text);
}

const char *tk_arb_name(tk_arb_t a)
{
    return (unsigned)a < 3 ? arb_names[a] : "unknown";
}

/* ------------------------------------------------------------------------ */
/* Checks. */

static double mm_copies(const tk_mm_t *mm, int64_t r)
{
    return mm->copies ? mm->copies[r] : 1.0;
}

static double mm_mult(const tk_mm_t *mm, int64_t v)
{
    return mm->mult ? mm->mult[v] : 1.0;
}

/* The first value of a[0..n) that is not finite or not above lo (strict) or
 * below lo (!strict), or -1. */
static int64_t first_bad(const double *a, int64_t n, double lo, int strict)
{
    for (int64_t k = 0; k < n; k++)
        if (!isfinite(a[k]) || (strict ? !(a[k] > lo) : !(a[k] >= lo)))
            return k;
    return -1;
}

/* tk_mm_check: see tk_sim.h. */
tk_status_t tk_mm_check(const tk_mm_t *mm, tk_error_t *err)
{
    int64_t k;
    if (!mm)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_mm_check: NULL system");
    if (mm->nres < 0 || mm->nvar < 0 || mm->nin < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "max-min system: negative size (nres=%" PRId64 ", nvar=%" PRId64
                            ", nin=%" PRId64 ")",
                            mm->nres, mm->nvar, mm->nin);
    if ((mm->nres > 0 && !mm->cap) || (mm->nvar > 0 && !mm->demand) || !mm->voff)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "max-min system: cap, demand or voff missing");
    if ((k = first_bad(mm->cap, mm->nres, 0, 1)) >= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "cap[%" PRId64 "]=%.17g: must be positive", k,
                            mm->cap[k]);
    if (mm->copies && (k = first_bad(mm->copies, mm->nres, 1, 0)) >= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "copies[%" PRId64 "]=%.17g: must be >= 1", k,
                            mm->copies[k]);
    if ((k = first_bad(mm->demand, mm->nvar, 0, 0)) >= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "demand[%" PRId64 "]=%.17g: must be >= 0 and finite", k, mm->demand[k]);
    if (mm->mult && (k = first_bad(mm->mult, mm->nvar, 0, 1)) >= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "mult[%" PRId64 "]=%.17g: must be positive", k,
                            mm->mult[k]);
    if (mm->in_mult && (k = first_bad(mm->in_mult, mm->nin, 1, 0)) >= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "in_mult[%" PRId64 "]=%.17g: must be >= 1", k,
                            mm->in_mult[k]);
    if (mm->own_in)
        for (k = 0; k < mm->nres; k++)
            if (mm->own_in[k] < -1 || mm->own_in[k] >= mm->nin)
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "own_in[%" PRId64 "]=%" PRId64 ": must be -1 or an input "
                                    "below nin=%" PRId64,
                                    k, mm->own_in[k], mm->nin);
    if (mm->voff[0] != 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "voff[0]=%" PRId64 ": must be 0", mm->voff[0]);
    for (k = 0; k < mm->nvar; k++)
        if (mm->voff[k + 1] < mm->voff[k])
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "voff[%" PRId64 "]=%" PRId64 ": below voff[%" PRId64 "]=%" PRId64,
                                k + 1, mm->voff[k + 1], k, mm->voff[k]);
    int64_t ne = mm->voff[mm->nvar];
    if (ne > 0 && (!mm->eres || !mm->ecoef))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "max-min system: eres or ecoef missing");
    for (k = 0; k < ne; k++)
        if (mm->eres[k] < 0 || mm->eres[k] >= mm->nres)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "eres[%" PRId64 "]=%" PRId64
                                ": must be a resource below nres=%" PRId64,
                                k, mm->eres[k], mm->nres);
    if ((k = first_bad(mm->ecoef, ne, 0, 1)) >= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "ecoef[%" PRId64 "]=%.17g: must be positive",
                            k, mm->ecoef[k]);
    if (mm->ein)
        for (k = 0; k < ne; k++)
            if (mm->ein[k] < -1 || mm->ein[k] >= mm->nin)
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "ein[%" PRId64 "]=%" PRId64 ": must be -1 or an input below "
                                    "nin=%" PRId64,
                                    k, mm->ein[k], mm->nin);
    if (mm->emcoef)
        for (int64_t v = 0; v < mm->nvar; v++)
            for (k = mm->voff[v]; k < mm->voff[v + 1]; k++) {
                double c = mm->emcoef[k] * mm_mult(mm, v);
                if (!(c > 0) || !isfinite(c) || fabs(c - mm->ecoef[k]) > 1e-12 * mm->ecoef[k])
                    return tk_error_set(err, TK_EINVAL, NULL, 0,
                                        "emcoef[%" PRId64 "]=%.17g: must be ecoef[%" PRId64
                                        "] / mult[%" PRId64 "] = %.17g",
                                        k, mm->emcoef[k], k, v, mm->ecoef[k] / mm_mult(mm, v));
            }
    return TK_OK;
}

static tk_status_t nomem(tk_error_t *err)
{
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "max-min solver: out of memory");
}

/* ------------------------------------------------------------------------ */
/* fair: progressive filling. */

typedef struct mm_event {
    double key;
    int64_t r;
} mm_event_t;

static int ev_less(const mm_event_t *a, const mm_event_t *b)
{
    return a->key < b->key || (a->key == b->key && a->r < b->r);
}

static void heap_down(mm_event_t *h, int64_t n, int64_t i)
{
    mm_event_t e = h[i];
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && ev_less(&h[c + 1], &h[c]))
            c++;
        if (!ev_less(&h[c], &e))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = e;
}

/* A resource's state in the filling: frozen use F and slope S kept by
 * increments (the heap keys), their exact values recomputed from the
 * entries before the resource fires. */
typedef struct fair_res {
    double F;      /* frozen use                                         */
    double S;      /* slope: sum ecoef demand over the free entries      */
    double Sref;   /* S at the last exact recomputation                  */
    int64_t nfree; /* free entries                                       */
    uint8_t dirty; /* a variable froze since the heap key was set        */
    uint8_t exact; /* F and S recomputed, no freeze since                */
} fair_res_t;

/* An entry in resource-major order: its slope (ecoef demand while the
 * variable is free, then 0), its frozen use (0, then ecoef x), its
 * variable.  An entry is free while w > 0. */
typedef struct fair_pos {
    double w, u;
    int64_t v;
} fair_pos_t;

typedef struct fair {
    const tk_mm_t *mm;
    int64_t *roff;   /* nres + 1: resource r's positions                 */
    int64_t *pos;    /* entries: the position of an entry                */
    fair_pos_t *ep;  /* entries, by position                             */
    fair_res_t *rs;  /* nres                                             */
    uint8_t *frozen; /* nvar                                             */
    mm_event_t *heap;
} fair_t;

static void fair_free(fair_t *f)
{
    free(f->roff);
    free(f->pos);
    free(f->ep);
    free(f->rs);
    free(f->frozen);
    free(f->heap);
}

/* F and S of r from its entries, in position order: the same sums for the
 * same frozen set, whatever the order of the freezes, never negative. */
static void fair_exact(fair_t *f, int64_t r)
{
    fair_res_t *R = &f->rs[r];
    double F = 0, S = 0;
    int64_t n = 0;
    for (int64_t p = f->roff[r]; p < f->roff[r + 1]; p++) {
        F += f->ep[p].u;
        S += f->ep[p].w;
        n += f->ep[p].w > 0;
    }
    R->F = F;
    R->S = S;
    R->nfree = n;
    R->Sref = R->S;
    R->exact = 1;
}

/* The level at which r fills (at least level), INFINITY for never.  An
 * incremental slope that has lost most of its value since the last exact
 * one is recomputed first (it may be mostly rounding). */
static double fair_key(fair_t *f, int64_t r, double level)
{
    fair_res_t *R = &f->rs[r];
    if (R->nfree <= 0)
        return INFINITY;
    if (!R->exact && !(R->S > 1e-6 * R->Sref))
        fair_exact(f, r);
    if (!(R->S > 0))
        return INFINITY;
    double k = (f->mm->cap[r] - R->F) / R->S;
    return k > level ? k : level;
}

static tk_status_t fair_init(fair_t *f, const tk_mm_t *mm, tk_error_t *err)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar];
    memset(f, 0, sizeof *f);
    f->mm = mm;
    f->roff = tk_calloc_array((size_t)nres + 1, sizeof *f->roff);
    f->pos = tk_malloc_array((size_t)ne, sizeof *f->pos);
    f->ep = tk_malloc_array((size_t)ne, sizeof *f->ep);
    f->rs = tk_calloc_array((size_t)nres, sizeof *f->rs);
    f->frozen = tk_calloc_array((size_t)nvar, sizeof *f->frozen);
    f->heap = tk_malloc_array((size_t)nres, sizeof *f->heap);
    if (!f->roff || !f->pos || !f->ep || !f->rs || !f->frozen || !f->heap) {
        fair_free(f);
        return nomem(err);
    }
    /* Resource-major transpose, entries in order within a resource. */
    for (int64_t e = 0; e < ne; e++)
        f->roff[mm->eres[e] + 1]++;
    for (int64_t r = 0; r < nres; r++)
        f->roff[r + 1] += f->roff[r];
    for (int64_t v = 0; v < nvar; v++) {
        f->frozen[v] = !(mm->demand[v] > 0);
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            int64_t p = f->roff[mm->eres[e]]++;
            f->pos[e] = p;
            f->ep[p] = (fair_pos_t){mm->ecoef[e] * mm->demand[v], 0, v};
        }
    }
    for (int64_t r = nres; r > 0; r--)
        f->roff[r] = f->roff[r - 1];
    f->roff[0] = 0;
    for (int64_t r = 0; r < nres; r++)
        fair_exact(f, r);
    return TK_OK;
}

/* Freezes v at level t, limited by r (-1: none). */
static void fair_freeze(fair_t *f, int64_t v, double t, int64_t r, double *tau, int64_t *bneck)
{
    const tk_mm_t *mm = f->mm;
    double x = mm->demand[v] * t;
    f->frozen[v] = 1;
    tau[v] = t;
    if (bneck)
        bneck[v] = r;
    for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
        fair_res_t *R = &f->rs[mm->eres[e]];
        fair_pos_t *P = &f->ep[f->pos[e]];
        double u = mm->ecoef[e] * x;
        if (P->w > 0)
            R->S = --R->nfree > 0 ? R->S - P->w : 0;
        P->w = 0;
        P->u = u;
        R->F += u;
        R->dirty = 1;
        R->exact = 0;
    }
}

/* The filling up to level stop (INFINITY: to the end): tau[v] the level v
 * froze at, or INFINITY (still free at stop, demand 0, or never limited);
 * bneck[v] its resource or -1.  Events in *events. */
static tk_status_t fair_fill(const tk_mm_t *mm, double stop, double *tau, int64_t *bneck,
                             int64_t *events, tk_error_t *err)
{
    fair_t f;
    tk_status_t st = fair_init(&f, mm, err);
    if (st != TK_OK)
        return st;
    for (int64_t v = 0; v < mm->nvar; v++) {
        tau[v] = INFINITY;
        if (bneck)
            bneck[v] = -1;
    }
    int64_t hn = 0, nev = 0;
    double level = 0;
    for (int64_t r = 0; r < mm->nres; r++) {
        double k = fair_key(&f, r, 0);
        if (k < INFINITY)
            f.heap[hn++] = (mm_event_t){k, r};
    }
    for (int64_t i = hn / 2 - 1; i >= 0; i--)
        heap_down(f.heap, hn, i);
    while (hn > 0) {
        mm_event_t top = f.heap[0];
        int64_t r = top.r;
        fair_res_t *R = &f.rs[r];
        if (top.key >= stop)
            break; /* keys are lower bounds: nothing fires below stop */
        if (R->nfree == 0) {
            f.heap[0] = f.heap[--hn];
            heap_down(f.heap, hn, 0);
            continue;
        }
        if (R->dirty || !R->exact) {
            /* A stale key (dirty) or one from incremental sums: recompute,
             * exactly before firing, and put it back. */
            if (!R->dirty)
                fair_exact(&f, r);
            R->dirty = 0;
            double k = fair_key(&f, r, level);
            if (R->exact && k <= top.key) {
                top.key = k > level ? k : level; /* fire now */
            } else {
                if (k < INFINITY)
                    f.heap[0].key = k;
                else
                    f.heap[0] = f.heap[--hn];
                heap_down(f.heap, hn, 0);
                continue;
            }
        }
        f.heap[0] = f.heap[--hn];
        heap_down(f.heap, hn, 0);
        if (top.key > level)
            level = top.key;
        nev++;
        for (int64_t p = f.roff[r]; p < f.roff[r + 1]; p++)
            if (!f.frozen[f.ep[p].v])
                fair_freeze(&f, f.ep[p].v, level, r, tau, bneck);
    }
    fair_free(&f);
    *events = nev;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* rr and transit: the ports of every output. */

typedef struct mm_ports {
    int64_t *roff; /* nres + 1: output r's positions                      */
    int64_t *pent; /* entries: the entry at a position, sorted by (output,
                      input, entry)                                       */
    int64_t *rgrp; /* nres + 1: output r's groups (one per input)         */
    int64_t *gpos; /* groups + 1: a group's positions                     */
    double *gcnt;  /* groups: ports of the input per copy                 */
    uint8_t *gtr;  /* groups: in transit                                  */
    int64_t *evar; /* entries: the variable of an entry                   */
    int64_t *egrp; /* entries: the group of an entry                      */
    int64_t ngrp, maxdeg, maxgrp;
} mm_ports_t;

static void ports_free(mm_ports_t *P)
{
    free(P->roff);
    free(P->pent);
    free(P->rgrp);
    free(P->gpos);
    free(P->gcnt);
    free(P->gtr);
    free(P->evar);
    free(P->egrp);
}

/* Counting sorts: by input (no port last but one key: -1 -> 0), then
 * stably by output; then the runs of one input within an output. */
static int ports_init(mm_ports_t *P, const tk_mm_t *mm)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar], nin = mm->nin;
    int64_t *ioff = NULL, *tmp = NULL;
    memset(P, 0, sizeof *P);
    P->roff = tk_calloc_array((size_t)nres + 1, sizeof *P->roff);
    P->pent = tk_malloc_array((size_t)ne, sizeof *P->pent);
    P->rgrp = tk_calloc_array((size_t)nres + 1, sizeof *P->rgrp);
    P->gpos = tk_malloc_array((size_t)ne + 1, sizeof *P->gpos);
    P->gcnt = tk_malloc_array((size_t)ne, sizeof *P->gcnt);
    P->gtr = tk_malloc_array((size_t)ne, sizeof *P->gtr);
    P->evar = tk_malloc_array((size_t)ne, sizeof *P->evar);
    P->egrp = tk_malloc_array((size_t)ne, sizeof *P->egrp);
    ioff = tk_calloc_array((size_t)nin + 2, sizeof *ioff);
    tmp = tk_malloc_array((size_t)ne, sizeof *tmp);
    if (!P->roff || !P->pent || !P->rgrp || !P->gpos || !P->gcnt || !P->gtr || !P->evar ||
        !P->egrp || !ioff || !tmp) {
        free(ioff);
        free(tmp);
        ports_free(P);
        return -1;
    }
    for (int64_t v = 0; v < nvar; v++)
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
            P->evar[e] = v;
    for (int64_t e = 0; e < ne; e++)
        ioff[(mm->ein ? mm->ein[e] + 1 : 0) + 1]++;
    for (int64_t i = 0; i <= nin; i++)
        ioff[i + 1] += ioff[i];
    for (int64_t e = 0; e < ne; e++)
        tmp[ioff[mm->ein ? mm->ein[e] + 1 : 0]++] = e;
    for (int64_t e = 0; e < ne; e++)
        P->roff[mm->eres[e] + 1]++;
    for (int64_t r = 0; r < nres; r++)
        P->roff[r + 1] += P->roff[r];
    for (int64_t k = 0; k < ne; k++) {
        int64_t e = tmp[k];
        P->pent[P->roff[mm->eres[e]]++] = e;
    }
    for (int64_t r = nres; r > 0; r--)
        P->roff[r] = P->roff[r - 1];
    P->roff[0] = 0;
    free(ioff);
    free(tmp);
    int64_t g = 0;
    for (int64_t r = 0; r < nres; r++) {
        P->rgrp[r] = g;
        int64_t own = mm->own_in ? mm->own_in[r] : -1;
        for (int64_t p = P->roff[r]; p < P->roff[r + 1]; p++) {
            int64_t i = mm->ein ? mm->ein[P->pent[p]] : -1;
            if (p == P->roff[r] || i != (mm->ein ? mm->ein[P->pent[p - 1]] : -1)) {
                P->gpos[g] = p;
                P->gcnt[g] = i < 0 || i == own || !mm->in_mult ? 1.0 : mm->in_mult[i];
                P->gtr[g] = i < 0 || !mm->in_transit || mm->in_transit[i] != 0;
                g++;
            }
            P->egrp[P->pent[p]] = g - 1;
        }
        if (P->roff[r + 1] - P->roff[r] > P->maxdeg)
            P->maxdeg = P->roff[r + 1] - P->roff[r];
        if (g - P->rgrp[r] > P->maxgrp)
            P->maxgrp = g - P->rgrp[r];
    }
    P->rgrp[nres] = g;
    P->gpos[g] = ne;
    P->ngrp = g;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* rr and transit: water-filling. */

typedef struct wf_item {
    double u; /* demand of one                                            */
    double w; /* how many (weight)                                        */
    double p; /* scratch: the demand of the items before it               */
    double s; /* scratch: the weight of it and the items after it         */
    double g; /* out: its greedy level                                    */
    int64_t k;
} wf_item_t;

static int wf_cmp(const void *a, const void *b)
{
    const wf_item_t *x = a, *y = b;
    if (x->u != y->u)
        return x->u < y->u ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* Max-min water-filling of n items (item j: w_j of them, each asking
 * for u_j) over capacity cap >= 0.  Sorts the items by (u, k) and sets
 * each item's greedy level g: the level L with
 *   sum_{i != j} w_i min(u_i, L) + w_j L = cap,
 * what one of item j would get if it asked for more than anyone (the
 * others' demands as they are).  Returns the level of the items as they
 * are (INFINITY when their demand, sum w u, is at most cap).
 *
 * In the sorted order, the level is set at the first position k0 where
 * u_k0 S_k0 >= cap - P_k0 (P: the demand before k, S: the weight from k
 * on), and is (cap - P_k0) / S_k0; the items from k0 on are limited and
 * their greedy level is that level.  For a satisfied item j < k0 the same
 * rule holds on the list with j moved to the end (demand P_k - w_j u_j,
 * weight S_k + w_j for k > j); the rule's test is monotone in k (once an
 * item is limited every larger one is), so the break position in
 * (j, k0] is found by bisection.  O(n log n). */
static double waterfill(wf_item_t *it, int64_t n, double cap)
{
    if (n == 0)
        return INFINITY;
    qsort(it, (size_t)n, sizeof *it, wf_cmp);
    double acc = 0, tot;
    for (int64_t k = n - 1; k >= 0; k--) {
        acc += it[k].w;
        it[k].s = acc;
    }
    acc = 0;
    for (int64_t k = 0; k < n; k++) {
        it[k].p = acc;
        acc += it[k].w * it[k].u;
    }
    tot = acc;
    int64_t k0 = n;
    for (int64_t k = 0; k < n; k++)
        if (it[k].u * it[k].s >= cap - it[k].p) {
            k0 = k;
            break;
        }
    double L0 = INFINITY;
    if (k0 < n) {
        double rest = cap - it[k0].p;
        L0 = rest > 0 ? rest / it[k0].s : 0;
    }
    for (int64_t j = 0; j < n; j++) {
        if (j >= k0) {
            it[j].g = L0;
            continue;
        }
        double wj = it[j].w < 1 ? it[j].w : 1, dj = wj * it[j].u;
        int64_t lo = j + 1, hi = k0; /* the break is in [lo, hi] */
        while (lo < hi) {
            int64_t mid = lo + (hi - lo) / 2;
            if (it[mid].u * (it[mid].s + wj) >= (cap - it[mid].p) + dj)
                hi = mid;
            else
                lo = mid + 1;
        }
        double P = lo < n ? it[lo].p : tot, S = (lo < n ? it[lo].s : 0) + wj;
        double rest = (cap - P) + dj;
        it[j].g = rest > 0 ? rest / S : 0;
    }
    return L0;
}

/* ------------------------------------------------------------------------ */
/* rr and transit: the sweeps. */

/* A variable in the sweeps. */
typedef struct rr_var {
    double req;  /* rho demand                                         */
    double mult; /* members                                            */
    double cmin; /* least computed grant of the sweep                  */
    int64_t b;   /* its entries: Gv[b .. b + n), in entry order         */
    int64_t n;
} rr_var_t;

/* An entry in output order (sorted by output, input, entry), so that an
 * output's sweep reads its entries in sequence. */
typedef struct rr_pos {
    double coef; /* ecoef                                              */
    int64_t v;   /* its variable                                       */
    int64_t k;   /* its index among v's entries                        */
} rr_pos_t;

typedef struct rr {
    const tk_mm_t *mm;
    tk_arb_t arb;
    mm_ports_t P;  /* roff, rgrp, gpos, gcnt, gtr (the rest freed)      */
    rr_var_t *var; /* nvar                                              */
    rr_pos_t *pos; /* entries, by position                              */
    double *Gv;    /* entries: grants, variable-major                   */
    double *T;     /* 2 entries: min trees of the large variables       */
    double *want;  /* maxdeg: desires of an output's entries            */
    double *gD;    /* maxgrp: port demands                              */
    double *gth;   /* maxgrp: the greedy level of a port                */
    wf_item_t *wf; /* max(maxdeg, maxgrp)                               */
    double *xr;    /* nvar: rates                                       */
} rr_t;

static void rr_free(rr_t *s)
{
    ports_free(&s->P);
    free(s->var);
    free(s->pos);
    free(s->Gv);
    free(s->T);
    free(s->want);
    free(s->gD);
    free(s->gth);
    free(s->wf);
    free(s->xr);
}

static tk_status_t rr_init(rr_t *s, const tk_mm_t *mm, tk_arb_t arb, double rho, tk_error_t *err)
{
    int64_t nvar = mm->nvar, ne = mm->voff[nvar];
    int big = 0;
    memset(s, 0, sizeof *s);
    s->mm = mm;
    s->arb = arb;
    if (ports_init(&s->P, mm) != 0)
        return nomem(err);
    for (int64_t v = 0; v < nvar; v++)
        if (mm->voff[v + 1] - mm->voff[v] > MM_SMALL)
            big = 1;
    int64_t nwf = s->P.maxdeg > s->P.maxgrp ? s->P.maxdeg : s->P.maxgrp;
    s->var = tk_malloc_array((size_t)nvar, sizeof *s->var);
    s->pos = tk_malloc_array((size_t)ne, sizeof *s->pos);
    s->Gv = tk_malloc_array((size_t)ne, sizeof *s->Gv);
    s->T = big ? tk_malloc_array(2 * (size_t)ne, sizeof *s->T) : NULL;
    s->want = tk_malloc_array((size_t)s->P.maxdeg, sizeof *s->want);
    s->gD = tk_malloc_array((size_t)s->P.maxgrp, sizeof *s->gD);
    s->gth = tk_malloc_array((size_t)s->P.maxgrp, sizeof *s->gth);
    s->wf = tk_malloc_array((size_t)nwf, sizeof *s->wf);
    s->xr = tk_malloc_array((size_t)nvar, sizeof *s->xr);
    if (!s->var || !s->pos || !s->Gv || (big && !s->T) || !s->want || !s->gD || !s->gth || !s->wf ||
        !s->xr) {
        rr_free(s);
        return nomem(err);
    }
    for (int64_t v = 0; v < nvar; v++)
        s->var[v] = (rr_var_t){rho * mm->demand[v], mm_mult(mm, v), INFINITY, mm->voff[v],
                               mm->voff[v + 1] - mm->voff[v]};
    for (int64_t p = 0; p < ne; p++) {
        int64_t e = s->P.pent[p], v = s->P.evar[e];
        s->pos[p] = (rr_pos_t){mm->ecoef[e], v, e - mm->voff[v]};
    }
    /* The sweeps need the positions only. */
    free(s->P.pent);
    free(s->P.evar);
    free(s->P.egrp);
    s->P.pent = s->P.evar = s->P.egrp = NULL;
    return TK_OK;
}

/* The least grant of v over its entries other than local entry k (k < 0:
 * over all of them). */
static double var_min(const rr_t *s, const rr_var_t *V, int64_t k)
{
    int64_t n = V->n;
    const double *G = s->Gv + V->b;
    double m = INFINITY;
    if (n <= MM_SMALL) {
        for (int64_t j = 0; j < n; j++)
            if (j != k && G[j] < m)
                m = G[j];
        return m;
    }
    const double *T = s->T + 2 * V->b;
    if (k < 0)
        return T[1];
    /* [0, k) and [k + 1, n) on the tree. */
    int64_t rng[2][2] = {{0, k}, {k + 1, n}};
    for (int q = 0; q < 2; q++)
        for (int64_t l = rng[q][0] + n, h = rng[q][1] + n; l < h; l >>= 1, h >>= 1) {
            if ((l & 1) && T[l] < m)
                m = T[l];
            if (l & 1)
                l++;
            if ((h & 1) && T[h - 1] < m)
                m = T[h - 1];
            if (h & 1)
                h--;
        }
    return m;
}

static void var_set(rr_t *s, const rr_var_t *V, int64_t k, double g)
{
    int64_t n = V->n;
    s->Gv[V->b + k] = g;
    if (n <= MM_SMALL)
        return;
    double *T = s->T + 2 * V->b;
    int64_t j = n + k;
    T[j] = g;
    for (j >>= 1; j >= 1; j >>= 1)
        T[j] = T[2 * j] < T[2 * j + 1] ? T[2 * j] : T[2 * j + 1];
}

/* Every grant set to g0 (the request when g0 < 0). */
static void rr_start(rr_t *s, double g0)
{
    const tk_mm_t *mm = s->mm;
    for (int64_t v = 0; v < mm->nvar; v++) {
        const rr_var_t *V = &s->var[v];
        int64_t n = V->n;
        double g = g0 < 0 ? V->req : g0;
        for (int64_t j = 0; j < n; j++)
            s->Gv[V->b + j] = g;
        if (n > MM_SMALL) {
            double *T = s->T + 2 * V->b;
            for (int64_t j = 0; j < n; j++)
                T[n + j] = g;
            for (int64_t j = n - 1; j >= 1; j--)
                T[j] = T[2 * j] < T[2 * j + 1] ? T[2 * j] : T[2 * j + 1];
        }
    }
}

/* The ports of one class of r's groups (transit: cls 1 in transit, 0
 * injection; rr: cls -1, all of them) share capacity K: every group's
 * greedy port level in gth; returns the capacity the class leaves. */
static double rr_class(rr_t *s, int64_t r, int cls, double K)
{
    const mm_ports_t *P = &s->P;
    int64_t n = 0, g0 = P->rgrp[r];
    for (int64_t g = g0; g < P->rgrp[r + 1]; g++)
        if (cls < 0 || P->gtr[g] == cls)
            s->wf[n++] = (wf_item_t){s->gD[g - g0], P->gcnt[g], 0, 0, 0, g - g0};
    double th = waterfill(s->wf, n, K), used = 0;
    for (int64_t k = 0; k < n; k++) {
        s->gth[s->wf[k].k] = s->wf[k].g;
        used += s->wf[k].w * s->wf[k].u;
    }
    return th < INFINITY || !(K - used > 0) ? 0 : K - used;
}

/* One output: the desires of its entries, the port demands, the ports'
 * greedy levels, the members' greedy levels in their port, the computed
 * grants (greedy level / f_e, at most the request); every grant moves to
 * its computed value in the first sweep, by alpha of the way after it. */
static void rr_output(rr_t *s, int64_t r, int first, double alpha)
{
    const tk_mm_t *mm = s->mm;
    const mm_ports_t *P = &s->P;
    int64_t p0 = P->roff[r], p1 = P->roff[r + 1], g0 = P->rgrp[r];
    if (p0 == p1)
        return;
    double C = mm_copies(mm, r), K = mm->cap[r] / C;
    for (int64_t p = p0; p < p1; p++) {
        const rr_var_t *V = &s->var[s->pos[p].v];
        double m = var_min(s, V, s->pos[p].k);
        s->want[p - p0] = m < V->req ? m : V->req;
    }
    /* Port demands: a member's demand u = ecoef w / mult, mult / (C n)
     * members per port, added in position order. */
    for (int64_t g = g0; g < P->rgrp[r + 1]; g++) {
        double D = 0, per = C * P->gcnt[g];
        for (int64_t p = P->gpos[g]; p < P->gpos[g + 1]; p++) {
            double mv = s->var[s->pos[p].v].mult;
            D += (mv / per) * (s->pos[p].coef * s->want[p - p0] / mv);
        }
        s->gD[g - g0] = D;
    }
    if (s->arb == TK_ARB_TRANSIT)
        rr_class(s, r, 0, rr_class(s, r, 1, K));
    else
        rr_class(s, r, -1, K);
    for (int64_t g = g0; g < P->rgrp[r + 1]; g++) {
        double per = C * P->gcnt[g];
        int64_t n = 0;
        for (int64_t p = P->gpos[g]; p < P->gpos[g + 1]; p++) {
            double mv = s->var[s->pos[p].v].mult;
            s->wf[n++] = (wf_item_t){s->pos[p].coef * s->want[p - p0] / mv, mv / per, 0, 0, 0, p};
        }
        waterfill(s->wf, n, s->gth[g - g0]);
        for (int64_t j = 0; j < n; j++) {
            rr_pos_t *Q = &s->pos[s->wf[j].k];
            rr_var_t *V = &s->var[Q->v];
            double c = s->wf[j].g * V->mult / Q->coef, G = s->Gv[V->b + Q->k];
            if (!(c < V->req))
                c = V->req;
            if (c < V->cmin)
                V->cmin = c;
            var_set(s, V, Q->k, first ? c : G + alpha * (c - G));
        }
    }
}

/* Sweeps from every grant g0 (< 0: the request) until the rates settle;
 * the rates in s->xr.  The damping alpha halves whenever the residual has
 * not halved for MM_STALL sweeps. */
static void rr_run(rr_t *s, double g0, int64_t max_sweeps, tk_mm_info_t *info)
{
    const tk_mm_t *mm = s->mm;
    int64_t sweeps = 0;
    double res = 0;
    int conv = 0;
    double alpha = MM_DAMP, mark = INFINITY;
    int64_t since = 0;
    rr_start(s, g0);
    for (int64_t v = 0; v < mm->nvar; v++) {
        double m = var_min(s, &s->var[v], -1);
        s->xr[v] = m < s->var[v].req ? m : s->var[v].req;
    }
    while (sweeps < max_sweeps) {
        sweeps++;
        for (int64_t v = 0; v < mm->nvar; v++)
            s->var[v].cmin = INFINITY;
        for (int64_t r = 0; r < mm->nres; r++)
            rr_output(s, r, sweeps == 1, alpha);
        res = 0;
        for (int64_t v = 0; v < mm->nvar; v++) {
            const rr_var_t *V = &s->var[v];
            double R = V->req, xu = V->cmin < R ? V->cmin : R;
            if (R > 0) {
                double d = fabs(xu - s->xr[v]) / R;
                if (d > res)
                    res = d;
            }
            double m = var_min(s, V, -1);
            s->xr[v] = m < R ? m : R;
        }
        if (res <= MM_TOL) {
            conv = 1;
            break;
        }
        if (res < 0.5 * mark) {
            mark = res;
            since = 0;
        } else if (++since >= MM_STALL && alpha > MM_DAMPMIN) {
            alpha *= 0.5;
            mark = res;
            since = 0;
        }
    }
    for (int64_t v = 0; v < mm->nvar; v++)
        if (s->xr[v] >= s->var[v].req * (1 - MM_SNAP))
            s->xr[v] = s->var[v].req;
    info->iterations = sweeps;
    info->residual = res;
    info->converged = conv;
}

/* bneck of the last run: the smallest output whose grant is v's rate. */
static void rr_bneck(const rr_t *s, int64_t *bneck)
{
    const tk_mm_t *mm = s->mm;
    for (int64_t v = 0; v < mm->nvar; v++) {
        int64_t best = -1, arg = -1;
        double x = s->xr[v];
        if (x >= s->var[v].req) {
            bneck[v] = -1;
            continue;
        }
        double m = INFINITY;
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            if (s->Gv[e] <= x * (1 + MM_SNAP) + 1e-300 && (best < 0 || mm->eres[e] < best))
                best = mm->eres[e];
            if (s->Gv[e] < m) {
                m = s->Gv[e];
                arg = mm->eres[e];
            }
        }
        bneck[v] = best >= 0 ? best : arg;
    }
}

static tk_status_t rr_solve(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                            int check_another, double *x, int64_t *bneck, tk_mm_info_t *info,
                            tk_error_t *err)
{
    rr_t s;
    tk_status_t st = rr_init(&s, mm, arb, rho, err);
    if (st != TK_OK)
        return st;
    rr_run(&s, -1, max_sweeps, info);
    memcpy(x, s.xr, (size_t)mm->nvar * sizeof *x);
    if (bneck)
        rr_bneck(&s, bneck);
    if (check_another) {
        tk_mm_info_t i2;
        rr_run(&s, 0, max_sweeps, &i2);
        for (int64_t v = 0; v < mm->nvar; v++)
            if (fabs(s.xr[v] - x[v]) > MM_ANOTHER * s.var[v].req)
                info->another = 1;
    }
    rr_free(&s);
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The entry points. */

/* tk_mm_solve: see tk_sim.h. */
tk_status_t tk_mm_solve(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                        int check_another, double *x, int64_t *bneck, tk_mm_info_t *info,
                        tk_error_t *err)
{
    tk_mm_info_t tmp;
    tk_status_t st = tk_mm_check(mm, err);
    if (st != TK_OK)
        return st;
    if (!x && mm->nvar > 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_mm_solve: NULL rates");
    if (!(rho > 0) || !isfinite(rho))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "rho=%.17g: must be positive and finite", rho);
    if (max_sweeps < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "max_sweeps=%" PRId64 ": must be >= 0 (0: the default)", max_sweeps);
    if (arb != TK_ARB_FAIR && arb != TK_ARB_RR && arb != TK_ARB_TRANSIT)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "arbitration %d: unknown", (int)arb);
    if (!info)
        info = &tmp;
    memset(info, 0, sizeof *info);
    if (arb != TK_ARB_FAIR)
        return rr_solve(mm, arb, rho, max_sweeps ? max_sweeps : MM_SWEEPS, check_another, x, bneck,
                        info, err);
    /* fair: the filling stopped at rho, x = demand min(tau, rho). */
    st = fair_fill(mm, rho, x, bneck, &info->iterations, err);
    if (st != TK_OK)
        return st;
    for (int64_t v = 0; v < mm->nvar; v++)
        x[v] = mm->demand[v] * (x[v] < rho ? x[v] : rho);
    info->converged = 1;
    return TK_OK;
}

/* tk_mm_fair_levels: see tk_sim.h. */
tk_status_t tk_mm_fair_levels(const tk_mm_t *mm, double *tau, int64_t *bneck, tk_error_t *err)
{
    int64_t events;
    tk_status_t st = tk_mm_check(mm, err);
    if (st != TK_OK)
        return st;
    if (!tau && mm->nvar > 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_mm_fair_levels: NULL levels");
    return fair_fill(mm, INFINITY, tau, bneck, &events, err);
}

/* ------------------------------------------------------------------------ */
/* The rr bottleneck checker (maxmin_internal.h). */

static int fail(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t len, const char *fmt, ...)
{
    if (why && len > 0) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(why, len, fmt, ap);
        va_end(ap);
    }
    return 0;
}

int sim_mm_rr_check(const tk_mm_t *mm, tk_arb_t arb, double rho, const double *x, double tol,
                    char *why, size_t whylen)
{
    mm_ports_t P;
    if (ports_init(&P, mm) != 0)
        return -1;
    int64_t nres = mm->nres, ne = mm->voff[mm->nvar];
    double *use = tk_calloc_array((size_t)nres, sizeof *use);
    double *share = tk_calloc_array((size_t)P.ngrp, sizeof *share);
    double *mem = tk_calloc_array((size_t)P.ngrp, sizeof *mem);
    double *maxp = tk_calloc_array(3 * (size_t)nres, sizeof *maxp); /* all, transit, inj */
    double *inj = tk_calloc_array((size_t)nres, sizeof *inj);
    int ok = 1;
    if (!use || !share || !mem || !maxp || !inj) {
        ok = -1;
        goto done;
    }
    for (int64_t e = 0; e < ne; e++) {
        int64_t v = P.evar[e], r = mm->eres[e], g = P.egrp[e];
        double u = mm->ecoef[e] * x[v];
        use[r] += u;
        share[g] += u / (mm_copies(mm, r) * P.gcnt[g]);
        if (u / mm_mult(mm, v) > mem[g])
            mem[g] = u / mm_mult(mm, v);
    }
    for (int64_t r = 0; r < nres && ok == 1; r++) {
        if (use[r] > mm->cap[r] * (1 + tol))
            ok = fail(why, whylen, "resource %" PRId64 ": use %.17g above capacity %.17g", r,
                      use[r], mm->cap[r]);
        for (int64_t g = P.rgrp[r]; g < P.rgrp[r + 1]; g++) {
            double *m = maxp + 3 * r;
            if (share[g] > m[0])
                m[0] = share[g];
            if (share[g] > m[P.gtr[g] ? 1 : 2])
                m[P.gtr[g] ? 1 : 2] = share[g];
            if (!P.gtr[g])
                inj[r] += share[g] * P.gcnt[g];
        }
    }
    for (int64_t v = 0; v < mm->nvar && ok == 1; v++) {
        double req = rho * mm->demand[v];
        if (!(req > 0) || x[v] >= req * (1 - tol))
            continue;
        int found = 0;
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1] && !found; e++) {
            int64_t r = mm->eres[e], g = P.egrp[e];
            double K = mm->cap[r] / mm_copies(mm, r), slack = tol * K, *m = maxp + 3 * r;
            if (use[r] < mm->cap[r] * (1 - tol))
                continue;
            if (mm->ecoef[e] * x[v] / mm_mult(mm, v) < mem[g] - slack)
                continue;
            if (arb == TK_ARB_TRANSIT)
                found = P.gtr[g] ? share[g] >= m[1] - slack && inj[r] <= slack
                                 : share[g] >= m[2] - slack;
            else
                found = share[g] >= m[0] - slack;
        }
        if (!found)
            ok = fail(why, whylen,
                      "variable %" PRId64 ": rate %.17g below its request %.17g without a "
                      "bottleneck",
                      v, x[v], req);
    }
done:
    free(use);
    free(share);
    free(mem);
    free(maxp);
    free(inj);
    ports_free(&P);
    return ok;
}
