/* mat_rows.c - the loops under every small product of the engine (see
 * mat_kernel.h).  Row i of C is a sum of rows of B weighted by row i of A;
 * six rows of C at a time, sixteen columns (eight rows of thirty-two where
 * the processor has AVX-512), are kept in registers, so that each step is a
 * few whole-vector multiplies and adds whatever the sizes are at run time,
 * twelve (sixteen) independent sums keep both multiply-add units busy and
 * each row of B is loaded once for the six (eight); what is left over goes
 * four rows by eight, four or one columns.  Every element is summed in the same order whichever
 * block it falls in, each step a fused multiply-add (MAT_FMA, fma8s and
 * their kin: one rounding), so every block and every copy gives the same
 * float. */
#include "engine/mat_kernel.h"

#include <stdlib.h>

#if MHA_KERNEL_REGIONS
#include <sanitizer/asan_interface.h>
#include <stdio.h>

void mat_kernel_region(const char *what, const float *p, size_t rows, size_t ld, size_t len)
{
    if (rows == 0 || len == 0)
        return;
    /* from the first float to the last: the rows between lie in the same
     * block of memory when both ends do */
    const size_t bytes = ((rows - 1) * ld + len) * sizeof *p;
    void *bad = __asan_region_is_poisoned((void *)(uintptr_t)p, bytes);
    if (!bad)
        return;
    fprintf(stderr,
            "kernel %s: %zu rows of %zu floats, %zu apart, from %p: %p is not the program's\n",
            what, rows, len, ld, (const void *)p, bad);
    __asan_describe_address(bad);
    __sanitizer_print_stack_trace();
    abort();
}
#endif

#if MAT_HAVE_VECTORS
#include "engine/vec8.h"

/* Where a block's sums start and end when p is taken a stretch at a time
 * (mat_rows_times): from the sums so far (else from 0), and back there
 * unfinished (else into C, the bias and C's old value added).  A sum
 * stored and loaded again is the same float, so every element comes out
 * as if summed in one go. */
struct stretch {
    const float *from; /* the sums so far, rows ldp floats apart; NULL: 0 */
    float *to;         /* where the sums go unfinished; NULL: into C */
    size_t ldp;
};

/* st moved to row r, column j of the block */
static VEC_INLINE struct stretch stretch_at(struct stretch st, size_t r, size_t j)
{
    if (st.from)
        st.from += r * st.ldp + j;
    if (st.to)
        st.to += r * st.ldp + j;
    return st;
}

/* Rows 0..R-1 (R = 8, 4 or 1, a constant after inlining) of the block of
 * C whose columns are those of one register of type VT. */
#define ROWS_BLOCK(NAME, VT, FMAS)                                                                 \
    static VEC_INLINE void NAME(const float *restrict a, size_t ars, size_t acs,                   \
                                const float *restrict b, size_t ldb, float *restrict c,            \
                                size_t ldc, int kk, bool add, const float *restrict bias,          \
                                const int R, const struct stretch st)                              \
    {                                                                                              \
        VT acc[8];                                                                                 \
        for (int r = 0; r < R; r++) {                                                              \
            acc[r] = (VT){0};                                                                      \
            if (st.from)                                                                           \
                memcpy(&acc[r], st.from + (size_t)r * st.ldp, sizeof acc[r]);                      \
        }                                                                                          \
        for (int p = 0; p < kk; p++) {                                                             \
            VT bp;                                                                                 \
            memcpy(&bp, b + (size_t)p * ldb, sizeof bp);                                           \
            const float *ap = a + (size_t)p * acs;                                                 \
            for (int r = 0; r < R; r++)                                                            \
                acc[r] = FMAS(ap[(size_t)r * ars], bp, acc[r]);                                    \
        }                                                                                          \
        if (st.to) {                                                                               \
            for (int r = 0; r < R; r++)                                                            \
                memcpy(st.to + (size_t)r * st.ldp, &acc[r], sizeof acc[r]);                        \
            return;                                                                                \
        }                                                                                          \
        VT bv = {0};                                                                               \
        if (bias)                                                                                  \
            memcpy(&bv, bias, sizeof bv);                                                          \
        for (int r = 0; r < R; r++) {                                                              \
            float *cr = c + (size_t)r * ldc;                                                       \
            VT out = acc[r];                                                                       \
            if (bias)                                                                              \
                out += bv;                                                                         \
            if (add) {                                                                             \
                VT old;                                                                            \
                memcpy(&old, cr, sizeof old);                                                      \
                out = old + out;                                                                   \
            }                                                                                      \
            memcpy(cr, &out, sizeof out);                                                          \
        }                                                                                          \
    }
