/*
 * auto.c - the glue to nauty: automorphism group, orbits, canonical hash,
 * isomorphism.  See tk_auto.h for what an automorphism must respect and how
 * the multigraph is encoded.
 *
 * nauty reports through callbacks without a user pointer, so the running
 * call's context sits in one thread-local pointer (auto_cur) for the
 * duration of sparsenauty(); nauty itself keeps global state, hence the
 * "one thread at a time" rule in tk_auto.h.  nauty prints nothing with the
 * options used here (writeautoms = writemarkers = FALSE).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* qsort_r */
#endif
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <nauty.h>
#include <nausparse.h>

#include "tk_auto.h"

/* ------------------------------------------------------------------------ */
/* Union-find over int64 ids (path halving, union by smaller root id, so the
 * root of a class is its smallest member). */

static int64_t uf_find(int64_t *p, int64_t x)
{
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

static void uf_union(int64_t *p, int64_t a, int64_t b)
{
    a = uf_find(p, a);
    b = uf_find(p, b);
    if (a < b)
        p[b] = a;
    else if (b < a)
        p[a] = b;
}

/* ------------------------------------------------------------------------ */
/* Pair signatures. */

typedef struct sig_entry {
    int cls; /* class index into g->class_name */
    double cap;
} sig_entry_t;

typedef struct pair {
    tk_id_t u, v; /* endpoints (u == v: the loops of u)          */
    int kind;     /* 1 link pair, 2 loops                        */
    int64_t off;  /* entries pool[off .. off+len-1], sorted      */
    int64_t len;
    int64_t rank; /* colour rank of the signature                */
} pair_t;

typedef struct sig_ctx {
    const tk_graph_t *g;
    const sig_entry_t *pool;
    const pair_t *pairs;
} sig_ctx_t;

static int cmp_entry(const tk_graph_t *g, const sig_entry_t *a, const sig_entry_t *b)
{
    int c = strcmp(g->class_name[a->cls], g->class_name[b->cls]);
    if (c)
        return c;
    return (a->cap > b->cap) - (a->cap < b->cap);
}

static int cmp_entry_r(const void *x, const void *y, void *arg)
{
    return cmp_entry((const tk_graph_t *)arg, x, y);
}

static int cmp_sig(const sig_ctx_t *c, const pair_t *a, const pair_t *b)
{
    if (a->kind != b->kind)
        return a->kind - b->kind;
    if (a->len != b->len)
        return a->len < b->len ? -1 : 1;
    for (int64_t i = 0; i < a->len; i++) {
        int r = cmp_entry(c->g, &c->pool[a->off + i], &c->pool[b->off + i]);
        if (r)
            return r;
    }
    return 0;
}

static int cmp_pair_idx(const void *x, const void *y, void *arg)
{
    const sig_ctx_t *c = arg;
    int64_t i = *(const int64_t *)x, j = *(const int64_t *)y;
    int r = cmp_sig(c, &c->pairs[i], &c->pairs[j]);
    if (r)
        return r;
    return (i > j) - (i < j);
}

/* ------------------------------------------------------------------------ */
/* The call context seen by nauty's callbacks. */

typedef struct auto_ctx {
    const tk_graph_t *g;
    int64_t *vpar; /* union-find over switches                  */
    int64_t *apar; /* union-find over arcs, or NULL             */
    unsigned long nodes;
    long max_nodes; /* <= 0: no cap                              */
    int killed;
    int ngens;
    unsigned __int128 order;
    int order_overflow;
} auto_ctx_t;

static _Thread_local auto_ctx_t *auto_cur;

/* First arc u->v with class cls and capacity cap, or -1. */
static int64_t find_arc(const tk_graph_t *g, tk_id_t u, tk_id_t v, int cls, double cap)
{
    int64_t lo = g->off[u], hi = g->off[u + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->head[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (int64_t a = lo; a < g->off[u + 1] && g->head[a] == v; a++)
        if ((g->cls ? g->cls[a] : 0) == cls && tk_graph_cap(g, a) == cap)
            return a;
    return -1;
}

static void cb_autom(int count, int *perm, int *orbits, int numorbits, int stabvertex, int nv)
{
    (void)count;
    (void)orbits;
    (void)numorbits;
    (void)stabvertex;
    (void)nv;
    auto_ctx_t *c = auto_cur;
    const tk_graph_t *g = c->g;
    c->ngens++;
    for (tk_id_t v = 0; v < g->n; v++)
        if (perm[v] != v)
            uf_union(c->vpar, v, perm[v]);
    if (!c->apar)
        return;
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t pu = perm[u], pv = perm[g->head[a]];
            if (pu == u && pv == g->head[a])
                continue;
            int64_t b = find_arc(g, pu, pv, g->cls ? g->cls[a] : 0, tk_graph_cap(g, a));
            if (b >= 0)
                uf_union(c->apar, a, b);
        }
}

static void cb_node(graph *gg, int *lab, int *ptn, int level, int numcells, int tc, int code, int m,
                    int nv)
{
    (void)gg;
    (void)lab;
    (void)ptn;
    (void)level;
    (void)numcells;
    (void)tc;
    (void)code;
    (void)m;
    (void)nv;
    auto_ctx_t *c = auto_cur;
    c->nodes++;
    if (c->max_nodes > 0 && c->nodes > (unsigned long)c->max_nodes && !c->killed) {
        c->killed = 1;
        nauty_kill_request = 1;
    }
}

static void cb_level(int *lab, int *ptn, int level, int *orbits, statsblk *stats, int tv, int index,
                     int tcellsize, int numcells, int childcount, int nv)
{
    (void)lab;
    (void)ptn;
    (void)level;
    (void)orbits;
    (void)stats;
    (void)tv;
    (void)tcellsize;
    (void)numcells;
    (void)childcount;
    (void)nv;
    auto_ctx_t *c = auto_cur;
    if (index <= 1 || c->order_overflow)
        return;
    c->order *= (unsigned)index;
    if (c->order > UINT64_MAX)
        c->order_overflow = 1;
}

/* ------------------------------------------------------------------------ */
/* Canonical form: sorted arc keys on canonical positions plus server counts
 * by position. */

typedef struct arc_key {
    uint64_t u, v, name, cap;
} arc_key_t;

typedef struct canon_form {
    int directed;
    int64_t n, m;
    int32_t *servers; /* n, by canonical position */
    arc_key_t *keys;  /* m, sorted                */
} canon_form_t;

static void canon_free(canon_form_t *f)
{
    free(f->servers);
    free(f->keys);
    memset(f, 0, sizeof *f);
}

static int cmp_key(const void *x, const void *y)
{
    const arc_key_t *a = x, *b = y;
    if (a->u != b->u)
        return a->u < b->u ? -1 : 1;
    if (a->v != b->v)
        return a->v < b->v ? -1 : 1;
    if (a->name != b->name)
        return a->name < b->name ? -1 : 1;
    if (a->cap != b->cap)
        return a->cap < b->cap ? -1 : 1;
    return 0;
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ULL;
    }
    return h;
}

static uint64_t canon_hash(const canon_form_t *f)
{
    uint64_t h = tk_mix64(0x746f706f6b697400ULL ^ (uint64_t)f->directed);
    h = tk_mix64(h ^ (uint64_t)f->n);
    h = tk_mix64(h ^ (uint64_t)f->m);
    for (int64_t i = 0; i < f->n; i++)
        h = tk_mix64(h ^ (uint64_t)(uint32_t)f->servers[i]);
    for (int64_t i = 0; i < f->m; i++) {
        h = tk_mix64(h ^ f->keys[i].u);
        h = tk_mix64(h ^ f->keys[i].v);
        h = tk_mix64(h ^ f->keys[i].name);
        h = tk_mix64(h ^ f->keys[i].cap);
    }
    return h;
}

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

/* ------------------------------------------------------------------------ */
/* Colour refinement by hashing (1-dimensional Weisfeiler-Leman).  Colours
 * start from the server count; a round hashes a switch's colour with the
 * multiset (a sum of mixed values) of (neighbour colour, link class name,
 * capacity) over its out-arcs and, for directed graphs, its in-arcs.  Every
 * value is a function of the graph up to isomorphism, so when all n colours
 * differ the group is trivial and sorting the switches by colour is a
 * canonical labelling.  A hash collision can only merge colours (never
 * split an orbit), so "discrete" stays a proof of a trivial group. */

/* Regular graphs do not refine at all from equal colours: seed the colours
 * of an undirected graph with its short cycles (triangles and closed
 * 4-walks through distinct middle switches at each switch), when that
 * costs at most about 5e7 steps (sum of squared degrees).  Returns 0 or -1
 * (out of memory). */
static int seed_short_cycles(const tk_graph_t *g, uint64_t *col)
{
    const int64_t n = g->n;
    uint64_t work = 0;
    uint32_t *cnt;

    for (tk_id_t v = 0; v < n; v++) {
        uint64_t d = (uint64_t)tk_graph_degree(g, v);
        work += d * d;
    }
    if (g->directed || work > 50000000ULL)
        return 0;
    cnt = tk_calloc_array((size_t)n, sizeof *cnt);
    if (!cnt)
        return -1;
    for (tk_id_t v = 0; v < n; v++) {
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
            tk_id_t u = g->head[a];
            for (int64_t b = g->off[u]; b < g->off[u + 1]; b++)
                if (g->head[b] != v)
                    cnt[g->head[b]]++;
        }
        uint64_t tri = 0, sq = 0;
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++)
            tri += cnt[g->head[a]];
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
            tk_id_t u = g->head[a];
            for (int64_t b = g->off[u]; b < g->off[u + 1]; b++) {
                tk_id_t w = g->head[b];
                if (w != v && cnt[w]) {
                    sq += (uint64_t)cnt[w] * (cnt[w] - 1);
                    cnt[w] = 0;
                }
            }
        }
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++) {
            tk_id_t u = g->head[a];
            for (int64_t b = g->off[u]; b < g->off[u + 1]; b++)
                cnt[g->head[b]] = 0;
        }
        col[v] = tk_mix64(col[v] ^ tk_mix64(tri * 0x9e3779b97f4a7c15ULL + sq));
    }
    free(cnt);
    return 0;
}

