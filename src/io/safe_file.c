/* safe_file.c - open without blocking, refuse what is not a regular file,
 * read no more than a cap; write through a temporary file renamed into
 * place. */
#include "io/safe_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
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

static int fail(struct mha_error *err, const char *path, const char *what, int code)
{
    mha_error_clear(err);
    if (code)
        mha_error_set(err, "cannot %s: %s", what, safe_file_reason(code));
    else
        mha_error_set(err, "%s", what);
    mha_error_at(err, path, 0, 0);
    return -1;
}

/* What st is, for a message; NULL for a regular file.  reading adds what
 * to do with a FIFO someone meant to share. */
static const char *not_regular(const struct stat *st, bool reading)
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
        return fail(err, path, "open", errno);
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return fail(err, path, "read", e);
    }
    const char *why = not_regular(&st, true);
    if (why) {
        close(fd);
        return fail(err, path, why, 0);
    }
    int flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        int e = errno;
        close(fd);
        return fail(err, path, "read", e);
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
        fail(err, path, "read", e);
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
        return fail(err, path, "out of memory", 0);
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
                return fail(err, path, "out of memory", 0);
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
            return fail(err, path, "read", e);
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

/* ---- writing ------------------------------------------------------------------------- */

/* A link at cur (sb: its lstat) that the kernel's protected_symlinks rule
 * would not follow: in a sticky folder anyone may write to, a link that
 * belongs neither to the user nor to the folder's owner.  Its owner into
 * *owner. */
static bool planted(const char *cur, const struct stat *sb, uid_t *owner)
{
    char dir[PATH_MAX];
    safe_file_folder(cur, dir, sizeof dir);
    struct stat ds;
    if (stat(dir, &ds) != 0 || !(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH))
        return false;
    *owner = sb->st_uid;
    return sb->st_uid != geteuid() && sb->st_uid != ds.st_uid;
}

/* safe_file_resolve, and (err not NULL) the links it may follow: -1 with
 * errno, or with errno 0 and err saying which link was refused. */
