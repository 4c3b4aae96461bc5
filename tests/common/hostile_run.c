/* hostile_run.c - a child with a deadline, and a scan for escapes. */
#include "hostile_run.h"
#include "test_tmp.h"

#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char *slurp(int fd)
{
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    ck_assert_ptr_nonnull(buf);
    lseek(fd, 0, SEEK_SET);
    ssize_t n;
    while ((n = read(fd, buf + len, cap - len - 1)) > 0) {
        len += (size_t)n;
        if (cap - len < 2) {
            buf = realloc(buf, cap *= 2);
            ck_assert_ptr_nonnull(buf);
        }
    }
    buf[len] = '\0';
    return buf;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void (*hostile_run_child_hook)(void);

struct hostile_result hostile_run(const char *const *args, const char *data_dir,
                                  const char *stdout_path, double limit)
{
    const char *exe = getenv("MHA_EXPLORER");
    ck_assert_msg(exe != NULL, "MHA_EXPLORER is not set");
    char out_path[256], err_path[256];
    test_tmp_template(out_path, sizeof out_path, "mha-hostile-out");
    test_tmp_template(err_path, sizeof err_path, "mha-hostile-err");
    int out_fd = mkstemp(out_path), err_fd = mkstemp(err_path);
    ck_assert(out_fd >= 0 && err_fd >= 0);
    unlink(out_path);
    unlink(err_path);
    char *argv[40];
    int argc = 0;
    argv[argc++] = (char *)exe;
    for (int i = 0; args[i] && argc < 39; i++)
        argv[argc++] = (char *)args[i];
    argv[argc] = NULL;
    const double start = now();
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int in = open("/dev/null", O_RDONLY);
        dup2(in, 0);
        if (stdout_path) {
            int o = open(stdout_path, O_WRONLY);
            dup2(o, 1);
        } else {
            dup2(out_fd, 1);
        }
        dup2(err_fd, 2);
        if (data_dir)
            setenv("MHA_DATA_DIR", data_dir, 1);
        if (hostile_run_child_hook)
            hostile_run_child_hook();
        execv(exe, argv);
        _exit(127);
    }
    struct hostile_result r = {0};
    int st = 0;
    struct rusage ru = {0};
    for (;;) {
        pid_t w = wait4(pid, &st, WNOHANG, &ru);
        ck_assert_int_ge(w, 0);
        if (w == pid)
            break;
        if (now() - start > limit) {
            kill(pid, SIGKILL);
            wait4(pid, &st, 0, &ru);
            r.timed_out = true;
            break;
        }
        usleep(2000);
    }
    r.seconds = now() - start;
    r.cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
            (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
    r.max_rss = ru.ru_maxrss;
    r.status = r.timed_out ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    r.out = slurp(out_fd);
    r.err = slurp(err_fd);
    close(out_fd);
    close(err_fd);
    return r;
}

void hostile_result_free(struct hostile_result *r)
{
    free(r->out);
    free(r->err);
}

const char *hostile_unsafe(const char *str)
{
    static char what[64];
    for (const unsigned char *s = (const unsigned char *)str; *s; s++) {
        if ((*s < 0x20 && *s != '\n' && *s != '\t' && *s != '\r') || *s == 0x7f) {
            snprintf(what, sizeof what, "the control byte 0x%02X", *s);
            return what;
        }
        if (*s == 0xC2 && s[1] >= 0x80 && s[1] <= 0x9F) {
            snprintf(what, sizeof what, "the C1 control U+%04X", s[1]);
            return what;
        }
        if (*s == 0xE2 && s[1] == 0x80 &&
            ((s[2] >= 0xAA && s[2] <= 0xAE) || s[2] == 0x8E || s[2] == 0x8F)) {
            snprintf(what, sizeof what, "a bidirectional control (E2 80 %02X)", s[2]);
            return what;
        }
        if (*s == 0xE2 && s[1] == 0x81 && s[2] >= 0xA6 && s[2] <= 0xA9)
            return "a bidirectional isolate";
        if (*s >= 0x80 && *s <= 0xBF && (s == (const unsigned char *)str || s[-1] < 0x80)) {
            snprintf(what, sizeof what, "the stray byte 0x%02X", *s);
            return what;
        }
    }
    return NULL;
}
