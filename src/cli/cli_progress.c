/* cli_progress.c - --reset-progress: forget what the reader did in the
 * lessons (every lesson, or with --lesson only that one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lesson/progress.h"

int cli_reset_progress(const char *lesson_spec)
{
    char path[4096];
    if (!progress_default_path(path, sizeof path)) {
        fprintf(stderr, "mha-explorer: --reset-progress: neither XDG_STATE_HOME nor HOME is "
                        "set, so there is no progress file\n");
        return CLI_EXIT_USAGE;
    }
    char *lesson = NULL;
    if (lesson_spec) {
        lesson = cli_find_lesson(lesson_spec);
        if (!lesson)
            return CLI_EXIT_USAGE; /* cli_find_lesson said why */
    }
    char warning[1200];
    struct progress *p = progress_load(path, warning, sizeof warning);
    if (!p) {
        free(lesson);
        fprintf(stderr, "mha-explorer: out of memory reading %s\n", path);
        return 1;
    }
    if (warning[0])
        fprintf(stderr, "mha-explorer: %s\n", warning);
    const char *slash = lesson ? strrchr(lesson, '/') : NULL;
    const char *id = lesson ? (slash ? slash + 1 : lesson) : NULL;
    progress_reset(p, id);
    struct mha_error err;
    mha_error_clear(&err);
    int rc = 0;
    if (progress_save(p, &err) != 0) {
        fprintf(stderr, "mha-explorer: --reset-progress: %s\n", err.text);
        rc = 1;
    } else if (!id) {
        fprintf(stderr, "mha-explorer: forgot the progress of every lesson (%s)\n", path);
    }
    progress_free(p);
    free(lesson);
    return rc;
}
