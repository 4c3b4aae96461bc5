/* test_train_heads.c - the head labels: what train_heads_measure says a
 * head does, on weights written by hand (the expected numbers worked out
 * here) and on models trained for real at several seeds, where a label
 * must be there when the job is learned and absent when it is not. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_heads.h"
#include "train/train_text.h"

#define LEN 4

/* ---- weights written by hand ---- */

START_TEST(test_uniform_causal_is_even)
{
    /* row t spreads 1/(t+1) over positions 0..t: entropy log(t+1) exactly */
    float w[LEN * LEN] = {0};
    for (int t = 0; t < LEN; t++)
        for (int j = 0; j <= t; j++)
            w[t * LEN + j] = 1.0f / (float)(t + 1);
    const int tok[LEN] = {0, 1, 2, 3};
    struct train_head_stats s;
    train_head_stats_of(w, tok, NULL, LEN, true, &s);
    ck_assert_float_eq_tol(s.even, 1.0f, 1e-6f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_EVEN);
    /* rows 2 and 3 put 1/3 and 1/4 on position 0 */
    ck_assert_float_eq_tol(s.first, (1.0f / 3 + 1.0f / 4) / 2, 1e-6f);
    ck_assert_int_eq(s.copy_rows, 0);
    /* without the mask the same rows are not even: they see 4 positions */
    train_head_stats_of(w, tok, NULL, LEN, false, &s);
    ck_assert_float_lt(s.even, 0.9f);
    ck_assert_int_ne(s.kind, TRAIN_HEAD_EVEN);
}
END_TEST

START_TEST(test_copy_head)
{
    /* B A C A, asked only at the last row (as find-copy asks): row 3 (A)
     * puts 0.95 on position 1, the earlier A */
    const int tok[LEN] = {1, 0, 2, 0};
    const bool asked[LEN] = {false, false, false, true};
    float w[LEN * LEN] = {0};
    w[0] = 1.0f;
    w[1 * LEN + 1] = 1.0f;
    w[2 * LEN + 2] = 1.0f;
    w[3 * LEN + 1] = 0.95f;
    w[3 * LEN + 3] = 0.05f;
    struct train_head_stats s;
    train_head_stats_of(w, tok, asked, LEN, true, &s);
    ck_assert_int_eq(s.copy_rows, 1);
    ck_assert_float_eq_tol(s.copy, 0.95f, 1e-6f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_COPY);
    ck_assert_int_eq(s.kind2, TRAIN_HEAD_NONE);
    ck_assert_str_eq(train_head_kind_short(s.kind), "copy");
    /* 0.8 on the copy, 0.2 on itself: still the copy head */
    w[3 * LEN + 1] = 0.8f;
    w[3 * LEN + 3] = 0.2f;
    train_head_stats_of(w, tok, asked, LEN, true, &s);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_COPY);
    ck_assert_float_eq_tol(s.self, 0.2f, 1e-6f); /* only row 3 is measured */
    char label[64];
    train_head_label(&s, label, sizeof label);
    ck_assert_str_eq(label, "copy .80");
    /* the rows with no target are not measured: counted, row 2 (itself,
     * 1.0) would make the head "self" */
    train_head_stats_of(w, tok, NULL, LEN, true, &s);
    ck_assert_float_eq_tol(s.self, (1.0f + 0.2f) / 2, 1e-6f);
    ck_assert_int_ne(s.kind, TRAIN_HEAD_COPY); /* 1 row of 3 has a copy: not a place */
}
END_TEST

START_TEST(test_split_head)
{
    /* rows 2 and 3 put 0.52 on position 0 and 0.42 on t - 1 (0.06 on
     * themselves): the label shows the split, not one job */
    const int tok[LEN] = {0, 1, 2, 3};
    float w[LEN * LEN] = {0};
    w[0] = 1.0f;
    w[1 * LEN + 0] = 1.0f;
    for (int t = 2; t < LEN; t++)
        w[t * LEN + 0] = 0.52f, w[t * LEN + t - 1] = 0.42f, w[t * LEN + t] = 0.06f;
    struct train_head_stats s;
    train_head_stats_of(w, tok, NULL, LEN, true, &s);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_FIRST);
    ck_assert_int_eq(s.kind2, TRAIN_HEAD_PREV);
    char label[64], words[256];
    train_head_label(&s, label, sizeof label);
    ck_assert_str_eq(label, "first .52 / prev .42");
    train_head_describe(1, &s, words, sizeof words);
    ck_assert_str_eq(words, "head 1 splits its weight, 0.52 on the first token and 0.42 on the "
                            "previous token");
    /* 0.8 / 0.2: one job, the 0.2 is below the split */
    for (int t = 2; t < LEN; t++)
        w[t * LEN + 0] = 0.8f, w[t * LEN + t - 1] = 0.2f, w[t * LEN + t] = 0.0f;
    train_head_stats_of(w, tok, NULL, LEN, true, &s);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_FIRST);
    ck_assert_int_eq(s.kind2, TRAIN_HEAD_NONE);
    train_head_label(&s, label, sizeof label);
    ck_assert_str_eq(label, "first .80");
}
END_TEST

