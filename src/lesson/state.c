/* state.c - the screen state of a lesson step, its example and its focus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "example_io.h"
#include "lesson_parse.h"
#include "lesson_state.h"
#include "text_check.h"

void lesson_state_init(struct lesson_state *st)
{
    memset(st, 0, sizeof *st);
    st->stage = MHA_STAGE_INPUT;
    st->d_model = 6;
    st->heads = 2;
    st->seed = 42;
    st->causal = -1;
    st->scaled = -1;
    st->batch = 2;
}

void lesson_state_apply(struct lesson_state *st, const struct lesson_scene *sc)
{
#define HAS(k) (sc->set & (1u << (k)))
    st->focus = HAS(SCENE_FOCUS) ? sc->focus : NULL;
    if (HAS(SCENE_LOAD)) {
        st->load = sc->load;
        st->heads = 0;
        st->causal = st->scaled = -1;
    }
    if (HAS(SCENE_TOKENS) || HAS(SCENE_D_MODEL) || HAS(SCENE_SEED)) {
        if (st->load) {
            /* leaving a loaded example: back to the generated one's defaults */
            st->load = NULL;
            if (!st->heads)
                st->heads = 2;
        }
        if (HAS(SCENE_TOKENS))
            st->tokens = sc->tokens;
        if (HAS(SCENE_D_MODEL))
            st->d_model = sc->d_model;
        if (HAS(SCENE_SEED))
            st->seed = sc->seed;
    }
    if (HAS(SCENE_HEADS))
        st->heads = sc->heads;
    if (HAS(SCENE_CAUSAL))
        st->causal = sc->causal;
    if (HAS(SCENE_SCALE))
        st->scaled = sc->scaled;
    if (HAS(SCENE_STAGE)) {
        st->stage = sc->stage;
        st->view = MHA_VIEW_NONE;
    }
    if (HAS(SCENE_VIEW))
        st->view = sc->view;
    if (HAS(SCENE_BATCH))
        st->batch = sc->batch;
    if (HAS(SCENE_SEQ))
        st->seq = sc->seq;
    if (HAS(SCENE_PRESET))
        st->preset = sc->preset;
#undef HAS
}

void lesson_state_at(const struct lesson *l, int step, struct lesson_state *st)
{
    lesson_state_init(st);
    for (int s = 0; s <= step && s < l->n_steps; s++)
        if (l->steps[s].has_scene)
            lesson_state_apply(st, &l->steps[s].scene);
}

struct mha_example *lesson_state_example(const struct lesson_state *st, const char *assets_dir,
                                         struct mha_error *err)
{
    struct mha_example *ex;
    if (st->load) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", assets_dir ? assets_dir : "assets", st->load);
        ex = mha_example_load(path, err);
        if (!ex)
            return NULL;
        if (st->heads && st->heads != ex->heads) {
            if (mha_check_sizes(ex->lq, ex->lk, ex->d_model, st->heads, err)) {
                mha_example_free(ex);
                return NULL;
            }
            ex->heads = st->heads;
        }
    } else {
        ex = mha_example_from_words(st->tokens, st->d_model, st->heads ? st->heads : 2, st->seed,
                                    err);
        if (!ex)
            return NULL;
    }
    if (st->causal >= 0)
        ex->causal = st->causal;
    if (st->scaled >= 0)
        ex->scaled = st->scaled;
    return ex;
}

/* ---- focus ---- */

static const char *const matrix_names[LM_COUNT] = {
    "query", "key", "value", "w_q", "w_k", "w_v", "w_o", "q", "k", "v",
    "scores", "scaled", "weights", "context", "merged", "output",
};

const char *lesson_matrix_name(enum lesson_matrix m)
{
    return (m >= 0 && m < LM_COUNT) ? matrix_names[m] : "";
}

/* Matrices each stage shows, first = default. */
static bool stage_has(int stage, enum lesson_matrix m)
{
    switch (stage) {
    case MHA_STAGE_INPUT: return m <= LM_W_O;
    case MHA_STAGE_PROJECTION:
    case MHA_STAGE_SPLIT:
    case MHA_STAGE_TRANSPOSE: return m >= LM_Q && m <= LM_V;
    case MHA_STAGE_ATTENTION: return m >= LM_SCORES && m <= LM_CONTEXT;
    case MHA_STAGE_MERGE: return m == LM_MERGED;
    case MHA_STAGE_OUTPUT: return m == LM_OUTPUT;
    }
    return false;
}

