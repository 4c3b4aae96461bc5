/* ui_draw.c - from state to screen: the layout and view derived from the
 * state (reflow), and the drawing of every window (a pure function of the
 * app: it reads, changes nothing, and leaves doupdate to the loop). */
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "ui/app/ui_top.h"
#include "ui/panes/ui_panes.h"
#include "ui/train/ui_train.h"
#include "ui/panes/ui_lesson_menu.h"
#include "ui/draw/ui_bigtext.h"
#include "ui/draw/ui_text.h"
#include "ui/views/ui_views.h"
#include "ui/app/ui_modes.h"
#include "ui/app/ui_views_of.h"

static void drop_windows(struct ui_windows *win)
{
    WINDOW **all[] = {&win->bar,    &win->vis,  &win->canvas, &win->side, &win->msg,
                      &win->status, &win->full, &win->modal,  &win->head};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (*all[i])
            delwin(*all[i]);
        *all[i] = NULL;
    }
}

static WINDOW *window(struct ui_rect r)
{
    return r.h > 0 && r.w > 0 ? newwin(r.h, r.w, r.y, r.x) : NULL;
}

static void make_windows(struct ui_app *app)
{
    drop_windows(&app->win);
    const struct ui_layout *l = &app->lay;
    app->win.full = newwin(l->rows, l->cols, 0, 0);
    if (l->too_small)
        return;
    app->win.bar = window(l->bar);
    app->win.head = window(l->head);
    app->win.vis = window((struct ui_rect){l->vis.y, l->vis.x, UI_VIS_HEADER, l->vis.w});
    app->win.canvas = window(
        (struct ui_rect){l->vis.y + UI_VIS_HEADER, l->vis.x, l->vis.h - UI_VIS_HEADER, l->vis.w});
    app->win.side = window(l->side);
    app->win.msg = window(l->msg);
    app->win.status = window(l->status);
    app->win.modal = window(l->modal);
}

static bool same_rect(struct ui_rect a, struct ui_rect b)
{
    return a.y == b.y && a.x == b.x && a.h == b.h && a.w == b.w;
}

static bool same_layout(const struct ui_layout *a, const struct ui_layout *b)
{
    return a->rows == b->rows && a->cols == b->cols && a->too_small == b->too_small &&
           a->present == b->present && same_rect(a->vis, b->vis) && same_rect(a->side, b->side) &&
           same_rect(a->msg, b->msg) && same_rect(a->modal, b->modal) &&
           same_rect(a->head, b->head) && same_rect(a->bar, b->bar);
}

/* How roomy the presenter draws the numbers, roomiest first: extra columns
 * per cell, a blank line between rows; the last may drop a decimal. */
static const struct {
    int pad;
    bool airy;
} roominess[] = {{4, true}, {2, true}, {2, false}, {1, false}, {0, false}};

/* A head's block that starts a line of the flow (a narrow screen puts a
 * head's blocks on several) says whose it is, as the head's first does. */
static void name_heads(struct ui_app *app)
{
    for (int i = 0; i < app->n_blocks; i++) {
        struct ui_block *b = &app->blocks[i];
        if (!b->per_head || app->pos[i].x != 0 || strstr(b->title, "head "))
            continue;
        char title[sizeof b->title];
        snprintf(title, sizeof title, "head %d: %s", b->base.head, b->title);
        snprintf(b->title, sizeof b->title, "%s", title);
    }
}

/* A paged view's small maps (the model view): the largest size at which
 * every map from the page's first on fits the view, else the smallest, and
 * the maps that fit it kept (the rest a page on: st->view_shown says how
 * many show). */
