/*
 * tk_par.h - the deterministic parallel driver: fixed work units, integer
 * accumulators, slices and merges.
 *
 * A job is a range of work units 0 .. units-1 (sources, destinations,
 * batches of sources) and an accumulator of `width` entries (the load of
 * every arc, a histogram, ...).  The units are cut into fixed chunks of
 * `chunk` consecutive units, counted from unit 0, whatever the thread
 * count.  Every unit adds its contribution into a per-thread chunk buffer;
 * at the end of each chunk the buffer is added once into a 128-bit integer
 * accumulator:
 *   - double jobs (unit): each entry x becomes trunc(x * 2^F), a 128-bit
 *     fixed-point number whose scale 2^F is fixed by the job's `bound`
 *     (every entry's total stays below 2^125);
 *   - exact jobs (unit_exact): the buffer holds 64-bit integers, added as
 *     they are.
 * Integer sums do not depend on their order.  So the same job gives the
 * same accumulator, bit for bit, with any thread count, and with any split
 * of its units into slices [lo, hi) at chunk boundaries (tk_par_slice)
 * whose accumulators are merged by integer addition (tk_acc_merge): a
 * `--shard i/P` run or an MPI rank computes a slice, and the merge moves
 * integers only (tk_acc_words), never a floating-point sum.
 *
 * The driver never prints and keeps no global state.  OpenMP threads when
 * built with OpenMP, else one thread.
 */
#ifndef TK_PAR_H
#define TK_PAR_H

#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Units per chunk when a job does not choose. */
#define TK_PAR_CHUNK 128

/* ------------------------------------------------------------------------ */
/* Accumulators: `width` signed 128-bit integers and the scale exponent F
 * (entry value = integer * 2^-F; F = 0 for exact jobs). */
typedef struct tk_acc tk_acc_t;

/* A zero accumulator.  Errors: TK_EINVAL (width < 0), TK_ELIMIT (width
 * beyond the memory limit), TK_ENOMEM.  O(width). */
TK_API tk_status_t tk_acc_new(int64_t width, int scale_exp, tk_acc_t **out, tk_error_t *err);
TK_API void tk_acc_free(tk_acc_t *a);
TK_API int64_t tk_acc_width(const tk_acc_t *a);
TK_API int tk_acc_scale_exp(const tk_acc_t *a);
/* Set every entry to 0.  O(width). */
TK_API void tk_acc_clear(tk_acc_t *a);
/* dst += src, entry by entry (integer addition, so merges commute).
 * Errors: TK_EINVAL when the widths or scales differ.  O(width). */
TK_API tk_status_t tk_acc_merge(tk_acc_t *dst, const tk_acc_t *src, tk_error_t *err);
/* The entries as 2 * width 64-bit words in host byte order (entry i is
 * words 2i and 2i+1, two's complement), to move an accumulator between
 * processes of one machine type; writing them is allowed. */
TK_API uint64_t *tk_acc_words(tk_acc_t *a);
/* Entry i as an integer (value * 2^F). */
TK_API __int128 tk_acc_get(const tk_acc_t *a, int64_t i);
/* The entries as doubles: integer * 2^-F, each rounded once.  O(width). */
TK_API void tk_acc_to_double(const tk_acc_t *a, double *out);
/* 1 when both have the same width, scale and entries. */
TK_API int tk_acc_equal(const tk_acc_t *a, const tk_acc_t *b);

/* ------------------------------------------------------------------------ */
/* Jobs. */
typedef struct tk_par_job {
    int64_t units;           /* work units 0 .. units-1                     */
    int64_t chunk;           /* units per chunk (0: TK_PAR_CHUNK); part of
                                the job, never derived from a thread count */
    int64_t width;           /* accumulator entries                         */
    double bound;            /* double jobs: an upper bound of the absolute
                                total of any entry (sets F); 0 means 1     */
    const int64_t *fold_map; /* NULL, or a permutation of 0 .. width-1:
                                buffer entry i adds into accumulator entry
                                fold_map[i] (e.g. an arc's partner)         */
    size_t ws_bytes;         /* workspace bytes per thread (memory check)   */
    void *ctx;               /* shared, read-only during the run            */
    /* Per-thread workspace (NULL: none).  ws_new returns NULL when out of
     * memory. */
    void *(*ws_new)(void *ctx);
    void (*ws_free)(void *ws);
    /* Exactly one of these: add unit u's contribution into buf (width
     * entries, zero at the start of every chunk; leave it as a sum). */
    tk_status_t (*unit)(void *ctx, void *ws, int64_t u, double *buf, tk_error_t *err);
    tk_status_t (*unit_exact)(void *ctx, void *ws, int64_t u, int64_t *buf, tk_error_t *err);
    /* NULL, or counts the units of every finished chunk (tk_progress_add;
     * the caller begins and ends the phase). */
    tk_progress_t *progress;
    /* Bytes of memory this process may use for the run's per-thread
     * buffers (the thread-count check of tk_par_run); 0: the machine's
     * physical memory (tk_memory_limit_default).  A runner that shares a
     * node among processes sets this process's share. */
    uint64_t mem_limit;
} tk_par_job_t;

