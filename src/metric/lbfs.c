/*
 * lbfs.c - level-synchronous, direction-optimizing BFS with the
 * shortest-path DAG (bfs_internal.h).
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "metric/bfs_internal.h"

void tk_lbfs_free(tk_lbfs_t *b)
{
    free(b->dist);
    free(b->order);
    free(b->lstart);
    free(b->dseg);
    free(b->dag);
    free(b->dtail);
    free(b->dhead);
    free(b->unv);
    memset(b, 0, sizeof *b);
}

int tk_lbfs_init(tk_lbfs_t *b, const tk_graph_t *g, int want_dag)
{
    size_t n = (size_t)g->n + 2;
    memset(b, 0, sizeof *b);
    b->dist = tk_malloc_array(n, sizeof *b->dist);
    b->order = tk_malloc_array(n, sizeof *b->order);
    b->lstart = tk_malloc_array(n + 1, sizeof *b->lstart);
    b->dseg = tk_malloc_array(n + 1, sizeof *b->dseg);
    b->unv = tk_malloc_array(n, sizeof *b->unv);
    int bad = !b->dist || !b->order || !b->lstart || !b->dseg || !b->unv;
    if (want_dag) {
        b->dag = tk_malloc_array((size_t)g->m + 1, sizeof *b->dag);
        b->dtail = tk_malloc_array((size_t)g->m + 1, sizeof *b->dtail);
        b->dhead = tk_malloc_array((size_t)g->m + 1, sizeof *b->dhead);
        bad |= !b->dag || !b->dtail || !b->dhead;
    }
    if (bad) {
        tk_lbfs_free(b);
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        b->dist[i] = TK_INF;
    return 0;
}

/* The search body, instantiated for both head types (HT) and with or
 * without DAG recording (DAG, a constant).  Without the DAG and without
 * sigma and nin, a bottom-up switch stops at its first frontier
 * neighbour. */
