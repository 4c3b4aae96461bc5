/* test_train_once.c - --train on a terminal builds each pane's model once:
 * from the options (cli_train_screen_setup, what main.c calls) to the
 * training screen drawn off screen (ui_run with frames, no terminal), the
 * models built, counted by train_models_built, are exactly those one run
 * of the same setup builds on its own (trun_new), and the screen builds
 * none of its own. */
#include <check.h>
#include <stdlib.h>

#include "cli/cli_train_screen.h"
#include "train/train.h"
#include "train/trun.h"
#include "ui/ui.h"
#include "check_run.h"

/* The models a run of s builds on its own. */
static long models_of_one_run(const struct trun_setup *s)
{
    struct mha_error err;
    mha_error_clear(&err);
    const long before = train_models_built();
    struct trun *t = trun_new(s, &err);
    ck_assert_msg(t != NULL, "%s", err.text);
    const long n = train_models_built() - before;
    trun_free(t);
    return n;
}

/* The command line args (after the program's name) from the options to a
 * few frames of the training screen. */
static void builds_once(char **args, int n_args, int panes)
{
    char prog[] = "mha-explorer";
    char *argv[16] = {prog};
    for (int i = 0; i < n_args; i++)
        argv[i + 1] = args[i];
    struct cli_options o;
    ck_assert_int_eq(cli_parse(n_args + 1, argv, &o), CLI_CONTINUE);

    const long before = train_models_built();
    struct cli_train_screen ts;
    ck_assert_int_eq(cli_train_screen_setup(&o, &ts), 0);
    const long by_setup = train_models_built() - before;
    ck_assert_int_eq(ts.setup.n_heads, panes);

    struct ui_options uo = {.train = ts.run, .bench_frames = 3};
    ts.run = NULL; /* ui_run takes it */
    const long before_screen = train_models_built();
    ck_assert_int_eq(ui_run(NULL, &uo), 0);
    const long by_screen = train_models_built() - before_screen;

    const long alone = models_of_one_run(&ts.setup);
    ck_assert_int_gt(alone, 0);
    ck_assert_int_eq(by_setup, alone);
    ck_assert_int_eq(by_screen, 0);
    cli_train_screen_done(&ts);
}

START_TEST(test_one_pane)
{
    char a0[] = "--train", a1[] = "first-prev";
    char *args[] = {a0, a1};
    builds_once(args, 2, 1);
}
END_TEST

START_TEST(test_panes_by_heads)
{
    char a0[] = "--train", a1[] = "majority", a2[] = "--compare", a3[] = "1,2,4";
    char *args[] = {a0, a1, a2, a3};
    builds_once(args, 4, 3);
}
END_TEST

START_TEST(test_panes_by_layers)
{
    char a0[] = "--train", a1[] = "induction", a2[] = "--compare", a3[] = "layers=1,2";
    char *args[] = {a0, a1, a2, a3};
    builds_once(args, 4, 2);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_once");
    TCase *t = tcase_create("screen");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_one_pane);
    tcase_add_test(t, test_panes_by_heads);
    tcase_add_test(t, test_panes_by_layers);
    suite_add_tcase(s, t);
    return check_run(s);
}
