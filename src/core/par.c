/*
 * par.c - the deterministic parallel driver (tk_par.h).
 *
 * Threads take chunks dynamically; each thread owns a chunk buffer and a
 * 128-bit accumulator, and adds the buffer into its accumulator at the end
 * of every chunk (fold).  The thread accumulators are then added into the
 * caller's.  Every addition is an integer one, so neither the schedule nor
 * the thread count can change a bit of the result.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tk_par.h"

typedef __int128 i128;

struct tk_acc {
    int64_t width;
    int scale_exp;
    i128 *v;
};

/* ------------------------------------------------------------------------ */
/* Accumulators.                                                            */

/* A zero accumulator whose entries must fit in lim bytes (0: the
 * machine's physical memory). */
static tk_status_t acc_new_lim(int64_t width, int scale_exp, uint64_t lim, tk_acc_t **out,
                               tk_error_t *err)
{
    if (!out || width < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "accumulator: bad width %lld",
                            (long long)width);
    if (!lim)
        lim = tk_memory_limit_default();
    if (lim && (uint64_t)width > lim / sizeof(i128))
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "accumulator: %lld entries exceed the memory limit", (long long)width);
    tk_acc_t *a = calloc(1, sizeof *a);
    i128 *v = tk_calloc_array((size_t)width + 1, sizeof *v);
    if (!a || !v) {
        free(a);
        free(v);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "accumulator: out of memory (%lld entries)",
                            (long long)width);
    }
    a->width = width;
    a->scale_exp = scale_exp;
    a->v = v;
    *out = a;
    return TK_OK;
}

tk_status_t tk_acc_new(int64_t width, int scale_exp, tk_acc_t **out, tk_error_t *err)
{
    return acc_new_lim(width, scale_exp, 0, out, err);
}

void tk_acc_free(tk_acc_t *a)
{
    if (!a)
        return;
    free(a->v);
    free(a);
}

int64_t tk_acc_width(const tk_acc_t *a)
{
    return a->width;
}

int tk_acc_scale_exp(const tk_acc_t *a)
{
    return a->scale_exp;
}

void tk_acc_clear(tk_acc_t *a)
{
    memset(a->v, 0, (size_t)a->width * sizeof *a->v);
}

static int same_shape(const tk_acc_t *a, const tk_acc_t *b)
{
    return a->width == b->width && a->scale_exp == b->scale_exp;
}

tk_status_t tk_acc_merge(tk_acc_t *dst, const tk_acc_t *src, tk_error_t *err)
{
    if (!dst || !src || !same_shape(dst, src))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "accumulator merge: different widths or scales");
    for (int64_t i = 0; i < dst->width; i++)
        dst->v[i] += src->v[i];
    return TK_OK;
}

uint64_t *tk_acc_words(tk_acc_t *a)
{
    return (uint64_t *)a->v;
}

__int128 tk_acc_get(const tk_acc_t *a, int64_t i)
{
    return a->v[i];
}

void tk_acc_to_double(const tk_acc_t *a, double *out)
{
    double inv = ldexp(1.0, -a->scale_exp);
    for (int64_t i = 0; i < a->width; i++)
        out[i] = (double)a->v[i] * inv;
}

int tk_acc_equal(const tk_acc_t *a, const tk_acc_t *b)
{
    return same_shape(a, b) && memcmp(a->v, b->v, (size_t)a->width * sizeof *a->v) == 0;
}

/* ------------------------------------------------------------------------ */
/* Jobs.                                                                    */

static int64_t job_chunk(const tk_par_job_t *job)
{
    return job->chunk > 0 ? job->chunk : TK_PAR_CHUNK;
}

int tk_par_scale_exp(const tk_par_job_t *job)
{
    if (job->unit_exact)
        return 0;
    int ex = 0;
    double bound = job->bound > 0 ? job->bound : 1.0;
    (void)frexp(bound, &ex);
    int F = 125 - ex;
    if (F > 1000)
        F = 1000;
    if (F < -1000)
        F = -1000;
    return F;
}

tk_status_t tk_par_acc_new(const tk_par_job_t *job, tk_acc_t **out, tk_error_t *err)
{
    return acc_new_lim(job->width, tk_par_scale_exp(job), job->mem_limit, out, err);
}

