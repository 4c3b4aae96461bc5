/* test_mat.c - the matrix multiply (plain loop and CBLAS), linear layers and
 * the row softmax.
 *
 * Products are held to a double-precision loop with the classic bound for a
 * float32 dot product of length k: |error| <= k * FLT_EPSILON * sum |a_p b_p|
 * (the sum of the absolute terms, not of the result, so cancellation cannot
 * make the test flaky).  Plain and CBLAS are compared with each other under
 * twice that bound.
 */
#include <check.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "engine/mat.h"
#include "engine/mat_blas.h"
#include "engine/mat_kernel.h"
#include "engine/rng.h"

/* m, n, k of the shapes the multiply is tried on */
static const int shapes[][3] = {
    {1, 1, 1},
    {1, 7, 3},
    {5, 1, 4},
    {3, 4, 1},
    {2, 3, 5},
    {4, 6, 6},
    {17, 33, 65},
    {37, 53, 129},
    {129, 1, 37},
    {1, 129, 53},
    {64, 64, 64},
    {33, 33, 8},
    /* six rows by sixteen columns at a time, and what is left of both */
    {13, 48, 20},
    {70, 16, 9},
};
#define N_SHAPES ((int)(sizeof shapes / sizeof shapes[0]))

static float *random_floats(struct rng *r, size_t n, double lo, double hi)
{
    float *x = malloc((n ? n : 1) * sizeof *x);
    ck_assert_ptr_nonnull(x);
    for (size_t i = 0; i < n; i++)
        x[i] = (float)rng_uniform(r, lo, hi);
    return x;
}

static float b_at(const float *b, int n, int k, int p, int j, bool trans_b)
{
    /* b is (n, k) when trans_b, else (k, n); element (p, j) of the (k, n) view */
    return trans_b ? b[(size_t)j * (size_t)k + (size_t)p] : b[(size_t)p * (size_t)n + (size_t)j];
}

/* Reference c in double, and the error bound of each element. */
static void reference_mul(const float *a, const float *b, double *c, double *bound, int m, int n,
                          int k, bool trans_b)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            double sum = 0.0, abs_sum = 0.0;
            for (int p = 0; p < k; p++) {
                const double term =
                    (double)a[(size_t)i * (size_t)k + (size_t)p] * b_at(b, n, k, p, j, trans_b);
                sum += term;
                abs_sum += fabs(term);
            }
            c[(size_t)i * (size_t)n + (size_t)j] = sum;
            bound[(size_t)i * (size_t)n + (size_t)j] = k * FLT_EPSILON * abs_sum + 1e-30;
        }
}

/* -------------------------------------------------------------- TCase mul */

/* _i runs over the shapes, each with trans_b false and true. */
START_TEST(test_plain_against_double)
{
    const int *s = shapes[_i / 2];
    const int m = s[0], n = s[1], k = s[2];
    const bool trans_b = _i % 2;
    struct rng r;
    rng_init(&r, 1000u + (uint32_t)_i);
    float *a = random_floats(&r, (size_t)m * (size_t)k, -2.0, 2.0);
    float *b = random_floats(&r, (size_t)k * (size_t)n, -2.0, 2.0);
    float *c = malloc((size_t)m * (size_t)n * sizeof *c);
    double *ref = malloc((size_t)m * (size_t)n * sizeof *ref);
    double *bound = malloc((size_t)m * (size_t)n * sizeof *bound);
    ck_assert(c && ref && bound);
    mat_mul_plain(a, b, c, m, n, k, trans_b);
    reference_mul(a, b, ref, bound, m, n, k, trans_b);
    for (size_t i = 0; i < (size_t)m * (size_t)n; i++)
        ck_assert_double_eq_tol((double)c[i], ref[i], bound[i]);
    free(a);
    free(b);
    free(c);
    free(ref);
    free(bound);
}
END_TEST

/* Registered only when the build found CBLAS (mat_suite says so when it
 * did not). */
