/*
 * family.c - the table of topology families and tk_generate, which turns
 * "FAMILY KEY=VALUE ..." into a graph with its spec string.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/kv_internal.h"
#include "gen_internal.h"

/* One entry per family; adding a family = a line here, its builder in
 * src/gen/x.c, tests and a paragraph in topo-gen(1). */
/* clang-format off */
static const tk_family_t table[] = {
    {"rrg", "jellyfish", "rrg n=N d=D",
     "random simple connected d-regular graph", 1, tkg_build_rrg},
    {"gdbg", NULL, "gdbg n=N r=R",
     "generalized De Bruijn digraph, i -> i*r+a mod n", 0, tkg_build_gdbg},
    {"imase-itoh", NULL, "imase-itoh n=N d=D",
     "Imase-Itoh digraph, i -> -d*i-a mod n", 0, tkg_build_imase_itoh},
    {"kautz", NULL, "kautz d=D D=DIAM",
     "Kautz digraph, d^D+d^(D-1) switches, diameter D", 0,
     tkg_build_kautz},
    {"debruijn", NULL, "debruijn d=D D=DIAM",
     "De Bruijn digraph, d^D switches, diameter D", 0,
     tkg_build_debruijn},
    {"complete", NULL, "complete n=N", "complete graph K_n", 0, tkg_build_complete},
    {"ring", NULL, "ring n=N", "cycle C_n (n >= 3)", 0, tkg_build_ring},
    {"torus", NULL, "torus sides=A,B[,...]",
     "torus (k-ary n-cube); a side of 2 doubles links", 0,
     tkg_build_torus},
    {"mesh", NULL, "mesh sides=A,B[,...]", "mesh (grid without wrap-around)", 0,
     tkg_build_mesh},
    {"hypercube", NULL, "hypercube dim=K", "binary hypercube, 2^k switches, degree k", 0,
     tkg_build_hypercube},
    {"hyperx", NULL, "hyperx sides=S1,S2[,...] [p=1]",
     "HyperX (Hamming graph), complete along each dim.", 0, tkg_build_hyperx},
    {"dragonfly", NULL, "dragonfly [a=2H] h=H [p=H] [g=A*H+1] [arrangement=palmtree]",
     "canonical Dragonfly (balanced from h alone), palmtree/relative/absolute/circulant/random",
     1,
     tkg_build_dragonfly},
    {"dragonfly+", "megafly",
     "dragonfly+ leaves=L spines=S [h=L] [p=S] [g=S*H+1] [arrangement=palmtree]",
     "Dragonfly+ (Megafly), leaf/spine groups", 1, tkg_build_dfplus},
    {"slimfly", NULL, "slimfly q=Q", "Slim Fly (MMS graph), 2q^2 switches, diameter 2", 0,
     tkg_build_slimfly},
    {"projective", NULL, "projective q=Q [levi=0]",
     "polarity graph ER_q, or Levi graph of PG(2,q)", 0, tkg_build_projective},
    {"fattree", NULL, "fattree k=K [levels=3]",
     "folded Clos of k-port switches, servers on leaves", 0, tkg_build_fattree},
};

static const tk_family_t *const families[] = {
    &table[0], &table[1], &table[2], &table[3], &table[4], &table[5],
    &table[6], &table[7], &table[8], &table[9], &table[10], &table[11],
    &table[12], &table[13], &table[14], &table[15], NULL};
/* clang-format on */
_Static_assert(sizeof table / sizeof table[0] + 1 == sizeof families / sizeof families[0],
               "every family of the table is listed in families[]");

const tk_family_t *const *tk_families(void)
{
    return families;
}

const tk_family_t *tk_family_find(const char *name)
{
    int i;

    for (i = 0; families[i]; i++)
        if (strcmp(families[i]->name, name) == 0 ||
            (families[i]->alias && strcmp(families[i]->alias, name) == 0))
            return families[i];
    return NULL;
}

/* Whether the seed made the graph: a family that takes -s but whose
 * arrangement= is not random (dragonfly, dragonfly+) is deterministic, and
 * its spec must not carry an s= that changes nothing (issue 25). */
