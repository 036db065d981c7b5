/*
 * harness.c - the fuzz harnesses (fuzz.h): every reader and parser of
 * topokit fed arbitrary bytes.  A harness only aborts (fz_fail) when an
 * accepted input breaks an invariant:
 *  - a graph read in any format must write in the native format and read
 *    back equal (tk_graph_equal), and writing it in the format it came in
 *    (when that writer takes it) must reach a fixed point: write, read,
 *    write gives the same bytes;
 *  - a pattern file or a workload that reads must write, read and write
 *    the same bytes again; a routing model's canonical text must parse to
 *    the same canonical text.
 * The sanitizers catch the rest.  Sizes are bounded by a memory limit so a
 * declared million-switch graph is refused, not built.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "fuzz.h"
#include "measured.h"
#include "topokit.h"

#define FZ_MEM_LIMIT ((uint64_t)64 << 20)

static void fz_fail(const char *what, const char *detail)
{
    fprintf(stderr, "fuzz: invariant broken: %s%s%s\n", what, detail ? ": " : "",
            detail ? detail : "");
    abort();
}

/* A NUL-terminated copy of the input (a parser of text gets a string). */
static char *fz_text(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* The bytes as a stream (fmemopen needs at least one byte). */
static FILE *fz_stream(const uint8_t *data, size_t size)
{
    static const char empty[1];
    FILE *fp = size ? fmemopen((void *)data, size, "r") : fmemopen((void *)empty, 1, "r");
    if (!fp)
        abort();
    if (!size)
        fgetc(fp);
    return fp;
}

/* A graph written in fmt to memory; NULL when the writer refuses it. */
static char *fz_write(const tk_graph_t *g, tk_format_t fmt, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    tk_error_t err;
    if (!fp)
        abort();
    tk_status_t st = tk_write_graph(fp, g, fmt, &err);
    fclose(fp);
    if (st != TK_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

/* The one graph of buf read in fmt (the fixed points must read). */
static tk_graph_t *fz_reread(const char *buf, size_t len, tk_format_t fmt, const char *what)
{
    FILE *fp = fz_stream((const uint8_t *)buf, len);
    tk_reader_t *r = NULL;
    tk_graph_t *g = NULL;
    tk_error_t err;
    if (tk_reader_new(&r, fp, "rt", fmt, 0, &err) != TK_OK ||
        tk_reader_next(r, &g, &err) != TK_OK) {
        fprintf(stderr, "%.*s\n", (int)(len < 2000 ? len : 2000), buf);
        fz_fail(what, err.msg);
    }
    tk_reader_free(r);
    fclose(fp);
    return g;
}

static void fz_graph_roundtrip(const tk_graph_t *g, tk_format_t fmt)
{
    size_t len;
    char *buf = fz_write(g, TK_FMT_NATIVE, &len);
    if (!buf)
        fz_fail("the native writer refused a graph that was read", NULL);
    tk_graph_t *h = fz_reread(buf, len, TK_FMT_NATIVE, "native write then read");
    if (!tk_graph_equal(g, h))
        fz_fail("native write then read gives another graph", NULL);
    tk_graph_free(h);
    free(buf);
    if (fmt == TK_FMT_NATIVE || fmt == TK_FMT_AUTO)
        return;
    /* The format it came in: write, read, write is a fixed point. */
    size_t len1, len2;
    char *b1 = fz_write(g, fmt, &len1);
    if (!b1)
        return;
    h = fz_reread(b1, len1, fmt, "write then read in the input format");
    char *b2 = fz_write(h, fmt, &len2);
    if (!b2 || len1 != len2 || memcmp(b1, b2, len1) != 0)
        fz_fail("write, read, write in the input format changes the bytes", tk_format_name(fmt));
    free(b1);
    free(b2);
    tk_graph_free(h);
}

/* Every graph of the stream read in fmt (TK_FMT_AUTO: detected). */
static int fz_graphs(const uint8_t *data, size_t size, tk_format_t fmt)
{
    FILE *fp = fz_stream(data, size);
    tk_reader_t *r = NULL;
    tk_error_t err;
    if (tk_reader_new(&r, fp, "fuzz", fmt, FZ_MEM_LIMIT, &err) == TK_OK) {
        for (int i = 0; i < 64; i++) {
            tk_graph_t *g = NULL;
            if (tk_reader_next(r, &g, &err) != TK_OK)
                break;
            if (tk_graph_validate(g, &err) != TK_OK)
                fz_fail("a graph read is not valid", err.msg);
            fz_graph_roundtrip(g, tk_reader_format(r));
            tk_graph_free(g);
        }
    }
    tk_reader_free(r);
    fclose(fp);
    return 0;
}

static int fz_graph(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_AUTO);
}
static int fz_native(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_NATIVE);
}
static int fz_graph6(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_GRAPH6);
}
static int fz_sparse6(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_SPARSE6);
}
static int fz_digraph6(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_DIGRAPH6);
}
static int fz_edges(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_EDGES);
}
static int fz_graphml(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_GRAPHML);
}
static int fz_gml(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_GML);
}
static int fz_anynet(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_ANYNET);
}
static int fz_caminos(const uint8_t *d, size_t n)
{
    return fz_graphs(d, n, TK_FMT_CAMINOS);
}

