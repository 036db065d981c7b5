/*
 * topo-load - analytic link load of a traffic pattern under a routing
 * model, and the saturation throughput per server it implies.  See
 * topo-load(1).
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
    "topo-load [-r ROUTING] [-P PATTERN [--force]] [--top N | --hist] [--bins B] [--json]\n"
    "                 [--threads N] [--progress] [--shard I/P] [-o FILE] [FILE...]";

typedef struct args {
    const char *routing; /* -r (default "min")                          */
    const char *pattern; /* -P FILE (NULL = the uniform pattern)        */
    int force;           /* --force: -P made for another topology        */
    int64_t top;         /* --top N (0 = off)                           */
    int hist;            /* --hist                                      */
    int32_t bins;        /* --bins B (default 10)                       */
    int json;            /* --json                                      */
    int progress;        /* --progress                                  */
    int threads;         /* --threads N (0 when not given)              */
    const char *output;  /* -o FILE                                     */
    char **inputs;
    int ninputs;
    /* run state */
    tk_route_spec_t spec;
    tk_pattern_t *pat;
    int header_done;
    /* the summary table's rows, held until every graph is read: three
     * cells per link class, the classes the union over the graphs */
    cli_held_t held;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Link loads of a traffic pattern routed by a routing model on every graph read\n"
          "from FILE (or standard input), and the saturation throughput per server they\n"
          "imply.  One TSV row per graph with the columns\n"
          "  name routing pattern n arcs max_load avg_load throughput\n"
          "then max_load.C avg_load.C throughput.C for every link class C of the graph.\n"
          "Loads are per link capacity at offered load 1 per server, so throughput is\n"
          "min(1, 1/max_load, the ejection limit).\n\n"
          "Options:\n"
          "  -r, --routing MODEL   routing model (default min): min, ecmp, ksp:K[,spread],\n"
          "                        allpath:H, valiant[,exclude|,minfirst|,early], dragonfly-min,\n"
          "                        dragonfly-valiant, dragonfly-valiant-crg, polarized,\n"
          "                        dor, valiant,dor, with CLASS=LEN hop lengths\n"
          "                        (topokit(7))\n"
          "  -P, --pattern FILE    pattern file (topo-pattern(1)); default: uniform\n"
          "                        (every server to every server of other switches)\n"
          "      --force           use -P even if made for another topology\n"
          "  --top N               table 'name u v class load' of the N hottest arcs\n"
          "  --hist                table 'name lo hi arcs': load distribution\n"
          "  --bins B              bins of --hist (default 10)\n"
          "  --json                JSON Lines, one object per graph (--top and --hist add\n"
          "                        arrays and may then be combined)\n"
          "  --threads N           OpenMP threads (N >= 1); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  --shard I/P           compute shard I of P only and write it as a shard\n"
          "                        file; topo-merge(1) combines the P shards\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error, 2 usage error.  See topo-load(1).\n",
          stdout);
}

