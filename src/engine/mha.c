/* mha.c - the forward pass, every stage kept in one arena. */
#include "engine/mha.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha_rows.h"

/* Number of floats of each stage, in arena order. */
struct trace_layout {
    size_t q, k, v, qh, kh, vh, att, context, merged, output;
};

static struct trace_layout layout_of(int lq, int lk, int d_model, int heads)
{
    const size_t d = (size_t)d_model, h = (size_t)heads, d_k = d / h;
    struct trace_layout l = {
        .q = (size_t)lq * d,
        .k = (size_t)lk * d,
        .v = (size_t)lk * d,
        .qh = (size_t)lq * d,
        .kh = (size_t)lk * d,
        .vh = (size_t)lk * d,
        .att = h * (size_t)lq * (size_t)lk,
        .context = h * (size_t)lq * d_k,
        .merged = (size_t)lq * d,
        .output = (size_t)lq * d,
    };
    return l;
}

size_t mha_trace_bytes(int lq, int lk, int d_model, int heads)
{
    if (lq < 1 || lk < 1 || d_model < 1 || heads < 1 || lq > MHA_MAX_TOKENS ||
        lk > MHA_MAX_TOKENS || d_model > MHA_MAX_D_MODEL || heads > d_model)
        return 0;
    struct trace_layout l = layout_of(lq, lk, d_model, heads);
    size_t floats =
        l.q + l.k + l.v + l.qh + l.kh + l.vh + 3 * l.att + l.context + l.merged + l.output;
    return sizeof(struct mha_trace) + 64 + floats * sizeof(float) + (size_t)lq;
}

size_t mha_trace_floats(int lq, int lk, int d_model, int heads)
{
    struct trace_layout l = layout_of(lq, lk, d_model, heads);
    return l.q + l.k + l.v + l.qh + l.kh + l.vh + 3 * l.att + l.context + l.merged + l.output;
}

void mha_trace_point(struct mha_trace *t, float *f, unsigned char *flags, int lq, int lk,
                     int d_model, int heads)
{
    t->lq = lq;
    t->lk = lk;
    t->d_model = d_model;
    t->heads = heads;
    t->d_k = d_model / heads;
    struct trace_layout l = layout_of(lq, lk, d_model, heads);
    t->q = f, f += l.q;
    t->k = f, f += l.k;
    t->v = f, f += l.v;
    t->qh = f, f += l.qh;
    t->kh = f, f += l.kh;
    t->vh = f, f += l.vh;
    t->scores = f, f += l.att;
    t->scaled_scores = f, f += l.att;
    t->weights = f, f += l.att;
    t->context = f, f += l.context;
    t->merged = f, f += l.merged;
    t->output = f;
    t->row_empty = flags;
}

struct mha_trace *mha_trace_new(const struct mha_example *ex, struct mha_error *err)
{
    if (mha_check_sizes(ex->lq, ex->lk, ex->d_model, ex->heads, err))
        return NULL;
    const size_t bytes = mha_trace_bytes(ex->lq, ex->lk, ex->d_model, ex->heads);
    if (bytes == 0 || bytes > MHA_MAX_TRACE_BYTES) {
        mha_error_set(err,
                      "this example needs %.1f GiB to keep every stage (the attention maps "
                      "alone are 3 x heads x queries x keys = 3 x %d x %d x %d floats); the "
                      "limit is %.0f GiB: use fewer heads or fewer tokens",
                      (double)bytes / (1u << 30), ex->heads, ex->lq, ex->lk,
                      (double)MHA_MAX_TRACE_BYTES / (1u << 30));
        return NULL;
    }
    char *arena = malloc(bytes);
    if (!arena) {
        mha_error_set(err, "out of memory allocating %zu bytes for the trace", bytes);
        return NULL;
    }
    struct mha_trace *t = (struct mha_trace *)(void *)arena;
    memset(t, 0, sizeof *t);
    size_t off = (sizeof *t + 63u) & ~(size_t)63u;
    float *f = (float *)(void *)(arena + off);
    const size_t floats = mha_trace_floats(ex->lq, ex->lk, ex->d_model, ex->heads);
    mha_trace_point(t, f, (unsigned char *)(f + floats), ex->lq, ex->lk, ex->d_model, ex->heads);
    t->arena = arena;
    t->arena_bytes = bytes;
    return t;
}

void mha_trace_free(struct mha_trace *t)
{
    if (t)
        free(t->arena);
}

