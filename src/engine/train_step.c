/* train_step.c - one training step of the model in train.h: the forward
 * pass with its loss, the backward pass (passes numbered in reverse), Adam,
 * and counting right answers.  Every buffer is the model's own; nothing
 * here allocates. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/train.h"

/* train_model.c */
void train_model_point_traces(struct train_model *m, int len);
void train_embed(const struct train_model *m, const int *tokens, int len, float *x);
/* train_loss.c */
double train_softmax_loss(float *p, const int *target, int rows, int C, int *count);
void train_loss_backward(const float *probs, const int *target, int rows, int C, int count,
                         float *d_logits);

int train_check_batch(const struct train_model *m, const struct train_batch *b,
                      struct mha_error *err)
{
    if (b->size < 1 || b->size > m->batch_cap)
        return mha_error_set(err, "batch of %d sequences: the model takes 1 to %d at a time",
                             b->size, m->batch_cap);
    if (b->len < 1 || b->len > m->cfg.context)
        return mha_error_set(err, "sequences of %d tokens: the model's context is %d", b->len,
                             m->cfg.context);
    if (b->n_outputs != m->cfg.n_outputs)
        return mha_error_set(err, "the batch has targets for %d outputs, the model has %d",
                             b->n_outputs, m->cfg.n_outputs);
    return 0;
}

/* The inputs of sequence s + 1 of a batch of size sequences, for asking
 * into the cache while sequence s's heads run (mha_prefetch_share): only
 * where the batch's q (rows × d floats, and k and v as many) passes 65536
 * floats, so that a sequence's attention reads them from beyond the
 * second-level cache; below, the asking would cost more than it saves.
 * d_merged (or NULL going forwards): the batch's, s + 1's rows Td on. */
static struct mha_next ahead(const struct train_model *m, int s, int size, int rows,
                             const float *d_merged, size_t Td)
{
    const bool ask = (size_t)rows * (size_t)m->cfg.d_model > ((size_t)1 << 16) && s + 1 < size;
    return (struct mha_next){ask ? &m->traces[s + 1] : NULL,
                             ask && d_merged ? d_merged + (size_t)(s + 1) * Td : NULL};
}

/* Passes 1 and 2 of the forward pass up to the heads: x, and the
 * projections over all batch·T rows at once. */
static void forward_start(struct train_model *m, const struct train_batch *b)
{
    const struct train_config *c = &m->cfg;
    const int T = b->len, d = c->d_model, rows = b->size * T;
    const size_t Td = (size_t)T * (size_t)d;
    if (T != m->fwd_len)
        train_model_point_traces(m, T);
    m->fwd_size = b->size;
    const struct mha_params *w = &m->p.attn;
    const struct mha_trace *t0 = &m->traces[0]; /* tensors of the whole batch */

    /* pass 1: x = embedding[tokens] + positions[:T], every sequence */
    for (int s = 0; s < b->size; s++)
        train_embed(m, b->tokens + (size_t)s * (size_t)T, T, m->x + (size_t)s * Td);
    /* pass 2: a = MHA(x, x, x), the explorer's attention: its pass 1 (the
     * projections) over all batch·T rows at once, passes 2-5 per sequence
     * (forward_heads); its pass 6 is the read-out's */
    mat_linear(m->x, w->w_q, w->b_q, t0->q, rows, d, d);
    mat_linear(m->x, w->w_k, w->b_k, t0->k, rows, d, d);
    mat_linear(m->x, w->w_v, w->b_v, t0->v, rows, d, d);
}

/* Passes 2-5 of the attention for sequence s of b. */
static void forward_heads(struct train_model *m, const struct train_batch *b, int s)
{
    const size_t Td = (size_t)b->len * (size_t)m->cfg.d_model;
    mha_forward_attend_lean(m->cfg.causal, m->cfg.scaled, &m->traces[s],
                            ahead(m, s, b->size, b->size * b->len, NULL, Td));
}

void train_forward_attention(struct train_model *m, const struct train_batch *b)
{
    forward_start(m, b);
    for (int s = 0; s < b->size; s++)
        forward_heads(m, b, s);
}

/* From the merged heads to the read-outs: the attention's output
 * projection over all rows, and r = x + a. */
