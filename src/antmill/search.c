/*
 * search.c - Hamiltonian cycles with unique shortest paths up to delta by
 * randomized rotation-extension with depth-first backtracking (the Ant Mill
 * paper, section 5).  See tk_antmill.h.
 *
 * State: a path x_0 .. x_{l-1} (path[], pos[] = index on the path or -1).
 * Choice points are frames on a stack:
 *   EXT   the path was extended by w; its candidates are the valid
 *         extensions of the new end, tried in order;
 *   WALK  a random walk of valid rotations (logged, so it can be undone)
 *         that ended where an extension (or the closing) is valid.
 * A frame first tries its extension candidates; when they are used up (or
 * there were none) it starts up to WALKS_PER_FRAME rotation walks
 * (undirected graphs only); when those fail too the frame is popped and its
 * operation undone (backtracking).
 *
 * Attempts (random starts).  Attempt k draws every random choice from the
 * stream tk_rng_new(seed, k) and stops after a work limit that depends on
 * k only: W0 = 200 n + 10000 steps, doubled after every `starts` attempts
 * (opts->starts, default 1), at most 2^40.  So attempts are independent:
 * they run in rounds of consecutive attempts (one per worker: OpenMP
 * thread, or MPI rank through a runner, tk_antmill.h), and the rounds'
 * results are read in attempt order: the first attempt that finds a cycle
 * (or, directed, proves there is none) decides, and the 64th attempt that
 * runs out of choices gives up.  Which attempt decides, and so the cycle,
 * depends on the seed only, never on the round size, the thread count or
 * the rank count.  The budget is only checked, never used to steer, so a
 * completed search gives the same cycle on any machine.
 *
 * tk_antmill_search (at the end) runs the proofs (prove.c), attempts 0
 * and 1 of this search, the 2-factor search (pair.c, delta 2, undirected;
 * a batch of one task, so that one MPI rank runs it), then this search
 * from attempt 2 until the budget (issue 28).
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "tk_antmill.h"
#include "antmill_internal.h"

#define WALKS_PER_FRAME 8
#define MAX_EXHAUSTIONS 64
#define QUICK_ATTEMPTS 2
#define WORK_CAP ((uint64_t)1 << 40)

enum { FR_ROOT = 0, FR_EXT, FR_WALK };

typedef struct frame {
    int kind;
    tk_id_t w;       /* FR_EXT: the switch added          */
    int64_t rot_off; /* FR_WALK: its rotations in rotlog  */
    int64_t rot_len;
    int64_t cand_off; /* candidates in cand[]              */
    int64_t cand_len;
    int64_t cand_next;
    int walks; /* rotation walks tried from here    */
    int expanded;
} frame_t;

typedef struct search {
    const tk_graph_t *g;
    const am_utable_t *ut; /* NULL when delta == 0 */
    int32_t delta;
    tk_id_t n;
    tk_id_t *path;
    int64_t *pos;
    int64_t l;
    frame_t *fr;
    int64_t nfr, capfr;
    tk_id_t *cand;
    int64_t ncand, capcand;
    int64_t *rotlog;
    int64_t nrot, caprot;
    tk_rng_t *rng;
    /* scratch for ordering candidates */
    uint64_t *key;
    tk_id_t *tmp;
    int64_t cap_tmp, cap_key;
    int64_t walk_len; /* rotations per walk */
    struct timespec t0;
    double budget;
    uint64_t ticks;
    uint64_t work_limit; /* ticks before the attempt gives up */
    int timed_out;
    int restart;
    int exhausted;       /* the root ran out of choices */
    int cancelled;       /* an earlier task of the round decided */
    const int64_t *stop; /* in-process rounds: the smallest deciding task */
    int64_t task;        /* this attempt's task in its round */
    tk_antmill_stats_t st;
} search_t;

double am_elapsed(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)(t.tv_sec - t0->tv_sec) + 1e-9 * (double)(t.tv_nsec - t0->tv_nsec);
}

/* ------------------------------------------------------------------------ */
/* The unique-path table: bit (x, y) set iff D(x, y) = delta and exactly one
 * shortest path (arcs counted with multiplicity). */

void am_utable_free(am_utable_t *t)
{
    if (t) {
        free(t->bits);
        free(t);
    }
}

