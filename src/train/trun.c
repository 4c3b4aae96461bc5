/* trun.c - training runs (trun.h): building them, the ticks that
 * train them, held-out evaluations, stopping by themselves, checkpoints and
 * scrubbing back through them.  No curses here. */
#include "train/trun.h"

#include "train/train_text.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void pane_done(struct trun_pane *p)
{
    train_heads_job_free(p->heads_job);
    train_heads_job_free(p->shown_job);
    train_run_free(p->run);
    train_model_free(p->shown);
    free(p->layers);
    mha_example_free(p->start);
    trun_ring_done(&p->ring);
    trun_history_done(&p->hist);
    memset(p, 0, sizeof *p);
}

_Static_assert(TRUN_MARK_HEADS >= TRUN_JOBS_MAX_HEADS, "a checkpoint keeps every head's jobs");
_Static_assert(TRUN_MARK_JOBS >= TRAIN_TEXT_MAX_JOBS, "a checkpoint keeps every job");

static void mark_now(const struct trun_pane *p, struct trun_mark *m)
{
    const struct train_run *run = p->run;
    memset(m, 0, sizeof *m);
    m->step = run->model->step;
    m->loss = run->last_loss;
    for (int k = 0; k < TRUN_MAX_OUTPUTS && k < run->model->cfg.n_outputs; k++)
        m->acc[k] = run->accuracy[k];
    m->jobs_valid = p->jobs_valid;
    m->jobs_layer = run->model->shown_layer;
    if (p->jobs_valid) {
        memcpy(m->jobs, p->jobs, (size_t)run->model->cfg.heads * sizeof m->jobs[0]);
        for (int h = 0; h < run->model->cfg.heads; h++)
            memcpy(m->knocked[h], p->knocked[h], sizeof m->knocked[h]);
        for (int j = 0; j < p->jobs_all.n_jobs; j++)
            m->job_top1[j] = p->jobs_all.job_top1[j];
    }
}

/* The held-out sequences the heads are measured on: the first of them. */
static int heads_sequences(const struct trun_pane *p)
{
    const int size = p->run->eval->size;
    return size < TRAIN_HEADS_SEQUENCES ? size : TRAIN_HEADS_SEQUENCES;
}

/* Whether the live model's jobs are measured at each evaluation: the text
 * has jobs, and the heads are few enough to knock out one by one. */
static bool jobs_measured(const struct trun_pane *p)
{
    const struct train_dataset *d = p->run->task->data;
    return d && d->text && d->text->n_jobs && p->run->model->cfg.heads <= TRUN_JOBS_MAX_HEADS;
}

/* A measure of m's heads begun in *job, in the memory of the last one (made
 * the first time, kept until the pane goes): false when it cannot be had. */
static bool heads_begin(const struct trun_pane *p, struct train_heads_job **job,
                        const struct train_model *m)
{
    if (*job) {
        train_heads_job_restart(*job, m);
        return true;
    }
    *job = train_heads_job_new(m, p->run->eval, heads_sequences(p), NULL);
    return *job != NULL;
}

/* What the live model's heads do, measured in parts while more(ctx) says
 * so: 1 when done (the figures kept for the screen), 0 when it stopped
 * between sequences. */
static int roles_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx)
{
    const struct train_model *m = p->run->model;
    if (!p->heads_begun && !(p->heads_begun = heads_begin(p, &p->heads_job, m))) {
        p->roles_valid = false;
        return 1;
    }
    const int rc = train_heads_job_part(p->heads_job, m, p->run->eval, p->roles, more, ctx, NULL);
    if (rc == 0)
        return 0;
    p->heads_begun = false;
    p->roles_valid = rc > 0;
    return 1;
}

/* A text's jobs each head of the live model does, knocked out alone, in
 * parts (a held-out chunk each) while more(ctx) says so: 1 when done (the
 * labels shown until then stay until it is), 0 when it stopped. */
