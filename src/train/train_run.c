/* train_run.c - batches, and a training run: a model, the batch it is fed
 * every step, the held-out batch it is measured on and the sample the
 * screen shows, all allocated up front. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_text.h"

/* train_held.c */
int train_held_size(const struct train_task *task, int vocab, int len, int eval_size,
                    struct mha_error *err);
int train_held_fill(struct train_run *run, int vocab, struct rng *rng, struct mha_error *err);
void train_held_redraw(struct train_run *run, struct train_batch *b, int vocab);

struct train_batch *train_batch_new(int size, int len, int n_outputs, struct mha_error *err)
{
    if (size < 1 || size > 1 << 20 || len < 1 || len > TRAIN_MAX_CONTEXT || n_outputs < 1 ||
        n_outputs > TRAIN_MAX_OUTPUTS) {
        mha_error_set(err, "a batch of %d sequences of %d tokens with %d outputs is not possible",
                      size, len, n_outputs);
        return NULL;
    }
    const size_t cells = (size_t)size * (size_t)len;
    const size_t bytes =
        sizeof(struct train_batch) + 16 + cells * sizeof(int) * (size_t)(1 + n_outputs);
    char *block = calloc(1, bytes);
    if (!block) {
        mha_error_set(err, "out of memory allocating a batch of %d sequences", size);
        return NULL;
    }
    struct train_batch *b = (struct train_batch *)(void *)block;
    b->block = block;
    b->size = size;
    b->len = len;
    b->n_outputs = n_outputs;
    int *p = (int *)(void *)(block + ((sizeof *b + 15u) & ~(size_t)15u));
    b->tokens = p, p += cells;
    for (int k = 0; k < n_outputs; k++)
        b->targets[k] = p, p += cells;
    return b;
}

void train_batch_free(struct train_batch *b)
{
    if (b)
        free(b->block);
}

void train_dataset_free(struct train_dataset *d)
{
    if (d)
        free(d->block);
}

void train_run_options_default(struct train_run_options *o)
{
    o->steps = TRAIN_DEFAULT_STEPS;
    o->batch = TRAIN_DEFAULT_BATCH;
    o->lr = TRAIN_DEFAULT_LR;
    o->seed = TRAIN_DEFAULT_SEED;
    o->eval_size = TRAIN_EVAL_SEQUENCES;
    o->layers = 1;
    o->variant = (struct train_variant){TRAIN_VARIANT_STANDARD, 0};
}

/* The sample the screen shows: the first held-out sequence, a text's
 * without its padding. */
static int sample_len(const struct train_run *run)
{
    const struct train_dataset *d = run->task->data;
    if (d && d->text)
        return d->text->row_len[d->order[d->n_train]];
    return run->eval->len;
}

/* Streams of the generator kept apart: init, training batches, held-out. */
#define RUN_STREAM_BATCHES 0x9E3779B9u
#define RUN_STREAM_EVAL 0x85EBCA6Bu

struct train_run *train_run_new(const struct train_task *task, int d_model, int heads, int vocab,
                                int context, const struct train_run_options *o,
                                struct mha_error *err)
{
    if (train_task_check(task, vocab, context, err))
        return NULL;
    if (o->steps < 0 || o->batch < 1 || o->batch > TRAIN_MAX_BATCH || !(o->lr > 0.0f) ||
        !isfinite(o->lr) || o->eval_size < 1) {
        mha_error_set(err, "training options out of range (steps %d, batch %d, lr %g)", o->steps,
                      o->batch, (double)o->lr);
        return NULL;
    }
    struct train_run *run = calloc(1, sizeof *run);
    if (!run) {
        mha_error_set(err, "out of memory");
        return NULL;
    }
    run->opt = *o;
    if (task->data) {
        run->own_task = *task;
        run->task = &run->own_task;
    } else {
        run->task = task;
    }
    struct train_config cfg;
    train_task_config(task, d_model, heads, vocab, context, &cfg);
    cfg.layers = o->layers;
    cfg.variant = o->variant;
    const int len = task->data ? task->data->len : context;
    const int held = train_held_size(task, vocab, len, o->eval_size, err);
    if (held < 1)
        goto fail;
    run->model = train_model_new(&cfg, o->batch, err);
    if (!run->model)
        goto fail;
    run->best_params = malloc(run->model->n_params * sizeof *run->best_params);
    if (!run->best_params) {
        mha_error_set(err, "out of memory");
        goto fail;
    }
    run->best_params_step = -1;
    run->batch = train_batch_new(o->batch, len, cfg.n_outputs, err);
    run->eval = run->batch ? train_batch_new(held, len, cfg.n_outputs, err) : NULL;
    if (!run->eval)
        goto fail;
    struct train_model *m = run->model;
    snprintf(m->task, sizeof m->task, "%s", task->name);
    if (task->data)
        memcpy(m->vocab_names, task->data->vocab_names, (size_t)vocab * TRAIN_LABEL_MAX);
    if (task->data && task->data->text)
        m->words = task->data->text->lowercase ? TRAIN_WORDS_LOWER : TRAIN_WORDS_CASE;
    train_model_init(m, o->seed);
    rng_init(&run->rng, o->seed ^ RUN_STREAM_BATCHES);
    struct rng held_rng;
    rng_init(&held_rng, o->seed ^ RUN_STREAM_EVAL);
    if (train_held_fill(run, vocab, &held_rng, err))
        goto fail;
    if (train_model_set_sample(m, run->eval->tokens, sample_len(run), err) ||
        train_model_sample_forward(m, err))
        goto fail;
    run->last_loss = NAN;
    return run;
fail:
    train_run_free(run);
    return NULL;
}

