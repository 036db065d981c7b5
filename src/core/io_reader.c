/*
 * io_reader.c - format names, the stream reader (line buffer, per-record
 * format detection, dispatch), tk_write_graph, tk_read_file and small
 * parsing helpers shared by the format modules.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

/* ------------------------------------------------------------------------ */
/* Format names.                                                            */

static const struct {
    const char *name;
    tk_format_t fmt;
} format_names[] = {
    {"auto", TK_FMT_AUTO},       {"native", TK_FMT_NATIVE},     {"topokit", TK_FMT_NATIVE},
    {"graph6", TK_FMT_GRAPH6},   {"g6", TK_FMT_GRAPH6},         {"sparse6", TK_FMT_SPARSE6},
    {"s6", TK_FMT_SPARSE6},      {"digraph6", TK_FMT_DIGRAPH6}, {"d6", TK_FMT_DIGRAPH6},
    {"edges", TK_FMT_EDGES},     {"edgelist", TK_FMT_EDGES},    {"dot", TK_FMT_DOT},
    {"graphml", TK_FMT_GRAPHML}, {"gml", TK_FMT_GML},           {"anynet", TK_FMT_ANYNET},
    {"booksim", TK_FMT_ANYNET},  {"caminos", TK_FMT_CAMINOS},
};

/* Parse a format name.  O(1). */
tk_status_t tk_format_parse(const char *name, tk_format_t *fmt, tk_error_t *err)
{
    if (name)
        for (size_t i = 0; i < sizeof format_names / sizeof format_names[0]; i++)
            if (strcmp(name, format_names[i].name) == 0) {
                *fmt = format_names[i].fmt;
                return TK_OK;
            }
    return tk_error_set(err, TK_EINVAL, NULL, 0,
                        "format '%s': unknown (use native, graph6, sparse6, digraph6, "
                        "edges, dot, graphml, gml, anynet, caminos or auto)",
                        name ? name : "");
}

/* Canonical name of a format.  O(1). */
const char *tk_format_name(tk_format_t fmt)
{
    switch (fmt) {
    case TK_FMT_AUTO:
        return "auto";
    case TK_FMT_NATIVE:
        return "native";
    case TK_FMT_GRAPH6:
        return "graph6";
    case TK_FMT_SPARSE6:
        return "sparse6";
    case TK_FMT_DIGRAPH6:
        return "digraph6";
    case TK_FMT_EDGES:
        return "edges";
    case TK_FMT_DOT:
        return "dot";
    case TK_FMT_GRAPHML:
        return "graphml";
    case TK_FMT_GML:
        return "gml";
    case TK_FMT_ANYNET:
        return "anynet";
    case TK_FMT_CAMINOS:
        return "caminos";
    }
    return "unknown";
}

/* ------------------------------------------------------------------------ */
/* Shared helpers.                                                          */

tk_status_t tk_io_getline(tk_reader_t *r, char **line, tk_error_t *err)
{
    if (r->pushed) {
        r->pushed = 0;
        *line = r->buf;
        return TK_OK;
    }
    if (r->done)
        return TK_EOF;
    errno = 0;
    ssize_t n = getline(&r->buf, &r->cap, r->fp);
    if (n < 0) {
        if (ferror(r->fp))
            return tk_error_set(err, TK_EIO, r->name, r->line + 1, "read error: %s",
                                strerror(errno ? errno : EIO));
        if (errno == ENOMEM)
            return tk_error_set(err, TK_ENOMEM, r->name, r->line + 1,
                                "out of memory reading a line");
        r->done = 1;
        return TK_EOF;
    }
    r->line++;
    size_t len = (size_t)n;
    if (len > 0 && r->buf[len - 1] == '\n')
        len--;
    if (len > 0 && r->buf[len - 1] == '\r')
        len--;
    r->buf[len] = '\0';
    r->len = len;
    if (strlen(r->buf) != len)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "NUL byte in line (binary input?)");
    *line = r->buf;
    return TK_OK;
}

void tk_io_ungetline(tk_reader_t *r)
{
    r->pushed = 1;
}