/* One round: col = hash(col, the multiset over out-arcs, and in-arcs when
 * in is not NULL); sig: the class names' hashes; nc, in: n of work. */
static void refine_round(const tk_graph_t *g, const uint64_t *sig, uint64_t *col, uint64_t *nc,
                         uint64_t *in)
{
    const int64_t n = g->n;

    if (in)
        memset(in, 0, (size_t)n * sizeof *in);
    for (tk_id_t u = 0; u < n; u++) {
        uint64_t acc = 0;
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            double cp = tk_graph_cap(g, a);
            uint64_t cb;
            memcpy(&cb, &cp, sizeof cb);
            uint64_t s = sig[g->cls ? g->cls[a] : 0] ^ tk_mix64(cb);
            acc += tk_mix64(col[g->head[a]] ^ s);
            if (in)
                in[g->head[a]] += tk_mix64(col[u] ^ s ^ 0x9e3779b97f4a7c15ULL);
        }
        nc[u] = acc;
    }
    for (int64_t v = 0; v < n; v++)
        nc[v] =
            tk_mix64(col[v] * 0x100000001b3ULL ^ tk_mix64(nc[v]) ^ (in ? tk_mix64(in[v] + 1) : 0));
    memcpy(col, nc, (size_t)n * sizeof *col);
}

