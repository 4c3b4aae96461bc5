/* test_engine_masking.c - the engine's masks: a masked weight is exactly
 * zero, a row with every key masked gives zeros rather than NaN, no other
 * row is empty; and scores large enough to overflow a naive softmax. */
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

/* ----------------------------------------------------------- TCase masking */

/* In every case, where the reference says masked (scaled is null), the
 * engine agrees and its weight is exactly 0.0f; elsewhere it is positive. */
START_TEST(test_masked_weights_exact_zero)
{
    eref_backend_for(_i);
    size_t ci;
    const json_t *c;
    json_array_foreach(eref_cases, ci, c)
    {
        struct mha_example *ex = eref_build_case(c);
        struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
        const size_t n = (size_t)t->heads * (size_t)t->lq * (size_t)t->lk;
        float *ref = eref_read_floats(json_object_get(c, "expected"), "scaled", n);
        for (int h = 0; h < t->heads; h++)
            for (int i = 0; i < t->lq; i++)
                for (int j = 0; j < t->lk; j++) {
                    const size_t at = mha_idx3(t->lq, t->lk, h, i, j);
                    const bool masked = isnan(ref[at]);
                    ck_assert_msg(mha_is_masked(ex, i, j) == masked,
                                  "%s: mha_is_masked(%d, %d) disagrees with the reference",
                                  eref_case_name(c), i, j);
                    if (masked)
                        ck_assert_msg(t->weights[at] == 0.0f,
                                      "%s: masked weight [%d][%d][%d] is %g, not 0",
                                      eref_case_name(c), h, i, j, (double)t->weights[at]);
                    else if (!t->row_empty[i])
                        ck_assert_float_ge(t->weights[at], 0.0f);
                }
        free(ref);
        mha_trace_free(t);
        mha_example_free(ex);
    }
}
END_TEST

START_TEST(test_fully_masked_row)
{
    eref_backend_for(_i);
    const json_t *c = eref_case_named("fully_masked_row");
    struct mha_example *ex = eref_build_case(c);
    struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
    const int empty = 2; /* the row the generator masks completely */
    ck_assert_int_eq(t->empty_rows, 1);
    for (int i = 0; i < t->lq; i++)
        ck_assert_uint_eq(t->row_empty[i], i == empty);
    for (int h = 0; h < t->heads; h++) {
        for (int j = 0; j < t->lk; j++) {
            ck_assert_float_eq(t->weights[mha_idx3(t->lq, t->lk, h, empty, j)], 0.0f);
            ck_assert_float_infinite(t->scaled_scores[mha_idx3(t->lq, t->lk, h, empty, j)]);
        }
        for (int j = 0; j < t->d_k; j++)
            ck_assert_float_eq(t->context[mha_idx3(t->lq, t->d_k, h, empty, j)], 0.0f);
    }
    const size_t d = (size_t)t->d_model;
    for (size_t j = 0; j < d; j++) {
        ck_assert_float_eq(t->merged[(size_t)empty * d + j], 0.0f);
        ck_assert_float_eq(t->output[(size_t)empty * d + j], ex->b_o[j]);
    }
    const size_t att = (size_t)t->heads * (size_t)t->lq * (size_t)t->lk;
    const size_t ctx = (size_t)t->heads * (size_t)t->lq * (size_t)t->d_k;
    ck_assert(eref_all_not_nan(t->q, (size_t)t->lq * d));
    ck_assert(eref_all_not_nan(t->scores, att));
    ck_assert(eref_all_not_nan(t->scaled_scores, att));
    ck_assert(eref_all_not_nan(t->weights, att));
    ck_assert(eref_all_not_nan(t->context, ctx));
    ck_assert(eref_all_not_nan(t->merged, (size_t)t->lq * d));
    ck_assert(eref_all_not_nan(t->output, (size_t)t->lq * d));
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* A row is empty exactly when the case's mask masks every key of it (no
 * case's causal mask empties a row). */
START_TEST(test_no_empty_rows_elsewhere)
{
    size_t ci;
    const json_t *c;
    json_array_foreach(eref_cases, ci, c)
    {
        struct mha_example *ex = eref_build_case(c);
        struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
        const json_t *mask = json_object_get(c, "mask");
        int want = 0;
        for (int i = 0; i < t->lq; i++) {
            bool empty = json_is_array(mask);
            for (int j = 0; empty && j < t->lk; j++)
                empty = json_integer_value(
                            json_array_get(json_array_get(mask, (size_t)i), (size_t)j)) == 0;
            want += empty;
            ck_assert_msg(t->row_empty[i] == empty, "%s: row %d", eref_case_name(c), i);
        }
        ck_assert_msg(t->empty_rows == want, "%s: %d empty rows, want %d", eref_case_name(c),
                      t->empty_rows, want);
        mha_trace_free(t);
        mha_example_free(ex);
    }
}

/* -------------------------------------------------------------- TCase huge */

START_TEST(test_huge_scores)
{
    eref_backend_for(_i);
    const json_t *c = eref_case_named("huge_scores");
    struct mha_example *ex = eref_build_case(c);
    struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
    float top = 0.0f;
    for (size_t i = 0; i < (size_t)t->heads * (size_t)t->lq * (size_t)t->lk; i++)
        top = fmaxf(top, fabsf(t->scores[i]));
    ck_assert_float_gt(top, 1000.0f); /* the case really is huge */
    for (int h = 0; h < t->heads; h++)
        for (int i = 0; i < t->lq; i++) {
            double sum = 0.0;
            for (int j = 0; j < t->lk; j++) {
                const float w = t->weights[mha_idx3(t->lq, t->lk, h, i, j)];
                ck_assert_float_finite(w);
                ck_assert_float_ge(w, 0.0f);
                sum += w;
            }
            ck_assert_double_eq_tol(sum, 1.0, 1e-6);
        }
    for (size_t i = 0; i < (size_t)t->lq * (size_t)t->d_model; i++)
        ck_assert_float_finite(t->output[i]);
    mha_trace_free(t);
    mha_example_free(ex);
}

/* ------------------------------------------------------------ the TCases */

void engine_add_masking(Suite *s)
{
    TCase *tc = tcase_create("masking");
    tcase_add_loop_test(tc, test_masked_weights_exact_zero, 0, 2);
    tcase_add_loop_test(tc, test_fully_masked_row, 0, 2);
    tcase_add_test(tc, test_no_empty_rows_elsewhere);
    suite_add_tcase(s, tc);

    tc = tcase_create("huge");
    tcase_add_loop_test(tc, test_huge_scores, 0, 2);
    suite_add_tcase(s, tc);
}
