/* example.c - building examples: sizes, labels, generated numbers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mha.h"
#include "engine/rng.h"
#include "engine/stages.h"
#include "engine/text_check.h"

const char *mha_stage_name(enum mha_stage s)
{
    return (s >= 0 && s < MHA_STAGE_COUNT) ? mha_stage_info(s)->name : NULL;
}

int mha_stage_from_name(const char *name)
{
    if (!name)
        return -1;
    if (name[0] >= '0' && name[0] < '0' + MHA_STAGE_COUNT && name[1] == '\0')
        return name[0] - '0';
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const char *a = mha_stage_info((enum mha_stage)s)->name, *b = name;
        while (*a && *b && (*a == (*b | 0x20)))
            a++, b++;
        if (!*a && !*b)
            return s;
    }
    return -1;
}

int mha_check_sizes(int lq, int lk, int d_model, int heads, struct mha_error *err)
{
    if (lq < 1 || lq > MHA_MAX_TOKENS)
        return mha_error_set(err, "%d tokens: the number of tokens must be between 1 and %d", lq,
                             MHA_MAX_TOKENS);
    if (lk < 1 || lk > MHA_MAX_TOKENS)
        return mha_error_set(err,
                             "%d key tokens: the number of key tokens must be between 1 and %d", lk,
                             MHA_MAX_TOKENS);
    if (d_model < 1 || d_model > MHA_MAX_D_MODEL)
        return mha_error_set(err, "d_model %d: d_model must be between 1 and %d", d_model,
                             MHA_MAX_D_MODEL);
    if (heads < 1 || heads > d_model)
        return mha_error_set(err, "%d heads: heads must be between 1 and d_model (%d)", heads,
                             d_model);
    if (d_model % heads != 0) {
        char list[256];
        size_t used = 0;
        list[0] = '\0';
        for (int h = 1; h <= d_model && used < sizeof list - 16; h++)
            if (d_model % h == 0)
                used +=
                    (size_t)snprintf(list + used, sizeof list - used, "%s%d", used ? ", " : "", h);
        return mha_error_set(err,
                             "%d heads do not divide d_model %d: every head gets d_k = "
                             "d_model / heads dimensions, so heads must divide d_model "
                             "(here: %s)",
                             heads, d_model, list);
    }
    return 0;
}

/* Round n up so the next block starts aligned for floats and pointers. */
static size_t align_up(size_t n)
{
    return (n + 15u) & ~(size_t)15u;
}

struct mha_example *mha_example_new(int lq, int lk, int d_model, int heads, bool cross,
                                    struct mha_error *err)
{
    if (mha_check_sizes(lq, lk, d_model, heads, err))
        return NULL;
    if (!cross && lk != lq) {
        mha_error_set(err, "self-attention needs as many keys as queries (%d vs %d)", lk, lq);
        return NULL;
    }
    const size_t d = (size_t)d_model;
    const size_t n_in = ((size_t)lq + 2u * (size_t)lk) * d;
    const size_t n_w = 4u * d * d + 4u * d;
    size_t bytes = align_up(sizeof(struct mha_example));
    bytes += align_up(((size_t)lq + (size_t)lk) * sizeof(char *));
    bytes += align_up((n_in + n_w) * sizeof(float));
    bytes += align_up((size_t)lq * (size_t)lk);

    char *block = calloc(1, bytes);
    if (!block) {
        mha_error_set(err, "out of memory allocating an example of %zu bytes", bytes);
        return NULL;
    }
    struct mha_example *ex = (struct mha_example *)block;
    char *p = block + align_up(sizeof *ex);
    ex->block = block;
    ex->lq = lq;
    ex->lk = lk;
    ex->d_model = d_model;
    ex->heads = heads;
    ex->cross = cross;
    ex->scaled = true;
    ex->seed = 42;
    ex->tokens = (char **)(void *)p;
    ex->key_tokens = cross ? ex->tokens + lq : ex->tokens;
    p += align_up(((size_t)lq + (size_t)lk) * sizeof(char *));
    float *f = (float *)(void *)p;
    ex->query = f, f += (size_t)lq * d;
    ex->key = f, f += (size_t)lk * d;
    ex->value = f, f += (size_t)lk * d;
    ex->w_q = f, f += d * d;
    ex->w_k = f, f += d * d;
    ex->w_v = f, f += d * d;
    ex->w_o = f, f += d * d;
    ex->b_q = f, f += d;
    ex->b_k = f, f += d;
    ex->b_v = f, f += d;
    ex->b_o = f, f += d;
    p += align_up((n_in + n_w) * sizeof(float));
    ex->mask = (unsigned char *)p;
    memset(ex->mask, 1, (size_t)lq * (size_t)lk);

