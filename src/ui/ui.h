/* ui.h - the interactive explorer (ncursesw).  It reads the engine's stages
 * and computes nothing itself. */
#ifndef MHA_UI_H
#define MHA_UI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "engine/mha.h"

struct recording;
struct trun;
struct rec_start;
struct rec_follow;

/* ui_run's status when a follower asked to rejoin the teacher (F): the
 * caller makes the example again and calls ui_run again with the same
 * options; the terminal stays as it is in between. */
#define UI_RUN_AGAIN 256

struct ui_options {
    int stage;             /* stage to open on, 0 .. MHA_STAGE_COUNT - 1 */
    const char *load_path; /* the example file ex came from, or NULL */

    /* Added by the explorer (main.c: zero them unless asked for). */
    int bench_frames;           /* > 0: no interaction: draw this many frames, each after a
                                   simulated keypress, off screen, print the median redraw time
                                   to stdout and return 0 (main.c: --bench-frames N).  Needs no
                                   terminal.  MHA_UI_BENCH_FRAMES=N in the environment does the
                                   same when this is 0. */
    int bench_rows, bench_cols; /* size of that screen; 0 = 60 x 200 (the walk: 24 x 80) */
    bool lesson_walk;           /* with lesson_path: no interaction: show every step off screen
                                   and print what a step names that is not on it (ui_walk.h);
                                   the status is 1 when something was missing */

    /* Lessons and views (main.c: --lesson, --step, --view, --focus). */
    const char *lesson_path; /* open this lesson file, or NULL */
    int lesson_step;         /* its step, 1-based; 0 = where the reader left it */
    const char *view;        /* "shapes", "cost", "heads" instead of the stage, or NULL */
    double top_p;            /* a language model's top-p, in (0, 1] (--top-p); 0: 1 */
    const char *corrupt;     /* the patching view's corrupted sentence (--corrupt), or NULL */
    const char *focus;       /* a cell for the cursor, as a lesson's focus: "head 1, row 2,
                                col 3" (resolved against the starting stage), or NULL */
    const char *lessons_dir; /* NULL: the data directory's lessons/ */
    const char *assets_dir;  /* NULL: the data directory's assets/ */

    /* Classroom (main.c: --theme, --present, --autoplay, --record, --replay, --speed). */
    int theme;                         /* enum colorscale_theme: 0 = dark */
    bool present;                      /* open in the presenter's layout */
    double autoplay;                   /* > 0: autoplay on, a move every so many seconds */
    FILE *record;                      /* write the keys here (the explorer writes the first lines
                                          once the terminal is up); not closed */
    const char *record_name;           /* its name, for messages */
    struct rec_start *record_start;    /* the options that reproduce the start, or NULL; the
                                          explorer adds the lesson's step and the size (the caller
                                          frees it with rec_start_free) */
    void (*record_started)(void *ctx); /* called once the recording's first lines are written
                                          (the caller puts the file in place, so a class can
                                          follow it as it grows), or NULL */
    void *record_ctx;
    int *record_error;              /* where the errno of a write that failed goes (the
                                       caller says why on exit), or NULL */
    const struct recording *replay; /* play these keys in (the caller keeps it) */
    const char *replay_name;
    double speed;              /* the replay's times are divided by it; 0 = 1 */
    struct rec_follow *follow; /* main.c: --follow: the teacher's keys as they come (the
                                  caller keeps it and its events across UI_RUN_AGAIN) */
    bool keys_from_tty;        /* read keys from /dev/tty (--follow -: stdin is the stream) */
    const char *stream_note;   /* the recording's start options that name a file, left out
                                  (said on the screen), or NULL */

    /* The training screen (main.c: --train TASK on a terminal, --compare). */
    struct trun *train; /* open on this run, which ui_run takes (it frees it on every way out;
                           ex may be NULL then), or NULL */
    const char *save;   /* --save FILE: the model shown is written there when the training screen
                           is left (--compare: one file per pane, its heads in the name) */
    bool no_mouse;      /* main.c: --no-mouse: leave clicks and the wheel to the terminal */
};

/* Run the explorer on ex until the user quits.  The explorer takes ownership
 * of ex (it frees it, and the examples that replace it).  stdin/stdout must be
 * a terminal.  Restores the terminal on every way out.  Returns the process
 * exit status: 0 after a normal quit; 2, with the reason on stderr and the
 * terminal untouched, when the lesson, view or focus asked for cannot be
 * shown.  With opt->train the explorer opens on the training screen and its
 * example is the model's sample (ex, if given, is freed). */
int ui_run(struct mha_example *ex, const struct ui_options *opt);

/* Whether the terminal $TERM names can show the explorer (it moves the
 * cursor); false with why it cannot (TERM unset, "dumb", a name with no
 * terminfo entry) in why (n bytes). */
bool ui_terminal_usable(char *why, size_t n);

/* End the process with status once everything else is freed, through
 * ncurses' exit_curses where the build found it (it frees what ncurses
 * still holds when ncurses was built to); otherwise returns status for
 * main to return. */
int ui_exit(int status);

#endif
