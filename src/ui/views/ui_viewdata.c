/* ui_viewdata.c - shapes, cost and heads as tables and matrices, from views.h. */
#include "ui/views/ui_viewdata.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/views/ui_views.h"
#include "engine/views.h"
#include "engine/views_drift.h"

/* Room for rows x cols cells; false when out of memory. */
static bool table_alloc(struct ui_table *t, int rows, int cols)
{
    t->cells = calloc((size_t)rows * (size_t)cols, sizeof *t->cells);
    if (!t->cells)
        return false;
    t->rows = rows;
    t->cols = cols;
    t->bar_col = -1;
    return true;
}

static bool set_cell(struct ui_table *t, int r, int c, const char *text)
{
    char *s = strdup(text ? text : "");
    if (!s)
        return false;
    free(t->cells[r * t->cols + c]);
    t->cells[r * t->cols + c] = s;
    return true;
}

static bool set_row(struct ui_table *t, int r, const char *const *texts)
{
    bool ok = true;
    for (int c = 0; c < t->cols; c++)
        ok = set_cell(t, r, c, texts[c]) && ok;
    return ok;
}

static long long seq_len(const struct ui_state *st, bool keys)
{
    if (st->view_seq > 0)
        return st->view_seq;
    return keys ? st->ex->lk : st->ex->lq;
}

bool ui_view_shapes_make(struct ui_viewdata *vd, const struct ui_state *st)
{
    const long long batch = st->view_batch > 0 ? st->view_batch : 2, seq = seq_len(st, false);
    const long long d = st->ex->d_model, h = st->ex->heads;
    struct views_shape_row rows[VIEWS_SHAPE_ROWS];
    const int n = views_shapes(batch, seq, d, h, rows);
    snprintf(vd->name, sizeof vd->name, "Shapes");
    snprintf(vd->line, sizeof vd->line,
             "batch B = %lld, seq L = %lld, d_model d = %lld, H = %lld, d_k = %lld", batch, seq, d,
             h, d / h);
    snprintf(vd->table_title, sizeof vd->table_title, "Shapes in PyTorch code");
    if (!table_alloc(&vd->table, n + 1, 4))
        return false;
    static const char *const head[] = {"step", "code", "shape", "memory"};
    bool ok = set_row(&vd->table, 0, head);
    for (int i = 0; i < n; i++) {
        char shape[96];
        const char *row[] = {rows[i].step, rows[i].code,
                             views_shape_string(&rows[i], shape, sizeof shape), rows[i].note};
        ok = set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "Splitting and transposing move no numbers: view reads the same memory with new "
             "strides, transpose swaps the strides. Only contiguous() copies, so that view "
             "can join the heads back into d = H·d_k = %lld columns.",
             d);
    return ok;
}

bool ui_view_cost_make(struct ui_viewdata *vd, const struct ui_state *st)
{
    long long d = st->ex->d_model, h = st->ex->heads;
    const long long sq = seq_len(st, false), sk = seq_len(st, true);
    const struct views_preset *p = st->view_preset[0] ? views_preset_find(st->view_preset) : NULL;
    bool bias = st->ex->has_bias;
    snprintf(vd->name, sizeof vd->name, "Cost");
    if (p) {
        d = p->d_model;
        h = p->heads;
        bias = true;
        snprintf(vd->line, sizeof vd->line, "%s: d_model %lld, %lld heads of d_k %lld, %lld tokens",
                 p->name, d, h, p->d_k, sq);
    } else {
        snprintf(vd->line, sizeof vd->line, "%lld queries, %lld keys, d_model %lld, %lld heads", sq,
                 sk, d, h);
    }
    struct views_cost multi, single;
    views_cost(sq, sk, d, h, bias, &multi);
    views_cost(sq, sk, d, 1, bias, &single);
    snprintf(vd->table_title, sizeof vd->table_title, "One attention block, one sequence");
    struct views_cost_row cost[VIEWS_COST_ROWS];
    const int n = views_cost_rows(&single, &multi, cost);
    if (!table_alloc(&vd->table, n + 1, 3))
        return false;
    vd->table.right[1] = vd->table.right[2] = true;
    char one[64], many[64];
    snprintf(one, sizeof one, "1 head, d_k %lld", d);
    snprintf(many, sizeof many, "%lld heads, d_k %lld", h, multi.d_k);
    const char *head[] = {"", one, many};
    bool ok = set_row(&vd->table, 0, head);
    for (int i = 0; i < n; i++) {
        char a[40], b[40];
        const char *row[] = {cost[i].what, views_group_digits(cost[i].one, a, sizeof a),
                             views_group_digits(cost[i].many, b, sizeof b)};
        ok = set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "At equal width the heads cost the same parameters and the same multiply-adds: "
             "%lld heads of %lld share the %lld columns one head would use. Only the number of "
             "attention maps (softmax rows) grows with the heads.",
             h, multi.d_k, d);
    return ok;
}

