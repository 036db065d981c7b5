/*
 * topo.c - pattern kinds that use the topology's structure: coordinates
 * (tornado, transpose, dim-shift), hypercube labels (bit-complement), groups
 * (adv, advr, advc), and the mixed and hotspot kinds.  Definitions in
 * topo-pattern(1).
 */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"

/* ------------------------------------------------------------------------ */
/* Coordinates: the switches must be exactly the points of a grid
 * 0..side[0]-1 x ... (torus, mesh, HyperX); index[] maps a point (mixed
 * radix, dimension 0 fastest) to its switch. */
typedef struct grid {
    int k;
    int64_t side[64];
    tk_id_t *index;
} grid_t;

static tk_status_t grid_of(const tkp_mk_t *m, grid_t *gr, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    int64_t npts = 1;

    memset(gr, 0, sizeof *gr);
    if (!g->coord || g->ncoord < 1 || g->ncoord > 64 || g->group)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: needs a topology with grid coordinates (torus, mesh, hyperx)",
                            m->kind);
    gr->k = g->ncoord;
    for (int d = 0; d < gr->k; d++)
        gr->side[d] = 0;
    for (tk_id_t u = 0; u < g->n; u++)
        for (int d = 0; d < gr->k; d++) {
            int32_t x = g->coord[(size_t)u * gr->k + d];
            if (x < 0)
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "%s: switch %" PRId32 " has a negative coordinate", m->kind, u);
            if (x + 1 > gr->side[d])
                gr->side[d] = x + 1;
        }
    for (int d = 0; d < gr->k; d++)
        npts = npts > INT32_MAX ? npts : npts * gr->side[d];
    if (npts != g->n)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: the coordinates do not form a full grid", m->kind);
    gr->index = tk_malloc_array((size_t)g->n, sizeof *gr->index);
    if (!gr->index)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (tk_id_t u = 0; u < g->n; u++)
        gr->index[u] = -1;
    for (tk_id_t u = 0; u < g->n; u++) {
        int64_t idx = 0;
        for (int d = gr->k - 1; d >= 0; d--)
            idx = idx * gr->side[d] + g->coord[(size_t)u * gr->k + d];
        if (gr->index[idx] >= 0) {
            free(gr->index);
            gr->index = NULL;
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "%s: switches %" PRId32 " and %" PRId32
                                " have the same coordinates",
                                m->kind, gr->index[idx], u);
        }
        gr->index[idx] = u;
    }
    return TK_OK;
}

/* Switch at coordinates x[]. */
static tk_id_t grid_at(const grid_t *gr, const int64_t *x)
{
    int64_t idx = 0;

    for (int d = gr->k - 1; d >= 0; d--)
        idx = idx * gr->side[d] + x[d];
    return gr->index[idx];
}

/* Build map[u] = f(coordinates of u) for every switch, emit at `level`. */
typedef void (*coord_fn)(const grid_t *gr, const void *ctx, int64_t *x);

static tk_status_t emit_coord_map(tkp_mk_t *m, const grid_t *gr, tk_level_t level, coord_fn f,
                                  const void *ctx, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    int64_t *map = tk_malloc_array((size_t)g->n, sizeof *map), x[64];
    tk_status_t st;

    if (!map)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (tk_id_t u = 0; u < g->n; u++) {
        for (int d = 0; d < gr->k; d++)
            x[d] = g->coord[(size_t)u * gr->k + d];
        f(gr, ctx, x);
        map[u] = grid_at(gr, x);
    }
    st = tkp_begin(m, level, err);
    if (!st)
        st = tkp_add_switch_map(m, level, map, err);
    free(map);
    return st;
}

static void tornado_fn(const grid_t *gr, const void *ctx, int64_t *x)
{
    (void)ctx;
    for (int d = 0; d < gr->k; d++)
        x[d] = (x[d] + (gr->side[d] + 1) / 2 - 1) % gr->side[d];
}

