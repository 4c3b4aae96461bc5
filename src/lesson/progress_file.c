/* progress_file.c - the progress file on disk: reading it entry by entry,
 * kept copies, the lock, symbolic links, and whole-file writes. */
#include "lesson/progress_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/json_scan.h"
#include "io/safe_file.h"

/* Larger than any real record (a few hundred bytes a lesson). */
#define PROGRESS_MAX_BYTES (4 << 20)
#define PROGRESS_MAX_STEP 100000
#define PROGRESS_MAX_KEPT 10000

/* What 4 MiB of record may hold: a number or an entry for every 2 bytes,
 * a list or object for every 64 (an entry, its seen list and its quiz
 * take more than 64 bytes), nested as the record, its lessons, an entry,
 * its quiz and an answer.  jansson's tree of that costs at most about
 * 110 MB instead of the 190 MB 4 MiB of empty lists took. */
static const struct json_limits progress_limits = {
    .what = "progress record",
    .max_bytes = PROGRESS_MAX_BYTES,
    .max_depth = 5,
    .max_items = PROGRESS_MAX_STEP,
    .max_values = PROGRESS_MAX_BYTES / 2,
    .max_containers = PROGRESS_MAX_BYTES / 64,
};

json_t *progress_file_empty(void)
{
    json_t *root = json_object();
    json_object_set_new(root, "version", json_integer(2));
    json_object_set_new(root, "lessons", json_object());
    return root;
}

/* ---- reading ------------------------------------------------------------------------- */

/* Append "what" to the list of dropped things (", " between). */
static void note(char *dropped, size_t n, const char *lesson, const char *what)
{
    size_t len = strlen(dropped);
    if (len + 1 >= n)
        return;
    snprintf(dropped + len, n - len, "%slessons.\"%s\"%s", len ? ", " : "", lesson, what);
    if (strlen(dropped) + 1 >= n && n > 4)
        memcpy(dropped + n - 4, "...", 4);
}

static bool step_number(const json_t *v)
{
    return json_is_integer(v) && json_integer_value(v) >= 0 &&
           json_integer_value(v) < PROGRESS_MAX_STEP;
}

/* A quiz key is a step number written in decimal ("3"). */
static bool step_key(const char *key)
{
    char *end;
    errno = 0;
    const long v = strtol(key, &end, 10);
    return key[0] >= '0' && key[0] <= '9' && !*end && !errno && v < PROGRESS_MAX_STEP;
}

/* A quiz answer: true/false (version 1) or { "right": bool, "at": seconds }. */
static bool quiz_answer(const json_t *v)
{
    if (json_is_boolean(v))
        return true;
    const json_t *right = json_object_get(v, "right"), *at = json_object_get(v, "at");
    return json_is_object(v) && json_is_boolean(right) && json_is_number(at) &&
           json_number_value(at) >= 0;
}

/* Drop what is wrong inside one lesson's entry; true when anything was. */
static bool clean_entry(const char *lesson, json_t *e, char *dropped, size_t n)
{
    bool any = false;
    char what[64];
    json_t *seen = json_object_get(e, "seen");
    if (seen && !json_is_array(seen)) {
        json_object_del(e, "seen");
        note(dropped, n, lesson, ".seen (not a list)");
        any = true;
    } else if (seen) {
        for (size_t i = json_array_size(seen); i-- > 0;) {
            if (step_number(json_array_get(seen, i)))
                continue;
            snprintf(what, sizeof what, ".seen[%zu] (not a step number)", i);
            note(dropped, n, lesson, what);
            json_array_remove(seen, i);
            any = true;
        }
    }
    json_t *last = json_object_get(e, "last");
    if (last && !step_number(last)) {
        json_object_del(e, "last");
        note(dropped, n, lesson, ".last (not a step number)");
        any = true;
    }
    json_t *quiz = json_object_get(e, "quiz");
    if (quiz && !json_is_object(quiz)) {
        json_object_del(e, "quiz");
        note(dropped, n, lesson, ".quiz (not an object)");
        any = true;
    } else if (quiz) {
        const char *key;
        json_t *v;
        void *it;
        json_object_foreach_safe(quiz, it, key, v)
        {
            if (step_key(key) && quiz_answer(v))
                continue;
            snprintf(what, sizeof what, ".quiz.\"%.20s\" (not an answer)", key);
            note(dropped, n, lesson, what);
            json_object_del(quiz, key);
            any = true;
        }
    }
    return any;
}

/* The whole file into a new string; NULL with why filled. */
static char *slurp(const char *path, bool *missing, char *why, size_t n)
{
    *missing = false;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        *missing = errno == ENOENT || errno == ENOTDIR; /* no file, or not even its folder */
        snprintf(why, n, "%s", strerror(errno));
        return NULL;
    }
    struct stat sb;
    char *buf = NULL;
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
        snprintf(why, n, "not a regular file");
    else if (sb.st_size > PROGRESS_MAX_BYTES)
        snprintf(why, n, "larger than %d MB", PROGRESS_MAX_BYTES >> 20);
    else if (!(buf = malloc((size_t)sb.st_size + 1)))
        snprintf(why, n, "out of memory");
    size_t len = 0;
    while (buf && len < (size_t)sb.st_size) {
        const ssize_t got = read(fd, buf + len, (size_t)sb.st_size - len);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            snprintf(why, n, "%s", got < 0 ? strerror(errno) : "it shrank while being read");
            free(buf);
            buf = NULL;
            break;
        }
        len += (size_t)got;
    }
    close(fd);
    if (buf)
        buf[len] = '\0';
    return buf;
}

