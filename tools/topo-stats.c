/*
 * topo-stats - mean, standard deviation and Student t confidence interval
 * of one column of numbers (a column of topo-* output over random samples).
 * See topo-stats(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tk_stats.h"

static const char usage[] = "topo-stats [-c COLUMN] [--level L] [--json] [-o FILE] [FILE...]";

typedef struct args {
    const char *column; /* -c: a 1-based number or a header name (default 1) */
    double level;       /* --level (default 0.95)                           */
    int json;
    const char *output;
    char **inputs;
    int ninputs;
} args_t;

static void help(void)
{
    printf("usage: %s\n\n", usage);
    fputs("Statistics of one column of numbers read from every FILE (or standard\n"
          "input): one TSV row with the columns\n"
          "  column n mean sd min max ci_low ci_high halfwidth rel_halfwidth\n"
          "ci_low..ci_high is the two-sided Student t confidence interval of the mean\n"
          "at the given level (halfwidth = t sd / sqrt(n)); rel_halfwidth =\n"
          "halfwidth / |mean|.  Fields are separated by tabs (a line with a tab) or\n"
          "else by blanks; empty lines\n"
          "and lines starting with '#' are skipped; a first line whose field is not a\n"
          "number is a header (then COLUMN may be its name; later lines whose field is\n"
          "that name, the headers of concatenated tool outputs, are skipped too).\n\n"
          "Options:\n"
          "  -c, --column COLUMN   field number (1 = first, the default) or header name\n"
          "  --level L             confidence level, 0 < L < 1 (default 0.95)\n"
          "  --json                one JSON object instead of the TSV table\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error (a value that is not a number, a\n"
          "missing field, no values), 2 usage error.  See topo-stats(1).\n",
          stdout);
}

enum { OPT_LEVEL = 256, OPT_JSON, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"column", required_argument, NULL, 'c'},
        {"level", required_argument, NULL, OPT_LEVEL},
        {"json", no_argument, NULL, OPT_JSON},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    int c;
    char *end;

    memset(a, 0, sizeof *a);
    a->column = "1";
    a->level = 0.95;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hc:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (!*optarg)
                cli_usage_fail(usage, "invalid value '' for --column");
            a->column = optarg;
            break;
        case OPT_LEVEL:
            a->level = strtod(optarg, &end);
            if (end == optarg || *end || !(a->level > 0 && a->level < 1))
                cli_usage_fail(usage, "invalid value '%s' for --level: must be between 0 and 1",
                               optarg);
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
}

/* The separators of a line: tabs when it has one (TSV: fields such as a
 * graph's name may contain blanks), else runs of blanks. */
static const char *seps(const char *line)
{
    return strchr(line, '\t') ? "\t\r\n" : " \t\r\n";
}

/* Field k (0-based) of a line, NUL-terminated in place; NULL if the line
 * has fewer fields.  Tab-separated fields are trimmed of blanks. */
static char *field(char *line, long k)
{
    const char *sep = seps(line);
    char *save = NULL, *tok = strtok_r(line, sep, &save);
    for (long i = 0; tok && i < k; i++)
        tok = strtok_r(NULL, sep, &save);
    if (tok) {
        while (*tok == ' ')
            tok++;
        for (char *e = tok + strlen(tok); e > tok && e[-1] == ' ';)
            *--e = 0;
    }
    return tok;
}

static int is_number(const char *s, double *v)
{
    char *end;
    *v = strtod(s, &end);
    return end != s && *end == 0;
}

typedef struct values {
    double *x;
    int64_t n, cap;
    long col; /* 0-based, -1 until resolved from a header name */
} values_t;

static int push(values_t *v, double x)
{
    if (v->n == v->cap) {
        int64_t c = v->cap ? 2 * v->cap : 1024;
        double *p = tk_realloc_array(v->x, (size_t)c, sizeof *p);
        if (!p)
            return 0;
        v->x = p;
        v->cap = c;
    }
    v->x[v->n++] = x;
    return 1;
}

