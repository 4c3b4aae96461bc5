/* test_patch_positions.c - train_patch_heads with positions: every case of
 * tests/data/patching/positions.json (tests/reference/generate_patching.py,
 * a numpy pass of its own on the model files) run through the training
 * engine, the answers and, for each layer, head and position, the logit
 * difference with that head's output the clean run's at that position
 * alone and its share held to numpy's. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/model_io.h"
#include "train/train.h"
#include "train/train_patch.h"
#include "train/train_text.h"

static json_t *cases(void)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/patching/positions.json", getenv("MHA_TEST_DATA"));
    json_error_t jerr;
    json_t *root = json_load_file(path, 0, &jerr);
    ck_assert_msg(root != NULL, "%s: %s", path, jerr.text);
    return root;
}

/* The class id of an answer named in the file (a word, or a number). */
static int class_of(const struct train_model *m, json_t *v)
{
    if (json_is_integer(v))
        return (int)json_integer_value(v);
    for (int j = 0; j < m->cfg.vocab; j++)
        if (!strcmp(m->vocab_names[j], json_string_value(v)))
            return j;
    ck_abort_msg("answer %s is no word of the model", json_string_value(v));
    return -1;
}

static void run_case(json_t *c, int i, struct train_patching *p)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/../../%s", getenv("MHA_TEST_DATA"),
             json_string_value(json_object_get(c, "model")));
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = model_io_load(path, 1, &err);
    ck_assert_msg(m != NULL, "case %d: %s", i, err.text);
    int clean[TRAIN_MAX_CONTEXT], corrupt[TRAIN_MAX_CONTEXT], n = 0, nc = 0;
    ck_assert_msg(!model_io_sentence_ids(m, path, "clean",
                                         json_string_value(json_object_get(c, "tokens")), clean, &n,
                                         &err) &&
                      !model_io_sentence_ids(m, path, "corrupt",
                                             json_string_value(json_object_get(c, "corrupt")),
                                             corrupt, &nc, &err),
                  "case %d: %s", i, err.text);
    ck_assert_int_eq(n, nc);
    const int next = train_model_next_output(m), k = next >= 0 ? next : 0;
    const bool given = json_is_string(json_object_get(c, "answer"));
    const int a = given ? class_of(m, json_object_get(c, "a")) : -1;
    const int b = given ? class_of(m, json_object_get(c, "b")) : -1;
    const int shown = m->shown_layer;
    ck_assert_msg(!train_patch_heads(m, k, clean, corrupt, n, a, b, true, p, &err), "case %d: %s",
                  i, err.text);
    ck_assert_int_eq(m->shown_layer, shown);
    ck_assert(p->positions);
    ck_assert_int_eq(p->a, class_of(m, json_object_get(c, "a")));
    ck_assert_int_eq(p->b, class_of(m, json_object_get(c, "b")));
    const bool measurable = json_is_true(json_object_get(c, "measurable"));
    ck_assert_int_eq(p->measurable, measurable);
    size_t j;
    json_t *h;
    json_array_foreach(json_object_get(c, "heads"), j, h)
    {
        const int l = (int)json_integer_value(json_object_get(h, "layer"));
        const int hd = (int)json_integer_value(json_object_get(h, "head"));
        json_t *at = json_object_get(h, "at");
        ck_assert_int_eq((int)json_array_size(at), n);
        for (int t = 0; t < n; t++) {
            json_t *w = json_array_get(at, (size_t)t);
            const double dp = json_number_value(json_object_get(w, "d_patched"));
            ck_assert_msg(fabs(p->d_patched_at[l][hd][t] - dp) <= 1e-4 * (1.0 + fabs(dp)),
                          "case %d layer %d head %d position %d: d_patched %.9g, numpy %.9g", i, l,
                          hd, t, p->d_patched_at[l][hd][t], dp);
            if (measurable) {
                const double s = json_number_value(json_object_get(w, "score"));
                ck_assert_msg(fabs(p->score_at[l][hd][t] - s) <= 1e-4,
                              "case %d layer %d head %d position %d: share %.9g, numpy %.9g", i, l,
                              hd, t, p->score_at[l][hd][t], s);
            } else {
                ck_assert(isnan(p->score_at[l][hd][t]));
            }
        }
    }
    train_model_free(m);
}

START_TEST(test_positions_match_numpy)
{
    json_t *root = cases();
    struct train_patching *p = malloc(sizeof *p);
    ck_assert_ptr_nonnull(p);
    size_t i;
    json_t *c;
    json_array_foreach(json_object_get(root, "cases"), i, c) run_case(c, (int)i, p);
    ck_assert_int_gt((int)json_array_size(json_object_get(root, "cases")), 0);
    free(p);
    json_decref(root);
}
END_TEST

/* Lesson 19's patching step on the bundled model: the dog's run says rug,
 * the cat's mat; head 0's output from the dog's run brings back nearly all
 * of the gap, head 1's almost none (the checkpoint's answer and its
 * explanation), and all of it at the last position: in one layer nothing
 * reads one position's head output at another. */
START_TEST(test_lesson_19_one_layer)
{
    struct train_patching *p = malloc(sizeof *p);
    ck_assert_ptr_nonnull(p);
    char path[4096];
    snprintf(path, sizeof path, "%s/../../assets/models/sentences.json", getenv("MHA_TEST_DATA"));
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = model_io_load(path, 1, &err);
    ck_assert_msg(m != NULL, "%s", err.text);
    ck_assert_int_eq(train_layers(&m->cfg), 1);
    int clean[TRAIN_MAX_CONTEXT], corrupt[TRAIN_MAX_CONTEXT], n = 0, nc = 0;
    ck_assert(!model_io_sentence_ids(m, path, "clean", "the dog sat on the", clean, &n, &err));
    ck_assert(!model_io_sentence_ids(m, path, "corrupt", "the cat sat on the", corrupt, &nc, &err));
    const int k = train_model_next_output(m);
    ck_assert(!train_patch_heads(m, k, clean, corrupt, n, -1, -1, true, p, &err));
    ck_assert_str_eq(m->vocab_names[p->a], "rug");
    ck_assert_str_eq(m->vocab_names[p->b], "mat");
    ck_assert(p->measurable);
    ck_assert_msg(p->score[0][0] > 0.9 && fabs(p->score[0][1]) < 0.1,
                  "head 0 restores %.3f, head 1 %.3f", p->score[0][0], p->score[0][1]);
    for (int h = 0; h < m->cfg.heads; h++) {
        ck_assert_msg(fabs(p->d_patched_at[0][h][n - 1] - p->d_patched[0][h]) < 1e-9,
                      "head %d: at the last position %.9g, everywhere %.9g", h,
                      p->d_patched_at[0][h][n - 1], p->d_patched[0][h]);
        for (int t = 0; t < n - 1; t++)
            ck_assert(fabs(p->d_patched_at[0][h][t] - p->d_corrupt) < 1e-9);
    }
    train_model_free(m);
    free(p);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("patch_positions");
    TCase *tc = tcase_create("positions");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_positions_match_numpy);
    tcase_add_test(tc, test_lesson_19_one_layer);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
