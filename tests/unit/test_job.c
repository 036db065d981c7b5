/*
 * test_job.c - jobs (tk_pattern.h, src/pattern/job.c): the application
 * traffic against brute force and closed forms, the placements against
 * their definitions, and the normalisation of several jobs.
 *
 * Expected values: stencil neighbours recomputed from the grid
 * coordinates pair by pair (not by stepping from each rank), the demand
 * counts of the allreduces (ring: J pairs of 2(J-1)/J S; recursive
 * doubling: 2e + p log2 p with p = 2^floor(log2 J), e = J - p, every
 * exchange symmetric), and the placement rules of topo-job(1).
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "topokit.h"

static int parse(const char *text, tk_job_t *job)
{
    tk_error_t err;
    tk_error_clear(&err);
    if (tk_job_parse(text, job, &err) != TK_OK) {
        tap_diag("%s: %s", text, err.msg);
        return -1;
    }
    return 0;
}

static double find(const tk_demand_t *d, int64_t len, int64_t a, int64_t b)
{
    for (int64_t i = 0; i < len; i++)
        if (d[i].src == a && d[i].dst == b)
            return d[i].w;
    return 0;
}

/* How many of rank a's 2 d stencil directions reach b, from coordinates. */
static int stencil_count(const int64_t *g, int dims, int wrap, int64_t a, int64_t b)
{
    int64_t ca[3], cb[3], x = a, y = b;
    int count = 0;

    for (int d = dims - 1; d >= 0; d--) {
        ca[d] = x % g[d];
        cb[d] = y % g[d];
        x /= g[d];
        y /= g[d];
    }
    if (a == b)
        return 0;
    for (int d = 0; d < dims; d++) {
        int same = 1;
        for (int e = 0; e < dims; e++)
            same &= e == d || ca[e] == cb[e];
        if (!same)
            continue;
        for (int dir = -1; dir <= 1; dir += 2) {
            int64_t t = ca[d] + dir;
            if (wrap)
                t = (t + g[d]) % g[d];
            count += t == cb[d];
        }
    }
    return count;
}

static void test_stencil(void)
{
    int bad = 0, cases = 0;

    for (int dims = 1; dims <= 3; dims++)
        for (int64_t s0 = 1; s0 <= 4; s0++)
            for (int64_t s1 = 1; s1 <= (dims > 1 ? 4 : 1); s1++)
                for (int64_t s2 = 1; s2 <= (dims > 2 ? 3 : 1); s2++)
                    for (int wrap = 0; wrap <= 1; wrap++) {
                        int64_t g[3] = {s0, s1, s2}, J = s0 * s1 * s2, len = 0;
                        char text[128];
                        tk_job_t job;
                        tk_demand_t *d = NULL;
                        tk_error_t err;
                        if (J < 2)
                            continue;
                        snprintf(text, sizeof text, "app=stencil grid=%lld%s%s wrap=%d bytes=3",
                                 (long long)s0, dims > 1 ? "x" : "", "", wrap);
                        if (dims > 1)
                            snprintf(text, sizeof text,
                                     "app=stencil grid=%lldx%lld%s wrap=%d bytes=3", (long long)s0,
                                     (long long)s1, "", wrap);
                        if (dims > 2)
                            snprintf(text, sizeof text,
                                     "app=stencil grid=%lldx%lldx%lld wrap=%d bytes=3",
                                     (long long)s0, (long long)s1, (long long)s2, wrap);
                        cases++;
                        if (parse(text, &job) != 0 ||
                            tk_job_traffic(&job, 1, 0, &d, &len, &err) != TK_OK) {
                            bad++;
                            continue;
                        }
                        int64_t want = 0;
                        for (int64_t a = 0; a < J; a++)
                            for (int64_t b = 0; b < J; b++) {
                                int c = stencil_count(g, dims, wrap, a, b);
                                want += c > 0;
                                if (find(d, len, a, b) != 3.0 * c) {
                                    if (!bad)
                                        tap_diag("%s: %lld -> %lld: %g, want %d", text,
                                                 (long long)a, (long long)b, find(d, len, a, b),
                                                 3 * c);
                                    bad++;
                                }
                            }
                        bad += len != want;
                        free(d);
                        tk_job_destroy(&job);
                    }
    ok(bad == 0 && cases > 60,
       "stencil: %d grids of 1 to 3 dimensions, wrapped or not, every pair "
       "as the coordinates say",
       cases);
}

