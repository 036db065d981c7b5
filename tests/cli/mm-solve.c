/*
 * mm-solve.c - a max-min instance file solved by tk_mm_solve (fair), for the
 * SimGrid cross-check (tests/cli/sim-simgrid.sh) and its benchmark
 * (tests/bench/sim-simgrid.sh).  A check program: not installed.
 *
 *   mm-solve [-t] [-n REPEAT] [-r RHO] FILE
 *   mm-solve -w TOPO ROUTING PATTERN-KIND [SEED]
 *
 * The instance (tests/cli/simgrid-maxmin.cpp reads the same file):
 *   # from '#' to the end of a line is a comment
 *   R F                      resources, flows
 *   c_0 ... c_{R-1}          capacities (> 0)
 *   B K r_1 ... r_K          one line per flow: its rate bound B (0 = none),
 *                            then the K >= 1 distinct resources it crosses
 * Every flow has weight 1 and coefficient 1 on each of its resources: plain
 * max-min.  As a tk_mm system every flow is a variable of demand 1, a bound
 * is a private resource of capacity B, and the offered load rho is RHO (-r:
 * every flow's rate at most RHO) or twice the largest capacity or bound (no
 * cap).  Prints one rate per flow, in order, as %.17g.
 *
 * -t prints on stderr "read S build S solve S" (CPU seconds of the process,
 * which a loaded machine inflates less than wall time; the best solve of
 * REPEAT, 1 by default).  Exit status 0, 1 on a bad file or a
 * failed solve.
 *
 * -w writes the instance of topo-sim's system instead: the topology file
 * TOPO routed by ROUTING (topo-route(1)'s text form) under the pattern kind
 * PATTERN-KIND (topo-pattern's names, no parameters; SEED for the random
 * ones, 1 by default), one variable per server-level flow (no aggregation);
 * it fails unless that system is plain max-min (one path per flow: every
 * coefficient 1, every demand the same).  Resources keep the system's
 * numbering (arcs, then injection and ejection links).
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "topokit.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The next number of the file, skipping blanks and comments; 0 at the end
 * or on a bad token. */
static int next_num(FILE *f, double *out)
{
    char buf[64];
    int c, n = 0;
    for (;;) {
        c = getc(f);
        if (c == '#')
            while (c != '\n' && c != EOF)
                c = getc(f);
        if (c == EOF)
            return 0;
        if (!isspace(c))
            break;
    }
    while (c != EOF && !isspace(c) && c != '#' && n < (int)sizeof buf - 1) {
        buf[n++] = (char)c;
        c = getc(f);
    }
    if (c == '#')
        ungetc(c, f);
    buf[n] = '\0';
    char *end;
    errno = 0;
    *out = strtod(buf, &end);
    return n > 0 && *end == '\0' && errno == 0;
}

static int next_count(FILE *f, int64_t lo, int64_t *out)
{
    double d;
    if (!next_num(f, &d) || d != (double)(int64_t)d || d < (double)lo || d > 1e12)
        return 0;
    *out = (int64_t)d;
    return 1;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "mm-solve: out of memory\n");
        exit(1);
    }
    return p;
}

