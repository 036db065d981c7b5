/*
 * policy.c - VC policies: their text form (tk_vc_parse), their context on
 * one graph (tails, the global class, the dateline dimensions) and the VCs
 * of every hop of a path (vc_assign).  The definitions are those of
 * tk_vc.h and topo-vc(1).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/dragonfly_internal.h"
#include "vc/vc_internal.h"

static const char *const kind_name[] = {"none",     "ladder",   "ladder-reuse",   "2phases",
                                        "dateline", "dfladder", "dfladder-local", "escape",
                                        "dfhops",   "olm"};
static const char *const mode_name[] = {"minfirst", "minlast", "minboth", "route"};

static int phased(tk_vc_kind_t k)
{
    return k == TK_VC_2PHASES || k == TK_VC_DFLADDER || k == TK_VC_DFLADDER_LOCAL;
}

static int parse_cap(const char *s, int32_t *v)
{
    char *end;
    long x = strtol(s, &end, 10);
    if (end == s || x < 1 || x > TK_VC_MAX)
        return -1;
    *v = (int32_t)x;
    return (int)(end - s);
}

tk_status_t tk_vc_parse(const char *text, tk_vc_policy_t *out, tk_error_t *err)
{
    tk_vc_policy_t p;
    char buf[64], *tok, *save = NULL;
    int k, have_mode = 0;

    if (!text || !*text)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "VC policy: empty");
    if (strlen(text) >= sizeof buf)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%.40s...: VC policy text too long", text);
    memset(&p, 0, sizeof p);
    strcpy(buf, text);
    if (buf[strlen(buf) - 1] == ',' || strstr(buf, ",,"))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: empty option", text);
    tok = strtok_r(buf, ",", &save);
    for (k = 0; k < (int)(sizeof kind_name / sizeof kind_name[0]); k++)
        if (tok && strcmp(tok, kind_name[k]) == 0)
            break;
    if (!tok || k == (int)(sizeof kind_name / sizeof kind_name[0]))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "%s: unknown VC policy (none, ladder, ladder-reuse, 2phases, "
                            "dateline, dfladder, dfladder-local, escape, dfhops, olm)",
                            text);
    p.kind = (tk_vc_kind_t)k;
    while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
        int m;
        for (m = 0; m < 4; m++)
            if (strcmp(tok, mode_name[m]) == 0)
                break;
        if (m < 4) {
            if (!phased(p.kind))
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "%s: '%s' is for 2phases, dfladder and dfladder-local", text,
                                    tok);
            if (have_mode++)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: more than one MODE", text);
            p.mode = (tk_vc_minmode_t)m;
        } else if (strncmp(tok, "vcs=", 4) == 0 && p.kind == TK_VC_ESCAPE) {
            int n1;
            if (p.cap)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: vcs given twice", text);
            n1 = parse_cap(tok + 4, &p.cap);
            if (n1 < 0 || tok[4 + n1] || p.cap > TK_VC_MAX - 1)
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "%s: vcs=A needs an integer A from 1 to %d", text,
                                    TK_VC_MAX - 1);
        } else if (strncmp(tok, "template=", 9) == 0 && p.kind == TK_VC_DFHOPS) {
            size_t tl = strlen(tok + 9);
            if (p.tmpl[0])
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: template given twice", text);
            if (tl == 0 || tl >= sizeof p.tmpl || strspn(tok + 9, "lg") != tl)
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "%s: template=T needs 1 to %d letters l and g", text,
                                    (int)sizeof p.tmpl - 1);
            strcpy(p.tmpl, tok + 9);
        } else if (strcmp(tok, "srcreuse") == 0 && p.kind == TK_VC_OLM) {
            p.srcreuse = 1;
        } else if (strncmp(tok, "cap=", 4) == 0) {
            int n1, n2 = 0;
            if (p.cap)
                return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: cap given twice", text);
            if (p.kind == TK_VC_LADDER || p.kind == TK_VC_LADDER_REUSE) {
                n1 = parse_cap(tok + 4, &p.cap);
                if (n1 < 0 || tok[4 + n1])
                    return tk_error_set(err, TK_EINVAL, NULL, 0,
                                        "%s: cap=K needs an integer K from 1 to %d", text,
                                        TK_VC_MAX);
            } else if (p.kind == TK_VC_DFLADDER || p.kind == TK_VC_DFHOPS || p.kind == TK_VC_OLM) {
                n1 = parse_cap(tok + 4, &p.cap);
                if (n1 > 0 && tok[4 + n1] == '/')
                    n2 = parse_cap(tok + 5 + n1, &p.capg);
                if (n1 < 0 || n2 <= 0 || tok[5 + n1 + n2])
                    return tk_error_set(err, TK_EINVAL, NULL, 0,
                                        "%s: cap=L/G needs integers L and G from 1 to %d", text,
                                        TK_VC_MAX);
            } else
                return tk_error_set(err, TK_EINVAL, NULL, 0,
                                    "%s: cap is for ladder, ladder-reuse, dfladder, dfhops and olm",
                                    text);
        } else
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: unknown option '%s'", text, tok);
    }
    if (p.kind == TK_VC_DFHOPS && !p.tmpl[0])
        strcpy(p.tmpl, "lgllgl");
    size_t len = (size_t)snprintf(p.text, sizeof p.text, "%s", kind_name[p.kind]);
    if (p.kind == TK_VC_DFHOPS)
        len += (size_t)snprintf(p.text + len, sizeof p.text - len, ",template=%s", p.tmpl);
    if (phased(p.kind))
        len += (size_t)snprintf(p.text + len, sizeof p.text - len, ",%s", mode_name[p.mode]);
    if (p.kind == TK_VC_ESCAPE)
        snprintf(p.text + len, sizeof p.text - len, ",vcs=%" PRId32, p.cap ? p.cap : 1);
    else if (p.cap && p.capg)
        len += (size_t)snprintf(p.text + len, sizeof p.text - len, ",cap=%" PRId32 "/%" PRId32,
                                p.cap, p.capg);
    else if (p.cap)
        len += (size_t)snprintf(p.text + len, sizeof p.text - len, ",cap=%" PRId32, p.cap);
    if (p.srcreuse)
        snprintf(p.text + len, sizeof p.text - len, ",srcreuse");
    if (p.kind == TK_VC_ESCAPE && !p.cap)
        p.cap = 1;
    *out = p;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Context.                                                                 */

