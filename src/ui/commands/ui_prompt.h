/* ui_prompt.h - the ':' command line and the '/' search line: editing
 * (any UTF-8 the terminal sends), Up/Down through the lines run before
 * (state/ui_history.h), Tab completion (ui_complete.h). */
#ifndef UI_PROMPT_H
#define UI_PROMPT_H

#include "ui/state/ui_history.h"

#include <stdbool.h>

struct ui_state;

/* What the line works on: the state (the line, its lead, the message),
 * the lines run before of each lead, and the bundled examples' folder Tab
 * completes from (NULL: none). */
struct ui_prompt_part {
    struct ui_state *st;
    struct ui_history *hist;      /* the ':' lines */
    struct ui_history *find_hist; /* the '/' words */
    const char *assets;
};

/* Open the line: lead ':' for a command, '/' to find a token. */
void ui_prompt_open(const struct ui_prompt_part *p, char lead);

/* The line as a mode (bound to the app's parts in app/ui_mode_parts.c,
 * open while st->cmd_active; it takes every key): a key edits it, walks
 * its history or completes it; Enter closes it, keeps it in its history and
 * gives it back in run (UI_CMD_MAX bytes) with true: the caller runs it
 * (':') or finds it ('/', st->cmd_lead). */
bool ui_prompt_key(const struct ui_prompt_part *p, int key, bool is_char, char *run);

#endif
