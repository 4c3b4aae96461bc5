/* mha_rows.c - pass 4 of the attention and its backward twin for one head
 * whose keys fit in a few vector registers (mha_rows.h).
 *
 * A group of eight query rows at a time.  In attend and backward a row's
 * scores, scaled scores, weights and their gradients are vectors over the
 * keys, eight keys to a register, and the keys and values of the head are
 * kept transposed (d_k rows of lk); the products run in tiles of four rows
 * (times_rows, weighted_row_group, add_over_rows), so one load feeds
 * several multiply-adds.  Where the processor has AVX-512 and a head has
 * four chunks of keys or more, the tiles take two chunks (or sixteen
 * columns) as one register of sixteen floats (vec16), each lane doing what
 * it does in the pair of eight.  For narrow heads attend_cols and
 * backward_cols put the group's rows in the lanes instead.  Every way gives the same
 * numbers: the sums are those of the matrix-multiply path in mha.c (a dot
 * product summed in the order p = 0, 1, ..), the softmax is
 * mat_softmax_row's (row max, e^x by mat_exp_neg, masked keys exactly 0; a
 * row of at most MHA_ROWS_MAX_KEYS is summed in float, in a tree). */
#include "engine/mha_rows.h"

#if MHA_HAVE_ROWS

#include <math.h>
#include <string.h>

#include "engine/mat_kernel.h"
#include "engine/vec8.h"

#define MAX_CHUNKS (MHA_ROWS_MAX_KEYS / LANES)

/* y[0:n] = Σ_{j < count} s[j] · x[j·ldx + 0:n], summed over j in order in
 * a register eight (then four) columns at a time */
static VEC_INLINE void weighted_rows(float *restrict y, const float *restrict s, int count,
                                     const float *restrict x, size_t ldx, int n)
{
    int p = 0;
    for (; p + LANES <= n; p += LANES) {
        vec8 acc = {0};
        for (int j = 0; j < count; j++) {
            vec8 b;
            memcpy(&b, x + (size_t)j * ldx + (size_t)p, sizeof b);
            acc = fma8s(s[j], b, acc);
        }
        memcpy(y + p, &acc, sizeof acc);
    }
    for (; p + 4 <= n; p += 4) {
        vec4 acc = {0};
        for (int j = 0; j < count; j++) {
            vec4 b;
            memcpy(&b, x + (size_t)j * ldx + (size_t)p, sizeof b);
            acc = fma4s(s[j], b, acc);
        }
        memcpy(y + p, &acc, sizeof acc);
    }
    for (; p < n; p++) {
        float acc = 0.0f;
        for (int j = 0; j < count; j++)
            acc = MAT_FMA(s[j], x[(size_t)j * ldx + (size_t)p], acc);
        y[p] = acc;
    }
}

/* m (rows, d_k), rows ld apart -> t (d_k rows of nc registers), keys past
 * rows zero: eight keys by eight columns at a time through transpose8x8,
 * what is left over one float at a time */
static VEC_INLINE void transpose_in(const float *m, size_t ld, vec8 *t, int rows, int d_k, int nc)
{
    const int full = rows / LANES, wide = d_k / LANES * LANES;
    for (int c = 0; c < full; c++)
        for (int p0 = 0; p0 < wide; p0 += LANES) {
            vec8 in[LANES], out[LANES];
            for (int r = 0; r < LANES; r++)
                memcpy(&in[r], m + (size_t)(c * LANES + r) * ld + (size_t)p0, sizeof in[r]);
            transpose8x8(in, out);
            for (int x = 0; x < LANES; x++)
                t[(size_t)(p0 + x) * (size_t)nc + (size_t)c] = out[x];
        }
    float *f = (float *)(void *)t;
    for (int c = full; c < nc; c++) /* the last chunk, part keys part zero */
        for (int p = 0; p < d_k; p++)
            t[(size_t)p * (size_t)nc + (size_t)c] = (vec8){0};
    for (int j = 0; j < rows; j++)
        for (int p = j < full * LANES ? wide : 0; p < d_k; p++)
            f[((size_t)p * (size_t)nc) * LANES + (size_t)j] = m[(size_t)j * ld + (size_t)p];
}

/* the twin: t (d_k rows of nc registers) -> m (rows, d_k), rows ld apart */
static VEC_INLINE void transpose_out(const vec8 *t, float *m, size_t ld, int rows, int d_k, int nc)
{
    const int full = rows / LANES, wide = d_k / LANES * LANES;
    for (int c = 0; c < full; c++)
        for (int p0 = 0; p0 < wide; p0 += LANES) {
            vec8 in[LANES], out[LANES];
            for (int x = 0; x < LANES; x++)
                in[x] = t[(size_t)(p0 + x) * (size_t)nc + (size_t)c];
            transpose8x8(in, out);
            for (int r = 0; r < LANES; r++)
                memcpy(m + (size_t)(c * LANES + r) * ld + (size_t)p0, &out[r], sizeof out[r]);
        }
    const float *f = (const float *)(const void *)t;
    for (int j = 0; j < rows; j++)
        for (int p = j < full * LANES ? wide : 0; p < d_k; p++)
            m[(size_t)j * ld + (size_t)p] = f[((size_t)p * (size_t)nc) * LANES + (size_t)j];
}

