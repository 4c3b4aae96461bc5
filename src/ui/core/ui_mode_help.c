/* ui_mode_help.c - the help screen as a mode: it covers the screen,
 * scrolls, and q, Esc, ? or Enter close it (as in less and man). */
#include "ui/core/ui_app.h"
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

static bool help_key(struct ui_app *app, int key, bool is_char)
{
    struct ui_state *st = &app->st;
    const int page = app->rows - 3 > 1 ? app->rows - 3 : 1;
    key = ui_mode_keycode(key, is_char);
    switch (key) {
    case KEY_UP:
    case 'k':
        help_scroll(app, -1);
        break;
    case KEY_DOWN:
    case 'j':
        help_scroll(app, +1);
        break;
    case KEY_PPAGE:
    case 'b':
        help_scroll(app, -page);
        break;
    case KEY_NPAGE:
    case ' ':
        help_scroll(app, +page);
        break;
    case KEY_HOME:
    case 'g':
        help_scroll(app, -(1 << 20));
        break;
    case KEY_END:
    case 'G':
        help_scroll(app, 1 << 20);
        break;
    case 'q':
    case 'Q':
    case 27:
    case '?':
    case KEY_F(1):
    case '\n':
    case '\r':
    case KEY_ENTER:
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
