/*
 * job.c - jobs (topo-job(1)): parse a job spec, read its server list and
 * communication file, place jobs on the machine's servers and map their
 * application traffic to one server-level pattern.
 *
 * The Dragonfly motivation is Fuentes, Vallejo, Camarero, Beivide and
 * Valero, "Network Unfairness in Dragonfly Topologies" (Section 7.2: a job
 * on h+1 consecutive groups turns uniform traffic into ADVc in one group).
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"

static const char *const place_names[] = {"consecutive", "random", "spread", "file"};
static const char *const app_names[] = {"all-to-all",   "stencil", "ring-allreduce",
                                        "rd-allreduce", "perm",    "file"};

void tk_job_destroy(tk_job_t *job)
{
    if (!job)
        return;
    free(job->servers);
    free(job->servers_line);
    free(job->servers_name);
    free(job->comm);
    free(job->servers_path);
    free(job->comm_path);
    memset(job, 0, sizeof *job);
}

static void spec_add(tk_job_t *job, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void spec_add(tk_job_t *job, const char *fmt, ...)
{
    size_t len = strlen(job->spec);
    va_list ap;

    if (len + 2 >= sizeof job->spec)
        return;
    if (len)
        job->spec[len++] = ' ';
    va_start(ap, fmt);
    vsnprintf(job->spec + len, sizeof job->spec - len, fmt, ap);
    va_end(ap);
}

/* A positive finite double value of key (def when absent). */
static tk_status_t kv_pos_double(tk_kv_t *kv, const char *key, double def, double max, double *out,
                                 tk_error_t *err)
{
    const char *v;
    char *end;
    tk_status_t st = tk_kv_str(kv, key, 1, NULL, &v, err);

    if (st != TK_OK)
        return st;
    if (!v) {
        *out = def;
        return TK_OK;
    }
    errno = 0;
    *out = strtod(v, &end);
    if (end == v || *end || errno || !isfinite(*out) || *out <= 0 || *out > max)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%s: must be a number in (0, %g]", key, v,
                            max);
    return TK_OK;
}

static tk_status_t kv_choice(tk_kv_t *kv, const char *key, const char *def,
                             const char *const *names, int count, int *out, tk_error_t *err)
{
    const char *v;
    tk_status_t st = tk_kv_str(kv, key, 1, def, &v, err);

    if (st != TK_OK)
        return st;
    for (int i = 0; i < count; i++)
        if (strcmp(v, names[i]) == 0) {
            *out = i;
            return TK_OK;
        }
    char list[256] = "";
    for (int i = 0; i < count; i++)
        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                 i == 0           ? ""
                 : i == count - 1 ? " or "
                                  : ", ",
                 names[i]);
    return tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%s: must be %s", key, v, list);
}

/* grid=P[xQ[xR]]: 1..3 sizes >= 1. */
static tk_status_t parse_grid(const char *v, tk_job_t *job, tk_error_t *err)
{
    const char *s = v;

    job->dims = 0;
    for (;;) {
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (end == s || errno || x < 1 || x > INT32_MAX || job->dims == 3 || (*end && *end != 'x'))
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "grid=%s: must be P, PxQ or PxQxR with sizes >= 1", v);
        job->grid[job->dims++] = x;
        if (!*end)
            break;
        s = end + 1;
    }
    return TK_OK;
}

