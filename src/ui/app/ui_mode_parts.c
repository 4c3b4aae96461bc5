/* ui_mode_parts.c - the modes whose own files work on a part of the app,
 * each bound here to that part: what a mode is given is said in one place,
 * and its file never opens struct ui_app.  The command line sees the state,
 * its histories and the bundled examples (what it runs is run here); the
 * help screen, the state, the theme and the full-screen window; the pop-up,
 * its own struct, the theme and the screen's size. */
#include "ui/app/ui_modes.h"

#include "ui/commands/ui_cmd.h"
#include "ui/commands/ui_find.h"
#include "ui/commands/ui_popup.h"
#include "ui/commands/ui_prompt.h"
#include "ui/modes/ui_app.h"
#include "ui/panes/ui_panes.h"

/* ---- the ':' and '/' lines (commands/ui_prompt.c) ---------------------------------------- */

static struct ui_prompt_part prompt_part(struct ui_app *app)
{
    return (struct ui_prompt_part){&app->st, &app->hist, &app->find_hist, app->les.assets_dir};
}

void ui_app_prompt_open(struct ui_app *app, char lead)
{
    const struct ui_prompt_part p = prompt_part(app);
    ui_prompt_open(&p, lead);
}

static bool prompt_open(const struct ui_app *app)
{
    return app->st.cmd_active;
}

static bool prompt_key(struct ui_app *app, int key, bool is_char)
{
    const struct ui_prompt_part p = prompt_part(app);
    const char lead = app->st.cmd_lead;
    char line[UI_CMD_MAX];
    if (!ui_prompt_key(&p, key, is_char, line))
        return true; /* the line takes every key while it is open */
    if (lead == '/')
        ui_find_token(&app->st, app->blocks, app->n_blocks, app->find_word, sizeof app->find_word,
                      line, false);
    else
        ui_app_command(app, line);
    return true;
}

const struct ui_mode ui_mode_prompt = {"command line", prompt_open, prompt_key, NULL, NULL, false};

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