tk_status_t tk_par_acc_new_with(const tk_par_runner_t *runner, const tk_par_job_t *job,
                                tk_acc_t **out, tk_error_t *err)
{
    uint64_t lim = runner && runner->mem_limit ? runner->mem_limit : job->mem_limit;
    return acc_new_lim(job->width, tk_par_scale_exp(job), lim, out, err);
}

void tk_par_slice(const tk_par_job_t *job, int64_t i, int64_t parts, int64_t *lo, int64_t *hi)
{
    int64_t c = job_chunk(job), nchunks = (job->units + c - 1) / c;
    if (parts < 1)
        parts = 1;
    if (i < 0)
        i = 0;
    if (i > parts)
        i = parts;
    /* Chunks [i*nchunks/P, (i+1)*nchunks/P), in 128-bit to avoid overflow. */
    int64_t c0 = (int64_t)((i128)nchunks * i / parts);
    int64_t c1 = (int64_t)((i128)nchunks * (i + 1 > parts ? parts : i + 1) / parts);
    *lo = c0 * c < job->units ? c0 * c : job->units;
    *hi = c1 * c < job->units ? c1 * c : job->units;
}

/* y (|y| < 2^126, a multiple of its ulp above 2^53) truncated to a 128-bit
 * integer with two 64-bit conversions (no libgcc call): the high word is
 * y / 2^64 truncated, the remainder is exact in a double. */
static inline i128 to_fixed(double y)
{
    if (y < 0)
        return -to_fixed(-y);
    uint64_t hi = (uint64_t)(y * 0x1p-64);
    double rest = y - (double)hi * 0x1p64;
    return (i128)(((unsigned __int128)hi << 64) + (uint64_t)rest);
}

/* acc += trunc(buf * scale) entry by entry, and clear buf.  With a fold
 * map, buffer entry inv[t] goes to accumulator entry t (inv is the
 * inverse of the job's permutation): the accumulator is walked in order,
 * which costs less than scattering into it. */
/* Returns the number of entries that were not finite or beyond the
 * job's bound (|value| * 2^F >= 2^126: the fixed point would wrap); those
 * are left out and cleared. */
static int64_t fold_double(i128 *acc, double *buf, int64_t w, double scale, const int64_t *inv)
{
    int64_t bad = 0;
    for (int64_t t = 0; t < w; t++) {
        int64_t a = inv ? inv[t] : t;
        if (buf[a] != 0) {
            double y = buf[a] * scale;
            if (y < 0x1p126 && y > -0x1p126)
                acc[t] += to_fixed(y);
            else
                bad++; /* also NaN: both comparisons are false */
            buf[a] = 0;
        }
    }
    return bad;
}

static void fold_exact(i128 *acc, int64_t *buf, int64_t w, const int64_t *inv)
{
    for (int64_t t = 0; t < w; t++) {
        int64_t a = inv ? inv[t] : t;
        if (buf[a] != 0) {
            acc[t] += buf[a];
            buf[a] = 0;
        }
    }
}

/* The inverse of the job's fold map, or NULL with *bad set when the map
 * is not a permutation of 0 .. w-1. */
static int64_t *fold_inverse(const int64_t *map, int64_t w, int *bad)
{
    int64_t *inv = tk_malloc_array((size_t)w + 1, sizeof *inv);
    *bad = 0;
    if (!inv)
        return NULL;
    for (int64_t t = 0; t < w; t++)
        inv[t] = -1;
    for (int64_t a = 0; a < w; a++) {
        if (map[a] < 0 || map[a] >= w || inv[map[a]] >= 0) {
            *bad = 1;
            free(inv);
            return NULL;
        }
        inv[map[a]] = a;
    }
    return inv;
}

/* Threads to use: the request, at most one per chunk, and only as many as
 * fit in the job's memory limit (this process's share of the node). */
