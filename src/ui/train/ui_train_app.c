/* ui_train_app.c - where the training screen sits in the explorer: the
 * explorer's example kept equal to the model shown, the training ticks,
 * the layout, hint and :link, its start from the options, and lessons whose
 * scenes train. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/text_io.h"

#include "lesson/lesson_state.h"
#include "ui/modes/ui_app.h"
#include "ui/train/ui_train.h"
#include "ui/train/ui_train_draw.h"
#include "ui/state/ui_quiz.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_words.h"
#include "ui/draw/ui_text.h"
#include "train/trun.h"
#include "ui/modes/ui_keymaps.h"

/* Lines a lesson's pane keeps below the training screen: as many as a
 * checkpoint wants when the heads can spare them, never fewer than the
 * least. */
#define UI_TRAIN_LESSON_LINES 8
#define UI_TRAIN_LESSON_MIN 4

/* ---- the explorer's example: the model shown --------------------------------------------- */

/* What each head of the model shown was measured to do, as the training
 * screen titles it, for the circuits view: a text's jobs (as measured at
 * the live model's last evaluation or when the checkpoint shown was kept),
 * else where its weight goes on held-out sequences. */
static void sync_head_titles(struct ui_state *st, const struct trun *t,
                             const struct trun_pane *pane, const struct train_model *m)
{
    st->titled_heads = 0;
    const int H = m->cfg.heads;
    if (H > VIEW_TITLED_HEADS)
        return;
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    const bool measured = trun_pane_heads_ready(pane, t->scrub, roles);
    const bool jobs = trun_pane_jobs_ready(pane, t->scrub);
    if (!measured && !jobs)
        return;
    for (int h = 0; h < H; h++) {
        st->head_titles[h][0] = '\0';
        if (jobs)
            trun_pane_jobs(pane, t->scrub, h, st->head_titles[h], VIEW_HEAD_TITLE);
        if (!st->head_titles[h][0] && measured && roles[h].kind != TRAIN_HEAD_NONE)
            train_head_label(&roles[h], st->head_titles[h], VIEW_HEAD_TITLE);
    }
    st->titled_heads = H;
}

void ui_train_sync(struct ui_state *st, struct trun *t)
{
    const struct trun_pane *pane = &t->panes[t->focus];
    const struct train_model *m = trun_pane_model(pane, t->scrub);
    struct mha_error err;
    mha_error_clear(&err);
    char source[128];
    if (t->compare) {
        char title[32];
        trun_pane_title(pane, title, sizeof title);
        snprintf(source, sizeof source, "%s, %s, step %ld", t->task->name, title,
                 trun_shown_step(t));
    } else {
        snprintf(source, sizeof source, "%s, step %ld", t->task->name, trun_shown_step(t));
    }
    const struct mha_example *ex = st->ex;
    if (ex->lq == m->sample_len && ex->lk == m->sample_len && !ex->cross &&
        ex->d_model == m->cfg.d_model && ex->heads == m->cfg.heads &&
        train_model_fill_example(m, st->ex, &err) == 0) {
        /* the labels follow a new sample (a new seed); unchanged ones are not copied again */
        for (int i = 0; i < m->sample_len; i++)
            if (strcmp(st->ex->tokens[i], m->vocab_names[m->sample[i]]) != 0)
                mha_example_set_token(st->ex, false, i, m->vocab_names[m->sample[i]]);
        st->baseline = pane->start;
        st->model = m;
        st->layer_measures = trun_pane_layers(pane, t->scrub);
        sync_head_titles(st, t, pane, m);
        snprintf(st->trained, sizeof st->trained, "%s", source);
        ui_state_refresh(st);
        snprintf(st->source, sizeof st->source, "%s", source);
        t->follow_gen = st->ex_gen;
        return;
    }
    struct mha_example *nex = train_model_to_example(m, &err);
    if (!nex) {
        ui_state_say(st, true, "The model cannot be shown: %s", err.text);
        return;
    }
    if (ui_state_set_example(st, nex, false, source) == 0) {
        t->follow_gen = st->ex_gen;
        st->baseline = pane->start;
        st->model = m;
        st->layer_measures = trun_pane_layers(pane, t->scrub);
        sync_head_titles(st, t, pane, m);
        snprintf(st->trained, sizeof st->trained, "%s", source);
        if (st->view != MHA_VIEW_NONE)
            ui_state_refresh(st); /* the heads view compares with step 0 */
    }
}

