/* trun_scrub.c - a run's checkpoints shown: scrubbing back through them,
 * each loaded into the pane's shown model with its heads measured in parts,
 * and the figures of the step shown (trun.h, trun_parts.h).  No curses
 * here. */
#include "train/trun.h"

#include "train/trun_parts.h"

#include <math.h>
#include <string.h>

long trun_shown_step(const struct trun *t)
{
    return t->scrub >= 0 ? t->scrub : t->panes[0].run->model->step;
}

/* Load the checkpoint at or before step into every pane's shown model. */
void trun_load_checkpoints(struct trun *t, long step)
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
        /* its heads measured in parts (trun_shown_part), the screen answering
         * meanwhile (and measuring them itself if the job cannot be had);
         * the live model's stay as they are */
        p->shown_pending = trun_heads_begin(p, &p->shown_job, p->shown);
        p->shown_of = step;
        p->shown_valid = false;
        trun_pane_write(t, p, p->shown, trun_pane_shown_step(t, p)); /* when they are shown */
    }
}

/* The checkpoints' heads load_checkpoints began to measure, in parts while
 * more(ctx) says so (NULL: to the end): true when none is left. */
bool trun_shown_part(struct trun *t, bool (*more)(void *ctx), void *ctx)
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

bool trun_shown_pending(const struct trun *t)
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
    trun_load_checkpoints(t, t->scrub);
}

void trun_scrub_live(struct trun *t)
{
    const bool was = t->scrub >= 0;
    t->scrub = -1;
    for (int i = 0; was && i < t->n_panes; i++) /* the live model's lines again */
        trun_pane_write(t, &t->panes[i], t->panes[i].run->model, t->panes[i].run->model->step);
}

void trun_scrub_to(struct trun *t, long step)
{
    t->paused = true;
    t->scrub = step < 0 ? 0 : step;
    trun_load_checkpoints(t, t->scrub);
}

void trun_scrub_first(struct trun *t)
{
    trun_scrub_to(t, 0);
}

const struct train_model *trun_pane_model(const struct trun_pane *p, long scrub)
{
    return scrub >= 0 ? p->shown : p->run->model;
}

float trun_pane_accuracy(const struct trun *t, const struct trun_pane *p, int k)
{
    if (t->scrub < 0)
        return p->run->accuracy[k];
    const struct trun_mark *mk = trun_ring_mark(&p->ring, trun_ring_find(&p->ring, t->scrub));
    return mk ? mk->acc[k] : NAN;
}
