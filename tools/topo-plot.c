/*
 * topo-plot - draw the TSV table of a topokit tool with gnuplot.  The plot
 * is chosen from the columns it recognises (accepted-versus-offered curves,
 * link-load and distance histograms, per-server bars, bounds and k-shortest
 * path lengths against the size); -x, -y and --by override.  The gnuplot
 * script holds its data inline, so it can be kept (--script) and rerun.
 * See topo-plot(1).
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

#define USAGE                                                                                      \
    "topo-plot [-x COL] [-y COL[,COL...]] [--by COL[,COL...]] [--title TEXT]\n"                    \
    "                 [--caption TEXT] [--log x|y|xy] [-T png|svg|pdf] [--script FILE]\n"          \
    "                 [-n] -o FIGURE [TSV...]"

/* Exit status when gnuplot is missing or lacks the terminal. */
#define EXIT_NO_GNUPLOT 3

#define MAX_COLS 128
#define MAX_Y 8
#define MAX_BY 4

typedef struct args {
    const char *x, *ycols[MAX_Y], *by[MAX_BY];
    int ny, nby;
    const char *title, *caption, *log, *term, *script, *output;
    int no_render;
    char **inputs;
    int ninputs;
    char *ybuf, *bybuf; /* storage of the split lists */
} args_t;

/* The table: header and rows of fields (all strings). */
typedef struct table {
    char *head[MAX_COLS];
    int ncols;
    char ***rows;
    long nrows, cap;
    char **notes; /* '#' lines of the inputs, in order */
    int nnotes;
    char *names; /* input names, for the script's comment */
} table_t;

/* What a recognised table is drawn as. */
typedef struct kind {
    const char *name;    /* for the script's first comment           */
    const char *need[4]; /* columns that identify it (NULL-ended)    */
    const char *x, *y;   /* default columns (y may be a list)        */
    const char *by;      /* candidate series columns                 */
    const char *xlabel, *ylabel;
    const char *style; /* gnuplot 'with' clause                     */
    int boxes;         /* 1: x is a bin or an index drawn as a box  */
} kind_t;

static const kind_t kinds[] = {
    {"accepted-versus-offered curves (topo-sim --sweep or --curve)",
     {"rho", "accepted", NULL},
     "offered",
     "accepted",
     "name,routing,pattern,arbitration",
     "offered load per server (fraction of its injection bandwidth)",
     "accepted load per server (fraction of its injection bandwidth)",
     "linespoints pointsize 0.6",
     0},
    {"link-load histogram (topo-load --hist)",
     {"lo", "hi", "arcs", NULL},
     "lo",
     "arcs",
     "name,routing,pattern",
     "link load (server injection bandwidths per unit of capacity)",
     "links (arcs) in the bin",
     "boxes",
     1},
    {"distance histogram (topo-dist --hist)",
     {"distance", "pairs", NULL},
     "distance",
     "pairs",
     "name",
     "distance (hops)",
     "ordered pairs of switches",
     "boxes",
     1},
    {"accepted load per server (topo-sim --per-server)",
     {"server", "switch", "accepted", NULL},
     "server",
     "accepted",
     "name,routing,pattern",
     "server",
     "accepted load (fraction of its injection bandwidth)",
     "boxes",
     1},
    {"bounds against the size (topo-bounds)",
     {"N", "r", "diam_lb", NULL},
     "N",
     "lk,cerf_avg",
     "r",
     "switches N",
     "average distance bound (hops)",
     "linespoints pointsize 0.6",
     0},
    {"k-shortest-path length against the size (topo-ksp)",
     {"n", "k", "avg_ksp_length", NULL},
     "n",
     "avg_ksp_length",
     "k,degree",
     "switches n",
     "average length of the k shortest paths (hops)",
     "linespoints pointsize 0.6",
     0},
    {"throughput against the failure fraction (topo-resilience)",
     {"fraction", "p_disconnected", "throughput.mean", NULL},
     "fraction",
     "throughput.mean",
     "name,unit,routing,pattern",
     "fraction of links (switches) removed",
     "saturation throughput per server (mean, confidence interval)",
     "yerrorlines pointsize 0.6",
     0},
};
/* The kind whose default plot has error bars (throughput.lo, .hi). */
#define KIND_RESILIENCE (&kinds[sizeof kinds / sizeof kinds[0] - 1])

