/* lesson_html.c - a lesson as one web page: text, screens and quizzes. */
#include "lesson/lesson_html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/export.h"
#include "engine/stages.h"
#include "lesson/lesson_state.h"
#include "engine/views.h"

static const char lesson_css[] =
    "section.step{margin-top:2.4em}\n"
    ".lesson-no{color:#595959;font-size:.9em;margin:0;text-transform:uppercase;"
    "letter-spacing:.06em}\n"
    ".link{text-decoration:underline}\n"
    "blockquote{border-left:4px solid #b3b3b3;margin:1em 0;padding:.1em 1em;color:#333333}\n"
    ".callout{border:1px solid;border-left-width:6px;border-radius:5px;padding:.4em 1em;"
    "margin:1em 0;break-inside:avoid;page-break-inside:avoid}\n"
    ".callout p{margin:.35em 0}\n"
    ".callout .ct{font-weight:bold}\n"
    ".analogy{border-color:#0087d7;background:#eef6fc}\n"
    ".whatif{border-color:#d75f5f;background:#fdf1f1}\n"
    ".insight{border-color:#5faf5f;background:#f0f8ee}\n"
    "table.lt{border-collapse:collapse;margin:.8em 0}\n"
    "table.lt th,table.lt td{border:1px solid #b3b3b3;padding:.2em .6em;text-align:left;"
    "vertical-align:top}\n"
    "table.lt th{background:#f2f2f2}\n"
    "table.lt td.n{text-align:right;font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace}\n"
    ".scene{border:1px solid #cccccc;border-radius:6px;padding:.3em 1em .6em;margin:1.2em 0;"
    "background:#fcfcfc}\n"
    ".scene-head{font-size:.9em;color:#4d4d4d;margin:.4em 0}\n"
    ".scene-error{color:#af0000;font-weight:bold}\n"
    ".quiz{border:2px solid #5f5faf;border-radius:6px;padding:.4em 1em;margin:1.2em 0;"
    "break-inside:avoid;page-break-inside:avoid}\n"
    ".quiz .qt{font-weight:bold;color:#5f5faf;margin:.3em 0}\n"
    "details{margin:.5em 0}\n"
    "summary{cursor:pointer;color:#5f5faf}\n";

/* ---- text ------------------------------------------------------------------ */

static void span_html(FILE *out, const struct lesson_span *sp)
{
    if (strcmp(sp->text, "\n") == 0) {
        fputs("<br/>\n", out);
        return;
    }
    const unsigned st = sp->style;
    fputs(st & LESSON_LINK ? "<span class=\"link\">" : "", out);
    fputs(st & LESSON_STRONG ? "<strong>" : "", out);
    fputs(st & LESSON_EMPH ? "<em>" : "", out);
    fputs(st & LESSON_CODE ? "<code>" : "", out);
    export_xml_text(out, sp->text);
    fputs(st & LESSON_CODE ? "</code>" : "", out);
    fputs(st & LESSON_EMPH ? "</em>" : "", out);
    fputs(st & LESSON_STRONG ? "</strong>" : "", out);
    fputs(st & LESSON_LINK ? "</span>" : "", out);
}

/* The spans of a block; "\n\n" (between a call-out's paragraphs) closes the
 * paragraph and opens the next. */
static void spans_html(FILE *out, const struct lesson_block *b)
{
    for (int i = 0; i < b->n_spans; i++) {
        if (strcmp(b->spans[i].text, "\n\n") == 0)
            fputs("</p>\n<p>", out);
        else
            span_html(out, &b->spans[i]);
    }
}

static const char *callout_class(enum lesson_callout c)
{
    switch (c) {
    case LESSON_CALLOUT_ANALOGY:
        return "analogy";
    case LESSON_CALLOUT_WHATIF:
        return "whatif";
    case LESSON_CALLOUT_INSIGHT:
        return "insight";
    case LESSON_CALLOUT_NONE:
        break;
    }
    return "";
}

/* Open lists, innermost last: true for <ol>. */
struct lists {
    bool ordered[16];
    int depth;
};

static void lists_close_to(FILE *out, struct lists *ls, int depth)
{
    while (ls->depth > depth) {
        ls->depth--;
        fputs(ls->ordered[ls->depth] ? "</li>\n</ol>\n" : "</li>\n</ul>\n", out);
    }
}

