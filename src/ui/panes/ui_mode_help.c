/* ui_mode_help.c - the help screen as a mode: it covers the screen,
 * scrolls, and q, Esc, ? or Enter close it (as in less and man).  Its keys
 * are the table below. */
#include <stdio.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/state/ui_state.h"
#include "ui/panes/ui_panes.h"
#include "ui/commands/ui_cmd.h"
#include "ui/modes/ui_keymaps.h"
#include "ui/state/ui_keys.h"
#include "ui/state/ui_words.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_mode.h"

/* Every mode's table, in the order the help screen shows them. */
const struct ui_keymap *const ui_keymaps[] = {
    &ui_keymap_quiz_choice, &ui_keymap_quiz_number, &ui_keymap_menu,  &ui_keymap_prompt,
    &ui_keymap_explain,     &ui_keymap_present,     &ui_keymap_popup, &ui_keymap_help,
    &ui_keymap_train,       &ui_keymap_follow,
};
const int ui_keymap_count = (int)(sizeof ui_keymaps / sizeof ui_keymaps[0]);

static void help_scroll(struct ui_state *st, int rows, int by)
{
    const int max = ui_help_lines() - (rows - 2);
    st->help_scroll += by;
    if (st->help_scroll > max)
        st->help_scroll = max;
    if (st->help_scroll < 0)
        st->help_scroll = 0;
}

enum help_act {
    HELP_UP,
    HELP_DOWN,
    HELP_PAGE_UP,
    HELP_PAGE_DOWN,
    HELP_TOP,
    HELP_BOTTOM,
    HELP_CLOSE
};

static const struct ui_keymap_row help_rows[] = {
    {{'q', 'Q', 27, '?', KEY_F(1), '\n', '\r', KEY_ENTER},
     "q Q Esc ? F1 Enter",
     HELP_CLOSE,
     "close the help, as in less and man",
     "q, Esc or ? closes"},
    {{KEY_UP, 'k'}, "↑ k", HELP_UP, "a line up", NULL},
    {{KEY_DOWN, 'j'}, "↓ j", HELP_DOWN, "a line down", "↑ ↓ scroll"},
    {{KEY_PPAGE, 'b'}, "PgUp b", HELP_PAGE_UP, "a page up", NULL},
    {{KEY_NPAGE, ' '}, "PgDn Space", HELP_PAGE_DOWN, "a page down", NULL},
    {{KEY_HOME, 'g'}, "Home g", HELP_TOP, "the top", NULL},
    {{KEY_END, 'G'}, "End G", HELP_BOTTOM, "the end: the commands and the mouse", NULL},
};
const struct ui_keymap ui_keymap_help = UI_KEYMAP("In the help (this screen)", help_rows);

bool ui_help_key(struct ui_state *st, int rows, int key, bool is_char)
{
    const int page = rows - 3 > 1 ? rows - 3 : 1;
    switch (ui_keymap_action(&ui_keymap_help, ui_mode_keycode(key, is_char), -1)) {
    case HELP_UP:
        help_scroll(st, rows, -1);
        break;
    case HELP_DOWN:
        help_scroll(st, rows, +1);
        break;
    case HELP_PAGE_UP:
        help_scroll(st, rows, -page);
        break;
    case HELP_PAGE_DOWN:
        help_scroll(st, rows, +page);
        break;
    case HELP_TOP:
        help_scroll(st, rows, -(1 << 20));
        break;
    case HELP_BOTTOM:
        help_scroll(st, rows, 1 << 20);
        break;
    case HELP_CLOSE:
        st->help_open = false;
        break;
    default:
        break;
    }
    return true; /* the help takes every key while it shows */
}

bool ui_help_mouse(struct ui_state *st, int rows, const MEVENT *ev)
{
    if (ev->bstate & BUTTON4_PRESSED)
        help_scroll(st, rows, -3);
    else if (ev->bstate & UI_BUTTON5)
        help_scroll(st, rows, +3);
    return true;
}

/* ---- the help screen, written from the key tables --------------------------------------- */

/* One line of the help screen: a heading, a key and its text, or a gap. */
struct help_line {
    const char *key, *text;
    bool heading;
};

static const char *const mode_heading[] = {
    [UI_KEYS_ANY] = "Everywhere",
    [UI_KEYS_BROWSE] = "Browsing the stages",
    [UI_KEYS_FOCUS] = "With the cell cursor (after Tab)",
    [UI_KEYS_LESSON] = "In a lesson (L opens one)",
    [UI_KEYS_TEACH] = "Teaching: presenting, autoplay, themes, pictures",
};

