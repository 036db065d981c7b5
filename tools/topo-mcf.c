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
    "topo-mcf [-r ROUTING] [-P PATTERN]... [-m 'KIND K=V...']... [-s SEED]\n"
    "                [--method exact|approx|auto] [--lp simplex|barrier|auto] [--eps E]\n"
    "                [--time-limit S] [--max-paths N] [--no-presolve] [--links] [--json]\n"
    "                [--threads N] [-o FILE] [TOPOLOGY...]";

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
    int links, json, threads;
    const char *output;
    char **inputs;
    int ninputs;
    /* run state */
    tk_pattern_t *pat[MAX_PATTERNS];
    const char *patname[MAX_PATTERNS];
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
          "  name routing pattern theta throughput upper_bound gap method time\n"
          "Default pattern: uniform all-to-all between switches (each switch offers\n"
          "load 1 per server, spread evenly over the other switches).\n\n"
          "Options:\n"
          "  -r, --routing R       restrict flows to the paths of routing model R\n"
          "                        (min, ksp:K, allpath:H, valiant, ...; topokit(7))\n"
          "  -P, --pattern FILE    a pattern file (topokit-formats(5)); repeatable\n"
          "  -m, --make 'KIND K=V' a pattern made for each graph as topo-pattern(1)\n"
          "                        would; repeatable\n"
          "  -s, --seed SEED       seed of randomized --make patterns (default 1)\n"
          "      --method M        exact (GLPK simplex), approx (certified (1-eps)\n"
          "                        Garg-Koenemann), auto (default: exact when small)\n"
          "      --lp A            exact: simplex (GLPK), barrier (interior point,\n"
          "                        certified to 1e-9, else the simplex) or auto\n"
          "                        (default: barrier on large LPs)\n"
          "      --eps E           approx: stop at relative gap E (default 0.01)\n"
          "      --time-limit S    give up after S seconds (exit 1)\n"
          "      --max-paths N     -r: refuse pairs with more than N paths\n"
          "                        (default 100000)\n"
          "      --no-presolve     -r: always solve the whole LP as written (no split\n"
          "                        check, every capacity row from the start)\n"
          "      --links           print the saturated links instead: table\n"
          "                        name routing pattern tail head class load dual\n"
          "      --json            JSON Lines, one object per graph and pattern\n"
          "      --threads N       OpenMP threads (N >= 1)\n"
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
    OPT_NOPRESOLVE
};

static double dbl_arg(const char *opt, const char *s, double lo, double hi, int lo_open)
{
    char *end;
    double v = strtod(s, &end);
    if (end == s || *end || !isfinite(v) || v < lo || v > hi || (lo_open && v == lo))
        cli_usage_fail(usage, "invalid value '%s' for %s: must be a number in %s%g, %g]", s, opt,
                       lo_open ? "(" : "[", lo, hi);
    return v;
}

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"routing", required_argument, NULL, 'r'},
        {"pattern", required_argument, NULL, 'P'},
        {"make", required_argument, NULL, 'm'},
        {"seed", required_argument, NULL, 's'},
        {"method", required_argument, NULL, OPT_METHOD},
        {"lp", required_argument, NULL, OPT_LP},
        {"eps", required_argument, NULL, OPT_EPS},
        {"time-limit", required_argument, NULL, OPT_TLIM},
        {"max-paths", required_argument, NULL, OPT_MAXPATHS},
        {"links", no_argument, NULL, OPT_LINKS},
        {"no-presolve", no_argument, NULL, OPT_NOPRESOLVE},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

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
        case 'm':
            if (a->npfile + a->nmake >= MAX_PATTERNS)
                cli_usage_fail(usage, "at most %d patterns", MAX_PATTERNS);
            a->make[a->nmake++] = optarg;
            break;
        case 's':
            a->seed = cli_u64_arg("--seed", optarg);
            break;
        case OPT_METHOD:
            if (!strcmp(optarg, "exact"))
                a->opts.method = TK_MCF_EXACT;
            else if (!strcmp(optarg, "approx"))
                a->opts.method = TK_MCF_APPROX;
            else if (!strcmp(optarg, "auto"))
                a->opts.method = TK_MCF_AUTO;
            else
                cli_usage_fail(usage, "invalid value '%s' for --method: exact, approx or auto",
                               optarg);
            break;
        case OPT_LP:
            if (!strcmp(optarg, "simplex"))
                a->opts.lp = TK_MCF_LP_SIMPLEX;
            else if (!strcmp(optarg, "barrier"))
                a->opts.lp = TK_MCF_LP_BARRIER;
            else if (!strcmp(optarg, "auto"))
                a->opts.lp = TK_MCF_LP_AUTO;
            else
                cli_usage_fail(usage, "invalid value '%s' for --lp: simplex, barrier or auto",
                               optarg);
            break;
        case OPT_EPS:
            a->opts.eps = dbl_arg("--eps", optarg, 0, 0.5, 1);
            break;
        case OPT_TLIM:
            a->opts.time_limit = dbl_arg("--time-limit", optarg, 0, 1e9, 1);
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
        fputs("name\trouting\tpattern\ttheta\tthroughput\tupper_bound\tgap\tmethod\ttime\n", fp);
}

