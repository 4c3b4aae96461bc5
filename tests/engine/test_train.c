/* test_train.c - the training engine: loss and every gradient against
 * PyTorch autograd (tests/reference/generate_train.py), against finite
 * differences, the trained model shown by the explorer's own forward pass,
 * the tasks' accuracies, determinism, and bad model and batch files. */
#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ref_compare.h"
#include "json_max.h"
#include "engine/mat.h"
#include "io/model_io.h"
#include "train/train.h"
#include "train/train_text.h"
#include "train/train_heads.h"
#include "test_tmp.h"

static const char *const cases[] = {
    "causal_2heads_two_outputs",
    "plain_1head_unscaled_nobias",
    "causal_4heads_short_three_outputs",
    "plain_2heads_nobias_half_targets",
    "causal_2heads_empty_output",
    "causal_3heads_20tokens",
    "plain_1head_64tokens",
    "causal_4heads_dk3_9tokens",
    /* logits in the thousands: against torch only (a float loss that large
     * is too coarse for finite differences) */
    "large_logits_2heads_two_outputs",
    "large_logits_1head_plain",
    /* a language model (next-word targets, padded rows, 300 words) */
    "text_next_word_vocab300",
    /* two to four layers, each adding to the residual stream */
    "layers2_causal_2heads",
    "layers3_plain_nobias",
    "layers4_causal_4heads_unscaled",
    "layers2_causal_20tokens",
};
/* cases[0 .. N_SMALL_CASES - 1] take finite differences too */
#define N_SMALL_CASES 8

static char *data_path(const char *name, const char *kind)
{
    const char *dir = getenv("MHA_TEST_DATA");
    ck_assert_ptr_nonnull(dir);
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/train/%s.%s.json", dir, name, kind);
    return buf;
}

