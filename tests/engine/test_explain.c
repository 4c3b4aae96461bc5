/* test_explain.c - "explain this number": every number the text arrives at
 * must be the number the engine stored.  Values are compared with the trace's
 * own fields (not with strings copied from the program's output): the cell's
 * value, the sum the written-out terms add up to, and the number on the
 * text's last line ("= value"). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/explain.h"
#include "engine/mha.h"
#include "engine/stages.h"

static struct mha_example *ex;
static struct mha_trace *tr;
static struct mha_explain e;

static void setup_default(void)
{
    struct mha_error err;
    ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    tr = mha_run(ex, &err);
    ck_assert_ptr_nonnull(tr);
}

static void teardown(void)
{
    mha_trace_free(tr);
    mha_example_free(ex);
    tr = NULL;
    ex = NULL;
}

/* Re-run after changing ex in place. */
static void rerun(void)
{
    struct mha_error err;
    mha_trace_free(tr);
    tr = mha_run(ex, &err);
    ck_assert_ptr_nonnull(tr);
}

/* The number on the text's last line. */
static double last_number(const char *text)
{
    const char *p = strstr(text, "\n= ");
    const char *last = NULL;
    while (p) {
        last = p;
        p = strstr(p + 1, "\n= ");
    }
    if (!last && strncmp(text, "= ", 2) == 0)
        last = text - 1;
    ck_assert_msg(last != NULL, "no '= value' line in:\n%s", text);
    return strtod(last + 3, NULL);
}

/* Explain cell; check value, total and the last line against expected. */
static void check_cell(enum mha_tensor t, int h, int r, int c, float expected)
{
    struct mha_cell cell = {t, h, r, c};
    struct mha_error err;
    ck_assert_int_eq(mha_explain_cell(ex, tr, &cell, NULL, &e, &err), 0);
    ck_assert_float_eq(e.value, expected);
    if (isinf(expected)) {
        ck_assert(isinf(e.total) && e.total < 0);
        return;
    }
    const double tol = 1e-5 + 1e-5 * fabs((double)expected);
    ck_assert_msg(fabs(e.total - (double)expected) <= tol, "%s[%d][%d,%d]: total %.9g vs %.9g",
                  mha_tensor_name(t), h, r, c, e.total, (double)expected);
    const double shown = last_number(e.text);
    ck_assert_double_eq_tol(shown, (double)expected, 1e-5 + 1e-5 * fabs((double)expected));
    ck_assert(e.title[0] != '\0');
}

/* ------------------------------------------------------------ TCase sums */

/* Every tensor of the enum has a row in the stage table (a name and a
 * shape), is shown by some stage, and every one of its cells is explained. */
START_TEST(test_every_tensor)
{
    for (int x = 0; x < MHA_TENSOR_COUNT; x++) {
        const enum mha_tensor t = (enum mha_tensor)x;
        ck_assert_msg(mha_tensor_desc(t)->name != NULL, "tensor %d has no name", x);
        ck_assert_str_eq(mha_tensor_name(t), mha_tensor_desc(t)->name);
        int h, r, c, shown = 0;
        mha_tensor_shape(tr, t, &h, &r, &c);
        ck_assert_msg(h > 0 && r > 0 && c > 0, "%s has no shape", mha_tensor_name(t));
        for (int s = 0; s < MHA_STAGE_COUNT; s++)
            shown += mha_stage_find(mha_stage_info((enum mha_stage)s), t, MHA_SHOW_EVERYWHERE) >= 0;
        ck_assert_msg(shown > 0, "no stage shows %s", mha_tensor_name(t));
        for (int k = 0; k < h * r * c; k++) {
            const struct mha_cell cell = {t, k / (r * c), k / c % r, k % c};
            check_cell(t, cell.head, cell.row, cell.col, mha_cell_value(ex, tr, &cell));
        }
    }
}
END_TEST

START_TEST(test_projections)
{
    const int d = tr->d_model;
    for (int i = 0; i < tr->lq; i++)
        for (int j = 0; j < d; j++) {
            check_cell(MHA_TENSOR_Q, 0, i, j, tr->q[i * d + j]);
            ck_assert_int_eq(e.n_terms, d);
            check_cell(MHA_TENSOR_K, 0, i, j, tr->k[i * d + j]);
            check_cell(MHA_TENSOR_V, 0, i, j, tr->v[i * d + j]);
            check_cell(MHA_TENSOR_OUTPUT, 0, i, j, tr->output[i * d + j]);
            ck_assert_int_eq(e.n_terms, d);
        }
}
END_TEST

