/* test_cli_lesson_train.c - --print-lesson on lessons whose scenes train:
 * a stage: step after a train: step prints the stage of the model trained
 * above on its sample sequence (the numbers the screen shows), the same
 * numbers as that model saved by --train and opened with --load, and the
 * heads in them have learned their jobs; a step without a scene keeps the
 * training screen.  Deterministic: two runs print the same bytes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hostile_run.h"
#include "test_tmp.h"

static struct hostile_result run(const char *const *args)
{
    struct hostile_result h = hostile_run(args, getenv("MHA_DATA_DIR"), NULL, 240);
    ck_assert_msg(!h.timed_out, "%s ran for more than 240 s", args[0]);
    return h;
}

/* The text of s from the first "from" to the next "to" (or the end),
 * trailing white space cut; a new string. */
static char *between(const char *s, const char *from, const char *to)
{
    const char *a = strstr(s, from);
    ck_assert_msg(a != NULL, "'%s' not in the output", from);
    const char *b = to ? strstr(a, to) : NULL;
    size_t n = b ? (size_t)(b - a) : strlen(a);
    while (n > 0 && (a[n - 1] == '\n' || a[n - 1] == ' '))
        n--;
    char *r = strndup(a, n);
    ck_assert_ptr_nonnull(r);
    return r;
}

/* Head h's weights table in a stage 4 dump: rows of len numbers after the
 * "head h · weights" line and its column labels. */
static void read_weights(const char *stage, int h, int len, double *w)
{
    char head[64];
    snprintf(head, sizeof head, "head %d · weights", h);
    const char *p = strstr(stage, head);
    ck_assert_msg(p != NULL, "no '%s'", head);
    p = strchr(p, '\n') + 1; /* the title */
    p = strchr(p, '\n') + 1; /* the column labels */
    for (int i = 0; i < len; i++) {
        while (*p == ' ')
            p++;
        while (*p && *p != ' ') /* the row's label */
            p++;
        for (int j = 0; j < len; j++) {
            char *end;
            w[i * len + j] = strtod(p, &end);
            ck_assert_msg(end != p, "row %d of head %d: no number %d", i, h, j);
            p = end;
        }
        p = strchr(p, '\n') + 1;
    }
}

START_TEST(stage_step_prints_the_trained_model)
{
    struct hostile_result r = run((const char *[]){"--print-lesson", "16", NULL});
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    char *step4 = between(r.out, "Step 4 of 5", "Step 5 of 5");
    const char *note = strstr(step4, "Trained: this step shows stage 4 of the first-prev model "
                                     "trained above (2 heads, seed 1) at the end of its training, "
                                     "step ");
    ck_assert_msg(note != NULL, "step 4 has no note of the trained model:\n%s", step4);
    const long step = strtol(strstr(note, "training, step ") + 15, NULL, 10);
    ck_assert_int_gt(step, 100);
    ck_assert_ptr_nonnull(strstr(step4, "[screen: stage 4 attention · 8 tokens · d_model 8 · "
                                        "2 heads · d_k 4 · causal on · scale on]"));

    /* the model --train saves after as many steps, opened with --load */
    char model[256];
    test_tmp_template(model, sizeof model, "mha-lesson-train");
    const int fd = mkstemp(model);
    ck_assert_int_ge(fd, 0);
    close(fd);
    char steps[32];
    snprintf(steps, sizeof steps, "%ld", step);
    struct hostile_result tr =
        run((const char *[]){"--train", "first-prev", "--heads", "2", "--seed", "1", "--steps",
                             steps, "--save", model, "--dump", "summary", NULL});
    ck_assert_msg(tr.status == 0, "status %d: %s", tr.status, tr.err);
    struct hostile_result ld = run((const char *[]){"--load", model, "--dump", "attention", NULL});
    ck_assert_msg(ld.status == 0, "status %d: %s", ld.status, ld.err);
    unlink(model);
    char *want = between(ld.out, "== 4 attention", NULL);
    char *got = between(step4, "== 4 attention", NULL);
    ck_assert_str_eq(got, want);

    /* what the heads learned, read off the printed weights: one head puts
     * at least 0.9 of every row on position 0, the other on t - 1 */
    double w[2][64];
    read_weights(got, 0, 8, w[0]);
    read_weights(got, 1, 8, w[1]);
    int first = -1, prev = -1;
    for (int h = 0; h < 2; h++) {
        bool on_first = true, on_prev = true;
        for (int t = 1; t < 8; t++) {
            on_first = on_first && w[h][t * 8] >= 0.9;
            on_prev = on_prev && w[h][t * 8 + t - 1] >= 0.9;
        }
        first = on_first ? h : first;
        prev = on_prev ? h : prev;
    }
    ck_assert_msg(first >= 0 && prev >= 0 && first != prev, "first head %d, previous head %d",
                  first, prev);

    /* the same bytes again */
    struct hostile_result again = run((const char *[]){"--print-lesson", "16", NULL});
    ck_assert_str_eq(again.out, r.out);
    free(want);
    free(got);
    free(step4);
    hostile_result_free(&again);
    hostile_result_free(&ld);
    hostile_result_free(&tr);
    hostile_result_free(&r);
}
END_TEST

