/* ui_play.h - what plays by itself: autoplay (the next lesson step, or the
 * next stage, every few seconds) and the replay of a recorded session, and
 * the keys of a recording as curses knows them.
 *
 * No signals and no threads: the input loop asks how long it may wait for
 * a key (ui_play_wait_ms), waits that long with wtimeout, and when no key
 * came, asks what is due.  Times are seconds on a monotonic clock that the
 * caller reads, so everything here can be tested without a terminal. */
#ifndef UI_PLAY_H
#define UI_PLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "io/record.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_state.h"

/* Seconds on a monotonic clock. */
double ui_play_clock(void);

/* The interval a that starts autoplay uses when --autoplay gave none. */
#define UI_AUTOPLAY_DEFAULT 4.0

struct ui_autoplay {
    bool on;         /* advancing by itself */
    bool paused;     /* stopped by a key: the status line says "paused" */
    double interval; /* seconds between moves */
    double due;      /* when the next move is due */
};

/* Start (or resume) with the next move one interval from now. */
void ui_autoplay_start(struct ui_autoplay *a, double now);
/* Stop: paused (a key stopped it) or off (a asked, or the end). */
void ui_autoplay_stop(struct ui_autoplay *a, bool paused);

/* What a move does. */
enum ui_move {
    UI_MOVE_WAIT,   /* not due yet */
    UI_MOVE_SCROLL, /* the rest of the step's text (the caller scrolls the pane) */
    UI_MOVE_REVEAL, /* the checkpoint's answer shows, answered by no one */
    UI_MOVE_STEP,   /* the next step of the lesson */
    UI_MOVE_STAGE,  /* the next stage, from Output round to Input */
    UI_MOVE_END     /* the last step was shown: autoplay stops */
};

/* The next move given what is on screen: a lesson open or not, text of the
 * step below the pane's end, its checkpoint still asking, its last step. */
enum ui_move ui_autoplay_next(bool lesson, bool text_below, bool quiz_asking, bool last_step);

/* The move due at now, made on the state (all but UI_MOVE_SCROLL, which is
 * the caller's); the next one is due an interval later, or autoplay stops
 * after UI_MOVE_END with a message.  UI_MOVE_WAIT when nothing is due. */
enum ui_move ui_autoplay_tick(struct ui_autoplay *a, struct ui_lessons *ls, struct ui_state *st,
                              bool text_below, double now);

/* ---- replay -------------------------------------------------------------------------- */

struct ui_replay {
    const struct recording *rec; /* the caller's; NULL: no replay */
    char name[256];              /* the file, for messages */
    double speed;                /* times are divided by it */
    double start;                /* when time 0 of the recording was, pauses added */
    double paused_at;
    bool paused;
    int next;    /* the next event */
    bool active; /* neither finished nor stopped */
};

void ui_replay_start(struct ui_replay *r, const struct recording *rec, const char *name,
                     double speed, double now);
/* The next key (a rec key) when it is due at now: true and *key. */
bool ui_replay_due(struct ui_replay *r, double now, int *key);
/* Pause, or go on from where it paused. */
void ui_replay_toggle(struct ui_replay *r, double now);
/* Stop for good (Esc). */
void ui_replay_stop(struct ui_replay *r);
/* Where the replay is in the recording's time (seconds) at now. */
double ui_replay_time(const struct ui_replay *r, double now);
/* True once every key was played. */
bool ui_replay_finished(const struct ui_replay *r);

/* Milliseconds the input loop may wait for a key before something is due
 * (at most cap). */
int ui_play_wait_ms(const struct ui_autoplay *a, const struct ui_replay *r, double now, int cap);

/* "autoplay 2s", "paused", "replay 3/20", "replay paused" or "". */
void ui_play_status_text(const struct ui_autoplay *a, const struct ui_replay *r, char *buf,
                         size_t n);

/* ---- keys of a recording ------------------------------------------------------------- */

/* A key as wget_wch gives it (a character when is_char, else a curses key
 * code) as a recording writes it (enum rec_key or a code point); -1 for
 * keys a recording has no name for (mouse events, F2...). */
int ui_rec_from_curses(int key, bool is_char);
/* A recording's key back as wget_wch would give it; false for none. */
bool ui_rec_to_curses(int rec, int *key, bool *is_char);

#endif
