/* train_layers.c - how the heads of a model of layers work together: each
 * layer's heads measured and knocked out in turn (train_layers.h), and how
 * much a later head reads what an earlier head wrote (composition). */
#include "train/train_layers.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Head h of a's W_OV = W_o[:, h] · W_v[h, :] into ov (d, d), and, when qk
 * is not NULL, W_QK = W_q[h, :]ᵀ · W_k[h, :] into qk (d, d): the bilinear
 * form a query row x_q and a key row x_k score by, x_q · W_QK · x_kᵀ. */
static void head_matrices(const struct train_model *m, const struct mha_params *a, int h,
                          double *ov, double *qk)
{
    const int d = m->cfg.d_model, dk = d / m->cfg.heads;
    const size_t off = (size_t)h * (size_t)dk;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            double o = 0.0, q = 0.0;
            for (int c = 0; c < dk; c++) {
                /* W_o is [out][in]: row i, column off + c; W_v row off + c */
                o += (double)a->w_o[(size_t)i * d + off + c] * a->w_v[(off + c) * d + j];
                q += (double)a->w_q[(off + c) * d + i] * a->w_k[(off + c) * d + j];
            }
            ov[(size_t)i * d + j] = o;
            if (qk)
                qk[(size_t)i * d + j] = q;
        }
}

static double frobenius(const double *a, int d)
{
    double s = 0.0;
    for (size_t i = 0; i < (size_t)d * (size_t)d; i++)
        s += a[i] * a[i];
    return sqrt(s);
}

/* ||a · b||_F for d × d matrices, a transposed first where at. */
static double product_norm(const double *a, bool at, const double *b, int d)
{
    double s = 0.0;
    for (int i = 0; i < d; i++)
        for (int j = 0; j < d; j++) {
            double v = 0.0;
            for (int c = 0; c < d; c++)
                v += (at ? a[(size_t)c * d + i] : a[(size_t)i * d + c]) * b[(size_t)c * d + j];
            s += v * v;
        }
    return sqrt(s);
}

int train_composition(const struct train_model *m, int l0, int h0, int l1, int h1, float score[3],
                      struct mha_error *err)
{
    const int L = train_layers(&m->cfg), H = m->cfg.heads, d = m->cfg.d_model;
    if (l0 < 0 || l1 >= L || l0 >= l1)
        return mha_error_set(err,
                             "layers %d and %d: the model has layers 0 to %d, and the "
                             "reading layer must come after the writing one",
                             l0, l1, L - 1);
    if (h0 < 0 || h0 >= H || h1 < 0 || h1 >= H)
        return mha_error_set(err, "heads %d and %d: the model has heads 0 to %d", h0, h1, H - 1);
    const size_t n = (size_t)d * (size_t)d;
    double *buf = malloc(3 * n * sizeof *buf);
    if (!buf)
        return mha_error_set(err, "out of memory");
    double *ov0 = buf, *ov1 = buf + n, *qk1 = buf + 2 * n;
    head_matrices(m, &m->p.attn[l0], h0, ov0, NULL);
    head_matrices(m, &m->p.attn[l1], h1, ov1, qk1);
    const double n_ov0 = frobenius(ov0, d), n_ov1 = frobenius(ov1, d), n_qk1 = frobenius(qk1, d);
    /* Q: the query reads W_OV0's output: x_q = W_OV0 y, so W_OV0ᵀ · W_QK1;
     * K: the key does, W_QK1 · W_OV0; V: the value, W_OV1 · W_OV0 */
    const double q = product_norm(ov0, true, qk1, d), k = product_norm(qk1, false, ov0, d);
    const double v = product_norm(ov1, false, ov0, d);
    score[0] = n_ov0 > 0.0 && n_qk1 > 0.0 ? (float)(q / (n_ov0 * n_qk1)) : 0.0f;
    score[1] = n_ov0 > 0.0 && n_qk1 > 0.0 ? (float)(k / (n_ov0 * n_qk1)) : 0.0f;
    score[2] = n_ov0 > 0.0 && n_ov1 > 0.0 ? (float)(v / (n_ov0 * n_ov1)) : 0.0f;
    free(buf);
    return 0;
}

int train_layers_measure(struct train_model *m, const struct train_batch *b, int n_seq,
                         struct train_layer_measures *out, struct mha_error *err)
{
    out->layers = train_layers(&m->cfg);
    out->heads = m->cfg.heads;
    out->n_outputs = m->cfg.n_outputs;
    out->n_seq = n_seq < b->size ? n_seq : b->size;
    out->size = b->size;
    out->step = m->step;
    for (int l = 0; l < out->layers; l++)
        if (train_layer_heads(m, l, b, n_seq, out->stats[l], out->knocked[l], err))
            return -1;
    const bool none[TRAIN_MAX_D_MODEL] = {false};
    return train_heads_ablate(m, b, none, out->all, err);
}

int train_layer_heads(struct train_model *m, int layer, const struct train_batch *b, int n_seq,
                      struct train_head_stats *stats, float (*knocked)[TRAIN_MAX_OUTPUTS],
                      struct mha_error *err)
{
    const int shown = m->shown_layer, H = m->cfg.heads;
    if (train_model_show_layer(m, layer, err))
        return -1;
    int rc = train_heads_measure(m, b, n_seq, stats, err);
    for (int h = 0; h < H && rc == 0 && knocked; h++) {
        bool knock[TRAIN_MAX_D_MODEL] = {false};
        knock[h] = true;
        rc = train_heads_ablate(m, b, knock, knocked[h], err);
    }
    m->shown_layer = shown;
    return rc;
}
