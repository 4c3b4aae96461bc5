/* mha_pairs.c - two heads of four columns over eight keys at once, in the
 * sixteen lanes of an AVX-512 register (engine-internal, mha_rows.h).
 *
 * The letter tasks train heads of d_k 4 over contexts of 8 tokens, where
 * mha_rows.c's attend_cols and backward_cols keep a group of eight query
 * rows in the eight lanes of a register.  A head's work there is a few
 * hundred instructions, each on eight lanes, and one call per head.  Here
 * heads h and h + 1, whose columns lie side by side in q, k, v and their
 * gradients, share each instruction: lanes 0-7 are head h's rows, lanes
 * 8-15 head h + 1's.  A key's or a value's float for both heads is one
 * shuffle of the eight floats of its row (the two heads' columns), where
 * one head took it as a broadcast.
 *
 * Every lane does what attend_cols and backward_cols (with eight keys) do
 * in it, in the same order, so every number is theirs bit for bit:
 * test_fused and test_engine hold the two paths to the same floats. */
#include "engine/mha_rows.h"

#if MHA_HAVE_ROWS

#include <math.h>
#include <string.h>

#include "engine/vec8.h"

#if VEC_WIDE

#define PAIR_DK 4

/* lanes 0-7 a, lanes 8-15 b */
VEC_WIDE_TARGET static VEC_INLINE vec16 join(vec8 a, vec8 b)
{
    return (vec16)_mm512_insertf32x8(_mm512_castps256_ps512((__m256)a), (__m256)b, 1);
}

VEC_WIDE_TARGET static VEC_INLINE vec8 low(vec16 v)
{
    return (vec8)_mm512_castps512_ps256((__m512)v);
}

VEC_WIDE_TARGET static VEC_INLINE vec8 high(vec16 v)
{
    return (vec8)_mm512_extractf32x8_ps((__m512)v, 1);
}

/* The eight floats at row (the two heads' columns) as d_k registers: lanes
 * 0-7 of out[p] are row[p], lanes 8-15 row[PAIR_DK + p]. */
VEC_WIDE_TARGET static VEC_INLINE void spread(const float *row, vec16 out[PAIR_DK])
{
    const __m512 r = _mm512_castps256_ps512(_mm256_loadu_ps(row));
    for (int p = 0; p < PAIR_DK; p++) {
        const __m512i idx =
            _mm512_setr_epi32(p, p, p, p, p, p, p, p, PAIR_DK + p, PAIR_DK + p, PAIR_DK + p,
                              PAIR_DK + p, PAIR_DK + p, PAIR_DK + p, PAIR_DK + p, PAIR_DK + p);
        out[p] = (vec16)_mm512_permutexvar_ps(idx, r);
    }
}

/* n rows (ld apart) of the two heads' eight columns as d_k registers: lane
 * r of out[p] is m[r][p], lane 8 + r is m[r][PAIR_DK + p]; rows past n 0. */
VEC_WIDE_TARGET static VEC_INLINE void columns_in(const float *m, size_t ld, int n,
                                                  vec16 out[PAIR_DK])
{
    vec8 in[LANES], t[LANES];
    for (int r = 0; r < LANES; r++) {
        in[r] = (vec8){0};
        if (r < n)
            memcpy(&in[r], m + (size_t)r * ld, sizeof in[r]);
    }
    transpose8x8(in, t);
    for (int p = 0; p < PAIR_DK; p++)
        out[p] = join(t[p], t[PAIR_DK + p]);
}

/* The twin: n rows (ld apart) of eight floats, row r [lanes r of the low
 * halves of col[0..3], lanes r of their high halves]. */
VEC_WIDE_TARGET static VEC_INLINE void columns_out(const vec16 col[PAIR_DK], float *m, size_t ld,
                                                   int n)
{
    vec8 in[LANES], t[LANES];
    for (int x = 0; x < PAIR_DK; x++) {
        in[x] = low(col[x]);
        in[PAIR_DK + x] = high(col[x]);
    }
    transpose8x8(in, t);
    for (int r = 0; r < n; r++)
        memcpy(m + (size_t)r * ld, &t[r], sizeof t[r]);
}

/* e's lanes as the two heads' rows of eight weights: head h's n rows to a,
 * head h + 1's to b (rows LANES apart) */
VEC_WIDE_TARGET static VEC_INLINE void weights_out(const vec16 e[LANES], float *a, float *b, int n)
{
    vec8 in[LANES], t[LANES];
    for (int half = 0; half < 2; half++) {
        for (int j = 0; j < LANES; j++)
            in[j] = half ? high(e[j]) : low(e[j]);
        transpose8x8(in, t);
        float *to = half ? b : a;
        for (int r = 0; r < n; r++)
            memcpy(to + (size_t)r * LANES, &t[r], sizeof t[r]);
    }
}

