/*
 * common.c - helpers shared by the families of the family table: derived
 * keys recorded in the spec, the spec's text, size checks, and the last
 * step of every build.
 */
#include <config.h>

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv_internal.h"
#include "gen_internal.h"

tk_status_t tkg_kv_add(tk_kv_t *kv, const char *key, const char *value, tk_error_t *err)
{
    if (tk_kv_has(kv, key))
        return TK_OK;
    return tk_kv_append(kv, key, value, 1, err);
}

tk_status_t tkg_kv_add_int(tk_kv_t *kv, const char *key, int64_t value, tk_error_t *err)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRId64, value);
    return tkg_kv_add(kv, key, buf, err);
}

/* Position of key in the synopsis ("dragonfly [a=2H] h=H ..."): the offset
 * of " key=" or "[key=", or a large number for a key it does not name. */
static size_t synopsis_rank(const char *synopsis, const char *key)
{
    size_t k = strlen(key);

    for (const char *p = synopsis; synopsis && *p; p++)
        if ((*p == ' ' || *p == '[') && strncmp(p + 1, key, k) == 0 && p[1 + k] == '=')
            return (size_t)(p - synopsis);
    return (size_t)-1;
}

int tkg_synopsis_has(const char *synopsis, const char *key)
{
    return synopsis_rank(synopsis, key) != (size_t)-1;
}

char *tkg_kv_format(const tk_kv_t *kv, const char *synopsis)
{
    size_t len = 1, pos = 0;
    const char *key, *val;
    char *s;
    int i, n = tk_kv_count(kv);
    int *order;

    for (i = 0; i < n; i++) {
        tk_kv_entry(kv, i, &key, &val);
        len += strlen(key) + strlen(val) + 2;
    }
    s = malloc(len);
    order = malloc((size_t)(n > 0 ? n : 1) * sizeof *order);
    if (!s || !order) {
        free(s);
        free(order);
        return NULL;
    }
    /* canonical order: the synopsis's, then the others as they came
     * (a stable insertion sort: a handful of keys) */
    for (i = 0; i < n; i++) {
        size_t ri;
        int j = i;
        tk_kv_entry(kv, i, &key, &val);
        ri = synopsis_rank(synopsis, key);
        while (j > 0) {
            const char *kj, *vj;
            tk_kv_entry(kv, order[j - 1], &kj, &vj);
            if (synopsis_rank(synopsis, kj) <= ri)
                break;
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
    s[0] = '\0';
    for (i = 0; i < n; i++) {
        tk_kv_entry(kv, order[i], &key, &val);
        pos += (size_t)snprintf(s + pos, len - pos, " %s=%s", key, val);
    }
    free(order);
    return s;
}

/* ------------------------------------------------------------------------ */
/* Size checks. */

int64_t tkg_mul(int64_t a, int64_t b)
{
    if (a < 0 || b < 0)
        return -1;
    if (a != 0 && b > INT64_MAX / a)
        return -1;
    return a * b;
}

int64_t tkg_pow(int64_t a, int64_t e)
{
    int64_t r = 1;

    if (a < 0 || e < 0)
        return -1;
    while (e-- > 0) {
        r = tkg_mul(r, a);
        if (r < 0)
            return -1;
    }
    return r;
}

tk_status_t tkg_check_size(const char *what, int64_t n, int64_t arcs, uint64_t extra,
                           uint64_t mem_limit, tk_error_t *err)
{
    uint64_t need;
    char b1[32], b2[32];

    if (n < 0 || n > TK_MAX_SWITCHES)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%s: more than %lld switches (switch ids are 32-bit)", what,
                            (long long)TK_MAX_SWITCHES);
    if (arcs < 0 || arcs > TK_MAX_ARCS)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "%s: more than %lld arcs", what,
                            (long long)TK_MAX_ARCS);
    need = tk_graph_bytes(n, arcs);
    need = need > UINT64_MAX - extra ? UINT64_MAX : need + extra;
    if (mem_limit && need > mem_limit) {
        tk_fmt_bytes(need, b1, sizeof b1);
        tk_fmt_bytes(mem_limit, b2, sizeof b2);
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "%s: needs about %s, above the memory limit of %s "
                            "(TOPOKIT_MEMORY_LIMIT)",
                            what, b1, b2);
    }
    return TK_OK;
}

tk_status_t tkg_finish(tk_builder_t *b, tk_graph_t **g, tk_error_t *err, const char *fmt, ...)
{
    char spec[1024];
    va_list ap;
    tk_status_t st;

    va_start(ap, fmt);
    vsnprintf(spec, sizeof spec, fmt, ap);
    va_end(ap);
    st = tk_builder_set_spec(b, spec, err);
    if (st) {
        tk_builder_free(b);
        return st;
    }
    return tk_builder_finish(b, g, err);
}
