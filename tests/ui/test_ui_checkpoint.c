/* test_ui_checkpoint.c - checkpoints that ask before they tell: the cells
 * a checkpoint asks about are hidden until it is answered, a ```reveal
 * scene is applied only once it is answered (and stays for the steps after
 * it), a first wrong answer gets one more try, and the lesson checker
 * reports a reveal without a checkpoint and a hide: that does not fit. */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lesson/lesson_state.h"
#include "mha_config.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_state.h"
#include "ui/views/ui_views.h"
#include "test_tmp.h"

static const char lesson_text[] = "# Reveal\n"
                                  "\n"
                                  "## Without the scale\n"
                                  "\n"
                                  "What happens to head 1, row tok 1 without the scale?\n"
                                  "\n"
                                  "```mha\n"
                                  "d_model: 6\n"
                                  "heads: 2\n"
                                  "seed: 42\n"
                                  "scale: on\n"
                                  "stage: attention\n"
                                  "focus: weights, head 1, row tok 1, col tok 3\n"
                                  "```\n"
                                  "\n"
                                  "```quiz\n"
                                  "question: Does the top weight go up or down?\n"
                                  "choices: down | it stays | up\n"
                                  "answer: up\n"
                                  "hide: weights, head 1, row tok 1\n"
                                  "explain: Larger gaps sharpen softmax.\n"
                                  "```\n"
                                  "\n"
                                  "```reveal\n"
                                  "scale: off\n"
                                  "```\n"
                                  "\n"
                                  "---\n"
                                  "\n"
                                  "## After\n"
                                  "\n"
                                  "Still unscaled.\n"
                                  "\n"
                                  "```mha\n"
                                  "focus: weights, head 0, row tok 2, col tok 0\n"
                                  "```\n"
                                  "\n"
                                  "```quiz\n"
                                  "question: What weight does row tok 2 give tok 0 in head 0?\n"
                                  "answer: computed\n"
                                  "compute: weight head 0 row tok 2 col tok 0\n"
                                  "explain: Read it off the table.\n"
                                  "```\n";

static char dir[512], lessons[768], path[1024], state[768];
static struct ui_state st;
static struct ui_lessons ls;

static void write_file(const char *p, const char *text)
{
    FILE *f = fopen(p, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void setup(void)
{
    test_tmp_template(dir, sizeof dir, "mha-ui-checkpoint");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(lessons, sizeof lessons, "%s/lessons", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    ck_assert_int_eq(mkdir(lessons, 0755), 0);
    snprintf(path, sizeof path, "%s/01-reveal.md", lessons);
    write_file(path, lesson_text);
    setenv("XDG_STATE_HOME", state, 1);
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    char warning[600];
    ui_lessons_init(&ls, lessons, MHA_SOURCE_ROOT "/assets", warning, (int)sizeof warning);
}

static void teardown(void)
{
    ui_lessons_done(&ls);
    ui_state_done(&st);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

static bool hidden(enum mha_tensor x, int head, int row, int col)
{
    const struct mha_cell c = {x, head, row, col};
    return lesson_hide_covers(&st.hide, &c);
}

/* The blocks the screen draws carry the hidden cells. */
static bool blocks_hide(void)
{
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    const int n = ui_view_build(&st, 200, blocks, UI_VIEW_MAX_BLOCKS);
    for (int i = 0; i < n; i++)
        if (blocks[i].base.tensor == MHA_TENSOR_WEIGHTS && blocks[i].hide_ctx == &st.hide &&
            ui_block_hides(&blocks[i], &(struct mha_cell){MHA_TENSOR_WEIGHTS, 1, 1, 0}))
            return true;
    return false;
}

START_TEST(test_reveal_waits_for_the_answer)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    ck_assert(ui_quiz_asking(&ls.quiz));
    /* asked with the scale on, and the asked row hidden */
    ck_assert(st.ex->scaled);
    ck_assert(st.hide.active);
    ck_assert(hidden(MHA_TENSOR_WEIGHTS, 1, 1, 3));
    ck_assert(hidden(MHA_TENSOR_WEIGHTS, 1, 1, 0));
    ck_assert(!hidden(MHA_TENSOR_WEIGHTS, 0, 1, 3));
    ck_assert(!hidden(MHA_TENSOR_WEIGHTS, 1, 2, 3));
    /* the row's scores stay to reason from */
    ck_assert(!hidden(MHA_TENSOR_SCALED, 1, 1, 3));
    /* hide: attention takes the row's scores, scaled or not, with it */
    const struct lesson_hide att = {true, MHA_TENSOR_WEIGHTS, 1, 1, -1, true};
    const struct mha_cell scaled = {MHA_TENSOR_SCALED, 1, 1, 3},
                          scores = {MHA_TENSOR_SCORES, 1, 1, 0};
    const struct mha_cell other_row = {MHA_TENSOR_SCORES, 1, 2, 0},
                          other_head = {MHA_TENSOR_SCALED, 0, 1, 3};
    const struct mha_cell context = {MHA_TENSOR_CONTEXT, 1, 1, 0};
    ck_assert(lesson_hide_covers(&att, &scaled));
    ck_assert(lesson_hide_covers(&att, &scores));
    ck_assert(!lesson_hide_covers(&att, &other_row));
    ck_assert(!lesson_hide_covers(&att, &other_head));
    ck_assert(!lesson_hide_covers(&att, &context));
    ck_assert(blocks_hide());

    /* a wrong answer: still asking, still hidden, still scaled */
    ck_assert(ui_lesson_quiz_key(&ls, &st, '1', true));
    ck_assert(ui_quiz_asking(&ls.quiz));
    ck_assert(st.hide.active);
    ck_assert(st.ex->scaled);
    ck_assert_ptr_nonnull(strstr(st.msg, "One more try"));
    /* the right one: the reveal switches the scale off, the cells show */
    ck_assert(ui_lesson_quiz_key(&ls, &st, '3', true));
    ck_assert(!ui_quiz_asking(&ls.quiz));
    ck_assert(ls.quiz.right);
    ck_assert(!st.hide.active);
    ck_assert(!blocks_hide());
    ck_assert(!st.ex->scaled);
    ck_assert_int_eq(st.focus_cell.tensor, MHA_TENSOR_WEIGHTS); /* the cursor stays */
    ck_assert_int_eq(st.focus_cell.head, 1);

    /* the next step starts from the revealed settings; its computed
     * question hides just the asked cell */
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
    ck_assert(!st.ex->scaled);
    ck_assert(hidden(MHA_TENSOR_WEIGHTS, 0, 2, 0));
    ck_assert(!hidden(MHA_TENSOR_WEIGHTS, 0, 2, 1));
    ck_assert(!hidden(MHA_TENSOR_WEIGHTS, 1, 2, 0));

    /* going back asks again, with the scale on again */
    ck_assert_int_eq(ui_lesson_prev(&ls, &st), 1);
    ck_assert(st.ex->scaled);
    ck_assert(st.hide.active);

    /* leaving the lesson shows everything */
    ui_lesson_close(&ls, &st);
    ck_assert(!st.hide.active);
}
END_TEST

/* Autoplay going past a checkpoint shows the answer and applies the reveal. */
START_TEST(test_autoplay_reveal_applies_it)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    ck_assert(ui_lesson_reveal(&ls, &st));
    ck_assert(!st.hide.active);
    ck_assert(!st.ex->scaled);
    ck_assert_str_eq(ls.quiz.answer, "up");
}
END_TEST

/* A number: two wrong tries, then the answer shows with both. */
START_TEST(test_numeric_retry)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 1), 0);
    ck_assert(ui_quiz_numeric(&ls.quiz));
    const char *first = "7\r", *second = "8\r";
    for (const char *k = first; *k; k++)
        ui_lesson_quiz_key(&ls, &st, *k, true);
    ck_assert(ui_quiz_asking(&ls.quiz));
    ck_assert_str_eq(ls.quiz.typed, "");
    for (const char *k = second; *k; k++)
        ui_lesson_quiz_key(&ls, &st, *k, true);
    ck_assert(!ui_quiz_asking(&ls.quiz));
    ck_assert(!ls.quiz.right);
    ck_assert_str_eq(ls.quiz.first, "7");
    ck_assert_str_eq(ls.quiz.given, "8");
    ck_assert_int_eq(progress_quiz(ls.progress, "01-reveal.md", 1), 0);
}
END_TEST

