/*
 * shard.c - batch-scheduler scale-out without MPI (issue 24): a tool run
 * with --shard I/P computes only shard I of every parallel-driver job
 * (tk_par_slice of the job's fixed units, the split MPI ranks use) and
 * writes the integer accumulators to a shard file; `TOOL --from-shards
 * SHARD...` (what topo-merge(1) runs) replays the same run with a runner
 * that, instead of computing a job, adds up the shards' accumulators of
 * it, so the tool's own post-processing prints the bytes of the single
 * run.
 *
 * The shard file (topokit-formats(5)) is text: a header (format, tool,
 * version, byte order, the arguments that shape the result, I and P), then
 * one `graph` line per input graph with a fingerprint of it, one `job`
 * line per job (its units, chunk, width, scale, the fingerprint of what
 * the job computes, the slice, the status of its smallest failing unit
 * and a checksum of its entries) followed by the job's entries, one per
 * line in signed hexadecimal (`zK` for K zero entries), and an `end` line
 * with a checksum of every byte before it.  A file without its end line
 * is truncated; a changed byte breaks a checksum.
 *
 * The arguments kept are the tool's command line without --shard, -o,
 * --threads and --progress (they do not change the output), so shards
 * run with other thread counts merge.  The merge checks, before any
 * output, that the shards are P distinct shards of one run (tool,
 * version, byte order, arguments, P, graph and job records), then, while
 * replaying, that every input graph and job is the one the shards
 * recorded; its output is held until the end, so a refusal prints one
 * error line and nothing else.
 *
 * A job's sequence must not depend on the results of earlier jobs (true
 * of topo-dist and topo-load: one job per graph); the merge would refuse
 * a run where it did (a job record that does not match).
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"

#define SHARD_MAGIC "topokit-shard"
#define SHARD_FORMAT 1

/* The tools that take --shard: topo-merge runs only these. */
const char *const cli_shard_tools[] = {"topo-antmill", "topo-dist",   "topo-ksp",   "topo-load",
                                       "topo-mcf",     "topo-medoid", "topo-paths", "topo-sim",
                                       "topo-vc",      NULL};

enum { MODE_OFF, MODE_SHARD, MODE_MERGE };

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

static struct {
    int mode;
    const char *tool; /* the tool's name                            */
    int64_t i, parts; /* --shard I/P                                */
    int nargs;        /* the arguments that shape the result        */
    char **args;
    /* shard mode: the output */
    cli_out_t out;
    FILE *fp;
    int to_stdout;
    uint64_t hash;
    int64_t ngraphs, njobs;
    int64_t dealt; /* dealt units of the run so far (cli_units_t.dealt) */
    uint64_t gfp;  /* fingerprint of the current graph and notes  */
    /* merge mode */
    sfile_t *files; /* by shard index                            */
    size_t rec;     /* next record                               */
    int failed;     /* a mismatch was reported                   */
    int skip_units; /* a unit job failed: skip the graph's others */
    char **argv;    /* the rebuilt command line                  */
} S;

/* ------------------------------------------------------------------------
 * Hashing: 64-bit, over bytes (8 at a time), for fingerprints and
 * checksums (accidental damage, not adversaries). */
static uint64_t h_mix(uint64_t h, uint64_t w)
{
    h ^= w;
    h *= 0x9e3779b97f4a7c15ULL;
    return h ^ (h >> 29);
}

static uint64_t h_bytes(uint64_t h, const void *p, size_t n)
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

static uint64_t h_final(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    return h;
}

#define H_SEED 0x736861726431ULL

/* The fingerprint of a graph: everything a tool's output can depend on. */
static uint64_t graph_hash(const tk_graph_t *g)
{
    uint64_t h = H_SEED;
    int64_t hdr[6] = {g->n, g->m, g->directed, g->nclasses, g->servers_uniform, g->ncoord};
    h = h_bytes(h, hdr, sizeof hdr);
    h = h_bytes(h, g->off, ((size_t)g->n + 1) * sizeof *g->off);
    h = h_bytes(h, g->head, (size_t)g->m * sizeof *g->head);
    if (g->cls)
        h = h_bytes(h, g->cls, (size_t)g->m);
    h = h_mix(h, g->cls != NULL);
    if (g->cap)
        h = h_bytes(h, g->cap, (size_t)g->m * sizeof *g->cap);
    h = h_mix(h, g->cap != NULL);
    for (int c = 0; c < g->nclasses; c++)
        h = h_bytes(h, g->class_name[c], strlen(g->class_name[c]) + 1);
    if (g->servers)
        h = h_bytes(h, g->servers, (size_t)g->n * sizeof *g->servers);
    h = h_mix(h, g->servers != NULL);
    if (g->group)
        h = h_bytes(h, g->group, (size_t)g->n * sizeof *g->group);
    h = h_mix(h, g->group != NULL);
    if (g->coord)
        h = h_bytes(h, g->coord, (size_t)g->n * (size_t)g->ncoord * sizeof *g->coord);
    h = h_mix(h, g->coord != NULL);
    if (g->spec)
        h = h_bytes(h, g->spec, strlen(g->spec));
    return h_final(h);
}

static const char *byte_order(void)
{
    const uint16_t one = 1;
    unsigned char b;
    memcpy(&b, &one, 1);
    return b ? "little" : "big";
}

/* ------------------------------------------------------------------------
 * Text fields: percent-encoding of blanks, controls, '%' and bytes >= 127;
 * the empty string is a lone "%". */
static void put_text(FILE *fp, const char *s)
{
    if (!*s) {
        fputc('%', fp);
        return;
    }
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p <= ' ' || *p == '%' || *p >= 127)
            fprintf(fp, "%%%02X", *p);
        else
            fputc(*p, fp);
    }
}

static int hexval(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Decode in place; -1 when malformed. */
static int get_text(char *s)
{
    char *d = s;
    if (strcmp(s, "%") == 0) {
        *s = 0;
        return 0;
    }
    for (char *p = s; *p; p++) {
        if (*p == '%') {
            int a = hexval(p[1]), b = a < 0 ? -1 : hexval(p[2]);
            if (b < 0 || (a == 0 && b == 0))
                return -1;
            *d++ = (char)(a * 16 + b);
            p += 2;
        } else {
            *d++ = *p;
        }
    }
    *d = 0;
    return 0;
}

/* ------------------------------------------------------------------------
 * Writing a shard. */

/* Everything written goes through here (the end line's checksum). */
static void w_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *w_line;
static size_t w_cap;

/* The file's checksum is over its lines, one at a time (as it is read). */
static void w_hash(const char *b, size_t len)
{
    while (len > 0) {
        const char *nl = memchr(b, '\n', len);
        size_t k = nl ? (size_t)(nl - b) + 1 : len;
        S.hash = h_bytes(S.hash, b, k);
        b += k;
        len -= k;
    }
}

static void w_flush_line(size_t len)
{
    w_hash(w_line, len);
    fwrite(w_line, 1, len, S.fp);
}

static void w_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(w_line, w_cap, fmt, ap);
    va_end(ap);
    if (k >= 0 && (size_t)k >= w_cap) {
        size_t cap = (size_t)k + 1;
        char *p = realloc(w_line, cap);
        if (!p) {
            S.failed = 1;
            return;
        }
        w_line = p;
        w_cap = cap;
        va_start(ap, fmt);
        k = vsnprintf(w_line, w_cap, fmt, ap);
        va_end(ap);
    }
    if (k > 0)
        w_flush_line((size_t)k);
}

/* A text field into a malloc'd percent-encoded string. */
static char *enc(const char *s)
{
    char *m = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&m, &len);
    if (!fp)
        return NULL;
    put_text(fp, s);
    if (fclose(fp) != 0) {
        free(m);
        return NULL;
    }
    return m;
}

/* Write a text line made of a format with %s fields already encoded. */
static void w_text_line(const char *key, const char *s)
{
    char *e = enc(s);
    if (!e) {
        S.failed = 1;
        return;
    }
    w_printf("%s %s\n", key, e);
    free(e);
}

