/* trun.h - a training run as the training screen drives it (--train TASK,
 * --compare 1,2), without curses: a small attention model (or several that
 * differ only in their number of heads, side by side, in lockstep) trains,
 * its loss curve, held-out accuracies and what each head does kept as it
 * goes, until it stops by itself.
 *
 * One thread.  The screen's loop wakes every TRUN_TICK_MS of the session's
 * own clock (the time a recording writes) and each tick runs the steps the
 * pace gives it, so a replay runs the same steps between the same keys.
 * Checkpoints of the parameters (trun_ring.h) let the keys scrub back
 * through the run.  --print-lesson runs the same steps without a screen
 * (trun_step_once until trun_done) and prints what the run reached.
 *
 * The screen itself (src/ui/train/ui_train_*.c) shows a run in the
 * explorer's visualisation area; this library is below it, so the command
 * line calls it without the explorer.
 */
#ifndef TRUN_H
#define TRUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "train/train.h"
#include "train/train_heads.h"
#include "train/train_layers.h"
#include "train/train_text.h"
#include "train/trun_ring.h"

#define TRUN_MAX_PANES TRAIN_MAX_PANES
/* Checkpoints kept per run, steps between them at first, and steps between
 * held-out evaluations. */
#define TRUN_CHECKPOINTS 64
#define TRUN_CHECKPOINT_EVERY 25
#define TRUN_EVAL_EVERY TRAIN_EVAL_EVERY

/* Why a run stopped. */
enum trun_stop { TRUN_RUNNING, TRUN_STOP_STABLE, TRUN_STOP_LIMIT };

/* What a pane does next between frames: a step, or (after a step that is
 * due one) the held-out evaluation, the measure of what the heads do, and
 * a text's jobs. */
enum trun_work { TRUN_WORK_STEP, TRUN_WORK_EVAL, TRUN_WORK_ROLES, TRUN_WORK_JOBS };

/* What a text's model writes (o on the training screen): a few lines from
 * its sample's first word, a word at a time until a sentence's end mark or
 * its context is full, each word drawn from softmax(logits / temperature)
 * (train_write_line) by a generator of their own seeded from the run's seed
 * and the step of the model that writes them: the same seed and step write
 * the same lines, and the training's numbers are never touched (the lines
 * are written by a copy of the model, the writer). */
#define TRUN_SAMPLE_LINES 6
#define TRUN_SAMPLE_BYTES 512
struct trun_samples {
    long step; /* the step of the model that wrote them; -1: none written */
    float temperature;
    int n;
    char line[TRUN_SAMPLE_LINES][TRUN_SAMPLE_BYTES];
};

/* One model training (a pane of --compare). */
struct trun_pane {
    struct train_run *run;
    bool by_layers;            /* --compare layers=...: titled by its layers, not its heads */
    bool by_variant;           /* --compare variants=...: titled by its variant */
    struct train_model *shown; /* a checkpoint's parameters, for scrubbing (sample only) */
    struct mha_example *start; /* the model at step 0 on its sample, for the heads view */
    struct trun_ring ring;
    struct trun_history hist;
    enum trun_stop stop;
    struct train_stopping stopping; /* the rule that stops it, as headless training's */
    /* what each head does, measured when the figures change, not at every
     * redraw: of the live model at its last evaluation (roles), and of the
     * checkpoint loaded last, at step shown_of (shown_roles), each kept
     * while the other is shown */
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    bool roles_valid;
    struct train_head_stats shown_roles[TRAIN_MAX_D_MODEL];
    bool shown_valid;
    /* a text's jobs each head does (train_text_head_jobs: knocked out alone,
     * the jobs it costs 0.1 or more), measured at the live model's last
     * evaluation when it has at most TRUN_JOBS_MAX_HEADS heads */
    unsigned jobs[TRAIN_MAX_D_MODEL];
    float knocked[TRAIN_MAX_D_MODEL][TRAIN_TEXT_MAX_JOBS]; /* each job's top-1, head h out */
    bool jobs_valid;
    struct train_text_eval jobs_all; /* with every head, at that evaluation: each job's top-1 */
    /* what is in flight between frames: the step (its parts in run->job),
     * then the held-out evaluation it is due and the measures of the heads
     * (roles, a text's jobs), each in parts too */
    enum trun_work work;
    struct train_eval_job eval_job;
    struct train_heads_job *heads_job; /* the live model's heads, measured when heads_begun */
    bool heads_begun;
    struct train_heads_job *shown_job; /* the checkpoint's heads (step shown_of), measured
                                          when shown_pending; both jobs' memory is kept */
    bool shown_pending;
    long shown_of;
    struct train_text_jobs text_jobs;
    /* a model of layers (of at most TRUN_JOBS_MAX_HEADS heads): every
     * layer's heads measured and knocked out at the live model's last
     * evaluation, on the held-out sequences the heads are measured on */
    struct train_layer_measures *layers;
    bool layers_valid;
    bool round_done; /* its step of the round in flight is done */
    /* what it writes while the run's samples are shown (trun_samples.c),
     * written by a model of its own made the first time */
    struct train_model *writer;
    struct trun_samples samples;
};

