/*
 * tk_core.h - topokit core: status codes, error record, graph type (CSR),
 * graph builder, random streams.
 *
 * Conventions (see HACKING.md):
 *  - Every fallible function returns tk_status_t; TK_OK is 0.  On failure it
 *    fills the caller's tk_error_t (which may be NULL) and leaves its outputs
 *    untouched or freed.  The library never prints and never exits.
 *  - Objects come in pairs: *_new/_free or *_init/_destroy.  The caller owns
 *    what a *_new returns.
 *  - No global mutable state: everything is reachable from arguments.
 */
#ifndef TK_CORE_H
#define TK_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

/* TK_API marks the public API: libtopokit is built with -fvisibility=hidden,
 * so only declarations carrying it are exported from the shared library.
 * Everything else (internal helpers shared between the library's files) is
 * hidden; the unit tests link the library's objects statically. */
#if defined(__GNUC__)
#define TK_API __attribute__((visibility("default")))
#else
#define TK_API
#endif

/* ------------------------------------------------------------------------ */
/* Status codes and the error record.                                       */

typedef enum tk_status {
    TK_OK = 0,
    TK_EOF,           /* end of a stream: no more graphs (not an error)     */
    TK_EINVAL,        /* invalid argument or parameter                      */
    TK_ENOMEM,        /* allocation failed                                  */
    TK_ELIMIT,        /* size refused up front (too large for memory/types) */
    TK_EIO,           /* read/write failure                                 */
    TK_EFORMAT,       /* malformed input                                    */
    TK_ERANGE,        /* id or value out of range                           */
    TK_EDISCONNECTED, /* graph is not (strongly) connected                  */
    TK_EUNSUPPORTED,  /* valid request this object cannot satisfy           */
    TK_EINTERNAL      /* bug: an invariant failed                           */
} tk_status_t;

/* Error record.  `where` is an input name (file or "-" / "<stdin>") or a
 * parameter name; `line` is 1-based, 0 when not about a line. */
#define TK_ERRMSG_MAX 512
#define TK_ERRWHERE_MAX 256
typedef struct tk_error {
    tk_status_t code;
    long line;
    char where[TK_ERRWHERE_MAX];
    char msg[TK_ERRMSG_MAX];
} tk_error_t;

/* Clear an error record (code TK_OK, empty strings).  err may be NULL. */
TK_API void tk_error_clear(tk_error_t *err);

/* Fill err (if not NULL) and return code.  where may be NULL.  Printf-style.
 * Typical use:  return tk_error_set(err, TK_EFORMAT, name, line, "bad id '%s'", tok); */
