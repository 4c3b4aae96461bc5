/* cli_text.c - text on the command line: --train NAME (a bundled corpus)
 * or FILE.txt read as text, and what --dump summary adds for a text model
 * (the held-out loss per word, perplexity, top-1 and top-3 accuracy, the
 * words and lines, each job's accuracy, each head knocked out).  A
 * sentence for a trained model is io/model_example.c's. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "cli/cli.h"
#include "engine/text_check.h"
#include "train/train.h"
#include "train/train_text.h"
#include "io/model_io.h"
#include "io/text_io.h"

/* The corpora under assets/corpus/, by name. */
static const char *const corpora[] = {"sentences", "names"};
#define N_CORPORA ((int)(sizeof corpora / sizeof corpora[0]))

const char *cli_text_corpus_names(char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < N_CORPORA && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", corpora[i]);
    return buf;
}

/* The file of corpus name (newly allocated), or NULL when name is none. */
static char *corpus_path(const char *name)
{
    for (int i = 0; i < N_CORPORA; i++) {
        if (strcmp(name, corpora[i]) != 0)
            continue;
        char *assets = cli_assets_dir();
        const size_t n = strlen(assets) + strlen(name) + 32;
        char *path = assets ? malloc(n) : NULL;
        if (path)
            snprintf(path, n, "%s/corpus/%s.txt", assets, name);
        free(assets);
        return path;
    }
    return NULL;
}

struct train_dataset *cli_text_dataset(const struct cli_options *o, bool *is_text,
                                       struct mha_error *err)
{
    char *path = corpus_path(o->train);
    struct stat st;
    *is_text = path != NULL ||
               ((stat(o->train, &st) != 0 || !S_ISDIR(st.st_mode)) && text_io_is_text(o->train));
    if (!*is_text)
        return NULL;
    const struct train_text_options to = {
        .vocab = o->vocab ? o->vocab : TRAIN_TEXT_DEFAULT_VOCAB,
        .context = o->context ? o->context : TRAIN_TEXT_DEFAULT_CONTEXT,
        .keep_case = o->keep_case,
    };
    struct train_dataset *d = NULL;
    if (to.context < 2)
        mha_error_set(err,
                      "--context %d: a text needs rows of 2 words or more (a word and the "
                      "next)",
                      to.context);
    else
        d = text_io_load(path ? path : o->train, &to, err);
    free(path);
    return d;
}

/* ---- the summary ---- */

int cli_text_measure(struct train_run *run, struct train_text_eval *ev)
{
    return train_text_evaluate(run, ev, NULL);
}

/* Each head knocked out alone into k (heads entries) and the jobs it does
 * into does; false when it cannot be measured. */
static bool knock_each(const struct train_run *run, const struct train_text_eval *ev,
                       struct train_text_eval *k, unsigned *does)
{
    return train_text_head_jobs((struct train_run *)run, ev, k, does, NULL) == 0;
}

static void knocked_json(FILE *f, const struct train_run *run, const struct train_text_eval *ev)
{
    static struct train_text_eval k[TRAIN_MAX_D_MODEL];
    static unsigned does[TRAIN_MAX_D_MODEL];
    const struct train_text *t = run->task->data->text;
    if (!knock_each(run, ev, k, does))
        return;
    fprintf(f, "  \"knocked_out\": [");
    for (int h = 0; h < run->model->cfg.heads; h++) {
        fprintf(f, "%s\n    {\"head\": %d, \"next\": %.4f", h ? "," : "", h, (double)k[h].top1);
        if (ev->n_jobs) {
            fprintf(f, ", \"jobs\": {");
            for (int j = 0; j < ev->n_jobs; j++) {
                fprintf(f, "%s", j ? ", " : "");
                cli_json_string(f, t->job_names[j]);
                fprintf(f, ": %.4f", (double)k[h].job_top1[j]);
            }
            fprintf(f, "}, \"does\": [");
            for (int j = 0, n = 0; j < ev->n_jobs; j++)
                if (does[h] & (1u << j)) {
                    fprintf(f, "%s", n++ ? ", " : "");
                    cli_json_string(f, t->job_names[j]);
                }
            fprintf(f, "]");
        }
        fprintf(f, "}");
    }
    fprintf(f, "\n  ],\n");
}

