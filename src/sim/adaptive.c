/*
 * adaptive.c - adaptive routing in the flow-level simulator: a flow's
 * traffic split over the candidate routes of its switch pair, moved by
 * decision rules (UGAL-L, UGAL-G, UGAL-LE, PAR) from a queue-occupancy
 * signal to a fixed point.  The model and its defence: topokit(7),
 * ADAPTIVE ROUTING; the interface: tk_sim.h.
 *
 * Data.  Per distinct switch pair of the flow classes:
 *  - alternatives: routes that carry traffic, each with the routing
 *    model's fixed weights over its own paths: the minimal route (split,
 *    for par, by the next router of the source group), and one
 *    non-minimal route per intermediate (and, for par, per next router
 *    and intermediate, with the first hop as a prefix);
 *  - a union of the (arc, input) keys of all alternatives (the ejection
 *    link as key m), and each alternative's weights on its keys;
 *  - decision points: the source router (decision 0) and, for par, each
 *    next router of the source group.  Decision d holds the share y of
 *    non-minimal traffic for each of its intermediates; the traffic it
 *    routes minimally goes on to its minimal children (alternatives or
 *    further decisions, each with its fraction of the minimal route's
 *    weight).
 * The system has one variable per flow class, as the oblivious split has;
 * each iteration rewrites its coefficients from the shares: a key's
 * coefficient is the class's members times the sum over alternatives of
 * share x weight.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#endif

#include "adapt_internal.h"
#include "tk_metric.h"

#define AD_STALL 50      /* iterations without halving the residual */
#define AD_AA_HALF 20    /* accelerated: iterations without halving the residual */
#define AD_AA_STALL 10   /* ... or without a new lowest residual */
#define AD_DAMP_MIN 1e-6 /* accelerated: below it the split no longer moves */
/* accelerated: halvings in a row without the lowest residual halving */
#define AD_AA_FUTILE 8
/* dgb, edgb's outer loop: outer steps without the largest free gradient
 * halving; a bias step's growth and shrinking (bias_rprop) */
#define AD_OUT_STALL 20
#define AD_RPROP_UP 1.5
#define AD_RPROP_DOWN 0.5

/* ------------------------------------------------------------------------ */
/* The adaptive state (its pairs' candidates: adapt_cand.c). */

void sim_adapt_free(struct sim_adapt *ad)
{
    if (!ad)
        return;
    for (int64_t i = 0; i < ad->npairs; i++)
        ad_pair_free(&ad->pair[i]);
    free(ad->pair);
    free(ad->cls_pair);
    free(ad->use);
    free(ad->blk);
    free(ad->qd);
    free(ad->qr);
    free(ad->pz);
    free(ad->lq);
    free(ad->aq);
    free(ad->mark);
    free(ad->wl);
    free(ad->gidx);
    free(ad->cnt);
    free(ad->C);
    free(ad->flag);
    free(ad->bufa);
    free(ad->rb);
    free(ad->rg);
    free(ad->rw);
    free(ad->rd);
    free(ad->rgp);
    tk_router_free(ad->rrg);
    sim_fair_ws_free(ad->fws);
    free(ad->tr_bneck);
    free(ad->tr_q);
    free(ad);
}

/* ------------------------------------------------------------------------ */
/* Shares and the system. */

/* Traffic shares of the alternatives from the decisions' y. */
static void pair_shares(ad_pair_t *p)
{
    if (p->pol)
        return; /* its y are the shares */
    for (int64_t i = 0; i < p->nalt; i++)
        p->share[i] = 0;
    /* decisions in order: decision 0 first, its children after it */
    double dm[65];
    for (int64_t k = 0; k < p->ndec; k++)
        dm[k] = k == 0 ? 1 : 0;
    for (int64_t k = 0; k < p->ndec; k++) {
        const ad_dec_t *d = &p->dec[k];
        double tot = 0, stay = 0;
        for (int64_t j = 0; j < d->ng; j++)
            tot += p->gw[d->y0 + j];
        for (int64_t j = 0; j < d->ng; j++) {
            double w = p->gw[d->y0 + j] / tot;
            p->share[d->g0 + j] = dm[k] * w * p->y[d->y0 + j];
            stay += w * (1 - p->y[d->y0 + j]);
        }
        if (d->ng == 0)
            stay = 1;
        for (int64_t j = 0; j < d->nc; j++) {
            const ad_child_t *ch = &p->child[d->c0 + j];
            if (ch->alt)
                p->share[ch->i] += dm[k] * stay * ch->pi;
            else
                dm[ch->i] += dm[k] * stay * ch->pi;
        }
    }
}

/* acc[key] = sum over alternatives of share x weight. */
static void pair_acc(ad_pair_t *p)
{
    if (p->pol) {
        ad_polar_acc(p);
        return;
    }
    for (int64_t u = 0; u < p->nk; u++)
        p->acc[u] = 0;
    for (int64_t i = 0; i < p->nalt; i++) {
        double s = p->share[i];
        if (s == 0)
            continue;
        const ad_alt_t *A = &p->alt[i];
        for (int64_t e = A->off; e < A->off + A->n; e++)
            p->acc[p->ak[e]] += s * p->aw[e];
    }
}

/* Class c's entries from its pair's acc, written from entry ne when
 * write (else only counted); returns the entry after them. */
static int64_t class_entries(tk_sim_net_t *net, int64_t c, int64_t ne, int write)
{
    struct sim_adapt *ad = net->ad;
    tk_mm_t *mm = &net->mm;
    int64_t m = net->g->m, G = net->ngroups;
    int ports = net->o.arb != TK_ARB_FAIR;
    const ad_pair_t *p = &ad->pair[ad->cls_pair[c]];
    const fclass_t *f = &net->fc[c];
    int64_t inj = m + f->gs;
    /* arcs (keys < m, sorted), merged per arc for fair */
    int64_t u = 0;
    while (u < p->nk && p->key[u] < m) {
        double a = p->acc[u];
        if (!ports) {
            int64_t u1 = u + 1;
            while (u1 < p->nk && p->key[u1] == p->key[u]) {
                a += p->acc[u1];
                u1++;
            }
            if (a > 0) {
                if (write) {
                    mm->eres[ne] = p->key[u];
                    mm->ecoef[ne] = f->count * a;
                }
                ne++;
            }
            u = u1;
            continue;
        }
        if (a > 0) {
            if (write) {
                mm->eres[ne] = p->key[u];
                mm->ein[ne] = p->kin[u] == AD_INJ ? inj : p->kin[u];
                mm->ecoef[ne] = f->count * a;
            }
            ne++;
        }
        u++;
    }
    /* the injection link */
    if (write) {
        mm->eres[ne] = inj;
        if (ports)
            mm->ein[ne] = inj;
        mm->ecoef[ne] = f->count;
    }
    ne++;
    /* the ejection link */
    double ej = 0;
    for (int64_t w = u; w < p->nk; w++) {
        double a = p->acc[w];
        if (ports) {
            if (a > 0) {
                if (write) {
                    mm->eres[ne] = m + G + f->gd;
                    mm->ein[ne] = p->kin[w] == AD_INJ ? inj : p->kin[w];
                    mm->ecoef[ne] = f->count * a;
                }
                ne++;
            }
        } else {
            ej += a;
        }
    }
    if (!ports && ej > 0) {
        if (write) {
            mm->eres[ne] = m + G + f->gd;
            mm->ecoef[ne] = f->count * ej;
        }
        ne++;
    }
    return ne;
}

