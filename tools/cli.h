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
/* "PROG: INPUT: graph INDEX: message": an error about one graph of an input
 * (err->where is not shown: the graph is the place). */
void cli_graph_error(const char *input, long index, const tk_error_t *err);
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

/* ------------------------------------------------------------------------
 * Argument parsing (args.c): one syntax per kind of value, one diagnostic.
 *
 * The parsers return 0, or -1 with the reason in why (CLI_WHY_MAX bytes):
 *   integers  [+-]digits, in [min, max]     "not an integer", "must be at
 *             least 1", "must be between 1 and 4096"
 *   u64       digits (a seed)               "not a non-negative integer"
 *   decimals  [+-]digits[.digits][e[+-]digits], finite unless CLI_INF
 *             ("inf" then allowed) or CLI_NAN ("nan" then gives NaN), in [min, max] (CLI_GT_MIN,
 * CLI_LT_MAX: open ends; -HUGE_VAL / HUGE_VAL: none)   "not a number", "not a finite number" (nan,
 * inf), "must be greater than 0 and at most 0.5" ranges    LO, LO:HI or LO:HI:STEP of u64s, LO <=
 * HI, STEP >= 1 choices   one of a NULL-terminated list; returns its index "must be exact, approx
 * or auto" No blanks, no hexadecimal, no trailing text anywhere.
 *
 * Options (cli_*_arg): on error "PROG: OPTION VALUE: REASON", then "Try
 * 'PROG --help'", exit 2.  KEY=VALUE parameters (cli_kv_parse): the error
 * "KEY=VALUE: REASON" in a tk_error_t, as the library's parameter errors. */
#define CLI_WHY_MAX 160
#define CLI_GT_MIN 1u /* decimals: value > min (not >=) */
#define CLI_LT_MAX 2u /* decimals: value < max (not <=) */
#define CLI_INF 4u    /* decimals: "inf" (and overflow) allowed */
#define CLI_NAN 8u    /* decimals: "nan" allowed, as NaN (data: the caller judges) */

typedef struct cli_range {
    uint64_t lo, hi, step;
} cli_range_t;

int cli_parse_int(const char *s, int64_t min, int64_t max, int64_t *v, char *why);
int cli_parse_u64(const char *s, uint64_t *v, char *why);
int cli_parse_double(const char *s, double min, double max, unsigned flags, double *v, char *why);
int cli_parse_range(const char *s, cli_range_t *r, char *why);
/* A size in bytes: a decimal >= 0 with an optional K, M, G or T (powers
 * of 1024) and an optional B ("512M", "1.5GB"); 2^64 and beyond give 0 (no
 * limit: the meaning of 0 in TOPOKIT_MEMORY_LIMIT). */
int cli_parse_size(const char *s, uint64_t *v, char *why);
int cli_parse_choice(const char *s, const char *const choices[], char *why);
uint64_t cli_range_count(const cli_range_t *r); /* values LO, LO+STEP, ... <= HI */
uint64_t cli_range_last(const cli_range_t *r);  /* the largest of them */

int64_t cli_int_arg(const char *option, const char *s, int64_t min, int64_t max);
uint64_t cli_u64_arg(const char *option, const char *s);
double cli_double_arg(const char *option, const char *s, double min, double max, unsigned flags);
int cli_choice_arg(const char *option, const char *s, const char *const choices[]);
/* The same diagnostic for a check of the tool's own ("--pair 3,3: ..."). */
void cli_arg_fail(const char *option, const char *value, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));

/* KEY=VALUE lists: `keys` ends with a NULL key; each word must name one of
 * them, once.  Kinds: CLI_KV_RANGE (range, default kept when not given),
 * CLI_KV_DOUBLE (value in [min, max] with flags), CLI_KV_STR (text only).
 * On return given/text tell what was given.  `known` lists the keys for the
 * "unknown parameter" message.  0, or -1 with err (TK_EINVAL) set. */
