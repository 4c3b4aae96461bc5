/* ui_mode.h - the explorer's modes as a small stack of objects.
 *
 * The main screen (stages, views, lessons) is the bottom of the stack.
 * Above it lie the modes that are open, in the order they were opened: the
 * training screen, the presenter's layout, the explain panel, a checkpoint
 * waiting for an answer, the lesson list, the ':' command line, a pop-up,
 * the help screen.  A key goes to the top mode first; a mode that does not
 * use it passes it down.  Drawing goes the other way: from the highest mode
 * that covers the whole screen (or the main screen) up, each mode drawing
 * over the ones below.  q and Esc close the top overlay or leave the top
 * mode; only on the main screen does q quit.
 *
 * A mode is open while its open() says so: the stack follows the state
 * (ui_modes_sync), so whatever opens a mode (a key, a ':' command, a lesson
 * scene) needs to know nothing about the stack.
 *
 * To add a mode (a training screen, say):
 *   1. write its work in the folder of what it holds (panes/, commands/,
 *      train/: panes/ui_mode_panes.c has the small ones) as functions on
 *      the part of the app it reads and changes (struct ui_state, the
 *      lessons, the theme, a window, a struct of its own: the pop-up's
 *      struct ui_popup, the training screen's struct ui_train_keys), never
 *      on struct ui_app: its open, key, mouse and draw;
 *   2. bind it in app/ui_mode_parts.c: a `const struct ui_mode
 *      ui_mode_<name>` whose callbacks (the only ones given the app) hand
 *      each function its parts, and keep the mode's state in struct ui_app
 *      (modes/ui_app.h) or its part's struct (modes/ui_parts.h);
 *   3. give it a key table (ui_keymap.h: keys, action, help words, hint)
 *      that its key function looks keys up in and switches on, declare the
 *      table in modes/ui_keymaps.h and add it to ui_keymaps[] in
 *      panes/ui_mode_help.c: the help screen shows it from there;
 *   4. declare the mode in app/ui_modes.h, add it to ui_mode_registry[] in
 *      app/ui_modes.c, and a new file to ui_src in src/ui/meson.build.
 * tests/ui/test_ui_keymap.c checks that no key is bound twice in one mode's
 * table, that the help names every bound key, and that it fits 80 columns. */
#ifndef UI_MODE_H
#define UI_MODE_H

#include <curses.h>
#include <stdbool.h>

struct ui_app;

struct ui_mode {
    const char *name;
    /* Open now?  (NULL: always; only the main screen.) */
    bool (*open)(const struct ui_app *app);
    /* One key (is_char: a character, else a curses key code): true when
     * used; false passes it to the mode below. */
    bool (*key)(struct ui_app *app, int key, bool is_char);
    /* A mouse event at screen (y, x): true when used.  NULL: passed down. */
    bool (*mouse)(struct ui_app *app, const MEVENT *ev);
    /* Draw over the modes below (NULL: the mode only changes how the
     * screen below is laid out, as the presenter's layout does). */
    void (*draw)(const struct ui_app *app);
    /* Covers the whole screen: the modes below are not drawn. */
    bool covers;
};

#define UI_MODE_MAX 12

/* The stack: modes[0] is the main screen. */
struct ui_mode_stack {
    const struct ui_mode *modes[UI_MODE_MAX];
    int n;
};

/* The key as the key tables see it: a character that shares its number
 * with a curses key code (U+0101 and up) is no key there: 0. */
static inline int ui_mode_keycode(int key, bool is_char)
{
    return is_char && key >= KEY_MIN ? 0 : key;
}

/* The wheel turned towards the user (ncurses with the five-button mouse). */
#if defined(BUTTON5_PRESSED)
#define UI_BUTTON5 BUTTON5_PRESSED
#else
#define UI_BUTTON5 0
#endif

#endif
