/* mha_backward.c - the backward twin of mha_forward_seq.  It reads the
 * forward pass's trace (every stage kept, as llm.c keeps preatt and att)
 * and walks the passes in reverse, 6 down to 1. */
#include <string.h>

#include "engine/mat.h"
#include "engine/mha.h"
#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"

/* Scratch floats of each gradient, in work order. */
struct back_layout {
    size_t dq, dk, dv, d_merged, d_ctx, d_qh, d_kh, d_vh, d_row, d_att;
};

static struct back_layout back_layout_of(int lq, int lk, int d_model, int heads)
{
    const size_t d = (size_t)d_model;
    struct back_layout l = {
        .dq = (size_t)lq * d,
        .dk = (size_t)lk * d,
        .dv = (size_t)lk * d,
        .d_merged = (size_t)lq * d,
        .d_ctx = (size_t)lq * d,
        .d_qh = (size_t)lq * d,
        .d_kh = (size_t)lk * d,
        .d_vh = (size_t)lk * d,
        .d_row = (size_t)lk,
        .d_att = (size_t)lq * (size_t)lk,
    };
    (void)heads;
    return l;
}

size_t mha_backward_work_floats(int lq, int lk, int d_model, int heads)
{
    struct back_layout l = back_layout_of(lq, lk, d_model, heads);
    return l.dq + l.dk + l.dv + l.d_merged + l.d_ctx + l.d_qh + l.d_kh + l.d_vh + l.d_row + l.d_att;
}

/* dst (L, H·d_k) = src (H, L, d_k) moved back: the twin of split_transpose */
static void merge_heads(const float *src, float *dst, int len, int heads, int d_k)
{
    for (int h = 0; h < heads; h++)
        for (int l = 0; l < len; l++)
            mat_copy(dst + ((size_t)l * (size_t)heads + (size_t)h) * (size_t)d_k,
                     src + mha_idx3(len, d_k, h, l, 0), d_k);
}

