/* ui_complete.c - Tab completion of the ':' line from the command table. */
#include "ui/commands/ui_complete.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/colorscale.h"
#include "io/format.h"
#include "engine/mha.h"
#include "engine/views.h"
#include "ui/commands/ui_cmd.h"
#include "ui/commands/ui_examples.h"
#include "ui/state/ui_state.h"
#include "io/view_desc.h"

static void add(struct ui_completion *c, const char *word, const char *item)
{
    if (strncmp(item, word, strlen(word)) != 0 || c->n >= UI_COMPLETE_MAX)
        return;
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->items[i], item))
            return;
    const size_t len = strlen(item);
    if (len >= UI_COMPLETE_LEN)
        return;
    memcpy(c->items[c->n++], item, len + 1);
}

static void add_commands(struct ui_completion *c, const char *word)
{
    for (int i = 0; i < ui_cmd_count; i++)
        add(c, word, ui_cmd_table[i].name);
}

/* Files and folders whose path starts with word (a leading ~ is $HOME). */
static void add_files(struct ui_completion *c, const char *word)
{
    char full[PATH_MAX];
    if (ui_path_expand(word, full, sizeof full) != 0)
        return;
    const char *slash = strrchr(full, '/');
    const char *wslash = strrchr(word, '/');
    char dir[PATH_MAX];
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - full + 1), full);
    else
        snprintf(dir, sizeof dir, ".");
    const char *base = slash ? slash + 1 : full;
    const int typed_dir = wslash ? (int)(wslash - word + 1) : 0;
    DIR *d = opendir(dir);
    if (!d)
        return;
    const struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
            continue;
        if (e->d_name[0] == '.' && base[0] != '.')
            continue;
        if (strncmp(e->d_name, base, strlen(base)) != 0)
            continue;
        char path[PATH_MAX], item[UI_COMPLETE_LEN];
        struct stat sb;
        if (snprintf(path, sizeof path, "%s%s", slash ? dir : "", e->d_name) >= (int)sizeof path)
            continue;
        const bool folder = stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
        if (snprintf(item, sizeof item, "%.*s%s%s", typed_dir, word, e->d_name,
                     folder ? "/" : "") >= (int)sizeof item)
            continue;
        add(c, word, item);
    }
    closedir(d);
}

static void add_formats(struct ui_completion *c, const char *word)
{
    for (int f = 0; f < MHA_FORMAT_COUNT; f++)
        add(c, word, mha_format_get(f)->name);
}

static void add_argument(struct ui_completion *c, const struct ui_cmd *cmd, int arg_index,
                         const char *word, const char *assets_dir)
{
    switch (cmd->arg) {
    case UI_ARG_STAGE:
        for (int s = 0; arg_index == 0 && s < MHA_STAGE_COUNT; s++)
            add(c, word, mha_stage_name((enum mha_stage)s));
        break;
    case UI_ARG_VIEW:
        for (int v = 1; arg_index == 0 && v < MHA_VIEW_COUNT; v++)
            add(c, word, mha_view_name((enum mha_view)v));
        if (arg_index == 0)
            add(c, word, "none");
        break;
    case UI_ARG_SWITCH:
        if (arg_index == 0) {
            add(c, word, "on");
            add(c, word, "off");
        }
        break;
    case UI_ARG_THEME:
        for (int t = 0; arg_index == 0 && t < COLORSCALE_THEME_COUNT; t++)
            add(c, word, colorscale_theme_name((enum colorscale_theme)t));
        break;
    case UI_ARG_FORMAT:
        if (arg_index == 0)
            add_formats(c, word);
        else if (arg_index == 1)
            add_files(c, word);
        break;
    case UI_ARG_EXAMPLE:
        if (arg_index == 0 && !strchr(word, '/') && word[0] != '~') {
            char names[UI_COMPLETE_MAX][UI_EXAMPLE_NAME_MAX];
            const int n = ui_examples_list(assets_dir, names, UI_COMPLETE_MAX);
            for (int i = 0; i < n; i++)
                add(c, word, names[i]);
        }
        if (arg_index == 0)
            add_files(c, word);
        break;
    case UI_ARG_FILE:
        if (arg_index == 0)
            add_files(c, word);
        break;
    case UI_ARG_COMMAND:
        if (arg_index == 0)
            add_commands(c, word);
        break;
    case UI_ARG_NONE:
    case UI_ARG_TEXT:
        break;
    }
}

static int cmp_item(const void *a, const void *b)
{
    return strcmp((const char *)a, (const char *)b);
}

static void common_prefix(struct ui_completion *c)
{
    c->common[0] = '\0';
    if (c->n == 0)
        return;
    size_t len = strlen(c->items[0]);
    for (int i = 1; i < c->n; i++) {
        size_t k = 0;
        while (k < len && c->items[i][k] == c->items[0][k])
            k++;
        len = k;
    }
    while (len > 0 && ((unsigned char)c->items[0][len] & 0xC0u) == 0x80u)
        len--; /* not in the middle of a character */
    snprintf(c->common, sizeof c->common, "%.*s", (int)len, c->items[0]);
}

int ui_complete(const char *line, const char *assets_dir, struct ui_completion *c)
{
    memset(c, 0, sizeof *c);
    const char *p = line;
    while (*p == ':' || *p == ' ')
        p++;
    const char *last = strrchr(p, ' ');
    const char *word = last ? last + 1 : p;
    c->start = (int)(word - line);
    if (!last) {
        add_commands(c, word);
    } else {
        char name[32];
        const char *arg = ui_command_split(line, name, sizeof name);
        const struct ui_cmd *cmd = ui_cmd_find(name);
        int arg_index = 0;
        for (const char *q = arg; q < word; q++)
            if (*q == ' ' && q[1] != ' ')
                arg_index++;
        if (cmd)
            add_argument(c, cmd, arg_index, word, assets_dir);
    }
    qsort(c->items, (size_t)c->n, sizeof c->items[0], cmp_item);
    common_prefix(c);
    return c->n;
}

int ui_complete_apply(const char *line, const struct ui_completion *c, char *out, int n)
{
    if (c->n == 0)
        return 0;
    const char *word = line + c->start;
    const size_t cl = strlen(c->common);
    const bool whole = c->n == 1 && cl > 0 && c->common[cl - 1] != '/';
    if (strlen(word) >= cl && !whole)
        return 0;
    if (snprintf(out, (size_t)n, "%.*s%s%s", c->start, line, c->common, whole ? " " : "") >= n)
        return 0;
    return strcmp(out, line) != 0;
}
