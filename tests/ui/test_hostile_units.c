/* test_hostile_units.c - the pieces behind the hostile-files test, without
 * running the program: opening only regular files, the caps, the text
 * checks and escapes, :tokens in the explorer, the permissions of exports. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/export.h"
#include "io/record.h"
#include "io/safe_file.h"
#include "engine/text_check.h"
#include "ui/views/ui_export.h"
#include "test_tmp.h"

START_TEST(safe_file_refuses_what_is_not_a_file)
{
    char dir[256], fifo[300];
    test_tmp_template(dir, sizeof dir, "mha-safe");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/pipe", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    struct mha_error err;
    ck_assert_int_eq(safe_file_open(fifo, &err), -1); /* returns at once: no writer needed */
    ck_assert_str_eq(err.file, fifo);
    ck_assert_ptr_nonnull(strstr(err.text, "FIFO"));
    ck_assert_ptr_null(safe_file_fopen(dir, &err));
    ck_assert_ptr_nonnull(strstr(err.text, "is a directory"));
    char *buf;
    size_t len;
    ck_assert_int_eq(safe_file_read("/dev/zero", 100, "lesson", &buf, &len, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "character device"));
    ck_assert_ptr_null(buf);
    unlink(fifo);
    rmdir(dir);
}
END_TEST

START_TEST(safe_file_caps_the_size)
{
    char path[256];
    test_tmp_template(path, sizeof path, "mha-safe-cap");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, "0123456789", 10), 10);
    close(fd);
    struct mha_error err;
    char *buf;
    size_t len;
    ck_assert_int_eq(safe_file_read(path, 10, "recording", &buf, &len, &err), 0);
    ck_assert_uint_eq(len, 10);
    ck_assert_str_eq(buf, "0123456789");
    free(buf);
    ck_assert_int_eq(safe_file_read(path, 9, "recording", &buf, &len, &err), -1);
    ck_assert_str_eq(err.text, "the file is larger than 9 bytes; is it a recording?");
    ck_assert_int_eq(safe_file_read(path, 9, "example", &buf, &len, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "is it an example?"));
    /* an empty file is fine */
    fd = open(path, O_WRONLY | O_TRUNC);
    close(fd);
    ck_assert_int_eq(safe_file_read(path, 9, "recording", &buf, &len, &err), 0);
    ck_assert_uint_eq(len, 0);
    free(buf);
    unlink(path);
}
END_TEST

START_TEST(recording_cap)
{
    char path[256];
    test_tmp_template(path, sizeof path, "mha-rec-cap");
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    const char *head = "mha-explorer-recording 1\n";
    ck_assert_int_eq(write(fd, head, strlen(head)), (ssize_t)strlen(head));
    ck_assert_int_eq(ftruncate(fd, (off_t)REC_MAX_BYTES + 1), 0);
    close(fd);
    struct recording rec;
    struct mha_error err;
    ck_assert_int_eq(rec_load(path, &rec, &err), -1);
    /* reading stops at the first bad line: the NULs after the first */
    ck_assert_ptr_nonnull(strstr(err.text, "the line holds a NUL byte"));
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(rec.n, 0);
    unlink(path);
}
END_TEST

