/* train_stop.c - when a run has learned what it will: the held-out score
 * at its best for the patience, or the step limit.  The training screen
 * and the command line train by this one rule. */
#include <stdio.h>

#include "train/train.h"
#include "train/train_text.h"

void train_stopping_init(struct train_stopping *s, int steps)
{
    const long fifth = steps / 5;
    *s = (struct train_stopping){
        .stop = TRAIN_RUNNING,
        .patience = fifth > TRAIN_STOP_PATIENCE_MIN ? fifth : TRAIN_STOP_PATIENCE_MIN};
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

enum train_stop train_stopping_evaluated(struct train_stopping *s, const struct train_run *run)
{
    const long step = run->model->step;
    const float score = train_run_score(run);
    train_fit_evaluated(&s->fit, step, run->eval_loss, run->last_loss);
    if (score > s->best + TRAIN_STOP_GAIN || step == 0) {
        s->best = score;
        s->best_step = step;
    } else if (step - s->best_step >= s->patience) {
        s->stop = TRAIN_STOP_SETTLED;
    }
    if (s->stop == TRAIN_RUNNING && step >= run->opt.steps)
        s->stop = TRAIN_STOP_LIMIT;
    return s->stop;
}

void train_stopping_text(const struct train_stopping *s, long step, char *buf, size_t n)
{
    switch (s->stop) {
    case TRAIN_RUNNING:
        snprintf(buf, n, "%s", "");
        break;
    case TRAIN_STOP_SETTLED:
        snprintf(buf, n,
                 "Stopped at step %ld: held-out accuracy at its best (%.1f%%, step %ld) "
                 "for %ld steps.",
                 step, 100.0 * (double)s->best, s->best_step, step - s->best_step);
        break;
    case TRAIN_STOP_LIMIT:
        snprintf(buf, n, "Stopped at the step limit, %ld; best held-out %.1f%% at step %ld.", step,
                 100.0 * (double)s->best, s->best_step);
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
    return s->stop;
}
