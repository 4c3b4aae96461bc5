/* train.h - an attention-only model that trains: one to TRAIN_MAX_LAYERS
 * layers of the explorer's own attention (mha_forward), each adding to the
 * residual stream, with an embedding in front and one linear read-out per
 * output behind, its backward pass, Adam, and the tasks it learns.
 *
 *   x_0      = embedding[tokens] + positions[:T]           (T, d)
 *   x_l+1    = x_l + MHA_l(x_l, x_l, x_l)   for each layer l, its trace kept
 *   r        = x_L                                          (T, d)
 *   logits_k = r·U_kᵀ + bias_k   for each output k          (T, C_k)
 *   loss     = Σ_k mean over targets != -1 of cross-entropy(logits_k, target)
 *              (log-sum-exp minus the target's logit: exact at any logit size)
 *
 * Shaped like llm.c's train_gpt2.c: the model owns one parameter block;
 * the gradients and both Adam moments are blocks of the same layout, so one
 * loop updates them all; named views (struct train_tensors) point into each.
 * The forward pass keeps every activation the backward pass reads (one
 * mha_trace per sequence of the batch is the attention's activation cache).
 * Everything is allocated by train_model_new; no step allocates.  One
 * thread; the same seed gives the same numbers, byte for byte.  Pure C, no
 * I/O: files are read and written by src/io/model_io.h.
 *
 * Parameter block layout (floats, in this order):
 *   embedding (V, d) | positions (T, d) |
 *   for each layer l: w_q w_k w_v w_o (d, d) [out][in], b_q b_k b_v b_o (d)
 *                     (struct mha_params) |
 *   for each output k: unembed (C_k, d), bias (C_k) |
 *   for each layer l: a variant's factors, A (d, R) then B (R, d) of each
 *                     factorised matrix (train_variant.h; none for most)
 * A one-layer model's block is laid out as it always was.
 * Biases that a model does not have (has_bias / outputs[k].has_bias false)
 * stay in the block as zeros; their gradients are kept at zero, so Adam
 * never moves them.
 */
#ifndef MHA_TRAIN_H
#define MHA_TRAIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/mha.h"
#include "engine/mha_error.h"
#include "engine/rng.h"
#include "train/train_fit.h"
#include "train/train_variant.h"

/* Limits of the model and the files that describe it. */
#define TRAIN_MAX_OUTPUTS 4
#define TRAIN_MAX_LAYERS 4
#define TRAIN_MAX_VOCAB 512
#define TRAIN_MAX_CONTEXT 64
#define TRAIN_MAX_D_MODEL 256
#define TRAIN_MAX_BATCH 4096
#define TRAIN_NAME_MAX 32         /* output and task names, with the NUL */
#define TRAIN_LABEL_MAX 64        /* vocabulary labels (UTF-8), with the NUL */
#define TRAIN_DESCRIPTION_MAX 512 /* a task file's description (UTF-8), with the NUL */
/* A model whose parameters and activation cache would take more is refused. */
#define TRAIN_MAX_MODEL_BYTES ((size_t)1 << 30)

/* Defaults of --train. */
#define TRAIN_DEFAULT_D_MODEL 8
#define TRAIN_DEFAULT_HEADS 2
#define TRAIN_DEFAULT_VOCAB 16
#define TRAIN_DEFAULT_CONTEXT 8
#define TRAIN_DEFAULT_STEPS 1500
#define TRAIN_DEFAULT_BATCH 64
#define TRAIN_DEFAULT_LR 0.01f
#define TRAIN_DEFAULT_SEED 1u
/* Side-by-side runs one training may ask for. */
#define TRAIN_MAX_PANES 4

/* A training asked for in plain values (a lesson's scene, lesson_train_ask,
 * gives one; the run driver, trun_setup_task, builds its runs from it). */
struct train_task;
struct train_ask {
    const struct train_task *task; /* a built-in task, or a bundled corpus's (the
                                      caller's, outliving the runs) */
    int d_model, vocab, context, steps, layers;
    float lr;
    uint32_t seed;
    int n_panes;                 /* more than one: side by side */
    int counts[TRAIN_MAX_PANES]; /* each pane's heads, or (compare_layers) its layers */
    bool compare_layers;         /* counts are layer counts, each pane of heads heads */
    bool compare_variants;       /* each pane of counts[i] heads, its block variants[i] */
    struct train_variant variants[TRAIN_MAX_PANES];
    int heads;
};

