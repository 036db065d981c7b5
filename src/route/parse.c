/*
 * parse.c - the text form of a routing model (tk_route_parse):
 *   NAME[:PARAM][,OPTION]...
 * What a model takes (its parameter, its options, hop lengths) comes from
 * its table of operations (RT_OPT_*).  The canonical text puts the model
 * first, then spread or the valiant option, then the hop lengths sorted
 * by class name.
 */
#include <config.h>

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "route/route_internal.h"

#define RT_MAX_WLEN 1000000
#define RT_MAX_PARAM 1000000

static int parse_pos(const char *s, int32_t *v)
{
    char *end;
    long long x;
    if (!isdigit((unsigned char)*s))
        return -1;
    x = strtoll(s, &end, 10);
    if (*end || x > INT32_MAX)
        return -1;
    *v = (int32_t)x;
    return 0;
}

/* The first token: NAME or NAME:PARAM. */
static tk_status_t parse_head(const char *text, char *tok, tk_route_spec_t *sp, tk_error_t *err)
{
    char *colon = strchr(tok, ':');
    if (colon)
        *colon = 0;
    const rt_model_t *m = rt_model_named(tok);
    if (!m)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "%s: unknown routing model '%s' (min, ecmp, ksp:K, "
                            "allpath:H, valiant, dragonfly-min, dragonfly-valiant, "
                            "dragonfly-valiant-crg, polarized, dor, valiant,dor, dragonfly-ugal, "
                            "dragonfly-par, dragonfly-olm)",
                            text, tok);
    sp->kind = m->kind;
    if (!(m->opts & (RT_OPT_K | RT_OPT_H))) {
        if (colon)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: %s takes no ':' parameter", text,
                                m->name);
        return TK_OK;
    }
    const char *what = m->opts & RT_OPT_K ? "K" : "H";
    int32_t v;
    if (!colon)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: %s needs :%s", text, m->name, what);
    if (parse_pos(colon + 1, &v) || v < 1 || v > RT_MAX_PARAM)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: %s must be an integer from 1 to %d", text,
                            what, RT_MAX_PARAM);
    if (m->opts & RT_OPT_K)
        sp->k = v;
    else
        sp->h = v;
    return TK_OK;
}

/* A word option: spread, or a valiant mode. */
static tk_status_t parse_word(const char *text, const char *tok, tk_route_spec_t *sp,
                              int *have_mode, tk_error_t *err)
{
    int opts = rt_model_of(sp->kind)->opts;
    if (strcmp(tok, "spread") == 0) {
        if (!(opts & RT_OPT_SPREAD))
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: option 'spread' is for ksp", text);
        if (sp->spread)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: 'spread' given twice", text);
        sp->spread = 1;
        return TK_OK;
    }
    if (strcmp(tok, "dor") == 0) { /* valiant,dor is a model of its own */
        if (sp->kind == TK_ROUTE_VALIANT_DOR)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: 'dor' given twice", text);
        if (sp->kind != TK_ROUTE_VALIANT)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: option 'dor' is for valiant", text);
        sp->kind = TK_ROUTE_VALIANT_DOR;
        return TK_OK;
    }
    tk_valiant_mode_t mode;
    if (strcmp(tok, "all") == 0)
        mode = TK_VALIANT_ALL;
    else if (strcmp(tok, "exclude") == 0)
        mode = TK_VALIANT_EXCLUDE;
    else if (strcmp(tok, "minfirst") == 0)
        mode = TK_VALIANT_MINFIRST;
    else if (strcmp(tok, "servers") == 0)
        mode = TK_VALIANT_SERVERS;
    else if (strcmp(tok, "early") == 0)
        mode = TK_VALIANT_EARLY;
    else
        return tk_error_set(
            err, TK_EINVAL, NULL, 0,
            "%s: unknown option '%s' (valiant takes all, exclude, "
            "minfirst, servers or early, ksp takes spread; hop lengths are CLASS=LEN)",
            text, tok);
    if (!(opts & RT_OPT_VALIANT))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: option '%s' is for valiant", text, tok);
    if (*have_mode)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: more than one valiant option", text);
    *have_mode = 1;
    sp->valiant = mode;
    return TK_OK;
}

