/*
 * tk_antmill.h - Ant Mill (the Ant Mill paper: an adverse traffic pattern for
 * networks on random regular graphs): Hamiltonian cycles whose windows of
 * length delta have unique shortest paths, found by randomized
 * rotation-extension with depth-first backtracking; an independent
 * verifier; the cycle file format; the (H, lambda)-Ant-mill pattern; and
 * the medoid selection of topo-medoid(1).
 *
 * A cycle is x_0, ..., x_{n-1} (every switch once); its windows are the
 * paths x_i, x_{i+1}, ..., x_{i+delta} (indices mod n) for 0 <= i < n.  The
 * delta of a cycle is the largest delta such that every window has
 * D(x_i, x_{i+delta}) = delta and exactly one shortest path (counted with
 * link multiplicity, so a parallel link makes delta 0).  Windows of a
 * shorter length then have the same property (a part of a unique shortest
 * path is one), so the property is downward closed.  Directed graphs: arcs
 * and distances follow the cycle direction.
 */
#ifndef TK_ANTMILL_H
#define TK_ANTMILL_H

#include <stdio.h>

#include "tk_core.h"
#include "tk_pattern.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A batch of independent tasks of the cycle search: a round of
 * rotation-extension attempts (random starts), or the 2-factor search
 * alone, or the exact search alone.  A runner (below) runs every task and hands each result back.
 */
typedef struct tk_antmill_batch tk_antmill_batch_t;

/* Tasks of a batch: 0 .. tk_antmill_batch_tasks(b) - 1. */
TK_API int64_t tk_antmill_batch_tasks(const tk_antmill_batch_t *b);
/* Which search b belongs to: the delta of its search, and the attempt
 * number of its task 0 (task i is attempt *first + i), or -1 for the
 * batch of the 2-factor search, -2 for that of the exact search (one task
 * each: with a runner, the exact search is a batch too, so that one
 * process runs the SAT solver and the others take its record).  Together they name a batch
 * within one run (topo-antmill --shard records the tasks' results by
 * them).  O(1). */
TK_API void tk_antmill_batch_key(const tk_antmill_batch_t *b, int32_t *delta, int64_t *first);
/* Run task i (on any process holding the same graph and options) and
 * write its result record to fp: some hundred bytes, plus 4 n when it
 * found a cycle; host byte order (processes of one machine type).  Tasks
 * only read b, so several may run at once.  Errors: TK_EINVAL (i out of
 * range), TK_ENOMEM. */
TK_API tk_status_t tk_antmill_batch_run(const tk_antmill_batch_t *b, int64_t i, FILE *fp,
                                        tk_error_t *err);
/* Store task i's record (rec, len bytes, as tk_antmill_batch_run wrote
 * it) in b.  Errors: TK_EINVAL (i out of range, a record of the wrong
 * length). */
TK_API tk_status_t tk_antmill_batch_take(tk_antmill_batch_t *b, int64_t i, const unsigned char *rec,
                                         size_t len, tk_error_t *err);

/* Who runs the batches of a search (NULL in tk_antmill_opts_t: this
 * process, its OpenMP threads).  run: every task of b, each record
 * passed to tk_antmill_batch_take before it returns (in any order; MPI:
 * tasks handed out to the ranks, every rank taking every record); the
 * error of a failing task.  A task whose record is not taken reads as
 * not run, as a task after a decision does: no decision of its own (a
 * --shard run takes only its slice's records).  agree (may be NULL): given this process's
 * answer to "is the budget spent?", the answer every process uses (MPI:
 * rank 0's), so that processes running the same search in step take the
 * same path.  workers: tasks run at once (rounds of attempts have this
 * many; the result does not depend on it). */
typedef struct tk_antmill_runner {
    tk_status_t (*run)(void *ctx, tk_antmill_batch_t *b, tk_error_t *err);
    int (*agree)(void *ctx, int spent);
    int workers;
    void *ctx;
} tk_antmill_runner_t;