/* tornado: every coordinate advances by ceil(s/2) - 1 (mod s). */
tk_status_t tkp_gen_tornado(tkp_mk_t *m, tk_error_t *err)
{
    grid_t gr;
    tk_level_t level;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);

    if (!st)
        st = grid_of(m, &gr, err);
    if (st)
        return st;
    int moves = 0;
    for (int d = 0; d < gr.k; d++)
        moves |= (gr.side[d] + 1) / 2 - 1 > 0;
    if (!moves)
        st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                          "tornado: every side is at most 2, so no switch would move");
    if (!st)
        st = emit_coord_map(m, &gr, level, tornado_fn, NULL, err);
    free(gr.index);
    return st;
}

static void transpose_fn(const grid_t *gr, const void *ctx, int64_t *x)
{
    (void)gr;
    (void)ctx;
    int64_t t = x[0];
    x[0] = x[1];
    x[1] = t;
}

/* transpose: (x, y) -> (y, x) on a square 2-D grid. */
tk_status_t tkp_gen_transpose(tkp_mk_t *m, tk_error_t *err)
{
    grid_t gr;
    tk_level_t level;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);

    if (!st)
        st = grid_of(m, &gr, err);
    if (st)
        return st;
    if (gr.k != 2 || gr.side[0] != gr.side[1])
        st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                          "transpose: needs a square 2-dimensional grid (this one has %d "
                          "dimensions)",
                          gr.k);
    else
        st = emit_coord_map(m, &gr, level, transpose_fn, NULL, err);
    free(gr.index);
    return st;
}

typedef struct dimshift {
    int on[64];
    int64_t i;
} dimshift_t;

static void dimshift_fn(const grid_t *gr, const void *ctx, int64_t *x)
{
    const dimshift_t *ds = ctx;
    for (int d = 0; d < gr->k; d++)
        if (ds->on[d])
            x[d] = (x[d] + ds->i) % gr->side[d];
}

/* dim-shift dims=XY i=I (the D-i-shift of Cano, Camarero, Martinez and
 * Beivide, "Analysing Mechanisms for Virtual Channel Management in
 * Low-Diameter Networks"): the coordinates of the named dimensions
 * (X Y Z W = 0 1 2 3, or digits) advance by I. */
tk_status_t tkp_gen_dim_shift(tkp_mk_t *m, tk_error_t *err)
{
    grid_t gr;
    tk_level_t level;
    dimshift_t ds;
    const char *dims;
    int64_t i;
    tk_status_t st = tk_kv_str(m->kv, "dims", 0, NULL, &dims, err);

    memset(&ds, 0, sizeof ds);
    if (!st)
        st = tk_kv_int(m->kv, "i", 1, INT32_MAX, 0, 0, &i, err);
    if (st)
        return st;
    tkp_spec_add(m, "dims=%s i=%" PRId64, dims, i);
    st = tkp_level(m, TK_LEVEL_SERVER, &level, err);
    if (!st)
        st = grid_of(m, &gr, err);
    if (st)
        return st;
    if (!*dims)
        st = tk_error_set(err, TK_EINVAL, NULL, 0, "dims=: empty");
    for (const char *c = dims; *c && !st; c++) {
        int d;
        char up = (char)toupper((unsigned char)*c);
        if (up == 'X' || up == 'Y' || up == 'Z')
            d = up - 'X';
        else if (up == 'W')
            d = 3;
        else if (isdigit((unsigned char)*c))
            d = *c - '0';
        else {
            st = tk_error_set(err, TK_EINVAL, NULL, 0,
                              "dims=%s: '%c' is not a dimension (X, Y, Z, W or 0-9)", dims, *c);
            break;
        }
        if (d >= gr.k)
            st = tk_error_set(err, TK_EINVAL, NULL, 0,
                              "dims=%s: dimension '%c' does not exist (the grid has %d)", dims, *c,
                              gr.k);
        else if (ds.on[d])
            st = tk_error_set(err, TK_EINVAL, NULL, 0, "dims=%s: '%c' named twice", dims, *c);
        else
            ds.on[d] = 1;
    }
    ds.i = i;
    if (!st) {
        int moves = 0;
        for (int d = 0; d < gr.k; d++)
            moves |= ds.on[d] && i % gr.side[d] != 0;
        if (!moves)
            st = tk_error_set(err, TK_EINVAL, NULL, 0,
                              "i=%" PRId64 ": a multiple of every named side (nobody moves)", i);
    }
    if (!st)
        st = emit_coord_map(m, &gr, level, dimshift_fn, &ds, err);
    free(gr.index);
    return st;
}