void ui_train_sync_example(struct ui_app *app)
{
    ui_train_sync(&app->st, app->training.train);
}

int ui_train_show_layer(struct ui_state *st, struct trun *t, const struct ui_stream *stream,
                        int layer)
{
    if (!t || !st->model) { /* no training shown: a loaded model, if any */
        const int n = st->ex->layers;
        return ui_state_show_layer(st, layer >= 0 || n < 2 ? layer : (st->ex->layer + 1) % n);
    }
    const struct train_model *m = t->panes[t->focus].run->model;
    const int n = train_layers(&m->cfg);
    if (t->watch && n > 1 && !ui_stream_streamed(stream)) {
        /* the snapshots bring the heads' measures of the teacher's layer
         * (the teacher's own y, played here, shows the teacher's) */
        ui_state_say(st, true,
                     "The teacher's run shows the teacher's layer, its heads titled as the "
                     "teacher measured them; explore on your own (or after the replay) and y "
                     "shows each layer.");
        return -1;
    }
    if (n < 2) {
        ui_state_say(st, true,
                     "This model has one layer: --layers 2 (or --compare layers=1,2) trains "
                     "models whose layers each show.");
        return -1;
    }
    struct mha_error err;
    mha_error_clear(&err);
    if (trun_show_layer(t, t->focus, layer >= 0 ? layer : (m->shown_layer + 1) % n, &err)) {
        ui_state_say(st, true, "Not shown: %s.", err.text);
        return -1;
    }
    ui_train_sync(st, t);
    ui_state_say_layer(st);
    return 0;
}

int ui_app_show_layer(struct ui_app *app, int layer)
{
    return ui_train_show_layer(&app->st, app->training.train, &app->stream, layer);
}

void ui_train_to_explorer(struct ui_app *app)
{
    ui_train_leave_screen(&app->st, app->training.train);
}

void ui_app_teachers_layer(struct ui_app *app, int layer)
{
    struct ui_state *st = &app->st;
    struct trun *t = app->training.train;
    if (t && st->model) {
        const struct train_model *m = t->panes[t->focus].run->model;
        if (layer >= train_layers(&m->cfg) || layer == m->shown_layer)
            return;
        struct mha_error err;
        mha_error_clear(&err);
        if (trun_show_layer(t, t->focus, layer, &err) == 0)
            ui_train_sync_example(app);
        return;
    }
    if (st->ex && st->ex->layers > 1 && layer < st->ex->layers && layer != st->ex->layer)
        ui_state_show_layer(st, layer);
}

/* ---- the ticks ------------------------------------------------------------------------- */

bool ui_train_timers(struct ui_app *app, struct ui_train_tick tick, bool all)
{
    app->training.train_clock_ms = tick.ms;
    struct trun *t = app->training.train;
    if (!t)
        return false;
    const bool was_done = trun_done(t);
    /* a recording and its replay run every tick; a key waits for those due before it */
    if (all && !tick.exact) /* keys first: the ticks due catch up after the key, within a budget */
        return false;
    t->interrupt = tick.interrupt;
    t->watch = tick.watched; /* the teacher's run: snapshots bring its steps */
    const bool changed = trun_catch_up(t, tick.ms, tick.exact, all ? 0 : 20);
    if (changed && t->follow_gen == app->st.ex_gen) /* trained, or a checkpoint measured */
        ui_train_sync_example(app);
    if (!was_done && trun_done(t))
        ui_train_stopped_say(app);
    return changed;
}

