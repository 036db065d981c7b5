/*
 * maxdelta.c - the largest delta the cycle search reaches: one search at
 * the required delta, then one more search per delta above the last
 * verified one, within one time budget.  See tk_antmill.h.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tk_antmill.h"
#include "antmill_internal.h"

/* Add the counters of one search to the running totals. */
static void add_stats(tk_antmill_stats_t *sum, const tk_antmill_stats_t *one)
{
    sum->extensions += one->extensions;
    sum->rotations += one->rotations;
    sum->backtracks += one->backtracks;
    sum->walks += one->walks;
    sum->moves += one->moves;
    sum->sat_rounds += one->sat_rounds;
}

tk_status_t tk_antmill_max_delta(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                                 int32_t max_delta, tk_id_t *cycle, int32_t *delta,
                                 tk_antmill_stats_t *stats, tk_error_t *err)
{
    tk_antmill_opts_t o = *opts;
    tk_antmill_stats_t sum, one;
    struct timespec t0;
    tk_id_t *next = NULL;
    tk_status_t st;
    int32_t got = 0;

    memset(&sum, 0, sizeof sum);
    memset(&one, 0, sizeof one);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    /* The required delta: its failure is the caller's error. */
    st = tk_antmill_search(g, &o, cycle, &one, err);
    add_stats(&sum, &one);
    if (st != TK_OK) {
        sum.outcome = one.outcome;
        sum.outcome_delta = o.delta;
        memcpy(sum.reason, one.reason, sizeof sum.reason);
    }
    if (st == TK_OK)
        st = tk_antmill_verify(g, cycle, g->n, NULL, NULL, &got, err);
    if (st != TK_OK)
        goto done;
    if (max_delta >= g->n)
        max_delta = g->n - 1;
    if (got < max_delta) {
        next = tk_malloc_array((size_t)g->n, sizeof *next);
        if (!next) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            goto done;
        }
    }
    /* Raise delta one by one; the first delta not reached (search space
     * exhausted, budget spent, tables over the memory limit) ends the
     * raise with the last cycle found. */
    while (got < max_delta) {
        double used = am_elapsed(&t0);
        tk_error_t ignored;
        tk_status_t s;

        if (am_spent(opts, &t0)) {
            sum.outcome = TK_ANTMILL_BUDGET;
            sum.outcome_delta = got + 1;
            break;
        }
        o.delta = got + 1;
        o.budget = opts->budget > 0 ? opts->budget - used : 0;
        if (opts->budget > 0 && o.budget < 1e-9)
            o.budget = 1e-9; /* spent here, not on rank 0: still a budget */
        memset(&one, 0, sizeof one);
        s = tk_antmill_search(g, &o, next, &one, &ignored);
        add_stats(&sum, &one);
        if (s != TK_OK) {
            /* how the raise ended */
            sum.outcome = one.outcome;
            sum.outcome_delta = o.delta;
            memcpy(sum.reason, one.reason, sizeof sum.reason);
        }
        if (s == TK_ENOMEM || s == TK_EIO) { /* no memory, a solver that failed */
            st = tk_error_set(err, s, NULL, 0, "%s", ignored.msg);
            break;
        }
        if (s != TK_OK)
            break;
        st = tk_antmill_verify(g, next, g->n, NULL, NULL, &got, err);
        if (st != TK_OK)
            break;
        memcpy(cycle, next, (size_t)g->n * sizeof *next);
    }
done:
    free(next);
    sum.seconds = am_elapsed(&t0);
    if (stats)
        *stats = sum;
    if (st == TK_OK)
        *delta = got;
    return st;
}