/* bit-complement: on a hypercube whose switch ids are the d-bit labels
 * (every link joins labels differing in one bit), u -> ~u. */
tk_status_t tkp_gen_bit_complement(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_level_t level;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);
    int dim = 0;

    if (st)
        return st;
    while (((int64_t)1 << dim) < g->n)
        dim++;
    int isq = g->n >= 2 && ((int64_t)1 << dim) == g->n && !g->directed;
    for (tk_id_t u = 0; u < g->n && isq; u++) {
        isq = tk_graph_degree(g, u) == dim;
        for (int64_t a = g->off[u]; a < g->off[u + 1] && isq; a++) {
            uint32_t x = (uint32_t)u ^ (uint32_t)g->head[a];
            isq = x && !(x & (x - 1));
        }
    }
    if (!isq)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "bit-complement: needs a hypercube (2^d switches labelled so that "
                            "links join labels differing in one bit)");
    int64_t *map = tk_malloc_array((size_t)g->n, sizeof *map);
    if (!map)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (tk_id_t u = 0; u < g->n; u++)
        map[u] = (int64_t)(~(uint32_t)u & (uint32_t)(g->n - 1));
    st = tkp_begin(m, level, err);
    if (!st)
        st = tkp_add_switch_map(m, level, map, err);
    free(map);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Groups (Dragonfly and friends).  Groups are numbered by rank of their
 * ids; the switches of a group in id order; a server's relative position
 * is its rank among the servers of its group. */
typedef struct groups {
    int32_t G;
    int32_t *gi;      /* n: group index of each switch     */
    int64_t *goff;    /* G+1: offsets into members          */
    tk_id_t *members; /* n: switches grouped, id order     */
    int64_t *sfirst;  /* G+1: server offsets per group (sum of servers) */
} groups_t;

static void groups_free(groups_t *gs)
{
    free(gs->gi);
    free(gs->goff);
    free(gs->members);
    free(gs->sfirst);
}

static int cmp_i32(const void *a, const void *b)
{
    int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
    return (x > y) - (x < y);
}

