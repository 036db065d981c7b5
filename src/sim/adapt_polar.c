/*
 * adapt_polar.c - polarized-adaptive: the split at every router of a
 * pair's polarized DAG (the polarized model's, route/dag.c), moved by
 * the queue signal of adaptive.c.  The rule and its source: topokit(7),
 * ADAPTIVE ROUTING.
 */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_internal.h"
#include "tk_metric.h"

void ad_polar_free(ad_polar_t *q)
{
    if (!q)
        return;
    free(q->arc);
    free(q->hd);
    free(q->cnt);
    free(q->hh);
    free(q->mn);
    free(q->noff);
    free(q->ej);
    free(q->eb);
    free(q->ek);
    free(q->f);
    free(q->hist);
    free(q);
}

uint64_t ad_polar_bytes(const ad_polar_t *q)
{
    if (!q)
        return 0;
    uint64_t na = (uint64_t)q->narc, ne = (uint64_t)q->nent;
    return sizeof *q +
           na * (sizeof *q->arc + sizeof *q->hd + sizeof *q->cnt + sizeof *q->hh + sizeof *q->mn +
                 sizeof *q->f) +
           ((uint64_t)q->nnode + 1) * sizeof *q->noff +
           ne * (sizeof *q->ej + sizeof *q->eb + sizeof *q->ek) +
           ((uint64_t)q->maxhops + 1) * sizeof *q->hist;
}

void ad_polar_ws_destroy(polar_ws_t *w)
{
    free(w->ds);
    free(w->dt);
    free(w->cnt);
    free(w->idx);
    free(w->ord);
    free(w->ioff);
    free(w->iarc);
    memset(w, 0, sizeof *w);
}

int ad_polar_ws_init(polar_ws_t *w, const tk_graph_t *g)
{
    memset(w, 0, sizeof *w);
    size_t n = (size_t)g->n + 1;
    w->n = g->n;
    w->last_s = -1;
    w->ds = tk_malloc_array(n, sizeof *w->ds);
    w->dt = tk_malloc_array(n, sizeof *w->dt);
    w->cnt = tk_malloc_array(n, sizeof *w->cnt);
    w->idx = tk_malloc_array(n, sizeof *w->idx);
    w->ord = tk_malloc_array(n, sizeof *w->ord);
    w->ioff = tk_malloc_array(n + 1, sizeof *w->ioff);
    w->iarc = tk_malloc_array((size_t)g->m + 1, sizeof *w->iarc);
    if (!w->ds || !w->dt || !w->cnt || !w->idx || !w->ord || !w->ioff || !w->iarc) {
        ad_polar_ws_destroy(w);
        return -1;
    }
    return 0;
}

/* Sorting the switches by f = d(s, x) - d(x, t), then by number. */
typedef struct fkey {
    int64_t f, x;
} fkey_t;

static int fkey_cmp(const void *a, const void *b)
{
    const fkey_t *x = a, *y = b;
    if (x->f != y->f)
        return x->f < y->f ? -1 : 1;
    return (x->x > y->x) - (x->x < y->x);
}

typedef struct ekey {
    int64_t key, in, e;
} ekey_t;

static int ekey_cmp(const void *a, const void *b)
{
    const ekey_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    return (x->in > y->in) - (x->in < y->in);
}

static int polar_dag_arc(const polar_ws_t *w, tk_id_t u, tk_id_t v)
{
    if (w->ds[v] == TK_INF || w->dt[v] == TK_INF)
        return 0;
    return (int64_t)w->ds[v] - w->dt[v] > (int64_t)w->ds[u] - w->dt[u];
}