tk_status_t am_utable_new(const tk_graph_t *g, int32_t delta, int threads, uint64_t mem_limit,
                          am_utable_t **out, tk_error_t *err)
{
    tk_id_t n = g->n;
    int64_t words = ((int64_t)n + 63) / 64;
    uint64_t bytes = (uint64_t)n * (uint64_t)words * 8u;
    am_utable_t *t;
    int failed = 0;

    if (mem_limit && bytes > mem_limit)
        return tk_error_set(err, TK_ELIMIT, NULL, 0,
                            "unique-path table of %" PRId32 " switches needs %" PRIu64
                            " bytes, over the memory limit",
                            n, bytes);
    t = calloc(1, sizeof *t);
    if (!t)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    t->n = n;
    t->words = words;
    t->delta = delta;
    t->bits = tk_calloc_array((size_t)n * (size_t)words, sizeof(uint64_t));
    if (!t->bits) {
        free(t);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the unique-path table");
    }
#ifdef _OPENMP
    if (threads <= 0)
        threads = omp_get_max_threads();
#pragma omp parallel num_threads(threads) reduction(| : failed)
#else
    (void)threads;
#endif
    {
        int32_t *dist = tk_malloc_array((size_t)n, sizeof *dist);
        uint8_t *sig = tk_malloc_array((size_t)n, 1);
        tk_id_t *queue = tk_malloc_array((size_t)n, sizeof *queue);
        if (!dist || !sig || !queue) {
            failed = 1;
        } else {
            for (tk_id_t v = 0; v < n; v++)
                dist[v] = -1;
#ifdef _OPENMP
#pragma omp for schedule(dynamic, 16)
#endif
            for (tk_id_t s = 0; s < n; s++) {
                int64_t qh = 0, qt = 0;
                uint64_t *row = t->bits + (size_t)s * (size_t)words;
                dist[s] = 0;
                sig[s] = 1;
                queue[qt++] = s;
                while (qh < qt) {
                    tk_id_t u = queue[qh++];
                    int32_t du = dist[u];
                    if (du == delta)
                        continue;
                    for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
                        tk_id_t v = g->head[a];
                        if (dist[v] < 0) {
                            dist[v] = du + 1;
                            sig[v] = sig[u];
                            queue[qt++] = v;
                        } else if (dist[v] == du + 1) {
                            int sv = sig[v] + sig[u];
                            sig[v] = (uint8_t)(sv > 2 ? 2 : sv);
                        }
                    }
                }
                for (int64_t q = 0; q < qt; q++) {
                    tk_id_t v = queue[q];
                    if (dist[v] == delta && sig[v] == 1 && v != s)
                        row[v >> 6] |= (uint64_t)1 << (v & 63);
                    dist[v] = -1;
                }
            }
        }
        free(dist);
        free(sig);
        free(queue);
    }
    if (failed) {
        am_utable_free(t);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory for the unique-path table");
    }
    *out = t;
    return TK_OK;
}

/* ------------------------------------------------------------------------ */

static inline int uok(const search_t *s, tk_id_t x, tk_id_t y)
{
    return s->ut == NULL || am_utable_get(s->ut, x, y);
}

static int grow(void **p, int64_t *cap, int64_t need, size_t size)
{
    if (need <= *cap)
        return 0;
    int64_t nc = *cap ? *cap : 64;
    while (nc < need)
        nc *= 2;
    void *q = tk_realloc_array(*p, (size_t)nc, size);
    if (!q)
        return -1;
    *p = q;
    *cap = nc;
    return 0;
}

static int tick(search_t *s)
{
    if ((++s->ticks & 63) == 0) {
        if (s->budget > 0 && am_elapsed(&s->t0) > s->budget)
            s->timed_out = 1;
        if (s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED) < s->task)
            s->cancelled = 1;
    }
    if (s->ticks >= s->work_limit)
        s->restart = 1;
    return s->timed_out || s->restart || s->cancelled;
}

/* Is w a valid extension of the current path? */
static int ext_ok(const search_t *s, tk_id_t w)
{
    if (s->pos[w] >= 0)
        return 0;
    if (s->delta > 0 && s->l >= s->delta)
        return uok(s, s->path[s->l - s->delta], w);
    return 1;
}

/* With l == n: is the closing arc there and are the wrapping windows valid? */
static int closable(const search_t *s)
{
    tk_id_t n = s->n;
    if (!tk_graph_has_arc(s->g, s->path[n - 1], s->path[0]))
        return 0;
    for (int64_t i = (int64_t)n - s->delta; i < n; i++) {
        if (i < 0)
            continue;
        if (!uok(s, s->path[i], s->path[(i + s->delta) % n]))
            return 0;
    }
    return 1;
}

static int has_goal(const search_t *s)
{
    if (s->l == s->n)
        return closable(s);
    tk_id_t e = s->path[s->l - 1];
    for (int64_t a = s->g->off[e]; a < s->g->off[e + 1]; a++)
        if (ext_ok(s, s->g->head[a]))
            return 1;
    return 0;
}

/* Rotation at pivot index i: keeps windows valid? */
static int rot_ok(const search_t *s, int64_t i)
{
    int64_t l = s->l;
    for (int64_t j = 0; j < s->delta; j++) {
        if (i - j < 0 || l - s->delta + j < i + 1)
            continue;
        if (!uok(s, s->path[i - j], s->path[l - s->delta + j]))
            return 0;
    }
    return 1;
}

/* Reverse path[i+1 .. l-1]: the rotation at pivot i (an involution). */
static void rotate(search_t *s, int64_t i)
{
    int64_t a = i + 1, b = s->l - 1;
    while (a < b) {
        tk_id_t x = s->path[a], y = s->path[b];
        s->path[a] = y;
        s->pos[y] = a;
        s->path[b] = x;
        s->pos[x] = b;
        a++;
        b--;
    }
    if (a == b)
        s->pos[s->path[a]] = a;
}

/* Push the valid extension candidates of the current end, fewest free
 * neighbours first, ties in random order. */