void ui_train_stopped_say(struct ui_app *app)
{
    const struct trun *t = app->training.train;
    if (!t->shown)
        return;
    char why[256];
    trun_stop_text(&t->panes[0], why, sizeof why);
    if (app->les.l && ui_quiz_asking(&app->les.quiz)) /* its figures wait for the answer */
        ui_state_say(&app->st, false,
                     "Training stopped; its figures show once the checkpoint is answered.");
    else
        ui_state_say(&app->st, false, "%s",
                     t->n_panes > 1 ? "Every run stopped (each pane says when and why); ← → "
                                      "scrub back, r trains again with a new seed."
                                    : why);
}

/* ---- where it sits in the explorer -------------------------------------------------- */

bool ui_train_running(const struct ui_app *app)
{
    return ui_train_on_screen(app) && !trun_done(app->training.train);
}

bool ui_train_play_on(struct ui_app *app)
{
    struct trun *t = app->training.train;
    if (!ui_train_running(app) || (!t->paused && t->scrub < 0))
        return false;
    t->paused = false;
    trun_scrub_live(t);
    ui_state_say(&app->st, false,
                 "Autoplay trains on: the next step comes when the run stops (any key pauses "
                 "autoplay).");
    return true;
}

static struct ui_train_view view_of(const struct ui_app *app)
{
    return (struct ui_train_view){app->training.train, &app->th, app->st.present};
}

int ui_train_canvas_need(const struct ui_app *app, int width, bool curve, bool half)
{
    const struct ui_train_view v = view_of(app);
    return ui_train_view_need(&v, width, curve, half);
}

void ui_train_draw_vis(const struct ui_app *app)
{
    const struct ui_train_view v = view_of(app);
    /* while a lesson's checkpoint waits, the figures it could be read off
     * (accuracies, the heads' measured jobs) wait for the answer */
    const bool hide = app->les.l && ui_quiz_asking(&app->les.quiz);
    ui_train_view_draw(&v, app->win.vis, app->win.canvas, app->lay.vis.w - 1, ui_app_view_h(app),
                       hide);
}

bool ui_train_held(const struct ui_app *app)
{
    return app->training.train != NULL;
}

bool ui_train_on_screen(const struct ui_app *app)
{
    return app->training.train && app->training.train->shown;
}

/* The lines of *bare and *curve (ui_train_canvas_need's, the header's
 * too) with two rows of a heatmap to a line, where the theme draws them
 * so (else they stay). */
static void half_needs(const struct ui_app *app, int width, int *bare, int *curve)
{
    if (!app->th.half)
        return;
    *bare = UI_VIS_HEADER + ui_train_canvas_need(app, width, false, true);
    *curve = UI_VIS_HEADER + ui_train_canvas_need(app, width, true, true);
}

/* Columns a lesson's pane keeps beside the heads at the least. */
#define UI_TRAIN_BESIDE_SIDE 36

/* Where the lesson's pane sits below the heads and they would be cut at
 * the foot (a short screen, the lesson 80 columns wide) while one run's
 * heads need no more than part of the width, the pane goes beside them, as
 * on a wide screen, when the heads then show more of their lines (counted
 * without the loss curve, which the heads' pane fits in where it can):
 * they take the narrowest width at which they need no more lines than
 * with the pane UI_TRAIN_BESIDE_SIDE columns wide.  False: the pane stays
 * below (keep lines of it). */
static bool lesson_beside(const struct ui_app *app, struct ui_layout *lay, int keep)
{
    const int body = lay->side.y + lay->side.h - lay->vis.y;
    const int full = UI_VIS_HEADER + ui_train_canvas_need(app, lay->vis.w - 1, false, false);
    const int cut_below = full - (body - keep);
    int lo = UI_TRAIN_BESIDE_SIDE, hi = lay->cols - UI_TRAIN_BESIDE_SIDE;
    if (lay->present || cut_below <= 0 || hi < lo)
        return false; /* below, they are whole (or the screen is too narrow to share) */
    const int want = UI_VIS_HEADER + ui_train_canvas_need(app, hi - 1, false, false);
    if (want - body >= cut_below)
        return false; /* beside, as much or more would be cut */
    while (lo < hi) { /* fewer columns never take fewer lines */
        const int mid = lo + (hi - lo) / 2;
        if (UI_VIS_HEADER + ui_train_canvas_need(app, mid - 1, false, false) <= want)
            hi = mid;
        else
            lo = mid + 1;
    }
    lay->side_by_side = true;
    lay->vis = (struct ui_rect){lay->vis.y, lay->vis.x, body, hi};
    lay->side = (struct ui_rect){lay->vis.y, hi, body, lay->cols - hi};
    return true;
}