#define TRUN_JOBS_MAX_HEADS 16
#define TRUN_JOBS_LABEL 48 /* bytes of a head's jobs label, "agree+content" */

struct trun {
    const struct train_task *task; /* the caller's (outlives this) */
    int d_model, vocab, context;
    struct train_run_options opt;
    int n_panes;
    int heads[TRUN_MAX_PANES];
    int layers[TRUN_MAX_PANES];                    /* each pane's layers (0: opt.layers) */
    struct train_variant variants[TRUN_MAX_PANES]; /* each pane's attention block */
    struct trun_pane panes[TRUN_MAX_PANES];
    bool compare;          /* --compare: panes titled by their heads */
    bool compare_layers;   /* ... by their layers */
    bool compare_variants; /* ... by their variants */

    bool shown;     /* the training screen is on screen (else the explorer's stages) */
    bool paused;    /* by Space or a single step */
    int rate;       /* index into trun_rates */
    long tick;      /* ticks since the run started */
    long start_ms;  /* the session clock (ms) when it started */
    long now_ms;    /* the session clock at the last catch-up */
    long pace_from; /* the pace kept: steps since the session clock was pace_from (-1: none yet) */
    long pace_count;
    int pace_steps_s;    /* steps a second over the last whole second trained (-1: not yet) */
    long scrub;          /* step whose checkpoint is shown; -1: the model as it is */
    bool lesson;         /* a lesson's scene started it (and leaving the lesson ends it) */
    int lesson_step;     /* the step whose scene chose what is shown */
    char lesson_key[96]; /* what its scene asked for: task, heads, seed, steps */
    unsigned follow_gen; /* the explorer's example (ui_state ex_gen) that is the focused
                            pane's model, refreshed as it trains; others are left alone */
    int focus;           /* --compare: the pane whose model the stage keys and the heads
                            view show (Tab or a click chooses it); 0 otherwise */
    bool circuits;       /* w: what each head writes (its OV circuit) in place of the heatmaps */
    bool samples;        /* o: lines a text's model writes, rewritten at each evaluation and
                            for the checkpoint shown (trun_samples_show) */
    float temperature;   /* ... drawn at this temperature */
    bool round_open;     /* a step of every pane begun and not done: the next goes on with it */
    bool (*interrupt)(void); /* the screen's: a key waits (NULL: none), so that a step's
                                parts stop for it between frames */
    bool watch;              /* the teacher's run, watched (a follower, a replay): it trains
                                nothing; snapshots bring its steps (trun_watch_*) */
    unsigned serial;         /* another for every run built or started again */
};

/* What a training screen starts with. */
struct trun_setup {
    const struct train_task *task;
    int d_model, vocab, context;
    struct train_run_options opt;
    int n_heads; /* 1 without --compare */
    int heads[TRUN_MAX_PANES];
    int layers[TRUN_MAX_PANES]; /* each pane's layers (0: opt.layers) */
    bool compare;
    bool compare_layers; /* --compare layers=1,2: the panes differ in their layers */
    /* --compare variants=standard,no-wo: each pane's attention block (else
     * every pane's is opt.variant) */
    struct train_variant variants[TRUN_MAX_PANES];
    bool compare_variants;
};

/* The training a lesson's scene asks for.  0, or -1 + err (no task). */
int trun_setup_task(struct trun_setup *s, const struct train_ask *a, struct mha_error *err);

/* Build the runs (each initialised from opt.seed, nothing trained yet).
 * NULL + err on a bad size or out of memory.  Free with trun_free. */
struct trun *trun_new(const struct trun_setup *s, struct mha_error *err);
void trun_free(struct trun *t);

