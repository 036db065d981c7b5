/*
 * dor.c - dimension-order minimal routing (dor) on Cartesian products with
 * coordinates: HyperX (Hamming graphs), tori and meshes as topo-gen makes
 * them.  A path corrects dimension 0 first, then 1, and so on; within a
 * dimension it takes a shortest path of that dimension's line (one direct
 * hop in a HyperX, the shorter way round a torus ring, the straight way in
 * a mesh).  Where several next hops are as short (the two ways round a
 * ring of even side at half its length, parallel links) the traffic splits
 * evenly at that hop, so the weights are those of ECMP restricted to the
 * current dimension.
 *
 * Preparation: every switch has coordinates (ncoord >= 1), the side of
 * dimension k is the largest coordinate k plus one, n is the product of the
 * sides, and every arc changes exactly one coordinate; the 1-D distances of
 * each dimension come from a breadth-first search of the line through
 * switch 0 (sum of side^2 entries, refused above 2^26).  Anything else is
 * TK_EUNSUPPORTED.  Paths: a depth-first search that branches only at ties,
 * O(hops x degree) per path.  rt_dor_paths also serves valiant,dor
 * (vdor.c).
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

#define DOR_MAX_TABLE ((int64_t)1 << 26)

typedef struct dor_state {
    int nd;
    int32_t *side; /* nd                                             */
    int64_t *doff; /* nd: offset of dimension k's table in d1         */
    int32_t *d1;   /* d1[doff[k] + x * side[k] + y]: 1-D distance     */
} dor_state_t;

static void dor_free(void *p)
{
    dor_state_t *d = p;
    if (!d)
        return;
    free(d->side);
    free(d->doff);
    free(d->d1);
    free(d);
}

static tk_status_t unsupported(const tk_router_t *r, const char *why, tk_error_t *err)
{
    return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                        "%s: %s (dimension-order routing needs the coordinates of a HyperX, "
                        "torus or mesh)",
                        r->spec.text, why);
}

/* The dimension an arc changes, -1 when it changes none or several. */
static int arc_dim(const tk_graph_t *g, tk_id_t u, tk_id_t v)
{
    int dim = -1;
    for (int k = 0; k < g->ncoord; k++)
        if (g->coord[(int64_t)u * g->ncoord + k] != g->coord[(int64_t)v * g->ncoord + k]) {
            if (dim >= 0)
                return -1;
            dim = k;
        }
    return dim;
}

/* Is u on the line of dimension k through switch 0? */
static int on_line0(const tk_graph_t *g, tk_id_t u, int k)
{
    for (int j = 0; j < g->ncoord; j++)
        if (j != k && g->coord[(int64_t)u * g->ncoord + j] != g->coord[j])
            return 0;
    return 1;
}

static tk_status_t line_distances(const tk_router_t *r, dor_state_t *d, int k, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    int32_t s = d->side[k];
    int32_t *dk = d->d1 + d->doff[k];
    int32_t *q = tk_malloc_array((size_t)s, sizeof *q);
    tk_id_t *at = tk_malloc_array((size_t)s, sizeof *at);
    if (!q || !at) {
        free(q);
        free(at);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dor)");
    }
    for (int32_t x = 0; x < s; x++)
        at[x] = -1;
    for (tk_id_t u = 0; u < g->n; u++)
        if (on_line0(g, u, k))
            at[g->coord[(int64_t)u * g->ncoord + k]] = u;
    tk_status_t st = TK_OK;
    for (int32_t x = 0; x < s && !st; x++) {
        if (at[x] < 0) {
            st = unsupported(r, "a coordinate value is missing", err);
            break;
        }
        int32_t *row = dk + (int64_t)x * s;
        for (int32_t y = 0; y < s; y++)
            row[y] = -1;
        int32_t h = 0, tl = 0;
        row[x] = 0;
        q[tl++] = x;
        while (h < tl) {
            int32_t y = q[h++];
            tk_id_t u = at[y];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                int32_t z = g->coord[(int64_t)g->head[a] * g->ncoord + k];
                if (row[z] < 0) {
                    row[z] = row[y] + 1;
                    q[tl++] = z;
                }
            }
        }
        for (int32_t y = 0; y < s && !st; y++)
            if (row[y] < 0)
                st = unsupported(r, "a dimension's line is not connected", err);
    }
    free(q);
    free(at);
    return st;
}

