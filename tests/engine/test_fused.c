/* test_fused.c - every path of the engine's kernels gives the floats of one
 * scalar sequence of fused multiply-adds.  The kernels are built for
 * AVX-512, for AVX2 and for any x86-64 (the last calls fmaf for each lane),
 * and each sum of products is a chain of fmaf in a fixed order, each step
 * rounded once: the floats written out below, one lane at a time with the
 * C library's fmaf (the path a processor without FMA takes), must be the
 * vector paths' to the bit, on sizes that leave tails of every block. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"
#include "engine/rng.h"

static float *draw(struct rng *r, size_t n, double lo, double hi)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    ck_assert_ptr_nonnull(x);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)rng_uniform(r, lo, hi);
    return x;
}

static void same_bits(const float *got, const float *want, size_t n, const char *what, int at)
{
    for (size_t x = 0; x < n; x++)
        ck_assert_msg(memcmp(got + x, want + x, sizeof *got) == 0,
                      "case %d, %s[%zu]: %.9g, one fmaf at a time %.9g", at, what, x,
                      (double)got[x], (double)want[x]);
}

/* ------------------------------------------------------------ products */

/* mat_rows_times against Σ_p fmaf in order from p = 0, the bias added
 * after, then C's old value: A by rows and down its columns (the stretches
 * of a weights' gradient), B narrow and wide (sliced), every tail.  _i:
 * size (bits 2..), add (bit 1), bias (bit 0). */
START_TEST(test_products)
{
    static const int sizes[][4] = {
        /* m, n, k, A down its columns */
        {1, 1, 1, 0},    {5, 7, 3, 0},     {13, 53, 29, 0},  {9, 37, 70, 1},
        {17, 100, 9, 0}, {7, 300, 500, 0}, {8, 40, 4100, 1}, {19, 200, 1000, 1},
    };
    const int *s = sizes[_i / 4];
    const int m = s[0], n = s[1], k = s[2];
    const bool down = s[3], add = _i & 2, with_bias = _i & 1;
    struct rng r;
    rng_init(&r, 7100u + (uint32_t)_i);
    float *a = draw(&r, (size_t)m * (size_t)k, -1.0, 1.0),
          *b = draw(&r, (size_t)k * (size_t)n, -1.0, 1.0);
    float *bias = draw(&r, (size_t)n, -0.5, 0.5), *c = draw(&r, (size_t)m * (size_t)n, -1.0, 1.0);
    float *want = malloc((size_t)m * (size_t)n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    const size_t ars = down ? 1 : (size_t)k, acs = down ? (size_t)m : 1;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int p = 0; p < k; p++)
                acc = fmaf(a[(size_t)i * ars + (size_t)p * acs],
                           b[(size_t)p * (size_t)n + (size_t)j], acc);
            if (with_bias)
                acc = acc + bias[j];
            const size_t at = (size_t)i * (size_t)n + (size_t)j;
            want[at] = add ? c[at] + acc : acc;
        }
    mat_rows_times(a, ars, acs, b, (size_t)n, c, (size_t)n, m, n, k, add, with_bias ? bias : NULL);
    same_bits(c, want, (size_t)m * (size_t)n, "C", _i);
    free(a);
    free(b);
    free(bias);
    free(c);
    free(want);
}
END_TEST

/* --------------------------------------------------------- the softmax */

/* mat_softmax_row (its loops vectorized by the compiler) against
 * mat_exp_neg one entry at a time, the sum in eight running double sums;
 * masked entries among them.  _i: the row's length. */