VEC_WIDE_TARGET static int attend_pair(const struct mha_rows_head *h0,
                                       const struct mha_rows_head *h1, bool causal, float scale,
                                       unsigned char *row_empty)
{
    const int lq = h0->lq;
    const vec16 zero = {0}, neg_inf = zero - INFINITY, one = zero + 1.0f;
    /* the row of the group each lane holds */
    const ivec16 lane_row = {0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7};
    int empty = 0;
    for (int i0 = 0; i0 < lq; i0 += LANES) {
        const int n = lq - i0 < LANES ? lq - i0 : LANES;
        vec16 qt[PAIR_DK], e[LANES], ctx[PAIR_DK], kj[PAIR_DK], vj[PAIR_DK];
        columns_in(h0->qh + (size_t)i0 * h0->ld_q, h0->ld_q, n, qt);
        const ivec16 row = lane_row + i0;
        /* scores of every key for the group's rows, scaled and masked;
         * each row's max */
        vec16 mx = neg_inf;
        for (int j = 0; j < LANES; j++) {
            spread(h0->kh + (size_t)j * h0->ld_k, kj);
            vec16 acc = zero;
            for (int p = 0; p < PAIR_DK; p++)
                acc = fma16(kj[p], qt[p], acc);
            const ivec16 keep = causal ? j <= row : row >= 0;
            e[j] = select16(keep, acc * scale, neg_inf);
            mx = select16(e[j] > mx, e[j], mx);
        }
        const ivec16 none = mx == neg_inf; /* rows with no key left */
        /* e^(s - max), 0 where masked or more than 87 below the max; the
         * sum in attend_cols' tree */
        for (int j = 0; j < LANES; j++) {
            const vec16 x = e[j] - mx;
            e[j] = select16(x >= MAT_EXP_NEG_MIN, exp16(x), zero);
        }
        const vec16 sum = ((e[0] + e[1]) + (e[2] + e[3])) + ((e[4] + e[5]) + (e[6] + e[7]));
        const vec16 inv = 1.0f / select16(none, one, sum);
        for (int p = 0; p < PAIR_DK; p++)
            ctx[p] = zero;
        for (int j = 0; j < LANES; j++) {
            e[j] *= inv;
            spread(h0->vh + (size_t)j * h0->ld_v, vj);
            for (int p = 0; p < PAIR_DK; p++)
                ctx[p] = fma16(vj[p], e[j], ctx[p]);
        }
        weights_out(e, h0->weights + (size_t)i0 * LANES, h1->weights + (size_t)i0 * LANES, n);
        columns_out(ctx, h0->context + (size_t)i0 * h0->ld_ctx, h0->ld_ctx, n);
        for (int half = 0; half < 2; half++)
            for (int r = 0; r < n; r++)
                if (none[half * LANES + r] && !row_empty[i0 + r]) {
                    row_empty[i0 + r] = 1;
                    empty++;
                }
    }
    return empty;
}

