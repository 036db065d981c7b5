/*
 * maxmin.c - the max-min systems of tk_sim.h and their three solvers:
 * tk_arb_parse/name, tk_mm_check, tk_mm_solve, tk_mm_fair_levels, and
 * the rr bottleneck checker of maxmin_internal.h.
 *
 * fair: exact weighted max-min by progressive filling.  Every free member
 * of v runs at demand[v] t while the level t rises; resource r's use is
 * F_r + S_r t, F_r the use of the frozen variables (sum ecoef x, added as
 * they freeze) and S_r the slope, sum ecoef demand over the free entries.
 * Every resource has an event keyed (level, resource id) at
 * (cap_r - F_r) / S_r; the least fires: its resource saturates and freezes
 * every free variable with an entry on it at rate demand t, where t is the
 * event's level (never below the current one).  A resource with a single
 * entry (an injection or ejection link, a rate bound) keeps its event until
 * its variable freezes, and only the first of a variable's such events can
 * fire (fair_init): one per variable, sorted once.  The resources with
 * several entries are in a 4-ary heap, indexed so that a resource left
 * without a free entry leaves it.  A freeze changes the slope and frozen
 * use of the variable's resources and can only push their events later,
 * so heap keys are lazy: a resource touched by a freeze is marked dirty,
 * and a dirty event at the top is recomputed and put back instead of
 * firing (a stale key is a lower bound, so the stop test at rho may use
 * it).  F_r and S_r are kept by increments for the keys, and recomputed
 * from the entries in entry order before r fires (and when the increments
 * have cancelled most of S_r), so a resource fires at a level that does
 * not depend on the order of the freezes; S_r is exactly 0 when no entry
 * is free (a count says when).  Cost: O(entries + (entries + nres) log
 * nres) time, O(entries + nres) memory, at most 2^31 - 1 resources,
 * variables and entries.
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
 * of the port per unit of its rate is f_e = emcoef_e, or ecoef_e / mult_v
 * without emcoef (ecoef is all members' use): so a port's members ask for
 * u_e = f_e w_e each, with weight m_e (sum m_e u_e = D_i), and share the
 * port's theta max-min (level phi: sum m_e min(u_e, phi) = theta).
 * Entries without a port (ein -1) form one in-transit port of count 1.
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
 * member in its own port).  The water-fillings sort their items by
 * (demand, weight, id) and merge equal demands into runs whose weights are
 * summed before anything is multiplied by a demand (wf_runs): every sum is
 * taken over runs in increasing demand, so it depends on the multiset of
 * (demand, weight) only, and one item of weight m gives the very sums of m
 * items of weight 1 (integer weights sum exactly).
 *
 * The algorithm (the equilibrium it picks is the one it converges to):
 * damped Jacobi iteration of the map T from grants to computed grants.
 * The grants start at R_v (every desire is the request: "from the top").
 * A sweep computes every output's grants c_e = T(G)_e from the desires of
 * the grants before the sweep only (Jacobi: no output sees what another
 * computes in the same sweep), then moves every grant towards its computed
 * value: to c_e in the first sweep, then G_e += alpha (c_e - G_e), one
 * damping alpha for all grants (T is antitone, higher grants, higher
 * desires, lower shares, so undamped sweeps can alternate between two
 * states for ever).  Nothing in a sweep depends on the numbering of
 * resources, inputs, variables or entries (the sums are those of the runs
 * above, the rest is elementwise, min and max), so relabelling a system
 * gives the same numbers bit for bit, and an aggregate whose members'
 * coefficients are exact (emcoef) computes what its expansion computes,
 * sweep for sweep.  A sweep's residual is the largest change of a rate,
 * relative to its request, between the rates before the sweep and the
 * rates of the computed (undamped) grants: the distance from a fixed
 * point whatever the damping (relative to the request rather than the
 * rate, since a starved rate tends to 0).  alpha starts at 1/2 and halves
 * (down to 1e-6) when the residual has not halved within 100 / alpha
 * sweeps (a window of fixed length in the time of the continuous-time
 * dynamics dG/dt = T(G) - G that the damped sweeps approximate).  Sweeps
 * stop when the residual is at most 1e-13 (converged) or at the sweep
 * limit (not converged: the rates are then the last sweep's and need not
 * be an equilibrium).  The rates returned are those of the last sweep's
 * computed grants (min(R_v, min_e c_e)): within the residual of the
 * iterate's, and exact where T is flat near the fixed point (the damped
 * iterate only approaches it geometrically there).  A fixed point is an
 * equilibrium: every member not fully served is limited at some output
 * where its port got the largest share and it the largest share in its
 * port (sim_mm_rr_check), and the output shares are exactly those the
 * rates use.  Rates within 1e-11 of the request are then reported as
 * fully served (the approach to a request is geometric and can stop an
 * ulp short).
 *
 * Convergence.  T is continuous on the box of grants, so a fixed point
 * exists; the sweeps reach one when it attracts the dynamics above, and the
 * halving damping is what makes them follow the dynamics where T is steep:
 * undamped or lightly damped sweeps of a stiff system cycle (the transit
 * system of tests/cli/topo-sim.sh, ksp:3 on a random regular graph with a
 * server permutation, cycles at every alpha down to 1/32 and converges at
 * 1/64).  Averaging the iterates of such a cycle (Cesaro) does not give a
 * fixed point (there, the average of 10^4 sweeps at alpha = 1/32 is still
 * 8e-3 from one): the averaged iterations that converge for non-expansive
 * maps (Krasnoselskii-Mann, which the damped sweeps are) have no such
 * guarantee here, as T is not non-expansive (a greedy share can move by
 * more than the desires that move it, and a saddle below repels).  The
 * fixed point reached can be unstable in some directions: the sweeps then
 * come close, rounding starts the unstable mode and they settle on a
 * neighbouring stable equilibrium (deterministically: the same system gives
 * the same bytes).  And where every fixed point is unstable for the
 * dynamics itself, no damping helps: antitone loops of high gain oscillate
 * (as a ring of inhibitions does), which transit's strict priority produces
 * (an injection port's share is what a transit demand near the capacity
 * leaves, a sliver that moves by the whole change of that demand).  Seen
 * with transit on a Dragonfly a=4 h=2 p=2 (topo-pattern -s 3), a server
 * permutation under dragonfly-valiant and a random shift under valiant:
 * the residual still swings between 3e-2 and 4e-2 after 10^6 sweeps at
 * alpha = 1/64 (and 10^5 at 1/512); the run reports no fixed point.  Other
 * seeds of the same patterns settle.
 *
 * Which equilibrium: where it is unique (a link shared by ports, parking
 * lots, the Ant Mill pattern with one server per switch) this is it; where
 * it is not, the one these sweeps reach from the top.  A sweep commutes
 * with relabelling, so the sweeps keep every symmetry of the system that
 * its coefficients have bit for bit, unless the symmetric fixed point is
 * unstable (above): on the even Ant Mill cycle with lambda = 2 and p >= 2
 * servers per switch, whose equilibria alternate a and 1/p - a, they reach
 * the symmetric 1/(2p) (see test_maxmin.c).  check_another solves a second
 * time from the opposite start, every grant 0 (every desire 0), and says
 * when a rate differs by more than 1e-9 of its request: a witness of a
 * second equilibrium, never a proof that there is none.
 *
 * Cost per sweep: O(entries), without allocation: every port keeps its
 * members sorted by demand from one sweep to the next, so an insertion
 * sort takes O(members) once the order settles (a merge sort through a
 * scratch array when it has not), and the greedy levels of all the runs
 * of a water-filling come out of one pass (wf_greedy; a member weighing
 * less than 1, greedy as a whole, takes a bisection); a variable's
 * desires are its two least grants, found once per sweep.
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
#define MM_DAMP 0.5      /* rr/transit: the damping after the first sweep */
#define MM_DAMPMIN 1e-6  /* rr/transit: the least damping */
#define MM_WINDOW 100    /* rr/transit: no halving residual in WINDOW/damping sweeps: halve it */

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