/* The lanes of chunk c that are keys row i may see. */
static VEC_INLINE ivec8 keep_lanes(int c, int visible, const unsigned char *keep_row, int lk)
{
    const ivec8 idx = iota + c * LANES;
    ivec8 keep = idx < visible;
    if (keep_row) {
        ivec8 k = {0};
        for (int l = 0; l < LANES && c * LANES + l < lk; l++)
            k[l] = keep_row[c * LANES + l] ? -1 : 0;
        keep &= k;
    }
    return keep;
}

/* t[p][c] += Σ_r x[r·ldx + p] · y[r][c] over the group's n rows, summed
 * in row order in a register (the keys' and values' gradients: a sum over
 * rows, kept as d_k rows of nc registers). */
static VEC_INLINE void add_over_rows(vec8 *t, const float *x, size_t ldx, vec8 y[][MAX_CHUNKS],
                                     int n, int d_k, int nc, const bool wide)
{
    /* four columns p by two chunks c at a time (four chunks, two registers
     * of sixteen, where wide): each row's four x and two y load once for
     * eight multiply-adds; every (p, c) still sums its rows in order */
    int p = 0;
    for (; p + 4 <= d_k; p += 4) {
        int c = 0;
#if VEC_WIDE
        for (; wide && c + 4 <= nc; c += 4) {
            vec16 a[4][2];
            for (int u = 0; u < 4; u++)
                for (int v = 0; v < 2; v++)
                    memcpy(&a[u][v], &t[(size_t)(p + u) * (size_t)nc + (size_t)(c + 2 * v)],
                           sizeof a[u][v]);
            for (int r = 0; r < n; r++) {
                const float *xr = x + (size_t)r * ldx + (size_t)p;
                vec16 y0, y1;
                memcpy(&y0, &y[r][c], sizeof y0);
                memcpy(&y1, &y[r][c + 2], sizeof y1);
                for (int u = 0; u < 4; u++) {
                    a[u][0] = fma16s(xr[u], y0, a[u][0]);
                    a[u][1] = fma16s(xr[u], y1, a[u][1]);
                }
            }
            for (int u = 0; u < 4; u++)
                for (int v = 0; v < 2; v++)
                    memcpy(&t[(size_t)(p + u) * (size_t)nc + (size_t)(c + 2 * v)], &a[u][v],
                           sizeof a[u][v]);
        }
#else
        (void)wide;
#endif
        for (; c + 2 <= nc; c += 2) {
            vec8 a[4][2];
            for (int u = 0; u < 4; u++)
                for (int v = 0; v < 2; v++)
                    a[u][v] = t[(size_t)(p + u) * (size_t)nc + (size_t)(c + v)];
            for (int r = 0; r < n; r++) {
                const float *xr = x + (size_t)r * ldx + (size_t)p;
                const vec8 y0 = y[r][c], y1 = y[r][c + 1];
                for (int u = 0; u < 4; u++) {
                    a[u][0] = fma8s(xr[u], y0, a[u][0]);
                    a[u][1] = fma8s(xr[u], y1, a[u][1]);
                }
            }
            for (int u = 0; u < 4; u++)
                for (int v = 0; v < 2; v++)
                    t[(size_t)(p + u) * (size_t)nc + (size_t)(c + v)] = a[u][v];
        }
        for (; c < nc; c++)
            for (int u = 0; u < 4; u++) {
                vec8 acc = t[(size_t)(p + u) * (size_t)nc + (size_t)c];
                for (int r = 0; r < n; r++)
                    acc = fma8s(x[(size_t)r * ldx + (size_t)(p + u)], y[r][c], acc);
                t[(size_t)(p + u) * (size_t)nc + (size_t)c] = acc;
            }
    }
    for (; p < d_k; p++)
        for (int c = 0; c < nc; c++) {
            vec8 acc = t[(size_t)p * (size_t)nc + (size_t)c];
            for (int r = 0; r < n; r++)
                acc = fma8s(x[(size_t)r * ldx + (size_t)p], y[r][c], acc);
            t[(size_t)p * (size_t)nc + (size_t)c] = acc;
        }
}

/* y[r][c] = Σ_p x[r·ldx + p] · t[p][c] for the group's n rows (the
 * twin of add_over_rows: t is d_k rows of nc registers), summed over p in
 * order from 0; four rows by two chunks at a time. */
