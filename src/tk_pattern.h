/*
 * tk_pattern.h - traffic patterns: demand lists at switch or server level,
 * the pattern file format, validation, aggregation to switch-level demands
 * in link-capacity units, and the pattern generators of topo-pattern(1).
 *
 * Endpoints.  A switch-level pattern's endpoints are the switches 0..n-1.
 * A server-level pattern's endpoints are the servers 0..N-1 numbered
 * switch-major: the servers of switch 0 first, then those of switch 1, ...
 * (server j of switch u is first[u] + j, first[] the prefix sums of the
 * per-switch server counts).
 *
 * Units (topokit(7)).  A demand's weight is in units of its source
 * endpoint's injection speed at offered load 1: a server injects at most 1
 * (one link's speed); a switch-level endpoint stands for all the servers of
 * its switch together, so weight w from switch s is w * p(s) link-capacity
 * units, where p(s) is the number of servers at s (a switch with no servers
 * counts as one endpoint of speed 1: the one node per switch of Faizian et
 * al., "Random Regular Graph and Generalized De Bruijn Graph with
 * k-shortest Path Routing").  A pattern is admissible when every endpoint
 * sends at most 1 and receives at most 1 in these units.
 */
#ifndef TK_PATTERN_H
#define TK_PATTERN_H

#include <stdio.h>

#include "tk_core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tk_level { TK_LEVEL_SWITCH = 0, TK_LEVEL_SERVER = 1 } tk_level_t;

/* One demand: endpoint src sends w (> 0) to endpoint dst. */
typedef struct tk_demand {
    int64_t src;
    int64_t dst;
    double w;
} tk_demand_t;

/* Forms of a pattern file (topokit-formats(5)): the demand lines, the
 * generator spec the reader expands, or per-switch aggregate lines. */
typedef enum tk_pattern_form {
    TK_PATTERN_AUTO = 0, /* writer: the smallest exact form (see tk_pattern_write_form) */
    TK_PATTERN_EXPLICIT = 1,
    TK_PATTERN_SPEC = 2,
    TK_PATTERN_AGGREGATE = 3
} tk_pattern_form_t;

struct tk_pattern_extra; /* internal: how the pattern was read or made */

typedef struct tk_pattern {
    tk_level_t level;
    int64_t endpoints;              /* switches (level switch) or servers (level server) */
    int64_t len;                    /* demands used                                      */
    int64_t alloc;                  /* demands allocated                                 */
    tk_demand_t *d;                 /* the demands, in the order added / read            */
    char *spec;                     /* how it was made, e.g. "adv i=1 s=3"; never NULL  */
    char *topology;                 /* spec of the topology it was made for; never NULL
                                       (may be "")                                      */
    int has_fingerprint;            /* 0: made for an unknown topology (old files)    */
    uint64_t fingerprint;           /* tk_pattern_fingerprint of that topology        */
    struct tk_pattern_extra *extra; /* NULL, or internal state (form)      */
} tk_pattern_t;

/* New empty pattern.  spec and topology may be NULL (stored as ""). */
TK_API tk_status_t tk_pattern_new(tk_pattern_t **out, tk_level_t level, int64_t endpoints,
                                  const char *spec, const char *topology, tk_error_t *err);
TK_API void tk_pattern_free(tk_pattern_t *p);

/* Append a demand.  Errors: TK_ERANGE (id outside 0..endpoints-1),
 * TK_EINVAL (w not finite or <= 0), TK_ENOMEM. */
TK_API tk_status_t tk_pattern_add(tk_pattern_t *p, int64_t src, int64_t dst, double w,
                                  tk_error_t *err);

/* Read one pattern file (format in topokit-formats(5)).  name is used in
 * error messages (file:line).  A spec-form file has no demands until
 * tk_pattern_bind expands it; an aggregate-form file is expanded here.  Errors: TK_EFORMAT,
 * TK_ERANGE, TK_EIO, TK_ENOMEM, TK_ELIMIT. */
TK_API tk_status_t tk_pattern_read(FILE *fp, const char *name, tk_pattern_t **out, tk_error_t *err);

/* Write a pattern file in the explicit form (one line per demand).
 * Weights are printed as the shortest decimal that reads back as the same
 * double; a weight of exactly 1 is omitted. */
