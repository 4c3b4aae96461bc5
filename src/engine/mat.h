/* mat.h - the one matrix multiply the engine uses, and the small helpers
 * around it.  The plain loop is the readable reference; when the build found
 * CBLAS (OpenBLAS), the same call can go through cblas_sgemm instead.  Tests
 * hold both paths to the same numbers. */
#ifndef MHA_MAT_H
#define MHA_MAT_H

#include <stdbool.h>

enum mat_backend {
    MAT_BACKEND_PLAIN, /* the readable triple loop */
    MAT_BACKEND_CBLAS  /* cblas_sgemm, only when built with CBLAS */
};

/* c (m, n) = a (m, k) · b  where b is (k, n), or (n, k) read transposed when
 * trans_b is true.  c must not alias a or b. */
void mat_mul(const float *a, const float *b, float *c, int m, int n, int k, bool trans_b);

/* The plain loop, always available (the reference the CBLAS path is held to). */
void mat_mul_plain(const float *a, const float *b, float *c, int m, int n, int k, bool trans_b);

/* True when this build has the CBLAS path. */
bool mat_have_cblas(void);

/* Select the path mat_mul takes; CBLAS falls back to plain when not built.
 * Default: CBLAS when available.  Returns the backend now in force. */
enum mat_backend mat_set_backend(enum mat_backend b);
enum mat_backend mat_get_backend(void);
/* "plain" or "cblas" */
const char *mat_backend_name(enum mat_backend b);

/* y (m, n) = x (m, k) · wᵀ + b, w (n, k) in the nn.Linear layout; b may be NULL. */
void mat_linear(const float *x, const float *w, const float *b, float *y, int m, int n, int k);

/* Softmax of one row of n entries in place, subtracting the row max; -INFINITY
 * entries become exact zeros.  Returns false (row set to zeros) when every
 * entry is -INFINITY. */
bool mat_softmax_row(float *row, int n);
/* The same row's softmax when its max is known (and not -INFINITY, a row
 * with a key left): the numbers mat_softmax_row gives, without the pass
 * that finds the max. */
void mat_softmax_row_max(float *row, int n, float max);

/* ---- backward twins (training): each ADDS into its outputs ---- */

/* Of c (m, n) = a (m, k) · b (b (k, n), or (n, k) when trans_b), given dc:
 * da (m, k) += dc·bᵀ (or dc·b), db += aᵀ·dc (or dcᵀ·a).  da or db may be
 * NULL to skip it. */
void mat_mul_backward(const float *a, const float *b, const float *dc, float *da, float *db, int m,
                      int n, int k, bool trans_b);

/* Of y (m, n) = x (m, k) · wᵀ + b, given dy: dx (m, k) += dy·w,
 * dw (n, k) += dyᵀ·x, db (n) += column sums of dy.  dx or db may be NULL. */
void mat_linear_backward(const float *x, const float *w, const float *dy, float *dx, float *dw,
                         float *db, int m, int n, int k);

/* Of y = softmax(x) over a row of n, given y and dy: dx = y ⊙ (dy − Σ y·dy)
 * (written, not added).  Masked entries (y = 0) get exactly 0. */
void mat_softmax_row_backward(const float *y, const float *dy, float *dx, int n);

#endif
