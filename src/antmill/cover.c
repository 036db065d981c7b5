/*
 * cover.c - Hamiltonian cycles whose windows are admissible, by local
 * search on cycle covers (issue 28).  See antmill_internal.h.
 *
 * The condition on a cycle is local: the window x_i .. x_{i+delta} is
 * admissible iff D(x_i, x_{i+delta}) = delta with a unique shortest path
 * (then the window is that path).  For delta = 2 it says that every
 * switch's two cycle neighbours are at distance 2 with that switch as their
 * only common neighbour.  So search the successor function succ of a cycle
 * cover (a permutation whose arcs are links: every switch on one directed
 * cycle) and minimise
 *
 *     cost = (windows succ^0(v) .. succ^delta(v) not admissible) + (cycles - 1),
 *
 * which is 0 exactly on the Hamiltonian cycles sought.  Moves exchange
 * successors: the 2-exchange a -> succ(b), b -> succ(a) (it merges two
 * cycles or splits one) and the 3-exchange a -> succ(b), b -> succ(c),
 * c -> succ(a) (it merges three cycles, moves a segment within a cycle,
 * or trades a split for a merge).  Every new arc must be a link, so the
 * moves are generated from a focus switch a (on a window that is not
 * admissible, or any switch while the cover has several cycles): x a
 * neighbour of a, b = pred(x), and for the 3-exchange y a neighbour of b,
 * c = pred(y), with the closing arc b -> succ(a) or c -> succ(a) a link.
 * Each step takes the best move that is not tabu (a switch whose successor
 * changed in the last TABU steps is tabu unless the move reaches a new best
 * cost), ties and a NOISE share of steps at random: tabu search with
 * random walk.  Only the windows through the changed arcs are recounted
 * (O(delta^2) per move).  An attempt starts from a random cycle cover (a
 * perfect matching of the bipartite double cover by augmenting paths) and
 * restarts after a number of steps without a new best, doubling each time.
 * All randomness comes from tk_rng_new(seed, 1000 + attempt); the budget is
 * only checked, so a search that completes is the same on every machine.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "antmill_internal.h"

#define TABU 7
#define NOISE_PER_1024 40 /* random-walk steps, per 1024 */
#define MAX_CAND 4096

typedef struct move {
    int k;         /* 2 or 3 switches */
    tk_id_t f[3];  /* switches whose successor changes */
    tk_id_t to[3]; /* their new successors */
} move_t;

typedef struct cover {
    const tk_graph_t *g;
    const am_utable_t *ut;
    int32_t delta;
    tk_id_t n;
    tk_id_t *succ, *pred;
    int32_t *cyc;  /* cycle id */
    int64_t *idx;  /* position along the cycle from where its id was set */
    int64_t *clen; /* length of cycle id */
    int32_t *freeid;
    int64_t nfree;
    int64_t ncyc;
    uint8_t *bad; /* the window from v is not admissible */
    tk_id_t *badlist;
    int64_t *badpos;
    int64_t nbad;
    uint64_t *tabu; /* step at which v's successor last changed, + 1 */
    uint32_t *mark; /* stamps for the affected-window sets */
    uint32_t stamp;
    tk_rng_t *rng;
    move_t *cand;
    int64_t ncand;
    int64_t wbad; /* weight of a window that is not admissible */
} cover_t;

static inline tk_id_t mnext(const cover_t *c, const move_t *m, tk_id_t v)
{
    if (m)
        for (int i = 0; i < m->k; i++)
            if (v == m->f[i])
                return m->to[i];
    return c->succ[v];
}

static inline tk_id_t mprev(const cover_t *c, const move_t *m, tk_id_t v)
{
    if (m)
        for (int i = 0; i < m->k; i++)
            if (v == m->to[i])
                return m->f[i];
    return c->pred[v];
}

/* Is the window from v (under move m, or the current cover) not admissible? */
static int window_bad(const cover_t *c, const move_t *m, tk_id_t v)
{
    tk_id_t x = v;
    for (int32_t j = 0; j < c->delta; j++)
        x = mnext(c, m, x);
    return !am_utable_get(c->ut, v, x);
}

static void set_bad(cover_t *c, tk_id_t v, int b)
{
    if (c->bad[v] == b)
        return;
    c->bad[v] = (uint8_t)b;
    if (b) {
        c->badpos[v] = c->nbad;
        c->badlist[c->nbad++] = v;
    } else {
        int64_t p = c->badpos[v];
        tk_id_t last = c->badlist[--c->nbad];
        c->badlist[p] = last;
        c->badpos[last] = p;
    }
}

/* The starts of the windows through the changed arcs of m, before and
 * after: f[i] and its delta - 1 predecessors either way.  Returns their
 * number (distinct), written to out (at most 6 delta). */
