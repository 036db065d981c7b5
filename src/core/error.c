/*
 * error.c - status codes and the error record.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "tk_core.h"

void tk_error_clear(tk_error_t *err)
{
    if (!err)
        return;
    err->code = TK_OK;
    err->line = 0;
    err->where[0] = '\0';
    err->msg[0] = '\0';
}

tk_status_t tk_error_set(tk_error_t *err, tk_status_t code, const char *where, long line,
                         const char *fmt, ...)
{
    va_list ap;

    if (!err)
        return code;
    err->code = code;
    err->line = line;
    if (where)
        snprintf(err->where, sizeof err->where, "%s", where);
    else
        err->where[0] = '\0';
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

const char *tk_status_str(tk_status_t code)
{
    switch (code) {
    case TK_OK:
        return "success";
    case TK_EOF:
        return "end of input";
    case TK_EINVAL:
        return "invalid argument";
    case TK_ENOMEM:
        return "out of memory";
    case TK_ELIMIT:
        return "size above the limit";
    case TK_EIO:
        return "input/output error";
    case TK_EFORMAT:
        return "malformed input";
    case TK_ERANGE:
        return "value out of range";
    case TK_EDISCONNECTED:
        return "graph is not connected";
    case TK_EUNSUPPORTED:
        return "not supported";
    case TK_EINTERNAL:
        return "internal error";
    }
    return "unknown status";
}
