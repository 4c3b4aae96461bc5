/* ui_block.c - where a block's cells come from. */
#include "ui/draw/ui_block.h"

bool ui_block_selectable(const struct ui_block *b)
{
    return b->kind != UI_BLOCK_OP && b->kind != UI_BLOCK_TABLE && !b->inert;
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