static int resolve(const char *path, char *out, size_t n, struct mha_error *err)
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
        uid_t owner;
        if (err && planted(cur, &sb, &owner)) {
            const struct passwd *pw = getpwuid(owner);
            char who[96];
            if (pw)
                snprintf(who, sizeof who, "%s (uid %ld)", pw->pw_name, (long)owner);
            else
                snprintf(who, sizeof who, "uid %ld", (long)owner);
            mha_error_clear(err);
            mha_error_set(err,
                          "is a symbolic link owned by %s in a shared folder (sticky, writable "
                          "by everyone), neither yours nor the folder owner's: it is not "
                          "followed",
                          who);
            mha_error_at(err, cur, 0, 0);
            errno = 0;
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

int safe_file_resolve(const char *path, char *out, size_t n)
{
    return resolve(path, out, n, NULL);
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
    if (!sf->target[0])
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

/* Resolve path into target and look at what is there: 0 (existed, mode
 * and owner set when it is a regular file), or -1 with err. */
static int look(const char *path, char *target, size_t n, bool *existed, struct stat *old,
                struct mha_error *err)
{
    *existed = false;
    if (!path[0])
        return fail(err, path, "an empty file name: give the file to write", 0);
    if (resolve(path, target, n, err) != 0)
        return errno ? fail(err, path, "write", errno) : -1;
    if (lstat(target, old) != 0) {
        if (errno == ENOTDIR) {
            char folder[PATH_MAX];
            safe_file_folder(target, folder, sizeof folder);
            mha_error_clear(err);
            mha_error_set(err, "%s is not a folder", folder);
            mha_error_at(err, path, 0, 0);
            return -1;
        }
        if (errno != ENOENT)
            return fail(err, path, "write", errno);
        /* a link of /proc (/dev/stdout, /dev/fd/1) to a pipe or a socket
         * reads "pipe:[4711]", no file's name, but the kernel follows it */
        struct stat via;
        const char *why = stat(path, &via) == 0 ? not_regular(&via, false) : NULL;
        return why ? fail(err, path, why, 0) : 0;
    }
    const char *why = not_regular(old, false);
    if (why)
        return fail(err, path, why, 0);
    *existed = true;
    return 0;
}

int safe_file_check_target(const char *path, struct mha_error *err)
{
    char target[PATH_MAX], folder[PATH_MAX];
    bool existed;
    struct stat old;
    if (look(path, target, sizeof target, &existed, &old, err))
        return -1;
    /* the temporary is made in the target's folder: it must be one, and
     * writable by this user (faccessat with AT_EACCESS: as root too, a
     * read-only file system says so) */
    safe_file_folder(target, folder, sizeof folder);
    struct stat ds;
    if (stat(folder, &ds) != 0) {
        const int e = errno;
        mha_error_clear(err);
        mha_error_set(err, "cannot write in %s: %s", folder,
                      e == ENOENT ? "no such folder" : safe_file_reason(e));
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    if (!S_ISDIR(ds.st_mode)) {
        mha_error_clear(err);
        mha_error_set(err, "%s is not a folder", folder);
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    if (faccessat(AT_FDCWD, folder, W_OK | X_OK, AT_EACCESS) != 0) {
        const int e = errno;
        mha_error_clear(err);
        mha_error_set(err, "cannot write in %s: %s", folder, safe_file_reason(e));
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    return 0;
}

/* 0666 less the umask: the mode open(O_CREAT, 0666) would give. */
static mode_t new_file_mode(void)
{
    const mode_t mask = umask(0);
    umask(mask);
    return 0666 & ~mask;
}

/* The temporary at tmp (a mkstemp template), given sf->mode, locked
 * (flock, held by sf->lock until it is placed or removed, so a later save
 * can tell a temporary in use from one a killed program left). */
static int make_tmp(struct safe_file *sf, const char *folder, struct mha_error *err)
{
    sf->fd = mkstemp(sf->tmp); /* O_CREAT | O_EXCL: a link planted at the name fails */
    if (sf->fd >= 0)
        fcntl(sf->fd, F_SETFD, FD_CLOEXEC);
    if (sf->fd < 0) {
        const int e = errno;
        sf->tmp[0] = '\0';
        mha_error_clear(err);
        mha_error_set(err, "cannot write in %s: %s%s", folder, safe_file_reason(e), left(sf));
        mha_error_at(err, sf->name, 0, 0);
        return -1;
    }
    if (flock(sf->fd, LOCK_EX | LOCK_NB) == 0)
        sf->lock = fcntl(sf->fd, F_DUPFD_CLOEXEC, 0);
    if (fchmod(sf->fd, sf->mode) != 0) {
        const int e = errno;
        safe_file_discard(sf);
        return write_fail(sf, err, "write", e);
    }
    return 0;
}

/* Whether name is "NAME.part-XXXXXX" or ".part-XXXXXX", a temporary this
 * program makes (mkstemp's six letters and digits). */
static bool is_temporary(const char *name)
{
    const size_t len = strlen(name);
    if (len < 12 || strncmp(name + len - 12, ".part-", 6) != 0)
        return false;
    const char *x = name + len - 6;
    for (int i = 0; i < 6; i++)
        if (!((x[i] >= 'a' && x[i] <= 'z') || (x[i] >= 'A' && x[i] <= 'Z') ||
              (x[i] >= '0' && x[i] <= '9')))
            return false;
    return true;
}

/* Remove the temporaries in folder that a program killed while saving
 * left (SIGKILL cannot be caught): this user's regular files named as this
 * program names them that no save holds locked (each save locks its own
 * while it lives). */
static void remove_leftovers(const char *folder)
{
    DIR *d = opendir(folder);
    if (!d)
        return;
    const struct dirent *e;
    while ((e = readdir(d))) {
        if (!is_temporary(e->d_name))
            continue;
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", folder, e->d_name) >= (int)sizeof path)
            continue;
        const int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            continue;
        struct stat sb;
        if (fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() &&
            flock(fd, LOCK_EX | LOCK_NB) == 0)
            unlink(path);
        close(fd);
    }
    closedir(d);
}

static void init(struct safe_file *sf, const char *name)
{
    memset(sf, 0, sizeof *sf);
    sf->fd = -1;
    sf->lock = -1;
    sf->name = name;
}

int safe_file_create(struct safe_file *sf, const char *path, struct mha_error *err)
{
    init(sf, path);
    sf->mode = new_file_mode();
    struct stat old;
    if (look(path, sf->target, sizeof sf->target, &sf->existed, &old, err))
        return -1;
    if (sf->existed) {
        sf->mode = old.st_mode & 0777;
        sf->uid = old.st_uid;
        sf->gid = old.st_gid;
    }
    char folder[PATH_MAX];
    safe_file_folder(sf->target, folder, sizeof folder);
    remove_leftovers(folder);
    const char *base = strrchr(sf->target, '/');
    base = base ? base + 1 : sf->target;
    /* "NAME.part-XXXXXX" beside it, or a short name when NAME is long */
    const int n = strlen(base) + 12 <= NAME_MAX
                      ? snprintf(sf->tmp, sizeof sf->tmp, "%s.part-XXXXXX", sf->target)
                      : snprintf(sf->tmp, sizeof sf->tmp, "%s/.part-XXXXXX", folder);
    if (n >= (int)sizeof sf->tmp) {
        sf->tmp[0] = '\0';
        return write_fail(sf, err, "write", ENAMETOOLONG);
    }
    return make_tmp(sf, folder, err);
}

int safe_file_create_in(struct safe_file *sf, const char *folder, struct mha_error *err)
{
    init(sf, folder);
    sf->mode = new_file_mode();
    remove_leftovers(folder);
    if (snprintf(sf->tmp, sizeof sf->tmp, "%s/.part-XXXXXX", folder) >= (int)sizeof sf->tmp) {
        sf->tmp[0] = '\0';
        return write_fail(sf, err, "write", ENAMETOOLONG);
    }
    return make_tmp(sf, folder, err);
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
    if (sf->existed && sf->target[0] && fchown(sf->fd, sf->uid, sf->gid) != 0)
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

/* fsync the folder of path, so the new name survives a power cut (where the
 * file system allows a folder to be synced). */
static void sync_folder(const char *path)
{
    char folder[PATH_MAX];
    safe_file_folder(path, folder, sizeof folder);
    const int fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

int safe_file_place(struct safe_file *sf, const char *name, bool replace, struct mha_error *err)
{
    const char *dest = name ? name : sf->target;
    int rc;
    if (replace) {
        rc = rename(sf->tmp, dest);
    } else {
        rc = link(sf->tmp, dest);
        if (rc != 0 && errno == EEXIST)
            return 1;
        struct stat sb;
        if (rc != 0 && lstat(dest, &sb) == 0)
            return 1;
        if (rc != 0) /* a file system without hard links: rename, after looking */
            rc = rename(sf->tmp, dest);
        else
            unlink(sf->tmp);
    }
    if (rc != 0) {
        const int e = errno;
        mha_error_clear(err);
        mha_error_set(err, "cannot put the file in place: %s%s", strerror(e), left(sf));
        mha_error_at(err, name ? name : sf->name, 0, 0);
        return -1;
    }
    sf->tmp[0] = '\0';
    if (sf->lock >= 0)
        close(sf->lock);
    sf->lock = -1;
    sync_folder(dest);
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

void safe_file_discard(struct safe_file *sf)
{
    if (sf->f)
        fclose(sf->f);
    else if (sf->fd >= 0)
        close(sf->fd);
    sf->f = NULL;
    sf->fd = -1;
    if (sf->tmp[0])
        unlink(sf->tmp);
    sf->tmp[0] = '\0';
    if (sf->lock >= 0)
        close(sf->lock);
    sf->lock = -1;
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