static tk_status_t parse_words(tk_job_t *job, tk_kv_t *kv, tk_error_t *err)
{
    const char *grid = NULL;
    int place, app;
    int64_t ranks = 0, wrap;
    tk_status_t st;

    if ((st = kv_choice(kv, "app", "all-to-all", app_names, 6, &app, err)) != TK_OK)
        return st;
    job->app = (tk_app_t)app;
    if (job->app == TK_APP_STENCIL) {
        if ((st = tk_kv_str(kv, "grid", 0, NULL, &grid, err)) != TK_OK)
            return st;
        if ((st = parse_grid(grid, job, err)) != TK_OK)
            return st;
        int64_t prod = 1;
        for (int d = 0; d < job->dims; d++)
            prod = prod > INT32_MAX ? prod : prod * job->grid[d];
        if (prod < 2 || prod > INT32_MAX)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "grid=%s: %" PRId64 " processes (a job has 2 to 2147483647)", grid,
                                prod);
        if ((st = tk_kv_int(kv, "j", 2, INT32_MAX, 1, prod, &ranks, err)) != TK_OK)
            return st;
        if (ranks != prod)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "grid=%s: %" PRId64 " processes, but j=%" PRId64, grid, prod,
                                ranks);
        if ((st = tk_kv_int(kv, "wrap", 0, 1, 1, 0, &wrap, err)) != TK_OK)
            return st;
        job->wrap = (int)wrap;
    } else if ((st = tk_kv_int(kv, "j", 2, INT32_MAX, 0, 0, &ranks, err)) != TK_OK) {
        return st;
    }
    job->ranks = ranks;
    if ((st = kv_choice(kv, "place", "consecutive", place_names, 4, &place, err)) != TK_OK)
        return st;
    job->place = (tk_place_t)place;
    spec_add(job, "j=%" PRId64 " place=%s", ranks, place_names[place]);
    if (job->place == TK_PLACE_CONSECUTIVE) {
        if ((st = tk_kv_int(kv, "start", 0, INT64_MAX / 4, 1, 0, &job->start, err)) != TK_OK)
            return st;
        spec_add(job, "start=%" PRId64, job->start);
    }
    if (job->place == TK_PLACE_LIST) {
        const char *v;
        if ((st = tk_kv_str(kv, "servers", 0, NULL, &v, err)) != TK_OK)
            return st;
        if (!(job->servers_path = strdup(v)))
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        spec_add(job, "servers=%s", job->servers_path);
    }
    spec_add(job, "app=%s", app_names[app]);
    if (job->app == TK_APP_STENCIL)
        spec_add(job, "grid=%s wrap=%d", grid, job->wrap);
    if (job->app == TK_APP_LIST) {
        const char *v;
        if ((st = tk_kv_str(kv, "comm", 0, NULL, &v, err)) != TK_OK)
            return st;
        if (!(job->comm_path = strdup(v)))
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        spec_add(job, "comm=%s", job->comm_path);
    } else {
        char b[64];
        if ((st = kv_pos_double(kv, "bytes", 1.0, 1e300, &job->bytes, err)) != TK_OK)
            return st;
        tk_pattern_fmt_double(b, sizeof b, job->bytes);
        spec_add(job, "bytes=%s", b);
    }
    if ((st = kv_pos_double(kv, "rate", 1.0, 1.0, &job->rate, err)) != TK_OK)
        return st;
    if (job->rate != 1.0) {
        char b[64];
        tk_pattern_fmt_double(b, sizeof b, job->rate);
        spec_add(job, "rate=%s", b);
    }
    return tk_kv_check_unused(kv, "a job", err);
}

