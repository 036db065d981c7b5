/*
 * mcf_approx.c - certified (1 - eps) maximum concurrent flow: Garg-Koenemann
 * / Fleischer multiplicative length updates, with all demands of one source
 * routed together on shortest path trees (Karakostas), the trees of a batch
 * of sources grown at once.
 *
 * Lengths start at l(a) = 1 / cap(a).  The demands are scaled by U, the
 * initial dual bound, so one phase routes at least the optimum's worth of
 * every demand.  A phase routes, for every source s in turn, its whole
 * remaining demand on a tree from s, in steps scaled down by sigma = max(1,
 * max_a treeload(a) / cap(a)), and multiplies each tree arc's length by
 * 1 + step * flow(a) / cap(a), step = eps / 2.
 *
 * Batches (tk_mcf.h): the sources with demand are cut into batches of
 * opts.batch in source order; the trees of a batch are grown together
 * (threads, or opts.grow's processes) on the lengths at its start, which
 * give each destination t a distance lb(t) <= its distance at any later
 * time of the phase.  Routing s, a tree is used for a step while every
 * path to a destination with demand left has current length <= (1 + step)
 * lb(t), and grown again (lb then its new distances) when one does not.
 * That is Fleischer's condition: Garg and Koenemann's analysis needs each
 * step's flow f on paths P to raise D(l) = sum_a l(a) cap(a) by step * f *
 * l(P) <= step (1 + step) f dist_end(t), so the phase bound D_k <= D_{k-1}
 * / (1 - step (1 + step) / theta*) holds with (1 + step) folded in, as for
 * (1 + eps)-approximate shortest paths.
 *
 * Bounds, both certified whatever paths were used:
 *  lower: phase k routes U_k * d (U_k the best dual bound when it
 *         starts), so theta >= sum_k U_k / max_a (F(a) / cap(a));
 *  upper: weak duality, theta* <= D(l) / alpha(l) for any lengths l >= 0,
 *         D(l) = sum_a l(a) cap(a), alpha(l) = sum_st d(s,t) dist_l(s,t).
 *         Lengths only grow within a phase, so the distances of the tree
 *         each source's first step used (exact shortest distances at the
 *         time it was grown) are at most those at the phase's end:
 *         D(l_end) / sum_s alpha_s(that tree) is a valid bound.
 * The run stops when (upper - lower) / upper <= eps.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#endif

#include "mcf_internal.h"

typedef struct heap {
    int32_t *h;   /* heap of nodes */
    int32_t *pos; /* position in heap or -1 */
    int32_t len;
} heap_t;

static void heap_up(heap_t *H, const double *key, int32_t i)
{
    int32_t v = H->h[i];
    while (i > 0) {
        int32_t p = (i - 1) / 2;
        if (key[H->h[p]] <= key[v])
            break;
        H->h[i] = H->h[p];
        H->pos[H->h[i]] = i;
        i = p;
    }
    H->h[i] = v;
    H->pos[v] = i;
}

static void heap_down(heap_t *H, const double *key, int32_t i)
{
    int32_t v = H->h[i];
    for (;;) {
        int32_t c = 2 * i + 1;
        if (c >= H->len)
            break;
        if (c + 1 < H->len && key[H->h[c + 1]] < key[H->h[c]])
            c++;
        if (key[H->h[c]] >= key[v])
            break;
        H->h[i] = H->h[c];
        H->pos[H->h[i]] = i;
        i = c;
    }
    H->h[i] = v;
    H->pos[v] = i;
}

typedef struct work {
    const tk_graph_t *g;
    double *len;         /* m arc lengths (owned unless shared)      */
    int shared_len;      /* len belongs to someone else              */
    double *dist;        /* n                                        */
    int64_t *pred;       /* n: tree arc into v                       */
    int32_t *order;      /* n: settle order                          */
    double *acc;         /* n: demand below v (by tree position)     */
    double *cur;         /* n: current path lengths (by position)    */
    double *rem;         /* n: remaining demand of the current source per dst */
    int32_t *pos;        /* n: -1, or a node's position while a tree is cut */
    const int32_t *tail; /* m */
    heap_t H;
} work_t;

/* Dijkstra from s over all switches; fills dist, pred, order; returns the
 * number of settled switches.  O(m log n). */
