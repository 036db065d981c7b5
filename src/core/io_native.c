/*
 * io_native.c - the native "topokit-graph 1" text format (topokit-formats(5)).
 *
 * A record is: the magic line, header lines in any order, "links N", N link
 * lines, "end".  Header values are collected first (switch attribute lines
 * may precede "switches" and "coords"), then the builder is created once the
 * "links" line is reached, so sizes are checked before anything large is
 * allocated.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

#define NATIVE_MAX_COORDS 64

/* One "switch ID key=value..." line, kept until the builder exists. */
typedef struct swline {
    long line;
    int64_t id;
    int has_servers, has_group, has_coord;
    int32_t servers, group;
    size_t co_off; /* offset of its coordinates in hdr.co */
    int nco;
} swline_t;

typedef struct hdr {
    char *spec;
    long spec_line;
    int64_t n;
    long n_line;
    int directed;
    long directed_line;
    int32_t servers;
    long servers_line;
    char cls[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    int ncls; /* declared names, not counting "-" */
    long classes_line;
    int ncoord;
    long coords_line;
    swline_t *sw;
    size_t nsw, capsw;
    int32_t *co;
    size_t nco, capco;
} hdr_t;

static void hdr_free(hdr_t *h)
{
    free(h->spec);
    free(h->sw);
    free(h->co);
}

/* Cut a '#' comment off a line in place. */
static void strip_comment(char *s)
{
    char *c = strchr(s, '#');
    if (c)
        *c = '\0';
}

/* Next line that is not blank after removing comments.  *line points to it. */
static tk_status_t next_content_line(tk_reader_t *r, char **line, tk_error_t *err)
{
    for (;;) {
        tk_status_t st = tk_io_getline(r, line, err);
        if (st != TK_OK)
            return st;
        strip_comment(*line);
        char *p = *line;
        while (isspace((unsigned char)*p))
            p++;
        if (*p)
            return TK_OK;
    }
}

static tk_status_t trailing_junk(tk_reader_t *r, char **s, tk_error_t *err)
{
    char *junk = tk_io_token(s);
    if (junk)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "trailing junk '%s'", junk);
    return TK_OK;
}

/* Parse the single integer value of header `key` in [lo, hi]. */
static tk_status_t header_int(tk_reader_t *r, const char *key, char **s, int64_t lo, int64_t hi,
                              int64_t *v, tk_error_t *err)
{
    char *tok = tk_io_token(s);
    if (!tok)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "%s: missing value", key);
    if (tk_io_parse_i64(tok, v) != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "%s '%s': not an integer", key, tok);
    if (*v < lo || *v > hi)
        return tk_error_set(err, TK_ERANGE, r->name, r->line,
                            "%s %" PRId64 ": must be between %" PRId64 " and %" PRId64, key, *v, lo,
                            hi);
    return trailing_junk(r, s, err);
}

static tk_status_t duplicate(tk_reader_t *r, const char *key, long first, tk_error_t *err)
{
    return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate '%s' (first at line %ld)",
                        key, first);
}

/* A switch attribute servers=V or group=V (key, val) into sl. */
static tk_status_t switch_int_attr(tk_reader_t *r, swline_t *sl, const char *key, const char *val,
                                   tk_error_t *err)
{
    int is_srv = key[0] == 's';
    int64_t v;

    if (is_srv ? sl->has_servers : sl->has_group)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "duplicate switch attribute '%s'",
                            key);
    if (tk_io_parse_i64(val, &v) != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "%s='%s': not an integer", key, val);
    if (v < 0 || v > INT32_MAX)
        return tk_error_set(err, TK_ERANGE, r->name, r->line,
                            "%s=%" PRId64 ": must be between 0 and %d", key, v, INT32_MAX);
    if (is_srv) {
        sl->has_servers = 1;
        sl->servers = (int32_t)v;
    } else {
        sl->has_group = 1;
        sl->group = (int32_t)v;
    }
    return TK_OK;
}

/* A switch attribute coord=X,Y,... (p: the value, cut in place): the
 * coordinates go to h->co, counted in sl. */
