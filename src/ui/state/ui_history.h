/* ui_history.h - the lines the ':' and '/' lines ran before, to browse
 * with Up and Down (no curses in it). */
#ifndef UI_HISTORY_H
#define UI_HISTORY_H

#include "ui/state/ui_state.h"

#define UI_HISTORY_MAX 64

/* Lines run before, oldest first; at is the one shown while browsing
 * (n: the line being typed, kept in draft). */
struct ui_history {
    char *lines[UI_HISTORY_MAX]; /* owned */
    int n, at;
    char draft[UI_CMD_MAX];
};

/* Remember line (not an empty one, nor the same as the last). */
void ui_history_add(struct ui_history *h, const char *line);
/* Start browsing from the line being typed (current). */
void ui_history_reset(struct ui_history *h);
/* One line back (dir < 0) or forward: the line to show, or NULL when there
 * is none further that way.  current is kept as the draft when leaving it. */
const char *ui_history_step(struct ui_history *h, int dir, const char *current);
void ui_history_done(struct ui_history *h);

#endif