/* The DAG of pair p and its union keys. */
tk_status_t ad_polar_build(const tk_graph_t *g, ad_pair_t *p, polar_ws_t *w, tk_error_t *err)
{
    tk_id_t n = g->n, s = p->s, t = p->t;
    int64_t m = g->m;
    tk_status_t st;
    if (w->last_s != s) {
        if ((st = tk_bfs(g, s, w->ds, err)) != TK_OK)
            return st;
        w->last_s = s;
    }
    if ((st = tk_bfs(g, t, w->dt, err)) != TK_OK) /* undirected: d(x, t) */
        return st;
    if (w->dt[s] == TK_INF)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0, "no path from %" PRId32 " to %" PRId32,
                            s, t);
    /* the switches with both distances, by f */
    fkey_t *fk = tk_malloc_array((size_t)n + 1, sizeof *fk);
    ad_polar_t *q = calloc(1, sizeof *q);
    if (!fk || !q) {
        free(fk);
        free(q);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive candidates)");
    }
    p->pol = q;
    int64_t nf = 0;
    for (tk_id_t x = 0; x < n; x++) {
        w->idx[x] = -1;
        w->cnt[x] = 0;
        if (w->ds[x] != TK_INF && w->dt[x] != TK_INF)
            fk[nf++] = (fkey_t){(int64_t)w->ds[x] - w->dt[x], x};
    }
    qsort(fk, (size_t)nf, sizeof *fk, fkey_cmp);
    /* paths to t, in decreasing f (t is a sink) */
    for (int64_t i = nf - 1; i >= 0; i--) {
        tk_id_t u = (tk_id_t)fk[i].x;
        if (u == t) {
            w->cnt[u] = 1;
            continue;
        }
        double c = 0;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            if (polar_dag_arc(w, u, g->head[a]))
                c += w->cnt[g->head[a]];
        w->cnt[u] = c;
    }
    /* the nodes reached from s, in increasing f */
    int64_t nn = 0, na = 0;
    if (s == t) {
        w->idx[s] = nn;
        w->ord[nn++] = s;
    } else {
        w->idx[s] = -2; /* reached */
        for (int64_t i = 0; i < nf; i++) {
            tk_id_t u = (tk_id_t)fk[i].x;
            if (w->idx[u] != -2 || w->cnt[u] <= 0)
                continue;
            w->idx[u] = nn;
            w->ord[nn++] = u;
            if (u == t)
                continue;
            for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                tk_id_t v = g->head[a];
                if (polar_dag_arc(w, u, v) && w->cnt[v] > 0) {
                    if (w->idx[v] == -1)
                        w->idx[v] = -2;
                    na++;
                }
            }
        }
    }
    free(fk);
    q->nnode = nn;
    q->narc = na;
    size_t sa = (size_t)(na > 0 ? na : 1);
    q->arc = tk_malloc_array(sa, sizeof *q->arc);
    q->hd = tk_malloc_array(sa, sizeof *q->hd);
    q->cnt = tk_malloc_array(sa, sizeof *q->cnt);
    q->hh = tk_malloc_array(sa, sizeof *q->hh);
    q->mn = tk_malloc_array(sa, sizeof *q->mn);
    q->f = tk_malloc_array(sa, sizeof *q->f);
    q->noff = tk_malloc_array((size_t)nn + 1, sizeof *q->noff);
    if (!q->arc || !q->hd || !q->cnt || !q->hh || !q->mn || !q->f || !q->noff)
        goto oom;
    na = 0;
    for (int64_t k = 0; k < nn; k++) {
        tk_id_t u = (tk_id_t)w->ord[k];
        q->noff[k] = na;
        if (u == t)
            continue;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (!polar_dag_arc(w, u, v) || w->cnt[v] <= 0)
                continue;
            q->arc[na] = a;
            q->hd[na] = w->idx[v];
            q->cnt[na] = w->cnt[v];
            q->hh[na] = 1 + (double)w->dt[v];
            q->mn[na] = w->dt[v] == w->dt[u] - 1;
            na++;
        }
    }
    q->noff[nn] = na;
    /* in-arcs of every node */
    for (int64_t k = 0; k <= nn; k++)
        w->ioff[k] = 0;
    for (int64_t j = 0; j < na; j++)
        w->ioff[q->hd[j] + 1]++;
    for (int64_t k = 0; k < nn; k++)
        w->ioff[k + 1] += w->ioff[k];
    for (int64_t j = 0; j < na; j++)
        w->iarc[w->ioff[q->hd[j]]++] = j;
    for (int64_t k = nn; k > 0; k--)
        w->ioff[k] = w->ioff[k - 1];
    w->ioff[0] = 0;
    /* entries: every out-arc of a node from every in-arc (the injection
     * at s), then the ejection from every in-arc of t */
    int64_t ne = 0;
    for (int64_t k = 0; k < nn; k++) {
        int64_t nin = k == 0 ? 1 : w->ioff[k + 1] - w->ioff[k];
        ne += (q->noff[k + 1] - q->noff[k]) * nin;
    }
    ne += s == t ? 1 : w->ioff[nn] - w->ioff[nn - 1];
    q->nent = ne;
    q->ej = tk_malloc_array((size_t)ne, sizeof *q->ej);
    q->eb = tk_malloc_array((size_t)ne, sizeof *q->eb);
    q->ek = tk_malloc_array((size_t)ne, sizeof *q->ek);
    ekey_t *ek = tk_malloc_array((size_t)ne, sizeof *ek);
    if (!q->ej || !q->eb || !q->ek || !ek) {
        free(ek);
        goto oom;
    }
    ne = 0;
    for (int64_t k = 0; k < nn; k++)
        for (int64_t j = q->noff[k]; j < q->noff[k + 1]; j++) {
            if (k == 0) {
                q->ej[ne] = j;
                q->eb[ne++] = -1;
                continue;
            }
            for (int64_t i = w->ioff[k]; i < w->ioff[k + 1]; i++) {
                q->ej[ne] = j;
                q->eb[ne++] = w->iarc[i];
            }
        }
    if (s == t) {
        q->ej[ne] = -1;
        q->eb[ne++] = -1;
    } else {
        for (int64_t i = w->ioff[nn - 1]; i < w->ioff[nn]; i++) {
            q->ej[ne] = -1;
            q->eb[ne++] = w->iarc[i];
        }
    }
    for (int64_t e = 0; e < ne; e++)
        ek[e] = (ekey_t){q->ej[e] >= 0 ? q->arc[q->ej[e]] : m,
                         q->eb[e] >= 0 ? q->arc[q->eb[e]] : AD_INJ, e};
    qsort(ek, (size_t)ne, sizeof *ek, ekey_cmp);
    p->nk = ne;
    p->key = tk_malloc_array((size_t)ne, sizeof *p->key);
    p->kin = tk_malloc_array((size_t)ne, sizeof *p->kin);
    p->acc = tk_malloc_array((size_t)ne, sizeof *p->acc);
    if (!p->key || !p->kin || !p->acc) {
        free(ek);
        goto oom;
    }
    for (int64_t u = 0; u < ne; u++) {
        p->key[u] = ek[u].key;
        p->kin[u] = ek[u].in;
        q->ek[ek[u].e] = u;
    }
    free(ek);
    /* the longest DAG path */
    {
        int32_t *lp = tk_calloc_array((size_t)nn, sizeof *lp);
        if (!lp)
            goto oom;
        for (int64_t k = 0; k < nn; k++)
            for (int64_t j = q->noff[k]; j < q->noff[k + 1]; j++)
                if (lp[k] + 1 > lp[q->hd[j]])
                    lp[q->hd[j]] = lp[k] + 1;
        q->maxhops = lp[nn - 1];
        free(lp);
    }
    q->hist = tk_calloc_array((size_t)q->maxhops + 1, sizeof *q->hist);
    p->ny = na;
    p->y = tk_calloc_array(sa, sizeof *p->y);
    p->ynew = tk_calloc_array(sa, sizeof *p->ynew);
    if (!q->hist || !p->y || !p->ynew)
        goto oom;
    return TK_OK;
