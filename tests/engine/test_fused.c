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

int main(void)
{
    Suite *s = suite_create("fused");
    TCase *tc = tcase_create("fused");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_products, 0, 32);
    tcase_add_loop_test(tc, test_softmax_row, 0, 74);
    tcase_add_loop_test(tc, test_head, 0, 44);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