/* Pattern files: read, write, read, write gives the same bytes. */
static char *fz_pattern_bytes(const tk_pattern_t *p, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    tk_error_t err;
    if (!fp)
        abort();
    if (tk_pattern_write(fp, p, &err) != TK_OK)
        fz_fail("the pattern writer refused a pattern that was read", err.msg);
    fclose(fp);
    return buf;
}

static int fz_pattern(const uint8_t *data, size_t size)
{
    FILE *fp = fz_stream(data, size);
    tk_pattern_t *p = NULL, *q = NULL;
    tk_error_t err;
    if (tk_pattern_read(fp, "fuzz", &p, &err) == TK_OK) {
        size_t l1, l2;
        char *b1 = fz_pattern_bytes(p, &l1);
        FILE *f2 = fz_stream((const uint8_t *)b1, l1);
        if (tk_pattern_read(f2, "rt", &q, &err) != TK_OK)
            fz_fail("a pattern written does not read back", err.msg);
        fclose(f2);
        char *b2 = fz_pattern_bytes(q, &l2);
        if (l1 != l2 || memcmp(b1, b2, l1) != 0)
            fz_fail("pattern write, read, write changes the bytes", NULL);
        free(b1);
        free(b2);
        tk_pattern_free(q);
    }
    tk_pattern_free(p);
    fclose(fp);
    return 0;
}

/* Cycle files: the first byte picks n (1..256), the rest is the file. */
static int fz_cycle(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int64_t n = 1 + data[0];
    FILE *fp = fz_stream(data + 1, size - 1);
    tk_id_t *cycle = NULL;
    long *lines = NULL;
    int64_t len = 0;
    tk_error_t err;
    if (tk_cycle_read(fp, "fuzz", n, &cycle, &len, &lines, &err) == TK_OK) {
        for (int64_t i = 0; i < len; i++)
            if (cycle[i] < 0 || cycle[i] >= n)
                fz_fail("a cycle id out of range was accepted", NULL);
    }
    free(cycle);
    free(lines);
    fclose(fp);
    return 0;
}

/* Routing-model text: the canonical text parses to itself. */
static int fz_route(const uint8_t *data, size_t size)
{
    char *s = fz_text(data, size);
    tk_route_spec_t a, b;
    tk_error_t err;
    if (tk_route_parse(s, &a, &err) == TK_OK) {
        if (tk_route_parse(a.text, &b, &err) != TK_OK)
            fz_fail("a routing model's canonical text does not parse", a.text);
        if (strcmp(a.text, b.text) != 0)
            fz_fail("a routing model's canonical text is not a fixed point", a.text);
    }
    free(s);
    return 0;
}

/* The other one-line parsers of topo-sim and topo-vc: adaptive rules,
 * arbitration, VC policies, flow sizes; the first byte picks which. */
static int fz_options(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    char *s = fz_text(data + 1, size - 1);
    tk_error_t err;
    switch (data[0] % 4) {
    case 0: {
        tk_adapt_t a, b;
        if (tk_adapt_parse(s, &a, &err) == TK_OK &&
            (tk_adapt_parse(a.text, &b, &err) != TK_OK || strcmp(a.text, b.text) != 0))
            fz_fail("an adaptive rule's canonical text is not a fixed point", a.text);
        break;
    }
    case 1: {
        tk_arb_t a;
        (void)tk_arb_parse(s, &a, &err);
        break;
    }
    case 2: {
        tk_vc_policy_t a, b;
        if (tk_vc_parse(s, &a, &err) == TK_OK &&
            (tk_vc_parse(a.text, &b, &err) != TK_OK || strcmp(a.text, b.text) != 0))
            fz_fail("a VC policy's canonical text is not a fixed point", a.text);
        break;
    }
    default: {
        tk_sim_poisson_t p;
        tk_sim_poisson_init(&p);
        (void)tk_sim_sizes_parse(s, &p, &err);
        break;
    }
    }
    free(s);
    return 0;
}

