/* ui_state.c - building new examples for every change, and the ':' commands. */
#include "ui/state/ui_state.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_check.h"
#include "io/example_io.h"
#include "io/model_io.h"
#include "lesson/lesson.h"
#include "engine/stages.h"
#include "io/view_desc.h"
#include "train/train_text.h"

void ui_state_say(struct ui_state *st, bool error, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(st->msg, sizeof st->msg, fmt, ap);
    va_end(ap);
    st->msg_error = error;
}

int ui_divisors(int n, int *out, int max)
{
    int count = 0;
    for (int h = 1; h <= n && count < max; h++)
        if (n % h == 0)
            out[count++] = h;
    return count;
}

int ui_nearest_divisor(int n, int h)
{
    int best = 1;
    for (int c = 1; c <= n; c++)
        if (n % c == 0 && abs(c - h) < abs(best - h))
            best = c;
    return best;
}

void ui_divisor_list(int n, char *buf, size_t size)
{
    int d[64];
    int count = ui_divisors(n, d, 64);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used + 16 < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%d", i ? ", " : "", d[i]);
}

static void update_ranges(struct ui_state *st)
{
    for (int x = 0; x < MHA_TENSOR_COUNT; x++)
        st->range[x] = mha_tensor_range(st->ex, st->tr, (enum mha_tensor)x);
}

int ui_state_init(struct ui_state *st, struct mha_example *ex, bool generated, const char *source,
                  struct mha_error *err)
{
    memset(st, 0, sizeof *st);
    st->tr = mha_run(ex, err);
    if (!st->tr) {
        mha_example_free(ex);
        return -1;
    }
    st->ex = ex;
    st->generated = generated;
    st->temperature = 1.0f;
    st->top_p = 1.0;
    rng_init(&st->draws, 42u);
    snprintf(st->source, sizeof st->source, "%s", source ? source : "");
    update_ranges(st);
    return 0;
}

void ui_state_done(struct ui_state *st)
{
    ui_state_drop_view(st);
    mha_trace_free(st->tr);
    mha_example_free(st->ex);
    st->tr = NULL;
    st->ex = NULL;
}

void ui_state_drop_view(struct ui_state *st)
{
    view_desc_free(st->vd);
    st->vd = NULL;
    st->vd_stale = st->view != MHA_VIEW_NONE;
}

static int copy_tokens(struct mha_example *dst, const struct mha_example *src);

/* The sizes of a and b's buffers agree (their arrays line up one for one). */
static bool same_sizes(const struct mha_example *a, const struct mha_example *b)
{
    return a->lq == b->lq && a->lk == b->lk && a->d_model == b->d_model && a->heads == b->heads &&
           a->cross == b->cross;
}

/* nex's numbers, labels and switches copied into the current example and
 * run into the current trace, whose buffers stay where they are (the
 * screen's blocks point into them).  0, or -1 when a label cannot be copied
 * (out of memory; nothing of nex is shown then). */
static int replace_in_place(struct ui_state *st, const struct mha_example *nex)
{
    struct mha_example *ex = st->ex;
    const size_t d = (size_t)ex->d_model, lq = (size_t)ex->lq, lk = (size_t)ex->lk;
    const size_t sizes[] = {lq * d, lk * d, lk * d, d * d, d * d, d * d, d * d, d, d, d, d};
    float *dst[] = {ex->query, ex->key, ex->value, ex->w_q, ex->w_k, ex->w_v,
                    ex->w_o,   ex->b_q, ex->b_k,   ex->b_v, ex->b_o};
    const float *src[] = {nex->query, nex->key, nex->value, nex->w_q, nex->w_k, nex->w_v,
                          nex->w_o,   nex->b_q, nex->b_k,   nex->b_v, nex->b_o};
    if (copy_tokens(ex, nex))
        return -1;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        memcpy(dst[i], src[i], sizes[i] * sizeof(float));
    memcpy(ex->mask, nex->mask, lq * lk);
    ex->causal = nex->causal;
    ex->scaled = nex->scaled;
    ex->has_bias = nex->has_bias;
    ex->has_mask = nex->has_mask;
    ex->seed = nex->seed;
    ex->has_next_word = nex->has_next_word;
    ex->next_word = nex->next_word;
    ex->lens_layers = nex->lens_layers;
    memcpy(ex->lens, nex->lens, sizeof ex->lens);
    ex->layers = nex->layers;
    ex->layer = nex->layer;
    struct mha_error err;
    mha_error_clear(&err);
    return mha_forward(ex, st->tr, &err);
}

