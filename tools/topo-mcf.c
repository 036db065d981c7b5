/*
 * topo-mcf - maximum concurrent flow of every graph of the inputs under a
 * traffic pattern: exact (GLPK) or certified approximation, unrestricted
 * or restricted to a routing model's paths.  See topo-mcf(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "topo-mcf [-r ROUTING] [-P PATTERN]... [--force] [-m 'KIND K=V...']... [-s SEED]\n"
    "                [--method exact|approx|auto] [--lp simplex|barrier|auto] [--eps E] [--batch "
    "N]\n"
    "                [--time-limit S] [--max-paths N] [--no-presolve] [--links] [--json]\n"
    "                [--threads N] [--progress] [--shard I/P] [-o FILE] [TOPOLOGY...]";

#define MAX_PATTERNS 64

typedef struct args {
    const char *routing; /* -r (NULL = unrestricted)          */
    const char *pfile[MAX_PATTERNS];
    int npfile;
    const char *make[MAX_PATTERNS];
    int nmake;
    uint64_t seed;
    tk_mcf_opts_t opts;
    uint64_t max_paths;
    int links, json, threads, progress;
    int force; /* --force: -P files made for another topology */
    const char *output;
    char **inputs;
    int ninputs;
    /* run state */
    tk_pattern_t *pat[MAX_PATTERNS];
    const char *patname[MAX_PATTERNS];
    int64_t plen[MAX_PATTERNS];       /* demands as read (--shard: fingerprints) */
    tk_demand_t *pread[MAX_PATTERNS]; /* --shard, merge: a copy of them (a bind
                                         can rewrite the pattern in place)  */
    tk_route_spec_t rspec;
    int header_done;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Maximum concurrent flow of every graph read from TOPOLOGY (or standard\n"
          "input) under each traffic pattern: the largest theta such that theta times\n"
          "every demand fits the link capacities at once.  One TSV row per graph and\n"
          "pattern with the columns\n"
          "  name routing pattern theta throughput upper_bound gap method time status\n"
          "(theta and upper_bound bound the optimum; status optimal, converged or\n"
          "time-limit).\n"
          "Default pattern: uniform, that of -m uniform (every server sends load 1\n"
          "spread evenly over the servers of the other switches).\n\n"
          "Options:\n"
          "  -r, --routing R       restrict flows to the paths of routing model R\n"
          "                        (min, ksp:K, allpath:H, valiant, ...; topokit(7))\n"
          "  -P, --pattern FILE    a pattern file (topokit-formats(5)); repeatable\n"
          "      --force           use -P files even if made for another topology\n"
          "  -m, --make 'KIND K=V' a pattern made for each graph as topo-pattern(1)\n"
          "                        would; repeatable\n"
          "  -s, --seed SEED       seed of randomized --make patterns (default 1)\n"
          "      --method M        exact (GLPK simplex), approx (certified (1-eps)\n"
          "                        Garg-Koenemann), auto (default: exact when small)\n"
          "      --lp A            exact: simplex (GLPK), barrier (interior point,\n"
          "                        certified to 1e-9, else the simplex) or auto\n"
          "                        (default: barrier on large LPs)\n"
          "      --eps E           approx: stop at relative gap E (default 0.01)\n"
          "      --batch N         approx: sources whose trees are grown at once\n"
          "                        (default 64; the results depend on N, never on\n"
          "                        --threads or the MPI ranks)\n"
          "      --time-limit S    stop after S seconds: approx prints its certified\n"
          "                        interval with status time-limit, exact exits 1\n"
          "      --max-paths N     -r: refuse pairs with more than N paths\n"
          "                        (default 100000)\n"
          "      --no-presolve     -r: always solve the whole LP as written (no split\n"
          "                        check, every capacity row from the start)\n"
          "      --links           print the saturated links instead: table\n"
          "                        name routing pattern tail head class load dual\n"
          "      --json            JSON Lines, one object per graph and pattern\n"
          "      --threads N       OpenMP threads (N >= 1)\n"
          "      --progress        progress messages on stderr\n"
          "      --shard I/P       solve only shard I of P of the instances (graph and\n"
          "                        pattern; the k-th of the run is shard k mod P's) and\n"
          "                        write their rows as a shard file; topo-merge(1)\n"
          "                        combines the P shards into this run's output\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error, solver failure or time limit,\n"
          "2 usage error.  See topo-mcf(1).\n",
          stdout);
}

