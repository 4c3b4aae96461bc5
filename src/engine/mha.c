/* mha.c - the forward pass, every stage kept in one arena. */
#include "mha.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mat.h"

/* Number of floats of each stage, in arena order. */
struct trace_layout {
    size_t q, k, v, qh, kh, vh, att, context, merged, output;
};

static struct trace_layout layout_of(int lq, int lk, int d_model, int heads)
{
    const size_t d = (size_t)d_model, h = (size_t)heads, d_k = d / h;
    struct trace_layout l = {
        .q = (size_t)lq * d,
        .k = (size_t)lk * d,
        .v = (size_t)lk * d,
        .qh = (size_t)lq * d,
        .kh = (size_t)lk * d,
        .vh = (size_t)lk * d,
        .att = h * (size_t)lq * (size_t)lk,
        .context = h * (size_t)lq * d_k,
        .merged = (size_t)lq * d,
        .output = (size_t)lq * d,
    };
    return l;
}

size_t mha_trace_bytes(int lq, int lk, int d_model, int heads)
{
    if (lq < 1 || lk < 1 || d_model < 1 || heads < 1 || lq > MHA_MAX_TOKENS ||
        lk > MHA_MAX_TOKENS || d_model > MHA_MAX_D_MODEL || heads > d_model)
        return 0;
    struct trace_layout l = layout_of(lq, lk, d_model, heads);
    size_t floats = l.q + l.k + l.v + l.qh + l.kh + l.vh + 3 * l.att + l.context + l.merged +
                    l.output;
    return sizeof(struct mha_trace) + 64 + floats * sizeof(float) + (size_t)lq;
}

struct mha_trace *mha_trace_new(const struct mha_example *ex, struct mha_error *err)
{
    if (mha_check_sizes(ex->lq, ex->lk, ex->d_model, ex->heads, err))
        return NULL;
    const size_t bytes = mha_trace_bytes(ex->lq, ex->lk, ex->d_model, ex->heads);
    if (bytes == 0 || bytes > MHA_MAX_TRACE_BYTES) {
        mha_error_set(err,
                      "this example needs %.1f GiB to keep every stage (the attention maps "
                      "alone are 3 x heads x queries x keys = 3 x %d x %d x %d floats); the "
                      "limit is %.0f GiB: use fewer heads or fewer tokens",
                      (double)bytes / (1u << 30), ex->heads, ex->lq, ex->lk,
                      (double)MHA_MAX_TRACE_BYTES / (1u << 30));
        return NULL;
    }
    char *arena = malloc(bytes);
    if (!arena) {
        mha_error_set(err, "out of memory allocating %zu bytes for the trace", bytes);
        return NULL;
    }
    struct mha_trace *t = (struct mha_trace *)(void *)arena;
    memset(t, 0, sizeof *t);
    t->arena = arena;
    t->arena_bytes = bytes;
    t->lq = ex->lq;
    t->lk = ex->lk;
    t->d_model = ex->d_model;
    t->heads = ex->heads;
    t->d_k = ex->d_model / ex->heads;

    struct trace_layout l = layout_of(ex->lq, ex->lk, ex->d_model, ex->heads);
    size_t off = (sizeof *t + 63u) & ~(size_t)63u;
    float *f = (float *)(void *)(arena + off);
    t->q = f, f += l.q;
    t->k = f, f += l.k;
    t->v = f, f += l.v;
    t->qh = f, f += l.qh;
    t->kh = f, f += l.kh;
    t->vh = f, f += l.vh;
    t->scores = f, f += l.att;
    t->scaled_scores = f, f += l.att;
    t->weights = f, f += l.att;
    t->context = f, f += l.context;
    t->merged = f, f += l.merged;
    t->output = f, f += l.output;
    t->row_empty = (unsigned char *)f;
    return t;
}

void mha_trace_free(struct mha_trace *t)
{
    if (t)
        free(t->arena);
}

/* src (L, H, d_k) -> dst (H, L, d_k) */
static void split_transpose(const float *src, float *dst, int len, int heads, int d_k)
{
    for (int h = 0; h < heads; h++)
        for (int l = 0; l < len; l++)
            memcpy(dst + mha_idx3(len, d_k, h, l, 0),
                   src + ((size_t)l * (size_t)heads + (size_t)h) * (size_t)d_k,
                   (size_t)d_k * sizeof(float));
}

