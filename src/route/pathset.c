/*
 * pathset.c - weighted path sets (tk_route.h): building, sorting, merging
 * equal walks, concatenating two-phase paths, counting.
 */
#include <config.h>

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

void tk_pathset_init(tk_pathset_t *ps)
{
    memset(ps, 0, sizeof *ps);
}

void tk_pathset_destroy(tk_pathset_t *ps)
{
    if (!ps)
        return;
    free(ps->off);
    free(ps->arc);
    free(ps->w);
    free(ps->via);
    free(ps->phase2);
    memset(ps, 0, sizeof *ps);
}

static tk_status_t grow_paths(tk_pathset_t *ps, tk_error_t *err)
{
    int64_t c = ps->cap_paths ? 2 * ps->cap_paths : 16;
    int64_t *o = tk_realloc_array(ps->off, (size_t)c + 1, sizeof *o);
    if (o)
        ps->off = o;
    double *nw = tk_realloc_array(ps->w, (size_t)c, sizeof *nw);
    if (nw)
        ps->w = nw;
    tk_id_t *nv = tk_realloc_array(ps->via, (size_t)c, sizeof *nv);
    if (nv)
        ps->via = nv;
    int32_t *np = tk_realloc_array(ps->phase2, (size_t)c, sizeof *np);
    if (np)
        ps->phase2 = np;
    if (!o || !nw || !nv || !np)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
    if (!ps->cap_paths)
        ps->off[0] = 0;
    ps->cap_paths = c;
    return TK_OK;
}

tk_status_t rt_ps_push_via(tk_pathset_t *ps, const int64_t *arcs, int64_t len, double w,
                           tk_id_t via, int32_t phase2, tk_error_t *err)
{
    tk_status_t st;
    if ((!ps->off || ps->npaths + 1 >= ps->cap_paths) && (st = grow_paths(ps, err)) != TK_OK)
        return st;
    int64_t base = ps->off[ps->npaths];
    /* The arc array exists as soon as a path does, even an empty one, so
     * arc + off[i] is always a valid pointer. */
    if (!ps->arc || base + len > ps->cap_arcs) {
        int64_t c = ps->cap_arcs ? 2 * ps->cap_arcs : 64;
        while (c < base + len)
            c *= 2;
        int64_t *na = tk_realloc_array(ps->arc, (size_t)c, sizeof *na);
        if (!na)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
        ps->arc = na;
        ps->cap_arcs = c;
    }
    if (len)
        memcpy(ps->arc + base, arcs, (size_t)len * sizeof *arcs);
    ps->w[ps->npaths] = w;
    ps->via[ps->npaths] = via;
    ps->phase2[ps->npaths] = phase2;
    ps->npaths++;
    ps->off[ps->npaths] = base + len;
    return TK_OK;
}

tk_status_t rt_ps_append(tk_pathset_t *dst, const tk_pathset_t *src, double scale, tk_error_t *err)
{
    for (int64_t i = 0; i < src->npaths; i++) {
        tk_status_t st = rt_ps_push_via(dst, src->arc + src->off[i], src->off[i + 1] - src->off[i],
                                        scale * src->w[i], src->via[i], src->phase2[i], err);
        if (st != TK_OK)
            return st;
    }
    return TK_OK;
}

tk_status_t rt_ps_concat(const tk_pathset_t *a, const tk_pathset_t *b, double scale, tk_id_t via,
                         int phase2_end, int64_t *buf, tk_pathset_t *out, tk_error_t *err)
{
    for (int64_t i = 0; i < a->npaths; i++) {
        int64_t l1 = a->off[i + 1] - a->off[i];
        memcpy(buf, a->arc + a->off[i], (size_t)l1 * sizeof *buf);
        for (int64_t j = 0; j < b->npaths; j++) {
            int64_t l2 = b->off[j + 1] - b->off[j];
            memcpy(buf + l1, b->arc + b->off[j], (size_t)l2 * sizeof *buf);
            int32_t p2 = (int32_t)(phase2_end ? l1 + l2 : l1);
            tk_status_t st =
                rt_ps_push_via(out, buf, l1 + l2, scale * a->w[i] * b->w[j], via, p2, err);
            if (st != TK_OK)
                return st;
        }
    }
    return TK_OK;
}

tk_status_t rt_ps_check_max(tk_id_t s, tk_id_t t, uint64_t max_paths, const tk_pathset_t *out,
                            tk_error_t *err)
{
    if (max_paths && (uint64_t)out->npaths > max_paths)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "pair %" PRId32 ",%" PRId32 ": more than %" PRIu64 " paths", s, t,
                            max_paths);
    return TK_OK;
}

