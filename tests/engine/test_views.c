/* test_views.c - shapes, cost and head analysis against numpy's numbers
 * (tests/reference/generate_views.py) and the shape table of the multi-head
 * attention chapter (batch 2, seq 10, d_model 512, 8 heads). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/views.h"

static json_t *cases;

static void load_cases(void)
{
    const char *dir = getenv("MHA_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/views_cases.json", dir ? dir : "tests/data");
    json_error_t jerr;
    cases = json_load_file(path, 0, &jerr);
    ck_assert_msg(cases != NULL, "%s: %s", path, jerr.text);
}

static void drop_cases(void)
{
    json_decref(cases);
}

static void fill(float *dst, json_t *m, int rows, int cols)
{
    for (int i = 0; i < rows; i++)
        for (int j = 0; j < cols; j++)
            dst[i * cols + j] =
                (float)json_number_value(json_array_get(json_array_get(m, (size_t)i), (size_t)j));
}

START_TEST(heads_match_numpy)
{
    json_t *c = json_array_get(json_object_get(cases, "heads"), (size_t)_i);
    const char *name = json_string_value(json_object_get(c, "name"));
    int d = (int)json_integer_value(json_object_get(c, "d_model"));
    int H = (int)json_integer_value(json_object_get(c, "heads"));
    int dk = d / H;
    struct mha_example *ex = mha_example_new(1, 1, d, H, false, NULL);
    ck_assert_ptr_nonnull(ex);
    fill(ex->w_q, json_object_get(c, "w_q"), d, d);
    fill(ex->w_k, json_object_get(c, "w_k"), d, d);
    double *sim = calloc((size_t)(H * H), sizeof *sim), *rank = calloc((size_t)H, sizeof *rank);
    double *sv = calloc((size_t)(H * dk), sizeof *sv);
    struct mha_error err;
    ck_assert_int_eq(views_heads(ex, sim, rank, sv, &err), 0);
    json_t *want_sv = json_object_get(c, "sv"), *want_rank = json_object_get(c, "rank");
    json_t *want_sim = json_object_get(c, "similarity");
    for (int h = 0; h < H; h++) {
        double top = json_number_value(json_array_get(json_array_get(want_sv, (size_t)h), 0));
        for (int x = 0; x < dk; x++) {
            double w =
                json_number_value(json_array_get(json_array_get(want_sv, (size_t)h), (size_t)x));
            ck_assert_msg(fabs(sv[h * dk + x] - w) <= 1e-6 * top + 1e-9,
                          "%s: head %d sv %d: %.10g vs %.10g", name, h, x, sv[h * dk + x], w);
        }
        double wr = json_number_value(json_array_get(want_rank, (size_t)h));
        ck_assert_msg(fabs(rank[h] - wr) <= 1e-4 * wr, "%s: head %d rank %.6g vs %.6g", name, h,
                      rank[h], wr);
        ck_assert(rank[h] >= 1.0 - 1e-9 && rank[h] <= dk + 1e-9);
        for (int j = 0; j < H; j++) {
            double ws =
                json_number_value(json_array_get(json_array_get(want_sim, (size_t)h), (size_t)j));
            ck_assert_msg(fabs(sim[h * H + j] - ws) <= 1e-6, "%s: sim %d,%d: %.8g vs %.8g", name, h,
                          j, sim[h * H + j], ws);
        }
    }
    free(sim);
    free(rank);
    free(sv);
    mha_example_free(ex);
}
END_TEST

START_TEST(heads_refuses_too_wide)
{
    struct mha_example *ex = mha_example_new(1, 1, 1024, 8, false, NULL);
    double sim[64], rank[8], sv[8 * 128];
    struct mha_error err;
    ck_assert_int_ne(views_heads(ex, sim, rank, sv, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "d_model up to 512"));
    mha_example_free(ex);
}
END_TEST

START_TEST(cost_matches_formulas)
{
    json_t *c = json_array_get(json_object_get(cases, "cost"), (size_t)_i);
#define GET(k) json_integer_value(json_object_get(c, k))
    struct views_cost v;
    views_cost(GET("seq_q"), GET("seq_k"), GET("d_model"), GET("heads"),
               json_is_true(json_object_get(c, "bias")), &v);
    ck_assert_int_eq(v.params_weights, GET("params_weights"));
    ck_assert_int_eq(v.params_bias, GET("params_bias"));
    ck_assert_int_eq(v.macs_projection, GET("macs_projection"));
    ck_assert_int_eq(v.macs_scores, GET("macs_scores"));
    ck_assert_int_eq(v.macs_context, GET("macs_context"));
    ck_assert_int_eq(v.macs_output, GET("macs_output"));
    ck_assert_int_eq(v.exps_softmax, GET("exps_softmax"));
    ck_assert_int_eq(v.macs_total, GET("macs_projection") + GET("macs_scores") +
                                       GET("macs_context") + GET("macs_output"));
#undef GET
}
END_TEST

START_TEST(cost_single_and_multi_head_equal_width)
{
    struct views_cost one, eight;
    views_cost(10, 10, 512, 1, false, &one);
    views_cost(10, 10, 512, 8, false, &eight);
    ck_assert_int_eq(one.params_weights, eight.params_weights);
    ck_assert_int_eq(one.macs_total, eight.macs_total);
    ck_assert_int_eq(eight.exps_softmax, 8 * one.exps_softmax);
    ck_assert_int_eq(one.params_weights, 4 * 512 * 512);
}
END_TEST

START_TEST(counts_grouped_by_thousands)
{
    char buf[40];
    ck_assert_str_eq(views_group_digits(0, buf, sizeof buf), "0");
    ck_assert_str_eq(views_group_digits(999, buf, sizeof buf), "999");
    ck_assert_str_eq(views_group_digits(1234567, buf, sizeof buf), "1,234,567");
    ck_assert_str_eq(views_group_digits(-1000, buf, sizeof buf), "-1,000");
    ck_assert_uint_lt(strlen(views_group_digits(1234567, buf, 6)), 6); /* cut to fit */
}
END_TEST

