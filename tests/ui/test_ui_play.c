/* test_ui_play.c - what plays by itself, without a terminal: autoplay goes
 * round the stages, through a lesson's steps (a checkpoint shows its answer
 * one interval, recording nothing, then the next step) and stops after the
 * last; its timer and pauses; a replay's clock with its speed and pauses;
 * the status text; and the keys of a recording against curses' key codes. */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mha_config.h"
#include "ui/state/ui_play.h"
#include "test_tmp.h"

static const char lesson_text[] = "# Autoplay\n"
                                  "\n"
                                  "## One\n"
                                  "\n"
                                  "The first step.\n"
                                  "\n"
                                  "```mha\n"
                                  "stage: projection\n"
                                  "```\n"
                                  "\n"
                                  "---\n"
                                  "\n"
                                  "## Two\n"
                                  "\n"
                                  "```mha\n"
                                  "stage: split\n"
                                  "heads: 3\n"
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
                                  "## Three\n"
                                  "\n"
                                  "```mha\n"
                                  "stage: attention\n"
                                  "```\n";

static char dir[512], path[1024];
static struct ui_state st;
static struct ui_lessons ls;

static void setup(void)
{
    test_tmp_template(dir, sizeof dir, "mha-ui-play");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char lessons[768], state[768];
    snprintf(lessons, sizeof lessons, "%s/lessons", dir);
    snprintf(state, sizeof state, "%s/state", dir);
    ck_assert_int_eq(mkdir(lessons, 0755), 0);
    snprintf(path, sizeof path, "%s/01-autoplay.md", lessons);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(lesson_text, f);
    fclose(f);
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

/* ------------------------------------------------------------ TCase autoplay */

START_TEST(test_moves)
{
    /* no lesson: the stages */
    ck_assert_int_eq(ui_autoplay_next(false, true, true, true), UI_MOVE_STAGE);
    /* a lesson: the rest of the text, the checkpoint's answer, the next step, the end */
    ck_assert_int_eq(ui_autoplay_next(true, true, true, false), UI_MOVE_SCROLL);
    ck_assert_int_eq(ui_autoplay_next(true, false, true, false), UI_MOVE_REVEAL);
    ck_assert_int_eq(ui_autoplay_next(true, false, true, true), UI_MOVE_REVEAL);
    ck_assert_int_eq(ui_autoplay_next(true, false, false, false), UI_MOVE_STEP);
    ck_assert_int_eq(ui_autoplay_next(true, false, false, true), UI_MOVE_END);
}
END_TEST

START_TEST(test_stages_go_round_on_the_timer)
{
    struct ui_autoplay a = {.interval = 2.0};
    ui_autoplay_start(&a, 100.0);
    ck_assert(a.on);
    ck_assert_double_eq(a.due, 102.0);
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 101.9), UI_MOVE_WAIT);
    ck_assert_int_eq(st.stage, 0);
    for (int i = 1; i <= 8; i++) {
        ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 100.0 + 2.0 * i), UI_MOVE_STAGE);
        ck_assert_int_eq(st.stage, i % MHA_STAGE_COUNT); /* 6, then round to 0 */
        ck_assert_double_eq(a.due, 102.0 + 2.0 * i);
    }
    /* from a view, the stages again */
    ui_state_set_view(&st, MHA_VIEW_COST);
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 200.0), UI_MOVE_STAGE);
    ck_assert_int_eq(st.view, MHA_VIEW_NONE);
    /* a key pauses it: nothing moves, and the status says so */
    ui_autoplay_stop(&a, true);
    ck_assert(!a.on && a.paused);
    const int stage = st.stage;
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 1000.0), UI_MOVE_WAIT);
    ck_assert_int_eq(st.stage, stage);
    /* a plays on: one interval from then */
    ui_autoplay_start(&a, 1000.0);
    ck_assert(a.on && !a.paused);
    ck_assert_double_eq(a.due, 1002.0);
    /* a stops it: off, not paused */
    ui_autoplay_stop(&a, false);
    ck_assert(!a.on && !a.paused);
    /* no interval given: the default */
    struct ui_autoplay d = {0};
    ui_autoplay_start(&d, 0.0);
    ck_assert_double_eq(d.interval, UI_AUTOPLAY_DEFAULT);
}
END_TEST