/* Where the lesson's pane sits beside the heads (from 100 columns) and
 * they would lose heads or rows there (two runs side by side, say), while
 * across the screen they take fewer lines: the pane goes below with keep
 * lines or more, the heads taking the lines they need (with the loss curve
 * where the pane still keeps UI_TRAIN_LESSON_LINES), cut at the foot only
 * where the screen is short. */
static bool lesson_below(const struct ui_app *app, struct ui_layout *lay, int keep)
{
    const int body = lay->vis.h;
    const int beside = UI_VIS_HEADER + ui_train_canvas_need(app, lay->vis.w - 1, false, false);
    if (lay->present || beside <= body)
        return false; /* beside, they are whole */
    int bare = UI_VIS_HEADER + ui_train_canvas_need(app, lay->cols - 1, false, false);
    int curve = UI_VIS_HEADER + ui_train_canvas_need(app, lay->cols - 1, true, false);
    if (bare >= beside || body - keep < 1)
        return false;
    if (bare > body - keep) /* cut at the foot: two rows to a line, where drawn so */
        half_needs(app, lay->cols - 1, &bare, &curve);
    const int lines = keep < UI_TRAIN_LESSON_LINES ? UI_TRAIN_LESSON_LINES : keep;
    int vis_h = curve <= body - lines ? curve : bare;
    vis_h = vis_h < body - keep ? vis_h : body - keep;
    lay->side_by_side = false;
    lay->vis = (struct ui_rect){lay->vis.y, 0, vis_h, lay->cols};
    lay->side = (struct ui_rect){lay->vis.y + vis_h, 0, body - vis_h, lay->cols};
    return true;
}

void ui_train_layout(const struct ui_app *app, struct ui_layout *lay, int quiz_lines)
{
    if (lay->side.h <= 0 || lay->side.w <= 0)
        return;
    if (app->les.l) { /* a lesson keeps its pane, below the heads when it sits there */
        /* a waiting checkpoint keeps its lines and the pane's title over them */
        const int keep_lines =
            2 + quiz_lines > UI_TRAIN_LESSON_MIN ? 2 + quiz_lines : UI_TRAIN_LESSON_MIN;
        if (lay->side_by_side) {
            lesson_below(app, lay, keep_lines);
            return;
        }
        if (lesson_beside(app, lay, keep_lines))
            return;
        const int width = lay->vis.w - 1;
        /* a waiting checkpoint keeps its lines and the pane's title over them */
        int keep = 2 + quiz_lines;
        keep = keep > UI_TRAIN_LESSON_MIN ? keep : UI_TRAIN_LESSON_MIN;
        int curve = UI_VIS_HEADER + ui_train_canvas_need(app, width, true, false);
        int bare = UI_VIS_HEADER + ui_train_canvas_need(app, width, false, false);
        if (bare > lay->vis.h + lay->side.h - keep) /* cut at the foot */
            half_needs(app, width, &bare, &curve);
        const int need = lay->side.h - (curve - lay->vis.h) < UI_TRAIN_LESSON_LINES ? bare : curve;
        int give = need - lay->vis.h;
        if (give > lay->side.h - keep)
            give = lay->side.h - keep;
        if (give > 0) {
            lay->vis.h += give;
            lay->side.y += give;
            lay->side.h -= give;
        }
        return;
    }
    if (lay->side_by_side) /* the text pane's columns join the visualisation */
        lay->vis.w = lay->side.x + lay->side.w - lay->vis.x;
    else /* its lines below */
        lay->vis.h = lay->side.y + lay->side.h - lay->vis.y;
    lay->side = (struct ui_rect){0, 0, 0, 0};
}