static int32_t dijkstra(work_t *w, tk_id_t s)
{
    const tk_graph_t *g = w->g;
    heap_t *H = &w->H;
    int32_t nset = 0;

    for (tk_id_t v = 0; v < g->n; v++) {
        w->dist[v] = HUGE_VAL;
        H->pos[v] = -1;
        w->pred[v] = -1;
    }
    w->dist[s] = 0;
    H->len = 1;
    H->h[0] = s;
    H->pos[s] = 0;
    while (H->len > 0) {
        int32_t u = H->h[0];
        H->len--;
        H->pos[u] = -2; /* settled */
        if (H->len > 0) {
            H->h[0] = H->h[H->len];
            H->pos[H->h[0]] = 0;
            heap_down(H, w->dist, 0);
        }
        w->order[nset++] = u;
        double du = w->dist[u];
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            int32_t v = g->head[a];
            double nd = du + w->len[a];
            if (nd < w->dist[v]) {
                if (H->pos[v] == -2)
                    continue;
                w->dist[v] = nd;
                w->pred[v] = a;
                if (H->pos[v] < 0) {
                    H->h[H->len] = v;
                    H->pos[v] = H->len;
                    H->len++;
                }
                heap_up(H, w->dist, H->pos[v]);
            }
        }
    }
    return nset;
}

static void work_free(work_t *w)
{
    if (!w->shared_len)
        free(w->len);
    free(w->dist);
    free(w->pred);
    free(w->order);
    free(w->acc);
    free(w->cur);
    free(w->rem);
    free(w->pos);
    free(w->H.h);
    free(w->H.pos);
}

/* The arrays every Dijkstra user needs (len unless shared_len is given,
 * dist, pred, order, heap); 0 when one is missing (work_free frees what
 * was allocated). */
static int work_init(work_t *w, const tk_graph_t *g, double *shared_len)
{
    int64_t n = g->n, m = g->m;
    memset(w, 0, sizeof *w);
    w->g = g;
    w->shared_len = shared_len != NULL;
    w->len = shared_len ? shared_len : tk_malloc_array((size_t)m + 1, sizeof *w->len);
    w->dist = tk_malloc_array((size_t)n, sizeof *w->dist);
    w->pred = tk_malloc_array((size_t)n, sizeof *w->pred);
    w->order = tk_malloc_array((size_t)n, sizeof *w->order);
    w->H.h = tk_malloc_array((size_t)n, sizeof *w->H.h);
    w->H.pos = tk_malloc_array((size_t)n, sizeof *w->H.pos);
    return w->len && w->dist && w->pred && w->order && w->H.h && w->H.pos;
}

/* work_init and the position marks of tree cutting (all -1). */
static int work_init_cut(work_t *w, const tk_graph_t *g, double *shared_len, const int32_t *tail)
{
    int ok = work_init(w, g, shared_len);
    w->tail = tail;
    w->pos = tk_malloc_array((size_t)g->n, sizeof *w->pos);
    if (!ok || !w->pos)
        return 0;
    for (int64_t v = 0; v < g->n; v++)
        w->pos[v] = -1;
    return 1;
}

tk_status_t mcf_dual_bound(const tk_graph_t *g, const tk_swdemand_t *d, const double *len,
                           double *ub, tk_error_t *err)
{
    work_t w;
    double D = 0, alpha = 0;
    int64_t n = g->n, m = g->m;

    if (!work_init(&w, g, NULL)) {
        work_free(&w);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (int64_t a = 0; a < m; a++) {
        w.len[a] = len[a] > 0 ? len[a] : 0;
        D += w.len[a] * tk_graph_cap(g, a);
    }
    for (tk_id_t s = 0; s < n; s++) {
        if (d->off[s + 1] == d->off[s])
            continue;
        dijkstra(&w, s);
        for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
            if (d->dst[e] != s)
                alpha += d->w[e] * w.dist[d->dst[e]];
    }
    *ub = alpha > 0 ? D / alpha : HUGE_VAL;
    work_free(&w);
    return TK_OK;
}

/* The lengths of the first trees: l(a) = 1 / cap(a). */
static void first_lengths(const tk_graph_t *g, double *len)
{
    for (int64_t a = 0; a < g->m; a++)
        len[a] = 1.0 / tk_graph_cap(g, a);
}

tk_status_t tk_mcf_approx_first(const tk_graph_t *g, const tk_swdemand_t *d, tk_id_t lo, tk_id_t hi,
                                int threads, double *dist, tk_error_t *err)
{
    if (!g || !d || d->n != g->n || lo < 0 || hi > g->n || lo > hi)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "approximation: bad source range %lld..%lld",
                            (long long)lo, (long long)hi);
    int nt = threads > 0 ? threads : omp_get_max_threads();
    int64_t busy = 0;
    for (tk_id_t s = lo; s < hi; s++)
        busy += d->off[s + 1] > d->off[s];
    if (nt > busy)
        nt = busy > 0 ? (int)busy : 1;
    int bad = 0;
    /* Sources are independent: each thread its own Dijkstra arrays, each
     * source its own slots of dist, so any thread count gives the same
     * bytes. */
#pragma omp parallel num_threads(nt) reduction(| : bad)
    {
        work_t w;
        int ok = work_init(&w, g, NULL);
        if (ok)
            first_lengths(g, w.len);
        else
            bad = 1;
#pragma omp for schedule(dynamic, 1)
        for (tk_id_t s = lo; s < hi; s++) {
            if (!ok || d->off[s + 1] == d->off[s])
                continue;
            dijkstra(&w, s);
            for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
                dist[e - d->off[lo]] = w.dist[d->dst[e]];
        }
        work_free(&w);
    }
    return bad ? tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory") : TK_OK;
}