static void test_allreduce(void)
{
    int bad_ring = 0, bad_rd = 0;

    for (int64_t J = 2; J <= 40; J++) {
        char text[128];
        tk_job_t job;
        tk_demand_t *d = NULL;
        int64_t len = 0, p = 1, lg = 0;
        tk_error_t err;

        snprintf(text, sizeof text, "j=%lld app=ring-allreduce bytes=%lld", (long long)J,
                 (long long)J);
        if (parse(text, &job) || tk_job_traffic(&job, 1, 0, &d, &len, &err)) {
            bad_ring++;
            continue;
        }
        bad_ring += len != J;
        for (int64_t r = 0; r < J; r++)
            bad_ring += find(d, len, r, (r + 1) % J) != 2.0 * (double)(J - 1);
        free(d);
        tk_job_destroy(&job);

        snprintf(text, sizeof text, "j=%lld app=rd-allreduce", (long long)J);
        if (parse(text, &job) || tk_job_traffic(&job, 1, 0, &d, &len, &err)) {
            bad_rd++;
            continue;
        }
        while (p * 2 <= J) {
            p *= 2;
            lg++;
        }
        int64_t e = J - p, maxsend = 0;
        bad_rd += len != 2 * e + p * lg;
        for (int64_t i = 0; i < len; i++) {
            bad_rd += d[i].w != 1.0 || find(d, len, d[i].dst, d[i].src) != 1.0;
        }
        for (int64_t r = 0; r < J; r++) {
            int64_t sends = 0;
            for (int64_t i = 0; i < len; i++)
                sends += d[i].src == r;
            maxsend = sends > maxsend ? sends : maxsend;
            /* the ranks that fold away talk to their partner only */
            if (r < 2 * e && r % 2 == 0)
                bad_rd += sends != 1 || find(d, len, r, r + 1) != 1.0;
            else
                bad_rd += sends != lg + (r < 2 * e);
        }
        bad_rd += maxsend != lg + (e > 0);
        free(d);
        tk_job_destroy(&job);
    }
    ok(bad_ring == 0, "ring allreduce, J = 2..40: J pairs r -> r+1 of 2(J-1)/J S");
    ok(bad_rd == 0, "recursive doubling, J = 2..40: 2e + p log2 p symmetric exchanges of S; "
                    "folded ranks talk to their partner only");
}

static void test_place(void)
{
    tk_graph_t *g = NULL;
    tk_error_t err;
    tk_job_t jobs[3];
    tk_pattern_t *p = NULL;
    int64_t **pl = NULL;

    tk_error_clear(&err);
    if (tk_gen_dragonfly(2, 4, 2, 9, TK_ARR_PALMTREE, 1, 0, &g, &err) != TK_OK) {
        ok(0, "dragonfly: %s", err.msg);
        return;
    }
    parse("j=10 place=spread app=ring-allreduce", &jobs[0]);
    parse("j=6 start=1", &jobs[1]);
    parse("j=56 place=random app=perm", &jobs[2]);
    tk_status_t st = tk_jobs_pattern(g, jobs, 3, 9, 0, &p, &pl, &err);
    ok(st == TK_OK, "three jobs fill the 72 servers: %s", st ? err.msg : "ok");
    if (st == TK_OK) {
        int64_t want0[10] = {0, 8, 16, 24, 32, 40, 48, 56, 64, 1};
        int64_t want1[6] = {2, 3, 4, 5, 6, 7};
        int bad = 0;
        char seen[72] = {0};
        for (int r = 0; r < 10; r++)
            bad += pl[0][r] != want0[r];
        ok(!bad, "spread: one server per group, then the second round");
        bad = 0;
        for (int r = 0; r < 6; r++)
            bad += pl[1][r] != want1[r];
        ok(!bad, "consecutive from start=1 skips the spread job's server 1");
        bad = 0;
        for (int k = 0; k < 3; k++)
            for (int64_t r = 0; r < jobs[k].ranks; r++)
                bad += seen[pl[k][r]]++;
        ok(!bad, "no server holds two ranks; random took the 56 left");
        /* every server sends exactly 1: ring (1 each), consecutive
         * all-to-all (5 x 1/5), permutation (1) */
        double send[72] = {0};
        for (int64_t i = 0; i < p->len; i++)
            send[p->d[i].src] += p->d[i].w;
        bad = 0;
        for (int s = 0; s < 72; s++)
            bad += fabs(send[s] - 1.0) > 1e-12;
        ok(!bad && p->len == 10 + 30 + 56, "every server sends 1; %lld demands", (long long)p->len);
        for (int k = 0; k < 3; k++)
            free(pl[k]);
        free(pl);
    }
    tk_pattern_free(p);
    /* a fourth job does not fit */
    tk_job_t more[4] = {jobs[0], jobs[1], jobs[2]};
    parse("j=2", &more[3]);
    p = NULL;
    st = tk_jobs_pattern(g, more, 4, 9, 0, &p, NULL, &err);
    ok(st == TK_EINVAL && strstr(err.msg, "job 4: j=2: only 0 free servers"), "a fourth job: %s",
       err.msg);
    tk_job_destroy(&more[3]);
    for (int k = 0; k < 3; k++)
        tk_job_destroy(&jobs[k]);
    tk_graph_free(g);
}

int main(void)
{
    test_stencil();
    test_allreduce();
    test_place();
    return tap_done();
}
