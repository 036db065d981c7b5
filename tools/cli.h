/*
 * cli.h - helpers shared by the command-line tools (not installed).
 *
 * Every tool: parse options into a struct (parse_args), then run().  Data on
 * stdout only; diagnostics "PROG: FILE:LINE: message" on stderr; exit status
 * 0 success, 1 data or runtime error, 2 usage error.
 */
#ifndef TK_CLI_H
#define TK_CLI_H

#include <stdio.h>
#include <stdint.h>
#include "topokit.h"

#define CLI_EXIT_OK 0
#define CLI_EXIT_DATA 1
#define CLI_EXIT_USAGE 2

/* Program name used in diagnostics; set once by main. */
void cli_set_prog(const char *prog);
const char *cli_prog(void);

/* "PROG: WHERE:LINE: message" (WHERE and LINE omitted when empty/0). */
void cli_error(const tk_error_t *err);
/* "PROG: message" */
void cli_errorf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* "PROG: warning: message" */
void cli_warnf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Usage error: "PROG: message", the usage line, "Try 'PROG --help'", exit 2. */
void cli_usage_fail(const char *usage, const char *fmt, ...)
    __attribute__((format(printf, 2, 3), noreturn));
/* "PROG (topokit) VERSION" on stdout. */
void cli_print_version(void);

/* The getopt_long cases every tool shares, for the `default:` branch of its
 * option switch (the tool's optstring starts with ':'):
 *   'h'   help() on stdout, exit 0 (1 if stdout cannot be written)
 *   ':'   "option '...' needs an argument", usage, exit 2
 *   other "unknown option '...'", usage, exit 2 */
void cli_getopt_default(int c, char *const argv[], const char *usage, void (*help)(void))
    __attribute__((noreturn));

/* Strict number parsing for option arguments.  On error prints
 * "PROG: invalid value 'S' for OPTION: ..." and exits 2. */
int64_t cli_int_arg(const char *option, const char *s, int64_t min, int64_t max);
uint64_t cli_u64_arg(const char *option, const char *s);

/* Memory limit for readers and generators: TOPOKIT_MEMORY_LIMIT (bytes with
 * optional K/M/G/T suffix, 0 = none) or the machine's physical memory. */
uint64_t cli_mem_limit(void);

/* Open an input operand: NULL or "-" means stdin (name "<stdin>").  On error
 * prints "PROG: PATH: strerror" and returns NULL. */
FILE *cli_open_input(const char *path, const char **name);
void cli_close_input(FILE *fp);

/* Output with atomic replace: NULL or "-" is stdout; otherwise a temporary
 * file in the same directory renamed over PATH by cli_out_commit.  A failed
 * run calls cli_out_abort and leaves nothing behind. */
typedef struct cli_out {
    FILE *fp;
    char *path;
    char *tmp;
} cli_out_t;

int cli_out_open(cli_out_t *o, const char *path); /* 0 ok, else printed error */
int cli_out_commit(cli_out_t *o);                 /* 0 ok, else printed error */
void cli_out_abort(cli_out_t *o);

/* Progress messages on stderr: enabled when stderr is a terminal or forced
 * by --progress. */
void cli_progress_enable(int force);
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Format a distance-like value: TK_INF prints "inf". */
void cli_print_int_or_inf(FILE *fp, int64_t v, int64_t inf);
/* Print a double with 17 significant digits trimmed ("%.17g" round-trip) or
 * "inf". */
void cli_print_double(FILE *fp, double v);
/* Name of a graph in result rows: its spec when non-empty, else
 * "INPUT#INDEX" (e.g. "<stdin>#3"); INDEX is 1-based within the input.
 * Tabs and newlines in the spec are replaced by spaces.  Returns buf. */
const char *cli_graph_name(const tk_graph_t *g, const char *input, long index, char *buf,
                           size_t len);
/* --threads N: set the OpenMP thread count (N >= 1); results never depend
 * on it.  0 leaves the runtime default (OMP_NUM_THREADS). */
void cli_set_threads(int n);

/* Read every graph of one input (NULL or "-" = stdin; format detected per
 * record) and call fn(ctx, g, input_name, index) for each, index 1-based.
 * fn owns g (it must free it) and returns CLI_EACH_OK, CLI_EACH_FAILED (this
 * graph failed; go on with the next) or CLI_EACH_STOP (stop reading, no
 * error).  `out`, when not NULL, is flushed after each graph so rows stream.
 * Prints its own diagnostics.  Returns 0, or 1 when the input cannot be
 * opened or read, holds no graph ("no graph in input"), has a malformed
 * record (reading stops there: the stream cannot be trusted past it), or fn
 * failed for some graph. */
#define CLI_EACH_OK 0
#define CLI_EACH_FAILED 1
#define CLI_EACH_STOP 2
typedef int (*cli_graph_fn)(void *ctx, tk_graph_t *g, const char *input, long index);
int cli_each_graph(const char *path, uint64_t mem_limit, FILE *out, cli_graph_fn fn, void *ctx);

/* The main loop of a table tool (one result per input graph).  Opens the
 * output (-o FILE atomically, else stdout), reads every graph of every
 * input (stdin when ninputs == 0) and calls row(ctx, out, g, input, index)
 * for each (0 ok, 1 this graph failed; the driver frees g).  After a run
 * without failure it calls header(ctx, out), so a tool that prints its
 * header with its first row also prints it for an input of no rows.  A
 * failed run with -o leaves no file.  Returns the exit status (0 or 1). */
typedef struct cli_table {
    const char *output;
    int ninputs;
    char *const *inputs;
    uint64_t mem_limit;
    int (*row)(void *ctx, FILE *out, const tk_graph_t *g, const char *input, long index);
    void (*header)(void *ctx, FILE *out);
    void *ctx;
} cli_table_t;
int cli_run_table(const cli_table_t *t);

/* Print an unsigned 128-bit integer in decimal (exact path counts). */
void cli_print_u128(FILE *fp, unsigned __int128 v);

/* Print a string as a JSON string literal. */
void cli_print_json_string(FILE *fp, const char *s);

/* One result row, written as a TSV line or as one JSON Lines object with
 * the same column names and values (the --json of the table tools):
 *   cli_row_t r;
 *   cli_row_begin(&r, fp, json);
 *   cli_cell_str(&r, "name", name); cli_cell_int(&r, "n", n, TK_INF); ...
 *   cli_row_end(&r);
 * TSV mode ignores the names (print the header line yourself, once); JSON
 * mode writes strings quoted, numbers bare, infinities as "inf" and a
 * missing value ("-" given to cli_cell_str) as null. */
typedef struct cli_row {
    FILE *fp;
    int json;
    int cells;
} cli_row_t;
void cli_row_begin(cli_row_t *r, FILE *fp, int json);
void cli_cell_str(cli_row_t *r, const char *name, const char *v);
/* v >= inf (when inf > 0) prints as inf */
void cli_cell_int(cli_row_t *r, const char *name, int64_t v, int64_t inf);
void cli_cell_double(cli_row_t *r, const char *name, double v);
void cli_row_end(cli_row_t *r);

/* Turn off GSL's default error handler (which prints and aborts) for the
 * whole process; library calls then return GSL status codes, which
 * libtopokit maps to tk errors.  Call once from main in tools that reach
 * GSL's numerical routines (the handler is process-global state, so the
 * library itself never sets it). */
void cli_gsl_errors_off(void);

#endif /* TK_CLI_H */
