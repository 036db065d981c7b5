/*
 * pattern.c - the pattern object, the "topokit-pattern 1" file format
 * (topokit-formats(5)), validation against a topology, and aggregation to
 * switch-level demands in link-capacity units.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"

#define PATTERN_MAGIC "topokit-pattern 1"
#define PATTERN_TOL 1e-9

static char *dup_str(const char *s)
{
    size_t n = strlen(s ? s : "");
    char *c = malloc(n + 1);

    if (c)
        memcpy(c, s ? s : "", n + 1);
    return c;
}

tk_status_t tk_pattern_new(tk_pattern_t **out, tk_level_t level, int64_t endpoints,
                           const char *spec, const char *topology, tk_error_t *err)
{
    tk_pattern_t *p;

    if (level != TK_LEVEL_SWITCH && level != TK_LEVEL_SERVER)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "level: must be switch or server");
    if (endpoints < 1 || endpoints > ((int64_t)1 << 50))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "endpoints=%" PRId64 ": must be between 1 and 2^50", endpoints);
    p = calloc(1, sizeof *p);
    if (!p)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    p->level = level;
    p->endpoints = endpoints;
    p->spec = dup_str(spec);
    p->topology = dup_str(topology);
    if (!p->spec || !p->topology) {
        tk_pattern_free(p);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    *out = p;
    return TK_OK;
}

void tk_pattern_free(tk_pattern_t *p)
{
    if (!p)
        return;
    if (p->extra)
        free(p->extra->servers);
    free(p->extra);
    free(p->d);
    free(p->spec);
    free(p->topology);
    free(p);
}

tk_status_t tk_pattern_reserve(tk_pattern_t *p, int64_t len, tk_error_t *err)
{
    if (len <= p->alloc)
        return TK_OK;
    tk_demand_t *d = tk_realloc_array(p->d, (size_t)len, sizeof *d);
    if (!d)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (%" PRId64 " demands)", len);
    p->d = d;
    p->alloc = len;
    return TK_OK;
}

tk_status_t tk_pattern_add(tk_pattern_t *p, int64_t src, int64_t dst, double w, tk_error_t *err)
{
    if (src < 0 || src >= p->endpoints || dst < 0 || dst >= p->endpoints)
        return tk_error_set(err, TK_ERANGE, NULL, 0,
                            "demand %" PRId64 " -> %" PRId64 ": endpoint outside 0..%" PRId64, src,
                            dst, p->endpoints - 1);
    if (!isfinite(w) || w <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "demand %" PRId64 " -> %" PRId64 ": weight %g must be finite and > 0",
                            src, dst, w);
    if (p->len == p->alloc) {
        int64_t na = p->alloc ? p->alloc * 2 : 64;
        tk_status_t st = tk_pattern_reserve(p, na, err);
        if (st != TK_OK)
            return st;
    }
    p->d[p->len].src = src;
    p->d[p->len].dst = dst;
    p->d[p->len].w = w;
    p->len++;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Reading. */

typedef struct rd {
    FILE *fp;
    const char *name;
    long line;
    char *buf;
    size_t cap;
} rd_t;

/* Next content line (comments cut, blank lines skipped).  TK_EOF at end. */
static tk_status_t rd_next(rd_t *r, char **out, tk_error_t *err)
{
    for (;;) {
        errno = 0;
        ssize_t n = getline(&r->buf, &r->cap, r->fp);
        if (n < 0) {
            if (ferror(r->fp))
                return tk_error_set(err, TK_EIO, r->name, r->line + 1, "read error: %s",
                                    strerror(errno ? errno : EIO));
            return TK_EOF;
        }
        r->line++;
        if ((size_t)n != strlen(r->buf))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "NUL byte in line");
        char *c = strchr(r->buf, '#');
        if (c)
            *c = '\0';
        char *s = r->buf;
        while (isspace((unsigned char)*s))
            s++;
        char *e = s + strlen(s);
        while (e > s && isspace((unsigned char)e[-1]))
            *--e = '\0';
        if (*s) {
            *out = s;
            return TK_OK;
        }
    }
}

/* Strict non-negative integer token. */
static int parse_i64(const char *tok, int64_t *v)
{
    char *end;

    if (!isdigit((unsigned char)tok[0]))
        return -1;
    errno = 0;
    long long x = strtoll(tok, &end, 10);
    if (errno || *end)
        return -1;
    *v = x;
    return 0;
}

static char *next_tok(char **s)
{
    char *p = *s;

    while (isspace((unsigned char)*p))
        p++;
    if (!*p) {
        *s = p;
        return NULL;
    }
    char *t = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return t;
}

/* The first line: "topokit-pattern 1" (blanks normalised). */
static tk_status_t read_magic(rd_t *r, tk_error_t *err)
{
    char *s, *a, *b, *c;
    tk_status_t st = rd_next(r, &s, err);

    if (st == TK_EOF)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line ? r->line : 1, "no pattern in input");
    if (st != TK_OK)
        return st;
    a = next_tok(&s);
    b = next_tok(&s);
    c = next_tok(&s);
    if (!a || strcmp(a, "topokit-pattern") != 0 || c)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "not a pattern file (expected '" PATTERN_MAGIC "')");
    if (!b || strcmp(b, "1") != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "unsupported pattern format version '%s' (expected 1)", b ? b : "");
    return TK_OK;
}

