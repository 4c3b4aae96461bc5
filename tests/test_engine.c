/* test_engine.c - the engine against independent reference numbers.
 *
 * The numbers come from tests/data/engine_cases.json, written by
 * tests/reference/generate_engine.py (torch.nn.MultiheadAttention plus a
 * numpy stage-by-stage path).  Every case runs under both matrix backends and
 * every stage the trace keeps is compared.
 *
 * Where the data is: argv[1] (the JSON file), else $MHA_TEST_DATA (a folder
 * holding engine_cases.json, or the file itself).
 *
 * Tolerance: a stored float32 reference e and an engine value g agree when
 *     |g - e| < TOL_REL * |e| + TOL_ABS * scale
 * where scale = max(1, largest |e| of that stage in that case).  Both sides
 * are float32 computations that differ only in summation order, so the
 * error grows with the size of the terms, not of the one result; the stage
 * scale covers results that are small through cancellation (raw scores in the
 * thousands whose scaled difference is a weight near 0.5).
 */
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

#ifndef TOL_REL
#define TOL_REL 1e-4
#endif
#ifndef TOL_ABS
#define TOL_ABS 1e-5
#endif

static json_t *doc;   /* the whole reference file */
static json_t *cases; /* doc["cases"] */

/* ------------------------------------------------------------ reading data */

/* Walk nested arrays of numbers into dst (null becomes NAN).  Returns how
 * many numbers there were, or (size_t)-1 on anything that is not a number. */
static size_t flatten(const json_t *j, float *dst, size_t cap, size_t n)
{
    if (json_is_array(j)) {
        size_t i;
        const json_t *item;
        json_array_foreach(j, i, item)
        {
            n = flatten(item, dst, cap, n);
            if (n == (size_t)-1)
                return n;
        }
        return n;
    }
    if (!json_is_number(j) && !json_is_null(j))
        return (size_t)-1;
    if (n < cap)
        dst[n] = json_is_null(j) ? NAN : (float)json_number_value(j);
    return n + 1;
}

/* obj[key] as a new array of exactly count floats (the caller frees). */
static float *read_floats(const json_t *obj, const char *key, size_t count)
{
    const json_t *j = json_object_get(obj, key);
    ck_assert_msg(j != NULL, "reference data has no \"%s\"", key);
    float *out = malloc(count * sizeof *out);
    ck_assert_ptr_nonnull(out);
    size_t n = flatten(j, out, count, 0);
    ck_assert_msg(n == count, "\"%s\": %zu numbers, expected %zu", key, n, count);
    return out;
}

static int read_int(const json_t *obj, const char *key)
{
    const json_t *j = json_object_get(obj, key);
    ck_assert_msg(json_is_integer(j), "reference data: \"%s\" is not an integer", key);
    return (int)json_integer_value(j);
}

static bool read_bool(const json_t *obj, const char *key)
{
    const json_t *j = json_object_get(obj, key);
    ck_assert_msg(json_is_boolean(j), "reference data: \"%s\" is not a boolean", key);
    return json_is_true(j);
}

static const char *case_name(const json_t *c)
{
    const char *name = json_string_value(json_object_get(c, "name"));
    return name ? name : "?";
}

static const json_t *case_named(const char *name)
{
    size_t i;
    const json_t *c;
    json_array_foreach(cases, i, c)
    {
        if (strcmp(case_name(c), name) == 0)
            return c;
    }
    ck_abort_msg("reference data has no case \"%s\"", name);
    return NULL;
}

static void copy_floats(const json_t *c, const char *key, float *dst, size_t count)
{
    float *src = read_floats(c, key, count);
    memcpy(dst, src, count * sizeof *dst);
    free(src);
}

static bool any_nonzero(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] != 0.0f)
            return true;
    return false;
}

