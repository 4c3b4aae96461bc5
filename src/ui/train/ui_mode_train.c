/* ui_mode_train.c - the training screen as a mode: open while the explorer
 * holds a model in training (--train, --compare, a lesson's train: scene).
 * It sits lowest on the stack, right above the main screen, so the
 * presenter's layout, the explain panel, checkpoints, the lesson list, the
 * ':' line, pop-ups and the help all take their keys first.  Its keys are
 * the training screen's table (ui_train_keys.c); what it does not use (the
 * stage keys, q, the lesson's Space) goes on to the main screen.  It draws
 * nothing of its own here: the training screen takes the main screen's
 * visualisation area (ui_train_draw.c). */
#include "ui/train/ui_train.h"
#include "ui/state/ui_mode.h"
#include "ui/modes/ui_mode_panes.h"

static bool train_open(const struct ui_app *app)
{
    return ui_train_held(app);
}

static bool train_key(struct ui_app *app, int key, bool is_char)
{
    return ui_train_key(app, key, is_char);
}

/* A click on a pane of --compare focuses it. */
static bool train_mouse(struct ui_app *app, const MEVENT *ev)
{
    if (!ui_train_on_screen(app) || !(ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return false;
    const int pane = ui_train_pane_at(app, ev->y, ev->x);
    if (pane < 0)
        return false;
    ui_train_focus(app, pane);
    return true;
}

const struct ui_mode ui_mode_train = {"train", train_open, train_key, train_mouse, NULL, false};