static void item_html(FILE *out, struct lists *ls, const struct lesson_block *b)
{
    int level = b->level < 1 ? 1 : b->level > 16 ? 16 : b->level;
    bool ordered = b->bullet[0] >= '0' && b->bullet[0] <= '9';
    lists_close_to(out, ls, level);
    if (ls->depth == level && ls->ordered[level - 1] != ordered)
        lists_close_to(out, ls, level - 1);
    if (ls->depth == level)
        fputs("</li>\n", out);
    while (ls->depth < level) {
        bool last = ls->depth == level - 1;
        ls->ordered[ls->depth] = last && ordered;
        if (last && ordered)
            fprintf(out, "<ol start=\"%d\">\n", atoi(b->bullet));
        else
            fputs("<ul>\n", out);
        if (++ls->depth < level)
            fputs("<li>", out);
    }
    fputs("<li>", out);
    spans_html(out, b);
}

static void table_html(FILE *out, const struct lesson_block *b)
{
    fputs("<table class=\"lt\">\n", out);
    for (int r = 0; r < b->rows; r++) {
        fputs(r == 0 ? "<thead><tr>" : "<tr>", out);
        for (int c = 0; c < b->cols; c++) {
            fputs(r == 0 ? "<th>" : "<td>", out);
            export_xml_text(out, b->cells[r * b->cols + c]);
            fputs(r == 0 ? "</th>" : "</td>", out);
        }
        fputs(r == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", out);
    }
    fputs(b->rows > 0 ? "</tbody>\n</table>\n" : "</table>\n", out);
}

static void block_html(FILE *out, struct lists *ls, const struct lesson_block *b)
{
    if (b->kind != LESSON_ITEM)
        lists_close_to(out, ls, 0);
    switch (b->kind) {
    case LESSON_PARAGRAPH:
        fputs("<p>", out);
        spans_html(out, b);
        fputs("</p>\n", out);
        break;
    case LESSON_HEADING: {
        int h = b->level <= 2 ? 3 : b->level >= 4 ? 5 : 4;
        fprintf(out, "<h%d>", h);
        spans_html(out, b);
        fprintf(out, "</h%d>\n", h);
        break;
    }
    case LESSON_ITEM:
        item_html(out, ls, b);
        break;
    case LESSON_CODE_BLOCK:
        fputs("<pre><code>", out);
        export_xml_text(out, b->code ? b->code : "");
        fputs("</code></pre>\n", out);
        break;
    case LESSON_CALLOUT:
        fprintf(out, "<aside class=\"callout %s\">\n<p class=\"ct\">", callout_class(b->callout));
        export_xml_text(out, lesson_callout_title(b->callout));
        fputs("</p>\n<p>", out);
        spans_html(out, b);
        fputs("</p>\n</aside>\n", out);
        break;
    case LESSON_TABLE:
        table_html(out, b);
        break;
    case LESSON_QUOTE:
        fputs("<blockquote><p>", out);
        spans_html(out, b);
        fputs("</p></blockquote>\n", out);
        break;
    }
}

/* ---- screens and quizzes ------------------------------------------------------- */

/* The tensor a lesson's focus names, on the stage it is shown. */
static enum mha_tensor focus_tensor(const struct lesson_focus *f, int stage)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)stage);
    const int i = mha_stage_find(info, f->matrix, MHA_SHOW_EXPORT);
    return i >= 0 ? info->tensors[i] : f->matrix; /* Q on a stage of heads: Q_h */
}

static void scene_head(FILE *out, const struct lesson_state *st, const struct mha_example *ex)
{
    fputs("<p class=\"scene-head\">Screen: ", out);
    if (st->view != MHA_VIEW_NONE)
        fprintf(out, "%s view", mha_view_name(st->view));
    else
        fprintf(out, "stage %d · %s", st->stage, export_stage_title(st->stage));
    fprintf(out, " · %d tokens · d_model %d · %d heads · d_k %d · causal %s · scale %s", ex->lq,
            ex->d_model, ex->heads, ex->d_model / ex->heads, ex->causal ? "on" : "off",
            ex->scaled ? "on" : "off");
    if (st->load) {
        fputs(" · example ", out);
        export_xml_text(out, st->load);
    }
    fputs("</p>\n", out);
}

/* A show: the row it names in every head, each head's largest number in
 * it and that number's column, as the screen writes it over the numbers
 * (a head whose row the step's checkpoint q hides: "?"). */
