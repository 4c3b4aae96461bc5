/* ui_view.h - what each stage shows: a list of blocks (matrices, heatmaps,
 * operator signs) that point into the example and the trace.  Building a
 * view copies no numbers and computes none. */
#ifndef UI_VIEW_H
#define UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/explain.h"
#include "ui/draw/ui_block.h"
#include "ui/state/ui_state.h"

/* Fill out (room for max blocks) with the blocks of st's stage for a
 * pane width columns wide (a wide pane shows whole equations, a narrow one
 * their results).  Titles are UTF-8; drawing folds them to ASCII where
 * needed.  Returns the number of blocks. */
int ui_stage_build(const struct ui_state *st, int width, struct ui_block *out, int max);

/* A line for the top of the visualisation: the stage's shapes, e.g.
 * "(L, d) = (4, 6) → (L, H, d_k) = (4, 2, 3)". */
void ui_view_shape_line(const struct ui_state *st, char *buf, size_t n);

/* Where the cell shows: the first block holding it and the (row, col) in
 * that block.  Returns false when no block shows it. */
bool ui_view_locate(const struct ui_block *blocks, int n, const struct mha_cell *cell, int *block,
                    int *row, int *col);

#endif