tk_status_t tk_job_parse(const char *text, tk_job_t *job, tk_error_t *err)
{
    char *copy, **words = NULL, *save = NULL;
    int nw = 0;
    tk_kv_t *kv = NULL;
    tk_status_t st;

    memset(job, 0, sizeof *job);
    copy = strdup(text ? text : "");
    if (copy)
        words = tk_malloc_array(strlen(copy) / 2 + 2, sizeof *words);
    if (!copy || !words) {
        free(copy);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (char *t = strtok_r(copy, " \t\n", &save); t; t = strtok_r(NULL, " \t\n", &save))
        words[nw++] = t;
    st = tk_kv_parse(nw, words, &kv, err);
    if (st == TK_OK)
        st = parse_words(job, kv, err);
    tk_kv_free(kv);
    free(words);
    free(copy);
    if (st != TK_OK)
        tk_job_destroy(job);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The two files. */

/* The next line with content (comment and blank lines skipped), stripped of
 * its comment; NULL at the end (or on error: *st set). */
static char *next_line(FILE *fp, char **buf, size_t *cap, long *line, const char *name,
                       tk_status_t *st, tk_error_t *err)
{
    *st = TK_OK;
    while (getline(buf, cap, fp) >= 0) {
        ++*line;
        char *s = *buf, *hash = strchr(s, '#');
        if (hash)
            *hash = '\0';
        s += strspn(s, " \t\r\n");
        if (*s)
            return s;
    }
    if (ferror(fp))
        *st = tk_error_set(err, TK_EIO, name, 0, "read error");
    return NULL;
}

/* One integer token at *s (advanced); 0 ok. */
static int read_int(char **s, int64_t *v)
{
    char *end;
    *s += strspn(*s, " \t");
    errno = 0;
    long long x = strtoll(*s, &end, 10);
    if (end == *s || errno || (*end && !strchr(" \t\r\n", *end)))
        return -1;
    *v = x;
    *s = end;
    return 0;
}

static int at_end(const char *s)
{
    return s[strspn(s, " \t\r\n")] == '\0';
}

tk_status_t tk_job_read_servers(FILE *fp, const char *name, int64_t nserv, tk_job_t *job,
                                tk_error_t *err)
{
    char *buf = NULL, *s;
    size_t cap = 0;
    long line = 0;
    int64_t k = 0, j = job->ranks;
    long *seen = NULL; /* line of each server taken (0: none) */
    tk_status_t st = TK_OK;

    free(job->servers);
    free(job->servers_line);
    free(job->servers_name);
    job->servers = tk_malloc_array((size_t)j, sizeof *job->servers);
    job->servers_line = tk_malloc_array((size_t)j, sizeof *job->servers_line);
    job->servers_name = strdup(name);
    seen = tk_calloc_array((size_t)(nserv > 0 ? nserv : 1), sizeof *seen);
    if (!job->servers || !job->servers_line || !job->servers_name || !seen) {
        free(seen);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    while ((s = next_line(fp, &buf, &cap, &line, name, &st, err)) != NULL) {
        int64_t v;
        if (read_int(&s, &v) != 0 || !at_end(s)) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "expected one server id");
            break;
        }
        if (v < 0 || v >= nserv) {
            st = tk_error_set(err, TK_ERANGE, name, line,
                              "server %" PRId64 " out of range (the topology has %" PRId64
                              " servers: 0..%" PRId64 ")",
                              v, nserv, nserv - 1);
            break;
        }
        if (seen[v]) {
            st = tk_error_set(err, TK_EFORMAT, name, line,
                              "server %" PRId64 " listed twice (first at line %ld)", v, seen[v]);
            break;
        }
        if (k == j) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "more than j=%" PRId64 " servers", j);
            break;
        }
        seen[v] = line;
        job->servers[k] = v;
        job->servers_line[k++] = line;
    }
    if (st == TK_OK && k < j)
        st = tk_error_set(err, TK_EFORMAT, name, line,
                          "%" PRId64 " servers listed, j=%" PRId64 " needs %" PRId64, k, j, j);
    free(buf);
    free(seen);
    return st;
}

static int cmp_demand(const void *a, const void *b)
{
    const tk_demand_t *x = a, *y = b;
    if (x->src != y->src)
        return (x->src > y->src) - (x->src < y->src);
    return (x->dst > y->dst) - (x->dst < y->dst);
}

/* Sort by (src, dst) and add up repeated pairs. */
static int64_t merge_demands(tk_demand_t *d, int64_t len)
{
    int64_t k = 0;

    if (len == 0)
        return 0;
    qsort(d, (size_t)len, sizeof *d, cmp_demand);
    for (int64_t i = 1; i < len; i++) {
        if (d[i].src == d[k].src && d[i].dst == d[k].dst)
            d[k].w += d[i].w;
        else
            d[++k] = d[i];
    }
    return k + 1;
}

tk_status_t tk_job_read_comm(FILE *fp, const char *name, tk_job_t *job, tk_error_t *err)
{
    char *buf = NULL, *s;
    size_t cap = 0;
    long line = 0;
    int64_t len = 0, alloc = 0;
    tk_demand_t *d = NULL;
    tk_status_t st = TK_OK;

    while ((s = next_line(fp, &buf, &cap, &line, name, &st, err)) != NULL) {
        int64_t a, b;
        char *end;
        if (read_int(&s, &a) != 0 || read_int(&s, &b) != 0) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "expected 'RANK RANK BYTES'");
            break;
        }
        s += strspn(s, " \t");
        errno = 0;
        double w = strtod(s, &end);
        if (end == s || !at_end(end)) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "expected 'RANK RANK BYTES'");
            break;
        }
        if (a < 0 || a >= job->ranks || b < 0 || b >= job->ranks) {
            st = tk_error_set(err, TK_ERANGE, name, line,
                              "rank %" PRId64 " out of range (j=%" PRId64 ": ranks 0..%" PRId64 ")",
                              a < 0 || a >= job->ranks ? a : b, job->ranks, job->ranks - 1);
            break;
        }
        if (a == b) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "rank %" PRId64 " sends to itself", a);
            break;
        }
        if (errno || !isfinite(w) || w <= 0) {
            st = tk_error_set(err, TK_EFORMAT, name, line, "bytes must be a finite number > 0");
            break;
        }
        if (len == alloc) {
            int64_t na = alloc ? 2 * alloc : 64;
            tk_demand_t *nd = tk_realloc_array(d, (size_t)na, sizeof *d);
            if (!nd) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                break;
            }
            d = nd;
            alloc = na;
        }
        d[len++] = (tk_demand_t){a, b, w};
    }
    if (st == TK_OK && len == 0)
        st = tk_error_set(err, TK_EFORMAT, name, line, "no 'RANK RANK BYTES' line");
    free(buf);
    if (st != TK_OK) {
        free(d);
        return st;
    }
    free(job->comm);
    job->comm = d;
    job->ncomm = merge_demands(d, len);
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Application traffic. */