/* Indices inside the filling: resources, entries and variables. */
typedef int32_t fair_ix_t;

/* An event of the heap: shared resource c (one with several entries, see
 * fair_init) fills at level key.  Events are ordered by (key, c), a total
 * order (a resource has at most one event), so the order in which they pop
 * does not depend on the shape of the heap; shared ids follow resource
 * ids, so it is the order of (key, r). */
typedef struct mm_event {
    double key;
    fair_ix_t c;
} mm_event_t;

static int ev_less(const mm_event_t *a, const mm_event_t *b)
{
    return a->key < b->key || (a->key == b->key && a->c < b->c);
}

/* ev_less without branches (the heap's comparisons are unpredictable). */
static int ev_lt(const mm_event_t *a, const mm_event_t *b)
{
    return (a->key < b->key) | ((a->key == b->key) & (a->c < b->c));
}

/* A variable's single-entry event: its single-entry resource r that fills
 * first, at level key (see fair_init). */
typedef struct fair_one {
    double key;
    fair_ix_t r, v;
} fair_one_t;

/* A shared resource's state in the filling: frozen use F and slope S kept
 * by increments (the heap keys), their exact values recomputed from the
 * entries before the resource fires. */
typedef struct fair_res {
    double F;        /* frozen use                                       */
    double S;        /* slope: sum ecoef demand over the free entries    */
    double Sref;     /* S at the last exact recomputation                */
    fair_ix_t nfree; /* free entries                                     */
    uint8_t dirty;   /* a variable froze since the heap key was set      */
    uint8_t exact;   /* F and S recomputed, no freeze since              */
} fair_res_t;

/* An entry of a shared resource, in resource-major order. */
typedef struct fair_pos {
    fair_ix_t e, v;
} fair_pos_t;

/* A variable's state. */
enum { FAIR_FREE, FAIR_IDLE, FAIR_FROZEN }; /* IDLE: demand 0, never frozen */

/* The heap is 4-ary (children of i: 4i+1 .. 4i+4): half the depth of a
 * binary heap, and a node's children share a cache line. */
#define FAIR_ARITY 4

typedef struct fair {
    const tk_mm_t *mm;
    const double *tau; /* nvar: the level a frozen variable froze at      */
    fair_ix_t *tid;    /* nres: a resource's shared id, or -1 (init)      */
    fair_ix_t *hp;     /* nsh: the place of c's event in the heap, or -1
                          (in tid's memory, once init is done with it)    */
    fair_ix_t *etid;   /* entries: the shared id of the entry's resource,
                          -1 for a single-entry resource                  */
    fair_ix_t *rid;    /* nsh: the resource of shared c                   */
    fair_ix_t *roff;   /* nsh + 1: shared c's positions roff[c] ..        */
    fair_pos_t *ep;    /* the entries of shared resources, by position    */
    fair_res_t *rs;    /* nsh                                             */
    uint8_t *state;    /* nvar: FAIR_FREE, FAIR_IDLE or FAIR_FROZEN       */
    fair_one_t *one;   /* none: single-entry events by (key, r)           */
    fair_one_t *otmp;  /* the events by variable, then the sort's scratch */
    mm_event_t *heap;  /* nsh: in hmem, a node's children in one line     */
    mm_event_t *hmem;
    int64_t nsh, hn, none;
} fair_t;

static void fair_free(fair_t *f)
{
    free(f->tid);
    free(f->etid);
    free(f->rid);
    free(f->roff);
    free(f->ep);
    free(f->rs);
    free(f->state);
    free(f->one);
    free(f->otmp);
    free(f->hmem);
}

