/*
 * topo-resilience - how a topology degrades under random failures: a
 * sweep of failure fractions, several samples per fraction, and per point
 * the distribution of the diameter, average distance, disconnection,
 * bisection bound and saturation throughput.  See topo-resilience(1).
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
    "topo-resilience [-F SWEEP] [-n SAMPLES] [-w] [-c CLASS] [-s SEED] [--nested]\n"
    "                 [-r ROUTING] [-P PATTERN [--force] | --no-load] [--no-bisection]\n"
    "                 [-L LEVEL] [--samples] [--json] [--threads N] [--progress] [-o FILE]\n"
    "                 [FILE...]";

/* Most points of a sweep. */
#define MAX_POINTS 100000

typedef struct args {
    double *fraction; /* -F: the sweep                                  */
    int64_t points;
    int64_t samples;     /* -n (default 10)                                */
    int switches;        /* -w                                             */
    const char *cls;     /* -c                                             */
    uint64_t seed;       /* -s (default 1)                                 */
    int nested;          /* --nested                                       */
    const char *route;   /* -r (default min)                               */
    const char *pattern; /* -P FILE (NULL: uniform)                      */
    int force;           /* --force                                      */
    int no_load;         /* --no-load                                      */
    int no_bisection;    /* --no-bisection                                 */
    double level;        /* -L (default 0.95)                              */
    int per_sample;      /* --samples                                      */
    int json;            /* --json                                         */
    int progress;        /* --progress                                     */
    int threads;         /* --threads (0 when not given)                   */
    const char *output;
    char **inputs;
    int ninputs;
    /* run state */
    tk_route_spec_t spec;
    tk_pattern_t *pat;
    int header_done;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Random failures at a sweep of fractions on every graph read from FILE (or\n"
          "standard input): SAMPLES independent samples per fraction, each removing\n"
          "round(fraction x eligible) links (or switches with their servers) as\n"
          "topo-fail(1) does, then the distances (topo-dist), the spectral bisection\n"
          "lower bound (topo-bisect's bisection_lb) and the uniform pattern's load and\n"
          "saturation throughput (topo-load) of the damaged graph.  One TSV row per\n"
          "point with the columns\n"
          "  name unit routing pattern fraction removed samples disconnected p_disconnected\n"
          "then M.mean M.lo M.hi M.min M.max for M in diameter avg_distance\n"
          "bisection_lb max_load throughput: the mean, its Student t confidence\n"
          "interval, the smallest and largest value.  A disconnected sample counts with\n"
          "throughput 0 and bisection_lb 0; its diameter, avg_distance and max_load are\n"
          "left out (p_disconnected counts it).\n\n"
          "Options:\n"
          "  -F, --fractions SWEEP   LO:HI:POINTS (POINTS >= 2 equally spaced fractions\n"
          "                          from LO to HI) or a list F,F,... (default 0:0.2:11)\n"
          "  -n, --samples-per-point S  samples per fraction (default 10)\n"
          "  -w, --switches          remove switches instead of links\n"
          "  -c, --class CLASS       only links of class CLASS (e.g. global)\n"
          "  -s, --seed SEED         seed of the sweep (default 1)\n"
          "      --nested            sample j uses one stream at every fraction (its\n"
          "                          failures grow with the fraction)\n"
          "  -r, --routing MODEL     routing model of the loads (default min; topokit(7))\n"
          "  -P, --pattern FILE      the loads of this pattern file (topo-pattern(1))\n"
          "                          instead of uniform; link failures only\n"
          "      --force             use -P even if made for another topology\n"
          "      --no-load           no max_load and throughput columns\n"
          "      --no-bisection      no bisection_lb columns\n"
          "  -L, --level LEVEL       confidence level of the intervals (default 0.95)\n"
          "      --samples           one row per sample instead (with its topo-fail seed)\n"
          "  --json                  JSON Lines, one object per row\n"
          "  --threads N             OpenMP threads (N >= 1); results do not change\n"
          "  --progress              progress messages on stderr\n"
          "  -o, --output FILE       write to FILE (atomically) instead of stdout\n"
          "  -h, --help              this help\n"
          "      --version           print the version\n\n"
          "Exit status: 0 success, 1 data error, 2 usage error.  See topo-resilience(1).\n",
          stdout);
}

