/*
 * row.c - numbers and result rows of the tools: one writer for the TSV
 * line and the JSON Lines object of a row, so both carry the same names
 * and values.
 */
#include <config.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void cli_print_int_or_inf(FILE *fp, int64_t v, int64_t inf)
{
    if (v >= inf)
        fputs("inf", fp);
    else
        fprintf(fp, "%" PRId64, v);
}

const char *cli_format_double(char *buf, size_t len, double v, int min_digits)
{
    if (isinf(v)) {
        snprintf(buf, len, "%s", v > 0 ? "inf" : "-inf");
        return buf;
    }
    if (isnan(v)) {
        snprintf(buf, len, "nan");
        return buf;
    }
    /* The fewest digits from min_digits on that read back as v.  From 15
     * on, %.15g already drops trailing zeros, so when 15 digits read back
     * it is the shortest decimal; otherwise 16 or 17 are needed. */
    for (int prec = min_digits; prec <= 17; prec++) {
        snprintf(buf, len, "%.*g", prec, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return buf;
}

void cli_print_double(FILE *fp, double v)
{
    char buf[64];

    fputs(cli_format_double(buf, sizeof buf, v, 15), fp);
}

void cli_print_u128(FILE *fp, unsigned __int128 v)
{
    char buf[48];
    int i = (int)sizeof buf - 1;

    buf[i] = '\0';
    do {
        buf[--i] = (char)('0' + (int)(v % 10));
        v /= 10;
    } while (v);
    fputs(buf + i, fp);
}

void cli_print_json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(fp, "\\%c", c);
        else if (c < 0x20)
            fprintf(fp, "\\u%04x", c);
        else
            fputc(c, fp);
    }
    fputc('"', fp);
}

/* ------------------------------------------------------------------------ */
/* Rows.  A row holds the stream's lock from cli_row_begin to cli_row_end,
 * so its cells use the unlocked character functions (a sweep of
 * topo-bounds writes 16 million cells). */

static void put(FILE *fp, const char *s)
{
    while (*s)
        putc_unlocked(*s++, fp);
}

void cli_row_begin(cli_row_t *r, FILE *fp, int json)
{
    memset(r, 0, sizeof *r);
    r->fp = fp;
    r->json = json;
    flockfile(fp);
    if (json)
        putc_unlocked('{', fp);
}

/* The separator and, in JSON, the key (none inside arrays: name NULL). */
static void cell_key(cli_row_t *r, const char *name)
{
    if (!r->json) {
        if (r->cells[0]++)
            putc_unlocked('\t', r->fp);
        return;
    }
    if (r->cells[r->depth]++)
        putc_unlocked(',', r->fp);
    if (name) {
        cli_print_json_string(r->fp, name);
        fputc(':', r->fp);
    }
}

void cli_cell_str(cli_row_t *r, const char *name, const char *v)
{
    if (r->json && strcmp(v, "-") == 0)
        cli_cell_null(r, name);
    else
        cli_cell_text(r, name, v);
}

void cli_cell_text(cli_row_t *r, const char *name, const char *v)
{
    cell_key(r, name);
    if (r->json)
        cli_print_json_string(r->fp, v);
    else
        put(r->fp, v);
}

void cli_cell_null(cli_row_t *r, const char *name)
{
    cell_key(r, name);
    fputs(r->json ? "null" : "-", r->fp);
}

void cli_cell_bool(cli_row_t *r, const char *name, int v)
{
    cell_key(r, name);
    if (r->json)
        fputs(v ? "true" : "false", r->fp);
    else
        fputc(v ? '1' : '0', r->fp);
}

void cli_cell_int(cli_row_t *r, const char *name, int64_t v, int64_t inf)
{
    cell_key(r, name);
    if (r->json && inf > 0 && v >= inf)
        fputs("\"inf\"", r->fp);
    else
        cli_print_int_or_inf(r->fp, v, inf > 0 ? inf : INT64_MAX);
}

void cli_cell_u64(cli_row_t *r, const char *name, uint64_t v)
{
    cell_key(r, name);
    fprintf(r->fp, "%" PRIu64, v);
}

void cli_cell_u128(cli_row_t *r, const char *name, unsigned __int128 v)
{
    cell_key(r, name);
    cli_print_u128(r->fp, v);
}

