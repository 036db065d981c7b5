/*
 * topo-medoid - the medoid of M random samples of a topology family in the
 * space (average distance, link use), as the Ant Mill paper (an adverse
 * traffic pattern for networks on random regular graphs) picks its
 * representative graphs, section 6.1.  See topo-medoid(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tk_antmill.h"
#include "tk_load.h"
#include "tk_pattern.h"
#include "tk_route.h"

static const char usage[] =
    "topo-medoid FAMILY KEY=VALUE ... --samples M [-s SEED] [-p SERVERS] [--threads N]\n"
    "                   [--progress] [--shard I/P] [-o FILE] [--table FILE]";

typedef struct args {
    const char *family;
    int nkv;
    char **kv;
    int64_t samples;
    uint64_t seed;
    int32_t servers;
    int servers_given;
    int threads;
    const char *output;
    const char *table;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Generates M samples of a randomized family (sample i with seed\n"
          "tk_mix64(SEED + i)), measures each one's average distance and link use\n"
          "(all-to-all minimal-routing maximum arc load / mean arc load), standardizes\n"
          "both and writes the medoid sample (least summed Euclidean distance to the\n"
          "others) in the native format.  --table writes the TSV\n"
          "  sample seed avg_distance link_use z_avg_distance z_link_use sum_distance medoid\n\n"
          "Options:\n"
          "  --samples M        number of samples (M >= 1, required)\n"
          "  -s, --seed SEED    base seed (default 1)\n"
          "  -p, --servers P    servers per switch of every sample\n"
          "  -o, --output FILE  the medoid graph (default stdout)\n"
          "  --table FILE       the per-sample table ('-' = stdout)\n"
          "  --threads N        OpenMP threads (N >= 1); results do not change\n"
          "  --progress         progress on stderr (percentage, rate, ETA)\n"
          "  --shard I/P        measure shard I of P of the samples only and write it\n"
          "                     to -o as a shard file; topo-merge(1) combines them\n"
          "  -h, --help         this help\n"
          "      --version      print the version\n\n"
          "Exit status: 0 success, 1 data or runtime error, 2 usage error.\n"
          "See topo-medoid(1).\n",
          stdout);
}

enum { OPT_SAMPLES = 256, OPT_TABLE, OPT_THREADS, OPT_PROGRESS, OPT_SHARD, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"samples", required_argument, NULL, OPT_SAMPLES},
        {"seed", required_argument, NULL, 's'},
        {"servers", required_argument, NULL, 'p'},
        {"table", required_argument, NULL, OPT_TABLE},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    a->seed = 1;
    cli_shard_args("topo-medoid", &argc, &argv, ":ho:s:p:", longopts, usage);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:s:p:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SAMPLES:
            a->samples = cli_int_arg("--samples", optarg, 1, 1000000);
            break;
        case 's':
            a->seed = cli_u64_arg("--seed", optarg);
            break;
        case 'p':
            a->servers = (int32_t)cli_int_arg("--servers", optarg, 0, INT32_MAX);
            a->servers_given = 1;
            break;
        case OPT_TABLE:
            a->table = optarg;
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case 'o':
            a->output = optarg;
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
    /* GNU getopt permutes: the operands FAMILY KEY=VALUE... end up last */
    if (optind >= argc)
        cli_usage_fail(usage, "missing FAMILY");
    if (!a->samples)
        cli_usage_fail(usage, "--samples M is required");
    a->family = argv[optind];
    a->kv = argv + optind + 1;
    a->nkv = argc - optind - 1;
}

typedef struct sample {
    uint64_t seed;
    double feat[2];
    int failed;
    tk_error_t err;
} sample_t;

static uint64_t sample_seed(uint64_t base, int64_t i)
{
    return tk_mix64(base + (uint64_t)i);
}

/* Features of one sample: average distance; link use = max / mean arc load
 * of the all-to-all demand under minimal routing. */