static VEC_INLINE void times_rows(vec8 y[][MAX_CHUNKS], const float *x, size_t ldx, const vec8 *t,
                                  int n, int d_k, int nc, const bool wide)
{
    const vec8 zero = {0};
    int r = 0;
    for (; r + 4 <= n; r += 4) {
        int c = 0;
#if VEC_WIDE
        /* four chunks as two registers of sixteen where wide */
        for (; wide && c + 4 <= nc; c += 4) {
            vec16 a[4][2] = {{{0}, {0}}, {{0}, {0}}, {{0}, {0}}, {{0}, {0}}};
            for (int p = 0; p < d_k; p++) {
                vec16 t0, t1;
                memcpy(&t0, &t[(size_t)p * (size_t)nc + (size_t)c], sizeof t0);
                memcpy(&t1, &t[(size_t)p * (size_t)nc + (size_t)c + 2], sizeof t1);
                for (int u = 0; u < 4; u++) {
                    const float g = x[(size_t)(r + u) * ldx + (size_t)p];
                    a[u][0] = fma16s(g, t0, a[u][0]);
                    a[u][1] = fma16s(g, t1, a[u][1]);
                }
            }
            for (int u = 0; u < 4; u++) {
                memcpy(&y[r + u][c], &a[u][0], sizeof a[u][0]);
                memcpy(&y[r + u][c + 2], &a[u][1], sizeof a[u][1]);
            }
        }
#else
        (void)wide;
#endif
        for (; c + 2 <= nc; c += 2) {
            vec8 a[4][2] = {{zero, zero}, {zero, zero}, {zero, zero}, {zero, zero}};
            for (int p = 0; p < d_k; p++) {
                const vec8 t0 = t[(size_t)p * (size_t)nc + (size_t)c];
                const vec8 t1 = t[(size_t)p * (size_t)nc + (size_t)c + 1];
                for (int u = 0; u < 4; u++) {
                    const float g = x[(size_t)(r + u) * ldx + (size_t)p];
                    a[u][0] = fma8s(g, t0, a[u][0]);
                    a[u][1] = fma8s(g, t1, a[u][1]);
                }
            }
            for (int u = 0; u < 4; u++) {
                y[r + u][c] = a[u][0];
                y[r + u][c + 1] = a[u][1];
            }
        }
        for (; c < nc; c++)
            for (int u = 0; u < 4; u++) {
                vec8 acc = zero;
                for (int p = 0; p < d_k; p++)
                    acc = fma8s(x[(size_t)(r + u) * ldx + (size_t)p],
                                t[(size_t)p * (size_t)nc + (size_t)c], acc);
                y[r + u][c] = acc;
            }
    }
    for (; r < n; r++)
        for (int c = 0; c < nc; c++) {
            vec8 acc = zero;
            for (int p = 0; p < d_k; p++)
                acc = fma8s(x[(size_t)r * ldx + (size_t)p], t[(size_t)p * (size_t)nc + (size_t)c],
                            acc);
            y[r][c] = acc;
        }
}

/* weighted_rows for each of the group's n rows (row i0 + r of y, rows ldy
 * apart, gets Σ_j s[r][j] · x_j over the keys it may see), four rows by
 * sixteen columns at a time.  A key past a row's last visible one has
 * s = ±0 there (its weight is 0), and adding it changes no sum: the
 * numbers are weighted_rows's. */
static VEC_INLINE void weighted_row_group(float *y, size_t ldy, vec8 s[][MAX_CHUNKS], int n, int i0,
                                          bool causal, const float *x, size_t ldx, int lk, int d_k,
                                          const bool wide_regs)
{
    const vec8 zero = {0};
    const int wide = d_k / 16 * 16;
    int r = 0;
#if VEC_WIDE
    /* eight rows by sixteen columns, a register of sixteen a row, where
     * wide_regs */
    for (; wide_regs && r + 8 <= n && wide; r += 8) {
        const int last = i0 + r + 7;
        const int count = causal && last + 1 < lk ? last + 1 : lk;
        for (int p = 0; p < wide; p += 16) {
            vec16 a[8];
            for (int u = 0; u < 8; u++)
                a[u] = (vec16){0};
            for (int j = 0; j < count; j++) {
                vec16 xj;
                memcpy(&xj, x + (size_t)j * ldx + (size_t)p, sizeof xj);
                for (int u = 0; u < 8; u++)
                    a[u] = fma16s(((const float *)(const void *)s[r + u])[j], xj, a[u]);
            }
            for (int u = 0; u < 8; u++)
                memcpy(y + (size_t)(r + u) * ldy + (size_t)p, &a[u], sizeof a[u]);
        }
    }
#else
    (void)wide_regs;
#endif
    for (; r + 4 <= n && wide; r += 4) {
        const int last = i0 + r + 3; /* the group's row that sees most */
        const int count = causal && last + 1 < lk ? last + 1 : lk;
        for (int p = 0; p < wide; p += 16) {
            vec8 a[4][2] = {{zero, zero}, {zero, zero}, {zero, zero}, {zero, zero}};
            for (int j = 0; j < count; j++) {
                vec8 x0, x1;
                memcpy(&x0, x + (size_t)j * ldx + (size_t)p, sizeof x0);
                memcpy(&x1, x + (size_t)j * ldx + (size_t)p + LANES, sizeof x1);
                for (int u = 0; u < 4; u++) {
                    const float g = ((const float *)(const void *)s[r + u])[j];
                    a[u][0] = fma8s(g, x0, a[u][0]);
                    a[u][1] = fma8s(g, x1, a[u][1]);
                }
            }
            for (int u = 0; u < 4; u++) {
                memcpy(y + (size_t)(r + u) * ldy + (size_t)p, &a[u][0], sizeof a[u][0]);
                memcpy(y + (size_t)(r + u) * ldy + (size_t)p + LANES, &a[u][1], sizeof a[u][1]);
            }
        }
    }
    const int from = r;
    for (r = 0; r < n; r++) {
        const int i = i0 + r;
        const int visible = causal && i + 1 < lk ? i + 1 : lk;
        const int p0 = r < from ? wide : 0; /* columns the tiles above did not */
        if (p0 < d_k)
            weighted_rows(y + (size_t)r * ldy + (size_t)p0, (const float *)(const void *)s[r],
                          visible, x + p0, ldx, d_k - p0);
    }
}

