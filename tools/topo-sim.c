/*
 * topo-sim - the flow-level simulator: max-min rates of a traffic pattern
 * routed by a routing model under an arbitration model, per offered load,
 * with fairness metrics.  See topo-sim(1) and topokit(7), SIMULATION MODEL.
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "topo-sim.h"

double sim_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char usage[] =
    "topo-sim [-r ROUTING] [-P FILE [--force] | -m 'KIND K=V...'] [-a fair|rr|transit]\n"
    "                [--rho R | --sweep A:B:STEP | --bisect RES | --curve]\n"
    "                [--split oblivious|independent]\n"
    "                [--coupled] [--no-aggregate] [--latency CLASS=L,...] [--per-server FILE]\n"
    "                [--flows FILE] [--check-another] [--max-sweeps N]\n"
    "                [--epochs N [--change E --then-make 'KIND K=V...']] [-s SEED] [--json]\n"
    "                [--trace FILE] [--threads N] [--progress] [--shard I/P] [-o FILE] [FILE...]\n"
    "       topo-sim (--workload FILE | --poisson [--sizes DIST] (--horizon T | --count N))\n"
    "                [-r ROUTING] [--rho R] [--buckets E,...] [--flows FILE]\n"
    "                [--write-workload FILE] [--verify] [-s SEED] [--json] [-o FILE] [FILE...]";

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Flow-level simulation of every graph read from FILE (or standard input): the\n"
          "max-min rates of a traffic pattern routed by a routing model under an\n"
          "arbitration model, at one offered load per server (--rho) or a sweep.  One TSV\n"
          "row per graph and offered load with the columns\n"
          "  name routing pattern arbitration rho offered accepted srv_min srv_max\n"
          "  srv_maxmin srv_cov srv_jain rtr_min rtr_max rtr_maxmin rtr_cov rtr_jain\n"
          "  min_served saturation hops latency iterations residual\n"
          "then util.C for every link class C of the graph and util.inject.\n\n"
          "Options:\n"
          "  -r, --routing MODEL   routing model (default min; topokit(7))\n"
          "  -P, --pattern FILE    pattern file (topo-pattern(1)), server or switch level\n"
          "      --force           use -P even if made for another topology\n"
          "  -m, --make 'KIND K=V' a pattern made for each graph as topo-pattern(1) makes\n"
          "                        it (default: uniform, without one flow per server pair)\n"
          "  -s, --seed SEED       seed of randomized --make patterns (default 1)\n"
          "  -a, --arbitration A   fair (default), rr or transit (topokit(7))\n"
          "      --rho R           offered load per server, 0 < R <= 1 (default 1)\n"
          "      --sweep A:B:STEP  one row per offered load A, A+STEP, ... <= B\n"
          "      --bisect RES      the saturation search: rho = 1, then bisection on rho\n"
          "                        for min_served >= 1 - 1e-6 and >= 0.99, each bracket\n"
          "                        to RES wide; one row per load solved, in order\n"
          "      --curve           fair: the exact accepted-versus-offered curve, one row\n"
          "                        'name rho accepted' per breakpoint on [0, 1]\n"
          "      --split S         oblivious (default: a flow is one variable over its\n"
          "                        paths) or independent (every path its own sub-flow)\n"
          "      --coupled         one variable per server (its pattern's proportions)\n"
          "      --no-aggregate    one variable per server-level flow\n"
          "      --latency C=L,... per-hop latency of link class C (default 1 each) for\n"
          "                        the zero-load latency column\n"
          "      --per-server FILE 'name server switch accepted' of the last load\n"
          "      --flows FILE      'src dst members demand rate bottleneck class' per\n"
          "                        class of interchangeable flows, of the last load\n"
          "      --check-another   rr, transit: look for a second equilibrium\n"
          "      --max-sweeps N    rr, transit: sweep limit (default 100000)\n"
          "      --epochs N        adaptive rules: N rows, one per epoch (one damped step\n"
          "                        of the iteration each) at the offered load --rho\n"
          "      --change E --then-make 'KIND K=V'\n"
          "                        from epoch E + 1 on, the pattern KIND (the split of\n"
          "                        the switch pairs both patterns have carries over)\n"
          "      --trace FILE      adaptive rules: one row per iteration of every solve\n"
          "                        (every epoch) to FILE (topo-sim(1), TRACE)\n"
          "Dynamic mode (flows that arrive and leave, fair arbitration; see DYNAMIC MODE\n"
          "in topo-sim(1)): one row per flow-size bucket with the columns\n"
          "  name routing workload lo hi flows fct_mean fct_p50 fct_p99 fct_max\n"
          "  slowdown_mean slowdown_p50 slowdown_p99 slowdown_max\n"
          "      --workload FILE   flows 'time src dst bytes' (topo-sim(1))\n"
          "      --poisson         Poisson arrivals per server at offered load --rho\n"
          "                        (default 0.5), destinations uniform\n"
          "      --sizes DIST      fixed:S (default fixed:1) or pareto:ALPHA:S (mean S)\n"
          "      --horizon T       arrivals before time T\n"
          "      --count N         the first N arrivals\n"
          "      --buckets E,...   size bucket edges (default: decades)\n"
          "      --write-workload FILE  the generated workload, to replay\n"
          "      --verify          check every re-solve against a solve from scratch\n"
          "      --json            JSON Lines, one object per row\n"
          "      --threads N       OpenMP threads for the routes; results do not change\n"
          "      --progress        progress messages on stderr\n"
          "      --shard I/P       solve shard I of P of the load points only and write\n"
          "                        it as a shard file; topo-merge(1) combines them\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error, 2 usage error.  See topo-sim(1).\n",
          stdout);
}

enum {
    OPT_RHO = 256,
    OPT_SWEEP,
    OPT_CURVE,
    OPT_SPLIT,
    OPT_COUPLED,
    OPT_NOAGG,
    OPT_LATENCY,
    OPT_PERSERVER,
    OPT_FLOWS,
    OPT_ANOTHER,
    OPT_SWEEPS,
    OPT_JSON,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_VERSION,
    OPT_WORKLOAD,
    OPT_POISSON,
    OPT_SIZES,
    OPT_HORIZON,
    OPT_COUNT,
    OPT_BUCKETS,
    OPT_WRITEWL,
    OPT_VERIFY,
    OPT_EPOCHS,
    OPT_CHANGE,
    OPT_THEN,
    OPT_SHARD,
    OPT_BISECT,
    OPT_TRACE
};
enum { OPT_FORCE = 512 };

static void parse_sweep(args_t *a, const char *s)
{
    char buf[256], *p[3];
    int k = 0;
    snprintf(buf, sizeof buf, "%s", s);
    p[k++] = buf;
    for (char *c = buf; *c && k < 3; c++)
        if (*c == ':') {
            *c = 0;
            p[k++] = c + 1;
        }
    if (k != 3)
        cli_arg_fail("--sweep", s, "must be A:B:STEP");
    a->rho_lo = cli_double_arg("--sweep", p[0], 0, 1, CLI_GT_MIN);
    a->rho_hi = cli_double_arg("--sweep", p[1], 0, 1, CLI_GT_MIN);
    a->rho_step = cli_double_arg("--sweep", p[2], 0, 1, CLI_GT_MIN);
    if (a->rho_hi < a->rho_lo)
        cli_arg_fail("--sweep", s, "B must be at least A");
    a->sweep = 1;
}

/* --latency C=L,...: the syntax (each item CLASS=L, L a number >= 0) is a
 * usage error; whether the classes exist is checked per graph. */
