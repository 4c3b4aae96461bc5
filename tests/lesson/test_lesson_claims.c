/* test_lesson_claims.c - what the bundled lessons teach holds beyond the
 * screen they show it on, and their checkpoints do not name their answers.
 *
 *   - attention without positions cannot see order: reordering the keys
 *     and values together leaves every context row as it was (lesson 15,
 *     translate.json and generated examples); a causal mask is where order
 *     enters;
 *   - lesson 15 does not say a head matches by position, and has the step
 *     on why real models add positional encodings;
 *   - switching the scale off never lowers a row's top weight (lesson 7),
 *     at any size and seed;
 *   - no checkpoint's choice answer appears in the text of its own step.
 *
 * Lessons and assets are read from $MHA_DATA_DIR (the source tree). */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/catalog.h"
#include "io/example_io.h"
#include "lesson/lesson.h"
#include "engine/mha.h"

static const char *data_dir(void)
{
    const char *d = getenv("MHA_DATA_DIR");
    ck_assert_msg(d != NULL, "MHA_DATA_DIR is not set");
    return d;
}

/* Every line of text a step shows (paragraphs, headings, items, call-outs),
 * lower-cased, into buf. */
static void step_text(const struct lesson_step *s, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int b = 0; b < s->n_blocks; b++)
        for (int i = 0; i < s->blocks[b].n_spans; i++) {
            const char *t = s->blocks[b].spans[i].text;
            for (; t && *t && used + 2 < n; t++)
                buf[used++] = (char)((*t >= 'A' && *t <= 'Z') ? *t + 32 : *t);
            if (used + 2 < n)
                buf[used++] = ' ';
        }
    buf[used] = '\0';
}

static struct lesson *bundled(const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/lessons/%s", data_dir(), name);
    struct lesson *l = lesson_load(path);
    ck_assert_ptr_nonnull(l);
    ck_assert_msg(l->n_diags == 0, "%s: %s", path, l->n_diags ? l->diags[0].text : "");
    return l;
}

START_TEST(lesson_15_says_attention_has_no_positions)
{
    struct lesson *l = bundled("15-cross-attention.md");
    static char text[16384];
    bool encodings = false, invariance_asked = false;
    for (int s = 0; s < l->n_steps; s++) {
        step_text(&l->steps[s], text, sizeof text);
        ck_assert_msg(!strstr(text, "by position") && !strstr(text, "matches position") &&
                          !strstr(text, "pairs words by place"),
                      "lesson 15 step %d says a head matches words by position", s + 1);
        if (strstr(text, "positional") && strstr(text, "sines") && strstr(text, "rotary"))
            encodings = true;
        const struct lesson_quiz *q = &l->steps[s].quiz;
        if (l->steps[s].has_quiz && strstr(q->explain, "by position"))
            ck_abort_msg("lesson 15 step %d explains by position", s + 1);
        if (l->steps[s].has_quiz && strstr(q->question, "context row"))
            invariance_asked = true;
    }
    ck_assert_msg(encodings, "no step of lesson 15 explains positional encodings");
    ck_assert(invariance_asked);
    lesson_free(l);
}
END_TEST

/* Reorder keys and values (rows perm[j]) of ex into a copy. */
static struct mha_example *reorder_keys(const struct mha_example *ex, const int *perm)
{
    struct mha_error err;
    struct mha_example *n = mha_example_new(ex->lq, ex->lk, ex->d_model, ex->heads, true, &err);
    ck_assert_ptr_nonnull(n);
    const size_t d = (size_t)ex->d_model;
    memcpy(n->query, ex->query, (size_t)ex->lq * d * sizeof(float));
    memcpy(n->w_q, ex->w_q, (4 * d * d + 4 * d) * sizeof(float));
    for (int j = 0; j < ex->lk; j++) {
        memcpy(n->key + (size_t)j * d, ex->key + (size_t)perm[j] * d, d * sizeof(float));
        memcpy(n->value + (size_t)j * d, ex->value + (size_t)perm[j] * d, d * sizeof(float));
    }
    n->scaled = ex->scaled;
    n->has_bias = ex->has_bias;
    return n;
}