void mha_backward_attend(const struct mha_trace *t, const float *d_merged, float *dq, float *dk,
                         float *dv, float *work, struct mha_next next)
{
    /* d_merged: (lq, d) -> dq (lq, d), dk, dv (lk, d), the projections' gradients */
    const int lq = t->lq, lk = t->lk, d = t->d_model, h_n = t->heads, d_k = t->d_k;
    const struct back_layout l = back_layout_of(lq, lk, d, h_n);
    float *d_ctx = work;
    float *d_qh = d_ctx + l.d_ctx;
    float *d_kh = d_qh + l.d_qh;
    float *d_vh = d_kh + l.d_kh;
    float *d_row = d_vh + l.d_vh;
    float *d_att = d_row + l.d_row;

    const size_t att = (size_t)lq * (size_t)lk;
    if (mha_rows_fit(lk, d_k)) {
        /* passes 5 to 2 for heads whose keys fit in a few vector registers:
         * a row at a time, each head's columns of q, k, v and d_merged read
         * and of dq, dk, dv written where they lie (no split, no merge) */
        for (int h = 0; h < h_n; h++) {
            mha_prefetch_share(next, h);
            const struct mha_rows_head hd = mha_rows_head_in_place(t, h);
            const size_t col = (size_t)h * (size_t)d_k;
            if (h + 1 < h_n) { /* two heads at once where they fit */
                const struct mha_rows_head next_hd = mha_rows_head_in_place(t, h + 1);
                if (mha_rows_pair_fits(&hd, &next_hd)) {
                    mha_prefetch_share(next, ++h);
                    mha_rows_backward_pair(&hd, &next_hd, t->scale, d_merged + col, (size_t)d,
                                           dq + col, dk + col, dv + col);
                    continue;
                }
            }
            mha_rows_backward(&hd, t->causal, t->scale, d_merged + col, (size_t)d, dq + col,
                              dk + col, dv + col);
        }
        return;
    }
    /* pass 5: merge was (H, lq, d_k) -> (lq, d); split the gradient back */
    for (int h = 0; h < h_n; h++)
        for (int i = 0; i < lq; i++)
            mat_copy(d_ctx + mha_idx3(lq, d_k, h, i, 0),
                     d_merged + (size_t)i * (size_t)d + (size_t)h * (size_t)d_k, d_k);

    /* pass 4: per head, context = weights·vh, weights = softmax(scaled),
     * scaled = scores·scale (masked entries have weight 0: no gradient),
     * scores = qh·khᵀ */
    memset(d_qh, 0, l.d_qh * sizeof(float));
    memset(d_kh, 0, l.d_kh * sizeof(float));
    memset(d_vh, 0, l.d_vh * sizeof(float));
    for (int h = 0; h < h_n; h++) {
        const float *qh = t->qh + mha_idx3(lq, d_k, h, 0, 0);
        const float *kh = t->kh + mha_idx3(lk, d_k, h, 0, 0);
        const float *vh = t->vh + mha_idx3(lk, d_k, h, 0, 0);
        const float *weights = t->weights + (size_t)h * att;
        const float *dc = d_ctx + mha_idx3(lq, d_k, h, 0, 0);
        memset(d_att, 0, l.d_att * sizeof(float));
        mat_mul_backward(weights, vh, dc, d_att, d_vh + mha_idx3(lk, d_k, h, 0, 0), lq, d_k, lk,
                         false);
        for (int i = 0; i < lq; i++) {
            float *row = d_att + (size_t)i * (size_t)lk;
            mat_softmax_row_backward(weights + (size_t)i * (size_t)lk, row, d_row, lk);
            for (int j = 0; j < lk; j++)
                row[j] = d_row[j] * t->scale;
        }
        mat_mul_backward(qh, kh, d_att, d_qh + mha_idx3(lq, d_k, h, 0, 0),
                         d_kh + mha_idx3(lk, d_k, h, 0, 0), lq, lk, d_k, true);
    }

    /* pass 3 and 2: transpose (H, L, d_k) back to (L, H, d_k), a view of (L, d) */
    merge_heads(d_qh, dq, lq, h_n, d_k);
    merge_heads(d_kh, dk, lk, h_n, d_k);
    merge_heads(d_vh, dv, lk, h_n, d_k);
}

void mha_backward(const float *query, const float *key, const float *value,
                  const struct mha_params *w, const struct mha_trace *t, const float *d_output,
                  struct mha_params *g, float *d_query, float *d_key, float *d_value, float *work)
{
    /* d_output: (lq, d) -> g += d params; d_query (lq, d), d_key, d_value (lk, d) */
    const int lq = t->lq, lk = t->lk, d = t->d_model;
    const struct back_layout l = back_layout_of(lq, lk, d, t->heads);
    float *dq = work + (l.d_ctx + l.d_qh + l.d_kh + l.d_vh + l.d_row + l.d_att);
    float *dk = dq + l.dq;
    float *dv = dk + l.dk;
    float *d_merged = dv + l.dv;

    /* pass 6: output = merged·W_oᵀ + b_o */
    memset(d_merged, 0, l.d_merged * sizeof(float));
    mat_linear_backward(t->merged, w->w_o, d_output, d_merged, g->w_o, g->b_o, lq, d, d);

    /* passes 5 to 2 */
    mha_backward_attend(t, d_merged, dq, dk, dv, work, (struct mha_next){NULL, NULL});

    /* pass 1: q = query·W_qᵀ + b_q, and the same for k and v */
    memset(d_query, 0, (size_t)lq * (size_t)d * sizeof(float));
    memset(d_key, 0, (size_t)lk * (size_t)d * sizeof(float));
    memset(d_value, 0, (size_t)lk * (size_t)d * sizeof(float));
    mat_linear_backward(query, w->w_q, dq, d_query, g->w_q, g->b_q, lq, d, d);
    mat_linear_backward(key, w->w_k, dk, d_key, g->w_k, g->b_k, lk, d, d);
    mat_linear_backward(value, w->w_v, dv, d_value, g->w_v, g->b_v, lk, d, d);
}