static void place_maps(struct ui_app *app, const struct ui_layout *lay)
{
    const int max_w = lay->vis.w - 1, view_h = lay->vis.h - UI_VIS_HEADER;
    struct ui_flow_item items[UI_VIEW_MAX_BLOCKS];
    for (int size = 1; size <= 3; size++) {
        for (int i = 0; i < app->n_blocks; i++) {
            struct ui_block *b = &app->blocks[i];
            b->map_size = size;
            ui_block_measure(b, max_w, view_h > 5 ? view_h : 5, &app->th, &app->geoms[i]);
            items[i] = (struct ui_flow_item){app->geoms[i].w, app->geoms[i].h, false};
        }
        app->canvas_h = ui_flow(items, app->n_blocks, max_w, 2, 1, app->pos);
        bool whole = app->canvas_h <= view_h;
        for (int i = 0; whole && i < app->n_blocks; i++)
            whole = !app->geoms[i].grid.clipped;
        if (whole)
            break;
    }
    int fit = 0;
    while (fit < app->n_blocks && app->pos[fit].y + app->pos[fit].h <= view_h)
        fit++;
    if (fit == 0 && app->n_blocks > 0)
        fit = 1; /* one map, cut to the view */
    app->n_blocks = fit;
    app->canvas_h = 0;
    for (int i = 0; i < fit; i++) {
        const int bottom = app->pos[i].y + app->pos[i].h;
        app->canvas_h = bottom > app->canvas_h ? bottom : app->canvas_h;
    }
    if (app->canvas_h > view_h)
        app->canvas_h = view_h;
    app->st.view_shown = fit;
}

/* Measure the blocks for the visualisation of lay and flow them on the
 * canvas; in the presenter's layout as roomy as still fits the view. */
static void place_blocks(struct ui_app *app, const struct ui_layout *lay)
{
    const int max_w = lay->vis.w - 1;
    const int full_h = lay->vis.h - UI_VIS_HEADER;
    if (app->st.view != MHA_VIEW_NONE && app->st.vd && app->st.vd->paged) {
        place_maps(app, lay);
        return;
    }
    int view_h = full_h;
    const int levels = app->st.present ? (int)(sizeof roominess / sizeof roominess[0]) : 1;
    for (int level = app->st.present ? 0 : levels - 1; level < levels; level++) {
        const int pad = app->st.present ? roominess[level].pad : 0;
        const bool airy = app->st.present && roominess[level].airy;
        struct ui_flow_item items[UI_VIEW_MAX_BLOCKS];
        for (int i = 0; i < app->n_blocks; i++) {
            struct ui_block *b = &app->blocks[i];
            b->pad = pad;
            b->airy = airy;
            b->shrink = app->st.present && level == levels - 1;
            ui_block_measure(b, max_w, view_h > 5 ? view_h : 5, &app->th, &app->geoms[i]);
            items[i] = (struct ui_flow_item){app->geoms[i].w, app->geoms[i].h, b->new_row};
        }
        app->canvas_h =
            ui_flow(items, app->n_blocks, max_w, pad > 0 ? 4 : 2, airy ? 2 : 1, app->pos);
        name_heads(app);
        if (app->canvas_h <= full_h)
            break;
        if (level == levels - 1 && view_h == full_h && full_h > 2) {
            /* cut: the last line is the marker's, and every block fits above it */
            view_h = full_h - 1;
            level--;
        }
    }
}

/* The usual layout: pipeline bar, numbers, text pane, message, status. */
static void normal_layout(struct ui_app *app, int rows, int cols, struct ui_layout *lay)
{
    int msg_lines = ui_msg_lines(&app->st, app->th.utf8, cols);
    const bool reading = app->les.l != NULL;
    /* the training screen keeps its lines: a note takes one (cut), an error all it needs */
    if (ui_train_on_screen(app) && !app->st.msg_error && !app->st.cmd_active)
        msg_lines = 1;
    void (*compute)(int, int, int, int, struct ui_layout *) =
        reading ? ui_layout_compute_reading : ui_layout_compute;
    compute(rows, cols, msg_lines, 0, lay);
    if (lay->too_small)
        return;
    app->n_blocks = ui_view_build(&app->st, lay->vis.w - 1, app->blocks, UI_VIEW_MAX_BLOCKS);
    if (!lay->side_by_side) { /* the text pane below asks for its lines */
        const struct ui_side_view sv = ui_side_view_of(app);
        int want = ui_side_lines(&sv, cols);
        const int body = rows - 2 - msg_lines;
        if (!(app->st.explain_open && app->st.focus) && !reading && want > body * 35 / 100)
            want = body * 35 / 100; /* a description gives way to the numbers */
        compute(rows, cols, msg_lines, want, lay);
    }
}

/* The presenter's layout: big title and formula, numbers, a text pane only
 * for a lesson or the explain panel, a message only when there is one. */
