/*
 * test_adapt.c - UGAL-G in the flow-level simulator (src/sim/adaptive.c)
 * against the maximum concurrent flow over the same candidates.
 *
 * With a buffer too large to matter (buffer=1e6 packets; buffer=inf would
 * make every route of a held-back flow infinitely costly, and its shares
 * could not move) UGAL-G's costs, the queues summed along a route, grow
 * without bound as an arc fills, so its fixed point
 * keeps every arc below capacity as long as some split over the
 * candidates can: its saturation (the largest offered load at which every
 * flow is fully served) is the maximum concurrent flow theta_R restricted
 * to what a UGAL split can do, computed here by GLPK independently of the
 * simulator: per switch pair P of demand D_P and per intermediate m drawn
 * with probability g_m, a non-minimal flow f_Pm in [0, theta D_P g_m]
 * (the packets drawing m that take the non-minimal route), the rest
 * theta D_P - sum_m f_Pm on the minimal route, every arc's load within
 * its capacity, and theta <= 1 (the servers' links).  theta_R is at least
 * the better of minimal and Valiant routing (f = 0, f = theta D g).
 *
 * Checked: above theta_R no split serves everyone, so UGAL-G's
 * min_served < 1 at 1.02 theta_R (a violation would mean a bug in the
 * simulator or in this LP); and UGAL-G's fixed point serves every flow at
 * 0.95 theta_R under ADV+1.  Under a server permutation and ADVc the
 * iteration does not settle (shares flip between routes that are both
 * held back, whose costs are dominated by the buffer's worth of held-back
 * packets) and leaves some flows short of their demand at 0.95 theta_R:
 * those two checks are marked TODO until the iteration handles it.
 *
 * Also: dragonfly-valiant-crg's candidates and paths against the CRG
 * definition of Fuentes, Vallejo, Camarero, Beivide, Valero ("Network
 * Unfairness in Dragonfly Topologies"), by brute force over every pair of
 * small Dragonflies: the intermediates are exactly the routers of the
 * groups (other than the source's and the destination's) that a global
 * link of the source router reaches, router m weighing k/(|E| |G(m)|) for
 * k of the |E| eligible global links of s reaching G(m); every path of m
 * starts on one of those k links, reaches m by at most one local hop,
 * and goes on minimally (at most l-g-l) to t; the oblivious paths' weights
 * are the candidates' weights times their group's.
 */
#include <config.h>

#include <glpk.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

static tk_graph_t *gen(const char *params, int p)
{
    char buf[256], *argv[16];
    int argc = 0;
    tk_gen_opts_t o;
    tk_graph_t *g = NULL;
    tk_error_t err;

    snprintf(buf, sizeof buf, "%s", params);
    for (char *t = strtok(buf, " "); t && argc < 16; t = strtok(NULL, " "))
        argv[argc++] = t;
    memset(&o, 0, sizeof o);
    o.seed = 1;
    o.seed_given = 1;
    o.servers = p;
    o.servers_given = 1;
    tk_error_clear(&err);
    if (tk_generate("dragonfly", argc, argv, &o, &g, &err) != TK_OK) {
        tap_diag("generate %s: %s", params, err.msg);
        return NULL;
    }
    return g;
}