tk_status_t tk_io_check_size(const tk_reader_t *r, long line, const char *what, int64_t n,
                             int64_t arcs, tk_error_t *err)
{
    if (n > TK_MAX_SWITCHES)
        return tk_error_set(err, TK_ELIMIT, r->name, line,
                            "%s: more than the maximum of %" PRId64 " switches", what,
                            (int64_t)TK_MAX_SWITCHES);
    if (arcs > TK_MAX_ARCS)
        return tk_error_set(err, TK_ELIMIT, r->name, line,
                            "%s: more than the maximum of %" PRId64 " arcs", what,
                            (int64_t)TK_MAX_ARCS);
    if (r->mem_limit == 0)
        return TK_OK;
    uint64_t need = tk_graph_bytes(n, arcs);
    if (need > r->mem_limit) {
        char a[32], b[32];
        tk_fmt_bytes(need, a, sizeof a);
        tk_fmt_bytes(r->mem_limit, b, sizeof b);
        return tk_error_set(err, TK_ELIMIT, r->name, line,
                            "%s: graph would need %s, above the memory limit of %s "
                            "(TOPOKIT_MEMORY_LIMIT)",
                            what, a, b);
    }
    return TK_OK;
}

tk_status_t tk_io_locate(tk_error_t *err, tk_status_t code, const char *where, long line)
{
    if (!err)
        return code;
    char msg[TK_ERRMSG_MAX];
    snprintf(msg, sizeof msg, "%s", err->msg[0] ? err->msg : tk_status_str(code));
    return tk_error_set(err, code, where, line, "%s", msg);
}

char *tk_io_token(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')
        p++;
    if (*p == '\0') {
        *s = p;
        return NULL;
    }
    char *tok = p;
    while (*p && !(*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f'))
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return tok;
}

int tk_io_parse_i64(const char *tok, int64_t *v)
{
    const char *p = tok;
    if (*p == '+' || *p == '-')
        p++;
    if (!isdigit((unsigned char)*p))
        return -1;
    for (const char *q = p; *q; q++)
        if (!isdigit((unsigned char)*q))
            return -1;
    errno = 0;
    long long x = strtoll(tok, NULL, 10);
    if (errno == ERANGE)
        return -1;
    *v = (int64_t)x;
    return 0;
}

int tk_io_parse_cap(const char *tok, double *v)
{
    char *end;
    errno = 0;
    double x = strtod(tok, &end);
    if (end == tok || *end != '\0' || errno == ERANGE || !isfinite(x) || !(x > 0))
        return -1;
    *v = x;
    return 0;
}

int tk_io_class_name_ok(const char *s)
{
    size_t len = strlen(s);
    if (len == 0 || len >= TK_CLASS_NAME_MAX)
        return 0;
    if (!(isalpha((unsigned char)s[0]) || s[0] == '_'))
        return 0;
    for (size_t i = 1; i < len; i++)
        if (!(isalnum((unsigned char)s[i]) || strchr("_.:+-", s[i])))
            return 0;
    return 1;
}

const char *tk_io_fmt_double(double v, char *buf, size_t len)
{
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return buf;
    }
    snprintf(buf, len, "%.17g", v);
    return buf;
}

/* Decimal digits of x at p; returns the end.  (printf is the bottleneck
 * when writing graphs of tens of millions of links.) */
static char *put_id(char *p, uint32_t x)
{
    char tmp[10];
    int k = 0;

    do {
        tmp[k++] = (char)('0' + x % 10);
        x /= 10;
    } while (x);
    while (k)
        *p++ = tmp[--k];
    return p;
}

void tk_io_print_link(FILE *fp, const tk_graph_t *g, tk_id_t u, int64_t a)
{
    int c = g->cls ? g->cls[a] : 0;
    double cap = tk_graph_cap(g, a);
    char line[24], *p = put_id(line, (uint32_t)u);

    *p++ = ' ';
    p = put_id(p, (uint32_t)g->head[a]);
    if (c == 0 && cap == 1.0) {
        *p++ = '\n';
        fwrite(line, 1, (size_t)(p - line), fp);
        return;
    }
    fwrite(line, 1, (size_t)(p - line), fp);
    fprintf(fp, " %s", c ? g->class_name[c] : "-");
    if (cap != 1.0) {
        char buf[40];
        fprintf(fp, " %s", tk_io_fmt_double(cap, buf, sizeof buf));
    }
    fputc('\n', fp);
}

int tk_io_link_rep(const tk_graph_t *g, tk_id_t u, int64_t a)
{
    if (g->directed)
        return 1;
    tk_id_t v = g->head[a];
    if (v != u)
        return v > u;
    return a < g->rev[a];
}

/* ------------------------------------------------------------------------ */
/* The stream reader.                                                       */

/* Create a reader.  Errors: TK_EINVAL (DOT cannot be read), TK_ENOMEM.
 * O(1). */
tk_status_t tk_reader_new(tk_reader_t **out, FILE *fp, const char *name, tk_format_t fmt,
                          uint64_t mem_limit, tk_error_t *err)
{
    if (!fp)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "reader: no input stream");
    if (fmt == TK_FMT_DOT)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "format dot: write only, cannot be read");
    if ((int)fmt < TK_FMT_AUTO || fmt > TK_FMT_CAMINOS)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "format %d: unknown", (int)fmt);
    tk_reader_t *r = calloc(1, sizeof *r);
    if (!r)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    r->name = strdup(name ? name : "<input>");
    if (!r->name) {
        free(r);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    r->fp = fp;
    r->fmt = fmt;
    r->last = fmt;
    r->mem_limit = mem_limit;
    *out = r;
    return TK_OK;
}

