/*
 * workload.c - the flows of the dynamic mode (tk_sim.h, "Dynamic mode"):
 * the workload object, the workload file (read and write) and Poisson
 * arrivals per server.
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_sim.h"
#include "core/io_internal.h"

/* ------------------------------------------------------------------------ */
/* The workload object. */

tk_status_t tk_sim_workload_new(int64_t nservers, tk_sim_workload_t **out, tk_error_t *err)
{
    if (nservers < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "servers=%" PRId64 ": a workload needs at least one server", nservers);
    tk_sim_workload_t *w = calloc(1, sizeof *w);
    if (!w)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    w->nservers = nservers;
    *out = w;
    return TK_OK;
}

void tk_sim_workload_free(tk_sim_workload_t *w)
{
    if (!w)
        return;
    free(w->f);
    free(w);
}

static tk_status_t wl_reserve(tk_sim_workload_t *w, int64_t need, tk_error_t *err)
{
    if (need <= w->alloc)
        return TK_OK;
    int64_t na = w->alloc ? w->alloc : 256;
    while (na < need)
        na *= 2;
    tk_sim_arrival_t *f = tk_realloc_array(w->f, (size_t)na, sizeof *f);
    if (!f)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (%" PRId64 " flows)", na);
    w->f = f;
    w->alloc = na;
    return TK_OK;
}

/* The checks of one flow, with the messages the reader reports at a line
 * (where and line as tk_error_set takes them). */
static tk_status_t wl_check(const tk_sim_workload_t *w, double time, int64_t src, int64_t dst,
                            double size, const char *where, long line, tk_error_t *err)
{
    int64_t ns = w->nservers;

    if (!isfinite(time) || time < 0)
        return tk_error_set(err, TK_ERANGE, where, line, "time %g: must be a finite number >= 0",
                            time);
    if (src < 0 || src >= ns || dst < 0 || dst >= ns)
        return tk_error_set(err, TK_ERANGE, where, line,
                            "unknown server %" PRId64 " (servers are 0..%" PRId64 ")",
                            src < 0 || src >= ns ? src : dst, ns - 1);
    if (src == dst)
        return tk_error_set(err, TK_ERANGE, where, line,
                            "source and destination are both server %" PRId64, src);
    if (!isfinite(size) || size <= 0)
        return tk_error_set(err, TK_ERANGE, where, line, "size %g: must be a finite number > 0",
                            size);
    if (w->n > 0 && time < w->f[w->n - 1].time)
        return tk_error_set(err, TK_EFORMAT, where, line,
                            "time %.17g is before the previous flow's %.17g "
                            "(flows must be in time order)",
                            time, w->f[w->n - 1].time);
    return TK_OK;
}

static tk_status_t wl_add(tk_sim_workload_t *w, double time, int64_t src, int64_t dst, double size,
                          const char *where, long line, tk_error_t *err)
{
    tk_status_t st = wl_check(w, time, src, dst, size, where, line, err);
    if (st == TK_OK)
        st = wl_reserve(w, w->n + 1, err);
    if (st != TK_OK)
        return st;
    w->f[w->n].time = time;
    w->f[w->n].src = src;
    w->f[w->n].dst = dst;
    w->f[w->n].size = size;
    w->n++;
    return TK_OK;
}

tk_status_t tk_sim_workload_add(tk_sim_workload_t *w, double time, int64_t src, int64_t dst,
                                double size, tk_error_t *err)
{
    return wl_add(w, time, src, dst, size, NULL, 0, err);
}

/* ------------------------------------------------------------------------ */
/* The workload file. */

static char *next_tok(char **s)
{
    char *p = *s;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f')
        p++;
    if (!*p) {
        *s = p;
        return NULL;
    }
    char *t = p;
    while (*p && *p != ' ' && *p != '\t' && *p != '\r' && *p != '\v' && *p != '\f')
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return t;
}

/* A decimal number (strtod's syntax, the whole token; "inf", "nan" and
 * an overflow to infinity parse, the range checks refuse them).  0 on
 * success. */
