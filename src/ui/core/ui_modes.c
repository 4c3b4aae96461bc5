/* ui_modes.c - the stack of modes (ui_mode.h): keeping it in line with the
 * state, passing keys and clicks down it, drawing it; and the small modes
 * that are thin layers over the main screen: the presenter's layout, the
 * explain panel, a checkpoint waiting for an answer, the lesson list. */
#include "ui/core/ui_mode.h"

#include <string.h>

#include "ui/core/ui_app.h"
#include "ui/core/ui_keymap.h"
#include "ui/panes/ui_lesson.h"

/* Every mode but the main screen, in the order they go on the stack when
 * several open at once. */
static const struct ui_mode *const ui_mode_registry[] = {
    &ui_mode_train, &ui_mode_present, &ui_mode_explain, &ui_mode_quiz,
    &ui_mode_menu,  &ui_mode_prompt,  &ui_mode_popup,   &ui_mode_help,
};
#define REGISTRY_N ((int)(sizeof ui_mode_registry / sizeof ui_mode_registry[0]))

static bool on_stack(const struct ui_mode_stack *s, const struct ui_mode *m)
{
    for (int i = 0; i < s->n; i++)
        if (s->modes[i] == m)
            return true;
    return false;
}

void ui_modes_sync(struct ui_app *app)
{
    struct ui_mode_stack *s = &app->modes;
    s->modes[0] = &ui_mode_main;
    int k = 1;
    for (int i = 1; i < s->n; i++)
        if (s->modes[i]->open(app))
            s->modes[k++] = s->modes[i];
    s->n = k;
    for (int i = 0; i < REGISTRY_N && s->n < UI_MODE_MAX; i++)
        if (!on_stack(s, ui_mode_registry[i]) && ui_mode_registry[i]->open(app))
            s->modes[s->n++] = ui_mode_registry[i];
}

const struct ui_mode *ui_modes_top(const struct ui_app *app)
{
    return app->modes.n > 0 ? app->modes.modes[app->modes.n - 1] : &ui_mode_main;
}

bool ui_modes_key(struct ui_app *app, int key, bool is_char)
{
    ui_modes_sync(app);
    const bool armed = app->quit_armed;
    app->quit_armed = false; /* a q that asks for a second one holds only for the next key */
    for (int i = app->modes.n - 1; i >= 0; i--) {
        const struct ui_mode *m = app->modes.modes[i];
        if (m == &ui_mode_quiz)
            app->quit_armed = armed; /* the checkpoint decides about a second q */
        if (m->key && m->key(app, key, is_char))
            return true;
    }
    return false;
}

bool ui_modes_mouse(struct ui_app *app, const MEVENT *ev)
{
    ui_modes_sync(app);
    for (int i = app->modes.n - 1; i >= 0; i--) {
        const struct ui_mode *m = app->modes.modes[i];
        if (m->mouse && m->mouse(app, ev))
            return true;
        if (m->covers)
            return false; /* nothing below it shows, so nothing below is clicked */
    }
    return false;
}

void ui_modes_draw(const struct ui_app *app)
{
    const struct ui_mode_stack *s = &app->modes;
    int first = 0;
    for (int i = s->n - 1; i > 0; i--)
        if (s->modes[i]->covers) {
            first = i;
            break;
        }
    if (s->n == 0) {
        ui_mode_main.draw(app);
        return;
    }
    for (int i = first; i < s->n; i++)
        if (s->modes[i]->draw)
            s->modes[i]->draw(app);
}

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
    return app->les.l && ui_quiz_asking(&app->les.quiz);
}

/* The checkpoint's keys: a choice's number, or a typed answer (every
 * character typed once typing began, q included).  A q with nothing typed
 * asks for a second q before it quits. */
static bool quiz_key(struct ui_app *app, int key, bool is_char)
{
    struct ui_lessons *ls = &app->les;
    const bool typing = ui_quiz_numeric(&ls->quiz) && ls->quiz.typed[0];
    if (!typing && ui_quiz_is_quit(key, is_char) && ui_quiz_numeric(&ls->quiz)) {
        if (app->quit_armed) {
            app->quit_armed = false;
            app->st.quit = true; /* asked twice: as q on the main screen */
            return true;
        }
        app->quit_armed = true;
        ui_state_say(&app->st, false,
                     "The checkpoint waits for a number: type it and press Enter (Space goes on, "
                     "Esc leaves the lesson). q again quits.");
        return true;
    }
    app->quit_armed = false;
    return ui_lesson_quiz_key(ls, &app->st, key, is_char);
}

const struct ui_mode ui_mode_quiz = {"checkpoint", quiz_open, quiz_key, NULL, NULL, false};

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
    if (app->modal)
        ui_lesson_menu_draw(app->modal, &app->les, &app->th);
}

const struct ui_mode ui_mode_menu = {"lessons", menu_open, menu_key, menu_mouse, menu_draw, false};
