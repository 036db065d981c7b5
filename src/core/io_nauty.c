/*
 * io_nauty.c - nauty's graph6, sparse6 and digraph6 formats, written from
 * B. D. McKay's format description (formats.txt), one graph per line.
 *
 * Common pieces: bytes 63..126 carry 6 bits each (value - 63), most
 * significant bit first; N(n) is one byte for n <= 62, '~' and 3 bytes for
 * n <= 258047, '~~' and 6 bytes above.
 *
 *  graph6   N(n) then the upper triangle column by column:
 *           (0,1) (0,2) (1,2) (0,3) (1,3) (2,3) ..., zero-padded.
 *  digraph6 '&' N(n) then the whole adjacency matrix row by row.
 *  sparse6  ':' N(n) then pairs (b, x): b one bit, x k bits with k the bit
 *           length of n-1.  Decoding keeps a current vertex v (initially 0):
 *           b = 1 increments v; then x > v sets v = x, otherwise the edge
 *           {x, v} is added; stop when v >= n or the bits run out.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

/* ------------------------------------------------------------------------ */
/* Reading.                                                                 */

/* Bit cursor over 6-bit data bytes. */
typedef struct bits {
    const unsigned char *p;
    size_t nbytes;
    uint64_t pos; /* bit position */
} bits_t;

static uint64_t bits_left(const bits_t *b)
{
    return (uint64_t)b->nbytes * 6 - b->pos;
}

static unsigned get_bit(bits_t *b)
{
    unsigned byte = (unsigned)(b->p[b->pos / 6] - 63);
    unsigned bit = (byte >> (5 - b->pos % 6)) & 1u;
    b->pos++;
    return bit;
}

static uint64_t get_bits(bits_t *b, int k)
{
    uint64_t x = 0;
    for (int i = 0; i < k; i++)
        x = (x << 1) | get_bit(b);
    return x;
}

/* Decode N(n) at *p; advances *p.  0 on success. */
static int decode_n(const unsigned char **p, size_t len, int64_t *n)
{
    const unsigned char *s = *p;
    int nb;
    if (len >= 1 && s[0] != 126) {
        *n = s[0] - 63;
        *p = s + 1;
        return 0;
    }
    if (len >= 2 && s[1] != 126) {
        s += 1;
        nb = 3;
    } else {
        s += 2;
        nb = 6;
    }
    if (len < (size_t)(s - *p) + (size_t)nb)
        return -1;
    int64_t v = 0;
    for (int i = 0; i < nb; i++)
        v = (v << 6) | (s[i] - 63);
    *n = v;
    *p = s + nb;
    return 0;
}

/* Number of bits needed for n-1 (0 for n <= 1). */
static int sparse6_k(int64_t n)
{
    int k = 0;
    for (int64_t x = n - 1; x > 0; x >>= 1)
        k++;
    return k;
}

/* Every byte of the data (len of them from s) printable 63..126. */
static tk_status_t check_bytes(const tk_reader_t *r, const char *fname, const unsigned char *s,
                               size_t len, tk_error_t *err)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < 63 || s[i] > 126)
            return tk_error_set(err, TK_EFORMAT, r->name, r->line,
                                "%s: bad byte '%c' (0x%02x) at column %zu (expected 63..126)",
                                fname, s[i] >= 32 && s[i] < 127 ? s[i] : '?', s[i],
                                (size_t)(s - (const unsigned char *)r->buf) + i + 1);
    return TK_OK;
}

/* The edges (arcs for digraph6) of the n vertices encoded in bb into b:
 * graph6's upper triangle column by column, digraph6's matrix row by row,
 * sparse6's (b, x) pairs of k-bit numbers. */