/* -w: topo-sim's system as an instance on stdout */
static int write_instance(const char *topo, const char *routing, const char *kind, const char *seed)
{
    tk_graph_t *g = NULL;
    tk_route_spec_t spec;
    tk_router_t *rt = NULL;
    tk_pattern_t *pat = NULL;
    tk_sim_net_t *net = NULL;
    tk_sim_opts_t o;
    tk_error_t err;
    int rc = 1;
    tk_error_clear(&err);
    tk_sim_opts_init(&o);
    o.no_aggregate = 1;
    o.threads = 1;
    if (tk_read_file(topo, TK_FMT_AUTO, 0, &g, &err) != TK_OK ||
        tk_route_parse(routing, &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &rt, &err) != TK_OK ||
        tk_pattern_make(g, kind, 0, NULL, strtoull(seed, NULL, 10), 1, &pat, &err) != TK_OK ||
        tk_sim_net_new(rt, pat, &o, &net, &err) != TK_OK) {
        fprintf(stderr, "mm-solve: %s%s%s\n", err.where[0] ? err.where : "",
                err.where[0] ? ": " : "", err.msg);
        goto done;
    }
    const tk_mm_t *mm = tk_sim_net_mm(net);
    double d0 = -1.0;
    int64_t nf = 0;
    for (int64_t v = 0; v < mm->nvar; v++) {
        if (mm->demand[v] == 0.0)
            continue;
        nf++;
        if (d0 < 0.0)
            d0 = mm->demand[v];
        int plain = mm->demand[v] == d0 && (!mm->mult || mm->mult[v] == 1.0);
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
            plain &= mm->ecoef[e] == 1.0 && (!mm->copies || mm->copies[mm->eres[e]] == 1.0);
        if (!plain) {
            fprintf(stderr,
                    "mm-solve: variable %lld: not plain max-min (a multipath routing, "
                    "unequal demands or an aggregate)\n",
                    (long long)v);
            goto done;
        }
    }
    printf("# topo-sim's system: %s, -r %s, -m %s -s %s (rho = %.17g per flow)\n", topo, routing,
           kind, seed, d0);
    printf("%lld %lld\n", (long long)mm->nres, (long long)nf);
    for (int64_t r = 0; r < mm->nres; r++)
        printf("%.17g\n", mm->cap[r]);
    for (int64_t v = 0; v < mm->nvar; v++) {
        if (mm->demand[v] == 0.0)
            continue;
        printf("0 %lld", (long long)(mm->voff[v + 1] - mm->voff[v]));
        for (int64_t e = mm->voff[v]; e < mm->voff[v + 1]; e++)
            printf(" %lld", (long long)mm->eres[e]);
        printf("\n");
    }
    rc = ferror(stdout) ? 1 : 0;
done:
    tk_sim_net_free(net);
    tk_pattern_free(pat);
    tk_router_free(rt);
    tk_graph_free(g);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc >= 5 && argc <= 6 && strcmp(argv[1], "-w") == 0)
        return write_instance(argv[2], argv[3], argv[4], argc == 6 ? argv[5] : "1");
    int timing = 0;
    long repeat = 1;
    double rho = 0.0;
    int c;
    while ((c = getopt(argc, argv, "tn:r:")) != -1) {
        switch (c) {
        case 't':
            timing = 1;
            break;
        case 'n':
            repeat = strtol(optarg, NULL, 10);
            break;
        case 'r':
            rho = strtod(optarg, NULL);
            break;
        default:
            fprintf(stderr, "usage: mm-solve [-t] [-n REPEAT] [-r RHO] FILE\n");
            return 1;
        }
    }
    if (optind != argc - 1 || repeat < 1 || rho < 0.0) {
        fprintf(stderr, "usage: mm-solve [-t] [-n REPEAT] [-r RHO] FILE\n");
        return 1;
    }
    const char *path = argv[optind];
    double t0 = now();
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "mm-solve: %s: %s\n", path, strerror(errno));
        return 1;
    }

    /* read: capacities, then per flow its bound and resources */
    int64_t R, F;
    if (!next_count(f, 1, &R) || !next_count(f, 1, &F)) {
        fprintf(stderr, "mm-solve: %s: bad header (want: resources flows)\n", path);
        return 1;
    }
    double *cap = xmalloc((size_t)R * sizeof *cap);
    double *bound = xmalloc((size_t)F * sizeof *bound);
    int64_t *off = xmalloc((size_t)(F + 1) * sizeof *off);
    int64_t ecap = 4 * F, ne = 0;
    int64_t *res = xmalloc((size_t)ecap * sizeof *res);
    double top = 0.0;
    for (int64_t r = 0; r < R; r++) {
        if (!next_num(f, &cap[r]) || !(cap[r] > 0.0)) {
            fprintf(stderr, "mm-solve: %s: capacity %lld: want a positive number\n", path,
                    (long long)r);
            return 1;
        }
        if (cap[r] > top)
            top = cap[r];
    }
    int64_t nb = 0;
    for (int64_t v = 0; v < F; v++) {
        int64_t k;
        if (!next_num(f, &bound[v]) || !(bound[v] >= 0.0) || !next_count(f, 1, &k)) {
            fprintf(stderr, "mm-solve: %s: flow %lld: want BOUND K r_1 .. r_K\n", path,
                    (long long)v);
            return 1;
        }
        nb += bound[v] > 0.0;
        if (bound[v] > top)
            top = bound[v];
        off[v] = ne;
        for (int64_t i = 0; i < k; i++) {
            int64_t r;
            if (!next_count(f, 0, &r) || r >= R) {
                fprintf(stderr, "mm-solve: %s: flow %lld: resource %lld: want 0 .. %lld\n", path,
                        (long long)v, (long long)i, (long long)R - 1);
                return 1;
            }
            if (ne == ecap) {
                int64_t *grown = xmalloc((size_t)(2 * ecap) * sizeof *grown);
                memcpy(grown, res, (size_t)ecap * sizeof *res);
                free(res);
                res = grown;
                ecap *= 2;
            }
            res[ne++] = r;
        }
    }
    off[F] = ne;
    fclose(f);
    double t1 = now();

    /* build the system: one variable per flow, a private resource per bound */
    tk_mm_t mm;
    memset(&mm, 0, sizeof mm);
    mm.nres = R + nb;
    mm.cap = xmalloc((size_t)mm.nres * sizeof *mm.cap);
    memcpy(mm.cap, cap, (size_t)R * sizeof *cap);
    mm.nvar = F;
    mm.demand = xmalloc((size_t)F * sizeof *mm.demand);
    mm.voff = xmalloc((size_t)(F + 1) * sizeof *mm.voff);
    mm.eres = xmalloc((size_t)(ne + nb) * sizeof *mm.eres);
    mm.ecoef = xmalloc((size_t)(ne + nb) * sizeof *mm.ecoef);
    int64_t e = 0, b = R;
    for (int64_t v = 0; v < F; v++) {
        mm.demand[v] = 1.0;
        mm.voff[v] = e;
        for (int64_t i = off[v]; i < off[v + 1]; i++) {
            mm.eres[e] = res[i];
            mm.ecoef[e++] = 1.0;
        }
        if (bound[v] > 0.0) {
            mm.cap[b] = bound[v];
            mm.eres[e] = b++;
            mm.ecoef[e++] = 1.0;
        }
    }
    mm.voff[F] = e;
    if (rho == 0.0)
        rho = 2.0 * top;
    double *x = xmalloc((size_t)F * sizeof *x);
    double t2 = now(), best = -1.0;

    for (long i = 0; i < repeat; i++) {
        tk_error_t err;
        tk_mm_info_t info;
        double s = now();
        if (tk_mm_solve(&mm, TK_ARB_FAIR, rho, 0, 0, x, NULL, &info, &err) != TK_OK) {
            fprintf(stderr, "mm-solve: %s: %s\n", path, err.msg);
            return 1;
        }
        s = now() - s;
        if (best < 0.0 || s < best)
            best = s;
    }
    for (int64_t v = 0; v < F; v++)
        printf("%.17g\n", x[v]);
    if (timing)
        fprintf(stderr, "read %.6f build %.6f solve %.6f\n", t1 - t0, t2 - t1, best);
    free(x);
    free(mm.cap);
    free(mm.demand);
    free(mm.voff);
    free(mm.eres);
    free(mm.ecoef);
    free(cap);
    free(bound);
    free(off);
    free(res);
    return ferror(stdout) ? 1 : 0;
}
