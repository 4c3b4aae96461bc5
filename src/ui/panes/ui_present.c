/* ui_present.c - the presenter's header (the stage's title in big letters,
 * where it is in the pipeline, its formula; on the training screen its task
 * and sizes) and its one-line status. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "ui/panes/ui_panes.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_state.h"
#include "ui/draw/ui_bigtext.h"
#include "ui/draw/ui_text.h"
#include "train/trun.h"

/* Copy n bytes of s into buf (size cap) after its first used bytes. */
static size_t append(char *buf, size_t cap, size_t used, const char *s, size_t n)
{
    if (used + n + 1 > cap)
        n = used + 1 < cap ? cap - used - 1 : 0;
    memcpy(buf + used, s, n);
    buf[used + n] = '\0';
    return used + n;
}

/* Copy the formula's lines (apart by '\n') into out: one line when they
 * fit width side by side, else two. */
static void formula_lines(const char *formula, bool utf8, int width, struct ui_present_text *out)
{
    const size_t cap = sizeof out->formula[0];
    const char *nl = strchr(formula, '\n');
    const size_t first = nl ? (size_t)(nl - formula) : strlen(formula);
    size_t used = append(out->formula[0], cap, 0, formula, first);
    out->formula_lines = 1;
    if (!nl)
        return;
    used = append(out->formula[0], cap, used, "        ", 8);
    append(out->formula[0], cap, used, nl + 1, strlen(nl + 1));
    if (ui_text_width(out->formula[0], utf8) <= width)
        return;
    append(out->formula[0], cap, 0, formula, first);
    append(out->formula[1], cap, 0, nl + 1, strlen(nl + 1));
    out->formula_lines = 2;
}

static int max3(int a, int b, int c)
{
    const int m = a > b ? a : b;
    return m > c ? m : c;
}

void ui_present_text(const struct ui_state *st, bool utf8, int width, struct ui_present_text *out)
{
    memset(out, 0, sizeof *out);
    char head[128], formula[512];
    ui_describe_heading(st, head, sizeof head, formula, sizeof formula);
    const char *colon = strstr(head, ": ");
    snprintf(out->subtitle, sizeof out->subtitle, "%s", colon ? colon + 2 : "");
    const char *name =
        st->view == MHA_VIEW_NONE ? mha_stage_info(st->stage)->title : ui_view_mode_name(st->view);
    if (st->view == MHA_VIEW_NONE) {
        char range[16];
        snprintf(out->title, sizeof out->title, "%d %s", st->stage, name);
        snprintf(out->name, sizeof out->name, "%s · stage %d of %s", name, st->stage,
                 mha_stage_range(range, sizeof range));
    } else {
        snprintf(out->title, sizeof out->title, "%s", name);
        snprintf(out->name, sizeof out->name, "the %s view", name);
    }
    for (char *p = out->title; *p; p++)
        *p = (char)toupper((unsigned char)*p);
    formula_lines(formula, utf8, width, out);
    out->caption_w = max3(ui_text_width(out->name, utf8), 13, ui_text_width(out->subtitle, utf8));
}

void ui_train_present_text(const struct trun *t, bool utf8, struct ui_present_text *pt)
{
    if (!t || !t->shown)
        return;
    char heads[64] = "";
    size_t used = 0;
    /* layers=... and variants=...: the same heads in every pane */
    const int head_panes = t->compare_layers || t->compare_variants ? 1 : t->n_panes;
    for (int i = 0; i < head_panes && used < sizeof heads; i++)
        used += (size_t)snprintf(heads + used, sizeof heads - used, "%s%d", i ? " vs " : "",
                                 t->heads[i]);
    if (used < sizeof heads)
        used += (size_t)snprintf(heads + used, sizeof heads - used, " head%s",
                                 head_panes == 1 && t->heads[0] == 1 ? "" : "s");
    if (t->compare_layers) { /* the panes differ in their layers: "2 heads · 1 vs 2 layers" */
        used += (size_t)snprintf(heads + used, sizeof heads - used, " · ");
        for (int i = 0; i < t->n_panes && used < sizeof heads; i++)
            used += (size_t)snprintf(heads + used, sizeof heads - used, "%s%d", i ? " vs " : "",
                                     t->layers[i]);
        if (used < sizeof heads)
            snprintf(heads + used, sizeof heads - used, " layers");
    } else if (t->opt.layers > 1 && used < sizeof heads) {
        used += (size_t)snprintf(heads + used, sizeof heads - used, " · %d layers", t->opt.layers);
    }
    char v[TRAIN_VARIANT_NAME_MAX];
    if (t->compare_variants) /* "4 heads · standard vs no-wo" */
        for (int i = 0; i < t->n_panes && used < sizeof heads; i++)
            used += (size_t)snprintf(heads + used, sizeof heads - used, "%s%s", i ? " vs " : " · ",
                                     train_variant_name(&t->variants[i], v, sizeof v));
    else if (t->variants[0].kind != TRAIN_VARIANT_STANDARD && used < sizeof heads)
        snprintf(heads + used, sizeof heads - used, " · %s",
                 train_variant_name(&t->variants[0], v, sizeof v));
    snprintf(pt->title, sizeof pt->title, "TRAINING");
    snprintf(pt->name, sizeof pt->name, "Training · %s", t->task->name);
    snprintf(pt->subtitle, sizeof pt->subtitle, "%s · d_model %d · step %ld", heads, t->d_model,
             trun_shown_step(t));
    snprintf(pt->formula[0], sizeof pt->formula[0],
             "loss = mean cross-entropy of each output · Adam, lr %g, %d sequences a step",
             (double)t->opt.lr, t->opt.batch);
    pt->formula_lines = 1;
    pt->caption_w = ui_text_width(pt->name, utf8) > ui_text_width(pt->subtitle, utf8)
                        ? ui_text_width(pt->name, utf8)
                        : ui_text_width(pt->subtitle, utf8);
}

