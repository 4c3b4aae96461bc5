/* test_train_fit.c - the signs that a text is too small to learn from
 * (train/train_fit.h), on made-up losses, the words a knock-out is told in
 * (train_text_knocked_text), and the model a run keeps when it stops
 * (train_run_keep_best). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_fit.h"
#include "train/train_text.h"
#include "check_run.h"

/* The signs of a file too small to learn from, on made-up losses: a
 * held-out loss that falls says nothing; one lowest at step 0, or rising
 * by the margin while the training loss falls, is named; a text of fewer
 * words than the threshold is named from the start. */
START_TEST(test_fit_signs)
{
    struct train_fit f;
    train_fit_init(&f);
    ck_assert_uint_eq(train_fit_signs(&f, TRAIN_FIT_MIN_WORDS), 0);
    ck_assert_uint_eq(train_fit_signs(&f, TRAIN_FIT_MIN_WORDS - 1), TRAIN_FIT_FEW_WORDS);
    ck_assert_uint_eq(train_fit_signs(&f, -1), 0); /* not a text: no count */
    /* learning: both fall */
    train_fit_evaluated(&f, 0, 3.0f, NAN);
    ck_assert_uint_eq(train_fit_signs(&f, -1), 0); /* step 0 alone says nothing */
    train_fit_evaluated(&f, 50, 2.0f, 2.1f);
    train_fit_evaluated(&f, 100, 1.5f, 1.4f);
    ck_assert_uint_eq(train_fit_signs(&f, -1), 0);
    ck_assert_int_eq(f.best_step, 100);
    /* held-out up by less than the margin (0.15 at a lowest of 1.5): nothing */
    train_fit_evaluated(&f, 150, 1.6f, 0.5f);
    ck_assert_uint_eq(train_fit_signs(&f, -1), 0);
    /* up by the margin while training fell below 0.8 of 1.4 */
    train_fit_evaluated(&f, 200, 1.7f, 0.9f);
    ck_assert_uint_eq(train_fit_signs(&f, -1), TRAIN_FIT_RISING);
    /* up, but the training loss did not fall: not learning by heart */
    train_fit_evaluated(&f, 250, 1.7f, 1.3f);
    ck_assert_uint_eq(train_fit_signs(&f, -1), 0);
    char buf[512];
    train_fit_text(&f, TRAIN_FIT_RISING, -1, buf, sizeof buf);
    ck_assert_str_eq(buf, "Too small to learn from: Held-out loss up from 1.50 (step 100) to "
                          "1.70 while the training loss fell from 1.40 to 1.30: it learns its "
                          "rows by heart.");
    /* lowest at step 0: the training loss there is the held-out loss */
    train_fit_init(&f);
    train_fit_evaluated(&f, 0, 2.0f, NAN);
    train_fit_evaluated(&f, 50, 2.05f, 1.9f);
    ck_assert_uint_eq(train_fit_signs(&f, -1), TRAIN_FIT_BEST_AT_START);
    train_fit_evaluated(&f, 100, 2.5f, 1.0f);
    ck_assert_uint_eq(train_fit_signs(&f, 10),
                      TRAIN_FIT_FEW_WORDS | TRAIN_FIT_BEST_AT_START | TRAIN_FIT_RISING);
    train_fit_text(&f, train_fit_signs(&f, 10), 10, buf, sizeof buf);
    ck_assert_str_eq(buf, "Too small to learn from: 10 words (a text needs 2000 or more). "
                          "Held-out loss lowest at step 0 (2.00): no step lowered it. Now 2.50, "
                          "while the training loss fell to 1.00: it learns its lines by heart.");
    train_fit_text(&f, 0, 10, buf, sizeof buf);
    ck_assert_str_eq(buf, "");
    ck_assert_str_eq(train_fit_sign_name(TRAIN_FIT_RISING), "rising");
}
END_TEST