void tk_reader_free(tk_reader_t *r)
{
    if (!r)
        return;
    free(r->buf);
    free(r->name);
    free(r);
}

tk_format_t tk_reader_format(const tk_reader_t *r)
{
    return r->last;
}

long tk_reader_count(const tk_reader_t *r)
{
    return r->count;
}

static int has_prefix(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

/* Is s "# topokit-edges ..." (the edge-list header comment)? */
static int is_edges_header(const char *s)
{
    if (*s != '#')
        return 0;
    s++;
    while (*s == ' ' || *s == '\t')
        s++;
    return has_prefix(s, "topokit-edges") && (s[13] == '\0' || s[13] == ' ' || s[13] == '\t');
}

/* Is the first token of s exactly "topokit-graph"? */
static int is_native_magic(const char *s)
{
    return has_prefix(s, "topokit-graph") &&
           (s[13] == '\0' || s[13] == ' ' || s[13] == '\t' || s[13] == '#');
}

/* Does s start with a header key of the native format? */
static int is_native_key(const char *s)
{
    static const char *const keys[] = {"spec",    "switches", "directed", "servers",
                                       "classes", "coords",   "switch",   "links"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        size_t n = strlen(keys[i]);
        if (strncmp(s, keys[i], n) == 0 && (s[n] == ' ' || s[n] == '\t' || s[n] == '\0'))
            return 1;
    }
    return 0;
}

/* Every byte of s in 63..126 (graph6 alphabet)? */
static int all_g6_bytes(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if ((unsigned char)*s < 63 || (unsigned char)*s > 126)
            return 0;
    return 1;
}

/* Strip trailing white space of the current line in place. */
static void rstrip(char *s)
{
    size_t n = strlen(s);
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

/* Read one nauty-format record starting at the current line `p` (leading
 * white space skipped).  want is the requested format (TK_FMT_AUTO or one of
 * the three nauty formats). */
static tk_status_t read_nauty_record(tk_reader_t *r, tk_format_t want, char *p, tk_graph_t **g,
                                     tk_error_t *err)
{
    static const struct {
        const char *hdr;
        tk_format_t fmt;
    } hdrs[] = {{">>graph6<<", TK_FMT_GRAPH6},
                {">>sparse6<<", TK_FMT_SPARSE6},
                {">>digraph6<<", TK_FMT_DIGRAPH6}};
    tk_format_t hdr = TK_FMT_AUTO;
    tk_status_t st;

    rstrip(p);
    for (size_t i = 0; i < 3; i++)
        if (has_prefix(p, hdrs[i].hdr)) {
            hdr = hdrs[i].fmt;
            p += strlen(hdrs[i].hdr);
            break;
        }
    if (hdr != TK_FMT_AUTO && want != TK_FMT_AUTO && hdr != want)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "header >>%s<< but %s input was requested", tk_format_name(hdr),
                            tk_format_name(want));
    /* A header alone on its line: the graph is on the next one. */
    while (hdr != TK_FMT_AUTO && *p == '\0') {
        st = tk_io_getline(r, &p, err);
        if (st == TK_EOF)
            return TK_EOF;
        if (st != TK_OK)
            return st;
        while (isspace((unsigned char)*p))
            p++;
        rstrip(p);
    }
    tk_format_t got = *p == ':' ? TK_FMT_SPARSE6 : *p == '&' ? TK_FMT_DIGRAPH6 : TK_FMT_GRAPH6;
    if (*p == ';')
        return tk_error_set(err, TK_EUNSUPPORTED, r->name, r->line,
                            "incremental sparse6 (';') is not supported");
    tk_format_t expect = hdr != TK_FMT_AUTO ? hdr : want;
    if (expect != TK_FMT_AUTO && got != expect)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "expected %s, found %s ('%.20s')",
                            tk_format_name(expect), tk_format_name(got), p);
    st = tk_io_read_nauty(r, got, p, g, err);
    if (st == TK_OK)
        r->last = got;
    return st;
}

/* Is the first token of s exactly w (followed by blank, '[' or the end)? */
static int first_word(const char *s, const char *w)
{
    size_t n = strlen(w);
    return strncmp(s, w, n) == 0 &&
           (s[n] == '\0' || s[n] == ' ' || s[n] == '\t' || s[n] == '[' || s[n] == '\r');
}

