/* test_engine_generator.c - the random number generator against the
 * reference's draws, and examples generated from a seed: the same every
 * time, in range, equal to the reference's cases, and scaling's contrast
 * between scaled and unscaled weights. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mha.h"
#include "engine/rng.h"
#include "engine/stages.h"
#include "engine_ref.h"

/* --------------------------------------------------------- TCase generator */

/* The first outputs of mulberry32 equal the ones the Python generator
 * computed (exactly: both are a 32-bit integer over 2^32). */
START_TEST(test_rng_matches_reference)
{
    const json_t *rng = json_object_get(eref_doc, "rng");
    ck_assert_ptr_nonnull(rng);
    const char *key;
    const json_t *values;
    int seeds = 0;
    json_object_foreach((json_t *)rng, key, values)
    {
        struct rng r;
        rng_init(&r, (uint32_t)strtoul(key, NULL, 10));
        ck_assert_uint_eq(json_array_size(values), 10);
        for (size_t i = 0; i < json_array_size(values); i++)
            ck_assert_double_eq(rng_next(&r), json_number_value(json_array_get(values, i)));
        seeds++;
    }
    ck_assert_int_eq(seeds, 2);
}
END_TEST

START_TEST(test_rng_range)
{
    struct rng r;
    rng_init(&r, 12345);
    for (int i = 0; i < 10000; i++) {
        const double x = rng_next(&r);
        ck_assert(x >= 0.0 && x < 1.0);
        const double u = rng_uniform(&r, -2.0, 2.0);
        ck_assert(u >= -2.0 && u < 2.0);
    }
}
END_TEST

static bool same_numbers(const struct mha_example *a, const struct mha_example *b)
{
    const size_t d = (size_t)a->d_model;
    return memcmp(a->query, b->query, (size_t)a->lq * d * sizeof(float)) == 0 &&
           memcmp(a->key, b->key, (size_t)a->lk * d * sizeof(float)) == 0 &&
           memcmp(a->value, b->value, (size_t)a->lk * d * sizeof(float)) == 0 &&
           memcmp(a->w_q, b->w_q, 4 * d * d * sizeof(float)) == 0;
}

START_TEST(test_generated_deterministic)
{
    struct mha_error err;
    const char *const labels[] = {"the", "cat", "sat", "on", "mats"};
    struct mha_example *a = mha_example_generated(5, labels, 8, 2, 1234, &err);
    struct mha_example *b = mha_example_generated(5, labels, 8, 2, 1234, &err);
    struct mha_example *c = mha_example_generated(5, labels, 8, 2, 1235, &err);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    ck_assert_ptr_nonnull(c);
    ck_assert_uint_eq(a->seed, 1234);
    ck_assert_uint_eq(c->seed, 1235);
    ck_assert_str_eq(a->tokens[1], "cat");
    ck_assert_str_eq(a->key_tokens[4], "mats");
    ck_assert(same_numbers(a, b));
    ck_assert(!same_numbers(a, c));
    ck_assert(!a->has_bias);
    ck_assert(!eref_any_nonzero(a->b_q, 8) && !eref_any_nonzero(a->b_k, 8));
    ck_assert(!eref_any_nonzero(a->b_v, 8) && !eref_any_nonzero(a->b_o, 8));
    /* the three inputs are separate draws, not copies */
    ck_assert(memcmp(a->query, a->key, 5 * 8 * sizeof(float)) != 0);
    ck_assert(memcmp(a->key, a->value, 5 * 8 * sizeof(float)) != 0);

    struct mha_trace *ta = eref_run_example(a, "a"), *tb = eref_run_example(b, "b");
    ck_assert(memcmp(ta->output, tb->output, 5 * 8 * sizeof(float)) == 0);
    mha_trace_free(ta);
    mha_trace_free(tb);
    mha_example_free(a);
    mha_example_free(b);
    mha_example_free(c);
}
END_TEST

/* mha_example_generate draws from [-2, 2) for inputs and, away from the
 * page's example, from +-1/sqrt(d_model) for weights. */
START_TEST(test_generated_ranges)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_generated(7, NULL, 12, 3, 99, &err);
    ck_assert_ptr_nonnull(ex);
    for (size_t i = 0; i < 3 * 7 * 12; i++)
        ck_assert(ex->query[i] >= -2.0f && ex->query[i] < 2.0f);
    for (size_t i = 0; i < 4 * 12 * 12; i++)
        ck_assert(ex->w_q[i] >= -1.0f / sqrtf(12.0f) && ex->w_q[i] < 1.0f / sqrtf(12.0f));
    ck_assert_str_eq(ex->tokens[6], "tok 6");
    mha_example_free(ex);
}
END_TEST

/* Every case the reference drew from a seed ("generated"): the engine's
 * generator gives exactly its inputs and weights (the page's example from
 * [-1, 1), every other one from nn.Linear's +-1/sqrt(d_model)), and the
 * stages agree with the reference. */