static int gen_candidates(search_t *s, frame_t *f)
{
    const tk_graph_t *g = s->g;
    tk_id_t e = s->path[s->l - 1];
    int64_t deg = g->off[e + 1] - g->off[e];
    int64_t k = 0;

    f->cand_off = s->ncand;
    f->cand_len = 0;
    f->cand_next = 0;
    if (s->l == s->n)
        return 0;
    if (grow((void **)&s->tmp, &s->cap_tmp, deg, sizeof *s->tmp) ||
        grow((void **)&s->key, &s->cap_key, deg, sizeof *s->key))
        return -1;
    for (int64_t a = g->off[e]; a < g->off[e + 1]; a++) {
        tk_id_t w = g->head[a];
        int dup = 0;
        if (!ext_ok(s, w))
            continue;
        for (int64_t q = 0; q < k; q++)
            if (s->tmp[q] == w)
                dup = 1;
        if (dup)
            continue;
        uint64_t freec = 0;
        for (int64_t b = g->off[w]; b < g->off[w + 1]; b++)
            if (s->pos[g->head[b]] < 0 && g->head[b] != w)
                freec++;
        s->tmp[k] = w;
        s->key[k] = (freec << 32) | (tk_rng_below(s->rng, (uint64_t)1 << 32));
        k++;
    }
    /* insertion sort by key */
    for (int64_t q = 1; q < k; q++) {
        uint64_t kk = s->key[q];
        tk_id_t ww = s->tmp[q];
        int64_t r = q - 1;
        while (r >= 0 && s->key[r] > kk) {
            s->key[r + 1] = s->key[r];
            s->tmp[r + 1] = s->tmp[r];
            r--;
        }
        s->key[r + 1] = kk;
        s->tmp[r + 1] = ww;
    }
    if (grow((void **)&s->cand, &s->capcand, s->ncand + k, sizeof *s->cand))
        return -1;
    memcpy(s->cand + s->ncand, s->tmp, (size_t)k * sizeof *s->tmp);
    s->ncand += k;
    f->cand_len = k;
    return 0;
}

static int push_frame(search_t *s, int kind)
{
    if (grow((void **)&s->fr, &s->capfr, s->nfr + 1, sizeof *s->fr))
        return -1;
    frame_t *f = &s->fr[s->nfr++];
    memset(f, 0, sizeof *f);
    f->kind = kind;
    f->cand_off = s->ncand;
    f->rot_off = s->nrot;
    return 0;
}

/* A random walk of valid rotations until an extension or the closing is
 * valid.  Returns 1 on success (rotations logged from rot_off), 0 on
 * failure (undone), -1 out of memory. */
static int walk(search_t *s, int64_t rot_off)
{
    const tk_graph_t *g = s->g;
    s->st.walks++;
    for (int64_t step = 0; step < s->walk_len; step++) {
        if (tick(s))
            break;
        tk_id_t e = s->path[s->l - 1];
        int64_t deg = g->off[e + 1] - g->off[e];
        int64_t k = 0;
        if (grow((void **)&s->tmp, &s->cap_tmp, deg, sizeof *s->tmp))
            return -1;
        for (int64_t a = g->off[e]; a < g->off[e + 1]; a++) {
            int64_t i = s->pos[g->head[a]];
            if (i < 0 || i >= s->l - 2)
                continue;
            if (rot_ok(s, i))
                s->tmp[k++] = (tk_id_t)i;
        }
        if (k == 0)
            break;
        int64_t i = s->tmp[tk_rng_below(s->rng, (uint64_t)k)];
        rotate(s, i);
        s->st.rotations++;
        if (grow((void **)&s->rotlog, &s->caprot, s->nrot + 1, sizeof *s->rotlog))
            return -1;
        s->rotlog[s->nrot++] = i;
        if (has_goal(s))
            return 1;
    }
    while (s->nrot > rot_off)
        rotate(s, s->rotlog[--s->nrot]);
    return 0;
}

static void free_search(search_t *s)
{
    free(s->path);
    free(s->pos);
    free(s->fr);
    free(s->cand);
    free(s->rotlog);
    free(s->key);
    free(s->tmp);
    tk_rng_free(s->rng);
}

/* One attempt: 0 = done (cycle found: *st TK_OK, or a final error in *st),
 * 1 = restart, 2 = budget exhausted, 3 = cancelled. */
static int attempt_run(search_t *s, tk_id_t *cycle, const tk_antmill_opts_t *opts, tk_error_t *err,
                       tk_status_t *stp)
{
    const tk_graph_t *g = s->g;
    tk_id_t n = s->n;
    *stp = TK_OK;
    for (;;) {
        frame_t *f = &s->fr[s->nfr - 1];
        if (tick(s))
            return s->cancelled ? 3 : s->timed_out ? 2 : 1;
        if (!f->expanded) {
            f->expanded = 1;
            if (s->l == n && closable(s)) {
                memcpy(cycle, s->path, (size_t)n * sizeof *cycle);
                return 0;
            }
            if (gen_candidates(s, f))
                goto nomem;
        }
        if (f->cand_next < f->cand_len) {
            tk_id_t w = s->cand[f->cand_off + f->cand_next++];
            s->path[s->l] = w;
            s->pos[w] = s->l;
            s->l++;
            s->st.extensions++;
            if (push_frame(s, FR_EXT))
                goto nomem;
            s->fr[s->nfr - 1].w = w;
            continue;
        }
        if (!g->directed && f->walks < WALKS_PER_FRAME && s->l >= 3) {
            int64_t off = s->nrot;
            f->walks++;
            int r = walk(s, off);
            if (r < 0)
                goto nomem;
            if (r == 1) {
                if (push_frame(s, FR_WALK))
                    goto nomem;
                frame_t *nf = &s->fr[s->nfr - 1];
                nf->rot_off = off;
                nf->rot_len = s->nrot - off;
            }
            continue;
        }
        /* exhausted: undo this frame */
        s->ncand = f->cand_off;
        if (f->kind == FR_ROOT) {
            if (!g->directed) {
                s->exhausted = 1; /* walks are cut short: not a proof, try again */
                return 1;
            }
            *stp = tk_error_set(
                err, TK_EUNSUPPORTED, NULL, 0,
                "no Hamiltonian cycle with delta=%" PRId32 ": search space exhausted", opts->delta);
            s->st.outcome = TK_ANTMILL_IMPOSSIBLE;
            snprintf(s->st.reason, sizeof s->st.reason,
                     "exhaustive search: every extension from switch %" PRId32 " was tried",
                     s->path[0]);
            return 0;
        }
        if (f->kind == FR_EXT) {
            s->l--;
            s->pos[f->w] = -1;
            s->st.backtracks++;
        } else {
            while (s->nrot > f->rot_off)
                rotate(s, s->rotlog[--s->nrot]);
        }
        s->nfr--;
    }
nomem:
    *stp = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the cycle search");
    return 0;
}

