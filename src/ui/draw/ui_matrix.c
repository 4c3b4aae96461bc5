/* ui_matrix.c - the matrix widget: title and shape, column labels (and head
 * spans), row labels, aligned numbers in colour, the cursor cell. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"

/* Widest row label and column label, in columns: a matrix whose every
 * column fits with its labels whole up to the roomy widths takes those. */
#define LABEL_MAX 10
#define COL_LABEL_MAX 6
#define LABEL_ROOMY 24
#define COL_LABEL_ROOMY 16

int ui_put(WINDOW *win, int y, int x, const char *text, int maxw, int attr, bool utf8)
{
    char buf[1024];
    if (maxw <= 0)
        return 0;
    int cols = ui_text_fit(text, maxw, utf8, buf, sizeof buf);
    wattrset(win, attr);
    mvwaddstr(win, y, x, buf);
    return cols;
}

void ui_fill(WINDOW *win, int y, int x, int n, int attr)
{
    wattrset(win, attr);
    wmove(win, y, x);
    for (int i = 0; i < n; i++)
        waddch(win, ' ');
}

static int digits(int n)
{
    int d = 1;
    while (n >= 10)
        n /= 10, d++;
    return d;
}

static int label_width(char *const *labels, int n, bool utf8, int max)
{
    if (!labels)
        return digits(n > 0 ? n - 1 : 0);
    int w = 1;
    for (int i = 0; i < n && w < max; i++) {
        int lw = ui_text_width(labels[i], utf8);
        if (lw > w)
            w = lw;
    }
    return w < max ? w : max;
}

/* "Q (4×6)" and, when only part shows, which part. */
static void shape_text(const struct ui_block *b, char *buf, size_t n)
{
    snprintf(buf, n, " %d×%d", b->rows, b->cols);
}

/* Column c's label "h<head>.<j>": a block of split columns spans every
 * head, a head's own block its d_k columns.  Returns its length. */
static int head_label(const struct ui_block *b, int c, char *buf, size_t n)
{
    const bool spans = b->map == UI_MAP_SPLIT || b->tint == UI_TINT_HEAD_COLS;
    const int head = spans && b->head_cols > 0 ? c / b->head_cols : b->head;
    const int j = spans && b->head_cols > 0 ? c % b->head_cols : c;
    return snprintf(buf, n, "h%d.%d", head, j);
}

/* The widest cell that lets every column show: the block's padding, then
 * half of it, then none; room for short tokens over the columns first. */
static int cell_width(const struct ui_block *b, int label_w, int base_w, int want, int max_w)
{
    for (int pad = b->pad;; pad /= 2) {
        const int w = (want > base_w ? want : base_w) + pad;
        if (label_w + 1 + b->cols * w <= max_w)
            return w;
        if (pad == 0)
            break;
    }
    return base_w; /* every column at the narrower width beats some at the wider one */
}

