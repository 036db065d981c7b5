/*
 * mpi.c - the tools' MPI glue (configure --with-mpi): ranks, the runner
 * that spreads a parallel-driver job over them, and agreement on errors.
 * Without MPI (or when a tool is not started by an MPI launcher) every
 * function is a no-op for one process, so a tool behaves exactly as it
 * does without MPI.
 *
 * Only integers cross between ranks: the 128-bit entries of an
 * accumulator (tk_par.h), summed by a commutative integer reduction, and
 * error records.  Never a floating-point reduction, whose order would
 * change the bytes.  Every rank runs the tool on the same input (read from
 * the same files, or generated from the same spec and seed); a job's units
 * are cut into slices at chunk boundaries (tk_par_slice: the units and
 * chunks are the job's, never derived from the rank count); rank 0 writes
 * every byte of output and every message, the other ranks write to
 * /dev/null.
 *
 * Errors.  A rank's failure must reach every rank, or the others would
 * wait forever in a collective.  The tools call cli_mpi_agree(st, err, 1)
 * once per graph, on every rank, after everything of the graph is
 * computed; the runner agrees (non-final) before it merges.  Every rank
 * learns the error of the lowest failing rank (the first failing unit in
 * unit order, the error a single process reports).  After a failed
 * non-final agreement the rank makes no collective call until its final
 * one, which then only returns the agreed error: so a rank that failed
 * early (before a job) and ranks that fail inside a job stay matched.
 */
#include <config.h>

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef HAVE_MPI
#include <mpi.h>
#endif

static int mpi_rank = 0, mpi_size = 1, mpi_local = 1;

/* cli_mpi_units in one process: every unit in order, run then take. */
static tk_status_t units_here(const cli_units_t *job, tk_error_t *err)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    tk_status_t st = TK_OK;
    if (!fp)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
    for (int64_t u = 0; u < job->units && st == TK_OK; u++) {
        rewind(fp);
        if ((st = job->run(job->ctx, u, fp, err)) != TK_OK)
            break;
        long end = ftell(fp);
        if (fflush(fp) != 0 || end < 0) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
            break;
        }
        st = job->take(job->ctx, u, (const unsigned char *)buf, (size_t)end, err);
    }
    fclose(fp);
    free(buf);
    return st;
}

int cli_mpi_rank(void)
{
    return mpi_rank;
}

int cli_mpi_size(void)
{
    return mpi_size;
}

int cli_mpi_local_size(void)
{
    return mpi_local;
}

#ifdef HAVE_MPI

static int mpi_on;            /* MPI_Init was called                       */
static int failed;            /* a non-final agreement failed              */
static tk_status_t failed_st; /* its status and error                      */
static tk_error_t failed_err;
static int agreed_fail; /* some final agreement failed               */
static int err_fd = -1; /* rank > 0: the real stderr (see init)      */
static FILE *err_buf;   /* rank > 0: what the rank said              */
static MPI_Datatype i128_type;
static MPI_Op i128_sum;

/* Started by an MPI launcher?  mpirun (Open MPI, MPICH, Intel MPI) and
 * srun (PMI, PMIx) set one of these. */
static int launched(void)
{
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE",
                                       "MPI_LOCALNRANKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++)
        if (getenv(vars[i]))
            return 1;
    return 0;
}

/* inout[i] += in[i] on 128-bit two's-complement entries (unsigned
 * arithmetic: wraps like the driver's own merge). */
static void sum_i128(void *in, void *inout, int *len, MPI_Datatype *type)
{
    const unsigned char *a = in;
    unsigned char *b = inout;
    (void)type;
    for (int i = 0; i < *len; i++) {
        unsigned __int128 x, y;
        memcpy(&x, a + 16 * (size_t)i, 16);
        memcpy(&y, b + 16 * (size_t)i, 16);
        y += x;
        memcpy(b + 16 * (size_t)i, &y, 16);
    }
}

static void finish(void)
{
    int done = 0;
    fflush(stdout);
    fflush(stderr);
    MPI_Finalized(&done);
    if (!done) {
        MPI_Op_free(&i128_sum);
        MPI_Type_free(&i128_type);
        MPI_Finalize();
    }
}

void cli_mpi_init(void)
{
    if (mpi_on || !launched())
        return;
    if (MPI_Init(NULL, NULL) != MPI_SUCCESS) {
        cli_errorf("MPI_Init failed");
        exit(CLI_EXIT_DATA);
    }
    mpi_on = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_size);
    MPI_Comm node;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    MPI_Comm_size(node, &mpi_local);
    MPI_Comm_free(&node);
    MPI_Type_contiguous(2, MPI_UINT64_T, &i128_type);
    MPI_Type_commit(&i128_type);
    MPI_Op_create(sum_i128, 1, &i128_sum);
    atexit(finish);
    if (mpi_rank > 0) {
        /* Rank 0 speaks for all: output, errors, warnings, progress.  The
         * other ranks' stderr is kept aside, shown only when the rank
         * fails alone (cli_mpi_exit). */
        fflush(stderr);
        err_fd = dup(2);
        err_buf = tmpfile();
        if (!freopen("/dev/null", "w", stdout) || err_fd < 0 || !err_buf ||
            dup2(fileno(err_buf), 2) < 0)
            exit(CLI_EXIT_DATA);
    }
}

