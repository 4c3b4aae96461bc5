/* test_hostile_write.c - what someone else put where the program writes,
 * and files made to cost memory: a device node, a FIFO and a socket at
 * the --save path, a symbolic link planted at the temporary name the
 * program once used (PATH.tmp<pid>, the PID kept by exec), a 0600 model, a
 * full disk, /dev/full, 99 MB of empty rows, a vocabulary that names a
 * token twice; output paths that cannot be written (refused before any
 * training), a real full file system (a small tmpfs), a signal in the
 * middle of a save (fsync_signal.c, preloaded), and files named as
 * temporaries once were (never removed; links planted in a shared folder
 * are test_hostile_links.c's).  Each must be
 * refused with status 2 and a message (a write that fails on the way: 1),
 * or written without touching anything but the file named. */
#define _GNU_SOURCE /* unshare */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
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
    char *text = test_tmp_read(path);
    ck_assert_msg(text != NULL, "cannot read %s: %s", path, strerror(errno));
    return text;
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
    ck_assert(!holds("mha-explorer-"));
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
    ck_assert(!holds("mha-explorer-"));
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
    ck_assert(!holds("mha-explorer-"));
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
    ck_assert(!holds("mha-explorer-"));
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

/* ---- paths checked before any work ---------------------------------------------------- */

static void as_nobody(void)
{
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0))
        _exit(126);
}

/* Whether another user may reach path: every folder on the way lets others
 * through, and so does path itself (a program: they may run it).  A
 * checkout, or a TMPDIR, in a folder only its owner may enter does not. */
static bool others_can_reach(const char *where)
{
    char path[4096];
    if (!realpath(where, path))
        return false;
    struct stat st;
    for (char *slash = path; (slash = strchr(slash + 1, '/'));) {
        *slash = '\0';
        const bool through = stat(path, &st) == 0 && (st.st_mode & S_IXOTH);
        *slash = '/';
        if (!through)
            return false;
    }
    return stat(path, &st) == 0 && (st.st_mode & S_IXOTH);
}

START_TEST(output_paths_are_refused_before_any_training)
{
    char dir[300], file[300], sub[300];
    in_scratch("file", file, sizeof file);
    put(file, "a file\n", 0644);
    const struct {
        const char *opt, *path, *says;
    } cases[] = {
        {"--save", "", "--save: an empty file name: give the file to write"},
        {"--save", in_scratch("none/m.json", dir, sizeof dir), "none/m.json: cannot write in "},
        {"--save", dir, "no such folder"},
        {"--save", in_scratch("file/m.json", sub, sizeof sub), "is not a folder"},
        {"--save", scratch, "is a directory, not a file"},
        {"--record", "", "--record: an empty file name: give the file to write"},
        {"--record", dir, "no such folder"},
        {"--record", "/dev/null", "/dev/null: is a character device, not a regular file"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        /* ten million steps: a run that trained before the check would time out */
        const char *save[] = {"--train",     "prev",   "--steps", "10000000", cases[i].opt,
                              cases[i].path, "--dump", "summary", NULL};
        const char *record[] = {cases[i].opt, cases[i].path, NULL};
        struct hostile_result r =
            hostile_run(strcmp(cases[i].opt, "--save") ? record : save, NULL, NULL, 20);
        ck_assert_msg(r.seconds < 5, "%s '%s': %.1f s", cases[i].opt, cases[i].path, r.seconds);
        expect(&r, 2, cases[i].says);
    }
    /* --compare: each pane's file, its heads in the name */
    struct hostile_result r =
        hostile_run((const char *[]){"--train", "prev", "--compare", "1,2", "--save", dir, NULL},
                    NULL, NULL, 20);
    expect(&r, 2, "none/m-heads1.json: cannot write in ");
    r = hostile_run(
        (const char *[]){"--train", "prev", "--compare", "1,2,1", "--save", "m.json", NULL}, NULL,
        NULL, 20);
    expect(&r, 2, "--save: --compare gives 1 head twice");
    /* --record with --dump is refused, not ignored */
    r = hostile_run((const char *[]){"--record", "x.rec", "--dump", "attention", NULL}, NULL, NULL,
                    20);
    expect(&r, 2, "--record cannot be combined with --dump");
    ck_assert(!holds("mha-explorer-"));
}
END_TEST

/* Standard output as the save path: a pipe or a socket (/dev/stdout and
 * /dev/fd/1 name it as "pipe:[N]", no file), or the file it is redirected
 * to, where the summary would be lost; refused before any training. */
static int stdout_fd = -1;
static void stdout_to_fd(void)
{
    dup2(stdout_fd, 1);
}

START_TEST(standard_output_is_refused_before_training)
{
    const struct {
        const char *save;
        int kind; /* 0 a pipe, 1 a socket, 2 a regular file */
        const char *says;
    } cases[] = {
        {"/dev/stdout", 0, "--save: /dev/stdout: is a FIFO (named pipe), not a regular file"},
        {"/dev/fd/1", 0, "--save: /dev/fd/1: is a FIFO (named pipe), not a regular file"},
        {"/dev/stdout", 1, "--save: /dev/stdout: is a socket, not a regular file"},
        {"/dev/stdout", 2, "--save: /dev/stdout is the file standard output goes to"},
        {NULL, 2, "out.txt is the file standard output goes to"},
    };
    char out[300];
    in_scratch("out.txt", out, sizeof out);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int fds[2] = {-1, -1};
        if (cases[i].kind == 0)
            ck_assert_int_eq(pipe(fds), 0);
        else if (cases[i].kind == 1)
            ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, fds), 0);
        else
            put(out, "", 0644);
        stdout_fd = fds[1];
        hostile_run_child_hook = cases[i].kind < 2 ? stdout_to_fd : NULL;
        /* ten million steps: a run that trained before the check would time out */
        struct hostile_result r = hostile_run(
            (const char *[]){"--train", "prev", "--steps", "10000000", "--save",
                             cases[i].save ? cases[i].save : out, "--dump", "summary", NULL},
            NULL, cases[i].kind == 2 ? out : NULL, 20);
        hostile_run_child_hook = NULL;
        for (int k = 0; k < 2; k++)
            if (fds[k] >= 0)
                close(fds[k]);
        ck_assert_msg(r.seconds < 5, "case %zu: %.1f s", i, r.seconds);
        expect(&r, 2, cases[i].says);
    }
    char *left = contents(out);
    ck_assert_str_eq(left, ""); /* left as it was */
    free(left);
    ck_assert(!holds("mha-explorer-"));
}
END_TEST