static int jobs_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx)
{
    if (!jobs_measured(p)) {
        p->jobs_valid = false;
        return 1;
    }
    const int rc = train_text_jobs_part(p->run, &p->text_jobs, more, ctx, NULL);
    if (rc == 0)
        return 0;
    p->jobs_valid = rc > 0;
    if (rc > 0) {
        memcpy(p->jobs, p->text_jobs.does, (size_t)p->run->model->cfg.heads * sizeof p->jobs[0]);
        memcpy(p->knocked, p->text_jobs.knocked,
               (size_t)p->run->model->cfg.heads * sizeof p->knocked[0]);
        p->jobs_all = p->text_jobs.all;
    }
    p->text_jobs = (struct train_text_jobs){0};
    return 1;
}

/* Multiply-adds the measures of a model of layers may take at an
 * evaluation (about 0.05 s): the induction task's two layers of two heads
 * at d_model 32 take 0.3 billion. */
#define TRUN_LAYERS_WORK 2e9

/* Whether every layer's heads are measured and knocked out at each
 * evaluation: a model of layers, of at most TRUN_JOBS_MAX_HEADS heads, whose
 * knock-outs (two forward passes of the layers' projections for each head)
 * take at most TRUN_LAYERS_WORK. */
static bool layers_measured(const struct trun_pane *p)
{
    const struct train_config *c = &p->run->model->cfg;
    const double L = train_layers(c), d = c->d_model;
    const double rows = (double)heads_sequences(p) * c->context;
    return L > 1 && c->heads <= TRUN_JOBS_MAX_HEADS &&
           2.0 * L * c->heads * rows * L * 4.0 * d * d <= TRUN_LAYERS_WORK;
}

/* Every layer's heads of the live model, measured and knocked out on the
 * held-out sequences its heads are measured on (layers_measured). */
static void layers_measure(struct trun_pane *p)
{
    if (!p->layers)
        return;
    struct train_batch few;
    train_batch_view(p->run->eval, 0, heads_sequences(p), &few);
    p->layers_valid =
        train_layers_measure(p->run->model, &few, heads_sequences(p), p->layers, NULL) == 0;
}

const struct train_layer_measures *trun_pane_layers(const struct trun_pane *p, long scrub)
{
    return scrub < 0 && p->layers && p->layers_valid ? p->layers : NULL;
}

int trun_pane_job_count(const struct trun_pane *p)
{
    return jobs_measured(p) ? p->run->task->data->text->n_jobs : 0;
}

/* The checkpoint shown at scrub (NULL: none). */
static const struct trun_mark *shown_mark(const struct trun_pane *p, long scrub)
{
    return trun_ring_mark(&p->ring, trun_ring_find(&p->ring, scrub));
}

bool trun_pane_jobs_ready(const struct trun_pane *p, long scrub)
{
    if (scrub < 0)
        return p->jobs_valid;
    const struct trun_mark *mk = shown_mark(p, scrub);
    return mk && mk->jobs_valid && mk->jobs_layer == p->shown->shown_layer;
}

void trun_pane_jobs(const struct trun_pane *p, long scrub, int h, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (!trun_pane_jobs_ready(p, scrub) || h < 0 || h >= p->run->model->cfg.heads)
        return;
    train_text_jobs_label(p->run->task->data->text,
                          scrub < 0 ? p->jobs[h] : shown_mark(p, scrub)->jobs[h], buf, n);
}

void trun_pane_knocked(const struct trun_pane *p, long scrub, int h, char *buf, size_t n)
{
    if (n)
        buf[0] = '\0';
    if (!trun_pane_jobs_ready(p, scrub) || h < 0 || h >= p->run->model->cfg.heads)
        return;
    const struct trun_mark *mk = scrub < 0 ? NULL : shown_mark(p, scrub);
    train_text_knocked_text(p->run->task->data->text, mk ? mk->job_top1 : p->jobs_all.job_top1,
                            mk ? mk->knocked[h] : p->knocked[h], buf, n);
}

float trun_pane_job_accuracy(const struct trun_pane *p, long scrub, int j)
{
    if (!trun_pane_jobs_ready(p, scrub) || j < 0 || j >= trun_pane_job_count(p))
        return NAN;
    return scrub < 0 ? p->jobs_all.job_top1[j] : shown_mark(p, scrub)->job_top1[j];
}

/* What follows a held-out evaluation of p's live model and the measures
 * of its heads: the figures kept, and whether the run stops (its score at
 * its best for the patience). */