int cli_mpi_exit(int rc)
{
    if (!mpi_on || mpi_size < 2 || rc == CLI_EXIT_OK || agreed_fail)
        return rc;
    /* This rank failed outside any agreement.  When every rank fails
     * alike (a file none can read), all of them arrive here: a barrier
     * says so, and rank 0 has printed the one error line.  A rank failing
     * alone (an input only it could not read) would leave the others
     * waiting in a collective: after 10 s without the barrier it shows
     * its messages and ends the whole job. */
    fflush(stdout);
    fflush(stderr);
    MPI_Request req;
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (int i = 0; i < 10000 && !done; i++) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (!done)
            usleep(1000);
    }
    if (done)
        return rc;
    if (err_buf && err_fd >= 0) {
        char buf[4096];
        size_t k;
        rewind(err_buf);
        while ((k = fread(buf, 1, sizeof buf, err_buf)) > 0)
            if (write(err_fd, buf, k) < 0)
                break;
    }
    MPI_Abort(MPI_COMM_WORLD, rc);
    return rc;
}

tk_status_t cli_mpi_agree(tk_status_t st, tk_error_t *err, int final)
{
    if (!mpi_on || mpi_size < 2)
        return st;
    if (failed && final && st == TK_OK) {
        /* Every rank saw the failure and the library recovered from it
         * (topo-dist's max_diameter stop): all ranks alike. */
        failed = 0;
        return TK_OK;
    }
    if (failed) {
        /* Agreed already: no collective until the final agreement. */
        st = failed_st;
        if (err)
            *err = failed_err;
        if (final)
            failed = 0;
        return st;
    }
    int mine = st != TK_OK ? mpi_rank : mpi_size, first = mpi_size;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (first == mpi_size)
        return TK_OK;
    tk_error_t e;
    if (mpi_rank == first) {
        if (err)
            e = *err;
        else
            tk_error_clear(&e);
        e.code = st;
    }
    MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, first, MPI_COMM_WORLD);
    if (err)
        *err = e;
    agreed_fail = 1;
    if (!final) {
        failed = 1;
        failed_st = e.code;
        failed_err = e;
    }
    return e.code;
}

/* The runner: this rank's slice, agreement, then the integer sum of every
 * rank's accumulator on every rank. */
static tk_status_t mpi_run(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                           tk_error_t *err)
{
    int64_t lo, hi;
    (void)ctx;
    if (failed)
        return cli_mpi_agree(TK_OK, err, 0);
    tk_par_slice(job, mpi_rank, mpi_size, &lo, &hi);
    /* Rank 0's meter (the one shown) counts its own units only. */
    tk_progress_set_total(job->progress, hi - lo);
    /* The thread-count check counts this rank's share of the node's
     * memory (or TOPOKIT_MEMORY_LIMIT, per rank), not the whole node. */
    tk_par_job_t mine = *job;
    uint64_t lim = cli_mem_limit();
    if (lim && (!mine.mem_limit || lim < mine.mem_limit))
        mine.mem_limit = lim;
    tk_status_t st = tk_par_run(&mine, lo, hi, threads, acc, err);
    if ((st = cli_mpi_agree(st, err, 0)) != TK_OK)
        return st;
    unsigned char *w = (unsigned char *)tk_acc_words(acc);
    const int64_t step = (int64_t)1 << 24;
    for (int64_t i = 0, width = tk_acc_width(acc); i < width; i += step) {
        int count = (int)(width - i < step ? width - i : step);
        MPI_Allreduce(MPI_IN_PLACE, w + 16 * (size_t)i, count, i128_type, i128_sum, MPI_COMM_WORLD);
    }
    return TK_OK;
}

/* A non-final agreement in which the failing rank with the smallest key
 * (a unit number) speaks: every rank learns its status and error. */
static tk_status_t agree_key(tk_status_t st, int64_t key, tk_error_t *err)
{
    struct {
        long v;
        int r;
    } in, out;
    in.v = st != TK_OK ? (long)key : LONG_MAX;
    in.r = mpi_rank;
    MPI_Allreduce(&in, &out, 1, MPI_LONG_INT, MPI_MINLOC, MPI_COMM_WORLD);
    if (out.v == LONG_MAX)
        return TK_OK;
    tk_error_t e;
    if (mpi_rank == out.r) {
        if (err)
            e = *err;
        else
            tk_error_clear(&e);
        e.code = st;
    }
    MPI_Bcast(&e, (int)sizeof e, MPI_BYTE, out.r, MPI_COMM_WORLD);
    if (err)
        *err = e;
    agreed_fail = 1;
    failed = 1;
    failed_st = e.code;
    failed_err = e;
    return e.code;
}

