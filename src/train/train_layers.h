/* train_layers.h - how the heads of a model of layers work together.
 *
 * A head of layer l reads the residual stream: the embeddings plus what
 * every head of the layers below wrote.  Head h's OV matrix W_OV,h =
 * W_o[:, h]·W_v[h, :] (d, d) is what it writes per unit of weight on a
 * position, its QK matrix W_QK,h = W_q[h, :]ᵀ·W_k[h, :] (d, d) how a query
 * row scores a key row.  How much head h1 of a later layer reads through
 * head h0 of an earlier one (the composition scores of "A Mathematical
 * Framework for Transformer Circuits", Elhage et al. 2021):
 *
 *   Q: ||W_OV,h0ᵀ · W_QK,h1||_F / (||W_OV,h0||_F · ||W_QK,h1||_F)   its queries
 *   K: ||W_QK,h1 · W_OV,h0||_F  / (||W_QK,h1||_F · ||W_OV,h0||_F)   its keys
 *   V: ||W_OV,h1 · W_OV,h0||_F  / (||W_OV,h1||_F · ||W_OV,h0||_F)   its values
 *
 * Each is between 0 (h1 reads nothing of what h0 writes) and 1.  An
 * induction head (layer 1) reads the keys a previous-token head (layer 0)
 * wrote: its K score with that head stands out. */
#ifndef MHA_TRAIN_LAYERS_H
#define MHA_TRAIN_LAYERS_H

#include "train/train.h"
#include "train/train_heads.h"

/* The Q, K and V composition of head h1 of layer l1 with head h0 of layer
 * l0 < l1 into score[0..2].  0, or -1 + err (no such layer or head, out of
 * memory). */
int train_composition(const struct train_model *m, int l0, int h0, int l1, int h1, float score[3],
                      struct mha_error *err);

/* Layer layer's heads measured on the first n_seq sequences of b
 * (train_heads_measure) into stats (heads entries) and, when knocked is
 * not NULL, each knocked out alone (train_heads_ablate: accuracy left per
 * output) into knocked[h].  m's shown layer is the same after.  0, or -1 +
 * err. */
int train_layer_heads(struct train_model *m, int layer, const struct train_batch *b, int n_seq,
                      struct train_head_stats *stats, float (*knocked)[TRAIN_MAX_OUTPUTS],
                      struct mha_error *err);

/* Every layer's heads of a model of layers, measured and knocked out one
 * at a time (train_layer_heads), with the accuracy left on the same
 * sequences with every head in place. */
struct train_layer_measures {
    int layers, heads, n_outputs;
    int n_seq; /* the held-out sequences the heads were measured on */
    int size;  /* and those the knock-outs ran on */
    long step; /* the model's step when measured */
    struct train_head_stats stats[TRAIN_MAX_LAYERS][TRAIN_MAX_D_MODEL];
    float knocked[TRAIN_MAX_LAYERS][TRAIN_MAX_D_MODEL][TRAIN_MAX_OUTPUTS];
    float all[TRAIN_MAX_OUTPUTS]; /* no head knocked out */
};

/* Measure every layer of m into out: the heads on the first n_seq
 * sequences of b, each knocked out alone on the whole of b.  m's shown
 * layer is the same after.  0, or -1 + err. */
int train_layers_measure(struct train_model *m, const struct train_batch *b, int n_seq,
                         struct train_layer_measures *out, struct mha_error *err);

#endif
