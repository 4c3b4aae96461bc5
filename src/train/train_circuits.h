/* train_circuits.h - what each head of a trained one-layer model does, read
 * off its weights: the head's QK circuit (which word looks at which) and
 * OV circuit (what attending to a word writes into the next-word logits).
 *
 * With the model of train.h (x = E[token] + P[position], r = x + MHA(x),
 * logits_k = r·U_kᵀ + bias_k) and head h's rows W_q,h W_k,h W_v,h (d_k, d)
 * of the projections and columns W_o,h (d, d_k) of the output projection:
 *
 *   QK_h[i][j]     = (E_i·W_q,hᵀ + b_q,h) · (E_j·W_k,hᵀ) / s      (V, V)
 *   QK_pos,h[a][b] = (P_a·W_q,hᵀ) · (P_b·W_k,hᵀ) / s                (T, T)
 *   OV_h,k[j][o]   = U_k,o · W_o,h · W_v,h · E_jᵀ                   (V, C_k)
 *   direct_k[j][o] = U_k,o · E_jᵀ                                   (V, C_k)
 *
 * s = sqrt(d_k) when the model scales its scores, else 1.  QK_h is the
 * score a query word i gives a key word j from the words alone; the key's
 * bias adds the same to every key of a row and is left out, as softmax over
 * the keys ignores it.  QK_pos,h is the part that comes from the positions
 * alone (the cross terms of words and positions are in neither).  OV_h,k is
 * what head h adds to output k's logits per unit of weight on word j
 * (without b_v and b_o, which add the same whatever the head attends to);
 * direct_k is what word j itself adds through the residual path.  Softmax
 * ignores a constant added to every logit, so the readable tables below
 * rank by a value minus its row's mean.
 *
 * In a model of layers the heads are those of the layer shown
 * (m->shown_layer) and the circuits are its direct path only: the words'
 * embeddings straight into the head, its output straight to the read-outs.
 * What a head reads of the heads below and writes for the heads above
 * (composition, train_layers.h) is in neither.
 *
 * Pure computation on the model's parameters; no allocation but the
 * caller's buffers and one scratch block. */
#ifndef MHA_TRAIN_CIRCUITS_H
#define MHA_TRAIN_CIRCUITS_H

#include <stdbool.h>
#include <stddef.h>

#include "train/train.h"

/* Floats of scratch train_circuit_qk / train_circuit_ov need. */
size_t train_circuit_scratch(const struct train_model *m);

/* QK_h into out (V, V), row = query word.  scratch: train_circuit_scratch
 * floats.  0, or -1 + err (h out of range). */
int train_circuit_qk(const struct train_model *m, int h, float *out, float *scratch,
                     struct mha_error *err);
/* QK_pos,h into out (T, T), row = query position (every cell, also those a
 * causal mask hides). */
int train_circuit_qk_pos(const struct train_model *m, int h, float *out, float *scratch,
                         struct mha_error *err);
/* OV_h,k into out (V, C_k), row = attended word; h = -1 gives direct_k. */
int train_circuit_ov(const struct train_model *m, int h, int k, float *out, float *scratch,
                     struct mha_error *err);

/* ---- readable ---- */

/* The name of class o of output k: the vocabulary's word when the output
 * has a class per token (a language model's "next", the letter tasks),
 * else its number. */
void train_circuit_class_name(const struct train_model *m, int k, int o, char *buf, size_t n);

#define TRAIN_CIRCUIT_TOP 6    /* pairs listed per head */
#define TRAIN_CIRCUIT_RAISES 3 /* words listed per attended word */

struct train_circuit_pair {
    int from, to; /* query word -> key word (QK); attended word -> raised word (OV) */
    float value;  /* above the row's mean */
};

/* The n (<= V·V) largest QK_h[i][j] - mean_j QK_h[i][·] of qk (V, V), the
 * larger first (ties: the lower i, then j). */
int train_circuit_top_qk(const float *qk, int V, int n, struct train_circuit_pair *out);

