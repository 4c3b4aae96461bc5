/* train_loss.c - the read-out's softmax and cross-entropy (pass 4 of
 * train_step.c) and its gradient, a row of logits at a time, eight classes
 * to a vector register where the compiler has vector types.
 *
 * The cross-entropy of a row is log-sum-exp minus the target's logit,
 *   -log p[target] = log Σ_j e^(x_j − max) − (x_target − max),
 * never the log of the rounded probability: a target whose probability
 * underflows to 0 (logits in the thousands) still costs exactly what it
 * should, as PyTorch's cross_entropy says. */
#include <math.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"

double train_softmax_loss(float *p, const int *target, int rows, int C, int *count);
void train_loss_backward(const float *probs, const int *target, int rows, int C, int count,
                         float *d_logits);

#if MHA_HAVE_ROWS
#include "train/train.h"
#include "engine/vec8.h"

/* Rows taken together through each pass: a row's steps depend on each
 * other (max, e^x, sum, division), the rows do not, so a pass over several
 * rows lets the CPU overlap them. */
#define ROW_GROUP 8
_Static_assert(ROW_GROUP <= LANES, "one register holds a group's sums");

/* Softmax of every row of p (rows, C) in place, nc = ceil(C / 8) registers
 * a row (a constant after inlining): the row max, e^(x - max) by exp8 (0
 * more than 87 below the max), the sum, one multiply; where wide (a
 * constant, only in a function built for AVX-512) two whole registers at a
 * time by exp16, each lane as exp8 does it and summed in the same order.
 * Returns the sum over rows whose target is not -1 of log(sum) − (x_target
 * − max). */
static VEC_INLINE double softmax_rows8(float *p, const int *target, int rows, int C, const int nc,
                                       const bool wide)
{
    double loss = 0.0;
    const vec8 neg_inf = {-INFINITY, -INFINITY, -INFINITY, -INFINITY,
                          -INFINITY, -INFINITY, -INFINITY, -INFINITY};
    const vec8 zero = {0};
    for (int i0 = 0; i0 < rows; i0 += ROW_GROUP) {
        const int n = rows - i0 < ROW_GROUP ? rows - i0 : ROW_GROUP;
        float *base = p + (size_t)i0 * (size_t)C;
        const vec8 one = {1, 1, 1, 1, 1, 1, 1, 1};
        vec8 fold[ROW_GROUP];
        for (int r = n; r < ROW_GROUP; r++)
            fold[r] = one;
        /* pass 1: each row's max */
        for (int r = 0; r < n; r++) {
            const float *row = base + (size_t)r * (size_t)C;
            vec8 mx = neg_inf;
            for (int c = 0; c < nc; c++) {
                const vec8 x = load_part(row + c * LANES, C - c * LANES);
                const ivec8 in = (iota + c * LANES) < C;
                mx = select8(in & (x > mx), x, mx);
            }
            fold[r] = mx;
        }
        const vec8 max = max8x8(fold); /* lane r: row r's max */
        /* pass 2: e^(x - max) in place, and the row's sum; the target's
         * logit less the max is kept before it is overwritten */
        double shifted[ROW_GROUP];
        for (int r = 0; r < n; r++) {
            float *row = base + (size_t)r * (size_t)C;
            const int tg = target[i0 + r];
            shifted[r] = tg >= 0 ? (double)row[tg] - (double)max[r] : 0.0;
            vec8 part = zero;
            int c = 0;
#if VEC_WIDE
            for (; wide && (c + 2) * LANES <= C; c += 2) {
                vec16 x;
                memcpy(&x, row + c * LANES, sizeof x);
                x -= max[r];
                const vec16 e = select16(x >= MAT_EXP_NEG_MIN, exp16(x), (vec16){0});
                memcpy(row + c * LANES, &e, sizeof e);
                vec8 half;
                memcpy(&half, &e, sizeof half);
                part += half;
                memcpy(&half, (const float *)&e + LANES, sizeof half);
                part += half;
            }
#else
            (void)wide;
#endif
            for (; c < nc; c++) {
                const vec8 x = load_part(row + c * LANES, C - c * LANES) - max[r];
                const ivec8 in = ((iota + c * LANES) < C) & (x >= MAT_EXP_NEG_MIN);
                const vec8 e = select8(in, exp8(x), zero);
                store_part(row + c * LANES, e, C - c * LANES);
                part += e;
            }
            fold[r] = part;
        }
        const vec8 sum = sum8x8(fold);
        const vec8 inv = 1.0f / sum; /* one division for the group */
        for (int r = 0; r < n; r++)
            if (target[i0 + r] >= 0)
                loss += log((double)sum[r]) - shifted[r];
        /* pass 3: normalise */
        for (int r = 0; r < n; r++) {
            float *row = base + (size_t)r * (size_t)C;
            int c = 0;
#if VEC_WIDE
            for (; wide && (c + 2) * LANES <= C; c += 2) {
                vec16 x;
                memcpy(&x, row + c * LANES, sizeof x);
                x *= inv[r];
                memcpy(row + c * LANES, &x, sizeof x);
            }
#endif
            for (; c < nc; c++)
                store_part(row + c * LANES, load_part(row + c * LANES, C - c * LANES) * inv[r],
                           C - c * LANES);
        }
    }
    return loss;
}