/* src (L, H, d_k) -> dst (H, L, d_k) */
static void split_transpose(const float *src, float *dst, int len, int heads, int d_k)
{
    for (int h = 0; h < heads; h++)
        for (int l = 0; l < len; l++)
            mat_copy(dst + mha_idx3(len, d_k, h, l, 0),
                     src + ((size_t)l * (size_t)heads + (size_t)h) * (size_t)d_k, d_k);
}

size_t mha_params_count(int d_model)
{
    return 4u * (size_t)d_model * (size_t)d_model + 4u * (size_t)d_model;
}

void mha_params_point(struct mha_params *p, float *block, int d_model)
{
    const size_t d = (size_t)d_model;
    p->w_q = block, block += d * d;
    p->w_k = block, block += d * d;
    p->w_v = block, block += d * d;
    p->w_o = block, block += d * d;
    p->b_q = block, block += d;
    p->b_k = block, block += d;
    p->b_v = block, block += d;
    p->b_o = block;
}

struct mha_params mha_example_params(const struct mha_example *ex)
{
    struct mha_params p;
    mha_params_point(&p, ex->w_q, ex->d_model);
    return p;
}

int mha_forward(const struct mha_example *ex, struct mha_trace *t, struct mha_error *err)
{
    if (ex->lq != t->lq || ex->lk != t->lk || ex->d_model != t->d_model || ex->heads != t->heads)
        return mha_error_set(err, "trace was made for other sizes than this example");
    const struct mha_params w = mha_example_params(ex);
    mha_forward_seq(ex->query, ex->key, ex->value, &w, ex->mask, ex->causal, ex->scaled, t);
    return 0;
}

/* What both attend passes set first: the mask's and the scale's settings,
 * and no row found empty yet. */
static void attend_begin(struct mha_trace *t, bool causal, bool scaled)
{
    t->causal = causal;
    t->scaled = scaled;
    t->scale = scaled ? (float)(1.0 / sqrt((double)t->d_k)) : 1.0f;
    t->empty_rows = 0;
    memset(t->row_empty, 0, (size_t)t->lq);
}

/* Query rows a block of one head takes, so that its scores, scaled scores
 * and weights (three arrays of rows by lk floats) stay near 128 KiB each:
 * inside the core's second-level cache from the product that writes the
 * scores to the product that reads the weights.  A multiple of eight, the
 * row tile of the multiply loops. */
static int attend_block_rows(int lq, int lk)
{
    int rows = (32 * 1024) / (lk > 0 ? lk : 1);
    rows = rows < 8 ? 8 : rows - rows % 8;
    return rows < lq ? rows : lq;
}

/* Running maxima a row keeps side by side (vector lanes), as the softmax's. */
#define ATTEND_MAX_LANES 16

/* Entries [0, n) of a row scaled into scaled and weights, an entry whose
 * keep is 0 -INFINITY (keep NULL: none is); the max over them in lanes,
 * the max of a set not depending on the order it is read in.  Both sides of
 * each choice are computed, so that the loop runs a vector at a time. */
static inline float scale_row(const float *scores, float scale, const unsigned char *keep, int n,
                              float *scaled, float *weights)
{
    float lane[ATTEND_MAX_LANES];
    for (int l = 0; l < ATTEND_MAX_LANES; l++)
        lane[l] = -INFINITY;
    int j = 0;
    for (; j + ATTEND_MAX_LANES <= n; j += ATTEND_MAX_LANES)
        for (int l = 0; l < ATTEND_MAX_LANES; l++) {
            const float v = scores[j + l] * scale;
            const float x = keep && !keep[j + l] ? -INFINITY : v;
            scaled[j + l] = x;
            weights[j + l] = x;
            lane[l] = x > lane[l] ? x : lane[l];
        }
    float max = -INFINITY;
    for (int l = 0; l < ATTEND_MAX_LANES; l++)
        max = lane[l] > max ? lane[l] : max;
    for (; j < n; j++) {
        const float x = keep && !keep[j] ? -INFINITY : scores[j] * scale;
        scaled[j] = x;
        weights[j] = x;
        max = x > max ? x : max;
    }
    return max;
}

/* Row r of one head's scores, scaled and masked into scaled and weights,
 * then the softmax of weights; the row's query is i.  The max the softmax
 * starts from is found while the row is scaled: the numbers
 * mat_softmax_row gives, one pass fewer. */