/* An engine example holding case c's inputs and flags. */
static struct mha_example *build_case(const json_t *c)
{
    const int lq = read_int(c, "lq"), lk = read_int(c, "lk");
    const int d = read_int(c, "d_model"), heads = read_int(c, "heads");
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = mha_example_new(lq, lk, d, heads, read_bool(c, "cross"), &err);
    ck_assert_msg(ex != NULL, "%s: mha_example_new: %s", case_name(c), err.text);
    const size_t dd = (size_t)d;
    copy_floats(c, "query", ex->query, (size_t)lq * dd);
    copy_floats(c, "key", ex->key, (size_t)lk * dd);
    copy_floats(c, "value", ex->value, (size_t)lk * dd);
    copy_floats(c, "w_q", ex->w_q, dd * dd);
    copy_floats(c, "w_k", ex->w_k, dd * dd);
    copy_floats(c, "w_v", ex->w_v, dd * dd);
    copy_floats(c, "w_o", ex->w_o, dd * dd);
    copy_floats(c, "b_q", ex->b_q, dd);
    copy_floats(c, "b_k", ex->b_k, dd);
    copy_floats(c, "b_v", ex->b_v, dd);
    copy_floats(c, "b_o", ex->b_o, dd);
    ex->has_bias = any_nonzero(ex->b_q, dd) || any_nonzero(ex->b_k, dd) ||
                   any_nonzero(ex->b_v, dd) || any_nonzero(ex->b_o, dd);
    ex->causal = read_bool(c, "causal");
    ex->scaled = read_bool(c, "scaled");
    const json_t *mask = json_object_get(c, "mask");
    ex->has_mask = !json_is_null(mask);
    if (ex->has_mask) {
        const size_t n = (size_t)lq * (size_t)lk;
        float *m = read_floats(c, "mask", n);
        for (size_t i = 0; i < n; i++)
            ex->mask[i] = m[i] != 0.0f;
        free(m);
    }
    return ex;
}

static struct mha_trace *run_example(const struct mha_example *ex, const char *name)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_trace *t = mha_run(ex, &err);
    ck_assert_msg(t != NULL, "%s: mha_run: %s", name, err.text);
    return t;
}

/* ------------------------------------------------------------ comparing */

/* Compare n engine values with the stored stage key of case c.  A null in
 * the reference (a masked scaled score) must be -INFINITY in the engine. */
static void compare_stage(const json_t *c, const char *key, const float *got, size_t n,
                          enum mat_backend backend)
{
    const json_t *expected = json_object_get(c, "expected");
    float *exp = read_floats(expected, key, n);
    double scale = 1.0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(exp[i]) && fabs((double)exp[i]) > scale)
            scale = fabs((double)exp[i]);
    for (size_t i = 0; i < n; i++) {
        if (isnan(exp[i])) {
            ck_assert_msg(isinf(got[i]) && got[i] < 0.0f,
                          "%s/%s: %s[%zu] is masked, engine gave %g instead of -inf", case_name(c),
                          mat_backend_name(backend), key, i, (double)got[i]);
            continue;
        }
        const double tol = TOL_REL * fabs((double)exp[i]) + TOL_ABS * scale;
        if (!(fabs((double)got[i] - (double)exp[i]) < tol))
            fprintf(stderr, "%s/%s: %s[%zu]: engine %.9g, reference %.9g, tolerance %.3g\n",
                    case_name(c), mat_backend_name(backend), key, i, (double)got[i], (double)exp[i],
                    tol);
        ck_assert_float_eq_tol(got[i], exp[i], (float)tol);
    }
    free(exp);
}

static void compare_all_stages(const json_t *c, const struct mha_trace *t, enum mat_backend backend)
{
    const size_t lq = (size_t)t->lq, lk = (size_t)t->lk, d = (size_t)t->d_model;
    const size_t h = (size_t)t->heads, d_k = (size_t)t->d_k;
    compare_stage(c, "q", t->q, lq * d, backend);
    compare_stage(c, "k", t->k, lk * d, backend);
    compare_stage(c, "v", t->v, lk * d, backend);
    compare_stage(c, "qh", t->qh, h * lq * d_k, backend);
    compare_stage(c, "kh", t->kh, h * lk * d_k, backend);
    compare_stage(c, "vh", t->vh, h * lk * d_k, backend);
    compare_stage(c, "scores", t->scores, h * lq * lk, backend);
    compare_stage(c, "scaled", t->scaled_scores, h * lq * lk, backend);
    compare_stage(c, "weights", t->weights, h * lq * lk, backend);
    compare_stage(c, "context", t->context, h * lq * d_k, backend);
    compare_stage(c, "merged", t->merged, lq * d, backend);
    compare_stage(c, "output", t->output, lq * d, backend);
}

