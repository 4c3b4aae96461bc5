/* ui_keymap.h - a mode's keys as a table: the keys, the mode's action, the
 * help screen's words and the hint line's.  Each mode above the main screen
 * (the help, the lesson list, the command line, pop-ups, the explain panel,
 * the presenter's layout, a checkpoint, the training screen) looks its keys
 * up in its own table and switches on the action found; the help screen and
 * the hint lines are written from the same rows, so what a key does and
 * what the help says it does cannot drift apart.  The main screen's table
 * (ui_keys.h) has modes of its own within it and is kept apart. */
#ifndef UI_KEYMAP_H
#define UI_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/state/ui_keys.h"

struct ui_keymap_row {
    int keys[UI_KEY_MAX_KEYS]; /* key codes as ui_mode_keycode gives them, 0-terminated */
    const char *label;         /* how the help writes the keys; NULL: on the line above */
    int action;                /* the mode's own action */
    const char *help;          /* what they do (help screen); NULL with label NULL */
    const char *hint;          /* the mode's hint line ("↑ ↓ choose"), or NULL */
};

struct ui_keymap {
    const char *heading; /* the help screen's heading for the table */
    const struct ui_keymap_row *rows;
    int n;
};

#define UI_KEYMAP(heading, rows)                                                                   \
    {                                                                                              \
        (heading), (rows), (int)(sizeof(rows) / sizeof((rows)[0]))                                 \
    }

/* The row that binds key, or NULL. */
const struct ui_keymap_row *ui_keymap_find(const struct ui_keymap *m, int key);
/* The action bound to key, or none when it is not bound. */
int ui_keymap_action(const struct ui_keymap *m, int key, int none);
/* The first key bound twice in m, with its two rows; 0 when every key is
 * bound once. */
int ui_keymap_find_double(const struct ui_keymap *m, const struct ui_keymap_row **first,
                          const struct ui_keymap_row **second);
/* The hint line: the rows' hints joined by " · " into buf (n bytes). */
char *ui_keymap_hint(const struct ui_keymap *m, char *buf, size_t n);
/* The help's line for row i of m: the label with those of the rows after
 * it that have none; false when the row shares the line above. */
bool ui_keymap_help_line(const struct ui_keymap *m, int i, char *label, size_t n,
                         const char **text);

/* The names of the main screen's keys that reach act (ui_key_lookup with
 * focus and lesson finds act's row for them), leaving out those taken(key,
 * ctx) says a mode in front takes (taken NULL: none), joined by spaces into
 * buf (n bytes); "" when no key reaches it.  Hints and markers name keys
 * with it, so they never name one that does something else. */
char *ui_key_names_for(enum ui_action act, bool focus, bool lesson,
                       bool (*taken)(int key, const void *ctx), const void *ctx, char *buf,
                       size_t n);

/* How the help writes one key ("←", "Enter", "PgUp", "^U", "q"), into buf. */
const char *ui_key_name(int key, char *buf, size_t n);
/* True when label names key: as a word of it ("Enter" for '\r' too), or
 * within a range "0 … 6" written in it. */
bool ui_key_label_names(const char *label, int key);

#endif
