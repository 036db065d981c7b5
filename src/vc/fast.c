/*
 * fast.c - the CDG of a two-phase routing from its n^2 segment sets
 * instead of its n^3 draws (vc_build_segments).
 *
 * A draw of pair (s, t) through m (tk_route_via_ok(s, m) and (t, m)) is a
 * segment P1 = s -> m followed by a segment P2 = m -> t.  The VCs of P2's
 * hops depend on P1 only through its summary sigma = (hops, local hops,
 * dimension of its last hop, dateline crossed in its last run): that is
 * all vc_assign carries across the junction (the phase starts afresh
 * there, and a MODE other than `route` fixes the draws m = s and m = t
 * without looking at the routing).  So per intermediate m:
 *   1. the draws m = s and m = t (when the pool allows them) are single
 *      segments, listed as paths of their own;
 *   2. every P1 (s != m) is assigned its VCs alone and adds its own
 *      dependencies when some t != s, m may follow it; it records its
 *      summary with a representative P1 and two sources, and its last
 *      channel(s) with two sources;
 *   3. every P2 (t != m) is assigned its VCs behind each summary's
 *      representative whose source is not t, adds its dependencies, and
 *      takes the dependencies from the recorded last channels of that
 *      summary whose sources include one other than t.
 * Two sources per record are enough to find one that differs from t.  The
 * graph is the same as the enumeration's (the unit tests compare them);
 * the cost is O(sum over m of (segments into and out of m) x summaries).
 * Not for Duato's extended graph (its dependencies reach across the
 * junction to every later hop) nor for MODE `route`: the caller lists
 * the paths then.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#ifdef _OPENMP
#include <omp.h>
#else
#define omp_get_max_threads() 1
#define omp_get_thread_num() 0
#endif

#include "vc/vc_internal.h"

typedef struct sig {
    uint64_t key;
    tk_id_t src[2]; /* two distinct sources (-1 unused)             */
    int64_t *arcs[2];
    int32_t len;
} sig_t;

typedef struct junc {
    int32_t sig; /* index of its summary                            */
    int64_t arc;
    int32_t lo, hi;
    tk_id_t src[2];
} junc_t;

typedef struct fstate {
    vc_set_t nodes, deps;
    tk_route_ws_t *ws;
    tk_pathset_t p1, p2;
    int32_t *lo, *hi, *esc;
    int64_t *buf;
    int64_t cap;
    sig_t *sig;
    int32_t nsig, capsig;
    junc_t *junc;
    int64_t njunc, capjunc;
    int32_t max_hops;
    tk_status_t st;
    tk_id_t em;
    tk_error_t err;
} fstate_t;

static int grow(fstate_t *f, int64_t len)
{
    if (len <= f->cap)
        return 0;
    int64_t c = 2 * len + 64;
    int32_t *a = realloc(f->lo, (size_t)c * sizeof *a);
    if (!a)
        return -1;
    f->lo = a;
    if (!(a = realloc(f->hi, (size_t)c * sizeof *a)))
        return -1;
    f->hi = a;
    if (!(a = realloc(f->esc, (size_t)c * sizeof *a)))
        return -1;
    f->esc = a;
    int64_t *b = realloc(f->buf, (size_t)c * sizeof *b);
    if (!b)
        return -1;
    f->buf = b;
    f->cap = c;
    return 0;
}

static void add_src(tk_id_t *src, tk_id_t s)
{
    if (src[0] == s || src[1] == s)
        return;
    if (src[0] < 0)
        src[0] = s;
    else if (src[1] < 0)
        src[1] = s;
}

/* A source in src other than t, or -1. */
static int other(const tk_id_t *src, tk_id_t t)
{
    return src[0] >= 0 && src[0] != t ? 0 : src[1] >= 0 && src[1] != t ? 1 : -1;
}

/* The summary of a first segment (see the top of the file). */
static uint64_t summary(const vc_ctx_t *c, const int64_t *arc, int32_t len)
{
    const tk_graph_t *g = c->g;
    uint64_t loc = 0, dim = 0, crossed = 0;
    for (int32_t i = 0; i < len; i++) {
        int glob = c->global_cls >= 0 && g->cls && g->cls[arc[i]] == c->global_cls;
        loc += !glob;
        if (c->dim) {
            if ((uint64_t)c->dim[arc[i]] + 1 != dim) {
                dim = (uint64_t)c->dim[arc[i]] + 1;
                crossed = 0;
            }
            crossed |= c->wrap[arc[i]];
        }
    }
    return (uint64_t)len << 32 | (loc > 255 ? 255 : loc) << 16 | dim << 1 | crossed;
}