START_TEST(test_plain_against_cblas)
{
    ck_assert_msg(mat_have_cblas(), "registered in a build without CBLAS");
    const int *s = shapes[_i / 2];
    const int m = s[0], n = s[1], k = s[2];
    const bool trans_b = _i % 2;
    struct rng r;
    rng_init(&r, 2000u + (uint32_t)_i);
    const size_t mn = (size_t)m * (size_t)n;
    float *a = random_floats(&r, (size_t)m * (size_t)k, -3.0, 3.0);
    float *b = random_floats(&r, (size_t)k * (size_t)n, -3.0, 3.0);
    float *plain = malloc(mn * sizeof *plain);
    float *blas = malloc(mn * sizeof *blas);
    double *ref = malloc(mn * sizeof *ref);
    double *bound = malloc(mn * sizeof *bound);
    ck_assert(plain && blas && ref && bound);
    ck_assert_int_eq(mat_set_backend(MAT_BACKEND_PLAIN), MAT_BACKEND_PLAIN);
    mat_mul(a, b, plain, m, n, k, trans_b);
    ck_assert_int_eq(mat_set_backend(MAT_BACKEND_CBLAS), MAT_BACKEND_CBLAS);
    mat_mul(a, b, blas, m, n, k, trans_b);
    reference_mul(a, b, ref, bound, m, n, k, trans_b);
    for (size_t i = 0; i < mn; i++) {
        ck_assert_float_eq_tol(plain[i], blas[i], (float)(2.0 * bound[i]));
        ck_assert_double_eq_tol((double)blas[i], ref[i], bound[i]);
    }
    free(a);
    free(b);
    free(plain);
    free(blas);
    free(ref);
    free(bound);
}
END_TEST

/* A build without CBLAS: asking for it gives the plain loop, and mat_mul
 * then gives the loop's bits exactly, for every shape. */
START_TEST(test_cblas_absent_falls_back)
{
    ck_assert(!mat_have_cblas());
    const int *s = shapes[_i / 2];
    const int m = s[0], n = s[1], k = s[2];
    const bool trans_b = _i % 2;
    struct rng r;
    rng_init(&r, 2000u + (uint32_t)_i);
    const size_t mn = (size_t)m * (size_t)n;
    float *a = random_floats(&r, (size_t)m * (size_t)k, -3.0, 3.0);
    float *b = random_floats(&r, (size_t)k * (size_t)n, -3.0, 3.0);
    float *plain = malloc(mn * sizeof *plain), *asked = malloc(mn * sizeof *asked);
    ck_assert(plain && asked);
    ck_assert_int_eq(mat_set_backend(MAT_BACKEND_CBLAS), MAT_BACKEND_PLAIN);
    mat_mul(a, b, asked, m, n, k, trans_b);
    mat_mul_plain(a, b, plain, m, n, k, trans_b);
    ck_assert_mem_eq(plain, asked, mn * sizeof *plain);
    free(a);
    free(b);
    free(plain);
    free(asked);
}
END_TEST

/* Through mat_mul with the plain backend chosen: the same bits as the loop. */
START_TEST(test_dispatch_plain)
{
    struct rng r;
    rng_init(&r, 7);
    float *a = random_floats(&r, 5 * 9, -1.0, 1.0);
    float *b = random_floats(&r, 9 * 4, -1.0, 1.0);
    float c1[20], c2[20];
    mat_set_backend(MAT_BACKEND_PLAIN);
    ck_assert_int_eq(mat_get_backend(), MAT_BACKEND_PLAIN);
    for (int t = 0; t < 2; t++) {
        mat_mul(a, b, c1, 5, 4, 9, t);
        mat_mul_plain(a, b, c2, 5, 4, 9, t);
        ck_assert_mem_eq(c1, c2, sizeof c1);
    }
    free(a);
    free(b);
}
END_TEST

/* k = 0: an empty sum, every element of c becomes zero. */
START_TEST(test_empty_inner)
{
    float c[6] = {1, 2, 3, 4, 5, 6};
    const float dummy = 9.0f;
    mat_set_backend(_i ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN);
    mat_mul(&dummy, &dummy, c, 2, 3, 0, false);
    for (int i = 0; i < 6; i++)
        ck_assert_float_eq(c[i], 0.0f);
}
END_TEST