int ui_train_loop_wait(const struct ui_train_part *training, struct ui_train_tick tick, int cap)
{
    if (!training->train || tick.teachers_clock) /* the teacher's clock moves by lines */
        return cap;
    return trun_wait_ms(training->train, tick.ms, cap);
}

const char *ui_train_hint(const struct ui_app *app)
{
    if (!app->training.train)
        return NULL;
    static char hint[160]; /* the stage numbers from the stage table */
    if (!app->training.train->shown)
        return app->st.focus ? NULL : "t training · ← → stages · Tab numbers · v views · ? help";
    if (app->les.l) /* Space reads on in a lesson; p pauses and trains on */
        return ui_train_lesson_hint(app->training.train, app->st.focus, hint, sizeof hint);
    if (app->training.train->scrub >= 0)
        return ui_words_expand(
            "← → checkpoints · Home step 0 · End now · {range} this model's stages · ? help", hint,
            sizeof hint);
    const struct trun *t = app->training.train;
    const bool layers = train_layers(&t->panes[t->focus].run->model->cfg) > 1;
    if (t->n_panes > 1)
        return ui_words_expand(layers ? "Space pause · n step · < > pace · ← → checkpoints · y "
                                        "layer · r reseed · Tab pane · {range} its stages · ? help"
                                      : "Space pause · n step · < > pace · ← → checkpoints · r "
                                        "reseed · Tab pane · {range} its stages · ? help",
                               hint, sizeof hint);
    /* the training screen's keys: the hints of their table */
    char keys[160], line[180];
    snprintf(line, sizeof line, "%s · ? help", ui_train_keys_hint(t, keys, sizeof keys));
    return ui_words_expand(line, hint, sizeof hint);
}

int ui_train_open(struct ui_app *app, struct trun *t, struct mha_example **ex,
                  struct mha_error *err)
{
    struct mha_example *nex = train_model_to_example(t->panes[0].run->model, err);
    if (!nex) {
        trun_free(t);
        return -1;
    }
    mha_example_free(*ex);
    *ex = nex;
    app->training.train = t;
    return 0;
}

/* ---- lessons that train -------------------------------------------------------------- */

/* What a scene asks for, to see whether the training running is its own
 * (keys may have moved its seed or heads on since). */
static void setup_key(const struct trun_setup *s, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "%s %u %d %d %d", s->task->name, (unsigned)s->opt.seed,
                                   s->opt.steps, s->d_model, s->opt.layers);
    for (int i = 0; i < s->n_heads && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, " %d/%d/%d:%d", s->heads[i], s->layers[i],
                                 (int)s->variants[i].kind, s->variants[i].n);
}

/* A bundled corpus a lesson trains on, read once and kept while its runs
 * last (the runs point into it). */
struct ui_corpus {
    struct train_dataset *data;
    struct train_task task;
    char name[72];
};

void ui_train_corpus_free(struct ui_train_part *training)
{
    if (!training->corpus)
        return;
    train_dataset_free(training->corpus->data);
    free(training->corpus);
    training->corpus = NULL;
}

/* The task of the corpus name (read from the lesson's assets), or NULL +
 * err.  A training on another corpus must have ended first. */
static const struct train_task *lesson_corpus(struct ui_app *app, const char *name,
                                              struct mha_error *err)
{
    if (app->training.corpus && !strcmp(app->training.corpus->name, name))
        return &app->training.corpus->task;
    struct ui_corpus *c = calloc(1, sizeof *c);
    if (!c) {
        mha_error_set(err, "out of memory");
        return NULL;
    }
    c->data = text_io_load_corpus(app->les.assets_dir, name, err);
    if (!c->data) {
        free(c);
        return NULL;
    }
    train_task_from_dataset(&c->task, c->data);
    snprintf(c->name, sizeof c->name, "%s", name);
    ui_train_corpus_free(&app->training);
    app->training.corpus = c;
    return &c->task;
}