/* A model and its batch from the reference files, forwarded and backwarded. */
static struct train_model *load_case(const char *name, struct train_batch **batch)
{
    struct mha_error err;
    struct train_model *probe = model_io_load(data_path(name, "model"), 1, &err);
    ck_assert_msg(probe != NULL, "%s: %s", name, err.text);
    *batch = model_io_load_batch(data_path(name, "batch"), probe, &err);
    ck_assert_msg(*batch != NULL, "%s: %s", name, err.text);
    struct train_model *m = train_model_new(&probe->cfg, (*batch)->size, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(train_model_copy_params(m, probe, &err), 0);
    train_model_free(probe);
    return m;
}

/* Absolute part of compare's tolerance: a float sum's rounding grows with
 * the size of its terms, so 2e-5 times the largest gradient of the case
 * (at least 1).  Set by test_against_torch. */
static double abs_tol = 2e-5;

/* Every number of ref against n floats at got (ref_compare.h). */
static void compare(json_t *ref, const float *got, size_t n, const char *what)
{
    ref_compare(ref, got, n, what, abs_tol);
}

START_TEST(test_against_torch)
{
    const char *name = cases[_i];
    struct train_batch *b;
    struct train_model *m = load_case(name, &b);
    struct mha_error err;
    ck_assert_int_eq(train_forward(m, b, &err), 0);
    train_backward(m, b);
    json_t *ref = json_load_file(data_path(name, "grad"), 0, NULL);
    ck_assert_ptr_nonnull(ref);
    const double loss = json_number_value(json_object_get(ref, "loss"));
    ck_assert_msg(fabs(m->loss - loss) <= 1e-5 * fabs(loss), "%s: loss %.9g, torch %.9g", name,
                  (double)m->loss, loss);
    json_t *g = json_object_get(ref, "grad");
    abs_tol = 2e-5 * fmax(1.0, tree_max_abs(g));
    const struct train_config *c = &m->cfg;
    const size_t d = (size_t)c->d_model;
    compare(json_object_get(g, "embedding"), m->g.embedding, (size_t)c->vocab * d, "embedding");
    compare(json_object_get(g, "positions"), m->g.positions, (size_t)c->context * d, "positions");
    json_t *layers = json_object_get(g, "layers");
    ck_assert_int_eq(layers ? (int)json_array_size(layers) : 1, train_layers(c));
    for (int l = 0; l < train_layers(c); l++) {
        const struct mha_params *a = &m->g.attn[l];
        json_t *gl = layers ? json_array_get(layers, (size_t)l) : g;
        const float *w[8] = {a->w_q, a->w_k, a->w_v, a->w_o, a->b_q, a->b_k, a->b_v, a->b_o};
        const char *names[8] = {"w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"};
        for (int i = 0; i < 8; i++) {
            json_t *ref_t = json_object_get(gl, names[i]);
            ck_assert_msg((ref_t != NULL) == (i < 4 || c->has_bias), "%s: layer %d %s", name, l,
                          names[i]);
            if (ref_t)
                compare(ref_t, w[i], i < 4 ? d * d : d, names[i]);
        }
    }
    json_t *outs = json_object_get(g, "outputs");
    ck_assert_uint_eq(json_array_size(outs), (size_t)c->n_outputs);
    for (int k = 0; k < c->n_outputs; k++) {
        json_t *o = json_array_get(outs, (size_t)k);
        const size_t C = (size_t)c->outputs[k].classes;
        compare(json_object_get(o, "unembed"), m->g.unembed[k], C * d, "unembed");
        ck_assert((json_object_get(o, "bias") != NULL) == c->outputs[k].has_bias);
        if (c->outputs[k].has_bias)
            compare(json_object_get(o, "bias"), m->g.bias[k], C, "bias");
    }
    json_decref(ref);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

/* Central differences of the loss, parameter by parameter, in double on
 * top of the float forward pass: every gradient the model has. */
START_TEST(test_finite_differences)
{
    const char *name = cases[_i];
    struct train_batch *b;
    struct train_model *m = load_case(name, &b);
    struct mha_error err;
    ck_assert_int_eq(train_forward(m, b, &err), 0);
    train_backward(m, b);
    const float h = 1e-2f;
    int checked = 0;
    for (size_t i = 0; i < m->n_params; i++) {
        const float keep = m->params[i];
        m->params[i] = keep + h;
        train_forward(m, b, &err);
        const double up = m->loss;
        m->params[i] = keep - h;
        train_forward(m, b, &err);
        const double down = m->loss;
        m->params[i] = keep;
        const double fd = (up - down) / (2.0 * (double)h);
        const double g = m->grads[i];
        /* biases the model lacks: zero gradient whatever the numbers say */
        if (g == 0.0 && fabs(fd) > 1e-3)
            continue;
        ck_assert_msg(fabs(fd - g) <= 2e-3 + 2e-2 * fabs(g),
                      "%s: parameter %zu: backward %.6g, finite differences %.6g", name, i, g, fd);
        checked++;
    }
    ck_assert_int_gt(checked, (int)(m->n_params / 2));
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

START_TEST(test_missing_biases_stay_zero)
{
    /* a model without biases: their gradients are zero, Adam leaves them */
    struct train_batch *b;
    struct train_model *m = load_case("plain_1head_unscaled_nobias", &b);
    struct mha_error err;
    for (int s = 0; s < 3; s++)
        ck_assert(isfinite(train_step(m, b, 0.05f, &err)));
    for (int i = 0; i < 4 * m->cfg.d_model; i++)
        ck_assert_float_eq(m->p.attn[0].b_q[i], 0.0f);
    for (int j = 0; j < m->cfg.outputs[0].classes; j++)
        ck_assert_float_eq(m->p.bias[0][j], 0.0f);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

START_TEST(test_adam_lowers_the_loss)
{
    struct train_batch *b;
    struct train_model *m = load_case("causal_2heads_two_outputs", &b);
    struct mha_error err;
    const float first = train_step(m, b, 0.01f, &err);
    float last = first;
    for (int s = 0; s < 50; s++)
        last = train_step(m, b, 0.01f, &err);
    ck_assert_msg(last < 0.5f * first, "loss %g -> %g", (double)first, (double)last);
    ck_assert_int_eq(m->adam_t, 51);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

/* The explorer's stages of the trained model are the training's own
 * attention: the example of the sample, run through mha_forward, gives the
 * sample trace's numbers bit for bit. */
START_TEST(test_example_is_the_model)
{
    struct train_batch *b;
    struct train_model *m = load_case("causal_2heads_two_outputs", &b);
    struct mha_error err;
    ck_assert_int_eq(train_model_set_sample(m, b->tokens, b->len, &err), 0);
    ck_assert_int_eq(train_forward(m, b, &err), 0);
    ck_assert_int_eq(train_model_sample_forward(m, &err), 0);
    struct mha_example *ex = train_model_to_example(m, &err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_str_eq(ex->tokens[0], m->vocab_names[b->tokens[0]]);
    ck_assert(ex->causal);
    struct mha_trace *t = mha_run(ex, &err);
    ck_assert_ptr_nonnull(t);
    const size_t L = (size_t)b->len, d = (size_t)m->cfg.d_model, H = (size_t)m->cfg.heads;
    /* the sample trace and the explorer's trace: the same calls, bit for bit */
    ck_assert_mem_eq(t->weights, m->sample_trace->weights, H * L * L * sizeof(float));
    ck_assert_mem_eq(t->output, m->sample_trace->output, L * d * sizeof(float));
    /* sequence 0 of the batch: the projections ran over the whole batch in
     * one multiply, which may round in another order */
    for (size_t i = 0; i < L * d; i++)
        ck_assert_float_eq_tol(t->output[i], m->traces[0].output[i],
                               1e-5f * (1.0f + fabsf(t->output[i])));
    for (size_t i = 0; i < H * L * L; i++)
        ck_assert_float_eq_tol(t->weights[i], m->traces[0].weights[i], 1e-5f);
    for (int h = 0; h < m->cfg.heads; h++)
        ck_assert_mem_eq(train_head_weights(m, h), t->weights + (size_t)h * L * L,
                         L * L * sizeof(float));
    mha_trace_free(t);
    mha_example_free(ex);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

/* got has the sizes and the numbers of want (read from a file want was
 * saved to: its labels are "tok0".. as the reference cases' are). */
static void assert_same_model(const struct train_model *got, const struct train_model *want)
{
    ck_assert_int_eq(memcmp(&got->cfg, &want->cfg, sizeof want->cfg), 0);
    ck_assert_mem_eq(got->params, want->params, want->n_params * sizeof(float));
    ck_assert_str_eq(got->vocab_names[3], "tok3");
}

START_TEST(test_save_load_round_trip)
{
    struct train_batch *b;
    struct train_model *m = load_case("causal_4heads_short_three_outputs", &b);
    struct mha_error err;
    char path[256];
    test_tmp_template(path, sizeof path, "mha-train-model");
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(model_io_save(m, path, &err), 0);
    struct train_model *back = model_io_load(path, 1, &err);
    ck_assert_msg(back != NULL, "%s", err.text);
    assert_same_model(back, m);
    remove(path);
    train_model_free(back);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

/* model_io_load_kept: the same numbers as a read of the file; a file
 * written again under the same name is read again; with keeping off, every
 * read is a read. */
START_TEST(test_kept_model)
{
    struct train_batch *b;
    struct train_model *m = load_case("causal_4heads_short_three_outputs", &b);
    struct train_batch *b2;
    struct train_model *other = load_case("plain_1head_unscaled_nobias", &b2);
    struct mha_error err;
    char path[256];
    test_tmp_template(path, sizeof path, "mha-kept-model");
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    close(fd);
    ck_assert_int_eq(model_io_save(m, path, &err), 0);
    model_io_keep(true);
    for (int round = 0; round < 3; round++) { /* read, then kept twice */
        struct train_model *got = model_io_load_kept(path, 2, &err);
        ck_assert_msg(got != NULL, "%s", err.text);
        assert_same_model(got, m);
        ck_assert_int_eq(got->batch_cap, 2);
        ck_assert_int_eq(got->sample_len, m->sample_len);
        train_model_free(got);
    }
    /* another model under the same name: read, not the kept one */
    ck_assert_int_eq(model_io_save(other, path, &err), 0);
    struct timespec later[2] = {{.tv_sec = 1, .tv_nsec = 0}, {.tv_sec = 1, .tv_nsec = 0}};
    ck_assert_int_eq(utimensat(AT_FDCWD, path, later, 0), 0); /* even within one clock tick */
    struct train_model *got = model_io_load_kept(path, 1, &err);
    ck_assert_msg(got != NULL, "%s", err.text);
    ck_assert_int_eq(memcmp(&got->cfg, &other->cfg, sizeof other->cfg), 0);
    ck_assert_mem_eq(got->params, other->params, other->n_params * sizeof(float));
    train_model_free(got);
    /* a file gone is an error, kept or not */
    remove(path);
    ck_assert_ptr_null(model_io_load_kept(path, 1, &err));
    ck_assert_ptr_nonnull(strstr(err.text, "cannot"));
    model_io_keep(false);
    ck_assert_ptr_null(model_io_load_kept(path, 1, &err));
    train_model_free(other);
    train_batch_free(b2);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

/* ---- tasks ---- */

static struct train_run *train(const char *task, int heads, uint32_t seed, int steps)
{
    struct train_run_options o;
    train_run_options_default(&o);
    o.seed = seed;
    o.steps = steps;
    struct mha_error err;
    struct train_run *run = train_run_new(train_task_find(task), 8, heads, 16, 8, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    ck_assert_int_eq(train_run_steps(run, steps), steps);
    train_run_evaluate(run);
    return run;
}

/* Mean weight head h puts on key position `col` (or t-1 when col < 0) over
 * the sample's rows 1..L-1. */
static double head_mean(const struct train_model *m, int h, int col)
{
    const float *w = train_head_weights(m, h);
    const int L = m->sample_len;
    double s = 0;
    for (int t = 1; t < L; t++)
        s += w[t * L + (col < 0 ? t - 1 : col)];
    return s / (L - 1);
}

START_TEST(test_first_prev_two_heads)
{
    /* both outputs right, one head on position 0, one on t-1 */
    struct train_run *run = train("first-prev", 2, (uint32_t)_i + 1, 1500);
    ck_assert_msg(run->accuracy[0] >= 0.99f && run->accuracy[1] >= 0.99f,
                  "seed %d: first %.4f prev %.4f", _i + 1, (double)run->accuracy[0],
                  (double)run->accuracy[1]);
    const struct train_model *m = run->model;
    const bool a = head_mean(m, 0, 0) >= 0.9 && head_mean(m, 1, -1) >= 0.9;
    const bool b = head_mean(m, 1, 0) >= 0.9 && head_mean(m, 0, -1) >= 0.9;
    ck_assert_msg(a || b, "seed %d: heads did not split into first and previous", _i + 1);
    train_run_free(run);
}
END_TEST

START_TEST(test_first_prev_one_head)
{
    struct train_run *run = train("first-prev", 1, 1, 1500);
    const float worse = fminf(run->accuracy[0], run->accuracy[1]);
    ck_assert_msg(worse <= 0.9f, "one head: worse output %.4f", (double)worse);
    train_run_free(run);
}
END_TEST

START_TEST(test_other_tasks)
{
    static const char *const names[] = {"prev", "find-copy", "majority"};
    struct train_run *run = train(names[_i], 2, 1, 1500);
    ck_assert_msg(run->accuracy[0] >= 0.98f, "%s: %.4f", names[_i], (double)run->accuracy[0]);
    train_run_free(run);
}
END_TEST

START_TEST(test_deterministic)
{
    struct train_run *a = train("first-prev", 2, 7, 200), *b = train("first-prev", 2, 7, 200);
    ck_assert_mem_eq(a->model->params, b->model->params, a->model->n_params * sizeof(float));
    ck_assert_float_eq(a->eval_loss, b->eval_loss);
    /* the same steps in ticks of 10, measured in between: the same numbers */
    struct train_run_options o;
    train_run_options_default(&o);
    o.seed = 7;
    o.steps = 200;
    struct mha_error err;
    struct train_run *t = train_run_new(train_task_find("first-prev"), 8, 2, 16, 8, &o, &err);
    ck_assert_ptr_nonnull(t);
    for (int tick = 0; tick < 25; tick++) {
        train_run_steps(t, 10);
        if (tick % 5 == 0)
            train_run_evaluate(t);
    }
    ck_assert_int_eq(t->model->step, 200);
    ck_assert_mem_eq(a->model->params, t->model->params, a->model->n_params * sizeof(float));
    train_run_free(t);
    struct train_run *c = train("first-prev", 2, 8, 200);
    ck_assert(memcmp(a->model->params, c->model->params, a->model->n_params * sizeof(float)));
    /* a run started again in place with seed 8 (the screen's r) trains to the same numbers */
    for (int task = 0; task < 2; task++) {
        const char *name = task ? "majority" : "first-prev";
        struct train_run *fresh = train(name, 2, 8, 200);
        train_run_free(b);
        b = train(name, 2, 7, 200);
        ck_assert_int_eq(train_run_reseed(b, 8, &err), 0);
        ck_assert_int_eq(b->model->step, 0);
        train_run_steps(b, 200);
        train_run_evaluate(b);
        ck_assert_mem_eq(fresh->model->params, b->model->params,
                         fresh->model->n_params * sizeof(float));
        ck_assert_mem_eq(fresh->eval->tokens, b->eval->tokens,
                         (size_t)fresh->eval->size * (size_t)fresh->eval->len * sizeof(int));
        ck_assert_float_eq(fresh->eval_loss, b->eval_loss);
        train_run_free(fresh);
    }
    train_run_free(a);
    train_run_free(b);
    train_run_free(c);
}
END_TEST

/* more() for train_step_part that stops after every part, counting them */
static bool stop_each(void *parts)
{
    (*(int *)parts)++;
    return false;
}

/* A run taken a part at a time (as the training screen takes it between
 * frames, with a held-out evaluation every 50 steps, in parts too, and the
 * heads measured from the parameters while a step is in flight) ends with
 * the numbers of a run taken whole, at two sizes, the second with the
 * largest context and a vocabulary of 64 (several parts of each kind). */
START_TEST(test_in_parts)
{
    /* d, heads, vocab, T, layers */
    static const int size[3][5] = {{8, 2, 16, 8, 1}, {16, 4, 64, 64, 1}, {8, 2, 16, 8, 3}};
    const int *z = size[_i];
    struct train_run_options o;
    train_run_options_default(&o);
    o.seed = 7;
    o.steps = _i == 1 ? 6 : _i == 2 ? 60 : 120;
    o.layers = z[4];
    struct mha_error err;
    const struct train_task *task = train_task_find("first-prev");
    struct train_run *whole = train_run_new(task, z[0], z[1], z[2], z[3], &o, &err);
    struct train_run *parts = train_run_new(task, z[0], z[1], z[2], z[3], &o, &err);
    ck_assert_ptr_nonnull(whole);
    ck_assert_ptr_nonnull(parts);
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    int n_parts = 0, calls = 0;
    for (int step = 1; step <= o.steps; step++) {
        ck_assert_int_eq(train_run_steps(whole, 1), 1);
        int rc;
        while ((rc = train_run_step_part(parts, stop_each, &n_parts)) == 0) {
            calls++;
            if (calls % 7 == 0) /* the screen reads the parameters meanwhile */
                ck_assert_int_eq(train_heads_measure(parts->model, parts->eval, 4, roles, &err), 0);
        }
        ck_assert_int_eq(rc, 1);
        ck_assert_int_eq(parts->model->step, step);
        ck_assert_float_eq(parts->last_loss, whole->last_loss);
        if (step % 50 == 0 || step == o.steps) {
            train_run_evaluate(whole);
            struct train_eval_job job = {0};
            int n = 0;
            while (train_run_evaluate_part(parts, &job, stop_each, &n) == 0)
                ;
            ck_assert_int_gt(n, 3);
            ck_assert_float_eq(parts->eval_loss, whole->eval_loss);
            ck_assert_mem_eq(parts->accuracy, whole->accuracy, sizeof whole->accuracy);
        }
    }
    /* a sequence's heads and an output's read-out are parts of their own */
    ck_assert_int_ge(n_parts, o.steps * (2 * parts->batch->size + 2 * 2 + 5));
    ck_assert_mem_eq(parts->model->params, whole->model->params,
                     whole->model->n_params * sizeof(float));
    ck_assert_mem_eq(parts->model->adam_m, whole->model->adam_m,
                     whole->model->n_params * sizeof(float));
    /* at the step limit there is no step to take */
    ck_assert_int_eq(train_run_step_part(parts, NULL, NULL), -1);
    /* a batch that does not fit: -1 and why, before any part */
    struct train_batch chunk;
    train_batch_view(parts->batch, 0, parts->batch->size, &chunk);
    chunk.len = z[3] + 1;
    struct train_step_job job = {0, 0, false, 0};
    ck_assert_int_eq(train_step_part(parts->model, &chunk, 0.01f, &job, NULL, NULL, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "context"));
    train_run_free(whole);
    train_run_free(parts);
}
END_TEST

START_TEST(test_task_registry)
{
    ck_assert_int_ge(train_task_count(), 4);
    ck_assert_ptr_null(train_task_find("no-such-task"));
    const struct train_task *t = train_task_find("first-prev");
    ck_assert_ptr_nonnull(t);
    ck_assert(t->causal);
    ck_assert_str_eq(t->output_names[1], "prev");
    /* generated targets follow the task's rule */
    struct mha_error err;
    struct train_batch *b = train_batch_new(4, 8, 2, &err);
    struct rng r;
    rng_init(&r, 3);
    t->generate(t, b, 16, &r);
    for (int s = 0; s < 4; s++) {
        const int *tok = b->tokens + s * 8;
        ck_assert_int_eq(b->targets[0][s * 8], -1);
        for (int i = 1; i < 8; i++) {
            ck_assert_int_eq(b->targets[0][s * 8 + i], tok[0]);
            ck_assert_int_eq(b->targets[1][s * 8 + i], tok[i - 1]);
        }
    }
    train_batch_free(b);
    ck_assert_int_ne(train_task_check(train_task_find("find-copy"), 4, 8, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "--vocab"));
}
END_TEST

/* ---- bad files ---- */

static const char *write_tmp(const char *text)
{
    static char path[512];
    test_tmp_template(path, sizeof path, "mha-train-bad");
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* The reference model's text with one substring replaced. */
/* The text of case's model file with the first from replaced by to. */
static char *case_with(const char *name, const char *from, const char *to)
{
    FILE *f = fopen(data_path(name, "model"), "r");
    ck_assert_ptr_nonnull(f);
    static char text[1 << 16];
    const size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = '\0';
    char *at = strstr(text, from);
    ck_assert_msg(at != NULL, "'%s' not in the model", from);
    char *out = malloc(n + strlen(to) + 1);
    memcpy(out, text, (size_t)(at - text));
    strcpy(out + (at - text), to);
    strcat(out, at + strlen(from));
    return out;
}

static char *model_with(const char *from, const char *to)
{
    return case_with("plain_1head_unscaled_nobias", from, to);
}

START_TEST(test_bad_model_files)
{
    static const struct {
        const char *from, *to, *expect;
    } bad[] = {
        {"\"d_model\": 6", "\"d_model\": 5", "\"embedding\" row 0 has 6 numbers; expected 5"},
        {"\"context\": 6", "\"context\": 7", "\"positions\" has 6 rows; expected 7"},
        {"\"classes\": 5", "\"classes\": 4", "outputs[0].unembed\" has 5 rows"},
        {"\"scaled\": false", "\"scaled\": false, \"colour\": 1", "unknown field \"colour\""},
        {"\"num_heads\": 1", "\"num_heads\": 4", "does not divide"},
        {"\"embedding\": [\n  [\n   ", "\"embedding\": [\n  [\n   \"x\", ", "\"embedding\" row 0"},
        {"\"vocab\": [", "\"vocab\": [\"\", ", "\"vocab\""},
        {"\"vocab\": [", "\"vocab\": [\"x\\u202e\", ", "\"vocab\"[0] contains the bidirectional"},
        {"\"tok1\",", "\"tok0\",", "\"vocab\"[1] is \"tok0\", the same as \"vocab\"[0]"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *text = model_with(bad[i].from, bad[i].to);
        const char *path = write_tmp(text);
        struct mha_error err;
        struct train_model *m = model_io_load(path, 1, &err);
        ck_assert_msg(m == NULL, "case %zu was accepted", i);
        ck_assert_str_eq(err.file, path);
        ck_assert_msg(strstr(err.text, bad[i].expect) != NULL, "case %zu: '%s' lacks '%s'", i,
                      err.text, bad[i].expect);
        remove(path);
        free(text);
    }
}
END_TEST

/* A model of layers: saved and read back to the same numbers, in the
 * "layers" form; and every way its layers can be wrong, named. */
START_TEST(test_layer_files)
{
    struct train_batch *b;
    struct train_model *m = load_case("layers3_plain_nobias", &b);
    ck_assert_int_eq(train_layers(&m->cfg), 3);
    struct mha_error err;
    char *text = model_io_to_string(m);
    ck_assert_ptr_nonnull(strstr(text, "\"layers\""));
    ck_assert_ptr_null(strstr(text, "\n \"w_q\""));
    free(text);
    const char *path = write_tmp("{}");
    ck_assert_int_eq(model_io_save(m, path, &err), 0);
    struct train_model *back = model_io_load(path, 1, &err);
    ck_assert_msg(back != NULL, "%s", err.text);
    assert_same_model(back, m);
    remove(path);
    train_model_free(back);
    static const struct {
        const char *from, *to, *expect;
    } bad[] = {
        {"\"layers\": [", "\"w_q\": [], \"layers\": [", "\"w_q\" is at the top level"},
        {"\"layers\": [", "\"layers\": 3, \"description\": [",
         "\"layers\" must be an array of 1 to 4"},
        {"\"layers\": [", "\"layers\": [{}, {}, ", "\"layers\" must be an array of 1 to 4"},
        {"\"layers\": [", "\"layers\": [7, ", "layers[0] must be an object, not an integer"},
        {"\"w_q\": [", "\"w_x\": 1, \"w_q\": [", "unknown field \"w_x\""},
        {"\"w_q\": [", "\"w_q\": [[1], ", "\"layers[0].w_q\""},
        {"\"w_q\": [", "\"b_q\": [0,0,0,0,0,0], \"w_q\": [", "layers[0]: give all four"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *t = case_with("layers3_plain_nobias", bad[i].from, bad[i].to);
        const char *p = write_tmp(t);
        struct train_model *x = model_io_load(p, 1, &err);
        ck_assert_msg(x == NULL, "case %zu was accepted", i);
        ck_assert_msg(strstr(err.text, bad[i].expect) != NULL, "case %zu: '%s' lacks '%s'", i,
                      err.text, bad[i].expect);
        remove(p);
        free(t);
    }
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

START_TEST(test_bad_batch_files)
{
    static const struct {
        const char *text, *expect;
    } bad[] = {
        {"{\"tokens\": [[0, 1, 5]], \"targets\": [[[0, 1, 2]]]}",
         "\"tokens\" row 0, column 2: id 5"},
        {"{\"tokens\": [[0, 1, 2, 3, 4, 0, 1]], \"targets\": [[[0, 1, 2, 3, 4, 0, 1]]]}",
         "more than the model's context 6"},
        {"{\"tokens\": [[0, 1], [2]], \"targets\": [[[0, 1], [2, 3]]]}", "\"tokens\" row 1 has 1"},
        {"{\"tokens\": [[0, 1]], \"targets\": [[[0, -2]]]}", "column 1: id -2"},
        {"{\"tokens\": [[0, 1]], \"targets\": [[[0, 1]], [[0, 1]]]}",
         "\"targets\" has 2 entries; expected 1 (one list per output), shape [1 output: "
         "out][1 row, as \"tokens\"][2 ids, -1 = no target]"},
        /* the output level left out: rows where the lists should be */
        {"{\"tokens\": [[0, 1]], \"targets\": [[0, 1]]}",
         "\"targets[0] (out)\" has 2 rows; expected 1 (one per row of \"tokens\"): "
         "\"targets\" must have shape [1 output: out][1 row, as \"tokens\"][2 ids"},
        {"{\"tokens\": [[0, 1], [1, 0]], \"targets\": [[[0, 1], [1]]]}",
         "\"targets[0] (out)\" row 1 has 1 entry; expected 2 (one per token of its "
         "sequence): \"targets\" must have shape [1 output: out][2 rows"},
        {"{\"tokens\": [[0, 1]], \"targets\": [[3]]}",
         "\"targets[0] (out)\" row 0 is an integer, not a row of 2 ids"},
        {"{\"tokens\": [[0, 1]], \"targets\": {}}", "\"targets\" must be an array of shape"},
        {"{\"tokens\": [[0, 1]]}", "missing field \"targets\""},
        {"{\"tokens\": [[0, 1]], \"targets\": [[[0, 1e999]]]}", ""},
    };
    struct mha_error err;
    struct train_model *m =
        model_io_load(data_path("plain_1head_unscaled_nobias", "model"), 1, &err);
    ck_assert_ptr_nonnull(m);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *path = write_tmp(bad[i].text);
        struct train_batch *b = model_io_load_batch(path, m, &err);
        ck_assert_msg(b == NULL, "case %zu was accepted", i);
        ck_assert_str_eq(err.file, path);
        ck_assert_msg(strstr(err.text, bad[i].expect) != NULL, "case %zu: '%s' lacks '%s'", i,
                      err.text, bad[i].expect);
        remove(path);
    }
    train_model_free(m);
}
END_TEST

static Suite *train_suite(void)
{
    Suite *s = suite_create("train");
    TCase *tc = tcase_create("torch");
    const int n = (int)(sizeof cases / sizeof cases[0]);
    tcase_add_loop_test(tc, test_against_torch, 0, n);
    tcase_add_loop_test(tc, test_finite_differences, 0, N_SMALL_CASES);
    tcase_add_test(tc, test_missing_biases_stay_zero);
    tcase_add_test(tc, test_adam_lowers_the_loss);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    tc = tcase_create("model");
    tcase_add_test(tc, test_example_is_the_model);
    tcase_add_test(tc, test_save_load_round_trip);
    tcase_add_test(tc, test_kept_model);
    suite_add_tcase(s, tc);
    tc = tcase_create("tasks");
    tcase_add_loop_test(tc, test_first_prev_two_heads, 0, 3);
    tcase_add_test(tc, test_first_prev_one_head);
    tcase_add_loop_test(tc, test_other_tasks, 0, 3);
    tcase_add_test(tc, test_deterministic);
    tcase_add_loop_test(tc, test_in_parts, 0, 3);
    tcase_add_test(tc, test_task_registry);
    tcase_set_timeout(tc, 300);
    suite_add_tcase(s, tc);
    tc = tcase_create("fit");
    suite_add_tcase(s, tc);
    tc = tcase_create("files");
    tcase_add_test(tc, test_bad_model_files);
    tcase_add_test(tc, test_layer_files);
    tcase_add_test(tc, test_bad_batch_files);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(train_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