/* Sequences in the held-out batch accuracies are measured on (fewer when a
 * task has few different sequences: at most a fifth of them). */
#define TRAIN_EVAL_SEQUENCES 1024
/* One row in this many of a task file is held out (at least one). */
#define TRAIN_HELD_OUT_EVERY 5

/* ---- the attention's learned parameters (issue: one named block) ---- */

/* One output head of the model: its name, how many classes it picks from,
 * whether it has a bias. */
struct train_output_spec {
    char name[TRAIN_NAME_MAX];
    int classes;
    bool has_bias;
};

/* Sizes and switches of a model. */
struct train_config {
    int d_model;   /* d; heads divide it */
    int heads;     /* H */
    int vocab;     /* V: token ids 0..V-1 */
    int context;   /* T: longest sequence, rows of positions */
    bool causal;   /* mask keys after the query */
    bool scaled;   /* scores / sqrt(d_k) (default true) */
    bool has_bias; /* attention biases b_q .. b_o are learned */
    int layers;    /* attention layers, 1..TRAIN_MAX_LAYERS (0 is read as 1) */
    int n_outputs;
    struct train_output_spec outputs[TRAIN_MAX_OUTPUTS];
    struct train_variant variant; /* the attention block's design (train_variant.h) */
};

/* Named views into one block laid out as above (parameters, gradients,
 * Adam m or Adam v: the same offsets in each). */
struct train_tensors {
    float *embedding;                         /* (V, d) */
    float *positions;                         /* (T, d) */
    struct mha_params attn[TRAIN_MAX_LAYERS]; /* each layer's w_q .. b_o, see mha.h */
    float *unembed[TRAIN_MAX_OUTPUTS];        /* (C_k, d) */
    float *bias[TRAIN_MAX_OUTPUTS];           /* (C_k) */
    /* a variant's factors of layer l: matrix i's A (d, R) and B (R, d);
     * i 0 and 1 are w_q and w_k (low-rank-qk), 0 is w_o (low-rank-wo) */
    float *factor_a[TRAIN_MAX_LAYERS][2], *factor_b[TRAIN_MAX_LAYERS][2];
};

/* The layers of cfg: cfg->layers, or 1 where it is 0. */
static inline int train_layers(const struct train_config *cfg)
{
    return cfg->layers > 1 ? cfg->layers : 1;
}

/* Floats of a block for cfg (0 when cfg is invalid). */
size_t train_param_count(const struct train_config *cfg);
/* Point the views t into block (train_param_count(cfg) floats). */
void train_tensors_point(struct train_tensors *t, float *block, const struct train_config *cfg);

/* Check cfg: sizes within the limits above, heads divide d_model, every
 * output has 2..TRAIN_MAX_VOCAB classes and a name.  0, or -1 + err naming
 * the field ("heads: 3 do not divide d_model 8 ..."). */
int train_config_check(const struct train_config *cfg, struct mha_error *err);

/* ---- batches ---- */

/* size sequences of len tokens and, per output, a target per token (-1 = no
 * target).  One allocation; free with train_batch_free. */
struct train_batch {
    int size, len, n_outputs;
    int *tokens;                     /* (size, len) */
    int *targets[TRAIN_MAX_OUTPUTS]; /* (size, len) each */
    void *block;
};

struct train_batch *train_batch_new(int size, int len, int n_outputs, struct mha_error *err);
void train_batch_free(struct train_batch *b);

/* ---- the model ---- */

/* How a typed sentence becomes the model's tokens: labels as they are
 * (the tasks and task files), or words as a text model reads them
 * (train_text.h), lower-cased or as written. */
enum train_words { TRAIN_WORDS_NONE, TRAIN_WORDS_LOWER, TRAIN_WORDS_CASE };

struct train_model {
    struct train_config cfg;
    size_t n_params;                 /* floats in each of the four blocks */
    float *params;                   /* the parameter block */
    float *grads;                    /* d loss / d params, same layout */
    float *adam_m, *adam_v;          /* Adam's first and second moments, same layout */
    struct train_tensors p, g, m, v; /* views into the four blocks */
    int adam_t;                      /* Adam steps taken (for bias correction) */
    long step;                       /* training steps taken */