static tk_status_t switch_coords(tk_reader_t *r, hdr_t *h, swline_t *sl, char *p, tk_error_t *err)
{
    int64_t v;

    if (sl->has_coord)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "duplicate switch attribute 'coord'");
    sl->has_coord = 1;
    for (;;) {
        char *comma = strchr(p, ',');
        if (comma)
            *comma = '\0';
        if (tk_io_parse_i64(p, &v) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "coordinate '%s': not an integer", p);
        if (v < INT32_MIN || v > INT32_MAX)
            return tk_error_set(err, TK_ERANGE, r->name, r->line,
                                "coordinate %" PRId64 ": out of the 32-bit range", v);
        if (sl->nco >= NATIVE_MAX_COORDS)
            return tk_error_set(err, TK_ERANGE, r->name, r->line,
                                "coord=: more than %d coordinates", NATIVE_MAX_COORDS);
        if (h->nco == h->capco) {
            size_t nc = h->capco ? 2 * h->capco : 64;
            int32_t *q = tk_realloc_array(h->co, nc, sizeof *q);
            if (!q)
                return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
            h->co = q;
            h->capco = nc;
        }
        h->co[h->nco++] = (int32_t)v;
        sl->nco++;
        if (!comma)
            return TK_OK;
        p = comma + 1;
    }
}

/* Parse "switch ID key=value ..." into h->sw. */
static tk_status_t parse_switch_line(tk_reader_t *r, hdr_t *h, char **s, tk_error_t *err)
{
    swline_t sl;
    tk_status_t st;

    memset(&sl, 0, sizeof sl);
    sl.line = r->line;
    char *tok = tk_io_token(s);
    if (!tok)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "switch: missing switch id");
    if (tk_io_parse_i64(tok, &sl.id) != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "switch id '%s': not an integer",
                            tok);
    sl.co_off = h->nco;
    while ((tok = tk_io_token(s)) != NULL) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "switch attribute '%s': expected key=value", tok);
        *eq = '\0';
        if (strcmp(tok, "servers") == 0 || strcmp(tok, "group") == 0)
            st = switch_int_attr(r, &sl, tok, eq + 1, err);
        else if (strcmp(tok, "coord") == 0)
            st = switch_coords(r, h, &sl, eq + 1, err);
        else
            st = tk_error_set(err, TK_EFORMAT, r->name, r->line,
                              "unknown switch attribute '%s' (expected servers=, group= "
                              "or coord=)",
                              tok);
        if (st != TK_OK)
            return st;
    }
    if (h->nsw == h->capsw) {
        size_t nc = h->capsw ? 2 * h->capsw : 16;
        swline_t *q = tk_realloc_array(h->sw, nc, sizeof *q);
        if (!q)
            return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
        h->sw = q;
        h->capsw = nc;
    }
    h->sw[h->nsw++] = sl;
    return TK_OK;
}

/* Parse the magic line; the first content line of the record. */
static tk_status_t parse_magic(tk_reader_t *r, tk_error_t *err)
{
    char *line;
    tk_status_t st = next_content_line(r, &line, err);
    if (st == TK_EOF)
        return TK_EOF;
    if (st != TK_OK)
        return st;
    char *s = line;
    char *tok = tk_io_token(&s);
    if (strcmp(tok, "topokit-graph") != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "missing 'topokit-graph 1' header line (found '%.40s')", tok);
    tok = tk_io_token(&s);
    if (!tok)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "topokit-graph: missing format version");
    if (strcmp(tok, "1") != 0)
        return tk_error_set(err, TK_EUNSUPPORTED, r->name, r->line,
                            "unsupported version '%s' of the native format (this reader "
                            "knows version 1)",
                            tok);
    return trailing_junk(r, &s, err);
}

/* "spec TEXT" (s: after the key), trimmed. */
static tk_status_t header_spec(tk_reader_t *r, hdr_t *h, char *s, tk_error_t *err)
{
    size_t len;

    if (h->spec)
        return duplicate(r, "spec", h->spec_line, err);
    while (isspace((unsigned char)*s))
        s++;
    len = strlen(s);
    while (len > 0 && isspace((unsigned char)s[len - 1]))
        len--;
    h->spec = strndup(s, len);
    if (!h->spec)
        return tk_error_set(err, TK_ENOMEM, r->name, r->line, "out of memory");
    h->spec_line = r->line;
    return TK_OK;
}

