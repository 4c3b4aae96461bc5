/* ui_widget.h - drawing blocks: the matrix widget (ui_matrix.c), the heatmap
 * widget and the colour legend (ui_heatmap.c), and clipped text. */
#ifndef UI_WIDGET_H
#define UI_WIDGET_H

#include <curses.h>
#include <stdbool.h>

#include "ui/draw/ui_block.h"
#include "ui/draw/ui_layout.h"
#include "ui/draw/ui_theme.h"

/* Size of a block as drawn. */
struct ui_block_geom {
    struct ui_grid grid;
    struct ui_numfmt fmt;
    bool compact; /* heatmap cells without numbers */
    int header;   /* lines above the rows: title, head spans, column labels */
    int row_step; /* lines from one row to the next: 1, or 2 with a blank line between */
    int w, h;
    int col_w[VIEW_TABLE_MAX_COLS]; /* tables: width of each column */
    int note_lines;                 /* tables: lines of the note under them */
    bool half;                      /* a small map: two query rows to a line */
};

/* Measure b for at most max_w x max_h. */
void ui_block_measure(const struct ui_block *b, int max_w, int max_h, const struct ui_theme *th,
                      struct ui_block_geom *g);

/* A small map (b->map_size > 0, the model view's): measured at its size,
 * and drawn, by ui_block_measure and ui_block_draw (ui_maps.c). */
void ui_map_measure(const struct ui_block *b, int max_w, int max_h, const struct ui_theme *th,
                    struct ui_block_geom *g);
void ui_map_draw(WINDOW *win, int y, int x, int view_h, const struct ui_block *b,
                 const struct ui_block_geom *g, const struct ui_theme *th);

/* One line of a heat cell w columns wide at (y, x) for weight p: its
 * colour, or its shade glyph without colour; masked, blank with a quiet
 * dot at its end where dot.  ui_maps.c, for the maps of the model view
 * and the training screen's heads. */
void ui_heat_cell(WINDOW *win, int y, int x, float p, int w, bool masked, bool dot,
                  const struct ui_theme *th);

/* Weight top of a query row over weight bottom of the next in one
 * character (a half block in two colours); ui_maps.c. */
void ui_half_cell(WINDOW *win, int y, int x, float top, float bottom, bool top_masked,
                  bool bottom_masked, const struct ui_theme *th);

/* tok's first characters that fit w columns, with no "…", into out (n
 * bytes): a label of a few columns reads better in whole letters than cut
 * with a mark.  ui_maps.c. */
void ui_cut_token(const char *tok, int w, bool utf8, char *out, size_t n);

/* Draw b with its top-left corner at (y, x) of win; lines outside
 * [0, view_h) are skipped, so y may be negative.  (cur_r, cur_c) is the
 * cursor cell, or -1 for none: the window of a large matrix follows it. */
void ui_block_draw(WINDOW *win, int y, int x, int view_h, const struct ui_block *b,
                   const struct ui_block_geom *g, int cur_r, int cur_c, const struct ui_theme *th);

/* First visible row and column of b, given the cursor (-1: none). */
void ui_block_window(const struct ui_block *b, const struct ui_block_geom *g, int cur_r, int cur_c,
                     int *r0, int *c0);

/* Text at (y, x) cut to maxw columns (UTF-8, or folded to ASCII), in attr.
 * Returns the columns written. */
int ui_put(WINDOW *win, int y, int x, const char *text, int maxw, int attr, bool utf8);

/* Fill n columns at (y, x) with spaces in attr. */
void ui_fill(WINDOW *win, int y, int x, int n, int attr);

/* ---- tables (ui_table.c) ---------------------------------------------------------------- */

/* Measure a UI_BLOCK_TABLE for at most max_w columns: columns share the
 * width, text wraps inside its column. */
void ui_table_measure(const struct ui_block *b, int max_w, const struct ui_theme *th,
                      struct ui_block_geom *g);
void ui_table_draw(WINDOW *win, int y, int x, int view_h, const struct ui_block *b,
                   const struct ui_block_geom *g, const struct ui_theme *th);
/* The line of a measured table block (from its title's, 0) where the
 * first body row whose first cell starts with first begins; -1: none. */
int ui_table_row_line(const struct ui_block *b, const struct ui_block_geom *g, bool utf8,
                      const char *first);

/* ---- heatmap cells and legend (ui_heatmap.c) ---------------------------------------- */

/* Cell width a heatmap needs with numbers (colour or glyph + number). */
int ui_heatmap_cell_w(const struct ui_theme *th);

/* One heatmap cell of width cell_w at (y, x): probability p, number shown
 * unless compact, reversed when it is the cursor. */
void ui_heatmap_cell(WINDOW *win, int y, int x, float p, int cell_w, bool compact, bool cursor,
                     bool masked, const struct ui_theme *th);

/* What the legend line explains. */
enum ui_legend_part {
    UI_LEGEND_SIGNED = 1,
    UI_LEGEND_PROB = 2,
    UI_LEGEND_HEADS = 4,
    UI_LEGEND_COSINE = 8 /* the diverging scale over -1..1 (the heads view) */
};

/* The legend for parts (a mask of ui_legend_part) on one line at (y, x). */
void ui_legend_draw(WINDOW *win, int y, int x, int maxw, unsigned parts, int heads,
                    const struct ui_theme *th);
/* Columns the weights' legend (UI_LEGEND_PROB alone) takes. */
int ui_legend_prob_width(const struct ui_theme *th);

#endif
