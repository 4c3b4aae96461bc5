/* views.c - shapes, cost and per-head analysis. */
#include "engine/views.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- shapes ---------------------------------------------------------------- */

static void shape_row(struct views_shape_row *r, const char *step, const char *code,
                      const char *note, int n, long long a, long long b, long long c, long long d)
{
    r->step = step;
    r->code = code;
    r->note = note;
    r->n_dims = n;
    r->dims[0] = a, r->dims[1] = b, r->dims[2] = c, r->dims[3] = d;
}

int views_shapes(long long batch, long long seq, long long d_model, long long heads,
                 struct views_shape_row *rows)
{
    /* batch B, sequence L, width d, heads H, d_k = d / H */
    const long long B = batch, L = seq, d = d_model, H = heads, dk = d_model / heads;
    int n = 0;
    shape_row(&rows[n++], "input x", "x", "", 3, B, L, d, 0);
    shape_row(&rows[n++], "projection", "q = w_q(x)", "a new tensor (a matrix multiply)", 3, B, L,
              d, 0);
    shape_row(&rows[n++], "split heads", "q.view(B, L, H, d_k)",
              "no copy: the same memory read with new strides", 4, B, L, H, dk);
    shape_row(&rows[n++], "transpose", "q.transpose(1, 2)",
              "no copy: strides swapped, now not contiguous", 4, B, H, L, dk);
    shape_row(&rows[n++], "scores", "q @ k.transpose(-2, -1) / sqrt(d_k)", "one L x L map per head",
              4, B, H, L, L);
    shape_row(&rows[n++], "weights", "scores.softmax(dim=-1)", "each row sums to 1", 4, B, H, L, L);
    shape_row(&rows[n++], "context", "weights @ v", "back to d_k columns per head", 4, B, H, L, dk);
    shape_row(&rows[n++], "heads back", "context.transpose(1, 2)", "no copy: not contiguous again",
              4, B, L, H, dk);
    shape_row(&rows[n++], "merge", ".contiguous().view(B, L, d)",
              "contiguous() copies into row order so view can join H and d_k", 3, B, L, d, 0);
    shape_row(&rows[n++], "output", "w_o(merged)", "a new tensor (a matrix multiply)", 3, B, L, d,
              0);
    return n;
}

char *views_shape_string(const struct views_shape_row *row, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "(");
    for (int i = 0; i < row->n_dims && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? ", " : "", row->dims[i]);
    if (used < n)
        snprintf(buf + used, n - used, ")");
    return buf;
}

/* ---- cost ------------------------------------------------------------------ */

int views_cost_rows(const struct views_cost *one, const struct views_cost *many,
                    struct views_cost_row *rows)
{
    const struct views_cost_row all[VIEWS_COST_ROWS] = {
        {"parameters W_q W_k W_v W_o", one->params_weights, many->params_weights},
        {"parameters, biases", one->params_bias, many->params_bias},
        {"multiply-adds: projections", one->macs_projection, many->macs_projection},
        {"multiply-adds: Q·Kᵀ", one->macs_scores, many->macs_scores},
        {"exponentials: softmax", one->exps_softmax, many->exps_softmax},
        {"multiply-adds: weights·V", one->macs_context, many->macs_context},
        {"multiply-adds: output W_o", one->macs_output, many->macs_output},
        {"multiply-adds: total", one->macs_total, many->macs_total},
        {"attention weights kept", one->attn_floats, many->attn_floats},
    };
    int n = 0;
    for (int i = 0; i < VIEWS_COST_ROWS; i++)
        if (i != 1 || many->bias)
            rows[n++] = all[i];
    return n;
}

