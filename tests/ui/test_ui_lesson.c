/* test_ui_lesson.c - lessons inside the explorer, without a terminal: each
 * step's scene reaches the state (stage, sizes, mask, view, the cell to
 * point at), going back replays the scenes, a checkpoint asks before it
 * tells and is marked against the example on screen, progress is kept and
 * survives a restart (and a corrupt file), the lesson list shows it, and
 * the shapes, cost and heads views hold the engine's numbers. */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mha_config.h"
#include "ui/state/ui_lesson.h"
#include "ui/panes/ui_lesson_menu.h"
#include "ui/commands/ui_cmd.h"
#include "ui/state/ui_state.h"
#include "ui/views/ui_views.h"
#include "ui/views/ui_views.h"
#include "test_tmp.h"

static const char lesson_text[] = "# A test lesson\n"
                                  "\n"
                                  "## Projection\n"
                                  "\n"
                                  "Text with *emphasis*.\n"
                                  "\n"
                                  "```mha\n"
                                  "stage: projection\n"
                                  "focus: q, row tok 1, col 4\n"
                                  "```\n"
                                  "\n"
                                  "---\n"
                                  "\n"
                                  "## Three heads\n"
                                  "\n"
                                  "```mha\n"
                                  "stage: split\n"
                                  "heads: 3\n"
                                  "focus: q, row tok 2, col 5\n"
                                  "```\n"
                                  "\n"
                                  "```quiz\n"
                                  "question: How wide is each head?\n"
                                  "answer: computed\n"
                                  "compute: d_k\n"
                                  "explain: d_model / heads.\n"
                                  "```\n"
                                  "\n"
                                  "---\n"
                                  "\n"
                                  "## Masked\n"
                                  "\n"
                                  "```mha\n"
                                  "stage: attention\n"
                                  "heads: 2\n"
                                  "causal: on\n"
                                  "focus: weights, head 1, row tok 3, col tok 2\n"
                                  "```\n"
                                  "\n"
                                  "```quiz\n"
                                  "question: Which key does tok 3 attend to most in head 1?\n"
                                  "choices: tok 0 | tok 1 | tok 2 | tok 3\n"
                                  "answer: computed\n"
                                  "compute: argmax head 1 row tok 3\n"
                                  "explain: The largest score wins.\n"
                                  "```\n"
                                  "\n"
                                  "---\n"
                                  "\n"
                                  "## Cost\n"
                                  "\n"
                                  "```mha\n"
                                  "view: cost\n"
                                  "preset: bert-base\n"
                                  "seq: 128\n"
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

static void start_explorer(void)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    char warning[600];
    ui_lessons_init(&ls, lessons, MHA_SOURCE_ROOT "/assets", warning, (int)sizeof warning);
    ck_assert_str_eq(warning, "");
}

static void stop_explorer(void)
{
    ui_lessons_done(&ls);
    ui_state_done(&st);
}