void ui_block_measure(const struct ui_block *b, int max_w, int max_h, const struct ui_theme *th,
                      struct ui_block_geom *g)
{
    memset(g, 0, sizeof *g);
    g->row_step = 1;
    if (b->kind == UI_BLOCK_TABLE) {
        ui_table_measure(b, max_w, th, g);
        return;
    }
    if (b->map_size > 0) {
        ui_map_measure(b, max_w, max_h, th, g);
        return;
    }
    if (b->kind == UI_BLOCK_OP) {
        g->w = ui_text_width(b->op, th->utf8) + b->pad / 2;
        g->h = 3;
        return;
    }
    const bool heat = b->kind == UI_BLOCK_HEATMAP;
    g->fmt = b->num_range > 0.0f ? ui_numfmt_shared(b->range, b->num_range)
                                 : ui_numfmt_for(b->range, b->tint == UI_TINT_PROB);
    int label_w = label_width(b->row_labels, b->rows, th->utf8, LABEL_MAX);
    int base_w = heat ? ui_heatmap_cell_w(th) : g->fmt.width + 1;
    int want = 0;
    if (b->col_labels) { /* token columns: room for short tokens */
        want = label_width(b->col_labels, b->cols, th->utf8, COL_LABEL_MAX) + 1;
    } else if (b->head_labels) { /* "h<head>.<j>": room for the widest */
        char last[32];
        want = head_label(b, b->cols - 1, last, sizeof last) + 1;
    }
    g->header = 2 + (b->head_header ? 1 : 0);
    int cell_w = cell_width(b, label_w, base_w, want, max_w);
    if (b->row_labels || b->col_labels) { /* labels whole where every column still fits */
        const int roomy_label = label_width(b->row_labels, b->rows, th->utf8, LABEL_ROOMY);
        const int roomy_want =
            b->col_labels ? label_width(b->col_labels, b->cols, th->utf8, COL_LABEL_ROOMY) + 1
                          : want;
        const int roomy_w = (roomy_want > base_w ? roomy_want : base_w) + b->pad;
        if ((roomy_label > label_w || roomy_want > want) &&
            roomy_label + 1 + b->cols * roomy_w <= max_w) {
            label_w = roomy_label;
            cell_w = roomy_w;
        }
    }
    if (b->shrink && !heat && g->fmt.decimals > 0 && label_w + 1 + b->cols * cell_w > max_w) {
        g->fmt.decimals--; /* one decimal fewer before columns are cut */
        g->fmt.width--;
        cell_w = --base_w;
    }
    if ((heat || b->squeeze) && label_w + 1 + b->cols * cell_w > max_w) {
        g->compact = true;
        cell_w = 2;
    }
    ui_grid_fit(b->rows, b->cols, label_w, cell_w, max_w, max_h - (g->header - 2), &g->grid);
    if (b->airy && !g->grid.clipped && g->grid.h + b->rows - 1 + (g->header - 2) <= max_h)
        g->row_step = 2;
    char shape[48];
    shape_text(b, shape, sizeof shape);
    int title_w = ui_text_width(b->title, th->utf8) + ui_text_width(shape, th->utf8);
    g->w = g->grid.w;
    if (title_w > g->w)
        g->w = title_w < max_w ? title_w : max_w;
    g->h = g->grid.h + (g->grid.rows - 1) * (g->row_step - 1) + (g->header - 2);
}

void ui_block_window(const struct ui_block *b, const struct ui_block_geom *g, int cur_r, int cur_c,
                     int *r0, int *c0)
{
    *r0 = cur_r >= 0 ? ui_window_start(cur_r, g->grid.rows, b->rows) : 0;
    *c0 = cur_c >= 0 ? ui_window_start(cur_c, g->grid.cols, b->cols) : 0;
}

static bool line_visible(int y, int view_h)
{
    return y >= 0 && y < view_h;
}

/* Colour of column c's label and numbers when the block is coloured by head. */
static int column_attr(const struct ui_block *b, int c, const struct ui_theme *th)
{
    if (b->tint == UI_TINT_HEAD_COLS && b->head_cols > 0)
        return ui_head_attr(th, c / b->head_cols);
    if (b->tint == UI_TINT_HEAD)
        return ui_head_attr(th, b->head);
    return ui_role_attr(th, UI_ROLE_LABEL);
}

