/* test_ui_lesson_list.c - the lesson list (L): steps seen as "0/2" ..
 * "2/2 ✓", the cursor on the first lesson not read to the end, r restarts
 * the selected lesson (its progress forgotten), R twice forgets every
 * lesson's progress; and progress_reset under both.  Also the status
 * notes around lessons: a scene that undoes the reader's change, and the
 * causal mask on a cross-attention example. */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "mha_config.h"
#include "lesson/progress.h"
#include "ui/state/ui_lesson.h"
#include "ui/panes/ui_lesson_menu.h"
#include "ui/state/ui_state.h"
#include "test_tmp.h"

static const char step_text[] = "# Lesson %c\n\n## One\n\nText.\n\n```mha\nstage: input\n```\n\n"
                                "---\n\n## Two\n\nMore.\n\n```mha\nstage: projection\n```\n";

static char dir[512], lessons[768], state[768];
static struct ui_state st;
static struct ui_lessons ls;

static void write_lesson(int n)
{
    char path[2048], text[512];
    snprintf(path, sizeof path, "%s/0%d-l%d.md", lessons, n, n);
    snprintf(text, sizeof text, step_text, 'A' + n - 1);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
}

static void start(void)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    char warning[600];
    ui_lessons_init(&ls, lessons, MHA_SOURCE_ROOT "/assets", warning, (int)sizeof warning);
}

static void stop(void)
{
    ui_lessons_done(&ls);
    ui_state_done(&st);
}