/* Rows taken together through each pass of attend and backward: a row's
 * steps depend on each other (max, then e^x, then the sum, then the
 * division), the rows do not, so a pass over several rows lets the CPU
 * overlap them. */
#define ROW_GROUP 8
_Static_assert(ROW_GROUP <= LANES, "one register holds a group's sums");

/* The rows of mha_rows_attend with nc chunks of keys, nc a constant after
 * inlining; ROW_GROUP rows at a time, in three passes. */
static VEC_INLINE int attend(const struct mha_rows_head *hd, const unsigned char *mask, bool causal,
                             float scale, unsigned char *row_empty, const vec8 *kt, const int nc,
                             const bool wide)
{
    const int lq = hd->lq, lk = hd->lk, d_k = hd->d_k;
    const vec8 neg_inf = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                          -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    const vec8 zero = {0};
    int empty = 0;
    for (int i0 = 0; i0 < lq; i0 += ROW_GROUP) {
        const int rows = lq - i0 < ROW_GROUP ? lq - i0 : ROW_GROUP;
        const vec8 one = {1, 1, 1, 1, 1, 1, 1, 1};
        vec8 s[ROW_GROUP][MAX_CHUNKS], fold[ROW_GROUP];
        for (int r = rows; r < ROW_GROUP; r++)
            fold[r] = one;
        /* pass 1: scores = q_i · k_j for every key (summed over p in
         * order), scaled and masked; each row's max */
        vec8 score[ROW_GROUP][MAX_CHUNKS];
        times_rows(score, hd->qh + (size_t)i0 * hd->ld_q, hd->ld_q, kt, rows, d_k, nc, wide);
        for (int r = 0; r < rows; r++) {
            const int i = i0 + r;
            const size_t row0 = (size_t)i * (size_t)lk;
            const int visible = causal && i + 1 < lk ? i + 1 : lk;
            const unsigned char *keep_row = mask ? mask + row0 : NULL;
            const vec8 *acc = score[r];
            vec8 mx = neg_inf;
            int c0 = 0;
#if VEC_WIDE
            /* two chunks scaled and masked at once where wide (no mask
             * given, none kept), the max taken as below */
            for (; wide && !keep_row && !hd->scores && c0 + 2 <= nc; c0 += 2) {
                vec16 a, x;
                memcpy(&a, &acc[c0], sizeof a);
                const ivec16 idx = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
                const vec16 all_inf = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                       -INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                       -INFINITY, -INFINITY, -INFINITY, -INFINITY,
                                       -INFINITY, -INFINITY, -INFINITY, -INFINITY};
                x = select16(idx + c0 * LANES < visible, a * scale, all_inf);
                memcpy(&s[r][c0], &x, sizeof x);
                mx = select8(s[r][c0] > mx, s[r][c0], mx);
                mx = select8(s[r][c0 + 1] > mx, s[r][c0 + 1], mx);
            }
#endif
            for (int c = c0; c < nc; c++) {
                const int n = lk - c * LANES;
                s[r][c] = select8(keep_lanes(c, visible, keep_row, lk), acc[c] * scale, neg_inf);
                if (hd->scores) {
                    store_part(hd->scores + row0 + (size_t)c * LANES, acc[c], n);
                    store_part(hd->scaled + row0 + (size_t)c * LANES, s[r][c], n);
                }
                mx = select8(s[r][c] > mx, s[r][c], mx);
            }
            fold[r] = mx;
        }
        const vec8 max = max8x8(fold); /* lane r: row r's max */
        /* pass 2: e^(s - max), 0 where masked or more than 87 below the
         * max, and the row's sum (a row with no key left: weights 0) */
        for (int r = 0; r < rows; r++) {
            if (max[r] == -INFINITY) {
                for (int c = 0; c < nc; c++)
                    s[r][c] = zero;
                fold[r] = one; /* any sum but 0: its weights stay 0 */
                continue;
            }
            vec8 part = zero;
            int c = 0;
#if VEC_WIDE
            /* two chunks' e^x at once where wide, summed as below */
            for (; wide && c + 2 <= nc; c += 2) {
                vec16 x;
                memcpy(&x, &s[r][c], sizeof x);
                x -= max[r];
                const vec16 e = select16(x >= MAT_EXP_NEG_MIN, exp16(x), (vec16){0});
                memcpy(&s[r][c], &e, sizeof e);
                part += s[r][c];
                part += s[r][c + 1];
            }
#endif
            for (; c < nc; c++) {
                const vec8 x = s[r][c] - max[r];
                s[r][c] = select8(x >= MAT_EXP_NEG_MIN, exp8(x), zero);
                part += s[r][c];
            }
            fold[r] = part;
        }
        const vec8 inv = 1.0f / sum8x8(fold); /* one division for the group */
        /* pass 3: the weights, and context_i = Σ_j w_ij · v_j over the keys
         * row i may see */
        for (int r = 0; r < rows; r++) {
            float *w = hd->weights + (size_t)(i0 + r) * (size_t)lk;
            int c = 0;
#if VEC_WIDE
            for (; wide && c + 2 <= nc && lk - c * LANES >= 2 * LANES; c += 2) {
                vec16 x;
                memcpy(&x, &s[r][c], sizeof x);
                x *= inv[r];
                memcpy(&s[r][c], &x, sizeof x);
                memcpy(w + (size_t)c * LANES, &x, sizeof x);
            }
#endif
            for (; c < nc; c++) {
                s[r][c] *= inv[r];
                store_part(w + (size_t)c * LANES, s[r][c], lk - c * LANES);
            }
        }
        weighted_row_group(hd->context + (size_t)i0 * hd->ld_ctx, hd->ld_ctx, s, rows, i0, causal,
                           hd->vh, hd->ld_v, lk, d_k, wide);
        for (int r = 0; r < rows; r++) /* a row with no key left: context 0 */
            if (max[r] == -INFINITY) {
                const int i = i0 + r;
                memset(hd->context + (size_t)i * hd->ld_ctx, 0, (size_t)d_k * sizeof(float));
                if (!row_empty[i]) {
                    row_empty[i] = 1;
                    empty++;
                }
            }
    }
    return empty;
}