enum {
    OPT_METHOD = 256,
    OPT_LP,
    OPT_EPS,
    OPT_TLIM,
    OPT_LINKS,
    OPT_JSON,
    OPT_THREADS,
    OPT_VERSION,
    OPT_MAXPATHS,
    OPT_NOPRESOLVE,
    OPT_PROGRESS,
    OPT_BATCH,
    OPT_SHARD
};
enum { OPT_FORCE = 512 };

static const char *const method_names[] = {"exact", "approx", "auto", NULL};
static const tk_mcf_method_t method_ids[] = {TK_MCF_EXACT, TK_MCF_APPROX, TK_MCF_AUTO};
static const char *const lp_names[] = {"simplex", "barrier", "auto", NULL};
static const tk_mcf_lp_t lp_ids[] = {TK_MCF_LP_SIMPLEX, TK_MCF_LP_BARRIER, TK_MCF_LP_AUTO};

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"routing", required_argument, NULL, 'r'},
        {"pattern", required_argument, NULL, 'P'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"make", required_argument, NULL, 'm'},
        {"seed", required_argument, NULL, 's'},
        {"method", required_argument, NULL, OPT_METHOD},
        {"lp", required_argument, NULL, OPT_LP},
        {"eps", required_argument, NULL, OPT_EPS},
        {"batch", required_argument, NULL, OPT_BATCH},
        {"time-limit", required_argument, NULL, OPT_TLIM},
        {"max-paths", required_argument, NULL, OPT_MAXPATHS},
        {"links", no_argument, NULL, OPT_LINKS},
        {"no-presolve", no_argument, NULL, OPT_NOPRESOLVE},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    cli_shard_args("topo-mcf", &argc, &argv, ":hr:P:m:s:o:", longopts, usage);
    memset(a, 0, sizeof *a);
    tk_mcf_opts_init(&a->opts);
    a->seed = 1;
    a->max_paths = 100000;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hr:P:m:s:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            a->routing = optarg;
            break;
        case 'P':
            if (a->npfile + a->nmake >= MAX_PATTERNS)
                cli_usage_fail(usage, "at most %d patterns", MAX_PATTERNS);
            a->pfile[a->npfile++] = optarg;
            break;
        case OPT_FORCE:
            a->force = 1;
            break;
        case 'm':
            if (a->npfile + a->nmake >= MAX_PATTERNS)
                cli_usage_fail(usage, "at most %d patterns", MAX_PATTERNS);
            a->make[a->nmake++] = optarg;
            break;
        case 's':
            a->seed = cli_u64_arg("--seed", optarg);
            break;
        case OPT_METHOD:
            a->opts.method = method_ids[cli_choice_arg("--method", optarg, method_names)];
            break;
        case OPT_LP:
            a->opts.lp = lp_ids[cli_choice_arg("--lp", optarg, lp_names)];
            break;
        case OPT_EPS:
            a->opts.eps = cli_double_arg("--eps", optarg, 0, 0.5, CLI_GT_MIN);
            break;
        case OPT_BATCH:
            a->opts.batch = cli_int_arg("--batch", optarg, 1, 1 << 20);
            break;
        case OPT_TLIM:
            a->opts.time_limit = cli_double_arg("--time-limit", optarg, 0, 1e9, CLI_GT_MIN);
            break;
        case OPT_MAXPATHS:
            a->max_paths = (uint64_t)cli_int_arg("--max-paths", optarg, 1, INT64_MAX);
            break;
        case OPT_LINKS:
            a->links = 1;
            break;
        case OPT_NOPRESOLVE:
            a->opts.no_presolve = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case OPT_PROGRESS:
            a->progress = 1;
            break;
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    if (a->routing) {
        tk_error_t err;
        tk_error_clear(&err);
        if (tk_route_parse(a->routing, &a->rspec, &err) != TK_OK)
            cli_usage_fail(usage, "-r: %s", err.msg);
        if (a->opts.method == TK_MCF_APPROX)
            cli_usage_fail(usage, "--method approx is for unrestricted routing only (no -r)");
    }
    a->opts.links = a->links;
    a->opts.threads = a->threads;
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
    for (int i = 0; i < a->npfile; i++)
        cli_stdin_once(usage, "-P", "pattern", a->pfile[i], a->inputs, a->ninputs);
    if (a->force && !a->npfile)
        cli_usage_fail(usage, "--force needs -P");
}

