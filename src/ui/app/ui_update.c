/* ui_update.c - what each key does to the explorer's state: the actions of
 * the key table, the command line, the cell cursor and scrolling. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/app/ui_top.h"
#include "ui/panes/ui_panes.h"
#include "ui/train/ui_train.h"
#include "ui/commands/ui_cmd.h"
#include "ui/panes/ui_lesson_menu.h"
#include "io/export.h"
#include "ui/commands/ui_find.h"
#include "ui/state/ui_keys.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_mode.h"
#include "ui/commands/ui_prompt.h"
#include "ui/views/ui_views.h"
#include "ui/app/ui_modes.h"
#include "ui/app/ui_views_of.h"
#include "ui/modes/ui_keymaps.h"

static bool selectable(const struct ui_app *app, int i)
{
    return i >= 0 && i < app->n_blocks && ui_block_selectable(&app->blocks[i]);
}

/* Keep the cursor inside the focused block (and the block selectable). */
static void clamp_cursor(struct ui_app *app)
{
    struct ui_state *st = &app->st;
    if (!selectable(app, st->block)) {
        st->block = 0;
        while (st->block < app->n_blocks && !selectable(app, st->block))
            st->block++;
        if (st->block >= app->n_blocks) {
            st->focus = false;
            st->block = 0;
            return;
        }
    }
    const struct ui_block *b = &app->blocks[st->block];
    if (st->cur_r >= b->rows)
        st->cur_r = b->rows - 1;
    if (st->cur_c >= b->cols)
        st->cur_c = b->cols - 1;
    if (st->cur_r < 0)
        st->cur_r = 0;
    if (st->cur_c < 0)
        st->cur_c = 0;
}

/* Scroll so the focused block's cursor line shows, with the title if it can. */
static void follow_cursor(struct ui_app *app)
{
    struct ui_state *st = &app->st;
    const int view_h = ui_app_view_h(app);
    if (!st->focus || !selectable(app, st->block)) { /* no cursor: the scroll stays, inside */
        st->scroll = ui_scroll_follow(st->scroll, st->scroll, 0, view_h, app->canvas_h);
        return;
    }
    const struct ui_block *b = &app->blocks[st->block];
    const struct ui_block_geom *g = &app->geoms[st->block];
    int r0, c0;
    ui_block_window(b, g, st->cur_r, st->cur_c, &r0, &c0);
    const int top = app->pos[st->block].y;
    const int line = top + g->header + (st->cur_r - r0) * g->row_step;
    /* the whole block when it fits, else from its title down to the cursor */
    const int span = g->h <= view_h ? g->h : line - top + 1;
    st->scroll = ui_scroll_follow(st->scroll, top, span, view_h, app->canvas_h);
    st->scroll = ui_scroll_follow(st->scroll, line, 1, view_h, app->canvas_h);
}

static void focus_step(struct ui_app *app, int dir)
{
    struct ui_state *st = &app->st;
    if (!st->focus) {
        st->focus = true;
        st->block = dir > 0 ? 0 : app->n_blocks - 1;
        while (st->block >= 0 && st->block < app->n_blocks && !selectable(app, st->block))
            st->block += dir;
        return;
    }
    for (int i = 1; i <= app->n_blocks; i++) {
        int b = ((st->block + dir * i) % app->n_blocks + app->n_blocks) % app->n_blocks;
        if (selectable(app, b)) {
            st->block = b;
            return;
        }
    }
}

static void move_cursor(struct ui_app *app, int dr, int dc)
{
    app->st.cur_r += dr;
    app->st.cur_c += dc;
    clamp_cursor(app);
}

/* Lines of lesson text, and how many the lesson pane shows. */
static void lesson_pane_size(const struct ui_app *app, int *total, int *body)
{
    const struct ui_lesson_view lv = ui_lesson_view_of(app);
    *total = ui_lesson_pane_lines(&lv, app->lay.side.w) - 1;
    *body = ui_lesson_pane_body(app->lay.side.h, *total + 1);
}

/* Lines a page of the lesson pane moves: all but one kept for context,
 * all of them in a pane of three lines or fewer (the training screen's at
 * 80x24), where keeping one would move a line a key. */
static int lesson_page(int body)
{
    return body > 3 ? body - 1 : body > 0 ? body : 1;
}

static bool lesson_pane_shown(const struct ui_app *app)
{
    return app->les.l && !(app->st.explain_open && app->st.focus);
}