static void check_latency(const char *s)
{
    char buf[1024], *save = NULL;
    snprintf(buf, sizeof buf, "%s", s);
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        char why[CLI_WHY_MAX];
        double v;
        if (!eq || eq == tok)
            cli_arg_fail("--latency", s, "%s: must be CLASS=LATENCY", tok);
        if (cli_parse_double(eq + 1, 0, HUGE_VAL, 0, &v, why))
            cli_arg_fail("--latency", s, "%s: %s", tok, why);
    }
}

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"routing", required_argument, NULL, 'r'},
        {"pattern", required_argument, NULL, 'P'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"make", required_argument, NULL, 'm'},
        {"seed", required_argument, NULL, 's'},
        {"arbitration", required_argument, NULL, 'a'},
        {"rho", required_argument, NULL, OPT_RHO},
        {"sweep", required_argument, NULL, OPT_SWEEP},
        {"curve", no_argument, NULL, OPT_CURVE},
        {"split", required_argument, NULL, OPT_SPLIT},
        {"coupled", no_argument, NULL, OPT_COUPLED},
        {"no-aggregate", no_argument, NULL, OPT_NOAGG},
        {"latency", required_argument, NULL, OPT_LATENCY},
        {"per-server", required_argument, NULL, OPT_PERSERVER},
        {"flows", required_argument, NULL, OPT_FLOWS},
        {"check-another", no_argument, NULL, OPT_ANOTHER},
        {"max-sweeps", required_argument, NULL, OPT_SWEEPS},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {"workload", required_argument, NULL, OPT_WORKLOAD},
        {"poisson", no_argument, NULL, OPT_POISSON},
        {"sizes", required_argument, NULL, OPT_SIZES},
        {"horizon", required_argument, NULL, OPT_HORIZON},
        {"count", required_argument, NULL, OPT_COUNT},
        {"buckets", required_argument, NULL, OPT_BUCKETS},
        {"write-workload", required_argument, NULL, OPT_WRITEWL},
        {"verify", no_argument, NULL, OPT_VERIFY},
        {"epochs", required_argument, NULL, OPT_EPOCHS},
        {"change", required_argument, NULL, OPT_CHANGE},
        {"then-make", required_argument, NULL, OPT_THEN},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"bisect", required_argument, NULL, OPT_BISECT},
        {"trace", required_argument, NULL, OPT_TRACE},
        {NULL, 0, NULL, 0},
    };
    static const char *const arbs[] = {"fair", "rr", "transit", NULL};
    static const char *const splits[] = {"oblivious", "independent", NULL};
    int c, rho_given = 0;
    tk_error_t err;

    memset(a, 0, sizeof *a);
    a->routing = "min";
    a->rho_lo = a->rho_hi = 1;
    a->seed = 1;
    cli_shard_args("topo-sim", &argc, &argv, ":hr:P:m:s:a:o:", longopts, usage);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hr:P:m:s:a:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'r':
            a->routing = optarg;
            break;
        case 'P':
            a->pattern = optarg;
            break;
        case OPT_FORCE:
            a->force = 1;
            break;
        case 'm':
            a->make = optarg;
            break;
        case 's':
            a->seed = cli_u64_arg("-s", optarg);
            break;
        case 'a':
            a->arb = (tk_arb_t)cli_choice_arg("-a", optarg, arbs);
            break;
        case OPT_RHO:
            a->rho_lo = a->rho_hi = cli_double_arg("--rho", optarg, 0, 1, CLI_GT_MIN);
            rho_given = 1;
            break;
        case OPT_SWEEP:
            parse_sweep(a, optarg);
            break;
        case OPT_CURVE:
            a->curve = 1;
            break;
        case OPT_SPLIT:
            a->split = (tk_split_t)cli_choice_arg("--split", optarg, splits);
            break;
        case OPT_COUPLED:
            a->coupled = 1;
            break;
        case OPT_NOAGG:
            a->no_aggregate = 1;
            break;
        case OPT_LATENCY:
            a->latency = optarg;
            check_latency(optarg);
            break;
        case OPT_PERSERVER:
            a->per_server = optarg;
            break;
        case OPT_FLOWS:
            a->flows = optarg;
            break;
        case OPT_ANOTHER:
            a->check_another = 1;
            break;
        case OPT_SWEEPS:
            a->max_sweeps = cli_int_arg("--max-sweeps", optarg, 1, INT64_MAX);
            break;
        case OPT_JSON:
            a->json = 1;
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
        case OPT_WORKLOAD:
            a->workload = optarg;
            break;
        case OPT_POISSON:
            a->poisson = 1;
            break;
        case OPT_SIZES:
            a->sizes = optarg;
            break;
        case OPT_HORIZON:
            a->horizon = cli_double_arg("--horizon", optarg, 0, HUGE_VAL, CLI_GT_MIN);
            break;
        case OPT_COUNT:
            a->count = cli_int_arg("--count", optarg, 1, INT64_MAX);
            break;
        case OPT_BUCKETS:
            a->buckets = optarg;
            break;
        case OPT_WRITEWL:
            a->write_workload = optarg;
            break;
        case OPT_VERIFY:
            a->verify = 1;
            break;
        case OPT_EPOCHS:
            a->epochs = cli_int_arg("--epochs", optarg, 1, 1000000);
            break;
        case OPT_CHANGE:
            a->change = cli_int_arg("--change", optarg, 1, 1000000);
            break;
        case OPT_THEN:
            a->then_make = optarg;
            break;
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case OPT_BISECT:
            a->bisect = cli_double_arg("--bisect", optarg, 1e-6, 1, CLI_LT_MAX);
            break;
        case OPT_TRACE:
            if (strcmp(optarg, "-") == 0)
                cli_arg_fail("--trace", optarg,
                             "standard output carries the table: name a file "
                             "(/dev/stderr for standard error)");
            a->trace = optarg;
            break;
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    a->rho_given = rho_given;
    if (cli_shard_partial() && (a->workload || a->poisson || a->curve || a->epochs))
        cli_usage_fail(usage, "--shard splits the load points of --sweep or --rho (not "
                              "--curve, --epochs, --workload or --poisson)");
    if (a->workload || a->poisson) {
        if (a->workload && a->poisson)
            cli_usage_fail(usage, "--workload and --poisson both give the flows: use one");
        if (a->pattern || a->make || a->sweep || a->curve || a->coupled || a->per_server ||
            a->split != TK_SPLIT_OBLIVIOUS || a->check_another || a->latency)
            cli_usage_fail(usage, "dynamic mode (--workload, --poisson) takes no pattern, "
                                  "--sweep, --curve, --coupled, --split, --per-server, "
                                  "--check-another or --latency");
        if (a->arb != TK_ARB_FAIR)
            cli_usage_fail(usage, "dynamic mode shares rates by fair arbitration only");
        if (a->poisson && !a->horizon && !a->count)
            cli_usage_fail(usage, "--poisson needs --horizon T or --count N");
        if (a->workload && (a->sizes || a->horizon || a->count || a->write_workload || rho_given))
            cli_usage_fail(usage, "--workload gives the flows: no --sizes, --horizon, "
                                  "--count, --write-workload or --rho");
        if (!rho_given)
            a->rho_lo = a->rho_hi = 0.5;
    } else if (a->sizes || a->horizon || a->count || a->buckets || a->write_workload || a->verify) {
        cli_usage_fail(usage, "--sizes, --horizon, --count, --buckets, --write-workload and "
                              "--verify are options of dynamic mode (--workload, --poisson)");
    }
    if (a->pattern && a->make)
        cli_usage_fail(usage, "-P and -m both give the pattern: use one");
    if (a->force && !a->pattern)
        cli_usage_fail(usage, "--force needs -P");
    if (a->sweep && rho_given)
        cli_usage_fail(usage, "--rho and --sweep both give the offered load: use one");
    if (a->bisect && (a->sweep || rho_given || a->curve || a->epochs || a->workload || a->poisson ||
                      cli_units_distributed()))
        cli_usage_fail(usage, "--bisect chooses the offered loads itself, one after the "
                              "other: no --rho, --sweep, --curve, --epochs, dynamic mode "
                              "or --shard");
    if (a->curve && (a->sweep || rho_given))
        cli_usage_fail(usage, "--curve covers every offered load: no --rho or --sweep");
    if (a->curve && a->arb != TK_ARB_FAIR)
        cli_usage_fail(usage, "--curve needs -a fair (rr and transit: use --sweep)");
    if (a->coupled && a->split == TK_SPLIT_INDEPENDENT)
        cli_usage_fail(usage, "--coupled and --split independent exclude each other");
    if (a->check_another && a->arb == TK_ARB_FAIR)
        cli_usage_fail(usage, "--check-another needs -a rr or -a transit (fair has one "
                              "allocation)");
    tk_error_clear(&err);
    if (tk_adapt_is_rule(a->routing)) {
        if (tk_adapt_parse(a->routing, &a->adapt, &err) != TK_OK)
            cli_usage_fail(usage, "-r: %s", err.msg);
        a->adaptive = 1;
        a->rtext = a->adapt.text;
        if (a->workload || a->poisson)
            cli_usage_fail(usage,
                           "-r %s: dynamic mode routes obliviously (adaptive rules "
                           "are steady-state)",
                           a->routing);
        if (a->curve)
            cli_usage_fail(usage, "-r %s: --curve is for oblivious routing (use --sweep)",
                           a->routing);
        if (a->coupled || a->split == TK_SPLIT_INDEPENDENT)
            cli_usage_fail(usage,
                           "-r %s: adaptive rules split each flow themselves (no "
                           "--coupled, no --split independent)",
                           a->routing);
        if (a->check_another)
            cli_usage_fail(usage, "-r %s: --check-another is for oblivious routing", a->routing);
    } else {
        if (tk_route_parse(a->routing, &a->spec, &err) != TK_OK)
            cli_usage_fail(usage, "-r: %s", err.msg);
        if (tk_route_pathset_only(&a->spec))
            cli_usage_fail(usage,
                           "-r %s: the path set of an adaptive rule, for topo-vc and "
                           "topo-route: its even split is not how the rule weighs its paths "
                           "(simulate the rules: -r ugal-l, par, in-transit-mm, ...)",
                           a->spec.text);
        a->rtext = a->spec.text;
    }
    if (a->epochs && !a->adaptive)
        cli_usage_fail(usage, "--epochs needs an adaptive rule (-r ugal-l, ...)");
    if (a->trace && !a->adaptive)
        cli_usage_fail(usage, "--trace needs an adaptive rule (-r ugal-l, ...): oblivious "
                              "routing has no iteration to trace");
    if (a->trace && cli_shard_partial())
        cli_usage_fail(usage, "--trace writes one file in solve order: not with --shard");
    if (a->epochs && (a->sweep || a->curve))
        cli_usage_fail(usage, "--epochs runs at one offered load (--rho): no --sweep or --curve");
    if ((a->change != 0) != (a->then_make != NULL))
        cli_usage_fail(usage, "--change E and --then-make 'KIND K=V...' go together");
    if (a->change && !a->epochs)
        cli_usage_fail(usage, "--change needs --epochs");
    if (a->change && a->change >= a->epochs)
        cli_usage_fail(
            usage, "--change %" PRId64 ": the change must come before the last epoch (%" PRId64 ")",
            a->change, a->epochs);
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
    cli_stdin_once(usage, "-P", "pattern", a->pattern, a->inputs, a->ninputs);
}

