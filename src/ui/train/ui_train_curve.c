/* ui_train_curve.c - a run's figures on the training screen: its loss
 * curve (the training loss of every step as an area, the held-out loss of
 * each evaluation as a dot), each output's held-out accuracy over the
 * steps, and a text's jobs with their accuracies (ui_train_draw.h). */
#include <math.h>
#include <stdio.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/train/ui_train_draw.h"
#include "train/trun.h"

/* Columns of a curve at most. */
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

/* The held-out loss's glyph on the curve. */
static const char *held_glyph(bool utf8)
{
    return utf8 ? "•" : "o";
}

/* The curve's first line: what its two losses are drawn with, in the
 * longest form that fits w columns, and the held-out loss at its lowest
 * where there is room. */
static void curve_legend(WINDOW *win, int y, int x, int w, const struct trun_pane *p,
                         const struct ui_theme *th)
{
    static const char *const forms[][3] = {
        {"loss ", " training  ", " held-out"},
        {"", " training ", " held-out"},
        {"", " train ", " held-out"},
        {"", " train ", " held"},
    };
    const int n_forms = (int)(sizeof forms / sizeof forms[0]);
    int f = 0;
    while (f + 1 < n_forms && ui_text_width(forms[f][0], th->utf8) +
                                      ui_text_width(forms[f][1], th->utf8) +
                                      ui_text_width(forms[f][2], th->utf8) + 2 >
                                  w)
        f++;
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    int used = ui_put(win, y, x, forms[f][0], w, label, th->utf8);
    used += ui_put(win, y, x + used, th->utf8 ? "▆" : "#", w - used, ui_head_attr(th, 0), th->utf8);
    used += ui_put(win, y, x + used, forms[f][1], w - used, label, th->utf8);
    used += ui_put(win, y, x + used, held_glyph(th->utf8), w - used, ui_head_attr(th, 1), th->utf8);
    used += ui_put(win, y, x + used, forms[f][2], w - used, label, th->utf8);
    const struct train_fit *fit = &p->stopping.fit;
    if (fit->evals > 1) {
        char low[48];
        snprintf(low, sizeof low, " (lowest %.2f, step %ld)", (double)fit->best, fit->best_step);
        if (used + ui_text_width(low, th->utf8) <= w)
            ui_put(win, y, x + used, low, w - used, label, th->utf8);
    }
}

/* The loss curves of p in a box h x w at (y, x): a legend line, then the
 * training loss of every step as an area and the held-out loss of each
 * evaluation as a dot over it, the y axis labelled with the largest of
 * either and 0, the x axis running over the step limit, the step shown
 * marked.  Held-out above training is what learning the lines by heart
 * looks like. */
void ui_train_draw_curve(WINDOW *win, int y, int x, int h, int w, const struct trun *t,
                         const struct trun_pane *p, const struct ui_theme *th)
{
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    curve_legend(win, y, x, w, p, th);
    y++;
    h--;
    const float top = p->hist.top > p->hist.eval_top ? p->hist.top : p->hist.eval_top;
    char lab[16];
    snprintf(lab, sizeof lab, "%4.1f", (double)top);
    if (h >= 2)
        ui_put(win, y + h - 1, x, "   0", 5, label, th->utf8);
    ui_put(win, y, x, lab, 5, label, th->utf8);
    const int cx = x + 5, cw = w - 5 < CURVE_MAX_W ? w - 5 : CURVE_MAX_W;
    if (cw < 4 || h < 1)
        return;
    float col[CURVE_MAX_W], held[CURVE_MAX_W];
    const long span = trun_span(t);
    trun_history_columns(&p->hist, span, cw, col);
    trun_history_held_columns(&p->hist, span, trun_pane_reached(p), cw, held);
    const int attr = ui_head_attr(th, 0);
    const long shown = t->scrub;
    const int mark = shown >= 0 ? (int)((long long)shown * cw / span) : -1;
    for (int c = 0; c < cw; c++) {
        const int level = trun_curve_level(col[c], 0.0f, top, h * 8);
        if (c == (mark < cw ? mark : cw - 1) && mark >= 0)
            for (int r = 0; r < h; r++)
                ui_fill(win, y + r, cx + c, 1, ui_role_attr(th, UI_ROLE_CURSOR));
        if (level > 0)
            area_column(win, y, cx + c, h, level,
                        c == mark ? ui_role_attr(th, UI_ROLE_CURSOR) : attr, th->utf8);
        else if (level == 0)
            ui_put(win, y + h - 1, cx + c, "_", 1, attr, th->utf8);
        /* the held-out loss: a dot on the line its value reaches */
        const int hl = trun_curve_level(held[c], 0.0f, top, h * 8);
        if (hl >= 0) {
            const int r = hl <= 0 ? h - 1 : h - 1 - (hl - 1) / 8;
            ui_put(win, y + r, cx + c, held_glyph(th->utf8), 1, ui_head_attr(th, 1), th->utf8);
        }
    }
    wattrset(win, 0);
}

