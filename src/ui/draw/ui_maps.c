/* ui_maps.c - a small map of attention weights in a grid of them (the model
 * view): colour alone (shade glyphs without colour), at one of three sizes
 * the layout picks for the grid, its token labels cut to the columns they
 * have (ui_widget.h). */
#include <stdio.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"

/* Row labels of a map at sizes 1 and 2 (columns, at most). */
#define MAP_LABEL_1 4
#define MAP_LABEL_2 3

void ui_cut_token(const char *tok, int w, bool utf8, char *out, size_t n)
{
    size_t end = 0;
    out[0] = '\0';
    for (size_t at = 0; tok && tok[at] && at + 4 < n;) {
        size_t next = at + 1;
        while (utf8 && ((unsigned char)tok[next] & 0xC0) == 0x80)
            next++;
        memcpy(out, tok, next);
        out[next] = '\0';
        if (ui_text_width(out, utf8) > w)
            break;
        end = at = next;
    }
    out[end] = '\0'; /* out holds tok's bytes up to the last that fitted */
}

/* True when every label starts with the same w columns ("tok 0", "tok 1"):
 * then their ends tell them apart. */
static bool same_start(char *const *labels, int n, int w, bool utf8)
{
    char first[64], other[64];
    if (!labels || n < 2)
        return false;
    ui_cut_token(labels[0], w, utf8, first, sizeof first);
    for (int i = 1; i < n; i++) {
        ui_cut_token(labels[i], w, utf8, other, sizeof other);
        if (strcmp(first, other) != 0)
            return false;
    }
    return true;
}

/* Label tok cut to w columns: its start, or its end when from_end. */
static void label_cut(const char *tok, int w, bool from_end, bool utf8, char *out, size_t n)
{
    if (!from_end || !tok) {
        ui_cut_token(tok, w, utf8, out, n);
        return;
    }
    const char *at = tok + strlen(tok);
    while (at > tok) { /* back a character at a time while the rest fits */
        const char *prev = at - 1;
        while (utf8 && prev > tok && ((unsigned char)*prev & 0xC0) == 0x80)
            prev--;
        if (ui_text_width(prev, utf8) > w)
            break;
        at = prev;
    }
    snprintf(out, n, "%s", at);
}

static int widest(char *const *labels, int n, bool utf8, int max)
{
    int w = 1;
    for (int i = 0; labels && i < n && w < max; i++) {
        const int lw = ui_text_width(labels[i], utf8);
        w = lw > w ? lw : w;
    }
    return w < max ? w : max;
}

void ui_map_measure(const struct ui_block *b, int max_w, int max_h, const struct ui_theme *th,
                    struct ui_block_geom *g)
{
    memset(g, 0, sizeof *g);
    g->row_step = 1;
    g->compact = true;
    g->header = 2; /* the title and the keys' letters */
    g->half = b->map_size >= 3 && th->half && b->rows > 1;
    const int cell_w = b->map_size == 1 ? 2 : 1;
    int label_w =
        widest(b->row_labels, b->rows, th->utf8, b->map_size == 1 ? MAP_LABEL_1 : MAP_LABEL_2);
    if (g->half) /* a line's two tokens side by side: "KD" */
        label_w = 2;
    const int lines = g->half ? (b->rows + 1) / 2 : b->rows;
    ui_grid_fit(lines, b->cols, label_w, cell_w, max_w, max_h, &g->grid);
    const int title_w = ui_text_width(b->title, th->utf8);
    g->w = g->grid.w;
    if (title_w > g->w)
        g->w = title_w < max_w ? title_w : max_w;
    g->h = g->grid.h;
}

void ui_heat_cell(WINDOW *win, int y, int x, float p, int w, bool masked, bool dot,
                  const struct ui_theme *th)
{
    if (masked) { /* blank, with a quiet dot at its end where dot */
        wattrset(win, ui_role_attr(th, UI_ROLE_MASKED));
        for (int i = 0; i < w; i++)
            mvwaddstr(win, y, x + i, dot && i == w - 1 ? (th->utf8 ? "·" : ".") : " ");
        return;
    }
    wattrset(win, ui_seq_attr(th, p));
    const char *g =
        th->depth == UI_DEPTH_MONO ? ui_shade_glyph(colorscale_seq_level(p, 5), th->utf8) : " ";
    for (int i = 0; i < w; i++)
        mvwaddstr(win, y, x + i, g);
}

