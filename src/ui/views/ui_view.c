/* ui_view.c - the blocks each stage shows, read straight from the trace. */
#include "ui/views/ui_view.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "lesson/lesson_state.h"
#include "ui/state/ui_state.h"

/* Collects blocks into the caller's array. */
struct builder {
    const struct ui_state *st;
    struct ui_block *out;
    int n, max;
    const struct mha_stage_info *info; /* the stage being built */
    bool wide;                         /* room for whole products */
    int width;                         /* the columns the blocks have */
};

static struct ui_block *add(struct builder *b, enum ui_block_kind kind, bool new_row)
{
    if (b->n >= b->max)
        return NULL;
    struct ui_block *k = &b->out[b->n++];
    memset(k, 0, sizeof *k);
    k->kind = kind;
    k->new_row = new_row;
    k->head = -1;
    return k;
}

static void op(struct builder *b, const char *sign)
{
    struct ui_block *k = add(b, UI_BLOCK_OP, false);
    if (k)
        k->op = sign;
}

static char *const *side_labels(const struct mha_example *ex, enum mha_side side)
{
    return side == MHA_SIDE_QUERY ? ex->tokens : side == MHA_SIDE_KEY ? ex->key_tokens : NULL;
}

/* A whole tensor (or head h of it) shown as it is stored. */
static struct ui_block *tensor(struct builder *b, enum mha_tensor x, int h, bool new_row,
                               const char *title)
{
    struct ui_block *k = add(b, UI_BLOCK_MATRIX, new_row);
    if (!k)
        return NULL;
    const struct ui_state *st = b->st;
    int heads, rows, cols;
    mha_tensor_shape(st->tr, x, &heads, &rows, &cols);
    k->data = mha_tensor_data(st->ex, st->tr, x) + mha_idx3(rows, cols, h, 0, 0);
    k->rows = rows, k->cols = cols;
    k->rs = (size_t)cols, k->cs = 1;
    k->range = st->range[x];
    k->tint = UI_TINT_SIGNED;
    k->map = UI_MAP_DIRECT;
    k->base = (struct mha_cell){x, h, 0, 0};
    snprintf(k->title, sizeof k->title, "%s", title ? title : mha_tensor_name(x));
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    k->row_labels = side_labels(st->ex, d->rows);
    k->col_labels = side_labels(st->ex, d->cols);
    return k;
}

/* W shown transposed (Wᵀ), as it multiplies in x·Wᵀ. */
static void transposed(struct builder *b, enum mha_tensor w, const char *title)
{
    struct ui_block *k = tensor(b, w, 0, false, title);
    if (!k)
        return;
    k->rs = 1;
    k->cs = (size_t)b->st->ex->d_model;
    k->map = UI_MAP_TRANSPOSED;
}

/* Rough width of a d-column matrix with token labels, to choose a form. */
static int approx_width(int cols)
{
    return 10 + 6 * cols;
}

static int shown_heads(const struct ui_state *st)
{
    return st->tr->heads < UI_VIEW_MAX_HEADS ? st->tr->heads : UI_VIEW_MAX_HEADS;
}

/* A product x·Wᵀ = result: whole where the pane has room, else the result
 * (and, when the stage asks, its factors under it). */
static void product(struct builder *b, enum mha_tensor x, unsigned flags)
{
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    const char *name = mha_tensor_name(x), *in = mha_tensor_name(d->from),
               *w = mha_tensor_name(d->weight);
    char wt[64], title[96];
    snprintf(wt, sizeof wt, "%sᵀ (in × out)", w);
    if (b->wide) {
        tensor(b, d->from, 0, true, in);
        op(b, "×");
        transposed(b, d->weight, wt);
        op(b, "=");
        tensor(b, x, 0, false, name);
        return;
    }
    snprintf(title, sizeof title, "%s = %s · %sᵀ", name, in, w);
    tensor(b, x, 0, false, title);
    if (flags & MHA_SHOW_FACTORS) {
        tensor(b, d->from, 0, true, in);
        transposed(b, d->weight, wt);
    }
}

