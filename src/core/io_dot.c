/*
 * io_dot.c - Graphviz DOT output (write only): "graph" or "digraph", the
 * spec as the graph label, every switch as a node (so isolated switches
 * show), switches of one group (a Dragonfly's groups) inside one cluster
 * subgraph, one edge statement per link, link classes as edge labels and
 * colours, capacities other than 1 in the label.  By the family of the
 * spec: HyperX rows (switches that differ only in the first coordinate, a
 * complete graph each) are clusters, fat-tree levels (the first
 * coordinate) are ranks.  tk_write_dot adds a highlighted cycle.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io_internal.h"

static const char *const palette[] = {"black",  "red",   "blue",    "darkgreen", "orange",
                                      "purple", "brown", "magenta", "cyan4",     "gold3"};

/* Print s as a DOT double-quoted string. */
static void put_quoted(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', fp);
        fputc((*s == '\n' || *s == '\r' || *s == '\t') ? ' ' : *s, fp);
    }
    fputc('"', fp);
}

/* Every switch inside the cluster of its group (groups in ascending id,
 * switches ascending inside), switches without a group (id < 0) outside:
 * graphviz draws each group as a box.  levels (fat-trees): inside a
 * cluster, one rank per level (coordinate 0), so the levels line up.  -1 when out of memory (the
 * caller then lists the switches plainly). */
static int write_clusters(FILE *fp, const tk_graph_t *g, int levels)
{
    int32_t maxg = -1;
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->group[u] > maxg)
            maxg = g->group[u];
    int64_t *start = calloc((size_t)maxg + 2, sizeof *start);
    tk_id_t *order = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *order);
    if (!start || !order) {
        free(start);
        free(order);
        return -1;
    }
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->group[u] >= 0)
            start[g->group[u] + 1]++;
    for (int32_t k = 0; k <= maxg; k++)
        start[k + 1] += start[k];
    {
        int64_t *fill = calloc((size_t)maxg + 1, sizeof *fill);
        if (!fill) {
            free(start);
            free(order);
            return -1;
        }
        for (tk_id_t u = 0; u < g->n; u++)
            if (g->group[u] >= 0) {
                int32_t k = g->group[u];
                order[start[k] + fill[k]++] = u;
            }
        free(fill);
    }
    for (int32_t k = 0; k <= maxg; k++) {
        if (start[k + 1] == start[k])
            continue;
        fprintf(fp, "  subgraph cluster_%" PRId32 " {\n    label=\"group %" PRId32 "\";\n", k, k);
        if (levels) { /* fat-tree: a rank per level inside the pod */
            int32_t lo = INT32_MAX, hi = INT32_MIN;
            for (int64_t i = start[k]; i < start[k + 1]; i++) {
                int32_t l = g->coord[(int64_t)order[i] * g->ncoord];
                lo = l < lo ? l : lo;
                hi = l > hi ? l : hi;
            }
            for (int32_t l = lo; l <= hi; l++) {
                int any = 0;
                for (int64_t i = start[k]; i < start[k + 1]; i++)
                    if (g->coord[(int64_t)order[i] * g->ncoord] == l) {
                        if (!any)
                            fprintf(fp,
                                    "    subgraph level%" PRId32 "_%" PRId32
                                    " {\n      rank=same;\n",
                                    k, l);
                        any = 1;
                        fprintf(fp, "      %" PRId32 ";\n", order[i]);
                    }
                if (any)
                    fputs("    }\n", fp);
            }
        } else {
            for (int64_t i = start[k]; i < start[k + 1]; i++)
                fprintf(fp, "    %" PRId32 ";\n", order[i]);
        }
        fputs("  }\n", fp);
    }
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->group[u] < 0)
            fprintf(fp, "  %" PRId32 ";\n", u);
    free(start);
    free(order);
    return 0;
}

/* The family of a spec: its first word (an alias is not resolved; specs
 * are canonical). */
