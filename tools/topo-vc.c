/*
 * topo-vc - static deadlock and virtual-channel analysis: the channel
 * dependency graph of a routing model under a VC policy, its verdict, the
 * VCs used per link class, a shortest dependency cycle, the least caps of
 * the capped families, the graph in DOT and an acyclicity certificate.
 * See topo-vc(1).
 */
#include <config.h>

#include <getopt.h>
#include <stdarg.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static const char usage[] =
    "topo-vc -r ROUTING -v POLICY [--min-vcs] [--table3 TOPOLOGY] [--escape ROUTING] "
    "[--server-pairs] "
    "[--enumerate] "
    "[--witness] "
    "[--cdg FILE] "
    "[--cert FILE | --check FILE] [-P PATTERN [--force] [--vc-loads FILE]] [--max-paths N] "
    "[--json] "
    "[--threads N] [--progress] [--shard I/P] [-o FILE] "
    "[FILE...]";

typedef struct args {
    tk_route_spec_t spec, escape; /* -r, --escape                    */
    int have_escape;
    const tk_router_t *er; /* the escape routing on the current graph     */
    tk_vc_policy_t pol;
    int have_spec, have_pol;
    int min_vcs, witness, json, threads, server_pairs, enumerate;
    int table3; /* --table3 TOPOLOGY: index in table3_topo, -1 none */
    uint64_t max_paths;
    const char *cdg, *cert, *check, *output, *pattern, *vcloads;
    tk_pattern_t *pat;
    int force; /* --force: -P made for another topology */
    char **inputs;
    int ninputs;
    int header_done;
} args_t;

/* Table III of Cano, Camarero, Martinez and Beivide, "Analysing
 * Mechanisms for Virtual Channel Management in Low-Diameter Networks": the
 * VCs each policy was given in their simulations (not the counts a policy
 * needs: 2Phases on the Dragonfly got 4 global and 8 local VCs). */
static const char *const table3_topo[] = {"hyperx2d", "dragonfly", "dragonfly+", "hyperx3d", NULL};
static const char *const table3_2phases[] = {"2+2", "global:2+2,local:4+4", "3+3", "3+3"};
static const char *const table3_ladder[] = {"4", "6", "6", "6"};

static const char *table3(const args_t *a)
{
    switch (a->pol.kind) {
    case TK_VC_2PHASES:
    case TK_VC_DFLADDER:
        return table3_2phases[a->table3];
    case TK_VC_LADDER:
    case TK_VC_LADDER_REUSE:
        return table3_ladder[a->table3];
    default:
        return "-";
    }
}

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Channel dependency graph (CDG) of a routing model under a virtual-channel\n"
          "policy, for every graph read from FILE (or standard input): one TSV row\n"
          "  name routing policy verdict basis channels deps max_hops vcs vcs_class\n"
          "  [min_vcs] [witness]\n"
          "verdict: deadlock-free (the judged graph is acyclic: a proof) or\n"
          "deadlock-prone (it has a cycle: a deadlock can form, not that it will).\n"
          "basis: cdg-acyclic, cdg-cyclic, or duato-acyclic / duato-cyclic for\n"
          "ladder-reuse, escape and olm (Duato's condition over their escape).\n\n"
          "Policies: none, ladder[,cap=K], ladder-reuse[,cap=K], 2phases[,MODE],\n"
          "dateline, dfladder[,MODE][,cap=L/G], dfladder-local[,MODE],\n"
          "dfhops[,template=T][,cap=L/G], escape[,vcs=A], olm[,cap=L/G][,srcreuse];\n"
          "MODE is minfirst (default), minlast, minboth or route.  See topo-vc(1).\n\n"
          "Options:\n"
          "  -r, --routing MODEL   the routing model (topokit(7); default min)\n"
          "  -v, --vc POLICY       the VC policy (default none)\n"
          "  --min-vcs             column min_vcs: the least cap of the policy's capped\n"
          "                        family that is acyclic (ladder: K of ladder,cap=K;\n"
          "                        dfladder, dfhops: the minimal L/G of cap=L/G)\n"
          "  --table3 TOPOLOGY     column table3: the VCs Table III of Cano et al. gave\n"
          "                        the policy on hyperx2d, dragonfly, dragonfly+ or hyperx3d\n"
          "  --server-pairs        only the pairs of switches that have servers\n"
          "  --witness             column witness: a shortest dependency cycle\n"
          "  --cdg FILE            write the judged dependency graph in DOT\n"
          "  --cert FILE           write the acyclicity certificate (a rank per channel)\n"
          "  --check FILE          verify a certificate: column certificate = ok\n"
          "  -P, --pattern FILE    per-VC loads of this pattern (topo-pattern(1)): columns\n"
          "                        inject2 vc_load imbalance cov (see topo-vc(1))\n"
          "  --force               use -P even if made for another topology\n"
          "  --vc-loads FILE       with -P: write 'tail head arc vc load' per channel\n"
          "  --escape ROUTING      escape: the escape subnetwork's routing (default dor)\n"
          "  --enumerate           list every pair's paths even for a two-phase routing\n"
          "                        (the same graph, slower: a check)\n"
          "  --max-paths N         refuse a pair with more than N paths (default 1000000)\n"
          "  --json                JSON Lines: one object per row\n"
          "  --threads N           OpenMP threads (N >= 1); results do not change\n"
          "  --progress            progress on stderr (percentage, rate, ETA)\n"
          "  --shard I/P           with -P: compute shard I of P of the loads only and\n"
          "                        write it as a shard file; topo-merge(1) combines them\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error (a policy that does not apply to the\n"
          "routing or graph, more VCs than 64, a certificate that fails), 2 usage error.\n",
          stdout);
}