static void scene_show(FILE *out, const struct lesson_state *st, const struct mha_example *ex,
                       const struct mha_trace *t, const struct lesson_quiz *q)
{
    struct lesson_show s;
    struct mha_error err;
    if (!st->show || lesson_show_resolve(st->show, st->stage, ex, &s, &err))
        return;
    struct lesson_hide hide = {0};
    if (q && lesson_quiz_hide(q, ex, &hide, &err))
        hide.active = false;
    const struct lesson_focus f = {s.matrix, 0, s.row, 0};
    const enum mha_tensor x = focus_tensor(&f, st->stage);
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    fputs("<p class=\"scene-head\">Every head's ", out);
    export_xml_text(out, st->show);
    fputs(":", out);
    for (int h = 0; h < ex->heads; h++) {
        int top = -1;
        float best = 0.0f;
        bool hidden = false;
        for (int c = 0;; c++) {
            const struct mha_cell cell = {x, h, s.row, c};
            if (!mha_cell_valid(t, &cell))
                break;
            hidden = hidden || lesson_hide_covers(&hide, &cell);
            const float v = mha_cell_value(ex, t, &cell);
            if (top < 0 || v > best)
                top = c, best = v;
        }
        if (top < 0)
            continue;
        char num[48];
        export_number(num, sizeof num, best, "−∞");
        fprintf(out, "%s head %d → ", h ? " ·" : "", h);
        if (hidden) {
            fputs("?", out);
            continue;
        }
        if (d->cols != MHA_SIDE_NONE) {
            export_xml_text(out, d->cols == MHA_SIDE_KEY ? ex->key_tokens[top] : ex->tokens[top]);
            fputs(" ", out);
        } else {
            fprintf(out, "col %d ", top);
        }
        fprintf(out, "%s", num);
    }
    fputs("</p>\n", out);
}

/* The matrices of the stage, the focused cell outlined and named. */
static void scene_stage(FILE *out, const struct lesson_state *st, const struct mha_example *ex,
                        const struct mha_trace *t, const struct lesson_quiz *q)
{
    struct export_mark mark = {0};
    struct lesson_focus f;
    struct mha_error err;
    if (st->focus && lesson_focus_resolve(st->focus, st->stage, ex, &f, &err) == 0) {
        mark.on = true;
        mark.tensor = focus_tensor(&f, st->stage);
        mark.head = f.head;
        mark.row = f.row;
        mark.col = f.col;
        struct mha_cell cell = {mark.tensor, mark.head, mark.row, mark.col};
        if (mha_cell_valid(t, &cell)) {
            char num[48];
            export_number(num, sizeof num, mha_cell_value(ex, t, &cell), "−∞");
            fputs("<p class=\"scene-head\">The outlined cell: ", out);
            export_xml_text(out, st->focus);
            fprintf(out, " = %s</p>\n", num);
        }
    }
    scene_show(out, st, ex, t, q);
    fprintf(out, "<p class=\"formula\">");
    export_xml_text(out, export_stage_formula(st->stage));
    fputs("</p>\n", out);
    export_html_matrices(out, ex, t, st->stage, mark.on ? &mark : NULL);
}

/* The step's screen from its example and trace (t NULL: err says why there
 * is none); q: the step's checkpoint (what it hides), or NULL.  Returns 0,
 * or -1 when it cannot be built. */
static int scene_html(FILE *out, const struct lesson_state *st, const char *assets_dir,
                      const struct mha_example *ex, const struct mha_trace *t,
                      const struct mha_error *err, const struct lesson_quiz *q)
{
    fputs("<div class=\"scene\">\n", out);
    int rc = 0;
    if (!t) {
        char buf[1600];
        fputs("<p class=\"scene-error\">This screen cannot be built: ", out);
        export_xml_text(out, mha_error_format(err, buf, sizeof buf));
        fputs("</p>\n", out);
        rc = -1;
    } else {
        scene_head(out, st, ex);
        if (st->view == MHA_VIEW_NONE) {
            scene_stage(out, st, ex, t, q);
        } else {
            char path[4096];
            const struct view_inputs in = lesson_view_inputs(st, ex, assets_dir, path, sizeof path);
            struct view_desc *vd = view_desc_new(st->view, &in);
            if (vd)
                view_desc_write_html(out, vd);
            else
                fputs("<p class=\"scene-error\">out of memory</p>\n", out);
            rc = !vd || vd->error[0] ? -1 : rc;
            view_desc_free(vd);
        }
    }
    fputs("</div>\n", out);
    return rc;
}

/* A checkpoint, its answer folded away, on the step's example and trace. */

/* A checkpoint's text with its `inline code` as <code>, the rest escaped. */
static void quiz_text(FILE *out, const char *s)
{
    bool code = false;
    while (*s) {
        const char *tick = strchr(s, '`');
        const size_t n = tick ? (size_t)(tick - s) : strlen(s);
        char part[1024];
        for (size_t at = 0; at < n;) { /* in pieces, each escaped */
            const size_t k = n - at < sizeof part - 1 ? n - at : sizeof part - 1;
            memcpy(part, s + at, k);
            part[k] = '\0';
            export_xml_text(out, part);
            at += k;
        }
        if (!tick)
            break;
        fputs(code ? "</code>" : "<code>", out);
        code = !code;
        s = tick + 1;
    }
    if (code)
        fputs("</code>", out);
}