void trun_pane_evaluated(struct trun_pane *p)
{
    struct train_run *run = p->run;
    trun_history_eval(&p->hist, run->model->step, run->accuracy, run->eval_loss);
    switch (train_stopping_evaluated(&p->stopping, run)) {
    case TRAIN_STOP_SETTLED:
        p->stop = TRUN_STOP_STABLE;
        break;
    case TRAIN_STOP_LIMIT:
        p->stop = TRUN_STOP_LIMIT;
        break;
    case TRAIN_RUNNING:
        break;
    }
}

/* The live model as a checkpoint, offered to the ring. */
static void offer(struct trun_pane *p)
{
    struct trun_mark m;
    mark_now(p, &m);
    trun_ring_offer(&p->ring, p->run->model->step, p->run->model->params, &m);
}

/* Whatever p had begun between frames, dropped: a step, an evaluation,
 * the measures of its heads. */
static void pane_drop_work(struct trun_pane *p)
{
    p->work = TRUN_WORK_STEP;
    p->eval_job = (struct train_eval_job){0};
    p->heads_begun = false;
    p->text_jobs = (struct train_text_jobs){0};
    p->round_done = false;
    p->shown_pending = false;
    p->shown_valid = false;
}

static bool pane_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx);

/* A pane at step 0: its first evaluation and checkpoint. */
static void pane_begin(const struct trun *t, struct trun_pane *p)
{
    p->stop = TRUN_RUNNING;
    train_stopping_init(&p->stopping, t->opt.steps);
    p->run->last_loss = NAN;
    trun_ring_clear(&p->ring, TRUN_CHECKPOINT_EVERY);
    trun_history_clear(&p->hist, p->run->model->cfg.n_outputs);
    pane_drop_work(p);
    /* the first evaluation goes with the first step, in its parts */
    p->work = TRUN_WORK_EVAL;
    p->roles_valid = false;
    p->jobs_valid = false;
    p->layers_valid = false;
}

static int pane_new(const struct trun *t, int heads, int layers, struct trun_pane *p,
                    struct mha_error *err)
{
    memset(p, 0, sizeof *p);
    struct train_run_options opt = t->opt;
    if (layers > 0)
        opt.layers = layers;
    p->run = train_run_new(t->task, t->d_model, heads, t->vocab, t->context, &opt, err);
    p->by_layers = t->compare_layers;
    if (!p->run)
        return -1;
    const struct train_model *m = p->run->model;
    p->shown = train_model_new(&m->cfg, 1, err);
    if (!p->shown || train_model_copy_params(p->shown, m, err) != 0) {
        pane_done(p);
        return -1;
    }
    p->start = train_model_to_example(m, err);
    if (!p->start) {
        pane_done(p);
        return -1;
    }
    if (layers_measured(p) && !(p->layers = calloc(1, sizeof *p->layers))) {
        mha_error_set(err, "out of memory");
        pane_done(p);
        return -1;
    }
    if (trun_ring_init(&p->ring, TRUN_CHECKPOINTS, m->n_params, TRUN_CHECKPOINT_EVERY) != 0 ||
        trun_history_init(&p->hist, t->opt.steps, m->cfg.n_outputs,
                          t->opt.steps / TRUN_EVAL_EVERY + 2) != 0) {
        mha_error_set(err, "out of memory for the checkpoints of %d steps", t->opt.steps);
        pane_done(p);
        return -1;
    }
    pane_begin(t, p);
    return 0;
}

/* The pace a run starts at: the default, but a text at the slowest rate
 * from it up that reaches the step limit in TRUN_TEXT_SECONDS. */
static int trun_first_rate(const struct trun_setup *s)
{
    int r = TRUN_RATE_DEFAULT;
    if (s->task->data && s->task->data->text)
        while (r + 1 < TRUN_RATE_COUNT &&
               (long)trun_rates[r] * TRUN_TEXT_SECONDS < (long)s->opt.steps)
            r++;
    return r;
}

/* A number no other run of this program had (trun.h's serial). */
static unsigned next_serial(void)
{
    static unsigned serial;
    return ++serial;
}