/* Per-class latencies of --latency for graph g: lat[c], 1 by default.
 * Errors name the option and the class. */
static tk_status_t latencies(const args_t *a, const tk_graph_t *g, double *lat, tk_error_t *err)
{
    for (int c = 0; c < g->nclasses; c++)
        lat[c] = 1;
    if (!a->latency)
        return TK_OK;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", a->latency);
    for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
        char *eq = strchr(tok, '=');
        char why[CLI_WHY_MAX];
        double v;
        if (!eq)
            return tk_error_set(err, TK_EINVAL, "--latency", 0,
                                "--latency %s: must be CLASS=LATENCY", tok);
        *eq = 0;
        int c = tk_graph_class_index(g, tok);
        if (c < 0)
            return tk_error_set(err, TK_EINVAL, "--latency", 0,
                                "--latency %s: the topology has no link class '%s'", tok, tok);
        if (cli_parse_double(eq + 1, 0, HUGE_VAL, 0, &v, why))
            return tk_error_set(err, TK_EINVAL, "--latency", 0, "--latency %s=%s: %s", tok, eq + 1,
                                why);
        lat[c] = v;
    }
    return TK_OK;
}

static int class_shown(const tk_graph_t *g, int c)
{
    return !(c == 0 && strcmp(g->class_name[0], "-") == 0);
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->curve) {
        fputs("name\trouting\tpattern\trho\taccepted\n", fp);
        return;
    }
    fputs("name\trouting\tpattern\tarbitration\trho\toffered\taccepted\tsrv_min\tsrv_max\t"
          "srv_maxmin\tsrv_cov\tsrv_jain\trtr_min\trtr_max\trtr_maxmin\trtr_cov\trtr_jain\t"
          "min_served\tsaturation\thops\tlatency\titerations\tresidual",
          fp);
    if (a->adaptive)
        fputs("\tmin_share\tcost_min\tcontention", fp);
    if (a->adaptive && (a->adapt.rule == TK_ADAPT_DGB || a->adapt.rule == TK_ADAPT_EDGB))
        fputs("\tbias_mean\tgrad_max\touter", fp);
    if (a->epochs)
        fputs("\tepoch", fp);
    for (int i = 0; i < a->held.ncols; i++)
        fprintf(fp, "\tutil.%s", a->held.cols[i]);
    fputs("\tutil.inject\n", fp);
}