char *views_group_digits(long long v, char *buf, size_t n)
{
    char digits[32];
    snprintf(digits, sizeof digits, "%lld", v < 0 ? -v : v);
    size_t len = strlen(digits), o = 0;
    if (v < 0 && o + 1 < n)
        buf[o++] = '-';
    for (size_t i = 0; i < len && o + 2 < n; i++) {
        if (i > 0 && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = digits[i];
    }
    buf[o] = '\0';
    return buf;
}

void views_cost(long long seq_q, long long seq_k, long long d_model, long long heads, bool bias,
                struct views_cost *c)
{
    memset(c, 0, sizeof *c);
    const long long d = d_model, dk = d_model / heads;
    c->d_model = d;
    c->heads = heads;
    c->d_k = dk;
    c->seq_q = seq_q;
    c->seq_k = seq_k;
    c->bias = bias;
    c->params_weights = 4 * d * d;
    c->params_bias = bias ? 4 * d : 0;
    c->macs_projection = (seq_q + 2 * seq_k) * d * d;
    c->macs_scores = heads * seq_q * seq_k * dk;
    c->exps_softmax = heads * seq_q * seq_k;
    c->macs_context = heads * seq_q * seq_k * dk;
    c->macs_output = seq_q * d * d;
    c->macs_total = c->macs_projection + c->macs_scores + c->macs_context + c->macs_output;
    c->attn_floats = heads * seq_q * seq_k;
}

static const struct views_preset presets[] = {
    {"transformer-base", "Transformer base", 512, 8, 64, "the original paper's configuration"},
    {"transformer-large", "Transformer large", 1024, 16, 64, "same d_k, twice the heads"},
    {"bert-base", "BERT base", 768, 12, 64, "encoder for language understanding"},
    {"bert-large", "BERT large", 1024, 16, 64, "BERT scaled up"},
    {"gpt2-small", "GPT-2 small", 768, 12, 64, "autoregressive (causal) language model"},
    {"gpt2-xl", "GPT-2 XL", 1600, 25, 64, "25 heads of 64"},
    {"gpt3-175b", "GPT-3 175B", 12288, 96, 128, "the largest GPT-3"},
};

const struct views_preset *views_presets(int *n)
{
    *n = (int)(sizeof presets / sizeof presets[0]);
    return presets;
}

const struct views_preset *views_preset_find(const char *id)
{
    for (size_t i = 0; id && i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(presets[i].id, id) == 0)
            return &presets[i];
    return NULL;
}

/* ---- heads ----------------------------------------------------------------- */

static double dot(const float *a, const float *b, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += (double)a[i] * (double)b[i];
    return s;
}

/* Thin QR of the d_k rows of w (each a d-vector), keeping R (d_k x d_k,
 * upper triangular) in r; q is scratch of d_k * d doubles. */
static void rows_qr(const float *w, int dk, int d, double *q, double *r)
{
    memset(r, 0, (size_t)dk * (size_t)dk * sizeof *r);
    for (int j = 0; j < dk; j++) {
        double *v = q + (size_t)j * (size_t)d;
        for (int x = 0; x < d; x++)
            v[x] = w[(size_t)j * (size_t)d + (size_t)x];
        /* pass 1: remove the parts along the earlier directions (twice, for accuracy) */
        for (int rep = 0; rep < 2; rep++)
            for (int p = 0; p < j; p++) {
                const double *qp = q + (size_t)p * (size_t)d;
                double c = 0.0;
                for (int x = 0; x < d; x++)
                    c += qp[x] * v[x];
                r[(size_t)p * (size_t)dk + (size_t)j] += c;
                for (int x = 0; x < d; x++)
                    v[x] -= c * qp[x];
            }
        /* pass 2: normalise what is left (a zero vector stays zero) */
        double norm = 0.0;
        for (int x = 0; x < d; x++)
            norm += v[x] * v[x];
        norm = sqrt(norm);
        r[(size_t)j * (size_t)dk + (size_t)j] = norm;
        for (int x = 0; x < d; x++)
            v[x] = norm > 0.0 ? v[x] / norm : 0.0;
    }
}

static int cmp_desc(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x < y) - (x > y);
}

/* Singular values of the n x n matrix b (row-major, destroyed) by one-sided
 * Jacobi rotations of its columns; out gets them largest first. */
static void jacobi_sv(double *b, int n, double *out)
{
    for (int sweep = 0; sweep < 60; sweep++) {
        bool rotated = false;
        for (int p = 0; p < n - 1; p++)
            for (int q = p + 1; q < n; q++) {
                double alpha = 0.0, beta = 0.0, gamma = 0.0;
                for (int i = 0; i < n; i++) {
                    double bp = b[(size_t)i * n + p], bq = b[(size_t)i * n + q];
                    alpha += bp * bp;
                    beta += bq * bq;
                    gamma += bp * bq;
                }
                if (gamma == 0.0 || fabs(gamma) <= 1e-15 * sqrt(alpha * beta))
                    continue;
                rotated = true;
                double zeta = (beta - alpha) / (2.0 * gamma);
                double t = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
                double c = 1.0 / sqrt(1.0 + t * t), s = c * t;
                for (int i = 0; i < n; i++) {
                    double bp = b[(size_t)i * n + p], bq = b[(size_t)i * n + q];
                    b[(size_t)i * n + p] = c * bp - s * bq;
                    b[(size_t)i * n + q] = s * bp + c * bq;
                }
            }
        if (!rotated)
            break;
    }
    for (int j = 0; j < n; j++) {
        double s = 0.0;
        for (int i = 0; i < n; i++)
            s += b[(size_t)i * n + j] * b[(size_t)i * n + j];
        out[j] = sqrt(s);
    }
    qsort(out, (size_t)n, sizeof *out, cmp_desc);
}