typedef struct unit_rec {
    int64_t u, off, len;
} unit_rec_t;

/* One round, units [lo, hi): claim, run, agree, gather, take. */
static tk_status_t units_round(const cli_units_t *job, int dealt, MPI_Win win, int64_t lo,
                               int64_t hi, tk_error_t *err)
{
    const int64_t one = 1;
    int64_t v = 0, bad = INT64_MAX;
    char *buf = NULL;
    size_t blen = 0;
    unit_rec_t *recs = NULL;
    int64_t nrec = 0, cap = 0;
    tk_status_t st = TK_OK;
    FILE *fp = open_memstream(&buf, &blen);

    /* The counter starts at lo (rank 0 sets it; the barrier publishes it);
     * dealt jobs: this rank's block of [lo, hi), no counter; rooted jobs
     * (dealt 2): every unit on rank 0. */
    int64_t mine_hi = hi;
    if (dealt == 2) {
        v = lo;
        mine_hi = mpi_rank == 0 ? hi : lo;
    } else if (dealt) {
        v = lo + (hi - lo) * mpi_rank / mpi_size;
        mine_hi = lo + (hi - lo) * (mpi_rank + 1) / mpi_size;
    } else {
        if (mpi_rank == 0) {
            MPI_Accumulate(&lo, 1, MPI_INT64_T, 0, 0, 1, MPI_INT64_T, MPI_REPLACE, win);
            MPI_Win_flush(0, win);
        }
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (!fp) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
        bad = -1;
    }
    for (int64_t next = v; st == TK_OK; next++) {
        if (dealt) {
            v = next;
        } else {
            MPI_Fetch_and_op(&one, &v, MPI_INT64_T, 0, 0, MPI_SUM, win);
            MPI_Win_flush(0, win);
        }
        if (v >= mine_hi)
            break;
        long off = ftell(fp);
        if (nrec == cap) {
            cap = cap ? 2 * cap : 64;
            unit_rec_t *r = realloc(recs, (size_t)cap * sizeof *r);
            if (!r) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
                bad = v;
                break;
            }
            recs = r;
        }
        if ((st = job->run(job->ctx, v, fp, err)) != TK_OK) {
            bad = v;
            break;
        }
        long end = ftell(fp);
        if (off < 0 || end < 0) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
            bad = v;
            break;
        }
        recs[nrec++] = (unit_rec_t){v, off, end - off};
    }
    if (fp && fflush(fp) != 0 && st == TK_OK) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
        bad = -1;
    }
    if ((st = agree_key(st, bad, err)) != TK_OK)
        goto done;

    /* Gather: every rank's records (u, len) and bytes, as bytes. */
    int64_t data = 0;
    for (int64_t i = 0; i < nrec; i++)
        data += recs[i].len;
    int64_t mine = 8 + 16 * nrec + data;
    int64_t *sizes = NULL;
    unsigned char *send = malloc((size_t)mine), *all = NULL;
    int *counts = NULL, *displs = NULL;
    int64_t total = 0;
    int ok = send != NULL;
    if (ok) {
        unsigned char *q = send;
        memcpy(q, &nrec, 8);
        q += 8;
        for (int64_t i = 0; i < nrec; i++) {
            memcpy(q, &recs[i].u, 8);
            memcpy(q + 8, &recs[i].len, 8);
            q += 16;
        }
        for (int64_t i = 0; i < nrec; i++) {
            memcpy(q, buf + recs[i].off, (size_t)recs[i].len);
            q += recs[i].len;
        }
    }
    const int takes = mpi_rank == 0 || job->everywhere;
    if (takes) {
        sizes = malloc((size_t)mpi_size * sizeof *sizes);
        counts = malloc((size_t)mpi_size * sizeof *counts);
        displs = malloc((size_t)mpi_size * sizeof *displs);
        ok = ok && sizes && counts && displs;
    }
    if (!ok)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
    if ((st = agree_key(st, 0, err)) != TK_OK)
        goto gathered;
    if (job->everywhere)
        MPI_Allgather(&mine, 1, MPI_INT64_T, sizes, 1, MPI_INT64_T, MPI_COMM_WORLD);
    else
        MPI_Gather(&mine, 1, MPI_INT64_T, sizes, 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
    if (takes) {
        for (int r = 0; r < mpi_size; r++)
            total += sizes[r];
        if (total > INT_MAX)
            st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                              "the results of units %lld..%lld need %lld bytes, more than one "
                              "MPI gather moves",
                              (long long)lo, (long long)hi - 1, (long long)total);
        else if (!(all = malloc(total ? (size_t)total : 1)))
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
        for (int r = 0, at = 0; r < mpi_size && st == TK_OK; r++) {
            counts[r] = (int)sizes[r];
            displs[r] = at;
            at += counts[r];
        }
    }
    if ((st = agree_key(st, 0, err)) != TK_OK)
        goto gathered;
    if (job->everywhere)
        MPI_Allgatherv(send, (int)mine, MPI_BYTE, all, counts, displs, MPI_BYTE, MPI_COMM_WORLD);
    else
        MPI_Gatherv(send, (int)mine, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (takes) {
        /* Every unit of [lo, hi) once: where its bytes are. */
        int64_t n = hi - lo;
        const unsigned char **at = calloc((size_t)n, sizeof *at);
        int64_t *len = calloc((size_t)n, sizeof *len);
        if (!at || !len)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
        for (int r = 0; r < mpi_size && st == TK_OK; r++) {
            const unsigned char *p = all + displs[r], *d;
            int64_t k, u, l;
            memcpy(&k, p, 8);
            d = p + 8 + 16 * k;
            for (int64_t i = 0; i < k; i++) {
                memcpy(&u, p + 8 + 16 * i, 8);
                memcpy(&l, p + 16 + 16 * i, 8);
                at[u - lo] = d;
                len[u - lo] = l;
                d += l;
            }
        }
        for (int64_t i = 0; i < n && st == TK_OK; i++)
            st = job->take(job->ctx, lo + i, at[i], (size_t)len[i], err);
        free(at);
        free(len);
    }
    st = agree_key(st, 0, err);
gathered:
    free(send);
    free(sizes);
    free(counts);
    free(displs);
    free(all);
done:
    if (fp)
        fclose(fp);
    free(buf);
    free(recs);
    return st;
}

