/* mat_rows.c - the loop under every small product of the engine (see
 * mat_kernel.h): row i of C is a sum of rows of B weighted by row i of A,
 * kept in a register eight (then four) columns at a time, so that each step
 * is one vector multiply and one vector add whatever the sizes are at run
 * time.  With GCC or Clang the registers are the compilers' vector types;
 * elsewhere the same loops on arrays. */
#include "engine/mat_kernel.h"

#if defined(__GNUC__)
typedef float vec8 __attribute__((vector_size(32)));
typedef float vec4 __attribute__((vector_size(16)));
#define VEC_ZERO(v) (v) = (__typeof__(v)){0}
#else
typedef struct {
    float f[8];
} vec8;
typedef struct {
    float f[4];
} vec4;
#define VEC_ZERO(v) memset(&(v), 0, sizeof(v))
#endif

/* Columns j .. j+W-1 of row i of C (W = 8, 4 or 1), from row i of A (ai,
 * stride acs) and rows of B starting at column j. */
#if defined(__GNUC__)
#define ROW_CHUNK(NAME, VT)                                                                       \
    static inline void NAME(const float *restrict ai, size_t acs, const float *restrict b,        \
                            size_t ldb, float *restrict ci, int kk, bool add)                     \
    {                                                                                             \
        VT acc;                                                                                   \
        VEC_ZERO(acc);                                                                            \
        for (int p = 0; p < kk; p++) {                                                            \
            const float s = ai[(size_t)p * acs];                                                  \
            if (s == 0.0f)                                                                        \
                continue;                                                                         \
            VT bp;                                                                                \
            memcpy(&bp, b + (size_t)p * ldb, sizeof bp);                                          \
            acc += s * bp;                                                                        \
        }                                                                                         \
        VT old;                                                                                   \
        memcpy(&old, ci, sizeof old);                                                             \
        if (add)                                                                                  \
            acc += old;                                                                           \
        memcpy(ci, &acc, sizeof acc);                                                             \
    }
/* The same for rows i .. i+3 of C at once: four independent sums, so the
 * adds do not wait on each other, and each row of B is loaded once. */
#define ROW_BLOCK4(NAME, VT)                                                                      \
    static inline void NAME(const float *restrict ai, size_t ars, size_t acs,                    \
                            const float *restrict b, size_t ldb, float *restrict ci, size_t ldc,   \
                            int kk, bool add)                                                     \
    {                                                                                             \
        VT acc[4];                                                                                \
        for (int r = 0; r < 4; r++)                                                               \
            VEC_ZERO(acc[r]);                                                                     \
        for (int p = 0; p < kk; p++) {                                                            \
            VT bp;                                                                                \
            memcpy(&bp, b + (size_t)p * ldb, sizeof bp);                                          \
            const float *ap = ai + (size_t)p * acs;                                               \
            acc[0] += ap[0] * bp;                                                                 \
            acc[1] += ap[ars] * bp;                                                               \
            acc[2] += ap[2 * ars] * bp;                                                           \
            acc[3] += ap[3 * ars] * bp;                                                           \
        }                                                                                         \
        for (int r = 0; r < 4; r++) {                                                             \
            float *cr = ci + (size_t)r * ldc;                                                     \
            VT old;                                                                               \
            memcpy(&old, cr, sizeof old);                                                         \
            if (add)                                                                              \
                acc[r] += old;                                                                    \
            memcpy(cr, &acc[r], sizeof acc[r]);                                                   \
        }                                                                                         \
    }
#else
#define ROW_CHUNK(NAME, VT)                                                                       \
    static inline void NAME(const float *restrict ai, size_t acs, const float *restrict b,        \
                            size_t ldb, float *restrict ci, int kk, bool add)                     \
    {                                                                                             \
        enum { W = sizeof(VT) / sizeof(float) };                                                  \
        float acc[W] = {0};                                                                       \
        for (int p = 0; p < kk; p++) {                                                            \
            const float s = ai[(size_t)p * acs];                                                  \
            if (s == 0.0f)                                                                        \
                continue;                                                                         \
            for (int l = 0; l < W; l++)                                                           \
                acc[l] += s * b[(size_t)p * ldb + (size_t)l];                                     \
        }                                                                                         \
        for (int l = 0; l < W; l++)                                                               \
            ci[l] = add ? ci[l] + acc[l] : acc[l];                                                \
    }
#define ROW_BLOCK4(NAME, VT)                                                                      \
    static inline void NAME(const float *restrict ai, size_t ars, size_t acs,                    \
                            const float *restrict b, size_t ldb, float *restrict ci, size_t ldc,   \
                            int kk, bool add)                                                     \
    {                                                                                             \
        for (int r = 0; r < 4; r++)                                                               \
            NAME##_one(ai + (size_t)r * ars, acs, b, ldb, ci + (size_t)r * ldc, kk, add);          \
    }
#endif
ROW_CHUNK(row_chunk8, vec8)
ROW_CHUNK(row_chunk4, vec4)
#define row_block8_one row_chunk8
#define row_block4_one row_chunk4
ROW_BLOCK4(row_block8, vec8)
ROW_BLOCK4(row_block4, vec4)

static inline void row_chunk1(const float *restrict ai, size_t acs, const float *restrict b,
                              size_t ldb, float *restrict ci, int kk, bool add)
{
    float acc = 0.0f;
    for (int p = 0; p < kk; p++)
        acc += ai[(size_t)p * acs] * b[(size_t)p * ldb];
    *ci = add ? *ci + acc : acc;
}

MAT_KERNEL void mat_rows_times(const float *restrict a, size_t ars, size_t acs,
                               const float *restrict b, size_t ldb, float *restrict c, size_t ldc,
                               int m, int n, int kk, bool add)
{
    int i = 0;
    for (; i + 4 <= m; i += 4) {
        const float *ai = a + (size_t)i * ars;
        float *ci = c + (size_t)i * ldc;
        int j = 0;
        for (; j + 8 <= n; j += 8)
            row_block8(ai, ars, acs, b + j, ldb, ci + j, ldc, kk, add);
        for (; j + 4 <= n; j += 4)
            row_block4(ai, ars, acs, b + j, ldb, ci + j, ldc, kk, add);
        for (int r = 0; r < 4; r++)
            for (int jj = j; jj < n; jj++)
                row_chunk1(ai + (size_t)r * ars, acs, b + jj, ldb, ci + (size_t)r * ldc + jj, kk,
                           add);
    }
    for (; i < m; i++) {
        const float *ai = a + (size_t)i * ars;
        float *ci = c + (size_t)i * ldc;
        int j = 0;
        for (; j + 8 <= n; j += 8)
            row_chunk8(ai, acs, b + j, ldb, ci + j, kk, add);
        for (; j + 4 <= n; j += 4)
            row_chunk4(ai, acs, b + j, ldb, ci + j, kk, add);
        for (; j < n; j++)
            row_chunk1(ai, acs, b + j, ldb, ci + j, kk, add);
    }
}