/* The number of distinct colours (tmp: n of work). */
static int64_t count_colours(const uint64_t *col, uint64_t *tmp, int64_t n)
{
    int64_t k = n > 0 ? 1 : 0;

    memcpy(tmp, col, (size_t)n * sizeof *tmp);
    qsort(tmp, (size_t)n, sizeof *tmp, cmp_u64);
    for (int64_t i = 1; i < n; i++)
        if (tmp[i] != tmp[i - 1])
            k++;
    return k;
}

/* The refinement, from the server counts and the short cycles; stops when
 * the colour count stops growing or after max_rounds rounds.
 * Returns 1 (discrete: col[] filled), 0 (not), -1 (out of memory).
 * Time O(rounds * (m + n log n)). */
static int refine_discrete(const tk_graph_t *g, uint64_t *col, int max_rounds)
{
    const int64_t n = g->n;
    uint64_t *nc = tk_malloc_array((size_t)n, sizeof *nc);
    uint64_t *in = g->directed ? tk_calloc_array((size_t)n, sizeof *in) : NULL;
    uint64_t *tmp = tk_malloc_array((size_t)n, sizeof *tmp);
    uint64_t sig[TK_MAX_CLASSES];
    int64_t prev = 0;
    int res = 0;

    if (!nc || !tmp || (g->directed && !in)) {
        res = -1;
        goto out;
    }
    for (int c = 0; c < g->nclasses && c < TK_MAX_CLASSES; c++)
        sig[c] = name_hash(g->class_name[c]);
    for (int64_t v = 0; v < n; v++)
        col[v] = tk_mix64(0x5e4e4e5ULL + (uint64_t)(uint32_t)tk_graph_servers(g, (tk_id_t)v));
    if (seed_short_cycles(g, col) != 0) {
        res = -1;
        goto out;
    }
    for (int round = 0; round < max_rounds; round++) {
        refine_round(g, sig, col, nc, in);
        int64_t k = count_colours(col, tmp, n);
        if (k == n) {
            res = 1;
            break;
        }
        if (k <= prev)
            break;
        prev = k;
    }
out:
    free(nc);
    free(in);
    free(tmp);
    return res;
}
/* ------------------------------------------------------------------------ */

typedef struct enc {
    int64_t npairs;
    pair_t *pairs;
    sig_entry_t *pool;
    int64_t *order; /* pair indices sorted by signature */
} enc_t;

static void enc_free(enc_t *e)
{
    free(e->pairs);
    free(e->pool);
    free(e->order);
    memset(e, 0, sizeof *e);
}