struct trun *trun_new(const struct trun_setup *s, struct mha_error *err)
{
    if (s->n_heads < 1 || s->n_heads > TRUN_MAX_PANES) {
        mha_error_set(err, "--compare: from 1 to %d head counts, got %d", TRUN_MAX_PANES,
                      s->n_heads);
        return NULL;
    }
    struct trun *t = calloc(1, sizeof *t);
    if (!t) {
        mha_error_set(err, "out of memory");
        return NULL;
    }
    t->task = s->task;
    t->d_model = s->d_model;
    t->vocab = s->vocab;
    t->context = s->context;
    t->opt = s->opt;
    t->compare = s->compare;
    t->compare_layers = s->compare_layers;
    t->rate = trun_first_rate(s);
    t->pace_steps_s = -1;
    t->pace_from = -1;
    t->scrub = -1;
    t->shown = true;
    t->serial = next_serial();
    for (int i = 0; i < s->n_heads; i++) {
        t->heads[i] = s->heads[i];
        t->layers[i] = s->layers[i];
        if (pane_new(t, s->heads[i], s->layers[i], &t->panes[i], err) != 0) {
            trun_free(t);
            return NULL;
        }
        t->n_panes = i + 1;
    }
    return t;
}

int trun_setup_task(struct trun_setup *s, const struct trun_ask *a, struct mha_error *err)
{
    memset(s, 0, sizeof *s);
    s->task = a->task;
    if (!s->task)
        return mha_error_set(err, "train: no task");
    s->d_model = a->d_model;
    s->vocab = a->vocab;
    s->context = a->context;
    train_run_options_default(&s->opt);
    s->opt.seed = a->seed;
    s->opt.steps = a->steps;
    s->opt.lr = a->lr;
    s->opt.layers = a->layers;
    s->n_heads = a->n_panes;
    s->compare = a->n_panes > 1;
    s->compare_layers = a->compare_layers;
    for (int i = 0; i < a->n_panes && i < TRUN_MAX_PANES; i++) {
        s->heads[i] = a->compare_layers ? a->heads : a->counts[i];
        s->layers[i] = a->compare_layers ? a->counts[i] : 0;
    }
    return 0;
}

void trun_free(struct trun *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n_panes; i++)
        pane_done(&t->panes[i]);
    free(t);
}

/* Pane p from step 0 with seed, in the memory it has (the same model, only
 * another seed): nothing is allocated, so retraining does not grow the
 * program. */
static int pane_reseed(const struct trun *t, struct trun_pane *p, uint32_t seed,
                       struct mha_error *err)
{
    if (train_run_reseed(p->run, seed, err) != 0 ||
        train_model_copy_params(p->shown, p->run->model, err) != 0 ||
        train_model_fill_example(p->run->model, p->start, err) != 0)
        return -1;
    for (int i = 0; i < p->run->model->sample_len; i++) /* the new sample's tokens */
        mha_example_set_token(p->start, false, i,
                              p->run->model->vocab_names[p->run->model->sample[i]]);
    pane_begin(t, p);
    return 0;
}

/* t's clock, pace and view from the start again, at session time now_ms:
 * nothing in flight, training, the model as it is shown. */
static void run_again(struct trun *t, long now_ms)
{
    t->tick = 0;
    t->round_open = false;
    t->pace_steps_s = -1;
    t->pace_from = -1;
    t->start_ms = now_ms;
    t->scrub = -1;
    t->paused = false;
    t->serial = next_serial();
}

int trun_restart(struct trun *t, uint32_t seed, int heads, struct mha_error *err)
{
    bool same = true; /* the same models, another seed: retrained in place */
    for (int i = 0; i < t->n_panes; i++)
        same = same && (heads <= 0 || t->n_panes > 1 || heads == t->panes[i].run->model->cfg.heads);
    if (same) {
        t->opt.seed = seed;
        for (int i = 0; i < t->n_panes; i++)
            if (pane_reseed(t, &t->panes[i], seed, err) != 0)
                return -1;
        run_again(t, t->now_ms);
        return 0;
    }
    struct trun nt = *t;
    nt.opt.seed = seed;
    if (heads > 0 && t->n_panes == 1)
        nt.heads[0] = heads;
    for (int i = 0; i < t->n_panes; i++) {
        if (pane_new(&nt, nt.heads[i], nt.layers[i], &nt.panes[i], err) != 0) {
            for (int j = 0; j < i; j++)
                pane_done(&nt.panes[j]);
            return -1;
        }
    }
    for (int i = 0; i < t->n_panes; i++)
        pane_done(&t->panes[i]);
    run_again(&nt, t->now_ms);
    *t = nt;
    return 0;
}

