/* ui_views_of.h - the small views of the app the panes are given, made
 * here at the top (ui_views_of.c): the panes read what a view holds and
 * never struct ui_app. */
#ifndef UI_VIEWS_OF_H
#define UI_VIEWS_OF_H

#include <stddef.h>

#include "ui/modes/ui_app.h"
#include "ui/panes/ui_panes.h"

/* The modes in front of the main screen: the state, the lessons, and
 * whether the training screen shows (ui_front_takes reads it). */
struct ui_front ui_app_front(const struct ui_app *app);
/* The lesson pane's view: the lessons, the theme, the presenter's layout,
 * the focus and the front. */
struct ui_lesson_view ui_lesson_view_of(const struct ui_app *app);
/* The text pane's: the explain panel's (the state, the theme, the blocks
 * shown) and the lesson pane's. */
struct ui_side_view ui_side_view_of(const struct ui_app *app);
/* The message line's: the front, the theme and the training screen's hint. */
struct ui_msg_view ui_msg_view_of(const struct ui_app *app);

/* What plays by itself, for the status lines: "autoplay 2s", "paused",
 * "replay 3/20", "replay paused", or "" when nothing does. */
void ui_play_status(const struct ui_app *app, char *buf, size_t n);

#endif