void vc_ctx_destroy(vc_ctx_t *c)
{
    free(c->tail);
    free(c->dim);
    free(c->wrap);
    memset(c, 0, sizeof *c);
}

/* The dateline structure: a ring 0 - 1 - ... - n-1 - 0 as topo-gen makes
 * it (no coordinates; the dateline link joins n-1 and 0), or coordinates
 * where every link changes one coordinate by 1 or wraps from side-1 to 0
 * (a torus or mesh; the wrap-around links are the datelines). */
static tk_status_t dateline_init(vc_ctx_t *c, tk_error_t *err)
{
    const tk_graph_t *g = c->g;
    c->dim = calloc((size_t)g->m + 1, 1);
    c->wrap = calloc((size_t)g->m + 1, 1);
    if (!c->dim || !c->wrap)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (dateline)");
    if (!g->coord || g->ncoord < 1) {
        for (int64_t a = 0; a < g->m; a++) {
            tk_id_t u = c->tail[a], v = g->head[a];
            int step = v == (u + 1) % g->n || u == (v + 1) % g->n;
            if (g->n < 3 || !step || tk_graph_degree(g, u) != 2)
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "dateline: the graph is not a ring 0-1-...-n-1-0 nor a torus "
                                    "with coordinates");
            c->wrap[a] = (u == g->n - 1 && v == 0) || (u == 0 && v == g->n - 1);
        }
        return TK_OK;
    }
    if (g->ncoord > 127)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "dateline: too many dimensions");
    int32_t side[128] = {0};
    for (tk_id_t u = 0; u < g->n; u++)
        for (int k = 0; k < g->ncoord; k++)
            if (g->coord[(int64_t)u * g->ncoord + k] + 1 > side[k])
                side[k] = g->coord[(int64_t)u * g->ncoord + k] + 1;
    for (int64_t a = 0; a < g->m; a++) {
        const int32_t *x = g->coord + (int64_t)c->tail[a] * g->ncoord;
        const int32_t *y = g->coord + (int64_t)g->head[a] * g->ncoord;
        int dim = -1, ok = 1;
        for (int k = 0; k < g->ncoord; k++) {
            if (x[k] == y[k])
                continue;
            int32_t d = x[k] > y[k] ? x[k] - y[k] : y[k] - x[k];
            if (dim >= 0 || (d != 1 && d != side[k] - 1))
                ok = 0;
            dim = k;
            c->wrap[a] = d != 1;
        }
        if (!ok || dim < 0)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "dateline: link %" PRId32 "-%" PRId32
                                " is not a ring step of one dimension (not a torus or mesh)",
                                c->tail[a], g->head[a]);
        c->dim[a] = (int8_t)dim;
    }
    return TK_OK;
}

