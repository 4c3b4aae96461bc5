/* mha.h - multi-head attention, every stage kept for display.
 *
 * The engine computes exactly what PyTorch's nn.MultiheadAttention computes
 * (weights in the nn.Linear convention, y = x·Wᵀ + b) and keeps each stage in
 * a trace so that screens, lessons and exports read numbers instead of
 * recomputing them.  Pure C11 + libm (+ optional CBLAS); no I/O here.
 *
 * Layout: every tensor is a flat row-major float array.
 *   example (inputs)                      trace (stages)
 *   query  (lq, d)                        1 q, k, v        (lq, d) (lk, d) (lk, d)
 *   key    (lk, d)                        2 split          views of q, k, v as (L, H, d_k)
 *   value  (lk, d)                        3 qh, kh, vh     (H, lq, d_k) (H, lk, d_k) (H, lk, d_k)
 *   w_q w_k w_v w_o (d, d) [out][in]      4 scores, scaled, weights (H, lq, lk); context (H, lq,
 * d_k) b_q b_k b_v b_o (d)                   5 merged         (lq, d) mask   (lq, lk) 1 keep / 0
 * masked     6 output         (lq, d)
 */
#ifndef MHA_H
#define MHA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/mha_error.h"

/* Limits the engine accepts. */
#define MHA_MAX_TOKENS 1024
#define MHA_MAX_D_MODEL 2048
/* A trace larger than this is refused with an explanation (bytes). */
#define MHA_MAX_TRACE_BYTES ((size_t)3 << 30)

/* The stages of the pipeline, in order (MHA_STAGE_COUNT of them). */
enum mha_stage {
    MHA_STAGE_INPUT,
    MHA_STAGE_PROJECTION,
    MHA_STAGE_SPLIT,
    MHA_STAGE_TRANSPOSE,
    MHA_STAGE_ATTENTION,
    MHA_STAGE_MERGE,
    MHA_STAGE_OUTPUT,
    MHA_STAGE_COUNT
};

/* "input", "projection", ... ; NULL for an out-of-range stage. */
const char *mha_stage_name(enum mha_stage s);
/* Stage from its name (case-insensitive) or its digit "0".."6"; -1 if unknown. */
int mha_stage_from_name(const char *name);

/* Everything the engine needs as input.  Owned by the example: one allocation
 * for all arrays (block) plus one string per label, released by
 * mha_example_free.  When cross is false the keys are the query tokens
 * (lk == lq, key_tokens == tokens); key and value are still matrices of their
 * own: equal to query for a self-attention file, separate draws for the
 * page's generated examples. */
/* A language model's next word after one position of the example: its
 * likeliest words, likeliest first, with their probabilities (what the
 * output stage ends in for a model trained on text, train_text.h). */
#define MHA_NEXT_WORD_MAX 10
#define MHA_NEXT_WORD_LABEL 64
struct mha_next_word {
    int position;      /* the row (query token) whose next word this is */
    int n;             /* words listed, 1..MHA_NEXT_WORD_MAX */
    float temperature; /* the softmax's: p = softmax(logits / temperature) */
    /* top-p: the nucleus, the fewest likeliest words (all the model's, not
     * only those listed; never <unk>) whose probabilities sum to top_p of
     * theirs or more: how many and their summed probability (top_p 1:
     * every word) */
    float top_p;
    int nucleus;
    float nucleus_p;
    char word[MHA_NEXT_WORD_MAX][MHA_NEXT_WORD_LABEL];
    float p[MHA_NEXT_WORD_MAX];
};

/* The logit lens of a model of layers: the residual stream after each
 * layer read through the read-out (at most this many layers). */
#define MHA_LENS_LAYERS 4

struct mha_example {
    int lq, lk;    /* query and key/value sequence lengths */
    int d_model;   /* model width d */
    int heads;     /* number of heads H; d_model % heads == 0 */
    bool causal;   /* mask keys j > i */
    bool scaled;   /* divide scores by sqrt(d_k) (true in a real model) */
    bool cross;    /* keys/values come from their own sequence */
    bool has_bias; /* biases were given (they are zero otherwise) */
    bool has_mask; /* mask holds an explicit 0/1 mask */
    uint32_t seed; /* seed the generated parts came from */

