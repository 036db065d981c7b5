/*
 * adapt_cand.c - the candidates of one switch pair for the adaptive
 * iteration (adaptive.c): its alternatives (the minimal route, split for
 * par by the next router of the source group, and a non-minimal route per
 * intermediate, with the routing model's fixed weights over each route's
 * paths), the union of their (arc, input) keys, each alternative's
 * weights on those keys, and the decision points with their children.
 * The data layout is described at the top of adaptive.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "adapt_internal.h"
#include "tk_metric.h"

#define AD_MAX_PATHS_DEFAULT ((uint64_t)1 << 20)

void ad_pair_free(ad_pair_t *p)
{
    ad_polar_free(p->pol);
    free(p->key);
    free(p->kin);
    free(p->alt);
    free(p->ak);
    free(p->aw);
    free(p->hist);
    free(p->chops);
    free(p->sk);
    free(p->gw);
    free(p->dec);
    free(p->child);
    free(p->y);
    free(p->ynew);
    free(p->gy);
    free(p->share);
    free(p->acc);
}

uint64_t ad_pair_bytes(const ad_pair_t *p)
{
    uint64_t b = sizeof *p, nk = (uint64_t)p->nk, na = (uint64_t)p->nalt, ny = (uint64_t)p->ny;
    uint64_t ne = na ? (uint64_t)(p->alt[na - 1].off + p->alt[na - 1].n) : 0;
    uint64_t nh = na ? (uint64_t)(p->alt[na - 1].hoff + p->alt[na - 1].maxhops + 1) : 0;

    b += nk * (sizeof *p->key + sizeof *p->kin + sizeof *p->acc);
    b += na * (sizeof *p->alt + sizeof *p->share + (uint64_t)p->ncls * sizeof *p->chops);
    b += ne * (sizeof *p->ak + sizeof *p->aw) + nh * sizeof *p->hist;
    b += ny * (sizeof *p->gw + sizeof *p->y + sizeof *p->ynew + (p->gy ? sizeof *p->gy : 0));
    b += (uint64_t)p->ndec * sizeof *p->dec + (uint64_t)p->nchild * sizeof *p->child;
    b += (uint64_t)p->nsk * sizeof *p->sk;
    return b + ad_polar_bytes(p->pol);
}

/* A pair under construction: alternatives as lists of (arc, in, weight),
 * merged into the union at the end. */
typedef struct pb {
    int64_t n, cap;
    int64_t *arc, *in;
    double *w;
    int64_t *aidx; /* the alternative of each raw entry */
    int64_t nalt, capalt;
    ad_alt_t *alt;
    int64_t nh, caph;
    double *hist;
    int32_t ncls;  /* link classes (at least 1) */
    double *chops; /* capalt x ncls */
} pb_t;

static void pb_free(pb_t *b)
{
    free(b->arc);
    free(b->in);
    free(b->w);
    free(b->aidx);
    free(b->alt);
    free(b->hist);
    free(b->chops);
    memset(b, 0, sizeof *b);
}

static int pb_entry(pb_t *b, int64_t arc, int64_t in, double w)
{
    if (b->n == b->cap) {
        int64_t nc = b->cap ? 2 * b->cap : 256;
        if (tk_resize_array(&b->arc, (size_t)nc, sizeof *b->arc) ||
            tk_resize_array(&b->in, (size_t)nc, sizeof *b->in) ||
            tk_resize_array(&b->w, (size_t)nc, sizeof *b->w) ||
            tk_resize_array(&b->aidx, (size_t)nc, sizeof *b->aidx))
            return -1;
        b->cap = nc;
    }
    b->arc[b->n] = arc;
    b->in[b->n] = in;
    b->w[b->n] = w;
    b->aidx[b->n] = b->nalt - 1;
    b->n++;
    return 0;
}

/* Append alternative from route r (weights scaled by 1 / total), with an
 * optional prefix arc (entered from the injection, weight 1) whose
 * injection-entered entries then enter from the prefix.  m: the ejection
 * key. */
