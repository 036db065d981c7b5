/*
 * test_args.c - the argument parsers of the tools (tools/args.c): every
 * syntax they accept and refuse, and the exact reason they give, since the
 * reasons are the tools' diagnostics ("-k 0: must be at least 1").
 */
#include <config.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tap.h"

/* An integer that must fail with the given reason. */
static void int_fails(const char *s, int64_t min, int64_t max, const char *reason)
{
    char why[CLI_WHY_MAX] = "";
    int64_t v = 42;
    int rc = cli_parse_int(s, min, max, &v, why);

    ok(rc == -1 && v == 42 && strcmp(why, reason) == 0, "int '%s' in [%lld, %lld]: %s", s,
       (long long)min, (long long)max, reason);
    if (strcmp(why, reason) != 0)
        printf("#   got '%s'\n", why);
}

static void dbl_fails(const char *s, double min, double max, unsigned flags, const char *reason)
{
    char why[CLI_WHY_MAX] = "";
    double v = 42;
    int rc = cli_parse_double(s, min, max, flags, &v, why);

    ok(rc == -1 && v == 42 && strcmp(why, reason) == 0, "decimal '%s' (flags %u): %s", s, flags,
       reason);
    if (strcmp(why, reason) != 0)
        printf("#   got '%s'\n", why);
}

static void dbl_is(const char *s, double min, double max, unsigned flags, double want)
{
    char why[CLI_WHY_MAX] = "";
    double v = 42;
    int rc = cli_parse_double(s, min, max, flags, &v, why);

    ok(rc == 0 && (v == want || (isnan(v) && isnan(want))), "decimal '%s' reads %g", s, want);
    if (rc)
        printf("#   refused: %s\n", why);
}

static void range_fails(const char *s, const char *reason)
{
    char why[CLI_WHY_MAX] = "";
    cli_range_t r = {7, 7, 7};
    int rc = cli_parse_range(s, &r, why);

    ok(rc == -1 && r.lo == 7 && strcmp(why, reason) == 0, "range '%s': %s", s, reason);
    if (strcmp(why, reason) != 0)
        printf("#   got '%s'\n", why);
}

static void integers(void)
{
    char why[CLI_WHY_MAX];
    int64_t v = 0;
    uint64_t u = 0;

    ok(cli_parse_int("5", 1, 10, &v, why) == 0 && v == 5, "5 in [1, 10]");
    ok(cli_parse_int("+5", 1, 10, &v, why) == 0 && v == 5, "+5: a sign is allowed");
    ok(cli_parse_int("-9223372036854775808", INT64_MIN, INT64_MAX, &v, why) == 0 && v == INT64_MIN,
       "INT64_MIN");
    int_fails("", 1, 10, "not an integer");
    int_fails("-", 1, 10, "not an integer");
    int_fails(" 5", 1, 10, "not an integer");
    int_fails("5 ", 1, 10, "not an integer");
    int_fails("5x", 1, 10, "not an integer");
    int_fails("0x10", 1, 100, "not an integer");
    int_fails("1e3", 1, 10000, "not an integer");
    int_fails("2.0", 1, 10, "not an integer");
    int_fails("0", 1, 4096, "must be between 1 and 4096");
    int_fails("4097", 1, 4096, "must be between 1 and 4096");
    int_fails("-1", 0, INT64_MAX, "must be at least 0");
    int_fails("99999999999999999999", 1, INT64_MAX, "must be at least 1");
    int_fails("7", INT64_MIN, 5, "must be at most 5");
    int_fails("2", 3, 3, "must be 3");

    ok(cli_parse_u64("18446744073709551615", &u, why) == 0 && u == UINT64_MAX, "2^64-1 as u64");
    ok(cli_parse_u64("18446744073709551616", &u, why) == -1 &&
           strcmp(why, "must be at most 18446744073709551615") == 0,
       "2^64 refused: %s", why);
    ok(cli_parse_u64("-1", &u, why) == -1 && strcmp(why, "not a non-negative integer") == 0,
       "u64 -1: %s", why);
    ok(cli_parse_u64("+1", &u, why) == -1, "u64 takes no sign");
    ok(cli_parse_u64("", &u, why) == -1, "u64 empty");
}