/* Results of one graph and pattern, computed before anything is printed. */
typedef struct result {
    const char *pattern;
    tk_mcf_result_t r;
} result_t;

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->links)
        fputs("name\trouting\tpattern\ttail\thead\tclass\tload\tdual\n", fp);
    else
        fputs("name\trouting\tpattern\ttheta\tthroughput\tupper_bound\tgap\tmethod\ttime\tstatus\n",
              fp);
}

/* tail head class load dual of the i-th saturated link. */
static void link_cells(cli_row_t *row, const tk_graph_t *g, const tk_mcf_result_t *r, int64_t i)
{
    int64_t arc = r->sat_arc[i];

    cli_cell_int(row, "tail", cli_arc_tail(g, arc), 0);
    cli_cell_int(row, "head", g->head[arc], 0);
    cli_cell_text(row, "class", g->class_name[g->cls ? g->cls[arc] : 0]);
    cli_cell_double(row, "load", r->sat_load[i]);
    cli_cell_double(row, "dual", r->sat_dual[i]);
}

/* optimal (exact), converged (approx, gap <= eps) or time-limit (approx
 * stopped by --time-limit: theta and upper_bound are still certified). */
static const char *status_of(const tk_mcf_result_t *r)
{
    if (r->stopped)
        return "time-limit";
    return r->method == TK_MCF_EXACT ? "optimal" : "converged";
}

/* name routing pattern: the first cells of every row. */
static void key_cells(cli_row_t *row, const args_t *a, const char *name, const result_t *res)
{
    cli_cell_text(row, "name", name);
    cli_cell_text(row, "routing", a->routing ? a->rspec.text : "-");
    cli_cell_text(row, "pattern", res->pattern);
}

/* The row of one graph and pattern (TSV), its JSON object (with the solver's
 * work and, with --links, the saturated links), or with --links in TSV one
 * row per saturated link. */
static void print_result(FILE *fp, const args_t *a, const tk_graph_t *g, const char *name,
                         const result_t *res)
{
    const tk_mcf_result_t *r = &res->r;
    cli_row_t row;

    if (a->links && !a->json) {
        for (int64_t i = 0; i < r->nsat; i++) {
            cli_row_begin(&row, fp, 0);
            key_cells(&row, a, name, res);
            link_cells(&row, g, r, i);
            cli_row_end(&row);
        }
        return;
    }
    cli_row_begin(&row, fp, a->json);
    key_cells(&row, a, name, res);
    cli_cell_double(&row, "theta", r->theta);
    cli_cell_double(&row, "throughput", tk_throughput(r->theta, 1.0));
    cli_cell_double(&row, "upper_bound", r->upper);
    cli_cell_double(&row, "gap", r->gap);
    cli_cell_text(&row, "method", tk_mcf_method_name(r->method));
    if (!a->json) {
        char secs[32];
        snprintf(secs, sizeof secs, "%.3f", r->seconds);
        cli_cell_num(&row, "time", secs);
        cli_cell_text(&row, "status", status_of(r));
        cli_row_end(&row);
        return;
    }
    cli_cell_double(&row, "time", r->seconds);
    cli_cell_text(&row, "status", status_of(r));
    cli_cell_int(&row, "iterations", r->iterations, 0);
    if (r->method == TK_MCF_APPROX)
        cli_cell_int(&row, "regrown", r->regrown, 0);
    if (r->method == TK_MCF_EXACT) {
        cli_cell_int(&row, "rounds", r->rounds, 0);
        cli_cell_text(&row, "lp", r->no_lp ? "none" : r->barrier ? "barrier" : "simplex");
    }
    if (a->links) {
        cli_cell_open(&row, "links", '[');
        for (int64_t i = 0; i < r->nsat; i++) {
            cli_cell_open(&row, NULL, '{');
            link_cells(&row, g, r, i);
            cli_cell_close(&row);
        }
        cli_cell_close(&row);
    }
    cli_row_end(&row);
}