static void setup(void)
{
    test_tmp_template(dir, sizeof dir, "mha-ui-list");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(lessons, sizeof lessons, "%s/lessons", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    ck_assert_int_eq(mkdir(lessons, 0755), 0);
    for (int i = 1; i <= 3; i++)
        write_lesson(i);
    setenv("XDG_STATE_HOME", state, 1);
    start();
}

static void teardown(void)
{
    stop();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    ck_assert_int_eq(system(cmd), 0);
}

/* A title with an escape sequence and a right-to-left override is listed
 * with both written out, so drawing the list cannot steer the terminal. */
START_TEST(test_titles_escaped)
{
    char path[2048];
    snprintf(path, sizeof path, "%s/04-bad.md", lessons);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs("# Red \x1b[31mtitle\xe2\x80\xae here\n\n## One\n\nText.\n\n```mha\nstage: input\n```\n",
          f);
    fclose(f);
    stop();
    start();
    ui_lesson_menu_open(&ls, &st);
    ck_assert_int_eq(ls.n_list, 4);
    const char *title = ls.list[3].title;
    ck_assert_ptr_null(strchr(title, 0x1b));
    ck_assert_ptr_null(strstr(title, "\xe2\x80\xae"));
    ck_assert_str_eq(title, "Red <U+001B>[31mtitle<U+202E> here");
}
END_TEST

static void marks(int i, char *seen)
{
    char quiz[32];
    ui_lesson_entry_marks(&ls, &ls.list[i], seen, 32, quiz, sizeof quiz);
}

START_TEST(test_seen_counts_and_next_unread)
{
    ui_lesson_menu_open(&ls, &st);
    ck_assert_int_eq(ls.n_list, 3);
    char seen[32];
    marks(0, seen);
    ck_assert_str_eq(seen, "0/2"); /* not the step count alone */
    ck_assert_int_eq(ls.menu_sel, 0);
    /* read lesson 1 to the end, and lesson 2 half */
    ui_lesson_menu_key(&ls, &st, '\r', true);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
    ui_lesson_close(&ls, &st);
    ui_lesson_menu_open(&ls, &st);
    marks(0, seen);
    ck_assert_str_eq(seen, "2/2 ✓");
    ck_assert_int_eq(ls.menu_sel, 1); /* the next lesson not read to the end */
    ui_lesson_menu_key(&ls, &st, '\r', true);
    ui_lesson_close(&ls, &st);
    stop();
    start();
    ui_lesson_menu_open(&ls, &st);
    marks(1, seen);
    ck_assert_str_eq(seen, "1/2");
    ck_assert_int_eq(ls.menu_sel, 1);
}
END_TEST

START_TEST(test_restart_and_reset)
{
    ui_lesson_menu_open(&ls, &st);
    ui_lesson_menu_key(&ls, &st, '\r', true);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
    ck_assert_int_eq(ls.step, 1);
    /* r on lesson 1: its progress is forgotten and it opens on step 1 */
    ui_lesson_menu_open(&ls, &st);
    ck_assert_int_eq(ls.menu_sel, 0); /* the open lesson */
    ui_lesson_menu_key(&ls, &st, 'r', true);
    ck_assert(!ls.menu_open);
    ck_assert_ptr_nonnull(ls.l);
    ck_assert_int_eq(ls.step, 0);
    ck_assert_int_eq(progress_seen_count(ls.progress, "01-l1.md"), 1);
    ck_assert_ptr_nonnull(strstr(st.msg, "starts again"));
    /* R once only asks; another key keeps everything; R twice forgets */
    ui_lesson_menu_open(&ls, &st);
    ui_lesson_menu_key(&ls, &st, 'R', true);
    ck_assert_ptr_nonnull(strstr(st.msg, "Press R again"));
    ui_lesson_menu_key(&ls, &st, KEY_DOWN, false);
    ui_lesson_menu_key(&ls, &st, 'R', true);
    ck_assert_int_eq(progress_seen_count(ls.progress, "01-l1.md"), 1);
    ui_lesson_menu_key(&ls, &st, 'R', true);
    ck_assert_int_eq(progress_seen_count(ls.progress, "01-l1.md"), 0);
    ck_assert_ptr_nonnull(strstr(st.msg, "forgotten"));
    /* and it is saved */
    ui_lesson_close(&ls, &st);
    stop();
    start();
    ck_assert_int_eq(progress_seen_count(ls.progress, "01-l1.md"), 0);
}
END_TEST

/* The next step's scene puts back what the reader changed: the status line
 * says so (and says nothing when they changed nothing). */
START_TEST(test_undone_change_is_said)
{
    ui_lesson_menu_open(&ls, &st);
    ui_lesson_menu_key(&ls, &st, '\r', true);
    ck_assert_int_eq(ls.step, 0);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
    ck_assert_ptr_null(strstr(st.msg, "you had"));
    ck_assert_int_eq(ui_lesson_prev(&ls, &st), 1);
    ck_assert_int_eq(ui_state_set_heads(&st, 3), 0);
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    ck_assert_int_eq(ui_lesson_next(&ls, &st), 1);
    ck_assert_int_eq(st.ex->heads, 2);
    ck_assert_ptr_nonnull(strstr(st.msg, "Step 2's scene set heads 2 (you had 3)"));
    ck_assert_ptr_nonnull(strstr(st.msg, "causal mask off (you had on)"));
}
END_TEST

/* c on a cross-attention example says what the mask means there. */
START_TEST(test_causal_on_cross_attention)
{
    ck_assert_int_eq(ui_state_load(&st, MHA_SOURCE_ROOT "/assets/examples/translate.json"), 0);
    ck_assert(st.ex->cross);
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    ck_assert_ptr_nonnull(strstr(st.msg, "other sequence"));
    ck_assert_ptr_null(strstr(st.msg, "the tokens before it"));
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    ck_assert_ptr_nonnull(strstr(st.msg, "every key of the other sequence"));
}
END_TEST

START_TEST(test_progress_reset)
{
    struct progress *p = ls.progress;
    progress_mark_seen(p, "a.md", 0);
    progress_mark_seen(p, "b.md", 2);
    progress_set_quiz(p, "a.md", 0, true);
    progress_reset(p, "a.md");
    ck_assert_int_eq(progress_seen_count(p, "a.md"), 0);
    ck_assert_int_eq(progress_quiz(p, "a.md", 0), -1);
    ck_assert_int_eq(progress_seen_count(p, "b.md"), 1);
    progress_reset(p, NULL);
    ck_assert_int_eq(progress_seen_count(p, "b.md"), 0);
    progress_reset(p, "never-seen.md"); /* nothing to forget: no harm */
}
END_TEST

static Suite *list_suite(void)
{
    Suite *s = suite_create("ui_lesson_list");
    TCase *t = tcase_create("list");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_titles_escaped);
    tcase_add_test(t, test_seen_counts_and_next_unread);
    tcase_add_test(t, test_restart_and_reset);
    tcase_add_test(t, test_progress_reset);
    tcase_add_test(t, test_undone_change_is_said);
    tcase_add_test(t, test_causal_on_cross_attention);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(list_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