/* Where a row group in the lanes (attend_cols, backward_cols) is the
 * faster way, measured on one core with heads of 8 to 64 keys against the
 * row kernels' tiles (times_rows, weighted_row_group, add_over_rows): the
 * forward pass up to 8 columns a head, the backward pass at 4. */
#define COLS_MAX_DK 8
#define COLS_BACKWARD_DK 4

/* Rows of m (n of them, rows ld apart) from registers holding its columns:
 * lane r of col[x] is m[r][x], for x < width. */
static VEC_INLINE void store_columns(float *m, size_t ld, int n, const vec8 *col, int width)
{
    for (int x0 = 0; x0 < width; x0 += LANES) {
        const int w = width - x0 < LANES ? width - x0 : LANES;
        vec8 in[LANES], out[LANES];
        for (int x = 0; x < LANES; x++)
            in[x] = x < w ? col[x0 + x] : (vec8){0};
        transpose8x8(in, out);
        for (int r = 0; r < n; r++)
            store_part(m + (size_t)r * ld + (size_t)x0, out[r], w);
    }
}

/* mha_rows_attend where only the weights and the context are kept and no
 * mask is given, with the rows of a group in the lanes of a register
 * instead of the keys: a key's scores for eight rows are one register, so
 * a row's max and sum are taken across registers, not across lanes.  Every
 * number is the one attend makes: the same products summed in the same
 * order, the sum of e^x in attend's tree (sum8x8 over lanes of the keys'
 * chunk sums), and a key past a row's last visible one adding an exact 0
 * to its context. */
static VEC_INLINE int attend_cols(const struct mha_rows_head *hd, bool causal, float scale,
                                  unsigned char *row_empty, const int d_k, const int keys)
{
    const int lq = hd->lq, lk = keys ? keys : hd->lk;
    const vec8 neg_inf = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                          -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    const vec8 zero = {0}, one = {1, 1, 1, 1, 1, 1, 1, 1};
    int empty = 0;
    for (int i0 = 0; i0 < lq; i0 += LANES) {
        const int n = lq - i0 < LANES ? lq - i0 : LANES;
        vec8 qt[MHA_ROWS_MAX_DK], e[MHA_ROWS_MAX_KEYS], ctx[MHA_ROWS_MAX_DK];
        for (int p = 0; p < d_k; p++) {
            qt[p] = zero;
            for (int r = 0; r < n; r++)
                qt[p][r] = hd->qh[(size_t)(i0 + r) * hd->ld_q + (size_t)p];
        }
        const ivec8 row = iota + i0;
        /* scores of every key for the group's rows, scaled and masked;
         * each row's max */
        vec8 mx = neg_inf;
        for (int j = 0; j < lk; j++) {
            const float *kj = hd->kh + (size_t)j * hd->ld_k;
            vec8 acc = zero;
            for (int p = 0; p < d_k; p++)
                acc = fma8s(kj[p], qt[p], acc);
            const ivec8 keep = causal ? j <= row : row >= 0;
            e[j] = select8(keep, acc * scale, neg_inf);
            mx = vmax8(e[j], mx);
        }
        const ivec8 none = mx == neg_inf; /* rows with no key left */
        /* e^(s - max), 0 where masked or more than 87 below the max; the sum
         * of lane l of each chunk of keys, then those eight in sum8x8's tree */
        vec8 part[LANES];
        for (int l = 0; l < LANES; l++)
            part[l] = zero;
        for (int j = 0; j < lk; j++) {
            const vec8 x = e[j] - mx;
            e[j] = select8(x >= MAT_EXP_NEG_MIN, exp8(x), zero);
            part[j % LANES] += e[j];
        }
        const vec8 sum = ((part[0] + part[1]) + (part[2] + part[3])) +
                         ((part[4] + part[5]) + (part[6] + part[7]));
        const vec8 inv = 1.0f / select8(none, one, sum);
        /* the weights, and the context: Σ_j w_j · v_j over every key */
        for (int p = 0; p < d_k; p++)
            ctx[p] = zero;
        for (int j = 0; j < lk; j++) {
            e[j] *= inv;
            const float *vj = hd->vh + (size_t)j * hd->ld_v;
            for (int p = 0; p < d_k; p++)
                ctx[p] = fma8s(vj[p], e[j], ctx[p]);
        }
        store_columns(hd->weights + (size_t)i0 * (size_t)lk, (size_t)lk, n, e, lk);
        store_columns(hd->context + (size_t)i0 * hd->ld_ctx, hd->ld_ctx, n, ctx, d_k);
        for (int r = 0; r < n; r++)
            if (none[r] && !row_empty[i0 + r]) {
                row_empty[i0 + r] = 1;
                empty++;
            }
    }
    return empty;
}