START_TEST(test_softmax_row)
{
    const int n = _i < 70 ? _i + 1 : 1000 + _i;
    struct rng r;
    rng_init(&r, 7300u + (uint32_t)_i);
    float *row = draw(&r, (size_t)n, -40.0, 40.0), *want = malloc((size_t)n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    for (int j = 3; j < n; j += 7)
        row[j] = -INFINITY;
    float max = -INFINITY;
    for (int j = 0; j < n; j++)
        max = row[j] > max ? row[j] : max;
    double part[8] = {0}, sum = 0.0;
    for (int j = 0; j < n; j++) {
        const float x = row[j] - max;
        want[j] = x >= MAT_EXP_NEG_MIN ? mat_exp_neg(x) : 0.0f;
    }
    int j = 0;
    for (; j + 8 <= n; j += 8)
        for (int l = 0; l < 8; l++)
            part[l] += want[j + l];
    for (int l = 0; l < 8; l++)
        sum += part[l];
    for (; j < n; j++)
        sum += want[j];
    const float inv = (float)(1.0 / sum);
    for (j = 0; j < n; j++)
        want[j] *= inv;
    mat_softmax_row(row, n);
    same_bits(row, want, (size_t)n, "weights", _i);
    free(row);
    free(want);
}
END_TEST

/* --------------------------------------------------------------- heads */

/* One head of the row kernels (mha_rows.h) and its backward, written out one
 * float at a time as the kernels sum them: scores Σ_p fmaf over the columns,
 * e^x by mat_exp_neg, a row's sum in eight lanes of keys j mod 8 then in a
 * tree, the context Σ_j fmaf over the keys a row sees; backward's
 * Σ w·dw the same way, the gradients of q over keys and of k and v over rows,
 * each a chain of fmaf in order. */
struct head {
    int lq, lk, dk;
    bool causal;
    const unsigned char *mask;
    float scale, *q, *k, *v, *dctx;
    float *scores, *scaled, *w, *ctx, *dq, *dkk, *dv;
};

static int visible(const struct head *h, int i)
{
    return h->causal && i + 1 < h->lk ? i + 1 : h->lk;
}

static float tree8(const float p[8])
{
    return ((p[0] + p[1]) + (p[2] + p[3])) + ((p[4] + p[5]) + (p[6] + p[7]));
}

static void head_by_hand(struct head *h)
{
    const int lq = h->lq, lk = h->lk, dk = h->dk;
    for (int i = 0; i < lq; i++) {
        float *s = h->scaled + (size_t)i * (size_t)lk, *w = h->w + (size_t)i * (size_t)lk;
        float max = -INFINITY, part[8] = {0};
        for (int j = 0; j < lk; j++) {
            float acc = 0.0f;
            for (int p = 0; p < dk; p++)
                acc = fmaf(h->q[i * dk + p], h->k[j * dk + p], acc);
            h->scores[(size_t)i * (size_t)lk + (size_t)j] = acc;
            const bool keep = j < visible(h, i) && (!h->mask || h->mask[i * lk + j]);
            s[j] = keep ? acc * h->scale : -INFINITY;
            max = s[j] > max ? s[j] : max;
        }
        for (int j = 0; j < lk; j++) {
            const float x = s[j] - max;
            w[j] = max != -INFINITY && x >= MAT_EXP_NEG_MIN ? mat_exp_neg(x) : 0.0f;
            part[j % 8] = part[j % 8] + w[j];
        }
        const float inv = 1.0f / tree8(part);
        for (int j = 0; j < lk; j++)
            w[j] = max == -INFINITY ? 0.0f : w[j] * inv;
        for (int p = 0; p < dk; p++) {
            float acc = 0.0f;
            for (int j = 0; j < visible(h, i); j++)
                acc = fmaf(w[j], h->v[j * dk + p], acc);
            h->ctx[i * dk + p] = max == -INFINITY ? 0.0f : acc;
        }
    }
    /* backward: ds_ij = w_ij (dw_ij − Σ_j w·dw) · scale, kept in scaled */
    for (int i = 0; i < lq; i++) {
        const float *w = h->w + (size_t)i * (size_t)lk;
        float *ds = h->scaled + (size_t)i * (size_t)lk, part[8] = {0};
        for (int j = 0; j < lk; j++) {
            float acc = 0.0f;
            for (int p = 0; p < dk; p++)
                acc = fmaf(h->dctx[i * dk + p], h->v[j * dk + p], acc);
            ds[j] = acc;
            part[j % 8] = fmaf(w[j], acc, part[j % 8]);
        }
        const float dot = tree8(part);
        for (int j = 0; j < lk; j++)
            ds[j] = w[j] * (ds[j] - dot) * h->scale;
        for (int p = 0; p < dk; p++) {
            float acc = 0.0f;
            for (int j = 0; j < visible(h, i); j++)
                acc = fmaf(ds[j], h->k[j * dk + p], acc);
            h->dq[i * dk + p] = acc;
        }
    }
    for (int j = 0; j < lk; j++)
        for (int p = 0; p < dk; p++) {
            float ak = 0.0f, av = 0.0f;
            for (int i = 0; i < lq; i++) {
                av = fmaf(h->dctx[i * dk + p], h->w[(size_t)i * (size_t)lk + (size_t)j], av);
                ak = fmaf(h->q[i * dk + p], h->scaled[(size_t)i * (size_t)lk + (size_t)j], ak);
            }
            h->dv[j * dk + p] = av;
            h->dkk[j * dk + p] = ak;
        }
}

/* mha_rows_attend and mha_rows_backward, with registers of sixteen and
 * without, keeping the scores and not (a head read as training reads it),
 * against head_by_hand.  _i: size (bits 2..), causal (bit 1), mask (bit 0). */
START_TEST(test_head)
{
    static const int sizes[][3] = {{8, 8, 4},    {8, 8, 8},    {5, 7, 3},   {13, 20, 4},
                                   {17, 33, 16}, {20, 64, 64}, {9, 40, 12}, {3, 64, 5},
                                   {16, 29, 8},  {11, 50, 33}, {24, 48, 4}};
    const int *sz = sizes[_i / 4];
    struct head h = {.lq = sz[0], .lk = sz[1], .dk = sz[2], .causal = _i & 2};
    const size_t att = (size_t)h.lq * (size_t)h.lk, nq = (size_t)h.lq * (size_t)h.dk,
                 nk = (size_t)h.lk * (size_t)h.dk;
    struct rng r;
    rng_init(&r, 7500u + (uint32_t)_i);
    h.q = draw(&r, nq, -2.0, 2.0), h.k = draw(&r, nk, -2.0, 2.0), h.v = draw(&r, nk, -1.0, 1.0);
    h.dctx = draw(&r, nq, -1.0, 1.0);
    unsigned char *mask = malloc(att);
    ck_assert_ptr_nonnull(mask);
    for (size_t x = 0; x < att; x++)
        mask[x] = x % 5 != 2 && x / (size_t)h.lk != 1; /* row 1 masked whole */
    h.mask = _i & 1 ? mask : NULL;
    h.scale = 1.0f / sqrtf((float)h.dk);
    float *want = calloc(4 * att + 4 * nq + 2 * nk, sizeof *want);
    float *got = calloc(4 * att + 4 * nq + 2 * nk, sizeof *got);
    ck_assert_ptr_nonnull(want);
    ck_assert_ptr_nonnull(got);
    h.scores = want, h.scaled = want + att, h.w = want + 2 * att, h.ctx = want + 3 * att;
    h.dq = h.ctx + nq, h.dkk = h.dq + nq, h.dv = h.dkk + nk;
    head_by_hand(&h);
    float *gs = got, *gsc = got + att, *gw = got + 2 * att, *gctx = got + 3 * att;
    float *gdq = gctx + nq, *gdk = gdq + nq, *gdv = gdk + nk;
    for (int way = 0; way < 4; way++) {
        const bool wide = way & 1, kept = way & 2;
        if (!kept && h.mask)
            continue; /* training reads no mask */
        const bool before = mha_rows_allow_wide(wide);
        const struct mha_rows_head hd = {
            h.lq, h.lk, h.dk, (size_t)h.dk,     (size_t)h.dk,      (size_t)h.dk, (size_t)h.dk,
            h.q,  h.k,  h.v,  kept ? gs : NULL, kept ? gsc : NULL, gw,           gctx};
        unsigned char *empty = calloc((size_t)h.lq, 1);
        ck_assert_ptr_nonnull(empty);
        mha_rows_attend(&hd, h.mask, h.causal, h.scale, empty);
        if (kept)
            same_bits(gs, h.scores, att, "scores", _i * 4 + way);
        same_bits(gw, h.w, att, "weights", _i * 4 + way);
        same_bits(gctx, h.ctx, nq, "context", _i * 4 + way);
        mha_rows_backward(&hd, h.causal, h.scale, h.dctx, (size_t)h.dk, gdq, gdk, gdv);
        same_bits(gdq, h.dq, nq, "d q", _i * 4 + way);
        same_bits(gdk, h.dkk, nk, "d k", _i * 4 + way);
        same_bits(gdv, h.dv, nk, "d v", _i * 4 + way);
        mha_rows_allow_wide(before);
        free(empty);
    }
    free(h.q);
    free(h.k);
    free(h.v);
    free(h.dctx);
    free(mask);
    free(want);
    free(got);
}
END_TEST

/* Two heads of d_k 4 over 8 keys side by side, as training lays them out
 * (columns 4..11 of rows 16 floats apart), through mha_rows_attend_pair and
 * mha_rows_backward_pair, against head_by_hand for each head: every float
 * the same, the columns around the pair untouched.  _i: lq (bits 2..),
 * causal (bit 1), scaled (bit 0). */
#define PAIR_LD 16
#define PAIR_COL 4

/* columns col.. of (rows, PAIR_LD) m as a (rows, 4) matrix */
static float *pair_columns(const float *m, int rows, int col)
{
    float *out = malloc((size_t)rows * 4 * sizeof *out);
    ck_assert_ptr_nonnull(out);
    for (int i = 0; i < rows; i++)
        memcpy(out + (size_t)i * 4, m + (size_t)i * PAIR_LD + (size_t)col, 4 * sizeof *out);
    return out;
}

static void pair_same(const float *got, int rows, int col, const float *want, const char *what,
                      int at)
{
    float *g = pair_columns(got, rows, col);
    same_bits(g, want, (size_t)rows * 4, what, at);
    free(g);
}

/* the columns of (rows, PAIR_LD) m outside the pair still hold 7 */
static void pair_untouched(const float *m, int rows, const char *what)
{
    for (int i = 0; i < rows; i++)
        for (int c = 0; c < PAIR_LD; c++)
            if (c < PAIR_COL || c >= PAIR_COL + 8)
                ck_assert_msg(m[(size_t)i * PAIR_LD + (size_t)c] == 7.0f,
                              "%s: row %d column %d written outside the pair", what, i, c);
}

START_TEST(test_head_pair)
{
    static const int lqs[] = {8, 5, 13, 16, 1};
    const int lq = lqs[_i / 4], lk = 8;
    const bool causal = _i & 2;
    const float scale = _i & 1 ? 0.5f : 1.0f;
    struct rng r;
    rng_init(&r, 8100u + (uint32_t)_i);
    float *q = draw(&r, (size_t)lq * PAIR_LD, -2.0, 2.0),
          *k = draw(&r, (size_t)lk * PAIR_LD, -2.0, 2.0);
    float *v = draw(&r, (size_t)lk * PAIR_LD, -1.0, 1.0),
          *dctx = draw(&r, (size_t)lq * PAIR_LD, -1.0, 1.0);
    const size_t att = (size_t)lq * (size_t)lk;
    float *w[2], *out[4];
    for (int x = 0; x < 2; x++) {
        w[x] = calloc(att, sizeof *w[x]);
        ck_assert_ptr_nonnull(w[x]);
    }
    const int out_rows[4] = {lq, lq, lk, lk}; /* context, d q, d k, d v */
    for (int x = 0; x < 4; x++) {
        out[x] = malloc((size_t)out_rows[x] * PAIR_LD * sizeof *out[x]);
        ck_assert_ptr_nonnull(out[x]);
        for (int y = 0; y < out_rows[x] * PAIR_LD; y++)
            out[x][y] = 7.0f;
    }
    const struct mha_rows_head h0 = {
        lq,           lk,           4,    PAIR_LD, PAIR_LD, PAIR_LD,          PAIR_LD, q + PAIR_COL,
        k + PAIR_COL, v + PAIR_COL, NULL, NULL,    w[0],    out[0] + PAIR_COL};
    struct mha_rows_head h1 = h0;
    h1.qh += 4, h1.kh += 4, h1.vh += 4, h1.weights = w[1], h1.context += 4;
    /* where the pair does not apply */
    struct mha_rows_head off = h1;
    off.kh += 1;
    ck_assert(!mha_rows_pair_fits(&h0, &off));
    off = h1;
    off.lk = 7;
    ck_assert(!mha_rows_pair_fits(&h0, &off));
    off = h1;
    off.scores = w[1];
    ck_assert(!mha_rows_pair_fits(&h0, &off));
    if (!mha_rows_pair_fits(&h0, &h1)) { /* no AVX-512 here: the heads go one at a time */
        for (int x = 0; x < 2; x++)
            free(w[x]);
        for (int x = 0; x < 4; x++)
            free(out[x]);
        free(q), free(k), free(v), free(dctx);
        return;
    }
    unsigned char *empty = calloc((size_t)lq, 1);
    ck_assert_ptr_nonnull(empty);
    mha_rows_attend_pair(&h0, &h1, causal, scale, empty);
    mha_rows_backward_pair(&h0, &h1, scale, dctx + PAIR_COL, PAIR_LD, out[1] + PAIR_COL,
                           out[2] + PAIR_COL, out[3] + PAIR_COL);
    for (int x = 0; x < 2; x++) {
        const int col = PAIR_COL + 4 * x;
        struct head h = {.lq = lq, .lk = lk, .dk = 4, .causal = causal, .scale = scale};
        h.q = pair_columns(q, lq, col), h.k = pair_columns(k, lk, col);
        h.v = pair_columns(v, lk, col), h.dctx = pair_columns(dctx, lq, col);
        float *want = calloc(4 * att + 4 * (size_t)lq * 4 + 2 * (size_t)lk * 4, sizeof *want);
        ck_assert_ptr_nonnull(want);
        h.scores = want, h.scaled = want + att, h.w = want + 2 * att, h.ctx = want + 3 * att;
        h.dq = h.ctx + (size_t)lq * 4, h.dkk = h.dq + (size_t)lq * 4, h.dv = h.dkk + (size_t)lk * 4;
        head_by_hand(&h);
        same_bits(w[x], h.w, att, x ? "weights of head 1" : "weights of head 0", _i);
        pair_same(out[0], lq, col, h.ctx, "context", _i);
        pair_same(out[1], lq, col, h.dq, "d q", _i);
        pair_same(out[2], lk, col, h.dkk, "d k", _i);
        pair_same(out[3], lk, col, h.dv, "d v", _i);
        free(h.q), free(h.k), free(h.v), free(h.dctx), free(want);
    }
    pair_untouched(out[0], lq, "context");
    pair_untouched(out[1], lq, "d q");
    pair_untouched(out[2], lk, "d k");
    pair_untouched(out[3], lk, "d v");
    for (int x = 0; x < 2; x++)
        free(w[x]);
    for (int x = 0; x < 4; x++)
        free(out[x]);
    free(q), free(k), free(v), free(dctx), free(empty);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fused");
    TCase *tc = tcase_create("fused");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_products, 0, 32);
    tcase_add_loop_test(tc, test_softmax_row, 0, 74);
    tcase_add_loop_test(tc, test_head, 0, 44);
    tcase_add_loop_test(tc, test_head_pair, 0, 20);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
