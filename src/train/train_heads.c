/* train_heads.c - a head's job read off its attention weights: sums over
 * the rows of many sequences where the task asks something, then the label
 * the means support; and the head knocked out, to see what it did. */
#include "train/train_heads.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Running sums of one head over the rows of many sequences. */
struct head_sums {
    double first, prev, self, copy, even, induction;
    long place_rows, copy_rows, even_rows, rows, induction_rows;
};

static void add_sequence(struct head_sums *s, const float *w, const int *tok,
                         const bool *has_target, int len, bool causal)
{
    for (int t = 1; t < len; t++) {
        if (has_target && !has_target[t])
            continue; /* the task asks nothing here */
        const float *row = w + (size_t)t * (size_t)len;
        const int seen = causal ? t + 1 : len; /* positions the row may see */
        double ent = 0.0, copy = 0.0, after = 0.0;
        bool has_copy = false, has_after = false;
        for (int j = 0; j < seen; j++) {
            const double p = row[j];
            if (p > 0.0)
                ent -= p * log(p);
            if (j < t && tok[j] == tok[t]) {
                copy += p;
                has_copy = true;
            }
            if (j >= 1 && j < t && tok[j - 1] == tok[t]) {
                after += p;
                has_after = true;
            }
        }
        if (has_after) {
            s->induction += after;
            s->induction_rows++;
        }
        s->rows++;
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

struct place {
    enum train_head_kind kind;
    float share;
};

/* The means of s into out, and the label they support; induction: the
 * place after an earlier copy may be one (a head above the first layer). */
static void finish(const struct head_sums *s, bool induction, struct train_head_stats *out)
{
    memset(out, 0, sizeof *out);
    struct place c[5];
    int n = 0;
    if (s->place_rows) {
        out->first = (float)(s->first / (double)s->place_rows);
        out->prev = (float)(s->prev / (double)s->place_rows);
        out->self = (float)(s->self / (double)s->place_rows);
        c[n++] = (struct place){TRAIN_HEAD_FIRST, out->first};
        c[n++] = (struct place){TRAIN_HEAD_PREV, out->prev};
        c[n++] = (struct place){TRAIN_HEAD_SELF, out->self};
    }
    out->place_rows = s->place_rows;
    if (s->copy_rows)
        out->copy = (float)(s->copy / (double)s->copy_rows);
    out->copy_rows = s->copy_rows;
    if (s->copy_rows && 2 * s->copy_rows >= s->rows) /* a copy is there to find */
        c[n++] = (struct place){TRAIN_HEAD_COPY, out->copy};
    if (s->induction_rows)
        out->induction = (float)(s->induction / (double)s->induction_rows);
    out->induction_rows = s->induction_rows;
    if (induction && s->induction_rows && 2 * s->induction_rows >= s->rows)
        c[n++] = (struct place){TRAIN_HEAD_INDUCTION, out->induction};
    if (s->even_rows)
        out->even = (float)(s->even / (double)s->even_rows);
    /* the two places with the most weight */
    for (int i = 0; i < n; i++)
        for (int j = i + 1; j < n; j++)
            if (c[j].share > c[i].share) {
                const struct place tmp = c[i];
                c[i] = c[j];
                c[j] = tmp;
            }
    out->kind = out->kind2 = TRAIN_HEAD_NONE;
    const float second = n > 1 ? c[1].share : 0.0f;
    if (n > 0 && c[0].share >= TRAIN_HEADS_PLACE_MIN && second < TRAIN_HEADS_SPLIT_MIN) {
        out->kind = c[0].kind;
        out->share = c[0].share;
    } else if (s->even_rows && out->even >= TRAIN_HEADS_EVEN_MIN) {
        out->kind = TRAIN_HEAD_EVEN; /* an even spread is no split (a split is far from even) */
        out->share = out->even;
    } else if (n > 1 && second >= TRAIN_HEADS_SPLIT_MIN &&
               c[0].share + second >= TRAIN_HEADS_PLACE_MIN) {
        out->kind = c[0].kind;
        out->share = c[0].share;
        out->kind2 = c[1].kind;
        out->share2 = second;
    }
}

void train_head_stats_of(const float *w, const int *tokens, const bool *has_target, int len,
                         bool causal, struct train_head_stats *out)
{
    struct head_sums s = {0};
    add_sequence(&s, w, tokens, has_target, len, causal);
    finish(&s, false, out);
}

/* Which rows of sequence s of b have a target for any output. */
static void target_rows(const struct train_batch *b, int s, bool *has)
{
    for (int t = 0; t < b->len; t++) {
        has[t] = false;
        for (int k = 0; k < b->n_outputs; k++)
            has[t] = has[t] || b->targets[k][(size_t)s * (size_t)b->len + (size_t)t] >= 0;
    }
}

/* A measure of the heads taken a sequence at a time (train_heads_job_*):
 * the explorer's example holding the model's attention, its trace, and the
 * sums so far. */
struct train_heads_job {
    struct mha_example *ex;
    struct mha_trace *tr;
    int s, n_seq;
    struct head_sums sums[TRAIN_MAX_D_MODEL];
};

struct train_heads_job *train_heads_job_new(const struct train_model *m,
                                            const struct train_batch *b, int n_seq,
                                            struct mha_error *err)
{
    const int d = m->cfg.d_model, H = m->cfg.heads, len = b->len;
    if (n_seq < 1 || n_seq > b->size || len < 1 || len > m->cfg.context) {
        mha_error_set(err, "%d sequences of %d tokens cannot be measured on this model", n_seq,
                      len);
        return NULL;
    }
    for (long i = 0; i < (long)n_seq * len; i++)
        if (b->tokens[i] < 0 || b->tokens[i] >= m->cfg.vocab) {
            mha_error_set(err, "token id %d is outside the vocabulary of %d", b->tokens[i],
                          m->cfg.vocab);
            return NULL;
        }
    struct train_heads_job *job = calloc(1, sizeof *job);
    if (!job) {
        mha_error_set(err, "out of memory");
        return NULL;
    }
    job->ex = mha_example_new(len, len, d, H, false, err);
    job->tr = job->ex ? mha_trace_new(job->ex, err) : NULL;
    if (!job->tr) {
        train_heads_job_free(job);
        return NULL;
    }
    memcpy(job->ex->w_q, m->p.attn[m->shown_layer].w_q, mha_params_count(d) * sizeof(float));
    job->ex->causal = m->cfg.causal;
    job->ex->scaled = m->cfg.scaled;
    job->ex->has_bias = m->cfg.has_bias;
    job->n_seq = n_seq;
    return job;
}

void train_heads_job_restart(struct train_heads_job *job, const struct train_model *m)
{
    memcpy(job->ex->w_q, m->p.attn[m->shown_layer].w_q,
           mha_params_count(m->cfg.d_model) * sizeof(float));
    job->s = 0;
    memset(job->sums, 0, sizeof job->sums);
}

void train_heads_job_free(struct train_heads_job *job)
{
    if (!job)
        return;
    mha_trace_free(job->tr);
    mha_example_free(job->ex);
    free(job);
}

/* ex->query holds a sequence's embedding + positions; for a shown layer
 * above the first, it becomes that layer's input: each layer below run on
 * it (its weights put into ex in turn, tr its trace) and its output added.
 * ex is left with the shown layer's weights.  0, or -1 + err. */
static int shown_input(const struct train_model *m, struct mha_example *ex, struct mha_trace *tr,
                       int len, struct mha_error *err)
{
    const size_t n = (size_t)len * (size_t)m->cfg.d_model;
    const size_t params = mha_params_count(m->cfg.d_model) * sizeof(float);
    if (m->shown_layer == 0)
        return 0;
    for (int l = 0; l < m->shown_layer; l++) {
        memcpy(ex->w_q, m->p.attn[l].w_q, params);
        memcpy(ex->key, ex->query, n * sizeof(float));
        memcpy(ex->value, ex->query, n * sizeof(float));
        if (mha_forward(ex, tr, err))
            return -1;
        for (size_t i = 0; i < n; i++)
            ex->query[i] += tr->output[i];
    }
    memcpy(ex->w_q, m->p.attn[m->shown_layer].w_q, params);
    return 0;
}

int train_heads_job_part(struct train_heads_job *job, const struct train_model *m,
                         const struct train_batch *b, struct train_head_stats *out,
                         bool (*more)(void *ctx), void *ctx, struct mha_error *err)
{
    const int d = m->cfg.d_model, H = m->cfg.heads, len = b->len;
    struct mha_example *ex = job->ex;
    bool has[TRAIN_MAX_CONTEXT];
    while (job->s < job->n_seq) {
        const int s = job->s;
        const int *tok = b->tokens + (size_t)s * (size_t)len;
        target_rows(b, s, has);
        for (int t = 0; t < len; t++)
            for (int i = 0; i < d; i++)
                ex->query[(size_t)t * d + i] =
                    m->p.embedding[(size_t)tok[t] * d + i] + m->p.positions[(size_t)t * d + i];
        if (shown_input(m, ex, job->tr, len, err))
            return -1;
        memcpy(ex->key, ex->query, (size_t)len * d * sizeof(float));
        memcpy(ex->value, ex->query, (size_t)len * d * sizeof(float));
        if (mha_forward(ex, job->tr, err))
            return -1;
        for (int h = 0; h < H; h++)
            add_sequence(&job->sums[h], job->tr->weights + (size_t)h * len * len, tok, has, len,
                         m->cfg.causal);
        if (++job->s < job->n_seq && more && !more(ctx))
            return 0;
    }
    for (int h = 0; h < H; h++)
        finish(&job->sums[h], m->shown_layer > 0, &out[h]);
    return 1;
}

int train_heads_measure(const struct train_model *m, const struct train_batch *b, int n_seq,
                        struct train_head_stats *out, struct mha_error *err)
{
    struct train_heads_job *job = train_heads_job_new(m, b, n_seq, err);
    if (!job)
        return -1;
    const int rc = train_heads_job_part(job, m, b, out, NULL, NULL, err);
    train_heads_job_free(job);
    return rc < 0 ? -1 : 0;
}

/* Replace the columns of the knocked-out heads of the merged heads of the
 * last forward pass (rows of d) by mean (d: each column's mean). */
static void knock_out(float *merged, long rows, int d, int dk, const bool *knock,
                      const double *mean)
{
    for (long r = 0; r < rows; r++)
        for (int c = 0; c < d; c++)
            if (knock[c / dk])
                merged[(size_t)r * (size_t)d + (size_t)c] = (float)mean[c];
}

int train_heads_merged_add(struct train_model *m, const struct train_batch *chunk, double *sum,
                           long *rows, struct mha_error *err)
{
    const int d = m->cfg.d_model;
    if (train_check_batch(m, chunk, err))
        return -1;
    train_forward_attention(m, chunk);
    const float *merged = train_layer_traces(m, m->shown_layer)[0].merged;
    for (long r = 0; r < (long)chunk->size * chunk->len; r++, (*rows)++)
        for (int c = 0; c < d; c++)
            sum[c] += merged[(size_t)r * (size_t)d + (size_t)c];
    return 0;
}

void train_heads_merged_finish(const struct train_model *m, double *sum, long rows)
{
    for (int c = 0; c < m->cfg.d_model; c++)
        sum[c] /= (double)(rows > 0 ? rows : 1);
}

int train_heads_merged_mean(struct train_model *m, const struct train_batch *b, double *mean,
                            struct mha_error *err)
{
    long rows = 0;
    for (int c = 0; c < m->cfg.d_model; c++)
        mean[c] = 0.0;
    for (int s0 = 0; s0 < b->size; s0 += m->batch_cap) {
        struct train_batch chunk;
        train_batch_view(b, s0, b->size - s0 < m->batch_cap ? b->size - s0 : m->batch_cap, &chunk);
        if (train_heads_merged_add(m, &chunk, mean, &rows, err))
            return -1;
    }
    train_heads_merged_finish(m, mean, rows);
    return 0;
}

int train_forward_knocked(struct train_model *m, const struct train_batch *b, const bool *knock,
                          const double *mean, struct mha_error *err)
{
    if (train_check_batch(m, b, err))
        return -1;
    train_forward_attention(m, b);
    if (knock)
        knock_out(train_layer_traces(m, m->shown_layer)[0].merged, (long)b->size * b->len,
                  m->cfg.d_model, m->cfg.d_model / m->cfg.heads, knock, mean);
    train_forward_readout(m, b);
    return 0;
}

int train_heads_ablate(struct train_model *m, const struct train_batch *b, const bool *knock,
                       float *acc, struct mha_error *err)
{
    const int K = m->cfg.n_outputs;
    double mean[TRAIN_MAX_D_MODEL];
    /* pass 1: each column's mean over every position of b */
    if (train_heads_merged_mean(m, b, mean, err))
        return -1;
    /* pass 2: the forward pass with the knocked-out heads' columns at their mean */
    long right[TRAIN_MAX_OUTPUTS] = {0}, total[TRAIN_MAX_OUTPUTS] = {0};
    for (int s0 = 0; s0 < b->size; s0 += m->batch_cap) {
        struct train_batch chunk;
        train_batch_view(b, s0, b->size - s0 < m->batch_cap ? b->size - s0 : m->batch_cap, &chunk);
        if (train_forward_knocked(m, &chunk, knock, mean, err))
            return -1;
        train_count_forwarded(m, &chunk, right, total);
    }
    for (int k = 0; k < K; k++)
        acc[k] = total[k] ? (float)right[k] / (float)total[k] : NAN;
    return 0;
}

const char *train_head_kind_name(enum train_head_kind k)
{
    static const char *const names[] = {"",
                                        "first token",
                                        "previous token",
                                        "itself",
                                        "earlier copy",
                                        "even spread",
                                        "token after the earlier copy"};
    return k >= TRAIN_HEAD_NONE && k <= TRAIN_HEAD_INDUCTION ? names[k] : "";
}

const char *train_head_kind_short(enum train_head_kind k)
{
    static const char *const names[] = {"", "first", "prev", "self", "copy", "even", "induction"};
    return k >= TRAIN_HEAD_NONE && k <= TRAIN_HEAD_INDUCTION ? names[k] : "";
}

/* ".52" for 0.52, "1.00" for 1 */
static void share_text(float v, char *buf, size_t n)
{
    char tmp[16];
    snprintf(tmp, sizeof tmp, "%.2f", (double)v);
    snprintf(buf, n, "%s", tmp[0] == '0' ? tmp + 1 : tmp);
}

void train_head_label(const struct train_head_stats *s, char *buf, size_t n)
{
    char a[16], b[16];
    share_text(s->share, a, sizeof a);
    share_text(s->share2, b, sizeof b);
    if (s->kind == TRAIN_HEAD_NONE)
        snprintf(buf, n, "%s", "");
    else if (s->kind2 != TRAIN_HEAD_NONE)
        snprintf(buf, n, "%s %s / %s %s", train_head_kind_short(s->kind), a,
                 train_head_kind_short(s->kind2), b);
    else
        snprintf(buf, n, "%s %s", train_head_kind_short(s->kind), a);
}

void train_head_describe(int h, const struct train_head_stats *s, char *buf, size_t n)
{
    if (s->kind == TRAIN_HEAD_NONE)
        snprintf(buf, n, "%s", "");
    else if (s->kind == TRAIN_HEAD_EVEN)
        snprintf(buf, n, "head %d spreads its weight evenly (evenness %.2f)", h, (double)s->share);
    else if (s->kind2 != TRAIN_HEAD_NONE)
        snprintf(buf, n, "head %d splits its weight, %.2f on the %s and %.2f on the %s", h,
                 (double)s->share, train_head_kind_name(s->kind), (double)s->share2,
                 train_head_kind_name(s->kind2));
    else
        snprintf(buf, n, "head %d puts %.2f on the %s", h, (double)s->share,
                 train_head_kind_name(s->kind));
}