TK_API tk_status_t tk_pattern_write(FILE *fp, const tk_pattern_t *p, tk_error_t *err);

/* The topology fingerprint of topokit-formats(5): 64-bit FNV-1a over a
 * text listing n, directedness, the server counts and the sorted links
 * (u v class capacity).  Time O(m log d), memory O(max degree).
 * Errors: TK_ENOMEM. */
TK_API tk_status_t tk_pattern_fingerprint(const tk_graph_t *g, uint64_t *out, tk_error_t *err);

/* Stamp p as made for g: its topology spec and fingerprint.  Errors:
 * TK_ENOMEM. */
TK_API tk_status_t tk_pattern_set_topology(tk_pattern_t *p, const tk_graph_t *g, tk_error_t *err);

/* FNV-1a (64 bits) over the demand list in order: per demand src and dst as
 * 8-byte little-endian integers, then w's IEEE-754 binary64 bits as 8
 * little-endian bytes (topokit-formats(5), the checksum line). */
TK_API uint64_t tk_pattern_checksum(const tk_pattern_t *p);

/* Prepare a pattern read from a file for topology g, before any use with
 * g: (1) when the file carries a fingerprint, refuse a topology with another
 * one (TK_EINVAL, the message names both specs and fingerprints) unless
 * flags has TK_PATTERN_FORCE; (2) a spec-form file is expanded by running
 * its generator on g (again when bound to another topology); its declared
 * demand count and checksum must match (unless forced onto another
 * topology), else TK_EFORMAT; (3) an aggregate-form file's server counts
 * must be g's (TK_EINVAL, even when forced).  `where` names the file in
 * messages.  First of all the endpoint count must be g's (TK_EINVAL, even
 * when forced).  Explicit files only get that and (1).  Time: that of the generator for
 * the spec form, O(m log d) otherwise. */
#define TK_PATTERN_FORCE 1u
TK_API tk_status_t tk_pattern_bind(tk_pattern_t *p, const tk_graph_t *g, unsigned flags,
                                   const char *where, tk_error_t *err);

/* Write p in the given form (topokit-formats(5)).  TK_PATTERN_AUTO picks
 * the explicit form for patterns of at most TK_PATTERN_SMALL demands, else
 * the spec form when p was made by tk_pattern_make (or read in spec form),
 * else the aggregate form when it represents p exactly and is shorter, else
 * the explicit form.  g is the topology p is checked against (used by the
 * aggregate form; may be NULL for the others).  *used (may be NULL) gets
 * the form written.  Errors: TK_EUNSUPPORTED (a form asked for that cannot
 * represent p exactly), TK_EIO, TK_ENOMEM.  Time O(len). */
#define TK_PATTERN_SMALL 4096
TK_API tk_status_t tk_pattern_write_form(FILE *fp, const tk_pattern_t *p, const tk_graph_t *g,
                                         tk_pattern_form_t form, tk_pattern_form_t *used,
                                         tk_error_t *err);

/* Check a pattern against a topology: endpoint count (n, or the total
 * number of servers), ids, admissibility (every endpoint sends at most 1
 * and receives at most 1, with a relative tolerance of 1e-9).  `where` names
 * the pattern in messages.  Errors: TK_EINVAL (also for a spec-form file
 * not expanded by tk_pattern_bind), TK_ERANGE. */
TK_API tk_status_t tk_pattern_check(const tk_pattern_t *p, const tk_graph_t *g, const char *where,
                                    tk_error_t *err);

/* Switch-level demands in link-capacity units at offered load 1, compressed
 * by source: the demands of switch s are dst[off[s] .. off[s+1]-1] with
 * weights w[...], sorted by destination, merged (one entry per ordered
 * pair), never s -> s.  Demands between two servers of one switch never
 * enter the network; their total is `local`.  inject[s] / eject[s] are the
 * largest total any single endpoint at switch s sends / receives (in the
 * endpoint's own units: the per-server injection and ejection limits of
 * topo-mcf(1)). */
