/* mat_blas.h - cblas_sgemm from OpenBLAS, opened at the first call (not at
 * the program's start), in builds made with it. */
#ifndef MHA_MAT_BLAS_H
#define MHA_MAT_BLAS_H

#include <stdbool.h>

/* The library could be opened (it is, after the first call). */
bool mat_blas_available(void);

/* The kernels OpenBLAS chose for this processor ("SkylakeX", "Haswell",
 * ...); "" where it cannot be opened or does not say. */
const char *mat_blas_core(void);

/* c = alpha · op(a) · op(b) + beta · c, row-major, as cblas_sgemm; false
 * (nothing done) where OpenBLAS cannot be opened. */
bool mat_blas_sgemm(bool trans_a, bool trans_b, int m, int n, int k, float alpha, const float *a,
                    int lda, const float *b, int ldb, float beta, float *c, int ldc);

#endif
