/* test_io.c - example files in and out: good files, every class of bad
 * file with its message and place, round trips, and the JSON dump's shape. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "io/example_io.h"
#include "engine/mha.h"
#include "test_tmp.h"

static char path_buf[1024];

static const char *data_path(const char *rel)
{
    const char *dir = getenv("MHA_TEST_DATA");
    snprintf(path_buf, sizeof path_buf, "%s/%s", dir ? dir : "tests/data", rel);
    return path_buf;
}

static struct mha_example *load_ok(const char *rel)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_load(data_path(rel), &err);
    ck_assert_msg(ex != NULL, "%s failed: %s", rel, err.text);
    return ex;
}

static void assert_same_floats(const float *a, const float *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        ck_assert_float_eq(a[i], b[i]);
}

/* ---- good files ---------------------------------------------------------- */

START_TEST(self_attention_defaults_key_and_value_to_query)
{
    struct mha_example *ex = load_ok("examples/self.json");
    ck_assert_int_eq(ex->lq, 3);
    ck_assert_int_eq(ex->lk, 3);
    ck_assert_int_eq(ex->d_model, 4);
    ck_assert_int_eq(ex->heads, 2);
    ck_assert(!ex->cross);
    ck_assert(ex->has_bias);
    ck_assert(ex->scaled);
    ck_assert_str_eq(ex->tokens[1], "cat");
    ck_assert_str_eq(ex->key_tokens[2], "sat");
    ck_assert_float_eq(ex->query[3], 2.0f);
    assert_same_floats(ex->key, ex->query, 12);
    assert_same_floats(ex->value, ex->query, 12);
    ck_assert_float_eq_tol(ex->b_q[2], 0.3f, 1e-7f);
    ck_assert_float_eq(ex->b_k[0], 0.0f);
    mha_example_free(ex);
}
END_TEST

START_TEST(cross_attention_with_mask)
{
    struct mha_example *ex = load_ok("examples/cross.json");
    ck_assert(ex->cross);
    ck_assert_int_eq(ex->lq, 3);
    ck_assert_int_eq(ex->lk, 5);
    ck_assert_int_eq(ex->heads, 3);
    ck_assert_uint_eq(ex->seed, 7);
    ck_assert_str_eq(ex->tokens[2], "noir");
    ck_assert_str_eq(ex->key_tokens[4], "down");
    ck_assert(ex->has_mask);
    ck_assert(mha_is_masked(ex, 0, 4));
    ck_assert(!mha_is_masked(ex, 0, 3));
    ck_assert(mha_is_masked(ex, 1, 3));
    ck_assert(!mha_is_masked(ex, 2, 4));
    /* numbers not given come from the seed in the generator's order */
    struct mha_example *gen = mha_example_new(3, 5, 6, 3, true, NULL);
    mha_example_generate(gen, 7);
    assert_same_floats(ex->query, gen->query, 18);
    assert_same_floats(ex->key, gen->key, 30);
    assert_same_floats(ex->w_o, gen->w_o, 36);
    mha_example_free(gen);
    mha_example_free(ex);
}
END_TEST

START_TEST(tokens_only_file_matches_generated_example)
{
    struct mha_example *ex = load_ok("examples/tokens_only.json");
    struct mha_example *def = mha_example_default(NULL);
    ck_assert_ptr_nonnull(def);
    assert_same_floats(ex->query, def->query, 24);
    assert_same_floats(ex->key, def->key, 24);
    assert_same_floats(ex->value, def->value, 24);
    assert_same_floats(ex->w_q, def->w_q, 4 * 36);
    ck_assert_str_eq(ex->tokens[0], "a");
    mha_example_free(def);
    mha_example_free(ex);
}
END_TEST

START_TEST(utf8_tokens_are_kept)
{
    struct mha_example *ex = load_ok("examples/utf8.json");
    ck_assert_str_eq(ex->tokens[0], "猫");
    ck_assert_str_eq(ex->tokens[3], "🙂");
    ck_assert(ex->causal);
    mha_example_free(ex);
}
END_TEST

/* ---- bad files ------------------------------------------------------------ */

struct bad_case {
    const char *file;
    const char *expect; /* substring of the message */
    int line;           /* expected line, 0 = none */
};