ROWS_BLOCK(block8, vec8, fma8s)
ROWS_BLOCK(block4, vec4, fma4s)

/* Columns of two registers of type VT side by side (W floats each): up
 * to eight rows of two sums each in flight, enough to keep both
 * multiply-add units busy.  Each element is summed in the same order as in
 * block8, so the results are the same to the bit whichever width. */
#define TWO_REGISTERS_BLOCK(NAME, VT, W, FMAS)                                                     \
    static VEC_INLINE void NAME(const float *restrict a, size_t ars, size_t acs,                   \
                                const float *restrict b, size_t ldb, float *restrict c,            \
                                size_t ldc, int kk, bool add, const float *restrict bias,          \
                                const int R, const struct stretch st)                              \
    {                                                                                              \
        VT lo[8], hi[8];                                                                           \
        for (int r = 0; r < R; r++) {                                                              \
            lo[r] = hi[r] = (VT){0};                                                               \
            if (st.from) {                                                                         \
                memcpy(&lo[r], st.from + (size_t)r * st.ldp, sizeof lo[r]);                        \
                memcpy(&hi[r], st.from + (size_t)r * st.ldp + (W), sizeof hi[r]);                  \
            }                                                                                      \
        }                                                                                          \
        for (int p = 0; p < kk; p++) {                                                             \
            VT bl, bh;                                                                             \
            memcpy(&bl, b + (size_t)p * ldb, sizeof bl);                                           \
            memcpy(&bh, b + (size_t)p * ldb + (W), sizeof bh);                                     \
            const float *ap = a + (size_t)p * acs;                                                 \
            for (int r = 0; r < R; r++) {                                                          \
                const float x = ap[(size_t)r * ars];                                               \
                lo[r] = FMAS(x, bl, lo[r]);                                                        \
                hi[r] = FMAS(x, bh, hi[r]);                                                        \
            }                                                                                      \
        }                                                                                          \
        if (st.to) {                                                                               \
            for (int r = 0; r < R; r++) {                                                          \
                memcpy(st.to + (size_t)r * st.ldp, &lo[r], sizeof lo[r]);                          \
                memcpy(st.to + (size_t)r * st.ldp + (W), &hi[r], sizeof hi[r]);                    \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        VT bvl = {0}, bvh = {0};                                                                   \
        if (bias) {                                                                                \
            memcpy(&bvl, bias, sizeof bvl);                                                        \
            memcpy(&bvh, bias + (W), sizeof bvh);                                                  \
        }                                                                                          \
        for (int r = 0; r < R; r++) {                                                              \
            float *cr = c + (size_t)r * ldc;                                                       \
            VT ol = lo[r], oh = hi[r];                                                             \
            if (bias) {                                                                            \
                ol += bvl;                                                                         \
                oh += bvh;                                                                         \
            }                                                                                      \
            if (add) {                                                                             \
                VT old;                                                                            \
                memcpy(&old, cr, sizeof old);                                                      \
                ol = old + ol;                                                                     \
                memcpy(&old, cr + (W), sizeof old);                                                \
                oh = old + oh;                                                                     \
            }                                                                                      \
            memcpy(cr, &ol, sizeof ol);                                                            \
            memcpy(cr + (W), &oh, sizeof oh);                                                      \
        }                                                                                          \
    }
/* sixteen columns as two registers of eight */
TWO_REGISTERS_BLOCK(block16, vec8, 8, fma8s)

/* The same for one column. */
static VEC_INLINE void block1(const float *restrict a, size_t ars, size_t acs,
                              const float *restrict b, size_t ldb, float *restrict c, size_t ldc,
                              int kk, bool add, const float *restrict bias, const int R,
                              const struct stretch st)
{
    float acc[4] = {0};
    for (int r = 0; st.from && r < R; r++)
        acc[r] = st.from[(size_t)r * st.ldp];
    for (int p = 0; p < kk; p++)
        for (int r = 0; r < R; r++)
            acc[r] = MAT_FMA(a[(size_t)p * acs + (size_t)r * ars], b[(size_t)p * ldb], acc[r]);
    for (int r = 0; st.to && r < R; r++)
        st.to[(size_t)r * st.ldp] = acc[r];
    for (int r = 0; !st.to && r < R; r++) {
        const float out = bias ? acc[r] + *bias : acc[r];
        c[(size_t)r * ldc] = add ? c[(size_t)r * ldc] + out : out;
    }
}

/* Rows 0..R-1 (R <= 4) of C, columns j0 on, in blocks of eight, four and one. */
static VEC_INLINE void narrow(const float *restrict a, size_t ars, size_t acs,
                              const float *restrict b, size_t ldb, float *restrict c, size_t ldc,
                              int j, int n, int kk, bool add, const float *restrict bias,
                              const int R, const struct stretch st)
{
    for (; j + 8 <= n; j += 8)
        block8(a, ars, acs, b + j, ldb, c + j, ldc, kk, add, bias ? bias + j : NULL, R,
               stretch_at(st, 0, (size_t)j));
    for (; j + 4 <= n; j += 4)
        block4(a, ars, acs, b + j, ldb, c + j, ldc, kk, add, bias ? bias + j : NULL, R,
               stretch_at(st, 0, (size_t)j));
    for (; j < n; j++)
        block1(a, ars, acs, b + j, ldb, c + j, ldc, kk, add, bias ? bias + j : NULL, R,
               stretch_at(st, 0, (size_t)j));
}

#if VEC_WIDE
/* thirty-two columns as two registers of sixteen (AVX-512), and sixteen as
 * one */
TWO_REGISTERS_BLOCK(block32, vec16, 16, fma16s)

/* block32 and block16_wide for eight rows, the tiles nearly every product
 * of sixteen columns or more spends its time in, as functions of their
 * own: inlined among the other tiles their loops could be left a register
 * short and reload one from the stack at every step (block32 did after a
 * change elsewhere in them; block16_wide held the rows' offsets on the
 * stack, and a training step at d_model 16 spent a third of its time in
 * it). */
#define EIGHT_ROWS(NAME, BLOCK)                                                                    \
    VEC_WIDE_TARGET __attribute__((noinline)) static void NAME(                                    \
        const float *restrict a, size_t ars, size_t acs, const float *restrict b, size_t ldb,      \
        float *restrict c, size_t ldc, int kk, bool add, const float *restrict bias,               \
        const struct stretch st)                                                                   \
    {                                                                                              \
        BLOCK(a, ars, acs, b, ldb, c, ldc, kk, add, bias, 8, st);                                  \
    }
ROWS_BLOCK(block16_wide, vec16, fma16s)
EIGHT_ROWS(block32_eight, block32)
EIGHT_ROWS(block16_eight, block16_wide)
#define WIDE_COLUMNS 32
#else
#define WIDE_COLUMNS 0
#endif

/* Rows 0..R-1 (R = 8, 6, 4 or 1) of C, every column: thirty-two at a time
 * where wide (a constant after inlining: only in the AVX-512 copy), then
 * sixteen, then the rest four rows (or one) at a time. */
static VEC_INLINE void rows(const float *restrict a, size_t ars, size_t acs,
                            const float *restrict b, size_t ldb, float *restrict c, size_t ldc,
                            int n, int kk, bool add, const float *restrict bias, const int R,
                            const bool wide, const struct stretch st)
{
    int j = 0;
#define AT_J(j)                                                                                    \
    b + (j), ldb, c + (j), ldc, kk, add, bias ? bias + (j) : NULL, R, stretch_at(st, 0, (size_t)(j))
#if WIDE_COLUMNS
    for (; wide && j + WIDE_COLUMNS <= n; j += WIDE_COLUMNS)
        if (R == 8)
            block32_eight(a, ars, acs, b + j, ldb, c + j, ldc, kk, add, bias ? bias + j : NULL,
                          stretch_at(st, 0, (size_t)j));
        else
            block32(a, ars, acs, AT_J(j));
    for (; wide && R == 8 && j + 16 <= n; j += 16)
        block16_eight(a, ars, acs, b + j, ldb, c + j, ldc, kk, add, bias ? bias + j : NULL,
                      stretch_at(st, 0, (size_t)j));
#else
    (void)wide;
#endif
    for (; j + 16 <= n; j += 16)
        block16(a, ars, acs, AT_J(j));
#undef AT_J
    if (j == n)
        return;
    int r = 0;
    for (; r + 4 <= R; r += 4)
        narrow(a + (size_t)r * ars, ars, acs, b, ldb, c + (size_t)r * ldc, ldc, j, n, kk, add, bias,
               4, stretch_at(st, (size_t)r, 0));
    for (; r < R; r++)
        narrow(a + (size_t)r * ars, ars, acs, b, ldb, c + (size_t)r * ldc, ldc, j, n, kk, add, bias,
               1, stretch_at(st, (size_t)r, 0));
}

/* mat_rows_times, with block32 where wide */
static VEC_INLINE void rows_times(const float *restrict a, size_t ars, size_t acs,
                                  const float *restrict b, size_t ldb, float *restrict c,
                                  size_t ldc, int m, int n, int kk, bool add,
                                  const float *restrict bias, const bool wide,
                                  const struct stretch st)
{
    int i = 0;
#define ROWS_AT(R)                                                                                 \
    rows(a + (size_t)i * ars, ars, acs, b, ldb, c + (size_t)i * ldc, ldc, n, kk, add, bias, R,     \
         wide, stretch_at(st, (size_t)i, 0))
    /* sixteen sums in flight where wide: 32 registers hold them, and each
     * row of B is loaded once for eight rows of C */
    for (; wide && n >= 16 && i + 8 <= m; i += 8)
        ROWS_AT(8);
    for (; n >= 16 && i + 6 <= m; i += 6) /* twelve sums in flight */
        ROWS_AT(6);
    for (; i + 4 <= m; i += 4)
        ROWS_AT(4);
    for (; i < m; i++)
        ROWS_AT(1);
#undef ROWS_AT
}

MAT_KERNEL static void rows_times_narrow(const float *restrict a, size_t ars, size_t acs,
                                         const float *restrict b, size_t ldb, float *restrict c,
                                         size_t ldc, int m, int n, int kk, bool add,
                                         const float *restrict bias, const struct stretch st)
{
    rows_times(a, ars, acs, b, ldb, c, ldc, m, n, kk, add, bias, false, st);
}

#if WIDE_COLUMNS
VEC_WIDE_TARGET static void rows_times_wide(const float *restrict a, size_t ars, size_t acs,
                                            const float *restrict b, size_t ldb, float *restrict c,
                                            size_t ldc, int m, int n, int kk, bool add,
                                            const float *restrict bias, const struct stretch st)
{
    rows_times(a, ars, acs, b, ldb, c, ldc, m, n, kk, add, bias, true, st);
}
#endif

/* rows_times_wide where the columns fill its blocks and the processor has
 * them, else rows_times_narrow. */
static void rows_times_any(const float *restrict a, size_t ars, size_t acs, const float *restrict b,
                           size_t ldb, float *restrict c, size_t ldc, int m, int n, int kk,
                           bool add, const float *restrict bias, const struct stretch st)
{
#if WIDE_COLUMNS
    if (n >= 16 && vec_have_wide()) {
        rows_times_wide(a, ars, acs, b, ldb, c, ldc, m, n, kk, add, bias, st);
        return;
    }
#endif
    rows_times_narrow(a, ars, acs, b, ldb, c, ldc, m, n, kk, add, bias, st);
}

/* Floats of B the rows read again and again at most: a wider B is taken a
 * slice of columns at a time (a multiple of 32), so that the slice stays in
 * the second-level cache.  Each element is summed as it was, in its block. */
#define SLICE_FLOATS ((size_t)1 << 17)

/* Rows of A and B a stretch takes when A is read down its columns: their
 * lines, a row of each matrix apart, stay in the first-level cache while
 * every block of C reads them (rows a power of two floats apart share a
 * few sets of it, so there are not many more). */
#define STRETCH_ROWS 32

/* C = A·B where A is read down its columns (the transpose of a matrix:
 * a weights' gradient, p over every row of a batch) and C is small: p a
 * stretch at a time, every block of C summing its stretch, so that the
 * stretch's rows of both matrices stay in the first-level cache and
 * neither is copied; the sums kept in part between stretches.  False
 * when part cannot be had. */
static bool rows_times_stretches(const float *restrict a, size_t ars, size_t acs,
                                 const float *restrict b, size_t ldb, float *restrict c, size_t ldc,
                                 int m, int n, int kk, bool add, const float *restrict bias)
{
    float *part = malloc((size_t)m * (size_t)n * sizeof *part);
    if (!part)
        return false;
    for (int p0 = 0; p0 < kk; p0 += STRETCH_ROWS) {
        const int w = kk - p0 < STRETCH_ROWS ? kk - p0 : STRETCH_ROWS;
        const struct stretch st = {p0 > 0 ? part : NULL, p0 + w < kk ? part : NULL, (size_t)n};
        rows_times_any(a + (size_t)p0 * acs, ars, acs, b + (size_t)p0 * ldb, ldb, c, ldc, m, n, w,
                       add, bias, st);
    }
    free(part);
    return true;
}

/* mat_rows_times's arguments checked (MAT_REGION) */
static void rows_times_regions(const float *a, size_t ars, size_t acs, const float *b, size_t ldb,
                               const float *c, size_t ldc, int m, int n, int kk, const float *bias)
{
    if (m <= 0 || n <= 0)
        return;
    if (kk > 0) {
        /* A's elements from (0, 0) to (m - 1, kk - 1), one span */
        MAT_REGION("rows_times A", a, 1, 0, (size_t)(m - 1) * ars + (size_t)(kk - 1) * acs + 1);
        MAT_REGION("rows_times B", b, (size_t)kk, ldb, (size_t)n);
    }
    MAT_REGION("rows_times C", c, (size_t)m, ldc, (size_t)n);
    if (bias)
        MAT_REGION("rows_times bias", bias, 1, 0, (size_t)n);
}

void mat_rows_times(const float *restrict a, size_t ars, size_t acs, const float *restrict b,
                    size_t ldb, float *restrict c, size_t ldc, int m, int n, int kk, bool add,
                    const float *restrict bias)
{
    rows_times_regions(a, ars, acs, b, ldb, c, ldc, m, n, kk, bias);
    const struct stretch whole = {NULL, NULL, 0};
    if (ars == 1 && acs > 1 && kk > 4 * STRETCH_ROWS && (size_t)kk * (size_t)n > SLICE_FLOATS &&
        rows_times_stretches(a, ars, acs, b, ldb, c, ldc, m, n, kk, add, bias))
        return;
    int nb = n;
    if (kk > 0 && (size_t)kk * (size_t)n > SLICE_FLOATS) {
        nb = (int)(SLICE_FLOATS / (size_t)kk) / 32 * 32;
        nb = nb < 32 ? 32 : nb;
    }
    /* a slice is copied to rows next to each other first (where there is
     * more than one slice and more than one group of rows to read it): the
     * rows re-read it from a few pages, not from a page or two a row */
    float *packed = nb < n && m > 6 ? malloc((size_t)kk * (size_t)nb * sizeof *packed) : NULL;

    for (int j0 = 0; j0 < n; j0 += nb) {
        const int w = n - j0 < nb ? n - j0 : nb;
        const float *bj = b + j0;
        size_t ldj = ldb;
        if (packed) {
            for (int p = 0; p < kk; p++)
                memcpy(packed + (size_t)p * (size_t)w, b + (size_t)p * ldb + (size_t)j0,
                       (size_t)w * sizeof *packed);
            bj = packed;
            ldj = (size_t)w;
        }
        rows_times_any(a, ars, acs, bj, ldj, c + j0, ldc, m, w, kk, add, bias ? bias + j0 : NULL,
                       whole);
    }
    free(packed);
}

bool mat_rows_plain_wins(void)
{
#if WIDE_COLUMNS
    return vec_have_wide();
#else
    return false;
#endif
}

/* Rows p.. of bt, columns j.. : tj by tp tiles of eight by eight (1 or 2
 * each, constants after inlining), each transposed in registers, the rows
 * of bt written a whole tile row after another, so that with two by two
 * every line of the cache is read or written whole at once. */
static VEC_INLINE void transpose_tiles(const float *restrict b, size_t ldb, float *restrict bt,
                                       size_t ldt, int j, int p, const int tj, const int tp)
{
    vec8 in[LANES], out[2][2][LANES];
    for (int y = 0; y < tj; y++)
        for (int x = 0; x < tp; x++) {
            for (int r = 0; r < LANES; r++)
                memcpy(&in[r], b + (size_t)(j + y * LANES + r) * ldb + (size_t)(p + x * LANES),
                       sizeof in[r]);
            transpose8x8(in, out[y][x]);
        }
    for (int x = 0; x < tp; x++)
        for (int r = 0; r < LANES; r++)
            for (int y = 0; y < tj; y++)
                memcpy(bt + (size_t)(p + x * LANES + r) * ldt + (size_t)(j + y * LANES),
                       &out[y][x][r], sizeof out[y][x][r]);
}

MAT_KERNEL void mat_transpose_rows(const float *restrict b, size_t ldb, int rows, int k,
                                   float *restrict bt, size_t ldt)
{
    if (rows > 0 && k > 0) {
        MAT_REGION("transpose_rows b", b, (size_t)rows, ldb, (size_t)k);
        MAT_REGION("transpose_rows bt", bt, (size_t)k, ldt, (size_t)rows);
    }
    /* sixteen rows of b at a time, then eight, then one; down bt's rows
     * sixteen at a time within each, then eight, then one.  The rows come
     * from memory (a layer's weights, read once a pass) in sixteen streams
     * a line at a time, which the processor does not fetch ahead of the
     * loads: the first sixteen rows are asked for before the first tile, and
     * each tile asks for the line of the next sixteen rows under its own. */
    int j = 0;
    if (rows >= 2 * LANES)
        for (int r = 0; r < 2 * LANES; r++)
            for (int p = 0; p < k; p += 2 * LANES)
                __builtin_prefetch(b + (size_t)r * ldb + (size_t)p, 0, 3);
    for (int tj = 2; tj >= 1; tj--)
        for (; j + tj * LANES <= rows; j += tj * LANES) {
            const bool ahead = tj == 2 && j + 4 * LANES <= rows;
            int p = 0;
            for (; p + 2 * LANES <= k; p += 2 * LANES) {
                for (int r = 0; ahead && r < 2 * LANES; r++)
                    __builtin_prefetch(b + (size_t)(j + 2 * LANES + r) * ldb + (size_t)p, 0, 3);
                transpose_tiles(b, ldb, bt, ldt, j, p, tj, 2);
            }
            for (; p + LANES <= k; p += LANES)
                transpose_tiles(b, ldb, bt, ldt, j, p, tj, 1);
            for (; p < k; p++)
                for (int r = 0; r < tj * LANES; r++)
                    bt[(size_t)p * ldt + (size_t)(j + r)] = b[(size_t)(j + r) * ldb + (size_t)p];
        }
    for (; j < rows; j++)
        for (int p = 0; p < k; p++)
            bt[(size_t)p * ldt + (size_t)j] = b[(size_t)j * ldb + (size_t)p];
}

/* Columns mat_col_sums sums in one pass down the rows: their running sums
 * stay in the first-level cache while x is read row after row. */
#define COL_SUMS_BLOCK 1024

MAT_KERNEL void mat_col_sums(const float *restrict x, int m, int n, float *restrict out)
{
    if (m > 0 && n > 0) {
        MAT_REGION("col_sums x", x, (size_t)m, (size_t)n, (size_t)n);
        MAT_REGION("col_sums out", out, 1, 0, (size_t)n);
    }
    const int n8 = n / LANES * LANES;
    for (int j0 = 0; j0 < n8; j0 += COL_SUMS_BLOCK) {
        const int nv = (n8 - j0 < COL_SUMS_BLOCK ? n8 - j0 : COL_SUMS_BLOCK) / LANES;
        /* four running sums a column (rows i mod 4), met at the end */
        vec8 s[4][COL_SUMS_BLOCK / LANES];
        for (int r = 0; r < 4; r++)
            for (int c = 0; c < nv; c++)
                s[r][c] = (vec8){0};
        int i = 0;
        for (; i < m; i++) {
            const int r = i + 4 - i % 4 <= m ? i % 4 : 0; /* the last rows go to sum 0 */
            const float *xi = x + (size_t)i * (size_t)n + (size_t)j0;
            for (int c = 0; c < nv; c++) {
                vec8 v;
                memcpy(&v, xi + (size_t)c * LANES, sizeof v);
                s[r][c] += v;
            }
        }
        for (int c = 0; c < nv; c++) {
            vec8 o;
            memcpy(&o, out + j0 + c * LANES, sizeof o);
            o += (s[0][c] + s[1][c]) + (s[2][c] + s[3][c]);
            memcpy(out + j0 + c * LANES, &o, sizeof o);
        }
    }
    for (int j = n8; j < n; j++) {
        float s = 0.0f;
        for (int i = 0; i < m; i++)
            s += x[(size_t)i * (size_t)n + (size_t)j];
        out[j] += s;
    }
}

#else

void mat_rows_times(const float *restrict a, size_t ars, size_t acs, const float *restrict b,
                    size_t ldb, float *restrict c, size_t ldc, int m, int n, int kk, bool add,
                    const float *restrict bias)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float acc = 0.0f;
            for (int p = 0; p < kk; p++)
                acc = MAT_FMA(a[(size_t)i * ars + (size_t)p * acs], b[(size_t)p * ldb + (size_t)j],
                              acc);
            if (bias)
                acc += bias[j];
            float *cij = c + (size_t)i * ldc + (size_t)j;
            *cij = add ? *cij + acc : acc;
        }
}

bool mat_rows_plain_wins(void)
{
    return false;
}

void mat_transpose_rows(const float *restrict b, size_t ldb, int rows, int k, float *restrict bt,
                        size_t ldt)
{
    for (int j = 0; j < rows; j++)
        for (int p = 0; p < k; p++)
            bt[(size_t)p * ldt + (size_t)j] = b[(size_t)j * ldb + (size_t)p];
}

void mat_col_sums(const float *restrict x, int m, int n, float *restrict out)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            out[j] += x[(size_t)i * (size_t)n + (size_t)j];
}

#endif