static tk_status_t features(const tk_graph_t *g, uint64_t mem, double *feat, tk_error_t *err)
{
    tk_dist_opts_t dopts;
    tk_dist_summary_t ds;
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_load_summary_t sum;
    double *load = NULL;
    tk_status_t st;

    memset(&dopts, 0, sizeof dopts);
    memset(&sum, 0, sizeof sum);
    dopts.threads = 1;
    st = tk_dist_summary(g, &dopts, &ds, err);
    if (st)
        return st;
    feat[0] = ds.avg_distance;
    tk_dist_summary_destroy(&ds);
    if ((st = tk_route_parse("min", &spec, err)) || (st = tk_router_new(g, &spec, 1, mem, &r, err)))
        goto done;
    load = tk_malloc_array((size_t)(g->m > 0 ? g->m : 1), sizeof *load);
    if (!load) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if ((st = tk_load_all_to_all(r, NULL, 1, load, err)) ||
        (st = tk_load_summarize(g, load, &sum, err)))
        goto done;
    feat[1] = sum.avg_load[sum.nclasses] > 0
                  ? sum.max_load[sum.nclasses] / sum.avg_load[sum.nclasses]
                  : 1.0;
done:
    free(load);
    if (sum.max_load)
        tk_load_summary_destroy(&sum);
    tk_router_free(r);
    return st;
}

static tk_status_t make_sample(const args_t *a, uint64_t seed, uint64_t mem, tk_graph_t **g,
                               tk_error_t *err)
{
    tk_gen_opts_t o;
    memset(&o, 0, sizeof o);
    o.seed = seed;
    o.seed_given = 1;
    o.servers = a->servers;
    o.servers_given = a->servers_given;
    o.mem_limit = mem;
    o.threads = 1;
    return tk_generate(a->family, a->nkv, a->kv, &o, g, err);
}

/* The samples and what the medoid selection makes of them. */
typedef struct run {
    sample_t *s;
    double *x;    /* features, row-major (avg_distance, link_use)  */
    double *z;    /* standardized features                          */
    double *sumd; /* summed distance of each sample to the others   */
    int64_t med;  /* the medoid                                     */
} run_t;

/* Generate and measure every sample (in parallel: sample i uses its own
 * seed, so the result does not depend on the threads).  0, or 1 with the
 * first failed sample's error printed. */
static int measure(const args_t *a, uint64_t mem, run_t *r)
{
    tk_progress_t *meter = cli_meter(a->family);

    tk_progress_begin(meter, "samples", "samples", a->samples);
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1)
#endif
    for (int64_t i = 0; i < a->samples; i++) {
        tk_graph_t *gi = NULL;
        r->s[i].seed = sample_seed(a->seed, i);
        tk_error_clear(&r->s[i].err);
        if (make_sample(a, r->s[i].seed, mem, &gi, &r->s[i].err) ||
            features(gi, mem, r->s[i].feat, &r->s[i].err))
            r->s[i].failed = 1;
        tk_graph_free(gi);
        tk_progress_add(meter, 1);
    }
    tk_progress_end(meter);
    for (int64_t i = 0; i < a->samples; i++) {
        if (r->s[i].failed) {
            cli_error(&r->s[i].err);
            return 1;
        }
        r->x[2 * i] = r->s[i].feat[0];
        r->x[2 * i + 1] = r->s[i].feat[1];
    }
    return 0;
}

/* Under MPI (several ranks): the samples handed out dynamically
 * (cli_mpi_units); a sample's two features cross as their 16 bytes, and
 * every rank stores all of them in sample order, so every rank selects
 * the same medoid.  0, or 1 with the first failed
 * sample's error printed (by rank 0). */
typedef struct medoid_mpi {
    const args_t *a;
    uint64_t mem;
    run_t *r;
} medoid_mpi_t;

static tk_status_t sample_unit(void *ctx, int64_t i, FILE *fp, tk_error_t *err)
{
    medoid_mpi_t *m = ctx;
    tk_graph_t *gi = NULL;
    double feat[2];
    tk_status_t st = make_sample(m->a, sample_seed(m->a->seed, i), m->mem, &gi, err);
    if (st == TK_OK)
        st = features(gi, m->mem, feat, err);
    tk_graph_free(gi);
    if (st == TK_OK)
        fwrite(feat, sizeof feat, 1, fp);
    return st;
}

static tk_status_t sample_take(void *ctx, int64_t i, const unsigned char *p, size_t len,
                               tk_error_t *err)
{
    medoid_mpi_t *m = ctx;
    if (len != 2 * sizeof(double))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "sample %lld: bad result length",
                            (long long)i);
    memcpy(m->r->x + 2 * i, p, 2 * sizeof(double));
    return TK_OK;
}