enum { OPT_TOP = 256, OPT_HIST, OPT_BINS, OPT_JSON, OPT_THREADS, OPT_PROGRESS, OPT_VERSION };
enum { OPT_FORCE = 512, OPT_SHARD };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"routing", required_argument, NULL, 'r'},
        {"pattern", required_argument, NULL, 'P'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"top", required_argument, NULL, OPT_TOP},
        {"hist", no_argument, NULL, OPT_HIST},
        {"bins", required_argument, NULL, OPT_BINS},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"shard", required_argument, NULL, OPT_SHARD},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c, bins_given = 0;
    tk_error_t err;

    memset(a, 0, sizeof *a);
    a->routing = "min";
    a->bins = 10;
    cli_shard_args("topo-load", &argc, &argv, ":hr:P:o:", longopts, usage);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hr:P:o:", longopts, NULL)) != -1) {
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
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case OPT_TOP:
            a->top = cli_int_arg("--top", optarg, 1, INT64_MAX);
            break;
        case OPT_HIST:
            a->hist = 1;
            break;
        case OPT_BINS:
            a->bins = (int32_t)cli_int_arg("--bins", optarg, 1, 1000000);
            bins_given = 1;
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
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    if (a->force && !a->pattern)
        cli_usage_fail(usage, "--force needs -P");
    if (a->top && a->hist && !a->json)
        cli_usage_fail(usage, "--top and --hist print different tables: use one, or --json");
    if (bins_given && !a->hist)
        cli_usage_fail(usage, "--bins needs --hist");
    tk_error_clear(&err);
    if (tk_route_parse(a->routing, &a->spec, &err) != TK_OK)
        cli_usage_fail(usage, "-r: %s", err.msg);
    if (tk_route_pathset_only(&a->spec))
        cli_usage_fail(usage,
                       "-r %s: the path set of an adaptive rule, for topo-vc and "
                       "topo-route: its even split is not how the rule weighs its paths (topo-sim "
                       "simulates the rules)",
                       a->spec.text);
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
    cli_stdin_once(usage, "-P", "pattern", a->pattern, a->inputs, a->ninputs);
}

/* Results of one graph, computed before anything of it is printed. */
typedef struct result {
    char name[1024];
    const tk_graph_t *g;
    double *load;         /* m: load / capacity, demand units            */
    double *cap_load;     /* m: load / capacity, link-capacity units      */
    tk_load_summary_t s;  /* of load                                      */
    tk_load_summary_t sc; /* of cap_load                                  */
    double eject_limit;   /* 1 / (largest per-endpoint demand total)      */
    const char *pattern;
} result_t;

static double throughput_of(double cap_max, double limit)
{
    return tk_throughput(cap_max > 0 ? 1.0 / cap_max : INFINITY, limit);
}

/* Class columns: every class with arcs other than the unlabelled "-". */
static int class_shown(const tk_graph_t *g, const tk_load_summary_t *s, int c)
{
    return s->arcs[c] > 0 && !(c == 0 && strcmp(g->class_name[0], "-") == 0);
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->top) {
        fputs("name\ttail\thead\tclass\tload\n", fp);
    } else if (a->hist) {
        fputs("name\tlo\thi\tarcs\n", fp);
    } else {
        fputs("name\trouting\tpattern\tn\tarcs\tmax_load\tavg_load\tthroughput", fp);
        for (int i = 0; i < a->held.ncols; i++)
            fprintf(fp, "\tmax_load.%s\tavg_load.%s\tthroughput.%s", a->held.cols[i],
                    a->held.cols[i], a->held.cols[i]);
        fputc('\n', fp);
    }
}

/* An arc and its load / capacity, for the order of --top. */
typedef struct arc_load {
    double load;
    int64_t arc;
} arc_load_t;

/* Load descending, then arc id: a total order (loads are never NaN). */
static int by_load(const void *x, const void *y)
{
    const arc_load_t *a = x, *b = y;

    if (a->load != b->load)
        return a->load > b->load ? -1 : 1;
    return a->arc < b->arc ? -1 : a->arc > b->arc;
}

/* Every arc, hottest first.  NULL when out of memory. */
static int64_t *top_arcs(const result_t *r)
{
    const tk_graph_t *g = r->g;
    arc_load_t *al = tk_malloc_array((size_t)g->m + 1, sizeof *al);
    int64_t *idx = tk_malloc_array((size_t)g->m + 1, sizeof *idx);

    if (!al || !idx) {
        free(al);
        free(idx);
        return NULL;
    }
    for (int64_t x = 0; x < g->m; x++)
        al[x] = (arc_load_t){r->load[x], x};
    qsort(al, (size_t)g->m, sizeof *al, by_load);
    for (int64_t i = 0; i < g->m; i++)
        idx[i] = al[i].arc;
    free(al);
    return idx;
}

/* Histogram of load / capacity: B equal bins over [0, max_load]; the last
 * bin is closed. */