static void setup(void)
{
    test_tmp_template(dir, sizeof dir, "mha-ui-lesson");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(lessons, sizeof lessons, "%s/lessons", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    ck_assert_int_eq(mkdir(lessons, 0755), 0);
    snprintf(path, sizeof path, "%s/01-test.md", lessons);
    write_file(path, lesson_text);
    setenv("XDG_STATE_HOME", state, 1);
    start_explorer();
}

static void teardown(void)
{
    stop_explorer();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* The keys of a string, as characters. */
static void type(const char *keys)
{
    for (const char *k = keys; *k; k++)
        ui_lesson_quiz_key(&ls, &st, *k, true);
}

/* ------------------------------------------------------------ TCase navigation */

START_TEST(test_open_applies_the_first_scene)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    ck_assert_ptr_nonnull(ls.l);
    ck_assert_str_eq(ls.id, "01-test.md");
    ck_assert_int_eq(ls.step, 0);
    ck_assert_int_eq(st.stage, MHA_STAGE_PROJECTION);
    ck_assert_int_eq(st.view, MHA_VIEW_NONE);
    /* the cursor goes to Q[tok 1, 4] once the view is built */
    ck_assert(st.focus_pending);
    ck_assert_int_eq(st.focus_cell.tensor, MHA_TENSOR_Q);
    ck_assert_int_eq(st.focus_cell.row, 1);
    ck_assert_int_eq(st.focus_cell.col, 4);
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    int n = ui_view_build(&st, 200, blocks, UI_VIEW_MAX_BLOCKS), b, r, c;
    ck_assert(ui_view_locate(blocks, n, &st.focus_cell, &b, &r, &c));
    ck_assert_int_eq(blocks[b].base.tensor, MHA_TENSOR_Q);
    ck_assert_int_eq(r, 1);
    ck_assert_int_eq(c, 4);
    ck_assert(ls.quiz.phase == UI_QUIZ_NONE);
}
END_TEST

START_TEST(test_next_and_prev_apply_the_scenes)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
    ck_assert_int_eq(ls.step, 1);
    ck_assert_int_eq(st.stage, MHA_STAGE_SPLIT);
    ck_assert_int_eq(st.ex->heads, 3);
    ck_assert_int_eq(st.tr->d_k, 2);
    /* split shows Q's columns cut into heads: column 5 is head 2, column 1 */
    ck_assert_int_eq(st.focus_cell.tensor, MHA_TENSOR_QH);
    ck_assert_int_eq(st.focus_cell.head, 2);
    ck_assert_int_eq(st.focus_cell.col, 1);
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    int n = ui_view_build(&st, 120, blocks, UI_VIEW_MAX_BLOCKS), b, r, c;
    ck_assert(ui_view_locate(blocks, n, &st.focus_cell, &b, &r, &c));
    ck_assert_int_eq(r, 2);
    ck_assert_int_eq(c, 5);

    /* the reader changes the screen; the next step puts its scene back */
    ck_assert_int_eq(ui_state_set_d_model(&st, 12), 0);
    ck_assert_int_eq(ui_state_set_stage(&st, MHA_STAGE_OUTPUT), 0);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 0); /* the checkpoint asks first */
    ck_assert_ptr_nonnull(strstr(st.msg, "Predict first"));
    ck_assert_int_eq(ls.step, 1);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1); /* asked once: now it skips */
    ck_assert_int_eq(ls.step, 2);
    ck_assert_int_eq(st.stage, MHA_STAGE_ATTENTION);
    ck_assert_int_eq(st.ex->d_model, 6);
    ck_assert_int_eq(st.ex->heads, 2);
    ck_assert(st.ex->causal);
    ck_assert_int_eq(st.focus_cell.tensor, MHA_TENSOR_WEIGHTS);
    ck_assert_int_eq(st.focus_cell.head, 1);
    ck_assert_int_eq(st.focus_cell.row, 3);
    ck_assert_int_eq(st.focus_cell.col, 2);

    /* back: the scenes replay from the start, so the mask is off again */
    ck_assert_int_eq(ui_lesson_prev(&ls, &st), 1);
    ck_assert_int_eq(ls.step, 1);
    ck_assert(!st.ex->causal);
    ck_assert_int_eq(st.ex->heads, 3);
    ck_assert_int_eq(st.stage, MHA_STAGE_SPLIT);
    ck_assert_int_eq(ui_lesson_prev(&ls, &st), 1);
    ck_assert_int_eq(ui_lesson_prev(&ls, &st), 0); /* the first step */
    ck_assert_int_eq(ls.step, 0);
}
END_TEST

