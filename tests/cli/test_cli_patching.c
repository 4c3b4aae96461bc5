/* test_cli_patching.c - --dump patching: every case of
 * tests/data/patching/cases.json (tests/reference/generate_patching.py, a
 * numpy pass of its own on the model files) run through the program, the
 * answers, the logit differences and each head's share held to it; the
 * figures the text gives; and every way the options can be wrong. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_run.h"
#include "check_run.h"

static char root[2048];

static void setup(void)
{
    const char *dir = getenv("MHA_DATA_DIR");
    snprintf(root, sizeof root, "%s", dir ? dir : ".");
}

static void near(double got, double want, const char *what, int i)
{
    ck_assert_msg(fabs(got - want) <= 1e-4 * (1.0 + fabs(want)), "case %d: %s %.9g, numpy %.9g", i,
                  what, got, want);
}

static void run_case(json_t *c, int i)
{
    char model[4096];
    snprintf(model, sizeof model, "%s/%s", root, json_string_value(json_object_get(c, "model")));
    const char *args[16] = {"--load",    model,
                            "--tokens",  json_string_value(json_object_get(c, "tokens")),
                            "--corrupt", json_string_value(json_object_get(c, "corrupt")),
                            "--dump",    "patching",
                            "--format",  "json"};
    int a = 10;
    if (json_is_string(json_object_get(c, "answer")))
        args[a++] = "--answer", args[a++] = json_string_value(json_object_get(c, "answer"));
    args[a] = NULL;
    struct cli_result r = cli_run(args);
    ck_assert_msg(r.status == 0, "case %d: %s", i, r.err);
    json_t *root_json = json_loads(r.out, 0, NULL);
    json_t *p = json_object_get(root_json, "patching");
    ck_assert_msg(p != NULL, "case %d: %s", i, r.out);
    ck_assert_str_eq(json_string_value(json_object_get(p, "output")),
                     json_string_value(json_object_get(c, "output")));
    json_t *ans = json_object_get(p, "answer");
    ck_assert_str_eq(json_string_value(json_array_get(ans, 0)),
                     json_string_value(json_object_get(c, "a")));
    ck_assert_str_eq(json_string_value(json_array_get(ans, 1)),
                     json_string_value(json_object_get(c, "b")));
    near(json_number_value(json_object_get(p, "d_clean")),
         json_number_value(json_object_get(c, "d_clean")), "d_clean", i);
    near(json_number_value(json_object_get(p, "d_corrupt")),
         json_number_value(json_object_get(c, "d_corrupt")), "d_corrupt", i);
    const bool measurable = json_is_true(json_object_get(c, "measurable"));
    ck_assert_int_eq(json_is_true(json_object_get(p, "measurable")), measurable);
    json_t *heads = json_object_get(p, "heads"), *want = json_object_get(c, "heads");
    ck_assert_uint_eq(json_array_size(heads), json_array_size(want));
    size_t j;
    json_t *h;
    json_array_foreach(want, j, h)
    {
        json_t *g = json_array_get(heads, j);
        ck_assert_int_eq(json_integer_value(json_object_get(g, "layer")),
                         json_integer_value(json_object_get(h, "layer")));
        ck_assert_int_eq(json_integer_value(json_object_get(g, "head")),
                         json_integer_value(json_object_get(h, "head")));
        near(json_number_value(json_object_get(g, "d_patched")),
             json_number_value(json_object_get(h, "d_patched")), "d_patched", i);
        if (measurable)
            ck_assert_msg(fabs(json_number_value(json_object_get(g, "score")) -
                               json_number_value(json_object_get(h, "score"))) <= 1e-4,
                          "case %d head %zu: score %.9g, numpy %.9g", i, j,
                          json_number_value(json_object_get(g, "score")),
                          json_number_value(json_object_get(h, "score")));
        else
            ck_assert(json_is_null(json_object_get(g, "score")));
    }
    json_decref(root_json);
    cli_result_free(&r);
}

START_TEST(against_numpy)
{
    json_error_t jerr;
    json_t *data = json_load_file(cli_data_path("patching/cases.json"), 0, &jerr);
    ck_assert_msg(data, "cases.json: %s", jerr.text);
    size_t i;
    json_t *c;
    ck_assert_uint_ge(json_array_size(json_object_get(data, "cases")), 5);
    json_array_foreach(json_object_get(data, "cases"), i, c) run_case(c, (int)i);
    json_decref(data);
}
END_TEST

/* The text: the answers, both differences and a figure per head; where the
 * runs answer alike it says so instead of a figure. */