/* Options of the cycle search. */
typedef struct tk_antmill_opts {
    int32_t delta;      /* required delta: 0 = any Hamiltonian cycle (H-hat) */
    uint64_t seed;      /* random stream seed                               */
    double budget;      /* seconds of wall-clock time before giving up
                           (0 = none).  The budget only decides when to give
                           up: a search that completes returns the same cycle
                           whatever the budget and the machine.             */
    uint64_t mem_limit; /* refuse tables larger than this (0 = none)        */
    int threads;        /* OpenMP threads for the distance tables (0 = default) */
    /* NULL, or counts the random starts of the rotation-extension search
     * (phase "cycle search", total unknown). */
    tk_progress_t *progress;
    const char *exact_solver;          /* the exact search: a SAT solver command that reads
                                          DIMACS CNF (NULL = no exact search), e.g.
                                          "cadical"; see tk_antmill_search          */
    double exact_limit;                /* seconds for one exact search (0 = none)    */
    int starts;                        /* rotation-extension attempts per work limit
                                          (0 = 1): the limit doubles after every
                                          `starts` attempts; a larger value makes
                                          more attempts of each length, which
                                          workers run at once.  Part of the result
                                          (unlike threads and the runner).          */
    const tk_antmill_runner_t *runner; /* NULL: this process             */
} tk_antmill_opts_t;

/* How a search for one delta ended (tk_antmill_stats_t.outcome). */
enum {
    TK_ANTMILL_FOUND = 0,  /* a cycle was found                               */
    TK_ANTMILL_IMPOSSIBLE, /* proved: no Hamiltonian cycle has that delta
                              (the proof in reason)                          */
    TK_ANTMILL_BUDGET,     /* not found within the budget                     */
    TK_ANTMILL_GAVE_UP,    /* not found, no proof (search space exhausted from
                              random starts, table over the memory limit)    */
    TK_ANTMILL_TIME_LIMIT  /* the exact search ran out of its time limit      */
};

/* Search statistics. */
typedef struct tk_antmill_stats {
    uint64_t extensions; /* extensions applied (including re-done ones)      */
    uint64_t rotations;  /* rotations applied                                */
    uint64_t backtracks; /* extensions undone by backtracking                */
    uint64_t walks;      /* rotation walks started                           */
    uint64_t moves;      /* steps of the 2-factor search                     */
    uint64_t sat_rounds; /* exact search: solver runs (one per cut round)    */
    uint64_t sat_vars;   /* exact search: variables and clauses before cuts  */
    uint64_t sat_clauses;
    double seconds; /* wall-clock time of the search                    */
    /* tk_antmill_search: how the search for opts->delta ended;
     * tk_antmill_max_delta: how the search for the first delta not reached
     * ended (outcome_delta 0 when the raise reached max_delta). */
    int outcome; /* TK_ANTMILL_*                                      */
    int32_t outcome_delta;
    char reason[256]; /* TK_ANTMILL_IMPOSSIBLE: the proof, one line         */
} tk_antmill_stats_t;

