/* ui_describe.c - the text pane: what each stage does, its formula with
 * this example's sizes, and why it is there.  When the explain panel is
 * open the pane shows that instead (ui_explain_panel.c). */
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "ui/panes/ui_panes.h"
#include "ui/draw/ui_widget.h"
#include "ui/state/ui_lesson.h"
#include "ui/draw/ui_pane_text.h"
#include "ui/draw/ui_text.h"
#include "ui/views/ui_views.h"

/* Where the example's numbers came from: learned, drawn from a seed (and
 * how), or the file's.  Appended to the text of the stage that shows the
 * example's own parameters. */
static void provenance(const struct ui_state *st, char *text, size_t tn)
{
    size_t used = strlen(text);
    if (!st->baseline && !st->generated && st->load_model) {
        snprintf(text + used, tn - used,
                 "here they are the trained model's (%s): each input row is the embedding it "
                 "learned for the word plus the one it learned for the position, and the "
                 "weights are the ones training left.",
                 st->source);
        return;
    }
    snprintf(text + used, tn - used, "%s%s%s",
             st->baseline    ? "here they were learned by training ("
             : st->generated ? "here they are random, as on the first day of training."
                             : "here they are the example file's.",
             st->baseline ? st->trained : "",
             st->baseline ? "), and each input row is "
                            "the token's embedding plus its position's."
                          : "");
    if (!st->generated)
        return;
    const struct mha_example *ex = st->ex;
    used = strlen(text);
    if (mha_generated_is_page(ex->lq, ex->lk, ex->d_model, ex->cross, ex->seed))
        snprintf(text + used, tn - used,
                 " Drawn from seed %u as on the step-by-step page: inputs uniform in "
                 "[-2, 2), weights in [-1, 1).",
                 (unsigned)ex->seed);
    else
        snprintf(text + used, tn - used,
                 " Drawn from seed %u: inputs uniform in [-2, 2), weights uniform in "
                 "±1/√%d = ±%.3f, as nn.Linear starts them.",
                 (unsigned)ex->seed, ex->d_model,
                 mha_generated_weight_bound(ex->lq, ex->lk, ex->d_model, ex->cross, ex->seed));
}

/* What a language model's next-word table is, after the output stage's
 * text: where its numbers come from and what the temperature does. */
static void next_word_text(const struct mha_example *ex, char *text, size_t tn)
{
    const struct mha_next_word *nw = &ex->next_word;
    const size_t used = strlen(text);
    if (nw->n < 1 || nw->position < 0 || nw->position >= ex->lq)
        return;
    snprintf(text + used, tn - used,
             " The next-word table is the model's guess at the word after \"%s\" (row %d): "
             "that row of the output is added to the input row it started from, the sum is "
             "scored against every word's read-out row (logit = (x + output)·Uᵀ + bias), and "
             "softmax(logits / %g) turns the scores into the probabilities listed, the "
             "likeliest first (%s %.2f). < and > change the temperature: below 1 the first "
             "word takes more, above 1 the others catch up.",
             ex->tokens[nw->position], nw->position, (double)nw->temperature, nw->word[0],
             (double)nw->p[0]);
}

/* Heading, formula and text of the current stage, with the example's sizes
 * (the stage table's templates). */
static void describe(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn,
                     char *text, size_t tn)
{
    const struct mha_stage_info *info = mha_stage_info(st->stage);
    snprintf(head, hn, "%d · %s: %s", st->stage, info->title, info->subtitle);
    const struct mha_title_ctx c = mha_title_ctx_make(st->ex, st->tr, 0, st->tr->lq, true);
    mha_title_expand(formula, fn, info->pane_formula, &c);
    mha_title_expand(text, tn, info->pane_text, &c);
    if (info->with_params)
        provenance(st, text, tn);
    if (info->next_word && st->ex->has_next_word)
        next_word_text(st->ex, text, tn);
}

/* The pane's frame: a title bar on the first line, and a left rule when
 * the pane sits beside the visualisation. */
void ui_pane_title(WINDOW *win, const char *title, int width, const struct ui_theme *th)
{
    const int attr = ui_role_attr(th, UI_ROLE_PANE_TITLE);
    ui_fill(win, 0, 0, width, attr);
    ui_put(win, 0, 1, title, width - 2, attr, th->utf8);
}

/* The view's text when a view is shown, else the stage's. */
static void describe_shown(const struct ui_state *st, char *head, size_t hn, char *formula,
                           size_t fn, char *text, size_t tn)
{
    if (st->view != MHA_VIEW_NONE && st->vd)
        ui_view_describe(st->vd, head, hn, formula, fn, text, tn);
    else
        describe(st, head, hn, formula, fn, text, tn);
}

void ui_describe_heading(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn)
{
    char text[1200];
    describe_shown(st, head, hn, formula, fn, text, sizeof text);
}

/* The description's text, and its lines at a width. */
struct description {
    char head[96], formula[256], text[1200];
    struct ui_pane_text p;
};

static void description(const struct ui_state *st, const struct ui_theme *th, int width,
                        struct description *d)
{
    describe_shown(st, d->head, sizeof d->head, d->formula, sizeof d->formula, d->text,
                   sizeof d->text);
    d->p.n = 0;
    d->p.pin_last = false;
    ui_pane_text_wrap(&d->p, d->formula, width - 2, ui_role_attr(th, UI_ROLE_FORMULA), th->utf8);
    ui_pane_text_wrap(&d->p, d->text, width - 2, 0, th->utf8);
}

static struct description *the_description(void)
{
    static struct description d; /* 8 KiB: not on the stack of every caller */
    return &d;
}

int ui_side_max_scroll(const struct ui_side_view *v, int width, int height)
{
    const struct ui_state *st = v->explain.st;
    const bool explain = st->explain_open && st->focus;
    if (v->lesson.les->l && !explain)
        return 0;
    if (explain)
        return ui_explain_panel_max_scroll(&v->explain, width, height);
    struct description *d = the_description();
    description(st, v->explain.th, width, d);
    return ui_pane_text_max_scroll(&d->p, height - 1);
}

int ui_side_lines(const struct ui_side_view *v, int width)
{
    const struct ui_state *st = v->explain.st;
    if (st->explain_open && st->focus)
        return ui_explain_panel_lines(&v->explain, width);
    if (v->lesson.les->l)
        return ui_lesson_pane_lines(&v->lesson, width);
    struct description *d = the_description();
    description(st, v->explain.th, width, d);
    return 1 + d->p.n;
}

void ui_side_draw(WINDOW *win, const struct ui_side_view *v)
{
    const struct ui_state *st = v->explain.st;
    const struct ui_theme *th = v->explain.th;
    int height, width;
    getmaxyx(win, height, width);
    werase(win);
    if (st->explain_open && st->focus)
        ui_explain_panel_draw(win, &v->explain, width, height);
    else if (v->lesson.les->l)
        ui_lesson_pane_draw(win, &v->lesson, width, height);
    else {
        struct description *d = the_description();
        description(st, th, width, d);
        ui_pane_title(win, d->head, width, th);
        ui_pane_text_draw(win, 1, height - 1, width - 2, &d->p, st->side_scroll, th);
    }
    wattrset(win, 0);
    wnoutrefresh(win);
}
