/* ui_follow.c - following the teacher's explorer, as the screen reads it:
 * the clock the training screen keeps, the status words, and :class (the
 * students' command).  The teacher's events are applied at the top
 * (app/ui_follow_apply.c). */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/mha.h"
#include "engine/stages.h"
#include "io/rec_stream.h"
#include "io/view_desc.h"
#include "train/trun.h"
#include "ui/modes/ui_app.h"
#include "ui/train/ui_train.h"
#include "ui/follow/ui_stream.h"
#include "ui/commands/ui_cmd.h"
#include "ui/modes/ui_keymaps.h"

/* A follower's own keys (app/ui_follow_apply.c switches on them); every
 * other key of a follower's explores alone. */
static const struct ui_keymap_row follow_rows[] = {
    {{'F'},
     "F",
     UI_FOLLOW_REJOIN,
     "rejoin the teacher from any screen (or a new file)",
     "F rejoins the teacher"},
    {{'q', 'Q'}, "q Q", UI_FOLLOW_QUIT, "main screen: asks; q again leaves the class", NULL},
};
const struct ui_keymap ui_keymap_follow = UI_KEYMAP("Following a teacher (--follow)", follow_rows);

double ui_follow_clock(const struct ui_app *app, double now)
{
    const struct rec_follow *f = app->follow;
    if (!app->detached)
        return f->s.clock;
    return now - app->record_start + app->detach_offset;
}

void ui_follow_status(const struct ui_app *app, double now, char *buf, size_t n)
{
    const struct rec_follow *f = app->follow;
    if (!f)
        return;
    const size_t len = strlen(buf);
    char why[400];
    rec_follow_why(f, now, why, sizeof why);
    if (app->detached)
        snprintf(buf + len, n - len, "%sexploring on your own · F rejoins the teacher",
                 len ? " · " : "");
    else if (why[0])
        snprintf(buf + len, n - len, "%s%s", len ? " · " : "", why);
    else
        snprintf(buf + len, n - len, "%sfollowing the teacher · %d key%s", len ? " · " : "",
                 app->follow_next, app->follow_next == 1 ? "" : "s");
}

bool ui_stream_refuses(struct ui_app *app, const char *did)
{
    if (!app || !app->streamed)
        return false;
    if (app->follow)
        ui_state_say(&app->st, false,
                     "The teacher %s; nothing is written, read or copied here for the teacher "
                     "(your own key does it, and leaves the teacher).",
                     did);
    else
        ui_state_say(&app->st, false,
                     "The recording %s; a replay writes, reads and copies nothing (Esc stops it, "
                     "then your own key does it).",
                     did);
    return true;
}

void ui_viewer_own(struct ui_app *app)
{
    if (app->les.progress)
        return;
    char warning[600];
    app->les.progress = progress_load(NULL, warning, sizeof warning);
    if (warning[0])
        ui_state_say(&app->st, true, "%s", warning);
}

int ui_cmd_class(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)arg;
    if (!app->record) {
        ui_state_say(st, false,
                     "A class follows a recorded session: start the explorer with --record FILE, "
                     "then :class gives the students' command.");
        return 0;
    }
    char path[PATH_MAX];
    if (!realpath(app->record_name, path))
        snprintf(path, sizeof path, "%s", app->record_name);
    ui_state_say(st, false,
                 "Students run: mha-explorer --follow %s  (over ssh: ssh HOST tail -c +1 -f %s | "
                 "mha-explorer --follow -)",
                 path, path);
    return 0;
}

bool ui_autoplay_is_teachers(const struct ui_app *app)
{
    if (app->follow)
        return !app->detached;
    return app->replay.active && app->replay.rec && app->replay.rec->n_states > 0;
}

/* The example's settings as the teacher had them, through the commands a
 * student would type (each checks its own value). */
static void same_settings(struct ui_app *app, const struct rec_state *s)
{
    const struct mha_example *ex = app->st.ex;
    char cmd[64];
    if (!ex || app->train)
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

bool ui_teacher_state(struct ui_app *app, const struct recording *rec, int *next, int played)
{
    /* the training run's snapshots written before this state line: a
     * follower takes all that came, a replay those due by the key's time */
    const bool replay = rec == app->replay.rec;
    const bool snapped =
        ui_watch_apply(app, rec, replay ? &app->replay_snap : &app->follow_snap, played,
                       replay && played > 0 ? trun_ms(rec->events[played - 1].t) : LONG_MAX);
    int i = *next;
    while (i < rec->n_states && rec->states[i].at <= played)
        i++;
    if (i == *next)
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
    if (app->train && s->pane >= 0 && s->pane < app->train->n_panes && s->pane != app->train->focus)
        ui_train_focus(app, s->pane);
    if (s->layer >=
        0) /* a model of layers: the teacher's layer (its heads' figures come with it) */
        ui_app_teachers_layer(app, s->layer);
    ui_watch_state(app, s); /* the run's pause and the checkpoint shown */
    return true;
}