/* A model in training: each head's effective rank at step 0 and now, and
 * how alike its score form is to the one it started with. */
static bool heads_since_start(struct ui_viewdata *vd, const struct ui_state *st,
                              const struct mha_example *start)
{
    const int H = vd->heads, dk = vd->d_k;
    struct mha_error err;
    mha_error_clear(&err);
    struct views_heads_result *r0 = views_heads_new(start, &err);
    double cos[64];
    if (!r0 || H > 64 || views_heads_drift(st->ex, start, cos) != 0) {
        views_heads_free(r0);
        snprintf(vd->error, sizeof vd->error, "%s", r0 ? "too many heads to compare" : err.text);
        return true;
    }
    snprintf(vd->line, sizeof vd->line, "d_model %d, %d heads of d_k %d: %s against step 0",
             st->ex->d_model, H, dk, st->trained);
    snprintf(vd->table_title, sizeof vd->table_title, "Each head at step 0 and now");
    bool ok = table_alloc(&vd->table, H + 1, 5);
    if (!ok) {
        views_heads_free(r0);
        return false;
    }
    vd->table.right[1] = vd->table.right[2] = vd->table.right[4] = true;
    vd->table.bar_col = 3;
    char of[48];
    snprintf(of, sizeof of, "now, of d_k = %d", dk);
    const char *head[] = {"head", "rank at step 0", "rank now", of, "form like step 0"};
    ok = set_row(&vd->table, 0, head);
    double least = 1.0;
    for (int i = 0; i < H; i++) {
        char r0s[32], rs[32], frac[32], cs[32];
        snprintf(r0s, sizeof r0s, "%.2f", r0->rank[i]);
        snprintf(rs, sizeof rs, "%.2f", vd->rank[i]);
        snprintf(frac, sizeof frac, "%.4f", dk > 0 ? vd->rank[i] / dk : 0.0);
        snprintf(cs, sizeof cs, "%.2f", cos[i]);
        least = cos[i] < least ? cos[i] : least;
        const char *row[] = {vd->row_labels[i], r0s, rs, frac, cs};
        ok = set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "Measured on the learned weights: the heatmap compares the heads' score forms "
             "now; the table gives each head's effective rank at step 0 and now, and the "
             "cosine between its form now and at step 0 (1: unchanged, near 0: it looks for "
             "something else). The least alike here is %.2f.",
             least);
    views_heads_free(r0);
    return ok;
}

