/*
 * cli.c - helpers shared by the command-line tools.
 */
#include <config.h>

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <gsl/gsl_errno.h>

#include "cli.h"

static const char *prog_name = "topokit";
static int progress_on = -1;

void cli_set_prog(const char *prog)
{
    const char *slash = strrchr(prog, '/');

    prog_name = slash ? slash + 1 : prog;
    /* libtool wrappers run the real binary as lt-NAME. */
    if (strncmp(prog_name, "lt-", 3) == 0)
        prog_name += 3;
}

const char *cli_prog(void)
{
    return prog_name;
}

void cli_error(const tk_error_t *err)
{
    fprintf(stderr, "%s: ", prog_name);
    if (err->where[0]) {
        fputs(err->where, stderr);
        if (err->line > 0)
            fprintf(stderr, ":%ld", err->line);
        fputs(": ", stderr);
    }
    fputs(err->msg[0] ? err->msg : tk_status_str(err->code), stderr);
    fputc('\n', stderr);
}

void cli_graph_error(const char *input, long index, const tk_error_t *err)
{
    fprintf(stderr, "%s: %s: graph %ld: %s\n", prog_name, input, index,
            err->msg[0] ? err->msg : tk_status_str(err->code));
}

void cli_errorf(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", prog_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_warnf(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: warning: ", prog_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_usage_fail(const char *usage, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", prog_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    if (usage)
        fprintf(stderr, "usage: %s\n", usage);
    fprintf(stderr, "Try '%s --help' for more information.\n", prog_name);
    exit(CLI_EXIT_USAGE);
}

void cli_getopt_default(int c, char *const argv[], const char *usage, void (*help)(void))
{
    if (c == 'h') {
        help();
        exit(fflush(stdout) || ferror(stdout) ? CLI_EXIT_DATA : CLI_EXIT_OK);
    }
    if (c == ':')
        cli_usage_fail(usage, "option '%s' needs an argument", argv[optind - 1]);
    if (optopt)
        cli_usage_fail(usage, "unknown option '-%c'", optopt);
    cli_usage_fail(usage, "unknown option '%s'", argv[optind - 1]);
}

void cli_print_version(void)
{
    printf("%s (topokit) %s\n", prog_name, tk_version());
}

uint64_t cli_mem_limit(void)
{
    const char *s = getenv("TOPOKIT_MEMORY_LIMIT");
    char why[CLI_WHY_MAX];
    uint64_t v;

    /* The default: this rank's share of the node's memory. */
    if (!s || !*s)
        return tk_memory_limit_default() / (uint64_t)cli_mpi_local_size();
    if (cli_parse_size(s, &v, why)) {
        cli_warnf("ignoring TOPOKIT_MEMORY_LIMIT='%s': %s", s, why);
        return tk_memory_limit_default() / (uint64_t)cli_mpi_local_size();
    }
    return v;
}

FILE *cli_open_input(const char *path, const char **name)
{
    FILE *fp;

    if (!path || strcmp(path, "-") == 0) {
        *name = "<stdin>";
        if (cli_mpi_size() > 1) { /* mpirun gives stdin to rank 0 only */
            cli_errorf("<stdin>: standard input cannot be read by %d MPI ranks: give a FILE",
                       cli_mpi_size());
            return NULL;
        }
        return stdin;
    }
    *name = path;
    fp = fopen(path, "r");
    if (!fp)
        cli_errorf("%s: %s", path, strerror(errno));
    return fp;
}

void cli_close_input(FILE *fp)
{
    if (fp && fp != stdin)
        fclose(fp);
}

int cli_read_pattern(const char *path, tk_pattern_t **pat)
{
    const char *name;
    tk_error_t err;
    FILE *fp = cli_open_input(path, &name);
    if (!fp)
        return CLI_EXIT_DATA;
    tk_error_clear(&err);
    tk_status_t st = tk_pattern_read(fp, name, pat, &err);
    cli_close_input(fp);
    if (st != TK_OK) {
        if (!err.where[0])
            snprintf(err.where, sizeof err.where, "%s", name);
        cli_error(&err);
        return CLI_EXIT_DATA;
    }
    return 0;
}

/* Temporary files of -o in flight, removed by a fatal signal (SIGINT,
 * SIGTERM, SIGHUP) before it ends the process the default way: an
 * interrupted run leaves no .topokit-tmp-* behind.  Fixed buffers, so the
 * handler only reads memory and calls unlink (async-signal-safe). */
#define TMP_SLOTS 8
#define TMP_PATH_MAX 4096
static char tmp_slot[TMP_SLOTS][TMP_PATH_MAX];
static volatile sig_atomic_t tmp_used[TMP_SLOTS];

static void tmp_signal(int sig)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmp_used[i])
            unlink(tmp_slot[i]);
    signal(sig, SIG_DFL);
    raise(sig);
}

