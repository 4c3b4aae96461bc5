/* progress.c - the progress record as a small JSON document (jansson):
 * { "version": 2, "lessons": { "<file>": { "seen": [0, 1], "last": 1,
 *   "quiz": { "3": { "right": true, "first": false, "at": 1763900000.25 } } } } }
 * ("first": right at the first try; older files lack it)
 * (version 1 wrote a quiz answer as a bare true/false; both are read).
 * Saving reads the file again under a lock and merges this explorer's
 * changes into it, so explorers running at once keep each other's steps. */
#include "lesson/progress.h"
#include "lesson/progress_file.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

struct progress {
    char path[PATH_MAX];
    json_t *root;
    json_t *last_set; /* lessons whose last step this explorer moved since the last save */
    json_t *forgot;   /* lessons forgotten since the last save ("": all of them) */
};

const char *progress_default_path(char *buf, size_t n)
{
    const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
    if (state && state[0] == '/')
        snprintf(buf, n, "%s/mha-explorer/progress.json", state);
    else if (home && *home)
        snprintf(buf, n, "%s/.local/state/mha-explorer/progress.json", home);
    else
        return NULL;
    return buf;
}

/* Load the record; a file that is not one at all is moved aside, one with
 * bad entries keeps a copy and is written again without them. */
struct progress *progress_load(const char *path, char *warning, size_t warning_size)
{
    if (warning && warning_size)
        warning[0] = '\0';
    struct progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->last_set = json_object();
    p->forgot = json_object();
    if (!path)
        path = progress_default_path(p->path, sizeof p->path);
    else
        snprintf(p->path, sizeof p->path, "%s", path);
    if (!path) {
        p->root = progress_file_empty();
        return p;
    }
    char dropped[400];
    enum progress_read rs = progress_file_read(p->path, &p->root, dropped, sizeof dropped);
    if (rs == PROGRESS_READ_MISSING || rs == PROGRESS_READ_OK)
        return p;
    /* under the lock, so two explorers do not both set the same file aside */
    char target[PATH_MAX], aside[PATH_MAX + 32] = "";
    struct mha_error err;
    mha_error_clear(&err);
    int fd = -1;
    bool kept = false;
    if (progress_file_target(p->path, target, sizeof target) == 0 &&
        (fd = progress_file_lock(target, &err)) >= 0) {
        json_decref(p->root);
        rs = progress_file_read(p->path, &p->root, dropped, sizeof dropped);
        if (rs == PROGRESS_READ_CORRUPT || rs == PROGRESS_READ_PARTIAL)
            kept =
                progress_file_keep(target, rs == PROGRESS_READ_CORRUPT, aside, sizeof aside) == 0;
        if (kept && rs == PROGRESS_READ_PARTIAL)
            progress_file_write(target, p->root, &err);
    }
    progress_file_unlock(fd);
    if (rs == PROGRESS_READ_MISSING || rs == PROGRESS_READ_OK || !warning || !warning_size)
        return p;
    if (rs == PROGRESS_READ_CORRUPT)
        snprintf(warning, warning_size,
                 "progress file %s could not be read (%s); %s%s, starting afresh", p->path, dropped,
                 kept ? "kept it as " : "left it as it is", aside);
    else
        snprintf(warning, warning_size,
                 "progress file %s: left out what could not be read: %s; %s%s", p->path, dropped,
                 kept ? "the whole file is kept as " : "the file is left as it is", aside);
    return p;
}

void progress_free(struct progress *p)
{
    if (!p)
        return;
    json_decref(p->root);
    json_decref(p->last_set);
    json_decref(p->forgot);
    free(p);
}

static double answer_time(const json_t *v)
{
    return json_is_object(v) ? json_number_value(json_object_get(v, "at")) : 0.0;
}

/* Our entry for one lesson into the one on disk: seen is the union, the
 * newer of two answers to a quiz wins, and the last step is ours if this
 * explorer moved it. */
static void merge_entry(json_t *disk, const json_t *ours, bool our_last)
{
    json_t *seen = json_object_get(disk, "seen");
    if (!json_is_array(seen)) {
        seen = json_array();
        json_object_set_new(disk, "seen", seen);
    }
    size_t i, j;
    json_t *v, *w;
    json_array_foreach(json_object_get(ours, "seen"), i, v)
    {
        bool have = false;
        json_array_foreach(seen, j, w) have =
            have || json_integer_value(w) == json_integer_value(v);
        if (!have)
            json_array_append(seen, v);
    }
    json_t *quiz = json_object_get(disk, "quiz");
    if (!json_is_object(quiz)) {
        quiz = json_object();
        json_object_set_new(disk, "quiz", quiz);
    }
    const char *key;
    json_object_foreach(json_object_get(ours, "quiz"), key, v)
    {
        const json_t *theirs = json_object_get(quiz, key);
        if (!theirs || answer_time(v) >= answer_time(theirs))
            json_object_set(quiz, key, v);
    }
    json_t *last = json_object_get(ours, "last");
    if (last && (our_last || !json_object_get(disk, "last")))
        json_object_set(disk, "last", last);
}

/* The record on disk (read again, under the lock) with ours merged in. */
static void merge(json_t *disk, const struct progress *p)
{
    json_t *lessons = json_object_get(disk, "lessons");
    const char *key;
    json_t *v;
    if (json_object_get(p->forgot, ""))
        json_object_clear(lessons);
    json_object_foreach(p->forgot, key, v) json_object_del(lessons, key);
    json_object_foreach(json_object_get(p->root, "lessons"), key, v)
    {
        json_t *d = json_object_get(lessons, key);
        if (!d) {
            d = json_object();
            json_object_set_new(lessons, key, d);
        }
        merge_entry(d, v, json_object_get(p->last_set, key) != NULL);
    }
}

