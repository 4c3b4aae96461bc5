/* ui_link.c - the explorer's state as the options that reopen it. */
#include "ui/state/ui_link.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "lesson/catalog.h"
#include "io/example_io.h"
#include "io/model_io.h"
#include "lesson/lesson_state.h"

/* The name a --focus gives the matrix of tensor x (the stage table's; a
 * per-head tensor by the tensor it splits from); NULL for none. */
static const char *matrix_name(enum mha_tensor x)
{
    if (x < 0 || x >= MHA_TENSOR_COUNT)
        return NULL;
    for (int y = 0; !mha_tensor_desc(x)->focus && y < MHA_TENSOR_COUNT; y++)
        if (mha_tensor_desc((enum mha_tensor)y)->heads == x)
            return mha_tensor_desc((enum mha_tensor)y)->focus;
    return mha_tensor_desc(x)->focus;
}

/* Row i of n as a focus names it: its label when that label finds it (and
 * can be written between commas), else its index when that does. */
static bool name_index(char *const *labels, int n, int i, char *out, size_t on)
{
    if (labels && labels[i][0] && !strchr(labels[i], ',') &&
        !isspace((unsigned char)labels[i][0]) &&
        !isspace((unsigned char)labels[i][strlen(labels[i]) - 1]) &&
        lesson_find_label(labels, n, labels[i]) == i) {
        snprintf(out, on, "%s", labels[i]);
        return true;
    }
    snprintf(out, on, "%d", i);
    return lesson_find_label(labels, n, out) == i;
}

/* Whether x's rows are the keys' tokens (the stage table says). */
static bool key_side(enum mha_tensor x)
{
    return mha_tensor_desc(x)->rows == MHA_SIDE_KEY;
}

static bool is_weight(enum mha_tensor x)
{
    return mha_tensor_desc(x)->kind == MHA_KIND_WEIGHT;
}

static bool is_score(enum mha_tensor x)
{
    return x == MHA_TENSOR_SCORES || x == MHA_TENSOR_SCALED || x == MHA_TENSOR_WEIGHTS;
}

static bool per_head(enum mha_tensor x)
{
    return x == MHA_TENSOR_QH || x == MHA_TENSOR_KH || x == MHA_TENSOR_VH || is_score(x) ||
           x == MHA_TENSOR_CONTEXT;
}

/* True when stage shows per-head tensor x as the columns of the tensor it
 * splits from (the stage table's SPLIT form: Q_h as Q's columns). */
static bool split_there(int stage, enum mha_tensor x)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)stage);
    for (int i = 0; i < info->n_tensors; i++)
        if ((info->show[i].flags & MHA_SHOW_SCREEN) && info->show[i].form == MHA_FORM_SPLIT &&
            mha_tensor_desc(info->tensors[i])->heads == x)
            return true;
    return false;
}

bool ui_link_focus(const struct ui_state *st, const struct mha_cell *cell, char *buf, size_t n)
{
    const struct mha_example *ex = st->ex;
    const char *m = matrix_name(cell->tensor);
    if (st->view != MHA_VIEW_NONE || !m || !mha_cell_valid(st->tr, cell))
        return false;
    int heads, rows, cols, col = cell->col;
    mha_tensor_shape(st->tr, cell->tensor, &heads, &rows, &cols);
    const bool split = per_head(cell->tensor) && split_there(st->stage, cell->tensor);
    if (split) { /* the split stage counts a head's columns across Q, K or V */
        col = cell->head * st->tr->d_k + cell->col;
        cols = ex->d_model;
    }
    char *const *rl = is_weight(cell->tensor)  ? NULL
                      : key_side(cell->tensor) ? ex->key_tokens
                                               : ex->tokens;
    char *const *cl = is_score(cell->tensor) ? ex->key_tokens : NULL;
    char row_name[160], col_name[160], head[32] = "";
    if (!name_index(rl, rows, cell->row, row_name, sizeof row_name) ||
        !name_index(cl, cols, col, col_name, sizeof col_name))
        return false;
    if (per_head(cell->tensor) && !split)
        snprintf(head, sizeof head, ", head %d", cell->head);
    snprintf(buf, n, "%s%s, row %s, col %s", m, head, row_name, col_name);
    /* said is meant: the command line must find this very cell */
    struct lesson_focus f;
    struct mha_error err;
    mha_error_clear(&err);
    if (lesson_focus_resolve(buf, st->stage, ex, &f, &err) != 0)
        return false;
    const struct mha_cell back = ui_lesson_focus_cell(&f, st->stage, st->tr);
    return back.tensor == cell->tensor && back.head == cell->head && back.row == cell->row &&
           back.col == cell->col;
}

