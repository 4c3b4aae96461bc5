/* train_heads.c - a head's job read off its attention weights: sums over
 * the rows of many sequences, then the label the means support. */
#include "engine/train_heads.h"

#include <math.h>
#include <string.h>

/* Running sums of one head over the rows of many sequences. */
struct head_sums {
    double first, prev, self, copy, even;
    long place_rows, copy_rows, even_rows;
};

static void add_sequence(struct head_sums *s, const float *w, const int *tok, int len, bool causal)
{
    for (int t = 1; t < len; t++) {
        const float *row = w + (size_t)t * (size_t)len;
        const int seen = causal ? t + 1 : len; /* positions the row may see */
        double ent = 0.0, copy = 0.0;
        bool has_copy = false;
        for (int j = 0; j < seen; j++) {
            const double p = row[j];
            if (p > 0.0)
                ent -= p * log(p);
            if (j < t && tok[j] == tok[t]) {
                copy += p;
                has_copy = true;
            }
        }
        s->even += ent / log((double)seen);
        s->even_rows++;
        if (has_copy) {
            s->copy += copy;
            s->copy_rows++;
        }
        if (t >= 2) {
            s->first += row[0];
            s->prev += row[t - 1];
            s->self += row[t];
            s->place_rows++;
        }
    }
}

static void finish(const struct head_sums *s, struct train_head_stats *out)
{
    memset(out, 0, sizeof *out);
    if (s->place_rows) {
        out->first = (float)(s->first / (double)s->place_rows);
        out->prev = (float)(s->prev / (double)s->place_rows);
        out->self = (float)(s->self / (double)s->place_rows);
    }
    if (s->copy_rows)
        out->copy = (float)(s->copy / (double)s->copy_rows);
    out->copy_rows = s->copy_rows;
    if (s->even_rows)
        out->even = (float)(s->even / (double)s->even_rows);
    out->kind = TRAIN_HEAD_NONE;
    if (s->copy_rows && out->copy >= TRAIN_HEADS_COPY_MIN) {
        out->kind = TRAIN_HEAD_COPY;
        out->share = out->copy;
        return;
    }
    if (s->place_rows) {
        enum train_head_kind k = TRAIN_HEAD_FIRST;
        float best = out->first;
        if (out->prev > best)
            k = TRAIN_HEAD_PREV, best = out->prev;
        if (out->self > best)
            k = TRAIN_HEAD_SELF, best = out->self;
        if (best >= TRAIN_HEADS_PLACE_MIN) {
            out->kind = k;
            out->share = best;
            return;
        }
    }
    if (s->even_rows && out->even >= TRAIN_HEADS_EVEN_MIN) {
        out->kind = TRAIN_HEAD_EVEN;
        out->share = out->even;
    }
}

void train_head_stats_of(const float *w, const int *tokens, int len, bool causal,
                         struct train_head_stats *out)
{
    struct head_sums s = {0};
    add_sequence(&s, w, tokens, len, causal);
    finish(&s, out);
}

int train_heads_measure(const struct train_model *m, const int *tokens, int n_seq, int len,
                        struct train_head_stats *out, struct mha_error *err)
{
    const int d = m->cfg.d_model, H = m->cfg.heads;
    if (n_seq < 1 || len < 1 || len > m->cfg.context)
        return mha_error_set(err, "%d sequences of %d tokens cannot be measured on this model",
                             n_seq, len);
    for (long i = 0; i < (long)n_seq * len; i++)
        if (tokens[i] < 0 || tokens[i] >= m->cfg.vocab)
            return mha_error_set(err, "token id %d is outside the vocabulary of %d", tokens[i],
                                 m->cfg.vocab);
    struct mha_example *ex = mha_example_new(len, len, d, H, false, err);
    struct mha_trace *tr = ex ? mha_trace_new(ex, err) : NULL;
    if (!tr) {
        mha_example_free(ex);
        return -1;
    }
    memcpy(ex->w_q, m->p.attn.w_q, mha_params_count(d) * sizeof(float));
    ex->causal = m->cfg.causal;
    ex->scaled = m->cfg.scaled;
    ex->has_bias = m->cfg.has_bias;
    struct head_sums sums[TRAIN_MAX_D_MODEL];
    memset(sums, 0, (size_t)H * sizeof sums[0]);
    int rc = 0;
    for (int s = 0; s < n_seq && rc == 0; s++) {
        const int *tok = tokens + (size_t)s * (size_t)len;
        for (int t = 0; t < len; t++)
            for (int i = 0; i < d; i++)
                ex->query[(size_t)t * d + i] =
                    m->p.embedding[(size_t)tok[t] * d + i] + m->p.positions[(size_t)t * d + i];
        memcpy(ex->key, ex->query, (size_t)len * d * sizeof(float));
        memcpy(ex->value, ex->query, (size_t)len * d * sizeof(float));
        rc = mha_forward(ex, tr, err);
        for (int h = 0; h < H && rc == 0; h++)
            add_sequence(&sums[h], tr->weights + (size_t)h * len * len, tok, len, m->cfg.causal);
    }
    for (int h = 0; h < H && rc == 0; h++)
        finish(&sums[h], &out[h]);
    mha_trace_free(tr);
    mha_example_free(ex);
    return rc;
}

const char *train_head_kind_name(enum train_head_kind k)
{
    static const char *const names[] = {"",       "first token",  "previous token",
                                        "itself", "earlier copy", "even spread"};
    return k >= TRAIN_HEAD_NONE && k <= TRAIN_HEAD_EVEN ? names[k] : "";
}

const char *train_head_kind_short(enum train_head_kind k)
{
    static const char *const names[] = {"", "first", "prev", "self", "copy", "even"};
    return k >= TRAIN_HEAD_NONE && k <= TRAIN_HEAD_EVEN ? names[k] : "";
}