START_TEST(test_scores_and_scaling)
{
    for (int h = 0; h < tr->heads; h++)
        for (int i = 0; i < tr->lq; i++)
            for (int j = 0; j < tr->lk; j++) {
                const size_t at = mha_idx3(tr->lq, tr->lk, h, i, j);
                check_cell(MHA_TENSOR_SCORES, h, i, j, tr->scores[at]);
                ck_assert_int_eq(e.n_terms, tr->d_k);
                check_cell(MHA_TENSOR_SCALED, h, i, j, tr->scaled_scores[at]);
                ck_assert_ptr_nonnull(strstr(e.text, "√3"));
            }
}
END_TEST

START_TEST(test_weights)
{
    for (int h = 0; h < tr->heads; h++)
        for (int i = 0; i < tr->lq; i++) {
            double row = 0.0;
            for (int j = 0; j < tr->lk; j++) {
                check_cell(MHA_TENSOR_WEIGHTS, h, i, j,
                           tr->weights[mha_idx3(tr->lq, tr->lk, h, i, j)]);
                ck_assert_int_eq(e.n_terms, tr->lk);
                ck_assert_ptr_nonnull(strstr(e.text, "exp("));
                row += e.total;
            }
            ck_assert_double_eq_tol(row, 1.0, 1e-6);
        }
}
END_TEST

START_TEST(test_context)
{
    for (int h = 0; h < tr->heads; h++)
        for (int i = 0; i < tr->lq; i++)
            for (int m = 0; m < tr->d_k; m++) {
                check_cell(MHA_TENSOR_CONTEXT, h, i, m,
                           tr->context[mha_idx3(tr->lq, tr->d_k, h, i, m)]);
                ck_assert_int_eq(e.n_terms, tr->lk);
            }
}
END_TEST

/* ------------------------------------------------------------ TCase copies */

START_TEST(test_split_and_merge)
{
    const int d = tr->d_model, dk = tr->d_k;
    for (int h = 0; h < tr->heads; h++)
        for (int l = 0; l < tr->lq; l++)
            for (int j = 0; j < dk; j++) {
                /* split + transpose: Q_h[h][l][j] is Q[l][h·d_k + j] */
                check_cell(MHA_TENSOR_QH, h, l, j, tr->q[l * d + h * dk + j]);
                check_cell(MHA_TENSOR_VH, h, l, j, tr->v[l * d + h * dk + j]);
                ck_assert_int_eq(e.n_terms, 0);
                /* merge: merged[l][h·d_k + j] is context[h][l][j] */
                check_cell(MHA_TENSOR_MERGED, 0, l, h * dk + j,
                           tr->context[mha_idx3(tr->lq, dk, h, l, j)]);
                char want[32];
                snprintf(want, sizeof want, "head %d", h);
                ck_assert_ptr_nonnull(strstr(e.text, want));
            }
}
END_TEST

START_TEST(test_inputs_and_weights)
{
    const int d = tr->d_model;
    check_cell(MHA_TENSOR_QUERY, 0, 2, 3, ex->query[2 * d + 3]);
    check_cell(MHA_TENSOR_W_O, 0, 5, 1, ex->w_o[5 * d + 1]);
    ck_assert_ptr_nonnull(strstr(e.text, "W_o"));
}
END_TEST

/* ------------------------------------------------------------ TCase variants */

START_TEST(test_causal_mask)
{
    ex->causal = true;
    rerun();
    /* query 0 sees only key 0: key 2 is masked */
    check_cell(MHA_TENSOR_SCALED, 1, 0, 2, -INFINITY);
    ck_assert(e.masked);
    ck_assert_ptr_nonnull(strstr(e.text, "causal"));
    check_cell(MHA_TENSOR_WEIGHTS, 1, 0, 2, 0.0f);
    ck_assert(e.masked);
    ck_assert_float_eq(tr->weights[mha_idx3(tr->lq, tr->lk, 1, 0, 2)], 0.0f);
    /* the one key query 0 sees gets all its weight */
    check_cell(MHA_TENSOR_WEIGHTS, 1, 0, 0, tr->weights[mha_idx3(tr->lq, tr->lk, 1, 0, 0)]);
    ck_assert_float_eq_tol(e.total, 1.0, 1e-6);
}
END_TEST