void tk_mcf_approx_first_add(const tk_swdemand_t *d, tk_id_t lo, tk_id_t hi, const double *dist,
                             double *alpha)
{
    double x = *alpha;
    for (int64_t e = d->off[lo]; e < d->off[hi]; e++)
        x += d->w[e] * dist[e - d->off[lo]];
    *alpha = x;
}

/* Sources per block of the first trees (their distances are held a block
 * at a time). */
#define FIRST_BLOCK 256

/* The demand scale U: the dual bound at the initial lengths, whose alpha
 * is o->first_alpha when the caller computed it (another process), else
 * the first trees' here, a block of sources at a time. */
static tk_status_t initial_scale(work_t *w, const tk_swdemand_t *d, const double *cap,
                                 const tk_mcf_opts_t *o, double *U, tk_error_t *err)
{
    const tk_graph_t *g = w->g;
    double D = 0, alpha = 0;

    for (int64_t a = 0; a < g->m; a++)
        D += w->len[a] * cap[a];
    if (o->first_alpha > 0) {
        *U = D / o->first_alpha;
        return TK_OK;
    }
    for (tk_id_t lo = 0; lo < g->n; lo += FIRST_BLOCK) {
        tk_id_t hi = g->n - lo > FIRST_BLOCK ? lo + FIRST_BLOCK : g->n;
        double *dist = tk_malloc_array((size_t)(d->off[hi] - d->off[lo]) + 1, sizeof *dist);
        if (!dist)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        tk_status_t st = tk_mcf_approx_first(g, d, lo, hi, o->threads, dist, err);
        if (st == TK_OK)
            tk_mcf_approx_first_add(d, lo, hi, dist, &alpha);
        free(dist);
        if (st != TK_OK)
            return st;
    }
    *U = D / alpha;
    return TK_OK;
}

/* A tree, as one block of bytes (its own allocation, or bytes from
 * another process): int64 s, k, nd; int64 arc[k]; double lb[nd]; int32
 * node[k], par[k], at[nd].  Position 0 is the source (arc and par -1),
 * every other position's parent comes before it (settle order); only the
 * switches on the paths to s's destinations are kept.  For demand entry e
 * (d->off[s] + j), lb[j] is the destination's distance on the lengths the
 * tree was grown on and at[j] its position (-1: the source itself). */
typedef struct tree {
    int64_t s, k, nd;
    int64_t *arc;
    double *lb;
    int32_t *node, *par, *at;
} tree_t;

static size_t tree_bytes(int64_t k, int64_t nd)
{
    return 8 * (size_t)(3 + k + nd) + 4 * (size_t)(2 * k + nd);
}

static void tree_view(void *p, tree_t *t)
{
    int64_t *h = p;
    t->s = h[0];
    t->k = h[1];
    t->nd = h[2];
    t->arc = h + 3;
    t->lb = (double *)(t->arc + t->k);
    t->node = (int32_t *)(t->lb + t->nd);
    t->par = t->node + t->k;
    t->at = t->par + t->k;
}

