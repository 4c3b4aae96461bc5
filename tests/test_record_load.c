/* test_record_load.c - reading a recording file stops at its first bad
 * line, wherever it is: a bad line early in a file past the size cap is
 * named (not the cap), a NUL byte is reported with its line, a file whose
 * lines are all good up to the cap is stopped at the line the cap cut, and
 * a torn last line of a small recording is still left out with a warning. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/record.h"

static char path[64];

/* A file of head followed by filler lines (each "line\n") until it holds
 * more than bytes. */
static const char *write_file(const char *head, const char *line, size_t bytes)
{
    snprintf(path, sizeof path, "/tmp/mha-rec-load-XXXXXX");
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
    const char *f = write_file("mha-explorer-recording 2\n0.000 right\nnot an event\n",
                               "0.100 l\n", (size_t)9 << 20);
    char want[128];
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
    const char *f = write_file("mha-explorer-recording 1\n0.5 l\n", "# padding padding\n",
                               (size_t)9 << 20);
    const size_t per = strlen("# padding padding\n");
    const size_t head = strlen("mha-explorer-recording 1\n0.5 l\n");
    const int line = 3 + (int)((REC_MAX_BYTES - head) / per); /* the line the cap falls in */
    char want[160];
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
    snprintf(path, sizeof path, "/tmp/mha-rec-load-XXXXXX");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "mha-explorer-recording 1\n0 l\n0 r\0\n0 l\n", 37), 37);
    close(fd);
    char want[128];
    snprintf(want, sizeof want, "%s:3: the line holds a NUL byte", path);
    expect_error(path, want);
    /* a bad line before the NUL comes first */
    fd = mkstemp(strcpy(path, "/tmp/mha-rec-load-XXXXXX"));
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "mha-explorer-recording 1\n0 zz\n0 r\0\n", 34), 34);
    close(fd);
    snprintf(want, sizeof want, "%s:2: unknown key \"zz\"", path);
    expect_error(path, want);
    /* binary from the first line */
    fd = mkstemp(strcpy(path, "/tmp/mha-rec-load-XXXXXX"));
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "\x7f" "ELF\0\0\n", 7), 7);
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

int main(void)
{
    Suite *s = suite_create("record_load");
    TCase *tc = tcase_create("load");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bad_line_before_the_cap_is_named);
    tcase_add_test(tc, good_lines_up_to_the_cap);
    tcase_add_test(tc, nul_byte_is_named_by_its_line);
    tcase_add_test(tc, torn_last_line_still_kept_out);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
