/*
 * resil.c - resilience sweeps: random failures at a sweep of fractions,
 * several samples per fraction, and per sample the distances, the
 * spectral bisection bound and the uniform pattern's load (tk_load.h,
 * topo-resilience(1)).
 *
 * Every sample is a unit of a job of the parallel driver.  A unit writes
 * its results as 64-bit words (the bit patterns of its doubles) into the
 * entries of its own sample, which no other unit touches: the integer
 * accumulator then holds each word exactly, whatever the thread count or
 * the split into slices.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tk_load.h"
#include "tk_metric.h"
#include "tk_spectral.h"

/* Words per sample in the accumulator. */
enum { W_REMOVED, W_N, W_DISC, W_DIAM, W_AVG, W_BIS, W_MAXLOAD, W_THR, W_COUNT };

typedef struct resil_job {
    const tk_graph_t *g;
    const tk_resil_opts_t *o;
} resil_job_t;

uint64_t tk_resil_seed(uint64_t seed, int64_t point, int64_t sample, int nested)
{
    uint64_t p = nested ? 0 : (uint64_t)point + 1;
    /* SplitMix64 of the three, each hashed apart (the constants keep the
     * point and sample words from cancelling). */
    return tk_mix64(tk_mix64(seed ^ 0x3c6ef372fe94f82bULL) ^
                    tk_mix64(p * 0x9e3779b97f4a7c15ULL + 0xbb67ae8584caa73bULL) ^
                    tk_mix64((uint64_t)sample * 0xa54ff53a5f1d36f1ULL + 0x510e527fade682d1ULL));
}

static int64_t bits_of(double x)
{
    int64_t w;
    memcpy(&w, &x, sizeof w);
    return w;
}

static double double_of(int64_t w)
{
    double x;
    memcpy(&x, &w, sizeof x);
    return x;
}

/* The largest load per capacity and the throughput of the uniform pattern
 * or of o->demands on a connected graph (topo-load's max_load and
 * throughput, with or without -P). */
static tk_status_t sample_load(const tk_graph_t *g, const tk_resil_opts_t *o, double *max_load,
                               double *thr, tk_error_t *err)
{
    tk_router_t *rt = NULL;
    tk_load_summary_t sum;
    double limit = 1, *load;
    tk_status_t st;

    if (g->n < 2) {
        *max_load = 0;
        *thr = 1;
        return TK_OK;
    }
    load = tk_malloc_array((size_t)(g->m > 0 ? g->m : 1), sizeof *load);
    if (!load)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    memset(&sum, 0, sizeof sum);
    st = tk_router_new(g, o->route, 1, o->mem_limit, &rt, err);
    if (st == TK_OK && o->demands) {
        st = tk_load_compute(rt, o->demands, 1, load, err);
        limit = tk_swdemand_limit(o->demands);
    } else if (st == TK_OK) {
        st = tk_load_uniform(rt, 1, NULL, load, &limit, err);
    }
    if (st == TK_OK)
        st = tk_load_summarize(g, load, &sum, err);
    if (st == TK_OK) {
        double ml = sum.max_load[sum.nclasses];
        *max_load = ml;
        *thr = tk_throughput(ml > 0 ? 1.0 / ml : INFINITY, limit);
    }
    tk_load_summary_destroy(&sum);
    tk_router_free(rt);
    free(load);
    return st;
}

/* The measures of one damaged graph into w[0 .. W_COUNT-1]. */
static tk_status_t measure(const tk_graph_t *h, const tk_resil_opts_t *o, int64_t *w,
                           tk_error_t *err)
{
    double avg = NAN, bis = NAN, ml = NAN, thr = NAN;
    int32_t diam = TK_INF;
    int disc;
    tk_status_t st;
    tk_error_t scratch;

    w[W_N] = h->n;
    /* Connected?  No switch left counts as disconnected. */
    disc = h->n == 0 || tk_check_connected(h, &scratch) == TK_EDISCONNECTED;
    if (!disc) {
        tk_dist_opts_t d;
        tk_dist_summary_t s;
        memset(&d, 0, sizeof d);
        d.threads = 1;
        st = tk_dist_summary(h, &d, &s, err);
        if (st != TK_OK)
            return st;
        diam = s.diameter;
        avg = s.avg_distance;
        tk_dist_summary_destroy(&s);
    }
    if (o->bisection) {
        bis = 0;
        if (!disc && h->n >= 2) {
            /* topo-bisect's defaults: seed 1, the automatic solver. */
            tk_spectral_opts_t so;
            double lambda2;
            memset(&so, 0, sizeof so);
            so.seed = 1;
            so.threads = 1;
            st = tk_laplacian_lambda2(h, &so, &lambda2, NULL, NULL, err);
            if (st != TK_OK)
                return st;
            bis = lambda2 * (double)(h->n / 2) * (double)(h->n - h->n / 2) / (double)h->n;
        }
    }
    if (o->route) {
        thr = 0;
        if (!disc && (st = sample_load(h, o, &ml, &thr, err)) != TK_OK)
            return st;
    }
    w[W_DISC] = disc;
    w[W_DIAM] = diam;
    w[W_AVG] = bits_of(avg);
    w[W_BIS] = bits_of(bis);
    w[W_MAXLOAD] = bits_of(ml);
    w[W_THR] = bits_of(thr);
    return TK_OK;
}