static void help(void)
{
    printf("usage: %s\n\n", USAGE);
    fputs("Draw the TSV table of a topokit tool (TSV files, or standard input) with\n"
          "gnuplot into FIGURE (.png, .svg or .pdf).  The plot is chosen from the columns:\n"
          "  rho accepted         accepted against offered load, one line per series,\n"
          "                       the saturation column marked (topo-sim --sweep)\n"
          "  lo hi arcs           link-load histogram (topo-load --hist)\n"
          "  distance pairs       distance histogram (topo-dist --hist)\n"
          "  server switch accepted  bars per server (topo-sim --per-server)\n"
          "  N r diam_lb          bounds against N (topo-bounds sweeps)\n"
          "  n k avg_ksp_length   k-shortest-path length against n (topo-ksp)\n"
          "  fraction p_disconnected throughput.mean  throughput against the failure\n"
          "                       fraction with its confidence interval (topo-resilience)\n"
          "Other tables need -x and -y.  Lines starting with '#' become the caption.\n\n"
          "Options:\n"
          "  -x COL                x column\n"
          "  -y COL[,COL...]       y columns (one series per column and --by value)\n"
          "  --by COL[,COL...]     series: one per distinct value (default: the\n"
          "                        label columns of the recognised table that vary)\n"
          "  --title TEXT          title (default: the kind of plot)\n"
          "  --caption TEXT        caption, e.g. the command that made the data\n"
          "                        (default: the inputs' first '#' line)\n"
          "  --log x|y|xy          logarithmic axes\n"
          "  -T png|svg|pdf        terminal (default: from FIGURE's extension)\n"
          "  --script FILE         also write the gnuplot script to FILE ('-': stdout)\n"
          "  -n, --no-render       write the script only; gnuplot is not run\n"
          "  -o, --output FIGURE   the figure (written atomically)\n"
          "  -h, --help            this help\n"
          "      --version         print the version\n\n"
          "Environment: TOPOKIT_GNUPLOT, the gnuplot program (default: gnuplot on PATH).\n"
          "Exit status: 0 success, 1 data error or gnuplot failure, 2 usage error,\n"
          "3 gnuplot not found or without the terminal.\n"
          "See topo-plot(1).\n",
          stdout);
}

/* Split a comma list in place into out[] (at most max); the count. */
static int split_list(const char *opt, char *s, const char **out, int max)
{
    int n = 0;
    for (char *tok = strtok(s, ","); tok; tok = strtok(NULL, ",")) {
        if (n == max)
            cli_arg_fail(opt, s, "at most %d columns", max);
        out[n++] = tok;
    }
    if (n == 0)
        cli_arg_fail(opt, s, "no column named");
    return n;
}

static void parse_args(int argc, char **argv, args_t *a)
{
    enum { OPT_VERSION = 256, OPT_BY, OPT_TITLE, OPT_CAPTION, OPT_LOG, OPT_SCRIPT };
    static const struct option longopts[] = {{"by", required_argument, NULL, OPT_BY},
                                             {"title", required_argument, NULL, OPT_TITLE},
                                             {"caption", required_argument, NULL, OPT_CAPTION},
                                             {"log", required_argument, NULL, OPT_LOG},
                                             {"script", required_argument, NULL, OPT_SCRIPT},
                                             {"no-render", no_argument, NULL, 'n'},
                                             {"output", required_argument, NULL, 'o'},
                                             {"help", no_argument, NULL, 'h'},
                                             {"version", no_argument, NULL, OPT_VERSION},
                                             {NULL, 0, NULL, 0}};
    int c;

    memset(a, 0, sizeof *a);
    while ((c = getopt_long(argc, argv, ":hx:y:T:no:", longopts, NULL)) != -1) {
        switch (c) {
        case 'x':
            a->x = optarg;
            break;
        case 'y':
            a->ybuf = optarg;
            a->ny = split_list("-y", optarg, a->ycols, MAX_Y);
            break;
        case OPT_BY:
            a->bybuf = optarg;
            a->nby = split_list("--by", optarg, a->by, MAX_BY);
            break;
        case OPT_TITLE:
            a->title = optarg;
            break;
        case OPT_CAPTION:
            a->caption = optarg;
            break;
        case OPT_LOG:
            if (strcmp(optarg, "x") && strcmp(optarg, "y") && strcmp(optarg, "xy"))
                cli_arg_fail("--log", optarg, "not x, y or xy");
            a->log = optarg;
            break;
        case 'T':
            if (strcmp(optarg, "png") && strcmp(optarg, "svg") && strcmp(optarg, "pdf"))
                cli_arg_fail("-T", optarg, "not png, svg or pdf");
            a->term = optarg;
            break;
        case OPT_SCRIPT:
            a->script = optarg;
            break;
        case 'n':
            a->no_render = 1;
            break;
        case 'o':
            a->output = optarg;
            break;
        case OPT_VERSION:
            cli_print_version();
            exit(CLI_EXIT_OK);
        default:
            cli_getopt_default(c, argv, USAGE, help);
        }
    }
    if (!a->output)
        cli_usage_fail(USAGE, "-o FIGURE is required");
    if (!a->term) {
        const char *dot = strrchr(a->output, '.');
        if (dot &&
            (strcmp(dot, ".png") == 0 || strcmp(dot, ".svg") == 0 || strcmp(dot, ".pdf") == 0))
            a->term = dot + 1;
        else
            cli_arg_fail("-o", a->output,
                         "extension is not .png, .svg or .pdf (or give -T png|svg|pdf)");
    }
    if (a->no_render && !a->script)
        cli_usage_fail(USAGE, "-n without --script writes nothing");
    if (a->x && !a->ny)
        cli_usage_fail(USAGE, "-x needs -y");
    a->inputs = argv + optind;
    a->ninputs = argc - optind;
}

