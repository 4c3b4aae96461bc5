/* test_train_heads.c - the head labels: what train_heads_measure says a
 * head does, on weights written by hand (the expected numbers worked out
 * here) and on models trained for real at several seeds, where a label
 * must be there when the job is learned and absent when it is not. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/train_heads.h"

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
    train_head_stats_of(w, tok, LEN, true, &s);
    ck_assert_float_eq_tol(s.even, 1.0f, 1e-6f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_EVEN);
    /* rows 2 and 3 put 1/3 and 1/4 on position 0 */
    ck_assert_float_eq_tol(s.first, (1.0f / 3 + 1.0f / 4) / 2, 1e-6f);
    ck_assert_int_eq(s.copy_rows, 0);
    /* without the mask the same rows are not even: they see 4 positions */
    train_head_stats_of(w, tok, LEN, false, &s);
    ck_assert_float_lt(s.even, 0.9f);
    ck_assert_int_ne(s.kind, TRAIN_HEAD_EVEN);
}
END_TEST

START_TEST(test_copy_head)
{
    /* B A C A: row 3 (A) puts 0.95 on position 1, the earlier A */
    const int tok[LEN] = {1, 0, 2, 0};
    float w[LEN * LEN] = {0};
    w[0] = 1.0f;
    w[1 * LEN + 1] = 1.0f;
    w[2 * LEN + 2] = 1.0f;
    w[3 * LEN + 1] = 0.95f;
    w[3 * LEN + 3] = 0.05f;
    struct train_head_stats s;
    train_head_stats_of(w, tok, LEN, true, &s);
    ck_assert_int_eq(s.copy_rows, 1);
    ck_assert_float_eq_tol(s.copy, 0.95f, 1e-6f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_COPY);
    ck_assert_str_eq(train_head_kind_short(s.kind), "copy");
    /* 0.85 on the copy is not enough */
    w[3 * LEN + 1] = 0.85f;
    w[3 * LEN + 3] = 0.15f;
    train_head_stats_of(w, tok, LEN, true, &s);
    ck_assert_int_ne(s.kind, TRAIN_HEAD_COPY);
    /* rows 2 and 3 look at themselves: 1 and 0.15 */
    ck_assert_float_eq_tol(s.self, (1.0f + 0.15f) / 2, 1e-6f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_SELF);
}
END_TEST

START_TEST(test_place_heads)
{
    const int tok[LEN] = {0, 1, 2, 3};
    float w[LEN * LEN] = {0};
    for (int t = 0; t < LEN; t++)
        w[t * LEN + (t ? t - 1 : 0)] = 1.0f;
    struct train_head_stats s;
    train_head_stats_of(w, tok, LEN, true, &s);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_PREV);
    ck_assert_float_eq_tol(s.share, 1.0f, 1e-6f);
    ck_assert_float_eq_tol(s.even, 0.0f, 1e-6f);
    /* 0.45 on the first, 0.45 on itself, 0.1 on the previous: no place
     * reaches 0.5, and the evenness is (1 + 0.949/log 3 + 0.949/log 4) / 3
     * = 0.85 (entropy 0.949 of 0.45, 0.45, 0.1): no label at all */
    memset(w, 0, sizeof w);
    w[0] = 1.0f;
    w[1 * LEN + 0] = 0.5f, w[1 * LEN + 1] = 0.5f;
    for (int t = 2; t < LEN; t++)
        w[t * LEN + 0] = 0.45f, w[t * LEN + t] = 0.45f, w[t * LEN + t - 1] = 0.1f;
    train_head_stats_of(w, tok, LEN, true, &s);
    ck_assert_float_eq_tol(s.even, 0.8497f, 1e-3f);
    ck_assert_int_eq(s.kind, TRAIN_HEAD_NONE);
    ck_assert_str_eq(train_head_kind_name(s.kind), "");
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
    ck_assert_int_eq(train_heads_measure(run->model, run->eval->tokens, TRAIN_HEADS_SEQUENCES,
                                         run->eval->len, out, &err),
                     0);
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
                ck_assert_float_ge(s[h].copy, TRAIN_HEADS_COPY_MIN);
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

START_TEST(test_measure_bad_input)
{
    struct train_run_options o;
    train_run_options_default(&o);
    struct mha_error err;
    mha_error_clear(&err);
    struct train_run *run = train_run_new(train_task_find("prev"), 8, 2, 16, 8, &o, &err);
    ck_assert_ptr_nonnull(run);
    struct train_head_stats s[2];
    int bad[8] = {0, 1, 2, 3, 4, 5, 6, 16};
    ck_assert_int_eq(train_heads_measure(run->model, bad, 1, 8, s, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "token id 16"));
    ck_assert_int_eq(train_heads_measure(run->model, bad, 1, 9, s, &err), -1);
    train_run_free(run);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_heads");
    TCase *hand = tcase_create("by hand");
    tcase_add_test(hand, test_uniform_causal_is_even);
    tcase_add_test(hand, test_copy_head);
    tcase_add_test(hand, test_place_heads);
    tcase_add_test(hand, test_measure_bad_input);
    suite_add_tcase(s, hand);
    TCase *trained = tcase_create("trained");
    tcase_set_timeout(trained, 240);
    tcase_add_test(trained, test_trained_find_copy);
    tcase_add_test(trained, test_trained_majority);
    tcase_add_test(trained, test_trained_first_prev_not_copy_or_even);
    suite_add_tcase(s, trained);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