/* Collect the pair signatures of g.  Returns 0 or -1 (out of memory). */
static int enc_pairs(const tk_graph_t *g, enc_t *e)
{
    memset(e, 0, sizeof *e);
    const int64_t m = g->m;
    e->pairs = tk_malloc_array((size_t)(m > 0 ? m : 1), sizeof *e->pairs);
    e->pool = tk_malloc_array((size_t)(m > 0 ? m : 1), sizeof *e->pool);
    if (!e->pairs || !e->pool)
        return -1;
    int64_t np = 0, npool = 0;
    for (tk_id_t u = 0; u < g->n; u++) {
        int64_t a = g->off[u];
        while (a < g->off[u + 1]) {
            tk_id_t v = g->head[a];
            int64_t b = a;
            while (b < g->off[u + 1] && g->head[b] == v)
                b++;
            if (g->directed || v >= u) {
                pair_t *p = &e->pairs[np++];
                p->u = u;
                p->v = v;
                p->kind = v == u ? 2 : 1;
                p->off = npool;
                /* An undirected loop is two equal consecutive arcs (sorted by
                 * head, class, capacity): take every second one. */
                int step = (!g->directed && v == u) ? 2 : 1;
                for (int64_t x = a; x < b; x += step) {
                    e->pool[npool].cls = g->cls ? g->cls[x] : 0;
                    e->pool[npool].cap = tk_graph_cap(g, x);
                    npool++;
                }
                p->len = npool - p->off;
                qsort_r(e->pool + p->off, (size_t)p->len, sizeof *e->pool, cmp_entry_r, (void *)g);
            }
            a = b;
        }
    }
    e->npairs = np;
    e->order = tk_malloc_array((size_t)(np > 0 ? np : 1), sizeof *e->order);
    if (!e->order)
        return -1;
    for (int64_t i = 0; i < np; i++)
        e->order[i] = i;
    sig_ctx_t sc = {g, e->pool, e->pairs};
    qsort_r(e->order, (size_t)np, sizeof *e->order, cmp_pair_idx, &sc);
    /* Ranks: equal signatures share a rank. */
    int64_t rank = -1;
    for (int64_t i = 0; i < np; i++) {
        if (i == 0 || cmp_sig(&sc, &e->pairs[e->order[i - 1]], &e->pairs[e->order[i]]))
            rank++;
        e->pairs[e->order[i]].rank = rank;
    }
    return 0;
}

/* Canonical form and hash from a canonical labelling: lab[i] (i < n) is the
 * switch at canonical position i.  Fills out->canon_hash and, if form is
 * not NULL, hands the form over.  Returns 0 or -1 (out of memory). */
static int finish_canon(const tk_graph_t *g, const int *lab, tk_auto_t *out, canon_form_t *form)
{
    const int64_t n = g->n, m = g->m;
    canon_form_t f;
    memset(&f, 0, sizeof f);
    f.directed = g->directed;
    f.n = n;
    f.m = m;
    f.servers = tk_malloc_array((size_t)n, sizeof *f.servers);
    f.keys = tk_malloc_array((size_t)(m > 0 ? m : 1), sizeof *f.keys);
    int32_t *pos = tk_malloc_array((size_t)n, sizeof *pos);
    if (!f.servers || !f.keys || !pos) {
        free(pos);
        canon_free(&f);
        return -1;
    }
    for (int64_t i = 0; i < n; i++) {
        pos[lab[i]] = (int32_t)i;
        f.servers[i] = tk_graph_servers(g, lab[i]);
    }
    for (tk_id_t u = 0; u < n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            double c = tk_graph_cap(g, a);
            uint64_t cb;
            memcpy(&cb, &c, sizeof cb);
            f.keys[a].u = (uint64_t)pos[u];
            f.keys[a].v = (uint64_t)pos[g->head[a]];
            f.keys[a].name = name_hash(g->class_name[g->cls ? g->cls[a] : 0]);
            f.keys[a].cap = cb;
        }
    free(pos);
    qsort(f.keys, (size_t)m, sizeof *f.keys, cmp_key);
    out->have_canon = 1;
    out->canon_hash = canon_hash(&f);
    if (form)
        *form = f;
    else
        canon_free(&f);
    return 0;
}

/* Union the interchangeable parallel arcs (same ends, class, capacity). */
static void union_parallel(const tk_graph_t *g, int64_t *apar)
{
    for (int64_t a = 0; a < g->m; a++)
        apar[a] = a;
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u] + 1; a < g->off[u + 1]; a++)
            if (g->head[a] == g->head[a - 1] && (g->cls ? g->cls[a] == g->cls[a - 1] : 1) &&
                tk_graph_cap(g, a) == tk_graph_cap(g, a - 1))
                uf_union(apar, a, a - 1);
}

typedef struct col_sort {
    uint64_t col;
    int32_t id;
} col_sort_t;

static int cmp_col(const void *x, const void *y)
{
    const col_sort_t *a = x, *b = y;
    return (a->col > b->col) - (a->col < b->col);
}