/* ------------------------------------------------------------------------ */
/* Reading.                                                                  */

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    return d;
}

static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        cli_errorf("out of memory");
        exit(CLI_EXIT_DATA);
    }
    return q;
}

/* Read one TSV input; the first input's header is the table's, a later
 * input's header must equal it.  0, or -1 after an error message. */
static int read_input(table_t *t, const char *path)
{
    cli_lines_t L;
    char *f[MAX_COLS + 1];
    int have_head = 0;

    if (cli_lines_open(&L, path))
        return -1;
    size_t nl = t->names ? strlen(t->names) : 0;
    t->names = xrealloc(t->names, nl + strlen(L.name) + 2);
    sprintf(t->names + nl, "%s%s", nl ? " " : "", L.name);
    for (;;) {
        int st = cli_lines_next(&L);
        if (st < 0)
            goto fail;
        if (st == 0)
            break;
        if (L.line[0] == '\0')
            continue;
        if (L.line[0] == '#') {
            const char *s = L.line + 1;
            while (*s == ' ')
                s++;
            t->notes = xrealloc(t->notes, (size_t)(t->nnotes + 1) * sizeof *t->notes);
            t->notes[t->nnotes++] = xstrdup(s);
            continue;
        }
        char *line = xstrdup(L.line);
        int n = cli_split_tabs(line, f, MAX_COLS);
        if (n < 0) {
            cli_lines_error(&L, "more than %d columns", MAX_COLS);
            free(line);
            goto fail;
        }
        if (!have_head) {
            have_head = 1;
            if (t->ncols == 0) {
                for (int i = 0; i < n; i++)
                    t->head[i] = f[i];
                t->ncols = n;
                continue; /* line is kept: the header's storage */
            }
            int same = n == t->ncols;
            for (int i = 0; same && i < n; i++)
                same = strcmp(f[i], t->head[i]) == 0;
            free(line);
            if (!same) {
                cli_lines_error(&L, "header differs from the first input's");
                goto fail;
            }
            continue;
        }
        if (n == t->ncols) {
            /* A repeated header (tables concatenated with cat) is skipped. */
            int same = 1;
            for (int i = 0; same && i < n; i++)
                same = strcmp(f[i], t->head[i]) == 0;
            if (same) {
                free(line);
                continue;
            }
        }
        if (n != t->ncols) {
            cli_lines_error(&L, "%d fields, the header has %d", n, t->ncols);
            free(line);
            goto fail;
        }
        if (t->nrows == t->cap) {
            t->cap = t->cap ? 2 * t->cap : 64;
            t->rows = xrealloc(t->rows, (size_t)t->cap * sizeof *t->rows);
        }
        char **row = xrealloc(NULL, (size_t)n * sizeof *row);
        memcpy(row, f, (size_t)n * sizeof *row);
        t->rows[t->nrows++] = row;
    }
    if (!have_head) {
        cli_lines_error(&L, "no header line (a topokit TSV table starts with one)");
        goto fail;
    }
    cli_lines_close(&L);
    return 0;
fail:
    cli_lines_close(&L);
    return -1;
}