static int parse_num(const char *tok, double *v)
{
    char *end;
    *v = strtod(tok, &end);
    return end == tok || *end ? -1 : 0;
}

/* One data line s (comment already cut off, not blank). */
static tk_status_t read_line(tk_sim_workload_t *w, char *s, const char *name, long line,
                             tk_error_t *err)
{
    char *rest = s, *tok[4];
    double time, size;
    int64_t src, dst;

    for (int i = 0; i < 4; i++)
        tok[i] = next_tok(&rest);
    if (!tok[3] || next_tok(&rest))
        return tk_error_set(err, TK_EFORMAT, name, line,
                            "a flow line must be 'time src dst bytes'");
    if (parse_num(tok[0], &time))
        return tk_error_set(err, TK_EFORMAT, name, line, "bad time '%s'", tok[0]);
    if (tk_io_parse_i64(tok[1], &src) || tk_io_parse_i64(tok[2], &dst))
        return tk_error_set(err, TK_EFORMAT, name, line, "bad server '%s'",
                            tk_io_parse_i64(tok[1], &src) ? tok[1] : tok[2]);
    if (parse_num(tok[3], &size))
        return tk_error_set(err, TK_EFORMAT, name, line, "bad size '%s'", tok[3]);
    return wl_add(w, time, src, dst, size, name, line, err);
}

tk_status_t tk_sim_workload_read(FILE *fp, const char *name, int64_t nservers,
                                 tk_sim_workload_t **out, tk_error_t *err)
{
    tk_sim_workload_t *w = NULL;
    char *buf = NULL;
    size_t cap = 0;
    long line = 0;
    ssize_t len;
    tk_status_t st;

    if (!name)
        name = "<stdin>";
    if ((st = tk_sim_workload_new(nservers, &w, err)) != TK_OK)
        return st;
    while ((len = getline(&buf, &cap, fp)) >= 0) {
        line++;
        if (memchr(buf, '\0', (size_t)len)) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "NUL byte in a text file");
            goto fail;
        }
        char *hash = strchr(buf, '#'), *s = buf;
        if (hash)
            *hash = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\v' || *s == '\f')
            s++;
        if (!*s)
            continue;
        if ((st = read_line(w, s, name, line, err)) != TK_OK)
            goto fail;
    }
    if (ferror(fp)) {
        st = tk_error_set(err, TK_EIO, name, 0, "read error: %s", strerror(errno));
        goto fail;
    }
    free(buf);
    *out = w;
    return TK_OK;
fail:
    free(buf);
    tk_sim_workload_free(w);
    return st;
}

tk_status_t tk_sim_workload_write(FILE *fp, const tk_sim_workload_t *w, tk_error_t *err)
{
    char a[40], b[40];

    fprintf(fp, "# topokit workload: time src dst bytes (%" PRId64 " flows, %" PRId64 " servers)\n",
            w->n, w->nservers);
    for (int64_t i = 0; i < w->n; i++) {
        const tk_sim_arrival_t *f = &w->f[i];
        fprintf(fp, "%s\t%" PRId64 "\t%" PRId64 "\t%s\n", tk_io_fmt_double(f->time, a, sizeof a),
                f->src, f->dst, tk_io_fmt_double(f->size, b, sizeof b));
    }
    if (ferror(fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "write error: %s", strerror(errno));
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Poisson arrivals. */

void tk_sim_poisson_init(tk_sim_poisson_t *p)
{
    memset(p, 0, sizeof *p);
    p->rho = 0.5;
    p->sizes = TK_SIM_SIZES_FIXED;
    p->mean = 1.0;
    p->alpha = 2.0;
    p->seed = 1;
}

/* A number of the size text up to ':' or the end, finite and > lo. */
static int sizes_num(const char **s, double lo, double *v)
{
    char *end;
    errno = 0;
    *v = strtod(*s, &end);
    if (end == *s || (*end && *end != ':') || errno == ERANGE || !isfinite(*v) || *v <= lo)
        return -1;
    *s = end;
    return 0;
}

tk_status_t tk_sim_sizes_parse(const char *text, tk_sim_poisson_t *p, tk_error_t *err)
{
    const char *s;
    double a, m;

    if (strncmp(text, "fixed:", 6) == 0) {
        s = text + 6;
        if (sizes_num(&s, 0, &m) || *s)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "%s: expected fixed:S with the size S a finite number > 0", text);
        p->sizes = TK_SIM_SIZES_FIXED;
        p->mean = m;
        return TK_OK;
    }
    if (strncmp(text, "pareto:", 7) == 0) {
        s = text + 7;
        if (sizes_num(&s, 1, &a) || *s != ':')
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "%s: expected pareto:ALPHA:S with the shape ALPHA > 1", text);
        s++;
        if (sizes_num(&s, 0, &m) || *s)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "%s: expected pareto:ALPHA:S with the mean S a finite number > 0",
                                text);
        p->sizes = TK_SIM_SIZES_PARETO;
        p->alpha = a;
        p->mean = m;
        return TK_OK;
    }
    return tk_error_set(err, TK_EINVAL, NULL, 0,
                        "%s: unknown size distribution (expected fixed:S or pareto:ALPHA:S)", text);
}

