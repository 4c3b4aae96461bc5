/* ui_pane_text.c - a text pane's lines, scrolled, with "more" markers. */
#include "ui/draw/ui_pane_text.h"

#include <stdio.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"

void ui_pane_text_line(struct ui_pane_text *p, const char *s, size_t len, int attr)
{
    if (p->n < UI_PANE_TEXT_MAX)
        p->line[p->n++] = (struct ui_pane_line){s, len, attr};
}

void ui_pane_text_wrap(struct ui_pane_text *p, const char *text, int width, int attr, bool utf8)
{
    struct ui_line lines[UI_PANE_TEXT_MAX];
    const int n = ui_text_wrap(text, width, utf8, lines, UI_PANE_TEXT_MAX);
    for (int i = 0; i < n && i < UI_PANE_TEXT_MAX; i++)
        ui_pane_text_line(p, lines[i].start, lines[i].len, attr);
}

/* Lines that scroll (the pinned one stays put), and the rows they get when
 * the pane is cut: one row goes to the marker, one to the pinned line. */
static int scrolling(const struct ui_pane_text *p)
{
    return p->pin_last && p->n > 0 ? p->n - 1 : p->n;
}

static int rows_when_cut(const struct ui_pane_text *p, int height)
{
    const int rows = height - 1 - (p->pin_last && p->n > 0 ? 1 : 0);
    return rows > 0 ? rows : 0;
}

int ui_pane_text_max_scroll(const struct ui_pane_text *p, int height)
{
    if (p->n <= height)
        return 0;
    const int max = scrolling(p) - rows_when_cut(p, height);
    return max > 0 ? max : 0;
}

static void put_line(WINDOW *win, int y, int width, const struct ui_pane_line *l, bool utf8)
{
    char buf[1024];
    const int w = ui_text_fit_n(l->s, l->len, width, utf8, buf, sizeof buf);
    ui_put(win, y, 1, buf, w, l->attr, utf8);
}

void ui_pane_text_draw(WINDOW *win, int y0, int height, int width, const struct ui_pane_text *p,
                       int first, const struct ui_theme *th)
{
    if (height <= 0)
        return;
    if (p->n <= height) {
        for (int i = 0; i < p->n; i++)
            put_line(win, y0 + i, width, &p->line[i], th->utf8);
        return;
    }
    if (p->pin_last && height == 1) { /* room for the result line only */
        put_line(win, y0, width, &p->line[p->n - 1], th->utf8);
        return;
    }
    const int rows = rows_when_cut(p, height), max = ui_pane_text_max_scroll(p, height);
    first = first < 0 ? 0 : first > max ? max : first;
    for (int i = 0; i < rows; i++)
        put_line(win, y0 + i, width, &p->line[first + i], th->utf8);
    const int above = first, below = scrolling(p) - first - rows;
    char more[96];
    if (below > 0 && above > 0)
        snprintf(more, sizeof more, "%s%d more above · %s%d more below · K J",
                 ui_more_arrow(false, th->utf8), above, ui_more_arrow(true, th->utf8), below);
    else if (below > 0)
        snprintf(more, sizeof more, "%s%d more below · J scrolls", ui_more_arrow(true, th->utf8),
                 below);
    else
        snprintf(more, sizeof more, "%s%d more above · K scrolls back",
                 ui_more_arrow(false, th->utf8), above);
    const int mw = ui_text_width(more, th->utf8);
    ui_put(win, y0 + rows, mw < width ? 1 + width - mw : 1, more, width,
           ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    if (p->pin_last)
        put_line(win, y0 + height - 1, width, &p->line[p->n - 1], th->utf8);
}
