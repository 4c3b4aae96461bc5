/* mha_long.c - the rows of a head too long for registers (mha_rows.h):
 * each query's scores scaled and masked, the softmax of them, a block of
 * rows at a time after the product that wrote the scores.
 *
 * Where the processor has AVX-512 and a row is a whole number of sixteen
 * floats, the row is taken sixteen at a time in two passes: the first
 * scales, masks and stores the scaled scores (in the weights' place too)
 * and finds the max, the second takes their exponentials there, four rows
 * at a time, and sums them.  Each lane does what the
 * eight-float loops do and the sum is kept in the same eight running sums,
 * so the numbers are the same bit for bit as the other copies'.
 *
 * When the three arrays of scores are larger than a core's caches, a
 * block's rows are worked in a buffer and the arrays, which nothing reads
 * again in the forward pass, go to memory with streaming stores, so that
 * their lines are neither read first nor left to push out the lines the
 * next product reads. */
#include "engine/mha_long.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"

#if MHA_HAVE_ROWS
#include "engine/vec8.h"
#endif

#if MHA_HAVE_ROWS && VEC_WIDE
#include <immintrin.h>
#endif

/* Running maxima a row keeps side by side (vector lanes), as the softmax's. */
#define ATTEND_MAX_LANES 16

/* Entries [0, n) of a row scaled into scaled and weights, an entry whose
 * keep is 0 -INFINITY (keep NULL: none is); the max over them in lanes,
 * the max of a set not depending on the order it is read in.  Both sides of
 * each choice are computed, so that the loop runs a vector at a time. */
static inline float scale_row(const float *scores, float scale, const unsigned char *keep, int n,
                              float *scaled, float *weights)
{
    float lane[ATTEND_MAX_LANES];
    for (int l = 0; l < ATTEND_MAX_LANES; l++)
        lane[l] = -INFINITY;
    int j = 0;
    for (; j + ATTEND_MAX_LANES <= n; j += ATTEND_MAX_LANES)
        for (int l = 0; l < ATTEND_MAX_LANES; l++) {
            const float v = scores[j + l] * scale;
            const float x = keep && !keep[j + l] ? -INFINITY : v;
            scaled[j + l] = x;
            weights[j + l] = x;
            lane[l] = x > lane[l] ? x : lane[l];
        }
    float max = -INFINITY;
    for (int l = 0; l < ATTEND_MAX_LANES; l++)
        max = lane[l] > max ? lane[l] : max;
    for (; j < n; j++) {
        const float x = keep && !keep[j] ? -INFINITY : scores[j] * scale;
        scaled[j] = x;
        weights[j] = x;
        max = x > max ? x : max;
    }
    return max;
}

/* Keys of query i that causal leaves visible (all lk without it). */
static int visible_keys(bool causal, int i, int lk)
{
    return causal && i + 1 < lk ? i + 1 : lk;
}

/* Row i marked as having every key masked (its weights all 0). */
static void mark_empty(struct mha_trace *t, int i, float *weights)
{
    memset(weights, 0, (size_t)t->lk * sizeof *weights);
    if (!t->row_empty[i]) {
        t->row_empty[i] = 1;
        t->empty_rows++;
    }
}

/* Row i: scores scaled and masked into scaled and weights, then the
 * softmax of weights, started from the max found while scaling (the
 * numbers mat_softmax_row gives, one pass fewer). */
MAT_KERNEL static void attend_row(struct mha_trace *t, const unsigned char *mask, bool causal,
                                  int i, const float *scores, float *scaled, float *weights)
{
    const int lk = t->lk;
    /* the same rule as mha_is_masked, read row by row: the explicit mask,
     * and with causal every key after i */
    const int visible = visible_keys(causal, i, lk);
    const float max =
        mask ? scale_row(scores, t->scale, mask + (size_t)i * (size_t)lk, visible, scaled, weights)
             : scale_row(scores, t->scale, NULL, visible, scaled, weights);
    for (int j = visible; j < lk; j++)
        scaled[j] = weights[j] = -INFINITY;
    if (max == -INFINITY) {
        mark_empty(t, i, weights);
        return;
    }
    mat_softmax_row_max(weights, lk, max);
}

