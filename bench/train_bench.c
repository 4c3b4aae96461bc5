/* train_bench.c - mha-bench --train: time one training step (forward, loss,
 * backward, Adam) of a task's model (first-prev unless --task names
 * another) on a fixed batch, with one attention layer or --layers N.
 *
 * The model and batch are those `--train TASK` starts from (seed 1);
 * each step is timed on its own with CLOCK_MONOTONIC after warm-up steps.
 * Drawing the batch is left out, as bench/compare.py leaves it out of
 * PyTorch's step.  Human-readable lines on stdout, then one JSON line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_clock.h"
#include "engine/mat.h"
#include "train/train.h"

int bench_train(int argc, char **argv);

static long number(const char *opt, const char *s, long lo, long hi)
{
    char *end;
    const long v = strtol(s ? s : "", &end, 10);
    if (!s || !*s || *end || v < lo || v > hi) {
        fprintf(stderr, "mha-bench: %s: expected a whole number %ld..%ld\n", opt, lo, hi);
        exit(2);
    }
    return v;
}

int bench_train(int argc, char **argv)
{
    int d = TRAIN_DEFAULT_D_MODEL, h = TRAIN_DEFAULT_HEADS, vocab = TRAIN_DEFAULT_VOCAB;
    int context = TRAIN_DEFAULT_CONTEXT, batch = TRAIN_DEFAULT_BATCH;
    int layers = 1;
    const char *task_name = "first-prev";
    long repeat = 2000, warmup = 100;
    enum mat_backend backend = mat_have_cblas() ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--d-model"))
            d = (int)number(a, v, 1, TRAIN_MAX_D_MODEL), i++;
        else if (!strcmp(a, "--heads"))
            h = (int)number(a, v, 1, TRAIN_MAX_D_MODEL), i++;
        else if (!strcmp(a, "--vocab"))
            vocab = (int)number(a, v, 2, TRAIN_MAX_VOCAB), i++;
        else if (!strcmp(a, "--context"))
            context = (int)number(a, v, 3, TRAIN_MAX_CONTEXT), i++;
        else if (!strcmp(a, "--batch"))
            batch = (int)number(a, v, 1, TRAIN_MAX_BATCH), i++;
        else if (!strcmp(a, "--layers"))
            layers = (int)number(a, v, 1, TRAIN_MAX_LAYERS), i++;
        else if (!strcmp(a, "--task") && v)
            task_name = v, i++;
        else if (!strcmp(a, "--repeat"))
            repeat = number(a, v, 1, 10000000), i++;
        else if (!strcmp(a, "--warmup"))
            warmup = number(a, v, 0, 10000000), i++;
        else if (!strcmp(a, "--backend") && v && (!strcmp(v, "plain") || !strcmp(v, "cblas")))
            backend = !strcmp(v, "plain") ? MAT_BACKEND_PLAIN : MAT_BACKEND_CBLAS, i++;
        else {
            fprintf(stderr,
                    "mha-bench: --train: unknown option '%s'; expected --d-model, --heads, "
                    "--vocab, --context, --batch, --layers, --task, --repeat, --warmup, "
                    "--backend plain|cblas\n",
                    a);
            return 2;
        }
    }
    const struct train_task *task = train_task_find(task_name);
    if (!task) {
        fprintf(stderr, "mha-bench: --task: no task named '%s'\n", task_name);
        return 2;
    }
    backend = mat_set_backend(backend);
    struct train_run_options o;
    train_run_options_default(&o);
    o.batch = batch;
    o.eval_size = 1;
    o.layers = layers;
    struct mha_error err;
    mha_error_clear(&err);
    struct train_run *run = train_run_new(task, d, h, vocab, context, &o, &err);
    double *times = malloc((size_t)repeat * sizeof *times);
    if (!run || !times) {
        fprintf(stderr, "mha-bench: %s\n", run ? "out of memory" : err.text);
        train_run_free(run);
        free(times);
        return run ? 1 : 2;
    }
    run->task->generate(run->task, run->batch, vocab, &run->rng);
    for (long r = 0; r < warmup; r++)
        train_step(run->model, run->batch, o.lr, NULL);
    float loss = 0.0f;
    for (long r = 0; r < repeat; r++) {
        const double start = bench_now_ms();
        loss = train_step(run->model, run->batch, o.lr, NULL);
        times[r] = bench_now_ms() - start;
    }
    double total = 0.0;
    for (long r = 0; r < repeat; r++)
        total += times[r];
    const double median = bench_median(times, repeat);
    printf("mha-bench --train: %s, %d layer%s, d_model %d, %d heads, vocab %d, context %d, "
           "batch %d\n",
           task->name, layers, layers == 1 ? "" : "s", d, h, vocab, context, batch);
    printf("backend %s, %ld warm-up + %ld timed steps (forward, backward, Adam)\n",
           mat_backend_name(backend), warmup, repeat);
    printf("parameters: %zu floats; loss after the last step %.6f\n", run->model->n_params,
           (double)loss);
    printf("step: median %.3f us, min %.3f us, mean %.3f us\n", median * 1e3, times[0] * 1e3,
           total / (double)repeat * 1e3);
    printf("{\"train\":true,\"task\":\"%s\",\"layers\":%d,\"d_model\":%d,\"heads\":%d,\"vocab\":%d,"
           "\"context\":%d,"
           "\"batch\":%d,\"repeat\":%ld,\"warmup\":%ld,\"backend\":\"%s\","
           "\"step_ms_median\":%.6f,\"step_ms_min\":%.6f,\"step_ms_mean\":%.6f}\n",
           task->name, layers, d, h, vocab, context, batch, repeat, warmup,
           mat_backend_name(backend), median, times[0], total / (double)repeat);
    free(times);
    train_run_free(run);
    return 0;
}
