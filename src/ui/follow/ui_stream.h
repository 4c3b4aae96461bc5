/* ui_stream.h - the explorer's keys as a stream: a recording written
 * (--record, ui_record.c), a teacher's recording followed as it grows
 * (--follow) or a recording replayed (--replay), ui_follow.c.  The loop
 * that applies the teacher's keys and state lines is above, in
 * app/ui_follow.h. */
#ifndef UI_STREAM_H
#define UI_STREAM_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "ui/train/ui_train.h"

struct recording;
struct rec_state;

struct ui_app;
struct ui_autoplay;
struct ui_lessons;
struct ui_stream;
struct ui_state;

/* Once the terminal is up (ui_record.c): a recording's first lines (the
 * options, the lesson's step, the terminal's size), and a replay's note
 * when its terminal differs or its last line was cut short: true when it
 * said one (the message line may need more lines). */
bool ui_record_begin(struct ui_app *app);

/* A recording that could not be written: a key, its failure said and
 * marked for good in the status line (after what buf holds). */
void ui_record_write(struct ui_app *app, double t, int code);

/* A mouse event to the recording (a click or the wheel; others are not
 * written), with where it happened. */
void ui_record_mouse(struct ui_app *app, double t, const MEVENT *ev);

/* Following (ui_follow.c; the teacher's keys are applied in app/ui_follow.h):
 * the status words. */
void ui_follow_status(const struct ui_stream *stream, double now, char *buf, size_t n);

/* The teacher's clock in seconds (following), or the follower's own
 * clock carried on from it (exploring). */
double ui_follow_clock(const struct ui_stream *stream, double now);

/* The session clock the training ticks follow, in ms as a recording writes
 * times: a replay's own clock while one plays, the teacher's (or one's own
 * carried on from it) while following, else since the screen came up. */
long ui_train_session_ms(const struct ui_stream *stream, double now);

/* A follower who detaches, or a replay that stopped or finished: the
 * student's own progress is read now into les and kept from here on (a
 * warning reading it is said in st). */
void ui_viewer_own(struct ui_lessons *les, struct ui_state *st);

/* The state of the screen as a state line carries it, and the line for
 * what changed since the last one, to the recording (ui_record.c).  t < 0:
 * right after a key, at its time; else a move no key made (autoplay, the
 * training), t seconds into the recording, written after a "# at t". */
void ui_record_state(struct ui_app *app, double t);
/* Where the screen is, as a state line names it. */
void ui_record_state_now(const struct ui_app *app, struct rec_state *s);

/* A follower or a replay of a recording with state lines: autoplay's moves
 * come as the teacher's state, not from a timer of its own. */
bool ui_autoplay_is_teachers(const struct ui_stream *stream);

/* The recording's "# at" lines, every REC_MARK_EVERY seconds without a
 * line, and its "# end" when the explorer closes (ui_record.c). */
void ui_record_tick(struct ui_app *app, double now);
void ui_record_end(struct ui_app *app);

/* The mouse event a recording's REC_KEY_CLICK / _WHEEL_UP / _WHEEL_DOWN at
 * (y, x) stands for. */
MEVENT ui_record_mouse_event(int key, int y, int x);
void ui_record_status(const struct ui_stream *stream, char *buf, size_t n);
/* What plays by itself at now (ui_play_clock), for the status lines:
 * autoplay's or the replay's words (ui_play_status_text), then the
 * recording's and the follower's (ui_follow.c). */
void ui_stream_play_status(const struct ui_stream *stream, const struct ui_autoplay *autoplay,
                           double now, char *buf, size_t n);

/* The teacher's training run in snapshots (ui_watch.c).  Recording: the
 * run's new steps, evaluations and model (at most every REC_SNAP_EVERY
 * seconds, and at once when it pauses or stops), the checkpoint scrubbed
 * to, before the state line that names them. */
int ui_record_snaps(struct ui_app *app); /* 0, or -1 on a write error (errno) */
/* What the training's ticks follow at ms on the session clock
 * (train/ui_train.h's struct ui_train_tick), read off the stream. */
struct ui_train_tick ui_train_tick_of(const struct ui_stream *stream, long ms);
/* The run on screen is the teacher's, watched (a follower who has not
 * detached, a replay, of a recording with snapshots). */
bool ui_train_watching(const struct ui_stream *stream);
/* The snapshots of rec after the events played so far and at or before
 * ms on the session clock, from *next on, into the screen's run (the
 * model from the last of each pane only: the stale ones are skipped).
 * True when anything changed. */
bool ui_watch_apply(struct ui_app *app, const struct recording *rec, int *next, int played,
                    long ms);
/* The training run's part of the teacher's state (a follower, a replay):
 * its pause and the checkpoint shown. */
void ui_watch_state(struct ui_app *app, const struct rec_state *s);

/* :class (its handler is in commands/ui_commands.c): the students'
 * command for the session stream records, said in st (ui_follow.c). */
int ui_follow_class(struct ui_state *st, const struct ui_stream *stream);

#endif