#if MHA_HAVE_ROWS && VEC_WIDE

typedef double vec8d __attribute__((vector_size(64)));

/* Lanes j.. of a row of scores, scaled, and -INFINITY where the key is
 * masked (keep[j] 0) or not visible (j >= visible): scale_row's value. */
VEC_WIDE_TARGET static VEC_INLINE vec16 scaled16(const float *scores, float scale,
                                                 const unsigned char *keep, int j, int visible)
{
    vec16 s;
    memcpy(&s, scores + j, sizeof s);
    const vec16 x = s * scale;
    const int left = visible - j;
    __mmask16 on = left >= 16 ? (__mmask16)0xFFFF : left <= 0 ? 0 : (__mmask16)((1u << left) - 1);
    if (keep) {
        const __m128i k = _mm_loadu_si128((const __m128i *)(const void *)(keep + j));
        on &= _mm_test_epi8_mask(k, k);
    }
    return (vec16)_mm512_mask_blend_ps(on, _mm512_set1_ps(-INFINITY), (__m512)x);
}

/* Where a block's arrays go when they stream past the caches (rows lk
 * floats apart from each, on 64 bytes): the scores and the scaled scores
 * as pass 1 reads and makes them, the weights as pass 2 ends. */
struct block_stream {
    float *scores, *scaled, *weights;
};

/* 16 floats to p (on 64 bytes) past the caches */
VEC_WIDE_TARGET static VEC_INLINE void stream16(float *p, vec16 v)
{
    _mm512_stream_ps(p, (__m512)v);
}

/* A row whose softmax is still to take: its max, its weights (which hold
 * its scaled scores until then), and, streaming, its scores and where the
 * three arrays go (else NULL). */
struct row_soft {
    float max;
    float *w;
    const float *s;
    struct block_stream to;
};

/* Pass 1 of row i: its scores s scaled and masked into scaled and w, its
 * max; streaming (to not NULL), the scores and the scaled scores to its
 * arrays instead of scaled.  The row to finish into job (false: every key
 * masked, weights 0). */
VEC_WIDE_TARGET static bool scale_row_wide(struct mha_trace *t, const unsigned char *mask,
                                           bool causal, int i, const float *s, float *scaled,
                                           float *w, const struct block_stream *to,
                                           struct row_soft *job)
{
    const int lk = t->lk, visible = visible_keys(causal, i, lk);
    const unsigned char *keep = mask ? mask + (size_t)i * (size_t)lk : NULL;
    /* two running maxima (vmaxps gives x > m ? x : m, select16's), taking
     * turns, so that a step need not wait on the one before; the max of a
     * set is the same whichever order it is read in.  Named, not indexed
     * (indexed, they were kept on the stack), and the scale in a local (a
     * store through w could be taken to change t->scale). */
    __m512 lane[2] = {_mm512_set1_ps(-INFINITY), _mm512_set1_ps(-INFINITY)};
    const float scale = t->scale;
    for (int j = 0; j < lk; j += 16) {
        const vec16 x = scaled16(s, scale, keep, j, visible);
        if (!to)
            memcpy(scaled + j, &x, sizeof x);
        memcpy(w + j, &x, sizeof x);
        const __m512 m = _mm512_max_ps((__m512)x, lane[0]);
        lane[0] = lane[1];
        lane[1] = m;
    }
    const vec16 both = (vec16)_mm512_max_ps(lane[0], lane[1]);
    float max = -INFINITY;
    for (int l = 0; l < 16; l++)
        max = both[l] > max ? both[l] : max;
    if (max == -INFINITY) {
        for (int j = 0; to && j < lk; j += 16) {
            vec16 raw, x;
            memcpy(&raw, s + j, sizeof raw);
            memcpy(&x, w + j, sizeof x);
            stream16(to->scores + j, raw);
            stream16(to->scaled + j, x);
            stream16(to->weights + j, (vec16){0});
        }
        mark_empty(t, i, w);
        return false;
    }
    *job = (struct row_soft){max, w, s, to ? *to : (struct block_stream){NULL, NULL, NULL}};
    return true;
}

