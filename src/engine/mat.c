/* mat.c - the matrix multiply (plain loop and CBLAS), linear layers, softmax. */
#include "engine/mat.h"

#include <math.h>
#include <string.h>

#include "mha_config.h"

#if MHA_HAVE_CBLAS
#include <cblas.h>
static enum mat_backend backend = MAT_BACKEND_CBLAS;
#else
static enum mat_backend backend = MAT_BACKEND_PLAIN;
#endif

bool mat_have_cblas(void)
{
    return MHA_HAVE_CBLAS != 0;
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

void mat_mul_plain(const float *a, const float *b, float *c, int m, int n, int k, bool trans_b)
{
    /* a: (m, k), b: (n, k) when trans_b else (k, n) -> c: (m, n) */
    if (trans_b) {
        /* pass 1: every c[i][j] is the dot product of row i of a and row j of b */
        for (int i = 0; i < m; i++) {
            const float *ai = a + (size_t)i * (size_t)k;
            for (int j = 0; j < n; j++) {
                const float *bj = b + (size_t)j * (size_t)k;
                float sum = 0.0f;
                for (int p = 0; p < k; p++)
                    sum += ai[p] * bj[p];
                c[(size_t)i * (size_t)n + (size_t)j] = sum;
            }
        }
        return;
    }
    /* pass 1: clear c; pass 2: add a[i][p] times row p of b into row i of c */
    for (int i = 0; i < m; i++) {
        float *ci = c + (size_t)i * (size_t)n;
        memset(ci, 0, (size_t)n * sizeof *ci);
        const float *ai = a + (size_t)i * (size_t)k;
        for (int p = 0; p < k; p++) {
            const float aip = ai[p];
            const float *bp = b + (size_t)p * (size_t)n;
            for (int j = 0; j < n; j++)
                ci[j] += aip * bp[j];
        }
    }
}

void mat_mul(const float *a, const float *b, float *c, int m, int n, int k, bool trans_b)
{
    if (m <= 0 || n <= 0)
        return;
    if (k <= 0) {
        memset(c, 0, (size_t)m * (size_t)n * sizeof *c);
        return;
    }
#if MHA_HAVE_CBLAS
    if (backend == MAT_BACKEND_CBLAS) {
        cblas_sgemm(CblasRowMajor, CblasNoTrans, trans_b ? CblasTrans : CblasNoTrans, m, n, k, 1.0f,
                    a, k, b, trans_b ? k : n, 0.0f, c, n);
        return;
    }
#endif
    mat_mul_plain(a, b, c, m, n, k, trans_b);
}

void mat_linear(const float *x, const float *w, const float *b, float *y, int m, int n, int k)
{
    /* x: (m, k), w: (n, k) -> y: (m, n) = x·wᵀ + b */
    mat_mul(x, w, y, m, n, k, true);
    if (!b)
        return;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            y[(size_t)i * (size_t)n + (size_t)j] += b[j];
}

/* expf(x) is exactly +0 for every x below this (and for -INFINITY). */
#define MAT_EXP_ZERO (-104.0f)
/* Running maxima the softmax keeps side by side (vector lanes). */
#define MAT_MAX_LANES 8

bool mat_softmax_row(float *row, int n)
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
    /* pass 2: exp(s - max), masked entries exactly 0; the sum in double.
     * Below MAT_EXP_ZERO expf can only round to +0 (e^-104 < 2^-150, half the
     * smallest subnormal), so neither expf (whose underflow path is slow) nor
     * the sum (adding +0 changes nothing) is visited there.  With large
     * scores that is most of the row. */
    double sum = 0.0;
    for (j = 0; j < n; j++) {
        const float x = row[j] - max; /* -INFINITY for a masked entry */
        if (x < MAT_EXP_ZERO) {
            row[j] = 0.0f;
            continue;
        }
        row[j] = expf(x);
        sum += row[j];
    }
    /* pass 3: normalise (sum >= 1 since the max entry contributes exp(0)) */
    const float inv = (float)(1.0 / sum);
    for (int j = 0; j < n; j++)
        row[j] *= inv;
    return true;
}