VEC_WIDE_TARGET static void backward_pair(const struct mha_rows_head *h0,
                                          const struct mha_rows_head *h1, float scale,
                                          const float *d_ctx, size_t ld, float *d_q, float *d_k,
                                          float *d_v)
{
    const int lq = h0->lq;
    const vec16 zero = {0};
    /* the keys' and values' gradients: lane j (8 + j) of dkt[p] is key j's
     * column p of head h (h + 1) */
    vec16 dkt[PAIR_DK], dvt[PAIR_DK];
    for (int p = 0; p < PAIR_DK; p++)
        dkt[p] = dvt[p] = zero;
    for (int i0 = 0; i0 < lq; i0 += LANES) {
        const int n = lq - i0 < LANES ? lq - i0 : LANES;
        /* the group's weights as rows of keys (w: row r's eight weights of
         * both heads) and as columns (wc: key j's weights of the rows) */
        vec16 w[LANES], wc[LANES], g[PAIR_DK], vj[PAIR_DK];
        {
            vec8 a[LANES], b[LANES], at[LANES], bt[LANES];
            for (int r = 0; r < LANES; r++) {
                a[r] = b[r] = (vec8){0};
                if (r < n) {
                    memcpy(&a[r], h0->weights + (size_t)(i0 + r) * LANES, sizeof a[r]);
                    memcpy(&b[r], h1->weights + (size_t)(i0 + r) * LANES, sizeof b[r]);
                }
                w[r] = join(a[r], b[r]);
            }
            transpose8x8(a, at);
            transpose8x8(b, bt);
            for (int j = 0; j < LANES; j++)
                wc[j] = join(at[j], bt[j]);
        }
        columns_in(d_ctx + (size_t)i0 * ld, ld, n, g);
        /* context = weights · v gives d w_j = Σ_p d ctx_p · v_jp; Σ w·dw
         * per row */
        vec16 dw[LANES], part[LANES];
        for (int j = 0; j < LANES; j++) {
            spread(h0->vh + (size_t)j * h0->ld_v, vj);
            vec16 acc = zero;
            for (int p = 0; p < PAIR_DK; p++)
                acc = fma16(vj[p], g[p], acc);
            dw[j] = acc;
            part[j] = fma16(wc[j], acc, zero);
        }
        const vec16 dsum = ((part[0] + part[1]) + (part[2] + part[3])) +
                           ((part[4] + part[5]) + (part[6] + part[7]));
        /* d v_j += w_ij d ctx_i over the rows in order */
        for (int r = 0; r < n; r++) {
            vec16 x[PAIR_DK];
            spread(d_ctx + (size_t)(i0 + r) * ld, x);
            for (int p = 0; p < PAIR_DK; p++)
                dvt[p] = fma16(x[p], w[r], dvt[p]);
        }
        /* softmax, then scores = q·kᵀ: d q_i = Σ_j ds_ij k_j */
        vec16 dq[PAIR_DK], kj[PAIR_DK];
        for (int p = 0; p < PAIR_DK; p++)
            dq[p] = zero;
        for (int j = 0; j < LANES; j++) {
            dw[j] = wc[j] * (dw[j] - dsum) * scale;
            spread(h0->kh + (size_t)j * h0->ld_k, kj);
            for (int p = 0; p < PAIR_DK; p++)
                dq[p] = fma16(kj[p], dw[j], dq[p]);
        }
        columns_out(dq, d_q + (size_t)i0 * ld, ld, n);
        /* d k_j += ds_ij q_i over the rows in order, ds as rows of keys */
        vec16 ds[LANES];
        {
            vec8 a[LANES], b[LANES], at[LANES], bt[LANES];
            for (int j = 0; j < LANES; j++) {
                a[j] = low(dw[j]);
                b[j] = high(dw[j]);
            }
            transpose8x8(a, at);
            transpose8x8(b, bt);
            for (int r = 0; r < LANES; r++)
                ds[r] = join(at[r], bt[r]);
        }
        for (int r = 0; r < n; r++) {
            vec16 x[PAIR_DK];
            spread(h0->qh + (size_t)(i0 + r) * h0->ld_q, x);
            for (int p = 0; p < PAIR_DK; p++)
                dkt[p] = fma16(x[p], ds[r], dkt[p]);
        }
    }
    columns_out(dkt, d_k, ld, LANES);
    columns_out(dvt, d_v, ld, LANES);
}

#endif

bool mha_rows_pair_fits(const struct mha_rows_head *h0, const struct mha_rows_head *h1)
{
#if VEC_WIDE
    return h0->d_k == PAIR_DK && h0->lk == LANES && !h0->scores && h1->d_k == PAIR_DK &&
           h1->lk == LANES && h1->lq == h0->lq && !h1->scores && h1->qh == h0->qh + PAIR_DK &&
           h1->kh == h0->kh + PAIR_DK && h1->vh == h0->vh + PAIR_DK &&
           h1->context == h0->context + PAIR_DK && h1->ld_q == h0->ld_q && h1->ld_k == h0->ld_k &&
           h1->ld_v == h0->ld_v && h1->ld_ctx == h0->ld_ctx && mha_rows_wide_allowed() &&
           vec_have_wide();
#else
    (void)h0, (void)h1;
    return false;
#endif
}

int mha_rows_attend_pair(const struct mha_rows_head *h0, const struct mha_rows_head *h1,
                         bool causal, float scale, unsigned char *row_empty)
{
    mha_rows_regions(h0, true);
    mha_rows_regions(h1, true);
#if VEC_WIDE
    return attend_pair(h0, h1, causal, scale, row_empty);
#else
    (void)causal, (void)scale, (void)row_empty;
    return 0;
#endif
}

void mha_rows_backward_pair(const struct mha_rows_head *h0, const struct mha_rows_head *h1,
                            float scale, const float *d_ctx, size_t ld, float *d_q, float *d_k,
                            float *d_v)
{
    mha_rows_regions(h0, false);
    mha_rows_regions(h1, false);
    MAT_REGION("heads d context", d_ctx, (size_t)h0->lq, ld, 2 * (size_t)h0->d_k);
    MAT_REGION("heads d q", d_q, (size_t)h0->lq, ld, 2 * (size_t)h0->d_k);
    MAT_REGION("heads d k", d_k, (size_t)h0->lk, ld, 2 * (size_t)h0->d_k);
    MAT_REGION("heads d v", d_v, (size_t)h0->lk, ld, 2 * (size_t)h0->d_k);
#if VEC_WIDE
    backward_pair(h0, h1, scale, d_ctx, ld, d_q, d_k, d_v);
#else
    (void)scale, (void)d_ctx, (void)ld, (void)d_q, (void)d_k, (void)d_v;
#endif
}

#endif
