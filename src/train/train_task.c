/* train_task.c - the tasks a model can be trained on: each a generator of
 * random batches from an rng, the classes of its outputs, and what it asks
 * in words.  Also the task of a teacher's own file (rows sampled into
 * batches). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "train/train.h"

static int rand_below(struct rng *r, int n)
{
    const int v = (int)(rng_next(r) * (double)n);
    return v < n ? v : n - 1;
}

static int classes_vocab(int k, int vocab, int context)
{
    (void)k, (void)context;
    return vocab;
}

static int classes_context(int k, int vocab, int context)
{
    (void)k, (void)vocab;
    return context;
}

/* Different sequences a task draws from (uniformly), for its held-out set. */
static double sequences_any(int vocab, int len)
{
    return pow((double)vocab, (double)len);
}

/* find-copy: len - 1 different tokens in order, then a copy of one of them. */
static double sequences_find_copy(int vocab, int len)
{
    double n = len > 1 ? (double)(len - 1) : 1.0;
    for (int t = 0; t < len - 1; t++)
        n *= (double)(vocab - t);
    return n;
}

static int *row_of(int *a, const struct train_batch *b, int s)
{
    return a + (size_t)s * (size_t)b->len;
}

/* first-prev: at t >= 1, "first" = token 0, "prev" = token t-1. */
static void gen_first_prev(const struct train_task *task, struct train_batch *b, int vocab,
                           struct rng *r)
{
    (void)task;
    for (int s = 0; s < b->size; s++) {
        int *tok = row_of(b->tokens, b, s);
        int *first = row_of(b->targets[0], b, s), *prev = row_of(b->targets[1], b, s);
        for (int t = 0; t < b->len; t++)
            tok[t] = rand_below(r, vocab);
        first[0] = prev[0] = -1;
        for (int t = 1; t < b->len; t++) {
            first[t] = tok[0];
            prev[t] = tok[t - 1];
        }
    }
}

/* prev: at t >= 1, the token at t-1. */
static void gen_prev(const struct train_task *task, struct train_batch *b, int vocab, struct rng *r)
{
    (void)task;
    for (int s = 0; s < b->size; s++) {
        int *tok = row_of(b->tokens, b, s), *prev = row_of(b->targets[0], b, s);
        for (int t = 0; t < b->len; t++)
            tok[t] = rand_below(r, vocab);
        prev[0] = -1;
        for (int t = 1; t < b->len; t++)
            prev[t] = tok[t - 1];
    }
}

/* find-copy: tokens 0..T-2 all different, the last one repeats one of them;
 * at the last position "where" = the position of the earlier copy. */
static void gen_find_copy(const struct train_task *task, struct train_batch *b, int vocab,
                          struct rng *r)
{
    (void)task;
    const int T = b->len;
    for (int s = 0; s < b->size; s++) {
        int *tok = row_of(b->tokens, b, s), *where = row_of(b->targets[0], b, s);
        for (int t = 0; t < T - 1; t++) {
            /* draw until the token is new in this sequence (vocab >= T) */
            int v, dup;
            do {
                v = rand_below(r, vocab);
                dup = 0;
                for (int u = 0; u < t; u++)
                    dup |= tok[u] == v;
            } while (dup);
            tok[t] = v;
            where[t] = -1;
        }
        const int p = T > 1 ? rand_below(r, T - 1) : 0;
        tok[T - 1] = tok[p];
        where[T - 1] = T > 1 ? p : -1;
    }
}

/* Symbols majority draws from: the first few of the vocabulary. */
#define MAJORITY_SYMBOLS 3

static double sequences_majority(int vocab, int len)
{
    return pow((double)(vocab < MAJORITY_SYMBOLS ? vocab : MAJORITY_SYMBOLS), (double)len);
}

/* majority: tokens from the first three of the vocabulary; at every t the
 * most common token of positions 0..t (no target when two tie). */
static void gen_majority(const struct train_task *task, struct train_batch *b, int vocab,
                         struct rng *r)
{
    (void)task;
    const int n = vocab < MAJORITY_SYMBOLS ? vocab : MAJORITY_SYMBOLS;
    for (int s = 0; s < b->size; s++) {
        int *tok = row_of(b->tokens, b, s), *most = row_of(b->targets[0], b, s);
        int count[MAJORITY_SYMBOLS] = {0};
        for (int t = 0; t < b->len; t++) {
            tok[t] = rand_below(r, n);
            count[tok[t]]++;
            int best = 0, ties = 0;
            for (int j = 1; j < n; j++)
                if (count[j] > count[best])
                    best = j, ties = 0;
                else if (count[j] == count[best])
                    ties = 1;
            most[t] = ties ? -1 : best;
        }
    }
}

