/*
 * mem.c - overflow-checked allocation and memory-size accounting.
 */
#include <config.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tk_core.h"

void *tk_malloc_array(size_t count, size_t size)
{
    size_t bytes;

    if (__builtin_mul_overflow(count, size, &bytes))
        return NULL;
    return malloc(bytes ? bytes : 1);
}

void *tk_calloc_array(size_t count, size_t size)
{
    size_t bytes;

    if (__builtin_mul_overflow(count, size, &bytes))
        return NULL;
    return calloc(count ? count : 1, size ? size : 1);
}

void *tk_realloc_array(void *p, size_t count, size_t size)
{
    size_t bytes;

    if (__builtin_mul_overflow(count, size, &bytes))
        return NULL;
    return realloc(p, bytes ? bytes : 1);
}

int tk_resize_array(void *pp, size_t count, size_t size)
{
    void *p, *q;

    /* Through memcpy: *pp is an int64_t *, double *, ... object. */
    memcpy(&p, pp, sizeof p);
    if (!(q = tk_realloc_array(p, count, size)))
        return -1;
    memcpy(pp, &q, sizeof q);
    return 0;
}

uint64_t tk_memory_limit_default(void)
{
    long pages = sysconf(_SC_PHYS_PAGES);
    long page = sysconf(_SC_PAGESIZE);

    if (pages <= 0 || page <= 0)
        return 0;
    return (uint64_t)pages * (uint64_t)page;
}

uint64_t tk_memory_available(void)
{
    FILE *fp = fopen("/proc/meminfo", "r");
    char line[128];
    unsigned long long kb;
    uint64_t v = 0;

    if (!fp)
        return 0;
    while (fgets(line, sizeof line, fp))
        if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
            v = kb > UINT64_MAX / 1024 ? UINT64_MAX : (uint64_t)kb * 1024;
            break;
        }
    fclose(fp);
    return v;
}

uint64_t tk_graph_bytes(int64_t n, int64_t m)
{
    /* off (8 per switch + 8), head 4, rev 8, cls 1, cap 8 per arc, plus the
     * builder's 16 bytes per link while building (half the arcs for
     * undirected, all for directed: count per arc to stay on the safe side),
     * and 12 bytes of per-switch attributes. */
    uint64_t un = n < 0 ? 0 : (uint64_t)n, um = m < 0 ? 0 : (uint64_t)m;
    unsigned __int128 b =
        (unsigned __int128)un * 20u + 8u + (unsigned __int128)um * (4u + 8u + 1u + 8u + 16u);

    if (b > UINT64_MAX)
        return UINT64_MAX;
    return (uint64_t)b;
}

void tk_fmt_bytes(uint64_t b, char *buf, size_t len)
{
    static const char *unit[] = {"bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    double v = (double)b;
    int u = 0;
    while (v >= 1024 && u < 6) {
        v /= 1024;
        u++;
    }
    if (u == 0)
        snprintf(buf, len, "%" PRIu64 " bytes", b);
    else if (v < 10)
        snprintf(buf, len, "%.1f %s", v, unit[u]);
    else
        snprintf(buf, len, "%.0f %s", v, unit[u]);
}
