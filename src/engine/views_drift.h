/* views_drift.h - how far training moved each head: the cosine between
 * head i's score form A_i = W_q,iᵀ·W_k,i in one weight set and in another
 * of the same sizes (the model at step 0 and now).  1: the head ranks token
 * pairs as it did; near 0: it looks for something else entirely. */
#ifndef VIEWS_DRIFT_H
#define VIEWS_DRIFT_H

#include "engine/mha.h"

/* cos[i] for each of a's heads (a and b must have the same d_model and
 * heads; -1 otherwise).  A head whose form is zero in either gets 0.
 * Returns 0. */
int views_heads_drift(const struct mha_example *a, const struct mha_example *b, double *cos);

#endif
