/* ui_app.h - the explorer as a whole: the state, the screen's layout, the
 * curses windows, and the blocks of the current view placed on a canvas.
 *
 * The loop is: read a key -> ui_app_key changes the state -> ui_app_reflow
 * derives the layout and the view from it -> ui_app_draw draws everything
 * from that (a pure function of the app; it changes nothing) -> doupdate. */
#ifndef UI_APP_H
#define UI_APP_H

#include <curses.h>
#include <stdbool.h>

#include <stdio.h>

#include "ui/draw/ui_layout.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_mode.h"
#include "ui/state/ui_play.h"
#include "ui/state/ui_history.h"
#include "ui/state/ui_state.h"
#include "ui/draw/ui_theme.h"
#include "ui/views/ui_view.h"
#include "ui/draw/ui_widget.h"

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

struct ui_app {
    struct ui_state st;
    struct ui_lessons les; /* the open lesson, the lesson list, progress */
    struct ui_theme th;
    struct ui_layout lay;
    int rows, cols; /* screen size the windows were made for */
    WINDOW *bar, *msg, *status;
    WINDOW *vis;    /* the visualisation's header lines (title, legend) */
    WINDOW *canvas; /* the visualisation's blocks, scrolled */
    WINDOW *side;   /* description or explain panel */
    WINDOW *full;   /* the whole screen: help, and the "too small" notice */
    WINDOW *modal;  /* the lesson list, over the middle of the screen */
    WINDOW *head;   /* the presenter's header: big title and formula */

    /* what plays by itself, and the recording being written */
    struct ui_autoplay autoplay;
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

    /* the modes open over the main screen (ui_mode.h), and theirs */
    struct ui_mode_stack modes;
    bool quit_armed;             /* following: a q asked whether to leave the class */
    struct ui_popup popup;       /* :link's command line */
    struct ui_history hist;      /* the ':' lines run before */
    struct ui_history find_hist; /* the '/' words looked for before */
    char find_word[UI_CMD_MAX];  /* the last /word, for n */
    bool mouse;                  /* the terminal reports clicks (--no-mouse: off) */

    /* the current view, derived from st and lay by ui_app_reflow */
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    struct ui_block_geom geoms[UI_VIEW_MAX_BLOCKS];
    struct ui_rect pos[UI_VIEW_MAX_BLOCKS]; /* on the canvas */
    int n_blocks;
    int canvas_h;

    struct trun *train;    /* the training screen (--train, --compare); NULL: none */
    long train_clock_ms;   /* the session clock at the last key or tick (ui_train_session_ms) */
    const char *save_path; /* --save FILE: where the model goes when the screen is left */
    bool screen_up;        /* the terminal was the explorer's (ui_app_interactive got it) */
};

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

/* The explorer's own commands (ui_commands.c): :link, :export (and e),
 * :theme (and T), :present, :autoplay (and a); the others go on to
 * ui_state_command.  Each leaves what happened in the message line. */
int ui_app_command(struct ui_app *app, const char *line);
void ui_app_link(struct ui_app *app);
/* fmt: an export format or enum mha_format; path NULL: a new
 * mha-<stage>-<n> file in the current folder. */
void ui_app_export(struct ui_app *app, int fmt, const char *path);
void ui_app_set_theme(struct ui_app *app, enum colorscale_theme theme);
void ui_app_toggle_autoplay(struct ui_app *app);

/* Once the terminal is up (ui_record.c): a recording's first lines (the
 * options, the lesson's step, the terminal's size), and a replay's note
 * when its terminal differs or its last line was cut short. */
void ui_record_begin(struct ui_app *app);
/* A recording that could not be written: a key, its failure said and
 * marked for good in the status line (after what buf holds). */
void ui_record_write(struct ui_app *app, double t, int code);
/* A mouse event to the recording (a click or the wheel; others are not
 * written), with where it happened. */
void ui_record_mouse(struct ui_app *app, double t, const MEVENT *ev);
/* The mouse event a recording's REC_KEY_CLICK / _WHEEL_UP / _WHEEL_DOWN at
 * (y, x) stands for. */
