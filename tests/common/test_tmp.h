/* test_tmp.h - a test's own temporary folder, made under $TMPDIR (or /tmp)
 * and removed whole at the end, so a test leaves nothing behind. */
#ifndef TEST_TMP_H
#define TEST_TMP_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

/* "$TMPDIR/<name>-XXXXXX" (a mkdtemp/mkstemp template) into buf; the
 * folder is $TMPDIR when set and not empty, else /tmp.  Returns buf. */
static inline char *test_tmp_template(char *buf, size_t n, const char *name)
{
    const char *dir = getenv("TMPDIR");
    const int len = snprintf(buf, n, "%s/%s-XXXXXX", dir && *dir ? dir : "/tmp", name);
    if (len < 0 || (size_t)len >= n) { /* a cut template would name another folder */
        fprintf(stderr, "test_tmp_template: \"%s/%s-XXXXXX\" does not fit in %zu bytes\n",
                dir && *dir ? dir : "/tmp", name, n);
        abort();
    }
    return buf;
}

/* A new folder "$TMPDIR/<name>-XXXXXX" into buf; NULL when it cannot be
 * made. */
static inline char *test_tmp_dir(char *buf, size_t n, const char *name)
{
    return mkdtemp(test_tmp_template(buf, n, name));
}

/* "dir/name" into buf; returns buf. */
static inline const char *test_tmp_path(const char *dir, const char *name, char *buf, size_t n)
{
    snprintf(buf, n, "%s/%s", dir, name);
    return buf;
}

/* A file at path holding text, with mode; 0, or -1 when it cannot be made. */
static inline int test_tmp_put(const char *path, const char *text, mode_t mode)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fputs(text, f);
    return fclose(f) == 0 && chmod(path, mode) == 0 ? 0 : -1;
}

/* The whole file at path as a new string (free it); NULL when it cannot
 * be read. */
static inline char *test_tmp_read(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *text = malloc(cap);
    for (size_t got; text && (got = fread(text + n, 1, cap - 1 - n, f)) > 0;) {
        n += got;
        if (n + 1 == cap) {
            char *more = realloc(text, cap * 2);
            if (!more) {
                free(text);
                text = NULL;
                break;
            }
            text = more;
            cap *= 2;
        }
    }
    const bool failed = ferror(f);
    fclose(f);
    if (!text || failed) {
        free(text);
        return NULL;
    }
    text[n] = '\0';
    return text;
}

/* Remove the folder and all it holds; 0 on success. */
static inline int test_tmp_remove(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

#endif
