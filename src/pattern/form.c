/*
 * form.c - what ties a pattern file to its topology and keeps it small
 * (topokit-formats(5)): the topology fingerprint, the demand checksum,
 * tk_pattern_bind (fingerprint check, expansion of the spec form) and the
 * writer of the three forms (explicit, spec, aggregate).
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

struct tk_pattern_extra *tkp_extra(tk_pattern_t *p)
{
    if (!p->extra) {
        p->extra = calloc(1, sizeof *p->extra);
        if (p->extra)
            p->extra->form = TK_PATTERN_EXPLICIT;
    }
    return p->extra;
}

static uint64_t fnv_bytes(uint64_t h, const void *buf, size_t len)
{
    const unsigned char *b = buf;

    for (size_t i = 0; i < len; i++) {
        h ^= b[i];
        h *= FNV_PRIME;
    }
    return h;
}

/* FNV-1a over printf-formatted text (a line of the fingerprint text). */
static uint64_t fnv_printf(uint64_t h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static uint64_t fnv_printf(uint64_t h, const char *fmt, ...)
{
    char buf[160];
    va_list ap;

    va_start(ap, fmt);
    int k = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    return fnv_bytes(h, buf, k < 0 ? 0 : (size_t)k < sizeof buf ? (size_t)k : sizeof buf - 1);
}

/* One link of the fingerprint: its far end, class name, capacity. */
typedef struct flink {
    tk_id_t v;
    const char *cls;
    double cap;
} flink_t;

static int cmp_flink(const void *a, const void *b)
{
    const flink_t *x = a, *y = b;
    if (x->v != y->v)
        return (x->v > y->v) - (x->v < y->v);
    int c = strcmp(x->cls, y->cls);
    if (c)
        return c;
    return (x->cap > y->cap) - (x->cap < y->cap);
}

tk_status_t tk_pattern_fingerprint(const tk_graph_t *g, uint64_t *out, tk_error_t *err)
{
    int64_t maxdeg = 1;
    uint64_t h = FNV_OFFSET;

    for (tk_id_t u = 0; u < g->n; u++)
        if (tk_graph_degree(g, u) > maxdeg)
            maxdeg = tk_graph_degree(g, u);
    flink_t *l = tk_malloc_array((size_t)maxdeg, sizeof *l);
    if (!l)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    h = fnv_printf(h, "topokit-links 1\nswitches %" PRId64 " directed %d\nservers", (int64_t)g->n,
                   g->directed ? 1 : 0);
    for (tk_id_t u = 0; u < g->n; u++)
        h = fnv_printf(h, " %" PRId32, tk_graph_servers(g, u));
    h = fnv_bytes(h, "\n", 1);
    for (tk_id_t u = 0; u < g->n; u++) {
        int64_t k = 0;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            /* an undirected link once, from its smaller end (a self-loop's
             * two arcs: the first) */
            if (!g->directed && (v < u || (v == u && g->rev && g->rev[a] < a)))
                continue;
            l[k].v = v;
            l[k].cls = g->class_name[g->cls ? g->cls[a] : 0];
            l[k].cap = g->cap ? g->cap[a] : 1.0;
            k++;
        }
        qsort(l, (size_t)k, sizeof *l, cmp_flink);
        for (int64_t i = 0; i < k; i++)
            h = fnv_printf(h, "%" PRId64 " %" PRId64 " %s %.17g\n", (int64_t)u, (int64_t)l[i].v,
                           l[i].cls, l[i].cap);
    }
    free(l);
    *out = h;
    return TK_OK;
}

tk_status_t tk_pattern_set_topology(tk_pattern_t *p, const tk_graph_t *g, tk_error_t *err)
{
    uint64_t fp;
    tk_status_t st = tk_pattern_fingerprint(g, &fp, err);

    if (st != TK_OK)
        return st;
    char *t = strdup(g->spec ? g->spec : "");
    if (!t)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    free(p->topology);
    p->topology = t;
    p->fingerprint = fp;
    p->has_fingerprint = 1;
    return TK_OK;
}

uint64_t tk_pattern_checksum(const tk_pattern_t *p)
{
    uint64_t h = FNV_OFFSET;

    for (int64_t i = 0; i < p->len; i++) {
        unsigned char b[24];
        uint64_t v[3], w;
        memcpy(&w, &p->d[i].w, sizeof w);
        v[0] = (uint64_t)p->d[i].src;
        v[1] = (uint64_t)p->d[i].dst;
        v[2] = w;
        for (int k = 0; k < 3; k++)
            for (int j = 0; j < 8; j++)
                b[8 * k + j] = (unsigned char)(v[k] >> (8 * j));
        h = fnv_bytes(h, b, sizeof b);
    }
    return h;
}

