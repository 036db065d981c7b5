/*
 * fair.c - the fair solver of tk_mm_solve (maxmin.c): sim_fair_fill.
 *
 * Exact weighted max-min by progressive filling.  Every free member
 * of v runs at demand[v] t while the level t rises; resource r's use is
 * F_r + S_r t, F_r the use of the frozen variables (sum ecoef x, added as
 * they freeze) and S_r the slope, sum ecoef demand over the free entries.
 * Every resource has an event keyed (level, resource id) at
 * (cap_r - F_r) / S_r; the least fires: its resource saturates and freezes
 * every free variable with an entry on it at rate demand t, where t is the
 * event's level (never below the current one).  A resource with a single
 * entry (an injection or ejection link, a rate bound) keeps its event until
 * its variable freezes, and only the first of a variable's such events can
 * fire (fair_init): one per variable, sorted once.  The resources with
 * several entries are in a 4-ary heap, indexed so that a resource left
 * without a free entry leaves it.  A freeze changes the slope and frozen
 * use of the variable's resources and can only push their events later,
 * so heap keys are lazy: a resource touched by a freeze is marked dirty,
 * and a dirty event at the top is recomputed and put back instead of
 * firing (a stale key is a lower bound, so the stop test at rho may use
 * it).  F_r and S_r are kept by increments for the keys, and recomputed
 * from the entries in entry order before r fires (and when the increments
 * have cancelled most of S_r), so a resource fires at a level that does
 * not depend on the order of the freezes; S_r is exactly 0 when no entry
 * is free (a count says when).  Cost: O(entries + (entries + nres) log
 * nres) time, O(entries + nres) memory, at most 2^31 - 1 resources,
 * variables and entries.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/maxmin_internal.h"
#include "tk_sim.h"

/* ------------------------------------------------------------------------ */
/* fair: progressive filling. */

/* Indices inside the filling: resources, entries and variables. */
typedef int32_t fair_ix_t;

/* An event of the heap: shared resource c (one with several entries, see
 * fair_init) fills at level key.  Events are ordered by (key, c), a total
 * order (a resource has at most one event), so the order in which they pop
 * does not depend on the shape of the heap; shared ids follow resource
 * ids, so it is the order of (key, r). */
typedef struct mm_event {
    double key;
    fair_ix_t c;
} mm_event_t;

static int ev_less(const mm_event_t *a, const mm_event_t *b)
{
    return a->key < b->key || (a->key == b->key && a->c < b->c);
}

/* ev_less without branches (the heap's comparisons are unpredictable). */
static int ev_lt(const mm_event_t *a, const mm_event_t *b)
{
    return (a->key < b->key) | ((a->key == b->key) & (a->c < b->c));
}

/* A variable's single-entry event: its single-entry resource r that fills
 * first, at level key (see fair_init). */
typedef struct fair_one {
    double key;
    fair_ix_t r, v;
} fair_one_t;

/* A shared resource's state in the filling: frozen use F and slope S kept
 * by increments (the heap keys), their exact values recomputed from the
 * entries before the resource fires. */
typedef struct fair_res {
    double F;        /* frozen use                                       */
    double S;        /* slope: sum ecoef demand over the free entries    */
    double Sref;     /* S at the last exact recomputation                */
    fair_ix_t nfree; /* free entries                                     */
    uint8_t dirty;   /* a variable froze since the heap key was set      */
    uint8_t exact;   /* F and S recomputed, no freeze since              */
} fair_res_t;

/* An entry of a shared resource, in resource-major order. */
typedef struct fair_pos {
    fair_ix_t e, v;
} fair_pos_t;

/* A variable's state. */
enum { FAIR_FREE, FAIR_IDLE, FAIR_FROZEN }; /* IDLE: demand 0, never frozen */

/* The heap is 4-ary (children of i: 4i+1 .. 4i+4): half the depth of a
 * binary heap, and a node's children share a cache line. */
#define FAIR_ARITY 4

/* The work arrays of a filling, sized for nres resources, ne entries and
 * nvar variables (a sim_fair_ws_t keeps them between fillings). */
typedef struct fair_mem {
    fair_ix_t *tid, *etid, *rid, *roff;
    fair_pos_t *ep;
    fair_res_t *rs;
    uint8_t *state;
    fair_one_t *one, *otmp;
    mm_event_t *hmem;
    int64_t nres, ne, nvar;
    /* The shape of the last system filled with these arrays (kept only
     * for a sim_fair_ws_t): its sizes, entry offsets and resources, and
     * its number of shared resources.  While the next system has the
     * same shape, tid's counts, etid, rid, roff and ep (the transpose)
     * are still right and fair_init recomputes only the values. */
    fair_ix_t *svoff, *seres;
    int64_t snres, snvar, sne, snsh;
    int shaped;
} fair_mem_t;