START_TEST(test_a_view_scene)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 3), 0);
    ck_assert_int_eq(st.view, MHA_VIEW_COST);
    ui_views_sync(&st); /* the view's numbers, as the screen makes them before drawing */
    ck_assert_ptr_nonnull(st.vd);
    ck_assert(!st.focus_pending);
    ck_assert_str_eq(st.view_preset, "bert-base");
    ck_assert_int_eq(st.view_seq, 128);
    /* BERT base: d_model 768, with biases: 4·768² weights */
    ck_assert_str_eq(st.vd->table.cells[1 * 3 + 2], "2,359,296");
    ck_assert_ptr_nonnull(strstr(st.vd->line, "BERT base"));
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 0); /* the last step */
    ck_assert_ptr_nonnull(strstr(st.msg, "last step"));
    /* a stage key leaves the view */
    ck_assert_int_eq(ui_state_set_stage(&st, MHA_STAGE_MERGE), 0);
    ck_assert_int_eq(st.view, MHA_VIEW_NONE);
    ck_assert_ptr_null(st.vd);
}
END_TEST

START_TEST(test_bad_lessons_are_refused)
{
    char bad[2048];
    snprintf(bad, sizeof bad, "%s/02-bad.md", lessons);
    write_file(bad, "# Bad\n\n```mha\nstage: nowhere\n```\n");
    ck_assert_int_eq(ui_lesson_open(&ls, &st, bad, 0), -1);
    ck_assert(st.msg_error);
    ck_assert_ptr_nonnull(strstr(st.msg, "02-bad.md:4"));
    ck_assert_ptr_null(ls.l);
    ck_assert_int_eq(ui_lesson_open(&ls, &st, "/nonexistent/03-none.md", 0), -1);
    ck_assert_ptr_null(ls.l);
    ck_assert_int_eq(st.stage, MHA_STAGE_INPUT); /* the screen as it was */
}
END_TEST

/* ------------------------------------------------------------ TCase quiz */

START_TEST(test_quiz_state_machine)
{
    struct lesson_quiz q = {0};
    char *choices[] = {"cat", "sat", "mat"};
    q.choices = choices;
    q.n_choices = 3;
    q.answer = "mat";
    q.tolerance = 0.01;
    struct ui_quiz z;
    ui_quiz_start(&z, &q, -1);
    ck_assert(ui_quiz_asking(&z));
    ck_assert(!ui_quiz_numeric(&z));
    ck_assert_int_eq(ui_quiz_key(&z, '4', true), UI_QUIZ_TAKEN); /* no fourth choice */
    ck_assert_int_eq(ui_quiz_key(&z, KEY_RIGHT, false), UI_QUIZ_IGNORED);
    ck_assert_int_eq(ui_quiz_key(&z, '2', true), UI_QUIZ_SUBMIT);
    ck_assert_str_eq(z.given, "sat");
    struct lesson_answer a = {.numeric = false};
    strcpy(a.text, "mat");
    /* a first wrong answer: one more try, and the answer stays hidden */
    ck_assert(!ui_quiz_mark(&z, &a));
    ck_assert(ui_quiz_asking(&z));
    ck_assert(z.retry);
    ck_assert_str_eq(z.first, "sat");
    ck_assert_str_eq(z.answer, "");
    ck_assert_int_eq(ui_quiz_key(&z, '2', true), UI_QUIZ_TAKEN); /* tried already */
    ck_assert_int_eq(ui_quiz_key(&z, '1', true), UI_QUIZ_SUBMIT);
    ck_assert(ui_quiz_mark(&z, &a));
    ck_assert(!z.right);
    ck_assert_str_eq(z.answer, "mat");
    ck_assert(!ui_quiz_asking(&z));
    ck_assert_int_eq(ui_quiz_key(&z, '3', true), UI_QUIZ_IGNORED); /* answered */

    /* a number: typed, corrected, submitted with Enter */
    q.choices = NULL;
    q.n_choices = 0;
    ui_quiz_start(&z, &q, 1);
    ck_assert(ui_quiz_numeric(&z));
    ck_assert_int_eq(z.previous, 1);
    ck_assert_int_eq(ui_quiz_key(&z, '\r', true), UI_QUIZ_IGNORED); /* nothing typed */
    ck_assert_int_eq(ui_quiz_key(&z, 127, true), UI_QUIZ_IGNORED);
    for (const char *k = "-0.95"; *k; k++)
        ck_assert_int_eq(ui_quiz_key(&z, *k, true), UI_QUIZ_TAKEN);
    ck_assert_int_eq(ui_quiz_key(&z, KEY_BACKSPACE, false), UI_QUIZ_TAKEN);
    ck_assert_int_eq(ui_quiz_key(&z, '8', true), UI_QUIZ_TAKEN);
    ck_assert_str_eq(z.typed, "-0.98");
    /* once typing began every character is typed, q too (it does not quit) */
    ck_assert_int_eq(ui_quiz_key(&z, 'q', true), UI_QUIZ_TAKEN);
    ck_assert_int_eq(ui_quiz_key(&z, 'x', true), UI_QUIZ_TAKEN);
    ck_assert_str_eq(z.typed, "-0.98qx");
    ck_assert_int_eq(ui_quiz_key(&z, KEY_BACKSPACE, false), UI_QUIZ_TAKEN);
    ck_assert_int_eq(ui_quiz_key(&z, 127, true), UI_QUIZ_TAKEN);
    ck_assert_str_eq(z.typed, "-0.98");
    ck_assert_int_eq(ui_quiz_key(&z, KEY_ENTER, false), UI_QUIZ_SUBMIT);
    a = (struct lesson_answer){.numeric = true, .number = -0.9812};
    ui_quiz_mark(&z, &a);
    ck_assert(z.right);
    ck_assert_str_eq(z.answer, "-0.9812");
    char buf[32];
    ui_quiz_format_number(147456.0, buf, sizeof buf);
    ck_assert_str_eq(buf, "147456");
}
END_TEST