static tk_status_t units_run(const cli_units_t *job, int dealt, tk_error_t *err)
{
    if (!mpi_on || mpi_size < 2)
        return units_here(job, err);
    if (failed)
        return cli_mpi_agree(TK_OK, err, 0);
    int64_t *ctr = NULL;
    MPI_Win win = MPI_WIN_NULL;
    if (!dealt) {
        MPI_Win_allocate(mpi_rank == 0 ? (MPI_Aint)sizeof(int64_t) : 0, (int)sizeof(int64_t),
                         MPI_INFO_NULL, MPI_COMM_WORLD, &ctr, &win);
        MPI_Win_lock_all(0, win);
    }
    int64_t round = job->round > 0 ? job->round : job->units;
    tk_status_t st = TK_OK;
    for (int64_t lo = 0; lo < job->units && st == TK_OK; lo += round)
        st = units_round(job, dealt, win, lo, lo + round < job->units ? lo + round : job->units,
                         err);
    if (!dealt) {
        MPI_Win_unlock_all(win);
        MPI_Win_free(&win);
    }
    return st;
}

int cli_mpi_same(int v)
{
    if (!mpi_on || mpi_size < 2 || failed)
        return v;
    MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    return v;
}

static tk_par_runner_t runner = {mpi_run, NULL, 0};

const tk_par_runner_t *cli_mpi_runner(void)
{
    if (!mpi_on || mpi_size < 2)
        return NULL;
    /* The accumulators are checked against this rank's share of the
     * node's memory (or TOPOKIT_MEMORY_LIMIT, per rank). */
    runner.mem_limit = cli_mem_limit();
    return &runner;
}

#else /* !HAVE_MPI */

int cli_mpi_same(int v)
{
    return v;
}

static tk_status_t units_run(const cli_units_t *job, int dealt, tk_error_t *err)
{
    (void)dealt;
    return units_here(job, err);
}

void cli_mpi_init(void)
{
}

tk_status_t cli_mpi_agree(tk_status_t st, tk_error_t *err, int final)
{
    (void)err;
    (void) final;
    return st;
}

const tk_par_runner_t *cli_mpi_runner(void)
{
    return NULL;
}

int cli_mpi_exit(int rc)
{
    return rc;
}

#endif /* HAVE_MPI */

tk_status_t cli_mpi_units(const cli_units_t *job, tk_error_t *err)
{
    tk_status_t st;
    if (cli_shard_units(job, &st, err)) /* --shard, topo-merge (shard.c) */
        return st;
    return units_run(job, 0, err);
}

tk_status_t cli_mpi_units_dealt(const cli_units_t *job, tk_error_t *err)
{
    return units_run(job, 1, err);
}

tk_status_t cli_mpi_units_root(const cli_units_t *job, tk_error_t *err)
{
    return units_run(job, 2, err);
}