static tk_status_t groups_of(const tkp_mk_t *m, groups_t *gs, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_id_t n = g->n;
    int32_t *ids = NULL;

    memset(gs, 0, sizeof *gs);
    if (!g->group)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: the topology has no groups (needs a Dragonfly)", m->kind);
    ids = tk_malloc_array((size_t)n, sizeof *ids);
    gs->gi = tk_malloc_array((size_t)n, sizeof *gs->gi);
    gs->members = tk_malloc_array((size_t)n, sizeof *gs->members);
    if (!ids || !gs->gi || !gs->members) {
        free(ids);
        groups_free(gs);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    memcpy(ids, g->group, (size_t)n * sizeof *ids);
    qsort(ids, (size_t)n, sizeof *ids, cmp_i32);
    int32_t G = 0;
    for (tk_id_t i = 0; i < n; i++)
        if (i == 0 || ids[i] != ids[i - 1])
            ids[G++] = ids[i];
    gs->G = G;
    gs->goff = tk_calloc_array((size_t)G + 1, sizeof *gs->goff);
    gs->sfirst = tk_calloc_array((size_t)G + 1, sizeof *gs->sfirst);
    if (!gs->goff || !gs->sfirst) {
        free(ids);
        groups_free(gs);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (tk_id_t u = 0; u < n; u++) {
        int32_t *f = bsearch(&g->group[u], ids, (size_t)G, sizeof *ids, cmp_i32);
        gs->gi[u] = (int32_t)(f - ids);
        gs->goff[gs->gi[u] + 1]++;
        gs->sfirst[gs->gi[u] + 1] += tk_graph_servers(g, u);
    }
    free(ids);
    for (int32_t j = 0; j < G; j++) {
        gs->goff[j + 1] += gs->goff[j];
        gs->sfirst[j + 1] += gs->sfirst[j];
    }
    {
        int64_t *pos = tk_malloc_array((size_t)G, sizeof *pos);
        if (!pos) {
            groups_free(gs);
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        }
        for (int32_t j = 0; j < G; j++)
            pos[j] = gs->goff[j];
        for (tk_id_t u = 0; u < n; u++)
            gs->members[pos[gs->gi[u]]++] = u;
        free(pos);
    }
    if (G < 2) {
        groups_free(gs);
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: the topology has only one group",
                            m->kind);
    }
    return TK_OK;
}

/* Server ids of group j in relative order into out[] (sfirst[j+1]-sfirst[j]). */
static void group_servers(const tkp_mk_t *m, const groups_t *gs, int32_t j, int64_t *out)
{
    int64_t k = 0;

    for (int64_t i = gs->goff[j]; i < gs->goff[j + 1]; i++) {
        tk_id_t u = gs->members[i];
        for (int64_t s = m->first[u]; s < m->first[u + 1]; s++)
            out[k++] = s;
    }
}

/* Every group must hold the same number of servers (> 0). */
static tk_status_t groups_uniform(const tkp_mk_t *m, const groups_t *gs, int64_t *per,
                                  tk_error_t *err)
{
    int64_t s0 = gs->sfirst[1] - gs->sfirst[0];

    for (int32_t j = 1; j < gs->G; j++)
        if (gs->sfirst[j + 1] - gs->sfirst[j] != s0)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "%s: the groups hold different numbers of servers", m->kind);
    if (s0 == 0)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: the topology has no servers",
                            m->kind);
    *per = s0;
    return TK_OK;
}

/* adv i=I and advr i=I. */
static tk_status_t gen_adv_common(tkp_mk_t *m, int random, tk_error_t *err)
{
    groups_t gs;
    int64_t i, per, *src = NULL, *dst = NULL, *perm = NULL;
    tk_status_t st = tk_kv_int(m->kv, "i", 1, INT32_MAX, 1, 1, &i, err);

    if (st)
        return st;
    tkp_spec_add(m, "i=%" PRId64, i);
    m->randomized = random;
    st = groups_of(m, &gs, err);
    if (st)
        return st;
    if (i % gs.G == 0)
        st = tk_error_set(err, TK_EINVAL, NULL, 0,
                          "i=%" PRId64 ": a multiple of the %" PRId32 " groups", i, gs.G);
    if (!st)
        st = groups_uniform(m, &gs, &per, err);
    if (!st)
        st = tkp_begin(m, TK_LEVEL_SERVER, err);
    if (!st)
        st = tk_pattern_reserve(m->p, m->nserv, err);
    if (!st) {
        src = tk_malloc_array((size_t)per, sizeof *src);
        dst = tk_malloc_array((size_t)per, sizeof *dst);
        perm = tk_malloc_array((size_t)per, sizeof *perm);
        if (!src || !dst || !perm)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int32_t j = 0; j < gs.G && !st; j++) {
        group_servers(m, &gs, j, src);
        group_servers(m, &gs, (int32_t)((j + i) % gs.G), dst);
        if (random)
            st = tkp_random_perm(m->seed, (uint64_t)j, per, 0, perm, err);
        for (int64_t k = 0; k < per && !st; k++)
            st = tk_pattern_add(m->p, src[k], dst[random ? perm[k] : k], 1.0, err);
    }
    free(src);
    free(dst);
    free(perm);
    groups_free(&gs);
    return st;
}

