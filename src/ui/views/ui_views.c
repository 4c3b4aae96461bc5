/* ui_views.c - a view's description (io/view_desc.h) on screen: made when
 * stale, turned into blocks, its words and its legend (ui_views.h). */
#include "ui/views/ui_views.h"

#include <string.h>

#include "ui/draw/ui_widget.h"

struct view_inputs ui_view_inputs(const struct ui_state *st)
{
    return (struct view_inputs){
        .ex = st->ex,
        .baseline = st->baseline,
        .trained = st->trained,
        .batch = st->view_batch,
        .seq = st->view_seq,
        .preset = st->view_preset,
        .model = st->model,
        .model_path = st->generated ? NULL : st->load_path, /* drawn numbers are no model */
        .head_titles = (const char(*)[VIEW_HEAD_TITLE])st->head_titles,
        .titled_heads = st->titled_heads,
        .layer_measures = st->layer_measures,
        .clean = st->view_clean,
        .corrupt = st->view_corrupt,
    };
}

void ui_views_sync(struct ui_state *st)
{
    if (!st->vd_stale)
        return;
    st->vd_stale = false;
    view_desc_free(st->vd);
    st->vd = NULL;
    if (st->view == MHA_VIEW_NONE)
        return;
    const struct view_inputs in = ui_view_inputs(st);
    st->vd = view_desc_new(st->view, &in);
    if (!st->vd) {
        st->view = MHA_VIEW_NONE;
        ui_state_say(st, true, "out of memory: the view cannot be shown");
    }
}

/* One of the description's matrices as numbers, coloured on the diverging
 * scale; weights as a heatmap, a small map when the view is a grid of
 * them. */
static void matrix_block(const struct view_matrix *x, bool small, struct ui_block *k)
{
    memset(k, 0, sizeof *k);
    k->kind = UI_BLOCK_MATRIX;
    k->head = -1;
    snprintf(k->title, sizeof k->title, "%s", x->short_t);
    k->data = x->data;
    k->rows = x->rows;
    k->cols = x->cols;
    k->rs = (size_t)x->cols, k->cs = 1;
    k->row_labels = x->row_labels;
    k->col_labels = x->col_labels;
    k->tint = UI_TINT_SIGNED;
    k->range = x->range;
    k->squeeze = true;
    k->inert = true;
    if (x->prob) {
        k->kind = UI_BLOCK_HEATMAP;
        k->tint = UI_TINT_PROB;
        k->range = 1.0f;
        k->masked = x->masked;
        k->map_size = small ? 1 : 0; /* the layout chooses its size */
    }
}

/* Its table and the note under it. */
static void table_block(const struct view_desc *vd, struct ui_block *k)
{
    memset(k, 0, sizeof *k);
    k->kind = UI_BLOCK_TABLE;
    k->head = -1;
    snprintf(k->title, sizeof k->title, "%s", vd->table_title);
    k->table = &vd->table;
    k->note = vd->note[0] ? vd->note : NULL;
    k->rows = vd->table.rows;
    k->cols = vd->table.cols;
    k->inert = true;
}

int ui_view_build(struct ui_state *st, int width, struct ui_block *out, int max)
{
    if (st->view == MHA_VIEW_NONE)
        return ui_stage_build(st, width, out, max);
    ui_views_sync(st);
    const struct view_desc *vd = st->vd;
    if (!vd || vd->error[0])
        return 0;
    int n = 0;
    if (vd->paged) { /* from the first map of the page on: the layout keeps what fits */
        if (st->view_first >= vd->n_matrices || st->view_first < 0)
            st->view_first = 0;
        for (int m = st->view_first; m < vd->n_matrices && n < max; m++)
            matrix_block(&vd->matrices[m], true, &out[n++]);
        return n;
    }
    for (int m = 0; m < vd->n_matrices && n < max; m++)
        matrix_block(&vd->matrices[m], false, &out[n++]);
    if (n < max)
        table_block(vd, &out[n++]);
    return n;
}

void ui_view_describe(const struct view_desc *vd, char *head, size_t hn, char *formula, size_t fn,
                      char *text, size_t tn)
{
    snprintf(head, hn, "%s", vd->heading);
    snprintf(formula, fn, "%s", vd->formula);
    snprintf(text, tn, "%s", vd->text);
}

unsigned ui_view_legend(const struct view_desc *vd)
{
    if (vd->error[0] || vd->n_matrices == 0)
        return 0;
    if (vd->matrices[0].prob)
        return UI_LEGEND_PROB;
    return vd->matrices[0].cosine ? UI_LEGEND_COSINE : UI_LEGEND_SIGNED;
}

bool ui_view_page_text(const struct ui_state *st, const char *next_keys, const char *prev_keys,
                       char *buf, size_t n)
{
    buf[0] = '\0';
    const struct view_desc *vd = st->view != MHA_VIEW_NONE ? st->vd : NULL;
    if (!vd || !vd->paged || vd->error[0] || st->view_shown <= 0 ||
        (st->view_first == 0 && st->view_shown >= vd->n_matrices))
        return false;
    const int last = st->view_first + st->view_shown, rest = vd->n_matrices - last;
    size_t used =
        (size_t)snprintf(buf, n, "maps %d–%d of %d", st->view_first + 1, last, vd->n_matrices);
    if (rest > 0 && used < n)
        used += (size_t)snprintf(buf + used, n - used, ", %d more · %s next", rest,
                                 next_keys[0] ? next_keys : "?");
    if (st->view_first > 0 && used < n)
        snprintf(buf + used, n - used, " · %s back", prev_keys[0] ? prev_keys : "?");
    return true;
}