static int64_t *histogram(const result_t *r, int32_t bins)
{
    int64_t *h = tk_calloc_array((size_t)bins, sizeof *h);
    double mx = r->s.max_load[r->s.nclasses];
    if (!h)
        return NULL;
    for (int64_t x = 0; x < r->g->m; x++) {
        int32_t b = mx > 0 ? (int32_t)(r->load[x] / mx * bins) : 0;
        if (b >= bins)
            b = bins - 1;
        if (b < 0)
            b = 0;
        h[b]++;
    }
    return h;
}

/* max_load avg_load throughput of class c (c = nclasses: every arc). */
static void load_cells(cli_row_t *row, const result_t *r, int c)
{
    cli_cell_double(row, "max_load", r->s.max_load[c]);
    cli_cell_double(row, "avg_load", r->s.avg_load[c]);
    cli_cell_double(row, "throughput", throughput_of(r->sc.max_load[c], r->eject_limit));
}

/* u v class load of the i-th hottest arc. */
static void top_cells(cli_row_t *row, const result_t *r, const int64_t *idx, int64_t i)
{
    const tk_graph_t *g = r->g;
    int64_t x = idx[i];

    cli_cell_int(row, "tail", cli_arc_tail(g, x), 0);
    cli_cell_int(row, "head", g->head[x], 0);
    cli_cell_text(row, "class", g->class_name[g->cls ? g->cls[x] : 0]);
    cli_cell_double(row, "load", r->load[x]);
}

/* lo hi arcs of histogram bin b. */
static void hist_cells(cli_row_t *row, const args_t *a, const result_t *r, const int64_t *hist,
                       int32_t b)
{
    double mx = r->s.max_load[r->s.nclasses];

    cli_cell_double(row, "lo", mx * b / a->bins);
    cli_cell_double(row, "hi", mx * (b + 1) / a->bins);
    cli_cell_int(row, "arcs", hist[b], 0);
}

/* TSV: the --top or --hist table, one row per arc or bin. */
static void print_table(FILE *fp, const args_t *a, const result_t *r, const int64_t *idx,
                        const int64_t *hist)
{
    int64_t rows = a->top ? (a->top < r->g->m ? a->top : r->g->m) : a->bins;
    cli_row_t row;

    for (int64_t i = 0; i < rows; i++) {
        cli_row_begin(&row, fp, 0);
        cli_cell_text(&row, "name", r->name);
        if (a->top)
            top_cells(&row, r, idx, i);
        else
            hist_cells(&row, a, r, hist, (int32_t)i);
        cli_row_end(&row);
    }
}

/* The row of one graph: TSV with the class columns of the header, or a
 * JSON object with every class, and the --top and --hist arrays. */
static void print_row(FILE *fp, const args_t *a, const result_t *r, const int64_t *idx,
                      const int64_t *hist)
{
    const tk_graph_t *g = r->g;
    int nc = r->s.nclasses;
    cli_row_t row;

    if (!a->json && (a->top || a->hist)) {
        print_table(fp, a, r, idx, hist);
        return;
    }
    cli_row_begin(&row, fp, a->json);
    cli_cell_text(&row, "name", r->name);
    cli_cell_text(&row, "routing", a->spec.text);
    cli_cell_text(&row, "pattern", r->pattern);
    cli_cell_int(&row, "n", g->n, 0);
    cli_cell_int(&row, "arcs", g->m, 0);
    load_cells(&row, r, nc);
    if (!a->json) {
        for (int i = 0; i < a->held.ncols; i++)
            load_cells(&row, r, tk_graph_class_index(g, a->held.cols[i]));
        cli_row_end(&row);
        return;
    }
    cli_cell_open(&row, "classes", '{');
    for (int c = 0; c < nc; c++) {
        if (!class_shown(g, &r->s, c))
            continue;
        cli_cell_open(&row, g->class_name[c], '{');
        cli_cell_int(&row, "arcs", r->s.arcs[c], 0);
        load_cells(&row, r, c);
        cli_cell_close(&row);
    }
    cli_cell_close(&row);
    if (a->top) {
        cli_cell_open(&row, "top", '[');
        for (int64_t i = 0; i < a->top && i < g->m; i++) {
            cli_cell_open(&row, NULL, '{');
            top_cells(&row, r, idx, i);
            cli_cell_close(&row);
        }
        cli_cell_close(&row);
    }
    if (a->hist) {
        cli_cell_open(&row, "hist", '[');
        for (int32_t b = 0; b < a->bins; b++) {
            cli_cell_open(&row, NULL, '{');
            hist_cells(&row, a, r, hist, b);
            cli_cell_close(&row);
        }
        cli_cell_close(&row);
    }
    cli_row_end(&row);
}

