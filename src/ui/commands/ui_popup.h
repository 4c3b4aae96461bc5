/* ui_popup.h - a pop-up over the screen: a command line shown whole (one
 * shell line per screen line, broken only between arguments, each line but
 * the last ending in " \" so it pastes as one command), and text under it.
 * q, Esc, Enter or Space close it. */
#ifndef UI_POPUP_H
#define UI_POPUP_H

#include <curses.h>
#include <stdbool.h>

#include "ui/draw/ui_text.h"

/* Break cmd into lines of at most width columns (the " \" after each line
 * but the last included) at spaces outside quotes; an argument longer than
 * a line gets a line of its own, cut between characters.  Fills at most
 * max lines; returns how many the command needs. */
int ui_popup_shell_lines(const char *cmd, int width, bool utf8, struct ui_line *lines, int max);

struct ui_popup;
struct ui_theme;
/* Show command in p (the pop-up takes it over and frees it when it
 * closes) with text under it; p is open while it holds a command. */
void ui_popup_open(struct ui_popup *p, const char *title, char *command, const char *text);
void ui_popup_close(struct ui_popup *p);

/* The pop-up as a mode (bound to the app's pop-up in app/ui_mode_parts.c): a
 * key (↑ ↓ scroll, q Esc Enter Space close; every key is taken while it
 * shows), a click (closes it), and the pop-up drawn over the middle of a
 * screen of rows x cols. */
bool ui_popup_key(struct ui_popup *p, int key, bool is_char);
bool ui_popup_mouse(struct ui_popup *p, const MEVENT *ev);
void ui_popup_draw(const struct ui_popup *p, const struct ui_theme *th, int rows, int cols);

/* OSC 52: ask the terminal to put text on the clipboard.  Only when
 * standard output is the terminal and TERM is neither empty nor "dumb";
 * returns true when the request was written. */
bool ui_clip_osc52(const char *text);
/* text (n bytes) in base64 into out (size outsz, NUL-terminated); returns
 * the length, or 0 when it does not fit. */
size_t ui_base64(const char *text, size_t n, char *out, size_t outsz);

#endif