static void fh_set(fair_t *f, int64_t i, mm_event_t ev)
{
    f->heap[i] = ev;
    f->hp[ev.c] = (fair_ix_t)i;
}

static void fh_down(fair_t *f, int64_t i)
{
    mm_event_t *h = f->heap, e = h[i];
    int64_t n = f->hn;
    for (;;) {
        int64_t c = FAIR_ARITY * i + 1, m = c;
        if (c >= n)
            break;
        if (n - c >= 4) { /* a tournament of the four children */
            int64_t a = c + ev_lt(&h[c + 1], &h[c]);
            int64_t b = c + 2 + ev_lt(&h[c + 3], &h[c + 2]);
            m = a + (b - a) * ev_lt(&h[b], &h[a]);
        } else {
            for (int64_t j = c + 1; j < n; j++)
                m = ev_lt(&h[j], &h[m]) ? j : m;
        }
        if (!ev_less(&h[m], &e))
            break;
        fh_set(f, i, h[m]);
        i = m;
    }
    fh_set(f, i, e);
}

static void fh_up(fair_t *f, int64_t i)
{
    mm_event_t *h = f->heap, e = h[i];
    while (i > 0) {
        int64_t p = (i - 1) / FAIR_ARITY;
        if (!ev_less(&e, &h[p]))
            break;
        fh_set(f, i, h[p]);
        i = p;
    }
    fh_set(f, i, e);
}

/* Takes c's event out of the heap. */
static void fh_remove(fair_t *f, int64_t c)
{
    int64_t i = f->hp[c];
    f->hp[c] = -1;
    if (i == --f->hn)
        return;
    f->heap[i] = f->heap[f->hn];
    if (i > 0 && ev_less(&f->heap[i], &f->heap[(i - 1) / FAIR_ARITY]))
        fh_up(f, i);
    else
        fh_down(f, i);
}

/* F and S of c from its entries, in position order: the same sums for the
 * same frozen set, whatever the order of the freezes, never negative.  An
 * entry's slope is ecoef demand while its variable is free, else 0; its
 * frozen use ecoef x once the variable froze at x = demand tau, else 0
 * (the products fair_init and fair_freeze compute). */
static void fair_exact(fair_t *f, int64_t c)
{
    const tk_mm_t *mm = f->mm;
    fair_res_t *R = &f->rs[c];
    double F = 0, S = 0;
    int64_t n = 0;
    for (int64_t p = f->roff[c]; p < f->roff[c + 1]; p++) {
        int64_t e = f->ep[p].e, v = f->ep[p].v;
        double w = f->state[v] == FAIR_FREE ? mm->ecoef[e] * mm->demand[v] : 0;
        F += f->state[v] == FAIR_FROZEN ? mm->ecoef[e] * (mm->demand[v] * f->tau[v]) : 0;
        S += w;
        n += w > 0;
    }
    R->F = F;
    R->S = S;
    R->nfree = (fair_ix_t)n;
    R->Sref = R->S;
    R->exact = 1;
}

/* The level at which c fills (at least level), INFINITY for never.  An
 * incremental slope that has lost most of its value since the last exact
 * one is recomputed first (it may be mostly rounding). */
static double fair_key(fair_t *f, int64_t c, double level)
{
    fair_res_t *R = &f->rs[c];
    if (R->nfree <= 0)
        return INFINITY;
    if (!R->exact && !(R->S > 1e-6 * R->Sref))
        fair_exact(f, c);
    if (!(R->S > 0))
        return INFINITY;
    double k = (f->mm->cap[f->rid[c]] - R->F) / R->S;
    return k > level ? k : level;
}

/* A nonnegative double's bits, which order as the doubles do. */
static uint64_t key_bits(double k)
{
    uint64_t bits;
    memcpy(&bits, &k, sizeof bits);
    return bits;
}

/* Sorts f->one, given in resource order, stably by level: the (level, r)
 * order.  Least significant byte first; a byte that every level shares is
 * skipped (every byte when the levels are all equal, as on links of one
 * capacity).  O(none). */
static void ones_sort(fair_t *f)
{
    int64_t n = f->none, i, cnt[8][256];
    fair_one_t *src = f->one, *dst = f->otmp;
    for (i = 1; i < n && src[i].key == src[0].key; i++)
        ;
    if (i >= n)
        return;
    memset(cnt, 0, sizeof cnt);
    for (i = 0; i < n; i++) {
        uint64_t k = key_bits(src[i].key);
        for (int b = 0; b < 8; b++)
            cnt[b][(k >> (8 * b)) & 255]++;
    }
    uint64_t k0 = key_bits(src[0].key);
    for (int b = 0; b < 8; b++) {
        if (cnt[b][(k0 >> (8 * b)) & 255] == n)
            continue;
        int64_t at = 0;
        for (int d = 0; d < 256; d++) {
            int64_t c = cnt[b][d];
            cnt[b][d] = at;
            at += c;
        }
        for (i = 0; i < n; i++)
            dst[cnt[b][(key_bits(src[i].key) >> (8 * b)) & 255]++] = src[i];
        fair_one_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != f->one)
        memcpy(f->one, src, (size_t)n * sizeof *src);
}

/* The events, and the resource-major transpose of the shared resources'
 * entries with every one exact (F = 0; S summed in position order, as
 * fair_exact does: a resource's entries are placed in entry order).
 *
 * A resource with a single entry, of variable v (an injection or ejection
 * link, a rate bound), keeps its key, cap / (ecoef demand), while v is
 * free, and has no free entry once v froze.  Of v's single-entry resources
 * only the least event, by (key, r), can ever pop: it stays below the
 * others until it pops, and then it fires (it is exact and not dirty) and
 * freezes v.  So that one is v's only single-entry event, the others are
 * never looked at, and since these events never change they are sorted
 * once (f->one) instead of kept in the heap, which holds the resources with
 * several entries (shared, though possibly all of one variable).  The
 * filling takes the least of the heap's top and the next single-entry
 * event of a free variable: the same events pop, in the same order, as
 * from one heap of every resource.  tid[r] holds r's entry count until
 * the shared ids are given (-2 - i for the resource of event i). */
