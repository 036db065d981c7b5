/*
 * adapt_rules.c - the adaptive rules of tk_sim.h as text and as candidate
 * routings: tk_adapt_is_rule, tk_adapt_parse (names, options and their
 * defaults) and tk_adapt_candidates.  What the rules do with their
 * candidates: adaptive.c; the model: topokit(7), ADAPTIVE ROUTING.
 */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim_internal.h"

/* ------------------------------------------------------------------------ */
/* Rules and their text form. */

static const char *const rule_names[] = {"ugal-l",
                                         "ugal-g",
                                         "ugal-le",
                                         "par",
                                         "src-rrg",
                                         "src-crg",
                                         "in-transit-crg",
                                         "in-transit-rrg",
                                         "in-transit-mm",
                                         "polarized-adaptive",
                                         "dgb",
                                         "edgb"};

/* Rules that need a Dragonfly. */
static int needs_df(tk_adapt_rule_t r)
{
    return adapt_is_le(r) || r == TK_ADAPT_PAR || adapt_is_src(r) || adapt_is_transit(r);
}
static const char *const start_names[] = {"min", "nonmin", "half"};

static void adapt_defaults(tk_adapt_t *a)
{
    memset(a, 0, sizeof *a);
    a->rule = TK_ADAPT_UGAL_L;
    a->bias = 0;
    a->buffer = 256;
    a->gbuf = NAN;
    a->count = 0.01;
    a->damping = 0.5;
    a->tol = 1e-9;
    a->max_iter = 2000;
    a->start = TK_ADAPT_START_MIN;
    a->thr = 0.55;
    a->gthr = 3;
    a->coef = 2;
    a->extra = 1;
    a->rate = 0.5;
    a->max_outer = 200;
}

/* The defaults of one rule: PiggyBack's local threshold T = 5 packets is
 * its bias (Fuentes et al., Table 1). */
static void rule_defaults(tk_adapt_t *a, tk_adapt_rule_t rule)
{
    adapt_defaults(a);
    a->rule = rule;
    if (adapt_is_src(rule))
        a->bias = 5;
}

static int rule_of(const char *name, size_t len)
{
    for (int i = 0; i < (int)(sizeof rule_names / sizeof *rule_names); i++)
        if (strlen(rule_names[i]) == len && strncmp(rule_names[i], name, len) == 0)
            return i;
    return -1;
}

int tk_adapt_is_rule(const char *text)
{
    if (!text)
        return 0;
    size_t len = strcspn(text, ",");
    return rule_of(text, len) >= 0;
}

/* A number option: finite (or +inf when inf_ok), >= lo (> lo when
 * strict). */
static int num_opt(const char *v, double lo, int strict, int inf_ok, double *out)
{
    char *end;
    if (inf_ok && strcmp(v, "inf") == 0) {
        *out = INFINITY;
        return 0;
    }
    if (!*v || isspace((unsigned char)*v))
        return -1;
    errno = 0;
    double x = strtod(v, &end);
    if (*end || errno || !isfinite(x) || x < lo || (strict && x == lo))
        return -1;
    *out = x;
    return 0;
}