START_TEST(test_no_scaling)
{
    ex->scaled = false;
    rerun();
    const size_t at = mha_idx3(tr->lq, tr->lk, 0, 1, 2);
    check_cell(MHA_TENSOR_SCALED, 0, 1, 2, tr->scaled_scores[at]);
    ck_assert_float_eq(tr->scaled_scores[at], tr->scores[at]);
    ck_assert_ptr_nonnull(strstr(e.text, "off"));
}
END_TEST

START_TEST(test_bias)
{
    for (int j = 0; j < ex->d_model; j++) {
        ex->b_q[j] = 0.25f * (float)j - 0.5f;
        ex->b_o[j] = 0.1f * (float)j;
    }
    ex->has_bias = true;
    rerun();
    const int d = tr->d_model;
    check_cell(MHA_TENSOR_Q, 0, 3, 4, tr->q[3 * d + 4]);
    ck_assert_ptr_nonnull(strstr(e.text, "b_q[4]"));
    check_cell(MHA_TENSOR_OUTPUT, 0, 1, 5, tr->output[1 * d + 5]);
    ck_assert_ptr_nonnull(strstr(e.text, "b_o[5]"));
}
END_TEST

START_TEST(test_long_sums_are_shortened)
{
    struct mha_error err;
    teardown();
    ex = mha_example_generated(40, NULL, 64, 4, 7, &err);
    ck_assert_ptr_nonnull(ex);
    tr = mha_run(ex, &err);
    ck_assert_ptr_nonnull(tr);
    const int d = tr->d_model;
    check_cell(MHA_TENSOR_V, 0, 39, 63, tr->v[39 * d + 63]);
    ck_assert_int_eq(e.n_terms, 64);
    ck_assert_ptr_nonnull(strstr(e.text, "more terms"));
    check_cell(MHA_TENSOR_WEIGHTS, 3, 20, 39, tr->weights[mha_idx3(40, 40, 3, 20, 39)]);
    check_cell(MHA_TENSOR_CONTEXT, 2, 5, 15, tr->context[mha_idx3(40, 16, 2, 5, 15)]);
}
END_TEST

/* Rows listed in the text plus the count its "… N more terms" or
 * "… N other keys" line gives. */
static int terms_accounted(const char *text)
{
    int rows = 0, hidden = 0;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        const size_t len = nl ? (size_t)(nl - s) : strlen(s);
        char line[512];
        snprintf(line, sizeof line, "%.*s", (int)len, s);
        const char *dots = strstr(line, "\xe2\x80\xa6 "); /* "… " */
        int n;
        if (dots && (strstr(line, "more term") || strstr(line, "other key")) &&
            sscanf(dots + 4, "%d", &n) == 1)
            hidden += n;
        else if (strncmp(line, "  m=", 4) == 0)
            rows++;
        else if (strncmp(line, "  ", 2) == 0) {
            const char *p = line + 2;
            while (*p == ' ')
                p++;
            const char *digits = p;
            while (*p >= '0' && *p <= '9')
                p++;
            rows += p > digits && *p == ' ';
        }
        s += len + (nl ? 1 : 0);
    }
    return rows + hidden;
}

START_TEST(test_hidden_terms_are_counted)
{
    struct mha_error err;
    teardown();
    ex = mha_example_generated(9, NULL, 12, 3, 5, &err);
    ck_assert_ptr_nonnull(ex);
    tr = mha_run(ex, &err);
    ck_assert_ptr_nonnull(tr);
    const struct mha_cell cells[] = {
        {MHA_TENSOR_OUTPUT, 0, 0, 0},  /* 12 terms */
        {MHA_TENSOR_Q, 0, 8, 11},      /* 12 terms */
        {MHA_TENSOR_SCORES, 2, 4, 7},  /* 4 terms (d_k) */
        {MHA_TENSOR_WEIGHTS, 1, 3, 0}, /* 9 keys, the asked one first */
        {MHA_TENSOR_WEIGHTS, 0, 2, 5}, /* the asked one among the hidden */
        {MHA_TENSOR_WEIGHTS, 2, 8, 8}, /* the asked one last */
    };
    for (size_t i = 0; i < sizeof cells / sizeof cells[0]; i++)
        for (int max_terms = 3; max_terms <= 14; max_terms++) {
            struct mha_explain_options opt = {.max_terms = max_terms};
            ck_assert_int_eq(mha_explain_cell(ex, tr, &cells[i], &opt, &e, NULL), 0);
            ck_assert_int_gt(e.n_terms, 0);
            ck_assert_msg(terms_accounted(e.text) == e.n_terms,
                          "cell %zu, max_terms %d: %d of %d terms accounted for in:\n%s", i,
                          max_terms, terms_accounted(e.text), e.n_terms, e.text);
        }
}
END_TEST

