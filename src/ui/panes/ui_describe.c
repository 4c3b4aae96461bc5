/* ui_describe.c - the text pane: what each stage does, its formula with
 * this example's sizes, and why it is there.  When the explain panel is
 * open the pane shows that instead (ui_explain_panel.c). */
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "ui/core/ui_app.h"
#include "ui/panes/ui_pane_text.h"
#include "ui/widgets/ui_text.h"
#include "ui/views/ui_views.h"

/* Heading, formula and text of the current stage, with the example's sizes. */
static void describe(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn,
                     char *text, size_t tn)
{
    const struct mha_trace *t = st->tr;
    const int lq = t->lq, d = t->d_model, h = t->heads, dk = t->d_k;
    const struct mha_stage_info *info = mha_stage_info(st->stage);
    snprintf(head, hn, "%d · %s: %s", st->stage, info->title, info->subtitle);
    switch (st->stage) {
    case MHA_STAGE_INPUT:
        snprintf(formula, fn,
                 "query, key, value: (L, d) = (%d, %d)\nW_q, W_k, W_v, W_o: (d, d) = "
                 "(%d, %d)",
                 lq, d, d, d);
        snprintf(text, tn,
                 "Each token enters as a row of d_model numbers. Query rows are the questions "
                 "the tokens ask, key rows are what the questions are matched against, and value "
                 "rows are what a match hands back. The four weight matrices are everything this "
                 "layer learns; %s%s%s",
                 st->baseline    ? "here they were learned by training ("
                 : st->generated ? "here they are random, as on the first day of training."
                                 : "here they are the example file's.",
                 st->baseline ? st->trained : "",
                 st->baseline ? "), and each input row is "
                                "the token's embedding plus its position's."
                              : "");
        if (st->generated) {
            const struct mha_example *ex = st->ex;
            const size_t used = strlen(text);
            if (mha_generated_is_page(ex->lq, ex->lk, ex->d_model, ex->cross, ex->seed))
                snprintf(text + used, tn - used,
                         " Drawn from seed %u as on the step-by-step page: inputs uniform in "
                         "[-2, 2), weights in [-1, 1).",
                         (unsigned)ex->seed);
            else
                snprintf(text + used, tn - used,
                         " Drawn from seed %u: inputs uniform in [-2, 2), weights uniform in "
                         "±1/√%d = ±%.3f, as nn.Linear starts them.",
                         (unsigned)ex->seed, d,
                         mha_generated_weight_bound(ex->lq, ex->lk, d, ex->cross, ex->seed));
        }
        break;
    case MHA_STAGE_PROJECTION:
        snprintf(formula, fn, "Q = query · W_qᵀ   K = key · W_kᵀ\nV = value · W_vᵀ");
        snprintf(text, tn,
                 "Every input row is multiplied by a weight matrix and comes out the same width. "
                 "The three matrices give one token three jobs: what it looks for (Q), how it can "
                 "be found (K) and what it passes on (V). Without them tokens would be compared "
                 "as they arrive, with no say in which features matter. The weights are stored "
                 "[out][in], as nn.Linear does, hence the ᵀ.");
        break;
    case MHA_STAGE_SPLIT:
        snprintf(formula, fn, "d_k = d_model / heads = %d / %d = %d", d, h, dk);
        snprintf(text, tn,
                 "Each row of Q, K and V is cut into %d piece%s of %d numbers: head 0 takes "
                 "columns 0..%d%s. No number changes; the width is shared out, not lost. One head "
                 "can only form one blend per token; several heads can each follow a different "
                 "kind of link. That is why heads must divide d_model (try :heads 4).",
                 h, h == 1 ? "" : "s", dk, dk - 1,
                 h > 1 ? ", head 1 the next ones, and so on" : "");
        break;
    case MHA_STAGE_TRANSPOSE:
        snprintf(formula, fn, "(L, H, d_k) = (%d, %d, %d) → (H, L, d_k) = (%d, %d, %d)", lq, h, dk,
                 h, lq, dk);
        snprintf(text, tn,
                 "Moving the head axis first gives every head a complete small sequence of its "
                 "own: L tokens with d_k numbers each. The heads can now run side by side without "
                 "touching each other. Without this step Q·Kᵀ would multiply across heads and "
                 "tokens at once and mix numbers that do not belong together.");
        break;
    case MHA_STAGE_ATTENTION:
        snprintf(formula, fn, "weights = softmax(Q_h · K_hᵀ %s%s)\ncontext = weights · V_h",
                 t->scaled ? "/ √d_k" : "", st->ex->causal ? " + mask" : "");
        snprintf(text, tn,
                 "In every head each query row meets every key row in a dot product: the scores. "
                 "They are divided by √d_k = √%d (s switches this off), masked keys become −∞ "
                 "(c turns on the causal mask), and softmax turns each row into weights that are "
                 "positive and add up to 1. The context row is the weights' average of the value "
                 "rows. Without the scaling, scores grow with d_k and softmax gives nearly all "
                 "the weight to one key.",
                 dk);
        break;
    case MHA_STAGE_MERGE:
        snprintf(formula, fn, "(H, L, d_k) = (%d, %d, %d) → (L, H·d_k) = (%d, %d)", h, lq, dk, lq,
                 d);
        snprintf(text, tn,
                 "The heads' context rows are laid next to each other again, head 0 first, so "
                 "each token has one row of d_model numbers. This is only a rearrangement: "
                 "nothing is added or multiplied.");
        break;
    default:
        snprintf(formula, fn, "output = merged · W_oᵀ\nMHA = Concat(head_0%s) · W_oᵀ",
                 h == 1   ? ""
                 : h == 2 ? ", head_1"
                 : h == 3 ? ", head_1, head_2"
                          : " … head_H−1");
        snprintf(text, tn,
                 "A last linear layer lets every output column read every head, so what the "
                 "heads found separately can be combined and weighed. Without it each head's "
                 "result would stay in its own columns. The output has the input's shape "
                 "(%d, %d), so layers can be stacked.",
                 lq, d);
        break;
    }
}

