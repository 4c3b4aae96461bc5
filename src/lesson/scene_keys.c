/* scene_keys.c - the keys of a ```mha scene as one table: name, the kind of
 * value and how it is read, how it changes the lesson state, and the words
 * lessons/README.md uses for it.  A new key is one row here plus its member
 * of struct lesson_scene; the parser, the "known keys" message, the state
 * and the README check (tests/lesson/test_lesson_keys.c) all read this table.
 *
 * Rows are in the order they are applied: a load comes before the heads
 * and switches that may follow it, a stage before a view. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_parse.h"
#include "lesson/lesson_state.h"
#include "engine/stages.h"
#include "train/train.h"
#include "engine/views.h"
#include "io/text_io.h"

/* ---- reading values: each fills its member of sc, or adds a diagnostic and
 * returns false ---- */

static bool number_in(struct lesson *l, const char *key, const char *v, long long lo, long long hi,
                      int line, long long *out)
{
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (!*v || *end || errno) {
        lesson_diag_add(l, line, "%s: \"%s\" is not a whole number", key, v);
        return false;
    }
    if (n < lo || n > hi) {
        lesson_diag_add(l, line, "%s: %lld is out of range; expected %lld..%lld", key, n, lo, hi);
        return false;
    }
    *out = n;
    return true;
}

static bool on_off(struct lesson *l, const char *key, const char *v, int line, bool *out)
{
    const int on = lesson_switch_from_name(v);
    if (on < 0) {
        lesson_diag_add(l, line, "%s: expected on or off, got \"%s\"", key, v);
        return false;
    }
    *out = on;
    return true;
}

static bool read_stage(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    sc->stage = mha_stage_from_name(v);
    if (sc->stage >= 0)
        return true;
    char names[128], range[16];
    lesson_diag_add(l, line, "stage: unknown stage \"%s\"; expected %s or %s", v,
                    mha_stage_names(names, sizeof names, ", "),
                    mha_stage_range(range, sizeof range));
    return false;
}

static bool read_tokens(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    (void)l, (void)line;
    return (sc->tokens = lesson_strdup(v)) != NULL;
}

static bool read_d_model(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    long long n;
    if (!number_in(l, "d_model", v, 1, MHA_MAX_D_MODEL, line, &n))
        return false;
    sc->d_model = (int)n;
    return true;
}

static bool read_heads(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    long long n;
    if (!number_in(l, "heads", v, 1, MHA_MAX_D_MODEL, line, &n))
        return false;
    sc->heads = (int)n;
    return true;
}

static bool read_seed(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    long long n;
    if (!number_in(l, "seed", v, 0, 4294967295LL, line, &n))
        return false;
    sc->seed = (uint32_t)n;
    return true;
}

static bool read_causal(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    return on_off(l, "causal", v, line, &sc->causal);
}

static bool read_scale(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    return on_off(l, "scale", v, line, &sc->scaled);
}

static bool read_load(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    if (v[0] == '/' || strstr(v, "..")) {
        lesson_diag_add(l, line,
                        "load: \"%s\" must be a path inside the assets folder, e.g. "
                        "examples/cat-sat.json",
                        v);
        return false;
    }
    return (sc->load = lesson_strdup(v)) != NULL;
}

static bool read_words(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    (void)l, (void)line;
    return (sc->words = lesson_strdup(v)) != NULL;
}

static bool read_clean(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    (void)l, (void)line;
    return (sc->clean = lesson_strdup(v)) != NULL;
}

static bool read_corrupt(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    (void)l, (void)line;
    return (sc->corrupt = lesson_strdup(v)) != NULL;
}

static bool read_focus(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    (void)l, (void)line;
    return (sc->focus = lesson_strdup(v)) != NULL;
}

static bool read_show(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    (void)l, (void)line;
    return (sc->show = lesson_strdup(v)) != NULL;
}

static bool read_scroll(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    if (strlen(v) >= LESSON_SCROLL_MAX) {
        lesson_diag_add(l, line, "scroll: \"%s\" is longer than a table's first cell (%d bytes)", v,
                        LESSON_SCROLL_MAX - 1);
        return false;
    }
    return (sc->scroll = lesson_strdup(v)) != NULL;
}

