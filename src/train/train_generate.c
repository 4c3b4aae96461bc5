/* train_generate.c - what a language model says next: the probabilities of
 * every word after a position of a sentence, the likeliest few of them
 * (the output stage's table), and one word chosen to write, greedily or
 * drawn at a temperature from the k likeliest or the nucleus, and a line
 * written a word at a time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_text.h"

int train_model_next_output(const struct train_model *m)
{
    for (int k = 0; k < m->cfg.n_outputs; k++)
        if (!strcmp(m->cfg.outputs[k].name, "next") && m->cfg.outputs[k].classes == m->cfg.vocab)
            return k;
    return -1;
}

/* Output k's probabilities softmax((r·U_kᵀ + bias_k) / temperature) of
 * the residual row r (d_model floats), in double, into p. */
static void read_out(const struct train_model *m, int k, const float *r, float temperature,
                     double *p)
{
    /* pass 1: logits of output k from the residual r */
    const int C = m->cfg.outputs[k].classes, d = m->cfg.d_model;
    double max = -INFINITY, sum = 0.0;
    for (int j = 0; j < C; j++) {
        const float *u = m->p.unembed[k] + (size_t)j * (size_t)d;
        double z = m->p.bias[k][j];
        for (int i = 0; i < d; i++)
            z += (double)r[i] * (double)u[i];
        p[j] = z / (double)temperature;
        max = p[j] > max ? p[j] : max;
    }
    /* pass 2: softmax */
    for (int j = 0; j < C; j++) {
        p[j] = exp(p[j] - max);
        sum += p[j];
    }
    for (int j = 0; j < C; j++)
        p[j] /= sum;
}

/* tokens (len of them) forwarded through m as a batch of one sequence with
 * no target, for reading output k at pos.  0, or -1 + err. */
static int forward_one(struct train_model *m, int k, const int *tokens, int len, int pos,
                       struct mha_error *err)
{
    const struct train_config *c = &m->cfg;
    if (k < 0 || k >= c->n_outputs)
        return mha_error_set(err, "the model has no output %d", k);
    if (len < 1 || len > c->context || pos < 0 || pos >= len)
        return mha_error_set(err, "position %d of %d tokens: the model takes 1 to %d", pos, len,
                             c->context);
    /* a batch of one sequence on the stack: no target, only the forward pass */
    int tok[TRAIN_MAX_CONTEXT], none[TRAIN_MAX_CONTEXT];
    for (int t = 0; t < len; t++) {
        if (tokens[t] < 0 || tokens[t] >= c->vocab)
            return mha_error_set(err, "token %d: id %d is not in the vocabulary 0..%d", t,
                                 tokens[t], c->vocab - 1);
        tok[t] = tokens[t];
        none[t] = -1;
    }
    struct train_batch b = {.size = 1, .len = len, .n_outputs = c->n_outputs, .tokens = tok};
    for (int o = 0; o < c->n_outputs; o++)
        b.targets[o] = none;
    return train_forward(m, &b, err);
}

int train_next_probs(struct train_model *m, int k, const int *tokens, int len, int pos,
                     float temperature, double *p, struct mha_error *err)
{
    if (!(temperature > 0.0f) || !isfinite(temperature))
        return mha_error_set(err, "temperature %g: it must be above 0", (double)temperature);
    if (forward_one(m, k, tokens, len, pos, err))
        return -1;
    read_out(m, k, m->r + (size_t)pos * (size_t)m->cfg.d_model, temperature, p);
    return 0;
}

/* The n likeliest of the C probabilities p into pick, likeliest first, the
 * lower id on a tie; skip (or -1) is never picked.  Returns how many. */
static int likeliest(const double *p, int C, int n, int skip, int *pick)
{
    int got = 0;
    for (int i = 0; i < n; i++) {
        int best = -1;
        for (int j = 0; j < C; j++) {
            bool taken = j == skip;
            for (int q = 0; q < got && !taken; q++)
                taken = pick[q] == j;
            if (!taken && (best < 0 || p[j] > p[best]))
                best = j;
        }
        if (best < 0)
            break;
        pick[got++] = best;
    }
    return got;
}

int train_next_words(struct train_model *m, int k, const int *tokens, int len, int pos,
                     float temperature, int n, struct mha_next_word *out, struct mha_error *err)
{
    double p[TRAIN_MAX_VOCAB];
    if (train_next_probs(m, k, tokens, len, pos, temperature, p, err))
        return -1;
    const int C = m->cfg.outputs[k].classes;
    n = n > MHA_NEXT_WORD_MAX ? MHA_NEXT_WORD_MAX : n < 1 ? 1 : n;
    n = n > C ? C : n;
    int pick[MHA_NEXT_WORD_MAX];
    n = likeliest(p, C, n, -1, pick);
    memset(out, 0, sizeof *out);
    out->position = pos;
    out->n = n;
    out->temperature = temperature;
    for (int i = 0; i < n; i++) {
        snprintf(out->word[i], sizeof out->word[i], "%s", m->vocab_names[pick[i]]);
        out->p[i] = (float)p[pick[i]];
    }
    return 0;
}