static void end_lesson_training(struct ui_train_part *training)
{
    if (training->train && training->train->lesson) {
        trun_free(training->train);
        training->train = NULL;
    }
}

/* The same run in two steps' states: the same task, seed, sizes and heads. */
static bool same_run(const struct lesson_state *a, const struct lesson_state *b)
{
    if (!a->train || !b->train || strcmp(a->train, b->train) != 0 ||
        a->n_train_heads != b->n_train_heads ||
        a->train_compare_layers != b->train_compare_layers || a->train_seed != b->train_seed ||
        a->train_steps != b->train_steps || a->train_d_model != b->train_d_model ||
        a->train_layers != b->train_layers)
        return false;
    for (int i = 0; i < a->n_train_heads; i++)
        if (a->train_heads[i] != b->train_heads[i])
            return false;
    return true;
}

bool ui_train_prediction_waits(const struct ui_app *app)
{
    const struct ui_lessons *ls = &app->les;
    if (!ls->l || !app->training.train || !app->training.train->lesson)
        return false;
    if (ui_quiz_asking(&ls->quiz))
        return true;
    const int next = ls->step + 1;
    if (next >= ls->l->n_steps || !ls->l->steps[next].has_quiz ||
        (ls->progress && progress_quiz(ls->progress, ls->id, next) >= 0))
        return false;
    struct lesson_state here, there;
    lesson_state_at(ls->l, ls->step, &here);
    lesson_state_at(ls->l, next, &there);
    return same_run(&here, &there);
}

bool ui_train_unstarted_waits(const struct ui_app *app)
{
    return app->training.train && app->training.train->paused && ui_train_prediction_waits(app);
}

void ui_train_lesson_sync(struct ui_app *app)
{
    const struct lesson *l = app->les.l;
    if (!l) {
        end_lesson_training(&app->training);
        return;
    }
    struct lesson_state ls;
    lesson_state_at(l, app->les.step, &ls);
    if (!ls.train) {
        end_lesson_training(&app->training);
        return;
    }
    struct trun_setup s;
    struct mha_error err;
    mha_error_clear(&err);
    const struct train_task *corpus = NULL;
    if (!train_task_find(ls.train)) { /* a corpus: the training on another one ends first */
        if (app->training.train && app->training.train->lesson && app->training.corpus &&
            strcmp(app->training.corpus->name, ls.train))
            end_lesson_training(&app->training);
        if (!(corpus = lesson_corpus(app, ls.train, &err))) {
            ui_state_say(&app->st, true, "This step cannot train: %s", err.text);
            return;
        }
    }
    struct train_ask ask;
    lesson_train_ask(&ls, corpus ? corpus : train_task_find(ls.train), &ask);
    if (trun_setup_task(&s, &ask, &err) != 0) {
        ui_state_say(&app->st, true, "%s", err.text);
        return;
    }
    struct trun *t = app->training.train;
    char key[96];
    setup_key(&s, key, sizeof key);
    if (!t || !t->lesson || strcmp(t->lesson_key, key) != 0) {
        t = trun_new(&s, &err);
        if (!t) {
            ui_state_say(&app->st, true, "This step cannot train: %s", err.text);
            return;
        }
        trun_free(app->training.train);
        app->training.train = t;
        t->lesson = true;
        /* a lesson's training waits for the reader (p starts it), unless
         * autoplay turns the pages: then it is watched to its end */
        t->paused = !app->autoplay.on;
        snprintf(t->lesson_key, sizeof t->lesson_key, "%s", key);
        t->lesson_step = -1;
        t->start_ms = t->now_ms = app->training.train_clock_ms;
    }
    if (t->lesson_step != app->les.step) {
        /* the step just arrived: a stage: (or a view:) in its scene shows the
         * model's stages (or that view of it) */
        const struct lesson_step *step = &l->steps[app->les.step];
        const bool view =
            step->has_scene && (step->scene.set & (1u << SCENE_VIEW)) && ls.view != MHA_VIEW_NONE;
        const bool stages = view || (step->has_scene && (step->scene.set & (1u << SCENE_STAGE)));
        t->lesson_step = app->les.step;
        t->shown = !stages;
        t->scrub = -1;
        if (trun_show_layers(t, ls.layer, &err))
            ui_state_say(&app->st, true, "layer: %s", err.text);
        ui_train_sync_example(app);
        if (stages)
            ui_state_set_stage(&app->st, ls.stage);
        if (view)
            ui_state_set_view(&app->st, ls.view);
        else if (t->paused && !trun_done(t) && !app->st.msg[0])
            ui_state_say(&app->st, false,
                         "The training waits for you: p starts it (and pauses it), n takes one "
                         "step.");
    } else if (!t->shown && !app->st.model) {
        /* a checkpoint's reveal put the step's scene again, with an example
         * of its own: the model's stages (or its view) come back */
        ui_train_sync_example(app);
    }
}

