/*
 * verify.c - the independent cycle checker and the cycle file format.
 * Written apart from the search (search.c): a plain BFS from every window
 * start with shortest-path counts, no shared tables.  See tk_antmill.h.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "tk_antmill.h"

static long line_of(const long *lines, int64_t i)
{
    return lines ? lines[i] : (long)(i + 1);
}

/* The cycle lists every switch once (seen: n of work). */
static tk_status_t check_permutation(const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                                     const char *where, const long *lines, int64_t *seen,
                                     tk_error_t *err)
{
    tk_id_t n = g->n;

    for (tk_id_t v = 0; v < n; v++)
        seen[v] = -1;
    for (int64_t i = 0; i < len; i++) {
        tk_id_t x = cycle[i];
        if (x < 0 || x >= n)
            return tk_error_set(err, TK_ERANGE, where, line_of(lines, i),
                                "switch %" PRId32 " out of range 0..%" PRId32, x, n - 1);
        if (seen[x] >= 0)
            return tk_error_set(err, TK_EFORMAT, where, line_of(lines, i),
                                "switch %" PRId32 " repeated (first at line %ld)", x,
                                line_of(lines, seen[x]));
        seen[x] = i;
    }
    return TK_OK;
}

/* Consecutive switches of the cycle (and the last and the first) are
 * linked. */
static tk_status_t check_links(const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                               const char *where, const long *lines, tk_error_t *err)
{
    for (int64_t i = 0; i < len; i++) {
        tk_id_t x = cycle[i], y = cycle[(i + 1) % len];
        int found = 0;
        for (int64_t a = g->off[x]; a < g->off[x + 1]; a++)
            if (g->head[a] == y)
                found = 1;
        if (!found)
            return tk_error_set(err, TK_EFORMAT, where, line_of(lines, (i + 1) % len),
                                "not a Hamiltonian cycle: no link from switch %" PRId32
                                " to switch %" PRId32,
                                x, y);
    }
    return TK_OK;
}

/* delta: for each start i, the longest prefix j = 1, 2, ... such that
 * D(x_i, x_{i+j}) = j with exactly one shortest path; the least over the
 * starts.  The BFS from x_i stops at depth best (no window needs more).
 * dist, cnt, queue: n of work. */
static int32_t window_delta(const tk_graph_t *g, const tk_id_t *cycle, int64_t len, int32_t *dist,
                            double *cnt, tk_id_t *queue)
{
    int32_t best = g->n - 1;

    for (tk_id_t v = 0; v < g->n; v++)
        dist[v] = -1;
    for (int64_t i = 0; i < len && best > 0; i++) {
        tk_id_t s = cycle[i];
        int64_t qh = 0, qt = 0;
        int32_t k;
        dist[s] = 0;
        cnt[s] = 1;
        queue[qt++] = s;
        while (qh < qt) {
            tk_id_t u = queue[qh++];
            if (dist[u] >= best)
                continue;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (dist[v] < 0) {
                    dist[v] = dist[u] + 1;
                    cnt[v] = cnt[u];
                    queue[qt++] = v;
                } else if (dist[v] == dist[u] + 1) {
                    cnt[v] += cnt[u];
                }
            }
        }
        for (k = 1; k <= best; k++) {
            tk_id_t y = cycle[(i + k) % len];
            if (dist[y] != k || cnt[y] != 1.0)
                break;
        }
        best = k - 1;
        for (int64_t q = 0; q < qt; q++)
            dist[queue[q]] = -1;
    }
    return best;
}

tk_status_t tk_antmill_verify(const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                              const char *where, const long *lines, int32_t *delta, tk_error_t *err)
{
    tk_id_t n = g->n;
    int64_t *seen;
    int32_t *dist;
    double *cnt;
    tk_id_t *queue;
    tk_status_t st;

    if (len != n)
        return tk_error_set(err, TK_EFORMAT, where, len > 0 ? line_of(lines, len - 1) : 0,
                            "the cycle has %" PRId64 " switches, the topology %" PRId32, len, n);
    seen = malloc((size_t)n * sizeof *seen);
    dist = malloc((size_t)n * sizeof *dist);
    cnt = malloc((size_t)n * sizeof *cnt);
    queue = malloc((size_t)n * sizeof *queue);
    if (!seen || !dist || !cnt || !queue)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    else if ((st = check_permutation(g, cycle, len, where, lines, seen, err)) == TK_OK &&
             (st = check_links(g, cycle, len, where, lines, err)) == TK_OK)
        *delta = window_delta(g, cycle, len, dist, cnt, queue);
    free(seen);
    free(dist);
    free(cnt);
    free(queue);
    return st;
}

/* One content line p of a cycle file (line number line): a switch id in
 * 0..n-1 not seen before (first[v]: the line of v, 0 = none). */
