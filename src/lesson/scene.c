/* scene.c - the key: value lines of ```mha (scene) blocks. */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_parse.h"

int lesson_switch_from_name(const char *word)
{
    static const char *const on[] = {"on", "yes", "true", "1"};
    static const char *const off[] = {"off", "no", "false", "0"};
    for (size_t i = 0; i < sizeof on / sizeof on[0]; i++) {
        if (!strcmp(word, on[i]))
            return 1;
        if (!strcmp(word, off[i]))
            return 0;
    }
    return -1;
}

static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = '\0';
    return s;
}

void lesson_each_kv(struct lesson *l, const char *body, int fence_line, bool allow_continuation,
                    lesson_kv_fn fn, void *ctx)
{
    char *copy = lesson_strdup(body);
    char *pending_key = NULL, *pending_val = NULL;
    int pending_line = 0, line = fence_line;
    for (char *save = NULL, *p = copy;; p = NULL) {
        char *raw = strtok_r(p, "\n", &save);
        if (!raw)
            break;
        /* strtok_r skips empty lines: count the newlines it jumped over */
        line = fence_line + 1;
        for (const char *c = body; c < body + (raw - copy); c++)
            if (*c == '\n')
                line++;
        bool cont = allow_continuation && pending_key && strncmp(raw, "  ", 2) == 0;
        char *t = trim(raw);
        if (*t == '\0' || *t == '#')
            continue;
        if (cont) {
            size_t a = strlen(pending_val), b = strlen(t);
            char *j = realloc(pending_val, a + b + 2);
            if (!j) {
                lesson_out_of_memory();
                continue;
            }
            j[a] = ' ';
            memcpy(j + a + 1, t, b + 1);
            pending_val = j;
            continue;
        }
        if (pending_key) {
            fn(l, ctx, pending_key, pending_val, pending_line);
            free(pending_key);
            free(pending_val);
            pending_key = pending_val = NULL;
        }
        char *colon = strchr(t, ':');
        bool ok = colon && colon > t;
        for (char *k = t; ok && k < colon; k++)
            ok = islower((unsigned char)*k) || *k == '_' || isdigit((unsigned char)*k);
        if (!ok) {
            lesson_diag_add(l, line, "expected \"key: value\", got \"%.60s\"", t);
            continue;
        }
        *colon = '\0';
        pending_key = lesson_strdup(t);
        pending_val = lesson_strdup(trim(colon + 1));
        pending_line = line;
    }
    if (pending_key)
        fn(l, ctx, pending_key, pending_val, pending_line);
    free(pending_key);
    free(pending_val);
    free(copy);
}

static void scene_kv(struct lesson *l, void *ctx, const char *key, const char *v, int line)
{
    struct lesson_scene *sc = ctx;
    int k = lesson_scene_key_from_name(key);
    if (k < 0) {
        char known[256];
        lesson_diag_add(l, line, "unknown scene key \"%s\" (known: %s)", key,
                        lesson_scene_key_list(known, sizeof known));
        return;
    }
    if (sc->set & (1u << k)) {
        lesson_diag_add(l, line, "%s is given twice in this scene (first at line %d)", key,
                        sc->key_line[k]);
        return;
    }
    if (!*v) {
        lesson_diag_add(l, line, "%s: the value is missing", key);
        return;
    }
    if (lesson_scene_key_read(l, sc, k, v, line)) {
        sc->set |= 1u << k;
        sc->key_line[k] = line;
    }
}

void lesson_parse_scene(struct lesson *l, struct lesson_scene *sc, const char *body, int fence_line)
{
    memset(sc, 0, sizeof *sc);
    sc->line = fence_line;
    sc->scaled = true;
    lesson_each_kv(l, body, fence_line, false, scene_kv, sc);
    if (sc->set == 0 && l)
        lesson_diag_add(l, fence_line,
                        "this ```mha scene sets nothing; give at least one "
                        "key such as stage: attention");
    const unsigned gen = (1u << SCENE_TOKENS) | (1u << SCENE_D_MODEL) | (1u << SCENE_SEED);
    if ((sc->set & (1u << SCENE_LOAD)) && (sc->set & gen))
        lesson_diag_add(l, sc->key_line[SCENE_LOAD],
                        "load and tokens/d_model/seed in one scene: the file fixes its own "
                        "tokens, width and numbers; use one or the other");
}

void lesson_scene_done(struct lesson_scene *sc)
{
    free(sc->tokens);
    free(sc->load);
    free(sc->words);
    free(sc->focus);
    free(sc->show);
    free(sc->scroll);
    free(sc->preset);
    free(sc->clean);
    free(sc->corrupt);
    free(sc->train);
    memset(sc, 0, sizeof *sc);
}