/* The exchange format a record starting with line s is in, or TK_FMT_AUTO:
 * '<' GraphML, "graph" / "Creator" / "Version" GML, "router" / "node"
 * BookSim anynet, "NODOS" CAMINOS. */
static tk_format_t detect_exchange(const char *s)
{
    if (*s == '<')
        return TK_FMT_GRAPHML;
    if (first_word(s, "graph") || first_word(s, "Creator") || first_word(s, "Version"))
        return TK_FMT_GML;
    if (first_word(s, "router") || first_word(s, "node"))
        return TK_FMT_ANYNET;
    if (first_word(s, "NODOS"))
        return TK_FMT_CAMINOS;
    return TK_FMT_AUTO;
}

/* Readers of the exchange formats (each reads the rest of the stream). */
static tk_status_t read_exchange(tk_reader_t *r, tk_format_t fmt, tk_graph_t **g, tk_error_t *err)
{
    switch (fmt) {
    case TK_FMT_GRAPHML:
        return tk_io_read_graphml(r, g, err);
    case TK_FMT_GML:
        return tk_io_read_gml(r, g, err);
    case TK_FMT_ANYNET:
        return tk_io_read_anynet(r, g, err);
    default:
        return tk_io_read_caminos(r, g, err);
    }
}

/* Read the next graph.  See tk_io.h.  O(size of the record). */
tk_status_t tk_reader_next(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    char *line;
    tk_status_t st;

    if (r->fmt == TK_FMT_GRAPHML || r->fmt == TK_FMT_GML || r->fmt == TK_FMT_ANYNET ||
        r->fmt == TK_FMT_CAMINOS) {
        /* Blank lines only: the end; anything else is one graph. */
        for (;;) {
            st = tk_io_getline(r, &line, err);
            if (st != TK_OK)
                return st;
            while (isspace((unsigned char)*line))
                line++;
            if (*line)
                break;
        }
        tk_io_ungetline(r);
        st = read_exchange(r, r->fmt, g, err);
        if (st == TK_OK) {
            r->last = r->fmt;
            r->count++;
        }
        return st;
    }

    if (r->fmt == TK_FMT_EDGES) {
        st = tk_io_read_edges(r, g, err);
        if (st == TK_OK) {
            r->last = TK_FMT_EDGES;
            r->count++;
        }
        return st;
    }
    for (;;) {
        st = tk_io_getline(r, &line, err);
        if (st != TK_OK)
            return st;
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p == '\0')
            continue;
        if (*p == '#') {
            if (has_prefix(p, "# topokit-cycle")) {
                /* a cycle file of topo-antmill is all comments and numbers:
                 * it would be read as an edge list and fail further on */
                st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                  "a cycle file (topokit-cycle, topo-antmill), not a topology");
                break;
            }
            if ((r->fmt == TK_FMT_AUTO || r->fmt == TK_FMT_EDGES) && !is_edges_header(p) &&
                tk_io_edges_lookalike(p + 1)) {
                char word[32];
                const char *q = p + 1 + strspn(p + 1, " \t");
                snprintf(word, sizeof word, "%.*s", (int)strcspn(q, " \t"), q);
                st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                  "unknown header '%s' (expected '# topokit-edges switches N "
                                  "directed D')",
                                  word);
                break;
            }
            if (r->fmt == TK_FMT_AUTO && is_edges_header(p)) {
                tk_io_ungetline(r);
                st = tk_io_read_edges(r, g, err);
                if (st == TK_OK)
                    r->last = TK_FMT_EDGES;
                break;
            }
            continue;
        }
        switch (r->fmt) {
        case TK_FMT_NATIVE:
            tk_io_ungetline(r);
            st = tk_io_read_native(r, g, err);
            break;
        case TK_FMT_GRAPH6:
        case TK_FMT_SPARSE6:
        case TK_FMT_DIGRAPH6:
            st = read_nauty_record(r, r->fmt, p, g, err);
            break;
        default: /* TK_FMT_AUTO */
            if (is_native_magic(p)) {
                tk_io_ungetline(r);
                st = tk_io_read_native(r, g, err);
                if (st == TK_OK)
                    r->last = TK_FMT_NATIVE;
            } else if (detect_exchange(p) != TK_FMT_AUTO) {
                tk_format_t f = detect_exchange(p);
                tk_io_ungetline(r);
                st = read_exchange(r, f, g, err);
                if (st == TK_OK)
                    r->last = f;
            } else if (has_prefix(p, ">>") || *p == ':' || *p == '&' || *p == ';') {
                st = read_nauty_record(r, TK_FMT_AUTO, p, g, err);
            } else if (isdigit((unsigned char)*p)) {
                tk_io_ungetline(r);
                st = tk_io_read_edges(r, g, err);
                if (st == TK_OK)
                    r->last = TK_FMT_EDGES;
            } else {
                char *q = p;
                rstrip(q);
                if (all_g6_bytes(q)) {
                    st = read_nauty_record(r, TK_FMT_AUTO, q, g, err);
                } else if (has_prefix(q, "topokit-pattern")) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "a pattern file (topokit-pattern), not a topology");
                } else if (is_native_key(q)) {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "missing 'topokit-graph 1' header line before '%.40s'", q);
                } else {
                    st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                      "unrecognised input '%.40s': not a topokit-graph "
                                      "record, graph6, sparse6, digraph6 or an edge list",
                                      q);
                }
            }
            break;
        }
        break;
    }
    if (st == TK_OK)
        r->count++;
    return st;
}

