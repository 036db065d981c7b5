/*
 * fail.c - failures: remove links or switches (at random, by class, by
 * betweenness, or a named list) and build the degraded topology.
 * See tk_metric.h (tk_fail_apply, tk_betweenness).
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tk_metric.h"

/* Is arc a the canonical arc of its link (the one from the smaller end, or
 * the lower index of a self-loop's pair)? */
static int link_arc(const tk_graph_t *g, int64_t a)
{
    return a <= g->rev[a];
}

/* tk_betweenness: see tk_metric.h.  Brandes' accumulation from every live
 * source, serial, so the sums are identical on every run. */
tk_status_t tk_betweenness(const tk_graph_t *g, const uint8_t *arc_dead, const uint8_t *sw_dead,
                           double *link_bw, double *sw_bw, tk_error_t *err)
{
    tk_id_t n = g->n;
    int32_t *dist = tk_malloc_array((size_t)n + 1, sizeof *dist);
    tk_id_t *order = tk_malloc_array((size_t)n + 1, sizeof *order);
    double *sigma = tk_malloc_array((size_t)n + 1, sizeof *sigma);
    double *delta = tk_malloc_array((size_t)n + 1, sizeof *delta);

    if (!dist || !order || !sigma || !delta) {
        free(dist);
        free(order);
        free(sigma);
        free(delta);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%ld)", (long)n);
    }
    if (link_bw)
        memset(link_bw, 0, (size_t)g->m * sizeof *link_bw);
    if (sw_bw)
        memset(sw_bw, 0, (size_t)n * sizeof *sw_bw);
    for (tk_id_t s = 0; s < n; s++) {
        if (sw_dead && sw_dead[s])
            continue;
        for (tk_id_t v = 0; v < n; v++) {
            dist[v] = -1;
            sigma[v] = 0;
            delta[v] = 0;
        }
        size_t head = 0, tail = 0;
        dist[s] = 0;
        sigma[s] = 1;
        order[tail++] = s;
        while (head < tail) {
            tk_id_t v = order[head++];
            for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
                tk_id_t w = g->head[a];
                if ((arc_dead && arc_dead[a]) || (sw_dead && sw_dead[w]) || w == v)
                    continue;
                if (dist[w] < 0) {
                    dist[w] = dist[v] + 1;
                    order[tail++] = w;
                }
                if (dist[w] == dist[v] + 1)
                    sigma[w] += sigma[v];
            }
        }
        /* Dependencies in reverse BFS order. */
        while (tail > 0) {
            tk_id_t w = order[--tail];
            for (int64_t a = g->off[w]; a < g->off[w + 1]; a++) {
                tk_id_t v = g->head[a];
                if ((arc_dead && arc_dead[a]) || (sw_dead && sw_dead[v]) || v == w)
                    continue;
                if (dist[v] >= 0 && dist[v] == dist[w] - 1) {
                    double c = sigma[v] / sigma[w] * (1.0 + delta[w]);
                    delta[v] += c;
                    if (link_bw) {
                        int64_t l = link_arc(g, a) ? a : g->rev[a];
                        link_bw[l] += c;
                    }
                }
            }
            if (sw_bw && w != s)
                sw_bw[w] += delta[w];
        }
    }
    free(dist);
    free(order);
    free(sigma);
    free(delta);
    return TK_OK;
}

/* Position in items[] of the item of largest value (ties within a
 * relative 1e-9 go to the lowest item, whatever its position), or -1. */
static int64_t argmax(const double *val, const int64_t *items, int64_t nitems)
{
    int64_t best = -1;
    double bv = 0;
    for (int64_t i = 0; i < nitems; i++) {
        double v = val[items[i]];
        double tol = 1e-9 * fabs(bv);
        if (best < 0 || v > bv + tol || (v >= bv - tol && items[i] < items[best])) {
            best = i;
            bv = v;
        }
    }
    return best;
}

/* Append to a growing spec string; returns 0 on success. */
static int spec_add(char **s, size_t *len, size_t *cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int spec_add(char **s, size_t *len, size_t *cap, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        va_start(ap, fmt);
        int k = vsnprintf(*s + *len, *cap - *len, fmt, ap);
        va_end(ap);
        if (k < 0)
            return -1;
        if ((size_t)k < *cap - *len) {
            *len += (size_t)k;
            return 0;
        }
        size_t nc = *cap * 2 + (size_t)k;
        char *p = realloc(*s, nc);
        if (!p)
            return -1;
        *s = p;
        *cap = nc;
    }
}

static const char *order_name(tk_fail_order_t o)
{
    switch (o) {
    case TK_FAIL_BETWEENNESS:
        return "betweenness";
    case TK_FAIL_BETWEENNESS_ONCE:
        return "betweenness-once";
    case TK_FAIL_LIST:
        return "list";
    default:
        return "random";
    }
}

/* Choose the victims: items[0..nitems) are the eligible links (canonical
 * arcs) or switches; the first k of items[] are the chosen ones, in the
 * order chosen. */