static void present_layout(struct ui_app *app, int rows, int cols, struct ui_layout *lay)
{
    const struct ui_state *st = &app->st;
    struct ui_present_text pt;
    ui_present_text(st, app->th.utf8, cols - 2 * ui_present_margin(cols), &pt);
    ui_train_present_text(app->training.train, app->th.utf8, &pt);
    int msg_lines = st->cmd_active || st->msg[0] ? ui_msg_lines(st, app->th.utf8, cols) : 0;
    if (msg_lines > 1 && ui_train_on_screen(app) && !st->msg_error && !st->cmd_active)
        msg_lines = 1; /* as in the usual layout: the heads keep their lines */
    struct ui_present_need need = {
        .msg_lines = msg_lines,
        .formula_lines = pt.formula_lines,
        .title_w = app->th.utf8 ? ui_big_width(pt.title, 1) : 0,
        .caption_w = pt.caption_w,
        .pane = app->les.l != NULL || (st->explain_open && st->focus),
    };
    ui_layout_compute_present(rows, cols, &need, lay);
    if (lay->too_small)
        return;
    app->n_blocks = ui_view_build(&app->st, lay->vis.w - 1, app->blocks, UI_VIEW_MAX_BLOCKS);
    if (need.pane && !lay->side_by_side) {
        const struct ui_side_view sv = ui_side_view_of(app);
        need.pane_lines = ui_side_lines(&sv, cols);
        ui_layout_compute_present(rows, cols, &need, lay);
    }
}

void ui_app_reflow(struct ui_app *app, int rows, int cols)
{
    struct ui_layout lay;
    app->n_blocks = 0;
    app->canvas_h = 0;
    if (app->st.present)
        present_layout(app, rows, cols, &lay);
    else
        normal_layout(app, rows, cols, &lay);
    if (!lay.too_small && ui_train_on_screen(app)) {
        /* the training draws itself: no blocks */
        const struct ui_lesson_view lv = ui_lesson_view_of(app);
        ui_train_layout(app, &lay, ui_lesson_pane_quiz_lines(&lv, lay.side.w));
        app->n_blocks = 0;
    } else if (!lay.too_small) {
        place_blocks(app, &lay);
    }
    if (!lay.too_small && app->les.list_loaded) { /* the lesson list's box fits its rows */
        const int want = ui_lesson_menu_rows(&app->les) + 4;
        if (want < lay.modal.h) {
            lay.modal.y += (lay.modal.h - want) / 2;
            lay.modal.h = want;
        }
    }
    const bool remake = !app->win.full || !same_layout(&lay, &app->lay);
    const int old_side_h = app->lay.side.h;
    app->lay = lay;
    app->win.rows = rows;
    app->win.cols = cols;
    if (remake) {
        make_windows(app);
        touchwin(stdscr); /* the blank between windows (the presenter's margins) is redrawn */
    }
    if (!lay.too_small)
        app->st.scroll =
            ui_scroll_follow(app->st.scroll, app->st.scroll, 0, ui_app_view_h(app), app->canvas_h);
    const struct ui_lesson_view lv = ui_lesson_view_of(app);
    if (remake && app->les.l && !lay.too_small && lay.side.h != old_side_h)
        app->les.scroll_to_prompt = ui_lesson_pane_prompt_end(&lv, lay.side.w) > 0;
    /* a waiting checkpoint's answer line stays in sight */
    ui_lesson_pane_follow_prompt(&app->les, &app->th, app->st.present, &app->lay);
    ui_modes_sync(app);
}

/* Which legends the current stage needs (the stage table says). */
static unsigned legend_parts(int stage)
{
    switch (mha_stage_info(stage)->legend) {
    case MHA_LEGEND_HEADS:
        return UI_LEGEND_HEADS;
    case MHA_LEGEND_SIGNED_PROB:
        return UI_LEGEND_SIGNED | UI_LEGEND_PROB;
    default:
        return UI_LEGEND_SIGNED;
    }
}

/* A view that could not be made says why, where it would have been. */
static void draw_view_error(const struct ui_app *app, const char *text, int width, int view_h)
{
    struct ui_line lines[16];
    const int n = ui_text_wrap(text, width - 2, app->th.utf8, lines, 16);
    for (int i = 0; i < n && i < 16 && 1 + i < view_h; i++) {
        char buf[1024];
        int w =
            ui_text_fit_n(lines[i].start, lines[i].len, width - 2, app->th.utf8, buf, sizeof buf);
        ui_put(app->win.canvas, 1 + i, 1, buf, w, ui_role_attr(&app->th, UI_ROLE_WRONG),
               app->th.utf8);
    }
}

