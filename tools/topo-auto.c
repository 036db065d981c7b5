/*
 * topo-auto - automorphism group of every graph of the inputs: group order,
 * vertex and arc orbits, transitivity, canonical hash; or an isomorphism
 * test between two graphs (--iso).  See topo-auto(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "topo-auto [--orbits] [--json] [--max-nodes N] [--threads N] [--progress] [-o FILE] [FILE...]\n"
    "       topo-auto --iso [-q] [--max-nodes N] FILE_A FILE_B";

typedef struct args {
    int iso;            /* --iso                                       */
    int quiet;          /* -q: --iso verdict by exit status only       */
    int orbits;         /* --orbits: per-switch orbit table            */
    int json;           /* --json                                      */
    long max_nodes;     /* --max-nodes N (0 = default cap, -1 = none)  */
    int threads;        /* --threads N                                 */
    const char *output; /* -o FILE                                     */
    char **inputs;
    int ninputs;
    uint64_t mem_limit; /* TOPOKIT_MEMORY_LIMIT, set by run()          */
    int header_done;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Automorphism group (nauty) of every graph read from FILE (or standard input):\n"
          "one TSV row per graph with the columns\n"
          "  name n group_order vertex_orbits arc_orbits vertex_transitive arc_transitive\n"
          "  canonical_hash\n"
          "Automorphisms respect link multiplicities, self-loops, link classes and\n"
          "capacities and the server count of every switch.\n\n"
          "Options:\n"
          "  --iso              read one graph from FILE_A and one from FILE_B and print\n"
          "                     'isomorphic' or 'not isomorphic' (exit 0 either way)\n"
          "  -q, --quiet        with --iso: print nothing; exit 0 if isomorphic, 1 if not\n"
          "  --orbits           table 'name switch orbit' (orbit = smallest switch of it)\n"
          "  --json             JSON Lines, one object per graph\n"
          "  --max-nodes N      cap nauty's search tree at N nodes (default: scaled to\n"
          "                     the graph size; 0 = no cap); a capped graph prints\n"
          "                     'unknown'\n"
          "  --threads N        accepted for uniformity (N >= 1); the search is serial\n"
          "  --progress         progress on stderr (percentage, rate, ETA)\n"
          "  -o, --output FILE  write to FILE (atomically) instead of stdout\n"
          "  -h, --help         this help\n"
          "      --version      print the version\n\n"
          "Exit status: 0 success, 1 data error (or, with --iso -q, not isomorphic),\n"
          "2 usage error.  See topo-auto(1).\n",
          stdout);
}

enum { OPT_ISO = 256, OPT_ORBITS, OPT_JSON, OPT_MAXN, OPT_THREADS, OPT_PROGRESS, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"iso", no_argument, NULL, OPT_ISO},
        {"quiet", no_argument, NULL, 'q'},
        {"orbits", no_argument, NULL, OPT_ORBITS},
        {"json", no_argument, NULL, OPT_JSON},
        {"max-nodes", required_argument, NULL, OPT_MAXN},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;

    memset(a, 0, sizeof *a);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hqo:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_ISO:
            a->iso = 1;
            break;
        case 'q':
            a->quiet = 1;
            break;
        case OPT_ORBITS:
            a->orbits = 1;
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case OPT_MAXN: {
            int64_t v = cli_int_arg("--max-nodes", optarg, 0, INT32_MAX);
            a->max_nodes = v == 0 ? -1 : (long)v;
            break;
        }
        case OPT_THREADS:
            a->threads = (int)cli_int_arg("--threads", optarg, 1, 4096);
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_PROGRESS:
            cli_progress_enable(1);
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
    if (a->iso) {
        if (a->ninputs != 2)
            cli_usage_fail(usage, "--iso needs exactly two files");
        if (a->orbits || a->json)
            cli_usage_fail(usage, "--iso cannot be combined with --orbits or --json");
    } else if (a->quiet) {
        cli_usage_fail(usage, "-q is only meaningful with --iso");
    }
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    if (a->orbits)
        fputs("name\tswitch\torbit\n", fp);
    else
        fputs("name\tn\tgroup_order\tvertex_orbits\tarc_orbits\tvertex_transitive\t"
              "arc_transitive\tcanonical_hash\n",
              fp);
}

/* The group of one graph: TSV columns, or a JSON object that adds the
 * search size (and the orbit array with --orbits). */
static void group_cells(cli_row_t *row, const tk_auto_t *r)
{
    char buf[64];

    if (r->order_exact) {
        cli_cell_u64(row, "group_order", r->order);
    } else { /* mantissa and exponent: a string in JSON */
        snprintf(buf, sizeof buf, "%.15ge%+d", r->order_mant, r->order_exp10);
        cli_cell_text(row, "group_order", buf);
    }
    cli_cell_int(row, "vertex_orbits", r->norbits, 0);
    cli_cell_int(row, "arc_orbits", r->arc_orbits, 0);
    cli_cell_bool(row, "vertex_transitive", r->vertex_transitive);
    cli_cell_bool(row, "arc_transitive", r->arc_transitive);
    snprintf(buf, sizeof buf, "%016" PRIx64, r->canon_hash);
    cli_cell_text(row, "canonical_hash", buf);
}