static tk_status_t cycle_line(char *p, const char *name, long line, int64_t n, long *first,
                              long long *v, tk_error_t *err)
{
    char *end;

    if (!isdigit((unsigned char)*p) && *p != '-')
        return tk_error_set(err, TK_EFORMAT, name, line, "expected a switch id, got '%.40s'",
                            strtok(p, " \t\r\n"));
    errno = 0;
    *v = strtoll(p, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    if (*end != '\0' || errno)
        return tk_error_set(err, TK_EFORMAT, name, line, "expected one switch id per line");
    if (*v < 0 || *v >= n)
        return tk_error_set(err, TK_ERANGE, name, line, "switch %lld out of range 0..%" PRId64, *v,
                            n - 1);
    if (first[*v])
        return tk_error_set(err, TK_EFORMAT, name, line, "switch %lld repeated (first at line %ld)",
                            *v, first[*v]);
    first[*v] = line;
    return TK_OK;
}

tk_status_t tk_cycle_read(FILE *fp, const char *name, int64_t n, tk_id_t **cycle, int64_t *len,
                          long **lines, tk_error_t *err)
{
    char *buf = NULL;
    size_t bufcap = 0;
    long line = 0;
    int64_t k = 0, cap = 0;
    tk_id_t *c = NULL;
    long *ln = NULL;
    long *first = NULL;
    tk_status_t st = TK_OK;

    if (n < 0 || n > TK_MAX_SWITCHES)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "n=%" PRId64 ": out of range", n);
    first = malloc((size_t)(n > 0 ? n : 1) * sizeof *first);
    if (!first)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t v = 0; v < n; v++)
        first[v] = 0;
    while (getline(&buf, &bufcap, fp) >= 0) {
        char *p = buf;
        long long v = 0;
        line++;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0')
            continue;
        if ((st = cycle_line(p, name, line, n, first, &v, err)) != TK_OK)
            goto out;
        if (k == cap) {
            int64_t nc = cap ? 2 * cap : 256;
            tk_id_t *c2 = tk_realloc_array(c, (size_t)nc, sizeof *c);
            long *l2 = c2 ? tk_realloc_array(ln, (size_t)nc, sizeof *ln) : NULL;
            if (c2)
                c = c2;
            if (!l2) {
                st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                goto out;
            }
            ln = l2;
            cap = nc;
        }
        c[k] = (tk_id_t)v;
        ln[k] = line;
        k++;
    }
    if (ferror(fp))
        st = tk_error_set(err, TK_EIO, name, 0, "read error");
    else if (k != n)
        st = tk_error_set(err, TK_EFORMAT, name, line ? line : 1,
                          "the cycle has %" PRId64 " switches, the topology has %" PRId64, k, n);
out:
    free(first);
    free(buf);
    if (st) {
        free(c);
        free(ln);
        return st;
    }
    *cycle = c;
    *len = k;
    *lines = ln;
    return TK_OK;
}

tk_status_t tk_cycle_write(FILE *fp, const tk_graph_t *g, const tk_id_t *cycle, int32_t delta,
                           const char *comment, tk_error_t *err)
{
    fprintf(fp, "# topokit-cycle 1\n# topology %s\n# delta %" PRId32 "\n", g->spec ? g->spec : "",
            delta);
    if (comment && *comment)
        fprintf(fp, "# %s\n", comment);
    for (tk_id_t i = 0; i < g->n; i++)
        fprintf(fp, "%" PRId32 "\n", cycle[i]);
    if (ferror(fp))
        return tk_error_set(err, TK_EIO, NULL, 0, "write error");
    return TK_OK;
}

tk_status_t tk_antmill_pattern(const tk_graph_t *g, const tk_id_t *cycle, int32_t lambda,
                               const char *spec_extra, tk_pattern_t **out, tk_error_t *err)
{
    tk_id_t n = g->n;
    int32_t p = tk_graph_servers(g, 0);
    char spec[256];
    tk_pattern_t *pat = NULL;
    tk_status_t st;

    if (lambda < 1 || lambda >= n)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "lambda=%" PRId32 ": must be in 1..%" PRId32,
                            lambda, n - 1);
    for (tk_id_t v = 1; v < n; v++)
        if (tk_graph_servers(g, v) != p)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "the Ant Mill pattern needs the same number of servers at every "
                                "switch (switch 0 has %" PRId32 ", switch %" PRId32 " has %" PRId32
                                ")",
                                p, v, tk_graph_servers(g, v));
    snprintf(spec, sizeof spec, "antmill lambda=%" PRId32 "%s%s", lambda,
             spec_extra && *spec_extra ? " " : "", spec_extra ? spec_extra : "");
    st = tk_pattern_new(&pat, p > 0 ? TK_LEVEL_SERVER : TK_LEVEL_SWITCH,
                        p > 0 ? (int64_t)n * p : (int64_t)n, spec, g->spec, err);
    if (!st)
        st = tk_pattern_set_topology(pat, g, err);
    if (st) {
        tk_pattern_free(pat);
        return st;
    }
    for (tk_id_t i = 0; i < n && !st; i++) {
        tk_id_t x = cycle[i], y = cycle[(i + lambda) % n];
        if (p == 0) {
            st = tk_pattern_add(pat, x, y, 1.0, err);
        } else {
            for (int32_t j = 0; j < p && !st; j++)
                st = tk_pattern_add(pat, (int64_t)x * p + j, (int64_t)y * p + j, 1.0, err);
        }
    }
    if (st) {
        tk_pattern_free(pat);
        return st;
    }
    *out = pat;
    return TK_OK;
}