static int pb_alt(pb_t *b, const tk_graph_t *g, const sim_route_t *r, int64_t prefix, double total,
                  int minimal)
{
    if (b->nalt == b->capalt) {
        int64_t nc = b->capalt ? 2 * b->capalt : 16;
        ad_alt_t *a = tk_realloc_array(b->alt, (size_t)nc, sizeof *a);
        if (!a)
            return -1;
        b->alt = a;
        double *ch = tk_realloc_array(b->chops, (size_t)nc * (size_t)b->ncls, sizeof *ch);
        if (!ch)
            return -1;
        b->chops = ch;
        b->capalt = nc;
    }
    double *chops = b->chops + (size_t)b->nalt * (size_t)b->ncls;
    ad_alt_t *A = &b->alt[b->nalt++];
    memset(A, 0, sizeof *A);
    A->off = b->n;
    A->minimal = minimal;
    A->sin = prefix >= 0 ? prefix : AD_INJ;
    double f = 1.0 / total;
    if (prefix >= 0 && pb_entry(b, prefix, AD_INJ, 1.0))
        return -1;
    for (int64_t j = 0; j < r->n; j++) {
        int64_t in = r->in[j] == SIM_IN_INJECT ? (prefix >= 0 ? prefix : AD_INJ) : r->in[j];
        if (pb_entry(b, r->arc[j], in, f * r->w[j]))
            return -1;
    }
    for (int64_t j = 0; j < r->nej; j++) {
        int64_t in = r->ejin[j] == SIM_IN_INJECT ? (prefix >= 0 ? prefix : AD_INJ) : r->ejin[j];
        if (pb_entry(b, g->m, in, f * r->ejw[j]))
            return -1;
    }
    A->n = b->n - A->off;
    double pre = prefix >= 0 ? 1 : 0;
    A->hops = r->hops * f + pre;
    for (int c = 0; c < b->ncls; c++)
        chops[c] = c < g->nclasses ? r->chops[c] * f : 0;
    if (prefix >= 0 && g->cls)
        chops[g->cls[prefix]] += 1;
    else if (prefix >= 0)
        chops[0] += 1;
    A->maxhops = r->maxhops + (prefix >= 0);
    A->hoff = b->nh;
    if (b->nh + A->maxhops + 1 > b->caph) {
        int64_t nc = b->caph ? 2 * b->caph : 64;
        while (nc < b->nh + A->maxhops + 1)
            nc *= 2;
        double *h = tk_realloc_array(b->hist, (size_t)nc, sizeof *h);
        if (!h)
            return -1;
        b->hist = h;
        b->caph = nc;
    }
    for (int32_t h = 0; h <= A->maxhops; h++)
        b->hist[b->nh + h] = 0;
    for (int32_t h = 0; h <= r->maxhops; h++)
        b->hist[b->nh + h + (prefix >= 0)] = r->hhist[h] * f;
    b->nh += A->maxhops + 1;
    return 0;
}

typedef struct kent {
    int64_t key, in, seq;
} kent_t;

static int kent_cmp(const void *a, const void *b)
{
    const kent_t *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->in != y->in)
        return x->in < y->in ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Merge the raw entries into the pair's union keys and alternatives. */
static int pb_finish(pb_t *b, ad_pair_t *p)
{
    int64_t n = b->n;
    kent_t *k = tk_malloc_array((size_t)(n > 0 ? n : 1), sizeof *k);
    int64_t *idx = tk_malloc_array((size_t)(n > 0 ? n : 1), sizeof *idx);
    if (!k || !idx) {
        free(k);
        free(idx);
        return -1;
    }
    for (int64_t j = 0; j < n; j++)
        k[j] = (kent_t){b->arc[j], b->in[j], j};
    qsort(k, (size_t)n, sizeof *k, kent_cmp);
    int64_t nk = 0;
    for (int64_t j = 0; j < n; j++) {
        if (j == 0 || k[j].key != k[j - 1].key || k[j].in != k[j - 1].in)
            nk++;
        idx[k[j].seq] = nk - 1;
    }
    p->nk = nk;
    p->key = tk_malloc_array((size_t)(nk > 0 ? nk : 1), sizeof *p->key);
    p->kin = tk_malloc_array((size_t)(nk > 0 ? nk : 1), sizeof *p->kin);
    p->acc = tk_malloc_array((size_t)(nk > 0 ? nk : 1), sizeof *p->acc);
    if (!p->key || !p->kin || !p->acc) {
        free(k);
        free(idx);
        return -1;
    }
    nk = 0;
    for (int64_t j = 0; j < n; j++)
        if (j == 0 || k[j].key != k[j - 1].key || k[j].in != k[j - 1].in) {
            p->key[nk] = k[j].key;
            p->kin[nk] = k[j].in;
            nk++;
        }
    free(k);
    /* alternatives' entries: raw order is alternative order already;
     * within each, the first-hop entries first (stable) */
    for (int64_t i = 0; i < b->nalt; i++) {
        ad_alt_t *A = &b->alt[i];
        int64_t nf = 0;
        for (int64_t e = A->off; e < A->off + A->n; e++)
            if (b->in[e] == A->sin && b->arc[e] != A->sin) {
                /* rotate entry e to position off + nf */
                int64_t ki = idx[e];
                double kw = b->w[e];
                for (int64_t j = e; j > A->off + nf; j--) {
                    idx[j] = idx[j - 1];
                    b->w[j] = b->w[j - 1];
                }
                idx[A->off + nf] = ki;
                b->w[A->off + nf] = kw;
                nf++;
            }
        A->nfirst = nf;
    }
    p->ak = idx;
    p->aw = b->w;
    b->w = NULL;
    p->alt = b->alt;
    b->alt = NULL;
    p->nalt = b->nalt;
    p->hist = b->hist;
    b->hist = NULL;
    p->chops = b->chops;
    b->chops = NULL;
    p->ncls = b->ncls;
    /* trim the growth slack, so that ad_pair_bytes counts what is held
     * (a failed shrink keeps the larger block) */
    int64_t nh = p->nalt > 0 ? p->alt[p->nalt - 1].hoff + p->alt[p->nalt - 1].maxhops + 1 : 0;
    (void)tk_resize_array(&p->aw, (size_t)(n > 0 ? n : 1), sizeof *p->aw);
    (void)tk_resize_array(&p->alt, (size_t)(p->nalt > 0 ? p->nalt : 1), sizeof *p->alt);
    (void)tk_resize_array(&p->chops, (size_t)(p->nalt > 0 ? p->nalt : 1) * (size_t)p->ncls,
                          sizeof *p->chops);
    (void)tk_resize_array(&p->hist, (size_t)(nh > 0 ? nh : 1), sizeof *p->hist);
    return 0;
}

