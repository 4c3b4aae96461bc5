/* ui_follow_apply.c - a student's explorer following the teacher's: the keys
 * of the teacher's recording applied as the file grows (a late joiner plays
 * them all at once), a student's own key to explore alone, F to come back,
 * and a q that asks; and the teacher's state lines (a replay's too), the
 * screen put where the teacher's was.
 *
 * The teacher's resizes are not applied (each student keeps their own
 * size); the teacher's clicks are, where the student's terminal has the
 * teacher's size (elsewhere the same place is another thing). */
#include "ui/app/ui_follow.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "engine/mha.h"
#include "io/rec_stream.h"
#include "io/view_desc.h"
#include "ui/app/ui_modes.h"
#include "ui/train/ui_train.h"
#include "ui/commands/ui_cmd.h"
#include "ui/modes/ui_keymaps.h"
#include "train/trun.h"

/* The teacher's events at most applied between two looks at the keys:
 * a late joiner catches up in pieces the keyboard can interrupt. */
#define CATCH_UP_EVENTS 2000
#define READ_AT_ONCE ((size_t)1 << 20)

static bool same_size_as_teacher(const struct ui_app *app)
{
    const struct rec_start *s = &app->stream.follow->s.rec.start;
    return s->rows == app->win.rows && s->cols == app->win.cols;
}

/* One of the teacher's events. */
static void apply(struct ui_app *app, const struct rec_event *e)
{
    if (e->key == REC_KEY_RESIZE)
        return; /* the student's own size stays */
    if (rec_key_is_mouse(e->key) && !same_size_as_teacher(app)) {
        if (ui_train_timers(app, ui_train_tick_of(&app->stream, trun_ms(e->t)), true))
            ui_app_reflow(app, app->win.rows, app->win.cols);
        return;
    }
    ui_app_play_event(app, e);
}

/* The example's settings as the teacher had them, through the commands a
 * student would type (each checks its own value). */
static void same_settings(struct ui_app *app, const struct rec_state *s)
{
    const struct mha_example *ex = app->st.ex;
    char cmd[64];
    if (!ex || app->training.train)
        return;
    if (s->d_model > 0 && ex->d_model != s->d_model) {
        snprintf(cmd, sizeof cmd, "d_model %d", s->d_model);
        ui_app_command(app, cmd);
    }
    ex = app->st.ex;
    if (s->heads > 0 && ex->heads != s->heads) {
        snprintf(cmd, sizeof cmd, "heads %d", s->heads);
        ui_app_command(app, cmd);
    }
    ex = app->st.ex;
    if (s->seed >= 0 && app->st.generated && (long long)ex->seed != s->seed) {
        snprintf(cmd, sizeof cmd, "seed %lld", s->seed);
        ui_app_command(app, cmd);
    }
    ex = app->st.ex;
    if (s->causal >= 0 && ex->causal != (s->causal != 0))
        ui_app_command(app, s->causal ? "causal on" : "causal off");
    ex = app->st.ex;
    if (s->scale >= 0 && ex->scaled != (s->scale != 0))
        ui_app_command(app, s->scale ? "scale on" : "scale off");
}

/* The teacher's lesson (a bundled one, by its file's name) and step. */
static void same_lesson(struct ui_app *app, const struct rec_state *s)
{
    struct ui_lessons *ls = &app->les;
    struct ui_state *st = &app->st;
    if (!s->lesson[0] || !strcmp(s->lesson, "-"))
        return;
    if (!ls->l || strcmp(ls->id, s->lesson) != 0) {
        char path[PATH_MAX];
        if (snprintf(path, sizeof path, "%s/%s", ls->lessons_dir, s->lesson) >= (int)sizeof path ||
            access(path, R_OK) != 0)
            return; /* the teacher's own lesson file: the student may give --lesson FILE */
        ls->menu_open = false;
        if (ui_lesson_open(ls, st, path, s->step >= 0 ? s->step : 0) == 0)
            ui_train_lesson_sync(app);
        return;
    }
    if (s->step >= 0 && s->step != ls->step && s->step < ls->l->n_steps) {
        ui_lesson_goto(ls, st, s->step);
        ui_train_lesson_sync(app);
    }
}

/* Whether the screen is where the teacher's state s says (what a follower
 * applies of it: the lesson and step, stage, view, presenter mode, the
 * example's settings); what differs into follow_off, "" when nothing. */