/* The scale exponent of a job's accumulator: F = 125 - e where bound =
 * f * 2^e with 0.5 <= f < 1 (clamped to -1000 .. 1000); 0 for exact jobs. */
TK_API int tk_par_scale_exp(const tk_par_job_t *job);
/* A zero accumulator fitting the job (its width and scale); its entries
 * must fit in the job's mem_limit (0: the machine's memory), as
 * tk_par_run's per-thread buffers do (TK_ELIMIT). */
TK_API tk_status_t tk_par_acc_new(const tk_par_job_t *job, tk_acc_t **out, tk_error_t *err);

/* Slice i of P (0 <= i < P) of the job's units: [*lo, *hi), cut at chunk
 * boundaries, the chunks dealt as evenly as possible in order.  The slices
 * of one P cover every unit once. */
TK_API void tk_par_slice(const tk_par_job_t *job, int64_t i, int64_t parts, int64_t *lo,
                         int64_t *hi);

/* Run units [lo, hi) and add their contributions into acc (made by
 * tk_par_acc_new for this job).  lo must be a chunk boundary and hi a
 * chunk boundary or `units`.  threads: 0 = runtime default; lowered so
 * that every thread's buffers (24 bytes per entry plus ws_bytes) fit the
 * job's mem_limit (the machine's physical memory when 0).  On failure the run stops early and
 * returns the status and error of the smallest failing unit of [lo, hi) (the same whatever the
 * thread count); acc is then unspecified. Errors: TK_EINVAL (bad range, acc of another shape, no
 * unit function, a fold map that is not a permutation), TK_ELIMIT (one thread's buffers exceed the
 * memory limit), TK_ENOMEM, or a unit's error. */
TK_API tk_status_t tk_par_run(const tk_par_job_t *job, int64_t lo, int64_t hi, int threads,
                              tk_acc_t *acc, tk_error_t *err);

/* The whole job into out[0 .. width-1] as doubles (tk_par_run over every
 * unit, then tk_acc_to_double). */
TK_API tk_status_t tk_par_sum(const tk_par_job_t *job, int threads, double *out, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Runners: who computes a whole job.  A runner's run() adds every unit of
 * the job into acc (a zero accumulator of tk_par_acc_new), as tk_par_run
 * over 0 .. units-1 would, and returns the same status and error; it may
 * cut the units into slices (tk_par_slice) computed elsewhere, another
 * process for instance, and merge their accumulators by integer addition.
 * NULL runner (or NULL run): tk_par_run in this process.  The library
 * keeps no runner of its own: callers pass one to the functions that take
 * it (tk_dist_opts_t, tk_router_set_runner). */
typedef struct tk_par_runner {
    tk_status_t (*run)(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                       tk_error_t *err);
    void *ctx;
    /* Bytes of memory this process may use (0: the job's mem_limit, or the
     * machine's physical memory): a runner that shares a node among
     * processes sets this process's share, and the accumulators of its
     * jobs (tk_par_acc_new_with) are checked against it. */
    uint64_t mem_limit;
} tk_par_runner_t;

/* tk_par_acc_new for a job that runner will run: the accumulator's size
 * is checked against runner->mem_limit when set (this process's share of
 * its node), else as tk_par_acc_new does. */
TK_API tk_status_t tk_par_acc_new_with(const tk_par_runner_t *runner, const tk_par_job_t *job,
                                       tk_acc_t **out, tk_error_t *err);

/* Run the whole job into acc with runner (or tk_par_run when runner or its
 * run is NULL). */
TK_API tk_status_t tk_par_run_with(const tk_par_runner_t *runner, const tk_par_job_t *job,
                                   int threads, tk_acc_t *acc, tk_error_t *err);
/* tk_par_sum with a runner. */
TK_API tk_status_t tk_par_sum_with(const tk_par_runner_t *runner, const tk_par_job_t *job,
                                   int threads, double *out, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_PAR_H */