static enum lesson_matrix stage_default(int stage)
{
    static const enum lesson_matrix d[MHA_STAGE_COUNT] = {
        LM_QUERY, LM_Q, LM_Q, LM_Q, LM_WEIGHTS, LM_MERGED, LM_OUTPUT};
    return d[stage];
}

/* Rows, columns and their labels of matrix m (labels NULL: by index). */
static void matrix_shape(const struct mha_example *ex, enum lesson_matrix m, int *rows,
                         int *cols, char *const **row_labels, char *const **col_labels)
{
    const int d = ex->d_model, dk = ex->d_model / ex->heads;
    *row_labels = NULL;
    *col_labels = NULL;
    *cols = d;
    switch (m) {
    case LM_QUERY: case LM_Q: case LM_MERGED: case LM_OUTPUT:
        *rows = ex->lq;
        *row_labels = ex->tokens;
        break;
    case LM_KEY: case LM_VALUE: case LM_K: case LM_V:
        *rows = ex->lk;
        *row_labels = ex->key_tokens;
        break;
    case LM_W_Q: case LM_W_K: case LM_W_V: case LM_W_O:
        *rows = d;
        break;
    case LM_SCORES: case LM_SCALED: case LM_WEIGHTS:
        *rows = ex->lq;
        *cols = ex->lk;
        *row_labels = ex->tokens;
        *col_labels = ex->key_tokens;
        break;
    case LM_CONTEXT:
        *rows = ex->lq;
        *cols = dk;
        *row_labels = ex->tokens;
        break;
    case LM_COUNT:
        *rows = 0;
        break;
    }
}

int lesson_focus_resolve(const char *spec, int stage, const struct mha_example *ex,
                         struct lesson_focus *out, struct mha_error *err)
{
    memset(out, 0, sizeof *out);
    out->matrix = stage_default(stage);
    bool headed = false;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    const char *row = NULL, *col = NULL;
    int part = 0;
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p;
         p = strtok_r(NULL, ",", &save), part++) {
        while (*p == ' ')
            p++;
        size_t n = strlen(p);
        while (n > 0 && p[n - 1] == ' ')
            p[--n] = '\0';
        if (!strncmp(p, "head ", 5)) {
            char *end;
            long h = strtol(p + 5, &end, 10);
            if (*end || h < 0 || h >= ex->heads)
                return mha_error_set(err, "focus: \"%s\": heads are numbered 0..%d here", p,
                                     ex->heads - 1);
            out->head = (int)h;
            headed = true;
        } else if (!strncmp(p, "row ", 4)) {
            row = p + 4;
        } else if (!strncmp(p, "col ", 4)) {
            col = p + 4;
        } else if (part == 0) {
            int m = -1;
            for (int i = 0; i < LM_COUNT; i++)
                if (!strcmp(p, matrix_names[i]))
                    m = i;
            if (m < 0)
                return mha_error_set(err, "focus: unknown matrix \"%s\"", p);
            if (!stage_has(stage, (enum lesson_matrix)m))
                return mha_error_set(err, "focus: the %s stage does not show \"%s\"",
                                     mha_stage_name((enum mha_stage)stage), p);
            out->matrix = (enum lesson_matrix)m;
        } else {
            return mha_error_set(err,
                                 "focus: \"%s\" is not understood; expected head N, row R or "
                                 "col C",
                                 p);
        }
    }
    bool has_heads = stage == MHA_STAGE_TRANSPOSE || stage == MHA_STAGE_ATTENTION;
    if (headed && !has_heads)
        return mha_error_set(err, "focus: the %s stage has no per-head matrices; drop \"head\"",
                             mha_stage_name((enum mha_stage)stage));
    int rows = 0, cols = 0;
    char *const *rl, *const *cl;
    matrix_shape(ex, out->matrix, &rows, &cols, &rl, &cl);
    if (stage == MHA_STAGE_TRANSPOSE)
        cols = ex->d_model / ex->heads;
    if (row) {
        out->row = lesson_find_label(rl, rows, row);
        if (out->row < 0)
            return mha_error_set(err, "focus: row \"%s\" is not a row of %s (%d rows%s)", row,
                                 matrix_names[out->matrix], rows,
                                 rl ? ": use a token or a 0-based index" : "");
    }
    if (col) {
        out->col = lesson_find_label(cl, cols, col);
        if (out->col < 0)
            return mha_error_set(err, "focus: col \"%s\" is not a column of %s (%d columns)",
                                 col, matrix_names[out->matrix], cols);
    }
    return 0;
}

/* ---- checking a whole lesson ---- */