/* The tree of s just grown in w (nset settled), cut to the paths to s's
 * destinations; NULL when out of memory. */
static void *tree_cut(work_t *w, const tk_swdemand_t *d, tk_id_t s, int32_t nset, size_t *size)
{
    int64_t nd = d->off[s + 1] - d->off[s], k = 1;
    int32_t *pos = w->pos;

    pos[s] = -2; /* -2: kept, position not yet given */
    for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
        for (int32_t t = d->dst[e]; pos[t] == -1 && w->pred[t] >= 0; t = w->tail[w->pred[t]]) {
            pos[t] = -2;
            k++;
        }
    *size = tree_bytes(k, nd);
    void *p = malloc(*size);
    int64_t j = 0;
    tree_t T;
    if (p) {
        int64_t *h = p;
        h[0] = s;
        h[1] = k;
        h[2] = nd;
        tree_view(p, &T);
    }
    for (int32_t i = 0; i < nset && j < k; i++) {
        int32_t v = w->order[i];
        if (pos[v] != -2)
            continue;
        pos[v] = (int32_t)j;
        if (p) {
            T.node[j] = v;
            T.arc[j] = v == s ? -1 : w->pred[v];
            T.par[j] = v == s ? -1 : pos[w->tail[w->pred[v]]];
        }
        j++;
    }
    if (p)
        for (int64_t e = d->off[s], x = 0; e < d->off[s + 1]; e++, x++) {
            int32_t t = d->dst[e];
            T.at[x] = t == s || pos[t] < 0 ? -1 : pos[t];
            T.lb[x] = T.at[x] < 0 ? 0 : w->dist[t];
        }
    /* clear the marks: the kept switches (all settled), the source */
    for (int32_t i = 0; i < nset; i++)
        pos[w->order[i]] = -1;
    return p;
}

struct tk_mcf_batch {
    const tk_graph_t *g;
    const tk_swdemand_t *d;
    double *len;         /* the lengths at the batch's start */
    const int32_t *tail; /* m */
    const tk_id_t *src;  /* count sources */
    int64_t count;
    void **tree; /* count trees (NULL: not grown yet) */
    size_t *size;
};

int64_t tk_mcf_batch_sources(const tk_mcf_batch_t *b)
{
    return b ? b->count : 0;
}

tk_status_t tk_mcf_batch_grow(tk_mcf_batch_t *b, int64_t lo, int64_t hi, int threads,
                              tk_error_t *err)
{
    if (!b || lo < 0 || hi > b->count || lo > hi)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "approximation: bad batch range %lld..%lld",
                            (long long)lo, (long long)hi);
    int nt = threads > 0 ? threads : omp_get_max_threads();
    if (nt > hi - lo)
        nt = hi - lo > 0 ? (int)(hi - lo) : 1;
    int bad = 0;
    /* Trees are independent: each thread its own Dijkstra arrays, each
     * tree its own block, so any thread count gives the same bytes. */
#pragma omp parallel num_threads(nt) reduction(| : bad)
    {
        work_t w;
        int ok = work_init_cut(&w, b->g, b->len, b->tail);
        if (!ok)
            bad = 1;
#pragma omp for schedule(dynamic, 1)
        for (int64_t i = lo; i < hi; i++) {
            if (!ok)
                continue;
            free(b->tree[i]);
            int32_t nset = dijkstra(&w, b->src[i]);
            b->tree[i] = tree_cut(&w, b->d, b->src[i], nset, &b->size[i]);
            if (!b->tree[i])
                bad = 1;
        }
        work_free(&w);
    }
    return bad ? tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory") : TK_OK;
}

size_t tk_mcf_batch_tree(const tk_mcf_batch_t *b, int64_t i, const void **bytes)
{
    if (!b || i < 0 || i >= b->count || !b->tree[i]) {
        *bytes = NULL;
        return 0;
    }
    *bytes = b->tree[i];
    return b->size[i];
}

