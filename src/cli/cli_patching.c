/* cli_patching.c - --load MODEL --tokens CLEAN --corrupt CORRUPTED --dump
 * patching: activation patching (train/train_patch.h).  The clean run's
 * likeliest next word A and the corrupted run's B (or --answer A,B), the
 * logit difference A − B on each run, and for each layer and head the share
 * of it that comes back when that head's output in the corrupted run is the
 * clean run's.  Text, or JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/text_check.h"
#include "io/format.h"
#include "io/model_io.h"
#include "train/train.h"
#include "train/train_patch.h"
#include "train/train_text.h"

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Class id of one answer of --answer (a word of the vocabulary where the
 * output has a class per word, else a class number) into *id.  0, or -1 +
 * err. */
static int answer_id(struct train_model *m, const char *path, int k, const char *text, int *id,
                     struct mha_error *err)
{
    const int C = m->cfg.outputs[k].classes;
    if (C == m->cfg.vocab) {
        int ids[TRAIN_MAX_CONTEXT], n = 0;
        if (model_io_sentence_ids(m, path, "--answer", text, ids, &n, err))
            return -1;
        if (n != 1)
            return mha_error_set(err, "--answer: \"%s\" is %d words; each answer is one", text, n);
        *id = ids[0];
        return 0;
    }
    char *end;
    const long v = strtol(text, &end, 10);
    if (!text[0] || *end || v < 0 || v >= C)
        return mha_error_set(err,
                             "--answer: \"%s\" is not a class of output \"%s\": give a number "
                             "from 0 to %d",
                             text, m->cfg.outputs[k].name, C - 1);
    *id = (int)v;
    return 0;
}

/* --answer A,B into *a and *b (-1 each without --answer). */
static int answers(const struct cli_options *o, struct train_model *m, int k, int *a, int *b,
                   struct mha_error *err)
{
    *a = *b = -1;
    if (!o->answer)
        return 0;
    const char *comma = strchr(o->answer, ',');
    char first[MODEL_IO_WORDS_MAX];
    if (!comma || strchr(comma + 1, ',') || (size_t)(comma - o->answer) >= sizeof first)
        return mha_error_set(err, "--answer: give two answers, A,B (the clean one first)");
    snprintf(first, sizeof first, "%.*s", (int)(comma - o->answer), o->answer);
    if (answer_id(m, o->load, k, first, a, err) || answer_id(m, o->load, k, comma + 1, b, err))
        return -1;
    if (*a == *b)
        return mha_error_set(err, "--answer: A and B are the same answer; the measure is their "
                                  "logit difference");
    return 0;
}

static void class_name(const struct train_model *m, int k, int j, char *buf, size_t n)
{
    char shown[TRAIN_LABEL_MAX * 4];
    if (m->cfg.outputs[k].classes == m->cfg.vocab)
        snprintf(buf, n, "%s", mha_text_escape(m->vocab_names[j], shown, sizeof shown));
    else
        snprintf(buf, n, "%d", j);
}

static void words_text(FILE *f, const struct train_model *m, const int *ids, int n)
{
    char shown[TRAIN_LABEL_MAX * 4];
    for (int t = 0; t < n; t++)
        fprintf(f, "%s%s", t ? " " : "",
                mha_text_escape(m->vocab_names[ids[t]], shown, sizeof shown));
}

static void patching_text(FILE *f, const struct cli_options *o, const struct train_model *m,
                          const int *clean, const int *corrupt, int n,
                          const struct train_patching *p)
{
    char a[TRAIN_LABEL_MAX * 4], b[TRAIN_LABEL_MAX * 4], shown[TRAIN_LABEL_MAX * 4];
    class_name(m, p->k, p->a, a, sizeof a);
    class_name(m, p->k, p->b, b, sizeof b);
    fprintf(f, "patching     %s: output %s at the last token (position %d); A \"%s\", B \"%s\"%s\n",
            mha_text_escape(base_name(o->load), shown, sizeof shown), m->cfg.outputs[p->k].name,
            p->position, a, b, o->answer ? " (--answer)" : " (each run's likeliest)");
    fprintf(f, "clean        ");
    words_text(f, m, clean, n);
    fprintf(f, "\n             logit difference A - B: d_clean %.4f\n", p->d_clean);
    fprintf(f, "corrupted    ");
    words_text(f, m, corrupt, n);
    fprintf(f, "\n             logit difference A - B: d_corrupt %.4f\n", p->d_corrupt);
    if (!p->measurable)
        fprintf(f,
                "d_clean - d_corrupt is %.4f: too small to divide by (the two runs answer "
                "alike); --answer A,B compares two answers of your own\n",
                p->d_clean - p->d_corrupt);
    fprintf(f,
            "each head's output in the corrupted run made the clean run's:\n"
            "(d_patched - d_corrupt) / (d_clean - d_corrupt)%s\n",
            p->measurable ? "" : ", not computed; d_patched shown");
    for (int l = 0; l < train_layers(&m->cfg); l++) {
        fprintf(f, "  layer %d ", l);
        for (int h = 0; h < m->cfg.heads; h++) {
            if (p->measurable)
                fprintf(f, "  head %d %7.3f", h, p->score[l][h]);
            else
                fprintf(f, "  head %d d_patched %.4f", h, p->d_patched[l][h]);
        }
        fprintf(f, "\n");
    }
}