static void check_there(struct ui_app *app, const struct rec_state *s)
{
    struct rec_state here;
    ui_record_state_now(app, &here);
    char *off = app->stream.follow_off;
    const size_t n = sizeof app->stream.follow_off;
    off[0] = '\0';
    if (s->lesson[0] && strcmp(s->lesson, here.lesson) != 0) {
        if (strcmp(s->lesson, "-") != 0)
            snprintf(off, n, "the teacher's lesson %s is not one of this explorer's", s->lesson);
        else
            snprintf(off, n, "the teacher has no lesson open");
    } else if (strcmp(here.lesson, "-") != 0 && s->step >= 0 && s->step != here.step) {
        snprintf(off, n, "not on the teacher's step %d", s->step + 1);
    } else if ((s->stage >= 0 && s->stage != here.stage) ||
               (s->view >= 0 && s->view != here.view) ||
               (s->present >= 0 && s->present != here.present) ||
               (here.heads >= 0 && s->heads >= 0 && s->heads != here.heads) ||
               (here.d_model >= 0 && s->d_model >= 0 && s->d_model != here.d_model) ||
               (here.causal >= 0 && s->causal >= 0 && s->causal != here.causal) ||
               (here.scale >= 0 && s->scale >= 0 && s->scale != here.scale)) {
        snprintf(off, n, "not on the teacher's screen");
    }
}

/* The teacher's state after `played` events of rec (rec_state.h), from
 * *next on, as far as the recording's clock `until` (a replay plays a move
 * no key made at its time; a follower passes INFINITY): the last one
 * reached is applied (lesson and step by index, stage, view, presenter,
 * autoplay, the example's settings), so the screen is where the teacher's
 * was whatever the keys did here.  again: apply the last one reached even
 * when no new one came (after a key of the teacher's: a key never moves
 * the screen by itself).  True when it applied one (the caller lays the
 * screen out again). */
static bool teacher_state(struct ui_app *app, const struct recording *rec, int *next, int played,
                          double until, bool again)
{
    /* the training run's snapshots written before this state line: a
     * follower takes all that came, a replay those due by the key's time */
    const bool replay = rec == app->stream.replay.rec;
    const bool snapped = ui_watch_apply(
        app, rec, replay ? &app->stream.replay_snap : &app->stream.follow_snap, played,
        replay && played > 0 ? trun_ms(rec->events[played - 1].t) : LONG_MAX);
    int i = *next;
    while (i < rec->n_states && rec->states[i].at <= played &&
           (rec->states[i].at < played || rec->states[i].t <= until))
        i++;
    if (i == 0 || (i == *next && !again))
        return snapped;
    *next = i;
    const struct rec_state *s = &rec->states[i - 1].s;
    same_lesson(app, s);
    same_settings(app, s);
    struct ui_state *st = &app->st;
    if (s->view >= 0 && (int)st->view != s->view) {
        char cmd[64];
        snprintf(cmd, sizeof cmd, "view %s", mha_view_name((enum mha_view)s->view));
        ui_app_command(app, cmd);
    }
    if (s->stage >= 0 && s->stage < MHA_STAGE_COUNT)
        st->stage = s->stage;
    if (s->present >= 0)
        st->present = s->present != 0;
    if (s->autoplay >= 0)
        app->autoplay.on = s->autoplay != 0;
    /* a --compare pane in focus (a click chose it at the teacher's size) */
    if (app->training.train && s->pane >= 0 && s->pane < app->training.train->n_panes &&
        s->pane != app->training.train->focus)
        ui_train_focus_pane(&app->st, app->training.train, s->pane);
    if (s->layer >=
        0) /* a model of layers: the teacher's layer (its heads' figures come with it) */
        ui_app_teachers_layer(app, s->layer);
    if (s->top_p > 0 && (int)(st->top_p * 1000.0 + 0.5) != s->top_p) /* the teacher's top-p */
        ui_state_set_top_p(st, s->top_p / 1000.0, "the teacher's top-p");
    ui_watch_state(app, s); /* the run's pause and the checkpoint shown */
    if (!replay)
        check_there(app, s);
    return true;
}

void ui_app_teacher_state(struct ui_app *app, const struct recording *rec, int *next, int played,
                          double until)
{
    if (teacher_state(app, rec, next, played, until, false))
        ui_app_reflow(app, app->win.rows, app->win.cols);
}

/* The lesson and step shown. */
struct at_step {
    const void *lesson;
    int step;
};
static struct at_step at_step(const struct ui_app *app)
{
    return (struct at_step){app->les.l, app->les.l ? app->les.step : -1};
}

void ui_app_teacher_event(struct ui_app *app, const struct recording *rec, int *next, int played,
                          double until)
{
    const struct at_step before = at_step(app);
    const struct rec_event *e = &rec->events[played - 1];
    if (app->stream.follow && !app->stream.replay.active)
        apply(app, e);
    else
        ui_app_play_event(app, e);
    const struct at_step moved = at_step(app);
    teacher_state(app, rec, next, played, until, true);
    const struct at_step after = at_step(app);
    /* a key that turned the page here only read on at the teacher's size
     * (a Space, PgDn, or back): the step stays, read to its end (or its top) */
    if (before.lesson && before.lesson == moved.lesson && moved.step != before.step &&
        after.lesson == before.lesson && after.step == before.step)
        app->les.scroll = moved.step > before.step ? 1 << 20 : 0; /* clamped when drawn */
    ui_app_reflow(app, app->win.rows, app->win.cols);
}