/* Work of the 2-factor search before the rotation-extension search takes
 * over (steps): enough for the RRGs of the Ant Mill paper many times over,
 * small against the budgets in use. */
static uint64_t pair_work(tk_id_t n, int32_t delta)
{
    return 400 * (uint64_t)n * (uint64_t)delta + 200000;
}

/* The exact search (exact.c) with the unique-path tables of every length
 * up to delta (ut: that of delta). */
static tk_status_t exact(const tk_graph_t *g, const tk_antmill_opts_t *opts, const am_utable_t *ut,
                         const struct timespec *t0, tk_id_t *cycle, tk_antmill_stats_t *stats,
                         tk_error_t *err)
{
    am_utable_t **uts = tk_calloc_array((size_t)opts->delta + 1, sizeof *uts);
    tk_status_t st = TK_OK;

    if (!uts)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
    for (int32_t k = 1; k < opts->delta && !st; k++)
        st = am_utable_new(g, k, opts->threads, opts->mem_limit, &uts[k], err);
    if (st) {
        stats->outcome = TK_ANTMILL_GAVE_UP;
    } else {
        if (opts->delta > 0)
            uts[opts->delta] = (am_utable_t *)ut;
        st = am_exact_search(g, opts, (const am_utable_t *const *)uts, t0, cycle, stats, err);
    }
    for (int32_t k = 1; k < opts->delta; k++)
        am_utable_free(uts[k]);
    free(uts);
    return st;
}

/* ------------------------------------------------------------------------ */
/* Batches: rounds of attempts, or the 2-factor search as one task. */

enum { AM_TASK_ATTEMPT = 0, AM_TASK_PAIR, AM_TASK_EXACT };

/* How a task ended (am_result_t.outcome). */
enum {
    AM_R_NONE = 0,   /* not run: an earlier task of the round decided */
    AM_R_FOUND,      /* a cycle                                        */
    AM_R_LIMIT,      /* the attempt's work limit                       */
    AM_R_EXHAUSTED,  /* undirected: the root ran out of choices        */
    AM_R_IMPOSSIBLE, /* directed: exhausted from its start, a proof    */
    AM_R_TIMEOUT,    /* the budget                                     */
    AM_R_PAIR,       /* the 2-factor search: its status in `status`    */
    AM_R_EXACT       /* the exact search: its status in `status`       */
};

/* A task's result: the record a runner moves between processes (these
 * bytes, then the cycle's n ids when outcome is AM_R_FOUND, or the pair
 * search's status TK_OK). */
typedef struct am_result {
    int32_t outcome;
    int32_t status; /* AM_R_PAIR: the 2-factor search's status */
    tk_id_t start;  /* the attempt's start switch */
    int32_t pad;
    uint64_t extensions, rotations, backtracks, walks, moves;
    char msg[200]; /* AM_R_PAIR with TK_EUNSUPPORTED: why */
} am_result_t;

/* The exact search's error and statistics: in its record after the
 * am_result_t, before the cycle. */
typedef struct am_exact_rec {
    tk_error_t err;
    tk_antmill_stats_t stats;
} am_exact_rec_t;

struct tk_antmill_batch {
    int kind;
    const tk_graph_t *g;
    const am_utable_t *ut;
    const tk_antmill_opts_t *opts;
    struct timespec t0;
    double budget;
    uint64_t first; /* attempt number of task 0 */
    int64_t count;
    am_result_t *res;
    tk_id_t *cycle;     /* n: the cycle of task cycle_task */
    int64_t cycle_task; /* the first task that found one (INT64_MAX: none) */
    int64_t stop;       /* in-process rounds: the smallest deciding task */
    am_exact_rec_t x;   /* AM_TASK_EXACT: the search's error and statistics */
};

int64_t tk_antmill_batch_tasks(const tk_antmill_batch_t *b)
{
    return b->count;
}

void tk_antmill_batch_key(const tk_antmill_batch_t *b, int32_t *delta, int64_t *first)
{
    *delta = b->opts->delta;
    *first = b->kind == AM_TASK_PAIR ? -1 : b->kind == AM_TASK_EXACT ? -2 : (int64_t)b->first;
}

