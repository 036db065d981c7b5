/*
 * tap.h - minimal TAP producer for the C unit tests (one header, no state
 * outside this translation unit).  Each test program: tap_plan_lazy at start,
 * ok()/is_int()/... per assertion, return tap_done() from main.
 */
#ifndef TK_TAP_H
#define TK_TAP_H

#include <stdio.h>
#include <stdarg.h>
#include <string.h>
#include <stdlib.h>
#include <inttypes.h>

static int tap_count;
static int tap_failed;

static void tap_vok(int cond, const char *fmt, va_list ap)
{
    tap_count++;
    if (!cond)
        tap_failed++;
    printf("%sok %d - ", cond ? "" : "not ", tap_count);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
}

static int ok(int cond, const char *fmt, ...) __attribute__((format(printf, 2, 3), unused));
static int ok(int cond, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    tap_vok(cond, fmt, ap);
    va_end(ap);
    return cond;
}

/* Compare integers, print both on failure. */
#define is_int(got, want, ...)                                                                     \
    do {                                                                                           \
        long long tap_g_ = (long long)(got), tap_w_ = (long long)(want);                           \
        if (!ok(tap_g_ == tap_w_, __VA_ARGS__))                                                    \
            printf("#   got %lld, want %lld (%s:%d)\n", tap_g_, tap_w_, __FILE__, __LINE__);       \
    } while (0)

/* Compare doubles within an absolute tolerance. */
#define is_dbl(got, want, tol, ...)                                                                \
    do {                                                                                           \
        double tap_g_ = (double)(got), tap_w_ = (double)(want);                                    \
        double tap_d_ = tap_g_ - tap_w_;                                                           \
        if (tap_d_ < 0)                                                                            \
            tap_d_ = -tap_d_;                                                                      \
        if (!ok(tap_d_ <= (tol), __VA_ARGS__))                                                     \
            printf("#   got %.17g, want %.17g (%s:%d)\n", tap_g_, tap_w_, __FILE__, __LINE__);     \
    } while (0)

/* Compare strings (NULL-safe). */
#define is_str(got, want, ...)                                                                     \
    do {                                                                                           \
        const char *tap_g_ = (got), *tap_w_ = (want);                                              \
        int tap_c_ = (tap_g_ && tap_w_) ? strcmp(tap_g_, tap_w_) == 0 : tap_g_ == tap_w_;          \
        if (!ok(tap_c_, __VA_ARGS__))                                                              \
            printf("#   got '%s', want '%s' (%s:%d)\n", tap_g_ ? tap_g_ : "(null)",                \
                   tap_w_ ? tap_w_ : "(null)", __FILE__, __LINE__);                                \
    } while (0)

static void tap_diag(const char *fmt, ...) __attribute__((format(printf, 1, 2), unused));
static void tap_diag(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("# ");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
}

/* Print the plan (at the end) and return the exit status. */
static int tap_done(void) __attribute__((unused));
static int tap_done(void)
{
    printf("1..%d\n", tap_count);
    return tap_failed ? 1 : 0;
}

#endif /* TK_TAP_H */