typedef struct tk_swdemand {
    tk_id_t n;
    int64_t len;    /* entries                                     */
    int64_t *off;   /* n+1                                          */
    tk_id_t *dst;   /* len                                          */
    double *w;      /* len, link-capacity units                     */
    double total;   /* sum of w                                     */
    double local;   /* same-switch demand that never enters a link  */
    double *inject; /* n: largest endpoint send total at switch s    */
    double *eject;  /* n: largest endpoint receive total at switch s */
} tk_swdemand_t;

/* Aggregate a pattern (checked against g first) to switch-level demands.
 * Free with tk_swdemand_destroy.  Time O(len log len + n). */
TK_API tk_status_t tk_pattern_to_switch(const tk_pattern_t *p, const tk_graph_t *g,
                                        tk_swdemand_t *out, tk_error_t *err);
/* The switch-level all-to-all of topo-load(1)'s default: one unit from every
 * switch to every other switch (not scaled by servers).  Memory O(n^2):
 * refused with TK_ELIMIT beyond the memory limit `mem_limit` (0 = none). */
TK_API tk_status_t tk_swdemand_all_to_all(const tk_graph_t *g, uint64_t mem_limit,
                                          tk_swdemand_t *out, tk_error_t *err);
/* The uniform pattern, the default of topo-load(1), topo-mcf(1) and the
 * "uniform" of topo-antmill(1), in link-capacity units: the server-level
 * uniform of tk_pattern_make's "uniform" (every server sends 1 spread
 * evenly over the servers of the other switches: switch s sends
 * p(s) p(t) / (N - p(s)) to switch t, N the servers in all; switches
 * without servers send and receive nothing), or, on a graph with no
 * servers at all, one endpoint per switch (1/(n-1) to every other switch).
 * inject[s] is 1 at every switch with servers, eject[t] what one of its
 * servers receives.  Memory O(n^2): refused with TK_ELIMIT beyond
 * mem_limit (0 = none); TK_EINVAL with fewer than 2 switches with
 * servers. */
TK_API tk_status_t tk_swdemand_uniform(const tk_graph_t *g, uint64_t mem_limit, tk_swdemand_t *out,
                                       tk_error_t *err);
/* Free the arrays of a demand set (from tk_pattern_to_switch,
 * tk_swdemand_all_to_all or tk_mcf_uniform, or built by hand with malloc)
 * and zero it.  d may be NULL. */
TK_API void tk_swdemand_destroy(tk_swdemand_t *d);

/* ------------------------------------------------------------------------ */
/* Generators (topo-pattern(1)).  kind is a pattern name ("uniform", "adv",
 * ...), params its KEY=VALUE words (argc/argv style), seed the -s seed of
 * randomized kinds.  The result's spec is the canonical "kind k=v ... s=S".
 * Errors: TK_EINVAL (unknown kind or key, bad value: where = NULL and the
 * message starts with the parameter), TK_EUNSUPPORTED (the topology lacks
 * what the kind needs, e.g. groups for adv, or no permutation at distance
 * lambda exists), TK_ELIMIT, TK_ENOMEM. */
TK_API tk_status_t tk_pattern_make(const tk_graph_t *g, const char *kind, int nparams,
                                   char *const params[], uint64_t seed, int threads,
                                   tk_pattern_t **out, tk_error_t *err);

/* Names of the pattern kinds, NULL-terminated. */
TK_API const char *const *tk_pattern_kinds(void);

/* ------------------------------------------------------------------------ */
/* Jobs (topo-job(1)): an application of J ranks placed on J servers of the
 * machine, its communication mapped through the placement (rank r -> its
 * server) to a server-level pattern.  Definitions, units and the
 * normalisation in topo-job(1) and topokit(7) JOBS. */

typedef enum tk_place {
    TK_PLACE_CONSECUTIVE = 0, /* free servers in id order from `start`          */
    TK_PLACE_RANDOM = 1,      /* J of the free servers in a seeded random order */
    TK_PLACE_SPREAD = 2,      /* round-robin over the groups                      */
    TK_PLACE_LIST = 3         /* the servers of a file (tk_job_read_servers)      */
} tk_place_t;

typedef enum tk_app {
    TK_APP_ALL_TO_ALL = 0, /* every rank sends S to every other rank            */
    TK_APP_STENCIL = 1,    /* nearest neighbours on the process grid             */
    TK_APP_RING = 2,       /* ring allreduce: 2(J-1)/J S to the next rank        */
    TK_APP_RD = 3,         /* recursive-doubling allreduce (fold when J != 2^k)  */
    TK_APP_PERM = 4,       /* a seeded random derangement of the ranks           */
    TK_APP_LIST = 5        /* the rank rank bytes lines of a file                */
} tk_app_t;