enum {
    OPT_ESCAPE = 252,
    OPT_ENUMERATE = 253,
    OPT_TABLE3 = 254,
    OPT_SERVERPAIRS = 255,
    OPT_MINVCS = 256,
    OPT_VCLOADS,
    OPT_WITNESS,
    OPT_CDG,
    OPT_CERT,
    OPT_CHECK,
    OPT_MAXP,
    OPT_JSON,
    OPT_THREADS,
    OPT_PROGRESS,
    OPT_VERSION,
    OPT_SHARD
};
enum { OPT_FORCE = 512 };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"routing", required_argument, NULL, 'r'},
        {"vc", required_argument, NULL, 'v'},
        {"min-vcs", no_argument, NULL, OPT_MINVCS},
        {"server-pairs", no_argument, NULL, OPT_SERVERPAIRS},
        {"table3", required_argument, NULL, OPT_TABLE3},
        {"enumerate", no_argument, NULL, OPT_ENUMERATE},
        {"escape", required_argument, NULL, OPT_ESCAPE},
        {"pattern", required_argument, NULL, 'P'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"vc-loads", required_argument, NULL, OPT_VCLOADS},
        {"witness", no_argument, NULL, OPT_WITNESS},
        {"cdg", required_argument, NULL, OPT_CDG},
        {"cert", required_argument, NULL, OPT_CERT},
        {"check", required_argument, NULL, OPT_CHECK},
        {"max-paths", required_argument, NULL, OPT_MAXP},
        {"json", no_argument, NULL, OPT_JSON},
        {"threads", required_argument, NULL, OPT_THREADS},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"version", no_argument, NULL, OPT_VERSION},
        {"shard", required_argument, NULL, OPT_SHARD},
        {NULL, 0, NULL, 0},
    };
    int c;
    tk_error_t err;
    memset(a, 0, sizeof *a);
    a->max_paths = 1000000;
    a->table3 = -1;
    opterr = 0;
    cli_shard_args("topo-vc", &argc, &argv, ":hr:v:o:P:", longopts, usage);
    while ((c = getopt_long(argc, argv, ":hr:v:o:P:", longopts, NULL)) != -1) {
        switch (c) {
        case OPT_SHARD: /* cli_shard_args read it */
            break;
        case 'r':
            if (tk_route_parse(optarg, &a->spec, &err) != TK_OK)
                cli_usage_fail(usage, "%s", err.msg);
            a->have_spec = 1;
            break;
        case 'v':
            if (tk_vc_parse(optarg, &a->pol, &err) != TK_OK)
                cli_usage_fail(usage, "%s", err.msg);
            a->have_pol = 1;
            break;
        case OPT_MINVCS:
            a->min_vcs = 1;
            break;
        case OPT_ESCAPE:
            if (tk_route_parse(optarg, &a->escape, &err) != TK_OK)
                cli_usage_fail(usage, "--escape %s", err.msg);
            a->have_escape = 1;
            break;
        case OPT_ENUMERATE:
            a->enumerate = 1;
            break;
        case OPT_TABLE3:
            a->table3 = cli_choice_arg("--table3", optarg, table3_topo);
            break;
        case OPT_SERVERPAIRS:
            a->server_pairs = 1;
            break;
        case 'P':
            a->pattern = optarg;
            break;
        case OPT_FORCE:
            a->force = 1;
            break;
        case OPT_VCLOADS:
            a->vcloads = optarg;
            break;
        case OPT_WITNESS:
            a->witness = 1;
            break;
        case OPT_CDG:
            a->cdg = optarg;
            break;
        case OPT_CERT:
            a->cert = optarg;
            break;
        case OPT_CHECK:
            a->check = optarg;
            break;
        case OPT_MAXP:
            a->max_paths = (uint64_t)cli_int_arg("--max-paths", optarg, 1, INT64_MAX);
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
    if (!a->have_spec && tk_route_parse("min", &a->spec, &err) != TK_OK)
        cli_usage_fail(usage, "%s", err.msg);
    if (!a->have_pol && tk_vc_parse("none", &a->pol, &err) != TK_OK)
        cli_usage_fail(usage, "%s", err.msg);
    if (a->pol.kind == TK_VC_ESCAPE && !a->have_escape &&
        tk_route_parse("dor", &a->escape, &err) != TK_OK)
        cli_usage_fail(usage, "%s", err.msg);
    if (a->have_escape && a->pol.kind != TK_VC_ESCAPE)
        cli_usage_fail(usage, "--escape is for the escape policy");
    if (cli_shard_partial() && !a->pattern)
        cli_usage_fail(usage, "--shard I/P: the shards are of -P PATTERN's loads");
    if (a->vcloads && !a->pattern)
        cli_usage_fail(usage, "--vc-loads needs -P PATTERN");
    if (a->force && !a->pattern)
        cli_usage_fail(usage, "--force needs -P PATTERN");
    if (a->cert && a->check)
        cli_usage_fail(usage, "--cert and --check exclude each other");
    if (a->min_vcs && a->pol.kind != TK_VC_LADDER && a->pol.kind != TK_VC_DFLADDER &&
        a->pol.kind != TK_VC_DFHOPS)
        cli_usage_fail(usage, "--min-vcs searches the caps of ladder, dfladder and dfhops only");
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
}

static void print_header(FILE *fp, args_t *a)
{
    if (a->header_done)
        return;
    a->header_done = 1;
    if (a->json)
        return;
    fputs("name\trouting\tpolicy\tverdict\tbasis\tchannels\tdeps\tmax_hops\tvcs\tvcs_class", fp);
    if (a->min_vcs)
        fputs("\tmin_vcs", fp);
    if (a->witness)
        fputs("\twitness", fp);
    if (a->check)
        fputs("\tcertificate", fp);
    if (a->table3 >= 0)
        fputs("\ttable3", fp);
    if (a->pattern)
        fputs("\tinject2\tvc_load\timbalance\tcov", fp);
    fputc('\n', fp);
}

/* Text appended to a growing buffer. */
typedef struct sbuf {
    char *s;
    size_t len, cap;
    int bad;
} sbuf_t;

static void sb_add(sbuf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void sb_add(sbuf_t *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int k = b->s ? vsnprintf(b->s + b->len, room, fmt, ap) : -2;
        va_end(ap);
        if (k >= 0 && (size_t)k < room) {
            b->len += (size_t)k;
            return;
        }
        size_t nc = b->cap * 2 + (k > 0 ? (size_t)k : 0) + 256;
        char *ns = realloc(b->s, nc);
        if (!ns) {
            b->bad = 1;
            return;
        }
        b->s = ns;
        b->cap = nc;
    }
}

static void sb_chan(sbuf_t *b, const tk_graph_t *g, int64_t arc, int32_t vc)
{
    sb_add(b, "%" PRId32 ">%" PRId32 ":%" PRId32, cli_arc_tail(g, arc), g->head[arc], vc);
}

/* DOT of the judged graph. */
static int write_dot(const char *path, const tk_graph_t *g, const char *name,
                     const tk_vc_result_t *res)
{
    cli_out_t o;
    if (cli_out_open(&o, path))
        return 1;
    fprintf(o.fp, "digraph cdg {\n  label=\"%s\";\n", name);
    for (int64_t i = 0; i < res->channels; i++) {
        int64_t a = res->node[i] / TK_VC_MAX;
        fprintf(o.fp, "  c%" PRIu32 " [label=\"%" PRId32 ">%" PRId32 ":%d\"];\n", res->node[i],
                cli_arc_tail(g, a), g->head[a], (int)(res->node[i] % TK_VC_MAX));
    }
    for (int64_t e = 0; e < res->deps; e++)
        fprintf(o.fp, "  c%" PRIu32 " -> c%" PRIu32 ";\n", (uint32_t)(res->dep[e] >> 32),
                (uint32_t)res->dep[e]);
    fputs("}\n", o.fp);
    return cli_out_commit(&o);
}

/* The certificate: one line per channel, "tail head arc vc rank". */
static int write_cert(const char *path, const tk_graph_t *g, const tk_vc_result_t *res)
{
    cli_out_t o;
    if (cli_out_open(&o, path))
        return 1;
    fputs("tail\thead\tarc\tvc\trank\n", o.fp);
    for (int64_t i = 0; i < res->channels; i++) {
        int64_t a = res->node[i] / TK_VC_MAX;
        fprintf(o.fp, "%" PRId32 "\t%" PRId32 "\t%" PRId64 "\t%d\t%" PRId32 "\n",
                cli_arc_tail(g, a), g->head[a], a, (int)(res->node[i] % TK_VC_MAX), res->rank[i]);
    }
    return cli_out_commit(&o);
}

/* Read and verify a certificate; 0 ok, 1 error printed. */
static int check_cert(const args_t *a, const tk_router_t *r, const tk_graph_t *g)
{
    cli_lines_t L;
    int64_t n = 0, cap = 0, *arc = NULL, *rank = NULL;
    int32_t *vc = NULL;
    int rc = 1, k;
    tk_error_t err;
    if (cli_lines_open(&L, a->check))
        return 1;
    while ((k = cli_lines_next(&L)) > 0) {
        char *f[6];
        int64_t v[5];
        char why[CLI_WHY_MAX];
        if (L.lineno == 1 && strncmp(L.line, "tail\t", 5) == 0)
            continue;
        if (cli_split_tabs(L.line, f, 6) != 5) {
            cli_lines_error(&L, "expected 5 fields: tail head arc vc rank");
            goto out;
        }
        for (int i = 0; i < 5; i++)
            if (cli_parse_int(f[i], i == 4 ? INT32_MIN : 0, INT64_MAX, &v[i], why)) {
                cli_lines_error(&L, "field %d: %s", i + 1, why);
                goto out;
            }
        if (v[2] >= g->m || v[3] >= TK_VC_MAX || cli_arc_tail(g, v[2]) != v[0] ||
            g->head[v[2]] != v[1]) {
            cli_lines_error(&L,
                            "no arc %" PRId64 " from %" PRId64 " to %" PRId64 " with a VC below %d",
                            v[2], v[0], v[1], TK_VC_MAX);
            goto out;
        }
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            int64_t *na = realloc(arc, (size_t)cap * sizeof *na);
            int64_t *nr = na ? realloc(rank, (size_t)cap * sizeof *nr) : NULL;
            if (na)
                arc = na;
            if (nr)
                rank = nr;
            int32_t *nv = nr ? realloc(vc, (size_t)cap * sizeof *nv) : NULL;
            if (!nv) {
                cli_errorf("%s: out of memory", L.name);
                goto out;
            }
            vc = nv;
        }
        arc[n] = v[2];
        vc[n] = (int32_t)v[3];
        rank[n] = v[4];
        n++;
    }
    if (k < 0)
        goto out;
    tk_vc_opts_t o = {a->threads, a->max_paths, 0, 0, a->server_pairs, a->enumerate, a->er};
    if (tk_vc_cert_check(r, &a->pol, &o, arc, vc, rank, n, &err) != TK_OK) {
        cli_errorf("%s: %s", L.name, err.msg);
        goto out;
    }
    rc = 0;
out:
    cli_lines_close(&L);
    free(arc);
    free(vc);
    free(rank);
    return rc;
}

