/* state.c - the screen state of a lesson step, its example and its focus. */
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

/* The file a scene's load: names, under assets_dir. */
static void load_path(const struct lesson_state *st, const char *assets_dir, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", assets_dir ? assets_dir : "assets", st->load);
}

struct view_inputs lesson_view_inputs(const struct lesson_state *st, const struct mha_example *ex,
                                      const char *assets_dir, char *path, size_t n)
{
    if (st->load)
        load_path(st, assets_dir, path, n);
    return (struct view_inputs){.ex = ex,
                                .batch = st->batch,
                                .seq = st->seq,
                                .preset = st->preset,
                                .model_path = st->load ? path : NULL};
}

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
    st->layer = -1;
}

void lesson_state_for_trained(struct lesson_state *st)
{
    st->view = MHA_VIEW_NONE;
    st->tokens = NULL;
    st->load = NULL;
    st->causal = -1;
    st->scaled = -1;
    st->seq = 0;
}

/* lesson_state_apply is in scene_keys.c, next to the keys it applies. */

/* A reveal changes what it names; the cell the cursor is on stays unless
 * it names another. */
static void apply_reveal(struct lesson_state *st, const struct lesson_scene *reveal)
{
    const char *focus = st->focus, *show = st->show;
    lesson_state_apply(st, reveal);
    if (!(reveal->set & (1u << SCENE_FOCUS)))
        st->focus = focus;
    if (!(reveal->set & (1u << SCENE_SHOW)))
        st->show = show;
}

void lesson_state_at_answered(const struct lesson *l, int step, bool answered,
                              struct lesson_state *st)
{
    lesson_state_init(st);
    for (int s = 0; s <= step && s < l->n_steps; s++) {
        const struct lesson_step *ls = &l->steps[s];
        if (ls->has_scene)
            lesson_state_apply(st, &ls->scene);
        else
            st->focus = st->show = NULL;
        if (ls->has_reveal && (s < step || answered))
            apply_reveal(st, &ls->reveal);
    }
}

void lesson_state_at(const struct lesson *l, int step, struct lesson_state *st)
{
    lesson_state_at_answered(l, step, false, st);
}

/* The trained model at path on the scene's words.  Its heads, mask and
 * scaling are the model's: a scene that asks for others is refused, as it
 * would otherwise show something it does not say. */
static struct mha_example *model_example(const struct lesson_state *st, const char *path,
                                         struct mha_error *err)
{
    struct mha_example *ex = model_io_example_layer(path, st->words, 1.0f, "words", st->layer, err);
    if (!ex)
        return NULL;
    const char *key = NULL, *has = NULL;
    char heads[32], what[64];
    if (st->heads && st->heads != ex->heads) {
        snprintf(heads, sizeof heads, "%d", ex->heads);
        snprintf(what, sizeof what, "the %d heads", ex->heads);
        key = "heads", has = heads;
    } else if (st->causal >= 0 && st->causal != (ex->causal ? 1 : 0)) {
        has = ex->causal ? "on" : "off";
        snprintf(what, sizeof what, "the causal mask (%s)", has);
        key = "causal";
    } else if (st->scaled >= 0 && st->scaled != (ex->scaled ? 1 : 0)) {
        has = ex->scaled ? "on" : "off";
        snprintf(what, sizeof what, "the scaling (%s)", has);
        key = "scale";
    }
    if (key) {
        mha_example_free(ex);
        mha_error_set(err,
                      "%s: %s is a trained model, which keeps %s it was trained with; give %s: %s "
                      "or load an example file",
                      key, st->load, what, key, has);
        return NULL;
    }
    return ex;
}

