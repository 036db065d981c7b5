/*
 * maxmin_internal.h - what the max-min solvers (maxmin.c) show the unit
 * tests: the checker of the round-robin bottleneck conditions, which
 * says whether rates are an rr (or transit) equilibrium of a system.
 */
#ifndef TK_SIM_MAXMIN_INTERNAL_H
#define TK_SIM_MAXMIN_INTERNAL_H

#include <stddef.h>

#include "tk_sim.h"

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