/* What head h writes, readably: the n attended words j whose largest
 * OV[j][o] - mean_o OV[j][·] is largest, each with its r largest raised
 * words (out: n·r pairs, word by word; ties: the lower id).  ov is (V, C).
 * Returns the number of attended words listed. */
int train_circuit_top_ov(const float *ov, int V, int C, int n, int r,
                         struct train_circuit_pair *out);

/* Where head h looks by position alone: for every query position a >= 1
 * (causal: keys b <= a; else every b), the key position with the largest
 * QK_pos,h[a][b] (the first of equal ones).  offset: the offset a - b that
 * wins most often (ties: the smaller distance, then the offset looking
 * back) and count: in how many of the rows positions; first: in how many
 * the winner is position 0 (a head that looks at the first token wins
 * there at every offset).  qk_pos is (T, T). */
struct train_circuit_place {
    int offset, count, first, rows;
};
void train_circuit_offset(const float *qk_pos, int T, bool causal, struct train_circuit_place *out);
/* "1 back (12 of 15)", "2 ahead (…)", "itself (…)", or "the first (7 of 7)"
 * when position 0 wins more rows than any offset; "" with no row. */
void train_circuit_place_text(const struct train_circuit_place *p, char *buf, size_t n);

/* ---- a scale that reads, and a head in one line ----
 *
 * A logit or a score above its row's mean has no unit a reader knows; its
 * z-score over the row, (value - mean) / standard deviation, says how far
 * out of the row's spread it stands (above 3: one of a very few). */

/* The z-score a pair needs to be named in a head's reading: one of a very
 * few in its row. */
#define TRAIN_CIRCUIT_Z_STANDS 3.0f

/* The z-score of row[at] over row[0 .. n) (0 when the row is flat). */
float train_circuit_z(const float *row, int n, int at);

/* What one head does, read off its weights (train_circuit_read). */
struct train_circuit_reading {
    struct train_circuit_place place;
    int same, same_of; /* query words whose highest-scored key word is the
                          word itself, of same_of (the vocabulary) */
    bool has_look;     /* the strongest QK pair (the tables' first) */
    struct train_circuit_pair look;
    float look_z;        /* its z over its query word's row */
    int copy_k;          /* the output of a class per word where the most
                            attended words raise themselves most (-1: none) */
    int copies, copy_of; /* how many, of how many */
    int raise_k;         /* the output whose strongest raise stands out most */
    bool has_raise;      /* that raise (the first of its table) */
    struct train_circuit_pair raise;
    float raise_z; /* its z over the attended word's row */
};

/* Head h of m read: where it looks by position, how many words look most
 * at themselves, its strongest QK pair, and per output its strongest OV
 * raise and how many words raise themselves most, with z-scores.  qk (V,
 * V), pos (T, T), ov (V, largest C) and scratch (train_circuit_scratch
 * floats) are the caller's buffers.  0, or -1 + err. */
int train_circuit_read(const struct train_model *m, int h, float *qk, float *pos, float *ov,
                       float *scratch, struct train_circuit_reading *out, struct mha_error *err);

/* The reading in one line a student can check, every clause with the
 * number it rests on: 'by position it favours the first (7 of 7); raises
 * for first the token it attends to (14 of 16)', 'by its words it looks
 * at the same token (15 of 16)', or '...; from "very" it looks most at
 * "mice" (z 3.4); attending to "lunch" raises "grunt" most (z 3.3)', led
 * by measured and "; " when measured is not empty (what the head was
 * measured doing on held-out data: "knocked out alone, long falls from
 * 1.00 to 0.08", first as what matters most).  Looking at
 * the same word and raising it are said only when at least half the words
 * do so; else the strongest pair and raise, when their z-score reaches
 * TRAIN_CIRCUIT_Z_STANDS. */
void train_circuit_reading_text(const struct train_model *m, const struct train_circuit_reading *r,
                                const char *measured, char *buf, size_t n);

#endif