START_TEST(text)
{
    char model[4096];
    snprintf(model, sizeof model, "%s/assets/models/sentences.json", root);
    struct cli_result r =
        cli_run((const char *[]){"--load", model, "--tokens", "the cat sat on the", "--corrupt",
                                 "the dog sat on the", "--dump", "patching", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "A \"mat\", B \"rug\" (each run's likeliest)"));
    ck_assert_ptr_nonnull(strstr(r.out, "d_clean 6.1230"));
    ck_assert_ptr_nonnull(strstr(r.out, "d_corrupt -4.7335"));
    ck_assert_ptr_nonnull(strstr(r.out, "  layer 0   head 0   0.966  head 1   0.034\n"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", model, "--tokens", "the cat sat on the", "--corrupt",
                                 "the cat sat on the", "--dump", "patching", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "too small to divide by"));
    cli_result_free(&r);
}
END_TEST

START_TEST(errors)
{
    char model[4096];
    snprintf(model, sizeof model, "%s/assets/models/sentences.json", root);
    cli_expect_error((const char *[]){"--load", model, "--tokens", "the cat sat on the",
                                      "--corrupt", "the dog sat", "--dump", "patching", NULL},
                     "--corrupt: 3 words, and the clean run (--tokens) has 5");
    cli_expect_error(
        (const char *[]){"--load", model, "--tokens", "the cat", "--dump", "patching", NULL},
        "--dump patching needs --corrupt CORRUPTED");
    /* without --dump, --corrupt is the explorer's patching view of a loaded model */
    cli_expect_error((const char *[]){"--tokens", "the cat", "--corrupt", "the dog", NULL},
                     "--corrupt opens the explorer's patching view of a trained model: give "
                     "--load MODEL (or --load MODEL --tokens CLEAN --corrupt CORRUPTED --dump "
                     "patching)");
    cli_expect_error(
        (const char *[]){"--load", model, "--corrupt", "the dog", "--answer", "a,b", NULL},
        "--answer needs --load MODEL --tokens CLEAN --corrupt CORRUPTED --dump patching");
    cli_expect_error(
        (const char *[]){"--load", model, "--corrupt", "the dog", "--dump", "lens", NULL},
        "--corrupt cannot be combined with --dump lens");
    cli_expect_error((const char *[]){"--load", model, "--tokens", "the cat", "--corrupt",
                                      "the dog", "--answer", "mat", "--dump", "patching", NULL},
                     "--answer: give two answers, A,B");
    cli_expect_error((const char *[]){"--load", model, "--tokens", "the cat", "--corrupt",
                                      "the dog", "--answer", "mat,mat", "--dump", "patching", NULL},
                     "--answer: A and B are the same answer");
    cli_expect_error((const char *[]){"--load", model, "--tokens", "the cat", "--corrupt",
                                      "the zebra", "--dump", "patching", NULL},
                     "--corrupt: a word is unknown");
    cli_expect_error((const char *[]){"--load", model, "--tokens", "the cat", "--corrupt",
                                      "the dog", "--dump", "patching", "--layer", "0", NULL},
                     "--layer cannot be combined with --dump patching");
    cli_expect_error((const char *[]){"--load", model, "--tokens", "the cat", "--corrupt",
                                      "the dog", "--dump", "patching", "--format", "csv", NULL},
                     "--format: the patching is text or json");
    cli_expect_error(
        (const char *[]){"--tokens", "the cat", "--corrupt", "the dog", "--dump", "patching", NULL},
        "--dump patching runs a trained model");
    cli_expect_error(
        (const char *[]){"--load", model, "--corrupt", "the dog", "--dump", "patching", NULL},
        "--dump patching needs the clean run's words");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_patching");
    TCase *tc = tcase_create("patching");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, against_numpy);
    tcase_add_test(tc, text);
    tcase_add_test(tc, errors);
    suite_add_tcase(s, tc);
    return check_run(s);
}