/* One entry as signed hexadecimal into buf (at least 36 bytes). */
static size_t fmt_i128(char *buf, __int128 v)
{
    unsigned __int128 u =
        v < 0 ? (unsigned __int128)0 - (unsigned __int128)v : (unsigned __int128)v;
    char tmp[40];
    size_t k = 0, n = 0;
    do {
        tmp[k++] = "0123456789abcdef"[(unsigned)(u & 15)];
        u >>= 4;
    } while (u);
    if (v < 0)
        buf[n++] = '-';
    while (k)
        buf[n++] = tmp[--k];
    buf[n++] = '\n';
    buf[n] = 0;
    return n;
}

static uint64_t entry_sum(uint64_t h, __int128 v)
{
    unsigned char b[16];
    unsigned __int128 u = (unsigned __int128)v;
    for (int k = 0; k < 16; k++, u >>= 8)
        b[k] = (unsigned char)(u & 0xff);
    return h_bytes(h, b, 16);
}

/* The entries of acc (or width zeros when acc is NULL): their checksum. */
static uint64_t acc_sum(const tk_acc_t *acc, int64_t width)
{
    uint64_t h = H_SEED;
    for (int64_t x = 0; x < width; x++)
        h = entry_sum(h, acc ? tk_acc_get(acc, x) : 0);
    return h_final(h);
}

static void w_entries(const tk_acc_t *acc, int64_t width)
{
    char buf[48];
    int64_t zeros = 0;
    for (int64_t x = 0; x <= width; x++) {
        __int128 v = x < width && acc ? tk_acc_get(acc, x) : 0;
        if (x < width && v == 0) {
            zeros++;
            continue;
        }
        if (zeros == 1) {
            w_printf("0\n");
        } else if (zeros > 1) {
            w_printf("z%" PRId64 "\n", zeros);
        }
        zeros = 0;
        if (x < width) {
            size_t k = fmt_i128(buf, v);
            w_hash(buf, k);
            fwrite(buf, 1, k, S.fp);
        }
    }
}

