/* cli_train_screen.c - --train TASK|FILE on a terminal, and --compare: the
 * training screen's setup from the options, checked (every head count
 * built once, so a bad size is a message and exit status 2) before the
 * terminal is touched. */
#include "cli/cli_train_screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"

int cli_train_screen_setup(const struct cli_options *o, struct cli_train_screen *out)
{
    memset(out, 0, sizeof *out);
    struct trun_setup *s = &out->setup;
    const int n = o->n_compare ? o->n_compare : 1;
    for (int i = 0; i < n; i++) {
        struct cli_options one = *o;
        if (o->n_compare && o->compare_layers)
            one.layers = o->compare[i];
        else if (o->n_compare)
            one.heads = o->compare[i];
        struct mha_error err;
        mha_error_clear(&err);
        struct train_dataset *data = NULL;
        struct train_run *run = cli_train_build(&one, &data, &err);
        if (!run) {
            if (o->n_compare && strncmp(err.text, "--heads", 7) == 0)
                fprintf(stderr, "mha-explorer: --compare %d%s\n", o->compare[i], err.text + 7);
            else
                cli_report(&err);
            cli_train_screen_done(out);
            return CLI_EXIT_USAGE;
        }
        if (i == 0) {
            out->task = *run->task; /* a file's task points at data, kept below */
            s->task = &out->task;
            s->d_model = run->model->cfg.d_model;
            s->vocab = run->model->cfg.vocab;
            s->context = run->model->cfg.context;
            s->opt = run->opt;
            out->data = data;
            data = NULL;
        }
        s->heads[i] = run->model->cfg.heads;
        s->layers[i] = train_layers(&run->model->cfg);
        train_run_free(run);
        train_dataset_free(data);
    }
    s->n_heads = n;
    s->compare = o->n_compare > 0;
    s->compare_layers = o->compare_layers;
    return 0;
}

void cli_train_screen_done(struct cli_train_screen *ts)
{
    train_dataset_free(ts->data);
    ts->data = NULL;
}