/* p's next step, then (when due) the held-out evaluation and the measures
 * of its heads, in parts while more(ctx) says so (NULL: to the end): true
 * when all are done or p stopped, false when they stopped between parts
 * (the next call goes on). */
static bool pane_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx)
{
    struct train_run *run = p->run;
    for (;;) {
        switch (p->work) {
        case TRUN_WORK_STEP: {
            const int rc = train_run_step_part(run, more, ctx);
            if (rc == 0)
                return false;
            if (rc < 0) {
                p->stop = TRUN_STOP_LIMIT;
                return true;
            }
            trun_history_loss(&p->hist, run->last_loss);
            if (!train_stopping_due(run)) { /* as headless training evaluates */
                offer(p);
                return true;
            }
            p->work = TRUN_WORK_EVAL;
            break;
        }
        case TRUN_WORK_EVAL:
            if (train_run_evaluate_part(run, &p->eval_job, more, ctx) == 0)
                return false;
            p->work = TRUN_WORK_ROLES;
            break;
        case TRUN_WORK_ROLES:
            if (roles_part(p, more, ctx) == 0)
                return false;
            layers_measure(p);
            p->work = TRUN_WORK_JOBS;
            break;
        case TRUN_WORK_JOBS:
            if (jobs_part(p, more, ctx) == 0)
                return false;
            p->work = TRUN_WORK_STEP;
            trun_pane_evaluated(p);
            offer(p);
            if (run->model->step == 0 && p->stop == TRUN_RUNNING)
                break; /* the first evaluation: on to the first step */
            return true;
        }
        if (more && !more(ctx))
            return false;
    }
}

/* A step of every pane still running (a round), in parts while more(ctx)
 * says so: true when the round is done, false when it stopped between
 * parts (t->round_open: the next call goes on with it).  The panes are
 * independent, so their steps may interleave. */
static bool round_part(struct trun *t, bool (*more)(void *ctx), void *ctx)
{
    for (int i = 0; i < t->n_panes; i++) {
        struct trun_pane *p = &t->panes[i];
        if (p->round_done || p->stop != TRUN_RUNNING)
            continue;
        if (!pane_part(p, more, ctx)) {
            t->round_open = true;
            return false;
        }
        p->round_done = true;
    }
    for (int i = 0; i < t->n_panes; i++)
        t->panes[i].round_done = false;
    t->round_open = false;
    return true;
}

/* n whole rounds, the first the one in flight if there is one. */
static void steps(struct trun *t, int n)
{
    for (int i = 0; i < n; i++)
        round_part(t, NULL, NULL);
}

bool trun_done(const struct trun *t)
{
    for (int i = 0; i < t->n_panes; i++)
        if (t->panes[i].stop == TRUN_RUNNING)
            return false;
    return true;
}

/* Milliseconds on a monotonic clock (the frame's budget). */
static double wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* Milliseconds between two looks for a waiting key within a frame: a part
 * can take a few microseconds, a look is a system call. */
#define KEY_LOOK_MS 1.0

/* A frame of the screen's catch-up: when it began, its run, and when it
 * last looked for a waiting key. */
struct frame {
    double begin;
    const struct trun *t;
    double looked;
};

/* Whether the frame (a struct frame) has time left and no key waits. */
static bool budget_left(void *frame)
{
    struct frame *f = frame;
    const double now = wall_ms();
    if (now - f->begin > TRUN_BUDGET_MS)
        return false;
    if (!f->t->interrupt || now - f->looked < KEY_LOOK_MS)
        return true;
    f->looked = now;
    return !f->t->interrupt();
}

/* A round in the frame's parts: 1 when it was done (*over when the frame
 * has no time left for another), 0 when it stopped between parts. */
static int frame_round(struct trun *t, struct frame *f, bool *over)
{
    *over = !round_part(t, budget_left, f);
    if (*over)
        return 0;
    *over = wall_ms() - f->begin > TRUN_BUDGET_MS;
    return 1;
}

