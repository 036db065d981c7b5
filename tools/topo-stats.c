/*
 * topo-stats - mean, standard deviation and Student t confidence interval
 * of one column of numbers (a column of topo-* output over random samples).
 * See topo-stats(1).
 */
#include <config.h>

#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "tk_stats.h"

static const char usage[] =
    "topo-stats [-c COLUMN] [--level L] [--json] [--progress] [-o FILE] [FILE...]";

typedef struct args {
    const char *column; /* -c: a 1-based number or a header name (default 1) */
    long col;           /* its 0-based field number; -1: a header name       */
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
          "  --progress            progress on stderr (percentage, rate, ETA)\n"
          "  -o, --output FILE     write to FILE (atomically) instead of stdout\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Exit status: 0 success, 1 data error (a value that is not a number, a\n"
          "missing field, no values), 2 usage error.  See topo-stats(1).\n",
          stdout);
}

enum { OPT_LEVEL = 256, OPT_JSON, OPT_PROGRESS, OPT_VERSION };

static void parse_args(int argc, char **argv, args_t *a)
{
    static const struct option longopts[] = {
        {"column", required_argument, NULL, 'c'},
        {"level", required_argument, NULL, OPT_LEVEL},
        {"json", no_argument, NULL, OPT_JSON},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"version", no_argument, NULL, OPT_VERSION},
        {NULL, 0, NULL, 0},
    };
    char why[CLI_WHY_MAX];
    int64_t num;
    int c, column_given = 0;

    memset(a, 0, sizeof *a);
    a->column = "1";
    a->level = 0.95;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":hc:o:", longopts, NULL)) != -1) {
        switch (c) {
        case 'c':
            if (!*optarg)
                cli_arg_fail("--column", optarg, "empty: a field number or a header name");
            if (column_given++) /* not silently the last one */
                cli_usage_fail(usage, "-c %s: one column per run (-c %s given already)", optarg,
                               a->column);
            a->column = optarg;
            break;
        case OPT_LEVEL:
            a->level = cli_double_arg("--level", optarg, 0, 1, CLI_GT_MIN | CLI_LT_MAX);
            break;
        case OPT_JSON:
            a->json = 1;
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_PROGRESS:
            cli_progress_enable(1);
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, usage, help);
        }
    }
    /* COLUMN: a field number when it reads as an integer, else a name */
    a->col = -1;
    if (cli_parse_int(a->column, INT64_MIN, INT64_MAX, &num, why) == 0) {
        if (num < 1 || num > LONG_MAX)
            cli_arg_fail("--column", a->column, "fields count from 1");
        a->col = (long)(num - 1);
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

/* Is the line blank or a '#' comment? */
static int skipped(const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    return *line == '#' || *line == '\r' || *line == '\0';
}

/* The field number of a column name, from a header line; -1 if absent. */
static long named_column(const char *line, const char *name)
{
    char *copy = strdup(line), *save = NULL;
    const char *sep;
    long k = 0, col = -1;

    if (!copy)
        return -2;
    sep = seps(copy);
    for (char *t = strtok_r(copy, sep, &save); t; t = strtok_r(NULL, sep, &save), k++)
        if (strcmp(t, name) == 0) {
            col = k;
            break;
        }
    free(copy);
    return col;
}

/* Read one input; 0 ok, 1 error (printed). */
static int read_input(const char *path, const args_t *a, values_t *v)
{
    cli_lines_t L;
    int rc = 0, first = 1, more;

    if (cli_lines_open(&L, path))
        return 1;
    /* The length of a stream is not known: lines and rate only. */
    tk_progress_t *meter = cli_meter(path ? path : "-");
    tk_progress_begin(meter, "reading", "lines", 0);
    while (!rc && (more = cli_lines_next(&L)) > 0) {
        char why[CLI_WHY_MAX], *f;
        double x;
        int head = first;

        tk_progress_add(meter, 1);
        if (skipped(L.line))
            continue;
        first = 0;
        if (v->col < 0) { /* a header name: find it on the first line */
            v->col = named_column(L.line, a->column);
            if (v->col == -2)
                cli_errorf("out of memory");
            else if (v->col < 0)
                cli_lines_error(&L, "no column named '%s' in the header", a->column);
            rc = v->col < 0;
            continue;
        }
        if (!(f = field(L.line, v->col))) {
            cli_lines_error(&L, "no field %ld on this line", v->col + 1);
            rc = 1;
        } else if (cli_parse_double(f, -HUGE_VAL, HUGE_VAL, CLI_INF | CLI_NAN, &x, why)) {
            /* a header: the first line of an input, or (with a named
             * column) a repeated header of concatenated tool outputs */
            if (head || strcmp(f, a->column) == 0)
                continue;
            cli_lines_error(&L, "'%s': %s", f, why);
            rc = 1;
        } else if (!isfinite(x)) {
            cli_lines_error(&L, "'%s': not a finite number", f);
            rc = 1;
        } else if (!push(v, x)) {
            cli_errorf("out of memory");
            rc = 1;
        }
    }
    if (more < 0)
        rc = 1;
    tk_progress_end(meter);
    cli_lines_close(&L);
    return rc;
}

/* The statistics row (TSV with its header, or one JSON object). */
static int print_stats(const args_t *a, const tk_sample_stats_t *s)
{
    cli_out_t out;
    cli_row_t row;

    if (cli_out_open(&out, a->output))
        return CLI_EXIT_DATA;
    if (!a->json)
        fputs("column\tn\tmean\tsd\tmin\tmax\tci_low\tci_high\thalfwidth\trel_halfwidth\n", out.fp);
    cli_row_begin(&row, out.fp, a->json);
    cli_cell_str(&row, "column", a->column);
    cli_cell_int(&row, "n", s->n, 0);
    cli_cell_double(&row, "mean", s->mean);
    cli_cell_double(&row, "sd", s->sd);
    cli_cell_double(&row, "min", s->min);
    cli_cell_double(&row, "max", s->max);
    cli_cell_double(&row, "ci_low", s->mean - s->halfwidth);
    cli_cell_double(&row, "ci_high", s->mean + s->halfwidth);
    cli_cell_double(&row, "halfwidth", s->halfwidth);
    cli_cell_double(&row, "rel_halfwidth", s->mean != 0 ? s->halfwidth / fabs(s->mean) : INFINITY);
    cli_row_end(&row);
    return cli_out_commit(&out) ? CLI_EXIT_DATA : CLI_EXIT_OK;
}

static int run(const args_t *a)
{
    values_t v;
    tk_sample_stats_t s;
    tk_error_t err;
    int rc = CLI_EXIT_DATA;

    memset(&v, 0, sizeof v);
    v.col = a->col;
    if (a->ninputs == 0 && read_input("-", a, &v))
        goto done;
    for (int i = 0; i < a->ninputs; i++)
        if (read_input(a->inputs[i], a, &v))
            goto done;
    if (v.n == 0) {
        cli_errorf("no values in column %s", a->column);
        goto done;
    }
    if (tk_sample_stats(v.x, v.n, a->level, &s, &err) != TK_OK) {
        cli_error(&err);
        goto done;
    }
    rc = print_stats(a, &s);
done:
    free(v.x);
    return rc;
}

int main(int argc, char **argv)
{
    args_t a;

    cli_set_prog("topo-stats");
    cli_gsl_errors_off();
    parse_args(argc, argv, &a);
    return run(&a);
}