/* The work limit of attempt k. */
static uint64_t attempt_limit(tk_id_t n, int starts, uint64_t k)
{
    uint64_t w = 200 * (uint64_t)n + 10000;
    uint64_t levels = k / (uint64_t)(starts > 0 ? starts : 1);
    while (levels-- > 0 && w < WORK_CAP)
        w *= 2;
    return w < WORK_CAP ? w : WORK_CAP;
}

/* Run task i of b into *r, *x (the exact search's error and statistics)
 * and cycle (n ids).  Errors: TK_ENOMEM only (the search's own ends are
 * outcomes; the exact search's errors are in x). */
static tk_status_t task_run(const tk_antmill_batch_t *b, int64_t i, const int64_t *stop,
                            am_result_t *r, am_exact_rec_t *x, tk_id_t *cycle, tk_error_t *err)
{
    const tk_graph_t *g = b->g;
    tk_id_t n = g->n;
    tk_status_t st = TK_OK;

    memset(r, 0, sizeof *r);
    if (b->kind == AM_TASK_EXACT) {
        memset(x, 0, sizeof *x);
        tk_error_clear(&x->err);
        r->outcome = AM_R_EXACT;
        r->status = exact(g, b->opts, b->ut, &b->t0, cycle, &x->stats, &x->err);
        return TK_OK;
    }
    if (b->kind == AM_TASK_PAIR) {
        am_budget_t bud;
        tk_error_t e;
        tk_error_clear(&e);
        bud.t0 = b->t0;
        bud.seconds = b->budget;
        bud.work = pair_work(n, b->opts->delta);
        r->outcome = AM_R_PAIR;
        r->status = am_pair_search(g, b->ut, &bud, b->opts->seed, cycle, &r->moves, &e);
        if (r->status == TK_ENOMEM)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "%s", e.msg);
        snprintf(r->msg, sizeof r->msg, "%.199s", e.msg);
        return TK_OK;
    }

    search_t s;
    uint64_t k = b->first + (uint64_t)i;
    memset(&s, 0, sizeof s);
    s.t0 = b->t0;
    s.g = g;
    s.ut = b->ut;
    s.delta = b->opts->delta;
    s.n = n;
    s.budget = b->budget;
    s.stop = stop;
    s.task = i;
    s.walk_len = g->directed ? 0 : (n < 32 ? 64 : 2 * (int64_t)n);
    s.work_limit = attempt_limit(n, b->opts->starts, k);
    s.path = tk_malloc_array((size_t)n, sizeof *s.path);
    s.pos = tk_malloc_array((size_t)n, sizeof *s.pos);
    if (!s.path || !s.pos)
        goto nomem;
    if ((st = tk_rng_new(&s.rng, b->opts->seed, k, err)) != TK_OK)
        goto done;
    if (b->budget > 0 && am_elapsed(&s.t0) > b->budget) {
        r->outcome = AM_R_TIMEOUT;
        goto done;
    }
    for (tk_id_t v = 0; v < n; v++)
        s.pos[v] = -1;
    {
        tk_id_t start = (tk_id_t)tk_rng_below(s.rng, (uint64_t)n);
        s.path[0] = start;
        s.pos[start] = 0;
        s.l = 1;
        r->start = start;
    }
    if (push_frame(&s, FR_ROOT))
        goto nomem;
    {
        tk_error_t e;
        tk_status_t ast;
        int exhausted;
        tk_error_clear(&e);
        int a = attempt_run(&s, cycle, b->opts, &e, &ast);
        exhausted = a == 1 && s.exhausted;
        if (a == 0 && ast == TK_ENOMEM)
            goto nomem;
        r->outcome = a == 0      ? (ast == TK_OK ? AM_R_FOUND : AM_R_IMPOSSIBLE)
                     : a == 2    ? AM_R_TIMEOUT
                     : a == 3    ? AM_R_NONE
                     : exhausted ? AM_R_EXHAUSTED
                                 : AM_R_LIMIT;
    }
    r->extensions = s.st.extensions;
    r->rotations = s.st.rotations;
    r->backtracks = s.st.backtracks;
    r->walks = s.st.walks;
    goto done;
nomem:
    st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the cycle search");
done:
    free_search(&s);
    return st;
}

static size_t record_len(const tk_antmill_batch_t *b, const am_result_t *r)
{
    int cyc = r->outcome == AM_R_FOUND ||
              ((r->outcome == AM_R_PAIR || r->outcome == AM_R_EXACT) && r->status == TK_OK);
    return sizeof *r + (r->outcome == AM_R_EXACT ? sizeof(am_exact_rec_t) : 0) +
           (cyc ? (size_t)b->g->n * sizeof(tk_id_t) : 0);
}

tk_status_t tk_antmill_batch_run(const tk_antmill_batch_t *b, int64_t i, FILE *fp, tk_error_t *err)
{
    am_result_t r;
    am_exact_rec_t x;
    tk_id_t *cycle;
    tk_status_t st;

    if (i < 0 || i >= b->count)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "task %lld: not in the batch", (long long)i);
    cycle = tk_malloc_array((size_t)b->g->n, sizeof *cycle);
    if (!cycle)
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the cycle search");
    st = task_run(b, i, NULL, &r, &x, cycle, err);
    if (st == TK_OK) {
        size_t len = record_len(b, &r), xlen = r.outcome == AM_R_EXACT ? sizeof x : 0;
        if (fwrite(&r, sizeof r, 1, fp) != 1 || (xlen && fwrite(&x, xlen, 1, fp) != 1) ||
            (len > sizeof r + xlen && fwrite(cycle, len - sizeof r - xlen, 1, fp) != 1))
            st = tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory (task results)");
    }
    free(cycle);
    return st;
}

