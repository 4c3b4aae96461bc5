/* test_engine.c - the engine against independent reference numbers: every
 * case of tests/data/engine_cases.json under both matrix backends, every
 * stage the trace keeps compared (engine_ref.h says where the numbers come
 * from and how close is close enough), a trace reused for another forward
 * pass, and the default example.  The suite's other topics are in
 * test_engine_masking.c, test_engine_sizes.c and test_engine_generator.c,
 * built into the same executable. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mat.h"
#include "engine/mha.h"
#include "engine/mha_rows.h"
#include "engine/rng.h"
#include "engine/stages.h"
#include "engine_ref.h"

/* --------------------------------------------------------- TCase reference */

START_TEST(test_reference_case)
{
    const json_t *c = json_array_get(eref_cases, (size_t)_i / 2);
    const enum mat_backend backend = eref_backend_for(_i);
    struct mha_example *ex = eref_build_case(c);
    struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
    ck_assert_int_eq(t->d_k, ex->d_model / ex->heads);
    ck_assert(t->causal == ex->causal && t->scaled == ex->scaled);
    const float scale = ex->scaled ? 1.0f / sqrtf((float)t->d_k) : 1.0f;
    ck_assert_float_eq_tol(t->scale, scale, 1e-6f);
    eref_compare_all_stages(c, t, backend);
    /* stage 2 is a view: mha_split_at reads q as (L, H, d_k), the same
     * numbers stage 3 stores as (H, L, d_k) */
    for (int l = 0; l < t->lq; l++)
        for (int h = 0; h < t->heads; h++)
            for (int j = 0; j < t->d_k; j++)
                ck_assert_float_eq(mha_split_at(t, t->q, l, h, j),
                                   t->qh[mha_idx3(t->lq, t->d_k, h, l, j)]);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* Running the same trace again gives the same numbers (no state left over). */
START_TEST(test_forward_reuse)
{
    const enum mat_backend backend = eref_backend_for(_i);
    const json_t *c = eref_case_named("causal_and_mask");
    struct mha_example *ex = eref_build_case(c);
    struct mha_trace *t = eref_run_example(ex, eref_case_name(c));
    struct mha_error err;
    /* every stage poisoned: a forward pass that skipped any of them would
     * leave NaN (or the wrong empty-row flags) behind */
    const size_t lq = (size_t)t->lq, lk = (size_t)t->lk, d = (size_t)t->d_model;
    const size_t h = (size_t)t->heads, d_k = (size_t)t->d_k;
    struct {
        float *x;
        size_t n;
    } stages[] = {
        {t->q, lq * d},
        {t->k, lk * d},
        {t->v, lk * d},
        {t->qh, h * lq * d_k},
        {t->kh, h * lk * d_k},
        {t->vh, h * lk * d_k},
        {t->scores, h * lq * lk},
        {t->scaled_scores, h * lq * lk},
        {t->weights, h * lq * lk},
        {t->context, h * lq * d_k},
        {t->merged, lq * d},
        {t->output, lq * d},
    };
    unsigned char *empty_before = malloc(lq);
    ck_assert_ptr_nonnull(empty_before);
    memcpy(empty_before, t->row_empty, lq);
    const int empty_rows = t->empty_rows;
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++)
        for (size_t i = 0; i < stages[s].n; i++)
            stages[s].x[i] = NAN;
    memset(t->row_empty, 0xAA, lq);
    t->empty_rows = -1;
    ck_assert_int_eq(mha_forward(ex, t, &err), 0);
    eref_compare_all_stages(c, t, backend);
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++)
        ck_assert_msg(eref_all_not_nan(stages[s].x, stages[s].n), "stage buffer %zu left poisoned",
                      s);
    ck_assert_mem_eq(t->row_empty, empty_before, lq);
    ck_assert_int_eq(t->empty_rows, empty_rows);
    free(empty_before);
    mha_trace_free(t);
    mha_example_free(ex);
}

/* ----------------------------------------------------------- TCase default */

