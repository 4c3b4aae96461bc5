/* test_train_layers.c - what the models of layers rest on: the induction
 * task's sequences, and the Q, K and V composition of every later head with
 * every earlier one against numpy (tests/reference/generate_composition.py). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_layers.h"
#include "io/model_io.h"
#include "check_run.h"

/* A reference case's model file under $MHA_TEST_DATA/train. */
static const char *model_path(const char *name)
{
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/train/%s.model.json", getenv("MHA_TEST_DATA"), name);
    return buf;
}

/* induction's sequences: a stretch of 2 or more different tokens stands
 * twice, its tokens nowhere else; "next" is asked at every place of the
 * second copy but its last, and is the token after the same one in the
 * first copy; the stretches' lengths and places vary. */
START_TEST(test_induction_task)
{
    const struct train_task *t = train_task_find("induction");
    ck_assert_ptr_nonnull(t);
    ck_assert(t->causal);
    const int T = 16, V = 24, S = 400;
    struct mha_error err;
    struct train_batch *b = train_batch_new(S, T, 1, &err);
    ck_assert_ptr_nonnull(b);
    struct rng r;
    rng_init(&r, 11);
    t->generate(t, b, V, &r);
    bool lengths[T + 1], gaps[T + 1];
    memset(lengths, 0, sizeof lengths);
    memset(gaps, 0, sizeof gaps);
    for (int s = 0; s < S; s++) {
        const int *tok = b->tokens + s * T, *next = b->targets[0] + s * T;
        int first = -1, n = 0;
        for (int i = 0; i < T; i++)
            if (next[i] >= 0) {
                if (first < 0)
                    first = i;
                ck_assert_int_eq(next[i], tok[i + 1]);
                n++;
            }
        ck_assert_int_ge(n, 1); /* the copy's places but its last: n + 1 tokens long */
        const int len = n + 1;
        /* the first copy: the one earlier place where the same len tokens stand */
        int earlier = -1;
        for (int a = 0; a + len <= first; a++)
            if (!memcmp(tok + a, tok + first, (size_t)len * sizeof *tok))
                earlier = a;
        ck_assert_int_ge(earlier, 0);
        lengths[len] = true;
        gaps[first - earlier] = true;
        for (int i = 0; i < len; i++) {
            int count = 0;
            for (int j = 0; j < T; j++)
                count += tok[j] == tok[first + i];
            ck_assert_msg(count == 2, "sequence %d: token %d stands %d times", s, tok[first + i],
                          count);
        }
    }
    int n_lengths = 0, n_gaps = 0;
    for (int i = 0; i <= T; i++)
        n_lengths += lengths[i], n_gaps += gaps[i];
    ck_assert_int_ge(n_lengths, 3);
    ck_assert_int_ge(n_gaps, 5);
    train_batch_free(b);
}
END_TEST

/* Q, K and V composition of every later head with every earlier one, against
 * tests/reference/generate_composition.py's numpy; and the arguments it
 * refuses. */
START_TEST(test_composition)
{
    static const char *const names[] = {"layers2_causal_2heads", "layers3_plain_nobias",
                                        "layers4_causal_4heads_unscaled"};
    const char *dir = getenv("MHA_TEST_DATA");
    char path[1024];
    snprintf(path, sizeof path, "%s/train/composition.json", dir);
    json_t *ref = json_load_file(path, 0, NULL);
    ck_assert_ptr_nonnull(ref);
    struct mha_error err;
    for (size_t c = 0; c < sizeof names / sizeof names[0]; c++) {
        struct train_model *m = model_io_load(model_path(names[c]), 1, &err);
        ck_assert_msg(m != NULL, "%s", err.text);
        json_t *rows = json_object_get(ref, names[c]), *row;
        size_t i;
        int L = train_layers(&m->cfg), H = m->cfg.heads, pairs = 0;
        for (int l = 1; l < L; l++)
            pairs += H * H * l;
        ck_assert_int_eq((int)json_array_size(rows), pairs);
        json_array_foreach(rows, i, row)
        {
            json_t *from = json_object_get(row, "from"), *to = json_object_get(row, "to");
            float score[3];
            ck_assert_int_eq(train_composition(m, (int)json_integer_value(json_array_get(from, 0)),
                                               (int)json_integer_value(json_array_get(from, 1)),
                                               (int)json_integer_value(json_array_get(to, 0)),
                                               (int)json_integer_value(json_array_get(to, 1)),
                                               score, &err),
                             0);
            const char *keys[3] = {"q", "k", "v"};
            for (int k = 0; k < 3; k++) {
                const double want = json_number_value(json_object_get(row, keys[k]));
                ck_assert_msg(fabs(score[k] - want) <= 1e-5, "%s row %zu %s: %.7f, numpy %.7f",
                              names[c], i, keys[k], (double)score[k], want);
            }
        }
        float score[3];
        ck_assert_int_eq(train_composition(m, 1, 0, 0, 0, score, &err), -1);
        ck_assert_ptr_nonnull(strstr(err.text, "must come after"));
        ck_assert_int_eq(train_composition(m, 0, H, 1, 0, score, &err), -1);
        train_model_free(m);
    }
    json_decref(ref);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_layers");
    TCase *tc = tcase_create("layers");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_induction_task);
    tcase_add_test(tc, test_composition);
    suite_add_tcase(s, tc);
    return check_run(s);
}
