/* ui_table.c - the table widget of the views beyond the stages: a title,
 * a header over a rule, rows whose text wraps inside its column, numbers
 * right-aligned, an optional bar column, and a note under the table. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"

#define GAP 2     /* columns between table columns */
#define MIN_COL 6 /* a column is not squeezed below this */
#define BAR_W 12  /* width of a bar column */
#define MAX_WRAP 16

static const char *cell(const struct view_table *t, int r, int c)
{
    const char *s = t->cells[r * t->cols + c];
    return s ? s : "";
}

static int wrap_count(const char *text, int width, bool utf8)
{
    struct ui_line lines[1];
    int n = ui_text_wrap(text, width, utf8, lines, 0);
    return n < 1 ? 1 : n > MAX_WRAP ? MAX_WRAP : n;
}

/* Lines row r takes with the widths in g. */
static int row_height(const struct view_table *t, int r, const struct ui_block_geom *g, bool utf8)
{
    int h = 1;
    for (int c = 0; c < t->cols; c++) {
        if (c == t->bar_col && r > 0)
            continue;
        int n = wrap_count(cell(t, r, c), g->col_w[c], utf8);
        h = n > h ? n : h;
    }
    return h;
}

void ui_table_measure(const struct ui_block *b, int max_w, const struct ui_theme *th,
                      struct ui_block_geom *g)
{
    const struct view_table *t = b->table;
    int total = 0;
    for (int c = 0; c < t->cols && c < VIEW_TABLE_MAX_COLS; c++) {
        int w = 1;
        for (int r = 0; r < t->rows; r++) {
            if (c == t->bar_col && r > 0)
                continue;
            int cw = ui_text_width(cell(t, r, c), th->utf8);
            w = cw > w ? cw : w;
        }
        if (c == t->bar_col && w < BAR_W)
            w = BAR_W;
        g->col_w[c] = w;
        total += w + (c ? GAP : 0);
    }
    /* narrow the widest column, one column at a time, until the table fits */
    while (total > max_w) {
        int widest = 0;
        for (int c = 1; c < t->cols; c++)
            widest = g->col_w[c] > g->col_w[widest] ? c : widest;
        if (g->col_w[widest] <= MIN_COL)
            break;
        g->col_w[widest]--;
        total--;
    }
    int title_w = ui_text_width(b->title, th->utf8);
    g->w = total > title_w ? total : title_w;
    if (g->w > max_w)
        g->w = max_w;
    g->header = 3; /* title, header row, rule */
    g->h = 2;      /* title and rule */
    for (int r = 0; r < t->rows; r++)
        g->h += row_height(t, r, g, th->utf8);
    g->note_lines = 0;
    if (b->note) {
        struct ui_line lines[1];
        g->note_lines = ui_text_wrap(b->note, g->w, th->utf8, lines, 0);
        g->h += 1 + g->note_lines;
    }
}

static bool visible(int y, int view_h)
{
    return y >= 0 && y < view_h;
}

/* A bar of w columns filled to the fraction in text. */
static void draw_bar(WINDOW *win, int y, int x, int w, const char *text, int attr,
                     const struct ui_theme *th)
{
    double f = atof(text);
    int full = (int)(f * w + 0.5);
    full = full < 0 ? 0 : full > w ? w : full;
    wattrset(win, attr);
    wmove(win, y, x);
    for (int i = 0; i < full; i++)
        waddstr(win, th->utf8 ? "█" : "#");
    wattrset(win, ui_role_attr(th, UI_ROLE_MASKED));
    for (int i = full; i < w; i++)
        waddstr(win, th->utf8 ? "░" : ".");
}

/* Row r of t from line y: each cell wrapped in its column. */
static void draw_row(WINDOW *win, int y, int x, int view_h, const struct view_table *t, int r,
                     const struct ui_block_geom *g, const struct ui_theme *th)
{
    int cx = x;
    for (int c = 0; c < t->cols; c++) {
        const int w = g->col_w[c];
        int attr = 0;
        if (r == 0)
            attr = ui_role_attr(th, UI_ROLE_LABEL) | A_BOLD;
        else if (c == 0)
            attr = ui_role_attr(th, UI_ROLE_LABEL);
        if (c == t->bar_col && r > 0) {
            if (visible(y, view_h))
                draw_bar(win, y, cx, w, cell(t, r, c), ui_head_attr(th, r - 1), th);
            cx += w + GAP;
            continue;
        }
        struct ui_line lines[MAX_WRAP];
        int n = ui_text_wrap(cell(t, r, c), w, th->utf8, lines, MAX_WRAP);
        for (int i = 0; i < n && i < MAX_WRAP; i++) {
            if (!visible(y + i, view_h))
                continue;
            char buf[512];
            int tw = ui_text_fit_n(lines[i].start, lines[i].len, w, th->utf8, buf, sizeof buf);
            const int off = t->right[c] ? w - tw : 0;
            ui_put(win, y + i, cx + off, buf, tw, attr, th->utf8);
        }
        cx += w + GAP;
    }
}

int ui_table_row_line(const struct ui_block *b, const struct ui_block_geom *g, bool utf8,
                      const char *first)
{
    const struct view_table *t = b->table;
    int line = 1; /* the title */
    for (int r = 0; r < t->rows; r++) {
        const char *c = cell(t, r, 0);
        if (r > 0 && !strncmp(c, first, strlen(first)))
            return line;
        line += row_height(t, r, g, utf8) + (r == 0 ? 1 : 0); /* the header's rule */
    }
    return -1;
}

void ui_table_draw(WINDOW *win, int y, int x, int view_h, const struct ui_block *b,
                   const struct ui_block_geom *g, const struct ui_theme *th)
{
    const struct view_table *t = b->table;
    int line = y;
    if (visible(line, view_h))
        ui_put(win, line, x, b->title, g->w, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    line++;
    for (int r = 0; r < t->rows; r++) {
        draw_row(win, line, x, view_h, t, r, g, th);
        line += row_height(t, r, g, th->utf8);
        if (r == 0) {
            if (visible(line, view_h)) {
                wattrset(win, ui_role_attr(th, UI_ROLE_BORDER));
                wmove(win, line, x);
                for (int i = 0; i < g->w; i++)
                    waddstr(win, th->utf8 ? "─" : "-");
            }
            line++;
        }
    }
    if (b->note) {
        line++;
        struct ui_line lines[32];
        int n = ui_text_wrap(b->note, g->w, th->utf8, lines, 32);
        for (int i = 0; i < n && i < 32; i++, line++) {
            if (!visible(line, view_h))
                continue;
            char buf[1024];
            int tw = ui_text_fit_n(lines[i].start, lines[i].len, g->w, th->utf8, buf, sizeof buf);
            ui_put(win, line, x, buf, tw, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
        }
    }
    wattrset(win, 0);
}
