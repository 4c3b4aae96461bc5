/* record_start.c - what a recording was started with (its terminal size and
 * options): written after the first line, read back before the keys. */
#include "io/record.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int rec_start_add(struct rec_start *start, const char *arg)
{
    if (start->n_args == REC_MAX_START_ARGS)
        return -1;
    char *copy = strdup(arg);
    if (!copy)
        return -1;
    start->args[start->n_args++] = copy;
    return 0;
}

void rec_start_free(struct rec_start *start)
{
    for (int i = 0; i < start->n_args; i++)
        free(start->args[i]);
    memset(start, 0, sizeof *start);
}

/* arg with backslash and control characters escaped, into out. */
static void escape(const char *arg, char *out, size_t n)
{
    size_t o = 0;
    for (const unsigned char *p = (const unsigned char *)arg; *p && o + 5 < n; p++) {
        if (*p == '\\')
            o += (size_t)snprintf(out + o, n - o, "\\\\");
        else if (*p == '\n')
            o += (size_t)snprintf(out + o, n - o, "\\n");
        else if (*p < 0x20 || *p == 0x7f)
            o += (size_t)snprintf(out + o, n - o, "\\x%02X", *p);
        else
            out[o++] = (char)*p;
    }
    out[o] = '\0';
}

static int hex(char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* The escapes undone, into out; false for a malformed escape. */
static bool unescape(const char *s, char *out, size_t n)
{
    size_t o = 0;
    for (; *s; s++) {
        if (o + 1 >= n)
            return false;
        if (*s != '\\') {
            out[o++] = *s;
            continue;
        }
        s++;
        if (*s == '\\') {
            out[o++] = '\\';
        } else if (*s == 'n') {
            out[o++] = '\n';
        } else if (*s == 'x' && hex(s[1]) >= 0 && hex(s[2]) >= 0 &&
                   hex(s[1]) * 16 + hex(s[2]) > 0) {
            out[o++] = (char)(hex(s[1]) * 16 + hex(s[2]));
            s += 2;
        } else {
            return false;
        }
    }
    out[o] = '\0';
    return true;
}

int rec_write_start(FILE *out, const struct rec_start *start)
{
    if (fprintf(out, "mha-explorer-recording 2\n") < 0)
        return -1;
    if (start && start->rows > 0 && start->cols > 0 &&
        fprintf(out,
                "# the terminal's size, then the options that reopen the start\n"
                "size %dx%d\n",
                start->cols, start->rows) < 0)
        return -1;
    char buf[4 * REC_MAX_ARG + 8];
    for (int i = 0; start && i < start->n_args; i++) {
        escape(start->args[i], buf, sizeof buf);
        if (fprintf(out, "arg %s\n", buf) < 0)
            return -1;
    }
    return fprintf(out, "# seconds key\n") < 0 || fflush(out) ? -1 : 0;
}

int rec_start_line(struct rec_start *start, const char *line, struct mha_error *err)
{
    if (strncmp(line, "size ", 5) == 0) {
        int cols, rows, used = 0;
        if (sscanf(line + 5, "%dx%d%n", &cols, &rows, &used) != 2 || line[5 + used] != '\0' ||
            cols < 1 || rows < 1 || cols > 10000 || rows > 10000) {
            mha_error_set(err, "expected \"size COLUMNSxROWS\", e.g. \"size 120x40\", got \"%s\"",
                          line);
            return -1;
        }
        start->cols = cols;
        start->rows = rows;
        return 1;
    }
    if (strncmp(line, "arg ", 4) != 0)
        return 0;
    char arg[REC_MAX_ARG];
    if (!unescape(line + 4, arg, sizeof arg)) {
        mha_error_set(err, "a malformed argument (\\\\, \\n and \\xHH are the escapes): \"%s\"",
                      line + 4);
        return -1;
    }
    if (rec_start_add(start, arg) != 0) {
        mha_error_set(err, "more than %d arguments", REC_MAX_START_ARGS);
        return -1;
    }
    return 1;
}