tk_status_t tk_antmill_batch_take(tk_antmill_batch_t *b, int64_t i, const unsigned char *rec,
                                  size_t len, tk_error_t *err)
{
    am_result_t r;

    if (i < 0 || i >= b->count || len < sizeof r)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "task %lld: a bad result record",
                            (long long)i);
    memcpy(&r, rec, sizeof r);
    if (record_len(b, &r) != len)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "task %lld: a bad result record",
                            (long long)i);
    b->res[i] = r;
    size_t xlen = r.outcome == AM_R_EXACT ? sizeof b->x : 0;
    if (xlen)
        memcpy(&b->x, rec + sizeof r, xlen);
    if (len > sizeof r + xlen && i < b->cycle_task) {
        memcpy(b->cycle, rec + sizeof r + xlen, len - sizeof r - xlen);
        b->cycle_task = i;
    }
    return TK_OK;
}

/* Every task of b: by the runner, or here with OpenMP threads, where a task
 * that decides (a cycle, a proof) cancels the later ones of its round.
 * The error is that of the smallest failing task. */
static tk_status_t batch_exec(tk_antmill_batch_t *b, int threads, tk_error_t *err)
{
    const tk_antmill_runner_t *run = b->opts->runner;
    int64_t bad = INT64_MAX;
    tk_error_t first;

    b->cycle_task = INT64_MAX;
    if (run && run->run) {
        /* a task the runner does not take reads as not run (AM_R_NONE) */
        memset(b->res, 0, (size_t)b->count * sizeof *b->res);
        return run->run(run->ctx, b, err);
    }
    b->stop = INT64_MAX;
    tk_error_clear(&first);
#ifdef _OPENMP
    if (threads > b->count)
        threads = (int)b->count;
#pragma omp parallel for schedule(dynamic, 1) num_threads(threads > 0 ? threads : 1)
#else
    (void)threads;
#endif
    for (int64_t i = 0; i < b->count; i++) {
        tk_error_t e;
        am_result_t *r = &b->res[i];
        tk_id_t *cycle = tk_malloc_array((size_t)b->g->n, sizeof *cycle);
        tk_status_t st;
        tk_error_clear(&e);
        st = cycle ? task_run(b, i, &b->stop, r, &b->x, cycle, &e)
                   : tk_error_set(&e, TK_ENOMEM, NULL, 0, "out of memory in the cycle search");
#ifdef _OPENMP
#pragma omp critical
#endif
        {
            if (st != TK_OK && i < bad) {
                bad = i;
                first = e;
            }
            if (st == TK_OK &&
                (r->outcome == AM_R_FOUND ||
                 ((r->outcome == AM_R_PAIR || r->outcome == AM_R_EXACT) && r->status == TK_OK)) &&
                i < b->cycle_task) {
                memcpy(b->cycle, cycle, (size_t)b->g->n * sizeof *cycle);
                b->cycle_task = i;
            }
        }
        free(cycle);
        if (st != TK_OK)
            continue;
        if (r->outcome == AM_R_FOUND || r->outcome == AM_R_IMPOSSIBLE) {
            int64_t cur = __atomic_load_n(&b->stop, __ATOMIC_RELAXED);
            while (i < cur && !__atomic_compare_exchange_n(&b->stop, &cur, i, 0, __ATOMIC_RELAXED,
                                                           __ATOMIC_RELAXED))
                ;
        }
    }
    if (bad != INT64_MAX) {
        if (err)
            *err = first;
        return first.code ? first.code : TK_ENOMEM;
    }
    return TK_OK;
}

/* Workers of a round: the runner's, else the OpenMP threads. */
static int64_t workers(const tk_antmill_opts_t *opts)
{
    if (opts->runner && opts->runner->run)
        return opts->runner->workers > 0 ? opts->runner->workers : 1;
#ifdef _OPENMP
    return opts->threads > 0 ? opts->threads : omp_get_max_threads();
#else
    return 1;
#endif
}

int am_spent(const tk_antmill_opts_t *opts, const struct timespec *t0)
{
    int over = opts->budget > 0 && am_elapsed(t0) > opts->budget;
    if (opts->runner && opts->runner->agree)
        over = opts->runner->agree(opts->runner->ctx, over);
    return over;
}

/* A batch of `count` tasks of one kind on g: zeroed, the search's inputs
 * set, its result arrays allocated. */
static tk_status_t batch_alloc(tk_antmill_batch_t *b, int kind, const tk_graph_t *g,
                               const am_utable_t *ut, const tk_antmill_opts_t *opts,
                               const struct timespec *t0, int64_t count, tk_error_t *err)
{
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->g = g;
    b->ut = ut;
    b->opts = opts;
    b->t0 = *t0;
    b->budget = opts->budget;
    b->res = tk_calloc_array((size_t)count, sizeof *b->res);
    b->cycle = tk_malloc_array((size_t)g->n, sizeof *b->cycle);
    if (!b->res || !b->cycle) {
        free(b->res);
        free(b->cycle);
        return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory in the cycle search");
    }
    return TK_OK;
}

/* Where the attempts stand between calls of dfs_search. */
typedef struct am_line {
    uint64_t next;   /* the next attempt */
    int exhaustions; /* attempts that ran out of choices so far */
} am_line_t;