TK_API tk_status_t tk_error_set(tk_error_t *err, tk_status_t code, const char *where, long line,
                                const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* Library version string, e.g. "0.1.0". */
TK_API const char *tk_version(void);

/* Short English name of a status code ("out of memory", ...). */
TK_API const char *tk_status_str(tk_status_t code);

/* ------------------------------------------------------------------------ */
/* Memory helpers: overflow-checked sizes.  All return NULL on failure or
 * overflow; callers turn that into TK_ENOMEM / TK_ELIMIT. */
TK_API void *tk_malloc_array(size_t count, size_t size);
TK_API void *tk_calloc_array(size_t count, size_t size);
TK_API void *tk_realloc_array(void *p, size_t count, size_t size);
/* Resize in place: pp points at an array pointer (of any object type),
 * which becomes count elements of size bytes; on failure it is unchanged
 * and -1 is returned (0 on success).  For growing parallel arrays:
 * `if (tk_resize_array(&a, n, sizeof *a) || tk_resize_array(&b, ...))`. */
TK_API int tk_resize_array(void *pp, size_t count, size_t size);

/* Largest switch count and arc count accepted anywhere (ids are int32). */
#define TK_MAX_SWITCHES ((int64_t)INT32_MAX - 1)
#define TK_MAX_ARCS ((int64_t)1 << 40)

/* Refuse, before allocating, a graph whose CSR would need more than this many
 * bytes.  Default: the machine's physical memory; 0 means no limit.  The
 * value can be overridden with the environment variable TOPOKIT_MEMORY_LIMIT
 * (bytes, suffixes K/M/G/T) read by the tools, and passed in explicitly. */
TK_API uint64_t tk_memory_limit_default(void);
/* The memory the kernel could give this process now without swapping
 * (Linux: MemAvailable of /proc/meminfo), in bytes; 0 when unknown.  For
 * sizes known only while building (tk_memory_limit_default() is the
 * whole machine, which a build that reaches it never gets). */
TK_API uint64_t tk_memory_available(void);
/* Bytes needed by a CSR graph of n switches and m arcs (with reverse arc
 * index, class and capacity arrays). */
TK_API uint64_t tk_graph_bytes(int64_t n, int64_t m);
/* b bytes for a message: "120 GiB", "1.5 MiB", "512 bytes". */
TK_API void tk_fmt_bytes(uint64_t b, char *buf, size_t len);

/* ------------------------------------------------------------------------ */
/* Graph (switch-level topology).
 *
 * Compressed sparse rows of directed arcs.  The out-arcs of switch u are the
 * arc indices off[u] .. off[u+1]-1; head[a] is the switch arc a points to.
 * Arcs of a switch are sorted by head, then class, then capacity.
 *
 * Undirected graphs are stored as symmetric arc pairs: every link u-v is the
 * two arcs u->v and v->u, and rev[a] is the index of the partner arc.  A
 * self-loop of an undirected graph is two arcs u->u paired with each other,
 * so it adds 2 to the degree (the graph-theoretic convention) and every link
 * is exactly two arcs.  Parallel links are separate arc pairs.
 *
 * Directed graphs have rev == NULL; a self-loop is one arc.
 *
 * Servers: `servers` (per switch, may be NULL) or the uniform `servers_uniform`.
 * Links carry a class (index into class_name[], class 0 is "-" meaning
 * unlabelled) and a capacity (cap, NULL meaning 1 for every arc).
 * Optional per-switch group id (group, NULL if absent) and coordinates
 * (coord, n*ncoord ints, NULL if absent).
 * `spec` records how the graph was made, e.g. "rrg n=1024 d=24 s=1".
 */
typedef int32_t tk_id_t;

#define TK_MAX_CLASSES 64
#define TK_CLASS_NAME_MAX 32

typedef struct tk_graph {
    tk_id_t n;     /* number of switches                         */
    int64_t m;     /* number of arcs                             */
    int directed;  /* 1 directed, 0 undirected (symmetric pairs) */
    int64_t *off;  /* n+1 offsets                                */
    tk_id_t *head; /* m heads                                    */
    int64_t *rev;  /* m partner arcs (undirected only) or NULL   */
    uint8_t *cls;  /* m class indices or NULL (all class 0)      */
    double *cap;   /* m capacities or NULL (all 1)               */
    int nclasses;  /* entries used in class_name (>= 1)          */
    char class_name[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    int32_t servers_uniform; /* servers per switch when servers == NULL   */
    int32_t *servers;        /* n server counts or NULL                    */
    int32_t *group;          /* n group ids or NULL                        */
    int ncoord;              /* coordinates per switch (0 if none)         */
    int32_t *coord;          /* n*ncoord coordinates or NULL               */
    char *spec;              /* how it was made; never NULL after build    */
} tk_graph_t;

/* Free a graph and everything it owns.  g may be NULL. */
TK_API void tk_graph_free(tk_graph_t *g);

/* Deep copy. */
TK_API tk_status_t tk_graph_copy(const tk_graph_t *g, tk_graph_t **out, tk_error_t *err);

/* Out-degree of u (arcs, so an undirected self-loop counts 2). */
static inline int64_t tk_graph_degree(const tk_graph_t *g, tk_id_t u)
{
    return g->off[u + 1] - g->off[u];
}

/* Number of links: arcs for directed graphs, arcs/2 for undirected ones. */
TK_API int64_t tk_graph_links(const tk_graph_t *g);
/* Number of self-loop links. */
TK_API int64_t tk_graph_loops(const tk_graph_t *g);
/* Number of links that repeat an earlier link between the same ordered pair
 * (directed) or unordered pair (undirected): 0 for a simple graph. */
TK_API int64_t tk_graph_parallel(const tk_graph_t *g);
/* Servers at switch u, and total servers. */
static inline int32_t tk_graph_servers(const tk_graph_t *g, tk_id_t u)
{
    return g->servers ? g->servers[u] : g->servers_uniform;
}
TK_API int64_t tk_graph_total_servers(const tk_graph_t *g);
/* Capacity of arc a. */
static inline double tk_graph_cap(const tk_graph_t *g, int64_t a)
{
    return g->cap ? g->cap[a] : 1.0;
}
/* Degree if every switch has the same out-degree (and in-degree for directed
 * graphs), else -1. */
TK_API int64_t tk_graph_regular_degree(const tk_graph_t *g);
/* Is there an arc u->v?  O(log deg). */
TK_API int tk_graph_has_arc(const tk_graph_t *g, tk_id_t u, tk_id_t v);
/* Look up a class by name; returns its index or -1. */
TK_API int tk_graph_class_index(const tk_graph_t *g, const char *name);

/* Full consistency check (offsets, ids, sorting, symmetry and partner arcs of
 * undirected graphs, attribute ranges).  O(n + m). */
TK_API tk_status_t tk_graph_validate(const tk_graph_t *g, tk_error_t *err);

/* Replace the spec string. */
TK_API tk_status_t tk_graph_set_spec(tk_graph_t *g, const char *spec, tk_error_t *err);

/* Structural equality (n, directedness, arcs with class names and
 * capacities, servers, groups, coordinates); the spec is not compared. */
TK_API int tk_graph_equal(const tk_graph_t *a, const tk_graph_t *b);

/* In-arc view for directed graphs: CSR of reversed arcs.  For undirected
 * graphs the graph is its own reverse.  Caller frees with tk_graph_free. */
TK_API tk_status_t tk_graph_reverse(const tk_graph_t *g, tk_graph_t **out, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Builder: collect links, then build a validated CSR graph.
 *
 *   tk_builder_t *b;
 *   tk_builder_new(&b, n, directed, err);
 *   tk_builder_add(b, u, v, err);              // class "-" capacity 1
 *   tk_builder_add_ex(b, u, v, cls, cap, err); // cls from tk_builder_class
 *   tk_builder_finish(b, &g, err);             // b is consumed either way
 *
 * Memory: 16 bytes per link while building.  Errors: TK_ERANGE for ids out
 * of range, TK_EINVAL for bad capacities or too many classes. */
typedef struct tk_builder tk_builder_t;

TK_API tk_status_t tk_builder_new(tk_builder_t **out, int64_t n, int directed, tk_error_t *err);
/* Hint the number of links to avoid reallocations. */
TK_API tk_status_t tk_builder_reserve(tk_builder_t *b, int64_t links, tk_error_t *err);
TK_API tk_status_t tk_builder_add(tk_builder_t *b, int64_t u, int64_t v, tk_error_t *err);
TK_API tk_status_t tk_builder_add_ex(tk_builder_t *b, int64_t u, int64_t v, int cls, double cap,
                                     tk_error_t *err);
/* Index of class `name`, adding it if new (at most TK_MAX_CLASSES). */
TK_API tk_status_t tk_builder_class(tk_builder_t *b, const char *name, int *cls, tk_error_t *err);
TK_API tk_status_t tk_builder_set_servers_uniform(tk_builder_t *b, int32_t p, tk_error_t *err);
TK_API tk_status_t tk_builder_set_servers(tk_builder_t *b, int64_t u, int32_t p, tk_error_t *err);
TK_API tk_status_t tk_builder_set_group(tk_builder_t *b, int64_t u, int32_t group, tk_error_t *err);
/* Declare ncoord coordinates per switch (once), then set them per switch. */
TK_API tk_status_t tk_builder_set_ncoord(tk_builder_t *b, int ncoord, tk_error_t *err);
TK_API tk_status_t tk_builder_set_coord(tk_builder_t *b, int64_t u, const int32_t *coord,
                                        tk_error_t *err);
/* The spec; TK_EFORMAT when it contains '#' (no graph may have a spec the
 * native format cannot write). */
TK_API tk_status_t tk_builder_set_spec(tk_builder_t *b, const char *spec, tk_error_t *err);
/* Number of links added so far. */
TK_API int64_t tk_builder_links(const tk_builder_t *b);
/* Build the graph.  Consumes (frees) the builder whatever the outcome. */
TK_API tk_status_t tk_builder_finish(tk_builder_t *b, tk_graph_t **out, tk_error_t *err);
/* Free a builder without building.  b may be NULL. */
TK_API void tk_builder_free(tk_builder_t *b);

/* ------------------------------------------------------------------------ */
/* Random streams.
 *
 * Every random choice comes from a stream derived from (seed, task): the
 * stream for task t does not depend on how many other tasks exist or which
 * thread runs it, so results never depend on the thread count.  Backed by
 * GSL's MT19937 seeded from a SplitMix64 hash of (seed, task). */
typedef struct tk_rng tk_rng_t;

TK_API tk_status_t tk_rng_new(tk_rng_t **out, uint64_t seed, uint64_t task, tk_error_t *err);
TK_API void tk_rng_free(tk_rng_t *r);
/* Uniform integer in [0, n), n >= 1 (any 64-bit n, unbiased). */
TK_API uint64_t tk_rng_below(tk_rng_t *r, uint64_t n);
/* Uniform double in [0, 1). */
TK_API double tk_rng_uniform(tk_rng_t *r);
/* The underlying gsl_rng (for GSL distributions).  Returns gsl_rng *. */
TK_API void *tk_rng_gsl(tk_rng_t *r);
/* SplitMix64 finaliser, exposed for deriving sub-seeds. */
TK_API uint64_t tk_mix64(uint64_t x);

/* ------------------------------------------------------------------------ */
/* Progress of long computations.
 *
 * A caller that wants to watch a long loop fills a tk_progress_t (fn, arg,
 * optionally clock and interval), starts each phase with
 * tk_progress_begin and passes the struct down (an option field, a job's
 * `progress`); the loop calls tk_progress_add(p, units) as work units
 * finish, from any thread.  At most once per `interval` seconds one thread
 * (the one that wins an atomic flag; the others return at once) calls fn
 * with a snapshot; tk_progress_end makes the final call.  The library only
 * counts: fn does any printing.  Watching never changes what is computed:
 * the counter is separate from the computation's state.  Cost of an add:
 * one atomic addition and one clock read.  Every function accepts
 * p == NULL and then does nothing. */
typedef struct tk_progress_state {
    const char *what; /* the phase, e.g. "distances"                         */
    const char *unit; /* what is counted, e.g. "sources"                     */
    int64_t done;     /* units finished                                      */
    int64_t total;    /* units of the phase; <= 0 when unknown               */
    double elapsed;   /* seconds since tk_progress_begin                     */
    double rate;      /* done / elapsed; 0 before any time has passed        */
    double percent;   /* 100 * done / total in [0, 100]; -1 if total unknown */
    double eta;       /* seconds left at the current rate; -1 if unknown     */
    int final;        /* 1 on tk_progress_end's call                         */
} tk_progress_state_t;

typedef struct tk_progress {
    void (*fn)(void *arg, const tk_progress_state_t *s); /* the reporter     */
    void *arg;
    double (*clock)(void *arg); /* seconds (NULL: the monotonic clock); gets
                                   clock_arg                                 */
    void *clock_arg;
    double interval; /* seconds between reports (0: 0.1)                     */
    /* Private: set by tk_progress_begin. */
    const char *what, *unit;
    int64_t total, done;
    double t0, next;
    int busy, active;
} tk_progress_t;

/* Start a phase of `total` units (<= 0: unknown); resets the counter and
 * the clock.  Single-threaded (call it outside parallel regions). */
TK_API void tk_progress_begin(tk_progress_t *p, const char *what, const char *unit, int64_t total);
/* `units` more units done (thread-safe); reports when the interval passed. */
TK_API void tk_progress_add(tk_progress_t *p, int64_t units);
/* The total of the current phase, when it is known only after the start
 * (<= 0: unknown).  Single-threaded. */
TK_API void tk_progress_set_total(tk_progress_t *p, int64_t total);
/* Set the count of the current phase to `done` units (for loops that know
 * how far they are rather than how much they did since the last call);
 * reports like tk_progress_add.  Single-threaded. */
TK_API void tk_progress_set(tk_progress_t *p, int64_t done);
/* End the phase: one final report (done as counted; with a known total
 * the caller has usually counted every unit).  Single-threaded. */
TK_API void tk_progress_end(tk_progress_t *p);
/* The snapshot of p at time `now` (what fn receives): rate, percentage and
 * ETA arithmetic.  Exposed for tests. */
TK_API void tk_progress_state(const tk_progress_t *p, double now, int final,
                              tk_progress_state_t *out);

#ifdef __cplusplus
}
#endif

#endif /* TK_CORE_H */