START_TEST(a_folder_without_permission_is_refused_before_training)
{
    char dir[300], model[300];
    ck_assert_int_eq(mkdir(in_scratch("locked", dir, sizeof dir), 0755), 0);
    in_scratch("locked/m.json", model, sizeof model);
    if (geteuid() == 0) { /* root writes anywhere: the program runs as nobody */
        ck_assert_int_eq(chmod(scratch, 0755), 0);
        if (!others_can_reach(getenv("MHA_EXPLORER")) || !others_can_reach(scratch)) {
            printf("skipped: a folder without permission needs another user to run the "
                   "program on a folder of the test's, and %s or %s is in a folder only its "
                   "owner may enter\n",
                   getenv("MHA_EXPLORER"), scratch);
            return;
        }
        hostile_run_child_hook = as_nobody;
    } else {
        ck_assert_int_eq(chmod(dir, 0555), 0);
    }
    struct hostile_result r =
        hostile_run((const char *[]){"--train", "prev", "--steps", "10000000", "--save", model,
                                     "--dump", "summary", NULL},
                    NULL, NULL, 20);
    hostile_run_child_hook = NULL;
    chmod(dir, 0755);
    expect(&r, 2, "locked/m.json: cannot write in ");
    ck_assert_int_eq(access(model, F_OK), -1);
}
END_TEST

/* ---- a full file system --------------------------------------------------------------- */

static char mounted[300];

/* A tmpfs of 64 KiB at scratch/full, in a mount namespace of this test's
 * own where it may make one (the mount goes with the test's process, even
 * when a check fails); false (with a message) where it may not mount one. */
static bool small_tmpfs(void)
{
    in_scratch("full", mounted, sizeof mounted);
    ck_assert_int_eq(mkdir(mounted, 0755), 0);
    if (unshare(CLONE_NEWNS) == 0)
        mount("none", "/", NULL, MS_REC | MS_PRIVATE, NULL);
    if (mount("tmpfs", mounted, "tmpfs", 0, "size=64k,mode=0755") != 0) {
        fprintf(stderr, "hostile_write: cannot mount a tmpfs (%s): the full disk is not tried\n",
                strerror(errno));
        mounted[0] = '\0';
        return false;
    }
    return true;
}

