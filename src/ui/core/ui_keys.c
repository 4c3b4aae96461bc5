/* ui_keys.c - the key table, its lookup, and the help screen written from it. */
#include "ui/core/ui_keys.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "engine/mha.h"
#include "ui/core/ui_app.h"
#include "ui/core/ui_cmd.h"
#include "ui/core/ui_keymap.h"
#include "ui/core/ui_words.h"
#include "ui/widgets/ui_text.h"

#define CTRL(c) ((c)&0x1f)

/* The stage keys 0 … 6 below are one digit per stage of the stage table. */
_Static_assert(MHA_STAGE_COUNT == 7, "the stage keys ('0' … '6', \"0 … 6\") name every stage");

const struct ui_key_binding ui_key_table[] = {
    {{KEY_LEFT, 'h'}, "← h", UI_KEYS_BROWSE, UI_ACT_STAGE_PREV, "previous stage"},
    {{KEY_RIGHT, 'l'}, "→ l", UI_KEYS_BROWSE, UI_ACT_STAGE_NEXT, "next stage"},
    {{'0', '1', '2', '3', '4', '5', '6'},
     "0 … 6",
     UI_KEYS_ANY,
     UI_ACT_STAGE_JUMP,
     "jump to a stage"},
    {{'+', '='}, "+ =", UI_KEYS_ANY, UI_ACT_HEADS_MORE, "more heads: next divisor of d_model"},
    {{'-', '_'}, "- _", UI_KEYS_ANY, UI_ACT_HEADS_FEWER, "fewer heads: previous divisor"},
    {{']'}, "]", UI_KEYS_ANY, UI_ACT_DMODEL_UP, "d_model up (heads follow to a divisor)"},
    {{'['}, "[", UI_KEYS_ANY, UI_ACT_DMODEL_DOWN, "d_model down"},
    {{'c'}, "c", UI_KEYS_ANY, UI_ACT_CAUSAL, "causal mask on / off"},
    {{'s'}, "s", UI_KEYS_ANY, UI_ACT_SCALE, "1/√d_k scaling on / off"},
    {{'r'}, "r", UI_KEYS_ANY, UI_ACT_RESEED, "new random numbers (next seed)"},
    {{'<', ','}, "< ,", UI_KEYS_ANY, UI_ACT_TEMP_DOWN, "a language model: temperature down"},
    {{'>', '.'}, "> .", UI_KEYS_ANY, UI_ACT_TEMP_UP, "a language model: temperature up"},
    {{':'},
     ":",
     UI_KEYS_ANY,
     UI_ACT_COMMAND,
     "command line (see below): ↑ ↓ history, Tab completes"},
    {{'/'}, "/", UI_KEYS_ANY, UI_ACT_FIND, "find a token: /cat puts the cursor on its row"},
    {{'n'}, "n", UI_KEYS_ANY, UI_ACT_FIND_NEXT, "the next row that matches the last /word"},
    {{'\t'}, "Tab", UI_KEYS_ANY, UI_ACT_FOCUS_NEXT, "point at numbers / next matrix"},
    {{KEY_BTAB}, "S-Tab", UI_KEYS_ANY, UI_ACT_FOCUS_PREV, "previous matrix"},
    {{KEY_UP, 'k'}, "↑ k", UI_KEYS_FOCUS, UI_ACT_UP, "move the cell cursor"},
    {{KEY_DOWN, 'j'}, "↓ j", UI_KEYS_FOCUS, UI_ACT_DOWN, "move the cell cursor"},
    {{KEY_LEFT, 'h'}, "← h", UI_KEYS_FOCUS, UI_ACT_LEFT, "move the cell cursor"},
    {{KEY_RIGHT, 'l'}, "→ l", UI_KEYS_FOCUS, UI_ACT_RIGHT, "move the cell cursor"},
    {{KEY_HOME, 'g'}, "Home g", UI_KEYS_FOCUS, UI_ACT_HOME, "first cell of the matrix"},
    {{KEY_END, 'G'}, "End G", UI_KEYS_FOCUS, UI_ACT_END, "last cell of the matrix"},
    {{KEY_ENTER, '\n', '\r'},
     "Enter",
     UI_KEYS_ANY,
     UI_ACT_EXPLAIN,
     "explain the number under the cursor"},
    {{KEY_UP, 'k'}, "↑ k", UI_KEYS_BROWSE, UI_ACT_UP, "scroll the visualisation"},
    {{KEY_DOWN, 'j'}, "↓ j", UI_KEYS_BROWSE, UI_ACT_DOWN, "scroll the visualisation"},
    {{KEY_PPAGE}, "PgUp", UI_KEYS_ANY, UI_ACT_PAGE_UP, "page up"},
    {{KEY_NPAGE, ' '}, "PgDn Space", UI_KEYS_ANY, UI_ACT_PAGE_DOWN, "page down"},
    {{'v'}, "v", UI_KEYS_ANY, UI_ACT_VIEW_CYCLE, "next view: stage, {views|, }"},
    {{'L'}, "L", UI_KEYS_ANY, UI_ACT_LESSONS, "the lessons: pick one, see your progress"},
    {{'P'}, "P", UI_KEYS_TEACH, UI_ACT_PRESENT, "presenter mode: big title, roomy numbers"},
    {{'a'}, "a", UI_KEYS_TEACH, UI_ACT_AUTOPLAY, "autoplay on / off; any other key pauses it"},
    {{'T'}, "T", UI_KEYS_TEACH, UI_ACT_THEME, "next theme: {themes|, }"},
    {{'e'}, "e", UI_KEYS_TEACH, UI_ACT_EXPORT, "write the stage as SVG (a view: its table)"},
    {{' '},
     "Space",
     UI_KEYS_LESSON,
     UI_ACT_LESSON_NEXT,
     "read on: the rest of the step, then the next step"},
    {{KEY_BACKSPACE, 127, 8},
     "Backspace",
     UI_KEYS_LESSON,
     UI_ACT_LESSON_PREV,
     "previous step (its scene replayed)"},
    {{KEY_NPAGE}, "PgDn", UI_KEYS_LESSON, UI_ACT_LESSON_PAGE_DOWN, "lesson text: page down"},
    {{KEY_PPAGE}, "PgUp", UI_KEYS_LESSON, UI_ACT_LESSON_PAGE_UP, "lesson text: page up"},
    {{'J'}, "J", UI_KEYS_ANY, UI_ACT_LESSON_LINE_DOWN, "text pane (stage, lesson, explain): down"},
    {{'K'}, "K", UI_KEYS_ANY, UI_ACT_LESSON_LINE_UP, "text pane (stage, lesson, explain): up"},
    {{27},
     "Esc",
     UI_KEYS_ANY,
     UI_ACT_BACK,
     "close the panel / leave the numbers / leave the lesson"},
    {{'?', KEY_F(1)}, "? F1", UI_KEYS_ANY, UI_ACT_HELP, "this help"},
    {{CTRL('l')}, "^L", UI_KEYS_ANY, UI_ACT_REDRAW, "redraw the screen"},
    {{'q', 'Q'}, "q Q", UI_KEYS_ANY, UI_ACT_QUIT, "quit (over an overlay or a mode: leave it)"},
};
const int ui_key_count = (int)(sizeof ui_key_table / sizeof ui_key_table[0]);