START_TEST(test_backend_selection)
{
    const enum mat_backend want = mat_have_cblas() ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN;
    ck_assert_int_eq(mat_set_backend(MAT_BACKEND_CBLAS), want);
    ck_assert_int_eq(mat_get_backend(), want);
    ck_assert_int_eq(mat_set_backend(MAT_BACKEND_PLAIN), MAT_BACKEND_PLAIN);
    ck_assert_int_eq(mat_get_backend(), MAT_BACKEND_PLAIN);
    ck_assert_str_eq(mat_backend_name(MAT_BACKEND_PLAIN), "plain");
    ck_assert_str_eq(mat_backend_name(MAT_BACKEND_CBLAS), "cblas");
}
END_TEST

/* The operands of a product test, drawn from seed: A (a_floats floats in
 * ±2), B (k, n) and a bias (n) in ±1 and ±0.5, and C's first values (m, n)
 * in ±1, with a copy of those. */
struct operands {
    float *a, *b, *bias, *c, *c2;
};

static struct operands draw_operands(uint32_t seed, size_t a_floats, int m, int n, int k)
{
    struct rng r;
    rng_init(&r, seed);
    const size_t mn = (size_t)m * (size_t)n;
    struct operands o = {
        .a = random_floats(&r, a_floats, -2.0, 2.0),
        .b = random_floats(&r, (size_t)k * (size_t)n, -1.0, 1.0),
        .bias = random_floats(&r, (size_t)n, -0.5, 0.5),
        .c = random_floats(&r, mn, -1.0, 1.0),
        .c2 = malloc(mn * sizeof(float)),
    };
    ck_assert_ptr_nonnull(o.c2);
    memcpy(o.c2, o.c, mn * sizeof(float));
    return o;
}

static void free_operands(struct operands *o)
{
    free(o->a);
    free(o->b);
    free(o->bias);
    free(o->c);
    free(o->c2);
}

/* mat_rows_times takes the columns of C thirty-two and sixteen at a time,
 * eight rows at a time, in registers of sixteen where the processor has
 * AVX-512, sixteen as two registers of eight otherwise, six rows at a time
 * (then eight, four, one columns); each element is its products summed in
 * order from p = 0 either way, so the bits are the same.  Held here by
 * computing C whole (the wide blocks where there are any) and again eight
 * columns at a time (a product eight columns wide never takes them), every
 * column of an eight-block compared.  _i: size (bits 2..), add (bit 1),
 * bias (bit 0). */
START_TEST(test_rows_times_blocks)
{
    static const int sizes[][3] = {{6, 32, 5},    {7, 70, 33}, {13, 48, 20}, {12, 96, 16},
                                   {20, 100, 64}, {5, 37, 3},  {1, 64, 9},   {6, 130, 4}};
    const int *s = sizes[_i / 4];
    const int m = s[0], n = s[1], k = s[2];
    const bool add = _i & 2, with_bias = _i & 1;
    struct operands o = draw_operands(5000u + (uint32_t)_i, (size_t)m * (size_t)k, m, n, k);
    const float *a = o.a, *b = o.b, *bias = o.bias;
    float *whole = o.c, *slices = o.c2;
    mat_rows_times(a, (size_t)k, 1, b, (size_t)n, whole, (size_t)n, m, n, k, add,
                   with_bias ? bias : NULL);
    const int blocked = n / 8 * 8;
    for (int j = 0; j < blocked; j += 8)
        mat_rows_times(a, (size_t)k, 1, b + j, (size_t)n, slices + j, (size_t)n, m, 8, k, add,
                       with_bias ? bias + j : NULL);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < blocked; j++) {
            const size_t at = (size_t)i * (size_t)n + (size_t)j;
            ck_assert_msg(memcmp(whole + at, slices + at, sizeof *whole) == 0,
                          "(%d, %d, %d) row %d column %d: %.9g whole, %.9g by eight", m, n, k, i, j,
                          (double)whole[at], (double)slices[at]);
        }
    free_operands(&o);
}
END_TEST

