/* train_loss.c - the read-out's softmax and cross-entropy (pass 4 of
 * train_step.c) and its gradient, a row of logits at a time, eight classes
 * to a vector register where the compiler has vector types. */
#include <math.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"

double train_softmax_loss(float *p, const int *target, int rows, int C, int *count);
void train_loss_backward(const float *probs, const int *target, int rows, int C, int count,
                         float *d_logits);

#if MHA_HAVE_ROWS
#include "engine/train.h"
#include "engine/vec8.h"

/* Rows taken together through each pass: a row's steps depend on each
 * other (max, e^x, sum, division), the rows do not, so a pass over several
 * rows lets the CPU overlap them. */
#define ROW_GROUP 8
_Static_assert(ROW_GROUP <= LANES, "one register holds a group's sums");

/* Softmax of every row of p (rows, C) in place, nc = ceil(C / 8) registers
 * a row (a constant after inlining): the row max, e^(x - max) by exp8 (0
 * more than 87 below the max), the sum, one multiply. */
static VEC_INLINE void softmax_rows8(float *p, int rows, int C, const int nc)
{
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
        /* pass 2: e^(x - max) in place, and the row's sum */
        for (int r = 0; r < n; r++) {
            float *row = base + (size_t)r * (size_t)C;
            vec8 part = zero;
            for (int c = 0; c < nc; c++) {
                const vec8 x = load_part(row + c * LANES, C - c * LANES) - max[r];
                const ivec8 in = ((iota + c * LANES) < C) & (x >= MAT_EXP_NEG_MIN);
                const vec8 e = select8(in, exp8(x), zero);
                store_part(row + c * LANES, e, C - c * LANES);
                part += e;
            }
            fold[r] = part;
        }
        const vec8 inv = 1.0f / sum8x8(fold); /* one division for the group */
        /* pass 3: normalise */
        for (int r = 0; r < n; r++) {
            float *row = base + (size_t)r * (size_t)C;
            for (int c = 0; c < nc; c++)
                store_part(row + c * LANES, load_part(row + c * LANES, C - c * LANES) * inv[r],
                           C - c * LANES);
        }
    }
}
#endif

/* p (rows, C): logits in, probabilities out.  Returns the sum over rows
 * whose target is not -1 of -log p[target] (p under 1e-30 counted as
 * 1e-30), their number in *count. */
MAT_KERNEL double train_softmax_loss(float *p, const int *target, int rows, int C, int *count)
{
#if MHA_HAVE_ROWS
    /* every row's softmax first (registers kept for the common class
     * counts), then the loss */
    switch ((C + LANES - 1) / LANES) {
    case 1:
        softmax_rows8(p, rows, C, 1);
        break;
    case 2:
        softmax_rows8(p, rows, C, 2);
        break;
    case 3:
        softmax_rows8(p, rows, C, 3);
        break;
    case 4:
        softmax_rows8(p, rows, C, 4);
        break;
    default:
        softmax_rows8(p, rows, C, (C + LANES - 1) / LANES);
        break;
    }
#else
    for (int i = 0; i < rows; i++)
        mat_softmax_row(p + (size_t)i * (size_t)C, C);
#endif
    double loss = 0.0;
    int n = 0;
    for (int i = 0; i < rows; i++) {
        if (target[i] < 0)
            continue;
        const float pt = p[(size_t)i * (size_t)C + (size_t)target[i]];
        loss -= log(pt > 1e-30f ? (double)pt : 1e-30);
        n++;
    }
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