START_TEST(test_checkpoint_uses_the_screen_and_is_kept)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 1), 0);
    ck_assert(ui_quiz_asking(&ls.quiz));
    ck_assert_int_eq(ls.quiz.previous, -1);
    /* the reader makes 6 heads before answering: d_k is now 1 on screen */
    ck_assert_int_eq(ui_state_set_heads(&st, 6), 0);
    type("2\r");
    ck_assert(ui_quiz_asking(&ls.quiz)); /* one more try */
    ck_assert_int_eq(progress_quiz(ls.progress, "01-test.md", 1), -1);
    type("3\r");
    ck_assert(ls.quiz.phase == UI_QUIZ_ANSWERED);
    ck_assert(!ls.quiz.right);
    ck_assert_str_eq(ls.quiz.answer, "1");
    ck_assert_int_eq(progress_quiz(ls.progress, "01-test.md", 1), 0);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1); /* answered: no question asked */

    /* choices: the answer is computed from the example on screen */
    ck_assert_int_eq(ls.step, 2);
    struct lesson_answer want;
    struct mha_error err;
    ck_assert_int_eq(lesson_quiz_expected(ls.quiz.q, st.ex, st.tr, &want, &err), 0);
    int right = -1;
    for (int i = 0; i < ls.quiz.q->n_choices; i++)
        if (!strcmp(ls.quiz.q->choices[i], want.text))
            right = i;
    ck_assert_int_ge(right, 0);
    ck_assert(ui_lesson_quiz_key(&ls, &st, '1' + right, true));
    ck_assert(ls.quiz.right);
    ck_assert_int_eq(progress_quiz(ls.progress, "01-test.md", 2), 1);

    /* a restart: the progress is there, and the lesson opens where it was left */
    stop_explorer();
    start_explorer();
    ck_assert_int_eq(progress_last_step(ls.progress, "01-test.md"), 2);
    ck_assert_int_eq(progress_seen_count(ls.progress, "01-test.md"), 2);
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, -1), 0);
    ck_assert_int_eq(ls.step, 2);
    ck_assert_int_eq(ls.quiz.previous, 1); /* shown, but no longer in the way */
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
}
END_TEST

/* ------------------------------------------------------------ TCase progress */