static bool read_view(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    for (int i = 0; i < MHA_VIEW_COUNT; i++)
        if (!strcmp(v, mha_view_name((enum mha_view)i))) {
            sc->view = (enum mha_view)i;
            return true;
        }
    char names[96];
    lesson_diag_add(l, line, "view: unknown view \"%s\"; expected %s or none", v,
                    mha_view_names(names, sizeof names, ", "));
    return false;
}

static bool read_batch(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    return number_in(l, "batch", v, 1, 4096, line, &sc->batch);
}

static bool read_seq(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    return number_in(l, "seq", v, 1, 1000000, line, &sc->seq);
}

static bool read_preset(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    if (views_preset_find(v))
        return (sc->preset = lesson_strdup(v)) != NULL;
    lesson_diag_add(l, line,
                    "preset: unknown preset \"%s\"; expected transformer-base, "
                    "transformer-large, bert-base, bert-large, gpt2-small, gpt2-xl or gpt3-175b",
                    v);
    return false;
}

static bool read_train(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    /* a corpus's name is checked against assets/corpus/ with the lesson */
    if (strcmp(v, "off") == 0 || train_task_find(v) || text_io_corpus_name(v))
        return (sc->train = lesson_strdup(v)) != NULL;
    char names[256];
    lesson_diag_add(l, line,
                    "train: unknown task \"%s\"; expected %s, a corpus under assets/corpus/, or "
                    "off",
                    v, train_task_names(names, sizeof names));
    return false;
}

/* compare: variants=standard,no-wo: the attention blocks side by side. */
static bool read_compare_variants(struct lesson *l, struct lesson_scene *sc, const char *v,
                                  int line)
{
    const char *p = v + 9;
    sc->compare_variants = true;
    sc->compare_layers = false;
    do {
        char one[TRAIN_VARIANT_NAME_MAX];
        const size_t len = strcspn(p, ",");
        struct mha_error err;
        mha_error_clear(&err);
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : 0), p);
        if (len == 0 || len >= sizeof one || sc->n_compare == 4 ||
            train_variant_parse(one, &sc->compare_variant[sc->n_compare], &err) ||
            (p[len] == ',' && !p[len + 1])) {
            lesson_diag_add(l, line,
                            "compare: expected 1 to 4 variants separated by commas, as in "
                            "variants=standard,no-wo; got \"%s\"%s%s",
                            v, err.text[0] ? ": " : "", err.text);
            return false;
        }
        sc->compare[sc->n_compare++] = 0;
        p += len;
        if (*p)
            p++;
    } while (*p);
    return true;
}

static bool read_compare(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    const char *p = v;
    sc->n_compare = 0;
    sc->compare_variants = false;
    if (strncmp(v, "variants=", 9) == 0)
        return read_compare_variants(l, sc, v, line);
    sc->compare_layers = strncmp(v, "layers=", 7) == 0;
    if (sc->compare_layers)
        p += 7;
    const long most = sc->compare_layers ? TRAIN_MAX_LAYERS : TRAIN_MAX_D_MODEL;
    do {
        char *end;
        errno = 0;
        const long h = strtol(p, &end, 10);
        if (end == p || errno || h < 1 || h > most || (*end && *end != ',') || sc->n_compare == 4 ||
            (*end == ',' && !end[1])) {
            lesson_diag_add(l, line,
                            "compare: expected 1 to 4 head counts separated by commas, as in "
                            "1,2, or layer counts (1 to %d), as in layers=1,2; got \"%s\"",
                            TRAIN_MAX_LAYERS, v);
            return false;
        }
        sc->compare[sc->n_compare++] = (int)h;
        p = *end ? end + 1 : end;
    } while (*p);
    return true;
}

static bool read_layers(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    long long n;
    if (!number_in(l, "layers", v, 1, TRAIN_MAX_LAYERS, line, &n))
        return false;
    sc->layers = (int)n;
    return true;
}

static bool read_layer(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    long long n;
    if (!number_in(l, "layer", v, 0, TRAIN_MAX_LAYERS - 1, line, &n))
        return false;
    sc->layer = (int)n;
    return true;
}

static bool read_steps(struct lesson *l, struct lesson_scene *sc, const char *v, int line)
{
    long long n;
    if (!number_in(l, "steps", v, 1, 100000, line, &n))
        return false;
    sc->steps = (int)n;
    return true;
}

/* ---- applying: what a key changes in the state the scenes build up ---- */

