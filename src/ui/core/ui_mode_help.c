/* ui_mode_help.c - the help screen as a mode: it covers the screen,
 * scrolls, and q, Esc, ? or Enter close it (as in less and man).  Its keys
 * are the table below. */
#include "ui/core/ui_app.h"
#include "ui/core/ui_keymap.h"
#include "ui/core/ui_mode.h"

static bool help_open(const struct ui_app *app)
{
    return app->st.help_open;
}

static void help_scroll(struct ui_app *app, int by)
{
    struct ui_state *st = &app->st;
    const int max = ui_help_lines() - (app->rows - 2);
    st->help_scroll += by;
    if (st->help_scroll > max)
        st->help_scroll = max;
    if (st->help_scroll < 0)
        st->help_scroll = 0;
}

enum help_act {
    HELP_UP,
    HELP_DOWN,
    HELP_PAGE_UP,
    HELP_PAGE_DOWN,
    HELP_TOP,
    HELP_BOTTOM,
    HELP_CLOSE
};

static const struct ui_keymap_row help_rows[] = {
    {{'q', 'Q', 27, '?', KEY_F(1), '\n', '\r', KEY_ENTER},
     "q Q Esc ? F1 Enter",
     HELP_CLOSE,
     "close the help, as in less and man",
     "q, Esc or ? closes"},
    {{KEY_UP, 'k'}, "↑ k", HELP_UP, "a line up", NULL},
    {{KEY_DOWN, 'j'}, "↓ j", HELP_DOWN, "a line down", "↑ ↓ scroll"},
    {{KEY_PPAGE, 'b'}, "PgUp b", HELP_PAGE_UP, "a page up", NULL},
    {{KEY_NPAGE, ' '}, "PgDn Space", HELP_PAGE_DOWN, "a page down", NULL},
    {{KEY_HOME, 'g'}, "Home g", HELP_TOP, "the top", NULL},
    {{KEY_END, 'G'}, "End G", HELP_BOTTOM, "the end: the commands and the mouse", NULL},
};
const struct ui_keymap ui_keymap_help = UI_KEYMAP("In the help (this screen)", help_rows);

static bool help_key(struct ui_app *app, int key, bool is_char)
{
    struct ui_state *st = &app->st;
    const int page = app->rows - 3 > 1 ? app->rows - 3 : 1;
    switch (ui_keymap_action(&ui_keymap_help, ui_mode_keycode(key, is_char), -1)) {
    case HELP_UP:
        help_scroll(app, -1);
        break;
    case HELP_DOWN:
        help_scroll(app, +1);
        break;
    case HELP_PAGE_UP:
        help_scroll(app, -page);
        break;
    case HELP_PAGE_DOWN:
        help_scroll(app, +page);
        break;
    case HELP_TOP:
        help_scroll(app, -(1 << 20));
        break;
    case HELP_BOTTOM:
        help_scroll(app, 1 << 20);
        break;
    case HELP_CLOSE:
        st->help_open = false;
        break;
    default:
        break;
    }
    return true; /* the help takes every key while it shows */
}

static bool help_mouse(struct ui_app *app, const MEVENT *ev)
{
    if (ev->bstate & BUTTON4_PRESSED)
        help_scroll(app, -3);
    else if (ev->bstate & UI_BUTTON5)
        help_scroll(app, +3);
    return true;
}

static void help_draw(const struct ui_app *app)
{
    ui_help_draw(app->full, &app->st, &app->th, app->rows, app->cols);
}

const struct ui_mode ui_mode_help = {"help", help_open, help_key, help_mouse, help_draw, true};
