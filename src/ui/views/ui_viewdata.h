/* ui_viewdata.h - the numbers of the views beyond the seven stages: the
 * tensor shapes through view / transpose / contiguous / merge, the cost of
 * the block, and how the heads differ.  The engine computes them (views.h)
 * when the view or the example changes; this keeps them as text tables and
 * matrices for the view's blocks to point into.  No curses. */
#ifndef UI_VIEWDATA_H
#define UI_VIEWDATA_H

#include <stdbool.h>

#include "engine/mha.h"
#include "ui/draw/ui_block.h"
#include "ui/state/ui_state.h"

struct ui_viewdata {
    enum mha_view mode;
    char name[32];    /* "Shapes", "Cost", "Heads" */
    char line[256];   /* the sizes it was made for, for the top of the visualisation */
    char error[1100]; /* why there is nothing to show ("" when there is) */

    /* shapes and cost: one table; heads: the effective ranks */
    struct ui_table table;
    char table_title[96];
    char note[600]; /* a paragraph under the table */

    /* heads: similarity of the heads' score forms, heads x heads */
    int heads, d_k;
    float *similarity;
    double *rank;
    char **row_labels, **col_labels; /* "head 0" .. and "h0" .. */
};

/* Room for rows x cols cells of t (row 0 the header); false when out of
 * memory.  Row r's cells from texts (t->cols of them, copied). */
bool ui_table_alloc(struct ui_table *t, int rows, int cols);
bool ui_table_set_row(struct ui_table *t, int r, const char *const *texts);

/* The sequence length the shapes and cost views use: the view's own
 * (st->view_seq) or the example's queries (keys when keys). */
long long ui_view_seq_len(const struct ui_state *st, bool keys);

void ui_viewdata_free(struct ui_viewdata *vd);

#endif