/* Steps done over the last second of the session clock: the pace kept. */
static void pace_note(struct trun *t, long now_ms, int k)
{
    if (t->pace_from < 0) { /* the first steps since the start */
        t->pace_from = now_ms;
        t->pace_count = 0;
    }
    if (now_ms - t->pace_from >= 1000) {
        t->pace_steps_s = (int)((double)t->pace_count * 1000.0 / (double)(now_ms - t->pace_from));
        t->pace_from = now_ms;
        t->pace_count = 0;
    }
    t->pace_count += k;
}

static bool shown_part(struct trun *t, bool (*more)(void *ctx), void *ctx);
static bool shown_pending(const struct trun *t);

/* A watched run (trun.h's watch): its ticks counted, nothing trained; a
 * checkpoint scrubbed to has its heads measured. */
static bool watch_catch_up(struct trun *t, long now_ms, bool exact)
{
    t->now_ms = now_ms;
    const long ticks = (now_ms - t->start_ms) / TRUN_TICK_MS;
    if (ticks > t->tick)
        t->tick = ticks;
    if (!shown_pending(t))
        return false;
    struct frame frame = {exact ? 0.0 : wall_ms(), t, -KEY_LOOK_MS};
    return shown_part(t, exact ? NULL : budget_left, &frame);
}

bool trun_catch_up(struct trun *t, long now_ms, bool exact, int max_ticks)
{
    if (t->watch)
        return watch_catch_up(t, now_ms, exact);
    t->now_ms = now_ms;
    long due = t->start_ms + (t->tick + 1) * TRUN_TICK_MS;
    /* a clock that jumped (a replay ended, the machine could not keep up):
     * go on from now rather than rush or wait */
    if (!exact && (now_ms - due > 1000 || due - now_ms > 1000 + TRUN_TICK_MS)) {
        t->start_ms = now_ms - t->tick * TRUN_TICK_MS;
        due = t->start_ms + (t->tick + 1) * TRUN_TICK_MS;
    }
    bool changed = false;
    /* the screen's own clock: keys first, then the ticks that fit a frame's
     * budget; what does not fit is dropped (the header says the pace the
     * machine keeps).  A recording and its replay run every tick. */
    struct frame frame = {exact ? 0.0 : wall_ms(), t, -KEY_LOOK_MS};
    bool over = false;
    if (shown_pending(t)) { /* a checkpoint scrubbed to, its heads being measured */
        over = !shown_part(t, exact ? NULL : budget_left, &frame);
        changed = !over;
    }
    if (!over && t->round_open && !exact && !t->paused && !trun_done(t)) {
        /* a step (or its evaluation) that did not fit the last frame goes
         * on at once, not at the next tick */
        pace_note(t, now_ms, frame_round(t, &frame, &over));
        changed = true;
    }
    for (int n = 0; due <= now_ms && !over && (max_ticks <= 0 || n < max_ticks); n++) {
        t->tick++;
        if (t->paused || trun_done(t)) { /* the pace is of the time spent training */
            t->pace_from = now_ms;
            t->pace_count = 0;
        } else {
            const int k = trun_tick_steps(t->tick, trun_rates[t->rate]);
            int done = k;
            if (exact) {
                steps(t, k);
            } else { /* in parts, as long as the frame's budget lasts: a step
                      * or an evaluation that does not fit goes on next frame */
                for (done = 0; done < k && !over;)
                    done += frame_round(t, &frame, &over);
            }
            pace_note(t, now_ms, done);
            changed = true;
        }
        due += TRUN_TICK_MS;
    }
    if (over && due <= now_ms) /* what did not fit is dropped: go on from now */
        t->start_ms = now_ms - t->tick * TRUN_TICK_MS;
    return changed;
}

int trun_pace(const struct trun *t)
{
    return t->pace_steps_s;
}

int trun_wait_ms(const struct trun *t, long now_ms, int cap)
{
    if (shown_pending(t)) /* a checkpoint's heads go on at once */
        return 0;
    if (t->paused || trun_done(t))
        return cap;
    if (t->round_open) /* a step in parts goes on at once */
        return 0;
    const long due = t->start_ms + (t->tick + 1) * TRUN_TICK_MS - now_ms;
    return due < 0 ? 0 : due < cap ? (int)due : cap;
}