static void forward_output(struct train_model *m, const struct train_batch *b)
{
    const int rows = b->size * b->len, d = m->cfg.d_model;
    const struct mha_params *w = &m->p.attn;
    const struct mha_trace *t0 = &m->traces[0];
    /* pass 2, its end: the attention's output projection over all rows */
    mat_linear(t0->merged, w->w_o, w->b_o, t0->output, rows, d, d);
    /* pass 3: r = x + a */
    for (size_t i = 0; i < (size_t)rows * (size_t)d; i++)
        m->r[i] = m->x[i] + t0->output[i];
    m->loss = 0.0f;
}

/* Pass 4 for output k: logits = r·Uᵀ + bias, softmax, cross-entropy over
 * the targets that are not -1, added to the loss. */
static void forward_readout(struct train_model *m, const struct train_batch *b, int k)
{
    const int rows = b->size * b->len, d = m->cfg.d_model;
    const int C = m->cfg.outputs[k].classes;
    float *probs = m->probs[k];
    mat_linear(m->r, m->p.unembed[k], m->p.bias[k], probs, rows, C, d);
    int count = 0;
    const double loss = train_softmax_loss(probs, b->targets[k], rows, C, &count);
    m->out_count[k] = count;
    m->out_loss[k] = count ? (float)(loss / count) : 0.0f;
    m->loss += m->out_loss[k];
}

void train_forward_readout(struct train_model *m, const struct train_batch *b)
{
    forward_output(m, b);
    for (int k = 0; k < m->cfg.n_outputs; k++)
        forward_readout(m, b, k);
}

int train_forward(struct train_model *m, const struct train_batch *b, struct mha_error *err)
{
    if (train_check_batch(m, b, err))
        return -1;
    train_forward_attention(m, b);
    train_forward_readout(m, b);
    return 0;
}

/* The backward pass starts from zero gradients. */
static void backward_start(struct train_model *m)
{
    const size_t n = (size_t)m->fwd_size * (size_t)m->fwd_len * (size_t)m->cfg.d_model;
    memset(m->grads, 0, m->n_params * sizeof(float));
    memset(m->d_r, 0, n * sizeof(float));
}

/* Pass 4 backwards for output k: d logits = (probs − onehot(target)) /
 * count on rows with a target, 0 elsewhere; into U, bias and d_r. */
static void backward_readout(struct train_model *m, const struct train_batch *b, int k)
{
    if (!m->out_count[k])
        return;
    const int rows = m->fwd_size * m->fwd_len, d = m->cfg.d_model;
    const int C = m->cfg.outputs[k].classes;
    train_loss_backward(m->probs[k], b->targets[k], rows, C, m->out_count[k], m->d_logits);
    mat_linear_backward(m->r, m->p.unembed[k], m->d_logits, m->d_r, m->g.unembed[k], m->g.bias[k],
                        rows, C, d);
}

/* Pass 3: r = x + a: d_a = d_r, and d_x starts as d_r; pass 2 from its
 * end: the output projection over all rows, into d merged. */
static void backward_output(struct train_model *m)
{
    const int rows = m->fwd_size * m->fwd_len, d = m->cfg.d_model;
    const size_t n = (size_t)rows * (size_t)d;
    memcpy(m->d_x, m->d_r, n * sizeof(float));
    memset(m->d_merged, 0, n * sizeof(float));
    mat_linear_backward(m->traces[0].merged, m->p.attn.w_o, m->d_r, m->d_merged, m->g.attn.w_o,
                        m->g.attn.b_o, rows, d, d);
}

/* Passes 5-2 of the attention backwards for sequence s. */
static void backward_heads(struct train_model *m, int s)
{
    const size_t Td = (size_t)m->fwd_len * (size_t)m->cfg.d_model;
    mha_backward_attend(&m->traces[s], m->d_merged + (size_t)s * Td, m->d_query + (size_t)s * Td,
                        m->d_key + (size_t)s * Td, m->d_value + (size_t)s * Td, m->work,
                        ahead(m, s, m->fwd_size, m->fwd_size * m->fwd_len, m->d_merged, Td));
}