/* How autoplay, e and a replay behave, under the teaching keys. */
static const struct help_line teach_help[] = {
    {"", "autoplay: the next lesson step (a checkpoint shows", false},
    {"", "its answer, then goes on), else the next stage,", false},
    {"", "round and round; --autoplay SECONDS starts with it", false},
    {"", "e writes mha-<stage>-<n>.svg here, never over a file", false},
    {"during --replay", "any key pauses / plays on, Esc stops it, q quits", false},
};

static const struct help_line more_help[] = {
    {NULL, NULL, false},
    {NULL, "Mouse (where the terminal reports it; --no-mouse leaves it to the terminal)", true},
    {"click", "a stage in the bar: go there; a number: explain it", false},
    {"click", "a lesson in the list (L): open it", false},
    {"wheel", "scroll, as ↑ ↓ do (over the text pane: as J K)", false},
    {NULL, NULL, false},
    {NULL, "Leaving", true},
    {"q Esc", "close the help, a pop-up, the lesson list or", false},
    {"", "the explain panel; leave the presenter's layout;", false},
    {"", "on the main screen q quits; while a checkpoint", false},
    {"", "waits for a number, or while recording, q asks", false},
    {"", "for a second q (one question for each q)", false},
};

#define HELP_MAX 256
#define HELP_WORDS 54 /* the columns a key's words have at 80 columns */

/* How many bytes of text fit in HELP_WORDS columns, cut after a whole word
 * (all of it when it fits; its first word when no word fits). */
static size_t help_fit(const char *text)
{
    char part[256];
    size_t fit = 0;
    for (size_t i = 0;; i++) {
        if (text[i] != ' ' && text[i] != '\0')
            continue;
        snprintf(part, sizeof part, "%.*s", (int)i, text);
        if (fit > 0 && ui_text_width(part, true) > HELP_WORDS)
            return fit;
        fit = i;
        if (text[i] == '\0')
            return fit;
    }
}

/* The lines of out (n of them) with the lists their words name written
 * out from the tables ("next theme: {themes|, }"), and a key's words wider
 * than HELP_WORDS carried on lines of their own under it: a list grows
 * with its table, never past the help's edge.  Returns the number of
 * lines (at most max). */
static int help_expand(struct help_line *out, int n, int max, char labels[][48], int nl,
                       char texts[][96])
{
    struct help_line in[HELP_MAX];
    memcpy(in, out, (size_t)n * sizeof *out);
    int m = 0;
    for (int i = 0; i < n && m < max; i++) {
        struct help_line l = in[i];
        if (l.key && strchr(l.key, '{') && nl < max) /* "0 … {last_stage}" */
            l.key = ui_words_expand(l.key, labels[nl++], 48);
        if (!l.key || !l.text ||
            (!strchr(l.text, '{') && ui_text_width(l.text, true) <= HELP_WORDS)) {
            out[m++] = l;
            continue;
        }
        char full[256];
        const char *rest = ui_words_expand(l.text, full, sizeof full);
        while (*rest && m < max) {
            const size_t fit = help_fit(rest);
            snprintf(texts[m], 96, "%.*s", (int)fit, rest);
            out[m] = (struct help_line){l.key, texts[m], false};
            m++;
            l.key = ""; /* the rest under the same key */
            for (rest += fit; *rest == ' ';)
                rest++;
        }
    }
    return m;
}