/* "switches N", refused beyond the size limits. */
static tk_status_t header_switches(tk_reader_t *r, hdr_t *h, char **s, tk_error_t *err)
{
    char what[64];
    int64_t v;
    tk_status_t st;

    if (h->n_line)
        return duplicate(r, "switches", h->n_line, err);
    st = header_int(r, "switches", s, 0, INT64_MAX, &v, err);
    if (st != TK_OK)
        return st;
    snprintf(what, sizeof what, "switches %" PRId64, v);
    st = tk_io_check_size(r, r->line, what, v, 0, err);
    if (st != TK_OK)
        return st;
    h->n = v;
    h->n_line = r->line;
    return TK_OK;
}

/* A header line "key V" with V in 0..hi, given once (*line: where). */
static tk_status_t header_small(tk_reader_t *r, const char *key, long *line, char **s, int64_t hi,
                                int64_t *v, tk_error_t *err)
{
    tk_status_t st;

    if (*line)
        return duplicate(r, key, *line, err);
    st = header_int(r, key, s, 0, hi, v, err);
    if (st == TK_OK)
        *line = r->line;
    return st;
}

/* "classes NAME ...": the class order, each name once. */
static tk_status_t header_classes(tk_reader_t *r, hdr_t *h, char **s, tk_error_t *err)
{
    char *tok;

    if (h->classes_line)
        return duplicate(r, "classes", h->classes_line, err);
    h->classes_line = r->line;
    while ((tok = tk_io_token(s)) != NULL) {
        if (!tk_io_class_name_ok(tok))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "bad class name '%s' (a letter or '_' then up to "
                                "%d letters, digits or _.:+-)",
                                tok, TK_CLASS_NAME_MAX - 2);
        for (int i = 0; i < h->ncls; i++)
            if (strcmp(h->cls[i], tok) == 0)
                return tk_error_set(err, TK_EFORMAT, r->name, r->line, "class '%s' declared twice",
                                    tok);
        if (h->ncls + 1 >= TK_MAX_CLASSES)
            return tk_error_set(err, TK_ELIMIT, r->name, r->line,
                                "classes: more than %d link classes", TK_MAX_CLASSES - 1);
        snprintf(h->cls[h->ncls++], TK_CLASS_NAME_MAX, "%s", tok);
    }
    return TK_OK;
}

/* Read header lines up to and including "links N". */
static tk_status_t parse_header(tk_reader_t *r, hdr_t *h, int64_t *nlinks, long *links_line,
                                tk_error_t *err)
{
    long magic_line = r->line;
    for (;;) {
        char *line, *s, *tok;
        int64_t v;
        tk_status_t st = next_content_line(r, &line, err);
        if (st == TK_EOF)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "truncated record: end of input before the 'links' line "
                                "(record started at line %ld)",
                                magic_line);
        if (st != TK_OK)
            return st;
        s = line;
        tok = tk_io_token(&s);
        if (strcmp(tok, "spec") == 0) {
            st = header_spec(r, h, s, err);
        } else if (strcmp(tok, "switches") == 0) {
            st = header_switches(r, h, &s, err);
        } else if (strcmp(tok, "directed") == 0) {
            if ((st = header_small(r, "directed", &h->directed_line, &s, 1, &v, err)) == TK_OK)
                h->directed = (int)v;
        } else if (strcmp(tok, "servers") == 0) {
            if ((st = header_small(r, "servers", &h->servers_line, &s, INT32_MAX, &v, err)) ==
                TK_OK)
                h->servers = (int32_t)v;
        } else if (strcmp(tok, "coords") == 0) {
            if ((st = header_small(r, "coords", &h->coords_line, &s, NATIVE_MAX_COORDS, &v, err)) ==
                TK_OK)
                h->ncoord = (int)v;
        } else if (strcmp(tok, "classes") == 0) {
            st = header_classes(r, h, &s, err);
        } else if (strcmp(tok, "switch") == 0) {
            st = parse_switch_line(r, h, &s, err);
        } else if (strcmp(tok, "links") == 0) {
            st = header_int(r, "links", &s, 0, INT64_MAX, &v, err);
            if (st != TK_OK)
                return st;
            *nlinks = v;
            *links_line = r->line;
            return TK_OK;
        } else if (strcmp(tok, "end") == 0) {
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "'end' before the 'links' line");
        } else if (strcmp(tok, "topokit-graph") == 0) {
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "new record starts before the 'links' line of the record at "
                                "line %ld",
                                magic_line);
        } else if (isdigit((unsigned char)tok[0])) {
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "link line before the 'links' header line");
        } else {
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "unknown header key '%s' (expected spec, switches, directed, "
                                "servers, classes, coords, switch or links)",
                                tok);
        }
        if (st != TK_OK)
            return st;
    }
}

