/* train_variant.c - the attention block's variants: their names, sizes and
 * parameter counts, the full matrices made from the free parameters, the
 * gradients gathered into them, and a model's matrices checked against its
 * variant (train_variant.h). */
#include "train/train_variant.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"

/* The variants by name; those with a number take ":N" after it. */
static const struct {
    const char *name;
    enum train_variant_kind kind;
    bool number;
} variants[] = {
    {"standard", TRAIN_VARIANT_STANDARD, false},
    {"shared-qk", TRAIN_VARIANT_SHARED_QK, false},
    {"low-rank-qk", TRAIN_VARIANT_LOW_RANK_QK, true},
    {"no-wo", TRAIN_VARIANT_NO_WO, false},
    {"low-rank-wo", TRAIN_VARIANT_LOW_RANK_WO, true},
    {"mqa", TRAIN_VARIANT_MQA, false},
    {"gqa", TRAIN_VARIANT_GQA, true},
};
#define N_VARIANTS (sizeof variants / sizeof variants[0])

const char *train_variant_names(void)
{
    return "standard, shared-qk, low-rank-qk:R, no-wo, low-rank-wo:R, mqa, gqa:G";
}

int train_variant_parse(const char *text, struct train_variant *v, struct mha_error *err)
{
    const char *colon = strchr(text, ':');
    const size_t len = colon ? (size_t)(colon - text) : strlen(text);
    for (size_t i = 0; i < N_VARIANTS; i++) {
        if (strlen(variants[i].name) != len || strncmp(text, variants[i].name, len))
            continue;
        v->kind = variants[i].kind;
        v->n = 0;
        if (!variants[i].number) {
            if (colon)
                return mha_error_set(err, "variant '%s': %s takes no number", text,
                                     variants[i].name);
            return 0;
        }
        char *end = NULL;
        const long n = colon ? strtol(colon + 1, &end, 10) : 0;
        if (!colon || end == colon + 1 || *end || n < 1 || n > 65536)
            return mha_error_set(
                err, "variant '%s': %s takes %s after a colon, as in %s:2", text, variants[i].name,
                v->kind == TRAIN_VARIANT_GQA ? "a group count G" : "a rank R", variants[i].name);
        v->n = (int)n;
        return 0;
    }
    return mha_error_set(err, "variant '%s': not one of %s", text, train_variant_names());
}

const char *train_variant_name(const struct train_variant *v, char *buf, size_t n)
{
    for (size_t i = 0; i < N_VARIANTS; i++)
        if (variants[i].kind == v->kind) {
            if (variants[i].number)
                snprintf(buf, n, "%s:%d", variants[i].name, v->n);
            else
                snprintf(buf, n, "%s", variants[i].name);
            return buf;
        }
    snprintf(buf, n, "?");
    return buf;
}

int train_variant_check(const struct train_variant *v, int d_model, int heads,
                        struct mha_error *err)
{
    char name[TRAIN_VARIANT_NAME_MAX];
    switch (v->kind) {
    case TRAIN_VARIANT_STANDARD:
    case TRAIN_VARIANT_SHARED_QK:
    case TRAIN_VARIANT_NO_WO:
    case TRAIN_VARIANT_MQA:
        return v->n ? mha_error_set(err, "variant %s takes no number",
                                    train_variant_name(v, name, sizeof name))
                    : 0;
    case TRAIN_VARIANT_LOW_RANK_QK:
    case TRAIN_VARIANT_LOW_RANK_WO:
        if (v->n < 1 || v->n >= d_model)
            return mha_error_set(err,
                                 "variant %s: the rank R must be from 1 to d_model − 1 = %d "
                                 "(a rank of d_model or more saves nothing)",
                                 train_variant_name(v, name, sizeof name), d_model - 1);
        return 0;
    case TRAIN_VARIANT_GQA:
        if (v->n < 1 || v->n > heads || heads % v->n)
            return mha_error_set(err,
                                 "variant %s: the groups G must divide the %d heads (every "
                                 "group has as many heads)",
                                 train_variant_name(v, name, sizeof name), heads);
        return 0;
    }
    return mha_error_set(err, "variant %d: unknown", (int)v->kind);
}

