/* test_cli_train.c - the training command line as a user meets it: --grad
 * against the PyTorch reference, --train ... --dump summary (deterministic,
 * text and json), --save and --load of a model file, a teacher's task file,
 * and every bad file or option: exit status 2, a message naming the file and
 * the field, nothing on stdout. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <unistd.h>

#include "cli_run.h"
#include "test_tmp.h"

static char *tmp_file(const char *text)
{
    static char path[64];
    test_tmp_template(path, sizeof path, "mha-cli-train");
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    if (text)
        ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return strdup(path);
}

START_TEST(grad_matches_torch)
{
    char model[1024], batch[1024], grad[1024];
    snprintf(model, sizeof model, "%s",
             cli_data_path("train/causal_2heads_two_outputs.model.json"));
    snprintf(batch, sizeof batch, "%s",
             cli_data_path("train/causal_2heads_two_outputs.batch.json"));
    snprintf(grad, sizeof grad, "%s", cli_data_path("train/causal_2heads_two_outputs.grad.json"));
    struct cli_result r = cli_run((const char *[]){"--grad", model, "--batch", batch, NULL});
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    json_t *got = json_loads(r.out, 0, NULL), *want = json_load_file(grad, 0, NULL);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    const double lg = json_number_value(json_object_get(got, "loss"));
    const double lw = json_number_value(json_object_get(want, "loss"));
    ck_assert_double_eq_tol(lg, lw, 1e-5 * lw);
    /* every gradient, torch's layout */
    const char *keys[] = {"embedding", "positions", "w_q", "w_k", "w_v",
                          "w_o",       "b_q",       "b_k", "b_v", "b_o"};
    json_t *gg = json_object_get(got, "grad"), *gw = json_object_get(want, "grad");
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        json_t *a = json_object_get(gg, keys[i]), *b = json_object_get(gw, keys[i]);
        ck_assert_msg(a && b, "%s missing", keys[i]);
        const bool rows = json_is_array(json_array_get(b, 0));
        size_t n = 0;
        for (size_t r0 = 0; r0 < json_array_size(b); r0++) {
            json_t *ra = rows ? json_array_get(a, r0) : a, *rb = rows ? json_array_get(b, r0) : b;
            for (size_t c = 0; c < (rows ? json_array_size(rb) : 1); c++) {
                const size_t j = rows ? c : r0;
                const double x = json_number_value(json_array_get(ra, j));
                const double y = json_number_value(json_array_get(rb, j));
                ck_assert_msg(fabs(x - y) <= 2e-5 + 2e-4 * fabs(y), "%s: %g vs torch %g", keys[i],
                              x, y);
                n++;
            }
        }
        ck_assert_uint_gt(n, 0);
    }
    json_t *outs = json_object_get(gg, "outputs");
    ck_assert_uint_eq(json_array_size(outs), 2);
    ck_assert_ptr_nonnull(json_object_get(json_array_get(outs, 1), "bias"));
    json_decref(got);
    json_decref(want);
    cli_result_free(&r);
}
END_TEST

START_TEST(grad_errors)
{
    char model[1024];
    snprintf(model, sizeof model, "%s",
             cli_data_path("train/plain_1head_unscaled_nobias.model.json"));
    cli_expect_error((const char *[]){"--grad", model, NULL}, "--grad needs --batch BATCH");
    char *bad = tmp_file("{\"tokens\": [[0, 1, 9]], \"targets\": [[[0, 1, 2]]]}");
    cli_expect_error((const char *[]){"--grad", model, "--batch", bad, NULL},
                     "\"tokens\" row 0, column 2: id 9 is out of range");
    cli_expect_error((const char *[]){"--grad", model, "--batch", bad, NULL}, bad);
    remove(bad);
    free(bad);
    bad = tmp_file("{\"tokens\": [[0, 1, 2, 3, 4, 0, 1, 2]], \"targets\": [[[0, 1, 2, 3, 4, 0, "
                   "1, 2]]]}");
    cli_expect_error((const char *[]){"--grad", model, "--batch", bad, NULL},
                     "more than the model's context 6");
    remove(bad);
    free(bad);
    bad = tmp_file(
        "{\"vocab\": [\"a\", \"b\"], \"d_model\": 2, \"num_heads\": 1, \"context\": 2,"
        " \"embedding\": [[1, 2], [3, 4]], \"positions\": [[0, 0], [0, 0]],"
        " \"w_q\": [[1, 0], [0, 1]], \"w_k\": [[1, 0], [0, 1]],"
        " \"w_v\": [[1, 0], [0, 1]], \"w_o\": [[1, 0], [0, 1e999]],"
        " \"outputs\": [{\"name\": \"o\", \"classes\": 2, \"unembed\": [[1, 0], [0, 1]]}]}");
    cli_expect_error((const char *[]){"--grad", bad, "--batch", model, NULL}, bad);
    remove(bad);
    free(bad);
    bad = tmp_file(
        "{\"vocab\": [\"a\", \"b\"], \"d_model\": 2, \"num_heads\": 1, \"context\": 2,"
        " \"embedding\": [[1, 2], [3, 4]], \"positions\": [[0, 0]],"
        " \"w_q\": [[1, 0], [0, 1]], \"w_k\": [[1, 0], [0, 1]],"
        " \"w_v\": [[1, 0], [0, 1]], \"w_o\": [[1, 0], [0, 1]],"
        " \"outputs\": [{\"name\": \"o\", \"classes\": 2, \"unembed\": [[1, 0], [0, 1]]}]}");
    cli_expect_error((const char *[]){"--grad", bad, "--batch", model, NULL},
                     "\"positions\" has 1 rows; expected 2 (context)");
    remove(bad);
    free(bad);
}
END_TEST

