/*
 * bisect.c - bisection bandwidth bounds.
 *
 * Lower bound.  For sides of a and b = n - a switches, the vector x with
 * x_v = b on one side and -a on the other is orthogonal to the constant
 * vector, x'Lx = cut * n^2 and x'x = a b n, so the Courant-Fischer
 * characterisation of lambda2 gives cut >= lambda2 * a * b / n.  A bisection
 * has a = floor(n/2), b = ceil(n/2): lb = lambda2 * a * b / n, i.e.
 * lambda2 * n / 4 for even n.
 *
 * Upper bound.  Candidate vectors: the Fiedler vector, and when lambda2 is
 * repeated and several eigenvectors are known, directions of the eigenspace
 * found by FastICA with the kurtosis contrast (the eigenspace of Q_d's
 * lambda2 is spanned by the coordinate functions, independent +-1 variables,
 * which ICA recovers; a torus' by the cosines along each dimension).  Each
 * candidate is split at its median (ties broken by a seeded random key), the
 * split refined by Fiduccia-Mattheyses passes that keep the sides at
 * floor(n/2) and ceil(n/2) switches, and the best cut wins.
 *
 * FM pass: every switch moves once, best gain first (binary heap per side,
 * ties by the random key); with n even a move from either side is followed
 * by one from the other, with n odd the larger side always gives; the pass
 * is rolled back to its best balanced prefix.  Passes repeat while they
 * improve the cut.  All serial, so independent of the thread count.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "spectral_internal.h"

/* ------------------------------------------------------------------------ */
/* Heap of switches keyed by (gain, key), largest first.                    */

typedef struct heap {
    int32_t *h;
    int64_t len;
} heap_t;

typedef struct fm {
    const tk_lap_t *l;
    int64_t n;
    int8_t *side;
    double *gain;
    uint32_t *key;
    int64_t *pos; /* index in its heap, -1 if not in a heap */
    int32_t *moves;
    heap_t hp[2];
} fm_t;

static int fm_before(const fm_t *f, int32_t a, int32_t b)
{
    if (f->gain[a] != f->gain[b])
        return f->gain[a] > f->gain[b];
    if (f->key[a] != f->key[b])
        return f->key[a] > f->key[b];
    return a < b;
}

static void heap_swap(fm_t *f, heap_t *h, int64_t i, int64_t j)
{
    int32_t t = h->h[i];
    h->h[i] = h->h[j];
    h->h[j] = t;
    f->pos[h->h[i]] = i;
    f->pos[h->h[j]] = j;
}

static void heap_up(fm_t *f, heap_t *h, int64_t i)
{
    while (i > 0) {
        int64_t p = (i - 1) / 2;
        if (!fm_before(f, h->h[i], h->h[p]))
            break;
        heap_swap(f, h, i, p);
        i = p;
    }
}

static void heap_down(fm_t *f, heap_t *h, int64_t i)
{
    for (;;) {
        int64_t a = 2 * i + 1, b = a + 1, m = i;
        if (a < h->len && fm_before(f, h->h[a], h->h[m]))
            m = a;
        if (b < h->len && fm_before(f, h->h[b], h->h[m]))
            m = b;
        if (m == i)
            break;
        heap_swap(f, h, i, m);
        i = m;
    }
}

static void heap_push(fm_t *f, heap_t *h, int32_t v)
{
    h->h[h->len] = v;
    f->pos[v] = h->len++;
    heap_up(f, h, h->len - 1);
}

static int32_t heap_pop(fm_t *f, heap_t *h)
{
    int32_t v = h->h[0];
    heap_swap(f, h, 0, h->len - 1);
    h->len--;
    f->pos[v] = -1;
    if (h->len)
        heap_down(f, h, 0);
    return v;
}

static void heap_update(fm_t *f, heap_t *h, int32_t v)
{
    heap_up(f, h, f->pos[v]);
    heap_down(f, h, f->pos[v]);
}

/* Cut capacity (and links) of f->side. */
static double cut_of(const tk_lap_t *l, const int8_t *side, int64_t *links) __attribute__((unused));
static double cut_of(const tk_lap_t *l, const int8_t *side, int64_t *links)
{
    double c = 0;
    int64_t k = 0;
    for (int64_t v = 0; v < l->n; v++)
        for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
            if (l->col[a] > v && side[v] != side[l->col[a]]) {
                c += l->w[a];
                k++;
            }
    if (links)
        *links = k;
    return c;
}

