/*
 * shard-file.c - reading and checking shard files (the format: shard.c's
 * header comment): sf_read checks a whole file (header, records, every
 * checksum) before the merge uses it, cli_shard_check and cli_shard_tool
 * are topo-merge's checks, sf_load checks that the files are the P shards
 * of one run, and the merge's replay (shard.c) rereads a job's entries or
 * units with sf_entries and sf_units.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "cli.h"
#include "shard-file.h"

/* ------------------------------------------------------------------------
 * Text fields (put_text in shard.c writes them): decoding. */

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
 * Reading shard files. */

int sf_quiet;
char sf_why[1200];

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
int sf_line(sfile_t *f, int hash)
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

int sf_words(char *s, char **w, int max)
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

int sf_hex64(const char *s, uint64_t *v)
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
int sf_entries(sfile_t *f, const rec_t *r, int hash, uint64_t *words, uint64_t *sum)
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
    if (sf_words(f->buf, w, 9) != 8 || strcmp(w[0], "error") != 0 ||
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
int sf_unit(sfile_t *f, rec_t *r, int64_t u, int hash, unsigned char **b, size_t *cap, size_t *len)
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
    if (sf_words(f->buf, w, 4) != 3 || strcmp(w[0], "unit") != 0 ||
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
int sf_units(sfile_t *f, rec_t *r, int hash, const cli_units_t *job, tk_status_t *st,
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
    if (k == 0 || sf_words(f->buf, w, 3) != 2 || strcmp(w[0], "sum") != 0 ||
        sf_hex64(w[1], &want) != 0) {
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

/* A unit or dealt record's entries, which follow its line: checked and
 * summed now, read again when the merge replays the job. */
static int rec_units(sfile_t *f, rec_t *r)
{
    uint64_t sum;
    r->off = ftello(f->fp);
    r->eline = f->line;
    if (sf_units(f, r, 1, NULL, NULL, NULL, &sum) != 0)
        return -1;
    r->sum = sum;
    return 0;
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
    if ((k = sf_line(f, 1)) <= 0 || sf_words(f->buf, w, 32) != 2 ||
        strcmp(w[0], SHARD_MAGIC) != 0) {
        if (k >= 0)
            sf_fail(f, 1, "not a topokit shard file (made by a tool's --shard)");
        return -1;
    }
    if (num(w[1], 1, INT32_MAX, &v) != 0 || v != SHARD_FORMAT) {
        sf_fail(f, 1, "shard format %s: this topokit reads format %d", w[1], SHARD_FORMAT);
        return -1;
    }
    for (int h = 0; hdr_keys[h]; h++) {
        if ((k = sf_line(f, 1)) <= 0 || (n = sf_words(f->buf, w, 32)) != 2 ||
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
    if ((k = sf_line(f, 1)) <= 0 || sf_words(f->buf, w, 32) != 3 || strcmp(w[0], "shard") != 0 ||
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
        n = sf_words(f->buf, w, 32);
        if (n >= 1 && strcmp(w[0], "end") == 0) {
            static const char *const keys[] = {"graphs", "jobs", "hash", NULL};
            char *val[3];
            int64_t g2, j2;
            uint64_t hh;
            if (pairs(w, n, 1, keys, val) != 0 || num(val[0], 0, INT64_MAX, &g2) != 0 ||
                num(val[1], 0, INT64_MAX, &j2) != 0 || sf_hex64(val[2], &hh) != 0) {
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
                num(val[1], 1, LONG_MAX, &ix) != 0 || sf_hex64(val[2], &r->hash) != 0 ||
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
            r->kind = 'u';
            r->step = 1;
            if (num(w[1], 1, INT64_MAX, &v) != 0 || v != njobs + 1 ||
                pairs(w, n, 2, ukeys, val) != 0 || num(val[0], 0, INT64_MAX, &r->units) != 0 ||
                num(val[1], 0, r->units, &r->lo) != 0 ||
                num(val[2], r->lo, r->units, &r->hi) != 0 || sf_hex64(val[3], &r->hash) != 0) {
                sf_fail(f, f->line, "malformed units line");
                return -1;
            }
            njobs++;
            if (rec_units(f, r) != 0)
                return -1;
            continue;
        }
        if (n >= 2 && strcmp(w[0], "dealt") == 0) {
            static const char *const dkeys[] = {"count", "first", "hash", NULL};
            char *val[3];
            r->kind = 'd';
            if (num(w[1], 1, INT64_MAX, &v) != 0 || v != njobs + 1 ||
                pairs(w, n, 2, dkeys, val) != 0 ||
                num(val[0], 0, INT64_MAX - dealt, &r->units) != 0 ||
                num(val[1], 0, INT64_MAX, &r->first) != 0 || sf_hex64(val[2], &r->hash) != 0) {
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
            if (rec_units(f, r) != 0)
                return -1;
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
            sf_hex64(val[4], &r->hash) != 0 || num(val[5], 0, r->units, &r->lo) != 0 ||
            num(val[6], r->lo, r->units, &r->hi) != 0 || num(val[7], 0, TK_EINTERNAL, &stv) != 0 ||
            sf_hex64(val[8], &r->sum) != 0) {
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
            if ((k = sf_line(f, 1)) <= 0 || (n = sf_words(f->buf, w, 32)) != 4 ||
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
    if ((k = sf_line(&f, 0)) <= 0 || sf_words(f.buf, w, 4) != 2 || strcmp(w[0], SHARD_MAGIC) != 0) {
        if (k >= 0)
            sf_fail(&f, 1, "not a topokit shard file (made by a tool's --shard)");
        sf_close(&f);
        return -1;
    }
    if ((k = sf_line(&f, 0)) <= 0 || sf_words(f.buf, w, 4) != 2 || strcmp(w[0], "tool") != 0 ||
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
int sf_load(const char *tool, int nfiles, char **paths, sfile_t **files)
{
    sfile_t *fs = calloc((size_t)nfiles, sizeof *fs);
    char a1[512], a2[512];
    if (!fs) {
        cli_errorf("out of memory");
        return -1;
    }
    *files = fs; /* (reachable until exit, whatever happens) */
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
    *files = by;
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
    return 0;
}
