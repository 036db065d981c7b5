/*
 * kv.c - KEY=VALUE parameter lists (tk_kv.h): the specs of topo-gen's
 * families and of topo-pattern's kinds, with strict integer parsing.
 */
#include <config.h>

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv_internal.h"

typedef struct kv_entry {
    char *key;
    char *val;
    int used;
} kv_entry_t;

struct tk_kv {
    int n, cap;
    kv_entry_t *e;
};

void tk_kv_free(tk_kv_t *kv)
{
    int i;

    if (!kv)
        return;
    for (i = 0; i < kv->n; i++) {
        free(kv->e[i].key);
        free(kv->e[i].val);
    }
    free(kv->e);
    free(kv);
}

static kv_entry_t *find(const tk_kv_t *kv, const char *key)
{
    int i;

    for (i = 0; i < kv->n; i++)
        if (strcmp(kv->e[i].key, key) == 0)
            return &kv->e[i];
    return NULL;
}

/* Append key=val (copied); key and val need not be NUL-terminated at klen. */
static tk_status_t append(tk_kv_t *kv, const char *key, size_t klen, const char *val, int used,
                          tk_error_t *err)
{
    kv_entry_t *e;

    if (kv->n == kv->cap) {
        int cap = kv->cap ? 2 * kv->cap : 8;
        e = tk_realloc_array(kv->e, (size_t)cap, sizeof *e);
        if (!e)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        kv->e = e;
        kv->cap = cap;
    }
    e = &kv->e[kv->n];
    e->key = strndup(key, klen);
    e->val = strdup(val);
    e->used = used;
    if (!e->key || !e->val) {
        free(e->key);
        free(e->val);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    }
    kv->n++;
    return TK_OK;
}

/* Parse "KEY=VALUE" words.  O(argc^2) for the duplicate check (argc is
 * small).  Errors: TK_EINVAL (no '=', empty key, key given twice), TK_ENOMEM. */
tk_status_t tk_kv_parse(int argc, char *const argv[], tk_kv_t **out, tk_error_t *err)
{
    tk_kv_t *kv = calloc(1, sizeof *kv);
    tk_status_t st = TK_OK;
    int i;

    if (!kv)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (i = 0; i < argc; i++) {
        const char *w = argv[i], *eq = strchr(w, '=');
        size_t klen;
        int j;

        if (!eq) {
            st = tk_error_set(err, TK_EINVAL, NULL, 0, "'%s': expected KEY=VALUE", w);
            goto fail;
        }
        klen = (size_t)(eq - w);
        if (klen == 0) {
            st = tk_error_set(err, TK_EINVAL, NULL, 0, "'%s': empty key before '='", w);
            goto fail;
        }
        for (j = 0; j < kv->n; j++)
            if (strlen(kv->e[j].key) == klen && memcmp(kv->e[j].key, w, klen) == 0) {
                st = tk_error_set(err, TK_EINVAL, NULL, 0, "%.*s: parameter given twice", (int)klen,
                                  w);
                goto fail;
            }
        st = append(kv, w, klen, eq + 1, 0, err);
        if (st)
            goto fail;
    }
    *out = kv;
    return TK_OK;
fail:
    tk_kv_free(kv);
    return st;
}

int tk_kv_has(const tk_kv_t *kv, const char *key)
{
    return find(kv, key) != NULL;
}

tk_status_t tk_kv_append(tk_kv_t *kv, const char *key, const char *value, int used, tk_error_t *err)
{
    return append(kv, key, strlen(key), value, used, err);
}

tk_status_t tk_kv_set(tk_kv_t *kv, const char *key, const char *value, tk_error_t *err)
{
    kv_entry_t *e = find(kv, key);
    char *v;

    if (!e)
        return append(kv, key, strlen(key), value, 1, err);
    v = strdup(value);
    if (!v)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    free(e->val);
    e->val = v;
    e->used = 1;
    return TK_OK;
}

int tk_kv_count(const tk_kv_t *kv)
{
    return kv->n;
}

void tk_kv_entry(const tk_kv_t *kv, int i, const char **key, const char **value)
{
    *key = kv->e[i].key;
    *value = kv->e[i].val;
}

/* Strict decimal integer: optional sign, digits, nothing else.  Returns
 * TK_OK, TK_EINVAL (not an integer) or TK_ERANGE (beyond int64). */
