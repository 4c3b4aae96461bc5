/* test_cli_variants.c - --variant on the command line: each variant of the
 * issue's list trains first-prev at d_model 16, 4 heads, its summary
 * naming it, its parameters and cache, its saved file holding what it
 * means and read back by the other modes; a file that breaks its variant,
 * bad values and out-of-place options: a message and status 2. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "test_tmp.h"

#define D 16
#define HEADS 4

static const struct {
    const char *name;
    long parameters; /* counted by hand: 2016 for the standard block at these sizes */
    long cache;      /* floats per token and layer */
} variants[] = {
    {"shared-qk", 2016 - 256 - 16, 32},
    {"no-wo", 2016 - 256 - 16, 32},
    {"low-rank-wo:2", 2016 - 256 + 2 * 16 * 2, 32},
    {"mqa", 2016 - 2 * 3 * 4 * 17, 8},
    {"gqa:2", 2016 - 2 * 2 * 4 * 17, 16},
};

static json_t *field(json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    ck_assert_msg(v != NULL, "no \"%s\"", k);
    return v;
}

static double at(json_t *m, int r, int c)
{
    return json_number_value(json_array_get(json_array_get(m, (size_t)r), (size_t)c));
}

/* The saved model holds what variant i means. */
static void check_file(int i, json_t *f)
{
    ck_assert_str_eq(json_string_value(field(f, "variant")), variants[i].name);
    json_t *wq = field(f, "w_q"), *wk = field(f, "w_k"), *wv = field(f, "w_v");
    json_t *wo = field(f, "w_o");
    switch (i) {
    case 0: /* shared-qk: w_k = w_q, b_k = b_q */
        ck_assert(json_equal(wq, wk));
        ck_assert(json_equal(field(f, "b_q"), field(f, "b_k")));
        break;
    case 1: /* no-wo: w_o = I, b_o = 0 */
        for (int r = 0; r < D; r++)
            for (int c = 0; c < D; c++)
                ck_assert(at(wo, r, c) == (r == c ? 1.0 : 0.0));
        for (int c = 0; c < D; c++)
            ck_assert(json_number_value(json_array_get(field(f, "b_o"), (size_t)c)) == 0.0);
        break;
    case 2: { /* low-rank-wo:2: w_o = left (16 x 2) · right (2 x 16) */
        json_t *a = field(f, "w_o_left"), *b = field(f, "w_o_right");
        ck_assert_uint_eq(json_array_size(a), D);
        ck_assert_uint_eq(json_array_size(json_array_get(a, 0)), 2);
        ck_assert_uint_eq(json_array_size(b), 2);
        for (int r = 0; r < D; r++)
            for (int c = 0; c < D; c++) {
                const double p = at(a, r, 0) * at(b, 0, c) + at(a, r, 1) * at(b, 1, c);
                ck_assert_msg(fabs(at(wo, r, c) - p) <= 1e-5 * (1 + fabs(p)), "w_o[%d][%d]", r, c);
            }
        break;
    }
    default: { /* mqa, gqa:2: each head's rows of w_k and w_v its group's first head's */
        const int per = i == 3 ? HEADS : HEADS / 2, dk = D / HEADS;
        for (int h = 0; h < HEADS; h++)
            for (int r = 0; r < dk; r++) {
                const int first = h / per * per;
                ck_assert(json_equal(json_array_get(wk, (size_t)(h * dk + r)),
                                     json_array_get(wk, (size_t)(first * dk + r))));
                ck_assert(json_equal(json_array_get(wv, (size_t)(h * dk + r)),
                                     json_array_get(wv, (size_t)(first * dk + r))));
            }
        ck_assert(!json_equal(json_array_get(wk, 0), json_array_get(wk, (size_t)(per * dk))) ||
                  per == HEADS);
    }
    }
}

/* The command for each variant: trained, summarised, saved; the
 * file read back by --load (circuits, --export-torch, --grad's reader). */