static int col(const table_t *t, const char *name)
{
    for (int i = 0; i < t->ncols; i++)
        if (strcmp(t->head[i], name) == 0)
            return i;
    return -1;
}

/* A finite number (the whole field)? */
static int is_number(const char *s)
{
    char *end;
    if (!*s)
        return 0;
    double v = strtod(s, &end);
    return *end == '\0' && isfinite(v);
}

/* ------------------------------------------------------------------------ */
/* The script.                                                               */

/* Print s as a gnuplot double-quoted string. */
static void put_quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', fp);
        fputc((*s == '\t' || *s == '\n') ? ' ' : *s, fp);
    }
    fputc('"', fp);
}

typedef struct plan {
    const kind_t *kind; /* NULL: -x/-y on an unrecognised table */
    int x, y[MAX_Y], ny, by[MAX_BY], nby, bin_hi, sat;
    int elo, ehi; /* error bar columns of the one y column, or -1 */
    const char *xlabel, *ylabel, *style;
    int boxes;
} plan_t;

/* The series key of row r: the --by fields joined with spaces. */
static void series_key(const table_t *t, const plan_t *p, char **row, char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < p->nby; i++) {
        const char *c = t->head[p->by[i]];
        int bare = strcmp(c, "name") == 0 || strcmp(c, "routing") == 0 ||
                   strcmp(c, "pattern") == 0 || strcmp(c, "arbitration") == 0;
        k += (size_t)snprintf(buf + k, k < len ? len - k : 0, "%s%s%s%s", i ? " " : "",
                              bare ? "" : c, bare ? "" : "=", row[p->by[i]]);
    }
}