static void fair_mem_free(fair_mem_t *m)
{
    free(m->tid);
    free(m->etid);
    free(m->rid);
    free(m->roff);
    free(m->ep);
    free(m->rs);
    free(m->state);
    free(m->one);
    free(m->otmp);
    free(m->hmem);
    free(m->svoff);
    free(m->seres);
    memset(m, 0, sizeof *m);
}

/* m sized for at least nres resources, ne entries and nvar variables:
 * kept when large enough, else freed and allocated again (nothing in the
 * arrays is kept: every filling writes what it reads).  0, or -1 (m
 * empty) when memory ran out. */
static int fair_mem_fit(fair_mem_t *m, int64_t nres, int64_t ne, int64_t nvar)
{
    if (m->tid && nres <= m->nres && ne <= m->ne && nvar <= m->nvar)
        return 0;
    fair_mem_free(m);
    m->tid = tk_malloc_array((size_t)nres, sizeof *m->tid);
    m->etid = tk_malloc_array((size_t)ne, sizeof *m->etid);
    m->rid = tk_malloc_array((size_t)nres, sizeof *m->rid);
    m->roff = tk_malloc_array((size_t)nres + 1, sizeof *m->roff);
    m->ep = tk_malloc_array((size_t)ne, sizeof *m->ep);
    m->rs = tk_malloc_array((size_t)nres, sizeof *m->rs);
    m->state = tk_malloc_array((size_t)nvar, sizeof *m->state);
    m->one = tk_malloc_array((size_t)nres, sizeof *m->one);
    m->otmp = tk_malloc_array((size_t)nres, sizeof *m->otmp);
    m->hmem = tk_malloc_array((size_t)nres + FAIR_ARITY, sizeof *m->hmem);
    if (!m->tid || !m->etid || !m->rid || !m->roff || !m->ep || !m->rs || !m->state || !m->one ||
        !m->otmp || !m->hmem) {
        fair_mem_free(m);
        return -1;
    }
    m->nres = nres;
    m->ne = ne;
    m->nvar = nvar;
    return 0;
}

/* sim_fair_ws_t: see maxmin_internal.h. */
struct sim_fair_ws {
    fair_mem_t m;
    void *buf[SIM_WS_BUFS]; /* sim_ws_buf's, for rr.c */
    size_t bcap[SIM_WS_BUFS];
};

sim_fair_ws_t *sim_fair_ws_new(void)
{
    return tk_calloc_array(1, sizeof(sim_fair_ws_t));
}

void sim_fair_ws_free(sim_fair_ws_t *ws)
{
    if (!ws)
        return;
    fair_mem_free(&ws->m);
    for (int i = 0; i < SIM_WS_BUFS; i++)
        free(ws->buf[i]);
    free(ws);
}

void *sim_ws_buf(sim_fair_ws_t *ws, int i, size_t n)
{
    if (ws->buf[i] && ws->bcap[i] >= n)
        return ws->buf[i];
    free(ws->buf[i]);
    ws->buf[i] = malloc(n > 0 ? n : 1);
    ws->bcap[i] = ws->buf[i] ? n : 0;
    return ws->buf[i];
}

typedef struct fair {
    const tk_mm_t *mm;
    const double *tau; /* nvar: the level a frozen variable froze at      */
    fair_ix_t *tid;    /* nres: a resource's shared id, or -1 (init)      */
    fair_ix_t *hp;     /* nsh: the place of c's event in the heap, or -1
                          (in tid's memory, once init is done with it)    */
    fair_ix_t *etid;   /* entries: the shared id of the entry's resource,
                          -1 for a single-entry resource                  */
    fair_ix_t *rid;    /* nsh: the resource of shared c                   */
    fair_ix_t *roff;   /* nsh + 1: shared c's positions roff[c] ..        */
    fair_pos_t *ep;    /* the entries of shared resources, by position    */
    fair_res_t *rs;    /* nsh                                             */
    uint8_t *state;    /* nvar: FAIR_FREE, FAIR_IDLE or FAIR_FROZEN       */
    fair_one_t *one;   /* none: single-entry events by (key, r)           */
    fair_one_t *otmp;  /* the events by variable, then the sort's scratch */
    mm_event_t *heap;  /* nsh: in the work arrays' hmem, a node's
                          children in one line                            */
    int64_t nsh, hn, none;
} fair_t;

