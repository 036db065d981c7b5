/*
 * topo-bisect - bisection bandwidth of every graph of the inputs, bounded
 * from both sides: the spectral lower bound lambda2 floor(n/2) ceil(n/2) / n
 * and a refined balanced cut; the adjacency spectral gap against the
 * Ramanujan bound.  See topo-bisect(1).
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
    "topo-bisect [--json] [--solver auto|dense|lanczos|cholmod] [--tol X] [--symmetrize]\n"
    "                   [--allow-disconnected] [--threads N] [-s SEED] [--progress]\n"
    "                   [-o FILE] [FILE...]";

typedef struct args {
    int json;              /* --json                                    */
    tk_spectral_opts_t so; /* solver, seed, tol, symmetrize, disconnected */
    int progress;          /* --progress                                */
    int threads;           /* --threads N (0 when not given)            */
    const char *output;    /* -o FILE                                   */
    char **inputs;
    int ninputs;
    int header_done;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Bisection bandwidth of every undirected graph read from FILE (or standard\n"
          "input), bounded from both sides, one TSV row per graph with the columns\n"
          "  name n links bisection_lb bisection_ub gap normalized_lb normalized_ub\n"
          "  cut_links lambda2 multiplicity adj_lambda ramanujan ramanujan_ok method\n"
          "bisection_lb = lambda2 floor(n/2) ceil(n/2) / n (lambda2 of the capacity-\n"
          "weighted Laplacian); bisection_ub = a balanced cut (Fiedler median split\n"
          "refined by Fiduccia-Mattheyses); normalized = divided by n/2.\n\n"
          "Options:\n"
          "  --json                JSON Lines, one object per graph\n"
          "  --solver S            eigen-solver: auto (default), dense (GSL),\n"
          "                        lanczos, cholmod (shift-invert with a sparse\n"
          "                        Cholesky factor)\n"
          "  --tol X               relative residual tolerance of the iterative\n"
          "                        solvers (default 1e-10, 1e-15 <= X <= 1e-2)\n"
          "  --symmetrize          accept directed graphs: each arc counts as a link\n"
          "  --allow-disconnected  a disconnected graph gets lambda2 = 0 (else exit 1)\n"
          "  -s, --seed SEED       seed of starting vectors and tie-breaks (default 1)\n"
          "  --threads N           OpenMP threads (N >= 1); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error (directed, disconnected, n < 2, ...),\n"
          "2 usage error.  See topo-bisect(1).\n",
          stdout);
}

enum {
    OPT_JSON = 256,
    OPT_SOLVER,
    OPT_TOL,
    OPT_SYM,
    OPT_ALLOW,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_VERSION
};

static const char *const solver_names[] = {"auto", "dense", "lanczos", "cholmod", NULL};
static const tk_eig_solver_t solver_ids[] = {TK_EIG_AUTO, TK_EIG_DENSE, TK_EIG_LANCZOS,
                                             TK_EIG_CHOLMOD};

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, OPT_JSON},
        {"solver", required_argument, NULL, OPT_SOLVER},
        {"tol", required_argument, NULL, OPT_TOL},
        {"symmetrize", no_argument, NULL, OPT_SYM},
        {"allow-disconnected", no_argument, NULL, OPT_ALLOW},
        {"seed", required_argument, NULL, 's'},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    a->so.seed = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:s:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_SOLVER:
            a->so.solver = solver_ids[cli_choice_arg("--solver", optarg, solver_names)];
            break;
        case OPT_TOL:
            a->so.tol = cli_double_arg("--tol", optarg, 1e-15, 1e-2, 0);
            break;
        case OPT_SYM:
            a->so.symmetrize = 1;
            break;
        case OPT_ALLOW:
            a->so.allow_disconnected = 1;
            break;
        case 's':
            a->so.seed = cli_u64_arg("--seed", optarg);
            break;
        case OPT_PROGRESS:
            a->progress = 1;
            break;
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
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
    a->so.threads = a->threads;
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (!a->json)
        fputs("name\tn\tlinks\tbisection_lb\tbisection_ub\tgap\tnormalized_lb\tnormalized_ub"
              "\tcut_links\tlambda2\tmultiplicity\tadj_lambda\tramanujan\tramanujan_ok"
              "\tmethod\n",
              fp);
}