/* -F: "LO:HI:POINTS" or "F,F,...", every fraction in [0, 1]. */
static void parse_sweep(args_t *a, const char *s)
{
    char why[CLI_WHY_MAX];
    char *copy = strdup(s);
    int64_t cap = 1;

    if (!copy) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    for (const char *p = s; *p; p++)
        cap += *p == ',';
    free(a->fraction);
    a->points = 0;
    if (strchr(s, ':')) {
        char *f[4];
        int nf = 0;
        double lo, hi;
        int64_t np;
        for (char *save = NULL, *tok = strtok_r(copy, ":", &save); tok && nf < 4;
             tok = strtok_r(NULL, ":", &save))
            f[nf++] = tok;
        if (nf != 3 || s[strlen(s) - 1] == ':' || strstr(s, "::") || s[0] == ':')
            cli_arg_fail("-F", s, "not a sweep: use LO:HI:POINTS or a list F,F,...");
        if (cli_parse_double(f[0], 0, 1, 0, &lo, why) || cli_parse_double(f[1], 0, 1, 0, &hi, why))
            cli_arg_fail("-F", s, "fraction %s", why);
        if (cli_parse_int(f[2], 2, MAX_POINTS, &np, why))
            cli_arg_fail("-F", s, "POINTS %s", why);
        if (lo > hi)
            cli_arg_fail("-F", s, "reversed sweep (%g > %g)", lo, hi);
        a->fraction = calloc((size_t)np, sizeof *a->fraction);
        if (!a->fraction) {
            cli_errorf("out of memory");
            exit(CLI_EXIT_DATA);
        }
        /* Rounded to 12 significant digits, so 0:0.3:4 gives 0.1, not
         * 0.09999999999999999. */
        for (int64_t i = 0; i < np; i++) {
            char buf[64];
            double x = lo + (hi - lo) * (double)i / (double)(np - 1);
            snprintf(buf, sizeof buf, "%.12g", x);
            a->fraction[i] = i == np - 1 ? hi : strtod(buf, NULL);
        }
        a->points = np;
    } else {
        if (cap > MAX_POINTS)
            cli_arg_fail("-F", s, "more than %d fractions", MAX_POINTS);
        a->fraction = calloc((size_t)cap, sizeof *a->fraction);
        if (!a->fraction) {
            cli_errorf("out of memory");
            exit(CLI_EXIT_DATA);
        }
        const char *p = copy;
        for (;;) {
            const char *comma = strchr(p, ',');
            size_t len = comma ? (size_t)(comma - p) : strlen(p);
            char one[64];
            if (len == 0 || len >= sizeof one)
                cli_arg_fail("-F", s, "not a sweep: use LO:HI:POINTS or a list F,F,...");
            memcpy(one, p, len);
            one[len] = '\0';
            if (cli_parse_double(one, 0, 1, 0, &a->fraction[a->points], why))
                cli_arg_fail("-F", s, "fraction %s: %s", one, why);
            a->points++;
            if (!comma)
                break;
            p = comma + 1;
        }
    }
    free(copy);
}