static tk_status_t fair_init(fair_t *f, const tk_mm_t *mm, const double *tau, tk_error_t *err)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar];
    memset(f, 0, sizeof *f);
    f->mm = mm;
    f->tau = tau;
    if (nres > INT32_MAX || nvar > INT32_MAX || ne > INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "max-min system: %" PRId64 " resources, %" PRId64 " variables, %" PRId64
                            " entries: the fair solver takes at "
                            "most %" PRId32 " of each",
                            nres, nvar, ne, INT32_MAX);
    /* Sized for every resource and entry: only the part in use is written
     * (a fresh page costs when it is first touched, not when allocated). */
    f->tid = tk_malloc_array((size_t)nres, sizeof *f->tid);
    f->etid = tk_malloc_array((size_t)ne, sizeof *f->etid);
    f->rid = tk_malloc_array((size_t)nres, sizeof *f->rid);
    f->roff = tk_malloc_array((size_t)nres + 1, sizeof *f->roff);
    f->ep = tk_malloc_array((size_t)ne, sizeof *f->ep);
    f->rs = tk_malloc_array((size_t)nres, sizeof *f->rs);
    f->state = tk_malloc_array((size_t)nvar, sizeof *f->state);
    f->one = tk_malloc_array((size_t)nres, sizeof *f->one);
    f->otmp = tk_malloc_array((size_t)nres, sizeof *f->otmp);
    f->hmem = tk_malloc_array((size_t)nres + FAIR_ARITY, sizeof *f->hmem);
    if (!f->tid || !f->etid || !f->rid || !f->roff || !f->ep || !f->rs || !f->state || !f->one ||
        !f->otmp || !f->hmem) {
        fair_free(f);
        return nomem(err);
    }
    /* heap[1 .. 4] (the root's children, and so every node's) on a
     * 64-byte boundary when malloc aligns to 16 */
    f->heap = f->hmem + (FAIR_ARITY - 1 - (uintptr_t)f->hmem / sizeof *f->hmem % FAIR_ARITY);
    /* Written before it is read: a fresh page faults once, not twice. */
    memset(f->tid, 0, (size_t)nres * sizeof *f->tid);
    for (int64_t e = 0; e < ne; e++)
        f->tid[mm->eres[e]]++;
    /* Every variable's least single-entry event: fair_key of r alone
     * (F = 0, S = 0 + w) at level 0. */
    for (int64_t v = 0; v < nvar; v++) {
        double d = mm->demand[v];
        fair_one_t best = {INFINITY, -1, (fair_ix_t)v};
        f->state[v] = d > 0 ? FAIR_FREE : FAIR_IDLE;
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            int64_t r = mm->eres[e];
            if (f->tid[r] != 1)
                continue;
            double w = mm->ecoef[e] * d, k = w > 0 ? mm->cap[r] / w : INFINITY;
            k = k > 0 ? k : 0;
            if (k < INFINITY && (best.r < 0 || k < best.key || (k == best.key && r < best.r))) {
                best.key = k;
                best.r = (fair_ix_t)r;
            }
        }
        if (best.r >= 0) {
            f->otmp[f->none] = best;
            f->tid[best.r] = (fair_ix_t)(-2 - f->none++);
        }
    }
    /* The single-entry events in resource order, then sorted by level;
     * shared ids in resource order, roff[c + 1] where c's next entry goes
     * (after the placing roff[c] is c's first). */
    int64_t nsh = 0, np = 0, n1 = 0;
    f->roff[0] = 0;
    for (int64_t r = 0; r < nres; r++) {
        int64_t k = f->tid[r];
        if (k <= -2)
            f->one[n1++] = f->otmp[-2 - k];
        if (k <= 1) {
            f->tid[r] = -1;
            continue;
        }
        f->rs[nsh] = (fair_res_t){0, 0, 0, 0, 0, 1};
        f->rid[nsh] = (fair_ix_t)r;
        f->roff[nsh + 1] = (fair_ix_t)np;
        np += k;
        f->tid[r] = (fair_ix_t)nsh++;
    }
    f->nsh = nsh;
    ones_sort(f);
    for (int64_t v = 0; v < nvar; v++) {
        double d = mm->demand[v];
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            int64_t c = f->etid[e] = f->tid[mm->eres[e]];
            if (c < 0)
                continue;
            double w = mm->ecoef[e] * d;
            f->ep[f->roff[c + 1]++] = (fair_pos_t){(fair_ix_t)e, (fair_ix_t)v};
            f->rs[c].S += w;
            f->rs[c].nfree += w > 0;
        }
    }
    f->hp = f->tid;
    for (int64_t c = 0; c < nsh; c++) {
        f->hp[c] = -1;
        f->rs[c].Sref = f->rs[c].S;
        double k = fair_key(f, c, 0);
        if (k < INFINITY)
            fh_set(f, f->hn++, (mm_event_t){k, (fair_ix_t)c});
    }
    for (int64_t i = f->hn > 1 ? (f->hn - 2) / FAIR_ARITY : -1; i >= 0; i--)
        fh_down(f, i);
    return TK_OK;
}

/* Freezes v at level t, limited by resource r (-1: none).  A shared
 * resource left without a free entry leaves the heap. */
