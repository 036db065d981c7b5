/*
 * net.c - a topology, a routing model and a traffic pattern as a max-min
 * system (tk_mm_t), solved at an offered load and summarised.
 *
 * Resources: arc a is resource a (its capacity); group k's injection links
 * are resource m + k, its ejection links m + G + k (capacity and copies:
 * the group's servers).  Inputs: arc a is input a (in transit), group k's
 * injection ports input m + k (in_mult: the group's servers).
 *
 * Groups.  Servers that are interchangeable share one group, and flows
 * between the same groups with the same weight one variable (mult: how
 * many server-level flows it stands for).  Server-level patterns are
 * grouped by colour refinement: start from the switch of each server;
 * refine by the multiset of (destination colour, weight) of the server's
 * demands and (source colour, weight) of the demands it receives, until
 * the number of colours stops growing.  The result is an equitable
 * partition: a symmetry of the system in the sense that averaging any
 * feasible allocation over each cell keeps it feasible and makes it no
 * worse in the max-min order, so the unique fair allocation is constant
 * on cells, and the aggregated system has the same solution
 * (topokit(7)).  Refinement that has not settled after SIM_WL_ROUNDS rounds
 * falls back to one group per server.  Switch-level patterns: one group
 * per switch (all its servers, or one endpoint when it has none).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* qsort_r */
#endif
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#endif

#include "sim/maxmin_internal.h"
#include "sim_internal.h"

#define SIM_WL_ROUNDS 64
#define SIM_MAX_PATHS_DEFAULT ((uint64_t)1 << 20)

void tk_sim_opts_init(tk_sim_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->arb = TK_ARB_FAIR;
    o->split = TK_SPLIT_OBLIVIOUS;
}

const tk_mm_t *tk_sim_net_mm(const tk_sim_net_t *net)
{
    return &net->mm;
}

int64_t tk_sim_servers(const tk_sim_net_t *net)
{
    return net->nsrv;
}

static void mm_free(tk_mm_t *mm)
{
    free(mm->cap);
    free(mm->copies);
    free(mm->own_in);
    free(mm->demand);
    free(mm->mult);
    free(mm->in_mult);
    free(mm->in_transit);
    free(mm->voff);
    free(mm->eres);
    free(mm->ein);
    free(mm->ecoef);
    free(mm->emcoef);
    memset(mm, 0, sizeof *mm);
}

void tk_sim_net_free(tk_sim_net_t *net)
{
    if (!net)
        return;
    free(net->first);
    free(net->gsize);
    free(net->gsw);
    free(net->srv_group);
    free(net->fc);
    free(net->fc_var);
    mm_free(&net->mm);
    free(net->vsrc);
    free(net->x);
    free(net->bneck);
    free(net->hhist);
    sim_adapt_free(net->ad);
    free(net);
}

static tk_status_t nomem(tk_error_t *err)
{
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (simulated network)");
}

/* ------------------------------------------------------------------------ */
/* Servers and groups. */

/* Servers per switch in the simulation: the topology's, or one endpoint
 * for a switch without servers at switch level. */
static int64_t sim_servers_at(const tk_graph_t *g, tk_id_t u, tk_level_t level)
{
    int64_t p = tk_graph_servers(g, u);
    return (level == TK_LEVEL_SWITCH && p == 0) ? 1 : p;
}

static tk_status_t net_servers(tk_sim_net_t *net, tk_level_t level, tk_error_t *err)
{
    const tk_graph_t *g = net->g;
    net->first = tk_malloc_array((size_t)g->n + 1, sizeof *net->first);
    if (!net->first)
        return nomem(err);
    net->first[0] = 0;
    for (tk_id_t u = 0; u < g->n; u++)
        net->first[u + 1] = net->first[u] + sim_servers_at(g, u, level);
    net->nsrv = net->first[g->n];
    return TK_OK;
}

/* Groups from a colouring of the servers (colour ids 0..k-1, each colour
 * within one switch). */
static tk_status_t groups_from_colours(tk_sim_net_t *net, const int64_t *col, int64_t k,
                                       tk_error_t *err)
{
    net->ngroups = k;
    net->gsize = tk_calloc_array((size_t)(k > 0 ? k : 1), sizeof *net->gsize);
    net->gsw = tk_calloc_array((size_t)(k > 0 ? k : 1), sizeof *net->gsw);
    net->srv_group =
        tk_malloc_array((size_t)(net->nsrv > 0 ? net->nsrv : 1), sizeof *net->srv_group);
    if (!net->gsize || !net->gsw || !net->srv_group)
        return nomem(err);
    for (tk_id_t u = 0; u < net->g->n; u++)
        for (int64_t i = net->first[u]; i < net->first[u + 1]; i++) {
            net->srv_group[i] = col[i];
            net->gsize[col[i]] += 1;
            net->gsw[col[i]] = u;
        }
    return TK_OK;
}

/* Colour refinement of the servers of a server-level pattern. */
typedef struct sig {
    int64_t srv;
    int64_t dir; /* 0 out, 1 in */
    int64_t col;
    double w;
} sig_t;

static int sig_cmp(const void *a, const void *b)
{
    const sig_t *x = a, *y = b;
    if (x->srv != y->srv)
        return x->srv < y->srv ? -1 : 1;
    if (x->dir != y->dir)
        return x->dir < y->dir ? -1 : 1;
    if (x->col != y->col)
        return x->col < y->col ? -1 : 1;
    return (x->w > y->w) - (x->w < y->w);
}

typedef struct wl {
    const int64_t *col;
    const sig_t *sig;
    const int64_t *soff;
} wl_t;

static int srv_cmp(const void *a, const void *b, void *ctx)
{
    int64_t i = *(const int64_t *)a, j = *(const int64_t *)b;
    const wl_t *c = ctx;
    if (c->col[i] != c->col[j])
        return c->col[i] < c->col[j] ? -1 : 1;
    int64_t li = c->soff[i + 1] - c->soff[i], lj = c->soff[j + 1] - c->soff[j];
    if (li != lj)
        return li < lj ? -1 : 1;
    for (int64_t q = 0; q < li; q++) {
        const sig_t *x = &c->sig[c->soff[i] + q], *y = &c->sig[c->soff[j] + q];
        if (x->dir != y->dir)
            return x->dir < y->dir ? -1 : 1;
        if (x->col != y->col)
            return x->col < y->col ? -1 : 1;
        if (x->w != y->w)
            return x->w < y->w ? -1 : 1;
    }
    return (i > j) - (i < j);
}