/* A read down its columns over a long p (a weights' gradient) is taken a
 * stretch of p at a time, the sums kept between stretches; every element
 * comes out as from the same A copied to rows first (which takes the loops
 * in one go), to the bit.  _i: size (bits 2..), add (bit 1), bias (bit 0). */
START_TEST(test_rows_times_stretches)
{
    static const int sizes[][3] = {{19, 200, 1000}, {8, 40, 4100}, {64, 256, 700}};
    const int *sz = sizes[_i / 4];
    const int m = sz[0], n = sz[1], k = sz[2];
    const bool add = _i & 2, with_bias = _i & 1;
    const size_t mn = (size_t)m * (size_t)n;
    /* a: (k, m), A transposed */
    struct operands o = draw_operands(5500u + (uint32_t)_i, (size_t)k * (size_t)m, m, n, k);
    const float *a = o.a, *b = o.b, *bias = o.bias;
    float *down = o.c, *rows = o.c2, *at = malloc((size_t)m * (size_t)k * sizeof *at);
    ck_assert_ptr_nonnull(at);
    for (int p = 0; p < k; p++)
        for (int i = 0; i < m; i++)
            at[(size_t)i * (size_t)k + (size_t)p] = a[(size_t)p * (size_t)m + (size_t)i];
    mat_rows_times(a, 1, (size_t)m, b, (size_t)n, down, (size_t)n, m, n, k, add,
                   with_bias ? bias : NULL);
    mat_rows_times(at, (size_t)k, 1, b, (size_t)n, rows, (size_t)n, m, n, k, add,
                   with_bias ? bias : NULL);
    for (size_t x = 0; x < mn; x++)
        ck_assert_msg(memcmp(down + x, rows + x, sizeof *down) == 0,
                      "(%d, %d, %d) element %zu: %.9g down the columns, %.9g from rows", m, n, k, x,
                      (double)down[x], (double)rows[x]);
    free_operands(&o);
    free(at);
}
END_TEST

/* mat_transpose_rows moves every float where the definition says, in its
 * tiles of eight and sixteen and at their edges, and leaves the floats
 * between bt's rows alone.  _i: rows 1..23, then 24..47 with k 16..39 and
 * bt's rows apart by more than their length. */
START_TEST(test_transpose_rows)
{
    const int rows = 1 + _i, k = _i < 23 ? 1 + (_i * 7) % 19 : 16 + _i % 24, ldb = k + 3;
    const int ldt = _i < 23 ? rows : rows + 5;
    struct rng r;
    rng_init(&r, 7000u + (uint32_t)_i);
    float *b = random_floats(&r, (size_t)rows * (size_t)ldb, -1.0, 1.0);
    float *bt = malloc((size_t)ldt * (size_t)k * sizeof *bt);
    ck_assert_ptr_nonnull(bt);
    for (size_t q = 0; q < (size_t)ldt * (size_t)k; q++)
        bt[q] = 2.0f;
    mat_transpose_rows(b, (size_t)ldb, rows, k, bt, (size_t)ldt);
    for (int p = 0; p < k; p++)
        for (int j = 0; j < ldt; j++)
            ck_assert_msg(bt[(size_t)p * (size_t)ldt + (size_t)j] ==
                              (j < rows ? b[(size_t)j * (size_t)ldb + (size_t)p] : 2.0f),
                          "rows %d, k %d: bt[%d][%d] wrong", rows, k, p, j);
    free(b);
    free(bt);
}
END_TEST

/* mat_col_sums adds every row of x to out, column by column, within float
 * rounding of sums in double: rows a multiple of four or not, columns in
 * blocks of eight, past one pass's 1024 and left over.  _i: the shape. */
