/* trun.c - training runs (trun.h): building them, the ticks that
 * train them, held-out evaluations, stopping by themselves and the layer
 * shown; what they measure of their heads is in trun_measure.c, their
 * checkpoints shown in trun_scrub.c.  No curses here. */
#include "train/trun.h"

#include "train/train_text.h"
#include "train/trun_parts.h"

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
    train_model_free(p->writer);
    free(p->layers);
    mha_example_free(p->start);
    trun_ring_done(&p->ring);
    trun_history_done(&p->hist);
    memset(p, 0, sizeof *p);
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

/* A pane that has stopped keeps the model of its best held-out
 * evaluation (train_run_keep_best): its heads, its layers and its text's
 * jobs measured again on it, as they were at that evaluation. */
static void pane_keep_best(struct trun_pane *p)
{
    if (!train_run_keep_best(p->run, &p->stopping))
        return;
    p->heads_begun = false;
    trun_roles_part(p, NULL, NULL);
    trun_layers_measure(p);
    p->text_jobs = (struct train_text_jobs){0};
    trun_jobs_part(p, NULL, NULL);
}

/* The live model as a checkpoint, offered to the ring. */
static void offer(struct trun_pane *p)
{
    struct trun_mark m;
    trun_mark_now(p, &m);
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

static bool pane_part(const struct trun *t, struct trun_pane *p, bool (*more)(void *ctx),
                      void *ctx);

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
    p->samples.n = 0;
    p->samples.step = -1;
}

static int pane_new(const struct trun *t, int heads, int layers, struct train_variant variant,
                    struct trun_pane *p, struct mha_error *err)
{
    memset(p, 0, sizeof *p);
    struct train_run_options opt = t->opt;
    if (layers > 0)
        opt.layers = layers;
    opt.variant = variant;
    p->run = train_run_new(t->task, t->d_model, heads, t->vocab, t->context, &opt, err);
    p->by_layers = t->compare_layers;
    p->by_variant = t->compare_variants;
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
    if (trun_layers_measured(p) && !(p->layers = calloc(1, sizeof *p->layers))) {
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
    t->compare_variants = s->compare_variants;
    t->rate = trun_first_rate(s);
    t->pace_steps_s = -1;
    t->pace_from = -1;
    t->scrub = -1;
    t->shown = true;
    t->serial = next_serial();
    for (int i = 0; i < s->n_heads; i++) {
        t->heads[i] = s->heads[i];
        t->layers[i] = s->layers[i];
        t->variants[i] = s->compare_variants ? s->variants[i] : s->opt.variant;
        if (pane_new(t, s->heads[i], s->layers[i], t->variants[i], &t->panes[i], err) != 0) {
            trun_free(t);
            return NULL;
        }
        t->n_panes = i + 1;
    }
    return t;
}

int trun_setup_task(struct trun_setup *s, const struct train_ask *a, struct mha_error *err)
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
    s->compare_variants = a->compare_variants;
    for (int i = 0; i < a->n_panes && i < TRUN_MAX_PANES; i++) {
        s->variants[i] = a->variants[i];
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
        if (pane_new(&nt, nt.heads[i], nt.layers[i], nt.variants[i], &nt.panes[i], err) != 0) {
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
static bool pane_part(const struct trun *t, struct trun_pane *p, bool (*more)(void *ctx), void *ctx)
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
            if (trun_roles_part(p, more, ctx) == 0)
                return false;
            trun_layers_measure(p);
            p->work = TRUN_WORK_JOBS;
            break;
        case TRUN_WORK_JOBS:
            if (trun_jobs_part(p, more, ctx) == 0)
                return false;
            p->work = TRUN_WORK_STEP;
            trun_pane_evaluated(p);
            offer(p);
            if (p->stop != TRUN_RUNNING)
                pane_keep_best(p);
            if (t->scrub < 0) /* the lines shown, when they are, rewritten */
                trun_pane_write(t, p, run->model, run->model->step);
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
        if (!pane_part(t, p, more, ctx)) {
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

/* A watched run (trun.h's watch): its ticks counted, nothing trained; a
 * checkpoint scrubbed to has its heads measured. */
static bool watch_catch_up(struct trun *t, long now_ms, bool exact)
{
    t->now_ms = now_ms;
    const long ticks = (now_ms - t->start_ms) / TRUN_TICK_MS;
    if (ticks > t->tick)
        t->tick = ticks;
    if (!trun_shown_pending(t))
        return false;
    struct frame frame = {exact ? 0.0 : wall_ms(), t, -KEY_LOOK_MS};
    return trun_shown_part(t, exact ? NULL : budget_left, &frame);
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
    if (trun_shown_pending(t)) { /* a checkpoint scrubbed to, its heads being measured */
        over = !trun_shown_part(t, exact ? NULL : budget_left, &frame);
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
    if (trun_shown_pending(t)) /* a checkpoint's heads go on at once */
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
        train_heads_measure(live, p->run->eval, trun_heads_sequences(p), p->roles, NULL) == 0;
    if (trun_jobs_measured(p)) {
        p->text_jobs = (struct train_text_jobs){0};
        trun_jobs_part(p, NULL, NULL);
    }
    p->shown_pending = p->shown_valid = false;
    if (t->scrub >= 0) /* the checkpoint shown again, its heads measured on this layer */
        trun_load_checkpoints(t, t->scrub);
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

long trun_span(const struct trun *t)
{
    long most = 0;
    for (int i = 0; i < t->n_panes; i++) {
        const long s = trun_pane_reached(&t->panes[i]);
        most = s > most ? s : most;
    }
    if (trun_done(t))
        return most > 0 ? most : 1;
    long span = (most + most / 4 + 99) / 100 * 100;
    span = span < 500 ? 500 : span;
    return span < t->opt.steps ? span : t->opt.steps;
}

/* ---- words ---------------------------------------------------------------------------- */

void trun_pane_title(const struct trun_pane *p, char *buf, size_t n)
{
    const struct train_config *c = &p->run->model->cfg;
    const int h = c->heads, l = train_layers(c);
    char v[TRAIN_VARIANT_NAME_MAX];
    train_variant_name(&c->variant, v, sizeof v);
    if (p->by_variant)
        snprintf(buf, n, "%s, %zu parameters", v, train_variant_parameters(c));
    else if (c->variant.kind != TRAIN_VARIANT_STANDARD && l > 1)
        snprintf(buf, n, "%s, %d head%s, %d layers", v, h, h == 1 ? "" : "s", l);
    else if (c->variant.kind != TRAIN_VARIANT_STANDARD)
        snprintf(buf, n, "%s, %d head%s", v, h, h == 1 ? "" : "s");
    else if (p->by_layers)
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
    train_stopping_text(&p->stopping, trun_pane_reached(p), buf, n);
}

long trun_pane_reached(const struct trun_pane *p)
{
    /* a step's loss is recorded as it is taken (a follower's as the
     * teacher's snapshots bring them) */
    const long step = p->run->model->step;
    return p->hist.n > step ? p->hist.n : step;
}
