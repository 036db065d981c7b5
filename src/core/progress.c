/*
 * progress.c - progress of long computations (tk_core.h).
 *
 * The counter is a 64-bit integer updated with atomic additions; the report
 * is guarded by an atomic flag so that one thread at a time calls the
 * reporter, and only when the interval has passed since the last report.
 * Nothing here touches the computation's own data, so watching a loop
 * never changes its results.
 */
#include <config.h>

#include <time.h>

#include "tk_core.h"

static double now_of(const tk_progress_t *p)
{
    struct timespec ts;

    if (p->clock)
        return p->clock(p->clock_arg);
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void tk_progress_state(const tk_progress_t *p, double now, int final, tk_progress_state_t *out)
{
    int64_t done = __atomic_load_n(&p->done, __ATOMIC_RELAXED);

    out->what = p->what;
    out->unit = p->unit;
    out->done = done;
    out->total = p->total;
    out->elapsed = now > p->t0 ? now - p->t0 : 0;
    out->rate = out->elapsed > 0 ? (double)done / out->elapsed : 0;
    out->final = final;
    out->percent = -1;
    out->eta = -1;
    if (p->total > 0) {
        int64_t d = done < 0 ? 0 : done > p->total ? p->total : done;

        out->percent = 100.0 * (double)d / (double)p->total;
        if (d == p->total)
            out->eta = 0;
        else if (out->rate > 0)
            out->eta = (double)(p->total - d) / out->rate;
    }
}

void tk_progress_begin(tk_progress_t *p, const char *what, const char *unit, int64_t total)
{
    if (!p)
        return;
    p->what = what ? what : "";
    p->unit = unit ? unit : "units";
    p->total = total > 0 ? total : 0;
    p->done = 0;
    p->busy = 0;
    p->t0 = now_of(p);
    p->next = p->t0 + (p->interval > 0 ? p->interval : 0.1);
    p->active = 1;
}

void tk_progress_add(tk_progress_t *p, int64_t units)
{
    tk_progress_state_t s;
    double now, next;
    int idle = 0;

    if (!p || !p->active)
        return;
    __atomic_add_fetch(&p->done, units, __ATOMIC_RELAXED);
    if (!p->fn)
        return;
    now = now_of(p);
    __atomic_load(&p->next, &next, __ATOMIC_RELAXED);
    if (now < next)
        return;
    if (!__atomic_compare_exchange_n(&p->busy, &idle, 1, 0, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
        return;
    /* Re-read under the flag: another thread may have reported meanwhile. */
    __atomic_load(&p->next, &next, __ATOMIC_RELAXED);
    if (now >= next) {
        next = now + (p->interval > 0 ? p->interval : 0.1);
        __atomic_store(&p->next, &next, __ATOMIC_RELAXED);
        tk_progress_state(p, now, 0, &s);
        p->fn(p->arg, &s);
    }
    __atomic_store_n(&p->busy, 0, __ATOMIC_RELEASE);
}

void tk_progress_set_total(tk_progress_t *p, int64_t total)
{
    if (p && p->active)
        p->total = total > 0 ? total : 0;
}

void tk_progress_set(tk_progress_t *p, int64_t done)
{
    if (p && p->active)
        tk_progress_add(p, done - __atomic_load_n(&p->done, __ATOMIC_RELAXED));
}

void tk_progress_end(tk_progress_t *p)
{
    tk_progress_state_t s;

    if (!p || !p->active)
        return;
    p->active = 0;
    if (p->fn) {
        tk_progress_state(p, now_of(p), 1, &s);
        p->fn(p->arg, &s);
    }
}
