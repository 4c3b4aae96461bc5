/* train_variant.h - variants of the attention block: the design choices of
 * the documents (shared query and key projections, factorised projections,
 * no output projection or a low-rank one, heads sharing keys and values),
 * each trained in the same parameter block as the standard block.
 *
 * A variant's model keeps w_q, w_k, w_v, w_o and the biases as full
 * matrices holding what the variant means, so that everything reading a
 * model (the forward pass, stages, circuits, files) reads it as it is:
 *
 *   shared-qk      w_k = w_q, b_k = b_q (one projection for both)
 *   low-rank-qk:R  w_q = A_q·B_q, w_k = A_k·B_k; A (d, R), B (R, d)
 *   no-wo          w_o = I, b_o = 0 (the merged heads are the output)
 *   low-rank-wo:R  w_o = A_o·B_o
 *   mqa            every head's rows of w_k and w_v (and b_k, b_v) are
 *                  head 0's: one head's keys and values for all
 *   gqa:G          heads g·H/G .. (g+1)·H/G − 1 share the rows of the
 *                  group's first head (torch's repeat_interleave)
 *
 * The factors A and B of each layer follow the outputs at the end of the
 * block (train.h), so the layout before them is the standard one.  The
 * free parameters are the first of each tied set (w_q, a group's first
 * head) and the factors; after the backward pass each tied gradient is
 * gathered into its free parameter and the others are zero
 * (train_variant_grads), and after each Adam step the full matrices are
 * made again from the free parameters (train_variant_tie).  The standard
 * block runs neither: its numbers are the same bits as ever. */
#ifndef MHA_TRAIN_VARIANT_H
#define MHA_TRAIN_VARIANT_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha_error.h"

enum train_variant_kind {
    TRAIN_VARIANT_STANDARD,
    TRAIN_VARIANT_SHARED_QK,
    TRAIN_VARIANT_LOW_RANK_QK,
    TRAIN_VARIANT_NO_WO,
    TRAIN_VARIANT_LOW_RANK_WO,
    TRAIN_VARIANT_MQA,
    TRAIN_VARIANT_GQA,
};

/* Longest name a variant is written with ("low-rank-qk:256"), with the NUL. */
#define TRAIN_VARIANT_NAME_MAX 24

struct train_variant {
    enum train_variant_kind kind;
    int n; /* the rank R (low-rank-*) or the groups G (gqa); 0 otherwise */
};

struct train_config;
struct train_model;

/* text ("standard", "shared-qk", "low-rank-qk:R", "no-wo", "low-rank-wo:R",
 * "mqa", "gqa:G") into v, its sizes unchecked.  0, or -1 + err naming the
 * variants there are. */
int train_variant_parse(const char *text, struct train_variant *v, struct mha_error *err);

/* v's name as --variant spells it ("gqa:2") into buf. */
const char *train_variant_name(const struct train_variant *v, char *buf, size_t n);

/* The variants in words for messages: "standard, shared-qk, ...". */
const char *train_variant_names(void);

/* v against d_model and heads: R from 1 to d_model − 1, G dividing heads.
 * 0, or -1 + err saying what to give. */
int train_variant_check(const struct train_variant *v, int d_model, int heads,
                        struct mha_error *err);

/* How many matrices of a layer are factorised (2, 1 or 0) and the floats
 * of one layer's factors. */
int train_variant_factored(const struct train_variant *v);
size_t train_variant_factor_floats(const struct train_variant *v, int d_model);

/* The parameters the model learns: the block's floats without the copies a
 * variant ties to others, the products of its factors, and the biases the
 * model does not have.  0 when cfg is invalid. */
size_t train_variant_parameters(const struct train_config *cfg);

/* Floats of key and value a causal decoder keeps per token and layer: 2·d
 * for standard, 2·G·d_k for grouped heads. */
size_t train_variant_cache_floats(const struct train_variant *v, int d_model, int heads);

/* What one attention block of variant v costs at d_model d, heads h (h
 * divides d), for seq_q queries over seq_k keys: the parameters it learns
 * (with the biases where bias), the multiply-adds of its projections, its
 * scores, its weighted values and its output, and the floats of keys and
 * values a decoder caches per token.  A shared matrix is still applied to
 * the keys' input; a factorised one as two thin products. */
struct train_variant_cost {
    long long params, macs_projection, macs_attention, macs_output, macs_total, cache;
};
void train_variant_cost(const struct train_variant *v, long long seq_q, long long seq_k,
                        long long d, long long h, bool bias, struct train_variant_cost *out);

/* The full matrices of m's parameters made from the free ones. */
void train_variant_tie(struct train_model *m);

/* Each tied gradient of m gathered into its free parameter (the factors'
 * from their product's), the others zero. */
void train_variant_grads(struct train_model *m);

/* Where the full matrices of layer l of m differ from what the variant
 * means, in words into err (e.g. "layers[1].w_k row 2 column 0 is not
 * w_q's (0.25 against 0.5): under shared-qk w_k = w_q"); 0 when they agree
 * (a product of factors within float rounding). */
int train_variant_verify(const struct train_model *m, int l, struct mha_error *err);

#endif
