/*
 * progress.c - the progress meter of --progress: the printing side of the
 * library's tk_progress_t (tk_core.h).
 *
 * On a terminal the meter is one line rewritten in place (carriage return,
 * erase to the end of the line) and ended by a newline when the phase
 * ends; otherwise it writes plain lines, at most one every
 * TOPOKIT_PROGRESS_INTERVAL seconds (default 5), plus a final line per
 * phase.  Everything goes to standard error, never to standard output.
 */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"

typedef struct meter {
    tk_progress_t p;
    char label[256];
    int tty;           /* stderr is a terminal: one updated line              */
    int open;          /* a terminal line is waiting for its newline          */
    double every;      /* seconds between plain lines                         */
    double last;       /* elapsed time of the last plain line (-1: none yet)  */
    const void *phase; /* the phase `last` belongs to                       */
} meter_t;

static meter_t meter;

/* "1:02:03", "2:03" or "4.2 s". */
static void format_seconds(char *buf, size_t len, double s)
{
    long t = (long)(s + 0.5);

    if (s < 60)
        snprintf(buf, len, "%.1f s", s);
    else if (t < 3600)
        snprintf(buf, len, "%ld:%02ld", t / 60, t % 60);
    else
        snprintf(buf, len, "%ld:%02ld:%02ld", t / 3600, t / 60 % 60, t % 60);
}

int cli_progress_format(char *buf, size_t len, const char *label, const tk_progress_state_t *s)
{
    char el[32], eta[32], rate[32];
    int k;

    format_seconds(el, sizeof el, s->elapsed);
    if (s->rate >= 100 || s->rate == 0)
        snprintf(rate, sizeof rate, "%.0f", s->rate);
    else
        snprintf(rate, sizeof rate, "%.3g", s->rate);
    if (s->total > 0) {
        k = snprintf(buf, len, "%s%s%s: %.1f%% (%lld of %lld %s), %s %s/s, ", label,
                     label[0] ? ": " : "", s->what, s->percent, (long long)s->done,
                     (long long)s->total, s->unit, rate, s->unit);
        if (k < 0 || (size_t)k >= len)
            return k;
        if (s->final)
            return k + snprintf(buf + k, len - (size_t)k, "done in %s", el);
        if (s->eta < 0)
            return k + snprintf(buf + k, len - (size_t)k, "ETA unknown");
        format_seconds(eta, sizeof eta, s->eta);
        return k + snprintf(buf + k, len - (size_t)k, "ETA %s", eta);
    }
    /* Unknown total: count and rate only. */
    return snprintf(buf, len, "%s%s%s: %lld %s, %s %s/s, %s %s (total unknown)", label,
                    label[0] ? ": " : "", s->what, (long long)s->done, s->unit, rate, s->unit,
                    s->final ? "done in" : "elapsed", el);
}

static void report(void *arg, const tk_progress_state_t *s)
{
    meter_t *m = arg;
    char line[1024];

    if (m->phase != (const void *)s->what || s->elapsed < m->last) {
        m->phase = s->what;
        m->last = -1;
    }
    if (!m->tty && !s->final && m->last >= 0 && s->elapsed - m->last < m->every)
        return;
    if (!m->tty && !s->final && m->last < 0 && s->elapsed < m->every)
        return;
    cli_progress_format(line, sizeof line, m->label, s);
    if (m->tty) {
        fprintf(stderr, "\r%s: %s\033[K%s", cli_prog(), line, s->final ? "\n" : "");
        m->open = !s->final;
    } else {
        fprintf(stderr, "%s: %s\n", cli_prog(), line);
        m->last = s->elapsed;
    }
    fflush(stderr);
}

tk_progress_t *cli_meter(const char *label)
{
    const char *env;

    if (!cli_progress_active())
        return NULL;
    if (!meter.p.fn) {
        meter.tty = isatty(STDERR_FILENO);
        meter.every = 5;
        env = getenv("TOPOKIT_PROGRESS_INTERVAL");
        if (env && *env) {
            char *end;
            double v = strtod(env, &end);
            if (*end == '\0' && v >= 0 && v <= 86400)
                meter.every = v;
        }
        meter.p.fn = report;
        meter.p.arg = &meter;
        /* The library may call at most ten times a second, faster only
         * when plain lines are asked for more often. */
        meter.p.interval = meter.every < 0.1 ? (meter.every > 0 ? meter.every : 1e-9) : 0.1;
    }
    snprintf(meter.label, sizeof meter.label, "%s", label ? label : "");
    meter.last = -1;
    meter.phase = NULL;
    return &meter.p;
}

tk_progress_t *cli_meter_graph(const char *input, long index)
{
    char label[256];

    snprintf(label, sizeof label, "%s: graph %ld", input, index);
    return cli_meter(label);
}

void cli_meter_break(void)
{
    if (meter.open) {
        fputc('\n', stderr);
        meter.open = 0;
    }
}