static const struct bad_case bad_cases[] = {
    {"bad/syntax.json", "expected", 4},
    {"bad/empty.json", "expected", 1},
    {"bad/not_object.json", "must be a JSON object, not an array", 0},
    {"bad/no_tokens.json", "\"tokens\" is missing", 0},
    {"bad/no_heads.json", "\"num_heads\" is missing", 0},
    {"bad/heads_divide.json", "d_k = d_model / heads", 0},
    {"bad/ragged.json", "\"query\" row 1 has 1 numbers; expected 2", 0},
    {"bad/rows.json", "\"query\" has 1 rows; expected 2", 0},
    {"bad/weight_shape.json", "\"w_q\" has 3 rows; expected 2", 0},
    {"bad/not_number.json", "\"query\"[0][1] must be a number, not a string", 0},
    {"bad/overflow.json", "overflow", 1},
    {"bad/too_large.json", "\"query\"[0][1] is 5e+09; numbers must be finite", 0},
    {"bad/unknown_field.json", "unknown field \"w-q\"", 0},
    {"bad/mask_value.json", "\"mask\"[0][1] must be 0 (masked) or 1 (kept)", 0},
    {"bad/mask_shape.json", "\"mask\" must be an array of 2 rows", 0},
    {"bad/token_type.json", "\"tokens\"[1] must be a string, not an integer", 0},
    {"bad/no_token_entries.json", "\"tokens\" has 0 entries", 0},
    {"bad/duplicate_key.json", "duplicate", 1},
    {"bad/d_model_mismatch.json", "\"query\" row 0 has 2 numbers; expected 3", 0},
    {"bad/bias_length.json", "\"b_o\" has 3 numbers; expected 2", 0},
    {"bad/causal_type.json", "\"causal\" must be true or false, not a string", 0},
    {"bad/d_model_range.json", "\"d_model\" is 4096; it must be between 1 and 2048", 0},
    {"bad/does_not_exist.json", "cannot open", 0},
};

START_TEST(bad_file_is_refused_with_place_and_reason)
{
    const struct bad_case *c = &bad_cases[_i];
    struct mha_error err;
    const char *path = data_path(c->file);
    struct mha_example *ex = mha_example_load(path, &err);
    ck_assert_msg(ex == NULL, "%s was accepted", c->file);
    ck_assert_msg(strstr(err.text, c->expect) != NULL, "%s: message '%s' lacks '%s'", c->file,
                  err.text, c->expect);
    ck_assert_str_eq(err.file, path);
    if (c->line)
        ck_assert_int_eq(err.line, c->line);
    char buf[2048];
    mha_error_format(&err, buf, sizeof buf);
    ck_assert_msg(strncmp(buf, path, strlen(path)) == 0, "formatted '%s' lacks the file", buf);
}
END_TEST

/* ---- round trips ----------------------------------------------------------- */

static void assert_examples_equal(const struct mha_example *a, const struct mha_example *b)
{
    ck_assert_int_eq(a->lq, b->lq);
    ck_assert_int_eq(a->lk, b->lk);
    ck_assert_int_eq(a->d_model, b->d_model);
    ck_assert_int_eq(a->heads, b->heads);
    ck_assert_int_eq(a->causal, b->causal);
    ck_assert_int_eq(a->scaled, b->scaled);
    ck_assert_int_eq(a->cross, b->cross);
    ck_assert_int_eq(a->has_bias, b->has_bias);
    ck_assert_int_eq(a->has_mask, b->has_mask);
    const size_t d = (size_t)a->d_model;
    for (int i = 0; i < a->lq; i++)
        ck_assert_str_eq(a->tokens[i], b->tokens[i]);
    for (int j = 0; j < a->lk; j++)
        ck_assert_str_eq(a->key_tokens[j], b->key_tokens[j]);
    assert_same_floats(a->query, b->query, (size_t)a->lq * d);
    assert_same_floats(a->key, b->key, (size_t)a->lk * d);
    assert_same_floats(a->value, b->value, (size_t)a->lk * d);
    assert_same_floats(a->w_q, b->w_q, 4 * d * d + 4 * d);
    ck_assert_mem_eq(a->mask, b->mask, (size_t)a->lq * (size_t)a->lk);
}

static void round_trip(struct mha_example *ex)
{
    char *text = mha_example_to_string(ex);
    ck_assert_ptr_nonnull(text);
    struct mha_error err;
    struct mha_example *back = mha_example_load_string(text, "round-trip", &err);
    ck_assert_msg(back != NULL, "reload failed: %s", err.text);
    assert_examples_equal(ex, back);
    mha_example_free(back);
    free(text);
}

START_TEST(round_trip_files)
{
    static const char *const files[] = {"examples/self.json", "examples/cross.json",
                                        "examples/utf8.json", "examples/tokens_only.json"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        struct mha_example *ex = load_ok(files[i]);
        round_trip(ex);
        mha_example_free(ex);
    }
}
END_TEST

