/*
 * gen_internal.h - shared helpers of the topology generators (not installed).
 *
 * Error codes used by every family (tk_generate passes them on):
 *   TK_EINVAL  the command line is malformed: unknown family or key, missing
 *              key, a value that is not an integer, an empty list item.  The
 *              tool reports these as usage errors (exit 2).
 *   TK_ERANGE  a well-formed value that no graph of the family can have
 *              (zero sizes, odd n*d, d >= n, ...).
 *   TK_ELIMIT  the graph would not fit: ids beyond int32, more than
 *              TK_MAX_ARCS arcs, or above the memory limit.
 * Messages start with the parameter ("d=10: must be less than n=10").
 */
#ifndef TK_GEN_INTERNAL_H
#define TK_GEN_INTERNAL_H

#include "tk_gen.h"

/* Largest number of dimensions of the grid-like families. */
#define TKG_MAX_DIMS 32

/* Append a derived KEY=VALUE (already marked used) to kv, so that it shows in
 * the spec after the keys given on the command line; e.g. gdbg records
 * "loops=L".  Does nothing if the key is present. */
tk_status_t tkg_kv_add(tk_kv_t *kv, const char *key, const char *value, tk_error_t *err);
/* The same for an integer value. */
tk_status_t tkg_kv_add_int(tk_kv_t *kv, const char *key, int64_t value, tk_error_t *err);
/* " k=v k=v ..." for every key in order (given keys first, then derived
 * ones).  Returns a malloc'd string ("" when empty) or NULL without memory. */
/* " k=v k=v ...": the keys in the order of the family's synopsis (the
 * canonical order: equal specs compare equal however the keys were
 * given), then any other key in the order they were given or added. */
char *tkg_kv_format(const tk_kv_t *kv, const char *synopsis);
/* Whether the synopsis names KEY (" KEY=" or "[KEY="). */
int tkg_synopsis_has(const char *synopsis, const char *key);

/* Refuse graphs that cannot be represented or would not fit:
 * n > TK_MAX_SWITCHES or arcs > TK_MAX_ARCS (TK_ELIMIT), or
 * tk_graph_bytes(n, arcs) + extra > mem_limit when mem_limit != 0.
 * n and arcs may be negative to signal an overflow already detected.
 * `what` names the parameters in the message ("n=5 d=3"). */
tk_status_t tkg_check_size(const char *what, int64_t n, int64_t arcs, uint64_t extra,
                           uint64_t mem_limit, tk_error_t *err);

/* Set the spec (printf-style) and build; consumes b whatever happens. */
tk_status_t tkg_finish(tk_builder_t *b, tk_graph_t **g, tk_error_t *err, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* a*b, or -1 when it exceeds INT64_MAX (a, b >= 0). */
int64_t tkg_mul(int64_t a, int64_t b);
/* a^e, or -1 when it exceeds INT64_MAX (a >= 0, e >= 0). */
int64_t tkg_pow(int64_t a, int64_t e);

/* Family builders (kv -> graph), one per family, used by the table. */
tk_status_t tkg_build_rrg(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_gdbg(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_imase_itoh(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                 tk_error_t *err);
tk_status_t tkg_build_kautz(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_debruijn(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                               tk_error_t *err);
tk_status_t tkg_build_complete(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                               tk_error_t *err);
tk_status_t tkg_build_ring(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_hypercube(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                tk_error_t *err);
tk_status_t tkg_build_torus(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_mesh(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_hyperx(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);

tk_status_t tkg_build_dragonfly(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                tk_error_t *err);
tk_status_t tkg_build_dfplus(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_slimfly(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
tk_status_t tkg_build_projective(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g,
                                 tk_error_t *err);
tk_status_t tkg_build_fattree(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);

/* Dragonfly global-link arrangements (dragonfly.c; formulas in topo-gen(1)). */
enum {
    TKG_ARR_PALMTREE = TK_ARR_PALMTREE,
    TKG_ARR_ABSOLUTE = TK_ARR_ABSOLUTE,
    TKG_ARR_CIRCULANT = TK_ARR_CIRCULANT,
    TKG_ARR_RANDOM = TK_ARR_RANDOM,
    TKG_ARR_RELATIVE = TK_ARR_RELATIVE,
    TKG_ARR_LAST = TK_ARR_RELATIVE
};
/* Name of an arrangement ("palmtree", ...). */
const char *tkg_arrangement_name(int arr);
/* Read the optional key arrangement=NAME (default palmtree, recorded). */
tk_status_t tkg_arrangement(tk_kv_t *kv, int *arr, tk_error_t *err);
/* TK_ERANGE unless 2 <= g <= a*h + 1 and g*a*h is even; akey names a. */
tk_status_t tkg_check_groups(int64_t g, int64_t a, int64_t h, const char *akey, tk_error_t *err);
/* Add the global links of g groups with a global routers of h ports each:
 * router i of group j is switch j*stride + base + i.  Class cls. */
tk_status_t tkg_global_links(tk_builder_t *b, int64_t g, int64_t a, int64_t h, int64_t stride,
                             int64_t base, int arr, uint64_t seed, int cls, tk_error_t *err);

#endif /* TK_GEN_INTERNAL_H */