/* Sixteen scaled scores x at w (a row of the block's weights) made their
 * exponentials e^(x - max) in place, 0 far below it, and added to the row's
 * running sums; to_scores not NULL, the scores at raw and the scaled scores
 * stream to to_scores and to_scaled first.  Returns the sums. */
VEC_WIDE_TARGET static VEC_INLINE vec8d exp_step(float *w, const float *raw, float *to_scores,
                                                 float *to_scaled, float max, vec8d part)
{
    const vec16 lo = (vec16){0} + MAT_EXP_NEG_MIN, zero = {0};
    vec16 x;
    memcpy(&x, w, sizeof x);
    if (to_scores) {
        vec16 sc;
        memcpy(&sc, raw, sizeof sc);
        stream16(to_scores, sc);
        stream16(to_scaled, x);
    }
    const vec16 d = x - max;
    const vec16 e = select16(d >= lo, exp16(d), zero);
    memcpy(w, &e, sizeof e);
    part += (vec8d)_mm512_cvtps_pd(_mm512_castps512_ps256((__m512)e));
    part += (vec8d)_mm512_cvtps_pd(_mm512_extractf32x8_ps((__m512)e, 1));
    return part;
}

/* mat_softmax_row_max's passes for R rows at once (1 to 4, a constant
 * after inlining: each row's exponentials and sum are a long chain of
 * steps, and four chains overlap): e^(x - max), 0 far below it; the sum in
 * eight running double sums, eight entries to a step; then each weight
 * times 1 / sum. */
VEC_WIDE_TARGET static VEC_INLINE void softmax_rows(const struct row_soft *job, const int R, int lk)
{
    /* the jobs in locals: a store through w could otherwise be taken to
     * change them, and they would be read again every step */
    float max[4], *out[4], *scores_to[4], *scaled_to[4];
    const float *raw[4];
    for (int r = 0; r < R; r++) {
        max[r] = job[r].max;
        out[r] = job[r].w;
        raw[r] = job[r].s;
        scores_to[r] = job[r].to.scores;
        scaled_to[r] = job[r].to.scaled;
    }
    /* streaming, the scores and the scaled scores go out here, among the
     * exponentials' arithmetic, rather than in pass 1, which has little.
     * The rows' running sums are named, not an array: as an array they
     * were kept in memory and stored at every step. */
    const bool stream = job[0].to.scores != NULL;
    vec8d p0 = {0}, p1 = {0}, p2 = {0}, p3 = {0};
#define EXP_STEP(r, part)                                                                          \
    part = exp_step(out[r] + j, raw[r] + j, stream ? scores_to[r] + j : NULL,                      \
                    stream ? scaled_to[r] + j : NULL, max[r], part)
    for (int j = 0; j < lk; j += 16) {
        EXP_STEP(0, p0);
        if (R > 1)
            EXP_STEP(1, p1);
        if (R > 2)
            EXP_STEP(2, p2);
        if (R > 3)
            EXP_STEP(3, p3);
    }
#undef EXP_STEP
    const vec8d part[4] = {p0, p1, p2, p3};
    float inv[4];
    for (int r = 0; r < R; r++) {
        double sum = 0.0;
        for (int l = 0; l < 8; l++)
            sum += part[r][l];
        inv[r] = (float)(1.0 / sum);
    }
    for (int r = 0; r < R; r++) {
        float *const to = job[r].to.weights;
        for (int j = 0; j < lk; j += 16) {
            vec16 w;
            memcpy(&w, out[r] + j, sizeof w);
            w *= inv[r];
            memcpy(out[r] + j, &w, sizeof w);
            if (to)
                stream16(to + j, w);
        }
    }
}

VEC_WIDE_TARGET static void softmax_one(const struct row_soft *job, int lk)
{
    softmax_rows(job, 1, lk);
}

VEC_WIDE_TARGET static void softmax_two(const struct row_soft *job, int lk)
{
    softmax_rows(job, 2, lk);
}

