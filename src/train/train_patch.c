/* train_patch.c - activation patching (train_patch.h): the forward pass
 * taken in its two pieces around the patched layer's merged heads, as
 * train_heads.c's knock-outs take it. */
#include "train/train_patch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* tokens (len of them) as a batch of one sequence with no target, in the
 * caller's tok and none (TRAIN_MAX_CONTEXT each). */
static struct train_batch one_sequence(const struct train_model *m, const int *tokens, int len,
                                       int *tok, int *none)
{
    for (int t = 0; t < len; t++) {
        tok[t] = tokens[t];
        none[t] = -1;
    }
    struct train_batch b = {.size = 1, .len = len, .n_outputs = m->cfg.n_outputs, .tokens = tok};
    for (int o = 0; o < m->cfg.n_outputs; o++)
        b.targets[o] = none;
    return b;
}

/* Output k's logit of class j at position pos of the last forward pass,
 * in double: r·u_j + bias_j. */
static double logit(const struct train_model *m, int k, int pos, int j)
{
    const int d = m->cfg.d_model;
    const float *r = m->r + (size_t)pos * (size_t)d;
    const float *u = m->p.unembed[k] + (size_t)j * (size_t)d;
    double z = m->p.bias[k][j];
    for (int i = 0; i < d; i++)
        z += (double)r[i] * (double)u[i];
    return z;
}

/* The likeliest class of output k at pos (the lower id on a tie). */
static int top_class(const struct train_model *m, int k, int pos)
{
    int best = 0;
    double top = logit(m, k, pos, 0);
    for (int j = 1; j < m->cfg.outputs[k].classes; j++) {
        const double z = logit(m, k, pos, j);
        if (z > top)
            top = z, best = j;
    }
    return best;
}

int train_patch_heads(struct train_model *m, int k, const int *clean, const int *corrupt, int len,
                      int a, int b, bool positions, struct train_patching *out,
                      struct mha_error *err)
{
    const struct train_config *c = &m->cfg;
    const int L = train_layers(c), d = c->d_model, dk = d / c->heads, pos = len - 1;
    const int C = k >= 0 && k < c->n_outputs ? c->outputs[k].classes : 0;
    if (!C)
        return mha_error_set(err, "the model has no output %d", k);
    if (a >= C || b >= C)
        return mha_error_set(err, "answer %d is not one of the output's %d classes", a >= C ? a : b,
                             C);
    int tok[TRAIN_MAX_CONTEXT], none[TRAIN_MAX_CONTEXT];
    int tok2[TRAIN_MAX_CONTEXT], none2[TRAIN_MAX_CONTEXT];
    if (len < 1 || len > c->context)
        return mha_error_set(err, "%d tokens: the model takes 1 to %d", len, c->context);
    const struct train_batch bc = one_sequence(m, clean, len, tok, none);
    const struct train_batch bx = one_sequence(m, corrupt, len, tok2, none2);
    const size_t rows = (size_t)len * (size_t)d;
    float *saved = malloc(sizeof(float) * rows * (size_t)L);
    if (!saved)
        return mha_error_set(err, "out of memory");
    const int shown = m->shown_layer;
    memset(out, 0, sizeof *out);
    out->k = k;
    out->position = pos;
    /* pass 1: the clean run, every layer's merged heads kept */
    if (train_forward(m, &bc, err)) {
        free(saved);
        return -1;
    }
    for (int l = 0; l < L; l++)
        memcpy(saved + (size_t)l * rows, train_layer_traces(m, l)[0].merged, sizeof(float) * rows);
    out->clean_top = top_class(m, k, pos);
    out->a = a >= 0 ? a : out->clean_top;
    /* pass 2: the corrupted run */
    if (train_forward(m, &bx, err)) {
        free(saved);
        return -1;
    }
    out->corrupt_top = top_class(m, k, pos);
    out->b = b >= 0 ? b : out->corrupt_top;
    out->d_corrupt = logit(m, k, pos, out->a) - logit(m, k, pos, out->b);
    if (train_forward(m, &bc, err)) { /* d_clean once both answers are known */
        free(saved);
        return -1;
    }
    out->d_clean = logit(m, k, pos, out->a) - logit(m, k, pos, out->b);
    const double span = out->d_clean - out->d_corrupt;
    out->measurable = fabs(span) >= TRAIN_PATCH_MIN_DIFF;
    /* pass 3: the corrupted run with one head's columns of one layer's
     * merged heads the clean run's, at every position */
    for (int l = 0; l < L; l++) {
        m->shown_layer = l;
        for (int h = 0; h < c->heads; h++) {
            train_forward_attention(m, &bx);
            float *merged = train_layer_traces(m, l)[0].merged;
            const float *from = saved + (size_t)l * rows;
            for (int t = 0; t < len; t++)
                memcpy(merged + (size_t)t * d + (size_t)h * dk,
                       from + (size_t)t * d + (size_t)h * dk, sizeof(float) * (size_t)dk);
            train_forward_readout(m, &bx);
            out->d_patched[l][h] = logit(m, k, pos, out->a) - logit(m, k, pos, out->b);
            out->score[l][h] =
                out->measurable ? (out->d_patched[l][h] - out->d_corrupt) / span : NAN;
        }
    }
    /* pass 4: the same at one position t alone */
    out->positions = positions;
    for (int l = 0; positions && l < L; l++) {
        m->shown_layer = l;
        for (int h = 0; h < c->heads; h++)
            for (int t = 0; t < len; t++) {
                train_forward_attention(m, &bx);
                float *merged = train_layer_traces(m, l)[0].merged;
                const float *from = saved + (size_t)l * rows;
                memcpy(merged + (size_t)t * d + (size_t)h * dk,
                       from + (size_t)t * d + (size_t)h * dk, sizeof(float) * (size_t)dk);
                train_forward_readout(m, &bx);
                const double dp = logit(m, k, pos, out->a) - logit(m, k, pos, out->b);
                out->d_patched_at[l][h][t] = dp;
                out->score_at[l][h][t] = out->measurable ? (dp - out->d_corrupt) / span : NAN;
            }
    }
    m->shown_layer = shown;
    free(saved);
    return 0;
}