static int spec_family(const tk_graph_t *g, const char *fam)
{
    size_t k = strlen(fam);
    return g->spec && strncmp(g->spec, fam, k) == 0 && (g->spec[k] == ' ' || g->spec[k] == 0);
}

/* A switch and the mixed-radix number of its coordinates 1.. (its row). */
typedef struct {
    uint64_t key;
    tk_id_t u;
} row_key_t;

static int row_cmp(const void *x, const void *y)
{
    const row_key_t *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return a->u < b->u ? -1 : a->u > b->u;
}

/* HyperX: one cluster per row (the switches equal in coordinates 1..),
 * labelled by those coordinates.  -1 when out of memory or when the
 * coordinates are negative or too many to number (the caller then lists
 * the switches plainly). */
static int write_rows(FILE *fp, const tk_graph_t *g)
{
    row_key_t *order = NULL;
    uint64_t *base = calloc((size_t)g->ncoord, sizeof *base), radix = 1;
    int64_t rows = 0;
    int ret = -1;

    if (!base)
        return -1;
    for (int c = 1; c < g->ncoord; c++) {
        int32_t mx = 0;
        for (tk_id_t u = 0; u < g->n; u++) {
            int32_t x = g->coord[(int64_t)u * g->ncoord + c];
            if (x < 0)
                goto done;
            if (x > mx)
                mx = x;
        }
        base[c] = radix;
        if (radix > UINT64_MAX / ((uint64_t)mx + 1))
            goto done;
        radix *= (uint64_t)mx + 1;
    }
    order = malloc((size_t)(g->n > 0 ? g->n : 1) * sizeof *order);
    if (!order)
        goto done;
    for (tk_id_t u = 0; u < g->n; u++) {
        order[u].key = 0;
        order[u].u = u;
        for (int c = 1; c < g->ncoord; c++)
            order[u].key += base[c] * (uint64_t)g->coord[(int64_t)u * g->ncoord + c];
    }
    qsort(order, (size_t)g->n, sizeof *order, row_cmp);
    for (int64_t i = 0; i < g->n;) {
        int64_t j = i;
        while (j < g->n && order[j].key == order[i].key)
            j++;
        fprintf(fp, "  subgraph cluster_row%" PRId64 " {\n    label=\"row (*", rows++);
        for (int c = 1; c < g->ncoord; c++)
            fprintf(fp, ",%" PRId32, g->coord[(int64_t)order[i].u * g->ncoord + c]);
        fputs(")\";\n", fp);
        for (int64_t k = i; k < j; k++)
            fprintf(fp, "    %" PRId32 ";\n", order[k].u);
        fputs("  }\n", fp);
        i = j;
    }
    ret = 0;
done:
    free(base);
    free(order);
    return ret;
}

/* Fat-tree: one rank per level (coordinate 0), lowest level first. */
static void write_ranks(FILE *fp, const tk_graph_t *g)
{
    int32_t maxl = -1;
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->coord[(int64_t)u * g->ncoord] > maxl)
            maxl = g->coord[(int64_t)u * g->ncoord];
    for (int32_t l = 0; l <= maxl; l++) {
        int any = 0;
        for (tk_id_t u = 0; u < g->n; u++)
            if (g->coord[(int64_t)u * g->ncoord] == l) {
                if (!any)
                    fprintf(fp, "  subgraph level%" PRId32 " {\n    rank=same;\n", l);
                any = 1;
                fprintf(fp, "    %" PRId32 ";\n", u);
            }
        if (any)
            fputs("  }\n", fp);
    }
}

/* Mark the arcs (both of a link) of the closed walk.  The first arc
 * u -> v is taken when u and v have parallel links. */
