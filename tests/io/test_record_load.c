/* test_record_load.c - reading a recording file stops at its first bad
 * line, wherever it is: a bad line early in a file past the size cap is
 * named (not the cap), a NUL byte is reported with its line, a file whose
 * lines are all good up to the cap is stopped at the line the cap cut, and
 * a torn last line of a small recording is still left out with a warning.
 * Mouse events (a click, the wheel) round-trip with where they happened,
 * and a malformed one is named by its line. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/record.h"
#include "test_tmp.h"

static char path[512];

/* A file of head followed by filler lines (each "line\n") until it holds
 * more than bytes. */
static const char *write_file(const char *head, const char *line, size_t bytes)
{
    test_tmp_template(path, sizeof path, "mha-rec-load");
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "w");
    ck_assert_ptr_nonnull(f);
    fputs(head, f);
    size_t n = strlen(head);
    while (line && n <= bytes) {
        fputs(line, f);
        n += strlen(line);
    }
    ck_assert_int_eq(fclose(f), 0);
    return path;
}

static void expect_error(const char *file, const char *want)
{
    struct recording r;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_ne(rec_load(file, &r, &err), 0);
    char buf[1200];
    mha_error_format(&err, buf, sizeof buf);
    ck_assert_msg(strstr(buf, want) != NULL, "'%s' lacks '%s'", buf, want);
    ck_assert_int_eq(r.n, 0);
    ck_assert_ptr_null(r.events);
    unlink(file);
}

START_TEST(bad_line_before_the_cap_is_named)
{
    /* 9 MiB: a bad third line, then good keys past the cap */
    const char *f = write_file("mha-explorer-recording 2\n0.000 right\nnot an event\n", "0.100 l\n",
                               (size_t)9 << 20);
    char want[2048];
    snprintf(want, sizeof want, "%s:3: expected \"<seconds> <key>\", got \"not an event\"", f);
    expect_error(f, want);
    /* a bad line far in, still before the cap */
    char head[64 * 1024] = "mha-explorer-recording 1\n";
    for (int i = 0; i < 5000; i++)
        strcat(head, "0.1 l\n");
    strcat(head, "0.2 nosuchkey\n");
    f = write_file(head, "# a comment\n", (size_t)9 << 20);
    snprintf(want, sizeof want, "%s:5002: unknown key \"nosuchkey\"", f);
    expect_error(f, want);
}
END_TEST

START_TEST(good_lines_up_to_the_cap)
{
    /* comments are fine but the file goes on past the cap: the line cut is named */
    const char *f =
        write_file("mha-explorer-recording 1\n0.5 l\n", "# padding padding\n", (size_t)9 << 20);
    const size_t per = strlen("# padding padding\n");
    const size_t head = strlen("mha-explorer-recording 1\n0.5 l\n");
    const int line = 3 + (int)((REC_MAX_BYTES - head) / per); /* the line the cap falls in */
    char want[2048];
    snprintf(want, sizeof want, "%s:%d: the recording goes on past 8388608 bytes here", f, line);
    expect_error(f, want);
    /* not a recording at all, and big */
    f = write_file("", "lorem ipsum dolor sit amet\n", (size_t)9 << 20);
    snprintf(want, sizeof want, "%s:1: not a recording", f);
    expect_error(f, want);
}
END_TEST

START_TEST(nul_byte_is_named_by_its_line)
{
    test_tmp_template(path, sizeof path, "mha-rec-load");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "mha-explorer-recording 1\n0 l\n0 r\0\n0 l\n", 37), 37);
    close(fd);
    char want[2048];
    snprintf(want, sizeof want, "%s:3: the line holds a NUL byte", path);
    expect_error(path, want);
    /* a bad line before the NUL comes first */
    fd = mkstemp(test_tmp_template(path, sizeof path, "mha-rec-load"));
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "mha-explorer-recording 1\n0 zz\n0 r\0\n", 34), 34);
    close(fd);
    snprintf(want, sizeof want, "%s:2: unknown key \"zz\"", path);
    expect_error(path, want);
    /* binary from the first line */
    fd = mkstemp(test_tmp_template(path, sizeof path, "mha-rec-load"));
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd,
                           "\x7f"
                           "ELF\0\0\n",
                           7),
                     7);
    close(fd);
    snprintf(want, sizeof want, "%s:1: not a recording", path);
    expect_error(path, want);
}
END_TEST