START_TEST(test_default_inputs)
{
    const json_t *c = eref_case_named("default");
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_msg(ex != NULL, "mha_example_default: %s", err.text);
    ck_assert_int_eq(ex->lq, 4);
    ck_assert_int_eq(ex->lk, 4);
    ck_assert_int_eq(ex->d_model, 6);
    ck_assert_int_eq(ex->heads, 2);
    ck_assert_uint_eq(ex->seed, 42);
    ck_assert(!ex->causal && ex->scaled && !ex->cross && !ex->has_bias && !ex->has_mask);
    for (int i = 0; i < 4; i++) {
        char label[16];
        snprintf(label, sizeof label, "tok %d", i);
        ck_assert_str_eq(ex->tokens[i], label);
    }
    /* the generator is the same on both sides, so the inputs agree exactly */
    const struct {
        const char *key;
        const float *got;
        size_t n;
    } parts[] = {
        {"query", ex->query, 24}, {"key", ex->key, 24}, {"value", ex->value, 24},
        {"w_q", ex->w_q, 36},     {"w_k", ex->w_k, 36}, {"w_v", ex->w_v, 36},
        {"w_o", ex->w_o, 36},     {"b_q", ex->b_q, 6},  {"b_k", ex->b_k, 6},
        {"b_v", ex->b_v, 6},      {"b_o", ex->b_o, 6},
    };
    for (size_t p = 0; p < sizeof parts / sizeof parts[0]; p++) {
        float *exp = eref_read_floats(c, parts[p].key, parts[p].n);
        for (size_t i = 0; i < parts[p].n; i++)
            ck_assert_float_eq(parts[p].got[i], exp[i]);
        free(exp);
    }
    for (size_t i = 0; i < 16; i++)
        ck_assert_uint_eq(ex->mask[i], 1);
    mha_example_free(ex);
}
END_TEST

START_TEST(test_default_stages)
{
    const enum mat_backend backend = eref_backend_for(_i);
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_msg(ex != NULL, "mha_example_default: %s", err.text);
    struct mha_trace *t = eref_run_example(ex, "default");
    eref_compare_all_stages(eref_case_named("default"), t, backend);
    ck_assert_int_eq(t->empty_rows, 0);
    mha_trace_free(t);
    mha_example_free(ex);
}

/* ---------------------------------------------------------------- TCase lean */

/* Sizes (tokens, d_model, heads) the lean pass is held to the full one on:
 * head widths 1 to 64 (the row kernels' limit), a row group and what is
 * left of one, keys in one register and in several (four or more: the
 * registers of sixteen). */
static const int lean_sizes[][3] = {
    {1, 4, 1},   {3, 6, 3},    {8, 8, 4},   {8, 16, 4},  {9, 16, 2},   {8, 32, 4},
    {16, 32, 4}, {13, 40, 8},  {16, 64, 4}, {24, 24, 8}, {33, 48, 16}, {64, 64, 1},
    {17, 51, 3}, {40, 128, 4}, {64, 80, 5}, {7, 14, 7},  {31, 96, 3},  {16, 48, 4},
    {10, 36, 3}, {64, 256, 4}, {33, 40, 2}, {25, 64, 2}, {57, 96, 6},  {48, 192, 4},
};
#define N_LEAN ((int)(sizeof lean_sizes / sizeof lean_sizes[0]))

/* mha_forward_attend_lean (training's pass) gives the weights and the
 * merged heads of mha_forward_attend to the bit, causal and not, scaled and
 * not, and the backward of a head read in place gives the gradients of the
 * row kernels' backward: the same sums in the same order by another
 * route.  So do the row kernels with registers of sixteen floats and with
 * registers of eight. */