int train_run_reseed(struct train_run *run, uint32_t seed, struct mha_error *err)
{
    struct train_model *m = run->model;
    run->opt.seed = seed;
    train_model_init(m, seed);
    rng_init(&run->rng, seed ^ RUN_STREAM_BATCHES);
    struct rng held_rng;
    rng_init(&held_rng, seed ^ RUN_STREAM_EVAL);
    if (train_held_fill(run, m->cfg.vocab, &held_rng, err) ||
        train_model_set_sample(m, run->eval->tokens, sample_len(run), err) ||
        train_model_sample_forward(m, err))
        return -1;
    run->last_loss = NAN;
    run->eval_loss = 0.0f;
    run->best_params_step = -1;
    memset(run->accuracy, 0, sizeof run->accuracy);
    run->job = (struct train_step_job){0, 0, false, 0}; /* a step begun is dropped */
    return 0;
}

void train_run_free(struct train_run *run)
{
    if (!run)
        return;
    train_model_free(run->model);
    train_batch_free(run->batch);
    train_batch_free(run->eval);
    free(run->best_params);
    free(run->held_set);
    free(run);
}

int train_run_step_part(struct train_run *run, bool (*more)(void *ctx), void *ctx)
{
    struct train_model *m = run->model;
    if (run->job.part == 0 && run->job.i == 0) { /* a new step: its batch */
        if (m->step >= run->opt.steps)
            return -1;
        run->task->generate(run->task, run->batch, m->cfg.vocab, &run->rng);
        train_held_redraw(run, run->batch, m->cfg.vocab);
    }
    const int rc = train_step_part(m, run->batch, run->opt.lr, &run->job, more, ctx, NULL);
    if (rc == 0)
        return 0;
    run->job = (struct train_step_job){0, 0, false, 0};
    run->last_loss = rc > 0 ? m->loss : NAN;
    train_model_sample_forward(m, NULL);
    return 1;
}

int train_run_steps(struct train_run *run, int n)
{
    int done = 0;
    while (done < n && train_run_step_part(run, NULL, NULL) == 1)
        done++;
    if (done == 0)
        train_model_sample_forward(run->model, NULL);
    return done;
}

int train_run_evaluate_part(struct train_run *run, struct train_eval_job *job,
                            bool (*more)(void *ctx), void *ctx)
{
    struct train_model *m = run->model;
    const int K = m->cfg.n_outputs;
    if (!job->begun)
        *job = (struct train_eval_job){.begun = true, .fwd = {0, 0, true}};
    /* every held-out chunk forwarded once: its right answers and its loss */
    while (job->s0 < run->eval->size) {
        struct train_batch chunk;
        const int left = run->eval->size - job->s0;
        train_batch_view(run->eval, job->s0, left < m->batch_cap ? left : m->batch_cap, &chunk);
        const int rc = train_step_part(m, &chunk, 0.0f, &job->fwd, more, ctx, NULL);
        if (rc < 0) {
            *job = (struct train_eval_job){0};
            return -1;
        }
        if (rc == 0)
            return 0;
        train_count_forwarded(m, &chunk, job->right, job->total);
        job->loss += (double)m->loss * chunk.size;
        job->s0 += chunk.size;
        if (job->s0 < run->eval->size && more && !more(ctx))
            return 0;
    }
    run->eval_loss = (float)(job->loss / run->eval->size);
    for (int k = 0; k < K; k++)
        run->accuracy[k] = job->total[k] ? (float)job->right[k] / (float)job->total[k] : 0.0f;
    *job = (struct train_eval_job){0};
    return 1;
}

void train_run_evaluate(struct train_run *run)
{
    struct train_eval_job job = {0};
    train_run_evaluate_part(run, &job, NULL, NULL);
}

const char *train_run_held_out_source(const struct train_run *run)
{
    return run->task->data ? "task file rows" : "generated, disjoint from training";
}
