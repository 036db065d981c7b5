/*
 * io_internal.h - shared pieces of the file-format readers and writers
 * (not installed).  The stream reader owns one growing line buffer; each
 * format reader pulls lines from it and reports errors as FILE:LINE.
 */
#ifndef TK_IO_INTERNAL_H
#define TK_IO_INTERNAL_H

#include <stdio.h>
#include <sys/types.h>
#include "tk_core.h"
#include "tk_io.h"

struct tk_reader {
    FILE *fp;           /* not owned                                     */
    char *name;         /* input name for messages                       */
    tk_format_t fmt;    /* requested format (TK_FMT_AUTO: per record)    */
    tk_format_t last;   /* format of the last graph read                 */
    uint64_t mem_limit; /* bytes, 0 = none                               */
    char *buf;          /* current line, NUL-terminated, no newline      */
    size_t cap;         /* allocated size of buf                         */
    size_t len;         /* length of the current line                    */
    long line;          /* 1-based number of the current line            */
    int pushed;         /* 1: the current line is delivered again        */
    int done;           /* 1: the stream is exhausted (edge list read)   */
    long count;         /* graphs read so far                            */
};

/* Next line of the stream: TK_OK with *line pointing into r->buf (newline and
 * trailing '\r' removed), TK_EOF at end of input, TK_EIO / TK_EFORMAT (NUL
 * byte) with an error message otherwise.  r->line is its number. */
tk_status_t tk_io_getline(tk_reader_t *r, char **line, tk_error_t *err);
/* Deliver the current line again on the next tk_io_getline. */
void tk_io_ungetline(tk_reader_t *r);

/* Refuse, before allocating, a graph of n switches and `arcs` arcs when it
 * exceeds TK_MAX_SWITCHES / TK_MAX_ARCS or the reader's memory limit.
 * `what` names the offending declaration ("switches 4000000000").  Returns
 * TK_OK or TK_ELIMIT with the message at r->name:line. */
tk_status_t tk_io_check_size(const tk_reader_t *r, long line, const char *what, int64_t n,
                             int64_t arcs, tk_error_t *err);

/* Re-anchor an error produced by the builder at FILE:LINE, keeping its code
 * and message.  Returns the code. */
tk_status_t tk_io_locate(tk_error_t *err, tk_status_t code, const char *where, long line);

/* Whitespace tokenizer: the next token of *s (NUL-terminating it in place) or
 * NULL when none is left. */
char *tk_io_token(char **s);
/* Strict integer: the whole token, decimal, optional sign.  0 on success. */
int tk_io_parse_i64(const char *tok, int64_t *v);
/* Capacity: finite number > 0.  0 on success. */
int tk_io_parse_cap(const char *tok, double *v);
/* Class name rules: 1..TK_CLASS_NAME_MAX-1 bytes, first a letter or '_',
 * then letters, digits or "_.:+-".  1 when valid. */
int tk_io_class_name_ok(const char *s);
/* Shortest "%.Ng" (N = 1..17) that reads back as v, into buf (>= 32). */
const char *tk_io_fmt_double(double v, char *buf, size_t len);
/* Print "u v [class [cap]]" for arc a of g (shared by native and edges). */
void tk_io_print_link(FILE *fp, const tk_graph_t *g, tk_id_t u, int64_t a);
/* Is arc a (out of u) the representative of its link when listing links?
 * Undirected: head >= u, and for self-loops only the lower arc of the pair.
 * Directed: always. */
int tk_io_link_rep(const tk_graph_t *g, tk_id_t u, int64_t a);

/* Format readers.  The first line of the record has been read and pushed
 * back (tk_io_ungetline) before each is called. */
tk_status_t tk_io_read_native(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);
/* fmt is TK_FMT_GRAPH6, _SPARSE6 or _DIGRAPH6; `data` points into the
 * current line after any >>header<< (including the ':' / '&' prefix). */
tk_status_t tk_io_read_nauty(tk_reader_t *r, tk_format_t fmt, const char *data, tk_graph_t **g,
                             tk_error_t *err);
/* Does the comment p (after its '#') look like a mistyped edge-list header
 * "topokit-edges switches N": a word other than topokit-edges, then the key
 * "switches"?  Such a header would be ignored, silently losing the count. */
int tk_io_edges_lookalike(const char *p);
/* Reads the whole rest of the stream.  `spec` (may be NULL) is a "# spec"
 * comment met before the record was recognised. */
tk_status_t tk_io_read_edges(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);

