/*
 * topo-conv - convert topologies between file formats.  See topo-conv(1).
 *
 *   topo-conv [-f FORMAT] [-i INFORMAT] [--cycle CYCLE] [-o FILE] [--threads N] [FILE]
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define USAGE "topo-conv [-f FORMAT] [-i INFORMAT] [--cycle CYCLE] [-o FILE] [--threads N] [FILE]"

typedef struct args {
    tk_format_t out_fmt;
    tk_format_t in_fmt;
    const char *output;
    const char *input;
    const char *cycle; /* --cycle: a cycle file whose links DOT highlights */
    int threads;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n"
           "Read every graph of FILE (standard input when absent or '-') and write each in\n"
           "FORMAT.  The input format is detected per graph unless -i is given.\n\n"
           "Options:\n"
           "  -f, --format=FMT        output format: native (default), graph6, sparse6,\n"
           "                          digraph6, edges, dot, graphml, gml, anynet\n"
           "                          (BookSim) or caminos\n"
           "  -i, --input-format=FMT  input format: auto (default), native, graph6,\n"
           "                          sparse6, digraph6, edges, graphml, gml, anynet\n"
           "                          or caminos\n"
           "      --cycle=CYCLE       with -f dot: highlight the links of the cycle file\n"
           "                          CYCLE (topo-antmill -o) in every graph\n"
           "  -o, --output=FILE       write FILE (atomically) instead of standard output\n"
           "      --threads=N         worker threads (the output never depends on it)\n"
           "  -h, --help              this help\n"
           "      --version           print the version\n\n"
           "Formats are described in topokit-formats(5).\n",
           USAGE);
}

static void parse_args(int argc, char **argv, args_t *a)
{
    enum { OPT_VERSION = 256, OPT_THREADS, OPT_CYCLE };
    static const struct option longopts[] = {{"format", required_argument, NULL, 'f'},
                                             {"input-format", required_argument, NULL, 'i'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"cycle", required_argument, NULL, OPT_CYCLE},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {NULL, 0, NULL, 0}};
    tk_error_t err;
    int c;

    memset(a, 0, sizeof *a);
    a->out_fmt = TK_FMT_NATIVE;
    a->in_fmt = TK_FMT_AUTO;
    while ((c = getopt_long(argc, argv, ":hf:i:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'f':
            if (tk_format_parse(optarg, &a->out_fmt, &err) != TK_OK || a->out_fmt == TK_FMT_AUTO)
                cli_arg_fail("-f", optarg,
                             "not an output format (native, graph6, sparse6, digraph6, edges, "
                             "dot, graphml, gml, anynet or caminos)");
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
        case OPT_CYCLE:
            a->cycle = optarg;
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
    if (argc - optind > 1)
        cli_usage_fail(USAGE, "at most one input FILE (got %d operands)", argc - optind);
    if (optind < argc)
        a->input = argv[optind];
    if (a->cycle && a->out_fmt != TK_FMT_DOT)
        cli_usage_fail(USAGE, "--cycle %s: only with -f dot", a->cycle);
}

/* The --cycle file, read once against the first graph's size. */
typedef struct conv {
    const args_t *a;
    tk_id_t *cyc;
    int64_t ncyc;
} conv_t;

static int convert(void *ctx, const tk_graph_t *g, const char *name, long idx, FILE *out)
{
    conv_t *c = ctx;
    const args_t *a = c->a;
    tk_error_t err;
    tk_status_t st;

    tk_error_clear(&err);
    if (a->cycle && !c->cyc) {
        FILE *cf = fopen(a->cycle, "r");
        long *lines = NULL;
        if (!cf) {
            cli_errorf("%s: %s", a->cycle, strerror(errno));
            return 1;
        }
        st = tk_cycle_read(cf, a->cycle, g->n, &c->cyc, &c->ncyc, &lines, &err);
        fclose(cf);
        free(lines);
        if (st != TK_OK) {
            cli_error(&err);
            return 1;
        }
    }
    st = a->cycle ? tk_write_dot(out, g, c->cyc, c->ncyc, &err)
                  : tk_write_graph(out, g, a->out_fmt, &err);
    if (st != TK_OK) {
        char msg[TK_ERRMSG_MAX];
        snprintf(msg, sizeof msg, "%s", err.msg);
        if (a->cycle && (st == TK_EINVAL || st == TK_ERANGE)) /* the cycle's fault */
            tk_error_set(&err, st, a->cycle, 0, "graph %ld of %s: %s", idx, name, msg);
        else
            tk_error_set(&err, st, name, 0, "graph %ld: %s", idx, msg);
        cli_error(&err);
        return 1;
    }
    return 0;
}

/* Convert every graph of the input.  A format that holds one graph is
 * held back until the input is known to hold one (a second graph is
 * refused with nothing written); a stream of graphs streams.  Returns the
 * exit status. */
static int run(const args_t *a)
{
    conv_t c = {a, NULL, 0};

    cli_set_threads(a->threads);
    int status = cli_filter_graphs(a->input, a->in_fmt, a->out_fmt, a->output,
                                   cli_format_single(a->out_fmt), convert, &c);
    free(c.cyc);
    return status;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-conv");
    parse_args(argc, argv, &a);
    return run(&a);
}