static void json_double(FILE *fp, double v)
{
    if (isinf(v))
        fputs("\"inf\"", fp);
    else
        cli_print_double(fp, v);
}

static void print_result(FILE *fp, const args_t *a, const tk_graph_t *g, const char *name,
                         const result_t *res)
{
    const tk_mcf_result_t *r = &res->r;
    const char *routing = a->routing ? a->rspec.text : "-";
    double thr = r->theta < 1 ? r->theta : 1;
    int64_t *tail = NULL;

    if (a->links || a->json) {
        tail = malloc(((size_t)r->nsat + 1) * sizeof *tail);
        if (!tail)
            return;
        for (int64_t i = 0; i < r->nsat; i++) {
            int64_t arc = r->sat_arc[i], lo = 0, hi = g->n;
            while (hi - lo > 1) { /* tail: largest u with off[u] <= arc */
                int64_t mid = (lo + hi) / 2;
                if (g->off[mid] <= arc)
                    lo = mid;
                else
                    hi = mid;
            }
            tail[i] = lo;
        }
    }
    if (a->json) {
        fputs("{\"name\":", fp);
        cli_print_json_string(fp, name);
        fputs(",\"routing\":", fp);
        cli_print_json_string(fp, routing);
        fputs(",\"pattern\":", fp);
        cli_print_json_string(fp, res->pattern);
        fputs(",\"theta\":", fp);
        json_double(fp, r->theta);
        fputs(",\"throughput\":", fp);
        json_double(fp, thr);
        fputs(",\"upper_bound\":", fp);
        json_double(fp, r->upper);
        fputs(",\"gap\":", fp);
        json_double(fp, r->gap);
        fprintf(fp, ",\"method\":\"%s\",\"time\":", tk_mcf_method_name(r->method));
        cli_print_double(fp, r->seconds);
        fprintf(fp, ",\"iterations\":%" PRId64, r->iterations);
        if (r->method == TK_MCF_EXACT)
            fprintf(fp, ",\"rounds\":%" PRId64 ",\"lp\":\"%s\"", r->rounds,
                    r->no_lp     ? "none"
                    : r->barrier ? "barrier"
                                 : "simplex");
        if (a->links) {
            fputs(",\"links\":[", fp);
            for (int64_t i = 0; i < r->nsat; i++) {
                int64_t arc = r->sat_arc[i];
                fprintf(fp, "%s{\"tail\":%" PRId64 ",\"head\":%d,\"class\":", i ? "," : "", tail[i],
                        (int)g->head[arc]);
                cli_print_json_string(fp, g->class_name[g->cls ? g->cls[arc] : 0]);
                fputs(",\"load\":", fp);
                cli_print_double(fp, r->sat_load[i]);
                fputs(",\"dual\":", fp);
                cli_print_double(fp, r->sat_dual[i]);
                fputc('}', fp);
            }
            fputc(']', fp);
        }
        fputs("}\n", fp);
    } else if (a->links) {
        for (int64_t i = 0; i < r->nsat; i++) {
            int64_t arc = r->sat_arc[i];
            fprintf(fp, "%s\t%s\t%s\t%" PRId64 "\t%d\t%s\t", name, routing, res->pattern, tail[i],
                    (int)g->head[arc], g->class_name[g->cls ? g->cls[arc] : 0]);
            cli_print_double(fp, r->sat_load[i]);
            fputc('\t', fp);
            cli_print_double(fp, r->sat_dual[i]);
            fputc('\n', fp);
        }
    } else {
        fprintf(fp, "%s\t%s\t%s\t", name, routing, res->pattern);
        cli_print_double(fp, r->theta);
        fputc('\t', fp);
        cli_print_double(fp, thr);
        fputc('\t', fp);
        cli_print_double(fp, r->upper);
        fputc('\t', fp);
        cli_print_double(fp, r->gap);
        fprintf(fp, "\t%s\t%.3f\n", tk_mcf_method_name(r->method), r->seconds);
    }
    free(tail);
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

/* Split "KIND K=V ..." into words (in place). */
static int split_words(char *s, char **w, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        w[n++] = t;
    return n;
}

/* One graph and one pattern (index k: files first, then --make). */
static int solve_one(args_t *a, const tk_graph_t *g, const tk_router_t *router, int k,
                     const char *input, result_t *res, tk_error_t *err)
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
    } else if (k < a->npfile + a->nmake) {
        char buf[1024], *w[64];
        int nw;
        snprintf(buf, sizeof buf, "%s", a->make[k - a->npfile]);
        nw = split_words(buf, w, 64);
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
    }
    if (router)
        st = tk_mcf_solve_paths(router, &d, a->max_paths, &o, &res->r, err);
    else
        st = tk_mcf_solve(g, &d, &o, &res->r, err);
    tk_swdemand_destroy(&d);
    tk_pattern_free(made);
    (void)input;
    return st;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    args_t *a = ctx;
    int np = a->npfile + a->nmake, nres = np ? np : 1, failed = 0;
    result_t res[MAX_PATTERNS];
    tk_router_t *router = NULL;
    char name[1024];
    tk_error_t err;

    tk_error_clear(&err);
    cli_graph_name(g, input, index, name, sizeof name);
    memset(res, 0, sizeof res);
    if (a->routing &&
        tk_router_new(g, &a->rspec, a->threads, a->opts.mem_limit, &router, &err) != TK_OK) {
        set_where(&err, name);
        cli_error(&err);
        return 1;
    }
    for (int k = 0; k < nres && !failed; k++) {
        if (solve_one(a, g, router, k, input, &res[k], &err) != TK_OK) {
            set_where(&err, name);
            cli_error(&err);
            failed = 1;
        }
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
        const char *name;
        FILE *fp = cli_open_input(a->pfile[k], &name);
        tk_error_t err;
        tk_error_clear(&err);
        if (!fp)
            return CLI_EXIT_DATA;
        if (tk_pattern_read(fp, name, &a->pat[k], &err) != TK_OK) {
            cli_error(&err);
            cli_close_input(fp);
            return CLI_EXIT_DATA;
        }
        cli_close_input(fp);
        a->patname[k] = a->pat[k]->spec[0] ? a->pat[k]->spec : a->pfile[k];
    }
    cli_table_t t = {a->output, a->ninputs, a->inputs, mem_limit, table_row, table_header, a};
    rc = cli_run_table(&t);
    for (int k = 0; k < a->npfile; k++)
        tk_pattern_free(a->pat[k]);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-mcf");
    parse_args(argc, argv, &a);
    if (a.threads)
        cli_set_threads(a.threads);
    return run(&a);
}
