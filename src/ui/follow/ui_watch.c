/* ui_watch.c - the teacher's training run travels in the recording as
 * snapshots (io/rec_snap.h): the teacher's explorer writes them as its run
 * trains, and a follower's (or a replay's) builds its training screen from
 * them instead of training the same model itself (train/trun.h's watch).
 * A student who detaches, or a replay that stops, trains on from the
 * model the last snapshot gave. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/rec_snap.h"
#include "io/rec_stream.h"
#include "train/trun.h"
#include "ui/follow/ui_stream.h"
#include "ui/modes/ui_app.h"
#include "ui/train/ui_train.h"

_Static_assert(TRUN_MAX_PANES == 4, "ui_app's snap_out and snap_kept have a slot a pane");
_Static_assert(TRUN_MAX_OUTPUTS == REC_SNAP_OUTPUTS, "a snapshot carries every output");
_Static_assert(TRUN_MARK_HEADS <= REC_SNAP_HEADS && TRUN_MARK_JOBS <= REC_SNAP_JOBS,
               "a snapshot carries a checkpoint's jobs");

/* The numbers of what a head does, as a snapshot carries them. */
#define ROLE_VALUES 13
_Static_assert(ROLE_VALUES <= REC_SNAP_ROLE_VALUES, "a head's numbers fit a snapshot");

static void role_put(const struct train_head_stats *r, float *v)
{
    const float out[ROLE_VALUES] = {r->first,     r->prev,
                                    r->self,      (float)r->place_rows,
                                    r->copy,      (float)r->copy_rows,
                                    r->induction, (float)r->induction_rows,
                                    r->even,      (float)r->kind,
                                    r->share,     (float)r->kind2,
                                    r->share2};
    memcpy(v, out, sizeof out);
}

static bool kind_ok(float k)
{
    return k >= (float)TRAIN_HEAD_NONE && k <= (float)TRAIN_HEAD_INDUCTION && k == floorf(k);
}

/* A count of rows as a snapshot carries it (a float: whole, in range). */
static bool rows_ok(float n)
{
    return n >= 0.0f && n <= 1e9f && n == floorf(n);
}

static bool role_get(const float *v, struct train_head_stats *r)
{
    if (!kind_ok(v[9]) || !kind_ok(v[11]) || !rows_ok(v[3]) || !rows_ok(v[5]) || !rows_ok(v[7]))
        return false;
    *r = (struct train_head_stats){.first = v[0],
                                   .prev = v[1],
                                   .self = v[2],
                                   .place_rows = (long)v[3],
                                   .copy = v[4],
                                   .copy_rows = (long)v[5],
                                   .induction = v[6],
                                   .induction_rows = (long)v[7],
                                   .even = v[8],
                                   .kind = (enum train_head_kind)(int)v[9],
                                   .share = v[10],
                                   .kind2 = (enum train_head_kind)(int)v[11],
                                   .share2 = v[12]};
    return true;
}

/* ---- the teacher's side --------------------------------------------------------------- */

static void jobs_into(struct rec_snap *s, const struct trun_mark *m, int heads, int n_jobs)
{
    s->jobs_valid = m->jobs_valid && heads <= TRUN_MARK_HEADS && n_jobs > 0;
    if (!s->jobs_valid)
        return;
    s->jobs_heads = heads;
    s->n_jobs = n_jobs;
    for (int h = 0; h < heads; h++) {
        s->does[h] = m->jobs[h];
        for (int j = 0; j < n_jobs; j++)
            s->knocked[h][j] = m->knocked[h][j];
    }
    for (int j = 0; j < n_jobs; j++)
        s->top1[j] = m->job_top1[j];
}

/* Pane i as it is, from what the last snapshot had: its new losses and
 * evaluations, the model.  0, or -1 on a write error. */