/* Name the graph in an error that names nothing (truncating quietly). */
static void set_where(tk_error_t *err, const char *name)
{
    size_t n = strlen(name);
    if (err->where[0])
        return;
    if (n >= sizeof err->where)
        n = sizeof err->where - 1;
    memcpy(err->where, name, n);
    err->where[n] = 0;
}

/* Under MPI (several ranks): the approximation's first trees (one per
 * source, independent) in blocks of sources handed out dynamically
 * (cli_mpi_units); every rank receives every block's distances and sums
 * alpha in source order, as one process would, then runs the (sequential)
 * phases itself. */
typedef struct first_mpi {
    const tk_graph_t *g;
    const tk_swdemand_t *d;
    int64_t block;
    int threads;
    double alpha;
} first_mpi_t;

static void first_range(const first_mpi_t *m, int64_t b, tk_id_t *lo, tk_id_t *hi)
{
    int64_t l = b * m->block, h = l + m->block < m->g->n ? l + m->block : m->g->n;
    *lo = (tk_id_t)l;
    *hi = (tk_id_t)h;
}

static tk_status_t first_block(void *ctx, int64_t b, FILE *fp, tk_error_t *err)
{
    first_mpi_t *m = ctx;
    tk_id_t lo, hi;
    first_range(m, b, &lo, &hi);
    size_t k = (size_t)(m->d->off[hi] - m->d->off[lo]);
    double *dist = tk_malloc_array(k + 1, sizeof *dist);
    if (!dist)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (first trees)");
    tk_status_t st = tk_mcf_approx_first(m->g, m->d, lo, hi, m->threads, dist, err);
    if (st == TK_OK && fwrite(dist, sizeof *dist, k, fp) != k)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (first trees)");
    free(dist);
    return st;
}

static tk_status_t first_take(void *ctx, int64_t b, const unsigned char *p, size_t len,
                              tk_error_t *err)
{
    first_mpi_t *m = ctx;
    tk_id_t lo, hi;
    first_range(m, b, &lo, &hi);
    size_t k = (size_t)(m->d->off[hi] - m->d->off[lo]);
    if (len != k * sizeof(double))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "first trees, block %lld: bad result length",
                            (long long)b);
    double *dist = tk_malloc_array(k + 1, sizeof *dist);
    if (!dist)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (first trees)");
    if (len) /* a block without demands may come with no bytes at all */
        memcpy(dist, p, len);
    tk_mcf_approx_first_add(m->d, lo, hi, dist, &m->alpha);
    free(dist);
    return TK_OK;
}

/* opts.first_alpha of demands d over the MPI ranks. */
static tk_status_t first_ranks(const tk_graph_t *g, const tk_swdemand_t *d, tk_mcf_opts_t *o,
                               tk_error_t *err)
{
    first_mpi_t m = {g, d, 0, o->threads > 0 ? o->threads : cli_threads(), 0};
    m.block = 4 * (int64_t)m.threads;
    int64_t units = ((int64_t)g->n + m.block - 1) / m.block;
    /* rounds of at most 2^23 distances (64 MiB) gathered at once */
    int64_t nnz = d->off[g->n], round = nnz > 0 ? ((int64_t)1 << 23) * units / nnz : units;
    cli_units_t job = {units, round > 0 ? round : 1, first_block, first_take, &m, 1, 0};
    tk_status_t st = cli_mpi_units(&job, err);
    if (st == TK_OK)
        o->first_alpha = m.alpha;
    return st;
}

/* Under MPI: the approximation's time limit as rank 0's clock has it. */
static int time_agree(void *ctx, int over)
{
    (void)ctx;
    return cli_mpi_same(over);
}

/* Under MPI (several ranks): each batch's trees (all grown on the same
 * lengths, which every rank holds alike) in blocks of sources handed out
 * dynamically (cli_mpi_units); every rank receives every tree's bytes and
 * routes the batch itself, as one process would. */
typedef struct batch_mpi {
    tk_mcf_batch_t *b;
    int threads;
    int64_t block;
} batch_mpi_t;