/* Whitespace-separated words of s (modified) into argv (at most max). */
static int fz_words(char *s, char **argv, int max)
{
    int n = 0;
    for (char *tok = strtok(s, " \t\r\n"); tok && n < max; tok = strtok(NULL, " \t\r\n"))
        argv[n++] = tok;
    return n;
}

/* Generator specs "FAMILY KEY=VALUE ..." under a small memory limit; a
 * generated graph must validate and round-trip. */
static int fz_gen(const uint8_t *data, size_t size)
{
    char *s = fz_text(data, size);
    char *argv[32];
    int argc = fz_words(s, argv, 32);
    if (argc > 0) {
        tk_gen_opts_t o;
        tk_graph_t *g = NULL;
        tk_error_t err;
        memset(&o, 0, sizeof o);
        o.mem_limit = (uint64_t)4 << 20;
        o.threads = 1;
        if (tk_generate(argv[0], argc - 1, argv + 1, &o, &g, &err) == TK_OK) {
            if (g->n > 4096 || g->m > 65536) { /* fine, just not round-tripped */
                tk_graph_free(g);
                free(s);
                return 0;
            }
            if (tk_graph_validate(g, &err) != TK_OK)
                fz_fail("a generated graph is not valid", err.msg);
            fz_graph_roundtrip(g, TK_FMT_AUTO);
            tk_graph_free(g);
        }
    }
    free(s);
    return 0;
}

/* KEY=VALUE lists: parse, then read every key as an integer list and a
 * string, and check for unused keys. */
static int fz_kv(const uint8_t *data, size_t size)
{
    char *s = fz_text(data, size);
    char *argv[32];
    int argc = fz_words(s, argv, 32);
    tk_kv_t *kv = NULL;
    tk_error_t err;
    if (tk_kv_parse(argc, argv, &kv, &err) == TK_OK) {
        int64_t *list = NULL, v;
        int count;
        const char *str;
        (void)tk_kv_int(kv, "n", -1000000, 1000000, 1, 0, &v, &err);
        if (tk_kv_int_list(kv, "sides", 0, INT64_MAX, 8, &list, &count, &err) == TK_OK)
            free(list);
        (void)tk_kv_str(kv, "rule", 1, NULL, &str, &err);
        (void)tk_kv_check_unused(kv, "fuzz", &err);
        tk_kv_free(kv);
    }
    free(s);
    return 0;
}

/* topo-sim workload files: the first byte picks the servers (1..256);
 * read, write, read, write gives the same bytes. */
static char *fz_workload_bytes(const tk_sim_workload_t *w, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    tk_error_t err;
    if (!fp)
        abort();
    if (tk_sim_workload_write(fp, w, &err) != TK_OK)
        fz_fail("the workload writer failed", err.msg);
    fclose(fp);
    return buf;
}

static int fz_workload(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int64_t ns = 1 + data[0];
    FILE *fp = fz_stream(data + 1, size - 1);
    tk_sim_workload_t *w = NULL, *w2 = NULL;
    tk_error_t err;
    if (tk_sim_workload_read(fp, "fuzz", ns, &w, &err) == TK_OK) {
        size_t l1, l2;
        char *b1 = fz_workload_bytes(w, &l1);
        FILE *f2 = fz_stream((const uint8_t *)b1, l1);
        if (tk_sim_workload_read(f2, "rt", ns, &w2, &err) != TK_OK)
            fz_fail("a workload written does not read back", err.msg);
        fclose(f2);
        char *b2 = fz_workload_bytes(w2, &l2);
        if (l1 != l2 || memcmp(b1, b2, l1) != 0)
            fz_fail("workload write, read, write changes the bytes", NULL);
        free(b1);
        free(b2);
        tk_sim_workload_free(w2);
    }
    tk_sim_workload_free(w);
    fclose(fp);
    return 0;
}

/* The TSV reader of topo-bounds --measured and topo-stats: split every
 * line into fields and look up the header's columns. */
static int fz_tsv(const uint8_t *data, size_t size)
{
    char *s = fz_text(data, size);
    char *fields[64];
    char *save = NULL;
    int nhead = -1;
    for (char *line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int nf = cli_split_tabs(line, fields, 64);
        if (nf < 0)
            continue;
        if (nhead < 0) {
            nhead = nf;
            (void)cli_field_index(fields, nf, "avg_distance");
            (void)cli_field_index(fields, nf, "name");
        }
        for (int i = 0; i < nf; i++)
            if (!fields[i])
                fz_fail("a TSV field is NULL", NULL);
    }
    free(s);
    return 0;
}

