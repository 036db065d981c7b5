/*
 * test_dynamic.c - the dynamic mode of the simulator (src/sim/dynamic.c,
 * src/sim/workload.c): flows that arrive and complete under max-min fair
 * sharing.
 *
 * Expected values: finish times computed by hand (one link shared by two
 * flows, a parking-lot chain), the workload file's errors line by line,
 * the Poisson generator's determinism and mean rate (Poisson counts within
 * 5 standard deviations), and on small Dragonflies and random regular
 * graphs: every rate after every event equal to a from-scratch tk_mm_solve
 * of the whole active system (relative 1e-12), every flow's integral of
 * rate equal to its size (relative 1e-9), the connected-component re-solve
 * equal to the bottleneck closure, and the same bytes with 1 and 2
 * threads.
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

/* --- helpers --------------------------------------------------------------- */
static tk_graph_t *from_edges(int n, int p, const int (*e)[2], int m)
{
    tk_builder_t *b;
    tk_graph_t *g = NULL;
    if (tk_builder_new(&b, n, 0, NULL) != TK_OK)
        return NULL;
    if (tk_builder_set_servers_uniform(b, p, NULL) != TK_OK) {
        tk_builder_free(b);
        return NULL;
    }
    for (int i = 0; i < m; i++)
        if (tk_builder_add(b, e[i][0], e[i][1], NULL) != TK_OK) {
            tk_builder_free(b);
            return NULL;
        }
    if (tk_builder_finish(b, &g, NULL) != TK_OK)
        return NULL;
    return g;
}

static tk_router_t *router(const tk_graph_t *g, const char *model)
{
    tk_route_spec_t spec;
    tk_router_t *r = NULL;
    tk_error_t err;
    if (tk_route_parse(model, &spec, &err) != TK_OK ||
        tk_router_new(g, &spec, 1, 0, &r, &err) != TK_OK) {
        tap_diag("router %s: %s", model, err.msg);
        return NULL;
    }
    return r;
}

/* A workload from (time, src, dst, size) rows. */
static tk_sim_workload_t *workload(int64_t nservers, const double (*f)[4], int n)
{
    tk_sim_workload_t *w;
    if (tk_sim_workload_new(nservers, &w, NULL) != TK_OK)
        return NULL;
    for (int i = 0; i < n; i++)
        if (tk_sim_workload_add(w, f[i][0], (int64_t)f[i][1], (int64_t)f[i][2], f[i][3], NULL) !=
            TK_OK) {
            tk_sim_workload_free(w);
            return NULL;
        }
    return w;
}

/* Run with verify and check_bytes on; the result in *res. */
static int run_checked(const tk_router_t *r, const tk_sim_workload_t *w, tk_sim_dyn_result_t *res,
                       const char *what)
{
    tk_sim_dyn_opts_t o;
    tk_error_t err;
    tk_sim_dyn_opts_init(&o);
    o.verify = 1;
    o.check_bytes = 1;
    tk_status_t st = tk_sim_dynamic(r, w, &o, res, &err);
    if (!ok(st == TK_OK, "%s: simulated", what)) {
        tap_diag("%s", err.msg);
        return 0;
    }
    is_int(res->mismatches, 0,
           "%s: every rate after every event equals tk_mm_solve's (%" PRId64 " compared)", what,
           res->verified);
    ok(res->max_bytes_err <= 1e-9, "%s: bytes conserved (max relative error %.3g)", what,
       res->max_bytes_err);
    return 1;
}

/* --- closed forms ---------------------------------------------------------- */

/* A progress callback: counts its calls, keeps the last figures. */
typedef struct progress {
    int calls;
    int64_t done, total;
    double now;
} progress_t;

static void on_progress(void *arg, double now, int64_t done, int64_t total)
{
    progress_t *p = arg;
    p->calls++;
    p->now = now;
    p->done = done;
    p->total = total;
}

