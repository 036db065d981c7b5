/*
 * topo-antmill - Hamiltonian cycles with unique shortest paths up to delta
 * (the Ant Mill paper: an adverse traffic pattern for networks on random
 * regular graphs), their verification, and the (H, lambda)-Ant-mill pattern
 * files.  See topo-antmill(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"
#include "tk_antmill.h"
#include "tk_load.h"
#include "tk_pattern.h"
#include "tk_route.h"

static const char usage[] =
    "topo-antmill [--delta D | --max-delta | --hat | --verify CYCLE] [--lambda L|all]\n"
    "                    [-s SEED] [--starts K] [--budget SECONDS] [--exact[=SOLVER]]\n"
    "                    [--time-limit SECONDS] [--no-uniform] [--json] [--threads N]\n"
    "                    [--progress] [--shard I/P] [-o CYCLE] [-P PATTERN] [TOPOLOGY]";

typedef struct args {
    int32_t delta;      /* --delta D (0 = not given) */
    int maxdelta;       /* --max-delta (default mode) */
    int hat;            /* --hat */
    const char *verify; /* --verify CYCLE */
    int32_t lambda;     /* --lambda L (0 = delta) */
    int lambda_all;     /* --lambda all */
    uint64_t seed;
    int starts; /* --starts K (0 = 1) */
    double budget;
    const char *exact; /* --exact[=SOLVER]: the SAT solver (NULL = none) */
    double time_limit; /* --time-limit SECONDS (-1 = not given) */
    int no_uniform;
    int json;   /* --json: the row as a JSON Lines object */
    int no_row; /* -o - or -P -: stdout holds that file */
    int threads;
    const char *output;    /* -o CYCLE */
    const char *shard_out; /* --shard: -o, the shard file */
    const char *pattern;   /* -P PATTERN */
    const char *input;
    uint64_t mem;
    /* run state */
    int header_done;
    int ngraphs;
    tk_graph_t *only; /* with -o / -P / --verify: the one graph */
    int failed;
    char *only_input;
    FILE *rows; /* the rows: stdout, or held until the end by a merge */
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Ant Mill: a Hamiltonian cycle x_0..x_{n-1} of the topology whose windows\n"
          "x_i..x_{i+delta} all have D(x_i, x_{i+delta}) = delta and a unique shortest\n"
          "path (the adverse pattern of the Ant Mill paper), by randomized\n"
          "rotation-extension with backtracking; one TSV row per graph with the columns\n"
          "  name n delta lambda radius diameter avg_distance servers throughput_bound\n"
          "  slowdown uniform_min_throughput uniform_ratio adverse time\n\n"
          "Options:\n"
          "  --max-delta         raise delta from the girth guarantee floor((g-1)/2) up to\n"
          "                      the radius; keep the largest found (default)\n"
          "  --delta D           a cycle with delta >= D (D >= 1), else exit 1\n"
          "  --hat               any Hamiltonian cycle (H-hat)\n"
          "  --verify CYCLE      check the cycle file CYCLE and compute its delta\n"
          "  --lambda L|all      the lambda of the row and of -P (default: delta);\n"
          "                      'all' writes PATTERN.L.pat for every L = 1..delta\n"
          "  -s, --seed SEED     random seed (default 1)\n"
          "  --starts K          random starts per work limit of the search (default 1);\n"
          "                      part of the result, unlike --threads and the MPI ranks\n"
          "  --budget SECONDS    give up after this much time (default 60; 0 = none)\n"
          "  --exact             when the proofs and the quick searches do not decide,\n"
          "                      a SAT encoding decides, solved by cadical or by SOLVER\n"
          "                      with --exact=SOLVER\n"
          "  --time-limit SECONDS  seconds for each exact search (default 0 = none)\n"
          "  --no-uniform        skip the uniform load (columns uniform_* and adverse '-')\n"
          "  --json              the row as one JSON object (JSON Lines), same names\n"
          "  -o, --output CYCLE  write the cycle file (atomically)\n"
          "  -P, --pattern FILE  write the (H,lambda)-Ant-mill pattern file\n"
          "                      (-o - or -P -: that file on stdout instead of the row)\n"
          "  --threads N         OpenMP threads (N >= 1); results do not change\n"
          "  --progress          progress on stderr (percentage, rate, ETA)\n"
          "  --shard I/P         run shard I of P of the random starts only and write\n"
          "                      it to -o as a shard file; topo-merge(1) combines them\n"
          "  -h, --help          this help\n"
          "      --version       print the version\n\n"
          "Exit status: 0 success, 1 data error, no cycle within the budget or the time\n"
          "limit, or no SAT solver; 2 usage error.  See topo-antmill(1).\n",
          stdout);
}

