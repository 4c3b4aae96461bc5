/* ui_follow_apply.c - a student's explorer following the teacher's: the keys
 * of the teacher's recording applied as the file grows (a late joiner plays
 * them all at once), a student's own key to explore alone, F to come back,
 * and a q that asks.
 *
 * The teacher's resizes are not applied (each student keeps their own
 * size); the teacher's clicks are, where the student's terminal has the
 * teacher's size (elsewhere the same place is another thing). */
#include "ui/app/ui_follow.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "io/rec_stream.h"
#include "ui/app/ui_modes.h"
#include "ui/train/ui_train.h"
#include "ui/modes/ui_keymaps.h"
#include "train/trun.h"

/* The teacher's events at most applied between two looks at the keys:
 * a late joiner catches up in pieces the keyboard can interrupt. */
#define CATCH_UP_EVENTS 2000
#define READ_AT_ONCE ((size_t)1 << 20)

static bool same_size_as_teacher(const struct ui_app *app)
{
    const struct rec_start *s = &app->follow->s.rec.start;
    return s->rows == app->rows && s->cols == app->cols;
}

/* One of the teacher's events. */
static void apply(struct ui_app *app, const struct rec_event *e)
{
    if (e->key == REC_KEY_RESIZE)
        return; /* the student's own size stays */
    if (rec_key_is_mouse(e->key) && !same_size_as_teacher(app)) {
        if (ui_train_timers(app, trun_ms(e->t), true))
            ui_app_reflow(app, app->rows, app->cols);
        return;
    }
    ui_app_play_event(app, e);
}

void ui_app_teacher_state(struct ui_app *app, const struct recording *rec, int *next, int played)
{
    if (ui_teacher_state(app, rec, next, played))
        ui_app_reflow(app, app->rows, app->cols);
}

bool ui_follow_tick(struct ui_app *app, double now)
{
    struct rec_follow *f = app->follow;
    if (!f)
        return false;
    const int was = app->follow_seen; /* what was said last (0: live) */
    rec_follow_poll(f, now, READ_AT_ONCE);
    app->follow_seen = (int)f->state;
    /* the quiet seconds the status line says, against what it said last:
     * a teacher who stopped without "# end" is told within a poll of
     * REC_QUIET_AFTER, though nothing else redraws */
    const int quiet = f->state == REC_FOLLOW_LIVE && now - f->last_data >= REC_QUIET_AFTER
                          ? (int)(now - f->last_data)
                          : -1;
    bool changed = (int)f->state != was || quiet != app->follow_quiet;
    app->follow_quiet = quiet;
    if (app->detached)
        return changed;
    const int states_before = app->follow_state, snaps_before = app->follow_snap;
    ui_app_teacher_state(app, &f->s.rec, &app->follow_state, app->follow_next); /* before a key */
    for (int n = 0; app->follow_next < f->s.rec.n && n < CATCH_UP_EVENTS; n++) {
        apply(app, &f->s.rec.events[app->follow_next++]);
        /* then where the key took the teacher, whatever it did here */
        ui_app_teacher_state(app, &f->s.rec, &app->follow_state, app->follow_next);
        changed = true;
    }
    changed = changed || app->follow_state != states_before || app->follow_snap != snaps_before;
    /* between the teacher's keys the training runs to the teacher's clock
     * (ui_train_session_ms gives it), with the loop's other timers */
    if ((int)f->state != was) {
        char why[400];
        rec_follow_why(f, now, why, sizeof why);
        if (why[0])
            ui_state_say(&app->st, f->state == REC_FOLLOW_FAILED,
                         "%s%s; the screen stays as it was.", why,
                         f->state == REC_FOLLOW_REPLACED ? " (F follows it from its start)" : "");
        ui_app_reflow(app, app->rows, app->cols);
    }
    return changed;
}

static void detach(struct ui_app *app, double now)
{
    app->detach_offset = app->follow->s.clock - (now - app->record_start);
    app->detached = true;
    if (app->train) /* the student's run from here: the key that detached may step it */
        app->train->watch = false;
    ui_viewer_own(app);
    ui_state_say(&app->st, false,
                 "Exploring on your own: the teacher's keys wait. F rejoins the teacher.");
}

bool ui_follow_key(struct ui_app *app, int key, bool is_char, double now)
{
    if (!app->follow || (!is_char && key == KEY_RESIZE))
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
                     app->detached ? "screen" : "teacher");
        ui_app_reflow(app, app->rows, app->cols);
        return true;
    }
    if (app->quit_armed && main_screen) { /* the key after that q only answers it */
        app->quit_armed = false;
        ui_state_say(&app->st, false, "Staying.");
        ui_app_reflow(app, app->rows, app->cols);
        return true;
    }
    if (act == UI_FOLLOW_REJOIN && !typing) {
        app->quit_armed = false;
        if (app->detached || app->follow->state == REC_FOLLOW_REPLACED)
            app->rejoin =
                true; /* the loop ends; the caller starts again from the teacher's start */
        else
            ui_state_say(&app->st, false, "Following the teacher already.");
        ui_app_reflow(app, app->rows, app->cols);
        return true;
    }
    if (!app->detached)
        detach(app, now);
    return false; /* the key goes on to the explorer */
}