static void put_load(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->load = sc->load;
    st->layer = -1;   /* a model of layers shows its last, unless layer: follows */
    st->words = NULL; /* a model's own sample, unless words: follows */
    st->heads = 0;    /* the file's own */
    st->causal = st->scaled = -1;
}

static void put_words(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->words = sc->words;
}

static void put_clean(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->clean = sc->clean;
}

static void put_corrupt(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->corrupt = sc->corrupt;
}

/* tokens, d_model and seed describe a generated example: leave a loaded one */
static void leave_load(struct lesson_state *st)
{
    if (!st->load)
        return;
    st->load = NULL;
    st->words = NULL;
    st->layer = -1;
    if (!st->heads)
        st->heads = 2;
}

static void put_tokens(struct lesson_state *st, const struct lesson_scene *sc)
{
    leave_load(st);
    st->tokens = sc->tokens;
}

static void put_d_model(struct lesson_state *st, const struct lesson_scene *sc)
{
    leave_load(st);
    st->d_model = sc->d_model;
}

static void put_seed(struct lesson_state *st, const struct lesson_scene *sc)
{
    leave_load(st);
    st->seed = sc->seed;
}

static void put_heads(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->heads = sc->heads;
}

static void put_causal(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->causal = sc->causal;
}

static void put_scale(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->scaled = sc->scaled;
}

static void put_stage(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->stage = sc->stage;
    st->view = MHA_VIEW_NONE;
}

static void put_view(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->view = sc->view;
}

static void put_focus(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->focus = sc->focus;
}

static void put_show(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->show = sc->show;
}

static void put_scroll(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->scroll = sc->scroll;
}

static void put_batch(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->batch = sc->batch;
}

static void put_seq(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->seq = sc->seq;
}

static void put_preset(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->preset = sc->preset;
}

/* A scene with train: sets up the model that trains: its heads (or
 * compare:), seed, d_model and steps are the model's, each train: scene
 * starting from the defaults; lesson_state_apply keeps heads, seed and
 * d_model off the example. */
static void put_train(struct lesson_state *st, const struct lesson_scene *sc)
{
    if (!strcmp(sc->train, "off")) {
        st->train = NULL;
        st->layer = -1;
        return;
    }
    const unsigned set = sc->set;
    st->train = sc->train;
    st->n_train_heads = 1;
    st->train_heads[0] = (set & (1u << SCENE_HEADS)) ? sc->heads : TRAIN_DEFAULT_HEADS;
    st->train_compare_layers = false;
    st->train_compare_variants = false;
    if ((set & (1u << SCENE_COMPARE)) && sc->compare_variants) {
        /* each pane of the scene's heads, its own block */
        st->n_train_heads = sc->n_compare;
        st->train_compare_variants = true;
        for (int i = 0; i < sc->n_compare; i++) {
            st->train_heads[i] = st->train_heads[0];
            st->train_variants[i] = sc->compare_variant[i];
        }
    } else if (set & (1u << SCENE_COMPARE)) {
        st->n_train_heads = sc->n_compare;
        st->train_compare_layers = sc->compare_layers;
        memcpy(st->train_heads, sc->compare, sizeof sc->compare);
    }
    st->train_seed = (set & (1u << SCENE_SEED)) ? sc->seed : TRAIN_DEFAULT_SEED;
    st->train_steps = (set & (1u << SCENE_STEPS)) ? sc->steps : 0;
    st->train_d_model = (set & (1u << SCENE_D_MODEL)) ? sc->d_model : 0;
    st->train_layers = (set & (1u << SCENE_LAYERS)) ? sc->layers : 1;
    st->layer = -1; /* its last layer shown, unless layer: follows */
}

static void put_layer(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->layer = sc->layer;
}

/* compare:, steps: and layers: are read by put_train (they go with train:) */
static void put_with_train(struct lesson_state *st, const struct lesson_scene *sc)
{
    (void)st, (void)sc;
}

/* ---- the table ---- */

struct scene_key_row {
    struct lesson_scene_key_info info;
    bool (*read)(struct lesson *l, struct lesson_scene *sc, const char *value, int line);
    void (*apply)(struct lesson_state *st, const struct lesson_scene *sc);
};

