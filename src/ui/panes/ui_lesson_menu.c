/* ui_lesson_menu.c - the lesson list (L): every lesson with its steps and
 * the reader's progress, chosen with the arrows and opened with Enter. */
#include "ui/panes/ui_lesson_menu.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_check.h"
#include "lesson/catalog.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_mode.h"
#include "ui/draw/ui_layout.h"
#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"
#include "ui/modes/ui_keymaps.h"

/* Read every lesson of the folder once: title, steps, which have checkpoints. */
static void load_list(struct ui_lessons *ls)
{
    struct lesson_catalog cat;
    ls->list_loaded = true;
    if (lesson_catalog_load(&cat, ls->lessons_dir) != 0)
        return;
    ls->list = calloc((size_t)(cat.n > 0 ? cat.n : 1), sizeof *ls->list);
    for (int i = 0; ls->list && i < cat.n; i++) {
        struct lesson *l = lesson_load(cat.paths[i]);
        if (!l)
            continue;
        struct ui_lesson_entry *e = &ls->list[ls->n_list];
        e->path = strdup(cat.paths[i]);
        const char *slash = strrchr(cat.paths[i], '/');
        snprintf(e->id, sizeof e->id, "%s", slash ? slash + 1 : cat.paths[i]);
        e->number = l->number;
        /* drawn through ncurses and echoed in messages: a control or bidi
         * character in a title is written out, never obeyed */
        mha_text_escape(l->title ? l->title : e->id, e->title, sizeof e->title);
        e->n_steps = l->n_steps;
        e->broken = l->n_diags > 0 || l->n_steps == 0;
        e->quiz_steps = calloc((size_t)(l->n_steps > 0 ? l->n_steps : 1), sizeof *e->quiz_steps);
        for (int s = 0; e->quiz_steps && s < l->n_steps; s++)
            if (l->steps[s].has_quiz)
                e->quiz_steps[e->n_quizzes++] = s;
        lesson_free(l);
        if (e->path)
            ls->n_list++;
        else
            free(e->quiz_steps);
    }
    lesson_catalog_done(&cat);
}

int ui_lesson_menu_rows(const struct ui_lessons *ls)
{
    return ls->n_list + (ls->l ? 1 : 0);
}

void ui_lesson_menu_open(struct ui_lessons *ls, struct ui_state *st)
{
    if (!ls->list_loaded)
        load_list(ls);
    if (ls->n_list == 0 && !ls->l) {
        ui_state_say(st, true, "No lessons found in %s.", ls->lessons_dir);
        return;
    }
    ls->menu_open = true;
    ls->menu_reset_armed = false;
    ls->menu_sel = ui_lesson_menu_next(ls);
    for (int i = 0; i < ls->n_list; i++)
        if (ls->l && !strcmp(ls->list[i].id, ls->id))
            ls->menu_sel = i; /* the open lesson */
}

/* Steps of e seen so far. */
static int seen_steps(const struct ui_lessons *ls, const struct ui_lesson_entry *e)
{
    const int n = ls->progress ? progress_seen_count(ls->progress, e->id) : 0;
    return n < e->n_steps ? n : e->n_steps;
}

int ui_lesson_menu_next(const struct ui_lessons *ls)
{
    for (int i = 0; i < ls->n_list; i++)
        if (!ls->list[i].broken && seen_steps(ls, &ls->list[i]) < ls->list[i].n_steps)
            return i;
    return 0;
}

void ui_lesson_entry_marks(const struct ui_lessons *ls, const struct ui_lesson_entry *e, char *seen,
                           int seen_n, char *quiz, int quiz_n)
{
    seen[0] = quiz[0] = '\0';
    const int n = seen_steps(ls, e);
    if (n >= e->n_steps && e->n_steps > 0)
        snprintf(seen, (size_t)seen_n, "%d/%d ✓", n, e->n_steps);
    else
        snprintf(seen, (size_t)seen_n, "%d/%d", n, e->n_steps);
    if (!ls->progress)
        return;
    int answered = 0, first = 0;
    for (int i = 0; i < e->n_quizzes; i++) {
        const int q = progress_quiz_first(ls->progress, e->id, e->quiz_steps[i]);
        answered += q >= 0;
        first += q == 1;
    }
    if (answered > 0) /* right at the first try, of all the checkpoints */
        snprintf(quiz, (size_t)quiz_n, "%d/%d", first, e->n_quizzes);
}

static void save_progress(struct ui_lessons *ls, struct ui_state *st, const char *done)
{
    struct mha_error err;
    mha_error_clear(&err);
    if (progress_save(ls->progress, &err) != 0)
        ui_state_say(st, true, "Your progress could not be saved: %s", err.text);
    else
        ui_state_say(st, false, "%s", done);
}

