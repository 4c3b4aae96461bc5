/* ui_lesson_menu.h - the lesson list (L): every lesson with its steps and
 * the reader's progress, on the lessons (state/ui_lesson.h) and the screen's
 * state alone. */
#ifndef UI_LESSON_MENU_H
#define UI_LESSON_MENU_H

#include <curses.h>
#include <stdbool.h>

#include "ui/draw/ui_layout.h"
#include "ui/draw/ui_theme.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_state.h"

/* The lesson list: read the lessons (once), show it, handle its keys (r
 * restarts the selected lesson, its progress forgotten, at step 1; R twice
 * forgets every lesson's progress). */
void ui_lesson_menu_open(struct ui_lessons *ls, struct ui_state *st);
void ui_lesson_menu_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char);
/* Rows the list has (lessons, and "leave the lesson" while one is open). */
int ui_lesson_menu_rows(const struct ui_lessons *ls);
/* The list as a mode (open while ls->menu_open; app/ui_mode_parts.c binds
 * it): a key (it takes every one; the message line is cleared), and a
 * click or the wheel in its box (the layout's modal rectangle). */
bool ui_lesson_menu_mode_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char);
bool ui_lesson_menu_mouse(struct ui_lessons *ls, struct ui_state *st, const struct ui_rect *box,
                          const MEVENT *ev);
/* The row the list opens on: the first lesson not read to the end. */
int ui_lesson_menu_next(const struct ui_lessons *ls);

/* Progress marks of entry e: steps seen "0/7" .. "7/7 ✓"; and the
 * checkpoints right at the first try, "2/3" (under "first try"), or "". */
void ui_lesson_entry_marks(const struct ui_lessons *ls, const struct ui_lesson_entry *e, char *seen,
                           int seen_n, char *quiz, int quiz_n);

/* The lesson list, in the modal window. */
void ui_lesson_menu_draw(WINDOW *win, const struct ui_lessons *ls, const struct ui_theme *th);

#endif