static tk_status_t ctx_init(vc_ctx_t *c, const tk_router_t *r, const tk_vc_policy_t *pol,
                            tk_error_t *err)
{
    const tk_graph_t *g = tk_router_graph(r);
    memset(c, 0, sizeof *c);
    c->g = g;
    c->pol = *pol;
    c->global_cls = -1;
    if (g->m > VC_MAX_ARCS)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%" PRId64 " arcs: the VC analysis handles at most 2^26", g->m);
    c->tail = tk_malloc_array((size_t)g->m + 1, sizeof *c->tail);
    if (!c->tail)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (n=%" PRId32 ")", g->n);
    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++)
            c->tail[a] = u;
    if (pol->kind == TK_VC_DFLADDER || pol->kind == TK_VC_DFLADDER_LOCAL ||
        pol->kind == TK_VC_DFHOPS) {
        c->global_cls = tk_graph_class_index(g, "global");
        if (c->global_cls < 0)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "%s: the graph has no link class 'global'", pol->text);
    }
    if (pol->kind == TK_VC_OLM) {
        c->r = r;
        c->global_cls = tk_graph_class_index(g, "global");
        if (!r->df || c->global_cls < 0)
            return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                "%s: needs a Dragonfly routing model (dragonfly-olm)", pol->text);
    }
    if (pol->kind == TK_VC_DATELINE)
        return dateline_init(c, err);
    return TK_OK;
}

/* A failed init leaves nothing allocated. */
tk_status_t vc_ctx_init(vc_ctx_t *c, const tk_router_t *r, const tk_vc_policy_t *pol,
                        tk_error_t *err)
{
    tk_status_t st = ctx_init(c, r, pol, err);
    if (st != TK_OK)
        vc_ctx_destroy(c);
    return st;
}

/* ------------------------------------------------------------------------ */
/* VCs of a path's hops.                                                    */

static inline int32_t capped(int32_t v, int32_t cap)
{
    return cap && v > cap - 1 ? cap - 1 : v;
}

int vc_phase(const vc_ctx_t *c, const vc_path_t *p, int32_t j)
{
    if (!phased(c->pol.kind))
        return 0;
    if (p->via < 0)
        return 0;
    if ((p->via == p->s || p->via == p->t) && c->pol.mode != TK_VC_MINROUTE) {
        if (c->pol.mode == TK_VC_MINFIRST)
            return 0;
        if (c->pol.mode == TK_VC_MINLAST)
            return 1;
        return p->via == p->s ? 0 : 1;
    }
    return j >= p->phase2;
}

/* The dragonfly-min hop count of u -> t (local-global-local). */
static int32_t df_dist(const vc_ctx_t *c, tk_id_t u, tk_id_t t)
{
    const rt_groups_t *df = c->r->df;
    int32_t A = df->gof[u], B = df->gof[t], best = INT32_MAX;
    if (A == B)
        return rt_df_ld(c->r, u, t);
    int64_t k0 = df->gaoff[(int64_t)A * df->ngroups + B];
    int64_t k1 = df->gaoff[(int64_t)A * df->ngroups + B + 1];
    for (int64_t k = k0; k < k1; k++) {
        int64_t a = df->garc[k];
        int32_t d = rt_df_ld(c->r, u, c->tail[a]) + 1 + rt_df_ld(c->r, c->g->head[a], t);
        if (d < best)
            best = d;
    }
    return best;
}

/* Is hop a (u -> v) on a dragonfly-min path of u -> t? */
static int df_minimal(const vc_ctx_t *c, int64_t a, tk_id_t t)
{
    const rt_groups_t *df = c->r->df;
    tk_id_t u = c->tail[a], v = c->g->head[a];
    if (df->gof[u] != df->gof[v] && df->gof[v] != df->gof[t])
        return 0; /* a global hop that does not reach t's group */
    return df_dist(c, v, t) + 1 == df_dist(c, u, t);
}

