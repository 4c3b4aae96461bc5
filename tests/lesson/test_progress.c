/* test_progress.c - the progress file when more than one explorer runs, when
 * part of it is damaged, and when it is a symbolic link. */
#include <check.h>
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lesson/progress.h"
#include "test_tmp.h"

static char dir[256];
static char path[PATH_MAX];

static void setup(void)
{
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-progress"));
    snprintf(path, sizeof path, "%s/progress.json", dir);
}

static int remove_one(const char *name, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    return remove(name);
}

static void teardown(void)
{
    nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void write_file(const char *name, const char *text)
{
    FILE *f = fopen(name, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static char *read_all(const char *name)
{
    char *text = test_tmp_read(name);
    ck_assert_msg(text != NULL, "cannot read %s: %s", name, strerror(errno));
    return text;
}

static struct progress *load_quiet(void)
{
    char warn[512];
    struct progress *p = progress_load(path, warn, sizeof warn);
    ck_assert_ptr_nonnull(p);
    ck_assert_msg(warn[0] == '\0', "unexpected warning: %s", warn);
    return p;
}

static void save(struct progress *p)
{
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_msg(progress_save(p, &err) == 0, "save: %s", err.text);
}

static void pause_ms(long ms)
{
    struct timespec ts = {0, ms * 1000000L};
    nanosleep(&ts, NULL);
}

START_TEST(two_explorers_keep_each_others_steps)
{
    struct progress *a = load_quiet(), *b = load_quiet();
    progress_mark_seen(a, "01-x.md", 0);
    progress_mark_seen(a, "01-x.md", 1);
    progress_set_last_step(a, "01-x.md", 1);
    progress_mark_seen(b, "01-x.md", 3);
    progress_mark_seen(b, "02-y.md", 2);
    progress_set_last_step(b, "02-y.md", 2);
    save(a);
    save(b); /* the last to save used to wipe a's steps */
    /* b now holds a's steps too */
    ck_assert(progress_seen(b, "01-x.md", 0));
    progress_free(a);
    progress_free(b);

    struct progress *p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "01-x.md"), 3);
    ck_assert(progress_seen(p, "01-x.md", 0));
    ck_assert(progress_seen(p, "01-x.md", 1));
    ck_assert(progress_seen(p, "01-x.md", 3));
    ck_assert(progress_seen(p, "02-y.md", 2));
    /* each lesson's last step is the one the explorer that moved it left */
    ck_assert_int_eq(progress_last_step(p, "01-x.md"), 1);
    ck_assert_int_eq(progress_last_step(p, "02-y.md"), 2);
    progress_free(p);
}
END_TEST

START_TEST(the_newer_quiz_answer_wins)
{
    struct progress *a = load_quiet(), *b = load_quiet();
    progress_set_quiz(a, "01-x.md", 2, false);
    pause_ms(20);
    progress_set_quiz(b, "01-x.md", 2, true); /* answered later */
    progress_set_quiz(b, "01-x.md", 4, false);
    pause_ms(20);
    progress_set_quiz(a, "01-x.md", 4, true); /* answered later */
    save(b);
    save(a); /* saved last, but its answer to step 2 is the older one */
    progress_free(a);
    progress_free(b);
    struct progress *p = load_quiet();
    ck_assert_int_eq(progress_quiz(p, "01-x.md", 2), 1);
    ck_assert_int_eq(progress_quiz(p, "01-x.md", 4), 1);
    progress_free(p);
}
END_TEST

/* Explorers in separate processes saving at the same time, many times:
 * without the lock, a read-merge-write of one lands between another's read
 * and write and drops its step. */
START_TEST(saves_at_the_same_time_lose_nothing)
{
    enum { WRITERS = 4, ROUNDS = 40 };
    pid_t pid[WRITERS];
    for (int w = 0; w < WRITERS; w++) {
        pid[w] = fork();
        ck_assert_int_ge(pid[w], 0);
        if (pid[w] == 0) {
            int bad = 0;
            for (int r = 0; r < ROUNDS; r++) {
                char warn[512];
                struct progress *p = progress_load(path, warn, sizeof warn);
                struct mha_error err;
                mha_error_clear(&err);
                progress_mark_seen(p, "01-x.md", w * 1000 + r);
                bad |= warn[0] != '\0' || progress_save(p, &err) != 0;
                progress_free(p);
            }
            _exit(bad);
        }
    }
    for (int w = 0; w < WRITERS; w++) {
        int status;
        ck_assert_int_eq(waitpid(pid[w], &status, 0), pid[w]);
        ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    }
    struct progress *p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "01-x.md"), WRITERS * ROUNDS);
    for (int w = 0; w < WRITERS; w++)
        for (int r = 0; r < ROUNDS; r++)
            ck_assert_msg(progress_seen(p, "01-x.md", w * 1000 + r), "step %d lost", w * 1000 + r);
    progress_free(p);
}
END_TEST

