/* ui_layout.c - panes, the pipeline bar, block flow, matrix windows, numbers. */
#include "ui/draw/ui_layout.h"

#include "ui/draw/ui_bigtext.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int clamp(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* The bars at the top and bottom and the modal box; returns the lines the
 * panes share (from line 1), or -1 when the screen is too small. */
static int frame(int rows, int cols, int msg_lines, struct ui_layout *out)
{
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->cols = cols;
    if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
        out->too_small = true;
        return -1;
    }
    const int msg_h = clamp(msg_lines, 1, 4);
    out->bar = (struct ui_rect){0, 0, 1, cols};
    out->status = (struct ui_rect){rows - 1, 0, 1, cols};
    out->msg = (struct ui_rect){rows - 1 - msg_h, 0, msg_h, cols};
    const int mh = rows - 2 < 24 ? rows - 2 : 24, mw = cols - 2 < 90 ? cols - 2 : 90;
    out->modal = (struct ui_rect){(rows - mh) / 2, (cols - mw) / 2, mh, mw};
    return out->msg.y - 1;
}

/* Text pane beside the visualisation, side_w columns wide. */
static void beside(struct ui_layout *out, int body, int side_w)
{
    const int cols = out->cols;
    out->side_by_side = true;
    out->vis = (struct ui_rect){1, 0, body, cols - side_w};
    out->side = (struct ui_rect){1, cols - side_w, body, side_w};
}

/* Text pane below the visualisation, side_h lines high. */
static void below(struct ui_layout *out, int body, int side_h)
{
    out->vis = (struct ui_rect){1, 0, body - side_h, out->cols};
    out->side = (struct ui_rect){1 + body - side_h, 0, side_h, out->cols};
}

void ui_layout_compute(int rows, int cols, int msg_lines, int side_lines, struct ui_layout *out)
{
    const int body = frame(rows, cols, msg_lines, out);
    if (body < 0)
        return;
    if (cols >= UI_WIDE_COLS)
        beside(out, body, clamp(cols * 32 / 100, 44, 64));
    else /* at least 5 lines of text, at most 45 % of the body */
        below(out, body, clamp(side_lines, 5, body * 45 / 100));
}

void ui_layout_compute_reading(int rows, int cols, int msg_lines, int side_lines,
                               struct ui_layout *out)
{
    const int body = frame(rows, cols, msg_lines, out);
    if (body < 0)
        return;
    if (cols >= UI_READING_WIDE_COLS)
        beside(out, body, clamp(cols * 40 / 100, 40, 60));
    else /* 8 lines of text or more, at most 55 % of the body; 6 lines stay for the numbers */
        below(out, body, clamp(clamp(side_lines, 8, body * 55 / 100), 1, body - 6));
}

int ui_present_margin(int cols)
{
    return cols >= 120 ? 3 : cols >= 90 ? 2 : 1;
}

/* The largest title scale that fits the width and leaves the numbers room. */
static int present_scale(int rows, int cols, const struct ui_present_need *need, int fixed)
{
    const int margin = ui_present_margin(cols);
    for (int scale = 2; scale >= 1; scale--) {
        const int need_rows = scale == 2 ? UI_PRESENT_HUGE_ROWS : UI_PRESENT_BIG_ROWS;
        const int title_w = scale * need->title_w;
        const int head = ui_present_head_h(scale, need->formula_lines);
        if (need->title_w > 0 && rows >= need_rows &&
            2 * margin + title_w + 4 + need->caption_w <= cols &&
            rows - fixed - head >= UI_PRESENT_MIN_VIS)
            return scale;
    }
    return 0;
}

int ui_present_head_h(int scale, int formula_lines)
{
    /* the title (with a blank line under big letters), then the formula */
    return (scale > 0 ? ui_big_rows(scale) + 1 : 1) + clamp(formula_lines, 1, 2);
}

void ui_layout_compute_present(int rows, int cols, const struct ui_present_need *need,
                               struct ui_layout *out)
{
    memset(out, 0, sizeof *out);
    out->rows = rows;
    out->cols = cols;
    out->present = true;
    if (rows < UI_MIN_ROWS || cols < UI_MIN_COLS) {
        out->too_small = true;
        return;
    }
    const int msg_h = clamp(need->msg_lines, 0, 4);
    out->status = (struct ui_rect){rows - 1, 0, 1, cols};
    out->msg = (struct ui_rect){rows - 1 - msg_h, 0, msg_h, cols};
    const int mh = rows - 2 < 24 ? rows - 2 : 24, mw = cols - 2 < 90 ? cols - 2 : 90;
    out->modal = (struct ui_rect){(rows - mh) / 2, (cols - mw) / 2, mh, mw};
    /* a pane below the numbers takes 6 lines or more */
    const int pane_below = need->pane && cols < UI_WIDE_COLS ? 6 : 0;
    out->big = present_scale(rows, cols, need, msg_h + 1 + pane_below);
    const int head_h = ui_present_head_h(out->big, need->formula_lines);
    out->head = (struct ui_rect){0, 0, head_h, cols};
    const int body = rows - head_h - msg_h - 1, margin = ui_present_margin(cols);
    if (!need->pane) {
        out->vis = (struct ui_rect){head_h, margin, body, cols - 2 * margin};
    } else if (cols >= UI_WIDE_COLS) {
        const int side_w = clamp(cols * 40 / 100, 44, 80);
        out->side_by_side = true;
        out->vis = (struct ui_rect){head_h, margin, body, cols - side_w - margin - 1};
        out->side = (struct ui_rect){head_h, cols - side_w, body, side_w};
    } else { /* below: half of the body at most, 6 lines at least */
        const int side_h = clamp(clamp(need->pane_lines, 6, body / 2), 1, body - 4);
        out->vis = (struct ui_rect){head_h, margin, body - side_h, cols - 2 * margin};
        out->side = (struct ui_rect){head_h + body - side_h, 0, side_h, cols};
    }
}