START_TEST(test_col_sums)
{
    static const int sizes[][2] = {{1, 1},     {3, 7},    {5, 8},   {9, 9},
                                   {13, 1100}, {64, 300}, {7, 517}, {4096, 24}};
    const int m = sizes[_i][0], n = sizes[_i][1];
    struct rng r;
    rng_init(&r, 7100u + (uint32_t)_i);
    float *x = random_floats(&r, (size_t)m * (size_t)n, -1.0, 1.0);
    float *out = random_floats(&r, (size_t)n, -1.0, 1.0);
    double *want = malloc((size_t)n * sizeof *want);
    ck_assert_ptr_nonnull(want);
    for (int j = 0; j < n; j++) {
        want[j] = out[j];
        for (int i = 0; i < m; i++)
            want[j] += x[(size_t)i * (size_t)n + (size_t)j];
    }
    mat_col_sums(x, m, n, out);
    for (int j = 0; j < n; j++)
        ck_assert_msg(fabs(out[j] - want[j]) <= 1e-5 * (m + 1),
                      "%d x %d: column %d sums to %g, not %g", m, n, j, (double)out[j], want[j]);
    free(x);
    free(out);
    free(want);
}
END_TEST

/* ------------------------------------------------------------ TCase large */

/* Products above MAT_SMALL_MACS: OpenBLAS's, or the plain loops' where
 * mat_rows_plain_wins keeps them there (registers of sixteen floats), each
 * within float rounding of sums in double, under both backends: mat_mul
 * (_i bit 0: transposed), mat_linear with its bias and mat_linear_backward's
 * three gradients.  _i / 2: the shape (m, n, k); the last two take B in
 * slices copied next to each other (mat_mul's B at 600 × 400, the weights'
 * gradient's at 2048 × 96). */
START_TEST(test_large_products)
{
    static const int sizes[][3] = {{1024, 96, 96}, {160, 256, 256}, {64, 600, 400}, {2048, 72, 96}};
    const int *sz = sizes[_i / 2];
    const int m = sz[0], n = sz[1], k = sz[2];
    const bool trans_b = _i % 2;
    ck_assert((size_t)m * (size_t)n * (size_t)k > MAT_SMALL_MACS);
    struct rng r;
    rng_init(&r, 6000u + (uint32_t)_i);
    const size_t mn = (size_t)m * (size_t)n, mk = (size_t)m * (size_t)k, nk = (size_t)n * (size_t)k;
    float *x = random_floats(&r, mk, -2.0, 2.0), *w = random_floats(&r, nk, -1.0, 1.0);
    float *bias = random_floats(&r, (size_t)n, -0.5, 0.5), *dy = random_floats(&r, mn, -1.0, 1.0);
    float *y = malloc(mn * sizeof *y), *dx = malloc(mk * sizeof *dx), *dw = malloc(nk * sizeof *dw);
    float *db = malloc((size_t)n * sizeof *db);
    double *ref = malloc(mn * sizeof *ref), *bound = malloc(mn * sizeof *bound);
    ck_assert(y && dx && dw && db && ref && bound);
    reference_mul(x, w, ref, bound, m, n, k, trans_b);
    for (int be = 0; be < 2; be++) {
        mat_set_backend(be ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN);
        mat_mul(x, w, y, m, n, k, trans_b);
        for (size_t i = 0; i < mn; i++)
            ck_assert_double_eq_tol((double)y[i], ref[i], bound[i]);
        if (!trans_b)
            continue;
        /* y = x·wᵀ + bias, and its gradients for dy */
        mat_linear(x, w, bias, y, m, n, k);
        for (size_t i = 0; i < mn; i++)
            ck_assert_double_eq_tol((double)y[i], ref[i] + bias[i % (size_t)n],
                                    bound[i] +
                                        2 * FLT_EPSILON * fabs(ref[i] + bias[i % (size_t)n]));
        memset(dx, 0, mk * sizeof *dx);
        memset(dw, 0, nk * sizeof *dw);
        memset(db, 0, (size_t)n * sizeof *db);
        mat_linear_backward(x, w, dy, dx, dw, db, m, n, k);
        for (int i = 0; i < m; i++) /* dx = dy·w */
            for (int p = 0; p < k; p++) {
                double sum = 0.0, abs_sum = 0.0;
                for (int j = 0; j < n; j++) {
                    const double t = (double)dy[(size_t)i * (size_t)n + (size_t)j] *
                                     w[(size_t)j * (size_t)k + (size_t)p];
                    sum += t;
                    abs_sum += fabs(t);
                }
                ck_assert_double_eq_tol((double)dx[(size_t)i * (size_t)k + (size_t)p], sum,
                                        n * FLT_EPSILON * abs_sum + 1e-30);
            }
        for (int j = 0; j < n; j++) { /* dw = dyᵀ·x, db = Σ dy */
            double bsum = 0.0, babs = 0.0;
            for (int i = 0; i < m; i++) {
                bsum += dy[(size_t)i * (size_t)n + (size_t)j];
                babs += fabs(dy[(size_t)i * (size_t)n + (size_t)j]);
            }
            ck_assert_double_eq_tol((double)db[j], bsum, m * FLT_EPSILON * babs + 1e-30);
            for (int p = 0; p < k; p++) {
                double sum = 0.0, abs_sum = 0.0;
                for (int i = 0; i < m; i++) {
                    const double t = (double)dy[(size_t)i * (size_t)n + (size_t)j] *
                                     x[(size_t)i * (size_t)k + (size_t)p];
                    sum += t;
                    abs_sum += fabs(t);
                }
                ck_assert_double_eq_tol((double)dw[(size_t)j * (size_t)k + (size_t)p], sum,
                                        m * FLT_EPSILON * abs_sum + 1e-30);
            }
        }
    }
    free(x);
    free(w);
    free(bias);
    free(dy);
    free(y);
    free(dx);
    free(dw);
    free(db);
    free(ref);
    free(bound);
}
END_TEST

