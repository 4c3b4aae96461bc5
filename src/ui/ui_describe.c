/* ui_describe.c - the text pane: what each stage does, its formula with
 * this example's sizes, and why it is there.  When the explain panel is
 * open the pane shows that instead (ui_explain_panel.c). */
#include <stdio.h>
#include <string.h>

#include "ui_app.h"
#include "ui_text.h"

/* Heading, formula and text of the current stage, with the example's sizes. */
static void describe(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn,
                     char *text, size_t tn)
{
    const struct mha_trace *t = st->tr;
    const int lq = t->lq, d = t->d_model, h = t->heads, dk = t->d_k;
    switch (st->stage) {
    case MHA_STAGE_INPUT:
        snprintf(head, hn, "0 · Input: what goes in");
        snprintf(formula, fn,
                 "query, key, value: (L, d) = (%d, %d)\nW_q, W_k, W_v, W_o: (d, d) = "
                 "(%d, %d)",
                 lq, d, d, d);
        snprintf(text, tn,
                 "Each token enters as a row of d_model numbers. Query rows are the questions "
                 "the tokens ask, key rows are what the questions are matched against, and value "
                 "rows are what a match hands back. The four weight matrices are everything this "
                 "layer learns; %s%s%s",
                 st->baseline ? "here they were learned by training (" : st->generated
                     ? "here they are random, as on the first day of training."
                     : "here they are the example file's.",
                 st->baseline ? st->trained : "", st->baseline ? "), and each input row is "
                 "the token's embedding plus its position's." : "");
        break;
    case MHA_STAGE_PROJECTION:
        snprintf(head, hn, "1 · Projection: three roles");
        snprintf(formula, fn, "Q = query · W_qᵀ   K = key · W_kᵀ\nV = value · W_vᵀ");
        snprintf(text, tn,
                 "Every input row is multiplied by a weight matrix and comes out the same width. "
                 "The three matrices give one token three jobs: what it looks for (Q), how it can "
                 "be found (K) and what it passes on (V). Without them tokens would be compared "
                 "as they arrive, with no say in which features matter. The weights are stored "
                 "[out][in], as nn.Linear does, hence the ᵀ.");
        break;
    case MHA_STAGE_SPLIT:
        snprintf(head, hn, "2 · Split: a slice per head");
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
        snprintf(head, hn, "3 · Transpose: heads to the front");
        snprintf(formula, fn, "(L, H, d_k) = (%d, %d, %d) → (H, L, d_k) = (%d, %d, %d)", lq, h, dk,
                 h, lq, dk);
        snprintf(text, tn,
                 "Moving the head axis first gives every head a complete small sequence of its "
                 "own: L tokens with d_k numbers each. The heads can now run side by side without "
                 "touching each other. Without this step Q·Kᵀ would multiply across heads and "
                 "tokens at once and mix numbers that do not belong together.");
        break;
    case MHA_STAGE_ATTENTION:
        snprintf(head, hn, "4 · Attention: who looks at whom");
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
        snprintf(head, hn, "5 · Merge: heads side by side");
        snprintf(formula, fn, "(H, L, d_k) = (%d, %d, %d) → (L, H·d_k) = (%d, %d)", h, lq, dk, lq,
                 d);
        snprintf(text, tn,
                 "The heads' context rows are laid next to each other again, head 0 first, so "
                 "each token has one row of d_model numbers. This is only a rearrangement: "
                 "nothing is added or multiplied.");
        break;
    default:
        snprintf(head, hn, "6 · Output: mixing the heads");
        snprintf(formula, fn, "output = merged · W_oᵀ\nMHA = Concat(head_1..head_H) · W_oᵀ");
        snprintf(text, tn,
                 "A last linear layer lets every output column read every head, so what the "
                 "heads found separately can be combined and weighed. Without it each head's "
                 "result would stay in its own columns. The output has the input's shape "
                 "(%d, %d), so layers can be stacked.",
                 lq, d);
        break;
    }
}

static int draw_wrapped(WINDOW *win, int y, int x, int width, int max_y, const char *text, int attr,
                        bool utf8)
{
    struct ui_line lines[64];
    int n = ui_text_wrap(text, width, utf8, lines, 64);
    for (int i = 0; i < n && i < 64; i++, y++) {
        if (win && y < max_y) {
            char buf[1024];
            /* the last line that fits ends in "…" when more text follows */
            const bool cut = y == max_y - 1 && i < n - 1;
            int w = ui_text_fit_n(lines[i].start, lines[i].len, cut ? width - 2 : width, utf8, buf,
                                  sizeof buf);
            ui_put(win, y, x, buf, w, attr, utf8);
            const size_t len = strlen(buf);
            const bool has_ellipsis = len >= 3 && strcmp(buf + len - 3, "…") == 0;
            if (cut && !has_ellipsis)
                ui_put(win, y, x + w, " …", 2, attr, utf8);
        }
    }
    return n;
}