static void fair_freeze(fair_t *f, int64_t v, double t, int64_t r, double *tau, int64_t *bneck)
{
    const tk_mm_t *mm = f->mm;
    double d = mm->demand[v], x = d * t;
    f->state[v] = FAIR_FROZEN;
    tau[v] = t;
    if (bneck)
        bneck[v] = r;
    for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
        int64_t c = f->etid[e];
        if (c < 0)
            continue;
        fair_res_t *R = &f->rs[c];
        double w = mm->ecoef[e] * d, u = mm->ecoef[e] * x;
        if (w > 0) {
            if (--R->nfree > 0) {
                R->S -= w;
            } else {
                R->S = 0;
                if (f->hp[c] >= 0)
                    fh_remove(f, c);
            }
        }
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
    tk_status_t st = fair_init(&f, mm, tau, err);
    if (st != TK_OK)
        return st;
    for (int64_t v = 0; v < mm->nvar; v++) {
        tau[v] = INFINITY;
        if (bneck)
            bneck[v] = -1;
    }
    int64_t nev = 0, next = 0;
    double level = 0;
    /* Every event in the heap is of a resource with a free entry. */
    for (;;) {
        while (next < f.none && f.state[f.one[next].v] != FAIR_FREE)
            next++;
        if (next < f.none) {
            const fair_one_t *o = &f.one[next];
            if (f.hn == 0 || o->key < f.heap[0].key ||
                (o->key == f.heap[0].key && o->r < f.rid[f.heap[0].c])) {
                /* a single-entry event: never dirty, always exact */
                if (o->key >= stop)
                    break;
                if (o->key > level)
                    level = o->key;
                nev++;
                next++;
                fair_freeze(&f, o->v, level, o->r, tau, bneck);
                continue;
            }
        } else if (f.hn == 0) {
            break;
        }
        mm_event_t top = f.heap[0];
        int64_t c = top.c;
        fair_res_t *R = &f.rs[c];
        if (top.key >= stop)
            break; /* keys are lower bounds: nothing fires below stop */
        if (R->dirty || !R->exact) {
            /* A stale key (dirty) or one from incremental sums: recompute,
             * exactly before firing, and put it back. */
            if (!R->dirty)
                fair_exact(&f, c);
            R->dirty = 0;
            double k = fair_key(&f, c, level);
            if (R->exact && k <= top.key) {
                top.key = k > level ? k : level; /* fire now */
            } else {
                if (k < INFINITY) {
                    f.heap[0].key = k;
                    fh_down(&f, 0);
                } else {
                    fh_remove(&f, c);
                }
                continue;
            }
        }
        fh_remove(&f, c);
        if (top.key > level)
            level = top.key;
        nev++;
        for (int64_t p = f.roff[c]; p < f.roff[c + 1]; p++)
            if (f.state[f.ep[p].v] == FAIR_FREE)
                fair_freeze(&f, f.ep[p].v, level, f.rid[c], tau, bneck);
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
/* rr and transit: water-filling over runs of equal demands. */

/* An item of a water-filling: its demand u, its weight w (how many items
 * it stands for) and its id (a position for the members of a port, a
 * group for the ports).  Items sort by (u, w, id): by demand, and within
 * equal demands by weight, so that the weights of equal demands are summed
 * in an order that does not depend on the ids. */
typedef struct wf_slot {
    double u, w;
    int64_t id;
} wf_slot_t;

static int slot_less(const wf_slot_t *a, const wf_slot_t *b)
{
    if (a->u != b->u)
        return a->u < b->u;
    if (a->w != b->w)
        return a->w < b->w;
    return a->id < b->id;
}

/* Sorts a[0..n) by (u, w, id).  That is a total order, so the result is the
 * same whatever the algorithm: insertion sort, O(n) on the order of the
 * last sweep when few items have passed each other since, and once it has
 * moved more than 4n + 32 items a bottom-up merge sort through tmp (n
 * slots). */
static void slots_sort(wf_slot_t *a, int64_t n, wf_slot_t *tmp)
{
    int64_t budget = 4 * n + 32;
    for (int64_t i = 1; i < n; i++) {
        wf_slot_t x = a[i];
        int64_t j = i;
        while (j > 0 && slot_less(&x, &a[j - 1])) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = x;
        budget -= i - j;
        if (budget < 0)
            break;
    }
    if (budget >= 0)
        return;
    wf_slot_t *src = a, *dst = tmp;
    for (int64_t w = 1; w < n; w *= 2) {
        for (int64_t lo = 0; lo < n; lo += 2 * w) {
            int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int64_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi)
                dst[k++] = slot_less(&src[j], &src[i]) ? src[j++] : src[i++];
            while (i < mid)
                dst[k++] = src[i++];
            while (j < hi)
                dst[k++] = src[j++];
        }
        wf_slot_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != a)
        memcpy(a, src, (size_t)n * sizeof *a);
}

/* A run of sorted items with equal demands: the demand u, the run's weight
 * w (how many of them), the demand of the runs before it p, the weight of
 * it and the runs after it s, and g, the greedy level of one item of
 * weight >= 1 in it (wf_greedy). */
typedef struct wf_run {
    double u, w, p, s, g;
} wf_run_t;

/* The runs of the sorted items a[0..n): their number, R[0..), the run of
 * every item in rk[0..n), the whole demand in *tot.  A run's weight is
 * summed first (in increasing weights) and multiplied by its demand once,
 * and the runs are summed in increasing demands: the sums depend on the
 * multiset of (demand, weight) only, never on the ids, and m items of
 * weight 1 give the same sums as one item of weight m, bit for bit
 * (integer weights: their sums are exact). */
static int64_t wf_runs(const wf_slot_t *a, int64_t n, wf_run_t *R, int64_t *rk, double *tot)
{
    int64_t nr = 0;
    for (int64_t k = 0; k < n; k++) {
        if (k == 0 || a[k].u != a[k - 1].u)
            R[nr++] = (wf_run_t){a[k].u, 0, 0, 0, 0};
        R[nr - 1].w += a[k].w;
        rk[k] = nr - 1;
    }
    double acc = 0;
    for (int64_t j = nr - 1; j >= 0; j--) {
        acc += R[j].w;
        R[j].s = acc;
    }
    acc = 0;
    for (int64_t j = 0; j < nr; j++) {
        R[j].p = acc;
        acc += R[j].w * R[j].u;
    }
    *tot = acc;
    return nr;
}

/* Max-min water-filling of the runs R[0..nr) over capacity cap >= 0: the
 * level L of the items as they are (sum w min(u, L) = cap; INFINITY when
 * their whole demand fits), found at the first run k0 with
 * u_k0 s_k0 >= cap - p_k0 (*k0 = nr when none: every item is served).
 * Then every run's greedy level g: what one item of it would get if it
 * asked for more than anyone, everybody else as they are, i.e. the level
 * L' with sum_{others} w min(u, L') + L' = cap.  For runs from k0 on it is
 * L; for a run j before k0 the same rule on the list with one of its
 * items moved to the end (demand p - u_j, weight s + 1 from run j + 1 on)
 * breaks at the first run b in (j, k0] with
 * u_b (s_b + 1) >= cap - p_b + u_j, and b never decreases with j (a later
 * run has a larger u_j), so one pass finds them all.  O(nr). */
static double wf_greedy(wf_run_t *R, int64_t nr, double cap, double tot, int64_t *k0out)
{
    int64_t k0 = nr;
    double L0 = INFINITY;
    for (int64_t k = 0; k < nr; k++)
        if (R[k].u * R[k].s >= cap - R[k].p) {
            double rest = cap - R[k].p;
            k0 = k;
            L0 = rest > 0 ? rest / R[k].s : 0;
            break;
        }
    int64_t b = 0;
    for (int64_t j = 0; j < nr; j++) {
        if (j >= k0) {
            R[j].g = L0;
            continue;
        }
        if (b < j + 1)
            b = j + 1;
        while (b < k0 && !(R[b].u * (R[b].s + 1) >= (cap - R[b].p) + R[j].u))
            b++;
        double P = b < nr ? R[b].p : tot, S = (b < nr ? R[b].s : 0) + 1;
        double rest = (cap - P) + R[j].u;
        R[j].g = rest > 0 ? rest / S : 0;
    }
    *k0out = k0;
    return L0;
}

/* The greedy level of one item of weight wj < 1 in run j (greedy as a
 * whole), by bisection over the break run as above.  O(log nr). */
static double wf_greedy_small(const wf_run_t *R, int64_t nr, double cap, double tot, int64_t k0,
                              int64_t j, double wj)
{
    if (j >= k0)
        return R[j].g;
    double dj = wj * R[j].u;
    int64_t lo = j + 1, hi = k0;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (R[mid].u * (R[mid].s + wj) >= (cap - R[mid].p) + dj)
            hi = mid;
        else
            lo = mid + 1;
    }
    double P = lo < nr ? R[lo].p : tot, S = (lo < nr ? R[lo].s : 0) + wj;
    double rest = (cap - P) + dj;
    return rest > 0 ? rest / S : 0;
}