struct mha_example *lesson_state_example(const struct lesson_state *st, const char *assets_dir,
                                         struct mha_error *err)
{
    struct mha_example *ex;
    if (st->load) {
        char path[4096];
        load_path(st, assets_dir, path, sizeof path);
        if (model_io_is_model_file(path)) /* a trained model on its sentence, as it is */
            return model_example(st, path, err);
        if (st->words)
            return mha_error_set(err, "words: %s is an example file, not a model", st->load), NULL;
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

/* The name a focus gives tensor m (the stage table's), or NULL. */
static const char *matrix_name(int m)
{
    return mha_tensor_desc((enum mha_tensor)m)->focus;
}

/* The tensor a focus names, or -1. */
static int matrix_from_name(const char *name)
{
    for (int i = 0; i < MHA_TENSOR_COUNT; i++)
        if (matrix_name(i) && !strcmp(name, matrix_name(i)))
            return i;
    return -1;
}

/* A focus may name the matrices a stage shows in its dumps (by name, or Q,
 * K, V for the heads they split into); the stage table says which. */
static bool stage_has(int stage, enum mha_tensor m)
{
    return matrix_name(m) &&
           mha_stage_find(mha_stage_info((enum mha_stage)stage), m, MHA_SHOW_DUMP) >= 0;
}

/* True when m is shown as its per-head tensor there (Q as Q_h): one head's
 * d_k columns. */
static bool shown_by_head(int stage, enum mha_tensor m)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)stage);
    const int i = mha_stage_find(info, m, MHA_SHOW_DUMP);
    return i >= 0 && info->tensors[i] != m;
}

/* True when the stage shows per-head matrices. */
static bool stage_per_head(int stage)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)stage);
    for (int i = 0; i < info->n_tensors; i++)
        if ((info->show[i].flags & MHA_SHOW_DUMP) && info->show[i].form == MHA_FORM_HEADS)
            return true;
    return false;
}

/* Rows, columns and their labels of matrix m (labels NULL: by index), from
 * the stage table's kind and sides of m (stages.h). */
static void matrix_shape(const struct mha_example *ex, enum mha_tensor m, int *rows, int *cols,
                         char *const **row_labels, char *const **col_labels)
{
    const int d = ex->d_model, dk = ex->d_model / ex->heads;
    const struct mha_tensor_desc *desc = mha_tensor_desc(m);
    const bool key_rows = desc->rows == MHA_SIDE_KEY;
    *row_labels = NULL;
    *col_labels = NULL;
    *rows = 0;
    *cols = d;
    if (!desc->focus) /* Q_h, K_h, V_h are named through q, k, v */
        return;
    switch (desc->kind) {
    case MHA_KIND_WEIGHT:
        *rows = d;
        return;
    case MHA_KIND_PER_HEAD:
        *cols = dk;
        break;
    case MHA_KIND_SEQUENCE:
    case MHA_KIND_SCORES:
    case MHA_KIND_PROBS:
        break;
    }
    *rows = key_rows ? ex->lk : ex->lq;
    *row_labels = key_rows ? ex->key_tokens : ex->tokens;
    if (desc->cols == MHA_SIDE_KEY) {
        *cols = ex->lk;
        *col_labels = ex->key_tokens;
    }
}

int lesson_focus_resolve(const char *spec, int stage, const struct mha_example *ex,
                         struct lesson_focus *out, struct mha_error *err)
{
    memset(out, 0, sizeof *out);
    out->matrix = mha_stage_info((enum mha_stage)stage)->focus;
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
            const int m = matrix_from_name(p);
            if (m < 0)
                return mha_error_set(err, "focus: unknown matrix \"%s\"", p);
            if (!stage_has(stage, (enum mha_tensor)m))
                return mha_error_set(err, "focus: the %s stage does not show \"%s\"",
                                     mha_stage_name((enum mha_stage)stage), p);
            out->matrix = (enum mha_tensor)m;
        } else {
            return mha_error_set(err,
                                 "focus: \"%s\" is not understood; expected head N, row R or "
                                 "col C",
                                 p);
        }
    }
    bool has_heads = stage_per_head(stage);
    if (headed && !has_heads)
        return mha_error_set(err, "focus: the %s stage has no per-head matrices; drop \"head\"",
                             mha_stage_name((enum mha_stage)stage));
    int rows = 0, cols = 0;
    char *const *rl, *const *cl;
    matrix_shape(ex, out->matrix, &rows, &cols, &rl, &cl);
    if (shown_by_head(stage, out->matrix))
        cols = ex->d_model / ex->heads;
    if (row) {
        out->row = lesson_find_label(rl, rows, row);
        if (out->row < 0)
            return mha_error_set(err, "focus: row \"%s\" is not a row of %s (%d rows%s)", row,
                                 matrix_name(out->matrix), rows,
                                 rl ? ": use a token or a 0-based index" : "");
    }
    if (col) {
        out->col = lesson_find_label(cl, cols, col);
        if (out->col < 0)
            return mha_error_set(err, "focus: col \"%s\" is not a column of %s (%d columns)", col,
                                 matrix_name(out->matrix), cols);
    }
    return 0;
}

