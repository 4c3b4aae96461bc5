/* ui_train_draw.c - the training screen drawn in the visualisation area:
 * a header line (task, step, pace or why it stopped), the task in words,
 * and for each run a pane with its loss curve, each output's held-out
 * accuracy, and one heatmap per head on the sample sequence.  A pure
 * function of the app. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui/modes/ui_app.h"
#include "ui/train/ui_train.h"
#include "ui/state/ui_quiz.h"
#include "ui/draw/ui_text.h"
#include "train/trun.h"
#include "ui/train/ui_train_circuits.h"

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
static void draw_curve(WINDOW *win, int y, int x, int h, int w, const struct trun *t,
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
    trun_history_held_columns(&p->hist, span, p->run->model->step, cw, held);
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
static void draw_accuracy(WINDOW *win, int y, int x, int w, const struct trun *t,
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
            if (p->run->model->step < begin)
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

/* Job j of a text's held-out words, under the next word's accuracy: its
 * name indented and its top-1 with every head, as measured at the live
 * model's last evaluation or when the checkpoint shown was kept ("–"
 * before the first measure). */
static void draw_job(WINDOW *win, int y, int x, int w, const struct trun *t,
                     const struct trun_pane *p, int j, const struct ui_theme *th)
{
    const struct train_text *text = p->run->task->data->text;
    char name[24], val[16];
    snprintf(name, sizeof name, "  %.20s", text->job_names[j]);
    const float acc = trun_pane_job_accuracy(p, t->scrub, j);
    if (isnan(acc))
        snprintf(val, sizeof val, "%6s", th->utf8 ? "–" : "-");
    else
        snprintf(val, sizeof val, "%5.1f%%", 100.0 * (double)acc);
    ui_put(win, y, x, name, w - 7, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
    ui_put(win, y, x + w - 7, val, 7, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    wattrset(win, 0);
}

/* Lines of a text's jobs pane p keeps: every job of a text whose jobs it
 * measures, live or scrubbed, measured yet or not, so that scrubbing moves
 * nothing (none while a checkpoint hides the figures). */
static int job_lines(const struct trun_pane *p, bool hide)
{
    return hide ? 0 : trun_pane_job_count(p);
}

/* One line of a heat cell cell_w wide at (y, x). */
static void heat_cell(WINDOW *win, int y, int x, float p, int cell_w, bool masked, bool dot,
                      const struct ui_theme *th)
{
    if (masked) { /* blank, with a dot on the cell's middle line */
        wattrset(win, ui_role_attr(th, UI_ROLE_MASKED));
        for (int i = 0; i < cell_w; i++)
            mvwaddstr(win, y, x + i, dot && i == cell_w - 1 ? (th->utf8 ? "·" : ".") : " ");
        return;
    }
    wattrset(win, ui_seq_attr(th, p));
    const char *g =
        th->depth == UI_DEPTH_MONO ? ui_shade_glyph(colorscale_seq_level(p, 5), th->utf8) : " ";
    for (int i = 0; i < cell_w; i++)
        mvwaddstr(win, y, x + i, g);
}

/* How a model's heads are drawn: the size of a weight's cell, the grid of
 * heads, and the box the grid takes. */
struct heads_geom {
    int label_w;        /* a row's token and the space after it */
    int cell_w, cell_h; /* columns and lines one weight takes */
    int gap;            /* columns between two heads side by side */
    int across, rows;   /* the grid */
    int shown;          /* heads drawn; the others are counted */
    int w, h;           /* the grid's box */
    int room;           /* columns the grid was given: a row's last title may run on */
};

/* Cell sizes, the roomiest first; a terminal's character is about twice as
 * tall as wide, so w = 2h is square. */
static const struct {
    int w, h;
} cells[] = {{6, 3}, {5, 3}, {4, 2}, {3, 2}, {4, 1}, {3, 1}, {2, 1}, {1, 1}};
#define N_CELLS ((int)(sizeof cells / sizeof cells[0]))

/* Columns beside the heads the loss curve and the accuracies need at least. */
#define SIDE_MIN_W 20
#define SIDE_GAP 2
/* Lines the curve takes at least: its legend and two lines of plot, so
 * that a held-out dot and the training area can be told apart. */
#define CURVE_MIN_H 3

/* The widest token of the sample (at most max columns) and a space. */
static int label_width(const struct train_model *m, bool utf8, int max)
{
    int w = 1;
    for (int i = 0; i < m->sample_len; i++) {
        const int tw = ui_text_width(m->vocab_names[m->sample[i]], utf8);
        w = tw > w ? tw : w;
    }
    return (w > max ? max : w) + 1;
}

/* Row labels cut to 3 columns unless there is room: a word's labels grow
 * to up to 9 columns where the grid of heads keeps its cells and its heads
 * across. */
#define LABEL_MIN 3
#define LABEL_MAX 9

/* The grid of m's heads with cells c and gap columns between heads, as
 * many across as w allows; true when the whole grid fits w x h. */
static bool heads_try(const struct train_model *m, int label_w, int c, int gap, int w, int h,
                      struct heads_geom *g)
{
    const int len = m->sample_len, heads = m->cfg.heads;
    const int hw = label_w + len * cells[c].w, hh = 2 + len * cells[c].h;
    int across = (w + gap) / (hw + gap);
    across = across < 1 ? 1 : across > heads ? heads : across;
    const int rows = (heads + across - 1) / across;
    *g = (struct heads_geom){label_w,   cells[c].w, cells[c].h, gap,
                             across,    rows,       heads,      across * hw + (across - 1) * gap,
                             rows * hh, w};
    return g->w <= w && g->h <= h;
}

/* The roomiest grid of m's heads that fits w x h (true); when none does,
 * the smallest, cut to the rows of heads that fit (false). */
/* g fits: its row labels as wide as the tokens ask (up to LABEL_MAX) where
 * the same cells and the same heads across still fit w x h. */
static void heads_wider_labels(const struct train_model *m, bool utf8, int w, int h,
                               struct heads_geom *g)
{
    int cell = 0;
    while (cell < N_CELLS - 1 && (cells[cell].w != g->cell_w || cells[cell].h != g->cell_h))
        cell++;
    struct heads_geom wide;
    for (int lw = label_width(m, utf8, LABEL_MAX); lw > g->label_w; lw--)
        if (heads_try(m, lw, cell, g->gap, w, h, &wide) && wide.across == g->across) {
            *g = wide;
            break;
        }
}

static bool heads_fit(const struct train_model *m, bool utf8, int w, int h, struct heads_geom *g)
{
    const int label_w = label_width(m, utf8, LABEL_MIN);
    for (int c = 0; c < N_CELLS; c++)
        if (heads_try(m, label_w, c, 2, w, h, g)) {
            heads_wider_labels(m, utf8, w, h, g);
            return true;
        }
    if (heads_try(m, label_w, N_CELLS - 1, 1, w, h, g)) {
        heads_wider_labels(m, utf8, w, h, g);
        return true;
    }
    const int hh = 2 + m->sample_len;
    int rows = h / hh;
    rows = rows < 1 ? 1 : rows > g->rows ? g->rows : rows;
    g->rows = rows;
    g->shown = rows * g->across < g->shown ? rows * g->across : g->shown;
    g->h = rows * hh < h ? rows * hh : h;
    return false;
}

/* The smallest grid of m's heads in one row (or as few rows as w allows). */
static void heads_smallest(const struct train_model *m, bool utf8, int w, struct heads_geom *g)
{
    heads_try(m, label_width(m, utf8, LABEL_MIN), N_CELLS - 1, 1, w, 1 << 20, g);
}

/* Head h of model m at (y, x) in the cells of g, cut at line max_y: its
 * title and what it was measured to do (role NULL: not measured) in title_w
 * columns (the last head of a row may take the room right of it), the key
 * positions above the columns, one row per query labelled with its token. */
static void draw_head(WINDOW *win, int y, int x, int h, int title_w, const struct train_model *m,
                      const struct train_head_stats *role, const char *jobs,
                      const struct heads_geom *g, int max_y, const struct ui_theme *th)
{
    const int len = m->sample_len, cw = g->cell_w, ch = g->cell_h;
    const int hw = g->label_w + len * cw;
    const float *w = train_head_weights(m, h);
    char title[64], what[72] = "";
    const bool narrow = hw < 16;
    snprintf(title, sizeof title, narrow ? "h%d" : "head %d", h);
    if (jobs && jobs[0]) { /* a text's jobs, measured by knocking it out: what it is for */
        snprintf(what, sizeof what, " %.46s", jobs);
    } else if (role && role->kind != TRAIN_HEAD_NONE) {
        /* "prev .97", "first .52 / prev .42"; short of room, the first
         * letters with the shares ("f.52/p.42", then "f52/p42"), then the
         * places alone */
        char label[64];
        train_head_label(role, label, sizeof label);
        snprintf(what, sizeof what, " %s", label);
        const int tw = ui_text_width(title, th->utf8);
        if (tw + ui_text_width(what, th->utf8) > title_w && role->kind2 != TRAIN_HEAD_NONE) {
            snprintf(what, sizeof what, " %.1s.%02d/%.1s.%02d", train_head_kind_short(role->kind),
                     (int)(role->share * 100.0f + 0.5f) % 100, train_head_kind_short(role->kind2),
                     (int)(role->share2 * 100.0f + 0.5f) % 100);
            if (tw + ui_text_width(what, th->utf8) > title_w) /* "f54/p43": in hundredths */
                snprintf(what, sizeof what, " %.1s%02d/%.1s%02d", train_head_kind_short(role->kind),
                         (int)(role->share * 100.0f + 0.5f) % 100,
                         train_head_kind_short(role->kind2),
                         (int)(role->share2 * 100.0f + 0.5f) % 100);
            if (tw + ui_text_width(what, th->utf8) > title_w)
                snprintf(what, sizeof what, " %s/%s", train_head_kind_short(role->kind),
                         train_head_kind_short(role->kind2));
        } else if (tw + ui_text_width(what, th->utf8) > title_w) {
            snprintf(what, sizeof what, " %s", train_head_kind_short(role->kind));
        }
    }
    const int used = ui_put(win, y, x, title, title_w, ui_head_attr(th, h), th->utf8);
    if (what[0])
        ui_put(win, y, x + used, what, title_w - used, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    for (int j = 0; j < len && y + 1 < max_y; j++) {
        char num[8];
        snprintf(num, sizeof num, "%*d", cw, j % (cw >= 2 ? 100 : 10));
        ui_put(win, y + 1, x + g->label_w + j * cw, num, cw, label, th->utf8);
    }
    for (int i = 0; i < len; i++) {
        const int row_y = y + 2 + i * ch;
        const char *tok = m->vocab_names[m->sample[i]];
        char lab[16];
        ui_text_fit(tok, g->label_w - 1, th->utf8, lab, sizeof lab);
        if (row_y + ch / 2 < max_y)
            ui_put(win, row_y + ch / 2, x, lab, g->label_w - 1, ui_role_attr(th, UI_ROLE_LABEL),
                   th->utf8);
        for (int r = 0; r < ch && row_y + r < max_y; r++)
            for (int j = 0; j < len; j++) {
                const bool masked = m->cfg.causal && j > i;
                heat_cell(win, row_y + r, x + g->label_w + j * cw,
                          w ? w[(size_t)i * len + j] : 0.0f, cw, masked, r == ch / 2, th);
            }
    }
    wattrset(win, 0);
}

/* The heads of m in the grid g from (y, x), cut at line max_y; heads that
 * did not fit are counted on the last line. */
static void draw_heads(WINDOW *win, int y, int x, const struct heads_geom *g, int max_y,
                       const struct train_model *m, const struct train_head_stats *roles,
                       char (*jobs)[TRUN_JOBS_LABEL], const struct ui_theme *th)
{
    const int hw = g->label_w + m->sample_len * g->cell_w, hh = 2 + m->sample_len * g->cell_h;
    for (int i = 0; i < g->shown; i++) {
        const int at = (i % g->across) * (hw + g->gap);
        const bool last = i % g->across == g->across - 1 || i == g->shown - 1;
        draw_head(win, y + (i / g->across) * hh, x + at, i,
                  last && g->room > at + hw ? g->room - at : hw, m, roles ? &roles[i] : NULL,
                  jobs ? jobs[i] : NULL, g, max_y, th);
    }
    const int rest = m->cfg.heads - g->shown;
    if (rest > 0) {
        char more[96];
        snprintf(more, sizeof more, "+%d head%s not shown (a larger terminal shows them)", rest,
                 rest == 1 ? "" : "s");
        const int at = (g->shown % g->across) * (hw + g->gap);
        ui_put(win, max_y - 1, x + at, more, g->w - at > 24 ? g->w - at : 24,
               ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
}

/* Where a pane's parts go, relative to the pane. */
struct pane_geom {
    int title_h;      /* the pane's title (--compare): 1, else 0 */
    bool side;        /* the curve and accuracies beside the heads, else above them */
    int col_w, col_h; /* their column (side) */
    int curve_h;      /* 0: no room for the loss curve */
    int jobs;         /* a text's job lines under the accuracies (above the heads) */
    int heads_x, heads_y;
    struct heads_geom heads;
};

static int cell_area(const struct heads_geom *g)
{
    return g->cell_w * g->cell_h;
}

/* The layout of pane p in w x h: the heads beside the curve when that
 * gives them cells at least as large as stacking them below it, or leaves
 * the curve a place it would not have below.  The jobs
 * lines of a text's jobs go under the accuracies when the curve keeps CURVE_MIN_H
 * lines (below it: with the heads still whole). */
static void pane_layout(const struct trun *t, const struct trun_pane *p, bool utf8, int w, int h,
                        int jobs, struct pane_geom *pg)
{
    const struct train_model *m = p->run->model;
    const int n_out = m->cfg.n_outputs;
    memset(pg, 0, sizeof *pg);
    pg->title_h = t->compare ? 1 : 0;
    const int room = h - pg->title_h;
    struct heads_geom side, stack;
    const bool side_ok =
        heads_fit(m, utf8, w - SIDE_MIN_W - SIDE_GAP, room, &side) && room >= n_out + CURVE_MIN_H;
    int curve_h = CURVE_MIN_H;
    int stack_jobs = jobs;
    bool stack_ok = jobs > 0 && heads_fit(m, utf8, w, room - n_out - CURVE_MIN_H - jobs, &stack);
    if (!stack_ok) { /* no room for the jobs */
        stack_jobs = 0;
        stack_ok = heads_fit(m, utf8, w, room - n_out - CURVE_MIN_H, &stack);
    }
    if (!stack_ok) { /* no room for the curve */
        stack_ok = heads_fit(m, utf8, w, room - n_out, &stack);
        curve_h = 0;
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
 * smallest cells: beside the curve, or below it (with a curve of 2 lines
 * when curve is set, else none). */
static int pane_need(const struct trun *t, const struct trun_pane *p, bool utf8, int w, bool curve)
{
    const struct train_model *m = p->run->model;
    const int title = t->compare ? 1 : 0, n_out = m->cfg.n_outputs;
    struct heads_geom g;
    heads_smallest(m, utf8, w, &g);
    int need = title + (curve ? CURVE_MIN_H : 0) + n_out + g.h;
    heads_smallest(m, utf8, w - SIDE_MIN_W - SIDE_GAP, &g);
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
    pane_layout(t, p, th->utf8, w, h, job_lines(p, hide), &pg);
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
                     p->stop == TRUN_STOP_LIMIT ? "limit" : "stopped", p->run->model->step);
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
        draw_curve(win, line, x, curve_h, pg.col_w, t, p, th);
        line += curve_h;
        for (int k = 0; k < n_out; k++)
            draw_accuracy(win, line++, x, pg.col_w, t, p, k, hide, th);
        for (int j = 0; j < nj; j++)
            draw_job(win, line++, x, pg.col_w, t, p, j, th);
        line++;
        for (int i = 0; i < n; i++) {
            char buf[512];
            const int tw =
                ui_text_fit_n(lines[i].start, lines[i].len, pg.col_w, th->utf8, buf, sizeof buf);
            ui_put(win, line++, x, buf, tw, ui_role_attr(th, UI_ROLE_INSIGHT), th->utf8);
        }
    } else {
        if (pg.curve_h >= CURVE_MIN_H - 1)
            draw_curve(win, line, x, pg.curve_h, w, t, p, th);
        line += pg.curve_h;
        for (int k = 0; k < n_out; k++)
            draw_accuracy(win, line++, x, w, t, p, k, hide, th);
        for (int j = 0; j < pg.jobs; j++)
            draw_job(win, line++, x, w, t, p, j, th);
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
    if (t->circuits)
        ui_train_draw_circuits(win, y + pg.heads_y, x + pg.heads_x, h - pg.heads_y, w - pg.heads_x,
                               m, measured ? roles : NULL, have_jobs ? jobs : NULL,
                               hide ? NULL : done, th);
    else {
        pg.heads.room = w - pg.heads_x; /* a row's last title may run to the pane's edge */
        draw_heads(win, y + pg.heads_y, x + pg.heads_x, &pg.heads, y + h, m,
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
        struct heads_geom g;
        heads_smallest(t->panes[i].run->model, utf8, 1 << 20, &g);
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

int ui_train_pane_at(const struct ui_app *app, int y, int x)
{
    const struct trun *t = app->train;
    const struct ui_layout *l = &app->lay;
    if (!t || !t->shown || t->n_panes < 2 || y < l->vis.y + UI_VIS_HEADER ||
        y >= l->vis.y + l->vis.h || x < l->vis.x || x >= l->vis.x + l->vis.w - 1)
        return -1;
    int xs[TRUN_MAX_PANES], ws[TRUN_MAX_PANES];
    pane_columns(t, app->th.utf8, l->vis.w - 1, xs, ws);
    for (int i = 0; i < t->n_panes; i++)
        if (x - l->vis.x >= xs[i] && x - l->vis.x < xs[i] + ws[i])
            return i;
    return -1;
}

/* The header's words: "first-prev · step 340 of 1500 · 300 steps/s". */
static void header_text(const struct trun *t, char *buf, size_t n)
{
    const long step = trun_shown_step(t);
    const char *state = t->scrub >= 0  ? "checkpoint"
                        : trun_done(t) ? "stopped"
                        : t->paused    ? "paused"
                                       : NULL;
    char pace[64];
    const int kept = trun_pace(t), asked = trun_rates[t->rate];
    if (kept >= 0 && kept < asked * 9 / 10) /* the machine cannot keep the pace asked */
        snprintf(pace, sizeof pace, "%d steps/s (of %d)", kept, asked);
    else
        snprintf(pace, sizeof pace, "%d steps/s", asked);
    snprintf(buf, n, "%s · step %ld of %d · %s", t->task->name, step, t->opt.steps,
             state ? state : pace);
}

/* The header line's words, whether it starts with the screen's title and
 * whether the colour legend shares its line (then the task's words start on
 * the line under it).  The title gives way to the legend only when the
 * canvas has no line to spare (tight). */
static bool legend_on_header(const struct ui_app *app, int width, bool tight, char *head, size_t n,
                             bool *titled)
{
    header_text(app->train, head, n);
    /* the header is measured at its widest while the run trains, stops or
     * is scrubbed (the step at its limit; the pace asked, "checkpoint" or
     * "stopped"), so that neither training on nor scrubbing moves the
     * legend and the panes under it */
    const struct trun *t = app->train;
    char pace[32], widest[200];
    snprintf(pace, sizeof pace, "%d steps/s", trun_rates[t->rate]);
    snprintf(widest, sizeof widest, "%s · step %d of %d · %s", t->task->name, t->opt.steps,
             t->opt.steps, strlen(pace) > strlen("checkpoint") ? pace : "checkpoint");
    const int hw = ui_text_width(widest, app->th.utf8);
    const int lw = ui_legend_prob_width(&app->th) + 3;
    const int title_w = app->st.present ? 0 : 11;
    *titled = title_w > 0;
    if (title_w + hw + lw <= width)
        return true;
    if (!tight || hw + lw > width)
        return false;
    *titled = false;
    return true;
}

/* The most lines the panes need to show every head whole (curve: with
 * the loss curve in the stacked layout). */
static int panes_need(const struct trun *t, bool utf8, int width, bool curve)
{
    int xs[TRUN_MAX_PANES], ws[TRUN_MAX_PANES], need = 0;
    pane_columns(t, utf8, width, xs, ws);
    for (int i = 0; i < t->n_panes; i++) {
        const int h = pane_need(t, &t->panes[i], utf8, ws[i], curve);
        need = h > need ? h : need;
    }
    return need;
}

int ui_train_canvas_need(const struct ui_app *app, int width, bool curve)
{
    char head[200];
    bool titled;
    const bool top = legend_on_header(app, width, true, head, sizeof head, &titled);
    return (top ? 0 : 1) + panes_need(app->train, app->th.utf8, width, curve);
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

void ui_train_draw_vis(const struct ui_app *app)
{
    const struct trun *t = app->train;
    const struct ui_theme *th = &app->th;
    const int width = app->lay.vis.w - 1;
    const int view_h = ui_app_view_h(app);
    WINDOW *vis = app->vis, *cv = app->canvas;

    werase(vis);
    char head[200];
    bool titled;
    const bool tight = view_h < 1 + panes_need(t, th->utf8, width, true);
    const bool top = legend_on_header(app, width, tight, head, sizeof head, &titled);
    int used =
        titled ? ui_put(vis, 0, 0, "Training   ", width, ui_role_attr(th, UI_ROLE_TITLE), th->utf8)
               : 0;
    ui_put(vis, 0, used, head, width - used, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    const int lw = ui_legend_prob_width(th);
    if (top)
        ui_legend_draw(vis, 0, width - lw, lw > 25 ? lw : 25, UI_LEGEND_PROB, 0, th);
    else
        ui_legend_draw(vis, 1, 0, width, UI_LEGEND_PROB, 0, th);

    /* the task in words: as many lines as leave every head whole (the
     * first on the header's second line when the legend left it free) */
    int need = panes_need(t, th->utf8, width, true);
    if (view_h - need < (top ? 0 : 1))
        need = panes_need(t, th->utf8, width, false);
    int room = (top ? 1 : 0) + view_h - need;
    room = room < 1 ? 1 : room > 4 ? 4 : room;
    struct ui_line lines[4];
    /* a file too small to learn from says so first (the pane in focus, else
     * the first that shows a sign) */
    char text[1024] = "";
    for (int i = -1; i < t->n_panes && !text[0]; i++)
        trun_pane_fit(&t->panes[i < 0 ? t->focus : i], text, sizeof text);
    const size_t warn = strlen(text);
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
    /* while a lesson's checkpoint waits, the figures it could be read off
     * (accuracies, the heads' measured jobs) wait for the answer */
    const bool hide = app->les.l && ui_quiz_asking(&app->les.quiz);
    for (int i = 0; i < t->n_panes; i++)
        draw_pane(cv, y, xs[i], view_h - y, ws[i], t, &t->panes[i], hide, th);
    wnoutrefresh(cv);
}
