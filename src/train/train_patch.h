/* train_patch.h - activation patching, TransformerLens's measure of how
 * much of an answer one head carries: a clean run and a corrupted run of as
 * many tokens, the logit difference between two answers A and B of an
 * output at the last token in each (d_clean, d_corrupt), and for each
 * layer and head the corrupted run again with that head's output (its
 * columns of the merged heads, so its contribution merged_h·W_o,hᵀ to the
 * residual stream, at every position) replaced by the clean run's: its
 * d_patched, and the share of the way back (d_patched − d_corrupt) /
 * (d_clean − d_corrupt).  The layers above the patched one run on what the
 * patch changed.  The same, asked for, with one head's output at one
 * position alone (per layer, head and position).  Pure computation on the
 * training engine's forward pass. */
#ifndef MHA_TRAIN_PATCH_H
#define MHA_TRAIN_PATCH_H

#include <stdbool.h>

#include "train/train.h"

/* Below this |d_clean − d_corrupt| (in logits) the share is not computed:
 * the two runs answer alike. */
#define TRAIN_PATCH_MIN_DIFF 1e-3

struct train_patching {
    int k;                      /* the output read */
    int position;               /* the last token's, where it is read */
    int clean_top, corrupt_top; /* each run's likeliest class */
    int a, b;                   /* the answers compared (A − B) */
    double d_clean, d_corrupt;
    bool measurable; /* |d_clean − d_corrupt| >= TRAIN_PATCH_MIN_DIFF */
    double d_patched[TRAIN_MAX_LAYERS][TRAIN_MAX_D_MODEL]; /* [layer][head] */
    double score[TRAIN_MAX_LAYERS][TRAIN_MAX_D_MODEL];     /* the share; NAN when not measurable */
    /* with positions: the same with that head's output the clean run's at
     * position t alone, [layer][head][t] for t < position + 1 */
    bool positions;
    double d_patched_at[TRAIN_MAX_LAYERS][TRAIN_MAX_D_MODEL][TRAIN_MAX_CONTEXT];
    double score_at[TRAIN_MAX_LAYERS][TRAIN_MAX_D_MODEL][TRAIN_MAX_CONTEXT];
};

/* Patch every head of m: clean and corrupt are len token ids each (len <=
 * context); output k is read at the last token; a and b are the answers
 * (-1: the clean run's likeliest class for a, the corrupted run's for b);
 * positions: also patch each head at each position alone (layers × heads ×
 * len forward passes more; out is large, about a megabyte: allocate it).
 * Leaves m's shown layer as it was.  0, or -1 + err (an id out of range,
 * len too long, no memory). */
int train_patch_heads(struct train_model *m, int k, const int *clean, const int *corrupt, int len,
                      int a, int b, bool positions, struct train_patching *out,
                      struct mha_error *err);

#endif