static void patching_json(FILE *f, const struct cli_options *o, const struct train_model *m,
                          const int *clean, const int *corrupt, int n,
                          const struct train_patching *p)
{
    char a[TRAIN_LABEL_MAX * 4], b[TRAIN_LABEL_MAX * 4];
    fprintf(f, "{\"patching\": {\"model\": ");
    cli_json_string(f, base_name(o->load));
    fprintf(f, ", \"output\": ");
    cli_json_string(f, m->cfg.outputs[p->k].name);
    fprintf(f, ", \"position\": %d,\n  \"clean\": [", p->position);
    for (int t = 0; t < n; t++) {
        fprintf(f, "%s", t ? ", " : "");
        cli_json_string(f, m->vocab_names[clean[t]]);
    }
    fprintf(f, "],\n  \"corrupt\": [");
    for (int t = 0; t < n; t++) {
        fprintf(f, "%s", t ? ", " : "");
        cli_json_string(f, m->vocab_names[corrupt[t]]);
    }
    snprintf(a, sizeof a, "%s",
             m->cfg.outputs[p->k].classes == m->cfg.vocab ? m->vocab_names[p->a] : "");
    snprintf(b, sizeof b, "%s",
             m->cfg.outputs[p->k].classes == m->cfg.vocab ? m->vocab_names[p->b] : "");
    fprintf(f, "],\n  \"answer\": [");
    if (a[0]) {
        cli_json_string(f, a);
        fprintf(f, ", ");
        cli_json_string(f, b);
    } else {
        fprintf(f, "%d, %d", p->a, p->b);
    }
    fprintf(f,
            "], \"answer_given\": %s,\n  \"d_clean\": %.9g, \"d_corrupt\": %.9g, "
            "\"measurable\": %s",
            o->answer ? "true" : "false", p->d_clean, p->d_corrupt,
            p->measurable ? "true" : "false");
    if (!p->measurable)
        fprintf(f, ", \"note\": \"d_clean - d_corrupt is too small to divide by: the runs "
                   "answer alike; --answer A,B compares two answers\"");
    fprintf(f, ",\n  \"heads\": [");
    for (int l = 0; l < train_layers(&m->cfg); l++)
        for (int h = 0; h < m->cfg.heads; h++) {
            fprintf(f, "%s\n    {\"layer\": %d, \"head\": %d, \"d_patched\": %.9g, \"score\": ",
                    l || h ? "," : "", l, h, p->d_patched[l][h]);
            if (p->measurable)
                fprintf(f, "%.9g}", p->score[l][h]);
            else
                fprintf(f, "null}");
        }
    fprintf(f, "\n]}}\n");
}

int cli_dump_patching(const struct cli_options *o)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = cli_load_model(o->load);
    if (!m)
        return CLI_EXIT_USAGE;
    int clean[TRAIN_MAX_CONTEXT], corrupt[TRAIN_MAX_CONTEXT], n = 0, nc = 0, a, b;
    int rc = CLI_EXIT_USAGE;
    struct train_patching *p = malloc(sizeof *p);
    const int next = train_model_next_output(m), k = next >= 0 ? next : 0;
    if (!p) {
        mha_error_set(&err, "out of memory");
        goto fail;
    }
    if (cli_model_words(o, m, clean, &n, &err) ||
        model_io_sentence_ids(m, o->load, "--corrupt", o->corrupt, corrupt, &nc, &err) ||
        answers(o, m, k, &a, &b, &err))
        goto fail;
    if (n == 0) {
        mha_error_set(&err, "--dump patching needs the clean run's words: give --tokens");
        goto fail;
    }
    if (nc != n) {
        mha_error_set(&err,
                      "--corrupt: %d word%s, and the clean run (%s) has %d: patching puts each "
                      "position of one run beside the same position of the other, so give as "
                      "many words",
                      nc, nc == 1 ? "" : "s", o->tokens ? "--tokens" : "the sentence file's", n);
        goto fail;
    }
    if (train_patch_heads(m, k, clean, corrupt, n, a, b, false, p, &err))
        goto fail;
    if (o->format == MHA_FORMAT_JSON)
        patching_json(stdout, o, m, clean, corrupt, n, p);
    else
        patching_text(stdout, o, m, clean, corrupt, n, p);
    rc = 0; /* a write that failed is found at exit (cli_exit.c) */
    goto done;
fail:
    cli_report(&err);
done:
    free(p);
    train_model_free(m);
    return rc;
}