void trun_step_once(struct trun *t)
{
    t->paused = true;
    t->scrub = -1;
    if (!t->watch) /* a watched run's steps come from the teacher */
        steps(t, 1);
}

/* ---- checkpoints ------------------------------------------------------------------------- */

long trun_shown_step(const struct trun *t)
{
    return t->scrub >= 0 ? t->scrub : t->panes[0].run->model->step;
}

/* Load the checkpoint at or before step into every pane's shown model. */
static void load_checkpoints(struct trun *t, long step)
{
    struct mha_error err;
    for (int i = 0; i < t->n_panes; i++) {
        struct trun_pane *p = &t->panes[i];
        const int c = trun_ring_find(&p->ring, step);
        const float *params = trun_ring_params(&p->ring, c);
        if (!params && step != 0)
            continue;
        if (params) /* else step 0 before its checkpoint: the shown model's own start */
            memcpy(p->shown->params, params, p->shown->n_params * sizeof *params);
        mha_error_clear(&err);
        train_model_sample_forward(p->shown, &err);
        /* its heads measured in parts (shown_part), the screen answering
         * meanwhile (and measuring them itself if the job cannot be had);
         * the live model's stay as they are */
        p->shown_pending = heads_begin(p, &p->shown_job, p->shown);
        p->shown_of = step;
        p->shown_valid = false;
    }
}

/* The checkpoints' heads load_checkpoints began to measure, in parts while
 * more(ctx) says so (NULL: to the end): true when none is left. */
static bool shown_part(struct trun *t, bool (*more)(void *ctx), void *ctx)
{
    for (int i = 0; i < t->n_panes; i++) {
        struct trun_pane *p = &t->panes[i];
        if (!p->shown_pending)
            continue;
        const int rc = train_heads_job_part(p->shown_job, p->shown, p->run->eval, p->shown_roles,
                                            more, ctx, NULL);
        if (rc == 0)
            return false;
        p->shown_valid = rc > 0;
        p->shown_pending = false;
    }
    return true;
}

static bool shown_pending(const struct trun *t)
{
    for (int i = 0; i < t->n_panes; i++)
        if (t->panes[i].shown_pending)
            return true;
    return false;
}

void trun_scrub(struct trun *t, int dir)
{
    const struct trun_ring *r = &t->panes[0].ring;
    if (r->n == 0)
        return;
    int c;
    if (t->scrub < 0)
        c = dir < 0 ? r->n - 1 : -1;
    else
        c = trun_ring_find(r, t->scrub) + (dir < 0 ? -1 : 1);
    /* the last checkpoint going left is where the live model is unless it moved on */
    if (t->scrub < 0 && dir < 0 && trun_ring_mark(r, c)->step == trun_shown_step(t))
        c--;
    if (c < 0) {
        c = 0;
    } else if (c >= r->n) {
        trun_scrub_live(t);
        return;
    }
    t->paused = true;
    t->scrub = trun_ring_mark(r, c)->step;
    load_checkpoints(t, t->scrub);
}

void trun_scrub_live(struct trun *t)
{
    t->scrub = -1;
}

void trun_scrub_to(struct trun *t, long step)
{
    t->paused = true;
    t->scrub = step < 0 ? 0 : step;
    load_checkpoints(t, t->scrub);
}

void trun_scrub_first(struct trun *t)
{
    trun_scrub_to(t, 0);
}