enum {
    OPT_DELTA = 256,
    OPT_MAXD,
    OPT_HAT,
    OPT_VERIFY,
    OPT_LAMBDA,
    OPT_STARTS,
    OPT_BUDGET,
    OPT_EXACT,
    OPT_TLIMIT,
    OPT_NOUNI,
    OPT_JSON,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_SHARD,
    OPT_VERSION
};

/* -o and -P: which outputs go where. */
static void check_outputs(args_t *a)
{
    if (a->lambda_all && !a->pattern)
        cli_usage_fail(usage, "--lambda all needs -P PREFIX");
    if (a->lambda_all && strcmp(a->pattern, "-") == 0)
        cli_usage_fail(usage, "--lambda all needs a file PREFIX, not '-'");
    if (a->output && a->pattern && strcmp(a->output, "-") == 0 && strcmp(a->pattern, "-") == 0)
        cli_usage_fail(usage, "-o - and -P - cannot both use standard output");
    /* -o - or -P -: that file is the standard output, and the row is not
     * printed */
    a->no_row =
        (a->output && strcmp(a->output, "-") == 0) || (a->pattern && strcmp(a->pattern, "-") == 0);
}

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"delta", required_argument, NULL, OPT_DELTA},
        {"max-delta", no_argument, NULL, OPT_MAXD},
        {"hat", no_argument, NULL, OPT_HAT},
        {"verify", required_argument, NULL, OPT_VERIFY},
        {"lambda", required_argument, NULL, OPT_LAMBDA},
        {"seed", required_argument, NULL, 's'},
        {"starts", required_argument, NULL, OPT_STARTS},
        {"budget", required_argument, NULL, OPT_BUDGET},
        {"exact", optional_argument, NULL, OPT_EXACT},
        {"time-limit", required_argument, NULL, OPT_TLIMIT},
        {"no-uniform", no_argument, NULL, OPT_NOUNI},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"output", required_argument, NULL, 'o'},
        {"pattern", required_argument, NULL, 'P'},
        {"help", no_argument, NULL, 'h'},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c, modes = 0;
    int64_t v;
    char why[CLI_WHY_MAX];

    cli_shard_args("topo-antmill", &argc, &argv, ":ho:P:s:", longopts, usage);
    memset(a, 0, sizeof *a);
    a->seed = 1;
    a->budget = 60;
    a->time_limit = -1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:P:s:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_DELTA:
            a->delta = (int32_t)cli_int_arg("--delta", optarg, 1, INT32_MAX - 1);
            modes++;
            break;
        case OPT_MAXD:
            a->maxdelta = 1;
            modes++;
            break;
        case OPT_HAT:
            a->hat = 1;
            modes++;
            break;
        case OPT_VERIFY:
            a->verify = optarg;
            modes++;
            break;
        case OPT_LAMBDA:
            if (strcmp(optarg, "all") == 0)
                a->lambda_all = 1;
            else if (cli_parse_int(optarg, 1, INT32_MAX - 1, &v, why))
                cli_arg_fail("--lambda", optarg, "%s, or all", why);
            else
                a->lambda = (int32_t)v;
            break;
        case 's':
            a->seed = cli_u64_arg("--seed", optarg);
            break;
        case OPT_STARTS:
            a->starts = (int)cli_int_arg("--starts", optarg, 1, 1 << 20);
            break;
        case OPT_BUDGET:
            a->budget = cli_double_arg("--budget", optarg, 0, 1e9, 0);
            break;
        case OPT_EXACT:
            if (optarg && !*optarg)
                cli_arg_fail("--exact", optarg, "an empty solver name");
            a->exact = optarg ? optarg : "cadical";
            break;
        case OPT_TLIMIT:
            a->time_limit = cli_double_arg("--time-limit", optarg, 0, 1e9, 0);
            break;
        case OPT_NOUNI:
            a->no_uniform = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case 'o':
            a->output = optarg;
            break;
        case 'P':
            a->pattern = optarg;
            break;
        case OPT_PROGRESS:
            cli_progress_enable(1);
            break;
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    if (modes > 1)
        cli_usage_fail(usage, "--delta, --max-delta, --hat and --verify exclude each other");
    if (modes == 0)
        a->maxdelta = 1;
    if (a->exact && a->verify)
        cli_usage_fail(usage, "--exact searches; --verify checks a given cycle");
    if (a->time_limit >= 0 && !a->exact)
        cli_usage_fail(usage, "--time-limit needs --exact");
    if (cli_shard_partial()) {
        if (a->verify)
            cli_usage_fail(usage, "--shard splits the search; --verify does not search");
        if (a->exact)
            cli_usage_fail(usage, "--shard splits the random starts; --exact runs one SAT solver");
        a->shard_out = a->output; /* -o is the shard file; the merge writes the cycle */
        a->output = NULL;
    }
    check_outputs(a);
    if (argc - optind > 1)
        cli_usage_fail(usage, "one TOPOLOGY operand at most");
    a->input = optind < argc ? argv[optind] : NULL;
}