void ui_state_refresh(struct ui_state *st)
{
    struct mha_error err;
    mha_error_clear(&err);
    if (mha_forward(st->ex, st->tr, &err) != 0) {
        ui_state_say(st, true, "%s", err.text);
        return;
    }
    update_ranges(st);
    if (st->view != MHA_VIEW_NONE)
        ui_state_drop_view(st);
}

/* Run nex; on success it replaces the current example (in the current
 * buffers when the sizes agree).  On failure nex is freed and the engine's
 * reason goes to the message line. */
static int replace(struct ui_state *st, struct mha_example *nex, bool generated)
{
    struct mha_error err;
    mha_error_clear(&err);
    /* a model's next words that new numbers take away (a new load clears it) */
    st->words_lost = !nex->has_next_word && (st->words_lost || (st->ex && st->ex->has_next_word));
    st->baseline = NULL; /* a new example is no model in training, unless the training says so */
    st->model = NULL;
    st->layer_measures = NULL;
    st->titled_heads = 0;
    st->trained[0] = '\0';
    if (st->ex && st->tr && same_sizes(st->ex, nex)) {
        const int rc = replace_in_place(st, nex);
        mha_example_free(nex);
        if (rc != 0) {
            ui_state_say(st, true, "out of memory: the new numbers cannot be shown");
            return -1;
        }
        st->generated = generated;
        st->ex_gen++;
        st->block = 0;
        st->cur_r = st->cur_c = 0;
        update_ranges(st);
        if (st->view != MHA_VIEW_NONE)
            ui_state_drop_view(st);
        return 0;
    }
    struct mha_trace *tr = mha_run(nex, &err);
    if (!tr) {
        char buf[UI_MSG_MAX];
        ui_state_say(st, true, "%s", mha_error_format(&err, buf, sizeof buf));
        mha_example_free(nex);
        return -1;
    }
    mha_trace_free(st->tr);
    mha_example_free(st->ex);
    st->ex = nex;
    st->tr = tr;
    st->generated = generated;
    st->ex_gen++;
    st->block = 0;
    st->cur_r = st->cur_c = 0;
    update_ranges(st);
    if (st->view != MHA_VIEW_NONE)
        ui_state_drop_view(st);
    return 0;
}

static int copy_tokens(struct mha_example *dst, const struct mha_example *src)
{
    for (int i = 0; i < dst->lq && i < src->lq; i++)
        if (mha_example_set_token(dst, false, i, src->tokens[i]))
            return -1;
    for (int j = 0; dst->cross && src->cross && j < dst->lk && j < src->lk; j++)
        if (mha_example_set_token(dst, true, j, src->key_tokens[j]))
            return -1;
    return 0;
}

static void copy_flags(struct mha_example *dst, const struct mha_example *src)
{
    dst->causal = src->causal;
    dst->scaled = src->scaled;
    if (src->has_mask && dst->lq == src->lq && dst->lk == src->lk) {
        dst->has_mask = true;
        memcpy(dst->mask, src->mask, (size_t)src->lq * (size_t)src->lk);
    }
}

/* The same numbers with another number of heads (NULL + message if refused). */
static struct mha_example *clone_with_heads(struct ui_state *st, int heads)
{
    const struct mha_example *ex = st->ex;
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *n = mha_example_new(ex->lq, ex->lk, ex->d_model, heads, ex->cross, &err);
    if (!n) {
        ui_state_say(st, true, "%s", err.text);
        return NULL;
    }
    const size_t d = (size_t)ex->d_model, lq = (size_t)ex->lq, lk = (size_t)ex->lk;
    memcpy(n->query, ex->query, lq * d * sizeof(float));
    memcpy(n->key, ex->key, lk * d * sizeof(float));
    memcpy(n->value, ex->value, lk * d * sizeof(float));
    const float *src[] = {ex->w_q, ex->w_k, ex->w_v, ex->w_o};
    float *dst[] = {n->w_q, n->w_k, n->w_v, n->w_o};
    for (int i = 0; i < 4; i++)
        memcpy(dst[i], src[i], d * d * sizeof(float));
    const float *bs[] = {ex->b_q, ex->b_k, ex->b_v, ex->b_o};
    float *bd[] = {n->b_q, n->b_k, n->b_v, n->b_o};
    for (int i = 0; i < 4; i++)
        memcpy(bd[i], bs[i], d * sizeof(float));
    n->has_bias = ex->has_bias;
    n->seed = ex->seed;
    copy_flags(n, ex);
    if (copy_tokens(n, ex)) {
        mha_example_free(n);
        ui_state_say(st, true, "out of memory");
        return NULL;
    }
    return n;
}