/* The longest stretch induction repeats in len tokens of a vocabulary of
 * vocab: two copies fit, and its tokens are at most half the vocabulary
 * (the other half fills the rest).  At least 2. */
static int induction_longest(int vocab, int len)
{
    int n = len / 4 < vocab / 4 ? len / 4 : vocab / 4;
    return n < 2 ? 2 : n;
}

/* induction: random tokens in which a stretch of 2 or more different tokens
 * stands twice, at random places and of a random length; no token of the
 * stretch stands anywhere else.  In the second copy, "next" is the token
 * that followed the same token in the first (all but the copy's last). */
static void gen_induction(const struct train_task *task, struct train_batch *b, int vocab,
                          struct rng *r)
{
    (void)task;
    const int T = b->len;
    for (int s = 0; s < b->size; s++) {
        int *tok = row_of(b->tokens, b, s), *next = row_of(b->targets[0], b, s);
        const int n = 2 + rand_below(r, induction_longest(vocab, T) - 1);
        const int first = rand_below(r, T - 2 * n + 1);
        const int second = first + n + rand_below(r, T - 2 * n - first + 1);
        bool used[TRAIN_MAX_VOCAB] = {false};
        for (int i = 0; i < n; i++) { /* the stretch: n different tokens */
            int v;
            do
                v = rand_below(r, vocab);
            while (used[v]);
            used[v] = true;
            tok[first + i] = tok[second + i] = v;
        }
        for (int t = 0; t < T; t++) {
            next[t] = -1;
            if ((t >= first && t < first + n) || (t >= second && t < second + n))
                continue;
            int v; /* the rest: any token but the stretch's */
            do
                v = rand_below(r, vocab);
            while (used[v]);
            tok[t] = v;
        }
        for (int i = 0; i + 1 < n; i++)
            next[second + i] = tok[second + i + 1];
    }
}

static const struct train_task tasks[] = {
    {.name = "first-prev",
     .summary = "name the first token and the previous token",
     .description = "At every position after the first, say which token came first in the "
                    "sequence and which token came just before this one: two places to look "
                    "at, a head for each, or one head that splits its weight between them.",
     .asks = "at t ≥ 1: the token at position 0, and the token at t − 1",
     .head_work = "two places at once: one head per place",
     .causal = true,
     .n_outputs = 2,
     .output_names = {"first", "prev"},
     .min_vocab = 2,
     .min_context = 3,
     .classes = classes_vocab,
     .generate = gen_first_prev,
     .sequences = sequences_any},
    {.name = "prev",
     .summary = "name the previous token",
     .description = "At every position after the first, say which token came just before "
                    "this one: a head that looks one step back by position.",
     .asks = "at t ≥ 1: the token at t − 1",
     .head_work = "look one step back, by position",
     .causal = true,
     .n_outputs = 1,
     .output_names = {"prev"},
     .min_vocab = 2,
     .min_context = 2,
     .classes = classes_vocab,
     .generate = gen_prev,
     .sequences = sequences_any},
    {.name = "find-copy",
     .summary = "find where the last token appeared before",
     .description = "Every token but the last is different; the last repeats one of them. "
                    "At the last position, say where its earlier copy stands: a head that "
                    "looks by content (this token), not by position.",
     .asks = "the last token repeats one earlier token (the others all differ): "
             "where is that copy?",
     .head_work = "look by content, not by position",
     .causal = true,
     .n_outputs = 1,
     .output_names = {"where"},
     .min_vocab = 0, /* checked against the context: vocab >= context - 1 */
     .min_context = 3,
     .classes = classes_context,
     .generate = gen_find_copy,
     .sequences = sequences_find_copy},
    {.name = "majority",
     .summary = "name the most common token so far",
     .description = "Tokens come from the first three of the vocabulary. At every position, "
                    "say which token has appeared most often so far (ties are not asked): "
                    "a head that spreads its attention evenly and counts.",
     .asks = "tokens from the first three of the vocabulary: the most common so far "
             "(ties not asked)",
     .head_work = "spread attention evenly and count",
     .causal = true,
     .n_outputs = 1,
     .output_names = {"most"},
     .min_vocab = MAJORITY_SYMBOLS,
     .min_context = 2,
     .classes = classes_vocab,
     .generate = gen_majority,
     .sequences = sequences_majority},
    {.name = "induction",
     .summary = "continue a stretch of tokens that repeats",
     .description = "A stretch of tokens stands twice among random ones, at random places. "
                    "In the second copy, say the next token: find where this token stood "
                    "before and copy what came after it. One head marks each token's "
                    "predecessor, a second layer's head looks for it: two layers.",
     .asks = "a stretch of different tokens stands twice at random places among "
             "others: in the second copy, the token that came next in the first",
     .head_work = "two layers (`--layers 2`): a head that marks each token's predecessor, "
                  "and a later head that looks for it",
     .causal = true,
     .n_outputs = 1,
     .output_names = {"next"},
     .min_vocab = 6,
     .min_context = 6,
     .classes = classes_vocab,
     .generate = gen_induction,
     .sequences = sequences_any,
     /* room for a stretch of up to 4 tokens twice among others, and for two
      * layers' heads to find it within a few hundred steps; at lr 0.01 two
      * layers that had found it lost some of it again (scripts/training-figures
      * has the runs) */
     .default_d_model = 32,
     .default_vocab = 24,
     .default_context = 16,
     .default_steps = 3000,
     .default_lr = 0.005f},
};