static int affected(cover_t *c, const move_t *m, tk_id_t *out)
{
    int k = 0;
    if (++c->stamp == 0) {
        memset(c->mark, 0, (size_t)c->n * sizeof *c->mark);
        c->stamp = 1;
    }
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < m->k; i++) {
            tk_id_t u = m->f[i];
            for (int32_t j = 0; j < c->delta; j++) {
                if (c->mark[u] != c->stamp) {
                    c->mark[u] = c->stamp;
                    out[k++] = u;
                }
                u = pass ? mprev(c, m, u) : c->pred[u];
            }
        }
    return k;
}

/* Change in the number of cycles by m. */
static int cycle_change(const cover_t *c, const move_t *m)
{
    int32_t a = c->cyc[m->f[0]], b = c->cyc[m->f[1]];
    if (m->k == 2)
        return a == b ? 1 : -1;
    int32_t d = c->cyc[m->f[2]];
    if (a != b && b != d && a != d)
        return -2;
    if (a != b || b != d)
        return 0;
    int64_t len = c->clen[a];
    int64_t rb = ((c->idx[m->f[1]] - c->idx[m->f[0]]) % len + len) % len;
    int64_t rc = ((c->idx[m->f[2]] - c->idx[m->f[0]]) % len + len) % len;
    return rb < rc ? 0 : 2;
}

static int64_t move_delta(cover_t *c, const move_t *m, tk_id_t *scratch)
{
    int k = affected(c, m, scratch);
    int64_t d = cycle_change(c, m);
    for (int i = 0; i < k; i++)
        d += c->wbad * (window_bad(c, m, scratch[i]) - c->bad[scratch[i]]);
    return d;
}

/* Give switch s's cycle a fresh id and positions from s. */
static void label_cycle(cover_t *c, tk_id_t s)
{
    int32_t id = c->freeid[--c->nfree];
    int64_t i = 0;
    tk_id_t v = s;
    do {
        c->cyc[v] = id;
        c->idx[v] = i++;
        v = c->succ[v];
    } while (v != s);
    c->clen[id] = i;
    c->ncyc++;
}

static void apply_move(cover_t *c, const move_t *m, uint64_t step, tk_id_t *scratch)
{
    int k = affected(c, m, scratch);
    int32_t old[3];
    for (int i = 0; i < m->k; i++)
        old[i] = c->cyc[m->f[i]];
    for (int i = 0; i < m->k; i++) {
        c->succ[m->f[i]] = m->to[i];
        c->pred[m->to[i]] = m->f[i];
        c->tabu[m->f[i]] = step + 1;
    }
    /* the old cycles' ids are free again; relabel the new ones */
    for (int i = 0; i < m->k; i++) {
        int dup = 0;
        for (int j = 0; j < i; j++)
            dup |= old[j] == old[i];
        if (!dup) {
            c->freeid[c->nfree++] = old[i];
            c->ncyc--;
        }
    }
    for (int i = 0; i < m->k; i++)
        c->cyc[m->f[i]] = -1;
    for (int i = 0; i < m->k; i++)
        if (c->cyc[m->f[i]] < 0)
            label_cycle(c, m->f[i]);
    for (int i = 0; i < k; i++)
        set_bad(c, scratch[i], window_bad(c, NULL, scratch[i]));
}

/* A random cycle cover: a perfect matching of out-copies to in-copies
 * (arc v -> w matches out v to in w), greedy in random order, then
 * augmenting paths by BFS.  0, 1 none exists, -1 out of memory. */
