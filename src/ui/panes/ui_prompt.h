/* ui_prompt.h - the ':' command line and the '/' search line: editing
 * (any UTF-8 the terminal sends), Up/Down through the lines run before, Tab
 * completion (ui_complete.h).  The history has no curses in it. */
#ifndef UI_PROMPT_H
#define UI_PROMPT_H

#include "ui/core/ui_state.h"

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

struct ui_app;
/* Open the line: lead ':' for a command, '/' to find a token. */
void ui_prompt_open(struct ui_app *app, char lead);

#endif