START_TEST(test_place_heads)
{
    const int tok[LEN] = {0, 1, 2, 3};
    float w[LEN * LEN] = {0};
    for (int t = 0; t < LEN; t++)
        w[t * LEN + (t ? t - 1 : 0)] = 1.0f;
    struct train_head_stats s;
    train_head_stats_of(w, tok, NULL, LEN, true, &s);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_PREV);
    ck_assert_float_eq_tol(s.share, 1.0f, 1e-6f);
    ck_assert_float_eq_tol(s.even, 0.0f, 1e-6f);
    /* 0.45 on the first, 0.45 on itself, 0.1 on the previous: no place
     * reaches 0.5, and the evenness is (1 + 0.949/log 3 + 0.949/log 4) / 3
     * = 0.85 (entropy 0.949 of 0.45, 0.45, 0.1): not even, a split */
    memset(w, 0, sizeof w);
    w[0] = 1.0f;
    w[1 * LEN + 0] = 0.5f, w[1 * LEN + 1] = 0.5f;
    for (int t = 2; t < LEN; t++)
        w[t * LEN + 0] = 0.45f, w[t * LEN + t] = 0.45f, w[t * LEN + t - 1] = 0.1f;
    train_head_stats_of(w, tok, NULL, LEN, true, &s);
    ck_assert_float_eq_tol(s.even, 0.8497f, 1e-3f);
    char label[64];
    train_head_label(&s, label, sizeof label);
    ck_assert_str_eq(label, "first .45 / self .45");
    /* asked at row 3 only: 0.2 on the first, 0.6 on position 1, 0.1 on the
     * previous, 0.1 on itself: no place, no pair of places, not even
     * (evenness 0.79): no label at all */
    const bool last[LEN] = {false, false, false, true};
    w[3 * LEN + 0] = 0.2f, w[3 * LEN + 1] = 0.6f, w[3 * LEN + 2] = 0.1f, w[3 * LEN + 3] = 0.1f;
    train_head_stats_of(w, tok, last, LEN, true, &s);
    ck_assert_float_eq_tol(s.even, 0.7855f, 1e-3f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_NONE);
    ck_assert_str_eq(train_head_kind_name(s.kind), "");
    train_head_label(&s, label, sizeof label);
    ck_assert_str_eq(label, "");
}
END_TEST

/* ---- models trained for real ---- */

/* Train task with heads at seed for steps; measure every head on the first
 * TRAIN_HEADS_SEQUENCES held-out sequences.  Returns the held-out accuracy
 * of output 0. */