/* Where the canvas is cut, a marker on its last line, which no block
 * takes (ui_app_view_h), says how much more there is above and below,
 * with the keys that get there in the mode in front (the key table's). */
static void draw_more(const struct ui_app *app, int width, int view_h)
{
    const struct ui_state *st = &app->st;
    const struct ui_theme *th = &app->th;
    if (app->canvas_h <= view_h)
        return;
    const bool lesson = app->les.l != NULL;
    const int below = app->canvas_h - (st->scroll + view_h);
    const struct ui_front front = ui_app_front(app);
    char more[256], keys[96], more_keys[64];
    size_t used = 0;
    more[0] = '\0';
    if (st->scroll > 0)
        used += (size_t)snprintf(more + used, sizeof more - used, " %s%d more above",
                                 ui_more_arrow(false, th->utf8), st->scroll);
    if (below > 0 && used < sizeof more)
        used += (size_t)snprintf(more + used, sizeof more - used, "%s %s%d more below",
                                 used ? " ·" : "", ui_more_arrow(true, th->utf8), below);
    if (st->focus) { /* the cursor's matrix shows whole: the next one is further on */
        ui_key_names_for(UI_ACT_FOCUS_NEXT, true, lesson, ui_front_takes, &front, keys,
                         sizeof keys);
        if (keys[0] && used < sizeof more)
            snprintf(more + used, sizeof more - used, " · %s next matrix ", keys);
    } else {
        ui_key_names_for(below > 0 ? UI_ACT_DOWN : UI_ACT_UP, false, lesson, ui_front_takes, &front,
                         keys, sizeof keys);
        ui_key_names_for(below > 0 ? UI_ACT_PAGE_DOWN : UI_ACT_PAGE_UP, false, lesson,
                         ui_front_takes, &front, more_keys, sizeof more_keys);
        if (keys[0] && more_keys[0] && strlen(keys) + strlen(more_keys) + 2 < sizeof keys)
            strcat(strcat(keys, " "), more_keys);
        else if (more_keys[0])
            snprintf(keys, sizeof keys, "%s", more_keys);
        if (keys[0] && used < sizeof more)
            snprintf(more + used, sizeof more - used, " · %s scroll ", keys);
    }
    const int mw = ui_text_width(more, th->utf8);
    ui_put(app->win.canvas, view_h, mw < width ? width - mw : 0, more, width,
           ui_role_attr(th, UI_ROLE_NOTICE), th->utf8);
}

/* The block that shows head h's cell of the lesson's show, and its row. */
static bool show_block(const struct ui_app *app, int h, int *block, int *row)
{
    struct mha_cell cell = app->st.show_cell;
    cell.head = h;
    int col;
    return ui_view_locate(app->blocks, app->n_blocks, &cell, block, row, &col);
}

bool ui_app_show_line(const struct ui_app *app, char *buf, size_t n)
{
    const struct ui_state *st = &app->st;
    buf[0] = '\0';
    if (!st->show || st->view != MHA_VIEW_NONE || ui_train_on_screen(app))
        return false;
    size_t used = 0;
    int last = -1;
    for (int h = 0; h < st->ex->heads && used + 1 < n; h++) {
        int b, r;
        if (!show_block(app, h, &b, &r) || b == last)
            continue;
        last = b;
        const struct ui_block *blk = &app->blocks[b];
        if (used == 0 && blk->row_labels)
            used = (size_t)snprintf(buf, n, "row %s:", blk->row_labels[r]);
        else if (used == 0)
            used = (size_t)snprintf(buf, n, "row %d:", r);
        else
            used += (size_t)snprintf(buf + used, n - used, " ·");
        int top = 0;
        bool hidden = false;
        for (int c = 0; c < blk->cols; c++) {
            const struct mha_cell cell = ui_block_cell(blk, r, c);
            hidden = hidden || ui_block_hides(blk, &cell);
            if (ui_block_at(blk, r, c) > ui_block_at(blk, r, top))
                top = c;
        }
        char num[32], label[64] = "";
        ui_num_format(num, sizeof num, ui_block_at(blk, r, top), app->geoms[b].fmt);
        if (blk->col_labels)
            snprintf(label, sizeof label, "%s ", blk->col_labels[top]);
        if (used + 1 < n)
            used += (size_t)snprintf(buf + used, n - used, " head %d → %s%s", h,
                                     hidden ? "" : label, hidden ? "?" : num + strspn(num, " "));
    }
    return last >= 0;
}

