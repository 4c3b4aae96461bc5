/* train_step.c - one training step of the model in train.h: the forward
 * pass with its loss, the backward pass (passes numbered in reverse), Adam,
 * and counting right answers.  Every buffer is the model's own; nothing
 * here allocates. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/mat.h"
#include "train/train.h"

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

/* Layer l's input, (B, T, d) at the model's batch_cap and context. */
static float *layer_x(const struct train_model *m, int l)
{
    return m->x +
           (size_t)l * (size_t)m->batch_cap * (size_t)m->cfg.context * (size_t)m->cfg.d_model;
}

/* Where layer l adds its attention to its input: the next layer's input,
 * or r after the last. */
static float *layer_out(const struct train_model *m, int l)
{
    return l + 1 < train_layers(&m->cfg) ? layer_x(m, l + 1) : m->r;
}

/* The inputs of sequence s + 1 of a batch of size sequences in layer l, for
 * asking into the cache while sequence s's heads run (mha_prefetch_share):
 * only where the batch's q (rows × d floats, and k and v as many) passes
 * 65536 floats, so that a sequence's attention reads them from beyond the
 * second-level cache; below, the asking would cost more than it saves.
 * d_merged (or NULL going forwards): the batch's, s + 1's rows Td on. */
static struct mha_next ahead(const struct train_model *m, int l, int s, int size, int rows,
                             const float *d_merged, size_t Td)
{
    const bool ask = (size_t)rows * (size_t)m->cfg.d_model > ((size_t)1 << 16) && s + 1 < size;
    return (struct mha_next){ask ? &train_layer_traces(m, l)[s + 1] : NULL,
                             ask && d_merged ? d_merged + (size_t)(s + 1) * Td : NULL};
}

/* Pass 2 of layer l up to its heads: the projections of its input over all
 * batch·T rows at once. */
static void forward_project(struct train_model *m, const struct train_batch *b, int l)
{
    const int d = m->cfg.d_model, rows = b->size * b->len;
    const struct mha_params *w = &m->p.attn[l];
    const struct mha_trace *t0 = &train_layer_traces(m, l)[0]; /* tensors of the whole batch */
    const float *x = layer_x(m, l);
    mat_linear(x, w->w_q, w->b_q, t0->q, rows, d, d);
    mat_linear(x, w->w_k, w->b_k, t0->k, rows, d, d);
    mat_linear(x, w->w_v, w->b_v, t0->v, rows, d, d);
}

/* Passes 1 and 2 of the forward pass up to the first layer's heads: x, and
 * the projections over all batch·T rows at once. */
static void forward_start(struct train_model *m, const struct train_batch *b)
{
    const int T = b->len, d = m->cfg.d_model;
    const size_t Td = (size_t)T * (size_t)d;
    if (T != m->fwd_len)
        train_model_point_traces(m, T);
    m->fwd_size = b->size;
    /* pass 1: x = embedding[tokens] + positions[:T], every sequence */
    for (int s = 0; s < b->size; s++)
        train_embed(m, b->tokens + (size_t)s * (size_t)T, T, m->x + (size_t)s * Td);
    /* pass 2: a = MHA(x, x, x), the explorer's attention: its pass 1 (the
     * projections) over all batch·T rows at once, passes 2-5 per sequence
     * (forward_heads), its pass 6 with the residual (forward_output) */
    forward_project(m, b, 0);
}

/* Passes 2-5 of layer l's attention for sequence s of b. */
static void forward_heads(struct train_model *m, const struct train_batch *b, int l, int s)
{
    const size_t Td = (size_t)b->len * (size_t)m->cfg.d_model;
    mha_forward_attend_lean(m->cfg.causal, m->cfg.scaled, &train_layer_traces(m, l)[s],
                            ahead(m, l, s, b->size, b->size * b->len, NULL, Td));
}

/* Layer l from its merged heads on: the output projection over all rows,
 * and its input plus that (pass 3: r = x + a after the last layer). */
