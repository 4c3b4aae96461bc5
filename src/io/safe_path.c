/* safe_path.c - the folder a file is written in, opened a part of its path
 * at a time: each part is opened with O_NOFOLLOW, and each symbolic link
 * met on the way (a folder's or the file's own) is judged before it is
 * followed by the rule of the kernel's protected_symlinks: in a sticky
 * folder anyone may write to, a link is followed only when it belongs to
 * the user or to the folder's owner. */
#define _GNU_SOURCE /* O_PATH */
#include "io/safe_path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef O_PATH
#define DIR_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#else
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#endif

/* The most links followed in one path, as the kernel allows (ELOOP). */
enum { MAX_HOPS = 40 };

void safe_path_done(struct safe_path *w)
{
    if (w->dir >= 0)
        close(w->dir);
    w->dir = -1;
}

/* "a" + "/" + "b" into out (no slash after "" or "/"); -1 when too long. */
static int join(char *out, size_t n, const char *a, const char *b, size_t blen)
{
    const char *sep = !a[0] || a[strlen(a) - 1] == '/' ? "" : "/";
    return snprintf(out, n, "%s%s%.*s", a, sep, (int)blen, b) < (int)n ? 0 : -1;
}

static int error_at(struct mha_error *err, const char *file, const char *fmt, const char *a,
                    const char *b)
{
    mha_error_clear(err);
    mha_error_set(err, fmt, a, b);
    mha_error_at(err, file, 0, 0);
    return -1;
}

/* The folder the walk failed in, for a message: done, the part that could
 * not be opened and what follows of the path, less its last part (all of
 * it for a folder). */
static void failed_folder(const char *done, const char *rest, bool folder_only, char *out, size_t n)
{
    char whole[PATH_MAX];
    if (join(whole, sizeof whole, done, rest, strlen(rest)) != 0)
        snprintf(whole, sizeof whole, "%s", done);
    size_t len = strlen(whole);
    while (len > 1 && whole[len - 1] == '/')
        whole[--len] = '\0';
    if (folder_only) {
        snprintf(out, n, "%s", whole[0] ? whole : ".");
        return;
    }
    const char *slash = strrchr(whole, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == whole)
        snprintf(out, n, "/");
    else
        snprintf(out, n, "%.*s", (int)(slash - whole), whole);
}

/* The link at name in dir (sb: its lstat) that the protected_symlinks rule
 * would not follow: -1 with err naming it (shown) and its owner. */
static int judge_link(int dir, const struct stat *sb, const char *shown, struct mha_error *err)
{
    struct stat ds;
    if (fstat(dir, &ds) != 0 || !(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH))
        return 0;
    if (sb->st_uid == geteuid() || sb->st_uid == ds.st_uid)
        return 0;
    const struct passwd *pw = getpwuid(sb->st_uid);
    char who[96];
    if (pw)
        snprintf(who, sizeof who, "%s (uid %ld)", pw->pw_name, (long)sb->st_uid);
    else
        snprintf(who, sizeof who, "uid %ld", (long)sb->st_uid);
    return error_at(err, shown,
                    "is a symbolic link owned by %s in a shared folder (sticky, writable by "
                    "everyone), neither yours nor the folder owner's: it is not followed%s",
                    who, "");
}