START_TEST(html_shows_the_trained_stage)
{
    struct hostile_result r =
        run((const char *[]){"--print-lesson", "16", "--format", "html", NULL});
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    char *step4 = between(r.out, "id=\"step-4\"", "id=\"step-5\"");
    ck_assert_ptr_nonnull(strstr(step4, "this step shows stage 4 of the first-prev model"));
    ck_assert_ptr_nonnull(strstr(step4, "<table"));
    /* a step that trains shows its figures, not a stage of another example */
    char *step1 = between(r.out, "id=\"step-1\"", "id=\"step-2\"");
    ck_assert_ptr_nonnull(strstr(step1, "Trained:"));
    ck_assert_ptr_null(strstr(step1, "<table"));
    free(step1);
    free(step4);
    hostile_result_free(&r);
}
END_TEST

START_TEST(steps_after_a_training)
{
    char path[256];
    test_tmp_template(path, sizeof path, "mha-lesson");
    strcat(path, ".md");
    const int fd = mkstemps(path, 3);
    ck_assert_int_ge(fd, 0);
    const char text[] = "# Trains\n\n## One\n\nIt trains.\n\n"
                        "```mha\ntrain: prev\nheads: 1\nsteps: 300\n```\n\n---\n\n"
                        "## Two\n\nStill training.\n\n```mha\nbatch: 2\n```\n\n---\n\n"
                        "## Three\n\nIts projections.\n\n```mha\nstage: projection\n```\n\n"
                        "---\n\n## Four\n\nNo more training.\n\n"
                        "```mha\ntrain: off\nstage: input\n```\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (ssize_t)(sizeof text - 1));
    close(fd);
    struct hostile_result r = run((const char *[]){"--print-lesson", path, NULL});
    unlink(path);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    char *two = between(r.out, "Step 2 of 4", "Step 3 of 4");
    ck_assert_ptr_nonnull(strstr(two, "Trained: the training screen of the step above stays"));
    ck_assert_ptr_null(strstr(two, "[screen:"));
    char *three = between(r.out, "Step 3 of 4", "Step 4 of 4");
    ck_assert_ptr_nonnull(
        strstr(three, "stage 1 of the prev model trained above (1 head, seed 1)"));
    ck_assert_ptr_nonnull(strstr(three, "[screen: stage 1 projection · 8 tokens · d_model 8 · "
                                        "1 heads"));
    char *four = between(r.out, "Step 4 of 4", NULL);
    ck_assert_ptr_null(strstr(four, "Trained:"));
    ck_assert_ptr_nonnull(strstr(four, "[screen: stage 0 input"));
    free(two);
    free(three);
    free(four);
    hostile_result_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_lesson_train");
    TCase *tc = tcase_create("print");
    tcase_set_timeout(tc, 280);
    tcase_add_test(tc, stage_step_prints_the_trained_model);
    tcase_add_test(tc, html_shows_the_trained_stage);
    tcase_add_test(tc, steps_after_a_training);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