/* ------------------------------------------------------------------------ */
/* rr and transit: the Jacobi sweeps. */

/* A variable in the sweeps: its request, its entries G[b .. b + n) and,
 * from the grants of the last iterate, the desires of its entries: d2 for
 * the entry with the least grant (the first such; at position argp), whose
 * desire is the request or the second least grant, d1 (the request or the
 * least grant) for the others. */
typedef struct rr_var {
    double req;
    double d1, d2;
    int64_t argp;
    int64_t b, n;
} rr_var_t;

typedef struct rr {
    const tk_mm_t *mm;
    tk_arb_t arb;
    mm_ports_t P;    /* roff, rgrp, gpos, gcnt, gtr (the rest freed)      */
    int64_t *gsplit; /* nres: transit, r's in-transit groups come first in
                        gord, up to gsplit[r]                            */
    rr_var_t *var;   /* nvar                                             */
    /* by position (output order: sorted by output, input, entry) */
    double *f;      /* a member's use of the port per unit of its rate   */
    int64_t *pv;    /* the variable                                      */
    double *pu;     /* scratch: a member's demand, then its greedy level,
                       then the grant computed in the sweep               */
    wf_slot_t *ord; /* every port's members by demand, weighing the
                       members of the variable per port, mult / (copies
                       n_i); the order is kept from sweep to sweep        */
    /* by entry (variable-major) */
    int64_t *epos; /* the position of an entry                           */
    double *G;     /* grants                                             */
    /* by group */
    wf_slot_t *gord; /* every output's ports (by class) by demand         */
    double *gD;      /* port demand                                      */
    double *gth;     /* the greedy level of one port                     */
    int64_t *gnr;    /* runs of the port's members                       */
    /* scratch */
    wf_run_t *run;  /* maxdeg: runs of an output's ports' members        */
    int64_t *rk;    /* maxdeg: the run of every member slot              */
    wf_run_t *prun; /* maxgrp: runs of an output's ports                 */
    int64_t *prk;   /* maxgrp                                           */
    wf_slot_t *tmp; /* max(maxdeg, maxgrp): merge sort                   */
    double *xr;     /* nvar: rates of the grants G                       */
    double *xc;     /* nvar: rates of the grants the last sweep computed */
} rr_t;

static void rr_free(rr_t *s)
{
    ports_free(&s->P);
    free(s->gsplit);
    free(s->var);
    free(s->f);
    free(s->pv);
    free(s->pu);
    free(s->ord);
    free(s->epos);
    free(s->G);
    free(s->gord);
    free(s->gD);
    free(s->gth);
    free(s->gnr);
    free(s->run);
    free(s->rk);
    free(s->prun);
    free(s->prk);
    free(s->tmp);
    free(s->xr);
    free(s->xc);
}

