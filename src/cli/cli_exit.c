/* cli_exit.c - the standard output checked once more at exit, so that no
 * printing mode (--help, --version, --list-lessons, ...) reports success
 * when what it printed was lost (a full disk, /dev/full, a closed pipe). */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"

static bool reported;

void cli_output_error(int code)
{
    if (reported)
        return;
    reported = true;
    if (code)
        fprintf(stderr, "mha-explorer: cannot write the output: %s\n", strerror(code));
    else
        fputs("mha-explorer: cannot write the output\n", stderr);
}

static void close_stdout(void)
{
    bool bad = ferror(stdout) != 0;
    errno = 0;
    if (fflush(stdout) != 0)
        bad = true;
    int saved = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = true;
        saved = errno;
    }
    if (!bad)
        return;
    cli_output_error(saved);
    _exit(EXIT_FAILURE);
}

void cli_check_stdout_at_exit(void)
{
    atexit(close_stdout);
}
