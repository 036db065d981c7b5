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
 *
 * This file writes shards and runs the merge; shard-file.c reads and
 * checks shard files; shard-file.h is what the two share.
 */
#include <config.h>

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
#include "shard-file.h"

/* The tools that take --shard: topo-merge runs only these. */
const char *const cli_shard_tools[] = {"topo-antmill", "topo-dist",   "topo-ksp",   "topo-load",
                                       "topo-mcf",     "topo-medoid", "topo-paths", "topo-sim",
                                       "topo-vc",      NULL};

enum { MODE_OFF, MODE_SHARD, MODE_MERGE };

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

static void units_slice(int64_t units, int64_t i, int64_t parts, int64_t *lo, int64_t *hi)
{
    tk_par_job_t job;
    memset(&job, 0, sizeof job);
    job.units = units;
    job.chunk = 1;
    tk_par_slice(&job, i, parts, lo, hi);
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
            } else if (k == 0 || sf_words(f->buf, w, 3) != 2 || strcmp(w[0], "sum") != 0 ||
                       sf_hex64(w[1], &want) != 0 || want != h_final(h[j]) || want != r->sum) {
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
    if (sf_load(tool, n - k, v + k, &S.files) != 0)
        exit(CLI_EXIT_DATA);
    S.parts = S.files[0].parts;
    S.nargs = S.files[0].nargs;
    S.args = S.files[0].args;
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