MAT_KERNEL static void attend_row(struct mha_trace *t, const unsigned char *mask, bool causal,
                                  int i, const float *scores, float *scaled, float *weights)
{
    const int lk = t->lk;
    /* the same rule as mha_is_masked, read row by row: the explicit mask,
     * and with causal every key after i */
    const int visible = causal && i + 1 < lk ? i + 1 : lk;
    const float max =
        mask ? scale_row(scores, t->scale, mask + (size_t)i * (size_t)lk, visible, scaled, weights)
             : scale_row(scores, t->scale, NULL, visible, scaled, weights);
    for (int j = visible; j < lk; j++)
        scaled[j] = weights[j] = -INFINITY;
    if (max == -INFINITY) {
        memset(weights, 0, (size_t)lk * sizeof *weights);
        if (!t->row_empty[i]) {
            t->row_empty[i] = 1;
            t->empty_rows++;
        }
        return;
    }
    mat_softmax_row_max(weights, lk, max);
}

/* One head whose keys do not fit in registers, with the plain loops: khᵀ
 * once (kt, d_k rows of lk), then a block of query rows at a time: scores
 * = qh·khᵀ, scaled and masked, softmax, context = weights·vh, so that a
 * block's scores are still in cache when its weights are read.  Row i of
 * a product reads row i of its left side only, and each sum runs over p =
 * 0, 1, .. as the whole-head product's, so blocks change the order of the
 * work, not a number. */
static void attend_head_blocks(struct mha_trace *t, const unsigned char *mask, bool causal, int h,
                               float *kt)
{
    const int lq = t->lq, lk = t->lk, d_k = t->d_k;
    const size_t att = (size_t)lq * (size_t)lk;
    mat_transpose_rows(t->kh + mha_idx3(lk, d_k, h, 0, 0), (size_t)d_k, lk, d_k, kt, (size_t)lk);
    const float *vh = t->vh + mha_idx3(lk, d_k, h, 0, 0);
    const int block = attend_block_rows(lq, lk);
    for (int i0 = 0; i0 < lq; i0 += block) {
        const int rows = lq - i0 < block ? lq - i0 : block;
        const size_t at = (size_t)h * att + (size_t)i0 * (size_t)lk;
        float *scores = t->scores + at, *scaled = t->scaled_scores + at, *weights = t->weights + at;
        mat_rows_times(t->qh + mha_idx3(lq, d_k, h, i0, 0), (size_t)d_k, 1, kt, (size_t)lk, scores,
                       (size_t)lk, rows, lk, d_k, false, NULL);
        for (int r = 0; r < rows; r++) {
            const size_t row0 = (size_t)r * (size_t)lk;
            attend_row(t, mask, causal, i0 + r, scores + row0, scaled + row0, weights + row0);
        }
        mat_rows_times(weights, (size_t)lk, 1, vh, (size_t)d_k,
                       t->context + mha_idx3(lq, d_k, h, i0, 0), (size_t)d_k, rows, d_k, lk, false,
                       NULL);
    }
}

/* The same head by whole-head products, for the multiply of CBLAS where it
 * outruns the plain loops: its products are best taken whole. */
static void attend_head_whole(struct mha_trace *t, const unsigned char *mask, bool causal, int h)
{
    const int lq = t->lq, lk = t->lk, d_k = t->d_k;
    const size_t att = (size_t)lq * (size_t)lk;
    float *scores = t->scores + (size_t)h * att;
    float *scaled = t->scaled_scores + (size_t)h * att;
    float *weights = t->weights + (size_t)h * att;
    mat_mul(t->qh + mha_idx3(lq, d_k, h, 0, 0), t->kh + mha_idx3(lk, d_k, h, 0, 0), scores, lq, lk,
            d_k, true);
    for (int i = 0; i < lq; i++) {
        const size_t row0 = (size_t)i * (size_t)lk;
        attend_row(t, mask, causal, i, scores + row0, scaled + row0, weights + row0);
    }
    mat_mul(weights, t->vh + mha_idx3(lk, d_k, h, 0, 0), t->context + mha_idx3(lq, d_k, h, 0, 0),
            lq, d_k, lk, false);
}