/* Whether the bytes p (len) describe a tree of source s of b's graph. */
static int tree_valid(const tk_mcf_batch_t *b, tk_id_t s, const void *p, size_t len)
{
    const tk_graph_t *g = b->g;
    const tk_swdemand_t *d = b->d;
    int64_t h[3];
    tree_t T;

    if (len < sizeof h)
        return 0;
    memcpy(h, p, sizeof h);
    if (h[0] != s || h[1] < 1 || h[1] > g->n || h[2] != d->off[s + 1] - d->off[s] ||
        len != tree_bytes(h[1], h[2]))
        return 0;
    tree_view((void *)p, &T);
    if (T.node[0] != s || T.arc[0] != -1 || T.par[0] != -1)
        return 0;
    for (int64_t i = 1; i < T.k; i++) {
        int64_t a = T.arc[i];
        if (T.par[i] < 0 || T.par[i] >= i || a < 0 || a >= g->m || g->head[a] != T.node[i] ||
            b->tail[a] != T.node[T.par[i]])
            return 0;
    }
    for (int64_t x = 0; x < T.nd; x++) {
        int32_t t = d->dst[d->off[s] + x];
        if (T.at[x] < -1 || T.at[x] >= T.k || (T.at[x] >= 0 && T.node[T.at[x]] != t) ||
            !(T.lb[x] >= 0) || !isfinite(T.lb[x]))
            return 0;
    }
    return 1;
}

tk_status_t tk_mcf_batch_set(tk_mcf_batch_t *b, int64_t i, const void *bytes, size_t len,
                             tk_error_t *err)
{
    if (!b || i < 0 || i >= b->count)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "approximation: bad batch tree %lld",
                            (long long)i);
    void *p = malloc(len ? len : 1);
    if (!p)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    memcpy(p, bytes, len); /* aligned for tree_view */
    if (!tree_valid(b, b->src[i], p, len)) {
        free(p);
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "approximation: the bytes of batch tree %lld (source %lld) are not "
                            "a tree of it",
                            (long long)i, (long long)b->src[i]);
    }
    free(b->tree[i]);
    b->tree[i] = p;
    b->size[i] = len;
    return TK_OK;
}

/* Whether tree T still carries every destination with demand left on a
 * path at most (1 + step) times its distance lower bound, on the current
 * lengths. */
static int tree_short(work_t *w, const tk_swdemand_t *d, const tree_t *T, double step)
{
    double *cur = w->cur;
    cur[0] = 0;
    for (int64_t i = 1; i < T->k; i++)
        cur[i] = cur[T->par[i]] + w->len[T->arc[i]];
    for (int64_t x = 0; x < T->nd; x++) {
        int32_t at = T->at[x];
        if (at >= 0 && w->rem[d->dst[d->off[T->s] + x]] > 0 && cur[at] > (1 + step) * T->lb[x])
            return 0;
    }
    return 1;
}

/* One step of tree T's source: its remaining demands (w->rem) on the tree,
 * scaled down by sigma = max(1, peak tree load / capacity); the flow joins
 * F and lengthens the tree arcs.  Returns sigma. */
static double tree_step(work_t *w, const tree_t *T, double step, double *F, const double *cap)
{
    double sigma = 1, *acc = w->acc;

    for (int64_t i = 0; i < T->k; i++)
        acc[i] = w->rem[T->node[i]];
    for (int64_t i = T->k - 1; i > 0; i--) {
        int64_t a = T->arc[i];
        if (acc[i] <= 0)
            continue;
        acc[T->par[i]] += acc[i];
        if (acc[i] / cap[a] > sigma)
            sigma = acc[i] / cap[a];
    }
    for (int64_t i = T->k - 1; i > 0; i--) {
        int64_t a = T->arc[i];
        if (acc[i] <= 0)
            continue;
        double f = acc[i] / sigma;
        F[a] += f;
        w->len[a] *= 1 + step * f / cap[a];
    }
    return sigma;
}

/* One step of the source of the round's tree j, whose demands times *q
 * are left: on tree j while it is short enough (tree_short), else on a
 * tree grown again on the current lengths (*regrown counts them); *alpha
 * gains the demands' distances on that tree when *first (then cleared).
 * *q becomes what is left (0: done).  0 when out of memory. */