/* topo-bounds --measured: the topo-dist / topo-ksp tables it joins to their
 * bounds, read with the degree from the table and with --r 8. */
static int fz_measured(const uint8_t *data, size_t size)
{
    static FILE *sink;
    if (!sink && !(sink = fopen("/dev/null", "w")))
        abort();
    for (int64_t r = 0; r <= 8; r += 8) {
        cli_lines_t L;
        memset(&L, 0, sizeof L);
        L.fp = fz_stream(data, size);
        L.name = "<fuzz>";
        (void)cli_measured_join(sink, &L, r);
        cli_lines_close(&L);
    }
    return 0;
}

/* The shard file reader of topo-merge (tools/shard.c): its checks refuse
 * or accept, never crash. */
static int fz_shard(const uint8_t *data, size_t size)
{
    FILE *fp = fz_stream(data, size);
    (void)cli_shard_check(fp, "fuzz");
    fclose(fp);
    return 0;
}

/* Jobs (topo-job): the first byte picks the parser and its parameter.
 * Byte % 3 == 0: a job spec, whose canonical spec must parse to itself;
 * 1: a servers file (J = 2 + byte / 3 % 16 ranks of 40 servers), whose ids
 * must be J distinct ids below 40; 2: a comm file (the same J), whose
 * demands must be sorted, merged, in range and positive, and map to
 * traffic. */
static int fz_job(const uint8_t *data, size_t size)
{
    if (size == 0)
        return 0;
    int mode = data[0] % 3;
    tk_job_t job, again;
    tk_error_t err;
    if (mode == 0) {
        char *s = fz_text(data + 1, size - 1);
        if (tk_job_parse(s, &job, &err) == TK_OK) {
            if (tk_job_parse(job.spec, &again, &err) != TK_OK)
                fz_fail("a job's canonical spec does not parse", err.msg);
            if (strcmp(job.spec, again.spec) != 0)
                fz_fail("a job's canonical spec is not canonical", again.spec);
            tk_job_destroy(&again);
            tk_job_destroy(&job);
        }
        free(s);
        return 0;
    }
    memset(&job, 0, sizeof job);
    job.ranks = 2 + data[0] / 3 % 16;
    job.bytes = 1;
    job.rate = 1;
    job.app = TK_APP_LIST;
    FILE *fp = fz_stream(data + 1, size - 1);
    if (mode == 1 && tk_job_read_servers(fp, "fuzz", 40, &job, &err) == TK_OK) {
        char seen[40] = {0};
        for (int64_t r = 0; r < job.ranks; r++)
            if (job.servers[r] < 0 || job.servers[r] >= 40 || seen[job.servers[r]]++)
                fz_fail("a servers file accepted with a bad id", NULL);
    }
    if (mode == 2 && tk_job_read_comm(fp, "fuzz", &job, &err) == TK_OK) {
        tk_demand_t *d = NULL;
        int64_t len = 0;
        for (int64_t i = 0; i < job.ncomm; i++) {
            const tk_demand_t *x = &job.comm[i];
            if (x->src < 0 || x->src >= job.ranks || x->dst < 0 || x->dst >= job.ranks ||
                x->src == x->dst || !(x->w > 0))
                fz_fail("a comm file accepted with a bad demand", NULL);
            if (i && (x[-1].src > x->src || (x[-1].src == x->src && x[-1].dst >= x->dst)))
                fz_fail("comm demands not sorted and merged", NULL);
        }
        if (tk_job_traffic(&job, 1, 0, &d, &len, &err) != TK_OK || len != job.ncomm)
            fz_fail("a comm file read does not map to traffic", err.msg);
        free(d);
    }
    fclose(fp);
    tk_job_destroy(&job);
    return 0;
}

const fz_target_t fz_targets[] = {
    {"graph", fz_graph},       {"native", fz_native},
    {"graph6", fz_graph6},     {"sparse6", fz_sparse6},
    {"digraph6", fz_digraph6}, {"edges", fz_edges},
    {"graphml", fz_graphml},   {"gml", fz_gml},
    {"anynet", fz_anynet},     {"caminos", fz_caminos},
    {"pattern", fz_pattern},   {"cycle", fz_cycle},
    {"route", fz_route},       {"options", fz_options},
    {"gen", fz_gen},           {"kv", fz_kv},
    {"workload", fz_workload}, {"tsv", fz_tsv},
    {"measured", fz_measured}, {"shard", fz_shard},
    {"job", fz_job},           {NULL, NULL},
};

const fz_target_t *fz_find(const char *name)
{
    for (const fz_target_t *t = fz_targets; t->name; t++)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}
