/* ui_top.h - what the top of the explorer does with struct ui_app
 * (modes/ui_app.h): the layout and the view derived from the state, keys and
 * clicks down the modes, the loop, and the whole screen drawn.  The modes
 * below never call these: what they change, the loop lays out and draws. */
#ifndef UI_APP_TOP_H
#define UI_APP_TOP_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "ui/modes/ui_app.h"

/* Recompute the layout for rows x cols (recreating the windows when the
 * size changed) and the current view. */
void ui_app_reflow(struct ui_app *app, int rows, int cols);

/* Handle one key: a character (is_char, as wget_wch gives it) or a curses
 * key code.  May change the state; reflows. */
void ui_app_key(struct ui_app *app, int key, bool is_char);

/* Autoplay's move when one is due at now (ui_play_clock); true when the
 * screen changed. */
bool ui_app_autoplay(struct ui_app *app, double now);

/* The curses settings of the real screen and the benchmark's (after
 * newterm), and the input loop on the real one (ui_loop.c): the process
 * exit status. */
void ui_app_setup_curses(struct ui_app *app);
int ui_app_interactive(struct ui_app *app);

/* After delscreen (ui_exit.c): free what ncurses keeps for the whole
 * process (its cache of parsed terminal strings), so that the sanitizer
 * builds' leak check sees only the program's own memory. */
void ui_release_curses(void);

/* The main screen's scroll action, lines down (up when negative), as the
 * arrow keys do it (the mouse wheel uses it). */
void ui_app_scroll_lines(struct ui_app *app, int lines);

/* The text pane's scroll (the lesson's text or the stage's), as J and K do it. */
void ui_app_scroll_lesson(struct ui_app *app, int lines);

/* A mouse event down the modes, then the layout, view and cursor again. */
void ui_app_mouse_event(struct ui_app *app, const MEVENT *ev);

/* The main screen's clicks (ui_mouse.c), and mouse reporting switched on
 * when app->mouse asks for it. */
bool ui_mouse_main(struct ui_app *app, const MEVENT *ev);
void ui_mouse_setup(struct ui_app *app);

/* A KEY_MOUSE from the input: the event read and passed down the modes. */
void ui_app_mouse(struct ui_app *app);

/* The main screen's windows (everything but the modes over it). */
void ui_app_draw_main(const struct ui_app *app);

/* The stage of the pipeline bar under column x, or -1 (ui_mouse.c). */
int ui_bar_stage_at(const struct ui_app *app, int x);

/* A key into the explorer as typed (resizes and clicks included), and a
 * recorded event played in: the training ticks before it, then the key or
 * the click; it never closes the explorer (ui_loop.c). */
void ui_app_feed(struct ui_app *app, int key, bool is_char);
struct rec_event;
void ui_app_play_event(struct ui_app *app, const struct rec_event *e);

/* Delete the windows (before endwin). */
void ui_app_free_windows(struct ui_app *app);

/* Draw everything into the windows and wnoutrefresh each (no doupdate). */
void ui_app_draw(const struct ui_app *app);

/* Put the cursor on a cell a lesson or --focus asked for, once the view's
 * blocks are known. */
void ui_app_apply_focus(struct ui_app *app);

/* The line a lesson's show puts over the numbers ("row now: head 0 → dogs
 * 1.00 · head 1 → cats 1.00": each head's largest number in the row, a
 * hidden cell as ?) into buf; false when there is none (ui_draw.c). */
bool ui_app_show_line(const struct ui_app *app, char *buf, size_t n);

/* The cell block i's window keeps in sight (ui_block_window's cursor):
 * the cursor's own; for a matrix beside the cursor's with as many rows,
 * the cursor's row (side by side they scroll together); for a matrix of the
 * lesson's show, the shown row; else none (-1).  The drawing and the mouse
 * read it (ui_draw.c). */
void ui_app_window_cell(const struct ui_app *app, int i, int *row, int *col);

/* After a change made without a key (a lesson's step shown from outside):
 * the layout again, the cursor where it may be and in sight. */
void ui_app_settle(struct ui_app *app);

#endif