static void quiz_html(FILE *out, const struct lesson_quiz *q, const struct mha_example *ex,
                      const struct mha_trace *t, struct mha_error *err)
{
    fputs("<div class=\"quiz\">\n<p class=\"qt\">Checkpoint</p>\n<p>", out);
    quiz_text(out, q->question ? q->question : "");
    fputs("</p>\n", out);
    if (q->n_choices > 0) {
        fputs("<ol>\n", out);
        for (int i = 0; i < q->n_choices; i++) {
            fputs("<li>", out);
            quiz_text(out, q->choices[i]);
            fputs("</li>\n", out);
        }
        fputs("</ol>\n", out);
    }
    struct lesson_answer a;
    fputs("<details>\n<summary>Show the answer</summary>\n<p><strong>Answer:</strong> ", out);
    if (t && lesson_quiz_expected(q, ex, t, &a, err) == 0) {
        if (!a.numeric)
            export_xml_text(out, a.text);
        else if (fabs(a.number - round(a.number)) < 1e-9)
            fprintf(out, "%.0f", a.number);
        else
            fprintf(out, "%.4f", a.number);
    } else {
        fputs("cannot be computed: ", out);
        export_xml_text(out, err->text);
    }
    fputs("</p>\n", out);
    if (q->explain && q->explain[0]) {
        fputs("<p><strong>Why:</strong> ", out);
        quiz_text(out, q->explain);
        fputs("</p>\n", out);
    }
    fputs("</details>\n</div>\n", out);
}

int lesson_print_html(FILE *out, const struct lesson *l, const char *assets_dir)
{
    const char *title = l->title ? l->title : "Untitled lesson";
    char page_title[512];
    if (l->number)
        snprintf(page_title, sizeof page_title, "Lesson %d: %s", l->number, title);
    else
        snprintf(page_title, sizeof page_title, "%s", title);
    export_html_begin(out, page_title, lesson_css);
    fputs("<header>\n", out);
    if (l->number)
        fprintf(out, "<p class=\"lesson-no\">Lesson %d</p>\n", l->number);
    fputs("<h1>", out);
    export_xml_text(out, title);
    fputs("</h1>\n</header>\n", out);
    export_html_legend(out);
    int rc = 0;
    struct lesson_state st;
    for (int s = 0; s < l->n_steps; s++) {
        const struct lesson_step *step = &l->steps[s];
        lesson_state_at(l, s, &st); /* the earlier steps' reveals included */
        fprintf(out, "<section class=\"step\" id=\"step-%d\">\n<h2>Step %d of %d", s + 1, s + 1,
                l->n_steps);
        if (step->title) {
            fputs(": ", out);
            export_xml_text(out, step->title);
        }
        fputs("</h2>\n", out);
        struct lists ls = {.depth = 0};
        for (int b = 0; b < step->n_blocks; b++) {
            /* the step's title is in the section heading already */
            if (b == 0 && step->title && step->blocks[0].kind == LESSON_HEADING)
                continue;
            block_html(out, &ls, &step->blocks[b]);
        }
        lists_close_to(out, &ls, 0);
        if (step->train_note) {
            fputs("<p class=\"trained\"><strong>Trained:</strong> ", out);
            export_xml_text(out, step->train_note);
            fputs("</p>\n", out);
        }
        /* a step that trains shows the training (its note above), not a stage;
         * a step that shows a trained model's stages, that model's */
        const bool show_scene =
            step->train_example || (!step->train_note && (s == 0 || step->has_scene));
        if (show_scene || step->has_quiz) {
            /* one example and trace serve the step's screen and its checkpoint */
            struct mha_error err;
            mha_error_clear(&err);
            struct mha_example *own =
                step->train_example ? NULL : lesson_state_example(&st, assets_dir, &err);
            const struct mha_example *ex = step->train_example ? step->train_example : own;
            struct mha_trace *t = ex ? mha_run(ex, &err) : NULL;
            if (step->train_example)
                lesson_state_for_trained(&st);
            if (show_scene && scene_html(out, &st, assets_dir, ex, t, &err,
                                         step->has_quiz ? &step->quiz : NULL) != 0)
                rc = -1;
            if (step->has_quiz)
                quiz_html(out, &step->quiz, ex, t, &err);
            mha_trace_free(t);
            mha_example_free(own);
        }
        fputs("</section>\n", out);
    }
    export_html_end(out);
    return rc != 0 || ferror(out) ? -1 : 0;
}