/* The shard runner: this shard's slice, recorded. */
static tk_status_t shard_run(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                             tk_error_t *err)
{
    int64_t lo, hi;
    (void)ctx;
    tk_par_slice(job, S.i, S.parts, &lo, &hi);
    /* The meter counts this shard's units only (the caller began the
     * phase with the whole job's). */
    tk_progress_set_total(job->progress, hi - lo);
    tk_status_t st = tk_par_run(job, lo, hi, threads, acc, err);
    const tk_acc_t *rec = st == TK_OK ? acc : NULL;
    S.njobs++;
    w_printf("job %" PRId64 " units %" PRId64 " chunk %" PRId64 " width %" PRId64
             " scale %d hash %016" PRIx64 " lo %" PRId64 " hi %" PRId64 " status %d sum %016" PRIx64
             "\n",
             S.njobs, job->units, job->chunk > 0 ? job->chunk : TK_PAR_CHUNK, job->width,
             tk_acc_scale_exp(acc), S.gfp, lo, hi, (int)st, acc_sum(rec, job->width));
    if (st != TK_OK) {
        char *where = enc(err ? err->where : ""), *msg = enc(err ? err->msg : "");
        if (!where || !msg)
            S.failed = 1;
        else
            w_printf("error %ld %s %s\n", err ? err->line : 0L, where, msg);
        free(where);
        free(msg);
    }
    w_entries(rec, job->width);
    if (ferror(S.fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "writing the shard: %s", strerror(errno));
    return st;
}

/* ------------------------------------------------------------------------
 * Unit jobs (cli_mpi_units): a shard runs the units of its slice, a
 * contiguous block (tk_par_slice of the units with chunk 1: units
 * [I*N/P, (I+1)*N/P)), and records each unit's bytes: a line `unit U LEN`
 * then the bytes in lowercase hexadecimal, UNIT_LINE bytes a line.  The
 * record begins with `units J count N lo L hi H hash F` and ends with
 * `sum S`, a checksum of the units' numbers, lengths and bytes.
 *
 * A dealt job (cli_units_t.dealt) is dealt round-robin over the run: its
 * unit u is the run's dealt unit K+u (K: the dealt units of the jobs
 * before it), shard (K+u) mod P's.  Its record begins with `dealt J count
 * N first K hash F` and holds the shard's units in order, as above. */

/* This shard's units of a dealt job of `units` units after `first`
 * dealt ones: lo, lo+step, ... < hi. */
static void dealt_slice(int64_t units, int64_t first, int64_t i, int64_t parts, int64_t *lo,
                        int64_t *hi, int64_t *step)
{
    int64_t at = first % parts;
    *lo = i >= at ? i - at : i - at + parts;
    *hi = units;
    *step = parts;
    if (*lo > units)
        *lo = units;
}

#define UNIT_LINE 64

static void units_slice(int64_t units, int64_t i, int64_t parts, int64_t *lo, int64_t *hi)
{
    tk_par_job_t job;
    memset(&job, 0, sizeof job);
    job.units = units;
    job.chunk = 1;
    tk_par_slice(&job, i, parts, lo, hi);
}

static uint64_t unit_sum(uint64_t h, int64_t u, const unsigned char *b, size_t len)
{
    int64_t hd[2] = {u, (int64_t)len};
    h = h_bytes(h, hd, sizeof hd);
    return h_bytes(h, b, len);
}

static void w_unit(int64_t u, const unsigned char *b, size_t len)
{
    char line[2 * UNIT_LINE + 2];
    w_printf("unit %" PRId64 " %zu\n", u, len);
    for (size_t at = 0; at < len; at += UNIT_LINE) {
        size_t k = len - at < UNIT_LINE ? len - at : UNIT_LINE, n = 0;
        for (size_t j = 0; j < k; j++) {
            line[n++] = "0123456789abcdef"[b[at + j] >> 4];
            line[n++] = "0123456789abcdef"[b[at + j] & 15];
        }
        line[n++] = '\n';
        w_hash(line, n);
        fwrite(line, 1, n, S.fp);
    }
}

/* --shard: this shard's units, recorded (take is not called: the results
 * are partial, the tool skips what only the merge needs). */
static tk_status_t shard_units(const cli_units_t *job, tk_error_t *err)
{
    int64_t lo, hi, step = 1;
    char *buf = NULL;
    size_t blen = 0;
    uint64_t h = H_SEED;
    tk_status_t st = TK_OK;
    FILE *mem = open_memstream(&buf, &blen);

    if (!mem)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
    if (job->dealt)
        dealt_slice(job->units, S.dealt, S.i, S.parts, &lo, &hi, &step);
    else
        units_slice(job->units, S.i, S.parts, &lo, &hi);
    /* --progress: this shard's units. */
    char label[64];
    snprintf(label, sizeof label, "shard %" PRId64 "/%" PRId64, S.i, S.parts);
    tk_progress_t *meter = cli_meter(label);
    tk_progress_begin(meter, "units", "units", (hi - lo + step - 1) / step);
    S.njobs++;
    if (job->dealt) {
        w_printf("dealt %" PRId64 " count %" PRId64 " first %" PRId64 " hash %016" PRIx64 "\n",
                 S.njobs, job->units, S.dealt, S.gfp);
        S.dealt += job->units;
    } else {
        w_printf("units %" PRId64 " count %" PRId64 " lo %" PRId64 " hi %" PRId64
                 " hash %016" PRIx64 "\n",
                 S.njobs, job->units, lo, hi, S.gfp);
    }
    int64_t u = lo;
    for (; u < hi; u += step) {
        rewind(mem);
        if ((st = job->run(job->ctx, u, mem, err)) != TK_OK)
            break;
        long end = ftell(mem);
        if (fflush(mem) != 0 || end < 0) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
            break;
        }
        h = unit_sum(h, u, (const unsigned char *)buf, (size_t)end);
        w_unit(u, (const unsigned char *)buf, (size_t)end);
        tk_progress_add(meter, 1);
    }
    tk_progress_end(meter);
    fclose(mem);
    free(buf);
    if (st != TK_OK) {
        /* The failing unit (the first of this shard's) is recorded: the
         * merge reports it where the single run would, after the units
         * before it.  The shard itself goes on as if the job had ended
         * (its results are partial anyway), so every shard makes the
         * same jobs. */
        char *where = enc(err ? err->where : ""), *msg = enc(err ? err->msg : "");
        if (!where || !msg)
            S.failed = 1;
        else
            w_printf("error %" PRId64 " status %d line %ld %s %s\n", u, (int)st,
                     err ? err->line : 0L, where, msg);
        free(where);
        free(msg);
        if (err)
            tk_error_clear(err);
    }
    w_printf("sum %016" PRIx64 "\n", h_final(h));
    if (ferror(S.fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "writing the shard: %s", strerror(errno));
    return TK_OK;
}

/* ------------------------------------------------------------------------
 * Reading shard files. */

static int sf_quiet;
static char sf_why[1200];

static void sf_fail(const sfile_t *f, long line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void sf_fail(const sfile_t *f, long line, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (sf_quiet) /* the replay: the tool reports it */
        snprintf(sf_why, sizeof sf_why, "%s:%ld: %s", f->path, line, msg);
    else if (line > 0)
        cli_errorf("%s:%ld: %s", f->path, line, msg);
    else
        cli_errorf("%s: %s", f->path, msg);
}

/* The next line without its newline; 1, 0 at the end of the file, -1 on a
 * read error or a line without its newline (a truncated file). */
static int sf_line(sfile_t *f, int hash)
{
    ssize_t k = getline(&f->buf, &f->cap, f->fp);
    if (k < 0) {
        if (ferror(f->fp)) {
            sf_fail(f, 0, "%s", strerror(errno));
            return -1;
        }
        return 0;
    }
    f->line++;
    if (hash)
        f->hash = h_bytes(f->hash, f->buf, (size_t)k);
    if (f->buf[k - 1] != '\n') {
        sf_fail(f, f->line, "truncated (a line without its end)");
        return -1;
    }
    f->buf[k - 1] = 0;
    return 1;
}

/* Split a line at single blanks: the number of words (at most max), -1
 * when there are more. */
static int words(char *s, char **w, int max)
{
    int n = 0;
    if (!*s)
        return 0;
    for (;;) {
        if (n == max)
            return -1;
        w[n++] = s;
        char *sp = strchr(s, ' ');
        if (!sp)
            return n;
        *sp = 0;
        s = sp + 1;
    }
}

static int num(const char *s, int64_t min, int64_t max, int64_t *v)
{
    char why[CLI_WHY_MAX];
    return cli_parse_int(s, min, max, v, why);
}

static int hex64(const char *s, uint64_t *v)
{
    uint64_t x = 0;
    if (strlen(s) != 16)
        return -1;
    for (const char *p = s; *p; p++) {
        int d = hexval(*p);
        if (d < 0 || (*p >= 'A' && *p <= 'F'))
            return -1;
        x = x << 4 | (uint64_t)d;
    }
    *v = x;
    return 0;
}

/* "KEY VALUE" pairs at w[from..n): the keys must be `keys` in order. */
static int pairs(char **w, int n, int from, const char *const keys[], char **vals)
{
    int k = 0;
    for (; keys[k]; k++) {
        int at = from + 2 * k;
        if (at + 1 >= n || strcmp(w[at], keys[k]) != 0)
            return -1;
        vals[k] = w[at + 1];
    }
    return from + 2 * k == n ? 0 : -1;
}

/* Parse one entry line into v (count 1) or a zero run (count K). */
static int entry(const char *s, __int128 *v, int64_t *count)
{
    if (s[0] == 'z') {
        *v = 0;
        return num(s + 1, 2, INT64_MAX, count);
    }
    int neg = s[0] == '-';
    const char *p = s + neg;
    if (!*p || strlen(p) > 32 || (p[0] == '0' && p[1]))
        return -1;
    unsigned __int128 u = 0;
    for (; *p; p++) {
        int d = hexval(*p);
        if (d < 0 || (*p >= 'A' && *p <= 'F'))
            return -1;
        u = u << 4 | (unsigned)d;
    }
    if (neg && u == 0)
        return -1;
    *v = neg ? (__int128)((unsigned __int128)0 - u) : (__int128)u;
    *count = 1;
    return 0;
}

/* Read a job's entries: their checksum into *sum; added into words
 * (2 * width 64-bit words) when not NULL.  0, or -1 (printed). */
static int sf_entries(sfile_t *f, const rec_t *r, int hash, uint64_t *words, uint64_t *sum)
{
    uint64_t h = H_SEED;
    int64_t x = 0;
    while (x < r->width) {
        int k = sf_line(f, hash);
        if (k < 0)
            return -1;
        if (k == 0) {
            sf_fail(f, f->line,
                    "truncated: job at line %ld has %" PRId64 " of its %" PRId64 " entries",
                    r->line, x, r->width);
            return -1;
        }
        __int128 v;
        int64_t c;
        if (entry(f->buf, &v, &c) != 0 || c > r->width - x) {
            sf_fail(f, f->line, "not an entry of the job at line %ld: '%.40s'", r->line, f->buf);
            return -1;
        }
        for (int64_t j = 0; j < c; j++)
            h = entry_sum(h, v);
        if (words && v != 0) {
            unsigned __int128 a;
            memcpy(&a, words + 2 * x, 16);
            a += (unsigned __int128)v;
            memcpy(words + 2 * x, &a, 16);
        }
        x += c;
    }
    *sum = h_final(h);
    return 0;
}

/* A unit job's `error U status S line L WHERE MESSAGE` line (in f->buf)
 * for unit u: into r when store.  0, or -1 (printed). */
static int sf_unit_error(sfile_t *f, rec_t *r, int64_t u, int store)
{
    char *w[9];
    int64_t uu, stv, ln;
    if (words(f->buf, w, 9) != 8 || strcmp(w[0], "error") != 0 ||
        num(w[1], 0, INT64_MAX, &uu) != 0 || uu != u || strcmp(w[2], "status") != 0 ||
        num(w[3], 1, TK_EINTERNAL, &stv) != 0 || strcmp(w[4], "line") != 0 ||
        num(w[5], 0, LONG_MAX, &ln) != 0 || get_text(w[6]) != 0 || get_text(w[7]) != 0) {
        sf_fail(f, f->line, "malformed error line (unit %" PRId64 ")", u);
        return -1;
    }
    if (!store)
        return 0;
    if (!r->err && !(r->err = malloc(sizeof *r->err))) {
        sf_fail(f, f->line, "out of memory");
        return -1;
    }
    tk_error_clear(r->err);
    r->status = (int)stv;
    r->err->code = (tk_status_t)stv;
    r->err->line = (long)ln;
    snprintf(r->err->where, sizeof r->err->where, "%s", w[6]);
    snprintf(r->err->msg, sizeof r->err->msg, "%s", w[7]);
    return 0;
}

/* Read unit u's bytes (a `unit U LEN` line and its hexadecimal lines)
 * into *b (grown as needed).  0; 1 when the job failed at unit u (an
 * error line, stored into r when hash: the first read); -1 (printed). */
static int sf_unit(sfile_t *f, rec_t *r, int64_t u, int hash, unsigned char **b, size_t *cap,
                   size_t *len)
{
    char *w[4];
    int64_t uu, n;
    int k = sf_line(f, hash);
    if (k < 0)
        return -1;
    if (k == 0) {
        sf_fail(f, f->line, "truncated: the unit job at line %ld ends before unit %" PRId64,
                r->line, u);
        return -1;
    }
    if (strncmp(f->buf, "error ", 6) == 0)
        return sf_unit_error(f, r, u, hash) == 0 ? 1 : -1;
    if (words(f->buf, w, 4) != 3 || strcmp(w[0], "unit") != 0 ||
        num(w[1], 0, INT64_MAX, &uu) != 0 || num(w[2], 0, INT64_MAX, &n) != 0 || uu != u) {
        sf_fail(f, f->line, "expected 'unit %" PRId64 " LENGTH' (the unit job at line %ld)", u,
                r->line);
        return -1;
    }
    size_t at = 0, total = (size_t)n;
    while (at < total) {
        size_t want = total - at < UNIT_LINE ? total - at : UNIT_LINE;
        if ((k = sf_line(f, hash)) < 0)
            return -1;
        if (k == 0) {
            sf_fail(f, f->line, "truncated: unit %" PRId64 " has %zu of its %zu bytes", u, at,
                    total);
            return -1;
        }
        if (strlen(f->buf) != 2 * want) {
            sf_fail(f, f->line, "unit %" PRId64 ": expected %zu bytes in hexadecimal", u, want);
            return -1;
        }
        if (at + want > *cap) {
            size_t c = *cap ? *cap : 4096;
            while (c < at + want)
                c *= 2;
            unsigned char *p = realloc(*b, c);
            if (!p) {
                sf_fail(f, f->line, "out of memory");
                return -1;
            }
            *b = p;
            *cap = c;
        }
        for (size_t j = 0; j < want; j++) {
            int hi = hexval(f->buf[2 * j]), lo = hexval(f->buf[2 * j + 1]);
            if (hi < 0 || lo < 0 || isupper((unsigned char)f->buf[2 * j]) ||
                isupper((unsigned char)f->buf[2 * j + 1])) {
                sf_fail(f, f->line, "unit %" PRId64 ": not lowercase hexadecimal", u);
                return -1;
            }
            (*b)[at + j] = (unsigned char)(hi * 16 + lo);
        }
        at += want;
    }
    *len = total;
    return 0;
}

/* Read a unit job's units [r->lo, r->hi) and its sum line; with take,
 * pass every unit to it (stopping at its first failure, *st).  0, or -1
 * (printed). */
static int sf_units(sfile_t *f, rec_t *r, int hash, const cli_units_t *job, tk_status_t *st,
                    tk_error_t *err, uint64_t *sum)
{
    unsigned char *b = NULL;
    size_t cap = 0, len = 0;
    uint64_t h = H_SEED, want;
    char *w[3];
    int rc = 0;
    for (int64_t u = r->lo; u < r->hi && rc == 0; u += r->step) {
        if ((rc = sf_unit(f, r, u, hash, &b, &cap, &len)) != 0)
            break;
        h = unit_sum(h, u, b, len);
        if (job && *st == TK_OK)
            *st = job->take(job->ctx, u, b, len, err);
    }
    free(b);
    if (rc < 0)
        return -1;
    if (rc == 1 && job && *st == TK_OK) { /* the shard's failing unit */
        *st = (tk_status_t)r->status;
        if (err)
            *err = *r->err;
    }
    int k = sf_line(f, hash);
    if (k < 0)
        return -1;
    if (k == 0 || words(f->buf, w, 3) != 2 || strcmp(w[0], "sum") != 0 || hex64(w[1], &want) != 0) {
        sf_fail(f, f->line, "expected 'sum CHECKSUM' (the unit job at line %ld)", r->line);
        return -1;
    }
    *sum = h_final(h);
    if (*sum != want) {
        sf_fail(f, r->line,
                "checksum mismatch in the unit job's bytes (lines %ld-%ld): the file is damaged",
                r->line + 1, f->line);
        return -1;
    }
    return 0;
}

static rec_t *sf_add(sfile_t *f)
{
    if (f->nrecs == f->arecs) {
        size_t a = f->arecs ? 2 * f->arecs : 16;
        rec_t *p = realloc(f->recs, a * sizeof *p);
        if (!p)
            return NULL;
        f->recs = p;
        f->arecs = a;
    }
    rec_t *r = &f->recs[f->nrecs++];
    memset(r, 0, sizeof *r);
    r->line = f->line;
    return r;
}

static const char *const hdr_keys[] = {"tool", "version", "order", "args", NULL};

/* Read and check a whole shard file: header, records, checksums.  The
 * file stays open for the replay.  0, or -1 (printed). */
static int sf_read(sfile_t *f)
{
    char *w[32];
    int n, k;
    int64_t v;

    if (!f->fp && !(f->fp = fopen(f->path, "r"))) {
        cli_errorf("%s: %s", f->path, strerror(errno));
        return -1;
    }
    f->hash = H_SEED;
    if ((k = sf_line(f, 1)) <= 0 || words(f->buf, w, 32) != 2 || strcmp(w[0], SHARD_MAGIC) != 0) {
        if (k >= 0)
            sf_fail(f, 1, "not a topokit shard file (made by a tool's --shard)");
        return -1;
    }
    if (num(w[1], 1, INT32_MAX, &v) != 0 || v != SHARD_FORMAT) {
        sf_fail(f, 1, "shard format %s: this topokit reads format %d", w[1], SHARD_FORMAT);
        return -1;
    }
    for (int h = 0; hdr_keys[h]; h++) {
        if ((k = sf_line(f, 1)) <= 0 || (n = words(f->buf, w, 32)) != 2 ||
            strcmp(w[0], hdr_keys[h]) != 0 || get_text(w[1]) != 0) {
            if (k >= 0)
                sf_fail(f, f->line, "expected '%s VALUE'", hdr_keys[h]);
            return -1;
        }
        char *s = strdup(w[1]);
        if (!s) {
            cli_errorf("out of memory");
            return -1;
        }
        if (h == 0)
            f->tool = s;
        else if (h == 1)
            f->version = s;
        else if (h == 2)
            f->order = s;
        else {
            free(s);
            if (num(w[1], 0, 100000, &v) != 0) {
                sf_fail(f, f->line, "expected 'args COUNT'");
                return -1;
            }
            f->nargs = (int)v;
        }
    }
    f->args = calloc((size_t)f->nargs + 1, sizeof *f->args);
    if (!f->args) {
        cli_errorf("out of memory");
        return -1;
    }
    for (int a = 0; a < f->nargs; a++) {
        if ((k = sf_line(f, 1)) <= 0 || strncmp(f->buf, "arg ", 4) != 0 ||
            strchr(f->buf + 4, ' ') || get_text(f->buf + 4) != 0 ||
            !(f->args[a] = strdup(f->buf + 4))) {
            if (k >= 0)
                sf_fail(f, f->line, "expected 'arg TEXT' (%d of %d)", a + 1, f->nargs);
            return -1;
        }
    }
    int64_t parts, idx;
    if ((k = sf_line(f, 1)) <= 0 || words(f->buf, w, 32) != 3 || strcmp(w[0], "shard") != 0 ||
        num(w[2], 1, INT64_MAX, &parts) != 0 || num(w[1], 0, parts - 1, &idx) != 0) {
        if (k >= 0)
            sf_fail(f, f->line, "expected 'shard I P' with 0 <= I < P");
        return -1;
    }
    f->i = idx;
    f->parts = parts;
    /* The records. */
    int64_t ngraphs = 0, njobs = 0, dealt = 0;
    for (;;) {
        uint64_t before = f->hash;
        if ((k = sf_line(f, 1)) < 0)
            return -1;
        if (k == 0) {
            sf_fail(f, f->line,
                    "truncated: no 'end' line (the shard run did not finish, or "
                    "the copy is incomplete)");
            return -1;
        }
        n = words(f->buf, w, 32);
        if (n >= 1 && strcmp(w[0], "end") == 0) {
            static const char *const keys[] = {"graphs", "jobs", "hash", NULL};
            char *val[3];
            int64_t g2, j2;
            uint64_t hh;
            if (pairs(w, n, 1, keys, val) != 0 || num(val[0], 0, INT64_MAX, &g2) != 0 ||
                num(val[1], 0, INT64_MAX, &j2) != 0 || hex64(val[2], &hh) != 0) {
                sf_fail(f, f->line, "malformed 'end' line");
                return -1;
            }
            if (hh != h_final(before)) {
                sf_fail(f, f->line, "checksum mismatch: the file is damaged");
                return -1;
            }
            if (g2 != ngraphs || j2 != njobs) {
                sf_fail(f, f->line,
                        "the end line counts %" PRId64 " graphs and %" PRId64
                        " jobs, the file has %" PRId64 " and %" PRId64,
                        g2, j2, ngraphs, njobs);
                return -1;
            }
            break;
        }
        rec_t *r = sf_add(f);
        if (!r) {
            cli_errorf("out of memory");
            return -1;
        }
        if (n >= 2 && strcmp(w[0], "graph") == 0) {
            static const char *const keys[] = {"input", "index", "hash", NULL};
            char *val[3];
            int64_t ix;
            r->kind = 'g';
            if (num(w[1], 1, INT64_MAX, &v) != 0 || v != ngraphs + 1 ||
                pairs(w, n, 2, keys, val) != 0 || get_text(val[0]) != 0 ||
                num(val[1], 1, LONG_MAX, &ix) != 0 || hex64(val[2], &r->hash) != 0 ||
                !(r->input = strdup(val[0]))) {
                sf_fail(f, f->line, "malformed graph line");
                return -1;
            }
            r->index = (long)ix;
            ngraphs++;
            continue;
        }
        if (n >= 2 && strcmp(w[0], "units") == 0) {
            static const char *const ukeys[] = {"count", "lo", "hi", "hash", NULL};
            char *val[4];
            uint64_t sum;
            r->kind = 'u';
            r->step = 1;
            if (num(w[1], 1, INT64_MAX, &v) != 0 || v != njobs + 1 ||
                pairs(w, n, 2, ukeys, val) != 0 || num(val[0], 0, INT64_MAX, &r->units) != 0 ||
                num(val[1], 0, r->units, &r->lo) != 0 ||
                num(val[2], r->lo, r->units, &r->hi) != 0 || hex64(val[3], &r->hash) != 0) {
                sf_fail(f, f->line, "malformed units line");
                return -1;
            }
            njobs++;
            r->off = ftello(f->fp);
            r->eline = f->line;
            if (sf_units(f, r, 1, NULL, NULL, NULL, &sum) != 0)
                return -1;
            r->sum = sum;
            continue;
        }
        if (n >= 2 && strcmp(w[0], "dealt") == 0) {
            static const char *const dkeys[] = {"count", "first", "hash", NULL};
            char *val[3];
            uint64_t sum;
            r->kind = 'd';
            if (num(w[1], 1, INT64_MAX, &v) != 0 || v != njobs + 1 ||
                pairs(w, n, 2, dkeys, val) != 0 ||
                num(val[0], 0, INT64_MAX - dealt, &r->units) != 0 ||
                num(val[1], 0, INT64_MAX, &r->first) != 0 || hex64(val[2], &r->hash) != 0) {
                sf_fail(f, f->line, "malformed dealt line");
                return -1;
            }
            if (r->first != dealt) {
                sf_fail(f, f->line,
                        "dealt job: first %" PRId64 ", the jobs before it dealt %" PRId64 " units",
                        r->first, dealt);
                return -1;
            }
            dealt_slice(r->units, r->first, f->i, f->parts, &r->lo, &r->hi, &r->step);
            dealt += r->units;
            njobs++;
            r->off = ftello(f->fp);
            r->eline = f->line;
            if (sf_units(f, r, 1, NULL, NULL, NULL, &sum) != 0)
                return -1;
            r->sum = sum;
            continue;
        }
        static const char *const keys[] = {"units", "chunk", "width",  "scale", "hash",
                                           "lo",    "hi",    "status", "sum",   NULL};
        char *val[9];
        int64_t sc, stv;
        r->kind = 'j';
        if (n < 2 || strcmp(w[0], "job") != 0 || num(w[1], 1, INT64_MAX, &v) != 0 ||
            v != njobs + 1 || ngraphs == 0 || pairs(w, n, 2, keys, val) != 0 ||
            num(val[0], 0, INT64_MAX, &r->units) != 0 ||
            num(val[1], 1, INT64_MAX, &r->chunk) != 0 ||
            num(val[2], 0, INT64_MAX, &r->width) != 0 || num(val[3], -2000, 2000, &sc) != 0 ||
            hex64(val[4], &r->hash) != 0 || num(val[5], 0, r->units, &r->lo) != 0 ||
            num(val[6], r->lo, r->units, &r->hi) != 0 || num(val[7], 0, TK_EINTERNAL, &stv) != 0 ||
            hex64(val[8], &r->sum) != 0) {
            sf_fail(f, f->line, "malformed %s line",
                    n >= 1 && strcmp(w[0], "job") == 0
                        ? "job"
                        : "record (expected graph, job, units, dealt or end)");
            return -1;
        }
        r->scale = (int)sc;
        r->status = (int)stv;
        njobs++;
        if (r->status != TK_OK) {
            int64_t ln;
            if ((k = sf_line(f, 1)) <= 0 || (n = words(f->buf, w, 32)) != 4 ||
                strcmp(w[0], "error") != 0 || num(w[1], 0, LONG_MAX, &ln) != 0 ||
                get_text(w[2]) != 0 || get_text(w[3]) != 0) {
                if (k >= 0)
                    sf_fail(f, f->line, "expected 'error LINE WHERE MESSAGE'");
                return -1;
            }
            if (!(r->err = malloc(sizeof *r->err))) {
                cli_errorf("out of memory");
                return -1;
            }
            tk_error_clear(r->err);
            r->err->code = (tk_status_t)r->status;
            r->err->line = (long)ln;
            snprintf(r->err->where, sizeof r->err->where, "%s", w[2]);
            snprintf(r->err->msg, sizeof r->err->msg, "%s", w[3]);
        }
        r->off = ftello(f->fp);
        uint64_t sum;
        long line = f->line;
        if (sf_entries(f, r, 1, NULL, &sum) != 0)
            return -1;
        if (sum != r->sum) {
            sf_fail(f, r->line,
                    "job %" PRId64 ": checksum mismatch in its entries (lines %ld-%ld): "
                    "the file is damaged",
                    njobs, line + 1, f->line);
            return -1;
        }
        r->eline = line;
    }
    return 0;
}

static void sf_close(sfile_t *f)
{
    if (f->fp)
        fclose(f->fp);
    for (size_t r = 0; r < f->nrecs; r++) {
        free(f->recs[r].input);
        free(f->recs[r].err);
    }
    free(f->recs);
    for (int a = 0; a < f->nargs && f->args; a++)
        free(f->args[a]);
    free(f->args);
    free(f->tool);
    free(f->version);
    free(f->order);
    free(f->buf);
    memset(f, 0, sizeof *f);
}

int cli_shard_check(FILE *fp, const char *name)
{
    sfile_t f;
    memset(&f, 0, sizeof f);
    f.path = name;
    f.fp = fp;
    int rc = sf_read(&f);
    f.fp = NULL; /* the caller's */
    sf_close(&f);
    return rc;
}

int cli_shard_tool(const char *path, char **tool)
{
    sfile_t f;
    char *w[4];
    int k;
    memset(&f, 0, sizeof f);
    f.path = path;
    *tool = NULL;
    if (!(f.fp = fopen(path, "r"))) {
        cli_errorf("%s: %s", path, strerror(errno));
        return -1;
    }
    if ((k = sf_line(&f, 0)) <= 0 || words(f.buf, w, 4) != 2 || strcmp(w[0], SHARD_MAGIC) != 0) {
        if (k >= 0)
            sf_fail(&f, 1, "not a topokit shard file (made by a tool's --shard)");
        sf_close(&f);
        return -1;
    }
    if ((k = sf_line(&f, 0)) <= 0 || words(f.buf, w, 4) != 2 || strcmp(w[0], "tool") != 0 ||
        get_text(w[1]) != 0) {
        if (k >= 0)
            sf_fail(&f, f.line, "expected 'tool NAME'");
        sf_close(&f);
        return -1;
    }
    for (int t = 0; cli_shard_tools[t]; t++)
        if (strcmp(w[1], cli_shard_tools[t]) == 0)
            *tool = strdup(w[1]);
    if (!*tool)
        sf_fail(&f, f.line, "tool '%s': not a tool that writes shards", w[1]);
    sf_close(&f);
    return *tool ? 0 : -1;
}

/* The arguments of a shard, quoted for a message. */
static void args_text(const sfile_t *f, char *buf, size_t len)
{
    size_t k = (size_t)snprintf(buf, len, "%s", f->tool);
    for (int a = 0; a < f->nargs && k < len; a++)
        k += (size_t)snprintf(buf + k, len - k, " %s", f->args[a]);
    if (k >= len && len > 4)
        strcpy(buf + len - 4, "...");
}

/* Do the records of f and the first shard g agree (apart from slices,
 * statuses and entries)?  0, or -1 (printed). */
static int sf_same_records(const sfile_t *f, const sfile_t *g)
{
    for (size_t r = 0; r < f->nrecs || r < g->nrecs; r++) {
        if (r >= f->nrecs || r >= g->nrecs) {
            sf_fail(f, r < f->nrecs ? f->recs[r].line : 0,
                    "%zu records, %s has %zu: shards of different inputs", f->nrecs, g->path,
                    g->nrecs);
            return -1;
        }
        const rec_t *a = &f->recs[r], *b = &g->recs[r];
        int same = a->kind == b->kind && a->hash == b->hash;
        if (same && a->kind == 'g')
            same = strcmp(a->input, b->input) == 0 && a->index == b->index;
        if (same && a->kind == 'u')
            same = a->units == b->units;
        if (same && a->kind == 'd')
            same = a->units == b->units && a->first == b->first;
        if (same && a->kind == 'j')
            same = a->units == b->units && a->chunk == b->chunk && a->width == b->width &&
                   a->scale == b->scale;
        if (!same) {
            sf_fail(f, a->line, "%s differs from %s:%ld: shards of different inputs",
                    a->kind == 'g' ? "this graph" : "this job", g->path, b->line);
            return -1;
        }
    }
    return 0;
}

/* Load every shard and check that they are the P shards of one run of
 * `tool`.  0, or -1 (printed). */
static int load_shards(const char *tool, int nfiles, char **paths)
{
    sfile_t *fs = calloc((size_t)nfiles, sizeof *fs);
    char a1[512], a2[512];
    if (!fs) {
        cli_errorf("out of memory");
        return -1;
    }
    S.files = fs; /* (reachable until exit, whatever happens) */
    for (int k = 0; k < nfiles; k++) {
        sfile_t *f = &fs[k];
        f->path = paths[k];
        if (sf_read(f) != 0)
            return -1;
        if (strcmp(f->tool, tool) != 0) {
            sf_fail(f, 2, "a shard of %s, not of %s", f->tool, tool);
            return -1;
        }
        if (strcmp(f->version, PACKAGE_VERSION) != 0) {
            sf_fail(f, 3, "made by topokit %s, this is %s: rerun the shards", f->version,
                    PACKAGE_VERSION);
            return -1;
        }
        if (strcmp(f->order, byte_order()) != 0) {
            sf_fail(f, 4, "made on a %s-endian machine, this one is %s-endian", f->order,
                    byte_order());
            return -1;
        }
        if (k == 0)
            continue;
        const sfile_t *g = &fs[0];
        int same = f->nargs == g->nargs;
        for (int a = 0; same && a < f->nargs; a++)
            same = strcmp(f->args[a], g->args[a]) == 0;
        if (!same) {
            args_text(f, a1, sizeof a1);
            args_text(g, a2, sizeof a2);
            sf_fail(f, 0, "a shard of '%s', %s of '%s': shards of different runs", a1, g->path, a2);
            return -1;
        }
        if (f->parts != g->parts) {
            sf_fail(f, 0,
                    "shard %" PRId64 "/%" PRId64 ", %s is %" PRId64 "/%" PRId64
                    ": shards of different splits",
                    f->i, f->parts, g->path, g->i, g->parts);
            return -1;
        }
        for (int j = 0; j < k; j++)
            if (fs[j].i == f->i) {
                sf_fail(f, 0, "shard %" PRId64 "/%" PRId64 " given twice (also %s)", f->i, f->parts,
                        fs[j].path);
                return -1;
            }
        if (sf_same_records(f, g) != 0)
            return -1;
    }
    int64_t parts = fs[0].parts;
    if (nfiles != parts) {
        /* Every shard is distinct: some are missing.  Name the first. */
        char *have = calloc((size_t)parts, 1);
        int64_t miss = 0, nmiss = parts - nfiles;
        if (!have) {
            cli_errorf("out of memory");
            return -1;
        }
        for (int k = 0; k < nfiles; k++)
            have[fs[k].i] = 1;
        while (have[miss])
            miss++;
        free(have);
        cli_errorf("shard %" PRId64 "/%" PRId64 " missing%s (%d of %" PRId64 " shards given)", miss,
                   parts, nmiss > 1 ? ", and others" : "", nfiles, parts);
        return -1;
    }
    /* In shard order; every slice must be the one tk_par_slice gives. */
    sfile_t *by = calloc((size_t)parts, sizeof *by);
    if (!by) {
        cli_errorf("out of memory");
        return -1;
    }
    for (int k = 0; k < nfiles; k++)
        by[fs[k].i] = fs[k];
    S.files = by;
    free(fs);
    for (int64_t i = 0; i < parts; i++)
        for (size_t r = 0; r < by[i].nrecs; r++) {
            const rec_t *x = &by[i].recs[r];
            tk_par_job_t job;
            int64_t lo, hi;
            if (x->kind == 'g' || x->kind == 'd') /* 'd': its slice follows from I */
                continue;
            memset(&job, 0, sizeof job);
            job.units = x->units;
            job.chunk = x->kind == 'u' ? 1 : x->chunk;
            tk_par_slice(&job, i, parts, &lo, &hi);
            if (lo != x->lo || hi != x->hi) {
                sf_fail(&by[i], x->line,
                        "slice %" PRId64 "..%" PRId64 " is not shard %" PRId64 "/%" PRId64
                        "'s (%" PRId64 "..%" PRId64 ")",
                        x->lo, x->hi, i, parts, lo, hi);
                return -1;
            }
        }
    /* Closed until the replay needs them (P files need not be open at once). */
    for (int64_t i = 0; i < parts; i++) {
        fclose(by[i].fp);
        by[i].fp = NULL;
    }
    S.files = by;
    S.parts = parts;
    S.nargs = by[0].nargs;
    S.args = by[0].args;
    return 0;
}

/* ------------------------------------------------------------------------
 * The merge runner: the shards' entries of the next job, added. */
static tk_status_t merge_fail(tk_error_t *err, const char *what)
{
    S.failed = 1;
    return tk_error_set(err, TK_EINVAL, NULL, 0,
                        "%s: the input or its files differ from the shards' (%s)", what,
                        S.files[0].path);
}

/* sf_reopen: the shard file again, at record r's entries, quietly (the
 * scan checked it; a failure now means the file changed).  sf_reclose
 * closes it and, if bad, makes the error of a shard that changed. */
static int sf_reopen(sfile_t *f, const rec_t *r)
{
    f->line = r->eline;
    sf_quiet = 1;
    sf_why[0] = 0;
    if (!(f->fp = fopen(f->path, "r")) || fseeko(f->fp, r->off, SEEK_SET) != 0) {
        snprintf(sf_why, sizeof sf_why, "%s: %s", f->path, strerror(errno));
        return -1;
    }
    return 0;
}

static tk_status_t sf_reclose(sfile_t *f, int bad, tk_error_t *err)
{
    sf_quiet = 0;
    if (f->fp)
        fclose(f->fp);
    f->fp = NULL;
    if (!bad)
        return TK_OK;
    S.failed = 1;
    return tk_error_set(err, TK_EIO, NULL, 0, "%s (the shard changed while merging)", sf_why);
}

static tk_status_t merge_run(void *ctx, const tk_par_job_t *job, int threads, tk_acc_t *acc,
                             tk_error_t *err)
{
    const sfile_t *f0 = &S.files[0];
    (void)ctx;
    (void)threads;
    if (S.failed)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "shards refused");
    if (S.rec >= f0->nrecs || f0->recs[S.rec].kind != 'j')
        return merge_fail(err, "a job the shards do not have");
    const rec_t *r0 = &f0->recs[S.rec];
    if (r0->units != job->units || r0->chunk != (job->chunk > 0 ? job->chunk : TK_PAR_CHUNK) ||
        r0->width != job->width || r0->scale != tk_acc_scale_exp(acc) || r0->hash != S.gfp)
        return merge_fail(err, "a job unlike the shards' one");
    tk_acc_clear(acc);
    uint64_t *w = tk_acc_words(acc);
    tk_status_t st = TK_OK;
    for (int64_t i = 0; i < S.parts; i++) {
        sfile_t *f = &S.files[i];
        const rec_t *r = &f->recs[S.rec];
        uint64_t sum;
        int bad = 1;
        if (sf_reopen(f, r) != 0) {
            /* sf_why says why */
        } else if (sf_entries(f, r, 0, w, &sum) != 0) {
            /* sf_why says why */
        } else if (sum != r->sum)
            snprintf(sf_why, sizeof sf_why, "%s:%ld: checksum mismatch in the job's entries",
                     f->path, r->line);
        else
            bad = 0;
        if (sf_reclose(f, bad, err) != TK_OK)
            return TK_EIO;
        if (st == TK_OK && r->status != TK_OK) {
            /* The smallest failing unit is in the first failing shard. */
            st = (tk_status_t)r->status;
            if (err)
                *err = *r->err;
        }
    }
    S.rec++;
    tk_progress_set_total(job->progress, job->units);
    tk_progress_set(job->progress, job->units);
    return st;
}

/* The merge of a dealt job: unit u from shard (first+u) mod P, in unit
 * order, to take.  The shards holding some of its units (at most the
 * job's unit count) are open at once; each is checked against its sum
 * line when all its units were read (the scan checked them all). */
static tk_status_t merge_dealt(const cli_units_t *job, const rec_t *r0, tk_error_t *err)
{
    int64_t parts = S.parts, nf = job->units < parts ? job->units : parts;
    uint64_t *h = tk_malloc_array((size_t)nf + 1, sizeof *h);
    unsigned char *b = NULL;
    size_t cap = 0, len = 0;
    tk_status_t st = TK_OK;
    int64_t u = 0;
    int bad = 0;

    if (!h)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (unit results)");
    for (int64_t j = 0; j < nf; j++)
        h[j] = H_SEED;
    sf_quiet = 1;
    sf_why[0] = 0;
    for (; u < job->units && st == TK_OK && !bad; u++) {
        int64_t i = (r0->first + u) % parts, j = u % nf;
        sfile_t *f = &S.files[i];
        rec_t *r = &f->recs[S.rec];
        int k;
        if (!f->fp) {
            f->line = r->eline;
            if (!(f->fp = fopen(f->path, "r")) || fseeko(f->fp, r->off, SEEK_SET) != 0) {
                snprintf(sf_why, sizeof sf_why, "%s: %s", f->path, strerror(errno));
                bad = 1;
                break;
            }
        }
        if ((k = sf_unit(f, r, u, 0, &b, &cap, &len)) < 0) {
            bad = 1;
        } else if (k == 1) { /* the shard's failing unit: the run stops here */
            st = (tk_status_t)r->status;
            if (err)
                *err = *r->err;
        } else {
            h[j] = unit_sum(h[j], u, b, len);
            st = job->take(job->ctx, u, b, len, err);
        }
    }
    /* Every shard read to its end: its sum line. */
    for (int64_t j = 0; j < nf; j++) {
        sfile_t *f = &S.files[(r0->first + j) % parts];
        const rec_t *r = &f->recs[S.rec];
        if (!bad && f->fp && u == job->units && st == TK_OK) {
            char *w[3];
            uint64_t want;
            int k = sf_line(f, 0);
            if (k < 0) {
                bad = 1;
            } else if (k == 0 || words(f->buf, w, 3) != 2 || strcmp(w[0], "sum") != 0 ||
                       hex64(w[1], &want) != 0 || want != h_final(h[j]) || want != r->sum) {
                snprintf(sf_why, sizeof sf_why, "%s:%ld: checksum mismatch in the unit job's bytes",
                         f->path, r->line);
                bad = 1;
            }
        }
        if (f->fp)
            fclose(f->fp);
        f->fp = NULL;
    }
    free(b);
    free(h);
    sf_quiet = 0;
    if (bad) {
        S.failed = 1;
        return tk_error_set(err, TK_EIO, NULL, 0, "%s (the shard changed while merging)", sf_why);
    }
    S.rec++;
    S.skip_units = st != TK_OK;
    return st;
}

/* The merge of a unit job: every shard's units, in unit order, to take. */
static tk_status_t merge_units(const cli_units_t *job, tk_error_t *err)
{
    const sfile_t *f0 = &S.files[0];
    int kind = job->dealt ? 'd' : 'u';
    if (S.failed)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "shards refused");
    if (S.rec >= f0->nrecs || f0->recs[S.rec].kind != kind)
        return merge_fail(err, "a unit job the shards do not have");
    const rec_t *r0 = &f0->recs[S.rec];
    if (r0->units != job->units || r0->hash != S.gfp)
        return merge_fail(err, "a unit job unlike the shards' one");
    if (job->dealt)
        return merge_dealt(job, r0, err);
    tk_status_t st = TK_OK;
    for (int64_t i = 0; i < S.parts && st == TK_OK; i++) {
        sfile_t *f = &S.files[i];
        rec_t *r = &f->recs[S.rec];
        uint64_t sum;
        int bad = 1;
        if (sf_reopen(f, r) != 0) {
            /* sf_why says why */
        } else if (sf_units(f, r, 0, job, &st, err, &sum) == 0 && sum == r->sum)
            bad = 0;
        else if (!sf_why[0])
            snprintf(sf_why, sizeof sf_why, "%s:%ld: checksum mismatch in the unit job's bytes",
                     f->path, r->line);
        if (sf_reclose(f, bad, err) != TK_OK)
            return TK_EIO;
    }
    S.rec++;
    /* A failed job: the single run stops there; the shards went on with
     * the graph's other unit jobs, which the tool will not ask for. */
    S.skip_units = st != TK_OK;
    return st;
}

