/* ui_load.c - :load by name or path, and :examples: the bundled examples
 * (state/ui_examples.h) and files. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ui/modes/ui_parts.h"
#include "ui/commands/ui_cmd.h"
#include "ui/state/ui_examples.h"

/* "cat-sat, translate" */
static void name_list(const char *assets_dir, char *buf, size_t n)
{
    char names[32][UI_EXAMPLE_NAME_MAX];
    const int count = ui_examples_list(assets_dir, names, 32);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < count && used + UI_EXAMPLE_NAME_MAX + 3 < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", i ? ", " : "", names[i]);
}

int ui_load_example(struct ui_state *st, const char *assets, const struct ui_stream *stream,
                    const char *arg)
{
    if (!*arg) {
        ui_state_say(st, true,
                     ":load needs an example's name or a file, as in :load cat-sat or :load "
                     "~/example.json (:examples lists the names).");
        return -1;
    }
    char path[PATH_MAX];
    if (stream && ui_stream_streamed(stream)) { /* a bundled example by name, never a path */
        const size_t len = strlen(arg);
        const bool has_ext = len > 5 && strcmp(arg + len - 5, ".json") == 0;
        char did[PATH_MAX + 32];
        snprintf(did, sizeof did, "loaded the file %s", arg);
        if (strchr(arg, '/') || arg[0] == '~' || arg[0] == '.' || !assets ||
            snprintf(path, sizeof path, "%s/examples/%s%s", assets, arg, has_ext ? "" : ".json") >=
                (int)sizeof path ||
            access(path, R_OK) != 0) {
            ui_stream_refuses(stream, st, did);
            return 0;
        }
        return ui_state_load(st, path);
    }
    if (ui_example_resolve(assets, arg, path, sizeof path) != 0) {
        char list[512];
        name_list(assets, list, sizeof list);
        if (ui_path_expand(arg, path, sizeof path) == 0 && strchr(arg, '/'))
            return ui_state_load(st, path); /* the reader's message names what is wrong */
        ui_state_say(st, true, ":load %s: no such file and no bundled example of that name%s%s.",
                     arg, list[0] ? "; the examples are " : "", list);
        return -1;
    }
    return ui_state_load(st, path);
}

int ui_load_list(struct ui_state *st, const char *assets)
{
    char list[512];
    name_list(assets, list, sizeof list);
    if (!list[0]) {
        ui_state_say(st, true, "No bundled examples found in %s/examples.",
                     assets ? assets : "assets");
        return -1;
    }
    ui_state_say(st, false, "The bundled examples: %s. :load NAME opens one.", list);
    return 0;
}
