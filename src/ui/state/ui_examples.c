/* ui_examples.c - the bundled examples found by name, and ~ in file names
 * (what :load and :examples read, ui/commands/ui_load.c). */
#include "ui/state/ui_examples.h"

#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int cmp_name(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

int ui_examples_list(const char *assets_dir, char names[][UI_EXAMPLE_NAME_MAX], int max)
{
    char dir[PATH_MAX];
    if (!assets_dir || snprintf(dir, sizeof dir, "%s/examples", assets_dir) >= (int)sizeof dir)
        return 0;
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int n = 0;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL && n < max) {
        const size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len <= 5 || len - 5 >= UI_EXAMPLE_NAME_MAX ||
            strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        snprintf(names[n], UI_EXAMPLE_NAME_MAX, "%.*s", (int)(len - 5), e->d_name);
        n++;
    }
    closedir(d);
    qsort(names, (size_t)n, sizeof names[0], cmp_name);
    return n;
}

int ui_path_expand(const char *path, char *out, size_t n)
{
    if (path[0] == '~' && (path[1] == '/' || path[1] == '\0')) {
        const char *home = getenv("HOME");
        if (!home || !*home)
            return -1;
        return snprintf(out, n, "%s%s", home, path + 1) < (int)n ? 0 : -1;
    }
    return snprintf(out, n, "%s", path) < (int)n ? 0 : -1;
}

static bool is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

int ui_example_resolve(const char *assets_dir, const char *arg, char *out, size_t n)
{
    if (ui_path_expand(arg, out, n) == 0 && is_file(out))
        return 0;
    if (!assets_dir || strchr(arg, '/'))
        return -1;
    const size_t len = strlen(arg);
    const bool has_ext = len > 5 && strcmp(arg + len - 5, ".json") == 0;
    if (snprintf(out, n, "%s/examples/%s%s", assets_dir, arg, has_ext ? "" : ".json") >= (int)n)
        return -1;
    return is_file(out) ? 0 : -1;
}