START_TEST(test_lesson_steps_and_a_checkpoint)
{
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    struct ui_autoplay a = {.interval = 1.0};
    ui_autoplay_start(&a, 0.0);
    /* text below the pane: the rest of the step first (the caller scrolls) */
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, true, 1.0), UI_MOVE_SCROLL);
    ck_assert_int_eq(ls.step, 0);
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 2.0), UI_MOVE_STEP);
    ck_assert_int_eq(ls.step, 1);
    ck_assert_int_eq(st.stage, MHA_STAGE_SPLIT);
    ck_assert(ui_quiz_asking(&ls.quiz));
    /* one interval later the checkpoint shows its answer, answered by no one */
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 3.0), UI_MOVE_REVEAL);
    ck_assert(!ui_quiz_asking(&ls.quiz));
    ck_assert(ls.quiz.revealed);
    ck_assert(!ls.quiz.right);
    ck_assert_str_eq(ls.quiz.answer, "2");
    ck_assert_int_eq(progress_quiz(ls.progress, ls.id, 1), -1); /* nothing recorded */
    /* then it moves on */
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 4.0), UI_MOVE_STEP);
    ck_assert_int_eq(ls.step, 2);
    ck_assert_int_eq(st.stage, MHA_STAGE_ATTENTION);
    ck_assert_int_eq(st.ex->heads, 3); /* the scenes so far: heads 3 stays */
    /* the last step shows for an interval, then autoplay stops and says so */
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 5.0), UI_MOVE_END);
    ck_assert(!a.on && !a.paused);
    ck_assert_int_eq(ls.step, 2);
    ck_assert_ptr_nonnull(strstr(st.msg, "last step"));
    ck_assert_int_eq(ui_autoplay_tick(&a, &ls, &st, false, 6.0), UI_MOVE_WAIT);
}
END_TEST

/* ------------------------------------------------------------ TCase replay */

START_TEST(test_replay_clock)
{
    struct rec_event ev[] = {{0.0, 'l', 0, 0}, {1.0, REC_KEY_RIGHT, 0, 0}, {3.0, '+', 0, 0}};
    struct recording rec = {.events = ev, .n = 3};
    struct ui_replay r;
    struct ui_autoplay off = {0};
    ui_replay_start(&r, &rec, "demo.rec", 2.0, 10.0);
    ck_assert(r.active);
    ck_assert_str_eq(r.name, "demo.rec");
    int key;
    ck_assert(ui_replay_due(&r, 10.0, &key));
    ck_assert_int_eq(key, 'l');
    ck_assert(!ui_replay_due(&r, 10.4, &key));
    ck_assert_int_eq(ui_play_wait_ms(&off, &r, 10.4, 250), 100); /* 1 s at speed 2 */
    ck_assert_int_eq(ui_play_wait_ms(&off, &r, 9.0, 250), 250);  /* at most the cap */
    ck_assert(ui_replay_due(&r, 10.5, &key));
    ck_assert_int_eq(key, REC_KEY_RIGHT);
    /* paused for 5 s: the last key comes 5 s later than it would have */
    ui_replay_toggle(&r, 11.0);
    ck_assert(r.paused);
    ck_assert(!ui_replay_due(&r, 100.0, &key));
    ck_assert_int_eq(ui_play_wait_ms(&off, &r, 11.0, 250), 250);
    char status[64];
    ui_play_status_text(&off, &r, status, sizeof status);
    ck_assert_str_eq(status, "replay paused");
    ui_replay_toggle(&r, 16.0);
    ck_assert(!ui_replay_due(&r, 16.4, &key));
    ui_play_status_text(&off, &r, status, sizeof status);
    ck_assert_str_eq(status, "replay 2/3");
    ck_assert(ui_replay_due(&r, 16.5, &key));
    ck_assert_int_eq(key, '+');
    ck_assert(ui_replay_finished(&r));
    ck_assert(!ui_replay_due(&r, 99.0, &key));
    /* stopped: nothing more, nothing in the status */
    ui_replay_start(&r, &rec, "demo.rec", 1.0, 0.0);
    ui_replay_stop(&r);
    ck_assert(!ui_replay_due(&r, 50.0, &key));
    ui_play_status_text(&off, &r, status, sizeof status);
    ck_assert_str_eq(status, "");
}
END_TEST