static tk_status_t poisson_check(int64_t nservers, const tk_sim_poisson_t *p, tk_error_t *err)
{
    if (nservers < 2)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "servers=%" PRId64 ": Poisson arrivals need at least 2 servers",
                            nservers);
    if (!(p->rho > 0 && p->rho <= 1))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "rho=%g: must be in (0, 1]", p->rho);
    if (!(isfinite(p->mean) && p->mean > 0))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "mean size %g: must be a finite number > 0",
                            p->mean);
    if (p->sizes == TK_SIM_SIZES_PARETO && !(isfinite(p->alpha) && p->alpha > 1))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "alpha=%g: the Pareto shape must be > 1",
                            p->alpha);
    if (p->sizes != TK_SIM_SIZES_FIXED && p->sizes != TK_SIM_SIZES_PARETO)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "unknown size distribution %d", (int)p->sizes);
    if (!(isfinite(p->horizon) && p->horizon >= 0))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "horizon %g: must be a finite number >= 0",
                            p->horizon);
    if (p->count < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "count=%" PRId64 ": must be >= 0", p->count);
    if (p->horizon == 0 && p->count == 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "Poisson arrivals need a horizon or a count of flows");
    return TK_OK;
}

/* A generated flow and its merge key (time, src, number at its server). */
typedef struct gen_flow {
    tk_sim_arrival_t f;
    int64_t seq;
} gen_flow_t;

static int gen_cmp(const void *a, const void *b)
{
    const gen_flow_t *x = a, *y = b;
    if (x->f.time != y->f.time)
        return x->f.time < y->f.time ? -1 : 1;
    if (x->f.src != y->f.src)
        return x->f.src < y->f.src ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* One server's flows at times < horizon, appended to *v (*n used, *cap
 * allocated, at most `limit` in all). */
