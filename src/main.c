/* main.c - the command line: parse the options (cli_options.c), build the
 * example, then print a stage (--dump), run a lesson tool (cli_lessons.c)
 * or open the explorer. */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_train_screen.h"
#include "io/colorscale.h"
#include "io/dump.h"
#include "io/export.h"
#include "io/format.h"
#include "lesson/lesson_state.h"
#include "mha_config.h"
#include "io/record.h"
#include "io/rec_stream.h"
#include "engine/text_check.h"
#if MHA_HAVE_UI
#include "ui/ui.h"
#endif

static const char *prog = "mha-explorer";

/* Print the stage straight to stdout: every check on the input is done
 * before the first byte, so a refusal leaves stdout untouched, and the
 * output is written as it goes (the largest json dump is 1.7 GB of text and
 * needs no copy of itself). */
static int run_dump(const struct cli_options *o, const struct mha_example *ex)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_trace *t = mha_run(ex, &err);
    if (!t) {
        cli_report(&err);
        return CLI_EXIT_USAGE;
    }
    int rc = 0;
    errno = 0;
    if (mha_format_write(stdout, ex, t, o->dump_stage, o->format, &err) != 0) {
        if (ferror(stdout)) {
            cli_output_error(errno);
            rc = EXIT_FAILURE;
        } else {
            cli_report(&err);
            rc = CLI_EXIT_USAGE;
        }
    } else if (fflush(stdout) != 0) {
        cli_output_error(errno);
        rc = EXIT_FAILURE;
    }
    mha_trace_free(t);
    return rc;
}

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
static int load_replay(const struct cli_options *o, struct recording *rec)
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

/* train: open on the training screen (ex may be NULL then); NULL: the stages. */
struct ui_train_setup;
static int run_explorer(const struct cli_options *o, struct mha_example *ex,
                        const struct recording *rec, const struct ui_train_setup *train,
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
    if (o->bench_frames <= 0 &&
        (!isatty(STDOUT_FILENO) || (!keys_from_tty && !isatty(STDIN_FILENO)))) {
        free(lesson_path);
        fprintf(stderr,
                "%s: the explorer needs a terminal, but standard %s is not one.\n"
                "%s\n",
                prog, isatty(STDIN_FILENO) ? "output" : "input",
                train ? "To train without a terminal add --dump summary, e.g.\n"
                        "  mha-explorer --train first-prev --dump summary"
                      : "To print stages without a terminal use --dump STAGE, e.g.\n"
                        "  mha-explorer --dump attention --format text");
        mha_example_free(ex);
        return CLI_EXIT_USAGE;
    }
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
                            .focus = o->focus,
                            .theme = o->theme ? colorscale_theme_from_name(o->theme) : 0,
                            .present = o->present,
                            .autoplay = o->autoplay,
                            .record = record.f,
                            .record_name = o->record,
                            .record_start = &start,
                            .record_started = record.f ? cli_record_started : NULL,
                            .record_ctx = &record,
                            .follow = follow,
                            .keys_from_tty = keys_from_tty,
                            .replay = o->replay && o->bench_frames <= 0 ? rec : NULL,
                            .replay_name = o->replay,
                            .speed = o->speed,
                            .train = train,
                            .no_mouse = o->no_mouse};
    rc = ui_run(ex, &uo);
    while (rc == UI_RUN_AGAIN) { /* a follower rejoins: from the teacher's start again */
        struct mha_error err;
        mha_error_clear(&err);
        ex = train ? NULL : cli_build_example(o, &err);
        if (!train && !ex) {
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
}

/* The followed stream, closed on every way out of main. */
static struct rec_follow *atexit_follow;
static void close_follow(void)
{
    if (atexit_follow)
        rec_follow_close(atexit_follow);
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    cli_check_stdout_at_exit();
    struct cli_options o;
    int rc = cli_parse(argc, argv, &o);
    if (rc != CLI_CONTINUE)
        return rc;
    if (o.check_lessons)
        return cli_check_lessons(o.check_files, o.n_check_files);
    if (o.list_lessons)
        return cli_list_lessons();
#if MHA_HAVE_UI
    cli_lesson_train_notes = cli_train_lesson_notes;
#endif
    if (o.print_lesson)
        return cli_print_lesson(o.print_lesson, o.format);
    if (o.reset_progress) {
        rc = cli_reset_progress(o.lesson);
        if (rc != 0 || !o.lesson)
            return rc;
        if (o.step == 0)
            o.step = 1; /* the lesson starts again */
    }

    if (o.grad)
        return cli_grad(&o);
    if (o.train && o.dump_stage == CLI_DUMP_SUMMARY)
        return cli_train_summary(&o);
    if (o.dump_stage == CLI_DUMP_CIRCUITS)
        return cli_dump_circuits(&o);

    /* a recording that carries its start opens the explorer as it was */
    struct recording rec;
    memset(&rec, 0, sizeof rec);
    /* and so does the teacher's, followed as it grows */
    struct rec_follow following, *follow = NULL;
    if (o.follow) {
        if ((rc = cli_follow_begin(argc, argv, &o, &following)) != CLI_CONTINUE)
            return rc;
        follow = &following;
        atexit_follow = follow;
        atexit(close_follow);
    }
    if (o.dump_stage == CLI_NO_DUMP && (rc = load_replay(&o, &rec)) != 0)
        return rc;
    if (o.dump_stage == CLI_NO_DUMP && o.replay &&
        (rc = cli_replay_options(argc, argv, o.replay, &rec, &o)) != CLI_CONTINUE) {
        rec_free(&rec);
        return rc;
    }
    if (o.train) {
#if MHA_HAVE_UI
        struct cli_train_screen ts;
        if ((rc = cli_train_screen_setup(&o, &ts)) != 0) {
            rec_free(&rec);
            return rc;
        }
        rc = run_explorer(&o, NULL, &rec, &ts.setup, follow);
        cli_train_screen_done(&ts);
        rec_free(&rec);
        return ui_exit(rc);
#else
        rec_free(&rec);
        fprintf(stderr,
                "%s: --train without --dump summary opens the training screen, which this "
                "build does not have; use --train %s --dump summary\n",
                prog, o.train);
        return CLI_EXIT_USAGE;
#endif
    }
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = cli_build_example(&o, &err);
    if (!ex) {
        cli_report(&err);
        if (o.dump_stage == CLI_NO_DUMP)
            rec_free(&rec);
        return CLI_EXIT_USAGE;
    }
    if (o.dump_stage != CLI_NO_DUMP) {
        rc = run_dump(&o, ex);
        mha_example_free(ex);
        return rc;
    }
    rc = run_explorer(&o, ex, &rec, NULL, follow);
    rec_free(&rec);
#if MHA_HAVE_UI
    return ui_exit(rc); /* ncurses' own memory too */
#else
    return rc;
#endif
}