/* One job, filled by tk_job_parse (and the two readers); release with
 * tk_job_destroy. */
typedef struct tk_job {
    int64_t ranks; /* J >= 2                                                  */
    tk_place_t place;
    int64_t start;      /* consecutive: the first server id considered  */
    int64_t *servers;   /* TK_PLACE_LIST: J server ids (file order)      */
    long *servers_line; /* their lines in the file                      */
    char *servers_name; /* the file's name (messages)                   */
    tk_app_t app;
    int dims;          /* stencil: 1..3                                 */
    int64_t grid[3];   /* stencil: the process grid, last index fastest */
    int wrap;          /* stencil: periodic boundaries (default 0)      */
    double bytes;      /* S: the message (or allreduce vector) size     */
    double rate;       /* offered load of the job's busiest server      */
    tk_demand_t *comm; /* TK_APP_LIST: rank-level demands (bytes)        */
    int64_t ncomm;
    char *servers_path; /* servers=FILE of the spec (NULL if absent)   */
    char *comm_path;    /* comm=FILE of the spec (NULL if absent)      */
    char spec[512];     /* canonical "j=J place=P ... app=A ..."         */
} tk_job_t;

/* Parse a job spec: space-separated KEY=VALUE words (topo-job(1)).
 * Errors: TK_EINVAL (message starts with the parameter), TK_ENOMEM. */
TK_API tk_status_t tk_job_parse(const char *text, tk_job_t *job, tk_error_t *err);
/* Free what a job owns and zero it.  job may be NULL. */
TK_API void tk_job_destroy(tk_job_t *job);
/* Read place=file's server list: one id per line ('#' comments and blank
 * lines allowed), exactly job->ranks ids, each below nserv, no duplicate.
 * Errors name file and line: TK_EFORMAT, TK_ERANGE; TK_EIO, TK_ENOMEM. */
TK_API tk_status_t tk_job_read_servers(FILE *fp, const char *name, int64_t nserv, tk_job_t *job,
                                       tk_error_t *err);
/* Read app=file's lines "RANK RANK BYTES" (ranks below job->ranks,
 * distinct, bytes finite and > 0; repeated pairs add up).  Errors name file
 * and line: TK_EFORMAT, TK_ERANGE; TK_EIO, TK_ENOMEM. */
TK_API tk_status_t tk_job_read_comm(FILE *fp, const char *name, tk_job_t *job, tk_error_t *err);

/* The rank-level demands of one job in bytes, merged per ordered pair and
 * sorted by (src, dst) rank; *out is allocated (caller frees).  index is
 * the job's position (its random streams: placement 2*index, permutation
 * 2*index+1 of seed).  Errors: TK_EINVAL, TK_ENOMEM.  Time O(demands log
 * demands). */
TK_API tk_status_t tk_job_traffic(const tk_job_t *job, uint64_t seed, int index, tk_demand_t **out,
                                  int64_t *len, tk_error_t *err);

/* Place the jobs in order on g's servers (a server holds at most one rank
 * of one job) and map their traffic to one server-level pattern.  Each
 * job's weights are its bytes scaled so that its busiest server sends or
 * receives job->rate; with TK_JOBS_BYTES one scale for all jobs instead
 * (bytes times rate), so that the busiest server of the machine sends or
 * receives 1.  place (may be NULL) gets njobs arrays of the servers of
 * every rank (caller frees each and the array).  Errors: TK_EINVAL (a job
 * that does not fit, a file server already taken), TK_EUNSUPPORTED (spread
 * without groups, no servers), TK_ELIMIT, TK_ENOMEM.  Time O(N + demands
 * log demands), N the servers. */
#define TK_JOBS_BYTES 1u
TK_API tk_status_t tk_jobs_pattern(const tk_graph_t *g, const tk_job_t *jobs, int njobs,
                                   uint64_t seed, unsigned flags, tk_pattern_t **out,
                                   int64_t ***place, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_PATTERN_H */