int progress_save(struct progress *p, struct mha_error *err)
{
    if (!p->path[0])
        return mha_error_set(err, "no place to keep progress (HOME is not set)");
    char target[PATH_MAX];
    if (progress_file_target(p->path, target, sizeof target) != 0)
        return mha_error_set(err, "%s: a loop of symbolic links, or a name too long", p->path);
    if (progress_file_mkdirs(target, err) != 0)
        return -1;
    const int fd = progress_file_lock(target, err);
    if (fd < 0)
        return -1;
    json_t *disk;
    char dropped[400], aside[PATH_MAX + 32];
    const enum progress_read rs = progress_file_read(target, &disk, dropped, sizeof dropped);
    if (rs == PROGRESS_READ_CORRUPT || rs == PROGRESS_READ_PARTIAL)
        progress_file_keep(target, false, aside, sizeof aside); /* before it is replaced */
    merge(disk, p);
    const int rc = progress_file_write(target, disk, err);
    progress_file_unlock(fd);
    if (rc != 0) {
        json_decref(disk);
        return -1;
    }
    /* what the others saved is ours now too; our changes are on disk */
    json_decref(p->root);
    p->root = disk;
    json_object_clear(p->last_set);
    json_object_clear(p->forgot);
    return 0;
}

void progress_forget(struct progress *p, const char *lesson)
{
    json_t *lessons = json_object_get(p->root, "lessons");
    if (lesson) {
        json_object_del(lessons, lesson);
        json_object_del(p->last_set, lesson);
        json_object_set_new(p->forgot, lesson, json_true());
    } else {
        json_object_clear(lessons);
        json_object_clear(p->last_set);
        json_object_clear(p->forgot);
        json_object_set_new(p->forgot, "", json_true());
    }
}

static json_t *entry(const struct progress *p, const char *lesson, bool create)
{
    json_t *lessons = json_object_get(p->root, "lessons");
    json_t *e = json_object_get(lessons, lesson);
    if (!e && create) {
        e = json_object();
        json_object_set_new(e, "seen", json_array());
        json_object_set_new(e, "quiz", json_object());
        json_object_set_new(lessons, lesson, e);
    }
    if (e && create) {
        if (!json_object_get(e, "seen"))
            json_object_set_new(e, "seen", json_array());
        if (!json_object_get(e, "quiz"))
            json_object_set_new(e, "quiz", json_object());
    }
    return e;
}

bool progress_seen(const struct progress *p, const char *lesson, int step)
{
    json_t *e = entry(p, lesson, false);
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(e, "seen"), i,
                       v) if (json_integer_value(v) == step) return true;
    return false;
}

void progress_mark_seen(struct progress *p, const char *lesson, int step)
{
    if (progress_seen(p, lesson, step))
        return;
    json_array_append_new(json_object_get(entry(p, lesson, true), "seen"), json_integer(step));
}

int progress_seen_count(const struct progress *p, const char *lesson)
{
    return (int)json_array_size(json_object_get(entry(p, lesson, false), "seen"));
}

int progress_last_step(const struct progress *p, const char *lesson)
{
    return (int)json_integer_value(json_object_get(entry(p, lesson, false), "last"));
}

void progress_set_last_step(struct progress *p, const char *lesson, int step)
{
    json_object_set_new(entry(p, lesson, true), "last", json_integer(step));
    json_object_set_new(p->last_set, lesson, json_true());
}

void progress_set_quiz(struct progress *p, const char *lesson, int step, bool right)
{
    char key[16];
    snprintf(key, sizeof key, "%d", step);
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    json_t *answer = json_object();
    json_object_set_new(answer, "right", json_boolean(right));
    json_object_set_new(answer, "at", json_real((double)now.tv_sec + (double)now.tv_nsec / 1e9));
    json_object_set_new(json_object_get(entry(p, lesson, true), "quiz"), key, answer);
}

void progress_set_quiz_first(struct progress *p, const char *lesson, int step, bool first)
{
    char key[16];
    snprintf(key, sizeof key, "%d", step);
    json_t *v = json_object_get(json_object_get(entry(p, lesson, true), "quiz"), key);
    if (json_is_object(v))
        json_object_set_new(v, "first", json_boolean(first));
}

int progress_quiz_first(const struct progress *p, const char *lesson, int step)
{
    char key[16];
    snprintf(key, sizeof key, "%d", step);
    const json_t *v = json_object_get(json_object_get(entry(p, lesson, false), "quiz"), key);
    const json_t *first = json_is_object(v) ? json_object_get(v, "first") : NULL;
    if (json_is_boolean(first))
        return json_is_true(first) ? 1 : 0;
    return progress_quiz(p, lesson, step);
}

int progress_quiz(const struct progress *p, const char *lesson, int step)
{
    char key[16];
    snprintf(key, sizeof key, "%d", step);
    json_t *v = json_object_get(json_object_get(entry(p, lesson, false), "quiz"), key);
    if (json_is_object(v))
        v = json_object_get(v, "right");
    return v ? (json_is_true(v) ? 1 : 0) : -1;
}

void progress_reset(struct progress *p, const char *lesson)
{
    /* forgotten, so the merge with the file on the next save does not bring
     * the steps back */
    progress_forget(p, lesson);
}