static const struct scene_key_row keys[SCENE_KEY_COUNT] = {
    [SCENE_LOAD] = {{"load", "a file under `assets/`, e.g. `examples/cat-sat.json`",
                     "an example file (its tokens, sizes and weights), a trained model file "
                     "(`models/sentences.json`), or a sentence file naming one and its words "
                     "(`examples/cat-sat.json`)"},
                    read_load,
                    put_load},
    [SCENE_WORDS] = {{"words", "words separated by spaces",
                      "with `load` of a model file: the sentence the model runs on (its own "
                      "words; default its sample)"},
                     read_words,
                     put_words},
    [SCENE_TOKENS] = {{"tokens", "words separated by spaces",
                       "a generated example with these tokens"},
                      read_tokens,
                      put_tokens},
    [SCENE_D_MODEL] = {{"d_model", "1..2048", "model width"}, read_d_model, put_d_model},
    [SCENE_SEED] = {{"seed", "0..4294967295", "seed of the generated numbers"},
                    read_seed,
                    put_seed},
    [SCENE_HEADS] = {{"heads", "a divisor of `d_model`", "number of heads"}, read_heads, put_heads},
    [SCENE_CAUSAL] = {{"causal", "`on` / `off`", "causal mask"}, read_causal, put_causal},
    [SCENE_SCALE] = {{"scale", "`on` / `off`", "divide scores by √d_k"}, read_scale, put_scale},
    [SCENE_STAGE] = {{"stage", NULL, /* the stage table's names: lesson_scene_key_info */
                      "the stage on screen (also clears `view`)"},
                     read_stage,
                     put_stage},
    [SCENE_VIEW] = {{"view", NULL, /* the view registry's names: lesson_scene_key_info */
                     "a view other than the stages (`circuits` needs a trained model: a "
                     "`load:` of a model file; `composition` one of two or more layers)"},
                    read_view,
                    put_view},
    [SCENE_FOCUS] = {{"focus", "e.g. `weights, head 1, row it, col mat`",
                      "the cell the cursor starts on (see below)"},
                     read_focus,
                     put_focus},
    [SCENE_SHOW] = {{"show", "e.g. `weights, row now`",
                     "a row to see in every head: a line over the numbers gives each head's "
                     "largest number in it and its column, and each head's matrix scrolls to "
                     "it (see below)"},
                    read_show,
                    put_show},
    [SCENE_SCROLL] = {{"scroll", "e.g. `head 1`",
                       "a view's table row to see: the view scrolls to the first row whose "
                       "first cell starts with it"},
                      read_scroll,
                      put_scroll},
    [SCENE_BATCH] = {{"batch", "1..4096", "batch size for the `shapes` view (default 2)"},
                     read_batch,
                     put_batch},
    [SCENE_SEQ] = {{"seq", "1..1000000",
                    "sequence length for the `shapes` and `cost` views (default: the token "
                    "count)"},
                   read_seq,
                   put_seq},
    [SCENE_PRESET] = {{"preset",
                       "`transformer-base` `transformer-large` `bert-base` `bert-large` "
                       "`gpt2-small` `gpt2-xl` `gpt3-175b`",
                       "published sizes for the `cost` view"},
                      read_preset,
                      put_preset},
    [SCENE_TRAIN] = {{"train", NULL, /* the task table's tasks: lesson_scene_key_info */
                      "train a model on the training screen at `--train`'s sizes for the task "
                      "(vocabulary 16, sequences of 8, d_model 8, unless the task has its own, "
                      "as `induction` and a corpus under `assets/corpus/` (`names`) do); "
                      "`heads`, `seed` and `d_model` in the same scene are the model's "
                      "(default 2 heads, seed 1)"},
                     read_train,
                     put_train},
    [SCENE_COMPARE] = {{"compare",
                        "head counts, e.g. `1,2` (up to 4), `layers=1,2` or "
                        "`variants=standard,no-wo`",
                        "with `train`: train these head counts (or layer counts, 2 heads "
                        "each, or attention blocks as `--variant` names them, of the scene's "
                        "`heads`) side by side"},
                       read_compare,
                       put_with_train},
    [SCENE_STEPS] = {{"steps", "1..100000",
                      "with `train`: the step limit (default `--train`'s: 1500, or the task's)"},
                     read_steps,
                     put_with_train},
    [SCENE_LAYERS] = {{"layers", "1..4",
                       "with `train`: attention layers, each adding to the last (default 1)"},
                      read_layers,
                      put_with_train},
    [SCENE_LAYER] = {{"layer", "0..3",
                      "a model of layers (a `load:` of one, or a `train` with `layers`): the layer "
                      "its stages and heads show, 0 the first (default the last; `y` shows the "
                      "next)"},
                     read_layer,
                     put_layer},
    [SCENE_CLEAN] = {{"clean", "words separated by spaces",
                      "the `patching` view's clean sentence, in the model's words (default: "
                      "the example's tokens; with `train`, the model's sample)"},
                     read_clean,
                     put_clean},
    [SCENE_CORRUPT] = {{"corrupt", "words separated by spaces",
                        "the `patching` view's corrupted sentence: as many of the model's words "
                        "as the clean one, a word or two changed"},
                       read_corrupt,
                       put_corrupt},
};