tk_status_t tk_adapt_parse(const char *text, tk_adapt_t *out, tk_error_t *err)
{
    tk_adapt_t a;
    char buf[TK_ROUTE_TEXT_MAX];
    adapt_defaults(&a);
    if (!text || strlen(text) >= sizeof buf)
        return tk_error_set(err, TK_EINVAL, "routing", 0, "%s: not an adaptive rule",
                            text ? "(too long)" : "(null)");
    strcpy(buf, text);
    char *save = NULL;
    char *tok = strtok_r(buf, ",", &save);
    int r = tok ? rule_of(tok, strlen(tok)) : -1;
    if (r < 0)
        return tk_error_set(err, TK_EINVAL, "routing", 0,
                            "%s: not an adaptive rule (ugal-l, ugal-g, ugal-le, par, src-rrg, "
                            "src-crg, in-transit-crg, in-transit-rrg, in-transit-mm, "
                            "polarized-adaptive, dgb, edgb)",
                            text);
    rule_defaults(&a, (tk_adapt_rule_t)r);
    while ((tok = strtok_r(NULL, ",", &save)) != NULL) {
        char *eq = strchr(tok, '=');
        if (!eq)
            return tk_error_set(err, TK_EINVAL, "routing", 0, "%s: option '%s' is not KEY=VALUE",
                                text, tok);
        *eq = '\0';
        const char *k = tok, *v = eq + 1;
        int bad = 0;
        if (strcmp(k, "bias") == 0) {
            bad = num_opt(v, -DBL_MAX, 0, a.rule == TK_ADAPT_POLAR, &a.bias) ||
                  (a.rule == TK_ADAPT_POLAR && a.bias < 0);
        } else if (strcmp(k, "buffer") == 0) {
            bad = num_opt(v, 0, 1, 1, &a.buffer);
        } else if (strcmp(k, "gbuf") == 0 && a.rule != TK_ADAPT_POLAR) {
            bad = num_opt(v, 0, 1, 1, &a.gbuf);
        } else if (strcmp(k, "count") == 0) {
            bad = num_opt(v, 0, 0, 0, &a.count);
        } else if (strcmp(k, "damping") == 0) {
            bad = num_opt(v, 0, 1, 0, &a.damping) || a.damping > 1;
        } else if (strcmp(k, "tol") == 0) {
            bad = num_opt(v, 0, 1, 0, &a.tol);
        } else if (strcmp(k, "iter") == 0) {
            double it;
            bad = num_opt(v, 1, 0, 0, &it) || it != floor(it) || it > 1e9;
            if (!bad)
                a.max_iter = (int64_t)it;
        } else if (strcmp(k, "start") == 0 && a.rule != TK_ADAPT_POLAR) {
            int s = -1;
            for (int i = 0; i < 3; i++)
                if (strcmp(v, start_names[i]) == 0)
                    s = i;
            bad = s < 0;
            if (!bad)
                a.start = (tk_adapt_start_t)s;
        } else if (strcmp(k, "thr") == 0 && adapt_is_transit(a.rule)) {
            bad = num_opt(v, 0, 0, 0, &a.thr) || a.thr > 1;
        } else if (strcmp(k, "gthr") == 0 && adapt_is_src(a.rule)) {
            bad = num_opt(v, 0, 0, 1, &a.gthr);
        } else if (strcmp(k, "coef") == 0 && adapt_is_src(a.rule)) {
            bad = num_opt(v, 0, 0, 0, &a.coef);
        } else if (strcmp(k, "extra") == 0 && a.rule == TK_ADAPT_POLAR) {
            bad = num_opt(v, 0, 0, 0, &a.extra);
        } else if (strcmp(k, "rate") == 0 && adapt_is_dgb(a.rule)) {
            bad = num_opt(v, 0, 0, 0, &a.rate);
        } else if (strcmp(k, "outer") == 0 && adapt_is_dgb(a.rule)) {
            double it;
            bad = num_opt(v, 1, 0, 0, &it) || it != floor(it) || it > 1e9;
            if (!bad)
                a.max_outer = (int64_t)it;
        } else if (strcmp(k, "cand") == 0 && !adapt_is_src(a.rule) && !adapt_is_transit(a.rule) &&
                   a.rule != TK_ADAPT_POLAR) {
            tk_route_spec_t spec;
            tk_error_t e;
            tk_error_clear(&e);
            if (tk_route_parse(v, &spec, &e) != TK_OK ||
                (spec.kind != TK_ROUTE_VALIANT && spec.kind != TK_ROUTE_DF_VALIANT &&
                 spec.kind != TK_ROUTE_DF_VALIANT_CRG))
                return tk_error_set(err, TK_EINVAL, "routing", 0,
                                    "%s: cand=%s: the candidates come from valiant, "
                                    "dragonfly-valiant or dragonfly-valiant-crg",
                                    text, v);
            snprintf(a.cand, sizeof a.cand, "%s", spec.text);
        } else {
            return tk_error_set(err, TK_EINVAL, "routing", 0,
                                "%s: unknown option '%s' (bias, buffer, %scount, damping, "
                                "tol, iter, start, %s)",
                                text, k, a.rule == TK_ADAPT_POLAR ? "" : "gbuf, ",
                                adapt_is_src(a.rule)       ? "gthr, coef"
                                : adapt_is_transit(a.rule) ? "thr"
                                : a.rule == TK_ADAPT_POLAR ? "extra"
                                : adapt_is_dgb(a.rule)     ? "cand, rate, outer"
                                                           : "cand");
        }
        if (bad)
            return tk_error_set(err, TK_EINVAL, "routing", 0, "%s: bad value '%s' for %s", text, v,
                                k);
    }
    /* canonical text: the rule and every option that differs from its
     * default */
    {
        tk_adapt_t d;
        rule_defaults(&d, a.rule);
        int n = snprintf(a.text, sizeof a.text, "%s", rule_names[a.rule]);
#define ADD(...)                                                                                   \
    do {                                                                                           \
        if (n > 0 && (size_t)n < sizeof a.text)                                                    \
            n += snprintf(a.text + n, sizeof a.text - (size_t)n, __VA_ARGS__);                     \
    } while (0)
        if (a.bias != d.bias) {
            if (isinf(a.bias))
                ADD(",bias=inf");
            else
                ADD(",bias=%.17g", a.bias);
        }
        if (a.buffer != d.buffer) {
            if (isinf(a.buffer))
                ADD(",buffer=inf");
            else
                ADD(",buffer=%.17g", a.buffer);
        }
        if (!isnan(a.gbuf)) {
            if (isinf(a.gbuf))
                ADD(",gbuf=inf");
            else
                ADD(",gbuf=%.17g", a.gbuf);
        }
        if (a.count != d.count)
            ADD(",count=%.17g", a.count);
        if (a.damping != d.damping)
            ADD(",damping=%.17g", a.damping);
        if (a.tol != d.tol)
            ADD(",tol=%.17g", a.tol);
        if (a.max_iter != d.max_iter)
            ADD(",iter=%" PRId64, a.max_iter);
        if (a.start != d.start)
            ADD(",start=%s", start_names[a.start]);
        if (a.cand[0])
            ADD(",cand=%.64s", a.cand);
        if (a.thr != d.thr)
            ADD(",thr=%.17g", a.thr);
        if (a.gthr != d.gthr) {
            if (isinf(a.gthr))
                ADD(",gthr=inf");
            else
                ADD(",gthr=%.17g", a.gthr);
        }
        if (a.coef != d.coef)
            ADD(",coef=%.17g", a.coef);
        if (a.extra != d.extra)
            ADD(",extra=%.17g", a.extra);
        if (a.rate != d.rate)
            ADD(",rate=%.17g", a.rate);
        if (a.max_outer != d.max_outer)
            ADD(",outer=%" PRId64, a.max_outer);
#undef ADD
    }
    *out = a;
    return TK_OK;
}