static tk_status_t batch_block(void *ctx, int64_t u, FILE *fp, tk_error_t *err)
{
    batch_mpi_t *m = ctx;
    int64_t lo = u * m->block, n = tk_mcf_batch_sources(m->b);
    int64_t hi = lo + m->block < n ? lo + m->block : n;
    tk_status_t st = tk_mcf_batch_grow(m->b, lo, hi, m->threads, err);
    for (int64_t i = lo; i < hi && st == TK_OK; i++) {
        const void *p;
        uint64_t len = tk_mcf_batch_tree(m->b, i, &p);
        if (fwrite(&len, sizeof len, 1, fp) != 1 || fwrite(p, 1, len, fp) != len)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (batch trees)");
    }
    return st;
}

static tk_status_t batch_take(void *ctx, int64_t u, const unsigned char *p, size_t len,
                              tk_error_t *err)
{
    batch_mpi_t *m = ctx;
    int64_t lo = u * m->block, n = tk_mcf_batch_sources(m->b);
    int64_t hi = lo + m->block < n ? lo + m->block : n;
    for (int64_t i = lo; i < hi; i++) {
        uint64_t k;
        const void *have;
        if (len < sizeof k)
            break;
        memcpy(&k, p, sizeof k);
        if (k > len - sizeof k)
            break;
        /* the rank that grew the tree has it already */
        tk_status_t st = tk_mcf_batch_tree(m->b, i, &have)
                             ? TK_OK
                             : tk_mcf_batch_set(m->b, i, p + sizeof k, k, err);
        if (st != TK_OK)
            return st;
        p += sizeof k + k;
        len -= sizeof k + k;
        if (i + 1 == hi && len == 0)
            return TK_OK;
    }
    return tk_error_set(err, TK_EINVAL, NULL, 0, "batch trees, block %lld: bad result length",
                        (long long)u);
}

static tk_status_t batch_ranks(void *ctx, tk_mcf_batch_t *b, tk_error_t *err)
{
    batch_mpi_t m = {b, *(const int *)ctx, 0};
    m.block = m.threads;
    int64_t n = tk_mcf_batch_sources(b);
    cli_units_t job = {(n + m.block - 1) / m.block, 0, batch_block, batch_take, &m, 1, 0};
    return cli_mpi_units_dealt(&job, err);
}

/* One graph and one pattern (index k: files first, then --make). */
static int solve_one(args_t *a, const tk_graph_t *g, const tk_router_t *router, int k,
                     result_t *res, tk_error_t *err)
{
    tk_swdemand_t d;
    tk_pattern_t *made = NULL;
    const tk_pattern_t *p = NULL;
    tk_mcf_opts_t o = a->opts;
    tk_status_t st;

    memset(&d, 0, sizeof d);
    res->pattern = "uniform";
    if (k < a->npfile) {
        p = a->pat[k];
        res->pattern = a->patname[k];
        st = tk_pattern_bind(a->pat[k], g, a->force ? TK_PATTERN_FORCE : 0, a->pfile[k], err);
        if (st != TK_OK)
            return st;
    } else if (k < a->npfile + a->nmake) {
        char buf[1024], *w[64];
        int nw;
        snprintf(buf, sizeof buf, "%s", a->make[k - a->npfile]);
        nw = cli_split_words(buf, w, 64);
        if (nw == 0)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "-m: empty pattern description");
        st = tk_pattern_make(g, w[0], nw - 1, w + 1, a->seed, a->threads, &made, err);
        if (st != TK_OK)
            return st;
        p = made;
        res->pattern = a->make[k - a->npfile];
    }
    if (p) {
        st = tk_pattern_to_switch(p, g, &d, err);
        if (st != TK_OK) {
            if (k < a->npfile) { /* name the pattern file, whatever the library said */
                err->where[0] = 0;
                set_where(err, a->pfile[k]);
            }
            tk_pattern_free(made);
            return st;
        }
        o.server_limits = p->level == TK_LEVEL_SERVER;
    } else {
        st = tk_mcf_uniform(g, a->opts.mem_limit, &d, err);
        if (st != TK_OK)
            return st;
        /* the same pattern as -m uniform: server level where servers exist */
        o.server_limits = tk_graph_total_servers(g) > 0;
    }
    /* MPI: the first trees over the ranks (every rank agrees first that
     * every rank has its demands) */
    if (!router && o.method == TK_MCF_APPROX && cli_mpi_size() > 1) {
        st = cli_mpi_agree(TK_OK, err, 0);
        if (st == TK_OK)
            st = first_ranks(g, &d, &o, err);
        if (st != TK_OK) {
            tk_swdemand_destroy(&d);
            tk_pattern_free(made);
            return st;
        }
    }
    /* MPI: every batch's trees over the ranks; rank 0's clock says when
     * the time limit is reached */
    int threads = o.threads > 0 ? o.threads : cli_threads();
    if (!router && cli_mpi_size() > 1) {
        o.grow = batch_ranks;
        o.grow_ctx = &threads;
        o.agree = time_agree;
    }
    if (router)
        st = tk_mcf_solve_paths(router, &d, a->max_paths, &o, &res->r, err);
    else
        st = tk_mcf_solve(g, &d, &o, &res->r, err);
    tk_swdemand_destroy(&d);
    tk_pattern_free(made);
    return st;
}