/* Write the script for figure `out` (the path gnuplot writes). */
static void write_script(FILE *fp, const table_t *t, const plan_t *p, const args_t *a,
                         const char *out)
{
    long *first = xrealloc(NULL, (size_t)(t->nrows + 1) * sizeof *first);
    long nseries = 0, skipped = 0;
    char key[512], key2[512];

    fprintf(fp, "# topo-plot %s: %s\n", PACKAGE_VERSION,
            p->kind ? p->kind->name : "columns given with -x and -y");
    fprintf(fp, "# data: %s\n", t->names ? t->names : "<stdin>");
    for (int i = 0; i < t->nnotes; i++)
        fprintf(fp, "# %s\n", t->notes[i]);
    if (strcmp(a->term, "png") == 0)
        fputs("set terminal pngcairo size 900,560 enhanced font \"sans,11\"\n", fp);
    else if (strcmp(a->term, "svg") == 0)
        fputs("set terminal svg size 900,560 enhanced font \"sans,11\" background rgb "
              "\"white\"\n",
              fp);
    else
        fputs("set terminal pdfcairo size 6in,3.75in enhanced font \"sans,9\"\n", fp);
    fputs("set output ", fp);
    put_quoted(fp, out);
    fputs("\nset encoding utf8\nset title ", fp);
    put_quoted(fp, a->title ? a->title : p->kind ? p->kind->name : "");
    fputs(" noenhanced\nset xlabel ", fp);
    put_quoted(fp, p->xlabel);
    fputs(" noenhanced\nset ylabel ", fp);
    put_quoted(fp, p->ylabel);
    fputs(" noenhanced\nset grid\nset key outside right top noenhanced\n", fp);
    const char *cap = a->caption ? a->caption : t->nnotes ? t->notes[0] : NULL;
    if (cap) {
        fputs("set bmargin 5\nset label 1 ", fp);
        put_quoted(fp, cap);
        fputs(" at screen 0.01, screen 0.02 left font \",8\" noenhanced\n", fp);
    }
    if (a->log) {
        fprintf(fp, "set logscale %s\n", a->log);
    }
    if (p->boxes)
        fputs("set style fill transparent solid 0.35 border\nset boxwidth 0.8 relative\n", fp);
    /* Series in order of first appearance. */
    for (long r = 0; r < t->nrows; r++) {
        series_key(t, p, t->rows[r], key, sizeof key);
        long s;
        for (s = 0; s < nseries; s++) {
            series_key(t, p, t->rows[first[s]], key2, sizeof key2);
            if (strcmp(key, key2) == 0)
                break;
        }
        if (s == nseries)
            first[nseries++] = r;
    }
    /* One data block per series: x, then each y column, then x_hi. */
    for (long s = 0; s < nseries; s++) {
        series_key(t, p, t->rows[first[s]], key, sizeof key);
        fprintf(fp, "$s%ld << EOD\n", s + 1);
        for (long r = first[s]; r < t->nrows; r++) {
            char **row = t->rows[r];
            series_key(t, p, row, key2, sizeof key2);
            if (strcmp(key, key2) != 0)
                continue;
            int good = is_number(row[p->x]) && (p->bin_hi < 0 || is_number(row[p->bin_hi]));
            for (int j = 0; j < p->ny; j++)
                good = good && is_number(row[p->y[j]]);
            if (p->elo >= 0)
                good = good && is_number(row[p->elo]) && is_number(row[p->ehi]);
            if (!good) {
                skipped++;
                continue;
            }
            fputs(row[p->x], fp);
            for (int j = 0; j < p->ny; j++)
                fprintf(fp, "\t%s", row[p->y[j]]);
            if (p->bin_hi >= 0)
                fprintf(fp, "\t%s", row[p->bin_hi]);
            if (p->elo >= 0)
                fprintf(fp, "\t%s\t%s", row[p->elo], row[p->ehi]);
            fputc('\n', fp);
        }
        fputs("EOD\n", fp);
        if (p->sat >= 0 && is_number(t->rows[first[s]][p->sat]))
            fprintf(fp, "$m%ld << EOD\n%s\t%s\nEOD\n", s + 1, t->rows[first[s]][p->sat],
                    t->rows[first[s]][p->sat]);
    }
    if (skipped)
        fprintf(fp, "# rows left out (a plotted field is not a number): %ld\n", skipped);
    fputs("plot ", fp);
    int nplot = 0;
    for (long s = 0; s < nseries; s++) {
        series_key(t, p, t->rows[first[s]], key, sizeof key);
        for (int j = 0; j < p->ny; j++) {
            char label[600];
            if (p->ny > 1)
                snprintf(label, sizeof label, "%s%s%s", t->head[p->y[j]], key[0] ? " " : "", key);
            else
                snprintf(label, sizeof label, "%s", key[0] ? key : t->head[p->y[j]]);
            fprintf(fp, "%s$s%ld using ", nplot++ ? ", \\\n     " : "", s + 1);
            if (p->bin_hi >= 0)
                fprintf(fp, "(($1+$%d)/2):%d:($%d-$1)", p->ny + 2, j + 2, p->ny + 2);
            else if (p->elo >= 0)
                fprintf(fp, "1:%d:%d:%d", j + 2, p->ny + 2, p->ny + 3);
            else
                fprintf(fp, "1:%d", j + 2);
            fprintf(fp, " with %s lc %d title ", p->style, nplot);
            put_quoted(fp, label);
        }
        if (p->sat >= 0 && is_number(t->rows[first[s]][p->sat])) {
            char label[600];
            snprintf(label, sizeof label, "saturation (topo-load)%s%s", key[0] ? " " : "", key);
            fprintf(fp, ", \\\n     $m%ld using 1:2 with points pt 6 ps 1.6 lw 2 lc %d title ",
                    s + 1, nplot);
            put_quoted(fp, label);
        }
    }
    fputc('\n', fp);
    free(first);
}

/* ------------------------------------------------------------------------ */
/* Choosing the plot.                                                        */

static int need_col(const table_t *t, const char *opt, const char *name)
{
    int c = col(t, name);
    if (c < 0) {
        char cols[1024];
        size_t k = 0;
        cols[0] = '\0';
        for (int i = 0; i < t->ncols && k < sizeof cols; i++)
            k += (size_t)snprintf(cols + k, sizeof cols - k, "%s%s", i ? " " : "", t->head[i]);
        cli_errorf("%s %s: no such column (the table has: %s)", opt, name, cols);
        exit(CLI_EXIT_USAGE);
    }
    return c;
}

/* Does column c take more than one value? */
static int varies(const table_t *t, int c)
{
    for (long r = 1; r < t->nrows; r++)
        if (strcmp(t->rows[r][c], t->rows[0][c]) != 0)
            return 1;
    return 0;
}