/* After a failed unit job: the unit records up to the next graph. */
static void skip_units(void)
{
    if (S.mode != MODE_MERGE || !S.skip_units)
        return;
    while (S.rec < S.files[0].nrecs &&
           (S.files[0].recs[S.rec].kind == 'u' || S.files[0].recs[S.rec].kind == 'd'))
        S.rec++;
    S.skip_units = 0;
}

int cli_shard_units(const cli_units_t *job, tk_status_t *st, tk_error_t *err)
{
    if (S.mode == MODE_SHARD)
        *st = shard_units(job, err);
    else if (S.mode == MODE_MERGE)
        *st = merge_units(job, err);
    return S.mode != MODE_OFF;
}

int cli_units_distributed(void)
{
    return S.mode != MODE_OFF || cli_mpi_size() > 1;
}

int cli_units_threads(int threads)
{
    /* Under MPI every rank must cut the same units: rank 0's count (the
     * default, the node's cores, may differ between nodes). */
    return S.mode != MODE_OFF ? CLI_SHARD_THREADS : cli_mpi_same(threads);
}

/* A shard and a merge are one process, as the single run: the memory
 * checks are the single run's (mem_limit 0: the machine's memory). */
static const tk_par_runner_t shard_runner = {shard_run, NULL, 0};
static const tk_par_runner_t merge_runner = {merge_run, NULL, 0};