void ui_app_window_cell(const struct ui_app *app, int i, int *row, int *col)
{
    const struct ui_state *st = &app->st;
    *row = *col = -1;
    if (st->focus && st->block == i) {
        *row = st->cur_r, *col = st->cur_c;
        return;
    }
    if (st->focus && st->block >= 0 && st->block < app->n_blocks &&
        app->pos[st->block].y == app->pos[i].y &&
        app->blocks[st->block].rows == app->blocks[i].rows &&
        app->geoms[st->block].grid.rows == app->geoms[i].grid.rows) {
        *row = st->cur_r;
        return;
    }
    if (!st->show)
        return;
    for (int h = 0; h < st->ex->heads; h++) {
        int b, r;
        if (show_block(app, h, &b, &r) && b == i) {
            *row = r;
            return;
        }
    }
}

/* A paged view's maps that do not all show: how many, and the keys to
 * page, at the right of the legend's line. */
static void draw_page_hint(const struct ui_app *app, int width)
{
    const bool lesson = app->les.l != NULL;
    const struct ui_front front = ui_app_front(app);
    char next[64], prev[64], text[192];
    ui_key_names_for(UI_ACT_PAGE_DOWN, false, lesson, ui_front_takes, &front, next, sizeof next);
    ui_key_names_for(UI_ACT_PAGE_UP, false, lesson, ui_front_takes, &front, prev, sizeof prev);
    if (!ui_view_page_text(&app->st, next, prev, text, sizeof text))
        return;
    /* beside the legend where both fit, else in its place: the keys matter more */
    const int tw = ui_text_width(text, app->th.utf8);
    const int legend_w = ui_legend_prob_width(&app->th);
    const int x = legend_w + 2 + tw <= width ? width - tw : 0;
    if (x == 0)
        ui_fill(app->win.vis, 1, 0, width, 0);
    ui_put(app->win.vis, 1, x, text, width - x, ui_role_attr(&app->th, UI_ROLE_NOTICE),
           app->th.utf8);
}