/* ----------------------------------------------------------- TCase linear */

/* _i: shape (bit 1..), bias or not (bit 0); each under both backends. */
START_TEST(test_linear_against_loop)
{
    static const int sizes[][3] = {{1, 1, 1}, {4, 6, 6}, {3, 12, 7}, {33, 64, 64}, {5, 2, 37}};
    const int *s = sizes[_i / 2];
    const int m = s[0], n = s[1], k = s[2];
    const bool with_bias = _i % 2;
    struct rng r;
    rng_init(&r, 3000u + (uint32_t)_i);
    float *x = random_floats(&r, (size_t)m * (size_t)k, -2.0, 2.0);
    float *w = random_floats(&r, (size_t)n * (size_t)k, -1.0, 1.0);
    float *b = random_floats(&r, (size_t)n, -0.5, 0.5);
    float *y = malloc((size_t)m * (size_t)n * sizeof *y);
    ck_assert_ptr_nonnull(y);
    for (int be = 0; be < 2; be++) {
        mat_set_backend(be ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN);
        memset(y, 0xff, (size_t)m * (size_t)n * sizeof *y); /* NaN: must be overwritten */
        mat_linear(x, w, with_bias ? b : NULL, y, m, n, k);
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++) {
                double sum = with_bias ? b[j] : 0.0, abs_sum = fabs(sum);
                for (int p = 0; p < k; p++) {
                    const double term = (double)x[(size_t)i * (size_t)k + (size_t)p] *
                                        w[(size_t)j * (size_t)k + (size_t)p];
                    sum += term;
                    abs_sum += fabs(term);
                }
                const double tol = (k + 1) * FLT_EPSILON * abs_sum + 1e-30;
                ck_assert_double_eq_tol((double)y[(size_t)i * (size_t)n + (size_t)j], sum, tol);
            }
    }
    free(x);
    free(w);
    free(b);
    free(y);
}
END_TEST

/* ---------------------------------------------------------- TCase softmax */

static double row_sum(const float *row, int n)
{
    double s = 0.0;
    for (int j = 0; j < n; j++)
        s += row[j];
    return s;
}

START_TEST(test_softmax_values)
{
    float row[3] = {1.0f, 2.0f, 3.0f};
    ck_assert(mat_softmax_row(row, 3));
    const double z = exp(1.0) + exp(2.0) + exp(3.0);
    for (int j = 0; j < 3; j++)
        ck_assert_float_eq_tol(row[j], (float)(exp(j + 1.0) / z), 1e-6f);

    float pair[2] = {0.0f, logf(2.0f)};
    ck_assert(mat_softmax_row(pair, 2));
    ck_assert_float_eq_tol(pair[0], 1.0f / 3.0f, 1e-6f);
    ck_assert_float_eq_tol(pair[1], 2.0f / 3.0f, 1e-6f);

    float one[1] = {-7.5f};
    ck_assert(mat_softmax_row(one, 1));
    ck_assert_float_eq(one[0], 1.0f);
}
END_TEST

