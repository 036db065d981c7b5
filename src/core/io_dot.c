/*
 * io_dot.c - Graphviz DOT output (write only): "graph" or "digraph", the
 * spec as the graph label, every switch as a node (so isolated switches
 * show), switches of one group (a Dragonfly's groups) inside one cluster
 * subgraph, one edge statement per link, link classes as edge labels and
 * colours, capacities other than 1 in the label.
 */
#include <inttypes.h>
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
 * graphviz draws each group as a box.  -1 when out of memory (the caller
 * then lists the switches plainly). */
static int write_clusters(FILE *fp, const tk_graph_t *g)
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
        for (int64_t i = start[k]; i < start[k + 1]; i++)
            fprintf(fp, "    %" PRId32 ";\n", order[i]);
        fputs("  }\n", fp);
    }
    for (tk_id_t u = 0; u < g->n; u++)
        if (g->group[u] < 0)
            fprintf(fp, "  %" PRId32 ";\n", u);
    free(start);
    free(order);
    return 0;
}

tk_status_t tk_io_write_dot(FILE *fp, const tk_graph_t *g, tk_error_t *err)
{
    (void)err;
    const char *arrow = g->directed ? "->" : "--";
    fprintf(fp, "%s topokit {\n", g->directed ? "digraph" : "graph");
    if (g->spec && g->spec[0]) {
        fputs("  label=", fp);
        put_quoted(fp, g->spec);
        fputs(";\n", fp);
    }
    fputs("  node [shape=circle];\n", fp);
    if (g->group && write_clusters(fp, g) == 0) {
        /* the switches are in their groups' clusters */
    } else {
        for (tk_id_t u = 0; u < g->n; u++)
            fprintf(fp, "  %" PRId32 ";\n", u);
    }
    for (tk_id_t u = 0; u < g->n; u++) {
        for (int64_t a = g->off[u]; a < g->off[u + 1]; a++) {
            if (!tk_io_link_rep(g, u, a))
                continue;
            int c = g->cls ? g->cls[a] : 0;
            double cap = tk_graph_cap(g, a);
            fprintf(fp, "  %" PRId32 " %s %" PRId32, u, arrow, g->head[a]);
            if (c != 0 || cap != 1.0) {
                char label[TK_CLASS_NAME_MAX + 48], num[40];
                if (c != 0 && cap != 1.0)
                    snprintf(label, sizeof label, "%s cap=%s", g->class_name[c],
                             tk_io_fmt_double(cap, num, sizeof num));
                else if (c != 0)
                    snprintf(label, sizeof label, "%s", g->class_name[c]);
                else
                    snprintf(label, sizeof label, "cap=%s", tk_io_fmt_double(cap, num, sizeof num));
                fputs(" [label=", fp);
                put_quoted(fp, label);
                if (c != 0)
                    fprintf(fp, ", color=\"%s\"",
                            palette[1 + (c - 1) % (int)(sizeof palette / sizeof palette[0] - 1)]);
                fputs("]", fp);
            }
            fputs(";\n", fp);
        }
    }
    fputs("}\n", fp);
    return TK_OK;
}
