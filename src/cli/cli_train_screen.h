/* cli_train_screen.h - what main.c needs to open the training screen
 * (--train TASK|FILE on a terminal, --compare H,H...).  Built only with the
 * explorer. */
#ifndef MHA_CLI_TRAIN_SCREEN_H
#define MHA_CLI_TRAIN_SCREEN_H

#include "cli/cli.h"
#include "train/train.h"
#include "train/trun.h"

/* The setup and what it points to (a task file's task and rows). */
struct cli_train_screen {
    struct trun_setup setup;
    struct train_task task;
    struct train_dataset *data; /* owned; NULL for a built-in task */
};

/* Fill ts from the options: 0, or CLI_EXIT_USAGE with the reason on stderr
 * (an unknown task, a bad task file, a head count that does not divide
 * d_model, ...).  Release with cli_train_screen_done after the screen. */
int cli_train_screen_setup(const struct cli_options *o, struct cli_train_screen *ts);
void cli_train_screen_done(struct cli_train_screen *ts);

#endif
