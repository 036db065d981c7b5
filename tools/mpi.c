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

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

#ifdef HAVE_MPI
#include <mpi.h>
#endif

static int mpi_rank = 0, mpi_size = 1, mpi_local = 1;

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

static const tk_par_runner_t runner = {mpi_run, NULL};

const tk_par_runner_t *cli_mpi_runner(void)
{
    return mpi_on && mpi_size > 1 ? &runner : NULL;
}

#else /* !HAVE_MPI */

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
