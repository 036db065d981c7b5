/*
 * topo-fail - remove links or switches from a topology.  See topo-fail(1).
 *
 *   topo-fail [-k K | -F FRACTION | -l LIST] [-w] [-t ORDER] [-c CLASS]
 *             [-s SEED] [-f FORMAT] [-i INFORMAT] [-o FILE] [FILE]
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define USAGE                                                                                      \
    "topo-fail [-k K | -F FRACTION | -l LIST] [-w] [-t ORDER] [-c CLASS] [-s SEED]\n"              \
    "                 [-f FORMAT] [-i INFORMAT] [-o FILE] [--threads N] [FILE]"

typedef struct args {
    tk_fail_opts_t opts;
    char *list_text;
    int have_k, have_f, have_order;
    tk_format_t out_fmt;
    tk_format_t in_fmt;
    const char *output;
    const char *input;
    int threads;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n"
           "Remove links (or switches with their servers) from every graph of FILE\n"
           "(standard input when absent or '-') and write the degraded topologies; the\n"
           "removals are recorded in the spec.  A disconnected result is written with a\n"
           "warning on standard error.\n\n"
           "Options:\n"
           "  -k, --count=K           remove K links (switches)\n"
           "  -F, --fraction=F        remove round(F x eligible) links (switches), F in [0,1]\n"
           "  -l, --list=LIST         remove the named links u-v,u-v,... (switches u,u,...)\n"
           "  -w, --switches          remove switches instead of links\n"
           "  -t, --target=ORDER      random (default), betweenness (highest first,\n"
           "                          recomputed after each removal) or betweenness-once\n"
           "                          (highest of the intact topology first)\n"
           "  -c, --class=CLASS       only links of class CLASS (e.g. global)\n"
           "  -s, --seed=SEED         seed of the random choice (default 1)\n"
           "  -f, --format=FMT        output format: native (default), graph6, sparse6,\n"
           "                          edges, dot, graphml, gml, anynet or caminos\n"
           "  -i, --input-format=FMT  input format (default auto)\n"
           "  -o, --output=FILE       write FILE (atomically) instead of standard output\n"
           "      --threads=N         worker threads (the output never depends on it)\n"
           "  -h, --help              this help\n"
           "      --version           print the version\n",
           USAGE);
}

/* LIST into opts.list: "u-v,..." (links) or "u,..." (switches). */
static void parse_list(args_t *a)
{
    int links = a->opts.unit == TK_FAIL_LINKS;
    size_t cap = 1;
    for (const char *p = a->list_text; *p; p++)
        cap += *p == ',';
    int64_t *ids = calloc(cap * 2, sizeof *ids);
    char *copy = strdup(a->list_text);
    if (!ids || !copy) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    int64_t n = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        char why[128], *dash = links ? strchr(tok, '-') : NULL;
        if (links && !dash)
            cli_arg_fail("-l", a->list_text, "'%s' is not a link u-v", tok);
        if (dash)
            *dash = 0;
        if (cli_parse_int(tok, 0, INT32_MAX, &ids[2 * n], why) != 0 ||
            (dash && cli_parse_int(dash + 1, 0, INT32_MAX, &ids[2 * n + 1], why) != 0))
            cli_arg_fail("-l", a->list_text, "%s", why);
        n++;
    }
    free(copy);
    if (n == 0)
        cli_arg_fail("-l", a->list_text, "names nothing");
    if (!links)
        for (int64_t i = 0; i < n; i++)
            ids[i] = ids[2 * i];
    a->opts.list = ids;
    a->opts.nlist = n;
}