/* One FM pass; returns the new cut. */
static double fm_pass(fm_t *f, double cut)
{
    const tk_lap_t *l = f->l;
    int64_t n = f->n, cnt[2] = {0, 0}, nm = 0, best_step = 0;
    double best = cut, eps = 1e-9 * (cut > 1 ? cut : 1);

    f->hp[0].len = f->hp[1].len = 0;
    for (int64_t v = 0; v < n; v++) {
        double g = 0;
        for (int64_t a = l->off[v]; a < l->off[v + 1]; a++)
            g += f->side[l->col[a]] != f->side[v] ? l->w[a] : -l->w[a];
        f->gain[v] = g;
        cnt[f->side[v]]++;
    }
    for (int32_t v = 0; v < n; v++)
        heap_push(f, &f->hp[f->side[v]], v);
    for (;;) {
        int s;
        int64_t diff = cnt[0] - cnt[1];
        if (diff == 0) {
            if (!f->hp[0].len && !f->hp[1].len)
                break;
            if (!f->hp[1].len)
                s = 0;
            else if (!f->hp[0].len)
                s = 1;
            else
                s = fm_before(f, f->hp[0].h[0], f->hp[1].h[0]) ? 0 : 1;
        } else {
            s = diff > 0 ? 0 : 1;
        }
        if (!f->hp[s].len)
            break;
        int32_t v = heap_pop(f, &f->hp[s]);
        cut -= f->gain[v];
        f->side[v] = (int8_t)(1 - s);
        cnt[s]--;
        cnt[1 - s]++;
        f->moves[nm++] = v;
        for (int64_t a = l->off[v]; a < l->off[v + 1]; a++) {
            int32_t u = l->col[a];
            if (f->pos[u] < 0)
                continue;
            f->gain[u] += f->side[u] == s ? 2 * l->w[a] : -2 * l->w[a];
            heap_update(f, &f->hp[f->side[u]], u);
        }
        diff = cnt[0] - cnt[1];
        if ((diff >= -1 && diff <= 1) && cut < best - eps) {
            best = cut;
            best_step = nm;
        }
    }
    for (int64_t i = nm - 1; i >= best_step; i--)
        f->side[f->moves[i]] = (int8_t)(1 - f->side[f->moves[i]]);
    for (int64_t v = 0; v < n; v++)
        f->pos[v] = -1;
    return cut_of(l, f->side, NULL);
}

/* Median split of vector x (ties by key), then FM passes. */
static double split_refine(fm_t *f, const double *x, int32_t *order, int passes)
{
    int64_t n = f->n;
    double cut;

    /* Sort switch ids by (x, key, id): a simple merge sort through qsort_r
     * is not portable, so sort an index array with a comparison over
     * static-free state: insertion into a heap keyed by x. */
    for (int64_t v = 0; v < n; v++) {
        order[v] = (int32_t)v;
        f->gain[v] = -x[v]; /* heap pops the largest gain: smallest x */
    }
    f->hp[0].len = 0;
    for (int32_t v = 0; v < n; v++)
        heap_push(f, &f->hp[0], v);
    for (int64_t i = 0; i < n; i++) {
        int32_t v = heap_pop(f, &f->hp[0]);
        f->side[v] = i < n / 2 ? 0 : 1;
    }
    cut = cut_of(f->l, f->side, NULL);
    for (int p = 0; p < passes; p++) {
        double c2 = fm_pass(f, cut);
        if (!(c2 < cut - 1e-9 * (cut > 1 ? cut : 1))) {
            cut = c2;
            break;
        }
        cut = c2;
    }
    return cut;
}

/* FastICA (kurtosis, deflation) in the eigenspace spanned by the k columns
 * of U (n each, orthonormal, orthogonal to the constant vector).  Writes k
 * candidate vectors to C.  */