int train_variant_factored(const struct train_variant *v)
{
    return v->kind == TRAIN_VARIANT_LOW_RANK_QK ? 2 : v->kind == TRAIN_VARIANT_LOW_RANK_WO ? 1 : 0;
}

size_t train_variant_factor_floats(const struct train_variant *v, int d_model)
{
    return (size_t)train_variant_factored(v) * 2u * (size_t)d_model * (size_t)v->n;
}

/* The groups of heads sharing keys and values: H (standard), 1 (mqa), G. */
static int kv_groups(const struct train_variant *v, int heads)
{
    return v->kind == TRAIN_VARIANT_MQA ? 1 : v->kind == TRAIN_VARIANT_GQA ? v->n : heads;
}

size_t train_variant_cache_floats(const struct train_variant *v, int d_model, int heads)
{
    return 2u * (size_t)kv_groups(v, heads) * (size_t)(d_model / heads);
}

size_t train_variant_parameters(const struct train_config *cfg)
{
    const size_t all = train_param_count(cfg);
    if (!all)
        return 0;
    const size_t d = (size_t)cfg->d_model, L = (size_t)train_layers(cfg);
    const size_t dk = d / (size_t)cfg->heads;
    const size_t b = cfg->has_bias ? 1 : 0; /* a bias of d, where there are biases */
    size_t tied = 0;                        /* a layer's floats that are not its own */
    switch (cfg->variant.kind) {
    case TRAIN_VARIANT_STANDARD:
        break;
    case TRAIN_VARIANT_SHARED_QK:
        tied = d * d + b * d;
        break;
    case TRAIN_VARIANT_LOW_RANK_QK:
        tied = 2 * d * d;
        break;
    case TRAIN_VARIANT_NO_WO:
        tied = d * d + b * d;
        break;
    case TRAIN_VARIANT_LOW_RANK_WO:
        tied = d * d;
        break;
    case TRAIN_VARIANT_MQA:
    case TRAIN_VARIANT_GQA: {
        const size_t copies = (size_t)cfg->heads - (size_t)kv_groups(&cfg->variant, cfg->heads);
        tied = 2 * copies * dk * (d + b);
        break;
    }
    }
    size_t absent = cfg->has_bias ? 0 : L * 4 * d;
    for (int k = 0; k < cfg->n_outputs; k++)
        absent += cfg->outputs[k].has_bias ? 0 : (size_t)cfg->outputs[k].classes;
    return all - L * tied - absent;
}

void train_variant_cost(const struct train_variant *v, long long seq_q, long long seq_k,
                        long long d, long long h, bool bias, struct train_variant_cost *c)
{
    const long long dk = d / h, r = v->n, kv = (long long)kv_groups(v, (int)h) * dk;
    const long long b = bias ? 1 : 0;
    /* each projection's parameters and multiply-adds per row, q k v o */
    long long p[4] = {d * d, d * d, d * d, d * d}, pb[4] = {d, d, d, d};
    long long m[4] = {d * d, d * d, d * d, d * d};
    switch (v->kind) {
    case TRAIN_VARIANT_STANDARD:
        break;
    case TRAIN_VARIANT_SHARED_QK:
        p[1] = pb[1] = 0; /* W_k is W_q: the keys' product is still taken (of the
                           * keys' input, the same rows only in self-attention) */
        break;
    case TRAIN_VARIANT_LOW_RANK_QK:
        p[0] = p[1] = m[0] = m[1] = 2 * d * r;
        break;
    case TRAIN_VARIANT_NO_WO:
        p[3] = pb[3] = m[3] = 0;
        break;
    case TRAIN_VARIANT_LOW_RANK_WO:
        p[3] = m[3] = 2 * d * r;
        break;
    case TRAIN_VARIANT_MQA:
    case TRAIN_VARIANT_GQA:
        p[1] = p[2] = m[1] = m[2] = d * kv;
        pb[1] = pb[2] = kv;
        break;
    }
    memset(c, 0, sizeof *c);
    for (int i = 0; i < 4; i++)
        c->params += p[i] + b * pb[i];
    c->macs_projection = seq_q * m[0] + seq_k * (m[1] + m[2]);
    c->macs_attention = 2 * h * seq_q * seq_k * dk;
    c->macs_output = seq_q * m[3];
    c->macs_total = c->macs_projection + c->macs_attention + c->macs_output;
    c->cache = 2 * kv;
}

