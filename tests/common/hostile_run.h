/* hostile_run.h - running mha-explorer ($MHA_EXPLORER) on hostile input
 * with a time limit, for the tests of files others wrote. */
#ifndef HOSTILE_RUN_H
#define HOSTILE_RUN_H

#include <stdbool.h>

struct hostile_result {
    int status;     /* exit status, 128 + signal, or -1 when killed for time */
    bool timed_out; /* it ran longer than allowed and was killed */
    double seconds; /* how long it ran */
    double cpu;     /* processor time it used (user + system), seconds */
    long max_rss;   /* its peak resident memory, KiB */
    char *out, *err;
};

/* Run the program with args (NULL-terminated), stdin from /dev/null,
 * stdout to stdout_path (a file to capture when NULL), stderr captured,
 * MHA_DATA_DIR set to data_dir when not NULL.  Killed after limit seconds. */
struct hostile_result hostile_run(const char *const *args, const char *data_dir,
                                  const char *stdout_path, double limit);
void hostile_result_free(struct hostile_result *r);

/* When set, called in the child just before it becomes the program (same
 * process, so getpid() is the program's PID): to plant a file at a name
 * that holds the PID, or to set a resource limit. */
extern void (*hostile_run_child_hook)(void);

/* A description of the first byte sequence in s a terminal would obey
 * (ESC, BEL, another C0 control but tab/newline, DEL, a C1 control in UTF-8
 * or as a raw byte, a bidirectional control), or NULL when there is none. */
const char *hostile_unsafe(const char *s);

#endif
