/* cli_generate.c - --generate N: a trained language model writes N lines,
 * a word at a time.  Each line starts from the same words (--tokens, a
 * sentence file's words, or the first word of the model's own sample), and
 * the model's choice after the last word is appended and the whole line run
 * again, until it writes a sentence's end mark or fills its context.  The
 * choice is the likeliest word at --temperature 0, else a word drawn from
 * softmax(logits / T) over the --top-k likeliest, with the generator seeded
 * by --seed (42 unless given), so the same command writes the same lines. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "engine/rng.h"
#include "engine/text_check.h"
#include "train/train.h"
#include "train/train_text.h"
#include "io/model_io.h"

/* The words a line starts from, as ids into ids (*n of them): --tokens, a
 * sentence file's words, or the first word of the model's sample, which
 * of them named into what (for a message).  0, or -1 + err. */
static int start_words(const struct cli_options *o, struct train_model *m, int *ids, int *n,
                       char *what, size_t what_size, struct mha_error *err)
{
    if (cli_model_words(o, m, ids, n, err))
        return -1;
    const char *file = strrchr(o->load, '/') ? strrchr(o->load, '/') + 1 : o->load;
    if (o->tokens)
        snprintf(what, what_size, "--tokens");
    else if (*n > 0)
        snprintf(what, what_size, "the \"words\" of %s", file);
    else
        snprintf(what, what_size, "the first word of %s's sample (not %s)", file,
                 TRAIN_TEXT_UNKNOWN);
    if (*n > 0)
        return 0;
    if ((ids[0] = train_model_first_word(m)) < 0)
        return mha_error_set(err,
                             "%s has no sample sentence to start from: give the first words "
                             "with --tokens",
                             o->load);
    *n = 1;
    return 0;
}

/* One line continued from ids[0..n) and printed.  0, or -1 + err. */
static int write_line(struct train_model *m, int k, const struct cli_options *o, struct rng *r,
                      const int *start, int n, struct mha_error *err)
{
    int ids[TRAIN_MAX_CONTEXT];
    memcpy(ids, start, (size_t)n * sizeof *ids);
    n = train_write_line(m, k, ids, n, (float)o->temperature, o->top_k, o->top_p, r, err);
    if (n < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        char shown[TRAIN_LABEL_MAX * 4];
        printf("%s%s", i ? " " : "", mha_text_escape(m->vocab_names[ids[i]], shown, sizeof shown));
    }
    putchar('\n');
    return 0;
}

int cli_generate(const struct cli_options *o)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = cli_load_model(o->load);
    if (!m)
        return CLI_EXIT_USAGE;
    int rc = CLI_EXIT_USAGE;
    const int k = train_model_next_output(m);
    int start[TRAIN_MAX_CONTEXT], n = 0;
    /* a language model is one trained on a text: a task's output may be
     * named "next" and span the vocabulary too (induction), and its words
     * would be letters drawn at random */
    if (k < 0 || m->words == TRAIN_WORDS_NONE) {
        char task[TRAIN_NAME_MAX + 48] = "";
        if (m->task[0])
            snprintf(task, sizeof task, " (it was trained on the task %s)", m->task);
        mha_error_set(&err,
                      "%s is not a language model%s: --generate writes with a model trained "
                      "on a text, e.g. --train sentences --save FILE or --train FILE.txt "
                      "--save FILE",
                      o->load, task);
        cli_report(&err);
        goto done;
    }
    if (o->top_k > m->cfg.vocab) {
        const char *name = strrchr(o->load, '/') ? strrchr(o->load, '/') + 1 : o->load;
        mha_error_set(&err,
                      "--top-k: %d is more words than %s knows (%d): give 1..%d, or leave "
                      "--top-k out to draw among them all",
                      o->top_k, name, m->cfg.vocab, m->cfg.vocab);
        cli_report(&err);
        goto done;
    }
    char what[MHA_ERROR_FILE_MAX + 32];
    if (start_words(o, m, start, &n, what, sizeof what, &err)) {
        cli_report(&err);
        goto done;
    }
    if (n >= m->cfg.context) {
        mha_error_set(&err,
                      "%s: %d word%s fill the model's context of %d: nothing is left to write",
                      what, n, n == 1 ? "" : "s", m->cfg.context);
        cli_report(&err);
        goto done;
    }
    const char *last = m->vocab_names[start[n - 1]];
    if (last[0] && strspn(last, ".!?") == strlen(last)) {
        char shown[TRAIN_LABEL_MAX * 4];
        mha_error_set(&err,
                      "%s: the words end a sentence (\"%s\"), where a line stops: nothing "
                      "is left to write; give the words before it",
                      what, mha_text_escape(last, shown, sizeof shown));
        cli_report(&err);
        goto done;
    }
    struct rng r;
    rng_init(&r, o->seed >= 0 ? (uint32_t)o->seed : 42u);
    rc = 0;
    errno = 0;
    for (int line = 0; line < o->generate && rc == 0; line++) {
        if (write_line(m, k, o, &r, start, n, &err)) {
            cli_report(&err);
            rc = CLI_EXIT_USAGE;
        } else if (ferror(stdout)) {
            cli_output_error(errno);
            rc = EXIT_FAILURE;
        }
    }
    if (rc == 0 && fflush(stdout) != 0) {
        cli_output_error(errno);
        rc = EXIT_FAILURE;
    }
done:
    train_model_free(m);
    return rc;
}
