/* vec8.h - eight floats to a register, for the engine's row kernels
 * (engine-internal).  GCC's and Clang's vector types: include only where
 * MHA_HAVE_ROWS (mha_rows.h).  The helpers are static VEC_INLINE and pass
 * vectors only to each other. */
#ifndef MHA_VEC8_H
#define MHA_VEC8_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "engine/mat_kernel.h"

/* The vectors below are passed between inlined helpers only, never across
 * an interface, so the ABI note about 32-byte vectors does not apply. */
#pragma GCC diagnostic ignored "-Wpsabi"

/* Always inlined, into whichever copy of a MAT_KERNEL function calls them
 * (a call would pass the registers through memory). */
#define VEC_INLINE inline __attribute__((always_inline))

typedef float vec8 __attribute__((vector_size(32)));
typedef int32_t ivec8 __attribute__((vector_size(32)));
typedef uint32_t uvec8 __attribute__((vector_size(32)));
typedef float vec4 __attribute__((vector_size(16)));

#define LANES 8

#if MHA_HAVE_TARGET_CLONES_V4
#include <immintrin.h>

/* Sixteen floats, two registers of eight side by side: one register in a
 * function built for AVX-512 (VEC_WIDE_TARGET), which the kernels use for
 * pairs of their eight-float registers.  Each lane does what it does in the
 * pair of eight, so the numbers are the same. */
typedef float vec16 __attribute__((vector_size(64)));
#define VEC_WIDE 1
#define VEC_WIDE_TARGET __attribute__((target("arch=x86-64-v4")))

typedef int32_t ivec16 __attribute__((vector_size(64)));
typedef uint32_t uvec16 __attribute__((vector_size(64)));

/* The processor runs functions built for AVX-512 (x86-64-v4's subsets). */
static inline bool vec_have_wide(void)
{
    return mat_cpu_avx512();
}
#else
#define VEC_WIDE 0
#endif

static const ivec8 iota = {0, 1, 2, 3, 4, 5, 6, 7};

/* a·b + c on the N lanes of VT, each rounded once: a fused multiply-add
 * per lane, which the AVX2 and AVX-512 copies of a kernel compile to one
 * instruction for the register and the other copy to fmaf (MAT_FMA), the
 * same float either way.  NAME takes a of type VT; NAME##s takes a float a
 * for every lane (a scalar times a register). */
#if defined(__SANITIZE_ADDRESS__)
/* Under AddressSanitizer each lane is named by its constant index: a loop
 * over the lanes was checked lane by lane there and left apart, one scalar
 * fused multiply-add each (twice the time).  Elsewhere the loop: named
 * lanes kept a kernel's running sums on the stack instead of in registers
 * (mat_rows.c's tiles of four rows took half as long again).  Each lane is
 * one fmaf either way: the same floats. */
#define VEC_FMA(NAME, VT, LANES_OF)                                                                \
    static VEC_INLINE VT NAME(VT a, VT b, VT c)                                                    \
    {                                                                                              \
        return (VT){LANES_OF(VEC_FMA_LANE)};                                                       \
    }                                                                                              \
    static VEC_INLINE VT NAME##s(float a, VT b, VT c)                                              \
    {                                                                                              \
        return (VT){LANES_OF(VEC_FMAS_LANE)};                                                      \
    }
#define VEC_FMA_LANE(l) __builtin_fmaf(a[l], b[l], c[l])
#define VEC_FMAS_LANE(l) __builtin_fmaf(a, b[l], c[l])
#else
#define VEC_FMA(NAME, VT, LANES_OF)                                                                \
    static VEC_INLINE VT NAME(VT a, VT b, VT c)                                                    \
    {                                                                                              \
        VT r;                                                                                      \
        for (int l = 0; l < (int)(sizeof r / sizeof r[0]); l++)                                    \
            r[l] = __builtin_fmaf(a[l], b[l], c[l]);                                               \
        return r;                                                                                  \
    }                                                                                              \
    static VEC_INLINE VT NAME##s(float a, VT b, VT c)                                              \
    {                                                                                              \
        VT r;                                                                                      \
        for (int l = 0; l < (int)(sizeof r / sizeof r[0]); l++)                                    \
            r[l] = __builtin_fmaf(a, b[l], c[l]);                                                  \
        return r;                                                                                  \
    }