static bool binding_has(const struct ui_key_binding *b, int key)
{
    for (int i = 0; i < UI_KEY_MAX_KEYS && b->keys[i]; i++)
        if (b->keys[i] == key)
            return true;
    return false;
}

/* The table's modes as a key sees them: the teaching keys are bound everywhere. */
static enum ui_key_mode effective(enum ui_key_mode m)
{
    return m == UI_KEYS_TEACH ? UI_KEYS_ANY : m;
}

int ui_key_find_double(const struct ui_key_binding **first, const struct ui_key_binding **second)
{
    for (int i = 0; i < ui_key_count; i++)
        for (int j = i + 1; j < ui_key_count; j++) {
            const struct ui_key_binding *a = &ui_key_table[i], *b = &ui_key_table[j];
            const enum ui_key_mode ma = effective(a->mode), mb = effective(b->mode);
            /* the lesson's keys win over the others on purpose; browse and focus
             * never show at once */
            const bool clash =
                ma == mb || (ma == UI_KEYS_ANY && (mb == UI_KEYS_BROWSE || mb == UI_KEYS_FOCUS)) ||
                (mb == UI_KEYS_ANY && (ma == UI_KEYS_BROWSE || ma == UI_KEYS_FOCUS));
            for (int k = 0; clash && k < UI_KEY_MAX_KEYS && a->keys[k]; k++)
                if (binding_has(b, a->keys[k])) {
                    *first = a;
                    *second = b;
                    return a->keys[k];
                }
        }
    return 0;
}

const struct ui_key_binding *ui_key_lookup(int key, bool focus, bool lesson)
{
    const enum ui_key_mode order[] = {UI_KEYS_LESSON, focus ? UI_KEYS_FOCUS : UI_KEYS_BROWSE,
                                      UI_KEYS_ANY};
    for (int pass = lesson ? 0 : 1; pass < 3; pass++) {
        for (int i = 0; i < ui_key_count; i++) {
            const struct ui_key_binding *b = &ui_key_table[i];
            const enum ui_key_mode mode = b->mode == UI_KEYS_TEACH ? UI_KEYS_ANY : b->mode;
            if (mode == order[pass] && binding_has(b, key))
                return b;
        }
    }
    return NULL;
}

enum ui_action ui_key_action_in(int key, bool focus, bool lesson)
{
    const struct ui_key_binding *b = ui_key_lookup(key, focus, lesson);
    return b ? b->action : UI_ACT_NONE;
}

enum ui_action ui_key_action(int key, bool focus)
{
    return ui_key_action_in(key, focus, false);
}

/* ---- the help screen, written from the table above --------------------------------------- */

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
    {"", "waits for a number, q asks for a second q", false},
};

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
    /* the lists named in the words ("next theme: {themes|, }") from their tables */
    for (int i = 0; i < n; i++)
        if (out[i].text && strchr(out[i].text, '{'))
            out[i].text = ui_words_expand(out[i].text, texts[i], 96);
    return n;
}

#define HELP_MAX 256

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
            ui_put(win, y, x + 2, l->key, 20, ui_role_attr(th, UI_ROLE_HELP_KEY), th->utf8);
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