static void forward_output(struct train_model *m, const struct train_batch *b, int l)
{
    const int rows = b->size * b->len, d = m->cfg.d_model;
    const struct mha_params *w = &m->p.attn[l];
    const struct mha_trace *t0 = &train_layer_traces(m, l)[0];
    const float *x = layer_x(m, l);
    float *out = layer_out(m, l);
    mat_linear(t0->merged, w->w_o, w->b_o, t0->output, rows, d, d);
    for (size_t i = 0; i < (size_t)rows * (size_t)d; i++)
        out[i] = x[i] + t0->output[i];
    m->loss = 0.0f;
}

void train_forward_attention(struct train_model *m, const struct train_batch *b)
{
    forward_start(m, b);
    for (int l = 0; l <= m->shown_layer; l++) {
        if (l > 0)
            forward_project(m, b, l);
        for (int s = 0; s < b->size; s++)
            forward_heads(m, b, l, s);
        if (l < m->shown_layer)
            forward_output(m, b, l);
    }
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
    forward_output(m, b, m->shown_layer);
    for (int l = m->shown_layer + 1; l < train_layers(&m->cfg); l++) {
        forward_project(m, b, l);
        for (int s = 0; s < b->size; s++)
            forward_heads(m, b, l, s);
        forward_output(m, b, l);
    }
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

/* Layer l's x_l+1 = x_l + a backwards: d_x holds d x_l+1 (after the last
 * layer, d_r: pass 3), which is d a and where d x_l starts; then pass 2
 * from its end: the output projection over all rows, into d merged. */
static void backward_output(struct train_model *m, int l)
{
    const int rows = m->fwd_size * m->fwd_len, d = m->cfg.d_model;
    const size_t n = (size_t)rows * (size_t)d;
    if (l == train_layers(&m->cfg) - 1)
        memcpy(m->d_x, m->d_r, n * sizeof(float));
    memset(m->d_merged, 0, n * sizeof(float));
    mat_linear_backward(train_layer_traces(m, l)[0].merged, m->p.attn[l].w_o, m->d_x, m->d_merged,
                        m->g.attn[l].w_o, m->g.attn[l].b_o, rows, d, d);
}

/* Passes 5-2 of layer l's attention backwards for sequence s. */
static void backward_heads(struct train_model *m, int l, int s)
{
    const size_t Td = (size_t)m->fwd_len * (size_t)m->cfg.d_model;
    mha_backward_attend(&train_layer_traces(m, l)[s], m->d_merged + (size_t)s * Td,
                        m->d_query + (size_t)s * Td, m->d_key + (size_t)s * Td,
                        m->d_value + (size_t)s * Td, m->work,
                        ahead(m, l, s, m->fwd_size, m->fwd_size * m->fwd_len, m->d_merged, Td));
}

/* Pass 2 of layer l from its start, projection j (q, k, v) over all rows,
 * added to d x_l. */
static void backward_projection(struct train_model *m, int l, int j)
{
    const int rows = m->fwd_size * m->fwd_len, d = m->cfg.d_model;
    const struct mha_params *w = &m->p.attn[l];
    struct mha_params *g = &m->g.attn[l];
    const float *wj[3] = {w->w_q, w->w_k, w->w_v};
    const float *dj[3] = {m->d_query, m->d_key, m->d_value};
    float *gw[3] = {g->w_q, g->w_k, g->w_v}, *gb[3] = {g->b_q, g->b_k, g->b_v};
    mat_linear_backward(layer_x(m, l), wj[j], dj[j], m->d_x, gw[j], gb[j], rows, d, d);
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
    for (int l = 0; l < train_layers(c) && !c->has_bias; l++)
        memset(m->g.attn[l].b_q, 0, 4u * (size_t)d * sizeof(float));
    for (int k = 0; k < c->n_outputs; k++)
        if (!c->outputs[k].has_bias)
            memset(m->g.bias[k], 0, (size_t)c->outputs[k].classes * sizeof(float));
    if (c->variant.kind != TRAIN_VARIANT_STANDARD)
        train_variant_grads(m); /* tied gradients into the free parameters */
}

void train_backward(struct train_model *m, const struct train_batch *b)
{
    backward_start(m);
    for (int k = 0; k < m->cfg.n_outputs; k++)
        backward_readout(m, b, k);
    for (int l = train_layers(&m->cfg) - 1; l >= 0; l--) {
        backward_output(m, l);
        for (int s = 0; s < m->fwd_size; s++)
            backward_heads(m, l, s);
        for (int j = 0; j < 3; j++)
            backward_projection(m, l, j);
    }
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
    /* pass 2: a variant's full matrices made again from its free parameters */
    if (m->cfg.variant.kind != TRAIN_VARIANT_STANDARD)
        train_variant_tie(m);
}

/* The parts of a step in train_step_part's order; in each, i counts the
 * sequences, outputs or projections done, and job->layer says whose. */
enum step_part {
    PART_START,        /* batch check, x, the first layer's projections */
    PART_HEADS,        /* a sequence's heads in a layer */
    PART_OUTPUT,       /* a layer's output projection, its input + a */
    PART_PROJECT,      /* the next layer's projections */
    PART_READOUT,      /* an output's logits, softmax and loss */
    PART_BACK_READOUT, /* an output's gradients (the first zeroes them all) */
    PART_BACK_OUTPUT,  /* a layer's output projection's */
    PART_BACK_HEADS,   /* a sequence's heads' in a layer */
    PART_BACK_PROJECT, /* a projection's in a layer */
    PART_FINISH,       /* the embeddings', Adam, the step counted */
};

/* job moved on to part of layer, from its first piece. */
static void next_part(struct train_step_job *job, enum step_part part, int layer)
{
    job->part = part;
    job->i = 0;
    job->layer = layer;
}

/* Part job->part, its job->i-th piece; moves job on.  1 when the step (or
 * the forward pass, where job->forward_only) is done. */
static int step_piece(struct train_model *m, const struct train_batch *b, float lr,
                      struct train_step_job *job)
{
    const int n_out = m->cfg.n_outputs, top = train_layers(&m->cfg) - 1, l = job->layer;
    switch ((enum step_part)job->part) {
    case PART_START:
        forward_start(m, b);
        next_part(job, PART_HEADS, 0);
        return 0;
    case PART_HEADS:
        forward_heads(m, b, l, job->i);
        if (++job->i == b->size)
            next_part(job, PART_OUTPUT, l);
        return 0;
    case PART_OUTPUT:
        forward_output(m, b, l);
        next_part(job, l < top ? PART_PROJECT : PART_READOUT, l < top ? l + 1 : l);
        return 0;
    case PART_PROJECT:
        forward_project(m, b, l);
        next_part(job, PART_HEADS, l);
        return 0;
    case PART_READOUT:
        forward_readout(m, b, job->i);
        if (++job->i < n_out)
            return 0;
        next_part(job, PART_BACK_READOUT, top);
        return job->forward_only;
    case PART_BACK_READOUT:
        if (job->i == 0)
            backward_start(m);
        backward_readout(m, b, job->i);
        if (++job->i == n_out)
            next_part(job, PART_BACK_OUTPUT, top);
        return 0;
    case PART_BACK_OUTPUT:
        backward_output(m, l);
        next_part(job, PART_BACK_HEADS, l);
        return 0;
    case PART_BACK_HEADS:
        backward_heads(m, l, job->i);
        if (++job->i == m->fwd_size)
            next_part(job, PART_BACK_PROJECT, l);
        return 0;
    case PART_BACK_PROJECT:
        backward_projection(m, l, job->i);
        if (++job->i == 3)
            next_part(job, l > 0 ? PART_BACK_OUTPUT : PART_FINISH, l > 0 ? l - 1 : 0);
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
            next_part(job, PART_START, 0);
            return 1;
        }
        if (more && !more(ctx))
            return 0;
    }
}

float train_step(struct train_model *m, const struct train_batch *b, float lr,
                 struct mha_error *err)
{
    struct train_step_job job = {PART_START, 0, false, 0};
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