static void fh_set(fair_t *f, int64_t i, mm_event_t ev)
{
    f->heap[i] = ev;
    f->hp[ev.c] = (fair_ix_t)i;
}

static void fh_down(fair_t *f, int64_t i)
{
    mm_event_t *h = f->heap, e = h[i];
    int64_t n = f->hn;
    for (;;) {
        int64_t c = FAIR_ARITY * i + 1, m = c;
        if (c >= n)
            break;
        if (n - c >= 4) { /* a tournament of the four children */
            int64_t a = c + ev_lt(&h[c + 1], &h[c]);
            int64_t b = c + 2 + ev_lt(&h[c + 3], &h[c + 2]);
            m = a + (b - a) * ev_lt(&h[b], &h[a]);
        } else {
            for (int64_t j = c + 1; j < n; j++)
                m = ev_lt(&h[j], &h[m]) ? j : m;
        }
        if (!ev_less(&h[m], &e))
            break;
        fh_set(f, i, h[m]);
        i = m;
    }
    fh_set(f, i, e);
}

static void fh_up(fair_t *f, int64_t i)
{
    mm_event_t *h = f->heap, e = h[i];
    while (i > 0) {
        int64_t p = (i - 1) / FAIR_ARITY;
        if (!ev_less(&e, &h[p]))
            break;
        fh_set(f, i, h[p]);
        i = p;
    }
    fh_set(f, i, e);
}

/* Takes c's event out of the heap. */
static void fh_remove(fair_t *f, int64_t c)
{
    int64_t i = f->hp[c];
    f->hp[c] = -1;
    if (i == --f->hn)
        return;
    f->heap[i] = f->heap[f->hn];
    if (i > 0 && ev_less(&f->heap[i], &f->heap[(i - 1) / FAIR_ARITY]))
        fh_up(f, i);
    else
        fh_down(f, i);
}

/* F and S of c from its entries, in position order: the same sums for the
 * same frozen set, whatever the order of the freezes, never negative.  An
 * entry's slope is ecoef demand while its variable is free, else 0; its
 * frozen use ecoef x once the variable froze at x = demand tau, else 0
 * (the products fair_init and fair_freeze compute). */
static void fair_exact(fair_t *f, int64_t c)
{
    const tk_mm_t *mm = f->mm;
    fair_res_t *R = &f->rs[c];
    double F = 0, S = 0;
    int64_t n = 0;
    for (int64_t p = f->roff[c]; p < f->roff[c + 1]; p++) {
        int64_t e = f->ep[p].e, v = f->ep[p].v;
        double w = f->state[v] == FAIR_FREE ? mm->ecoef[e] * mm->demand[v] : 0;
        F += f->state[v] == FAIR_FROZEN ? mm->ecoef[e] * (mm->demand[v] * f->tau[v]) : 0;
        S += w;
        n += w > 0;
    }
    R->F = F;
    R->S = S;
    R->nfree = (fair_ix_t)n;
    R->Sref = R->S;
    R->exact = 1;
}

/* The level at which c fills (at least level), INFINITY for never.  An
 * incremental slope that has lost most of its value since the last exact
 * one is recomputed first (it may be mostly rounding). */
static double fair_key(fair_t *f, int64_t c, double level)
{
    fair_res_t *R = &f->rs[c];
    if (R->nfree <= 0)
        return INFINITY;
    if (!R->exact && !(R->S > 1e-6 * R->Sref))
        fair_exact(f, c);
    if (!(R->S > 0))
        return INFINITY;
    double k = (f->mm->cap[f->rid[c]] - R->F) / R->S;
    return k > level ? k : level;
}

/* A nonnegative double's bits, which order as the doubles do. */
static uint64_t key_bits(double k)
{
    uint64_t bits;
    memcpy(&bits, &k, sizeof bits);
    return bits;
}

/* Sorts f->one, given in resource order, stably by level: the (level, r)
 * order.  Least significant byte first; a byte that every level shares is
 * skipped (every byte when the levels are all equal, as on links of one
 * capacity).  O(none). */
