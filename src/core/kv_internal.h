/*
 * kv_internal.h - the parameter lists' entries in order, for the generators'
 * spec (gen/common.c: derived keys, the recorded spec); not installed.
 */
#ifndef TK_KV_INTERNAL_H
#define TK_KV_INTERNAL_H

#include "tk_kv.h"

/* Append KEY=VALUE (both copied) after the entries already there, marked
 * used when `used`.  No duplicate check: see tk_kv_has.  TK_ENOMEM. */
tk_status_t tk_kv_append(tk_kv_t *kv, const char *key, const char *value, int used,
                         tk_error_t *err);
/* Replace the value of KEY (keeping its place), or append KEY=VALUE; the
 * entry is marked used.  TK_ENOMEM. */
tk_status_t tk_kv_set(tk_kv_t *kv, const char *key, const char *value, tk_error_t *err);
/* The number of entries, and entry i (0 <= i < count) in order: the parsed
 * words first, then the appended ones. */
int tk_kv_count(const tk_kv_t *kv);
void tk_kv_entry(const tk_kv_t *kv, int i, const char **key, const char **value);

#endif /* TK_KV_INTERNAL_H */