    /* labels: vocab names (V) shown on screen and written to files */
    char (*vocab_names)[TRAIN_LABEL_MAX];
    char task[TRAIN_NAME_MAX];     /* task the model was trained on, "" if none */
    enum train_words words;        /* how a sentence becomes tokens (train_text.h) */
    int sample[TRAIN_MAX_CONTEXT]; /* the sequence the explorer shows */
    int sample_len;                /* 0 = none */

    /* last forward pass */
    int batch_cap;                     /* most sequences one forward pass takes */
    int fwd_size, fwd_len;             /* size and length of the last batch forwarded */
    float loss;                        /* its loss */
    float out_loss[TRAIN_MAX_OUTPUTS]; /* each output's mean cross-entropy */
    int out_count[TRAIN_MAX_OUTPUTS];  /* targets != -1 it counted */

    /* activation cache, (batch_cap, T, ...) each */
    float *x;                        /* each layer's input, layer l's at l·B·T·d: embedding +
                                      * positions first (B, T, d) */
    struct mha_trace *traces;        /* B traces a layer, layer l's at traces + l·B (the
                                      * attention of each sequence), then the sample's */
    float *r;                        /* the last layer's input + its attention (B, T, d) */
    float *probs[TRAIN_MAX_OUTPUTS]; /* softmax of the logits (B, T, C_k) */

    /* scratch of the backward pass, (batch_cap, T, d) each but work (one
     * sequence's attention) */
    float *d_r, *d_x, *d_query, *d_key, *d_value, *work;

    /* the sample sequence's own forward pass (train_model_sample) */
    float *sample_x;                /* the shown layer's input */
    struct mha_trace *sample_trace; /* the shown layer's attention */
    int shown_layer;                /* the layer the sample shows, 0-based (the last unless set) */

    void *arena; /* the single allocation behind everything above */

    /* more backward scratch: d merged (batch_cap, T, d), d logits
     * (batch_cap, T, largest C) */
    float *d_merged, *d_logits;
};

/* A model for cfg able to forward batches of up to batch_cap sequences,
 * every number zero and labels "A", "B", .. (or "t0".. past 26 tokens).  NULL + err on a bad config
 * or out of memory.  Free with train_model_free. */
struct train_model *train_model_new(const struct train_config *cfg, int batch_cap,
                                    struct mha_error *err);
void train_model_free(struct train_model *m);

/* How many models train_model_new has built in this process (a test
 * counts the models a training run builds). */
long train_models_built(void);

/* Fill the parameters from seed (mulberry32): embedding and positions
 * N(0, 1)-like, weights uniform in ±1/sqrt(fan_in) (nn.Linear), biases
 * zero; gradients, moments, adam_t and step cleared. */
void train_model_init(struct train_model *m, uint32_t seed);

/* Copy parameters, labels, task and sample (not the moments) from src to
 * dst of the same config.  0, or -1 + err when the configs differ. */
int train_model_copy_params(struct train_model *dst, const struct train_model *src,
                            struct mha_error *err);

/* The batch's traces are packed tensor by tensor: traces[s].q is
 * traces[0].q + s·T·d, and so for every stage, so the projections (pass 1)
 * and the output projection (pass 6) of the whole batch are one matrix
 * multiply each over batch·T rows; passes 2 to 5 run per sequence
 * (mha_forward_attend).  The sample's trace is separate.
 *
 * Forward b (b->size <= batch_cap, b->len <= context, ids < vocab) and the
 * loss: fills x, traces, r, probs, loss, out_loss, out_count.  -1 + err on
 * a batch that does not fit. */
int train_forward(struct train_model *m, const struct train_batch *b, struct mha_error *err);

/* Gradients of the last forward pass (which must have been of b): sets
 * grads (overwritten, not accumulated).  No allocation. */
void train_backward(struct train_model *m, const struct train_batch *b);

/* One Adam step (β1 0.9, β2 0.999, ε 1e-8, no weight decay) on grads. */
void train_adam_step(struct train_model *m, float lr);

/* forward + backward + Adam on b; returns the loss before the update, or
 * NAN + err when b does not fit. */
float train_step(struct train_model *m, const struct train_batch *b, float lr,
                 struct mha_error *err);

/* Where a step taken in parts (train_step_part) goes on from: all zero
 * before its first part, and again once it is done; forward_only stops
 * it after the loss (a forward pass, as train_forward). */
struct train_step_job {
    int part, i;
    bool forward_only;
    int layer; /* the layer the part is of */
};