START_TEST(test_ascii_and_utf8_tokens)
{
    ck_assert_int_eq(mha_example_set_token(ex, false, 1, "Katze🐈 mit einem langen Namen"), 0);
    rerun();
    struct mha_explain_options opt = {.ascii = true, .generated = true, .max_terms = 12};
    struct mha_cell cell = {MHA_TENSOR_SCORES, 0, 0, 1};
    ck_assert_int_eq(mha_explain_cell(ex, tr, &cell, &opt, &e, NULL), 0);
    ck_assert_float_eq(e.value, tr->scores[mha_idx3(4, 4, 0, 0, 1)]);
    /* the long label is shortened whole characters at a time: valid UTF-8 */
    const unsigned char *p = (const unsigned char *)e.text;
    while (*p) {
        int len = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : 2;
        ck_assert_msg(*p < 0x80 || *p >= 0xC0, "stray continuation byte");
        for (int k = 1; k < len; k++)
            ck_assert_msg((p[k] & 0xC0) == 0x80, "character cut in the middle");
        p += len;
    }
    ck_assert_ptr_null(strstr(e.text, "×"));
    ck_assert_ptr_nonnull(strstr(e.text, " x "));
}
END_TEST

START_TEST(test_bad_cells)
{
    struct mha_error err;
    struct mha_cell bad[] = {
        {MHA_TENSOR_Q, 0, 4, 0},       {MHA_TENSOR_Q, 0, 0, 6},     {MHA_TENSOR_WEIGHTS, 2, 0, 0},
        {MHA_TENSOR_CONTEXT, 0, 0, 3}, {MHA_TENSOR_COUNT, 0, 0, 0}, {MHA_TENSOR_Q, 0, -1, 0},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        mha_error_clear(&err);
        ck_assert_int_eq(mha_explain_cell(ex, tr, &bad[i], NULL, &e, &err), -1);
        ck_assert(err.text[0] != '\0');
    }
}
END_TEST

START_TEST(test_shapes)
{
    int h, r, c;
    mha_tensor_shape(tr, MHA_TENSOR_SCORES, &h, &r, &c);
    ck_assert_int_eq(h, 2);
    ck_assert_int_eq(r, 4);
    ck_assert_int_eq(c, 4);
    mha_tensor_shape(tr, MHA_TENSOR_QH, &h, &r, &c);
    ck_assert_int_eq(h, 2);
    ck_assert_int_eq(r, 4);
    ck_assert_int_eq(c, 3);
    mha_tensor_shape(tr, MHA_TENSOR_W_O, &h, &r, &c);
    ck_assert_int_eq(h, 1);
    ck_assert_int_eq(r, 6);
    ck_assert_int_eq(c, 6);
    for (int t = 0; t < MHA_TENSOR_COUNT; t++) {
        ck_assert_ptr_nonnull(mha_tensor_data(ex, tr, (enum mha_tensor)t));
        ck_assert_str_ne(mha_tensor_name((enum mha_tensor)t), "?");
    }
}
END_TEST

static Suite *explain_suite(void)
{
    Suite *s = suite_create("explain");
    TCase *sums = tcase_create("sums");
    tcase_add_checked_fixture(sums, setup_default, teardown);
    tcase_add_test(sums, test_every_tensor);
    tcase_add_test(sums, test_projections);
    tcase_add_test(sums, test_scores_and_scaling);
    tcase_add_test(sums, test_weights);
    tcase_add_test(sums, test_context);
    suite_add_tcase(s, sums);

    TCase *copies = tcase_create("copies");
    tcase_add_checked_fixture(copies, setup_default, teardown);
    tcase_add_test(copies, test_split_and_merge);
    tcase_add_test(copies, test_inputs_and_weights);
    tcase_add_test(copies, test_shapes);
    suite_add_tcase(s, copies);

    TCase *variants = tcase_create("variants");
    tcase_add_checked_fixture(variants, setup_default, teardown);
    tcase_add_test(variants, test_causal_mask);
    tcase_add_test(variants, test_no_scaling);
    tcase_add_test(variants, test_bias);
    tcase_add_test(variants, test_long_sums_are_shortened);
    tcase_add_test(variants, test_hidden_terms_are_counted);
    tcase_add_test(variants, test_ascii_and_utf8_tokens);
    tcase_add_test(variants, test_bad_cells);
    suite_add_tcase(s, variants);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(explain_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