MEVENT ui_record_mouse_event(int key, int y, int x);
void ui_record_status(const struct ui_app *app, char *buf, size_t n);

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
/* The stage of the pipeline bar under column x, or -1 (ui_bar.c). */
int ui_bar_stage_at(const struct ui_app *app, int x);

/* A key into the explorer as typed (resizes and clicks included), and a
 * recorded event played in: the training ticks before it, then the key or
 * the click; it never closes the explorer (ui_loop.c). */
void ui_app_feed(struct ui_app *app, int key, bool is_char);
struct rec_event;
void ui_app_play_event(struct ui_app *app, const struct rec_event *e);

/* The teacher's training run in snapshots (ui_watch.c).  Recording: the
 * run's new steps, evaluations and model (at most every REC_SNAP_EVERY
 * seconds, and at once when it pauses or stops), the checkpoint scrubbed
 * to, before the state line that names them. */
int ui_record_snaps(struct ui_app *app); /* 0, or -1 on a write error (errno) */
/* The run on screen is the teacher's, watched (a follower who has not
 * detached, a replay, of a recording with snapshots). */
bool ui_train_watching(const struct ui_app *app);
/* The snapshots of rec after the events played so far and at or before
 * ms on the session clock, from *next on, into the screen's run (the
 * model from the last of each pane only: the stale ones are skipped).
 * True when anything changed. */
bool ui_watch_apply(struct ui_app *app, const struct recording *rec, int *next, int played,
                    long ms);
/* The training run's part of the teacher's state (a follower, a replay):
 * its pause and the checkpoint shown. */
void ui_watch_state(struct ui_app *app, const struct rec_state *s);
/* The message line when every run stopped: when and why (ui_train_app.c). */
void ui_train_stopped_say(struct ui_app *app);
/* The message line on the checkpoint shown, or the live model (ui_train_keys.c). */
void ui_train_scrub_message(struct ui_app *app);

/* Following (ui_follow.c; the teacher's keys are applied in app/ui_follow.h):
 * the status words. */
void ui_follow_status(const struct ui_app *app, double now, char *buf, size_t n);
/* The teacher's clock in seconds (following), or the follower's own
 * clock carried on from it (exploring). */
double ui_follow_clock(const struct ui_app *app, double now);
/* A key of the stream (--follow or --replay) never writes or reads a file,
 * sets the clipboard or loads a path on the student's machine: true when
 * the key being applied is one (app->streamed), after saying what the
 * teacher did ("exported the stage (e)") and that the student's own key
 * does it; false for the student's own keys. */
bool ui_stream_refuses(struct ui_app *app, const char *did);
/* A follower who detaches, or a replay that stopped or finished: the
 * student's own progress is read now and kept from here on. */
void ui_viewer_own(struct ui_app *app);
/* The teacher's state after `played` events of rec (rec_state.h), from
 * *next on: the last one reached is applied (lesson and step by index,
 * stage, view, presenter, autoplay, the example's settings), so the screen
 * is where the teacher's was whatever the keys did here. */
void ui_teacher_state(struct ui_app *app, const struct recording *rec, int *next, int played);
/* The state of the screen as a state line carries it, and the line for
 * what changed since the last one, to the recording (ui_record.c). */
void ui_record_state(struct ui_app *app);
/* A follower or a replay of a recording with state lines: autoplay's moves
 * come as the teacher's state, not from a timer of its own. */
bool ui_autoplay_is_teachers(const struct ui_app *app);
/* The recording's "# at" lines, every REC_MARK_EVERY seconds without a
 * line, and its "# end" when the explorer closes (ui_record.c). */
void ui_record_tick(struct ui_app *app, double now);
void ui_record_end(struct ui_app *app);

/* Delete the windows (before endwin). */
void ui_app_free_windows(struct ui_app *app);

/* Draw everything into the windows and wnoutrefresh each (no doupdate). */
void ui_app_draw(const struct ui_app *app);

/* The canvas lines the visualisation shows numbers on: when the blocks do
 * not all fit, the last line is the marker's (how much more there is). */
static inline int ui_app_view_h(const struct ui_app *app)
{
    int h = app->lay.vis.h - UI_VIS_HEADER;
    if (app->canvas_h > h && h > 2)
        h--;
    return h > 1 ? h : 1;
}