#endif
#define VEC_LANES8(X) X(0), X(1), X(2), X(3), X(4), X(5), X(6), X(7)
#define VEC_LANES4(X) X(0), X(1), X(2), X(3)
VEC_FMA(fma8, vec8, VEC_LANES8)
VEC_FMA(fma4, vec4, VEC_LANES4)

/* n floats of p into a register (n >= 8: a whole register), lanes past n 0 */
static VEC_INLINE vec8 load_part(const float *p, int n)
{
    vec8 v = {0};
    if (n >= LANES) {
        memcpy(&v, p, sizeof v);
        return v;
    }
    int l = 0;
    if (n >= 4) { /* the low half at once */
        memcpy(&v, p, 4 * sizeof *p);
        l = 4;
    }
    for (; l < n; l++)
        v[l] = p[l];
    return v;
}

/* the first n lanes of v to p (n >= 8: the whole register) */
static VEC_INLINE void store_part(float *p, vec8 v, int n)
{
    if (n >= LANES) {
        memcpy(p, &v, sizeof v);
        return;
    }
    int l = 0;
    if (n >= 4) {
        memcpy(p, &v, 4 * sizeof *p);
        l = 4;
    }
    for (; l < n; l++)
        p[l] = v[l];
}

/* a where keep, else b (keep lanes all ones or all zeros), for the vector
 * type VT and the int vector IT of its size */
#define VEC_SELECT(NAME, VT, IT)                                                                   \
    static VEC_INLINE VT NAME(IT keep, VT a, VT b)                                                 \
    {                                                                                              \
        IT ia, ib;                                                                                 \
        memcpy(&ia, &a, sizeof ia);                                                                \
        memcpy(&ib, &b, sizeof ib);                                                                \
        const IT r = (ia & keep) | (ib & ~keep);                                                   \
        VT out;                                                                                    \
        memcpy(&out, &r, sizeof out);                                                              \
        return out;                                                                                \
    }
VEC_SELECT(select8, vec8, ivec8)

static VEC_INLINE float max8(vec8 v)
{
    const float a = v[0] > v[1] ? v[0] : v[1], b = v[2] > v[3] ? v[2] : v[3];
    const float c = v[4] > v[5] ? v[4] : v[5], d = v[6] > v[7] ? v[6] : v[7];
    const float ab = a > b ? a : b, cd = c > d ? c : d;
    return ab > cd ? ab : cd;
}

static VEC_INLINE float sum8(vec8 v)
{
    return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7]));
}

/* mat_exp_neg on eight lanes (each clamped at MAT_EXP_NEG_MIN first) */
static VEC_INLINE vec8 exp8(vec8 x)
{
    const vec8 lo = {MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN,
                     MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN};
    x = select8(x > lo, x, lo);
    MAT_EXP_NEG_BODY(vec8, uvec8, fma8, x);
}

#if VEC_WIDE
/* select8 on sixteen lanes */
VEC_SELECT(select16, vec16, ivec16)

/* fma8 and fma8s on sixteen lanes: one instruction for the register (the
 * compiler would not build it from lanes, the engine preferring registers of
 * eight), each lane rounded once as fma8's.  Built for AVX-512 only, where
 * the wide functions inline them; the copies for other processors hold
 * calls to them only on paths they never take. */
VEC_WIDE_TARGET static inline vec16 fma16(vec16 a, vec16 b, vec16 c)
{
    return (vec16)_mm512_fmadd_ps((__m512)a, (__m512)b, (__m512)c);
}

VEC_WIDE_TARGET static inline vec16 fma16s(float a, vec16 b, vec16 c)
{
    return (vec16)_mm512_fmadd_ps(_mm512_set1_ps(a), (__m512)b, (__m512)c);
}

/* exp8 on sixteen lanes: each lane as exp8 computes it */
static VEC_INLINE vec16 exp16(vec16 x)
{
    const vec16 lo = {MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN,
                      MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN,
                      MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN,
                      MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN, MAT_EXP_NEG_MIN};
    x = select16(x > lo, x, lo);
    MAT_EXP_NEG_BODY(vec16, uvec16, fma16, x);
}
#endif