/* <A_i, A_j> = trace(W_k,iᵀ W_q,i W_q,jᵀ W_k,j) = Σ_ab (q_ia·q_jb)(k_jb·k_ia) */
static double frobenius(const struct mha_example *ex, int dk, int i, int j)
{
    const int d = ex->d_model;
    const float *qi = ex->w_q + (size_t)i * dk * d, *qj = ex->w_q + (size_t)j * dk * d;
    const float *ki = ex->w_k + (size_t)i * dk * d, *kj = ex->w_k + (size_t)j * dk * d;
    double s = 0.0;
    for (int a = 0; a < dk; a++)
        for (int b = 0; b < dk; b++)
            s += dot(qi + (size_t)a * d, qj + (size_t)b * d, d) *
                 dot(kj + (size_t)b * d, ki + (size_t)a * d, d);
    return s;
}

int views_heads(const struct mha_example *ex, double *similarity, double *rank, double *sv,
                struct mha_error *err)
{
    const int H = ex->heads, d = ex->d_model, dk = d / H;
    if (d > VIEWS_HEADS_MAX_D)
        return mha_error_set(err,
                             "the heads view analyses d_model up to %d while you wait; "
                             "this example has d_model %d",
                             VIEWS_HEADS_MAX_D, d);
    size_t n_scratch = 2 * (size_t)dk * (size_t)d + 3 * (size_t)dk * (size_t)dk;
    double *scratch = malloc(n_scratch * sizeof *scratch);
    if (!scratch)
        return mha_error_set(err, "out of memory analysing the heads");
    double *qq = scratch, *qk = qq + (size_t)dk * d, *rq = qk + (size_t)dk * d;
    double *rk = rq + (size_t)dk * dk, *b = rk + (size_t)dk * dk;
    double *norm = rank; /* |A_i|, overwritten by the rank below */

    for (int h = 0; h < H; h++) {
        /* A_h = W_q,hᵀ W_k,h = Q_q R_q R_kᵀ Q_kᵀ, so its singular values are R_q R_kᵀ's */
        rows_qr(ex->w_q + (size_t)h * dk * d, dk, d, qq, rq);
        rows_qr(ex->w_k + (size_t)h * dk * d, dk, d, qk, rk);
        for (int x = 0; x < dk; x++)
            for (int y = 0; y < dk; y++) {
                double s = 0.0;
                for (int z = 0; z < dk; z++)
                    s += rq[(size_t)x * dk + z] * rk[(size_t)y * dk + z];
                b[(size_t)x * dk + y] = s;
            }
        jacobi_sv(b, dk, sv + (size_t)h * dk);
        norm[h] = sqrt(frobenius(ex, dk, h, h));
    }
    for (int i = 0; i < H; i++)
        for (int j = i; j < H; j++) {
            double denom = norm[i] * norm[j];
            double c = i == j ? (denom > 0 ? 1.0 : 0.0)
                              : (denom > 0 ? frobenius(ex, dk, i, j) / denom : 0.0);
            similarity[(size_t)i * H + j] = similarity[(size_t)j * H + i] = c;
        }
    for (int h = 0; h < H; h++) {
        const double *s = sv + (size_t)h * dk;
        double total = 0.0, entropy = 0.0;
        for (int x = 0; x < dk; x++)
            total += s[x];
        for (int x = 0; x < dk && total > 0; x++) {
            double p = s[x] / total;
            if (p > 1e-10)
                entropy -= p * log(p);
        }
        rank[h] = total > 0 ? exp(entropy) : 0.0;
    }
    free(scratch);
    return 0;
}

struct views_heads_result *views_heads_new(const struct mha_example *ex, struct mha_error *err)
{
    const size_t H = (size_t)ex->heads, dk = (size_t)(ex->d_model / ex->heads);
    if (ex->d_model > VIEWS_HEADS_MAX_D) {
        views_heads(ex, NULL, NULL, NULL, err); /* fills the reason, touches nothing */
        return NULL;
    }
    struct views_heads_result *r = malloc(sizeof *r + (H * H + H + H * dk) * sizeof(double));
    if (!r) {
        mha_error_set(err, "out of memory analysing the heads");
        return NULL;
    }
    r->heads = (int)H;
    r->d_k = (int)dk;
    r->similarity = (double *)(void *)(r + 1);
    r->rank = r->similarity + H * H;
    r->sv = r->rank + H;
    if (views_heads(ex, r->similarity, r->rank, r->sv, err) != 0) {
        free(r);
        return NULL;
    }
    return r;
}

void views_heads_free(struct views_heads_result *r)
{
    free(r);
}
