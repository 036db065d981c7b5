/*
 * pattern_internal.h - helpers shared by the pattern sources (not installed).
 */
#ifndef TK_PATTERN_INTERNAL_H
#define TK_PATTERN_INTERNAL_H

#include "tk_core.h"
#include "tk_kv.h"
#include "tk_metric.h"
#include "tk_pattern.h"

/* Grow the demand array to hold len demands. */
tk_status_t tk_pattern_reserve(tk_pattern_t *p, int64_t len, tk_error_t *err);
/* Shortest "%.*g" that reads back as v. */
void tk_pattern_fmt_double(char *buf, size_t len, double v);
/* first[0..n]: prefix sums of the servers per switch (caller frees). */
tk_status_t tk_pattern_server_first(const tk_graph_t *g, int64_t **first, tk_error_t *err);

/* State of one generator run (make.c). */
typedef struct tkp_mk {
    const tk_graph_t *g;
    tk_kv_t *kv;
    const char *kind;
    uint64_t seed;
    int threads;
    int randomized;  /* set by the generator: spec gets s=SEED      */
    char spec[1024]; /* "kind k=v ...", built by tkp_spec_add       */
    int64_t nserv;   /* total servers                               */
    int64_t *first;  /* n+1 server prefix sums                      */
    tk_id_t *sw_of;  /* nserv: switch of each server (lazily built)  */
    tk_pattern_t *p; /* the result                                  */
} tkp_mk_t;

/* Append " k=v" (printf-style) to the canonical spec. */
void tkp_spec_add(tkp_mk_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Create m->p at the given level (endpoints n or nserv); TK_EUNSUPPORTED
 * for server level on a topology without servers. */
tk_status_t tkp_begin(tkp_mk_t *m, tk_level_t level, tk_error_t *err);
/* Read "level=server|switch" (default def) into *level and the spec. */
tk_status_t tkp_level(tkp_mk_t *m, tk_level_t def, tk_level_t *level, tk_error_t *err);
/* Random permutation of 0..k-1 (Fisher-Yates) from stream (seed, task);
 * derange != 0 asks for a permutation without fixed points (k >= 2),
 * drawn uniformly by rejection. */
tk_status_t tkp_random_perm(uint64_t seed, uint64_t task, int64_t k, int derange, int64_t *perm,
                            tk_error_t *err);
/* Demands endpoint i -> map[i] (weight 1) for every i with map[i] >= 0 and
 * map[i] != i. */
tk_status_t tkp_add_map(tkp_mk_t *m, const int64_t *map, int64_t k, tk_error_t *err);
/* Switch-level map s -> map[s] expressed at the requested level: at server
 * level server j of s sends to server j mod p(t) of t (every server of t
 * receives at most ceil(p(s)/p(t)) ... only equal counts are admissible;
 * callers check). */
tk_status_t tkp_add_switch_map(tkp_mk_t *m, tk_level_t level, const int64_t *map, tk_error_t *err);

/* Run one kind (looked up by name) on m. */
tk_status_t tkp_run_kind(tkp_mk_t *m, const char *kind, tk_error_t *err);

/* Generators living in other files. */
typedef tk_status_t (*tkp_gen_fn)(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_perm_distance(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_longest_matching(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_tornado(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_transpose(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_dim_shift(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_bit_complement(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_adv(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_advr(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_advc(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_mixed(tkp_mk_t *m, tk_error_t *err);
tk_status_t tkp_gen_hotspot(tkp_mk_t *m, tk_error_t *err);

#endif /* TK_PATTERN_INTERNAL_H */