START_TEST(test_softmax_masked_entries)
{
    float row[6] = {0.5f, -INFINITY, 1.5f, -INFINITY, -INFINITY, -0.25f};
    ck_assert(mat_softmax_row(row, 6));
    ck_assert_float_eq(row[1], 0.0f);
    ck_assert_float_eq(row[3], 0.0f);
    ck_assert_float_eq(row[4], 0.0f);
    ck_assert(!signbit(row[1]) && !signbit(row[3]) && !signbit(row[4]));
    const double z = exp(0.5) + exp(1.5) + exp(-0.25);
    ck_assert_float_eq_tol(row[0], (float)(exp(0.5) / z), 1e-6f);
    ck_assert_float_eq_tol(row[2], (float)(exp(1.5) / z), 1e-6f);
    ck_assert_float_eq_tol(row[5], (float)(exp(-0.25) / z), 1e-6f);
    ck_assert_double_eq_tol(row_sum(row, 6), 1.0, 1e-6);

    /* only one key left: it gets everything */
    float single[4] = {-INFINITY, -INFINITY, 42.0f, -INFINITY};
    ck_assert(mat_softmax_row(single, 4));
    ck_assert_float_eq(single[2], 1.0f);
    ck_assert_float_eq(single[0] + single[1] + single[3], 0.0f);
}
END_TEST

START_TEST(test_softmax_all_masked)
{
    float row[5] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    ck_assert(!mat_softmax_row(row, 5));
    for (int j = 0; j < 5; j++) {
        ck_assert(!isnan(row[j]));
        ck_assert_float_eq(row[j], 0.0f);
    }
    float one[1] = {-INFINITY};
    ck_assert(!mat_softmax_row(one, 1));
    ck_assert_float_eq(one[0], 0.0f);
}
END_TEST

START_TEST(test_softmax_large_values)
{
    float big[4] = {1e4f, 1e4f - 1.0f, -1e4f, 1e4f};
    ck_assert(mat_softmax_row(big, 4));
    for (int j = 0; j < 4; j++)
        ck_assert_float_finite(big[j]);
    const double z = 2.0 + exp(-1.0);
    ck_assert_float_eq_tol(big[0], (float)(1.0 / z), 1e-6f);
    ck_assert_float_eq_tol(big[1], (float)(exp(-1.0) / z), 1e-6f);
    ck_assert_float_eq(big[2], 0.0f);
    ck_assert_double_eq_tol(row_sum(big, 4), 1.0, 1e-6);

    /* very negative but not masked: still a proper distribution */
    float low[3] = {-1e4f, -1e4f, -1e4f};
    ck_assert(mat_softmax_row(low, 3));
    for (int j = 0; j < 3; j++)
        ck_assert_float_eq_tol(low[j], 1.0f / 3.0f, 1e-6f);

    /* the largest finite floats */
    float edge[3] = {FLT_MAX, -FLT_MAX, FLT_MAX};
    ck_assert(mat_softmax_row(edge, 3));
    for (int j = 0; j < 3; j++)
        ck_assert_float_finite(edge[j]);
    ck_assert_float_eq_tol(edge[0], 0.5f, 1e-6f);
    ck_assert_float_eq(edge[1], 0.0f);
}
END_TEST

/* Adding a constant to every entry changes nothing. */
START_TEST(test_softmax_shift)
{
    struct rng r;
    rng_init(&r, 11);
    float a[9], b[9];
    for (int j = 0; j < 9; j++) {
        a[j] = (float)rng_uniform(&r, -4.0, 4.0);
        b[j] = a[j] + 100.0f;
    }
    ck_assert(mat_softmax_row(a, 9));
    ck_assert(mat_softmax_row(b, 9));
    for (int j = 0; j < 9; j++)
        ck_assert_float_eq_tol(a[j], b[j], 1e-4f);
}
END_TEST