typedef struct dlist {
    tk_demand_t *d;
    int64_t len, alloc;
} dlist_t;

static int dl_add(dlist_t *l, int64_t a, int64_t b, double w)
{
    if (l->len == l->alloc) {
        int64_t na = l->alloc ? 2 * l->alloc : 64;
        tk_demand_t *nd = tk_realloc_array(l->d, (size_t)na, sizeof *nd);
        if (!nd)
            return -1;
        l->d = nd;
        l->alloc = na;
    }
    l->d[l->len++] = (tk_demand_t){a, b, w};
    return 0;
}

/* Stencil: rank (i0, i1, i2) = (i0 g1 + i1) g2 + i2 (last index fastest, as
 * MPI_Cart_create); S to the rank one step up and one step down in every
 * dimension, wrapped or not; a neighbour that is the rank itself is
 * skipped, one reached twice (a wrapped dimension of 2) gets 2 S. */
static int gen_stencil(const tk_job_t *job, dlist_t *l)
{
    int64_t g[3] = {1, 1, 1};
    for (int d = 0; d < job->dims; d++)
        g[d] = job->grid[d];
    for (int64_t r = 0; r < job->ranks; r++) {
        int64_t c[3] = {r / (g[1] * g[2]), r / g[2] % g[1], r % g[2]};
        for (int d = 0; d < job->dims; d++)
            for (int dir = -1; dir <= 1; dir += 2) {
                int64_t x[3] = {c[0], c[1], c[2]};
                x[d] += dir;
                if (x[d] < 0 || x[d] >= g[d]) {
                    if (!job->wrap)
                        continue;
                    x[d] = (x[d] + g[d]) % g[d];
                }
                int64_t t = (x[0] * g[1] + x[1]) * g[2] + x[2];
                if (t != r && dl_add(l, r, t, job->bytes))
                    return -1;
            }
    }
    return 0;
}

/* Recursive doubling (MPICH's allreduce): with p = 2^floor(log2 J) and
 * e = J - p, rank 2i sends its vector to 2i+1 for i < e and gets the result
 * back; the p remaining ranks (the odd ones below 2e, then all from 2e)
 * exchange the whole vector with the partner whose new rank differs in bit
 * k, for k = 0 .. log2 p - 1. */
static int gen_rd(const tk_job_t *job, dlist_t *l)
{
    int64_t J = job->ranks, p = 1, e;
    double S = job->bytes;

    while (p * 2 <= J)
        p *= 2;
    e = J - p;
    for (int64_t i = 0; i < e; i++)
        if (dl_add(l, 2 * i, 2 * i + 1, S) || dl_add(l, 2 * i + 1, 2 * i, S))
            return -1;
    for (int64_t nr = 0; nr < p; nr++) {
        int64_t r = nr < e ? 2 * nr + 1 : nr + e;
        for (int64_t bit = 1; bit < p; bit *= 2) {
            int64_t pn = nr ^ bit, t = pn < e ? 2 * pn + 1 : pn + e;
            if (dl_add(l, r, t, S))
                return -1;
        }
    }
    return 0;
}