const tk_par_runner_t *cli_runner(void)
{
    if (S.mode == MODE_SHARD)
        return &shard_runner;
    if (S.mode == MODE_MERGE)
        return &merge_runner;
    return cli_mpi_runner();
}

/* ------------------------------------------------------------------------
 * The command line. */

static int dropped(const char *name)
{
    return strcmp(name, "shard") == 0 || strcmp(name, "output") == 0 ||
           strcmp(name, "threads") == 0 || strcmp(name, "progress") == 0;
}

/* --shard: find it and keep the other arguments that shape the result. */
static void scan(int argc, char **argv, const char *optstring, const struct option *longopts,
                 const char *usage)
{
    /* static: still reachable when a usage error exits */
    static char *os, **copy, *keep;
    size_t len = strlen(optstring);
    const char *shard = NULL;
    os = malloc(len + 2);
    copy = calloc((size_t)argc + 1, sizeof *copy);
    keep = calloc((size_t)argc + 1, 1);
    if (!os || !copy || !keep) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    os[0] = '-'; /* operands in order, as option 1 */
    memcpy(os + 1, optstring, len + 1);
    memcpy(copy, argv, (size_t)argc * sizeof *copy);
    int prev = 1, all = 1, any = 0, c, li;
    optind = 0;
    opterr = 0;
    for (;;) {
        li = -1;
        c = getopt_long(argc, copy, os, longopts, &li);
        if (c == -1)
            break;
        int drop = 0;
        if (c != 1 && c != '?' && c != ':') {
            if (li >= 0) {
                drop = dropped(longopts[li].name);
                if (strcmp(longopts[li].name, "shard") == 0)
                    shard = optarg;
            } else {
                for (int k = 0; longopts[k].name; k++)
                    if (longopts[k].val == c && longopts[k].flag == NULL)
                        drop = dropped(longopts[k].name);
            }
        }
        all &= drop;
        any |= drop;
        if (optind > prev) {
            if (any && !all)
                cli_usage_fail(usage, "with --shard, give -o in an argument of its own");
            for (int k = prev; k < optind; k++)
                keep[k] = !all;
            prev = optind;
            all = 1;
            any = 0;
        }
    }
    for (int k = prev; k < argc; k++)
        keep[k] = 1;
    optind = 0;
    if (shard) {
        int64_t i, p;
        char why[CLI_WHY_MAX];
        const char *slash = strchr(shard, '/');
        char ibuf[32];
        if (!slash || (size_t)(slash - shard) >= sizeof ibuf)
            cli_arg_fail("--shard", shard, "not I/P");
        memcpy(ibuf, shard, (size_t)(slash - shard));
        ibuf[slash - shard] = 0;
        if (cli_parse_int(slash + 1, 1, INT32_MAX, &p, why) != 0)
            cli_arg_fail("--shard", shard, "P: %s", why);
        if (cli_parse_int(ibuf, 0, p - 1, &i, why) != 0)
            cli_arg_fail("--shard", shard, "I: %s", why);
        S.mode = MODE_SHARD;
        S.i = i;
        S.parts = p;
        S.args = calloc((size_t)argc + 1, sizeof *S.args);
        if (!S.args) {
            cli_errorf("out of memory");
            exit(CLI_EXIT_DATA);
        }
        for (int k = 1; k < argc; k++)
            if (keep[k])
                S.args[S.nargs++] = argv[k];
    }
    free(os);
    free(copy);
    free(keep);
    os = NULL;
    copy = NULL;
    keep = NULL;
}