int mha_forward(const struct mha_example *ex, struct mha_trace *t, struct mha_error *err)
{
    /* query: (lq, d), key/value: (lk, d) -> every stage of t */
    if (ex->lq != t->lq || ex->lk != t->lk || ex->d_model != t->d_model ||
        ex->heads != t->heads)
        return mha_error_set(err, "trace was made for other sizes than this example");
    const int lq = t->lq, lk = t->lk, d = t->d_model, h_n = t->heads, d_k = t->d_k;
    t->causal = ex->causal;
    t->scaled = ex->scaled;
    t->scale = ex->scaled ? (float)(1.0 / sqrt((double)d_k)) : 1.0f;

    /* pass 1: projections q = query·W_qᵀ + b_q, and the same for k and v */
    mat_linear(ex->query, ex->w_q, ex->b_q, t->q, lq, d, d);
    mat_linear(ex->key, ex->w_k, ex->b_k, t->k, lk, d, d);
    mat_linear(ex->value, ex->w_v, ex->b_v, t->v, lk, d, d);

    /* pass 2 and 3: split (a view of q, k, v) and transpose to (H, L, d_k) */
    split_transpose(t->q, t->qh, lq, h_n, d_k);
    split_transpose(t->k, t->kh, lk, h_n, d_k);
    split_transpose(t->v, t->vh, lk, h_n, d_k);

    /* pass 4: per head, scores = qh·khᵀ, scaled and masked, softmax, context */
    t->empty_rows = 0;
    memset(t->row_empty, 0, (size_t)lq);
    const size_t att = (size_t)lq * (size_t)lk;
    for (int h = 0; h < h_n; h++) {
        const float *qh = t->qh + mha_idx3(lq, d_k, h, 0, 0);
        const float *kh = t->kh + mha_idx3(lk, d_k, h, 0, 0);
        const float *vh = t->vh + mha_idx3(lk, d_k, h, 0, 0);
        float *scores = t->scores + (size_t)h * att;
        float *scaled = t->scaled_scores + (size_t)h * att;
        float *weights = t->weights + (size_t)h * att;
        mat_mul(qh, kh, scores, lq, lk, d_k, true);
        for (int i = 0; i < lq; i++) {
            /* the same rule as mha_is_masked, read row by row: the explicit
             * mask, and with causal every key after i */
            const size_t row0 = (size_t)i * (size_t)lk;
            const unsigned char *keep = ex->mask + row0;
            const int visible = ex->causal && i + 1 < lk ? i + 1 : lk;
            for (int j = 0; j < lk; j++)
                scaled[row0 + (size_t)j] =
                    j < visible && keep[j] ? scores[row0 + (size_t)j] * t->scale : -INFINITY;
            float *row = weights + row0;
            memcpy(row, scaled + row0, (size_t)lk * sizeof *row);
            if (!mat_softmax_row(row, lk) && !t->row_empty[i]) {
                t->row_empty[i] = 1;
                t->empty_rows++;
            }
        }
        mat_mul(weights, vh, t->context + mha_idx3(lq, d_k, h, 0, 0), lq, d_k, lk, false);
    }

    /* pass 5: merge (H, lq, d_k) -> (lq, H·d_k) */
    for (int i = 0; i < lq; i++)
        for (int h = 0; h < h_n; h++)
            memcpy(t->merged + (size_t)i * (size_t)d + (size_t)h * (size_t)d_k,
                   t->context + mha_idx3(lq, d_k, h, i, 0), (size_t)d_k * sizeof(float));

    /* pass 6: output = merged·W_oᵀ + b_o */
    mat_linear(t->merged, ex->w_o, ex->b_o, t->output, lq, d, d);
    return 0;
}

struct mha_trace *mha_run(const struct mha_example *ex, struct mha_error *err)
{
    struct mha_trace *t = mha_trace_new(ex, err);
    if (t && mha_forward(ex, t, err)) {
        mha_trace_free(t);
        return NULL;
    }
    return t;
}