START_TEST(variant_trains_and_saves)
{
    const int i = _i;
    char dir[256], model[512];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-variant"));
    snprintf(model, sizeof model, "%s/m.json", dir);
    struct cli_result r = cli_run((const char *[]){
        "--train", "first-prev", "--d-model", "16", "--heads", "4", "--variant", variants[i].name,
        "--save", model, "--dump", "summary", "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *sum = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(sum);
    ck_assert_str_eq(json_string_value(field(sum, "variant")), variants[i].name);
    ck_assert_int_eq(json_integer_value(field(sum, "parameters")), variants[i].parameters);
    json_t *cache = field(sum, "kv_cache");
    ck_assert_int_eq(json_integer_value(field(cache, "floats")), variants[i].cache);
    ck_assert_int_eq(json_integer_value(field(cache, "bytes")), 4 * variants[i].cache);
    json_decref(sum);
    cli_result_free(&r);
    json_t *f = json_load_file(model, 0, NULL);
    ck_assert_ptr_nonnull(f);
    check_file(i, f);
    json_decref(f);

    r = cli_run((const char *[]){"--load", model, "--dump", "circuits", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    char py[512];
    snprintf(py, sizeof py, "%s/m.py", dir);
    r = cli_run((const char *[]){"--load", model, "--export-torch", py, NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    ck_assert_int_eq(test_tmp_remove(dir), 0); /* the script, its weights beside it, the model */
}
END_TEST

/* The text summary names the variant as --variant spells it; a standard
 * model's summary names "standard" and no cache for a task that is not
 * causal. */
START_TEST(summary_text)
{
    struct cli_result r =
        cli_run((const char *[]){"--train", "first-prev", "--d-model", "16", "--heads", "4",
                                 "--variant", "gqa:2", "--steps", "50", "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "variant      gqa:2\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "parameters   1744\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "kv_cache     16 floats (64 bytes) per token and layer\n"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--train", "first-prev", "--d-model", "16", "--heads", "4",
                                 "--steps", "50", "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "variant      standard\nparameters   2016\n"));
    cli_result_free(&r);
}
END_TEST

/* A file whose matrices break its variant: --load says where. */
START_TEST(load_checks_the_variant)
{
    char dir[256], model[512];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-variant"));
    snprintf(model, sizeof model, "%s/m.json", dir);
    struct cli_result r = cli_run((const char *[]){"--train", "first-prev", "--d-model", "8",
                                                   "--variant", "shared-qk", "--steps", "20",
                                                   "--save", model, "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    json_t *f = json_load_file(model, 0, NULL);
    ck_assert_ptr_nonnull(f);
    json_t *cell = json_array_get(json_array_get(json_object_get(f, "w_k"), 2), 5);
    json_real_set(cell, json_number_value(cell) + 1.0);
    ck_assert_int_eq(json_dump_file(f, model, 0), 0);
    json_decref(f);
    cli_expect_error((const char *[]){"--load", model, "--dump", "circuits", NULL},
                     "w_k row 2 column 5 is");
    cli_expect_error((const char *[]){"--load", model, "--dump", "circuits", NULL},
                     "under shared-qk w_k = w_q");
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST

START_TEST(bad_values)
{
    cli_expect_error((const char *[]){"--train", "first-prev", "--d-model", "16", "--heads", "4",
                                      "--variant", "low-rank-wo:16", NULL},
                     "--variant: variant low-rank-wo:16: the rank R must be from 1 to d_model");
    cli_expect_error((const char *[]){"--train", "first-prev", "--d-model", "16", "--heads", "4",
                                      "--variant", "gqa:3", NULL},
                     "--variant: variant gqa:3: the groups G must divide the 4 heads");
    cli_expect_error((const char *[]){"--train", "first-prev", "--variant", "tied", NULL},
                     "--variant: variant 'tied': not one of standard, shared-qk");
    cli_expect_error((const char *[]){"--train", "first-prev", "--variant", "mqa:2", NULL},
                     "mqa takes no number");
    cli_expect_error((const char *[]){"--variant", "mqa", NULL}, "--variant needs --train");
    cli_expect_error((const char *[]){"--train", "first-prev", "--variant", "mqa", "--compare",
                                      "variants=standard,no-wo", NULL},
                     "--variant: --compare variants=... gives the variants");
    cli_expect_error((const char *[]){"--train", "first-prev", "--d-model", "16", "--heads", "4",
                                      "--compare", "variants=standard,gqa:3", NULL},
                     "--compare: variant gqa:3: the groups G must divide the 4 heads");
    cli_expect_error((const char *[]){"--train", "first-prev", "--compare",
                                      "variants=standard,no-wo,mqa,shared-qk,gqa:1", NULL},
                     "--compare: at most 4 runs side by side");
    cli_expect_error(
        (const char *[]){"--train", "first-prev", "--compare", "variants=no-wo,", NULL},
        "ends with a comma");
    cli_expect_error((const char *[]){"--train", "first-prev", "--compare", "variants=no-wo,no-wo",
                                      "--save", "m.json", NULL},
                     "--compare gives a variant twice");
    cli_expect_error((const char *[]){"--train", "first-prev", "--compare",
                                      "variants=standard,no-wo", "--dump", "summary", NULL},
                     "run --dump summary once per --variant");
}
END_TEST

static Suite *variants_suite(void)
{
    Suite *s = suite_create("cli_variants");
    TCase *tc = tcase_create("variants");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, variant_trains_and_saves, 0,
                        (int)(sizeof variants / sizeof variants[0]));
    tcase_add_test(tc, summary_text);
    tcase_add_test(tc, load_checks_the_variant);
    tcase_add_test(tc, bad_values);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(variants_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