START_TEST(torn_last_line_still_kept_out)
{
    const char *f = write_file("mha-explorer-recording 2\n0.000 l\n0.500 r\n0.7", NULL, 0);
    struct recording r;
    struct mha_error err;
    ck_assert_int_eq(rec_load(f, &r, &err), 0);
    ck_assert_int_eq(r.n, 2);
    ck_assert_ptr_nonnull(strstr(r.warning, ":4: the last line is cut short"));
    rec_free(&r);
    unlink(f);
}
END_TEST

START_TEST(mouse_events_round_trip)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ck_assert_int_eq(rec_write_start(mem, NULL), 0);
    ck_assert_int_eq(rec_write_event(mem, 0.25, 'l'), 0);
    ck_assert_int_eq(rec_write_mouse(mem, 0.5, REC_KEY_CLICK, 12, 40), 0);
    ck_assert_int_eq(rec_write_mouse(mem, 0.75, REC_KEY_WHEEL_UP, 0, 0), 0);
    ck_assert_int_eq(rec_write_mouse(mem, 1.0, REC_KEY_WHEEL_DOWN, 9999, 3), 0);
    fclose(mem);
    ck_assert_ptr_nonnull(strstr(buf, "\n0.500 click 12 40\n0.750 wheel-up 0 0\n"));
    struct recording r;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_msg(rec_parse(buf, "mem", &r, &err) == 0, "%s", err.text);
    ck_assert_int_eq(r.n, 4);
    ck_assert_int_eq(r.events[0].key, 'l');
    ck_assert_int_eq(r.events[1].key, REC_KEY_CLICK);
    ck_assert_int_eq(r.events[1].y, 12);
    ck_assert_int_eq(r.events[1].x, 40);
    ck_assert_int_eq(r.events[2].key, REC_KEY_WHEEL_UP);
    ck_assert_int_eq(r.events[3].key, REC_KEY_WHEEL_DOWN);
    ck_assert_int_eq(r.events[3].y, 9999);
    ck_assert_int_eq(r.events[3].x, 3);
    rec_free(&r);
    free(buf);
}
END_TEST

static const struct {
    const char *line;
    const char *want;
} bad_mouse[] = {
    {"1.0 click", "mem:3: \"click\" needs the screen row and column it happened at"},
    {"1.0 click 4", "mem:3: \"click\" needs the screen row and column"},
    {"1.0 click 4 5 6", "mem:3: \"click\" needs the screen row and column"},
    {"1.0 click -1 5", "mem:3: \"click\" needs the screen row and column"},
    {"1.0 wheel-up 10000 5", "mem:3: \"wheel-up\" needs the screen row and column"},
    {"1.0 wheel-down x y", "mem:3: \"wheel-down\" needs the screen row and column"},
    {"1.0 l 4 5", "mem:3: one key per line"},
};

START_TEST(malformed_mouse_lines)
{
    char text[2048];
    snprintf(text, sizeof text, "mha-explorer-recording 2\n0.5 l\n%s\n2.0 r\n", bad_mouse[_i].line);
    struct recording r;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_ne(rec_parse(text, "mem", &r, &err), 0);
    char buf[600];
    mha_error_format(&err, buf, sizeof buf);
    ck_assert_msg(strstr(buf, bad_mouse[_i].want) != NULL, "'%s' lacks '%s'", buf,
                  bad_mouse[_i].want);
    ck_assert_int_eq(r.n, 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("record_load");
    TCase *tc = tcase_create("load");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bad_line_before_the_cap_is_named);
    tcase_add_test(tc, good_lines_up_to_the_cap);
    tcase_add_test(tc, nul_byte_is_named_by_its_line);
    tcase_add_test(tc, torn_last_line_still_kept_out);
    tcase_add_test(tc, mouse_events_round_trip);
    tcase_add_loop_test(tc, malformed_mouse_lines, 0,
                        (int)(sizeof bad_mouse / sizeof bad_mouse[0]));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
