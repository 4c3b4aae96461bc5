/* ui_walk.h - a lesson walked step by step off screen (ui_walk.c), for the
 * test that what each step names is on screen. */
#ifndef UI_WALK_H
#define UI_WALK_H

struct ui_app;

/* Show every step of the open lesson on the current (off-screen) screen,
 * read it back and print a line for each thing a step names that is not
 * on it, then a summary line.  Returns 1 when one was missing, else 0. */
int ui_walk_lesson(struct ui_app *app);

#endif