static int random_cover(cover_t *c)
{
    const tk_graph_t *g = c->g;
    tk_id_t n = c->n;
    tk_id_t *order = tk_malloc_array((size_t)n, sizeof *order);
    tk_id_t *queue = tk_malloc_array((size_t)n, sizeof *queue);
    tk_id_t *from = tk_malloc_array((size_t)n, sizeof *from); /* BFS: in w reached from out v */
    int rc = 0;

    if (!order || !queue || !from) {
        rc = -1;
        goto out;
    }
    for (tk_id_t v = 0; v < n; v++) {
        c->succ[v] = -1;
        c->pred[v] = -1;
        order[v] = v;
    }
    for (tk_id_t i = n - 1; i > 0; i--) {
        tk_id_t j = (tk_id_t)tk_rng_below(c->rng, (uint64_t)i + 1);
        tk_id_t t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (tk_id_t i = 0; i < n; i++) {
        tk_id_t v = order[i];
        int64_t deg = g->off[v + 1] - g->off[v];
        if (deg == 0)
            continue;
        int64_t r = (int64_t)tk_rng_below(c->rng, (uint64_t)deg);
        for (int64_t q = 0; q < deg; q++) {
            tk_id_t w = g->head[g->off[v] + (r + q) % deg];
            if (w != v && c->pred[w] < 0) {
                c->succ[v] = w;
                c->pred[w] = v;
                break;
            }
        }
    }
    for (tk_id_t i = 0; i < n; i++) {
        tk_id_t s = order[i];
        if (c->succ[s] >= 0)
            continue;
        /* BFS over out-copies: out v -> in w (any arc) -> out pred[w] */
        int64_t qh = 0, qt = 0;
        tk_id_t end = -1;
        for (tk_id_t w = 0; w < n; w++)
            from[w] = -1;
        queue[qt++] = s;
        while (qh < qt && end < 0) {
            tk_id_t v = queue[qh++];
            for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
                tk_id_t w = g->head[a];
                if (w == v || from[w] >= 0)
                    continue;
                from[w] = v;
                if (c->pred[w] < 0) {
                    end = w;
                    break;
                }
                queue[qt++] = c->pred[w];
            }
        }
        if (end < 0) {
            rc = 1;
            goto out;
        }
        while (end >= 0) {
            tk_id_t v = from[end];
            tk_id_t nxt = c->succ[v];
            c->succ[v] = end;
            c->pred[end] = v;
            end = v == s ? -1 : nxt;
        }
    }
out:
    free(order);
    free(queue);
    free(from);
    return rc;
}

static int add_cand(cover_t *c, const move_t *m)
{
    if (c->ncand >= MAX_CAND)
        return 0;
    c->cand[c->ncand++] = *m;
    return 1;
}

/* The moves from focus a. */
static void gen_moves(cover_t *c, tk_id_t a)
{
    const tk_graph_t *g = c->g;
    tk_id_t sa = c->succ[a];
    move_t m;
    c->ncand = 0;
    for (int64_t p = g->off[a]; p < g->off[a + 1]; p++) {
        tk_id_t x = g->head[p];
        if (x == a || x == sa || (p > g->off[a] && g->head[p - 1] == x))
            continue;
        tk_id_t b = c->pred[x];
        if (b != sa && tk_graph_has_arc(g, b, sa)) {
            m.k = 2;
            m.f[0] = a;
            m.to[0] = x;
            m.f[1] = b;
            m.to[1] = sa;
            add_cand(c, &m);
        }
        for (int64_t q = g->off[b]; q < g->off[b + 1]; q++) {
            tk_id_t y = g->head[q];
            if (y == b || y == x || (q > g->off[b] && g->head[q - 1] == y))
                continue;
            tk_id_t cc = c->pred[y];
            if (cc == a || cc == b || cc == sa)
                continue;
            if (!tk_graph_has_arc(g, cc, sa))
                continue;
            m.k = 3;
            m.f[0] = a;
            m.to[0] = x;
            m.f[1] = b;
            m.to[1] = y;
            m.f[2] = cc;
            m.to[2] = sa;
            add_cand(c, &m);
        }
    }
}

static void free_cover(cover_t *c)
{
    free(c->succ);
    free(c->pred);
    free(c->cyc);
    free(c->idx);
    free(c->clen);
    free(c->freeid);
    free(c->bad);
    free(c->badlist);
    free(c->badpos);
    free(c->tabu);
    free(c->mark);
    free(c->cand);
    tk_rng_free(c->rng);
}

/* Set up attempt `attempt`: a fresh random cover and its counts. */
static int start_attempt(cover_t *c, uint64_t seed, uint64_t attempt, tk_error_t *err)
{
    tk_rng_free(c->rng);
    c->rng = NULL;
    if (tk_rng_new(&c->rng, seed, 1000 + attempt, err))
        return -1;
    int r = random_cover(c);
    if (r)
        return r < 0 ? -1 : 1;
    c->nfree = 0;
    for (tk_id_t v = c->n; v-- > 0;)
        c->freeid[c->nfree++] = v;
    c->ncyc = 0;
    c->nbad = 0;
    for (tk_id_t v = 0; v < c->n; v++) {
        c->cyc[v] = -1;
        c->bad[v] = 0;
        c->tabu[v] = 0;
    }
    for (tk_id_t v = 0; v < c->n; v++)
        if (c->cyc[v] < 0)
            label_cycle(c, v);
    for (tk_id_t v = 0; v < c->n; v++)
        set_bad(c, v, window_bad(c, NULL, v));
    return 0;
}