START_TEST(round_trip_generated_and_saved)
{
    const char *const tokens[] = {"The", "cat", "sat", "on", "the", "mat"};
    struct mha_example *ex = mha_example_generated(6, tokens, 8, 4, 1234, NULL);
    ck_assert_ptr_nonnull(ex);
    ex->causal = true;
    ex->scaled = false;
    round_trip(ex);

    char path[256];
    test_tmp_template(path, sizeof path, "mha-io");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    struct mha_error err;
    ck_assert_int_eq(mha_example_save(ex, path, &err), 0);
    struct mha_example *back = mha_example_load(path, &err);
    ck_assert_msg(back != NULL, "%s", err.text);
    assert_examples_equal(ex, back);
    mha_example_free(back);
    remove(path);

    /* a save into a missing directory fails cleanly and leaves nothing */
    ck_assert_int_ne(mha_example_save(ex, "/nonexistent-dir/x.json", &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot write"));
    mha_example_free(ex);
}
END_TEST

/* ---- JSON dump --------------------------------------------------------------- */

START_TEST(json_dump_has_every_stage_with_shapes)
{
    struct mha_example *ex = load_ok("examples/cross.json");
    struct mha_trace *t = mha_run(ex, NULL);
    ck_assert_ptr_nonnull(t);
    char *s = dump_json_string(ex, t, DUMP_ALL);
    json_error_t jerr;
    json_t *root = json_loads(s, 0, &jerr);
    ck_assert_msg(root != NULL, "dump is not JSON: %s", jerr.text);
    static const char *const keys[] = {"config",    "input",     "projection", "split",
                                       "transpose", "attention", "merge",      "output"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        ck_assert_msg(json_object_get(root, keys[i]), "missing %s", keys[i]);
    json_t *cfg = json_object_get(root, "config");
    ck_assert_int_eq(json_integer_value(json_object_get(cfg, "head_dim")), 2);
    ck_assert_int_eq(json_array_size(json_object_get(cfg, "key_tokens")), 5);
    /* split q: (3, 3, 2); transpose k: (3, 5, 2); weights (3, 3, 5) */
    json_t *sq = json_object_get(json_object_get(root, "split"), "q");
    ck_assert_int_eq(json_array_size(sq), 3);
    ck_assert_int_eq(json_array_size(json_array_get(sq, 0)), 3);
    ck_assert_int_eq(json_array_size(json_array_get(json_array_get(sq, 0), 0)), 2);
    json_t *tk = json_object_get(json_object_get(root, "transpose"), "k");
    ck_assert_int_eq(json_array_size(json_array_get(tk, 0)), 5);
    json_t *att = json_object_get(root, "attention");
    json_t *scaled = json_object_get(att, "scaled");
    /* masked entries are null, kept ones equal the trace */
    ck_assert(json_is_null(json_array_get(json_array_get(json_array_get(scaled, 1), 0), 4)));
    json_t *w = json_object_get(att, "weights");
    for (int h = 0; h < 3; h++)
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < 5; j++) {
                json_t *v = json_array_get(json_array_get(json_array_get(w, h), i), j);
                ck_assert_float_eq_tol((float)json_number_value(v),
                                       t->weights[mha_idx3(3, 5, h, i, j)], 1e-7f);
            }
    json_decref(root);
    free(s);

    /* one stage: config plus that stage only */
    s = dump_json_string(ex, t, MHA_STAGE_MERGE);
    root = json_loads(s, 0, &jerr);
    ck_assert_int_eq(json_object_size(root), 2);
    ck_assert_ptr_nonnull(json_object_get(root, "merge"));
    json_decref(root);
    free(s);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

START_TEST(text_dump_labels_and_shapes)
{
    struct mha_example *ex = load_ok("examples/utf8.json");
    struct mha_trace *t = mha_run(ex, NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ck_assert_int_eq(dump_write(mem, ex, t, DUMP_ALL, MHA_FORMAT_TEXT, NULL), 0);
    fclose(mem);
    ck_assert_ptr_nonnull(strstr(buf, "query  (4 × 4)"));
    ck_assert_ptr_nonnull(strstr(buf, "ñandú"));
    ck_assert_ptr_nonnull(strstr(buf, "-inf")); /* causal: masked scaled scores */
    ck_assert_ptr_nonnull(strstr(buf, "== 6 output"));
    free(buf);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

static Suite *io_suite(void)
{
    Suite *s = suite_create("io");
    TCase *tc = tcase_create("load");
    tcase_add_test(tc, self_attention_defaults_key_and_value_to_query);
    tcase_add_test(tc, cross_attention_with_mask);
    tcase_add_test(tc, tokens_only_file_matches_generated_example);
    tcase_add_test(tc, utf8_tokens_are_kept);
    suite_add_tcase(s, tc);
    tc = tcase_create("bad input");
    tcase_add_loop_test(tc, bad_file_is_refused_with_place_and_reason, 0,
                        (int)(sizeof bad_cases / sizeof bad_cases[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("round trip");
    tcase_add_test(tc, round_trip_files);
    tcase_add_test(tc, round_trip_generated_and_saved);
    suite_add_tcase(s, tc);
    tc = tcase_create("dump");
    tcase_add_test(tc, json_dump_has_every_stage_with_shapes);
    tcase_add_test(tc, text_dump_labels_and_shapes);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(io_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
