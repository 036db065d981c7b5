/*
 * sweep.c - the offered loads the simulator is solved at (topo-sim(1)):
 * the points of a sweep A:B:STEP, and the saturation search's bisection
 * (--bisect RES), which decides from each load solved which load to solve
 * next and when the search is done.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "tk_sim.h"

int64_t tk_sim_sweep_count(double lo, double hi, double step)
{
    /* the relative slack keeps B itself when (B - A) / STEP is an integer
     * that the division misses by an ulp (0.9 - 0.3) / 0.3 */
    return (int64_t)floor((hi - lo) / step * (1 + 1e-12)) + 1;
}

/* A + i STEP through its 15-significant-digit decimal: the binary error of
 * the sum (0.1 + 2 * 0.1 = 0.30000000000000004) does not reach the load. */
double tk_sim_sweep_point(double lo, double step, int64_t i)
{
    char buf[64];

    snprintf(buf, sizeof buf, "%.15g", lo + (double)i * step);
    return strtod(buf, NULL);
}

void tk_sim_bisect_init(tk_sim_bisect_t *b, double res)
{
    b->res = res;
    b->probes = 0;
    for (int k = 0; k < 2; k++) {
        b->lo[k] = 0;
        b->hi[k] = 1;
    }
}

void tk_sim_bisect_take(tk_sim_bisect_t *b, double rho, double min_served)
{
    static const double level[2] = {TK_SIM_BISECT_FULL, TK_SIM_BISECT_SAT99};

    for (int k = 0; k < 2; k++) {
        if (min_served >= level[k]) {
            if (rho > b->lo[k])
                b->lo[k] = rho;
        } else if (rho < b->hi[k]) {
            b->hi[k] = rho;
        }
    }
    b->probes++;
}

double tk_sim_bisect_next(const tk_sim_bisect_t *b)
{
    char buf[64];

    if (b->probes == 0)
        return 1;
    for (int k = 0; k < 2; k++)
        if (b->hi[k] - b->lo[k] > b->res) {
            snprintf(buf, sizeof buf, "%.6f", (b->lo[k] + b->hi[k]) / 2);
            double m = strtod(buf, NULL);
            if (m > b->lo[k] && m < b->hi[k])
                return m;
            /* 1e-6 wide (0.300001 - 0.3 is 1.0000000000287557e-06 > RES =
             * 1e-6): 6 decimals cannot split it, it is done; on to the
             * next bracket */
        }
    return 0;
}
