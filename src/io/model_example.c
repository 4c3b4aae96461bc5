/* model_example.c - a trained model as an explorer example: the model
 * file read, a typed sentence cut into the model's words (a text model's
 * words, lower-cased when it was trained so, else labels between spaces),
 * every unknown word named as having no embedding (and, after known words,
 * with the words nearest in the model's embedding to what it expects there), the sentence run
 * through the model, and a language model's next words after its last
 * word. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_check.h"
#include "train/train.h"
#include "train/train_text.h"
#include "io/model_io.h"

/* Id of label in m's vocabulary, -1 when none. */
static int vocab_id(const struct train_model *m, const char *label)
{
    for (int i = 0; i < m->cfg.vocab; i++)
        if (!strcmp(m->vocab_names[i], label))
            return i;
    return -1;
}

/* '"zebra" has no embedding' appended to msg, and where words come before
 * it (ids[0..pos), all known), the known words nearest in m's embedding to
 * what m expects there: ', after "the" the model expects a word nearest
 * (cosine) "cat" .83, "dog" .80, "owl" .78'. */
static void unknown_word(struct train_model *m, const char *word, const int *ids, int pos,
                         char *msg, size_t n)
{
    char shown[160];
    size_t used = strlen(msg);
    used += (size_t)snprintf(msg + used, n - used, "%s\"%s\" has no embedding", used ? "; " : "",
                             mha_text_escape(word, shown, sizeof shown));
    int best[3];
    float cos[3];
    const int k = train_model_next_output(m);
    const int found =
        k >= 0 && pos > 0 ? train_slot_neighbours(m, k, ids, pos, 3, best, cos, NULL) : 0;
    if (found > 0 && used < n)
        used +=
            (size_t)snprintf(msg + used, n - used,
                             ", and after \"%s\" the model expects a word nearest (cosine in "
                             "its embedding)",
                             mha_text_escape(m->vocab_names[ids[pos - 1]], shown, sizeof shown));
    for (int i = 0; i < found && used < n; i++)
        used += (size_t)snprintf(msg + used, n - used, "%s \"%s\" %.2f", i ? "," : "",
                                 mha_text_escape(m->vocab_names[best[i]], shown, sizeof shown),
                                 (double)cos[i]);
}

/* The words of s as m reads them: a text model's words (lower-cased when it
 * was trained so), else labels between spaces; their ids into ids.  0, or
 * -1 + err naming every unknown word (unknown_word).  path is the model
 * file, or (sentence) the sentence file that names it. */
static int sentence_ids(struct train_model *m, const char *path, bool sentence, const char *what,
                        const char *s, int *ids, int *count, struct mha_error *err)
{
    if (strrchr(path, '/'))
        path = strrchr(path, '/') + 1; /* the file's name, not its folders */
    char model[300];
    snprintf(model, sizeof model, sentence ? "the model the sentence file %s names" : "%s", path);
    const size_t len = strlen(s);
    char bad[96];
    if (mha_text_find_unsafe(s, len, true, bad, sizeof bad) < len)
        return mha_error_set(err, "%s: the text holds %s", what, bad);
    char *buf = strdup(s);
    if (!buf)
        return mha_error_set(err, "out of memory");
    if (m->words == TRAIN_WORDS_LOWER)
        train_text_lower(buf, len);
    char unknown[700] = "";
    int n = 0, n_unknown = 0;
    size_t at = 0, start = 0, wlen = 0;
    for (;;) {
        if (m->words != TRAIN_WORDS_NONE) {
            if (!train_text_next_word(buf, len, &at, &start, &wlen))
                break;
        } else {
            at += strspn(buf + at, " \t\r\n");
            if (at >= len)
                break;
            start = at;
            wlen = strcspn(buf + at, " \t\r\n");
            at += wlen;
        }
        char word[TRAIN_LABEL_MAX * 4];
        snprintf(word, sizeof word, "%.*s", (int)(wlen < sizeof word ? wlen : sizeof word - 1),
                 buf + start);
        const int id = wlen < TRAIN_LABEL_MAX ? vocab_id(m, word) : -1;
        if (id < 0) {
            /* what it expects there only while every word before it is known */
            unknown_word(m, word, ids,
                         n_unknown               ? 0
                         : n < TRAIN_MAX_CONTEXT ? n
                                                 : 0,
                         unknown, sizeof unknown);
            n_unknown++;
        } else if (n < TRAIN_MAX_CONTEXT) {
            ids[n] = id;
        }
        n++;
    }
    free(buf);
    if (n_unknown)
        return mha_error_set(err, "%s: %s unknown to %s, which knows %d words: %s", what,
                             n_unknown == 1 ? "a word is" : "words are", model, m->cfg.vocab,
                             unknown);
    if (n == 0)
        return mha_error_set(err, "%s: give at least one word of the model's vocabulary", what);
    if (n > m->cfg.context)
        return mha_error_set(err, "%s: %d words; %s takes at most %d (its context)", what, n, model,
                             m->cfg.context);
    *count = n;
    return 0;
}

