/* cli_dump.c - --dump STAGE: the example's stage printed to stdout in the
 * format asked for, no terminal needed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "io/format.h"

/* Print the stage straight to stdout: every check on the input is done
 * before the first byte, so a refusal leaves stdout untouched, and the
 * output is written as it goes (the largest json dump is 1.7 GB of text and
 * needs no copy of itself). */
int cli_dump(const struct cli_options *o, const struct mha_example *ex)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_trace *t = mha_run(ex, &err);
    if (!t) {
        cli_report(&err);
        return CLI_EXIT_USAGE;
    }
    int rc = 0;
    errno = 0;
    if (mha_format_write(stdout, ex, t, o->dump_stage, o->format, &err) != 0) {
        if (ferror(stdout)) {
            cli_output_error(errno);
            rc = EXIT_FAILURE;
        } else {
            cli_report(&err);
            rc = CLI_EXIT_USAGE;
        }
    } else if (fflush(stdout) != 0) {
        cli_output_error(errno);
        rc = EXIT_FAILURE;
    }
    mha_trace_free(t);
    return rc;
}