    char **tokens;     /* lq labels, UTF-8, NUL-terminated */
    char **key_tokens; /* lk labels */
    float *query, *key, *value;
    float *w_q, *w_k, *w_v, *w_o;
    float *b_q, *b_k, *b_v, *b_o;
    unsigned char *mask; /* (lq, lk); all ones when !has_mask */

    bool has_next_word;             /* next_word holds a language model's prediction */
    struct mha_next_word next_word; /* (set by the model's reader, not by mha_example_new) */
    /* a language model of two or more layers: its likeliest next words read
     * from the residual stream after each layer, lens[l] for l <
     * lens_layers (0: none; set by the model's reader) */
    int lens_layers;
    struct mha_next_word lens[MHA_LENS_LAYERS];
    /* a trained model of layers: how many (0 for any other example) and the
     * one shown, 0-based (set by train_model_to_example / _fill_example) */
    int layers, layer;

    void *block; /* the single allocation behind everything above */
};

/* Check sizes against the limits and d_model % heads.  Fills err with a
 * message that explains the rule (d_k = d_model / heads) and returns -1. */
int mha_check_sizes(int lq, int lk, int d_model, int heads, struct mha_error *err);

/* Allocate an example of the given sizes with every number zero, mask all
 * ones, labels "tok 0".."tok N-1" (keys "key 0".. when cross).  Returns NULL
 * and fills err on bad sizes or out of memory.  Free with mha_example_free. */
struct mha_example *mha_example_new(int lq, int lk, int d_model, int heads, bool cross,
                                    struct mha_error *err);
void mha_example_free(struct mha_example *ex);

/* Replace label i (of tokens, or of key_tokens when keys is true) with a copy
 * of text (NULL-safe).  Returns 0, or -1 on out of memory. */
int mha_example_set_token(struct mha_example *ex, bool keys, int i, const char *text);

/* Generated numbers: one rule for every example drawn from a seed.
 *
 * The page's example is the step-by-step page's draw: self-attention with 4
 * query and 4 key tokens, d_model 6 and seed 42.  Heads and token labels do
 * not enter the rule: they change no number that is drawn, so `+` on the
 * page's example splits the same numbers in a new way.  Its weights are
 * uniform in [-1, 1), exactly as on the page.
 *
 * Every other generated example draws its weights the way nn.Linear starts
 * them: uniform in [-1/sqrt(d_in), 1/sqrt(d_in)) with d_in = d_model for all
 * four matrices.  Weights of [-1, 1) at every width would make the scores
 * grow with d_model until every softmax row is one-hot, scaled or not;
 * nn.Linear's scale keeps q and k of the same size at any width, so scaling
 * on versus off shows the contrast it has in a real model.
 *
 * Draw order, the same for both: query, key, value (each uniform in
 * [-2, 2)), then W_q, W_k, W_v, W_o, every matrix row by row; biases zero.
 * For self-attention the key and value draws are still made (so the numbers
 * match the page) and used as given. */

/* True when these sizes and seed are the page's example (see above). */
bool mha_generated_is_page(int lq, int lk, int d_model, bool cross, uint32_t seed);
/* The bound b of the generated weights for these sizes and seed: they are
 * uniform in [-b, b).  1 for the page's example, else 1/sqrt(d_model). */
double mha_generated_weight_bound(int lq, int lk, int d_model, bool cross, uint32_t seed);

/* Fill every number from the mulberry32 generator seeded with seed, by the
 * rule above (ex's sizes decide the weights' bound). */
void mha_example_generate(struct mha_example *ex, uint32_t seed);

/* The default example: the step-by-step page's 4 tokens "tok 0".."tok 3",
 * d_model 6, 2 heads, seed 42, no mask, scaled.  Caller frees. */
struct mha_example *mha_example_default(struct mha_error *err);

/* A generated example: tokens (NULL or n_tokens labels; NULL gives
 * "tok 0"..), sizes and seed as mha_example_generate draws them. */
