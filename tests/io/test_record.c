/* test_record.c - recordings (round trip, every malformed line reported with
 * its number, nothing half-read) and the :link command line builder. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/link.h"
#include "io/record.h"
#include "test_tmp.h"

START_TEST(round_trip_every_kind_of_key)
{
    static const int keys[] = {'l',
                               '+',
                               ':',
                               'Q',
                               '#',
                               ' ',
                               0x732B /* 猫 */,
                               3 /* ctrl-c */,
                               REC_KEY_ENTER,
                               REC_KEY_TAB,
                               REC_KEY_BACKSPACE,
                               REC_KEY_ESCAPE,
                               REC_KEY_LEFT,
                               REC_KEY_RIGHT,
                               REC_KEY_UP,
                               REC_KEY_DOWN,
                               REC_KEY_PAGEUP,
                               REC_KEY_PAGEDOWN,
                               REC_KEY_HOME,
                               REC_KEY_END,
                               REC_KEY_DELETE,
                               REC_KEY_RESIZE,
                               REC_KEY_BACKTAB,
                               REC_KEY_F1};
    const int n = (int)(sizeof keys / sizeof keys[0]);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ck_assert_int_eq(rec_write_header(mem), 0);
    for (int i = 0; i < n; i++)
        ck_assert_int_eq(rec_write_event(mem, 0.25 * i, keys[i]), 0);
    fclose(mem);
    struct recording r;
    struct mha_error err;
    ck_assert_msg(rec_parse(buf, "mem", &r, &err) == 0, "%s", err.text);
    ck_assert_int_eq(r.n, n);
    for (int i = 0; i < n; i++) {
        ck_assert_int_eq(r.events[i].key, keys[i]);
        ck_assert_double_eq_tol(r.events[i].t, 0.25 * i, 1e-9);
    }
    rec_free(&r);
    free(buf);
}
END_TEST

START_TEST(names_are_readable)
{
    char b[16];
    ck_assert_str_eq(rec_key_name(REC_KEY_LEFT, b), "left");
    ck_assert_str_eq(rec_key_name(' ', b), "space");
    ck_assert_str_eq(rec_key_name(3, b), "ctrl-c");
    ck_assert_str_eq(rec_key_name('x', b), "x");
    ck_assert_str_eq(rec_key_name(0xE9, b), "U+00E9");
    ck_assert_int_eq(rec_key_from_name("pagedown"), REC_KEY_PAGEDOWN);
    ck_assert_int_eq(rec_key_from_name("U+D800"), -1);
    ck_assert_int_eq(rec_key_from_name("bogus"), -1);
}
END_TEST

struct bad {
    const char *text;
    int line;
    const char *want;
};

static const struct bad bad_cases[] = {
    {"", 1, "empty"},
    {"hello\n0 l\n", 1, "not a recording"},
    {"mha-explorer-recording 1\n0.0 l\nsoon right\n", 3, "expected \"<seconds> <key>\""},
    {"mha-explorer-recording 1\n1.0 l\n0.5 h\n", 3, "goes backwards"},
    {"mha-explorer-recording 1\n0.0 leftish\n", 2, "unknown key \"leftish\""},
    {"mha-explorer-recording 1\n# fine\n\n0.0 l h\n", 4, "one key per line"},
    {"mha-explorer-recording 1\n0.0\n", 2, "expected"},
    {"mha-explorer-recording 1\n99999999 l\n", 2, "beyond a day"},
    {"mha-explorer-recording 1\nnan l\n", 2, "expected"},
    {"mha-explorer-recording 1\r\n0.5 l\r\n0.25 h\r", 3, "goes backwards"},
    {"\r", 1, "empty"},
};

