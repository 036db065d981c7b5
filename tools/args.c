/*
 * args.c - argument parsing shared by the tools: integers, decimals, ranges
 * LO:HI:STEP, choices and KEY=VALUE lists, with one diagnostic style.
 *
 * The parsers proper (cli_parse_*) are pure: they return 0, or -1 with the
 * reason in why[CLI_WHY_MAX] ("not an integer", "must be at least 1", ...).
 * The callers put the argument in front as the user wrote it:
 *   topo-ksp: -k 0: must be at least 1             (option, exit 2)
 *   topo-bounds: N=2:10:0: range step must be at least 1  (parameter)
 * which is also the form of the library's parameter errors ("d=10: must be
 * less than n=10").
 */
#include <config.h>

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"

static int reason(char *why, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int reason(char *why, const char *fmt, ...)
{
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, CLI_WHY_MAX, fmt, ap);
    va_end(ap);
    return -1;
}

/* "[+-]digits": the only integer syntax (no blanks, no base prefixes). */
static int int_syntax(const char *s, int sign_ok)
{
    if (sign_ok && (*s == '+' || *s == '-'))
        s++;
    if (!*s)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static int int_range_reason(char *why, int64_t min, int64_t max)
{
    if (min == max)
        return reason(why, "must be %" PRId64, min);
    if (max == INT64_MAX)
        return reason(why, "must be at least %" PRId64, min);
    if (min == INT64_MIN)
        return reason(why, "must be at most %" PRId64, max);
    return reason(why, "must be between %" PRId64 " and %" PRId64, min, max);
}

int cli_parse_int(const char *s, int64_t min, int64_t max, int64_t *v, char *why)
{
    long long x;

    if (!int_syntax(s, 1))
        return reason(why, "not an integer");
    errno = 0;
    x = strtoll(s, NULL, 10);
    if (errno == ERANGE || x < min || x > max)
        return int_range_reason(why, min, max);
    *v = (int64_t)x;
    return 0;
}

int cli_parse_u64(const char *s, uint64_t *v, char *why)
{
    unsigned long long x;

    if (!int_syntax(s, 0))
        return reason(why, "not a non-negative integer");
    errno = 0;
    x = strtoull(s, NULL, 10);
    if (errno == ERANGE)
        return reason(why, "must be at most %" PRIu64, UINT64_MAX);
    *v = (uint64_t)x;
    return 0;
}

/* "[+-]digits[.digits][(e|E)[+-]digits]" with at least one digit before the
 * exponent: plain decimal notation only (no blanks, hexadecimal, nan). */
static int decimal_syntax(const char *s)
{
    int digits = 0;

    if (*s == '+' || *s == '-')
        s++;
    for (; *s >= '0' && *s <= '9'; s++)
        digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (!digits)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (*s < '0' || *s > '9')
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return *s == '\0';
}

/* "inf", "infinity", "nan" (any case, optional sign): what strtod takes
 * besides decimals and hexadecimals. */
static int is_word(const char *s, const char *word, const char *long_word)
{
    if (*s == '+' || *s == '-')
        s++;
    return strcasecmp(s, word) == 0 || (long_word && strcasecmp(s, long_word) == 0);
}

/* The words of a decimal range: "between 0 and 1", "greater than 0 and at
 * most 0.5", "at least 0", ... */
static int dbl_range_reason(char *why, double min, double max, unsigned flags)
{
    char lo[64] = "", hi[64] = "";

    if (min > -HUGE_VAL)
        snprintf(lo, sizeof lo, "%s %g", flags & CLI_GT_MIN ? "greater than" : "at least", min);
    if (max < HUGE_VAL)
        snprintf(hi, sizeof hi, "%s %g", flags & CLI_LT_MAX ? "less than" : "at most", max);
    if (lo[0] && hi[0] && !(flags & (CLI_GT_MIN | CLI_LT_MAX)))
        return reason(why, "must be between %g and %g", min, max);
    if (lo[0] && hi[0])
        return reason(why, "must be %s and %s", lo, hi);
    return reason(why, "must be %s", lo[0] ? lo : hi);
}

int cli_parse_double(const char *s, double min, double max, unsigned flags, double *v, char *why)
{
    double x;

    if (is_word(s, "inf", "infinity")) {
        if (!(flags & CLI_INF))
            return reason(why, "not a finite number");
        x = *s == '-' ? -HUGE_VAL : HUGE_VAL;
    } else if (is_word(s, "nan", NULL)) {
        if (!(flags & CLI_NAN))
            return reason(why, "not a finite number");
        *v = NAN;
        return 0;
    } else if (!decimal_syntax(s)) {
        return reason(why, "not a number");
    } else {
        x = strtod(s, NULL); /* an underflow gives 0 or a subnormal: fine */
        if (isinf(x) && !(flags & CLI_INF))
            return reason(why, "out of range");
    }
    if (x < min || x > max || ((flags & CLI_GT_MIN) && x == min) ||
        ((flags & CLI_LT_MAX) && x == max))
        return dbl_range_reason(why, min, max, flags);
    *v = x;
    return 0;
}

int cli_parse_size(const char *s, uint64_t *v, char *why)
{
    static const char units[] = "kmgt";
    const char *unit = s + strlen(s);
    char *num, tmp[CLI_WHY_MAX];
    double x, mult = 1;
    int bad;

    /* the number, then K, M, G or T (powers of 1024), then an optional B */
    if (unit > s && (unit[-1] == 'B' || unit[-1] == 'b'))
        unit--;
    if (unit > s && unit[-1] && strchr(units, unit[-1] | 0x20)) {
        mult = (double)(UINT64_C(1) << (10 * (strchr(units, unit[-1] | 0x20) - units + 1)));
        unit--;
    }
    num = strndup(s, (size_t)(unit - s));
    if (!num)
        return reason(why, "out of memory");
    bad = cli_parse_double(num, 0, HUGE_VAL, 0, &x, tmp);
    free(num);
    if (bad)
        return reason(why, "not a size (bytes, or a number with K, M, G or T)");
    x *= mult;
    *v = x >= 1.8e19 ? 0 : (uint64_t)x; /* beyond 2^64: no limit */
    return 0;
}

int cli_parse_range(const char *s, cli_range_t *r, char *why)
{
    const char *part = s;
    uint64_t x[3] = {0, 0, 1};
    int nparts = 0;

    /* LO[:HI[:STEP]], each part a non-negative integer */
    for (;;) {
        const char *colon = strchr(part, ':');
        size_t len = colon ? (size_t)(colon - part) : strlen(part);
        char *one, tmp[CLI_WHY_MAX];
        int bad;

        if (nparts == 3)
            return reason(why, "not a range: use LO, LO:HI or LO:HI:STEP");
        one = strndup(part, len);
        if (!one)
            return reason(why, "out of memory");
        bad = cli_parse_u64(one, &x[nparts++], tmp);
        free(one);
        if (bad)
            return reason(why, "not a non-negative integer or range LO:HI[:STEP]");
        if (!colon)
            break;
        part = colon + 1;
    }
    if (nparts == 1)
        x[1] = x[0];
    if (x[2] == 0)
        return reason(why, "range step must be at least 1");
    if (x[0] > x[1])
        return reason(why, "reversed range (%" PRIu64 " > %" PRIu64 ")", x[0], x[1]);
    if ((x[1] - x[0]) / x[2] == UINT64_MAX) /* its count would not fit */
        return reason(why, "range of more than 2^64-1 values");
    r->lo = x[0];
    r->hi = x[1];
    r->step = x[2];
    return 0;
}

uint64_t cli_range_count(const cli_range_t *r)
{
    return (r->hi - r->lo) / r->step + 1;
}

uint64_t cli_range_last(const cli_range_t *r)
{
    return r->lo + (cli_range_count(r) - 1) * r->step;
}

int cli_parse_choice(const char *s, const char *const choices[], char *why)
{
    size_t len = 0;
    int n = 0;

    for (; choices[n]; n++)
        if (strcmp(s, choices[n]) == 0)
            return n;
    /* "must be exact, approx or auto" */
    len = (size_t)snprintf(why, CLI_WHY_MAX, "must be ");
    for (int i = 0; i < n && len < CLI_WHY_MAX; i++)
        len += (size_t)snprintf(why + len, CLI_WHY_MAX - len, "%s%s",
                                i == 0       ? ""
                                : i == n - 1 ? " or "
                                             : ", ",
                                choices[i]);
    return -1;
}

/* ------------------------------------------------------------------------ */
/* Options: the diagnostic, "Try --help", exit 2.                           */

void cli_arg_fail(const char *option, const char *value, const char *fmt, ...)
{
    char why[CLI_WHY_MAX];
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    /* an empty value would vanish from the message: show it quoted */
    cli_usage_fail(NULL, "%s %s: %s", option, *value ? value : "''", why);
}

int64_t cli_int_arg(const char *option, const char *s, int64_t min, int64_t max)
{
    char why[CLI_WHY_MAX];
    int64_t v = 0;

    if (cli_parse_int(s, min, max, &v, why))
        cli_arg_fail(option, s, "%s", why);
    return v;
}

uint64_t cli_u64_arg(const char *option, const char *s)
{
    char why[CLI_WHY_MAX];
    uint64_t v = 0;

    if (cli_parse_u64(s, &v, why))
        cli_arg_fail(option, s, "%s", why);
    return v;
}

double cli_double_arg(const char *option, const char *s, double min, double max, unsigned flags)
{
    char why[CLI_WHY_MAX];
    double v = 0;

    if (cli_parse_double(s, min, max, flags, &v, why))
        cli_arg_fail(option, s, "%s", why);
    return v;
}

int cli_choice_arg(const char *option, const char *s, const char *const choices[])
{
    char why[CLI_WHY_MAX];
    int i = cli_parse_choice(s, choices, why);

    if (i < 0)
        cli_arg_fail(option, s, "%s", why);
    return i;
}

/* ------------------------------------------------------------------------ */
/* KEY=VALUE lists.                                                         */

int cli_is_kv(const char *s)
{
    const char *eq = strchr(s, '=');

    if (!eq || eq == s)
        return 0;
    for (const char *c = s; c < eq; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')))
            return 0;
    return 1;
}

int cli_split_words(char *s, char **w, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(s, " \t", &save); t && n < max; t = strtok_r(NULL, " \t", &save))
        w[n++] = t;
    return n;
}

int cli_kv_parse(int nwords, char *const words[], cli_kv_t *keys, const char *known,
                 tk_error_t *err)
{
    for (int i = 0; i < nwords; i++) {
        const char *w = words[i], *eq = strchr(w, '=');
        char why[CLI_WHY_MAX];
        cli_kv_t *k = NULL;
        size_t klen;
        int bad;

        if (!eq || eq == w) {
            tk_error_set(err, TK_EINVAL, NULL, 0, "'%s': expected KEY=VALUE", w);
            return -1;
        }
        klen = (size_t)(eq - w);
        for (cli_kv_t *x = keys; x->key; x++)
            if (strlen(x->key) == klen && strncmp(x->key, w, klen) == 0)
                k = x;
        if (!k) {
            tk_error_set(err, TK_EINVAL, NULL, 0, "%.*s: unknown parameter (known: %s)", (int)klen,
                         w, known);
            return -1;
        }
        if (k->given) {
            tk_error_set(err, TK_EINVAL, NULL, 0, "%s: parameter %s given twice", w, k->key);
            return -1;
        }
        if (k->kind == CLI_KV_DOUBLE)
            bad = cli_parse_double(eq + 1, k->min, k->max, k->flags, &k->value, why);
        else if (k->kind == CLI_KV_RANGE)
            bad = cli_parse_range(eq + 1, &k->range, why);
        else
            bad = 0;
        if (bad) {
            tk_error_set(err, TK_EINVAL, NULL, 0, "%s: %s", w, why);
            return -1;
        }
        k->text = eq + 1;
        k->given = 1;
    }
    return 0;
}

void cli_stdin_once(const char *usage, const char *option, const char *what, const char *path,
                    char *const inputs[], int n)
{
    if (!path || strcmp(path, "-") != 0)
        return;
    int clash = n == 0;
    for (int i = 0; i < n && !clash; i++)
        clash = strcmp(inputs[i], "-") == 0;
    if (clash)
        cli_usage_fail(usage, "%s -: the %s and the topology cannot both be standard input", option,
                       what);
}