static int seed_used(const tk_kv_t *kv)
{
    const char *key, *val;

    for (int i = 0; i < tk_kv_count(kv); i++) {
        tk_kv_entry(kv, i, &key, &val);
        if (strcmp(key, "arrangement") == 0)
            return strcmp(val, "random") == 0;
    }
    return 1;
}

/* Append " (usage: SYNOPSIS)" to a usage-type error message if it fits. */
static void add_usage(tk_error_t *err, const tk_family_t *f)
{
    size_t len;

    if (!err)
        return;
    len = strlen(err->msg);
    if (len + strlen(f->synopsis) + 11 < sizeof err->msg)
        snprintf(err->msg + len, sizeof err->msg - len, " (usage: %s)", f->synopsis);
}

/* Generate a graph of a named family.  Errors: TK_EINVAL for an unknown
 * family or a malformed parameter list (usage errors), TK_ERANGE /
 * TK_ELIMIT for impossible or too large parameters, TK_ENOMEM.  Time and
 * memory: those of the family's generator. */
tk_status_t tk_generate(const char *family, int argc, char *const argv[], const tk_gen_opts_t *o,
                        tk_graph_t **g, tk_error_t *err)
{
    const tk_family_t *f = tk_family_find(family);
    tk_gen_opts_t opts;
    tk_kv_t *kv = NULL;
    tk_graph_t *graph = NULL;
    char *params = NULL, *spec = NULL, extra[64] = "";
    tk_status_t st;
    size_t len;

    if (!f) {
        char names[256] = "";
        size_t pos = 0;
        int i;
        for (i = 0; families[i] && pos < sizeof names; i++)
            pos += (size_t)snprintf(names + pos, sizeof names - pos, "%s%s", i ? " " : "",
                                    families[i]->name);
        return tk_error_set(err, TK_EINVAL, NULL, 0, "unknown family '%s' (families: %s)", family,
                            names);
    }
    memset(&opts, 0, sizeof opts);
    if (o)
        opts = *o;
    if (!opts.seed_given)
        opts.seed = 1;
    if (opts.servers_given && opts.servers < 0)
        return tk_error_set(err, TK_ERANGE, NULL, 0, "p=%d: must be at least 0", (int)opts.servers);

    st = tk_kv_parse(argc, argv, &kv, err);
    if (st) {
        if (st == TK_EINVAL)
            add_usage(err, f);
        goto fail;
    }
    st = f->build(kv, &opts, &graph, err);
    if (!st)
        st = tk_kv_check_unused(kv, f->name, err);
    if (st) {
        if (st == TK_EINVAL)
            add_usage(err, f);
        goto fail;
    }
    /* -p overrides the family's uniform server count; families with
     * per-switch counts (servers on some switches only) apply it
     * themselves. */
    if (opts.servers_given && !graph->servers)
        graph->servers_uniform = opts.servers;

    /* Spec: "FAMILY k=v ... [s=SEED] [p=P]"; -p takes the place of the
     * family's own p= key where it has one (canonical order). */
    if (opts.servers_given && tkg_synopsis_has(f->synopsis, "p")) {
        char num[32];
        snprintf(num, sizeof num, "%d", (int)opts.servers);
        st = tk_kv_set(kv, "p", num, err);
        if (st)
            goto fail;
    }
    params = tkg_kv_format(kv, f->synopsis);
    if (!params)
        goto nomem;
    len = 0;
    if (f->randomized && seed_used(kv))
        len += (size_t)snprintf(extra + len, sizeof extra - len, " s=%" PRIu64, opts.seed);
    if (opts.servers_given && !tkg_synopsis_has(f->synopsis, "p"))
        snprintf(extra + len, sizeof extra - len, " p=%d", (int)opts.servers);
    len = strlen(f->name) + strlen(params) + strlen(extra) + 1;
    spec = malloc(len);
    if (!spec)
        goto nomem;
    snprintf(spec, len, "%s%s%s", f->name, params, extra);
    st = tk_graph_set_spec(graph, spec, err);
    if (st)
        goto fail;
    free(params);
    free(spec);
    tk_kv_free(kv);
    *g = graph;
    return TK_OK;
nomem:
    st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
fail:
    free(params);
    free(spec);
    tk_graph_free(graph);
    tk_kv_free(kv);
    return st;
}
