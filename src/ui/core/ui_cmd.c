/* ui_cmd.c - the ':' command table, its dispatch, and the closest command
 * to a typo. */
#include "ui/core/ui_cmd.h"

#include <stdio.h>
#include <string.h>

#include "ui/core/ui_app.h"
#include "ui/panes/ui_find.h"

static int cmd_help(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)app;
    (void)arg;
    st->help_open = true;
    st->help_scroll = 0;
    return 0;
}

static int cmd_quit(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)app;
    (void)arg;
    st->quit = true;
    return 0;
}

/* clang-format off */
const struct ui_cmd ui_cmd_table[] = {
    {"heads", {"h"}, "heads N", "use N heads (N must divide d_model)",
     UI_ARG_TEXT, false, ui_cmd_heads},
    {"d_model", {"d-model", "d"}, "d_model N", "model width N; heads move to the nearest divisor",
     UI_ARG_TEXT, false, ui_cmd_d_model},
    {"tokens", {"t"}, "tokens A B C", "new tokens: numbers from the seed, or a loaded model",
     UI_ARG_TEXT, false, ui_cmd_tokens},
    {"seed", {NULL}, "seed N", "draw every number again from seed N",
     UI_ARG_TEXT, false, ui_cmd_seed},
    {"load", {"e"}, "load NAME|FILE", "a bundled example (cat-sat) or a JSON file",
     UI_ARG_EXAMPLE, false, ui_cmd_load},
    {"examples", {NULL}, "examples", "list the bundled examples",
     UI_ARG_NONE, false, ui_cmd_examples},
    {"stage", {"s"}, "stage NAME", "go to a stage by name or number ({range})",
     UI_ARG_STAGE, false, ui_cmd_stage},
    {"view", {"v"}, "view NAME", "{views| or } instead of the stage; none: back",
     UI_ARG_VIEW, false, ui_cmd_view},
    {"causal", {NULL}, "causal on|off", "the causal mask",
     UI_ARG_SWITCH, false, ui_cmd_causal},
    {"scale", {NULL}, "scale on|off", "division by sqrt(d_k)",
     UI_ARG_SWITCH, false, ui_cmd_scale},
    {"find", {NULL}, "find WORD", "the cursor to that token's row (/WORD too; n: next)",
     UI_ARG_TEXT, true, ui_cmd_find_word},
    {"link", {NULL}, "link [FILE]", "the command line that reopens this screen",
     UI_ARG_FILE, true, ui_cmd_link},
    {"export", {NULL}, "export FMT [FILE]", "write the stage to a file (Tab lists the formats)",
     UI_ARG_FORMAT, true, ui_cmd_export},
    {"theme", {NULL}, "theme NAME", "{themes| or }",
     UI_ARG_THEME, true, ui_cmd_theme},
    {"present", {NULL}, "present on|off", "the presenter's layout",
     UI_ARG_SWITCH, true, ui_cmd_present},
    {"autoplay", {NULL}, "autoplay SECS|off", "autoplay every SECS seconds (0.1 to 3600)",
     UI_ARG_TEXT, true, ui_cmd_autoplay},
    {"class", {NULL}, "class", "the command students run to follow this session",
     UI_ARG_NONE, true, ui_cmd_class},
    {"help", {NULL}, "help", "this help",
     UI_ARG_NONE, false, cmd_help},
    {"quit", {"q"}, "q", "quit",
     UI_ARG_NONE, false, cmd_quit},
};
/* clang-format on */
const int ui_cmd_count = (int)(sizeof ui_cmd_table / sizeof ui_cmd_table[0]);

const struct ui_cmd *ui_cmd_find(const char *word)
{
    for (int i = 0; i < ui_cmd_count; i++) {
        const struct ui_cmd *c = &ui_cmd_table[i];
        if (!strcmp(c->name, word))
            return c;
        for (int a = 0; a < UI_CMD_MAX_ALIASES && c->aliases[a]; a++)
            if (!strcmp(c->aliases[a], word))
                return c;
    }
    return NULL;
}

int ui_cmd_distance(const char *a, const char *b)
{
    enum { MAX = 64 };
    const int n = (int)strnlen(a, MAX - 1), m = (int)strnlen(b, MAX - 1);
    static int d[MAX][MAX];
    for (int i = 0; i <= n; i++)
        d[i][0] = i;
    for (int j = 0; j <= m; j++)
        d[0][j] = j;
    for (int i = 1; i <= n; i++)
        for (int j = 1; j <= m; j++) {
            const int cost = a[i - 1] != b[j - 1];
            int best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < best)
                best = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[n][m];
}

const char *ui_cmd_suggest(const char *word)
{
    const char *best = NULL;
    int best_d = 3;
    const int len = (int)strlen(word);
    for (int i = 0; i < ui_cmd_count; i++) {
        const int dist = ui_cmd_distance(word, ui_cmd_table[i].name);
        if (dist < best_d && dist < len) {
            best_d = dist;
            best = ui_cmd_table[i].name;
        }
    }
    return best;
}

int ui_cmd_run(struct ui_state *st, struct ui_app *app, const char *line)
{
    char word[32], arg[UI_CMD_MAX];
    snprintf(arg, sizeof arg, "%s", ui_command_split(line, word, sizeof word));
    size_t len = strlen(arg);
    while (len > 0 && (arg[len - 1] == ' ' || arg[len - 1] == '\t'))
        arg[--len] = '\0'; /* Tab leaves a space after what it completed */
    if (!word[0])
        return 0;
    const struct ui_cmd *c = ui_cmd_find(word);
    if (!c) {
        const char *near = ui_cmd_suggest(word);
        if (near)
            ui_state_say(st, true, "Unknown command :%s. Did you mean :%s? (? lists them all)",
                         word, near);
        else
            ui_state_say(st, true,
                         "Unknown command :%s. Try :heads N, :d_model N, :tokens ..., :seed N, "
                         ":load NAME, :stage NAME (? lists them all).",
                         word);
        return -1;
    }
    if (c->app_only && !app) {
        ui_state_say(st, true, ":%s works in the explorer only.", c->name);
        return -1;
    }
    if (c->arg == UI_ARG_NONE && *arg) {
        ui_state_say(st, true, ":%s takes nothing after it (as in :%s).", c->name, c->usage);
        return -1;
    }
    return c->run(st, app, arg);
}
