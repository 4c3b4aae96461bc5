/* safe_write.c - every file written whole before it takes its name: a
 * temporary with no name (or a new one of this process's) in the target's
 * folder, opened a part of the path at a time (safe_path.c), linked or
 * renamed into place.  Nothing is removed that this process did not make. */
#define _GNU_SOURCE /* O_TMPFILE, AT_EMPTY_PATH */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/safe_file.h"
#include "io/safe_path.h"

int safe_file_resolve(const char *path, char *out, size_t n)
{
    char cur[PATH_MAX], link[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (int hops = 0; hops < 40; hops++) {
        struct stat sb;
        if (lstat(cur, &sb) != 0 || !S_ISLNK(sb.st_mode)) {
            if (snprintf(out, n, "%s", cur) < (int)n)
                return 0;
            errno = ENAMETOOLONG;
            return -1;
        }
        const ssize_t len = readlink(cur, link, sizeof link - 1);
        if (len < 0)
            return -1;
        link[len] = '\0';
        if (link[0] == '/') {
            memcpy(cur, link, (size_t)len + 1);
            continue;
        }
        /* a relative link names a file in the link's own folder */
        char *slash = strrchr(cur, '/');
        const size_t dir = slash ? (size_t)(slash - cur) + 1 : 0;
        if (dir + (size_t)len + 1 > sizeof cur) {
            errno = ENAMETOOLONG;
            return -1;
        }
        memcpy(cur + dir, link, (size_t)len + 1);
    }
    errno = ELOOP;
    return -1;
}

void safe_file_folder(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, n, ".");
    else if (slash == path)
        snprintf(dir, n, "/");
    else
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
}

/* What is left behind, for a failure's message ("" for a file to be named
 * later: its writer says what it did). */
static const char *left(const struct safe_file *sf)
{
    if (!sf->base[0])
        return "";
    return sf->existed ? "; the file is left as it was" : "; nothing was written";
}

static int write_fail(const struct safe_file *sf, struct mha_error *err, const char *what, int e)
{
    mha_error_clear(err);
    mha_error_set(err, "cannot %s: %s%s", what, safe_file_reason(e), left(sf));
    mha_error_at(err, sf->name, 0, 0);
    return -1;
}

/* Walk path to its folder (w) and look at what is there: 0 (existed, and
 * old its lstat, when it is a regular file), or -1 with err and nothing
 * open. */
static int look(const char *path, struct safe_path *w, bool *existed, struct stat *old,
                struct mha_error *err)
{
    *existed = false;
    w->no_folder = false;
    if (!path[0])
        return safe_file_fail(err, path, "an empty file name: give the file to write", 0);
    if (safe_path_walk(path, false, w, err) != 0)
        return -1;
    if (fstatat(w->dir, w->base, old, AT_SYMLINK_NOFOLLOW) != 0) {
        const int e = errno;
        if (e != ENOENT) {
            safe_path_done(w);
            return safe_file_fail(err, path, "write", e);
        }
        /* a link of /proc (/dev/stdout, /dev/fd/1) to a pipe or a socket
         * reads "pipe:[4711]", no file's name, but the kernel follows it */
        struct stat via;
        const char *why = stat(path, &via) == 0 ? safe_file_not_regular(&via, false) : NULL;
        if (why) {
            safe_path_done(w);
            return safe_file_fail(err, path, why, 0);
        }
        return 0;
    }
    const char *why = safe_file_not_regular(old, false);
    if (why) {
        safe_path_done(w);
        return safe_file_fail(err, path, why, 0);
    }
    *existed = true;
    return 0;
}

/* The temporary must be made in the folder: this user must be able to
 * write in it (faccessat with AT_EACCESS: as root too, a read-only file
 * system says so).  0, or -1 with err. */
static int writable(const struct safe_path *w, const char *path, struct mha_error *err)
{
    if (faccessat(w->dir, ".", W_OK | X_OK, AT_EACCESS) == 0)
        return 0;
    const int e = errno;
    mha_error_clear(err);
    mha_error_set(err, "cannot write in %s: %s", w->folder, safe_file_reason(e));
    mha_error_at(err, path, 0, 0);
    return -1;
}

int safe_file_check_target(const char *path, struct mha_error *err)
{
    struct safe_path w;
    bool existed;
    struct stat old;
    if (look(path, &w, &existed, &old, err))
        return -1;
    const int rc = writable(&w, path, err);
    safe_path_done(&w);
    return rc;
}

