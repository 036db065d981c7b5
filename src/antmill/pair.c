/*
 * pair.c - delta = 2 on undirected graphs by a constrained 2-factor
 * (issue 28).  See antmill_internal.h.
 *
 * For delta = 2 the condition on a Hamiltonian cycle is local: at every
 * switch v its two cycle neighbours a, b must be at distance 2 with v as
 * their only common neighbour (the window a, v, b is admissible).  So look
 * for a set of links in which every switch has exactly two, and those two
 * admissible: a spanning 2-regular subgraph (a 2-factor) all of whose
 * windows are admissible; one cycle is the cycle sought.
 *
 * Phase 1, a WalkSAT-like local search on the set S of selected links: a
 * switch v with s links in S is violated by s + 2 - 2 m, where m is 2 when
 * two of its links form an admissible pair, 1 when one of them is in some
 * admissible pair at v, else 0 (so 0 exactly when its links are an
 * admissible pair).  A step takes a violated switch at random and flips one
 * of its links in or out of S: the flip that lowers the total violation of
 * its two ends most, ties at random, a link flipped in the last TABU steps
 * only when it reaches a new best total, and in a NOISE share of steps a
 * random link.  Phase 2, merging: while the 2-factor has several cycles,
 * a kick adds a link between two cycles and phase 1 repairs the violation
 * (it must drop two links, one at each end, which merges the cycles when
 * the repair stays local); the repaired 2-factor is kept when it has no
 * more cycles than before, else the one before the kick comes back.
 * Randomness: tk_rng_new(seed, 2000 + attempt); a restart after a number
 * of steps that doubles; the budget is only checked, so a search that
 * completes is the same on every machine.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antmill_internal.h"

#define TABU 3
#define NOISE_PER_1024 50

#define REPAIR_STEPS 3000

typedef struct pf {
    const tk_graph_t *g;
    const am_utable_t *ut;
    tk_id_t n;
    uint8_t *sel;  /* per arc: the link is in S (both arcs alike) */
    uint8_t *hasp; /* per arc v -> x: x is in some admissible pair at v */
    tk_id_t *sl;   /* selected neighbours of v at off[v] .. off[v] + ssz[v] - 1 */
    int64_t *spos; /* per arc: its place in that list */
    int32_t *ssz;
    int32_t *viol;  /* per switch */
    int64_t total;  /* sum of viol */
    tk_id_t *vlist; /* violated switches */
    int64_t *vpos;
    int64_t nviol;
    uint64_t *flipped; /* per arc: step of its last flip + 1 */
    uint8_t *saved;
    int32_t *cyc;
    uint32_t *mark; /* stamps for augment() */
    uint32_t stamp;
    tk_id_t *keep, *via, *from, *queue;
    tk_rng_t *rng;
} pf_t;

/* The violation of v (see the top). */
static int32_t violation(const pf_t *p, tk_id_t v)
{
    const tk_graph_t *g = p->g;
    int32_t s = p->ssz[v], m = 0;
    const tk_id_t *l = p->sl + g->off[v];
    for (int32_t i = 0; i < s && m < 2; i++) {
        for (int32_t j = i + 1; j < s; j++)
            if (am_utable_get(p->ut, l[i], l[j])) {
                m = 2;
                break;
            }
    }
    if (m == 0)
        for (int32_t i = 0; i < s && !m; i++) {
            int64_t e = g->off[v];
            while (g->head[e] != l[i])
                e++;
            m = p->hasp[e];
        }
    return s + 2 - 2 * m;
}

static void update(pf_t *p, tk_id_t v)
{
    int32_t nv = violation(p, v);
    p->total += nv - p->viol[v];
    if ((nv > 0) != (p->viol[v] > 0)) {
        if (nv > 0) {
            p->vpos[v] = p->nviol;
            p->vlist[p->nviol++] = v;
        } else {
            int64_t q = p->vpos[v];
            tk_id_t last = p->vlist[--p->nviol];
            p->vlist[q] = last;
            p->vpos[last] = q;
        }
    }
    p->viol[v] = nv;
}