static void knocked_text(FILE *f, const struct train_run *run, const struct train_text_eval *ev)
{
    static struct train_text_eval k[TRAIN_MAX_D_MODEL];
    static unsigned does[TRAIN_MAX_D_MODEL];
    const struct train_text *t = run->task->data->text;
    if (!knock_each(run, ev, k, does))
        return;
    for (int h = 0; h < run->model->cfg.heads; h++) {
        fprintf(f, "knocked out  head %d: next %.4f", h, (double)k[h].top1);
        for (int j = 0; j < ev->n_jobs; j++)
            fprintf(f, "%s %s %.4f", j ? "," : ";", t->job_names[j], (double)k[h].job_top1[j]);
        int n = 0;
        for (int j = 0; j < ev->n_jobs; j++)
            if (does[h] & (1u << j))
                fprintf(f, "%s%s", n++ ? ", " : " (does: ", t->job_names[j]);
        fprintf(f, "%s\n", n ? ")" : "");
    }
}

void cli_text_summary_json(FILE *f, const struct train_run *run, const struct train_text_eval *ev)
{
    const struct train_dataset *d = run->task->data;
    const struct train_text *t = d->text;
    fprintf(f, "  \"loss\": %.6f,\n  \"perplexity\": %.4f,\n", ev->loss, ev->perplexity);
    fprintf(f, "  \"accuracy\": {\"next\": %.4f, \"next_top3\": %.4f},\n", (double)ev->top1,
            (double)ev->top3);
    fprintf(f,
            "  \"held_out\": {\"lines\": %d, \"rows\": %d, \"words\": %ld, \"source\": "
            "\"text lines\", \"dropped_rows\": %d},\n",
            t->held_lines, d->n_held, ev->words, t->dropped_rows);
    fprintf(f, "  \"text\": {\"file\": ");
    cli_json_string(f, t->file);
    fprintf(f,
            ", \"lines\": %d, \"lines_used\": %d, \"different_lines\": %d, \"words\": %ld, "
            "\"different_words\": %ld, \"unknown\": %ld, \"unknown_different\": %ld, "
            "\"split_lines\": %d, \"lowercase\": %s},\n",
            t->lines, t->used_lines, t->different_lines, t->words, t->distinct, t->unknown,
            t->unknown_kinds, t->split_lines, t->lowercase ? "true" : "false");
    if (!ev->n_jobs) {
        knocked_json(f, run, ev);
        return;
    }
    fprintf(f, "  \"jobs\": {");
    for (int j = 0; j < ev->n_jobs; j++) {
        fprintf(f, "%s\n    ", j ? "," : "");
        cli_json_string(f, t->job_names[j]);
        fprintf(f, ": {\"next\": %.4f, \"next_top3\": %.4f, \"words\": %ld}",
                (double)ev->job_top1[j], (double)ev->job_top3[j], ev->job_words[j]);
    }
    fprintf(f, "\n  },\n");
    knocked_json(f, run, ev);
}

void cli_text_summary_text(FILE *f, const struct train_run *run, const struct train_text_eval *ev)
{
    const struct train_dataset *d = run->task->data;
    const struct train_text *t = d->text;
    fprintf(f, "loss         %.6f per word (held out)\nperplexity   %.4f\n", ev->loss,
            ev->perplexity);
    fprintf(f,
            "accuracy     next     %.4f (top 3: %.4f) on %ld words of %d held-out different "
            "line%s\n",
            (double)ev->top1, (double)ev->top3, ev->words, t->held_lines,
            t->held_lines == 1 ? "" : "s");
    for (int j = 0; j < ev->n_jobs; j++)
        fprintf(f, "job          %-8s %.4f (top 3: %.4f) on %ld words\n", t->job_names[j],
                (double)ev->job_top1[j], (double)ev->job_top3[j], ev->job_words[j]);
    fprintf(f,
            "text         %s: %d lines (%d with a word to predict, %d different), %ld words, "
            "%ld different%s\n",
            t->file, t->lines, t->used_lines, t->different_lines, t->words, t->distinct,
            t->lowercase ? ", lower-cased" : "");
    fprintf(f,
            "held out     %d of %d different lines, one copy each; %d row%s left out of "
            "training for repeating a held-out row\n",
            t->held_lines, t->different_lines, t->dropped_rows, t->dropped_rows == 1 ? "" : "s");
    fprintf(f, "unknown      %ld word%s read as <unk> (%ld different)\n", t->unknown,
            t->unknown == 1 ? "" : "s", t->unknown_kinds);
    if (t->split_lines)
        fprintf(f, "split        %d line%s longer than %d words cut into rows of %d\n",
                t->split_lines, t->split_lines == 1 ? "" : "s", t->context, t->context);
    knocked_text(f, run, ev);
}