tk_status_t tkp_gen_adv(tkp_mk_t *m, tk_error_t *err)
{
    return gen_adv_common(m, 0, err);
}

tk_status_t tkp_gen_advr(tkp_mk_t *m, tk_error_t *err)
{
    return gen_adv_common(m, 1, err);
}

/* Divide every weight by the largest receive total when it exceeds 1, so
 * the pattern stays admissible; records scale= in the spec. */
static void scale_admissible(tkp_mk_t *m)
{
    double *rcv = tk_calloc_array((size_t)m->p->endpoints, sizeof *rcv), mx = 0;

    if (!rcv)
        return; /* the check after generation reports it */
    for (int64_t k = 0; k < m->p->len; k++)
        rcv[m->p->d[k].dst] += m->p->d[k].w;
    for (int64_t e = 0; e < m->p->endpoints; e++)
        if (rcv[e] > mx)
            mx = rcv[e];
    free(rcv);
    if (mx > 1.0 + 1e-12) {
        char b[64];
        for (int64_t k = 0; k < m->p->len; k++)
            m->p->d[k].w /= mx;
        tk_pattern_fmt_double(b, sizeof b, 1.0 / mx);
        tkp_spec_result(m, "scale", "%s", b);
    }
}

/* advc (Fuentes, Vallejo, Camarero, Beivide and Valero, "Network
 * Unfairness in Dragonfly Topologies"): R_out of group g is the lowest-id
 * switch of g with a link into group g+1; the servers of g send equal
 * shares to every server of the groups (other than g) that R_out links
 * to. */
tk_status_t tkp_gen_advc(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    groups_t gs;
    int64_t per;
    char *mark = NULL;
    int64_t *dstsv = NULL, *srcsv = NULL;
    tk_status_t st = groups_of(m, &gs, err);

    if (st)
        return st;
    st = groups_uniform(m, &gs, &per, err);
    if (!st)
        st = tkp_begin(m, TK_LEVEL_SERVER, err);
    if (!st) {
        mark = calloc((size_t)gs.G, 1);
        dstsv = tk_malloc_array((size_t)m->nserv, sizeof *dstsv);
        srcsv = tk_malloc_array((size_t)per, sizeof *srcsv);
        if (!mark || !dstsv || !srcsv)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int32_t j = 0; j < gs.G && !st; j++) {
        int32_t next = (j + 1) % gs.G;
        tk_id_t rout = -1;
        for (int64_t i = gs.goff[j]; i < gs.goff[j + 1] && rout < 0; i++) {
            tk_id_t u = gs.members[i];
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
                if (gs.gi[g->head[a]] == next) {
                    rout = u;
                    break;
                }
        }
        if (rout < 0) {
            st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                              "advc: no switch of group %" PRId32 " links to group %" PRId32
                              " (R_out undefined)",
                              j, next);
            break;
        }
        memset(mark, 0, (size_t)gs.G);
        int64_t nd = 0;
        for (int64_t a = g->off[rout]; a < g->off[rout + 1]; a++) {
            int32_t t = gs.gi[g->head[a]];
            if (t != j && !mark[t]) {
                mark[t] = 1;
                group_servers(m, &gs, t, dstsv + nd);
                nd += per;
            }
        }
        group_servers(m, &gs, j, srcsv);
        st = tk_pattern_reserve(m->p, m->p->len + per * nd, err);
        double w = 1.0 / (double)nd;
        for (int64_t k = 0; k < per && !st; k++)
            for (int64_t x = 0; x < nd && !st; x++)
                st = tk_pattern_add(m->p, srcsv[k], dstsv[x], w, err);
    }
    if (!st)
        scale_admissible(m);
    free(mark);
    free(dstsv);
    free(srcsv);
    groups_free(&gs);
    return st;
}

/* ------------------------------------------------------------------------ */
/* mixed's participants: part[s] = 1 for round(pct% of the routers (all
 * their servers) or of the servers), the first ones of a seeded random
 * order (ids: max(servers, switches) of work). */