/* Output k's held-out accuracy: its name, a one-line curve of the
 * evaluations over the step limit, and the value at the step shown. */
void ui_train_draw_accuracy(WINDOW *win, int y, int x, int w, const struct trun *t,
                            const struct trun_pane *p, int k, bool hide, const struct ui_theme *th)
{
    static const char *const eighths[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
    static const char *const ascii[] = {" ", ".", ".", "-", "-", "=", "=", "#", "#"};
    const struct train_model *m = p->run->model;
    char name[16];
    snprintf(name, sizeof name, "%-5.5s", m->cfg.outputs[k].name);
    ui_put(win, y, x, name, 5, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
    if (hide) { /* a checkpoint asks about it: shown once answered */
        ui_put(win, y, x + 6, "? answer first", w - 6, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
        return;
    }
    /* the value at the step shown: the checkpoint's, or the last evaluation's */
    const float acc = trun_pane_accuracy(t, p, k);
    char val[16];
    snprintf(val, sizeof val, "%5.1f%%", 100.0 * (double)acc);
    const int cw = w - 5 - 1 - 7;
    if (cw >= 4 && cw <= CURVE_MAX_W) {
        const long span = trun_span(t);
        for (int c = 0; c < cw; c++) {
            /* the last evaluation at or before the steps under column c */
            const long begin = (long)((long long)c * span / cw);
            const long end = (long)((long long)(c + 1) * span / cw);
            float v = NAN;
            for (int e = 0; e < p->hist.evals && p->hist.eval_step[e] < end; e++)
                v = p->hist.eval_acc[(size_t)e * TRUN_MAX_OUTPUTS + (size_t)k];
            if (trun_pane_reached(p) < begin)
                v = NAN; /* not trained that far yet */
            const int level = trun_curve_level(v, 0.0f, 1.0f, 8);
            if (level < 0)
                continue;
            ui_put(win, y, x + 6 + c, th->utf8 ? eighths[level] : ascii[level], 1,
                   ui_head_attr(th, 1 + k), th->utf8);
        }
    }
    ui_put(win, y, x + w - 7, val, 7, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    wattrset(win, 0);
}

/* A job's value as the screen writes it ("–" before the first measure). */
static void job_value(const struct trun *t, const struct trun_pane *p, int j, bool utf8, char *buf,
                      size_t n)
{
    const float acc = trun_pane_job_accuracy(p, t->scrub, j);
    if (isnan(acc))
        snprintf(buf, n, "%s", utf8 ? "–" : "-");
    else
        snprintf(buf, n, "%.1f%%", 100.0 * (double)acc);
}

void ui_train_draw_accuracy_jobs(WINDOW *win, int y, int x, int w, const struct trun *t,
                                 const struct trun_pane *p, const struct ui_theme *th)
{
    const struct train_model *m = p->run->model;
    const struct train_text *text = p->run->task->data->text;
    const int label = ui_role_attr(th, UI_ROLE_LABEL), value = ui_role_attr(th, UI_ROLE_TITLE);
    char part[64];
    snprintf(part, sizeof part, "%-5.5s", m->cfg.outputs[0].name);
    int used = ui_put(win, y, x, part, w, label, th->utf8);
    snprintf(part, sizeof part, " %.1f%%", 100.0 * (double)trun_pane_accuracy(t, p, 0));
    used += ui_put(win, y, x + used, part, w - used, value, th->utf8);
    for (int j = 0; j < trun_pane_job_count(p); j++) {
        char name[32], val[16];
        snprintf(name, sizeof name, "  %.20s ", text->job_names[j]);
        job_value(t, p, j, th->utf8, val, sizeof val);
        if (used + ui_text_width(name, th->utf8) + ui_text_width(val, th->utf8) > w)
            break; /* whole jobs only */
        used += ui_put(win, y, x + used, name, w - used, label, th->utf8);
        used += ui_put(win, y, x + used, val, w - used, value, th->utf8);
    }
    wattrset(win, 0);
}

/* Job j of a text's held-out words, under the next word's accuracy: its
 * name indented and its top-1 with every head, as measured at the live
 * model's last evaluation or when the checkpoint shown was kept ("–"
 * before the first measure). */
void ui_train_draw_job(WINDOW *win, int y, int x, int w, const struct trun *t,
                       const struct trun_pane *p, int j, const struct ui_theme *th)
{
    const struct train_text *text = p->run->task->data->text;
    char name[24], val[16], v[16];
    snprintf(name, sizeof name, "  %.20s", text->job_names[j]);
    job_value(t, p, j, th->utf8, v, sizeof v);
    snprintf(val, sizeof val, "%*s", ui_text_width(v, th->utf8) < 6 ? 6 : 0, v);
    ui_put(win, y, x, name, w - 7, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
    ui_put(win, y, x + w - 7, val, 7, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    wattrset(win, 0);
}