/* Rewrite the system's entries from the pairs' acc, with nth threads:
 * every class's entries counted, the offsets summed, then every class
 * written at its offset (the same entries as one pass in class order). */
static tk_status_t system_from_shares(tk_sim_net_t *net, int nth, tk_error_t *err)
{
    tk_mm_t *mm = &net->mm;
    int64_t nfc = net->nfc;
#pragma omp parallel for num_threads(nth) schedule(dynamic, 256)
    for (int64_t c = 0; c < nfc; c++)
        mm->voff[c + 1] = class_entries(net, c, 0, 0);
    mm->voff[0] = 0;
    for (int64_t c = 0; c < nfc; c++)
        mm->voff[c + 1] += mm->voff[c];
#pragma omp parallel for num_threads(nth) schedule(dynamic, 256)
    for (int64_t c = 0; c < nfc; c++)
        class_entries(net, c, mm->voff[c], 1);
    (void)err;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* The first split (the end of sim_adapt_build, adapt_build.c). */

tk_status_t ad_first_split(tk_sim_net_t *net, tk_error_t *err)
{
    struct sim_adapt *ad = net->ad;
    const tk_adapt_t *a = &ad->a;
    for (int64_t i = 0; i < ad->npairs; i++) {
        ad_pair_t *p = &ad->pair[i];
        double y0 = a->start == TK_ADAPT_START_MIN      ? 0
                    : a->start == TK_ADAPT_START_NONMIN ? 1
                                                        : 0.5;
        for (int64_t j = 0; j < p->ny; j++)
            p->y[j] = y0;
        if (p->pol)
            ad_polar_prior(p);
        pair_shares(p);
        pair_acc(p);
    }
    return system_from_shares(net, net->o.threads > 0 ? net->o.threads : omp_get_max_threads(),
                              err);
}

/* ------------------------------------------------------------------------ */
/* Signals. */

static double exp_tail(double r, double t);

/* PiggyBack's saturation flags (src-*): a global arc a of router u is
 * flagged when its occupancy exceeds coef times the mean occupancy of
 * u's global arcs plus gthr packets.  The probability of that under the
 * arc's law (held-back part d = phi B plus the fluctuation), with every
 * mean taken as E min(q, B): a queue holds at most B packets, so a
 * threshold at or above B is never crossed (the relative threshold then
 * cannot flag a router whose global links are all equally full). */
static void flags(tk_sim_net_t *net)
{
    struct sim_adapt *ad = net->ad;
    const tk_graph_t *g = net->g;
    double B = isnan(ad->a.gbuf) ? ad->a.buffer : ad->a.gbuf; /* global arcs */
    for (int64_t a = 0; a < g->m; a++)
        ad->flag[a] = 0;
    if (ad->gcls < 0 || !g->cls)
        return;
    for (tk_id_t u = 0; u < g->n; u++) {
        double sum = 0;
        int64_t k = 0;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            if (g->cls[a] != ad->gcls)
                continue;
            double q =
                (ad->qd[a] > 0 ? ad->qd[a] * B : 0) + (ad->pz[a] > 0 ? ad->pz[a] * ad->qr[a] : 0);
            sum += q < B ? q : B;
            k++;
        }
        if (k == 0)
            continue;
        double thr = ad->a.coef * sum / (double)k + ad->a.gthr;
        if (!(thr < B))
            continue;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            if (g->cls[a] != ad->gcls)
                continue;
            double t = thr - (ad->qd[a] > 0 ? ad->qd[a] * B : 0);
            ad->flag[a] = t < 0 ? 1 : ad->pz[a] * exp_tail(ad->qr[a], t);
        }
    }
}

