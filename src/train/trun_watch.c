/* trun_watch.c - a training run watched, not trained (trun.h): the
 * teacher's losses, evaluations, model and checkpoints put where the
 * screen reads a run's own, so a follower draws the teacher's run with the
 * same code and trains nothing. */
#include "train/trun.h"

#include "train/trun_parts.h"

#include <math.h>
#include <string.h>

static struct trun_pane *pane_of(struct trun *t, int pane)
{
    return t && pane >= 0 && pane < t->n_panes ? &t->panes[pane] : NULL;
}

int trun_watch_losses(struct trun *t, int pane, long from, const float *loss, long n)
{
    struct trun_pane *p = pane_of(t, pane);
    if (!p || from < 0 || n < 0)
        return -1;
    struct trun_history *h = &p->hist;
    while (h->n < from && h->n < h->cap) /* steps no snapshot brought: no loss */
        trun_history_loss(h, NAN);
    for (long i = h->n - from; i < n && h->n < h->cap; i++)
        trun_history_loss(h, loss[i]);
    return 0;
}

int trun_watch_eval(struct trun *t, int pane, long step, float train_loss, float loss,
                    const float *acc)
{
    struct trun_pane *p = pane_of(t, pane);
    if (!p || step < 0)
        return -1;
    struct train_run *run = p->run;
    if (p->hist.evals > 0 && p->hist.eval_step[p->hist.evals - 1] >= step)
        return 0; /* had it */
    run->model->step = step;
    run->last_loss = train_loss;
    run->eval_loss = loss;
    for (int k = 0; k < run->model->cfg.n_outputs && k < TRUN_MAX_OUTPUTS; k++)
        run->accuracy[k] = acc[k];
    trun_pane_evaluated(p);
    return 0;
}

/* A text's jobs as the mark carries them, into the pane's live figures. */
static void jobs_from(struct trun_pane *p, const struct trun_mark *m)
{
    const int heads = p->run->model->cfg.heads;
    p->jobs_valid = m->jobs_valid && trun_pane_job_count(p) > 0 && heads <= TRUN_MARK_HEADS;
    if (!p->jobs_valid)
        return;
    memcpy(p->jobs, m->jobs, (size_t)heads * sizeof p->jobs[0]);
    for (int h = 0; h < heads; h++)
        memcpy(p->knocked[h], m->knocked[h], sizeof p->knocked[h]);
    p->jobs_all.n_jobs = trun_pane_job_count(p);
    for (int j = 0; j < p->jobs_all.n_jobs && j < TRUN_MARK_JOBS; j++)
        p->jobs_all.job_top1[j] = m->job_top1[j];
}

int trun_watch_model(struct trun *t, int pane, const float *params, size_t n,
                     const struct trun_mark *mark, const struct train_head_stats *roles, int stop,
                     int pace)
{
    struct trun_pane *p = pane_of(t, pane);
    if (!p || n != p->run->model->n_params || mark->step < 0)
        return -1;
    struct train_run *run = p->run;
    struct train_model *m = run->model;
    memcpy(m->params, params, n * sizeof *params);
    m->step = mark->step;
    run->last_loss = mark->loss;
    for (int k = 0; k < m->cfg.n_outputs && k < TRUN_MAX_OUTPUTS; k++)
        run->accuracy[k] = mark->acc[k];
    jobs_from(p, mark);
    struct mha_error err;
    mha_error_clear(&err);
    train_model_sample_forward(m, &err);
    /* nothing of its own in flight: the figures are the teacher's */
    p->work = TRUN_WORK_STEP;
    p->eval_job = (struct train_eval_job){0};
    p->heads_begun = false;
    p->text_jobs = (struct train_text_jobs){0};
    if (roles) {
        memcpy(p->roles, roles, (size_t)m->cfg.heads * sizeof *roles);
        p->roles_valid = true;
    } else {
        p->roles_valid =
            train_heads_measure(m, run->eval,
                                run->eval->size < TRAIN_HEADS_SEQUENCES ? run->eval->size
                                                                        : TRAIN_HEADS_SEQUENCES,
                                p->roles, NULL) == 0;
    }
    if (stop == TRUN_STOP_STABLE || stop == TRUN_STOP_LIMIT)
        p->stop = (enum trun_stop)stop;
    else if (p->stop != TRUN_RUNNING && stop == TRUN_RUNNING)
        p->stop = TRUN_RUNNING;
    if (pace >= 0)
        t->pace_steps_s = pace;
    trun_ring_put(&p->ring, mark->step, params, mark);
    if (t->scrub < 0) /* the teacher's model writes the lines shown */
        trun_pane_write(t, p, m, m->step);
    return 0;
}

int trun_watch_checkpoint(struct trun *t, int pane, const float *params, size_t n,
                          const struct trun_mark *mark)
{
    struct trun_pane *p = pane_of(t, pane);
    if (!p || n != p->run->model->n_params || mark->step < 0)
        return -1;
    return trun_ring_put(&p->ring, mark->step, params, mark) ? 0 : -1;
}
