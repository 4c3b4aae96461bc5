/* ui_viewdata.c - a view's record: made through the registry's row, freed
 * here, and the tables the views fill (each view's own file fills them). */
#include "ui/views/ui_viewdata.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool ui_table_alloc(struct ui_table *t, int rows, int cols)
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

bool ui_table_set_row(struct ui_table *t, int r, const char *const *texts)
{
    bool ok = true;
    for (int c = 0; c < t->cols; c++)
        ok = set_cell(t, r, c, texts[c]) && ok;
    return ok;
}

long long ui_view_seq_len(const struct ui_state *st, bool keys)
{
    if (st->view_seq > 0)
        return st->view_seq;
    return keys ? st->ex->lk : st->ex->lq;
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
