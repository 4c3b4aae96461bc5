/* mat_backward.c - the backward twins of mat_mul, mat_linear and
 * mat_softmax_row: given the gradient of the result, add the gradients of
 * the inputs.  Plain loops over small matrices (the sizes a model trained on
 * screen has), in the order that keeps the inner loop contiguous. */
#include "engine/mat.h"

#include <stddef.h>

#include "engine/mat_kernel.h"
#include "mha_config.h"

#include "engine/mat_blas.h"

void mat_mul_backward(const float *a, const float *b, const float *dc, float *da, float *db, int m,
                      int n, int k, bool trans_b)
{
    /* a: (m, k), b: (n, k) when trans_b else (k, n), dc: (m, n) */
    if (trans_b) {
        /* c = a·bᵀ: da (m, k) += dc (m, n) · b (n, k) and
         * db (n, k) += dcᵀ (n, m) · a (m, k) */
        if (da)
            mat_rows_times(dc, (size_t)n, 1, b, (size_t)k, da, (size_t)k, m, k, n, true, NULL);
        if (db)
            mat_rows_times(dc, 1, (size_t)n, a, (size_t)k, db, (size_t)k, n, k, m, true, NULL);
        return;
    }
    /* c = a·b: da (m, k) += dc (m, n) · bᵀ (n, k) and db (k, n) += aᵀ (k, m) · dc (m, n) */
    if (db)
        mat_rows_times(a, 1, (size_t)k, dc, (size_t)n, db, (size_t)n, k, n, m, true, NULL);
    if (!da)
        return;
    if ((size_t)n * (size_t)k <= MAT_PANEL_FLOATS) {
        /* bᵀ copied, so that rows of it are contiguous */
        float bt[MAT_PANEL_FLOATS];
        for (int p = 0; p < k; p++)
            for (int j = 0; j < n; j++)
                bt[(size_t)j * (size_t)k + (size_t)p] = b[(size_t)p * (size_t)n + (size_t)j];
        mat_rows_times(dc, (size_t)n, 1, bt, (size_t)k, da, (size_t)k, m, k, n, true, NULL);
        return;
    }
    /* a b too large to copy: dot products of dc's rows and b's rows */
    for (int i = 0; i < m; i++) {
        const float *dci = dc + (size_t)i * (size_t)n;
        float *dai = da + (size_t)i * (size_t)k;
        for (int p = 0; p < k; p++) {
            const float *bp = b + (size_t)p * (size_t)n;
            float sum = 0.0f;
            for (int j = 0; j < n; j++)
                sum = MAT_FMA(dci[j], bp[j], sum);
            dai[p] += sum;
        }
    }
}

void mat_linear_backward(const float *x, const float *w, const float *dy, float *dx, float *dw,
                         float *db, int m, int n, int k)
{
    /* x: (m, k), w: (n, k), dy: (m, n) */
    /* pass 2: the bias gets every row of dy */
    if (db)
        mat_col_sums(dy, m, n, db);
    /* the same two products as one cblas_sgemm each (beta 1 adds), where
     * the plain loops are not the faster */
    if (mat_get_backend() == MAT_BACKEND_CBLAS && m > 0 && n > 0 && k > 0 &&
        (size_t)m * (size_t)n * (size_t)k > MAT_SMALL_MACS && !mat_rows_plain_wins() &&
        mat_blas_available()) {
        if (dx)
            mat_blas_sgemm(false, false, m, k, n, 1.0f, dy, n, w, k, 1.0f, dx, k);
        if (dw)
            mat_blas_sgemm(true, false, n, k, m, 1.0f, dy, n, x, k, 1.0f, dw, k);
        return;
    }
    /* pass 1: y = x·wᵀ is mat_mul with trans_b */
    mat_mul_backward(x, w, dy, dx, dw, m, n, k, true);
}

void mat_softmax_row_backward(const float *y, const float *dy, float *dx, int n)
{
    /* pass 2: Σ_j y_j dy_j; pass 1: dx_i = y_i (dy_i − that sum) */
    float dot = 0.0f;
    for (int j = 0; j < n; j++)
        dot = MAT_FMA(y[j], dy[j], dot);
    for (int j = 0; j < n; j++)
        dx[j] = y[j] * (dy[j] - dot);
}