/* Format writers (the graph is validated by the caller's contract). */
tk_status_t tk_io_write_native(FILE *fp, const tk_graph_t *g, tk_error_t *err);
tk_status_t tk_io_write_nauty(FILE *fp, const tk_graph_t *g, tk_format_t fmt, tk_error_t *err);
tk_status_t tk_io_write_edges(FILE *fp, const tk_graph_t *g, tk_error_t *err);
tk_status_t tk_io_write_dot(FILE *fp, const tk_graph_t *g, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Exchange formats (GraphML, GML, BookSim anynet, CAMINOS): io_pending.c.  */

#define TK_IO_PG_COORDS 64 /* coordinates per switch: coord0 .. coord63 */

/* A graph under construction: switches numbered in file order, links with
 * class indices into names[] (names[0] = "-") and capacities. */
typedef struct tk_io_pg {
    int directed;
    int64_t n, capn;
    int32_t *servers, *group; /* n each; used when has_servers / has_group */
    int has_servers, has_group;
    int32_t *coord;     /* n * TK_IO_PG_COORDS */
    uint64_t *coordset; /* n bit masks: which coordinates were given */
    int64_t m, capm;
    int64_t *u, *v;
    uint8_t *cls;
    double *cap;
    char names[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    int nnames;
    char *spec; /* malloc'd or NULL */
} tk_io_pg_t;

void tk_io_pg_init(tk_io_pg_t *pg);
void tk_io_pg_free(tk_io_pg_t *pg);
/* Append a switch (servers 0, group 0, no coordinates); its index in *id. */
tk_status_t tk_io_pg_node(const tk_reader_t *r, tk_io_pg_t *pg, int64_t *id, tk_error_t *err);
/* Class index of `name` ("", "-" or NULL: 0), adding it if new. */
tk_status_t tk_io_pg_class(const tk_reader_t *r, tk_io_pg_t *pg, const char *name, int *cls,
                           tk_error_t *err);
tk_status_t tk_io_pg_link(const tk_reader_t *r, tk_io_pg_t *pg, int64_t u, int64_t v, int cls,
                          double cap, tk_error_t *err);
/* Build the graph (size limits, builder checks; errors at the current line).
 * Servers become uniform when every switch has the same count; without
 * has_servers the builder's default stays (as for an edge list). */
tk_status_t tk_io_pg_finish(tk_reader_t *r, tk_io_pg_t *pg, tk_graph_t **g, tk_error_t *err);

/* Characters of the reader's lines, '\n' between lines.  get/peek return the
 * character, -1 at the end of the input, -2 on a read error (cs->st, err). */
typedef struct tk_io_cs {
    tk_reader_t *r;
    char *p;      /* next character of the current line */
    int nl_given; /* the current line's '\n' was delivered */
    int eof;
    tk_status_t st;
} tk_io_cs_t;
void tk_io_cs_init(tk_io_cs_t *cs, tk_reader_t *r);
int tk_io_cs_get(tk_io_cs_t *cs, tk_error_t *err);
int tk_io_cs_peek(tk_io_cs_t *cs, tk_error_t *err);
/* Skip blanks and newlines; returns the next character as peek does. */
int tk_io_cs_skip_space(tk_io_cs_t *cs, tk_error_t *err);
/* A whole number written as an integer or an integral real ("9", "9.0"),
 * in lo..hi.  0 on success. */
int tk_io_parse_count(const char *s, double lo, double hi, int32_t *v);

/* Whole-stream readers of the exchange formats (first line pushed back). */
tk_status_t tk_io_read_graphml(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);
tk_status_t tk_io_read_gml(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);
tk_status_t tk_io_read_anynet(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);
tk_status_t tk_io_read_caminos(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);
/* Does any link carry a class other than "-" / a capacity other than 1? */
void tk_io_link_attrs(const tk_graph_t *g, int *any_cls, int *any_cap);
tk_status_t tk_io_write_graphml(FILE *fp, const tk_graph_t *g, tk_error_t *err);
tk_status_t tk_io_write_gml(FILE *fp, const tk_graph_t *g, tk_error_t *err);
/* TK_EUNSUPPORTED unless g is undirected without loops or parallel links. */
tk_status_t tk_io_need_simple(const tk_graph_t *g, const char *fmt, tk_error_t *err);
tk_status_t tk_io_write_anynet(FILE *fp, const tk_graph_t *g, tk_error_t *err);
tk_status_t tk_io_write_caminos(FILE *fp, const tk_graph_t *g, tk_error_t *err);

#endif /* TK_IO_INTERNAL_H */