/* The rotation-extension search with the table ut (NULL for delta 0):
 * attempts line->next, ... in rounds, until attempt `last` (0: no end),
 * a decision or the budget. */
static tk_status_t dfs_search(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                              const am_utable_t *ut, const struct timespec *t0, am_line_t *line,
                              uint64_t last, tk_id_t *cycle, tk_antmill_stats_t *stats,
                              tk_error_t *err)
{
    tk_antmill_batch_t b;
    tk_antmill_stats_t sum;
    tk_status_t st = TK_OK;
    int64_t width = workers(opts);

    memset(&sum, 0, sizeof sum);
    if (width > 1024)
        width = 1024;
    if ((st = batch_alloc(&b, AM_TASK_ATTEMPT, g, ut, opts, t0, width, err)) != TK_OK)
        return st;
    tk_progress_begin(opts->progress, "cycle search", "starts", 0);
    for (;;) {
        int timed = 0;
        if (last && line->next >= last) {
            st = tk_error_set(err, TK_ELIMIT, NULL, 0, "first attempts used up");
            sum.outcome = TK_ANTMILL_GAVE_UP;
            break;
        }
        if (am_spent(opts, t0)) {
            timed = 1;
            goto budget;
        }
        b.first = line->next;
        b.count = width;
        if (last && b.first + (uint64_t)b.count > last)
            b.count = (int64_t)(last - b.first);
        if ((st = batch_exec(&b, opts->threads, err)) != TK_OK)
            break;
        /* The round in attempt order: the first decision counts. */
        for (int64_t i = 0; i < b.count; i++) {
            const am_result_t *r = &b.res[i];
            if (r->outcome == AM_R_NONE)
                continue; /* after a decision only */
            sum.extensions += r->extensions;
            sum.rotations += r->rotations;
            sum.backtracks += r->backtracks;
            sum.walks += r->walks;
            tk_progress_add(opts->progress, 1);
            if (r->outcome == AM_R_FOUND) {
                memcpy(cycle, b.cycle, (size_t)g->n * sizeof *cycle); /* i = b.cycle_task */
                st = TK_OK;
                goto done;
            }
            if (r->outcome == AM_R_IMPOSSIBLE) {
                st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                  "no Hamiltonian cycle with delta=%" PRId32
                                  ": search space exhausted",
                                  opts->delta);
                sum.outcome = TK_ANTMILL_IMPOSSIBLE;
                snprintf(sum.reason, sizeof sum.reason,
                         "exhaustive search: every extension from switch %" PRId32 " was tried",
                         r->start);
                goto done;
            }
            if (r->outcome == AM_R_EXHAUSTED && ++line->exhaustions >= MAX_EXHAUSTIONS) {
                st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                                  "no Hamiltonian cycle with delta=%" PRId32
                                  " found: search space exhausted from %d random starts",
                                  opts->delta, MAX_EXHAUSTIONS);
                sum.outcome = TK_ANTMILL_GAVE_UP;
                goto done;
            }
            if (r->outcome == AM_R_TIMEOUT)
                timed = 1;
        }
        line->next += (uint64_t)b.count;
    budget:
        if (timed) {
            st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                              "no cycle with delta=%" PRId32 " found within %g s", opts->delta,
                              opts->budget);
            sum.outcome = TK_ANTMILL_BUDGET;
            break;
        }
    }
done:
    tk_progress_end(opts->progress);
    free(b.res);
    free(b.cycle);
    if (stats)
        *stats = sum;
    return st;
}

/* The 2-factor search as a batch of one task (so that one rank runs it):
 * its status, moves and cycle, as am_pair_search. */
static tk_status_t pair_task(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                             const am_utable_t *ut, const struct timespec *t0, tk_id_t *cycle,
                             uint64_t *moves, tk_error_t *err)
{
    tk_antmill_batch_t b;
    tk_status_t st;

    if ((st = batch_alloc(&b, AM_TASK_PAIR, g, ut, opts, t0, 1, err)) != TK_OK)
        return st;
    b.count = 1;
    st = batch_exec(&b, 1, err);
    if (st == TK_OK) {
        const am_result_t *r = &b.res[0];
        *moves = r->moves;
        st = r->status;
        if (st == TK_OK)
            memcpy(cycle, b.cycle, (size_t)g->n * sizeof *cycle);
        else
            tk_error_set(err, st, NULL, 0, "%s", r->msg);
    }
    free(b.res);
    free(b.cycle);
    return st;
}

/* The exact search: here without a runner, else as a batch of one task
 * (under MPI rank 0 runs it, tools/topo-antmill.c): its status, error,
 * cycle and statistics (outcome, reason, sat_*), as exact(). */