typedef struct graph_run {
    char name[1024];
    const char *pattern;
    const tk_graph_t *g;
    tk_sim_net_t *net;
    double lat[TK_MAX_CLASSES];
    double hops, latency, saturation;
    const double *hist;
    int32_t maxhops;
} graph_run_t;

/* What an adaptive solve changes per offered load. */
typedef struct point_extra {
    double hops, latency, saturation;
    tk_adapt_info_t ai;
    double *hist; /* hop distribution weights 0..maxhops (owned when
                     adaptive, else the graph's) */
    int32_t maxhops;
    const char *pattern; /* the pattern column (NULL: the graph's) */
} point_extra_t;

static void stats_cells(cli_row_t *row, const char *pre, const tk_fair_stats_t *s)
{
    char k[32];
    snprintf(k, sizeof k, "%s_min", pre);
    cli_cell_double(row, k, s->min);
    snprintf(k, sizeof k, "%s_max", pre);
    cli_cell_double(row, k, s->max);
    snprintf(k, sizeof k, "%s_maxmin", pre);
    cli_cell_double(row, k, s->maxmin);
    snprintf(k, sizeof k, "%s_cov", pre);
    cli_cell_double(row, k, s->cov);
    snprintf(k, sizeof k, "%s_jain", pre);
    cli_cell_double(row, k, s->jain);
}

/* One point's row: what it is printed from. */
typedef struct point_row {
    const args_t *a;
    const graph_run_t *gr;
    const tk_sim_point_t *p;
    const point_extra_t *x;
} point_row_t;

/* The cells before the per-class utilisations. */
static void point_cells(cli_row_t *row, const point_row_t *pr)
{
    const args_t *a = pr->a;
    const tk_sim_point_t *p = pr->p;
    const point_extra_t *x = pr->x;

    cli_cell_text(row, "name", pr->gr->name);
    cli_cell_text(row, "routing", a->rtext);
    cli_cell_text(row, "pattern", x->pattern ? x->pattern : pr->gr->pattern);
    cli_cell_text(row, "arbitration", tk_arb_name(a->arb));
    cli_cell_double(row, "rho", p->rho);
    {
        /* A mean of sums: 15 significant digits, so that the rounding of
         * the sums (0.6000000000000003 at rho 0.6) does not show. */
        char off[32];
        snprintf(off, sizeof off, "%.15g", p->offered);
        cli_cell_num(row, "offered", off);
    }
    cli_cell_double(row, "accepted", p->srv.mean);
    stats_cells(row, "srv", &p->srv);
    stats_cells(row, "rtr", &p->rtr);
    cli_cell_double(row, "min_served", p->min_served);
    cli_cell_double(row, "saturation", x->saturation);
    cli_cell_double(row, "hops", x->hops);
    cli_cell_double(row, "latency", x->latency);
    cli_cell_int(row, "iterations", p->info.iterations, 0);
    cli_cell_double(row, "residual", p->info.residual);
    if (a->adaptive) {
        cli_cell_double(row, "min_share", x->ai.min_share);
        cli_cell_double(row, "cost_min", x->ai.cost_min);
        cli_cell_int(row, "contention", x->ai.contention, 0);
        if (a->adapt.rule == TK_ADAPT_DGB || a->adapt.rule == TK_ADAPT_EDGB) {
            cli_cell_double(row, "bias_mean", x->ai.bias_mean);
            cli_cell_double(row, "grad_max", x->ai.grad_max);
            cli_cell_int(row, "outer", x->ai.outer, 0);
        }
    }
    if (a->epochs)
        cli_cell_int(row, "epoch", p->info.iterations, 0);
}

static void fixed_fill(cli_row_t *row, const void *x, const void *y, int c)
{
    (void)y;
    (void)c;
    point_cells(row, x);
}

/* Utilisation of class c (g->nclasses: the injection links). */
static void util_fill(cli_row_t *row, const void *x, const void *y, int c)
{
    (void)y;
    cli_cell_double(row, "util", ((const point_row_t *)x)->p->util[c]);
}

/* A TSV row is held (cli_held_t: the class columns are known at the
 * end); a JSON row is written at once, with every class of its graph. */