/* One "switch" line's attributes into the builder (errors at its line). */
static tk_status_t apply_switch_line(tk_reader_t *r, const hdr_t *h, const swline_t *sl,
                                     tk_builder_t *b, tk_error_t *err)
{
    long ln = sl->line;
    tk_status_t st;

    if (sl->has_servers && (st = tk_builder_set_servers(b, sl->id, sl->servers, err)) != TK_OK)
        return tk_io_locate(err, st, r->name, ln);
    if (sl->has_group && (st = tk_builder_set_group(b, sl->id, sl->group, err)) != TK_OK)
        return tk_io_locate(err, st, r->name, ln);
    if (!sl->has_coord)
        return TK_OK;
    if (sl->nco != h->ncoord)
        return h->ncoord == 0
                   ? tk_error_set(err, TK_EFORMAT, r->name, ln,
                                  "coord= given but no 'coords' header line")
                   : tk_error_set(err, TK_EFORMAT, r->name, ln,
                                  "coord= has %d values, 'coords' declares %d", sl->nco, h->ncoord);
    st = tk_builder_set_coord(b, sl->id, h->co + sl->co_off, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, ln);
    return TK_OK;
}

/* The collected "switch" lines into the builder: ids in range, each
 * switch once. */
static tk_status_t apply_switch_lines(tk_reader_t *r, const hdr_t *h, tk_builder_t *b,
                                      long links_line, tk_error_t *err)
{
    uint8_t *seen = NULL;
    tk_status_t st = TK_OK;

    if (h->nsw > 0) {
        seen = calloc((size_t)h->n, 1);
        if (!seen && h->n > 0)
            return tk_error_set(err, TK_ENOMEM, r->name, links_line, "out of memory");
    }
    for (size_t i = 0; i < h->nsw && st == TK_OK; i++) {
        const swline_t *sl = &h->sw[i];
        if (sl->id < 0 || sl->id >= h->n)
            st = tk_error_set(err, TK_ERANGE, r->name, sl->line,
                              "switch id %" PRId64 " out of range 0..%" PRId64, sl->id, h->n - 1);
        else if (seen[sl->id])
            st = tk_error_set(err, TK_EFORMAT, r->name, sl->line,
                              "duplicate 'switch %" PRId64 "' line", sl->id);
        else {
            seen[sl->id] = 1;
            st = apply_switch_line(r, h, sl, b, err);
        }
    }
    free(seen);
    return st;
}

/* Create the builder from the collected header. */
static tk_status_t make_builder(tk_reader_t *r, hdr_t *h, int64_t nlinks, long links_line,
                                tk_builder_t **out, tk_error_t *err)
{
    tk_builder_t *b = NULL;
    tk_status_t st;

    if (!h->n_line)
        return tk_error_set(err, TK_EFORMAT, r->name, links_line,
                            "missing 'switches' header line before 'links'");
    char what[64];
    snprintf(what, sizeof what, "links %" PRId64, nlinks);
    if (nlinks > TK_MAX_ARCS / 2 && !h->directed)
        return tk_io_check_size(r, links_line, what, h->n, TK_MAX_ARCS + 1, err);
    st = tk_io_check_size(r, links_line, what, h->n, h->directed ? nlinks : 2 * nlinks, err);
    if (st != TK_OK)
        return st;

    st = tk_builder_new(&b, h->n, h->directed, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, h->n_line);
    st = tk_builder_reserve(b, nlinks < ((int64_t)1 << 22) ? nlinks : ((int64_t)1 << 22), err);
    if (st != TK_OK) {
        tk_io_locate(err, st, r->name, links_line);
        goto fail;
    }
    if (h->spec && (st = tk_builder_set_spec(b, h->spec, err)) != TK_OK) {
        tk_io_locate(err, st, r->name, h->spec_line);
        goto fail;
    }
    if (h->servers_line && (st = tk_builder_set_servers_uniform(b, h->servers, err)) != TK_OK) {
        tk_io_locate(err, st, r->name, h->servers_line);
        goto fail;
    }
    for (int i = 0; i < h->ncls; i++) {
        int c;
        if ((st = tk_builder_class(b, h->cls[i], &c, err)) != TK_OK) {
            tk_io_locate(err, st, r->name, h->classes_line);
            goto fail;
        }
    }
    if (h->ncoord > 0 && (st = tk_builder_set_ncoord(b, h->ncoord, err)) != TK_OK) {
        tk_io_locate(err, st, r->name, h->coords_line);
        goto fail;
    }
    if ((st = apply_switch_lines(r, h, b, links_line, err)) != TK_OK)
        goto fail;
    *out = b;
    return TK_OK;
fail:
    tk_builder_free(b);
    return st;
}

