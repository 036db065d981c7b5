/*
 * rr.c - the rr and transit solvers of tk_mm_solve (maxmin.c):
 * sim_rr_solve, and the equilibrium checker sim_mm_rr_check.
 *
 * A fixed point of local round-robin arbitration.  The state
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
 * desires are its two least grants, found once per sweep.  A sweep runs
 * on threads (sim_rr_solve's nth, in systems of MM_PAR_MIN entries or
 * more): its outputs are independent (each writes its own positions and
 * groups, with a scratch copy per thread), then its variables (the
 * residual is a maximum), so the bits do not depend on the thread count.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_thread_num() 0
#endif

#include "sim/maxmin_internal.h"
#include "tk_sim.h"

#define MM_TOL 1e-13    /* rr/transit: convergence, relative to the request */
#define MM_SNAP 1e-11   /* rr/transit: a rate this close to its request is served */
#define MM_ANOTHER 1e-9 /* rr/transit: two starts differ by more than this */
#define MM_DAMP 0.5     /* rr/transit: the damping after the first sweep */
#define MM_DAMPMIN 1e-6 /* rr/transit: the least damping */
#define MM_WINDOW 100   /* rr/transit: no halving residual in WINDOW/damping sweeps: halve it */
#define MM_PAR_MIN 4096 /* rr/transit: entries below which a sweep runs on one thread */

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

/* Work-array buffers: a workspace's buffer slots (sim_ws_buf). */
enum {
    RB_ROFF,
    RB_PENT,
    RB_RGRP,
    RB_GPOS,
    RB_GCNT,
    RB_GTR,
    RB_EVAR,
    RB_EGRP,
    RB_IOFF,
    RB_TMP,
    RB_GSPLIT,
    RB_VAR,
    RB_F,
    RB_PV,
    RB_ORD,
    RB_EPOS,
    RB_GORD,
    RB_GD,
    RB_GTH,
    RB_GNR,
    RB_RUN,
    RB_RK,
    RB_PRUN,
    RB_PRK,
    RB_WTMP,
    RB_XR,
    RB_XC,
    RB_N
};
_Static_assert(RB_N <= SIM_WS_BUFS, "rr.c: more buffers than a workspace has");

/* n items of size sz: ws's buffer slot (contents undefined) or, without
 * ws, a fresh array; zero: cleared.  NULL when memory ran out. */
static void *rr_alloc(sim_fair_ws_t *ws, int slot, size_t n, size_t sz, int zero)
{
    if (!ws)
        return zero ? tk_calloc_array(n, sz) : tk_malloc_array(n, sz);
    if (sz > 0 && n > SIZE_MAX / sz)
        return NULL;
    void *p = sim_ws_buf(ws, slot, n * sz);
    if (p && zero)
        memset(p, 0, n * sz);
    return p;
}

/* Frees p unless it is a workspace's (ws). */
static void rr_release(sim_fair_ws_t *ws, void *p)
{
    if (!ws)
        free(p);
}

static void ports_free(mm_ports_t *P, sim_fair_ws_t *ws)
{
    if (ws)
        return;
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
static int ports_init(mm_ports_t *P, const tk_mm_t *mm, sim_fair_ws_t *ws)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar], nin = mm->nin;
    int64_t *ioff = NULL, *tmp = NULL;
    memset(P, 0, sizeof *P);
    /* pent and evar: ne + 1 items, so that rr_init's pu and G (doubles,
     * ne + 1) fit in their workspace buffers once they are done with */
    P->roff = rr_alloc(ws, RB_ROFF, (size_t)nres + 1, sizeof *P->roff, 1);
    P->pent = rr_alloc(ws, RB_PENT, (size_t)ne + 1, sizeof *P->pent, 0);
    P->rgrp = rr_alloc(ws, RB_RGRP, (size_t)nres + 1, sizeof *P->rgrp, 1);
    P->gpos = rr_alloc(ws, RB_GPOS, (size_t)ne + 1, sizeof *P->gpos, 0);
    P->gcnt = rr_alloc(ws, RB_GCNT, (size_t)ne, sizeof *P->gcnt, 0);
    P->gtr = rr_alloc(ws, RB_GTR, (size_t)ne, sizeof *P->gtr, 0);
    P->evar = rr_alloc(ws, RB_EVAR, (size_t)ne + 1, sizeof *P->evar, 0);
    P->egrp = rr_alloc(ws, RB_EGRP, (size_t)ne, sizeof *P->egrp, 0);
    ioff = rr_alloc(ws, RB_IOFF, (size_t)nin + 2, sizeof *ioff, 1);
    tmp = rr_alloc(ws, RB_TMP, (size_t)ne, sizeof *tmp, 0);
    if (!P->roff || !P->pent || !P->rgrp || !P->gpos || !P->gcnt || !P->gtr || !P->evar ||
        !P->egrp || !ioff || !tmp) {
        rr_release(ws, ioff);
        rr_release(ws, tmp);
        ports_free(P, ws);
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
    rr_release(ws, ioff);
    rr_release(ws, tmp);
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
    sim_fair_ws_t *ws; /* the arrays' workspace, or NULL (their own)     */
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
    /* scratch of one output, nth copies (thread t's at t times its size) */
    int nth;            /* threads of a sweep (1: no parallel region)        */
    int64_t nd, nq, nt; /* the sizes of one copy of run and rk, prun and
                           prk, tmp                                      */
    wf_run_t *run;      /* maxdeg: runs of an output's ports' members        */
    int64_t *rk;        /* maxdeg: the run of every member slot              */
    wf_run_t *prun;     /* maxgrp: runs of an output's ports                 */
    int64_t *prk;       /* maxgrp                                           */
    wf_slot_t *tmp;     /* max(maxdeg, maxgrp): merge sort                   */
    double *xr;         /* nvar: rates of the grants G                       */
    double *xc;         /* nvar: rates of the grants the last sweep computed */
} rr_t;