static int write_live(struct ui_stream *stream, struct trun *t, int i, double at)
{
    struct trun_pane *p = &t->panes[i];
    const struct train_run *run = p->run;
    const struct trun_history *h = &p->hist;
    const int heads = run->model->cfg.heads;
    struct rec_snap s = {0};
    s.t = at;
    s.pane = i;
    s.kind = REC_SNAP_LIVE;
    s.step = run->model->step;
    /* the layer whose heads the jobs and roles measure (trun_show_layer
     * measures them again on the layer it shows) */
    s.layer = train_layers(&run->model->cfg) > 1 ? run->model->shown_layer : -1;
    s.stop = (int)p->stop;
    s.pace = trun_pace(t);
    s.loss = run->last_loss;
    s.n_outputs = run->model->cfg.n_outputs;
    for (int k = 0; k < s.n_outputs && k < REC_SNAP_OUTPUTS; k++)
        s.acc[k] = run->accuracy[k];
    const long from = stream->snap_out.losses[i] <= h->n ? stream->snap_out.losses[i] : 0;
    s.loss_from = from;
    s.n_loss = h->n - from;
    s.losses = h->loss + from;
    const int e0 = stream->snap_out.evals[i] <= h->evals ? stream->snap_out.evals[i] : 0;
    s.n_evals = h->evals - e0;
    s.evals = s.n_evals ? malloc((size_t)s.n_evals * sizeof *s.evals) : NULL;
    if (s.n_evals && !s.evals)
        return 0; /* out of memory: the next one carries them */
    for (int k = 0; k < s.n_evals; k++) {
        struct rec_snap_eval *v = &s.evals[k];
        memset(v, 0, sizeof *v);
        v->step = h->eval_step[e0 + k];
        v->train_loss = v->step > 0 && v->step <= h->n ? h->loss[v->step - 1] : NAN;
        v->loss = h->eval_loss[e0 + k];
        memcpy(v->acc, h->eval_acc + (size_t)(e0 + k) * TRUN_MAX_OUTPUTS, sizeof v->acc);
    }
    struct trun_mark m;
    memset(&m, 0, sizeof m);
    m.jobs_valid = p->jobs_valid && heads <= TRUN_MARK_HEADS; /* measured only then */
    if (m.jobs_valid) {
        memcpy(m.jobs, p->jobs, (size_t)heads * sizeof m.jobs[0]);
        for (int hd = 0; hd < heads && hd < TRUN_MARK_HEADS; hd++)
            memcpy(m.knocked[hd], p->knocked[hd], sizeof m.knocked[hd]);
        for (int j = 0; j < p->jobs_all.n_jobs && j < TRUN_MARK_JOBS; j++)
            m.job_top1[j] = p->jobs_all.job_top1[j];
    }
    jobs_into(&s, &m, heads, trun_pane_job_count(p));
    if (p->roles_valid && heads <= REC_SNAP_HEADS) {
        s.roles_heads = heads;
        s.roles_per = ROLE_VALUES;
        for (int hd = 0; hd < heads; hd++)
            role_put(&p->roles[hd], s.roles + hd * ROLE_VALUES);
    }
    s.n_params = run->model->n_params;
    s.params = run->model->params;
    const int rc = rec_snap_write(stream->record, &s);
    free(s.evals);
    if (rc != 0)
        return -1;
    stream->snap_out.losses[i] = h->n;
    stream->snap_out.evals[i] = h->evals;
    stream->snap_out.step[i] = s.step;
    return 0;
}

/* The checkpoint at the step scrubbed to, of pane i. */
static int write_ckpt(struct ui_stream *stream, struct trun *t, int i, double at)
{
    struct trun_pane *p = &t->panes[i];
    const int c = trun_ring_find(&p->ring, t->scrub);
    const struct trun_mark *mk = trun_ring_mark(&p->ring, c);
    const float *params = trun_ring_params(&p->ring, c);
    if (!mk || !params)
        return 0;
    struct rec_snap s = {0};
    s.t = at;
    s.pane = i;
    s.kind = REC_SNAP_CKPT;
    s.step = mk->step;
    s.layer = train_layers(&p->run->model->cfg) > 1 ? mk->jobs_layer : -1;
    s.pace = -1;
    s.loss = mk->loss;
    s.n_outputs = p->run->model->cfg.n_outputs;
    memcpy(s.acc, mk->acc, sizeof s.acc);
    jobs_into(&s, mk, p->run->model->cfg.heads, trun_pane_job_count(p));
    s.n_params = p->ring.n_params;
    s.params = (float *)params; /* written, not changed */
    return rec_snap_write(stream->record, &s);
}