void rt_ps_count(const tk_pathset_t *ps, tk_route_count_t *out)
{
    int32_t mn = INT32_MAX, mx = 0;
    double avg = 0;
    for (int64_t i = 0; i < ps->npaths; i++) {
        int32_t l = (int32_t)(ps->off[i + 1] - ps->off[i]);
        if (l < mn)
            mn = l;
        if (l > mx)
            mx = l;
        avg += ps->w[i] * l;
    }
    out->paths = (double)ps->npaths;
    out->walks = (double)ps->npaths;
    out->min_len = ps->npaths ? mn : 0;
    out->max_len = mx;
    out->avg_len = avg;
}

/* ------------------------------------------------------------------------ */
/* Sorting and merging.                                                     */

typedef struct {
    const tk_pathset_t *ps;
    int64_t i;
} psref_t;

static int cmp_walk(const tk_pathset_t *ps, int64_t a, int64_t b)
{
    int64_t i = ps->off[a], ie = ps->off[a + 1];
    int64_t j = ps->off[b], je = ps->off[b + 1];
    for (; i < ie && j < je; i++, j++)
        if (ps->arc[i] != ps->arc[j])
            return ps->arc[i] < ps->arc[j] ? -1 : 1;
    if (i < ie)
        return 1;
    if (j < je)
        return -1;
    return 0;
}

/* By arc sequence, then intermediate, then present position. */
static int pcmp(const void *a, const void *b)
{
    const psref_t *x = a, *y = b;
    const tk_pathset_t *ps = x->ps;
    int c = cmp_walk(ps, x->i, y->i);
    if (c)
        return c;
    if (ps->via[x->i] != ps->via[y->i])
        return ps->via[x->i] < ps->via[y->i] ? -1 : 1;
    return x->i < y->i ? -1 : x->i > y->i;
}

/* Sort (and, with merge, merge equal walks; keep_mode 1 clears via and
 * phase2 of a merged walk whose draws disagree). */
static tk_status_t sort_paths(tk_pathset_t *ps, int merge, tk_error_t *err)
{
    int64_t np = ps->npaths;
    if (np < 2)
        return TK_OK;
    psref_t *ref = tk_malloc_array((size_t)np, sizeof *ref);
    tk_pathset_t o;
    tk_status_t st = TK_OK;
    tk_pathset_init(&o);
    if (!ref)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (paths)");
    int sorted = 1;
    for (int64_t i = 0; i < np; i++) {
        ref[i].ps = ps;
        ref[i].i = i;
        if (i > 0 && sorted && pcmp(&ref[i - 1], &ref[i]) > 0)
            sorted = 0;
    }
    if (sorted && !merge) { /* already in order (the models list in order) */
        free(ref);
        return TK_OK;
    }
    if (!sorted)
        qsort(ref, (size_t)np, sizeof *ref, pcmp);
    for (int64_t i = 0; i < np && !st; i++) {
        int64_t p = ref[i].i;
        if (merge && i > 0 && cmp_walk(ps, ref[i - 1].i, p) == 0) {
            int64_t k = o.npaths - 1;
            o.w[k] += ps->w[p];
            if (o.via[k] != ps->via[p] || o.phase2[k] != ps->phase2[p]) {
                o.via[k] = -1;
                o.phase2[k] = -1;
            }
        } else {
            st = rt_ps_push_via(&o, ps->arc + ps->off[p], ps->off[p + 1] - ps->off[p], ps->w[p],
                                ps->via[p], ps->phase2[p], err);
        }
    }
    free(ref);
    if (st) {
        tk_pathset_destroy(&o);
        return st;
    }
    tk_pathset_destroy(ps);
    *ps = o;
    return TK_OK;
}

tk_status_t rt_ps_sort(tk_pathset_t *ps, int merge, tk_error_t *err)
{
    return sort_paths(ps, merge, err);
}

tk_status_t tk_pathset_merge_walks(tk_pathset_t *ps, tk_error_t *err)
{
    if (!ps)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_pathset_merge_walks: NULL argument");
    return sort_paths(ps, 1, err);
}

tk_status_t rt_ps_accumulate(const tk_pathset_t *ps, tk_id_t s, tk_id_t t, double wd, double *buf,
                             tk_error_t *err)
{
    if (ps->npaths == 0)
        return tk_error_set(err, TK_EDISCONNECTED, NULL, 0, "switch %ld cannot reach switch %ld",
                            (long)s, (long)t);
    for (int64_t i = 0; i < ps->npaths; i++) {
        double x = wd * ps->w[i];
        for (int64_t k = ps->off[i]; k < ps->off[i + 1]; k++)
            buf[ps->arc[k]] += x;
    }
    return TK_OK;
}