/* w (d, d) = a (d, r) · b (r, d), each sum over r in order. */
static void product(float *w, const float *a, const float *b, int d, int r)
{
    for (int o = 0; o < d; o++)
        for (int i = 0; i < d; i++) {
            float s = 0.0f;
            for (int j = 0; j < r; j++)
                s += a[(size_t)o * (size_t)r + (size_t)j] * b[(size_t)j * (size_t)d + (size_t)i];
            w[(size_t)o * (size_t)d + (size_t)i] = s;
        }
}

/* The factored matrices of layer l of t (w_q, w_k or w_o). */
static void factored(const struct train_variant *v, const struct mha_params *a, float *w[2])
{
    w[0] = v->kind == TRAIN_VARIANT_LOW_RANK_QK ? a->w_q : a->w_o;
    w[1] = a->w_k;
}

/* The heads of each group sharing the first one's rows of w_k, w_v, b_k,
 * b_v: the rows of head h from the group's first (from = true), or the
 * group's gradients summed into the first's (from = false). */
static void share_heads(const struct train_config *c, struct mha_params *a, bool sum)
{
    const int d = c->d_model, H = c->heads, dk = d / H;
    const int per = H / kv_groups(&c->variant, H);
    float *w[2] = {a->w_k, a->w_v}, *b[2] = {a->b_k, a->b_v};
    for (int g = 0; g < H / per; g++)
        for (int x = 0; x < 2; x++) {
            const size_t first = (size_t)g * (size_t)per * (size_t)dk;
            for (int h = 1; h < per; h++) {
                const size_t at = first + (size_t)h * (size_t)dk;
                for (size_t i = 0; i < (size_t)dk * (size_t)d; i++) {
                    float *dst = w[x] + first * (size_t)d + i, *src = w[x] + at * (size_t)d + i;
                    if (sum)
                        *dst += *src, *src = 0.0f;
                    else
                        *src = *dst;
                }
                for (size_t i = 0; i < (size_t)dk; i++) {
                    float *dst = b[x] + first + i, *src = b[x] + at + i;
                    if (sum)
                        *dst += *src, *src = 0.0f;
                    else
                        *src = *dst;
                }
            }
        }
}

void train_variant_tie(struct train_model *m)
{
    const struct train_config *c = &m->cfg;
    const size_t d = (size_t)c->d_model;
    for (int l = 0; l < train_layers(c); l++) {
        struct mha_params *a = &m->p.attn[l];
        switch (c->variant.kind) {
        case TRAIN_VARIANT_STANDARD:
            break;
        case TRAIN_VARIANT_SHARED_QK:
            memcpy(a->w_k, a->w_q, d * d * sizeof(float));
            memcpy(a->b_k, a->b_q, d * sizeof(float));
            break;
        case TRAIN_VARIANT_NO_WO:
            memset(a->w_o, 0, d * d * sizeof(float));
            for (size_t i = 0; i < d; i++)
                a->w_o[i * d + i] = 1.0f;
            memset(a->b_o, 0, d * sizeof(float));
            break;
        case TRAIN_VARIANT_LOW_RANK_QK:
        case TRAIN_VARIANT_LOW_RANK_WO: {
            float *w[2];
            factored(&c->variant, a, w);
            for (int i = 0; i < train_variant_factored(&c->variant); i++)
                product(w[i], m->p.factor_a[l][i], m->p.factor_b[l][i], c->d_model, c->variant.n);
            break;
        }
        case TRAIN_VARIANT_MQA:
        case TRAIN_VARIANT_GQA:
            share_heads(c, a, false);
            break;
        }
    }
}