/* The pane's frame: a title bar on the first line, and a left rule when
 * the pane sits beside the visualisation. */
void ui_pane_title(WINDOW *win, const char *title, int width, const struct ui_theme *th)
{
    const int attr = ui_role_attr(th, UI_ROLE_PANE_TITLE);
    ui_fill(win, 0, 0, width, attr);
    ui_put(win, 0, 1, title, width - 2, attr, th->utf8);
}

/* The same for the views beyond the stages. */
static void describe_view(const struct ui_state *st, char *head, size_t hn, char *formula,
                          size_t fn, char *text, size_t tn)
{
    const struct mha_trace *t = st->tr;
    switch (st->view) {
    case UI_VIEW_SHAPES:
        snprintf(head, hn, "Shapes: the same numbers, new strides");
        snprintf(formula, fn, "(B, L, d) → (B, L, H, d_k) → (B, H, L, d_k)\nd = H · d_k = %d · %d",
                 t->heads, t->d_k);
        snprintf(text, tn,
                 "This is how the stages look in PyTorch code, with a batch of sequences. view "
                 "and transpose only change how memory is read; nothing is copied until "
                 "contiguous() before the heads are merged. v shows the next view, 0-6 a stage.");
        break;
    case UI_VIEW_COST:
        snprintf(head, hn, "Cost: what the heads cost");
        snprintf(formula, fn,
                 "parameters = 4 · d_model² (+ 4 · d_model biases)\n"
                 "Q·Kᵀ: H · L² · d_k = L² · d_model multiply-adds");
        snprintf(text, tn,
                 "Parameters and multiply-adds for one attention block, one head of full width "
                 "against H heads of d_k = d_model / H. Splitting shares the width out, so the "
                 "totals stay the same; only the number of attention maps grows. A lesson can "
                 "show a published model's sizes here.");
        break;
    default:
        snprintf(head, hn, "Heads: do they differ?");
        snprintf(formula, fn, "A_i = W_q,iᵀ · W_k,i   (d × d, rank ≤ d_k = %d)", t->d_k);
        snprintf(text, tn,
                 "Each head scores token pairs with its own form A_i. The heatmap compares "
                 "every two heads: the cosine of their forms, 1 when they rank token pairs "
                 "alike, near 0 when they look for different things. The effective rank (the "
                 "entropy of A_i's singular values) says how many of its d_k directions a head "
                 "really uses. %s",
                 st->baseline ? "These weights were learned: the table sets each head beside "
                                "itself at step 0, and shows how far training moved it."
                              : "These weights were not trained, so any difference between "
                                "the heads is chance; a model trained with --train (or lesson "
                                "16) shows heads that learned different jobs.");
        break;
    }
}

/* The view's text when a view is shown, else the stage's. */
static void describe_shown(const struct ui_state *st, char *head, size_t hn, char *formula,
                           size_t fn, char *text, size_t tn)
{
    if (st->view != UI_VIEW_STAGE)
        describe_view(st, head, hn, formula, fn, text, tn);
    else
        describe(st, head, hn, formula, fn, text, tn);
}

void ui_describe_heading(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn)
{
    char text[1200];
    describe_shown(st, head, hn, formula, fn, text, sizeof text);
}

static int description(WINDOW *win, const struct ui_app *app, int width, int height)
{
    char head[96], formula[256], text[1200];
    describe_shown(&app->st, head, sizeof head, formula, sizeof formula, text, sizeof text);
    const struct ui_theme *th = &app->th;
    if (win)
        ui_pane_title(win, head, width, th);
    int y = 1;
    y += draw_wrapped(win, y, 1, width - 2, height, formula, ui_role_attr(th, UI_ROLE_FORMULA),
                      th->utf8);
    y += draw_wrapped(win, y, 1, width - 2, height, text, 0, th->utf8);
    return y;
}

int ui_side_lines(const struct ui_app *app, int width)
{
    if (app->st.explain_open && app->st.focus)
        return ui_explain_panel_lines(app, width);
    if (app->les.l)
        return ui_lesson_pane_lines(app, width);
    return description(NULL, app, width, 0);
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
    else
        description(win, app, width, height);
    wattrset(win, 0);
    wnoutrefresh(win);
}