tk_status_t tk_job_traffic(const tk_job_t *job, uint64_t seed, int index, tk_demand_t **out,
                           int64_t *len, tk_error_t *err)
{
    dlist_t l = {NULL, 0, 0};
    int64_t J = job->ranks, *perm = NULL;
    int fail = 0;
    tk_status_t st = TK_OK;

    switch (job->app) {
    case TK_APP_ALL_TO_ALL:
        if ((double)J * (double)(J - 1) * sizeof(tk_demand_t) >
            (double)(tk_memory_limit_default() ? tk_memory_limit_default() : SIZE_MAX / 4))
            return tk_error_set(err, TK_ELIMIT, NULL, 0,
                                "j=%" PRId64 ": %.4g all-to-all demands exceed the memory limit", J,
                                (double)J * (double)(J - 1));
        for (int64_t a = 0; a < J && !fail; a++)
            for (int64_t b = 0; b < J && !fail; b++)
                if (a != b)
                    fail = dl_add(&l, a, b, job->bytes);
        break;
    case TK_APP_STENCIL:
        fail = gen_stencil(job, &l);
        break;
    case TK_APP_RING:
        for (int64_t r = 0; r < J && !fail; r++)
            fail = dl_add(&l, r, (r + 1) % J, 2.0 * (double)(J - 1) / (double)J * job->bytes);
        break;
    case TK_APP_RD:
        fail = gen_rd(job, &l);
        break;
    case TK_APP_PERM:
        if (!(perm = tk_malloc_array((size_t)J, sizeof *perm)))
            fail = 1;
        else if ((st = tkp_random_perm(seed, 2 * (uint64_t)index + 1, J, 1, perm, err)) != TK_OK)
            break;
        for (int64_t r = 0; r < J && !fail; r++)
            fail = dl_add(&l, r, perm[r], job->bytes);
        break;
    case TK_APP_LIST:
        if (!job->comm)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "app=file: the comm file was not read");
        for (int64_t k = 0; k < job->ncomm && !fail; k++)
            fail = dl_add(&l, job->comm[k].src, job->comm[k].dst, job->comm[k].w);
        break;
    }
    free(perm);
    if (fail && st == TK_OK)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if (st != TK_OK) {
        free(l.d);
        return st;
    }
    *len = merge_demands(l.d, l.len);
    *out = l.d;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Placement. */

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

/* The servers of every group in id order: order[gfirst[k] .. gfirst[k+1]-1]
 * for the k-th smallest group id. */
