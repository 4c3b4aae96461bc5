/* ui_views.c - the view registry (ui_views.h): one row per view, and what
 * the views share: a table as a block, and a table written as text. */
#include "ui/views/ui_views.h"

#include <stdlib.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"

static const struct ui_view_ops views[MHA_VIEW_COUNT] = {
    [MHA_VIEW_SHAPES] = {MHA_VIEW_SHAPES,
                         "Shapes view: the tensor shapes through view, transpose, contiguous "
                         "and merge.",
                         ui_view_shapes_make, ui_view_shapes_build, ui_view_shapes_describe,
                         ui_view_shapes_export, "txt", 0, true},
    [MHA_VIEW_COST] = {MHA_VIEW_COST,
                       "Cost view: parameters and multiply-adds, one head against %d heads.",
                       ui_view_cost_make, ui_view_cost_build, ui_view_cost_describe,
                       ui_view_cost_export, "txt", 0, true},
    [MHA_VIEW_HEADS] = {MHA_VIEW_HEADS,
                        "Heads view: how the heads' score forms differ, and the effective rank "
                        "of each.",
                        ui_view_heads_make, ui_view_heads_build, ui_view_heads_describe,
                        ui_view_heads_export, "txt", UI_LEGEND_COSINE, false},
};

const struct ui_view_ops *ui_view_ops(enum mha_view v)
{
    if (v <= MHA_VIEW_NONE || v >= MHA_VIEW_COUNT || !views[v].make)
        return NULL;
    return &views[v];
}

struct ui_block *ui_view_table_block(const struct ui_viewdata *vd, struct ui_block *out, int *n,
                                     int max)
{
    if (*n >= max)
        return NULL;
    struct ui_block *k = &out[(*n)++];
    memset(k, 0, sizeof *k);
    k->kind = UI_BLOCK_TABLE;
    k->head = -1;
    snprintf(k->title, sizeof k->title, "%s", vd->table_title);
    k->table = &vd->table;
    k->note = vd->note[0] ? vd->note : NULL;
    k->rows = vd->table.rows;
    k->cols = vd->table.cols;
    k->inert = true;
    return k;
}

bool ui_view_write_heading(FILE *out, const struct ui_viewdata *vd)
{
    fprintf(out, "%s view: %s\n\n", vd->name, vd->line);
    if (vd->error[0]) {
        fprintf(out, "%s\n", vd->error);
        return false;
    }
    return true;
}

/* text padded with spaces to width columns, on the left when right. */
static void cell(FILE *out, const char *text, int width, bool right)
{
    const int pad = width - ui_text_width(text, true);
    if (right)
        fprintf(out, "%*s", pad > 0 ? pad : 0, "");
    fputs(text, out);
    if (!right)
        fprintf(out, "%*s", pad > 0 ? pad : 0, "");
}

void ui_view_write_table(FILE *out, const struct ui_viewdata *vd)
{
    const struct ui_table *t = &vd->table;
    int width[UI_TABLE_MAX_COLS] = {0}, total = 0;
    for (int c = 0; c < t->cols && c < UI_TABLE_MAX_COLS; c++) {
        for (int r = 0; r < t->rows; r++) {
            const int w = ui_text_width(t->cells[r * t->cols + c], true);
            width[c] = w > width[c] ? w : width[c];
        }
        total += width[c] + (c ? 2 : 0);
    }
    fprintf(out, "%s\n\n", vd->table_title);
    for (int r = 0; r < t->rows; r++) {
        for (int c = 0; c < t->cols && c < UI_TABLE_MAX_COLS; c++) {
            fputs(c ? "  " : "", out);
            const bool last = c + 1 == t->cols;
            cell(out, t->cells[r * t->cols + c], last && !t->right[c] ? 0 : width[c], t->right[c]);
        }
        fputc('\n', out);
        for (int i = 0; r == 0 && i < total; i++)
            fputc(i + 1 == total ? '\n' : '-', out);
    }
    if (vd->note[0])
        fprintf(out, "\n%s\n", vd->note);
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

void ui_views_sync(struct ui_state *st)
{
    if (!st->vd_stale)
        return;
    st->vd_stale = false;
    if (st->vd)
        st->vd_free(st->vd);
    st->vd = NULL;
    if (st->view == MHA_VIEW_NONE)
        return;
    st->vd = ui_viewdata_new(st->view, st);
    st->vd_free = ui_viewdata_free;
    if (!st->vd) {
        st->view = MHA_VIEW_NONE;
        ui_state_say(st, true, "out of memory: the view cannot be shown");
    }
}

int ui_view_build(struct ui_state *st, int width, struct ui_block *out, int max)
{
    if (st->view == MHA_VIEW_NONE)
        return ui_stage_build(st, width, out, max);
    ui_views_sync(st); /* a view's blocks come from its registry row */
    const struct ui_view_ops *ops = ui_view_ops(st->view);
    const struct ui_viewdata *vd = st->vd;
    return ops && vd && !vd->error[0] ? ops->build(vd, out, max) : 0;
}