/* Two switches joined by one link, two servers each (0, 1 at switch 0;
 * 2, 3 at switch 1).  Flow A: 0 -> 2 and flow B: 1 -> 3 share only the
 * arc 0 -> 1.
 *  (a) sizes 1 and 1 at t = 0 and 0.5: A alone at rate 1 until 0.5 (half
 *      sent), then both at 1/2: A's last half takes 1, A ends at 1.5; B
 *      has sent 1/2 by then and ends its last half at rate 1 at 2.
 *  (b) sizes 2 and 1 at t = 0 and 1: A sends 1 alone, then both at 1/2
 *      and both end at 1 + 2 = 3 (a tie: two completions at one time).
 *  (c) the same server sends both (0 -> 2, 0 -> 3): the injection link is
 *      the shared resource, the times of (a). */
static void test_one_link(void)
{
    static const int e[1][2] = {{0, 1}};
    tk_graph_t *g = from_edges(2, 2, e, 1);
    tk_router_t *r = g ? router(g, "min") : NULL;
    if (!ok(r != NULL, "one link: graph and router")) {
        tk_graph_free(g);
        return;
    }
    static const double wa[2][4] = {{0, 0, 2, 1}, {0.5, 1, 3, 1}};
    static const double wb[2][4] = {{0, 0, 2, 2}, {1, 1, 3, 1}};
    static const double wc[2][4] = {{0, 0, 2, 1}, {0.5, 0, 3, 1}};
    static const double fa[2] = {1.5, 2}, fb[2] = {3, 3};
    const double(*ws[3])[4] = {wa, wb, wc};
    const double *fin[3] = {fa, fb, fa};
    const char *name[3] = {"one link (a)", "one link (b, a tie)", "one injection link (c)"};
    for (int k = 0; k < 3; k++) {
        tk_sim_workload_t *w = workload(4, ws[k], 2);
        tk_sim_dyn_result_t res;
        if (!w || !run_checked(r, w, &res, name[k])) {
            tk_sim_workload_free(w);
            continue;
        }
        for (int i = 0; i < 2; i++)
            is_dbl(res.finish[i], fin[k][i], 0, "%s: flow %d finishes at %g", name[k], i,
                   fin[k][i]);
        is_int(res.events, 4, "%s: 4 events", name[k]);
        tk_sim_bucket_t *b;
        int64_t nb;
        if (ok(tk_sim_dyn_buckets(&res, NULL, 0, &b, &nb, NULL) == TK_OK, "%s: buckets", name[k])) {
            double fct0 = fin[k][0] - ws[k][0][0], fct1 = fin[k][1] - ws[k][1][0];
            double s0 = fct0 / ws[k][0][3], s1 = fct1 / ws[k][1][3];
            if (k == 1) { /* sizes 2 and 1: two decades' bucket [1, 10) */
                is_int(nb, 1, "%s: one decade", name[k]);
                is_dbl(b[0].sd_max, fmax(s0, s1), 0, "%s: max slowdown", name[k]);
            } else {
                is_dbl(b[0].fct_mean, (fct0 + fct1) / 2, 1e-15, "%s: mean FCT", name[k]);
                is_dbl(b[0].sd_p50, fmin(s0, s1), 0, "%s: p50 slowdown (nearest rank)", name[k]);
            }
            free(b);
        }
        tk_sim_dyn_result_free(&res);
        tk_sim_workload_free(w);
    }
    /* A flow alone: FCT = size, slowdown 1. */
    static const double w1[1][4] = {{2.5, 3, 0, 7}};
    tk_sim_workload_t *w = workload(4, w1, 1);
    tk_sim_dyn_result_t res;
    if (w && run_checked(r, w, &res, "one flow")) {
        is_dbl(res.finish[0], 9.5, 0, "one flow: ends at its start + size");
        tk_sim_dyn_result_free(&res);
    }
    tk_sim_workload_free(w);
    tk_router_free(r);
    tk_graph_free(g);
}

/* A parking-lot chain: switches 0 - 1 - 2, two servers each (0, 1 | 2, 3
 * | 4, 5), arcs a = 0 -> 1 and b = 1 -> 2.  At t = 0: L: 0 -> 4 (a and
 * b, size 1), S1: 1 -> 2 (a, size 2), S2: 2 -> 5 (b, size 1/3), S3:
 * 3 -> 5 (b, size 1).
 *  t in [0, 1]: b has three flows: L, S2, S3 at 1/3; a gives S1 the rest,
 *    2/3 (server 5's ejection carries 2/3).  S2 ends at 1.
 *  t = 1: sent L 1/3, S1 2/3, S3 1/3.  b: L and S3 at 1/2; a: S1 1/2.
 *    L and S3 have 2/3 left: both end at 1 + 4/3 = 7/3.
 *  t = 7/3: S1 has sent 2/3 + 2/3; its last 2/3 at rate 1: ends at 3. */
