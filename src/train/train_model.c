/* train_model.c - the trainable model's memory: one arena for the four
 * parameter-shaped blocks, the labels, the activation cache and the backward
 * scratch; its initialisation; the sample sequence and the explorer's
 * example of it. */
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"

static atomic_long models_built; /* train_models_built */

long train_models_built(void)
{
    return atomic_load(&models_built);
}

static size_t align_up(size_t n)
{
    return (n + 63u) & ~(size_t)63u;
}

int train_config_check(const struct train_config *cfg, struct mha_error *err)
{
    if (cfg->d_model < 1 || cfg->d_model > TRAIN_MAX_D_MODEL)
        return mha_error_set(err, "d_model %d: must be between 1 and %d", cfg->d_model,
                             TRAIN_MAX_D_MODEL);
    if (cfg->heads < 1 || cfg->heads > cfg->d_model || cfg->d_model % cfg->heads)
        return mha_check_sizes(1, 1, cfg->d_model, cfg->heads, err)
                   ? -1
                   : mha_error_set(err, "heads %d: must divide d_model %d", cfg->heads,
                                   cfg->d_model);
    if (cfg->vocab < 2 || cfg->vocab > TRAIN_MAX_VOCAB)
        return mha_error_set(err, "vocab %d: the vocabulary must have 2 to %d tokens", cfg->vocab,
                             TRAIN_MAX_VOCAB);
    if (cfg->context < 1 || cfg->context > TRAIN_MAX_CONTEXT)
        return mha_error_set(err, "context %d: must be between 1 and %d", cfg->context,
                             TRAIN_MAX_CONTEXT);
    if (cfg->layers < 0 || cfg->layers > TRAIN_MAX_LAYERS)
        return mha_error_set(err, "layers %d: a model has 1 to %d layers", cfg->layers,
                             TRAIN_MAX_LAYERS);
    if (train_variant_check(&cfg->variant, cfg->d_model, cfg->heads, err))
        return -1;
    if (cfg->n_outputs < 1 || cfg->n_outputs > TRAIN_MAX_OUTPUTS)
        return mha_error_set(err, "outputs: a model has 1 to %d outputs, not %d", TRAIN_MAX_OUTPUTS,
                             cfg->n_outputs);
    for (int k = 0; k < cfg->n_outputs; k++) {
        const struct train_output_spec *o = &cfg->outputs[k];
        if (!o->name[0])
            return mha_error_set(err, "outputs[%d]: the output has no name", k);
        for (int j = 0; j < k; j++)
            if (!strcmp(cfg->outputs[j].name, o->name))
                return mha_error_set(err, "outputs[%d]: the name '%s' is used twice", k, o->name);
        if (o->classes < 2 || o->classes > TRAIN_MAX_VOCAB)
            return mha_error_set(err, "outputs[%d] (%s): classes %d must be between 2 and %d", k,
                                 o->name, o->classes, TRAIN_MAX_VOCAB);
    }
    return 0;
}

size_t train_param_count(const struct train_config *cfg)
{
    if (train_config_check(cfg, NULL))
        return 0;
    const size_t d = (size_t)cfg->d_model;
    size_t n = ((size_t)cfg->vocab + (size_t)cfg->context) * d +
               (size_t)train_layers(cfg) * mha_params_count(cfg->d_model);
    for (int k = 0; k < cfg->n_outputs; k++)
        n += (size_t)cfg->outputs[k].classes * (d + 1);
    return n + (size_t)train_layers(cfg) * train_variant_factor_floats(&cfg->variant, cfg->d_model);
}

void train_tensors_point(struct train_tensors *t, float *f, const struct train_config *cfg)
{
    const size_t d = (size_t)cfg->d_model;
    memset(t, 0, sizeof *t);
    t->embedding = f, f += (size_t)cfg->vocab * d;
    t->positions = f, f += (size_t)cfg->context * d;
    for (int l = 0; l < train_layers(cfg); l++) {
        mha_params_point(&t->attn[l], f, cfg->d_model);
        f += mha_params_count(cfg->d_model);
    }
    for (int k = 0; k < cfg->n_outputs; k++) {
        const size_t c = (size_t)cfg->outputs[k].classes;
        t->unembed[k] = f, f += c * d;
        t->bias[k] = f, f += c;
    }
    const size_t r = (size_t)cfg->variant.n;
    for (int l = 0; l < train_layers(cfg); l++)
        for (int i = 0; i < train_variant_factored(&cfg->variant); i++) {
            t->factor_a[l][i] = f, f += d * r;
            t->factor_b[l][i] = f, f += r * d;
        }
}

