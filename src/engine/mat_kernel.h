/* mat_kernel.h - what the engine's inner loops share (engine-internal).
 *
 * MAT_KERNEL builds a function three times, for CPUs with AVX-512
 * (x86-64-v4), for those with AVX2 and FMA (x86-64-v3) and for any other,
 * and the loader picks one when the program starts; the loops in such a
 * function are written so the compiler can run them on whole vector
 * registers (contiguous, no aliasing, no calls).  The AVX-512 copy does the
 * AVX2 copy's arithmetic, on registers of eight floats too (the engine is
 * built with -mprefer-vector-width=256), but has twice as many registers,
 * so the row kernels spill fewer values to the stack; the two give the same
 * bits (a model trained through either is the same file).  Each sum of
 * products is a chain of fused multiply-adds written out (MAT_FMA, and
 * fma8 and its kin in vec8.h, one rounding each, in the order the source
 * writes), and the compiler fuses nothing else (the whole program is built
 * with -ffp-contract=off, meson.build), so the copies, and a debug,
 * sanitizer or release build of any of them, give the same numbers byte for
 * byte.
 *
 * mat_exp_neg is e^x without a library call, so that a loop of it vectorizes
 * too. */
#ifndef MHA_MAT_KERNEL_H
#define MHA_MAT_KERNEL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "mha_config.h"

/* GCC's and Clang's vector types (vector_size), which the row kernels use. */
#if defined(__GNUC__)
#define MAT_HAVE_VECTORS 1
#else
#define MAT_HAVE_VECTORS 0
#endif

#if MHA_HAVE_TARGET_CLONES && MHA_HAVE_TARGET_CLONES_V4
#define MAT_KERNEL __attribute__((target_clones("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#elif MHA_HAVE_TARGET_CLONES
#define MAT_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define MAT_KERNEL
#endif

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define MAT_CPU_X86 1
#else
#define MAT_CPU_X86 0
#endif

/* The processor has the AVX-512 subsets of x86-64-v4 (F, VL, BW, DQ, CD):
 * those the AVX-512 copies of the loops and OpenBLAS's SkylakeX kernels
 * use. */
static inline bool mat_cpu_avx512(void)
{
#if MAT_CPU_X86
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq") &&
           __builtin_cpu_supports("avx512cd");
#else
    return false;
#endif
}

/* An AMD processor with mat_cpu_avx512's subsets. */
static inline bool mat_cpu_amd_avx512(void)
{
#if MAT_CPU_X86
    return __builtin_cpu_is("amd") && mat_cpu_avx512();
#else
    return false;
#endif
}

/* Multiply-adds up to which mat_mul takes the plain loops even with CBLAS
 * chosen.  OpenBLAS picks its kernel and blocking for the CPU it finds (or
 * the one OPENBLAS_CORETYPE names), and their sums round differently, so a
 * run that trained through it on one machine ends a few steps apart on
 * another.  The plain loops sum in one order everywhere, so every product
 * of the classroom's sizes (the example, and training up to d_model 32 at
 * context 16 with a few hundred words and batches of 64) gives the same
 * bits on every x86-64 machine with AVX2; above this the library's speed
 * is worth more than that. */
#define MAT_SMALL_MACS ((size_t)1 << 23)
/* Floats of b the plain loop copies transposed onto the stack at a time. */
#define MAT_PANEL_FLOATS 4096

/* C (m, n) = A (m, kk) · B (kk, n) + bias, or C += that when add (bias,
 * n floats, may be NULL).  Element (i, p) of A is a[i·ars + p·acs] (so a
 * transposed A needs no copy); B and C are row-major with leading
 * dimensions ldb and ldc.  Each element is summed in the order p = 0, 1, ..
 * (as a dot product would be), the bias added after.  C must not overlap A
 * or B.  mat_rows.c. */
void mat_rows_times(const float *restrict a, size_t ars, size_t acs, const float *restrict b,
                    size_t ldb, float *restrict c, size_t ldc, int m, int n, int kk, bool add,
                    const float *restrict bias);

/* True on a processor where the plain loops run registers of sixteen
 * floats (AVX-512, mat_rows.c): there they take every product, above
 * MAT_SMALL_MACS too, since they outrun OpenBLAS.  Measured on a Zen 5
 * core, one thread, against OpenBLAS 0.3.21's Haswell kernels
 * (`mha-bench --product`, GFLOP/s): 1024 × 1024 × 64 transposed (a head's
 * scores at 1024 tokens) 225 against 98; 256 × 1536 × 512 transposed (the
 * projections at 256 tokens) 180 against 106; 4096 × 768 × 256 183
 * against 105; 1024 × 1024 × 1024 176 against 103.  mat_rows.c. */
bool mat_rows_plain_wins(void);