START_TEST(unsafe_characters)
{
    static const struct {
        const char *text;
        bool lines;
        size_t at; /* (size_t)-1: clean */
        const char *what;
    } cases[] = {
        {"plain words, ü and 漢字", false, (size_t)-1, NULL},
        {"a\x1b[2J", false, 1, "the control character ESC (U+001B)"},
        {"bell\x07", false, 4, "the control character BEL (U+0007)"},
        {"x\x7f", false, 1, "the control character DEL (U+007F)"},
        {"\xc2\x9b"
         "2J",
         false, 0, "the C1 control character U+009B"},
        {"ab\xc2\x85", false, 2, "the C1 control character U+0085"},
        {"gpj\xe2\x80\xae.exe", false, 3, "the bidirectional control U+202E"},
        {"\xe2\x81\xa6x\xe2\x81\xa9", false, 0, "the bidirectional control U+2066"},
        {"\xe2\x80\x8f", false, 0, "the bidirectional control U+200F"},
        {"ca\xfft", false, 2, "a byte that is not UTF-8 (0xFF)"},
        {"\xc0\xaf", false, 0, "a byte that is not UTF-8 (0xC0)"},     /* overlong '/' */
        {"\xed\xa0\x80", false, 0, "a byte that is not UTF-8 (0xED)"}, /* surrogate */
        {"\xe2\x82", false, 0, "a byte that is not UTF-8 (0xE2)"},     /* cut short */
        {"tab\there", false, 3, "the control character TAB (U+0009)"},
        {"tab\there\r\nnext\n", true, (size_t)-1, NULL},
        {"over\rwrite", true, 4, "the control character CR (U+000D)"},
        {"end\r", true, (size_t)-1, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char what[64] = "";
        const size_t len = strlen(cases[i].text);
        const size_t at =
            mha_text_find_unsafe(cases[i].text, len, cases[i].lines, what, sizeof what);
        if (cases[i].at == (size_t)-1) {
            ck_assert_msg(at == len, "case %zu: unsafe at %zu", i, at);
        } else {
            ck_assert_msg(at == cases[i].at, "case %zu: at %zu, not %zu", i, at, cases[i].at);
            ck_assert_str_eq(what, cases[i].what);
        }
    }
}
END_TEST

START_TEST(escaping)
{
    char buf[64];
    ck_assert_str_eq(mha_text_escape("a\x1b]52;c;x\x07z", buf, sizeof buf),
                     "a<U+001B>]52;c;x<U+0007>z");
    ck_assert_str_eq(mha_text_escape("\xc2\x9b"
                                     "1\xe2\x80\xae"
                                     "2\xff",
                                     buf, sizeof buf),
                     "<U+009B>1<U+202E>2<0xFF>");
    ck_assert_str_eq(mha_text_escape("Grüße 漢字", buf, sizeof buf), "Grüße 漢字");
    /* cut whole, never in the middle of an escape or a character */
    char small[12];
    ck_assert_str_eq(mha_text_escape("ab\x1b\x1b", small, sizeof small), "ab<U+001B>");
    ck_assert_str_eq(mha_text_escape("abcdefghi漢", small, sizeof small), "abcdefghi");
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_eq(mha_label_check("cat", 0, &err), 0);
    ck_assert_int_eq(mha_label_check("c\x1b"
                                     "at",
                                     2, &err),
                     -1);
    ck_assert_str_eq(err.text, "token 2 (\"c<U+001B>at\") holds the control character ESC "
                               "(U+001B); token labels are plain text without control or "
                               "bidirectional characters, in UTF-8");
}
END_TEST

/* :tokens in the explorer goes through the same check: the example on
 * screen is kept and the message says why. */
START_TEST(explorer_tokens_command)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    struct ui_state st;
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    const char *bad[] = {"The c\x1b[2Jat", "The ca\xfft",
                         "a \xe2\x80\xae"
                         "b",
                         "x\xc2\x9b"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_int_eq(ui_state_set_tokens(&st, bad[i]), -1);
        ck_assert_msg(st.msg_error, "no error for %zu", i);
        ck_assert_int_eq(st.ex->lq, 4);
        ck_assert_ptr_nonnull(strstr(st.msg, "token"));
        for (const char *p = st.msg; *p; p++)
            ck_assert_msg(*p != '\x1b' && (unsigned char)*p != 0xff, "raw byte in '%s'", st.msg);
    }
    ck_assert_int_eq(ui_state_set_tokens(&st, "The cat sat"), 0);
    ck_assert_int_eq(st.ex->lq, 3);
    ui_state_done(&st);
}
END_TEST

/* :load in the explorer on a FIFO, a device and a folder: refused at once
 * (before, the FIFO blocked the screen until Ctrl-C; Check's time limit
 * fails this test if it blocks). */
START_TEST(explorer_load_refuses_what_is_not_a_file)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    struct ui_state st;
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    char dir[256], fifo[300];
    test_tmp_template(dir, sizeof dir, "mha-load");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(fifo, sizeof fifo, "%s/shared.json", dir);
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    const char *paths[] = {fifo, "/dev/zero", dir};
    const char *why[] = {"FIFO", "character device", "directory"};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(ui_state_load(&st, paths[i]), -1);
        ck_assert_msg(st.msg_error && strstr(st.msg, why[i]), "%s: '%s'", paths[i], st.msg);
        ck_assert_int_eq(st.ex->lq, 4); /* the example on screen stays */
    }
    unlink(fifo);
    rmdir(dir);
    ui_state_done(&st);
}
END_TEST

/* Exports are handouts: 0666 less the umask, as any new file. */
START_TEST(export_permissions_follow_umask)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    struct ui_state st;
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    char dir[256], written[4200];
    test_tmp_template(dir, sizeof dir, "mha-umask");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    const mode_t masks[] = {022, 077, 002, 027};
    const mode_t modes[] = {0644, 0600, 0664, 0640};
    const mode_t saved = umask(022);
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        umask(masks[i]);
        ck_assert_int_eq(
            ui_export_write(&st, MHA_FORMAT_SVG, dir, NULL, written, sizeof written, &err), 0);
        struct stat sb;
        ck_assert_int_eq(stat(written, &sb), 0);
        ck_assert_msg((sb.st_mode & 0777) == modes[i], "umask %03o gave %03o, not %03o", masks[i],
                      sb.st_mode & 0777, modes[i]);
        unlink(written);
    }
    umask(saved);
    rmdir(dir);
    ui_state_done(&st);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("hostile_units");
    TCase *tc = tcase_create("files");
    tcase_add_test(tc, safe_file_refuses_what_is_not_a_file);
    tcase_add_test(tc, safe_file_caps_the_size);
    tcase_add_test(tc, recording_cap);
    tcase_add_test(tc, explorer_load_refuses_what_is_not_a_file);
    suite_add_tcase(s, tc);
    tc = tcase_create("text");
    tcase_add_test(tc, unsafe_characters);
    tcase_add_test(tc, escaping);
    tcase_add_test(tc, explorer_tokens_command);
    suite_add_tcase(s, tc);
    tc = tcase_create("exports");
    tcase_add_test(tc, export_permissions_follow_umask);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