static bool same_numbers(const float *a, const float *b, size_t n)
{
    return memcmp(a, b, n * sizeof *a) == 0;
}

/* The example on screen is the one the step's scene builds, and the screen
 * shows the stage or view the scene asks for. */
static bool shows_the_scene(const struct ui_state *st, const struct ui_lessons *ls)
{
    struct lesson_state s;
    lesson_state_at(ls->l, ls->step, &s);
    if (st->view != s.view || (s.view == MHA_VIEW_NONE && st->stage != s.stage))
        return false;
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *sc = lesson_state_example(&s, ls->assets_dir, &err);
    const struct mha_example *ex = st->ex;
    bool same = sc && sc->lq == ex->lq && sc->lk == ex->lk && sc->d_model == ex->d_model &&
                sc->heads == ex->heads && sc->causal == ex->causal && sc->scaled == ex->scaled &&
                sc->has_mask == ex->has_mask && sc->has_bias == ex->has_bias;
    const size_t d = same ? (size_t)ex->d_model : 0;
    same = same && same_numbers(sc->query, ex->query, (size_t)ex->lq * d) &&
           same_numbers(sc->key, ex->key, (size_t)ex->lk * d) &&
           same_numbers(sc->value, ex->value, (size_t)ex->lk * d) &&
           same_numbers(sc->w_q, ex->w_q, d * d) && same_numbers(sc->w_k, ex->w_k, d * d) &&
           same_numbers(sc->w_v, ex->w_v, d * d) && same_numbers(sc->w_o, ex->w_o, d * d);
    for (int i = 0; same && i < ex->lq; i++)
        same = strcmp(sc->tokens[i], ex->tokens[i]) == 0;
    mha_example_free(sc);
    return same;
}

/* The step's scene trains a model and the screen shows one made here (no
 * file holds it, no seed draws it): the step trains it again. */
static bool shows_the_training(const struct ui_state *st, const struct ui_lessons *ls)
{
    struct lesson_state s;
    lesson_state_at(ls->l, ls->step, &s);
    return s.train && !st->generated && !st->load_path[0];
}

/* The lesson as --lesson names it: its number when the bundled lessons
 * find it by that number, else its file. */
static void lesson_name(const struct ui_lessons *ls, char *out, size_t n)
{
    snprintf(out, n, "%s", ls->path);
    if (ls->l->number <= 0)
        return;
    struct lesson_catalog cat = {0};
    char num[16];
    snprintf(num, sizeof num, "%d", ls->l->number);
    lesson_catalog_load(&cat, ls->lessons_dir);
    char *found = lesson_catalog_resolve(&cat, num);
    const char *slash = found ? strrchr(found, '/') : NULL;
    if (found && strcmp(slash ? slash + 1 : found, ls->id) == 0)
        snprintf(out, n, "%s", num);
    free(found);
    lesson_catalog_done(&cat);
}

static char *const default_tokens[] = {"tok 0", "tok 1", "tok 2", "tok 3"};

/* An example drawn from a seed: its tokens, d_model and seed. */
static void generated(const struct ui_state *st, struct ui_link *out)
{
    const struct mha_example *ex = st->ex;
    out->ls.tokens = ex->tokens;
    out->ls.n_tokens = ex->lq;
    out->ls.d_model = ex->d_model;
    out->ls.seed = ex->seed;
    bool plain = true, defaults = ex->lq == 4;
    for (int i = 0; defaults && i < 4; i++)
        defaults = strcmp(ex->tokens[i], default_tokens[i]) == 0;
    for (int i = 0; !defaults && i < ex->lq; i++)
        for (const char *p = ex->tokens[i]; plain && *p; p++)
            plain = !isspace((unsigned char)*p);
    if (ex->cross)
        snprintf(out->note, sizeof out->note,
                 "the keys' own tokens cannot be given on the command line");
    else if (ex->has_mask)
        snprintf(out->note, sizeof out->note, "the mask from the file cannot be given");
    else if (!plain)
        snprintf(out->note, sizeof out->note, "--tokens cannot give tokens with spaces");
}