#define N_TASKS ((int)(sizeof tasks / sizeof tasks[0]))

int train_task_count(void)
{
    return N_TASKS;
}

const struct train_task *train_task_find(const char *name)
{
    for (int i = 0; name && i < N_TASKS; i++)
        if (!strcmp(tasks[i].name, name))
            return &tasks[i];
    return NULL;
}

const char *train_task_names(char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (int i = 0; i < N_TASKS && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", tasks[i].name);
    return buf;
}

/* A dataset's batches: its training rows (never the held-out ones) drawn
 * uniformly, with replacement. */
static void gen_dataset(const struct train_task *task, struct train_batch *b, int vocab,
                        struct rng *r)
{
    (void)vocab;
    const struct train_dataset *d = task->data;
    for (int s = 0; s < b->size; s++) {
        const size_t row = (size_t)d->order[rand_below(r, d->n_train)] * (size_t)d->len;
        memcpy(row_of(b->tokens, b, s), d->tokens + row, (size_t)d->len * sizeof(int));
        for (int k = 0; k < d->n_outputs; k++)
            memcpy(row_of(b->targets[k], b, s), d->targets[k] + row, (size_t)d->len * sizeof(int));
    }
}

static int classes_dataset(int k, int vocab, int context)
{
    (void)k, (void)vocab, (void)context;
    return 0; /* read from task->data by train_task_config */
}

void train_task_from_dataset(struct train_task *task, const struct train_dataset *d)
{
    memset(task, 0, sizeof *task);
    task->name = d->name;
    task->summary = "the examples of a task file";
    task->description = d->description[0]
                            ? d->description
                            : "Sequences and targets from a file: the model learns whatever rule "
                              "the examples follow.";
    task->causal = d->causal;
    task->n_outputs = d->n_outputs;
    for (int k = 0; k < d->n_outputs; k++)
        task->output_names[k] = d->outputs[k].name;
    task->min_vocab = d->vocab;
    task->min_context = d->len;
    task->classes = classes_dataset;
    task->generate = gen_dataset;
    task->data = d;
}

int train_task_check(const struct train_task *task, int vocab, int context, struct mha_error *err)
{
    if (task->data) {
        if (vocab != task->data->vocab)
            return mha_error_set(err, "--vocab %d: the task file '%s' has %d tokens", vocab,
                                 task->name, task->data->vocab);
        if (context < task->data->len)
            return mha_error_set(err,
                                 "--context %d: the sequences of '%s' have %d tokens; use "
                                 "--context %d or more",
                                 context, task->name, task->data->len, task->data->len);
        return 0;
    }
    if (context < task->min_context)
        return mha_error_set(err, "--context %d: task %s needs sequences of %d tokens or more",
                             context, task->name, task->min_context);
    const int min_vocab = task->generate == gen_find_copy ? context - 1 : task->min_vocab;
    if (vocab < min_vocab)
        return mha_error_set(err, "--vocab %d: task %s needs a vocabulary of %d or more here",
                             vocab, task->name, min_vocab);
    return 0;
}

void train_task_config(const struct train_task *task, int d_model, int heads, int vocab,
                       int context, struct train_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->d_model = d_model;
    cfg->heads = heads;
    cfg->vocab = vocab;
    cfg->context = context;
    cfg->causal = task->causal;
    cfg->scaled = true;
    cfg->has_bias = true;
    cfg->n_outputs = task->n_outputs;
    for (int k = 0; k < task->n_outputs; k++) {
        snprintf(cfg->outputs[k].name, TRAIN_NAME_MAX, "%s", task->output_names[k]);
        cfg->outputs[k].classes =
            task->data ? task->data->outputs[k].classes : task->classes(k, vocab, context);
        cfg->outputs[k].has_bias = true;
    }
}
