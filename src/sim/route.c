/*
 * route.c - a switch pair's route as resource coefficients (sim_route_t):
 * the arcs its paths take, each with the input it is entered from, and the
 * inputs the traffic reaches the ejection link through.
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

static int grow(int64_t **a, int64_t **b, double **w, int64_t *cap, int64_t need)
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
    int64_t *nb = tk_realloc_array(*b, (size_t)nc, sizeof **b);
    if (!nb)
        return -1;
    *b = nb;
    double *nw = tk_realloc_array(*w, (size_t)nc, sizeof **w);
    if (!nw)
        return -1;
    *w = nw;
    *cap = nc;
    return 0;
}

/* Sort (key1, key2, w) triples by (key1, key2) and merge equal keys; the
 * weights of equal keys are added in path order (stable), so the sums do
 * not depend on the sort. */
typedef struct trip {
    int64_t k1, k2, seq;
    double w;
} trip_t;

static int trip_cmp(const void *a, const void *b)
{
    const trip_t *x = a, *y = b;
    if (x->k1 != y->k1)
        return x->k1 < y->k1 ? -1 : 1;
    if (x->k2 != y->k2)
        return x->k2 < y->k2 ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

static int64_t merge_sorted(trip_t *t, int64_t n)
{
    int64_t k = 0;
    for (int64_t i = 0; i < n; i++) {
        if (k > 0 && t[k - 1].k1 == t[i].k1 && t[k - 1].k2 == t[i].k2)
            t[k - 1].w += t[i].w;
        else
            t[k++] = t[i];
    }
    return k;
}

tk_status_t sim_route_from_paths(const tk_graph_t *g, const tk_pathset_t *ps, int64_t path,
                                 sim_route_t *out, tk_error_t *err)
{
    int64_t p0 = path < 0 ? 0 : path, p1 = path < 0 ? ps->npaths : path + 1;
    int64_t narcs = ps->off[p1] - ps->off[p0], np = p1 - p0;
    trip_t *ta = tk_malloc_array((size_t)(narcs > 0 ? narcs : 1), sizeof *ta);
    trip_t *te = tk_malloc_array((size_t)(np > 0 ? np : 1), sizeof *te);
    int32_t maxh = 0;

    if (!ta || !te) {
        free(ta);
        free(te);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (route of a pair)");
    }
    out->hops = 0;
    memset(out->chops, 0, sizeof out->chops);
    int64_t na = 0;
    for (int64_t i = p0; i < p1; i++) {
        double w = path < 0 ? ps->w[i] : 1.0;
        int64_t prev = SIM_IN_INJECT;
        int32_t h = (int32_t)(ps->off[i + 1] - ps->off[i]);
        for (int64_t j = ps->off[i]; j < ps->off[i + 1]; j++) {
            int64_t a = ps->arc[j];
            ta[na].k1 = a;
            ta[na].k2 = prev;
            ta[na].seq = na;
            ta[na].w = w;
            na++;
            out->chops[g->cls ? g->cls[a] : 0] += w;
            prev = a;
        }
        te[i - p0].k1 = prev;
        te[i - p0].k2 = 0;
        te[i - p0].seq = i - p0;
        te[i - p0].w = w;
        out->hops += w * h;
        if (h > maxh)
            maxh = h;
    }
    qsort(ta, (size_t)na, sizeof *ta, trip_cmp);
    na = merge_sorted(ta, na);
    qsort(te, (size_t)np, sizeof *te, trip_cmp);
    int64_t ne = merge_sorted(te, np);
    tk_status_t st = TK_OK;
    if (grow(&out->arc, &out->in, &out->w, &out->cap, na)) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (route of a pair)");
        goto done;
    }
    for (int64_t i = 0; i < na; i++) {
        out->arc[i] = ta[i].k1;
        out->in[i] = ta[i].k2;
        out->w[i] = ta[i].w;
    }
    out->n = na;
    if (ne > out->capej) {
        int64_t *a = tk_realloc_array(out->ejin, (size_t)ne, sizeof *a);
        double *w = a ? tk_realloc_array(out->ejw, (size_t)ne, sizeof *w) : NULL;
        if (a)
            out->ejin = a;
        if (!a || !w) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (route of a pair)");
            goto done;
        }
        out->ejw = w;
        out->capej = ne;
    }
    for (int64_t i = 0; i < ne; i++) {
        out->ejin[i] = te[i].k1;
        out->ejw[i] = te[i].w;
    }
    out->nej = ne;
    if (maxh + 1 > out->caph) {
        double *h = tk_realloc_array(out->hhist, (size_t)maxh + 1, sizeof *h);
        if (!h) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (route of a pair)");
            goto done;
        }
        out->hhist = h;
        out->caph = maxh + 1;
    }
    memset(out->hhist, 0, ((size_t)maxh + 1) * sizeof *out->hhist);
    for (int64_t i = p0; i < p1; i++)
        out->hhist[ps->off[i + 1] - ps->off[i]] += path < 0 ? ps->w[i] : 1.0;
    out->maxhops = maxh;
done:
    free(ta);
    free(te);
    return st;
}
