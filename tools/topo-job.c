/*
 * topo-job - place jobs on a topology's servers and write the server-level
 * pattern of their applications' traffic.  See topo-job(1).
 *
 *   topo-job -j SPEC [-j SPEC ...] [-s SEED] [--bytes] [--placement] [-o FILE] [TOPOLOGY]
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define USAGE                                                                                      \
    "topo-job -j SPEC [-j SPEC ...] [-s SEED] [--bytes] [--placement] [--form FORM]\n"             \
    "                [--threads N] [-o FILE] [TOPOLOGY]"

#define MAX_JOBS 1024

typedef struct args {
    const char *spec[MAX_JOBS];
    int njobs;
    const char *topology;
    uint64_t seed;
    int bytes;
    int placement;
    int threads;
    const char *output;
    tk_pattern_form_t form;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n"
           "Place jobs on the servers of TOPOLOGY (or standard input), in the order given,\n"
           "each server holding at most one rank, and write the pattern file of their\n"
           "traffic at server level (topokit-formats(5)).  A job SPEC is KEY=VALUE words:\n"
           "  j=J                     ranks (servers) of the job, J >= 2\n"
           "  place=consecutive       free servers in id order from start=S (default 0)\n"
           "  place=random            J free servers in a random order [-s]\n"
           "  place=spread            round-robin over the groups (Dragonfly)\n"
           "  place=file servers=FILE one server id per line, rank order\n"
           "  app=all-to-all          every rank sends S to every other (default)\n"
           "  app=stencil grid=PxQ[xR] [wrap=0|1]  nearest neighbours on the process\n"
           "                          grid (j defaults to its size; wrap: periodic)\n"
           "  app=ring-allreduce      2(J-1)/J S to the next rank\n"
           "  app=rd-allreduce        recursive doubling: S to each of log2 J partners\n"
           "                          (MPICH's fold when J is not a power of two)\n"
           "  app=perm                a random derangement of the ranks [-s]\n"
           "  app=file comm=FILE      lines 'RANK RANK BYTES'\n"
           "  bytes=S                 message size (default 1)\n"
           "  rate=X                  load of the job's busiest server, 0 < X <= 1\n\n"
           "Options:\n"
           "  -j, --job=SPEC     a job (repeat for several jobs)\n"
           "  -s, --seed=SEED    seed of place=random and app=perm (default 1)\n"
           "      --bytes        one scale for all jobs (bytes x rate): the busiest server\n"
           "                     of the machine sends or receives 1; default: every job's\n"
           "                     busiest server at its rate\n"
           "      --placement    print the table 'job rank server switch group' instead\n"
           "      --form=FORM    auto (default), explicit or aggregate (topo-pattern(1))\n"
           "      --threads=N    worker threads (the output never depends on it)\n"
           "  -o, --output=FILE  write FILE (atomically) instead of standard output\n"
           "  -h, --help         this help\n"
           "      --version      print the version\n\n"
           "Exit status: 0 success, 1 data error or a job that does not fit, 2 usage error.\n"
           "See topo-job(1).\n",
           USAGE);
}

enum { OPT_VERSION = 256, OPT_THREADS, OPT_BYTES, OPT_PLACEMENT, OPT_FORM };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"job", required_argument, NULL, 'j'},
        {"seed", required_argument, NULL, 's'},
        {"output", required_argument, NULL, 'o'},
        {"bytes", no_argument, NULL, OPT_BYTES},
        {"placement", no_argument, NULL, OPT_PLACEMENT},
        {"form", required_argument, NULL, OPT_FORM},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    a->seed = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hj:s:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
            if (a->njobs == MAX_JOBS)
                cli_usage_fail(USAGE, "-j: more than %d jobs", MAX_JOBS);
            a->spec[a->njobs++] = optarg;
            break;
        case 's':
            a->seed = cli_u64_arg("-s", optarg);
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_BYTES:
            a->bytes = 1;
            break;
        case OPT_PLACEMENT:
            a->placement = 1;
            break;
        case OPT_FORM:
            if (strcmp(optarg, "auto") == 0)
                a->form = TK_PATTERN_AUTO;
            else if (strcmp(optarg, "explicit") == 0)
                a->form = TK_PATTERN_EXPLICIT;
            else if (strcmp(optarg, "aggregate") == 0)
                a->form = TK_PATTERN_AGGREGATE;
            else
                cli_usage_fail(USAGE, "--form=%s: must be auto, explicit or aggregate", optarg);
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, USAGE, help);
        }
    }
    if (a->njobs == 0)
        cli_usage_fail(USAGE, "no job (-j SPEC)");
    if (optind < argc)
        a->topology = argv[optind++];
    if (optind < argc)
        cli_usage_fail(USAGE, "more than one TOPOLOGY operand ('%s')", argv[optind]);
}

/* Read exactly one graph from the topology operand; 0 ok. */
static int read_topology(const args_t *a, tk_graph_t **g)
{
    tk_error_t err;
    tk_reader_t *r = NULL;
    tk_graph_t *extra = NULL;
    const char *name;
    FILE *in = cli_open_input(a->topology, &name);
    int rc = 1;

    if (!in)
        return 1;
    tk_error_clear(&err);
    if (tk_reader_new(&r, in, name, TK_FMT_AUTO, cli_mem_limit(), &err) != TK_OK) {
        cli_error(&err);
        goto done;
    }
    tk_status_t st = tk_reader_next(r, g, &err);
    if (st == TK_EOF)
        cli_errorf("%s: no graph in input", name);
    else if (st != TK_OK)
        cli_error(&err);
    if (st != TK_OK)
        goto done;
    cli_warn_parallel(r, *g, name, 1);
    st = tk_reader_next(r, &extra, &err);
    if (st == TK_OK) {
        tk_graph_free(extra);
        cli_errorf("%s: more than one graph in input (jobs are placed on one topology)", name);
    } else if (st != TK_EOF) {
        cli_error(&err);
    }
    if (st != TK_EOF) {
        tk_graph_free(*g);
        *g = NULL;
        goto done;
    }
    rc = 0;
done:
    tk_reader_free(r);
    cli_close_input(in);
    return rc;
}

