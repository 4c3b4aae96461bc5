/* ui_train_draw.h - the parts ui_train_draw.c lays a run's pane out
 * with: its loss curve and accuracy lines (ui_train_curve.c) and the grid
 * of its heads' heatmaps (ui_train_heads.c), or the lines its model writes
 * in their place (ui_train_samples.c). */
#ifndef UI_TRAIN_DRAW_H
#define UI_TRAIN_DRAW_H

#include <curses.h>
#include <stdbool.h>

#include "train/train.h"
#include "train/train_heads.h"
#include "train/trun.h"

struct ui_layout;
struct ui_theme;

/* What the training screen is drawn from (ui_train_draw.c): the run on
 * screen, the theme, and whether the presenter's layout is on (the screen's
 * title gives way to its header). */
struct ui_train_view {
    const struct trun *t;
    const struct ui_theme *th;
    bool present;
};
/* The pane of --compare's screen at screen (y, x) in lay's visualisation,
 * or -1 (also when one model trains). */
int ui_train_view_pane_at(const struct ui_train_view *v, const struct ui_layout *lay, int y, int x);
/* Lines the canvas needs in width columns (ui_train_canvas_need). */
int ui_train_view_need(const struct ui_train_view *v, int width, bool curve, bool half);
/* The training screen: its header lines into vis, the rest into the
 * canvas cv, view_h lines of width; hide: the figures a waiting checkpoint
 * could be read off (accuracies, the heads' measured jobs) wait for the
 * answer. */
void ui_train_view_draw(const struct ui_train_view *v, WINDOW *vis, WINDOW *cv, int width,
                        int view_h, bool hide);

/* The loss curves of p in a box h x w at (y, x): a legend line, then the
 * training loss of every step as an area and the held-out loss of each
 * evaluation as a dot over it, the y axis labelled with the largest of
 * either and 0, the x axis running over the step limit, the step shown
 * marked.  Held-out above training is what learning the lines by heart
 * looks like. */
void ui_train_draw_curve(WINDOW *win, int y, int x, int h, int w, const struct trun *t,
                         const struct trun_pane *p, const struct ui_theme *th);

/* Output k's held-out accuracy in one line of w columns at (y, x): its
 * name, a one-line curve of the evaluations over the step limit, and the
 * value at the step shown ("? answer first" when hide). */
void ui_train_draw_accuracy(WINDOW *win, int y, int x, int w, const struct trun *t,
                            const struct trun_pane *p, int k, bool hide, const struct ui_theme *th);

/* A text's output line where its jobs' lines have no room: the output's
 * accuracy, then each job's ("next 35.2%  first 3.6%  copy 99.8%"), as
 * many as fit w columns, in place of the one-line curve. */
void ui_train_draw_accuracy_jobs(WINDOW *win, int y, int x, int w, const struct trun *t,
                                 const struct trun_pane *p, const struct ui_theme *th);

/* Job j of a text's held-out words, under the next word's accuracy: its
 * name indented and its top-1 with every head, as measured at the live
 * model's last evaluation or when the checkpoint shown was kept ("–"
 * before the first measure). */
void ui_train_draw_job(WINDOW *win, int y, int x, int w, const struct trun *t,
                       const struct trun_pane *p, int j, const struct ui_theme *th);

/* How a model's heads are drawn: the size of a weight's cell, the grid of
 * heads, and the box the grid takes. */
struct ui_train_heads {
    int label_w;        /* a row's token and the space after it */
    int cell_w, cell_h; /* columns and lines one weight takes */
    bool half;          /* two rows of 1 x 1 cells to a line (ui_theme's half) */
    int gap;            /* columns between two heads side by side */
    int across, rows;   /* the grid */
    int shown;          /* heads drawn; the others are counted */
    int w, h;           /* the grid's box */
    int room;           /* columns the grid was given: a row's last title may run on */
};

/* The roomiest grid of m's heads that fits w x h (true), two rows to a
 * line only where half is set and nothing else fits; when none does, the
 * smallest (two rows to a line where half is set), cut to the rows of
 * heads that fit (false). */
bool ui_train_heads_fit(const struct train_model *m, bool utf8, bool half, int w, int h,
                        struct ui_train_heads *g);

/* The smallest grid of m's heads in one row (or as few rows as w allows);
 * half: two rows of its cells to a line. */
void ui_train_heads_smallest(const struct train_model *m, bool utf8, bool half, int w,
                             struct ui_train_heads *g);

/* The heads of m in the grid g from (y, x), cut at line max_y; heads that
 * did not fit are counted on the last line.  roles: what each head was
 * measured to do, or NULL; jobs: a text's jobs each head does, or NULL. */
void ui_train_draw_heads(WINDOW *win, int y, int x, const struct ui_train_heads *g, int max_y,
                         const struct train_model *m, const struct train_head_stats *roles,
                         char (*jobs)[TRUN_JOBS_LABEL], const struct ui_theme *th);

/* o: the lines the model pane p shows writes (trun_pane_samples), in h x w
 * at (y, x) in the heatmaps' place: the step and temperature they were
 * written at, then each line, wrapped, as many as fit whole
 * (ui_train_samples.c). */
void ui_train_draw_samples(WINDOW *win, int y, int x, int h, int w, const struct trun *t,
                           const struct trun_pane *p, const struct ui_theme *th);

#endif