#if defined(__has_builtin)
#if __has_builtin(__builtin_shufflevector)
#define VEC_HAVE_SHUFFLE 1
#endif
#endif

static VEC_INLINE vec8 vmax8(vec8 a, vec8 b)
{
    return select8(a > b, a, b);
}

/* Eight rows' reductions at once: lane r of the result is the max (or the
 * sum) of the eight lanes of v[r].  Pairs of registers are folded into one
 * three times (lanes interleaved, then combined), 21 instructions for the
 * eight rows instead of seven folds for each. */
#if VEC_HAVE_SHUFFLE
#define VEC_FOLD8X8(NAME, OP)                                                                      \
    static VEC_INLINE vec8 NAME(const vec8 v[8])                                                   \
    {                                                                                              \
        vec8 a[4], b[2];                                                                           \
        for (int k = 0; k < 4; k++)                                                                \
            a[k] = OP(__builtin_shufflevector(v[2 * k], v[2 * k + 1], 0, 8, 2, 10, 4, 12, 6, 14),  \
                      __builtin_shufflevector(v[2 * k], v[2 * k + 1], 1, 9, 3, 11, 5, 13, 7, 15)); \
        for (int k = 0; k < 2; k++)                                                                \
            b[k] =                                                                                 \
                OP(__builtin_shufflevector(a[2 * k], a[2 * k + 1], 0, 1, 8, 9, 4, 5, 12, 13),      \
                   __builtin_shufflevector(a[2 * k], a[2 * k + 1], 2, 3, 10, 11, 6, 7, 14, 15));   \
        return OP(__builtin_shufflevector(b[0], b[1], 0, 1, 2, 3, 8, 9, 10, 11),                   \
                  __builtin_shufflevector(b[0], b[1], 4, 5, 6, 7, 12, 13, 14, 15));                \
    }
#else
#define VEC_FOLD8X8(NAME, OP)                                                                      \
    static VEC_INLINE vec8 NAME(const vec8 v[8])                                                   \
    {                                                                                              \
        vec8 out;                                                                                  \
        for (int r = 0; r < 8; r++) {                                                              \
            float x = v[r][0];                                                                     \
            for (int l = 1; l < 8; l++)                                                            \
                x = OP##_1(x, v[r][l]);                                                            \
            out[r] = x;                                                                            \
        }                                                                                          \
        return out;                                                                                \
    }
#endif
/* Eight registers transposed: lane c of out[r] is lane r of in[c]. */
static VEC_INLINE void transpose8x8(const vec8 in[8], vec8 out[8])
{
#if VEC_HAVE_SHUFFLE
    vec8 a[8], b[8];
    for (int k = 0; k < 4; k++) {
        a[2 * k] = __builtin_shufflevector(in[2 * k], in[2 * k + 1], 0, 8, 2, 10, 4, 12, 6, 14);
        a[2 * k + 1] = __builtin_shufflevector(in[2 * k], in[2 * k + 1], 1, 9, 3, 11, 5, 13, 7, 15);
    }
    for (int k = 0; k < 2; k++)
        for (int o = 0; o < 2; o++) {
            const vec8 x = a[4 * k + o], y = a[4 * k + o + 2];
            b[4 * k + o] = __builtin_shufflevector(x, y, 0, 1, 8, 9, 4, 5, 12, 13);
            b[4 * k + o + 2] = __builtin_shufflevector(x, y, 2, 3, 10, 11, 6, 7, 14, 15);
        }
    for (int o = 0; o < 4; o++) {
        out[o] = __builtin_shufflevector(b[o], b[o + 4], 0, 1, 2, 3, 8, 9, 10, 11);
        out[o + 4] = __builtin_shufflevector(b[o], b[o + 4], 4, 5, 6, 7, 12, 13, 14, 15);
    }
#else
    for (int r = 0; r < 8; r++)
        for (int c = 0; c < 8; c++)
            out[r][c] = in[c][r];
#endif
}

#define vmax8_1(x, y) ((x) > (y) ? (x) : (y))
#define vadd8(x, y) ((x) + (y))
#define vadd8_1(x, y) ((x) + (y))
VEC_FOLD8X8(max8x8, vmax8)
VEC_FOLD8X8(sum8x8, vadd8)

#endif
