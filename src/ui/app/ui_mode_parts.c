/* ui_mode_parts.c - every mode over the main screen, each bound here to
 * the part of the app its own file works on: what a mode is given is said
 * in one place, and its file never opens struct ui_app.  The training
 * screen sees the state, its run, the stream (whether a key is its own), a
 * lesson's being open, the layout and the theme; the presenter's
 * layout and the explain panel see the state; a waiting checkpoint, the
 * lessons, the state and whether the training screen shows; the lesson
 * list, the lessons, the state, its box, window and the theme; the command
 * line, the state, its histories and the bundled examples (what it runs is
 * run here); the help screen, the state, the theme and the full-screen
 * window; the pop-up, its own struct, the theme and the screen's size. */
#include "ui/app/ui_modes.h"

#include "ui/commands/ui_cmd.h"
#include "ui/commands/ui_find.h"
#include "ui/commands/ui_popup.h"
#include "ui/commands/ui_prompt.h"
#include "ui/modes/ui_app.h"
#include "ui/panes/ui_lesson_menu.h"
#include "ui/panes/ui_panes.h"
#include "ui/train/ui_train.h"

/* ---- the training screen (train/ui_train_keys.c) ---------------------------------------- */

/* It sits lowest on the stack, right above the main screen, so the
 * presenter's layout, the explain panel, checkpoints, the lesson list, the
 * ':' line, pop-ups and the help all take their keys first; what it does
 * not use (the stage keys, q, the lesson's Space) goes on to the main
 * screen.  It draws nothing of its own here: the training screen takes the
 * main screen's visualisation area (train/ui_train_draw.c). */
static struct ui_train_keys train_part(struct ui_app *app)
{
    return (struct ui_train_keys){&app->st,
                                  app->training.train,
                                  &app->stream,
                                  app->les.l != NULL,
                                  ui_train_prediction_waits(app),
                                  app->les.l && ui_quiz_asking(&app->les.quiz),
                                  &app->th,
                                  &app->lay};
}

static bool train_open(const struct ui_app *app)
{
    return ui_train_held(app);
}

static bool train_key(struct ui_app *app, int key, bool is_char)
{
    const struct ui_train_keys k = train_part(app);
    return ui_train_key(&k, key, is_char);
}

static bool train_mouse(struct ui_app *app, const MEVENT *ev)
{
    const struct ui_train_keys k = train_part(app);
    return ui_train_mouse(&k, ev);
}

const struct ui_mode ui_mode_train = {"train", train_open, train_key, train_mouse, NULL, false};

/* ---- the presenter's layout and the explain panel (panes/ui_mode_panes.c) ----------------- */

static bool present_open(const struct ui_app *app)
{
    return ui_present_open(&app->st);
}

static bool present_key(struct ui_app *app, int key, bool is_char)
{
    return ui_present_key(&app->st, key, is_char);
}

const struct ui_mode ui_mode_present = {"present", present_open, present_key, NULL, NULL, false};

static bool explain_open(const struct ui_app *app)
{
    return ui_explain_open(&app->st);
}

static bool explain_key(struct ui_app *app, int key, bool is_char)
{
    return ui_explain_key(&app->st, key, is_char);
}

const struct ui_mode ui_mode_explain = {"explain", explain_open, explain_key, NULL, NULL, false};

/* ---- a checkpoint waiting for an answer (panes/ui_mode_panes.c) -------------------------- */

static bool quiz_open(const struct ui_app *app)
{
    return ui_checkpoint_open(&app->les);
}

static bool quiz_key(struct ui_app *app, int key, bool is_char)
{
    return ui_checkpoint_key(&app->les, &app->st, ui_train_on_screen(app), key, is_char);
}

const struct ui_mode ui_mode_quiz = {"checkpoint", quiz_open, quiz_key, NULL, NULL, false};

/* ---- the lesson list (panes/ui_lesson_menu.c) -------------------------------------------- */

static bool menu_open(const struct ui_app *app)
{
    return app->les.menu_open;
}

static bool menu_key(struct ui_app *app, int key, bool is_char)
{
    return ui_lesson_menu_mode_key(&app->les, &app->st, key, is_char);
}

static bool menu_mouse(struct ui_app *app, const MEVENT *ev)
{
    return ui_lesson_menu_mouse(&app->les, &app->st, &app->lay.modal, ev);
}

static void menu_draw(const struct ui_app *app)
{
    if (app->win.modal)
        ui_lesson_menu_draw(app->win.modal, &app->les, &app->th);
}

const struct ui_mode ui_mode_menu = {"lessons", menu_open, menu_key, menu_mouse, menu_draw, false};

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