tk_status_t am_cover_search(const tk_graph_t *g, const am_utable_t *ut, const am_budget_t *bud,
                            uint64_t seed, tk_id_t *cycle, uint64_t *moves, tk_error_t *err)
{
    cover_t c;
    tk_id_t n = g->n;
    tk_status_t st = TK_OK;
    tk_id_t scratch[6 * 64 + 6];
    uint64_t total = 0;

    memset(&c, 0, sizeof c);
    if (ut->delta < 2 || ut->delta > 64)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "cover search: delta %d out of 2..64",
                            (int)ut->delta);
    c.g = g;
    c.ut = ut;
    c.delta = ut->delta;
    c.n = n;
    c.wbad = 1;
    c.succ = tk_malloc_array((size_t)n, sizeof *c.succ);
    c.pred = tk_malloc_array((size_t)n, sizeof *c.pred);
    c.cyc = tk_malloc_array((size_t)n, sizeof *c.cyc);
    c.idx = tk_malloc_array((size_t)n, sizeof *c.idx);
    c.clen = tk_malloc_array((size_t)n, sizeof *c.clen);
    c.freeid = tk_malloc_array((size_t)n, sizeof *c.freeid);
    c.bad = tk_malloc_array((size_t)n, 1);
    c.badlist = tk_malloc_array((size_t)n, sizeof *c.badlist);
    c.badpos = tk_malloc_array((size_t)n, sizeof *c.badpos);
    c.tabu = tk_malloc_array((size_t)n, sizeof *c.tabu);
    c.mark = tk_calloc_array((size_t)n, sizeof *c.mark);
    c.cand = tk_malloc_array(MAX_CAND, sizeof *c.cand);
    if (!c.succ || !c.pred || !c.cyc || !c.idx || !c.clen || !c.freeid || !c.bad || !c.badlist ||
        !c.badpos || !c.tabu || !c.mark || !c.cand) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the cover search");
        goto done;
    }
    uint64_t patience = 50 * (uint64_t)n + 20000;
    for (uint64_t attempt = 0;; attempt++) {
        if (am_budget_over(bud, total))
            break;
        int r = start_attempt(&c, seed, attempt, err);
        if (r < 0) {
            st = err->code ? err->code : tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            goto done;
        }
        if (r > 0) {
            st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                              "no cycle cover: the links admit no permutation of the switches");
            goto done;
        }
        int64_t cost = c.wbad * c.nbad + c.ncyc - 1, best = cost;
        uint64_t since = 0;
        for (uint64_t step = 1; cost > 0; step++) {
            total++;
            if ((total & 255) == 0 && am_budget_over(bud, total))
                goto budget;
            if (++since > patience)
                break;
            tk_id_t a;
            if (c.nbad > 0 && (c.ncyc == 1 || tk_rng_below(c.rng, 4) != 0)) {
                tk_id_t v = c.badlist[tk_rng_below(c.rng, (uint64_t)c.nbad)];
                int32_t j = (int32_t)tk_rng_below(c.rng, (uint64_t)c.delta);
                a = v;
                while (j-- > 0)
                    a = c.succ[a];
            } else {
                a = (tk_id_t)tk_rng_below(c.rng, (uint64_t)n);
            }
            gen_moves(&c, a);
            if (c.ncand == 0)
                continue;
            int64_t pick = -1, bestd = INT64_MAX, ties = 0;
            if (tk_rng_below(c.rng, 1024) < NOISE_PER_1024) {
                pick = (int64_t)tk_rng_below(c.rng, (uint64_t)c.ncand);
                bestd = move_delta(&c, &c.cand[pick], scratch);
            } else {
                for (int64_t q = 0; q < c.ncand; q++) {
                    const move_t *m = &c.cand[q];
                    int64_t d = move_delta(&c, m, scratch);
                    int tabu = 0;
                    for (int i = 0; i < m->k; i++)
                        if (c.tabu[m->f[i]] && c.tabu[m->f[i]] + TABU > step)
                            tabu = 1;
                    if (tabu && cost + d >= best)
                        continue;
                    if (d < bestd) {
                        bestd = d;
                        pick = q;
                        ties = 1;
                    } else if (d == bestd && tk_rng_below(c.rng, (uint64_t)++ties) == 0) {
                        pick = q;
                    }
                }
            }
            if (pick < 0)
                continue;
            apply_move(&c, &c.cand[pick], step, scratch);
            cost += bestd;
            if (cost < best) {
                best = cost;
                since = 0;
            }
        }
        if (cost == 0) {
            tk_id_t v = 0;
            for (tk_id_t i = 0; i < n; i++) {
                cycle[i] = v;
                v = c.succ[v];
            }
            goto done;
        }
        if (patience < ((uint64_t)1 << 40))
            patience *= 2;
    }
budget:
    st = tk_error_set(err, TK_ELIMIT, NULL, 0, "no cycle with delta=%d found within the budget",
                      (int)c.delta);
done:
    if (moves)
        *moves = total;
    free_cover(&c);
    return st;
}
