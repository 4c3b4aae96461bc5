/* ui_lesson_pane.c - the lesson pane: the current step's text laid out by
 * lesson_layout_step (headings, emphasis, code, lists, tables, call-outs
 * with a coloured bar and their title), then its checkpoint, scrolled.
 * The same code counts the lines (win NULL) and draws them. */
#include <stdio.h>
#include <string.h>

#include "lesson/layout.h"
#include "ui/panes/ui_panes.h"
#include "ui/draw/ui_layout.h"
#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/state/ui_keys.h"
#include "ui/state/ui_lesson.h"

#ifndef A_ITALIC
#define A_ITALIC A_UNDERLINE
#endif

/* Where the lines go: counted always, drawn when they are in view. */
struct pane {
    WINDOW *win; /* NULL: count only */
    const struct ui_theme *th;
    int width;          /* the pane's columns */
    int first, rows;    /* content lines [first, first + rows) show from line 1 */
    int n;              /* content lines so far */
    int margin;         /* columns left and right of the text: 1, wider for a presenter */
    int prompt_end;     /* content lines up to the checkpoint's answer line (0: none) */
    int quiz_start;     /* the content line the checkpoint starts on (0: none) */
    int keep;           /* > 0: content lines [0, keep) show first, a fold line under them,
                           then [first + keep + 1, first + rows) (a waiting checkpoint with
                           the step's first lines) */
    const char *titled; /* the step's title, for the checkpoint's first line when the
                           pane has no room for it above (NULL: "Checkpoint") */
};

/* The presenter's lesson column: wide margins, and no longer lines than
 * a reader follows comfortably. */
static int pane_margin(bool present, int width)
{
    if (!present)
        return 1;
    const int m = width >= 60 ? 3 : 2;
    return width - 2 * m > 76 ? (width - 76) / 2 : m;
}

/* The window line of the next content line, or -1 when it is not shown. */
static int next_line(struct pane *p)
{
    const int i = p->n++;
    if (!p->win)
        return -1;
    if (p->keep > 0 && i < p->keep)
        return 1 + i;
    if (i < p->first + (p->keep > 0 ? p->keep + 1 : 0) || i >= p->first + p->rows)
        return -1;
    return 1 + i - p->first;
}

static int text_w(const struct pane *p)
{
    const int w = p->width - 2 * p->margin;
    return w > 10 ? w : 10;
}

static enum ui_role callout_role(enum lesson_callout c)
{
    switch (c) {
    case LESSON_CALLOUT_ANALOGY:
        return UI_ROLE_ANALOGY;
    case LESSON_CALLOUT_WHATIF:
        return UI_ROLE_WHATIF;
    case LESSON_CALLOUT_INSIGHT:
        return UI_ROLE_INSIGHT;
    default:
        return UI_ROLE_BORDER;
    }
}

/* A bar at the left of a call-out, quote or checkpoint line. */
static void bar(const struct pane *p, int y, enum ui_role role, bool thick)
{
    ui_put(p->win, y, p->margin, thick ? "▌" : "│", 1, ui_role_attr(p->th, role), p->th->utf8);
}

static int seg_attr(const struct ui_theme *th, unsigned style, int base)
{
    if (style & LESSON_CODE)
        return ui_role_attr(th, UI_ROLE_CODE) | (style & LESSON_STRONG ? A_BOLD : 0);
    int a = base;
    if (style & LESSON_STRONG)
        a |= A_BOLD;
    if (style & LESSON_EMPH)
        a |= A_ITALIC;
    if (style & LESSON_LINK)
        a |= A_UNDERLINE;
    return a;
}

