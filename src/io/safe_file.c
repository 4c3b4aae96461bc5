/* safe_file.c - open without blocking, refuse what is not a regular file,
 * read no more than a cap (the writing is in safe_write.c). */
#include "io/safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *safe_file_reason(int code)
{
    if (code == ENOSPC)
        return "no space left on device";
#ifdef EDQUOT
    if (code == EDQUOT)
        return "no space left on device (the disk quota is used up)";
#endif
    return strerror(code);
}

int safe_file_fail(struct mha_error *err, const char *path, const char *what, int code)
{
    mha_error_clear(err);
    if (code)
        mha_error_set(err, "cannot %s: %s", what, safe_file_reason(code));
    else
        mha_error_set(err, "%s", what);
    mha_error_at(err, path, 0, 0);
    return -1;
}

const char *safe_file_not_regular(const struct stat *st, bool reading)
{
    if (S_ISREG(st->st_mode))
        return NULL;
    if (S_ISDIR(st->st_mode))
        return "is a directory, not a file";
    if (S_ISFIFO(st->st_mode))
        return reading ? "is a FIFO (named pipe), not a regular file; save it to a file first"
                       : "is a FIFO (named pipe), not a regular file";
    if (S_ISCHR(st->st_mode))
        return "is a character device, not a regular file";
    if (S_ISBLK(st->st_mode))
        return "is a block device, not a regular file";
    if (S_ISSOCK(st->st_mode))
        return "is a socket, not a regular file";
    return "is not a regular file";
}

int safe_file_open(const char *path, struct mha_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return safe_file_fail(err, path, "open", errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return safe_file_fail(err, path, "read", e);
    }
    const char *why = safe_file_not_regular(&st, true);
    if (why) {
        close(fd);
        return safe_file_fail(err, path, why, 0);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return safe_file_fail(err, path, "read", e);
    }
    return fd;
}

FILE *safe_file_fopen(const char *path, struct mha_error *err)
{
    int fd = safe_file_open(path, err);
    if (fd < 0)
        return NULL;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        int e = errno;
        close(fd);
        safe_file_fail(err, path, "read", e);
    }
    return f;
}

static int too_large(struct mha_error *err, const char *path, size_t max, const char *what)
{
    mha_error_clear(err);
    mha_error_set(err, "the file is larger than %zu bytes; is it a%s %s?", max,
                  strchr("aeiou", what[0]) ? "n" : "", what);
    mha_error_at(err, path, 0, 0);
    return -1;
}

int safe_file_read(const char *path, size_t max, const char *what, char **out, size_t *len,
                   struct mha_error *err)
{
    *out = NULL;
    *len = 0;
    int fd = safe_file_open(path, err);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && (unsigned long long)st.st_size > max) {
        close(fd);
        return too_large(err, path, max, what);
    }
    /* The size can change while reading (a file still being written):
     * read at most max + 1 bytes whatever fstat said. */
    size_t cap = st.st_size > 0 ? (size_t)st.st_size + 1 : 4096, n = 0;
    if (cap > max + 1)
        cap = max + 1;
    char *buf = malloc(cap + 1);
    if (!buf) {
        close(fd);
        return safe_file_fail(err, path, "out of memory", 0);
    }
    for (;;) {
        if (n == cap) {
            if (cap > max)
                break;
            size_t grow = cap * 2 > max + 1 ? max + 1 : cap * 2;
            char *g = realloc(buf, grow + 1);
            if (!g) {
                free(buf);
                close(fd);
                return safe_file_fail(err, path, "out of memory", 0);
            }
            buf = g;
            cap = grow;
        }
        ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            int e = errno;
            free(buf);
            close(fd);
            return safe_file_fail(err, path, "read", e);
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (n > max) {
        free(buf);
        return too_large(err, path, max, what);
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}