/* train_step in parts of a few milliseconds at most (a sequence's heads,
 * an output's read-out, a projection's gradients), asking more(ctx) after
 * each whether to go on: 1 when the step is done (the loss in m->loss, the
 * same numbers as train_step), 0 when it stopped between parts (call again
 * with the same job and b, nothing else run on m meanwhile but what reads
 * its parameters), -1 + err when b does not fit.  more NULL: to the end. */
int train_step_part(struct train_model *m, const struct train_batch *b, float lr,
                    struct train_step_job *job, bool (*more)(void *ctx), void *ctx,
                    struct mha_error *err);

/* Predicted class (argmax of probs) of output k for token t of sequence s
 * of the last forward pass. */
int train_predict(const struct train_model *m, int k, int s, int t);

/* Forward b and count, per output, targets predicted right: right[k] and
 * total[k] (targets != -1).  b may be larger than batch_cap (forwarded in
 * chunks).  Leaves the activation cache holding the last chunk. */
int train_count_right(struct train_model *m, const struct train_batch *b, long *right, long *total,
                      struct mha_error *err);

/* The pieces of train_forward, for passes that change what is between
 * them (train_heads_ablate): the batch check, the passes up to the shown
 * layer's merged heads (m->shown_layer: the last unless set), and the rest
 * from them through the layers above to the loss; b must fit. */
int train_check_batch(const struct train_model *m, const struct train_batch *b,
                      struct mha_error *err);
void train_forward_attention(struct train_model *m, const struct train_batch *b);
void train_forward_readout(struct train_model *m, const struct train_batch *b);
/* Layer l's traces of the batch (B of them; packed, see train_forward). */
static inline struct mha_trace *train_layer_traces(const struct train_model *m, int l)
{
    return m->traces + (size_t)l * (size_t)m->batch_cap;
}
/* The residual stream after layer l of the last forward pass, (B, T, d)
 * as train_forward packs it (sequence s at s·len·d): the next layer's
 * input, or r after the last layer. */
static inline const float *train_layer_residual(const struct train_model *m, int l)
{
    return l + 1 < train_layers(&m->cfg)
               ? m->x + (size_t)(l + 1) * (size_t)m->batch_cap * (size_t)m->cfg.context *
                            (size_t)m->cfg.d_model
               : m->r;
}
/* out = sequences first .. first + size - 1 of b (no copy). */
void train_batch_view(const struct train_batch *b, int first, int size, struct train_batch *out);
/* Add the last forward pass's right answers (of b) to right[k] / total[k]. */
void train_count_forwarded(const struct train_model *m, const struct train_batch *b, long *right,
                           long *total);

/* ---- the sample sequence and the explorer ---- */

/* Set the sample (len <= context, ids < vocab). 0 or -1 + err. */
int train_model_set_sample(struct train_model *m, const int *tokens, int len,
                           struct mha_error *err);

/* Forward the sample sequence through the layers below the shown one and
 * the shown layer's attention into sample_trace, its input into sample_x
 * (no allocation).  The trace's weights (H, T, T) are the per-head maps. */
int train_model_sample_forward(struct train_model *m, struct mha_error *err);

/* Show layer (0-based) of m on the sample from now on (the next
 * train_model_sample_forward).  0, or -1 + err naming the layers there are. */
int train_model_show_layer(struct train_model *m, int layer, struct mha_error *err);

/* Head h's attention weights on the sample, (len, len) row-major, from the
 * last train_model_sample_forward; NULL when h is out of range or no
 * sample was run. */
const float *train_head_weights(const struct train_model *m, int h);

/* The model on its sample as an explorer example, its shown layer: query =
 * key = value = that layer's input (embedding[sample] + positions for the
 * first; a later one's needs train_model_sample_forward first), the layer's
 * w_q .. b_o copied, labels from vocab_names, causal and scaled from cfg.  NULL + err without a
 * sample or on out of memory.  Caller frees with mha_example_free. */
struct mha_example *train_model_to_example(const struct train_model *m, struct mha_error *err);

/* The same into an existing example of matching sizes (lq = lk = sample_len,
 * d_model, heads), without allocating: for a screen that redraws a model
 * being trained.  0, or -1 + err when the sizes differ. */
int train_model_fill_example(const struct train_model *m, struct mha_example *ex,
                             struct mha_error *err);

/* ---- tasks ---- */