static float train_and_measure(const char *task, int heads, uint32_t seed, int steps,
                               struct train_head_stats *out)
{
    struct train_run_options o;
    train_run_options_default(&o);
    o.seed = seed;
    o.steps = steps;
    struct mha_error err;
    mha_error_clear(&err);
    struct train_run *run = train_run_new(train_task_find(task), 8, heads, 16, 8, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    train_run_steps(run, steps);
    train_run_evaluate(run);
    const int n = run->eval->size < TRAIN_HEADS_SEQUENCES ? run->eval->size : TRAIN_HEADS_SEQUENCES;
    ck_assert_int_eq(train_heads_measure(run->model, run->eval, n, out, &err), 0);
    const float acc = run->accuracy[0];
    train_run_free(run);
    return acc;
}

static int count_kind(const struct train_head_stats *s, int heads, enum train_head_kind k)
{
    int n = 0;
    for (int h = 0; h < heads; h++)
        n += s[h].kind == k;
    return n;
}

START_TEST(test_trained_find_copy)
{
    /* two heads learn the task at every seed tried; one of them is the copy head */
    for (uint32_t seed = 1; seed <= 3; seed++) {
        struct train_head_stats s[2];
        const float acc = train_and_measure("find-copy", 2, seed, 600, s);
        ck_assert_msg(acc >= 0.99f, "seed %u: accuracy %.3f", seed, (double)acc);
        ck_assert_msg(count_kind(s, 2, TRAIN_HEAD_COPY) == 1, "seed %u: %d copy heads (%.2f %.2f)",
                      seed, count_kind(s, 2, TRAIN_HEAD_COPY), (double)s[0].copy,
                      (double)s[1].copy);
        for (int h = 0; h < 2; h++)
            if (s[h].kind == TRAIN_HEAD_COPY)
                ck_assert_float_ge(s[h].copy, TRAIN_HEADS_PLACE_MIN);
    }
    /* at step 0 no head looks at the copy */
    struct train_head_stats s[2];
    train_and_measure("find-copy", 2, 1, 0, s);
    ck_assert_int_eq(count_kind(s, 2, TRAIN_HEAD_COPY), 0);
    ck_assert_float_lt(s[0].copy, 0.5f);
    /* with one head seed 2 does not learn it (57% here): no copy label */
    const float acc = train_and_measure("find-copy", 1, 2, 1500, s);
    ck_assert_float_lt(acc, 0.9f);
    ck_assert_int_eq(count_kind(s, 1, TRAIN_HEAD_COPY), 0);
}
END_TEST

START_TEST(test_trained_majority)
{
    /* the majority heads spread their weight evenly once trained */
    for (uint32_t seed = 1; seed <= 3; seed++) {
        struct train_head_stats s[1];
        const float acc = train_and_measure("majority", 1, seed, 450, s);
        ck_assert_msg(acc >= 0.99f, "seed %u: accuracy %.3f", seed, (double)acc);
        ck_assert_msg(s[0].kind == TRAIN_HEAD_EVEN, "seed %u: kind %d, evenness %.3f", seed,
                      s[0].kind, (double)s[0].even);
        ck_assert_float_ge(s[0].even, 0.95f);
    }
}
END_TEST

START_TEST(test_trained_first_prev_not_copy_or_even)
{
    /* the position heads are named by position; nothing is called a copy
     * or even there */
    for (uint32_t seed = 1; seed <= 3; seed++) {
        struct train_head_stats s[2];
        train_and_measure("first-prev", 2, seed, 500, s);
        ck_assert_int_eq(count_kind(s, 2, TRAIN_HEAD_FIRST), 1);
        ck_assert_int_eq(count_kind(s, 2, TRAIN_HEAD_PREV), 1);
        for (int h = 0; h < 2; h++) {
            ck_assert_float_lt(s[h].even, 0.2f);
            ck_assert_float_lt(s[h].copy, 0.5f);
        }
    }
}
END_TEST

/* The output a label names in the built-in tasks: first and prev by name,
 * the copy is find-copy's "where", an even spread majority's "most". */
static int named_output(const struct train_model *m, enum train_head_kind k)
{
    static const char *const names[] = {"", "first", "prev", "", "where", "most"};
    for (int o = 0; o < m->cfg.n_outputs; o++)
        if (names[k][0] && strcmp(m->cfg.outputs[o].name, names[k]) == 0)
            return o;
    return -1;
}

/* The tasks the knock-outs below leave out, and why: a task added to the
 * table is knocked out there unless it is named here. */
static const struct {
    const char *task, *why;
} not_knocked[] = {
    {"induction", "its heads work in two layers; test_cli_layers knocks them out"},
};

/* Whether the task table's task is among not_knocked. */
static bool left_out(const char *task)
{
    for (size_t i = 0; i < sizeof not_knocked / sizeof not_knocked[0]; i++)
        if (!strcmp(not_knocked[i].task, task))
            return true;
    return false;
}

/* Knocking out the heads whose label names an output (together: heads that
 * share a job make up for each other) drops that output's held-out accuracy
 * by at least 0.2, for every task of the table at 1, 2 and 4 heads (but
 * those not_knocked names); knocking out one of them alone never raises it. */
START_TEST(test_labels_survive_ablation)
{
    /* the task table's names, "first-prev, prev, ..." */
    char names[512], *tasks[32];
    int n_tasks = 0, n_left = 0;
    train_task_names(names, sizeof names);
    for (char *save = NULL, *w = strtok_r(names, ", ", &save); w && n_tasks < 32;
         w = strtok_r(NULL, ", ", &save)) {
        ck_assert_msg(train_task_find(w) != NULL, "task %s is not in the table", w);
        if (left_out(w))
            n_left++;
        else
            tasks[n_tasks++] = w;
    }
    ck_assert_int_eq(n_tasks + n_left, train_task_count());
    ck_assert_int_eq(n_left, (int)(sizeof not_knocked / sizeof not_knocked[0]));
    static const int heads[] = {1, 2, 4};
    int checked = 0;
    for (int ti = 0; ti < n_tasks; ti++)
        for (int hi = 0; hi < 3; hi++) {
            const int H = heads[hi];
            struct train_run_options o;
            train_run_options_default(&o);
            struct mha_error err;
            mha_error_clear(&err);
            struct train_run *run =
                train_run_new(train_task_find(tasks[ti]), 8, H, 16, 8, &o, &err);
            ck_assert_msg(run != NULL, "%s", err.text);
            train_run_steps(run, o.steps);
            train_run_evaluate(run);
            struct train_head_stats s[4];
            const int n =
                run->eval->size < TRAIN_HEADS_SEQUENCES ? run->eval->size : TRAIN_HEADS_SEQUENCES;
            ck_assert_int_eq(train_heads_measure(run->model, run->eval, n, s, &err), 0);
            for (int k = 0; k < run->model->cfg.n_outputs; k++) {
                bool knock[4] = {false};
                int group = 0;
                for (int h = 0; h < H; h++)
                    if (named_output(run->model, s[h].kind) == k ||
                        named_output(run->model, s[h].kind2) == k)
                        knock[h] = true, group++;
                if (!group)
                    continue;
                const float base = run->accuracy[k];
                float acc[TRAIN_MAX_OUTPUTS];
                ck_assert_int_eq(train_heads_ablate(run->model, run->eval, knock, acc, &err), 0);
                ck_assert_msg(acc[k] <= base - 0.2f,
                              "%s, %d heads: knocking out the %d head(s) labelled %s leaves it "
                              "at %.3f (from %.3f)",
                              tasks[ti], H, group, run->model->cfg.outputs[k].name, (double)acc[k],
                              (double)base);
                for (int h = 0; h < H; h++) {
                    if (!knock[h])
                        continue;
                    bool one[4] = {false};
                    one[h] = true;
                    ck_assert_int_eq(train_heads_ablate(run->model, run->eval, one, acc, &err), 0);
                    ck_assert_msg(acc[k] <= base + 0.005f, "%s, %d heads: head %d out raises %s",
                                  tasks[ti], H, h, run->model->cfg.outputs[k].name);
                }
                checked++;
            }
            train_run_free(run);
        }
    /* every task has an output some label names, at every head count */
    ck_assert_int_ge(checked, 3 * n_tasks);
}
END_TEST

START_TEST(test_measure_bad_input)
{
    struct train_run_options o;
    train_run_options_default(&o);
    struct mha_error err;
    mha_error_clear(&err);
    struct train_run *run = train_run_new(train_task_find("prev"), 8, 2, 16, 8, &o, &err);
    ck_assert_ptr_nonnull(run);
    struct train_head_stats s[2];
    struct train_batch *bad = train_batch_new(1, 8, 1, &err);
    ck_assert_ptr_nonnull(bad);
    for (int t = 0; t < 8; t++)
        bad->tokens[t] = t, bad->targets[0][t] = t;
    bad->tokens[7] = 16;
    ck_assert_int_eq(train_heads_measure(run->model, bad, 1, s, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "token id 16"));
    ck_assert_int_eq(train_heads_measure(run->model, bad, 2, s, &err), -1);
    float acc[1];
    const bool knock[2] = {true, false};
    bad->len = 9; /* longer than the model's context */
    ck_assert_int_eq(train_heads_ablate(run->model, bad, knock, acc, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "context is 8"));
    bad->len = 8;
    train_batch_free(bad);
    train_run_free(run);
}
END_TEST

/* ---- in parts, as the training screen measures between frames ---- */

/* more() that stops after every part, counting them */
static bool stop_each(void *parts)
{
    (*(int *)parts)++;
    return false;
}

/* The heads measured a sequence at a time give train_heads_measure's
 * figures, and the model and batch are read as they are. */
START_TEST(test_measure_in_parts)
{
    struct train_run_options o;
    train_run_options_default(&o);
    o.seed = 3;
    o.steps = 150;
    struct mha_error err;
    struct train_run *run = train_run_new(train_task_find("first-prev"), 8, 2, 16, 8, &o, &err);
    ck_assert_ptr_nonnull(run);
    train_run_steps(run, 150);
    struct train_head_stats whole[2], parts[2];
    ck_assert_int_eq(train_heads_measure(run->model, run->eval, 40, whole, &err), 0);
    struct train_heads_job *job = train_heads_job_new(run->model, run->eval, 40, &err);
    ck_assert_ptr_nonnull(job);
    int n = 0, rc;
    while ((rc = train_heads_job_part(job, run->model, run->eval, parts, stop_each, &n, &err)) == 0)
        ;
    ck_assert_int_eq(rc, 1);
    ck_assert_int_eq(n, 39); /* a sequence a part */
    train_heads_job_free(job);
    ck_assert_mem_eq(parts, whole, sizeof whole);
    ck_assert_ptr_null(train_heads_job_new(run->model, run->eval, run->eval->size + 1, &err));
    ck_assert_ptr_nonnull(strstr(err.text, "cannot be measured"));
    train_run_free(run);
}
END_TEST

/* A text whose second word follows the first (local) and whose last word
 * names what the animal sits on (content): the jobs measured a held-out
 * chunk at a time equal train_text_evaluate's and train_text_head_jobs's. */
START_TEST(test_text_jobs_in_parts)
{
    static const char *const animal[] = {"cat", "dog", "owl", "bee"};
    static const char *const place[] = {"mat", "rug", "roof", "flower"};
    static const char *const verb[] = {"sat", "lay", "perched", "landed"};
    size_t cap = 1 << 16, tl = 0, jl = 0;
    char *text = malloc(cap), *jobs = malloc(cap);
    ck_assert_ptr_nonnull(text);
    ck_assert_ptr_nonnull(jobs);
    for (int i = 0; i < 400; i++) {
        const int a = i % 4, v = (i / 4) % 4;
        tl += (size_t)snprintf(text + tl, cap - tl, "the %s %s on the %s\n", animal[a], verb[v],
                               place[a]);
        jl += (size_t)snprintf(jobs + jl, cap - jl, "- - - local - content\n");
    }
    struct train_text_options to = {64, 8, false};
    struct mha_error err;
    struct train_dataset *d =
        train_text_dataset_new(text, tl, "toy.txt", jobs, jl, "toy.jobs", &to, &err);
    ck_assert_msg(d != NULL, "%s", err.text);
    struct train_task task;
    train_task_from_dataset(&task, d);
    struct train_run_options o;
    train_run_options_default(&o);
    o.seed = 5;
    o.steps = 60;
    struct train_run *run = train_run_new(&task, 16, 2, d->vocab, d->len, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    train_run_steps(run, 60);
    struct train_text_eval all, knocked[2];
    unsigned does[2];
    ck_assert_int_eq(train_text_evaluate(run, &all, &err), 0);
    ck_assert_int_eq(train_text_head_jobs(run, &all, knocked, does, &err), 0);
    struct train_text_jobs job = {0};
    int n = 0, rc;
    while ((rc = train_text_jobs_part(run, &job, stop_each, &n, &err)) == 0)
        ;
    ck_assert_int_eq(rc, 1);
    ck_assert_int_gt(n,
                     3 * ((run->eval->size + run->model->batch_cap - 1) / run->model->batch_cap));
    ck_assert_double_eq(job.all.loss, all.loss);
    ck_assert_float_eq(job.all.top1, all.top1);
    ck_assert_float_eq(job.all.top3, all.top3);
    ck_assert_int_eq(job.all.words, all.words);
    ck_assert_mem_eq(job.all.job_top1, all.job_top1, sizeof all.job_top1);
    ck_assert_mem_eq(job.all.job_words, all.job_words, sizeof all.job_words);
    ck_assert_mem_eq(job.does, does, sizeof does);
    ck_assert_int_eq(all.n_jobs, 2);
    ck_assert_int_gt(all.job_words[0], 0);
    train_run_free(run);
    train_dataset_free(d);
    free(text);
    free(jobs);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_heads");
    TCase *hand = tcase_create("by hand");
    tcase_add_test(hand, test_uniform_causal_is_even);
    tcase_add_test(hand, test_copy_head);
    tcase_add_test(hand, test_split_head);
    tcase_add_test(hand, test_place_heads);
    tcase_add_test(hand, test_measure_bad_input);
    suite_add_tcase(s, hand);
    TCase *trained = tcase_create("trained");
    tcase_set_timeout(trained, 240);
    tcase_add_test(trained, test_trained_find_copy);
    tcase_add_test(trained, test_labels_survive_ablation);
    tcase_add_test(trained, test_trained_majority);
    tcase_add_test(trained, test_trained_first_prev_not_copy_or_even);
    tcase_add_test(trained, test_measure_in_parts);
    tcase_add_test(trained, test_text_jobs_in_parts);
    suite_add_tcase(s, trained);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