static void print_row(FILE *fp, const args_t *a, const char *name, const tk_graph_t *g,
                      const tk_auto_t *r)
{
    static const char *const group_cols[] = {"group_order",    "vertex_orbits",
                                             "arc_orbits",     "vertex_transitive",
                                             "arc_transitive", "canonical_hash"};
    const int done = r->status == TK_AUTO_DONE;
    cli_row_t row;

    if (a->orbits && !a->json) {
        for (int64_t v = 0; v < g->n; v++) {
            cli_row_begin(&row, fp, 0);
            cli_cell_text(&row, "name", name);
            cli_cell_int(&row, "switch", v, 0);
            cli_cell_int(&row, "orbit", r->orbit[v], 0);
            cli_row_end(&row);
        }
        return;
    }
    cli_row_begin(&row, fp, a->json);
    cli_cell_text(&row, "name", name);
    cli_cell_int(&row, "n", g->n, 0);
    if (a->json)
        cli_cell_bool(&row, "complete", done);
    if (done)
        group_cells(&row, r);
    else /* the search was capped */
        for (int i = 0; i < 6; i++)
            if (a->json)
                cli_cell_null(&row, group_cols[i]);
            else
                cli_cell_text(&row, group_cols[i], "unknown");
    if (a->json) {
        cli_cell_u64(&row, "search_nodes", r->nodes);
        cli_cell_int(&row, "generators", r->ngenerators, 0);
        if (a->orbits) {
            cli_cell_open(&row, "orbit", '[');
            for (int64_t v = 0; v < g->n; v++)
                cli_cell_int(&row, NULL, r->orbit[v], 0);
            cli_cell_close(&row);
        }
    }
    cli_row_end(&row);
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index,
                     uint64_t mem_limit)
{
    char name[1024];
    tk_auto_t r;
    tk_error_t err;
    tk_auto_opts_t opts = {a->max_nodes, 1, 1, mem_limit};

    cli_graph_name(g, input, index, name, sizeof name);
    cli_progress("%s: graph %ld: n=%" PRId64 ": automorphisms", input, index, (int64_t)g->n);
    tk_error_clear(&err);
    /* nauty's search does not report how far it is: the meter shows the
     * graph as one unit and the time it took. */
    tk_progress_t *meter = cli_meter_graph(input, index);
    tk_progress_begin(meter, "automorphisms", "graphs", 1);
    tk_status_t st = tk_auto_compute(g, &opts, &r, &err);
    if (st == TK_OK)
        tk_progress_add(meter, 1);
    tk_progress_end(meter);
    if (st != TK_OK) {
        cli_graph_error(input, index, &err);
        return 1;
    }
    print_header(out, a);
    print_row(out, a, name, g, &r);
    if (r.status != TK_AUTO_DONE)
        cli_warnf("%s: graph %ld (%s): search capped after %lu nodes: result unknown", input, index,
                  name, r.nodes);
    tk_auto_destroy(&r);
    return 0;
}

/* cli_each_graph callback for --iso: keep the first graph and stop. */
static int keep_first(void *ctx, tk_graph_t *g, const char *input, long index)
{
    (void)input;
    (void)index;
    *(tk_graph_t **)ctx = g;
    return CLI_EACH_STOP;
}

/* cli_run_table callbacks. */
static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    args_t *a = ctx;

    return one_graph(out, a, g, input, index, a->mem_limit);
}

static void table_header(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

static int run_iso(args_t *a, uint64_t mem_limit)
{
    tk_graph_t *ga = NULL, *gb = NULL;
    tk_error_t err;
    int iso = 0;
    cli_out_t out;

    if (cli_each_graph(a->inputs[0], mem_limit, NULL, keep_first, &ga) ||
        cli_each_graph(a->inputs[1], mem_limit, NULL, keep_first, &gb)) {
        tk_graph_free(ga);
        tk_graph_free(gb);
        return CLI_EXIT_DATA;
    }
    tk_auto_opts_t opts = {a->max_nodes, 0, 1, mem_limit};
    tk_error_clear(&err);
    tk_status_t st = tk_auto_isomorphic(ga, gb, &opts, &iso, &err);
    tk_graph_free(ga);
    tk_graph_free(gb);
    if (st != TK_OK) {
        cli_errorf("%s", err.msg[0] ? err.msg : tk_status_str(err.code));
        return CLI_EXIT_DATA;
    }
    if (a->quiet)
        return iso ? CLI_EXIT_OK : CLI_EXIT_DATA;
    if (cli_out_open(&out, a->output) != 0)
        return CLI_EXIT_DATA;
    fputs(iso ? "isomorphic\n" : "not isomorphic\n", out.fp);
    return cli_out_commit(&out) != 0 ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

static int run(args_t *a)
{
    a->mem_limit = cli_mem_limit();
    cli_set_threads(a->threads);
    if (a->iso)
        return run_iso(a, a->mem_limit);

    cli_table_t t = {a->output, a->ninputs, a->inputs, a->mem_limit, table_row, table_header, a};

    return cli_run_table(&t);
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    return run(&a);
}
