/* ui_modes.h - the stack of modes at the top: every mode, its work done in
 * its own file below on the part of the app it holds and bound to that
 * part here (ui_mode_parts.c), and the stack kept, keyed, clicked and
 * drawn (ui_modes.c). */
#ifndef UI_MODES_H
#define UI_MODES_H

#include "ui/app/ui_top.h"
#include "ui/state/ui_mode.h"

extern const struct ui_mode ui_mode_main; /* ui_update.c: the main screen */
/* The modes over it, whose own files work on a part of the app
 * (train/ui_train_keys.c, panes/ui_mode_panes.c, panes/ui_lesson_menu.c,
 * commands/ui_prompt.c, commands/ui_popup.c, panes/ui_mode_help.c), bound
 * to it in ui_mode_parts.c. */
extern const struct ui_mode ui_mode_train;
extern const struct ui_mode ui_mode_present;
extern const struct ui_mode ui_mode_explain;
extern const struct ui_mode ui_mode_quiz;   /* a checkpoint waiting for an answer */
extern const struct ui_mode ui_mode_menu;   /* the lesson list */
extern const struct ui_mode ui_mode_prompt; /* ':' and '/' */
extern const struct ui_mode ui_mode_popup;
extern const struct ui_mode ui_mode_help;

/* Open the ':' line (lead ':') or the '/' line on the app's parts. */
void ui_app_prompt_open(struct ui_app *app, char lead);

/* Bring the stack in line with the state: modes that closed leave it,
 * modes that opened go on top (in ui_mode_registry's order). */
void ui_modes_sync(struct ui_app *app);
/* The top mode. */
const struct ui_mode *ui_modes_top(const struct ui_app *app);
/* A key down the stack from the top; true when a mode used it. */
bool ui_modes_key(struct ui_app *app, int key, bool is_char);
/* A mouse event down the stack from the top. */
bool ui_modes_mouse(struct ui_app *app, const MEVENT *ev);
/* Draw the stack (the windows are wnoutrefreshed, no doupdate). */
void ui_modes_draw(const struct ui_app *app);

#endif
