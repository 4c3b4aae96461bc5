/* train_heads.h - what a trained head does, measured from its attention
 * weights on held-out sequences: where each row's weight goes (the first
 * position, the previous one, its own, the earlier copy of its own token)
 * and how evenly it is spread.  The training screen's head labels, the
 * exports and --print-lesson read these numbers; a label is given only
 * when the weights show it. */
#ifndef MHA_TRAIN_HEADS_H
#define MHA_TRAIN_HEADS_H

#include "engine/train.h"

/* Held-out sequences the screen measures its heads on. */
#define TRAIN_HEADS_SEQUENCES 64

/* A label is given when the mean weight on one place reaches these, or
 * (even) when the rows' mean normalised entropy does. */
#define TRAIN_HEADS_PLACE_MIN 0.5f
#define TRAIN_HEADS_COPY_MIN 0.9f
#define TRAIN_HEADS_EVEN_MIN 0.9f

enum train_head_kind {
    TRAIN_HEAD_NONE,
    TRAIN_HEAD_FIRST, /* position 0 */
    TRAIN_HEAD_PREV,  /* position t - 1 */
    TRAIN_HEAD_SELF,  /* position t */
    TRAIN_HEAD_COPY,  /* the earlier positions holding the row's own token */
    TRAIN_HEAD_EVEN   /* spread evenly over the positions the row may see */
};

struct train_head_stats {
    /* mean weight rows 2..len-1 put on position 0, on t - 1 and on t */
    float first, prev, self;
    /* mean weight on the earlier copies of the row's token, over the rows
     * whose token appeared before (copy_rows of them; 0: no such row) */
    float copy;
    long copy_rows;
    /* mean over rows 1..len-1 of the weights' entropy / log(positions the
     * row may see): 1 = perfectly even, 0 = all on one position */
    float even;
    enum train_head_kind kind; /* the label, TRAIN_HEAD_NONE when none fits */
    float share;               /* the measure behind it (a weight, or evenness) */
};

/* Measure every head of m (out: m->cfg.heads entries) on n_seq sequences
 * of len tokens (tokens: (n_seq, len), ids < vocab, len <= context).  The
 * label: copy when copy >= TRAIN_HEADS_COPY_MIN, else the largest of first,
 * prev and self when it is >= TRAIN_HEADS_PLACE_MIN, else even when even >=
 * TRAIN_HEADS_EVEN_MIN, else none.  0, or -1 + err (bad sizes, out of
 * memory). */
int train_heads_measure(const struct train_model *m, const int *tokens, int n_seq, int len,
                        struct train_head_stats *out, struct mha_error *err);

/* The same from one head's weights (len, len) on one sequence. */
void train_head_stats_of(const float *w, const int *tokens, int len, bool causal,
                         struct train_head_stats *out);

/* "first token", "previous token", "itself", "earlier copy", "even spread" */
const char *train_head_kind_name(enum train_head_kind k);
/* "first", "prev", "self", "copy", "even" (for narrow titles) */
const char *train_head_kind_short(enum train_head_kind k);

#endif