struct mha_example *mha_example_generated(int n_tokens, const char *const *tokens, int d_model,
                                          int heads, uint32_t seed, struct mha_error *err);

/* A generated example whose tokens are the words of text (split on spaces
 * and tabs); NULL or blank text gives the 4 tokens "tok 0".."tok 3".  Errors
 * (too many tokens, bad sizes) name what to change. */
struct mha_example *mha_example_from_words(const char *text, int d_model, int heads, uint32_t seed,
                                           struct mha_error *err);

/* Every stage of one forward pass.  One allocation (arena) holds all the
 * tensors; the pointers point into it.  Built for fixed sizes by
 * mha_trace_new, filled (again and again, no allocation) by mha_forward. */
struct mha_trace {
    int lq, lk, d_model, heads, d_k;
    bool causal, scaled;
    float scale; /* 1/sqrt(d_k) when scaled, else 1 */

    float *q, *k, *v;         /* 1 projection */
    float *qh, *kh, *vh;      /* 3 transpose (H, L, d_k) */
    float *scores;            /* 4 raw q·k (H, lq, lk) */
    float *scaled_scores;     /* 4 scores * scale, masked = -INFINITY (H, lq, lk) */
    float *weights;           /* 4 softmax (H, lq, lk); masked = 0 exactly */
    float *context;           /* 4 weights · v (H, lq, d_k) */
    float *merged;            /* 5 (lq, d) */
    float *output;            /* 6 (lq, d) */
    unsigned char *row_empty; /* (lq): 1 when every key of row i is masked */
    int empty_rows;           /* how many rows had every key masked */

    void *arena;
    size_t arena_bytes;
};

/* Bytes a trace of these sizes needs (0 on overflow). */
size_t mha_trace_bytes(int lq, int lk, int d_model, int heads);

/* Allocate a trace for ex's sizes.  NULL + err on bad sizes, too large a
 * trace (the message gives the size and what to reduce) or out of memory. */
struct mha_trace *mha_trace_new(const struct mha_example *ex, struct mha_error *err);

/* bytes of memory on a 64-byte line at least, for an arena the program
 * keeps (a trace, a model's activations), freed with free(); NULL when there
 * is not enough.  From 4 MiB on it starts on a 2 MiB boundary and the kernel
 * is asked to back it with huge pages.  mha.c. */
void *mha_arena_alloc(size_t bytes);

void mha_trace_free(struct mha_trace *t);

/* Run the forward pass of ex into t (same sizes as t was made for, causal
 * and scaled are taken from ex).  Returns 0, or -1 + err when the sizes do
 * not match.  No allocation. */
int mha_forward(const struct mha_example *ex, struct mha_trace *t, struct mha_error *err);

/* Convenience: new trace + forward.  NULL + err on failure. */
struct mha_trace *mha_run(const struct mha_example *ex, struct mha_error *err);

/* ---- the learned parameters and the per-sequence core (training) ---- */

/* The attention's learned parameters, in the order an example lays them out
 * (w_q w_k w_v w_o (d, d) [out][in], then b_q b_k b_v b_o (d)): one block of
 * mha_params_count(d) floats, so gradients and optimizer state can share its
 * layout.  The views point into someone else's block. */
struct mha_params {
    float *w_q, *w_k, *w_v, *w_o;
    float *b_q, *b_k, *b_v, *b_o;
};

/* 4·d² + 4·d */
size_t mha_params_count(int d_model);
/* Point p into block (mha_params_count(d_model) floats, the order above). */
void mha_params_point(struct mha_params *p, float *block, int d_model);
/* The example's parameters (views into ex's own block, which holds them in
 * the same order). */
struct mha_params mha_example_params(const struct mha_example *ex);

/* Floats a trace of these sizes keeps (its tensors), and bytes of its
 * row_empty flags: the memory mha_trace_point lays a trace into. */
size_t mha_trace_floats(int lq, int lk, int d_model, int heads);
/* Point t's tensors into floats (mha_trace_floats(...) of them) and
 * row_empty into flags (lq bytes); t->arena stays NULL (not owned).  Sizes
 * must pass mha_check_sizes. */