static tk_status_t choose(const tk_graph_t *g, const tk_fail_opts_t *o, int64_t *items,
                          int64_t nitems, int64_t k, tk_error_t *err)
{
    int links = o->unit == TK_FAIL_LINKS;
    tk_status_t st = TK_OK;

    if (o->order == TK_FAIL_RANDOM) {
        tk_rng_t *r;
        if ((st = tk_rng_new(&r, o->seed, 0, err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < k; i++) {
            int64_t j = i + (int64_t)tk_rng_below(r, (uint64_t)(nitems - i));
            int64_t t = items[i];
            items[i] = items[j];
            items[j] = t;
        }
        tk_rng_free(r);
        return TK_OK;
    }
    /* Betweenness: once (rank by the intact graph's values) or recomputed
     * after every removal. */
    uint8_t *arc_dead = tk_calloc_array((size_t)g->m + 1, 1);
    uint8_t *sw_dead = tk_calloc_array((size_t)g->n + 1, 1);
    double *bw = tk_malloc_array(links ? (size_t)g->m + 1 : (size_t)g->n + 1, sizeof *bw);
    if (!arc_dead || !sw_dead || !bw) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (m=%" PRId64 ")", g->m);
        goto done;
    }
    for (int64_t i = 0; i < k; i++) {
        if (i == 0 || o->order == TK_FAIL_BETWEENNESS) {
            st = tk_betweenness(g, arc_dead, sw_dead, links ? bw : NULL, links ? NULL : bw, err);
            if (st != TK_OK)
                goto done;
        }
        int64_t j = i + argmax(bw, items + i, nitems - i);
        int64_t t = items[i];
        items[i] = items[j];
        items[j] = t;
        t = items[i];
        if (links) {
            arc_dead[t] = 1;
            arc_dead[g->rev[t]] = 1;
        } else {
            sw_dead[t] = 1;
        }
    }
done:
    free(arc_dead);
    free(sw_dead);
    free(bw);
    return st;
}

/* The named list: victims into items[0..nlist), checked. */
static tk_status_t named(const tk_graph_t *g, const tk_fail_opts_t *o, int64_t *items,
                         tk_error_t *err)
{
    uint8_t *used =
        tk_calloc_array(o->unit == TK_FAIL_LINKS ? (size_t)g->m + 1 : (size_t)g->n + 1, 1);
    if (!used)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t i = 0; i < o->nlist; i++) {
        if (o->unit == TK_FAIL_SWITCHES) {
            int64_t u = o->list[i];
            if (u < 0 || u >= g->n || used[u]) {
                free(used);
                if (u < 0 || u >= g->n)
                    return tk_error_set(err, TK_ERANGE, NULL, 0,
                                        "list: switch %" PRId64 " out of range 0..%" PRId32, u,
                                        g->n - 1);
                return tk_error_set(err, TK_EINVAL, NULL, 0, "list: switch %" PRId64 " named twice",
                                    u);
            }
            used[u] = 1;
            items[i] = u;
            continue;
        }
        int64_t u = o->list[2 * i], v = o->list[2 * i + 1], found = -1;
        if (u >= 0 && u < g->n && v >= 0 && v < g->n)
            for (int64_t a = g->off[u]; a < g->off[u + 1] && found < 0; a++) {
                int64_t l = link_arc(g, a) ? a : g->rev[a];
                if (g->head[a] == v && !used[l])
                    found = l;
            }
        if (found < 0) {
            free(used);
            return tk_error_set(err, TK_ERANGE, NULL, 0,
                                "list: no link %" PRId64 "-%" PRId64 " (left) in the topology", u,
                                v);
        }
        used[found] = 1;
        items[i] = found;
    }
    free(used);
    return TK_OK;
}

/* Build the degraded graph without the marked links / switches. */
static tk_status_t rebuild(const tk_graph_t *g, const uint8_t *arc_dead, const uint8_t *sw_dead,
                           const char *spec, tk_graph_t **out, tk_error_t *err)
{
    tk_id_t *newid = tk_malloc_array((size_t)g->n + 1, sizeof *newid);
    tk_builder_t *b = NULL;
    tk_status_t st;
    int cls[TK_MAX_CLASSES];
    tk_id_t nn = 0;

    if (!newid)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%ld)", (long)g->n);
    for (tk_id_t u = 0; u < g->n; u++)
        newid[u] = sw_dead[u] ? -1 : nn++;
    if ((st = tk_builder_new(&b, nn, 0, err)) != TK_OK)
        goto fail;
    for (int c = 0; c < g->nclasses; c++)
        if ((st = tk_builder_class(b, g->class_name[c], &cls[c], err)) != TK_OK)
            goto fail;
    if (!g->servers && (st = tk_builder_set_servers_uniform(b, g->servers_uniform, err)) != TK_OK)
        goto fail;
    if (g->coord && g->ncoord > 0 && (st = tk_builder_set_ncoord(b, g->ncoord, err)) != TK_OK)
        goto fail;
    for (tk_id_t u = 0; u < g->n; u++) {
        if (newid[u] < 0)
            continue;
        if (g->servers && (st = tk_builder_set_servers(b, newid[u], g->servers[u], err)) != TK_OK)
            goto fail;
        if (g->group && (st = tk_builder_set_group(b, newid[u], g->group[u], err)) != TK_OK)
            goto fail;
        if (g->coord && g->ncoord > 0 &&
            (st = tk_builder_set_coord(b, newid[u], g->coord + (size_t)u * g->ncoord, err)) !=
                TK_OK)
            goto fail;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (!link_arc(g, a) || arc_dead[a] || newid[v] < 0)
                continue;
            st = tk_builder_add_ex(b, newid[u], newid[v], cls[g->cls ? g->cls[a] : 0],
                                   tk_graph_cap(g, a), err);
            if (st != TK_OK)
                goto fail;
        }
    }
    if ((st = tk_builder_set_spec(b, spec, err)) != TK_OK)
        goto fail;
    free(newid);
    return tk_builder_finish(b, out, err);