tk_status_t rt_dor_prepare(tk_router_t *r, int threads, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    (void)threads;
    if (!g->coord || g->ncoord < 1)
        return unsupported(r, "the graph has no coordinates", err);
    dor_state_t *d = calloc(1, sizeof *d);
    if (!d)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dor)");
    r->aux = d;
    r->aux_free = dor_free;
    d->nd = g->ncoord;
    d->side = calloc((size_t)d->nd, sizeof *d->side);
    d->doff = calloc((size_t)d->nd, sizeof *d->doff);
    if (!d->side || !d->doff)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dor)");
    for (tk_id_t u = 0; u < g->n; u++)
        for (int k = 0; k < d->nd; k++) {
            int32_t x = g->coord[(int64_t)u * d->nd + k];
            if (x < 0)
                return unsupported(r, "a coordinate is negative", err);
            if (x + 1 > d->side[k])
                d->side[k] = x + 1;
        }
    int64_t prod = 1, tab = 0;
    for (int k = 0; k < d->nd; k++) {
        prod *= d->side[k];
        d->doff[k] = tab;
        tab += (int64_t)d->side[k] * d->side[k];
        if (prod > g->n || tab > DOR_MAX_TABLE)
            break;
    }
    if (prod != g->n)
        return unsupported(r, "the switch count is not the product of the sides", err);
    if (tab > DOR_MAX_TABLE)
        return unsupported(r, "a side is too large", err);
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            if (arc_dim(g, u, g->head[a]) < 0)
                return unsupported(r, "a link changes no coordinate or several", err);
    d->d1 = tk_malloc_array((size_t)(tab ? tab : 1), sizeof *d->d1);
    if (!d->d1)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dor)");
    for (int k = 0; k < d->nd; k++) {
        tk_status_t st = line_distances(r, d, k, err);
        if (st)
            return st;
    }
    return TK_OK;
}

static inline int32_t co(const tk_graph_t *g, tk_id_t u, int k)
{
    return g->coord[(int64_t)u * g->ncoord + k];
}

/* Is arc a (out of u) a dimension-order step from u towards t?  Its
 * dimension is the first one where u and t differ, and it shortens it. */
static int dor_step(const tk_graph_t *g, const dor_state_t *d, tk_id_t u, int64_t a, tk_id_t t)
{
    int k = 0;
    while (k < d->nd && co(g, u, k) == co(g, t, k))
        k++;
    if (k == d->nd)
        return 0;
    tk_id_t v = g->head[a];
    int32_t s = d->side[k];
    const int32_t *dk = d->d1 + d->doff[k];
    if (arc_dim(g, u, v) != k)
        return 0;
    return dk[(int64_t)co(g, v, k) * s + co(g, t, k)] ==
           dk[(int64_t)co(g, u, k) * s + co(g, t, k)] - 1;
}

tk_status_t rt_dor_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                         uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    const tk_graph_t *g = r->g;
    const dor_state_t *d = r->aux;
    int64_t *path = ws->path, *pos = ws->sarc;
    double *pw = ws->pw;
    tk_id_t *at = ws->stk;
    int64_t h = 0;
    tk_status_t st;

    if (s == t)
        return rt_ps_push(out, NULL, 0, 1.0, err);
    at[0] = s;
    pos[0] = g->off[s];
    pw[0] = 1.0;
    for (;;) {
        tk_id_t u = at[h];
        if (u == t) {
            if ((st = rt_ps_push(out, path, h, pw[h], err)) != TK_OK)
                return st;
            if (max_paths && (uint64_t)out->npaths > max_paths)
                return rt_ps_check_max(s, t, max_paths, out, err);
            if (h == 0)
                return TK_OK;
            h--;
            continue;
        }
        if (pos[h] == g->off[u]) {
            /* first visit: the number of steps splits the weight */
            int nstep = 0;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                nstep += dor_step(g, d, u, a, t);
            if (nstep == 0)
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "%s: no dimension-order step from switch %" PRId32
                                    " towards %" PRId32 " (not a Cartesian product?)",
                                    r->spec.text, u, t);
            pw[h + 1] = pw[h] / nstep;
        }
        int64_t a = pos[h];
        while (a < g->off[u + 1] && !dor_step(g, d, u, a, t))
            a++;
        if (a == g->off[u + 1]) {
            if (h == 0)
                return TK_OK;
            h--;
            continue;
        }
        pos[h] = a + 1;
        path[h] = a;
        at[h + 1] = g->head[a];
        pos[h + 1] = g->off[g->head[a]];
        h++; /* pw[h] was set by the first visit of level h - 1 */
    }
}

static tk_status_t dor_paths(const tk_router_t *r, tk_route_ws_t *ws, tk_id_t s, tk_id_t t,
                             uint64_t max_paths, tk_pathset_t *out, tk_error_t *err)
{
    return rt_dor_paths(r, ws, s, t, max_paths, out, err);
}

const rt_model_t rt_model_dor = {
    .kind = TK_ROUTE_DOR,
    .name = "dor",
    .opts = 0,
    .table = RT_TABLE_NONE,
    .prepare = rt_dor_prepare,
    .paths = dor_paths,
};