/* New numbers drawn from seed for these sizes; labels from tokens (n of
 * them) or kept from the current example. */
static struct mha_example *generate(struct ui_state *st, int lq, int d_model, int heads,
                                    uint32_t seed, char **tokens)
{
    const struct mha_example *ex = st->ex;
    const bool cross = ex->cross && !tokens;
    const int lk = cross ? ex->lk : lq;
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *n = mha_example_new(lq, lk, d_model, heads, cross, &err);
    if (!n) {
        ui_state_say(st, true, "%s", err.text);
        return NULL;
    }
    int bad = tokens ? 0 : copy_tokens(n, ex);
    for (int i = 0; tokens && i < lq && !bad; i++)
        bad = mha_example_set_token(n, false, i, tokens[i]);
    if (bad) {
        mha_example_free(n);
        ui_state_say(st, true, "out of memory");
        return NULL;
    }
    mha_example_generate(n, seed);
    copy_flags(n, ex);
    return n;
}

int ui_state_set_heads(struct ui_state *st, int heads)
{
    if (heads == st->ex->heads) {
        ui_state_say(st, false, "Already %d heads.", heads);
        return 0;
    }
    struct mha_example *n = clone_with_heads(st, heads);
    if (!n || replace(st, n, st->generated))
        return -1;
    ui_state_say(st, false, "%d head%s of d_k = %d / %d = %d dimension%s each.", heads,
                 heads == 1 ? "" : "s", st->ex->d_model, heads, st->tr->d_k,
                 st->tr->d_k == 1 ? "" : "s");
    return 0;
}

int ui_state_step_heads(struct ui_state *st, int dir)
{
    int d[64];
    int count = ui_divisors(st->ex->d_model, d, 64), at = 0;
    for (int i = 0; i < count; i++)
        if (d[i] == st->ex->heads)
            at = i;
    int next = at + (dir > 0 ? 1 : -1);
    if (next < 0 || next >= count) {
        char list[256];
        ui_divisor_list(st->ex->d_model, list, sizeof list);
        ui_state_say(st, false, "%s: heads can be %s for d_model %d.",
                     dir > 0 ? "Already the most heads" : "Already one head", list,
                     st->ex->d_model);
        return -1;
    }
    return ui_state_set_heads(st, d[next]);
}

int ui_state_set_d_model(struct ui_state *st, int d_model)
{
    if (d_model < 1 || d_model > MHA_MAX_D_MODEL) {
        ui_state_say(st, true, "d_model %d: d_model must be between 1 and %d.", d_model,
                     MHA_MAX_D_MODEL);
        return -1;
    }
    const int old_heads = st->ex->heads;
    const bool was_file = !st->generated;
    const int heads = ui_nearest_divisor(d_model, old_heads);
    struct mha_example *n = generate(st, st->ex->lq, d_model, heads, st->ex->seed, NULL);
    if (!n || replace(st, n, true))
        return -1;
    char list[256];
    ui_divisor_list(d_model, list, sizeof list);
    if (heads != old_heads)
        ui_state_say(st, false,
                     "d_model %d: heads %d -> %d, the nearest divisor (heads must "
                     "divide d_model; here %s). d_k = %d.%s",
                     d_model, old_heads, heads, list, st->tr->d_k,
                     was_file ? " New numbers drawn from the seed." : "");
    else
        ui_state_say(st, false, "d_model %d with %d head%s: d_k = %d.%s", d_model, heads,
                     heads == 1 ? "" : "s", st->tr->d_k,
                     was_file ? " New numbers drawn from the seed." : "");
    return 0;
}

/* The same example with causal and scaled set as given, in place of the
 * current one (the numbers kept). */
static int switch_masking(struct ui_state *st, bool causal, bool scaled)
{
    struct mha_example *n = clone_with_heads(st, st->ex->heads);
    if (!n)
        return -1;
    n->causal = causal;
    n->scaled = scaled;
    return replace(st, n, st->generated);
}

int ui_state_toggle_causal(struct ui_state *st)
{
    if (switch_masking(st, !st->ex->causal, st->ex->scaled))
        return -1;
    if (st->ex->cross)
        ui_state_say(st, false,
                     st->ex->causal
                         ? "Causal mask on: query i sees only keys 0..i of the other sequence. "
                           "Cross-attention seldom wants that: the sequence it reads is known "
                           "whole (decoders mask their own self-attention instead)."
                         : "Causal mask off: every query sees every key of the other sequence.");
    else
        ui_state_say(st, false,
                     st->ex->causal ? "Causal mask on: each token sees only itself and "
                                      "the tokens before it."
                                    : "Causal mask off: every token sees every token.");
    return 0;
}

