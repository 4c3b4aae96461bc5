/* mat.c - the matrix multiply (plain loop and CBLAS), linear layers, softmax. */
#include "engine/mat.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mat_kernel.h"
#include "mha_config.h"

#include "engine/mat_blas.h"

#if MHA_HAVE_CBLAS
static enum mat_backend backend = MAT_BACKEND_CBLAS;
#else
static enum mat_backend backend = MAT_BACKEND_PLAIN;
#endif

bool mat_have_cblas(void)
{
    return MHA_HAVE_CBLAS != 0 && mat_blas_available();
}

enum mat_backend mat_set_backend(enum mat_backend b)
{
    backend = (b == MAT_BACKEND_CBLAS && !mat_have_cblas()) ? MAT_BACKEND_PLAIN : b;
    return backend;
}

enum mat_backend mat_get_backend(void)
{
    return backend;
}

const char *mat_backend_name(enum mat_backend b)
{
    return b == MAT_BACKEND_CBLAS ? "cblas" : "plain";
}

/* c (m, n) = a · bᵀ, b (n, k), by dot products: for k too long to copy even
 * one column panel of b. */
static void mul_trans_dots(const float *a, const float *b, float *c, int m, int n, int k)
{
    for (int i = 0; i < m; i++) {
        const float *ai = a + (size_t)i * (size_t)k;
        for (int j = 0; j < n; j++) {
            const float *bj = b + (size_t)j * (size_t)k;
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum = MAT_FMA(ai[p], bj[p], sum);
            c[(size_t)i * (size_t)n + (size_t)j] = sum;
        }
    }
}

/* Columns of b in a panel on the heap, for k too long for a panel of at
 * least 32 columns (the loops' widest block) on the stack: 128, whose
 * transposed rows (256 KiB at k 512) stay in the second-level cache while
 * every row of a reads them, and half as many panels as 64 leave half as
 * many first rows that mat_transpose_rows cannot ask for ahead (a forward
 * pass at 256 tokens, d_model 512: 9.5 % of its time in the transposes
 * before, 5.3 % after, bench/README.md). */
#define HEAP_PANEL_COLS 128

/* c (m, n) = a (m, k) · bᵀ + bias, b (n, k), bias (n) or NULL: a panel of
 * b's rows at a time is copied transposed into bt (k, w), and row i of c's
 * panel is Σ_p a[i][p] · row p of bt (the same sums, in the same order, as
 * dot products of rows), the bias added after. */
static void mul_trans(const float *a, const float *b, float *c, int m, int n, int k,
                      const float *bias)
{
    float stack_panel[MAT_PANEL_FLOATS];
    float *bt = stack_panel, *heap = NULL;
    int nb = MAT_PANEL_FLOATS / k;
    if (nb < 32 && n > nb) {
        const int cols = n < HEAP_PANEL_COLS ? n : HEAP_PANEL_COLS;
        heap = malloc((size_t)k * (size_t)cols * sizeof *heap);
        if (heap) {
            bt = heap;
            nb = cols;
        }
    }
    if (nb < 8) {
        mul_trans_dots(a, b, c, m, n, k);
        for (int i = 0; bias && i < m; i++)
            for (int j = 0; j < n; j++)
                c[(size_t)i * (size_t)n + (size_t)j] += bias[j];
        return;
    }
    for (int j0 = 0; j0 < n; j0 += nb) {
        const int w = n - j0 < nb ? n - j0 : nb;
        mat_transpose_rows(b + (size_t)j0 * (size_t)k, (size_t)k, w, k, bt, (size_t)w);
        mat_rows_times(a, (size_t)k, 1, bt, (size_t)w, c + j0, (size_t)n, m, w, k, false,
                       bias ? bias + j0 : NULL);
    }
    free(heap);
}

void mat_mul_plain(const float *a, const float *b, float *c, int m, int n, int k, bool trans_b)
{
    /* a: (m, k), b: (n, k) when trans_b else (k, n) -> c: (m, n) */
    if (trans_b)
        mul_trans(a, b, c, m, n, k, NULL);
    else /* row i of c = Σ_p a[i][p] · row p of b */
        mat_rows_times(a, (size_t)k, 1, b, (size_t)n, c, (size_t)n, m, n, k, false, NULL);
}