/* Bytes of each part of the arena, in order. */
struct model_layout {
    size_t head, blocks, labels, acts, traces, trace_mem, flags, scratch, sample, total;
};

static struct model_layout model_layout_of(const struct train_config *cfg, size_t n_params, int cap)
{
    const size_t T = (size_t)cfg->context, d = (size_t)cfg->d_model, B = (size_t)cap;
    const size_t L = (size_t)train_layers(cfg);
    size_t probs = 0;
    for (int k = 0; k < cfg->n_outputs; k++)
        probs += B * T * (size_t)cfg->outputs[k].classes;
    const size_t tf = mha_trace_floats(cfg->context, cfg->context, cfg->d_model, cfg->heads);
    struct model_layout l;
    l.head = align_up(sizeof(struct train_model));
    l.blocks = 4 * align_up(n_params * sizeof(float));
    l.labels = align_up((size_t)cfg->vocab * TRAIN_LABEL_MAX);
    l.acts = align_up(((L + 1) * B * T * d + probs) * sizeof(float));
    l.traces = align_up((L * B + 1) * sizeof(struct mha_trace));
    l.trace_mem = (L * B + 1) * align_up(tf * sizeof(float));
    l.flags = (L * B + 1) * align_up(T);
    int c_max = 0;
    for (int k = 0; k < cfg->n_outputs; k++)
        c_max = cfg->outputs[k].classes > c_max ? cfg->outputs[k].classes : c_max;
    l.scratch =
        align_up((6 * B * T * d + B * T * (size_t)c_max +
                  mha_backward_work_floats(cfg->context, cfg->context, cfg->d_model, cfg->heads)) *
                 sizeof(float));
    l.sample = align_up(T * d * sizeof(float));
    l.total = l.head + l.blocks + l.labels + l.acts + l.traces + l.trace_mem + l.flags + l.scratch +
              l.sample;
    return l;
}

/* Trace slots: B a layer, then the sample's. */
static size_t trace_slots(const struct train_model *m)
{
    return (size_t)train_layers(&m->cfg) * (size_t)m->batch_cap + 1;
}

/* The memory behind the trace structs: every slot's floats, then its flags. */
static char *trace_memory(const struct train_model *m)
{
    char *mem = (char *)(void *)(m->traces + trace_slots(m));
    return (char *)m->arena + align_up((size_t)(mem - (char *)m->arena));
}

/* Point trace slot i (0..slots - 1; the last is the sample's) at its memory
 * for len. */
static void point_trace(struct train_model *m, struct mha_trace *t, size_t i, int len)
{
    const struct train_config *c = &m->cfg;
    const size_t tf = mha_trace_floats(c->context, c->context, c->d_model, c->heads);
    char *mem = trace_memory(m);
    float *floats = (float *)(void *)(mem + i * align_up(tf * sizeof(float)));
    unsigned char *flags = (unsigned char *)(mem + trace_slots(m) * align_up(tf * sizeof(float)) +
                                             i * align_up((size_t)c->context));
    mha_trace_point(t, floats, flags, len, len, c->d_model, c->heads);
}

/* Point layer's traces of the batch at sequences of len tokens, packed
 * tensor by tensor (see train.h), in the memory of its B slots. */
static void point_layer_traces(struct train_model *m, int layer, int len)
{
    const struct train_config *c = &m->cfg;
    const size_t B = (size_t)m->batch_cap, L = (size_t)len, d = (size_t)c->d_model;
    const size_t att = (size_t)c->heads * L * L, first = (size_t)layer * B;
    char *mem = trace_memory(m);
    const size_t tf = mha_trace_floats(c->context, c->context, c->d_model, c->heads);
    unsigned char *flags = (unsigned char *)(mem + trace_slots(m) * align_up(tf * sizeof(float))) +
                           first * align_up((size_t)c->context);
    float *f = (float *)(void *)(mem + first * align_up(tf * sizeof(float)));
    float *q = f, *k = q + B * L * d, *v = k + B * L * d, *qh = v + B * L * d;
    float *kh = qh + B * L * d, *vh = kh + B * L * d, *sc = vh + B * L * d;
    float *ssc = sc + B * att, *w = ssc + B * att, *ctx = w + B * att;
    float *merged = ctx + B * L * d, *out = merged + B * L * d;
    for (size_t s = 0; s < B; s++) {
        struct mha_trace *t = &m->traces[first + s];
        /* the sizes and any pointers, then every tensor moved to its place */
        mha_trace_point(t, f, flags, len, len, c->d_model, c->heads);
        t->q = q + s * L * d;
        t->k = k + s * L * d;
        t->v = v + s * L * d;
        t->qh = qh + s * L * d;
        t->kh = kh + s * L * d;
        t->vh = vh + s * L * d;
        t->scores = sc + s * att;
        t->scaled_scores = ssc + s * att;
        t->weights = w + s * att;
        t->context = ctx + s * L * d;
        t->merged = merged + s * L * d;
        t->output = out + s * L * d;
        t->row_empty = flags + s * align_up((size_t)c->context);
    }
}