START_TEST(test_status_and_waits)
{
    struct ui_replay none = {0};
    struct ui_autoplay a = {.interval = 2.0};
    char status[64];
    ui_play_status_text(&a, &none, status, sizeof status);
    ck_assert_str_eq(status, "");
    ui_autoplay_start(&a, 0.0);
    ui_play_status_text(&a, &none, status, sizeof status);
    ck_assert_str_eq(status, "autoplay 2s");
    ck_assert_int_eq(ui_play_wait_ms(&a, &none, 1.5, 250), 250);
    ck_assert_int_eq(ui_play_wait_ms(&a, &none, 1.9, 250), 100);
    ck_assert_int_eq(ui_play_wait_ms(&a, &none, 2.5, 250), 0); /* overdue */
    a.interval = 0.5;
    ui_autoplay_start(&a, 0.0);
    ui_play_status_text(&a, &none, status, sizeof status);
    ck_assert_str_eq(status, "autoplay 0.5s");
    ui_autoplay_stop(&a, true);
    ui_play_status_text(&a, &none, status, sizeof status);
    ck_assert_str_eq(status, "paused");
    ck_assert_int_eq(ui_play_wait_ms(&a, &none, 0.4, 250), 250);
}
END_TEST

/* ------------------------------------------------------------ TCase keys */

START_TEST(test_keys_both_ways)
{
    static const struct {
        int key;
        bool is_char;
        int rec;
    } cases[] = {
        {'l', true, 'l'},
        {' ', true, ' '},
        {'#', true, '#'},
        {0x732B, true, 0x732B},
        {3, true, 3}, /* ctrl-c */
        {'\r', true, REC_KEY_ENTER},
        {'\t', true, REC_KEY_TAB},
        {27, true, REC_KEY_ESCAPE},
        {KEY_LEFT, false, REC_KEY_LEFT},
        {KEY_RIGHT, false, REC_KEY_RIGHT},
        {KEY_UP, false, REC_KEY_UP},
        {KEY_DOWN, false, REC_KEY_DOWN},
        {KEY_PPAGE, false, REC_KEY_PAGEUP},
        {KEY_NPAGE, false, REC_KEY_PAGEDOWN},
        {KEY_HOME, false, REC_KEY_HOME},
        {KEY_END, false, REC_KEY_END},
        {KEY_DC, false, REC_KEY_DELETE},
        {KEY_BACKSPACE, false, REC_KEY_BACKSPACE},
        {KEY_BTAB, false, REC_KEY_BACKTAB},
        {KEY_F(1), false, REC_KEY_F1},
        {KEY_RESIZE, false, REC_KEY_RESIZE},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_int_eq(ui_rec_from_curses(cases[i].key, cases[i].is_char), cases[i].rec);
        int key;
        bool is_char;
        ck_assert(ui_rec_to_curses(cases[i].rec, &key, &is_char));
        ck_assert_int_eq(key, cases[i].key);
        ck_assert(is_char == cases[i].is_char);
        /* and the name survives a recording */
        char name[16];
        ck_assert_int_eq(rec_key_from_name(rec_key_name(cases[i].rec, name)), cases[i].rec);
    }
    /* other spellings of the same keys */
    ck_assert_int_eq(ui_rec_from_curses('\n', true), REC_KEY_ENTER);
    ck_assert_int_eq(ui_rec_from_curses(KEY_ENTER, false), REC_KEY_ENTER);
    ck_assert_int_eq(ui_rec_from_curses(127, true), REC_KEY_BACKSPACE);
    ck_assert_int_eq(ui_rec_from_curses(8, true), REC_KEY_BACKSPACE);
    /* keys a recording has no name for */
    ck_assert_int_eq(ui_rec_from_curses(KEY_F(2), false), -1);
    ck_assert_int_eq(ui_rec_from_curses(KEY_MOUSE, false), -1);
    ck_assert_int_eq(ui_rec_from_curses(0, true), -1);
    int key;
    bool is_char;
    ck_assert(!ui_rec_to_curses(-5, &key, &is_char));
    ck_assert(!ui_rec_to_curses(0, &key, &is_char));
}
END_TEST

static Suite *play_suite(void)
{
    Suite *s = suite_create("ui_play");
    TCase *t = tcase_create("autoplay");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_moves);
    tcase_add_test(t, test_stages_go_round_on_the_timer);
    tcase_add_test(t, test_lesson_steps_and_a_checkpoint);
    suite_add_tcase(s, t);
    t = tcase_create("replay");
    tcase_add_test(t, test_replay_clock);
    tcase_add_test(t, test_status_and_waits);
    suite_add_tcase(s, t);
    t = tcase_create("keys");
    tcase_add_test(t, test_keys_both_ways);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(play_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