/* TOOL --from-shards [-o FILE] [--threads N] [--progress] [--] SHARD... */
static void from_shards(const char *tool, int *argc, char ***argv, const char *usage)
{
    char **v = *argv;
    int n = *argc, k = 2, extra = 0, seen[3] = {0, 0, 0};
    char *opts[5];
    static const char *const names[] = {"-o", "--threads", "--progress"};
    while (k < n && v[k][0] == '-' && v[k][1]) {
        if (strcmp(v[k], "--") == 0) {
            k++;
            break;
        }
        int o = 0;
        while (o < 3 && strcmp(v[k], names[o]) != 0)
            o++;
        if (o == 3 || seen[o] || (o < 2 && k + 1 >= n))
            cli_usage_fail(usage,
                           "--from-shards %s: expected -o FILE, --threads N, --progress (once "
                           "each) or shard files",
                           v[k]);
        seen[o] = 1;
        opts[extra++] = v[k++];
        if (o < 2)
            opts[extra++] = v[k++];
    }
    if (k >= n)
        cli_usage_fail(usage, "--from-shards: no shard files");
    cli_set_prog("topo-merge");
    S.mode = MODE_MERGE;
    if (load_shards(tool, n - k, v + k) != 0)
        exit(CLI_EXIT_DATA);
    S.argv = calloc((size_t)(1 + extra + S.nargs + 1), sizeof *S.argv);
    if (!S.argv) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    int m = 0;
    S.argv[m++] = v[0];
    for (int e = 0; e < extra; e++)
        S.argv[m++] = opts[e];
    for (int a = 0; a < S.nargs; a++)
        S.argv[m++] = S.args[a];
    *argc = m;
    *argv = S.argv;
}