enum { CLI_KV_RANGE, CLI_KV_DOUBLE, CLI_KV_STR };
typedef struct cli_kv {
    const char *key;
    int kind;
    cli_range_t range; /* CLI_KV_RANGE: the value (preset: the default) */
    double min, max;   /* CLI_KV_DOUBLE: bounds and flags              */
    unsigned flags;
    double value;     /* CLI_KV_DOUBLE: the value                     */
    const char *text; /* the value as given (NULL: not given)         */
    int given;
} cli_kv_t;
int cli_kv_parse(int nwords, char *const words[], cli_kv_t *keys, const char *known,
                 tk_error_t *err);
/* Is s a KEY=VALUE word (a KEY of letters, then '=')? */
int cli_is_kv(const char *s);
/* Split a description such as -m's "KIND K=V ..." into at most max words
 * at blanks and tabs, in place (w[i] point into s); returns the count. */
int cli_split_words(char *s, char **w, int max);
/* A usage error ("OPTION -: the WHAT and the topology cannot both be
 * standard input") when path is "-" and the topology inputs[0..n) (none:
 * standard input) read standard input too. */
void cli_stdin_once(const char *usage, const char *option, const char *what, const char *path,
                    char *const inputs[], int n);

/* Memory limit for readers and generators: TOPOKIT_MEMORY_LIMIT (bytes with
 * optional K/M/G/T suffix, 0 = none) or the machine's physical memory. */
uint64_t cli_mem_limit(void);

/* Open an input operand: NULL or "-" means stdin (name "<stdin>").  On error
 * prints "PROG: PATH: strerror" and returns NULL. */
FILE *cli_open_input(const char *path, const char **name);
void cli_close_input(FILE *fp);
/* Read the pattern file PATH (a -P operand; "-" = stdin) into *pat: 0, or
 * CLI_EXIT_DATA with one error line naming the file (and its line when the
 * reader gives one) printed. */
int cli_read_pattern(const char *path, tk_pattern_t **pat);

/* Text tables, line by line: cli_lines_open (NULL or "-" = stdin; 0, or -1
 * with "PROG: PATH: strerror" printed), then cli_lines_next until it returns
 * 0 (end of input) or -1 (read error, printed); each line comes without
 * its trailing CR/LF, numbered from 1 for cli_lines_error ("PROG:
 * NAME:LINE: message"). */