enum progress_read progress_file_read(const char *path, json_t **root, char *dropped, size_t n)
{
    dropped[0] = '\0';
    *root = NULL;
    bool missing;
    char *text = slurp(path, &missing, dropped, n);
    if (!text) {
        *root = progress_file_empty();
        return missing ? PROGRESS_READ_MISSING : PROGRESS_READ_CORRUPT;
    }
    struct mha_error err;
    json_t *r = json_scan_loads(text, path, &progress_limits, JSON_REJECT_DUPLICATES, &err);
    free(text);
    if (!r) {
        snprintf(dropped, n, "line %d: %s", err.line, err.text);
        *root = progress_file_empty();
        return PROGRESS_READ_CORRUPT;
    }
    json_t *lessons = json_object_get(r, "lessons");
    if (!json_is_object(r) || !json_is_object(lessons)) {
        json_decref(r);
        snprintf(dropped, n, "not a progress record");
        *root = progress_file_empty();
        return PROGRESS_READ_CORRUPT;
    }
    bool any = false;
    const char *key;
    json_t *e;
    void *it;
    json_object_foreach_safe(lessons, it, key, e)
    {
        if (!json_is_object(e)) {
            note(dropped, n, key, " (not an object)");
            json_object_del(lessons, key);
            any = true;
        } else if (clean_entry(key, e, dropped, n)) {
            any = true;
        }
    }
    json_object_set_new(r, "version", json_integer(2));
    *root = r;
    return any ? PROGRESS_READ_PARTIAL : PROGRESS_READ_OK;
}

/* ---- where the file is ---------------------------------------------------------------- */

int progress_file_target(const char *path, char *out, size_t n)
{
    return safe_file_resolve(path, out, n);
}

int progress_file_mkdirs(const char *target, struct mha_error *err)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", target);
    for (char *s = path + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        const int rc = mkdir(path, 0755);
        *s = '/';
        if (rc != 0 && errno != EEXIST)
            return mha_error_set(err, "cannot create the folder for %s: %s", target,
                                 strerror(errno));
    }
    return 0;
}

/* ---- the lock -------------------------------------------------------------------------- */

int progress_file_lock(const char *target, struct mha_error *err)
{
    char name[PATH_MAX + 8];
    snprintf(name, sizeof name, "%s.lock", target);
    const int fd = open(name, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        mha_error_set(err, "cannot open the lock file %s: %s", name, strerror(errno));
        return -1;
    }
    while (flock(fd, LOCK_EX) != 0) {
        if (errno == EINTR)
            continue;
        mha_error_set(err, "cannot lock %s: %s", name, strerror(errno));
        close(fd);
        return -1;
    }
    return fd;
}

void progress_file_unlock(int fd)
{
    if (fd >= 0)
        close(fd); /* closing releases the lock */
}

/* ---- kept copies ------------------------------------------------------------------------ */

static int copy_to_new(const char *from, const char *to)
{
    const int in = open(from, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (in < 0)
        return -1;
    const int out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) {
        const int e = errno;
        close(in);
        errno = e;
        return -1;
    }
    char buf[8192];
    ssize_t got;
    int rc = 0;
    while ((got = read(in, buf, sizeof buf)) != 0) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 || write(out, buf, (size_t)got) != got) {
            rc = -1;
            break;
        }
    }
    close(in);
    if (close(out) != 0)
        rc = -1;
    if (rc != 0)
        unlink(to);
    return rc;
}

int progress_file_keep(const char *target, int move, char *aside, size_t n)
{
    char name[PATH_MAX + 32];
    for (int i = 1; i <= PROGRESS_MAX_KEPT; i++) {
        snprintf(name, sizeof name, "%s.corrupt.%d", target, i);
        /* link() and O_EXCL both fail on an existing name: nothing is replaced;
         * where the file system has no hard links, a move is a copy */
        int rc = move ? link(target, name) : copy_to_new(target, name);
        if (rc != 0 && move && errno != EEXIST && errno != ENOENT)
            rc = copy_to_new(target, name);
        if (rc != 0 && errno == EEXIST)
            continue;
        if (rc != 0)
            return -1;
        if (move)
            unlink(target);
        snprintf(aside, n, "%s", name);
        return 0;
    }
    return -1;
}

/* ---- writing ---------------------------------------------------------------------------- */

/* err's text led by the file's name (the callers show the text alone). */
static int named(struct mha_error *err, const char *target)
{
    char text[MHA_ERROR_TEXT_MAX];
    snprintf(text, sizeof text, "%s", err->text);
    mha_error_set(err, "%s: %s", target, text);
    return -1;
}

/* The save itself, with the signals held (progress_file_write). */
static int write_held(const char *target, const json_t *root, struct mha_error *err)
{
    struct safe_file sf;
    if (safe_file_create(&sf, target, err) != 0)
        return named(err, target);
    FILE *f = safe_file_stream(&sf, err);
    if (!f) {
        safe_file_discard(&sf);
        return named(err, target);
    }
    if (json_dumpf(root, f, JSON_INDENT(1) | JSON_SORT_KEYS) != 0 || fputc('\n', f) == EOF) {
        const int e = errno ? errno : EIO;
        safe_file_discard(&sf);
        mha_error_set(err, "cannot write: %s; %s", strerror(e),
                      sf.existed ? "the file is left as it was" : "nothing was written");
        return named(err, target);
    }
    return safe_file_commit(&sf, err) != 0 ? named(err, target) : 0;
}

int progress_file_write(const char *target, const json_t *root, struct mha_error *err)
{
    struct safe_file_signals held; /* whatever ends the program leaves no temporary */
    safe_file_hold_signals(&held);
    const int rc = write_held(target, root, err);
    safe_file_release_signals(&held);
    return rc;
}
