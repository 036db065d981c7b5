/*
 * pattern_internal.h - helpers shared by the pattern sources (not installed).
 */
#ifndef TK_PATTERN_INTERNAL_H
#define TK_PATTERN_INTERNAL_H

#include <stdio.h>

#include "tk_core.h"
#include "tk_kv.h"
#include "tk_metric.h"
#include "tk_pattern.h"

/* What the public struct does not show: the form a pattern was read in and
 * what its compact forms need. */
struct tk_pattern_extra {
    tk_pattern_form_t form; /* as read (EXPLICIT for made patterns)        */
    int regenerable;        /* spec reproduces the demands on the topology
                               of `fingerprint` (tk_pattern_make)          */
    int has_checksum;       /* spec form: checksum line given              */
    uint64_t checksum;      /* spec form: tk_pattern_checksum of the file's  */
    int64_t declared;       /* spec form: the demands line                  */
    int bound;              /* spec form: expanded for bound_fp              */
    uint64_t bound_fp;
    long spec_line, servers_line; /* lines of the file (0: none)       */
    tk_id_t nsw;                  /* aggregate form: the servers line's switches  */
    int32_t *servers;             /* aggregate form: its counts (nsw)              */
};

/* p->extra, allocated on first use (NULL when out of memory). */
struct tk_pattern_extra *tkp_extra(tk_pattern_t *p);
/* Parse "fnv1a64:" and 16 hex digits. 0 ok, -1 malformed. */
int tkp_parse_hash(const char *s, uint64_t *v);

/* The header lines up to "endpoints" (and "form F" when form is not NULL);
 * the caller writes the rest of the header. */
void tkp_write_header(FILE *fp, const tk_pattern_t *p, const char *form);
/* The explicit body: one line per demand. */
void tkp_write_demands(FILE *fp, const tk_pattern_t *p);

/* Grow the demand array to hold len demands. */
tk_status_t tk_pattern_reserve(tk_pattern_t *p, int64_t len, tk_error_t *err);
/* Shortest "%.*g" that reads back as v. */
void tk_pattern_fmt_double(char *buf, size_t len, double v);
/* first[0..n]: prefix sums of the servers per switch (caller frees). */
tk_status_t tk_pattern_server_first(const tk_graph_t *g, int64_t **first, tk_error_t *err);
/* Switch of server i, from tk_pattern_server_first()'s prefix sums. */
tk_id_t tkp_server_switch(const int64_t *first, tk_id_t n, int64_t i);

/* State of one generator run (make.c). */
typedef struct tkp_mk {
    const tk_graph_t *g;
    tk_kv_t *kv;
    const char *kind;
    uint64_t seed;
    int threads;
    int randomized;    /* set by the generator: spec gets s=SEED      */
    char spec[1024];   /* "kind k=v ...", built by tkp_spec_add       */
    char results[256]; /* "k=v ..." of tkp_spec_result: what the run
                          found, not a parameter                    */
    int64_t nserv;     /* total servers                               */
    int64_t *first;    /* n+1 server prefix sums                      */
    tk_id_t *sw_of;    /* nserv: switch of each server (lazily built)  */
    tk_pattern_t *p;   /* the result                                  */
} tkp_mk_t;

/* Append " k=v" (printf-style) to the canonical spec. */
void tkp_spec_add(tkp_mk_t *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append " key=value" (printf-style value) to the canonical spec: a value
 * the generator found (random-shift's offset, longest-matching's total,
 * mixed's scale), not a parameter.  When the spec is expanded again
 * (tkp_make_spec), the file's key=value must equal it. */
void tkp_spec_result(tkp_mk_t *m, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* tk_pattern_make for a spec read back from a file: the result keys of
 * tkp_spec_result are accepted and must match. */
tk_status_t tkp_make_spec(const tk_graph_t *g, const char *kind, int nparams, char *const params[],
                          uint64_t seed, tk_pattern_t **out, tk_error_t *err);

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