START_TEST(only_bad_entries_are_dropped)
{
    const char *text =
        "{\"version\": 1, \"lessons\": {"
        "\"01-good.md\": {\"seen\": [0, 1, \"two\", 3], \"last\": 3,"
        "  \"quiz\": {\"1\": true, \"x\": true, \"3\": 7}},"
        "\"02-broken.md\": 5,"
        "\"03-half.md\": {\"seen\": \"all\", \"last\": 2, \"quiz\": {\"2\": false}}}}";
    write_file(path, text);
    char warn[1024];
    struct progress *p = progress_load(path, warn, sizeof warn);
    ck_assert_ptr_nonnull(p);
    /* what was good is kept */
    ck_assert_int_eq(progress_seen_count(p, "01-good.md"), 3);
    ck_assert(progress_seen(p, "01-good.md", 3));
    ck_assert_int_eq(progress_last_step(p, "01-good.md"), 3);
    ck_assert_int_eq(progress_quiz(p, "01-good.md", 1), 1);
    ck_assert_int_eq(progress_last_step(p, "03-half.md"), 2);
    ck_assert_int_eq(progress_quiz(p, "03-half.md", 2), 0);
    /* what was bad is named */
    ck_assert_msg(strstr(warn, "lessons.\"02-broken.md\"") != NULL, "%s", warn);
    ck_assert_msg(strstr(warn, "lessons.\"01-good.md\".seen[2]") != NULL, "%s", warn);
    ck_assert_msg(strstr(warn, "lessons.\"01-good.md\".quiz.\"x\"") != NULL, "%s", warn);
    ck_assert_msg(strstr(warn, "lessons.\"01-good.md\".quiz.\"3\"") != NULL, "%s", warn);
    ck_assert_msg(strstr(warn, "lessons.\"03-half.md\".seen") != NULL, "%s", warn);
    /* the file as it was is kept, and the file itself is clean again */
    char aside[PATH_MAX + 32];
    snprintf(aside, sizeof aside, "%s.corrupt.1", path);
    ck_assert_msg(strstr(warn, aside) != NULL, "%s", warn);
    char *kept = read_all(aside);
    ck_assert_str_eq(kept, text);
    free(kept);
    progress_free(p);
    p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "01-good.md"), 3);
    progress_free(p);
}
END_TEST

START_TEST(kept_copies_are_numbered_never_replaced)
{
    char name[PATH_MAX + 32];
    snprintf(name, sizeof name, "%s.corrupt", path);
    write_file(name, "an older program's copy");
    static const char *const bad[] = {"{ not json", "[1, 2]", ""};
    for (int i = 0; i < 3; i++) {
        write_file(path, bad[i]);
        char warn[1024];
        struct progress *p = progress_load(path, warn, sizeof warn);
        ck_assert_ptr_nonnull(p);
        ck_assert_msg(strstr(warn, "could not be read") != NULL, "%s", warn);
        snprintf(name, sizeof name, "%s.corrupt.%d", path, i + 1);
        ck_assert_msg(strstr(warn, name) != NULL, "%s", warn);
        ck_assert_int_ne(access(path, F_OK), 0); /* moved aside */
        progress_mark_seen(p, "a", i);
        save(p);
        progress_free(p);
    }
    for (int i = 0; i < 3; i++) {
        snprintf(name, sizeof name, "%s.corrupt.%d", path, i + 1);
        char *got = read_all(name);
        ck_assert_str_eq(got, bad[i]);
        free(got);
    }
    snprintf(name, sizeof name, "%s.corrupt", path);
    char *got = read_all(name);
    ck_assert_str_eq(got, "an older program's copy");
    free(got);
}
END_TEST