int train_logit_lens(struct train_model *m, int k, const int *tokens, int len, int pos, int n,
                     struct mha_next_word *out, struct mha_error *err)
{
    if (forward_one(m, k, tokens, len, pos, err))
        return -1;
    const int C = m->cfg.outputs[k].classes;
    n = n > MHA_NEXT_WORD_MAX ? MHA_NEXT_WORD_MAX : n < 1 ? 1 : n;
    n = n > C ? C : n;
    for (int l = 0; l < train_layers(&m->cfg); l++) {
        double p[TRAIN_MAX_VOCAB];
        read_out(m, k, train_layer_residual(m, l) + (size_t)pos * (size_t)m->cfg.d_model, 1.0f, p);
        int pick[MHA_NEXT_WORD_MAX];
        struct mha_next_word *o = &out[l];
        memset(o, 0, sizeof *o);
        o->position = pos;
        o->n = likeliest(p, C, n, -1, pick);
        o->temperature = 1.0f;
        for (int i = 0; i < o->n; i++) {
            if (C == m->cfg.vocab)
                snprintf(o->word[i], sizeof o->word[i], "%s", m->vocab_names[pick[i]]);
            else
                snprintf(o->word[i], sizeof o->word[i], "%d", pick[i]);
            o->p[i] = (float)p[pick[i]];
        }
    }
    return 0;
}

/* A word and its probability, for sorting likeliest first (the lower id on
 * a tie). */
struct word_p {
    double p;
    int id;
};

static int likelier(const void *a, const void *b)
{
    const struct word_p *x = a, *y = b;
    return x->p > y->p ? -1 : x->p < y->p ? 1 : x->id - y->id;
}

int train_next_nucleus(const double *p, int C, int skip, int top_k, double top_p, int *pick)
{
    struct word_p w[TRAIN_MAX_VOCAB];
    int n = 0;
    for (int j = 0; j < C && j < TRAIN_MAX_VOCAB; j++)
        if (j != skip)
            w[n++] = (struct word_p){p[j], j};
    /* pass 1: likeliest first; the top_k of them when given */
    qsort(w, (size_t)n, sizeof *w, likelier);
    if (top_k > 0 && top_k < n)
        n = top_k;
    /* pass 2: the fewest of them whose share of the kept words' sum reaches top_p */
    double total = 0.0, sum = 0.0;
    for (int i = 0; i < n; i++)
        total += w[i].p;
    int kept = 0;
    while (kept < n) {
        sum += w[kept].p;
        pick[kept] = w[kept].id;
        kept++;
        if (sum >= top_p * total)
            break;
    }
    return kept;
}

int train_next_words_nucleus(struct train_model *m, int k, const int *tokens, int len, int pos,
                             float temperature, double top_p, struct mha_next_word *out,
                             struct mha_error *err)
{
    if (!(top_p > 0.0 && top_p <= 1.0))
        return mha_error_set(err, "top-p %g: it must be above 0 and at most 1", top_p);
    double p[TRAIN_MAX_VOCAB];
    if (train_next_probs(m, k, tokens, len, pos, temperature, p, err))
        return -1;
    const int C = m->cfg.outputs[k].classes;
    const int unk = !strcmp(m->vocab_names[0], TRAIN_TEXT_UNKNOWN) ? 0 : -1;
    int pick[TRAIN_MAX_VOCAB];
    const int n = train_next_nucleus(p, C, unk, 0, top_p, pick);
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += p[pick[i]];
    out->top_p = (float)top_p;
    out->nucleus = n;
    out->nucleus_p = (float)sum;
    return 0;
}

int train_next_pick(struct train_model *m, int k, const int *tokens, int len, float temperature,
                    int top_k, double top_p, struct rng *r, struct mha_error *err)
{
    if (!(temperature >= 0.0f) || !isfinite(temperature))
        return mha_error_set(err, "temperature %g: it must be 0 or above", (double)temperature);
    double p[TRAIN_MAX_VOCAB];
    if (train_next_probs(m, k, tokens, len, len - 1, temperature > 0.0f ? temperature : 1.0f, p,
                         err))
        return -1;
    const int C = m->cfg.outputs[k].classes;
    const int unk = !strcmp(m->vocab_names[0], TRAIN_TEXT_UNKNOWN) ? 0 : -1;
    int pick[TRAIN_MAX_VOCAB], n = 0;
    if (temperature > 0.0f && top_p < 1.0) {
        n = train_next_nucleus(p, C, unk, top_k, top_p, pick);
    } else if (temperature == 0.0f || (top_k > 0 && top_k < C)) {
        n = likeliest(p, C, temperature == 0.0f ? 1 : top_k, unk, pick);
    } else { /* every word but <unk>, in id order: no need to sort them */
        for (int j = 0; j < C; j++)
            if (j != unk)
                pick[n++] = j;
    }
    if (n < 1)
        return mha_error_set(err, "the model knows no word but %s", TRAIN_TEXT_UNKNOWN);
    if (temperature == 0.0f)
        return pick[0];
    /* draw among the n kept, in proportion to their probabilities */
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += p[pick[i]];
    double u = rng_next(r) * sum;
    for (int i = 0; i < n - 1; i++) {
        u -= p[pick[i]];
        if (u < 0.0)
            return pick[i];
    }
    return pick[n - 1];
}

int train_model_first_word(const struct train_model *m)
{
    const int unk = !strcmp(m->vocab_names[0], TRAIN_TEXT_UNKNOWN) ? 0 : -1;
    for (int t = 0; t < m->sample_len; t++)
        if (m->sample[t] != unk)
            return m->sample[t];
    return -1;
}

/* A word that ends a sentence: one or more of . ! ? and nothing else. */
static bool ends_sentence(const char *word)
{
    return word[0] && strspn(word, ".!?") == strlen(word);
}

int train_write_line(struct train_model *m, int k, int *ids, int n, float temperature, int top_k,
                     double top_p, struct rng *r, struct mha_error *err)
{
    bool ended = false;
    while (n < m->cfg.context && !ended) {
        const int id = train_next_pick(m, k, ids, n, temperature, top_k, top_p, r, err);
        if (id < 0)
            return -1;
        ids[n++] = id;
        ended = ends_sentence(m->vocab_names[id]);
    }
    return n;
}