bool ui_follow_tick(struct ui_app *app, double now)
{
    struct rec_follow *f = app->stream.follow;
    if (!f)
        return false;
    const int was = app->stream.follow_seen; /* what was said last (0: live) */
    rec_follow_poll(f, now, READ_AT_ONCE);
    app->stream.follow_seen = (int)f->state;
    /* the quiet seconds the status line says, against what it said last:
     * a teacher who stopped without "# end" is told within a poll of
     * REC_QUIET_AFTER, though nothing else redraws */
    const int quiet = f->state == REC_FOLLOW_LIVE && now - f->last_data >= REC_QUIET_AFTER
                          ? (int)(now - f->last_data)
                          : -1;
    bool changed = (int)f->state != was || quiet != app->stream.follow_quiet;
    app->stream.follow_quiet = quiet;
    if (app->stream.detached)
        return changed;
    const int states_before = app->stream.follow_state, snaps_before = app->stream.follow_snap;
    /* before a key: the moves no key made (autoplay, the training), and a
     * state line merged into one already applied */
    const bool merged = f->s.rec.state_lines != app->stream.follow_lines;
    app->stream.follow_lines = f->s.rec.state_lines;
    if (teacher_state(app, &f->s.rec, &app->stream.follow_state, app->stream.follow_next, INFINITY,
                      merged)) {
        ui_app_reflow(app, app->win.rows, app->win.cols);
        changed = true;
    }
    for (int n = 0; app->stream.follow_next < f->s.rec.n && n < CATCH_UP_EVENTS; n++) {
        /* the key for what it shows, then where it took the teacher */
        ui_app_teacher_event(app, &f->s.rec, &app->stream.follow_state, ++app->stream.follow_next,
                             INFINITY);
        changed = true;
    }
    changed = changed || app->stream.follow_state != states_before ||
              app->stream.follow_snap != snaps_before;
    /* between the teacher's keys the training runs to the teacher's clock
     * (ui_train_session_ms gives it), with the loop's other timers */
    if ((int)f->state != was) {
        char why[400];
        rec_follow_why(f, now, why, sizeof why);
        if (why[0])
            ui_state_say(&app->st, f->state == REC_FOLLOW_FAILED,
                         "%s%s; the screen stays as it was.", why,
                         f->state == REC_FOLLOW_REPLACED ? " (F follows it from its start)" : "");
        ui_app_reflow(app, app->win.rows, app->win.cols);
    }
    return changed;
}

static void detach(struct ui_app *app, double now)
{
    app->stream.detach_offset = app->stream.follow->s.clock - (now - app->stream.record_start);
    app->stream.detached = true;
    if (app->training.train) /* the student's run from here: the key that detached may step it */
        app->training.train->watch = false;
    ui_viewer_own(&app->les, &app->st);
    ui_state_say(&app->st, false,
                 "Exploring on your own: the teacher's keys wait. F rejoins the teacher.");
}

bool ui_follow_key(struct ui_app *app, int key, bool is_char, double now)
{
    if (!app->stream.follow || (!is_char && key == KEY_RESIZE))
        return false;
    const int act = ui_keymap_action(&ui_keymap_follow, ui_mode_keycode(key, is_char), -1);
    /* q asks on the main screen (elsewhere it closes what is open); F is
     * the follower's in every mode but a ':' or '/' line being typed */
    const bool main_screen =
        app->modes.n <= 1 /* no mode over the main screen */ && !app->lay.too_small;
    const bool typing = ui_modes_top(app) == &ui_mode_prompt;
    if (act == UI_FOLLOW_QUIT && main_screen) {
        if (app->quit_armed) {
            app->st.quit = true;
            return true;
        }
        app->quit_armed = true;
        ui_state_say(&app->st, false,
                     "Leave the class? q again quits; any other key stays with the %s.",
                     app->stream.detached ? "screen" : "teacher");
        ui_app_reflow(app, app->win.rows, app->win.cols);
        return true;
    }
    if (app->quit_armed && main_screen) { /* the key after that q only answers it */
        app->quit_armed = false;
        ui_state_say(&app->st, false, "Staying.");
        ui_app_reflow(app, app->win.rows, app->win.cols);
        return true;
    }
    if (act == UI_FOLLOW_REJOIN && !typing) {
        app->quit_armed = false;
        if (app->stream.detached || app->stream.follow->state == REC_FOLLOW_REPLACED) {
            app->stream.rejoin =
                true; /* the loop ends; the caller starts again from the teacher's start */
        } else {
            /* the teacher's present state again, whatever came before */
            const bool was_off = app->stream.follow_off[0] != '\0';
            teacher_state(app, &app->stream.follow->s.rec, &app->stream.follow_state,
                          app->stream.follow_next, INFINITY, true);
            if (app->stream.follow_off[0])
                ui_state_say(&app->st, true, "F cannot go to the teacher's screen: %s.",
                             app->stream.follow_off);
            else
                ui_state_say(&app->st, false,
                             was_off ? "Back on the teacher's screen."
                                     : "Following the teacher already.");
        }
        ui_app_reflow(app, app->win.rows, app->win.cols);
        return true;
    }
    if (!app->stream.detached)
        detach(app, now);
    return false; /* the key goes on to the explorer */
}
