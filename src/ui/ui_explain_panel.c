/* ui_explain_panel.c - "explain this number": the arithmetic behind the
 * cell under the cursor, written by the engine (explain.c), shown here. */
#include <stdio.h>
#include <string.h>

#include "explain.h"
#include "ui_app.h"
#include "ui_text.h"

/* The cell under the cursor; false when there is none. */
static bool cursor_cell(const struct ui_app *app, struct mha_cell *cell)
{
    const struct ui_state *st = &app->st;
    if (!st->focus || st->block < 0 || st->block >= app->n_blocks)
        return false;
    const struct ui_block *b = &app->blocks[st->block];
    if (!ui_block_selectable(b))
        return false;
    *cell = ui_block_cell(b, st->cur_r, st->cur_c);
    if (lesson_hide_covers(&st->hide, cell))
        return false; /* a checkpoint asks for it: no arithmetic until answered */
    return mha_cell_valid(st->tr, cell);
}

/* Fill e for the cursor cell, listing as many terms as height allows. */
static bool explain(const struct ui_app *app, int height, struct mha_explain *e)
{
    struct mha_cell cell;
    if (!cursor_cell(app, &cell))
        return false;
    struct mha_explain_options opt = {
        .ascii = !app->th.utf8,
        .generated = app->st.generated,
        .max_terms = height > 0 ? height - 9 : 12,
    };
    if (opt.max_terms < 4)
        opt.max_terms = 4;
    if (opt.max_terms > 24)
        opt.max_terms = 24;
    return mha_explain_cell(app->st.ex, app->st.tr, &cell, &opt, e, NULL) == 0;
}

int ui_explain_panel_lines(const struct ui_app *app, int width)
{
    static struct mha_explain e; /* 8 KiB: not on the stack of every caller */
    if (!explain(app, 0, &e))
        return 3;
    struct ui_line lines[2];
    return 2 + ui_text_wrap(e.title, width - 2, app->th.utf8, lines, 0) +
           ui_text_wrap(e.text, width - 2, app->th.utf8, lines, 0);
}

void ui_explain_panel_draw(WINDOW *win, const struct ui_app *app, int width, int height)
{
    static struct mha_explain e;
    const struct ui_theme *th = &app->th;
    if (!explain(app, height, &e)) {
        ui_pane_title(win, "Explain", width, th);
        ui_put(win, 1, 1, "No number under the cursor.", width - 2, 0, th->utf8);
        return;
    }
    ui_pane_title(win, "Explain this number", width, th);
    struct ui_line lines[128];
    int y = 1;
    int n = ui_text_wrap(e.title, width - 2, th->utf8, lines, 4);
    for (int i = 0; i < n && i < 4 && y < height; i++, y++) {
        char buf[512];
        int w = ui_text_fit_n(lines[i].start, lines[i].len, width - 2, th->utf8, buf, sizeof buf);
        ui_put(win, y, 1, buf, w, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    }
    n = ui_text_wrap(e.text, width - 2, th->utf8, lines, 128);
    for (int i = 0; i < n && i < 128 && y < height; i++, y++) {
        char buf[1024];
        int w = ui_text_fit_n(lines[i].start, lines[i].len, width - 2, th->utf8, buf, sizeof buf);
        int attr = 0;
        if (buf[0] == '=')
            attr = ui_role_attr(th, UI_ROLE_FORMULA); /* the result */
        else if (buf[0] == ' ' && buf[1] == ' ')
            attr = ui_role_attr(th, UI_ROLE_LABEL); /* the terms */
        ui_put(win, y, 1, buf, w, attr, th->utf8);
    }
    if (y < height - 1)
        ui_put(win, height - 1, 1, "Esc closes · arrows move to another number", width - 2,
               ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
}
