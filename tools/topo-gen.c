/*
 * topo-gen - generate a topology of a named family.  See topo-gen(1).
 *
 *   topo-gen FAMILY [KEY=VALUE ...] [-p SERVERS] [-s SEED] [-f FORMAT] [-o FILE]
 */
#include <config.h>

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

#define USAGE                                                                                      \
    "topo-gen FAMILY [KEY=VALUE ...] [-p SERVERS] [-s SEED] [-f FORMAT] [-o FILE] "                \
    "[--threads N]"

typedef struct args {
    const char *family;
    int nkv;
    char **kv;
    tk_gen_opts_t opts;
    tk_format_t fmt;
    const char *output;
} args_t;

static void help(void)
{
    const tk_family_t *const *f;

    printf("usage: %s\n"
           "       topo-gen --list | --help | --version\n\n"
           "Generate a topology and write it (native format by default).\n\n"
           "Options:\n"
           "  -p, --servers=P   servers per switch (default 1; per leaf in dragonfly+, fattree)\n"
           "  -s, --seed=SEED   seed of the randomized families (default 1)\n"
           "  -f, --format=FMT  native, graph6, sparse6, digraph6, edges or dot\n"
           "  -o, --output=FILE write FILE (atomically) instead of standard output\n"
           "      --threads=N   worker threads (the output never depends on it)\n"
           "      --list        print the families, one per line: name, TAB, parameters\n"
           "                    (optional ones as [KEY=DEFAULT])\n"
           "  -h, --help        this help\n"
           "      --version     print the version\n\n"
           "Families:\n",
           USAGE);
    for (f = tk_families(); *f; f++) {
        /* Long synopses get a line of their own. */
        if (strlen((*f)->synopsis) > 26)
            printf("  %s\n  %-26s", (*f)->synopsis, "");
        else
            printf("  %-26s", (*f)->synopsis);
        printf(" %s%s", (*f)->summary, (*f)->randomized ? " [-s SEED]" : "");
        if ((*f)->alias)
            printf(" (alias %s)", (*f)->alias);
        printf("\n");
    }
    printf("\nSee topo-gen(1) for the constraints of each family.\n");
}

static void parse_args(int argc, char **argv, args_t *a)
{
    enum { OPT_VERSION = 256, OPT_LIST, OPT_THREADS };
    static const struct option longopts[] = {{"servers", required_argument, NULL, 'p'},
                                             {"seed", required_argument, NULL, 's'},
                                             {"format", required_argument, NULL, 'f'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"list", no_argument, NULL, OPT_LIST},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {NULL, 0, NULL, 0}};
    const tk_family_t *const *f;
    tk_error_t err;
    int c;

    memset(a, 0, sizeof *a);
    a->fmt = TK_FMT_NATIVE;
    opterr = 0; /* report option errors ourselves, under the tool's name */
    while ((c = getopt_long(argc, argv, ":hp:s:f:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'p':
            a->opts.servers = (int32_t)cli_int_arg("-p", optarg, 0, INT32_MAX);
            a->opts.servers_given = 1;
            break;
        case 's':
            a->opts.seed = cli_u64_arg("-s", optarg);
            a->opts.seed_given = 1;
            break;
        case 'f':
            if (tk_format_parse(optarg, &a->fmt, &err) != TK_OK || a->fmt == TK_FMT_AUTO)
                cli_arg_fail("-f", optarg,
                             "not an output format (native, graph6, sparse6, digraph6, edges or "
                             "dot)");
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_THREADS:
            a->opts.threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case OPT_LIST:
            /* name, then its parameters with their defaults ([k=DEFAULT]) */
            for (f = tk_families(); *f; f++) {
                const char *params = strchr((*f)->synopsis, ' ');
                printf("%s\t%s%s\n", (*f)->name, params ? params + 1 : "",
                       (*f)->randomized ? " [-s 1]" : "");
            }
            exit(fflush(stdout) || ferror(stdout) ? CLI_EXIT_DATA : CLI_EXIT_OK);
        case OPT_VERSION:
            cli_print_version();
            exit(fflush(stdout) || ferror(stdout) ? CLI_EXIT_DATA : CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, USAGE, help);
        }
    }
    if (optind >= argc)
        cli_usage_fail(USAGE, "missing FAMILY");
    a->family = argv[optind];
    a->kv = argv + optind + 1;
    a->nkv = argc - optind - 1;
}

/* Write g to the output, held until it is complete: a graph the format
 * cannot hold prints nothing, and -o FILE is replaced atomically. */
static int write_out(const args_t *a, const tk_graph_t *g)
{
    tk_error_t err;
    cli_out_t out;

    if (cli_out_open_held(&out, a->output))
        return CLI_EXIT_DATA;
    if (tk_write_graph(out.fp, g, a->fmt, &err) != TK_OK) {
        cli_error(&err);
        cli_out_abort(&out);
        return CLI_EXIT_DATA;
    }
    return cli_out_commit(&out) ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

static int run(args_t *a)
{
    const tk_family_t *f = tk_family_find(a->family);
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_status_t st;
    int rc;

    a->opts.mem_limit = cli_mem_limit();
    cli_set_threads(a->opts.threads);
    tk_error_clear(&err);
    st = tk_generate(a->family, a->nkv, a->kv, &a->opts, &g, &err);
    if (st) {
        cli_error(&err);
        /* Malformed command lines (unknown family or key, missing key, not
         * a number) are usage errors; impossible values are data errors. */
        return st == TK_EINVAL ? CLI_EXIT_USAGE : CLI_EXIT_DATA;
    }
    if (f && a->opts.seed_given && !f->randomized)
        cli_warnf("-s ignored: %s is not a randomized family", f->name);
    rc = write_out(a, g);
    tk_graph_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-gen");
    parse_args(argc, argv, &a);
    return run(&a);
}
