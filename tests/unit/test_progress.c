/*
 * test_progress.c - the progress counter (tk_progress_t, tk_core.h) and
 * the text of the --progress meter (cli_progress_format, tools/progress.c).
 *
 * A fake clock drives the counter: reports come at most once per interval,
 * the final one always; percentage, rate and ETA are checked against their
 * closed forms; a parallel loop's additions are all counted and never
 * reported by two threads at once.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cli.h"
#include "tap.h"

typedef struct seen {
    int calls, finals, inside, overlap;
    tk_progress_state_t last;
} seen_t;

static double fake_clock(void *arg)
{
    return *(const double *)arg;
}

static void record(void *arg, const tk_progress_state_t *s)
{
    seen_t *v = arg;

    if (__atomic_add_fetch(&v->inside, 1, __ATOMIC_SEQ_CST) > 1)
        v->overlap = 1;
    v->calls++;
    v->finals += s->final;
    v->last = *s;
    __atomic_sub_fetch(&v->inside, 1, __ATOMIC_SEQ_CST);
}

static void throttling(void)
{
    double now = 100;
    seen_t v;
    tk_progress_t p;

    memset(&v, 0, sizeof v);
    memset(&p, 0, sizeof p);
    p.fn = record;
    p.arg = &v;
    p.clock = fake_clock;
    p.clock_arg = &now;
    p.interval = 1;
    tk_progress_begin(&p, "test", "units", 200);
    /* 50 additions within the first interval: no report. */
    for (int i = 0; i < 50; i++) {
        now += 0.01;
        tk_progress_add(&p, 1);
    }
    is_int(v.calls, 0, "no report before the interval has passed");
    /* t = 101: the 51st unit reports once. */
    now = 101;
    tk_progress_add(&p, 1);
    is_int(v.calls, 1, "one report when the interval has passed");
    is_int(v.last.done, 51, "the report counts every unit");
    is_dbl(v.last.elapsed, 1.0, 1e-12, "elapsed since begin");
    is_dbl(v.last.rate, 51.0, 1e-9, "rate = done / elapsed");
    is_dbl(v.last.percent, 100.0 * 51 / 200, 1e-12, "percent = 100 done / total");
    is_dbl(v.last.eta, (200 - 51) / 51.0, 1e-9, "ETA = (total - done) / rate");
    ok(!v.last.final, "not final");
    /* More units within the next second: still one report. */
    now = 101.5;
    tk_progress_add(&p, 49);
    is_int(v.calls, 1, "the next report waits for the next interval");
    now = 102;
    tk_progress_add(&p, 50);
    is_int(v.calls, 2, "second report at t = 102");
    is_dbl(v.last.eta, 50.0 / 75.0, 1e-9, "ETA at 150 of 200 after 2 s");
    now = 102.5;
    tk_progress_add(&p, 50);
    tk_progress_end(&p);
    is_int(v.calls, 3, "the end always reports");
    is_int(v.finals, 1, "one final report");
    is_dbl(v.last.percent, 100.0, 0, "final 100%%");
    is_dbl(v.last.eta, 0.0, 0, "ETA 0 when done");
    /* After the end, nothing is counted or reported. */
    tk_progress_add(&p, 5);
    tk_progress_end(&p);
    is_int(v.calls, 3, "no report outside a phase");

    /* Unknown total: no percentage, no ETA. */
    memset(&v, 0, sizeof v);
    tk_progress_begin(&p, "open", "lines", 0);
    now = 110;
    tk_progress_add(&p, 40);
    is_int(v.calls, 1, "unknown total: reported");
    is_dbl(v.last.percent, -1, 0, "unknown total: no percentage");
    is_dbl(v.last.eta, -1, 0, "unknown total: no ETA");
    is_dbl(v.last.rate, 40.0 / 7.5, 1e-9, "unknown total: rate");
    tk_progress_set_total(&p, 80);
    tk_progress_set(&p, 60);
    tk_progress_end(&p);
    is_dbl(v.last.percent, 75.0, 1e-12, "total set late: percentage");
    is_int(v.last.done, 60, "tk_progress_set sets the count");

    /* No clock at all before time passes: rate 0 and ETA unknown. */
    tk_progress_state_t s;
    now = 200;
    tk_progress_begin(&p, "x", "u", 10);
    tk_progress_state(&p, 200, 0, &s);
    is_dbl(s.rate, 0, 0, "rate 0 at elapsed 0");
    is_dbl(s.eta, -1, 0, "ETA unknown at rate 0");
    tk_progress_end(&p);

    /* NULL is a no-op everywhere. */
    tk_progress_begin(NULL, "x", "u", 1);
    tk_progress_add(NULL, 1);
    tk_progress_set(NULL, 1);
    tk_progress_set_total(NULL, 1);
    tk_progress_end(NULL);
    ok(1, "NULL progress accepted");
}

/* Threads add concurrently, with a report at every addition asked for
 * (interval tiny on the real clock): every unit is counted, and the
 * reporter never runs in two threads at once. */
static void threads(void)
{
    seen_t v;
    tk_progress_t p;
    const int64_t units = 200000;

    memset(&v, 0, sizeof v);
    memset(&p, 0, sizeof p);
    p.fn = record;
    p.arg = &v;
    p.interval = 1e-9;
    tk_progress_begin(&p, "parallel", "units", units);
#pragma omp parallel for num_threads(4) schedule(dynamic, 64)
    for (int64_t i = 0; i < units; i++)
        tk_progress_add(&p, 1);
    tk_progress_end(&p);
    is_int(v.last.done, units, "every unit counted");
    ok(v.calls >= 1 && v.finals == 1, "reports, one final");
    ok(!v.overlap, "the reporter never ran in two threads at once");
}

static void text(void)
{
    char buf[256];
    tk_progress_state_t s;

    memset(&s, 0, sizeof s);
    s.what = "distances";
    s.unit = "sources";
    s.done = 250;
    s.total = 1000;
    s.elapsed = 10;
    s.rate = 25;
    s.percent = 25;
    s.eta = 30;
    cli_progress_format(buf, sizeof buf, "g.txt", &s);
    is_str(buf, "g.txt: distances: 25.0% (250 of 1000 sources), 25 sources/s, ETA 30.0 s",
           "line with a total");
    s.eta = 3725;
    cli_progress_format(buf, sizeof buf, "", &s);
    is_str(buf, "distances: 25.0% (250 of 1000 sources), 25 sources/s, ETA 1:02:05",
           "hours in the ETA, no label");
    s.eta = -1;
    cli_progress_format(buf, sizeof buf, "", &s);
    is_str(buf, "distances: 25.0% (250 of 1000 sources), 25 sources/s, ETA unknown", "ETA unknown");
    s.final = 1;
    s.done = 1000;
    s.percent = 100;
    s.elapsed = 125;
    s.rate = 8;
    cli_progress_format(buf, sizeof buf, "x", &s);
    is_str(buf, "x: distances: 100.0% (1000 of 1000 sources), 8 sources/s, done in 2:05",
           "final line");
    s.total = 0;
    s.percent = -1;
    s.rate = 1234.4;
    cli_progress_format(buf, sizeof buf, "x", &s);
    is_str(buf, "x: distances: 1000 sources, 1234 sources/s, done in 2:05 (total unknown)",
           "unknown total");
}

int main(void)
{
    throttling();
    threads();
    text();
    return tap_done();
}