/* The header's values (-1 / NULL: not given yet). */
typedef struct header {
    char *spec, *topo;
    long spec_line, fp_line;
    int level;
    int64_t endpoints, demands;
    int form; /* -1 or tk_pattern_form_t */
    int has_fp, has_sum;
    uint64_t fp, sum;
    int64_t entries;  /* aggregate: entry lines, -1 */
    tk_id_t nsw;      /* aggregate: switches of the servers line, -1 */
    int32_t *servers; /* aggregate: their server counts */
    long servers_line;
} header_t;

int tkp_parse_hash(const char *s, uint64_t *v)
{
    uint64_t x = 0;

    if (strncmp(s, "fnv1a64:", 8) != 0 || strlen(s) != 8 + 16)
        return -1;
    for (s += 8; *s; s++) {
        int d = isdigit((unsigned char)*s) ? *s - '0' : *s >= 'a' && *s <= 'f' ? *s - 'a' + 10 : -1;
        if (d < 0)
            return -1;
        x = x << 4 | (uint64_t)d;
    }
    *v = x;
    return 0;
}

/* "servers c0 c1 ...": the per-switch server counts of the aggregate form. */
static tk_status_t servers_line(const rd_t *r, char *rest, header_t *h, tk_error_t *err)
{
    int64_t cap = 0, k = 0, x;
    char *t;

    if (h->nsw >= 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate 'servers' line");
    while ((t = next_tok(&rest))) {
        if (parse_i64(t, &x) != 0 || x > INT32_MAX)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "bad server count '%s'", t);
        if (k == cap) {
            int64_t nc = cap ? 2 * cap : 256;
            int32_t *ns =
                nc <= TK_MAX_SWITCHES ? tk_realloc_array(h->servers, (size_t)nc, sizeof *ns) : NULL;
            if (!ns)
                return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
            h->servers = ns;
            cap = nc;
        }
        h->servers[k++] = (int32_t)x;
    }
    if (k == 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "'servers' needs one count per switch");
    h->nsw = (tk_id_t)k;
    h->servers_line = r->line;
    return TK_OK;
}