/* Nodes of hops [from, len) and dependencies of hops [from, len - 1). */
static int add_hops(fstate_t *f, const vc_path_t *p, int32_t from)
{
    int bad = 0;
    for (int32_t i = from; i < p->len; i++)
        for (int32_t x = f->lo[i]; x <= f->hi[i]; x++) {
            uint64_t a = VC_NODE(p->arc[i], x);
            bad |= vc_set_add(&f->nodes, a) < 0;
            if (i + 1 < p->len)
                for (int32_t y = f->lo[i + 1]; y <= f->hi[i + 1]; y++)
                    bad |= vc_set_add(&f->deps, a << 32 | VC_NODE(p->arc[i + 1], y)) < 0;
        }
    if (p->len > f->max_hops)
        f->max_hops = p->len;
    return bad;
}

/* May x be an endpoint of a pair drawing m?  The pool rule, and with
 * server_pairs a switch with servers (both separable, as the engine
 * needs). */
static int endp(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o, tk_id_t x,
                tk_id_t m)
{
    return tk_route_via_ok(r, x, m) == 1 && (!o->server_pairs || tk_graph_servers(c->g, x) > 0);
}

#define NOMEM(f) tk_error_set(&(f)->err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)")

/* Step 1: the draws m = s (paths m -> t) and m = t (paths s -> m). */
static tk_status_t minimal_draws(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                                 fstate_t *f, tk_id_t m)
{
    tk_id_t n = c->g->n;
    tk_status_t st;
    if (!endp(r, c, o, m, m))
        return TK_OK;
    for (int side = 0; side < 2; side++)
        for (tk_id_t x = 0; x < n; x++) {
            if (x == m || !endp(r, c, o, x, m))
                continue;
            tk_id_t s = side ? x : m, t = side ? m : x;
            if ((st = tk_route_segment(r, f->ws, s, t, o->max_paths, &f->p1, &f->err)) != TK_OK)
                return st;
            for (int64_t i = 0; i < f->p1.npaths; i++) {
                int32_t len = (int32_t)(f->p1.off[i + 1] - f->p1.off[i]);
                vc_path_t p = {f->p1.arc + f->p1.off[i], len, s, t, m, side ? len : 0};
                if (grow(f, len))
                    return NOMEM(f);
                if ((st = vc_assign(c, &p, f->lo, f->hi, f->esc, &f->err)) != TK_OK)
                    return st;
                if (add_hops(f, &p, 0))
                    return NOMEM(f);
            }
        }
    return TK_OK;
}

