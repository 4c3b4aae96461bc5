/* test_record_start.c - what a recording carries besides its keys (the
 * options and terminal size it started with), and recordings whose last
 * line was cut short by a full disk or a crash. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/record.h"

START_TEST(the_start_round_trips)
{
    static const char *const args[] = {"--tokens",
                                       "The cat sat",
                                       "--focus",
                                       "two\nlines",
                                       "back\\slash",
                                       "\x01"
                                       "bell\a",
                                       "猫 が",
                                       "",
                                       "--present"};
    const int n_args = (int)(sizeof args / sizeof args[0]);
    struct rec_start start = {0};
    for (int i = 0; i < n_args; i++)
        ck_assert_int_eq(rec_start_add(&start, args[i]), 0);
    start.rows = 40;
    start.cols = 120;
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ck_assert_int_eq(rec_write_start(mem, &start), 0);
    ck_assert_int_eq(rec_write_event(mem, 0.5, REC_KEY_RIGHT), 0);
    ck_assert_int_eq(rec_write_event(mem, 1.25, 'q'), 0);
    fclose(mem);
    rec_start_free(&start);
    ck_assert_ptr_nonnull(strstr(buf, "mha-explorer-recording 2\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\nsize 120x40\n"));
    ck_assert_ptr_nonnull(strstr(buf, "\narg two\\nlines\n")); /* one line per argument */

    struct recording r;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_msg(rec_parse(buf, "mem", &r, &err) == 0, "%s", err.text);
    ck_assert_int_eq(r.version, 2);
    ck_assert_int_eq(r.start.rows, 40);
    ck_assert_int_eq(r.start.cols, 120);
    ck_assert_int_eq(r.start.n_args, n_args);
    for (int i = 0; i < n_args; i++)
        ck_assert_str_eq(r.start.args[i], args[i]);
    ck_assert_int_eq(r.n, 2);
    ck_assert_int_eq(r.events[1].key, 'q');
    ck_assert_str_eq(r.warning, "");
    rec_free(&r);
    free(buf);
}
END_TEST

START_TEST(a_version_1_recording_has_no_start)
{
    struct recording r;
    struct mha_error err;
    ck_assert_int_eq(rec_parse("mha-explorer-recording 1\n0.5 right\n", "old.rec", &r, &err), 0);
    ck_assert_int_eq(r.version, 1);
    ck_assert_int_eq(r.start.n_args, 0);
    ck_assert_int_eq(r.start.rows, 0);
    ck_assert_int_eq(r.n, 1);
    rec_free(&r);
    /* start lines mean nothing in version 1 */
    ck_assert_int_ne(rec_parse("mha-explorer-recording 1\nsize 80x24\n", "old.rec", &r, &err), 0);
    ck_assert_int_eq(err.line, 2);
}
END_TEST

struct torn {
    const char *text;
    int keys, line;
};

static const struct torn torn_cases[] = {
    /* cut inside a key's name, inside its time, after the space */
    {"mha-explorer-recording 2\n0.100 right\n0.200 pagedo", 1, 3},
    {"mha-explorer-recording 2\n0.100 right\n0.250 left\n1.2", 2, 4},
    {"mha-explorer-recording 2\nsize 80x24\narg --lesson\narg 7\n0.100 right\n0.300 ", 1, 6},
    /* a cut that still reads as a key ("p" of "pageup") is left out too */
    {"mha-explorer-recording 2\n0.100 right\n0.200 p", 1, 3},
    /* cut among the start lines: no keys at all */
    {"mha-explorer-recording 2\nsize 80x24\narg --les", 0, 3},
};

START_TEST(a_torn_last_line_is_left_out)
{
    const struct torn *c = &torn_cases[_i];
    struct recording r;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_msg(rec_parse(c->text, "demo.rec", &r, &err) == 0, "%s", err.text);
    ck_assert_int_eq(r.n, c->keys);
    char want[64];
    snprintf(want, sizeof want, "demo.rec:%d: the last line is cut short", c->line);
    ck_assert_msg(strstr(r.warning, want) != NULL, "'%s' lacks '%s'", r.warning, want);
    rec_free(&r);
}
END_TEST

START_TEST(only_the_last_line_may_be_torn)
{
    struct recording r;
    struct mha_error err;
    /* a bad line before the end is still an error */
    ck_assert_int_ne(
        rec_parse("mha-explorer-recording 2\n0.100 rig\n0.200 right\n0.3 le", "demo.rec", &r, &err),
        0);
    ck_assert_int_eq(err.line, 2);
    /* version 1 is read as before: a malformed last line is an error */
    ck_assert_int_ne(
        rec_parse("mha-explorer-recording 1\n0.100 right\n0.200 ri", "v1.rec", &r, &err), 0);
    ck_assert_int_eq(err.line, 3);
    /* a first line cut short is not a recording */
    ck_assert_int_ne(rec_parse("mha-explorer-recor", "demo.rec", &r, &err), 0);
    ck_assert_ptr_null(r.events);
}
END_TEST

static const struct {
    const char *text;
    int line;
    const char *want;
} bad_start[] = {
    {"mha-explorer-recording 2\nsize 120\n", 2, "expected \"size COLUMNSxROWS\""},
    {"mha-explorer-recording 2\nsize 0x40\n", 2, "expected \"size COLUMNSxROWS\""},
    {"mha-explorer-recording 2\nsize 120x40x2\n", 2, "expected \"size COLUMNSxROWS\""},
    {"mha-explorer-recording 2\narg --lesson\narg a\\qb\n", 3, "a malformed argument"},
    {"mha-explorer-recording 2\narg \\x00\n", 2, "a malformed argument"},
    {"mha-explorer-recording 2\n0.5 right\nsize 80x24\n", 3, "expected \"<seconds> <key>\""},
};

START_TEST(a_malformed_start_is_reported)
{
    struct recording r;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_ne(rec_parse(bad_start[_i].text, "demo.rec", &r, &err), 0);
    ck_assert_ptr_null(r.events);
    ck_assert_int_eq(r.start.n_args, 0);
    ck_assert_str_eq(err.file, "demo.rec");
    ck_assert_int_eq(err.line, bad_start[_i].line);
    ck_assert_msg(strstr(err.text, bad_start[_i].want) != NULL, "'%s' lacks '%s'", err.text,
                  bad_start[_i].want);
}
END_TEST

START_TEST(too_many_arguments_are_refused)
{
    struct rec_start s = {0};
    for (int i = 0; i < REC_MAX_START_ARGS; i++)
        ck_assert_int_eq(rec_start_add(&s, "--causal"), 0);
    ck_assert_int_ne(rec_start_add(&s, "--causal"), 0);
    rec_start_free(&s);
    ck_assert_int_eq(s.n_args, 0);
}
END_TEST

static Suite *record_start_suite(void)
{
    Suite *s = suite_create("record_start");
    TCase *tc = tcase_create("start");
    tcase_add_test(tc, the_start_round_trips);
    tcase_add_test(tc, a_version_1_recording_has_no_start);
    tcase_add_loop_test(tc, a_malformed_start_is_reported, 0,
                        (int)(sizeof bad_start / sizeof bad_start[0]));
    tcase_add_test(tc, too_many_arguments_are_refused);
    suite_add_tcase(s, tc);
    tc = tcase_create("torn");
    tcase_add_loop_test(tc, a_torn_last_line_is_left_out, 0,
                        (int)(sizeof torn_cases / sizeof torn_cases[0]));
    tcase_add_test(tc, only_the_last_line_may_be_torn);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(record_start_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
