/*
 * tk_gen.h - topology generators and the family table behind topo-gen.
 */
#ifndef TK_GEN_H
#define TK_GEN_H

#include "tk_core.h"
#include "tk_kv.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------ */
/* Generator options shared by all families. */
typedef struct tk_gen_opts {
    uint64_t seed; /* -s SEED (randomized families)                 */
    int seed_given;
    int32_t servers;    /* -p SERVERS: servers per switch                */
    int servers_given;  /* when 0 the family default applies (usually 1) */
    uint64_t mem_limit; /* refuse graphs larger than this many bytes (0 = none) */
    int threads;        /* OpenMP threads hint (0 = default)             */
} tk_gen_opts_t;

/* A topology family: name, synopsis for --help and a builder that consumes
 * its keys from kv. */
typedef struct tk_family {
    const char *name;
    const char *alias;    /* or NULL */
    const char *synopsis; /* e.g. "rrg n=N d=D" */
    const char *summary;  /* one line */
    int randomized;       /* takes -s SEED */
    tk_status_t (*build)(tk_kv_t *kv, const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);
} tk_family_t;

/* NULL-terminated table of families. */
TK_API const tk_family_t *const *tk_families(void);
/* Find by name or alias; NULL if unknown. */
TK_API const tk_family_t *tk_family_find(const char *name);

/* Generate: look up the family, build, apply servers, check unused keys, and
 * record the spec "FAMILY k=v ... [s=SEED] [p=P]".  TK_EINVAL "unknown
 * family" for unknown names.  TK_EINVAL means a malformed command line
 * (unknown family or key, missing key, non-integer value, empty list item:
 * topo-gen exits 2); impossible values give TK_ERANGE and sizes that do not
 * fit TK_ELIMIT (exit 1).  Messages start with the parameter. */
TK_API tk_status_t tk_generate(const char *family, int argc, char *const argv[],
                               const tk_gen_opts_t *o, tk_graph_t **g, tk_error_t *err);

/* ------------------------------------------------------------------------ */
/* Direct generator entry points (servers per switch = 1; spec set). */

/* Random simple connected d-regular graph on n switches; see topo-gen(1). */
TK_API tk_status_t tk_gen_rrg(int64_t n, int64_t d, uint64_t seed, uint64_t mem_limit,
                              tk_graph_t **g, tk_error_t *err);
/* Generalized De Bruijn digraph: i -> (i*r + a) mod n, 0 <= a < r. */
TK_API tk_status_t tk_gen_gdbg(int64_t n, int64_t r, tk_graph_t **g, tk_error_t *err);
/* Imase-Itoh digraph: i -> (-i*d - a) mod n, 1 <= a <= d. */
TK_API tk_status_t tk_gen_imase_itoh(int64_t n, int64_t d, tk_graph_t **g, tk_error_t *err);
/* Kautz digraph K(d, D): (d+1)d^(D-1)... see topo-gen(1); diameter D. */
TK_API tk_status_t tk_gen_kautz(int64_t d, int64_t D, tk_graph_t **g, tk_error_t *err);
/* De Bruijn digraph B(d, D): d^D switches, diameter D. */
TK_API tk_status_t tk_gen_debruijn(int64_t d, int64_t D, tk_graph_t **g, tk_error_t *err);
TK_API tk_status_t tk_gen_complete(int64_t n, tk_graph_t **g, tk_error_t *err);
TK_API tk_status_t tk_gen_ring(int64_t n, tk_graph_t **g, tk_error_t *err);
/* Torus (wrap=1) or mesh (wrap=0) with the given side lengths. */
TK_API tk_status_t tk_gen_grid(const int64_t *sides, int ndims, int wrap, tk_graph_t **g,
                               tk_error_t *err);
TK_API tk_status_t tk_gen_hypercube(int64_t dim, tk_graph_t **g, tk_error_t *err);
/* HyperX / Hamming graph: complete graph along every dimension. */
TK_API tk_status_t tk_gen_hyperx(const int64_t *sides, int ndims, tk_graph_t **g, tk_error_t *err);

/* Global link arrangements of the Dragonfly families (formulas in
 * topo-gen(1)): palmtree is the Dragonfly unfairness paper's authors'
 * arrangement, relative its mirror image (SST merlin's relative mode). */
enum {
    TK_ARR_PALMTREE = 0,
    TK_ARR_ABSOLUTE = 1,
    TK_ARR_CIRCULANT = 2,
    TK_ARR_RANDOM = 3,
    TK_ARR_RELATIVE = 4
};

/* Canonical Dragonfly: g groups of a routers (complete graphs, class
 * "local"), h global links per router (class "global") placed by the
 * arrangement, p servers per router; 2 <= g <= a*h+1 and g*a*h even.  Switch
 * j*a + i is router i of group j (group id j, coordinates (j, i)).  seed is
 * used by TK_ARR_RANDOM only.  Errors: TK_ERANGE, TK_ELIMIT, TK_ENOMEM.
 * Time and memory O(g*a*(a+h)). */
TK_API tk_status_t tk_gen_dragonfly(int64_t p, int64_t a, int64_t h, int64_t g, int arrangement,
                                    uint64_t seed, uint64_t mem_limit, tk_graph_t **out,
                                    tk_error_t *err);
/* Dragonfly+ / Megafly: g groups of L leaves and S spines (complete
 * bipartite, class "updown"), p servers per leaf, h global links per spine
 * (class "global", arranged as tk_gen_dragonfly with the spines as routers).
 * Errors and cost as tk_gen_dragonfly. */
TK_API tk_status_t tk_gen_dfplus(int64_t L, int64_t S, int64_t p, int64_t h, int64_t g,
                                 int arrangement, uint64_t seed, uint64_t mem_limit,
                                 tk_graph_t **out, tk_error_t *err);
/* Slim Fly (MMS graph) for a prime power q = 4w + delta, delta in {-1,0,1}:
 * 2q^2 switches of degree (3q - delta)/2.  Errors: TK_ERANGE, TK_ELIMIT,
 * TK_ENOMEM.  Time and memory O(q^3). */
TK_API tk_status_t tk_gen_slimfly(int64_t q, uint64_t mem_limit, tk_graph_t **out, tk_error_t *err);
/* Erdos-Renyi polarity graph ER_q without loops (levi = 0; q^2+q+1
 * switches) or the Levi graph of PG(2,q) (levi = 1; 2(q^2+q+1) switches),
 * q a prime power.  Errors: TK_ERANGE, TK_ELIMIT, TK_ENOMEM.  Time and
 * memory O(q^3). */
TK_API tk_status_t tk_gen_projective(int64_t q, int levi, uint64_t mem_limit, tk_graph_t **out,
                                     tk_error_t *err);
/* Fat-tree (folded Clos) of k-port switches, k even, levels 2 or 3; p
 * servers per leaf switch (p < 0: k/2), none elsewhere.  Errors: TK_ERANGE,
 * TK_ELIMIT, TK_ENOMEM.  Time and memory O(k^3). */
TK_API tk_status_t tk_gen_fattree(int64_t k, int levels, int64_t p, uint64_t mem_limit,
                                  tk_graph_t **out, tk_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* TK_GEN_H */