static void assert_same_context(const struct mha_example *a, const struct mha_example *b)
{
    struct mha_error err;
    struct mha_trace *ta = mha_run(a, &err), *tb = mha_run(b, &err);
    ck_assert_ptr_nonnull(ta);
    ck_assert_ptr_nonnull(tb);
    const size_t n = (size_t)a->heads * (size_t)a->lq * (size_t)(a->d_model / a->heads);
    for (size_t i = 0; i < n; i++)
        ck_assert_float_eq_tol(ta->context[i], tb->context[i], 1e-5f);
    for (size_t i = 0; i < (size_t)a->lq * (size_t)a->d_model; i++)
        ck_assert_float_eq_tol(ta->output[i], tb->output[i], 1e-5f);
    mha_trace_free(ta);
    mha_trace_free(tb);
}

START_TEST(order_of_keys_does_not_reach_attention)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/assets/examples/translate.json", data_dir());
    struct mha_error err;
    struct mha_example *ex = mha_example_load(path, &err);
    ck_assert_msg(ex != NULL, "%s", err.text);
    /* "cat the black": the same keys and values in another order */
    const int perm[3] = {2, 0, 1};
    struct mha_example *moved = reorder_keys(ex, perm);
    assert_same_context(ex, moved);
    mha_example_free(moved);
    mha_example_free(ex);

    /* and for generated examples of other sizes */
    for (uint32_t seed = 1; seed <= 5; seed++) {
        struct mha_example *g = mha_example_generated(6, NULL, 12, 3, seed, &err);
        ck_assert_ptr_nonnull(g);
        const int p6[6] = {5, 3, 1, 0, 4, 2};
        struct mha_example *m = reorder_keys(g, p6);
        assert_same_context(g, m);
        mha_example_free(m);
        mha_example_free(g);
    }
}
END_TEST

/* A causal mask depends on the order: the same reordering changes rows. */
START_TEST(a_causal_mask_is_where_order_enters)
{
    struct mha_error err;
    struct mha_example *g = mha_example_generated(5, NULL, 8, 2, 3, &err);
    ck_assert_ptr_nonnull(g);
    const int perm[5] = {4, 3, 2, 1, 0};
    struct mha_example *m = reorder_keys(g, perm);
    g->causal = m->causal = true;
    /* cross examples take the mask too: reordered keys change what row 0 sees */
    struct mha_trace *ta = mha_run(g, &err), *tb = mha_run(m, &err);
    ck_assert_ptr_nonnull(ta);
    ck_assert_ptr_nonnull(tb);
    double diff = 0;
    for (int c = 0; c < g->d_model / g->heads; c++)
        diff += fabs((double)ta->context[c] - (double)tb->context[c]);
    ck_assert(diff > 1e-3);
    mha_trace_free(ta);
    mha_trace_free(tb);
    mha_example_free(m);
    mha_example_free(g);
}
END_TEST

/* Lesson 7: without the scale the scores grow sqrt(d_k) times and no row's
 * top weight goes down, whatever the size and seed. */
START_TEST(no_scale_never_lowers_the_top_weight)
{
    static const int sizes[][3] = {{4, 6, 2}, {4, 12, 2}, {6, 24, 4}, {10, 64, 8}, {3, 8, 8}};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (uint32_t seed = 40; seed < 46; seed++) {
            struct mha_error err;
            struct mha_example *ex =
                mha_example_generated(sizes[k][0], NULL, sizes[k][1], sizes[k][2], seed, &err);
            ck_assert_ptr_nonnull(ex);
            struct mha_trace *on = mha_run(ex, &err);
            ex->scaled = false;
            struct mha_trace *off = mha_run(ex, &err);
            ck_assert_ptr_nonnull(on);
            ck_assert_ptr_nonnull(off);
            const int n = ex->lk;
            for (int r = 0; r < ex->heads * ex->lq; r++) {
                float a = 0, b = 0;
                for (int j = 0; j < n; j++) {
                    a = fmaxf(a, on->weights[(size_t)r * (size_t)n + (size_t)j]);
                    b = fmaxf(b, off->weights[(size_t)r * (size_t)n + (size_t)j]);
                }
                ck_assert_msg(b >= a - 1e-6f, "d_model %d seed %u row %d: %g unscaled < %g",
                              ex->d_model, (unsigned)seed, r, (double)b, (double)a);
            }
            mha_trace_free(on);
            mha_trace_free(off);
            mha_example_free(ex);
        }
}
END_TEST