enum {
    OPT_NESTED = 256,
    OPT_FORCE,
    OPT_NO_LOAD,
    OPT_NO_BISECTION,
    OPT_SAMPLES,
    OPT_JSON,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_VERSION
};

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"fractions", required_argument, NULL, 'F'},
        {"samples-per-point", required_argument, NULL, 'n'},
        {"switches", no_argument, NULL, 'w'},
        {"class", required_argument, NULL, 'c'},
        {"seed", required_argument, NULL, 's'},
        {"nested", no_argument, NULL, OPT_NESTED},
        {"routing", required_argument, NULL, 'r'},
        {"pattern", required_argument, NULL, 'P'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"no-load", no_argument, NULL, OPT_NO_LOAD},
        {"no-bisection", no_argument, NULL, OPT_NO_BISECTION},
        {"level", required_argument, NULL, 'L'},
        {"samples", no_argument, NULL, OPT_SAMPLES},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c, route_given = 0;
    tk_error_t err;

    memset(a, 0, sizeof *a);
    a->samples = 10;
    a->seed = 1;
    a->route = "min";
    a->level = 0.95;
    parse_sweep(a, "0:0.2:11");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hF:n:wc:s:r:P:L:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'F':
            parse_sweep(a, optarg);
            break;
        case 'n':
            a->samples = cli_int_arg("-n", optarg, 1, 1000000);
            break;
        case 'w':
            a->switches = 1;
            break;
        case 'c':
            a->cls = optarg;
            break;
        case 's':
            a->seed = cli_u64_arg("-s", optarg);
            break;
        case OPT_NESTED:
            a->nested = 1;
            break;
        case 'r':
            a->route = optarg;
            route_given = 1;
            break;
        case 'P':
            a->pattern = optarg;
            break;
        case OPT_FORCE:
            a->force = 1;
            break;
        case OPT_NO_LOAD:
            a->no_load = 1;
            break;
        case OPT_NO_BISECTION:
            a->no_bisection = 1;
            break;
        case 'L':
            a->level = cli_double_arg("-L", optarg, 0, 1, CLI_GT_MIN | CLI_LT_MAX);
            break;
        case OPT_SAMPLES:
            a->per_sample = 1;
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
    if (a->switches && a->cls)
        cli_usage_fail(usage, "-c selects links: it does not go with -w");
    if ((route_given || a->pattern) && a->no_load)
        cli_usage_fail(usage, "%s and --no-load: choose one", route_given ? "-r" : "-P");
    if (a->force && !a->pattern)
        cli_usage_fail(usage, "--force needs -P");
    if (a->pattern && a->switches)
        cli_usage_fail(usage, "-P goes with link failures only (-w renumbers the switches)");
    if (a->points * a->samples > 10000000)
        cli_usage_fail(usage, "%" PRId64 " points x %" PRId64 " samples: at most 10^7 samples",
                       a->points, a->samples);
    tk_error_clear(&err);
    if (tk_route_parse(a->route, &a->spec, &err) != TK_OK)
        cli_usage_fail(usage, "-r: %s", err.msg);
    if (tk_route_pathset_only(&a->spec))
        cli_usage_fail(usage, "-r %s: the path set of an adaptive rule, not a load model",
                       a->spec.text);
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
    cli_stdin_once(usage, "-P", "pattern", a->pattern, a->inputs, a->ninputs);
}

/* The measures of the table, in column order. */
enum { M_DIAM, M_AVG, M_BIS, M_MAXLOAD, M_THR, M_COUNT };
static const char *const mname[M_COUNT] = {"diameter", "avg_distance", "bisection_lb", "max_load",
                                           "throughput"};

static int shown(const args_t *a, int m)
{
    if (m == M_BIS)
        return !a->no_bisection;
    if (m == M_MAXLOAD || m == M_THR)
        return !a->no_load;
    return 1;
}

/* Measure m of sample s (NAN: left out of the statistics). */
static double value_of(const tk_resil_sample_t *s, int m)
{
    switch (m) {
    case M_DIAM:
        return s->disconnected ? NAN : (double)s->diameter;
    case M_AVG:
        return s->avg_distance;
    case M_BIS:
        return s->bisection_lb;
    case M_MAXLOAD:
        return s->max_load;
    default:
        return s->throughput;
    }
}

static const char *unit_name(const args_t *a)
{
    return a->switches ? "switches" : "links";
}

static const char *routing_name(const args_t *a)
{
    return a->no_load ? "-" : a->spec.text;
}

/* The pattern column: as topo-load's (the file's spec line, else its
 * name), "uniform", or "-" without loads. */