/* The restricted maximum concurrent flow of pattern pat on g. */
static double theta_restricted(const tk_graph_t *g, const tk_pattern_t *pat)
{
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_route_ws_t *ws = NULL;
    tk_route_cands_t c;
    tk_error_t err;
    double theta = NAN;
    int64_t m = g->m;

    tk_error_clear(&err);
    tk_route_cands_init(&c);
    if (tk_route_parse("dragonfly-valiant", &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK ||
        tk_route_ws_new(r, &ws, &err) != TK_OK) {
        tap_diag("router: %s", err.msg);
        goto done;
    }
    /* switch-level demands */
    int64_t n = g->n;
    double *D = calloc((size_t)(n * n), sizeof *D);
    int64_t *first = malloc((size_t)(n + 1) * sizeof *first);
    first[0] = 0;
    for (tk_id_t u = 0; u < n; u++)
        first[u + 1] = first[u] + tk_graph_servers(g, u);
    tk_id_t *sw = malloc((size_t)first[n] * sizeof *sw);
    for (tk_id_t u = 0; u < n; u++)
        for (int64_t i = first[u]; i < first[u + 1]; i++)
            sw[i] = u;
    for (int64_t k = 0; k < pat->len; k++)
        D[sw[pat->d[k].src] * n + sw[pat->d[k].dst]] += pat->d[k].w;
    /* columns: theta, then per pair its f_m; rows: arcs */
    glp_prob *P = glp_create_prob();
    glp_set_obj_dir(P, GLP_MAX);
    glp_add_cols(P, 1);
    glp_set_col_bnds(P, 1, GLP_DB, 0, 1);
    glp_set_obj_coef(P, 1, 1);
    glp_add_rows(P, (int)m);
    for (int64_t a = 0; a < m; a++)
        glp_set_row_bnds(P, (int)a + 1, GLP_UP, 0, tk_graph_cap(g, a));
    /* per arc, the column entries accumulated densely: row a gets
     * theta coefficient A0[a] and per f column its coefficient */
    double *A0 = calloc((size_t)m, sizeof *A0);
    double *rmin = malloc((size_t)m * sizeof *rmin), *rg = malloc((size_t)m * sizeof *rg);
    /* the matrix as triples (GLPK numbers from 1), loaded at the end */
    int nz = 0, capz = 1024;
    int *ia = malloc((size_t)capz * sizeof *ia), *ja = malloc((size_t)capz * sizeof *ja);
    double *ar = malloc((size_t)capz * sizeof *ar);
#define PUT(i, j, v)                                                                               \
    do {                                                                                           \
        if (nz + 2 > capz) {                                                                       \
            capz *= 2;                                                                             \
            ia = realloc(ia, (size_t)capz * sizeof *ia);                                           \
            ja = realloc(ja, (size_t)capz * sizeof *ja);                                           \
            ar = realloc(ar, (size_t)capz * sizeof *ar);                                           \
        }                                                                                          \
        nz++;                                                                                      \
        ia[nz] = (i);                                                                              \
        ja[nz] = (j);                                                                              \
        ar[nz] = (v);                                                                              \
    } while (0)
    for (tk_id_t s = 0; s < n; s++)
        for (tk_id_t t = 0; t < n; t++) {
            double d = D[s * n + t];
            if (d <= 0 || s == t)
                continue;
            if (tk_route_candidates(r, ws, s, t, 0, &c, &err) != TK_OK) {
                tap_diag("candidates: %s", err.msg);
                goto lp_done;
            }
            memset(rmin, 0, (size_t)m * sizeof *rmin);
            for (int64_t i = 0; i < c.min.npaths; i++)
                for (int64_t e = c.min.off[i]; e < c.min.off[i + 1]; e++)
                    rmin[c.min.arc[e]] += c.min.w[i];
            for (int64_t a = 0; a < m; a++)
                A0[a] += d * rmin[a];
            for (int64_t k = 0; k < c.ngroups; k++) {
                memset(rg, 0, (size_t)m * sizeof *rg);
                for (int64_t i = c.goff[k]; i < c.goff[k + 1]; i++)
                    for (int64_t e = c.nonmin.off[i]; e < c.nonmin.off[i + 1]; e++)
                        rg[c.nonmin.arc[e]] += c.nonmin.w[i];
                /* f_Pm: + rg - rmin on every arc; f_Pm - theta D g_m <= 0 */
                int col = glp_add_cols(P, 1);
                glp_set_col_bnds(P, col, GLP_LO, 0, 0);
                for (int64_t a = 0; a < m; a++)
                    if (rg[a] - rmin[a] != 0)
                        PUT((int)a + 1, col, rg[a] - rmin[a]);
                int row = glp_add_rows(P, 1);
                glp_set_row_bnds(P, row, GLP_UP, 0, 0);
                PUT(row, 1, -d * c.gw[k]);
                PUT(row, col, 1.0);
            }
        }
    for (int64_t a = 0; a < m; a++)
        if (A0[a] != 0)
            PUT((int)a + 1, 1, A0[a]);
#undef PUT
    glp_load_matrix(P, nz, ia, ja, ar);
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (glp_simplex(P, &parm) == 0 && glp_get_status(P) == GLP_OPT)
        theta = glp_get_obj_val(P);
lp_done:
    glp_delete_prob(P);
    free(A0);
    free(rmin);
    free(rg);
    free(ia);
    free(ja);
    free(ar);
    free(D);
    free(first);
    free(sw);
done:
    tk_route_cands_destroy(&c);
    tk_route_ws_free(ws);
    tk_router_free(r);
    return theta;
}

/* min_served of rule `rule` at offered load rho; *conv: converged. */
static double served(const tk_graph_t *g, const tk_pattern_t *pat, const char *rule, double rho,
                     int *conv)
{
    tk_adapt_t a;
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_sim_net_t *net = NULL;
    tk_sim_opts_t o;
    tk_sim_point_t pt;
    tk_error_t err;
    double v = NAN;

    tk_error_clear(&err);
    tk_sim_opts_init(&o);
    o.threads = 1;
    o.adapt = &a;
    if (tk_adapt_parse(rule, &a, &err) != TK_OK ||
        tk_adapt_candidates(&a, g, &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK ||
        tk_sim_net_new(r, pat, &o, &net, &err) != TK_OK ||
        tk_sim_solve(net, rho, &pt, &err) != TK_OK) {
        tap_diag("%s: %s", rule, err.msg);
    } else {
        v = pt.min_served;
        *conv = pt.info.converged;
    }
    tk_sim_net_free(net);
    tk_router_free(r);
    return v;
}

static void check(const char *params, int p, const char *kind, const char *kparams, int todo)
{
    tk_graph_t *g = gen(params, p);
    tk_pattern_t *pat = NULL;
    tk_error_t err;
    char buf[128], *argv[8];
    int argc = 0;

    tk_error_clear(&err);
    snprintf(buf, sizeof buf, "%s", kparams);
    for (char *t = strtok(buf, " "); t && argc < 8; t = strtok(NULL, " "))
        argv[argc++] = t;
    if (!g || tk_pattern_make(g, kind, argc, argv, 5, 1, &pat, &err) != TK_OK) {
        ok(0, "dragonfly %s, %s: set-up (%s)", params, kind, err.msg);
        tk_graph_free(g);
        return;
    }
    double th = theta_restricted(g, pat);
    ok(th > 0 && th <= 1 + 1e-12, "dragonfly %s, %s: restricted theta %.6f by GLPK", params, kind,
       th);
    int c1 = 0, c2 = 0;
    double hi = served(g, pat, "ugal-g,buffer=1e6", 1.02 * th, &c1);
    ok(th >= 1 || hi < 1 - 1e-9,
       "dragonfly %s, %s: ugal-g at 1.02 theta_R leaves a flow short (min_served %.9f)", params,
       kind, hi);
    double lo = served(g, pat, "ugal-g,buffer=1e6", 0.95 * th, &c2);
    if (todo) {
        /* known: the iteration oscillates (see the file's head) */
        tap_count++;
        if (lo >= 1 - 1e-6) {
            printf("ok %d - dragonfly %s, %s: ugal-g at 0.95 theta_R serves every flow\n",
                   tap_count, params, kind);
            tap_diag("(was TODO; it passes now: make it a plain check)");
        } else {
            printf("not ok %d - dragonfly %s, %s: ugal-g at 0.95 theta_R serves every flow "
                   "(min_served %.9f) # TODO the iteration oscillates between blocked routes\n",
                   tap_count, params, kind, lo);
        }
    } else {
        ok(lo >= 1 - 1e-6,
           "dragonfly %s, %s: ugal-g at 0.95 theta_R serves every flow (min_served %.9f)", params,
           kind, lo);
    }
    if (!c2)
        tap_diag("(its iteration stopped at the iteration limit, residual above tol)");
    tk_pattern_free(pat);
    tk_graph_free(g);
}

/* Brute-force check of dragonfly-valiant-crg on one Dragonfly. */
static void crg_check(const char *params)
{
    tk_graph_t *g = gen(params, 1);
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_route_ws_t *ws = NULL;
    tk_route_cands_t c;
    tk_pathset_t ps;
    tk_error_t err;
    int64_t bad_set = 0, bad_w = 0, bad_path = 0, bad_obl = 0, pairs = 0, fallback = 0;
    char why[256] = "";

    tk_error_clear(&err);
    tk_route_cands_init(&c);
    tk_pathset_init(&ps);
    if (!g || tk_route_parse("dragonfly-valiant-crg", &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK ||
        tk_route_ws_new(r, &ws, &err) != TK_OK) {
        ok(0, "dragonfly %s: crg set-up (%s)", params, err.msg);
        goto out;
    }
    int gcls = tk_graph_class_index(g, "global");
    double *want = calloc((size_t)g->n, sizeof *want);
    for (tk_id_t s = 0; s < g->n && want; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            if (s == t)
                continue;
            pairs++;
            int32_t A = g->group[s], B = g->group[t];
            /* the definition */
            int64_t ne = 0;
            for (int64_t e = g->off[s]; e < g->off[s + 1]; e++)
                if (g->cls[e] == gcls && g->group[g->head[e]] != A && g->group[g->head[e]] != B)
                    ne++;
            for (tk_id_t m = 0; m < g->n; m++) {
                int64_t k = 0, gs = 0;
                for (int64_t e = g->off[s]; e < g->off[s + 1]; e++)
                    if (g->cls[e] == gcls && g->group[g->head[e]] == g->group[m] &&
                        g->group[m] != A && g->group[m] != B)
                        k++;
                for (tk_id_t u = 0; u < g->n; u++)
                    gs += g->group[u] == g->group[m];
                want[m] = k > 0 ? (double)k / (double)ne / (double)gs : 0;
            }
            if (tk_route_candidates(r, ws, s, t, 0, &c, &err) != TK_OK ||
                tk_route_paths(r, ws, s, t, 0, &ps, &err) != TK_OK) {
                bad_set++;
                snprintf(why, sizeof why, "%d,%d: %.160s", s, t, err.msg);
                continue;
            }
            if (ne == 0) {
                fallback++;
                if (c.ngroups != 0)
                    bad_set++;
                continue;
            }
            int64_t nwant = 0;
            for (tk_id_t m = 0; m < g->n; m++)
                nwant += want[m] > 0;
            if (c.ngroups != nwant) {
                bad_set++;
                snprintf(why, sizeof why, "%d,%d: %lld groups, want %lld", s, t,
                         (long long)c.ngroups, (long long)nwant);
                continue;
            }
            for (int64_t j = 0; j < c.ngroups; j++) {
                tk_id_t m = c.gvia[j];
                if (!(want[m] > 0)) {
                    bad_set++;
                    continue;
                }
                if (fabs(c.gw[j] - want[m]) > 1e-15)
                    bad_w++;
                double wsum = 0;
                for (int64_t i = c.goff[j]; i < c.goff[j + 1]; i++) {
                    const int64_t *arc = c.nonmin.arc + c.nonmin.off[i];
                    int64_t len = c.nonmin.off[i + 1] - c.nonmin.off[i];
                    int32_t p2 = c.nonmin.phase2[i];
                    wsum += c.nonmin.w[i];
                    /* s's global link into G(m), at most one local hop to
                     * m, then at most l-g-l to t */
                    int okp = len >= 1 && g->cls[arc[0]] == gcls &&
                              g->group[g->head[arc[0]]] == g->group[m] && p2 >= 1 && p2 <= 2 &&
                              len - p2 <= 3 && c.nonmin.via[i] == m;
                    if (okp)
                        okp = g->head[arc[p2 - 1]] == m && g->head[arc[len - 1]] == t;
                    for (int64_t h = 1; okp && h < p2; h++)
                        okp = g->cls[arc[h]] != gcls;
                    if (!okp)
                        bad_path++;
                }
                if (fabs(wsum - 1) > 1e-12)
                    bad_w++;
            }
            /* the oblivious paths: the same draws, weight gw x w */
            double osum = 0;
            for (int64_t i = 0; i < ps.npaths; i++) {
                tk_id_t m = ps.via[i];
                if (m < 0 || !(want[m] > 0)) {
                    bad_obl++;
                    continue;
                }
                osum += ps.w[i];
            }
            if (fabs(osum - 1) > 1e-12 || ps.npaths != c.nonmin.npaths)
                bad_obl++;
        }
    free(want);
    ok(bad_set == 0,
       "dragonfly %s: crg intermediates = the routers of s's linked groups (%lld "
       "pairs, %lld with min only) %s",
       params, (long long)pairs, (long long)fallback, why);
    ok(bad_w == 0,
       "dragonfly %s: crg weights k/(|E| |G(m)|), each group's paths sum to 1 (%lld "
       "bad)",
       params, (long long)bad_w);
    ok(bad_path == 0,
       "dragonfly %s: crg paths: a global link of s, <= 1 local hop to m, "
       "minimal to t (%lld bad)",
       params, (long long)bad_path);
    ok(bad_obl == 0,
       "dragonfly %s: crg oblivious paths are the candidates' draws, weights sum "
       "to 1 (%lld bad)",
       params, (long long)bad_obl);
out:
    tk_route_cands_destroy(&c);
    tk_pathset_destroy(&ps);
    tk_route_ws_free(ws);
    tk_router_free(r);
    tk_graph_free(g);
}

/* tk_sim_adapt_size against the definition: under uniform traffic every
 * ordered router pair is a switch pair, and ugal-l's alternatives at one
 * are its minimal route and a Valiant route through every router outside
 * the source and destination groups, each with one share; and the size of
 * an oblivious net is refused. */
static void size_check(const char *params)
{
    tk_graph_t *g = gen(params, 2);
    tk_pattern_t *pat = NULL;
    tk_adapt_t a;
    tk_route_spec_t spec;
    tk_router_t *r = NULL, *r0 = NULL;
    tk_sim_net_t *net = NULL, *net0 = NULL;
    tk_sim_opts_t o;
    tk_adapt_size_t z;
    tk_error_t err;

    tk_error_clear(&err);
    tk_sim_opts_init(&o);
    o.threads = 1;
    o.adapt = &a;
    if (!g || tk_pattern_make(g, "uniform", 0, NULL, 5, 1, &pat, &err) != TK_OK ||
        tk_adapt_parse("ugal-l", &a, &err) != TK_OK ||
        tk_adapt_candidates(&a, g, &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK ||
        tk_sim_net_new(r, pat, &o, &net, &err) != TK_OK ||
        tk_sim_adapt_size(net, &z, &err) != TK_OK) {
        ok(0, "dragonfly %s: size set-up (%s)", params, err.msg);
        goto out;
    }
    int64_t pairs = 0, alts = 0;
    for (tk_id_t s = 0; s < g->n; s++)
        for (tk_id_t t = 0; t < g->n; t++) {
            if (s == t)
                continue;
            pairs++;
            alts++;
            for (tk_id_t m = 0; m < g->n; m++)
                alts += g->group[m] != g->group[s] && g->group[m] != g->group[t];
        }
    ok(z.pairs == pairs && z.alternatives == alts && z.shares == alts - pairs,
       "dragonfly %s, uniform, ugal-l: %" PRId64 " switch pairs, %" PRId64 " alternatives, %" PRId64
       " shares (want %" PRId64 ", %" PRId64 ", %" PRId64 ")",
       params, z.pairs, z.alternatives, z.shares, pairs, alts, alts - pairs);
    ok(z.keys > 0 && z.entries >= z.keys && z.bytes > (uint64_t)z.entries * 16,
       "dragonfly %s: keys %" PRId64 ", entries %" PRId64 ", bytes %" PRIu64, params, z.keys,
       z.entries, z.bytes);
    /* uniform: every server alike, so one class per switch pair, and the
     * system's coefficients are the pairs' keys */
    ok(z.classes == pairs && z.coefficients == z.keys,
       "dragonfly %s: %" PRId64 " classes, %" PRId64 " coefficients (one class a pair)", params,
       z.classes, z.coefficients);
    tk_sim_opts_init(&o);
    o.threads = 1;
    if (tk_route_parse("dragonfly-min", &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r0, &err) != TK_OK ||
        tk_sim_net_new(r0, pat, &o, &net0, &err) != TK_OK) {
        ok(0, "dragonfly %s: oblivious set-up (%s)", params, err.msg);
        goto out;
    }
    ok(tk_sim_adapt_size(net0, &z, &err) == TK_EINVAL, "an oblivious net has no candidates' size");
out:
    tk_sim_net_free(net0);
    tk_router_free(r0);
    tk_sim_net_free(net);
    tk_router_free(r);
    tk_pattern_free(pat);
    tk_graph_free(g);
}

int main(void)
{
    size_check("a=4 h=2");
    size_check("a=4 h=2 g=5 arrangement=absolute");
    crg_check("a=4 h=2 arrangement=palmtree");
    crg_check("a=4 h=2 g=5 arrangement=absolute");
    crg_check("a=3 h=3 g=4 arrangement=absolute");
    check("a=4 h=2", 2, "adv", "i=1", 0);
    check("a=4 h=2", 2, "server-perm", "", 1);
    check("a=4 h=2 g=5 arrangement=absolute", 2, "adv", "i=1", 0);
    check("a=4 h=2 g=5 arrangement=absolute", 2, "advc", "", 1);
    return tap_done();
}
