/* cli_run.c - running mha-explorer for the command-line tests (cli_run.h),
 * on top of hostile_run. */
#include "cli_run.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostile_run.h"

/* longer than any command a test runs, shorter than the suite's limit */
#define CLI_RUN_LIMIT_SECONDS 240

struct cli_result cli_run(const char *const *args)
{
    struct hostile_result h = hostile_run(args, NULL, NULL, CLI_RUN_LIMIT_SECONDS);
    ck_assert_msg(!h.timed_out, "%s ran for more than %d s", args[0], CLI_RUN_LIMIT_SECONDS);
    return (struct cli_result){h.status, h.out, h.err};
}

void cli_result_free(struct cli_result *r)
{
    free(r->out);
    free(r->err);
}

void cli_expect_error(const char *const *args, const char *message)
{
    struct cli_result r = cli_run(args);
    ck_assert_msg(r.status == 2, "status %d for %s (stderr: %s)", r.status, args[0], r.err);
    ck_assert_msg(strstr(r.err, message) != NULL, "stderr '%s' lacks '%s'", r.err, message);
    ck_assert_msg(strncmp(r.err, "mha-explorer: ", 14) == 0, "stderr '%s' lacks the name", r.err);
    ck_assert_msg(r.out[0] == '\0', "stdout not empty after an error: '%s'", r.out);
    cli_result_free(&r);
}

const char *cli_data_path(const char *rel)
{
    static char buf[1024];
    const char *dir = getenv("MHA_TEST_DATA");
    snprintf(buf, sizeof buf, "%s/%s", dir ? dir : "tests/data", rel);
    return buf;
}