/* The first of p's keys (sorted) that is at least x. */
static int64_t key_first(const ad_pair_t *p, int64_t x)
{
    int64_t lo = 0, hi = p->nk;
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (p->key[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Carried traffic per arc, the unserved traffic that would cross it
 * (held back upstream of a bottleneck), and the occupancy q. */
static void signals(tk_sim_net_t *net, double rho)
{
    struct sim_adapt *ad = net->ad;
    const tk_graph_t *g = net->g;
    const tk_mm_t *mm = &net->mm;
    int64_t m = g->m, G = net->ngroups;
    for (int64_t a = 0; a < m; a++)
        ad->use[a] = ad->blk[a] = 0;
    for (int64_t v = 0; v < mm->nvar; v++)
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
            if (mm->eres[e] < m)
                ad->use[mm->eres[e]] += mm->ecoef[e] * net->x[v];
    for (int64_t c = 0; c < net->nfc; c++) {
        int64_t v = c;
        double want = rho * mm->demand[v];
        if (!(net->x[v] < want * (1 - 1e-9)) || net->bneck[v] < 0)
            continue;
        int64_t b = net->bneck[v];
        if (b >= m && b < m + G)
            continue; /* held at its own injection link: no queue */
        const ad_pair_t *p = &ad->pair[ad->cls_pair[c]];
        const fclass_t *f = &net->fc[c];
        /* its unserved rate, all members together */
        double xf = (want - net->x[v]) * f->count;
        if (b >= m + G) {
            /* at the ejection link: every arc of its route */
            for (int64_t u = 0; u < p->nk && p->key[u] < m; u++)
                if (p->acc[u] > 0)
                    ad->blk[p->key[u]] += p->acc[u] * xf;
            continue;
        }
        /* at arc b: the arcs from which its route leads to b (a search
         * backwards from b over the keys entering each marked arc: the
         * keys are sorted by arc, so those of arc x are one run).  Each
         * marked arc's run is visited once, and its keys add to blk[x]
         * there, in key order: the same sums, term for term, as a pass
         * over all keys after the search, without that pass. */
        int64_t st = ++ad->stamp, nw = 0;
        ad->mark[b] = st;
        ad->wl[nw++] = b;
        while (nw > 0) {
            int64_t x = ad->wl[--nw];
            for (int64_t u = key_first(p, x); u < p->nk && p->key[u] == x; u++) {
                if (!(p->acc[u] > 0))
                    continue;
                ad->blk[x] += p->acc[u] * xf;
                if (p->kin[u] >= 0 && ad->mark[p->kin[u]] != st) {
                    ad->mark[p->kin[u]] = st;
                    ad->wl[nw++] = p->kin[u];
                }
            }
        }
    }
    for (int64_t a = 0; a < m; a++) {
        double cap = tk_graph_cap(g, a);
        double u = ad->use[a] / cap;
        double phi = ad->blk[a] > 0 ? ad->blk[a] / (ad->use[a] + ad->blk[a]) : 0;
        if (phi > 1)
            phi = 1;
        /* held back: phi B packets; the rest fluctuates as M/M/1: empty
         * with probability 1 - u, and holding 1 / (1 - u) packets on
         * average when it is not (capped at B) */
        double qc = u >= 1 ? INFINITY : 1 / (1 - u);
        if (qc > ad->bufa[a])
            qc = ad->bufa[a];
        ad->qd[a] = phi;
        ad->pz[a] = u < 1 ? u : 1;
        if (ad->a.rule == TK_ADAPT_UGAL_G)
            ad->lq[a] = ad->pz[a] < 1 ? log1p(-ad->pz[a]) : -INFINITY;
        ad->qr[a] = qc;
        double pu = ad->pz[a];
        ad->aq[a] = (ad_arcq_t){phi > 0 ? phi * ad->bufa[a] : 0, pu, pu > 0 ? pu * qc : 0,
                                ad->bufa[a], ad->lq[a]};
    }
    if (adapt_is_src(ad->a.rule))
        flags(net);
}

/* ugal-le: the contention factors C[router][group]. */
static void contention(tk_sim_net_t *net)
{
    struct sim_adapt *ad = net->ad;
    const tk_graph_t *g = net->g;
    int32_t A = ad->amax, NG = ad->ngroup_topo;
    size_t ncnt = (size_t)g->n * (size_t)A * (size_t)NG;
    memset(ad->cnt, 0, ncnt * sizeof *ad->cnt);
    for (int64_t c = 0; c < net->nfc; c++) {
        const ad_pair_t *p = &ad->pair[ad->cls_pair[c]];
        double xf = net->x[c] * net->fc[c].count;
        if (xf <= 0)
            continue;
        tk_id_t i = p->s;
        int32_t J = p->dgroup, gi = g->group[i];
        if (gi == J)
            continue;
        ad->cnt[((size_t)i * (size_t)A + (size_t)ad->gidx[i]) * (size_t)NG + (size_t)J] += xf;
        for (int64_t k = 0; k < p->nsk; k++) {
            int64_t u = p->sk[k];
            if (p->acc[u] <= 0)
                continue;
            tk_id_t R = g->head[p->key[u]];
            ad->cnt[((size_t)R * (size_t)A + (size_t)ad->gidx[i]) * (size_t)NG + (size_t)J] +=
                p->acc[u] * xf;
        }
    }
    for (tk_id_t R = 0; R < g->n; R++)
        for (int32_t J = 0; J < NG; J++) {
            int32_t C = 0;
            for (int32_t k = 0; k < A; k++)
                if (ad->cnt[((size_t)R * (size_t)A + (size_t)k) * (size_t)NG + (size_t)J] >
                    ad->a.count)
                    C++;
            ad->C[(size_t)R * (size_t)NG + (size_t)J] = C;
        }
}

/* A cost's law: a deterministic part d (the held-back packets: a queue
 * that a share phi of its traffic cannot leave holds phi B of them) plus
 * the M/M/1 fluctuation of the rest, 0 with probability 1 - p and else
 * exponential of mean r. */
typedef struct cost {
    double d, p, r;
    double b; /* the buffer of its first hops (alt_costs' first) */
} cost_t;

/* The law of the occupancy an alternative shows at a decision: that of
 * its first hop (the entries entered from `in`; several first hops mix,
 * weighted by traffic), and that of the sum along it after the deciding
 * router (ugal-g: the held-back parts add up; the fluctuation is 0 with
 * the probability that every queue on the way is empty, else exponential
 * with the fluctuations' summed mean). */
static void alt_costs(const struct sim_adapt *ad, const ad_pair_t *p, const ad_alt_t *A, int64_t m,
                      cost_t *first, cost_t *sum)
{
    double wf = 0, fd = 0, fp = 0, fm = 0, fb = 0;
    for (int64_t e = A->off; e < A->off + A->nfirst; e++) {
        int64_t arc = p->key[p->ak[e]];
        double w = p->aw[e];
        if (arc >= m || w == 0)
            continue;
        const ad_arcq_t *q = &ad->aq[arc]; /* d: phi B, B may be +inf */
        fd += w * q->d;
        fp += w * q->p;
        fm += w * q->pm;
        fb += w * q->b;
        wf += w;
    }
    first->d = wf > 0 ? fd / wf : 0;
    first->b = wf > 0 ? fb / wf : ad->a.buffer;
    first->p = wf > 0 ? fp / wf : 0;
    first->r = fp > 0 ? fm / fp : 0;
    if (!sum)
        return;
    double sd = 0, sl = 0, sm = 0;
    for (int64_t e = A->off; e < A->off + A->n; e++) {
        int64_t arc = p->key[p->ak[e]];
        double w = p->aw[e];
        if (arc >= m || arc == A->sin || w == 0)
            continue; /* the ejection, the prefix (behind the decision) */
        const ad_arcq_t *q = &ad->aq[arc];
        sd += w * q->d;
        sl += w * q->lq;
        sm += w * q->pm;
    }
    sum->d = sd;
    sum->b = first->b;
    sum->p = -expm1(sl);
    sum->r = sum->p > 0 ? sm / sum->p : 0;
}

static cost_t cost_scale(cost_t c, double k)
{
    c.d *= k;
    c.r *= k;
    return c;
}

static double cost_mean(cost_t c)
{
    return c.d + c.p * c.r;
}

/* P(X > t) for X exponential of mean r (0 when r is 0). */
static double exp_tail(double r, double t)
{
    if (t < 0)
        return 1;
    return r > 0 ? exp(-t / r) : 0;
}

/* P(X > Y + t) for X, Y independent exponentials of means a, b. */
static double exp_gt(double a, double b, double t)
{
    if (t >= 0)
        return a > 0 ? a / (a + b) * exp(-t / a) : 0;
    return b > 0 ? 1 - b / (a + b) * exp(t / b) : 1;
}

/* The share of packets that route non-minimally under "minimal when
 * cost_min <= cost_nonmin + bias": with t = bias + cn.d - cm.d,
 * P(Ym > Yn + t) over the four cases of the two fluctuations being 0 or
 * exponential.  When both are 0 the comparison is of the deterministic
 * parts alone, and queue lengths are whole packets: a minimal cost higher
 * by x < 1 sends a share x non-minimally (a ramp one cost unit wide, so
 * that the share is continuous in the signals; ties stay minimal).
 * Summed as the probability itself for bias >= 0 and as 1 - its
 * complement for bias < 0, so a bias that decides every case gives
 * exactly 0 or 1.  An infinite cost (a held-back share of an unbounded
 * buffer) loses to a finite one; both infinite: no information, the
 * share stays y. */
static double choose(cost_t cm, cost_t cn, double b, double y)
{
    int im = isinf(cm.d) || (cm.p > 0 && isinf(cm.r));
    int in = isinf(cn.d) || (cn.p > 0 && isinf(cn.r));
    if (im && in)
        return y;
    if (im)
        return 1;
    if (in)
        return 0;
    double t = b + cn.d - cm.d;
    double ramp = -t < 0 ? 0 : -t > 1 ? 1 : -t;
    const double w[4] = {(1 - cm.p) * (1 - cn.p), cm.p * (1 - cn.p), (1 - cm.p) * cn.p,
                         cm.p * cn.p};
    double P[4] = {ramp, 0, 0, 0};
    if (t >= 0) {
        /* exp_tail(cm.r, t), 0 and exp_gt(cm.r, cn.r, t) with their one
         * exponential */
        double e = cm.r > 0 ? exp(-t / cm.r) : 0;
        P[1] = e;
        P[3] = cm.r > 0 ? cm.r / (cm.r + cn.r) * e : 0;
    } else if (t < 0) {
        /* 1, 1 - exp_tail(cn.r, -t) and exp_gt(cm.r, cn.r, t) likewise */
        double e = cn.r > 0 ? exp(t / cn.r) : 0;
        P[1] = 1;
        P[2] = 1 - e;
        P[3] = cn.r > 0 ? 1 - cn.r / (cm.r + cn.r) * e : 1;
    } else {
        P[1] = exp_tail(cm.r, t);
        P[3] = exp_gt(cm.r, cn.r, t);
    }
    double v = 0;
    for (int i = 0; i < 4; i++)
        if (w[i] > 0)
            v += w[i] * (b >= 0 ? P[i] : 1 - P[i]);
    if (b < 0)
        v = 1 - v;
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* New targets of every decision of p; returns the largest |y* - y|. */
static double pair_targets(const tk_sim_net_t *net, ad_pair_t *p, double *cmin_out)
{
    const struct sim_adapt *ad = net->ad;
    if (p->pol)
        return ad_polar_targets(ad, p, cmin_out);
    const tk_adapt_t *a = &ad->a;
    int64_t m = net->g->m;
    double res = 0;
    p->cmax = 0;
    for (int64_t k = 0; k < p->ndec; k++) {
        const ad_dec_t *d = &p->dec[k];
        const ad_alt_t *MA = &p->alt[d->cost];
        int G = a->rule == TK_ADAPT_UGAL_G;
        int D = adapt_is_dgb(a->rule);
        double bias = D ? ad->rb[d->at] : a->bias;
        cost_t qm, qms, cmin;
        alt_costs(ad, p, MA, m, &qm, G || D ? &qms : NULL);
        double Hm = MA->hops - d->pre;
        if (a->rule == TK_ADAPT_UGAL_G) {
            cmin = qms;
        } else {
            double f = Hm;
            if (adapt_is_le(a->rule) && !d->direct) {
                int32_t C = ad->C[(size_t)d->at * (size_t)ad->ngroup_topo + (size_t)p->dgroup];
                if (C > 1) {
                    f += (double)(C - 1);
                    if (C - 1 > p->cmax)
                        p->cmax = C - 1;
                }
            }
            cmin = cost_scale(qm, f);
        }
        if (k == 0 && cmin_out)
            *cmin_out = cost_mean(cmin);
        /* src-*: the probability that the minimal route's global link is
         * flagged; in-transit-*: that the minimal first hop is at least
         * thr B full */
        double flag = 0, trig = 1;
        if (adapt_is_src(a->rule)) {
            double fw = 0, ww = 0;
            for (int64_t e = MA->off; e < MA->off + MA->n; e++) {
                int64_t arc = p->key[p->ak[e]];
                if (arc >= m || !net->g->cls || net->g->cls[arc] != ad->gcls)
                    continue;
                fw += p->aw[e] * ad->flag[arc];
                ww += p->aw[e];
            }
            flag = ww > 0 ? fw / ww : 0;
        } else if (adapt_is_transit(a->rule)) {
            double Bm = isnan(a->gbuf) ? a->buffer : qm.b; /* its first hop's */
            double thb = a->thr * Bm;
            if (!(a->thr > 0))
                trig = 1;
            else if (!(thb < Bm))
                trig = 0;
            else if (thb - qm.d < 0)
                trig = 1;
            else
                trig = qm.p * exp_tail(qm.r, thb - qm.d);
            cmin = qm;
        }
        /* dgb, edgb: the latency the rule measures, hops plus the
         * expected queues along the route after the deciding router */
        double Lm = D ? Hm + cost_mean(qms) : 0, gtot = 0;
        if (D)
            for (int64_t j = 0; j < d->ng; j++)
                gtot += p->gw[d->y0 + j];
        for (int64_t j = 0; j < d->ng; j++) {
            const ad_alt_t *NA = &p->alt[d->g0 + j];
            cost_t qn, qns;
            alt_costs(ad, p, NA, m, &qn, G || D ? &qns : NULL);
            cost_t cn = a->rule == TK_ADAPT_UGAL_G  ? qns
                        : adapt_is_transit(a->rule) ? qn
                                                    : cost_scale(qn, NA->hops - d->pre);
            double y = p->y[d->y0 + j];
            double t = choose(cmin, cn, bias, y);
            if (D) {
                /* dy/db by a symmetric difference of half a cost unit
                 * each way (the width of choose's ramp), times the
                 * latency the non-minimal route adds */
                double dy = (choose(cmin, cn, bias + 0.5, y) - choose(cmin, cn, bias - 0.5, y));
                double dl = NA->hops - d->pre + cost_mean(qns) - Lm;
                p->gy[d->y0 + j] = dy != 0 && isfinite(dl) ? p->gw[d->y0 + j] / gtot * dy * dl : 0;
            }
            if (adapt_is_src(a->rule))
                t = flag > 0 ? 1 - (1 - t) * (1 - flag) : t;
            else if (adapt_is_transit(a->rule))
                t = trig < 1 ? trig * t : t;
            p->ynew[d->y0 + j] = t;
            double r = fabs(t - y);
            if (r > res)
                res = r;
        }
    }
    return res;
}

/* ------------------------------------------------------------------------ */
/* The fixed point. */

static void adapt_stats(tk_sim_net_t *net, double cmin_w)
{
    struct sim_adapt *ad = net->ad;
    const tk_graph_t *g = net->g;
    double tot = 0, mins = 0, hops = 0;
    double wsum = 0, hsum = 0, ch[TK_MAX_CLASSES] = {0};
    int32_t maxh = 0;
    for (int64_t i = 0; i < ad->npairs; i++) {
        if (ad->pair[i].pol) {
            ad_polar_stats(&ad->pair[i], g);
            if (ad->pair[i].pol->maxhops > maxh)
                maxh = ad->pair[i].pol->maxhops;
        }
        for (int64_t k = 0; k < ad->pair[i].nalt; k++)
            if (ad->pair[i].share[k] > 0 && ad->pair[i].alt[k].maxhops > maxh)
                maxh = ad->pair[i].alt[k].maxhops;
    }
    double *hist = tk_calloc_array((size_t)maxh + 1, sizeof *hist);
    for (int64_t c = 0; c < net->nfc; c++) {
        const ad_pair_t *p = &ad->pair[ad->cls_pair[c]];
        double xf = net->x[c] * net->fc[c].count;
        double w = net->fc[c].w * net->fc[c].count; /* at offered load 1 */
        if (p->pol) {
            const ad_polar_t *q = p->pol;
            tot += xf;
            mins += xf * q->pmin;
            hops += xf * q->ehops;
            wsum += w;
            hsum += w * q->ehops;
            for (int cc = 0; cc < g->nclasses; cc++)
                ch[cc] += w * q->chops[cc];
            if (hist)
                for (int32_t h = 0; h <= q->maxhops; h++)
                    hist[h] += w * q->hist[h];
            continue;
        }
        for (int64_t k = 0; k < p->nalt; k++) {
            double s = p->share[k];
            if (s <= 0)
                continue;
            const ad_alt_t *A = &p->alt[k];
            tot += xf * s;
            if (A->minimal)
                mins += xf * s;
            hops += xf * s * A->hops;
            wsum += w * s;
            hsum += w * s * A->hops;
            const double *ac = p->chops + (size_t)k * (size_t)p->ncls;
            for (int cc = 0; cc < g->nclasses; cc++)
                ch[cc] += w * s * ac[cc];
            if (hist)
                for (int32_t h = 0; h <= A->maxhops; h++)
                    hist[h] += w * s * p->hist[A->hoff + h];
        }
    }
    ad->info.min_share = tot > 0 ? mins / tot : 1;
    ad->info.hops = tot > 0 ? hops / tot : 0;
    ad->info.cost_min = cmin_w;
    ad->info.contention = 0;
    ad->info.bias_mean = ad->a.bias;
    ad->info.grad_max = 0;
    ad->info.outer = ad->outer;
    if (ad->rb) {
        double bs = 0;
        int64_t nb = 0;
        for (tk_id_t u = 0; u < g->n; u++)
            if (ad->rw[u] > 0) {
                bs += ad->rb[u];
                nb++;
            }
        if (nb > 0)
            ad->info.bias_mean = bs / (double)nb;
        ad->info.grad_max = ad->gfree;
    }
    for (int64_t i = 0; i < ad->npairs; i++)
        if (ad->pair[i].cmax > ad->info.contention)
            ad->info.contention = ad->pair[i].cmax;
    net->wsum = wsum;
    net->hops = hsum;
    for (int cc = 0; cc < g->nclasses; cc++)
        net->chops[cc] = ch[cc];
    if (hist) {
        free(net->hhist);
        net->hhist = hist;
        net->maxhops = maxh;
    }
}

/* The rule's first split. */
static void split_reset(struct sim_adapt *ad)
{
    const tk_adapt_t *a = &ad->a;
    double y0 = a->start == TK_ADAPT_START_MIN ? 0 : a->start == TK_ADAPT_START_NONMIN ? 1 : 0.5;
    ad->outer = 1;
    if (ad->rb)
        for (int64_t u = 0; u < ad->nrb; u++) {
            ad->rb[u] = a->bias;
            ad->rd[u] = ad->rgp[u] = 0;
        }
    for (int64_t i = 0; i < ad->npairs; i++) {
        ad_pair_t *p = &ad->pair[i];
        for (int64_t j = 0; j < p->ny; j++)
            p->y[j] = y0;
        if (p->pol)
            ad_polar_prior(p);
        pair_shares(p);
        pair_acc(p);
    }
}

/* dgb, edgb: every router's gradient of the mean latency of the
 * traffic it decides with respect to its bias, at the split just
 * measured (the latencies held fixed; each decision weighted by its
 * class's offered traffic, summed in class order) into rg / rw, and
 * gfree, the largest |gradient| over the routers whose bias the clamp
 * does not hold (at +-bmax with the gradient pushing it outward). */
static void bias_grad(tk_sim_net_t *net)
{
    struct sim_adapt *ad = net->ad;
    tk_id_t n = net->g->n;
    for (tk_id_t u = 0; u < n; u++)
        ad->rg[u] = ad->rw[u] = 0;
    for (int64_t c = 0; c < net->nfc; c++) {
        const ad_pair_t *p = &ad->pair[ad->cls_pair[c]];
        double w = net->fc[c].w * net->fc[c].count;
        for (int64_t k = 0; k < p->ndec; k++) {
            const ad_dec_t *d = &p->dec[k];
            if (d->ng == 0)
                continue;
            double s = 0;
            for (int64_t j = 0; j < d->ng; j++)
                s += p->gy[d->y0 + j];
            ad->rg[d->at] += w * s;
            ad->rw[d->at] += w;
        }
    }
    double gfree = 0;
    for (tk_id_t u = 0; u < n; u++) {
        if (!(ad->rw[u] > 0))
            continue;
        /* dy/db <= 0: the gradient's sign is that of L_min - L_nm */
        double grad = ad->rg[u] / ad->rw[u];
        int held = (ad->rb[u] >= ad->bmax && grad < 0) || (ad->rb[u] <= -ad->bmax && grad > 0);
        if (!held && fabs(grad) > gfree)
            gfree = fabs(grad);
    }
    ad->gfree = gfree;
}

/* dgb, edgb: one step b_r <- b_r - eta x gradient (bias_grad's) for
 * every router that decides traffic, clamped to +-bmax; returns the
 * largest |change|. */
static double bias_step(struct sim_adapt *ad, tk_id_t n, double eta)
{
    double big = 0;
    for (tk_id_t u = 0; u < n; u++) {
        if (!(ad->rw[u] > 0))
            continue;
        double b = ad->rb[u] - eta * (ad->rg[u] / ad->rw[u]);
        if (b > ad->bmax)
            b = ad->bmax;
        if (b < -ad->bmax)
            b = -ad->bmax;
        if (fabs(b - ad->rb[u]) > big)
            big = fabs(b - ad->rb[u]);
        ad->rb[u] = b;
    }
    return big;
}

/* dgb, edgb: the outer loop's bias step.  The first is the gradient
 * step b_r <- b_r - rate x gradient; after it every router's step keeps
 * its size d_r and takes the gradient's sign, d_r growing by AD_RPROP_UP
 * while the sign stays and shrinking by AD_RPROP_DOWN when it changes
 * (Riedmiller and Braun, "A direct adaptive method for faster
 * backpropagation learning: the RPROP algorithm"): a bias whose fixed
 * point is at the clamp (every comparison decided one way, the gradient
 * decaying exponentially as the bias grows) reaches it in tens of steps
 * instead of crawling, and one with a zero inside overshoots it and
 * halves.  A step the clamp cuts leaves d_r the distance moved (0 at the
 * clamp: the next step leaving it is a gradient step again).  Returns
 * the largest |change|. */
static double bias_rprop(struct sim_adapt *ad, tk_id_t n, int first)
{
    double big = 0;
    for (tk_id_t u = 0; u < n; u++) {
        if (!(ad->rw[u] > 0))
            continue;
        double g = ad->rg[u] / ad->rw[u], d;
        if (g == 0)
            continue;
        if (first || ad->rd[u] == 0) {
            d = ad->a.rate * fabs(g);
        } else {
            double sg = g * ad->rgp[u];
            d = sg > 0 ? ad->rd[u] * AD_RPROP_UP : sg < 0 ? ad->rd[u] * AD_RPROP_DOWN : ad->rd[u];
        }
        ad->rgp[u] = g;
        double b = ad->rb[u] - (g > 0 ? d : -d);
        if (b > ad->bmax) {
            b = ad->bmax;
            d = b - ad->rb[u];
        }
        if (b < -ad->bmax) {
            b = -ad->bmax;
            d = ad->rb[u] - b;
        }
        ad->rd[u] = d;
        if (fabs(b - ad->rb[u]) > big)
            big = fabs(b - ad->rb[u]);
        ad->rb[u] = b;
    }
    return big;
}

/* One iteration's measurement: solve the rates of the current split,
 * the signals and every target; *res the residual, *cmin_w the mean
 * minimal cost of the source routers. */
static tk_status_t measure(tk_sim_net_t *net, double rho, int nth, double *res, double *cmin_w,
                           tk_error_t *err)
{
    struct sim_adapt *ad = net->ad;
    tk_mm_info_t mi;
    tk_status_t st = system_from_shares(net, nth, err);
    if (st != TK_OK)
        return st;
    st = sim_mm_solve_ws(&net->mm, net->o.arb, rho, net->o.max_sweeps, 0, net->x, net->bneck, &mi,
                         nth, ad->fws, err);
    if (st != TK_OK)
        return st;
    signals(net, rho);
    if (adapt_is_le(ad->a.rule))
        contention(net);
    /* every pair's targets on its own (each writes only its own fields;
     * the maximum does not depend on the order) */
    double r = 0;
#pragma omp parallel for num_threads(nth) schedule(dynamic, 16) reduction(max : r)
    for (int64_t i = 0; i < ad->npairs; i++) {
        ad_pair_t *p = &ad->pair[i];
        double ri = pair_targets(net, p, &p->cmin);
        if (ri > r)
            r = ri;
    }
    if (adapt_is_dgb(ad->a.rule))
        bias_grad(net);
    *res = r;
    /* the minimal cost the source routers estimate, weighted by the
     * accepted traffic */
    double cw = 0, cs = 0;
    for (int64_t c = 0; c < net->nfc; c++) {
        const ad_pair_t *p = &ad->pair[ad->cls_pair[c]];
        double xf = net->x[c] * net->fc[c].count;
        if (isfinite(p->cmin)) {
            cw += xf * p->cmin;
            cs += xf;
        }
    }
    *cmin_w = cs > 0 ? cw / cs : 0;
    return TK_OK;
}

/* Every pair's shares and coefficients from its y. */
static void refresh(struct sim_adapt *ad, int nth)
{
#pragma omp parallel for num_threads(nth) schedule(dynamic, 16)
    for (int64_t i = 0; i < ad->npairs; i++) {
        pair_shares(&ad->pair[i]);
        pair_acc(&ad->pair[i]);
    }
}

/* Move every share by damp toward its target. */
static void move(struct sim_adapt *ad, double damp, int nth)
{
#pragma omp parallel for num_threads(nth) schedule(dynamic, 16)
    for (int64_t i = 0; i < ad->npairs; i++) {
        ad_pair_t *p = &ad->pair[i];
        for (int64_t j = 0; j < p->ny; j++)
            p->y[j] += damp * (p->ynew[j] - p->y[j]);
        pair_shares(p);
        pair_acc(p);
    }
}

/* The trace (tk_sim_opts_t.trace): the measured columns of the
 * iteration just measured into *it (the caller sets the step, damping and
 * halving).  Serial, and it only reads the iteration's state (adapt_stats
 * and the summary write what the end of a solve writes again), so the
 * solve does not change. */
static tk_status_t trace_fill(tk_sim_net_t *net, double rho, int64_t iter, double res,
                              double cmin_w, tk_adapt_iter_t *it, tk_error_t *err)
{
    struct sim_adapt *ad = net->ad;
    int64_t m = net->g->m;
    tk_sim_point_t pt;
    memset(it, 0, sizeof *it);
    if (!ad->tr_bneck) {
        ad->tr_bneck = tk_calloc_array((size_t)net->nfc + 1, sizeof *ad->tr_bneck);
        ad->tr_q = tk_calloc_array((size_t)m + 1, sizeof *ad->tr_q);
        if (!ad->tr_bneck || !ad->tr_q)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    memset(&pt, 0, sizeof pt);
    /* the summary marks the net solved at rho: only the end of the solve
     * may (a solve that fails later leaves the net as it found it) */
    int was = net->solved;
    double wrho = net->rho;
    tk_status_t st = sim_net_summarise(net, rho, &pt, err);
    net->solved = was;
    net->rho = wrho;
    if (st != TK_OK)
        return st;
    adapt_stats(net, cmin_w);
    it->iteration = iter;
    it->rho = rho;
    it->residual = res;
    it->accepted = pt.srv.mean;
    it->min_served = pt.min_served;
    it->min_share = ad->info.min_share;
    it->cost_min = ad->info.cost_min;
    /* the classes' bottlenecks (a class is one variable), and every arc's
     * mean occupancy d + p r (an infinite one equal to an infinite one) */
    int64_t nb = 0;
    double dq = 0;
    for (int64_t c = 0; c < net->nfc; c++) {
        if (ad->tr_have && net->bneck[c] != ad->tr_bneck[c])
            nb++;
        ad->tr_bneck[c] = net->bneck[c];
    }
    for (int64_t a = 0; a < m; a++) {
        double q = ad->aq[a].d + ad->aq[a].pm;
        if (ad->tr_have && q != ad->tr_q[a]) {
            double d = isinf(q) || isinf(ad->tr_q[a]) ? INFINITY : fabs(q - ad->tr_q[a]);
            if (d > dq)
                dq = d;
        }
        ad->tr_q[a] = q;
    }
    it->outer = ad->outer;
    it->bias_mean = ad->info.bias_mean;
    it->grad_max = ad->info.grad_max;
    it->bneck_changed = ad->tr_have ? nb : -1;
    it->signal_change = ad->tr_have ? dq : NAN;
    ad->tr_have = 1;
    return TK_OK;
}

/* The split iteration's state between the solves of dgb's outer loop. */
typedef struct split_run {
    int64_t it;           /* iterations so far, of the whole solve        */
    double res, cmin_w;   /* the last iteration's                         */
    double damp;          /* the damping at the stop                      */
    int snapped;          /* it stopped after a snap                      */
    tk_adapt_step_t stop; /* converged, iter, floor or oscillation        */
} split_run_t;

/* The split iteration (the biases of dgb, edgb held fixed) from the
 * current split, with the damping at its first value and no history,
 * until it stops: a fixed point (converged), the damping's floor, the
 * oscillation stop, or max_iter iterations counted over the whole solve
 * (s->it carries them).  Traces every iteration but the last, whose row
 * the caller writes with what followed. */
static tk_status_t split_solve(tk_sim_net_t *net, double rho, int nth, ad_aa_t *A, int acc,
                               split_run_t *s, tk_adapt_iter_t *tr, tk_error_t *err)
{
    struct sim_adapt *ad = net->ad;
    const tk_adapt_t *a = &ad->a;
    double damp = a->damping, best = INFINITY, low = INFINITY, res = INFINITY, cmin_w = 0;
    int64_t best_it = s->it, low_it = s->it, it;
    int snapped = 0;
    /* the lowest residual so far, and at the last halving that found it
     * halved since the one before; halvings since then */
    double glow = INFINITY, mark = INFINITY;
    int futile = 0;
    tk_adapt_step_t stop = TK_ADAPT_STEP_ITER;
    if (acc)
        ad_aa_reset(A);
    for (it = s->it + 1;; it++) {
        tk_status_t st = measure(net, rho, nth, &res, &cmin_w, err);
        if (st == TK_OK && net->o.trace)
            st = trace_fill(net, rho, it, res, cmin_w, tr, err);
        if (st != TK_OK)
            return st;
        if (res < glow)
            glow = res;
        if (snapped || it >= a->max_iter) {
            stop = snapped || res <= a->tol ? TK_ADAPT_STEP_CONVERGED : TK_ADAPT_STEP_ITER;
            break;
        }
        if (res <= a->tol) {
            /* converged: the shares whose target is 0 or 1 take it
             * exactly (a rule that a bias forces gives the oblivious
             * split exactly), and one more iteration reports on that */
            int any = 0;
            for (int64_t i = 0; i < ad->npairs; i++) {
                ad_pair_t *p = &ad->pair[i];
                int moved = 0;
                for (int64_t j = 0; j < p->ny; j++)
                    if ((p->ynew[j] == 0 || p->ynew[j] == 1) && p->y[j] != p->ynew[j]) {
                        p->y[j] = p->ynew[j];
                        moved = 1;
                    }
                if (moved) {
                    pair_shares(p);
                    pair_acc(p);
                    any = 1;
                }
            }
            if (!any) {
                stop = TK_ADAPT_STEP_CONVERGED;
                break;
            }
            snapped = 1;
            if (net->o.trace) {
                tr->damping = damp;
                tr->step = TK_ADAPT_STEP_SNAP;
                net->o.trace(net->o.trace_ctx, tr);
            }
            continue;
        }
        if (res < low) {
            low = res;
            low_it = it;
        }
        if (res <= best / 2) {
            best = res;
            best_it = it;
        } else if (it - best_it >= (acc ? AD_AA_HALF : AD_STALL) ||
                   (acc && it - low_it >= AD_AA_STALL)) {
            damp /= 2;
            tr->halved = 1;
            best = low = res;
            best_it = low_it = it;
            if (acc) {
                ad_aa_reset(A);
                if (damp < AD_DAMP_MIN) {
                    stop = TK_ADAPT_STEP_FLOOR;
                    break; /* it stays where it is: not converged */
                }
                /* AD_AA_FUTILE halvings in a row without the lowest
                 * residual halving: the step shrank 2^AD_AA_FUTILE-fold
                 * and the residual did not follow; it oscillates (not
                 * converged, as at the floor) */
                if (glow <= mark / 2) {
                    mark = glow;
                    futile = 0;
                } else if (++futile >= AD_AA_FUTILE) {
                    stop = TK_ADAPT_STEP_OSCILLATION;
                    break;
                }
            }
        }
        tr->step = TK_ADAPT_STEP_DAMPED;
        if (acc) {
            if (ad_aa_step(ad, A, damp, nth))
                tr->step = TK_ADAPT_STEP_ANDERSON;
            refresh(ad, nth);
        } else {
            move(ad, damp, nth);
        }
        if (net->o.trace) {
            tr->damping = damp;
            net->o.trace(net->o.trace_ctx, tr);
        }
    }
    s->it = it;
    s->res = res;
    s->cmin_w = cmin_w;
    s->damp = damp;
    s->snapped = snapped;
    s->stop = stop;
    return TK_OK;
}

/* dgb, edgb, the outer loop: split solves with the biases fixed, each
 * followed by one bias step (bias_rprop) from the gradients of the split
 * where it stopped, until the free gradients are within the tolerance;
 * it stops as oscillating when the largest free gradient has not halved
 * in AD_OUT_STALL outer steps (topokit(7), dgb). */
tk_status_t sim_adapt_solve(tk_sim_net_t *net, double rho, tk_mm_info_t *info, tk_error_t *err)
{
    struct sim_adapt *ad = net->ad;
    const tk_adapt_t *a = &ad->a;
    int nth = net->o.threads > 0 ? net->o.threads : omp_get_max_threads();
    int dgb = adapt_is_dgb(a->rule), conv;
    split_run_t s;
    tk_adapt_iter_t tr = {0};
    tk_adapt_step_t stop;
    /* the outer loop's step, the free gradient at its last record (and
     * that record's outer step), the lowest so far and at the last
     * halving that saw it halve; futile halvings since */
    double omark = INFINITY;
    int64_t omark_k = 1;
    memset(info, 0, sizeof *info);
    memset(&s, 0, sizeof s);
    /* every solve starts from the rule's first split */
    split_reset(ad);
    ad->tr_have = 0;
    ad_aa_t A;
    /* polarized-adaptive keeps the plain damped step: its shares at a
     * router sum to 1, which a clamped extrapolation would break */
    int acc = a->rule != TK_ADAPT_POLAR;
    if (acc && ad_aa_init(&A, ad)) {
        ad_aa_free(&A);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    for (;;) {
        tk_status_t st = split_solve(net, rho, nth, &A, acc, &s, &tr, err);
        if (st != TK_OK) {
            if (acc)
                ad_aa_free(&A);
            return st;
        }
        stop = s.stop;
        if (!dgb)
            break;
        /* dgb, edgb: a fixed point of the split whose free gradients
         * are within the tolerance (rate x gradient: the bias step it
         * would take) is one of the whole */
        int fixed = s.stop == TK_ADAPT_STEP_CONVERGED;
        if (fixed && a->rate * ad->gfree <= a->tol)
            break;
        if (s.it >= a->max_iter) {
            stop = TK_ADAPT_STEP_ITER;
            break;
        }
        /* rate=0: the biases cannot move; the split's stop is the
         * solve's (not converged: it stopped without a fixed point) */
        if (!(a->rate > 0))
            break;
        if (ad->outer >= a->max_outer) {
            stop = TK_ADAPT_STEP_OUTER;
            break;
        }
        /* the lowest free gradient has not halved in AD_OUT_STALL
         * outer steps: the biases do not settle */
        if (ad->gfree <= omark / 2) {
            omark = ad->gfree;
            omark_k = ad->outer;
        } else if (ad->outer - omark_k >= AD_OUT_STALL) {
            stop = TK_ADAPT_STEP_OSCILLATION;
            break;
        }
        /* the bias step from the split where the iteration stopped,
         * whether a fixed point or not (its gradients are then those of
         * the last split: topokit(7)); none moving ends the loop */
        if (!(bias_rprop(ad, net->g->n, ad->outer == 1) > 0)) {
            if (fixed)
                stop = TK_ADAPT_STEP_FLOOR;
            break;
        }
        if (net->o.trace) {
            tr.damping = s.damp;
            tr.step = TK_ADAPT_STEP_BIAS;
            net->o.trace(net->o.trace_ctx, &tr);
        }
        ad->outer++;
    }
    if (acc)
        ad_aa_free(&A);
    if (net->o.trace) {
        tr.damping = s.damp;
        tr.step = stop;
        net->o.trace(net->o.trace_ctx, &tr);
    }
    conv = dgb ? stop == TK_ADAPT_STEP_CONVERGED : s.snapped || s.res <= a->tol;
    info->iterations = s.it;
    info->residual = s.res;
    info->converged = conv;
    info->another = 0;
    adapt_stats(net, s.cmin_w);
    ad->solved = 1;
    ad->epoch = 0;
    ad->stepping = 0;
    return TK_OK;
}

tk_status_t sim_adapt_epoch(tk_sim_net_t *net, double rho, tk_mm_info_t *info, tk_error_t *err)
{
    struct sim_adapt *ad = net->ad;
    int nth = net->o.threads > 0 ? net->o.threads : omp_get_max_threads();
    double res, cmin_w;
    memset(info, 0, sizeof *info);
    tk_adapt_iter_t tr = {0};
    if (!ad->stepping) {
        split_reset(ad);
        ad->stepping = 1;
        ad->tr_have = 0;
    }
    tk_status_t st = measure(net, rho, nth, &res, &cmin_w, err);
    if (st != TK_OK)
        return st;
    /* dgb, edgb: the biases take their step with the split's, at full
     * rate (no outer loop epoch by epoch) */
    if (adapt_is_dgb(ad->a.rule)) {
        double db = bias_step(ad, net->g->n, ad->a.rate);
        if (db > res)
            res = db;
    }
    if (net->o.trace)
        st = trace_fill(net, rho, ad->epoch + 1, res, cmin_w, &tr, err);
    if (st != TK_OK)
        return st;
    if (net->o.trace) {
        tr.damping = ad->a.damping;
        tr.step = TK_ADAPT_STEP_DAMPED;
        net->o.trace(net->o.trace_ctx, &tr);
    }
    adapt_stats(net, cmin_w);
    info->iterations = ++ad->epoch;
    info->residual = res;
    info->converged = res <= ad->a.tol;
    ad->solved = 1;
    /* the next epoch's split */
    move(ad, ad->a.damping, nth);
    return TK_OK;
}

tk_status_t tk_sim_adapt_inherit(tk_sim_net_t *dst, const tk_sim_net_t *src, tk_error_t *err)
{
    if (!dst->ad || !src->ad)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "not an adaptive simulation");
    struct sim_adapt *d = dst->ad;
    const struct sim_adapt *s = src->ad;
    if (!s->stepping)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "the source has taken no epoch");
    if (!d->stepping) {
        split_reset(d);
        d->stepping = 1;
    }
    d->epoch = s->epoch;
    /* both pair lists are sorted by (s, t): merge */
    int64_t j = 0;
    for (int64_t i = 0; i < d->npairs; i++) {
        ad_pair_t *p = &d->pair[i];
        while (j < s->npairs &&
               (s->pair[j].s < p->s || (s->pair[j].s == p->s && s->pair[j].t < p->t)))
            j++;
        if (j < s->npairs && s->pair[j].s == p->s && s->pair[j].t == p->t &&
            s->pair[j].ny == p->ny) {
            memcpy(p->y, s->pair[j].y, (size_t)p->ny * sizeof *p->y);
            pair_shares(p);
            pair_acc(p);
        }
    }
    return TK_OK;
}

tk_status_t tk_sim_adapt_info(const tk_sim_net_t *net, tk_adapt_info_t *out, tk_error_t *err)
{
    if (!net->ad)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "not an adaptive simulation");
    if (!net->ad->solved)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "no solve yet");
    *out = net->ad->info;
    return TK_OK;
}