static int fail_graph(const char *input, long index, const tk_error_t *err)
{
    cli_graph_error(input, index, err);
    return 1;
}

/* Loads of one graph, in link-capacity units at offered load 1 per
 * server (r->load and r->cap_load are the same loads). */
static tk_status_t compute(args_t *a, result_t *r, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    tk_router_t *rt = NULL;
    tk_swdemand_t dem;
    tk_status_t st;

    memset(&dem, 0, sizeof dem);
    r->load = tk_calloc_array((size_t)g->m + 1, sizeof *r->load);
    r->cap_load = tk_calloc_array((size_t)g->m + 1, sizeof *r->cap_load);
    if (!r->load || !r->cap_load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    uint64_t lim = cli_mem_limit(), need = tk_load_bytes(g, a->threads);
    if (lim && need > lim)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "link loads need about %llu bytes of workspace with %d thread(s), "
                            "beyond the memory limit of %llu bytes",
                            (unsigned long long)need, a->threads > 0 ? a->threads : 1,
                            (unsigned long long)lim);
    st = tk_router_new(g, &a->spec, a->threads, lim, &rt, err);
    if (st != TK_OK)
        return st;
    tk_router_set_progress(rt, cli_meter(r->name));
    tk_router_set_runner(rt, cli_runner()); /* MPI: the sources over the ranks */
    if (a->pat) {
        st = tk_pattern_bind(a->pat, g, a->force ? TK_PATTERN_FORCE : 0, a->pattern, err);
        if (st == TK_OK)
            st = tk_pattern_to_switch(a->pat, g, &dem, err);
        if (st == TK_OK) { /* --shard: the demands join the job's fingerprint */
            cli_shard_note(dem.off, ((size_t)dem.n + 1) * sizeof *dem.off);
            cli_shard_note(dem.dst, (size_t)dem.len * sizeof *dem.dst);
            cli_shard_note(dem.w, (size_t)dem.len * sizeof *dem.w);
        }
        if (st == TK_OK)
            st = tk_load_compute(rt, &dem, a->threads, r->load, err);
        if (st == TK_OK) {
            memcpy(r->cap_load, r->load, (size_t)g->m * sizeof *r->load);
            r->eject_limit = tk_load_throughput(0, &dem);
        }
        tk_swdemand_destroy(&dem);
    } else {
        /* The uniform pattern (server level wherever there are servers),
         * in link-capacity units at offered load 1 per server. */
        st = tk_load_uniform(rt, a->threads, NULL, r->cap_load, &r->eject_limit, err);
        if (st == TK_OK)
            memcpy(r->load, r->cap_load, (size_t)g->m * sizeof *r->load);
    }
    tk_router_free(rt);
    if (st != TK_OK)
        return st;
    for (int64_t x = 0; x < g->m; x++) {
        double c = tk_graph_cap(g, x);
        r->load[x] /= c;
        r->cap_load[x] /= c;
    }
    /* Summaries of load / capacity (the division is done: capacity 1). */
    tk_graph_t tmp = *g;
    tmp.cap = NULL;
    st = tk_load_summarize(&tmp, r->load, &r->s, err);
    if (st == TK_OK)
        st = tk_load_summarize(&tmp, r->cap_load, &r->sc, err);
    return st;
}