int trun_show_layer(struct trun *t, int pane, int layer, struct mha_error *err)
{
    if (pane < 0 || pane >= t->n_panes)
        return mha_error_set(err, "pane %d: there are panes 0 to %d", pane, t->n_panes - 1);
    struct trun_pane *p = &t->panes[pane];
    struct train_model *live = p->run->model;
    const int was = live->shown_layer;
    if (train_model_show_layer(live, layer, err))
        return -1;
    live->shown_layer = was; /* the round in flight ends on the layer it began on */
    if (t->round_open)       /* a step, evaluation or measure in flight reads the layer shown */
        round_part(t, NULL, NULL);
    live->shown_layer = p->shown->shown_layer = layer;
    train_model_sample_forward(live, NULL);
    /* the model at step 0 on this layer, for the heads view (step 0 is always kept) */
    const float *first = trun_ring_params(&p->ring, trun_ring_find(&p->ring, 0));
    memcpy(p->shown->params, first ? first : live->params, p->shown->n_params * sizeof(float));
    if (train_model_sample_forward(p->shown, err) ||
        train_model_fill_example(p->shown, p->start, err))
        return -1;
    /* what this layer's heads do: measured now, for the live model */
    p->heads_begun = false;
    p->roles_valid =
        train_heads_measure(live, p->run->eval, heads_sequences(p), p->roles, NULL) == 0;
    if (jobs_measured(p)) {
        p->text_jobs = (struct train_text_jobs){0};
        jobs_part(p, NULL, NULL);
    }
    p->shown_pending = p->shown_valid = false;
    if (t->scrub >= 0) /* the checkpoint shown again, its heads measured on this layer */
        load_checkpoints(t, t->scrub);
    return 0;
}

int trun_show_layers(struct trun *t, int layer, struct mha_error *err)
{
    for (int i = 0; i < t->n_panes; i++) {
        const struct train_model *m = t->panes[i].run->model;
        const int want = layer >= 0 ? layer : train_layers(&m->cfg) - 1;
        if (m->shown_layer != want && trun_show_layer(t, i, want, err))
            return -1;
    }
    return 0;
}

const struct train_model *trun_pane_model(const struct trun_pane *p, long scrub)
{
    return scrub >= 0 ? p->shown : p->run->model;
}

bool trun_pane_heads_ready(const struct trun_pane *p, long scrub, struct train_head_stats *out)
{
    if (p->shown_pending && scrub == p->shown_of)
        return false;
    if (scrub < 0 && !p->roles_valid && p->work != TRUN_WORK_STEP)
        return false; /* the live model's, measured in the parts in flight */
    return trun_pane_heads(p, scrub, out);
}

bool trun_pane_heads(const struct trun_pane *p, long scrub, struct train_head_stats *out)
{
    const int heads = p->run->model->cfg.heads;
    const bool kept = scrub < 0 ? p->roles_valid : p->shown_valid && p->shown_of == scrub;
    if (kept) {
        memcpy(out, scrub < 0 ? p->roles : p->shown_roles, (size_t)heads * sizeof *out);
        return true;
    }
    /* not measured yet: now */
    return train_heads_measure(trun_pane_model(p, scrub), p->run->eval, heads_sequences(p), out,
                               NULL) == 0;
}

long trun_span(const struct trun *t)
{
    long most = 0;
    for (int i = 0; i < t->n_panes; i++) {
        const long s = t->panes[i].run->model->step;
        most = s > most ? s : most;
    }
    if (trun_done(t))
        return most > 0 ? most : 1;
    long span = (most + most / 4 + 99) / 100 * 100;
    span = span < 500 ? 500 : span;
    return span < t->opt.steps ? span : t->opt.steps;
}

float trun_pane_accuracy(const struct trun *t, const struct trun_pane *p, int k)
{
    if (t->scrub < 0)
        return p->run->accuracy[k];
    const struct trun_mark *mk = trun_ring_mark(&p->ring, trun_ring_find(&p->ring, t->scrub));
    return mk ? mk->acc[k] : NAN;
}

/* ---- words ---------------------------------------------------------------------------- */

void trun_pane_title(const struct trun_pane *p, char *buf, size_t n)
{
    const int h = p->run->model->cfg.heads, l = train_layers(&p->run->model->cfg);
    if (p->by_layers)
        snprintf(buf, n, "%d layer%s", l, l == 1 ? "" : "s");
    else if (l > 1)
        snprintf(buf, n, "%d head%s, %d layers", h, h == 1 ? "" : "s", l);
    else
        snprintf(buf, n, "%d head%s", h, h == 1 ? "" : "s");
}

unsigned trun_pane_fit(const struct trun_pane *p, char *buf, size_t n)
{
    const unsigned signs = train_run_fit_signs(&p->stopping, p->run);
    train_fit_text(&p->stopping.fit, signs, train_run_text_words(p->run), buf, n);
    return signs;
}

void trun_stop_text(const struct trun_pane *p, char *buf, size_t n)
{
    train_stopping_text(&p->stopping, p->run->model->step, buf, n);
}
