/* mha.c - the forward pass, every stage kept in one arena. */
#include "engine/mha.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "engine/mat.h"
#include "engine/mat_kernel.h"
#include "engine/mha_long.h"
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
    char *arena = mha_arena_alloc(bytes);
    if (!arena) {
        mha_error_set(err, "out of memory allocating %zu bytes for the trace", bytes);
        return NULL;
    }
    struct mha_trace *t = (struct mha_trace *)(void *)arena;
    memset(t, 0, sizeof *t);
    /* the stages from a 64-byte line on (bytes leaves room for it) */
    const uintptr_t first = ((uintptr_t)arena + sizeof *t + 63u) & ~(uintptr_t)63u;
    float *f = (float *)(void *)(arena + (first - (uintptr_t)arena));
    const size_t floats = mha_trace_floats(ex->lq, ex->lk, ex->d_model, ex->heads);
    mha_trace_point(t, f, (unsigned char *)(f + floats), ex->lq, ex->lk, ex->d_model, ex->heads);
    t->arena = arena;
    t->arena_bytes = bytes;
    return t;
}

/* Arenas from this size on start on a huge page's boundary and ask the
 * kernel for huge pages (where it gives transparent huge pages on request):
 * a trace's arrays at 1024 tokens, 150 MB read and written once a pass, go
 * through one translation a 2 MiB page instead of one a 4 KiB page (a pass
 * at 1024 tokens, d_model 768 and 12 heads took about 4 % less,
 * bench/README.md). */
#define HUGE_PAGE_BYTES ((size_t)2 << 20)
#define HUGE_ARENA_BYTES (2 * HUGE_PAGE_BYTES)

void *mha_arena_alloc(size_t bytes)
{
    void *p = NULL;
#if defined(MADV_HUGEPAGE)
    if (bytes >= HUGE_ARENA_BYTES) {
        if (posix_memalign(&p, HUGE_PAGE_BYTES, bytes) != 0)
            return NULL;
        /* advice only: refused, the arena works as well on small pages */
        (void)madvise(p, bytes, MADV_HUGEPAGE);
        return p;
    }
#endif
    return posix_memalign(&p, 64, bytes ? bytes : 1) == 0 ? p : NULL;
}

void mha_trace_free(struct mha_trace *t)
{
    if (t)
        free(t->arena);
}

/* src (L, H, d_k) -> dst (H, L, d_k) */
static void split_transpose(const float *src, float *dst, int len, int heads, int d_k)
{
    for (int l = 0; l < len; l++)
        for (int h = 0; h < heads; h++)
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
    mha_long_rows(t, mask, causal, 0, lq, scores, scaled, weights);
    mat_mul(weights, t->vh + mha_idx3(lk, d_k, h, 0, 0), t->context + mha_idx3(lq, d_k, h, 0, 0),
            lq, d_k, lk, false);
}

void mha_forward_attend(const unsigned char *mask, bool causal, bool scaled, struct mha_trace *t)
{
    /* t->q, k, v filled (pass 1) -> qh .. merged */
    const int lq = t->lq, lk = t->lk, d = t->d_model, h_n = t->heads, d_k = t->d_k;
    attend_begin(t, causal, scaled);
    /* a mask that keeps every key (an example's, untouched) masks nothing:
     * the rows need not read it, a byte for every score of every head */
    if (mask && !memchr(mask, 0, (size_t)lq * (size_t)lk))
        mask = NULL;

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
        float *work = plain ? malloc(mha_long_floats(t) * sizeof *work) : NULL;
        for (int h = 0; h < h_n; h++) {
            if (work)
                mha_long_head(t, mask, causal, h, work);
            else
                attend_head_whole(t, mask, causal, h);
        }
        free(work);
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
        if (h + 1 < t->heads) { /* two heads at once where they fit */
            const struct mha_rows_head next_hd = mha_rows_head_in_place(t, h + 1);
            if (mha_rows_pair_fits(&hd, &next_hd)) {
                mha_prefetch_share(next, ++h);
                t->empty_rows +=
                    mha_rows_attend_pair(&hd, &next_hd, causal, t->scale, t->row_empty);
                continue;
            }
        }
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