/* Parse every job and read its files; 0 ok, else the exit status. */
static int read_jobs(const args_t *a, const tk_graph_t *g, tk_job_t *jobs)
{
    tk_error_t err;
    int64_t nserv = 0;

    for (tk_id_t u = 0; u < g->n; u++)
        nserv += tk_graph_servers(g, u);
    tk_error_clear(&err);
    for (int k = 0; k < a->njobs; k++) {
        const char *name;
        FILE *fp;
        tk_status_t st = tk_job_parse(a->spec[k], &jobs[k], &err);
        if (st != TK_OK) {
            cli_errorf("-j '%s': %s", a->spec[k], err.msg);
            return st == TK_EINVAL || st == TK_ERANGE ? CLI_EXIT_USAGE : 1;
        }
        if (jobs[k].servers_path) {
            if (!(fp = cli_open_input(jobs[k].servers_path, &name)))
                return 1;
            st = tk_job_read_servers(fp, name, nserv, &jobs[k], &err);
            cli_close_input(fp);
            if (st != TK_OK) {
                cli_error(&err);
                return 1;
            }
        }
        if (jobs[k].comm_path) {
            if (!(fp = cli_open_input(jobs[k].comm_path, &name)))
                return 1;
            st = tk_job_read_comm(fp, name, &jobs[k], &err);
            cli_close_input(fp);
            if (st != TK_OK) {
                cli_error(&err);
                return 1;
            }
        }
    }
    return 0;
}

/* The group of switch u (-1 without groups). */
static int64_t group_of(const tk_graph_t *g, tk_id_t u)
{
    return g->group ? g->group[u] : -1;
}

static void print_placement(FILE *out, const tk_graph_t *g, const args_t *a, const tk_job_t *jobs,
                            int64_t **place)
{
    tk_id_t u = 0;
    int64_t *first = malloc(((size_t)g->n + 1) * sizeof *first);

    if (!first) {
        cli_errorf("out of memory");
        return;
    }
    first[0] = 0;
    for (u = 0; u < g->n; u++)
        first[u + 1] = first[u] + tk_graph_servers(g, u);
    fputs("job\trank\tserver\tswitch\tgroup\n", out);
    for (int k = 0; k < a->njobs; k++)
        for (int64_t r = 0; r < jobs[k].ranks; r++) {
            int64_t s = place[k][r];
            tk_id_t lo = 0, hi = g->n - 1;
            while (lo < hi) { /* the switch of server s */
                tk_id_t mid = lo + (hi - lo + 1) / 2;
                if (first[mid] <= s)
                    lo = mid;
                else
                    hi = mid - 1;
            }
            fprintf(out, "%d\t%" PRId64 "\t%" PRId64 "\t%" PRId32 "\t%" PRId64 "\n", k + 1, r, s,
                    (int32_t)lo, group_of(g, lo));
        }
    free(first);
}

static int run(const args_t *a)
{
    tk_graph_t *g = NULL;
    tk_job_t *jobs = NULL;
    tk_pattern_t *p = NULL;
    int64_t **place = NULL;
    tk_error_t err;
    cli_out_t out;
    int rc;

    cli_set_threads(a->threads);
    if (read_topology(a, &g) != 0)
        return 1;
    if (!(jobs = calloc((size_t)a->njobs, sizeof *jobs))) {
        cli_errorf("out of memory");
        tk_graph_free(g);
        return 1;
    }
    rc = read_jobs(a, g, jobs);
    tk_error_clear(&err);
    if (!rc && tk_jobs_pattern(g, jobs, a->njobs, a->seed, a->bytes ? TK_JOBS_BYTES : 0, &p, &place,
                               &err) != TK_OK) {
        cli_error(&err);
        rc = 1;
    }
    if (!rc && cli_out_open(&out, a->output) != 0)
        rc = 1;
    else if (!rc) {
        if (a->placement)
            print_placement(out.fp, g, a, jobs, place);
        else if (tk_pattern_write_form(out.fp, p, g, a->form, NULL, &err) != TK_OK) {
            cli_error(&err);
            rc = 1;
        }
        if (rc)
            cli_out_abort(&out);
        else if (cli_out_commit(&out) != 0)
            rc = 1;
    }
    for (int k = 0; k < a->njobs; k++) {
        if (place)
            free(place[k]);
        tk_job_destroy(&jobs[k]);
    }
    free(place);
    free(jobs);
    tk_pattern_free(p);
    tk_graph_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    return run(&a);
}
