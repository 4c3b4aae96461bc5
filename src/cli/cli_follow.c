/* cli_follow.c - --follow on the command line: the teacher's recording
 * opened, its start waited for, and the explorer's options taken from it,
 * so each student opens on what the teacher opened. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/cli.h"
#include "io/rec_stream.h"

static const char *prog = "mha-explorer";

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Until the start lines are whole: an event or a "# at" line came, or the
 * stream stopped.  Ctrl-C ends the wait as it ends the program. */
static int wait_for_start(struct rec_follow *f)
{
    const double begin = clock_now();
    bool said = false;
    for (;;) {
        const double now = clock_now();
        rec_follow_poll(f, now, (size_t)1 << 20);
        if (f->s.started) /* a stream that stops later says so on the screen */
            return 0;
        if (f->state != REC_FOLLOW_LIVE)
            return -1;
        if (!said && now - begin > 0.5) {
            fprintf(stderr, "%s: waiting for the teacher's session to start in %s (Ctrl-C stops)\n",
                    prog, f->s.name);
            said = true;
        }
        const struct timespec pause = {0, 100 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

bool cli_follow_reopen(struct rec_follow *f)
{
    if (f->state != REC_FOLLOW_REPLACED || f->pipe)
        return false;
    struct rec_follow *next = malloc(sizeof *next);
    struct mha_error err;
    if (!next || rec_follow_open(next, f->path, clock_now(), &err) != 0) {
        free(next);
        return false;
    }
    const double begin = clock_now();
    while (!next->s.started && next->state == REC_FOLLOW_LIVE && clock_now() - begin < 5.0) {
        rec_follow_poll(next, clock_now(), (size_t)1 << 20);
        if (!next->s.started) {
            const struct timespec pause = {0, 50 * 1000 * 1000};
            nanosleep(&pause, NULL);
        }
    }
    if (!next->s.started || next->s.rec.version < 2) {
        rec_follow_close(next);
        free(next);
        return false;
    }
    rec_follow_close(f);
    *f = *next; /* the stream's reader points at its own recording: */
    f->s.rd.out = &f->s.rec;
    free(next);
    return true;
}

int cli_follow_begin(int argc, char **argv, struct cli_options *o, struct rec_follow *f)
{
    struct mha_error err;
    char msg[MHA_ERROR_FILE_MAX + MHA_ERROR_TEXT_MAX + 32];
    if (rec_follow_open(f, o->follow, clock_now(), &err) != 0) {
        fprintf(stderr, "%s: --follow: %s\n", prog, mha_error_format(&err, msg, sizeof msg));
        return CLI_EXIT_USAGE;
    }
    if (wait_for_start(f) != 0) {
        char why[400];
        rec_follow_why(f, clock_now(), why, sizeof why);
        fprintf(stderr, "%s: --follow: %s before the teacher's session started\n", prog,
                why[0] ? why : "the stream stopped");
        rec_follow_close(f);
        return CLI_EXIT_USAGE;
    }
    if (f->s.rec.version < 2) {
        fprintf(stderr,
                "%s: --follow: %s is a recording of keys only (version 1); a class follows what "
                "--record writes\n",
                prog, f->s.name);
        rec_follow_close(f);
        return CLI_EXIT_USAGE;
    }
    const int rc = cli_replay_options(argc, argv, f->s.name, &f->s.rec, o);
    if (rc != CLI_CONTINUE)
        rec_follow_close(f);
    return rc;
}
