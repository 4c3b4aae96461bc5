/* ui_parts.h - the parts of the explorer that are not a layer's own: the
 * pop-up, the curses windows, what plays from or into a file (the stream)
 * and the training screen's run, and what the stream is doing as the parts
 * below follow/ ask it.  struct ui_app (ui_app.h) holds them with the rest;
 * a file that works on these parts includes this header, and only app/
 * and a few files that are given the whole app (tests/ui/ui_layers.py
 * names them) include ui_app.h. */
#ifndef UI_PARTS_H
#define UI_PARTS_H

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>

#include "ui/state/ui_play.h"
#include "ui/state/ui_state.h"

/* Lines at the top of the visualisation before the canvas: title, legend. */
#define UI_VIS_HEADER 2

/* A pop-up over the screen (ui_popup.h): a command line shown whole, text
 * under it. */
struct ui_popup {
    char *command; /* owned; NULL: the pop-up is closed */
    char title[64];
    char text[640]; /* under the command, wrapped */
    int scroll;
};

/* The curses windows and the screen size they were made for. */
struct ui_windows {
    int rows, cols; /* screen size the windows were made for */
    WINDOW *bar, *msg, *status;
    WINDOW *vis;    /* the visualisation's header lines (title, legend) */
    WINDOW *canvas; /* the visualisation's blocks, scrolled */
    WINDOW *side;   /* description or explain panel */
    WINDOW *full;   /* the whole screen: help, and the "too small" notice */
    WINDOW *modal;  /* the lesson list, over the middle of the screen */
    WINDOW *head;   /* the presenter's header: big title and formula */
};

/* What plays from or into a file: the recording being written (--record),
 * the recording being replayed (--replay) and the teacher's stream being
 * followed (--follow); ui_record.c, ui_follow.c, ui_watch.c. */
struct ui_stream {
    struct ui_replay replay;
    FILE *record; /* the caller's; NULL: not recording */
    char record_name[256];
    double record_start;
    struct rec_start *record_start_args; /* the caller's; what the recording starts from */
    bool record_failed;                  /* a write failed: the recording stopped there */
    int *record_error;                   /* the caller's: that write's errno goes there */
    double record_mark;                  /* when the recording last had a line ("# at") */
    struct rec_state record_state;       /* the state last written ("# state") */
    bool record_state_written;           /* the first state line was written */
    int follow_state;                    /* the teacher's next state to apply (follow) */
    int replay_state;                    /* the recording's next state to apply (replay) */
    /* the training run's snapshots (ui_watch.c): what the last written had
     * (recording), the next to apply and the one whose parameters the
     * screen's run has, + 1 (following, replaying) */
    struct ui_snap_out {
        unsigned serial; /* the run (trun's serial) */
        long losses[4], step[4];
        int evals[4];
        double t;
        long scrub;
        bool paused, done, any;
    } snap_out;
    int follow_snap, replay_snap;
    int snap_kept[4];
    void (*record_started)(void *ctx); /* the caller's: the start lines are written */
    void *record_ctx;

    /* following a teacher's recording as it grows (--follow; ui_follow.c) */
    struct rec_follow *follow;  /* the caller's; NULL: not following */
    int follow_next;            /* the teacher's next event to apply */
    long follow_lines;          /* the teacher's state lines applied (rec's state_lines) */
    char follow_off[160];       /* "" on the teacher's screen, else what differs */
    int follow_seen;            /* the stream's state last said (enum rec_follow_state) */
    int follow_quiet;           /* the teacher's quiet seconds last said; -1: not quiet */
    bool detached;              /* exploring on one's own: the teacher's keys wait */
    double detach_offset;       /* seconds the teacher's clock was ahead at the detach */
    bool rejoin;                /* F: the loop ends and the caller starts again */
    bool streamed;              /* the key being applied is the teacher's or a replay's */
    const char *stream_note;    /* the start's options that name a file, not opened, or NULL */
    bool keys_from_tty;         /* keys come from /dev/tty (the stream is standard input) */
    bool (*keys_waiting)(void); /* the terminal has a key not read yet (NULL off screen):
                                   training's parts stop for it (trun's interrupt) */
};

/* The training screen's run and what goes with it (ui_train_app.c). */
struct ui_train_part {
    struct trun *train;    /* the training screen (--train, --compare); NULL: none */
    long train_clock_ms;   /* the session clock at the last key or tick (ui_train_session_ms) */
    const char *save_path; /* --save FILE: where the model goes when the screen is left */
    /* the bundled corpus a lesson's training read last (kept while its runs
     * last; ui_train_corpus_free) */
    struct ui_corpus *corpus;
};

/* What the stream is doing, as the parts below follow/ ask it (follow/ and
 * app/ read struct ui_stream's members; every other part asks these, and
 * tests/ui/ui_layers.py holds it so). */

/* The key being applied is the teacher's (--follow) or a replay's. */
static inline bool ui_stream_streamed(const struct ui_stream *s)
{
    return s->streamed;
}

/* Following a teacher's recording (--follow), detached or not. */
static inline bool ui_stream_following(const struct ui_stream *s)
{
    return s->follow != NULL;
}

/* A recording replays (--replay) and has not stopped. */
static inline bool ui_stream_replaying(const struct ui_stream *s)
{
    return s->replay.active;
}

/* A key of the stream (--follow or --replay) never writes or reads a file,
 * sets the clipboard or loads a path on the student's machine: true when
 * the key being applied is one (ui_stream_streamed), after saying in st
 * what the teacher did ("exported the stage (e)") and that the student's
 * own key does it; false for the student's own keys (and without a
 * stream).  Every part that writes, reads or copies asks it. */
static inline bool ui_stream_refuses(const struct ui_stream *s, struct ui_state *st,
                                     const char *did)
{
    if (!s || !s->streamed)
        return false;
    if (s->follow)
        ui_state_say(st, false,
                     "The teacher %s; nothing is written, read or copied here for the teacher "
                     "(your own key does it, and leaves the teacher).",
                     did);
    else
        ui_state_say(st, false,
                     "The recording %s; a replay writes, reads and copies nothing (Esc stops it, "
                     "then your own key does it).",
                     did);
    return true;
}

#endif