#define LBFS_RUN(NAME, HT, DAG)                                                                    \
    static void NAME(const tk_graph_t *g, const HT *headp, const int64_t *rev, tk_id_t s,          \
                     tk_lbfs_t *b, double *restrict sigma, int32_t *restrict nin)                  \
    {                                                                                              \
        const int64_t *off = g->off;                                                               \
        const HT *restrict head = headp;                                                           \
        int32_t *restrict dist = b->dist;                                                          \
        tk_id_t *restrict order = b->order;                                                        \
        int64_t *restrict dag = b->dag;                                                            \
        tk_id_t *restrict dtail = b->dtail, *restrict dhead = b->dhead;                            \
        tk_id_t n = g->n;                                                                          \
        int64_t qt = 0, nd = 0, nunv = -1;                                                         \
        uint64_t degvis = (uint64_t)(off[s + 1] - off[s]), m = (uint64_t)g->m;                     \
        int32_t L = 0;                                                                             \
        const int first_only = !DAG && !sigma && !nin;                                             \
        (void)dag;                                                                                 \
        (void)dtail;                                                                               \
        (void)dhead;                                                                               \
                                                                                                   \
        dist[s] = 0;                                                                               \
        if (sigma)                                                                                 \
            sigma[s] = 1;                                                                          \
        if (nin)                                                                                   \
            nin[s] = 0;                                                                            \
        order[qt++] = s;                                                                           \
        b->lstart[0] = 0;                                                                          \
        b->dseg[0] = 0;                                                                            \
        for (;;) {                                                                                 \
            int64_t lo = b->lstart[L], hi = qt;                                                    \
            b->lstart[L + 1] = hi;                                                                 \
            b->dseg[L + 1] = nd;                                                                   \
            if (lo == hi || qt == n) /* nothing beyond this level */                               \
                break;                                                                             \
            int32_t dn = L + 1;                                                                    \
            uint64_t fdeg = 0;                                                                     \
            for (int64_t i = lo; i < hi; i++)                                                      \
                fdeg += (uint64_t)(off[order[i] + 1] - off[order[i]]);                             \
            if (rev && m - degvis < fdeg) {                                                        \
                /* Bottom-up: every unvisited v collects its frontier neighbours. */               \
                if (nunv < 0) {                                                                    \
                    nunv = 0;                                                                      \
                    for (tk_id_t v = 0; v < n; v++)                                                \
                        if (dist[v] == TK_INF)                                                     \
                            b->unv[nunv++] = v;                                                    \
                }                                                                                  \
                int64_t keep = 0;                                                                  \
                for (int64_t j = 0; j < nunv; j++) {                                               \
                    tk_id_t v = b->unv[j];                                                         \
                    if (dist[v] != TK_INF)                                                         \
                        continue; /* found top-down meanwhile */                                   \
                    double sv = 0;                                                                 \
                    int32_t cnt = 0;                                                               \
                    for (int64_t a = off[v], end = off[v + 1]; a < end; a++) {                     \
                        tk_id_t u = head[a];                                                       \
                        if (dist[u] == L) {                                                        \
                            if (sigma)                                                             \
                                sv += sigma[u];                                                    \
                            cnt++;                                                                 \
                            if (DAG) {                                                             \
                                dag[nd] = rev[a];                                                  \
                                dhead[nd] = v;                                                     \
                                dtail[nd++] = u;                                                   \
                            }                                                                      \
                            if (first_only)                                                        \
                                break;                                                             \
                        }                                                                          \
                    }                                                                              \
                    if (cnt) {                                                                     \
                        dist[v] = dn;                                                              \
                        if (sigma)                                                                 \
                            sigma[v] = sv;                                                         \
                        if (nin)                                                                   \
                            nin[v] = cnt;                                                          \
                        order[qt++] = v;                                                           \
                        degvis += (uint64_t)(off[v + 1] - off[v]);                                 \
                    } else {                                                                       \
                        b->unv[keep++] = v;                                                        \
                    }                                                                              \
                }                                                                                  \
                nunv = keep;                                                                       \
            } else {                                                                               \
                for (int64_t i = lo; i < hi; i++) {                                                \
                    tk_id_t u = order[i];                                                          \
                    double su = sigma ? sigma[u] : 0;                                              \
                    for (int64_t a = off[u], end = off[u + 1]; a < end; a++) {                     \
                        tk_id_t v = head[a];                                                       \
                        int32_t dv = dist[v];                                                      \
                        if (dv == TK_INF) {                                                        \
                            dist[v] = dv = dn;                                                     \
                            if (sigma)                                                             \
                                sigma[v] = 0;                                                      \
                            if (nin)                                                               \
                                nin[v] = 0;                                                        \
                            order[qt++] = v;                                                       \
                            degvis += (uint64_t)(off[v + 1] - off[v]);                             \
                        }                                                                          \
                        /* Branch-free: the DAG test is a coin toss for the predictor. */          \
                        int in_dag = dv == dn;                                                     \
                        if (sigma)                                                                 \
                            sigma[v] += su * (double)in_dag;                                       \
                        if (nin)                                                                   \
                            nin[v] += in_dag;                                                      \
                        if (DAG) {                                                                 \
                            dag[nd] = a;                                                           \
                            dhead[nd] = v;                                                         \
                            dtail[nd] = u;                                                         \
                            nd += in_dag;                                                          \
                        }                                                                          \
                    }                                                                              \
                }                                                                                  \
            }                                                                                      \
            L++;                                                                                   \
        }                                                                                          \
        /* Levels 0 .. L are non-empty unless the last frontier was empty. */                      \
        b->nlev = b->lstart[L] == b->lstart[L + 1] ? L : L + 1;                                    \
        b->lstart[b->nlev] = qt;                                                                   \
        b->dseg[b->nlev] = nd;                                                                     \
        b->nvis = qt;                                                                              \
    }
LBFS_RUN(run32_dag, tk_id_t, 1)
LBFS_RUN(run16_dag, uint16_t, 1)
LBFS_RUN(run32, tk_id_t, 0)
LBFS_RUN(run16, uint16_t, 0)
#undef LBFS_RUN

void tk_lbfs_run(const tk_graph_t *g, const uint16_t *head16, const int64_t *rev, tk_id_t s,
                 tk_lbfs_t *b, double *sigma, int32_t *nin)
{
    if (b->dag) {
        if (head16)
            run16_dag(g, head16, rev, s, b, sigma, nin);
        else
            run32_dag(g, g->head, rev, s, b, sigma, nin);
    } else {
        if (head16)
            run16(g, head16, rev, s, b, sigma, nin);
        else
            run32(g, g->head, rev, s, b, sigma, nin);
    }
}

void tk_lbfs_reset(tk_lbfs_t *b)
{
    for (int64_t i = 0; i < b->nvis; i++)
        b->dist[b->order[i]] = TK_INF;
}

uint16_t *tk_head16_new(const tk_graph_t *g)
{
    if (g->n >= 65536)
        return NULL;
    uint16_t *h = tk_malloc_array((size_t)g->m + 1, sizeof *h);
    if (h)
        for (int64_t a = 0; a < g->m; a++)
            h[a] = (uint16_t)g->head[a];
    return h;
}