/* "fingerprint H", "checksum H", "form F", "servers ...", "entries K". */
static tk_status_t form_line(const rd_t *r, const char *key, char *rest, header_t *h,
                             tk_error_t *err)
{
    if (strcmp(key, "servers") == 0)
        return servers_line(r, rest, h, err);
    char *v = next_tok(&rest), *more = next_tok(&rest);
    if (strcmp(key, "fingerprint") == 0 || strcmp(key, "checksum") == 0) {
        int fp = key[0] == 'f';
        if (fp ? h->has_fp : h->has_sum)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate '%s' line", key);
        if (!v || more || tkp_parse_hash(v, fp ? &h->fp : &h->sum) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "malformed %s '%s' (expected fnv1a64: and 16 hex digits)", key,
                                v ? v : "");
        *(fp ? &h->has_fp : &h->has_sum) = 1;
        if (fp)
            h->fp_line = r->line;
    } else if (strcmp(key, "form") == 0) {
        if (h->form >= 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate 'form' line");
        if (v && !more && strcmp(v, "explicit") == 0)
            h->form = TK_PATTERN_EXPLICIT;
        else if (v && !more && strcmp(v, "spec") == 0)
            h->form = TK_PATTERN_SPEC;
        else if (v && !more && strcmp(v, "aggregate") == 0)
            h->form = TK_PATTERN_AGGREGATE;
        else
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "form must be 'explicit', 'spec' or 'aggregate'");
    } else { /* entries */
        int64_t x;
        if (h->entries >= 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate 'entries' line");
        if (!v || more || parse_i64(v, &x) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "'entries' needs one non-negative integer");
        h->entries = x;
    }
    return TK_OK;
}

/* One header line s into h ("spec", "topology", "level", "endpoints" or
 * "demands"; each once). */
static tk_status_t header_line(const rd_t *r, char *s, header_t *h, tk_error_t *err)
{
    char *rest = s;
    char *key = next_tok(&rest);

    while (isspace((unsigned char)*rest))
        rest++;
    if (strcmp(key, "spec") == 0 || strcmp(key, "topology") == 0) {
        char **slot = key[0] == 's' ? &h->spec : &h->topo;
        if (*slot)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate '%s' line", key);
        *slot = dup_str(rest);
        if (!*slot)
            return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
        if (key[0] == 's')
            h->spec_line = r->line;
    } else if (strcmp(key, "level") == 0) {
        char *v = next_tok(&rest);
        if (h->level >= 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate 'level' line");
        if (!v || next_tok(&rest) || (strcmp(v, "switch") && strcmp(v, "server")))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "level must be 'switch' or 'server'");
        h->level = strcmp(v, "switch") == 0 ? TK_LEVEL_SWITCH : TK_LEVEL_SERVER;
    } else if (strcmp(key, "endpoints") == 0 || strcmp(key, "demands") == 0) {
        int64_t *slot = key[0] == 'e' ? &h->endpoints : &h->demands;
        char *v = next_tok(&rest);
        int64_t x;
        if (*slot >= 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate '%s' line", key);
        if (!v || next_tok(&rest) || parse_i64(v, &x) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "'%s' needs one non-negative integer", key);
        if (key[0] == 'e' && (x < 1 || x > ((int64_t)1 << 50)))
            return tk_error_set(err, TK_ERANGE, r->name, r->line,
                                "endpoints %" PRId64 " out of range 1..2^50", x);
        *slot = x;
    } else if (strcmp(key, "fingerprint") == 0 || strcmp(key, "checksum") == 0 ||
               strcmp(key, "form") == 0 || strcmp(key, "servers") == 0 ||
               strcmp(key, "entries") == 0) {
        return form_line(r, key, rest, h, err);
    } else {
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "unknown header line '%s' (expected spec, topology, fingerprint, "
                            "level, endpoints, form, checksum, servers, entries or demands)",
                            key);
    }
    return TK_OK;
}

/* The header lines a form needs, and only those. */
static tk_status_t check_form(const rd_t *r, header_t *h, tk_error_t *err)
{
    if (h->form < 0)
        h->form = TK_PATTERN_EXPLICIT;
    if (h->form == TK_PATTERN_SPEC && (!h->spec || !h->spec[0]))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "form spec needs a 'spec' line");
    if (h->form == TK_PATTERN_SPEC) { /* the kind is known now; its parameters at expansion */
        size_t k = strcspn(h->spec, " \t");
        int known = 0;
        for (const char *const *n = tk_pattern_kinds(); *n && !known; n++)
            known = strlen(*n) == k && strncmp(*n, h->spec, k) == 0 && strcmp(*n, "file") != 0;
        if (!known)
            return tk_error_set(err, TK_EFORMAT, r->name, h->spec_line,
                                "unknown pattern kind '%.*s' in the spec (see topo-pattern --list)",
                                (int)(k < 100 ? k : 100), h->spec);
    }
    if (h->has_sum && h->form != TK_PATTERN_SPEC)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "a 'checksum' line belongs to form spec only");
    if ((h->nsw >= 0 || h->entries >= 0) != (h->form == TK_PATTERN_AGGREGATE))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            h->form == TK_PATTERN_AGGREGATE
                                ? "form aggregate needs 'servers' and 'entries' lines"
                                : "'servers' and 'entries' lines belong to form aggregate only");
    if (h->form != TK_PATTERN_AGGREGATE)
        return TK_OK;
    if (h->nsw < 0 || h->entries < 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "form aggregate needs 'servers' and 'entries' lines");
    if (h->level != TK_LEVEL_SERVER)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "form aggregate needs level server");
    int64_t sum = 0;
    for (tk_id_t u = 0; u < h->nsw; u++)
        sum += h->servers[u];
    if (sum != h->endpoints)
        return tk_error_set(err, TK_EFORMAT, r->name, h->servers_line,
                            "counts not matching: the servers line sums to %" PRId64
                            ", endpoints is %" PRId64,
                            sum, h->endpoints);
    return TK_OK;
}

/* Header lines up to and including "demands M"; level and endpoints must
 * come before it. */
static tk_status_t read_header(rd_t *r, header_t *h, tk_error_t *err)
{
    char *s;
    tk_status_t st;

    while (h->demands < 0) {
        st = rd_next(r, &s, err);
        if (st == TK_EOF)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line + 1,
                                "truncated header: no 'demands' line");
        if (st != TK_OK)
            return st;
        if ((st = header_line(r, s, h, err)) != TK_OK)
            return st;
    }
    if (h->level < 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "no 'level' line before 'demands'");
    if (h->endpoints < 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "no 'endpoints' line before 'demands'");
    return check_form(r, h, err);
}

/* One demand line s, "src dst [weight]", added to p. */
static tk_status_t demand_line(const rd_t *r, char *s, tk_pattern_t *p, tk_error_t *err)
{
    char *rest = s;
    char *a = next_tok(&rest), *b = next_tok(&rest), *c = next_tok(&rest);
    int64_t src, dst, endpoints = p->endpoints;
    double w = 1.0;
    tk_status_t st;

    if (!b || next_tok(&rest))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "demand line must be 'src dst [weight]'");
    if (parse_i64(a, &src) || parse_i64(b, &dst))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "bad endpoint id '%s'",
                            parse_i64(a, &src) ? a : b);
    if (src >= endpoints || dst >= endpoints)
        return tk_error_set(err, TK_ERANGE, r->name, r->line,
                            "endpoint %" PRId64 " out of range 0..%" PRId64,
                            src >= endpoints ? src : dst, endpoints - 1);
    if (c) {
        char *end;
        errno = 0;
        w = strtod(c, &end);
        if (errno == ERANGE || *end || end == c || !isfinite(w) || w <= 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "bad weight '%s' (must be a finite number > 0)", c);
    }
    st = tk_pattern_add(p, src, dst, w, err);
    if (st != TK_OK && err) {
        err->line = r->line;
        snprintf(err->where, sizeof err->where, "%s", r->name);
    }
    return st;
}

