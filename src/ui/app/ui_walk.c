/* ui_walk.c - every step of a lesson, drawn off screen at a given size,
 * read back from the screen: what the step names must be on it.  For a
 * step whose scene sets `focus`, the cursor's matrix (its title) and the
 * cursor's row (its label) on lines of their own above any marker; for a
 * `show`, the line naming that row for every head; for a view's `scroll`,
 * the row it names; for a checkpoint, the
 * step's title or first line with the question and the answer line. */
#include <ctype.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/app/ui_walk.h"
#include "ui/draw/ui_text.h"
#include "ui/app/ui_top.h"
#include "ui/train/ui_train.h"

/* Screen line y from column x as text (UTF-8) into buf. */
static void screen_from(int y, int x, int cols, char *buf, size_t n)
{
    wchar_t w[512];
    buf[0] = '\0';
    if (cols > 511)
        cols = 511;
    if (mvwinnwstr(curscr, y, x, w, cols) == ERR)
        return;
    w[cols] = L'\0';
    size_t o = 0;
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    for (int i = 0; w[i] && o + MB_CUR_MAX + 1 < n; i++) {
        const size_t k = wcrtomb(buf + o, w[i], &ps);
        if (k != (size_t)-1)
            o += k;
    }
    buf[o] = '\0';
}

static void screen_line(int y, int cols, char *buf, size_t n)
{
    screen_from(y, 0, cols, buf, n);
}

/* True when some line in [y0, y1) of the screen holds text. */
static bool on_lines(int y0, int y1, int cols, const char *text)
{
    char line[2048];
    for (int y = y0; y < y1; y++) {
        screen_line(y, cols, line, sizeof line);
        if (strstr(line, text))
            return true;
    }
    return false;
}

/* The first words of text, at most max bytes, cut at a space. */
static void first_words(const char *text, size_t max, char *out, size_t n)
{
    size_t len = 0, cut = 0;
    for (; text[len] && text[len] != '`' && text[len] != '*' && len < max && len + 1 < n; len++)
        if (text[len] == ' ')
            cut = len;
    if (text[len] && cut > 0)
        len = cut;
    memcpy(out, text, len);
    out[len] = '\0';
}

struct walk {
    int checks, failed;
    const char *id;
    int step;
};

static void check(struct walk *w, bool ok, const char *what)
{
    w->checks++;
    if (ok)
        return;
    w->failed++;
    printf("%s step %d: %s\n", w->id, w->step + 1, what);
}

/* The cursor's matrix and row, on lines of the canvas the marker leaves. */
static void check_focus(struct walk *w, const struct ui_app *app)
{
    const struct ui_state *st = &app->st;
    char what[400];
    if (!st->focus) {
        check(w, false, "focus: no cursor on the screen");
        return;
    }
    const struct ui_block *b = &app->blocks[st->block];
    const struct ui_block_geom *g = &app->geoms[st->block];
    int r0, c0;
    ui_block_window(b, g, st->cur_r, st->cur_c, &r0, &c0);
    const int view_h = ui_app_view_h(app);
    const int top = app->pos[st->block].y - st->scroll;
    const int row = top + g->header + (st->cur_r - r0) * g->row_step;
    const int y0 = app->lay.vis.y + UI_VIS_HEADER;
    char title[64], line[2048];
    first_words(b->title, 14, title, sizeof title);
    screen_line(y0 + top, app->win.cols, line, sizeof line);
    snprintf(what, sizeof what, "focus: the title \"%s\" is not on screen above the marker", title);
    check(w, top >= 0 && top < view_h && strstr(line, title) && !strstr(line, "more "), what);
    char label[64];
    if (b->row_labels)
        ui_text_fit(b->row_labels[st->cur_r], g->grid.label_w, app->th.utf8, label, sizeof label);
    else
        snprintf(label, sizeof label, "%*d", g->grid.label_w, st->cur_r);
    /* the row's label starts the block's line, where the canvas puts it */
    const int x0 = app->lay.vis.x + app->pos[st->block].x;
    screen_from(y0 + row, x0, app->win.cols - x0, line, sizeof line);
    snprintf(what, sizeof what, "focus: the row \"%s\" of \"%s\" is not on screen above the marker",
             label, title);
    check(w,
          row >= 0 && row < view_h && !strncmp(line, label, strlen(label)) &&
              !strstr(line, "more "),
          what);
}

/* word as a whole word of text (no letter or digit on either side). */
static bool has_word(const char *text, const char *word)
{
    const size_t n = strlen(word);
    if (!n)
        return false;
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word)) {
        const bool before = p == text || !isalnum((unsigned char)p[-1]);
        const bool after = !isalnum((unsigned char)p[n]);
        if (before && after)
            return true;
    }
    return false;
}

/* A choice checkpoint's answer is not told before it is given: the lesson
 * pane's text outside the checkpoint (the step's title and prose) names no
 * answer unless it names every other choice too (prose that weighs them). */