/* ------------------------------------------------------------------------ */
/* Writing and whole-file reading.                                          */

/* Write one graph.  See tk_io.h.  O(n + m) (graph6/digraph6: O(n^2)). */
tk_status_t tk_write_graph(FILE *fp, const tk_graph_t *g, tk_format_t fmt, tk_error_t *err)
{
    tk_status_t st;
    if (!fp || !g)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "write: no stream or no graph");
    switch (fmt) {
    case TK_FMT_AUTO:
    case TK_FMT_NATIVE:
        st = tk_io_write_native(fp, g, err);
        break;
    case TK_FMT_GRAPH6:
    case TK_FMT_SPARSE6:
    case TK_FMT_DIGRAPH6:
        st = tk_io_write_nauty(fp, g, fmt, err);
        break;
    case TK_FMT_EDGES:
        st = tk_io_write_edges(fp, g, err);
        break;
    case TK_FMT_DOT:
        st = tk_io_write_dot(fp, g, err);
        break;
    case TK_FMT_GRAPHML:
        st = tk_io_write_graphml(fp, g, err);
        break;
    case TK_FMT_GML:
        st = tk_io_write_gml(fp, g, err);
        break;
    case TK_FMT_ANYNET:
        st = tk_io_write_anynet(fp, g, err);
        break;
    case TK_FMT_CAMINOS:
        st = tk_io_write_caminos(fp, g, err);
        break;
    default:
        return tk_error_set(err, TK_EINVAL, NULL, 0, "format %d: unknown", (int)fmt);
    }
    if (st != TK_OK)
        return st;
    if (ferror(fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "write error");
    return TK_OK;
}

/* Read exactly one graph from a path ("-" = stdin).  Errors: those of the
 * reader, TK_EIO when the file cannot be opened, TK_EFORMAT "no graph in
 * input" for an empty input and "more than one graph" when another record
 * follows.  O(size of the file). */
tk_status_t tk_read_file(const char *path, tk_format_t fmt, uint64_t mem_limit, tk_graph_t **g,
                         tk_error_t *err)
{
    FILE *fp;
    const char *name;
    int is_stdin = !path || strcmp(path, "-") == 0;
    tk_reader_t *r = NULL;
    tk_graph_t *out = NULL;
    tk_status_t st;

    if (is_stdin) {
        fp = stdin;
        name = "<stdin>";
    } else {
        fp = fopen(path, "r");
        name = path;
        if (!fp)
            return tk_error_set(err, TK_EIO, path, 0, "%s", strerror(errno));
    }
    st = tk_reader_new(&r, fp, name, fmt, mem_limit, err);
    if (st != TK_OK)
        goto done;
    st = tk_reader_next(r, &out, err);
    if (st == TK_EOF) {
        st = tk_error_set(err, TK_EFORMAT, name, 0, "no graph in input");
        goto done;
    }
    if (st != TK_OK)
        goto done;
    /* Anything but blank lines and comments after the graph is a second one. */
    for (;;) {
        char *line;
        st = tk_io_getline(r, &line, err);
        if (st == TK_EOF) {
            st = TK_OK;
            break;
        }
        if (st != TK_OK)
            goto done;
        while (isspace((unsigned char)*line))
            line++;
        if (*line && *line != '#') {
            st = tk_error_set(err, TK_EFORMAT, name, r->line,
                              "more than one graph in input (expected exactly one)");
            goto done;
        }
    }
    *g = out;
    out = NULL;
done:
    tk_graph_free(out);
    tk_reader_free(r);
    if (!is_stdin)
        fclose(fp);
    return st;
}