/* Forget e's progress and open it on its first step. */
static void restart(struct ui_lessons *ls, struct ui_state *st, const struct ui_lesson_entry *e)
{
    if (e->broken) {
        ui_state_say(st, true, "%s has problems: mha-explorer --check-lessons %s lists them.",
                     e->id, e->path);
        return;
    }
    if (ls->progress)
        progress_reset(ls->progress, e->id);
    ls->menu_open = false;
    if (ui_lesson_open(ls, st, e->path, 0) == 0)
        ui_state_say(st, false, "\"%s\" starts again from step 1.", e->title);
}

enum menu_act {
    MENU_UP,
    MENU_DOWN,
    MENU_FIRST,
    MENU_LAST,
    MENU_OPEN,
    MENU_RESTART,
    MENU_FORGET,
    MENU_CLOSE
};

static const struct ui_keymap_row menu_rows[] = {
    {{KEY_UP, 'k'}, "↑ k", MENU_UP, "the lesson above (round to the end)", "↑ ↓ choose"},
    {{KEY_DOWN, 'j'}, "↓ j", MENU_DOWN, "the lesson below (round to the top)", NULL},
    {{KEY_HOME, KEY_PPAGE}, "Home PgUp", MENU_FIRST, "the first lesson", NULL},
    {{KEY_END, KEY_NPAGE}, "End PgDn", MENU_LAST, "the last row: leave the lesson", NULL},
    {{KEY_ENTER, '\n', '\r', ' '},
     "Enter Space",
     MENU_OPEN,
     "open it where you left it",
     "Enter opens where you left it"},
    {{'r'}, "r", MENU_RESTART, "restart it: its progress forgotten", "r restarts it"},
    {{'R'}, "R", MENU_FORGET, "twice: forget every lesson's progress", "R forgets all"},
    {{27, 'L', 'q'}, "Esc L q", MENU_CLOSE, "close the list", "Esc"},
};
const struct ui_keymap ui_keymap_menu = UI_KEYMAP("In the lesson list (L)", menu_rows);

void ui_lesson_menu_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char)
{
    const int rows = ui_lesson_menu_rows(ls);
    (void)is_char;
    switch (ui_keymap_action(&ui_keymap_menu, key, -1)) {
    case MENU_UP:
        ls->menu_sel = ls->menu_sel > 0 ? ls->menu_sel - 1 : rows - 1;
        break;
    case MENU_DOWN:
        ls->menu_sel = ls->menu_sel + 1 < rows ? ls->menu_sel + 1 : 0;
        break;
    case MENU_FIRST:
        ls->menu_sel = 0;
        break;
    case MENU_LAST:
        ls->menu_sel = rows - 1;
        break;
    case MENU_OPEN:
        ls->menu_open = false;
        if (ls->menu_sel >= ls->n_list) {
            ui_lesson_close(ls, st);
        } else {
            const struct ui_lesson_entry *e = &ls->list[ls->menu_sel];
            if (ls->l && !strcmp(e->id, ls->id))
                break; /* already open: back where the reader was */
            ui_lesson_open(ls, st, e->path, -1);
        }
        break;
    case MENU_RESTART:
        if (ls->menu_sel < ls->n_list)
            restart(ls, st, &ls->list[ls->menu_sel]);
        break;
    case MENU_FORGET:
        if (!ls->menu_reset_armed) {
            ls->menu_reset_armed = true;
            ui_state_say(st, false,
                         "Press R again to forget the progress of every lesson (any other key "
                         "keeps it).");
            return;
        }
        if (ls->progress) {
            progress_reset(ls->progress, NULL);
            save_progress(ls, st, "Progress of every lesson forgotten.");
        }
        ls->menu_sel = ui_lesson_menu_next(ls);
        break;
    case MENU_CLOSE:
        ls->menu_open = false;
        break;
    default:
        break;
    }
    ls->menu_reset_armed = false;
}

/* ---- as a mode (bound to the lessons, the state and its box in app/ui_mode_parts.c) -------- */

bool ui_lesson_menu_mode_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char)
{
    st->msg[0] = '\0';
    ui_lesson_menu_key(ls, st, ui_mode_keycode(key, is_char), is_char);
    return true;
}

/* The row of the list at screen line y, or -1. */
static int menu_row_at(const struct ui_lessons *ls, const struct ui_rect *r, int y, int x)
{
    const int rows = ui_lesson_menu_rows(ls), body = r->h - 4;
    if (x <= r->x || x >= r->x + r->w - 1 || y < r->y + 2 || y >= r->y + 2 + body)
        return -1;
    const int row = ui_window_start(ls->menu_sel, body, rows) + (y - r->y - 2);
    return row < rows ? row : -1;
}