static tk_status_t rr_init(rr_t *s, const tk_mm_t *mm, tk_arb_t arb, double rho, tk_error_t *err)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar];
    memset(s, 0, sizeof *s);
    s->mm = mm;
    s->arb = arb;
    if (ports_init(&s->P, mm) != 0)
        return nomem(err);
    const mm_ports_t *P = &s->P;
    size_t ng = (size_t)P->ngrp + 1, nd = (size_t)P->maxdeg + 1, nq = (size_t)P->maxgrp + 1;
    size_t nt = nd > nq ? nd : nq, nv = (size_t)nvar + 1, nx = (size_t)ne + 1;
    s->gsplit = tk_malloc_array((size_t)nres + 1, sizeof *s->gsplit);
    s->var = tk_malloc_array(nv, sizeof *s->var);
    s->f = tk_malloc_array(nx, sizeof *s->f);
    s->pv = tk_malloc_array(nx, sizeof *s->pv);
    s->ord = tk_malloc_array(nx, sizeof *s->ord);
    s->epos = tk_malloc_array(nx, sizeof *s->epos);
    s->gord = tk_malloc_array(ng, sizeof *s->gord);
    s->gD = tk_malloc_array(ng, sizeof *s->gD);
    s->gth = tk_malloc_array(ng, sizeof *s->gth);
    s->gnr = tk_malloc_array(ng, sizeof *s->gnr);
    s->run = tk_malloc_array(nd, sizeof *s->run);
    s->rk = tk_malloc_array(nd, sizeof *s->rk);
    s->prun = tk_malloc_array(nq, sizeof *s->prun);
    s->prk = tk_malloc_array(nq, sizeof *s->prk);
    s->tmp = tk_malloc_array(nt, sizeof *s->tmp);
    s->xr = tk_malloc_array(nv, sizeof *s->xr);
    s->xc = tk_malloc_array(nv, sizeof *s->xc);
    if (!s->gsplit || !s->var || !s->f || !s->pv || !s->ord || !s->epos || !s->gord || !s->gD ||
        !s->gth || !s->gnr || !s->run || !s->rk || !s->prun || !s->prk || !s->tmp || !s->xr ||
        !s->xc) {
        rr_free(s);
        return nomem(err);
    }
    for (int64_t v = 0; v < nvar; v++)
        s->var[v] =
            (rr_var_t){rho * mm->demand[v], 0, 0, -1, mm->voff[v], mm->voff[v + 1] - mm->voff[v]};
    for (int64_t p = 0; p < ne; p++) {
        int64_t e = P->pent[p], v = P->evar[e], g = P->egrp[e];
        double mv = mm_mult(mm, v);
        s->f[p] = mm->emcoef ? mm->emcoef[e] : mm->ecoef[e] / mv;
        s->pv[p] = v;
        s->ord[p] = (wf_slot_t){0, mv / (mm_copies(mm, mm->eres[e]) * P->gcnt[g]), p};
        s->epos[e] = p;
    }
    /* Every output's ports; transit: the in-transit class first, up to
     * gsplit[r]. */
    for (int64_t r = 0; r < nres; r++) {
        int64_t n = P->rgrp[r];
        for (int64_t g = P->rgrp[r]; g < P->rgrp[r + 1]; g++)
            if (arb != TK_ARB_TRANSIT || P->gtr[g])
                s->gord[n++] = (wf_slot_t){0, P->gcnt[g], g};
        s->gsplit[r] = n;
        for (int64_t g = P->rgrp[r]; g < P->rgrp[r + 1]; g++)
            if (arb == TK_ARB_TRANSIT && !P->gtr[g])
                s->gord[n++] = (wf_slot_t){0, P->gcnt[g], g};
    }
    /* The sweeps need the positions only: the entry arrays go before the
     * last two arrays of entries come (a lower peak). */
    free(s->P.pent);
    free(s->P.evar);
    free(s->P.egrp);
    s->P.pent = s->P.evar = s->P.egrp = NULL;
    s->pu = tk_malloc_array(nx, sizeof *s->pu);
    s->G = tk_malloc_array(nx, sizeof *s->G);
    if (!s->pu || !s->G) {
        rr_free(s);
        return nomem(err);
    }
    return TK_OK;
}

/* v's desires from its grants G[b .. b + n) (rr_var_t); its rate,
 * min(request, least grant), in xr. */
static void rr_desire(rr_t *s, int64_t v)
{
    rr_var_t *V = &s->var[v];
    const double *G = s->G + V->b;
    double m1 = INFINITY, m2 = INFINITY;
    int64_t arg = -1;
    for (int64_t j = 0; j < V->n; j++)
        if (G[j] < m1) {
            m2 = m1;
            m1 = G[j];
            arg = j;
        } else if (G[j] < m2) {
            m2 = G[j];
        }
    V->d1 = m1 < V->req ? m1 : V->req;
    V->d2 = m2 < V->req ? m2 : V->req;
    V->argp = arg >= 0 ? s->epos[V->b + arg] : -1;
    s->xr[v] = V->d1;
}

/* The ports o[0..n) of one class of an output (rr: all of them) share
 * capacity K: every port's greedy level in gth; returns what the class
 * leaves (0 when it fills K). */
static double rr_class(rr_t *s, wf_slot_t *o, int64_t n, double K)
{
    double tot;
    int64_t k0;
    if (n == 0)
        return K;
    for (int64_t k = 0; k < n; k++)
        o[k].u = s->gD[o[k].id];
    slots_sort(o, n, s->tmp);
    int64_t nr = wf_runs(o, n, s->prun, s->prk, &tot);
    double L = wf_greedy(s->prun, nr, K, tot, &k0);
    for (int64_t k = 0; k < n; k++)
        s->gth[o[k].id] = s->prun[s->prk[k]].g;
    return L < INFINITY || !(K - tot > 0) ? 0 : K - tot;
}

/* One output r, from the desires of the last iterate: the members of every
 * port by demand and their runs, the port demands, the ports' greedy
 * levels, every member's greedy level in its port over its port's, and
 * from it the grant computed for every position (in pu).  O(entries of r)
 * when the orders of the last sweep still hold. */
