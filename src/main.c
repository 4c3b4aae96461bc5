/* main.c - the command line's dispatch: parse the options (cli/cli_options.c),
 * then run what they ask for: a lesson tool (cli_lessons.c), training
 * (cli_train.c), the circuits (cli_circuits.c), a stage printed (cli_dump.c)
 * or the explorer (cli_explorer.c). */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_train_screen.h"
#include "io/rec_stream.h"
#include "io/record.h"
#include "mha_config.h"
#if MHA_HAVE_UI
#include "ui/ui.h"
#endif

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
    if (o.export_torch)
        return cli_export_torch(&o);
    if (o.export_safetensors)
        return cli_export_safetensors(&o);
    if (o.generate)
        return cli_generate(&o);
    if (o.train && o.dump_stage == CLI_DUMP_SUMMARY)
        return cli_train_summary(&o);
    if (o.dump_stage == CLI_DUMP_CIRCUITS)
        return cli_dump_circuits(&o);
    if (o.dump_stage == CLI_DUMP_LENS)
        return cli_dump_lens(&o);
    if (o.dump_stage == CLI_DUMP_PATCHING)
        return cli_dump_patching(&o);

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
    if (o.dump_stage == CLI_NO_DUMP && (rc = cli_load_replay(&o, &rec)) != 0)
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
        rc = cli_run_explorer(&o, NULL, &rec, &ts, follow);
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
        rc = cli_dump(&o, ex);
        mha_example_free(ex);
        return rc;
    }
    rc = cli_run_explorer(&o, ex, &rec, NULL, follow);
    rec_free(&rec);
#if MHA_HAVE_UI
    return ui_exit(rc); /* ncurses' own memory too */
#else
    return rc;
#endif
}