int ui_state_toggle_scaled(struct ui_state *st)
{
    if (switch_masking(st, st->ex->causal, !st->ex->scaled))
        return -1;
    if (st->ex->scaled)
        ui_state_say(st, false, "Scaling on: scores are divided by sqrt(d_k) = %.3f.",
                     sqrt((double)st->tr->d_k));
    else
        ui_state_say(st, false,
                     "Scaling off: what if we didn't scale? Watch the weights grow "
                     "sharper as d_k grows.");
    return 0;
}

int ui_state_set_seed(struct ui_state *st, unsigned long seed)
{
    struct mha_example *n =
        generate(st, st->ex->lq, st->ex->d_model, st->ex->heads, (uint32_t)seed, NULL);
    if (!n || replace(st, n, true))
        return -1;
    ui_state_say(st, false, "New numbers from seed %lu.", seed);
    return 0;
}

/* The loaded model run on words at st->temperature, shown; -1 with the
 * reason on the message line after what (the command or key that asked:
 * an unknown word named, with the words nearest in the model's embedding
 * to what it expects there, or more words than its context). */
int ui_state_run_model(struct ui_state *st, const char *words, const char *what)
{
    struct mha_error err;
    mha_error_clear(&err);
    /* a model of layers stays on the layer shown */
    const int layer = st->ex->layers > 1 ? st->ex->layer : -1;
    struct mha_example *ex =
        model_io_example_top_p(st->load_path, words, st->temperature, st->top_p, what, layer, &err);
    if (!ex) {
        char buf[UI_MSG_MAX];
        ui_state_say(st, true, "%s", mha_error_format(&err, buf, sizeof buf));
        return -1;
    }
    return replace(st, ex, false);
}

/* :tokens on a trained model's example: the model runs on the typed words
 * (its own vocabulary; unknown words named as run_model names them). */
static int model_tokens(struct ui_state *st, const char *text)
{
    if (ui_state_run_model(st, text, ":tokens"))
        return -1;
    if (st->ex->has_next_word && st->ex->next_word.n > 0)
        ui_state_say(st, false, "%d words through the model; after \"%s\" it says \"%s\" (%.2f).",
                     st->ex->lq, st->ex->tokens[st->ex->lq - 1], st->ex->next_word.word[0],
                     (double)st->ex->next_word.p[0]);
    else
        ui_state_say(st, false, "%d token%s through the model.", st->ex->lq,
                     st->ex->lq == 1 ? "" : "s");
    return 0;
}

/* The example's tokens joined by spaces, the last drop of them left out. */
void ui_state_joined_tokens(const struct ui_state *st, int drop, char *words, size_t n)
{
    size_t used = 0;
    words[0] = '\0';
    for (int i = 0; i < st->ex->lq - drop && used < n; i++)
        used += (size_t)snprintf(words + used, n - used, "%s%s", i ? " " : "", st->ex->tokens[i]);
}

