/* check.c - checking a whole lesson (--check-lessons): every step's scene
 * applied, its example built, its focus, checkpoint, reveal, layer and
 * training resolved, each problem reported with its line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/example_io.h"
#include "lesson/lesson_parse.h"
#include "lesson/lesson_state.h"
#include "io/model_io.h"
#include "io/text_io.h"
#include "train/train.h"
#include "engine/stages.h"
#include "engine/text_check.h"

/* compare:, steps: and layers: belong to a train: scene; the model of each
 * head (or layer) count must be one that trains. */
static void check_train_scene(struct lesson *l, const struct lesson_scene *sc,
                              const struct lesson_state *st, const char *assets_dir)
{
    const int keys[] = {SCENE_COMPARE, SCENE_STEPS, SCENE_LAYERS};
    for (int i = 0; i < 3; i++)
        if ((sc->set & (1u << keys[i])) && !(sc->set & (1u << SCENE_TRAIN)))
            lesson_diag_add(l, sc->key_line[keys[i]], "%s: goes with train: in the same scene",
                            lesson_scene_key_info(keys[i])->name);
    if (!(sc->set & (1u << SCENE_TRAIN)) || !st->train)
        return;
    if ((sc->set & (1u << SCENE_COMPARE)) && !sc->compare_variants &&
        (sc->set & (1u << SCENE_HEADS)))
        lesson_diag_add(l, sc->key_line[SCENE_HEADS], "heads: compare: gives the head counts");
    if ((sc->set & (1u << SCENE_COMPARE)) && sc->compare_layers && (sc->set & (1u << SCENE_LAYERS)))
        lesson_diag_add(l, sc->key_line[SCENE_LAYERS],
                        "layers: compare: layers=... gives the layer counts");
    const struct train_task *task = train_task_find(st->train);
    struct train_task corpus_task;
    struct train_dataset *corpus = NULL;
    if (!task) { /* a corpus under assets/corpus/ */
        struct mha_error err;
        mha_error_clear(&err);
        corpus = text_io_load_corpus(assets_dir, st->train, &err);
        if (!corpus) {
            char names[256];
            lesson_diag_add(l, sc->key_line[SCENE_TRAIN],
                            "train: unknown task \"%s\"; expected %s, a corpus under "
                            "assets/corpus/, or off (%s)",
                            st->train, train_task_names(names, sizeof names), err.text);
            return;
        }
        train_task_from_dataset(&corpus_task, corpus);
        task = &corpus_task;
    }
    for (int i = 0; i < st->n_train_heads; i++) {
        struct train_config cfg;
        int d, vocab, context, steps;
        float lr;
        lesson_train_sizes(st, task, &d, &vocab, &context, &steps, &lr);
        train_task_config(task, d,
                          st->train_compare_layers ? TRAIN_DEFAULT_HEADS : st->train_heads[i],
                          vocab, context, &cfg);
        if (st->train_compare_variants)
            cfg.variant = st->train_variants[i];
        cfg.layers = st->train_layers;
        struct mha_error err;
        mha_error_clear(&err);
        if (train_config_check(&cfg, &err) != 0)
            lesson_diag_add(l,
                            sc->key_line[(sc->set & (1u << SCENE_COMPARE)) ? SCENE_COMPARE
                                         : (sc->set & (1u << SCENE_HEADS)) ? SCENE_HEADS
                                                                           : SCENE_TRAIN],
                            "train: %s", err.text);
    }
    train_dataset_free(corpus);
}

/* The check builds each step's example only as far as it needs: sizes and
 * labels (for heads, focus and the trace's size), numbers only for a
 * checkpoint that computes its answer, and a step whose example is the one
 * before it reuses it.  A lesson of 300 scenes of 300 tokens at d_model 512
 * took 18 s to check (every scene drew its numbers and ran); it takes well
 * under a second. */

struct check_cache {
    struct lesson_state key; /* what ex was built from */
    struct mha_example *ex;
    bool drawn;           /* ex holds its numbers (loaded, or generated from the seed) */
    struct mha_trace *t;  /* ex run, once a checkpoint needed it */
    struct mha_error err; /* when ex is NULL: why it cannot be built */
};

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* The same example but perhaps for the seed: same source, sizes, labels
 * and flags. */
