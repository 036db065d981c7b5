/*
 * io_dot.c - Graphviz DOT output (write only): "graph" or "digraph", the
 * spec as the graph label, every switch as a node (so isolated switches
 * show), one edge statement per link, link classes as edge labels and
 * colours, capacities other than 1 in the label.
 */
#include <inttypes.h>
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
    for (tk_id_t u = 0; u < g->n; u++)
        fprintf(fp, "  %" PRId32 ";\n", u);
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