static void ica_directions(const double *U, int64_t n, int k, tk_rng_t *rng, double *C)
{
    double W[TK_SPEC_MAXMULT][TK_SPEC_MAXMULT], w[TK_SPEC_MAXMULT], wn[TK_SPEC_MAXMULT];
    double sn = sqrt((double)n);

    for (int c = 0; c < k; c++) {
        double s = 0;
        for (int i = 0; i < k; i++) {
            w[i] = tk_rng_uniform(rng) - 0.5;
            s += w[i] * w[i];
        }
        for (int i = 0; i < k; i++)
            w[i] /= sqrt(s);
        for (int it = 0; it < 200; it++) {
            for (int i = 0; i < k; i++)
                wn[i] = 0;
            for (int64_t v = 0; v < n; v++) {
                double p = 0, y[TK_SPEC_MAXMULT];
                for (int i = 0; i < k; i++) {
                    y[i] = sn * U[(size_t)i * n + v];
                    p += w[i] * y[i];
                }
                p = p * p * p;
                for (int i = 0; i < k; i++)
                    wn[i] += y[i] * p;
            }
            for (int i = 0; i < k; i++)
                wn[i] = wn[i] / (double)n - 3 * w[i];
            for (int d = 0; d < c; d++) {
                double p = 0;
                for (int i = 0; i < k; i++)
                    p += wn[i] * W[d][i];
                for (int i = 0; i < k; i++)
                    wn[i] -= p * W[d][i];
            }
            s = 0;
            for (int i = 0; i < k; i++)
                s += wn[i] * wn[i];
            if (!(s > 1e-300))
                break;
            s = sqrt(s);
            double p = 0;
            for (int i = 0; i < k; i++) {
                wn[i] /= s;
                p += wn[i] * w[i];
            }
            memcpy(w, wn, sizeof w);
            if (fabs(p) > 1 - 1e-12)
                break;
        }
        memcpy(W[c], w, sizeof w);
        for (int64_t v = 0; v < n; v++) {
            double p = 0;
            for (int i = 0; i < k; i++)
                p += w[i] * U[(size_t)i * n + v];
            C[(size_t)c * n + v] = p;
        }
    }
}

void tk_bisect_result_destroy(tk_bisect_result_t *r)
{
    if (!r)
        return;
    free(r->side);
    r->side = NULL;
}

static void fm_free(fm_t *f)
{
    free(f->side);
    free(f->gain);
    free(f->key);
    free(f->pos);
    free(f->moves);
    free(f->hp[0].h);
    free(f->hp[1].h);
}

/* Fiduccia-Mattheyses state for the n switches of l, nobody in a heap.
 * Returns 0 or -1 (out of memory). */
static int fm_alloc(fm_t *f, const tk_lap_t *l)
{
    int64_t n = l->n;

    memset(f, 0, sizeof *f);
    f->side = tk_malloc_array((size_t)n, sizeof *f->side);
    f->gain = tk_malloc_array((size_t)n, sizeof *f->gain);
    f->key = tk_malloc_array((size_t)n, sizeof *f->key);
    f->pos = tk_malloc_array((size_t)n, sizeof *f->pos);
    f->moves = tk_malloc_array((size_t)n, sizeof *f->moves);
    f->hp[0].h = tk_malloc_array((size_t)n, sizeof(int32_t));
    f->hp[1].h = tk_malloc_array((size_t)n, sizeof(int32_t));
    if (!f->side || !f->gain || !f->key || !f->pos || !f->moves || !f->hp[0].h || !f->hp[1].h)
        return -1;
    f->l = l;
    f->n = n;
    for (int64_t v = 0; v < n; v++)
        f->pos[v] = -1;
    return 0;
}

/* The connected case: lambda2 and its eigenvectors, then the best refined
 * split over the candidate directions (the first eigenvector, ICA
 * directions of a repeated lambda2's eigenspace, eigenvectors of the next
 * eigenvalues) and their negations, which change the side that gets the
 * middle switch for odd n and the order of ties.  best_side receives it;
 * vecs, cand: work. */
static tk_status_t spectral_split(const tk_lap_t *l, const tk_spectral_opts_t *o, fm_t *f,
                                  int32_t *order, int passes, tk_rng_t *rng, double *vecs,
                                  double *cand, int8_t *best_side, tk_bisect_result_t *out,
                                  tk_error_t *err)
{
    int64_t n = l->n;
    int mult = 0, nvec = 0, ncand = 1;
    double fnnz = 0;
    tk_status_t st;

    st = tk_spec_fiedler(l, o, &out->lambda2, vecs, &mult, &nvec, &out->solver, &out->iterations,
                         &fnnz, &out->factor_flops, err);
    if (st != TK_OK)
        return st;
    out->factor_nnz = fnnz;
    out->multiplicity = mult;
    if (out->lambda2 < 0)
        out->lambda2 = 0; /* rounding on a PSD matrix */
    memcpy(cand, vecs, (size_t)n * sizeof *cand);
    if (mult > 1) {
        ica_directions(vecs, n, mult, rng, cand + n);
        ncand = 1 + mult;
    }
    for (int j = mult; j < nvec && ncand <= TK_SPEC_MAXMULT; j++)
        memcpy(cand + (size_t)ncand++ * n, vecs + (size_t)j * n, (size_t)n * sizeof *cand);
    out->ub = INFINITY;
    for (int c = 0; c < 2 * ncand; c++) {
        double *x = cand + (size_t)(c / 2) * n;
        if (c % 2)
            for (int64_t v = 0; v < n; v++)
                x[v] = -x[v];
        double cut = split_refine(f, x, order, passes);
        if (cut < out->ub) {
            out->ub = cut;
            memcpy(best_side, f->side, (size_t)n);
        }
    }
    return TK_OK;
}