/* Find a Hamiltonian cycle with delta >= opts->delta.  cycle: n entries,
 * caller-allocated.  The method (topo-antmill(1), The search):
 *   - for delta >= 1, proofs by counting that no cycle has that delta
 *     (too few windows with a unique shortest path, a switch without one);
 *   - two attempts of the rotation-extension search below;
 *   - for delta >= 1, proofs on the window graph (a switch with fewer than
 *     two admissible continuations, no admissible walk long enough, too few
 *     windows on closed walks, a switch on none);
 *   - delta = 2, undirected: a local search for a 2-factor whose every
 *     window is admissible (link flips, alternating paths), its cycles
 *     merged by kicks that keep every window admissible, for a number of
 *     steps proportional to n;
 *   - with opts->exact_solver: the exact search (below) decides, within
 *     opts->exact_limit and what is left of the budget;
 *   - else the rotation-extension search until the budget.
 * Exact search: a SAT encoding (a variable per link, exactly two chosen
 * links per switch, or one out and one in for directed graphs; a clause per
 * minimal walk of at most delta links that is not a unique shortest path;
 * connectivity by cuts added round by round: solve, and while the chosen
 * links form several cycles add "some link leaves this cycle" for each and
 * solve again) given to the solver as a child process in a temporary file
 * (TMPDIR).  Unsatisfiable is a proof (TK_ANTMILL_IMPOSSIBLE, reason "exact
 * search: unsatisfiable"); a model is decoded and checked, never trusted;
 * the time limit gives TK_ANTMILL_TIME_LIMIT (TK_ELIMIT), the budget
 * TK_ANTMILL_BUDGET; a solver that cannot be run, crashes or answers
 * nonsense gives TK_EIO.  Memory: the clauses, about 4 bytes a literal
 * (checked against opts->mem_limit), and one unique-path table per length
 * 1..delta.
 * Rotation-extension: undirected graphs: extensions, and when no extension
 * keeps the windows valid, random walks of rotations (the Ant Mill paper,
 * section 5); every extension choice and walk is a choice point of a
 * depth-first search.  Attempt k (a random start) uses the random stream
 * (seed, k) and a work limit of (200 n + 10000) 2^floor(k / starts) steps
 * (at most 2^40); the attempts run in rounds (one per worker: thread, or
 * the runner's), read in attempt order: the first that finds a cycle
 * decides.  So the cycle depends on the graph, delta, seed and starts,
 * never on the thread count, the runner or the round size.  Directed graphs: extensions only (a
 * rotation would reverse arcs), with depth-first backtracking.  Extension candidates are tried
 * fewest free neighbours first, ties in random order. stats->outcome says how the search ended:
 * TK_ANTMILL_IMPOSSIBLE with the proof in stats->reason (a directed search that runs out of choices
 * is one too), TK_ANTMILL_BUDGET, TK_ANTMILL_GAVE_UP (an undirected search exhausted from 64 random
 * starts: not a proof; a table over the memory limit). Errors: TK_EUNSUPPORTED "no Hamiltonian
 * cycle with delta=D: impossible: REASON" (proved), or "... search space exhausted ..." (see
 * outcome), TK_ELIMIT "no cycle with delta=D found within S s" when the budget runs out, or for
 * tables over the memory limit, TK_EINVAL (delta < 0, n < 3 for undirected graphs), TK_ENOMEM.
 * Memory: the unique-path table is n*n bits (one bit per ordered pair:
 * D(x,y) = delta with a unique shortest path), built by a BFS per switch
 * cut at depth delta that counts shortest paths capped at 2; the window
 * graph about 57 bytes a window and 16 an arc (skipped over the memory
 * limit); O(n + m) more for the searches.  Time: O(n * ball(delta) * d)
 * for the table; the searches are randomized. */
TK_API tk_status_t tk_antmill_search(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                                     tk_id_t *cycle, tk_antmill_stats_t *stats, tk_error_t *err);

/* The cycle of the largest delta the search reaches (topo-antmill(1)
 * --max-delta).  First a cycle with delta >= opts->delta (tk_antmill_search)
 * whose delta tk_antmill_verify measures; then, while that delta is below
 * max_delta, a search for one more (delta + 1, same seed), keeping each cycle
 * found.  The first delta not reached (search space exhausted, budget spent,
 * table over the memory limit) ends the raise without an error.
 *   max_delta  upper end of the raise, clipped to n - 1: the radius of g
 *              bounds the delta of every cycle (the window from x_i ends
 *              at distance delta, so delta <= ecc(x_i)); opts->delta or 0
 *              for no raise (then this is tk_antmill_search followed by
 *              tk_antmill_verify)
 *   opts       as for tk_antmill_search; opts->budget is one budget for the
 *              whole call (every search gets what is left of it)
 *   cycle      n entries, caller-allocated: the cycle of the largest delta
 *   delta      its delta, as measured by tk_antmill_verify
 *   stats      (may be NULL) counters summed over the searches, seconds of
 *              the whole call
 * A search that completes does not depend on the budget, so the result is
 * the same on any machine unless the budget ends the raise.
 * Errors: those of the first search (TK_EUNSUPPORTED, TK_ELIMIT, TK_EINVAL:
 * opts->delta not reached), TK_ENOMEM; a verifier error (TK_EFORMAT) would
 * mean a search bug.  Time: up to max_delta - opts->delta + 1 searches,
 * each followed by an O(n (n + m)) verification; memory: one search's
 * tables plus n ids. */