typedef struct cli_lines {
    FILE *fp;
    const char *name; /* "<stdin>" or the path */
    char *line;       /* the current line     */
    size_t len, cap;
    long lineno;
} cli_lines_t;
int cli_lines_open(cli_lines_t *L, const char *path);
int cli_lines_next(cli_lines_t *L);
void cli_lines_close(cli_lines_t *L);
void cli_lines_error(const cli_lines_t *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Split a TSV line in place at every tab (empty fields kept): the number of
 * fields, or -1 when there are more than max. */
int cli_split_tabs(char *line, char **fields, int max);
/* Index of the first field equal to name, or -1. */
int cli_field_index(char *const *fields, int n, const char *name);

/* Output with atomic replace: NULL or "-" is stdout; otherwise a temporary
 * file in the same directory renamed over PATH by cli_out_commit.  A failed
 * run calls cli_out_abort and leaves nothing behind.  An existing PATH that
 * is neither a regular file nor a directory (/dev/null, a FIFO) is written
 * in place: a rename would replace the device. */
typedef struct cli_out {
    FILE *fp;
    char *path;
    char *tmp;
    char *mem; /* held standard output (cli_out_open_held) */
    size_t memlen;
    int held;
} cli_out_t;

int cli_out_open(cli_out_t *o, const char *path); /* 0 ok, else printed error */
/* The same, but standard output too is written only by cli_out_commit (held
 * in memory until then), so a failed run prints nothing at all. */
int cli_out_open_held(cli_out_t *o, const char *path);
int cli_out_commit(cli_out_t *o); /* 0 ok, else printed error */
void cli_out_abort(cli_out_t *o);

/* Progress messages on stderr: enabled when stderr is a terminal or forced
 * by --progress. */
void cli_progress_enable(int force);
void cli_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* 1 when progress messages are enabled. */
int cli_progress_active(void);

/* The progress meter (progress.c): NULL when progress is off, else the
 * process's one tk_progress_t, labelled `label` (an input name; "" for
 * none), whose phases print percentage, rate and ETA on stderr: one line
 * updated in place on a terminal, else plain lines at most every
 * TOPOKIT_PROGRESS_INTERVAL seconds (default 5) and a final line per
 * phase.  Pass it to the library (an option's `progress`) or drive it
 * with tk_progress_begin/add/end. */
tk_progress_t *cli_meter(const char *label);
/* cli_meter("INPUT: graph INDEX"). */
tk_progress_t *cli_meter_graph(const char *input, long index);
/* End a pending terminal line (before other messages on stderr). */
void cli_meter_break(void);
/* The text of a meter line (without the tool's name), as snprintf. */
int cli_progress_format(char *buf, size_t len, const char *label, const tk_progress_state_t *s);

/* ------------------------------------------------------------------------
 * Numbers and result rows (row.c). */

/* Format a distance-like value: TK_INF prints "inf". */
void cli_print_int_or_inf(FILE *fp, int64_t v, int64_t inf);
/* The shortest "%.*g" form of v, from min_digits significant digits up to
 * 17, that reads back as the same double; "inf", "-inf", "nan".  min_digits
 * 15 is the form of every tool (cli_print_double: 100 prints as 100); 1
 * gives the fewest digits, so 100 prints as 1e+02 (topo-bounds' decimal
 * columns).  Returns buf (32 bytes are enough). */
const char *cli_format_double(char *buf, size_t len, double v, int min_digits);
/* cli_format_double(v, 15) on fp. */
void cli_print_double(FILE *fp, double v);
/* Name of a graph in result rows: its spec when non-empty, else
 * "INPUT#INDEX" (e.g. "<stdin>#3"); INDEX is 1-based within the input.
 * Tabs and newlines in the spec are replaced by spaces.  Returns buf. */
const char *cli_graph_name(const tk_graph_t *g, const char *input, long index, char *buf,
                           size_t len);
/* The tail of an arc (CSR: the switch whose arc range holds it), by
 * binary search over g->off: O(log n). */
tk_id_t cli_arc_tail(const tk_graph_t *g, int64_t arc);
/* --threads N: set the OpenMP thread count (N >= 1); results never depend
 * on it.  0 leaves the runtime default (OMP_NUM_THREADS). */
void cli_set_threads(int n);
/* The OpenMP threads a parallel region gets (1 without OpenMP). */
int cli_threads(void);

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
/* A warning when an edge list repeats a few links of an otherwise simple
 * graph (probably a duplicated line; an edge list is a multigraph). */
void cli_warn_parallel(const tk_reader_t *r, const tk_graph_t *g, const char *name, long index);
int cli_each_graph(const char *path, uint64_t mem_limit, FILE *out, cli_graph_fn fn, void *ctx);
/* The next graph of r (read from `name`) into *g, with the parallel-link
 * warning: 1, or 0 at the end of an input that held a graph, or -1 after
 * reporting an error (an input without any graph is one). */
int cli_next_graph(tk_reader_t *r, const char *name, tk_graph_t **g);
/* 1 for an output format that holds a single graph (edge list, GraphML,
 * GML, anynet, CAMINOS). */
int cli_format_single(tk_format_t f);
/* -1 after reporting an error when graph idx > 1 of `name` is bound for a
 * single-graph output format f; 0 otherwise. */
int cli_check_single(tk_format_t f, const char *name, long idx);
/* A filter's run (topo-conv, topo-fail): every graph of `input` (NULL or
 * "-" = stdin; format in_fmt) through fn, which writes its result for
 * graph idx (from 1) of `name` to out and returns 0, or reports its error
 * and returns non-zero.  The output (`output`, NULL or "-" = stdout) is
 * held until the end when `held` is set, else streamed; a second graph
 * bound for a single-graph out_fmt is refused.  The first failure (of the
 * input or of fn) stops the run and leaves no output file.  fn may keep
 * nothing of g, which is freed after it.  Returns the exit status. */
typedef int (*cli_filter_fn)(void *ctx, const tk_graph_t *g, const char *name, long idx, FILE *out);
int cli_filter_graphs(const char *input, tk_format_t in_fmt, tk_format_t out_fmt,
                      const char *output, int held, cli_filter_fn fn, void *ctx);

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
/* cli_run_table with flush(ctx, out) called once at the end, failed or
 * not, before the output is committed: for a table that holds its rows
 * until every graph is read (columns that are the union over the graphs,
 * topo-load). */
int cli_run_table_flush(const cli_table_t *t, void (*flush)(void *ctx, FILE *out));

/* shard.c: --shard I/P and topo-merge (topokit(7) SCALING).  A tool that
 * takes --shard calls cli_shard_args(TOOL, &argc, &argv, optstring,
 * longopts, usage) first in parse_args (its longopts list "shard"; the
 * option itself needs no handling there): "TOOL --from-shards [-o FILE]
 * [--threads N] [--progress] SHARD..." loads and checks the shards and
 * replaces argv by the command line they record; otherwise it finds
 * --shard and keeps the arguments that shape the result.  cli_runner():
 * the runner to give the library (the shard's, the merge's, or MPI's).
 * cli_run_table does the rest (the shard file is the output; a merge
 * holds its output until every record matched).  cli_shard_partial: 1 in
 * a --shard run (results are partial: skip what only the merge needs);
 * cli_shard_note: mix what a job computes beyond the graph (a pattern's
 * demands) into its fingerprint.  cli_shard_tool: the tool named by a
 * shard file (one of cli_shard_tools), for topo-merge.  The rest are the
 * table driver's hooks. */
struct option;
extern const char *const cli_shard_tools[];
void cli_shard_args(const char *tool, int *argc, char ***argv, const char *optstring,
                    const struct option *longopts, const char *usage);
const tk_par_runner_t *cli_runner(void);
int cli_shard_partial(void);
int cli_shard_merging(void);
/* P of --shard I/P, or of the shards a merge combines (0 otherwise). */
int64_t cli_shard_parts(void);
int cli_shard_failed(void);
void cli_shard_note(const void *data, size_t bytes);
int cli_shard_tool(const char *path, char **tool);
/* Read and check one shard file from fp (named name in messages): 0, or
 * -1 with the error printed (the fuzz harness). */
int cli_shard_check(FILE *fp, const char *name);
int cli_shard_open(const char *path);
int cli_shard_graph(const tk_graph_t *g, const char *input, long index);
int cli_shard_table_end(int rc);
int cli_shard_close(int rc);

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
 * TSV mode ignores the names (print the header line yourself, once).  JSON
 * mode writes strings quoted and numbers bare; the cells say what the rest
 * becomes:
 *   cell          TSV                  JSON
 *   str           text                 "text"; "-" (missing) is null
 *   text          text                 "text", always a string
 *   null          -                    null
 *   bool          1 / 0                true / false
 *   int           digits; >= inf: inf  number; >= inf: "inf" (inf <= 0: none)
 *   u64, u128     digits               number
 *   double        cli_print_double     number; infinities "inf"/"-inf", NaN null
 *   num           text                 text (a number formatted by the caller)
 * A JSON value can hold arrays and objects: cli_cell_open(r, name, '[' or
 * '{') starts one (name NULL inside arrays, for the cells too),
 * cli_cell_close ends it, cli_row_end ends any still open.  TSV rows are
 * flat: there open and close do nothing (tools write TSV and JSON shapes
 * differently where they differ, e.g. one TSV row per array element). */
#define CLI_ROW_DEPTH 8
typedef struct cli_row {
    FILE *fp;
    int json;
    int depth;                 /* JSON arrays/objects open in the row  */
    int lost;                  /* opened beyond CLI_ROW_DEPTH (a bug)   */
    int cells[CLI_ROW_DEPTH];  /* cells written at each depth           */
    char close[CLI_ROW_DEPTH]; /* ']' or '}' closing each depth         */
} cli_row_t;
void cli_row_begin(cli_row_t *r, FILE *fp, int json);
void cli_cell_str(cli_row_t *r, const char *name, const char *v);
void cli_cell_text(cli_row_t *r, const char *name, const char *v);
void cli_cell_null(cli_row_t *r, const char *name);
void cli_cell_bool(cli_row_t *r, const char *name, int v);
void cli_cell_int(cli_row_t *r, const char *name, int64_t v, int64_t inf);
void cli_cell_u64(cli_row_t *r, const char *name, uint64_t v);
void cli_cell_u128(cli_row_t *r, const char *name, unsigned __int128 v);
void cli_cell_double(cli_row_t *r, const char *name, double v);
void cli_cell_num(cli_row_t *r, const char *name, const char *text);
void cli_cell_open(cli_row_t *r, const char *name, int bracket);
void cli_cell_close(cli_row_t *r);
void cli_row_end(cli_row_t *r);

/* A TSV table whose per-class column groups are the union over its rows
 * (a multi-graph table whose graphs have different link classes): rows
 * are held until cli_held_flush, which prints the header and each row
 * with empty cells where its graph lacks a class.  A row is a fixed part,
 * a group of `width` cells per class it has, and a tail (may be empty);
 * the parts are rendered by cli_held_render.  Classes appear in the order
 * they are first seen. */
typedef struct cli_held_row {
    char *fixed, *tail;
    int ncls;
    char cls[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    char *cells[TK_MAX_CLASSES];
} cli_held_row_t;
typedef struct cli_held {
    int width; /* cells per class group                      */
    int ncols; /* class columns of the header: the union     */
    char cols[TK_MAX_CLASSES][TK_CLASS_NAME_MAX];
    cli_held_row_t *rows;
    size_t nrows, arows;
} cli_held_t;
/* The cells fill(row, x, y, c) writes, as one TSV line without its
 * newline (malloc'd; NULL when out of memory). */
char *cli_held_render(void (*fill)(cli_row_t *row, const void *x, const void *y, int c),
                      const void *x, const void *y, int c);
/* A new empty row, or NULL when out of memory; fill its fixed, tail,
 * and each class's name and cells (cli_held_class), all owned by t. */
cli_held_row_t *cli_held_add(cli_held_t *t);
/* Give row h class `name` with its rendered cells (owned by t from now).
 * Returns -1 when cells is NULL (out of memory). */
int cli_held_class(cli_held_t *t, cli_held_row_t *h, const char *name, char *cells);
/* Print header(ctx, out) (which reads t->cols) when rows are held, then
 * every row, and free them. */
void cli_held_flush(cli_held_t *t, FILE *out, void (*header)(void *ctx, FILE *out), void *ctx);

/* Turn off GSL's default error handler (which prints and aborts) for the
 * whole process; library calls then return GSL status codes, which
 * libtopokit maps to tk errors.  Call once from main in tools that reach
 * GSL's numerical routines (the handler is process-global state, so the
 * library itself never sets it). */
void cli_gsl_errors_off(void);

/* mpi.c: MPI glue (configure --with-mpi; no-ops otherwise, and when the
 * tool was not started by mpirun or srun).  cli_mpi_init: MPI_Init when
 * launched by MPI (else nothing); ranks other than 0 then write their
 * stdout and stderr to /dev/null.  cli_mpi_runner: the runner that
 * spreads a job's slices over the ranks (tk_par.h), or NULL for one
 * process.  cli_mpi_agree: every rank learns the lowest failing rank's
 * status and error; call it with final = 1 once per graph on every rank
 * (see mpi.c).  cli_mpi_local_size: ranks on this node (memory limit).
 * cli_mpi_exit: main's return value through it; a rank failing alone
 * (outside any agreement) shows its messages and aborts the job. */
void cli_mpi_init(void);
int cli_mpi_rank(void);
int cli_mpi_size(void);
int cli_mpi_local_size(void);
const tk_par_runner_t *cli_mpi_runner(void);
tk_status_t cli_mpi_agree(tk_status_t st, tk_error_t *err, int final);
int cli_mpi_exit(int rc);
/* cli_mpi_same: rank 0's v on every rank (every rank calls it; v itself
 * without MPI, with one rank, or after a failed agreement): a decision
 * made from rank 0's clock (topo-antmill's budget). */
int cli_mpi_same(int v);

/* cli_mpi_units: a job of independent units 0 .. units-1 whose results are
 * bytes, spread over the MPI ranks (every rank calls it; without MPI or
 * with one rank the units run in order in this process).  Units are
 * handed out dynamically, one at a time, from a counter that every rank
 * updates with an MPI atomic (no rank serves it); each unit's bytes
 * (written by run to fp) are gathered to rank 0, which passes them to take
 * in unit order: the output does not depend on which rank ran which unit.
 * round (0: all units at once): the units of one round are gathered before
 * the next begins, so rank 0 holds at most one round's bytes.  A failing
 * unit stops its rank's claims; every rank then learns the error of the
 * smallest failing unit (a non-final agreement, see cli_mpi_agree), and a
 * failing take (rank 0) stops every rank likewise.  everywhere: every
 * rank receives every unit's bytes and calls take in unit order (so that
 * all ranks go on with the same state).  cli_mpi_units_dealt: the same,
 * but the units of a round are dealt statically, a contiguous block per
 * rank (no counter: for many small jobs of units that cost alike,
 * topo-mcf's batch rounds; no --shard).
 * Only bytes and integers cross between ranks. */
typedef struct cli_units {
    int64_t units;
    int64_t round;
    tk_status_t (*run)(void *ctx, int64_t u, FILE *fp, tk_error_t *err);
    tk_status_t (*take)(void *ctx, int64_t u, const unsigned char *bytes, size_t len,
                        tk_error_t *err);
    void *ctx;
    int everywhere;
    int dealt; /* --shard: units dealt round-robin over the run (below) */
} cli_units_t;
tk_status_t cli_mpi_units(const cli_units_t *job, tk_error_t *err);
tk_status_t cli_mpi_units_dealt(const cli_units_t *job, tk_error_t *err);
/* cli_mpi_units_root: the same, but rank 0 runs every unit (one process's
 * work, such as an external solver, whose time limit is rank 0's clock);
 * the other ranks wait and, with everywhere, take rank 0's bytes. */
tk_status_t cli_mpi_units_root(const cli_units_t *job, tk_error_t *err);
/* --shard and topo-merge of unit jobs (shard.c).  Under --shard I/P,
 * cli_mpi_units runs only the units of slice I (a contiguous block:
 * units [I*N/P, (I+1)*N/P)) and records their bytes in the shard file
 * (with `dealt` set: the units are dealt round-robin over the whole run
 * instead, the k-th dealt unit of the run, counted over every dealt job
 * so far, to shard k mod P; for a stream of small jobs of costly units
 * whose count is not known up front, topo-mcf's instances; without
 * --shard the flag changes nothing)
 * without calling take (the tool then skips its post-processing:
 * cli_shard_partial); under topo-merge it runs no unit and passes the
 * shards' bytes to take in unit order, so the tool prints the single
 * run's bytes.  A tool with unit jobs gets --shard by: listing "shard" in
 * its longopts and calling cli_shard_args (see above), taking its
 * cli_mpi_units route when cli_units_distributed() (MPI with several
 * ranks, --shard or a merge), cutting units that do not depend on the
 * thread count there (cli_units_threads(threads), called on every rank:
 * rank 0's threads, or CLI_SHARD_THREADS under --shard and merges, so
 * shards run with any --threads merge), skipping post-processing when cli_shard_partial(), and
 * its name in cli_shard_tools.  A tool that does not use cli_run_table
 * calls cli_shard_open(output) before its first job, cli_shard_table_end
 * after its last and returns through cli_shard_close.  cli_shard_units:
 * the hook of cli_mpi_units (1 when it handled the job, its status in
 * *st). */
#define CLI_SHARD_THREADS 8
int cli_units_distributed(void);
int cli_units_threads(int threads);
int cli_shard_units(const cli_units_t *job, tk_status_t *st, tk_error_t *err);

#endif /* TK_CLI_H */