static bool same_shape(const struct lesson_state *a, const struct lesson_state *b)
{
    return same_text(a->load, b->load) && same_text(a->words, b->words) &&
           same_text(a->tokens, b->tokens) && a->d_model == b->d_model && a->heads == b->heads &&
           a->causal == b->causal && a->scaled == b->scaled;
}

/* A generated example with its sizes and labels but every number zero, as
 * mha_example_from_words would build it before drawing the numbers. */
static struct mha_example *shape_only(const struct lesson_state *st, struct mha_error *err)
{
    const char *text = st->tokens ? st->tokens : "";
    char *copy = strdup(text);
    const char **words = malloc((strlen(text) / 2 + 2) * sizeof *words);
    if (!copy || !words) {
        free(copy);
        mha_error_set(err, "out of memory");
        return NULL;
    }
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t\n", &save); w;
         w = strtok_r(NULL, " \t\n", &save))
        words[n++] = w;
    struct mha_example *ex = NULL;
    int bad = 0;
    for (int i = 0; i < n && !bad && n <= MHA_MAX_TOKENS; i++)
        bad = mha_label_check(words[i], i, err);
    if (n > MHA_MAX_TOKENS)
        mha_error_set(err, "%d tokens: at most %d are allowed", n, MHA_MAX_TOKENS);
    else if (!bad)
        ex = mha_example_new(n ? n : 4, n ? n : 4, st->d_model, st->heads ? st->heads : 2, false,
                             err);
    for (int i = 0; ex && i < n; i++)
        if (mha_example_set_token(ex, false, i, words[i])) {
            mha_example_free(ex);
            ex = NULL;
            mha_error_set(err, "out of memory");
        }
    free(words);
    free(copy);
    if (ex) {
        ex->seed = st->seed;
        if (st->causal >= 0)
            ex->causal = st->causal;
        if (st->scaled >= 0)
            ex->scaled = st->scaled;
    }
    return ex;
}

/* The example of state st into the cache (reused when it is the same). */
static void cache_build(struct check_cache *c, const struct lesson_state *st,
                        const char *assets_dir)
{
    if (c->key.d_model && (c->ex || c->key.load) && same_shape(&c->key, st)) {
        if (c->key.seed != st->seed && !st->load) { /* other numbers, drawn when needed */
            c->key.seed = st->seed;
            c->ex->seed = st->seed;
            c->drawn = false;
            mha_trace_free(c->t);
            c->t = NULL;
        }
        return;
    }
    mha_trace_free(c->t);
    c->t = NULL;
    mha_example_free(c->ex);
    c->key = *st;
    mha_error_clear(&c->err);
    c->drawn = st->load != NULL;
    c->ex = st->load ? lesson_state_example(st, assets_dir, &c->err) : shape_only(st, &c->err);
}

/* Numbers for the cached example, when a checkpoint needs them. */
static void cache_draw(struct check_cache *c)
{
    if (!c->ex || c->drawn)
        return;
    const bool causal = c->ex->causal, scaled = c->ex->scaled;
    mha_example_generate(c->ex, c->key.seed);
    c->ex->causal = causal;
    c->ex->scaled = scaled;
    c->drawn = true;
}

/* The screen after a step's reveal must build, and its focus resolve. */
static void check_reveal(struct lesson *l, const struct lesson_state *st,
                         const struct lesson_scene *reveal, const char *assets_dir)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex =
        st->load ? lesson_state_example(st, assets_dir, &err) : shape_only(st, &err);
    if (!ex) {
        char buf[1600];
        lesson_diag_add(l, reveal->line, "the example after this reveal cannot be built: %s",
                        mha_error_format(&err, buf, sizeof buf));
        return;
    }
    struct lesson_focus f;
    if (st->focus && st->view == MHA_VIEW_NONE &&
        lesson_focus_resolve(st->focus, st->stage, ex, &f, &err))
        lesson_diag_add(
            l, (reveal->set & (1u << SCENE_FOCUS)) ? reveal->key_line[SCENE_FOCUS] : reveal->line,
            "after the reveal: %s", err.text);
    mha_example_free(ex);
}

