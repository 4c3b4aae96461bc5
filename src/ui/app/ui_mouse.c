/* ui_mouse.c - the mouse where the terminal reports it (--no-mouse: off):
 * a click on a stage in the pipeline bar goes there, a click on a number
 * explains it, the wheel scrolls the numbers as the arrow keys do (the
 * text pane, the lesson's or the stage's, as J and K do, over it).  The modes over the
 * main screen take their own clicks (ui_mode.h). */
#include "engine/stages.h"
#include "ui/app/ui_top.h"
#include "ui/panes/ui_panes.h"
#include "ui/state/ui_mode.h"

void ui_mouse_setup(struct ui_app *app)
{
    if (!app->mouse) {
        mousemask(0, NULL);
        return;
    }
    mousemask(BUTTON1_PRESSED | BUTTON1_CLICKED | BUTTON4_PRESSED | UI_BUTTON5, NULL);
    mouseinterval(0); /* a press is a click: no waiting to see a double click */
}

void ui_app_mouse(struct ui_app *app)
{
    MEVENT ev;
    if (getmouse(&ev) != OK)
        return;
    ui_app_mouse_event(app, &ev);
}

int ui_bar_stage_at(const struct ui_app *app, int x)
{
    struct ui_bar_slot slots[MHA_STAGE_COUNT];
    const char *full[MHA_STAGE_COUNT], *brief[MHA_STAGE_COUNT];
    for (int s = 0; s < MHA_STAGE_COUNT; s++) { /* as ui_bar_draw lays the bar out */
        full[s] = mha_stage_info((enum mha_stage)s)->title;
        brief[s] = mha_stage_info((enum mha_stage)s)->short_title;
    }
    const int width = app->lay.bar.w;
    ui_bar_fit(width, full, brief, app->st.stage, slots);
    x -= app->lay.bar.x;
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        if (slots[s].x < width && x >= slots[s].x && x < slots[s].x + slots[s].w)
            return s;
    return -1;
}

static bool inside(const struct ui_rect *r, int y, int x)
{
    return y >= r->y && y < r->y + r->h && x >= r->x && x < r->x + r->w;
}

/* The block and cell under canvas line cy, column cx; false when none. */
static bool cell_at(const struct ui_app *app, int cy, int cx, int *block, int *row, int *col)
{
    for (int i = 0; i < app->n_blocks; i++) {
        const struct ui_rect *p = &app->pos[i];
        const struct ui_block *b = &app->blocks[i];
        const struct ui_block_geom *g = &app->geoms[i];
        if (!ui_block_selectable(b) || cy < p->y || cy >= p->y + p->h || cx < p->x ||
            cx >= p->x + p->w)
            continue;
        int r0, c0, wr, wc;
        ui_app_window_cell(app, i, &wr, &wc);
        ui_block_window(b, g, wr, wc, &r0, &c0);
        const int dy = cy - p->y - g->header;
        const int dx = cx - p->x - g->grid.label_w - 1;
        const int step = g->row_step > 0 ? g->row_step : 1;
        if (dy < 0 || dy % step != 0 || dx < 0 || g->grid.cell_w <= 0)
            return false;
        const int r = r0 + dy / step, c = c0 + dx / g->grid.cell_w;
        if (dy / step >= g->grid.rows || dx / g->grid.cell_w >= g->grid.cols || r >= b->rows ||
            c >= b->cols)
            return false;
        *block = i, *row = r, *col = c;
        return true;
    }
    return false;
}

bool ui_mouse_main(struct ui_app *app, const MEVENT *ev)
{
    struct ui_state *st = &app->st;
    const int wheel = ev->bstate & BUTTON4_PRESSED ? -3 : ev->bstate & UI_BUTTON5 ? +3 : 0;
    if (wheel) { /* over the text pane it scrolls the text as J K do, else the numbers */
        if (inside(&app->lay.side, ev->y, ev->x))
            ui_app_scroll_lesson(app, wheel);
        else
            ui_app_scroll_lines(app, wheel);
        return true;
    }
    if (!(ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return false;
    st->msg[0] = '\0';
    if (!app->lay.present && inside(&app->lay.bar, ev->y, ev->x)) {
        const int s = ui_bar_stage_at(app, ev->x);
        if (s >= 0)
            ui_state_set_stage(st, s);
        return true;
    }
    /* the numbers' lines, not the marker's under them */
    const struct ui_rect canvas = {app->lay.vis.y + UI_VIS_HEADER, app->lay.vis.x,
                                   ui_app_view_h(app), app->lay.vis.w};
    int b, r, c;
    if (inside(&canvas, ev->y, ev->x) &&
        cell_at(app, ev->y - canvas.y + st->scroll, ev->x - canvas.x, &b, &r, &c)) {
        st->focus = true;
        st->block = b, st->cur_r = r, st->cur_c = c;
        st->explain_open = true;
        return true;
    }
    return false;
}