/* 0666 less the umask: the mode open(O_CREAT, 0666) would give. */
static mode_t new_file_mode(void)
{
    const mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* Six letters and digits no one can guess, into x[0..5]. */
static void random_letters(char *x)
{
    static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    unsigned char r[6];
    if (getrandom(r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        unsigned long v = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16);
        for (size_t i = 0; i < sizeof r; i++, v = v * 6364136223846793005UL + 1442695040888963407UL)
            r[i] = (unsigned char)(v >> 33);
    }
    for (size_t i = 0; i < sizeof r; i++)
        x[i] = set[r[i] % (sizeof set - 1)];
}

/* A new name in sf->dir, made by linkat from make (0) or openat with
 * O_EXCL (make < 0: a new empty file, its descriptor into *fd), as
 * pattern says ("%s" for the six letters).  0 with the name into out, or -1
 * with errno. */
static int new_name(struct safe_file *sf, const char *pattern, int make, char *out, size_t n,
                    int *fd)
{
    for (int tries = 0; tries < 100; tries++) {
        char x[7];
        random_letters(x);
        x[6] = '\0';
        if (snprintf(out, n, pattern, x) >= (int)n) {
            errno = ENAMETOOLONG;
            return -1;
        }
        int rc;
        if (make < 0) {
            *fd = openat(sf->dir, out, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
            rc = *fd >= 0 ? 0 : -1;
        } else if (sf->unnamed) {
            char self[64];
            snprintf(self, sizeof self, "/proc/self/fd/%d", make);
            rc = linkat(AT_FDCWD, self, sf->dir, out, AT_SYMLINK_FOLLOW);
            if (rc != 0 && errno == ENOENT) /* no /proc: the descriptor itself */
                rc = linkat(make, "", sf->dir, out, AT_EMPTY_PATH);
        } else {
            rc = linkat(sf->dir, sf->tmp, sf->dir, out, 0);
        }
        if (rc == 0)
            return 0;
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

/* Remove name from the folder when it is still the temporary (the same
 * file as sf->keep): a name this process made, never one another put
 * there since. */
static void remove_own(const struct safe_file *sf, const char *name)
{
    struct stat ours, there;
    if (sf->keep >= 0 && fstat(sf->keep, &ours) == 0 &&
        fstatat(sf->dir, name, &there, AT_SYMLINK_NOFOLLOW) == 0 && ours.st_dev == there.st_dev &&
        ours.st_ino == there.st_ino)
        unlinkat(sf->dir, name, 0);
}

/* The temporary in sf->dir, given sf->mode, with a second descriptor
 * (sf->keep) that holds it until it is placed or dropped. */
static int make_tmp(struct safe_file *sf, const char *folder, struct mha_error *err)
{
    sf->fd = -1;
#ifdef O_TMPFILE
    sf->fd = openat(sf->dir, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
    sf->unnamed = sf->fd >= 0;
    /* a file system without files of no name says so in one of these */
    const bool unsupported =
        sf->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL);
#else
    const bool unsupported = true;
#endif
    if (sf->fd < 0 && unsupported) {
        char pattern[NAME_MAX + 1];
        if (snprintf(pattern, sizeof pattern, ".%s.mha-explorer-%%s", sf->base) >=
            (int)sizeof pattern - 4)
            snprintf(pattern, sizeof pattern, ".mha-explorer-%%s");
        if (new_name(sf, pattern, -1, sf->tmp, sizeof sf->tmp, &sf->fd) != 0)
            sf->tmp[0] = '\0';
    }
    if (sf->fd < 0) {
        const int e = errno;
        mha_error_clear(err);
        mha_error_set(err, "cannot write in %s: %s%s", folder, safe_file_reason(e), left(sf));
        mha_error_at(err, sf->name, 0, 0);
        safe_file_discard(sf);
        return -1;
    }
    sf->keep = fcntl(sf->fd, F_DUPFD_CLOEXEC, 0);
    if (sf->keep < 0 || fchmod(sf->fd, sf->mode) != 0) {
        const int e = errno;
        if (sf->keep < 0 && sf->tmp[0]) /* no second descriptor to check the name by */
            unlinkat(sf->dir, sf->tmp, 0);
        if (sf->keep < 0)
            sf->tmp[0] = '\0';
        safe_file_discard(sf);
        return write_fail(sf, err, "write", e);
    }
    return 0;
}

static void init(struct safe_file *sf, const char *name)
{
    memset(sf, 0, sizeof *sf);
    sf->fd = -1;
    sf->keep = -1;
    sf->dir = -1;
    sf->name = name;
}

int safe_file_create(struct safe_file *sf, const char *path, struct mha_error *err)
{
    init(sf, path);
    sf->mode = new_file_mode();
    struct stat old;
    struct safe_path w;
    if (look(path, &w, &sf->existed, &old, err)) {
        if (w.no_folder) { /* as when the temporary cannot be made */
            char text[MHA_ERROR_TEXT_MAX];
            snprintf(text, sizeof text, "%s", err->text);
            mha_error_set(err, "%s; nothing was written", text);
        }
        return -1;
    }
    if (sf->existed) {
        sf->mode = old.st_mode & 0777;
        sf->uid = old.st_uid;
        sf->gid = old.st_gid;
    }
    sf->dir = w.dir;
    snprintf(sf->target, sizeof sf->target, "%s", w.target);
    snprintf(sf->base, sizeof sf->base, "%s", w.base);
    return make_tmp(sf, w.folder, err);
}

int safe_file_create_in(struct safe_file *sf, const char *folder, struct mha_error *err)
{
    init(sf, folder);
    sf->mode = new_file_mode();
    struct safe_path w;
    if (safe_path_walk(folder, true, &w, err) != 0)
        return -1;
    sf->dir = w.dir;
    return make_tmp(sf, w.folder, err);
}

FILE *safe_file_stream(struct safe_file *sf, struct mha_error *err)
{
    if (!sf->f && sf->fd >= 0 && !(sf->f = fdopen(sf->fd, "w")))
        write_fail(sf, err, "write", errno);
    return sf->f;
}

/* The old file's owner where this user may give it (root; or a group of
 * one's own), once the temporary is whole: until then it stays the
 * saver's, so no one else may write into it. */
static void give_owner(const struct safe_file *sf)
{
    if (sf->existed && sf->base[0] && fchown(sf->fd, sf->uid, sf->gid) != 0)
        (void)!fchown(sf->fd, (uid_t)-1, sf->gid);
}

int safe_file_finish(struct safe_file *sf, struct mha_error *err)
{
    int e = 0;
    if (sf->f) {
        if (fflush(sf->f) != 0 || ferror(sf->f))
            e = errno ? errno : EIO;
        if (fsync(sf->fd) != 0 && !e)
            e = errno;
        give_owner(sf);
        if (fclose(sf->f) != 0 && !e)
            e = errno;
    } else if (sf->fd >= 0) {
        if (fsync(sf->fd) != 0)
            e = errno;
        give_owner(sf);
        if (close(sf->fd) != 0 && !e)
            e = errno;
    }
    sf->f = NULL;
    sf->fd = -1;
    return e ? write_fail(sf, err, "write", e) : 0;
}

/* fsync the folder, so the new name survives a power cut (where the file
 * system allows a folder to be synced). */
static void sync_folder(const struct safe_file *sf)
{
    const int fd = openat(sf->dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

/* Link the temporary at base, never over a name (EEXIST when taken). */
static int link_at(struct safe_file *sf, const char *base)
{
    if (!sf->unnamed)
        return linkat(sf->dir, sf->tmp, sf->dir, base, 0);
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", sf->keep);
    int rc = linkat(AT_FDCWD, self, sf->dir, base, AT_SYMLINK_FOLLOW);
    if (rc != 0 && errno == ENOENT) { /* no /proc, or base's folder gone */
        const int e = errno;
        rc = linkat(sf->keep, "", sf->dir, base, AT_EMPTY_PATH);
        if (rc != 0 && errno != EEXIST)
            errno = e;
    }
    return rc;
}

/* Rename the temporary over base: a named one directly; one with no name
 * through a new name of this process's, removed again when the rename
 * fails. */
static int rename_over(struct safe_file *sf, const char *base)
{
    if (!sf->unnamed)
        return renameat(sf->dir, sf->tmp, sf->dir, base);
    char step[NAME_MAX + 1];
    if (new_name(sf, ".mha-explorer-%s", sf->keep, step, sizeof step, NULL) != 0)
        return -1;
    if (renameat(sf->dir, step, sf->dir, base) == 0)
        return 0;
    const int e = errno;
    remove_own(sf, step);
    errno = e;
    return -1;
}

/* The temporary has its name: let go of it and of the folder (unless
 * held for safe_file_unplace). */
static void placed(struct safe_file *sf)
{
    sync_folder(sf);
    sf->tmp[0] = '\0';
    sf->unnamed = false;
    if (sf->hold)
        return;
    if (sf->keep >= 0)
        close(sf->keep);
    sf->keep = -1;
    if (sf->dir >= 0)
        close(sf->dir);
    sf->dir = -1;
}

int safe_file_place(struct safe_file *sf, const char *name, bool replace, struct mha_error *err)
{
    const char *slash = name ? strrchr(name, '/') : NULL;
    const char *base = name ? (slash ? slash + 1 : name) : sf->base;
    int rc = -1;
    if (sf->dir < 0 || sf->keep < 0 || !base[0]) {
        errno = !base[0] ? EISDIR : EBADF;
    } else if (replace) {
        rc = rename_over(sf, base);
    } else {
        rc = link_at(sf, base);
        const int e = errno;
        struct stat sb;
        if (rc != 0 && (e == EEXIST || fstatat(sf->dir, base, &sb, AT_SYMLINK_NOFOLLOW) == 0))
            return 1;
        errno = e;
        /* a file system without hard links: rename, after looking */
        if (rc != 0 && !sf->unnamed && (e == EPERM || e == EOPNOTSUPP))
            rc = renameat(sf->dir, sf->tmp, sf->dir, base);
        else if (rc == 0 && !sf->unnamed)
            remove_own(sf, sf->tmp);
    }
    if (rc != 0) {
        const int e = errno;
        mha_error_clear(err);
        mha_error_set(err, "cannot put the file in place: %s%s", strerror(e), left(sf));
        mha_error_at(err, name ? name : sf->name, 0, 0);
        return -1;
    }
    placed(sf);
    return 0;
}

int safe_file_commit(struct safe_file *sf, struct mha_error *err)
{
    if (safe_file_finish(sf, err) != 0 || safe_file_place(sf, NULL, true, err) != 0) {
        safe_file_discard(sf);
        return -1;
    }
    return 0;
}

int safe_file_keep(struct safe_file *sf, char *where, size_t n)
{
    char pattern[NAME_MAX + 1], name[NAME_MAX + 1];
    if (sf->dir < 0 || sf->keep < 0 ||
        snprintf(pattern, sizeof pattern, "%s.kept-%%s", sf->base) >= (int)sizeof pattern - 4 ||
        new_name(sf, pattern, sf->keep, name, sizeof name, NULL) != 0)
        return -1;
    if (!sf->unnamed)
        remove_own(sf, sf->tmp);
    char folder[PATH_MAX];
    safe_file_folder(sf->target, folder, sizeof folder);
    if (strchr(sf->target, '/'))
        snprintf(where, n, "%s/%s", folder, name);
    else
        snprintf(where, n, "%s", name);
    placed(sf);
    return 0;
}

void safe_file_discard(struct safe_file *sf)
{
    if (sf->f)
        fclose(sf->f);
    else if (sf->fd >= 0)
        close(sf->fd);
    sf->f = NULL;
    sf->fd = -1;
    if (sf->tmp[0] && sf->dir >= 0)
        remove_own(sf, sf->tmp);
    sf->tmp[0] = '\0';
    if (sf->keep >= 0)
        close(sf->keep); /* a temporary with no name is gone with it */
    sf->keep = -1;
    if (sf->dir >= 0)
        close(sf->dir);
    sf->dir = -1;
}

void safe_file_unplace(struct safe_file *sf)
{
    if (sf->hold && sf->dir >= 0 && sf->keep >= 0 && !sf->tmp[0] && sf->fd < 0) {
        remove_own(sf, sf->base);
        sync_folder(sf);
    }
    safe_file_discard(sf);
}

void safe_file_hold_signals(struct safe_file_signals *held)
{
    sigemptyset(&held->set);
    const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT, SIGPIPE,
                        SIGALRM, SIGUSR1, SIGUSR2, SIGXFSZ};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        sigaddset(&held->set, sigs[i]);
    sigprocmask(SIG_BLOCK, &held->set, &held->before);
    sigset_t pending;
    held->xfsz_before = sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
}

void safe_file_release_signals(const struct safe_file_signals *held)
{
    /* a write past the file-size limit failed with EFBIG, which the
     * message says: its SIGXFSZ is not also a crash */
    sigset_t pending, xfsz;
    if (!held->xfsz_before && sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1 &&
        !sigismember(&held->before, SIGXFSZ)) {
        sigemptyset(&xfsz);
        sigaddset(&xfsz, SIGXFSZ);
        const struct timespec now = {0, 0};
        sigtimedwait(&xfsz, NULL, &now);
    }
    sigprocmask(SIG_SETMASK, &held->before, NULL);
}

int safe_file_write(const char *path, const void *data, size_t len, struct mha_error *err)
{
    struct safe_file_signals held;
    safe_file_hold_signals(&held);
    struct safe_file sf;
    int rc = safe_file_create(&sf, path, err);
    const char *p = data;
    while (rc == 0 && len > 0) {
        const ssize_t got = write(sf.fd, p, len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            const int e = got < 0 ? errno : EIO;
            safe_file_discard(&sf);
            rc = write_fail(&sf, err, "write", e);
            break;
        }
        p += got;
        len -= (size_t)got;
    }
    if (rc == 0)
        rc = safe_file_commit(&sf, err);
    safe_file_release_signals(&held);
    return rc;
}