/* Rows of example sequences a task samples from (a teacher's own task,
 * read by model_io_load_dataset): rows × len tokens and targets per output.
 * train_dataset_split keeps some rows out of training to measure on. */
struct train_dataset {
    int rows, len, vocab, n_outputs;
    bool causal;
    struct train_output_spec outputs[TRAIN_MAX_OUTPUTS];
    char (*vocab_names)[TRAIN_LABEL_MAX];    /* vocab labels */
    int *tokens;                             /* (rows, len) */
    int *targets[TRAIN_MAX_OUTPUTS];         /* (rows, len), -1 = none */
    char name[TRAIN_NAME_MAX];               /* from the file name */
    char description[TRAIN_DESCRIPTION_MAX]; /* the task in words, "" when the file has none */
    int n_train, n_held; /* rows trained on, rows held out (n_train + n_held <= rows) */
    int *order;          /* (rows): the n_train training rows' indices, then the n_held held out */
    struct train_text *text; /* a text's lines and words (train_text.h), else NULL */
    void *block;
};
void train_dataset_free(struct train_dataset *d);

/* Hold rows of d out of training, into d->order, n_train and n_held: every
 * TRAIN_HELD_OUT_EVERY-th row (rows 4, 9, 14, ... counting from 0), or the
 * last row of a file with fewer rows than that, is held out: accuracy is
 * measured on it and it is never trained on.  Every other row is trained
 * on, except a row whose tokens equal a held-out row's (so no held-out
 * sequence is ever seen in training).  0, or -1 + err: fewer than 2 rows
 * (too few to split), no target at all ("no targets to learn"), an output
 * with no target in the rows kept for training or in the held-out rows, or
 * no row left to train on. */
int train_dataset_split(struct train_dataset *d, struct mha_error *err);

/* A task: what the model is asked to learn. */
struct train_task {
    const char *name;        /* "first-prev" */
    const char *summary;     /* one line for lists and screen titles */
    const char *description; /* in words, for the screen and the summary */
    const char *asks;        /* what it asks at which position (README's and the man page's
                                task lists, scripts/gen-docs) */
    const char *head_work;   /* what a head has to do to answer (README's task table) */
    bool causal;
    int n_outputs;
    const char *output_names[TRAIN_MAX_OUTPUTS];
    int min_vocab, min_context; /* smallest sizes it makes sense for */
    /* classes output k picks from, for this vocab and context */
    int (*classes)(int k, int vocab, int context);
    /* fill b (all b->size sequences of b->len tokens) from rng */
    void (*generate)(const struct train_task *task, struct train_batch *b, int vocab,
                     struct rng *rng);
    /* how many different sequences of len tokens generate draws from
     * (uniformly), as a double: it can be huge.  NULL for a file's task. */
    double (*sequences)(int vocab, int len);
    const struct train_dataset *data; /* a file's task; NULL for built-in */
    /* sizes --train takes for it when the command line gives none (0: the
     * TRAIN_DEFAULT_* above) */
    int default_d_model, default_vocab, default_context, default_steps;
    float default_lr;
};

/* Built-in tasks, in the order lists show them. */
int train_task_count(void);
/* Task by name; NULL when unknown. */
const struct train_task *train_task_find(const char *name);
/* "first-prev, prev, ..." into buf (for error messages). */
const char *train_task_names(char *buf, size_t n);

/* The task of a dataset (sampling its training rows, d->order[0 ..
 * n_train - 1], with replacement): task->data = d, the description the
 * file's own when it has one; d must outlive task. */
void train_task_from_dataset(struct train_task *task, const struct train_dataset *d);

/* Check that the task fits vocab and context (min sizes, dataset vocab and
 * length).  0 or -1 + err naming the option to change. */
int train_task_check(const struct train_task *task, int vocab, int context, struct mha_error *err);

/* A model config for the task: its outputs (classes from vocab and
 * context, biases on), causal from the task, scaled, attention biases on. */
void train_task_config(const struct train_task *task, int d_model, int heads, int vocab,
                       int context, struct train_config *cfg);