static int print_point(FILE *fp, args_t *a, const graph_run_t *gr, const tk_sim_point_t *p,
                       const point_extra_t *x)
{
    const tk_graph_t *g = gr->g;
    point_row_t pr = {a, gr, p, x};
    cli_row_t row;

    if (!a->json) {
        cli_held_row_t *h = cli_held_add(&a->held);
        if (!h || !(h->fixed = cli_held_render(fixed_fill, &pr, NULL, 0)) ||
            !(h->tail = cli_held_render(util_fill, &pr, NULL, g->nclasses)))
            return -1;
        for (int c = 0; c < g->nclasses; c++)
            if (class_shown(g, c) && cli_held_class(&a->held, h, g->class_name[c],
                                                    cli_held_render(util_fill, &pr, NULL, c)))
                return -1;
        return 0;
    }
    cli_row_begin(&row, fp, 1);
    point_cells(&row, &pr);
    cli_cell_bool(&row, "converged", p->info.converged);
    if (a->check_another)
        cli_cell_bool(&row, "another", p->info.another);
    cli_cell_open(&row, "util", '{');
    for (int c = 0; c < g->nclasses; c++)
        if (class_shown(g, c))
            cli_cell_double(&row, g->class_name[c], p->util[c]);
    cli_cell_double(&row, "inject", p->util[g->nclasses]);
    cli_cell_close(&row);
    cli_cell_open(&row, "hop_dist", '[');
    double w = 0;
    for (int32_t h = 0; h <= x->maxhops; h++)
        w += x->hist[h];
    for (int32_t h = 0; h <= x->maxhops; h++)
        cli_cell_double(&row, NULL, w > 0 ? x->hist[h] / w : 0);
    cli_cell_close(&row);
    cli_row_end(&row);
    return 0;
}

/* --trace: a row of the iteration just done (tk_sim_opts_t.trace). */
static void trace_row(void *ctx, const tk_adapt_iter_t *it)
{
    const args_t *a = ctx;
    cli_row_t row;
    cli_row_begin(&row, a->trfp, a->json);
    cli_cell_text(&row, "name", a->tr_name);
    cli_cell_int(&row, "point", a->tr_point, 0);
    cli_cell_double(&row, "rho", it->rho);
    cli_cell_int(&row, "iteration", it->iteration, 0);
    cli_cell_double(&row, "residual", it->residual);
    cli_cell_double(&row, "damping", it->damping);
    cli_cell_bool(&row, "halved", it->halved);
    cli_cell_str(&row, "step", tk_adapt_step_name(it->step));
    cli_cell_double(&row, "accepted", it->accepted);
    cli_cell_double(&row, "min_served", it->min_served);
    cli_cell_double(&row, "min_share", it->min_share);
    cli_cell_double(&row, "cost_min", it->cost_min);
    if (it->bneck_changed < 0)
        cli_cell_null(&row, "bneck_changed");
    else
        cli_cell_int(&row, "bneck_changed", it->bneck_changed, 0);
    if (isnan(it->signal_change))
        cli_cell_null(&row, "signal_change");
    else
        cli_cell_double(&row, "signal_change", it->signal_change);
    if (a->adapt.rule == TK_ADAPT_DGB || a->adapt.rule == TK_ADAPT_EDGB) {
        cli_cell_int(&row, "outer", it->outer, 0);
        cli_cell_double(&row, "bias_mean", it->bias_mean);
        cli_cell_double(&row, "grad_max", it->grad_max);
    }
    cli_row_end(&row);
}

/* --per-server rows of the last solve. */
static tk_status_t write_per_server(args_t *a, graph_run_t *gr, double rho, tk_error_t *err)
{
    int64_t N = tk_sim_servers(gr->net);
    double *rate = tk_malloc_array((size_t)N + 1, sizeof *rate);
    if (!rate)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    tk_status_t st = tk_sim_server_rates(gr->net, rate, err);
    if (st == TK_OK) {
        const tk_graph_t *g = gr->g;
        int64_t i = 0;
        (void)rho;
        for (tk_id_t u = 0; u < g->n; u++) {
            int64_t p = tk_graph_servers(g, u);
            if (p == 0 && N == g->n)
                p = 1; /* switch-level endpoints without servers */
            for (int64_t j = 0; j < p && i < N; j++, i++) {
                cli_row_t row;
                cli_row_begin(&row, a->psfp, a->json);
                cli_cell_text(&row, "name", gr->name);
                cli_cell_int(&row, "server", i, 0);
                cli_cell_int(&row, "switch", u, 0);
                cli_cell_double(&row, "accepted", rate[i]);
                cli_row_end(&row);
            }
        }
    }
    free(rate);
    return st;
}

typedef struct flow_ctx {
    args_t *a;
    graph_run_t *gr;
} flow_ctx_t;

static int flow_row(void *ctx, const tk_sim_flow_t *f)
{
    flow_ctx_t *c = ctx;
    const tk_graph_t *g = c->gr->g;
    cli_row_t row;
    char where[64];

    cli_row_begin(&row, c->a->flfp, c->a->json);
    cli_cell_text(&row, "name", c->gr->name);
    cli_cell_int(&row, "src", tk_sim_group_first(c->gr->net, f->src_group), 0);
    cli_cell_int(&row, "dst", tk_sim_group_first(c->gr->net, f->dst_group), 0);
    cli_cell_double(&row, "members", f->members);
    cli_cell_double(&row, "demand", f->demand);
    cli_cell_double(&row, "rate", f->rate);
    if (f->bneck < 0) {
        cli_cell_str(&row, "bottleneck", "-");
        cli_cell_str(&row, "class", "-");
    } else if (f->bneck_kind == 0) {
        snprintf(where, sizeof where, "%" PRId32 "->%" PRId32, cli_arc_tail(g, f->bneck),
                 g->head[f->bneck]);
        cli_cell_text(&row, "bottleneck", where);
        cli_cell_text(&row, "class", g->class_name[g->cls ? g->cls[f->bneck] : 0]);
    } else {
        snprintf(where, sizeof where, "%s:%" PRId64, f->bneck_kind == 1 ? "inject" : "eject",
                 tk_sim_group_first(c->gr->net, f->bneck));
        cli_cell_text(&row, "bottleneck", where);
        cli_cell_text(&row, "class", f->bneck_kind == 1 ? "inject" : "eject");
    }
    cli_row_end(&row);
    return 0;
}

/* The system of graph gr->g routed by rt, for the pattern that `make`
 * describes (-m; "uniform" or NULL with no file: the built-in uniform) or
 * the pattern file pat (named pname in messages), into *net. */