/* olm (tk_vc.h): esc[i] = 1 for an escape hop, 0 for the others. */
static tk_status_t olm_assign(const vc_ctx_t *c, const vc_path_t *p, int32_t *lo, int32_t *hi,
                              int32_t *esc)
{
    const tk_graph_t *g = c->g;
    int32_t v = 0;
    int prev_glob = 0, prev_min = 1, in_src = 1;
    for (int32_t i = 0; i < p->len; i++) {
        int64_t a = p->arc[i];
        int glob = g->cls && g->cls[a] == c->global_cls;
        int mn = df_minimal(c, a, p->t);
        int src_misroute = in_src && !prev_glob && !prev_min; /* after one */
        if (i > 0 && !(!glob && !mn) && !(glob && !prev_glob) &&
            !(c->pol.srcreuse && src_misroute && !glob))
            v++;
        esc[i] = mn || (i > 0 && glob && src_misroute);
        lo[i] = hi[i] = capped(v, glob ? c->pol.capg : c->pol.cap);
        if (glob)
            in_src = 0;
        prev_glob = glob;
        prev_min = mn;
    }
    return TK_OK;
}

tk_status_t vc_assign(const vc_ctx_t *c, const vc_path_t *p, int32_t *lo, int32_t *hi, int32_t *esc,
                      tk_error_t *err)
{
    const tk_graph_t *g = c->g;
    const tk_vc_policy_t *pol = &c->pol;
    int32_t gin = 0, slot = 0, loc = 0, lastph = 0, crossed = 0, curdim = -1;

    if (pol->kind == TK_VC_OLM)
        return olm_assign(c, p, lo, hi, esc);
    if (pol->kind == TK_VC_2PHASES && p->via < 0)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "%s: a path of pair %" PRId32 ",%" PRId32
                            " has no intermediate (the routing has no phases)",
                            pol->text, p->s, p->t);
    for (int32_t i = 0; i < p->len; i++) {
        int64_t a = p->arc[i];
        int ph = vc_phase(c, p, i);
        int glob = c->global_cls >= 0 && g->cls && g->cls[a] == c->global_cls;
        int32_t v;
        if (ph != lastph)
            gin = 0;
        lastph = ph;
        lo[i] = 0;
        switch (pol->kind) {
        case TK_VC_NONE:
            v = 0;
            break;
        case TK_VC_LADDER:
            v = capped(i, pol->cap);
            break;
        case TK_VC_LADDER_REUSE:
            v = capped(i, pol->cap);
            break;
        case TK_VC_2PHASES:
            v = ph;
            break;
        case TK_VC_DATELINE:
            if (c->dim[a] != curdim) {
                curdim = c->dim[a];
                crossed = 0;
            }
            crossed |= c->wrap[a];
            v = crossed;
            break;
        case TK_VC_ESCAPE: /* the adaptive set 1 .. A (loads) */
            v = pol->cap;
            break;
        case TK_VC_DFLADDER:
            v = glob ? capped(ph, pol->capg) : capped(2 * ph + gin, pol->cap);
            break;
        case TK_VC_DFHOPS: {
            char want = glob ? 'g' : 'l';
            while (pol->tmpl[slot] && pol->tmpl[slot] != want)
                slot++;
            if (!pol->tmpl[slot])
                return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                    "%s: a path of pair %" PRId32 ",%" PRId32
                                    " does not fit the template",
                                    pol->text, p->s, p->t);
            v = 0;
            for (int32_t k = 0; k < slot; k++)
                v += pol->tmpl[k] == want;
            v = capped(v, glob ? pol->capg : pol->cap);
            slot++;
            break;
        }
        default: /* TK_VC_DFLADDER_LOCAL */
            v = glob ? ph : (loc < 3 ? loc : 3);
            break;
        }
        if (glob)
            gin++;
        else
            loc++;
        if (v >= TK_VC_MAX)
            return tk_error_set(err, TK_ELIMIT, NULL, 0,
                                "%s: pair %" PRId32 ",%" PRId32 " needs more than %d VCs (a path "
                                "of %" PRId32 " hops)",
                                pol->text, p->s, p->t, TK_VC_MAX, p->len);
        hi[i] = v;
        esc[i] = v;
        if (pol->kind == TK_VC_ESCAPE)
            lo[i] = 1;
        else if (pol->kind != TK_VC_LADDER_REUSE)
            lo[i] = v;
    }
    return TK_OK;
}