static const char *pattern_name(const args_t *a)
{
    if (a->no_load)
        return "-";
    if (!a->pat)
        return "uniform";
    return a->pat->spec[0] ? a->pat->spec : a->pattern;
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->per_sample) {
        fputs("name\tunit\trouting\tpattern\tfraction\tsample\tseed\tremoved\tn\tconnected\tdiamete"
              "r\t"
              "avg_distance",
              fp);
        for (int m = M_BIS; m < M_COUNT; m++)
            if (shown(a, m))
                fprintf(fp, "\t%s", mname[m]);
    } else {
        fputs("name\tunit\trouting\tpattern\tfraction\tremoved\tsamples\tdisconnected\tp_"
              "disconnected",
              fp);
        for (int m = 0; m < M_COUNT; m++)
            if (shown(a, m))
                fprintf(fp, "\t%s.mean\t%s.lo\t%s.hi\t%s.min\t%s.max", mname[m], mname[m], mname[m],
                        mname[m], mname[m]);
    }
    fputc('\n', fp);
}

static void lead_cells(cli_row_t *row, const args_t *a, const char *name, double fraction)
{
    cli_cell_text(row, "name", name);
    cli_cell_text(row, "unit", unit_name(a));
    cli_cell_text(row, "routing", routing_name(a));
    cli_cell_text(row, "pattern", pattern_name(a));
    cli_cell_double(row, "fraction", fraction);
}

static void sample_row(FILE *fp, const args_t *a, const char *name, int64_t i, int64_t j,
                       const tk_resil_sample_t *s)
{
    cli_row_t row;

    cli_row_begin(&row, fp, a->json);
    lead_cells(&row, a, name, a->fraction[i]);
    cli_cell_int(&row, "sample", j, 0);
    cli_cell_u64(&row, "seed", s->seed);
    cli_cell_int(&row, "removed", s->removed, 0);
    cli_cell_int(&row, "n", s->n, 0);
    cli_cell_bool(&row, "connected", !s->disconnected);
    if (s->disconnected) {
        cli_cell_null(&row, "diameter");
        cli_cell_null(&row, "avg_distance");
    } else {
        cli_cell_int(&row, "diameter", s->diameter, 0);
        cli_cell_double(&row, "avg_distance", s->avg_distance);
    }
    for (int m = M_BIS; m < M_COUNT; m++) {
        double v = value_of(s, m);
        if (!shown(a, m))
            continue;
        if (isnan(v))
            cli_cell_null(&row, mname[m]);
        else
            cli_cell_double(&row, mname[m], v);
    }
    cli_row_end(&row);
}

