/* explain.h - "explain this number": the arithmetic that produced one cell of
 * an example or a trace, written out with the actual numbers.
 *
 * Pure C over the engine's types: no screen, no allocation.  The explorer
 * shows the text in its explain panel; tests read the numbers.  The text
 * always ends with a line "= <value>" holding the cell's number.
 */
#ifndef MHA_EXPLAIN_H
#define MHA_EXPLAIN_H

#include <stdbool.h>

#include "engine/mha.h"

/* Every matrix a screen can point at.  Shapes (heads, rows, cols):
 *   QUERY, KEY, VALUE          (1, lq|lk, d)     the example's inputs
 *   W_Q, W_K, W_V, W_O         (1, d, d)         [out][in]
 *   Q, K, V                    (1, lq|lk, d)     projections
 *   QH, KH, VH                 (H, lq|lk, d_k)   split + transposed
 *   SCORES, SCALED, WEIGHTS    (H, lq, lk)
 *   CONTEXT                    (H, lq, d_k)
 *   MERGED, OUTPUT             (1, lq, d) */
enum mha_tensor {
    MHA_TENSOR_QUERY,
    MHA_TENSOR_KEY,
    MHA_TENSOR_VALUE,
    MHA_TENSOR_W_Q,
    MHA_TENSOR_W_K,
    MHA_TENSOR_W_V,
    MHA_TENSOR_W_O,
    MHA_TENSOR_Q,
    MHA_TENSOR_K,
    MHA_TENSOR_V,
    MHA_TENSOR_QH,
    MHA_TENSOR_KH,
    MHA_TENSOR_VH,
    MHA_TENSOR_SCORES,
    MHA_TENSOR_SCALED,
    MHA_TENSOR_WEIGHTS,
    MHA_TENSOR_CONTEXT,
    MHA_TENSOR_MERGED,
    MHA_TENSOR_OUTPUT,
    MHA_TENSOR_COUNT
};

/* One number: tensor[head][row][col] (head 0 for 2-D tensors). */
struct mha_cell {
    enum mha_tensor tensor;
    int head, row, col;
};

/* Short name as the screen writes it: "query", "W_q", "Q", "Q_h", ... */
const char *mha_tensor_name(enum mha_tensor x);

/* Shape of x for trace t; heads is 1 for 2-D tensors. */
void mha_tensor_shape(const struct mha_trace *t, enum mha_tensor x, int *heads, int *rows,
                      int *cols);

/* The first number of x (row-major, heads outermost), read from ex or t. */
const float *mha_tensor_data(const struct mha_example *ex, const struct mha_trace *t,
                             enum mha_tensor x);

/* The largest finite |v| of x over every head (0 when there is none): the
 * end of its colour scale on the screen and in the exports. */
float mha_tensor_range(const struct mha_example *ex, const struct mha_trace *t, enum mha_tensor x);

/* True when cell lies inside its tensor's shape. */
bool mha_cell_valid(const struct mha_trace *t, const struct mha_cell *cell);

/* The number at cell (cell must be valid). */
float mha_cell_value(const struct mha_example *ex, const struct mha_trace *t,
                     const struct mha_cell *cell);

#define MHA_EXPLAIN_TEXT_MAX 8192

struct mha_explain_options {
    bool ascii;     /* write x, *, sqrt, sum instead of ×, ·, √, Σ */
    bool generated; /* the inputs were drawn from ex->seed (not read from a file) */
    bool model;     /* the inputs and weights are a trained model's (embeddings plus
                       positions, and the weights training left), not an example file's */
    int max_terms;  /* list at most this many terms of a sum (the rest are summed
                       and counted); 0 = 12 */
};

struct mha_explain {
    float value;  /* the number at the cell, as the engine stored it */
    double total; /* what the arithmetic written out adds up to */
    int n_terms;  /* terms of the sum or softmax row (0: the cell is not a sum) */
    bool masked;  /* a masked score or weight */
    char title[192];
    char text[MHA_EXPLAIN_TEXT_MAX]; /* lines separated by '\n', last one "= value" */
};

/* Fill out with the arithmetic behind cell.  opt may be NULL (defaults).
 * Returns 0, or -1 + err when the cell is outside its tensor or t was not
 * made for ex's sizes. */
int mha_explain_cell(const struct mha_example *ex, const struct mha_trace *t,
                     const struct mha_cell *cell, const struct mha_explain_options *opt,
                     struct mha_explain *out, struct mha_error *err);

#endif