static void fill(const char *dir)
{
    char path[400];
    snprintf(path, sizeof path, "%s/filler", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    static char block[4096];
    while (fwrite(block, 1, sizeof block, f) == sizeof block && fflush(f) == 0)
        ;
    fclose(f);
}

/* The filler of fill() made again, leaving room bytes free in dir. */
static void leave_free(const char *dir, unsigned long room)
{
    char path[400];
    snprintf(path, sizeof path, "%s/filler", dir);
    ck_assert_int_eq(unlink(path), 0);
    struct statvfs fs;
    ck_assert_int_eq(statvfs(dir, &fs), 0);
    const unsigned long have = (unsigned long)fs.f_bavail * fs.f_bsize;
    ck_assert_uint_gt(have, room);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    static char block[4096];
    for (unsigned long left = have - room; left > 0;) {
        const size_t n = left < sizeof block ? left : sizeof block;
        ck_assert_uint_eq(fwrite(block, 1, n, f), n);
        left -= n;
    }
    ck_assert_int_eq(fclose(f), 0);
}

static void unmount_full(void)
{
    if (mounted[0])
        ck_assert_int_eq(umount(mounted), 0);
    mounted[0] = '\0';
}

START_TEST(a_full_file_system_exits_1_saying_so)
{
    if (!small_tmpfs())
        return;
    char model[400], state[400], small[300], script[400];
    /* a model to export, saved where there is room */
    struct hostile_result r = save_to(in_scratch("small.json", small, sizeof small));
    expect(&r, 0, "");
    snprintf(script, sizeof script, "%s/lm.py", mounted);
    put(script, "the script of yesterday\n", 0644);
    snprintf(model, sizeof model, "%s/model.json", mounted);
    put(model, "the model of yesterday\n", 0644);
    snprintf(state, sizeof state, "%s/state", mounted);
    ck_assert_int_eq(mkdir(state, 0755), 0);
    fill(mounted);
    r = save_to(model);
    expect(&r, 1, "model.json: cannot write: no space left on device; the file is left as it was");
    char *text = contents(model);
    ck_assert_str_eq(text, "the model of yesterday\n");
    free(text);
    /* --export-torch: over a script that is there, refused (status 2) and
     * the old script as it was; a new one on the full disk, status 1 and
     * neither file; with room for the script and not its weights, the
     * same */
    r = hostile_run((const char *[]){"--load", small, "--export-torch", script, NULL}, NULL, NULL,
                    20);
    expect(&r, 2, "lm.py exists");
    text = contents(script);
    ck_assert_str_eq(text, "the script of yesterday\n");
    free(text);
    char fresh[400], weights[400];
    snprintf(fresh, sizeof fresh, "%s/fresh.py", mounted);
    snprintf(weights, sizeof weights, "%s/fresh.safetensors", mounted);
    r = hostile_run((const char *[]){"--load", small, "--export-torch", fresh, NULL}, NULL, NULL,
                    20);
    expect(&r, 1, "fresh.py: cannot write: no space left on device; nothing was written");
    leave_free(mounted, 8192); /* two pages: the script's, not its weights' too */
    r = hostile_run((const char *[]){"--load", small, "--export-torch", fresh, NULL}, NULL, NULL,
                    20);
    expect(&r, 1, "fresh.safetensors: cannot write: no space left on device; nothing was written");
    ck_assert_int_eq(access(fresh, F_OK), -1);
    ck_assert_int_eq(access(weights, F_OK), -1);
    fill(mounted);
    /* the progress file's message names it too */
    setenv("XDG_STATE_HOME", state, 1);
    r = hostile_run((const char *[]){"--reset-progress", NULL}, NULL, NULL, 20);
    unsetenv("XDG_STATE_HOME");
    expect(&r, 1, "/progress.json: cannot write: no space left on device");
    char cmd[500];
    snprintf(cmd, sizeof cmd, "find '%s' -name '*mha-explorer-*' | grep -q .", mounted);
    ck_assert_int_ne(system(cmd), 0);
    unmount_full();
}
END_TEST

/* ---- a signal in the middle of a save ------------------------------------------------- */

static int fsync_signal;

static void preload_fsync_signal(void)
{
    const char *lib = getenv("MHA_FSYNC_SIGNAL");
    if (!lib)
        _exit(125);
    char sig[16], asan[512];
    snprintf(sig, sizeof sig, "%d", fsync_signal);
    setenv("MHA_TEST_FSYNC_SIGNAL", sig, 1);
    setenv("LD_PRELOAD", lib, 1);
    /* a sanitizer build's runtime must otherwise come first */
    const char *old = getenv("ASAN_OPTIONS");
    snprintf(asan, sizeof asan, "%s%sverify_asan_link_order=0", old ? old : "", old ? ":" : "");
    setenv("ASAN_OPTIONS", asan, 1);
    const struct rlimit none = {0, 0}; /* SIGQUIT dumps no core here */
    setrlimit(RLIMIT_CORE, &none);
    /* the signal as a user's terminal sends it, whatever the suite was
     * started under (nohup ignores SIGHUP for every process it starts) */
    signal(fsync_signal, SIG_DFL);
}

START_TEST(a_signal_during_the_fsync_leaves_no_temporary)
{
    if (!getenv("MHA_FSYNC_SIGNAL")) {
        fprintf(stderr, "hostile_write: MHA_FSYNC_SIGNAL not set: no signal sent during a save\n");
        return;
    }
    char model[300];
    in_scratch("model.json", model, sizeof model);
    const int sigs[] = {SIGHUP, SIGQUIT, SIGINT, SIGTERM};
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
        put(model, "the model of yesterday\n", 0644);
        fsync_signal = sigs[i];
        hostile_run_child_hook = preload_fsync_signal;
        struct hostile_result r = save_to(model);
        hostile_run_child_hook = NULL;
        ck_assert_msg(!r.timed_out, "blocked");
        /* the signal ends the program once the save is done, each alike,
         * and the status says which */
        ck_assert_msg(r.status == 128 + sigs[i], "signal %d: status %d (%s)", sigs[i], r.status,
                      r.err);
        hostile_result_free(&r);
        ck_assert_msg(!holds("mha-explorer-"), "signal %d left a temporary", sigs[i]);
        char *text = contents(model);
        ck_assert_msg(!strcmp(text, "the model of yesterday\n") || strstr(text, "\"embedding\""),
                      "signal %d: the model is neither the old one nor a whole new one", sigs[i]);
        free(text);
    }
}
END_TEST