static tk_status_t gen_server(int64_t nservers, const tk_sim_poisson_t *p, double horizon,
                              int64_t src, gen_flow_t **v, int64_t *n, int64_t *cap, int64_t limit,
                              tk_error_t *err)
{
    tk_rng_t *rng;
    double rate = p->rho / p->mean, t = 0;
    double xm = p->mean * (p->alpha - 1) / p->alpha;
    tk_status_t st = tk_rng_new(&rng, p->seed, (uint64_t)src, err);

    if (st != TK_OK)
        return st;
    for (int64_t seq = 0;; seq++) {
        t += -log1p(-tk_rng_uniform(rng)) / rate; /* U in [0, 1): 1 - U in (0, 1] */
        if (!(t < horizon))
            break;
        int64_t dst = (int64_t)tk_rng_below(rng, (uint64_t)nservers - 1);
        if (dst >= src)
            dst++;
        double size = p->mean;
        if (p->sizes == TK_SIM_SIZES_PARETO)
            size = xm * pow(1.0 - tk_rng_uniform(rng), -1.0 / p->alpha);
        if (*n >= *cap) {
            int64_t nc = *cap ? *cap * 2 : 1024;
            gen_flow_t *nv = *n >= limit ? NULL : tk_realloc_array(*v, (size_t)nc, sizeof *nv);
            if (!nv) {
                st = *n >= limit ? tk_error_set(err, TK_ELIMIT, NULL, 0,
                                                "more than %" PRId64 " flows: over the memory "
                                                "limit",
                                                limit)
                                 : tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                break;
            }
            *v = nv;
            *cap = nc;
        }
        (*v)[*n].f.time = t;
        (*v)[*n].f.src = src;
        (*v)[*n].f.dst = dst;
        (*v)[*n].f.size = size;
        (*v)[*n].seq = seq;
        (*n)++;
    }
    tk_rng_free(rng);
    return st;
}

/* Every server's flows before `horizon`, merged; *nout of them. */
static tk_status_t gen_all(int64_t nservers, const tk_sim_poisson_t *p, double horizon,
                           int64_t limit, gen_flow_t **out, int64_t *nout, tk_error_t *err)
{
    gen_flow_t *v = NULL;
    int64_t n = 0, cap = 0;
    tk_status_t st = TK_OK;

    for (int64_t s = 0; s < nservers && st == TK_OK; s++)
        st = gen_server(nservers, p, horizon, s, &v, &n, &cap, limit, err);
    if (st != TK_OK) {
        free(v);
        return st;
    }
    if (n > 1)
        qsort(v, (size_t)n, sizeof *v, gen_cmp);
    *out = v;
    *nout = n;
    return TK_OK;
}

tk_status_t tk_sim_workload_poisson(int64_t nservers, const tk_sim_poisson_t *p,
                                    tk_sim_workload_t **out, tk_error_t *err)
{
    tk_status_t st = poisson_check(nservers, p, err);
    if (st != TK_OK)
        return st;
    uint64_t mem = p->mem_limit ? p->mem_limit : tk_memory_limit_default();
    int64_t limit = INT32_MAX;
    if (mem && mem / (2 * sizeof(gen_flow_t)) < (uint64_t)limit)
        limit = (int64_t)(mem / (2 * sizeof(gen_flow_t)));
    /* Flows per time unit in all, and the expected number in the run. */
    double per_t = (double)nservers * p->rho / p->mean;
    double horizon = p->horizon > 0 ? p->horizon : INFINITY;
    double want = p->count > 0 ? (double)p->count : per_t * horizon;
    if (p->horizon > 0 && per_t * p->horizon < want)
        want = per_t * p->horizon;
    if (want > (double)limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "about %.3g flows expected: more than the memory limit allows (%" PRId64
                            ")",
                            want, limit);
    /* With a count and no horizon: a horizon with some margin over the
     * expected time of count arrivals, doubled until it holds them. */
    double h = p->horizon > 0 ? p->horizon : ((double)p->count * 1.1 + 64) / per_t;
    gen_flow_t *v = NULL;
    int64_t n = 0;
    for (;;) {
        if ((st = gen_all(nservers, p, h, limit, &v, &n, err)) != TK_OK)
            return st;
        if (p->horizon > 0 || n >= p->count)
            break;
        free(v);
        v = NULL;
        h *= 2;
    }
    if (p->count > 0 && n > p->count)
        n = p->count;
    tk_sim_workload_t *w = NULL;
    if ((st = tk_sim_workload_new(nservers, &w, err)) == TK_OK &&
        (st = wl_reserve(w, n > 0 ? n : 1, err)) == TK_OK) {
        for (int64_t i = 0; i < n; i++)
            w->f[i] = v[i].f;
        w->n = n;
    }
    free(v);
    if (st != TK_OK) {
        tk_sim_workload_free(w);
        return st;
    }
    *out = w;
    return TK_OK;
}
