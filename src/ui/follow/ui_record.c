/* ui_record.c - the start of a recording and of a replay, once the terminal
 * is up: a recording's first lines say what reproduces the start (the
 * options, the lesson's step as it opened, the terminal's size); a replay
 * says when the terminal differs from the one it was made in, or when its
 * last line was cut short. */
#include <curses.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/modes/ui_app.h"
#include "ui/follow/ui_stream.h"
#include "io/rec_stream.h"
#include "io/rec_state.h"
#include "io/safe_file.h"
#include "train/trun.h"
#include "ui/state/ui_mode.h"

/* The step the lesson opened on, as --step gives it (1-based), replacing
 * any --step among the options: without one the lesson would open where
 * the reader left it, which is somewhere else by the time it is replayed. */
static void pin_lesson_step(struct rec_start *start, const struct ui_lessons *ls)
{
    int out = 0;
    for (int i = 0; i < start->n_args; i++) {
        if (!strcmp(start->args[i], "--step") && i + 1 < start->n_args) {
            free(start->args[i]);
            free(start->args[i + 1]);
            i++;
            continue;
        }
        start->args[out++] = start->args[i];
    }
    start->n_args = out;
    if (!ls->l)
        return;
    char step[16];
    snprintf(step, sizeof step, "%d", ls->step + 1);
    rec_start_add(start, "--step");
    rec_start_add(start, step);
}

/* A write failed: no more keys are written; ui_run's caller closes the
 * file, keeps what was written and says so again on exit. */
static void stopped(struct ui_app *app, int err)
{
    app->stream.record = NULL;
    app->stream.record_failed = true;
    if (app->stream.record_error && !*app->stream.record_error)
        *app->stream.record_error = err ? err : EIO;
    ui_state_say(&app->st, true,
                 "The recording stopped: %s cannot be written (%s); the keys before are kept.",
                 app->stream.record_name, safe_file_reason(err));
}

void ui_record_write(struct ui_app *app, double t, int code)
{
    app->stream.record_mark = app->stream.record_start + t;
    if (app->stream.record && rec_write_event(app->stream.record, t, code) != 0)
        stopped(app, errno);
}

void ui_record_state_now(const struct ui_app *app, struct rec_state *s)
{
    rec_state_clear(s);
    const struct ui_lessons *ls = &app->les;
    snprintf(s->lesson, sizeof s->lesson, "%s",
             ls->l && strlen(ls->id) < sizeof s->lesson && !strpbrk(ls->id, " \t/") ? ls->id : "-");
    s->step = ls->l ? ls->step : -1;
    s->stage = app->st.stage;
    s->view = (int)app->st.view;
    s->present = app->st.present;
    s->autoplay = app->autoplay.on;
    const struct mha_example *ex = app->st.ex;
    if (app->training.train) {
        const struct trun *t = app->training.train;
        s->pane = t->focus;
        /* the step as the last snapshot gave it (a state line a tick would
         * be too many); the pause and the checkpoint shown as they are */
        s->train = app->stream.snap_out.any && app->stream.snap_out.serial == t->serial
                       ? app->stream.snap_out.step[0]
                       : t->panes[0].run->model->step;
        s->paused = t->paused;
        s->scrub = t->scrub >= 0 ? t->scrub : REC_STATE_LIVE;
    }
    /* the layer shown of a model of layers: the training's in focus, or a loaded one */
    if (app->training.train && app->st.model) {
        const struct train_model *m =
            app->training.train->panes[app->training.train->focus].run->model;
        s->layer = train_layers(&m->cfg) > 1 ? m->shown_layer : -1;
    } else if (ex && ex->layers > 1) {
        s->layer = ex->layer;
    }
    s->top_p = (int)(app->st.top_p * 1000.0 + 0.5); /* what w draws at */
    if (s->top_p < 1)
        s->top_p = 1;
    if (ex && !app->training.train) { /* a training run's model is the run's */
        s->heads = ex->heads;
        s->d_model = ex->d_model;
        s->seed = app->st.generated ? (long long)ex->seed : -1;
        s->causal = ex->causal;
        s->scale = ex->scaled;
    }
}