static void check_answer_hidden(struct walk *w, const struct ui_app *app)
{
    const struct ui_lessons *ls = &app->les;
    const struct lesson_quiz *q = ls->quiz.q;
    /* a token a row attends to: the question's own row is in the prose */
    if (!q || q->n_choices == 0 || (q->computed && q->compute && !strncmp(q->compute, "argmax", 6)))
        return;
    struct lesson_answer a;
    struct mha_error err;
    if (lesson_quiz_expected(q, app->st.ex, app->st.tr, &a, &err) || a.numeric)
        return;
    const struct ui_rect *r = &app->lay.side;
    static char text[16384];
    size_t used = 0;
    char line[2048];
    for (int y = r->y; y < r->y + r->h; y++) {
        screen_from(y, r->x, r->w, line, sizeof line); /* the pane's columns alone */
        if (strstr(line, "▌"))                         /* the checkpoint's own lines */
            continue;
        used +=
            (size_t)snprintf(text + used, used < sizeof text ? sizeof text - used : 0, " %s", line);
        if (used >= sizeof text)
            break;
    }
    if (!has_word(text, a.text))
        return;
    int others = 0;
    for (int i = 0; i < q->n_choices; i++)
        others += strcmp(q->choices[i], a.text) != 0 && has_word(text, q->choices[i]);
    if (others == q->n_choices - 1)
        return;
    char what[400];
    snprintf(what, sizeof what, "checkpoint: its answer \"%s\" is on screen before it is given",
             a.text);
    check(w, false, what);
}

/* A waiting checkpoint: the step's title (or its first line), the question
 * and the answer line in the lesson pane at once. */
static void check_quiz(struct walk *w, const struct ui_app *app)
{
    const struct ui_lessons *ls = &app->les;
    const struct lesson_step *step = &ls->l->steps[ls->step];
    const struct ui_rect *r = &app->lay.side;
    char words[64], what[300];
    if (step->title) {
        first_words(step->title, 20, words, sizeof words);
        snprintf(what, sizeof what, "checkpoint: the step's title \"%s\" is not on screen", words);
        check(w, on_lines(r->y + 1, r->y + r->h, app->win.cols, words), what);
    }
    first_words(ls->quiz.q->question, 24, words, sizeof words);
    snprintf(what, sizeof what, "checkpoint: the question \"%s\" is not on screen", words);
    check(w, on_lines(r->y, r->y + r->h, app->win.cols, words), what);
    const char *prompt = ui_quiz_numeric(&ls->quiz) ? "Your answer:" : "Press 1-";
    snprintf(what, sizeof what, "checkpoint: \"%s\" is not on screen", prompt);
    check(w, on_lines(r->y, r->y + r->h, app->win.cols, prompt), what);
    check_answer_hidden(w, app);
}

/* A show: the line naming the row, with every head's part of it, over
 * the numbers. */
static void check_show(struct walk *w, const struct ui_app *app)
{
    char line[256], what[400];
    if (!ui_app_show_line(app, line, sizeof line)) {
        check(w, false, "show: the row is not shown in any matrix");
        return;
    }
    const int y0 = app->lay.vis.y, y1 = y0 + UI_VIS_HEADER;
    char *colon = strchr(line, ':');
    if (colon)
        colon[1] = '\0';
    snprintf(what, sizeof what, "show: \"%s\" is not on screen", line);
    check(w, on_lines(y0, y1, app->win.cols, line), what);
    for (int h = 0; h < app->st.ex->heads; h++) {
        char part[32];
        snprintf(part, sizeof part, "head %d → ", h);
        snprintf(what, sizeof what, "show: \"%s\" is not on screen", part);
        check(w, on_lines(y0, y1, app->win.cols, part), what);
    }
}

/* A view's scroll: the row it names on screen, its first cell starting a
 * line of the canvas. */
static void check_scroll(struct walk *w, const struct ui_app *app, const char *row)
{
    char what[200];
    const int y0 = app->lay.vis.y + UI_VIS_HEADER;
    snprintf(what, sizeof what, "scroll: the row \"%s\" is not on screen", row);
    check(w, on_lines(y0, y0 + ui_app_view_h(app), app->win.cols, row), what);
}

int ui_walk_lesson(struct ui_app *app)
{
    struct ui_lessons *ls = &app->les;
    struct walk w = {0, 0, ls->id, 0};
    for (int s = 0; ls->l && s < ls->l->n_steps; s++) {
        w.step = s;
        if (ui_lesson_goto(ls, &app->st, s) != 0) {
            check(&w, false, app->st.msg);
            continue;
        }
        ui_app_settle(app);
        ui_app_draw(app);
        doupdate();
        struct lesson_state at;
        lesson_state_at(ls->l, s, &at);
        const bool stages = !ui_train_on_screen(app) && at.view == MHA_VIEW_NONE;
        if (at.focus && stages)
            check_focus(&w, app);
        if (at.show && stages)
            check_show(&w, app);
        if (at.scroll && at.view != MHA_VIEW_NONE && !ui_train_on_screen(app))
            check_scroll(&w, app, at.scroll);
        if (ui_quiz_asking(&ls->quiz))
            check_quiz(&w, app);
    }
    printf("%s: %d steps at %dx%d, %d checks, %d failed\n", ls->id, ls->l ? ls->l->n_steps : 0,
           app->win.cols, app->win.rows, w.checks, w.failed);
    return w.failed > 0 ? 1 : 0;
}