/* The row of point i: the samples s[0 .. samples-1]. */
static tk_status_t point_row(FILE *fp, const args_t *a, const char *name, int64_t i,
                             const tk_resil_sample_t *s, double *x, tk_error_t *err)
{
    int64_t disc = 0;
    cli_row_t row;
    tk_sample_stats_t st[M_COUNT];

    for (int64_t j = 0; j < a->samples; j++)
        disc += s[j].disconnected;
    for (int m = 0; m < M_COUNT; m++) {
        if (!shown(a, m))
            continue;
        for (int64_t j = 0; j < a->samples; j++)
            x[j] = value_of(&s[j], m);
        if (tk_resil_stats(x, a->samples, a->level, &st[m], err) != TK_OK)
            return err->code;
    }
    cli_row_begin(&row, fp, a->json);
    lead_cells(&row, a, name, a->fraction[i]);
    cli_cell_int(&row, "removed", s[0].removed, 0);
    cli_cell_int(&row, "samples", a->samples, 0);
    cli_cell_int(&row, "disconnected", disc, 0);
    cli_cell_double(&row, "p_disconnected", (double)disc / (double)a->samples);
    for (int m = 0; m < M_COUNT; m++) {
        static const char *const stat[5] = {"mean", "lo", "hi", "min", "max"};
        char key[64];
        if (!shown(a, m))
            continue;
        double v[5] = {st[m].mean, st[m].mean - st[m].halfwidth, st[m].mean + st[m].halfwidth,
                       st[m].min, st[m].max};
        if (a->json)
            cli_cell_open(&row, mname[m], '{');
        for (int k = 0; k < 5; k++) {
            snprintf(key, sizeof key, "%s", stat[k]);
            if (st[m].n == 0)
                cli_cell_null(&row, key);
            else
                cli_cell_double(&row, key, v[k]);
        }
        if (a->json) {
            cli_cell_int(&row, "n", st[m].n, 0);
            cli_cell_close(&row);
        }
    }
    cli_row_end(&row);
    return TK_OK;
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024];
    tk_resil_opts_t o;
    tk_swdemand_t dem;
    tk_resil_sample_t *s = NULL;
    double *x = NULL;
    tk_error_t err;
    tk_status_t st;
    int64_t units = a->points * a->samples;

    cli_graph_name(g, input, index, name, sizeof name);
    cli_progress("%s: graph %ld: n=%" PRId64 " arcs=%" PRId64 ": %" PRId64 " points x %" PRId64
                 " samples",
                 input, index, (int64_t)g->n, g->m, a->points, a->samples);
    memset(&o, 0, sizeof o);
    o.unit = a->switches ? TK_FAIL_SWITCHES : TK_FAIL_LINKS;
    o.cls = a->cls;
    o.seed = a->seed;
    o.nested = a->nested;
    o.fraction = a->fraction;
    o.points = a->points;
    o.samples = a->samples;
    o.route = a->no_load ? NULL : &a->spec;
    o.bisection = !a->no_bisection;
    o.mem_limit = cli_mem_limit();
    o.threads = a->threads;
    o.runner = cli_mpi_runner();
    o.progress = cli_meter(name);
    tk_progress_begin(o.progress, "failure samples", "samples", units);
    tk_error_clear(&err);
    memset(&dem, 0, sizeof dem);
    s = calloc((size_t)units, sizeof *s);
    x = calloc((size_t)a->samples, sizeof *x);
    if (!s || !x) {
        st = tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
    } else if (a->pat && !a->no_load) {
        /* The pattern's switch-level demands on the intact graph: link
         * failures keep the switches and servers, so they hold for
         * every sample. */
        st = tk_pattern_bind(a->pat, g, a->force ? TK_PATTERN_FORCE : 0, a->pattern, &err);
        if (st == TK_OK)
            st = tk_pattern_to_switch(a->pat, g, &dem, &err);
        o.demands = &dem;
    } else {
        st = TK_OK;
    }
    if (st == TK_OK)
        st = tk_resil_run(g, &o, s, &err);
    tk_swdemand_destroy(&dem);
    tk_progress_end(o.progress);
    if (cli_mpi_agree(st, &err, 1) == TK_OK) {
        print_header(out, a);
        for (int64_t i = 0; i < a->points && st == TK_OK; i++) {
            if (a->per_sample)
                for (int64_t j = 0; j < a->samples; j++)
                    sample_row(out, a, name, i, j, &s[i * a->samples + j]);
            else
                st = point_row(out, a, name, i, s + i * a->samples, x, &err);
        }
    }
    free(s);
    free(x);
    if (st != TK_OK) {
        cli_graph_error(input, index, &err);
        return 1;
    }
    return 0;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    return one_graph(out, ctx, g, input, index);
}

static void header_cb(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

static int run(args_t *a)
{
    cli_set_threads(a->threads);
    cli_progress_enable(a->progress);
    if (a->pattern && !a->no_load && cli_read_pattern(a->pattern, &a->pat) != 0)
        return CLI_EXIT_DATA;
    cli_table_t t = {a->output, a->ninputs, a->inputs, cli_mem_limit(), table_row, header_cb, a};
    int rc = cli_run_table(&t);
    tk_pattern_free(a->pat);
    free(a->fraction);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    cli_gsl_errors_off(); /* the t quantiles and the eigen-solvers check GSL's codes */
    cli_mpi_init();       /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