/* Toggle arc e (v -> u) and its reverse in S, without the violations. */
static void toggle(pf_t *p, tk_id_t v, int64_t e)
{
    const tk_graph_t *g = p->g;
    int64_t r = g->rev[e];
    tk_id_t u = g->head[e];
    if (!p->sel[e]) {
        p->sel[e] = p->sel[r] = 1;
        p->spos[e] = g->off[v] + p->ssz[v];
        p->sl[p->spos[e]] = u;
        p->ssz[v]++;
        p->spos[r] = g->off[u] + p->ssz[u];
        p->sl[p->spos[r]] = v;
        p->ssz[u]++;
    } else {
        p->sel[e] = p->sel[r] = 0;
        /* move the last entry of each list into the hole */
        int64_t hole = p->spos[e], lastp = g->off[v] + --p->ssz[v];
        tk_id_t w = p->sl[lastp];
        p->sl[hole] = w;
        if (hole != lastp) {
            int64_t a = g->off[v];
            while (g->head[a] != w || !p->sel[a])
                a++;
            p->spos[a] = hole;
        }
        hole = p->spos[r];
        lastp = g->off[u] + --p->ssz[u];
        w = p->sl[lastp];
        p->sl[hole] = w;
        if (hole != lastp) {
            int64_t a = g->off[u];
            while (g->head[a] != w || !p->sel[a])
                a++;
            p->spos[a] = hole;
        }
    }
}

static void flip(pf_t *p, tk_id_t v, int64_t e)
{
    toggle(p, v, e);
    update(p, v);
    update(p, p->g->head[e]);
}

/* Change of the total violation by flipping arc e of v. */
static int32_t flip_delta(pf_t *p, tk_id_t v, int64_t e)
{
    tk_id_t u = p->g->head[e];
    int32_t before = p->viol[v] + p->viol[u];
    toggle(p, v, e);
    int32_t after = violation(p, v) + violation(p, u);
    toggle(p, v, e);
    return after - before;
}

/* The selected link of v other than `not` (v has two), or -1. */
static tk_id_t other(const pf_t *p, tk_id_t v, tk_id_t not )
{
    const tk_id_t *l = p->sl + p->g->off[v];
    for (int32_t i = 0; i < p->ssz[v]; i++)
        if (l[i] != not )
            return l[i];
    return -1;
}

static int64_t arc(const tk_graph_t *g, tk_id_t v, tk_id_t u)
{
    for (int64_t e = g->off[v]; e < g->off[v + 1]; e++)
        if (g->head[e] == u)
            return e;
    return -1;
}

/* An alternating path from s, which has one link (to rs), to another switch
 * with one link: add s - x1, drop x1 - w1, add w1 - x2, drop x2 - w2, ...,
 * add w_k - t, every switch's new pair admissible (at s: (rs, x1); at x_i:
 * (w_{i-1}, the kept link); at w_i: (its kept link, x_{i+1}); at t: (rt,
 * w_k)), each switch once, found breadth first with neighbours in random
 * order.  Applied when found: 1, else 0. */
