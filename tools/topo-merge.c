/*
 * topo-merge - combine the shard files of a --shard I/P run into the
 * output of the single run.  A thin front-end: it reads which tool wrote
 * the shards and runs `TOOL --from-shards [-o FILE] [--threads N]
 * [--progress] SHARD...`, which checks the shards, replays the run with
 * the shards' accumulators in place of the computation and prints what
 * the single run prints (tools/shard.c).  See topo-merge(1).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

static const char usage[] = "topo-merge [--threads N] [--progress] [-o FILE] SHARD...";

typedef struct args {
    const char *output;  /* -o FILE                                     */
    const char *threads; /* --threads N (as given, checked)             */
    int progress;        /* --progress                                  */
    char **shards;
    int nshards;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Combine the shard files written by 'TOOL --shard I/P' (topo-dist, topo-load,\n"
          "topo-ksp, topo-paths, topo-medoid, topo-antmill, topo-mcf, topo-sim, topo-vc;\n"
          "every I of one P, any order) into the output the run without --shard prints,\n"
          "byte for byte (topo-mcf's time column: each shard's).  The inputs the shards\n"
          "name (graph files, the -P FILE or standard input) are read again: give the\n"
          "same ones.\n\n"
          "Options:\n"
          "  --threads N           OpenMP threads for what the tool computes besides its\n"
          "                        jobs (N >= 1); results do not change\n"
          "  --progress            progress messages on stderr\n"
          "  -o, --output FILE     the tool's -o: write to FILE (atomically) instead of\n"
          "                        stdout (topo-antmill: the cycle file)\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 shards refused (missing, duplicate, of different\n"
          "runs or inputs, truncated, damaged) or the tool's own error, 2 usage error.\n"
          "See topo-merge(1).\n",
          stdout);
}

enum { OPT_THREADS = 256, OPT_PROGRESS, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"threads", required_argument, NULL, OPT_THREADS},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":ho:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_THREADS:
            cli_int_arg("--threads", optarg, 1, 4096);
            a->threads = optarg;
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
    a->shards = argv + optind;
    a->nshards = argc - optind;
    if (a->nshards == 0)
        cli_usage_fail(usage, "no shard files");
    for (int k = 0; k < a->nshards; k++)
        if (strcmp(a->shards[k], "-") == 0)
            cli_usage_fail(usage, "-: shards are files (standard input is the tool's)");
}

/* Run `tool` from the directory topo-merge was run from when it is there,
 * else from PATH. */
static int run(const args_t *a, const char *argv0)
{
    char *tool = NULL;
    if (cli_shard_tool(a->shards[0], &tool) != 0)
        return CLI_EXIT_DATA;
    char **v = calloc((size_t)a->nshards + 10, sizeof *v);
    char *path = NULL;
    const char *slash = strrchr(argv0, '/');
    if (!v || (slash && !(path = malloc((size_t)(slash - argv0) + strlen(tool) + 2)))) {
        cli_errorf("out of memory");
        return CLI_EXIT_DATA;
    }
    int n = 0;
    v[n++] = tool;
    v[n++] = "--from-shards";
    if (a->output) {
        v[n++] = "-o";
        v[n++] = (char *)a->output;
    }
    if (a->threads) {
        v[n++] = "--threads";
        v[n++] = (char *)a->threads;
    }
    if (a->progress)
        v[n++] = "--progress";
    v[n++] = "--";
    for (int k = 0; k < a->nshards; k++)
        v[n++] = a->shards[k];
    v[n] = NULL;
    fflush(stdout);
    if (path) {
        memcpy(path, argv0, (size_t)(slash - argv0) + 1);
        strcpy(path + (slash - argv0) + 1, tool);
        if (access(path, X_OK) == 0)
            execv(path, v);
    }
    execvp(tool, v);
    cli_errorf("%s: cannot run it: %s", tool, strerror(errno));
    free(path);
    free(v);
    free(tool);
    return CLI_EXIT_DATA;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    return run(&a, argv[0]);
}