static tk_status_t group_lists(const tk_graph_t *g, const int64_t *first, int32_t *ngroups,
                               int64_t **gfirst, int64_t **order, tk_error_t *err)
{
    tk_id_t n = g->n;
    int32_t *ids = tk_malloc_array((size_t)n, sizeof *ids), G = 0;
    int64_t *gf = NULL, *ord = NULL, *pos = NULL;

    if (!ids)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    memcpy(ids, g->group, (size_t)n * sizeof *ids);
    qsort(ids, (size_t)n, sizeof *ids, cmp_i32);
    for (tk_id_t i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            ids[G++] = ids[i];
    gf = tk_calloc_array((size_t)G + 1, sizeof *gf);
    pos = tk_malloc_array((size_t)G, sizeof *pos);
    ord = tk_malloc_array((size_t)(first[n] > 0 ? first[n] : 1), sizeof *ord);
    if (!gf || !pos || !ord) {
        free(ids);
        free(gf);
        free(pos);
        free(ord);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (tk_id_t u = 0; u < n; u++) {
        int32_t *f = bsearch(&g->group[u], ids, (size_t)G, sizeof *ids, cmp_i32);
        gf[f - ids + 1] += first[u + 1] - first[u];
    }
    for (int32_t k = 0; k < G; k++) {
        gf[k + 1] += gf[k];
        pos[k] = gf[k];
    }
    for (tk_id_t u = 0; u < n; u++) {
        int32_t *f = bsearch(&g->group[u], ids, (size_t)G, sizeof *ids, cmp_i32);
        for (int64_t s = first[u]; s < first[u + 1]; s++)
            ord[pos[f - ids]++] = s;
    }
    free(ids);
    free(pos);
    *ngroups = G;
    *gfirst = gf;
    *order = ord;
    return TK_OK;
}

/* Place job k: its servers into out[0..J-1], marking them taken. */
static tk_status_t place_job(const tk_graph_t *g, const int64_t *first, const tk_job_t *job, int k,
                             uint64_t seed, char *taken, int64_t *nfree, int64_t *out,
                             tk_error_t *err)
{
    int64_t N = first[g->n], J = job->ranks, got = 0;
    tk_status_t st = TK_OK;

    if (J > *nfree)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "job %d: j=%" PRId64 ": only %" PRId64 " free servers (of %" PRId64 ")",
                            k + 1, J, *nfree, N);
    switch (job->place) {
    case TK_PLACE_CONSECUTIVE:
        if (job->start >= N)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "job %d: start=%" PRId64 ": the topology has %" PRId64
                                " servers (0..%" PRId64 ")",
                                k + 1, job->start, N, N - 1);
        for (int64_t s = job->start; s < N && got < J; s++)
            if (!taken[s])
                out[got++] = s;
        if (got < J)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "job %d: j=%" PRId64 ": only %" PRId64
                                " free servers from start=%" PRId64,
                                k + 1, J, got, job->start);
        break;
    case TK_PLACE_RANDOM: {
        int64_t *freel = tk_malloc_array((size_t)*nfree, sizeof *freel);
        int64_t *perm = tk_malloc_array((size_t)*nfree, sizeof *perm), f = 0;
        if (!freel || !perm)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        for (int64_t s = 0; s < N && !st; s++)
            if (!taken[s])
                freel[f++] = s;
        if (!st)
            st = tkp_random_perm(seed, 2 * (uint64_t)k, f, 0, perm, err);
        for (int64_t r = 0; r < J && !st; r++)
            out[got++] = freel[perm[r]];
        free(freel);
        free(perm);
        break;
    }
    case TK_PLACE_SPREAD: {
        int32_t G = 0;
        int64_t *gf = NULL, *ord = NULL, *cur = NULL;
        if (!g->group)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "job %d: place=spread: the topology has no groups", k + 1);
        if ((st = group_lists(g, first, &G, &gf, &ord, err)) != TK_OK)
            return st;
        if (!(cur = tk_malloc_array((size_t)G, sizeof *cur)))
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        for (int32_t x = 0; x < G && !st; x++)
            cur[x] = gf[x];
        /* Round-robin: each pass gives every group with a free server one
         * rank; J <= nfree, so the passes end. */
        while (!st && got < J)
            for (int32_t x = 0; x < G && got < J; x++) {
                while (cur[x] < gf[x + 1] && taken[ord[cur[x]]])
                    cur[x]++;
                if (cur[x] < gf[x + 1]) {
                    out[got] = ord[cur[x]++];
                    taken[out[got++]] = 1;
                }
            }
        for (int64_t r = 0; r < got; r++) /* marked again below */
            taken[out[r]] = 0;
        free(gf);
        free(ord);
        free(cur);
        break;
    }
    case TK_PLACE_LIST:
        if (!job->servers)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "job %d: place=file: the servers file was not read", k + 1);
        for (int64_t r = 0; r < J; r++) {
            int64_t s = job->servers[r];
            if (s >= N)
                return tk_error_set(
                    err, TK_ERANGE, job->servers_name, job->servers_line[r],
                    "server %" PRId64 " out of range (the topology has %" PRId64 " servers)", s, N);
            if (taken[s])
                return tk_error_set(err, TK_EINVAL, job->servers_name, job->servers_line[r],
                                    "server %" PRId64 " is taken by an earlier job", s);
            out[got++] = s;
        }
        break;
    }
    if (st != TK_OK)
        return st;
    for (int64_t r = 0; r < J; r++)
        taken[out[r]] = 1;
    *nfree -= J;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The pattern of all jobs. */

/* The largest send or receive total of the demands (rank indices < J). */
static double busiest(const tk_demand_t *d, int64_t len, int64_t J, double *tmp)
{
    double mx = 0;

    memset(tmp, 0, 2 * (size_t)J * sizeof *tmp);
    for (int64_t i = 0; i < len; i++) {
        tmp[d[i].src] += d[i].w;
        tmp[J + d[i].dst] += d[i].w;
    }
    for (int64_t r = 0; r < 2 * J; r++)
        mx = tmp[r] > mx ? tmp[r] : mx;
    return mx;
}