/* Step 2: the first segments into m. */
static tk_status_t first_segments(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                                  fstate_t *f, tk_id_t m)
{
    tk_id_t n = c->g->n, t1 = -1, t2 = -1;
    tk_status_t st;
    /* two possible destinations t != m (a source needs one other than
     * itself) */
    for (tk_id_t t = 0; t < n && t2 < 0; t++)
        if (t != m && endp(r, c, o, t, m)) {
            if (t1 < 0)
                t1 = t;
            else
                t2 = t;
        }
    for (tk_id_t s = 0; s < n; s++) {
        if (s == m || !endp(r, c, o, s, m) || (t1 < 0 || (t1 == s && t2 < 0)))
            continue;
        if ((st = tk_route_segment(r, f->ws, s, m, o->max_paths, &f->p1, &f->err)) != TK_OK)
            return st;
        for (int64_t i = 0; i < f->p1.npaths; i++) {
            int32_t len = (int32_t)(f->p1.off[i + 1] - f->p1.off[i]);
            const int64_t *arc = f->p1.arc + f->p1.off[i];
            /* alone, t unknown (never m nor s): phase 0 throughout */
            vc_path_t p = {arc, len, s, -2, m, len};
            if (grow(f, len))
                return NOMEM(f);
            if ((st = vc_assign(c, &p, f->lo, f->hi, f->esc, &f->err)) != TK_OK)
                return st;
            if (add_hops(f, &p, 0))
                return NOMEM(f);
            uint64_t key = summary(c, arc, len);
            int32_t k = 0;
            while (k < f->nsig && f->sig[k].key != key)
                k++;
            if (k == f->nsig) {
                if (f->nsig == f->capsig) {
                    int32_t nc = f->capsig ? 2 * f->capsig : 16;
                    sig_t *ns = realloc(f->sig, (size_t)nc * sizeof *ns);
                    if (!ns)
                        return NOMEM(f);
                    memset(ns + f->capsig, 0, (size_t)(nc - f->capsig) * sizeof *ns);
                    f->sig = ns;
                    f->capsig = nc;
                }
                sig_t *g = &f->sig[f->nsig++];
                g->key = key;
                g->len = len;
                g->src[0] = g->src[1] = -1;
            }
            sig_t *g = &f->sig[k];
            for (int j = 0; j < 2; j++)
                if (g->src[j] < 0 && g->src[1 - j] != s) {
                    g->src[j] = s;
                    int64_t *a = realloc(g->arcs[j], (size_t)(len ? len : 1) * sizeof *a);
                    if (!a)
                        return NOMEM(f);
                    memcpy(a, arc, (size_t)len * sizeof *a);
                    g->arcs[j] = a;
                    break;
                }
            /* the last channel(s) */
            int64_t q = 0;
            while (q < f->njunc &&
                   !(f->junc[q].sig == k && f->junc[q].arc == arc[len - 1] &&
                     f->junc[q].lo == f->lo[len - 1] && f->junc[q].hi == f->hi[len - 1]))
                q++;
            if (q == f->njunc) {
                if (f->njunc == f->capjunc) {
                    int64_t nc = f->capjunc ? 2 * f->capjunc : 64;
                    junc_t *nj = realloc(f->junc, (size_t)nc * sizeof *nj);
                    if (!nj)
                        return NOMEM(f);
                    f->junc = nj;
                    f->capjunc = nc;
                }
                junc_t *j = &f->junc[f->njunc++];
                j->sig = k;
                j->arc = arc[len - 1];
                j->lo = f->lo[len - 1];
                j->hi = f->hi[len - 1];
                j->src[0] = j->src[1] = -1;
            }
            add_src(f->junc[q].src, s);
        }
    }
    return TK_OK;
}

/* Step 3: the second segments out of m behind every summary. */
static tk_status_t second_segments(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                                   fstate_t *f, tk_id_t m)
{
    tk_id_t n = c->g->n;
    tk_status_t st;
    if (!f->nsig)
        return TK_OK;
    for (tk_id_t t = 0; t < n; t++) {
        if (t == m || !endp(r, c, o, t, m))
            continue;
        if ((st = tk_route_segment(r, f->ws, m, t, o->max_paths, &f->p2, &f->err)) != TK_OK)
            return st;
        for (int32_t k = 0; k < f->nsig; k++) {
            const sig_t *g = &f->sig[k];
            int j = other(g->src, t);
            if (j < 0)
                continue;
            for (int64_t i = 0; i < f->p2.npaths; i++) {
                int32_t l2 = (int32_t)(f->p2.off[i + 1] - f->p2.off[i]), len = g->len + l2;
                if (grow(f, len))
                    return NOMEM(f);
                memcpy(f->buf, g->arcs[j], (size_t)g->len * sizeof *f->buf);
                memcpy(f->buf + g->len, f->p2.arc + f->p2.off[i], (size_t)l2 * sizeof *f->buf);
                vc_path_t p = {f->buf, len, g->src[j], t, m, g->len};
                if ((st = vc_assign(c, &p, f->lo, f->hi, f->esc, &f->err)) != TK_OK)
                    return st;
                if (add_hops(f, &p, g->len))
                    return NOMEM(f);
                /* the junction: every recorded last channel of summary k */
                for (int64_t q = 0; q < f->njunc; q++) {
                    const junc_t *jc = &f->junc[q];
                    if (jc->sig != k || other(jc->src, t) < 0)
                        continue;
                    for (int32_t x = jc->lo; x <= jc->hi; x++)
                        for (int32_t y = f->lo[g->len]; y <= f->hi[g->len]; y++)
                            if (vc_set_add(&f->deps, (uint64_t)VC_NODE(jc->arc, x) << 32 |
                                                         VC_NODE(f->buf[g->len], y)) < 0)
                                return NOMEM(f);
                }
            }
        }
    }
    return TK_OK;
}