/* softmax_rows8 over every row, registers kept for the common class counts */
static VEC_INLINE double softmax_rows(float *p, const int *target, int rows, int C, const bool wide)
{
    switch ((C + LANES - 1) / LANES) {
    case 1:
        return softmax_rows8(p, target, rows, C, 1, wide);
    case 2:
        return softmax_rows8(p, target, rows, C, 2, wide);
    case 3:
        return softmax_rows8(p, target, rows, C, 3, wide);
    case 4:
        return softmax_rows8(p, target, rows, C, 4, wide);
    default:
        return softmax_rows8(p, target, rows, C, (C + LANES - 1) / LANES, wide);
    }
}

MAT_KERNEL static double softmax_rows_narrow(float *p, const int *target, int rows, int C)
{
    return softmax_rows(p, target, rows, C, false);
}

#if VEC_WIDE
VEC_WIDE_TARGET static double softmax_rows_wide(float *p, const int *target, int rows, int C)
{
    return softmax_rows(p, target, rows, C, true);
}
#endif
#else
/* One row's -log softmax(x)[tg] through log-sum-exp, in double, before the
 * row becomes probabilities. */
static double row_cross_entropy(const float *x, int C, int tg)
{
    double max = x[0], sum = 0.0;
    for (int j = 1; j < C; j++)
        max = x[j] > max ? x[j] : max;
    for (int j = 0; j < C; j++)
        sum += exp((double)x[j] - max);
    return log(sum) - ((double)x[tg] - max);
}
#endif

/* p (rows, C): logits in, probabilities out.  Returns the sum over rows
 * whose target is not -1 of the cross-entropy -log softmax(logits)[target]
 * through log-sum-exp (finite at any logit size), their number in *count. */
double train_softmax_loss(float *p, const int *target, int rows, int C, int *count)
{
#if MHA_HAVE_ROWS
    double loss;
#if VEC_WIDE
    if (C >= 2 * LANES && vec_have_wide())
        loss = softmax_rows_wide(p, target, rows, C);
    else
#endif
        loss = softmax_rows_narrow(p, target, rows, C);
#else
    double loss = 0.0;
    for (int i = 0; i < rows; i++) {
        float *row = p + (size_t)i * (size_t)C;
        if (target[i] >= 0)
            loss += row_cross_entropy(row, C, target[i]);
        mat_softmax_row(row, C);
    }
#endif
    int n = 0;
    for (int i = 0; i < rows; i++)
        n += target[i] >= 0;
    *count = n;
    return loss;
}

/* d logits = (probs − onehot(target)) / count on rows with a target, 0 on
 * the others. */
MAT_KERNEL void train_loss_backward(const float *probs, const int *target, int rows, int C,
                                    int count, float *d_logits)
{
    const float inv = 1.0f / (float)count;
    for (int i = 0; i < rows; i++) {
        const float *restrict pr = probs + (size_t)i * (size_t)C;
        float *restrict dl = d_logits + (size_t)i * (size_t)C;
        if (target[i] < 0) {
            memset(dl, 0, (size_t)C * sizeof *dl);
            continue;
        }
        for (int j = 0; j < C; j++)
            dl[j] = pr[j] * inv;
        dl[target[i]] -= inv;
    }
}
