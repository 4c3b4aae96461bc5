/* ui_train.h - the training screen (--train, --compare, a lesson's
 * training) as the rest of the explorer calls it: its keys, clicks, ticks,
 * layout, drawing, export and --save.  What it trains is a struct trun
 * (train/trun.h); the app holds it in its training part (struct
 * ui_train_part, modes/ui_app.h). */
#ifndef UI_TRAIN_H
#define UI_TRAIN_H

#include <curses.h>
#include <stdbool.h>
#include <stdio.h>

#include "ui/draw/ui_layout.h"

struct mha_error;
struct mha_example;

struct ui_app;
struct ui_state;
struct ui_stream;
struct ui_theme;
struct ui_train_part;

/* The training screen (ui_train_keys.c, ui_train_draw.c with its parts in
 * ui_train_draw.h, ui_train_export.c). */
struct trun;

/* The explorer holds a model in training (on screen or not). */
bool ui_train_held(const struct ui_app *app);
/* It is on screen (in the visualisation's place). */
bool ui_train_on_screen(const struct ui_app *app);

/* What the training screen's keys and clicks read and change, the part
 * its mode is bound to (app/ui_mode_parts.c): the state, the run (NULL:
 * none), the stream (asked only whether a key is its own,
 * ui_stream_streamed and ui_stream_refuses), whether a lesson is open
 * (Space reads on in it, p pauses), and where its panes are (the layout,
 * the theme). */
struct ui_train_keys {
    struct ui_state *st;
    struct trun *t;
    const struct ui_stream *stream;
    bool lesson;
    bool asking;    /* a lesson's prediction waits: a paused run waits for its answer */
    bool quiz_here; /* ... this step's checkpoint (else the next step's) */
    const struct ui_theme *th;
    const struct ui_layout *lay;
};

/* A key for it: true when it took the key. */
bool ui_train_key(const struct ui_train_keys *k, int key, bool is_char);
/* A click: on a pane of --compare, focuses it; true when used. */
bool ui_train_mouse(const struct ui_train_keys *k, const MEVENT *ev);

/* --compare: make pane of t the focused one (its model is the one the
 * stage keys and the heads view show), st showing it, and say so. */
void ui_train_focus_pane(struct ui_state *st, struct trun *t, int pane);

/* What the training's ticks follow, read off the stream by the caller
 * (ui_train_tick_of, follow/ui_stream.h): the training screen is below the
 * stream and never reads it. */
struct ui_train_tick {
    long ms;                 /* the session clock (ui_train_session_ms) */
    bool watched;            /* the run is the teacher's, watched (ui_train_watching): it
                                trains no step of its own, its snapshots bring them */
    bool exact;              /* a recording is written, replayed or followed: every tick
                                runs, as the recording has them, before the next key */
    bool teachers_clock;     /* following, not detached: the clock moves by lines */
    bool (*interrupt)(void); /* the terminal has a key not read yet (NULL off screen) */
};

/* The training ticks due by tick.ms on the session clock (all: every one,
 * before a key; else a second's worth at most, so the screen is redrawn
 * between): true when anything trained. */
bool ui_train_timers(struct ui_app *app, struct ui_train_tick tick, bool all);

/* Milliseconds the loop may wait for a key before a tick is due, tick.ms
 * being the session clock now. */
int ui_train_loop_wait(const struct ui_train_part *training, struct ui_train_tick tick, int cap);

/* The explorer's example (st's) made the model t shows (in place when the
 * sizes allow); the app's. */
void ui_train_sync(struct ui_state *st, struct trun *t);
void ui_train_sync_example(struct ui_app *app);
/* A model of layers shown at layer (0-based; -1: the next one, round to
 * 0): the training's model in focus (trun_show_layer) when the explorer
 * shows it, else a loaded model (ui_state_show_layer).  -1 with a message
 * when there is no such layer or the model has one. */
int ui_app_show_layer(struct ui_app *app, int layer);
/* The same on st and t (NULL: no training), a key of stream (NULL: none)
 * showing the teacher's layer only. */
int ui_train_show_layer(struct ui_state *st, struct trun *t, const struct ui_stream *stream,
                        int layer);
/* The layer the teacher's state line names (rec_state.h's layer=), shown
 * as the teacher's screen shows it: the training's model in focus, else a
 * loaded model of layers; nothing when it is shown already or there is no
 * such layer here. */
void ui_app_teachers_layer(struct ui_app *app, int layer);
/* From the training screen to the explorer's stages and views of the
 * model shown (t comes back): st shows t's model; the app's. */
void ui_train_leave_screen(struct ui_state *st, struct trun *t);
void ui_train_to_explorer(struct ui_app *app);
/* The corpus a lesson's training read, freed (when the app goes). */
void ui_train_corpus_free(struct ui_train_part *training);