/* A checkpoint must be answerable before its answer shows: the step's own
 * text never names the right choice. */
START_TEST(no_checkpoint_names_its_answer)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/lessons", data_dir());
    struct lesson_catalog cat;
    ck_assert_int_eq(lesson_catalog_load(&cat, dir), 0);
    static char text[16384];
    int checked = 0;
    for (int i = 0; i < cat.n; i++) {
        struct lesson *l = lesson_load(cat.paths[i]);
        ck_assert_ptr_nonnull(l);
        for (int s = 0; s < l->n_steps; s++) {
            const struct lesson_quiz *q = &l->steps[s].quiz;
            if (!l->steps[s].has_quiz || q->computed || q->n_choices == 0)
                continue;
            step_text(&l->steps[s], text, sizeof text);
            char answer[256];
            size_t k = 0;
            for (const char *a = q->answer; *a && k + 1 < sizeof answer; a++)
                answer[k++] = (char)((*a >= 'A' && *a <= 'Z') ? *a + 32 : *a);
            answer[k] = '\0';
            ck_assert_msg(!strstr(text, answer), "%s step %d: the text says the answer \"%s\"",
                          cat.paths[i], s + 1, q->answer);
            checked++;
        }
        lesson_free(l);
    }
    ck_assert_int_ge(checked, 8);
    lesson_catalog_done(&cat);
}
END_TEST

/* A step whose scene has already switched something off does not ask the
 * reader to switch it off (lesson 8's mask, lesson 7's scale). */
START_TEST(no_step_asks_for_what_its_scene_did)
{
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/lessons", data_dir());
    struct lesson_catalog cat;
    ck_assert_int_eq(lesson_catalog_load(&cat, dir), 0);
    static char text[16384];
    for (int i = 0; i < cat.n; i++) {
        struct lesson *l = lesson_load(cat.paths[i]);
        ck_assert_ptr_nonnull(l);
        for (int s = 0; s < l->n_steps; s++) {
            const struct lesson_scene *sc = &l->steps[s].scene;
            step_text(&l->steps[s], text, sizeof text);
            if ((sc->set & (1u << SCENE_CAUSAL)) && !sc->causal)
                ck_assert_msg(!strstr(text, "switch the mask off"),
                              "%s step %d asks to switch off the mask its scene switched off",
                              cat.paths[i], s + 1);
            if ((sc->set & (1u << SCENE_SCALE)) && !sc->scaled)
                ck_assert_msg(!strstr(text, "switch the scaling off") &&
                                  !strstr(text, "switch the scale off"),
                              "%s step %d asks to switch off the scale its scene switched off",
                              cat.paths[i], s + 1);
        }
        lesson_free(l);
    }
    lesson_catalog_done(&cat);
}
END_TEST

static Suite *claims_suite(void)
{
    Suite *s = suite_create("lesson_claims");
    TCase *t = tcase_create("claims");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, lesson_15_says_attention_has_no_positions);
    tcase_add_test(t, order_of_keys_does_not_reach_attention);
    tcase_add_test(t, a_causal_mask_is_where_order_enters);
    tcase_add_test(t, no_scale_never_lowers_the_top_weight);
    tcase_add_test(t, no_checkpoint_names_its_answer);
    tcase_add_test(t, no_step_asks_for_what_its_scene_did);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(claims_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
