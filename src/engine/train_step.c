/* train_step.c - one training step of the model in train.h: the forward
 * pass with its loss, the backward pass (passes numbered in reverse), Adam,
 * and counting right answers.  Every buffer is the model's own; nothing
 * here allocates. */
#include <math.h>
#include <string.h>

#include "mat.h"
#include "train.h"

/* train_model.c */
void train_model_point_traces(struct train_model *m, int len);
void train_embed(const struct train_model *m, const int *tokens, int len, float *x);

static int check_batch(const struct train_model *m, const struct train_batch *b,
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

int train_forward(struct train_model *m, const struct train_batch *b, struct mha_error *err)
{
    if (check_batch(m, b, err))
        return -1;
    const struct train_config *c = &m->cfg;
    const int T = b->len, d = c->d_model;
    const size_t Td = (size_t)T * (size_t)d;
    if (T != m->fwd_len)
        train_model_point_traces(m, T);
    m->fwd_size = b->size;
    double loss[TRAIN_MAX_OUTPUTS] = {0};
    for (int k = 0; k < c->n_outputs; k++)
        m->out_count[k] = 0;

    for (int s = 0; s < b->size; s++) {
        const int *tok = b->tokens + (size_t)s * (size_t)T;
        float *x = m->x + (size_t)s * Td, *r = m->r + (size_t)s * Td;
        struct mha_trace *tr = &m->traces[s];
        /* pass 1: x = embedding[tokens] + positions[:T] */
        train_embed(m, tok, T, x);
        /* pass 2: a = MHA(x, x, x), the explorer's attention, trace kept */
        mha_forward_seq(x, x, x, &m->p.attn, NULL, c->causal, c->scaled, tr);
        /* pass 3: r = x + a */
        for (size_t i = 0; i < Td; i++)
            r[i] = x[i] + tr->output[i];
        /* pass 4: per output, logits = r·Uᵀ + bias, softmax, cross-entropy */
        for (int k = 0; k < c->n_outputs; k++) {
            const int C = c->outputs[k].classes;
            float *probs = m->probs[k] + (size_t)s * (size_t)T * (size_t)C;
            const int *target = b->targets[k] + (size_t)s * (size_t)T;
            mat_linear(r, m->p.unembed[k], m->p.bias[k], probs, T, C, d);
            for (int t = 0; t < T; t++) {
                float *row = probs + (size_t)t * (size_t)C;
                mat_softmax_row(row, C);
                if (target[t] < 0)
                    continue;
                const float p = row[target[t]];
                loss[k] -= log(p > 1e-30f ? (double)p : 1e-30);
                m->out_count[k]++;
            }
        }
    }
    m->loss = 0.0f;
    for (int k = 0; k < c->n_outputs; k++) {
        m->out_loss[k] = m->out_count[k] ? (float)(loss[k] / m->out_count[k]) : 0.0f;
        m->loss += m->out_loss[k];
    }
    return 0;
}

void train_backward(struct train_model *m, const struct train_batch *b)
{
    const struct train_config *c = &m->cfg;
    const int T = b->len, d = c->d_model;
    const size_t Td = (size_t)T * (size_t)d;
    memset(m->grads, 0, m->n_params * sizeof(float));

    for (int s = 0; s < m->fwd_size; s++) {
        const int *tok = b->tokens + (size_t)s * (size_t)T;
        const float *x = m->x + (size_t)s * Td, *r = m->r + (size_t)s * Td;
        const struct mha_trace *tr = &m->traces[s];
        memset(m->d_r, 0, Td * sizeof(float));
        /* pass 4: d logits = (probs − onehot(target)) / count, rows without
         * a target give nothing; into U, bias and d_r */
        for (int k = 0; k < c->n_outputs; k++) {
            if (!m->out_count[k])
                continue;
            const int C = c->outputs[k].classes;
            const float inv = 1.0f / (float)m->out_count[k];
            const float *probs = m->probs[k] + (size_t)s * (size_t)T * (size_t)C;
            const int *target = b->targets[k] + (size_t)s * (size_t)T;
            float *gu = m->g.unembed[k], *gb = m->g.bias[k];
            const float *u = m->p.unembed[k];
            for (int t = 0; t < T; t++) {
                if (target[t] < 0)
                    continue;
                const float *p = probs + (size_t)t * (size_t)C;
                const float *rt = r + (size_t)t * (size_t)d;
                float *drt = m->d_r + (size_t)t * (size_t)d;
                for (int j = 0; j < C; j++) {
                    const float dl = (p[j] - (j == target[t] ? 1.0f : 0.0f)) * inv;
                    gb[j] += dl;
                    float *guj = gu + (size_t)j * (size_t)d;
                    const float *uj = u + (size_t)j * (size_t)d;
                    for (int e = 0; e < d; e++) {
                        guj[e] += dl * rt[e];
                        drt[e] += dl * uj[e];
                    }
                }
            }
        }
        /* pass 3 and 2: r = x + MHA(x, x, x): d_x = d_r + d_query + d_key + d_value */
        mha_backward(x, x, x, &m->p.attn, tr, m->d_r, &m->g.attn, m->d_query, m->d_key,
                     m->d_value, m->work);
        /* pass 1: x = embedding[tokens] + positions */
        for (int t = 0; t < T; t++) {
            const size_t o = (size_t)t * (size_t)d;
            float *ge = m->g.embedding + (size_t)tok[t] * (size_t)d;
            float *gp = m->g.positions + o;
            for (int e = 0; e < d; e++) {
                const float dx = m->d_r[o + (size_t)e] + m->d_query[o + (size_t)e] +
                                 m->d_key[o + (size_t)e] + m->d_value[o + (size_t)e];
                ge[e] += dx;
                gp[e] += dx;
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
    const float *p =
        m->probs[k] + ((size_t)s * (size_t)m->fwd_len + (size_t)t) * (size_t)C;
    int best = 0;
    for (int j = 1; j < C; j++)
        if (p[j] > p[best])
            best = j;
    return best;
}

int train_count_right(struct train_model *m, const struct train_batch *b, long *right,
                      long *total, struct mha_error *err)
{
    const int K = m->cfg.n_outputs;
    for (int k = 0; k < K; k++)
        right[k] = total[k] = 0;
    for (int s0 = 0; s0 < b->size; s0 += m->batch_cap) {
        /* a view of the next chunk of b */
        struct train_batch chunk = *b;
        chunk.size = b->size - s0 < m->batch_cap ? b->size - s0 : m->batch_cap;
        const size_t off = (size_t)s0 * (size_t)b->len;
        chunk.tokens = b->tokens + off;
        for (int k = 0; k < K; k++)
            chunk.targets[k] = b->targets[k] + off;
        if (train_forward(m, &chunk, err))
            return -1;
        for (int k = 0; k < K; k++)
            for (int s = 0; s < chunk.size; s++)
                for (int t = 0; t < b->len; t++) {
                    const int want = chunk.targets[k][(size_t)s * (size_t)b->len + (size_t)t];
                    if (want < 0)
                        continue;
                    total[k]++;
                    right[k] += train_predict(m, k, s, t) == want;
                }
    }
    return 0;
}
