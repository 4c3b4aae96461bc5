/* ui_mode_panes.h - the modes that are thin layers over the main screen,
 * and the other modes below the top (app/ui_modes.h stacks them all). */
#ifndef UI_MODE_PANES_H
#define UI_MODE_PANES_H

#include "ui/state/ui_mode.h"

extern const struct ui_mode ui_mode_train; /* ui_mode_train.c */

#endif