/* mha_rows_attend, with registers of sixteen for pairs of chunks where
 * wide (a constant after inlining) */
static VEC_INLINE int rows_attend(const struct mha_rows_head *hd, const unsigned char *mask,
                                  bool causal, float scale, unsigned char *row_empty,
                                  const bool wide)
{
    if (!hd->scores && !mask && hd->d_k % 4 == 0 && hd->d_k <= COLS_MAX_DK) {
        /* (attend sums a width that is no multiple of four a column at a
         * time, which the compiler may round otherwise: such heads stay
         * with attend) */
        if (hd->lk == LANES) /* the classroom's eight tokens, unrolled */
            return hd->d_k == 4 ? attend_cols(hd, causal, scale, row_empty, 4, LANES)
                                : attend_cols(hd, causal, scale, row_empty, 8, LANES);
        return hd->d_k == 4 ? attend_cols(hd, causal, scale, row_empty, 4, 0)
                            : attend_cols(hd, causal, scale, row_empty, 8, 0);
    }
    const int nc = (hd->lk + LANES - 1) / LANES;
    vec8 kt[MHA_ROWS_MAX_DK * MAX_CHUNKS];
    transpose_in(hd->kh, hd->ld_k, kt, hd->lk, hd->d_k, nc);
    switch (nc) {
    case 1:
        return attend(hd, mask, causal, scale, row_empty, kt, 1, wide);
    case 2:
        return attend(hd, mask, causal, scale, row_empty, kt, 2, wide);
    case 3:
        return attend(hd, mask, causal, scale, row_empty, kt, 3, wide);
    case 4:
        return attend(hd, mask, causal, scale, row_empty, kt, 4, wide);
    default:
        return attend(hd, mask, causal, scale, row_empty, kt, nc, wide);
    }
}

MAT_KERNEL static int attend_narrow(const struct mha_rows_head *hd, const unsigned char *mask,
                                    bool causal, float scale, unsigned char *row_empty)
{
    return rows_attend(hd, mask, causal, scale, row_empty, false);
}

#if VEC_WIDE
VEC_WIDE_TARGET static int attend_wide(const struct mha_rows_head *hd, const unsigned char *mask,
                                       bool causal, float scale, unsigned char *row_empty)
{
    return rows_attend(hd, mask, causal, scale, row_empty, true);
}
#endif

int mha_rows_attend(const struct mha_rows_head *hd, const unsigned char *mask, bool causal,
                    float scale, unsigned char *row_empty)
{
    mha_rows_regions(hd, true);
#if VEC_WIDE
    if (mha_rows_wide_allowed() && hd->lk > 3 * LANES &&
        vec_have_wide()) /* four chunks of keys or more */
        return attend_wide(hd, mask, causal, scale, row_empty);
#endif
    return attend_narrow(hd, mask, causal, scale, row_empty);
}

/* The rows of mha_rows_backward with nc chunks of keys (a constant after
 * inlining), vt the head's values transposed, into dkt and dvt (the keys'
 * and values' gradients, transposed too); ROW_GROUP rows at a time.  d ctx
 * rows are ld apart, d q rows too. */