/* The bounds of the split best_side: its cut (upper bound), the links (or
 * arcs) across it, and lambda2's lower bound; for d-regular, unweighted,
 * loop-free graphs the adjacency spectrum: A = d I - L, so the second
 * largest adjacency eigenvalue is d - lambda2. */
static void split_bounds(const tk_graph_t *g, const tk_lap_t *l, const int8_t *best_side,
                         tk_bisect_result_t *out)
{
    int64_t n = l->n, d = tk_graph_regular_degree(g);
    double a = (double)(n / 2), b = (double)(n - n / 2);
    int unit = 1;

    out->ub = cut_of(l, best_side, NULL);
    /* Links (undirected) or arcs (directed, either direction) across. */
    out->cut_links = 0;
    for (int64_t u = 0; u < n; u++)
        for (int64_t e = g->off[u]; e < g->off[u + 1]; e++)
            out->cut_links += best_side[u] != best_side[g->head[e]];
    if (!g->directed)
        out->cut_links /= 2;
    out->lb = out->lambda2 * a * b / (double)n;
    if (g->cap)
        for (int64_t e = 0; e < g->m && unit; e++)
            unit = g->cap[e] == 1.0;
    if (d >= 1 && unit && !g->directed && tk_graph_loops(g) == 0) {
        out->regular = (int)d;
        out->adj_lambda = (double)d - out->lambda2;
        out->ramanujan = 2 * sqrt((double)(d - 1));
    }
}

tk_status_t tk_bisect(const tk_graph_t *g, const tk_spectral_opts_t *opts, tk_bisect_result_t *out,
                      tk_error_t *err)
{
    tk_spectral_opts_t o0 = {0};
    const tk_spectral_opts_t *o = opts ? opts : &o0;
    tk_lap_t *l = NULL;
    double *vecs = NULL, *cand = NULL;
    int32_t *order = NULL;
    int8_t *best_side = NULL;
    tk_rng_t *rng = NULL;
    fm_t f;
    int passes = o->refine_passes > 0 ? o->refine_passes : 20;
    int64_t n, comps;
    tk_status_t st;

    memset(out, 0, sizeof *out);
    memset(&f, 0, sizeof f);
    out->adj_lambda = NAN;
    out->ramanujan = NAN;
    out->regular = -1;
    if ((st = tk_lap_build(g, o->symmetrize, &l, err)) != TK_OK)
        return st;
    n = l->n;
    out->n = n;
    out->links = l->links;
    order = tk_malloc_array((size_t)n, sizeof *order);
    best_side = tk_malloc_array((size_t)n, sizeof *best_side);
    vecs = tk_malloc_array((size_t)TK_SPEC_MAXMULT * (size_t)n, sizeof *vecs);
    cand = tk_malloc_array((size_t)(TK_SPEC_MAXMULT + 1) * (size_t)n, sizeof *cand);
    if (fm_alloc(&f, l) != 0 || !order || !best_side || !vecs || !cand) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%lld)", (long long)n);
        goto done;
    }
    /* Tie-break keys: stream 1000 of the seed (Lanczos uses 0..7). */
    if ((st = tk_rng_new(&rng, o->seed, 1000, err)) != TK_OK)
        goto done;
    for (int64_t v = 0; v < n; v++)
        f.key[v] = (uint32_t)tk_rng_below(rng, (uint64_t)1 << 32);

    comps = tk_lap_components(l, order);
    if (comps < 0) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    out->connected = comps == 1;
    if (comps > 1) {
        if (!o->allow_disconnected) {
            st = tk_error_set(err, TK_EDISCONNECTED, NULL, 0,
                              "graph is not connected (%lld components): lambda2 = 0",
                              (long long)comps);
            goto done;
        }
        /* lambda2 = 0: split the switches in component order. */
        out->lambda2 = 0;
        out->solver = TK_EIG_NONE;
        out->multiplicity = 0;
        for (int64_t i = 0; i < n; i++)
            cand[order[i]] = (double)i;
        out->ub = split_refine(&f, cand, order, passes);
        memcpy(best_side, f.side, (size_t)n);
    } else {
        st = spectral_split(l, o, &f, order, passes, rng, vecs, cand, best_side, out, err);
        if (st != TK_OK)
            goto done;
    }
    split_bounds(g, l, best_side, out);
    out->side = best_side;
    best_side = NULL;
done:
    tk_rng_free(rng);
    free(order);
    free(best_side);
    fm_free(&f);
    free(vecs);
    free(cand);
    tk_lap_free(l);
    return st;
}