static void ones_sort(fair_t *f)
{
    int64_t n = f->none, i, cnt[8][256];
    fair_one_t *src = f->one, *dst = f->otmp;
    for (i = 1; i < n && src[i].key == src[0].key; i++)
        ;
    if (i >= n)
        return;
    memset(cnt, 0, sizeof cnt);
    for (i = 0; i < n; i++) {
        uint64_t k = key_bits(src[i].key);
        for (int b = 0; b < 8; b++)
            cnt[b][(k >> (8 * b)) & 255]++;
    }
    uint64_t k0 = key_bits(src[0].key);
    for (int b = 0; b < 8; b++) {
        if (cnt[b][(k0 >> (8 * b)) & 255] == n)
            continue;
        int64_t at = 0;
        for (int d = 0; d < 256; d++) {
            int64_t c = cnt[b][d];
            cnt[b][d] = at;
            at += c;
        }
        for (i = 0; i < n; i++)
            dst[cnt[b][(key_bits(src[i].key) >> (8 * b)) & 255]++] = src[i];
        fair_one_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != f->one)
        memcpy(f->one, src, (size_t)n * sizeof *src);
}

/* Whether mm has the shape m's arrays were last filled with (see
 * fair_mem_t): the same sizes, entry offsets and entry resources. */
static int fair_same_shape(const fair_mem_t *m, const tk_mm_t *mm)
{
    int64_t nvar = mm->nvar, ne = mm->voff[nvar];
    if (!m->shaped || mm->nres != m->snres || nvar != m->snvar || ne != m->sne)
        return 0;
    for (int64_t v = 0; v <= nvar; v++)
        if (mm->voff[v] != m->svoff[v])
            return 0;
    for (int64_t e = 0; e < ne; e++)
        if (mm->eres[e] != m->seres[e])
            return 0;
    return 1;
}

/* Keeps mm's shape in m, with nsh shared resources (nothing kept when
 * memory ran out: the next filling transposes again). */
static void fair_keep_shape(fair_mem_t *m, const tk_mm_t *mm, int64_t nsh)
{
    int64_t nvar = mm->nvar, ne = mm->voff[nvar];
    m->shaped = 0;
    if (!m->svoff)
        m->svoff = tk_malloc_array((size_t)m->nvar + 1, sizeof *m->svoff);
    if (!m->seres)
        m->seres = tk_malloc_array((size_t)m->ne, sizeof *m->seres);
    if (!m->svoff || !m->seres)
        return;
    for (int64_t v = 0; v <= nvar; v++)
        m->svoff[v] = (fair_ix_t)mm->voff[v];
    for (int64_t e = 0; e < ne; e++)
        m->seres[e] = (fair_ix_t)mm->eres[e];
    m->snres = mm->nres;
    m->snvar = nvar;
    m->sne = ne;
    m->snsh = nsh;
    m->shaped = 1;
}

/* Every variable's least single-entry event (fair_key of r alone: F = 0,
 * S = 0 + w, at level 0) in otmp, by variable, its resource marked in tid
 * (-2 - i for event i), and every variable's state.  Resource r has a
 * single entry where tid[r] is 1 (its entry count), or, when shaped (the
 * transpose kept from the last filling), where etid[e] is -1. */
static void fair_ones(fair_t *f, const tk_mm_t *mm, int shaped)
{
    for (int64_t v = 0; v < mm->nvar; v++) {
        double d = mm->demand[v];
        fair_one_t best = {INFINITY, -1, (fair_ix_t)v};
        f->state[v] = d > 0 ? FAIR_FREE : FAIR_IDLE;
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
            int64_t r = mm->eres[e];
            if (shaped ? f->etid[e] >= 0 : f->tid[r] != 1)
                continue;
            double w = mm->ecoef[e] * d, k = w > 0 ? mm->cap[r] / w : INFINITY;
            k = k > 0 ? k : 0;
            if (k < INFINITY && (best.r < 0 || k < best.key || (k == best.key && r < best.r))) {
                best.key = k;
                best.r = (fair_ix_t)r;
            }
        }
        if (best.r >= 0) {
            f->otmp[f->none] = best;
            f->tid[best.r] = (fair_ix_t)(-2 - f->none++);
        }
    }
}