/* An example from a file: --load, and what the file would turn back on. */
static void loaded(const struct ui_state *st, struct ui_link *out)
{
    if (!st->load_path[0]) { /* its tokens and sizes at least: a command that runs */
        generated(st, out);
        snprintf(out->note, sizeof out->note, "the example's file is not known");
        return;
    }
    snprintf(out->load, sizeof out->load, "%s", st->load_path);
    out->ls.load = out->load;
    struct mha_error err;
    mha_error_clear(&err);
    if (model_io_is_model_file(st->load_path)) { /* a trained model on a sentence */
        out->ls.model = true;
        out->ls.tokens = st->ex->tokens;
        out->ls.n_tokens = st->ex->lq;
        out->ls.has_layer = st->ex->layers > 1 && st->ex->layer != st->ex->layers - 1;
        out->ls.layer = st->ex->layer;
        out->ls.top_p = st->top_p;
        struct mha_example *m = model_io_example(st->load_path, NULL, 1.0f, "words", &err);
        if (m && (m->heads != st->ex->heads || m->causal != st->ex->causal ||
                  m->scaled != st->ex->scaled))
            snprintf(out->note, sizeof out->note,
                     "the model opens with its own heads, mask and scaling");
        mha_example_free(m);
        return;
    }
    struct mha_example *file = mha_example_load(st->load_path, &err);
    if (file && file->causal && !st->ex->causal)
        snprintf(out->note, sizeof out->note, "the file's causal mask comes back on");
    else if (file && !file->scaled && st->ex->scaled)
        snprintf(out->note, sizeof out->note, "the file turns the scaling off");
    mha_example_free(file);
}

void ui_link_fill(const struct ui_state *st, const struct ui_lessons *ls,
                  const struct mha_cell *cursor, enum colorscale_theme theme, bool present,
                  struct ui_link *out)
{
    memset(out, 0, sizeof *out);
    struct link_state *l = &out->ls;
    l->stage = st->stage;
    l->view = st->view != MHA_VIEW_NONE ? ui_view_mode_name(st->view) : NULL;
    l->corrupt = st->view_corrupt[0] ? st->view_corrupt : NULL;
    l->theme = theme != COLORSCALE_THEME_DARK ? colorscale_theme_name(theme) : NULL;
    l->present = present;
    if (ls && ls->l && (shows_the_scene(st, ls) || shows_the_training(st, ls))) {
        lesson_name(ls, out->lesson, sizeof out->lesson);
        l->lesson = out->lesson;
        l->lesson_step = ls->step;
        l->tokens = default_tokens; /* the lesson's scenes set the example up */
        l->n_tokens = 4;
        l->d_model = 6;
        l->seed = 42;
        l->scaled = true;
    } else {
        l->heads = st->ex->heads;
        l->causal = st->ex->causal;
        l->scaled = st->ex->scaled;
        if (st->generated)
            generated(st, out);
        else
            loaded(st, out);
    }
    if (cursor && !l->view) {
        if (ui_link_focus(st, cursor, out->focus, sizeof out->focus))
            l->focus = out->focus;
        else if (!out->note[0])
            snprintf(out->note, sizeof out->note, "--focus cannot name this cell on the %s stage",
                     mha_stage_name((enum mha_stage)st->stage));
    }
}

char *ui_link_text(const struct ui_link *link)
{
    char *cmd = link_command(&link->ls);
    if (!cmd || !link->note[0])
        return cmd;
    const size_t n = strlen(cmd) + strlen(link->note) + 16;
    char *text = malloc(n);
    if (text)
        snprintf(text, n, "%s   (but %s)", cmd, link->note);
    free(cmd);
    return text;
}
