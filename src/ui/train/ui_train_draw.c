/* ui_train_draw.c - the training screen drawn in the visualisation area:
 * a header line (task, step, pace or why it stopped), the task in words,
 * and for each run a pane with its loss curve, each output's held-out
 * accuracy, and one heatmap per head on the sample sequence (or, in their
 * place, what each head writes, or the lines a text's model writes).  Here
 * the layout; the parts are drawn by ui_train_curve.c, ui_train_heads.c,
 * ui_train_circuits.c and ui_train_samples.c.  A pure function of the app. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/modes/ui_parts.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/train/ui_train.h"
#include "ui/draw/ui_text.h"
#include "train/trun.h"
#include "ui/train/ui_train_circuits.h"
#include "ui/train/ui_train_draw.h"

/* Columns beside the heads the loss curve and the accuracies need at least. */
#define SIDE_MIN_W 20
#define SIDE_GAP 2
/* Lines the curve takes at least: its legend and two lines of plot, so
 * that a held-out dot and the training area can be told apart. */
#define CURVE_MIN_H 3

/* Lines of a text's jobs pane p keeps: every job of a text whose jobs it
 * measures, live or scrubbed, measured yet or not, so that scrubbing moves
 * nothing (none while a checkpoint hides the figures). */
static int job_lines(const struct trun_pane *p, bool hide)
{
    return hide ? 0 : trun_pane_job_count(p);
}

/* Where a pane's parts go, relative to the pane. */
struct pane_geom {
    int title_h;      /* the pane's title (--compare): 1, else 0 */
    bool side;        /* the curve and accuracies beside the heads, else above them */
    int col_w, col_h; /* their column (side) */
    int curve_h;      /* 0: no room for the loss curve */
    int jobs;         /* a text's job lines under the accuracies (above the heads) */
    int heads_x, heads_y;
    struct ui_train_heads heads;
};

static int cell_area(const struct ui_train_heads *g)
{
    return g->cell_w * g->cell_h;
}

/* The layout of pane p in w x h: the heads beside the curve when that
 * gives them cells at least as large as stacking them below it, or leaves
 * the curve a place it would not have below.  The jobs
 * lines of a text's jobs go under the accuracies when the curve keeps CURVE_MIN_H
 * lines (below it: with the heads still whole). */
static void pane_layout(const struct trun *t, const struct trun_pane *p, const struct ui_theme *th,
                        int w, int h, int jobs, struct pane_geom *pg)
{
    const struct train_model *m = p->run->model;
    const int n_out = m->cfg.n_outputs;
    memset(pg, 0, sizeof *pg);
    pg->title_h = t->compare ? 1 : 0;
    const int room = h - pg->title_h;
    const bool utf8 = th->utf8;
    struct ui_train_heads side, stack;
    bool side_ok = false, stack_ok = false;
    int curve_h = CURVE_MIN_H, stack_jobs = jobs;
    /* a row to a line first, the curve given up before that; two rows to
     * a line only where the heads fit no other way */
    for (int half = 0; half <= (th->half ? 1 : 0) && !side_ok && !stack_ok; half++) {
        side_ok = ui_train_heads_fit(m, utf8, half, w - SIDE_MIN_W - SIDE_GAP, room, &side) &&
                  room >= n_out + CURVE_MIN_H;
        curve_h = CURVE_MIN_H;
        stack_jobs = jobs;
        stack_ok = jobs > 0 &&
                   ui_train_heads_fit(m, utf8, half, w, room - n_out - CURVE_MIN_H - jobs, &stack);
        if (!stack_ok) { /* no room for the jobs */
            stack_jobs = 0;
            stack_ok = ui_train_heads_fit(m, utf8, half, w, room - n_out - CURVE_MIN_H, &stack);
        }
        if (!stack_ok) { /* no room for the curve */
            stack_ok = ui_train_heads_fit(m, utf8, half, w, room - n_out, &stack);
            curve_h = 0;
        }
    }
    /* beside the curve also when below it the curve would not fit, as long
     * as a weight's cell keeps 3 columns there (narrower, the heads keep
     * the room, as the circuits drawn in their place need it) */
    const bool side_curve = curve_h == 0 && side.cell_w >= 3;
    if (side_ok && (!stack_ok || side_curve || cell_area(&side) >= cell_area(&stack))) {
        pg->side = true;
        pg->heads = side;
        pg->col_w = w - side.w - SIDE_GAP;
        pg->col_h = side.h > n_out + CURVE_MIN_H ? side.h : n_out + CURVE_MIN_H;
        pg->jobs = pg->col_h - n_out - jobs >= CURVE_MIN_H ? jobs : 0;
        pg->heads_x = pg->col_w + SIDE_GAP;
        pg->heads_y = pg->title_h;
        return;
    }
    pg->heads = stack;
    pg->jobs = curve_h > 0 ? stack_jobs : 0;
    const int spare = room - n_out - pg->jobs - stack.h;
    if (curve_h > 0) /* the curve takes what the heads leave, up to 8 lines */
        curve_h = spare > 8 ? 8 : spare;
    pg->curve_h = curve_h;
    pg->col_w = w;
    const int gap = spare - curve_h >= 1 ? 1 : 0; /* a blank line above the heads */
    pg->heads_y = pg->title_h + curve_h + n_out + pg->jobs + gap;
}