/* ------------------------------------------------------------------------ */
/* Binding a read pattern to a topology. */

/* Run the generator of spec (kind, KEY=VALUE words, s=SEED) on g. */
static tk_status_t regenerate(const char *spec, const tk_graph_t *g, tk_pattern_t **out,
                              tk_error_t *err)
{
    char *buf = strdup(spec), *w[128], *save = NULL;
    int nw = 0;
    uint64_t seed = 1;
    tk_status_t st = TK_OK;

    if (!buf)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (nw > 0 && strncmp(t, "s=", 2) == 0) {
            char *end;
            seed = strtoull(t + 2, &end, 10);
            if (!t[2] || *end || t[2] == '-')
                st = tk_error_set(err, TK_EFORMAT, NULL, 0, "bad seed '%s'", t);
            continue;
        }
        if (nw == 128) {
            st = tk_error_set(err, TK_EFORMAT, NULL, 0, "more than 128 words");
            break;
        }
        w[nw++] = t;
    }
    if (st == TK_OK && nw == 0)
        st = tk_error_set(err, TK_EFORMAT, NULL, 0, "empty spec");
    if (st == TK_OK && strcmp(w[0], "file") == 0)
        st = tk_error_set(err, TK_EFORMAT, NULL, 0, "file: not a generator");
    if (st == TK_OK)
        st = tkp_make_spec(g, w[0], nw - 1, w + 1, seed, out, err);
    free(buf);
    return st;
}

/* An error of tk_pattern_bind: tools print it in the row of a graph, so the
 * message itself names the pattern file (and line): "pattern FILE[:LINE]:
 * ...". */
static tk_status_t bind_error(tk_error_t *err, tk_status_t code, const char *where, long line,
                              const char *fmt, ...) __attribute__((format(printf, 5, 6)));
static tk_status_t bind_error(tk_error_t *err, tk_status_t code, const char *where, long line,
                              const char *fmt, ...)
{
    char msg[TK_ERRMSG_MAX], at[32] = "";
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        snprintf(at, sizeof at, ":%ld", line);
    return tk_error_set(err, code, NULL, 0, "pattern %.200s%s: %s", where, at, msg);
}

/* err's message (of the generator) as a bind error at the spec line. */
static tk_status_t spec_error(tk_error_t *err, tk_status_t st, const char *where, long line,
                              const char *spec)
{
    if (!err)
        return st;
    char msg[TK_ERRMSG_MAX];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return bind_error(err, st == TK_EINVAL ? TK_EFORMAT : st, where, line, "spec '%.200s': %s",
                      spec, msg);
}

/* Expand a spec-form pattern for g (fingerprint fp); match: g is the
 * topology of the file's fingerprint (or it has none). */
static tk_status_t expand_spec(tk_pattern_t *p, const tk_graph_t *g, uint64_t fp, int match,
                               const char *where, tk_error_t *err)
{
    struct tk_pattern_extra *x = p->extra;
    tk_pattern_t *made = NULL;
    tk_status_t st;

    if (x->bound && x->bound_fp == fp)
        return TK_OK;
    st = regenerate(p->spec, g, &made, err);
    if (st != TK_OK)
        return spec_error(err, st, where, x->spec_line, p->spec);
    if (made->level != p->level || made->endpoints != p->endpoints)
        st = bind_error(err, TK_EFORMAT, where, x->spec_line,
                        "counts not matching: spec '%.200s' makes %" PRId64
                        " %s endpoints here, the file says %" PRId64 " %s",
                        p->spec, made->endpoints,
                        made->level == TK_LEVEL_SWITCH ? "switch" : "server", p->endpoints,
                        p->level == TK_LEVEL_SWITCH ? "switch" : "server");
    else if (match && made->len != x->declared)
        st = bind_error(err, TK_EFORMAT, where, x->spec_line,
                        "counts not matching: spec '%.200s' expands to %" PRId64
                        " demands, the file declares %" PRId64,
                        p->spec, made->len, x->declared);
    else if (match && x->has_checksum && tk_pattern_checksum(made) != x->checksum)
        st = bind_error(err, TK_EFORMAT, where, x->spec_line,
                        "checksum mismatch: spec '%.200s' expands to demands with checksum "
                        "fnv1a64:%016" PRIx64 ", the file says fnv1a64:%016" PRIx64
                        " (written by another topokit version?)",
                        p->spec, tk_pattern_checksum(made), x->checksum);
    if (st == TK_OK) {
        free(p->d);
        p->d = made->d;
        p->len = made->len;
        p->alloc = made->alloc;
        made->d = NULL;
        made->len = made->alloc = 0;
        x->bound = 1;
        x->bound_fp = fp;
        x->regenerable = 1;
    }
    tk_pattern_free(made);
    return st;
}