static int augment(pf_t *p, tk_id_t s, tk_id_t ban)
{
    const tk_graph_t *g = p->g;
    tk_id_t n = p->n;
    int64_t qh = 0, qt = 0;
    tk_id_t t = -1, wt = -1;

    if (p->ssz[s] != 1)
        return 0;
    if (++p->stamp == 0) {
        memset(p->mark, 0, (size_t)n * sizeof *p->mark);
        p->stamp = 1;
    }
    p->mark[s] = p->stamp;
    p->keep[s] = p->sl[g->off[s]];
    p->queue[qt++] = s;
    while (qh < qt && t < 0) {
        tk_id_t w = p->queue[qh++], r = p->keep[w];
        int64_t deg = g->off[w + 1] - g->off[w];
        int64_t off = (int64_t)tk_rng_below(p->rng, (uint64_t)deg);
        for (int64_t q = 0; q < deg && t < 0; q++) {
            int64_t e = g->off[w] + (off + q) % deg;
            tk_id_t x = g->head[e];
            if (x == r || x == w || (w == s && x == ban) || p->sel[e] || p->mark[x] == p->stamp ||
                !am_utable_get(p->ut, r, x))
                continue;
            if (p->ssz[x] == 1) {
                if (am_utable_get(p->ut, p->sl[g->off[x]], w)) {
                    t = x;
                    wt = w;
                }
                continue;
            }
            if (p->ssz[x] != 2)
                continue;
            for (int side = 0; side < 2; side++) {
                tk_id_t drop = p->sl[g->off[x] + side], kept = p->sl[g->off[x] + 1 - side];
                if (p->mark[drop] == p->stamp || p->ssz[drop] != 2 ||
                    !am_utable_get(p->ut, w, kept))
                    continue;
                tk_id_t dk = other(p, drop, x);
                if (dk < 0)
                    continue;
                p->mark[x] = p->stamp;
                p->mark[drop] = p->stamp;
                p->keep[drop] = dk;
                p->via[drop] = x;
                p->from[x] = w;
                p->queue[qt++] = drop;
                break;
            }
        }
    }
    if (t < 0)
        return 0;
    /* apply, from the end back to s */
    flip(p, wt, arc(g, wt, t));
    for (tk_id_t w = wt; w != s;) {
        tk_id_t x = p->via[w], prev = p->from[x];
        flip(p, x, arc(g, x, w));
        flip(p, prev, arc(g, prev, x));
        w = prev;
    }
    return 1;
}

/* Phase 1 until the total violation is 0 (1), `limit` steps (0) or the
 * budget (-1); *work counts steps. */
static int repair(pf_t *p, uint64_t limit, const am_budget_t *bud, uint64_t *work)
{
    const tk_graph_t *g = p->g;
    int64_t best = p->total;
    uint64_t tabu = (uint64_t)TABU;
    for (uint64_t s = 0; p->total > 0; s++) {
        if (s >= limit)
            return 0;
        ++*work;
        if ((*work & 1023) == 0 && am_budget_over(bud, *work))
            return -1;
        tk_id_t v = p->vlist[tk_rng_below(p->rng, (uint64_t)p->nviol)];
        if (p->ssz[v] == 1 && p->viol[v] == 1 && augment(p, v, -1))
            continue;
        int64_t deg = g->off[v + 1] - g->off[v];
        int64_t pick = -1;
        if (tk_rng_below(p->rng, 1024) < NOISE_PER_1024) {
            pick = g->off[v] + (int64_t)tk_rng_below(p->rng, (uint64_t)deg);
        } else {
            int32_t bd = INT32_MAX;
            uint64_t ties = 0;
            for (int64_t e = g->off[v]; e < g->off[v + 1]; e++) {
                if (g->head[e] == v || (e > g->off[v] && g->head[e - 1] == g->head[e]))
                    continue;
                int32_t d = flip_delta(p, v, e);
                if (p->flipped[e] && (p->flipped[e] > *work || p->flipped[e] + tabu > *work))
                    continue;
                if (d < bd) {
                    bd = d;
                    pick = e;
                    ties = 1;
                } else if (d == bd && tk_rng_below(p->rng, ++ties) == 0) {
                    pick = e;
                }
            }
        }
        if (pick < 0 || g->head[pick] == v)
            continue;
        flip(p, v, pick);
        p->flipped[pick] = p->flipped[g->rev[pick]] = *work + 1;
        if (p->total < best)
            best = p->total;
    }
    return 1;
}