START_TEST(test_lean_same_bits)
{
    const int *sz = lean_sizes[_i / 4];
    const bool causal = _i % 2, scaled = (_i / 2) % 2 == 0;
    struct mha_error err;
    struct mha_example *ex =
        mha_example_generated(sz[0], NULL, sz[1], sz[2], 7u + (uint32_t)_i, &err);
    ck_assert_msg(ex != NULL, "example: %s", err.text);
    ex->causal = causal;
    ex->scaled = scaled;
    struct mha_trace *full = mha_run(ex, &err);
    ck_assert_msg(full != NULL, "forward: %s", err.text);
    struct mha_trace *lean = mha_trace_new(ex, &err);
    ck_assert_ptr_nonnull(lean);
    const size_t n = (size_t)sz[0] * (size_t)sz[1];
    memcpy(lean->q, full->q, n * sizeof(float));
    memcpy(lean->k, full->k, n * sizeof(float));
    memcpy(lean->v, full->v, n * sizeof(float));
    mha_forward_attend_lean(causal, scaled, lean, (struct mha_next){NULL, NULL});
    const size_t att = (size_t)sz[2] * (size_t)sz[0] * (size_t)sz[0];
    ck_assert_msg(memcmp(lean->weights, full->weights, att * sizeof(float)) == 0,
                  "weights differ at (%d, %d, %d), causal %d, scaled %d", sz[0], sz[1], sz[2],
                  causal, scaled);
    ck_assert_msg(memcmp(lean->merged, full->merged, n * sizeof(float)) == 0,
                  "merged heads differ at (%d, %d, %d), causal %d, scaled %d", sz[0], sz[1], sz[2],
                  causal, scaled);
    ck_assert_int_eq(lean->empty_rows, full->empty_rows);
#if MHA_HAVE_ROWS
    /* and the backward of a head read in place gives backward's bits */
    const int L = sz[0], d = sz[1];
    float *d_ctx = malloc(n * sizeof(float)), *got = malloc(3 * n * sizeof(float)),
          *want = malloc(3 * n * sizeof(float));
    ck_assert_ptr_nonnull(d_ctx);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    struct rng r;
    rng_init(&r, 11u + (uint32_t)_i);
    for (size_t x = 0; x < n; x++)
        d_ctx[x] = (float)rng_uniform(&r, -1.0, 1.0);
    for (int h = 0; h < sz[2]; h++) {
        const size_t col = (size_t)h * (size_t)full->d_k;
        const struct mha_rows_head rows = mha_rows_head_of(full, h);
        const struct mha_rows_head cols = mha_rows_head_in_place(full, h);
        mha_rows_backward(&rows, causal, full->scale, d_ctx + col, (size_t)d, want + col,
                          want + n + col, want + 2 * n + col);
        mha_rows_backward(&cols, causal, full->scale, d_ctx + col, (size_t)d, got + col,
                          got + n + col, got + 2 * n + col);
    }
    ck_assert_msg(memcmp(got, want, 3 * n * sizeof(float)) == 0,
                  "d q, d k, d v differ at (%d, %d, %d), causal %d, scaled %d", L, d, sz[2], causal,
                  scaled);
    /* and registers of sixteen (where the processor has AVX-512) give the
     * bits of registers of eight, forward and backward */
    mha_rows_allow_wide(false);
    struct mha_trace *narrow = mha_run(ex, &err);
    ck_assert_msg(narrow != NULL, "forward: %s", err.text);
    for (int h = 0; h < sz[2]; h++) {
        const size_t col = (size_t)h * (size_t)full->d_k;
        const struct mha_rows_head rows = mha_rows_head_of(full, h);
        mha_rows_backward(&rows, causal, full->scale, d_ctx + col, (size_t)d, want + col,
                          want + n + col, want + 2 * n + col);
    }
    mha_rows_allow_wide(true);
    ck_assert_msg(memcmp(narrow->weights, full->weights, att * sizeof(float)) == 0 &&
                      memcmp(narrow->merged, full->merged, n * sizeof(float)) == 0,
                  "sixteen floats a register change the forward pass at (%d, %d, %d), causal %d, "
                  "scaled %d",
                  L, d, sz[2], causal, scaled);
    ck_assert_msg(memcmp(got, want, 3 * n * sizeof(float)) == 0,
                  "sixteen floats a register change d q, d k, d v at (%d, %d, %d), causal %d, "
                  "scaled %d",
                  L, d, sz[2], causal, scaled);
    mha_trace_free(narrow);
    free(d_ctx);
    free(got);
    free(want);
#endif
    mha_trace_free(lean);
    mha_trace_free(full);
    mha_example_free(ex);
}
END_TEST

/* -------------------------------------------------------------- the suite */

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    const int n_cases = (int)json_array_size(eref_cases);

    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_reference_case, 0, 2 * n_cases);
    tcase_add_loop_test(tc, test_forward_reuse, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("default");
    tcase_add_test(tc, test_default_inputs);
    tcase_add_loop_test(tc, test_default_stages, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("lean");
    tcase_add_loop_test(tc, test_lean_same_bits, 0, 4 * N_LEAN);
    suite_add_tcase(s, tc);

    engine_add_generated(s); /* the reference's draws, and scaling's contrast */
    engine_add_masking(s);   /* masking, huge */
    engine_add_long(s);      /* heads of more than 64 keys */
    engine_add_sizes(s);     /* sizes, stages */
    engine_add_generator(s);
    return s;
}

int main(int argc, char **argv)
{
    if (eref_load(argc, argv))
        return 2;
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    json_decref(eref_doc);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
