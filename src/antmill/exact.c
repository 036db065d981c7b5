/*
 * exact.c - the exact delta search (issue 28): "a Hamiltonian cycle whose
 * every window of delta links is a unique shortest path" as a SAT problem,
 * solved by an external SAT solver run as a child process.  See
 * antmill_internal.h and topo-antmill(1), The exact search.
 *
 * Encoding (one variable per link that may be on the cycle, a link chosen
 * or not):
 *   - the links: undirected, one variable per pair of adjacent switches
 *     (a 2-factor); directed, one per arc (a successor choice).  For
 *     delta >= 1 a pair joined by parallel links has no variable (a window
 *     through it has two shortest paths);
 *   - degrees: undirected, exactly two chosen links at every switch;
 *     directed, exactly one out and one in (sequential counters);
 *   - windows: for every walk x_0 .. x_k (2 <= k <= delta, no switch twice)
 *     that is not a unique shortest path while x_0 .. x_{k-1} and
 *     x_1 .. x_k are (the minimal forbidden walks: every longer forbidden
 *     walk contains one), the clause "not all of its links chosen"
 *     (undirected: once per walk and its reverse);
 *   - connectivity, lazily: solve; split the chosen links into their
 *     cycles; if there is more than one, add for each cycle S the clause
 *     "some link leaves S" and solve again.  The final answer is a single
 *     cycle (satisfiable) or unsatisfiable: both exact.
 * Every cut removes the solution that produced it, and there are finitely
 * many solutions, so the loop ends; in practice a few rounds on small
 * graphs.  Eager connectivity (positions or orderings) needs n^2 or
 * n log n variables per link and made the small cases slower.
 *
 * The solver reads DIMACS CNF from a file named on its command line and
 * writes the SAT-competition answer on standard output ("s SATISFIABLE" and
 * "v" lines, or "s UNSATISFIABLE"): CaDiCaL, Kissat, CryptoMiniSat and
 * others do.  The time limit is enforced here (the solver is killed).  Its
 * answer is never trusted: a model is decoded into links and checked
 * (degrees, one cycle), and the caller verifies the cycle's delta with
 * tk_antmill_verify.
 */
#include <config.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "tk_antmill.h"
#include "antmill_internal.h"

extern char **environ;

typedef struct cnf {
    int32_t nvars;
    int64_t nclauses;
    int64_t nbase; /* literals of the clauses before the cuts */
    int32_t *lit;  /* clauses, each ended by 0 */
    int64_t nlit, cap;
    uint64_t mem_limit;
    int over; /* the clauses would pass the memory limit */
} cnf_t;

typedef struct enc {
    const tk_graph_t *g;
    int32_t delta;
    const am_utable_t **ut; /* ut[k], k = 1..delta: unique paths of length k */
    int32_t *var;           /* per arc: its link's variable (0 = none)        */
    int32_t nlinks;         /* variables 1..nlinks are links                  */
    int64_t *link_arc;      /* per link variable: one arc x -> y of it        */
    cnf_t cnf;
} enc_t;

/* ------------------------------------------------------------------------ */
/* Clauses. */

static int cnf_push(cnf_t *c, int32_t lit)
{
    if (c->nlit == c->cap) {
        int64_t cap = c->cap ? 2 * c->cap : 4096;
        int32_t *p;
        if (c->mem_limit && (uint64_t)cap * sizeof *p > c->mem_limit) {
            c->over = 1;
            return -1;
        }
        p = realloc(c->lit, (size_t)cap * sizeof *p);
        if (!p)
            return -1;
        c->lit = p;
        c->cap = cap;
    }
    c->lit[c->nlit++] = lit;
    if (lit == 0)
        c->nclauses++;
    return 0;
}

static int clause2(cnf_t *c, int32_t a, int32_t b)
{
    return cnf_push(c, a) || cnf_push(c, b) || cnf_push(c, 0) ? -1 : 0;
}

static int clause3(cnf_t *c, int32_t a, int32_t b, int32_t d)
{
    return cnf_push(c, a) || cnf_push(c, b) || cnf_push(c, d) || cnf_push(c, 0) ? -1 : 0;
}