/* ---- :link ------------------------------------------------------------------------------ */

char *ui_train_link_command(const struct ui_app *app)
{
    const struct trun *t = app->training.train;
    char text[512];
    size_t used = (size_t)snprintf(text, sizeof text, "mha-explorer --train %s", t->task->name);
    if (t->n_panes > 1) {
        used += (size_t)snprintf(text + used, sizeof text - used, " --compare %s",
                                 t->compare_layers     ? "layers="
                                 : t->compare_variants ? "variants="
                                                       : "");
        char v[TRAIN_VARIANT_NAME_MAX];
        for (int i = 0; i < t->n_panes && used < sizeof text; i++)
            if (t->compare_variants)
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%s", i ? "," : "",
                                         train_variant_name(&t->variants[i], v, sizeof v));
            else
                used += (size_t)snprintf(text + used, sizeof text - used, "%s%d", i ? "," : "",
                                         t->compare_layers ? t->layers[i] : t->heads[i]);
    } else if (t->variants[0].kind != TRAIN_VARIANT_STANDARD && used < sizeof text) {
        char v[TRAIN_VARIANT_NAME_MAX];
        used += (size_t)snprintf(text + used, sizeof text - used, " --variant %s",
                                 train_variant_name(&t->variants[0], v, sizeof v));
    }
    if (t->n_panes == 1 || t->compare_layers || t->compare_variants)
        used += (size_t)snprintf(text + used, sizeof text - used, " --heads %d", t->heads[0]);
    if (!t->compare_layers && t->opt.layers > 1 && used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used, " --layers %d", t->opt.layers);
    /* the layer the pane in focus shows, where it is not its last: --layer
     * shows it in every pane, so only where every pane has it */
    const struct train_model *shown = t->panes[t->focus].run->model;
    bool every = shown->shown_layer + 1 < train_layers(&shown->cfg);
    for (int i = 0; every && i < t->n_panes; i++)
        every = shown->shown_layer < train_layers(&t->panes[i].run->model->cfg);
    if (every && used < sizeof text)
        used +=
            (size_t)snprintf(text + used, sizeof text - used, " --layer %d", shown->shown_layer);
    if (used < sizeof text)
        used += (size_t)snprintf(text + used, sizeof text - used, " --d-model %d --seed %u",
                                 t->d_model, (unsigned)t->opt.seed);
    if (used < sizeof text && t->opt.steps != TRAIN_DEFAULT_STEPS)
        used += (size_t)snprintf(text + used, sizeof text - used, " --steps %d", t->opt.steps);
    if (used < sizeof text && app->th.name != COLORSCALE_THEME_DARK)
        used += (size_t)snprintf(text + used, sizeof text - used, " --theme %s",
                                 colorscale_theme_name(app->th.name));
    if (used < sizeof text && app->st.present)
        snprintf(text + used, sizeof text - used, " --present");
    return strdup(text);
}