/* Lines pane p needs in w columns to show every head whole, with the
 * smallest cells (half: two rows of them to a line): beside the curve, or
 * below it (with a curve of 2 lines when curve is set, else none). */
static int pane_need(const struct trun *t, const struct trun_pane *p, bool utf8, int w, bool curve,
                     bool half)
{
    const struct train_model *m = p->run->model;
    const int title = t->compare ? 1 : 0, n_out = m->cfg.n_outputs;
    struct ui_train_heads g;
    ui_train_heads_smallest(m, utf8, half, w, &g);
    int need = title + (curve ? CURVE_MIN_H : 0) + n_out + g.h;
    ui_train_heads_smallest(m, utf8, half, w - SIDE_MIN_W - SIDE_GAP, &g);
    if (g.w <= w - SIDE_MIN_W - SIDE_GAP) {
        const int side = title + (g.h > n_out + CURVE_MIN_H ? g.h : n_out + CURVE_MIN_H);
        need = side < need ? side : need;
    }
    return need;
}

/* A run's pane h x w at (y, x). */
static void draw_pane(WINDOW *win, int y, int x, int h, int w, const struct trun *t,
                      const struct trun_pane *p, bool hide, const struct ui_theme *th)
{
    const struct train_model *m = trun_pane_model(p, t->scrub);
    const int n_out = p->run->model->cfg.n_outputs;
    struct pane_geom pg;
    pane_layout(t, p, th, w, h, job_lines(p, hide), &pg);
    if (t->compare) {
        /* the focused pane (the stage keys' model) is marked and reversed */
        char title[48], note[64] = "";
        const bool focused = p == &t->panes[t->focus];
        const char *mark = focused ? (th->utf8 ? "▶ " : "> ") : "  ";
        const size_t ml = strlen(mark);
        memcpy(title, mark, ml);
        trun_pane_title(p, title + ml, sizeof title - ml);
        const int tw =
            ui_put(win, y, x, title, w, ui_role_attr(th, UI_ROLE_TITLE) | (focused ? A_REVERSE : 0),
                   th->utf8);
        if (p->stop != TRUN_RUNNING)
            snprintf(note, sizeof note, "  %s at %ld",
                     p->stop == TRUN_STOP_LIMIT ? "limit" : "stopped", trun_pane_reached(p));
        ui_put(win, y, x + tw, note, w - tw, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
    int line = y + pg.title_h;
    if (pg.side) {
        /* beside the heads: why it stopped (one run, when it fits whole
         * and leaves the curve 2 lines), the curve, the accuracies */
        char stop[256] = "";
        if (!t->compare && !hide)
            trun_stop_text(p, stop, sizeof stop);
        struct ui_line lines[8];
        int n = stop[0] ? ui_text_wrap(stop, pg.col_w, th->utf8, lines, 8) : 0;
        const int nj = pg.jobs;
        if (n > 0 && pg.col_h - n_out - nj - n - 1 < CURVE_MIN_H)
            n = 0;
        int curve_h = pg.col_h - n_out - nj - (n > 0 ? n + 1 : 0);
        curve_h = curve_h > 16 ? 16 : curve_h;
        ui_train_draw_curve(win, line, x, curve_h, pg.col_w, t, p, th);
        line += curve_h;
        const bool inline_jobs = nj == 0 && job_lines(p, hide) > 0 && n_out == 1;
        for (int k = 0; k < n_out; k++)
            if (inline_jobs)
                ui_train_draw_accuracy_jobs(win, line++, x, pg.col_w, t, p, th);
            else
                ui_train_draw_accuracy(win, line++, x, pg.col_w, t, p, k, hide, th);
        for (int j = 0; j < nj; j++)
            ui_train_draw_job(win, line++, x, pg.col_w, t, p, j, th);
        line++;
        for (int i = 0; i < n; i++) {
            char buf[512];
            const int tw =
                ui_text_fit_n(lines[i].start, lines[i].len, pg.col_w, th->utf8, buf, sizeof buf);
            ui_put(win, line++, x, buf, tw, ui_role_attr(th, UI_ROLE_INSIGHT), th->utf8);
        }
    } else {
        if (pg.curve_h >= CURVE_MIN_H - 1)
            ui_train_draw_curve(win, line, x, pg.curve_h, w, t, p, th);
        line += pg.curve_h;
        /* a text's jobs without lines of their own: on its output's line */
        const bool inline_jobs = pg.jobs == 0 && job_lines(p, hide) > 0 && n_out == 1;
        for (int k = 0; k < n_out; k++)
            if (inline_jobs)
                ui_train_draw_accuracy_jobs(win, line++, x, w, t, p, th);
            else
                ui_train_draw_accuracy(win, line++, x, w, t, p, k, hide, th);
        for (int j = 0; j < pg.jobs; j++)
            ui_train_draw_job(win, line++, x, w, t, p, j, th);
    }
    /* what each head does, measured on held-out sequences (not only the sample) */
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    const bool measured = !hide && trun_pane_heads_ready(p, t->scrub, roles);
    /* and, on a text with jobs, the jobs each head does (knocked out alone) */
    static char jobs[TRAIN_MAX_D_MODEL][TRUN_JOBS_LABEL];
    const bool have_jobs = !hide && trun_pane_jobs_ready(p, t->scrub);
    for (int i = 0; have_jobs && i < m->cfg.heads; i++)
        trun_pane_jobs(p, t->scrub, i, jobs[i], sizeof jobs[i]);
    /* and, on a text with jobs, what knocking each out alone did, to lead
     * its reading (a letter task's measured label is its title already) */
    static char done[TRAIN_MAX_D_MODEL][UI_TRAIN_MEASURED];
    for (int i = 0; t->circuits && i < m->cfg.heads; i++) {
        done[i][0] = '\0';
        if (have_jobs)
            trun_pane_knocked(p, t->scrub, i, done[i], sizeof done[i]);
    }
    if (t->samples)
        ui_train_draw_samples(win, y + pg.heads_y, x + pg.heads_x, h - pg.heads_y, w - pg.heads_x,
                              t, p, th);
    else if (t->circuits)
        ui_train_draw_circuits(win, y + pg.heads_y, x + pg.heads_x, h - pg.heads_y, w - pg.heads_x,
                               m, measured ? roles : NULL, have_jobs ? jobs : NULL,
                               hide ? NULL : done, th);
    else {
        pg.heads.room = w - pg.heads_x; /* a row's last title may run to the pane's edge */
        ui_train_draw_heads(win, y + pg.heads_y, x + pg.heads_x, &pg.heads, y + h, m,
                            measured ? roles : NULL, have_jobs ? jobs : NULL, th);
    }
}

/* The panes' columns in width: each the room its heads need beside the
 * curve (else below it), and what is left shared equally. */
static const int pane_gap = 3;
static void pane_columns(const struct trun *t, bool utf8, int width, int xs[TRUN_MAX_PANES],
                         int ws[TRUN_MAX_PANES])
{
    const int n = t->n_panes;
    int side[TRUN_MAX_PANES], stack[TRUN_MAX_PANES];
    int sum_side = pane_gap * (n - 1), sum_stack = sum_side;
    for (int i = 0; i < n; i++) {
        struct ui_train_heads g;
        ui_train_heads_smallest(t->panes[i].run->model, utf8, false, 1 << 20, &g);
        side[i] = g.w + SIDE_GAP + SIDE_MIN_W;
        stack[i] = g.w > SIDE_MIN_W ? g.w : SIDE_MIN_W;
        sum_side += side[i];
        sum_stack += stack[i];
    }
    const int *base = n > 1 && sum_side <= width    ? side
                      : n > 1 && sum_stack <= width ? stack
                                                    : NULL;
    const int extra = base ? width - (base == side ? sum_side : sum_stack) : 0;
    int x = 0;
    for (int i = 0; i < n; i++) {
        ws[i] =
            base ? base[i] + extra / n + (i < extra % n ? 1 : 0) : (width - pane_gap * (n - 1)) / n;
        xs[i] = x;
        x += ws[i] + pane_gap;
    }
}

int ui_train_view_pane_at(const struct ui_train_view *v, const struct ui_layout *l, int y, int x)
{
    const struct trun *t = v->t;
    if (!t || !t->shown || t->n_panes < 2 || y < l->vis.y + UI_VIS_HEADER ||
        y >= l->vis.y + l->vis.h || x < l->vis.x || x >= l->vis.x + l->vis.w - 1)
        return -1;
    int xs[TRUN_MAX_PANES], ws[TRUN_MAX_PANES];
    pane_columns(t, v->th->utf8, l->vis.w - 1, xs, ws);
    for (int i = 0; i < t->n_panes; i++)
        if (x - l->vis.x >= xs[i] && x - l->vis.x < xs[i] + ws[i])
            return i;
    return -1;
}

/* The header's words, briefer as form goes up from 0: "first-prev · step
 * 340 of 1500 · 300 steps/s" (or the state: paused, stopped, checkpoint);
 * 1: the state alone, no pace; 2: "first-prev · 340/1500 · paused"; 3:
 * "first-prev · 340/1500". */
static void header_words(const struct trun *t, int form, char *buf, size_t n)
{
    const long step = trun_shown_step(t);
    const char *state = t->scrub >= 0  ? "checkpoint"
                        : trun_done(t) ? "stopped"
                        : t->paused    ? "paused"
                                       : NULL;
    char pace[64], steps[48];
    const int kept = trun_pace(t), asked = trun_rates[t->rate];
    if (kept >= 0 && kept < asked * 9 / 10) /* the machine cannot keep the pace asked */
        snprintf(pace, sizeof pace, "%d steps/s (of %d)", kept, asked);
    else
        snprintf(pace, sizeof pace, "%d steps/s", asked);
    if (form >= 2)
        snprintf(steps, sizeof steps, "%ld/%d", step, t->opt.steps);
    else
        snprintf(steps, sizeof steps, "step %ld of %d", step, t->opt.steps);
    const char *last = form == 0 ? (state ? state : pace) : form < 3 ? state : NULL;
    snprintf(buf, n, "%s · %s%s%s", t->task->name, steps, last ? " · " : "", last ? last : "");
}

/* The header line's words, whether it starts with the screen's title and
 * whether the colour legend shares its line (then the task's words start on
 * the line under it).  The title gives way to the legend only when the
 * canvas has no line to spare (tight), and to the header's words where
 * both do not fit. */
static bool legend_on_header(const struct ui_train_view *v, int width, bool tight, char *head,
                             size_t n, bool *titled)
{
    header_words(v->t, 0, head, n);
    /* the header is measured at its widest while the run trains, stops or
     * is scrubbed (the step at its limit; the pace asked, "checkpoint" or
     * "stopped"), so that neither training on nor scrubbing moves the
     * legend and the panes under it */
    const struct trun *t = v->t;
    char pace[32], widest[200];
    snprintf(pace, sizeof pace, "%d steps/s", trun_rates[t->rate]);
    snprintf(widest, sizeof widest, "%s · step %d of %d · %s", t->task->name, t->opt.steps,
             t->opt.steps, strlen(pace) > strlen("checkpoint") ? pace : "checkpoint");
    const int hw = ui_text_width(widest, v->th->utf8);
    const int lw = ui_legend_prob_width(v->th) + 3;
    const int title_w = v->present ? 0 : 11;
    *titled = title_w > 0;
    if (title_w + hw + lw <= width)
        return true;
    if (!tight || hw + lw > width) {
        *titled = title_w > 0 && title_w + hw <= width; /* the words whole before the title */
        return false;
    }
    *titled = false;
    return true;
}

/* The most lines the panes need to show every head whole (curve: with
 * the loss curve in the stacked layout; half: two rows to a line). */
static int panes_need(const struct trun *t, bool utf8, int width, bool curve, bool half)
{
    int xs[TRUN_MAX_PANES], ws[TRUN_MAX_PANES], need = 0;
    pane_columns(t, utf8, width, xs, ws);
    for (int i = 0; i < t->n_panes; i++) {
        const int h = pane_need(t, &t->panes[i], utf8, ws[i], curve, half);
        need = h > need ? h : need;
    }
    return need;
}

/* The lines the panes take in view_h, as pane_layout lays them out: the
 * first of a row to a line with the curve (leaving spare lines for the
 * task's words), then without it, then two rows to a line (where the theme
 * draws them) with it and without; the last when none fits. */
static int panes_need_within(const struct trun *t, const struct ui_theme *th, int width, int view_h,
                             int spare)
{
    static const bool form[4][2] = {{false, true}, {false, false}, {true, true}, {true, false}};
    int need = 0;
    for (int k = 0; k < 4; k++) {
        if (form[k][0] && !th->half)
            continue;
        need = panes_need(t, th->utf8, width, form[k][1], form[k][0]);
        if (need + (form[k][1] ? spare : 0) <= view_h)
            break;
    }
    return need;
}

int ui_train_view_need(const struct ui_train_view *v, int width, bool curve, bool half)
{
    char head[200];
    bool titled;
    const bool top = legend_on_header(v, width, true, head, sizeof head, &titled);
    return (top ? 0 : 1) + panes_need(v->t, v->th->utf8, width, curve, half && v->th->half);
}

/* What the loss and the accuracies mean, in one line of width columns at
 * most (the longest form that fits): the loss a model that guesses evenly
 * starts near (the sum of ln classes over the outputs) and what the
 * accuracies are measured on. */
static void key_line(const struct train_run *run, int width, bool utf8, char *buf, size_t n)
{
    const struct train_config *cfg = &run->model->cfg;
    char sum[96] = "";
    size_t used = 0;
    double guess = 0.0;
    bool same = true;
    for (int k = 0; k < cfg->n_outputs; k++) {
        guess += log((double)cfg->outputs[k].classes);
        same = same && cfg->outputs[k].classes == cfg->outputs[0].classes;
    }
    if (same && cfg->n_outputs > 1)
        snprintf(sum, sizeof sum, "%d × ln %d", cfg->n_outputs, cfg->outputs[0].classes);
    else
        for (int k = 0; k < cfg->n_outputs && used < sizeof sum; k++)
            used += (size_t)snprintf(sum + used, sizeof sum - used, "%sln %d", k ? " + " : "",
                                     cfg->outputs[k].classes);
    const int held = run->eval->size;
    const int outs = cfg->n_outputs;
    const char *plural = outs == 1 ? "" : "s";
    for (int form = 0; form < 3; form++) {
        if (form == 0)
            snprintf(buf, n,
                     "Loss: cross-entropy summed over the %d output%s, near %s = %.1f while it "
                     "guesses. Accuracy: right answers on %d held-out sequences, never trained on.",
                     outs, plural, sum, guess, held);
        else if (form == 1)
            snprintf(buf, n,
                     "loss: cross-entropy of %d output%s, %s = %.1f when guessing · accuracy on %d "
                     "held-out sequences",
                     outs, plural, sum, guess, held);
        else
            snprintf(buf, n, "loss ≈ %s = %.1f when guessing · accuracy on %d held-out sequences",
                     sum, guess, held);
        if (ui_text_width(buf, utf8) <= width)
            return;
    }
}

void ui_train_view_draw(const struct ui_train_view *v, WINDOW *vis, WINDOW *cv, int width,
                        int view_h, bool hide)
{
    const struct trun *t = v->t;
    const struct ui_theme *th = v->th;

    werase(vis);
    char head[200];
    bool titled;
    const bool tight = view_h < 1 + panes_need(t, th->utf8, width, true, false);
    const bool top = legend_on_header(v, width, tight, head, sizeof head, &titled);
    int used =
        titled ? ui_put(vis, 0, 0, "Training   ", width, ui_role_attr(th, UI_ROLE_TITLE), th->utf8)
               : 0;
    /* a narrow header gives its words more briefly rather than cut them */
    const int head_w = width - used - (top ? ui_legend_prob_width(th) + 3 : 0);
    for (int form = 1; form <= 3 && ui_text_width(head, th->utf8) > head_w; form++)
        header_words(t, form, head, sizeof head);
    ui_put(vis, 0, used, head, width - used, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    const int lw = ui_legend_prob_width(th);
    const bool heatmaps = !t->circuits && !t->samples; /* else its place stays blank */
    if (heatmaps && top)
        ui_legend_draw(vis, 0, width - lw, lw > 25 ? lw : 25, UI_LEGEND_PROB, 0, th);
    else if (heatmaps)
        ui_legend_draw(vis, 1, 0, width, UI_LEGEND_PROB, 0, th);

    /* the task in words: as many lines as leave every head whole (the
     * first on the header's second line when the legend left it free) */
    const int need = panes_need_within(t, th, width, view_h, top ? 0 : 1);
    struct ui_line lines[4];
    /* a file too small to learn from says so first (the pane in focus, else
     * the first that shows a sign) */
    char text[1024] = "";
    for (int i = -1; i < t->n_panes && !text[0]; i++)
        trun_pane_fit(&t->panes[i < 0 ? t->focus : i], text, sizeof text);
    const size_t warn = strlen(text);
    /* the task's words give way to the heads' last row, a warning never */
    const int least = warn || top ? 1 : 0;
    int room = (top ? 1 : 0) + view_h - need;
    room = room < least ? least : room > 4 ? 4 : room;
    snprintf(text + warn, sizeof text - warn, "%s%s", warn ? " " : "", t->task->description);
    char key[320] = "";
    if (room >= 2) { /* the last line says what the loss and the accuracy are */
        key_line(t->panes[0].run, width, th->utf8, key, sizeof key);
        room--;
    }
    const int n = ui_text_wrap(text, width, th->utf8, lines, 4);
    werase(cv);
    int y = 0;
    for (int i = 0; i < n && i < room; i++) {
        char buf[512];
        int tw;
        if (i == room - 1 && n > room) /* the last line that fits ends the text with "…" */
            tw = ui_text_fit(lines[i].start, width, th->utf8, buf, sizeof buf);
        else
            tw = ui_text_fit_n(lines[i].start, lines[i].len, width, th->utf8, buf, sizeof buf);
        const int attr = lines[i].start < text + warn ? ui_role_attr(th, UI_ROLE_INSIGHT) : 0;
        if (top && i == 0)
            ui_put(vis, 1, 0, buf, tw, attr, th->utf8);
        else
            ui_put(cv, y++, 0, buf, tw, attr, th->utf8);
    }
    if (key[0]) {
        char buf[512];
        const int tw = ui_text_fit(key, width, th->utf8, buf, sizeof buf);
        ui_put(cv, y++, 0, buf, tw, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
    wnoutrefresh(vis);
    if (y > 0 && y + need < view_h)
        y++; /* a blank line under the words when there is room */
    int xs[TRUN_MAX_PANES], ws[TRUN_MAX_PANES];
    pane_columns(t, th->utf8, width, xs, ws);
    for (int i = 0; i < t->n_panes; i++)
        draw_pane(cv, y, xs[i], view_h - y, ws[i], t, &t->panes[i], hide, th);
    wnoutrefresh(cv);
}