int ui_record_snaps(struct ui_app *app)
{
    struct trun *t = app->training.train;
    if (!app->stream.record || !t)
        return 0;
    struct ui_snap_out *w = &app->stream.snap_out;
    const double at = (double)app->training.train_clock_ms / 1000.0;
    if (w->serial != t->serial) { /* another run (or the same again): from its start */
        memset(w, 0, sizeof *w);
        w->serial = t->serial;
        w->scrub = -1;
        w->paused = t->paused;
        w->t = -1e9;
    }
    bool moved = false;
    for (int i = 0; i < t->n_panes; i++) {
        const struct trun_pane *p = &t->panes[i];
        moved = moved || p->hist.n != w->losses[i] || p->hist.evals != w->evals[i] ||
                p->run->model->step != w->step[i];
    }
    /* at once when it pauses or stops, or a key steps it while paused, so
     * a follower shows the very step */
    const bool now = t->paused || w->paused || trun_done(t) != w->done;
    if (moved && (now || at - w->t >= REC_SNAP_EVERY || at < w->t)) {
        for (int i = 0; i < t->n_panes; i++)
            if (write_live(&app->stream, t, i, at) != 0)
                return -1;
        w->t = at;
        w->any = true;
    }
    w->paused = t->paused;
    w->done = trun_done(t);
    if (t->scrub >= 0 && t->scrub != w->scrub) {
        for (int i = 0; i < t->n_panes; i++)
            if (write_ckpt(&app->stream, t, i, at) != 0)
                return -1;
    }
    w->scrub = t->scrub;
    return 0;
}

/* ---- the follower's side -------------------------------------------------------------- */

bool ui_train_watching(const struct ui_stream *stream)
{
    const struct recording *rec = stream->follow && !stream->detached ? &stream->follow->s.rec
                                  : stream->replay.active             ? stream->replay.rec
                                                                      : NULL;
    return rec && rec->snaps_on;
}

struct ui_train_tick ui_train_tick_of(const struct ui_stream *stream, long ms)
{
    return (struct ui_train_tick){
        .ms = ms,
        .watched = ui_train_watching(stream),
        /* a recording and its replay run every tick; a key waits for those due before it */
        .exact = stream->replay.active || stream->record || stream->follow,
        .teachers_clock = stream->follow && !stream->detached,
        .interrupt = stream->keys_waiting,
    };
}

static void mark_of(const struct rec_snap *s, int layer, struct trun_mark *m)
{
    memset(m, 0, sizeof *m);
    m->step = s->step;
    m->jobs_layer = s->layer >= 0 ? s->layer : layer; /* unsaid: the layer shown */
    m->loss = s->loss;
    for (int k = 0; k < s->n_outputs && k < TRUN_MAX_OUTPUTS; k++)
        m->acc[k] = s->acc[k];
    m->jobs_valid = s->jobs_valid;
    if (!s->jobs_valid)
        return;
    for (int h = 0; h < s->jobs_heads && h < TRUN_MARK_HEADS; h++) {
        m->jobs[h] = s->does[h];
        for (int j = 0; j < s->n_jobs && j < TRUN_MARK_JOBS; j++)
            m->knocked[h][j] = s->knocked[h][j];
    }
    for (int j = 0; j < s->n_jobs && j < TRUN_MARK_JOBS; j++)
        m->job_top1[j] = s->top1[j];
}

/* The layer the pane shows, -1 when there is no such pane. */
static int shown_layer(const struct trun *t, int pane)
{
    return pane >= 0 && pane < t->n_panes ? t->panes[pane].run->model->shown_layer : -1;
}

/* The model of a live snapshot into the run (its roles as the teacher
 * measured them when they came along).  A snapshot of a model of layers
 * says which layer its heads' jobs and roles are of: the pane shows that
 * layer, the teacher's, so its heads are titled with their own figures. */