/* Whether the scratch folder holds exactly the names given (NULL-ended)
 * and nothing else. */
static bool holds_only(const char *const *names)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | sort", scratch);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    char seen[1024] = "", line[300];
    while (fgets(line, sizeof line, p))
        strncat(seen, line, sizeof seen - strlen(seen) - 1);
    pclose(p);
    char want[1024] = "";
    for (const char *const *n = names; *n; n++) {
        strncat(want, *n, sizeof want - strlen(want) - 1);
        strncat(want, "\n", sizeof want - strlen(want) - 1);
    }
    if (strcmp(seen, want))
        fprintf(stderr, "hostile_write: the folder holds\n%sand not\n%s", seen, want);
    return !strcmp(seen, want);
}

START_TEST(a_save_removes_only_what_it_made)
{
    if (!getenv("MHA_FSYNC_SIGNAL")) {
        fprintf(stderr, "hostile_write: MHA_FSYNC_SIGNAL not set: no save killed\n");
        return;
    }
    char model[300], path[300];
    put(in_scratch("model.json", model, sizeof model), "the model of yesterday\n", 0644);
    /* the user's files, whatever they look like: named as this program once
     * named its temporaries, one of them locked by no one, one held */
    const char *const mine[] = {"essay.part-second", "notes.part-000001", "notes.json.part-Ab12Cd",
                                "lm.json.part-Zz9Yy8"};
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
        put(in_scratch(mine[i], path, sizeof path), "the user's own\n", 0644);
    const int held = open(in_scratch("lm.json.part-Zz9Yy8", path, sizeof path), O_RDONLY);
    ck_assert_int_ge(held, 0);
    ck_assert_int_eq(flock(held, LOCK_EX), 0);
    const char *const after[] = {"essay.part-second",      "lm.json.part-Zz9Yy8", "model.json",
                                 "notes.json.part-Ab12Cd", "notes.part-000001",   NULL};
    /* a save killed outright in the middle leaves the old model and no file */
    fsync_signal = SIGKILL;
    hostile_run_child_hook = preload_fsync_signal;
    struct hostile_result r = save_to(model);
    hostile_run_child_hook = NULL;
    ck_assert_int_eq(r.status, 128 + SIGKILL);
    hostile_result_free(&r);
    char *text = contents(model);
    ck_assert_str_eq(text, "the model of yesterday\n");
    free(text);
    ck_assert(holds_only(after));
    /* the next save, and one of a new file, touch nothing but their own */
    r = save_to(model);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    r = save_to(in_scratch("new.json", path, sizeof path));
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    const char *const last[] = {
        "essay.part-second",      "lm.json.part-Zz9Yy8", "model.json", "new.json",
        "notes.json.part-Ab12Cd", "notes.part-000001",   NULL};
    ck_assert(holds_only(last));
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++) {
        text = contents(in_scratch(mine[i], path, sizeof path));
        ck_assert_str_eq(text, "the user's own\n");
        free(text);
    }
    close(held);
}
END_TEST

