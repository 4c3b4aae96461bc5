/* progress.c - the progress record as a small JSON document (jansson):
 * { "version": 1, "lessons": { "<file>": { "seen": [0, 1], "last": 1,
 *   "quiz": { "3": true } } } } */
#include "progress.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct progress {
    char path[PATH_MAX];
    json_t *root;
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

static json_t *empty_root(void)
{
    json_t *root = json_object();
    json_object_set_new(root, "version", json_integer(1));
    json_object_set_new(root, "lessons", json_object());
    return root;
}

/* A record is well formed when every lesson entry has the expected types. */
static bool well_formed(json_t *root)
{
    if (!json_is_object(root) || !json_is_object(json_object_get(root, "lessons")))
        return false;
    const char *key;
    json_t *entry;
    json_object_foreach(json_object_get(root, "lessons"), key, entry) {
        if (!json_is_object(entry))
            return false;
        json_t *seen = json_object_get(entry, "seen"), *quiz = json_object_get(entry, "quiz");
        json_t *last = json_object_get(entry, "last");
        if ((seen && !json_is_array(seen)) || (quiz && !json_is_object(quiz)) ||
            (last && !json_is_integer(last)))
            return false;
        size_t i;
        json_t *v;
        json_array_foreach(seen, i, v) if (!json_is_integer(v)) return false;
    }
    return true;
}

struct progress *progress_load(const char *path, char *warning, size_t warning_size)
{
    if (warning && warning_size)
        warning[0] = '\0';
    struct progress *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    if (!path)
        path = progress_default_path(p->path, sizeof p->path);
    else
        snprintf(p->path, sizeof p->path, "%s", path);
    if (!path) {
        p->root = empty_root();
        return p;
    }
    json_error_t jerr;
    json_t *root = json_load_file(p->path, JSON_REJECT_DUPLICATES, &jerr);
    if (root && well_formed(root)) {
        p->root = root;
        return p;
    }
    json_decref(root);
    p->root = empty_root();
    if (access(p->path, F_OK) != 0)
        return p; /* no file yet */
    char aside[PATH_MAX + 16];
    snprintf(aside, sizeof aside, "%s.corrupt", p->path);
    bool moved = rename(p->path, aside) == 0;
    if (warning && warning_size)
        snprintf(warning, warning_size,
                 "progress file %s could not be read (%s); %s%s, starting afresh", p->path,
                 root ? "not a progress record" : jerr.text,
                 moved ? "kept it as " : "left it as it is", moved ? aside : "");
    return p;
}

void progress_free(struct progress *p)
{
    if (!p)
        return;
    json_decref(p->root);
    free(p);
}

static int mkdirs(char *path)
{
    for (char *s = path + 1; *s; s++) {
        if (*s != '/')
            continue;
        *s = '\0';
        int rc = mkdir(path, 0755);
        *s = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

int progress_save(const struct progress *p, struct mha_error *err)
{
    if (!p->path[0])
        return mha_error_set(err, "no place to keep progress (HOME is not set)");
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", p->path);
    if (mkdirs(dir) != 0)
        return mha_error_set(err, "cannot create the folder for %s: %s", p->path,
                             strerror(errno));
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", p->path, (long)getpid());
    if (json_dump_file(p->root, tmp, JSON_INDENT(1) | JSON_SORT_KEYS) != 0) {
        remove(tmp);
        return mha_error_set(err, "cannot write %s", tmp);
    }
    if (rename(tmp, p->path) != 0) {
        int e = errno;
        remove(tmp);
        return mha_error_set(err, "cannot replace %s: %s", p->path, strerror(e));
    }
    return 0;
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
    json_array_foreach(json_object_get(e, "seen"), i, v) if (json_integer_value(v) == step) return true;
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
}

void progress_set_quiz(struct progress *p, const char *lesson, int step, bool right)
{
    char key[16];
    snprintf(key, sizeof key, "%d", step);
    json_object_set_new(json_object_get(entry(p, lesson, true), "quiz"), key,
                        json_boolean(right));
}

int progress_quiz(const struct progress *p, const char *lesson, int step)
{
    char key[16];
    snprintf(key, sizeof key, "%d", step);
    json_t *v = json_object_get(json_object_get(entry(p, lesson, false), "quiz"), key);
    return v ? (json_is_true(v) ? 1 : 0) : -1;
}

void progress_reset(struct progress *p, const char *lesson)
{
    json_t *lessons = json_object_get(p->root, "lessons");
    if (lesson)
        json_object_del(lessons, lesson);
    else
        json_object_clear(lessons);
}
