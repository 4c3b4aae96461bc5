/* cli_help.c - --help: what every option does, from the option table
 * (cli_opt_table.c), with the lists (stages, formats, views, themes, tasks)
 * from the program's own tables; --man: the man page, where it is. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opt_table.h"
#include "engine/stages.h"
#include "train/train.h"
#include "engine/views.h"
#include "io/colorscale.h"
#include "io/format.h"
#include "io/view_desc.h"
#include "mha_config.h"

/* Before the groups, and after them. */
static const char usage_head[] =
    "Usage: mha-explorer [OPTION]...\n"
    "Explore transformer multi-head attention step by step, with real numbers.\n"
    "\n"
    "With no --dump, opens the interactive explorer in the terminal on the\n"
    "step-by-step example (4 tokens, d_model 6, 2 heads, seed 42).\n"
    "\n";

static const char usage_end[] =
    "--tokens, --d-model and --seed describe a generated example and cannot be\n"
    "combined with --load of an example file (--tokens can with a model file,\n"
    "and --seed with --generate);\n"
    "--heads, --causal and --no-scale apply to either.\n"
    "\n"
    "Exit status: 0 on success, 1 on an internal failure, 2 on a usage or input\n"
    "error.\n";

/* "a, b, c" -> "a b c", in place: a list as the help's columns show it. */
static char *spaced(char *list)
{
    char *o = list;
    for (const char *p = list; *p; p++)
        if (!(p[0] == ',' && p[1] == ' '))
            *o++ = *p;
    *o = '\0';
    return list;
}

/* The lists a help line names by @NAME@, from the program's tables. */
struct help_lists {
    char stages[128], range[16], formats[128], views[256], themes[96], tasks[256];
    const char *theme;
};

/* Text with its @NAME@s replaced from l, into out (n bytes). */
static void fill(const char *text, const struct help_lists *l, char *out, size_t n)
{
    const struct {
        const char *name, *value;
    } fills[] = {{"@STAGES@", l->stages}, {"@RANGE@", l->range},   {"@FORMATS@", l->formats},
                 {"@VIEWS@", l->views},   {"@THEMES@", l->themes}, {"@THEME@", l->theme},
                 {"@TASKS@", l->tasks}};
    size_t used = 0;
    out[0] = '\0';
    for (const char *p = text; *p && used + 1 < n;) {
        size_t i = 0, k = sizeof fills / sizeof fills[0];
        while (i < k && strncmp(p, fills[i].name, strlen(fills[i].name)) != 0)
            i++;
        if (i < k) {
            used += (size_t)snprintf(out + used, n - used, "%s", fills[i].value);
            used = used < n ? used : n - 1;
            p += strlen(fills[i].name);
        } else {
            out[used++] = *p++;
            out[used] = '\0';
        }
    }
}

/* Columns of UTF-8 text s's first n bytes (one a character). */
static size_t columns(const char *s, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n; i++)
        c += ((unsigned char)s[i] & 0xC0) != 0x80;
    return c;
}

/* A filled help line in the right-hand column (from column 23 of 80):
 * broken at a space where a list made it longer, the rest under it. */
static void put_wrapped(const char *line)
{
    enum { INDENT = 23, WIDTH = 80 };
    for (;;) {
        const size_t len = strlen(line);
        if (INDENT + columns(line, len) <= WIDTH) {
            printf("%s\n", line);
            return;
        }
        size_t cut = 0;
        for (size_t i = 0; i < len && INDENT + columns(line, i) <= WIDTH; i++)
            if (line[i] == ' ')
                cut = i;
        if (cut == 0) { /* one word wider than the column: as it is */
            printf("%s\n", line);
            return;
        }
        printf("%.*s\n%*s", (int)cut, line, INDENT, "");
        line += cut + 1;
    }
}

/* One entry: its left column, then its lines under one another. */
static void put_entry(const struct cli_opt *o, const struct help_lists *l)
{
    char left[64];
    if (o->usage)
        snprintf(left, sizeof left, "%s", o->usage);
    else
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
    printf(strlen(left) < 20 ? "  %-21s" : "  %s  ", left);
    for (const char *p = o->help; *p;) {
        const char *nl = strchr(p, '\n');
        const size_t n = nl ? (size_t)(nl - p) : strlen(p);
        char line[160], filled[512];
        snprintf(line, sizeof line, "%.*s", (int)n, p);
        fill(line, l, filled, sizeof filled);
        put_wrapped(filled);
        p += n + (nl != NULL);
        if (*p)
            printf("%23s", "");
    }
}

void cli_print_help(void)
{
    struct help_lists l;
    mha_stage_names(l.stages, sizeof l.stages, ", ");
    spaced(l.stages);
    mha_stage_range(l.range, sizeof l.range);
    mha_format_list(MHA_FORMAT_ANY, " or ", l.formats, sizeof l.formats);
    mha_view_names(l.views, sizeof l.views, ", ");
    colorscale_theme_names(l.themes, sizeof l.themes, " or ");
    l.theme = colorscale_theme_name(COLORSCALE_THEME_DARK);
    train_task_names(l.tasks, sizeof l.tasks);
    int n;
    const struct cli_opt *t = cli_opt_table(&n);
    fputs(usage_head, stdout);
    for (int g = 0; g < CLI_GROUP_COUNT; g++) {
        if (cli_opt_group_heading(g)[0])
            printf("%s\n", cli_opt_group_heading(g));
        fputs(cli_opt_group_intro(g), stdout);
        for (int i = 0; i < n; i++)
            if (t[i].group == (enum cli_opt_group)g)
                put_entry(&t[i], &l);
        putchar('\n');
    }
    fputs(usage_end, stdout);
}

/* Whether path names a regular file. */
static bool is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int cli_show_man(void)
{
    /* next to the program: build/src/ -> the source tree's doc/, PREFIX/bin/
     * -> PREFIX/share/man/man1/; then where the build would install it */
    char exe[PATH_MAX], page[PATH_MAX + 64];
    page[0] = '\0';
    const ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash)
            *slash = '\0';
        const char *rel[] = {"/../../doc/mha-explorer.1", "/../share/man/man1/mha-explorer.1"};
        for (size_t i = 0; i < sizeof rel / sizeof rel[0] && !page[0]; i++) {
            snprintf(page, sizeof page, "%s%s", exe, rel[i]);
            if (!is_file(page))
                page[0] = '\0';
        }
    }
    const char *fixed[] = {MHA_MANPAGE, MHA_SOURCE_ROOT "/doc/mha-explorer.1"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && !page[0]; i++)
        if (is_file(fixed[i]))
            snprintf(page, sizeof page, "%s", fixed[i]);
    if (!page[0]) {
        fprintf(stderr, "mha-explorer: --man: the man page is not where it was installed (%s)\n",
                MHA_MANPAGE);
        return 1;
    }
    fflush(stdout);
    execlp("man", "man", "-l", page, (char *)NULL);
    const int e = errno;
    fprintf(stderr, "mha-explorer: --man: cannot run man (%s); the manual is %s\n", strerror(e),
            page);
    return 1;
}