static tk_status_t add_adjacency(tk_builder_t *b, tk_format_t fmt, bits_t *bb, int64_t n, int k,
                                 tk_error_t *err)
{
    tk_status_t st;

    if (fmt == TK_FMT_GRAPH6) {
        for (int64_t j = 1; j < n; j++)
            for (int64_t i = 0; i < j; i++)
                if (get_bit(bb) && (st = tk_builder_add(b, i, j, err)) != TK_OK)
                    return st;
    } else if (fmt == TK_FMT_DIGRAPH6) {
        for (int64_t i = 0; i < n; i++)
            for (int64_t j = 0; j < n; j++)
                if (get_bit(bb) && (st = tk_builder_add(b, i, j, err)) != TK_OK)
                    return st;
    } else {
        int64_t v = 0;
        while (bits_left(bb) >= (uint64_t)k + 1) {
            if (get_bit(bb))
                v++;
            int64_t x = (int64_t)get_bits(bb, k);
            if (v >= n)
                break;
            if (x > v)
                v = x;
            else if ((st = tk_builder_add(b, x, v, err)) != TK_OK)
                return st;
        }
    }
    return TK_OK;
}

tk_status_t tk_io_read_nauty(tk_reader_t *r, tk_format_t fmt, const char *data, tk_graph_t **g,
                             tk_error_t *err)
{
    const char *fname = tk_format_name(fmt);
    const unsigned char *s = (const unsigned char *)data;
    tk_builder_t *b = NULL;
    tk_status_t st;
    long line = r->line;

    if (fmt != TK_FMT_GRAPH6)
        s++; /* ':' or '&' */
    size_t len = strlen((const char *)s);
    if ((st = check_bytes(r, fname, s, len, err)) != TK_OK)
        return st;
    if (len == 0)
        return tk_error_set(err, TK_EFORMAT, r->name, line, "%s: empty graph string", fname);
    int64_t n;
    const unsigned char *q = s;
    if (decode_n(&q, len, &n) != 0)
        return tk_error_set(err, TK_EFORMAT, r->name, line,
                            "%s: truncated vertex count at the start of the line", fname);
    len -= (size_t)(q - s);
    bits_t bb = {q, len, 0};

    char what[64];
    snprintf(what, sizeof what, "%s header n=%" PRId64, fname, n);
    int64_t arcs = 0;
    int k = sparse6_k(n);
    if (fmt == TK_FMT_SPARSE6)
        arcs = 2 * (int64_t)(bits_left(&bb) / (uint64_t)(k + 1));
    st = tk_io_check_size(r, line, what, n, arcs, err);
    if (st != TK_OK)
        return st;

    if (fmt != TK_FMT_SPARSE6) {
        /* Exact data length. */
        uint64_t nbits = fmt == TK_FMT_GRAPH6 ? (uint64_t)n * (uint64_t)(n > 0 ? n - 1 : 0) / 2
                                              : (uint64_t)n * (uint64_t)n;
        uint64_t need = (nbits + 5) / 6;
        if ((uint64_t)len != need)
            return tk_error_set(err, TK_EFORMAT, r->name, line,
                                "%s: n=%" PRId64 " needs %" PRIu64
                                " bytes of adjacency data, found %zu",
                                fname, n, need, len);
    }

    st = tk_builder_new(&b, n, fmt == TK_FMT_DIGRAPH6, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, line);
    if ((st = add_adjacency(b, fmt, &bb, n, k, err)) != TK_OK) {
        tk_builder_free(b);
        return tk_io_locate(err, st, r->name, line);
    }
    st = tk_builder_finish(b, g, err);
    if (st != TK_OK)
        return tk_io_locate(err, st, r->name, line);
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Writing.                                                                 */

/* 6-bit output accumulator. */
typedef struct bitout {
    FILE *fp;
    unsigned acc;
    int nacc;
} bitout_t;

static void put_bit(bitout_t *o, unsigned bit)
{
    o->acc = (o->acc << 1) | (bit & 1u);
    if (++o->nacc == 6) {
        fputc((int)(o->acc + 63), o->fp);
        o->acc = 0;
        o->nacc = 0;
    }
}

static void put_bits(bitout_t *o, uint64_t x, int k)
{
    for (int i = k - 1; i >= 0; i--)
        put_bit(o, (unsigned)(x >> i) & 1u);
}

static void put_n(FILE *fp, int64_t n)
{
    int nb;
    if (n <= 62) {
        fputc((int)(n + 63), fp);
        return;
    }
    if (n <= 258047) {
        fputc(126, fp);
        nb = 3;
    } else {
        fputs("~~", fp);
        nb = 6;
    }
    for (int i = nb - 1; i >= 0; i--)
        fputc((int)(((n >> (6 * i)) & 63) + 63), fp);
}

static tk_status_t write_graph6(FILE *fp, const tk_graph_t *g)
{
    bitout_t o = {fp, 0, 0};
    put_n(fp, g->n);
    /* Column j: bits for rows 0..j-1; the arcs of j are sorted by head. */
    for (tk_id_t j = 1; j < g->n; j++) {
        int64_t a = g->off[j], end = g->off[j + 1];
        for (tk_id_t i = 0; i < j; i++) {
            unsigned bit = 0;
            if (a < end && g->head[a] == i) {
                bit = 1;
                a++;
            }
            put_bit(&o, bit);
        }
    }
    if (o.nacc > 0)
        put_bits(&o, 0, 6 - o.nacc);
    fputc('\n', fp);
    return TK_OK;
}

static tk_status_t write_digraph6(FILE *fp, const tk_graph_t *g)
{
    bitout_t o = {fp, 0, 0};
    fputc('&', fp);
    put_n(fp, g->n);
    for (tk_id_t i = 0; i < g->n; i++) {
        int64_t a = g->off[i], end = g->off[i + 1];
        for (tk_id_t j = 0; j < g->n; j++) {
            unsigned bit = 0;
            if (a < end && g->head[a] == j) {
                bit = 1;
                a++;
            }
            put_bit(&o, bit);
        }
    }
    if (o.nacc > 0)
        put_bits(&o, 0, 6 - o.nacc);
    fputc('\n', fp);
    return TK_OK;
}

static tk_status_t write_sparse6(FILE *fp, const tk_graph_t *g)
{
    bitout_t o = {fp, 0, 0};
    int64_t n = g->n;
    int k = sparse6_k(n);
    int64_t v = 0; /* the decoder's current vertex */

    fputc(':', fp);
    put_n(fp, n);
    /* Edges {i, j}, i <= j, by j then i: the arcs of j with head <= j. */
    for (tk_id_t j = 0; j < g->n; j++) {
        for (int64_t a = g->off[j]; a < g->off[j + 1]; a++) {
            tk_id_t i = g->head[a];
            if (i > j)
                break;
            if (i == j && g->rev[a] < a)
                continue; /* the second arc of a self-loop */
            if (j == v) {
                put_bit(&o, 0);
            } else if (j == v + 1) {
                put_bit(&o, 1);
            } else {
                put_bit(&o, 1);
                put_bits(&o, (uint64_t)j, k);
                put_bit(&o, 0);
            }
            put_bits(&o, (uint64_t)i, k);
            v = j;
        }
    }
    if (o.nacc > 0) {
        int pad = 6 - o.nacc;
        /* Padding with 1s would read as a loop at n-1 when n = 2^k and the
         * decoder stands at n-2: start the padding with a 0 then. */
        if (k < 6 && n == ((int64_t)1 << k) && v == n - 2 && pad >= k + 1) {
            put_bit(&o, 0);
            pad--;
        }
        put_bits(&o, ((uint64_t)1 << pad) - 1, pad);
    }
    fputc('\n', fp);
    return TK_OK;
}

tk_status_t tk_io_write_nauty(FILE *fp, const tk_graph_t *g, tk_format_t fmt, tk_error_t *err)
{
    if (fmt == TK_FMT_GRAPH6) {
        if (g->directed)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "graph6 cannot hold a directed graph: use digraph6 or native");
        int64_t loops = tk_graph_loops(g), par = tk_graph_parallel(g);
        if (loops || par)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "graph6 needs a simple graph, this one has %" PRId64
                                " self-loops and %" PRId64 " parallel links: use sparse6 or native",
                                loops, par);
        return write_graph6(fp, g);
    }
    if (fmt == TK_FMT_DIGRAPH6) {
        if (!g->directed)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "digraph6 holds directed graphs, this one is undirected: use "
                                "graph6, sparse6 or native");
        int64_t par = tk_graph_parallel(g);
        if (par)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "digraph6 cannot hold parallel arcs, this graph has %" PRId64
                                ": use native or edges",
                                par);
        return write_digraph6(fp, g);
    }
    if (g->directed)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "sparse6 cannot hold a directed graph: use digraph6 or native");
    return write_sparse6(fp, g);
}
