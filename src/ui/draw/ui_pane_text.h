/* ui_pane_text.h - the lines of a text pane (the stage's description, the
 * explain panel) drawn from a scroll offset, with a marker line saying what
 * is cut above or below.  The lines point into text the caller keeps. */
#ifndef UI_PANE_TEXT_H
#define UI_PANE_TEXT_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "ui/draw/ui_theme.h"

#define UI_PANE_TEXT_MAX 256

struct ui_pane_line {
    const char *s;
    size_t len;
    int attr;
};

struct ui_pane_text {
    struct ui_pane_line line[UI_PANE_TEXT_MAX];
    int n;         /* lines kept (at most UI_PANE_TEXT_MAX) */
    bool pin_last; /* the last line shows even when the pane is scrolled or cut */
};

/* Add text word-wrapped to width columns ('\n' breaks), in attr. */
void ui_pane_text_wrap(struct ui_pane_text *p, const char *text, int width, int attr, bool utf8);
/* Add one line as it is (drawn cut to the width). */
void ui_pane_text_line(struct ui_pane_text *p, const char *s, size_t len, int attr);

/* The largest useful scroll offset when the lines are drawn in height rows. */
int ui_pane_text_max_scroll(const struct ui_pane_text *p, int height);

/* Draw the lines into rows [y0, y0 + height) of win, width columns from
 * column 1, from line first (clamped).  When they do not all fit, the last
 * row but the pinned one says "↓ N more below" / "↑ N more above" and keys
 * (J K scroll the pane). */
void ui_pane_text_draw(WINDOW *win, int y0, int height, int width, const struct ui_pane_text *p,
                       int first, const struct ui_theme *th);

#endif