static void decimals(void)
{
    dbl_is("0.5", 0, 1, 0, 0.5);
    dbl_is(".5", 0, 1, 0, 0.5);
    dbl_is("5.", 0, 10, 0, 5);
    dbl_is("+2", 0, 10, 0, 2);
    dbl_is("-0.25", -1, 1, 0, -0.25);
    dbl_is("1e-3", 0, 1, 0, 1e-3);
    dbl_is("1E+2", 0, 1000, 0, 100);
    dbl_is("1", 0, 1, 0, 1); /* closed end */
    dbl_is("inf", 0, HUGE_VAL, CLI_INF, HUGE_VAL);
    dbl_is("Infinity", 0, HUGE_VAL, CLI_INF, HUGE_VAL);
    dbl_is("1e400", 0, HUGE_VAL, CLI_INF, HUGE_VAL); /* overflow is inf */
    dbl_is("nan", -HUGE_VAL, HUGE_VAL, CLI_NAN, NAN);
    dbl_is("1e-400", 0, 1, 0, 0); /* underflow is 0 */

    dbl_fails("", 0, 1, 0, "not a number");
    dbl_fails(".", 0, 1, 0, "not a number");
    dbl_fails("e5", 0, 1, 0, "not a number");
    dbl_fails("1e", 0, 1, 0, "not a number");
    dbl_fails("1e+", 0, 1, 0, "not a number");
    dbl_fails("0.5x", 0, 1, 0, "not a number");
    dbl_fails(" 0.5", 0, 1, 0, "not a number");
    dbl_fails("0.5 ", 0, 1, 0, "not a number");
    dbl_fails("1.2.3", 0, 10, 0, "not a number");
    dbl_fails("0x1p-1", 0, 1, 0, "not a number");
    dbl_fails("nan", 0, 1, 0, "not a finite number");
    dbl_fails("-NaN", 0, 1, 0, "not a finite number");
    dbl_fails("nan(1)", 0, 1, CLI_NAN, "not a number");
    dbl_fails("inf", 0, HUGE_VAL, 0, "not a finite number");
    dbl_fails("-inf", -HUGE_VAL, HUGE_VAL, 0, "not a finite number");
    dbl_fails("1e400", 0, HUGE_VAL, 0, "out of range");
    dbl_fails("-inf", 0, HUGE_VAL, CLI_INF, "must be at least 0");
    dbl_fails("-1", 0, 1, 0, "must be between 0 and 1");
    dbl_fails("-0.5", 0, 1, CLI_GT_MIN | CLI_LT_MAX, "must be greater than 0 and less than 1");
    dbl_fails("0", 0, 1, CLI_GT_MIN | CLI_LT_MAX, "must be greater than 0 and less than 1");
    dbl_fails("1", 0, 1, CLI_GT_MIN | CLI_LT_MAX, "must be greater than 0 and less than 1");
    dbl_fails("0", 0, 0.5, CLI_GT_MIN, "must be greater than 0 and at most 0.5");
    dbl_fails("1e-400", 0, 0.5, CLI_GT_MIN, "must be greater than 0 and at most 0.5");
    dbl_fails("0", 0, HUGE_VAL, CLI_GT_MIN, "must be greater than 0");
    dbl_fails("-2", 0, HUGE_VAL, 0, "must be at least 0");
    dbl_fails("7", -HUGE_VAL, 5, 0, "must be at most 5");
    dbl_fails("5", -HUGE_VAL, 5, CLI_LT_MAX, "must be less than 5");
    dbl_fails("1e-16", 1e-15, 1e-2, 0, "must be between 1e-15 and 0.01");
}

static void ranges(void)
{
    char why[CLI_WHY_MAX];
    cli_range_t r;

    ok(cli_parse_range("5", &r, why) == 0 && r.lo == 5 && r.hi == 5 && r.step == 1 &&
           cli_range_count(&r) == 1,
       "5 is 5:5:1, one value");
    ok(cli_parse_range("2:10", &r, why) == 0 && r.lo == 2 && r.hi == 10 && r.step == 1 &&
           cli_range_count(&r) == 9,
       "2:10: nine values");
    ok(cli_parse_range("2:10:3", &r, why) == 0 && cli_range_count(&r) == 3 &&
           cli_range_last(&r) == 8,
       "2:10:3 is 2 5 8");
    ok(cli_parse_range("0:18446744073709551614", &r, why) == 0 && cli_range_count(&r) == UINT64_MAX,
       "0:2^64-2 has 2^64-1 values");
    range_fails("0:18446744073709551615", "range of more than 2^64-1 values");
    range_fails("10:2", "reversed range (10 > 2)");
    range_fails("2:10:0", "range step must be at least 1");
    range_fails("1:2:3:4", "not a range: use LO, LO:HI or LO:HI:STEP");
    range_fails("", "not a non-negative integer or range LO:HI[:STEP]");
    range_fails("2:", "not a non-negative integer or range LO:HI[:STEP]");
    range_fails(":3", "not a non-negative integer or range LO:HI[:STEP]");
    range_fails("-1:3", "not a non-negative integer or range LO:HI[:STEP]");
    range_fails("2:x", "not a non-negative integer or range LO:HI[:STEP]");
    range_fails("1.5", "not a non-negative integer or range LO:HI[:STEP]");
    range_fails("18446744073709551616", "not a non-negative integer or range LO:HI[:STEP]");
}

static void sizes(void)
{
    static const struct {
        const char *s;
        uint64_t v;
    } good[] = {{"0", 0},
                {"4096", 4096},
                {"10b", 10},
                {"2k", 2048},
                {"512M", UINT64_C(512) << 20},
                {"1.5GB", UINT64_C(3) << 29},
                {"1e3", 1000},
                {"2T", UINT64_C(2) << 40},
                {"20000000T", 0}}; /* beyond 2^64: no limit */
    static const char *const bad[] = {"",     "x",  "-1", "M",    "B",   "1KK",
                                      "5MB ", " 5", "1P", "0x10", "nan", "inf"};
    char why[CLI_WHY_MAX];
    uint64_t v;

    for (size_t i = 0; i < sizeof good / sizeof *good; i++)
        ok(cli_parse_size(good[i].s, &v, why) == 0 && v == good[i].v, "size '%s' is %llu",
           good[i].s, (unsigned long long)good[i].v);
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        ok(cli_parse_size(bad[i], &v, why) == -1 &&
               strcmp(why, "not a size (bytes, or a number with K, M, G or T)") == 0,
           "size '%s' refused", bad[i]);
}