static void reset_m(fstate_t *f)
{
    for (int32_t k = 0; k < f->nsig; k++) {
        f->sig[k].src[0] = f->sig[k].src[1] = -1;
    }
    f->nsig = 0;
    f->njunc = 0;
}

int vc_segments_apply(const tk_router_t *r, const tk_vc_policy_t *pol)
{
    int phased = pol->kind == TK_VC_2PHASES || pol->kind == TK_VC_DFLADDER ||
                 pol->kind == TK_VC_DFLADDER_LOCAL;
    /* dfhops: a hop's VC depends on P1's template position, not only on
     * its summary */
    if (pol->kind == TK_VC_LADDER_REUSE || pol->kind == TK_VC_DFHOPS ||
        (phased && pol->mode == TK_VC_MINROUTE))
        return 0;
    return tk_route_via_ok(r, 0, 0) >= 0;
}

tk_status_t vc_build_segments(const tk_router_t *r, const vc_ctx_t *c, const tk_vc_opts_t *o,
                              vc_set_t **nodes, vc_set_t **deps, int *nsets, int32_t *max_hops,
                              tk_error_t *err)
{
    tk_id_t n = c->g->n;
    int nt = o->threads > 0 ? o->threads : omp_get_max_threads();
    fstate_t *fs = calloc((size_t)nt, sizeof *fs);
    tk_status_t st = TK_OK;
    if (!fs)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
    for (int i = 0; i < nt; i++) {
        tk_pathset_init(&fs[i].p1);
        tk_pathset_init(&fs[i].p2);
        fs[i].em = n;
        if (st == TK_OK)
            st = tk_route_ws_new(r, &fs[i].ws, err);
    }
    if (st == TK_OK) {
        /* does the model decompose on this graph? */
        st = tk_route_segment(r, fs[0].ws, 0, 0, 0, &fs[0].p1, err);
    }
    if (st == TK_OK) {
        tk_progress_t *pr = tk_router_progress(r);
        tk_progress_begin(pr, "channel dependencies", "intermediates", n);
#pragma omp parallel num_threads(nt)
        {
            fstate_t *f = &fs[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
            for (tk_id_t m = 0; m < n; m++) {
                if (f->st != TK_OK)
                    continue;
                reset_m(f);
                tk_status_t e = minimal_draws(r, c, o, f, m);
                if (e == TK_OK)
                    e = first_segments(r, c, o, f, m);
                if (e == TK_OK)
                    e = second_segments(r, c, o, f, m);
                if (e != TK_OK) {
                    f->st = e;
                    f->em = m;
                }
                tk_progress_add(pr, 1);
            }
        }
        tk_progress_end(pr);
        int best = -1;
        for (int i = 0; i < nt; i++)
            if (fs[i].st != TK_OK && (best < 0 || fs[i].em < fs[best].em))
                best = i;
        if (best >= 0) {
            st = fs[best].st;
            if (err)
                *err = fs[best].err;
        }
    }
    vc_set_t *ns = calloc((size_t)nt, sizeof *ns), *ds = calloc((size_t)nt, sizeof *ds);
    if (st == TK_OK && (!ns || !ds))
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (VC analysis)");
    *max_hops = 0;
    for (int i = 0; i < nt; i++) {
        if (st == TK_OK) {
            ns[i] = fs[i].nodes;
            ds[i] = fs[i].deps;
            if (fs[i].max_hops > *max_hops)
                *max_hops = fs[i].max_hops;
        } else {
            vc_set_free(&fs[i].nodes);
            vc_set_free(&fs[i].deps);
        }
        tk_route_ws_free(fs[i].ws);
        tk_pathset_destroy(&fs[i].p1);
        tk_pathset_destroy(&fs[i].p2);
        free(fs[i].lo);
        free(fs[i].hi);
        free(fs[i].esc);
        free(fs[i].buf);
        for (int32_t k = 0; k < fs[i].capsig; k++) {
            free(fs[i].sig[k].arcs[0]);
            free(fs[i].sig[k].arcs[1]);
        }
        free(fs[i].sig);
        free(fs[i].junc);
    }
    free(fs);
    if (st != TK_OK) {
        free(ns);
        free(ds);
        return st;
    }
    *nodes = ns;
    *deps = ds;
    *nsets = nt;
    return TK_OK;
}