static tk_status_t mixed_participants(tkp_mk_t *m, int router, int64_t pct, char *part,
                                      int64_t *ids, tk_error_t *err)
{
    int64_t k = router ? m->g->n : m->nserv;
    int64_t take = (k * pct + 50) / 100;
    tk_status_t st = tkp_random_perm(m->seed, 0, k, 0, ids, err);

    for (int64_t x = 0; x < take && !st; x++) {
        if (router)
            for (int64_t s = m->first[ids[x]]; s < m->first[ids[x] + 1]; s++)
                part[s] = 1;
        else
            part[ids[x]] = 1;
    }
    return st;
}

/* base=perm: the participants send to a random derangement of
 * themselves (map[s]; ids: work). */
static tk_status_t mixed_perm(tkp_mk_t *m, const char *part, int64_t *map, int64_t *ids,
                              tk_error_t *err)
{
    int64_t np = 0;
    tk_status_t st = TK_OK;

    for (int64_t s = 0; s < m->nserv; s++)
        if (part[s])
            ids[np++] = s;
    int64_t *perm = tk_malloc_array((size_t)(np ? np : 1), sizeof *perm);
    if (!perm)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if (!st)
        st = tkp_random_perm(m->seed, 1, np, 1, perm, err);
    for (int64_t x = 0; x < np && !st; x++)
        map[ids[x]] = ids[perm[x]];
    free(perm);
    return st;
}

/* base=shift, Chaulagain and Yuan's shift: participating server k of
 * group j sends to server k of group j+1 (map[s]). */
static tk_status_t mixed_shift(const tkp_mk_t *m, const groups_t *gs, const char *part,
                               int64_t *map, tk_error_t *err)
{
    int64_t per = gs->sfirst[1] - gs->sfirst[0];
    int64_t *a = tk_malloc_array((size_t)per, sizeof *a);
    int64_t *b = tk_malloc_array((size_t)per, sizeof *b);
    tk_status_t st = TK_OK;

    if (!a || !b)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int32_t j = 0; j < gs->G && !st; j++) {
        group_servers(m, gs, j, a);
        group_servers(m, gs, (j + 1) % gs->G, b);
        for (int64_t x = 0; x < per; x++)
            if (part[a[x]])
                map[a[x]] = b[x];
    }
    free(a);
    free(b);
    return st;
}

/* The demands: a participant s to map[s] (none when map[s] is -1 or s),
 * everyone else uniform over all the other servers. */
static tk_status_t mixed_demands(tkp_mk_t *m, const char *part, const int64_t *map, tk_error_t *err)
{
    int64_t N = m->nserv, nu = 0;
    tk_status_t st = TK_OK;

    for (int64_t s = 0; s < N; s++)
        nu += !part[s];
    if ((double)nu * (double)N * sizeof(tk_demand_t) > 0.5 * (double)tk_memory_limit_default())
        st = tk_error_set(err, TK_ELIMIT, NULL, 0, "mixed: too many demands");
    if (!st)
        st = tk_pattern_reserve(m->p, (N - nu) + nu * (N - 1), err);
    double w = N > 1 ? 1.0 / (double)(N - 1) : 0;
    for (int64_t s = 0; s < N && !st; s++) {
        if (part[s]) {
            if (map[s] >= 0 && map[s] != s)
                st = tk_pattern_add(m->p, s, map[s], 1.0, err);
            continue;
        }
        for (int64_t t = 0; t < N && !st; t++)
            if (t != s)
                st = tk_pattern_add(m->p, s, t, w, err);
    }
    return st;
}

/* mixed base=perm|shift percent=X level=router|node (Chaulagain and Yuan,
 * "Enhanced UGAL Routing Schemes for Dragonfly Networks"): the base
 * pattern among X% of the routers or servers, uniform for the others. */
