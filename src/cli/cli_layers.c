/* cli_layers.c - what --dump summary adds for a model of two or more
 * layers: every layer's heads, each labelled by what it measurably does
 * and knocked out alone (the accuracy left), and how much each later head
 * reads through each earlier one (Q, K and V composition,
 * train/train_layers.h). */
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "train/train.h"
#include "train/train_heads.h"
#include "train/train_layers.h"

/* The heads of every layer, as text or JSON lines. */
static void heads_out(FILE *f, const struct train_model *m, const struct train_layer_measures *lm,
                      bool json)
{
    const struct train_config *c = &m->cfg;
    const int L = train_layers(c), H = c->heads;
    /* the sequences the training screen's composition view measures on too */
    if (json)
        fprintf(f, "  \"layers_held_out\": {\"sequences\": %d},\n  \"layers_heads\": [", lm->size);
    else
        fprintf(f, "%-12s every layer's heads measured and knocked out on %d held-out sequences\n",
                "layers", lm->size);
    for (int l = 0; l < L; l++) {
        if (json)
            fprintf(f, "%s\n    [", l ? "," : "");
        for (int h = 0; h < H; h++) {
            const struct train_head_stats *st = &lm->stats[l][h];
            char label[64], name[24] = "";
            train_head_label(st, label, sizeof label);
            if (json) {
                fprintf(f,
                        "%s{\"label\": \"%s\", \"prev\": %.4f, \"induction\": %.4f, "
                        "\"knocked\": {",
                        h ? ", " : "", label, (double)st->prev, (double)st->induction);
            } else {
                if (!h)
                    snprintf(name, sizeof name, "layer %d", l);
                fprintf(f, "%-12s head %d  %-20s knocked out:", name, h,
                        label[0] ? label : "(no label)");
            }
            for (int k = 0; k < c->n_outputs; k++) {
                if (json) {
                    fprintf(f, "%s", k ? ", " : "");
                    cli_json_string(f, c->outputs[k].name);
                    fprintf(f, ": %.4f", (double)lm->knocked[l][h][k]);
                } else {
                    fprintf(f, " %s %.4f", c->outputs[k].name, (double)lm->knocked[l][h][k]);
                }
            }
            fprintf(f, json ? "}}" : "\n");
        }
        if (json)
            fprintf(f, "]");
    }
    if (json)
        fprintf(f, "\n  ],\n");
}

/* How much each later head reads through each earlier one.  0, or -1 + err. */
static int composition_out(FILE *f, const struct train_model *m, bool json, struct mha_error *err)
{
    const int L = train_layers(&m->cfg), H = m->cfg.heads;
    int rows = 0;
    if (json)
        fprintf(f, "  \"composition\": [");
    for (int l1 = 1; l1 < L; l1++)
        for (int h1 = 0; h1 < H; h1++)
            for (int l0 = 0; l0 < l1; l0++)
                for (int h0 = 0; h0 < H; h0++) {
                    float s[3];
                    if (train_composition(m, l0, h0, l1, h1, s, err))
                        return -1;
                    if (json)
                        fprintf(f,
                                "%s\n    {\"from\": [%d, %d], \"to\": [%d, %d], \"q\": %.4f, "
                                "\"k\": %.4f, \"v\": %.4f}",
                                rows ? "," : "", l0, h0, l1, h1, (double)s[0], (double)s[1],
                                (double)s[2]);
                    else
                        fprintf(f,
                                "%-12s layer %d head %d reads layer %d head %d:  Q %.2f  K %.2f  "
                                "V %.2f\n",
                                rows ? "" : "composition", l1, h1, l0, h0, (double)s[0],
                                (double)s[1], (double)s[2]);
                    rows++;
                }
    if (json)
        fprintf(f, "\n  ],\n");
    return 0;
}

int cli_layers_summary(FILE *f, struct train_run *run, int n_seq, bool json, struct mha_error *err)
{
    struct train_model *m = run->model;
    const int L = train_layers(&m->cfg);
    if (L < 2)
        return 0;
    struct train_layer_measures *lm = calloc(1, sizeof *lm);
    if (!lm)
        return mha_error_set(err, "out of memory");
    /* the first n_seq held-out sequences, as the training screen measures
     * them (trun_layers_measure): one knock-out, one number */
    struct train_batch few;
    train_batch_view(run->eval, 0, n_seq < run->eval->size ? n_seq : run->eval->size, &few);
    int rc = train_layers_measure(m, &few, n_seq, lm, err);
    if (rc == 0) {
        heads_out(f, m, lm, json);
        rc = composition_out(f, m, json, err);
    }
    free(lm);
    return rc;
}