/* Parse one link line "u v [class [capacity]]" and add it. */
static tk_status_t parse_link(tk_reader_t *r, tk_builder_t *b, int64_t n, char *s, char *last_cls,
                              int *last_idx, tk_error_t *err)
{
    int64_t id[2];
    char *tok;
    for (int k = 0; k < 2; k++) {
        tok = tk_io_token(&s);
        if (!tok)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "link line: expected 'u v [class [capacity]]'");
        if (tk_io_parse_i64(tok, &id[k]) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line, "switch id '%s': not an integer",
                                tok);
        if (id[k] < 0 || id[k] >= n)
            return tk_error_set(err, TK_ERANGE, r->name, r->line,
                                "switch id %" PRId64 " out of range 0..%" PRId64, id[k], n - 1);
    }
    int cls = 0;
    double cap = 1.0;
    tok = tk_io_token(&s);
    if (tok && strcmp(tok, "-") != 0) {
        if (strcmp(tok, last_cls) == 0) {
            cls = *last_idx;
        } else {
            if (!tk_io_class_name_ok(tok))
                return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                    "bad class name '%s' (a letter or '_' then up to %d "
                                    "letters, digits or _.:+-)",
                                    tok, TK_CLASS_NAME_MAX - 2);
            tk_status_t st = tk_builder_class(b, tok, &cls, err);
            if (st != TK_OK)
                return tk_io_locate(err, st, r->name, r->line);
            snprintf(last_cls, TK_CLASS_NAME_MAX, "%s", tok);
            *last_idx = cls;
        }
    }
    if (tok && (tok = tk_io_token(&s)) != NULL) {
        if (tk_io_parse_cap(tok, &cap) != 0)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "bad capacity '%s' (must be a finite number > 0)", tok);
        tk_status_t st = trailing_junk(r, &s, err);
        if (st != TK_OK)
            return st;
    }
    tk_status_t st = tk_builder_add_ex(b, id[0], id[1], cls, cap, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, r->line);
    return TK_OK;
}

/* The nlinks link lines (declared at links_line) into b. */
static tk_status_t read_links(tk_reader_t *r, tk_builder_t *b, int64_t n, int64_t nlinks,
                              long links_line, tk_error_t *err)
{
    char last_cls[TK_CLASS_NAME_MAX] = "";
    int last_idx = 0;
    tk_status_t st;

    for (int64_t i = 0; i < nlinks; i++) {
        char *line;
        st = next_content_line(r, &line, err);
        if (st == TK_EOF)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "wrong link count: 'links %" PRId64
                                "' at line %ld but only %" PRId64 " link lines before end of input",
                                nlinks, links_line, i);
        if (st != TK_OK)
            return st;
        char *s = line;
        while (isspace((unsigned char)*s))
            s++;
        if (strncmp(s, "end", 3) == 0 && (s[3] == '\0' || isspace((unsigned char)s[3])))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "wrong link count: 'links %" PRId64
                                "' at line %ld but only %" PRId64 " link lines before 'end'",
                                nlinks, links_line, i);
        st = parse_link(r, b, n, s, last_cls, &last_idx, err);
        if (st != TK_OK)
            return st;
    }
    return TK_OK;
}

