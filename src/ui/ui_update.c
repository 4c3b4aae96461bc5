/* ui_update.c - what each key does to the explorer's state: the actions of
 * the key table, the command line, the cell cursor and scrolling. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui_app.h"
#include "ui_keys.h"

int ui_app_view_h(const struct ui_app *app)
{
    int h = app->lay.vis.h - UI_VIS_HEADER;
    return h > 1 ? h : 1;
}

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
    if (!st->focus || !selectable(app, st->block)) {
        st->scroll = ui_scroll_follow(st->scroll, 0, 0, view_h, app->canvas_h);
        return;
    }
    const struct ui_block *b = &app->blocks[st->block];
    const struct ui_block_geom *g = &app->geoms[st->block];
    int r0, c0;
    ui_block_window(b, g, st->cur_r, st->cur_c, &r0, &c0);
    const int top = app->pos[st->block].y;
    const int line = top + g->header + (st->cur_r - r0);
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

/* The ':' line: editing keys, Enter runs it, Esc drops it. */
static void command_key(struct ui_app *app, int key, bool is_char)
{
    struct ui_state *st = &app->st;
    if (key == 27) {
        st->cmd_active = false;
        return;
    }
    if ((!is_char && key == KEY_ENTER) || (is_char && (key == '\n' || key == '\r'))) {
        char line[UI_CMD_MAX];
        memcpy(line, st->cmd, st->cmd_len + 1);
        st->cmd_active = false;
        st->msg[0] = '\0';
        ui_state_command(st, line);
        return;
    }
    if ((!is_char && key == KEY_BACKSPACE) || (is_char && (key == 127 || key == 8))) {
        if (st->cmd_len == 0) {
            st->cmd_active = false;
            return;
        }
        /* drop one UTF-8 character */
        do
            st->cmd_len--;
        while (st->cmd_len > 0 && ((unsigned char)st->cmd[st->cmd_len] & 0xC0u) == 0x80u);
        st->cmd[st->cmd_len] = '\0';
        return;
    }
    if (is_char && key == 21) { /* ^U */
        st->cmd_len = 0;
        st->cmd[0] = '\0';
        return;
    }
    if (!is_char || key < 32 || key == 127)
        return;
    char mb[MB_LEN_MAX];
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    size_t n = wcrtomb(mb, (wchar_t)key, &ps);
    if (n == (size_t)-1 || st->cmd_len + n + 1 >= sizeof st->cmd)
        return;
    memcpy(st->cmd + st->cmd_len, mb, n);
    st->cmd_len += n;
    st->cmd[st->cmd_len] = '\0';
}

static void help_key(struct ui_app *app, int key)
{
    struct ui_state *st = &app->st;
    const int page = app->rows - 3 > 1 ? app->rows - 3 : 1;
    const int max = ui_help_lines() - (app->rows - 2);
    switch (key) {
    case KEY_UP:
    case 'k':
        st->help_scroll--;
        break;
    case KEY_DOWN:
    case 'j':
        st->help_scroll++;
        break;
    case KEY_PPAGE:
        st->help_scroll -= page;
        break;
    case KEY_NPAGE:
    case ' ':
        st->help_scroll += page;
        break;
    case 'q':
    case 'Q':
        st->quit = true;
        break;
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
    if (st->help_scroll > max)
        st->help_scroll = max;
    if (st->help_scroll < 0)
        st->help_scroll = 0;
}

static void apply(struct ui_app *app, enum ui_action act, int key)
{
    struct ui_state *st = &app->st;
    const int view_h = ui_app_view_h(app);
    switch (act) {
    case UI_ACT_STAGE_PREV:
        if (st->stage > 0)
            ui_state_set_stage(st, st->stage - 1);
        break;
    case UI_ACT_STAGE_NEXT:
        if (st->stage < MHA_STAGE_COUNT - 1)
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
    case UI_ACT_COMMAND:
        st->cmd_active = true;
        st->cmd_len = 0;
        st->cmd[0] = '\0';
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
            st->scroll--;
        break;
    case UI_ACT_DOWN:
        if (st->focus)
            move_cursor(app, +1, 0);
        else
            st->scroll++;
        break;
    case UI_ACT_LEFT:
        move_cursor(app, 0, -1);
        break;
    case UI_ACT_RIGHT:
        move_cursor(app, 0, +1);
        break;
    case UI_ACT_PAGE_UP:
        if (st->focus)
            move_cursor(app, -(app->geoms[st->block].grid.rows), 0);
        else
            st->scroll -= view_h - 1;
        break;
    case UI_ACT_PAGE_DOWN:
        if (st->focus)
            move_cursor(app, app->geoms[st->block].grid.rows, 0);
        else
            st->scroll += view_h - 1;
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
        break;
    case UI_ACT_HELP:
        st->help_open = true;
        st->help_scroll = 0;
        break;
    case UI_ACT_REDRAW:
        clearok(curscr, TRUE);
        break;
    case UI_ACT_QUIT:
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
static void handle(struct ui_app *app, int key, bool is_char)
{
    struct ui_state *st = &app->st;
    if (st->cmd_active) {
        command_key(app, key, is_char);
    } else if (st->help_open) {
        help_key(app, key);
    } else {
        /* a character that happens to share a number with a key code is no key */
        const enum ui_action act =
            (is_char && key >= KEY_MIN) ? UI_ACT_NONE : ui_key_action(key, st->focus);
        const bool moves = act == UI_ACT_UP || act == UI_ACT_DOWN || act == UI_ACT_LEFT ||
                           act == UI_ACT_RIGHT || act == UI_ACT_REDRAW;
        if (!moves)
            st->msg[0] = '\0';
        apply(app, act, key);
    }
    ui_app_reflow(app, app->rows, app->cols);
    clamp_cursor(app);
    follow_cursor(app);
}

void ui_app_key(struct ui_app *app, int key, bool is_char)
{
    handle(app, key, is_char);
}