/* ---- a training run: what the command line and the screen drive ----
 *
 * A screen that trains live, one thread:
 *   run = train_run_new(task, d, heads, vocab, context, &opt, &err);  (or cli_train_build)
 *   every tick:  train_run_steps(run, k);              k steps, sample trace refreshed
 *                train_head_weights(run->model, h);    (len, len) map of head h
 *                run->last_loss;  now and then train_run_evaluate(run) -> run->accuracy[]
 *   stages:      ex = train_model_to_example(run->model, &err) once, then
 *                train_model_fill_example(run->model, ex, &err) + mha_forward(ex, trace)
 *                after each tick (no allocation)
 *   checkpoints: a second model of the same config and train_model_copy_params
 *   restart:     train_run_free + train_run_new with another seed or head count
 * The same options and the same number of steps give the same numbers, whatever the ticks.
 */

struct train_run_options {
    int steps; /* step limit */
    int batch; /* sequences per step */
    float lr;
    uint32_t seed;                /* init and batches; the held-out set is drawn apart */
    int eval_size;                /* held-out sequences of a generated task: at most this many */
    int layers;                   /* attention layers, 1..TRAIN_MAX_LAYERS */
    struct train_variant variant; /* the attention block (standard: all zero) */
};

/* Owns the model, a training batch refilled every step from its own rng,
 * the fixed held-out batch, and the sample sequence (the first held-out
 * sequence).  Free with train_run_free.
 *
 * Held out means never trained on.  A task file's held-out batch is its
 * held-out rows (train_dataset_split); training draws only the others.  A
 * generated task's held-out batch is opt.eval_size different sequences (at
 * most a fifth of all the task has), drawn with their own rng; a training
 * draw that equals one of them is drawn again, so no held-out sequence is
 * ever trained on, however few sequences the task has. */
struct train_run {
    const struct train_task *task;
    struct train_task own_task; /* copy when the task came from a dataset */
    struct train_run_options opt;
    struct train_model *model;
    struct train_batch *batch, *eval;
    struct rng rng;                    /* draws the training batches */
    float last_loss;                   /* loss of the last step */
    float accuracy[TRAIN_MAX_OUTPUTS]; /* from the last train_run_evaluate */
    float eval_loss;
    int *held_set; /* generated task: hash set of the held-out sequences (eval rows + 1) */
    int held_cap;  /* its slots, a power of two */
    struct train_step_job job; /* a step begun by train_run_step_part */
    float *best_params;        /* the parameters at the best held-out evaluation */
    long best_params_step;     /* their step (-1: none yet) */
};

/* Where an evaluation taken in parts (train_run_evaluate_part) goes on
 * from: all zero before it starts, and again once it is done. */
struct train_eval_job {
    bool begun;
    int s0; /* the held-out chunk it is in */
    struct train_step_job fwd;
    long right[TRAIN_MAX_OUTPUTS], total[TRAIN_MAX_OUTPUTS];
    double loss;
};

/* Defaults: TRAIN_DEFAULT_* above. */
void train_run_options_default(struct train_run_options *o);

/* A run of task (which must outlive it) on a model of d_model/heads/vocab/
 * context, initialised from o->seed, sample forwarded.  NULL + err. */
struct train_run *train_run_new(const struct train_task *task, int d_model, int heads, int vocab,
                                int context, const struct train_run_options *o,
                                struct mha_error *err);
void train_run_free(struct train_run *run);

/* Start run again from step 0 with seed, in the memory it has: the same
 * numbers as train_run_new with that seed.  0, or -1 + err. */
int train_run_reseed(struct train_run *run, uint32_t seed, struct mha_error *err);

/* n more steps (stops at opt.steps); returns steps taken.  The sample's
 * trace is refreshed afterwards. */
int train_run_steps(struct train_run *run, int n);

/* One step in parts (train_step_part, its batch drawn at the first):
 * 1 when it is done (last_loss set, the sample's trace refreshed), 0 when
 * it stopped between parts, -1 at the step limit. */
int train_run_step_part(struct train_run *run, bool (*more)(void *ctx), void *ctx);

/* Accuracy per output (and loss) on the held-out batch into
 * run->accuracy / run->eval_loss. */
void train_run_evaluate(struct train_run *run);

/* The same in parts, a held-out chunk's forward pass in train_step_part's
 * parts: 1 when done, 0 when it stopped between parts (the model's
 * activations are the evaluation's until it is done), -1 when a chunk does
 * not fit (nothing set). */
int train_run_evaluate_part(struct train_run *run, struct train_eval_job *job,
                            bool (*more)(void *ctx), void *ctx);

