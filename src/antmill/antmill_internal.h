/*
 * antmill_internal.h - helpers shared by the files of src/antmill (not installed).
 */
#ifndef TK_ANTMILL_INTERNAL_H
#define TK_ANTMILL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "tk_antmill.h"
#include "tk_core.h"

/* Bit (x, y) set iff D(x, y) = delta with exactly one shortest path.
 * Rows of `words` 64-bit words, so threads filling rows never share a word.
 * Memory n * ceil(n / 64) * 8 bytes (n = 10^4: 12.5 MB; n = 3 * 10^4:
 * 113 MB). */
typedef struct am_utable {
    tk_id_t n;
    int64_t words;
    int32_t delta;
    uint64_t *bits;
} am_utable_t;

tk_status_t am_utable_new(const tk_graph_t *g, int32_t delta, int threads, uint64_t mem_limit,
                          am_utable_t **out, tk_error_t *err);
void am_utable_free(am_utable_t *t);

static inline int am_utable_get(const am_utable_t *t, tk_id_t x, tk_id_t y)
{
    return (int)((t->bits[(size_t)x * (size_t)t->words + (size_t)(y >> 6)] >> (y & 63)) & 1u);
}

/* Seconds since t0 (CLOCK_MONOTONIC). */
double am_elapsed(const struct timespec *t0);

/* Is the budget of opts (seconds from t0) spent?  With a runner that
 * agrees (tk_antmill_runner_t), its answer: under MPI rank 0's clock
 * decides for every rank, so that all ranks take the same path. */
int am_spent(const tk_antmill_opts_t *opts, const struct timespec *t0);

/* When a search stops: seconds from t0 (0 = no limit) and units of work
 * (0 = no limit). */
typedef struct am_budget {
    struct timespec t0;
    double seconds;
    uint64_t work;
} am_budget_t;

static inline int am_budget_over(const am_budget_t *b, uint64_t work)
{
    return (b->work && work >= b->work) || (b->seconds > 0 && am_elapsed(&b->t0) > b->seconds);
}

/* delta = 2 on undirected graphs: a 2-factor of admissible windows by a
 * local search with alternating paths, its cycles merged by kicks (pair.c).
 * moves: the steps made.  Errors: TK_ELIMIT (budget or bud->work steps),
 * TK_EUNSUPPORTED (a switch with no admissible pair: no such cycle),
 * TK_ENOMEM. */
tk_status_t am_pair_search(const tk_graph_t *g, const am_utable_t *ut, const am_budget_t *bud,
                           uint64_t seed, tk_id_t *cycle, uint64_t *moves, tk_error_t *err);

/* Proofs by counting that no Hamiltonian cycle of g has all its windows of
 * length ut->delta admissible (prove.c): *impossible = 1 with the reason
 * (one line, no trailing period) in reason, else 0.  Windows tables over
 * mem_limit (0 = none) skip the proofs on the window graph, and so does
 * full = 0 (proofs 1 and 2 only, O(n^2 / 64)).  Errors:
 * TK_ENOMEM. */
tk_status_t am_prove(const tk_graph_t *g, const am_utable_t *ut, uint64_t mem_limit, int full,
                     int *impossible, char *reason, size_t cap, tk_error_t *err);

/* The exact search (exact.c): ut[k] for k = 1..opts->delta are the
 * unique-path tables of length k (ut[0] unused; none for delta 0); t0 the
 * start of the search (for opts->budget).  Fills cycle, or sets
 * stats->outcome (TK_ANTMILL_IMPOSSIBLE with stats->reason, _TIME_LIMIT,
 * _BUDGET, _GAVE_UP) and its counters sat_*.  Errors: as
 * tk_antmill_search's exact search (tk_antmill.h). */
tk_status_t am_exact_search(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                            const am_utable_t *const *ut, const struct timespec *t0, tk_id_t *cycle,
                            tk_antmill_stats_t *stats, tk_error_t *err);

#endif