/* The pane's frame: a title bar on the first line, and a left rule when
 * the pane sits beside the visualisation. */
void ui_pane_title(WINDOW *win, const char *title, int width, const struct ui_theme *th)
{
    const int attr = ui_role_attr(th, UI_ROLE_PANE_TITLE);
    ui_fill(win, 0, 0, width, attr);
    ui_put(win, 0, 1, title, width - 2, attr, th->utf8);
}

/* The views beyond the stages, one function each (rows of ui_views.c). */
/* The view's text when a view is shown, else the stage's. */
static void describe_shown(const struct ui_state *st, char *head, size_t hn, char *formula,
                           size_t fn, char *text, size_t tn)
{
    const struct ui_view_ops *view = ui_view_ops(st->view);
    if (view)
        view->describe(st, head, hn, formula, fn, text, tn);
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

static void description(const struct ui_app *app, int width, struct description *d)
{
    describe_shown(&app->st, d->head, sizeof d->head, d->formula, sizeof d->formula, d->text,
                   sizeof d->text);
    const struct ui_theme *th = &app->th;
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

int ui_side_max_scroll(const struct ui_app *app)
{
    if (!app->side || (app->les.l && !(app->st.explain_open && app->st.focus)))
        return 0;
    const int width = app->lay.side.w, height = app->lay.side.h;
    if (app->st.explain_open && app->st.focus)
        return ui_explain_panel_max_scroll(app, width, height);
    struct description *d = the_description();
    description(app, width, d);
    return ui_pane_text_max_scroll(&d->p, height - 1);
}

int ui_side_lines(const struct ui_app *app, int width)
{
    if (app->st.explain_open && app->st.focus)
        return ui_explain_panel_lines(app, width);
    if (app->les.l)
        return ui_lesson_pane_lines(app, width);
    struct description *d = the_description();
    description(app, width, d);
    return 1 + d->p.n;
}

void ui_side_draw(WINDOW *win, const struct ui_app *app)
{
    int height, width;
    getmaxyx(win, height, width);
    werase(win);
    if (app->st.explain_open && app->st.focus)
        ui_explain_panel_draw(win, app, width, height);
    else if (app->les.l)
        ui_lesson_pane_draw(win, app, width, height);
    else {
        struct description *d = the_description();
        description(app, width, d);
        ui_pane_title(win, d->head, width, &app->th);
        ui_pane_text_draw(win, 1, height - 1, width - 2, &d->p, app->st.side_scroll, &app->th);
    }
    wattrset(win, 0);
    wnoutrefresh(win);
}