static VEC_INLINE void backward(const struct mha_rows_head *hd, bool causal, float scale,
                                const float *d_ctx, float *d_q, size_t ld, const vec8 *vt,
                                vec8 *dkt, vec8 *dvt, const int nc, const bool wide)
{
    const int lq = hd->lq, lk = hd->lk, d_k = hd->d_k;
    const vec8 zero = {0};
    for (int i0 = 0; i0 < lq; i0 += ROW_GROUP) {
        const int rows = lq - i0 < ROW_GROUP ? lq - i0 : ROW_GROUP;
        vec8 ds[ROW_GROUP][MAX_CHUNKS], w[ROW_GROUP][MAX_CHUNKS], fold[ROW_GROUP];
        for (int r = rows; r < ROW_GROUP; r++)
            fold[r] = zero;
        /* pass 1: context = weights · v gives d weights_ij = d ctx_i · v_j */
        times_rows(ds, d_ctx + (size_t)i0 * ld, ld, vt, rows, d_k, nc, wide);
        for (int r = 0; r < rows; r++) {
            const float *wrow = hd->weights + (size_t)(i0 + r) * (size_t)lk;
            for (int c = 0; c < nc; c++)
                w[r][c] = load_part(wrow + (size_t)c * LANES, lk - c * LANES);
            vec8 dot = zero;
            for (int c = 0; c < nc; c++)
                dot = fma8(w[r][c], ds[r][c], dot);
            fold[r] = dot;
        }
        /* and d v_j += w_ij d ctx_i, each (p, chunk) summed over the group's
         * rows in a register */
        add_over_rows(dvt, d_ctx + (size_t)i0 * ld, ld, w, rows, d_k, nc, wide);
        /* softmax: d scaled = w ⊙ (d w − Σ w·d w), times scale for the
         * scores */
        const vec8 dsum = sum8x8(fold);
        for (int r = 0; r < rows; r++)
            for (int c = 0; c < nc; c++)
                ds[r][c] = w[r][c] * (ds[r][c] - dsum[r]) * scale;
        /* pass 2: scores = q·kᵀ gives d q_i = Σ_j ds_ij k_j and
         * d k_j += ds_ij q_i */
        weighted_row_group(d_q + (size_t)i0 * ld, ld, ds, rows, i0, causal, hd->kh, hd->ld_k, lk,
                           d_k, wide);
        add_over_rows(dkt, hd->qh + (size_t)i0 * hd->ld_q, hd->ld_q, ds, rows, d_k, nc, wide);
    }
}

/* backward where the head is read in place (no scores kept), with a row
 * group in the lanes of a register where backward keeps the keys there:
 * the weights' gradients of a key for eight rows are one register, so a
 * row's Σ w·dw and its d q need no folding across lanes.  d v and d k,
 * sums over rows, stay with backward's rows of keys.  Every number is
 * backward's: the same products summed in the same order (Σ w·dw in
 * sum8x8's tree), a key past a row's last visible one adding an exact 0. */
static VEC_INLINE void backward_cols(const struct mha_rows_head *hd, bool causal, float scale,
                                     const float *d_ctx, float *d_q, size_t ld, vec8 *dkt,
                                     vec8 *dvt, const int d_k, const int keys)
{
    (void)causal; /* masked keys have weight 0, so their gradients are 0 */
    const int lq = hd->lq, lk = keys ? keys : hd->lk, nc = (lk + LANES - 1) / LANES;
    const vec8 zero = {0};
    for (int i0 = 0; i0 < lq; i0 += LANES) {
        const int n = lq - i0 < LANES ? lq - i0 : LANES;
        /* the group's weights as rows of keys (w) and as columns (wc) */
        vec8 w[LANES][MAX_CHUNKS], wc[MAX_CHUNKS * LANES], g[MHA_ROWS_MAX_DK];
        for (int r = 0; r < LANES; r++)
            for (int c = 0; c < nc; c++)
                w[r][c] =
                    r < n
                        ? load_part(hd->weights + (size_t)(i0 + r) * (size_t)lk + (size_t)c * LANES,
                                    lk - c * LANES)
                        : zero;
        for (int c = 0; c < nc; c++) {
            vec8 in[LANES];
            for (int r = 0; r < LANES; r++)
                in[r] = w[r][c];
            transpose8x8(in, wc + (size_t)c * LANES);
        }
        for (int p = 0; p < d_k; p++) {
            g[p] = zero;
            for (int r = 0; r < n; r++)
                g[p][r] = d_ctx[(size_t)(i0 + r) * ld + (size_t)p];
        }
        /* context = weights · v gives d w_j = Σ_p d ctx_p · v_jp; Σ w·dw
         * per row */
        vec8 dw[MAX_CHUNKS * LANES], part[LANES];
        for (int l = 0; l < LANES; l++)
            part[l] = zero;
        for (int j = 0; j < lk; j++) {
            const float *vj = hd->vh + (size_t)j * hd->ld_v;
            vec8 acc = zero;
            for (int p = 0; p < d_k; p++)
                acc = fma8s(vj[p], g[p], acc);
            dw[j] = acc;
            part[j % LANES] = fma8(wc[j], acc, part[j % LANES]);
        }
        const vec8 dsum = ((part[0] + part[1]) + (part[2] + part[3])) +
                          ((part[4] + part[5]) + (part[6] + part[7]));
        /* d v_j += w_ij d ctx_i, as backward sums it */
        add_over_rows(dvt, d_ctx + (size_t)i0 * ld, ld, w, n, d_k, nc, false);
        /* softmax, then scores = q·kᵀ: d q_i = Σ_j ds_ij k_j */
        vec8 dq[MHA_ROWS_MAX_DK];
        for (int p = 0; p < d_k; p++)
            dq[p] = zero;
        for (int j = 0; j < nc * LANES; j++) {
            if (j >= lk) {
                dw[j] = zero;
                continue;
            }
            dw[j] = wc[j] * (dw[j] - dsum) * scale;
            const float *kj = hd->kh + (size_t)j * hd->ld_k;
            for (int p = 0; p < d_k; p++)
                dq[p] = fma8s(kj[p], dw[j], dq[p]);
        }
        store_columns(d_q + (size_t)i0 * ld, ld, n, dq, d_k);
        /* d k_j += ds_ij q_i, as backward sums it, from ds as rows of keys */
        vec8 ds[LANES][MAX_CHUNKS];
        for (int c = 0; c < nc; c++) {
            vec8 out[LANES];
            transpose8x8(dw + (size_t)c * LANES, out);
            for (int r = 0; r < LANES; r++)
                ds[r][c] = out[r];
        }
        add_over_rows(dkt, hd->qh + (size_t)i0 * hd->ld_q, hd->ld_q, ds, n, d_k, nc, false);
    }
}