/* The explicit body: h->demands lines "src dst [weight]". */
static tk_status_t read_explicit(rd_t *r, const header_t *h, tk_pattern_t *p, tk_error_t *err)
{
    char *s;
    tk_status_t st;

    /* Reserve what the header declares, within reason (a lying header must
     * not make us allocate): the array grows as lines really arrive. */
    st = tk_pattern_reserve(p, h->demands < (1 << 20) ? h->demands : (1 << 20), err);
    for (int64_t i = 0; i < h->demands && st == TK_OK; i++) {
        st = rd_next(r, &s, err);
        if (st == TK_EOF)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line + 1,
                                "truncated: %" PRId64 " of %" PRId64 " demands", i, h->demands);
        if (st == TK_OK)
            st = demand_line(r, s, p, err);
    }
    return st;
}

/* One aggregate entry "s t [weight]" into e (switch ids of the servers
 * line; both switches with servers). */
typedef struct agg {
    tk_id_t s, t;
    double w;
} agg_t;

static tk_status_t entry_line(const rd_t *r, char *s, const header_t *h, agg_t *e, tk_error_t *err)
{
    char *rest = s;
    char *a = next_tok(&rest), *b = next_tok(&rest), *c = next_tok(&rest);
    int64_t u, v;

    if (!b || next_tok(&rest))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "entry line must be 'src-switch dst-switch [weight]'");
    if (parse_i64(a, &u) || parse_i64(b, &v))
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "bad switch id '%s'",
                            parse_i64(a, &u) ? a : b);
    if (u >= h->nsw || v >= h->nsw)
        return tk_error_set(err, TK_ERANGE, r->name, r->line,
                            "switch %" PRId64 " out of range 0..%" PRId64, u >= h->nsw ? u : v,
                            (int64_t)h->nsw - 1);
    if (h->servers[u] == 0 || h->servers[v] == 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "switch %" PRId64 " has no servers in the servers line",
                            h->servers[u] == 0 ? u : v);
    e->s = (tk_id_t)u;
    e->t = (tk_id_t)v;
    e->w = 1.0;
    if (c) {
        char *end;
        errno = 0;
        e->w = strtod(c, &end);
        if (errno == ERANGE || *end || end == c || !isfinite(e->w) || e->w <= 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "bad weight '%s' (must be a finite number > 0)", c);
    }
    return TK_OK;
}

/* Expand the entries e[0..k-1] of one source switch: every server of s, in
 * order, sends w to every server of t, entry after entry. */
static tk_status_t expand_group(const header_t *h, const int64_t *first, const agg_t *e, int64_t k,
                                tk_pattern_t *p, tk_error_t *err)
{
    tk_status_t st = TK_OK;
    tk_id_t s = e[0].s;

    for (int64_t i = first[s]; i < first[s + 1] && st == TK_OK; i++)
        for (int64_t q = 0; q < k && st == TK_OK; q++)
            for (int64_t j = first[e[q].t]; j < first[e[q].t + 1] && st == TK_OK; j++)
                st = tk_pattern_add(p, i, j, e[q].w, err);
    (void)h;
    return st;
}

/* The aggregate body: h->entries lines, expanded to exactly h->demands
 * server-level demands. */
static tk_status_t read_aggregate(rd_t *r, const header_t *h, tk_pattern_t *p, tk_error_t *err)
{
    int64_t *first = tk_malloc_array((size_t)h->nsw + 1, sizeof *first);
    agg_t *e =
        tk_malloc_array((size_t)(h->entries < (1 << 20) ? h->entries + 1 : (1 << 20)), sizeof *e);
    int64_t cap = h->entries < (1 << 20) ? h->entries + 1 : (1 << 20), k = 0;
    double total = 0;
    char *s;
    tk_status_t st = TK_OK;

    if (!first || !e) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    first[0] = 0;
    for (tk_id_t u = 0; u < h->nsw; u++)
        first[u + 1] = first[u] + h->servers[u];
    for (int64_t i = 0; i < h->entries && st == TK_OK; i++) {
        st = rd_next(r, &s, err);
        if (st == TK_EOF) {
            st = tk_error_set(err, TK_EFORMAT, r->name, r->line + 1,
                              "truncated: %" PRId64 " of %" PRId64 " entries", i, h->entries);
            break;
        }
        if (st == TK_OK && k == cap) {
            agg_t *ne = tk_realloc_array(e, (size_t)cap * 2, sizeof *e);
            if (!ne)
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            else
                e = ne, cap *= 2;
        }
        if (st == TK_OK)
            st = entry_line(r, s, h, &e[k], err);
        if (st != TK_OK)
            break;
        total += (double)h->servers[e[k].s] * h->servers[e[k].t];
        if (total > (double)h->demands)
            st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                              "counts not matching: the entries expand to more than the %" PRId64
                              " demands declared",
                              h->demands);
        k++;
    }
    if (st == TK_OK && total != (double)h->demands)
        st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                          "counts not matching: the entries expand to %.0f demands, "
                          "%" PRId64 " declared",
                          total, h->demands);
    uint64_t lim = tk_memory_limit_default();
    if (st == TK_OK && lim && (double)h->demands * sizeof(tk_demand_t) > (double)lim)
        st = tk_error_set(err, TK_ELIMIT, r->name, r->line,
                          "%" PRId64 " demands exceed the memory limit of %" PRIu64 " bytes",
                          h->demands, lim);
    if (st == TK_OK)
        st = tk_pattern_reserve(p, h->demands, err);
    for (int64_t a = 0, b; a < k && st == TK_OK; a = b) {
        for (b = a + 1; b < k && e[b].s == e[a].s;)
            b++;
        st = expand_group(h, first, e + a, b - a, p, err);
    }
