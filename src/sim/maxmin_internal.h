/*
 * maxmin_internal.h - what the max-min files share: the solvers that
 * maxmin.c's entry points call on a checked system (fair.c, rr.c), and
 * what they show the unit tests: the checker of the round-robin
 * bottleneck conditions, which says whether rates are an rr (or transit)
 * equilibrium of a system.
 */
#ifndef TK_SIM_MAXMIN_INTERNAL_H
#define TK_SIM_MAXMIN_INTERNAL_H

#include <stddef.h>

#include "tk_sim.h"

/* Copies of resource r, members of variable v (1 without the arrays). */
static inline double mm_copies(const tk_mm_t *mm, int64_t r)
{
    return mm->copies ? mm->copies[r] : 1.0;
}

static inline double mm_mult(const tk_mm_t *mm, int64_t v)
{
    return mm->mult ? mm->mult[v] : 1.0;
}

static inline tk_status_t sim_mm_nomem(tk_error_t *err)
{
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "max-min solver: out of memory");
}

/* The solvers' work arrays (fair's, and rr's and transit's buffers),
 * kept between solves by a caller that solves many systems of about one
 * size (the adaptive iteration: some 100 MB on the 5256-server Dragonfly,
 * which fresh pages would fault in at every solve).  They grow to the
 * largest system seen and hold nothing from one solve to the next but
 * fair's transpose, which is reused only for a system of the same shape
 * (fair.c): a solve with a workspace gives the same bits as one without.
 * sim_fair_ws_new returns NULL when memory ran out; sim_fair_ws_free takes
 * NULL.  One solve at a time per workspace. */
typedef struct sim_fair_ws sim_fair_ws_t;
sim_fair_ws_t *sim_fair_ws_new(void);
void sim_fair_ws_free(sim_fair_ws_t *ws);

/* Buffer i (0 <= i < SIM_WS_BUFS) of ws, at least n bytes: kept from the
 * last call, or grown (its contents then lost); NULL when memory ran out.
 * rr.c's work arrays. */
#define SIM_WS_BUFS 32
void *sim_ws_buf(sim_fair_ws_t *ws, int i, size_t n);

/* fair (fair.c): the progressive filling of mm up to level stop
 * (INFINITY: to the end): tau[v] the level v froze at, or INFINITY (still
 * free at stop, demand 0, or never limited); bneck[v] its resource or -1
 * (bneck may be NULL); the number of events in *events.  Its work arrays
 * are ws's (NULL: its own, freed on return). */
tk_status_t sim_fair_fill(const tk_mm_t *mm, double stop, double *tau, int64_t *bneck,
                          int64_t *events, sim_fair_ws_t *ws, tk_error_t *err);

/* tk_mm_solve with the solvers' work arrays in ws (NULL: their own) and
 * rr's and transit's sweeps on nth threads (<= 1: one; the fair filling
 * is serial).  The bits do not depend on nth. */
tk_status_t sim_mm_solve_ws(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                            int check_another, double *x, int64_t *bneck, tk_mm_info_t *info,
                            int nth, sim_fair_ws_t *ws, tk_error_t *err);

/* rr, transit (rr.c): tk_mm_solve's work for those arbitrations, mm
 * checked and the arguments valid (max_sweeps > 0, info not NULL); the
 * work arrays in ws's buffers (NULL: its own, freed on return); every
 * sweep's outputs, then its variables, on nth threads (<= 1, or a system
 * of fewer than 4096 entries: one), the same bits at any nth. */
tk_status_t sim_rr_solve(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                         int check_another, double *x, int64_t *bneck, tk_mm_info_t *info, int nth,
                         sim_fair_ws_t *ws, tk_error_t *err);

/* Whether the member rates x (nvar) of the checked system mm are an
 * equilibrium of arbitration arb (TK_ARB_RR or TK_ARB_TRANSIT) at offered
 * load rho, within the relative tolerance tol:
 *  - feasible: every resource's use, sum of ecoef x, is at most
 *    cap (1 + tol);
 *  - every member not fully served (x < rho demand (1 - tol)) has an entry
 *    at a saturated output (use >= cap (1 - tol)) whose port got at least
 *    the share of every other port of the output (transit: of every other
 *    port of its class, and an in-transit port only where the injection
 *    ports got nothing) and where the member's own use of the port is at
 *    least every other member's (shares compared within tol cap/copies).
 * The ports are those of tk_sim.h: per copy, input i counted in_mult[i]
 * times (own_in[r] once), a port's share the use of its entries divided
 * by copies and by its count, a member's use of its port ecoef x / mult.
 * Returns 1 when x passes, 0 when it does not (the first failure written
 * to why, when why is not NULL), -1 when memory ran out.  O(size). */
int sim_mm_rr_check(const tk_mm_t *mm, tk_arb_t arb, double rho, const double *x, double tol,
                    char *why, size_t whylen);

#endif /* TK_SIM_MAXMIN_INTERNAL_H */