/* An aggregate-form file's server counts against g's. */
static tk_status_t check_servers(const tk_pattern_t *p, const tk_graph_t *g, const char *where,
                                 tk_error_t *err)
{
    const struct tk_pattern_extra *x = p->extra;

    if (x->nsw != g->n)
        return bind_error(err, TK_EINVAL, where, x->servers_line,
                          "counts not matching: the servers line has %" PRId64
                          " switches, the topology %" PRId64,
                          (int64_t)x->nsw, (int64_t)g->n);
    for (tk_id_t u = 0; u < g->n; u++)
        if (x->servers[u] != tk_graph_servers(g, u))
            return bind_error(err, TK_EINVAL, where, x->servers_line,
                              "counts not matching: switch %" PRId64 " has %" PRId32
                              " servers in the servers line, %" PRId32 " in the topology",
                              (int64_t)u, x->servers[u], tk_graph_servers(g, u));
    return TK_OK;
}

tk_status_t tk_pattern_bind(tk_pattern_t *p, const tk_graph_t *g, unsigned flags, const char *where,
                            tk_error_t *err)
{
    const char *wh = where ? where : "pattern";
    uint64_t fp;
    tk_status_t st = tk_pattern_fingerprint(g, &fp, err);

    if (st != TK_OK)
        return st;
    int64_t want = p->level == TK_LEVEL_SWITCH ? (int64_t)g->n : tk_graph_total_servers(g);
    if (p->endpoints != want) /* the plainer reason, --force or not */
        return bind_error(err, TK_EINVAL, wh, 0,
                          "has %" PRId64 " %s endpoints but the topology has %" PRId64 " %s",
                          p->endpoints, p->level == TK_LEVEL_SWITCH ? "switch" : "server", want,
                          p->level == TK_LEVEL_SWITCH ? "switches" : "servers");
    int match = !p->has_fingerprint || p->fingerprint == fp;
    if (!match && !(flags & TK_PATTERN_FORCE))
        return bind_error(err, TK_EINVAL, wh, 0,
                          "made for topology '%.200s' (fingerprint fnv1a64:%016" PRIx64
                          "), not this one, '%.200s' (fingerprint fnv1a64:%016" PRIx64
                          "); --force uses it anyway",
                          p->topology, p->fingerprint, g->spec ? g->spec : "", fp);
    if (!p->extra)
        return TK_OK;
    if (p->extra->form == TK_PATTERN_AGGREGATE)
        return check_servers(p, g, wh, err);
    if (p->extra->form == TK_PATTERN_SPEC)
        return expand_spec(p, g, fp, match, wh, err);
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Writing the compact forms. */

typedef struct agg {
    tk_id_t s, t;
    double w;
} agg_t;

typedef struct aggs {
    agg_t *e;
    int64_t len, cap;
} aggs_t;

static int agg_push(aggs_t *a, tk_id_t s, tk_id_t t, double w)
{
    if (a->len == a->cap) {
        int64_t nc = a->cap ? 2 * a->cap : 256;
        agg_t *ne = tk_realloc_array(a->e, (size_t)nc, sizeof *ne);
        if (!ne)
            return -1;
        a->e = ne;
        a->cap = nc;
    }
    a->e[a->len].s = s;
    a->e[a->len].t = t;
    a->e[a->len].w = w;
    a->len++;
    return 0;
}

/* The entries of server i0's demands starting at d[k] (blocks: all servers
 * of a switch t in order, one weight) into a; *end the first demand after
 * them.  0, 1 when not blocks, -1 out of memory. */
static int server_blocks(const tk_pattern_t *p, const tk_graph_t *g, const int64_t *first,
                         int64_t k, tk_id_t s, aggs_t *a, int64_t *end)
{
    int64_t i0 = p->d[k].src;

    while (k < p->len && p->d[k].src == i0) {
        tk_id_t t = tkp_server_switch(first, g->n, p->d[k].dst);
        double w = p->d[k].w;
        int64_t pt = first[t + 1] - first[t];
        if (p->d[k].dst != first[t] || k + pt > p->len)
            return 1;
        for (int64_t j = 0; j < pt; j++)
            if (p->d[k + j].src != i0 || p->d[k + j].dst != first[t] + j || p->d[k + j].w != w)
                return 1;
        if (agg_push(a, s, t, w))
            return -1;
        k += pt;
    }
    *end = k;
    return 0;
}

/* The aggregate entries of p when they represent it exactly (server level,
 * every server of a switch sending the same blocks).  0 yes, 1 no, -1 out
 * of memory. */
static int aggregate_of(const tk_pattern_t *p, const tk_graph_t *g, aggs_t *a)
{
    int64_t *first = NULL, k = 0;
    tk_id_t prev = -1;
    int rc = 1;

    if (!g || p->level != TK_LEVEL_SERVER || p->endpoints != tk_graph_total_servers(g))
        return 1;
    if (tk_pattern_server_first(g, &first, NULL) != TK_OK)
        return -1;
    while (k < p->len) {
        int64_t i0 = p->d[k].src, end;
        tk_id_t s = tkp_server_switch(first, g->n, i0);
        if (i0 != first[s] || s == prev)
            goto done;
        int r = server_blocks(p, g, first, k, s, a, &end);
        if (r) {
            rc = r;
            goto done;
        }
        int64_t L = end - k, ps = first[s + 1] - first[s];
        if (k + ps * L > p->len)
            goto done;
        for (int64_t q = 1; q < ps; q++)
            for (int64_t r2 = 0; r2 < L; r2++) {
                const tk_demand_t *x = &p->d[k + q * L + r2], *y = &p->d[k + r2];
                if (x->src != i0 + q || x->dst != y->dst || x->w != y->w)
                    goto done;
            }
        k += ps * L;
        prev = s;
    }
    rc = 0;
done:
    free(first);
    return rc;
}

static void write_aggregate(FILE *fp, const tk_pattern_t *p, const tk_graph_t *g, const aggs_t *a)
{
    char w[64];

    tkp_write_header(fp, p, "aggregate");
    fputs("servers", fp);
    for (tk_id_t u = 0; u < g->n; u++)
        fprintf(fp, " %" PRId32, tk_graph_servers(g, u));
    fprintf(fp, "\nentries %" PRId64 "\ndemands %" PRId64 "\n", a->len, p->len);
    for (int64_t i = 0; i < a->len; i++) {
        if (a->e[i].w == 1.0) {
            fprintf(fp, "%" PRId64 " %" PRId64 "\n", (int64_t)a->e[i].s, (int64_t)a->e[i].t);
        } else {
            tk_pattern_fmt_double(w, sizeof w, a->e[i].w);
            fprintf(fp, "%" PRId64 " %" PRId64 " %s\n", (int64_t)a->e[i].s, (int64_t)a->e[i].t, w);
        }
    }
}

/* p can be written as its spec: made by a generator on the topology it is
 * stamped with. */
static int spec_ok(const tk_pattern_t *p)
{
    const struct tk_pattern_extra *x = p->extra;
    return x && x->regenerable && p->spec[0] &&
           (!p->has_fingerprint || (x->bound && p->fingerprint == x->bound_fp));
}

tk_status_t tk_pattern_write_form(FILE *fp, const tk_pattern_t *p, const tk_graph_t *g,
                                  tk_pattern_form_t form, tk_pattern_form_t *used, tk_error_t *err)
{
    aggs_t a = {NULL, 0, 0};
    int agg = 1;

    if (form == TK_PATTERN_AUTO) {
        if (p->len <= TK_PATTERN_SMALL)
            form = TK_PATTERN_EXPLICIT;
        else if (spec_ok(p))
            form = TK_PATTERN_SPEC;
        else if ((agg = aggregate_of(p, g, &a)) == 0 && a.len < p->len)
            form = TK_PATTERN_AGGREGATE;
        else
            form = TK_PATTERN_EXPLICIT;
    } else if (form == TK_PATTERN_SPEC && !spec_ok(p)) {
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "form spec: the pattern was not made by a generator for this "
                            "topology (topo-pattern KIND)");
    } else if (form == TK_PATTERN_AGGREGATE && (agg = aggregate_of(p, g, &a)) != 0) {
        free(a.e);
        if (agg < 0)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "form aggregate: the pattern is not the same split from every "
                            "server of a switch to whole switches");
    }
    if (agg < 0) {
        free(a.e);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    if (form == TK_PATTERN_SPEC) {
        tkp_write_header(fp, p, "spec");
        fprintf(fp, "checksum fnv1a64:%016" PRIx64 "\ndemands %" PRId64 "\n",
                tk_pattern_checksum(p), p->len);
    } else if (form == TK_PATTERN_AGGREGATE) {
        write_aggregate(fp, p, g, &a);
    } else {
        tkp_write_header(fp, p, NULL);
        fprintf(fp, "demands %" PRId64 "\n", p->len);
        tkp_write_demands(fp, p);
    }
    free(a.e);
    if (used)
        *used = form;
    if (ferror(fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "write error");
    return TK_OK;
}
