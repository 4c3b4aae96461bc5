/* mha_error.c - filling and formatting struct mha_error. */
#include "engine/mha_error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void mha_error_clear(struct mha_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

int mha_error_set(struct mha_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->text, sizeof err->text, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void mha_error_at(struct mha_error *err, const char *file, int line, int column)
{
    if (!err)
        return;
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
    err->line = line;
    err->column = column;
}

char *mha_error_format(const struct mha_error *err, char *buf, unsigned long n)
{
    if (!buf || n == 0)
        return buf;
    buf[0] = '\0';
    if (!err)
        return buf;
    size_t used = 0;
    if (err->file[0]) {
        if (err->line > 0 && err->column > 0)
            used = (size_t)snprintf(buf, n, "%s:%d:%d: ", err->file, err->line, err->column);
        else if (err->line > 0)
            used = (size_t)snprintf(buf, n, "%s:%d: ", err->file, err->line);
        else
            used = (size_t)snprintf(buf, n, "%s: ", err->file);
    }
    if (used < n)
        snprintf(buf + used, n - used, "%s", err->text[0] ? err->text : "unknown error");
    return buf;
}
