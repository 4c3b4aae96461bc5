/* test_safe_write.c - the one way every file is written (safe_file_write
 * and its steps): what is not a regular file is refused, a symbolic link
 * stays one, the mode is kept, a failed write leaves the old file as it
 * was and no temporary behind, and a file held after placing is taken back
 * only while it is the one placed. */
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/safe_file.h"
#include "test_tmp.h"

static char dir[256];

static void setup(void)
{
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-safe-write"));
}

static void teardown(void)
{
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}

static const char *in_dir(const char *name, char *buf, size_t n)
{
    return test_tmp_path(dir, name, buf, n);
}

static void put(const char *path, const char *text, mode_t mode)
{
    ck_assert_int_eq(test_tmp_put(path, text, mode), 0);
}

/* The whole file (at most 4 KiB) into buf. */
static const char *contents(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    const size_t got = fread(buf, 1, n - 1, f);
    buf[got] = '\0';
    fclose(f);
    return buf;
}

/* How many entries of dir (besides . and ..) hold part in their name. */
static int count(const char *folder, const char *part)
{
    DIR *d = opendir(folder);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..") && strstr(e->d_name, part))
            n++;
    closedir(d);
    return n;
}

static mode_t mode_of(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(stat(path, &sb), 0);
    return sb.st_mode & 0777;
}