static void apply_model(struct trun *t, const struct rec_snap *s)
{
    if (s->layer >= 0 && s->pane < t->n_panes && s->layer != shown_layer(t, s->pane) &&
        s->layer < train_layers(&t->panes[s->pane].run->model->cfg)) {
        struct mha_error err;
        mha_error_clear(&err);
        trun_show_layer(t, s->pane, s->layer, &err); /* measured here until the roles come */
    }
    struct trun_mark m;
    mark_of(s, shown_layer(t, s->pane), &m);
    struct train_head_stats roles[REC_SNAP_HEADS];
    bool have = s->pane < t->n_panes && s->roles_heads > 0 &&
                (s->layer < 0 || s->layer == shown_layer(t, s->pane)) &&
                s->roles_heads == t->panes[s->pane].run->model->cfg.heads &&
                s->roles_per == ROLE_VALUES;
    for (int h = 0; have && h < s->roles_heads; h++)
        have = role_get(s->roles + h * ROLE_VALUES, &roles[h]);
    trun_watch_model(t, s->pane, s->params, s->n_params, &m, have ? roles : NULL, s->stop, s->pace);
}

bool ui_watch_apply(struct ui_app *app, const struct recording *rec, int *next, int played, long ms)
{
    if (!rec || !rec->snaps_on || *next >= rec->n_snaps)
        return false;
    int end = *next;
    while (end < rec->n_snaps && rec->snaps[end].at <= played && trun_ms(rec->snaps[end].t) <= ms)
        end++;
    if (end == *next)
        return false;
    /* the model from the last snapshot of each pane only: the stale ones
     * before it bring their losses and evaluations */
    int last[TRUN_MAX_PANES] = {-1, -1, -1, -1};
    for (int i = *next; i < end; i++)
        if (rec->snaps[i].kind == REC_SNAP_LIVE && rec->snaps[i].n_params > 0 &&
            rec->snaps[i].pane < TRUN_MAX_PANES)
            last[rec->snaps[i].pane] = i;
    struct trun *t = app->training.train;
    const bool was_done = t && trun_done(t);
    /* a follower's own copy of the stream: a model once superseded is freed */
    struct recording *own =
        app->stream.follow && rec == &app->stream.follow->s.rec ? &app->stream.follow->s.rec : NULL;
    bool changed = false;
    for (int i = *next; i < end; i++) {
        const struct rec_snap *s = &rec->snaps[i];
        if (!t || s->pane >= t->n_panes) /* a run this screen has not (a file not opened) */
            continue;
        if (s->kind == REC_SNAP_CKPT) {
            struct trun_mark m;
            mark_of(s, shown_layer(t, s->pane), &m);
            changed = trun_watch_checkpoint(t, s->pane, s->params, s->n_params, &m) == 0 || changed;
            continue;
        }
        if (s->n_loss > 0)
            trun_watch_losses(t, s->pane, s->loss_from, s->losses, s->n_loss);
        for (int e = 0; e < s->n_evals; e++)
            trun_watch_eval(t, s->pane, s->evals[e].step, s->evals[e].train_loss, s->evals[e].loss,
                            s->evals[e].acc);
        if (i == last[s->pane] && s->params) {
            apply_model(t, s);
            const int kept = app->stream.snap_kept[s->pane] - 1;
            if (own && kept >= 0 && kept < i && own->snaps[kept].params) {
                free(own->snaps[kept].params);
                own->snaps[kept].params = NULL;
            }
            app->stream.snap_kept[s->pane] = i + 1;
        }
        changed = true;
    }
    *next = end;
    if (changed && t && t->follow_gen == app->st.ex_gen)
        ui_train_sync_example(app);
    if (t && !was_done && trun_done(t)) /* said as the teacher's screen says it */
        ui_train_stopped_say(app);
    return changed;
}

void ui_watch_state(struct ui_app *app, const struct rec_state *s)
{
    struct trun *t = app->training.train;
    if (!t || !ui_train_watching(&app->stream))
        return;
    if (s->paused >= 0)
        t->paused = s->paused != 0;
    if (s->scrub == REC_STATE_LIVE && t->scrub >= 0)
        trun_scrub_live(t);
    else if (s->scrub >= 0 && s->scrub != t->scrub)
        trun_scrub_to(t, s->scrub);
    else
        return;
    /* the teacher's checkpoint, whatever a key said here */
    ui_train_scrub_say(&app->st, t, app->les.l != NULL);
    if (t->follow_gen == app->st.ex_gen)
        ui_train_sync_example(app);
}