int ui_state_show_layer(struct ui_state *st, int layer)
{
    const int n = st->ex->layers;
    if (!st->load_model || n < 2) {
        ui_state_say(st, true,
                     "This model has one layer: a model of layers (--train TASK --layers 2) "
                     "shows each of them.");
        return -1;
    }
    if (layer < 0 || layer >= n) {
        ui_state_say(st, true, "Layer %d: this model has layers 0 to %d.", layer, n - 1);
        return -1;
    }
    char words[4096];
    ui_state_joined_tokens(st, 0, words, sizeof words);
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = model_io_example_top_p(st->load_path, words, st->temperature,
                                                    st->top_p, ":layer", layer, &err);
    if (!ex) {
        char buf[UI_MSG_MAX];
        ui_state_say(st, true, "%s", mha_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (replace(st, ex, false))
        return -1;
    ui_state_say_layer(st);
    return 0;
}

void ui_state_say_layer(struct ui_state *st)
{
    const int l = st->ex->layer;
    if (l == 0)
        ui_state_say(st, false,
                     "Layer 0 of 0–%d: its heads read the embeddings and positions of the words.",
                     st->ex->layers - 1);
    else
        ui_state_say(st, false,
                     "Layer %d of 0–%d: its input is the embeddings and positions plus what "
                     "every head of the layer%s below wrote.",
                     l, st->ex->layers - 1, l == 1 ? "" : "s");
}

static bool is_model(const struct ui_state *st)
{
    return st->load_model;
}

int ui_state_set_tokens(struct ui_state *st, const char *text)
{
    if (is_model(st))
        return model_tokens(st, text);
    char *copy = strdup(text);
    char **toks = calloc(MHA_MAX_TOKENS + 1, sizeof *toks);
    int n = 0, rc = -1;
    if (!copy || !toks) {
        ui_state_say(st, true, "out of memory");
        goto out;
    }
    for (char *p = strtok(copy, " \t"); p; p = strtok(NULL, " \t")) {
        if (n == MHA_MAX_TOKENS) {
            ui_state_say(st, true, "Too many tokens: at most %d.", MHA_MAX_TOKENS);
            goto out;
        }
        toks[n++] = p;
    }
    if (n == 0) {
        ui_state_say(st, true, "Give the tokens after the command, as in :tokens The cat sat.");
        goto out;
    }
    for (int i = 0; i < n; i++) {
        struct mha_error err;
        mha_error_clear(&err);
        if (mha_label_check(toks[i], i, &err)) {
            ui_state_say(st, true, "%s.", err.text);
            goto out;
        }
    }
    struct mha_example *ex = generate(st, n, st->ex->d_model, st->ex->heads, st->ex->seed, toks);
    if (ex && replace(st, ex, true) == 0) {
        ui_state_say(st, false, "%d tokens; numbers drawn from seed %u.", n,
                     (unsigned)st->ex->seed);
        st->source[0] = '\0'; /* drawn from the seed, as --tokens would */
        rc = 0;
    }
out:
    free(toks);
    free(copy);
    return rc;
}

int ui_state_set_example(struct ui_state *st, struct mha_example *ex, bool generated,
                         const char *source)
{
    if (replace(st, ex, generated))
        return -1;
    snprintf(st->source, sizeof st->source, "%s", source ? source : "");
    return 0;
}

int ui_state_load(struct ui_state *st, const char *path)
{
    struct mha_error err;
    mha_error_clear(&err);
    /* a trained model (or a sentence file naming one) on its own sentence */
    struct mha_example *n =
        model_io_is_model_file(path)
            ? model_io_example_top_p(path, NULL, st->temperature, st->top_p, ":load", -1, &err)
            : mha_example_load(path, &err);
    if (!n) {
        char buf[UI_MSG_MAX];
        ui_state_say(st, true, "%s", mha_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (replace(st, n, false))
        return -1;
    const char *slash = strrchr(path, '/');
    snprintf(st->source, sizeof st->source, "%s", slash ? slash + 1 : path);
    ui_state_set_load_path(st, path);
    ui_state_say(st, false, "Loaded %s: %d tokens, d_model %d, %d heads.", path, st->ex->lq,
                 st->ex->d_model, st->ex->heads);
    return 0;
}

void ui_state_set_load_path(struct ui_state *st, const char *path)
{
    char *abs = path ? realpath(path, NULL) : NULL;
    snprintf(st->load_path, sizeof st->load_path, "%s", abs ? abs : path ? path : "");
    free(abs);
    st->load_model = st->load_path[0] && model_io_is_model_file(st->load_path);
    st->words_lost = false;
}

const char *ui_view_mode_name(enum mha_view v)
{
    return v > MHA_VIEW_NONE && v < MHA_VIEW_COUNT ? mha_view_name(v) : "stage";
}

int ui_view_mode_from_name(const char *name)
{
    return mha_view_from_name(name);
}

int ui_state_set_view(struct ui_state *st, enum mha_view view)
{
    if (view < 0 || view >= MHA_VIEW_COUNT)
        return -1;
    st->view = view;
    st->focus = false;
    st->explain_open = false;
    st->block = st->cur_r = st->cur_c = 0;
    st->scroll = 0;
    st->view_first = 0;
    ui_state_drop_view(st);
    return 0;
}

int ui_state_set_stage(struct ui_state *st, int stage)
{
    if (stage < 0 || stage >= MHA_STAGE_COUNT)
        return -1;
    if (st->view != MHA_VIEW_NONE) {
        ui_state_set_view(st, MHA_VIEW_NONE);
        st->stage = stage;
        return 0;
    }
    if (stage != st->stage) {
        st->stage = stage;
        st->block = st->cur_r = st->cur_c = 0;
        st->scroll = 0;
        st->explain_open = false;
    }
    return 0;
}