START_TEST(test_generated_cases)
{
    const enum mat_backend backend = eref_backend_for(_i);
    size_t i;
    const json_t *c;
    int seen = 0;
    json_array_foreach(eref_cases, i, c)
    {
        const json_t *gen = json_object_get(c, "generated");
        if (!gen)
            continue;
        seen++;
        const int lq = eref_read_int(c, "lq"), lk = eref_read_int(c, "lk");
        const int d = eref_read_int(c, "d_model"), heads = eref_read_int(c, "heads");
        const bool cross = eref_read_bool(c, "cross");
        const uint32_t seed = (uint32_t)eref_read_int(gen, "seed");
        struct mha_error err;
        mha_error_clear(&err);
        struct mha_example *ex = mha_example_new(lq, lk, d, heads, cross, &err);
        ck_assert_msg(ex != NULL, "%s: %s", eref_case_name(c), err.text);
        mha_example_generate(ex, seed);
        ex->scaled = eref_read_bool(c, "scaled");
        ck_assert_double_eq(mha_generated_weight_bound(lq, lk, d, cross, seed),
                            json_number_value(json_object_get(gen, "bound")));
        const size_t dd = (size_t)d;
        const struct {
            const char *key;
            const float *got;
            size_t n;
        } parts[] = {
            {"query", ex->query, (size_t)lq * dd},
            {"key", ex->key, (size_t)lk * dd},
            {"value", ex->value, (size_t)lk * dd},
            {"w_q", ex->w_q, dd * dd},
            {"w_k", ex->w_k, dd * dd},
            {"w_v", ex->w_v, dd * dd},
            {"w_o", ex->w_o, dd * dd},
        };
        for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
            float *exp = eref_read_floats(c, parts[p].key, parts[p].n);
            for (size_t k = 0; k < parts[p].n; k++)
                ck_assert_msg(parts[p].got[k] == exp[k], "%s: %s[%zu] is %.9g, reference %.9g",
                              eref_case_name(c), parts[p].key, k, (double)parts[p].got[k],
                              (double)exp[k]);
            free(exp);
        }
        struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
        eref_compare_all_stages(c, t, backend);
        mha_trace_free(t);
        mha_example_free(ex);
    }
    ck_assert_int_ge(seen, 5);
}
END_TEST

static int cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Medians over seeds 1..8 of the largest weight in each softmax row of a
 * generated example, scaled (*on) and not (*off). */
static void median_row_max(int n, int d, int heads, float *on, float *off)
{
    const int seeds = 8;
    const size_t rows = (size_t)seeds * (size_t)heads * (size_t)n;
    float *maxes[2] = {malloc(rows * sizeof(float)), malloc(rows * sizeof(float))};
    ck_assert(maxes[0] && maxes[1]);
    size_t m = 0;
    for (int s = 1; s <= seeds; s++) {
        struct mha_error err;
        struct mha_example *ex = mha_example_generated(n, NULL, d, heads, (uint32_t)s, &err);
        ck_assert_ptr_nonnull(ex);
        for (int k = 0; k < 2; k++) {
            ex->scaled = k == 0;
            struct mha_trace *t = eref_run_example(ex, "median");
            for (size_t r = 0; r < (size_t)heads * (size_t)n; r++) {
                float top = 0.0f;
                for (int j = 0; j < n; j++)
                    top = fmaxf(top, t->weights[r * (size_t)n + (size_t)j]);
                maxes[k][m + r] = top;
            }
            mha_trace_free(t);
        }
        m += (size_t)heads * (size_t)n;
        mha_example_free(ex);
    }
    for (int k = 0; k < 2; k++)
        qsort(maxes[k], m, sizeof(float), cmp_float);
    *on = (maxes[0][m / 2 - 1] + maxes[0][m / 2]) / 2.0f;
    *off = (maxes[1][m / 2 - 1] + maxes[1][m / 2]) / 2.0f;
    free(maxes[0]);
    free(maxes[1]);
}

/* Generated weights beyond the page's example keep softmax soft when scaled
 * and sharpen it when not, at every width the lessons use: with [-1, 1)
 * weights at d_model 24 the scaled rows were already one-hot (median 0.99). */
START_TEST(test_generated_scaling_contrast)
{
    static const int sizes[][3] = {{4, 24, 4}, {10, 64, 8}, {6, 12, 2}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        const int n = sizes[k][0], d = sizes[k][1], h = sizes[k][2];
        float on, off;
        median_row_max(n, d, h, &on, &off);
        ck_assert_msg(on < 0.75f, "d_model %d, %d heads: scaled median row max %.3f", d, h,
                      (double)on);
        ck_assert_msg(off > on + 0.05f, "d_model %d, %d heads: unscaled %.3f vs scaled %.3f", d, h,
                      (double)off, (double)on);
    }
    /* the page's example keeps its own numbers: weights from [-1, 1) */
    ck_assert_double_eq(mha_generated_weight_bound(4, 4, 6, false, 42), 1.0);
    ck_assert_double_eq(mha_generated_weight_bound(4, 4, 6, true, 42), 1.0 / sqrt(6.0));
    ck_assert_double_eq(mha_generated_weight_bound(4, 4, 6, false, 43), 1.0 / sqrt(6.0));
    ck_assert_double_eq(mha_generated_weight_bound(5, 5, 6, false, 42), 1.0 / sqrt(6.0));
}

/* ------------------------------------------------------------ the TCases */

void engine_add_generated(Suite *s)
{
    TCase *tc = tcase_create("generated");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_generated_cases, 0, 2);
    tcase_add_test(tc, test_generated_scaling_contrast);
    suite_add_tcase(s, tc);
}

void engine_add_generator(Suite *s)
{
    TCase *tc = tcase_create("generator");
    tcase_add_test(tc, test_rng_matches_reference);
    tcase_add_test(tc, test_rng_range);
    tcase_add_test(tc, test_generated_deterministic);
    tcase_add_test(tc, test_generated_ranges);
    suite_add_tcase(s, tc);
}