/* Pieces of the drawing, one file each. */
void ui_bar_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th, int width);
void ui_status_draw(WINDOW *win, const struct ui_app *app, int width);
void ui_msg_draw(WINDOW *win, const struct ui_app *app, int width, int height);
/* Lines the message line needs at this width (1..4). */
int ui_msg_lines(const struct ui_state *st, bool utf8, int width);
void ui_side_draw(WINDOW *win, const struct ui_app *app);
/* Lines the text pane would like at this width. */
int ui_side_lines(const struct ui_app *app, int width);
/* The lesson pane (in the text pane's place while a lesson is open): the
 * lines its text takes at this width (title included), the lines of text it
 * shows at this height, and the drawing. */
int ui_lesson_pane_lines(const struct ui_app *app, int width);
/* Content lines of the lesson pane up to and including the waiting
 * checkpoint's answer line; 0 when no checkpoint waits. */
int ui_lesson_pane_prompt_end(const struct ui_app *app, int width);
/* Lines of a waiting checkpoint, from its first line to its answer line
 * (0: none waits); the training's layout leaves them to the pane. */
int ui_lesson_pane_quiz_lines(const struct ui_app *app, int width);
/* A step's checkpoint has just started to wait: scroll the lesson pane so
 * its answer line shows, with as much of the text above as fits (once, so
 * the reader can scroll back up). */
void ui_lesson_pane_follow_prompt(struct ui_app *app);
int ui_lesson_pane_body(int height, int lines);
void ui_lesson_pane_draw(WINDOW *win, const struct ui_app *app, int width, int height);
/* The lesson list, in the modal window. */
void ui_lesson_menu_draw(WINDOW *win, const struct ui_lessons *ls, const struct ui_theme *th);
/* Put the cursor on a cell a lesson or --focus asked for, once the view's
 * blocks are known. */
void ui_app_apply_focus(struct ui_app *app);
/* True when a mode in front of the main screen (a waiting checkpoint, the
 * explain panel, the presenter's layout) takes key (ctx: the app): the
 * hints name only keys that reach what they say (ui_key_names_for). */
bool ui_app_front_takes(int key, const void *ctx);
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
/* The explain panel (in the text pane's place while it is open). */
void ui_explain_panel_draw(WINDOW *win, const struct ui_app *app, int width, int height);
int ui_explain_panel_lines(const struct ui_app *app, int width);
/* How far the text pane (stage text or explain panel, not a lesson) can
 * scroll at its size. */
int ui_explain_panel_max_scroll(const struct ui_app *app, int width, int height);
int ui_side_max_scroll(const struct ui_app *app);
/* A pane's title bar on its first line. */
void ui_pane_title(WINDOW *win, const char *title, int width, const struct ui_theme *th);
void ui_help_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th, int rows,
                  int cols);
/* Lines the help screen takes (for scrolling). */
int ui_help_lines(void);
/* The help's line of the heading text (0 when it has none). */
int ui_help_heading_line(const char *heading);
/* The help's line i: its keys and its words (headings: key ""); false past
 * the end. */
bool ui_help_line(int i, char *key, size_t kn, char *text, size_t tn);

/* The heading of the text pane ("4 · Attention: who looks at whom") and
 * the formula (lines apart by '\n') of the current stage or view. */
void ui_describe_heading(const struct ui_state *st, char *head, size_t hn, char *formula,
                         size_t fn);

/* The presenter's pieces (ui_present.c): the title in big letters, the
 * caption and formula that go with it, the header drawn, and the minimal
 * status line. */
struct ui_present_text {
    char title[64];       /* "4 ATTENTION" */
    char name[64];        /* "Attention · stage 4 of 0-6" (mha_stage_range) */
    char subtitle[128];   /* "who looks at whom" */
    char formula[2][256]; /* one line, or two */
    int formula_lines;
    int caption_w;
};
void ui_present_text(const struct ui_state *st, bool utf8, int width, struct ui_present_text *out);
void ui_present_head_draw(WINDOW *win, const struct ui_app *app);
/* The presenter's header on the training screen: "TRAINING" and the task
 * (pt unchanged when the training screen is not shown). */
