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
 *   MERGED, OUTPUT             (1, lq, d)
 *
 * One row each, with its description (engine/stages.h, struct
 * mha_tensor_desc): X(ID, name, focus, kind, rows, cols, json_key, from,
 * weight, heads, mask_of), kind one of MHA_KIND_*, rows and cols of
 * MHA_SIDE_*, the last four tensors (COUNT: none).  The row makes its value
 * MHA_TENSOR_ID and its description (engine/stage_titles.c); where its
 * numbers are and how a cell is explained are in engine/explain.c. */
#define MHA_TENSORS(X)                                                                             \
    X(QUERY, "query", "query", SEQUENCE, QUERY, NONE, "query", COUNT, COUNT, COUNT, COUNT)         \
    X(KEY, "key", "key", SEQUENCE, KEY, NONE, "key", COUNT, COUNT, COUNT, COUNT)                   \
    X(VALUE, "value", "value", SEQUENCE, KEY, NONE, "value", COUNT, COUNT, COUNT, COUNT)           \
    X(W_Q, "W_q", "w_q", WEIGHT, NONE, NONE, "w_q", COUNT, COUNT, COUNT, COUNT)                    \
    X(W_K, "W_k", "w_k", WEIGHT, NONE, NONE, "w_k", COUNT, COUNT, COUNT, COUNT)                    \
    X(W_V, "W_v", "w_v", WEIGHT, NONE, NONE, "w_v", COUNT, COUNT, COUNT, COUNT)                    \
    X(W_O, "W_o", "w_o", WEIGHT, NONE, NONE, "w_o", COUNT, COUNT, COUNT, COUNT)                    \
    X(Q, "Q", "q", SEQUENCE, QUERY, NONE, "q", QUERY, W_Q, QH, COUNT)                              \
    X(K, "K", "k", SEQUENCE, KEY, NONE, "k", KEY, W_K, KH, COUNT)                                  \
    X(V, "V", "v", SEQUENCE, KEY, NONE, "v", VALUE, W_V, VH, COUNT)                                \
    X(QH, "Q_h", NULL, PER_HEAD, QUERY, NONE, "q", COUNT, COUNT, COUNT, COUNT)                     \
    X(KH, "K_h", NULL, PER_HEAD, KEY, NONE, "k", COUNT, COUNT, COUNT, COUNT)                       \
    X(VH, "V_h", NULL, PER_HEAD, KEY, NONE, "v", COUNT, COUNT, COUNT, COUNT)                       \
    X(SCORES, "scores", "scores", SCORES, QUERY, KEY, "scores", COUNT, COUNT, COUNT, COUNT)        \
    X(SCALED, "scaled", "scaled", SCORES, QUERY, KEY, "scaled", COUNT, COUNT, COUNT, COUNT)        \
    X(WEIGHTS, "weights", "weights", PROBS, QUERY, KEY, "weights", COUNT, COUNT, COUNT, SCALED)    \
    X(CONTEXT, "context", "context", PER_HEAD, QUERY, NONE, "context", COUNT, COUNT, COUNT, COUNT) \
    X(MERGED, "merged", "merged", SEQUENCE, QUERY, NONE, "merged", COUNT, COUNT, COUNT, COUNT)     \
    X(OUTPUT, "output", "output", SEQUENCE, QUERY, NONE, "output", MERGED, W_O, COUNT, COUNT)

#define MHA_TENSOR_VALUE_OF(id, ...) MHA_TENSOR_##id,
enum mha_tensor { MHA_TENSORS(MHA_TENSOR_VALUE_OF) MHA_TENSOR_COUNT };
#undef MHA_TENSOR_VALUE_OF

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