/* The events, and the resource-major transpose of the shared resources'
 * entries with every one exact (F = 0; S summed in position order, as
 * fair_exact does: a resource's entries are placed in entry order).
 *
 * A resource with a single entry, of variable v (an injection or ejection
 * link, a rate bound), keeps its key, cap / (ecoef demand), while v is
 * free, and has no free entry once v froze.  Of v's single-entry resources
 * only the least event, by (key, r), can ever pop: it stays below the
 * others until it pops, and then it fires (it is exact and not dirty) and
 * freezes v.  So that one is v's only single-entry event, the others are
 * never looked at, and since these events never change they are sorted
 * once (f->one) instead of kept in the heap, which holds the resources with
 * several entries (shared, though possibly all of one variable).  The
 * filling takes the least of the heap's top and the next single-entry
 * event of a free variable: the same events pop, in the same order, as
 * from one heap of every resource.  tid[r] holds r's entry count until
 * the shared ids are given (-2 - i for the resource of event i).
 *
 * With keep (a workspace's arrays), the shape is kept, and a system of
 * the same shape as the last one (the adaptive iteration's, while no
 * share crosses zero) reuses the transpose: only the events and the
 * slopes are computed again, the slopes summed in the same order (entry
 * order within a resource), so the bits are those of a fresh transpose. */
static tk_status_t fair_init(fair_t *f, fair_mem_t *m, const tk_mm_t *mm, const double *tau,
                             int keep, tk_error_t *err)
{
    int64_t nres = mm->nres, nvar = mm->nvar, ne = mm->voff[nvar];
    memset(f, 0, sizeof *f);
    f->mm = mm;
    f->tau = tau;
    if (nres > INT32_MAX || nvar > INT32_MAX || ne > INT32_MAX)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "max-min system: %" PRId64 " resources, %" PRId64 " variables, %" PRId64
                            " entries: the fair solver takes at "
                            "most %" PRId32 " of each",
                            nres, nvar, ne, INT32_MAX);
    /* Sized for every resource and entry: only the part in use is written
     * (a fresh page costs when it is first touched, not when allocated). */
    if (fair_mem_fit(m, nres, ne, nvar))
        return sim_mm_nomem(err);
    f->tid = m->tid;
    f->etid = m->etid;
    f->rid = m->rid;
    f->roff = m->roff;
    f->ep = m->ep;
    f->rs = m->rs;
    f->state = m->state;
    f->one = m->one;
    f->otmp = m->otmp;
    /* heap[1 .. 4] (the root's children, and so every node's) on a
     * 64-byte boundary when malloc aligns to 16 */
    f->heap = m->hmem + (FAIR_ARITY - 1 - (uintptr_t)m->hmem / sizeof *m->hmem % FAIR_ARITY);
    int64_t nsh = 0, n1 = 0;
    if (keep && fair_same_shape(m, mm)) {
        /* the transpose of the last filling: events and slopes only */
        nsh = m->snsh;
        memset(f->tid, 0, (size_t)nres * sizeof *f->tid);
        fair_ones(f, mm, 1);
        for (int64_t r = 0; r < nres; r++)
            if (f->tid[r] <= -2)
                f->one[n1++] = f->otmp[-2 - f->tid[r]];
        for (int64_t c = 0; c < nsh; c++)
            f->rs[c] = (fair_res_t){0, 0, 0, 0, 0, 1};
        f->nsh = nsh;
        ones_sort(f);
        for (int64_t v = 0; v < nvar; v++) {
            double d = mm->demand[v];
            for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
                int64_t c = f->etid[e];
                if (c < 0)
                    continue;
                double w = mm->ecoef[e] * d;
                f->rs[c].S += w;
                f->rs[c].nfree += w > 0;
            }
        }
    } else {
        /* Written before it is read: a fresh page faults once, not twice. */
        memset(f->tid, 0, (size_t)nres * sizeof *f->tid);
        for (int64_t e = 0; e < ne; e++)
            f->tid[mm->eres[e]]++;
        fair_ones(f, mm, 0);
        /* The single-entry events in resource order, then sorted by level;
         * shared ids in resource order, roff[c + 1] where c's next entry
         * goes (after the placing roff[c] is c's first). */
        int64_t np = 0;
        f->roff[0] = 0;
        for (int64_t r = 0; r < nres; r++) {
            int64_t k = f->tid[r];
            if (k <= -2)
                f->one[n1++] = f->otmp[-2 - k];
            if (k <= 1) {
                f->tid[r] = -1;
                continue;
            }
            f->rs[nsh] = (fair_res_t){0, 0, 0, 0, 0, 1};
            f->rid[nsh] = (fair_ix_t)r;
            f->roff[nsh + 1] = (fair_ix_t)np;
            np += k;
            f->tid[r] = (fair_ix_t)nsh++;
        }
        f->nsh = nsh;
        ones_sort(f);
        for (int64_t v = 0; v < nvar; v++) {
            double d = mm->demand[v];
            for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
                int64_t c = f->etid[e] = f->tid[mm->eres[e]];
                if (c < 0)
                    continue;
                double w = mm->ecoef[e] * d;
                f->ep[f->roff[c + 1]++] = (fair_pos_t){(fair_ix_t)e, (fair_ix_t)v};
                f->rs[c].S += w;
                f->rs[c].nfree += w > 0;
            }
        }
        if (keep)
            fair_keep_shape(m, mm, nsh);
    }
    f->hp = f->tid;
    for (int64_t c = 0; c < nsh; c++) {
        f->hp[c] = -1;
        f->rs[c].Sref = f->rs[c].S;
        double k = fair_key(f, c, 0);
        if (k < INFINITY)
            fh_set(f, f->hn++, (mm_event_t){k, (fair_ix_t)c});
    }
    for (int64_t i = f->hn > 1 ? (f->hn - 2) / FAIR_ARITY : -1; i >= 0; i--)
        fh_down(f, i);
    return TK_OK;
}