static void layout_line(struct pane *p, const struct lesson_line *line)
{
    const int y = next_line(p);
    if (y < 0 || line->blank)
        return;
    const struct ui_theme *th = p->th;
    int base = 0;
    switch (line->kind) {
    case LESSON_HEADING:
        base = ui_role_attr(th, UI_ROLE_TITLE);
        break;
    case LESSON_CALLOUT:
        bar(p, y, callout_role(line->callout), true);
        if (line->title)
            base = ui_role_attr(th, callout_role(line->callout));
        break;
    case LESSON_QUOTE:
        bar(p, y, UI_ROLE_BORDER, false);
        break;
    case LESSON_TABLE:
        if (line->title)
            base = A_BOLD | A_UNDERLINE;
        break;
    default:
        break;
    }
    int x = p->margin + line->indent;
    const int end = p->margin + text_w(p);
    for (int s = 0; s < line->n_segs && x < end; s++) {
        const struct lesson_seg *seg = &line->segs[s];
        int attr = seg_attr(th, seg->style, base);
        if (line->kind == LESSON_CODE_BLOCK)
            attr = ui_role_attr(th, UI_ROLE_CODE);
        x += ui_put(p->win, y, x, seg->text, end - x, attr, th->utf8);
    }
}

/* text without its backticks into plain (size n), code[i] set where the
 * byte plain[i] was inside `...` (inline code, as the lesson text has it). */
static void strip_code(const char *text, char *plain, unsigned char *code, size_t n)
{
    size_t o = 0;
    bool in = false;
    for (const char *c = text; *c && o + 1 < n; c++) {
        if (*c == '`') {
            in = !in;
            continue;
        }
        code[o] = in;
        plain[o++] = *c;
    }
    plain[o] = '\0';
}

/* Text wrapped under a bar, from column 3; `inline code` drawn as code. */
static void wrapped(struct pane *p, const char *text, enum ui_role bar_role, int attr)
{
    char plain[2048];
    unsigned char code[2048];
    strip_code(text, plain, code, sizeof plain);
    struct ui_line lines[64];
    const int w = text_w(p) - 2;
    const int n = ui_text_wrap(plain, w, p->th->utf8, lines, 64);
    for (int i = 0; i < n && i < 64; i++) {
        const int y = next_line(p);
        if (y < 0)
            continue;
        bar(p, y, bar_role, true);
        /* the line in runs of code and not code */
        int x = 0;
        for (size_t at = 0; at < lines[i].len && x < w;) {
            const size_t from = (size_t)(lines[i].start - plain) + at;
            size_t run = 1;
            while (at + run < lines[i].len && code[from + run] == code[from])
                run++;
            char buf[1024];
            const int tw = ui_text_fit_n(plain + from, run, w - x, p->th->utf8, buf, sizeof buf);
            x += ui_put(p->win, y, p->margin + 2 + x, buf, tw,
                        code[from] ? seg_attr(p->th, LESSON_CODE, attr) : attr, p->th->utf8);
            at += run;
        }
    }
}