/* A hop length CLASS=LEN (tok is cut at eq). */
static tk_status_t parse_weight(const char *text, char *tok, char *eq, tk_route_spec_t *sp,
                                tk_error_t *err)
{
    int32_t v;
    *eq = 0;
    if (!*tok || strlen(tok) >= TK_CLASS_NAME_MAX)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: bad class name '%s'", text, tok);
    if (parse_pos(eq + 1, &v) || v < 1 || v > RT_MAX_WLEN)
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "%s: %s=%s: hop length must be an integer from 1 to %d", text, tok,
                            eq + 1, RT_MAX_WLEN);
    const rt_model_t *m = rt_model_of(sp->kind);
    if (!(m->opts & RT_OPT_WEIGHTS))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "%s: hop lengths do not apply to %s (it counts hops)", text, m->name);
    for (int i = 0; i < sp->nweights; i++)
        if (strcmp(sp->wclass[i], tok) == 0)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: class '%s' given twice", text, tok);
    if (sp->nweights >= TK_MAX_CLASSES)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: too many classes", text);
    strcpy(sp->wclass[sp->nweights], tok);
    sp->wlen[sp->nweights] = v;
    sp->nweights++;
    return TK_OK;
}

static int wcmp(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Canonical text: model, ksp or valiant option, weights sorted by class. */
static tk_status_t canonical(const char *text, tk_route_spec_t *sp, tk_error_t *err)
{
    struct {
        char c[TK_CLASS_NAME_MAX];
        int32_t l;
    } w[TK_MAX_CLASSES];
    const rt_model_t *m = rt_model_of(sp->kind);
    size_t len;
    if (sp->kind == TK_ROUTE_VALIANT_DOR && sp->valiant == TK_VALIANT_EARLY)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: 'early' is not for valiant,dor", text);
    if (sp->nweights && !(m->opts & RT_OPT_WEIGHTS)) /* valiant,CLASS=LEN,dor */
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            "%s: hop lengths do not apply to %s (it counts hops)", text, m->name);
    for (int i = 0; i < sp->nweights; i++) {
        strcpy(w[i].c, sp->wclass[i]);
        w[i].l = sp->wlen[i];
    }
    qsort(w, (size_t)sp->nweights, sizeof w[0], wcmp);
    for (int i = 0; i < sp->nweights; i++) {
        strcpy(sp->wclass[i], w[i].c);
        sp->wlen[i] = w[i].l;
    }
    if (m->opts & RT_OPT_K)
        snprintf(sp->text, sizeof sp->text, "%s:%" PRId32, m->name, sp->k);
    else if (m->opts & RT_OPT_H)
        snprintf(sp->text, sizeof sp->text, "%s:%" PRId32, m->name, sp->h);
    else
        snprintf(sp->text, sizeof sp->text, "%s", m->name);
    len = strlen(sp->text);
    if (sp->spread)
        len += (size_t)snprintf(sp->text + len, sizeof sp->text - len, ",spread");
    if ((m->opts & RT_OPT_VALIANT) && sp->valiant != TK_VALIANT_ALL)
        len += (size_t)snprintf(sp->text + len, sizeof sp->text - len, ",%s",
                                sp->valiant == TK_VALIANT_EXCLUDE   ? "exclude"
                                : sp->valiant == TK_VALIANT_SERVERS ? "servers"
                                : sp->valiant == TK_VALIANT_EARLY   ? "early"
                                                                    : "minfirst");
    for (int i = 0; i < sp->nweights && len < sizeof sp->text; i++)
        len += (size_t)snprintf(sp->text + len, sizeof sp->text - len, ",%s=%" PRId32,
                                sp->wclass[i], sp->wlen[i]);
    if (len >= sizeof sp->text)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%.40s...: routing model text too long", text);
    return TK_OK;
}

tk_status_t tk_route_parse(const char *text, tk_route_spec_t *out, tk_error_t *err)
{
    tk_route_spec_t sp;
    char buf[TK_ROUTE_TEXT_MAX];
    char *tok, *save = NULL;
    int have_mode = 0;
    tk_status_t st = TK_OK;

    if (!text)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "routing model: missing");
    if (strlen(text) >= sizeof buf)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%.40s...: routing model text too long", text);
    if (!*text)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "routing model: empty");
    memset(&sp, 0, sizeof sp);
    strcpy(buf, text);
    if (buf[strlen(buf) - 1] == ',' || buf[0] == ',' || strstr(buf, ",,"))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: empty option", text);
    tok = strtok_r(buf, ",", &save);
    st = parse_head(text, tok, &sp, err);
    while (st == TK_OK && (tok = strtok_r(NULL, ",", &save)) != NULL) {
        char *eq = strchr(tok, '=');
        st = eq ? parse_weight(text, tok, eq, &sp, err)
                : parse_word(text, tok, &sp, &have_mode, err);
    }
    if (st == TK_OK)
        st = canonical(text, &sp, err);
    if (st == TK_OK)
        *out = sp;
    return st;
}

int tk_route_pathset_only(const tk_route_spec_t *spec)
{
    const rt_model_t *m = spec ? rt_model_of(spec->kind) : NULL;
    return m && m->pathset_only;
}