/* Start again from step 0 (at the session time of the last catch-up) with
 * seed, and (heads > 0, one pane only) this many heads.  Another seed for
 * the same models trains again in the memory the runs have; other heads
 * build new runs, and on failure (-1 + err) the old runs stay. */
int trun_restart(struct trun *t, uint32_t seed, int heads, struct mha_error *err);

/* Run the ticks due by now_ms on the session clock (at most max_ticks of
 * them, 0: all); true when any step ran.  exact (a replay, or a session
 * being recorded): every tick runs, however far behind, so the steps
 * between two keys are the recorded ones; otherwise a clock that jumped by
 * more than a second (a machine that cannot keep the pace) is followed from
 * where it is now. */
bool trun_catch_up(struct trun *t, long now_ms, bool exact, int max_ticks);
/* Milliseconds of training one catch-up may take before the screen is
 * drawn and keys are read again (not when exact). */
#define TRUN_BUDGET_MS 25
/* The steps a second kept over the last second (0 before the first). */
int trun_pace(const struct trun *t);
/* Milliseconds until the next tick (cap when none is due: paused or done). */
int trun_wait_ms(const struct trun *t, long now_ms, int cap);
/* One step of every run still going (the single-step key). */
void trun_step_once(struct trun *t);
/* Every run has stopped. */
bool trun_done(const struct trun *t);

/* The step the screen shows (the scrubbed checkpoint, or the live step) and
 * the checkpoint to its left / right (-1: none). */
long trun_shown_step(const struct trun *t);
void trun_scrub(struct trun *t, int dir);
void trun_scrub_live(struct trun *t);
void trun_scrub_first(struct trun *t);
/* Show the checkpoint at or before step (paused), as the scrub keys do. */
void trun_scrub_to(struct trun *t, long step);

/* Show layer (0-based) of pane's model from now on: its attention on the
 * sample, what its heads do (measured at once, the live model's and the
 * checkpoint's) and, for the heads view, the same layer at step 0.  A step
 * in flight is finished first.  Training goes on unchanged: the layer
 * shown changes no number trained.  0, or -1 + err (no such layer). */
int trun_show_layer(struct trun *t, int pane, int layer, struct mha_error *err);

/* Every pane's model shown at layer (-1: each its last), as a lesson's
 * layer: asks (trun_show_layer where a pane shows another).  0, or -1 +
 * err (a pane without that layer). */
int trun_show_layers(struct trun *t, int layer, struct mha_error *err);

/* The model a pane shows: the live one, or (scrub >= 0) the checkpoint's
 * parameters the scrub keys loaded, with its sample forwarded. */
const struct train_model *trun_pane_model(const struct trun_pane *p, long scrub);

/* What each head of the model p shows (as trun_pane_model) does,
 * measured on the run's first TRAIN_HEADS_SEQUENCES held-out sequences
 * (the sample is the first of them) at the pane's last evaluation or
 * checkpoint loaded: out has a slot per head.  false when it cannot be
 * measured (out of memory). */
bool trun_pane_heads(const struct trun_pane *p, long scrub, struct train_head_stats *out);
/* The same for the screen, which draws every frame: false too while a
 * checkpoint it scrubbed to is still being measured (trun_catch_up
 * measures it in parts, paused or not, and says it changed when done). */
bool trun_pane_heads_ready(const struct trun_pane *p, long scrub, struct train_head_stats *out);

/* Every layer's heads of the model p shows, measured and knocked out at
 * the live model's last evaluation; NULL for a one-layer model, a
 * checkpoint (scrub >= 0) or before the first evaluation. */
const struct train_layer_measures *trun_pane_layers(const struct trun_pane *p, long scrub);

/* Jobs lines a pane of a text with jobs keeps for them, measured or not
 * (the same live and scrubbed, so the layout holds): the text's jobs when
 * its heads are few enough to knock out one by one, else 0. */
int trun_pane_job_count(const struct trun_pane *p);
/* Whether the jobs of the model p shows were measured: the live model's
 * at its last evaluation, a checkpoint's as they were when it was kept. */
bool trun_pane_jobs_ready(const struct trun_pane *p, long scrub);
/* "agree+content": the jobs head h of the model p shows does, when
 * measured; "" otherwise. */
void trun_pane_jobs(const struct trun_pane *p, long scrub, int h, char *buf, size_t n);
/* "knocked out alone, long falls from 1.00 to 0.08": what knocking head h
 * of the model p shows out did to the text's jobs, when measured; ""
 * otherwise. */