START_TEST(a_symlink_is_written_through)
{
    char real_dir[PATH_MAX], target[PATH_MAX + 32];
    snprintf(real_dir, sizeof real_dir, "%s/dotfiles", dir);
    ck_assert_int_eq(mkdir(real_dir, 0755), 0);
    snprintf(target, sizeof target, "%s/progress.json", real_dir);
    ck_assert_int_eq(symlink("dotfiles/progress.json", path), 0); /* relative, dangling */
    struct progress *p = load_quiet();
    progress_mark_seen(p, "01-x.md", 4);
    save(p);
    progress_mark_seen(p, "01-x.md", 5);
    save(p);
    progress_free(p);
    struct stat sb;
    ck_assert_int_eq(lstat(path, &sb), 0);
    ck_assert_msg(S_ISLNK(sb.st_mode), "the link was replaced by a file");
    ck_assert_int_eq(lstat(target, &sb), 0);
    ck_assert(S_ISREG(sb.st_mode));
    char *text = read_all(target);
    ck_assert_ptr_nonnull(strstr(text, "01-x.md"));
    free(text);
    p = load_quiet();
    ck_assert(progress_seen(p, "01-x.md", 4));
    ck_assert(progress_seen(p, "01-x.md", 5));
    progress_free(p);
}
END_TEST

START_TEST(a_version_1_file_is_read)
{
    write_file(path, "{\"version\": 1, \"lessons\": {\"01-x.md\": {\"seen\": [0, 2], \"last\": 2,"
                     " \"quiz\": {\"2\": true, \"0\": false}}}}");
    struct progress *p = load_quiet();
    ck_assert_int_eq(progress_quiz(p, "01-x.md", 2), 1);
    ck_assert_int_eq(progress_quiz(p, "01-x.md", 0), 0);
    /* an answer given now is newer than one without a time */
    progress_set_quiz(p, "01-x.md", 0, true);
    save(p);
    progress_free(p);
    p = load_quiet();
    ck_assert_int_eq(progress_quiz(p, "01-x.md", 0), 1);
    ck_assert_int_eq(progress_seen_count(p, "01-x.md"), 2);
    progress_free(p);
}
END_TEST

START_TEST(forgetting_survives_the_merge)
{
    struct progress *a = load_quiet();
    progress_mark_seen(a, "01-x.md", 1);
    progress_mark_seen(a, "02-y.md", 1);
    save(a);
    struct progress *b = load_quiet();
    progress_mark_seen(a, "01-x.md", 2);
    save(a);
    progress_forget(b, "01-x.md"); /* the file has steps b never saw */
    save(b);
    progress_free(a);
    progress_free(b);
    struct progress *p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "01-x.md"), 0);
    ck_assert_int_eq(progress_seen_count(p, "02-y.md"), 1);
    progress_forget(p, NULL);
    save(p);
    progress_free(p);
    p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "02-y.md"), 0);
    progress_free(p);
}
END_TEST

/* the lesson list's r/R and --reset-progress go through progress_reset: what
 * they forget must stay forgotten when the save merges with the file */
START_TEST(a_reset_survives_the_merge)
{
    struct progress *a = load_quiet();
    progress_mark_seen(a, "01-x.md", 1);
    progress_mark_seen(a, "02-y.md", 2);
    save(a);
    progress_free(a);
    struct progress *p = load_quiet();
    progress_reset(p, "01-x.md");
    save(p);
    progress_free(p);
    p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "01-x.md"), 0);
    ck_assert_int_eq(progress_seen_count(p, "02-y.md"), 1);
    progress_reset(p, NULL);
    save(p);
    progress_free(p);
    p = load_quiet();
    ck_assert_int_eq(progress_seen_count(p, "02-y.md"), 0);
    progress_free(p);
}
END_TEST

static Suite *progress_suite(void)
{
    Suite *s = suite_create("progress");
    TCase *tc = tcase_create("merge");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, two_explorers_keep_each_others_steps);
    tcase_add_test(tc, the_newer_quiz_answer_wins);
    tcase_add_test(tc, saves_at_the_same_time_lose_nothing);
    tcase_add_test(tc, forgetting_survives_the_merge);
    tcase_add_test(tc, a_reset_survives_the_merge);
    suite_add_tcase(s, tc);
    tc = tcase_create("damage");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, only_bad_entries_are_dropped);
    tcase_add_test(tc, kept_copies_are_numbered_never_replaced);
    tcase_add_test(tc, a_version_1_file_is_read);
    suite_add_tcase(s, tc);
    tc = tcase_create("links");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, a_symlink_is_written_through);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(progress_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