/* Head h of the stage's i-th tensor, in the form the stage shows it. */
static void shown(void *arg, int i, int h, bool new_row)
{
    struct builder *b = arg;
    const struct ui_state *st = b->st;
    const enum mha_tensor x = b->info->tensors[i];
    const struct mha_stage_show *show = &b->info->show[i];
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    if (show->form == MHA_FORM_PRODUCT) {
        product(b, x, show->flags);
        return;
    }
    int heads, rows, cols;
    mha_tensor_shape(st->tr, x, &heads, &rows, &cols);
    char title[96];
    const struct mha_title_ctx ctx = mha_title_ctx_make(st->ex, st->tr, h, rows, b->wide);
    mha_title_expand(title, sizeof title, show->screen, &ctx);
    struct ui_block *k = tensor(b, x, h, new_row, title);
    if (!k)
        return;
    k->head_labels = (show->flags & MHA_SHOW_HEAD_LABELS) != 0;
    k->per_head = show->form == MHA_FORM_HEADS;
    if (show->form == MHA_FORM_SPLIT) { /* a cell is a cell of the per-head tensor */
        k->map = UI_MAP_SPLIT;
        k->base.tensor = d->heads;
    }
    if (show->form == MHA_FORM_SPLIT || show->form == MHA_FORM_HEAD_COLS) {
        k->tint = UI_TINT_HEAD_COLS; /* columns in their head's colour */
        k->head_cols = st->tr->d_k;
        k->head_header = true;
    }
    if (show->form == MHA_FORM_HEADS && d->kind == MHA_KIND_PER_HEAD) {
        k->tint = UI_TINT_HEAD;
        k->head = h;
    }
    if (d->kind == MHA_KIND_SCORES) /* written with the decimals of the stage's other scores */
        for (int j = 0; j < b->info->n_tensors; j++)
            if (j != i && mha_tensor_desc(b->info->tensors[j])->kind == MHA_KIND_SCORES)
                k->num_range = st->range[b->info->tensors[j]];
    if (d->kind == MHA_KIND_PROBS) {
        k->kind = UI_BLOCK_HEATMAP;
        k->tint = UI_TINT_PROB;
        k->range = 1.0f;
        if (d->mask_of != MHA_TENSOR_COUNT)
            k->masked_by = mha_tensor_data(st->ex, st->tr, d->mask_of) +
                           mha_idx3(st->tr->lq, st->tr->lk, h, 0, 0);
    }
}

/* A language model's next words, the table its block points into: kept
 * here and rebuilt only when the words change. */
static struct view_table next_table;
static struct mha_next_word next_shown;

static void next_table_free(void)
{
    for (int i = 0; next_table.cells && i < next_table.rows * next_table.cols; i++)
        free(next_table.cells[i]);
    free(next_table.cells);
    memset(&next_table, 0, sizeof next_table);
}

/* On the output stage of a trained language model, above its matrices:
 * its likeliest next words after the last position with their
 * probabilities as bars. */