void trun_pane_knocked(const struct trun_pane *p, long scrub, int h, char *buf, size_t n);
/* Job j's held-out top-1 with every head, of the model p shows (NaN when
 * not measured). */
float trun_pane_job_accuracy(const struct trun_pane *p, long scrub, int j);

/* Steps the curves' x axis runs over: a little beyond the step reached
 * while training (at least 500, at most the limit), the last step once
 * every run stopped. */
long trun_span(const struct trun *t);

/* The signs that pane p's file is too small to learn from (train_fit.h)
 * at its last evaluation, and what they say (signs 0: ""). */
unsigned trun_pane_fit(const struct trun_pane *p, char *buf, size_t n);

/* Output k's held-out accuracy at the step shown (the checkpoint's, or
 * the last evaluation's). */
float trun_pane_accuracy(const struct trun *t, const struct trun_pane *p, int k);

/* ---- what a text's model writes (trun_samples.c) ----------------------------------------- */

/* Whether pane p's model writes: a language model (an output "next" over
 * its vocabulary, train_model_next_output) with a sample to start from. */
bool trun_pane_writes(const struct trun_pane *p);
/* The lines shown on or off (on: at temperature, above 0), written at once
 * by every pane that writes from the model it shows, then again at each
 * evaluation of the live model and for each checkpoint scrubbed to.  0, or
 * -1 + err (on, and no pane writes: a task of letters). */
int trun_samples_show(struct trun *t, bool on, float temperature, struct mha_error *err);
/* The step of the model pane p shows: the live model's, or that of the
 * checkpoint scrubbed to. */
long trun_pane_shown_step(const struct trun *t, const struct trun_pane *p);
/* The lines pane p wrote last (n 0: none yet). */
const struct trun_samples *trun_pane_samples(const struct trun_pane *p);
/* The lines model m writes at step with the run's seed into out, through
 * writer (a model of m's sizes, whose parameters are overwritten).  0, or
 * -1 + err (out->n 0). */
int trun_samples_write(struct train_model *writer, const struct train_model *m, uint32_t seed,
                       long step, float temperature, struct trun_samples *out,
                       struct mha_error *err);

/* ---- a run watched, not trained (trun_watch.c) ----------------------------------------
 *
 * A follower of a teacher who trains, and a replay of such a recording, set
 * watch and build the screen's run from the teacher's snapshots: the
 * losses and evaluations in order (each evaluation goes through the same
 * stopping rule as training's), the model at the step reached, and the
 * checkpoints the teacher scrubbed to.  A pane or size that does not match
 * is refused (-1) and nothing changes. */

/* The training loss of steps from+1 .. from+n of pane (a step already
 * recorded is skipped; a gap is left as no loss). */
int trun_watch_losses(struct trun *t, int pane, long from, const float *loss, long n);
/* An evaluation at step: the training loss then, the held-out loss and
 * accuracy of each output. */
int trun_watch_eval(struct trun *t, int pane, long step, float train_loss, float loss,
                    const float *acc);
/* The model at mark->step: its parameters (n of them), its last step's
 * loss, the last evaluation's accuracies and a text's jobs (mark), what each
 * head does (roles: one a head, NULL to measure them here), why it stopped
 * (enum trun_stop) and the pace.  Kept as a checkpoint too. */
int trun_watch_model(struct trun *t, int pane, const float *params, size_t n,
                     const struct trun_mark *mark, const struct train_head_stats *roles, int stop,
                     int pace);
/* A checkpoint the teacher scrubbed to, kept among pane's. */
int trun_watch_checkpoint(struct trun *t, int pane, const float *params, size_t n,
                          const struct trun_mark *mark);
/* For trun_watch.c: what follows an evaluation of p (its history, the
 * stopping rule). */
void trun_pane_evaluated(struct trun_pane *p);

/* "1 head", "2 heads" */
void trun_pane_title(const struct trun_pane *p, char *buf, size_t n);
/* Why the run stopped (train_stopping_text), "" while it runs. */
void trun_stop_text(const struct trun_pane *p, char *buf, size_t n);
/* The step p trained to (the last whose loss it has): its model's, or,
 * once it went back to the model of its best evaluation, the step it
 * stopped at. */
long trun_pane_reached(const struct trun_pane *p);

#endif