/* Space in a lesson: the rest of the step's text first, then the next step. */
static void read_on(struct ui_app *app)
{
    int total, body;
    lesson_pane_size(app, &total, &body);
    if (lesson_pane_shown(app) && app->les.scroll + body < total) {
        app->les.fold = false;
        app->les.scroll += lesson_page(body);
        return;
    }
    ui_lesson_next(&app->les, &app->st);
}

static void lesson_scroll(struct ui_app *app, int lines)
{
    int total, body;
    lesson_pane_size(app, &total, &body);
    const int page = lesson_page(body);
    app->les.fold = false; /* the text as it runs */
    app->les.scroll += lines == 0  ? 0
                       : lines > 0 ? (lines > 1 ? page : 1)
                                   : (lines < -1 ? -page : -1);
}

/* J and K: the text pane a line down or up, the lesson's text or else the
 * stage's text or the explain panel, whichever is shown. */
static void text_scroll(struct ui_app *app, int lines)
{
    if (lesson_pane_shown(app))
        lesson_scroll(app, lines);
    else
        app->st.side_scroll += lines;
}

static void cycle_view(struct ui_state *st)
{
    const enum mha_view next = (enum mha_view)((st->view + 1) % MHA_VIEW_COUNT);
    ui_state_set_view(st, next);
    const struct view_kind *view = view_kind(next);
    if (!st->msg_error)
        ui_state_say(st, false, view ? view->cycle_msg : "Back to the stage.", st->ex->heads);
}

/* Where scrolling the numbers from line from towards line want stops: at
 * the top of a row of blocks, so that the titles (which head, which
 * matrix) stay in view as the rows go by; line by line only through a
 * block taller than the view. */
/* A paged view (the model view) is shown: its page keys page its maps. */
static bool paged(const struct ui_state *st)
{
    return st->view != MHA_VIEW_NONE && st->vd && st->vd->paged && !st->vd->error[0];
}

static int scroll_to_row(const struct ui_app *app, int from, int want)
{
    const int view_h = ui_app_view_h(app);
    const int dir = want > from ? 1 : want < from ? -1 : 0;
    int best = -1, next = -1;
    bool tall = false;
    for (int i = 0; dir != 0 && i < app->n_blocks; i++) {
        const int top = app->pos[i].y, end = top + app->pos[i].h;
        const bool between = dir > 0 ? top > from && top <= want : top < from && top >= want;
        if (between && (best < 0 || (dir > 0 ? top > best : top < best)))
            best = top;
        const bool beyond = dir > 0 ? top > from : top < from;
        if (beyond && (next < 0 || (dir > 0 ? top < next : top > next)))
            next = top;
        /* a block cut by the view that the view cannot hold whole */
        if (app->pos[i].h > view_h &&
            (dir > 0 ? top <= from && end > from + view_h : top < from && end > from))
            tall = true;
    }
    if (dir == 0 || tall)
        return want;
    if (best >= 0)
        return best;
    return next >= 0 ? next : want;
}