/* Lay the help out into out (room for max); returns the number of lines. */
static int help_layout(struct help_line *out, int max, char labels[][48], char texts[][96])
{
    int n = 0, nl = 0;
    static const enum ui_key_mode order[] = {UI_KEYS_BROWSE, UI_KEYS_FOCUS, UI_KEYS_LESSON,
                                             UI_KEYS_ANY, UI_KEYS_TEACH};
    for (int m = 0; m < 5; m++) {
        if (n + 2 < max) {
            if (n > 0)
                out[n++] = (struct help_line){NULL, NULL, false};
            out[n++] = (struct help_line){NULL, mode_heading[order[m]], true};
        }
        for (int i = 0; i < ui_key_count && n < max; i++) {
            const struct ui_key_binding *b = &ui_key_table[i];
            if (b->mode != order[m])
                continue;
            /* bindings with the same text in a row share one line */
            if (n > 0 && out[n - 1].text && !out[n - 1].heading &&
                strcmp(out[n - 1].text, b->help) == 0 && nl > 0) {
                size_t len = strlen(labels[nl - 1]);
                snprintf(labels[nl - 1] + len, 48 - len, "  %s", b->label);
                continue;
            }
            snprintf(labels[nl], 48, "%s", b->label);
            out[n++] = (struct help_line){labels[nl], b->help, false};
            nl++;
        }
        const int teach = (int)(sizeof teach_help / sizeof teach_help[0]);
        for (int i = 0; order[m] == UI_KEYS_TEACH && i < teach && n < max; i++)
            out[n++] = teach_help[i];
    }
    /* the keys of the modes over the main screen, each from its table (a
     * checkpoint takes the keys of its answer before the table above does) */
    for (int t = 0; t < ui_keymap_count; t++) {
        const struct ui_keymap *km = ui_keymaps[t];
        if (n + 2 < max) {
            out[n++] = (struct help_line){NULL, NULL, false};
            out[n++] = (struct help_line){NULL, km->heading, true};
        }
        for (int i = 0; i < km->n && n < max; i++)
            if (km->rows[i].label)
                out[n++] = (struct help_line){km->rows[i].label, km->rows[i].help, false};
    }
    if (n + 2 < max) {
        out[n++] = (struct help_line){NULL, NULL, false};
        out[n++] =
            (struct help_line){NULL, "Commands (type : first, Enter runs, Esc cancels)", true};
    }
    for (int i = 0; i < ui_cmd_count && n < max; i++)
        out[n++] = (struct help_line){ui_cmd_table[i].usage, ui_cmd_table[i].help, false};
    /* the mouse, and how q and Esc behave over the main screen */
    const int extra = (int)(sizeof more_help / sizeof more_help[0]);
    for (int i = 0; i < extra && n < max; i++)
        out[n++] = more_help[i];
    return help_expand(out, n, max, labels, nl, texts);
}

int ui_help_lines(void)
{
    struct help_line lines[HELP_MAX];
    char labels[HELP_MAX][48], texts[HELP_MAX][96];
    return help_layout(lines, HELP_MAX, labels, texts);
}

int ui_help_heading_line(const char *heading)
{
    struct help_line lines[HELP_MAX];
    char labels[HELP_MAX][48], texts[HELP_MAX][96];
    const int n = help_layout(lines, HELP_MAX, labels, texts);
    for (int i = 0; i < n; i++)
        if (lines[i].heading && lines[i].text && strcmp(lines[i].text, heading) == 0)
            return i;
    return 0;
}

bool ui_help_line(int i, char *key, size_t kn, char *text, size_t tn)
{
    struct help_line lines[HELP_MAX];
    char labels[HELP_MAX][48], texts[HELP_MAX][96];
    const int n = help_layout(lines, HELP_MAX, labels, texts);
    if (i < 0 || i >= n)
        return false;
    snprintf(key, kn, "%s", lines[i].key ? lines[i].key : "");
    snprintf(text, tn, "%s", lines[i].text ? lines[i].text : "");
    return true;
}

void ui_help_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th, int rows,
                  int cols)
{
    struct help_line lines[HELP_MAX];
    char labels[HELP_MAX][48], texts[HELP_MAX][96];
    const int n = help_layout(lines, HELP_MAX, labels, texts);
    werase(win);
    ui_pane_title(win, "mha-explorer: keys and commands", cols, th);
    const int width = cols < 84 ? cols - 2 : 82;
    const int x = (cols - width) / 2;
    const int body = rows - 2;
    for (int i = 0; i < body && st->help_scroll + i < n; i++) {
        const struct help_line *l = &lines[st->help_scroll + i];
        const int y = 1 + i;
        if (l->heading) {
            ui_put(win, y, x, l->text, width, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
        } else if (l->key) {
            /* keys that share a line are two spaces apart, one where they
             * would not fit (the arrows' ASCII names, Up and Down, are wider) */
            char key[48];
            snprintf(key, sizeof key, "%s", l->key);
            if (ui_text_width(key, th->utf8) > 20) {
                char *o = key;
                for (const char *k = key; *k; k++)
                    if (!(k[0] == ' ' && k[1] == ' '))
                        *o++ = *k;
                *o = '\0';
            }
            ui_put(win, y, x + 2, key, 21, ui_role_attr(th, UI_ROLE_HELP_KEY), th->utf8);
            ui_put(win, y, x + 24, l->text, width - 24, 0, th->utf8);
        }
    }
    char foot[160], hint[128];
    snprintf(foot, sizeof foot, "%s%s", ui_keymap_hint(&ui_keymap_help, hint, sizeof hint),
             st->help_scroll + body < n ? " (more below)" : "");
    ui_put(win, rows - 1, x, foot, width, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    wattrset(win, 0);
    wnoutrefresh(win);
}
