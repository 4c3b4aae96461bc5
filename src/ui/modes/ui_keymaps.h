/* ui_keymaps.h - every mode's key table, each beside its mode's handler,
 * and the list the help screen shows them in (ui_mode_help.c). */
#ifndef UI_KEYMAPS_H
#define UI_KEYMAPS_H

#include "ui/state/ui_keymap.h"
#include "ui/state/ui_quiz.h" /* its two tables */

/* Every mode's table, in the order the help screen shows them. */
extern const struct ui_keymap *const ui_keymaps[];
extern const int ui_keymap_count;

/* The tables, each beside its mode's handler. */
extern const struct ui_keymap ui_keymap_help;    /* ui_mode_help.c */
extern const struct ui_keymap ui_keymap_menu;    /* ui_lesson_menu.c */
extern const struct ui_keymap ui_keymap_prompt;  /* ui_prompt.c */
extern const struct ui_keymap ui_keymap_popup;   /* ui_popup.c */
extern const struct ui_keymap ui_keymap_explain; /* ui_mode_panes.c */
extern const struct ui_keymap ui_keymap_present; /* ui_mode_panes.c */
extern const struct ui_keymap ui_keymap_train;   /* ui_train_keys.c */
extern const struct ui_keymap ui_keymap_follow;  /* ui_follow.c */

/* The follower's own actions (ui_keymap_follow). */
enum ui_follow_act { UI_FOLLOW_REJOIN, UI_FOLLOW_QUIT };

#endif
