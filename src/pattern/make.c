/*
 * make.c - tk_pattern_make: the table of pattern kinds, the shared
 * generator helpers, and the simple kinds (uniform, all-to-all, the random
 * permutations and the shifts).  Definitions in topo-pattern(1).
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern_internal.h"

void tkp_spec_add(tkp_mk_t *m, const char *fmt, ...)
{
    size_t len = strlen(m->spec);
    va_list ap;

    if (len + 2 >= sizeof m->spec)
        return;
    m->spec[len++] = ' ';
    va_start(ap, fmt);
    vsnprintf(m->spec + len, sizeof m->spec - len, fmt, ap);
    va_end(ap);
}

void tkp_spec_result(tkp_mk_t *m, const char *key, const char *fmt, ...)
{
    char v[128];
    va_list ap;
    size_t len = strlen(m->results);

    va_start(ap, fmt);
    vsnprintf(v, sizeof v, fmt, ap);
    va_end(ap);
    tkp_spec_add(m, "%s=%s", key, v);
    snprintf(m->results + len, sizeof m->results - len, "%s%s=%s", len ? " " : "", key, v);
}

/* The result keys of a spec read back (m->results against m->kv): each
 * given must equal what this run found; marks them used. */
static tk_status_t check_results(tkp_mk_t *m, tk_error_t *err)
{
    char buf[256], *save = NULL;

    snprintf(buf, sizeof buf, "%s", m->results);
    for (char *t = strtok_r(buf, " ", &save); t; t = strtok_r(NULL, " ", &save)) {
        char *eq = strchr(t, '=');
        const char *v;
        *eq = '\0';
        tk_status_t st = tk_kv_str(m->kv, t, 1, NULL, &v, err);
        if (st != TK_OK)
            return st;
        if (v && strcmp(v, eq + 1) != 0)
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "%s=%s: this run of %s finds %s=%s (another topokit version?)", t,
                                v, m->kind, t, eq + 1);
    }
    return TK_OK;
}

tk_status_t tkp_begin(tkp_mk_t *m, tk_level_t level, tk_error_t *err)
{
    int64_t ep = level == TK_LEVEL_SWITCH ? m->g->n : m->nserv;

    if (ep < 1)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "%s: the topology has no %s", m->kind,
                            level == TK_LEVEL_SWITCH ? "switches" : "servers (use level=switch)");
    return tk_pattern_new(&m->p, level, ep, "", m->g->spec, err);
}

tk_status_t tkp_level(tkp_mk_t *m, tk_level_t def, tk_level_t *level, tk_error_t *err)
{
    const char *v;
    tk_status_t st =
        tk_kv_str(m->kv, "level", 1, def == TK_LEVEL_SWITCH ? "switch" : "server", &v, err);
    if (st != TK_OK)
        return st;
    if (strcmp(v, "switch") == 0)
        *level = TK_LEVEL_SWITCH;
    else if (strcmp(v, "server") == 0)
        *level = TK_LEVEL_SERVER;
    else
        return tk_error_set(err, TK_EINVAL, NULL, 0, "level=%s: must be switch or server", v);
    tkp_spec_add(m, "level=%s", v);
    return TK_OK;
}