tk_status_t tk_jobs_pattern(const tk_graph_t *g, const tk_job_t *jobs, int njobs, uint64_t seed,
                            unsigned flags, tk_pattern_t **out, int64_t ***place, tk_error_t *err)
{
    int64_t *first = NULL, **pl = NULL, nfree, maxj = 0;
    char *taken = NULL, spec[4096];
    tk_demand_t **dem = NULL;
    int64_t *dlen = NULL;
    double *scale = NULL, *tmp = NULL, common = 0;
    tk_pattern_t *p = NULL;
    tk_status_t st;

    *out = NULL;
    if (place)
        *place = NULL;
    if (njobs < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "no job given");
    if ((st = tk_pattern_server_first(g, &first, err)) != TK_OK)
        return st;
    nfree = first[g->n];
    if (nfree < 1) {
        free(first);
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "the topology has no servers");
    }
    for (int k = 0; k < njobs; k++)
        maxj = jobs[k].ranks > maxj ? jobs[k].ranks : maxj;
    taken = calloc((size_t)nfree, 1);
    pl = tk_calloc_array((size_t)njobs, sizeof *pl);
    dem = tk_calloc_array((size_t)njobs, sizeof *dem);
    dlen = tk_calloc_array((size_t)njobs, sizeof *dlen);
    scale = tk_calloc_array((size_t)njobs, sizeof *scale);
    if (!taken || !pl || !dem || !dlen || !scale)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int k = 0; k < njobs && !st; k++) {
        if (jobs[k].ranks > nfree) { /* before allocating J of anything */
            st = tk_error_set(err, TK_EINVAL, NULL, 0,
                              "job %d: j=%" PRId64 ": only %" PRId64 " free servers (of %" PRId64
                              ")",
                              k + 1, jobs[k].ranks, nfree, first[g->n]);
            break;
        }
        if (!(pl[k] = tk_malloc_array((size_t)jobs[k].ranks, sizeof *pl[k])))
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        else
            st = place_job(g, first, &jobs[k], k, seed, taken, &nfree, pl[k], err);
    }
    if (!st && !(tmp = tk_malloc_array(2 * (size_t)maxj, sizeof *tmp)))
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    int64_t total = 0;
    for (int k = 0; k < njobs && !st; k++) {
        st = tk_job_traffic(&jobs[k], seed, k, &dem[k], &dlen[k], err);
        if (st)
            break;
        total += dlen[k];
        double b = busiest(dem[k], dlen[k], jobs[k].ranks, tmp);
        scale[k] = jobs[k].rate / b;
        if (b * jobs[k].rate > common)
            common = b * jobs[k].rate;
    }
    if (!st && (flags & TK_JOBS_BYTES))
        for (int k = 0; k < njobs; k++)
            scale[k] = jobs[k].rate / common;
    if (!st) {
        size_t len = (size_t)snprintf(spec, sizeof spec, "job%s",
                                      flags & TK_JOBS_BYTES ? " scale=bytes" : "");
        for (int k = 0; k < njobs && len < sizeof spec; k++)
            len += (size_t)snprintf(spec + len, sizeof spec - len, "%s%s", k ? " ; " : " ",
                                    jobs[k].spec);
        int random = 0;
        for (int k = 0; k < njobs; k++)
            random |= jobs[k].place == TK_PLACE_RANDOM || jobs[k].app == TK_APP_PERM;
        if (random)
            snprintf(spec + (len < sizeof spec ? len : sizeof spec - 1),
                     sizeof spec - (len < sizeof spec ? len : sizeof spec - 1), " s=%" PRIu64,
                     seed);
        st = tk_pattern_new(&p, TK_LEVEL_SERVER, first[g->n], spec, g->spec, err);
    }
    if (!st)
        st = tk_pattern_reserve(p, total, err);
    for (int k = 0; k < njobs && !st; k++)
        for (int64_t i = 0; i < dlen[k] && !st; i++)
            st = tk_pattern_add(p, pl[k][dem[k][i].src], pl[k][dem[k][i].dst],
                                dem[k][i].w * scale[k], err);
    if (!st)
        st = tk_pattern_set_topology(p, g, err);
    if (!st)
        st = tk_pattern_check(p, g, "job", err);
    for (int k = 0; k < njobs && dem; k++)
        free(dem[k]);
    free(dem);
    free(dlen);
    free(scale);
    free(tmp);
    free(taken);
    free(first);
    if (st || !place) {
        for (int k = 0; k < njobs && pl; k++)
            free(pl[k]);
        free(pl);
        pl = NULL;
    }
    if (st) {
        tk_pattern_free(p);
        return st;
    }
    if (place)
        *place = pl;
    *out = p;
    return TK_OK;
}