done:
    free(first);
    free(e);
    return st;
}

tk_status_t tk_pattern_read(FILE *fp, const char *name, tk_pattern_t **out, tk_error_t *err)
{
    rd_t r = {fp, name ? name : "<stdin>", 0, NULL, 0};
    header_t h = {NULL, NULL, 0, 0, -1, -1, -1, -1, 0, 0, 0, 0, -1, -1, NULL, 0};
    tk_pattern_t *p = NULL;
    char *s;
    tk_status_t st;

    if ((st = read_magic(&r, err)) != TK_OK || (st = read_header(&r, &h, err)) != TK_OK)
        goto fail;
    st = tk_pattern_new(&p, (tk_level_t)h.level, h.endpoints, h.spec, h.topo, err);
    if (st != TK_OK)
        goto fail;
    p->has_fingerprint = h.has_fp;
    p->fingerprint = h.fp;
    if (h.form != TK_PATTERN_EXPLICIT) {
        struct tk_pattern_extra *x = tkp_extra(p);
        if (!x) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            goto fail;
        }
        x->form = (tk_pattern_form_t)h.form;
        x->has_checksum = h.has_sum;
        x->checksum = h.sum;
        x->declared = h.demands;
        x->nsw = h.nsw;
        x->spec_line = h.spec_line;
        x->servers_line = h.servers_line;
    }
    if (h.form == TK_PATTERN_EXPLICIT)
        st = read_explicit(&r, &h, p, err);
    else if (h.form == TK_PATTERN_AGGREGATE)
        st = read_aggregate(&r, &h, p, err);
    if (st != TK_OK)
        goto fail;
    if (p->extra) { /* the aggregate's counts, for tk_pattern_bind */
        p->extra->servers = h.servers;
        h.servers = NULL;
    }
    st = rd_next(&r, &s, err);
    if (st == TK_OK) {
        if (h.form == TK_PATTERN_EXPLICIT)
            st = tk_error_set(err, TK_EFORMAT, r.name, r.line,
                              "more demand lines than the %" PRId64 " declared", h.demands);
        else if (h.form == TK_PATTERN_SPEC)
            st = tk_error_set(err, TK_EFORMAT, r.name, r.line,
                              "form spec has no demand lines (the reader expands the spec)");
        else
            st = tk_error_set(err, TK_EFORMAT, r.name, r.line,
                              "more entry lines than the %" PRId64 " declared", h.entries);
        goto fail;
    }
    if (st != TK_EOF)
        goto fail;
    free(r.buf);
    free(h.spec);
    free(h.topo);
    free(h.servers);
    *out = p;
    return TK_OK;
fail:
    free(r.buf);
    free(h.spec);
    free(h.topo);
    free(h.servers);
    tk_pattern_free(p);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Writing. */

/* A decimal of k <= 15 significant digits that reads back as v is what
 * %.15g prints (trailing zeros trimmed), so the shortest round-trip form is
 * the first of %.15g, %.16g, %.17g that reads back; below 15 digits only
 * the shorter candidates need trying when 15 does. */
void tk_pattern_fmt_double(char *buf, size_t len, double v)
{
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            return;
    }
}

/* A header value must stay on one line. */
static void put_oneline(FILE *fp, const char *s)
{
    for (; *s; s++)
        fputc(*s == '\n' || *s == '\r' || *s == '#' ? ' ' : *s, fp);
}

void tkp_write_header(FILE *fp, const tk_pattern_t *p, const char *form)
{
    fputs(PATTERN_MAGIC "\n", fp);
    fputs("spec ", fp);
    put_oneline(fp, p->spec);
    fputs("\ntopology ", fp);
    put_oneline(fp, p->topology);
    if (p->has_fingerprint)
        fprintf(fp, "\nfingerprint fnv1a64:%016" PRIx64, p->fingerprint);
    fprintf(fp, "\nlevel %s\nendpoints %" PRId64 "\n",
            p->level == TK_LEVEL_SWITCH ? "switch" : "server", p->endpoints);
    if (form)
        fprintf(fp, "form %s\n", form);
}

void tkp_write_demands(FILE *fp, const tk_pattern_t *p)
{
    char w[64];
    double last = 0; /* weights repeat: format each distinct run once */

    w[0] = '\0';
    for (int64_t i = 0; i < p->len; i++) {
        const tk_demand_t *d = &p->d[i];
        if (d->w == 1.0) {
            fprintf(fp, "%" PRId64 " %" PRId64 "\n", d->src, d->dst);
        } else {
            if (d->w != last || !w[0]) {
                tk_pattern_fmt_double(w, sizeof w, d->w);
                last = d->w;
            }
            fprintf(fp, "%" PRId64 " %" PRId64 " %s\n", d->src, d->dst, w);
        }
    }
}