tk_status_t tkp_gen_mixed(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    const char *base, *lv;
    int64_t pct;
    char *part = NULL;
    int64_t *map = NULL, *ids = NULL;
    groups_t gs;
    tk_status_t st;

    memset(&gs, 0, sizeof gs);
    m->randomized = 1;
    st = tk_kv_str(m->kv, "base", 0, NULL, &base, err);
    if (!st)
        st = tk_kv_int(m->kv, "percent", 0, 100, 0, 0, &pct, err);
    if (!st)
        st = tk_kv_str(m->kv, "level", 1, "switch", &lv, err);
    if (st)
        return st;
    if (strcmp(base, "perm") && strcmp(base, "shift"))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "base=%s: must be perm or shift", base);
    /* topokit(7)'s words; Chaulagain and Yuan's router and node are
     * accepted as aliases (issue 25) and recorded canonically */
    if (strcmp(lv, "router") == 0)
        lv = "switch";
    else if (strcmp(lv, "node") == 0)
        lv = "server";
    if (strcmp(lv, "switch") && strcmp(lv, "server"))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "level=%s: must be switch or server (or router or node)", lv);
    tkp_spec_add(m, "base=%s percent=%" PRId64 " level=%s", base, pct, lv);
    if (strcmp(base, "shift") == 0) {
        int64_t per;
        st = groups_of(m, &gs, err);
        if (!st)
            st = groups_uniform(m, &gs, &per, err);
        if (st) {
            groups_free(&gs);
            return st;
        }
    }
    st = tkp_begin(m, TK_LEVEL_SERVER, err);
    int64_t N = m->nserv;
    if (!st) {
        part = calloc((size_t)N, 1);
        map = tk_malloc_array((size_t)N, sizeof *map);
        ids = tk_malloc_array((size_t)(N > g->n ? N : g->n), sizeof *ids);
        if (!part || !map || !ids)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    if (!st)
        st = mixed_participants(m, strcmp(lv, "switch") == 0, pct, part, ids, err);
    if (!st) {
        for (int64_t s = 0; s < N; s++)
            map[s] = -1;
        if (strcmp(base, "perm") == 0)
            st = mixed_perm(m, part, map, ids, err);
        else
            st = mixed_shift(m, &gs, part, map, err);
    }
    if (!st)
        st = mixed_demands(m, part, map, err);
    if (!st)
        scale_admissible(m);
    free(part);
    free(map);
    free(ids);
    groups_free(&gs);
    return st;
}

/* hotspot count=H: H servers chosen at random; every other server sends
 * 1/(N-H) to each of them, so each hot server receives exactly 1. */
tk_status_t tkp_gen_hotspot(tkp_mk_t *m, tk_error_t *err)
{
    int64_t h, *perm = NULL;
    char *hot = NULL;
    tk_status_t st = tk_kv_int(m->kv, "count", 1, INT32_MAX, 1, 1, &h, err);

    m->randomized = 1;
    if (st)
        return st;
    tkp_spec_add(m, "count=%" PRId64, h);
    st = tkp_begin(m, TK_LEVEL_SERVER, err);
    if (st)
        return st;
    int64_t N = m->nserv;
    if (2 * h > N)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "count=%" PRId64 ": more than half of the %" PRId64 " servers", h, N);
    perm = tk_malloc_array((size_t)N, sizeof *perm);
    hot = calloc((size_t)N, 1);
    if (!perm || !hot)
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if (!st)
        st = tkp_random_perm(m->seed, 0, N, 0, perm, err);
    for (int64_t x = 0; x < h && !st; x++)
        hot[perm[x]] = 1;
    if (!st)
        st = tk_pattern_reserve(m->p, (N - h) * h, err);
    /* The hot servers in increasing order (perm[] reused). */
    int64_t nh = 0;
    for (int64_t t = 0; t < N; t++)
        if (hot[t])
            perm[nh++] = t;
    double w = 1.0 / (double)(N - h);
    for (int64_t s = 0; s < N && !st; s++)
        if (!hot[s])
            for (int64_t x = 0; x < nh && !st; x++)
                st = tk_pattern_add(m->p, s, perm[x], w, err);
    free(perm);
    free(hot);
    return st;
}