/* Cycles of the 2-factor (every ssz is 2): ids in cyc, the number. */
static int64_t count_cycles(pf_t *p)
{
    const tk_graph_t *g = p->g;
    int64_t k = 0;
    for (tk_id_t v = 0; v < p->n; v++)
        p->cyc[v] = -1;
    for (tk_id_t s = 0; s < p->n; s++) {
        if (p->cyc[s] >= 0)
            continue;
        tk_id_t prev = s, v = p->sl[g->off[s]];
        p->cyc[s] = (int32_t)k;
        while (v != s) {
            const tk_id_t *l = p->sl + g->off[v];
            tk_id_t nx = l[0] == prev ? l[1] : l[0];
            p->cyc[v] = (int32_t)k;
            prev = v;
            v = nx;
        }
        k++;
    }
    return k;
}

/* Set S from a saved selection and recount everything. */
static void load(pf_t *p, const uint8_t *sel)
{
    const tk_graph_t *g = p->g;
    for (tk_id_t v = 0; v < p->n; v++) {
        p->ssz[v] = 0;
        p->viol[v] = 0;
    }
    p->nviol = 0;
    p->total = 0;
    memset(p->sel, 0, (size_t)g->m);
    for (tk_id_t v = 0; v < p->n; v++)
        for (int64_t e = g->off[v]; e < g->off[v + 1]; e++)
            if (sel[e] && !p->sel[e])
                toggle(p, v, e);
    for (tk_id_t v = 0; v < p->n; v++)
        update(p, v);
}

static void free_pf(pf_t *p)
{
    free(p->sel);
    free(p->hasp);
    free(p->sl);
    free(p->spos);
    free(p->ssz);
    free(p->viol);
    free(p->vlist);
    free(p->vpos);
    free(p->flipped);
    free(p->saved);
    free(p->cyc);
    free(p->mark);
    free(p->keep);
    free(p->via);
    free(p->from);
    free(p->queue);
    tk_rng_free(p->rng);
}