void cli_cell_double(cli_row_t *r, const char *name, double v)
{
    cell_key(r, name);
    if (r->json && isinf(v))
        fputs(v > 0 ? "\"inf\"" : "\"-inf\"", r->fp);
    else if (r->json && isnan(v))
        fputs("null", r->fp);
    else
        cli_print_double(r->fp, v);
}

void cli_cell_num(cli_row_t *r, const char *name, const char *text)
{
    cell_key(r, name);
    put(r->fp, text);
}

void cli_cell_open(cli_row_t *r, const char *name, int bracket)
{
    if (!r->json)
        return;
    cell_key(r, name);
    if (r->depth + 1 >= CLI_ROW_DEPTH) {
        /* A programming error: deeper than a row can hold. */
        fputs("null", r->fp);
        r->lost++;
        return;
    }
    fputc(bracket, r->fp);
    r->depth++;
    r->cells[r->depth] = 0;
    r->close[r->depth] = bracket == '[' ? ']' : '}';
}

void cli_cell_close(cli_row_t *r)
{
    if (!r->json)
        return;
    if (r->lost) {
        r->lost--;
        return;
    }
    if (r->depth > 0)
        fputc(r->close[r->depth--], r->fp);
}

void cli_row_end(cli_row_t *r)
{
    while (r->json && r->depth > 0)
        cli_cell_close(r);
    put(r->fp, r->json ? "}\n" : "\n");
    funlockfile(r->fp);
}

/* ------------------------------------------------------------------------
 * Held tables: class columns that are the union over the rows. */

char *cli_held_render(void (*fill)(cli_row_t *row, const void *x, const void *y, int c),
                      const void *x, const void *y, int c)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    cli_row_t row;

    if (!fp)
        return NULL;
    cli_row_begin(&row, fp, 0);
    fill(&row, x, y, c);
    cli_row_end(&row);
    if (fclose(fp) != 0) {
        free(buf);
        return NULL;
    }
    if (len && buf[len - 1] == '\n')
        buf[len - 1] = 0;
    return buf;
}

cli_held_row_t *cli_held_add(cli_held_t *t)
{
    if (t->nrows == t->arows) {
        size_t na = t->arows ? 2 * t->arows : 16;
        cli_held_row_t *nr = realloc(t->rows, na * sizeof *nr);
        if (!nr)
            return NULL;
        t->rows = nr;
        t->arows = na;
    }
    cli_held_row_t *h = &t->rows[t->nrows++];
    memset(h, 0, sizeof *h);
    return h;
}

int cli_held_class(cli_held_t *t, cli_held_row_t *h, const char *name, char *cells)
{
    if (!cells || h->ncls == TK_MAX_CLASSES) {
        free(cells);
        return -1;
    }
    snprintf(h->cls[h->ncls], TK_CLASS_NAME_MAX, "%s", name);
    h->cells[h->ncls++] = cells;
    int known = 0;
    for (int i = 0; i < t->ncols && !known; i++)
        known = strcmp(t->cols[i], name) == 0;
    if (!known && t->ncols < TK_MAX_CLASSES)
        snprintf(t->cols[t->ncols++], TK_CLASS_NAME_MAX, "%s", name);
    return 0;
}

void cli_held_flush(cli_held_t *t, FILE *out, void (*header)(void *ctx, FILE *out), void *ctx)
{
    if (t->nrows)
        header(ctx, out);
    for (size_t k = 0; k < t->nrows; k++) {
        cli_held_row_t *h = &t->rows[k];
        fputs(h->fixed ? h->fixed : "", out);
        for (int i = 0; i < t->ncols; i++) {
            int j = 0;
            while (j < h->ncls && strcmp(h->cls[j], t->cols[i]) != 0)
                j++;
            if (j < h->ncls)
                fprintf(out, "\t%s", h->cells[j]);
            else
                for (int w = 0; w < t->width; w++)
                    fputc('\t', out);
        }
        if (h->tail && h->tail[0])
            fprintf(out, "\t%s", h->tail);
        fputc('\n', out);
        free(h->fixed);
        free(h->tail);
        for (int j = 0; j < h->ncls; j++)
            free(h->cells[j]);
    }
    free(t->rows);
    t->rows = NULL;
    t->nrows = t->arows = 0;
}
