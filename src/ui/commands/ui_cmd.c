/* ui_cmd.c - the ':' command table, its dispatch, and the closest command
 * to a typo. */
#include "ui/commands/ui_cmd.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "lesson/lesson.h"

#include "io/view_desc.h"
#include "ui/train/ui_train.h"

/* A whole-string integer (no junk after it); false when there is none. */
static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    while (*end && isspace((unsigned char)*end))
        end++;
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

/* "on" / "off" / "" (toggle): returns the wanted state or -1 when bad. */
static int parse_switch(const char *arg, bool now)
{
    return *arg ? lesson_switch_from_name(arg) : !now;
}

const char *ui_command_split(const char *line, char *word, size_t n)
{
    while (*line == ':' || isspace((unsigned char)*line))
        line++;
    size_t len = 0;
    while (line[len] && !isspace((unsigned char)line[len]) && len + 1 < n)
        word[len] = line[len], len++;
    word[len] = '\0';
    const char *arg = line + len;
    while (isspace((unsigned char)*arg))
        arg++;
    return arg;
}

/* The handlers of the ':' commands that change the numbers or the stage
 * (the table is in ui_cmd.c). */

/* True, said, on the training screen: it shows the model training, and a
 * command that changes the stages' numbers would change what the status
 * line describes under it. */
static bool training_shown(struct ui_state *st, const struct ui_app *app, const char *name)
{
    if (!app || !ui_train_on_screen(app))
        return false;
    char range[16];
    ui_state_say(st, true,
                 ":%s changes the numbers on the stages, not the model training: %s show its "
                 "stages%s.",
                 name, mha_stage_range(range, sizeof range),
                 strcmp(name, "heads") ? "" : ", + - train it again with other heads");
    return true;
}

int ui_cmd_heads(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (training_shown(st, app, "heads"))
        return -1;
    long v;
    if (!parse_long(arg, 1, MHA_MAX_D_MODEL, &v)) {
        char list[256];
        ui_divisor_list(st->ex->d_model, list, sizeof list);
        ui_state_say(st, true, ":heads needs a count of heads; for d_model %d it can be %s.",
                     st->ex->d_model, list);
        return -1;
    }
    return ui_state_set_heads(st, (int)v);
}

int ui_cmd_d_model(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (training_shown(st, app, "d_model"))
        return -1;
    long v;
    if (!parse_long(arg, -1000000, 1000000, &v)) {
        ui_state_say(st, true, ":d_model needs a whole number from 1 to %d.", MHA_MAX_D_MODEL);
        return -1;
    }
    return ui_state_set_d_model(st, (int)v);
}

int ui_cmd_tokens(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (training_shown(st, app, "tokens"))
        return -1;
    return ui_state_set_tokens(st, arg);
}

int ui_cmd_seed(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (training_shown(st, app, "seed"))
        return -1;
    long v;
    if (!parse_long(arg, 0, 4294967295L, &v)) {
        ui_state_say(st, true, ":seed needs a whole number from 0 to 4294967295.");
        return -1;
    }
    return ui_state_set_seed(st, (unsigned long)v);
}

int ui_cmd_top_p(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)app;
    char *end = NULL;
    const double v = arg ? strtod(arg, &end) : 0.0;
    if (!arg || end == arg || *end) {
        ui_state_say(st, true, ":top-p needs a number above 0 and at most 1 (1: every word).");
        return -1;
    }
    return ui_state_set_top_p(st, v, ":top-p");
}

int ui_cmd_layer(struct ui_state *st, struct ui_app *app, const char *arg)
{
    long v;
    if (!parse_long(arg, 0, 1000, &v)) {
        if (st->ex->layers > 1)
            ui_state_say(st, true, ":layer needs a layer of the model, 0 to %d.",
                         st->ex->layers - 1);
        else
            ui_state_say(st, true, ":layer needs a layer's number (from 0) of a model of layers.");
        return -1;
    }
    return app ? ui_app_show_layer(app, (int)v) : ui_state_show_layer(st, (int)v);
}

