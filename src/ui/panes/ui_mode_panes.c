/* ui_mode_panes.c - the small modes that are thin layers over the main
 * screen: the presenter's layout, the explain panel, a checkpoint waiting
 * for an answer, the lesson list (app/ui_modes.c stacks them). */
#include "ui/modes/ui_mode_panes.h"

#include "ui/modes/ui_app.h"
#include "ui/panes/ui_panes.h"
#include "ui/train/ui_train.h"
#include "ui/panes/ui_lesson_menu.h"
#include "ui/modes/ui_keymaps.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_lesson.h"

/* ---- the presenter's layout: q and Esc go back to the usual one ---------------------------- */

static bool present_open(const struct ui_app *app)
{
    return app->st.present;
}

enum leave_act { LEAVE };

static const struct ui_keymap_row present_rows[] = {
    {{'q', 'Q', 27}, "q Q Esc", LEAVE, "back to the usual layout", NULL},
};
const struct ui_keymap ui_keymap_present = UI_KEYMAP("In presenter mode (P)", present_rows);

static bool present_key(struct ui_app *app, int key, bool is_char)
{
    if (ui_keymap_action(&ui_keymap_present, ui_mode_keycode(key, is_char), -1) != LEAVE)
        return false;
    app->st.present = false;
    ui_state_say(&app->st, false, "Presenter mode off (P brings it back).");
    return true;
}

const struct ui_mode ui_mode_present = {"present", present_open, present_key, NULL, NULL, false};

/* ---- the explain panel: q and Esc close it, the cursor stays -------------------------------- */

static bool explain_open(const struct ui_app *app)
{
    return app->st.explain_open && app->st.focus;
}

static const struct ui_keymap_row explain_rows[] = {
    {{'q', 'Q', 27}, "q Q Esc", LEAVE, "close it; the cursor stays on its number", NULL},
};
const struct ui_keymap ui_keymap_explain =
    UI_KEYMAP("With the explain panel open (Enter)", explain_rows);

static bool explain_key(struct ui_app *app, int key, bool is_char)
{
    if (ui_keymap_action(&ui_keymap_explain, ui_mode_keycode(key, is_char), -1) != LEAVE)
        return false;
    app->st.explain_open = false;
    app->st.msg[0] = '\0';
    return true;
}

const struct ui_mode ui_mode_explain = {"explain", explain_open, explain_key, NULL, NULL, false};

/* ---- a checkpoint waiting for an answer ------------------------------------------------------ */

static bool quiz_open(const struct ui_app *app)
{
    const struct ui_quiz *z = &app->les.quiz;
    return app->les.l &&
           (ui_quiz_asking(z) || (z->q && z->phase == UI_QUIZ_ANSWERED && !z->revealed));
}

/* A checkpoint with choices over a lesson's training screen leaves the
 * training's own keys to it (p starts the run the question is about). */
static bool train_passes(const struct ui_app *app, int key)
{
    const struct ui_quiz *z = &app->les.quiz;
    return z->q && !ui_quiz_numeric(z) && ui_train_on_screen(app) &&
           ui_keymap_find(&ui_keymap_train, key) &&
           ui_keymap_action(&ui_keymap_quiz_choice, key, -1) < 0;
}

/* The checkpoint's keys: a choice's number, or a typed answer (every
 * character typed once typing began, q included; with nothing typed q goes
 * on to the main screen, which leaves the lesson).  Once it is answered a
 * digit is still its own: a number typed after the answer never jumps to a
 * stage. */
static bool quiz_key(struct ui_app *app, int key, bool is_char)
{
    struct ui_lessons *ls = &app->les;
    if (train_passes(app, ui_mode_keycode(key, is_char)))
        return false;
    if (!ui_quiz_asking(&ls->quiz))
        return ui_lesson_quiz_after_key(ls, &app->st, key, is_char);
    return ui_lesson_quiz_key(ls, &app->st, key, is_char);
}

const struct ui_mode ui_mode_quiz = {"checkpoint", quiz_open, quiz_key, NULL, NULL, false};

bool ui_app_front_takes(int key, const void *ctx)
{
    const struct ui_app *app = ctx;
    if (explain_open(app) && ui_keymap_find(&ui_keymap_explain, key))
        return true;
    if (present_open(app) && ui_keymap_find(&ui_keymap_present, key))
        return true;
    return app->les.l && ui_quiz_takes(&app->les.quiz, key) && !train_passes(app, key);
}

/* ---- the lesson list ------------------------------------------------------------------------ */

static bool menu_open(const struct ui_app *app)
{
    return app->les.menu_open;
}

static bool menu_key(struct ui_app *app, int key, bool is_char)
{
    app->st.msg[0] = '\0';
    ui_lesson_menu_key(&app->les, &app->st, ui_mode_keycode(key, is_char), is_char);
    return true;
}

/* The row of the list at screen line y, or -1. */
static int menu_row_at(const struct ui_app *app, int y, int x)
{
    const struct ui_rect *r = &app->lay.modal;
    const int rows = ui_lesson_menu_rows(&app->les), body = r->h - 4;
    if (x <= r->x || x >= r->x + r->w - 1 || y < r->y + 2 || y >= r->y + 2 + body)
        return -1;
    const int row = ui_window_start(app->les.menu_sel, body, rows) + (y - r->y - 2);
    return row < rows ? row : -1;
}

static bool menu_mouse(struct ui_app *app, const MEVENT *ev)
{
    if (ev->bstate & BUTTON4_PRESSED)
        ui_lesson_menu_key(&app->les, &app->st, KEY_UP, false);
    else if (ev->bstate & UI_BUTTON5)
        ui_lesson_menu_key(&app->les, &app->st, KEY_DOWN, false);
    else if (ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
        const int row = menu_row_at(app, ev->y, ev->x);
        if (row < 0)
            return true; /* outside the list: nothing */
        app->les.menu_sel = row;
        ui_lesson_menu_key(&app->les, &app->st, KEY_ENTER, false);
    }
    return true;
}

static void menu_draw(const struct ui_app *app)
{
    if (app->win.modal)
        ui_lesson_menu_draw(app->win.modal, &app->les, &app->th);
}

const struct ui_mode ui_mode_menu = {"lessons", menu_open, menu_key, menu_mouse, menu_draw, false};