    for (int i = 0; i < lq; i++) {
        char label[32];
        snprintf(label, sizeof label, "tok %d", i);
        if (mha_example_set_token(ex, false, i, label)) {
            mha_example_free(ex);
            mha_error_set(err, "out of memory");
            return NULL;
        }
    }
    for (int j = 0; cross && j < lk; j++) {
        char label[32];
        snprintf(label, sizeof label, "key %d", j);
        if (mha_example_set_token(ex, true, j, label)) {
            mha_example_free(ex);
            mha_error_set(err, "out of memory");
            return NULL;
        }
    }
    return ex;
}

void mha_example_free(struct mha_example *ex)
{
    if (!ex)
        return;
    int n = ex->cross ? ex->lq + ex->lk : ex->lq;
    for (int i = 0; i < n; i++)
        free(ex->tokens[i]);
    free(ex->block);
}

int mha_example_set_token(struct mha_example *ex, bool keys, int i, const char *text)
{
    char **labels = keys ? ex->key_tokens : ex->tokens;
    int n = keys ? ex->lk : ex->lq;
    if (i < 0 || i >= n)
        return -1;
    char *copy = strdup(text ? text : "");
    if (!copy)
        return -1;
    free(labels[i]);
    labels[i] = copy;
    return 0;
}

static void fill_uniform(struct rng *r, float *dst, size_t n, double lo, double hi)
{
    for (size_t i = 0; i < n; i++)
        dst[i] = (float)rng_uniform(r, lo, hi);
}

bool mha_generated_is_page(int lq, int lk, int d_model, bool cross, uint32_t seed)
{
    return !cross && lq == 4 && lk == 4 && d_model == 6 && seed == 42u;
}

double mha_generated_weight_bound(int lq, int lk, int d_model, bool cross, uint32_t seed)
{
    if (mha_generated_is_page(lq, lk, d_model, cross, seed) || d_model < 1)
        return 1.0;
    return 1.0 / sqrt((double)d_model);
}

void mha_example_generate(struct mha_example *ex, uint32_t seed)
{
    const size_t d = (size_t)ex->d_model;
    const double b = mha_generated_weight_bound(ex->lq, ex->lk, ex->d_model, ex->cross, seed);
    struct rng r;
    rng_init(&r, seed);
    ex->seed = seed;
    fill_uniform(&r, ex->query, (size_t)ex->lq * d, -2.0, 2.0);
    fill_uniform(&r, ex->key, (size_t)ex->lk * d, -2.0, 2.0);
    fill_uniform(&r, ex->value, (size_t)ex->lk * d, -2.0, 2.0);
    fill_uniform(&r, ex->w_q, d * d, -b, b);
    fill_uniform(&r, ex->w_k, d * d, -b, b);
    fill_uniform(&r, ex->w_v, d * d, -b, b);
    fill_uniform(&r, ex->w_o, d * d, -b, b);
    memset(ex->b_q, 0, 4u * d * sizeof(float));
    ex->has_bias = false;
}

struct mha_example *mha_example_generated(int n_tokens, const char *const *tokens, int d_model,
                                          int heads, uint32_t seed, struct mha_error *err)
{
    /* A generated example is what the page draws: three input matrices of
     * the same length (query, key and value drawn separately). */
    for (int i = 0; tokens && i < n_tokens; i++)
        if (mha_label_check(tokens[i], i, err))
            return NULL;
    struct mha_example *ex = mha_example_new(n_tokens, n_tokens, d_model, heads, false, err);
    if (!ex)
        return NULL;
    for (int i = 0; tokens && i < n_tokens; i++) {
        if (mha_example_set_token(ex, false, i, tokens[i])) {
            mha_example_free(ex);
            mha_error_set(err, "out of memory");
            return NULL;
        }
    }
    mha_example_generate(ex, seed);
    return ex;
}

struct mha_example *mha_example_default(struct mha_error *err)
{
    return mha_example_generated(4, NULL, 6, 2, 42, err);
}

struct mha_example *mha_example_from_words(const char *text, int d_model, int heads, uint32_t seed,
                                           struct mha_error *err)
{
    size_t len = text ? strlen(text) : 0;
    char *copy = malloc(len + 1);
    const char **words = malloc((len / 2 + 2) * sizeof *words);
    if (!copy || !words) {
        free(copy);
        free(words);
        mha_error_set(err, "out of memory");
        return NULL;
    }
    memcpy(copy, text ? text : "", len + 1);
    int n = 0;
    for (char *save = NULL, *w = strtok_r(copy, " \t\n", &save); w;
         w = strtok_r(NULL, " \t\n", &save))
        words[n++] = w;
    struct mha_example *ex = NULL;
    if (n > MHA_MAX_TOKENS)
        mha_error_set(err, "%d tokens: at most %d are allowed", n, MHA_MAX_TOKENS);
    else if (n == 0)
        ex = mha_example_generated(4, NULL, d_model, heads, seed, err);
    else
        ex = mha_example_generated(n, words, d_model, heads, seed, err);
    free(words);
    free(copy);
    return ex;
}

bool mha_is_masked(const struct mha_example *ex, int i, int j)
{
    if (ex->causal && j > i)
        return true;
    return ex->mask[(size_t)i * (size_t)ex->lk + (size_t)j] == 0;
}
