/* ui_app.c - ui_run: the options applied to a new explorer, the curses
 * settings, and the off-screen redraw benchmark.  The input loop is in
 * ui_loop.c. */
#include "ui/ui.h"

#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui/app/ui_walk.h"
#include "ui/app/ui_top.h"
#include "ui/train/ui_train.h"
#include "ui/follow/ui_stream.h"
#include "ui/commands/ui_popup.h"
#include "ui/state/ui_play.h"
#include "train/trun.h"
#include "io/model_io.h"
#include "io/paths.h"
#include "io/view_desc.h"

static bool locale_is_utf8(void)
{
    const char *cs = nl_langinfo(CODESET);
    return cs && (strcmp(cs, "UTF-8") == 0 || strcmp(cs, "utf8") == 0);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

void ui_app_setup_curses(struct ui_app *app)
{
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    set_escdelay(25);
    curs_set(0);
    ui_mouse_setup(app);
    ui_theme_init(&app->th, app->th.utf8, app->th.name);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A screen whose output goes to /dev/null, for the walk and the benchmark. */
struct offscreen {
    FILE *out, *in;
    SCREEN *scr;
};

/* Open one on terminal term (xterm-256color when it has no entry), rows x
 * cols, the app laid out on it; false after "mha-explorer: the WHAT cannot
 * open a screen" with nothing left open. */
static bool offscreen_open(struct offscreen *o, struct ui_app *app, const char *term, int rows,
                           int cols, const char *what)
{
    o->out = fopen("/dev/null", "w");
    o->in = fopen("/dev/null", "r");
    o->scr = NULL;
    if (o->out && o->in) {
        o->scr = newterm(term, o->out, o->in);
        if (!o->scr && strcmp(term, "xterm-256color"))
            o->scr = newterm("xterm-256color", o->out, o->in);
    }
    if (!o->scr) {
        fprintf(stderr, "mha-explorer: the %s cannot open a screen\n", what);
        if (o->out)
            fclose(o->out);
        if (o->in)
            fclose(o->in);
        return false;
    }
    set_term(o->scr);
    ui_app_setup_curses(app);
    resizeterm(rows, cols);
    ui_app_reflow(app, rows, cols);
    return true;
}

static void offscreen_close(struct offscreen *o, struct ui_app *app)
{
    ui_app_free_windows(app);
    endwin();
    delscreen(o->scr);
    ui_release_curses();
    fclose(o->out);
    fclose(o->in);
}

/* The lesson's steps walked off screen (ui_walk.c). */
static int walk(struct ui_app *app, int rows, int cols)
{
    struct offscreen o;
    if (!offscreen_open(&o, app, "xterm-256color", rows, cols, "lesson walk"))
        return 1;
    const int status = ui_walk_lesson(app);
    offscreen_close(&o, app);
    return status;
}

/* Draw frames off screen (output to /dev/null), each after a keypress that
 * moves to the next stage, and print the median time of key + redraw. */
static int bench(struct ui_app *app, int frames, int rows, int cols)
{
    const char *term = getenv("TERM");
    struct offscreen o;
    if (!offscreen_open(&o, app, term && *term && strcmp(term, "dumb") ? term : "xterm-256color",
                        rows, cols, "benchmark"))
        return 1;
    ui_app_apply_focus(app);
    double *ms = calloc((size_t)frames, sizeof *ms);
    if (!ms) {
        offscreen_close(&o, app);
        return 1;
    }
    wnoutrefresh(stdscr);
    ui_quiz_start(&app->les.quiz, NULL, -1); /* the digits move stages, they answer nothing */
    for (int i = 0; i < frames; i++) {
        const double t0 = now_ms();
        ui_app_key(app, '0' + (app->st.stage + 1) % MHA_STAGE_COUNT, true);
        ui_app_draw(app);
        doupdate();
        ms[i] = now_ms() - t0;
    }
    offscreen_close(&o, app);

    qsort(ms, (size_t)frames, sizeof *ms, cmp_double);
    printf("redraw after a keypress: median %.3f ms, max %.3f ms over %d frames at %dx%d "
           "(%s, %d tokens, d_model %d, %d heads, %s colours)\n",
           ms[frames / 2], ms[frames - 1], frames, cols, rows,
           app->st.source[0] ? app->st.source : "example", app->st.ex->lq, app->st.ex->d_model,
           app->st.ex->heads,
           app->th.depth == UI_DEPTH_256 ? "256"
           : app->th.depth == UI_DEPTH_8 ? "8"
                                         : "no");
    free(ms);
    return 0;
}

/* "<data dir>/sub" into buf, or NULL when there is no data directory. */
static const char *data_path(const char *sub, char *buf, size_t n)
{
    const char *p = mha_data_path(sub);
    if (!p)
        return NULL;
    snprintf(buf, n, "%s", p);
    return buf;
}

/* The lesson, view and cursor the options ask for; -1 with the reason in
 * the message line when one of them cannot be shown. */
static int start(struct ui_app *app, const struct ui_options *opt)
{
    struct ui_state *st = &app->st;
    if (opt->top_p > 0.0 && opt->top_p <= 1.0) /* the example was read at it (--top-p) */
        st->top_p = opt->top_p;
    if (opt->lesson_path &&
        ui_lesson_open(&app->les, st, opt->lesson_path, opt->lesson_step - 1) != 0)
        return -1;
    if (opt->corrupt) { /* opens the patching view unless another is asked for */
        snprintf(st->view_corrupt, sizeof st->view_corrupt, "%s", opt->corrupt);
        if (!opt->view && !opt->lesson_path)
            ui_state_set_view(st, view_of_corrupt());
    }
    if (opt->view) {
        const int v = ui_view_mode_from_name(opt->view);
        if (v < 0) {
            char names[96];
            ui_state_say(st, true, "--view: no view \"%s\"; expected %s or none", opt->view,
                         mha_view_names(names, sizeof names, ", "));
            return -1;
        }
        ui_state_set_view(st, (enum mha_view)v);
    }
    if (opt->focus) {
        if (st->view != MHA_VIEW_NONE) {
            ui_state_say(st, true, "--focus points at a cell of a stage, but the %s view is shown",
                         ui_view_mode_name(st->view));
            return -1;
        }
        struct lesson_focus f;
        struct mha_error err;
        mha_error_clear(&err);
        if (lesson_focus_resolve(opt->focus, st->stage, st->ex, &f, &err) != 0) {
            ui_state_say(st, true, "--%s", err.text); /* "focus: ..." */
            return -1;
        }
        st->focus_cell = ui_lesson_focus_cell(&f, st->stage, st->tr);
        st->focus_pending = true;
    }
    return 0;
}

int ui_run(struct mha_example *ex, const struct ui_options *opt)
{
    static const struct ui_options defaults = {0};
    if (!opt)
        opt = &defaults;
    setlocale(LC_CTYPE, "");
    struct ui_app *app = calloc(1, sizeof *app);
    if (!app) {
        mha_example_free(ex);
        trun_free(opt->train);
        fprintf(stderr, "mha-explorer: out of memory\n");
        return 1;
    }
    app->th.utf8 = locale_is_utf8();
    app->th.name = opt->theme > 0 && opt->theme < COLORSCALE_THEME_COUNT
                       ? (enum colorscale_theme)opt->theme
                       : COLORSCALE_THEME_DARK;
    struct mha_error err;
    mha_error_clear(&err);
    model_io_keep(true); /* every new sentence and view of a model file reads it again */
    if (opt->train && ui_train_open(app, opt->train, &ex, &err) != 0) {
        char buf[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
        fprintf(stderr, "mha-explorer: %s\n", mha_error_format(&err, buf, sizeof buf));
        free(app);
        return 2;
    }
    const char *source = opt->load_path ? base_name(opt->load_path) : "";
    if (ui_state_init(&app->st, ex, opt->load_path == NULL && !opt->train, source, &err)) {
        char buf[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
        fprintf(stderr, "mha-explorer: %s\n", mha_error_format(&err, buf, sizeof buf));
        trun_free(app->training.train);
        free(app);
        return 2;
    }
    if (app->training.train)
        ui_train_sync_example(app);
    if (opt->stage > 0 && opt->stage < MHA_STAGE_COUNT)
        app->st.stage = opt->stage;
    app->st.present = opt->present;
    app->mouse = !opt->no_mouse;
    app->training.save_path = opt->save;
    ui_state_set_load_path(&app->st, opt->load_path);
    app->autoplay.interval = opt->autoplay > 0.0 ? opt->autoplay : UI_AUTOPLAY_DEFAULT;
    app->autoplay.on = opt->autoplay > 0.0;
    app->stream.record = opt->record;
    app->stream.record_start_args = opt->record_start;
    snprintf(app->stream.record_name, sizeof app->stream.record_name, "%s",
             opt->record_name ? opt->record_name : "the recording");
    app->stream.record_started = opt->record_started;
    app->stream.record_ctx = opt->record_ctx;
    app->stream.record_error = opt->record_error;
    app->stream.follow = opt->follow;
    app->stream.follow_quiet = -1;
    app->stream.keys_from_tty = opt->keys_from_tty;
    app->stream.replay.rec = opt->replay;
    snprintf(app->stream.replay.name, sizeof app->stream.replay.name, "%s",
             opt->replay_name ? opt->replay_name : "the recording");
    app->stream.replay.speed = opt->speed > 0.0 ? opt->speed : 1.0;
    char ldir[4096], adir[4096], warning[600] = "";
    /* following or replaying, the lessons are the teacher's: the student's
     * progress is read only once they go their own way (ui_viewer_own) */
    const bool viewer = opt->follow || (opt->replay && opt->bench_frames <= 0);
    ui_lessons_init(&app->les,
                    opt->lessons_dir ? opt->lessons_dir : data_path("lessons", ldir, sizeof ldir),
                    opt->assets_dir ? opt->assets_dir : data_path("assets", adir, sizeof adir),
                    viewer ? NULL : warning, (int)sizeof warning);
    if (opt->lesson_walk) { /* a walk reads the lessons and keeps no progress */
        progress_free(app->les.progress);
        app->les.progress = NULL;
    }
    if (start(app, opt) != 0) {
        fprintf(stderr, "mha-explorer: %s\n", app->st.msg);
        ui_lessons_done(&app->les);
        ui_state_done(&app->st);
        trun_free(app->training.train);
        free(app);
        return 2;
    }
    if (warning[0])
        ui_state_say(&app->st, true, "%s", warning);
    app->stream.stream_note = opt->stream_note; /* said once the screen is up (ui_record_begin) */
    ui_train_lesson_sync(app);                  /* a lesson that opens on a step that trains */

    int frames = opt->bench_frames;
    const char *env = getenv("MHA_UI_BENCH_FRAMES");
    if (frames <= 0 && env && *env)
        frames = atoi(env);
    int status;
    if (opt->lesson_walk)
        status = walk(app, opt->bench_rows > 0 ? opt->bench_rows : 24,
                      opt->bench_cols > 0 ? opt->bench_cols : 80);
    else if (frames > 0)
        status = bench(app, frames, opt->bench_rows > 0 ? opt->bench_rows : 60,
                       opt->bench_cols > 0 ? opt->bench_cols : 200);
    else
        status = ui_app_interactive(app);
    if (frames <= 0 && status != UI_RUN_AGAIN && app->screen_up && !app->stream.follow)
        status = ui_train_save_on_leave(&app->training, status);
    ui_popup_close(&app->popup);
    ui_history_done(&app->hist);
    ui_history_done(&app->find_hist);
    ui_lessons_done(&app->les);
    ui_state_done(&app->st);
    trun_free(app->training.train);
    ui_train_corpus_free(&app->training);
    free(app);
    model_io_keep(false);
    return status;
}