static tk_status_t parse_i64(const char *s, int64_t *v)
{
    char *end;
    long long x;

    if (!*s || isspace((unsigned char)*s))
        return TK_EINVAL;
    errno = 0;
    x = strtoll(s, &end, 10);
    if (end == s || *end)
        return TK_EINVAL;
    if (errno == ERANGE)
        return TK_ERANGE;
    *v = (int64_t)x;
    return TK_OK;
}

/* Range message for KEY=VALUE (whole value) or for one list item. */
static tk_status_t range_error(const char *key, const char *val, const char *item, int64_t min,
                               int64_t max, tk_error_t *err)
{
    char what[64] = "";

    if (item)
        snprintf(what, sizeof what, "%s ", item);
    if (min == max)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%s: %smust be %lld", key, val, what,
                            (long long)min);
    if (max == INT64_MAX)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%s: %smust be at least %lld", key, val,
                            what, (long long)min);
    return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%s: %smust be between %lld and %lld", key, val,
                        what, (long long)min, (long long)max);
}

/* Integer value of key in [min, max].  O(keys). */
tk_status_t tk_kv_int(tk_kv_t *kv, const char *key, int64_t min, int64_t max, int has_def,
                      int64_t def, int64_t *out, tk_error_t *err)
{
    kv_entry_t *e = find(kv, key);
    int64_t v = 0;
    tk_status_t st;

    if (!e) {
        if (!has_def)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "missing parameter %s", key);
        *out = def;
        return TK_OK;
    }
    e->used = 1;
    st = parse_i64(e->val, &v);
    if (st == TK_EINVAL)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%s: not an integer", key, e->val);
    if (st == TK_ERANGE)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%s: out of range", key, e->val);
    if (v < min || v > max)
        return range_error(key, e->val, NULL, min, max, err);
    *out = v;
    return TK_OK;
}

/* Comma-separated integers in [min, max], 1..maxcount of them.  O(length). */
tk_status_t tk_kv_int_list(tk_kv_t *kv, const char *key, int64_t min, int64_t max, int maxcount,
                           int64_t **out, int *count, tk_error_t *err)
{
    kv_entry_t *e = find(kv, key);
    int64_t *v = NULL;
    char *copy = NULL, *p;
    tk_status_t st = TK_OK;
    int n = 0, cap = 1;

    if (!e)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "missing parameter %s", key);
    e->used = 1;
    for (p = e->val; *p; p++)
        cap += *p == ',';
    if (!*e->val)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s=: empty list", key);
    if (cap > maxcount)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%s: at most %d values", key, e->val,
                            maxcount);
    v = tk_malloc_array((size_t)cap, sizeof *v);
    copy = strdup(e->val);
    if (!v || !copy) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto fail;
    }
    p = copy;
    for (;;) {
        char *comma = strchr(p, ',');
        tk_status_t ps;

        if (comma)
            *comma = '\0';
        if (!*p) {
            st = tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%s: empty item in list", key, e->val);
            goto fail;
        }
        ps = parse_i64(p, &v[n]);
        if (ps == TK_EINVAL) {
            st = tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%s: '%s' is not an integer", key, e->val,
                              p);
            goto fail;
        }
        if (ps == TK_ERANGE) {
            st = tk_error_set(err, TK_ERANGE, NULL, 0, "%s=%s: '%s' is out of range", key, e->val,
                              p);
            goto fail;
        }
        if (v[n] < min || v[n] > max) {
            char item[40];
            snprintf(item, sizeof item, "%.30s", p);
            st = range_error(key, e->val, item, min, max, err);
            goto fail;
        }
        n++;
        if (!comma)
            break;
        p = comma + 1;
    }
    free(copy);
    *out = v;
    *count = n;
    return TK_OK;
fail:
    free(copy);
    free(v);
    return st;
}

tk_status_t tk_kv_str(tk_kv_t *kv, const char *key, int has_def, const char *def, const char **out,
                      tk_error_t *err)
{
    kv_entry_t *e = find(kv, key);

    if (!e) {
        if (!has_def)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "missing parameter %s", key);
        *out = def;
        return TK_OK;
    }
    e->used = 1;
    *out = e->val;
    return TK_OK;
}

tk_status_t tk_kv_check_unused(const tk_kv_t *kv, const char *what, tk_error_t *err)
{
    int i;

    for (i = 0; i < kv->n; i++)
        if (!kv->e[i].used)
            return tk_error_set(err, TK_EINVAL, NULL, 0, "%s=%s: unknown parameter for %s",
                                kv->e[i].key, kv->e[i].val, what);
    return TK_OK;
}
