/* ui_view.h - what each stage shows: a list of blocks (matrices, heatmaps,
 * operator signs) that point into the example and the trace.  Building a
 * view copies no numbers and computes none. */
#ifndef UI_VIEW_H
#define UI_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/explain.h"
#include "ui/core/ui_state.h"

/* Stages with one block per head show at most this many heads. */
#define UI_VIEW_MAX_HEADS 32
#define UI_VIEW_MAX_BLOCKS (8 * UI_VIEW_MAX_HEADS + 16)

enum ui_block_kind {
    UI_BLOCK_MATRIX,  /* numbers */
    UI_BLOCK_HEATMAP, /* probabilities as colour, with numbers where they fit */
    UI_BLOCK_OP,      /* an operator sign between blocks: "×", "=", "→" */
    UI_BLOCK_TABLE    /* a table of text (the shapes, cost and heads views) */
};

struct ui_table;

/* How a matrix is coloured. */
enum ui_tint {
    UI_TINT_SIGNED,    /* diverging scale over ±range */
    UI_TINT_PROB,      /* sequential scale over 0..1 */
    UI_TINT_HEAD_COLS, /* each group of head_cols columns in its head's colour */
    UI_TINT_HEAD       /* everything in the colour of head */
};

/* How a block's (row, col) maps to a cell of a tensor. */
enum ui_cellmap {
    UI_MAP_DIRECT,     /* (base.tensor, base.head, row, col) */
    UI_MAP_TRANSPOSED, /* the block shows Wᵀ: (base.tensor, 0, col, row) */
    UI_MAP_SPLIT       /* columns split into heads: (base.tensor, col / head_cols, row,
                          col % head_cols) */
};

struct ui_block {
    enum ui_block_kind kind;
    char title[96];
    const float *data; /* element (r, c) is data[r * rs + c * cs] */
    int rows, cols;
    size_t rs, cs;
    char *const *row_labels; /* NULL: row numbers */
    char *const *col_labels; /* NULL: column numbers */
    enum ui_tint tint;
    float range;   /* largest magnitude, for UI_TINT_SIGNED */
    int head;      /* UI_TINT_HEAD */
    int head_cols; /* UI_TINT_HEAD_COLS and UI_MAP_SPLIT */
    enum ui_cellmap map;
    struct mha_cell base;
    bool head_header;             /* a line above the columns names each head's span */
    bool new_row;                 /* start a new row of the flow */
    const float *masked_by;       /* heatmaps: same layout as data, -inf where masked */
    const char *op;               /* UI_BLOCK_OP */
    const struct ui_table *table; /* UI_BLOCK_TABLE */
    const char *note;             /* UI_BLOCK_TABLE: a paragraph under it, or NULL */
    bool inert;                   /* numbers the cursor does not visit (no tensor cell) */
    bool head_labels; /* columns labelled "h<head>.<j>" as the lessons and exports write them */
    float num_range;  /* > 0: the largest magnitude of a matrix shown beside this one,
                         whose numbers are written with the same decimals */
    const struct lesson_hide *hide; /* cells drawn as "?" until a checkpoint is answered */

    /* How roomy the block is drawn (the presenter's layout sets these before
     * measuring): extra columns per cell, a blank line between rows, and
     * one decimal fewer rather than cut columns off. */
    int pad;
    bool airy;
    bool shrink;
};

/* Fill out (room for max blocks) with the blocks of st's current stage for a
 * pane width columns wide (a wide pane shows whole equations, a narrow one
 * their results).  Titles are UTF-8; drawing folds them to ASCII where
 * needed.  Returns the number of blocks. */
int ui_view_build(const struct ui_state *st, int width, struct ui_block *out, int max);

/* A line for the top of the visualisation: the stage's shapes, e.g.
 * "(L, d) = (4, 6) → (L, H, d_k) = (4, 2, 3)". */
void ui_view_shape_line(const struct ui_state *st, char *buf, size_t n);

/* Where the cell shows: the first block holding it and the (row, col) in
 * that block.  Returns false when no block shows it. */
bool ui_view_locate(const struct ui_block *blocks, int n, const struct mha_cell *cell, int *block,
                    int *row, int *col);

/* True when the block holds numbers a cursor can point at. */
bool ui_block_selectable(const struct ui_block *b);

/* The tensor cell under (row, col) of block b. */
struct mha_cell ui_block_cell(const struct ui_block *b, int row, int col);

/* The number at (row, col). */
static inline float ui_block_at(const struct ui_block *b, int row, int col)
{
    return b->data[(size_t)row * b->rs + (size_t)col * b->cs];
}

#endif