tk_status_t am_pair_search(const tk_graph_t *g, const am_utable_t *ut, const am_budget_t *bud,
                           uint64_t seed, tk_id_t *cycle, uint64_t *moves, tk_error_t *err)
{
    pf_t p;
    tk_id_t n = g->n;
    size_t m = (size_t)g->m;
    tk_status_t st = TK_OK;
    uint64_t work = 0;

    memset(&p, 0, sizeof p);
    if (ut->delta != 2 || g->directed || !g->rev)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "pair search: undirected, delta 2 only");
    p.g = g;
    p.ut = ut;
    p.n = n;
    p.sel = tk_calloc_array(m ? m : 1, 1);
    p.saved = tk_calloc_array(m ? m : 1, 1);
    p.hasp = tk_calloc_array(m ? m : 1, 1);
    p.sl = tk_malloc_array(m ? m : 1, sizeof *p.sl);
    p.spos = tk_malloc_array(m ? m : 1, sizeof *p.spos);
    p.flipped = tk_calloc_array(m ? m : 1, sizeof *p.flipped);
    p.ssz = tk_calloc_array((size_t)n, sizeof *p.ssz);
    p.viol = tk_calloc_array((size_t)n, sizeof *p.viol);
    p.vlist = tk_malloc_array((size_t)n, sizeof *p.vlist);
    p.vpos = tk_malloc_array((size_t)n, sizeof *p.vpos);
    p.cyc = tk_malloc_array((size_t)n, sizeof *p.cyc);
    p.mark = tk_calloc_array((size_t)n, sizeof *p.mark);
    p.keep = tk_malloc_array((size_t)n, sizeof *p.keep);
    p.via = tk_malloc_array((size_t)n, sizeof *p.via);
    p.from = tk_malloc_array((size_t)n, sizeof *p.from);
    p.queue = tk_malloc_array((size_t)n, sizeof *p.queue);
    if (!p.sel || !p.saved || !p.hasp || !p.sl || !p.spos || !p.flipped || !p.ssz || !p.viol ||
        !p.vlist || !p.vpos || !p.cyc || !p.mark || !p.keep || !p.via || !p.from || !p.queue) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the pair search");
        goto done;
    }
    for (tk_id_t v = 0; v < n; v++)
        for (int64_t i = g->off[v]; i < g->off[v + 1]; i++)
            for (int64_t j = i + 1; j < g->off[v + 1]; j++)
                if (am_utable_get(ut, g->head[i], g->head[j]))
                    p.hasp[i] = p.hasp[j] = 1;
    uint64_t limit = 100 * (uint64_t)n + 50000;
    for (uint64_t attempt = 0;; attempt++) {
        uint64_t start = work;
        if (am_budget_over(bud, work))
            goto budget;
        tk_rng_free(p.rng);
        p.rng = NULL;
        if (tk_rng_new(&p.rng, seed, 2000 + attempt, err)) {
            st = err->code;
            goto done;
        }
        memset(p.saved, 0, m);
        memset(p.flipped, 0, m * sizeof *p.flipped);
        load(&p, p.saved);
        int r = repair(&p, limit, bud, &work);
        if (r < 0)
            goto budget;
        if (r == 0)
            goto next;
        /* phase 2 */
        int64_t k = count_cycles(&p);
        while (k > 1) {
            if (work - start > 4 * limit)
                goto next;
            if (am_budget_over(bud, work))
                goto budget;
            memcpy(p.saved, p.sel, m);
            tk_id_t a = (tk_id_t)tk_rng_below(p.rng, (uint64_t)n);
            work++;
            if (tk_rng_below(p.rng, 2)) {
                /* kick: drop a random link a - b; an alternating path from
                 * a back to b through other cycles splices them in */
                tk_id_t b = p.sl[g->off[a] + (int64_t)tk_rng_below(p.rng, 2)];
                flip(&p, a, arc(g, a, b));
                r = augment(&p, a, b);
                if (r == 0) {
                    load(&p, p.saved);
                    continue;
                }
                work += 10;
            } else {
                /* kick: add a link a - b to another cycle; the repair must
                 * drop a link at each end, the kicked one kept */
                int64_t deg = g->off[a + 1] - g->off[a];
                int64_t off = (int64_t)tk_rng_below(p.rng, (uint64_t)deg), kick = -1;
                for (int64_t t = 0; t < deg && kick < 0; t++) {
                    int64_t e = g->off[a] + (off + t) % deg;
                    if (p.cyc[g->head[e]] != p.cyc[a] && !p.sel[e])
                        kick = e;
                }
                if (kick < 0)
                    continue;
                flip(&p, a, kick);
                p.flipped[kick] = p.flipped[g->rev[kick]] = work + REPAIR_STEPS;
                r = repair(&p, REPAIR_STEPS, bud, &work);
                p.flipped[kick] = p.flipped[g->rev[kick]] = 0;
                if (r < 0)
                    goto budget;
            }
            int64_t k2 = r ? count_cycles(&p) : k + 1;
            if (k2 <= k) {
                k = k2;
            } else {
                load(&p, p.saved);
                count_cycles(&p);
            }
        }
        /* one cycle */
        {
            tk_id_t prev = -1, v = 0;
            for (tk_id_t i = 0; i < n; i++) {
                const tk_id_t *l = p.sl + g->off[v];
                cycle[i] = v;
                tk_id_t nx = l[0] == prev ? l[1] : l[0];
                prev = v;
                v = nx;
            }
        }
        goto done;
    next:
        if (limit < ((uint64_t)1 << 40))
            limit *= 2;
    }
budget:
    st = tk_error_set(err, TK_ELIMIT, NULL, 0, "no cycle with delta=2 found within the budget");
done:
    if (moves)
        *moves = work;
    free_pf(&p);
    return st;
}