/* The closing "end" (a link line there means more links than declared). */
static tk_status_t read_end(tk_reader_t *r, int64_t nlinks, long links_line, tk_error_t *err)
{
    char *line, *s, *tok;
    tk_status_t st = next_content_line(r, &line, err);

    if (st == TK_EOF)
        return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                            "missing 'end' after the %" PRId64 " links (truncated input?)", nlinks);
    if (st != TK_OK)
        return st;
    s = line;
    tok = tk_io_token(&s);
    if (strcmp(tok, "end") != 0) {
        if (isdigit((unsigned char)tok[0]))
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "wrong link count: more link lines than the %" PRId64
                                " declared by 'links' at line %ld",
                                nlinks, links_line);
        return tk_error_set(err, TK_EFORMAT, r->name, r->line, "expected 'end', found '%.40s'",
                            tok);
    }
    return trailing_junk(r, &s, err);
}

/* Read one native record.  Returns TK_EOF when only blank lines and
 * comments are left.  O(record size). */
tk_status_t tk_io_read_native(tk_reader_t *r, tk_graph_t **g, tk_error_t *err)
{
    hdr_t h;
    tk_builder_t *b = NULL;
    int64_t nlinks = 0;
    long links_line = 0;
    tk_status_t st;

    memset(&h, 0, sizeof h);
    h.servers = 1;
    st = parse_magic(r, err);
    if (st != TK_OK)
        goto fail;
    st = parse_header(r, &h, &nlinks, &links_line, err);
    if (st != TK_OK)
        goto fail;
    st = make_builder(r, &h, nlinks, links_line, &b, err);
    if (st != TK_OK)
        goto fail;

    if ((st = read_links(r, b, h.n, nlinks, links_line, err)) != TK_OK ||
        (st = read_end(r, nlinks, links_line, err)) != TK_OK)
        goto fail;
    long end_line = r->line;
    st = tk_builder_finish(b, g, err);
    b = NULL;
    if (st != TK_OK) {
        tk_io_locate(err, st, r->name, end_line);
        goto fail;
    }
    hdr_free(&h);
    return TK_OK;
fail:
    tk_builder_free(b);
    hdr_free(&h);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Writer.                                                                  */

tk_status_t tk_io_write_native(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    const char *spec = g->spec ? g->spec : "";
    if (strchr(spec, '#'))
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "spec '%s' contains '#', which the native format reads as a "
                            "comment",
                            spec);
    fputs("topokit-graph 1\n", fp);
    if (spec[0]) {
        fputs("spec ", fp);
        for (const char *p = spec; *p; p++)
            fputc((*p == '\n' || *p == '\r' || *p == '\t') ? ' ' : *p, fp);
        fputc('\n', fp);
    }
    fprintf(fp, "switches %" PRId32 "\n", g->n);
    fprintf(fp, "directed %d\n", g->directed ? 1 : 0);
    if (!g->servers)
        fprintf(fp, "servers %" PRId32 "\n", g->servers_uniform);
    if (g->nclasses > 1) {
        fputs("classes", fp);
        for (int c = 1; c < g->nclasses; c++)
            fprintf(fp, " %s", g->class_name[c]);
        fputc('\n', fp);
    }
    int ncoord = g->coord ? g->ncoord : 0;
    if (ncoord > 0)
        fprintf(fp, "coords %d\n", ncoord);
    if (g->servers || g->group || ncoord > 0) {
        for (tk_id_t u = 0; u < g->n; u++) {
            fprintf(fp, "switch %" PRId32, u);
            if (g->servers)
                fprintf(fp, " servers=%" PRId32, g->servers[u]);
            if (g->group)
                fprintf(fp, " group=%" PRId32, g->group[u]);
            if (ncoord > 0) {
                fputs(" coord=", fp);
                for (int k = 0; k < ncoord; k++)
                    fprintf(fp, "%s%" PRId32, k ? "," : "", g->coord[(size_t)u * ncoord + k]);
            }
            fputc('\n', fp);
        }
    }
    fprintf(fp, "links %" PRId64 "\n", tk_graph_links(g));
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            if (tk_io_link_rep(g, u, a))
                tk_io_print_link(fp, g, u, a);
    fputs("end\n", fp);
    return TK_OK;
}
