/* ui_train_draw.c - the training screen drawn in the visualisation area:
 * a header line (task, step, pace or why it stopped), the task in words,
 * and for each run a pane with its loss curve, each output's held-out
 * accuracy, and one heatmap per head on the sample sequence.  A pure
 * function of the app. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/core/ui_app.h"
#include "ui/widgets/ui_text.h"
#include "ui/train/ui_train.h"

#define CURVE_MAX_W 512

/* One column of an area chart h lines high at (y, x): level 0..h*8. */
static void area_column(WINDOW *win, int y, int x, int h, int level, int attr, bool utf8)
{
    static const char *const eighths[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    for (int r = 0; r < h; r++) {
        const int base = (h - 1 - r) * 8; /* level at the bottom of line r */
        const int fill = level - base;
        const char *g;
        if (fill <= 0)
            continue;
        if (utf8)
            g = eighths[fill >= 8 ? 8 : fill];
        else
            g = fill >= 8 ? "#" : fill >= 4 ? ":" : ".";
        wattrset(win, attr);
        mvwaddstr(win, y + r, x, g);
    }
}

/* The loss curve of p in a box h x w at (y, x): the y axis labelled with
 * the largest loss and 0, the x axis running over the step limit, the step
 * shown marked. */
static void draw_curve(WINDOW *win, int y, int x, int h, int w, const struct ui_train *t,
                       const struct ui_train_pane *p, const struct ui_theme *th)
{
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    float top = 0.0f;
    for (long s = 0; s < p->hist.n; s++)
        if (isfinite(p->hist.loss[s]) && p->hist.loss[s] > top)
            top = p->hist.loss[s];
    char lab[16];
    snprintf(lab, sizeof lab, "%4.1f", (double)top);
    ui_put(win, y, x, lab, 5, label, th->utf8);
    ui_put(win, y + h - 1, x, "   0", 5, label, th->utf8);
    ui_put(win, y + h / 2, x, "loss", 5, label, th->utf8);
    const int cx = x + 5, cw = w - 5 < CURVE_MAX_W ? w - 5 : CURVE_MAX_W;
    if (cw < 4 || h < 2)
        return;
    float col[CURVE_MAX_W];
    const long span = ui_train_span(t);
    ui_train_curve_columns(p->hist.loss, p->hist.n, span, cw, col);
    const int attr = ui_head_attr(th, 0);
    const long shown = t->scrub;
    const int mark = shown >= 0 ? (int)((long long)shown * cw / span) : -1;
    for (int c = 0; c < cw; c++) {
        const int level = ui_train_curve_level(col[c], 0.0f, top, h * 8);
        if (c == (mark < cw ? mark : cw - 1) && mark >= 0)
            for (int r = 0; r < h; r++)
                ui_fill(win, y + r, cx + c, 1, ui_role_attr(th, UI_ROLE_CURSOR));
        if (level > 0)
            area_column(win, y, cx + c, h, level,
                        c == mark ? ui_role_attr(th, UI_ROLE_CURSOR) : attr, th->utf8);
        else if (level == 0)
            ui_put(win, y + h - 1, cx + c, "_", 1, attr, th->utf8);
    }
    wattrset(win, 0);
}

/* Output k's held-out accuracy: its name, a one-line curve of the
 * evaluations over the step limit, and the value at the step shown. */
static void draw_accuracy(WINDOW *win, int y, int x, int w, const struct ui_train *t,
                          const struct ui_train_pane *p, int k, const struct ui_theme *th)
{
    static const char *const eighths[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char *const ascii[] = {" ", ".", ".", "-", "-", "=", "=", "#", "#"};
    const struct train_model *m = p->run->model;
    char name[16];
    snprintf(name, sizeof name, "%-5.5s", m->cfg.outputs[k].name);
    ui_put(win, y, x, name, 5, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
    /* the value at the step shown: the checkpoint's, or the last evaluation's */
    const float acc = ui_train_pane_accuracy(t, p, k);
    char val[16];
    snprintf(val, sizeof val, "%5.1f%%", 100.0 * (double)acc);
    const int cw = w - 5 - 1 - 7;
    if (cw >= 4 && cw <= CURVE_MAX_W) {
        const long span = ui_train_span(t);
        for (int c = 0; c < cw; c++) {
            /* the last evaluation at or before the steps under column c */
            const long begin = (long)((long long)c * span / cw);
            const long end = (long)((long long)(c + 1) * span / cw);
            float v = NAN;
            for (int e = 0; e < p->hist.evals && p->hist.eval_step[e] < end; e++)
                v = p->hist.eval_acc[(size_t)e * UI_TRAIN_MAX_OUTPUTS + (size_t)k];
            if (p->run->model->step < begin)
                v = NAN; /* not trained that far yet */
            const int level = ui_train_curve_level(v, 0.0f, 1.0f, 8);
            if (level < 0)
                continue;
            ui_put(win, y, x + 6 + c, th->utf8 ? eighths[level] : ascii[level], 1,
                   ui_head_attr(th, 1 + k), th->utf8);
        }
    }
    ui_put(win, y, x + w - 7, val, 7, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    wattrset(win, 0);
}

/* One heat cell cell_w wide. */
static void heat_cell(WINDOW *win, int y, int x, float p, int cell_w, bool masked,
                      const struct ui_theme *th)
{
    if (masked) {
        wattrset(win, ui_role_attr(th, UI_ROLE_MASKED));
        for (int i = 0; i < cell_w; i++)
            mvwaddstr(win, y, x + i, i == cell_w - 1 ? (th->utf8 ? "·" : ".") : " ");
        return;
    }
    wattrset(win, ui_seq_attr(th, p));
    const char *g =
        th->depth == UI_DEPTH_MONO ? ui_shade_glyph(colorscale_seq_level(p, 5), th->utf8) : " ";
    for (int i = 0; i < cell_w; i++)
        mvwaddstr(win, y + 0, x + i, g);
}

/* Columns a heatmap of len positions takes with cells cell_w wide. */
static int heat_w(int len, int cell_w)
{
    return 4 + len * cell_w;
}

/* Head h of model m as a heatmap at (y, x): its title and what it was
 * measured to do (role NULL: not measured), column numbers (key
 * positions), one row per query labelled with its token. */
static void draw_head(WINDOW *win, int y, int x, int h, const struct train_model *m,
                      const struct train_head_stats *role, int cell_w, int view_h,
                      const struct ui_theme *th)
{
    const int len = m->sample_len;
    const float *w = train_head_weights(m, h);
    char title[64];
    const bool narrow = heat_w(len, cell_w) < 16;
    snprintf(title, sizeof title, narrow ? "h%d" : "head %d", h);
    int used = ui_put(win, y, x, title, heat_w(len, cell_w), ui_head_attr(th, h), th->utf8);
    if (role && role->kind != TRAIN_HEAD_NONE) {
        char what[64];
        const char *kind = train_head_kind_short(role->kind);
        if (narrow)
            snprintf(what, sizeof what, " %s", kind);
        else
            snprintf(what, sizeof what, " %s %.2f", kind, (double)role->share);
        ui_put(win, y, x + used, what, heat_w(len, cell_w) - used, ui_role_attr(th, UI_ROLE_SHAPE),
               th->utf8);
    }
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    for (int j = 0; j < len && y + 1 < view_h; j++) {
        char num[8];
        snprintf(num, sizeof num, "%*d", cell_w, j % (cell_w >= 2 ? 100 : 10));
        ui_put(win, y + 1, x + 4 + j * cell_w, num, cell_w, label, th->utf8);
    }
    for (int i = 0; i < len && y + 2 + i < view_h; i++) {
        const char *tok = m->vocab_names[m->sample[i]];
        char lab[16];
        ui_text_fit(tok, 3, th->utf8, lab, sizeof lab);
        ui_put(win, y + 2 + i, x, lab, 3, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
        for (int j = 0; j < len; j++) {
            const bool masked = m->cfg.causal && j > i;
            heat_cell(win, y + 2 + i, x + 4 + j * cell_w, w ? w[(size_t)i * len + j] : 0.0f, cell_w,
                      masked, th);
        }
    }
    wattrset(win, 0);
}

/* The heads of one model in w columns and h lines from (y, x): the widest
 * cells with which they all fit, in rows; those that do not fit even with
 * one-column cells are counted. */
static void draw_heads(WINDOW *win, int y, int x, int w, int h, const struct train_model *m,
                       const struct train_head_stats *roles, const struct ui_theme *th)
{
    const int heads = m->cfg.heads, len = m->sample_len;
    if (len < 1 || h < 3)
        return;
    const int rows = h / (len + 2) > 0 ? h / (len + 2) : 1;
    int cell_w = 4, across = 1;
    for (; cell_w >= 1; cell_w--) {
        across = w / (heat_w(len, cell_w) + 2);
        across = across < 1 ? 1 : across;
        if ((heat_w(len, cell_w) <= w && across * rows >= heads) || cell_w == 1)
            break;
    }
    const int per = heat_w(len, cell_w) + 2;
    const int fit = across * rows < heads ? across * rows : heads;
    for (int i = 0; i < fit; i++)
        draw_head(win, y + (i / across) * (len + 2), x + (i % across) * per, i, m,
                  roles ? &roles[i] : NULL, cell_w, y + h, th);
    if (fit < heads) {
        char more[96];
        snprintf(more, sizeof more, "+%d head%s not shown (a larger terminal shows them)",
                 heads - fit, heads - fit == 1 ? "" : "s");
        ui_put(win, y + h - 1, x + (fit % across) * per, more, w - (fit % across) * per,
               ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
}

/* Lines the heatmaps of p take in w columns, given at most room lines:
 * as many rows of heads as they need with one-column cells, as fit. */
static int pane_heads_h(const struct ui_train_pane *p, int w, int room)
{
    const struct train_model *m = p->run->model;
    const int len = m->sample_len, heads = m->cfg.heads;
    int across = w / (heat_w(len, 4) + 2);
    int rows = 1;
    for (int cell_w = 4; cell_w >= 1; cell_w--) {
        across = w / (heat_w(len, cell_w) + 2);
        across = across < 1 ? 1 : across;
        rows = (heads + across - 1) / across;
        if (rows == 1)
            break;
    }
    while (rows > 1 && rows * (len + 2) > room)
        rows--;
    return rows * (len + 2);
}

/* A run's pane h x w at (y, x). */
static void draw_pane(WINDOW *win, int y, int x, int h, int w, const struct ui_train *t,
                      const struct ui_train_pane *p, const struct ui_theme *th)
{
    const struct train_model *m = ui_train_pane_model(p, t->scrub);
    const int n_out = p->run->model->cfg.n_outputs;
    int line = y;
    if (t->compare) {
        /* the focused pane (the stage keys' model) is marked and reversed */
        char title[48], note[64] = "";
        const bool focused = p == &t->panes[t->focus];
        const char *mark = focused ? (th->utf8 ? "▶ " : "> ") : "  ";
        const size_t ml = strlen(mark);
        memcpy(title, mark, ml);
        ui_train_pane_title(p, title + ml, sizeof title - ml);
        const int tw =
            ui_put(win, line, x, title, w,
                   ui_role_attr(th, UI_ROLE_TITLE) | (focused ? A_REVERSE : 0), th->utf8);
        if (p->stop != UI_TRAIN_RUNNING)
            snprintf(note, sizeof note, "  %s at %ld",
                     p->stop == UI_TRAIN_STOP_LIMIT ? "limit" : "stopped", p->run->model->step);
        ui_put(win, line++, x + tw, note, w - tw, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
    /* the heatmaps want len + 2 lines a row of heads, the accuracies n_out;
     * the curve the rest (2..8) */
    const int heads_h = pane_heads_h(p, w, h - (line - y) - n_out - 2);
    int curve_h = h - (line - y) - n_out - heads_h;
    const int gap = curve_h >= 4 ? 1 : 0; /* a blank line above the heads when there is room */
    curve_h -= gap;
    curve_h = curve_h > 8 ? 8 : curve_h < 2 ? 2 : curve_h;
    draw_curve(win, line, x, curve_h, w, t, p, th);
    line += curve_h;
    for (int k = 0; k < n_out; k++)
        draw_accuracy(win, line++, x, w, t, p, k, th);
    line += gap;
    if (line < y + h) {
        /* what each head does, measured on held-out sequences (not only the sample) */
        struct train_head_stats roles[TRAIN_MAX_D_MODEL];
        const bool measured = ui_train_pane_heads(p, t->scrub, roles);
        draw_heads(win, line, x, w, y + h - line, m, measured ? roles : NULL, th);
    }
}

/* The width of each pane and the gap between them, as drawn below. */
static const int pane_gap = 3;
static int pane_width(const struct ui_app *app)
{
    const struct ui_train *t = app->train;
    return (app->lay.vis.w - 1 - pane_gap * (t->n_panes - 1)) / t->n_panes;
}

int ui_train_pane_at(const struct ui_app *app, int y, int x)
{
    const struct ui_train *t = app->train;
    const struct ui_layout *l = &app->lay;
    if (!t || !t->shown || t->n_panes < 2 || y < l->vis.y + UI_VIS_HEADER ||
        y >= l->vis.y + l->vis.h || x < l->vis.x || x >= l->vis.x + l->vis.w - 1)
        return -1;
    const int pw = pane_width(app);
    if (pw < 1)
        return -1;
    const int i = (x - l->vis.x) / (pw + pane_gap);
    return i < t->n_panes && (x - l->vis.x) % (pw + pane_gap) < pw ? i : -1;
}

/* The header's words: "first-prev · step 340 of 1500 · 300 steps/s". */
static void header_text(const struct ui_train *t, char *buf, size_t n)
{
    const long step = ui_train_shown_step(t);
    const char *state = t->scrub >= 0      ? "checkpoint"
                        : ui_train_done(t) ? "stopped"
                        : t->paused        ? "paused"
                                           : NULL;
    char pace[48];
    snprintf(pace, sizeof pace, "%d steps/s", ui_train_rates[t->rate]);
    snprintf(buf, n, "%s · step %ld of %d · %s", t->task->name, step, t->opt.steps,
             state ? state : pace);
}

void ui_train_draw_vis(const struct ui_app *app)
{
    const struct ui_train *t = app->train;
    const struct ui_theme *th = &app->th;
    const int width = app->lay.vis.w - 1;
    const int view_h = ui_app_view_h(app);
    WINDOW *vis = app->vis, *cv = app->canvas;

    werase(vis);
    char head[200];
    header_text(t, head, sizeof head);
    int used = app->st.present ? 0
                               : ui_put(vis, 0, 0, "Training   ", width,
                                        ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    ui_put(vis, 0, used, head, width - used, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    ui_legend_draw(vis, 1, 0, width, UI_LEGEND_PROB, 0, th);
    wnoutrefresh(vis);

    werase(cv);
    int y = 0;
    /* the task in words, or why the runs stopped */
    char stop[256] = "";
    for (int i = 0; i < t->n_panes && !stop[0]; i++)
        if (!t->compare && ui_train_done(t))
            ui_train_stop_text(&t->panes[i], stop, sizeof stop);
    if (t->compare && ui_train_done(t))
        snprintf(stop, sizeof stop,
                 "Every run stopped (each pane says when and why); ← → "
                 "scrub back, r trains again with a new seed.");
    const char *text = stop[0] ? stop : t->task->description;
    /* as many lines of it as leave each pane a curve, its accuracies and a row of heads */
    const struct train_model *m0 = t->panes[0].run->model;
    const int pane_min = (t->compare ? 1 : 0) + 2 + m0->cfg.n_outputs + m0->sample_len + 2;
    int room = view_h - pane_min;
    room = room < 1 ? 1 : room > 4 ? 4 : room;
    struct ui_line lines[4];
    int n = ui_text_wrap(text, width, th->utf8, lines, 4);
    n = n > room ? room : n;
    for (int i = 0; i < n; i++) {
        char buf[512];
        const int tw =
            ui_text_fit_n(lines[i].start, lines[i].len, width, th->utf8, buf, sizeof buf);
        ui_put(cv, y++, 0, buf, tw, stop[0] ? ui_role_attr(th, UI_ROLE_INSIGHT) : 0, th->utf8);
    }
    if (y + pane_min + 2 < view_h)
        y++;
    const int pw = pane_width(app);
    for (int i = 0; i < t->n_panes; i++)
        draw_pane(cv, y, i * (pw + pane_gap), view_h - y, pw, t, &t->panes[i], th);
    wnoutrefresh(cv);
}