/* A step whose example cannot be built, named at the scene key that sizes it. */
static void check_no_example(struct lesson *l, const struct lesson_step *step, int line,
                             const struct check_cache *cache)
{
    char buf[1600];
    int key_line = line;
    if (step->has_scene) {
        const struct lesson_scene *sc = &step->scene;
        int keys[] = {SCENE_LOAD, SCENE_HEADS, SCENE_D_MODEL, SCENE_TOKENS};
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++)
            if (sc->set & (1u << keys[k])) {
                key_line = sc->key_line[keys[k]];
                break;
            }
    }
    lesson_diag_add(l, key_line, "the example of this step cannot be built: %s",
                    mha_error_format(&cache->err, buf, sizeof buf));
}

/* The trace of the cached example into *out: the trace's size is checked
 * (mha_trace_new refuses one that is too large before allocating); it is
 * made and run only for a checkpoint that computes its answer, once per
 * example.  -1 (and a diagnostic) when it cannot be run. */
static int check_trace(struct lesson *l, const struct lesson_step *step, int line,
                       struct check_cache *cache, struct mha_error *err, struct mha_trace **out)
{
    struct mha_example *ex = cache->ex;
    const bool run = step->has_quiz && step->quiz.computed;
    const size_t bytes = mha_trace_bytes(ex->lq, ex->lk, ex->d_model, ex->heads);
    struct mha_trace *t = cache->t;
    if (!t && (run || bytes == 0 || bytes > MHA_MAX_TRACE_BYTES)) {
        t = mha_trace_new(ex, err);
        if (t) {
            cache_draw(cache);
            if (mha_forward(ex, t, err)) {
                mha_trace_free(t);
                t = NULL;
            } else {
                cache->t = t;
            }
        }
        if (!t) {
            lesson_diag_add(l, line, "the example of this step cannot be run: %s", err->text);
            return -1;
        }
    }
    *out = t;
    return 0;
}

/* The focus of the step must name a cell of its stage. */
static void check_focus(struct lesson *l, const struct lesson_step *step,
                        const struct lesson_state *st, const struct mha_example *ex,
                        struct mha_error *err)
{
    if (st->focus && st->view == MHA_VIEW_NONE) {
        struct lesson_focus f;
        if (lesson_focus_resolve(st->focus, st->stage, ex, &f, err))
            lesson_diag_add(l, step->scene.key_line[SCENE_FOCUS], "%s", err->text);
    }
    if (st->focus && st->view != MHA_VIEW_NONE)
        lesson_diag_add(l, step->scene.key_line[SCENE_FOCUS],
                        "focus points at a cell of a stage, but this step shows the %s "
                        "view",
                        mha_view_name(st->view));
    if (st->scroll && st->view == MHA_VIEW_NONE)
        lesson_diag_add(l, step->scene.key_line[SCENE_SCROLL],
                        "scroll names a row of a view's table, but this step shows a stage; "
                        "give view: too, or focus: for a stage's cell");
    const int show_line = step->scene.key_line[SCENE_SHOW];
    if (st->show && st->view != MHA_VIEW_NONE)
        lesson_diag_add(l, show_line,
                        "show names a row of a stage's matrix, but this step shows the %s view",
                        mha_view_name(st->view));
    else if (st->show) {
        struct lesson_show s;
        if (lesson_show_resolve(st->show, st->stage, ex, &s, err))
            lesson_diag_add(l, show_line, "%s", err->text);
    }
}

/* The checkpoint's answer must compute (and be one of its choices) and
 * what it hides must exist. */