void ui_record_state(struct ui_app *app, double t)
{
    if (!app->stream.record)
        return;
    if (ui_record_snaps(app) != 0) { /* the run's figures before the state line naming its step */
        stopped(app, errno);
        return;
    }
    struct rec_state now;
    ui_record_state_now(app, &now);
    if (app->stream.record_state_written && rec_state_same(&now, &app->stream.record_state))
        return;
    /* a move that no key made: the clock first, so a replay plays it at its time */
    if (t >= 0.0) {
        app->stream.record_mark = app->stream.record_start + t;
        if (rec_write_mark(app->stream.record, t) != 0) {
            stopped(app, errno);
            return;
        }
    }
    if (rec_state_write(app->stream.record,
                        app->stream.record_state_written ? &app->stream.record_state : NULL,
                        &now) != 0) {
        stopped(app, errno);
        return;
    }
    app->stream.record_state = now;
    app->stream.record_state_written = true;
}

void ui_record_tick(struct ui_app *app, double now)
{
    if (!app->stream.record || now - app->stream.record_mark < REC_MARK_EVERY)
        return;
    app->stream.record_mark = now;
    if (rec_write_mark(app->stream.record, now - app->stream.record_start) != 0)
        stopped(app, errno);
}

void ui_record_end(struct ui_app *app)
{
    app->stream.snap_out.t = -1e9; /* the run as it ended, however soon after the last */
    if (ui_record_snaps(app) != 0) {
        stopped(app, errno);
        return;
    }
    if (app->stream.record && rec_write_end(app->stream.record) != 0)
        stopped(app, errno);
}

void ui_record_mouse(struct ui_app *app, double t, const MEVENT *ev)
{
    const int code = ev->bstate & BUTTON4_PRESSED                       ? REC_KEY_WHEEL_UP
                     : UI_BUTTON5 && (ev->bstate & UI_BUTTON5)          ? REC_KEY_WHEEL_DOWN
                     : ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED) ? REC_KEY_CLICK
                                                                        : -1;
    if (!app->stream.record || code < 0 || app->st.quit || ev->y < 0 || ev->x < 0 ||
        ev->y >= REC_MAX_SCREEN || ev->x >= REC_MAX_SCREEN)
        return;
    app->stream.record_mark = app->stream.record_start + t;
    if (rec_write_mouse(app->stream.record, t, code, ev->y, ev->x) != 0)
        stopped(app, errno);
}

MEVENT ui_record_mouse_event(int key, int y, int x)
{
    MEVENT ev;
    memset(&ev, 0, sizeof ev);
    ev.y = y;
    ev.x = x;
    ev.bstate = key == REC_KEY_WHEEL_UP     ? BUTTON4_PRESSED
                : key == REC_KEY_WHEEL_DOWN ? UI_BUTTON5
                                            : BUTTON1_PRESSED;
    return ev;
}

void ui_record_status(const struct ui_stream *stream, char *buf, size_t n)
{
    if (!stream->record_failed)
        return;
    const size_t len = strlen(buf);
    snprintf(buf + len, n - len, "%srecording stopped", len ? " · " : "");
}

bool ui_record_begin(struct ui_app *app)
{
    if (app->stream.record) {
        struct rec_start empty = {0};
        struct rec_start *start =
            app->stream.record_start_args ? app->stream.record_start_args : &empty;
        pin_lesson_step(start, &app->les);
        start->rows = LINES;
        start->cols = COLS;
        /* the mark says the start lines are whole: a follower may open now */
        if (rec_write_start(app->stream.record, start) != 0 ||
            rec_snap_write_on(app->stream.record) != 0 ||
            rec_write_mark(app->stream.record, 0.0) != 0)
            stopped(app, errno);
        else if (app->stream.record_started)
            app->stream.record_started(app->stream.record_ctx);
        ui_record_state(app, -1.0); /* where the session starts */
    }
    char note[800] = "";
    if (app->stream.stream_note)
        snprintf(note, sizeof note,
                 "The %s started with %s: not opened here (give it on your own command line to "
                 "open it). ",
                 app->stream.follow ? "teacher" : "recording", app->stream.stream_note);
    const struct recording *rec = app->stream.replay.rec;
    if (!rec) {
        if (note[0])
            ui_state_say(&app->st, false, "%s", note);
        return note[0] != '\0';
    }
    char size[160] = "";
    if (rec->start.rows > 0 && (rec->start.rows != LINES || rec->start.cols != COLS))
        snprintf(size, sizeof size,
                 "Recorded in a %dx%d terminal, replayed in %dx%d: the screen may differ. ",
                 rec->start.cols, rec->start.rows, COLS, LINES);
    if (size[0] || rec->warning[0] || note[0]) {
        ui_state_say(&app->st, rec->warning[0] != '\0', "%s%s%s", note, size, rec->warning);
        return true;
    }
    return false;
}