static void make_plan(const table_t *t, const args_t *a, plan_t *p)
{
    memset(p, 0, sizeof *p);
    p->bin_hi = p->sat = p->elo = p->ehi = -1;
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0] && !p->kind; k++) {
        int all = 1;
        for (int i = 0; kinds[k].need[i]; i++)
            all = all && col(t, kinds[k].need[i]) >= 0;
        if (all)
            p->kind = &kinds[k];
    }
    if (!p->kind && !a->x) {
        char cols[1024];
        size_t k = 0;
        cols[0] = '\0';
        for (int i = 0; i < t->ncols && k < sizeof cols; i++)
            k += (size_t)snprintf(cols + k, sizeof cols - k, "%s%s", i ? " " : "", t->head[i]);
        cli_errorf("%s: unrecognised table (columns: %s); give -x and -y", t->names, cols);
        exit(CLI_EXIT_DATA);
    }
    const kind_t *kd = p->kind;
    /* x */
    const char *x = a->x ? a->x : kd->x;
    if (!a->x && kd == &kinds[0] && col(t, "offered") < 0)
        x = "rho";
    p->x = need_col(t, "-x", x);
    /* y */
    if (a->ny) {
        for (int j = 0; j < a->ny; j++)
            p->y[j] = need_col(t, "-y", a->ycols[j]);
        p->ny = a->ny;
    } else {
        char buf[128];
        snprintf(buf, sizeof buf, "%s", kd->y);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
            p->y[p->ny++] = need_col(t, "-y", tok);
    }
    /* series */
    if (a->nby) {
        for (int j = 0; j < a->nby; j++)
            p->by[j] = need_col(t, "--by", a->by[j]);
        p->nby = a->nby;
    } else if (kd) {
        char buf[128];
        int firstc = -1;
        snprintf(buf, sizeof buf, "%s", kd->by);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
            int c = col(t, tok);
            if (c < 0)
                continue;
            if (firstc < 0)
                firstc = c;
            if (varies(t, c) && p->nby < MAX_BY)
                p->by[p->nby++] = c;
        }
        if (p->nby == 0 && firstc >= 0 && p->ny == 1)
            p->by[p->nby++] = firstc; /* one series, named by its label */
    }
    /* axes and style */
    int same_x = kd && strcmp(t->head[p->x], x) == 0 && !a->x;
    int same_y = kd && !a->ny;
    p->xlabel = same_x ? kd->xlabel : t->head[p->x];
    if (kd == &kinds[0] && same_x && strcmp(x, "rho") == 0)
        p->xlabel = kd->xlabel;
    p->ylabel = same_y ? kd->ylabel : p->ny == 1 ? t->head[p->y[0]] : "value";
    p->style = kd && !a->x ? kd->style : "linespoints pointsize 0.6";
    p->boxes = kd && !a->x && kd->boxes;
    if (kd == &kinds[1] && !a->x)
        p->bin_hi = col(t, "hi");
    if (kd == &kinds[0] && !a->ny)
        p->sat = col(t, "saturation");
    if (kd == KIND_RESILIENCE && !a->ny && !a->x && col(t, "throughput.lo") >= 0 &&
        col(t, "throughput.hi") >= 0) {
        p->elo = col(t, "throughput.lo");
        p->ehi = col(t, "throughput.hi");
    }
}

/* ------------------------------------------------------------------------ */
/* Rendering.                                                                */

/* The gnuplot program: $TOPOKIT_GNUPLOT or gnuplot found on PATH; NULL if
 * none is executable. */
static const char *find_gnuplot(char *buf, size_t len)
{
    const char *env = getenv("TOPOKIT_GNUPLOT");
    if (env && *env)
        return access(env, X_OK) == 0 ? env : NULL;
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, len, "%.*s/gnuplot", (int)n, path);
        if (n > 0 && access(buf, X_OK) == 0)
            return buf;
        path += n + (path[n] == ':');
    }
    return NULL;
}

