/*
 * version.c - library version.
 */
#include <config.h>

#include "topokit.h"

const char *tk_version(void)
{
    return PACKAGE_VERSION;
}
