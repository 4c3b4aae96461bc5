/* mha_rows.h - pass 4 of the attention (scores, scaled scores, softmax,
 * context) and its backward twin for one head, a query row at a time in
 * vector registers, for heads with at most MHA_ROWS_MAX_KEYS keys and
 * MHA_ROWS_MAX_DK columns (engine-internal; mha.c and mha_backward.c call
 * it and take the matrix-multiply path for larger heads).  Built where the
 * compiler has vector types (GCC, Clang): MHA_HAVE_ROWS. */
#ifndef MHA_ROWS_H
#define MHA_ROWS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha.h"

#include "engine/mat_kernel.h"

#define MHA_HAVE_ROWS MAT_HAVE_VECTORS

#define MHA_ROWS_MAX_KEYS 64
#define MHA_ROWS_MAX_DK 64

/* One head's tensors in a trace: qh (lq, d_k), kh and vh (lk, d_k), and
 * its rows of scores, scaled scores and weights (lq, lk) and context
 * (lq, d_k).  Rows of qh, kh, vh and context are ld_* floats apart: d_k
 * for the (H, L, d_k) views, d_model for the head's columns of the (L, d)
 * matrices themselves.  scores and scaled may be NULL (not kept). */
struct mha_rows_head {
    int lq, lk, d_k;
    size_t ld_q, ld_k, ld_v, ld_ctx;
    const float *qh, *kh, *vh;
    float *scores, *scaled, *weights, *context;
};

/* Head h of trace t: its (H, L, d_k) views, every stage kept. */
static inline struct mha_rows_head mha_rows_head_of(const struct mha_trace *t, int h)
{
    const size_t att = (size_t)t->lq * (size_t)t->lk, dk = (size_t)t->d_k;
    const struct mha_rows_head hd = {
        .lq = t->lq,
        .lk = t->lk,
        .d_k = t->d_k,
        .ld_q = dk,
        .ld_k = dk,
        .ld_v = dk,
        .ld_ctx = dk,
        .qh = t->qh + mha_idx3(t->lq, t->d_k, h, 0, 0),
        .kh = t->kh + mha_idx3(t->lk, t->d_k, h, 0, 0),
        .vh = t->vh + mha_idx3(t->lk, t->d_k, h, 0, 0),
        .scores = t->scores + (size_t)h * att,
        .scaled = t->scaled_scores + (size_t)h * att,
        .weights = t->weights + (size_t)h * att,
        .context = t->context + mha_idx3(t->lq, t->d_k, h, 0, 0),
    };
    return hd;
}

/* Head h of trace t read where it lies: its columns of q, k and v, its
 * context written straight into its columns of merged, only its weights
 * kept (training needs no more: the same sums, without the copies). */
static inline struct mha_rows_head mha_rows_head_in_place(const struct mha_trace *t, int h)
{
    const size_t att = (size_t)t->lq * (size_t)t->lk, d = (size_t)t->d_model;
    const size_t col = (size_t)h * (size_t)t->d_k;
    const struct mha_rows_head hd = {
        .lq = t->lq,
        .lk = t->lk,
        .d_k = t->d_k,
        .ld_q = d,
        .ld_k = d,
        .ld_v = d,
        .ld_ctx = d,
        .qh = t->q + col,
        .kh = t->k + col,
        .vh = t->v + col,
        .weights = t->weights + (size_t)h * att,
        .context = t->merged + col,
    };
    return hd;
}

/* True when mha_rows_* take a head of these sizes. */
static inline bool mha_rows_fit(int lk, int d_k)
{
    return MHA_HAVE_ROWS && lk <= MHA_ROWS_MAX_KEYS && d_k <= MHA_ROWS_MAX_DK;
}

/* The head's arrays checked where a kernel starts (MAT_REGION, a sanitizer
 * build's unchecked kernels): its queries, keys and values, the scores
 * kept (if any), the weights and, forward, the context. */
static inline void mha_rows_regions(const struct mha_rows_head *hd, bool forward)
{
    const size_t lq = (size_t)hd->lq, lk = (size_t)hd->lk, dk = (size_t)hd->d_k;
    MAT_REGION("head q", hd->qh, lq, hd->ld_q, dk);
    MAT_REGION("head k", hd->kh, lk, hd->ld_k, dk);
    MAT_REGION("head v", hd->vh, lk, hd->ld_v, dk);
    if (hd->scores) {
        MAT_REGION("head scores", hd->scores, lq, lk, lk);
        MAT_REGION("head scaled", hd->scaled, lq, lk, lk);
    }
    MAT_REGION("head weights", hd->weights, lq, lk, lk);
    if (forward)
        MAT_REGION("head context", hd->context, lq, hd->ld_ctx, dk);
}

/* Scores, scaled scores (masked = -INFINITY; each kept where not NULL),
 * weights (masked = 0) and context of the head, as mha_forward_attend defines them; sets
 * row_empty[i] for a row with no key left (its weights and context 0) and
 * returns how many rows it marked (a row another head marked already is
 * not counted again). */
int mha_rows_attend(const struct mha_rows_head *hd, const unsigned char *mask, bool causal,
                    float scale, unsigned char *row_empty);

/* Given d context (lq, d_k) of the head, its rows ld floats apart (causal
 * as in the forward pass: keys after the query are skipped, their weights
 * being 0): d q (lq, d_k), d k and d v (lk, d_k) of the head, written (not
 * added), their rows ld floats apart too (so a head's columns of (L, d)
 * matrices are read and written in place). */
void mha_rows_backward(const struct mha_rows_head *hd, bool causal, float scale, const float *d_ctx,
                       size_t ld, float *d_q, float *d_k, float *d_v);

/* True when heads h0 and h1 of a trace, read in place with no scores kept,
 * may go through the two below together: each of d_k 4 over 8 keys, h1's
 * columns just after h0's, and a processor with AVX-512 (mha_pairs.c). */
bool mha_rows_pair_fits(const struct mha_rows_head *h0, const struct mha_rows_head *h1);

/* mha_rows_attend (no mask) for two heads mha_rows_pair_fits takes, the
 * same numbers; returns the rows it marked. */
int mha_rows_attend_pair(const struct mha_rows_head *h0, const struct mha_rows_head *h1,
                         bool causal, float scale, unsigned char *row_empty);

/* mha_rows_backward for two such heads, the same numbers: d_ctx, d_q, d_k
 * and d_v at h0's columns (h1's follow them), rows ld apart. */
void mha_rows_backward_pair(const struct mha_rows_head *h0, const struct mha_rows_head *h1,
                            float scale, const float *d_ctx, size_t ld, float *d_q, float *d_k,
                            float *d_v);

/* Whether the two above may run pairs of their registers as one of sixteen
 * floats where the processor has AVX-512 (they may, unless told otherwise);
 * returns the setting before.  For the tests, which hold that way to the
 * other's bits. */
bool mha_rows_allow_wide(bool allow);

/* The setting mha_rows_allow_wide last made (mha_long.c follows it too). */
bool mha_rows_wide_allowed(void);

#endif