/* What every pattern of a graph needs first: the connectivity check
 * (topokit(7): a graph that is not connected is an error, theta would be
 * 0 for any pattern with a pair in two components), the router of -r and
 * the progress meter. */
static tk_status_t graph_prepare(args_t *a, const tk_graph_t *g, const char *name,
                                 tk_router_t **router, tk_error_t *err)
{
    tk_status_t st = tk_check_connected(g, err);
    if (st == TK_OK && a->routing)
        st = tk_router_new(g, &a->rspec, a->threads, a->opts.mem_limit, router, err);
    if (st == TK_OK)
        a->opts.progress = cli_meter(name);
    return st;
}

/* --shard I/P and its merge (topokit(7) SCALING): the unit of work is an
 * instance, one graph under one pattern; a graph's instances are the
 * units of a dealt unit job (cli_units_t.dealt), so the k-th instance of
 * the run is shard k mod P's whatever the graphs and patterns.  A unit's
 * bytes are its rows as printed; a shard prepares a graph (check, router)
 * only when it has one of its instances, and records a failure in the
 * unit that met it, so the merge reports it where the single run does. */
typedef struct inst {
    args_t *a;
    const tk_graph_t *g;
    const char *name;
    int prepared;
    tk_status_t st; /* graph_prepare's status and error */
    tk_error_t err;
    tk_router_t *router;
    FILE *rows; /* the merge: the rows taken */
} inst_t;

static tk_status_t inst_run(void *ctx, int64_t k, FILE *fp, tk_error_t *err)
{
    inst_t *c = ctx;
    int nres = c->a->npfile + c->a->nmake ? c->a->npfile + c->a->nmake : 1;
    result_t res;

    if (!c->prepared) {
        c->prepared = 1;
        tk_error_clear(&c->err);
        c->st = graph_prepare(c->a, c->g, c->name, &c->router, &c->err);
    }
    if (c->st != TK_OK) {
        *err = c->err;
        return c->st;
    }
    memset(&res, 0, sizeof res);
    cli_progress("%s: pattern %d of %d: solving", c->name, (int)k + 1, nres);
    tk_status_t st = solve_one(c->a, c->g, c->router, (int)k, &res, err);
    if (st == TK_OK) {
        cli_progress("%s: %s: theta in [%.6g, %.6g] (%s, %.3f s)", c->name, res.pattern,
                     res.r.theta, res.r.upper, status_of(&res.r), res.r.seconds);
        print_result(fp, c->a, c->g, c->name, &res);
    }
    tk_mcf_result_destroy(&res.r);
    return st;
}

static tk_status_t inst_take(void *ctx, int64_t k, const unsigned char *p, size_t len,
                             tk_error_t *err)
{
    inst_t *c = ctx;
    (void)k;
    if (len && fwrite(p, 1, len, c->rows) != len)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (rows)");
    return TK_OK;
}

/* A graph's row under --shard (nothing printed) or topo-merge (its rows
 * from the shards, printed as the single run prints them). */
