/*
 * shard-file.h - what the two halves of the --shard / topo-merge module
 * share: shard.c (the writer, the runners, the merge's replay) and
 * shard-file.c (the shard file reader and checker).  The format itself is
 * described at the top of shard.c.  Not for the tools: they use cli.h.
 */
#ifndef TK_TOOLS_SHARD_FILE_H
#define TK_TOOLS_SHARD_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"

#define SHARD_MAGIC "topokit-shard"
#define SHARD_FORMAT 1

/* A unit's bytes per line of hexadecimal. */
#define UNIT_LINE 64

/* A graph or job record of a shard file. */
typedef struct rec {
    int kind;  /* 'g' graph, 'j' job, 'u' unit job, 'd' dealt  */
    long line; /* its line in the file                       */
    char *input;
    long index;
    uint64_t hash;                       /* graph: its fingerprint; job: of the job     */
    int64_t units, chunk, width, lo, hi; /* 'u', 'd': units = the count */
    int64_t step;                        /* 'u', 'd': this shard's units lo, lo+step.. < hi */
    int64_t first;                       /* 'd': the run's dealt units before the job's */
    int scale;
    int status;
    tk_error_t *err; /* job with a non-zero status: its error      */
    uint64_t sum;    /* checksum of the entries                    */
    off_t off;       /* job: offset of the first entry line         */
    long eline;      /* job: the line before its first entry        */
} rec_t;

typedef struct sfile {
    const char *path;
    FILE *fp;
    char *tool, *version, *order;
    int nargs;
    char **args;
    int64_t i, parts;
    rec_t *recs;
    size_t nrecs, arecs;
    /* reading state */
    long line;
    uint64_t hash;
    char *buf;
    size_t cap;
} sfile_t;

/* ------------------------------------------------------------------------
 * Hashing: 64-bit, over bytes (8 at a time), for fingerprints and
 * checksums (accidental damage, not adversaries). */
static inline uint64_t h_mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static inline uint64_t h_bytes(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t w;
    if (n == 0)
        return h_mix(h, 0);
    for (; n >= 8; n -= 8, b += 8) {
        memcpy(&w, b, 8);
        h = h_mix(h, w);
    }
    w = 0;
    memcpy(&w, b, n);
    return h_mix(h, w ^ ((uint64_t)n << 56));
}

static inline uint64_t h_final(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

#define H_SEED 0x736861726431ULL

/* "little" or "big": the byte order the entries were computed in. */
static inline const char *byte_order(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b ? "little" : "big";
}

/* The checksums of a job's entries and of a unit job's units. */
static inline uint64_t entry_sum(uint64_t h, __int128 v)
{
    unsigned char b[16];
    unsigned __int128 u = (unsigned __int128)v;
    for (int k = 0; k < 16; k++, u >>= 8)
        b[k] = (unsigned char)(u & 0xff);
    return h_bytes(h, b, 16);
}

static inline uint64_t unit_sum(uint64_t h, int64_t u, const unsigned char *b, size_t len)
{
    int64_t hd[2] = {u, (int64_t)len};
    h = h_bytes(h, hd, sizeof hd);
    return h_bytes(h, b, len);
}

/* This shard's units of a dealt job of `units` units after `first`
 * dealt ones: lo, lo+step, ... < hi. */
static inline void dealt_slice(int64_t units, int64_t first, int64_t i, int64_t parts, int64_t *lo,
                               int64_t *hi, int64_t *step)
{
    int64_t at = first % parts;
    *lo = i >= at ? i - at : i - at + parts;
    *hi = units;
    *step = parts;
    if (*lo > units)
        *lo = units;
}

/* ------------------------------------------------------------------------
 * The reader (shard-file.c), for the merge's replay in shard.c. */

/* Quiet mode (the replay): a failure is not printed but described in
 * sf_why, for the tool to report. */
extern int sf_quiet;
extern char sf_why[1200];

/* The next line of f without its newline; 1, 0 at the end of the file,
 * -1 on a read error or a truncated line.  hash: add it to f->hash. */
int sf_line(sfile_t *f, int hash);
/* Split a line at single blanks: the number of words (at most max), -1
 * when there are more. */
int sf_words(char *s, char **w, int max);
/* A checksum of 16 lowercase hexadecimal digits. */
int sf_hex64(const char *s, uint64_t *v);
/* Read a job's entries: their checksum into *sum; added into words
 * (2 * width 64-bit words) when not NULL.  0, or -1 (printed). */
int sf_entries(sfile_t *f, const rec_t *r, int hash, uint64_t *words, uint64_t *sum);
/* Read unit u's bytes into *b (grown as needed).  0; 1 when the job failed
 * at unit u; -1 (printed). */
int sf_unit(sfile_t *f, rec_t *r, int64_t u, int hash, unsigned char **b, size_t *cap, size_t *len);
/* Read a unit job's units and its sum line, passing every unit to job->take
 * when job is not NULL.  0, or -1 (printed). */
int sf_units(sfile_t *f, rec_t *r, int hash, const cli_units_t *job, tk_status_t *st,
             tk_error_t *err, uint64_t *sum);
/* Load and check the shard files: the P shards of one run of `tool`, into
 * *files by shard index (set at once, so they stay reachable whatever
 * happens), closed.  0, or -1 (printed). */
int sf_load(const char *tool, int nfiles, char **paths, sfile_t **files);

#endif
