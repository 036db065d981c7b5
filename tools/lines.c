/*
 * lines.c - reading text tables line by line (topo-bounds --measured,
 * topo-stats): one line buffer, line numbers for "FILE:LINE: message"
 * diagnostics, and TSV field splitting.
 */
#include <config.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cli_lines_open(cli_lines_t *L, const char *path)
{
    memset(L, 0, sizeof *L);
    L->fp = cli_open_input(path, &L->name);
    return L->fp ? 0 : -1;
}

int cli_lines_next(cli_lines_t *L)
{
    ssize_t len = getline(&L->line, &L->cap, L->fp);

    if (len < 0) {
        if (ferror(L->fp)) {
            cli_errorf("%s: read error", L->name);
            return -1;
        }
        return 0;
    }
    L->lineno++;
    while (len > 0 && (L->line[len - 1] == '\n' || L->line[len - 1] == '\r'))
        L->line[--len] = '\0';
    L->len = (size_t)len;
    return 1;
}

void cli_lines_close(cli_lines_t *L)
{
    free(L->line);
    cli_close_input(L->fp);
    memset(L, 0, sizeof *L);
}

void cli_lines_error(const cli_lines_t *L, const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: %s:%ld: ", cli_prog(), L->name, L->lineno);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

int cli_split_tabs(char *line, char **fields, int max)
{
    int n = 0;

    for (char *s = line;;) {
        char *tab = strchr(s, '\t');
        if (n == max)
            return -1;
        fields[n++] = s;
        if (!tab)
            return n;
        *tab = '\0';
        s = tab + 1;
    }
}

int cli_field_index(char *const *fields, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(fields[i], name) == 0)
            return i;
    return -1;
}