int ui_cmd_stage(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)app;
    int s = mha_stage_from_name(arg);
    if (s < 0) {
        char names[160];
        ui_state_say(st, true, "No stage \"%s\": the stages are %s (or 0..%d).", arg,
                     mha_stage_names(names, sizeof names, ", "), MHA_STAGE_COUNT - 1);
        return -1;
    }
    return ui_state_set_stage(st, s);
}

int ui_cmd_view(struct ui_state *st, struct ui_app *app, const char *arg)
{
    int view = ui_view_mode_from_name(arg);
    if (view < 0) {
        char names[96];
        ui_state_say(st, true, "No view \"%s\": the views are %s (none goes back to the stage).",
                     arg, mha_view_names(names, sizeof names, " and "));
        return -1;
    }
    if (app && ui_train_on_screen(app)) /* the view of the model training (t comes back) */
        ui_train_to_explorer(app);
    ui_state_set_view(st, (enum mha_view)view);
    return 0;
}

int ui_cmd_corrupt(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (strlen(arg) >= sizeof st->view_corrupt) {
        ui_state_say(st, true, ":corrupt: %zu bytes of words; at most %zu.", strlen(arg),
                     sizeof st->view_corrupt - 1);
        return -1;
    }
    snprintf(st->view_corrupt, sizeof st->view_corrupt, "%s", arg);
    if (app && ui_train_on_screen(app)) /* the view of the model training (t comes back) */
        ui_train_to_explorer(app);
    ui_state_set_view(st, view_of_corrupt());
    if (!*arg)
        ui_state_say(st, false, "No corrupted sentence: the patching view says how to give one.");
    return 0;
}

/* :causal and :scale: on, off, or nothing to switch. */
static int switch_command(struct ui_state *st, const char *arg, bool causal)
{
    int want = parse_switch(arg, causal ? st->ex->causal : st->ex->scaled);
    if (want < 0) {
        ui_state_say(st, true, ":%s takes on or off.", causal ? "causal" : "scale");
        return -1;
    }
    if (want == (causal ? st->ex->causal : st->ex->scaled)) {
        ui_state_say(st, false, "%s is already %s.", causal ? "The causal mask" : "Scaling",
                     want ? "on" : "off");
        return 0;
    }
    return causal ? ui_state_toggle_causal(st) : ui_state_toggle_scaled(st);
}

int ui_cmd_causal(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (training_shown(st, app, "causal"))
        return -1;
    return switch_command(st, arg, true);
}

int ui_cmd_scale(struct ui_state *st, struct ui_app *app, const char *arg)
{
    if (training_shown(st, app, "scale"))
        return -1;
    return switch_command(st, arg, false);
}

int ui_state_command(struct ui_state *st, const char *line)
{
    return ui_cmd_run(st, NULL, line);
}

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
    {"layer", {NULL}, "layer N", "a model of layers: show layer N (from 0; y: the next)",
     UI_ARG_TEXT, false, ui_cmd_layer},
    {"top-p", {NULL}, "top-p P", "a language model: w draws from the nucleus of share P",
     UI_ARG_TEXT, false, ui_cmd_top_p},
    {"stage", {"s"}, "stage NAME", "go to a stage by name or number ({range})",
     UI_ARG_STAGE, false, ui_cmd_stage},
    {"view", {"v"}, "view NAME", "{views|, } or none",
     UI_ARG_VIEW, false, ui_cmd_view},
    {"corrupt", {NULL}, "corrupt WORDS", "the patching view's corrupted sentence",
     UI_ARG_TEXT, false, ui_cmd_corrupt},
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
    {"save", {NULL}, "save [FILE]", "the trained model shown to a file (--save's, or new)",
     UI_ARG_FILE, true, ui_cmd_save},
    {"save!", {NULL}, "save! FILE", "the same, replacing a file that is there",
     UI_ARG_FILE, true, ui_cmd_save_over},
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
