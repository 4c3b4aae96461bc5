/* paths.c - finding the data directory. */
#include "io/paths.h"

#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mha_config.h"

static bool has_lessons(const char *dir)
{
    char path[PATH_MAX + 16];
    struct stat st;
    snprintf(path, sizeof path, "%s/lessons", dir);
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

const char *mha_data_dir(void)
{
    static char found[PATH_MAX];
    static bool done;
    if (done)
        return found[0] ? found : NULL;
    done = true;
    const char *env = getenv("MHA_DATA_DIR");
    if (env && *env) {
        snprintf(found, sizeof found, "%s", env);
        return found;
    }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        /* build/src/mha-explorer -> the source tree two levels up;
         * PREFIX/bin/mha-explorer -> PREFIX/share/mha-explorer */
        const char *rel[] = {"/../..", "/../share/mha-explorer"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0]; i++) {
            char cand[PATH_MAX];
            snprintf(cand, sizeof cand, "%.*s%s", (int)(sizeof cand - 32), exe, rel[i]);
            char real[PATH_MAX];
            if (realpath(cand, real) && has_lessons(real)) {
                snprintf(found, sizeof found, "%s", real);
                return found;
            }
        }
    }
    const char *fixed[] = {MHA_DATADIR, MHA_SOURCE_ROOT};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        if (has_lessons(fixed[i])) {
            snprintf(found, sizeof found, "%s", fixed[i]);
            return found;
        }
    return NULL;
}

const char *mha_data_path(const char *sub)
{
    static char path[PATH_MAX + 64];
    const char *dir = mha_data_dir();
    if (!dir)
        return NULL;
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    return path;
}