/* Per-VC loads: the columns (per class, the total load of each VC over
 * the class's arcs; its max/mean and coefficient of variation) and the
 * --vc-loads table.  0 ok, 1 error (in err, or printed: *printed = 1). */
static int vc_loads(const args_t *a, tk_router_t *r, const tk_graph_t *g, const tk_vc_result_t *res,
                    double *inj, sbuf_t *vl, sbuf_t *im, sbuf_t *cv, int *printed, tk_error_t *err)
{
    tk_swdemand_t dem;
    double *load = tk_calloc_array((size_t)g->m * TK_VC_MAX + 1, sizeof *load);
    int rc = 1;
    memset(&dem, 0, sizeof dem);
    if (!load) {
        tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        return 1;
    }
    tk_vc_opts_t o = {a->threads, a->max_paths, 0, 0, a->server_pairs, a->enumerate, a->er};
    tk_status_t st = tk_pattern_to_switch(a->pat, g, &dem, err);
    if (cli_mpi_size() > 1) /* every rank has its demands, or none goes on */
        st = cli_mpi_agree(st, err, 0);
    if (st == TK_OK) { /* --shard: the demands join the job's fingerprint */
        cli_shard_note(dem.off, ((size_t)dem.n + 1) * sizeof *dem.off);
        cli_shard_note(dem.dst, (size_t)dem.len * sizeof *dem.dst);
        cli_shard_note(dem.w, (size_t)dem.len * sizeof *dem.w);
    }
    /* The shares of the VCs the analysis found (every pair's paths; with
     * --server-pairs a switch-level pattern may reach others: all 64). */
    int32_t nvcs = 0;
    for (int c = 0; c < res->nclasses; c++)
        if (res->vcs[c] > nvcs)
            nvcs = res->vcs[c];
    if (a->server_pairs || nvcs < 1)
        nvcs = TK_VC_MAX;
    if (st == TK_OK) { /* the arc loads and the shares on the ranks or shards */
        tk_router_set_runner(r, cli_runner());
        st = tk_vc_load_with(r, &a->pol, &o, &dem, nvcs, load, inj, err);
        tk_router_set_runner(r, NULL);
    }
    if (st == TK_OK && cli_shard_partial()) { /* --shard: the merge prints it all */
        rc = 0;
        goto out;
    }
    if (st != TK_OK)
        goto out;
    for (int c = 0; c < res->nclasses; c++) {
        int32_t nv = res->vcs[c];
        double tot[TK_VC_MAX] = {0}, sum = 0, sq = 0, mx = 0;
        if (!nv)
            continue;
        for (int64_t e = 0; e < g->m; e++)
            if ((g->cls ? g->cls[e] : 0) == c)
                for (int32_t v = 0; v < nv; v++)
                    tot[v] += load[e * TK_VC_MAX + v];
        sb_add(vl, "%s%s:", vl->len ? "," : "", g->class_name[c]);
        for (int32_t v = 0; v < nv; v++) {
            char buf[32];
            sb_add(vl, "%s%s", v ? "/" : "", cli_format_double(buf, sizeof buf, tot[v], 15));
            sum += tot[v];
            if (tot[v] > mx)
                mx = tot[v];
        }
        double mean = sum / nv;
        for (int32_t v = 0; v < nv; v++)
            sq += (tot[v] - mean) * (tot[v] - mean);
        char b1[32], b2[32];
        sb_add(im, "%s%s:%s", im->len ? "," : "", g->class_name[c],
               cli_format_double(b1, sizeof b1, mean > 0 ? mx / mean : 0, 15));
        sb_add(cv, "%s%s:%s", cv->len ? "," : "", g->class_name[c],
               cli_format_double(b2, sizeof b2, mean > 0 ? sqrt(sq / nv) / mean : 0, 15));
    }
    if (a->vcloads) {
        cli_out_t f;
        if (cli_out_open(&f, a->vcloads)) {
            *printed = 1;
            goto out;
        }
        fputs("tail\thead\tarc\tvc\tload\n", f.fp);
        for (int64_t i = 0; i < res->channels; i++) {
            int64_t arc = res->node[i] / TK_VC_MAX;
            int v = (int)(res->node[i] % TK_VC_MAX);
            fprintf(f.fp, "%" PRId32 "\t%" PRId32 "\t%" PRId64 "\t%d\t", cli_arc_tail(g, arc),
                    g->head[arc], arc, v);
            cli_print_double(f.fp, load[arc * TK_VC_MAX + v]);
            fputc('\n', f.fp);
        }
        if (cli_out_commit(&f)) {
            *printed = 1;
            goto out;
        }
    }
    rc = 0;
out:
    tk_swdemand_destroy(&dem);
    free(load);
    return rc;
}