static void draw_vis(const struct ui_app *app)
{
    const struct ui_state *st = &app->st;
    const struct ui_theme *th = &app->th;
    const int width = app->lay.vis.w - 1;
    const int view_h = ui_app_view_h(app);
    char shape[256], title[64];

    if (ui_train_on_screen(app)) {
        ui_train_draw_vis(app);
        return;
    }
    werase(app->win.vis);
    const struct view_desc *vd = st->view != MHA_VIEW_NONE ? st->vd : NULL;
    if (vd) {
        snprintf(title, sizeof title, "%s view   ", vd->name);
        snprintf(shape, sizeof shape, "%s", vd->line);
    } else {
        snprintf(title, sizeof title, "%d · %s   ", st->stage, mha_stage_info(st->stage)->title);
        ui_view_shape_line(st, shape, sizeof shape);
    }
    int used = st->present ? 0 /* the header says it in big letters */
                           : ui_put(app->win.vis, 0, 0, title, width,
                                    ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    used += ui_put(app->win.vis, 0, used, shape, width - used, ui_role_attr(th, UI_ROLE_SHAPE),
                   th->utf8);
    if (app->canvas_h > view_h) {
        char more[64];
        const bool above = st->scroll > 0, below = st->scroll + view_h < app->canvas_h;
        snprintf(more, sizeof more, " %s%s lines %d-%d of %d",
                 !th->utf8 ? ""
                 : above   ? "↑"
                           : " ",
                 !th->utf8 ? ""
                 : below   ? "↓"
                           : " ",
                 st->scroll + 1, st->scroll + view_h, app->canvas_h);
        int mw = ui_text_width(more, th->utf8);
        if (used + mw < width)
            ui_put(app->win.vis, 0, width - mw, more, mw, ui_role_attr(th, UI_ROLE_SHAPE),
                   th->utf8);
    }
    char show[256];
    if (ui_app_show_line(app, show, sizeof show)) /* what the step asks to see, over the legend */
        ui_put(app->win.vis, 1, 0, show, width, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    else if (!vd)
        ui_legend_draw(app->win.vis, 1, 0, width, legend_parts(st->stage), st->tr->heads, th);
    else if (ui_view_legend(vd)) {
        ui_legend_draw(app->win.vis, 1, 0, width, ui_view_legend(vd), st->tr->heads, th);
        draw_page_hint(app, width);
    } else if (!st->present) { /* a key hint: not on the presenter's screen */
        char hint[96], range[16];
        snprintf(hint, sizeof hint, "v: next view · %s or ← →: back to the stages",
                 mha_stage_range(range, sizeof range));
        ui_put(app->win.vis, 1, 0, hint, width, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
    wnoutrefresh(app->win.vis);

    werase(app->win.canvas);
    if (vd && vd->error[0])
        draw_view_error(app, vd->error, width, view_h);
    for (int i = 0; i < app->n_blocks; i++) {
        const struct ui_rect *p = &app->pos[i];
        if (p->y + p->h <= st->scroll || p->y >= st->scroll + view_h)
            continue;
        int row, col;
        ui_app_window_cell(app, i, &row, &col);
        ui_block_draw(app->win.canvas, p->y - st->scroll, p->x, view_h, &app->blocks[i],
                      &app->geoms[i], row, col, th);
    }
    draw_more(app, width, view_h);
    wnoutrefresh(app->win.canvas);
}

/* The "enlarge the terminal" notice, wrapped to the width and centred;
 * on the tiniest screens the size it has gives way first. */
static void draw_too_small(const struct ui_app *app)
{
    WINDOW *w = app->win.full;
    const struct ui_theme *th = &app->th;
    char need[96], have[96];
    snprintf(need, sizeof need, "Enlarge the terminal to %d×%d", UI_MIN_COLS, UI_MIN_ROWS);
    snprintf(have, sizeof have, "The terminal is %d×%d.", app->win.cols, app->win.rows);
    const char *texts[] = {need, have, "q quits"};
    struct ui_line lines[3][8];
    int n[3], total = 0;
    const int width = app->win.cols > 2 ? app->win.cols - 2 : 1;
    for (int i = 0; i < 3; i++) {
        n[i] = ui_text_wrap(texts[i], width, th->utf8, lines[i], 8);
        n[i] = n[i] > 8 ? 8 : n[i];
        total += n[i];
    }
    if (total > app->win.rows) { /* the size the terminal has goes first */
        total -= n[1];
        n[1] = 0;
    }
    werase(w);
    int y = (app->win.rows - total) / 2;
    y = y > 0 ? y : 0;
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < n[i] && y < app->win.rows; k++, y++) {
            char buf[256];
            const int tw =
                ui_text_fit_n(lines[i][k].start, lines[i][k].len, width, th->utf8, buf, sizeof buf);
            const int x = tw < app->win.cols ? (app->win.cols - tw) / 2 : 0;
            ui_put(w, y, x, buf, app->win.cols - x, i == 0 ? ui_role_attr(th, UI_ROLE_NOTICE) : 0,
                   th->utf8);
        }
    wattrset(w, 0);
    wnoutrefresh(w);
}

void ui_app_draw(const struct ui_app *app)
{
    if (!app->win.full)
        return;
    if (app->lay.too_small) {
        draw_too_small(app);
        return;
    }
    ui_modes_draw(app);
}

void ui_app_draw_main(const struct ui_app *app)
{
    if (app->lay.present)
        ui_present_head_draw(app->win.head, &app->st, &app->th, app->lay.big, app->training.train);
    else
        ui_bar_draw(app->win.bar, &app->st, &app->th, app->lay.bar.w);
    draw_vis(app);
    if (app->win.side) {
        const struct ui_side_view sv = ui_side_view_of(app);
        ui_side_draw(app->win.side, &sv);
    }
    if (app->win.msg) {
        const struct ui_msg_view mv = ui_msg_view_of(app);
        ui_msg_draw(app->win.msg, &mv, app->lay.msg.w, app->lay.msg.h);
    }
    char play[64];
    ui_play_status(app, play, sizeof play);
    if (app->lay.present)
        ui_present_status_draw(app->win.status, &app->st, &app->th, &app->les, play,
                               app->lay.status.w);
    else
        ui_status_draw(app->win.status, &app->st, &app->th, play, app->lay.status.w);
}

void ui_app_free_windows(struct ui_app *app)
{
    drop_windows(&app->win);
}