/* Read one input; 0 ok, 1 error (printed). */
static int read_input(const char *path, const args_t *a, values_t *v)
{
    const char *name;
    FILE *fp = cli_open_input(path, &name);
    char *line = NULL, *copy = NULL;
    size_t cap = 0;
    long lineno = 0;
    int rc = 0, first = 1;

    if (!fp)
        return 1;
    while (getline(&line, &cap, fp) != -1) {
        lineno++;
        char *p = line;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '#' || *p == '\n' || *p == '\r' || *p == 0)
            continue;
        int head = first;
        first = 0;
        if (v->col < 0) { /* a header name: find it on the first line */
            free(copy);
            copy = strdup(line);
            if (!copy) {
                cli_errorf("out of memory");
                rc = 1;
                break;
            }
            char *save = NULL;
            const char *sep = seps(copy);
            long k = 0;
            for (char *t = strtok_r(copy, sep, &save); t; t = strtok_r(NULL, sep, &save), k++)
                if (strcmp(t, a->column) == 0) {
                    v->col = k;
                    break;
                }
            if (v->col < 0) {
                cli_errorf("%s:%ld: no column named '%s' in the header", name, lineno, a->column);
                rc = 1;
                break;
            }
            continue;
        }
        char *f = field(line, v->col);
        double x;
        if (!f) {
            cli_errorf("%s:%ld: no field %ld on this line", name, lineno, v->col + 1);
            rc = 1;
            break;
        }
        if (!is_number(f, &x)) {
            /* a header: the first line of an input, or (with a named
             * column) a repeated header of concatenated tool outputs */
            if (head || strcmp(f, a->column) == 0)
                continue;
            cli_errorf("%s:%ld: '%s' is not a number", name, lineno, f);
            rc = 1;
            break;
        }
        if (!isfinite(x)) {
            cli_errorf("%s:%ld: '%s' is not a finite number", name, lineno, f);
            rc = 1;
            break;
        }
        if (!push(v, x)) {
            cli_errorf("out of memory");
            rc = 1;
            break;
        }
    }
    if (!rc && ferror(fp)) {
        cli_errorf("%s: read error", name);
        rc = 1;
    }
    free(line);
    free(copy);
    cli_close_input(fp);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;
    values_t v;
    tk_sample_stats_t s;
    tk_error_t err;
    cli_out_t out;
    char *end;
    int rc = CLI_EXIT_DATA;

    cli_set_prog("topo-stats");
    cli_gsl_errors_off();
    parse_args(argc, argv, &a);
    memset(&v, 0, sizeof v);
    long num = strtol(a.column, &end, 10);
    if (*end == 0 && end != a.column) {
        if (num < 1)
            cli_usage_fail(usage, "invalid value '%s' for --column: fields count from 1", a.column);
        v.col = num - 1;
    } else {
        v.col = -1;
    }
    if (a.ninputs == 0) {
        if (read_input("-", &a, &v))
            goto done;
    }
    for (int i = 0; i < a.ninputs; i++)
        if (read_input(a.inputs[i], &a, &v))
            goto done;
    if (v.n == 0) {
        cli_errorf("no values in column %s", a.column);
        goto done;
    }
    if (tk_sample_stats(v.x, v.n, a.level, &s, &err) != TK_OK) {
        cli_error(&err);
        goto done;
    }
    if (cli_out_open(&out, a.output))
        goto done;
    {
        cli_row_t row;
        if (!a.json)
            fputs("column\tn\tmean\tsd\tmin\tmax\tci_low\tci_high\thalfwidth\trel_halfwidth\n",
                  out.fp);
        cli_row_begin(&row, out.fp, a.json);
        cli_cell_str(&row, "column", a.column);
        cli_cell_int(&row, "n", s.n, 0);
        cli_cell_double(&row, "mean", s.mean);
        cli_cell_double(&row, "sd", s.sd);
        cli_cell_double(&row, "min", s.min);
        cli_cell_double(&row, "max", s.max);
        cli_cell_double(&row, "ci_low", s.mean - s.halfwidth);
        cli_cell_double(&row, "ci_high", s.mean + s.halfwidth);
        cli_cell_double(&row, "halfwidth", s.halfwidth);
        cli_cell_double(&row, "rel_halfwidth", s.mean != 0 ? s.halfwidth / fabs(s.mean) : INFINITY);
        cli_row_end(&row);
    }
    rc = cli_out_commit(&out) ? CLI_EXIT_DATA : CLI_EXIT_OK;
done:
    free(v.x);
    return rc;
}