bool ui_view_heads_make(struct ui_viewdata *vd, const struct ui_state *st)
{
    const struct mha_example *ex = st->ex;
    const int H = ex->heads, dk = ex->d_model / ex->heads;
    snprintf(vd->name, sizeof vd->name, "Heads");
    snprintf(vd->line, sizeof vd->line, "d_model %d, %d heads of d_k %d, the current weights",
             ex->d_model, H, dk);
    struct mha_error err;
    mha_error_clear(&err);
    struct views_heads_result *r = views_heads_new(ex, &err);
    if (!r && ex->d_model > VIEWS_HEADS_MAX_D) { /* the engine says why */
        snprintf(vd->error, sizeof vd->error,
                 "%s (the work grows as d_model³). Try :d_model %d or less.", err.text,
                 VIEWS_HEADS_MAX_D);
        vd->error[0] = (char)toupper((unsigned char)vd->error[0]);
        return true;
    }
    vd->heads = H;
    vd->d_k = dk;
    vd->rank = malloc((size_t)H * sizeof *vd->rank);
    vd->similarity = malloc((size_t)H * (size_t)H * sizeof *vd->similarity);
    vd->row_labels = calloc((size_t)H, sizeof *vd->row_labels);
    vd->col_labels = calloc((size_t)H, sizeof *vd->col_labels);
    bool ok = vd->rank && vd->similarity && vd->row_labels && vd->col_labels;
    if (!r)
        snprintf(vd->error, sizeof vd->error, "%s", err.text);
    for (int i = 0; ok && r && i < H * H; i++)
        vd->similarity[i] = (float)r->similarity[i];
    for (int i = 0; ok && r && i < H; i++)
        vd->rank[i] = r->rank[i];
    for (int i = 0; ok && i < H; i++) {
        char text[32];
        snprintf(text, sizeof text, "head %d", i);
        vd->row_labels[i] = strdup(text);
        snprintf(text, sizeof text, "h%d", i);
        vd->col_labels[i] = strdup(text);
        ok = vd->row_labels[i] && vd->col_labels[i];
    }
    views_heads_free(r);
    if (!ok || vd->error[0])
        return ok;
    const struct mha_example *b = st->baseline;
    if (b && b->d_model == ex->d_model && b->heads == H)
        return heads_since_start(vd, st, b);
    snprintf(vd->table_title, sizeof vd->table_title, "Effective rank of each head");
    if (!table_alloc(&vd->table, H + 1, 3))
        return false;
    vd->table.right[1] = true;
    vd->table.bar_col = 2;
    char of[48];
    snprintf(of, sizeof of, "1 … d_k = %d", dk);
    const char *head[] = {"head", "rank", of};
    ok = set_row(&vd->table, 0, head);
    for (int i = 0; i < H; i++) {
        char r[32];
        snprintf(r, sizeof r, "%.2f", vd->rank[i]);
        /* the bar column holds the fraction of d_k, drawn by the table widget */
        char frac[32];
        snprintf(frac, sizeof frac, "%.4f", dk > 0 ? vd->rank[i] / dk : 0.0);
        const char *row[] = {vd->row_labels[i], r, frac};
        ok = set_row(&vd->table, i + 1, row) && ok;
    }
    return ok; /* the text pane says what the numbers mean */
}

struct ui_viewdata *ui_viewdata_new(enum mha_view mode, const struct ui_state *st)
{
    struct ui_viewdata *vd = calloc(1, sizeof *vd);
    if (!vd)
        return NULL;
    vd->mode = mode;
    vd->table.bar_col = -1;
    const struct ui_view_ops *ops = ui_view_ops(mode); /* the registry's row */
    if (ops && !ops->make(vd, st)) {
        ui_viewdata_free(vd);
        return NULL;
    }
    return vd;
}

void ui_viewdata_free(struct ui_viewdata *vd)
{
    if (!vd)
        return;
    for (int i = 0; vd->table.cells && i < vd->table.rows * vd->table.cols; i++)
        free(vd->table.cells[i]);
    free(vd->table.cells);
    for (int i = 0; i < vd->heads; i++) {
        if (vd->row_labels)
            free(vd->row_labels[i]);
        if (vd->col_labels)
            free(vd->col_labels[i]);
    }
    free(vd->row_labels);
    free(vd->col_labels);
    free(vd->similarity);
    free(vd->rank);
    free(vd);
}