static tk_status_t mark_cycle(const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                              unsigned char *mark, tk_error_t *err)
{
    for (int64_t i = 0; i < len; i++)
        if (cycle[i] < 0 || cycle[i] >= g->n)
            return tk_error_set(err, TK_ERANGE, NULL, 0,
                                "cycle: entry %" PRId64 " is switch %" PRId32
                                ", not in 0..%" PRId32,
                                i + 1, cycle[i], g->n - 1);
    for (int64_t i = 0; i < len && len > 1; i++) {
        tk_id_t u = cycle[i], v = cycle[(i + 1) % len];
        int64_t a = g->off[u];
        while (a < g->off[u + 1] && g->head[a] != v)
            a++;
        if (a == g->off[u + 1])
            return tk_error_set(err, TK_EINVAL, NULL, 0,
                                "cycle: switches %" PRId32 " and %" PRId32 " (entries %" PRId64
                                " and %" PRId64 ") are not linked",
                                u, v, i + 1, (i + 1) % len + 1);
        mark[a] = 1;
        if (g->rev)
            mark[g->rev[a]] = 1;
    }
    return TK_OK;
}

tk_status_t tk_write_dot(FILE *fp, const tk_graph_t *g, const tk_id_t *cycle, int64_t len,
                         tk_error_t *err)
{
    const char *arrow = g->directed ? "->" : "--";
    unsigned char *mark = NULL;
    int64_t narcs = g->off[g->n];
    tk_status_t st;

    if (cycle && len > 0) {
        mark = calloc((size_t)(narcs > 0 ? narcs : 1), 1);
        if (!mark)
            return tk_error_set(err, TK_ENOMEM, NULL, 0, "out of memory");
        st = mark_cycle(g, cycle, len, mark, err);
        if (st) {
            free(mark);
            return st;
        }
    }
    fprintf(fp, "%s topokit {\n", g->directed ? "digraph" : "graph");
    if (g->spec && g->spec[0]) {
        fputs("  label=", fp);
        put_quoted(fp, g->spec);
        fputs(";\n", fp);
    }
    fputs("  node [shape=circle];\n", fp);
    int levels = g->coord && g->ncoord >= 1 && spec_family(g, "fattree");
    if (g->group && write_clusters(fp, g, levels) == 0) {
        levels = 0; /* ranked inside the clusters */
        /* the switches are in their groups' clusters */
    } else if (g->coord && g->ncoord >= 2 && spec_family(g, "hyperx") && write_rows(fp, g) == 0) {
        /* the switches are in their rows' clusters */
    } else {
        for (tk_id_t u = 0; u < g->n; u++)
            fprintf(fp, "  %" PRId32 ";\n", u);
    }
    if (levels)
        write_ranks(fp, g);
    for (tk_id_t u = 0; u < g->n; u++) {
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            if (!tk_io_link_rep(g, u, a))
                continue;
            int c = g->cls ? g->cls[a] : 0;
            double cap = tk_graph_cap(g, a);
            int hot = mark && mark[a];
            fprintf(fp, "  %" PRId32 " %s %" PRId32, u, arrow, g->head[a]);
            if (c != 0 || cap != 1.0 || hot) {
                char label[TK_CLASS_NAME_MAX + 48], num[40];
                const char *sep = "";
                label[0] = 0;
                if (c != 0 && cap != 1.0)
                    snprintf(label, sizeof label, "%s cap=%s", g->class_name[c],
                             tk_io_fmt_double(cap, num, sizeof num));
                else if (c != 0)
                    snprintf(label, sizeof label, "%s", g->class_name[c]);
                else if (cap != 1.0)
                    snprintf(label, sizeof label, "cap=%s", tk_io_fmt_double(cap, num, sizeof num));
                fputs(" [", fp);
                if (label[0]) {
                    fputs("label=", fp);
                    put_quoted(fp, label);
                    sep = ", ";
                }
                if (hot)
                    fprintf(fp, "%scolor=\"red\", penwidth=3, class=\"cycle\"", sep);
                else if (c != 0)
                    fprintf(fp, "%scolor=\"%s\"", sep,
                            palette[1 + (c - 1) % (int)(sizeof palette / sizeof palette[0] - 1)]);
                fputs("]", fp);
            }
            fputs(";\n", fp);
        }
    }
    fputs("}\n", fp);
    free(mark);
    return TK_OK;
}

tk_status_t tk_io_write_dot(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    return tk_write_dot(fp, g, NULL, 0, err);
}
