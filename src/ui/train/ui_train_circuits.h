/* ui_train_circuits.h - w on the training screen: what each head writes,
 * in place of the heatmaps (ui_train_circuits.c). */
#ifndef UI_TRAIN_CIRCUITS_H
#define UI_TRAIN_CIRCUITS_H

#include <curses.h>

#include "train/train.h"
#include "train/train_heads.h"
#include "train/trun.h"

/* Bytes of what a head was measured doing, for its reading. */
#define UI_TRAIN_MEASURED 128

/* What each head of m writes, in h x w at (y, x): its reading in one line
 * (train_circuit_reading_text, ending in measured[h] when measured is not
 * NULL), where it looks by position and, per output, the words it can
 * attend to with the output each raises most and its z-score over the row
 * (ui_train_circuits.c); roles: the heads' labels, or NULL; jobs: a text's
 * jobs each head does, or NULL.  Heads that do not fit are counted on the
 * last line. */
struct ui_theme;
void ui_train_draw_circuits(WINDOW *win, int y, int x, int h, int w, const struct train_model *m,
                            const struct train_head_stats *roles, char (*jobs)[TRUN_JOBS_LABEL],
                            char (*measured)[UI_TRAIN_MEASURED], const struct ui_theme *th);

#endif