void mha_trace_point(struct mha_trace *t, float *floats, unsigned char *flags, int lq, int lk,
                     int d_model, int heads);

/* The forward pass of one sequence: query (lq, d), key and value (lk, d)
 * through w into every stage of t (sizes as t was pointed/made for).  mask
 * (lq, lk) 1 keep / 0 masked, or NULL for none; causal masks keys j > i.
 * mha_forward is this with the example's arrays.  No allocation. */
void mha_forward_seq(const float *query, const float *key, const float *value,
                     const struct mha_params *w, const unsigned char *mask, bool causal,
                     bool scaled, struct mha_trace *t);

/* Passes 2 to 5 of mha_forward_seq alone: from t->q, t->k, t->v (pass 1,
 * which a caller may compute for many sequences at once) to t->merged.
 * Pass 6 (output = merged·W_oᵀ + b_o) is left to the caller. */
void mha_forward_attend(const unsigned char *mask, bool causal, bool scaled, struct mha_trace *t);

/* The inputs of a trace's attention a caller will work on next: its q, k
 * and v, and going backwards its weights and d merged (NULL: none). */
struct mha_next {
    const struct mha_trace *t;
    const float *d_merged;
};

/* mha_forward_attend as training needs it: the same t->weights and
 * t->merged to the bit, but where the row kernels take the heads
 * (mha_rows_fit) each head is read from its columns of q, k and v and
 * written into its columns of merged, and qh, kh, vh, scores, scaled
 * scores and context are left unwritten (the backward pass reads none of
 * them).  next: as in mha_prefetch_share (going forwards: d_merged NULL). */
void mha_forward_attend_lean(bool causal, bool scaled, struct mha_trace *t, struct mha_next next);

/* Asks for head h's share (1 / t->heads of the rows, and head h's
 * weights) of next's inputs to be brought into the cache, while head h of
 * the trace before is worked on: spread over the heads so, the requests
 * stay within what the processor keeps in flight.  next.t NULL: nothing. */
void mha_prefetch_share(struct mha_next next, int h);

/* The backward twin of mha_forward_attend (passes 5 down to 2): from
 * d_merged (lq, d) WRITE the gradients of the projections d_q (lq, d), d_k
 * and d_v (lk, d).  work: mha_backward_work_floats(...) floats.  next: as
 * in mha_prefetch_share, where the row kernels take the heads. */
void mha_backward_attend(const struct mha_trace *t, const float *d_merged, float *d_q, float *d_k,
                         float *d_v, float *work, struct mha_next next);

/* Floats of scratch mha_backward needs for t's sizes. */
size_t mha_backward_work_floats(int lq, int lk, int d_model, int heads);

/* The backward twin of mha_forward_seq, passes numbered in reverse (6 .. 1):
 * from d_output (lq, d), the gradient of the loss with respect to t->output,
 * ADD the gradients of the parameters into g (layout of w) and WRITE
 * d_query (lq, d), d_key and d_value (lk, d) (three distinct buffers).
 * t is the trace of the forward pass of query, key, value through w.
 * work: mha_backward_work_floats(...) floats.  No allocation. */
void mha_backward(const float *query, const float *key, const float *value,
                  const struct mha_params *w, const struct mha_trace *t, const float *d_output,
                  struct mha_params *g, float *d_query, float *d_key, float *d_value, float *work);

/* Split view (stage 2): element [l][h][j] of q, k or v seen as (L, H, d_k). */
static inline float mha_split_at(const struct mha_trace *t, const float *proj, int l, int h, int j)
{
    return proj[(size_t)l * (size_t)t->d_model + (size_t)h * (size_t)t->d_k + (size_t)j];
}

/* Index helpers for (H, rows, cols) tensors. */
static inline size_t mha_idx3(int rows, int cols, int h, int r, int c)
{
    return ((size_t)h * (size_t)rows + (size_t)r) * (size_t)cols + (size_t)c;
}

/* True when key j is masked for query i (explicit mask or causal j > i). */
bool mha_is_masked(const struct mha_example *ex, int i, int j);

#endif