/* "○ ○ ○ ○ ● ○ ○": a dot a stage, the current one filled. */
static void dots(WINDOW *win, int y, int x, const struct ui_state *st, const struct ui_theme *th)
{
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const bool cur = st->view == MHA_VIEW_NONE && s == st->stage;
        ui_put(win, y, x + 2 * s, cur ? (th->utf8 ? "●" : "*") : (th->utf8 ? "○" : "o"), 1,
               ui_role_attr(th, cur ? UI_ROLE_BIG_TITLE : UI_ROLE_SHAPE), th->utf8);
    }
}

void ui_present_head_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th,
                          int scale, const struct trun *t)
{
    int height, width;
    getmaxyx(win, height, width);
    werase(win);
    const int margin = ui_present_margin(width);
    struct ui_present_text pt;
    ui_present_text(st, th->utf8, width - 2 * margin, &pt);
    ui_train_present_text(t, th->utf8, &pt);
    const int big = ui_role_attr(th, UI_ROLE_BIG_TITLE), rows = ui_big_rows(scale);
    char line[2048];
    int title_w = 0;
    for (int r = 0; r < rows; r++) {
        title_w = ui_big_line(pt.title, scale, r, line, sizeof line);
        ui_put(win, r, margin, line, width - margin, big, th->utf8);
    }
    const int title = ui_role_attr(th, UI_ROLE_TITLE), dim = ui_role_attr(th, UI_ROLE_SHAPE);
    if (scale > 0) { /* the caption beside the big letters, centred on them */
        const int x = margin + title_w + 4, y = (rows - 3) / 2;
        ui_put(win, y, x, pt.name, width - x, title, th->utf8);
        dots(win, y + 1, x, st, th);
        ui_put(win, y + 2, x, pt.subtitle, width - x - 1, dim, th->utf8);
    } else { /* name and dots at the right of the title's line */
        const int need = ui_text_width(pt.name, th->utf8) + 3 + 13;
        int x = width - margin - need;
        if (x > margin + title_w + 3) {
            x += ui_put(win, 0, x, pt.name, need, title, th->utf8) + 3;
            dots(win, 0, x, st, th);
        }
    }
    const int formula = ui_role_attr(th, UI_ROLE_FORMULA);
    for (int i = 0; i < pt.formula_lines && rows + i < height; i++)
        ui_put(win, rows + i, margin, pt.formula[i], width - 2 * margin, formula, th->utf8);
    if (scale > 0 && height > rows + pt.formula_lines) { /* a rule under the header */
        wattrset(win, ui_role_attr(th, UI_ROLE_BORDER));
        for (int x = margin; x < width - margin; x++)
            mvwaddstr(win, height - 1, x, th->utf8 ? "─" : "-");
    }
    wattrset(win, 0);
    wnoutrefresh(win);
}

void ui_present_status_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th,
                            const struct ui_lessons *les, const char *play, int width)
{
    const struct mha_example *ex = st->ex;
    werase(win);
    char left[256], right[256] = "";
    int n = snprintf(left, sizeof left, " %d %s · d_model %d · %d head%s · d_k %d", ex->lq,
                     ex->cross ? "queries" : "tokens", ex->d_model, ex->heads,
                     ex->heads == 1 ? "" : "s", st->tr->d_k);
    if (n > 0 && (size_t)n < sizeof left)
        snprintf(left + n, sizeof left - (size_t)n, "%s%s", ex->causal ? " · causal mask" : "",
                 ex->scaled ? "" : " · not scaled");
    if (les->l)
        snprintf(right, sizeof right, "Lesson %d · step %d/%d ", les->l->number, les->step + 1,
                 les->l->n_steps);
    const int dim = ui_role_attr(th, UI_ROLE_SHAPE);
    const int pw = play[0] ? ui_text_width(play, th->utf8) + 2 : 0;
    const int rw = ui_text_width(right, th->utf8);
    ui_put(win, 0, 0, left, width - rw - pw - 1, dim, th->utf8);
    ui_put(win, 0, width - rw - pw, right, rw, dim, th->utf8);
    if (pw) {
        char chip[80];
        snprintf(chip, sizeof chip, " %s ", play);
        ui_put(win, 0, width - pw, chip, pw, ui_role_attr(th, UI_ROLE_PLAYING), th->utf8);
    }
    wattrset(win, 0);
    wnoutrefresh(win);
}