static tk_status_t resil_unit(void *ctx, void *ws, int64_t u, int64_t *buf, tk_error_t *err)
{
    const resil_job_t *j = ctx;
    const tk_resil_opts_t *o = j->o;
    int64_t point = u / o->samples, sample = u % o->samples;
    int64_t *w = buf + u * W_COUNT;
    tk_fail_opts_t f;
    tk_graph_t *h = NULL;
    tk_status_t st;

    (void)ws;
    memset(&f, 0, sizeof f);
    f.unit = o->unit;
    f.order = TK_FAIL_RANDOM;
    f.count = -1;
    f.fraction = o->fraction[point];
    f.seed = tk_resil_seed(o->seed, point, sample, o->nested);
    f.cls = o->cls;
    st = tk_fail_apply(j->g, &f, &h, err);
    if (st != TK_OK)
        return st;
    w[W_REMOVED] = o->unit == TK_FAIL_SWITCHES ? j->g->n - h->n : (j->g->m - h->m) / 2;
    st = measure(h, o, w, err);
    tk_graph_free(h);
    return st;
}

static tk_status_t check_opts(const tk_graph_t *g, const tk_resil_opts_t *o, tk_error_t *err)
{
    if (!g || !o)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_resil_run: NULL argument");
    if (o->points < 1 || o->samples < 1)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "%s: must be at least 1",
                            o->points < 1 ? "points" : "samples");
    if (!o->fraction)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_resil_run: NULL fractions");
    for (int64_t i = 0; i < o->points; i++)
        if (!(o->fraction[i] >= 0 && o->fraction[i] <= 1))
            return tk_error_set(err, TK_EINVAL, NULL, 0, "fraction %g: must be between 0 and 1",
                                o->fraction[i]);
    if (o->demands && (o->unit != TK_FAIL_LINKS || o->demands->n != g->n))
        return tk_error_set(err, TK_EINVAL, NULL, 0,
                            o->unit != TK_FAIL_LINKS
                                ? "a pattern goes with link failures only (switch failures "
                                  "renumber the switches)"
                                : "the demands are of another switch count");
    if (o->points > INT64_MAX / o->samples / W_COUNT)
        return tk_error_set(err, TK_ELIMIT, NULL, 0, "too many samples");
    return TK_OK;
}

tk_status_t tk_resil_run(const tk_graph_t *g, const tk_resil_opts_t *o, tk_resil_sample_t *out,
                         tk_error_t *err)
{
    tk_status_t st;
    tk_acc_t *acc = NULL;
    resil_job_t ctx;
    tk_par_job_t job;
    int64_t units;

    if ((st = check_opts(g, o, err)) != TK_OK)
        return st;
    if (!out)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "tk_resil_run: NULL argument");
    units = o->points * o->samples;
    ctx.g = g;
    ctx.o = o;
    memset(&job, 0, sizeof job);
    job.units = units;
    job.chunk = 1; /* a sample is a whole graph's work */
    job.width = units * W_COUNT;
    job.ctx = &ctx;
    job.unit_exact = resil_unit;
    job.progress = o->progress;
    if ((st = tk_par_acc_new_with(o->runner, &job, &acc, err)) != TK_OK)
        return st;
    st = tk_par_run_with(o->runner, &job, o->threads, acc, err);
    if (st == TK_OK)
        for (int64_t u = 0; u < units; u++) {
            tk_resil_sample_t *s = &out[u];
            int64_t w[W_COUNT];
            for (int k = 0; k < W_COUNT; k++)
                w[k] = (int64_t)tk_acc_get(acc, u * W_COUNT + k);
            s->seed = tk_resil_seed(o->seed, u / o->samples, u % o->samples, o->nested);
            s->removed = w[W_REMOVED];
            s->n = w[W_N];
            s->disconnected = (int)w[W_DISC];
            s->diameter = (int32_t)w[W_DIAM];
            s->avg_distance = double_of(w[W_AVG]);
            s->bisection_lb = double_of(w[W_BIS]);
            s->max_load = double_of(w[W_MAXLOAD]);
            s->throughput = double_of(w[W_THR]);
        }
    tk_acc_free(acc);
    return st;
}

tk_status_t tk_resil_stats(const double *x, int64_t samples, double level, tk_sample_stats_t *out,
                           tk_error_t *err)
{
    double *keep;
    int64_t k = 0;
    tk_status_t st;

    if (!(level > 0 && level < 1))
        return tk_error_set(err, TK_EINVAL, NULL, 0, "level %g: must be between 0 and 1", level);
    keep = tk_malloc_array((size_t)(samples > 0 ? samples : 1), sizeof *keep);
    if (!keep)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int64_t j = 0; j < samples; j++)
        if (!isnan(x[j]))
            keep[k++] = x[j];
    if (k == 0) {
        out->n = 0;
        out->mean = out->sd = out->min = out->max = out->halfwidth = NAN;
        free(keep);
        return TK_OK;
    }
    st = tk_sample_stats(keep, k, level, out, err);
    /* Equal values: their mean is that value, exactly (a sum and a
     * division may miss it by an ulp). */
    if (st == TK_OK && out->min == out->max) {
        out->mean = out->min;
        out->sd = 0;
        if (k >= 2)
            out->halfwidth = 0;
    }
    free(keep);
    return st;
}