VEC_WIDE_TARGET static void softmax_three(const struct row_soft *job, int lk)
{
    softmax_rows(job, 3, lk);
}

VEC_WIDE_TARGET static void softmax_four(const struct row_soft *job, int lk)
{
    softmax_rows(job, 4, lk);
}

/* attend_row's numbers for rows i0 .. i0 + rows - 1, lk a multiple of 16:
 * each row scaled as it comes, their softmax four rows at a time; to not
 * NULL, the arrays stream there (scaled is not written). */
static void block_wide(struct mha_trace *t, const unsigned char *mask, bool causal, int i0,
                       int rows, const float *scores, float *scaled, float *weights,
                       const struct block_stream *to)
{
    const size_t lk = (size_t)t->lk;
    struct row_soft job[4];
    int waiting = 0;
    for (int r = 0; r < rows; r++) {
        const size_t at = (size_t)r * lk;
        const struct block_stream row =
            to ? (struct block_stream){to->scores + at, to->scaled + at, to->weights + at}
               : (struct block_stream){NULL, NULL, NULL};
        if (!scale_row_wide(t, mask, causal, i0 + r, scores + at, scaled ? scaled + at : NULL,
                            weights + at, to ? &row : NULL, &job[waiting]))
            continue;
        if (++waiting == 4) {
            softmax_four(job, t->lk);
            waiting = 0;
        }
    }
    if (waiting == 3)
        softmax_three(job, t->lk);
    else if (waiting == 2)
        softmax_two(job, t->lk);
    else if (waiting)
        softmax_one(job, t->lk);
    if (to)
        _mm_sfence();
}

#endif

/* mha_rows_allow_wide's setting, which the rows of short heads
 * (mha_rows.c) and of long ones follow alike. */
static bool wide_allowed = true;

bool mha_rows_allow_wide(bool allow)
{
    const bool before = wide_allowed;
    wide_allowed = allow;
    return before;
}

bool mha_rows_wide_allowed(void)
{
    return wide_allowed;
}

/* mha_long_stream_above's setting: 4 MiB, twice a core's second-level
 * cache on the machines measured.  Past it the arrays' lines, written into
 * the cache, had to be read first and were pushed out to memory before the
 * pass ended, whoever else shared the last-level cache (bench/README.md:
 * at 256 tokens and 8 heads, 6 MiB of arrays, a pass 2-6 % faster
 * streamed); below it they stay in the cache. */
static size_t stream_above = (size_t)4 << 20;

static size_t stream_threshold(void)
{
    return stream_above;
}

size_t mha_long_stream_above(size_t bytes)
{
    const size_t before = stream_threshold();
    stream_above = bytes;
    return before;
}

/* The rows take sixteen floats at a time (mha_long.c's head comment). */
static bool rows_wide(const struct mha_trace *t)
{
#if MHA_HAVE_ROWS && VEC_WIDE
    return t->lk % 16 == 0 && mha_rows_wide_allowed() && vec_have_wide();
#else
    (void)t;
    return false;
#endif
}

/* The arrays of scores are written past the caches: rows_wide, larger
 * than the setting, and on whole lines. */
static bool rows_stream(const struct mha_trace *t)
{
    const size_t arrays = 3 * (size_t)t->heads * (size_t)t->lq * (size_t)t->lk * sizeof(float);
    const uintptr_t lines =
        (uintptr_t)t->scores | (uintptr_t)t->scaled_scores | (uintptr_t)t->weights;
    return rows_wide(t) && arrays > stream_threshold() && (lines & 63) == 0;
}

void mha_long_rows(struct mha_trace *t, const unsigned char *mask, bool causal, int i0, int rows,
                   float *scores, float *scaled, float *weights)
{
    const size_t lk = (size_t)t->lk;
#if MHA_HAVE_ROWS && VEC_WIDE
    if (rows_wide(t)) {
        block_wide(t, mask, causal, i0, rows, scores, scaled, weights, NULL);
        return;
    }
#endif
    for (int r = 0; r < rows; r++)
        attend_row(t, mask, causal, i0 + r, scores + (size_t)r * lk, scaled + (size_t)r * lk,
                   weights + (size_t)r * lk);
}