static tk_status_t build_net_of(args_t *a, graph_run_t *gr, tk_router_t *rt, const char *make,
                                const tk_pattern_t *pat, const char *pname, tk_sim_net_t **net,
                                tk_error_t *err)
{
    tk_sim_opts_t o;
    tk_pattern_t *made = NULL;
    const tk_pattern_t *p = make ? NULL : pat;
    tk_status_t st;

    tk_sim_opts_init(&o);
    o.arb = a->arb;
    o.split = a->split;
    o.coupled = a->coupled;
    o.no_aggregate = a->no_aggregate;
    o.threads = a->threads;
    o.mem_limit = cli_mem_limit();
    o.max_sweeps = a->max_sweeps;
    o.check_another = a->check_another;
    o.adapt = a->adaptive ? &a->adapt : NULL;
    if (a->trfp) {
        o.trace = trace_row;
        o.trace_ctx = a;
    }
    if (make) {
        char buf[1024], *w[64];
        snprintf(buf, sizeof buf, "%s", make);
        int nw = cli_split_words(buf, w, 64);
        if (nw == 0)
            return tk_error_set(err, TK_EINVAL, "-m", 0, "empty pattern description");
        if (!(nw == 1 && strcmp(w[0], "uniform") == 0)) {
            st = tk_pattern_make(gr->g, w[0], nw - 1, w + 1, a->seed, a->threads, &made, err);
            if (st != TK_OK)
                return st;
            p = made;
        }
    }
    if (p) {
        st = tk_sim_net_new(rt, p, &o, net, err);
        if (st != TK_OK && pname && !make && strncmp(err->where, "pattern", 8) == 0) {
            /* name the pattern file: the graph is the place of the row */
            char msg[TK_ERRMSG_MAX];
            snprintf(msg, sizeof msg, "%s", err->msg);
            int k = snprintf(err->msg, sizeof err->msg, "%.200s: ", pname);
            if (k > 0 && (size_t)k < sizeof err->msg)
                snprintf(err->msg + k, sizeof err->msg - (size_t)k, "%.*s",
                         (int)(sizeof err->msg - (size_t)k - 1), msg);
        }
    } else {
        st = tk_sim_net_uniform(rt, &o, net, err);
    }
    tk_pattern_free(made);
    return st;
}

static tk_status_t build_net(args_t *a, graph_run_t *gr, tk_router_t *rt, tk_error_t *err)
{
    if (a->pat && !a->make) {
        tk_status_t st =
            tk_pattern_bind(a->pat, gr->g, a->force ? TK_PATTERN_FORCE : 0, a->pattern, err);
        if (st != TK_OK)
            return st;
    }
    return build_net_of(a, gr, rt, a->make, a->pat, a->pattern, &gr->net, err);
}

/* The per-load values of the point just solved: the graph's for an
 * oblivious routing, the split's for an adaptive one. */
static tk_status_t point_extra(const args_t *a, graph_run_t *gr, point_extra_t *x, tk_error_t *err)
{
    if (!a->adaptive) {
        x->hops = gr->hops;
        x->latency = gr->latency;
        x->saturation = gr->saturation;
        x->hist = (double *)gr->hist;
        x->maxhops = gr->maxhops;
        return TK_OK;
    }
    double ch[TK_MAX_CLASSES];
    const double *hist;
    tk_sim_net_hops(gr->net, &x->hops, ch, &hist, &x->maxhops);
    x->latency = tk_sim_net_latency(gr->net, gr->lat);
    x->saturation = tk_sim_saturation(gr->net);
    x->hist = tk_malloc_array((size_t)x->maxhops + 1, sizeof *x->hist);
    if (!x->hist)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    memcpy(x->hist, hist, ((size_t)x->maxhops + 1) * sizeof *x->hist);
    return tk_sim_adapt_info(gr->net, &x->ai, err);
}

int sim_fail_graph(const char *input, long index, const tk_error_t *err)
{
    cli_graph_error(input, index, err);
    return 1;
}

/* Under MPI (several ranks), a --sweep: the offered loads handed out
 * dynamically (cli_mpi_units; the points are independent solves of one
 * net).  A point crosses as the bytes of its tk_sim_point_t and
 * point_extra_t (and its hop weights, adaptive); every rank stores every
 * point in sweep order and goes on as one process would. */
typedef struct sim_mpi {
    args_t *a;
    graph_run_t *gr;
    tk_sim_point_t *pts;
    point_extra_t *px;
    int64_t *npts;
    const char *input;
    long index;
} sim_mpi_t;

static double sweep_rho(const args_t *a, int64_t i)
{
    double rho = tk_sim_sweep_point(a->rho_lo, a->rho_step, i);
    return rho > 1 ? 1 : rho;
}

static tk_status_t sim_point_unit(void *ctx, int64_t i, FILE *fp, tk_error_t *err)
{
    sim_mpi_t *m = ctx;
    tk_sim_point_t p;
    point_extra_t x;
    memset(&x, 0, sizeof x);
    tk_status_t st = tk_sim_solve(m->gr->net, sweep_rho(m->a, i), &p, err);
    if (st == TK_OK)
        st = point_extra(m->a, m->gr, &x, err);
    if (st == TK_OK) {
        /* Not the pointers: a shard file's bytes, like any output's, are
         * the same from run to run. */
        point_extra_t xw;
        memcpy(&xw, &x, sizeof xw);
        xw.hist = NULL;
        xw.pattern = NULL;
        fwrite(&p, sizeof p, 1, fp);
        fwrite(&xw, sizeof xw, 1, fp);
        if (m->a->adaptive)
            fwrite(x.hist, sizeof *x.hist, (size_t)x.maxhops + 1, fp);
    }
    if (m->a->adaptive)
        free(x.hist);
    return st;
}

