/* ui_layout.h - the arithmetic of the screen: where each pane goes, how the
 * pipeline bar fits, how blocks flow in the visualisation, how much of a
 * matrix shows, and how numbers are written.  Pure functions, no curses. */
#ifndef UI_LAYOUT_H
#define UI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha.h"

/* Below this size the explorer shows only the "enlarge the terminal" notice. */
#define UI_MIN_COLS 64
#define UI_MIN_ROWS 18
/* From this width on, the text pane sits beside the visualisation. */
#define UI_WIDE_COLS 120
/* With a lesson open (reading text) it does so from this width on. */
#define UI_READING_WIDE_COLS 100

struct ui_rect {
    int y, x, h, w;
};

struct ui_layout {
    int rows, cols;
    bool too_small;    /* only the notice is drawn */
    bool side_by_side; /* text pane to the right of the visualisation */
    struct ui_rect bar, vis, side, msg, status;
    /* presenter layout only (bar is empty then): the header with the stage's
     * title in big letters of this scale (0: one plain line) and formula */
    bool present;
    struct ui_rect head;
    int big;
    struct ui_rect modal; /* a box over the middle of the screen (the lesson list) */
};

/* Split a rows x cols screen.  msg_lines: lines the message / command line
 * needs (clamped to 1..4); side_lines: lines the text pane would like when it
 * sits below the visualisation (clamped to a share of the screen). */
void ui_layout_compute(int rows, int cols, int msg_lines, int side_lines, struct ui_layout *out);

/* The same while a lesson is read: its pane is 40 % of a wide screen (40 to
 * 60 columns) beside the visualisation from UI_READING_WIDE_COLS on, and may
 * take up to 55 % of the height when it sits below. */
void ui_layout_compute_reading(int rows, int cols, int msg_lines, int side_lines,
                               struct ui_layout *out);

/* The presenter's layout (P, --present): no pipeline bar and no key hints;
 * a header with the stage's title in big letters, as large as the screen
 * allows, and its formula; the numbers with a margin; the text pane (a
 * lesson, or the explain panel) beside them on a wide screen, else below;
 * the message line only when there is a message; a one-line status. */
struct ui_present_need {
    int msg_lines;     /* 0..4 */
    int formula_lines; /* 1..2 */
    int title_w;       /* the title's columns in big letters at scale 1; 0: plain only */
    int caption_w;     /* columns of the caption beside the title */
    bool pane;         /* a text pane is shown */
    int pane_lines;    /* lines it would like when it sits below */
};

/* From this size on the title is drawn at scale 1 (3 lines), and scale 2. */
#define UI_PRESENT_BIG_ROWS 24
#define UI_PRESENT_HUGE_ROWS 48
/* Lines the numbers keep at least, taken from the title first. */
#define UI_PRESENT_MIN_VIS 14

void ui_layout_compute_present(int rows, int cols, const struct ui_present_need *need,
                               struct ui_layout *out);
/* Lines of the presenter's header: the title at scale, then the formula. */
int ui_present_head_h(int scale, int formula_lines);
/* The margin left and right of the numbers in the presenter's layout. */
int ui_present_margin(int cols);

/* ---- pipeline bar ---------------------------------------------------------------------- */

enum ui_bar_form { UI_BAR_FULL, UI_BAR_SHORT, UI_BAR_DIGITS };

struct ui_bar_slot {
    int x, w;       /* columns of the slot, padding included */
    bool full_name; /* the slot shows the stage's full name */
    bool digit_only;
};

/* Place the MHA_STAGE_COUNT stage slots " N Name " with a 1-column separator between
 * them in width columns.  full[] and brief[] are the stage names in two
 * lengths (display widths are their byte lengths: ASCII names).  The current
 * stage keeps its full name as long as anything fits.  Returns the columns
 * used (may exceed width only when even digits do not fit). */
int ui_bar_fit(int width, const char *const full[MHA_STAGE_COUNT],
               const char *const brief[MHA_STAGE_COUNT], int current,
               struct ui_bar_slot slots[MHA_STAGE_COUNT]);

/* ---- flow of blocks in the visualisation ---------------------------------------------- */

struct ui_flow_item {
    int w, h;
    bool new_row; /* start on a new row even if it would fit */
};

/* Place items left to right, wrapping at width, hgap columns between items
 * on a row and vgap lines between rows.  Returns the total height. */
int ui_flow(const struct ui_flow_item *items, int n, int width, int hgap, int vgap,
            struct ui_rect *out);

/* ---- matrices ---------------------------------------------------------------------------- */

/* How much of a rows x cols matrix shows in max_w x max_h: a title line, a
 * column header line, then one line per visible row; label_w columns of row
 * labels plus a space, then cell_w columns per cell. */
struct ui_grid {
    int rows, cols; /* visible rows and columns (at least 1 each) */
    int label_w, cell_w;
    int w, h;     /* size of the whole block */
    bool clipped; /* not everything shows */
};
void ui_grid_fit(int rows, int cols, int label_w, int cell_w, int max_w, int max_h,
                 struct ui_grid *g);

/* First index of a window of visible out of total that keeps cursor in it,
 * centred where possible. */
int ui_window_start(int cursor, int visible, int total);

/* Scroll offset that keeps lines [top, top + height) of a canvas visible in a
 * view of view_h lines, moving as little as possible from scroll. */
int ui_scroll_follow(int scroll, int top, int height, int view_h, int canvas_h);

/* ---- numbers ------------------------------------------------------------------------------ */

/* How numbers of a matrix whose largest magnitude is range are written:
 * decimals (or -1 for exponent form) and the width of the widest one. */
struct ui_numfmt {
    int decimals, width;
};
struct ui_numfmt ui_numfmt_for(float range, bool probabilities);

/* The format of a matrix of largest magnitude range shown beside one of
 * largest magnitude other, so that both write the same decimals: the more
 * precise of the two as long as the wider numbers still take at most 7
 * columns, else the fewer.  Symmetric in the decimals; the width fits
 * range's own numbers. */
struct ui_numfmt ui_numfmt_shared(float range, float other);

/* Write v right-aligned in fmt.width columns ("-inf" for a masked score).
 * Returns buf. */
char *ui_num_format(char *buf, size_t n, float v, struct ui_numfmt fmt);

#endif