void train_variant_grads(struct train_model *m)
{
    const struct train_config *c = &m->cfg;
    const size_t d = (size_t)c->d_model, r = (size_t)c->variant.n;
    for (int l = 0; l < train_layers(c); l++) {
        struct mha_params *g = &m->g.attn[l];
        switch (c->variant.kind) {
        case TRAIN_VARIANT_STANDARD:
            break;
        case TRAIN_VARIANT_SHARED_QK:
            for (size_t i = 0; i < d * d; i++)
                g->w_q[i] += g->w_k[i];
            for (size_t i = 0; i < d; i++)
                g->b_q[i] += g->b_k[i];
            memset(g->w_k, 0, d * d * sizeof(float));
            memset(g->b_k, 0, d * sizeof(float));
            break;
        case TRAIN_VARIANT_NO_WO:
            memset(g->w_o, 0, d * d * sizeof(float));
            memset(g->b_o, 0, d * sizeof(float));
            break;
        case TRAIN_VARIANT_LOW_RANK_QK:
        case TRAIN_VARIANT_LOW_RANK_WO: {
            /* W = A·B: dA = dW·Bᵀ (d, R), dB = Aᵀ·dW (R, d) */
            float *gw[2];
            factored(&c->variant, g, gw);
            for (int f = 0; f < train_variant_factored(&c->variant); f++) {
                const float *A = m->p.factor_a[l][f], *B = m->p.factor_b[l][f];
                float *gA = m->g.factor_a[l][f], *gB = m->g.factor_b[l][f];
                for (size_t o = 0; o < d; o++)
                    for (size_t j = 0; j < r; j++) {
                        float s = 0.0f;
                        for (size_t i = 0; i < d; i++)
                            s += gw[f][o * d + i] * B[j * d + i];
                        gA[o * r + j] = s;
                    }
                for (size_t j = 0; j < r; j++)
                    for (size_t i = 0; i < d; i++) {
                        float s = 0.0f;
                        for (size_t o = 0; o < d; o++)
                            s += A[o * r + j] * gw[f][o * d + i];
                        gB[j * d + i] = s;
                    }
                memset(gw[f], 0, d * d * sizeof(float));
            }
            break;
        }
        case TRAIN_VARIANT_MQA:
        case TRAIN_VARIANT_GQA:
            share_heads(c, g, true);
            break;
        }
    }
}

/* "layers[1]." for a model of layers, "" for one layer. */
static void layer_prefix(const struct train_config *c, int l, char *buf, size_t n)
{
    if (train_layers(c) > 1)
        snprintf(buf, n, "layers[%d].", l);
    else
        buf[0] = '\0';
}

/* The first place where got (rows, cols) differs from want by more than
 * tol (relative, plus tol absolute), as "row R column C" into where; -1 when
 * they agree, else the index. */
static long differs(const float *got, const float *want, size_t n, double tol)
{
    for (size_t i = 0; i < n; i++) {
        const double g = got[i], w = want[i];
        if (!(fabs(g - w) <= tol * (1.0 + fabs(w))))
            return (long)i;
    }
    return -1;
}

