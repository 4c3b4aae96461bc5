/* test_lesson_train.c - scenes that train: train:, compare:, steps: and
 * layers: are read into the scene and the lesson state (heads and seed in a
 * train: scene are the model's, not the example's; the sizes a scene does
 * not give are --train's for the task; train: off ends it), and every
 * mistake is reported at its line. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"
#include "lesson/lesson_state.h"
#include "train/train.h"
#include "check_run.h"

static struct lesson *parse(const char *text)
{
    struct lesson *l = lesson_parse(text, strlen(text), "t.md");
    ck_assert_ptr_nonnull(l);
    const char *d = getenv("MHA_DATA_DIR");
    char assets[PATH_MAX];
    snprintf(assets, sizeof assets, "%s/assets", d ? d : ".");
    lesson_check(l, assets);
    return l;
}

static bool has_diag(const struct lesson *l, int line, const char *want)
{
    for (int i = 0; i < l->n_diags; i++)
        if (l->diags[i].line == line && strstr(l->diags[i].text, want))
            return true;
    for (int i = 0; i < l->n_diags; i++)
        fprintf(stderr, "  %d: %s\n", l->diags[i].line, l->diags[i].text);
    return false;
}

static const char good[] = "# Train\n"           /* 1 */
                           "\n"                  /* 2 */
                           "Words.\n"            /* 3 */
                           "\n"                  /* 4 */
                           "```mha\n"            /* 5 */
                           "train: first-prev\n" /* 6 */
                           "heads: 4\n"          /* 7 */
                           "seed: 3\n"           /* 8 */
                           "steps: 200\n"        /* 9 */
                           "```\n"               /* 10 */
                           "\n---\n\n"           /* 11-13 */
                           "More.\n"             /* 14 */
                           "\n"                  /* 15 */
                           "```mha\n"            /* 16 */
                           "train: prev\n"       /* 17 */
                           "compare: 1,2\n"      /* 18 */
                           "```\n"               /* 19 */
                           "\n---\n\n"           /* 20-22 */
                           "Done.\n"             /* 23 */
                           "\n"                  /* 24 */
                           "```mha\n"            /* 25 */
                           "train: off\n"        /* 26 */
                           "stage: attention\n"  /* 27 */
                           "```\n";

START_TEST(train_scenes_set_up_the_model)
{
    struct lesson *l = parse(good);
    ck_assert_int_eq(l->n_diags, 0);
    ck_assert_int_eq(l->n_steps, 3);
    struct lesson_state st;
    lesson_state_at(l, 0, &st);
    ck_assert_str_eq(st.train, "first-prev");
    ck_assert_int_eq(st.n_train_heads, 1);
    ck_assert_int_eq(st.train_heads[0], 4);
    ck_assert_uint_eq(st.train_seed, 3);
    ck_assert_int_eq(st.train_steps, 200);
    /* the example keeps its own heads and seed (4 heads would not divide d_model 6) */
    ck_assert_int_eq(st.heads, 2);
    ck_assert_uint_eq(st.seed, 42);
    lesson_state_at(l, 1, &st);
    ck_assert_str_eq(st.train, "prev");
    ck_assert_int_eq(st.n_train_heads, 2);
    ck_assert_int_eq(st.train_heads[0], 1);
    ck_assert_int_eq(st.train_heads[1], 2);
    ck_assert_uint_eq(st.train_seed, 1); /* each train: scene starts from the defaults */
    ck_assert_int_eq(st.train_steps, 0); /* the task's */
    ck_assert_int_eq(st.train_layers, 1);
    int d, vocab, context, steps;
    float lr;
    lesson_train_sizes(&st, train_task_find("prev"), &d, &vocab, &context, &steps, &lr);
    ck_assert_int_eq(d, 8);
    ck_assert_int_eq(vocab, 16);
    ck_assert_int_eq(context, 8);
    ck_assert_int_eq(steps, 1500);
    ck_assert_float_eq(lr, 0.01f);
    lesson_state_at(l, 2, &st);
    ck_assert_ptr_null(st.train);
    ck_assert_int_eq(st.stage, 4);
    lesson_free(l);
}
END_TEST

static const struct {
    const char *scene; /* lines of the scene, the first at line 4 */
    int line;
    const char *want;
} bad[] = {
    {"train: nothing\n", 4, "train: unknown task \"nothing\""},
    {"train: first-prev\ncompare: 1,,2\n", 5, "compare: expected 1 to 4 head counts"},
    {"train: first-prev\ncompare: 1,2,4,8,8\n", 5, "compare: expected 1 to 4 head counts"},
    {"compare: 1,2\n", 4, "compare: goes with train: in the same scene"},
    {"steps: 100\n", 4, "steps: goes with train: in the same scene"},
    {"train: first-prev\nsteps: 0\n", 5, "steps: 0 is out of range"},
    {"train: first-prev\nheads: 3\n", 5, "train: 3 heads do not divide d_model 8"},
    {"train: first-prev\ncompare: 1,3\n", 5, "train: 3 heads do not divide d_model 8"},
    {"train: first-prev\ncompare: 1,2\nheads: 2\n", 6, "heads: compare: gives the head counts"},
    {"train: induction\nlayers: 5\n", 5, "layers: 5 is out of range"},
    {"layers: 2\n", 4, "layers: goes with train: in the same scene"},
    {"train: induction\ncompare: layers=1,5\n", 5, "or layer counts (1 to 4)"},
    {"train: induction\ncompare: layers=\n", 5, "compare: expected"},
    {"train: induction\ncompare: layers=1,2\nlayers: 2\n", 6,
     "layers: compare: layers=... gives the layer counts"},
    {"train: induction\nlayers: 2\nlayer: 2\n", 6, "layer: 2, but the model trained here has 2"},
    {"train: induction\ncompare: layers=1,2\nlayer: 1\n", 6,
     "layer: 1, but the models trained here have as few as 1 layer"},
    {"layer: 0\n", 4, "layer: goes with a model of layers"},
    {"train: induction\nlayer: 4\n", 5, "layer: 4 is out of range"},
    {"train: first-prev\ncompare: variants=standard,tied\n", 5,
     "variant 'tied': not one of standard"},
    {"train: first-prev\ncompare: variants=standard,\n", 5, "compare: expected 1 to 4 variants"},
    {"train: first-prev\nd_model: 16\nheads: 4\ncompare: variants=standard,gqa:3\n", 7,
     "the groups G must divide the 4 heads"},
};