void mat_mul(const float *a, const float *b, float *c, int m, int n, int k, bool trans_b)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        memset(c, 0, (size_t)m * (size_t)n * sizeof *c);
        return;
    }
    if (backend == MAT_BACKEND_CBLAS && (size_t)m * (size_t)n * (size_t)k > MAT_SMALL_MACS &&
        !mat_rows_plain_wins() &&
        mat_blas_sgemm(false, trans_b, m, n, k, 1.0f, a, k, b, trans_b ? k : n, 0.0f, c, n))
        return;
    mat_mul_plain(a, b, c, m, n, k, trans_b);
}

void mat_linear(const float *x, const float *w, const float *b, float *y, int m, int n, int k)
{
    /* x: (m, k), w: (n, k) -> y: (m, n) = x·wᵀ + b */
    if (m <= 0 || n <= 0)
        return;
    if (backend == MAT_BACKEND_CBLAS && k > 0 &&
        (size_t)m * (size_t)n * (size_t)k > MAT_SMALL_MACS && !mat_rows_plain_wins() &&
        mat_blas_available()) {
        mat_mul(x, w, y, m, n, k, true);
        for (int i = 0; b && i < m; i++)
            for (int j = 0; j < n; j++)
                y[(size_t)i * (size_t)n + (size_t)j] += b[j];
        return;
    }
    if (k <= 0) {
        for (int i = 0; i < m; i++)
            for (int j = 0; j < n; j++)
                y[(size_t)i * (size_t)n + (size_t)j] = b ? b[j] : 0.0f;
        return;
    }
    mul_trans(x, w, y, m, n, k, b);
}

/* Running maxima the softmax keeps side by side (vector lanes). */
#define MAT_MAX_LANES 8

/* Passes 2 and 3 of the softmax, the row's max known (not -INFINITY). */
MAT_KERNEL void mat_softmax_row_max(float *row, int n, float max)
{
    int j;
    /* pass 2: e^(s - max) by mat_exp_neg, a vector of entries at a time;
     * masked entries, and any more than 87 below the max (whose e^x is under
     * 1.7e-38 and rounds away in the sum), exactly 0.  The sum in double. */
    for (j = 0; j < n; j++) {
        const float x = row[j] - max; /* -INFINITY for a masked entry */
        const float e = mat_exp_neg(x > MAT_EXP_NEG_MIN ? x : MAT_EXP_NEG_MIN);
        row[j] = x >= MAT_EXP_NEG_MIN ? e : 0.0f;
    }
    /* the sum in MAT_MAX_LANES running double sums, as mat_softmax_row finds the max */
    double part[MAT_MAX_LANES] = {0};
    for (j = 0; j + MAT_MAX_LANES <= n; j += MAT_MAX_LANES)
        for (int l = 0; l < MAT_MAX_LANES; l++)
            part[l] += row[j + l];
    double sum = 0.0;
    for (int l = 0; l < MAT_MAX_LANES; l++)
        sum += part[l];
    for (; j < n; j++)
        sum += row[j];
    /* pass 3: normalise (sum >= 1 since the max entry contributes exp(0)) */
    const float inv = (float)(1.0 / sum);
    for (int j = 0; j < n; j++)
        row[j] *= inv;
}

MAT_KERNEL bool mat_softmax_row(float *row, int n)
{
    /* pass 1: the row max over unmasked entries.  The max of a set does not
     * depend on the order it is read in, so MAT_MAX_LANES running maxima
     * take every MAT_MAX_LANES-th entry each (independent compares the CPU
     * overlaps, instead of one chain), then the lanes and the tail meet. */
    float lane[MAT_MAX_LANES];
    for (int l = 0; l < MAT_MAX_LANES; l++)
        lane[l] = -INFINITY;
    int j = 0;
    for (; j + MAT_MAX_LANES <= n; j += MAT_MAX_LANES)
        for (int l = 0; l < MAT_MAX_LANES; l++)
            lane[l] = row[j + l] > lane[l] ? row[j + l] : lane[l];
    float max = -INFINITY;
    for (int l = 0; l < MAT_MAX_LANES; l++)
        if (lane[l] > max)
            max = lane[l];
    for (; j < n; j++)
        if (row[j] > max)
            max = row[j];
    if (max == -INFINITY) {
        for (j = 0; j < n; j++)
            row[j] = 0.0f;
        return false;
    }
    mat_softmax_row_max(row, n, max);
    return true;
}