static int is_dragonfly(const tk_graph_t *g)
{
    return g->group != NULL && tk_graph_class_index(g, "global") >= 0;
}

tk_status_t tk_adapt_candidates(const tk_adapt_t *a, const tk_graph_t *g, tk_route_spec_t *out,
                                tk_error_t *err)
{
    int df = is_dragonfly(g);
    if (needs_df(a->rule) && !df)
        return tk_error_set(err, TK_EUNSUPPORTED, "routing", 0,
                            "%s needs a Dragonfly (switch groups and a 'global' link class)",
                            rule_names[a->rule]);
    if (a->rule == TK_ADAPT_SRC_CRG || a->rule == TK_ADAPT_IT_CRG || a->rule == TK_ADAPT_IT_MM)
        return tk_route_parse("dragonfly-valiant-crg", out, err);
    if (a->rule == TK_ADAPT_POLAR)
        return tk_route_parse("polarized", out, err);
    if (a->rule == TK_ADAPT_SRC_RRG || a->rule == TK_ADAPT_IT_RRG)
        return tk_route_parse("dragonfly-valiant", out, err);
    const char *cand = a->cand[0] ? a->cand : df ? "dragonfly-valiant" : "valiant";
    if ((adapt_is_le(a->rule) || a->rule == TK_ADAPT_PAR) &&
        strncmp(cand, "dragonfly-valiant", 17) != 0)
        return tk_error_set(err, TK_EUNSUPPORTED, "routing", 0,
                            "%s needs the dragonfly-valiant candidates", rule_names[a->rule]);
    return tk_route_parse(cand, out, err);
}

const char *tk_adapt_step_name(tk_adapt_step_t s)
{
    static const char *const names[] = {"anderson", "damped",      "snap", "converged", "iter",
                                        "floor",    "oscillation", "bias", "outer"};
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "?";
}