/* The arrays of a path set of np paths and na arcs in all (off and w
 * with np + 1 entries); on failure none is kept and -1 returned. */
static int ps_alloc(tk_pathset_t *v, int64_t np, int64_t na)
{
    v->off = tk_malloc_array((size_t)np + 1, sizeof *v->off);
    v->arc = tk_malloc_array((size_t)(na > 0 ? na : 1), sizeof *v->arc);
    v->w = tk_malloc_array((size_t)np + 1, sizeof *v->w);
    if (v->off && v->arc && v->w)
        return 0;
    free(v->off);
    free(v->arc);
    free(v->w);
    return -1;
}

/* The candidates of one pair, for rule a.  ws / rws: the thread's route
 * workspaces; c, c2: candidate scratch. */
tk_status_t ad_build_pair(const tk_sim_net_t *net, const tk_adapt_t *a, ad_pair_t *p,
                          tk_route_ws_t *ws, tk_route_ws_t *ws2, sim_route_ws_t *rws,
                          tk_route_cands_t *c, tk_route_cands_t *c2, sim_route_t *r,
                          tk_error_t *err)
{
    const tk_graph_t *g = net->g;
    uint64_t maxp = net->o.max_paths ? net->o.max_paths : AD_MAX_PATHS_DEFAULT;
    pb_t b;
    memset(&b, 0, sizeof b);
    b.ncls = g->nclasses > 0 ? g->nclasses : 1;
    tk_status_t st = tk_route_candidates(net->r, ws, p->s, p->t, maxp, c, err);
    if (st != TK_OK)
        return st;
    int par = a->rule == TK_ADAPT_PAR || adapt_is_transit(a->rule);
    int mm = a->rule == TK_ADAPT_IT_MM;
    int gcls = tk_graph_class_index(g, "global");
    int64_t M = c->ngroups;
    /* next routers of the source group on the minimal route (par) */
    int64_t nnext = 0;
    tk_id_t next[64];
    double npi[64];
    double pi_direct = 0;
    if (par && p->s != p->t) {
        for (int64_t i = 0; i < c->min.npaths; i++) {
            int64_t a0 = c->min.arc[c->min.off[i]];
            tk_id_t h = g->head[a0];
            if (g->group[h] != g->group[p->s]) {
                pi_direct += c->min.w[i];
                continue;
            }
            int64_t k = 0;
            while (k < nnext && next[k] != h)
                k++;
            if (k == nnext) {
                if (nnext == 64)
                    return tk_error_set(err, TK_ELIMIT, "routing", 0,
                                        "par: more than 64 next routers in the source group");
                next[nnext] = h;
                npi[nnext++] = 0;
            }
            npi[k] += c->min.w[i];
        }
    }
    /* decision 0's cost alternative: the whole minimal route (alt 0);
     * carrying minimal alternatives follow */
    int64_t ndec = 1 + nnext;
    p->dec = tk_calloc_array((size_t)ndec, sizeof *p->dec);
    /* children: decision 0 has at most 1 + nnext (the paths that leave
     * the group at once, then one per next router), every next router's
     * decision 1 */
    p->child = tk_calloc_array((size_t)(2 * ndec), sizeof *p->child);
    if (!p->dec || !p->child)
        goto oom;
    p->ndec = ndec;
    if (sim_route_from_paths_ws(g, &c->min, -1, rws, r, err) != TK_OK || pb_alt(&b, g, r, -1, 1, 1))
        goto oom;
    ad_dec_t *d0 = &p->dec[0];
    d0->at = p->s;
    d0->in = AD_INJ;
    d0->cost = 0;
    d0->pre = 0;
    if (!par || nnext == 0) {
        /* the minimal route carries decision 0's minimal traffic */
        p->child[p->nchild++] = (ad_child_t){1, 0, 1.0};
        d0->c0 = 0;
        d0->nc = 1;
    } else {
        d0->c0 = 0;
        if (pi_direct > 0) {
            /* the minimal paths that leave the group at once */
            tk_pathset_t v;
            memset(&v, 0, sizeof v);
            /* a copy of those paths */
            tk_pathset_init(&v);
            tk_pathset_t *src = &c->min;
            int64_t na = 0, np = 0;
            for (int64_t i = 0; i < src->npaths; i++)
                if (g->group[g->head[src->arc[src->off[i]]]] != g->group[p->s]) {
                    np++;
                    na += src->off[i + 1] - src->off[i];
                }
            if (ps_alloc(&v, np, na) != 0)
                goto oom;
            v.off[0] = 0;
            for (int64_t i = 0; i < src->npaths; i++)
                if (g->group[g->head[src->arc[src->off[i]]]] != g->group[p->s]) {
                    int64_t len = src->off[i + 1] - src->off[i];
                    memcpy(v.arc + v.off[v.npaths], src->arc + src->off[i],
                           (size_t)len * sizeof *v.arc);
                    v.w[v.npaths] = src->w[i];
                    v.off[v.npaths + 1] = v.off[v.npaths] + len;
                    v.npaths++;
                }
            tk_status_t s2 = sim_route_from_paths_ws(g, &v, -1, rws, r, err);
            free(v.off);
            free(v.arc);
            free(v.w);
            if (s2 != TK_OK || pb_alt(&b, g, r, -1, pi_direct, 1))
                goto oom;
            p->child[p->nchild++] = (ad_child_t){1, b.nalt - 1, pi_direct};
        }
        for (int64_t k = 0; k < nnext; k++)
            p->child[p->nchild++] = (ad_child_t){0, 1 + k, npi[k]};
        d0->nc = p->nchild;
    }
    /* decision 0's non-minimal alternatives */
    p->gw = NULL;
    d0->g0 = b.nalt;
    d0->ng = M;
    d0->y0 = 0;
    double *gw = tk_malloc_array((size_t)(M > 0 ? M : 1), sizeof *gw);
    if (!gw)
        goto oom;
    int64_t ngw = 0, capgw = M > 0 ? M : 1;
    for (int64_t k = 0; k < M; k++) {
        tk_pathset_t v = c->nonmin;
        v.npaths = c->goff[k + 1] - c->goff[k];
        v.off = c->nonmin.off + c->goff[k];
        v.w = c->nonmin.w + c->goff[k];
        v.via = c->nonmin.via + c->goff[k];
        v.phase2 = c->nonmin.phase2 + c->goff[k];
        if (sim_route_from_paths_ws(g, &v, -1, rws, r, err) != TK_OK ||
            pb_alt(&b, g, r, -1, 1, 0)) {
            free(gw);
            goto oom;
        }
        gw[ngw++] = c->gw[k];
    }
    /* par: decisions at the next routers */
    for (int64_t k = 0; k < nnext; k++) {
        ad_dec_t *d = &p->dec[1 + k];
        tk_id_t h = next[k];
        int64_t a0 = -1;
        for (int64_t e = g->off[p->s]; e < g->off[p->s + 1]; e++)
            if (g->head[e] == h) {
                a0 = e;
                break;
            }
        /* in-transit-mm: NRG, the dragonfly-valiant candidates of h whose
         * intermediate group no global link of h reaches */
        st = mm ? tk_route_candidates(net->ad->rrg, ws2, h, p->t, maxp, c2, err)
                : tk_route_candidates(net->r, ws, h, p->t, maxp, c2, err);
        if (st != TK_OK) {
            free(gw);
            pb_free(&b);
            return st;
        }
        d->at = h;
        d->in = a0;
        d->pre = 1;
        /* its minimal route from h (cost, and it carries what stays
         * minimal here): the minimal paths of (s, t) whose first hop is
         * a0, without it, their weights over npi[k] (a packet that stays
         * minimal keeps the global link its minimal path chose, so that
         * minimal everywhere is exactly the minimal model) */
        {
            tk_pathset_t v;
            tk_pathset_init(&v);
            const tk_pathset_t *src = &c->min;
            int64_t na = 0, np = 0;
            for (int64_t i = 0; i < src->npaths; i++)
                if (g->head[src->arc[src->off[i]]] == h) {
                    np++;
                    na += src->off[i + 1] - src->off[i] - 1;
                }
            if (ps_alloc(&v, np, na) != 0) {
                free(gw);
                goto oom;
            }
            v.off[0] = 0;
            for (int64_t i = 0; i < src->npaths; i++)
                if (g->head[src->arc[src->off[i]]] == h) {
                    int64_t len = src->off[i + 1] - src->off[i] - 1;
                    memcpy(v.arc + v.off[v.npaths], src->arc + src->off[i] + 1,
                           (size_t)len * sizeof *v.arc);
                    v.w[v.npaths] = src->w[i] / npi[k];
                    v.off[v.npaths + 1] = v.off[v.npaths] + len;
                    v.npaths++;
                }
            tk_status_t s2 = sim_route_from_paths_ws(g, &v, -1, rws, r, err);
            free(v.off);
            free(v.arc);
            free(v.w);
            if (s2 != TK_OK || pb_alt(&b, g, r, a0, 1, 1)) {
                free(gw);
                goto oom;
            }
        }
        d->cost = b.nalt - 1;
        d->c0 = p->nchild;
        p->child[p->nchild++] = (ad_child_t){1, b.nalt - 1, 1.0};
        d->nc = 1;
        d->g0 = b.nalt;
        d->ng = 0;
        d->y0 = ngw;
        for (int64_t j = 0; j < c2->ngroups; j++) {
            if (mm) {
                int linked = 0;
                int32_t X = g->group[c2->gvia[j]];
                for (int64_t e = g->off[h]; e < g->off[h + 1]; e++)
                    if (g->cls && g->cls[e] == gcls && g->group[g->head[e]] == X)
                        linked = 1;
                if (linked)
                    continue;
            }
            d->ng++;
            tk_pathset_t v = c2->nonmin;
            v.npaths = c2->goff[j + 1] - c2->goff[j];
            v.off = c2->nonmin.off + c2->goff[j];
            v.w = c2->nonmin.w + c2->goff[j];
            v.via = c2->nonmin.via + c2->goff[j];
            v.phase2 = c2->nonmin.phase2 + c2->goff[j];
            if (sim_route_from_paths_ws(g, &v, -1, rws, r, err) != TK_OK ||
                pb_alt(&b, g, r, a0, 1, 0)) {
                free(gw);
                goto oom;
            }
            if (ngw == capgw) {
                capgw *= 2;
                double *ng2 = tk_realloc_array(gw, (size_t)capgw, sizeof *ng2);
                if (!ng2) {
                    free(gw);
                    goto oom;
                }
                gw = ng2;
            }
            gw[ngw++] = c2->gw[j];
        }
    }
    p->gw = gw;
    p->ny = ngw;
    if (pb_finish(&b, p))
        goto oom;
    /* the first decision's non-minimal alternatives start at alt index
     * d0->g0; the gw of alternative d->g0 + j is gw[d->y0 + j] */
    p->y = tk_calloc_array((size_t)(ngw > 0 ? ngw : 1), sizeof *p->y);
    p->ynew = tk_calloc_array((size_t)(ngw > 0 ? ngw : 1), sizeof *p->ynew);
    p->share = tk_calloc_array((size_t)p->nalt, sizeof *p->share);
    if (adapt_is_dgb(a->rule))
        p->gy = tk_calloc_array((size_t)(ngw > 0 ? ngw : 1), sizeof *p->gy);
    if (!p->y || !p->ynew || !p->share || (adapt_is_dgb(a->rule) && !p->gy))
        goto oom;
    if (g->group)
        p->dgroup = g->group[p->t];
    for (int64_t k = 0; k < p->ndec; k++) {
        ad_dec_t *d = &p->dec[k];
        d->direct = 0;
        if (g->group) {
            for (int64_t e = g->off[d->at]; e < g->off[d->at + 1]; e++)
                if (g->group[g->head[e]] == p->dgroup && g->cls && g->cls[e] == gcls)
                    d->direct = 1;
        }
    }
    pb_free(&b);
    return TK_OK;
oom:
    pb_free(&b);
    if (err && err->code != TK_OK)
        return err->code;
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (adaptive candidates)");
}
