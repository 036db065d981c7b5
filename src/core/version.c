/*
 * version.c - library version.
 */
#include <config.h>

#include "tk_core.h"

const char *tk_version(void)
{
    return PACKAGE_VERSION;
}
