/* ui_mode_parts.c - the modes whose own files work on a part of the app,
 * each bound here to that part: what a mode is given is said in one place,
 * and its file never opens struct ui_app.  The help screen sees the state,
 * the theme and the full-screen window; the pop-up, its own struct, the
 * theme and the screen's size. */
#include "ui/app/ui_modes.h"

#include "ui/commands/ui_popup.h"
#include "ui/modes/ui_app.h"
#include "ui/panes/ui_panes.h"

/* ---- the help screen (panes/ui_mode_help.c) ---------------------------------------------- */

static bool help_open(const struct ui_app *app)
{
    return app->st.help_open;
}

static bool help_key(struct ui_app *app, int key, bool is_char)
{
    return ui_help_key(&app->st, app->win.rows, key, is_char);
}

static bool help_mouse(struct ui_app *app, const MEVENT *ev)
{
    return ui_help_mouse(&app->st, app->win.rows, ev);
}

static void help_draw(const struct ui_app *app)
{
    ui_help_draw(app->win.full, &app->st, &app->th, app->win.rows, app->win.cols);
}

const struct ui_mode ui_mode_help = {"help", help_open, help_key, help_mouse, help_draw, true};

/* ---- the pop-up (commands/ui_popup.c) ---------------------------------------------------- */

static bool popup_open(const struct ui_app *app)
{
    return app->popup.command != NULL;
}

static bool popup_key(struct ui_app *app, int key, bool is_char)
{
    return ui_popup_key(&app->popup, key, is_char);
}

static bool popup_mouse(struct ui_app *app, const MEVENT *ev)
{
    return ui_popup_mouse(&app->popup, ev);
}

static void popup_draw(const struct ui_app *app)
{
    ui_popup_draw(&app->popup, &app->th, app->win.rows, app->win.cols);
}

const struct ui_mode ui_mode_popup = {"pop-up",    popup_open, popup_key,
                                      popup_mouse, popup_draw, false};