tk_status_t tkp_random_perm(uint64_t seed, uint64_t task, int64_t k, int derange, int64_t *perm,
                            tk_error_t *err)
{
    tk_rng_t *r;
    tk_status_t st = tk_rng_new(&r, seed, task, err);

    if (st != TK_OK)
        return st;
    for (int tries = 0;; tries++) {
        int fixed = 0;
        for (int64_t i = 0; i < k; i++)
            perm[i] = i;
        for (int64_t i = k - 1; i > 0; i--) {
            int64_t j = (int64_t)tk_rng_below(r, (uint64_t)i + 1);
            int64_t t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        if (!derange || k < 2)
            break;
        for (int64_t i = 0; i < k && !fixed; i++)
            fixed = perm[i] == i;
        if (!fixed)
            break;
        if (tries > 10000) { /* probability e^-10000: cannot happen */
            tk_rng_free(r);
            return tk_error_set(err, TK_EINTERNAL, NULL, 0, "no derangement found");
        }
    }
    tk_rng_free(r);
    return TK_OK;
}

tk_status_t tkp_add_map(tkp_mk_t *m, const int64_t *map, int64_t k, tk_error_t *err)
{
    tk_status_t st = tk_pattern_reserve(m->p, m->p->len + k, err);

    for (int64_t i = 0; i < k && st == TK_OK; i++)
        if (map[i] >= 0 && map[i] != i)
            st = tk_pattern_add(m->p, i, map[i], 1.0, err);
    return st;
}

tk_status_t tkp_add_switch_map(tkp_mk_t *m, tk_level_t level, const int64_t *map, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_status_t st = TK_OK;

    if (level == TK_LEVEL_SWITCH)
        return tkp_add_map(m, map, g->n, err);
    for (tk_id_t s = 0; s < g->n && st == TK_OK; s++) {
        if (map[s] < 0 || map[s] == s)
            continue;
        int64_t t = map[s];
        int32_t ps = tk_graph_servers(g, s), pt = tk_graph_servers(g, (tk_id_t)t);
        for (int32_t j = 0; j < ps && j < pt && st == TK_OK; j++)
            st = tk_pattern_add(m->p, m->first[s] + j, m->first[t] + j, 1.0, err);
    }
    return st;
}

/* ------------------------------------------------------------------------ */
/* The simple kinds. */

/* Refuse a pattern of `count` demands that cannot fit in memory. */
static tk_status_t size_check(tkp_mk_t *m, double count, tk_error_t *err)
{
    uint64_t lim = tk_memory_limit_default();
    double bytes = count * (double)sizeof(tk_demand_t);

    if (count > (double)INT64_MAX / 2 || (lim && bytes > (double)lim))
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%s: %.4g demands (%.3g bytes) exceed the memory limit", m->kind, count,
                            bytes);
    return TK_OK;
}

/* uniform [level=server|switch]: every endpoint sends 1/(K) to each of the K
 * endpoints on other switches. */
static tk_status_t gen_uniform(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_level_t level;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);

    if (st != TK_OK)
        return st;
    if (level == TK_LEVEL_SWITCH) {
        st = size_check(m, (double)g->n * (g->n - 1), err);
        if (!st)
            st = tkp_begin(m, level, err);
        if (!st)
            st = tk_pattern_reserve(m->p, (int64_t)g->n * (g->n - 1), err);
        double w = g->n > 1 ? 1.0 / (g->n - 1) : 0;
        for (tk_id_t s = 0; s < g->n && !st; s++)
            for (tk_id_t t = 0; t < g->n && !st; t++)
                if (s != t)
                    st = tk_pattern_add(m->p, s, t, w, err);
        return st;
    }
    double count = 0;
    for (tk_id_t s = 0; s < g->n; s++)
        count += (double)tk_graph_servers(g, s) * (double)(m->nserv - tk_graph_servers(g, s));
    st = size_check(m, count, err);
    if (!st)
        st = tkp_begin(m, level, err);
    if (!st)
        st = tk_pattern_reserve(m->p, (int64_t)count, err);
    for (tk_id_t s = 0; s < g->n && !st; s++) {
        int64_t others = m->nserv - tk_graph_servers(g, s);
        if (others == 0)
            continue;
        double w = 1.0 / (double)others;
        for (int64_t i = m->first[s]; i < m->first[s + 1] && !st; i++)
            for (int64_t j = 0; j < m->nserv && !st; j++) {
                if (j == m->first[s]) {
                    j = m->first[s + 1] - 1;
                    continue;
                }
                st = tk_pattern_add(m->p, i, j, w, err);
            }
    }
    return st;
}

/* all-to-all: switch level, every switch sends 1/(n-1) to every other. */
static tk_status_t gen_all_to_all(tkp_mk_t *m, tk_error_t *err)
{
    const tk_graph_t *g = m->g;
    tk_status_t st = size_check(m, (double)g->n * (g->n - 1), err);

    if (!st)
        st = tkp_begin(m, TK_LEVEL_SWITCH, err);
    if (!st)
        st = tk_pattern_reserve(m->p, (int64_t)g->n * (g->n - 1), err);
    double w = g->n > 1 ? 1.0 / (g->n - 1) : 0;
    for (tk_id_t s = 0; s < g->n && !st; s++)
        for (tk_id_t t = 0; t < g->n && !st; t++)
            if (s != t)
                st = tk_pattern_add(m->p, s, t, w, err);
    return st;
}

/* switch-perm [level=switch|server]: a uniformly random derangement of the
 * switches. */