/* Point every layer's traces of the batch at sequences of len tokens. */
void train_model_point_traces(struct train_model *m, int len);
void train_model_point_traces(struct train_model *m, int len)
{
    for (int l = 0; l < train_layers(&m->cfg); l++)
        point_layer_traces(m, l, len);
    m->fwd_len = len;
}

struct train_model *train_model_new(const struct train_config *cfg, int batch_cap,
                                    struct mha_error *err)
{
    if (train_config_check(cfg, err))
        return NULL;
    if (batch_cap < 1 || batch_cap > TRAIN_MAX_BATCH) {
        mha_error_set(err, "batch %d: must be between 1 and %d sequences", batch_cap,
                      TRAIN_MAX_BATCH);
        return NULL;
    }
    const size_t n = train_param_count(cfg);
    const struct model_layout l = model_layout_of(cfg, n, batch_cap);
    if (l.total > TRAIN_MAX_MODEL_BYTES) {
        mha_error_set(err,
                      "a batch of %d sequences of %d tokens at d_model %d needs %.1f GiB to keep "
                      "every activation; the limit is %.0f GiB: use a smaller batch, context "
                      "or d_model",
                      batch_cap, cfg->context, cfg->d_model, (double)l.total / (1u << 30),
                      (double)TRAIN_MAX_MODEL_BYTES / (1u << 30));
        return NULL;
    }
    char *arena = mha_arena_alloc(l.total);
    if (!arena) {
        mha_error_set(err, "out of memory allocating %zu bytes for the model", l.total);
        return NULL;
    }
    memset(arena, 0, l.total);
    struct train_model *m = (struct train_model *)(void *)arena;
    m->arena = arena;
    m->cfg = *cfg;
    m->cfg.layers = train_layers(cfg); /* 0 is read as 1: said once, here */
    m->n_params = n;
    m->batch_cap = batch_cap;
    char *p = arena + l.head;
    const size_t blk = align_up(n * sizeof(float));
    m->params = (float *)(void *)p;
    m->grads = (float *)(void *)(p + blk);
    m->adam_m = (float *)(void *)(p + 2 * blk);
    m->adam_v = (float *)(void *)(p + 3 * blk);
    train_tensors_point(&m->p, m->params, cfg);
    train_tensors_point(&m->g, m->grads, cfg);
    train_tensors_point(&m->m, m->adam_m, cfg);
    train_tensors_point(&m->v, m->adam_v, cfg);
    p += l.blocks;
    m->vocab_names = (char(*)[TRAIN_LABEL_MAX])(void *)p;
    /* labels: letters while they last, then t26, t27, ... */
    for (int i = 0; i < cfg->vocab; i++)
        if (cfg->vocab <= 26)
            snprintf(m->vocab_names[i], TRAIN_LABEL_MAX, "%c", 'A' + i);
        else
            snprintf(m->vocab_names[i], TRAIN_LABEL_MAX, "t%d", i);
    p += l.labels;

    const size_t T = (size_t)cfg->context, d = (size_t)cfg->d_model, B = (size_t)batch_cap;
    float *f = (float *)(void *)p;
    m->x = f, f += (size_t)train_layers(cfg) * B * T * d;
    m->r = f, f += B * T * d;
    for (int k = 0; k < cfg->n_outputs; k++)
        m->probs[k] = f, f += B * T * (size_t)cfg->outputs[k].classes;
    p += l.acts;
    m->traces = (struct mha_trace *)(void *)p;
    p += l.traces + l.trace_mem + l.flags;
    f = (float *)(void *)p;
    m->d_r = f, f += B * T * d;
    m->d_x = f, f += B * T * d;
    m->d_query = f, f += B * T * d;
    m->d_key = f, f += B * T * d;
    m->d_value = f, f += B * T * d;
    m->d_merged = f, f += B * T * d;
    m->d_logits = f;
    size_t c_max = 0;
    for (int k = 0; k < cfg->n_outputs; k++)
        if ((size_t)cfg->outputs[k].classes > c_max)
            c_max = (size_t)cfg->outputs[k].classes;
    m->work = m->d_logits + B * T * c_max; /* d_logits: (B, T, largest C) */
    p += l.scratch;
    m->sample_x = (float *)(void *)p;
    m->sample_trace = &m->traces[trace_slots(m) - 1];
    m->shown_layer = train_layers(cfg) - 1;
    train_model_point_traces(m, cfg->context);
    point_trace(m, m->sample_trace, trace_slots(m) - 1, cfg->context);
    atomic_fetch_add(&models_built, 1);
    return m;
}