/* compare: variants=...: each pane of the scene's heads, its own block,
 * and the run set up from it titled by its variant */
START_TEST(variant_scenes)
{
    struct lesson *l = parse("# V\n\n```mha\ntrain: first-prev\nd_model: 16\nheads: 4\n"
                             "compare: variants=standard,shared-qk,gqa:2\n```\n");
    ck_assert_int_eq(l->n_diags, 0);
    struct lesson_state st;
    lesson_state_at(l, 0, &st);
    ck_assert_int_eq(st.n_train_heads, 3);
    ck_assert(st.train_compare_variants);
    for (int i = 0; i < 3; i++)
        ck_assert_int_eq(st.train_heads[i], 4);
    ck_assert_int_eq(st.train_variants[1].kind, TRAIN_VARIANT_SHARED_QK);
    ck_assert_int_eq(st.train_variants[2].kind, TRAIN_VARIANT_GQA);
    ck_assert_int_eq(st.train_variants[2].n, 2);
    struct train_ask ask;
    lesson_train_ask(&st, train_task_find("first-prev"), &ask);
    ck_assert(ask.compare_variants);
    ck_assert_int_eq(ask.variants[2].kind, TRAIN_VARIANT_GQA);
    lesson_free(l);
}
END_TEST

/* layers: and compare: layers=...: the model's layers, at the task's own
 * sizes (induction's are --train's: d_model 32, vocabulary 24, context 16,
 * 3000 steps, lr 0.005) */
static const char layered[] = "# Layers\n\n```mha\ntrain: induction\nlayers: 2\nseed: 5\n```\n"
                              "\n---\n\n```mha\nlayer: 0\n```\n"
                              "\n---\n\n```mha\ntrain: induction\ncompare: layers=1,2\n```\n";

START_TEST(layers_scenes_set_up_the_model)
{
    struct lesson *l = parse(layered);
    ck_assert_int_eq(l->n_diags, 0);
    struct lesson_state st;
    lesson_state_at(l, 0, &st);
    ck_assert_int_eq(st.train_layers, 2);
    ck_assert_int_eq(st.n_train_heads, 1);
    ck_assert(!st.train_compare_layers);
    int d, vocab, context, steps;
    float lr;
    lesson_train_sizes(&st, train_task_find("induction"), &d, &vocab, &context, &steps, &lr);
    ck_assert_int_eq(d, 32);
    ck_assert_int_eq(vocab, 24);
    ck_assert_int_eq(context, 16);
    ck_assert_int_eq(steps, 3000);
    ck_assert_float_eq(lr, 0.005f);
    ck_assert_int_eq(st.layer, -1); /* the last */
    lesson_state_at(l, 1, &st);
    ck_assert_int_eq(st.layer, 0);
    ck_assert_int_eq(st.train_layers, 2);
    lesson_state_at(l, 2, &st);
    ck_assert_int_eq(st.layer, -1); /* a new training shows its last again */
    ck_assert_int_eq(st.train_layers, 1);
    ck_assert(st.train_compare_layers);
    ck_assert_int_eq(st.n_train_heads, 2);
    ck_assert_int_eq(st.train_heads[0], 1);
    ck_assert_int_eq(st.train_heads[1], 2);
    lesson_free(l);
}
END_TEST

START_TEST(train_scene_errors_have_lines)
{
    char text[512];
    snprintf(text, sizeof text, "# T\n\n```mha\n%s```\n", bad[_i].scene);
    struct lesson *l = parse(text);
    ck_assert_msg(has_diag(l, bad[_i].line, bad[_i].want), "case %d: no \"%s\" at line %d", _i,
                  bad[_i].want, bad[_i].line);
    lesson_free(l);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("lesson_train");
    TCase *tc = tcase_create("scenes");
    tcase_add_test(tc, train_scenes_set_up_the_model);
    tcase_add_test(tc, layers_scenes_set_up_the_model);
    tcase_add_test(tc, variant_scenes);
    tcase_add_loop_test(tc, train_scene_errors_have_lines, 0, (int)(sizeof bad / sizeof bad[0]));
    suite_add_tcase(s, tc);
    return check_run(s);
}
