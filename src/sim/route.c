/*
 * route.c - a switch pair's route as resource coefficients (sim_route_t):
 * the arcs its paths take, each with the input it is entered from, and the
 * inputs the traffic reaches the ejection link through.
 *
 * Merging: an index over the arcs (sim_route_ws_t.head) chains the (arc,
 * input) pairs met so far, so each path arc is one short chain walk (an
 * arc has at most its tail's in-degree + 1 inputs); the pairs are then
 * emitted by arc and input.  Weights of one pair are added in path order,
 * so the result does not depend on anything but the path set.
 */
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

void sim_route_init(sim_route_t *r)
{
    memset(r, 0, sizeof *r);
}

void sim_route_destroy(sim_route_t *r)
{
    if (!r)
        return;
    free(r->arc);
    free(r->in);
    free(r->w);
    free(r->ejin);
    free(r->ejw);
    free(r->hhist);
    memset(r, 0, sizeof *r);
}

void sim_route_ws_init(sim_route_ws_t *ws)
{
    memset(ws, 0, sizeof *ws);
}

void sim_route_ws_destroy(sim_route_ws_t *ws)
{
    if (!ws)
        return;
    free(ws->head);
    free(ws->in);
    free(ws->next);
    free(ws->key);
    free(ws->w);
    free(ws->touched);
    memset(ws, 0, sizeof *ws);
}

static int ws_ready(sim_route_ws_t *ws, const tk_graph_t *g)
{
    if (ws->head && ws->m == g->m)
        return 0;
    free(ws->head);
    free(ws->touched);
    ws->m = g->m;
    ws->head = tk_malloc_array((size_t)g->m + 1, sizeof *ws->head);
    ws->touched = tk_malloc_array((size_t)g->m + 1, sizeof *ws->touched);
    if (!ws->head || !ws->touched)
        return -1;
    for (int64_t a = 0; a <= g->m; a++)
        ws->head[a] = -1;
    ws->ntouched = 0;
    return 0;
}