static void draw_title(WINDOW *win, int y, int x, const struct ui_block *b,
                       const struct ui_block_geom *g, int r0, int c0, const struct ui_theme *th)
{
    char shape[128];
    shape_text(b, shape, sizeof shape);
    if (g->grid.clipped) {
        size_t len = strlen(shape);
        snprintf(shape + len, sizeof shape - len, ", rows %d–%d, cols %d–%d", r0,
                 r0 + g->grid.rows - 1, c0, c0 + g->grid.cols - 1);
    }
    int title_attr =
        b->tint == UI_TINT_HEAD ? ui_head_attr(th, b->head) : ui_role_attr(th, UI_ROLE_TITLE);
    int used = ui_put(win, y, x, b->title, g->w, title_attr, th->utf8);
    ui_put(win, y, x + used, shape, g->w - used, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
}

/* "── head 1 ──" over each head's columns. */
static void draw_head_spans(WINDOW *win, int y, int x, const struct ui_block *b,
                            const struct ui_block_geom *g, int c0, const struct ui_theme *th)
{
    const int cw = g->grid.cell_w;
    int c = c0;
    while (c < c0 + g->grid.cols) {
        const int h = c / b->head_cols;
        int end = (h + 1) * b->head_cols;
        if (end > c0 + g->grid.cols)
            end = c0 + g->grid.cols;
        const int span = (end - c) * cw - 1;
        char text[48];
        snprintf(text, sizeof text, span >= 8 ? "head %d" : "h%d", h);
        int tw = (int)strlen(text);
        const int attr = ui_head_attr(th, h);
        const int sx = x + g->grid.label_w + 1 + (c - c0) * cw + 1;
        wattrset(win, attr);
        for (int i = 0; i < span; i++)
            mvwaddstr(win, y, sx + i, th->utf8 ? "─" : "-");
        if (tw <= span)
            ui_put(win, y, sx + (span - tw) / 2, text, tw, attr, th->utf8);
        c = end;
    }
}

/* A signed value as colour alone, 2 columns: its diverging colour, or
 * without colour its sign (bold at half the range or more). */
static void signed_cell(WINDOW *win, int y, int x, float v, float range, bool cursor,
                        const struct ui_theme *th)
{
    const int attr = cursor ? ui_role_attr(th, UI_ROLE_CURSOR) : ui_div_attr(th, v, range);
    const char *text = "  ";
    if (cursor)
        text = "[]";
    else if (th->depth == UI_DEPTH_MONO)
        text = fabsf(v) < 0.1f * range ? " ." : v > 0 ? " +" : " -";
    ui_put(win, y, x, text, 2, attr, th->utf8);
}

static void draw_col_labels(WINDOW *win, int y, int x, const struct ui_block *b,
                            const struct ui_block_geom *g, int c0, int cur_c,
                            const struct ui_theme *th)
{
    const int cw = g->grid.cell_w;
    char text[64], fit[256];
    for (int c = c0; c < c0 + g->grid.cols; c++) {
        const int cx = x + g->grid.label_w + 1 + (c - c0) * cw;
        int attr = c == cur_c ? ui_role_attr(th, UI_ROLE_LABEL_HOT) : column_attr(b, c, th);
        if (g->compact && b->col_labels) { /* a label's first columns */
            const int w = ui_text_fit(b->col_labels[c], cw, th->utf8, fit, sizeof fit);
            ui_put(win, y, cx, fit, w, attr, th->utf8);
            continue;
        }
        if (g->compact) {
            snprintf(text, sizeof text, "%*d", cw, c % 100);
            ui_put(win, y, cx, text + (int)strlen(text) - cw, cw, attr, th->utf8);
            continue;
        }
        const char *label = text;
        if (b->col_labels)
            label = b->col_labels[c];
        else if (b->head_labels)
            head_label(b, c, text, sizeof text);
        else if (b->map == UI_MAP_SPLIT && b->head_cols > 0) /* a head's own columns */
            snprintf(text, sizeof text, "%d", c % b->head_cols);
        else /* the merged matrix too: its columns 0..d-1 under the heads' bands */
            snprintf(text, sizeof text, "%d", c);
        int w = ui_text_fit(label, cw - 1, th->utf8, fit, sizeof fit);
        ui_put(win, y, cx + cw - w, fit, w, attr, th->utf8);
    }
}

static void draw_number(WINDOW *win, int y, int x, const struct ui_block *b,
                        const struct ui_block_geom *g, int c, float v, bool cursor,
                        const struct ui_theme *th)
{
    char text[48];
    const int cw = g->grid.cell_w;
    int attr;
    if (isinf(v) && v < 0) {
        snprintf(text, sizeof text, "%*s", cw, th->utf8 ? "−∞" : "-inf");
        if (th->utf8) /* "−∞" is 2 columns in 6 bytes: pad by columns */
            snprintf(text, sizeof text, "%*s%s", cw - 2, "", "−∞");
        attr = ui_role_attr(th, UI_ROLE_MASKED);
    } else {
        struct ui_numfmt fmt = g->fmt;
        fmt.width = cw - 1; /* right-aligned under the column label */
        text[0] = ' ';
        ui_num_format(text + 1, sizeof text - 1, v, fmt);
        switch (b->tint) {
        case UI_TINT_PROB:
            attr = ui_seq_attr(th, v);
            break;
        case UI_TINT_SIGNED:
            attr = ui_div_attr(th, v, b->range);
            break;
        default:
            attr = column_attr(b, c, th);
            break;
        }
    }
    if (cursor)
        attr = ui_role_attr(th, UI_ROLE_CURSOR);
    wattrset(win, attr);
    mvwaddstr(win, y, x, text);
}

/* A cell a checkpoint hides until it is answered: a "?" where the number was. */
static void draw_hidden(WINDOW *win, int y, int x, int cw, bool cursor, const struct ui_theme *th)
{
    char text[48];
    snprintf(text, sizeof text, "%*s", cw > 1 && cw < 40 ? cw : 1, "?");
    wattrset(win, ui_role_attr(th, cursor ? UI_ROLE_CURSOR : UI_ROLE_QUIZ));
    mvwaddstr(win, y, x, text);
}

void ui_block_draw(WINDOW *win, int y, int x, int view_h, const struct ui_block *b,
                   const struct ui_block_geom *g, int cur_r, int cur_c, const struct ui_theme *th)
{
    if (b->kind == UI_BLOCK_TABLE) {
        ui_table_draw(win, y, x, view_h, b, g, th);
        return;
    }
    if (b->kind == UI_BLOCK_OP) {
        if (line_visible(y + 2, view_h))
            ui_put(win, y + 2, x, b->op, g->w, ui_role_attr(th, UI_ROLE_FORMULA), th->utf8);
        return;
    }
    if (b->map_size > 0) {
        ui_map_draw(win, y, x, view_h, b, g, th);
        return;
    }
    int r0, c0;
    ui_block_window(b, g, cur_r, cur_c, &r0, &c0);
    int line = y;
    if (line_visible(line, view_h))
        draw_title(win, line, x, b, g, r0, c0, th);
    line++;
    if (b->head_header) {
        if (line_visible(line, view_h))
            draw_head_spans(win, line, x, b, g, c0, th);
        line++;
    }
    if (line_visible(line, view_h))
        draw_col_labels(win, line, x, b, g, c0, cur_c, th);
    line++;
    const int cw = g->grid.cell_w;
    for (int r = r0; r < r0 + g->grid.rows; r++, line += g->row_step) {
        if (!line_visible(line, view_h))
            continue;
        char num[24];
        const char *label = num;
        if (b->row_labels)
            label = b->row_labels[r];
        else
            snprintf(num, sizeof num, "%*d", g->grid.label_w, r);
        ui_put(win, line, x, label, g->grid.label_w,
               ui_role_attr(th, r == cur_r ? UI_ROLE_LABEL_HOT : UI_ROLE_LABEL), th->utf8);
        for (int c = c0; c < c0 + g->grid.cols; c++) {
            const int cx = x + g->grid.label_w + 1 + (c - c0) * cw;
            const float v = ui_block_at(b, r, c);
            const bool cursor = r == cur_r && c == cur_c;
            if (b->hides) {
                const struct mha_cell cell = ui_block_cell(b, r, c);
                if (ui_block_hides(b, &cell)) {
                    draw_hidden(win, line, cx, cw, cursor, th);
                    continue;
                }
            }
            if (b->kind == UI_BLOCK_HEATMAP)
                ui_heatmap_cell(
                    win, line, cx, v, cw, g->compact, cursor,
                    b->masked_by && isinf(b->masked_by[(size_t)r * b->rs + (size_t)c * b->cs]), th);
            else if (g->compact)
                signed_cell(win, line, cx, v, b->range, cursor, th);
            else
                draw_number(win, line, cx, b, g, c, v, cursor, th);
        }
    }
    wattrset(win, 0);
}