tk_status_t tk_pattern_write(FILE *fp, const tk_pattern_t *p, tk_error_t *err)
{
    tkp_write_header(fp, p, NULL);
    fprintf(fp, "demands %" PRId64 "\n", p->len);
    tkp_write_demands(fp, p);
    if (ferror(fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "write error");
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Checking and aggregation. */

/* Speed of a switch-level endpoint: its servers, or 1 when it has none. */
static double sw_speed(const tk_graph_t *g, tk_id_t u)
{
    int32_t p = tk_graph_servers(g, u);
    return p > 0 ? (double)p : 1.0;
}

/* Map endpoints to switches: for server level first[] prefix sums. */
tk_status_t tk_pattern_server_first(const tk_graph_t *g, int64_t **first, tk_error_t *err)
{
    int64_t *f = tk_malloc_array((size_t)g->n + 1, sizeof *f);

    if (!f)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    f[0] = 0;
    for (tk_id_t u = 0; u < g->n; u++)
        f[u + 1] = f[u] + tk_graph_servers(g, u);
    *first = f;
    return TK_OK;
}

/* Switch of server i: binary search in first[] (prefix sums over n
 * switches). */
tk_id_t tkp_server_switch(const int64_t *first, tk_id_t n, int64_t i)
{
    tk_id_t lo = 0, hi = n - 1;

    while (lo < hi) {
        tk_id_t mid = lo + (hi - lo + 1) / 2;
        if (first[mid] <= i)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* Per-endpoint send / receive totals in the endpoint's own units. */
static tk_status_t endpoint_totals(const tk_pattern_t *p, const tk_graph_t *g, double **snd,
                                   double **rcv, tk_error_t *err)
{
    double *s = tk_calloc_array((size_t)p->endpoints, sizeof *s);
    double *r = tk_calloc_array((size_t)p->endpoints, sizeof *r);

    if (!s || !r) {
        free(s);
        free(r);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int64_t i = 0; i < p->len; i++) {
        const tk_demand_t *d = &p->d[i];
        s[d->src] += d->w;
        if (p->level == TK_LEVEL_SWITCH)
            r[d->dst] += d->w * sw_speed(g, (tk_id_t)d->src) / sw_speed(g, (tk_id_t)d->dst);
        else
            r[d->dst] += d->w;
    }
    *snd = s;
    *rcv = r;
    return TK_OK;
}

tk_status_t tk_pattern_check(const tk_pattern_t *p, const tk_graph_t *g, const char *where,
                             tk_error_t *err)
{
    const char *wh = where ? where : "pattern";
    int64_t want;
    double *snd = NULL, *rcv = NULL;
    tk_status_t st;

    if (p->extra && p->extra->form == TK_PATTERN_SPEC && !p->extra->bound)
        return tk_error_set(err, TK_EINVAL, wh, 0,
                            "a spec-form pattern must be expanded for the topology first "
                            "(tk_pattern_bind)");

    if (p->level == TK_LEVEL_SWITCH) {
        want = g->n;
        if (p->endpoints != want)
            return tk_error_set(err, TK_EINVAL, wh, 0,
                                "pattern has %" PRId64 " switch endpoints but the topology has "
                                "%" PRId64 " switches",
                                p->endpoints, want);
    } else {
        want = tk_graph_total_servers(g);
        if (p->endpoints != want)
            return tk_error_set(err, TK_EINVAL, wh, 0,
                                "pattern has %" PRId64 " server endpoints but the topology has "
                                "%" PRId64 " servers",
                                p->endpoints, want);
    }
    for (int64_t i = 0; i < p->len; i++) {
        const tk_demand_t *d = &p->d[i];
        if (d->src < 0 || d->src >= want || d->dst < 0 || d->dst >= want)
            return tk_error_set(err, TK_ERANGE, wh, 0,
                                "demand %" PRId64 " (%" PRId64 " -> %" PRId64
                                "): endpoint out of range 0..%" PRId64,
                                i + 1, d->src, d->dst, want - 1);
        if (!isfinite(d->w) || d->w <= 0)
            return tk_error_set(err, TK_EINVAL, wh, 0,
                                "demand %" PRId64 ": weight must be finite and > 0", i + 1);
    }
    st = endpoint_totals(p, g, &snd, &rcv, err);
    if (st != TK_OK)
        return st;
    const char *lv = p->level == TK_LEVEL_SWITCH ? "switch" : "server";
    for (int64_t e = 0; e < p->endpoints; e++) {
        if (snd[e] > 1.0 + PATTERN_TOL || rcv[e] > 1.0 + PATTERN_TOL) {
            int sends = snd[e] > 1.0 + PATTERN_TOL;
            char v[64];
            tk_pattern_fmt_double(v, sizeof v, sends ? snd[e] : rcv[e]);
            st = tk_error_set(err, TK_EINVAL, wh, 0,
                              "not admissible: %s %" PRId64 " %s %s (more than 1)", lv, e,
                              sends ? "sends" : "receives", v);
            break;
        }
    }
    free(snd);
    free(rcv);
    return st;
}

void tk_swdemand_destroy(tk_swdemand_t *d)
{
    if (!d)
        return;
    free(d->off);
    free(d->dst);
    free(d->w);
    free(d->inject);
    free(d->eject);
    memset(d, 0, sizeof *d);
}

typedef struct dw {
    tk_id_t dst;
    double w;
} dw_t;

static int cmp_dw(const void *a, const void *b)
{
    const dw_t *x = a, *y = b;
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* The switch of endpoint e (first: the server prefix sums at server
 * level). */
static tk_id_t switch_of(const tk_pattern_t *p, const int64_t *first, tk_id_t n, int64_t e)
{
    return p->level == TK_LEVEL_SWITCH ? (tk_id_t)e : tkp_server_switch(first, n, e);
}

/* d's inject / eject: the largest send / receive total (snd, rcv) of an
 * endpoint at each switch. */
static void endpoint_limits(const tk_pattern_t *p, const int64_t *first, tk_id_t n,
                            const double *snd, const double *rcv, tk_swdemand_t *d)
{
    for (int64_t e = 0; e < p->endpoints; e++) {
        tk_id_t u = switch_of(p, first, n, e);
        if (snd[e] > d->inject[u])
            d->inject[u] = snd[e];
        if (rcv[e] > d->eject[u])
            d->eject[u] = rcv[e];
    }
}

/* The demands as (destination switch, link-capacity units) in buf,
 * bucketed by source switch (counting sort): afterwards cnt[s] (n + 1
 * entries, zero on entry) is the end of row s. */
static void bucket_by_source(const tk_pattern_t *p, const tk_graph_t *g, const int64_t *first,
                             int64_t *cnt, dw_t *buf)
{
    tk_id_t n = g->n;

    for (int64_t i = 0; i < p->len; i++)
        cnt[switch_of(p, first, n, p->d[i].src) + 1]++;
    for (tk_id_t u = 0; u < n; u++)
        cnt[u + 1] += cnt[u];
    for (int64_t i = 0; i < p->len; i++) {
        const tk_demand_t *x = &p->d[i];
        tk_id_t s = switch_of(p, first, n, x->src), t = switch_of(p, first, n, x->dst);
        double w = p->level == TK_LEVEL_SWITCH ? x->w * sw_speed(g, s) : x->w;
        buf[cnt[s]].dst = t;
        buf[cnt[s]].w = w;
        cnt[s]++;
    }
}

/* Sort each row of buf (ends cnt[s]) by destination and merge it in place
 * into d->off (one entry per pair), same-switch demand into d->local.
 * Returns the merged length. */
static int64_t merge_rows(tk_id_t n, const int64_t *cnt, dw_t *buf, tk_swdemand_t *d)
{
    int64_t len = 0, start = 0;

    for (tk_id_t s = 0; s < n; s++) {
        int64_t end = cnt[s];
        qsort(buf + start, (size_t)(end - start), sizeof *buf, cmp_dw);
        d->off[s] = len;
        for (int64_t i = start; i < end; i++) {
            if (buf[i].dst == s) {
                d->local += buf[i].w;
                continue;
            }
            if (len > d->off[s] && buf[len - 1].dst == buf[i].dst)
                buf[len - 1].w += buf[i].w;
            else
                buf[len++] = buf[i];
        }
        start = end;
    }
    d->off[n] = len;
    return len;
}

tk_status_t tk_pattern_to_switch(const tk_pattern_t *p, const tk_graph_t *g, tk_swdemand_t *out,
                                 tk_error_t *err)
{
    tk_swdemand_t d;
    int64_t *first = NULL, *cnt = NULL, len;
    double *snd = NULL, *rcv = NULL;
    dw_t *buf = NULL;
    tk_status_t st;
    tk_id_t n = g->n;

    memset(&d, 0, sizeof d);
    st = tk_pattern_check(p, g, NULL, err);
    if (st != TK_OK)
        return st;
    d.n = n;
    d.off = tk_calloc_array((size_t)n + 1, sizeof *d.off);
    d.inject = tk_calloc_array((size_t)n, sizeof *d.inject);
    d.eject = tk_calloc_array((size_t)n, sizeof *d.eject);
    cnt = tk_calloc_array((size_t)n + 1, sizeof *cnt);
    buf = tk_malloc_array((size_t)(p->len ? p->len : 1), sizeof *buf);
    if (!d.off || !d.inject || !d.eject || !cnt || !buf) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if (p->level == TK_LEVEL_SERVER) {
        st = tk_pattern_server_first(g, &first, err);
        if (st != TK_OK)
            goto done;
    }
    st = endpoint_totals(p, g, &snd, &rcv, err);
    if (st != TK_OK)
        goto done;
    endpoint_limits(p, first, n, snd, rcv, &d);
    bucket_by_source(p, g, first, cnt, buf);
    len = merge_rows(n, cnt, buf, &d);
    d.len = len;
    d.dst = tk_malloc_array((size_t)(len ? len : 1), sizeof *d.dst);
    d.w = tk_malloc_array((size_t)(len ? len : 1), sizeof *d.w);
    if (!d.dst || !d.w) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t i = 0; i < len; i++) {
        d.dst[i] = buf[i].dst;
        d.w[i] = buf[i].w;
        d.total += buf[i].w;
    }
    *out = d;
done:
    free(first);
    free(cnt);
    free(buf);
    free(snd);
    free(rcv);
    if (st != TK_OK)
        tk_swdemand_destroy(&d);
    return st;
}

/* The server count of switch u as the uniform pattern sees it: its
 * servers, or 1 for every switch when the graph has none at all. */
static double uniform_weight(const tk_graph_t *g, int64_t nserv, tk_id_t u)
{
    return nserv > 0 ? (double)tk_graph_servers(g, u) : 1.0;
}

tk_status_t tk_swdemand_uniform(const tk_graph_t *g, uint64_t mem_limit, tk_swdemand_t *out,
                                tk_error_t *err)
{
    tk_swdemand_t d;
    tk_id_t n = g->n;
    int64_t nserv = tk_graph_total_servers(g), ends = 0, len;
    double tot = 0, bytes;

    for (tk_id_t u = 0; u < n; u++)
        if (uniform_weight(g, nserv, u) > 0) {
            ends++;
            tot += uniform_weight(g, nserv, u);
        }
    if (ends < 2)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "uniform: needs servers on at least 2 switches (%" PRId64 ")", ends);
    len = ends * (ends - 1);
    bytes = (double)len * (sizeof(tk_id_t) + sizeof(double)) + 24.0 * (double)(n + 1);
    if (mem_limit && bytes > (double)mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "uniform on %" PRId64 " switches needs %.3g bytes, over the "
                            "memory limit of %" PRIu64,
                            ends, bytes, mem_limit);
    memset(&d, 0, sizeof d);
    d.n = n;
    d.len = len;
    d.off = tk_malloc_array((size_t)n + 1, sizeof *d.off);
    d.dst = tk_malloc_array((size_t)len, sizeof *d.dst);
    d.w = tk_malloc_array((size_t)len, sizeof *d.w);
    d.inject = tk_calloc_array((size_t)n, sizeof *d.inject);
    d.eject = tk_calloc_array((size_t)n, sizeof *d.eject);
    if (!d.off || !d.dst || !d.w || !d.inject || !d.eject) {
        tk_swdemand_destroy(&d);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "uniform: out of memory");
    }
    /* Every server sends 1 / (servers on other switches) to each server on
     * another switch: switch s sends p(s) p(t) / (N - p(s)) to switch t. */
    int64_t k = 0;
    for (tk_id_t s = 0; s < n; s++) {
        double ps = uniform_weight(g, nserv, s);
        d.off[s] = k;
        if (ps == 0)
            continue;
        d.inject[s] = 1.0;
        for (tk_id_t t = 0; t < n; t++) {
            double pt = uniform_weight(g, nserv, t);
            if (t == s || pt == 0)
                continue;
            d.dst[k] = t;
            d.w[k] = ps * pt / (tot - ps);
            d.total += d.w[k];
            d.eject[t] += ps / (tot - ps);
            k++;
        }
    }
    d.off[n] = k;
    /* The same count p on every switch with servers: each server receives
     * (ends - 1) p / (N - p) = 1 exactly (not a rounded sum). */
    double p0 = -1;
    int same = 1;
    for (tk_id_t u = 0; u < n; u++) {
        double pu = uniform_weight(g, nserv, u);
        if (pu > 0 && p0 < 0)
            p0 = pu;
        same &= pu == 0 || pu == p0;
    }
    for (tk_id_t u = 0; u < n && same; u++)
        if (d.eject[u] > 0)
            d.eject[u] = 1.0;
    *out = d;
    return TK_OK;
}

tk_status_t tk_swdemand_all_to_all(const tk_graph_t *g, uint64_t mem_limit, tk_swdemand_t *out,
                                   tk_error_t *err)
{
    tk_swdemand_t d;
    tk_id_t n = g->n;
    int64_t len = (int64_t)n * (n - 1);
    double bytes = (double)len * (sizeof(tk_id_t) + sizeof(double)) + 24.0 * (double)(n + 1);

    if (mem_limit && bytes > (double)mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "all-to-all on %" PRId64 " switches needs %.3g bytes, over the "
                            "memory limit of %" PRIu64,
                            (int64_t)n, bytes, mem_limit);
    memset(&d, 0, sizeof d);
    d.n = n;
    d.len = len;
    d.off = tk_malloc_array((size_t)n + 1, sizeof *d.off);
    d.dst = tk_malloc_array((size_t)(len ? len : 1), sizeof *d.dst);
    d.w = tk_malloc_array((size_t)(len ? len : 1), sizeof *d.w);
    d.inject = tk_malloc_array((size_t)(n ? n : 1), sizeof *d.inject);
    d.eject = tk_malloc_array((size_t)(n ? n : 1), sizeof *d.eject);
    if (!d.off || !d.dst || !d.w || !d.inject || !d.eject) {
        tk_swdemand_destroy(&d);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    int64_t k = 0;
    for (tk_id_t s = 0; s < n; s++) {
        d.off[s] = k;
        for (tk_id_t t = 0; t < n; t++) {
            if (t == s)
                continue;
            d.dst[k] = t;
            d.w[k] = 1.0;
            k++;
        }
        d.inject[s] = d.eject[s] = (double)(n - 1);
    }
    d.off[n] = k;
    d.total = (double)len;
    *out = d;
    return TK_OK;
}