/* Result for a graph whose colour refinement is discrete: trivial group. */
static tk_status_t discrete_result(const tk_graph_t *g, const tk_auto_opts_t *opts,
                                   const uint64_t *col, tk_auto_t *out, canon_form_t *form,
                                   tk_error_t *err)
{
    const int64_t n = g->n, m = g->m;
    memset(out, 0, sizeof *out);
    out->n = n;
    out->status = TK_AUTO_DONE;
    out->order_exact = 1;
    out->order = 1;
    out->order_mant = 1.0;
    out->norbits = n;
    out->vertex_transitive = n == 1;
    out->arc_orbits = -1;
    out->orbit = tk_malloc_array((size_t)n, sizeof *out->orbit);
    if (!out->orbit)
        goto nomem;
    for (int64_t v = 0; v < n; v++)
        out->orbit[v] = (int32_t)v;
    if (opts->want_arc_orbits) {
        int64_t *apar = tk_malloc_array((size_t)(m > 0 ? m : 1), sizeof *apar);
        if (!apar)
            goto nomem;
        union_parallel(g, apar);
        int64_t k = 0;
        for (int64_t a = 0; a < m; a++)
            if (uf_find(apar, a) == a)
                k++;
        free(apar);
        out->arc_orbits = k;
        out->arc_transitive = k <= 1;
    }
    if (opts->want_canon || form) {
        col_sort_t *cs = tk_malloc_array((size_t)n, sizeof *cs);
        int *lab = tk_malloc_array((size_t)n, sizeof *lab);
        if (!cs || !lab) {
            free(cs);
            free(lab);
            goto nomem;
        }
        for (int64_t v = 0; v < n; v++) {
            cs[v].col = col[v];
            cs[v].id = (int32_t)v;
        }
        qsort(cs, (size_t)n, sizeof *cs, cmp_col);
        for (int64_t i = 0; i < n; i++)
            lab[i] = cs[i].id;
        free(cs);
        int r = finish_canon(g, lab, out, form);
        free(lab);
        if (r != 0)
            goto nomem;
    }
    return TK_OK;
nomem:
    free(out->orbit);
    out->orbit = NULL;
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the symmetry search (n=%ld)",
                        (long)n);
}

typedef struct sw_sort {
    int32_t key;
    int32_t id;
} sw_sort_t;

static int cmp_sw(const void *x, const void *y)
{
    const sw_sort_t *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->id > b->id) - (a->id < b->id);
}

static tk_status_t nomem_error(int64_t n, tk_error_t *err)
{
    return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the symmetry search (n=%ld)",
                        (long)n);
}

/* Colour refinement first: when it reaches a discrete partition the group
 * is trivial and nauty is not called (its own refinement to a discrete
 * partition is slow on large graphs).  *settled = 1 when it did: out (or
 * the error) is then the result. */
static tk_status_t try_discrete(const tk_graph_t *g, const tk_auto_opts_t *opts, tk_auto_t *out,
                                canon_form_t *form, int *settled, tk_error_t *err)
{
    uint64_t *col = tk_malloc_array((size_t)g->n, sizeof *col);
    tk_status_t st = TK_OK;
    int d;

    *settled = 0;
    if (!col)
        return nomem_error(g->n, err);
    d = refine_discrete(g, col, 64);
    if (d == 1) {
        *settled = 1;
        st = discrete_result(g, opts, col, out, form, err);
    } else if (d < 0) {
        st = nomem_error(g->n, err);
    }
    free(col);
    return st;
}

/* Sizes of the encoding (tk_auto.h): the plain signature's rank (-1:
 * none), vertices (switches, then one per pair with another signature) and
 * arcs (2 per plain link pair undirected, 1 directed; gadgets 4/2 per link
 * pair, 2/1 per loop set). */
typedef struct enc_size {
    int64_t plain, nv, nde;
} enc_size_t;

static void enc_size(const tk_graph_t *g, const enc_t *e, enc_size_t *z)
{
    int64_t ngad = 0;

    /* The plain signature: the smallest single-link pair signature. */
    z->plain = -1;
    for (int64_t i = 0; i < e->npairs; i++) {
        const pair_t *p = &e->pairs[e->order[i]];
        if (p->kind == 1 && p->len == 1) {
            z->plain = p->rank;
            break;
        }
    }
    for (int64_t i = 0; i < e->npairs; i++)
        if (e->pairs[i].rank != z->plain)
            ngad++;
    z->nv = g->n + ngad;
    z->nde = 0;
    for (int64_t i = 0; i < e->npairs; i++) {
        const pair_t *p = &e->pairs[i];
        int64_t k = p->rank == z->plain ? 1 : (p->kind == 1 ? 2 : 1);
        z->nde += g->directed ? k : 2 * k;
    }
}

/* Refuse an encoding beyond nauty's int indices, or whose work space would
 * pass the memory limit (TK_ELIMIT): nauty ends the process when its own
 * allocation fails (tk_auto.h). */
static tk_status_t check_size(const enc_size_t *z, int64_t m, const tk_auto_opts_t *opts,
                              tk_error_t *err)
{
    uint64_t need;

    if (z->nv >= ((int64_t)1 << 30) || z->nde >= ((int64_t)1 << 31))
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "graph too large for nauty (%ld vertices, %ld arcs encoded)",
                            (long)z->nv, (long)z->nde);
    /* nauty's work space is about 15 ints per vertex and 2 per arc, twice
     * with the canonical graph; ours the same order. */
    need = (uint64_t)z->nv * 128 + (uint64_t)z->nde * 24 + (uint64_t)m * 48;
    if (opts->mem_limit && need > opts->mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "symmetry search needs about %llu MB, over the memory limit",
                            (unsigned long long)(need >> 20));
    return TK_OK;
}