int lesson_show_resolve(const char *spec, int stage, const struct mha_example *ex,
                        struct lesson_show *out, struct mha_error *err)
{
    memset(out, 0, sizeof *out);
    bool row = false;
    char buf[512];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        while (*p == ' ')
            p++;
        if (!strncmp(p, "head ", 5) || !strncmp(p, "col ", 4))
            return mha_error_set(err,
                                 "show: \"%s\": a show names a matrix and a row, which every "
                                 "head shows (focus points at one cell)",
                                 p);
        row = row || !strncmp(p, "row ", 4);
    }
    if (!row)
        return mha_error_set(err, "show: \"%s\" names no row; expected e.g. weights, row now",
                             spec);
    struct lesson_focus f;
    if (lesson_focus_resolve(spec, stage, ex, &f, err)) {
        if (!strncmp(err->text, "focus:", 6)) { /* the same words, under this key's name */
            char text[sizeof err->text];
            snprintf(text, sizeof text, "show:%s", err->text + 6);
            snprintf(err->text, sizeof err->text, "%s", text);
        }
        return -1;
    }
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)stage);
    const int i = mha_stage_find(info, f.matrix, MHA_SHOW_SCREEN);
    if (i < 0 || info->show[i].form != MHA_FORM_HEADS)
        return mha_error_set(err,
                             "show: the %s stage does not show %s head by head; show names a "
                             "matrix every head has (focus points at one cell of any)",
                             mha_stage_name((enum mha_stage)stage), matrix_name(f.matrix));
    out->matrix = f.matrix;
    out->row = f.row;
    return 0;
}

/* ---- cells a checkpoint hides ---- */

static bool has_heads(enum mha_tensor m)
{
    return m >= MHA_TENSOR_SCORES && m <= MHA_TENSOR_CONTEXT;
}

static int hide_spec(const char *spec, const struct mha_example *ex, struct lesson_hide *out,
                     struct mha_error *err)
{
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
        if (part == 0) {
            const int m = matrix_from_name(p);
            if (m < 0)
                return mha_error_set(err,
                                     "hide: \"%s\" is not a matrix; start with one such as "
                                     "weights, scores or context",
                                     p);
            out->tensor = (enum mha_tensor)m;
        } else if (!strncmp(p, "head ", 5)) {
            char *end;
            long h = strtol(p + 5, &end, 10);
            if (!has_heads(out->tensor))
                return mha_error_set(err, "hide: %s has no heads; drop \"%s\"",
                                     matrix_name(out->tensor), p);
            if (*end || h < 0 || h >= ex->heads)
                return mha_error_set(err, "hide: \"%s\": heads are numbered 0..%d here", p,
                                     ex->heads - 1);
            out->head = (int)h;
        } else if (!strncmp(p, "row ", 4)) {
            row = p + 4;
        } else if (!strncmp(p, "col ", 4)) {
            col = p + 4;
        } else {
            return mha_error_set(err,
                                 "hide: \"%s\" is not understood; expected a matrix, then "
                                 "head N, row R or col C",
                                 p);
        }
    }
    int rows = 0, cols = 0;
    char *const *rl, *const *cl;
    matrix_shape(ex, out->tensor, &rows, &cols, &rl, &cl);
    if (row && (out->row = lesson_find_label(rl, rows, row)) < 0)
        return mha_error_set(err, "hide: row \"%s\" is not a row of %s (%d rows)", row,
                             matrix_name(out->tensor), rows);
    if (col && (out->col = lesson_find_label(cl, cols, col)) < 0)
        return mha_error_set(err, "hide: col \"%s\" is not a column of %s (%d columns)", col,
                             matrix_name(out->tensor), cols);
    return 0;
}