static int shard_row(args_t *a, FILE *out, const tk_graph_t *g, const char *name)
{
    int np = a->npfile + a->nmake;
    inst_t c = {a, g, name, 0, TK_OK, {0}, NULL, NULL};
    char *buf = NULL;
    size_t len = 0;
    tk_error_t err;
    tk_status_t st = TK_OK;

    tk_error_clear(&err);
    /* the -P files in the job's fingerprint, as read (before any bind) */
    for (int k = 0; k < a->npfile; k++) {
        const tk_pattern_t *p = a->pat[k];
        int64_t w[3] = {p->level, p->endpoints, a->plen[k]};
        cli_shard_note(w, sizeof w);
        cli_shard_note(p->spec, strlen(p->spec));
        cli_shard_note(p->topology, strlen(p->topology));
        if (a->plen[k] > 0)
            cli_shard_note(a->pread[k], (size_t)a->plen[k] * sizeof *a->pread[k]);
    }
    if (cli_shard_merging() && !(c.rows = open_memstream(&buf, &len)))
        st = tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory (rows)");
    cli_units_t job = {np ? np : 1, 0, inst_run, inst_take, &c, 0, 1};
    if (st == TK_OK)
        st = cli_mpi_units(&job, &err);
    if (c.rows && fclose(c.rows) != 0 && st == TK_OK)
        st = tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory (rows)");
    tk_router_free(c.router);
    if (st != TK_OK) {
        set_where(&err, name);
        cli_error(&err);
    } else if (cli_shard_merging()) {
        print_header(out, a);
        fwrite(buf, 1, len, out);
    }
    free(buf);
    return st != TK_OK;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    args_t *a = ctx;
    int np = a->npfile + a->nmake, nres = np ? np : 1, failed = 0;
    result_t res[MAX_PATTERNS];
    tk_router_t *router = NULL;
    char name[1024];
    tk_error_t err;
    tk_status_t st;

    cli_graph_name(g, input, index, name, sizeof name);
    if (cli_shard_parts() > 0)
        return shard_row(a, out, g, name);
    tk_error_clear(&err);
    memset(res, 0, sizeof res);
    st = graph_prepare(a, g, name, &router, &err);
    for (int k = 0; k < nres && st == TK_OK; k++) {
        cli_progress("%s: pattern %d of %d: solving", name, k + 1, nres);
        st = solve_one(a, g, router, k, &res[k], &err);
        /* MPI: every rank goes on to the next pattern, or none does */
        st = cli_mpi_agree(st, &err, 0);
        if (st == TK_OK)
            cli_progress("%s: %s: theta in [%.6g, %.6g] (%s, %.3f s)", name, res[k].pattern,
                         res[k].r.theta, res[k].r.upper, status_of(&res[k].r), res[k].r.seconds);
    }
    if (cli_mpi_agree(st, &err, 1) != TK_OK) { /* MPI: every rank stops */
        set_where(&err, name);
        cli_error(&err);
        failed = 1;
    }
    if (!failed) {
        print_header(out, a);
        for (int k = 0; k < nres; k++)
            print_result(out, a, g, name, &res[k]);
    }
    for (int k = 0; k < nres; k++)
        tk_mcf_result_destroy(&res[k].r);
    tk_router_free(router);
    return failed;
}

static void table_header(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

static int run(args_t *a)
{
    uint64_t mem_limit = cli_mem_limit();
    int rc;

    a->opts.mem_limit = mem_limit;
    for (int k = 0; k < a->npfile; k++) {
        if (cli_read_pattern(a->pfile[k], &a->pat[k]) != 0)
            return CLI_EXIT_DATA;
        a->patname[k] = a->pat[k]->spec[0] ? a->pat[k]->spec : a->pfile[k];
        a->plen[k] = a->pat[k]->len;
        if (cli_shard_parts() > 0 && a->plen[k] > 0) {
            size_t bytes = (size_t)a->plen[k] * sizeof *a->pread[k];
            if (!(a->pread[k] = malloc(bytes))) {
                fprintf(stderr, "topo-mcf: %s: out of memory\n", a->pfile[k]);
                return CLI_EXIT_DATA;
            }
            memcpy(a->pread[k], a->pat[k]->d, bytes);
        }
    }
    cli_table_t t = {a->output, a->ninputs, a->inputs, mem_limit, table_row, table_header, a};
    rc = cli_run_table(&t);
    for (int k = 0; k < a->npfile; k++) {
        tk_pattern_free(a->pat[k]);
        free(a->pread[k]);
    }
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-mcf");
    parse_args(argc, argv, &a);
    if (a.threads)
        cli_set_threads(a.threads);
    cli_progress_enable(a.progress);
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