oom:
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive candidates)");
}

/* The oblivious polarized split: cnt(head) / cnt(tail), i.e. every DAG
 * path equally likely. */
void ad_polar_prior(ad_pair_t *p)
{
    const ad_polar_t *q = p->pol;
    for (int64_t k = 0; k < q->nnode; k++) {
        double tot = 0;
        for (int64_t j = q->noff[k]; j < q->noff[k + 1]; j++)
            tot += q->cnt[j];
        for (int64_t j = q->noff[k]; j < q->noff[k + 1]; j++)
            p->y[j] = q->cnt[j] / tot;
    }
}

/* acc from the split: the pair's traffic arrives at each node through its
 * in-arcs (at s: the injection) and leaves by the shares y. */
void ad_polar_acc(ad_pair_t *p)
{
    ad_polar_t *q = p->pol;
    for (int64_t j = 0; j < q->narc; j++)
        q->f[j] = 0;
    for (int64_t e = 0; e < q->nent; e++) {
        int64_t j = q->ej[e], b = q->eb[e];
        double in = b < 0 ? 1 : q->f[b];
        if (j < 0) {
            p->acc[q->ek[e]] = in;
            continue;
        }
        double v = in * p->y[j];
        p->acc[q->ek[e]] = v;
        q->f[j] += v;
    }
}

