/* mha_long.h - pass 4 of a head whose keys do not fit in registers
 * (mha_rows.h), a block of query rows at a time, and the scaling, mask and
 * softmax of such a block's rows (engine-internal; mha.c calls it). */
#ifndef MHA_LONG_H
#define MHA_LONG_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha.h"

/* Query rows i0 .. i0 + rows - 1 of t: their scores (rows by lk, already
 * computed) scaled and masked into scaled, and their softmax into weights;
 * a row whose every key is masked gets weights of 0 and is counted in
 * t->row_empty and t->empty_rows.  The same bits on every processor. */
void mha_long_rows(struct mha_trace *t, const unsigned char *mask, bool causal, int i0, int rows,
                   float *scores, float *scaled, float *weights);

/* Keys a panel of a head's transposed keys holds (mha_long_head): d_k rows
 * of MHA_LONG_KEY_PANEL floats next to each other, which the product of a
 * block's scores reads from the first-level cache; rows of lk floats, a
 * power of two apart, would fall in a few of its sets and be read again
 * from the second level. */
#define MHA_LONG_KEY_PANEL 64

/* Floats of working memory mha_long_head needs for t. */
size_t mha_long_floats(const struct mha_trace *t);

/* Pass 4 of head h of t by the plain loops, for a head whose keys do not
 * fit in registers: khᵀ once (into work, in panels of MHA_LONG_KEY_PANEL
 * keys), then a block of query rows at a
 * time: scores = qh·khᵀ, scaled and masked, softmax, context = weights·vh,
 * so that a block's scores are still in cache when its weights are read.
 * Row i of a product reads row i of its left side only, and each sum runs
 * over p = 0, 1, .. as the whole-head product's, so blocks change the
 * order of the work, not a number.  work holds mha_long_floats(t). */
void mha_long_head(struct mha_trace *t, const unsigned char *mask, bool causal, int h, float *work);

/* The three arrays of scores are written past the caches (streaming stores)
 * when one trace's three arrays of scores take more than bytes; returns the
 * setting before.  By default 4 MiB, twice a core's second-level cache.  For
 * the tests, which hold both ways to the same bits, and the benchmarks. */
size_t mha_long_stream_above(size_t bytes);

#endif
