/* test_engine_sizes.c - the sizes the engine takes and refuses (heads that
 * do not divide d_model, token and model limits, traces too large), and the
 * stage table's names and rows. */
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
    struct mha_trace *t = eref_run_example(a, "a");
    mha_error_clear(&err);
    ck_assert_int_ne(mha_forward(b, t, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "sizes"));
    mha_trace_free(t);
    mha_example_free(a);
    mha_example_free(b);
}

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
    char want[200];
    snprintf(want, sizeof want, "0-%d", MHA_STAGE_COUNT - 1);
    ck_assert_str_eq(mha_stage_range(buf, sizeof buf), want);
    /* the names of the table's rows, in its order */
    size_t used = 0;
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        used += (size_t)snprintf(want + used, sizeof want - used, "%s%s",
                                 s == 0                     ? ""
                                 : s == MHA_STAGE_COUNT - 1 ? " or "
                                                            : ", ",
                                 mha_stage_name((enum mha_stage)s));
    ck_assert_str_eq(mha_stage_names(buf, sizeof buf, " or "), want);
}

/* ------------------------------------------------------------ the TCases */

void engine_add_sizes(Suite *s)
{
    TCase *tc = tcase_create("sizes");
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
}