int lesson_quiz_hide(const struct lesson_quiz *q, const struct mha_example *ex,
                     struct lesson_hide *out, struct mha_error *err)
{
    *out = (struct lesson_hide){false, MHA_TENSOR_WEIGHTS, -1, -1, -1};
    if (!q)
        return 0;
    if (q->hide) {
        if (hide_spec(q->hide, ex, out, err))
            return -1;
        out->active = true;
        return 0;
    }
    struct lesson_compute c;
    if (!q->computed || !q->compute || lesson_compute_parse(q->compute, &c))
        return 0;
    if (c.kind != COMPUTE_WEIGHT && c.kind != COMPUTE_ARGMAX)
        return 0;
    if (c.head < 0 || c.head >= ex->heads)
        return mha_error_set(err, "compute: head %d: heads are numbered 0..%d here", c.head,
                             ex->heads - 1);
    out->head = c.head;
    out->row = lesson_find_label(ex->tokens, ex->lq, c.row);
    if (out->row < 0)
        return mha_error_set(err, "compute: row \"%s\" is not a query token here", c.row);
    if (c.kind == COMPUTE_WEIGHT) {
        out->col = lesson_find_label(ex->key_tokens, ex->lk, c.col);
        if (out->col < 0)
            return mha_error_set(err, "compute: col \"%s\" is not a key token here", c.col);
    }
    out->active = true;
    return 0;
}

bool lesson_hide_covers(const struct lesson_hide *h, const struct mha_cell *c)
{
    if (!h || !h->active)
        return false;
    const bool per_head_qkv = h->tensor >= MHA_TENSOR_Q && h->tensor <= MHA_TENSOR_V &&
                              c->tensor == h->tensor + (MHA_TENSOR_QH - MHA_TENSOR_Q);
    if (per_head_qkv) /* Q_h shows Q's numbers by head: a hidden column is hidden there too */
        return (h->row < 0 || h->row == c->row) && h->col < 0;
    if (c->tensor != h->tensor)
        return false;
    return (h->head < 0 || h->head == c->head) && (h->row < 0 || h->row == c->row) &&
           (h->col < 0 || h->col == c->col);
}

/* ---- checking a whole lesson ---- */

void lesson_train_sizes(const struct lesson_state *st, const struct train_task *task, int *d_model,
                        int *vocab, int *context, int *steps, float *lr)
{
    if (task->data && task->data->text) { /* a text: its dataset's words and rows */
        *d_model = st->train_d_model ? st->train_d_model : TRAIN_TEXT_DEFAULT_D_MODEL;
        *vocab = task->data->vocab;
        *context = task->data->len;
        *steps = st->train_steps ? st->train_steps : TRAIN_TEXT_DEFAULT_STEPS;
        *lr = st->train_layers > 1 ? TRAIN_TEXT_DEFAULT_LR_LAYERS : TRAIN_TEXT_DEFAULT_LR;
        return;
    }
    *d_model = st->train_d_model       ? st->train_d_model
               : task->default_d_model ? task->default_d_model
                                       : TRAIN_DEFAULT_D_MODEL;
    *vocab = task->default_vocab ? task->default_vocab : TRAIN_DEFAULT_VOCAB;
    *context = task->default_context ? task->default_context : TRAIN_DEFAULT_CONTEXT;
    *steps = st->train_steps       ? st->train_steps
             : task->default_steps ? task->default_steps
                                   : TRAIN_DEFAULT_STEPS;
    *lr = task->default_lr > 0 ? task->default_lr : TRAIN_DEFAULT_LR;
}

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
    if ((sc->set & (1u << SCENE_COMPARE)) && (sc->set & (1u << SCENE_HEADS)))
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
        load_path(st, assets_dir, path, sizeof path);
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
        apply_reveal(st, &step->reveal);
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