static int source_step(work_t *w, tk_mcf_batch_t *b, int64_t j, double *q, int *first, double U,
                       double step, double *F, const double *cap, double *alpha, int64_t *regrown)
{
    const tk_swdemand_t *d = b->d;
    tk_id_t s = b->src[j];
    double dsum = 0;
    tree_t T;

    for (int64_t e = d->off[s]; e < d->off[s + 1]; e++) {
        w->rem[d->dst[e]] += *q * d->w[e];
        dsum += d->w[e];
    }
    tree_view(b->tree[j], &T);
    if (!tree_short(w, d, &T, step)) {
        int32_t nset = dijkstra(w, s);
        void *p = tree_cut(w, d, s, nset, &b->size[j]);
        if (!p)
            return 0;
        free(b->tree[j]);
        b->tree[j] = p;
        tree_view(p, &T);
        ++*regrown;
    }
    if (*first) {
        for (int64_t x = 0; x < T.nd; x++)
            *alpha += d->w[d->off[s] + x] * T.lb[x];
        *first = 0;
    }
    double sigma = tree_step(w, &T, step, F, cap);
    for (int64_t e = d->off[s]; e < d->off[s + 1]; e++)
        w->rem[d->dst[e]] = 0;
    *q = sigma <= 1 ? 0 : *q * (1 - 1 / sigma);
    if (*q * dsum < 1e-12 * U)
        *q = 0;
    return 1;
}

/* --links: the arcs at the peak congestion of the routed flow F, within
 * eps, priced by their lengths. */
static tk_status_t approx_links(const work_t *w, const double *F, const double *cap, double eps,
                                tk_mcf_result_t *out, tk_error_t *err)
{
    int64_t m = w->g->m, cnt = 0;
    double cong = 0, norm = 0;

    for (int64_t a = 0; a < m; a++)
        if (F[a] / cap[a] > cong)
            cong = F[a] / cap[a];
    for (int64_t a = 0; a < m; a++)
        if (F[a] / cap[a] >= (1 - eps) * cong) {
            cnt++;
            norm += w->len[a] * cap[a];
        }
    out->sat_arc = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_arc);
    out->sat_dual = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_dual);
    out->sat_load = tk_malloc_array((size_t)cnt + 1, sizeof *out->sat_load);
    if (!out->sat_arc || !out->sat_dual || !out->sat_load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t a = 0; a < m; a++)
        if (F[a] / cap[a] >= (1 - eps) * cong) {
            out->sat_arc[out->nsat] = a;
            out->sat_dual[out->nsat] = w->len[a] / norm;
            out->sat_load[out->nsat] = F[a] / cap[a] / cong;
            out->nsat++;
        }
    return TK_OK;
}

/* Free a batch's trees. */
static void batch_clear(tk_mcf_batch_t *b, int64_t count)
{
    for (int64_t i = 0; i < count; i++) {
        free(b->tree[i]);
        b->tree[i] = NULL;
        b->size[i] = 0;
    }
}

