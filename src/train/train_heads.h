/* train_heads.h - what a trained head does, measured from its attention
 * weights on held-out sequences: where each row's weight goes (the first
 * position, the previous one, its own, the earlier copy of its own token)
 * and how evenly it is spread.  The training screen's head labels, the
 * exports and --print-lesson read these numbers; a label is given only
 * when the weights show it. */
#ifndef MHA_TRAIN_HEADS_H
#define MHA_TRAIN_HEADS_H

#include <stddef.h>

#include "train/train.h"

/* Held-out sequences the heads are measured on (at most: a task with fewer
 * held-out sequences gives all it has). */
#define TRAIN_HEADS_SEQUENCES 256

/* A label names one place when the mean weight on it reaches PLACE_MIN and
 * no other place takes SPLIT_MIN; else "even" when the rows' mean
 * normalised entropy reaches EVEN_MIN; else two places when the second
 * takes SPLIT_MIN or more and the two together reach PLACE_MIN (the split
 * shows: "first .52 / prev .42"). */
#define TRAIN_HEADS_PLACE_MIN 0.5f
#define TRAIN_HEADS_SPLIT_MIN 0.25f
#define TRAIN_HEADS_EVEN_MIN 0.9f

enum train_head_kind {
    TRAIN_HEAD_NONE,
    TRAIN_HEAD_FIRST,    /* position 0 */
    TRAIN_HEAD_PREV,     /* position t - 1 */
    TRAIN_HEAD_SELF,     /* position t */
    TRAIN_HEAD_COPY,     /* the earlier positions holding the row's own token */
    TRAIN_HEAD_EVEN,     /* spread evenly over the positions the row may see */
    TRAIN_HEAD_INDUCTION /* the positions just after the earlier copies of the row's token
                            (a head of a layer above the first only) */
};

/* Every measure is over the rows where the task has a target (rows with
 * no target are not the head's job). */
struct train_head_stats {
    /* mean weight rows 2.. put on position 0, on t - 1 and on t */
    float first, prev, self;
    long place_rows;
    /* mean weight on the earlier copies of the row's token, over the rows
     * whose token appeared before (copy_rows of them; 0: no such row) */
    float copy;
    long copy_rows;
    /* mean weight on the positions just after an earlier copy of the row's
     * token, over the rows that have one (induction_rows of them); measured
     * in a layer above the first only (a head of the first layer cannot
     * know what stood before another position) */
    float induction;
    long induction_rows;
    /* mean over rows 1.. of the weights' entropy / log(positions the row
     * may see): 1 = perfectly even, 0 = all on one position */
    float even;
    enum train_head_kind kind;  /* the label, TRAIN_HEAD_NONE when none fits */
    float share;                /* the measure behind it (a weight, or evenness) */
    enum train_head_kind kind2; /* a split label's second place, else TRAIN_HEAD_NONE */
    float share2;
};

/* Measure every head of m (out: m->cfg.heads entries) on the first n_seq
 * sequences of b (ids < vocab, b->len <= context), on the rows where any
 * output of b has a target.  The label: see TRAIN_HEADS_PLACE_MIN above;
 * the earlier copy is a place when at least half the measured rows have
 * one.  0, or -1 + err (bad sizes, out of memory). */
int train_heads_measure(const struct train_model *m, const struct train_batch *b, int n_seq,
                        struct train_head_stats *out, struct mha_error *err);

/* train_heads_measure a sequence at a time (the training screen's, between
 * frames): a job for the first n_seq sequences of b on m's parameters as
 * they are now (NULL + err as train_heads_measure fails); each part call
 * measures sequences while more(ctx) says so (NULL: to the end) and gives
 * 1 with out filled once the last is in, 0 before, -1 + err.  m (its
 * parameters) and b must stay as they are until the job is done. */
struct train_heads_job;
struct train_heads_job *train_heads_job_new(const struct train_model *m,
                                            const struct train_batch *b, int n_seq,
                                            struct mha_error *err);
int train_heads_job_part(struct train_heads_job *job, const struct train_model *m,
                         const struct train_batch *b, struct train_head_stats *out,
                         bool (*more)(void *ctx), void *ctx, struct mha_error *err);
/* The job measured again from its first sequence, on m's parameters as
 * they are now (m of the same size, the same batch): its memory kept. */
void train_heads_job_restart(struct train_heads_job *job, const struct train_model *m);
void train_heads_job_free(struct train_heads_job *job);

/* The same from one head's weights (len, len) on one sequence; has_target
 * (len) says which rows count (NULL: every row). */
void train_head_stats_of(const float *w, const int *tokens, const bool *has_target, int len,
                         bool causal, struct train_head_stats *out);

/* Accuracy per output (acc: n_outputs entries, NAN for an output with no
 * target in b) on b with the heads h where knock[h] is set knocked out:
 * each one's output (its d_k columns of the merged heads, before the
 * output projection) replaced by its mean over every position of b.  What
 * the model loses is what those heads did (heads that do the same job are
 * knocked out together, or the others make up for it).  0, or -1 + err. */
int train_heads_ablate(struct train_model *m, const struct train_batch *b, const bool *knock,
                       float *acc, struct mha_error *err);

/* The pieces of train_heads_ablate, for measures of their own (a text's
 * jobs, train_text.h): mean (d_model entries) = each column of the merged
 * heads averaged over every position of b (any size, forwarded in chunks);
 * and the forward pass of b (<= batch_cap sequences) to the loss with the
 * heads where knock[h] is set replaced by mean (knock NULL: none).  0, or
 * -1 + err when b does not fit. */
int train_heads_merged_mean(struct train_model *m, const struct train_batch *b, double *mean,
                            struct mha_error *err);
/* train_heads_merged_mean a chunk at a time: sum (zeroed first) += each
 * column of chunk's merged heads over its positions, *rows counting them
 * (0, or -1 + err when chunk does not fit); then finish makes sum the
 * mean. */
int train_heads_merged_add(struct train_model *m, const struct train_batch *chunk, double *sum,
                           long *rows, struct mha_error *err);
void train_heads_merged_finish(const struct train_model *m, double *sum, long rows);
int train_forward_knocked(struct train_model *m, const struct train_batch *b, const bool *knock,
                          const double *mean, struct mha_error *err);

/* "head 1 puts .97 on the previous token", "…splits .52 / .42 between the
 * first token and the previous token", "…spreads its weight evenly
 * (evenness .95)", or "" with no label: what --print-lesson says. */
void train_head_describe(int h, const struct train_head_stats *s, char *buf, size_t n);
/* "prev .97", "first .52 / prev .42", "even .95", "" (titles). */
void train_head_label(const struct train_head_stats *s, char *buf, size_t n);

/* "first token", "previous token", "itself", "earlier copy", "even spread" */
const char *train_head_kind_name(enum train_head_kind k);
/* "first", "prev", "self", "copy", "even" (for narrow titles) */
const char *train_head_kind_short(enum train_head_kind k);

#endif