static void checkpoint(struct pane *p, const struct ui_lessons *ls)
{
    const struct ui_quiz *z = &ls->quiz;
    const struct ui_theme *th = p->th;
    const int quiz = ui_role_attr(th, UI_ROLE_QUIZ);
    char line[1024];
    next_line(p); /* a blank line before */
    p->quiz_start = p->n;
    int y = next_line(p);
    if (y >= 0) {
        bar(p, y, UI_ROLE_QUIZ, true);
        if (p->titled)
            snprintf(line, sizeof line, "%s · checkpoint: predict, then check", p->titled);
        else
            snprintf(line, sizeof line, "Checkpoint: predict, then check");
        ui_put(p->win, y, p->margin + 2, line, text_w(p) - 2, quiz, th->utf8);
    }
    wrapped(p, z->q->question, UI_ROLE_QUIZ, A_BOLD);
    for (int i = 0; i < z->q->n_choices; i++) {
        const char *choice = z->q->choices[i];
        const bool answered = z->phase == UI_QUIZ_ANSWERED;
        const bool is_answer = answered && !strcmp(choice, z->answer);
        const bool is_given = (answered && !strcmp(choice, z->given)) ||
                              (!answered && z->retry && !strcmp(choice, z->first));
        char shown[512];
        unsigned char code[512];
        strip_code(choice, shown, code, sizeof shown);
        const char *mark = is_answer ? "✓" : is_given ? "✗" : " ";
        const int attr = is_answer  ? ui_role_attr(th, UI_ROLE_RIGHT)
                         : is_given ? ui_role_attr(th, UI_ROLE_WRONG)
                                    : 0;
        /* the choice wrapped under its own first word, never cut */
        struct ui_line parts[8];
        const int n = ui_text_wrap(shown, text_w(p) - 7, th->utf8, parts, 8);
        for (int k = 0; k < (n > 0 ? n : 1); k++) {
            y = next_line(p);
            if (y < 0)
                continue;
            bar(p, y, UI_ROLE_QUIZ, true);
            if (k == 0) {
                char key[16];
                snprintf(key, sizeof key, "%d", i + 1);
                ui_put(p->win, y, p->margin + 3, i < 9 ? key : " ", 1,
                       ui_role_attr(th, UI_ROLE_HELP_KEY), th->utf8);
                ui_put(p->win, y, p->margin + 5, mark, 1, attr, th->utf8);
            }
            char buf[512];
            const int tw = n > 0 ? ui_text_fit_n(parts[k].start, parts[k].len, text_w(p) - 7,
                                                 th->utf8, buf, sizeof buf)
                                 : 0;
            ui_put(p->win, y, p->margin + 7, n > 0 ? buf : "", tw, attr, th->utf8);
        }
    }
    if (z->phase == UI_QUIZ_ASKING) {
        if (z->retry) {
            snprintf(line, sizeof line, "✗ Not quite (you said %s). One more try.", z->first);
            wrapped(p, line, UI_ROLE_QUIZ, ui_role_attr(th, UI_ROLE_WRONG));
        }
        if (ui_quiz_numeric(z))
            snprintf(line, sizeof line, "Your answer: %s%s", z->typed, th->utf8 ? "▏" : "_");
        else
            snprintf(line, sizeof line, "Press 1-%d to answer.",
                     z->q->n_choices < 9 ? z->q->n_choices : 9);
        wrapped(p, line, UI_ROLE_QUIZ, ui_role_attr(th, UI_ROLE_PROMPT));
        p->prompt_end = p->n;
        if (z->previous >= 0)
            wrapped(p,
                    z->previous ? "You answered this before: right. Answer again, or Space "
                                  "goes on."
                                : "You answered this before: not quite. Try again, or Space "
                                  "goes on.",
                    UI_ROLE_QUIZ, ui_role_attr(th, UI_ROLE_SHAPE));
        return;
    }
    if (z->revealed)
        snprintf(line, sizeof line, "The answer: %s.", z->answer);
    else if (z->right)
        snprintf(line, sizeof line, "✓ Right: %s.", z->answer);
    else if (ui_quiz_numeric(z) && z->retry)
        snprintf(line, sizeof line, "✗ Not quite: the answer is %s (you said %s, then %s).",
                 z->answer, z->first, z->given);
    else if (ui_quiz_numeric(z))
        snprintf(line, sizeof line, "✗ Not quite: the answer is %s (you said %s).", z->answer,
                 z->given);
    else
        snprintf(line, sizeof line, "✗ Not quite: the answer is %s.", z->answer);
    const enum ui_role verdict = z->revealed ? UI_ROLE_QUIZ
                                 : z->right  ? UI_ROLE_RIGHT
                                             : UI_ROLE_WRONG;
    wrapped(p, line, UI_ROLE_QUIZ, ui_role_attr(th, verdict));
    wrapped(p, z->q->explain, UI_ROLE_QUIZ, 0);
}

/* Every content line of the step, through p. */
static void content(struct pane *p, const struct ui_lessons *ls)
{
    const struct lesson_step *step = &ls->l->steps[ls->step];
    struct lesson_layout lay;
    if (lesson_layout_step(step, text_w(p), &lay) != 0) {
        const int y = next_line(p);
        if (y >= 0)
            ui_put(p->win, y, p->margin, "Out of memory: this step cannot be shown.", text_w(p),
                   ui_role_attr(p->th, UI_ROLE_WRONG), p->th->utf8);
    }
    for (int i = 0; i < lay.n_lines; i++)
        layout_line(p, &lay.lines[i]);
    lesson_layout_done(&lay);
    if (ls->quiz.q)
        checkpoint(p, ls);
    if (ls->step + 1 == ls->l->n_steps) {
        next_line(p);
        const int y = next_line(p);
        if (y >= 0)
            ui_put(p->win, y, p->margin, "End of the lesson. L picks another one.", text_w(p),
                   ui_role_attr(p->th, UI_ROLE_SHAPE), p->th->utf8);
    }
}