/* The check builds each step's example only as far as it needs: sizes and
 * labels (for heads, focus and the trace's size), numbers only for a
 * checkpoint that computes its answer, and a step whose example is the one
 * before it reuses it.  A lesson of 300 scenes of 300 tokens at d_model 512
 * took 18 s to check (every scene drew its numbers and ran); it takes well
 * under a second. */

struct check_cache {
    struct lesson_state key; /* what ex was built from */
    struct mha_example *ex;
    bool drawn; /* ex holds its numbers (loaded, or generated from the seed) */
    struct mha_trace *t; /* ex run, once a checkpoint needed it */
    struct mha_error err; /* when ex is NULL: why it cannot be built */
};

static bool same_text(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

/* The same example: same source, sizes, labels, seed and flags. */
static bool same_example(const struct lesson_state *a, const struct lesson_state *b)
{
    return same_text(a->load, b->load) && same_text(a->tokens, b->tokens) &&
           a->d_model == b->d_model && a->seed == b->seed && a->heads == b->heads &&
           a->causal == b->causal && a->scaled == b->scaled;
}

/* A generated example with its sizes and labels but every number zero, as
 * mha_example_from_words would build it before drawing the numbers. */
static struct mha_example *shape_only(const struct lesson_state *st, struct mha_error *err)
{
    const char *text = st->tokens ? st->tokens : "";
    char *copy = lesson_strdup(text);
    const char **words = malloc((strlen(text) / 2 + 2) * sizeof *words);
    if (!words) {
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
    if (c->key.d_model && same_example(&c->key, st))
        return;
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

int lesson_check(struct lesson *l, const char *assets_dir)
{
    struct lesson_state st;
    lesson_state_init(&st);
    struct check_cache cache = {0};
    for (int s = 0; s < l->n_steps; s++) {
        struct lesson_step *step = &l->steps[s];
        if (step->has_scene)
            lesson_state_apply(&st, &step->scene);
        else
            st.focus = NULL;
        int line = step->has_scene ? step->scene.line : step->line;
        if (!step->has_scene)
            lesson_diag_add(l, step->line,
                            "step %d has no ```mha scene; every step sets up the screen", s + 1);
        struct mha_error err;
        mha_error_clear(&err);
        cache_build(&cache, &st, assets_dir);
        struct mha_example *ex = cache.ex;
        if (!ex) {
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
                            mha_error_format(&cache.err, buf, sizeof buf));
            continue;
        }
        /* the trace is made (its size is checked) but run only for a
         * checkpoint that computes its answer, once per example */
        const bool run = step->has_quiz && step->quiz.computed;
        struct mha_trace *t = cache.t ? cache.t : mha_trace_new(ex, &err);
        if (t && run && !cache.t) {
            cache_draw(&cache);
            if (mha_forward(ex, t, &err)) {
                mha_trace_free(t);
                t = NULL;
            } else {
                cache.t = t;
            }
        }
        if (!t) {
            lesson_diag_add(l, line, "the example of this step cannot be run: %s", err.text);
            continue;
        }
        if (st.focus && st.view == MHA_VIEW_NONE) {
            struct lesson_focus f;
            if (lesson_focus_resolve(st.focus, st.stage, ex, &f, &err))
                lesson_diag_add(l, step->scene.key_line[SCENE_FOCUS], "%s", err.text);
        }
        if (st.focus && st.view != MHA_VIEW_NONE)
            lesson_diag_add(l, step->scene.key_line[SCENE_FOCUS],
                            "focus points at a cell of a stage, but this step shows the %s "
                            "view",
                            mha_view_name(st.view));
        if (step->has_quiz) {
            struct lesson_answer a;
            if (lesson_quiz_expected(&step->quiz, ex, t, &a, &err))
                lesson_diag_add(l, step->quiz.compute_line ? step->quiz.compute_line
                                                           : step->quiz.line,
                                "%s", err.text);
            else if (step->quiz.computed && !a.numeric && step->quiz.n_choices > 0) {
                bool found = false;
                for (int i = 0; i < step->quiz.n_choices; i++)
                    found = found || !strcmp(step->quiz.choices[i], a.text);
                if (!found)
                    lesson_diag_add(l, step->quiz.compute_line,
                                    "the computed answer \"%s\" is not one of the choices",
                                    a.text);
            }
        }
        if (t != cache.t)
            mha_trace_free(t);
    }
    mha_trace_free(cache.t);
    mha_example_free(cache.ex);
    return l->n_diags;
}