START_TEST(presets_are_consistent)
{
    int n;
    const struct views_preset *p = views_presets(&n);
    ck_assert_int_eq(n, 7);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(p[i].d_model, p[i].heads * p[i].d_k);
    const struct views_preset *g = views_preset_find("gpt3-175b");
    ck_assert_ptr_nonnull(g);
    ck_assert_int_eq(g->d_model, 12288);
    ck_assert_int_eq(g->heads, 96);
    ck_assert_ptr_null(views_preset_find("gpt-5"));
}
END_TEST

START_TEST(shapes_table_for_batch_2_seq_10)
{
    struct views_shape_row rows[VIEWS_SHAPE_ROWS];
    int n = views_shapes(2, 10, 512, 8, rows);
    ck_assert_int_eq(n, VIEWS_SHAPE_ROWS);
    static const char *const want[VIEWS_SHAPE_ROWS] = {
        "(2, 10, 512)",   "(2, 10, 512)",   "(2, 10, 8, 64)", "(2, 8, 10, 64)", "(2, 8, 10, 10)",
        "(2, 8, 10, 10)", "(2, 8, 10, 64)", "(2, 10, 8, 64)", "(2, 10, 512)",   "(2, 10, 512)",
    };
    char buf[64];
    for (int i = 0; i < n; i++)
        ck_assert_str_eq(views_shape_string(&rows[i], buf, sizeof buf), want[i]);
}
END_TEST

/* The cost rows every renderer shows: the biases' row only with biases,
 * each row the counts of its field, the total the sum of the multiply-adds. */
START_TEST(cost_rows_are_the_counts)
{
    for (int bias = 0; bias < 2; bias++) {
        struct views_cost one, many;
        views_cost(10, 12, 512, 1, bias, &one);
        views_cost(10, 12, 512, 8, bias, &many);
        struct views_cost_row rows[VIEWS_COST_ROWS];
        const int n = views_cost_rows(&one, &many, rows);
        ck_assert_int_eq(n, bias ? 9 : 8);
        long long macs_one = 0, macs_many = 0, total_one = -1, total_many = -1;
        bool saw_bias = false;
        for (int i = 0; i < n; i++) {
            saw_bias = saw_bias || strstr(rows[i].what, "biases") != NULL;
            if (!strcmp(rows[i].what, "multiply-adds: total")) {
                total_one = rows[i].one, total_many = rows[i].many;
            } else if (!strncmp(rows[i].what, "multiply-adds:", 14)) {
                macs_one += rows[i].one;
                macs_many += rows[i].many;
            }
        }
        ck_assert(saw_bias == (bool)bias);
        ck_assert_int_eq(total_one, one.macs_total);
        ck_assert_int_eq(total_many, many.macs_total);
        ck_assert_int_eq(macs_one, one.macs_total);
        ck_assert_int_eq(macs_many, many.macs_total);
        ck_assert_int_eq(rows[0].one, 4LL * 512 * 512);
    }
}
END_TEST

static Suite *views_suite(void)
{
    Suite *s = suite_create("views");
    TCase *tc = tcase_create("heads");
    tcase_add_unchecked_fixture(tc, load_cases, drop_cases);
    tcase_add_loop_test(tc, heads_match_numpy, 0, 6);
    tcase_add_test(tc, heads_refuses_too_wide);
    suite_add_tcase(s, tc);
    tc = tcase_create("cost");
    tcase_add_unchecked_fixture(tc, load_cases, drop_cases);
    tcase_add_loop_test(tc, cost_matches_formulas, 0, 4);
    tcase_add_test(tc, cost_single_and_multi_head_equal_width);
    tcase_add_test(tc, counts_grouped_by_thousands);
    tcase_add_test(tc, cost_rows_are_the_counts);
    tcase_add_test(tc, presets_are_consistent);
    suite_add_tcase(s, tc);
    tc = tcase_create("shapes");
    tcase_add_test(tc, shapes_table_for_batch_2_seq_10);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(views_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