static void check_quiz(struct lesson *l, const struct lesson_quiz *q, const struct mha_example *ex,
                       const struct mha_trace *t, struct mha_error *err)
{
    struct lesson_answer a;
    if (lesson_quiz_expected(q, ex, t, &a, err))
        lesson_diag_add(l, q->compute_line ? q->compute_line : q->line, "%s", err->text);
    else if (q->computed && !a.numeric && q->n_choices > 0) {
        bool found = false;
        for (int i = 0; i < q->n_choices; i++)
            found = found || !strcmp(q->choices[i], a.text);
        if (!found)
            lesson_diag_add(l, q->compute_line,
                            "the computed answer \"%s\" is not one of the choices", a.text);
    }
    struct lesson_hide h;
    if (lesson_quiz_hide(q, ex, &h, err))
        lesson_diag_add(l, q->hide_line ? q->hide_line : q->line, "%s", err->text);
}

/* layer: names a layer of the model the step shows: one that trains (of
 * every pane, under compare:), or a model file loaded (its own check, as
 * it is read, names a layer it does not have). */
static void check_layer(struct lesson *l, const struct lesson_step *step,
                        const struct lesson_state *st, const char *assets_dir)
{
    if (st->layer < 0 || !step->has_scene)
        return;
    const struct lesson_scene *sc = &step->scene;
    const int line = (sc->set & (1u << SCENE_LAYER)) ? sc->key_line[SCENE_LAYER] : sc->line;
    if (st->train) {
        int fewest = st->train_compare_layers ? TRAIN_MAX_LAYERS : st->train_layers;
        for (int i = 0; st->train_compare_layers && i < st->n_train_heads; i++)
            fewest = st->train_heads[i] < fewest ? st->train_heads[i] : fewest;
        if (st->layer >= fewest)
            lesson_diag_add(l, line, "layer: %d, but the model%s trained here %s %d layer%s",
                            st->layer, st->n_train_heads > 1 ? "s" : "",
                            st->n_train_heads > 1 ? "have as few as" : "has", fewest,
                            fewest == 1 ? "" : "s");
        return;
    }
    char path[4096];
    if (st->load)
        lesson_load_path(st, assets_dir, path, sizeof path);
    if (!st->load || !model_io_is_model_file(path))
        lesson_diag_add(l, line,
                        "layer: goes with a model of layers (a load: of a model file, or train: "
                        "with layers:)");
}

/* One step with the state st before it (updated to the state after). */
static void check_step(struct lesson *l, int s, struct lesson_state *st, struct check_cache *cache,
                       const char *assets_dir)
{
    struct lesson_step *step = &l->steps[s];
    if (step->has_scene)
        lesson_state_apply(st, &step->scene);
    else
        st->focus = st->show = NULL;
    int line = step->has_scene ? step->scene.line : step->line;
    if (!step->has_scene)
        lesson_diag_add(l, step->line, "step %d has no ```mha scene; every step sets up the screen",
                        s + 1);
    struct mha_error err;
    mha_error_clear(&err);
    if (step->has_scene)
        check_train_scene(l, &step->scene, st, assets_dir);
    check_layer(l, step, st, assets_dir);
    cache_build(cache, st, assets_dir);
    struct mha_example *ex = cache->ex;
    if (!ex) {
        check_no_example(l, step, line, cache);
        return;
    }
    struct mha_trace *t;
    if (check_trace(l, step, line, cache, &err, &t))
        return;
    check_focus(l, step, st, ex, &err);
    if (step->has_quiz)
        check_quiz(l, &step->quiz, ex, t, &err);
    if (step->has_reveal) {
        if (!step->has_quiz)
            lesson_diag_add(l, step->reveal.line,
                            "a ```reveal scene is applied once the step's checkpoint is "
                            "answered, but this step has no ```quiz");
        lesson_apply_reveal(st, &step->reveal);
        check_reveal(l, st, &step->reveal, assets_dir);
    }
}

int lesson_check(struct lesson *l, const char *assets_dir)
{
    struct lesson_state st;
    lesson_state_init(&st);
    struct check_cache cache = {0};
    for (int s = 0; s < l->n_steps; s++)
        check_step(l, s, &st, &cache, assets_dir);
    mha_trace_free(cache.t);
    mha_example_free(cache.ex);
    return l->n_diags;
}