static void test_chain(void)
{
    static const int e[2][2] = {{0, 1}, {1, 2}};
    tk_graph_t *g = from_edges(3, 2, e, 2);
    tk_router_t *r = g ? router(g, "min") : NULL;
    if (!ok(r != NULL, "chain: graph and router")) {
        tk_graph_free(g);
        return;
    }
    static const double wl[4][4] = {{0, 0, 4, 1}, {0, 1, 2, 2}, {0, 2, 5, 1.0 / 3}, {0, 3, 5, 1}};
    static const double fin[4] = {7.0 / 3, 3, 1, 7.0 / 3};
    tk_sim_workload_t *w = workload(6, wl, 4);
    tk_sim_dyn_result_t res;
    if (w && run_checked(r, w, &res, "chain")) {
        for (int i = 0; i < 4; i++)
            is_dbl(res.finish[i], fin[i], 1e-14, "chain: flow %d finishes at %.6g", i, fin[i]);
        tk_sim_dyn_result_free(&res);
    }
    /* The same with the connected-component re-solve. */
    tk_sim_dyn_opts_t o;
    tk_sim_dyn_opts_init(&o);
    o.connected = 1;
    progress_t pr = {0, 0, 0, 0};
    o.progress = on_progress;
    o.progress_arg = &pr;
    if (w && ok(tk_sim_dynamic(r, w, &o, &res, NULL) == TK_OK, "chain: connected mode")) {
        for (int i = 0; i < 4; i++)
            is_dbl(res.finish[i], fin[i], 1e-14, "chain, connected: flow %d finishes at %.6g", i,
                   fin[i]);
        ok(pr.calls == 1 && pr.done == 4 && pr.total == 4 && pr.now == res.end && res.end == 3,
           "chain: progress called once at the end (4 of 4 flows done at 3)");
        tk_sim_dyn_result_free(&res);
    }
    /* A workload for another server count. */
    tk_sim_workload_t *w2 = workload(7, wl, 1);
    tk_error_t err;
    is_int(w2 ? (int)tk_sim_dynamic(r, w2, NULL, &res, &err) : -1, TK_EINVAL,
           "a workload for 7 servers on 6: TK_EINVAL");
    tk_sim_workload_free(w2);
    tk_sim_workload_free(w);
    tk_router_free(r);
    tk_graph_free(g);
}

/* --- the workload file ----------------------------------------------------- */
static tk_status_t read_text(const char *text, int64_t nservers, tk_sim_workload_t **w,
                             tk_error_t *err)
{
    FILE *fp = fmemopen((void *)text, strlen(text), "r");
    if (!fp)
        return TK_EIO;
    tk_status_t st = tk_sim_workload_read(fp, "wl", nservers, w, err);
    fclose(fp);
    return st;
}