int safe_path_walk(const char *path, bool folder_only, struct safe_path *w, struct mha_error *err)
{
    w->dir = -1;
    w->base[0] = '\0';
    w->folder[0] = '\0';
    w->target[0] = '\0';
    w->no_folder = false;
    char rest[2 * PATH_MAX], next_rest[2 * PATH_MAX], done[PATH_MAX], link[PATH_MAX];
    if (snprintf(rest, sizeof rest, "%s", path) >= PATH_MAX)
        return error_at(err, path, "cannot write: %s%s", strerror(ENAMETOOLONG), "");
    snprintf(done, sizeof done, "%s", rest[0] == '/' ? "/" : "");
    w->dir = open(rest[0] == '/' ? "/" : ".", DIR_FLAGS & ~O_NOFOLLOW);
    if (w->dir < 0)
        return error_at(err, path, "cannot write in %s: %s", done[0] ? done : ".", strerror(errno));
    const char *p = rest;
    for (int hops = 0;;) {
        while (*p == '/')
            p++;
        if (!*p) { /* the path names a folder */
            if (folder_only)
                break;
            safe_path_done(w);
            return error_at(err, path, "is a directory, not a file%s%s", "", "");
        }
        const size_t len = strcspn(p, "/");
        const char *after = p + len;
        const char *q = after;
        while (*q == '/')
            q++;
        char part[NAME_MAX + 1];
        if (len > NAME_MAX) {
            safe_path_done(w);
            return error_at(err, path, "cannot write: %s%s", strerror(ENAMETOOLONG), "");
        }
        memcpy(part, p, len);
        part[len] = '\0';
        const bool dots = !strcmp(part, ".") || !strcmp(part, "..");
        char shown[PATH_MAX];
        if (join(shown, sizeof shown, done, part, len) != 0) {
            safe_path_done(w);
            return error_at(err, path, "cannot write: %s%s", strerror(ENAMETOOLONG), "");
        }
        struct stat sb;
        const bool is_link =
            !dots && fstatat(w->dir, part, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode);
        if (is_link) {
            if (++hops > MAX_HOPS) {
                safe_path_done(w);
                return error_at(err, path, "cannot write: %s%s", strerror(ELOOP), "");
            }
            if (judge_link(w->dir, &sb, shown, err) != 0) {
                safe_path_done(w);
                return -1;
            }
            const ssize_t got = readlinkat(w->dir, part, link, sizeof link - 1);
            if (got < 0) {
                const int e = errno;
                safe_path_done(w);
                return error_at(err, path, "cannot write: %s%s", strerror(e), "");
            }
            link[got] = '\0';
            /* the link's text takes its place in the path */
            if (snprintf(next_rest, sizeof next_rest, "%s%s", link, after) >= PATH_MAX) {
                safe_path_done(w);
                return error_at(err, path, "cannot write: %s%s", strerror(ENAMETOOLONG), "");
            }
            memcpy(rest, next_rest, strlen(next_rest) + 1);
            p = rest;
            if (link[0] == '/') {
                close(w->dir);
                w->dir = open("/", DIR_FLAGS & ~O_NOFOLLOW);
                snprintf(done, sizeof done, "/");
                if (w->dir < 0)
                    return error_at(err, path, "cannot write in /: %s%s", strerror(errno), "");
            }
            continue;
        }
        if (!*q && !folder_only && !dots) { /* the file's own name */
            snprintf(w->base, sizeof w->base, "%s", part);
            snprintf(w->folder, sizeof w->folder, "%s", done[0] ? done : ".");
            snprintf(w->target, sizeof w->target, "%s", shown);
            return 0;
        }
        const int fd = openat(w->dir, part, DIR_FLAGS);
        if (fd < 0) {
            const int e = errno;
            if ((e == ELOOP || e == ENOTDIR) && ++hops <= MAX_HOPS &&
                fstatat(w->dir, part, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
                continue; /* made a link since it was looked at: judged again */
            char folder[PATH_MAX];
            failed_folder(done, p, folder_only, folder, sizeof folder);
            safe_path_done(w);
            w->no_folder = true;
            if (e == ENOTDIR)
                return error_at(err, path, "%s is not a folder%s", folder, "");
            return error_at(err, path, "cannot write in %s: %s", folder,
                            e == ENOENT ? "no such folder" : strerror(e));
        }
        close(w->dir);
        w->dir = fd;
        snprintf(done, sizeof done, "%s", shown);
        p = after;
    }
    snprintf(w->folder, sizeof w->folder, "%s", done[0] ? done : ".");
    snprintf(w->target, sizeof w->target, "%s", w->folder);
    return 0;
}