/* Query rows a block of one head takes, so that its scores, scaled scores
 * and weights (three arrays of rows by lk floats) stay near 128 KiB each:
 * inside the core's second-level cache from the product that writes the
 * scores to the product that reads the weights.  A multiple of eight, the
 * row tile of the multiply loops. */
static int block_rows(int lq, int lk)
{
    int rows = (32 * 1024) / (lk > 0 ? lk : 1);
    rows = rows < 8 ? 8 : rows - rows % 8;
    return rows < lq ? rows : lq;
}

size_t mha_long_floats(const struct mha_trace *t)
{
    const size_t kt = (size_t)t->lk * (size_t)t->d_k;
    const size_t block = (size_t)block_rows(t->lq, t->lk) * (size_t)t->lk;
    return kt + (rows_stream(t) ? 2 * block : 0);
}

/* A block's arrays worked in work (its scores and weights, two arrays of
 * rows by lk) and streamed to the trace's at `at` as they are done. */
static void stream_block(struct mha_trace *t, const unsigned char *mask, bool causal, int i0,
                         int rows, size_t at, float *work)
{
#if MHA_HAVE_ROWS && VEC_WIDE
    const struct block_stream to = {t->scores + at, t->scaled_scores + at, t->weights + at};
    block_wide(t, mask, causal, i0, rows, work, NULL, work + (size_t)rows * (size_t)t->lk, &to);
#else
    (void)t, (void)mask, (void)causal, (void)i0, (void)rows, (void)at, (void)work;
#endif
}

void mha_long_head(struct mha_trace *t, const unsigned char *mask, bool causal, int h, float *work)
{
    const int lq = t->lq, lk = t->lk, d_k = t->d_k;
    const size_t att = (size_t)lq * (size_t)lk;
    float *kt = work, *block_work = work + (size_t)lk * (size_t)d_k;
    const float *kh = t->kh + mha_idx3(lk, d_k, h, 0, 0);
    for (int j0 = 0; j0 < lk; j0 += MHA_LONG_KEY_PANEL) {
        const int w = lk - j0 < MHA_LONG_KEY_PANEL ? lk - j0 : MHA_LONG_KEY_PANEL;
        mat_transpose_rows(kh + (size_t)j0 * (size_t)d_k, (size_t)d_k, w, d_k,
                           kt + (size_t)j0 * (size_t)d_k, (size_t)w);
    }
    const float *vh = t->vh + mha_idx3(lk, d_k, h, 0, 0);
    const int block = block_rows(lq, lk);
    const bool stream = rows_stream(t);
    for (int i0 = 0; i0 < lq; i0 += block) {
        const int rows = lq - i0 < block ? lq - i0 : block;
        const size_t at = (size_t)h * att + (size_t)i0 * (size_t)lk;
        /* streaming, the block is worked in work and streamed out as it is
         * done; else in place */
        float *scores = stream ? block_work : t->scores + at;
        float *weights = stream ? block_work + (size_t)rows * (size_t)lk : t->weights + at;
        for (int j0 = 0; j0 < lk; j0 += MHA_LONG_KEY_PANEL) {
            const int w = lk - j0 < MHA_LONG_KEY_PANEL ? lk - j0 : MHA_LONG_KEY_PANEL;
            mat_rows_times(t->qh + mha_idx3(lq, d_k, h, i0, 0), (size_t)d_k, 1,
                           kt + (size_t)j0 * (size_t)d_k, (size_t)w, scores + j0, (size_t)lk, rows,
                           w, d_k, false, NULL);
        }
        if (stream)
            stream_block(t, mask, causal, i0, rows, at, block_work);
        else
            mha_long_rows(t, mask, causal, i0, rows, scores, t->scaled_scores + at, weights);
        mat_rows_times(weights, (size_t)lk, 1, vh, (size_t)d_k,
                       t->context + mha_idx3(lq, d_k, h, i0, 0), (size_t)d_k, rows, d_k, lk, false,
                       NULL);
    }
}