void train_model_free(struct train_model *m)
{
    if (m)
        free(m->arena);
}

/* A standard normal draw (Box-Muller on two mulberry32 numbers). */
static float normal(struct rng *r)
{
    const double u1 = 1.0 - rng_next(r), u2 = rng_next(r);
    return (float)(sqrt(-2.0 * log(u1)) * cos(6.283185307179586 * u2));
}

static void fill_uniform(float *w, size_t n, float bound, struct rng *r)
{
    for (size_t i = 0; i < n; i++)
        w[i] = (float)rng_uniform(r, -bound, bound);
}

void train_model_init(struct train_model *m, uint32_t seed)
{
    const struct train_config *c = &m->cfg;
    const size_t d = (size_t)c->d_model;
    struct rng r;
    rng_init(&r, seed);
    memset(m->params, 0, m->n_params * sizeof(float));
    memset(m->grads, 0, m->n_params * sizeof(float));
    memset(m->adam_m, 0, m->n_params * sizeof(float));
    memset(m->adam_v, 0, m->n_params * sizeof(float));
    m->adam_t = 0;
    m->step = 0;
    /* pass 1: embedding and positions N(0, 1), as nn.Embedding */
    for (size_t i = 0; i < (size_t)c->vocab * d; i++)
        m->p.embedding[i] = normal(&r);
    for (size_t i = 0; i < (size_t)c->context * d; i++)
        m->p.positions[i] = normal(&r);
    /* pass 2: weights uniform in ±1/sqrt(fan_in), as nn.Linear; biases 0 */
    const float bound = (float)(1.0 / sqrt((double)d));
    for (int l = 0; l < train_layers(c); l++) {
        fill_uniform(m->p.attn[l].w_q, d * d, bound, &r);
        fill_uniform(m->p.attn[l].w_k, d * d, bound, &r);
        fill_uniform(m->p.attn[l].w_v, d * d, bound, &r);
        fill_uniform(m->p.attn[l].w_o, d * d, bound, &r);
    }
    for (int k = 0; k < c->n_outputs; k++)
        fill_uniform(m->p.unembed[k], (size_t)c->outputs[k].classes * d, bound, &r);
    if (c->variant.kind == TRAIN_VARIANT_STANDARD)
        return;
    /* pass 3: a variant's factors, B (d -> R) and A (R -> d) each as an
     * nn.Linear of its fan-in; then the full matrices made from them */
    const size_t rank = (size_t)c->variant.n;
    for (int l = 0; l < train_layers(c); l++)
        for (int i = 0; i < train_variant_factored(&c->variant); i++) {
            fill_uniform(m->p.factor_a[l][i], d * rank, (float)(1.0 / sqrt((double)rank)), &r);
            fill_uniform(m->p.factor_b[l][i], rank * d, bound, &r);
        }
    train_variant_tie(m);
}

int train_model_copy_params(struct train_model *dst, const struct train_model *src,
                            struct mha_error *err)
{
    if (dst->n_params != src->n_params || memcmp(&dst->cfg, &src->cfg, sizeof dst->cfg))
        return mha_error_set(err, "the two models have different sizes");
    memcpy(dst->params, src->params, src->n_params * sizeof(float));
    memcpy(dst->vocab_names, src->vocab_names, (size_t)src->cfg.vocab * TRAIN_LABEL_MAX);
    memcpy(dst->task, src->task, sizeof dst->task);
    dst->words = src->words;
    memcpy(dst->sample, src->sample, sizeof dst->sample);
    dst->sample_len = src->sample_len;
    dst->shown_layer = src->shown_layer;
    dst->step = src->step;
    return 0;
}

int train_model_set_sample(struct train_model *m, const int *tokens, int len, struct mha_error *err)
{
    if (len < 1 || len > m->cfg.context)
        return mha_error_set(err, "sample: %d tokens, the model takes 1 to %d (context)", len,
                             m->cfg.context);
    for (int t = 0; t < len; t++)
        if (tokens[t] < 0 || tokens[t] >= m->cfg.vocab)
            return mha_error_set(err, "sample[%d]: token id %d is not in the vocabulary 0..%d", t,
                                 tokens[t], m->cfg.vocab - 1);
    memcpy(m->sample, tokens, (size_t)len * sizeof *tokens);
    m->sample_len = len;
    return 0;
}

