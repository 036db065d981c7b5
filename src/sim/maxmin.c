/*
 * maxmin.c - the max-min systems of tk_sim.h: tk_arb_parse/name,
 * tk_mm_check, and the entry points tk_mm_solve and tk_mm_fair_levels,
 * which hand a checked system to its solver: fair.c (exact weighted
 * max-min by progressive filling) or rr.c (the fixed point of round-robin
 * or in-transit-first arbitration, and its equilibrium checker).
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

#define MM_SWEEPS 100000 /* rr/transit: default sweep limit */

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

/* ------------------------------------------------------------------------ */
/* The entry points. */

/* tk_mm_solve: see tk_sim.h. */
tk_status_t tk_mm_solve(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                        int check_another, double *x, int64_t *bneck, tk_mm_info_t *info,
                        tk_error_t *err)
{
    return sim_mm_solve_ws(mm, arb, rho, max_sweeps, check_another, x, bneck, info, 1, NULL, err);
}

/* sim_mm_solve_ws: see maxmin_internal.h. */
tk_status_t sim_mm_solve_ws(const tk_mm_t *mm, tk_arb_t arb, double rho, int64_t max_sweeps,
                            int check_another, double *x, int64_t *bneck, tk_mm_info_t *info,
                            int nth, sim_fair_ws_t *ws, tk_error_t *err)
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
        return sim_rr_solve(mm, arb, rho, max_sweeps ? max_sweeps : MM_SWEEPS, check_another, x,
                            bneck, info, nth, ws, err);
    /* fair: the filling stopped at rho, x = demand min(tau, rho). */
    st = sim_fair_fill(mm, rho, x, bneck, &info->iterations, ws, err);
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
    return sim_fair_fill(mm, INFINITY, tau, bneck, &events, NULL, err);
}