static void rr_output(rr_t *s, int64_t r)
{
    const tk_mm_t *mm = s->mm;
    const mm_ports_t *P = &s->P;
    int64_t p0 = P->roff[r], p1 = P->roff[r + 1], g0 = P->rgrp[r], g1 = P->rgrp[r + 1];
    if (p0 == p1)
        return;
    for (int64_t p = p0; p < p1; p++) {
        const rr_var_t *V = &s->var[s->pv[p]];
        s->pu[p] = s->f[p] * (p == V->argp ? V->d2 : V->d1);
    }
    for (int64_t g = g0; g < g1; g++) {
        int64_t a = P->gpos[g], n = P->gpos[g + 1] - a;
        wf_slot_t *o = s->ord + a;
        for (int64_t k = 0; k < n; k++)
            o[k].u = s->pu[o[k].id];
        slots_sort(o, n, s->tmp);
        s->gnr[g] = wf_runs(o, n, s->run + (a - p0), s->rk + (a - p0), &s->gD[g]);
    }
    double K = mm->cap[r] / mm_copies(mm, r);
    double left = rr_class(s, s->gord + g0, s->gsplit[r] - g0, K);
    if (s->arb == TK_ARB_TRANSIT)
        rr_class(s, s->gord + s->gsplit[r], g1 - s->gsplit[r], left);
    for (int64_t g = g0; g < g1; g++) {
        int64_t a = P->gpos[g], n = P->gpos[g + 1] - a, nr = s->gnr[g], k0;
        const wf_slot_t *o = s->ord + a;
        wf_run_t *R = s->run + (a - p0);
        const int64_t *rk = s->rk + (a - p0);
        double th = s->gth[g];
        wf_greedy(R, nr, th, s->gD[g], &k0);
        for (int64_t k = 0; k < n; k++) {
            s->pu[o[k].id] =
                o[k].w >= 1 ? R[rk[k]].g : wf_greedy_small(R, nr, th, s->gD[g], k0, rk[k], o[k].w);
        }
    }
    for (int64_t p = p0; p < p1; p++) {
        double c = s->pu[p] / s->f[p], req = s->var[s->pv[p]].req;
        s->pu[p] = c < req ? c : req;
    }
}

/* Jacobi sweeps from every grant g0 (< 0: the request) until the rates
 * settle.  The result is the rates of the grants the last sweep computed
 * (undamped), in s->xc: within the residual of the damped iterate's, and
 * exact where the computed grants no longer depend on the iterate near the
 * fixed point, which the damped iterate only approaches geometrically. */
static void rr_run(rr_t *s, double g0, int64_t max_sweeps, tk_mm_info_t *info)
{
    const tk_mm_t *mm = s->mm;
    int64_t sweeps = 0, since = 0;
    double res = 0, alpha = MM_DAMP, mark = INFINITY;
    int conv = 0;
    for (int64_t v = 0; v < mm->nvar; v++) {
        const rr_var_t *V = &s->var[v];
        for (int64_t j = 0; j < V->n; j++)
            s->G[V->b + j] = g0 < 0 ? V->req : g0;
        rr_desire(s, v);
    }
    while (sweeps < max_sweeps) {
        sweeps++;
        for (int64_t r = 0; r < mm->nres; r++)
            rr_output(s, r);
        /* The residual, the damped update, the new desires. */
        res = 0;
        double a = sweeps == 1 ? 1 : alpha;
        for (int64_t v = 0; v < mm->nvar; v++) {
            const rr_var_t *V = &s->var[v];
            double *G = s->G + V->b, m = INFINITY;
            const int64_t *ep = s->epos + V->b;
            for (int64_t j = 0; j < V->n; j++) {
                double c = s->pu[ep[j]];
                if (c < m)
                    m = c;
                G[j] = a == 1 ? c : G[j] + a * (c - G[j]);
            }
            s->xc[v] = m < V->req ? m : V->req;
            if (V->req > 0) {
                double d = fabs(s->xc[v] - s->xr[v]) / V->req;
                if (d > res)
                    res = d;
            }
            rr_desire(s, v);
        }
        if (res <= MM_TOL) {
            conv = 1;
            break;
        }
        if (res < 0.5 * mark) {
            mark = res;
            since = 0;
        } else if (++since >= (int64_t)ceil(MM_WINDOW / alpha) && alpha > MM_DAMPMIN) {
            alpha *= 0.5;
            mark = res;
            since = 0;
        }
    }
    for (int64_t v = 0; v < mm->nvar; v++)
        if (s->xc[v] >= s->var[v].req * (1 - MM_SNAP))
            s->xc[v] = s->var[v].req;
    info->iterations = sweeps;
    info->residual = res;
    info->converged = conv;
}

/* bneck of the last run: the smallest output whose computed grant is v's
 * rate. */
static void rr_bneck(const rr_t *s, int64_t *bneck)
{
    const tk_mm_t *mm = s->mm;
    for (int64_t v = 0; v < mm->nvar; v++) {
        int64_t best = -1, arg = -1;
        double x = s->xc[v];
        if (x >= s->var[v].req) {
            bneck[v] = -1;
            continue;
        }
        double m = INFINITY;
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            double c = s->pu[s->epos[e]];
            if (c <= x * (1 + MM_SNAP) + 1e-300 && (best < 0 || mm->eres[e] < best))
                best = mm->eres[e];
            if (c < m) {
                m = c;
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
    memcpy(x, s.xc, (size_t)mm->nvar * sizeof *x);
    if (bneck)
        rr_bneck(&s, bneck);
    if (check_another) {
        tk_mm_info_t i2;
        rr_run(&s, 0, max_sweeps, &i2);
        for (int64_t v = 0; v < mm->nvar; v++)
            if (fabs(s.xc[v] - x[v]) > MM_ANOTHER * s.var[v].req)
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