tk_status_t mcf_approx(const tk_graph_t *g, const tk_swdemand_t *d, const tk_mcf_opts_t *o,
                       tk_mcf_result_t *out, tk_error_t *err)
{
    work_t w;
    double *F = NULL, *cap = NULL;
    int32_t *tail = NULL;
    tk_id_t *src = NULL, *psrc = NULL;
    int64_t *pidx = NULL;
    int *first = NULL;
    double *q = NULL;
    int64_t n = g->n, m = g->m, nsrc = 0, B = o->batch > 0 ? o->batch : TK_MCF_APPROX_BATCH;
    double U = 0, lower = 0, upper = HUGE_VAL, step, t0 = mcf_now();
    int64_t phases = 0, regrown = 0;
    double routed = 0; /* sum of the demand scales of the finished phases */
    tk_status_t st = TK_OK;
    tk_mcf_batch_t b;

    memset(&b, 0, sizeof b);
    memset(&w, 0, sizeof w);
    tail = tk_malloc_array((size_t)m + 1, sizeof *tail);
    int have = tail && work_init_cut(&w, g, NULL, tail);
    w.acc = tk_malloc_array((size_t)n, sizeof *w.acc);
    w.cur = tk_malloc_array((size_t)n, sizeof *w.cur);
    w.rem = tk_calloc_array((size_t)n, sizeof *w.rem);
    F = tk_calloc_array((size_t)m + 1, sizeof *F);
    cap = tk_malloc_array((size_t)m + 1, sizeof *cap);
    src = tk_malloc_array((size_t)n, sizeof *src);
    if (B > n)
        B = n;
    b.tree = tk_calloc_array((size_t)B, sizeof *b.tree);
    b.size = tk_calloc_array((size_t)B, sizeof *b.size);
    psrc = tk_malloc_array((size_t)B, sizeof *psrc);
    pidx = tk_malloc_array((size_t)B, sizeof *pidx);
    first = tk_malloc_array((size_t)B, sizeof *first);
    q = tk_malloc_array((size_t)B, sizeof *q);
    if (!have || !w.acc || !w.cur || !w.rem || !F || !cap || !src || !b.tree || !b.size || !psrc ||
        !pidx || !first || !q) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    for (int64_t u = 0; u < n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            tail[a] = (int32_t)u;
    for (int64_t a = 0; a < m; a++)
        cap[a] = tk_graph_cap(g, a);
    for (tk_id_t s = 0; s < n; s++)
        if (d->off[s + 1] > d->off[s])
            src[nsrc++] = s;
    b.g = g;
    b.d = d;
    b.len = w.len;
    b.tail = tail;
    first_lengths(g, w.len);
    if ((st = initial_scale(&w, d, cap, o, &U, err)) != TK_OK)
        goto done;
    upper = U;
    step = o->eps / 2;
    /* The number of phases is not known in advance: the sources routed are
     * counted without a total. */
    tk_progress_begin(o->progress, "approximation", "sources", 0);
    for (;;) {
        double alpha = 0, D = 0, cong = 0;
        for (int64_t lo = 0; lo < nsrc; lo += B) {
            /* a batch: rounds of one step per source with demand left */
            int64_t npend = nsrc - lo < B ? nsrc - lo : B;
            for (int64_t i = 0; i < npend; i++) {
                q[i] = U;
                first[i] = 1;
                pidx[i] = i;
            }
            while (npend > 0) {
                for (int64_t j = 0; j < npend; j++)
                    psrc[j] = src[lo + pidx[j]];
                b.src = psrc;
                b.count = npend;
                st = o->grow ? o->grow(o->grow_ctx, &b, err)
                             : tk_mcf_batch_grow(&b, 0, b.count, o->threads, err);
                for (int64_t j = 0; j < b.count && st == TK_OK; j++)
                    if (!b.tree[j])
                        st = tk_error_set(err, TK_EINTERNAL, NULL, 0,
                                          "approximation: tree %lld of a batch was not grown",
                                          (long long)j);
                if (st != TK_OK)
                    goto done;
                int64_t left = 0;
                for (int64_t j = 0; j < npend; j++) {
                    int64_t i = pidx[j];
                    if (!source_step(&w, &b, j, &q[i], &first[i], U, step, F, cap, &alpha,
                                     &regrown)) {
                        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
                        goto done;
                    }
                    if (q[i] > 0)
                        pidx[left++] = i;
                    else
                        tk_progress_add(o->progress, 1);
                }
                batch_clear(&b, npend);
                npend = left;
            }
        }
        phases++;
        routed += U;
        for (int64_t a = 0; a < m; a++) {
            D += w.len[a] * cap[a];
            if (F[a] / cap[a] > cong)
                cong = F[a] / cap[a];
        }
        if (alpha > 0 && D / alpha < upper)
            upper = D / alpha;
        if (cong > 0 && routed / cong > lower)
            lower = routed / cong;
        U = upper; /* the next phase routes the current bound's worth */
        /* rescale lengths (ratios are all that matter) */
        for (int64_t a = 0; a < m; a++)
            w.len[a] /= D;
        if (upper - lower <= o->eps * upper)
            break;
        int over = o->time_limit > 0 && mcf_now() - t0 > o->time_limit;
        if (o->time_limit > 0 && o->agree)
            over = o->agree(o->grow_ctx, over);
        if (over) {
            if (!(lower > 0 && isfinite(upper))) {
                st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                                  "time limit of %g s reached (approx: no certified interval "
                                  "after %lld phases)",
                                  o->time_limit, (long long)phases);
                goto done;
            }
            /* stopped: [lower, upper] is still certified */
            out->stopped = 1;
            break;
        }
    }
    out->theta = lower;
    out->upper = upper;
    out->gap = upper > 0 ? (upper - lower) / upper : 0;
    out->method = TK_MCF_APPROX;
    out->iterations = phases;
    out->regrown = regrown;
    if (o->links)
        st = approx_links(&w, F, cap, o->eps, out, err);
done:
    tk_progress_end(o->progress);
    if (b.tree)
        batch_clear(&b, B);
    free(b.tree);
    free(b.size);
    work_free(&w);
    free(tail);
    free(src);
    free(psrc);
    free(pidx);
    free(first);
    free(q);
    free(F);
    free(cap);
    return st;
}