/* Start the training screen on t, which it takes (the training part's
 * train), and *ex (freed first when set) its first model's example.  0, or -1 + err (t is
 * freed, nothing is kept). */
int ui_train_open(struct ui_app *app, struct trun *t, struct mha_example **ex,
                  struct mha_error *err);
void ui_train_draw_vis(const struct ui_app *app);

/* The training screen is on screen and a run on it still trains. */
bool ui_train_running(const struct ui_app *app);
/* A lesson's run waits for a prediction: this step's checkpoint asks, or
 * the next step's does (not answered yet) and the run goes on there, so
 * starting it here would show the answer before the question. */
bool ui_train_prediction_waits(const struct ui_app *app);
/* ... and the run is paused: it starts once the prediction is made. */
bool ui_train_unstarted_waits(const struct ui_app *app);
/* Autoplay on a step that trains: a run paused (or waiting for p, or on a
 * checkpoint) trains on, live, and says so.  True when it did. */
bool ui_train_play_on(struct ui_app *app);

/* Lines the training screen's canvas needs in width columns to show every
 * head's whole heatmap (curve: and a loss curve of 2 lines where the curve
 * sits above the heads; half: two rows of a heatmap to a line, where the
 * theme draws them so). */
int ui_train_canvas_need(const struct ui_app *app, int width, bool curve, bool half);

/* After a change: a lesson step whose scenes train starts (or keeps) its
 * training and, when the step arrives, shows the training screen or (a
 * step with stage:) the model's stages; leaving it ends the training. */
void ui_train_lesson_sync(struct ui_app *app);

/* The visualisation takes the text pane's room too; a lesson's pane below
 * it gives up the lines every head's heatmap needs, keeping a few of its
 * own and quiz_lines, a waiting checkpoint's (ui_lesson_pane_quiz_lines). */
void ui_train_layout(const struct ui_app *app, struct ui_layout *lay, int quiz_lines);

/* The message line's hint on the training screen. */
const char *ui_train_hint(const struct ui_app *app);

/* That hint in a lesson on t, from the training screen's key table (less
 * Space, which reads on) and the main screen's, as it binds keys with the
 * cursor on a number or not (focus) (ui_train_keys.c). */
const char *ui_train_lesson_hint(const struct trun *t, bool focus, char *buf, size_t n);
/* The training screen's key hint line from its key table, y among them
 * when the model in focus has layers; into buf (n bytes). */
char *ui_train_keys_hint(const struct trun *t, char *buf, size_t n);

/* :link on the training screen: the options that train the same again, as a
 * new string (the caller frees it; NULL when out of memory). */
char *ui_train_link_command(const struct ui_app *app);

/* Write the training state of t (loss curve, accuracies, heatmaps) as SVG
 * or HTML (fmt: an export format); path NULL: a new mha-train-<n> file
 * here.  Says what it did in st; a key of the stream (NULL: none) writes
 * nothing (ui_stream_refuses). */
void ui_train_export(const struct trun *t, struct ui_state *st, const struct ui_stream *stream,
                     int fmt, const char *path);

/* --save FILE: write the model shown (each pane's with --compare) when the
 * training screen is left, saying so on stderr (after the terminal is
 * restored); a failure is said and makes a status of 0 into 1.  Nothing
 * for a lesson's training or without --save; the caller asks only when the
 * screen was up (a terminal that could not be used trained nothing) and
 * not for a follower.  The status. */
int ui_train_save_on_leave(const struct ui_train_part *training, int status);

/* A run's state as SVG (the step shown: loss and accuracy curves, the
 * heads' heatmaps) to out (ui_train_export.c).  0, or -1 on a write error. */
int ui_train_svg_write(FILE *out, const struct trun *t);

/* The message line when every run stopped: when and why (ui_train_app.c). */
void ui_train_stopped_say(struct ui_app *app);
/* The message line (st's) on t's checkpoint shown, or the live model, in
 * a lesson or not (which key trains on) (ui_train_keys.c). */
void ui_train_scrub_say(struct ui_state *st, const struct trun *t, bool lesson);

/* :save [FILE] and :save! FILE (their handlers are in
 * commands/ui_commands.c): the trained model shown (training's, else a
 * loaded model file's) to a model file, said in st; a file at FILE is
 * replaced only with replace (:save!), --save's file always, and with no
 * FILE a new mha-model-N.json is made; nothing while the stream follows
 * or replays (ui_train_save.c). */
int ui_train_save(struct ui_state *st, const struct ui_train_part *training,
                  const struct ui_stream *stream, const char *arg, bool replace);

#endif