/* Run gnuplot on `script`; 0 when it exits 0. */
static int run_gnuplot(const char *prog, const char *script, const char *errfile)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0) {
        FILE *e = freopen(errfile, "w", stderr);
        (void)e;
        execl(prog, prog, script, (char *)NULL);
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

/* First line of a file into buf ("" if none). */
static void first_line(const char *path, char *buf, size_t len)
{
    FILE *fp = fopen(path, "r");
    buf[0] = '\0';
    if (!fp)
        return;
    while (fgets(buf, (int)len, fp)) {
        buf[strcspn(buf, "\n")] = '\0';
        if (buf[0])
            break;
    }
    fclose(fp);
}

static int render(const table_t *t, const plan_t *p, const args_t *a)
{
    char gp[4096], *tmpfig = NULL, script[4096], errf[4200];
    const char *prog = find_gnuplot(gp, sizeof gp);
    int status = CLI_EXIT_DATA, fd;
    FILE *fp;

    if (!prog) {
        cli_errorf("gnuplot not found (%s; install Debian's gnuplot-nox): %s not drawn",
                   getenv("TOPOKIT_GNUPLOT") && *getenv("TOPOKIT_GNUPLOT")
                       ? "TOPOKIT_GNUPLOT is not executable"
                       : "not on PATH",
                   a->output);
        return EXIT_NO_GNUPLOT;
    }
    const char *tmpdir = getenv("TMPDIR");
    snprintf(script, sizeof script, "%s/topo-plot.XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    fd = mkstemp(script);
    if (fd < 0 || !(fp = fdopen(fd, "w"))) {
        cli_errorf("temporary script: %s", strerror(errno));
        return CLI_EXIT_DATA;
    }
    snprintf(errf, sizeof errf, "%s.err", script);
    tmpfig = xrealloc(NULL, strlen(a->output) + 32);
    sprintf(tmpfig, "%s.tmp%ld", a->output, (long)getpid());
    write_script(fp, t, p, a, tmpfig);
    if (fclose(fp) != 0) {
        cli_errorf("temporary script: %s", strerror(errno));
        goto done;
    }
    struct stat sb;
    if (run_gnuplot(prog, script, errf) != 0 || stat(tmpfig, &sb) != 0 || sb.st_size == 0) {
        char msg[512];
        first_line(errf, msg, sizeof msg);
        if (strstr(msg, "unknown or ambiguous terminal")) {
            cli_errorf("%s has no %s terminal (install Debian's gnuplot-nox): %s not drawn", prog,
                       strcmp(a->term, "png") == 0   ? "pngcairo"
                       : strcmp(a->term, "pdf") == 0 ? "pdfcairo"
                                                     : "svg",
                       a->output);
            status = EXIT_NO_GNUPLOT;
        } else {
            cli_errorf("%s: gnuplot failed%s%s", a->output, msg[0] ? ": " : "", msg);
        }
        unlink(tmpfig);
        goto done;
    }
    if (rename(tmpfig, a->output) != 0) {
        cli_errorf("%s: %s", a->output, strerror(errno));
        unlink(tmpfig);
        goto done;
    }
    status = CLI_EXIT_OK;
done:
    unlink(script);
    unlink(errf);
    free(tmpfig);
    return status;
}

static void table_free(table_t *t)
{
    for (long r = 0; r < t->nrows; r++) {
        free(t->rows[r][0]);
        free(t->rows[r]);
    }
    free(t->rows);
    if (t->ncols)
        free(t->head[0]);
    for (int i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->notes);
    free(t->names);
}

int main(int argc, char **argv)
{
    int status;
    args_t a;
    table_t t;
    plan_t p;

    cli_set_prog("topo-plot");
    parse_args(argc, argv, &a);
    memset(&t, 0, sizeof t);
    if (a.ninputs == 0 && read_input(&t, NULL)) {
        table_free(&t);
        return CLI_EXIT_DATA;
    }
    for (int i = 0; i < a.ninputs; i++)
        if (read_input(&t, a.inputs[i])) {
            table_free(&t);
            return CLI_EXIT_DATA;
        }
    if (t.nrows == 0) {
        cli_errorf("%s: no rows to plot", t.names ? t.names : "<stdin>");
        table_free(&t);
        return CLI_EXIT_DATA;
    }
    make_plan(&t, &a, &p);
    if (a.script) {
        cli_out_t out;
        if (cli_out_open(&out, a.script) != 0) {
            table_free(&t);
            return CLI_EXIT_DATA;
        }
        write_script(out.fp, &t, &p, &a, a.output);
        if (cli_out_commit(&out) != 0) {
            table_free(&t);
            return CLI_EXIT_DATA;
        }
    }
    status = a.no_render ? CLI_EXIT_OK : render(&t, &p, &a);
    table_free(&t);
    return status;
}
