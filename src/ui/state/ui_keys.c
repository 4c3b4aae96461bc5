/* ui_keys.c - the main screen's key table and its lookup (the help screen is written from it in
 * panes/ui_mode_help.c). */
#include "ui/state/ui_keys.h"

#include <curses.h> /* the key codes */
#include <stdio.h>
#include <string.h>

#include "engine/mha.h"

#define CTRL(c) ((c)&0x1f)

_Static_assert(MHA_STAGE_COUNT <= 10, "a digit key for every stage");

const struct ui_key_binding ui_key_table[] = {
    {{KEY_LEFT, 'h'}, "← h", UI_KEYS_BROWSE, UI_ACT_STAGE_PREV, "previous stage"},
    {{KEY_RIGHT, 'l'}, "→ l", UI_KEYS_BROWSE, UI_ACT_STAGE_NEXT, "next stage"},
    {UI_STAGE_KEYS, UI_STAGE_KEYS_LABEL, UI_KEYS_ANY, UI_ACT_STAGE_JUMP, "jump to a stage"},
    {{'+', '='}, "+ =", UI_KEYS_ANY, UI_ACT_HEADS_MORE, "more heads: next divisor of d_model"},
    {{'-', '_'}, "- _", UI_KEYS_ANY, UI_ACT_HEADS_FEWER, "fewer heads: previous divisor"},
    {{']'}, "]", UI_KEYS_ANY, UI_ACT_DMODEL_UP, "d_model up (heads follow to a divisor)"},
    {{'['}, "[", UI_KEYS_ANY, UI_ACT_DMODEL_DOWN, "d_model down"},
    {{'c'}, "c", UI_KEYS_ANY, UI_ACT_CAUSAL, "causal mask on / off"},
    {{'s'}, "s", UI_KEYS_ANY, UI_ACT_SCALE, "1/√d_k scaling on / off"},
    {{'r'}, "r", UI_KEYS_ANY, UI_ACT_RESEED, "new random numbers (next seed)"},
    {{'<', ','}, "< ,", UI_KEYS_ANY, UI_ACT_TEMP_DOWN, "a language model: temperature down"},
    {{'>', '.'}, "> .", UI_KEYS_ANY, UI_ACT_TEMP_UP, "a language model: temperature up"},
    {{'('}, "(", UI_KEYS_ANY, UI_ACT_TOP_P_DOWN, "a language model: top-p down (w's nucleus)"},
    {{')'}, ")", UI_KEYS_ANY, UI_ACT_TOP_P_UP, "... top-p up (1: every word)"},
    {{'w'}, "w", UI_KEYS_ANY, UI_ACT_WRITE, "a language model writes its next word"},
    {{'W'}, "W", UI_KEYS_ANY, UI_ACT_UNWRITE, "... takes the last word back"},
    {{'y'}, "y", UI_KEYS_ANY, UI_ACT_LAYER, "a model of layers: the next layer's attention"},
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
    {{'v'}, "v", UI_KEYS_ANY, UI_ACT_VIEW_CYCLE, "next view (after the last: the stage)"},
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
    {{'q', 'Q'}, "q Q", UI_KEYS_ANY, UI_ACT_QUIT, "quit (an overlay, a mode, a lesson: leave it)"},
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

/* ---- escape sequences ------------------------------------------------------------------ */

/* The sequences whose meaning is clear, as xterm, tmux, the Linux console
 * and rxvt send them (after ESC); any other means nothing. */
static const struct {
    const char *seq;
    int key;
} escapes[] = {
    {"[H", KEY_HOME},
    {"OH", KEY_HOME},
    {"[1~", KEY_HOME},
    {"[7~", KEY_HOME},
    {"[F", KEY_END},
    {"OF", KEY_END},
    {"[4~", KEY_END},
    {"[8~", KEY_END},
    {"[5~", KEY_PPAGE},
    {"[6~", KEY_NPAGE},
    {"[A", KEY_UP},
    {"OA", KEY_UP},
    {"[B", KEY_DOWN},
    {"OB", KEY_DOWN},
    {"[C", KEY_RIGHT},
    {"OC", KEY_RIGHT},
    {"[D", KEY_LEFT},
    {"OD", KEY_LEFT},
    {"[Z", KEY_BTAB},
    {"[200~", UI_ESC_PASTE_START},
    {"[201~", UI_ESC_PASTE_END},
};

bool ui_key_escape_string(char first)
{
    /* OSC, DCS, SOS, PM, APC */
    return first == ']' || first == 'P' || first == 'X' || first == '^' || first == '_';
}

bool ui_key_escape_begins(char first)
{
    /* CSI, SS3, SS2, the strings, any other C1 control written as ESC and
     * a capital (or @ [ \ ] ^ _), and the intermediate bytes of an nF
     * sequence (ESC ( B and the like) */
    return (first >= 0x20 && first <= 0x2f) || (first >= 0x40 && first <= 0x5f);
}

bool ui_key_escape_whole(const char *seq, size_t len)
{
    if (len == 0)
        return false;
    if (seq[0] == 'O' || seq[0] == 'N') /* SS3, SS2: one byte more */
        return len >= 2;
    if (seq[0] >= 0x20 && seq[0] <= 0x2f) { /* nF: intermediate bytes, then a final one */
        const unsigned char last = (unsigned char)seq[len - 1];
        return len >= 2 && (last < 0x20 || last > 0x2f);
    }
    if (seq[0] != '[')
        return true;
    if (len == 1)
        return false;
    /* CSI: parameter bytes 0x30-0x3F, intermediate bytes 0x20-0x2F, then
     * the final byte 0x40-0x7E; anything else ends it too */
    const unsigned char last = (unsigned char)seq[len - 1];
    return last < 0x20 || last > 0x3f;
}

int ui_key_escape(const char *seq, size_t len)
{
    for (size_t i = 0; i < sizeof escapes / sizeof escapes[0]; i++)
        if (strlen(escapes[i].seq) == len && !memcmp(escapes[i].seq, seq, len))
            return escapes[i].key;
    return UI_ESC_NOTHING;
}