static tk_status_t gen_switch_perm(tkp_mk_t *m, tk_error_t *err)
{
    tk_level_t level;
    tk_status_t st = tkp_level(m, TK_LEVEL_SWITCH, &level, err);
    int64_t *perm = NULL;

    m->randomized = 1;
    if (!st)
        st = tkp_begin(m, level, err);
    if (!st && !(perm = tk_malloc_array((size_t)m->g->n, sizeof *perm)))
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if (!st)
        st = tkp_random_perm(m->seed, 0, m->g->n, 1, perm, err);
    if (!st)
        st = tkp_add_switch_map(m, level, perm, err);
    free(perm);
    return st;
}

/* server-perm: a uniformly random derangement of the servers. */
static tk_status_t gen_server_perm(tkp_mk_t *m, tk_error_t *err)
{
    int64_t *perm = NULL;
    tk_status_t st = tkp_begin(m, TK_LEVEL_SERVER, err);

    m->randomized = 1;
    if (!st && !(perm = tk_malloc_array((size_t)m->nserv, sizeof *perm)))
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if (!st)
        st = tkp_random_perm(m->seed, 0, m->nserv, 1, perm, err);
    if (!st)
        st = tkp_add_map(m, perm, m->nserv, err);
    free(perm);
    return st;
}

/* endpoint i -> (i + off) mod k. */
static tk_status_t add_shift(tkp_mk_t *m, int64_t off, tk_error_t *err)
{
    int64_t k = m->p->endpoints;
    tk_status_t st = tk_pattern_reserve(m->p, k, err);

    off %= k;
    for (int64_t i = 0; i < k && !st && off; i++)
        st = tk_pattern_add(m->p, i, (i + off) % k, 1.0, err);
    return st;
}

/* shift offset=K [level=server|switch]: i -> (i + K) mod endpoints. */
static tk_status_t gen_shift(tkp_mk_t *m, tk_error_t *err)
{
    tk_level_t level;
    int64_t off;
    tk_status_t st = tk_kv_int(m->kv, "offset", 1, INT64_MAX / 4, 0, 0, &off, err);

    if (!st) {
        tkp_spec_add(m, "offset=%" PRId64, off);
        st = tkp_level(m, TK_LEVEL_SERVER, &level, err);
    }
    if (!st)
        st = tkp_begin(m, level, err);
    if (!st && off % m->p->endpoints == 0)
        st = tk_error_set(err, TK_EINVAL, NULL, 0,
                          "offset=%" PRId64 ": a multiple of the %" PRId64
                          " endpoints (everyone would send to itself)",
                          off, m->p->endpoints);
    if (!st)
        st = add_shift(m, off, err);
    return st;
}

/* random-shift [level=server|switch] (LFTI's random shift, as in Faizian,
 * Mollah, Yuan, Pakin and Lang, "Random Regular Graph and Generalized De
 * Bruijn Graph with k-shortest Path Routing"): i -> (i + a) mod k with a
 * drawn uniformly from 1..k-1. */
static tk_status_t gen_random_shift(tkp_mk_t *m, tk_error_t *err)
{
    tk_level_t level;
    tk_rng_t *r = NULL;
    tk_status_t st = tkp_level(m, TK_LEVEL_SERVER, &level, err);

    m->randomized = 1;
    if (!st)
        st = tkp_begin(m, level, err);
    if (!st && m->p->endpoints < 2)
        st =
            tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "random-shift: needs at least 2 endpoints");
    if (!st)
        st = tk_rng_new(&r, m->seed, 0, err);
    if (!st) {
        int64_t a = 1 + (int64_t)tk_rng_below(r, (uint64_t)m->p->endpoints - 1);
        tkp_spec_result(m, "offset", "%" PRId64, a);
        st = add_shift(m, a, err);
    }
    tk_rng_free(r);
    return st;
}

/* ------------------------------------------------------------------------ */
/* The table. */

typedef struct kind {
    const char *name;
    tkp_gen_fn fn;
} kind_t;

