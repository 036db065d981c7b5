/*
 * tk_io.h - topology file formats: native text, graph6, sparse6, digraph6,
 * plain edge lists (read and write), DOT (write).  See topokit-formats(5).
 */
#ifndef TK_IO_H
#define TK_IO_H

#include <stdio.h>
#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_format {
    TK_FMT_AUTO = 0, /* reading: detect from the first bytes of each record */
    TK_FMT_NATIVE,   /* "topokit-graph 1" text format                       */
    TK_FMT_GRAPH6,
    TK_FMT_SPARSE6,
    TK_FMT_DIGRAPH6,
    TK_FMT_EDGES,   /* plain edge list "u v [class [capacity]]"            */
    TK_FMT_DOT,     /* write only                                          */
    TK_FMT_GRAPHML, /* GraphML (networkx, igraph)                        */
    TK_FMT_GML,     /* GML (networkx, igraph)                            */
    TK_FMT_ANYNET,  /* BookSim's anynet network file                     */
    TK_FMT_CAMINOS  /* CAMINOS's File topology (neighbour lists)         */
} tk_format_t;

/* Parse a format name ("native", "graph6", "g6", "sparse6", "s6",
 * "digraph6", "d6", "edges", "edgelist", "dot", "graphml", "gml", "anynet",
 * "booksim", "caminos", "auto").  Returns TK_EINVAL
 * for unknown names. */
TK_API tk_status_t tk_format_parse(const char *name, tk_format_t *fmt, tk_error_t *err);
TK_API const char *tk_format_name(tk_format_t fmt);

/* Stream reader: several graphs may follow one another in one stream
 * (native records, or one graph6/sparse6/digraph6 line each; an edge list is
 * the whole rest of the stream).  With TK_FMT_AUTO the format of each record
 * is detected from its first non-comment bytes: "topokit-graph" native,
 * ">>graph6<<" / ">>sparse6<<" / ">>digraph6<<" optional headers, ':'
 * sparse6, '&' digraph6, a digit edge list, other printable bytes in 63..126
 * graph6.
 *
 * `name` is used in error messages ("FILE:LINE: ...").  The reader does not
 * own `fp`.  `mem_limit` (bytes, 0 = none) refuses declared sizes whose graph
 * would not fit before anything is allocated (TK_ELIMIT). */
typedef struct tk_reader tk_reader_t;

TK_API tk_status_t tk_reader_new(tk_reader_t **out, FILE *fp, const char *name, tk_format_t fmt,
                                 uint64_t mem_limit, tk_error_t *err);
/* Read the next graph.  Returns TK_OK and a new graph in *g, TK_EOF at the
 * end of the stream (no error), or an error (message with file and line). */
TK_API tk_status_t tk_reader_next(tk_reader_t *r, tk_graph_t **g, tk_error_t *err);
/* Format of the last graph read. */
TK_API tk_format_t tk_reader_format(const tk_reader_t *r);
/* 1-based index of the last graph read. */
TK_API long tk_reader_count(const tk_reader_t *r);
TK_API void tk_reader_free(tk_reader_t *r);

/* Write one graph in the given format.  Errors: TK_EUNSUPPORTED when the
 * format cannot represent the graph (graph6 needs a simple undirected graph;
 * digraph6 needs a directed graph without parallel arcs; sparse6 an
 * undirected graph), TK_EIO on write failure (checked with ferror).
 * Attributes a format cannot carry (servers, classes, capacities, groups,
 * coordinates) are dropped silently by graph6/sparse6/digraph6; the edge-list
 * writer keeps classes and capacities and states n and directedness in its
 * comment header. */
TK_API tk_status_t tk_write_graph(FILE *fp, const tk_graph_t *g, tk_format_t fmt, tk_error_t *err);

/* DOT (as tk_write_graph with TK_FMT_DOT) with the links of the closed walk
 * cycle[0], ..., cycle[len-1], cycle[0] highlighted (an Ant Mill cycle;
 * cycle NULL or len 0: none).  Groups are clusters; HyperX rows (switches
 * equal in every coordinate but the first) are clusters and fat-tree
 * levels ranks.  Errors: TK_ERANGE (an id outside the graph), TK_EINVAL
 * (consecutive entries not linked, naming them), TK_ENOMEM, TK_EIO.  Time
 * O(n + m + len * degree). */
TK_API tk_status_t tk_write_dot(FILE *fp, const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                                tk_error_t *err);

/* Convenience: read exactly one graph from a file path ("-" = stdin). */
TK_API tk_status_t tk_read_file(const char *path, tk_format_t fmt, uint64_t mem_limit,
                                tk_graph_t **g, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_IO_H */