/* The encoded graph as nauty's sparse graph (its arrays allocated here,
 * freed by the caller even on failure).  Returns 0 or -1 (out of
 * memory). */
static int enc_sparsegraph(const tk_graph_t *g, const enc_t *e, const enc_size_t *z,
                           sparsegraph *sg)
{
    const int64_t n = g->n, nv = z->nv, nde = z->nde, plain = z->plain;
    int64_t w = n;
    size_t acc = 0;
    int *fill;

    sg->nv = (int)nv;
    sg->nde = (size_t)nde;
    sg->v = tk_malloc_array((size_t)nv, sizeof *sg->v);
    sg->d = tk_calloc_array((size_t)nv, sizeof *sg->d);
    sg->e = tk_malloc_array((size_t)(nde > 0 ? nde : 1), sizeof *sg->e);
    sg->vlen = sg->dlen = (size_t)nv;
    sg->elen = (size_t)(nde > 0 ? nde : 1);
    if (!sg->v || !sg->d || !sg->e)
        return -1;
    /* Degrees. */
    for (int64_t i = 0; i < e->npairs; i++) {
        const pair_t *p = &e->pairs[i];
        if (p->rank == plain) {
            sg->d[p->u]++;
            if (!g->directed)
                sg->d[p->v]++;
        } else if (p->kind == 1) {
            sg->d[p->u]++;
            sg->d[w] += g->directed ? 1 : 2;
            if (!g->directed)
                sg->d[p->v]++;
            w++;
        } else {
            sg->d[p->u]++;
            if (!g->directed)
                sg->d[w]++;
            w++;
        }
    }
    for (int64_t v = 0; v < nv; v++) {
        sg->v[v] = acc;
        acc += (size_t)sg->d[v];
    }
    fill = tk_calloc_array((size_t)nv, sizeof *fill);
    if (!fill)
        return -1;
#define ADD(x, y) (sg->e[sg->v[x] + (size_t)fill[x]++] = (int)(y))
    w = n;
    for (int64_t i = 0; i < e->npairs; i++) {
        const pair_t *p = &e->pairs[i];
        if (p->rank == plain) {
            ADD(p->u, p->v);
            if (!g->directed)
                ADD(p->v, p->u);
        } else if (p->kind == 1) {
            ADD(p->u, w);
            ADD(w, p->v);
            if (!g->directed) {
                ADD(w, p->u);
                ADD(p->v, w);
            }
            w++;
        } else {
            ADD(p->u, w);
            if (!g->directed)
                ADD(w, p->u);
            w++;
        }
    }
#undef ADD
    free(fill);
    return 0;
}

/* nauty's initial colouring (lab, ptn: nv entries): switches by server
 * count, then gadgets by signature rank.  sw: max(nv, n) entries of work. */
static void initial_colouring(const tk_graph_t *g, const enc_t *e, int64_t plain, int *lab,
                              int *ptn, sw_sort_t *sw)
{
    const int64_t n = g->n;
    int64_t w = n, k = 0;

    for (int64_t v = 0; v < n; v++) {
        sw[v].key = tk_graph_servers(g, (tk_id_t)v);
        sw[v].id = (int32_t)v;
    }
    qsort(sw, (size_t)n, sizeof *sw, cmp_sw);
    for (int64_t i = 0; i < n; i++) {
        lab[i] = sw[i].id;
        ptn[i] = (i + 1 < n && sw[i + 1].key == sw[i].key) ? 1 : 0;
    }
    for (int64_t i = 0; i < e->npairs; i++)
        if (e->pairs[i].rank != plain) {
            sw[k].key = (int32_t)e->pairs[i].rank;
            sw[k].id = (int32_t)w++;
            k++;
        }
    qsort(sw, (size_t)k, sizeof *sw, cmp_sw);
    for (int64_t i = 0; i < k; i++) {
        lab[n + i] = sw[i].id;
        ptn[n + i] = (i + 1 < k && sw[i + 1].key == sw[i].key) ? 1 : 0;
    }
}

/* The search-tree cap: opts->max_nodes, or by default 2e9 / (encoded size)
 * nodes, clamped to 2000 .. TK_AUTO_MAX_NODES.  A node's refinement is
 * incremental and usually far cheaper than a pass over the graph, so this
 * bounds the search at seconds on graphs that reach nauty at all. */
static long node_cap(const tk_auto_opts_t *opts, const enc_size_t *z)
{
    long cap;

    if (opts->max_nodes != 0)
        return opts->max_nodes;
    cap = (long)(2000000000 / (z->nv + z->nde + 1));
    return cap < 2000 ? 2000 : cap > TK_AUTO_MAX_NODES ? TK_AUTO_MAX_NODES : cap;
}