static double seconds_since(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

typedef struct result {
    tk_id_t *cycle;
    int32_t delta;
    int32_t lambda;
    tk_dist_summary_t ds;
    double uniform; /* NAN when skipped */
} result_t;

/* Uniform min throughput per server: topo-load's default pattern under
 * min routing, the same value topo-load prints. */
static int uniform_throughput(const args_t *a, const tk_graph_t *g, double *out)
{
    tk_error_t err;
    tk_route_spec_t spec;
    tk_router_t *r = NULL;

    tk_error_clear(&err);
    tk_status_t st = tk_route_parse("min", &spec, &err);
    if (st == TK_OK)
        st = tk_router_new(g, &spec, a->threads, a->mem, &r, &err);
    if (st == TK_OK) {
        tk_router_set_runner(r, cli_mpi_runner()); /* MPI: the sources over the ranks */
        st = tk_load_uniform_throughput(r, a->threads, out, &err);
    }
    int rc = cli_mpi_agree(st, &err, 1) != TK_OK; /* MPI: every rank stops */
    if (rc)
        cli_error(&err);
    tk_router_free(r);
    return rc;
}

/* Under MPI (several ranks): a batch of the search (a round of random
 * starts, or the 2-factor search) handed out to the ranks one task at a
 * time (cli_mpi_units: the work of a start varies); every rank takes every
 * task's record, so that all ranks go on with the same search. */
static tk_status_t am_unit(void *ctx, int64_t u, FILE *fp, tk_error_t *err)
{
    return tk_antmill_batch_run(ctx, u, fp, err);
}

static tk_status_t am_take(void *ctx, int64_t u, const unsigned char *p, size_t len,
                           tk_error_t *err)
{
    return tk_antmill_batch_take(ctx, u, p, len, err);
}

/* A rank that failed alone before a batch (a table over its memory limit)
 * makes its final agreement (find_cycle) while the others come to their
 * next batch or budget check: each of those first agrees on errors (the
 * same collective), so all stop together with the failing rank's error. */
typedef struct am_mpi {
    tk_status_t st;
    tk_error_t err;
} am_mpi_t;

static tk_status_t am_ranks(void *ctx, tk_antmill_batch_t *b, tk_error_t *err)
{
    am_mpi_t *m = ctx;
    cli_units_t job = {tk_antmill_batch_tasks(b), 0, am_unit, am_take, b, 1, 0};
    int32_t delta;
    int64_t first;
    tk_status_t st = cli_mpi_agree(TK_OK, err, 0);
    tk_antmill_batch_key(b, &delta, &first);
    /* the exact search (first -2): rank 0 runs the SAT solver, on its
     * clock; the other ranks wait for its record */
    if (st == TK_OK)
        st = first == -2 ? cli_mpi_units_root(&job, err) : cli_mpi_units(&job, err);
    if (st != TK_OK && m->st == TK_OK) {
        m->st = st;
        if (err)
            m->err = *err;
    }
    return st;
}

/* The budget: rank 0's clock decides (after the agreement on errors; a
 * failure elsewhere ends the search as a spent budget, and find_cycle
 * reports the failure). */
static int am_agree(void *ctx, int spent)
{
    am_mpi_t *m = ctx;
    tk_error_t e;
    tk_error_clear(&e);
    tk_status_t st = cli_mpi_agree(TK_OK, &e, 0);
    if (st != TK_OK) {
        if (m->st == TK_OK) {
            m->st = st;
            m->err = e;
        }
        return 1;
    }
    return cli_mpi_same(spent);
}

/* --shard I/P and its merge (topokit(7) SCALING).  A shard runs the
 * searches of the single run with rounds of P attempts of which it runs
 * its slice (attempt first + I of a round; the 2-factor search, one task
 * that steers the search, it runs itself); the attempts of the other
 * shards read as not run, so its searches decide on its own attempts,
 * never after the single run's would.  Every task's record goes into the
 * shard's transcript as an entry (the delta of its search, the attempt or
 * -1 for the 2-factor search, the record's length) and the record.  With
 * --max-delta the deltas the single run searches depend on the cycles
 * other shards find, so a shard searches every delta from the first up to
 * the radius, stopping only at a proof that one is impossible.  The
 * transcript is unit I of a unit job of P units (cli_mpi_units: the shard
 * file's machinery); the merge takes the P transcripts and runs the
 * single run's search with a runner that takes each task's record from
 * the transcript of the shard that ran it.  The budget's clock is only in
 * the records (a task that found it spent): neither a shard nor the merge
 * asks its own clock between rounds. */
typedef struct am_entry {
    int32_t delta;
    int32_t pad;
    int64_t key;  /* the attempt, or -1: the 2-factor search */
    uint64_t len; /* bytes of the record that follows */
} am_entry_t;

typedef struct am_shard {
    int64_t part, parts;
    FILE *fp;           /* shard: the transcript                */
    unsigned char **tr; /* merge: each shard's transcript       */
    size_t *len, *at;   /* its length, where the replay stands  */
} am_shard_t;

/* Tasks [lo, hi) of a round of count tasks are shard part's. */
static void am_slice(int64_t count, int64_t part, int64_t parts, int64_t *lo, int64_t *hi)
{
    *lo = count * part / parts;
    *hi = count * (part + 1) / parts;
}

static int am_no_clock(void *ctx, int spent)
{
    (void)ctx;
    (void)spent;
    return 0;
}

/* The shard's runner: its tasks of b, recorded and taken. */
static tk_status_t am_shard_run(void *ctx, tk_antmill_batch_t *b, tk_error_t *err)
{
    am_shard_t *sh = ctx;
    int32_t delta;
    int64_t first, lo = 0, hi = tk_antmill_batch_tasks(b);

    tk_antmill_batch_key(b, &delta, &first);
    if (first >= 0)
        am_slice(hi, sh->part, sh->parts, &lo, &hi);
    for (int64_t i = lo; i < hi; i++) {
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        tk_status_t st;
        if (!mem)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (task results)");
        st = tk_antmill_batch_run(b, i, mem, err);
        if (fclose(mem) != 0 && st == TK_OK)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (task results)");
        if (st == TK_OK) {
            am_entry_t e = {delta, 0, first < 0 ? -1 : first + i, len};
            if (fwrite(&e, sizeof e, 1, sh->fp) != 1 || fwrite(buf, 1, len, sh->fp) != len)
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (task results)");
            else
                st = tk_antmill_batch_take(b, i, (const unsigned char *)buf, len, err);
        }
        free(buf);
        if (st != TK_OK)
            return st;
    }
    return TK_OK;
}

/* The record of (delta, key) in shard s's transcript: from where the
 * replay stands, else from the start. */
static tk_status_t am_find(am_shard_t *sh, int64_t s, int32_t delta, int64_t key,
                           const unsigned char **rec, size_t *len, tk_error_t *err)
{
    for (int pass = 0; pass < 2; pass++) {
        size_t at = pass ? 0 : sh->at[s], end = sh->len[s];
        am_entry_t e;
        while (end - at >= sizeof e) {
            memcpy(&e, sh->tr[s] + at, sizeof e);
            if (e.len > end - at - sizeof e)
                break;
            if (e.delta == delta && e.key == key) {
                *rec = sh->tr[s] + at + sizeof e;
                *len = (size_t)e.len;
                sh->at[s] = at + sizeof e + (size_t)e.len;
                return TK_OK;
            }
            at += sizeof e + (size_t)e.len;
        }
    }
    if (key < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "shard %" PRId64 " of %" PRId64
                            " holds no 2-factor search for delta=%" PRId32,
                            s, sh->parts, delta);
    return tk_error_set(err, TK_EINVAL, NULL, 0,
                        "shard %" PRId64 " of %" PRId64 " holds no attempt %" PRId64
                        " of the search for delta=%" PRId32,
                        s, sh->parts, key, delta);
}

/* The merge's runner: every task's record from the shard that ran it. */
static tk_status_t am_merge_run(void *ctx, tk_antmill_batch_t *b, tk_error_t *err)
{
    am_shard_t *sh = ctx;
    int32_t delta;
    int64_t first, count = tk_antmill_batch_tasks(b);

    tk_antmill_batch_key(b, &delta, &first);
    for (int64_t i = 0; i < count; i++) {
        int64_t s = 0, lo, hi;
        const unsigned char *rec = NULL;
        size_t len = 0;
        tk_status_t st;
        if (first >= 0)
            for (s = 0; s < sh->parts; s++) {
                am_slice(count, s, sh->parts, &lo, &hi);
                if (i >= lo && i < hi)
                    break;
            }
        if ((st = am_find(sh, s, delta, first < 0 ? -1 : first + i, &rec, &len, err)) != TK_OK ||
            (st = tk_antmill_batch_take(b, i, rec, len, err)) != TK_OK)
            return st;
    }
    return TK_OK;
}

/* The options of the search (without its runner). */
static void am_opts(const args_t *a, const char *name, tk_antmill_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->seed = a->seed;
    o->budget = a->budget;
    o->mem_limit = a->mem;
    o->threads = a->threads;
    o->progress = cli_meter(name);
    o->exact_solver = a->exact;
    o->exact_limit = a->time_limit > 0 ? a->time_limit : 0;
    o->delta = a->hat || a->maxdelta ? 0 : a->delta;
    o->starts = a->starts;
}

/* The unit job of --shard and of the merge: unit I is shard I's
 * transcript. */
typedef struct am_sjob {
    const args_t *a;
    const tk_graph_t *g;
    const char *name;
    int32_t max_delta; /* the last delta a raise can reach (0: no raise) */
    am_shard_t *sh;    /* the merge's transcripts */
} am_sjob_t;

static tk_status_t am_shard_unit(void *ctx, int64_t u, FILE *fp, tk_error_t *err)
{
    const am_sjob_t *j = ctx;
    am_shard_t sh = {u, cli_shard_parts(), fp, NULL, NULL, NULL};
    tk_antmill_runner_t run = {am_shard_run, am_no_clock, (int)sh.parts, &sh};
    tk_antmill_opts_t o;
    tk_id_t *cycle = malloc((size_t)j->g->n * sizeof *cycle);
    struct timespec t0;
    int32_t d0, dmax;

    if (!cycle)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    am_opts(j->a, j->name, &o);
    o.runner = &run;
    d0 = o.delta;
    dmax = j->max_delta < j->g->n ? j->max_delta : j->g->n - 1;
    if (dmax < d0)
        dmax = d0;
    for (int32_t d = d0; d <= dmax; d++) {
        tk_antmill_stats_t stats;
        tk_error_t e;
        tk_status_t st;
        memset(&stats, 0, sizeof stats);
        tk_error_clear(&e);
        o.delta = d;
        if (d > d0 && j->a->budget > 0) { /* what is left, as tk_antmill_max_delta */
            o.budget = j->a->budget - seconds_since(&t0);
            if (o.budget < 1e-9)
                o.budget = 1e-9;
        }
        st = tk_antmill_search(j->g, &o, cycle, &stats, &e);
        if (st == TK_ENOMEM || st == TK_EIO) {
            free(cycle);
            if (err)
                *err = e;
            return st;
        }
        /* a proof (no higher delta either), or a refused delta */
        if (st != TK_OK && st != TK_ELIMIT && stats.outcome != TK_ANTMILL_GAVE_UP)
            break;
    }
    free(cycle);
    return TK_OK;
}

static tk_status_t am_merge_take(void *ctx, int64_t u, const unsigned char *p, size_t len,
                                 tk_error_t *err)
{
    am_shard_t *sh = ((am_sjob_t *)ctx)->sh;
    unsigned char *c = malloc(len ? len : 1);
    if (!c)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if (len) /* an empty unit may come with no bytes at all */
        memcpy(c, p, len);
    free(sh->tr[u]);
    sh->tr[u] = c;
    sh->len[u] = len;
    sh->at[u] = 0;
    return TK_OK;
}

static void am_shard_free(am_shard_t *sh)
{
    for (int64_t s = 0; sh->tr && s < sh->parts; s++)
        free(sh->tr[s]);
    free(sh->tr);
    free(sh->len);
    free(sh->at);
}

/* --shard: this shard's transcript into the shard file; the merge: the
 * shards' transcripts into *sh. */
static tk_status_t am_shard_job(const args_t *a, const tk_graph_t *g, const char *name,
                                int32_t max_delta, am_shard_t *sh, tk_error_t *err)
{
    am_sjob_t j = {a, g, name, max_delta, sh};
    cli_units_t job = {cli_shard_parts(), 0, am_shard_unit, am_merge_take, &j, 0, 0};

    memset(sh, 0, sizeof *sh);
    sh->parts = cli_shard_parts();
    sh->tr = calloc((size_t)sh->parts, sizeof *sh->tr);
    sh->len = calloc((size_t)sh->parts, sizeof *sh->len);
    sh->at = calloc((size_t)sh->parts, sizeof *sh->at);
    if (!sh->tr || !sh->len || !sh->at)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    return cli_mpi_units(&job, err);
}

/* The cycle of --delta D, --hat or --max-delta (raised up to the radius,
 * which bounds every cycle's delta); 2: a --shard run's part is done. */
static int find_cycle(const args_t *a, const tk_graph_t *g, const char *name, result_t *res)
{
    tk_error_t err;
    tk_antmill_opts_t o;
    tk_antmill_stats_t stats;
    am_mpi_t m = {TK_OK, {0}};
    am_shard_t sh;
    tk_antmill_runner_t ranks = {am_ranks, am_agree, cli_mpi_size(), &m};
    tk_antmill_runner_t replay = {am_merge_run, am_no_clock, 1, &sh};
    int32_t max_delta = a->maxdelta ? res->ds.radius : 0;
    tk_status_t st = TK_OK;

    tk_error_clear(&err);
    memset(&sh, 0, sizeof sh);
    am_opts(a, name, &o);
    o.runner = cli_mpi_size() > 1 ? &ranks : NULL;
    if (cli_shard_parts() > 0) {
        st = am_shard_job(a, g, name, max_delta, &sh, &err);
        if (st == TK_OK && cli_shard_partial()) {
            am_shard_free(&sh);
            return 2;
        }
        o.runner = &replay;
        replay.workers = (int)sh.parts;
    }
    if (st == TK_OK)
        st = tk_antmill_max_delta(g, &o, max_delta, res->cycle, &res->delta, &stats, &err);
    am_shard_free(&sh);
    if (m.st != TK_OK) { /* another rank failed */
        st = m.st;
        err = m.err;
    }
    if (cli_mpi_agree(st, &err, 1) != TK_OK) { /* MPI: every rank stops */
        cli_error(&err);
        return 1;
    }
    /* --max-delta: why the raise stopped, a proof or not */
    if (a->maxdelta && stats.outcome_delta > 0) {
        if (stats.outcome == TK_ANTMILL_IMPOSSIBLE)
            cli_warnf("%s: delta %" PRId32 " impossible (%s)", name, stats.outcome_delta,
                      stats.reason);
        else if (stats.outcome == TK_ANTMILL_BUDGET)
            cli_warnf("%s: delta %" PRId32 " not found within budget", name, stats.outcome_delta);
        else if (stats.outcome == TK_ANTMILL_TIME_LIMIT)
            cli_warnf("%s: delta %" PRId32 " not found within time limit (exact search)", name,
                      stats.outcome_delta);
        else
            cli_warnf("%s: delta %" PRId32 " not found (search gave up, no proof)", name,
                      stats.outcome_delta);
    }
    return 0;
}

static int read_cycle(const args_t *a, const tk_graph_t *g, result_t *res)
{
    tk_error_t err;
    const char *name;
    FILE *fp = cli_open_input(a->verify, &name);
    tk_id_t *c = NULL;
    int64_t len;
    long *lines = NULL;
    int rc = 0;

    if (!fp)
        return 1;
    tk_error_clear(&err);
    if (tk_cycle_read(fp, name, g->n, &c, &len, &lines, &err) ||
        tk_antmill_verify(g, c, len, name, lines, &res->delta, &err)) {
        cli_error(&err);
        rc = 1;
    } else {
        memcpy(res->cycle, c, (size_t)g->n * sizeof *c);
    }
    free(c);
    free(lines);
    cli_close_input(fp);
    return rc;
}

static int write_pattern(const args_t *a, const tk_graph_t *g, const result_t *res, int32_t lambda,
                         const char *path)
{
    tk_error_t err;
    tk_pattern_t *p = NULL;
    cli_out_t out;
    char extra[128];

    tk_error_clear(&err);
    snprintf(extra, sizeof extra, "delta=%" PRId32 " s=%" PRIu64, res->delta, a->seed);
    if (tk_antmill_pattern(g, res->cycle, lambda, extra, &p, &err)) {
        cli_error(&err);
        return 1;
    }
    if (cli_out_open(&out, path)) {
        tk_pattern_free(p);
        return 1;
    }
    if (tk_pattern_write(out.fp, p, &err)) {
        cli_error(&err);
        cli_out_abort(&out);
        tk_pattern_free(p);
        return 1;
    }
    tk_pattern_free(p);
    return cli_out_commit(&out) ? 1 : 0;
}

static void print_header(FILE *fp)
{
    fputs("name\tn\tdelta\tlambda\tradius\tdiameter\tavg_distance\tservers\tthroughput_bound\t"
          "slowdown\tuniform_min_throughput\tuniform_ratio\tadverse\ttime\n",
          fp);
}

/* Everything of one graph before its outputs: distances, the cycle (found
 * or read), lambda, the uniform throughput.  0, or 1 with the error
 * printed, or 2 after a --shard run's part. */
static int compute(const args_t *a, const tk_graph_t *g, const char *name, result_t *res)
{
    tk_error_t err;
    tk_dist_opts_t dopts;

    tk_error_clear(&err);
    memset(&dopts, 0, sizeof dopts);
    dopts.threads = a->threads;
    dopts.progress = cli_meter(name);
    dopts.runner = cli_mpi_runner(); /* MPI: sources spread over the ranks */
    if (cli_mpi_agree(tk_dist_summary(g, &dopts, &res->ds, &err), &err, 1) != TK_OK) {
        cli_error(&err);
        return 1;
    }
    if (!res->ds.connected) {
        cli_errorf("%s: the topology is not %sconnected: no Hamiltonian cycle", name,
                   g->directed ? "strongly " : "");
        return 1;
    }
    res->cycle = malloc((size_t)g->n * sizeof *res->cycle);
    if (!res->cycle) {
        cli_errorf("out of memory");
        return 1;
    }
    if (a->verify) {
        if (read_cycle(a, g, res))
            return 1;
    } else {
        int r = find_cycle(a, g, name, res);
        if (r)
            return r; /* 2: --shard, the merge does the rest */
    }
    res->lambda = a->lambda ? a->lambda : (res->delta > 0 ? res->delta : 1);
    if (res->lambda >= g->n) {
        cli_errorf("--lambda %" PRId32 ": must be less than n=%" PRId32, res->lambda, g->n);
        return 1;
    }
    if (!a->no_uniform && !a->no_row && uniform_throughput(a, g, &res->uniform))
        return 1;
    return 0;
}

/* -P: one pattern file, or with --lambda all PREFIX.L.pat for L = 1..delta. */
static int write_patterns(const args_t *a, const tk_graph_t *g, const result_t *res)
{
    if (!a->lambda_all)
        return write_pattern(a, g, res, res->lambda, a->pattern);
    if (res->delta < 1) {
        cli_errorf("--lambda all: the cycle has delta 0");
        return 1;
    }
    for (int32_t L = 1; L <= res->delta; L++) {
        size_t len = strlen(a->pattern) + 32;
        char *path = malloc(len);
        int r;
        if (!path) {
            cli_errorf("out of memory");
            return 1;
        }
        snprintf(path, len, "%s.%" PRId32 ".pat", a->pattern, L);
        r = write_pattern(a, g, res, L, path);
        free(path);
        if (r)
            return 1;
    }
    return 0;
}

/* The files: -o CYCLE (committed only when the patterns are written too)
 * and -P. */
static int write_files(const args_t *a, const tk_graph_t *g, const result_t *res)
{
    tk_error_t err;
    cli_out_t out;

    if (a->output) {
        char comment[128];
        snprintf(comment, sizeof comment, "seed %" PRIu64 "%s", a->seed,
                 a->verify ? " (verified input)"
                 : a->hat  ? " (H-hat)"
                           : "");
        if (cli_out_open(&out, a->output))
            return 1;
        if (tk_cycle_write(out.fp, g, res->cycle, res->delta, comment, &err)) {
            cli_error(&err);
            cli_out_abort(&out);
            return 1;
        }
    }
    if (a->pattern && write_patterns(a, g, res)) {
        if (a->output)
            cli_out_abort(&out);
        return 1;
    }
    return a->output && cli_out_commit(&out) ? 1 : 0;
}

/* The row of one graph: the cycle and the bounds of the Ant Mill pattern
 * (throughput_bound = 1 / (p lambda) under minimal routing, Remark 1 of the
 * Ant Mill paper) against the uniform load. */
static void print_row(const args_t *a, const tk_graph_t *g, const char *name, const result_t *res,
                      const struct timespec *t0)
{
    double p = (double)tk_graph_total_servers(g) / (double)g->n;
    double d = (double)g->m / (double)g->n; /* (out-)degree */
    double bound;
    char secs[32];
    cli_row_t row;

    if (p < 1)
        p = 1;
    bound = 1.0 / (p * res->lambda);
    if (bound > 1)
        bound = 1;
    cli_row_begin(&row, a->rows, a->json);
    cli_cell_str(&row, "name", name);
    cli_cell_int(&row, "n", g->n, 0);
    cli_cell_int(&row, "delta", res->delta, 0);
    cli_cell_int(&row, "lambda", res->lambda, 0);
    cli_cell_int(&row, "radius", res->ds.radius, TK_INF);
    cli_cell_int(&row, "diameter", res->ds.diameter, TK_INF);
    cli_cell_double(&row, "avg_distance", res->ds.avg_distance);
    cli_cell_double(&row, "servers", p);
    cli_cell_double(&row, "throughput_bound", bound);
    cli_cell_double(&row, "slowdown", d * res->lambda / res->ds.avg_distance);
    if (isnan(res->uniform)) {
        cli_cell_str(&row, "uniform_min_throughput", "-");
        cli_cell_str(&row, "uniform_ratio", "-");
        cli_cell_str(&row, "adverse", "-");
    } else {
        cli_cell_double(&row, "uniform_min_throughput", res->uniform);
        cli_cell_double(&row, "uniform_ratio", res->uniform / bound);
        cli_cell_str(&row, "adverse", 2 * bound < res->uniform ? "yes" : "no");
    }
    snprintf(secs, sizeof secs, "%.3f", seconds_since(t0));
    cli_cell_num(&row, "time", secs);
    cli_row_end(&row);
}

static int process(args_t *a, const tk_graph_t *g, const char *input, long index)
{
    result_t res;
    char name[1024];
    struct timespec t0;
    int rc = 1;

    memset(&res, 0, sizeof res);
    res.uniform = NAN;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cli_graph_name(g, input, index, name, sizeof name);
    if (cli_shard_graph(g, input, index) != 0) /* a merge: not the shards' graph */
        return 1;
    int c = compute(a, g, name, &res);
    if (c == 2) { /* --shard: the shard file holds this graph's part */
        rc = 0;
    } else if (c == 0 && write_files(a, g, &res) == 0) {
        rc = 0;
        if (!a->no_row) { /* -o - or -P -: stdout holds that file */
            if (!a->header_done && !a->json)
                print_header(a->rows);
            a->header_done = 1;
            print_row(a, g, name, &res, &t0);
        }
    }
    free(res.cycle);
    tk_dist_summary_destroy(&res.ds);
    return rc;
}

static int each(void *ctx, tk_graph_t *g, const char *input, long index)
{
    args_t *a = ctx;
    a->ngraphs++;
    if (a->output || a->pattern || a->verify) {
        if (a->ngraphs > 1) {
            cli_errorf("%s: -o, -P and --verify take one graph; the input has more", input);
            tk_graph_free(g);
            a->failed = 1;
            return CLI_EACH_STOP;
        }
        a->only = g;
        a->only_input = strdup(input ? input : "-");
        return CLI_EACH_OK;
    }
    int r = process(a, g, input, index);
    tk_graph_free(g);
    fflush(a->rows);
    return r ? CLI_EACH_FAILED : CLI_EACH_OK;
}

/* Every graph of the input, or with -o, -P or --verify its only graph. */
static int run(args_t *a)
{
    int rc;

    cli_set_threads(a->threads);
    a->mem = cli_mem_limit();
    if (a->exact) { /* refuse before any work; MPI: rank 0 runs the solver */
        tk_error_t err;
        tk_error_clear(&err);
        if (cli_mpi_same(cli_mpi_rank() == 0 && tk_antmill_solver_check(a->exact, &err))) {
            cli_errorf("--exact: %s", err.msg);
            return CLI_EXIT_DATA;
        }
    }
    /* --shard: the shard file is the output (-o); a merge holds its rows
     * until every shard record matched */
    char *held = NULL;
    size_t heldlen = 0;
    a->rows = stdout;
    if (cli_shard_open(a->shard_out) != 0)
        return cli_shard_close(CLI_EXIT_DATA);
    if (cli_shard_merging() && !(a->rows = open_memstream(&held, &heldlen))) {
        cli_errorf("out of memory");
        return cli_shard_close(CLI_EXIT_DATA);
    }
    rc = cli_each_graph(a->input, a->mem, NULL, each, a);
    if (a->only) {
        if (!rc && !a->failed && process(a, a->only, a->only_input, 1))
            rc = 1;
        tk_graph_free(a->only);
        free(a->only_input);
    }
    rc = cli_shard_table_end(rc || a->failed);
    if (a->rows != stdout) {
        fclose(a->rows);
        /* the rows of a run that failed on its own, as the single run's */
        if (!cli_shard_failed() && heldlen && fwrite(held, 1, heldlen, stdout) != heldlen)
            rc = 1;
        free(held);
    }
    return cli_shard_close(rc ? CLI_EXIT_DATA : CLI_EXIT_OK);
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-antmill");
    parse_args(argc, argv, &a);
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
