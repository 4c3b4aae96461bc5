/* cli_lens.c - --load MODEL --dump lens: the logit lens.  The words of
 * --tokens (else a sentence file's, else the model's sample) run through
 * the model once, and the residual stream after each layer, at the last
 * word, read through the model's own read-out (train_logit_lens): what the
 * model would say next if it stopped after that layer.  Text, or JSON. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/text_check.h"
#include "io/format.h"
#include "train/train.h"
#include "train/train_text.h"

/* The words listed per layer. */
#define LENS_WORDS 5

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

static void lens_text(FILE *f, const struct cli_options *o, const struct train_model *m,
                      const int *ids, int n, const struct mha_next_word (*out)[TRAIN_MAX_LAYERS])
{
    const struct train_config *c = &m->cfg;
    const int L = train_layers(c);
    char shown[TRAIN_LABEL_MAX * 4];
    fprintf(f,
            "lens         %s: %d layer%s, the residual stream after each read through the "
            "read-out\n",
            mha_text_escape(base_name(o->load), shown, sizeof shown), L, L == 1 ? "" : "s");
    fprintf(f, "on          ");
    for (int t = 0; t < n; t++)
        fprintf(f, " %s", mha_text_escape(m->vocab_names[ids[t]], shown, sizeof shown));
    fprintf(f, "\nafter        \"%s\" (position %d)\n",
            mha_text_escape(m->vocab_names[ids[n - 1]], shown, sizeof shown), n - 1);
    for (int k = 0; k < c->n_outputs; k++) {
        fprintf(f, "output %s: the likeliest %s\n", c->outputs[k].name,
                c->outputs[k].classes == c->vocab ? "next words" : "classes");
        for (int l = 0; l < L; l++) {
            char name[32];
            snprintf(name, sizeof name, "layer %d", l);
            fprintf(f, "  %-10s", name);
            for (int i = 0; i < out[k][l].n; i++)
                fprintf(f, "%s %s %.4f", i ? "," : "",
                        mha_text_escape(out[k][l].word[i], shown, sizeof shown),
                        (double)out[k][l].p[i]);
            fprintf(f, "\n");
        }
    }
}

static void lens_json(FILE *f, const struct cli_options *o, const struct train_model *m,
                      const int *ids, int n, const struct mha_next_word (*out)[TRAIN_MAX_LAYERS])
{
    const struct train_config *c = &m->cfg;
    fprintf(f, "{\"lens\": {\"model\": ");
    cli_json_string(f, base_name(o->load));
    fprintf(f, ", \"layers\": %d, \"tokens\": [", train_layers(c));
    for (int t = 0; t < n; t++) {
        fprintf(f, "%s", t ? ", " : "");
        cli_json_string(f, m->vocab_names[ids[t]]);
    }
    fprintf(f, "], \"position\": %d, \"outputs\": [", n - 1);
    for (int k = 0; k < c->n_outputs; k++) {
        fprintf(f, "%s\n  {\"output\": ", k ? "," : "");
        cli_json_string(f, c->outputs[k].name);
        fprintf(f, ", \"by_layer\": [");
        for (int l = 0; l < train_layers(c); l++) {
            fprintf(f, "%s\n    {\"layer\": %d, \"name\": \"layer %d\", \"next\": [", l ? "," : "",
                    l, l);
            for (int i = 0; i < out[k][l].n; i++) {
                fprintf(f, "%s{\"word\": ", i ? ", " : "");
                cli_json_string(f, out[k][l].word[i]);
                fprintf(f, ", \"p\": %.9g}", (double)out[k][l].p[i]);
            }
            fprintf(f, "]}");
        }
        fprintf(f, "]}");
    }
    fprintf(f, "\n]}}\n");
}

int cli_dump_lens(const struct cli_options *o)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = cli_load_model(o->load);
    if (!m)
        return CLI_EXIT_USAGE;
    int ids[TRAIN_MAX_CONTEXT], n = 0, rc = CLI_EXIT_USAGE;
    static struct mha_next_word out[TRAIN_MAX_OUTPUTS][TRAIN_MAX_LAYERS];
    if (cli_model_words(o, m, ids, &n, &err))
        goto fail;
    if (n == 0) {
        n = m->sample_len;
        memcpy(ids, m->sample, sizeof(int) * (size_t)n);
    }
    for (int k = 0; k < m->cfg.n_outputs; k++)
        if (train_logit_lens(m, k, ids, n, n - 1, LENS_WORDS, out[k], &err))
            goto fail;
    if (o->format == MHA_FORMAT_JSON)
        lens_json(stdout, o, m, ids, n, (const struct mha_next_word(*)[TRAIN_MAX_LAYERS])out);
    else
        lens_text(stdout, o, m, ids, n, (const struct mha_next_word(*)[TRAIN_MAX_LAYERS])out);
    rc = 0; /* a write that failed is found at exit (cli_exit.c) */
    goto done;
fail:
    cli_report(&err);
done:
    train_model_free(m);
    return rc;
}
