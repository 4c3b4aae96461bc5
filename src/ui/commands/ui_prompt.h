/* ui_prompt.h - the ':' command line and the '/' search line: editing
 * (any UTF-8 the terminal sends), Up/Down through the lines run before
 * (state/ui_history.h), Tab completion (ui_complete.h). */
#ifndef UI_PROMPT_H
#define UI_PROMPT_H

#include "ui/state/ui_history.h"

struct ui_app;
/* Open the line: lead ':' for a command, '/' to find a token. */
void ui_prompt_open(struct ui_app *app, char lead);

#endif
