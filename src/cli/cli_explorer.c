/* cli_explorer.c - the interactive explorer opened from the command line:
 * its options checked before the terminal is touched, the recording to
 * replay read whole, the session recorded, and the explorer run (again,
 * when a follower rejoins the teacher).  Built with the program, which has
 * the explorer when ncursesw was found (MHA_HAVE_UI). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_train_screen.h"
#include "engine/text_check.h"
#include "io/colorscale.h"
#include "io/rec_stream.h"
#include "io/record.h"
#include "lesson/lesson_state.h"
#if MHA_HAVE_UI
#include "ui/ui.h"
#endif

static const char *prog = "mha-explorer";

/* --lesson, --step, --view and --focus checked before the terminal is
 * touched; *path gets the lesson's file (free it).  0, or an exit status. */
static int check_explorer_options(const struct cli_options *o, const struct mha_example *ex,
                                  char **path)
{
    *path = NULL;
    char shown[2048];
    if (o->view) {
        bool known = false;
        for (int v = MHA_VIEW_NONE; v < MHA_VIEW_COUNT; v++)
            known = known || !strcmp(o->view, mha_view_name((enum mha_view)v));
        if (!known) {
            char names[96];
            fprintf(stderr,
                    "%s: --view: unknown view '%s'; expected %s or none\n"
                    "Try '%s --help' for more information.\n",
                    prog, mha_text_escape(o->view, shown, sizeof shown),
                    mha_view_names(names, sizeof names, ", "), prog);
            return CLI_EXIT_USAGE;
        }
    }
    if (o->focus && !o->lesson) {
        struct lesson_focus f;
        struct mha_error err;
        mha_error_clear(&err);
        if (lesson_focus_resolve(o->focus, o->stage, ex, &f, &err) != 0) {
            fprintf(stderr, "%s: --%s\n", prog, /* "focus: ..." */
                    mha_text_escape(err.text, shown, sizeof shown));
            return CLI_EXIT_USAGE;
        }
    }
    if (!o->lesson)
        return 0;
    *path = cli_find_lesson(o->lesson);
    if (!*path)
        return CLI_EXIT_USAGE;
    const int rc = cli_check_lesson_file(*path, o->step);
    if (rc) {
        free(*path);
        *path = NULL;
    }
    return rc;
}

/* The recording to replay, read whole before anything is played: 0, or
 * CLI_EXIT_USAGE with file:line: what is wrong. */
int cli_load_replay(const struct cli_options *o, struct recording *rec)
{
    memset(rec, 0, sizeof *rec);
    if (!o->replay || o->bench_frames > 0)
        return 0;
    struct mha_error err;
    mha_error_clear(&err);
    if (rec_load(o->replay, rec, &err) != 0) {
        cli_report(&err);
        fprintf(stderr, "%s: nothing was replayed\n", prog);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

int cli_run_explorer(const struct cli_options *o, struct mha_example *ex,
                     const struct recording *rec, struct cli_train_screen *train,
                     struct rec_follow *follow)
{
    char *lesson_path = NULL;
    int rc = check_explorer_options(o, ex, &lesson_path);
    if (rc) {
        free(lesson_path);
        mha_example_free(ex);
        return rc;
    }
    /* --follow - reads the stream from standard input and keys from /dev/tty */
    const bool keys_from_tty = follow && !strcmp(o->follow, "-");
    char why[160];
    if (o->bench_frames <= 0 &&
        (!isatty(STDOUT_FILENO) || (!keys_from_tty && !isatty(STDIN_FILENO)))) {
        snprintf(why, sizeof why, "standard %s is not a terminal",
                 isatty(STDIN_FILENO) || keys_from_tty ? "output" : "input");
        goto no_terminal;
    }
#if MHA_HAVE_UI
    if (o->bench_frames <= 0 && !ui_terminal_usable(why, sizeof why))
        goto no_terminal;
#endif
    struct cli_record record = {0};
    struct rec_start start = {0};
    if (o->record && o->bench_frames <= 0 &&
        ((rc = cli_record_start_args(o, &start)) != 0 ||
         (rc = cli_record_open(o->record, o->force, &record)) != 0)) {
        free(lesson_path);
        rec_start_free(&start);
        mha_example_free(ex);
        return rc;
    }
#if MHA_HAVE_UI
    struct ui_options uo = {.stage = o->stage,
                            .load_path = o->load,
                            .bench_frames = o->bench_frames,
                            .lesson_path = lesson_path,
                            .lesson_step = o->step,
                            .view = o->view,
                            .top_p = o->top_p,
                            .corrupt = o->corrupt,
                            .focus = o->focus,
                            .theme = o->theme ? colorscale_theme_from_name(o->theme) : 0,
                            .present = o->present,
                            .autoplay = o->autoplay,
                            .record = record.f,
                            .record_name = o->record,
                            .record_start = &start,
                            .record_started = record.f ? cli_record_started : NULL,
                            .record_ctx = &record,
                            .record_error = &record.error,
                            .follow = follow,
                            .keys_from_tty = keys_from_tty,
                            .stream_note = o->stream_note[0] ? o->stream_note : NULL,
                            .replay = o->replay && o->bench_frames <= 0 ? rec : NULL,
                            .replay_name = o->replay,
                            .speed = o->speed,
                            .train = train ? train->run : NULL,
                            .save = train ? o->save : NULL,
                            .no_mouse = o->no_mouse};
    if (train)
        train->run = NULL; /* ui_run takes it */
    rc = ui_run(ex, &uo);
    while (rc == UI_RUN_AGAIN) { /* a follower rejoins: from the teacher's start again */
        if (follow)
            cli_follow_reopen(follow); /* a new recording at the path: that one */
        struct mha_error err;
        mha_error_clear(&err);
        ex = NULL;
        if (train) { /* the training screen from step 0 again, its models built anew */
            uo.train = trun_new(&train->setup, &err);
            if (uo.train && cli_train_screen_layer(o, uo.train, &err) != 0) {
                trun_free(uo.train);
                uo.train = NULL;
            }
        } else {
            ex = cli_build_example(o, &err);
        }
        if (train ? !uo.train : !ex) {
            cli_report(&err);
            rc = ui_exit(1);
            break;
        }
        rc = ui_run(ex, &uo);
    }
#else
    (void)train;
    fprintf(stderr,
            "%s: this build has no interactive explorer (ncursesw was not found); "
            "use --dump STAGE\n",
            prog);
    mha_example_free(ex);
    rc = CLI_EXIT_USAGE;
#endif
    rc = cli_record_finish(&record, o->record, rc);
    rec_start_free(&start);
    free(lesson_path);
    return rc;

no_terminal: /* one rule for every terminal the explorer cannot use */
    free(lesson_path);
    fprintf(stderr,
            "%s: the explorer cannot draw here: %s.\n"
            "%s"
            "A lesson prints as text with --print-lesson N, e.g.\n"
            "  mha-explorer --print-lesson 1\n",
            prog, why,
            train ? "To train without a screen add --dump summary, e.g.\n"
                    "  mha-explorer --train first-prev --dump summary\n"
                  : "To print stages without a screen use --dump STAGE, e.g.\n"
                    "  mha-explorer --dump attention --format text\n");
    mha_example_free(ex);
    return CLI_EXIT_USAGE;
}