/* What knocking a head out did, in words: the job it costs most, or none. */
START_TEST(test_knocked_text)
{
    static struct train_text t = {.n_jobs = 3};
    snprintf(t.job_names[0], sizeof t.job_names[0], "local");
    snprintf(t.job_names[1], sizeof t.job_names[1], "long");
    snprintf(t.job_names[2], sizeof t.job_names[2], "agree");
    const float all[3] = {1.0f, 0.95f, 0.8f};
    const float knocked[3] = {0.85f, 0.08f, 0.5f};
    char buf[128];
    train_text_knocked_text(&t, all, knocked, buf, sizeof buf);
    ck_assert_str_eq(buf, "knocked out alone, long falls from 0.95 to 0.08");
    const float slight[3] = {0.95f, 0.9f, 0.75f};
    train_text_knocked_text(&t, all, slight, buf, sizeof buf);
    ck_assert_str_eq(buf, "knocked out alone, no job falls by 0.1");
}
END_TEST

static struct train_run *first_prev(int steps)
{
    const struct train_task *task = train_task_find("first-prev");
    ck_assert_ptr_nonnull(task);
    struct train_run_options o;
    train_run_options_default(&o);
    o.steps = steps;
    struct mha_error err;
    mha_error_clear(&err);
    struct train_run *run = train_run_new(task, 8, 2, 16, 8, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    return run;
}

/* A run of 60 steps (seed 1) scores best at step 50's evaluation, not at
 * the limit's: it keeps step 50's model, the very bits a run trained to
 * step 50 has, with that evaluation's accuracy, and the last step's
 * figures beside it, those of a run trained to 60.  A run of 40 steps,
 * best at its last evaluation, keeps its last model and says so. */
START_TEST(test_keep_best)
{
    struct train_run *run = first_prev(60);
    struct train_stopping s;
    train_stopping_init(&s, 60);
    ck_assert_int_eq(train_run_until_stopped(run, &s, NULL, NULL, NULL), TRAIN_STOP_LIMIT);
    ck_assert_int_eq(s.best_step, 50);
    ck_assert_int_eq(s.kept_step, 50);
    ck_assert_int_eq(s.last_step, 60);
    ck_assert_int_eq(run->model->step, 50);
    ck_assert_int_eq(train_stopping_last_step(&s, run), 60);
    ck_assert(train_run_score(run) == s.best);

    struct train_run *at50 = first_prev(60);
    ck_assert_int_eq(train_run_steps(at50, 50), 50);
    train_run_evaluate(at50);
    ck_assert_mem_eq(run->model->params, at50->model->params, run->model->n_params * sizeof(float));
    for (int k = 0; k < run->model->cfg.n_outputs; k++)
        ck_assert(run->accuracy[k] == at50->accuracy[k]);
    ck_assert_int_eq(train_run_steps(at50, 10), 10);
    train_run_evaluate(at50);
    for (int k = 0; k < run->model->cfg.n_outputs; k++)
        ck_assert(s.last_accuracy[k] == at50->accuracy[k]);
    ck_assert(s.last_eval_loss == at50->eval_loss);
    ck_assert(train_run_score(at50) < s.best); /* it slid */
    char why[256];
    train_stopping_text(&s, train_stopping_last_step(&s, run), why, sizeof why);
    ck_assert_str_eq(why, "Stopped at the step limit, 60, keeping step 50's model: best held-out "
                          "14.3% there.");
    train_run_free(at50);
    train_run_free(run);

    run = first_prev(40);
    train_stopping_init(&s, 40);
    ck_assert_int_eq(train_run_until_stopped(run, &s, NULL, NULL, NULL), TRAIN_STOP_LIMIT);
    ck_assert_int_eq(s.kept_step, 40);
    ck_assert_int_eq(s.last_step, -1);
    ck_assert_int_eq(run->model->step, 40);
    ck_assert(!train_run_keep_best(run, &s));
    train_run_free(run);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_fit");
    TCase *tc = tcase_create("fit");
    tcase_add_test(tc, test_fit_signs);
    tcase_add_test(tc, test_knocked_text);
    tcase_add_test(tc, test_keep_best);
    suite_add_tcase(s, tc);
    return check_run(s);
}