/* OPENBLAS_CORETYPE as the test started, before the library was opened:
 * NULL when unset. */
static char *coretype_at_start;

/* Opening OpenBLAS leaves the environment as it found it (src/engine/mat_blas.c
 * may set OPENBLAS_CORETYPE for the library's start alone), says which
 * kernels the library chose, and keeps a choice the environment made. */
START_TEST(test_blas_environment_kept)
{
    ck_assert(mat_have_cblas());
    const char *now = getenv("OPENBLAS_CORETYPE");
    if (!coretype_at_start)
        ck_assert_msg(!now, "OPENBLAS_CORETYPE was unset and is now '%s'", now);
    else {
        ck_assert_msg(now, "OPENBLAS_CORETYPE was '%s' and is now unset", coretype_at_start);
        ck_assert_str_eq(now, coretype_at_start);
    }
    ck_assert_msg(*mat_blas_core(), "OpenBLAS opened but its kernels have no name");
    if (coretype_at_start && *coretype_at_start)
        ck_assert_msg(strcasecmp(mat_blas_core(), coretype_at_start) == 0,
                      "OPENBLAS_CORETYPE=%s, and OpenBLAS chose %s", coretype_at_start,
                      mat_blas_core());
    /* left to the program: AMD's AVX-512 processors get the AVX-512 kernels */
    if ((!coretype_at_start || !*coretype_at_start) && mat_cpu_amd_avx512())
        ck_assert_str_eq(mat_blas_core(), "SkylakeX");
}
END_TEST

/* The cases that go through mat_mul's CBLAS backend or open the library are
 * tagged "blas": mat_blas_kernels runs those again with OPENBLAS_CORETYPE
 * empty (CK_INCLUDE_TAGS=blas); the plain loops' cases do not depend on it. */
static Suite *mat_suite(void)
{
    Suite *s = suite_create("mat");

    TCase *tc = tcase_create("mul");
    tcase_add_loop_test(tc, test_plain_against_double, 0, 2 * N_SHAPES);
    tcase_add_test(tc, test_dispatch_plain);
    tcase_add_loop_test(tc, test_rows_times_blocks, 0, 32);
    tcase_add_loop_test(tc, test_transpose_rows, 0, 47);
    tcase_add_loop_test(tc, test_rows_times_stretches, 0, 12);
    tcase_add_loop_test(tc, test_col_sums, 0, 8);
    suite_add_tcase(s, tc);

    tc = tcase_create("backend");
    tcase_set_tags(tc, "blas");
    if (mat_have_cblas()) {
        tcase_add_loop_test(tc, test_plain_against_cblas, 0, 2 * N_SHAPES);
        tcase_add_test(tc, test_blas_environment_kept);
    } else {
        printf("mat: SKIPPED test_plain_against_cblas: this build has no CBLAS "
               "(meson setup -Dblas=enabled with OpenBLAS installed runs it); "
               "checking the fallback to the plain loop instead\n");
        tcase_add_loop_test(tc, test_cblas_absent_falls_back, 0, 2 * N_SHAPES);
    }
    tcase_add_loop_test(tc, test_empty_inner, 0, 2);
    tcase_add_test(tc, test_backend_selection);
    suite_add_tcase(s, tc);

    tc = tcase_create("large");
    tcase_set_tags(tc, "blas");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_large_products, 0, 8);
    suite_add_tcase(s, tc);

    tc = tcase_create("linear");
    tcase_set_tags(tc, "blas");
    tcase_add_loop_test(tc, test_linear_against_loop, 0, 10);
    suite_add_tcase(s, tc);

    tc = tcase_create("softmax");
    tcase_add_test(tc, test_softmax_values);
    tcase_add_test(tc, test_softmax_masked_entries);
    tcase_add_test(tc, test_softmax_all_masked);
    tcase_add_test(tc, test_softmax_large_values);
    tcase_add_test(tc, test_softmax_shift);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    const char *coretype = getenv("OPENBLAS_CORETYPE");
    coretype_at_start = coretype ? strdup(coretype) : NULL;
    SRunner *sr = srunner_create(mat_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    free(coretype_at_start);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
