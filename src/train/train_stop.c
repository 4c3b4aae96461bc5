/* train_stop.c - when a run has learned what it will: the held-out score
 * at its best for the patience, or the step limit.  The training screen
 * and the command line train by this one rule. */
#include <stdio.h>
#include <string.h>

#include "train/train.h"
#include "train/train_text.h"

void train_stopping_init(struct train_stopping *s, int steps)
{
    const long fifth = steps / 5;
    *s = (struct train_stopping){
        .stop = TRAIN_RUNNING,
        .patience = fifth > TRAIN_STOP_PATIENCE_MIN ? fifth : TRAIN_STOP_PATIENCE_MIN,
        .kept_step = -1,
        .last_step = -1};
    train_fit_init(&s->fit);
}

float train_run_score(const struct train_run *run)
{
    float worst = 1.0f;
    for (int k = 0; k < run->model->cfg.n_outputs; k++)
        worst = run->accuracy[k] < worst ? run->accuracy[k] : worst;
    return worst;
}

bool train_stopping_due(const struct train_run *run)
{
    const long step = run->model->step;
    return step % TRAIN_EVAL_EVERY == 0 || step >= run->opt.steps;
}

enum train_stop train_stopping_evaluated(struct train_stopping *s, struct train_run *run)
{
    const struct train_model *m = run->model;
    const long step = m->step;
    const float score = train_run_score(run);
    train_fit_evaluated(&s->fit, step, run->eval_loss, run->last_loss);
    const bool better = score > s->best + TRAIN_STOP_GAIN || step == 0;
    const bool keep = run->task->data ? s->fit.step == step && s->fit.best_step == step : better;
    if (keep) {
        memcpy(run->best_params, m->params, m->n_params * sizeof *m->params);
        run->best_params_step = step;
        s->kept_step = step;
    }
    if (better) {
        s->best = score;
        s->best_step = step;
    } else if (step - s->best_step >= s->patience) {
        s->stop = TRAIN_STOP_SETTLED;
    }
    if (s->stop == TRAIN_RUNNING && step >= run->opt.steps)
        s->stop = TRAIN_STOP_LIMIT;
    return s->stop;
}

bool train_run_keep_best(struct train_run *run, struct train_stopping *s)
{
    struct train_model *m = run->model;
    if (s->stop == TRAIN_RUNNING || s->kept_step < 0 || run->best_params_step != s->kept_step ||
        m->step == s->kept_step)
        return false;
    s->last_step = m->step;
    memcpy(s->last_accuracy, run->accuracy, sizeof s->last_accuracy);
    s->last_eval_loss = run->eval_loss;
    memcpy(m->params, run->best_params, m->n_params * sizeof *m->params);
    m->step = s->kept_step;
    train_run_evaluate(run);
    train_model_sample_forward(m, NULL);
    return true;
}

long train_stopping_last_step(const struct train_stopping *s, const struct train_run *run)
{
    return s->last_step >= 0 ? s->last_step : run->model->step;
}

/* ", keeping step N's model", and why when it is not the best score's:
 * first in the message, so a narrow screen shows it */
static void kept_text(const struct train_stopping *s, long step, char *buf, size_t n)
{
    const long kept = s->kept_step >= 0 ? s->kept_step : step;
    if (kept != s->best_step)
        snprintf(buf, n, ", keeping step %ld's model (held-out loss lowest, %.4f)", kept,
                 (double)s->fit.best);
    else
        snprintf(buf, n, ", keeping step %ld's model", kept);
}

void train_stopping_text(const struct train_stopping *s, long step, char *buf, size_t n)
{
    char kept[128];
    kept_text(s, step, kept, sizeof kept);
    const bool there = s->kept_step < 0 || s->kept_step == s->best_step;
    switch (s->stop) {
    case TRAIN_RUNNING:
        snprintf(buf, n, "%s", "");
        break;
    case TRAIN_STOP_SETTLED:
        if (there)
            snprintf(buf, n,
                     "Stopped at step %ld%s: held-out accuracy at its best there (%.1f%%) "
                     "for %ld steps.",
                     step, kept, 100.0 * (double)s->best, step - s->best_step);
        else
            snprintf(buf, n,
                     "Stopped at step %ld%s: held-out accuracy at its best (%.1f%%, step "
                     "%ld) for %ld steps.",
                     step, kept, 100.0 * (double)s->best, s->best_step, step - s->best_step);
        break;
    case TRAIN_STOP_LIMIT:
        if (there)
            snprintf(buf, n, "Stopped at the step limit, %ld%s: best held-out %.1f%% there.", step,
                     kept, 100.0 * (double)s->best);
        else
            snprintf(buf, n, "Stopped at the step limit, %ld%s: best held-out %.1f%% at step %ld.",
                     step, kept, 100.0 * (double)s->best, s->best_step);
        break;
    }
}

long train_run_text_words(const struct train_run *run)
{
    const struct train_dataset *d = run->task->data;
    return d && d->text ? d->text->words : -1;
}

unsigned train_run_fit_signs(const struct train_stopping *s, const struct train_run *run)
{
    if (!run->task->data)
        return 0;
    return train_fit_signs(&s->fit, train_run_text_words(run));
}

enum train_stop train_run_until_stopped(struct train_run *run, struct train_stopping *s,
                                        void (*progress)(long step, long limit, void *ctx),
                                        bool (*stop_now)(void *ctx), void *ctx)
{
    if (run->model->step == 0 && s->stop == TRAIN_RUNNING) {
        train_run_evaluate(run);
        train_stopping_evaluated(s, run);
    }
    while (s->stop == TRAIN_RUNNING) {
        if (stop_now && stop_now(ctx))
            return TRAIN_RUNNING;
        /* on to the next evaluation (or the limit); a step at a time when
         * the caller may want to stop between steps */
        const long step = run->model->step, limit = run->opt.steps;
        long n = stop_now ? 1 : TRAIN_EVAL_EVERY - step % TRAIN_EVAL_EVERY;
        n = step + n > limit ? limit - step : n;
        if (n <= 0 || train_run_steps(run, (int)n) != n) { /* the limit was already reached */
            s->stop = TRAIN_STOP_LIMIT;
            break;
        }
        if (train_stopping_due(run)) {
            train_run_evaluate(run);
            train_stopping_evaluated(s, run);
            if (progress)
                progress(run->model->step, run->opt.steps, ctx);
        }
    }
    train_run_keep_best(run, s);
    return s->stop;
}