int ui_lesson_pane_lines(const struct ui_lesson_view *v, int width)
{
    if (!v->les->l)
        return 0;
    struct pane p = {NULL, v->th, width, 0, 0, 0, pane_margin(v->present, width), 0, 0, 0, NULL};
    content(&p, v->les);
    return 1 + p.n;
}

/* The content lines counted, with where the checkpoint starts and ends. */
static struct pane counted(const struct ui_lesson_view *v, int width)
{
    struct pane p = {NULL, v->th, width, 0, 0, 0, pane_margin(v->present, width), 0, 0, 0, NULL};
    if (v->les->l)
        content(&p, v->les);
    return p;
}

int ui_lesson_pane_prompt_end(const struct ui_lesson_view *v, int width)
{
    return counted(v, width).prompt_end;
}

int ui_lesson_pane_quiz_lines(const struct ui_lesson_view *v, int width)
{
    if (!v->les->l || !ui_quiz_asking(&v->les->quiz))
        return 0;
    const struct pane c = counted(v, width);
    return c.prompt_end - c.quiz_start;
}

/* Lines of the step kept over a fold: its title and first lines, as many
 * as leave the checkpoint, from its first line to its answer line, room
 * under the fold line (0: none fit). */
static int fold_keep(const struct pane *c, int body)
{
    const int quiz = c->prompt_end - c->quiz_start;
    const int room = body - 1 - quiz;
    /* the title, a blank line and the first line of text; or the title alone */
    const int keep = room >= 3 ? 3 : room >= 1 ? 1 : 0;
    return keep > 0 && c->quiz_start > keep + 1 ? keep : 0;
}

void ui_lesson_pane_follow_prompt(struct ui_lessons *ls, const struct ui_theme *th, bool present,
                                  const struct ui_layout *lay)
{
    if (!ls->scroll_to_prompt || !ls->l || lay->too_small || lay->side.h <= 0)
        return;
    ls->scroll_to_prompt = false;
    const struct ui_lesson_view v = {.les = ls, .th = th, .present = present}; /* no hints drawn */
    const int total = ui_lesson_pane_lines(&v, lay->side.w) - 1;
    const int body = ui_lesson_pane_body(lay->side.h, total + 1);
    const int end = ui_lesson_pane_prompt_end(&v, lay->side.w);
    if (end > ls->scroll + body) {
        ls->scroll = end - body;
        ls->fold = true; /* under the step's title and first lines (ui_lesson_pane_draw) */
    }
}

int ui_lesson_pane_body(int height, int lines)
{
    /* the title line, and a line saying there is more when it does not fit */
    const int body = lines <= height ? height - 1 : height - 2;
    return body > 1 ? body : 1;
}

/* "Lesson 7 · Scaled dot-product attention · step 3/8", the title cut first. */
static void title(WINDOW *win, const struct ui_lessons *ls, int width, const struct ui_theme *th)
{
    char right[64], left[256], fit[512];
    snprintf(right, sizeof right, " · step %d/%d", ls->step + 1, ls->l->n_steps);
    if (ls->l->number > 0)
        snprintf(left, sizeof left, "Lesson %d · %s", ls->l->number,
                 ls->l->title ? ls->l->title : ls->id);
    else
        snprintf(left, sizeof left, "%s", ls->l->title ? ls->l->title : ls->id);
    const int rw = ui_text_width(right, th->utf8);
    ui_text_fit(left, width - 2 - rw, th->utf8, fit, sizeof fit - sizeof right);
    strcat(fit, right);
    ui_pane_title(win, fit, width, th);
}