/* The group order from nauty's grpsize1 * 10^grpsize2, normalised to a
 * mantissa in [1, 10), and exact when the product of the orbit sizes the
 * callbacks kept agrees with it. */
static void group_order(const statsblk *stats, const auto_ctx_t *ctx, tk_auto_t *out)
{
    double mant = stats->grpsize1;
    int ex = stats->grpsize2;

    while (mant >= 10.0) {
        mant /= 10.0;
        ex++;
    }
    while (mant < 1.0 && mant > 0.0) {
        mant *= 10.0;
        ex--;
    }
    out->order_mant = mant;
    out->order_exp10 = ex;
    if (!ctx->order_overflow) {
        /* Cross-check the exact product against nauty's value. */
        long double approx = (long double)mant * powl(10.0L, ex);
        long double exact = (long double)(uint64_t)ctx->order;
        if (fabsl(exact - approx) <= 1e-9L * approx) {
            out->order_exact = 1;
            out->order = (uint64_t)ctx->order;
        }
    }
}

/* Run nauty on sg from the colouring (lab, ptn) with the callbacks on ctx
 * (cg receives the canonical graph when want_canon), then reset out to its
 * status, search counts and group order. */
static tk_status_t run_nauty(const tk_graph_t *g, sparsegraph *sg, int *lab, int *ptn, int *orbits,
                             int want_canon, sparsegraph *cg, auto_ctx_t *ctx, tk_auto_t *out,
                             tk_error_t *err)
{
    statsblk stats;
    DEFAULTOPTIONS_SPARSEGRAPH(nopt);

    if (g->directed) {
        DEFAULTOPTIONS_SPARSEDIGRAPH(dopt);
        nopt = dopt;
    }
    nopt.defaultptn = FALSE;
    nopt.getcanon = want_canon ? TRUE : FALSE;
    nopt.userautomproc = cb_autom;
    nopt.usernodeproc = cb_node;
    nopt.userlevelproc = cb_level;
    memset(&stats, 0, sizeof stats);
    auto_cur = ctx;
    nauty_kill_request = 0;
    sparsenauty(sg, lab, ptn, orbits, &nopt, &stats, want_canon ? cg : NULL);
    nauty_kill_request = 0;
    auto_cur = NULL;

    memset(out, 0, sizeof *out);
    out->n = g->n;
    out->nodes = ctx->nodes;
    out->ngenerators = ctx->ngens;
    out->arc_orbits = -1;
    if (stats.errstatus == NAUKILLED || stats.errstatus == NAUABORTED || ctx->killed) {
        out->status = TK_AUTO_UNKNOWN;
    } else if (stats.errstatus != 0) {
        return tk_error_set(err, TK_EINTERNAL, NULL, 0, "nauty failed (status %d)",
                            stats.errstatus);
    } else {
        out->status = TK_AUTO_DONE;
        group_order(&stats, ctx, out);
    }
    return TK_OK;
}

/* Vertex orbits of the group found (complete unless capped), and when the
 * search completed, arc orbits (apar, may be NULL) and transitivity.
 * Returns 0 or -1 (out of memory). */
static int fill_orbits(const tk_graph_t *g, int64_t *vpar, int64_t *apar, tk_auto_t *out)
{
    const int64_t n = g->n;

    out->orbit = tk_malloc_array((size_t)n, sizeof *out->orbit);
    if (!out->orbit)
        return -1;
    out->norbits = 0;
    for (int64_t v = 0; v < n; v++) {
        int64_t r = uf_find(vpar, v);
        out->orbit[v] = (int32_t)r;
        if (r == v)
            out->norbits++;
    }
    out->vertex_transitive = out->status == TK_AUTO_DONE && out->norbits == 1;
    if (out->status == TK_AUTO_DONE && apar) {
        int64_t k = 0;
        for (int64_t a = 0; a < g->m; a++)
            if (uf_find(apar, a) == a)
                k++;
        out->arc_orbits = k;
        out->arc_transitive = k <= 1;
    }
    return 0;
}

/* The whole computation: the shortcut of a discrete refinement, else the
 * encoding, nauty's search, orbits and the canonical form.  form (may be
 * NULL) receives the canonical form. */
