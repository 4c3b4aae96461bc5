/* train_fit.h - whether a run on a file learns anything that carries over
 * to lines it never saw: its held-out loss watched beside its training
 * loss at every evaluation, and the signs that a text (or a task file) is
 * too small to learn from.
 *
 * - few words: a text of fewer than TRAIN_FIT_MIN_WORDS words;
 * - best at the start: the held-out loss lowest at step 0, so training
 *   only made the model worse on lines it never saw;
 * - rising: the held-out loss TRAIN_FIT_RISE above its lowest (or a tenth
 *   of it, whichever is more) while the training loss has fallen below
 *   TRAIN_FIT_FALL of what it was there: the model learns its lines by
 *   heart.
 */
#ifndef TRAIN_FIT_H
#define TRAIN_FIT_H

#include <stdbool.h>
#include <stddef.h>

#define TRAIN_FIT_MIN_WORDS 2000
#define TRAIN_FIT_RISE 0.1f
#define TRAIN_FIT_FALL 0.8f

/* The held-out loss kept over a run's evaluations. */
struct train_fit {
    int evals;        /* evaluations seen */
    float best;       /* the lowest held-out loss */
    long best_step;   /* where it was first reached */
    float train_best; /* the training loss there (the last step's; NaN at step 0) */
    float held;       /* the held-out loss at the last evaluation */
    float train;      /* the training loss then */
    long step;        /* the step of the last evaluation */
};

enum train_fit_sign {
    TRAIN_FIT_FEW_WORDS = 1u << 0,
    TRAIN_FIT_BEST_AT_START = 1u << 1,
    TRAIN_FIT_RISING = 1u << 2,
};

/* Nothing seen yet. */
void train_fit_init(struct train_fit *f);
/* An evaluation at step: the held-out loss and the training loss of the
 * step just taken (NaN when none has been: step 0). */
void train_fit_evaluated(struct train_fit *f, long step, float held, float train);

/* The signs (enum train_fit_sign) f shows for a run on a file of words
 * words (-1: not a text, so no word count).  Best at the start is said
 * once the run has gone on from step 0 (two evaluations or more). */
unsigned train_fit_signs(const struct train_fit *f, long words);

/* The signs in words, one sentence each after "Too small to learn from:"
 * (signs 0: ""); words -1 (a task file) speaks of its rows, not lines. */
void train_fit_text(const struct train_fit *f, unsigned signs, long words, char *buf, size_t n);

/* The signs' names, for JSON: "few_words", "best_at_start", "rising". */
const char *train_fit_sign_name(unsigned sign);

#endif