/* Hop statistics of the current split (after ad_polar_acc). */
void ad_polar_stats(ad_pair_t *p, const tk_graph_t *g)
{
    ad_polar_t *q = p->pol;
    int64_t nn = q->nnode;
    int32_t H = q->maxhops;
    double *mass = tk_calloc_array((size_t)nn * (size_t)(H + 1) + 1, sizeof *mass);
    double *mmin = tk_calloc_array((size_t)nn + 1, sizeof *mmin);
    q->ehops = 0;
    for (int c = 0; c < TK_MAX_CLASSES; c++)
        q->chops[c] = 0;
    for (int64_t j = 0; j < q->narc; j++) {
        q->ehops += q->f[j];
        q->chops[g->cls ? g->cls[q->arc[j]] : 0] += q->f[j];
    }
    q->pmin = 1;
    if (!mass || !mmin) { /* statistics only: leave the histogram empty */
        free(mass);
        free(mmin);
        return;
    }
    mass[0] = 1;
    mmin[0] = 1;
    for (int64_t k = 0; k < nn; k++)
        for (int64_t j = q->noff[k]; j < q->noff[k + 1]; j++) {
            int64_t v = q->hd[j];
            for (int32_t h = 0; h < H; h++)
                mass[(size_t)v * (size_t)(H + 1) + (size_t)h + 1] +=
                    mass[(size_t)k * (size_t)(H + 1) + (size_t)h] * p->y[j];
            if (q->mn[j])
                mmin[v] += mmin[k] * p->y[j];
        }
    for (int32_t h = 0; h <= H; h++)
        q->hist[h] = mass[(size_t)(nn - 1) * (size_t)(H + 1) + (size_t)h];
    q->pmin = mmin[nn - 1];
    free(mass);
    free(mmin);
}

/* New targets of every router of p's DAG; returns the largest |y* - y|.
 * Candidate j at its tail costs (q + extra) (1 + d(head, t)), q the mean
 * occupancy of its queue; its target is cnt_j g_j / sum cnt g with
 * g = clamp(1 - (cost - best - bias), 0, 1): the oblivious split among
 * the candidates within bias of the best, a ramp one packet-hop wide
 * beyond (continuous in the signals, as choose()'s ramp). */
double ad_polar_targets(const struct sim_adapt *ad, ad_pair_t *p, double *cmin_out)
{
    const ad_polar_t *q = p->pol;
    const tk_adapt_t *a = &ad->a;
    double B = a->buffer, res = 0;
    double *c = p->ynew; /* costs first, then targets, in place */
    if (cmin_out)
        *cmin_out = 0;
    for (int64_t k = 0; k < q->nnode; k++) {
        int64_t j0 = q->noff[k], j1 = q->noff[k + 1];
        if (j1 == j0)
            continue;
        double best = INFINITY;
        for (int64_t j = j0; j < j1; j++) {
            int64_t arc = q->arc[j];
            double phi = ad->qd[arc], pu = ad->pz[arc];
            double qm = (phi > 0 ? phi * B : 0) + (pu > 0 ? pu * ad->qr[arc] : 0);
            c[j] = (qm + a->extra) * q->hh[j];
            if (c[j] < best)
                best = c[j];
        }
        if (k == 0 && cmin_out)
            *cmin_out = best;
        if (isinf(best)) { /* every candidate unbounded: no information */
            for (int64_t j = j0; j < j1; j++)
                c[j] = p->y[j];
        } else {
            double tot = 0;
            for (int64_t j = j0; j < j1; j++) {
                double x = c[j] - best - a->bias; /* -inf for bias=inf */
                double gj = x <= 0 ? 1 : x >= 1 ? 0 : 1 - x;
                c[j] = q->cnt[j] * gj;
                tot += c[j];
            }
            for (int64_t j = j0; j < j1; j++)
                c[j] /= tot;
        }
        for (int64_t j = j0; j < j1; j++) {
            double r = fabs(c[j] - p->y[j]);
            if (r > res)
                res = r;
        }
    }
    return res;
}