static const kind_t kinds[] = {
    {"uniform", gen_uniform},
    {"all-to-all", gen_all_to_all},
    {"server-perm", gen_server_perm},
    {"switch-perm", gen_switch_perm},
    {"perm-distance", tkp_gen_perm_distance},
    {"shift", gen_shift},
    {"random-shift", gen_random_shift},
    {"tornado", tkp_gen_tornado},
    {"transpose", tkp_gen_transpose},
    {"dim-shift", tkp_gen_dim_shift},
    {"bit-complement", tkp_gen_bit_complement},
    {"adv", tkp_gen_adv},
    {"advr", tkp_gen_advr},
    {"advc", tkp_gen_advc},
    {"longest-matching", tkp_gen_longest_matching},
    {"mixed", tkp_gen_mixed},
    {"hotspot", tkp_gen_hotspot},
};

#define NKINDS ((int)(sizeof kinds / sizeof kinds[0]))

const char *const *tk_pattern_kinds(void)
{
    static const char *const names[] = {
        "uniform",        "all-to-all",   "server-perm", "switch-perm", "perm-distance",
        "shift",          "random-shift", "tornado",     "transpose",   "dim-shift",
        "bit-complement", "adv",          "advr",        "advc",        "longest-matching",
        "mixed",          "hotspot",      "file",        NULL,
    };
    return names;
}

/* Run one kind on an existing kv (also used by mixed for its base). */
tk_status_t tkp_run_kind(tkp_mk_t *m, const char *kind, tk_error_t *err)
{
    for (int i = 0; i < NKINDS; i++)
        if (strcmp(kinds[i].name, kind) == 0)
            return kinds[i].fn(m, err);
    if (strcmp(kind, "file") == 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "file: read with tk_pattern_read (topo-pattern file path=FILE)");
    return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: unknown pattern kind", kind);
}

/* A made pattern: stamped for g, and its spec regenerates it there. */
static tk_status_t stamp_made(tk_pattern_t *p, const tk_graph_t *g, tk_error_t *err)
{
    struct tk_pattern_extra *x = tkp_extra(p);
    tk_status_t st;

    if (!x)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    if ((st = tk_pattern_set_topology(p, g, err)) != TK_OK)
        return st;
    x->regenerable = 1;
    x->bound = 1;
    x->bound_fp = p->fingerprint;
    return TK_OK;
}

static tk_status_t make(const tk_graph_t *g, const char *kind, int nparams, char *const params[],
                        uint64_t seed, int threads, int from_spec, tk_pattern_t **out,
                        tk_error_t *err)
{
    tkp_mk_t m;
    tk_status_t st;

    memset(&m, 0, sizeof m);
    m.g = g;
    m.kind = kind;
    m.seed = seed;
    m.threads = threads;
    snprintf(m.spec, sizeof m.spec, "%s", kind);
    st = tk_kv_parse(nparams, params, &m.kv, err);
    if (st != TK_OK)
        return st;
    st = tk_pattern_server_first(g, &m.first, err);
    if (st == TK_OK) {
        m.nserv = m.first[g->n];
        st = tkp_run_kind(&m, kind, err);
    }
    if (st == TK_OK && from_spec)
        st = check_results(&m, err);
    if (st == TK_OK)
        st = tk_kv_check_unused(m.kv, kind, err);
    if (st == TK_OK && !m.p)
        st = tk_error_set(err, TK_EINTERNAL, NULL, 0, "%s: no pattern made", kind);
    if (st == TK_OK) {
        if (m.randomized)
            tkp_spec_add(&m, "s=%" PRIu64, seed);
        free(m.p->spec);
        m.p->spec = strdup(m.spec);
        if (!m.p->spec)
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    if (st == TK_OK)
        st = tk_pattern_check(m.p, g, kind, err);
    if (st == TK_OK) /* the spec reproduces it on g: the spec form may stand for it */
        st = stamp_made(m.p, g, err);
    tk_kv_free(m.kv);
    free(m.first);
    free(m.sw_of);
    if (st != TK_OK) {
        tk_pattern_free(m.p);
        return st;
    }
    *out = m.p;
    return TK_OK;
}

tk_status_t tk_pattern_make(const tk_graph_t *g, const char *kind, int nparams,
                            char *const params[], uint64_t seed, int threads, tk_pattern_t **out,
                            tk_error_t *err)
{
    return make(g, kind, nparams, params, seed, threads, 0, out, err);
}

tk_status_t tkp_make_spec(const tk_graph_t *g, const char *kind, int nparams, char *const params[],
                          uint64_t seed, tk_pattern_t **out, tk_error_t *err)
{
    return make(g, kind, nparams, params, seed, 0, 1, out, err);
}
