/* test_hostile_write.c - what someone else put where the program writes,
 * and files made to cost memory: a device node, a FIFO and a socket at
 * the --save path, a symbolic link planted at the temporary name the
 * program once used (PATH.tmp<pid>, the PID kept by exec), a 0600 model, a
 * full disk, /dev/full, 99 MB of empty rows, a vocabulary that names a
 * token twice.  Each must be refused with status 2 and a message, or
 * written without touching anything but the file named. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <unistd.h>

#include "hostile_run.h"
#include "test_tmp.h"

static char scratch[256];

static void setup(void)
{
    ck_assert_ptr_nonnull(test_tmp_dir(scratch, sizeof scratch, "mha-hostile-write"));
}

static void teardown(void)
{
    ck_assert_int_eq(test_tmp_remove(scratch), 0);
}

static const char *in_scratch(const char *name, char *buf, size_t n)
{
    return test_tmp_path(scratch, name, buf, n);
}

static void put(const char *path, const char *text, mode_t mode)
{
    ck_assert_int_eq(test_tmp_put(path, text, mode), 0);
}

static char *contents(const char *path)
{
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
    static char buf[1 << 16];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

/* Whether an entry of the scratch folder holds part in its name. */
static bool holds(const char *part)
{
    char cmd[400];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | grep -c -- '%s' >/dev/null", scratch, part);
    return system(cmd) == 0;
}

/* Train a little and save to path; the result (free it). */
static struct hostile_result save_to(const char *path)
{
    return hostile_run((const char *[]){"--train", "prev", "--steps", "5", "--save", path, "--dump",
                                        "summary", NULL},
                       NULL, NULL, 60);
}

static void expect(struct hostile_result *r, int status, const char *message)
{
    ck_assert_msg(!r->timed_out, "blocked (killed after the time limit)");
    ck_assert_msg(r->status == status, "status %d, not %d (stderr: %s)", r->status, status, r->err);
    ck_assert_msg(strstr(r->err, message), "stderr '%s' lacks '%s'", r->err, message);
    hostile_result_free(r);
}

static mode_t kind_of(const char *path)
{
    struct stat sb;
    ck_assert_int_eq(lstat(path, &sb), 0);
    return sb.st_mode & S_IFMT;
}

START_TEST(a_device_node_at_the_save_path_is_refused)
{
    if (geteuid() != 0) {
        fprintf(stderr, "hostile_write: not root, no device node made (mknod needs root)\n");
        return;
    }
    char dev[300];
    in_scratch("null-device", dev, sizeof dev);
    ck_assert_int_eq(mknod(dev, S_IFCHR | 0666, makedev(1, 3)), 0); /* /dev/null's numbers */
    struct hostile_result r = save_to(dev);
    expect(&r, 2, "null-device: is a character device, not a regular file");
    ck_assert_int_eq(kind_of(dev), S_IFCHR);
    ck_assert(!holds("part"));
}
END_TEST

START_TEST(a_fifo_and_a_socket_at_the_save_path_are_refused)
{
    char fifo[300], sock[300];
    ck_assert_int_eq(mkfifo(in_scratch("model.json", fifo, sizeof fifo), 0600), 0);
    struct hostile_result r = save_to(fifo);
    expect(&r, 2, "model.json: is a FIFO (named pipe), not a regular file");
    ck_assert_int_eq(kind_of(fifo), S_IFIFO);

    in_scratch("sock.json", sock, sizeof sock);
    const int s = socket(AF_UNIX, SOCK_STREAM, 0);
    ck_assert_int_ge(s, 0);
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    ck_assert_uint_lt(strlen(sock), sizeof addr.sun_path);
    memcpy(addr.sun_path, sock, strlen(sock) + 1);
    ck_assert_int_eq(bind(s, (struct sockaddr *)&addr, sizeof addr), 0);
    r = save_to(sock);
    expect(&r, 2, "sock.json: is a socket, not a regular file");
    ck_assert_int_eq(kind_of(sock), S_IFSOCK);
    close(s);
    ck_assert(!holds("part"));
}
END_TEST

START_TEST(dev_null_and_dev_full_are_refused)
{
    struct hostile_result r = save_to("/dev/null");
    expect(&r, 2, "/dev/null: is a character device, not a regular file");
    ck_assert_int_eq(kind_of("/dev/null"), S_IFCHR);
    if (access("/dev/full", W_OK) == 0) {
        r = save_to("/dev/full");
        expect(&r, 2, "/dev/full: is a character device, not a regular file");
        ck_assert_int_eq(kind_of("/dev/full"), S_IFCHR);
    }
}
END_TEST

/* The name the program once wrote its temporary to: "<save>.tmp<pid>". */
static char planted_save[300], planted_victim[300];

static void plant_link(void)
{
    char name[400];
    snprintf(name, sizeof name, "%s.tmp%ld", planted_save, (long)getpid());
    if (symlink(planted_victim, name) != 0)
        _exit(126);
}

START_TEST(a_link_planted_at_the_old_temporary_name_is_left_alone)
{
    in_scratch("model.json", planted_save, sizeof planted_save);
    put(in_scratch("victim.txt", planted_victim, sizeof planted_victim), "not yours\n", 0644);
    hostile_run_child_hook = plant_link;
    struct hostile_result r = save_to(planted_save);
    hostile_run_child_hook = NULL;
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    char *victim = contents(planted_victim);
    ck_assert_str_eq(victim, "not yours\n");
    free(victim);
    char *model = contents(planted_save);
    ck_assert_ptr_nonnull(strstr(model, "\"embedding\""));
    free(model);
    /* the planted link is still a link (nothing wrote through or over it) */
    char cmd[400];
    snprintf(cmd, sizeof cmd, "test -L \"$(ls -d '%s'/model.json.tmp*)\"", scratch);
    ck_assert_int_eq(system(cmd), 0);
    ck_assert(!holds("part"));
}
END_TEST

