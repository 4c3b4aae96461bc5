/* cli_train_screen.c - --train TASK|FILE on a terminal, and --compare: the
 * training screen's setup from the options, checked, and its run built
 * from it (every pane's model once), before the terminal is touched, so
 * that a bad size is a message and exit status 2. */
#include "cli/cli_train_screen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"

int cli_train_screen_layer(const struct cli_options *o, struct trun *run, struct mha_error *err)
{
    /* --layer L: every pane shows its layer L (cli_options checked each has one) */
    return o->layer >= 0 ? trun_show_layers(run, o->layer, err) : 0;
}

int cli_train_screen_setup(const struct cli_options *o, struct cli_train_screen *out)
{
    memset(out, 0, sizeof *out);
    struct trun_setup *s = &out->setup;
    const int n = o->n_compare ? o->n_compare : 1;
    struct mha_error err;
    mha_error_clear(&err);
    for (int i = 0; i < n; i++) {
        struct cli_options one = *o;
        if (o->n_compare && o->compare_variants)
            one.variant = o->compare_variant[i];
        else if (o->n_compare && o->compare_layers)
            one.layers = o->compare[i];
        else if (o->n_compare)
            one.heads = o->compare[i];
        struct train_dataset *data = NULL;
        struct cli_train_plan p;
        if (cli_train_plan(&one, &p, &data, &err) != 0) {
            /* a head count --compare gave is named as its; layers=... keeps --heads */
            if (o->n_compare && !o->compare_layers && !o->compare_variants &&
                strncmp(err.text, "--heads", 7) == 0)
                fprintf(stderr, "mha-explorer: --compare %d%s\n", o->compare[i], err.text + 7);
            else
                cli_report(&err);
            cli_train_screen_done(out);
            return CLI_EXIT_USAGE;
        }
        if (i == 0) {
            out->task = *p.task; /* a file's task points at data, kept below */
            s->task = &out->task;
            s->d_model = p.d_model;
            s->vocab = p.vocab;
            s->context = p.context;
            s->opt = p.opt;
            out->data = data;
            data = NULL;
        }
        s->heads[i] = p.heads;
        s->layers[i] = p.opt.layers > 1 ? p.opt.layers : 1;
        s->variants[i] = p.opt.variant;
        train_dataset_free(data);
    }
    s->n_heads = n;
    s->compare = o->n_compare > 0;
    s->compare_layers = o->compare_layers;
    s->compare_variants = o->compare_variants;
    if (!(out->run = trun_new(s, &err)) || cli_train_screen_layer(o, out->run, &err) != 0) {
        cli_report(&err);
        cli_train_screen_done(out);
        return CLI_EXIT_USAGE;
    }
    return 0;
}

void cli_train_screen_done(struct cli_train_screen *ts)
{
    trun_free(ts->run); /* before the rows its task points at */
    ts->run = NULL;
    train_dataset_free(ts->data);
    ts->data = NULL;
}