START_TEST(test_lesson_list_marks)
{
    ui_lesson_menu_open(&ls, &st);
    ck_assert(ls.menu_open);
    ck_assert_int_eq(ls.n_list, 1);
    ck_assert_int_eq(ui_lesson_menu_rows(&ls), 1);
    const struct ui_lesson_entry *e = &ls.list[0];
    ck_assert_str_eq(e->title, "A test lesson");
    ck_assert_int_eq(e->n_steps, 4);
    ck_assert_int_eq(e->n_quizzes, 2);
    char seen[32], quiz[32];
    ui_lesson_entry_marks(&ls, e, seen, sizeof seen, quiz, sizeof quiz);
    ck_assert_str_eq(seen, "0/4");
    ck_assert_str_eq(quiz, "");
    ui_lesson_menu_key(&ls, &st, '\r', true); /* opens it */
    ck_assert(!ls.menu_open);
    ck_assert_ptr_nonnull(ls.l);
    ck_assert_int_eq(ls.step, 0);
    ui_lesson_goto(&ls, &st, 2);
    type("1");
    if (ui_quiz_asking(&ls.quiz))
        type("2"); /* the second try */
    ui_lesson_entry_marks(&ls, e, seen, sizeof seen, quiz, sizeof quiz);
    ck_assert_str_eq(seen, "2/4");
    /* right at the first try counts; right at the second does not */
    ck_assert_str_eq(quiz, ls.quiz.right && !ls.quiz.retry ? "1/2" : "0/2");
    ui_lesson_goto(&ls, &st, 1);
    ui_lesson_goto(&ls, &st, 3);
    ui_lesson_entry_marks(&ls, e, seen, sizeof seen, quiz, sizeof quiz);
    ck_assert_str_eq(seen, "4/4 ✓");
    /* the list, while a lesson is open, ends with "leave the lesson" */
    ui_lesson_menu_open(&ls, &st);
    ck_assert_int_eq(ui_lesson_menu_rows(&ls), 2);
    ui_lesson_menu_key(&ls, &st, KEY_DOWN, false);
    ui_lesson_menu_key(&ls, &st, KEY_ENTER, false);
    ck_assert_ptr_null(ls.l);
    ck_assert_ptr_nonnull(strstr(st.msg, "Left the lesson"));
}
END_TEST

START_TEST(test_corrupt_progress_is_set_aside)
{
    stop_explorer();
    char file[2048];
    snprintf(file, sizeof file, "%s/mha-explorer", state);
    mkdir(state, 0755);
    mkdir(file, 0755);
    snprintf(file, sizeof file, "%s/mha-explorer/progress.json", state);
    write_file(file, "{ this is not json");
    struct mha_error err;
    ck_assert_int_eq(ui_state_init(&st, mha_example_default(&err), true, "", &err), 0);
    char warning[600];
    ui_lessons_init(&ls, lessons, MHA_SOURCE_ROOT "/assets", warning, (int)sizeof warning);
    ck_assert_str_ne(warning, "");
    ck_assert_ptr_nonnull(ls.progress);
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, -1), 0);
    ck_assert_int_eq(ls.step, 0);
    ck_assert(!st.msg_error); /* saved over it without trouble */
}
END_TEST

START_TEST(test_save_failure_is_a_message)
{
    stop_explorer();
    /* the state folder is a file: nothing can be written under it */
    write_file(state, "in the way");
    start_explorer();
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    ck_assert(st.msg_error);
    ck_assert_ptr_nonnull(strstr(st.msg, "could not be saved"));
    ck_assert_int_eq(ls.step, 0); /* the lesson goes on */
    ck_assert_int_eq(st.stage, MHA_STAGE_PROJECTION);
}
END_TEST

/* ------------------------------------------------------------ TCase views */

