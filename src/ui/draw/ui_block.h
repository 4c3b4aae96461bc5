/* ui_block.h - a block: what the screen draws of a stage or a view (a
 * matrix, a heatmap, an operator sign or a table of text), pointing into
 * numbers it does not own.  Views make blocks (views/); the widgets measure
 * and draw them (draw/). */
#ifndef UI_BLOCK_H
#define UI_BLOCK_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/explain.h"
#include "io/view_desc.h" /* struct view_table */

/* Stages with one block per head show at most this many heads. */
#define UI_VIEW_MAX_HEADS 32
#define UI_VIEW_MAX_BLOCKS (8 * UI_VIEW_MAX_HEADS + 16)

enum ui_block_kind {
    UI_BLOCK_MATRIX,  /* numbers */
    UI_BLOCK_HEATMAP, /* probabilities as colour, with numbers where they fit */
    UI_BLOCK_OP,      /* an operator sign between blocks: "×", "=", "→" */
    UI_BLOCK_TABLE    /* a table of text (the shapes, cost and heads views) */
};

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
    bool head_header;            /* a line above the columns names each head's span */
    bool new_row;                /* start a new row of the flow */
    const float *masked_by;      /* heatmaps: same layout as data, -inf where masked */
    const unsigned char *masked; /* heatmaps: (rows, cols), nonzero where masked; or NULL */
    /* a small map in a grid of maps (the model view): colours alone, its
     * size chosen for the grid: 1 two columns and a line a cell, 2 one
     * column and a line, 3 one column and half a line (two query rows to a
     * line where the theme has the colours for it); 0: not a small map */
    int map_size;
    const char *op;                 /* UI_BLOCK_OP */
    const struct view_table *table; /* UI_BLOCK_TABLE */
    const char *note;               /* UI_BLOCK_TABLE: a paragraph under it, or NULL */
    bool inert;                     /* numbers the cursor does not visit (no tensor cell) */
    bool squeeze;     /* a signed matrix too wide for its numbers: colour alone, 2 columns
                         a cell (as a heatmap too wide for its numbers) */
    bool per_head;    /* one of the blocks each head has (base.head is its head): one that
                         starts a line of the flow names its head in its title */
    bool head_labels; /* columns labelled "h<head>.<j>" as the lessons and exports write them */
    float num_range;  /* > 0: the largest magnitude of a matrix shown beside this one,
                         whose numbers are written with the same decimals */
    /* cells drawn as "?" (a checkpoint's, until it is answered): those hides(hide_ctx, cell)
     * is true of (ui_block_hides); hides NULL: none */
    bool (*hides)(const void *hide_ctx, const struct mha_cell *cell);
    const void *hide_ctx;

    /* How roomy the block is drawn (the presenter's layout sets these before
     * measuring): extra columns per cell, a blank line between rows, and
     * one decimal fewer rather than cut columns off. */
    int pad;
    bool airy;
    bool shrink;
};

/* True when the block holds numbers a cursor can point at. */
bool ui_block_selectable(const struct ui_block *b);

/* The tensor cell under (row, col) of block b. */
struct mha_cell ui_block_cell(const struct ui_block *b, int row, int col);

/* True when cell, of block b, is drawn as "?". */
static inline bool ui_block_hides(const struct ui_block *b, const struct mha_cell *cell)
{
    return b->hides && b->hides(b->hide_ctx, cell);
}

/* The number at (row, col). */
static inline float ui_block_at(const struct ui_block *b, int row, int col)
{
    return b->data[(size_t)row * b->rs + (size_t)col * b->cs];
}

#endif