/* A double: missing ("-", null) when NaN; integers in full, never "2e+03". */
static void cell_num(cli_row_t *row, const char *name, double v)
{
    char buf[64];

    if (isnan(v))
        cli_cell_null(row, name);
    else if (v == floor(v) && fabs(v) < 9007199254740992.0) {
        snprintf(buf, sizeof buf, "%.0f", v);
        cli_cell_num(row, name, buf);
    } else {
        cli_cell_num(row, name, cli_format_double(buf, sizeof buf, v, 15));
    }
}

static void print_row(FILE *fp, const args_t *a, const char *name, const tk_bisect_result_t *r)
{
    double half = (double)r->n / 2;
    double vals[] = {r->lb, r->ub, r->ub - r->lb, r->lb / half, r->ub / half};
    static const char *keys[] = {"bisection_lb", "bisection_ub", "gap", "normalized_lb",
                                 "normalized_ub"};
    cli_row_t row;

    cli_row_begin(&row, fp, a->json);
    cli_cell_text(&row, "name", name);
    cli_cell_int(&row, "n", r->n, 0);
    cli_cell_int(&row, "links", r->links, 0);
    for (int i = 0; i < 5; i++)
        cell_num(&row, keys[i], vals[i]);
    cli_cell_int(&row, "cut_links", r->cut_links, 0);
    cell_num(&row, "lambda2", r->lambda2);
    cli_cell_int(&row, "multiplicity", r->multiplicity, 0);
    cell_num(&row, "adj_lambda", r->adj_lambda);
    cell_num(&row, "ramanujan", r->ramanujan);
    if (isnan(r->ramanujan))
        cli_cell_null(&row, "ramanujan_ok");
    else
        cli_cell_bool(&row, "ramanujan_ok", r->adj_lambda <= r->ramanujan + 1e-9);
    cli_cell_text(&row, "method", tk_eig_solver_name(r->solver));
    if (a->json) { /* the solver's work: JSON only */
        cli_cell_int(&row, "iterations", r->iterations, 0);
        cell_num(&row, "factor_nnz", r->factor_nnz);
        cell_num(&row, "factor_flops", r->factor_flops);
    }
    cli_row_end(&row);
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024];
    tk_bisect_result_t r;
    tk_error_t err;

    cli_graph_name(g, input, index, name, sizeof name);
    cli_progress("%s: graph %ld: n=%" PRId64 ": bisection", input, index, (int64_t)g->n);
    tk_error_clear(&err);
    if (tk_bisect(g, &a->so, &r, &err) != TK_OK) {
        tk_bisect_result_destroy(&r);
        cli_graph_error(input, index, &err);
        return 1;
    }
    print_header(out, a);
    print_row(out, a, name, &r);
    if (!r.connected)
        cli_warnf("%s: graph %ld (%s) is not connected: lambda2 = 0", input, index, name);
    tk_bisect_result_destroy(&r);
    return 0;
}

/* cli_run_table callbacks. */
static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    return one_graph(out, ctx, g, input, index);
}

static void table_header(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

static int run(args_t *a)
{
    uint64_t mem_limit = cli_mem_limit();

    cli_set_threads(a->threads);
    cli_progress_enable(a->progress);
    /* A quarter of the memory limit, at most 512 MiB, for a CHOLMOD factor
     * chosen automatically (TOPOKIT_MEMORY_LIMIT lowers it). */
    if (mem_limit && mem_limit / 4 < ((uint64_t)512 << 20))
        a->so.mem_budget = mem_limit / 4 ? mem_limit / 4 : 1;
    cli_table_t t = {a->output, a->ninputs, a->inputs, mem_limit, table_row, table_header, a};

    return cli_run_table(&t);
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    cli_gsl_errors_off();
    parse_args(argc, argv, &a);
    return run(&a);
}