/* mha_rows_backward, with registers of sixteen where wide (a constant
 * after inlining) */
static VEC_INLINE void rows_backward(const struct mha_rows_head *hd, bool causal, float scale,
                                     const float *d_ctx, size_t ld, float *d_q, float *d_k,
                                     float *d_v, const bool wide)
{
    const int lk = hd->lk, dk = hd->d_k, nc = (lk + LANES - 1) / LANES;
    vec8 dkt[MHA_ROWS_MAX_DK * MAX_CHUNKS], dvt[MHA_ROWS_MAX_DK * MAX_CHUNKS];
    const size_t nt = (size_t)dk * (size_t)nc;
    const vec8 zero = {0};
    for (size_t x = 0; x < nt; x++)
        dkt[x] = dvt[x] = zero;
    if (!hd->scores && dk == COLS_BACKWARD_DK && lk == LANES) {
        backward_cols(hd, causal, scale, d_ctx, d_q, ld, dkt, dvt, COLS_BACKWARD_DK, LANES);
    } else if (!hd->scores && dk == COLS_BACKWARD_DK) {
        backward_cols(hd, causal, scale, d_ctx, d_q, ld, dkt, dvt, COLS_BACKWARD_DK, 0);
    } else {
        vec8 vt[MHA_ROWS_MAX_DK * MAX_CHUNKS];
        transpose_in(hd->vh, hd->ld_v, vt, lk, dk, nc);
        switch (nc) {
        case 1:
            backward(hd, causal, scale, d_ctx, d_q, ld, vt, dkt, dvt, 1, wide);
            break;
        case 2:
            backward(hd, causal, scale, d_ctx, d_q, ld, vt, dkt, dvt, 2, wide);
            break;
        default:
            backward(hd, causal, scale, d_ctx, d_q, ld, vt, dkt, dvt, nc, wide);
            break;
        }
    }
    transpose_out(dkt, d_k, ld, lk, dk, nc);
    transpose_out(dvt, d_v, ld, lk, dk, nc);
}

MAT_KERNEL static void backward_narrow(const struct mha_rows_head *hd, bool causal, float scale,
                                       const float *d_ctx, size_t ld, float *d_q, float *d_k,
                                       float *d_v)
{
    rows_backward(hd, causal, scale, d_ctx, ld, d_q, d_k, d_v, false);
}

#if VEC_WIDE
VEC_WIDE_TARGET static void backward_wide(const struct mha_rows_head *hd, bool causal, float scale,
                                          const float *d_ctx, size_t ld, float *d_q, float *d_k,
                                          float *d_v)
{
    rows_backward(hd, causal, scale, d_ctx, ld, d_q, d_k, d_v, true);
}
#endif

void mha_rows_backward(const struct mha_rows_head *hd, bool causal, float scale, const float *d_ctx,
                       size_t ld, float *d_q, float *d_k, float *d_v)
{
    mha_rows_regions(hd, false);
    MAT_REGION("head d context", d_ctx, (size_t)hd->lq, ld, (size_t)hd->d_k);
    MAT_REGION("head d q", d_q, (size_t)hd->lq, ld, (size_t)hd->d_k);
    MAT_REGION("head d k", d_k, (size_t)hd->lk, ld, (size_t)hd->d_k);
    MAT_REGION("head d v", d_v, (size_t)hd->lk, ld, (size_t)hd->d_k);
#if VEC_WIDE
    if (mha_rows_wide_allowed() && hd->lk > 3 * LANES && vec_have_wide()) {
        backward_wide(hd, causal, scale, d_ctx, ld, d_q, d_k, d_v);
        return;
    }
#endif
    backward_narrow(hd, causal, scale, d_ctx, ld, d_q, d_k, d_v);
}

#endif
