/* ui_bigtext.h - big letters for the presenter's stage title: a 3 x 5
 * pixel font drawn with half blocks (▀ ▄ █), so one letter is 3 columns by
 * 3 lines at scale 1, and 6 columns by 5 lines at scale 2.  Pure text, no
 * curses; the caller puts the lines on the screen.  Only UTF-8 terminals
 * have the blocks: without them the title is written in plain capitals. */
#ifndef UI_BIGTEXT_H
#define UI_BIGTEXT_H

#include <stddef.h>

#define UI_BIG_MAX_ROWS 5

/* Lines a big title takes at scale 1 or 2 (3 or 5); 1 for scale 0 (plain). */
int ui_big_rows(int scale);

/* Columns text takes in big letters at scale (ASCII letters, digits, space,
 * '.', ':' and '-'; other characters as a blank letter).  Scale 0: plain
 * capitals with a space between letters ("A T T E N T I O N"). */
int ui_big_width(const char *text, int scale);

/* Line row (0 .. ui_big_rows(scale) - 1) of text in big letters into buf
 * (n bytes, UTF-8).  Returns the columns written (ui_big_width). */
int ui_big_line(const char *text, int scale, int row, char *buf, size_t n);

#endif