void ui_lesson_pane_draw(WINDOW *win, const struct ui_lesson_view *v, int width, int height)
{
    const struct ui_lessons *ls = v->les;
    const struct ui_theme *th = v->th;
    title(win, ls, width, th);
    const int total = ui_lesson_pane_lines(v, width) - 1;
    int body = ui_lesson_pane_body(height, total + 1);
    /* after a resize the scroll may point past the end until the next key */
    int first = ls->scroll < total - body ? ls->scroll : total - body;
    first = first > 0 ? first : 0;
    const struct pane c = counted(v, width);
    int keep = 0;
    if (ls->fold && ui_quiz_asking(&ls->quiz) && first > 0) {
        /* the marker's line is the text's too: the fold line says the rest */
        const int fbody = height - 1;
        keep = c.prompt_end > body ? fold_keep(&c, fbody) : 0;
        if (keep > 0) {
            body = fbody;
            first = c.prompt_end - fbody;
        } else if (c.prompt_end <= body) {
            first = 0; /* from the top, the answer line in sight */
        }
    }
    /* no room for the step's first lines: its title heads the checkpoint */
    const char *titled =
        ui_quiz_asking(&ls->quiz) && keep == 0 && first > 0 ? ls->l->steps[ls->step].title : NULL;
    struct pane p = {win, th, width, first, body, 0, pane_margin(v->present, width),
                     0,   0,  keep,  titled};
    content(&p, ls);
    const bool lesson = true, focus = v->focus;
    char up[64], line_up[32], down[64], line_down[32], on[32];
    ui_key_names_for(UI_ACT_LESSON_PAGE_UP, focus, lesson, ui_front_takes, &v->front, up,
                     sizeof up);
    ui_key_names_for(UI_ACT_LESSON_LINE_UP, focus, lesson, ui_front_takes, &v->front, line_up,
                     sizeof line_up);
    ui_key_names_for(UI_ACT_LESSON_PAGE_DOWN, focus, lesson, ui_front_takes, &v->front, down,
                     sizeof down);
    ui_key_names_for(UI_ACT_LESSON_LINE_DOWN, focus, lesson, ui_front_takes, &v->front, line_down,
                     sizeof line_down);
    ui_key_names_for(UI_ACT_LESSON_NEXT, focus, lesson, ui_front_takes, &v->front, on, sizeof on);
    if (line_up[0] && strlen(up) + strlen(line_up) + 2 < sizeof up)
        strcat(strcat(up, up[0] ? " " : ""), line_up);
    if (line_down[0] && strlen(down) + strlen(line_down) + 2 < sizeof down)
        strcat(strcat(down, down[0] ? " " : ""), line_down);
    if (keep > 0) { /* the lines between the step's first ones and its checkpoint */
        char fold[192];
        const int folded = first + 1, after = total - c.prompt_end;
        int used =
            snprintf(fold, sizeof fold, "⋯ %d line%s folded%s%s%s", folded, folded == 1 ? "" : "s",
                     up[0] ? " · " : "", up, up[0] ? " shows them" : "");
        if (after > 0 && used > 0 && (size_t)used < sizeof fold)
            snprintf(fold + used, sizeof fold - (size_t)used, " · %s%d more%s%s",
                     ui_more_arrow(true, th->utf8), after, down[0] ? " · " : "", down);
        ui_put(win, 1 + keep, p.margin, fold, text_w(&p), ui_role_attr(th, UI_ROLE_SHAPE),
               th->utf8);
    }
    if (total > body && keep == 0) {
        char more[160];
        const int below = total - (first + body);
        if (below > 0)
            snprintf(more, sizeof more, "%s%d more line%s%s%s%s%s%s", ui_more_arrow(true, th->utf8),
                     below, below == 1 ? "" : "s", on[0] ? " · " : "", on, on[0] ? " reads on" : "",
                     down[0] ? " · " : "", down);
        else if (keep > 0 || !up[0])
            more[0] = '\0'; /* the fold line says it */
        else
            snprintf(more, sizeof more, "%s%s scroll back", ui_more_arrow(false, th->utf8), up);
        const int mw = ui_text_width(more, th->utf8);
        ui_put(win, height - 1, mw < width - 1 ? width - 1 - mw : 1, more, width - 2,
               ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
}