int train_variant_verify(const struct train_model *m, int l, struct mha_error *err)
{
    const struct train_config *c = &m->cfg;
    const int d = c->d_model, H = c->heads, dk = d / H;
    const struct mha_params *a = &m->p.attn[l];
    char pre[32], name[TRAIN_VARIANT_NAME_MAX];
    layer_prefix(c, l, pre, sizeof pre);
    train_variant_name(&c->variant, name, sizeof name);
    const size_t dd = (size_t)d * (size_t)d;
    long at;
    switch (c->variant.kind) {
    case TRAIN_VARIANT_STANDARD:
        return 0;
    case TRAIN_VARIANT_SHARED_QK:
        if ((at = differs(a->w_k, a->w_q, dd, 0.0)) >= 0)
            return mha_error_set(err,
                                 "%sw_k row %ld column %ld is %.9g where w_q has %.9g: under %s "
                                 "w_k = w_q",
                                 pre, at / d, at % d, (double)a->w_k[at], (double)a->w_q[at], name);
        if (c->has_bias && (at = differs(a->b_k, a->b_q, (size_t)d, 0.0)) >= 0)
            return mha_error_set(err, "%sb_k[%ld] is %.9g where b_q has %.9g: under %s b_k = b_q",
                                 pre, at, (double)a->b_k[at], (double)a->b_q[at], name);
        return 0;
    case TRAIN_VARIANT_NO_WO:
        for (size_t i = 0; i < dd; i++)
            if (a->w_o[i] != (i / (size_t)d == i % (size_t)d ? 1.0f : 0.0f))
                return mha_error_set(err,
                                     "%sw_o row %zu column %zu is %.9g: under %s w_o is the "
                                     "identity",
                                     pre, i / (size_t)d, i % (size_t)d, (double)a->w_o[i], name);
        for (int i = 0; c->has_bias && i < d; i++)
            if (a->b_o[i] != 0.0f)
                return mha_error_set(err, "%sb_o[%d] is %.9g: under %s b_o is zero", pre, i,
                                     (double)a->b_o[i], name);
        return 0;
    case TRAIN_VARIANT_LOW_RANK_QK:
    case TRAIN_VARIANT_LOW_RANK_WO: {
        float *w[2];
        struct mha_params cp = *a;
        factored(&c->variant, &cp, w);
        static const char *const qk[2] = {"w_q", "w_k"};
        float *prod = malloc(dd * sizeof(float));
        if (!prod)
            return mha_error_set(err, "out of memory");
        for (int f = 0; f < train_variant_factored(&c->variant); f++) {
            const char *wn = c->variant.kind == TRAIN_VARIANT_LOW_RANK_QK ? qk[f] : "w_o";
            product(prod, m->p.factor_a[l][f], m->p.factor_b[l][f], d, c->variant.n);
            if ((at = differs(w[f], prod, dd, 1e-5)) >= 0) {
                const double got = w[f][at], want = prod[at];
                free(prod);
                return mha_error_set(err,
                                     "%s%s row %ld column %ld is %.9g where its factors' "
                                     "product is %.9g: under %s %s = A·B",
                                     pre, wn, at / d, at % d, got, want, name, wn);
            }
        }
        free(prod);
        return 0;
    }
    case TRAIN_VARIANT_MQA:
    case TRAIN_VARIANT_GQA: {
        const int per = H / kv_groups(&c->variant, H);
        const float *w[2] = {a->w_k, a->w_v}, *b[2] = {a->b_k, a->b_v};
        static const char *const wn[2] = {"w_k", "w_v"}, *const bn[2] = {"b_k", "b_v"};
        for (int h = 0; h < H; h++) {
            const int first = h / per * per;
            if (h == first)
                continue;
            for (int x = 0; x < 2; x++) {
                const size_t rh = (size_t)h * (size_t)dk, rf = (size_t)first * (size_t)dk;
                if ((at = differs(w[x] + rh * (size_t)d, w[x] + rf * (size_t)d,
                                  (size_t)dk * (size_t)d, 0.0)) >= 0)
                    return mha_error_set(err,
                                         "%s%s row %ld (head %d) differs from row %ld (head %d): "
                                         "under %s head %d shares head %d's %s",
                                         pre, wn[x], (long)rh + at / d, h, (long)rf + at / d, first,
                                         name, h, first, x ? "values" : "keys");
                if (c->has_bias && (at = differs(b[x] + rh, b[x] + rf, (size_t)dk, 0.0)) >= 0)
                    return mha_error_set(err,
                                         "%s%s[%ld] (head %d) differs from %s[%ld] (head %d): "
                                         "under %s head %d shares head %d's %s",
                                         pre, bn[x], (long)rh + at, h, bn[x], (long)rf + at, first,
                                         name, h, first, x ? "values" : "keys");
            }
        }
        return 0;
    }
    }
    return 0;
}