void ui_half_cell(WINDOW *win, int y, int x, float top, float bottom, bool top_masked,
                  bool bottom_masked, const struct ui_theme *th)
{
    if (top_masked && bottom_masked) {
        wattrset(win, ui_role_attr(th, UI_ROLE_MASKED));
        mvwaddstr(win, y, x, "·");
    } else if (top_masked) { /* the lower half shaded, on the screen's background */
        wattrset(win, ui_seq_half_attr(th, bottom, 0.0f, true));
        mvwaddstr(win, y, x, "▄");
    } else {
        wattrset(win, ui_seq_half_attr(th, top, bottom, bottom_masked));
        mvwaddstr(win, y, x, "▀");
    }
}

static bool masked_at(const struct ui_block *b, int r, int c)
{
    return b->masked && b->masked[(size_t)r * (size_t)b->cols + (size_t)c];
}

void ui_map_draw(WINDOW *win, int y, int x, int view_h, const struct ui_block *b,
                 const struct ui_block_geom *g, const struct ui_theme *th)
{
    const int lab = ui_role_attr(th, UI_ROLE_LABEL), dim = ui_role_attr(th, UI_ROLE_SHAPE);
    const int lw = g->grid.label_w, cw = g->grid.cell_w, x0 = x + lw + 1;
    const int row_w = g->half ? 1 : lw;
    const bool col_end = same_start(b->col_labels, b->cols, cw, th->utf8);
    const bool row_end = same_start(b->row_labels, b->rows, row_w, th->utf8);
    char text[64];
    if (y >= 0 && y < view_h) { /* a map cut to the view says which part shows */
        char title[sizeof b->title + 64];
        snprintf(title, sizeof title, "%s", b->title);
        const int rows = g->half ? 2 * g->grid.rows : g->grid.rows;
        if (g->grid.clipped)
            snprintf(title + strlen(title), sizeof title - strlen(title), " rows 0–%d, cols 0–%d",
                     (rows < b->rows ? rows : b->rows) - 1, g->grid.cols - 1);
        ui_put(win, y, x, title, g->w, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    }
    if (y + 1 >= 0 && y + 1 < view_h)
        for (int c = 0; b->col_labels && c < g->grid.cols; c++) {
            label_cut(b->col_labels[c], cw, col_end, th->utf8, text, sizeof text);
            ui_put(win, y + 1, x0 + c * cw, text, cw, lab, th->utf8);
        }
    for (int k = 0; k < g->grid.rows; k++) {
        const int line = y + 2 + k;
        if (line < 0 || line >= view_h)
            continue;
        const int r = g->half ? 2 * k : k;
        const bool pair = g->half && r + 1 < b->rows;
        if (b->row_labels && g->half) { /* the upper row's letter bright, the lower's dim */
            label_cut(b->row_labels[r], 1, row_end, th->utf8, text, sizeof text);
            ui_put(win, line, x, text, 1, lab, th->utf8);
            if (pair) {
                label_cut(b->row_labels[r + 1], 1, row_end, th->utf8, text, sizeof text);
                ui_put(win, line, x + 1, text, 1, dim, th->utf8);
            }
        } else if (b->row_labels) {
            label_cut(b->row_labels[r], lw, row_end, th->utf8, text, sizeof text);
            ui_put(win, line, x, text, lw, lab, th->utf8);
        }
        for (int c = 0; c < g->grid.cols; c++) {
            const float top = ui_block_at(b, r, c);
            if (g->half)
                ui_half_cell(win, line, x0 + c, top, pair ? ui_block_at(b, r + 1, c) : 0.0f,
                             masked_at(b, r, c), !pair || masked_at(b, r + 1, c), th);
            else
                ui_heat_cell(win, line, x0 + c * cw, cw, top, masked_at(b, r, c), true, th);
        }
    }
    wattrset(win, 0);
}