bool ui_lesson_menu_mouse(struct ui_lessons *ls, struct ui_state *st, const struct ui_rect *box,
                          const MEVENT *ev)
{
    if (ev->bstate & BUTTON4_PRESSED)
        ui_lesson_menu_key(ls, st, KEY_UP, false);
    else if (ev->bstate & UI_BUTTON5)
        ui_lesson_menu_key(ls, st, KEY_DOWN, false);
    else if (ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)) {
        const int row = menu_row_at(ls, box, ev->y, ev->x);
        if (row < 0)
            return true; /* outside the list: nothing */
        ls->menu_sel = row;
        ui_lesson_menu_key(ls, st, KEY_ENTER, false);
    }
    return true;
}

/* ---- drawing ------------------------------------------------------------------------------ */

void ui_lesson_menu_draw(WINDOW *win, const struct ui_lessons *ls, const struct ui_theme *th)
{
    int h, w;
    getmaxyx(win, h, w);
    werase(win);
    wattrset(win, ui_role_attr(th, UI_ROLE_BORDER));
    if (th->utf8)
        wborder_set(win, WACS_VLINE, WACS_VLINE, WACS_HLINE, WACS_HLINE, WACS_ULCORNER,
                    WACS_URCORNER, WACS_LLCORNER, WACS_LRCORNER);
    else
        wborder(win, '|', '|', '-', '-', '+', '+', '+', '+');
    ui_put(win, 0, 2, " Lessons ", w - 4, ui_role_attr(th, UI_ROLE_PANE_TITLE), th->utf8);
    const int inner = w - 4, x = 2;
    /* columns from the right: quiz 8, steps seen 9 ("12/12 ✓"), one apart;
     * the titles get the rest (49 columns on an 80-column screen) */
    const int quiz_x = x + inner - 10, seen_x = quiz_x - 10;
    const int title_w = seen_x - (x + 5) - 1;
    const int head_attr = ui_role_attr(th, UI_ROLE_SHAPE);
    ui_put(win, 1, x + 2, " #", 2, head_attr, th->utf8);
    ui_put(win, 1, x + 5, "lesson", title_w, head_attr, th->utf8);
    ui_put(win, 1, seen_x, "seen", 9, head_attr, th->utf8);
    ui_put(win, 1, quiz_x, "first try", 10, head_attr, th->utf8);
    const int rows = ui_lesson_menu_rows(ls), body = h - 4;
    const int first = ui_window_start(ls->menu_sel, body, rows);
    for (int i = 0; i < body && first + i < rows; i++) {
        const int r = first + i, y = 2 + i;
        const bool sel = r == ls->menu_sel;
        const int base = sel ? ui_role_attr(th, UI_ROLE_CURSOR) : 0;
        if (sel)
            ui_fill(win, y, x, inner, base);
        if (r >= ls->n_list) {
            ui_put(win, y, x + 5, "Leave the lesson (back to exploring freely)", inner - 5,
                   sel ? base : ui_role_attr(th, UI_ROLE_PROMPT), th->utf8);
            continue;
        }
        const struct ui_lesson_entry *e = &ls->list[r];
        char num[16], seen[32], quiz[32];
        const bool open = ls->l && !strcmp(e->id, ls->id);
        ui_put(win, y, x, open ? "▸" : " ", 1, base, th->utf8);
        snprintf(num, sizeof num, "%2d", e->number);
        ui_put(win, y, x + 2, num, 2, sel ? base : ui_role_attr(th, UI_ROLE_HELP_KEY), th->utf8);
        ui_put(win, y, x + 5, e->title, title_w, base, th->utf8);
        ui_lesson_entry_marks(ls, e, seen, sizeof seen, quiz, sizeof quiz);
        const bool done = strstr(seen, "✓") != NULL;
        ui_put(win, y, seen_x, e->broken ? "bad!" : seen, 9,
               sel ? base
                   : ui_role_attr(th, e->broken ? UI_ROLE_WRONG
                                      : done    ? UI_ROLE_RIGHT
                                                : 0),
               th->utf8);
        ui_put(win, y, quiz_x, quiz, 10, base, th->utf8);
    }
    if (rows > body) {
        char more[48];
        snprintf(more, sizeof more, " %d-%d of %d ", first + 1,
                 first + body < rows ? first + body : rows, rows);
        ui_put(win, 0, w - 2 - ui_text_width(more, th->utf8), more, w, head_attr, th->utf8);
    }
    char hint[160];
    ui_put(win, h - 2, x, ui_keymap_hint(&ui_keymap_menu, hint, sizeof hint), inner, head_attr,
           th->utf8);
    wattrset(win, 0);
    wnoutrefresh(win);
}