static void apply(struct ui_app *app, enum ui_action act, int key)
{
    struct ui_state *st = &app->st;
    const int view_h = ui_app_view_h(app);
    switch (act) {
    case UI_ACT_STAGE_PREV:
        if (st->view != MHA_VIEW_NONE)
            ui_state_set_stage(st, st->stage);
        else if (st->stage > 0)
            ui_state_set_stage(st, st->stage - 1);
        break;
    case UI_ACT_STAGE_NEXT:
        if (st->view != MHA_VIEW_NONE)
            ui_state_set_stage(st, st->stage);
        else if (st->stage < MHA_STAGE_COUNT - 1)
            ui_state_set_stage(st, st->stage + 1);
        break;
    case UI_ACT_STAGE_JUMP:
        ui_state_set_stage(st, key - '0');
        break;
    case UI_ACT_HEADS_MORE:
        ui_state_step_heads(st, +1);
        break;
    case UI_ACT_HEADS_FEWER:
        ui_state_step_heads(st, -1);
        break;
    case UI_ACT_DMODEL_UP:
        ui_state_set_d_model(st, st->ex->d_model + 1);
        break;
    case UI_ACT_DMODEL_DOWN:
        if (st->ex->d_model > 1)
            ui_state_set_d_model(st, st->ex->d_model - 1);
        else
            ui_state_say(st, true, "d_model is already 1, the smallest it can be.");
        break;
    case UI_ACT_CAUSAL:
        ui_state_toggle_causal(st);
        break;
    case UI_ACT_SCALE:
        ui_state_toggle_scaled(st);
        break;
    case UI_ACT_RESEED:
        ui_state_set_seed(st, (unsigned long)st->ex->seed + 1ul);
        break;
    case UI_ACT_TEMP_DOWN:
    case UI_ACT_TEMP_UP:
        ui_state_step_temperature(st, act == UI_ACT_TEMP_UP ? +1 : -1);
        break;
    case UI_ACT_TOP_P_DOWN:
    case UI_ACT_TOP_P_UP:
        ui_state_step_top_p(st, act == UI_ACT_TOP_P_UP ? +1 : -1);
        break;
    case UI_ACT_WRITE:
    case UI_ACT_UNWRITE:
        ui_state_write_word(st, act == UI_ACT_WRITE ? +1 : -1);
        break;
    case UI_ACT_LAYER:
        ui_app_show_layer(app, -1);
        break;
    case UI_ACT_COMMAND:
        ui_app_prompt_open(app, ':');
        break;
    case UI_ACT_FIND:
        ui_app_prompt_open(app, '/');
        break;
    case UI_ACT_FIND_NEXT:
        if (app->find_word[0])
            ui_find_token(&app->st, app->blocks, app->n_blocks, app->find_word,
                          sizeof app->find_word, app->find_word, true);
        else
            ui_state_say(st, false, "n finds the next match of a /word; there is none yet.");
        break;
    case UI_ACT_FOCUS_NEXT:
        focus_step(app, +1);
        break;
    case UI_ACT_FOCUS_PREV:
        focus_step(app, -1);
        break;
    case UI_ACT_UP:
        if (st->focus)
            move_cursor(app, -1, 0);
        else
            st->scroll = scroll_to_row(app, st->scroll, st->scroll - 1);
        break;
    case UI_ACT_DOWN:
        if (st->focus)
            move_cursor(app, +1, 0);
        else
            st->scroll = scroll_to_row(app, st->scroll, st->scroll + 1);
        break;
    case UI_ACT_LEFT:
        move_cursor(app, 0, -1);
        break;
    case UI_ACT_RIGHT:
        move_cursor(app, 0, +1);
        break;
    case UI_ACT_PAGE_UP:
        if (paged(st) && st->view_first > 0)
            st->view_first = st->view_first > st->view_shown ? st->view_first - st->view_shown : 0;
        else if (st->focus)
            move_cursor(app, -(app->geoms[st->block].grid.rows), 0);
        else
            st->scroll = scroll_to_row(app, st->scroll, st->scroll - (view_h - 1));
        break;
    case UI_ACT_PAGE_DOWN:
        if (paged(st) && st->view_first + st->view_shown < st->vd->n_matrices)
            st->view_first += st->view_shown;
        else if (st->focus)
            move_cursor(app, app->geoms[st->block].grid.rows, 0);
        else
            st->scroll = scroll_to_row(app, st->scroll, st->scroll + (view_h - 1));
        break;
    case UI_ACT_HOME:
        st->cur_r = st->cur_c = 0;
        break;
    case UI_ACT_END:
        st->cur_r = st->cur_c = 1 << 30;
        break;
    case UI_ACT_EXPLAIN:
        if (!st->focus)
            focus_step(app, +1);
        st->explain_open = true;
        break;
    case UI_ACT_BACK:
        if (st->explain_open)
            st->explain_open = false;
        else if (st->focus)
            st->focus = false;
        else if (app->les.l)
            ui_lesson_close(&app->les, st);
        break;
    case UI_ACT_VIEW_CYCLE:
        cycle_view(st);
        break;
    case UI_ACT_LESSONS:
        ui_lesson_menu_open(&app->les, st);
        break;
    case UI_ACT_LESSON_NEXT:
        read_on(app);
        break;
    case UI_ACT_LESSON_PREV:
        ui_lesson_prev(&app->les, st);
        break;
    case UI_ACT_LESSON_PAGE_UP:
        lesson_scroll(app, -2);
        break;
    case UI_ACT_LESSON_PAGE_DOWN:
        lesson_scroll(app, +2);
        break;
    case UI_ACT_LESSON_LINE_UP:
        text_scroll(app, -1);
        break;
    case UI_ACT_LESSON_LINE_DOWN:
        text_scroll(app, +1);
        break;
    case UI_ACT_HELP: /* at the top, or on the training screen at its keys */
        st->help_open = true;
        st->help_scroll =
            ui_train_on_screen(app) ? ui_help_heading_line(ui_keymap_train.heading) : 0;
        if (st->help_scroll > ui_help_lines() - (app->win.rows - 2))
            st->help_scroll = ui_help_lines() - (app->win.rows - 2);
        if (st->help_scroll < 0)
            st->help_scroll = 0;
        break;
    case UI_ACT_REDRAW:
        clearok(curscr, TRUE);
        break;
    case UI_ACT_THEME:
        ui_app_set_theme(app, (enum colorscale_theme)((app->th.name + 1) % COLORSCALE_THEME_COUNT));
        break;
    case UI_ACT_PRESENT:
        st->present = !st->present;
        ui_state_say(st, false,
                     st->present ? "Presenter mode: P goes back, ? lists the keys."
                                 : "Presenter mode off.");
        break;
    case UI_ACT_AUTOPLAY:
        ui_app_toggle_autoplay(app);
        break;
    case UI_ACT_EXPORT:
        ui_app_export(app, MHA_FORMAT_SVG, NULL);
        break;
    case UI_ACT_QUIT:
        if (app->les.l) /* a q in a lesson leaves the lesson, never the program at once */
            ui_lesson_close(&app->les, st);
        else
            st->quit = true;
        break;
    case UI_ACT_NONE:
        if (key >= 32 && key < 127)
            ui_state_say(st, false, "The key %c does nothing here; ? lists the keys.", key);
        break;
    }
}

