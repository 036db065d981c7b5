/*
 * replay.c - runs corpus files through a harness without libFuzzer, so the
 * corpus replays in make check under the plain and the sanitizer builds:
 *   replay NAME FILE...   every FILE through harness NAME
 *   replay --list         the harness names
 * Exit 0 when every file went through (a harness aborts on a broken
 * invariant, and the sanitizers abort on what they catch).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static int replay_file(const fz_target_t *t, const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        fprintf(stderr, "replay: %s: cannot open\n", path);
        return 1;
    }
    size_t cap = 4096, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap *= 2);
            if (!nb) {
                free(buf);
                buf = NULL;
            }
            buf = nb;
        }
    }
    fclose(fp);
    if (!buf) {
        fprintf(stderr, "replay: %s: out of memory\n", path);
        return 1;
    }
    t->fn(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0) {
        for (const fz_target_t *t = fz_targets; t->name; t++)
            puts(t->name);
        return 0;
    }
    if (argc < 2) {
        fputs("usage: replay NAME FILE... | replay --list\n", stderr);
        return 2;
    }
    const fz_target_t *t = fz_find(argv[1]);
    if (!t) {
        fprintf(stderr, "replay: no harness '%s'\n", argv[1]);
        return 2;
    }
    int rc = 0;
    for (int i = 2; i < argc; i++)
        rc |= replay_file(t, argv[i]);
    return rc;
}