void cli_shard_args(const char *tool, int *argc, char ***argv, const char *optstring,
                    const struct option *longopts, const char *usage)
{
    S.tool = tool;
    if (*argc >= 2 && strcmp((*argv)[1], "--from-shards") == 0)
        from_shards(tool, argc, argv, usage);
    else
        scan(*argc, *argv, optstring, longopts, usage);
    S.hash = H_SEED;
}

int cli_shard_partial(void)
{
    return S.mode == MODE_SHARD;
}

int64_t cli_shard_parts(void)
{
    return S.mode != MODE_OFF ? S.parts : 0;
}

int cli_shard_merging(void)
{
    return S.mode == MODE_MERGE;
}

int cli_shard_failed(void)
{
    return S.failed;
}

void cli_shard_note(const void *data, size_t bytes)
{
    if (S.mode != MODE_OFF)
        S.gfp = h_final(h_bytes(S.gfp, data, bytes));
}

/* ------------------------------------------------------------------------
 * The table driver's hooks. */

int cli_shard_open(const char *path)
{
    if (S.mode == MODE_OFF)
        return 0;
    if (cli_mpi_size() > 1) {
        cli_errorf("%s do not run under MPI",
                   S.mode == MODE_SHARD ? "--shard runs" : "topo-merge's merges");
        return -1;
    }
    if (S.mode == MODE_MERGE)
        return 0;
    if (!path || strcmp(path, "-") == 0) {
        /* Standard output gets the file once it is complete. */
        S.to_stdout = 1;
        S.fp = tmpfile();
        if (!S.fp) {
            cli_errorf("temporary file: %s", strerror(errno));
            return -1;
        }
    } else {
        if (cli_out_open(&S.out, path) != 0)
            return -1;
        S.fp = S.out.fp;
    }
    w_cap = 256;
    if (!(w_line = malloc(w_cap))) {
        cli_errorf("out of memory");
        return -1;
    }
    w_printf("%s %d\n", SHARD_MAGIC, SHARD_FORMAT);
    w_text_line("tool", S.tool);
    w_text_line("version", PACKAGE_VERSION);
    w_printf("order %s\nargs %d\n", byte_order(), S.nargs);
    for (int a = 0; a < S.nargs; a++)
        w_text_line("arg", S.args[a]);
    w_printf("shard %" PRId64 " %" PRId64 "\n", S.i, S.parts);
    return 0;
}