static tk_status_t sim_point_take(void *ctx, int64_t i, const unsigned char *b, size_t len,
                                  tk_error_t *err)
{
    sim_mpi_t *m = ctx;
    tk_sim_point_t *p = &m->pts[i];
    point_extra_t *x = &m->px[i];
    if (len < sizeof *p + sizeof *x)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "load point %lld: short result", (long long)i);
    memcpy(p, b, sizeof *p);
    memcpy(x, b + sizeof *p, sizeof *x);
    x->pattern = NULL;
    if (m->a->adaptive) {
        size_t k = (size_t)x->maxhops + 1;
        if (x->maxhops < 0 || len != sizeof *p + sizeof *x + k * sizeof *x->hist)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "load point %lld: bad result length",
                                (long long)i);
        if (!(x->hist = tk_malloc_array(k, sizeof *x->hist)))
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        memcpy(x->hist, b + sizeof *p + sizeof *x, k * sizeof *x->hist);
    } else {
        x->hist = (double *)m->gr->hist;
    }
    (*m->npts)++;
    if (!p->info.converged)
        cli_warnf("%s: graph %ld: rho %g: no fixed point after %" PRId64 " %s (residual %g)",
                  m->input, m->index, p->rho, p->info.iterations,
                  m->a->adaptive ? "iterations" : "sweeps", p->info.residual);
    if (m->a->check_another && p->info.another)
        cli_warnf("%s: graph %ld: rho %g: another %s equilibrium exists", m->input, m->index,
                  p->rho, tk_arb_name(m->a->arb));
    return TK_OK;
}

/* The sweep over the ranks; then the net's last solve is the last point's
 * again (--per-server, --flows read it). */
