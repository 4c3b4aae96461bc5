/* cli_run.h - running mha-explorer ($MHA_EXPLORER) the way a user does, for
 * the command-line tests: its exit status, what it wrote to stdout and
 * stderr, and the usual expectations of an error. */
#ifndef CLI_RUN_H
#define CLI_RUN_H

struct cli_result {
    int status;
    char *out;
    char *err;
};

/* Run the program with args (NULL-terminated), stdin from /dev/null and
 * stdout/stderr captured in temporary files (so stdout is never a tty); a
 * run that hangs fails the test instead of the suite's time limit. */
struct cli_result cli_run(const char *const *args);
void cli_result_free(struct cli_result *r);

/* A usage or input error: status 2, message on stderr after the program's
 * name, stdout empty. */
void cli_expect_error(const char *const *args, const char *message);

/* rel under $MHA_TEST_DATA (tests/data when unset); the buffer is reused by
 * the next call. */
const char *cli_data_path(const char *rel);

#endif