static struct lesson *checked(const char *text)
{
    struct lesson *l = lesson_parse(text, strlen(text), "t.md");
    ck_assert_ptr_nonnull(l);
    if (l->n_diags == 0)
        lesson_check(l, MHA_SOURCE_ROOT "/assets");
    return l;
}

static bool has_diag(const struct lesson *l, const char *words)
{
    for (int i = 0; i < l->n_diags; i++)
        if (strstr(l->diags[i].text, words))
            return true;
    return false;
}

START_TEST(test_checker_knows_reveal_and_hide)
{
    struct lesson *l = checked(lesson_text);
    for (int i = 0; i < l->n_diags; i++)
        fprintf(stderr, "%d: %s\n", l->diags[i].line, l->diags[i].text);
    ck_assert_int_eq(l->n_diags, 0);
    ck_assert(l->steps[0].has_reveal);
    ck_assert_str_eq(l->steps[0].quiz.hide, "weights, head 1, row tok 1");
    lesson_free(l);

    l = checked("# T\n\n```mha\nstage: attention\n```\n\n```reveal\nscale: off\n```\n");
    ck_assert(has_diag(l, "has no ```quiz"));
    lesson_free(l);

    l = checked("# T\n\n```mha\nstage: attention\n```\n\n```quiz\nquestion: q?\nanswer: 1\n"
                "hide: weights, head 5\nexplain: e.\n```\n");
    ck_assert(has_diag(l, "heads are numbered 0..1"));
    lesson_free(l);

    l = checked("# T\n\n```mha\nstage: attention\n```\n\n```quiz\nquestion: q?\nanswer: 1\n"
                "hide: weights, row nobody\nexplain: e.\n```\n");
    ck_assert(has_diag(l, "is not a row of weights"));
    lesson_free(l);

    l = checked("# T\n\n```mha\nstage: attention\n```\n\n```quiz\nquestion: q?\nanswer: 1\n"
                "explain: e.\n```\n\n```reveal\nfocus: weights, row nobody\n```\n");
    ck_assert(has_diag(l, "after the reveal"));
    lesson_free(l);
}
END_TEST

static Suite *checkpoint_suite(void)
{
    Suite *s = suite_create("ui_checkpoint");
    TCase *t = tcase_create("reveal");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_reveal_waits_for_the_answer);
    tcase_add_test(t, test_autoplay_reveal_applies_it);
    tcase_add_test(t, test_numeric_retry);
    tcase_add_test(t, test_checker_knows_reveal_and_hide);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(checkpoint_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