START_TEST(a_0600_model_stays_0600_and_a_link_stays_a_link)
{
    char model[300], link[300];
    put(in_scratch("private.json", model, sizeof model), "old\n", 0600);
    struct hostile_result r = save_to(model);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    struct stat sb;
    ck_assert_int_eq(stat(model, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
    ck_assert_int_eq(symlink("private.json", in_scratch("link.json", link, sizeof link)), 0);
    r = save_to(link);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    ck_assert_int_eq(kind_of(link), S_IFLNK);
    ck_assert_int_eq(stat(model, &sb), 0);
    ck_assert_int_eq(sb.st_mode & 0777, 0600);
}
END_TEST

static void limit_file_size(void)
{
    signal(SIGXFSZ, SIG_IGN); /* a write past the limit fails with EFBIG, as on a full disk */
    const struct rlimit lim = {4096, 4096};
    setrlimit(RLIMIT_FSIZE, &lim);
}

START_TEST(a_full_disk_leaves_the_old_model_as_it_was)
{
    char model[300];
    put(in_scratch("model.json", model, sizeof model), "the model of yesterday\n", 0640);
    hostile_run_child_hook = limit_file_size;
    struct hostile_result r = save_to(model);
    hostile_run_child_hook = NULL;
    expect(&r, 1, "model.json: cannot write: File too large; the file is left as it was");
    char *text = contents(model);
    ck_assert_str_eq(text, "the model of yesterday\n");
    free(text);
    ck_assert(!holds("part"));
    ck_assert(!holds("tmp"));
}
END_TEST

/* {head"field": [[],[],...]} of about size bytes. */
static void empty_rows(const char *path, const char *head, const char *field, size_t size)
{
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fprintf(f, "{%s\"%s\": [", head, field);
    static char block[3 << 12];
    for (size_t i = 0; i < sizeof block; i += 3)
        memcpy(block + i, "[],", 3);
    for (size_t done = 0; done < size; done += sizeof block)
        ck_assert_uint_eq(fwrite(block, 1, sizeof block, f), sizeof block);
    fputs("[]]}\n", f);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(empty_rows_are_refused_fast_with_little_memory)
{
    char model[300], batch[300], task[300];
    in_scratch("model.json", model, sizeof model);
    struct hostile_result r = save_to(model);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    /* 99 MB: over the size a batch may have, refused unread */
    empty_rows(in_scratch("batch.json", batch, sizeof batch), "", "tokens", (size_t)99 << 20);
    r = hostile_run((const char *[]){"--grad", model, "--batch", batch, NULL}, NULL, NULL, 30);
    ck_assert_msg(r.seconds < 5 && r.max_rss < 200 * 1024, "%.2f s, %ld KiB", r.seconds, r.max_rss);
    expect(&r, 2, "bytes; is it a batch file?");
    /* under the size cap: refused at row 4097, before the rest is read */
    empty_rows(batch, "", "tokens", (size_t)40 << 20);
    r = hostile_run((const char *[]){"--grad", model, "--batch", batch, NULL}, NULL, NULL, 30);
    ck_assert_msg(r.seconds < 5 && r.max_rss < 200 * 1024, "%.2f s, %ld KiB", r.seconds, r.max_rss);
    expect(&r, 2, "batch.json:1:12301: \"tokens\" has more than 4096 entries");
    unlink(batch);
    empty_rows(in_scratch("task.json", task, sizeof task),
               "\"vocab\": [\"a\", \"b\"], \"outputs\": [\"x\"], ", "tokens", (size_t)80 << 20);
    r = hostile_run((const char *[]){"--train", task, "--dump", "summary", NULL}, NULL, NULL, 30);
    ck_assert_msg(r.seconds < 5 && r.max_rss < 200 * 1024, "%.2f s, %ld KiB", r.seconds, r.max_rss);
    expect(&r, 2, "\"tokens\" has more than 131072 entries");
}
END_TEST

START_TEST(a_token_named_twice_is_refused)
{
    char task[300];
    put(in_scratch("task.json", task, sizeof task),
        "{\"vocab\": [\"A\", \"b\", \"A\"], \"outputs\": [\"next\"],\n"
        " \"tokens\": [[0, 1, 2]], \"targets\": [[[1, 2, 0]]]}\n",
        0644);
    struct hostile_result r =
        hostile_run((const char *[]){"--train", task, "--dump", "summary", NULL}, NULL, NULL, 30);
    expect(&r, 2, "\"vocab\"[2] is \"A\", the same as \"vocab\"[0]");
}
END_TEST

static Suite *hostile_write_suite(void)
{
    Suite *s = suite_create("hostile_write");
    TCase *tc = tcase_create("save");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, a_device_node_at_the_save_path_is_refused);
    tcase_add_test(tc, a_fifo_and_a_socket_at_the_save_path_are_refused);
    tcase_add_test(tc, dev_null_and_dev_full_are_refused);
    tcase_add_test(tc, a_link_planted_at_the_old_temporary_name_is_left_alone);
    tcase_add_test(tc, a_0600_model_stays_0600_and_a_link_stays_a_link);
    tcase_add_test(tc, a_full_disk_leaves_the_old_model_as_it_was);
    suite_add_tcase(s, tc);
    tc = tcase_create("read");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, empty_rows_are_refused_fast_with_little_memory);
    tcase_add_test(tc, a_token_named_twice_is_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(hostile_write_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