static void next_words(struct builder *b)
{
    const struct mha_example *ex = b->st->ex;
    const struct mha_next_word *nw = &ex->next_word;
    if (nw->n <= 0 || nw->n > MHA_NEXT_WORD_MAX)
        return;
    const bool cut = nw->top_p > 0.0f && nw->top_p < 1.0f;
    if (!next_table.cells || memcmp(&next_shown, nw, sizeof *nw) != 0) {
        next_table_free();
        if (!view_table_alloc(&next_table, nw->n + 1, cut ? 4 : 3))
            return;
        next_table.right[1] = true;
        next_table.bar_col = 2;
        bool in[MHA_NEXT_WORD_MAX];
        ui_state_nucleus_rows(nw, in);
        view_table_set_row(&next_table, 0, (const char *const[]){"word", "p", "", "top-p"});
        double sum = 0.0;
        for (int i = 0; i < nw->n; i++) {
            char p[16], share[24] = "";
            snprintf(p, sizeof p, "%.4f", (double)nw->p[i]);
            if (in[i]) { /* in the nucleus: the share summed so far */
                sum += nw->p[i];
                snprintf(share, sizeof share, "in, Σ %.4f", sum);
            }
            view_table_set_row(&next_table, i + 1, (const char *const[]){nw->word[i], p, p, share});
        }
        next_shown = *nw;
    }
    struct ui_block *k = add(b, UI_BLOCK_TABLE, true);
    if (!k)
        return;
    const int pos = nw->position >= 0 && nw->position < ex->lq ? nw->position : ex->lq - 1;
    char top_p[32] = "";
    if (cut)
        snprintf(top_p, sizeof top_p, ", top-p %g", (double)nw->top_p);
    snprintf(k->title, sizeof k->title, "next word after \"%s\" (position %d, temperature %g%s)",
             ex->tokens ? ex->tokens[pos] : "", pos, (double)nw->temperature, top_p);
    static char note[320];
    bool in[MHA_NEXT_WORD_MAX];
    ui_state_nucleus_rows(nw, in);
    int listed = 0;
    for (int i = 0; i < nw->n; i++)
        listed += in[i];
    char which[48] = "in above";
    if (listed < nw->nucleus)
        snprintf(which, sizeof which, "the first %d above", listed);
    if (cut)
        snprintf(note, sizeof note,
                 "The nucleus at top-p %g: the %d likeliest word%s (%s), %.4f together, the fewest "
                 "whose probabilities reach %g of those w may write; w draws among %s.",
                 (double)nw->top_p, nw->nucleus, nw->nucleus == 1 ? "" : "s", which,
                 (double)nw->nucleus_p, (double)nw->top_p,
                 listed < nw->nucleus ? "those listed" : "them");
    k->note = cut ? note : NULL;
    k->table = &next_table;
    k->rows = next_table.rows;
    k->cols = next_table.cols;
    k->inert = true;
}

/* The logit lens, its table kept as the next words' is: rebuilt when the
 * words or the width change. */
static struct view_table lens_table;
static struct mha_next_word lens_shown[MHA_LENS_LAYERS];
static int lens_shown_layers, lens_width;

static void lens_table_free(void)
{
    for (int i = 0; lens_table.cells && i < lens_table.rows * lens_table.cols; i++)
        free(lens_table.cells[i]);
    free(lens_table.cells);
    memset(&lens_table, 0, sizeof lens_table);
}

/* "X 0.2916, A 0.2175, ...": as many of a layer's likeliest words as fit
 * in room columns (one at least), into buf. */
static void lens_cell(const struct mha_next_word *nw, int room, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < nw->n; i++) {
        char one[MHA_NEXT_WORD_LABEL + 32];
        const int w =
            snprintf(one, sizeof one, "%s%s %.4f", i ? ", " : "", nw->word[i], (double)nw->p[i]);
        if (i > 0 && (int)used + w > room)
            break;
        if (used + (size_t)w >= n)
            break;
        memcpy(buf + used, one, (size_t)w + 1);
        used += (size_t)w;
    }
}

/* Under the next words of a model of two or more layers: for each layer,
 * by name, the likeliest next words read from the residual stream after
 * it through the same read-out (the logit lens, as --dump lens gives it),
 * as many as the width holds.  A model of one layer has the final
 * read-out alone, which the next words are. */