static void parse_args(int argc, char **argv, args_t *a)
{
    enum { OPT_VERSION = 256, OPT_THREADS };
    static const struct option longopts[] = {{"count", required_argument, NULL, 'k'},
                                             {"fraction", required_argument, NULL, 'F'},
                                             {"list", required_argument, NULL, 'l'},
                                             {"switches", no_argument, NULL, 'w'},
                                             {"target", required_argument, NULL, 't'},
                                             {"class", required_argument, NULL, 'c'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"input-format", required_argument, NULL, 'i'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {NULL, 0, NULL, 0}};
    static const char *const orders[] = {"random", "betweenness", "betweenness-once", NULL};
    tk_error_t err;
    int c;

    memset(a, 0, sizeof *a);
    a->opts.seed = 1;
    a->opts.count = -1;
    a->out_fmt = TK_FMT_NATIVE;
    a->in_fmt = TK_FMT_AUTO;
    while ((c = getopt_long(argc, argv, ":hk:F:l:wt:c:s:f:i:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'k':
            a->opts.count = cli_int_arg("-k", optarg, 0, INT64_MAX / 4);
            a->have_k = 1;
            break;
        case 'F':
            a->opts.fraction = cli_double_arg("-F", optarg, 0, 1, 0);
            a->have_f = 1;
            break;
        case 'l':
            a->list_text = optarg;
            break;
        case 'w':
            a->opts.unit = TK_FAIL_SWITCHES;
            break;
        case 't':
            a->opts.order = (tk_fail_order_t)cli_choice_arg("-t", optarg, orders);
            a->have_order = 1;
            break;
        case 'c':
            a->opts.cls = optarg;
            break;
        case 's':
            a->opts.seed = cli_u64_arg("-s", optarg);
            break;
        case 'f':
            if (tk_format_parse(optarg, &a->out_fmt, &err) != TK_OK || a->out_fmt == TK_FMT_AUTO ||
                a->out_fmt == TK_FMT_DIGRAPH6)
                cli_arg_fail("-f", optarg,
                             "not an output format (native, graph6, sparse6, edges, dot, "
                             "graphml, gml, anynet or caminos)");
            break;
        case 'i':
            if (tk_format_parse(optarg, &a->in_fmt, &err) != TK_OK || a->in_fmt == TK_FMT_DOT)
                cli_arg_fail("-i", optarg,
                             "not an input format (auto, native, graph6, sparse6, digraph6, "
                             "edges, graphml, gml, anynet or caminos)");
            break;
        case 'o':
            a->output = optarg;
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
    if (a->have_k + a->have_f + (a->list_text != NULL) != 1)
        cli_usage_fail(USAGE, "exactly one of -k, -F and -l says what to remove");
    if (a->list_text) {
        if (a->have_order)
            cli_usage_fail(USAGE, "-t chooses victims; -l names them (give one)");
        if (a->opts.cls)
            cli_usage_fail(USAGE, "-c selects among random or targeted victims, not with -l");
        a->opts.order = TK_FAIL_LIST;
        parse_list(a);
    }
    if (a->opts.cls && a->opts.unit == TK_FAIL_SWITCHES)
        cli_usage_fail(USAGE, "-c CLASS selects links; it does not go with -w");
    if (argc - optind > 1)
        cli_usage_fail(USAGE, "at most one input FILE (got %d operands)", argc - optind);
    if (optind < argc)
        a->input = argv[optind];
}

/* Degrade one graph, write it, and warn when it came apart. */
static int degrade(void *ctx, const tk_graph_t *g, const char *name, long idx, FILE *out)
{
    const args_t *a = ctx;
    tk_graph_t *h = NULL;
    tk_error_t err;

    tk_error_clear(&err);
    if (tk_fail_apply(g, &a->opts, &h, &err) != TK_OK ||
        tk_write_graph(out, h, a->out_fmt, &err) != TK_OK) {
        cli_graph_error(name, idx, &err);
        tk_graph_free(h);
        return 1;
    }
    tk_error_clear(&err);
    if (tk_check_connected(h, &err) == TK_EDISCONNECTED)
        cli_warnf("%s: graph %ld: after the removals %s", name, idx, err.msg);
    tk_graph_free(h);
    return 0;
}

/* Degrade every graph of the input (the output held: a failure leaves
 * none).  Returns the exit status. */
static int run(const args_t *a)
{
    cli_set_threads(a->threads);
    return cli_filter_graphs(a->input, a->in_fmt, a->out_fmt, a->output, 1, degrade, (void *)a);
}

int main(int argc, char **argv)
{
    args_t a;
    int status;

    cli_set_prog("topo-fail");
    parse_args(argc, argv, &a);
    status = run(&a);
    free((void *)a.opts.list);
    return status;
}