/* The summary without its ms_per_step line. */
static char *without_timing(const char *text)
{
    char *s = strdup(text), *at = strstr(s, "ms_per_step");
    ck_assert_ptr_nonnull(at);
    *at = '\0';
    return s;
}

START_TEST(train_summary_deterministic)
{
    const char *args[] = {"--train", "first-prev", "--steps", "150", "--seed",
                          "5",       "--dump",     "summary", NULL};
    struct cli_result a = cli_run(args), b = cli_run(args);
    ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
    ck_assert_str_eq(a.err, ""); /* no progress bar when stderr is not a terminal */
    char *ta = without_timing(a.out), *tb = without_timing(b.out);
    ck_assert_str_eq(ta, tb);
    ck_assert_ptr_nonnull(strstr(a.out, "task         first-prev"));
    ck_assert_ptr_nonnull(strstr(a.out, "steps        150"));
    ck_assert_ptr_nonnull(strstr(a.out, "accuracy     prev"));
    free(ta);
    free(tb);
    cli_result_free(&a);
    cli_result_free(&b);
    struct cli_result j = cli_run((const char *[]){"--train", "prev", "--steps", "20", "--dump",
                                                   "summary", "--format", "json", NULL});
    ck_assert_int_eq(j.status, 0);
    json_t *root = json_loads(j.out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(json_string_value(json_object_get(root, "task")), "prev");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "num_heads")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "held_out")), 1024);
    ck_assert(json_is_number(json_object_get(json_object_get(root, "accuracy"), "prev")));
    ck_assert(json_is_number(json_object_get(root, "ms_per_step")));
    json_decref(root);
    cli_result_free(&j);
}
END_TEST

START_TEST(save_and_load_model)
{
    char *path = tmp_file(NULL);
    struct cli_result r = cli_run((const char *[]){"--train", "first-prev", "--steps", "30",
                                                   "--save", path, "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", path, "--dump", "input", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "8 tokens, d_model 8, 2 heads"));
    ck_assert_ptr_nonnull(strstr(r.out, "mask causal"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", path, "--dump", "attention", "--format", "json", NULL});
    ck_assert_int_eq(r.status, 0);
    cli_result_free(&r);
    cli_expect_error((const char *[]){"--load", path, "--heads", "1", "--dump", "all", NULL},
                     "--heads cannot be combined with a model file");
    remove(path);
    free(path);
    cli_expect_error((const char *[]){"--train", "first-prev", "--steps", "1", "--save",
                                      "/nonexistent-dir/m.json", "--dump", "summary", NULL},
                     "/nonexistent-dir/m.json");
}
END_TEST

START_TEST(train_task_file)
{
    char *path = tmp_file("{\"vocab\": [\"a\", \"b\", \"c\"], \"outputs\": [\"next\"],"
                          " \"tokens\": [[0, 1, 2], [1, 2, 0], [2, 0, 1]],"
                          " \"targets\": [[[1, 2, -1], [2, 0, -1], [0, 1, -1]]]}");
    struct cli_result r = cli_run((const char *[]){"--train", path, "--steps", "300", "--dump",
                                                   "summary", "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *root = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "vocab")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "context")), 3);
    ck_assert_double_ge(
        json_number_value(json_object_get(json_object_get(root, "accuracy"), "next")), 0.99);
    json_decref(root);
    cli_result_free(&r);
    remove(path);
    free(path);
    path = tmp_file("{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"next\"],"
                    " \"tokens\": [[0, 1]], \"targets\": [[[1, 2]]]}");
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL},
                     "\"targets[0] (next)\" row 0, column 1: id 2 is out of range");
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL}, path);
    remove(path);
    free(path);
}
END_TEST

START_TEST(train_usage_errors)
{
    cli_expect_error((const char *[]){"--train", "no-such-task", "--dump", "summary", NULL},
                     "--train: unknown task 'no-such-task'; expected first-prev, prev");
    cli_expect_error((const char *[]){"--dump", "summary", NULL}, "--dump summary needs --train");
    cli_expect_error((const char *[]){"--lr", "0.1", NULL}, "--lr needs --train");
    cli_expect_error((const char *[]){"--train", "prev", "--heads", "3", "--dump", "summary", NULL},
                     "--heads:");
    cli_expect_error(
        (const char *[]){"--train", "prev", "--batch", "x.json", "--dump", "summary", NULL},
        "--batch: with --train give the number");
    cli_expect_error(
        (const char *[]){"--train", "find-copy", "--vocab", "4", "--dump", "summary", NULL},
        "--vocab 4: task find-copy needs");
    cli_expect_error((const char *[]){"--train", "prev", "--batch", "4096", "--context", "64",
                                      "--d-model", "256", "--dump", "summary", NULL},
                     "GiB to keep every activation; the limit is 1 GiB");
    cli_expect_error((const char *[]){"--train", "prev", "--dump", "attention", NULL},
                     "--dump: with --train the dump is 'summary'");
    cli_expect_error(
        (const char *[]){"--train", "prev", "--dump", "summary", "--format", "svg", NULL},
        "--format: the training summary is text or json");
}
END_TEST

static Suite *cli_train_suite(void)
{
    Suite *s = suite_create("cli_train");
    TCase *tc = tcase_create("train");
    tcase_add_test(tc, grad_matches_torch);
    tcase_add_test(tc, grad_errors);
    tcase_add_test(tc, train_summary_deterministic);
    tcase_add_test(tc, save_and_load_model);
    tcase_add_test(tc, train_task_file);
    tcase_add_test(tc, train_usage_errors);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_train_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