static void test_read(void)
{
    tk_sim_workload_t *w = NULL;
    tk_error_t err;
    const char *good = "# a workload\n\n0 0 1 1e3   # first\r\n0 2 1 5\n\t0.5 1 0 2.5\n";
    if (ok(read_text(good, 3, &w, &err) == TK_OK, "good file read")) {
        is_int(w->n, 3, "three flows (comments and blank lines skipped)");
        is_dbl(w->f[0].size, 1000, 0, "flow 0: 1e3 bytes");
        is_int(w->f[1].src, 2, "flow 1: from server 2");
        is_dbl(w->f[2].time, 0.5, 0, "flow 2: at 0.5");
        /* Written and read back: the same flows. */
        char *buf = NULL;
        size_t len = 0;
        FILE *fp = open_memstream(&buf, &len);
        tk_sim_workload_t *w2 = NULL;
        if (fp && tk_sim_workload_write(fp, w, NULL) == TK_OK && fclose(fp) == 0 &&
            read_text(buf, 3, &w2, NULL) == TK_OK)
            ok(w2->n == w->n && memcmp(w2->f, w->f, (size_t)w->n * sizeof *w->f) == 0,
               "written and read back: the same flows");
        else
            ok(0, "written and read back");
        tk_sim_workload_free(w2);
        free(buf);
        tk_sim_workload_free(w);
    }
    static const struct {
        const char *text;
        tk_status_t code;
        long line;
        const char *what;
    } bad[] = {
        {"0 0 1\n", TK_EFORMAT, 1, "three fields"},
        {"# x\n0 0 1 1 5\n", TK_EFORMAT, 2, "five fields"},
        {"x 0 1 1\n", TK_EFORMAT, 1, "a time that is not a number"},
        {"0 a 1 1\n", TK_EFORMAT, 1, "a server that is not an integer"},
        {"0 0 1.5 1\n", TK_EFORMAT, 1, "a server that is not an integer (1.5)"},
        {"0 0 1 z\n", TK_EFORMAT, 1, "a size that is not a number"},
        {"0 0 1 1\n0 0 3 1\n", TK_ERANGE, 2, "an unknown server (3 of 0..2)"},
        {"0 -1 1 1\n", TK_ERANGE, 1, "a negative server"},
        {"0 1 1 1\n", TK_ERANGE, 1, "source = destination"},
        {"0 0 1 0\n", TK_ERANGE, 1, "size 0"},
        {"0 0 1 -2\n", TK_ERANGE, 1, "a negative size"},
        {"0 0 1 inf\n", TK_ERANGE, 1, "an infinite size"},
        {"0 0 1 nan\n", TK_ERANGE, 1, "a NaN size"},
        {"-1 0 1 1\n", TK_ERANGE, 1, "a negative time"},
        {"inf 0 1 1\n", TK_ERANGE, 1, "an infinite time"},
        {"1e999 0 1 1\n", TK_ERANGE, 1, "a time that overflows"},
        {"2 0 1 1\n\n1 0 1 1\n", TK_EFORMAT, 3, "times out of order"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w = NULL;
        tk_error_clear(&err);
        tk_status_t st = read_text(bad[i].text, 3, &w, &err);
        ok(st == bad[i].code && err.line == bad[i].line && strcmp(err.where, "wl") == 0 && !w,
           "bad line, %s: %s at wl:%ld (%s)", bad[i].what, tk_status_str(bad[i].code), bad[i].line,
           err.msg);
    }
    tk_sim_workload_t *w3;
    is_int(tk_sim_workload_new(2, &w3, NULL), TK_OK, "workload of 2 servers");
    is_int(tk_sim_workload_add(w3, 1, 0, 2, 1, &err), TK_ERANGE, "add: unknown server");
    is_int(tk_sim_workload_add(w3, 1, 0, 1, 1, &err), TK_OK, "add: a flow at 1");
    is_int(tk_sim_workload_add(w3, 0.5, 1, 0, 1, &err), TK_EFORMAT, "add: a flow before it");
    tk_sim_workload_free(w3);
}

/* --- Poisson arrivals ------------------------------------------------------ */
static void test_poisson(void)
{
    tk_sim_poisson_t p;
    tk_sim_workload_t *a = NULL, *b = NULL, *c = NULL;
    tk_error_t err;
    const int64_t N = 50;

    tk_sim_poisson_init(&p);
    is_int(tk_sim_sizes_parse("pareto:2.5:4", &p, &err), TK_OK, "sizes pareto:2.5:4");
    ok(p.sizes == TK_SIM_SIZES_PARETO && p.alpha == 2.5 && p.mean == 4,
       "pareto: alpha 2.5, mean 4");
    static const char *const badsz[] = {"fixed:0",    "fixed:-1",   "fixed:x",
                                        "fixed:1:2",  "pareto:1:5", "pareto:2",
                                        "pareto:2:0", "uniform:3",  "fixed:inf"};
    for (size_t i = 0; i < sizeof badsz / sizeof badsz[0]; i++) {
        tk_sim_poisson_t q = p;
        tk_status_t st = tk_sim_sizes_parse(badsz[i], &q, &err);
        ok(st == TK_EINVAL && strncmp(err.msg, badsz[i], strlen(badsz[i])) == 0,
           "sizes %s: TK_EINVAL naming it (%s)", badsz[i], err.msg);
    }
    p.rho = 0.5;
    p.horizon = 4000;
    p.seed = 7;
    if (!ok(tk_sim_workload_poisson(N, &p, &a, &err) == TK_OK &&
                tk_sim_workload_poisson(N, &p, &b, &err) == TK_OK,
            "Poisson workload generated twice"))
        goto done;
    ok(a->n == b->n && memcmp(a->f, b->f, (size_t)a->n * sizeof *a->f) == 0,
       "the same seed gives the same flows, byte for byte");
    /* N rho T / S = 50 * 0.5 * 4000 / 4 = 25000 flows expected. */
    double expect = (double)N * p.rho * p.horizon / p.mean;
    ok(fabs((double)a->n - expect) <= 5 * sqrt(expect), "%" PRId64 " flows, %.0f expected", a->n,
       expect);
    int sorted = 1, fine = 1;
    double bytes = 0;
    int64_t *recv = calloc((size_t)N, sizeof *recv);
    for (int64_t i = 0; i < a->n; i++) {
        const tk_sim_arrival_t *f = &a->f[i];
        if (i > 0 && (f->time < a->f[i - 1].time ||
                      (f->time == a->f[i - 1].time && f->src < a->f[i - 1].src)))
            sorted = 0;
        if (f->src == f->dst || f->dst < 0 || f->dst >= N || !(f->time >= 0) ||
            !(f->time < p.horizon) || !(f->size >= 4 * 1.5 / 2.5))
            fine = 0;
        bytes += f->size;
        if (recv)
            recv[f->dst]++;
    }
    ok(sorted, "merged by (time, src)");
    ok(fine, "every flow inside the horizon, to another server, at least the Pareto scale");
    /* Offered bytes per server per time unit: rho (sizes heavy-tailed but
     * of finite variance at alpha 2.5: a loose bound). */
    double load = bytes / ((double)N * p.horizon);
    ok(fabs(load - p.rho) <= 0.05 * p.rho, "offered load per server %.4f, rho %.2f", load, p.rho);
    int64_t rmin = INT64_MAX, rmax = 0;
    for (int64_t i = 0; recv && i < N; i++) {
        rmin = recv[i] < rmin ? recv[i] : rmin;
        rmax = recv[i] > rmax ? recv[i] : rmax;
    }
    double per = (double)a->n / (double)N;
    ok(recv && rmin >= per - 5 * sqrt(per) && rmax <= per + 5 * sqrt(per),
       "destinations uniform: every server receives %" PRId64 "..%" PRId64 " (%.0f expected)", rmin,
       rmax, per);
    free(recv);
    /* A count gives the first flows of the merged order: the prefix of the
     * horizon's workload. */
    p.horizon = 0;
    p.count = 1000;
    if (ok(tk_sim_workload_poisson(N, &p, &c, &err) == TK_OK, "count 1000 generated"))
        ok(c->n == 1000 && memcmp(c->f, a->f, 1000 * sizeof *c->f) == 0,
           "count 1000: the first 1000 flows of the horizon's workload");
    /* Fixed sizes. */
    tk_sim_workload_free(c);
    c = NULL;
    p.sizes = TK_SIM_SIZES_FIXED;
    p.mean = 3;
    if (ok(tk_sim_workload_poisson(N, &p, &c, &err) == TK_OK, "fixed sizes generated")) {
        int all3 = 1;
        for (int64_t i = 0; i < c->n; i++)
            all3 &= c->f[i].size == 3;
        ok(all3, "fixed:3: every size 3");
    }
    /* Parameter errors. */
    tk_sim_poisson_t q = p;
    tk_sim_workload_t *x = NULL;
    is_int(tk_sim_workload_poisson(1, &q, &x, &err), TK_EINVAL, "one server: TK_EINVAL");
    q.rho = 1.5;
    is_int(tk_sim_workload_poisson(N, &q, &x, &err), TK_EINVAL, "rho 1.5: TK_EINVAL");
    q.rho = 0;
    is_int(tk_sim_workload_poisson(N, &q, &x, &err), TK_EINVAL, "rho 0: TK_EINVAL");
    q = p;
    q.count = 0;
    is_int(tk_sim_workload_poisson(N, &q, &x, &err), TK_EINVAL, "no horizon, no count: TK_EINVAL");
    q.horizon = 1e300;
    is_int(tk_sim_workload_poisson(N, &q, &x, &err), TK_ELIMIT, "an endless horizon: TK_ELIMIT");
done:
    tk_sim_workload_free(a);
    tk_sim_workload_free(b);
    tk_sim_workload_free(c);
}

/* --- whole networks -------------------------------------------------------- */

/* Poisson traffic on g under `model`: verified and conserved; the
 * connected-component re-solve gives the same finish times; 1 and 2
 * threads the same bytes. */
static void check_network(const char *what, tk_graph_t *g, const char *model, double rho,
                          const char *sizes, double horizon)
{
    tk_router_t *r = g ? router(g, model) : NULL;
    tk_sim_workload_t *w = NULL;
    tk_sim_poisson_t p;
    tk_error_t err;
    char name[160];

    snprintf(name, sizeof name, "%s, %s, rho %.2g, %s", what, model, rho, sizes);
    if (!ok(r != NULL, "%s: router", name))
        goto done;
    tk_sim_poisson_init(&p);
    p.rho = rho;
    p.horizon = horizon;
    p.seed = 3;
    if (tk_sim_sizes_parse(sizes, &p, &err) != TK_OK ||
        !ok(tk_sim_workload_poisson(tk_graph_total_servers(g), &p, &w, &err) == TK_OK,
            "%s: workload", name))
        goto done;
    tk_sim_dyn_result_t v, c, t1, t2;
    if (!run_checked(r, w, &v, name))
        goto done;
    tap_diag("%s: %" PRId64 " flows, %" PRId64 " events, %" PRId64 " solves, %" PRId64
             " expansions, mean component %.2f flows of %.2f active (max %" PRId64 ")",
             name, w->n, v.events, v.solves, v.expansions, v.comp_flows, v.mean_active, v.comp_max);
    ok(v.events == 2 * w->n && w->n > 100, "%s: two events per flow", name);
    ok(v.comp_flows < v.mean_active, "%s: a component is smaller than the active set", name);
    tk_sim_dyn_opts_t o;
    tk_sim_dyn_opts_init(&o);
    o.connected = 1;
    if (ok(tk_sim_dynamic(r, w, &o, &c, &err) == TK_OK, "%s: connected mode", name)) {
        double d = 0;
        for (int64_t i = 0; i < w->n; i++)
            d = fmax(d, fabs(c.finish[i] - v.finish[i]) / (v.finish[i] - v.start[i]));
        ok(d <= 1e-9, "%s: connected mode gives the same finish times (max diff %.3g FCT)", name,
           d);
        ok(v.comp_flows <= c.comp_flows, "%s: closure %.2f <= connected component %.2f", name,
           v.comp_flows, c.comp_flows);
        tk_sim_dyn_result_free(&c);
    }
    o.connected = 0;
    o.threads = 1;
    int ok1 = tk_sim_dynamic(r, w, &o, &t1, &err) == TK_OK;
    o.threads = 2;
    int ok2 = tk_sim_dynamic(r, w, &o, &t2, &err) == TK_OK;
    if (ok(ok1 && ok2, "%s: 1 and 2 threads run", name))
        ok(memcmp(t1.finish, t2.finish, (size_t)w->n * sizeof *t1.finish) == 0 &&
               memcmp(t1.finish, v.finish, (size_t)w->n * sizeof *t1.finish) == 0 &&
               t1.solves == t2.solves && t1.comp_flows == t2.comp_flows,
           "%s: 1 and 2 threads give the same bytes", name);
    if (ok1)
        tk_sim_dyn_result_free(&t1);
    if (ok2)
        tk_sim_dyn_result_free(&t2);
    tk_sim_dyn_result_free(&v);
done:
    tk_sim_workload_free(w);
    tk_router_free(r);
}

static void test_networks(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    /* topo-gen dragonfly a=4 h=2 p=2 (g = a h + 1 = 9 groups, 72 servers). */
    if (ok(tk_gen_dragonfly(2, 4, 2, 9, TK_ARR_PALMTREE, 0, 0, &g, &err) == TK_OK,
           "dragonfly a=4 h=2 p=2 generated")) {
        g->servers_uniform = 2;
        check_network("dragonfly a=4 h=2 p=2", g, "dragonfly-min", 0.5, "fixed:1", 40);
        check_network("dragonfly a=4 h=2 p=2", g, "dragonfly-min", 0.9, "pareto:1.5:2", 60);
        check_network("dragonfly a=4 h=2 p=2", g, "dragonfly-valiant", 0.6, "pareto:2:1", 25);
        tk_graph_free(g);
    }
    g = NULL;
    if (ok(tk_gen_rrg(24, 4, 5, 0, &g, &err) == TK_OK, "rrg n=24 d=4 generated")) {
        g->servers_uniform = 2;
        check_network("rrg n=24 d=4 p=2", g, "min", 0.7, "pareto:1.8:1", 60);
        check_network("rrg n=24 d=4 p=2", g, "ksp:4", 0.5, "fixed:2", 80);
        tk_graph_free(g);
    }
}

/* --- buckets --------------------------------------------------------------- */
static void test_buckets(void)
{
    /* Sizes 1, 5, 10, 20, 200, 7; FCTs 2, 5, 10, 30, 200, 21. */
    double start[6] = {0, 0, 0, 0, 0, 1}, size[6] = {1, 5, 10, 20, 200, 7};
    double finish[6] = {2, 5, 10, 30, 200, 22};
    tk_sim_dyn_result_t r;
    memset(&r, 0, sizeof r);
    r.nflows = 6;
    r.start = start;
    r.finish = finish;
    r.size = size;
    tk_sim_bucket_t *b;
    int64_t nb;
    if (ok(tk_sim_dyn_buckets(&r, NULL, 0, &b, &nb, NULL) == TK_OK, "decade buckets")) {
        is_int(nb, 3, "three decades");
        ok(b[0].lo == 1 && b[0].hi == 10 && b[0].count == 3, "[1, 10): 3 flows");
        /* slowdowns 2, 1, 3: mean 2, p50 2 (rank 2 of 3), p99 3 (rank 3). */
        is_dbl(b[0].sd_mean, 2, 0, "[1, 10): mean slowdown 2");
        is_dbl(b[0].sd_p50, 2, 0, "[1, 10): p50 slowdown 2");
        is_dbl(b[0].sd_p99, 3, 0, "[1, 10): p99 slowdown 3");
        is_dbl(b[0].fct_p50, 5, 0, "[1, 10): p50 FCT 5 (of 2, 5, 21)");
        is_dbl(b[0].fct_max, 21, 0, "[1, 10): max FCT 21");
        /* FCTs 10, 30: p50 is the smaller (rank 1 of 2). */
        ok(b[1].lo == 10 && b[1].count == 2 && b[1].fct_p50 == 10 && b[1].fct_p99 == 30,
           "[10, 100): p50 10, p99 30 (nearest rank)");
        ok(b[2].lo == 100 && b[2].hi == 1000 && b[2].count == 1 && b[2].sd_max == 1,
           "[100, 1000): one flow, slowdown 1");
        free(b);
    }
    double edges[2] = {6, 100};
    if (ok(tk_sim_dyn_buckets(&r, edges, 2, &b, &nb, NULL) == TK_OK, "given edges")) {
        ok(nb == 3 && b[0].lo == 0 && b[0].hi == 6 && b[0].count == 2 && b[1].count == 3 &&
               b[2].lo == 100 && isinf(b[2].hi) && b[2].count == 1,
           "edges 6, 100: [0, 6) 2 flows, [6, 100) 3, [100, inf) 1");
        free(b);
    }
    if (ok(tk_sim_dyn_buckets(&r, edges, 0, &b, &nb, NULL) == TK_OK, "no edges")) {
        ok(nb == 1 && b[0].count == 6 && b[0].fct_max == 200, "no edges: one bucket of all");
        free(b);
    }
    double bad[2] = {100, 6};
    tk_error_t err;
    is_int(tk_sim_dyn_buckets(&r, bad, 2, &b, &nb, &err), TK_EINVAL, "decreasing edges: TK_EINVAL");
}

int main(void)
{
    test_one_link();
    test_chain();
    test_read();
    test_poisson();
    test_buckets();
    test_networks();
    return tap_done();
}