static tk_status_t exact_task(const tk_graph_t *g, const tk_antmill_opts_t *opts,
                              const am_utable_t *ut, const struct timespec *t0, tk_id_t *cycle,
                              tk_antmill_stats_t *stats, tk_error_t *err)
{
    tk_antmill_batch_t b;
    tk_status_t st;

    if (!opts->runner || !opts->runner->run)
        return exact(g, opts, ut, t0, cycle, stats, err);
    if ((st = batch_alloc(&b, AM_TASK_EXACT, g, ut, opts, t0, 1, err)) != TK_OK)
        return st;
    b.count = 1;
    st = batch_exec(&b, 1, err);
    if (st == TK_OK && b.res[0].outcome != AM_R_EXACT)
        st = tk_error_set(err, TK_EINVAL, NULL, 0, "the exact search's record is missing");
    if (st == TK_OK) {
        const tk_antmill_stats_t *x = &b.x.stats;
        st = b.res[0].status;
        stats->outcome = x->outcome;
        stats->sat_rounds += x->sat_rounds;
        stats->sat_vars = x->sat_vars;
        stats->sat_clauses = x->sat_clauses;
        memcpy(stats->reason, x->reason, sizeof stats->reason);
        if (st == TK_OK)
            memcpy(cycle, b.cycle, (size_t)g->n * sizeof *cycle);
        else if (err)
            *err = b.x.err;
    }
    free(b.res);
    free(b.cycle);
    return st;
}

tk_status_t tk_antmill_search(const tk_graph_t *g, const tk_antmill_opts_t *opts, tk_id_t *cycle,
                              tk_antmill_stats_t *stats, tk_error_t *err)
{
    tk_antmill_stats_t one;
    tk_status_t st = TK_OK;
    am_utable_t *ut = NULL;
    tk_id_t n = g->n;
    struct timespec t0;
    am_line_t line = {0, 0};

    memset(&one, 0, sizeof one);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    one.outcome_delta = opts->delta;
    if (opts->delta < 0)
        return tk_error_set(err, TK_EINVAL, NULL, 0, "delta=%" PRId32 ": must be at least 0",
                            opts->delta);
    if (n < (g->directed ? 2 : 3))
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "a Hamiltonian cycle needs at least %d switches (the graph has %" PRId32
                            ")",
                            g->directed ? 2 : 3, n);
    if (opts->delta >= n)
        return tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                            "delta=%" PRId32 ": must be less than n=%" PRId32, opts->delta, n);
    if (opts->delta > 0) {
        int impossible = 0;
        st = am_utable_new(g, opts->delta, opts->threads, opts->mem_limit, &ut, err);
        if (st) {
            one.outcome = TK_ANTMILL_GAVE_UP;
            goto done;
        }
        for (int full = 0; full < 2 && !impossible; full++) {
            if (full) {
                /* Quick first: two attempts of the rotation-extension
                 * search (what finds the easy cases fastest), then the
                 * proofs on the window graph. */
                st = dfs_search(g, opts, ut, &t0, &line, QUICK_ATTEMPTS, cycle, &one, err);
                if (st != TK_ELIMIT)
                    goto done;
                /* its first attempts used up, or the budget: the proofs
                 * come first either way */
                memset(&one, 0, sizeof one);
            }
            st = am_prove(g, ut, opts->mem_limit, full, &impossible, one.reason, sizeof one.reason,
                          err);
            if (st)
                goto done;
        }
        if (impossible) {
            one.outcome = TK_ANTMILL_IMPOSSIBLE;
            st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                              "no Hamiltonian cycle with delta=%" PRId32 ": impossible: %s",
                              opts->delta, one.reason);
            goto done;
        }
        if (am_spent(opts, &t0)) {
            one.outcome = TK_ANTMILL_BUDGET;
            st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                              "no cycle with delta=%" PRId32 " found within %g s", opts->delta,
                              opts->budget);
            goto done;
        }
    }
    if (opts->delta == 2 && !g->directed) {
        st = pair_task(g, opts, ut, &t0, cycle, &one.moves, err);
        if (st == TK_OK || st == TK_ENOMEM)
            goto done;
        if (st == TK_EUNSUPPORTED) {
            one.outcome = TK_ANTMILL_IMPOSSIBLE;
            snprintf(one.reason, sizeof one.reason, "%.200s", err->msg);
            st = tk_error_set(err, TK_EUNSUPPORTED, NULL, 0,
                              "no Hamiltonian cycle with delta=%" PRId32 ": impossible: %s",
                              opts->delta, one.reason);
            goto done;
        }
        if (am_spent(opts, &t0)) {
            one.outcome = TK_ANTMILL_BUDGET;
            st = tk_error_set(err, TK_ELIMIT, NULL, 0,
                              "no cycle with delta=%" PRId32 " found within %g s", opts->delta,
                              opts->budget);
            goto done;
        }
    }
    if (opts->exact_solver) {
        if (opts->delta == 0) {
            /* H-hat: the quick attempts first, as for delta >= 1 */
            st = dfs_search(g, opts, NULL, &t0, &line, QUICK_ATTEMPTS, cycle, &one, err);
            if (st != TK_ELIMIT)
                goto done;
            memset(&one, 0, sizeof one);
            one.outcome_delta = opts->delta;
        }
        st = exact_task(g, opts, ut, &t0, cycle, &one, err);
        goto done;
    }
    {
        uint64_t moves = one.moves;
        st = dfs_search(g, opts, ut, &t0, &line, 0, cycle, &one, err);
        one.moves = moves;
        one.outcome_delta = opts->delta;
    }
done:
    if (st == TK_OK)
        one.outcome = TK_ANTMILL_FOUND;
    else if (st == TK_ENOMEM || (st == TK_ELIMIT && one.outcome == TK_ANTMILL_FOUND))
        one.outcome = TK_ANTMILL_GAVE_UP;
    one.seconds = am_elapsed(&t0);
    if (stats)
        *stats = one;
    am_utable_free(ut);
    return st;
}