static tk_status_t thread_count(const tk_par_job_t *job, int threads, int64_t nchunks, int *nt,
                                tk_error_t *err)
{
    int n = 1;
#ifdef _OPENMP
    n = threads > 0 ? threads : omp_get_max_threads();
#else
    (void)threads;
#endif
    uint64_t per = (uint64_t)job->width * 24u + job->ws_bytes + 4096u;
    uint64_t lim = job->mem_limit ? job->mem_limit : tk_memory_limit_default();
    if (lim && per > lim)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%llu bytes of workspace per thread exceed the memory limit",
                            (unsigned long long)per);
    if (lim && (uint64_t)n * per > lim)
        n = (int)(lim / per);
    if ((int64_t)n > nchunks)
        n = (int)nchunks;
    *nt = n < 1 ? 1 : n;
    return TK_OK;
}

typedef struct run_state {
    int64_t bad_unit; /* smallest failing unit so far (INT64_MAX: none) */
    tk_error_t bad_err;
} run_state_t;

static void record_failure(run_state_t *rs, int64_t u, const tk_error_t *e)
{
#pragma omp critical
    if (u < rs->bad_unit) {
        rs->bad_unit = u;
        rs->bad_err = *e;
    }
}

/* Units [lo, hi) of one chunk into buf; stops at the first failure and at
 * any unit beyond a failure already recorded. */
static void run_chunk(const tk_par_job_t *job, void *ws, int64_t lo, int64_t hi, void *buf,
                      run_state_t *rs)
{
    for (int64_t u = lo; u < hi; u++) {
        int64_t cur;
        __atomic_load(&rs->bad_unit, &cur, __ATOMIC_RELAXED);
        if (u > cur)
            return;
        tk_error_t le;
        tk_error_clear(&le);
        tk_status_t st = job->unit ? job->unit(job->ctx, ws, u, buf, &le)
                                   : job->unit_exact(job->ctx, ws, u, buf, &le);
        if (st != TK_OK) {
            if (!le.code)
                le.code = st;
            record_failure(rs, u, &le);
            return;
        }
    }
}

/* One run: the chunks [c0, c0 + nchunks) of the job, on nt threads. */
typedef struct run {
    const tk_par_job_t *job;
    int64_t c0, nchunks, hi; /* chunks, and the end of the slice           */
    int nt;
    const int64_t *inv; /* inverse of the fold map, or NULL           */
    double scale;       /* 2^F                                        */
    i128 **accs;        /* nt thread accumulators                     */
    run_state_t rs;
} run_t;

/* Every thread: its buffer, accumulator and workspace, then chunks until
 * none is left, each folded into the thread's accumulator. */
static void run_threads(run_t *R)
{
    const tk_par_job_t *job = R->job;
    int64_t c = job_chunk(job), w = job->width;
    size_t bsize = job->unit ? sizeof(double) : sizeof(int64_t);
#pragma omp parallel num_threads(R->nt)
    {
        int tid = 0;
#ifdef _OPENMP
        tid = omp_get_thread_num();
#endif
        void *buf = tk_calloc_array((size_t)w + 1, bsize);
        i128 *tacc = tk_calloc_array((size_t)w + 1, sizeof *tacc);
        void *ws = job->ws_new ? job->ws_new(job->ctx) : NULL;
        int ok = buf && tacc && (ws || !job->ws_new);
        R->accs[tid] = tacc;
        if (!ok) {
            tk_error_t e;
            tk_error_set(&e, TK_ENOMEM, NULL, 0, "out of memory (parallel driver)");
            record_failure(&R->rs, -1, &e);
        }
#pragma omp for schedule(dynamic, 1)
        for (int64_t k = 0; k < R->nchunks; k++) {
            if (!ok)
                continue;
            int64_t ulo = (R->c0 + k) * c, uhi = ulo + c < R->hi ? ulo + c : R->hi;
            run_chunk(job, ws, ulo, uhi, buf, &R->rs);
            if (job->unit) {
                if (fold_double(tacc, buf, w, R->scale, R->inv) > 0) {
                    tk_error_t e;
                    tk_error_set(&e, TK_ERANGE, NULL, 0,
                                 "a value of units %lld..%lld is not finite or exceeds the "
                                 "accumulator's bound %g",
                                 (long long)ulo, (long long)(uhi - 1),
                                 job->bound > 0 ? job->bound : 1.0);
                    record_failure(&R->rs, ulo, &e);
                }
            } else
                fold_exact(tacc, buf, w, R->inv);
            tk_progress_add(job->progress, uhi - ulo);
        }
        free(buf);
        if (ws)
            job->ws_free(ws);
    }
}