/* Add w to pair (key, in). */
static int ws_add(sim_route_ws_t *ws, int64_t key, int64_t in, double w)
{
    for (int64_t q = ws->head[key]; q >= 0; q = ws->next[q])
        if (ws->in[q] == in) {
            ws->w[q] += w;
            return 0;
        }
    if (ws->n == ws->cap) {
        int64_t nc = ws->cap ? 2 * ws->cap : 256;
        int64_t *a = tk_realloc_array(ws->in, (size_t)nc, sizeof *a);
        if (!a)
            return -1;
        ws->in = a;
        a = tk_realloc_array(ws->next, (size_t)nc, sizeof *a);
        if (!a)
            return -1;
        ws->next = a;
        a = tk_realloc_array(ws->key, (size_t)nc, sizeof *a);
        if (!a)
            return -1;
        ws->key = a;
        double *d = tk_realloc_array(ws->w, (size_t)nc, sizeof *d);
        if (!d)
            return -1;
        ws->w = d;
        ws->cap = nc;
    }
    int64_t q = ws->n++;
    if (ws->head[key] < 0)
        ws->touched[ws->ntouched++] = key;
    ws->in[q] = in;
    ws->key[q] = key;
    ws->w[q] = w;
    ws->next[q] = ws->head[key];
    ws->head[key] = q;
    return 0;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

static int grow3(int64_t **a, int64_t **b, double **w, int64_t *cap, int64_t need)
{
    if (need <= *cap)
        return 0;
    int64_t nc = *cap ? *cap : 16;
    while (nc < need)
        nc *= 2;
    int64_t *na = tk_realloc_array(*a, (size_t)nc, sizeof **a);
    if (!na)
        return -1;
    *a = na;
    if (b) {
        int64_t *nb = tk_realloc_array(*b, (size_t)nc, sizeof **b);
        if (!nb)
            return -1;
        *b = nb;
    }
    double *nw = tk_realloc_array(*w, (size_t)nc, sizeof **w);
    if (!nw)
        return -1;
    *w = nw;
    *cap = nc;
    return 0;
}

/* Emit the pairs of ws into out (arcs ascending, inputs ascending within
 * an arc; the ejection key m as the ejection list) and clear ws. */
static int ws_emit(sim_route_ws_t *ws, sim_route_t *out)
{
    int64_t m = ws->m, na = 0, ne = 0;
    qsort(ws->touched, (size_t)ws->ntouched, sizeof *ws->touched, cmp_i64);
    for (int64_t t = 0; t < ws->ntouched; t++) {
        int64_t c = 0;
        for (int64_t q = ws->head[ws->touched[t]]; q >= 0; q = ws->next[q])
            c++;
        if (ws->touched[t] == m)
            ne += c;
        else
            na += c;
    }
    if (grow3(&out->arc, &out->in, &out->w, &out->cap, na) ||
        grow3(&out->ejin, NULL, &out->ejw, &out->capej, ne))
        return -1;
    out->n = out->nej = 0;
    for (int64_t t = 0; t < ws->ntouched; t++) {
        int64_t key = ws->touched[t];
        int64_t first = key == m ? out->nej : out->n;
        for (int64_t q = ws->head[key]; q >= 0; q = ws->next[q]) {
            /* insertion by input: chains are short */
            int64_t *ins = key == m ? out->ejin : out->in;
            double *ws_w = key == m ? out->ejw : out->w;
            int64_t *cnt = key == m ? &out->nej : &out->n;
            int64_t k = *cnt;
            while (k > first && ins[k - 1] > ws->in[q]) {
                ins[k] = ins[k - 1];
                ws_w[k] = ws_w[k - 1];
                if (key != m)
                    out->arc[k] = out->arc[k - 1];
                k--;
            }
            ins[k] = ws->in[q];
            ws_w[k] = ws->w[q];
            if (key != m)
                out->arc[k] = key;
            (*cnt)++;
        }
        ws->head[key] = -1;
    }
    ws->ntouched = 0;
    ws->n = 0;
    return 0;
}

tk_status_t sim_route_from_paths_ws(const tk_graph_t *g, const tk_pathset_t *ps, int64_t path,
                                    sim_route_ws_t *ws, sim_route_t *out, tk_error_t *err)
{
    int64_t p0 = path < 0 ? 0 : path, p1 = path < 0 ? ps->npaths : path + 1;
    int32_t maxh = 0;

    if (ws_ready(ws, g))
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (route of a pair)");
    out->hops = 0;
    memset(out->chops, 0, sizeof out->chops);
    for (int64_t i = p0; i < p1; i++) {
        double w = path < 0 ? ps->w[i] : 1.0;
        int64_t prev = SIM_IN_INJECT;
        int32_t h = (int32_t)(ps->off[i + 1] - ps->off[i]);
        for (int64_t j = ps->off[i]; j < ps->off[i + 1]; j++) {
            int64_t a = ps->arc[j];
            if (ws_add(ws, a, prev, w))
                goto oom;
            out->chops[g->cls ? g->cls[a] : 0] += w;
            prev = a;
        }
        if (ws_add(ws, g->m, prev, w))
            goto oom;
        out->hops += w * h;
        if (h > maxh)
            maxh = h;
    }
    if (ws_emit(ws, out))
        goto oom;
    if (maxh + 1 > out->caph) {
        double *h = tk_realloc_array(out->hhist, (size_t)maxh + 1, sizeof *h);
        if (!h)
            goto oom;
        out->hhist = h;
        out->caph = maxh + 1;
    }
    memset(out->hhist, 0, ((size_t)maxh + 1) * sizeof *out->hhist);
    for (int64_t i = p0; i < p1; i++)
        out->hhist[ps->off[i + 1] - ps->off[i]] += path < 0 ? ps->w[i] : 1.0;
    out->maxhops = maxh;
    return TK_OK;
oom:
    /* leave the scratch clean for the next call */
    for (int64_t t = 0; t < ws->ntouched; t++)
        ws->head[ws->touched[t]] = -1;
    ws->ntouched = 0;
    ws->n = 0;
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (route of a pair)");
}

tk_status_t sim_route_from_paths(const tk_graph_t *g, const tk_pathset_t *ps, int64_t path,
                                 sim_route_t *out, tk_error_t *err)
{
    sim_route_ws_t ws;
    sim_route_ws_init(&ws);
    tk_status_t st = sim_route_from_paths_ws(g, ps, path, &ws, out, err);
    sim_route_ws_destroy(&ws);
    return st;
}