void mha_forward_attend(const unsigned char *mask, bool causal, bool scaled, struct mha_trace *t)
{
    /* t->q, k, v filled (pass 1) -> qh .. merged */
    const int lq = t->lq, lk = t->lk, d = t->d_model, h_n = t->heads, d_k = t->d_k;
    attend_begin(t, causal, scaled);

    /* pass 2 and 3: split (a view of q, k, v) and transpose to (H, L, d_k) */
    split_transpose(t->q, t->qh, lq, h_n, d_k);
    split_transpose(t->k, t->kh, lk, h_n, d_k);
    split_transpose(t->v, t->vh, lk, h_n, d_k);

    /* pass 4: per head, scores = qh·khᵀ, scaled and masked, softmax, context */
    for (int h = 0; h < h_n && mha_rows_fit(lk, d_k); h++) {
        /* a head whose keys fit in a few vector registers: a row at a time */
        const struct mha_rows_head hd = mha_rows_head_of(t, h);
        t->empty_rows += mha_rows_attend(&hd, mask, causal, t->scale, t->row_empty);
    }
    if (!mha_rows_fit(lk, d_k)) {
        const bool plain = mat_get_backend() != MAT_BACKEND_CBLAS || mat_rows_plain_wins();
        float *kt = plain ? malloc((size_t)lk * (size_t)d_k * sizeof *kt) : NULL;
        for (int h = 0; h < h_n; h++) {
            if (kt)
                attend_head_blocks(t, mask, causal, h, kt);
            else
                attend_head_whole(t, mask, causal, h);
        }
        free(kt);
    }

    /* pass 5: merge (H, lq, d_k) -> (lq, H·d_k) */
    for (int i = 0; i < lq; i++)
        for (int h = 0; h < h_n; h++)
            mat_copy(t->merged + (size_t)i * (size_t)d + (size_t)h * (size_t)d_k,
                     t->context + mha_idx3(lq, d_k, h, i, 0), d_k);
}

void mha_prefetch_share(struct mha_next next, int h)
{
    const struct mha_trace *t = next.t;
    if (!t)
        return;
    const size_t d = (size_t)t->d_model, line = 64 / sizeof(float);
    const int r0 = t->lk * h / t->heads, r1 = t->lk * (h + 1) / t->heads;
    for (size_t x = (size_t)r0 * d; x < (size_t)r1 * d; x += line) {
        __builtin_prefetch(t->k + x);
        __builtin_prefetch(t->v + x);
    }
    const int q0 = t->lq * h / t->heads, q1 = t->lq * (h + 1) / t->heads;
    for (size_t x = (size_t)q0 * d; x < (size_t)q1 * d; x += line) {
        __builtin_prefetch(t->q + x);
        if (next.d_merged)
            __builtin_prefetch(next.d_merged + x);
    }
    const size_t att = (size_t)t->lq * (size_t)t->lk;
    for (size_t x = 0; next.d_merged && x < att; x += line)
        __builtin_prefetch(t->weights + (size_t)h * att + x);
}

void mha_forward_attend_lean(bool causal, bool scaled, struct mha_trace *t, struct mha_next next)
{
    if (!mha_rows_fit(t->lk, t->d_k)) {
        mha_forward_attend(NULL, causal, scaled, t);
        return;
    }
    attend_begin(t, causal, scaled);
    for (int h = 0; h < t->heads; h++) {
        mha_prefetch_share(next, h);
        const struct mha_rows_head hd = mha_rows_head_in_place(t, h);
        t->empty_rows += mha_rows_attend(&hd, NULL, causal, t->scale, t->row_empty);
    }
}

void mha_forward_seq(const float *query, const float *key, const float *value,
                     const struct mha_params *w, const unsigned char *mask, bool causal,
                     bool scaled, struct mha_trace *t)
{
    /* query: (lq, d), key/value: (lk, d) -> every stage of t */
    const int lq = t->lq, lk = t->lk, d = t->d_model;

    /* pass 1: projections q = query·W_qᵀ + b_q, and the same for k and v */
    mat_linear(query, w->w_q, w->b_q, t->q, lq, d, d);
    mat_linear(key, w->w_k, w->b_k, t->k, lk, d, d);
    mat_linear(value, w->w_v, w->b_v, t->v, lk, d, d);

    /* passes 2 to 5 */
    mha_forward_attend(mask, causal, scaled, t);

    /* pass 6: output = merged·W_oᵀ + b_o */
    mat_linear(t->merged, w->w_o, w->b_o, t->output, lq, d, d);
}

struct mha_trace *mha_run(const struct mha_example *ex, struct mha_error *err)
{
    struct mha_trace *t = mha_trace_new(ex, err);
    if (t && mha_forward(ex, t, err)) {
        mha_trace_free(t);
        return NULL;
    }
    return t;
}