TK_API tk_status_t tk_antmill_max_delta(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                                        int32_t max_delta, tk_id_t *cycle, int32_t *delta,
                                        tk_antmill_stats_t *stats, tk_error_t *err);

/* Whether the SAT solver command `solver` can be run (an executable file:
 * a name with a slash as it is, else found in PATH), so that a caller can
 * refuse the exact search before any work.  Errors: TK_EUNSUPPORTED
 * "SAT solver 'X' not found", TK_EINVAL (empty name), TK_ENOMEM.  Time
 * O(length of PATH). */
TK_API tk_status_t tk_antmill_solver_check(const char *solver, tk_error_t *err);

/* Independent verifier.  Checks that cycle (len entries) is a Hamiltonian
 * cycle of g (len == n, ids in range, no repeats, an arc x_i -> x_{i+1} for
 * every i, including x_{n-1} -> x_0) and computes its delta by a plain BFS
 * from every x_i counting shortest paths.  `where` and `lines` (may be NULL:
 * then line i+1) name the input in errors: TK_EFORMAT with where:line of
 * the offending entry.  Time O(n * (n + m)), memory O(n). */
TK_API tk_status_t tk_antmill_verify(const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                                     const char *where, const long *lines, int32_t *delta,
                                     tk_error_t *err);

/* Cycle file (topokit-formats(5)): `#` comment lines and blank lines are
 * ignored; every other line holds one switch id.  Reads the ids into a new
 * array *cycle (*len entries) with their line numbers in *lines (both freed
 * by the caller with free()).  Checks each id against n (TK_ERANGE), repeats
 * (TK_EFORMAT naming the first line) and the count (TK_EFORMAT).  Does not
 * check adjacency: tk_antmill_verify does.  Time O(len + n). */
TK_API tk_status_t tk_cycle_read(FILE *fp, const char *name, int64_t n, tk_id_t **cycle,
                                 int64_t *len, long **lines, tk_error_t *err);
/* Write a cycle file: the comment lines `# topokit-cycle 1`, `# topology
 * SPEC`, `# delta D` and `# seed S` (omitted when comment is NULL, else the
 * free text `comment` after them), then one id per line. */
TK_API tk_status_t tk_cycle_write(FILE *fp, const tk_graph_t *g, const tk_id_t *cycle,
                                  int32_t delta, const char *comment, tk_error_t *err);

/* The (H, lambda)-Ant-mill pattern of a cycle: server j of x_i sends weight 1
 * to server j of x_{i+lambda} (server level; every switch must have the same
 * number p of servers).  When p is 0 the pattern is switch level (switch
 * x_i sends 1 to x_{i+lambda}).  1 <= lambda < n.  spec_extra is appended
 * to the spec "antmill lambda=L".  Errors: TK_EINVAL (lambda, unequal
 * servers), TK_ENOMEM.  Time O(n p). */
TK_API tk_status_t tk_antmill_pattern(const tk_graph_t *g, const tk_id_t *cycle, int32_t lambda,
                                      const char *spec_extra, tk_pattern_t **out, tk_error_t *err);

/* Medoid of m points of k features (row-major x[i*k + f]): features are
 * standardized (z-scores with the population standard deviation; a constant
 * feature contributes 0), and the medoid is the point of least summed
 * Euclidean distance to all the others, ties to the smallest index.
 * z (may be NULL) receives the standardized features, sumdist (may be NULL)
 * the summed distances.  Errors: TK_EINVAL (m < 1, k < 1).  Time O(m^2 k). */
TK_API tk_status_t tk_medoid_select(const double *x, int64_t m, int k, double *z, double *sumdist,
                                    int64_t *medoid, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_ANTMILL_H */