/* The arguments of tk_par_run. */
static tk_status_t check_run(const tk_par_job_t *job, int64_t lo, int64_t hi, const tk_acc_t *acc,
                             tk_error_t *err)
{
    if (!job || !acc || (!job->unit == !job->unit_exact))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_par_run: bad job");
    int64_t c = job_chunk(job);
    if (lo < 0 || hi > job->units || lo > hi || lo % c != 0 || (hi % c != 0 && hi != job->units))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "tk_par_run: slice [%lld, %lld) is not cut at chunk boundaries",
                            (long long)lo, (long long)hi);
    if (acc->width != job->width || acc->scale_exp != tk_par_scale_exp(job))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_par_run: accumulator of another job");
    return TK_OK;
}

tk_status_t tk_par_run(const tk_par_job_t *job, int64_t lo, int64_t hi, int threads, tk_acc_t *acc,
                       tk_error_t *err)
{
    tk_status_t st = check_run(job, lo, hi, acc, err);
    if (st != TK_OK)
        return st;
    run_t R;
    memset(&R, 0, sizeof R);
    int64_t c = job_chunk(job), w = job->width;
    R.job = job;
    R.hi = hi;
    R.c0 = lo / c;
    R.nchunks = (hi - lo + c - 1) / c;
    R.nt = 1;
    R.scale = ldexp(1.0, acc->scale_exp);
    R.rs.bad_unit = INT64_MAX;
    tk_error_clear(&R.rs.bad_err);
    if (R.nchunks == 0)
        return TK_OK;
    if ((st = thread_count(job, threads, R.nchunks, &R.nt, err)) != TK_OK)
        return st;
    int64_t *inv = NULL;
    if (job->fold_map) {
        int bad;
        if (!(inv = fold_inverse(job->fold_map, w, &bad)))
            return bad ? tk_error_set(err, TK_EINVAL, NULL, 0,
                                      "tk_par_run: the fold map is not a permutation")
                       : tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (parallel driver)");
    }
    R.inv = inv;
    R.accs = calloc((size_t)R.nt, sizeof *R.accs);
    if (!R.accs) {
        free(inv);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (parallel driver)");
    }
    run_threads(&R);
    /* The smallest failing unit's error, or the thread accumulators added
     * into acc (integer sums: their order does not matter). */
    if (R.rs.bad_unit != INT64_MAX) {
        st = R.rs.bad_err.code ? R.rs.bad_err.code : TK_EINTERNAL;
        if (err)
            *err = R.rs.bad_err;
    }
    for (int t = 0; t < R.nt && st == TK_OK; t++)
        if (!R.accs[t]) /* a thread that never started */
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (parallel driver)");
    for (int t = 0; t < R.nt; t++) {
        if (st == TK_OK)
            for (int64_t i = 0; i < w; i++)
                acc->v[i] += R.accs[t][i];
        free(R.accs[t]);
    }
    free(R.accs);
    free(inv);
    return st;
}

tk_status_t tk_par_sum(const tk_par_job_t *job, int threads, double *out, tk_error_t *err)
{
    return tk_par_sum_with(NULL, job, threads, out, err);
}

tk_status_t tk_par_run_with(const tk_par_runner_t *runner, const tk_par_job_t *job, int threads,
                            tk_acc_t *acc, tk_error_t *err)
{
    if (runner && runner->run)
        return runner->run(runner->ctx, job, threads, acc, err);
    return tk_par_run(job, 0, job->units, threads, acc, err);
}

tk_status_t tk_par_sum_with(const tk_par_runner_t *runner, const tk_par_job_t *job, int threads,
                            double *out, tk_error_t *err)
{
    tk_acc_t *acc = NULL;
    tk_status_t st = tk_par_acc_new_with(runner, job, &acc, err);
    if (st == TK_OK)
        st = tk_par_run_with(runner, job, threads, acc, err);
    if (st == TK_OK)
        tk_acc_to_double(acc, out);
    tk_acc_free(acc);
    return st;
}