static int measure_ranks(const args_t *a, uint64_t mem, run_t *r)
{
    medoid_mpi_t m = {a, mem, r};
    cli_units_t job = {a->samples, 0, sample_unit, sample_take, &m, 1, 0};
    tk_error_t err;
    tk_error_clear(&err);
    if (cli_mpi_agree(cli_mpi_units(&job, &err), &err, 1) != TK_OK) {
        cli_error(&err);
        return 1;
    }
    for (int64_t i = 0; i < a->samples; i++)
        r->s[i].seed = sample_seed(a->seed, i);
    return 0;
}

/* The --table rows. */
static void print_table(FILE *fp, const args_t *a, const run_t *r)
{
    fputs("sample\tseed\tavg_distance\tlink_use\tz_avg_distance\tz_link_use\tsum_distance\t"
          "medoid\n",
          fp);
    for (int64_t i = 0; i < a->samples; i++) {
        cli_row_t row;
        cli_row_begin(&row, fp, 0);
        cli_cell_int(&row, "sample", i, 0);
        cli_cell_u64(&row, "seed", r->s[i].seed);
        cli_cell_double(&row, "avg_distance", r->x[2 * i]);
        cli_cell_double(&row, "link_use", r->x[2 * i + 1]);
        cli_cell_double(&row, "z_avg_distance", r->z[2 * i]);
        cli_cell_double(&row, "z_link_use", r->z[2 * i + 1]);
        cli_cell_double(&row, "sum_distance", r->sumd[i]);
        cli_cell_bool(&row, "medoid", i == r->med);
        cli_row_end(&row);
    }
}

/* The medoid graph (-o) and the --table, both or neither. */
static int write_outputs(const args_t *a, const run_t *r, const tk_graph_t *g)
{
    cli_out_t out, tab;
    tk_error_t err;

    if (a->table) {
        if (cli_out_open(&tab, a->table))
            return 1;
        print_table(tab.fp, a, r);
    }
    if (cli_out_open(&out, a->output)) {
        if (a->table)
            cli_out_abort(&tab);
        return 1;
    }
    if (tk_write_graph(out.fp, g, TK_FMT_NATIVE, &err)) {
        cli_error(&err);
        cli_out_abort(&out);
        if (a->table)
            cli_out_abort(&tab);
        return 1;
    }
    return cli_out_commit(&out) || (a->table && cli_out_commit(&tab));
}

static int run(const args_t *a)
{
    uint64_t mem = cli_mem_limit();
    tk_graph_t *g = NULL;
    tk_error_t err;
    run_t r;
    int rc = CLI_EXIT_DATA;

    tk_error_clear(&err);
    if (!tk_family_find(a->family))
        cli_usage_fail(usage, "unknown family '%s'", a->family);
    /* A first generation checks the parameters (exit 2 for a malformed
     * command line, as topo-gen). */
    tk_status_t st = make_sample(a, sample_seed(a->seed, 0), mem, &g, &err);
    if (st == TK_EINVAL)
        cli_usage_fail(usage, "%s", err.msg);
    if (st) {
        cli_error(&err);
        return CLI_EXIT_DATA;
    }
    tk_graph_free(g);
    g = NULL;
    memset(&r, 0, sizeof r);
    r.s = calloc((size_t)a->samples, sizeof *r.s);
    r.x = calloc((size_t)a->samples * 2, sizeof *r.x);
    r.z = calloc((size_t)a->samples * 2, sizeof *r.z);
    r.sumd = calloc((size_t)a->samples, sizeof *r.sumd);
    if (!r.s || !r.x || !r.z || !r.sumd) {
        cli_errorf("out of memory");
        goto done;
    }
    /* --shard: the shard file is the output (-o); a merge checks that
     * every shard record was used before it writes anything. */
    if (cli_shard_open(a->output) != 0)
        goto done;
    if ((cli_units_distributed() ? measure_ranks : measure)(a, mem, &r))
        goto done;
    if (cli_shard_partial()) { /* the merge selects the medoid */
        rc = CLI_EXIT_OK;
        goto done;
    }
    if (cli_shard_table_end(0) != 0)
        goto done;
    if (tk_medoid_select(r.x, a->samples, 2, r.z, r.sumd, &r.med, &err) ||
        make_sample(a, r.s[r.med].seed, mem, &g, &err)) {
        cli_error(&err);
        goto done;
    }
    if (write_outputs(a, &r, g) == 0)
        rc = CLI_EXIT_OK;
done:
    tk_graph_free(g);
    free(r.s);
    free(r.x);
    free(r.z);
    free(r.sumd);
    return cli_shard_close(rc);
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-medoid");
    parse_args(argc, argv, &a);
    cli_set_threads(a.threads);
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