/* Keys arrive as characters (is_char) or as curses key codes; both share
 * one number space in the key table, as they do in wgetch. */
/* A lesson's scroll: the view's table row it names at the top of the
 * canvas (said when no table of the view has it). */
static void apply_scroll(struct ui_app *app)
{
    struct ui_state *st = &app->st;
    if (!st->scroll_pending)
        return;
    st->scroll_pending = false;
    for (int i = 0; i < app->n_blocks; i++) {
        if (app->blocks[i].kind != UI_BLOCK_TABLE)
            continue;
        const int line =
            ui_table_row_line(&app->blocks[i], &app->geoms[i], app->th.utf8, st->scroll_row);
        if (line >= 0) {
            st->scroll = app->pos[i].y + line;
            return;
        }
    }
    ui_state_say(st, true, "The lesson's scroll: no row of this view starts with \"%s\".",
                 st->scroll_row);
}

void ui_app_apply_focus(struct ui_app *app)
{
    struct ui_state *st = &app->st;
    apply_scroll(app);
    if (!st->focus_pending)
        return;
    st->focus_pending = false;
    int b, r, c;
    if (!ui_view_locate(app->blocks, app->n_blocks, &st->focus_cell, &b, &r, &c))
        return;
    st->focus = true;
    st->block = b, st->cur_r = r, st->cur_c = c;
    st->scroll = app->pos[b].y; /* the row of blocks with the cell at the top, if it must scroll */
    follow_cursor(app);
}

/* Keep the lesson pane's scroll inside its text. */
static void clamp_lesson_scroll(struct ui_app *app)
{
    if (!app->les.l || app->lay.too_small)
        return;
    int total, body;
    lesson_pane_size(app, &total, &body);
    const int max = total > body ? total - body : 0;
    app->les.scroll = app->les.scroll > max ? max : app->les.scroll < 0 ? 0 : app->les.scroll;
}

/* What the text pane shows, as a number: when it changes the pane's
 * scroll goes back to the top. */
static unsigned side_content(const struct ui_app *app)
{
    const struct ui_state *st = &app->st;
    const bool explain = st->explain_open && st->focus;
    unsigned k = explain ? 1u : 0u;
    k = k * 31u + (unsigned)st->stage;
    k = k * 31u + (unsigned)st->view;
    if (explain) {
        k = k * 31u + (unsigned)st->block;
        k = k * 31u + (unsigned)st->cur_r;
        k = k * 31u + (unsigned)st->cur_c;
    }
    return k;
}

/* Keep the text pane's scroll inside its text, at the top for new text. */
static void clamp_side_scroll(struct ui_app *app, unsigned before)
{
    struct ui_state *st = &app->st;
    if (side_content(app) != before)
        st->side_scroll = 0;
    if (app->lay.too_small)
        return;
    const struct ui_side_view sv = ui_side_view_of(app);
    const int max = app->win.side ? ui_side_max_scroll(&sv, app->lay.side.w, app->lay.side.h) : 0;
    st->side_scroll = st->side_scroll > max ? max : st->side_scroll < 0 ? 0 : st->side_scroll;
}

/* After a change: the layout and view again, the cursor where it may be
 * and in sight, the lesson text inside its pane. */