static void lens_words(struct builder *b)
{
    const struct mha_example *ex = b->st->ex;
    const int L = ex->lens_layers;
    if (L < 2 || L > MHA_LENS_LAYERS)
        return;
    /* the table's first column ("layer 0") and the gap after it */
    const int room = b->width - 12 > 16 ? b->width - 12 : 16;
    if (!lens_table.cells || lens_shown_layers != L || lens_width != room ||
        memcmp(lens_shown, ex->lens, sizeof ex->lens[0] * (size_t)L) != 0) {
        lens_table_free();
        if (!view_table_alloc(&lens_table, L + 1, 2))
            return;
        view_table_set_row(&lens_table, 0, (const char *const[]){"after", "likeliest next, p"});
        for (int l = 0; l < L; l++) {
            char name[32], cell[MHA_NEXT_WORD_MAX * (MHA_NEXT_WORD_LABEL + 32)];
            snprintf(name, sizeof name, "layer %d", l);
            lens_cell(&ex->lens[l], room, cell, sizeof cell);
            view_table_set_row(&lens_table, l + 1, (const char *const[]){name, cell});
        }
        memcpy(lens_shown, ex->lens, sizeof ex->lens[0] * (size_t)L);
        lens_shown_layers = L;
        lens_width = room;
    }
    struct ui_block *k = add(b, UI_BLOCK_TABLE, true);
    if (!k)
        return;
    const int pos = ex->lens[0].position >= 0 && ex->lens[0].position < ex->lq
                        ? ex->lens[0].position
                        : ex->lq - 1;
    snprintf(k->title, sizeof k->title,
             "the logit lens: read after each layer at \"%s\" (position %d, temperature 1)",
             ex->tokens ? ex->tokens[pos] : "", pos);
    k->table = &lens_table;
    k->rows = lens_table.rows;
    k->cols = lens_table.cols;
    k->inert = true;
}

/* The cells a checkpoint hides (hide: its struct lesson_hide). */
static bool checkpoint_hides(const void *hide, const struct mha_cell *cell)
{
    return lesson_hide_covers(hide, cell);
}

int ui_stage_build(const struct ui_state *st, int width, struct ui_block *out, int max)
{
    struct builder b = {st, out, 0, max, NULL, false, width};
    b.info = mha_stage_info((enum mha_stage)st->stage);
    b.wide = 3 * approx_width(st->ex->d_model) + 8 <= width;
    /* a language model's next words first: the answer the stage ends in,
     * on screen without scrolling */
    if (b.info->next_word && st->ex->has_next_word) {
        lens_words(&b); /* each layer's guess, then the model's own answer */
        next_words(&b);
    }
    mha_stage_walk(b.info, b.info->screen_order, shown_heads(st), MHA_SHOW_SCREEN, shown, &b);
    for (int i = 0; st->hide.active && i < b.n; i++) {
        out[i].hides = checkpoint_hides; /* a checkpoint's cells, hidden until answered */
        out[i].hide_ctx = &st->hide;
    }
    return b.n;
}

void ui_view_shape_line(const struct ui_state *st, char *buf, size_t n)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)st->stage);
    const struct mha_title_ctx ctx = mha_title_ctx_make(st->ex, st->tr, 0, st->tr->lq, true);
    mha_title_expand(buf, n, info->shape_line, &ctx);
    bool per_head = false;
    for (int i = 0; i < info->n_tensors; i++)
        per_head |= info->show[i].form == MHA_FORM_HEADS && (info->show[i].flags & MHA_SHOW_SCREEN);
    const size_t len = strlen(buf);
    if (st->tr->heads > UI_VIEW_MAX_HEADS && per_head && len + 1 < n)
        snprintf(buf + len, n - len, "   (heads 0..%d of %d shown)", UI_VIEW_MAX_HEADS - 1,
                 st->tr->heads);
}

bool ui_view_locate(const struct ui_block *blocks, int n, const struct mha_cell *cell, int *block,
                    int *row, int *col)
{
    for (int i = 0; i < n; i++) {
        const struct ui_block *b = &blocks[i];
        if (!ui_block_selectable(b) || b->base.tensor != cell->tensor)
            continue;
        int r = cell->row, c = cell->col;
        switch (b->map) {
        case UI_MAP_TRANSPOSED:
            r = cell->col, c = cell->row;
            break;
        case UI_MAP_SPLIT:
            c = cell->head * b->head_cols + cell->col;
            break;
        default:
            if (b->base.head != cell->head)
                continue;
            break;
        }
        if (r < 0 || r >= b->rows || c < 0 || c >= b->cols)
            continue;
        *block = i, *row = r, *col = c;
        return true;
    }
    return false;
}