static int same_class(const wl_t *c, int64_t i, int64_t j)
{
    if (c->col[i] != c->col[j])
        return 0;
    int64_t li = c->soff[i + 1] - c->soff[i], lj = c->soff[j + 1] - c->soff[j];
    if (li != lj)
        return 0;
    for (int64_t q = 0; q < li; q++) {
        const sig_t *x = &c->sig[c->soff[i] + q], *y = &c->sig[c->soff[j] + q];
        if (x->dir != y->dir || x->col != y->col || x->w != y->w)
            return 0;
    }
    return 1;
}

static tk_status_t refine(tk_sim_net_t *net, const tk_pattern_t *p, int64_t *col, int64_t *ncol,
                          tk_error_t *err)
{
    int64_t N = net->nsrv, L = p->len;
    sig_t *sig = tk_malloc_array((size_t)(2 * L + 1), sizeof *sig);
    int64_t *soff = tk_calloc_array((size_t)N + 1, sizeof *soff);
    int64_t *ord = tk_malloc_array((size_t)N + 1, sizeof *ord);
    int64_t *nc = tk_malloc_array((size_t)N + 1, sizeof *nc);
    tk_status_t st = TK_OK;

    if (!sig || !soff || !ord || !nc) {
        st = nomem(err);
        goto done;
    }
    for (tk_id_t u = 0; u < net->g->n; u++)
        for (int64_t i = net->first[u]; i < net->first[u + 1]; i++)
            col[i] = u;
    int64_t k = 0;
    for (tk_id_t u = 0; u < net->g->n; u++)
        if (net->first[u + 1] > net->first[u])
            k++;
    /* renumber the initial colours densely */
    {
        int64_t c = 0;
        for (tk_id_t u = 0; u < net->g->n; u++) {
            if (net->first[u + 1] == net->first[u])
                continue;
            for (int64_t i = net->first[u]; i < net->first[u + 1]; i++)
                col[i] = c;
            c++;
        }
    }
    for (int round = 0;; round++) {
        if (round == SIM_WL_ROUNDS) {
            for (int64_t i = 0; i < N; i++)
                col[i] = i;
            k = N;
            break;
        }
        for (int64_t d = 0; d < L; d++) {
            sig[2 * d] = (sig_t){p->d[d].src, 0, col[p->d[d].dst], p->d[d].w};
            sig[2 * d + 1] = (sig_t){p->d[d].dst, 1, col[p->d[d].src], p->d[d].w};
        }
        qsort(sig, (size_t)(2 * L), sizeof *sig, sig_cmp);
        memset(soff, 0, ((size_t)N + 1) * sizeof *soff);
        for (int64_t q = 0; q < 2 * L; q++)
            soff[sig[q].srv + 1]++;
        for (int64_t i = 0; i < N; i++)
            soff[i + 1] += soff[i];
        for (int64_t i = 0; i < N; i++)
            ord[i] = i;
        wl_t c = {col, sig, soff};
        qsort_r(ord, (size_t)N, sizeof *ord, srv_cmp, &c);
        int64_t k2 = 0;
        for (int64_t q = 0; q < N; q++) {
            if (q > 0 && !same_class(&c, ord[q - 1], ord[q]))
                k2++;
            nc[ord[q]] = k2;
        }
        k2 = N > 0 ? k2 + 1 : 0;
        memcpy(col, nc, (size_t)N * sizeof *col);
        if (k2 == k)
            break;
        k = k2;
    }
    *ncol = k;
done:
    free(sig);
    free(soff);
    free(ord);
    free(nc);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Flow classes. */

static int fc_cmp(const void *a, const void *b)
{
    const fclass_t *x = a, *y = b;
    if (x->gs != y->gs)
        return x->gs < y->gs ? -1 : 1;
    if (x->gd != y->gd)
        return x->gd < y->gd ? -1 : 1;
    return (x->w > y->w) - (x->w < y->w);
}

static tk_status_t classes_of_pattern(tk_sim_net_t *net, const tk_pattern_t *p, tk_error_t *err)
{
    fclass_t *fc = tk_malloc_array((size_t)(p->len > 0 ? p->len : 1), sizeof *fc);
    if (!fc)
        return nomem(err);
    for (int64_t d = 0; d < p->len; d++) {
        const tk_demand_t *dm = &p->d[d];
        if (p->level == TK_LEVEL_SERVER) {
            fc[d] = (fclass_t){net->srv_group[dm->src], net->srv_group[dm->dst], dm->w, 1.0};
        } else {
            /* switch s stands for its P(s) servers, each sending w spread
             * over the P(t) servers of t */
            int64_t gs = net->srv_group[net->first[dm->src]];
            int64_t gd = net->srv_group[net->first[dm->dst]];
            double ps = net->gsize[gs], pt = net->gsize[gd];
            fc[d] = (fclass_t){gs, gd, dm->w / pt, ps * pt};
        }
    }
    qsort(fc, (size_t)p->len, sizeof *fc, fc_cmp);
    int64_t k = 0;
    for (int64_t d = 0; d < p->len; d++) {
        if (k > 0 && fc[k - 1].gs == fc[d].gs && fc[k - 1].gd == fc[d].gd && fc[k - 1].w == fc[d].w)
            fc[k - 1].count += fc[d].count;
        else
            fc[k++] = fc[d];
    }
    net->fc = fc;
    net->nfc = k;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Routes of the classes' switch pairs, in parallel, then the system. */

typedef struct pairroute {
    tk_id_t s, t;
    tk_pathset_t ps;
    sim_route_t all; /* all paths (oblivious, coupled)               */
} pairroute_t;

static int pair_cmp(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    if (x[0] != y[0])
        return x[0] < y[0] ? -1 : 1;
    return (x[1] > y[1]) - (x[1] < y[1]);
}

/* One growable entry list of a variable: coefficients c (all members)
 * and one member's (the tk_mm_t's emcoef) as mk times mc, mk a count of
 * server-level flows (mmb_var sums these exactly). */
typedef struct elist {
    int64_t n, cap;
    int64_t *res, *in;
    double *c, *mc, *mk;
} elist_t;

static int el_push(elist_t *e, int64_t res, int64_t in, double c, double mc, double mk)
{
    if (e->n == e->cap) {
        int64_t nc = e->cap ? 2 * e->cap : 64;
        if (tk_resize_array(&e->res, (size_t)nc, sizeof *e->res) ||
            tk_resize_array(&e->in, (size_t)nc, sizeof *e->in) ||
            tk_resize_array(&e->c, (size_t)nc, sizeof *e->c) ||
            tk_resize_array(&e->mc, (size_t)nc, sizeof *e->mc) ||
            tk_resize_array(&e->mk, (size_t)nc, sizeof *e->mk))
            return -1;
        e->cap = nc;
    }
    e->res[e->n] = res;
    e->in[e->n] = in;
    e->c[e->n] = c;
    e->mc[e->n] = mc;
    e->mk[e->n] = mk;
    e->n++;
    return 0;
}

/* The entries of `route` for groups (gs, gd) with factor f (resource use
 * per unit of a member's rate, all members together) and fm per
 * server-level flow, km of which make one member (1 and 1 for a variable
 * of flows: an aggregate's member coefficients are then those of its flows
 * unaggregated, bit for bit; --coupled: a class's share of a server's
 * traffic per destination server, and the destination servers of the
 * class per source server) into e. */
static int route_entries(const tk_sim_net_t *net, const sim_route_t *route, int64_t gs, int64_t gd,
                         double f, double fm, double km, int inject, elist_t *e)
{
    int64_t m = net->g->m, G = net->ngroups;
    int64_t inj = m + gs;
    /* fair arbitration ignores ports: one entry per resource (entries of
     * one arc through different inputs merge in mmb_var) */
    int ports = net->o.arb != TK_ARB_FAIR;
    /* arcs first, then the injection link (m + gs), then the ejection
     * link (m + G + gd): already in resource order, which mmb_var then
     * need not sort */
    for (int64_t j = 0; j < route->n; j++) {
        int64_t in = route->in[j] == SIM_IN_INJECT ? inj : route->in[j];
        if (el_push(e, route->arc[j], ports ? in : -1, f * route->w[j], fm * route->w[j], km))
            return -1;
    }
    if (inject && el_push(e, m + gs, ports ? inj : -1, f, fm, km))
        return -1;
    for (int64_t j = 0; j < route->nej; j++) {
        int64_t in = route->ejin[j] == SIM_IN_INJECT ? inj : route->ejin[j];
        if (el_push(e, m + G + gd, ports ? in : -1, f * route->ejw[j], fm * route->ejw[j], km))
            return -1;
    }
    return 0;
}

typedef struct ent {
    int64_t res, in;
    double c, mc, mk;
    int64_t seq;
} ent_t;

/* Exact sums of member coefficients: mk mc in fixed point, 2^-90 units
 * (mc truncated to them, the count multiplied exactly), so that k flows of
 * coefficient t and one entry of k times t sum to the same bits, in any
 * order.  A term is at most 2^20 (fix_ok: a coefficient is a fraction of
 * a flow's traffic, a demand a fraction of a server's), so a 128-bit sum
 * of nonnegative terms holds any total below 2^37. */
#define SIM_FIX_EXP 90
static int fix_ok(double mc, double mk)
{
    return mc >= 0 && mk >= 0 && mc * mk < 0x1p20 && mk == floor(mk);
}
static __int128 fix_term(double mc, double mk)
{
    return (__int128)mk * (__int128)ldexp(mc, SIM_FIX_EXP);
}

static int ent_cmp(const void *a, const void *b)
{
    const ent_t *x = a, *y = b;
    if (x->res != y->res)
        return x->res < y->res ? -1 : 1;
    if (x->in != y->in)
        return x->in < y->in ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Append variable entries (sorted by resource and input, equal ones
 * merged in order) to the system under construction. */
typedef struct mmb {
    int64_t nvar, capvar;
    double *demand, *mult;
    int64_t *vsrc;
    int64_t *voff;
    int64_t ne, cape;
    int64_t *eres, *ein;
    double *ecoef, *emcoef; /* emcoef only with want_mc (rr, transit) */
    int want_mc;
    ent_t *tmp;
    int64_t captmp;
} mmb_t;

static int mmb_var(mmb_t *b, double demand, double mult, int64_t gs, const elist_t *e)
{
    if (b->nvar + 1 >= b->capvar) {
        int64_t nc = b->capvar ? 2 * b->capvar : 1024;
        double *d = tk_realloc_array(b->demand, (size_t)nc, sizeof *d);
        if (!d)
            return -1;
        b->demand = d;
        double *mu = tk_realloc_array(b->mult, (size_t)nc, sizeof *mu);
        if (!mu)
            return -1;
        b->mult = mu;
        int64_t *vs = tk_realloc_array(b->vsrc, (size_t)nc, sizeof *vs);
        if (!vs)
            return -1;
        b->vsrc = vs;
        int64_t *vo = tk_realloc_array(b->voff, (size_t)nc + 1, sizeof *vo);
        if (!vo)
            return -1;
        b->voff = vo;
        b->capvar = nc;
    }
    if (e->n > b->captmp) {
        ent_t *t = tk_realloc_array(b->tmp, (size_t)e->n, sizeof *t);
        if (!t)
            return -1;
        b->tmp = t;
        b->captmp = e->n;
    }
    int sorted = 1;
    for (int64_t j = 0; j < e->n; j++) {
        b->tmp[j] = (ent_t){e->res[j], e->in[j], e->c[j], e->mc[j], e->mk[j], j};
        if (j > 0 && ent_cmp(&b->tmp[j - 1], &b->tmp[j]) > 0)
            sorted = 0;
    }
    if (!sorted)
        qsort(b->tmp, (size_t)e->n, sizeof *b->tmp, ent_cmp);
    /* Equal (resource, input) merged: c summed in order; a member's
     * coefficient the one term when it is one flow's (mk 1), else the
     * exact sum of the terms. */
    int64_t k = 0;
    for (int64_t j = 0; j < e->n;) {
        int64_t j1 = j + 1;
        while (j1 < e->n && b->tmp[j1].res == b->tmp[j].res && b->tmp[j1].in == b->tmp[j].in)
            j1++;
        ent_t t = b->tmp[j];
        int exact = 1;
        for (int64_t q = j; q < j1; q++)
            exact &= fix_ok(b->tmp[q].mc, b->tmp[q].mk);
        if (j1 > j + 1 || t.mk != 1) {
            __int128 acc = exact ? fix_term(t.mc, t.mk) : 0;
            double sum = t.mc * t.mk; /* (outside fix_ok's range only) */
            for (int64_t q = j + 1; q < j1; q++) {
                t.c += b->tmp[q].c;
                if (exact)
                    acc += fix_term(b->tmp[q].mc, b->tmp[q].mk);
                else
                    sum += b->tmp[q].mc * b->tmp[q].mk;
            }
            t.mc = exact ? ldexp((double)acc, -SIM_FIX_EXP) : sum;
        }
        b->tmp[k++] = t;
        j = j1;
    }
    if (b->ne + k > b->cape) {
        int64_t nc = b->cape ? b->cape : 4096;
        while (nc < b->ne + k)
            nc *= 2;
        int64_t *r = tk_realloc_array(b->eres, (size_t)nc, sizeof *r);
        if (!r)
            return -1;
        b->eres = r;
        int64_t *i = tk_realloc_array(b->ein, (size_t)nc, sizeof *i);
        if (!i)
            return -1;
        b->ein = i;
        double *c = tk_realloc_array(b->ecoef, (size_t)nc, sizeof *c);
        if (!c)
            return -1;
        b->ecoef = c;
        if (b->want_mc) {
            double *mc = tk_realloc_array(b->emcoef, (size_t)nc, sizeof *mc);
            if (!mc)
                return -1;
            b->emcoef = mc;
        }
        b->cape = nc;
    }
    if (b->nvar == 0)
        b->voff[0] = 0;
    for (int64_t j = 0; j < k; j++) {
        b->eres[b->ne] = b->tmp[j].res;
        b->ein[b->ne] = b->tmp[j].in;
        b->ecoef[b->ne] = b->tmp[j].c;
        if (b->want_mc)
            b->emcoef[b->ne] = b->tmp[j].mc;
        b->ne++;
    }
    b->demand[b->nvar] = demand;
    b->mult[b->nvar] = mult;
    b->vsrc[b->nvar] = gs;
    b->nvar++;
    b->voff[b->nvar] = b->ne;
    return 0;
}

void sim_budget_init(sim_budget_t *b, const tk_sim_net_t *net)
{
    uint64_t lim = net->o.mem_limit ? net->o.mem_limit : tk_memory_limit_default();
    uint64_t av = tk_memory_available();
    b->avail = av && (!lim || av < lim);
    b->lim = b->avail ? av : lim;
    b->held = 0;
    b->over = 0;
}

tk_status_t sim_too_big(const char *model, const char *what, int64_t np, const sim_budget_t *b,
                        tk_error_t *err)
{
    char s[32];
    tk_fmt_bytes(b->lim, s, sizeof s);
    return tk_error_set(err, TK_ELIMIT, NULL, 0,
                        "%s: the %s of %" PRId64 " switch pairs would need more than %s%s%s", model,
                        what, np, b->avail ? "the memory available, " : "the memory limit of ", s,
                        b->avail ? "" : " (TOPOKIT_MEMORY_LIMIT)");
}

/* The bytes pair route p holds (its paths only when kept). */
static uint64_t pairroute_bytes(const pairroute_t *p)
{
    const sim_route_t *r = &p->all;
    const tk_pathset_t *ps = &p->ps;
    return sizeof *p + (uint64_t)r->cap * (sizeof *r->arc + sizeof *r->in + sizeof *r->w) +
           (uint64_t)r->capej * (sizeof *r->ejin + sizeof *r->ejw) +
           (uint64_t)r->caph * sizeof *r->hhist +
           (uint64_t)ps->cap_paths *
               (sizeof *ps->off + sizeof *ps->w + sizeof *ps->via + sizeof *ps->phase2) +
           (uint64_t)ps->cap_arcs * sizeof *ps->arc;
}

/* Route every distinct switch pair of the classes (OpenMP over pairs, one
 * route workspace per thread; each pair's result in its own slot, so the
 * outcome does not depend on the thread count). */
static tk_status_t route_pairs(tk_sim_net_t *net, pairroute_t **out, int64_t *npairs,
                               int64_t **cls_pair, tk_error_t *err)
{
    int64_t nfc = net->nfc;
    int64_t *key = tk_malloc_array((size_t)(3 * (nfc > 0 ? nfc : 1)), sizeof *key);
    int64_t *cp = tk_malloc_array((size_t)(nfc > 0 ? nfc : 1), sizeof *cp);
    pairroute_t *pr = NULL;
    tk_status_t st = TK_OK;

    if (!key || !cp) {
        free(key);
        free(cp);
        return nomem(err);
    }
    for (int64_t c = 0; c < nfc; c++) {
        key[3 * c] = net->gsw[net->fc[c].gs];
        key[3 * c + 1] = net->gsw[net->fc[c].gd];
        key[3 * c + 2] = c;
    }
    qsort(key, (size_t)nfc, 3 * sizeof *key, pair_cmp);
    int64_t np = 0;
    for (int64_t c = 0; c < nfc; c++) {
        if (c == 0 || key[3 * c] != key[3 * (c - 1)] || key[3 * c + 1] != key[3 * (c - 1) + 1])
            np++;
        cp[key[3 * c + 2]] = np - 1;
    }
    pr = tk_calloc_array((size_t)(np > 0 ? np : 1), sizeof *pr);
    if (!pr) {
        free(key);
        free(cp);
        return nomem(err);
    }
    np = 0;
    for (int64_t c = 0; c < nfc; c++)
        if (c == 0 || key[3 * c] != key[3 * (c - 1)] || key[3 * c + 1] != key[3 * (c - 1) + 1]) {
            pr[np].s = (tk_id_t)key[3 * c];
            pr[np].t = (tk_id_t)key[3 * c + 1];
            tk_pathset_init(&pr[np].ps);
            sim_route_init(&pr[np].all);
            np++;
        }
    free(key);
    uint64_t maxp = net->o.max_paths ? net->o.max_paths : SIM_MAX_PATHS_DEFAULT;
    int keep_paths = net->o.split == TK_SPLIT_INDEPENDENT && !net->o.coupled;
    int64_t bad = -1;
    tk_error_t e1;
    tk_error_clear(&e1);
    /* the routes' bytes against the memory limit, as in sim_adapt_build:
     * past it the remaining pairs are skipped */
    sim_budget_t bud;
    sim_budget_init(&bud, net);
#pragma omp parallel num_threads(net->o.threads > 0 ? net->o.threads : omp_get_max_threads())
    {
        tk_route_ws_t *ws = NULL;
        sim_route_ws_t rws;
        tk_error_t e;
        tk_error_clear(&e);
        sim_route_ws_init(&rws);
        tk_status_t s = tk_route_ws_new(net->r, &ws, &e);
#pragma omp for schedule(dynamic, 64)
        for (int64_t i = 0; i < np; i++) {
            if (sim_budget_over(&bud))
                continue;
            if (s == TK_OK)
                s = tk_route_paths(net->r, ws, pr[i].s, pr[i].t, maxp, &pr[i].ps, &e);
            if (s == TK_OK)
                s = sim_route_from_paths_ws(net->g, &pr[i].ps, -1, &rws, &pr[i].all, &e);
            /* the paths themselves only for split independent */
            if (s == TK_OK && keep_paths == 0)
                tk_pathset_destroy(&pr[i].ps);
            if (s == TK_OK) {
                /* an eighth more for the allocator, and the system's
                 * copy of the entries to come (one per entry and class
                 * at least) */
                uint64_t b = pairroute_bytes(&pr[i]);
                sim_budget_add(&bud, b + b / 8 + (uint64_t)(pr[i].all.n + pr[i].all.nej) * 24);
            }
            if (s != TK_OK) {
#pragma omp critical
                if (bad < 0 || i < bad) {
                    bad = i;
                    e1 = e;
                    if (e1.code == TK_OK)
                        e1.code = s;
                }
                s = TK_OK; /* go on: the smallest failing pair is reported */
                tk_error_clear(&e);
            }
        }
        tk_route_ws_free(ws);
        sim_route_ws_destroy(&rws);
    }
    if (bud.over || bad >= 0) {
        if (bud.over) {
            st = sim_too_big(tk_router_spec(net->r)->text, "routes", np, &bud, err);
        } else {
            st = e1.code;
            if (err)
                *err = e1;
        }
        for (int64_t i = 0; i < np; i++) {
            tk_pathset_destroy(&pr[i].ps);
            sim_route_destroy(&pr[i].all);
        }
        free(pr);
        free(cp);
        return st;
    }
    *out = pr;
    *npairs = np;
    *cls_pair = cp;
    return TK_OK;
}

static void pairs_free(pairroute_t *pr, int64_t np)
{
    for (int64_t i = 0; i < np; i++) {
        tk_pathset_destroy(&pr[i].ps);
        sim_route_destroy(&pr[i].all);
    }
    free(pr);
}

static tk_status_t hop_stats(tk_sim_net_t *net, const pairroute_t *pr, const int64_t *cp)
{
    int32_t maxh = 0;
    for (int64_t c = 0; c < net->nfc; c++)
        if (pr[cp[c]].all.maxhops > maxh)
            maxh = pr[cp[c]].all.maxhops;
    net->hhist = tk_calloc_array((size_t)maxh + 1, sizeof *net->hhist);
    if (!net->hhist)
        return TK_ENOMEM;
    net->maxhops = maxh;
    for (int64_t c = 0; c < net->nfc; c++) {
        const sim_route_t *r = &pr[cp[c]].all;
        double w = net->fc[c].w * net->fc[c].count;
        net->wsum += w;
        net->hops += w * r->hops;
        for (int k = 0; k < net->g->nclasses; k++)
            net->chops[k] += w * r->chops[k];
        for (int32_t h = 0; h <= r->maxhops; h++)
            net->hhist[h] += w * r->hhist[h];
    }
    return TK_OK;
}

/* sim_internal.h */
tk_status_t sim_net_resources(tk_sim_net_t *net, tk_error_t *err)
{
    tk_mm_t *mm = &net->mm;
    int64_t m = net->g->m, G = net->ngroups;
    mm->nres = m + 2 * G;
    mm->cap = tk_malloc_array((size_t)mm->nres + 1, sizeof *mm->cap);
    mm->copies = tk_malloc_array((size_t)mm->nres + 1, sizeof *mm->copies);
    mm->own_in = tk_malloc_array((size_t)mm->nres + 1, sizeof *mm->own_in);
    mm->nin = m + G;
    mm->in_mult = tk_malloc_array((size_t)mm->nin + 1, sizeof *mm->in_mult);
    mm->in_transit = tk_malloc_array((size_t)mm->nin + 1, sizeof *mm->in_transit);
    net->x = tk_calloc_array((size_t)mm->nvar + 1, sizeof *net->x);
    net->bneck = tk_malloc_array((size_t)mm->nvar + 1, sizeof *net->bneck);
    if (!mm->cap || !mm->copies || !mm->own_in || !mm->in_mult || !mm->in_transit || !net->x ||
        !net->bneck)
        return nomem(err);
    for (int64_t a = 0; a < m; a++) {
        mm->cap[a] = tk_graph_cap(net->g, a);
        mm->copies[a] = 1;
        mm->own_in[a] = -1;
        mm->in_mult[a] = 1;
        mm->in_transit[a] = 1;
    }
    for (int64_t k = 0; k < G; k++) {
        mm->cap[m + k] = mm->cap[m + G + k] = net->gsize[k];
        mm->copies[m + k] = mm->copies[m + G + k] = net->gsize[k];
        mm->own_in[m + k] = m + k;
        mm->own_in[m + G + k] = -1;
        mm->in_mult[m + k] = net->gsize[k];
        mm->in_transit[m + k] = 0;
    }
    return TK_OK;
}

static tk_status_t build_vars(tk_sim_net_t *net, tk_error_t *err)
{
    pairroute_t *pr = NULL;
    int64_t np = 0, *cp = NULL;
    mmb_t b;
    elist_t e;
    sim_route_t one;
    sim_route_ws_t rws;
    sim_route_ws_init(&rws);
    memset(&b, 0, sizeof b);
    b.want_mc = net->o.arb != TK_ARB_FAIR; /* fair has no members' ports */
    memset(&e, 0, sizeof e);
    sim_route_init(&one);
    tk_status_t st = route_pairs(net, &pr, &np, &cp, err);
    if (st != TK_OK)
        return st;
    if (hop_stats(net, pr, cp) != TK_OK) {
        st = nomem(err);
        goto done;
    }
    net->fc_var = tk_malloc_array((size_t)net->nfc + 1, sizeof *net->fc_var);
    if (!net->fc_var)
        goto oom;
    if (net->o.coupled) {
        /* one variable per source group: its classes in fixed proportions */
        int64_t c0 = 0;
        for (int64_t gs = 0; gs < net->ngroups; gs++) {
            int64_t c1 = c0;
            double D = 0, gz = net->gsize[gs];
            __int128 Dm = 0;
            int exact = 1;
            while (c1 < net->nfc && net->fc[c1].gs == gs) {
                D += net->fc[c1].w * net->fc[c1].count;
                exact &= fix_ok(net->fc[c1].w, net->fc[c1].count / gz);
                if (exact)
                    Dm += fix_term(net->fc[c1].w, net->fc[c1].count / gz);
                c1++;
            }
            if (c1 == c0)
                continue;
            /* a member's demand, summed exactly over its server-level
             * flows, so that it does not depend on the grouping */
            double Dmem = exact ? ldexp((double)Dm, -SIM_FIX_EXP) : D / gz;
            e.n = 0;
            if (el_push(&e, net->g->m + gs, net->g->m + gs, gz, 1, 1))
                goto oom;
            for (int64_t c = c0; c < c1; c++) {
                net->fc_var[c] = b.nvar;
                /* a member's traffic x splits over its classes in
                 * proportion to their demands: class c carries
                 * x w count / D of it per member, all members together
                 * gsize times that; one member's coefficient counts
                 * count / gsize flows of share w / Dmem each */
                if (route_entries(net, &pr[cp[c]].all, gs, net->fc[c].gd,
                                  gz * net->fc[c].w * net->fc[c].count / D, net->fc[c].w / Dmem,
                                  net->fc[c].count / gz, 0, &e))
                    goto oom;
            }
            if (mmb_var(&b, Dmem, gz, gs, &e))
                goto oom;
            c0 = c1;
        }
        net->fc_var[net->nfc] = b.nvar;
    } else {
        for (int64_t c = 0; c < net->nfc; c++) {
            const fclass_t *f = &net->fc[c];
            const pairroute_t *p = &pr[cp[c]];
            net->fc_var[c] = b.nvar;
            if (net->o.split == TK_SPLIT_OBLIVIOUS || p->ps.npaths <= 1) {
                /* (p->ps is empty unless split independent: route_pairs
                 * keeps the paths only then) */
                e.n = 0;
                if (route_entries(net, &p->all, f->gs, f->gd, f->count, 1, 1, 1, &e) ||
                    mmb_var(&b, f->w, f->count, f->gs, &e))
                    goto oom;
                continue;
            }
            for (int64_t q = 0; q < p->ps.npaths; q++) {
                if (sim_route_from_paths_ws(net->g, &p->ps, q, &rws, &one, err) != TK_OK)
                    goto oom;
                e.n = 0;
                if (route_entries(net, &one, f->gs, f->gd, f->count, 1, 1, 1, &e) ||
                    mmb_var(&b, f->w * p->ps.w[q], f->count, f->gs, &e))
                    goto oom;
            }
        }
        net->fc_var[net->nfc] = b.nvar;
    }
    {
        tk_mm_t *mm = &net->mm;
        mm->nvar = b.nvar;
        mm->demand = b.demand;
        mm->mult = b.mult;
        mm->voff = b.voff;
        mm->eres = b.eres;
        mm->ein = net->o.arb != TK_ARB_FAIR ? b.ein : NULL;
        if (!mm->ein)
            free(b.ein);
        mm->ecoef = b.ecoef;
        mm->emcoef = b.emcoef;
        net->vsrc = b.vsrc;
        free(b.tmp);
        memset(&b, 0, sizeof b);
        if (!mm->voff) {
            mm->voff = tk_calloc_array(1, sizeof *mm->voff);
            if (!mm->voff)
                goto oom;
        }
        st = sim_net_resources(net, err);
    }
    goto done;
oom:
    st = (err && err->code != TK_OK) ? err->code : nomem(err);
done:
    free(b.demand);
    free(b.mult);
    free(b.vsrc);
    free(b.voff);
    free(b.eres);
    free(b.ein);
    free(b.ecoef);
    free(b.emcoef);
    free(b.tmp);
    free(e.res);
    free(e.in);
    free(e.c);
    free(e.mc);
    free(e.mk);
    sim_route_destroy(&one);
    sim_route_ws_destroy(&rws);
    pairs_free(pr, np);
    free(cp);
    return st;
}

static tk_status_t net_alloc(const tk_router_t *r, const tk_sim_opts_t *opts, tk_sim_net_t **out,
                             tk_error_t *err)
{
    tk_sim_net_t *net = calloc(1, sizeof *net);
    if (!net)
        return nomem(err);
    net->r = r;
    net->g = tk_router_graph(r);
    if (opts)
        net->o = *opts;
    else
        tk_sim_opts_init(&net->o);
    *out = net;
    return TK_OK;
}

tk_status_t tk_sim_net_new(const tk_router_t *r, const tk_pattern_t *pat, const tk_sim_opts_t *opts,
                           tk_sim_net_t **out, tk_error_t *err)
{
    tk_sim_net_t *net = NULL;
    int64_t *col = NULL, k = 0;
    tk_status_t st = net_alloc(r, opts, &net, err);
    if (st != TK_OK)
        return st;
    st = tk_pattern_check(pat, net->g, "pattern", err);
    if (st == TK_OK)
        st = net_servers(net, pat->level, err);
    if (st == TK_OK) {
        col = tk_malloc_array((size_t)(net->nsrv > 0 ? net->nsrv : 1), sizeof *col);
        if (!col)
            st = nomem(err);
    }
    if (st == TK_OK) {
        if (pat->level == TK_LEVEL_SERVER && !net->o.no_aggregate) {
            st = refine(net, pat, col, &k, err);
        } else if (pat->level == TK_LEVEL_SERVER) {
            for (int64_t i = 0; i < net->nsrv; i++)
                col[i] = i;
            k = net->nsrv;
        } else {
            for (tk_id_t u = 0; u < net->g->n; u++)
                for (int64_t i = net->first[u]; i < net->first[u + 1]; i++)
                    col[i] = u;
            k = net->g->n;
        }
    }
    if (st == TK_OK)
        st = groups_from_colours(net, col, k, err);
    free(col);
    if (st == TK_OK)
        st = classes_of_pattern(net, pat, err);
    if (st == TK_OK)
        st = net->o.adapt ? sim_adapt_build(net, err) : build_vars(net, err);
    if (st != TK_OK) {
        tk_sim_net_free(net);
        return st;
    }
    *out = net;
    return TK_OK;
}

tk_status_t tk_sim_net_uniform(const tk_router_t *r, const tk_sim_opts_t *opts, tk_sim_net_t **out,
                               tk_error_t *err)
{
    tk_sim_net_t *net = NULL;
    int64_t *col = NULL, k = 0;
    tk_status_t st = net_alloc(r, opts, &net, err);
    if (st != TK_OK)
        return st;
    st = net_servers(net, TK_LEVEL_SERVER, err);
    if (st == TK_OK && net->nsrv < 2)
        st = tk_error_set(err, TK_EUNSUPPORTED, "pattern", 0,
                          "uniform traffic needs servers on at least two switches");
    if (st == TK_OK) {
        col = tk_malloc_array((size_t)net->nsrv, sizeof *col);
        if (!col)
            st = nomem(err);
    }
    if (st == TK_OK) {
        /* every server sends 1 / (N - p(s)) to every server outside its
         * switch (the uniform of topo-pattern(1)): the servers of a switch
         * are interchangeable */
        for (tk_id_t u = 0; u < net->g->n; u++)
            for (int64_t i = net->first[u]; i < net->first[u + 1]; i++)
                col[i] = net->o.no_aggregate ? i : k;
        if (!net->o.no_aggregate) {
            k = 0;
            for (tk_id_t u = 0; u < net->g->n; u++)
                if (net->first[u + 1] > net->first[u]) {
                    for (int64_t i = net->first[u]; i < net->first[u + 1]; i++)
                        col[i] = k;
                    k++;
                }
        } else {
            k = net->nsrv;
        }
        st = groups_from_colours(net, col, k, err);
    }
    free(col);
    if (st == TK_OK) {
        int64_t G = net->ngroups;
        double cnt = (double)G * (double)G;
        if (cnt > 1e9)
            st = tk_error_set(err, TK_ELIMIT, "pattern", 0,
                              "uniform traffic over %" PRId64 " groups is too large", G);
        if (st == TK_OK) {
            net->fc = tk_malloc_array((size_t)(G * G > 0 ? G * G : 1), sizeof *net->fc);
            if (!net->fc)
                st = nomem(err);
        }
        for (int64_t a = 0; a < G && st == TK_OK; a++) {
            double others =
                (double)net->nsrv - (double)(net->first[net->gsw[a] + 1] - net->first[net->gsw[a]]);
            if (others <= 0)
                continue;
            for (int64_t b = 0; b < G; b++)
                if (net->gsw[b] != net->gsw[a])
                    net->fc[net->nfc++] =
                        (fclass_t){a, b, 1.0 / others, net->gsize[a] * net->gsize[b]};
        }
    }
    if (st == TK_OK)
        st = net->o.adapt ? sim_adapt_build(net, err) : build_vars(net, err);
    if (st != TK_OK) {
        tk_sim_net_free(net);
        return st;
    }
    *out = net;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Solving and summaries. */

double tk_sim_saturation(const tk_sim_net_t *net)
{
    const tk_mm_t *mm = &net->mm;
    double *use = tk_calloc_array((size_t)mm->nres + 1, sizeof *use);
    double sat = 1.0;
    if (!use)
        return NAN;
    for (int64_t v = 0; v < mm->nvar; v++)
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
            use[mm->eres[e]] += mm->ecoef[e] * mm->demand[v];
    for (int64_t r = 0; r < mm->nres; r++)
        if (use[r] > 0 && mm->cap[r] / use[r] < sat)
            sat = mm->cap[r] / use[r];
    free(use);
    return sat;
}

tk_status_t tk_sim_server_rates(const tk_sim_net_t *net, double *rate, tk_error_t *err)
{
    if (!net->solved)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "no solve yet");
    double *g = tk_calloc_array((size_t)(net->ngroups > 0 ? net->ngroups : 1), sizeof *g);
    if (!g)
        return nomem(err);
    for (int64_t v = 0; v < net->mm.nvar; v++)
        g[net->vsrc[v]] += net->x[v] * net->mm.mult[v];
    for (int64_t i = 0; i < net->nsrv; i++) {
        int64_t k = net->srv_group[i];
        rate[i] = g[k] / net->gsize[k];
    }
    free(g);
    return TK_OK;
}

tk_status_t tk_sim_solve(tk_sim_net_t *net, double rho, tk_sim_point_t *out, tk_error_t *err)
{
    tk_status_t st;
    if (!(rho > 0) || !isfinite(rho))
        return tk_error_set(err, TK_EINVAL, "rho", 0, "offered load must be > 0");
    memset(out, 0, sizeof *out);
    if (net->ad)
        st = sim_adapt_solve(net, rho, &out->info, err);
    else
        st = sim_mm_solve_ws(
            &net->mm, net->o.arb, rho, net->o.max_sweeps, net->o.check_another, net->x, net->bneck,
            &out->info, net->o.threads > 0 ? net->o.threads : omp_get_max_threads(), NULL, err);
    if (st != TK_OK)
        return st;
    return sim_net_summarise(net, rho, out, err);
}

tk_status_t tk_sim_epoch(tk_sim_net_t *net, double rho, tk_sim_point_t *out, tk_error_t *err)
{
    if (!net->ad)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "epochs need an adaptive rule");
    if (!(rho > 0) || !isfinite(rho))
        return tk_error_set(err, TK_EINVAL, "rho", 0, "offered load must be > 0");
    memset(out, 0, sizeof *out);
    tk_status_t st = sim_adapt_epoch(net, rho, &out->info, err);
    if (st != TK_OK)
        return st;
    return sim_net_summarise(net, rho, out, err);
}

/* sim_net_summarise: see sim_internal.h. */
tk_status_t sim_net_summarise(tk_sim_net_t *net, double rho, tk_sim_point_t *out, tk_error_t *err)
{
    const tk_mm_t *mm = &net->mm;
    const tk_graph_t *g = net->g;
    tk_status_t st;
    double *rate = NULL, *use = NULL, *rtr = NULL, *vals = NULL;
    long double *offer = NULL; /* demand sums: see the offered mean below */

    net->solved = 1;
    net->rho = rho;
    out->rho = rho;
    rate = tk_malloc_array((size_t)net->nsrv + 1, sizeof *rate);
    offer = tk_calloc_array((size_t)net->ngroups + 1, sizeof *offer);
    use = tk_calloc_array((size_t)mm->nres + 1, sizeof *use);
    rtr = tk_malloc_array((size_t)g->n + 1, sizeof *rtr);
    vals = tk_malloc_array((size_t)net->nsrv + 1, sizeof *vals);
    if (!rate || !offer || !use || !rtr || !vals) {
        st = nomem(err);
        goto done;
    }
    st = tk_sim_server_rates(net, rate, err);
    if (st != TK_OK)
        goto done;
    out->min_served = 1.0;
    for (int64_t v = 0; v < mm->nvar; v++) {
        offer[net->vsrc[v]] += (long double)mm->demand[v] * mm->mult[v];
        if (mm->demand[v] > 0) {
            double f = net->x[v] / (rho * mm->demand[v]);
            if (f < out->min_served)
                out->min_served = f;
        }
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
            use[mm->eres[e]] += mm->ecoef[e] * net->x[v];
    }
    /* per server: the servers that offer traffic */
    /* The offered mean is rho times the mean demand sum, summed in long
     * double and rounded once: rho itself, to within an ulp or two, when
     * every server sends a total of 1 (topo-sim prints it to 15 digits). */
    int64_t na = 0;
    long double offsum = 0;
    for (int64_t i = 0; i < net->nsrv; i++) {
        int64_t k = net->srv_group[i];
        long double of = offer[k] / net->gsize[k];
        if (of > 0) {
            vals[na++] = rate[i];
            offsum += of;
        }
    }
    out->offered = na ? (double)((long double)rho * offsum / (long double)na) : 0;
    tk_fair_stats(vals, na, &out->srv);
    /* per router: mean accepted of its offering servers */
    int64_t nr = 0;
    for (tk_id_t u = 0; u < g->n; u++) {
        double s = 0;
        int64_t c = 0;
        for (int64_t i = net->first[u]; i < net->first[u + 1]; i++) {
            int64_t k = net->srv_group[i];
            if (offer[k] > 0) {
                s += rate[i];
                c++;
            }
        }
        if (c)
            rtr[nr++] = s / (double)c;
    }
    tk_fair_stats(rtr, nr, &out->rtr);
    /* utilisation per link class, then of the injection links */
    out->nclasses = g->nclasses;
    {
        double us[TK_MAX_CLASSES] = {0};
        int64_t cnt[TK_MAX_CLASSES] = {0};
        for (int64_t a = 0; a < g->m; a++) {
            int c = g->cls ? g->cls[a] : 0;
            us[c] += use[a] / mm->cap[a];
            cnt[c]++;
        }
        for (int c = 0; c < g->nclasses; c++)
            out->util[c] = cnt[c] ? us[c] / (double)cnt[c] : 0;
        double ui = 0, ns = 0;
        for (int64_t k = 0; k < net->ngroups; k++) {
            ui += use[g->m + k];
            ns += net->gsize[k];
        }
        out->util[g->nclasses] = ns > 0 ? ui / ns : 0;
    }
done:
    free(rate);
    free(offer);
    free(use);
    free(rtr);
    free(vals);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Introspection for the tool. */

tk_status_t tk_sim_net_hops(const tk_sim_net_t *net, double *mean, double *chops,
                            const double **hist, int32_t *maxhops)
{
    double w = net->wsum > 0 ? net->wsum : 1;
    *mean = net->hops / w;
    for (int c = 0; c < net->g->nclasses; c++)
        chops[c] = net->chops[c] / w;
    *hist = net->hhist;
    *maxhops = net->maxhops;
    return TK_OK;
}

double tk_sim_net_latency(const tk_sim_net_t *net, const double *lat)
{
    double w = net->wsum > 0 ? net->wsum : 1, l = 0;
    for (int c = 0; c < net->g->nclasses; c++)
        l += net->chops[c] / w * lat[c];
    return l;
}

double tk_sim_net_hop_weight(const tk_sim_net_t *net)
{
    return net->wsum;
}

int64_t tk_sim_net_flows(const tk_sim_net_t *net)
{
    double s = 0;
    for (int64_t c = 0; c < net->nfc; c++)
        s += net->fc[c].count;
    return (int64_t)s;
}

tk_status_t tk_sim_flow_rows(const tk_sim_net_t *net, tk_sim_flow_fn fn, void *ctx, tk_error_t *err)
{
    if (!net->solved)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "no solve yet");
    for (int64_t c = 0; c < net->nfc; c++) {
        const fclass_t *f = &net->fc[c];
        tk_sim_flow_t row;
        row.src_group = f->gs;
        row.dst_group = f->gd;
        row.src_switch = net->gsw[f->gs];
        row.dst_switch = net->gsw[f->gd];
        row.src_servers = net->gsize[f->gs];
        row.dst_servers = net->gsize[f->gd];
        row.members = f->count;
        row.demand = net->rho * f->w;
        row.rate = 0;
        row.bneck = -1;
        if (net->o.coupled) {
            int64_t v = net->fc_var[c];
            row.rate = net->x[v] * f->w / net->mm.demand[v];
            row.bneck = net->bneck[v];
        } else {
            for (int64_t v = net->fc_var[c]; v < net->fc_var[c + 1]; v++) {
                row.rate += net->x[v];
                if (row.bneck < 0)
                    row.bneck = net->bneck[v];
            }
        }
        row.bneck_kind = 0;
        if (row.bneck >= net->g->m + net->ngroups) {
            row.bneck_kind = 2;
            row.bneck -= net->g->m + net->ngroups;
        } else if (row.bneck >= net->g->m) {
            row.bneck_kind = 1;
            row.bneck -= net->g->m;
        }
        if (fn(ctx, &row))
            break;
    }
    return TK_OK;
}

int64_t tk_sim_group_first(const tk_sim_net_t *net, int64_t k)
{
    for (int64_t i = net->first[net->gsw[k]]; i < net->first[net->gsw[k] + 1]; i++)
        if (net->srv_group[i] == k)
            return i;
    return -1;
}

int64_t tk_sim_groups(const tk_sim_net_t *net)
{
    return net->ngroups;
}

static int dcmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

tk_status_t tk_sim_fair_curve(tk_sim_net_t *net, double **rho, double **acc, int64_t *npts,
                              tk_error_t *err)
{
    const tk_mm_t *mm = &net->mm;
    double *tau = tk_malloc_array((size_t)mm->nvar + 1, sizeof *tau);
    if (!tau)
        return nomem(err);
    tk_status_t st = tk_mm_fair_levels(mm, tau, NULL, err);
    if (st != TK_OK) {
        free(tau);
        return st;
    }
    /* accepted(rho) = sum_v mult demand min(rho, tau) / active servers:
     * breakpoints at the distinct tau below 1, and 1 */
    double *bp = tk_malloc_array((size_t)mm->nvar + 2, sizeof *bp);
    if (!bp) {
        free(tau);
        return nomem(err);
    }
    int64_t nb = 0;
    bp[nb++] = 0;
    for (int64_t v = 0; v < mm->nvar; v++)
        if (tau[v] < 1 && tau[v] > 0)
            bp[nb++] = tau[v];
    bp[nb++] = 1;
    qsort(bp, (size_t)nb, sizeof *bp, dcmp);
    int64_t k = 0;
    /* levels that differ by rounding only (a few ulps) are one breakpoint */
    for (int64_t i = 0; i < nb; i++)
        if (k == 0 || bp[i] - bp[k - 1] > 4 * DBL_EPSILON * bp[i])
            bp[k++] = bp[i];
    double *a = tk_malloc_array((size_t)k, sizeof *a);
    if (!a) {
        free(tau);
        free(bp);
        return nomem(err);
    }
    /* servers that offer traffic */
    double *offer = tk_calloc_array((size_t)net->ngroups + 1, sizeof *offer);
    if (!offer) {
        free(tau);
        free(bp);
        free(a);
        return nomem(err);
    }
    for (int64_t v = 0; v < mm->nvar; v++)
        offer[net->vsrc[v]] += mm->demand[v] * mm->mult[v];
    double nact = 0;
    for (int64_t g = 0; g < net->ngroups; g++)
        if (offer[g] > 0)
            nact += net->gsize[g];
    for (int64_t i = 0; i < k; i++) {
        double s = 0;
        for (int64_t v = 0; v < mm->nvar; v++)
            s += mm->mult[v] * mm->demand[v] * (tau[v] < bp[i] ? tau[v] : bp[i]);
        a[i] = nact > 0 ? s / nact : 0;
    }
    free(offer);
    free(tau);
    *rho = bp;
    *acc = a;
    *npts = k;
    return TK_OK;
}