static void settle(struct ui_app *app, unsigned side_before)
{
    struct ui_state *st = &app->st;
    ui_train_lesson_sync(app);
    ui_app_reflow(app, app->win.rows, app->win.cols);
    ui_app_apply_focus(app);
    const bool focus = st->focus;
    clamp_cursor(app);
    if (focus != st->focus) /* no numbers to point at: the panes the cursor asked for go */
        ui_app_reflow(app, app->win.rows, app->win.cols);
    follow_cursor(app);
    clamp_lesson_scroll(app);
    clamp_side_scroll(app, side_before);
}

void ui_app_settle(struct ui_app *app)
{
    settle(app, side_content(app));
}

/* The main screen: the key table (ui_keys.c) and its actions. */
static bool main_key(struct ui_app *app, int key, bool is_char)
{
    struct ui_state *st = &app->st;
    key = ui_mode_keycode(key, is_char);
    const enum ui_action act = ui_key_action_in(key, st->focus, app->les.l != NULL);
    const bool moves = act == UI_ACT_UP || act == UI_ACT_DOWN || act == UI_ACT_LEFT ||
                       act == UI_ACT_RIGHT || act == UI_ACT_REDRAW;
    /* recording (a class may follow), q asks once; a key of a stream never asks */
    const bool ask = act == UI_ACT_QUIT && app->stream.record && !app->stream.streamed &&
                     !app->quit_armed && !app->les.l; /* in a lesson q leaves the lesson, no more */
    app->quit_armed = false;
    if (ask) {
        app->quit_armed = true;
        ui_state_say(st, false,
                     "Stop recording and quit? q again quits (a class sees the end); any other key "
                     "goes on.");
        return true;
    }
    if (!moves)
        st->msg[0] = '\0';
    apply(app, act, key);
    return true;
}

static bool main_open(const struct ui_app *app)
{
    (void)app;
    return true;
}

const struct ui_mode ui_mode_main = {"main",        main_open,        main_key,
                                     ui_mouse_main, ui_app_draw_main, true};

/* The screen's scroll action, for the mouse wheel: as ↑ / ↓ would. */
void ui_app_scroll_lines(struct ui_app *app, int lines)
{
    for (int i = 0; i < (lines < 0 ? -lines : lines); i++)
        apply(app, lines < 0 ? UI_ACT_UP : UI_ACT_DOWN, 0);
}

void ui_app_scroll_lesson(struct ui_app *app, int lines)
{
    for (int i = 0; i < (lines < 0 ? -lines : lines); i++)
        apply(app, lines < 0 ? UI_ACT_LESSON_LINE_UP : UI_ACT_LESSON_LINE_DOWN, 0);
}

void ui_app_mouse_event(struct ui_app *app, const MEVENT *ev)
{
    const unsigned side_before = side_content(app);
    ui_modes_mouse(app, ev);
    settle(app, side_before);
}

static void handle(struct ui_app *app, int key, bool is_char)
{
    const unsigned side_before = side_content(app);
    const bool playing = app->autoplay.on;
    ui_modes_key(app, key, is_char);
    /* any key but the one that stops it pauses autoplay */
    if (playing && app->autoplay.on)
        ui_autoplay_stop(&app->autoplay, true);
    settle(app, side_before);
}

void ui_app_key(struct ui_app *app, int key, bool is_char)
{
    handle(app, key, is_char);
}

bool ui_app_autoplay(struct ui_app *app, double now)
{
    struct ui_autoplay *a = &app->autoplay;
    if (!a->on || now < a->due)
        return false;
    const struct ui_state *st = &app->st;
    if (st->help_open || st->cmd_active || app->les.menu_open || app->popup.command) {
        a->due = now + a->interval; /* nothing moves under an open overlay */
        return false;
    }
    /* a step that trains is watched to its end; one whose run has not
     * started waits for its checkpoint's answer (autoplay shows it) first */
    if (app->les.l && ui_train_running(app) && !ui_train_unstarted_waits(app)) {
        a->due = now + a->interval; /* a step that trains is watched to its end */
        if (!ui_train_play_on(app)) /* a paused one would never end: it trains on */
            return false;
        ui_app_reflow(app, app->win.rows, app->win.cols); /* the message line */
        return true;
    }
    const unsigned side_before = side_content(app);
    int total, body;
    lesson_pane_size(app, &total, &body);
    const bool below = lesson_pane_shown(app) && app->les.scroll + body < total;
    if (ui_autoplay_tick(a, &app->les, &app->st, below, now) == UI_MOVE_SCROLL)
        app->les.scroll += lesson_page(body);
    settle(app, side_before);
    return true;
}
