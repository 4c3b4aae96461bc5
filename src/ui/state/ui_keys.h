/* ui_keys.h - the key table.  One table drives both the key handling and
 * the help screen, so the two cannot disagree. */
#ifndef UI_KEYS_H
#define UI_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha.h" /* MHA_STAGE_COUNT */

/* When a binding applies. */
enum ui_key_mode {
    UI_KEYS_ANY,    /* always */
    UI_KEYS_BROWSE, /* the visualisation is not focused */
    UI_KEYS_FOCUS,  /* the cell cursor is in the visualisation */
    UI_KEYS_LESSON, /* a lesson is open (these win over the others) */
    UI_KEYS_TEACH   /* always, as UI_KEYS_ANY; a section of their own in the help */
};

enum ui_action {
    UI_ACT_NONE,
    UI_ACT_STAGE_PREV,
    UI_ACT_STAGE_NEXT,
    UI_ACT_STAGE_JUMP, /* the stage is the key's digit */
    UI_ACT_HEADS_MORE,
    UI_ACT_HEADS_FEWER,
    UI_ACT_DMODEL_UP,
    UI_ACT_DMODEL_DOWN,
    UI_ACT_CAUSAL,
    UI_ACT_SCALE,
    UI_ACT_RESEED,
    UI_ACT_TEMP_DOWN, /* < > a language model's temperature */
    UI_ACT_TEMP_UP,
    UI_ACT_TOP_P_DOWN, /* ( ) the top-p w draws at */
    UI_ACT_TOP_P_UP,
    UI_ACT_WRITE, /* w W a language model writes a word, or takes it back */
    UI_ACT_UNWRITE,
    UI_ACT_LAYER, /* y a model of layers: the next layer */
    UI_ACT_COMMAND,
    UI_ACT_FOCUS_NEXT,
    UI_ACT_FOCUS_PREV,
    UI_ACT_UP,
    UI_ACT_DOWN,
    UI_ACT_LEFT,
    UI_ACT_RIGHT,
    UI_ACT_PAGE_UP,
    UI_ACT_PAGE_DOWN,
    UI_ACT_HOME,
    UI_ACT_END,
    UI_ACT_EXPLAIN,
    UI_ACT_BACK,
    UI_ACT_HELP,
    UI_ACT_REDRAW,
    UI_ACT_VIEW_CYCLE,
    UI_ACT_LESSONS,
    UI_ACT_LESSON_NEXT,
    UI_ACT_LESSON_PREV,
    UI_ACT_LESSON_PAGE_UP,
    UI_ACT_LESSON_PAGE_DOWN,
    UI_ACT_LESSON_LINE_UP, /* J K: the text pane shown (lesson, stage text, explain panel) */
    UI_ACT_LESSON_LINE_DOWN,
    UI_ACT_THEME,
    UI_ACT_PRESENT,
    UI_ACT_AUTOPLAY,
    UI_ACT_EXPORT,
    UI_ACT_FIND,
    UI_ACT_FIND_NEXT,
    UI_ACT_QUIT
};

#define UI_KEY_MAX_KEYS 12

/* The stage keys: one digit per stage of the stage table, '0' up to the
 * last (the rest of the list 0, which ends it), and their label. */
#define UI_STAGE_DIGIT(i) (MHA_STAGE_COUNT > (i) ? '0' + (i) : 0)
#define UI_STAGE_KEYS                                                                              \
    {                                                                                              \
        UI_STAGE_DIGIT(0), UI_STAGE_DIGIT(1), UI_STAGE_DIGIT(2), UI_STAGE_DIGIT(3),                \
            UI_STAGE_DIGIT(4), UI_STAGE_DIGIT(5), UI_STAGE_DIGIT(6), UI_STAGE_DIGIT(7),            \
            UI_STAGE_DIGIT(8), UI_STAGE_DIGIT(9)                                                   \
    }
#define UI_STAGE_KEYS_LABEL "0 … {last_stage}"

struct ui_key_binding {
    int keys[UI_KEY_MAX_KEYS]; /* curses key codes, 0-terminated */
    const char *label;         /* how the help screen writes the keys */
    enum ui_key_mode mode;
    enum ui_action action;
    const char *help; /* what it does, for the help screen */
};

extern const struct ui_key_binding ui_key_table[];
extern const int ui_key_count;

/* The action key has in the given mode (lesson bindings win when a lesson
 * is open, then the focus or browse ones, then UI_KEYS_ANY ones);
 * UI_ACT_NONE when the key is not bound. */
enum ui_action ui_key_action_in(int key, bool focus, bool lesson);
/* The same outside a lesson. */
enum ui_action ui_key_action(int key, bool focus);

/* The first key bound twice in one mode of the table (a mode's own keys,
 * and the browse or focus keys against those bound everywhere, which they
 * would hide), with the two bindings; 0 when every key is bound once. */
int ui_key_find_double(const struct ui_key_binding **first, const struct ui_key_binding **second);

/* The binding that gave the action (NULL when none). */
const struct ui_key_binding *ui_key_lookup(int key, bool focus, bool lesson);

/* ---- escape sequences curses did not decode ----
 * Where a terminal's sequences are not in its terminfo entry (TERM=xterm-256color
 * inside tmux sends Home as ESC [ 1 ~), curses hands over ESC and the bytes
 * after it one by one.  The loop reads them whole (a CSI "ESC [ ... final"
 * or an SS3 "ESC O x", and the strings a terminal replies with) and asks
 * what they mean: a key they clearly stand for, from a table, or nothing
 * at all, never ESC and ordinary keys. */

/* What ui_key_escape answers besides a curses key code. */
enum {
    UI_ESC_NOTHING = 0,      /* a sequence that means nothing here (F-keys, modified
                                arrows, focus events, ...) */
    UI_ESC_PASTE_START = -1, /* bracketed paste: the text follows, up to */
    UI_ESC_PASTE_END = -2
};

/* A terminal's reply or a string it was made to send (OSC "ESC ] ... BEL",
 * DCS "ESC P ... ESC \\", SOS, PM, APC) begins with ESC and first: the
 * loop reads it whole, up to BEL or ESC \\ (or a pause), and drops it. */
bool ui_key_escape_string(char first);
/* first, after ESC, begins a sequence (CSI, SS3, SS2, a string, another C1
 * control, an nF sequence such as ESC ( B), never keys; any other byte
 * (a small letter, a digit) is a key typed after Esc or with Alt. */
bool ui_key_escape_begins(char first);
/* seq (len bytes, those after ESC) is a whole sequence, or cannot become
 * one (a byte that begins none): no more bytes belong to it. */
bool ui_key_escape_whole(const char *seq, size_t len);
/* The key code seq (after ESC) stands for: KEY_HOME, KEY_END, KEY_PPAGE,
 * KEY_NPAGE, an arrow, Shift-Tab; UI_ESC_PASTE_START / _END; or
 * UI_ESC_NOTHING. */
int ui_key_escape(const char *seq, size_t len);

#endif