_Static_assert(TRAIN_MAX_LAYERS <= MHA_LENS_LAYERS, "an example keeps every layer's lens");

struct mha_example *model_io_example(const char *path, const char *tokens, float temperature,
                                     const char *what, struct mha_error *err)
{
    return model_io_example_layer(path, tokens, temperature, what, -1, err);
}

struct mha_example *model_io_example_layer(const char *path, const char *tokens, float temperature,
                                           const char *what, int layer, struct mha_error *err)
{
    return model_io_example_top_p(path, tokens, temperature, 1.0, what, layer, err);
}

struct mha_example *model_io_example_top_p(const char *path, const char *tokens, float temperature,
                                           double top_p, const char *what, int layer,
                                           struct mha_error *err)
{
    char words[MODEL_IO_WORDS_MAX];
    const int sentence = model_io_sentence_words(path, words, sizeof words, err);
    if (sentence < 0)
        return NULL;
    if (!tokens && sentence) /* a sentence file: its own words */
        tokens = words, what = "\"words\"";
    struct train_model *m = model_io_load_kept(path, 1, err);
    if (!m)
        return NULL;
    struct mha_example *ex = NULL;
    int ids[TRAIN_MAX_CONTEXT], n = 0;
    if (layer >= 0 && train_model_show_layer(m, layer, err)) {
        char text[MHA_ERROR_TEXT_MAX];
        snprintf(text, sizeof text, "%s", err->text);
        mha_error_set(err, "--layer: %s", text);
        goto done;
    }
    if (tokens && (sentence_ids(m, path, sentence > 0, what, tokens, ids, &n, err) ||
                   train_model_set_sample(m, ids, n, err)))
        goto done;
    if ((tokens || layer >= 0) && m->sample_len > 0 && train_model_sample_forward(m, err))
        goto done;
    ex = train_model_to_example(m, err);
    if (!ex) {
        mha_error_at(err, path, 0, 0);
        goto done;
    }
    const int k = train_model_next_output(m);
    if (k >= 0) {
        if (train_next_words(m, k, m->sample, m->sample_len, m->sample_len - 1, temperature,
                             MHA_NEXT_WORD_MAX, &ex->next_word, err) ||
            train_next_words_nucleus(m, k, m->sample, m->sample_len, m->sample_len - 1, temperature,
                                     top_p, &ex->next_word, err)) {
            mha_example_free(ex);
            ex = NULL;
            goto done;
        }
        ex->has_next_word = true;
        /* a model of layers: what each layer's residual stream would say */
        const int L = train_layers(&m->cfg);
        if (L >= 2 && L <= MHA_LENS_LAYERS) {
            if (train_logit_lens(m, k, m->sample, m->sample_len, m->sample_len - 1,
                                 MHA_NEXT_WORD_MAX, ex->lens, err)) {
                mha_example_free(ex);
                ex = NULL;
                goto done;
            }
            ex->lens_layers = L;
        }
    }
done:
    if (!ex && tokens == words && err && !err->file[0])
        mha_error_at(err, path, 0, 0); /* the sentence file's own words */
    train_model_free(m);
    return ex;
}

int model_io_sentence_ids(struct train_model *m, const char *path, const char *what,
                          const char *words, int *ids, int *count, struct mha_error *err)
{
    if (!path) /* a model in memory */
        return sentence_ids(m, "the model", false, what, words, ids, count, err);
    char own[MODEL_IO_WORDS_MAX];
    struct mha_error ignored;
    const bool sentence = model_io_sentence_words(path, own, sizeof own, &ignored) > 0;
    return sentence_ids(m, path, sentence, what, words, ids, count, err);
}