START_TEST(malformed_lines_are_reported_and_nothing_is_kept)
{
    const struct bad *c = &bad_cases[_i];
    struct recording r = {.events = (struct rec_event *)1, .n = 99};
    struct mha_error err;
    ck_assert_int_ne(rec_parse(c->text, "demo.rec", &r, &err), 0);
    ck_assert_ptr_null(r.events);
    ck_assert_int_eq(r.n, 0);
    ck_assert_str_eq(err.file, "demo.rec");
    ck_assert_int_eq(err.line, c->line);
    ck_assert_msg(strstr(err.text, c->want) != NULL, "'%s' lacks '%s'", err.text, c->want);
}
END_TEST

START_TEST(load_reports_missing_and_binary_files)
{
    struct recording r;
    struct mha_error err;
    ck_assert_int_ne(rec_load("/nonexistent/x.rec", &r, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot open"));
    char path[256];
    test_tmp_template(path, sizeof path, "mha-rec");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "mha-explorer-recording 1\n0 l\0\n", 31), 31);
    close(fd);
    ck_assert_int_ne(rec_load(path, &r, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "NUL"));
    remove(path);
}
END_TEST

START_TEST(shell_quoting)
{
    char *q = link_shell_quote("plain-word_1.json");
    ck_assert_str_eq(q, "plain-word_1.json");
    free(q);
    q = link_shell_quote("The cat's mat");
    ck_assert_str_eq(q, "'The cat'\\''s mat'");
    free(q);
    q = link_shell_quote("");
    ck_assert_str_eq(q, "''");
    free(q);
    q = link_shell_quote("$(rm -rf /)");
    ck_assert_str_eq(q, "'$(rm -rf /)'");
    free(q);
}
END_TEST

START_TEST(link_leaves_defaults_out)
{
    char *toks[] = {"tok 0", "tok 1", "tok 2", "tok 3"};
    struct link_state s = {
        .tokens = toks, .n_tokens = 4, .d_model = 6, .seed = 42, .heads = 2, .scaled = true};
    char *c = link_command(&s);
    ck_assert_str_eq(c, "mha-explorer");
    free(c);
    char *mine[] = {"The", "cat's", "mat"};
    struct link_state t = {.tokens = mine,
                           .n_tokens = 3,
                           .d_model = 8,
                           .seed = 7,
                           .heads = 4,
                           .causal = true,
                           .scaled = false,
                           .stage = 4,
                           .focus = "weights, head 1, row 2, col 0"};
    c = link_command(&t);
    ck_assert_str_eq(c, "mha-explorer --tokens 'The cat'\\''s mat' "
                        "--d-model 8 --seed 7 --heads 4 --causal --no-scale --stage attention "
                        "--focus 'weights, head 1, row 2, col 0'");
    free(c);
    /* a lesson's step shows its scene's stage: no --stage, which --lesson refuses */
    s.lesson = "13";
    s.lesson_step = 2;
    s.stage = 4;
    c = link_command(&s);
    ck_assert_str_eq(c, "mha-explorer --lesson 13 --step 3");
    free(c); /* a model's top-p w draws at, when it is not 1 */
    char *words[] = {"the", "cat"};
    struct link_state m = {
        .load = "m.json", .model = true, .tokens = words, .n_tokens = 2, .top_p = 0.9};
    c = link_command(&m);
    ck_assert_str_eq(c, "mha-explorer --load m.json --tokens 'the cat' --top-p 0.9");
    free(c);
    m.top_p = 1.0;
    c = link_command(&m);
    ck_assert_str_eq(c, "mha-explorer --load m.json --tokens 'the cat'");
    free(c);
}
END_TEST

static Suite *record_suite(void)
{
    Suite *s = suite_create("record");
    TCase *tc = tcase_create("recordings");
    tcase_add_test(tc, round_trip_every_kind_of_key);
    tcase_add_test(tc, names_are_readable);
    tcase_add_loop_test(tc, malformed_lines_are_reported_and_nothing_is_kept, 0,
                        (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_test(tc, load_reports_missing_and_binary_files);
    suite_add_tcase(s, tc);
    tc = tcase_create("link");
    tcase_add_test(tc, shell_quoting);
    tcase_add_test(tc, link_leaves_defaults_out);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(record_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