static void choices(void)
{
    static const char *const abc[] = {"exact", "approx", "auto", NULL};
    static const char *const two[] = {"min", "max", NULL};
    static const char *const one[] = {"only", NULL};
    char why[CLI_WHY_MAX];

    is_int(cli_parse_choice("approx", abc, why), 1, "approx is choice 1");
    is_int(cli_parse_choice("Exact", abc, why), -1, "choices are case sensitive");
    is_str(why, "must be exact, approx or auto", "three choices named");
    cli_parse_choice("", two, why);
    is_str(why, "must be min or max", "two choices named");
    cli_parse_choice("x", one, why);
    is_str(why, "must be only", "one choice named");
}

static void kv_lists(void)
{
    tk_error_t err;
    char *good[] = {"N=2:5", "Dbar=2.5", "name="};
    char *twice[] = {"N=1", "N=2"};
    char *unknown[] = {"N=1", "x=1"};
    char *noeq[] = {"N"};
    char *bad_dbar[] = {"Dbar=-1"};
    char *bad_range[] = {"N=5:2"};

#define KEYS(k)                                                                                    \
    cli_kv_t k[] = {{.key = "N", .range = {1, 1, 1}},                                              \
                    {.key = "Dbar", .kind = CLI_KV_DOUBLE, .max = HUGE_VAL, .flags = CLI_GT_MIN},  \
                    {.key = "name", .kind = CLI_KV_STR},                                           \
                    {.key = "p", .range = {3, 3, 1}},                                              \
                    {.key = NULL}}
    {
        KEYS(k);
        ok(cli_kv_parse(3, good, k, "N Dbar name p", &err) == 0 && k[0].given &&
               k[0].range.lo == 2 && k[0].range.hi == 5 && k[1].given && k[1].value == 2.5 &&
               k[2].given && strcmp(k[2].text, "") == 0 && !k[3].given && k[3].range.lo == 3,
           "N=2:5 Dbar=2.5 name=: values, texts; p keeps its default");
    }
    {
        KEYS(k);
        ok(cli_kv_parse(2, twice, k, "N Dbar name p", &err) == -1 && err.code == TK_EINVAL,
           "a key given twice is refused");
        is_str(err.msg, "N=2: parameter N given twice", "... naming the second");
    }
    {
        KEYS(k);
        cli_kv_parse(2, unknown, k, "N Dbar name p", &err);
        is_str(err.msg, "x: unknown parameter (known: N Dbar name p)", "unknown key");
    }
    {
        KEYS(k);
        cli_kv_parse(1, noeq, k, "N Dbar name p", &err);
        is_str(err.msg, "'N': expected KEY=VALUE", "a word without '='");
    }
    {
        KEYS(k);
        cli_kv_parse(1, bad_dbar, k, "N Dbar name p", &err);
        is_str(err.msg, "Dbar=-1: must be greater than 0", "a bad decimal names KEY=VALUE");
    }
    {
        KEYS(k);
        cli_kv_parse(1, bad_range, k, "N Dbar name p", &err);
        is_str(err.msg, "N=5:2: reversed range (5 > 2)", "a bad range names KEY=VALUE");
    }
#undef KEYS
    ok(cli_is_kv("N=1") && cli_is_kv("Dbar=") && !cli_is_kv("=1") && !cli_is_kv("a1=2") &&
           !cli_is_kv("dir/x=y") && !cli_is_kv("file"),
       "KEY=VALUE words have a key of letters");
}

/* The number forms of the row writer. */
static void numbers(void)
{
    char buf[64];

    is_str(cli_format_double(buf, sizeof buf, 100, 15), "100", "100 in the tools' form");
    is_str(cli_format_double(buf, sizeof buf, 100, 1), "1e+02", "100 in the compact form");
    is_str(cli_format_double(buf, sizeof buf, 0.1, 15), "0.1", "0.1");
    is_str(cli_format_double(buf, sizeof buf, 1.0 / 3, 15), "0.3333333333333333",
           "1/3 reads back with 16 digits");
    is_str(cli_format_double(buf, sizeof buf, 0.1 + 0.2, 1), "0.30000000000000004",
           "0.1 + 0.2 needs 17 digits");
    is_str(cli_format_double(buf, sizeof buf, HUGE_VAL, 15), "inf", "inf");
    is_str(cli_format_double(buf, sizeof buf, -HUGE_VAL, 1), "-inf", "-inf");
    is_str(cli_format_double(buf, sizeof buf, NAN, 15), "nan", "nan");
}

int main(void)
{
    integers();
    decimals();
    ranges();
    sizes();
    choices();
    kv_lists();
    numbers();
    return tap_done();
}