/* "a task (`first-prev` `prev` ...) or `off`": the train key's values, from
 * the task table (train_task.c). */
static const char *train_values(void)
{
    static char values[512];
    if (!values[0]) {
        char names[384];
        train_task_names(names, sizeof names);
        size_t used = (size_t)snprintf(values, sizeof values, "a task (`");
        for (const char *p = names; *p && used + 4 < sizeof values; p++)
            if (p[0] == ',' && p[1] == ' ') {
                used += (size_t)snprintf(values + used, sizeof values - used, "` `");
                p++;
            } else {
                values[used++] = *p;
            }
        snprintf(values + used, sizeof values - used,
                 "`), a corpus (`names` `sentences`) or `off`");
    }
    return values;
}

/* `word` after what buf holds, a space between. */
static void add_code(char *buf, size_t n, size_t *used, const char *word)
{
    const int w = snprintf(buf + *used, n - *used, "%s`%s`", *used ? " " : "", word);
    if (w > 0 && (size_t)w < n - *used)
        *used += (size_t)w;
}

/* "`input` `projection` ... or `0`..`6`": the stage key's values, from the
 * stage table (stages.c). */
static const char *stage_values(void)
{
    static char values[256];
    if (!values[0]) {
        size_t used = 0;
        for (int s = 0; s < MHA_STAGE_COUNT; s++)
            add_code(values, sizeof values, &used, mha_stage_name((enum mha_stage)s));
        snprintf(values + used, sizeof values - used, " or `0`..`%d`", MHA_STAGE_COUNT - 1);
    }
    return values;
}

/* "`shapes` ... `none`": the view key's values, from the view registry
 * (view_desc.c). */
static const char *view_values(void)
{
    static char values[256];
    if (!values[0]) {
        size_t used = 0;
        for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++)
            add_code(values, sizeof values, &used, mha_view_name((enum mha_view)v));
        add_code(values, sizeof values, &used, mha_view_name(MHA_VIEW_NONE));
    }
    return values;
}

const struct lesson_scene_key_info *lesson_scene_key_info(int k)
{
    static struct lesson_scene_key_info made[SCENE_KEY_COUNT];
    if (k < 0 || k >= SCENE_KEY_COUNT)
        return NULL;
    const char *value = k == SCENE_TRAIN   ? train_values()
                        : k == SCENE_STAGE ? stage_values()
                        : k == SCENE_VIEW  ? view_values()
                                           : NULL;
    if (!value)
        return &keys[k].info;
    made[k] = keys[k].info;
    made[k].value = value;
    return &made[k];
}

int lesson_scene_key_from_name(const char *name)
{
    for (int k = 0; k < SCENE_KEY_COUNT; k++)
        if (strcmp(keys[k].info.name, name) == 0)
            return k;
    return -1;
}

const char *lesson_scene_key_list(char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < SCENE_KEY_COUNT && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "", keys[k].info.name);
    return buf;
}

bool lesson_scene_key_read(struct lesson *l, struct lesson_scene *sc, int k, const char *value,
                           int line)
{
    return keys[k].read(l, sc, value, line);
}

void lesson_state_apply(struct lesson_state *st, const struct lesson_scene *sc)
{
    st->focus = NULL; /* a focus belongs to its own step, and so do a show and a scroll */
    st->show = NULL;
    st->scroll = NULL;
    /* in a scene that trains, heads, seed and d_model are the model's (put_train) */
    const unsigned model = (sc->set & (1u << SCENE_TRAIN))
                               ? (1u << SCENE_HEADS) | (1u << SCENE_SEED) | (1u << SCENE_D_MODEL)
                               : 0u;
    for (int k = 0; k < SCENE_KEY_COUNT; k++)
        if (sc->set & (1u << k) & ~model)
            keys[k].apply(st, sc);
}