/* x (len, d) = embedding[tokens] + positions[:len] */
void train_embed(const struct train_model *m, const int *tokens, int len, float *x);
void train_embed(const struct train_model *m, const int *tokens, int len, float *x)
{
    const size_t d = (size_t)m->cfg.d_model;
    for (int t = 0; t < len; t++) {
        const float *e = m->p.embedding + (size_t)tokens[t] * d;
        const float *pos = m->p.positions + (size_t)t * d;
        float *xt = x + (size_t)t * d;
        for (size_t j = 0; j < d; j++)
            xt[j] = e[j] + pos[j];
    }
}

int train_model_sample_forward(struct train_model *m, struct mha_error *err)
{
    if (m->sample_len < 1)
        return mha_error_set(err, "the model has no sample sequence");
    const int len = m->sample_len;
    const size_t n = (size_t)len * (size_t)m->cfg.d_model;
    point_trace(m, m->sample_trace, trace_slots(m) - 1, len);
    train_embed(m, m->sample, len, m->sample_x);
    /* the layers below the shown one, each adding its output to the input */
    for (int l = 0; l <= m->shown_layer; l++) {
        mha_forward_seq(m->sample_x, m->sample_x, m->sample_x, &m->p.attn[l], NULL, m->cfg.causal,
                        m->cfg.scaled, m->sample_trace);
        if (l < m->shown_layer)
            for (size_t i = 0; i < n; i++)
                m->sample_x[i] += m->sample_trace->output[i];
    }
    return 0;
}

int train_model_show_layer(struct train_model *m, int layer, struct mha_error *err)
{
    const int L = train_layers(&m->cfg);
    if (layer < 0 || layer >= L)
        return mha_error_set(err, "layer %d: the model has %s %d", layer,
                             L == 1 ? "only layer" : "layers 0 to", L - 1);
    m->shown_layer = layer;
    return 0;
}

const float *train_head_weights(const struct train_model *m, int h)
{
    if (h < 0 || h >= m->cfg.heads || m->sample_len < 1 || m->sample_trace->lq != m->sample_len)
        return NULL;
    const size_t L = (size_t)m->sample_len;
    return m->sample_trace->weights + (size_t)h * L * L;
}

int train_model_fill_example(const struct train_model *m, struct mha_example *ex,
                             struct mha_error *err)
{
    const int len = m->sample_len;
    if (len < 1)
        return mha_error_set(err, "the model has no sample sequence to show");
    if (ex->lq != len || ex->lk != len || ex->cross || ex->d_model != m->cfg.d_model ||
        ex->heads != m->cfg.heads)
        return mha_error_set(err, "the example has other sizes than the model's sample");
    const size_t d = (size_t)m->cfg.d_model;
    if (m->shown_layer == 0)
        train_embed(m, m->sample, len, ex->query);
    else if (m->sample_trace->lq == len)
        memcpy(ex->query, m->sample_x, (size_t)len * d * sizeof(float));
    else
        return mha_error_set(err, "layer %d's input needs the sample forwarded first",
                             m->shown_layer);
    memcpy(ex->key, ex->query, (size_t)len * d * sizeof(float));
    memcpy(ex->value, ex->query, (size_t)len * d * sizeof(float));
    memcpy(ex->w_q, m->p.attn[m->shown_layer].w_q,
           mha_params_count(m->cfg.d_model) * sizeof(float));
    ex->causal = m->cfg.causal;
    ex->scaled = m->cfg.scaled;
    ex->has_bias = m->cfg.has_bias;
    ex->has_mask = false;
    memset(ex->mask, 1, (size_t)len * (size_t)len);
    ex->layers = train_layers(&m->cfg);
    ex->layer = m->shown_layer;
    return 0;
}

struct mha_example *train_model_to_example(const struct train_model *m, struct mha_error *err)
{
    if (m->sample_len < 1) {
        mha_error_set(err, "the model has no sample sequence to show");
        return NULL;
    }
    struct mha_example *ex =
        mha_example_new(m->sample_len, m->sample_len, m->cfg.d_model, m->cfg.heads, false, err);
    if (!ex)
        return NULL;
    for (int t = 0; t < m->sample_len; t++)
        if (mha_example_set_token(ex, false, t, m->vocab_names[m->sample[t]])) {
            mha_error_set(err, "out of memory labelling the example");
            mha_example_free(ex);
            return NULL;
        }
    train_model_fill_example(m, ex, err);
    return ex;
}