/* Pass 2 from its start, projection j (q, k, v) over all rows. */
static void backward_projection(struct train_model *m, int j)
{
    const int rows = m->fwd_size * m->fwd_len, d = m->cfg.d_model;
    const struct mha_params *w = &m->p.attn;
    struct mha_params *g = &m->g.attn;
    const float *wj[3] = {w->w_q, w->w_k, w->w_v};
    const float *dj[3] = {m->d_query, m->d_key, m->d_value};
    float *gw[3] = {g->w_q, g->w_k, g->w_v}, *gb[3] = {g->b_q, g->b_k, g->b_v};
    mat_linear_backward(m->x, wj[j], dj[j], m->d_x, gw[j], gb[j], rows, d, d);
}

/* Pass 1: x = embedding[tokens] + positions; and the biases the model
 * does not have stay zero. */
static void backward_finish(struct train_model *m, const struct train_batch *b)
{
    const struct train_config *c = &m->cfg;
    const int T = m->fwd_len, d = c->d_model;
    const size_t Td = (size_t)T * (size_t)d;
    for (int s = 0; s < m->fwd_size; s++) {
        const int *tok = b->tokens + (size_t)s * (size_t)T;
        for (int t = 0; t < T; t++) {
            const float *dx = m->d_x + (size_t)s * Td + (size_t)t * (size_t)d;
            float *ge = m->g.embedding + (size_t)tok[t] * (size_t)d;
            float *gp = m->g.positions + (size_t)t * (size_t)d;
            for (int e = 0; e < d; e++) {
                ge[e] += dx[e];
                gp[e] += dx[e];
            }
        }
    }
    if (!c->has_bias)
        memset(m->g.attn.b_q, 0, 4u * (size_t)d * sizeof(float));
    for (int k = 0; k < c->n_outputs; k++)
        if (!c->outputs[k].has_bias)
            memset(m->g.bias[k], 0, (size_t)c->outputs[k].classes * sizeof(float));
}

void train_backward(struct train_model *m, const struct train_batch *b)
{
    backward_start(m);
    for (int k = 0; k < m->cfg.n_outputs; k++)
        backward_readout(m, b, k);
    backward_output(m);
    for (int s = 0; s < m->fwd_size; s++)
        backward_heads(m, s);
    for (int j = 0; j < 3; j++)
        backward_projection(m, j);
    backward_finish(m, b);
}

void train_adam_step(struct train_model *m, float lr)
{
    const float b1 = 0.9f, b2 = 0.999f, eps = 1e-8f;
    m->adam_t++;
    const float c1 = 1.0f - powf(b1, (float)m->adam_t);
    const float c2 = 1.0f - powf(b2, (float)m->adam_t);
    const float step = lr / c1, inv_sqrt_c2 = 1.0f / sqrtf(c2);
    float *p = m->params, *mm = m->adam_m, *vv = m->adam_v;
    const float *g = m->grads;
    /* pass 1: both moments and the update, one loop over the whole block */
    for (size_t i = 0; i < m->n_params; i++) {
        mm[i] = b1 * mm[i] + (1.0f - b1) * g[i];
        vv[i] = b2 * vv[i] + (1.0f - b2) * g[i] * g[i];
        p[i] -= step * mm[i] / (sqrtf(vv[i]) * inv_sqrt_c2 + eps);
    }
}

/* The parts of a step in train_step_part's order; in each, i counts the
 * sequences, outputs or projections done. */
enum step_part {
    PART_START,        /* batch check, x, the projections */
    PART_HEADS,        /* a sequence's heads */
    PART_OUTPUT,       /* output projection, r = x + a */
    PART_READOUT,      /* an output's logits, softmax and loss */
    PART_BACK_READOUT, /* an output's gradients (the first zeroes them all) */
    PART_BACK_OUTPUT,  /* the output projection's */
    PART_BACK_HEADS,   /* a sequence's heads' */
    PART_BACK_PROJECT, /* a projection's */
    PART_FINISH,       /* the embeddings', Adam, the step counted */
};

/* Part job->part, its job->i-th piece; moves job on.  1 when the step (or
 * the forward pass, where job->forward_only) is done. */