/* ---- when a run stops: one rule for the screen and the command line ----
 *
 * The held-out accuracy is measured at step 0, every TRAIN_EVAL_EVERY
 * steps and at the step limit; a run's score is its worst output's
 * accuracy.  The run stops when the score has not beaten its best by more
 * than TRAIN_STOP_GAIN for the patience (a fifth of the step limit, at
 * least TRAIN_STOP_PATIENCE_MIN steps): it has settled; else at the limit.
 * The same options give the same model on the screen, in --dump summary and
 * in --save. */
#define TRAIN_EVAL_EVERY 50
#define TRAIN_STOP_GAIN 0.0005f
#define TRAIN_STOP_PATIENCE_MIN 300

enum train_stop { TRAIN_RUNNING, TRAIN_STOP_SETTLED, TRAIN_STOP_LIMIT };

struct train_stopping {
    enum train_stop stop;
    float best;     /* best score so far */
    long best_step; /* when it was first reached */
    long patience;
    struct train_fit fit; /* the held-out loss beside the training loss */
    /* the model a run keeps: its best evaluation's, by the score above for
     * a generated task, by the lowest held-out loss for a run on a file
     * (a text's or a task file's: the measure a language model is judged
     * by, and the one that shows a file learned by heart) */
    long kept_step; /* -1: none yet */
    /* the last step's figures, kept when the run goes back to its best */
    long last_step; /* -1: the run did not go back */
    float last_accuracy[TRAIN_MAX_OUTPUTS];
    float last_eval_loss;
};

/* Before step 0's evaluation, for a step limit of steps. */
void train_stopping_init(struct train_stopping *s, int steps);
/* The worst output's held-out accuracy at the last evaluation. */
float train_run_score(const struct train_run *run);
/* run was just evaluated at its step: keep its best score, and a copy of
 * the parameters of the model it keeps in run->best_params (kept_step),
 * and stop it when it has settled or reached the limit.  Returns s->stop. */
enum train_stop train_stopping_evaluated(struct train_stopping *s, struct train_run *run);
/* A run that has stopped keeps the model of its best held-out evaluation
 * (kept_step): when that was before the last step, the last step's
 * figures go to s
 * (last_step, last_accuracy, last_eval_loss), run's model takes the best
 * parameters and their step back and is evaluated again (the same held-out
 * figures the best evaluation gave) and its sample forwarded.  The choice
 * rests on the held-out evaluations already made, nothing else.  True when
 * the model went back. */
bool train_run_keep_best(struct train_run *run, struct train_stopping *s);
/* The step the run stopped at: the last step trained, whether or not the
 * model went back to its best. */
long train_stopping_last_step(const struct train_stopping *s, const struct train_run *run);
/* Whether the step the run has reached is one to evaluate at. */
bool train_stopping_due(const struct train_run *run);
/* "Stopped at step 550, keeping step 250's model: held-out accuracy at its
 * best there (100.0%) for 300 steps." or "Stopped at the step limit, 1500,
 * keeping step 1500's model: best held-out 62.6% there." ("" while
 * running; a run on a file that keeps another step than the best score's
 * says "(held-out loss lowest, 1.3788)" after the step kept and where the
 * best score was); step is the step the run stopped at. */
void train_stopping_text(const struct train_stopping *s, long step, char *buf, size_t n);
/* The signs that run's file is too small to learn from (train_fit.h), as
 * its evaluations so far show them: 0 for a generated task, whose held-out
 * sequences come from the same endless supply as its training; a text's
 * words counted. */
unsigned train_run_fit_signs(const struct train_stopping *s, const struct train_run *run);
/* The words of run's text (-1: not a text). */
long train_run_text_words(const struct train_run *run);

/* Train run from where it is (a fresh run: step 0, evaluated here) until
 * the rule above stops it, evaluating as the screen does; progress (may be
 * NULL) is called after each evaluation with the step reached; stop_now
 * (may be NULL) is asked before each step and ends the run there when it
 * says so.
 * Returns s->stop (TRAIN_RUNNING when stop_now ended it). */
enum train_stop train_run_until_stopped(struct train_run *run, struct train_stopping *s,
                                        void (*progress)(long step, long limit, void *ctx),
                                        bool (*stop_now)(void *ctx), void *ctx);

/* What the held-out batch is, in words for a summary: "task file rows"
 * or "generated, disjoint from training". */
const char *train_run_held_out_source(const struct train_run *run);

#endif
