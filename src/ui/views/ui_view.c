/* ui_view.c - the blocks each stage shows, read straight from the trace. */
#include "ui/views/ui_view.h"

#include <stdio.h>
#include <string.h>

#include "ui/views/ui_viewdata.h"

/* Collects blocks into the caller's array. */
struct builder {
    const struct ui_state *st;
    struct ui_block *out;
    int n, max;
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
    switch (x) {
    case MHA_TENSOR_QUERY:
    case MHA_TENSOR_Q:
    case MHA_TENSOR_QH:
    case MHA_TENSOR_CONTEXT:
    case MHA_TENSOR_MERGED:
    case MHA_TENSOR_OUTPUT:
        k->row_labels = st->ex->tokens;
        break;
    case MHA_TENSOR_KEY:
    case MHA_TENSOR_VALUE:
    case MHA_TENSOR_K:
    case MHA_TENSOR_V:
    case MHA_TENSOR_KH:
    case MHA_TENSOR_VH:
        k->row_labels = st->ex->key_tokens;
        break;
    case MHA_TENSOR_SCORES:
    case MHA_TENSOR_SCALED:
    case MHA_TENSOR_WEIGHTS:
        k->row_labels = st->ex->tokens;
        k->col_labels = st->ex->key_tokens;
        break;
    default:
        break;
    }
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

static void stage_input(struct builder *b)
{
    tensor(b, MHA_TENSOR_QUERY, 0, false, "query input");
    tensor(b, MHA_TENSOR_KEY, 0, false, "key input");
    tensor(b, MHA_TENSOR_VALUE, 0, false, "value input");
    tensor(b, MHA_TENSOR_W_Q, 0, true, "W_q (out × in)");
    tensor(b, MHA_TENSOR_W_K, 0, false, "W_k (out × in)");
    tensor(b, MHA_TENSOR_W_V, 0, false, "W_v (out × in)");
    tensor(b, MHA_TENSOR_W_O, 0, false, "W_o (out × in)");
}

static void stage_projection(struct builder *b, int width)
{
    static const enum mha_tensor in[] = {MHA_TENSOR_QUERY, MHA_TENSOR_KEY, MHA_TENSOR_VALUE};
    static const enum mha_tensor w[] = {MHA_TENSOR_W_Q, MHA_TENSOR_W_K, MHA_TENSOR_W_V};
    static const enum mha_tensor out[] = {MHA_TENSOR_Q, MHA_TENSOR_K, MHA_TENSOR_V};
    static const char *const in_t[] = {"query", "key", "value"};
    static const char *const w_t[] = {"W_qᵀ (in × out)", "W_kᵀ (in × out)", "W_vᵀ (in × out)"};
    static const char *const out_t[] = {"Q = query · W_qᵀ", "K = key · W_kᵀ", "V = value · W_vᵀ"};
    static const char *const res_t[] = {"Q", "K", "V"};
    const bool whole = 3 * approx_width(b->st->ex->d_model) + 8 <= width;
    for (int i = 0; i < 3; i++) {
        if (whole) {
            tensor(b, in[i], 0, true, in_t[i]);
            op(b, "×");
            transposed(b, w[i], w_t[i]);
            op(b, "=");
            tensor(b, out[i], 0, false, res_t[i]);
        } else {
            tensor(b, out[i], 0, i == 0, out_t[i]);
        }
    }
}

static void stage_split(struct builder *b)
{
    static const enum mha_tensor src[] = {MHA_TENSOR_Q, MHA_TENSOR_K, MHA_TENSOR_V};
    static const enum mha_tensor heads[] = {MHA_TENSOR_QH, MHA_TENSOR_KH, MHA_TENSOR_VH};
    static const char *const titles[] = {"Q split into heads", "K split into heads",
                                         "V split into heads"};
    for (int i = 0; i < 3; i++) {
        struct ui_block *k = tensor(b, src[i], 0, false, titles[i]);
        if (!k)
            return;
        k->tint = UI_TINT_HEAD_COLS;
        k->head_cols = b->st->tr->d_k;
        k->head_header = true;
        k->head_labels = true;
        k->map = UI_MAP_SPLIT;
        k->base.tensor = heads[i];
    }
}

static int shown_heads(const struct ui_state *st)
{
    return st->tr->heads < UI_VIEW_MAX_HEADS ? st->tr->heads : UI_VIEW_MAX_HEADS;
}

static void stage_transpose(struct builder *b)
{
    static const enum mha_tensor heads[] = {MHA_TENSOR_QH, MHA_TENSOR_KH, MHA_TENSOR_VH};
    static const char *const names[] = {"Q", "K", "V"};
    for (int i = 0; i < 3; i++) {
        for (int h = 0; h < shown_heads(b->st); h++) {
            char title[64];
            snprintf(title, sizeof title, "%s head %d", names[i], h);
            struct ui_block *k = tensor(b, heads[i], h, h == 0, title);
            if (!k)
                return;
            k->tint = UI_TINT_HEAD;
            k->head = h;
            k->head_labels = true;
        }
    }
}

static void stage_attention(struct builder *b)
{
    const struct ui_state *st = b->st;
    char title[96];
    for (int h = 0; h < shown_heads(st); h++) {
        /* the scores before and after the scale, written with the same decimals */
        snprintf(title, sizeof title, "head %d: Q·Kᵀ", h);
        struct ui_block *s = tensor(b, MHA_TENSOR_SCORES, h, true, title);
        if (s)
            s->num_range = st->range[MHA_TENSOR_SCALED];
        if (st->tr->scaled)
            snprintf(title, sizeof title, "÷ √%d%s", st->tr->d_k, st->ex->causal ? ", masked" : "");
        else
            snprintf(title, sizeof title, "not scaled%s", st->ex->causal ? ", masked" : "");
        s = tensor(b, MHA_TENSOR_SCALED, h, false, title);
        if (s)
            s->num_range = st->range[MHA_TENSOR_SCORES];
        struct ui_block *k = tensor(b, MHA_TENSOR_WEIGHTS, h, false, "softmax → weights");
        if (k) {
            k->kind = UI_BLOCK_HEATMAP;
            k->tint = UI_TINT_PROB;
            k->range = 1.0f;
            k->masked_by = st->tr->scaled_scores + mha_idx3(st->tr->lq, st->tr->lk, h, 0, 0);
        }
        k = tensor(b, MHA_TENSOR_CONTEXT, h, false, "weights · V_h");
        if (k) {
            k->tint = UI_TINT_HEAD;
            k->head = h;
        }
    }
}

static void stage_merge(struct builder *b)
{
    char title[64];
    for (int h = 0; h < shown_heads(b->st); h++) {
        snprintf(title, sizeof title, "head %d", h);
        struct ui_block *k = tensor(b, MHA_TENSOR_CONTEXT, h, false, title);
        if (!k)
            return;
        k->tint = UI_TINT_HEAD;
        k->head = h;
    }
    struct ui_block *k = tensor(b, MHA_TENSOR_MERGED, 0, true, "merged: heads side by side");
    if (k) {
        k->tint = UI_TINT_HEAD_COLS;
        k->head_cols = b->st->tr->d_k;
        k->head_header = true;
    }
}

static void stage_output(struct builder *b, int width)
{
    const bool whole = 3 * approx_width(b->st->ex->d_model) + 8 <= width;
    if (whole) {
        tensor(b, MHA_TENSOR_MERGED, 0, false, "merged");
        op(b, "×");
        transposed(b, MHA_TENSOR_W_O, "W_oᵀ (in × out)");
        op(b, "=");
        tensor(b, MHA_TENSOR_OUTPUT, 0, false, "output");
        tensor(b, MHA_TENSOR_QUERY, 0, true, "the query input it started from");
    } else { /* the result first, then what made it, then the input */
        tensor(b, MHA_TENSOR_OUTPUT, 0, false, "output = merged · W_oᵀ");
        tensor(b, MHA_TENSOR_MERGED, 0, true, "merged");
        transposed(b, MHA_TENSOR_W_O, "W_oᵀ (in × out)");
        tensor(b, MHA_TENSOR_QUERY, 0, true, "query input it started from");
    }
}

/* The views beyond the stages: tables, and the heads' similarity heatmap. */
static void other_view(struct builder *b)
{
    const struct ui_viewdata *vd = b->st->vd;
    if (!vd || vd->error[0])
        return;
    if (vd->mode == MHA_VIEW_HEADS) {
        struct ui_block *k = add(b, UI_BLOCK_MATRIX, false);
        if (!k)
            return;
        snprintf(k->title, sizeof k->title, "similarity of the heads");
        k->data = vd->similarity;
        k->rows = k->cols = vd->heads;
        k->rs = (size_t)vd->heads, k->cs = 1;
        k->row_labels = vd->row_labels;
        k->col_labels = vd->col_labels;
        k->tint = UI_TINT_SIGNED;
        k->range = 1.0f;
        k->inert = true;
    }
    struct ui_block *k = add(b, UI_BLOCK_TABLE, false);
    if (!k)
        return;
    snprintf(k->title, sizeof k->title, "%s", vd->table_title);
    k->table = &vd->table;
    k->note = vd->note[0] ? vd->note : NULL;
    k->rows = vd->table.rows;
    k->cols = vd->table.cols;
    k->inert = true;
}

int ui_view_build(const struct ui_state *st, int width, struct ui_block *out, int max)
{
    struct builder b = {st, out, 0, max};
    if (st->view != MHA_VIEW_NONE) {
        other_view(&b);
        return b.n;
    }
    switch (st->stage) {
    case MHA_STAGE_INPUT:
        stage_input(&b);
        break;
    case MHA_STAGE_PROJECTION:
        stage_projection(&b, width);
        break;
    case MHA_STAGE_SPLIT:
        stage_split(&b);
        break;
    case MHA_STAGE_TRANSPOSE:
        stage_transpose(&b);
        break;
    case MHA_STAGE_ATTENTION:
        stage_attention(&b);
        break;
    case MHA_STAGE_MERGE:
        stage_merge(&b);
        break;
    default:
        stage_output(&b, width);
        break;
    }
    for (int i = 0; st->hide.active && i < b.n; i++)
        out[i].hide = &st->hide; /* a checkpoint's cells, hidden until answered */
    return b.n;
}

void ui_view_shape_line(const struct ui_state *st, char *buf, size_t n)
{
    const struct mha_trace *t = st->tr;
    const int lq = t->lq, lk = t->lk, d = t->d_model, h = t->heads, dk = t->d_k;
    int len = 0;
    switch (st->stage) {
    case MHA_STAGE_INPUT:
        len = snprintf(buf, n,
                       "inputs (L, d) = (%d, %d)   weights (d, d) = (%d, %d), "
                       "stored [out][in]",
                       lq, d, d, d);
        break;
    case MHA_STAGE_PROJECTION:
        len = snprintf(buf, n, "(L, d) · (d, d)ᵀ → (L, d) = (%d, %d), once for each of Q, K, V", lq,
                       d);
        break;
    case MHA_STAGE_SPLIT:
        len = snprintf(buf, n, "(L, d) = (%d, %d) → (L, H, d_k) = (%d, %d, %d), d_k = %d / %d", lq,
                       d, lq, h, dk, d, h);
        break;
    case MHA_STAGE_TRANSPOSE:
        len = snprintf(buf, n, "(L, H, d_k) = (%d, %d, %d) → (H, L, d_k) = (%d, %d, %d)", lq, h, dk,
                       h, lq, dk);
        break;
    case MHA_STAGE_ATTENTION:
        len = snprintf(buf, n,
                       "per head: scores (H, Lq, Lk) = (%d, %d, %d) → weights → "
                       "context (H, L, d_k) = (%d, %d, %d)",
                       h, lq, lk, h, lq, dk);
        break;
    case MHA_STAGE_MERGE:
        len = snprintf(buf, n, "(H, L, d_k) = (%d, %d, %d) → (L, H·d_k) = (%d, %d)", h, lq, dk, lq,
                       d);
        break;
    default:
        len = snprintf(buf, n, "(L, d) · W_oᵀ (d, d) → (L, d) = (%d, %d)", lq, d);
        break;
    }
    if (h > UI_VIEW_MAX_HEADS && len > 0 && (size_t)len < n &&
        (st->stage == MHA_STAGE_TRANSPOSE || st->stage == MHA_STAGE_ATTENTION ||
         st->stage == MHA_STAGE_MERGE))
        snprintf(buf + len, n - (size_t)len, "   (heads 0..%d of %d shown)", UI_VIEW_MAX_HEADS - 1,
                 h);
}

bool ui_block_selectable(const struct ui_block *b)
{
    return b->kind != UI_BLOCK_OP && b->kind != UI_BLOCK_TABLE && !b->inert;
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

struct mha_cell ui_block_cell(const struct ui_block *b, int row, int col)
{
    struct mha_cell c = b->base;
    switch (b->map) {
    case UI_MAP_TRANSPOSED:
        c.row = col, c.col = row;
        break;
    case UI_MAP_SPLIT:
        c.head = col / b->head_cols, c.row = row, c.col = col % b->head_cols;
        break;
    default:
        c.row = row, c.col = col;
        break;
    }
    return c;
}
