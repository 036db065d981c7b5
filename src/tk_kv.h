/*
 * tk_kv.h - KEY=VALUE parameter lists: the words after a topology family
 * (topo-gen(1)) or a pattern kind (topo-pattern(1)).  Every getter marks
 * its key as used, so that tk_kv_check_unused can reject unknown keys.
 * Error messages start with the key.
 */
#ifndef TK_KV_H
#define TK_KV_H

#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct tk_kv tk_kv_t;

/* Parse argv-style "KEY=VALUE" words.  TK_EINVAL for a word without '=', an
 * empty key, or a key given twice. */
TK_API tk_status_t tk_kv_parse(int argc, char *const argv[], tk_kv_t **out, tk_error_t *err);
TK_API void tk_kv_free(tk_kv_t *kv);
/* Is the key present? (does not mark it used) */
TK_API int tk_kv_has(const tk_kv_t *kv, const char *key);
/* Integer in [min, max].  If absent: *out = def when has_def, else TK_EINVAL
 * "missing parameter KEY".  Non-numeric, trailing junk or out of range:
 * TK_EINVAL / TK_ERANGE naming the key. */
TK_API tk_status_t tk_kv_int(tk_kv_t *kv, const char *key, int64_t min, int64_t max, int has_def,
                             int64_t def, int64_t *out, tk_error_t *err);
/* Comma-separated list of integers in [min, max], 1..maxcount entries.
 * *out is allocated (caller frees), *count set. */
TK_API tk_status_t tk_kv_int_list(tk_kv_t *kv, const char *key, int64_t min, int64_t max,
                                  int maxcount, int64_t **out, int *count, tk_error_t *err);
/* String value, or def (may be NULL) when absent and has_def. */
TK_API tk_status_t tk_kv_str(tk_kv_t *kv, const char *key, int has_def, const char *def,
                             const char **out, tk_error_t *err);
/* TK_EINVAL "KEY=VALUE: unknown parameter for WHAT" for the first unused
 * key; what names the family or pattern kind. */
TK_API tk_status_t tk_kv_check_unused(const tk_kv_t *kv, const char *what, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_KV_H */
