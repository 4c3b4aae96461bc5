/* cli_train_screen.h - what main.c needs to open the training screen
 * (--train TASK|FILE on a terminal, --compare): its run, built once. */
#ifndef MHA_CLI_TRAIN_SCREEN_H
#define MHA_CLI_TRAIN_SCREEN_H

#include "cli/cli.h"
#include "train/train.h"
#include "train/trun.h"

/* The setup, what it points to (its task and a task file's rows) and the
 * run built from it. */
struct cli_train_screen {
    struct trun_setup setup;
    struct train_task task;
    struct train_dataset *data; /* owned; NULL for a built-in task */
    struct trun *run;           /* owned until the screen takes it (cli_run_explorer) */
};

/* Fill ts from the options and build its run, every pane's model once,
 * before the terminal is touched: 0, or CLI_EXIT_USAGE with the reason on
 * stderr (an unknown task, a bad task file, a head count that does not
 * divide d_model, ...).  ts must stay where it is while the run lives (the
 * run's task is ts->task).  Release with cli_train_screen_done after the
 * screen. */
int cli_train_screen_setup(const struct cli_options *o, struct cli_train_screen *ts);
void cli_train_screen_done(struct cli_train_screen *ts);
/* --layer L: every pane of run shows its layer L (the options were checked
 * to give one each has); 0, or -1 with err. */
int cli_train_screen_layer(const struct cli_options *o, struct trun *run, struct mha_error *err);

#endif