static int step_piece(struct train_model *m, const struct train_batch *b, float lr,
                      struct train_step_job *job)
{
    const int n_out = m->cfg.n_outputs;
    switch ((enum step_part)job->part) {
    case PART_START:
        forward_start(m, b);
        *job = (struct train_step_job){PART_HEADS, 0, job->forward_only};
        return 0;
    case PART_HEADS:
        forward_heads(m, b, job->i);
        if (++job->i == b->size)
            *job = (struct train_step_job){PART_OUTPUT, 0, job->forward_only};
        return 0;
    case PART_OUTPUT:
        forward_output(m, b);
        job->part = PART_READOUT;
        return 0;
    case PART_READOUT:
        forward_readout(m, b, job->i);
        if (++job->i < n_out)
            return 0;
        *job = (struct train_step_job){PART_BACK_READOUT, 0, job->forward_only};
        return job->forward_only;
    case PART_BACK_READOUT:
        if (job->i == 0)
            backward_start(m);
        backward_readout(m, b, job->i);
        if (++job->i == n_out)
            job->part = PART_BACK_OUTPUT;
        return 0;
    case PART_BACK_OUTPUT:
        backward_output(m);
        *job = (struct train_step_job){PART_BACK_HEADS, 0, job->forward_only};
        return 0;
    case PART_BACK_HEADS:
        backward_heads(m, job->i);
        if (++job->i == m->fwd_size)
            *job = (struct train_step_job){PART_BACK_PROJECT, 0, job->forward_only};
        return 0;
    case PART_BACK_PROJECT:
        backward_projection(m, job->i);
        if (++job->i == 3)
            job->part = PART_FINISH;
        return 0;
    case PART_FINISH:
        backward_finish(m, b);
        train_adam_step(m, lr);
        m->step++;
        return 1;
    }
    return 1;
}

int train_step_part(struct train_model *m, const struct train_batch *b, float lr,
                    struct train_step_job *job, bool (*more)(void *ctx), void *ctx,
                    struct mha_error *err)
{
    if (job->part == PART_START && job->i == 0 && train_check_batch(m, b, err))
        return -1;
    for (;;) {
        if (step_piece(m, b, lr, job)) {
            *job = (struct train_step_job){PART_START, 0, job->forward_only};
            return 1;
        }
        if (more && !more(ctx))
            return 0;
    }
}

float train_step(struct train_model *m, const struct train_batch *b, float lr,
                 struct mha_error *err)
{
    struct train_step_job job = {PART_START, 0, false};
    if (train_step_part(m, b, lr, &job, NULL, NULL, err) < 0)
        return NAN;
    return m->loss;
}

int train_predict(const struct train_model *m, int k, int s, int t)
{
    const int C = m->cfg.outputs[k].classes;
    const float *p = m->probs[k] + ((size_t)s * (size_t)m->fwd_len + (size_t)t) * (size_t)C;
    int best = 0;
    for (int j = 1; j < C; j++)
        if (p[j] > p[best])
            best = j;
    return best;
}

void train_batch_view(const struct train_batch *b, int first, int size, struct train_batch *out)
{
    *out = *b;
    out->size = size;
    const size_t off = (size_t)first * (size_t)b->len;
    out->tokens = b->tokens + off;
    for (int k = 0; k < b->n_outputs; k++)
        out->targets[k] = b->targets[k] + off;
}

void train_count_forwarded(const struct train_model *m, const struct train_batch *b, long *right,
                           long *total)
{
    for (int k = 0; k < m->cfg.n_outputs; k++)
        for (int s = 0; s < b->size; s++)
            for (int t = 0; t < b->len; t++) {
                const int want = b->targets[k][(size_t)s * (size_t)b->len + (size_t)t];
                if (want < 0)
                    continue;
                total[k]++;
                right[k] += train_predict(m, k, s, t) == want;
            }
}

int train_count_right(struct train_model *m, const struct train_batch *b, long *right, long *total,
                      struct mha_error *err)
{
    for (int k = 0; k < m->cfg.n_outputs; k++)
        right[k] = total[k] = 0;
    for (int s0 = 0; s0 < b->size; s0 += m->batch_cap) {
        struct train_batch chunk; /* a view of the next chunk of b */
        train_batch_view(b, s0, b->size - s0 < m->batch_cap ? b->size - s0 : m->batch_cap, &chunk);
        if (train_forward(m, &chunk, err))
            return -1;
        train_count_forwarded(m, &chunk, right, total);
    }
    return 0;
}