/* ---- messages name the right thing -------------------------------------------------- */

START_TEST(messages_name_the_right_thing)
{
    char text[300], model[300], sentence[300], many[300], zw[300];
    put(in_scratch("text.txt", text, sizeof text),
        "the cat sat on the mat\nthe dog sat on the rug\nthe cat saw the dog\n", 0644);
    in_scratch("lm.json", model, sizeof model);
    struct hostile_result r =
        hostile_run((const char *[]){"--train", text, "--steps", "5", "--save", model, "--dump",
                                     "summary", NULL},
                    NULL, NULL, 60);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    hostile_result_free(&r);
    /* a sentence file is the sentence file, not the model */
    in_scratch("sentence.json", sentence, sizeof sentence);
    put(sentence, "{\"model\": \"lm.json\", \"words\": \"the zebra sat\"}\n", 0644);
    r = hostile_run((const char *[]){"--load", sentence, "--dump", "attention", NULL}, NULL, NULL,
                    20);
    expect(&r, 2, "unknown to the model the sentence file sentence.json names");
    put(sentence,
        "{\"model\": \"lm.json\", \"words\": \"the cat sat on the mat the dog sat on the "
        "rug the cat saw the dog the cat sat on the mat the dog sat\"}\n",
        0644);
    r = hostile_run((const char *[]){"--load", sentence, "--dump", "attention", NULL}, NULL, NULL,
                    20);
    expect(&r, 2, "words; the model the sentence file sentence.json names takes at most");
    /* too many rows of two words: a larger --context cannot help, and is not advised */
    FILE *f = fopen(in_scratch("many.txt", many, sizeof many), "w");
    ck_assert_ptr_nonnull(f);
    for (int i = 0; i < 140000; i++)
        fputs("a b\n", f);
    ck_assert_int_eq(fclose(f), 0);
    r = hostile_run((const char *[]){"--train", many, "--dump", "summary", NULL}, NULL, NULL, 30);
    ck_assert_msg(!strstr(r.err, "larger --context"), "advice that cannot help: %s", r.err);
    expect(&r, 2, "many.txt:131073: more than 131072 rows");
    /* a zero-width space is refused where it stands; a joiner stays in its word */
    put(in_scratch("zw.txt", zw, sizeof zw),
        "the cat\xE2\x80\x8Bsat on the mat\nthe dog sat on the rug\n", 0644);
    r = hostile_run((const char *[]){"--train", zw, "--dump", "summary", NULL}, NULL, NULL, 30);
    expect(&r, 2, "zw.txt:1:8: a zero-width space (U+200B)");
    put(zw, "the cat sat on the mat\nthe dog sat on the rug\nthe dog\xE2\x80\x8Dsat\n", 0644);
    r = hostile_run((const char *[]){"--train", zw, "--steps", "5", "--dump", "summary", "--format",
                                     "json", NULL},
                    NULL, NULL, 30);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_msg(strstr(r.out, "14 words"), "the joiner cut a word: %s", r.out);
    hostile_result_free(&r);
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
    tcase_add_test(tc, output_paths_are_refused_before_any_training);
    tcase_add_test(tc, standard_output_is_refused_before_training);
    tcase_add_test(tc, a_folder_without_permission_is_refused_before_training);
    tcase_add_test(tc, a_full_file_system_exits_1_saying_so);
    tcase_add_test(tc, a_signal_during_the_fsync_leaves_no_temporary);
    tcase_add_test(tc, a_save_removes_only_what_it_made);
    suite_add_tcase(s, tc);
    tc = tcase_create("read");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, empty_rows_are_refused_fast_with_little_memory);
    tcase_add_test(tc, a_token_named_twice_is_refused);
    tcase_add_test(tc, messages_name_the_right_thing);
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