/* Exactly k (1 or 2) of the m literals x: a sequential counter whose
 * variable s(i, j) (i = 1..m, j = 1..k+1) is true iff at least j of
 * x_1..x_i are, both directions; then s(m, k) and not s(m, k+1). */
static int exactly(cnf_t *c, const int32_t *x, int64_t m, int k)
{
    int32_t prev[4] = {0, 0, 0, 0}, cur[4];
    /* s(0, j): false for j >= 1; s(i, 0): true (encoded as 0 = constant) */
    if (m < k) { /* unsatisfiable: a fresh variable both true and false */
        int32_t z = ++c->nvars;
        return clause2(c, z, z) || clause2(c, -z, -z) ? -1 : 0;
    }
    for (int64_t i = 0; i < m; i++) {
        for (int j = 1; j <= k + 1; j++) {
            int32_t s = ++c->nvars;
            cur[j] = s;
            /* s -> prev_j or x_i ; s -> prev_j or prev_{j-1} */
            if (i == 0) {
                if (j == 1) {
                    if (clause2(c, -s, x[i]) || clause2(c, s, -x[i]))
                        return -1;
                } else if (cnf_push(c, -s) || cnf_push(c, 0)) {
                    return -1;
                }
                continue;
            }
            if (clause3(c, -s, prev[j], x[i]))
                return -1;
            if (j > 1 && clause3(c, -s, prev[j], prev[j - 1]))
                return -1;
            /* prev_j -> s ; prev_{j-1} and x_i -> s */
            if (clause2(c, -prev[j], s))
                return -1;
            if (j == 1 ? clause2(c, -x[i], s) : clause3(c, -prev[j - 1], -x[i], s))
                return -1;
        }
        memcpy(prev, cur, sizeof prev);
    }
    if (cnf_push(c, prev[k]) || cnf_push(c, 0) || cnf_push(c, -prev[k + 1]) || cnf_push(c, 0))
        return -1;
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Variables and the base clauses. */

/* First arc x -> y, or -1 (arcs sorted by head). */
static int64_t find_arc(const tk_graph_t *g, tk_id_t x, tk_id_t y)
{
    int64_t lo = g->off[x], hi = g->off[x + 1];
    while (lo < hi) {
        int64_t mid = lo + (hi - lo) / 2;
        if (g->head[mid] < y)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < g->off[x + 1] && g->head[lo] == y ? lo : -1;
}

/* Whether link x -> y may be on the cycle: no self-loop; for delta >= 1 a
 * single link (a unique shortest path of length 1). */
static int link_ok(const enc_t *e, tk_id_t x, tk_id_t y)
{
    if (x == y)
        return 0;
    return e->delta == 0 || am_utable_get(e->ut[1], x, y);
}

static int make_vars(enc_t *e)
{
    const tk_graph_t *g = e->g;
    int64_t arcs = g->off[g->n];

    e->var = tk_calloc_array((size_t)arcs + 1, sizeof *e->var);
    e->link_arc = tk_malloc_array((size_t)arcs + 1, sizeof *e->link_arc);
    if (!e->var || !e->link_arc)
        return -1;
    for (tk_id_t x = 0; x < g->n; x++)
        for (int64_t a = g->off[x]; a < g->off[x + 1]; a++) {
            tk_id_t y = g->head[a];
            if (a > g->off[x] && g->head[a - 1] == y) {
                e->var[a] = e->var[a - 1]; /* parallel arcs: one link */
                continue;
            }
            if (!link_ok(e, x, y))
                continue;
            if (!g->directed && y < x) {
                e->var[a] = e->var[find_arc(g, y, x)];
                continue;
            }
            e->var[a] = ++e->nlinks;
            e->link_arc[e->nlinks] = a;
        }
    e->cnf.nvars = e->nlinks;
    return 0;
}

static int degree_clauses(enc_t *e)
{
    const tk_graph_t *g = e->g;
    tk_id_t n = g->n;
    int32_t *x = tk_malloc_array((size_t)g->off[n] + 1, sizeof *x);
    int64_t *cnt = NULL, *fill = NULL;
    int32_t *in = NULL;
    int rc = -1;

    if (!x)
        return -1;
    /* out (undirected: all) links of every switch */
    for (tk_id_t v = 0; v < n; v++) {
        int64_t m = 0;
        for (int64_t a = g->off[v]; a < g->off[v + 1]; a++)
            if (e->var[a] && (a == g->off[v] || e->var[a - 1] != e->var[a]))
                x[m++] = e->var[a];
        if (exactly(&e->cnf, x, m, g->directed ? 1 : 2))
            goto out;
    }
    if (g->directed) {
        /* in links: bucket the arcs by head */
        cnt = tk_calloc_array((size_t)n + 1, sizeof *cnt);
        fill = tk_malloc_array((size_t)n + 1, sizeof *fill);
        in = tk_malloc_array((size_t)g->off[n] + 1, sizeof *in);
        if (!cnt || !fill || !in)
            goto out;
        for (int64_t l = 1; l <= e->nlinks; l++)
            cnt[g->head[e->link_arc[l]] + 1]++;
        for (tk_id_t v = 0; v < n; v++)
            cnt[v + 1] += cnt[v];
        memcpy(fill, cnt, ((size_t)n + 1) * sizeof *fill);
        for (int32_t l = 1; l <= e->nlinks; l++)
            in[fill[g->head[e->link_arc[l]]]++] = l;
        for (tk_id_t v = 0; v < n; v++)
            if (exactly(&e->cnf, in + cnt[v], cnt[v + 1] - cnt[v], 1))
                goto out;
    }
    rc = 0;
out:
    free(x);
    free(cnt);
    free(fill);
    free(in);
    return rc;
}

/* Extend the walk w[0..k] (its windows all admissible) by one link; emit
 * the minimal forbidden walks of length k + 1 and recurse into the
 * admissible ones up to delta.  on[]: switches on the walk. */
static int windows_from(enc_t *e, tk_id_t *w, int32_t *lits, uint8_t *on, int32_t k)
{
    const tk_graph_t *g = e->g;
    tk_id_t end = w[k];

    for (int64_t a = g->off[end]; a < g->off[end + 1]; a++) {
        tk_id_t y = g->head[a];
        if (!e->var[a] || on[y] || (a > g->off[end] && g->head[a - 1] == y))
            continue;
        lits[k] = e->var[a];
        if (am_utable_get(e->ut[k + 1], w[0], y)) {
            if (k + 1 < e->delta) {
                w[k + 1] = y;
                on[y] = 1;
                int r = windows_from(e, w, lits, on, k + 1);
                on[y] = 0;
                if (r)
                    return r;
            }
        } else if (am_utable_get(e->ut[k], w[1], y) && (g->directed || w[0] < y)) {
            /* minimal: both sub-walks of length k are admissible */
            for (int32_t i = 0; i <= k; i++)
                if (cnf_push(&e->cnf, -lits[i]))
                    return -1;
            if (cnf_push(&e->cnf, 0))
                return -1;
        }
    }
    return 0;
}

static int window_clauses(enc_t *e)
{
    const tk_graph_t *g = e->g;
    tk_id_t *w = tk_malloc_array((size_t)e->delta + 1, sizeof *w);
    int32_t *lits = tk_malloc_array((size_t)e->delta + 1, sizeof *lits);
    uint8_t *on = tk_calloc_array((size_t)g->n, 1);
    int rc = w && lits && on ? 0 : -1;

    for (tk_id_t x = 0; x < g->n && !rc && e->delta >= 2; x++) {
        w[0] = x;
        on[x] = 1;
        for (int64_t a = g->off[x]; a < g->off[x + 1] && !rc; a++) {
            tk_id_t y = g->head[a];
            if (!e->var[a] || (a > g->off[x] && g->head[a - 1] == y))
                continue;
            w[1] = y;
            on[y] = 1;
            lits[0] = e->var[a];
            rc = windows_from(e, w, lits, on, 1);
            on[y] = 0;
        }
        on[x] = 0;
    }
    free(w);
    free(lits);
    free(on);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* The solver as a child process. */

static tk_status_t write_cnf(const cnf_t *c, const char *path, tk_error_t *err)
{
    FILE *fp = fopen(path, "w");
    char buf[16];
    if (!fp)
        return tk_error_set(err, TK_EIO, path, 0, "cannot write the CNF: %s", strerror(errno));
    fprintf(fp, "p cnf %" PRId32 " %" PRId64 "\n", c->nvars, c->nclauses);
    for (int64_t i = 0; i < c->nlit; i++) {
        int32_t l = c->lit[i];
        uint32_t u = l < 0 ? (uint32_t)(-(int64_t)l) : (uint32_t)l;
        int p = (int)sizeof buf;
        buf[--p] = l == 0 ? '\n' : ' ';
        do {
            buf[--p] = (char)('0' + u % 10);
            u /= 10;
        } while (u);
        if (l < 0)
            buf[--p] = '-';
        fwrite(buf + p, 1, sizeof buf - (size_t)p, fp);
    }
    if (ferror(fp) | fclose(fp))
        return tk_error_set(err, TK_EIO, path, 0, "cannot write the CNF");
    return TK_OK;
}

enum { SOLVE_SAT = 10, SOLVE_UNSAT = 20, SOLVE_TIMEOUT = 1 };

/* Run solver on cnf, its standard output to out; wait at most limit
 * seconds (0 = no limit), then kill it.  *res: SOLVE_TIMEOUT, or the exit
 * status (the answer is read from out). */
static tk_status_t run_solver(const char *solver, const char *cnf, const char *out, double limit,
                              int *res, tk_error_t *err)
{
    posix_spawn_file_actions_t fa;
    char *argv[3];
    pid_t pid;
    int rc, status;
    struct timespec t0, nap;
    long ns = 100000; /* first nap 0.1 ms, doubling up to 20 ms */

    argv[0] = (char *)solver;
    argv[1] = (char *)cnf;
    argv[2] = NULL;
    if (posix_spawn_file_actions_init(&fa))
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    rc = posix_spawnp(&pid, solver, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return tk_error_set(err, TK_EIO, NULL, 0, "SAT solver '%s' cannot be run: %s", solver,
                            strerror(rc));
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return tk_error_set(err, TK_EIO, NULL, 0, "SAT solver '%s': %s", solver,
                                strerror(errno));
        if (limit > 0 && am_elapsed(&t0) > limit) {
            kill(pid, SIGKILL);
            while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
                ;
            *res = SOLVE_TIMEOUT;
            return TK_OK;
        }
        nap.tv_sec = 0;
        nap.tv_nsec = ns;
        nanosleep(&nap, NULL);
        if (ns < 20000000)
            ns *= 2;
    }
    if (!WIFEXITED(status))
        return tk_error_set(err, TK_EIO, NULL, 0, "SAT solver '%s' was killed by signal %d", solver,
                            WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    *res = WEXITSTATUS(status);
    return TK_OK;
}

/* Read the answer: *answer SOLVE_SAT (model in val[1..nvars]: 1 true),
 * SOLVE_UNSAT, or an error for anything else. */
static tk_status_t read_answer(const char *solver, const char *out, int32_t nvars, uint8_t *val,
                               int *answer, tk_error_t *err)
{
    FILE *fp = fopen(out, "r");
    char *line = NULL; /* whole lines, however long the solver makes them */
    size_t cap = 0;
    int s = 0, ended = 0;

    if (!fp)
        return tk_error_set(err, TK_EIO, NULL, 0, "SAT solver '%s': no output", solver);
    memset(val, 0, (size_t)nvars + 1);
    while (getline(&line, &cap, fp) >= 0) {
        if (strncmp(line, "s ", 2) == 0) {
            if (strncmp(line + 2, "SATISFIABLE", 11) == 0)
                s = SOLVE_SAT;
            else if (strncmp(line + 2, "UNSATISFIABLE", 13) == 0)
                s = SOLVE_UNSAT;
        } else if (strncmp(line, "v ", 2) == 0) {
            char *p = line + 2, *q;
            for (;;) {
                long v = strtol(p, &q, 10);
                if (q == p)
                    break;
                p = q;
                if (v == 0)
                    ended = 1;
                else if (v > 0 && v <= nvars)
                    val[v] = 1;
            }
        }
    }
    free(line);
    fclose(fp);
    if (s == SOLVE_SAT && !ended)
        return tk_error_set(err, TK_EIO, NULL, 0,
                            "SAT solver '%s' said satisfiable without a complete model", solver);
    if (!s)
        return tk_error_set(err, TK_EIO, NULL, 0,
                            "SAT solver '%s' gave no answer (no 's SATISFIABLE' or 's "
                            "UNSATISFIABLE' line)",
                            solver);
    *answer = s;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */
/* Decoding: the chosen links as successor lists; their cycles. */

/* The chosen links at every switch (undirected: its two neighbours in
 * nb[2v], nb[2v+1]; directed: its successor in nb[2v]).  -1 when the model
 * breaks the degree constraints. */
static int decode(const enc_t *e, const uint8_t *val, tk_id_t *nb, int32_t *deg)
{
    const tk_graph_t *g = e->g;
    tk_id_t n = g->n;
    int32_t *indeg = deg + n;
    memset(deg, 0, 2 * (size_t)n * sizeof *deg);
    for (int32_t l = 1; l <= e->nlinks; l++) {
        int64_t a = e->link_arc[l];
        tk_id_t y = g->head[a], x;
        if (!val[l])
            continue;
        /* the tail of arc a */
        int64_t lo = 0, hi = n;
        while (hi - lo > 1) {
            int64_t mid = (lo + hi) / 2;
            if (g->off[mid] <= a)
                lo = mid;
            else
                hi = mid;
        }
        x = (tk_id_t)lo;
        if (g->directed) {
            if (deg[x]++ >= 1 || indeg[y]++ >= 1)
                return -1;
            nb[2 * x] = y;
            nb[2 * y + 1] = x;
        } else {
            if (deg[x] >= 2 || deg[y] >= 2)
                return -1;
            nb[2 * x + deg[x]++] = y;
            nb[2 * y + deg[y]++] = x;
        }
    }
    for (tk_id_t v = 0; v < n; v++)
        if (deg[v] != (g->directed ? 1 : 2))
            return -1;
    return 0;
}

/* Label the cycles of the decoded links: comp[v] = its cycle; returns the
 * number of cycles; order[] lists the switches cycle by cycle, each in
 * cycle order. */
static tk_id_t cycles(const enc_t *e, const tk_id_t *nb, tk_id_t *comp, tk_id_t *order)
{
    const tk_graph_t *g = e->g;
    tk_id_t n = g->n, k = 0, m = 0;
    for (tk_id_t v = 0; v < n; v++)
        comp[v] = -1;
    for (tk_id_t s = 0; s < n; s++) {
        tk_id_t prev = -1, v = s;
        if (comp[s] >= 0)
            continue;
        while (comp[v] < 0) {
            tk_id_t next = nb[2 * v];
            if (!g->directed && next == prev)
                next = nb[2 * v + 1];
            comp[v] = k;
            order[m++] = v;
            prev = v;
            v = next;
        }
        k++;
    }
    return k;
}

/* For each cycle S of the decoded links, the clause "some link leaves S"
 * (order: the switches cycle by cycle).  An empty clause (no link leaves)
 * makes the problem unsatisfiable. */
static int add_cuts(enc_t *e, const tk_id_t *comp, const tk_id_t *order)
{
    const tk_graph_t *g = e->g;
    for (tk_id_t i = 0; i < g->n; i++) {
        tk_id_t x = order[i], c = comp[x];
        for (int64_t a = g->off[x]; a < g->off[x + 1]; a++)
            if (e->var[a] && comp[g->head[a]] != c &&
                (a == g->off[x] || g->head[a - 1] != g->head[a]))
                if (cnf_push(&e->cnf, e->var[a]))
                    return -1;
        if (i + 1 == g->n || comp[order[i + 1]] != c)
            if (cnf_push(&e->cnf, 0))
                return -1;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */

tk_status_t tk_antmill_solver_check(const char *solver, tk_error_t *err)
{
    const char *path = getenv("PATH");
    size_t len = strlen(solver);
    struct stat sb;

    if (len == 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "the SAT solver's name is empty");
    if (strchr(solver, '/')) {
        if (stat(solver, &sb) == 0 && S_ISREG(sb.st_mode) && access(solver, X_OK) == 0)
            return TK_OK;
    } else {
        if (!path)
            path = "/usr/bin:/bin";
        while (*path) {
            const char *colon = strchr(path, ':');
            size_t dl = colon ? (size_t)(colon - path) : strlen(path);
            char *full = malloc(dl + len + 3);
            int found;
            if (!full)
                return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
            snprintf(full, dl + len + 3, "%.*s/%s", (int)(dl ? dl : 1), dl ? path : ".", solver);
            found = stat(full, &sb) == 0 && S_ISREG(sb.st_mode) && access(full, X_OK) == 0;
            free(full);
            if (found)
                return TK_OK;
            path += dl + (colon ? 1 : 0);
        }
    }
    return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0, "SAT solver '%s' not found%s", solver,
                        strcmp(solver, "cadical") == 0 ? " (Debian package cadical)" : "");
}

/* Temporary file names: DIR/topokit-sat-XXXXXX (made by mkstemp) for the
 * CNF and the same name with ".out" for the answer. */
static tk_status_t temp_names(char **cnf, char **out, tk_error_t *err)
{
    const char *dir = getenv("TMPDIR");
    size_t len;
    int fd;
    if (!dir || !*dir)
        dir = "/tmp";
    len = strlen(dir) + 32;
    *cnf = malloc(len);
    *out = malloc(len + 4);
    if (!*cnf || !*out)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    snprintf(*cnf, len, "%s/topokit-sat-XXXXXX", dir);
    fd = mkstemp(*cnf);
    if (fd < 0) {
        tk_status_t st = tk_error_set(
            err, TK_EIO, NULL, 0, "cannot make a temporary file in %s: %s", dir, strerror(errno));
        free(*cnf);
        *cnf = NULL;
        return st;
    }
    close(fd);
    snprintf(*out, len + 4, "%s.out", *cnf);
    return TK_OK;
}

static void free_enc(enc_t *e)
{
    free(e->var);
    free(e->link_arc);
    free(e->cnf.lit);
}

tk_status_t am_exact_search(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                            const am_utable_t *const *ut, const struct timespec *t0, tk_id_t *cycle,
                            tk_antmill_stats_t *stats, tk_error_t *err)
{
    enc_t e;
    tk_status_t st = TK_OK;
    tk_id_t n = g->n;
    char *cnfp = NULL, *outp = NULL;
    uint8_t *val = NULL;
    tk_id_t *nb = NULL, *comp = NULL, *order = NULL;
    int32_t *deg = NULL;
    struct timespec te;
    int rc;

    memset(&e, 0, sizeof e);
    stats->outcome = TK_ANTMILL_GAVE_UP;
    e.g = g;
    e.delta = opts->delta;
    e.ut = (const am_utable_t **)ut;
    e.cnf.mem_limit = opts->mem_limit;
    clock_gettime(CLOCK_MONOTONIC, &te);
    rc = make_vars(&e);
    if (!rc)
        rc = degree_clauses(&e);
    if (!rc)
        rc = window_clauses(&e);
    if (rc) {
        st = e.cnf.over ? tk_error_set(err, TK_ELIMIT, NULL, 0, "the CNF is over the memory limit")
                        : tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the CNF");
        stats->outcome = TK_ANTMILL_GAVE_UP;
        goto done;
    }
    e.cnf.nbase = e.cnf.nlit;
    stats->sat_vars = (uint64_t)e.cnf.nvars;
    stats->sat_clauses = (uint64_t)e.cnf.nclauses;
    val = malloc((size_t)e.cnf.nvars + 1);
    nb = tk_malloc_array(2 * (size_t)n, sizeof *nb);
    comp = tk_malloc_array((size_t)n, sizeof *comp);
    order = tk_malloc_array((size_t)n, sizeof *order);
    deg = tk_malloc_array(2 * (size_t)n, sizeof *deg);
    if (!val || !nb || !comp || !order || !deg) {
        st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        goto done;
    }
    st = temp_names(&cnfp, &outp, err);
    if (st)
        goto done;
    for (;;) {
        /* what is left of the time limit and of the budget */
        double left = 0, bud = 0;
        int by_budget = 0, res = 0, answer = 0;
        tk_id_t k;
        if (opts->exact_limit > 0)
            left = opts->exact_limit - am_elapsed(&te);
        if (opts->budget > 0) {
            bud = opts->budget - am_elapsed(t0);
            if (opts->exact_limit <= 0 || bud < left) {
                left = bud;
                by_budget = 1;
            }
        }
        if ((opts->exact_limit > 0 || opts->budget > 0) && left <= 0)
            res = SOLVE_TIMEOUT;
        else if ((st = write_cnf(&e.cnf, cnfp, err)) ||
                 (st = run_solver(opts->exact_solver, cnfp, outp, left, &res, err)))
            goto done;
        if (res == SOLVE_TIMEOUT) {
            stats->outcome = by_budget ? TK_ANTMILL_BUDGET : TK_ANTMILL_TIME_LIMIT;
            st = by_budget ? tk_error_set(err, TK_ELIMIT, NULL, 0,
                                          "no cycle with delta=%" PRId32 " found within %g s",
                                          opts->delta, opts->budget)
                           : tk_error_set(err, TK_ELIMIT, NULL, 0,
                                          "no cycle with delta=%" PRId32
                                          " found within the time limit of the exact search "
                                          "(%g s)",
                                          opts->delta, opts->exact_limit);
            goto done;
        }
        stats->sat_rounds++;
        st = read_answer(opts->exact_solver, outp, e.cnf.nvars, val, &answer, err);
        if (st)
            goto done;
        if (answer == SOLVE_UNSAT) {
            stats->outcome = TK_ANTMILL_IMPOSSIBLE;
            snprintf(stats->reason, sizeof stats->reason, "exact search: unsatisfiable");
            st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                              "no Hamiltonian cycle with delta=%" PRId32 ": impossible: %s",
                              opts->delta, stats->reason);
            goto done;
        }
        if (decode(&e, val, nb, deg)) {
            st = tk_error_set(err, TK_EIO, NULL, 0,
                              "SAT solver '%s': its model breaks the degree constraints",
                              opts->exact_solver);
            goto done;
        }
        k = cycles(&e, nb, comp, order);
        if (k == 1) {
            /* never trusted: the verifier measures the cycle's delta */
            int32_t d = -1;
            st = tk_antmill_verify(g, order, n, NULL, NULL, &d, err);
            if (st == TK_OK && d < opts->delta)
                st = tk_error_set(err, TK_EIO, NULL, 0,
                                  "SAT solver '%s': its cycle has delta %" PRId32 ", not %" PRId32,
                                  opts->exact_solver, d, opts->delta);
            if (st != TK_OK) {
                if (st == TK_EFORMAT) { /* not a Hamiltonian cycle */
                    char why[sizeof err->msg];
                    snprintf(why, sizeof why, "%s", err->msg);
                    st = tk_error_set(err, TK_EIO, NULL, 0, "SAT solver '%s': %s",
                                      opts->exact_solver, why);
                }
                goto done;
            }
            memcpy(cycle, order, (size_t)n * sizeof *cycle);
            stats->outcome = TK_ANTMILL_FOUND;
            break;
        }
        if (add_cuts(&e, comp, order)) {
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the CNF");
            goto done;
        }
    }
done:
    if (cnfp) {
        remove(cnfp);
        remove(outp);
    }
    free(cnfp);
    free(outp);
    free(val);
    free(nb);
    free(comp);
    free(order);
    free(deg);
    free_enc(&e);
    return st;
}