START_TEST(test_views_hold_the_engine_numbers)
{
    ck_assert_int_eq(ui_state_command(&st, ":view shapes"), 0);
    ui_views_sync(&st); /* the view's numbers, as the screen makes them before drawing */
    ck_assert_int_eq(st.view, MHA_VIEW_SHAPES);
    ck_assert_ptr_nonnull(st.vd);
    ck_assert_int_eq(st.vd->table.cols, 4);
    ck_assert_str_eq(st.vd->table.cells[0], "step");
    /* transpose of batch 2, 4 tokens, 2 heads of 3 */
    bool found = false;
    for (int r = 1; r < st.vd->table.rows; r++)
        found = found || (!strcmp(st.vd->table.cells[r * 4], "transpose") &&
                          !strcmp(st.vd->table.cells[r * 4 + 2], "(2, 2, 4, 3)"));
    ck_assert(found);
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    int n = ui_view_build(&st, 120, blocks, UI_VIEW_MAX_BLOCKS);
    ck_assert_int_eq(n, 1);
    ck_assert_int_eq(blocks[0].kind, UI_BLOCK_TABLE);
    ck_assert(!ui_block_selectable(&blocks[0]));

    ck_assert_int_eq(ui_state_command(&st, "view cost"), 0);
    ui_views_sync(&st);
    ck_assert_str_eq(st.vd->table.cells[1 * 3 + 1], "144"); /* 4 · 6² */
    ck_assert_int_eq(ui_state_set_heads(&st, 3), 0);        /* the view follows the example */
    ui_views_sync(&st);
    ck_assert_ptr_nonnull(strstr(st.vd->table.cells[2], "3 heads"));

    ck_assert_int_eq(ui_state_command(&st, "view heads"), 0);
    ui_views_sync(&st);
    ck_assert_int_eq(st.vd->heads, 3);
    ck_assert_str_eq(st.vd->error, "");
    for (int i = 0; i < 3; i++) {
        ck_assert_float_eq_tol(st.vd->matrices[0].data[i * 3 + i], 1.0f, 1e-5f);
        ck_assert(st.vd->rank[i] >= 1.0 && st.vd->rank[i] <= 2.0 + 1e-9);
    }
    n = ui_view_build(&st, 120, blocks, UI_VIEW_MAX_BLOCKS);
    ck_assert_int_eq(n, 2);
    ck_assert_int_eq(blocks[0].kind, UI_BLOCK_MATRIX);
    ck_assert(!ui_block_selectable(&blocks[0]));

    /* too wide for the heads analysis: the reason instead of the numbers */
    ck_assert_int_eq(ui_state_set_d_model(&st, 600), 0);
    ui_views_sync(&st);
    ck_assert_ptr_nonnull(strstr(st.vd->error, "512"));
    ck_assert_int_eq(ui_view_build(&st, 120, blocks, UI_VIEW_MAX_BLOCKS), 0);

    ck_assert_int_eq(ui_state_command(&st, "view nowhere"), -1);
    ck_assert(st.msg_error);
    ck_assert_int_eq(ui_state_command(&st, "view none"), 0);
    ck_assert_int_eq(st.view, MHA_VIEW_NONE);
    ck_assert_int_eq(ui_view_mode_from_name("heads"), MHA_VIEW_HEADS);
    ck_assert_int_eq(ui_view_mode_from_name("stage"), MHA_VIEW_NONE);
    ck_assert_int_eq(ui_view_mode_from_name("x"), -1);
}
END_TEST

static Suite *lesson_suite(void)
{
    Suite *s = suite_create("ui_lesson");
    TCase *t = tcase_create("navigation");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_open_applies_the_first_scene);
    tcase_add_test(t, test_next_and_prev_apply_the_scenes);
    tcase_add_test(t, test_a_view_scene);
    tcase_add_test(t, test_bad_lessons_are_refused);
    suite_add_tcase(s, t);
    t = tcase_create("quiz");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_quiz_state_machine);
    tcase_add_test(t, test_checkpoint_uses_the_screen_and_is_kept);
    suite_add_tcase(s, t);
    t = tcase_create("progress");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_lesson_list_marks);
    tcase_add_test(t, test_corrupt_progress_is_set_aside);
    tcase_add_test(t, test_save_failure_is_a_message);
    suite_add_tcase(s, t);
    t = tcase_create("views");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_views_hold_the_engine_numbers);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lesson_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
