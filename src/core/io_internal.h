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
/* Reads the whole rest of the stream.  `spec` (may be NULL) is a "# spec"
 * comment met before the record was recognised. */
tk_status_t tk_io_read_edges(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);

/* Format writers (the graph is validated by the caller's contract). */
tk_status_t tk_io_write_native(FILE *fp, const tk_graph_t *g, tk_error_t *err);
tk_status_t tk_io_write_nauty(FILE *fp, const tk_graph_t *g, tk_format_t fmt, tk_error_t *err);
tk_status_t tk_io_write_edges(FILE *fp, const tk_graph_t *g, tk_error_t *err);
tk_status_t tk_io_write_dot(FILE *fp, const tk_graph_t *g, tk_error_t *err);

#endif /* TK_IO_INTERNAL_H */