/* The TSV text of what fill() writes as cells, without the newline. */
static void fixed_fill(cli_row_t *row, const void *x, const void *y, int c)
{
    const args_t *a = x;
    const result_t *r = y;

    (void)c;
    cli_cell_text(row, "name", r->name);
    cli_cell_text(row, "routing", a->spec.text);
    cli_cell_text(row, "pattern", r->pattern);
    cli_cell_int(row, "n", r->g->n, 0);
    cli_cell_int(row, "arcs", r->g->m, 0);
    load_cells(row, r, r->s.nclasses);
}

static void class_fill(cli_row_t *row, const void *x, const void *y, int c)
{
    (void)x;
    load_cells(row, y, c);
}

/* Keep the summary row of r (and add its new classes to the columns). */
static int hold_row(args_t *a, const result_t *r)
{
    const tk_graph_t *g = r->g;
    cli_held_row_t *h = cli_held_add(&a->held);

    if (!h || !(h->fixed = cli_held_render(fixed_fill, a, r, 0)))
        return -1;
    for (int c = 0; c < r->s.nclasses; c++)
        if (class_shown(g, &r->s, c) &&
            cli_held_class(&a->held, h, g->class_name[c], cli_held_render(class_fill, NULL, r, c)))
            return -1;
    return 0;
}

static void header_cb(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

/* cli_run_table's flush: the header with every class column and the held
 * rows, empty cells where a graph lacks a class; also after a failure
 * (the rows of the graphs before it stay, as with any table). */
static void flush_rows(void *ctx, FILE *out)
{
    args_t *a = ctx;
    cli_held_flush(&a->held, out, header_cb, a);
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    result_t r;
    tk_error_t err;
    int64_t *idx = NULL, *hist = NULL;
    int rc = 0;

    memset(&r, 0, sizeof r);
    r.g = g;
    r.pattern = a->pat ? (a->pat->spec[0] ? a->pat->spec : a->pattern) : "uniform";
    cli_graph_name(g, input, index, r.name, sizeof r.name);
    cli_progress("%s: graph %ld: n=%" PRId64 " arcs=%" PRId64 ": loads (%s)", input, index,
                 (int64_t)g->n, g->m, a->spec.text);
    tk_error_clear(&err);
    if (cli_mpi_agree(compute(a, &r, &err), &err, 1) != TK_OK) {
        rc = fail_graph(input, index, &err);
        goto done;
    }
    /* The class columns are the union over the graphs (the first graph's
     * classes first, then new ones as they appear); the summary table's
     * rows wait for the end, a graph without a class gets empty cells. */
    if (!a->json && !a->top && !a->hist) {
        if (hold_row(a, &r) != 0) {
            tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
            rc = fail_graph(input, index, &err);
        }
        goto done;
    }
    if (a->top && !(idx = top_arcs(&r))) {
        tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
        rc = fail_graph(input, index, &err);
        goto done;
    }
    if (a->hist && !(hist = histogram(&r, a->bins))) {
        tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
        rc = fail_graph(input, index, &err);
        goto done;
    }
    print_header(out, a);
    print_row(out, a, &r, idx, hist);
done:
    free(idx);
    free(hist);
    free(r.load);
    free(r.cap_load);
    tk_load_summary_destroy(&r.s);
    tk_load_summary_destroy(&r.sc);
    return rc;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    return one_graph(out, ctx, g, input, index);
}

static int run(args_t *a)
{
    uint64_t mem_limit = cli_mem_limit();

    cli_set_threads(a->threads);
    cli_progress_enable(a->progress);
    if (a->pattern && cli_read_pattern(a->pattern, &a->pat) != 0)
        return CLI_EXIT_DATA;
    cli_table_t t = {a->output, a->ninputs, a->inputs, mem_limit, table_row, header_cb, a};
    int rc = cli_run_table_flush(&t, flush_rows);
    tk_pattern_free(a->pat);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    a.held.width = 3;
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    return cli_mpi_exit(run(&a));
}