static tk_status_t sweep_ranks(args_t *a, graph_run_t *gr, tk_sim_point_t *pts, point_extra_t *px,
                               int64_t count, int64_t *npts, const char *input, long index,
                               tk_error_t *err)
{
    sim_mpi_t m = {a, gr, pts, px, npts, input, index};
    cli_units_t job = {count, 0, sim_point_unit, sim_point_take, &m, 1, 0};
    tk_status_t st = cli_mpi_units(&job, err);
    if (st == TK_OK && (a->psfp || a->flfp) && !cli_shard_partial()) {
        tk_sim_point_t last;
        st = tk_sim_solve(gr->net, pts[count - 1].rho, &last, err);
    }
    return cli_mpi_agree(st, err, 1);
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    graph_run_t gr;
    tk_progress_t *meter = NULL;
    tk_router_t *rt = NULL;
    tk_error_t err;
    int rc = 0;
    tk_sim_point_t *pts = NULL;
    point_extra_t *px = NULL;
    int64_t npts = 0;
    double *crho = NULL, *cacc = NULL;
    tk_route_spec_t spec = a->spec;

    memset(&gr, 0, sizeof gr);
    gr.g = g;
    gr.pattern = a->make  ? a->make
                 : a->pat ? (a->pat->spec[0] ? a->pat->spec : a->pattern)
                          : "uniform";
    cli_graph_name(g, input, index, gr.name, sizeof gr.name);
    tk_error_clear(&err);
    if (latencies(a, g, gr.lat, &err) != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    if (a->adaptive && tk_adapt_candidates(&a->adapt, g, &spec, &err) != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    cli_progress("%s: graph %ld: routes (%s)", input, index, spec.text);
    double t0 = sim_now();
    if (tk_router_new(g, &spec, a->threads, cli_mem_limit(), &rt, &err) != TK_OK ||
        build_net(a, &gr, rt, &err) != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    cli_progress("%s: graph %ld: %" PRId64 " variables, %" PRId64 " coefficients, built in %.3f s",
                 input, index, tk_sim_net_mm(gr.net)->nvar,
                 tk_sim_net_mm(gr.net)->voff[tk_sim_net_mm(gr.net)->nvar], sim_now() - t0);
    if (a->adaptive) {
        tk_adapt_size_t z;
        char b[32];
        if (tk_sim_adapt_size(gr.net, &z, &err) == TK_OK) {
            tk_fmt_bytes(z.bytes, b, sizeof b);
            cli_progress("%s: graph %ld: adaptive candidates: %" PRId64 " switch pairs, %" PRId64
                         " alternatives, %" PRId64 " keys, %" PRId64 " route entries, %" PRId64
                         " shares, %s; %" PRId64 " classes, up to %" PRId64 " coefficients",
                         input, index, z.pairs, z.alternatives, z.keys, z.entries, z.shares, b,
                         z.classes, z.coefficients);
        }
    }
    {
        double ch[TK_MAX_CLASSES];
        tk_sim_net_hops(gr.net, &gr.hops, ch, &gr.hist, &gr.maxhops);
        gr.latency = tk_sim_net_latency(gr.net, gr.lat);
        gr.saturation = tk_sim_saturation(gr.net);
    }
    if (a->curve) {
        if (tk_sim_fair_curve(gr.net, &crho, &cacc, &npts, &err) != TK_OK) {
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
        print_header(out, a);
        for (int64_t i = 0; i < npts; i++) {
            cli_row_t row;
            cli_row_begin(&row, out, a->json);
            cli_cell_text(&row, "name", gr.name);
            cli_cell_text(&row, "routing", a->rtext);
            cli_cell_text(&row, "pattern", gr.pattern);
            cli_cell_double(&row, "rho", crho[i]);
            cli_cell_double(&row, "accepted", cacc[i]);
            cli_row_end(&row);
        }
        goto done;
    }
    /* every point first, then the rows: a failure prints nothing of it */
    /* --bisect: at most 43 loads (tk_sim_bisect_t) */
    int64_t count = a->epochs   ? a->epochs
                    : a->bisect ? 64
                    : a->sweep  ? tk_sim_sweep_count(a->rho_lo, a->rho_hi, a->rho_step)
                                : 1;
    pts = tk_calloc_array((size_t)count, sizeof *pts);
    px = tk_calloc_array((size_t)count, sizeof *px);
    if (!pts || !px) {
        tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    if (cli_units_distributed() && !a->epochs && !a->bisect) {
        if (a->pat) { /* --shard: the pattern joins the job's fingerprint */
            cli_shard_note(a->pat->spec, strlen(a->pat->spec));
            cli_shard_note(a->pat->d, (size_t)a->pat->len * sizeof *a->pat->d);
        }
        if (sweep_ranks(a, &gr, pts, px, count, &npts, input, index, &err) != TK_OK) {
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
        if (cli_shard_partial()) /* --shard: the merge prints the points */
            goto done;
        goto solved;
    }
    meter = cli_meter_graph(input, index);
    tk_progress_begin(meter, a->epochs ? "epochs" : "load points", a->epochs ? "epochs" : "points",
                      a->bisect ? 0 : count);
    tk_sim_bisect_t bis;
    tk_sim_bisect_init(&bis, a->bisect);
    for (int64_t i = 0; i < count; i++) {
        double rho = a->epochs ? a->rho_lo : a->bisect ? tk_sim_bisect_next(&bis) : sweep_rho(a, i);
        if (rho == 0) /* --bisect: done */
            break;
        double t1 = sim_now();
        a->tr_name = gr.name;
        a->tr_point = i + 1;
        if (a->epochs && a->change && i == a->change) {
            /* the pattern changes: the new system takes the split */
            tk_sim_net_t *n2 = NULL;
            if (build_net_of(a, &gr, rt, a->then_make, NULL, NULL, &n2, &err) != TK_OK ||
                tk_sim_adapt_inherit(n2, gr.net, &err) != TK_OK) {
                tk_sim_net_free(n2);
                rc = sim_fail_graph(input, index, &err);
                goto done;
            }
            tk_sim_net_free(gr.net);
            gr.net = n2;
        }
        if ((a->epochs ? tk_sim_epoch(gr.net, rho, &pts[i], &err)
                       : tk_sim_solve(gr.net, rho, &pts[i], &err)) != TK_OK) {
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
        if (a->epochs && a->change && i >= a->change)
            px[i].pattern = a->then_make;
        if (a->bisect)
            tk_sim_bisect_take(&bis, pts[i].rho, pts[i].min_served);
        tk_progress_add(meter, 1);
        cli_progress("%s: graph %ld: rho %g solved in %.3f s", input, index, rho, sim_now() - t1);
        npts++;
        if (point_extra(a, &gr, &px[i], &err) != TK_OK) {
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
        if (!pts[i].info.converged && !a->epochs)
            cli_warnf("%s: graph %ld: rho %g: no fixed point after %" PRId64 " %s (residual %g)",
                      input, index, rho, pts[i].info.iterations,
                      a->adaptive ? "iterations" : "sweeps", pts[i].info.residual);
        if (a->check_another && pts[i].info.another)
            cli_warnf("%s: graph %ld: rho %g: another %s equilibrium exists", input, index, rho,
                      tk_arb_name(a->arb));
    }
    tk_progress_end(meter);
solved:
    if (a->json)
        print_header(out, a);
    for (int64_t i = 0; i < npts; i++)
        if (print_point(out, a, &gr, &pts[i], &px[i]) != 0) {
            tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
    if (a->psfp && write_per_server(a, &gr, pts[npts - 1].rho, &err) != TK_OK) {
        rc = sim_fail_graph(input, index, &err);
        goto done;
    }
    if (a->flfp) {
        flow_ctx_t fc = {a, &gr};
        if (tk_sim_flow_rows(gr.net, flow_row, &fc, &err) != TK_OK) {
            rc = sim_fail_graph(input, index, &err);
            goto done;
        }
    }
done:
    tk_progress_end(meter);
    if (px && a->adaptive)
        for (int64_t i = 0; i < npts; i++)
            free(px[i].hist);
    free(px);
    free(pts);
    free(crho);
    free(cacc);
    tk_sim_net_free(gr.net);
    tk_router_free(rt);
    return rc;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    args_t *a = ctx;
    if (a->workload || a->poisson)
        return sim_dyn_graph(out, a, g, input, index);
    return one_graph(out, ctx, g, input, index);
}

static void table_header(void *ctx, FILE *out)
{
    args_t *a = ctx;
    if (a->workload || a->poisson) {
        sim_dyn_header(out, a);
        return;
    }
    print_header(out, ctx);
}

/* cli_run_table's flush: the held rows under a header with every class. */
static void flush_rows(void *ctx, FILE *out)
{
    args_t *a = ctx;
    cli_held_flush(&a->held, out, table_header, a);
}

static int open_side(args_t *a)
{
    if (a->per_server) {
        if (cli_out_open(&a->psout, a->per_server))
            return -1;
        a->psfp = a->psout.fp;
        if (!a->json)
            fputs("name\tserver\tswitch\taccepted\n", a->psfp);
    }
    if (a->flows) {
        if (cli_out_open(&a->flout, a->flows))
            return -1;
        a->flfp = a->flout.fp;
        if (!a->json && (a->workload || a->poisson))
            fputs("name\tflow\tsrc\tdst\tsize\tstart\tfinish\tfct\tslowdown\n", a->flfp);
        else if (!a->json)
            fputs("name\tsrc\tdst\tmembers\tdemand\trate\tbottleneck\tclass\n", a->flfp);
    }
    if (a->trace) {
        if (cli_out_open(&a->trout, a->trace))
            return -1;
        a->trfp = a->trout.fp;
        if (!a->json)
            fprintf(a->trfp,
                    "name\tpoint\trho\titeration\tresidual\tdamping\thalved\tstep\taccepted\t"
                    "min_served\tmin_share\tcost_min\tbneck_changed\tsignal_change%s\n",
                    a->adaptive && (a->adapt.rule == TK_ADAPT_DGB || a->adapt.rule == TK_ADAPT_EDGB)
                        ? "\touter\tbias_mean\tgrad_max"
                        : "");
    }
    return 0;
}

static int run(args_t *a)
{
    uint64_t mem_limit = cli_mem_limit();
    int rc;

    cli_set_threads(a->threads);
    cli_progress_enable(a->progress);
    if (a->trace && cli_mpi_size() > 1)
        cli_usage_fail(usage,
                       "--trace writes one file in solve order: not under mpirun with %d ranks",
                       cli_mpi_size());
    if (a->pattern && cli_read_pattern(a->pattern, &a->pat) != 0)
        return CLI_EXIT_DATA;
    if (!cli_shard_partial() && open_side(a)) { /* --shard: the merge writes them */
        if (a->per_server && a->psfp)
            cli_out_abort(&a->psout);
        if (a->flows && a->flfp)
            cli_out_abort(&a->flout);
        tk_pattern_free(a->pat);
        return CLI_EXIT_DATA;
    }
    cli_table_t t = {a->output, a->ninputs, a->inputs, mem_limit, table_row, table_header, a};
    a->held.width = 1;
    rc = cli_run_table_flush(&t, flush_rows);
    if (a->psfp) {
        if (rc == 0 && cli_out_commit(&a->psout))
            rc = CLI_EXIT_DATA;
        else if (rc != 0)
            cli_out_abort(&a->psout);
    }
    if (a->flfp) {
        if (rc == 0 && cli_out_commit(&a->flout))
            rc = CLI_EXIT_DATA;
        else if (rc != 0)
            cli_out_abort(&a->flout);
    }
    if (a->trfp) {
        if (rc == 0 && cli_out_commit(&a->trout))
            rc = CLI_EXIT_DATA;
        else if (rc != 0)
            cli_out_abort(&a->trout);
    }
    tk_pattern_free(a->pat);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