static void rr_free(rr_t *s)
{
    ports_free(&s->P, s->ws);
    if (s->ws)
        return;
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

static tk_status_t rr_init(rr_t *s, const tk_mm_t *mm, tk_arb_t arb, double rho, int nth,
                           sim_fair_ws_t *ws, tk_error_t *err)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar];
    memset(s, 0, sizeof *s);
    s->mm = mm;
    s->arb = arb;
    s->ws = ws;
    /* a sweep's outputs on nth threads when the system is large enough to
     * pay for a parallel region (the bits do not depend on it) */
    s->nth = nth > 1 && ne >= MM_PAR_MIN ? nth : 1;
    if (ports_init(&s->P, mm, ws) != 0)
        return sim_mm_nomem(err);
    const mm_ports_t *P = &s->P;
    size_t ng = (size_t)P->ngrp + 1, nd = (size_t)P->maxdeg + 1, nq = (size_t)P->maxgrp + 1;
    size_t nt = nd > nq ? nd : nq, nv = (size_t)nvar + 1, nx = (size_t)ne + 1;
    size_t T = (size_t)s->nth;
    s->nd = (int64_t)nd;
    s->nq = (int64_t)nq;
    s->nt = (int64_t)nt;
    s->gsplit = rr_alloc(ws, RB_GSPLIT, (size_t)nres + 1, sizeof *s->gsplit, 0);
    s->var = rr_alloc(ws, RB_VAR, nv, sizeof *s->var, 0);
    s->f = rr_alloc(ws, RB_F, nx, sizeof *s->f, 0);
    s->pv = rr_alloc(ws, RB_PV, nx, sizeof *s->pv, 0);
    s->ord = rr_alloc(ws, RB_ORD, nx, sizeof *s->ord, 0);
    s->epos = rr_alloc(ws, RB_EPOS, nx, sizeof *s->epos, 0);
    s->gord = rr_alloc(ws, RB_GORD, ng, sizeof *s->gord, 0);
    s->gD = rr_alloc(ws, RB_GD, ng, sizeof *s->gD, 0);
    s->gth = rr_alloc(ws, RB_GTH, ng, sizeof *s->gth, 0);
    s->gnr = rr_alloc(ws, RB_GNR, ng, sizeof *s->gnr, 0);
    s->run = rr_alloc(ws, RB_RUN, T * nd, sizeof *s->run, 0);
    s->rk = rr_alloc(ws, RB_RK, T * nd, sizeof *s->rk, 0);
    s->prun = rr_alloc(ws, RB_PRUN, T * nq, sizeof *s->prun, 0);
    s->prk = rr_alloc(ws, RB_PRK, T * nq, sizeof *s->prk, 0);
    s->tmp = rr_alloc(ws, RB_WTMP, T * nt, sizeof *s->tmp, 0);
    s->xr = rr_alloc(ws, RB_XR, nv, sizeof *s->xr, 0);
    s->xc = rr_alloc(ws, RB_XC, nv, sizeof *s->xc, 0);
    if (!s->gsplit || !s->var || !s->f || !s->pv || !s->ord || !s->epos || !s->gord || !s->gD ||
        !s->gth || !s->gnr || !s->run || !s->rk || !s->prun || !s->prk || !s->tmp || !s->xr ||
        !s->xc) {
        rr_free(s);
        return sim_mm_nomem(err);
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
    rr_release(ws, s->P.pent);
    rr_release(ws, s->P.evar);
    rr_release(ws, s->P.egrp);
    s->P.pent = s->P.evar = s->P.egrp = NULL;
    /* in a workspace: pent's and evar's buffers, large enough (ports_init) */
    s->pu = rr_alloc(ws, RB_PENT, nx, sizeof *s->pu, 0);
    s->G = rr_alloc(ws, RB_EVAR, nx, sizeof *s->G, 0);
    if (!s->pu || !s->G) {
        rr_free(s);
        return sim_mm_nomem(err);
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

/* One thread's scratch for one output at a time: its copies of rr_t's
 * run, rk, prun, prk and tmp. */
typedef struct rr_scr {
    wf_run_t *run, *prun;
    int64_t *rk, *prk;
    wf_slot_t *tmp;
} rr_scr_t;

static rr_scr_t rr_scratch(const rr_t *s, int t)
{
    return (rr_scr_t){s->run + t * s->nd, s->prun + t * s->nq, s->rk + t * s->nd,
                      s->prk + t * s->nq, s->tmp + t * s->nt};
}

/* The ports o[0..n) of one class of an output (rr: all of them) share
 * capacity K: every port's greedy level in gth; returns what the class
 * leaves (0 when it fills K). */
static double rr_class(rr_t *s, const rr_scr_t *w, wf_slot_t *o, int64_t n, double K)
{
    double tot;
    int64_t k0;
    if (n == 0)
        return K;
    for (int64_t k = 0; k < n; k++)
        o[k].u = s->gD[o[k].id];
    slots_sort(o, n, w->tmp);
    int64_t nr = wf_runs(o, n, w->prun, w->prk, &tot);
    double L = wf_greedy(w->prun, nr, K, tot, &k0);
    for (int64_t k = 0; k < n; k++)
        s->gth[o[k].id] = w->prun[w->prk[k]].g;
    return L < INFINITY || !(K - tot > 0) ? 0 : K - tot;
}

/* One output r, from the desires of the last iterate: the members of every
 * port by demand and their runs, the port demands, the ports' greedy
 * levels, every member's greedy level in its port over its port's, and
 * from it the grant computed for every position (in pu).  O(entries of r)
 * when the orders of the last sweep still hold.  It writes only r's own
 * positions (pu, ord), groups (gD, gth, gnr, gord) and the scratch w, and
 * reads the desires: outputs can run on threads of one sweep. */
static void rr_output(rr_t *s, const rr_scr_t *w, int64_t r)
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
        slots_sort(o, n, w->tmp);
        s->gnr[g] = wf_runs(o, n, w->run + (a - p0), w->rk + (a - p0), &s->gD[g]);
    }
    double K = mm->cap[r] / mm_copies(mm, r);
    double left = rr_class(s, w, s->gord + g0, s->gsplit[r] - g0, K);
    if (s->arb == TK_ARB_TRANSIT)
        rr_class(s, w, s->gord + s->gsplit[r], g1 - s->gsplit[r], left);
    for (int64_t g = g0; g < g1; g++) {
        int64_t a = P->gpos[g], n = P->gpos[g + 1] - a, nr = s->gnr[g], k0;
        const wf_slot_t *o = s->ord + a;
        wf_run_t *R = w->run + (a - p0);
        const int64_t *rk = w->rk + (a - p0);
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
        /* The residual, the damped update, the new desires: elementwise
         * but for the residual, a maximum (the same whatever the order). */
        double a = sweeps == 1 ? 1 : alpha, rs = 0;
#pragma omp parallel num_threads(s->nth) if (s->nth > 1)
        {
            rr_scr_t w = rr_scratch(s, omp_get_thread_num());
#pragma omp for schedule(dynamic, 16)
            for (int64_t r = 0; r < mm->nres; r++)
                rr_output(s, &w, r);
#pragma omp for schedule(static) reduction(max : rs)
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
                    if (d > rs)
                        rs = d;
                }
                rr_desire(s, v);
            }
        }
        res = rs;
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

/* sim_rr_solve: see maxmin_internal.h. */
tk_status_t sim_rr_solve(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                         int check_another, double *x, int64_t *bneck, tk_mm_info_t *info, int nth,
                         sim_fair_ws_t *ws, tk_error_t *err)
{
    rr_t s;
    tk_status_t st = rr_init(&s, mm, arb, rho, nth, ws, err);
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
    if (ports_init(&P, mm, NULL) != 0)
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
    ports_free(&P, NULL);
    return ok;
}