static bool all_not_nan(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(x[i]))
            return false;
    return true;
}

/* _i of a loop test over both backends: even = plain, odd = CBLAS. */
static enum mat_backend backend_for(int i)
{
    return mat_set_backend((i % 2) ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN);
}

/* --------------------------------------------------------- TCase reference */

START_TEST(test_reference_case)
{
    const json_t *c = json_array_get(cases, (size_t)_i / 2);
    const enum mat_backend backend = backend_for(_i);
    struct mha_example *ex = build_case(c);
    struct mha_trace *t = run_example(ex, case_name(c));
    ck_assert_int_eq(t->d_k, ex->d_model / ex->heads);
    ck_assert(t->causal == ex->causal && t->scaled == ex->scaled);
    const float scale = ex->scaled ? 1.0f / sqrtf((float)t->d_k) : 1.0f;
    ck_assert_float_eq_tol(t->scale, scale, 1e-6f);
    compare_all_stages(c, t, backend);
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
    const enum mat_backend backend = backend_for(_i);
    const json_t *c = case_named("causal_and_mask");
    struct mha_example *ex = build_case(c);
    struct mha_trace *t = run_example(ex, case_name(c));
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
    compare_all_stages(c, t, backend);
    for (size_t s = 0; s < sizeof stages / sizeof stages[0]; s++)
        ck_assert_msg(all_not_nan(stages[s].x, stages[s].n), "stage buffer %zu left poisoned", s);
    ck_assert_mem_eq(t->row_empty, empty_before, lq);
    ck_assert_int_eq(t->empty_rows, empty_rows);
    free(empty_before);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* ----------------------------------------------------------- TCase default */

START_TEST(test_default_inputs)
{
    const json_t *c = case_named("default");
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
        float *exp = read_floats(c, parts[p].key, parts[p].n);
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
    const enum mat_backend backend = backend_for(_i);
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_msg(ex != NULL, "mha_example_default: %s", err.text);
    struct mha_trace *t = run_example(ex, "default");
    compare_all_stages(case_named("default"), t, backend);
    ck_assert_int_eq(t->empty_rows, 0);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* ----------------------------------------------------------- TCase masking */

/* In every case, where the reference says masked (scaled is null), the
 * engine agrees and its weight is exactly 0.0f; elsewhere it is positive. */
START_TEST(test_masked_weights_exact_zero)
{
    backend_for(_i);
    size_t ci;
    const json_t *c;
    json_array_foreach(cases, ci, c)
    {
        struct mha_example *ex = build_case(c);
        struct mha_trace *t = run_example(ex, case_name(c));
        const size_t n = (size_t)t->heads * (size_t)t->lq * (size_t)t->lk;
        float *ref = read_floats(json_object_get(c, "expected"), "scaled", n);
        for (int h = 0; h < t->heads; h++)
            for (int i = 0; i < t->lq; i++)
                for (int j = 0; j < t->lk; j++) {
                    const size_t at = mha_idx3(t->lq, t->lk, h, i, j);
                    const bool masked = isnan(ref[at]);
                    ck_assert_msg(mha_is_masked(ex, i, j) == masked,
                                  "%s: mha_is_masked(%d, %d) disagrees with the reference",
                                  case_name(c), i, j);
                    if (masked)
                        ck_assert_msg(t->weights[at] == 0.0f,
                                      "%s: masked weight [%d][%d][%d] is %g, not 0", case_name(c),
                                      h, i, j, (double)t->weights[at]);
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
    backend_for(_i);
    const json_t *c = case_named("fully_masked_row");
    struct mha_example *ex = build_case(c);
    struct mha_trace *t = run_example(ex, case_name(c));
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
    ck_assert(all_not_nan(t->q, (size_t)t->lq * d));
    ck_assert(all_not_nan(t->scores, att));
    ck_assert(all_not_nan(t->scaled_scores, att));
    ck_assert(all_not_nan(t->weights, att));
    ck_assert(all_not_nan(t->context, ctx));
    ck_assert(all_not_nan(t->merged, (size_t)t->lq * d));
    ck_assert(all_not_nan(t->output, (size_t)t->lq * d));
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
    json_array_foreach(cases, ci, c)
    {
        struct mha_example *ex = build_case(c);
        struct mha_trace *t = run_example(ex, case_name(c));
        const json_t *mask = json_object_get(c, "mask");
        int want = 0;
        for (int i = 0; i < t->lq; i++) {
            bool empty = json_is_array(mask);
            for (int j = 0; empty && j < t->lk; j++)
                empty = json_integer_value(
                            json_array_get(json_array_get(mask, (size_t)i), (size_t)j)) == 0;
            want += empty;
            ck_assert_msg(t->row_empty[i] == empty, "%s: row %d", case_name(c), i);
        }
        ck_assert_msg(t->empty_rows == want, "%s: %d empty rows, want %d", case_name(c),
                      t->empty_rows, want);
        mha_trace_free(t);
        mha_example_free(ex);
    }
}
END_TEST

/* -------------------------------------------------------------- TCase huge */

START_TEST(test_huge_scores)
{
    backend_for(_i);
    const json_t *c = case_named("huge_scores");
    struct mha_example *ex = build_case(c);
    struct mha_trace *t = run_example(ex, case_name(c));
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
END_TEST

/* ------------------------------------------------------------- TCase sizes */

static void expect_size_error(int lq, int lk, int d_model, int heads, const char *needle)
{
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_ne(mha_check_sizes(lq, lk, d_model, heads, &err), 0);
    ck_assert_msg(strstr(err.text, needle) != NULL,
                  "sizes %d/%d/%d/%d: message \"%s\" does not mention \"%s\"", lq, lk, d_model,
                  heads, err.text, needle);
    /* building an example refuses the same sizes */
    mha_error_clear(&err);
    ck_assert_ptr_null(mha_example_new(lq, lk, d_model, heads, true, &err));
    ck_assert_msg(strstr(err.text, needle) != NULL, "mha_example_new: \"%s\"", err.text);
}

START_TEST(test_heads_must_divide)
{
    expect_size_error(4, 4, 6, 4, "d_k = d_model / heads");
    expect_size_error(4, 4, 6, 4, "1, 2, 3, 6");
    expect_size_error(4, 4, 12, 5, "1, 2, 3, 4, 6, 12");
    expect_size_error(3, 3, 2048, 3, "d_k = d_model / heads");
}
END_TEST

START_TEST(test_token_limits)
{
    expect_size_error(0, 4, 6, 2, "between 1 and 1024");
    expect_size_error(1025, 4, 6, 2, "between 1 and 1024");
    expect_size_error(4, 0, 6, 2, "between 1 and 1024");
    expect_size_error(4, 1025, 6, 2, "between 1 and 1024");
    expect_size_error(-3, 4, 6, 2, "-3 tokens");
}
END_TEST

START_TEST(test_model_limits)
{
    expect_size_error(4, 4, 2049, 1, "between 1 and 2048");
    expect_size_error(4, 4, 0, 1, "between 1 and 2048");
    expect_size_error(4, 4, 4, 8, "between 1 and d_model (4)");
    expect_size_error(4, 4, 4, 0, "between 1 and d_model (4)");
}
END_TEST

START_TEST(test_sizes_accepted)
{
    struct mha_error err;
    ck_assert_int_eq(mha_check_sizes(1, 1, 1, 1, &err), 0);
    ck_assert_int_eq(mha_check_sizes(1024, 1024, 2048, 2048, &err), 0);
    ck_assert_int_eq(mha_check_sizes(4, 7, 12, 3, &err), 0);
    ck_assert_int_eq(mha_check_sizes(4, 4, 6, 6, NULL), 0);
}
END_TEST

START_TEST(test_self_needs_equal_lengths)
{
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_ptr_null(mha_example_new(4, 5, 6, 2, false, &err));
    ck_assert_ptr_nonnull(strstr(err.text, "self-attention"));
}
END_TEST

/* 1024 tokens, d_model 2048, 2048 heads: valid sizes, but the attention maps
 * alone are 3 x 2048 x 1024 x 1024 floats (24 GiB).  The trace is refused
 * with the size explained, before any allocation: a failed allocation would
 * say "out of memory" instead.  The example is built on the stack (only the
 * sizes are read), so nothing large is allocated here either. */
START_TEST(test_trace_too_large)
{
    struct mha_example ex;
    memset(&ex, 0, sizeof ex);
    ex.lq = ex.lk = 1024;
    ex.d_model = 2048;
    ex.heads = 2048;
    ck_assert_uint_gt(mha_trace_bytes(1024, 1024, 2048, 2048), MHA_MAX_TRACE_BYTES);
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_ptr_null(mha_trace_new(&ex, &err));
    ck_assert_msg(strstr(err.text, "GiB") != NULL, "message: \"%s\"", err.text);
    ck_assert_msg(strstr(err.text, "fewer heads") != NULL, "message: \"%s\"", err.text);
    ck_assert_ptr_null(strstr(err.text, "out of memory"));
}
END_TEST

START_TEST(test_trace_bytes)
{
    /* a small trace: every stage fits in what mha_trace_bytes promises */
    const size_t floats = 6 * 4 * 6 + 3 * 2 * 4 * 4 + 2 * 4 * 3 + 2 * 4 * 6;
    ck_assert_uint_ge(mha_trace_bytes(4, 4, 6, 2), floats * sizeof(float));
    ck_assert_uint_eq(mha_trace_bytes(0, 4, 6, 2), 0);
    ck_assert_uint_eq(mha_trace_bytes(4, 4, 2, 3), 0);
}
END_TEST

START_TEST(test_forward_size_mismatch)
{
    struct mha_error err;
    struct mha_example *a = mha_example_generated(4, NULL, 6, 2, 1, &err);
    struct mha_example *b = mha_example_generated(5, NULL, 6, 2, 1, &err);
    ck_assert_ptr_nonnull(a);
    ck_assert_ptr_nonnull(b);
    struct mha_trace *t = run_example(a, "a");
    mha_error_clear(&err);
    ck_assert_int_ne(mha_forward(b, t, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "sizes"));
    mha_trace_free(t);
    mha_example_free(a);
    mha_example_free(b);
}
END_TEST

/* ------------------------------------------------------------ TCase stages */

START_TEST(test_stage_from_name)
{
    ck_assert_int_eq(mha_stage_from_name("attention"), MHA_STAGE_ATTENTION);
    ck_assert_int_eq(mha_stage_from_name("ATTENTION"), MHA_STAGE_ATTENTION);
    ck_assert_int_eq(mha_stage_from_name("Merge"), MHA_STAGE_MERGE);
    ck_assert_int_eq(mha_stage_from_name("4"), MHA_STAGE_ATTENTION);
    ck_assert_int_eq(mha_stage_from_name("0"), MHA_STAGE_INPUT);
    ck_assert_int_eq(mha_stage_from_name("6"), MHA_STAGE_OUTPUT);
    ck_assert_int_eq(mha_stage_from_name("bogus"), -1);
    ck_assert_int_eq(mha_stage_from_name("7"), -1);
    ck_assert_int_eq(mha_stage_from_name("44"), -1);
    ck_assert_int_eq(mha_stage_from_name(""), -1);
    ck_assert_int_eq(mha_stage_from_name("attentio"), -1);
    ck_assert_int_eq(mha_stage_from_name("attentions"), -1);
    ck_assert_int_eq(mha_stage_from_name(NULL), -1);
}
END_TEST

START_TEST(test_stage_names_round_trip)
{
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const char *name = mha_stage_name((enum mha_stage)s);
        ck_assert_ptr_nonnull(name);
        ck_assert_int_eq(mha_stage_from_name(name), s);
    }
    ck_assert_str_eq(mha_stage_name(MHA_STAGE_INPUT), "input");
    ck_assert_str_eq(mha_stage_name(MHA_STAGE_OUTPUT), "output");
    ck_assert_ptr_null(mha_stage_name(MHA_STAGE_COUNT));
}
END_TEST

/* The stage table: a row per stage, every field filled, names that round
 * trip, tensors that are the stage's, and the generated lists. */
START_TEST(test_stage_table)
{
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const struct mha_stage_info *i = mha_stage_info((enum mha_stage)s);
        ck_assert_str_eq(i->name, mha_stage_name((enum mha_stage)s));
        ck_assert(i->title && *i->title && i->short_title && *i->short_title);
        ck_assert(i->subtitle && *i->subtitle && i->heading && *i->heading);
        ck_assert(i->formula && *i->formula && i->sentence && *i->sentence);
        ck_assert(i->dump_heading && strncmp(i->dump_heading, i->name, strlen(i->name)) == 0);
        ck_assert_int_le((int)strlen(i->short_title), (int)strlen(i->title));
        ck_assert_int_gt(i->n_tensors, 0);
        ck_assert_int_le(i->n_tensors, MHA_STAGE_MAX_TENSORS);
        for (int k = 0; k < i->n_tensors; k++)
            ck_assert(i->tensors[k] >= 0 && i->tensors[k] < MHA_TENSOR_COUNT);
        char digit[2] = {(char)('0' + s), 0};
        ck_assert_int_eq(mha_stage_from_name(digit), s);
    }
    char digit[2] = {(char)('0' + MHA_STAGE_COUNT), 0};
    ck_assert_int_eq(mha_stage_from_name(digit), -1);
    ck_assert_int_eq(mha_stage_info(MHA_STAGE_ATTENTION)->tensors[2], MHA_TENSOR_WEIGHTS);
    char buf[200];
    ck_assert_str_eq(mha_stage_range(buf, sizeof buf), "0-6");
    ck_assert_str_eq(mha_stage_names(buf, sizeof buf, " or "),
                     "input, projection, split, transpose, attention, merge or output");
}
END_TEST

/* --------------------------------------------------------- TCase generator */

/* The first outputs of mulberry32 equal the ones the Python generator
 * computed (exactly: both are a 32-bit integer over 2^32). */
START_TEST(test_rng_matches_reference)
{
    const json_t *rng = json_object_get(doc, "rng");
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
    ck_assert(!any_nonzero(a->b_q, 8) && !any_nonzero(a->b_k, 8));
    ck_assert(!any_nonzero(a->b_v, 8) && !any_nonzero(a->b_o, 8));
    /* the three inputs are separate draws, not copies */
    ck_assert(memcmp(a->query, a->key, 5 * 8 * sizeof(float)) != 0);
    ck_assert(memcmp(a->key, a->value, 5 * 8 * sizeof(float)) != 0);

    struct mha_trace *ta = run_example(a, "a"), *tb = run_example(b, "b");
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
    const enum mat_backend backend = backend_for(_i);
    size_t i;
    const json_t *c;
    int seen = 0;
    json_array_foreach(cases, i, c)
    {
        const json_t *gen = json_object_get(c, "generated");
        if (!gen)
            continue;
        seen++;
        const int lq = read_int(c, "lq"), lk = read_int(c, "lk");
        const int d = read_int(c, "d_model"), heads = read_int(c, "heads");
        const bool cross = read_bool(c, "cross");
        const uint32_t seed = (uint32_t)read_int(gen, "seed");
        struct mha_error err;
        mha_error_clear(&err);
        struct mha_example *ex = mha_example_new(lq, lk, d, heads, cross, &err);
        ck_assert_msg(ex != NULL, "%s: %s", case_name(c), err.text);
        mha_example_generate(ex, seed);
        ex->scaled = read_bool(c, "scaled");
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
            float *exp = read_floats(c, parts[p].key, parts[p].n);
            for (size_t k = 0; k < parts[p].n; k++)
                ck_assert_msg(parts[p].got[k] == exp[k], "%s: %s[%zu] is %.9g, reference %.9g",
                              case_name(c), parts[p].key, k, (double)parts[p].got[k],
                              (double)exp[k]);
            free(exp);
        }
        struct mha_trace *t = run_example(ex, case_name(c));
        compare_all_stages(c, t, backend);
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
            struct mha_trace *t = run_example(ex, "median");
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
END_TEST

/* -------------------------------------------------------------- the suite */

static Suite *engine_suite(void)
{
    Suite *s = suite_create("engine");
    const int n_cases = (int)json_array_size(cases);

    TCase *tc = tcase_create("reference");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_reference_case, 0, 2 * n_cases);
    tcase_add_loop_test(tc, test_forward_reuse, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("default");
    tcase_add_test(tc, test_default_inputs);
    tcase_add_loop_test(tc, test_default_stages, 0, 2);
    suite_add_tcase(s, tc);

    /* generated examples: the reference's draws, and scaling's contrast */
    tc = tcase_create("generated");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, test_generated_cases, 0, 2);
    tcase_add_test(tc, test_generated_scaling_contrast);
    suite_add_tcase(s, tc);

    tc = tcase_create("masking");
    tcase_add_loop_test(tc, test_masked_weights_exact_zero, 0, 2);
    tcase_add_loop_test(tc, test_fully_masked_row, 0, 2);
    tcase_add_test(tc, test_no_empty_rows_elsewhere);
    suite_add_tcase(s, tc);

    tc = tcase_create("huge");
    tcase_add_loop_test(tc, test_huge_scores, 0, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("sizes");
    tcase_add_test(tc, test_heads_must_divide);
    tcase_add_test(tc, test_token_limits);
    tcase_add_test(tc, test_model_limits);
    tcase_add_test(tc, test_sizes_accepted);
    tcase_add_test(tc, test_self_needs_equal_lengths);
    tcase_add_test(tc, test_trace_too_large);
    tcase_add_test(tc, test_trace_bytes);
    tcase_add_test(tc, test_forward_size_mismatch);
    suite_add_tcase(s, tc);

    tc = tcase_create("stages");
    tcase_add_test(tc, test_stage_from_name);
    tcase_add_test(tc, test_stage_names_round_trip);
    tcase_add_test(tc, test_stage_table);
    suite_add_tcase(s, tc);

    tc = tcase_create("generator");
    tcase_add_test(tc, test_rng_matches_reference);
    tcase_add_test(tc, test_rng_range);
    tcase_add_test(tc, test_generated_deterministic);
    tcase_add_test(tc, test_generated_ranges);
    suite_add_tcase(s, tc);
    return s;
}

/* The reference file: argv[1], else $MHA_TEST_DATA (folder or file). */
static int load_reference(int argc, char **argv)
{
    char path[4096];
    const char *env = getenv("MHA_TEST_DATA");
    if (argc > 1)
        snprintf(path, sizeof path, "%s", argv[1]);
    else if (env && strstr(env, ".json"))
        snprintf(path, sizeof path, "%s", env);
    else if (env)
        snprintf(path, sizeof path, "%s/engine_cases.json", env);
    else {
        fprintf(stderr, "test_engine: give the reference file as argument or set "
                        "MHA_TEST_DATA to tests/data\n");
        return -1;
    }
    json_error_t jerr;
    doc = json_load_file(path, 0, &jerr);
    if (!doc) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
        return -1;
    }
    cases = json_object_get(doc, "cases");
    if (!json_is_array(cases) || json_array_size(cases) == 0) {
        fprintf(stderr, "%s: expected a non-empty \"cases\" array\n", path);
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (load_reference(argc, argv))
        return 2;
    SRunner *sr = srunner_create(engine_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    json_decref(doc);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