void ui_train_present_text(const struct ui_app *app, struct ui_present_text *pt);
void ui_present_status_draw(WINDOW *win, const struct ui_app *app, int width);

/* What plays by itself, for the status lines: "autoplay 2s", "paused",
 * "replay 3/20", "replay paused", or "" when nothing does. */
void ui_play_status(const struct ui_app *app, char *buf, size_t n);

/* The training screen (ui_train_keys.c, ui_train_draw.c, ui_train_export.c). */
struct trun;
/* It is on screen (in the visualisation's place). */
bool ui_train_on_screen(const struct ui_app *app);
/* A key for it: true when it took the key. */
bool ui_train_key(struct ui_app *app, int key, bool is_char);
/* --compare: make pane the focused one (its model is the one the stage
 * keys and the heads view show) and say so. */
void ui_train_focus(struct ui_app *app, int pane);
/* The pane of --compare's training screen at screen (y, x), or -1 (also
 * when one model trains). */
int ui_train_pane_at(const struct ui_app *app, int y, int x);
/* The session clock (ms, as a recording writes times; a replay's own
 * clock while one plays), and the training ticks due by ms (all: every
 * one, before a key; else a second's worth at most, so the screen is
 * redrawn between): true when anything trained. */
long ui_train_session_ms(const struct ui_app *app, double now);
bool ui_train_timers(struct ui_app *app, long ms, bool all);
/* Milliseconds the loop may wait for a key before a tick is due. */
int ui_train_loop_wait(const struct ui_app *app, double now, int cap);
/* The explorer's example made the model shown (in place when the sizes allow). */
void ui_train_sync_example(struct ui_app *app);
/* Start the training screen from s: app->train, and *ex (freed first when
 * set) the first model's example.  0, or -1 + err (nothing is kept). */
struct trun_setup;
int ui_train_open(struct ui_app *app, const struct trun_setup *s, struct mha_example **ex,
                  struct mha_error *err);
void ui_train_draw_vis(const struct ui_app *app);
/* The training screen is on screen and a run on it still trains. */
bool ui_train_running(const struct ui_app *app);
/* Lines the training screen's canvas needs in width columns to show every
 * head's whole heatmap (curve: and a loss curve of 2 lines where the curve
 * sits above the heads). */
int ui_train_canvas_need(const struct ui_app *app, int width, bool curve);
/* After a change: a lesson step whose scenes train starts (or keeps) its
 * training and, when the step arrives, shows the training screen or (a
 * step with stage:) the model's stages; leaving it ends the training. */
void ui_train_lesson_sync(struct ui_app *app);
/* The visualisation takes the text pane's room too; a lesson's pane below
 * it gives up the lines every head's heatmap needs, keeping a few of its
 * own. */
void ui_train_layout(const struct ui_app *app, struct ui_layout *lay);
/* The message line's hint on the training screen. */
const char *ui_train_hint(const struct ui_app *app);
/* That hint in a lesson, from the training screen's key table (less
 * Space, which reads on) and the main screen's (ui_train_keys.c). */
const char *ui_train_lesson_hint(const struct ui_app *app, char *buf, size_t n);
/* :link on the training screen: the options that train the same again, as a
 * new string (the caller frees it; NULL when out of memory). */
char *ui_train_link_command(const struct ui_app *app);
/* Write the training state (loss curve, accuracies, heatmaps) as SVG or
 * HTML (fmt: an export format); path NULL: a new mha-train-<n> file here. */
void ui_train_export(struct ui_app *app, int fmt, const char *path);
/* --save FILE: write the model shown (each pane's with --compare) when the
 * training screen is left (once it was up), saying so on stderr (after the terminal is
 * restored); a failure is said and makes a status of 0 into 1.  Nothing
 * for a lesson's training, a follower or without --save.  The status. */
int ui_train_save_on_leave(struct ui_app *app, int status);
/* A run's state as SVG (the step shown: loss and accuracy curves, the
 * heads' heatmaps) to out (ui_train_export.c).  0, or -1 on a write error. */
int ui_train_svg_write(FILE *out, const struct trun *t);

#endif