/* Register a temporary file (-1 when there is no free slot or the path is
 * too long: the file is then only removed on the normal paths). */
static int tmp_register(const char *path)
{
    static int installed;
    size_t n = strlen(path);

    if (!installed) {
        static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
        installed = 1;
        for (size_t k = 0; k < sizeof sigs / sizeof sigs[0]; k++) {
            struct sigaction sa, old;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = tmp_signal;
            sigemptyset(&sa.sa_mask);
            /* leave a signal the caller chose to ignore ignored */
            if (sigaction(sigs[k], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
                continue;
            sigaction(sigs[k], &sa, NULL);
        }
    }
    if (n >= TMP_PATH_MAX)
        return -1;
    for (int i = 0; i < TMP_SLOTS; i++)
        if (!tmp_used[i]) {
            memcpy(tmp_slot[i], path, n + 1);
            tmp_used[i] = 1;
            return i;
        }
    return -1;
}

static void tmp_unregister(const char *path)
{
    for (int i = 0; i < TMP_SLOTS; i++)
        if (tmp_used[i] && strcmp(tmp_slot[i], path) == 0)
            tmp_used[i] = 0;
}

int cli_out_open(cli_out_t *o, const char *path)
{
    const char *slash;
    size_t dirlen;
    int fd;

    memset(o, 0, sizeof *o);
    if (path && cli_mpi_rank() > 0) /* MPI: rank 0 writes the file */
        path = "/dev/null";
    if (!path || strcmp(path, "-") == 0) {
        o->fp = stdout;
        return 0;
    }
    o->path = strdup(path);
    /* A device or a pipe (/dev/null, /dev/stdout, a FIFO) is written in
     * place: renaming a file over it would replace the device itself. */
    struct stat sb;
    if (o->path && stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode)) {
        o->fp = fopen(path, "w");
        if (!o->fp) {
            cli_errorf("%s: %s", path, strerror(errno));
            cli_out_abort(o);
            return -1;
        }
        return 0;
    }
    slash = strrchr(path, '/');
    dirlen = slash ? (size_t)(slash - path + 1) : 0;
    o->tmp = malloc(dirlen + 32);
    if (!o->path || !o->tmp) {
        cli_errorf("out of memory");
        cli_out_abort(o);
        return -1;
    }
    memcpy(o->tmp, path, dirlen);
    strcpy(o->tmp + dirlen, ".topokit-tmp-XXXXXX");
    {
        /* no signal between mkstemp and the registration */
        sigset_t all, old;
        sigfillset(&all);
        sigprocmask(SIG_BLOCK, &all, &old);
        fd = mkstemp(o->tmp);
        if (fd >= 0)
            tmp_register(o->tmp);
        sigprocmask(SIG_SETMASK, &old, NULL);
    }
    if (fd < 0) {
        cli_errorf("%s: cannot create a temporary file: %s", path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        cli_out_abort(o);
        return -1;
    }
    o->fp = fdopen(fd, "w");
    if (!o->fp) {
        cli_errorf("%s: %s", path, strerror(errno));
        close(fd);
        cli_out_abort(o);
        return -1;
    }
    return 0;
}

int cli_out_open_held(cli_out_t *o, const char *path)
{
    if (path && strcmp(path, "-") != 0)
        return cli_out_open(o, path);
    memset(o, 0, sizeof *o);
    o->fp = open_memstream(&o->mem, &o->memlen);
    if (!o->fp) {
        cli_errorf("out of memory");
        return -1;
    }
    o->held = 1;
    return 0;
}

/* Held standard output: write what the memory stream holds. */
static int commit_held(cli_out_t *o)
{
    int bad = fclose(o->fp) != 0;

    o->fp = NULL;
    if (bad) {
        cli_errorf("out of memory buffering the output");
        cli_out_abort(o);
        return -1;
    }
    bad = fwrite(o->mem, 1, o->memlen, stdout) != o->memlen;
    free(o->mem);
    o->mem = NULL;
    o->held = 0;
    if (bad || fflush(stdout) != 0 || ferror(stdout)) {
        cli_errorf("write error on standard output: %s", strerror(errno));
        return -1;
    }
    return 0;
}

int cli_out_commit(cli_out_t *o)
{
    int bad;

    if (o->held)
        return commit_held(o);
    if (!o->path) {
        /* stdout: report write errors (full disk, closed pipe). */
        bad = fflush(stdout) != 0 || ferror(stdout);
        if (bad) {
            cli_errorf("write error on standard output: %s", strerror(errno));
            return -1;
        }
        return 0;
    }
    bad = fflush(o->fp) != 0 || ferror(o->fp);
    if (fclose(o->fp) != 0)
        bad = 1;
    o->fp = NULL;
    if (bad) {
        cli_errorf("%s: write error: %s", o->path, strerror(errno));
        cli_out_abort(o);
        return -1;
    }
    if (!o->tmp) { /* written in place */
        free(o->path);
        o->path = NULL;
        return 0;
    }
    /* mkstemp creates 0600; give the file the usual permissions. */
    {
        mode_t mask = umask(0);
        umask(mask);
        chmod(o->tmp, 0666 & ~mask);
    }
    if (rename(o->tmp, o->path) != 0) {
        cli_errorf("%s: %s", o->path, strerror(errno));
        cli_out_abort(o);
        return -1;
    }
    tmp_unregister(o->tmp);
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
    return 0;
}

void cli_out_abort(cli_out_t *o)
{
    if (o->fp && o->fp != stdout)
        fclose(o->fp);
    o->fp = NULL;
    free(o->mem);
    o->mem = NULL;
    o->held = 0;
    if (o->tmp) {
        unlink(o->tmp);
        tmp_unregister(o->tmp);
    }
    free(o->tmp);
    free(o->path);
    o->tmp = o->path = NULL;
}

void cli_progress_enable(int force)
{
    progress_on = force || isatty(STDERR_FILENO);
}

int cli_progress_active(void)
{
    if (progress_on < 0)
        cli_progress_enable(0);
    return progress_on;
}

void cli_progress(const char *fmt, ...)
{
    va_list ap;

    if (!cli_progress_active())
        return;
    cli_meter_break();
    fprintf(stderr, "%s: ", prog_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

const char *cli_graph_name(const tk_graph_t *g, const char *input, long index, char *buf,
                           size_t len)
{
    char *p;

    if (g->spec && g->spec[0])
        snprintf(buf, len, "%s", g->spec);
    else
        snprintf(buf, len, "%s#%ld", input, index);
    for (p = buf; *p; p++)
        if (*p == '\t' || *p == '\n' || *p == '\r')
            *p = ' ';
    return buf;
}

tk_id_t cli_arc_tail(const tk_graph_t *g, int64_t arc)
{
    tk_id_t lo = 0, hi = g->n - 1;

    while (lo < hi) { /* the last u with off[u] <= arc */
        tk_id_t mid = lo + (hi - lo + 1) / 2;
        if (g->off[mid] <= arc)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int cli_threads(void)
{
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

void cli_set_threads(int n)
{
#ifdef _OPENMP
    if (n > 0)
        omp_set_num_threads(n);
#else
    (void)n;
#endif
}

/* An edge list is a multigraph by design (topokit-formats(5)): a line
 * repeated is a second link.  A few repeated links in an otherwise simple
 * graph are probably a mistake: warn (once per graph) and go on. */
void cli_warn_parallel(const tk_reader_t *r, const tk_graph_t *g, const char *name, long index)
{
    if (tk_reader_format(r) != TK_FMT_EDGES)
        return;
    int64_t links = 0, extra = 0;
    tk_id_t fu = -1, fv = -1;

    for (tk_id_t u = 0; u < g->n; u++)
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            tk_id_t v = g->head[a];
            if (!g->directed && v < u)
                continue;
            links++;
            if (a > g->off[u] && g->head[a - 1] == v && (g->directed || v != u)) {
                extra++;
                if (fu < 0) {
                    fu = u;
                    fv = v;
                }
            }
        }
    if (extra > 0 && 10 * extra < links)
        cli_warnf("%s: graph %ld: %" PRId64 " parallel link%s (switches %" PRId32 " and %" PRId32
                  " are joined more than once): each line of an edge list is a link of its own",
                  name, index, extra, extra == 1 ? "" : "s", (int32_t)fu, (int32_t)fv);
}

int cli_next_graph(tk_reader_t *r, const char *name, tk_graph_t **g)
{
    tk_error_t err;
    tk_status_t st;

    tk_error_clear(&err);
    st = tk_reader_next(r, g, &err);
    if (st == TK_EOF) {
        if (tk_reader_count(r) > 0)
            return 0;
        tk_error_set(&err, TK_EFORMAT, name, 0, "no graph in input");
    }
    if (st != TK_OK) {
        cli_error(&err);
        return -1;
    }
    cli_warn_parallel(r, *g, name, tk_reader_count(r));
    return 1;
}

int cli_format_single(tk_format_t f)
{
    return f == TK_FMT_EDGES || f == TK_FMT_GRAPHML || f == TK_FMT_GML || f == TK_FMT_ANYNET ||
           f == TK_FMT_CAMINOS;
}

int cli_check_single(tk_format_t f, const char *name, long idx)
{
    if (!cli_format_single(f) || idx <= 1)
        return 0;
    cli_errorf("%s: graph %ld: %s holds a single graph; use native (or graph6/sparse6/digraph6) "
               "for a stream of graphs",
               name, idx, f == TK_FMT_EDGES ? "an edge list" : tk_format_name(f));
    return -1;
}

int cli_filter_graphs(const char *input, tk_format_t in_fmt, tk_format_t out_fmt,
                      const char *output, int held, cli_filter_fn fn, void *ctx)
{
    const char *name;
    tk_reader_t *r = NULL;
    tk_error_t err;
    cli_out_t out;
    int status = CLI_EXIT_DATA;
    FILE *in = cli_open_input(input, &name);

    if (!in)
        return CLI_EXIT_DATA;
    if ((held ? cli_out_open_held(&out, output) : cli_out_open(&out, output)) != 0) {
        cli_close_input(in);
        return CLI_EXIT_DATA;
    }
    tk_error_clear(&err);
    if (tk_reader_new(&r, in, name, in_fmt, cli_mem_limit(), &err) != TK_OK) {
        cli_error(&err);
        goto fail;
    }
    for (;;) {
        tk_graph_t *g = NULL;
        int got = cli_next_graph(r, name, &g);
        if (got < 0)
            goto fail;
        if (got == 0)
            break;
        long idx = tk_reader_count(r);
        int frc = cli_check_single(out_fmt, name, idx) != 0 || fn(ctx, g, name, idx, out.fp) != 0;
        tk_graph_free(g);
        if (frc)
            goto fail;
    }
    if (cli_out_commit(&out) == 0)
        status = CLI_EXIT_OK;
    goto done;
fail:
    cli_out_abort(&out);
done:
    tk_reader_free(r);
    cli_close_input(in);
    return status;
}

int cli_each_graph(const char *path, uint64_t mem_limit, FILE *out, cli_graph_fn fn, void *ctx)
{
    const char *name;
    FILE *fp = cli_open_input(path, &name);
    tk_reader_t *rd = NULL;
    tk_error_t err;
    int rc = 0;

    if (!fp)
        return 1;
    tk_error_clear(&err);
    if (tk_reader_new(&rd, fp, name, TK_FMT_AUTO, mem_limit, &err) != TK_OK) {
        cli_error(&err);
        cli_close_input(fp);
        return 1;
    }
    for (;;) {
        tk_graph_t *g = NULL;
        int frc, got = cli_next_graph(rd, name, &g);

        if (got <= 0) {
            if (got < 0)
                rc = 1;
            break;
        }
        frc = fn(ctx, g, name, tk_reader_count(rd));
        if (out)
            fflush(out);
        if (frc == CLI_EACH_FAILED)
            rc = 1;
        else if (frc == CLI_EACH_STOP)
            break;
    }
    tk_reader_free(rd);
    cli_close_input(fp);
    return rc;
}

/* cli_each_graph callback of cli_run_table. */
typedef struct table_each {
    const cli_table_t *t;
    FILE *out;
} table_each_t;

static int table_row(void *ctx, tk_graph_t *g, const char *input, long index)
{
    table_each_t *e = ctx;
    int rc = cli_shard_graph(g, input, index) != 0 || e->t->row(e->t->ctx, e->out, g, input, index);

    tk_graph_free(g);
    return rc ? CLI_EACH_FAILED : CLI_EACH_OK;
}

int cli_run_table(const cli_table_t *t)
{
    return cli_run_table_flush(t, NULL);
}

int cli_run_table_flush(const cli_table_t *t, void (*flush)(void *ctx, FILE *out))
{
    cli_out_t out;
    table_each_t e;
    int rc = 0;

    /* --shard: the shard file is the output, the rows go nowhere; a
     * merge holds its output until every shard record matched. */
    if (cli_shard_open(t->output) != 0)
        return CLI_EXIT_DATA;
    const char *path = cli_shard_partial() ? "/dev/null" : t->output;
    if ((cli_shard_merging() ? cli_out_open_held(&out, path) : cli_out_open(&out, path)) != 0)
        return cli_shard_close(CLI_EXIT_DATA);
    e.t = t;
    e.out = out.fp;
    if (t->ninputs == 0)
        rc |= cli_each_graph(NULL, t->mem_limit, out.fp, table_row, &e);
    for (int i = 0; i < t->ninputs; i++)
        rc |= cli_each_graph(t->inputs[i], t->mem_limit, out.fp, table_row, &e);
    rc = cli_shard_table_end(rc);
    if (flush)
        flush(t->ctx, out.fp);
    if (!rc && t->header)
        t->header(t->ctx, out.fp);
    if (rc && (t->output || cli_shard_failed())) {
        cli_out_abort(&out);
        return cli_shard_close(CLI_EXIT_DATA);
    }
    if (cli_out_commit(&out) != 0)
        return cli_shard_close(CLI_EXIT_DATA);
    return cli_shard_close(rc ? CLI_EXIT_DATA : CLI_EXIT_OK);
}

void cli_gsl_errors_off(void)
{
    gsl_set_error_handler_off();
}