static int one_graph(FILE *out, args_t *a, const tk_graph_t *g, const char *input, long index)
{
    char name[1024];
    tk_error_t err;
    tk_router_t *r = NULL, *er = NULL;
    tk_vc_result_t res;
    sbuf_t vcs = {0}, wit = {0}, minv = {0}, vl = {0}, im = {0}, cv = {0};
    double inj = 0;
    int printed = 0;
    int32_t caps[16], ncaps = 0;
    int rc = 1, agreed = 0;

    memset(&res, 0, sizeof res);
    cli_graph_name(g, input, index, name, sizeof name);
    tk_error_clear(&err);
    if (tk_router_new(g, &a->spec, a->threads, cli_mem_limit(), &r, &err) != TK_OK)
        goto done;
    if (a->pat &&
        tk_pattern_bind(a->pat, g, a->force ? TK_PATTERN_FORCE : 0, a->pattern, &err) != TK_OK)
        goto done;
    tk_router_set_progress(r, cli_meter(name));
    if (a->pol.kind == TK_VC_ESCAPE &&
        tk_router_new(g, &a->escape, a->threads, cli_mem_limit(), &er, &err) != TK_OK)
        goto done;
    a->er = er;
    tk_vc_opts_t o = {a->threads,      a->max_paths, a->witness, a->cdg || a->cert || a->vcloads,
                      a->server_pairs, a->enumerate, er};
    if (tk_vc_analyse(r, &a->pol, &o, &res, &err) != TK_OK)
        goto done;
    if (a->min_vcs && tk_vc_min_caps(r, &a->pol, &o, caps, &ncaps, 16, &err) != TK_OK)
        goto done;
    tk_vc_policy_t none;
    tk_vc_parse("none", &none, &err);
    if (res.nsteps &&
        tk_vc_witness_check(er ? er : r, er ? &none : &a->pol, res.step, res.nsteps, &err) != TK_OK)
        goto done;
    if (a->cert && !res.acyclic) {
        tk_error_set(&err, TK_EINVAL, NULL, 0, "--cert %s: the graph is cyclic, no certificate",
                     a->cert);
        goto done;
    }
    if (a->check && check_cert(a, r, g))
        goto quiet;
    if (a->pat && vc_loads(a, r, g, &res, &inj, &vl, &im, &cv, &printed, &err)) {
        if (printed)
            goto quiet;
        goto done;
    }
    if (a->cdg && !cli_shard_partial() && write_dot(a->cdg, g, name, &res))
        goto quiet;
    if (a->cert && !cli_shard_partial() && write_cert(a->cert, g, &res))
        goto quiet;
    int32_t vmax = 0;
    for (int c = 0; c < res.nclasses; c++)
        if (res.vcs[c]) {
            sb_add(&vcs, "%s%s:%" PRId32, vcs.len ? "," : "", g->class_name[c], res.vcs[c]);
            if (res.vcs[c] > vmax)
                vmax = res.vcs[c];
        }
    for (int32_t i = 0; i < ncaps; i++) {
        if (a->pol.kind == TK_VC_LADDER)
            sb_add(&minv, "%" PRId32, caps[i]);
        else
            sb_add(&minv, "%s%" PRId32 "/%" PRId32, i ? ";" : "", caps[i] % 256, caps[i] / 256);
    }
    for (int32_t i = 0; i < res.nsteps; i++) {
        const tk_vc_step_t *s = &res.step[i];
        if (i)
            sb_add(&wit, " ");
        sb_chan(&wit, g, s->arc, s->vc);
        sb_add(&wit, "(%" PRId32 ">%" PRId32, s->src, s->dst);
        if (s->via >= 0)
            sb_add(&wit, ",via=%" PRId32, s->via);
        sb_add(&wit, ",hop=%" PRId32 ")", s->hop);
    }
    if (vcs.bad || wit.bad || minv.bad || vl.bad || im.bad || cv.bad) {
        tk_error_set(&err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    /* MPI: every rank learns the first failing rank's error (this is
     * the graph's final agreement; failures above make theirs below) */
    agreed = 1;
    if (cli_mpi_agree(TK_OK, &err, 1) != TK_OK)
        goto done;
    print_header(out, a);
    cli_row_t row;
    cli_row_begin(&row, out, a->json);
    cli_cell_str(&row, "name", name);
    cli_cell_str(&row, "routing", a->spec.text);
    cli_cell_str(&row, "policy", a->pol.text);
    cli_cell_str(&row, "verdict", res.acyclic ? "deadlock-free" : "deadlock-prone");
    cli_cell_str(&row, "basis",
                 res.duato ? (res.acyclic ? "duato-acyclic" : "duato-cyclic")
                           : (res.acyclic ? "cdg-acyclic" : "cdg-cyclic"));
    cli_cell_int(&row, "channels", res.channels, 0);
    cli_cell_int(&row, "deps", res.deps, 0);
    cli_cell_int(&row, "max_hops", res.max_hops, 0);
    cli_cell_int(&row, "vcs", vmax, 0);
    cli_cell_str(&row, "vcs_class", vcs.len ? vcs.s : "-");
    if (a->min_vcs)
        cli_cell_str(&row, "min_vcs", minv.len ? minv.s : "none");
    if (a->witness)
        cli_cell_str(&row, "witness", wit.len ? wit.s : "-");
    if (a->check)
        cli_cell_str(&row, "certificate", "ok");
    if (a->table3 >= 0)
        cli_cell_str(&row, "table3", table3(a));
    if (a->pat) {
        cli_cell_double(&row, "inject2", inj);
        cli_cell_str(&row, "vc_load", vl.len ? vl.s : "-");
        cli_cell_str(&row, "imbalance", im.len ? im.s : "-");
        cli_cell_str(&row, "cov", cv.len ? cv.s : "-");
    }
    cli_row_end(&row);
    rc = 0;
done:
    if (rc) {
        if (!agreed)
            cli_mpi_agree(err.code ? err.code : TK_EINTERNAL, &err, 1);
        cli_graph_error(input, index, &err);
    }
    goto freeing;
quiet: /* failed, the message printed */
    if (!agreed)
        cli_mpi_agree(TK_EIO, NULL, 1);
freeing:
    free(vcs.s);
    free(wit.s);
    free(minv.s);
    free(vl.s);
    free(im.s);
    free(cv.s);
    tk_vc_result_destroy(&res);
    tk_router_free(r);
    tk_router_free(er);
    a->er = NULL;
    return rc;
}

static int table_row(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index)
{
    return one_graph(out, ctx, g, input, index);
}

static void table_header(void *ctx, FILE *out)
{
    print_header(out, ctx);
}

int main(int argc, char **argv)
{
    args_t a;
    cli_set_prog(argv[0]);
    parse_args(argc, argv, &a);
    cli_set_threads(a.threads);
    cli_mpi_init(); /* under mpirun or srun: MPI (see mpi.c) */
    if (a.pattern && cli_read_pattern(a.pattern, &a.pat) != 0)
        return cli_mpi_exit(CLI_EXIT_DATA);
    cli_table_t t = {a.output, a.ninputs, a.inputs, cli_mem_limit(), table_row, table_header, &a};
    int rc = cli_run_table(&t);
    tk_pattern_free(a.pat);
    return cli_mpi_exit(rc);
}