int ui_bar_fit(int width, const char *const full[MHA_STAGE_COUNT],
               const char *const brief[MHA_STAGE_COUNT], int current,
               struct ui_bar_slot slots[MHA_STAGE_COUNT])
{
    /* forms, widest first: all full; brief + current full; brief; digits +
     * current full; digits */
    int used = 0;
    for (int form = 0; form < 5; form++) {
        used = 0;
        for (int s = 0; s < MHA_STAGE_COUNT; s++) {
            bool cur = s == current;
            bool full_name = form == 0 || (cur && (form == 1 || form == 3));
            bool digit = !full_name && form >= 3;
            const char *name = full_name ? full[s] : brief[s];
            int w = digit ? 3 : 4 + (int)strlen(name); /* " N " or " N Name " */
            if (s > 0)
                used += 1;
            slots[s] = (struct ui_bar_slot){used, w, full_name, digit};
            used += w;
        }
        if (used <= width)
            break;
    }
    return used;
}

int ui_flow(const struct ui_flow_item *items, int n, int width, int hgap, int vgap,
            struct ui_rect *out)
{
    int x = 0, y = 0, row_h = 0;
    for (int i = 0; i < n; i++) {
        const bool wrap = x > 0 && (items[i].new_row || x + items[i].w > width);
        if (wrap) {
            y += row_h + vgap;
            x = 0;
            row_h = 0;
        }
        out[i] = (struct ui_rect){y, x, items[i].h, items[i].w};
        x += items[i].w + hgap;
        if (items[i].h > row_h)
            row_h = items[i].h;
    }
    return n > 0 ? y + row_h : 0;
}

void ui_grid_fit(int rows, int cols, int label_w, int cell_w, int max_w, int max_h,
                 struct ui_grid *g)
{
    g->label_w = label_w;
    g->cell_w = cell_w;
    const int room_cols = cell_w > 0 ? (max_w - label_w - 1) / cell_w : cols;
    const int room_rows = max_h - 2;
    g->cols = clamp(cols, 1, room_cols > 1 ? room_cols : 1);
    g->rows = clamp(rows, 1, room_rows > 1 ? room_rows : 1);
    g->clipped = g->cols < cols || g->rows < rows;
    g->w = label_w + 1 + g->cols * cell_w;
    g->h = 2 + g->rows;
}

int ui_window_start(int cursor, int visible, int total)
{
    if (visible >= total || visible < 1)
        return 0;
    return clamp(cursor - visible / 2, 0, total - visible);
}

int ui_scroll_follow(int scroll, int top, int height, int view_h, int canvas_h)
{
    const int max_scroll = canvas_h > view_h ? canvas_h - view_h : 0;
    if (height > view_h)
        height = view_h;
    if (top < scroll)
        scroll = top;
    else if (top + height > scroll + view_h)
        scroll = top + height - view_h;
    return clamp(scroll, 0, max_scroll);
}

struct ui_numfmt ui_numfmt_for(float range, bool probabilities)
{
    if (probabilities)
        return (struct ui_numfmt){2, 4};
    const double r = isfinite(range) ? fabs((double)range) : 0.0;
    if (r < 9.995)
        return (struct ui_numfmt){2, 5};
    if (r < 99.95)
        return (struct ui_numfmt){1, 5};
    if (r < 99999.5)
        return (struct ui_numfmt){0, 6};
    return (struct ui_numfmt){-1, 8};
}

/* Columns the numbers up to range take with decimals (at least 5). */
static int width_at(double range, int decimals)
{
    char buf[64];
    const int w = snprintf(buf, sizeof buf, "%.*f", decimals, -fabs(range));
    return w > 5 ? w : 5;
}

struct ui_numfmt ui_numfmt_shared(float range, float other)
{
    const struct ui_numfmt a = ui_numfmt_for(range, false), b = ui_numfmt_for(other, false);
    if (a.decimals < 0 || b.decimals < 0) /* exponent form: both */
        return (struct ui_numfmt){-1, 8};
    const double r = isfinite(range) ? fabs((double)range) : 0.0;
    const double o = isfinite(other) ? fabs((double)other) : 0.0;
    const double big = r > o ? r : o;
    const int more = a.decimals > b.decimals ? a.decimals : b.decimals;
    const int fewer = a.decimals < b.decimals ? a.decimals : b.decimals;
    const int decimals = width_at(big, more) <= 7 ? more : fewer;
    return (struct ui_numfmt){decimals, width_at(r, decimals)};
}

char *ui_num_format(char *buf, size_t n, float v, struct ui_numfmt fmt)
{
    if (isinf(v))
        snprintf(buf, n, "%*s", fmt.width, v < 0 ? "-inf" : "inf");
    else if (isnan(v))
        snprintf(buf, n, "%*s", fmt.width, "nan");
    else if (fmt.decimals < 0)
        snprintf(buf, n, "%*.1e", fmt.width, (double)v);
    else {
        /* no "-0.00": a value that rounds to zero is written unsigned */
        double r = (double)v;
        double unit = pow(10.0, -fmt.decimals) / 2.0;
        if (fabs(r) < unit)
            r = 0.0;
        snprintf(buf, n, "%*.*f", fmt.width, fmt.decimals, r);
    }
    return buf;
}