/* bt (k rows of `rows` floats, ldt apart) = the first `rows` rows of b (k
 * floats each, ldb apart), transposed: bt[p·ldt + j] = b[j·ldb + p], in
 * tiles of eight by eight.  mat_rows.c. */
void mat_transpose_rows(const float *restrict b, size_t ldb, int rows, int k, float *restrict bt,
                        size_t ldt);

/* out[j] += Σ_i x[i][j] for x (m, n) (the bias gradient of a linear layer).
 * mat_rows.c. */
void mat_col_sums(const float *restrict x, int m, int n, float *restrict out);

/* dst[0:n] = src[0:n] for short rows (a head's d_k floats), without a
 * library call: eight, four, then one at a time. */
static inline void mat_copy(float *restrict dst, const float *restrict src, int n)
{
    int i = 0;
    for (; i + 8 <= n; i += 8)
        memcpy(dst + i, src + i, 8 * sizeof *dst);
    for (; i + 4 <= n; i += 4)
        memcpy(dst + i, src + i, 4 * sizeof *dst);
    for (; i < n; i++)
        dst[i] = src[i];
}

/* Below this mat_exp_neg's argument is clamped (e^-87 is about 1.6e-38,
 * close to the smallest normal float). */
#define MAT_EXP_NEG_MIN (-87.0f)

/* a·b + c rounded once (a fused multiply-add: one instruction where the
 * processor has it, else the C library's fmaf, exact too), the same float
 * on every path and at every build type. */
#define MAT_FMA(a, b, c) fmaf((a), (b), (c))

/* e^x for MAT_EXP_NEG_MIN <= x <= 0: Cephes' expf polynomial after
 * x = n·ln 2 + r, |r| <= ln 2 / 2, within 1.3e-7 relative of e^x over the
 * whole range, every step a fused multiply-add written out (FMA, one
 * rounding each, in this order) but the subtraction that finds n and the
 * final scaling.  n is rounded by adding 1.5·2^23 + 127 (n + 127 lands in
 * the low mantissa bits) and 2^n is those bits shifted into the exponent: no
 * branch, no conversion, no library call.  The body is written once for a
 * float FT (and the unsigned UT of its size) so that a scalar and a vector
 * of lanes (vec8.h) compute it alike. */
#define MAT_EXP_NEG_BODY(FT, UT, FMA, x)                                                           \
    do {                                                                                           \
        const FT z_ = {0}; /* z_ + c: c in every lane */                                           \
        const FT t_ = FMA((x), z_ + 1.44269504088896341f, z_ + 12583039.0f);                       \
        const FT fn_ = t_ - 12583039.0f;                                                           \
        UT tb_;                                                                                    \
        memcpy(&tb_, &t_, sizeof tb_);                                                             \
        FT r_ = FMA(fn_, z_ - 0.693359375f, (x));                                                  \
        r_ = FMA(fn_, z_ + 2.12194440e-4f, r_);                                                    \
        FT p_ = FMA(r_, z_ + 1.9875691500e-4f, z_ + 1.3981999507e-3f);                             \
        p_ = FMA(p_, r_, z_ + 8.3334519073e-3f);                                                   \
        p_ = FMA(p_, r_, z_ + 4.1665795894e-2f);                                                   \
        p_ = FMA(p_, r_, z_ + 1.6666665459e-1f);                                                   \
        p_ = FMA(p_, r_, z_ + 5.0000001201e-1f);                                                   \
        const FT e_ = FMA(FMA(p_, r_, z_ + 1.0f), r_, z_ + 1.0f); /* 1 + r + r²p */               \
        const UT bits_ = tb_ << 23;                               /* 2^n */                        \
        FT scale_;                                                                                 \
        memcpy(&scale_, &bits_, sizeof scale_);                                                    \
        return e_ * scale_;                                                                        \
    } while (0)

static inline float mat_exp_neg(float x)
{
    MAT_EXP_NEG_BODY(float, uint32_t, MAT_FMA, x);
}

/* The memory a kernel is given, checked where it starts, in a sanitizer
 * build's copy of the kernels built without the checks of each access
 * (src/engine/meson.build): `rows` rows of `len` floats, `ld` floats apart
 * from p, must be memory the program may use, else the program stops
 * naming `what` and the address.  Elsewhere it does nothing. */
#if MHA_KERNEL_REGIONS
void mat_kernel_region(const char *what, const float *p, size_t rows, size_t ld, size_t len);
#define MAT_REGION(what, p, rows, ld, len) mat_kernel_region((what), (p), (rows), (ld), (len))
#else
#define MAT_REGION(what, p, rows, ld, len)                                                         \
    ((void)(what), (void)(p), (void)(rows), (void)(ld), (void)(len))
#endif

#endif