START_TEST(what_is_not_a_regular_file_is_refused)
{
    char fifo[300], folder[300], sock[300];
    ck_assert_int_eq(mkfifo(in_dir("pipe", fifo, sizeof fifo), 0600), 0);
    ck_assert_int_eq(mkdir(in_dir("folder", folder, sizeof folder), 0700), 0);
    in_dir("sock", sock, sizeof sock);
    const int s = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(s, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    ck_assert_uint_lt(strlen(sock), sizeof addr.sun_path);
    memcpy(addr.sun_path, sock, strlen(sock) + 1);
    ck_assert_int_eq(bind(s, (struct sockaddr *)&addr, sizeof addr), 0);
    const struct {
        const char *path, *says;
    } cases[] = {
        {fifo, "is a FIFO (named pipe), not a regular file"},
        {folder, "is a directory, not a file"},
        {sock, "is a socket, not a regular file"},
        {"/dev/null", "is a character device, not a regular file"},
        {"/dev/full", "is a character device, not a regular file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct mha_error err;
        ck_assert_int_eq(safe_file_write(cases[i].path, "x\n", 2, &err), -1);
        ck_assert_msg(strstr(err.text, cases[i].says), "%s: '%s'", cases[i].path, err.text);
        ck_assert_str_eq(err.file, cases[i].path);
        ck_assert_int_eq(safe_file_check_target(cases[i].path, &err), -1);
    }
    /* nothing was made beside them, and they are what they were */
    ck_assert_int_eq(count(dir, "part"), 0);
    struct stat sb;
    ck_assert_int_eq(lstat(fifo, &sb), 0);
    ck_assert(S_ISFIFO(sb.st_mode));
    ck_assert_int_eq(lstat(sock, &sb), 0);
    ck_assert(S_ISSOCK(sb.st_mode));
    ck_assert_int_eq(stat("/dev/null", &sb), 0);
    ck_assert(S_ISCHR(sb.st_mode));
    close(s);
}
END_TEST

START_TEST(a_new_file_gets_the_umask_an_old_one_keeps_its_mode)
{
    char path[300], text[64];
    in_dir("new.json", path, sizeof path);
    const mode_t old_mask = umask(027);
    struct mha_error err;
    ck_assert_int_eq(safe_file_write(path, "one\n", 4, &err), 0);
    ck_assert_str_eq(contents(path, text, sizeof text), "one\n");
    ck_assert_int_eq(mode_of(path), 0640);
    umask(022);
    ck_assert_int_eq(chmod(path, 0600), 0);
    ck_assert_int_eq(safe_file_write(path, "two\n", 4, &err), 0);
    ck_assert_str_eq(contents(path, text, sizeof text), "two\n");
    ck_assert_int_eq(mode_of(path), 0600);
    ck_assert_int_eq(chmod(path, 0604), 0);
    ck_assert_int_eq(safe_file_write(path, "three\n", 6, &err), 0);
    ck_assert_int_eq(mode_of(path), 0604);
    ck_assert_int_eq(safe_file_check_target(path, &err), 0);
    umask(old_mask);
    ck_assert_int_eq(count(dir, "part"), 0);
}
END_TEST

START_TEST(a_symbolic_link_stays_a_link)
{
    char sub[300], target[300], link[300], dangling[300], text[64], seen[300];
    ck_assert_int_eq(mkdir(in_dir("sub", sub, sizeof sub), 0700), 0);
    put(in_dir("sub/model.json", target, sizeof target), "old\n", 0600);
    /* a relative link names a file in the link's own folder */
    ck_assert_int_eq(symlink("sub/model.json", in_dir("link.json", link, sizeof link)), 0);
    struct mha_error err;
    ck_assert_int_eq(safe_file_write(link, "new\n", 4, &err), 0);
    struct stat sb;
    ck_assert_int_eq(lstat(link, &sb), 0);
    ck_assert(S_ISLNK(sb.st_mode));
    ck_assert_str_eq(contents(target, text, sizeof text), "new\n");
    ck_assert_int_eq(mode_of(target), 0600);
    ck_assert_int_eq(count(sub, "part"), 0);
    /* a link to a file that is not there yet: that file is made */
    ck_assert_int_eq(symlink("sub/later.json", in_dir("dangling", dangling, sizeof dangling)), 0);
    ck_assert_int_eq(safe_file_write(dangling, "made\n", 5, &err), 0);
    ck_assert_int_eq(lstat(dangling, &sb), 0);
    ck_assert(S_ISLNK(sb.st_mode));
    ck_assert_str_eq(contents(in_dir("sub/later.json", seen, sizeof seen), text, sizeof text),
                     "made\n");
    /* a link to a FIFO is refused like the FIFO; a loop of links is refused */
    ck_assert_int_eq(mkfifo(in_dir("sub/pipe", seen, sizeof seen), 0600), 0);
    ck_assert_int_eq(symlink("sub/pipe", in_dir("to-pipe", link, sizeof link)), 0);
    ck_assert_int_eq(safe_file_write(link, "x", 1, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "is a FIFO"));
    ck_assert_int_eq(symlink("loop-b", in_dir("loop-a", link, sizeof link)), 0);
    ck_assert_int_eq(symlink("loop-a", in_dir("loop-b", seen, sizeof seen)), 0);
    ck_assert_int_eq(safe_file_write(link, "x", 1, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, strerror(ELOOP)));
}
END_TEST

/* In a child limited to files of 16 bytes (writing more fails with EFBIG,
 * as a full disk fails with ENOSPC): write 64 bytes over path.  The
 * child's message into msg. */
static int write_limited(const char *path, char *msg, size_t n)
{
    int fds[2];
    ck_assert_int_eq(pipe(fds), 0);
    const pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(fds[0]);
        signal(SIGXFSZ, SIG_IGN);
        const struct rlimit lim = {16, 16};
        setrlimit(RLIMIT_FSIZE, &lim);
        char big[64];
        memset(big, 'y', sizeof big);
        struct mha_error err;
        const int rc = safe_file_write(path, big, sizeof big, &err);
        if (rc != 0 && write(fds[1], err.text, strlen(err.text)) < 0)
            _exit(3);
        _exit(rc == 0 ? 0 : 1);
    }
    close(fds[1]);
    ssize_t got = read(fds[0], msg, n - 1);
    msg[got > 0 ? got : 0] = '\0';
    close(fds[0]);
    int status;
    ck_assert_int_eq(waitpid(pid, &status, 0), pid);
    ck_assert(WIFEXITED(status));
    return WEXITSTATUS(status);
}

START_TEST(a_failed_write_leaves_the_old_file_and_no_temporary)
{
    char path[300], text[64], msg[1024];
    put(in_dir("keep.json", path, sizeof path), "the old model\n", 0640);
    ck_assert_int_eq(write_limited(path, msg, sizeof msg), 1);
    ck_assert_msg(strstr(msg, strerror(EFBIG)) && strstr(msg, "the file is left as it was"), "'%s'",
                  msg);
    ck_assert_str_eq(contents(path, text, sizeof text), "the old model\n");
    ck_assert_int_eq(mode_of(path), 0640);
    ck_assert_int_eq(count(dir, "part"), 0);
    /* a new file: nothing is made at all */
    in_dir("fresh.json", path, sizeof path);
    ck_assert_int_eq(write_limited(path, msg, sizeof msg), 1);
    ck_assert_msg(strstr(msg, "nothing was written"), "'%s'", msg);
    ck_assert_int_eq(access(path, F_OK), -1);
    ck_assert_int_eq(count(dir, ""), 1);
    /* a folder that does not exist */
    struct mha_error err;
    ck_assert_int_eq(safe_file_write(in_dir("no/such/x.json", path, sizeof path), "x", 1, &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot write in"));
    ck_assert_ptr_nonnull(strstr(err.text, "nothing was written"));
}
END_TEST

/* Placing without replacing: an existing name is never touched. */
START_TEST(placing_a_new_file_never_replaces)
{
    char path[300], text[64];
    put(in_dir("taken.svg", path, sizeof path), "mine\n", 0644);
    struct safe_file sf;
    struct mha_error err;
    ck_assert_int_eq(safe_file_create_in(&sf, dir, &err), 0);
    FILE *f = safe_file_stream(&sf, &err);
    ck_assert_ptr_nonnull(f);
    fputs("export\n", f);
    ck_assert_int_eq(safe_file_finish(&sf, &err), 0);
    ck_assert_int_eq(safe_file_place(&sf, path, false, &err), 1);
    ck_assert_str_eq(contents(path, text, sizeof text), "mine\n");
    char other[300];
    ck_assert_int_eq(safe_file_place(&sf, in_dir("free.svg", other, sizeof other), false, &err), 0);
    ck_assert_str_eq(contents(other, text, sizeof text), "export\n");
    safe_file_discard(&sf);
    ck_assert_int_eq(count(dir, "part"), 0);
    ck_assert_int_eq(count(dir, ""), 2);
}
END_TEST

/* A save removes nothing but what it made: a user's files named as
 * temporaries once were stay, and no name of the save's is left. */
START_TEST(a_save_leaves_the_users_files_alone)
{
    char path[300], text[64];
    const char *const theirs[] = {"essay.part-second", "notes.part-000001", "m.json.part-Ab12Cd",
                                  ".part-XyZ123"};
    for (size_t i = 0; i < sizeof theirs / sizeof theirs[0]; i++)
        put(in_dir(theirs[i], path, sizeof path), "the user's\n", 0644);
    struct mha_error err;
    ck_assert_int_eq(safe_file_write(in_dir("m.json", path, sizeof path), "new\n", 4, &err), 0);
    ck_assert_int_eq(safe_file_write(path, "newer\n", 6, &err), 0);
    ck_assert_str_eq(contents(path, text, sizeof text), "newer\n");
    struct safe_file sf;
    ck_assert_int_eq(safe_file_create_in(&sf, dir, &err), 0);
    safe_file_discard(&sf);
    ck_assert_int_eq(safe_file_create(&sf, path, &err), 0);
    safe_file_discard(&sf);
    for (size_t i = 0; i < sizeof theirs / sizeof theirs[0]; i++)
        ck_assert_str_eq(contents(in_dir(theirs[i], path, sizeof path), text, sizeof text),
                         "the user's\n");
    ck_assert_int_eq(count(dir, ""), 5);
}
END_TEST

/* A held file is taken back while it is the one this process placed, and
 * left alone once another file has its name. */
START_TEST(an_unplaced_file_is_gone_and_another_in_its_place_stays)
{
    char path[300], text[64];
    struct mha_error err;
    for (int other = 0; other < 2; other++) {
        struct safe_file sf;
        ck_assert_int_eq(safe_file_create(&sf, in_dir("lm.py", path, sizeof path), &err), 0);
        sf.hold = true;
        ck_assert_int_eq(write(sf.fd, "script\n", 7), 7);
        ck_assert_int_eq(safe_file_finish(&sf, &err), 0);
        ck_assert_int_eq(safe_file_place(&sf, NULL, false, &err), 0);
        ck_assert_str_eq(contents(path, text, sizeof text), "script\n");
        if (other) { /* someone else's file under the name since */
            ck_assert_int_eq(unlink(path), 0);
            put(path, "theirs\n", 0644);
        }
        safe_file_unplace(&sf);
        if (other)
            ck_assert_str_eq(contents(path, text, sizeof text), "theirs\n");
        else
            ck_assert_int_eq(access(path, F_OK), -1);
        ck_assert_int_eq(count(dir, ""), other);
    }
}
END_TEST

static Suite *safe_write_suite(void)
{
    Suite *s = suite_create("safe_write");
    TCase *tc = tcase_create("writing");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, what_is_not_a_regular_file_is_refused);
    tcase_add_test(tc, a_new_file_gets_the_umask_an_old_one_keeps_its_mode);
    tcase_add_test(tc, a_symbolic_link_stays_a_link);
    tcase_add_test(tc, a_failed_write_leaves_the_old_file_and_no_temporary);
    tcase_add_test(tc, placing_a_new_file_never_replaces);
    tcase_add_test(tc, a_save_leaves_the_users_files_alone);
    tcase_add_test(tc, an_unplaced_file_is_gone_and_another_in_its_place_stays);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(safe_write_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
