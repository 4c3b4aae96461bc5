/* trun_measure.c - what a run measures at its evaluations besides the
 * held-out loss: what each head does, a text's jobs each head does
 * (knocked out alone), every layer's heads, and the checkpoint's copy of
 * those figures (trun.h, trun_parts.h).  No curses here. */
#include "train/trun.h"

#include "train/train_text.h"
#include "train/trun_parts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(TRUN_MARK_HEADS >= TRUN_JOBS_MAX_HEADS, "a checkpoint keeps every head's jobs");
_Static_assert(TRUN_MARK_JOBS >= TRAIN_TEXT_MAX_JOBS, "a checkpoint keeps every job");

void trun_mark_now(const struct trun_pane *p, struct trun_mark *m)
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
int trun_heads_sequences(const struct trun_pane *p)
{
    const int size = p->run->eval->size;
    return size < TRAIN_HEADS_SEQUENCES ? size : TRAIN_HEADS_SEQUENCES;
}

/* Whether the live model's jobs are measured at each evaluation: the text
 * has jobs, and the heads are few enough to knock out one by one. */
bool trun_jobs_measured(const struct trun_pane *p)
{
    const struct train_dataset *d = p->run->task->data;
    return d && d->text && d->text->n_jobs && p->run->model->cfg.heads <= TRUN_JOBS_MAX_HEADS;
}

/* A measure of m's heads begun in *job, in the memory of the last one (made
 * the first time, kept until the pane goes): false when it cannot be had. */
bool trun_heads_begin(const struct trun_pane *p, struct train_heads_job **job,
                      const struct train_model *m)
{
    if (*job) {
        train_heads_job_restart(*job, m);
        return true;
    }
    *job = train_heads_job_new(m, p->run->eval, trun_heads_sequences(p), NULL);
    return *job != NULL;
}

/* What the live model's heads do, measured in parts while more(ctx) says
 * so: 1 when done (the figures kept for the screen), 0 when it stopped
 * between sequences. */
int trun_roles_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx)
{
    const struct train_model *m = p->run->model;
    if (!p->heads_begun && !(p->heads_begun = trun_heads_begin(p, &p->heads_job, m))) {
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
int trun_jobs_part(struct trun_pane *p, bool (*more)(void *ctx), void *ctx)
{
    if (!trun_jobs_measured(p)) {
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
bool trun_layers_measured(const struct trun_pane *p)
{
    const struct train_config *c = &p->run->model->cfg;
    const double L = train_layers(c), d = c->d_model;
    const double rows = (double)trun_heads_sequences(p) * c->context;
    return L > 1 && c->heads <= TRUN_JOBS_MAX_HEADS &&
           2.0 * L * c->heads * rows * L * 4.0 * d * d <= TRUN_LAYERS_WORK;
}

/* Every layer's heads of the live model, measured and knocked out on the
 * held-out sequences its heads are measured on (trun_layers_measured). */
void trun_layers_measure(struct trun_pane *p)
{
    if (!p->layers)
        return;
    struct train_batch few;
    train_batch_view(p->run->eval, 0, trun_heads_sequences(p), &few);
    p->layers_valid =
        train_layers_measure(p->run->model, &few, trun_heads_sequences(p), p->layers, NULL) == 0;
}

const struct train_layer_measures *trun_pane_layers(const struct trun_pane *p, long scrub)
{
    return scrub < 0 && p->layers && p->layers_valid ? p->layers : NULL;
}

int trun_pane_job_count(const struct trun_pane *p)
{
    return trun_jobs_measured(p) ? p->run->task->data->text->n_jobs : 0;
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
    return train_heads_measure(trun_pane_model(p, scrub), p->run->eval, trun_heads_sequences(p),
                               out, NULL) == 0;
}