/* Freezes v at level t, limited by resource r (-1: none).  A shared
 * resource left without a free entry leaves the heap. */
static void fair_freeze(fair_t *f, int64_t v, double t, int64_t r, double *tau, int64_t *bneck)
{
    const tk_mm_t *mm = f->mm;
    double d = mm->demand[v], x = d * t;
    f->state[v] = FAIR_FROZEN;
    tau[v] = t;
    if (bneck)
        bneck[v] = r;
    for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++) {
        int64_t c = f->etid[e];
        if (c < 0)
            continue;
        fair_res_t *R = &f->rs[c];
        double w = mm->ecoef[e] * d, u = mm->ecoef[e] * x;
        if (w > 0) {
            if (--R->nfree > 0) {
                R->S -= w;
            } else {
                R->S = 0;
                if (f->hp[c] >= 0)
                    fh_remove(f, c);
            }
        }
        R->F += u;
        R->dirty = 1;
        R->exact = 0;
    }
}

/* sim_fair_fill: see maxmin_internal.h. */
tk_status_t sim_fair_fill(const tk_mm_t *mm, double stop, double *tau, int64_t *bneck,
                          int64_t *events, sim_fair_ws_t *ws, tk_error_t *err)
{
    fair_t f;
    fair_mem_t own = {0}, *m = ws ? &ws->m : &own;
    tk_status_t st = fair_init(&f, m, mm, tau, ws != NULL, err);
    if (st != TK_OK)
        return st;
    for (int64_t v = 0; v < mm->nvar; v++) {
        tau[v] = INFINITY;
        if (bneck)
            bneck[v] = -1;
    }
    int64_t nev = 0, next = 0;
    double level = 0;
    /* Every event in the heap is of a resource with a free entry. */
    for (;;) {
        while (next < f.none && f.state[f.one[next].v] != FAIR_FREE)
            next++;
        if (next < f.none) {
            const fair_one_t *o = &f.one[next];
            if (f.hn == 0 || o->key < f.heap[0].key ||
                (o->key == f.heap[0].key && o->r < f.rid[f.heap[0].c])) {
                /* a single-entry event: never dirty, always exact */
                if (o->key >= stop)
                    break;
                if (o->key > level)
                    level = o->key;
                nev++;
                next++;
                fair_freeze(&f, o->v, level, o->r, tau, bneck);
                continue;
            }
        } else if (f.hn == 0) {
            break;
        }
        mm_event_t top = f.heap[0];
        int64_t c = top.c;
        fair_res_t *R = &f.rs[c];
        if (top.key >= stop)
            break; /* keys are lower bounds: nothing fires below stop */
        if (R->dirty || !R->exact) {
            /* A stale key (dirty) or one from incremental sums: recompute,
             * exactly before firing, and put it back. */
            if (!R->dirty)
                fair_exact(&f, c);
            R->dirty = 0;
            double k = fair_key(&f, c, level);
            if (R->exact && k <= top.key) {
                top.key = k > level ? k : level; /* fire now */
            } else {
                if (k < INFINITY) {
                    f.heap[0].key = k;
                    fh_down(&f, 0);
                } else {
                    fh_remove(&f, c);
                }
                continue;
            }
        }
        fh_remove(&f, c);
        if (top.key > level)
            level = top.key;
        nev++;
        for (int64_t p = f.roff[c]; p < f.roff[c + 1]; p++)
            if (f.state[f.ep[p].v] == FAIR_FREE)
                fair_freeze(&f, f.ep[p].v, level, f.rid[c], tau, bneck);
    }
    if (!ws)
        fair_mem_free(&own);
    *events = nev;
    return TK_OK;
}
