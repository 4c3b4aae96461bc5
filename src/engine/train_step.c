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

/* Passes 1 and 2 of the forward pass: x, then the attention up to the
 * merged heads (the output projection is the read-out's). */
void train_forward_attention(struct train_model *m, const struct train_batch *b)
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
     * projections) over all batch·T rows at once, passes 2-5 per sequence;
     * its pass 6 is the read-out's */
    mat_linear(m->x, w->w_q, w->b_q, t0->q, rows, d, d);
    mat_linear(m->x, w->w_k, w->b_k, t0->k, rows, d, d);
    mat_linear(m->x, w->w_v, w->b_v, t0->v, rows, d, d);
    for (int s = 0; s < b->size; s++)
        mha_forward_attend_lean(c->causal, c->scaled, &m->traces[s],
                                ahead(m, s, b->size, rows, NULL, Td));
}

/* The rest of the forward pass from the merged heads: the attention's
 * output projection, r = x + a, and each output's logits, softmax and
 * cross-entropy. */
void train_forward_readout(struct train_model *m, const struct train_batch *b)
{
    const struct train_config *c = &m->cfg;
    const int rows = b->size * b->len, d = c->d_model;
    const struct mha_params *w = &m->p.attn;
    const struct mha_trace *t0 = &m->traces[0];
    /* pass 2, its end: the attention's output projection over all rows */
    mat_linear(t0->merged, w->w_o, w->b_o, t0->output, rows, d, d);
    /* pass 3: r = x + a */
    for (size_t i = 0; i < (size_t)rows * (size_t)d; i++)
        m->r[i] = m->x[i] + t0->output[i];
    /* pass 4: per output, logits = r·Uᵀ + bias, softmax, cross-entropy over
     * the targets that are not -1 */
    m->loss = 0.0f;
    for (int k = 0; k < c->n_outputs; k++) {
        const int C = c->outputs[k].classes;
        float *probs = m->probs[k];
        const int *target = b->targets[k];
        mat_linear(m->r, m->p.unembed[k], m->p.bias[k], probs, rows, C, d);
        int count = 0;
        const double loss = train_softmax_loss(probs, target, rows, C, &count);
        m->out_count[k] = count;
        m->out_loss[k] = count ? (float)(loss / count) : 0.0f;
        m->loss += m->out_loss[k];
    }
}

int train_forward(struct train_model *m, const struct train_batch *b, struct mha_error *err)
{
    if (train_check_batch(m, b, err))
        return -1;
    train_forward_attention(m, b);
    train_forward_readout(m, b);
    return 0;
}

void train_backward(struct train_model *m, const struct train_batch *b)
{
    const struct train_config *c = &m->cfg;
    const int T = b->len, d = c->d_model, rows = m->fwd_size * T;
    const size_t Td = (size_t)T * (size_t)d, n = (size_t)rows * (size_t)d;
    const struct mha_params *w = &m->p.attn;
    struct mha_params *g = &m->g.attn;
    const struct mha_trace *t0 = &m->traces[0];
    memset(m->grads, 0, m->n_params * sizeof(float));
    memset(m->d_r, 0, n * sizeof(float));

    /* pass 4: d logits = (probs − onehot(target)) / count on rows with a
     * target, 0 elsewhere; into U, bias and d_r */
    for (int k = 0; k < c->n_outputs; k++) {
        if (!m->out_count[k])
            continue;
        const int C = c->outputs[k].classes;
        train_loss_backward(m->probs[k], b->targets[k], rows, C, m->out_count[k], m->d_logits);
        mat_linear_backward(m->r, m->p.unembed[k], m->d_logits, m->d_r, m->g.unembed[k],
                            m->g.bias[k], rows, C, d);
    }
    /* pass 3: r = x + a: d_a = d_r, and d_x starts as d_r */
    memcpy(m->d_x, m->d_r, n * sizeof(float));
    /* pass 2: a = MHA(x, x, x) backwards: the output projection over all
     * rows, passes 5-2 per sequence, the projections over all rows */
    memset(m->d_merged, 0, n * sizeof(float));
    mat_linear_backward(t0->merged, w->w_o, m->d_r, m->d_merged, g->w_o, g->b_o, rows, d, d);
    for (int s = 0; s < m->fwd_size; s++)
        mha_backward_attend(&m->traces[s], m->d_merged + (size_t)s * Td,
                            m->d_query + (size_t)s * Td, m->d_key + (size_t)s * Td,
                            m->d_value + (size_t)s * Td, m->work,
                            ahead(m, s, m->fwd_size, rows, m->d_merged, Td));
    mat_linear_backward(m->x, w->w_q, m->d_query, m->d_x, g->w_q, g->b_q, rows, d, d);
    mat_linear_backward(m->x, w->w_k, m->d_key, m->d_x, g->w_k, g->b_k, rows, d, d);
    mat_linear_backward(m->x, w->w_v, m->d_value, m->d_x, g->w_v, g->b_v, rows, d, d);
    /* pass 1: x = embedding[tokens] + positions */
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
    /* biases the model does not have stay zero */
    if (!c->has_bias)
        memset(m->g.attn.b_q, 0, 4u * (size_t)d * sizeof(float));
    for (int k = 0; k < c->n_outputs; k++)
        if (!c->outputs[k].has_bias)
            memset(m->g.bias[k], 0, (size_t)c->outputs[k].classes * sizeof(float));
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

float train_step(struct train_model *m, const struct train_batch *b, float lr,
                 struct mha_error *err)
{
    if (train_forward(m, b, err))
        return NAN;
    const float loss = m->loss;
    train_backward(m, b);
    train_adam_step(m, lr);
    m->step++;
    return loss;
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
