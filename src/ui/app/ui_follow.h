/* ui_follow.h - the teacher's keys applied while following (the loop calls
 * these; ui_follow_apply.c). */
#ifndef UI_FOLLOW_H
#define UI_FOLLOW_H

#include <stdbool.h>

#include "ui/app/ui_top.h"
#include "ui/follow/ui_stream.h"

/* The teacher's keys that came, applied while following (true when the
 * screen changed); a typed key, true when it was the follower's own (F,
 * the q that asks first). */
bool ui_follow_tick(struct ui_app *app, double now);
bool ui_follow_key(struct ui_app *app, int key, bool is_char, double now);
/* The teacher's state after `played` events of rec applied (the lesson
 * and its step, stage, view, presenter, autoplay, the example's settings,
 * the training run's snapshots) as far as the recording's clock `until`
 * (seconds; INFINITY: every one that came), from the state *next on, and
 * the layout again when it was: where the teacher's screen was. */
void ui_app_teacher_state(struct ui_app *app, const struct recording *rec, int *next, int played,
                          double until);
/* Event `played` - 1 of rec (the teacher's, or a replay's) played for what
 * it shows, then the teacher's state after it applied whether or not a new
 * one came: a key never takes the screen where the teacher's was not.  A
 * step the key turned here that the teacher's only read on stays, read to
 * its end. */
void ui_app_teacher_event(struct ui_app *app, const struct recording *rec, int *next, int played,
                          double until);

#endif
