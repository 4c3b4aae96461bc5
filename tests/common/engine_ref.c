/* engine_ref.c - the engine tests' reference data: reading
 * tests/data/engine_cases.json, a case into an example, and a trace
 * compared with it stage by stage (engine_ref.h). */
#include "engine_ref.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef TOL_REL
#define TOL_REL 1e-4
#endif
#ifndef TOL_ABS
#define TOL_ABS 1e-5
#endif

json_t *eref_doc;
json_t *eref_cases;

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
float *eref_read_floats(const json_t *obj, const char *key, size_t count)
{
    const json_t *j = json_object_get(obj, key);
    ck_assert_msg(j != NULL, "reference data has no \"%s\"", key);
    float *out = malloc(count * sizeof *out);
    ck_assert_ptr_nonnull(out);
    size_t n = flatten(j, out, count, 0);
    ck_assert_msg(n == count, "\"%s\": %zu numbers, expected %zu", key, n, count);
    return out;
}

int eref_read_int(const json_t *obj, const char *key)
{
    const json_t *j = json_object_get(obj, key);
    ck_assert_msg(json_is_integer(j), "reference data: \"%s\" is not an integer", key);
    return (int)json_integer_value(j);
}

bool eref_read_bool(const json_t *obj, const char *key)
{
    const json_t *j = json_object_get(obj, key);
    ck_assert_msg(json_is_boolean(j), "reference data: \"%s\" is not a boolean", key);
    return json_is_true(j);
}

const char *eref_case_name(const json_t *c)
{
    const char *name = json_string_value(json_object_get(c, "name"));
    return name ? name : "?";
}

const json_t *eref_case_named(const char *name)
{
    size_t i;
    const json_t *c;
    json_array_foreach(eref_cases, i, c)
    {
        if (strcmp(eref_case_name(c), name) == 0)
            return c;
    }
    ck_abort_msg("reference data has no case \"%s\"", name);
    return NULL;
}

static void copy_floats(const json_t *c, const char *key, float *dst, size_t count)
{
    float *src = eref_read_floats(c, key, count);
    memcpy(dst, src, count * sizeof *dst);
    free(src);
}

bool eref_any_nonzero(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (x[i] != 0.0f)
            return true;
    return false;
}

/* An engine example holding case c's inputs and flags. */
struct mha_example *eref_build_case(const json_t *c)
{
    const int lq = eref_read_int(c, "lq"), lk = eref_read_int(c, "lk");
    const int d = eref_read_int(c, "d_model"), heads = eref_read_int(c, "heads");
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = mha_example_new(lq, lk, d, heads, eref_read_bool(c, "cross"), &err);
    ck_assert_msg(ex != NULL, "%s: mha_example_new: %s", eref_case_name(c), err.text);
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
    ex->has_bias = eref_any_nonzero(ex->b_q, dd) || eref_any_nonzero(ex->b_k, dd) ||
                   eref_any_nonzero(ex->b_v, dd) || eref_any_nonzero(ex->b_o, dd);
    ex->causal = eref_read_bool(c, "causal");
    ex->scaled = eref_read_bool(c, "scaled");
    const json_t *mask = json_object_get(c, "mask");
    ex->has_mask = !json_is_null(mask);
    if (ex->has_mask) {
        const size_t n = (size_t)lq * (size_t)lk;
        float *m = eref_read_floats(c, "mask", n);
        for (size_t i = 0; i < n; i++)
            ex->mask[i] = m[i] != 0.0f;
        free(m);
    }
    return ex;
}

struct mha_trace *eref_run_example(const struct mha_example *ex, const char *name)
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
void eref_compare_stage(const json_t *c, const char *key, const float *got, size_t n,
                        enum mat_backend backend)
{
    const json_t *expected = json_object_get(c, "expected");
    float *exp = eref_read_floats(expected, key, n);
    double scale = 1.0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(exp[i]) && fabs((double)exp[i]) > scale)
            scale = fabs((double)exp[i]);
    for (size_t i = 0; i < n; i++) {
        if (isnan(exp[i])) {
            ck_assert_msg(isinf(got[i]) && got[i] < 0.0f,
                          "%s/%s: %s[%zu] is masked, engine gave %g instead of -inf",
                          eref_case_name(c), mat_backend_name(backend), key, i, (double)got[i]);
            continue;
        }
        const double tol = TOL_REL * fabs((double)exp[i]) + TOL_ABS * scale;
        if (!(fabs((double)got[i] - (double)exp[i]) < tol))
            fprintf(stderr, "%s/%s: %s[%zu]: engine %.9g, reference %.9g, tolerance %.3g\n",
                    eref_case_name(c), mat_backend_name(backend), key, i, (double)got[i],
                    (double)exp[i], tol);
        ck_assert_float_eq_tol(got[i], exp[i], (float)tol);
    }
    free(exp);
}

void eref_compare_all_stages(const json_t *c, const struct mha_trace *t, enum mat_backend backend)
{
    const size_t lq = (size_t)t->lq, lk = (size_t)t->lk, d = (size_t)t->d_model;
    const size_t h = (size_t)t->heads, d_k = (size_t)t->d_k;
    eref_compare_stage(c, "q", t->q, lq * d, backend);
    eref_compare_stage(c, "k", t->k, lk * d, backend);
    eref_compare_stage(c, "v", t->v, lk * d, backend);
    eref_compare_stage(c, "qh", t->qh, h * lq * d_k, backend);
    eref_compare_stage(c, "kh", t->kh, h * lk * d_k, backend);
    eref_compare_stage(c, "vh", t->vh, h * lk * d_k, backend);
    eref_compare_stage(c, "scores", t->scores, h * lq * lk, backend);
    eref_compare_stage(c, "scaled", t->scaled_scores, h * lq * lk, backend);
    eref_compare_stage(c, "weights", t->weights, h * lq * lk, backend);
    eref_compare_stage(c, "context", t->context, h * lq * d_k, backend);
    eref_compare_stage(c, "merged", t->merged, lq * d, backend);
    eref_compare_stage(c, "output", t->output, lq * d, backend);
}

bool eref_all_not_nan(const float *x, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (isnan(x[i]))
            return false;
    return true;
}

/* _i of a loop test over both backends: even = plain, odd = CBLAS. */
enum mat_backend eref_backend_for(int i)
{
    return mat_set_backend((i % 2) ? MAT_BACKEND_CBLAS : MAT_BACKEND_PLAIN);
}

/* The reference file: argv[1], else $MHA_TEST_DATA (folder or file). */
int eref_load(int argc, char **argv)
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
    eref_doc = json_load_file(path, 0, &jerr);
    if (!eref_doc) {
        fprintf(stderr, "%s:%d:%d: %s\n", path, jerr.line, jerr.column, jerr.text);
        return -1;
    }
    eref_cases = json_object_get(eref_doc, "cases");
    if (!json_is_array(eref_cases) || json_array_size(eref_cases) == 0) {
        fprintf(stderr, "%s: expected a non-empty \"cases\" array\n", path);
        return -1;
    }
    return 0;
}
