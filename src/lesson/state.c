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
void lesson_load_path(const struct lesson_state *st, const char *assets_dir, char *path, size_t n)
{
    snprintf(path, n, "%s/%s", assets_dir ? assets_dir : "assets", st->load);
}

struct view_inputs lesson_view_inputs(const struct lesson_state *st, const struct mha_example *ex,
                                      const char *assets_dir, char *path, size_t n)
{
    if (st->load)
        lesson_load_path(st, assets_dir, path, n);
    return (struct view_inputs){.ex = ex,
                                .batch = st->batch,
                                .seq = st->seq,
                                .preset = st->preset,
                                .clean = st->clean,
                                .corrupt = st->corrupt,
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
void lesson_apply_reveal(struct lesson_state *st, const struct lesson_scene *reveal)
{
    const char *focus = st->focus, *show = st->show, *scroll = st->scroll;
    lesson_state_apply(st, reveal);
    if (!(reveal->set & (1u << SCENE_FOCUS)))
        st->focus = focus;
    if (!(reveal->set & (1u << SCENE_SHOW)))
        st->show = show;
    if (!(reveal->set & (1u << SCENE_SCROLL)))
        st->scroll = scroll;
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
            st->focus = st->show = st->scroll = NULL;
        if (ls->has_reveal && (s < step || answered))
            lesson_apply_reveal(st, &ls->reveal);
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
        lesson_load_path(st, assets_dir, path, sizeof path);
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

int lesson_stage_matrices(int stage, const char **names, int max, bool *per_head)
{
    const enum mha_tensor first = mha_stage_info((enum mha_stage)stage)->focus;
    int n = 0;
    if (n < max && stage_has(stage, first))
        names[n++] = matrix_name(first);
    for (int m = 0; m < MHA_TENSOR_COUNT && n < max; m++)
        if (m != (int)first && stage_has(stage, (enum mha_tensor)m))
            names[n++] = matrix_name(m);
    *per_head = stage_per_head(stage);
    return n;
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
            /* attention: the scores, the scaled scores and the weights, which
             * order a row alike */
            out->attention = !strcmp(p, "attention");
            const int m = out->attention ? MHA_TENSOR_WEIGHTS : matrix_from_name(p);
            if (m < 0)
                return mha_error_set(err,
                                     "hide: \"%s\" is not a matrix; start with one such as "
                                     "weights, scores or context (or attention: the three "
                                     "of them)",
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
    *out = (struct lesson_hide){false, MHA_TENSOR_WEIGHTS, -1, -1, -1, false};
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
    /* hide: attention: the scores, their scaled form and the weights */
    const bool scores_kind =
        h->attention && c->tensor >= MHA_TENSOR_SCORES && c->tensor <= MHA_TENSOR_WEIGHTS;
    if (c->tensor != h->tensor && !scores_kind)
        return false;
    return (h->head < 0 || h->head == c->head) && (h->row < 0 || h->row == c->row) &&
           (h->col < 0 || h->col == c->col);
}

/* ---- the sizes a lesson's training takes ---- */

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

void lesson_train_ask(const struct lesson_state *st, const struct train_task *task,
                      struct train_ask *ask)
{
    *ask = (struct train_ask){.task = task,
                              .seed = st->train_seed,
                              .layers = st->train_layers,
                              .n_panes = st->n_train_heads,
                              .compare_layers = st->train_compare_layers,
                              .compare_variants = st->train_compare_variants,
                              .heads = TRAIN_DEFAULT_HEADS};
    _Static_assert(sizeof ask->counts == sizeof st->train_heads, "a scene's panes are a run's");
    memcpy(ask->counts, st->train_heads, sizeof ask->counts);
    for (int i = 0; st->train_compare_variants && i < st->n_train_heads; i++)
        ask->variants[i] = st->train_variants[i];
    if (task)
        lesson_train_sizes(st, task, &ask->d_model, &ask->vocab, &ask->context, &ask->steps,
                           &ask->lr);
}