static tk_status_t auto_run(const tk_graph_t *g, const tk_auto_opts_t *opts, tk_auto_t *out,
                            canon_form_t *form, tk_error_t *err)
{
    const int64_t n = g->n, m = g->m;
    const int want_canon = opts->want_canon || form;
    tk_status_t st = TK_OK;
    enc_t e;
    enc_size_t z;
    sparsegraph sg;
    SG_DECL(cg);
    int *lab = NULL, *ptn = NULL, *orbits = NULL, settled;
    int64_t *vpar = NULL, *apar = NULL;
    sw_sort_t *sw = NULL;
    auto_ctx_t ctx;

    memset(&sg, 0, sizeof sg);
    memset(&ctx, 0, sizeof ctx);
    memset(&e, 0, sizeof e);
    st = try_discrete(g, opts, out, form, &settled, err);
    if (settled)
        return st;
    if (st != TK_OK)
        goto done;
    if (enc_pairs(g, &e) != 0)
        goto nomem;
    enc_size(g, &e, &z);
    if ((st = check_size(&z, m, opts, err)) != TK_OK)
        goto done;
    if (enc_sparsegraph(g, &e, &z, &sg) != 0)
        goto nomem;

    lab = tk_malloc_array((size_t)z.nv, sizeof *lab);
    ptn = tk_malloc_array((size_t)z.nv, sizeof *ptn);
    orbits = tk_malloc_array((size_t)z.nv, sizeof *orbits);
    sw = tk_malloc_array((size_t)(z.nv > n ? z.nv : n), sizeof *sw);
    vpar = tk_malloc_array((size_t)n, sizeof *vpar);
    if (opts->want_arc_orbits)
        apar = tk_malloc_array((size_t)(m > 0 ? m : 1), sizeof *apar);
    if (!lab || !ptn || !orbits || !sw || !vpar || (opts->want_arc_orbits && !apar))
        goto nomem;
    initial_colouring(g, &e, z.plain, lab, ptn, sw);
    /* The automorphisms found join orbits of switches and of arcs. */
    for (int64_t v = 0; v < n; v++)
        vpar[v] = v;
    if (apar)
        union_parallel(g, apar);
    ctx.g = g;
    ctx.vpar = vpar;
    ctx.apar = apar;
    ctx.max_nodes = node_cap(opts, &z);
    ctx.order = 1;

    st = run_nauty(g, &sg, lab, ptn, orbits, want_canon, &cg, &ctx, out, err);
    if (st != TK_OK)
        goto done;
    if (fill_orbits(g, vpar, apar, out) != 0)
        goto nomem;
    if (out->status == TK_AUTO_DONE && want_canon) {
        if (finish_canon(g, lab, out, form) != 0)
            goto nomem;
    }
    goto done;

nomem:
    st = nomem_error(n, err);
done:
    if (st != TK_OK) {
        free(out->orbit);
        out->orbit = NULL;
    }
    enc_free(&e);
    free(sg.v);
    free(sg.d);
    free(sg.e);
    if (cg.v || cg.d || cg.e)
        SG_FREE(cg);
    free(lab);
    free(ptn);
    free(orbits);
    free(sw);
    free(vpar);
    free(apar);
    return st;
}

static const tk_auto_opts_t auto_defaults = {0, 1, 1, 0};

/* tk_auto_compute: see tk_auto.h. */
tk_status_t tk_auto_compute(const tk_graph_t *g, const tk_auto_opts_t *opts, tk_auto_t *out,
                            tk_error_t *err)
{
    if (!g || !out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_auto_compute: NULL argument");
    memset(out, 0, sizeof *out);
    if (g->n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "empty graph");
    return auto_run(g, opts ? opts : &auto_defaults, out, NULL, err);
}

void tk_auto_destroy(tk_auto_t *a)
{
    if (!a)
        return;
    free(a->orbit);
    a->orbit = NULL;
}

/* tk_auto_isomorphic: see tk_auto.h. */
tk_status_t tk_auto_isomorphic(const tk_graph_t *a, const tk_graph_t *b, const tk_auto_opts_t *opts,
                               int *iso, tk_error_t *err)
{
    if (!a || !b || !iso)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_auto_isomorphic: NULL argument");
    if (a->n <= 0 || b->n <= 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "empty graph");
    *iso = 0;
    if (a->n != b->n || a->m != b->m || a->directed != b->directed)
        return TK_OK;
    tk_auto_opts_t o = {-1, 0, 1, 0};
    if (opts) {
        o.max_nodes = opts->max_nodes;
        o.mem_limit = opts->mem_limit;
    }
    tk_auto_t ra, rb;
    canon_form_t fa, fb;
    memset(&fa, 0, sizeof fa);
    memset(&fb, 0, sizeof fb);
    memset(&ra, 0, sizeof ra);
    memset(&rb, 0, sizeof rb);
    tk_status_t st = auto_run(a, &o, &ra, &fa, err);
    if (st == TK_OK)
        st = auto_run(b, &o, &rb, &fb, err);
    if (st == TK_OK && (ra.status != TK_AUTO_DONE || rb.status != TK_AUTO_DONE))
        st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                          "symmetry search capped: isomorphism undecided");
    if (st == TK_OK)
        *iso = memcmp(fa.servers, fb.servers, (size_t)a->n * sizeof *fa.servers) == 0 &&
               (a->m == 0 || memcmp(fa.keys, fb.keys, (size_t)a->m * sizeof *fa.keys) == 0);
    canon_free(&fa);
    canon_free(&fb);
    tk_auto_destroy(&ra);
    tk_auto_destroy(&rb);
    return st;
}