int cli_shard_graph(const tk_graph_t *g, const char *input, long index)
{
    if (S.mode == MODE_OFF)
        return 0;
    uint64_t h = graph_hash(g);
    S.gfp = h;
    if (S.mode == MODE_SHARD) {
        char *e = enc(input);
        if (!e) {
            S.failed = 1;
            return 0;
        }
        S.ngraphs++;
        w_printf("graph %" PRId64 " input %s index %ld hash %016" PRIx64 "\n", S.ngraphs, e, index,
                 h);
        free(e);
        return 0;
    }
    if (S.failed)
        return -1;
    skip_units();
    const sfile_t *f0 = &S.files[0];
    const rec_t *r = S.rec < f0->nrecs ? &f0->recs[S.rec] : NULL;
    if (!r || r->kind != 'g' || r->index != index || strcmp(r->input, input) != 0 || r->hash != h) {
        S.failed = 1;
        cli_errorf("%s: graph %ld: %s (%s)", input, index,
                   r && r->kind == 'g' ? "not the graph the shards were made from"
                                       : "the shards were made from an input with fewer graphs",
                   f0->path);
        return -1;
    }
    S.rec++;
    return 0;
}

int cli_shard_table_end(int rc)
{
    skip_units();
    if (S.mode == MODE_MERGE && !S.failed && S.rec < S.files[0].nrecs) {
        const rec_t *r = &S.files[0].recs[S.rec];
        S.failed = 1;
        cli_errorf("%s:%ld: the shards were made from an input with more graphs (%s)",
                   S.files[0].path, r->line, r->kind == 'g' ? r->input : "a job");
        return 1;
    }
    return rc | S.failed;
}

int cli_shard_close(int rc)
{
    if (S.mode != MODE_SHARD || !S.fp)
        return rc;
    if (rc == 0) {
        uint64_t h = h_final(S.hash);
        char end[128];
        snprintf(end, sizeof end, "end graphs %" PRId64 " jobs %" PRId64 " hash %016" PRIx64 "\n",
                 S.ngraphs, S.njobs, h);
        fputs(end, S.fp);
        if (S.failed || ferror(S.fp)) {
            cli_errorf("writing the shard failed");
            rc = CLI_EXIT_DATA;
        }
    }
    if (S.to_stdout) {
        if (rc == 0) {
            char buf[65536];
            size_t k;
            rewind(S.fp);
            while ((k = fread(buf, 1, sizeof buf, S.fp)) > 0)
                if (fwrite(buf, 1, k, stdout) != k)
                    break;
            if (ferror(S.fp) || fflush(stdout) != 0 || ferror(stdout)) {
                cli_errorf("write error on standard output: %s", strerror(errno));
                rc = CLI_EXIT_DATA;
            }
        }
        fclose(S.fp);
    } else if (rc == 0) {
        if (cli_out_commit(&S.out) != 0)
            rc = CLI_EXIT_DATA;
    } else {
        cli_out_abort(&S.out);
    }
    S.fp = NULL;
    free(w_line);
    w_line = NULL;
    return rc;
}