fail:
    tk_builder_free(b);
    free(newid);
    return st;
}

/* tk_fail_apply: see tk_metric.h. */
tk_status_t tk_fail_apply(const tk_graph_t *g, const tk_fail_opts_t *o, tk_graph_t **out,
                          tk_error_t *err)
{
    int links = o->unit == TK_FAIL_LINKS;
    int64_t nitems = 0, k;
    int64_t *items = NULL;
    uint8_t *arc_dead = NULL, *sw_dead = NULL;
    char *spec = NULL;
    size_t len = 0, cap = 128;
    int cls = 0;
    tk_status_t st;

    *out = NULL;
    if (g->directed)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "failures are defined on undirected topologies only");
    if (o->cls) {
        if (!links)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "class=%s: only links have a class",
                                o->cls);
        cls = tk_graph_class_index(g, o->cls);
        if (cls < 0)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "class=%s: no such link class", o->cls);
    }
    if (o->order != TK_FAIL_LIST && o->count < 0 && !(o->fraction >= 0 && o->fraction <= 1))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "fraction=%g: must be in [0, 1]", o->fraction);
    items = tk_malloc_array(links ? (size_t)g->m + 1 : (size_t)g->n + 1, sizeof *items);
    arc_dead = tk_calloc_array((size_t)g->m + 1, 1);
    sw_dead = tk_calloc_array((size_t)g->n + 1, 1);
    spec = malloc(cap);
    if (!items || !arc_dead || !sw_dead || !spec) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (m=%" PRId64 ")", g->m);
        goto done;
    }
    spec[0] = 0;
    /* Eligible items in canonical order. */
    if (links) {
        for (int64_t a = 0; a < g->m; a++)
            if (link_arc(g, a) && (!o->cls || (g->cls ? g->cls[a] : 0) == cls))
                items[nitems++] = a;
    } else {
        for (tk_id_t u = 0; u < g->n; u++)
            items[nitems++] = u;
    }
    if (o->order == TK_FAIL_LIST) {
        k = o->nlist;
        st = named(g, o, items, err);
    } else {
        k = o->count >= 0 ? o->count : (int64_t)floor(o->fraction * (double)nitems + 0.5);
        if (k > nitems) {
            st = tk_error_set(
                err, TK_ERANGE, NULL, 0, "k=%" PRId64 ": more than the %" PRId64 " %s%s%s eligible",
                k, nitems, o->cls ? o->cls : "", o->cls ? " " : "", links ? "links" : "switches");
            goto done;
        }
        st = choose(g, o, items, nitems, k, err);
    }
    if (st != TK_OK)
        goto done;
    /* The record: the selector, then the victims when few. */
    if (spec_add(&spec, &len, &cap, "%s%sfail %s k=%" PRId64 " order=%s", g->spec ? g->spec : "",
                 g->spec && g->spec[0] ? " | " : "", links ? "links" : "switches", k,
                 order_name(o->order)) ||
        (o->order == TK_FAIL_RANDOM && spec_add(&spec, &len, &cap, " s=%" PRIu64, o->seed)) ||
        (o->cls && spec_add(&spec, &len, &cap, " class=%s", o->cls)) ||
        (o->order != TK_FAIL_LIST && o->count < 0 &&
         spec_add(&spec, &len, &cap, " fraction=%g", o->fraction))) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if (k > 0 && k <= TK_FAIL_RECORD_MAX && spec_add(&spec, &len, &cap, " removed="))
        st = TK_ENOMEM;
    for (int64_t i = 0; i < k; i++) {
        int64_t t = items[i];
        if (links) {
            arc_dead[t] = 1;
            arc_dead[g->rev[t]] = 1;
        } else {
            sw_dead[t] = 1;
        }
        if (k <= TK_FAIL_RECORD_MAX && st == TK_OK) {
            int bad = links ? spec_add(&spec, &len, &cap, "%s%" PRId32 "-%" PRId32, i ? "," : "",
                                       g->head[g->rev[t]], g->head[t])
                            : spec_add(&spec, &len, &cap, "%s%" PRId64, i ? "," : "", t);
            if (bad)
                st = TK_ENOMEM;
        }
    }
    if (st != TK_OK) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    st = rebuild(g, arc_dead, sw_dead, spec, out, err);
done:
    free(items);
    free(arc_dead);
    free(sw_dead);
    free(spec);
    return st;
}
