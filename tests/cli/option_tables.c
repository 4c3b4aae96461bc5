/* option_tables.c - the tables scripts/gen-docs writes the docs and the
 * completions from, as JSON on standard output: the option table (each
 * row with where it applies and its man paragraph), the lists its values
 * take (stages, views, themes, formats, tasks, corpora), and the rows of
 * the lessons' scene-key table (lessons/README.md).  A row without a scope
 * or a man paragraph, or whose paragraph does not name it, is named on
 * standard error and nothing is printed (exit status 1); with --check it
 * only checks the rows. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cli_opt_table.h"
#include "engine/stages.h"
#include "train/train.h"
#include "io/view_desc.h"
#include "io/colorscale.h"
#include "io/format.h"
#include "lesson/lesson.h"
#include "lesson/lesson_state.h"

static json_t *str_or_null(const char *s)
{
    return s ? json_string(s) : json_null();
}

/* "a, b, c" as ["a", "b", "c"]. */
static json_t *split_list(const char *list)
{
    json_t *a = json_array();
    for (const char *p = list; *p;) {
        const char *end = strstr(p, ", ");
        const size_t n = end ? (size_t)(end - p) : strlen(p);
        json_array_append_new(a, json_stringn(p, n));
        p += n + (end ? 2 : 0);
    }
    return a;
}

/* The task table's rows: what README's and the man page's task lists say. */
static json_t *task_rows(json_t *names)
{
    json_t *rows = json_array();
    for (size_t i = 0; i < json_array_size(names); i++) {
        const struct train_task *t = train_task_find(json_string_value(json_array_get(names, i)));
        json_t *outputs = json_array();
        for (int k = 0; k < t->n_outputs; k++)
            json_array_append_new(outputs, json_string(t->output_names[k]));
        char lr[32];
        snprintf(lr, sizeof lr, "%g", (double)t->default_lr);
        json_array_append_new(
            rows, json_pack("{s:s, s:o, s:s, s:s, s:s, s:i, s:i, s:i, s:i, s:s}", "name", t->name,
                            "outputs", outputs, "summary", t->summary, "asks", t->asks, "head_work",
                            t->head_work, "d_model", t->default_d_model, "vocab", t->default_vocab,
                            "context", t->default_context, "steps", t->default_steps, "lr",
                            t->default_lr > 0 ? lr : ""));
    }
    return rows;
}

/* The views' rows, in the order v goes through them: each name and what
 * the man page's VIEWS says of it. */
static json_t *view_rows(void)
{
    json_t *rows = json_array();
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        const struct view_kind *k = view_kind((enum mha_view)v);
        json_array_append_new(rows, json_pack("{s:s, s:s}", "name", k->name, "man", k->man));
    }
    return rows;
}

/* What a lesson's focus may name on each stage: the stage, its matrices'
 * names (its default first) and whether they take a head. */
static json_t *stage_matrices(void)
{
    json_t *rows = json_array();
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const char *names[MHA_TENSOR_COUNT];
        bool per_head;
        const int n = lesson_stage_matrices(s, names, MHA_TENSOR_COUNT, &per_head);
        json_t *list = json_array();
        for (int i = 0; i < n; i++)
            json_array_append_new(list, json_string(names[i]));
        json_array_append_new(rows, json_pack("{s:s, s:o, s:b}", "stage",
                                              mha_stage_name((enum mha_stage)s), "matrices", list,
                                              "head", per_head));
    }
    return rows;
}

/* The format table's rows in the order --help lists them, each with its
 * kind: what README's and the man page's --format lists say. */
static json_t *format_rows(void)
{
    static const char *const kinds[] = {
        [MHA_FORMAT_PICTURE] = "picture", [MHA_FORMAT_TABLE] = "table", [MHA_FORMAT_DUMP] = "dump"};
    json_t *rows = json_array();
    char list[256];
    json_t *names = split_list(mha_format_list(MHA_FORMAT_ANY, ", ", list, sizeof list));
    for (size_t i = 0; i < json_array_size(names); i++) {
        const struct mha_format_info *f =
            mha_format_get(mha_format_from_name(json_string_value(json_array_get(names, i))));
        json_array_append_new(rows,
                              json_pack("{s:s, s:s}", "name", f->name, "kind", kinds[f->kind]));
    }
    json_decref(names);
    return rows;
}

/* The scene keys' rows, as lessons/README.md gives them. */
static json_t *scene_keys(void)
{
    json_t *rows = json_array();
    for (int k = 0; k < SCENE_KEY_COUNT; k++) {
        const struct lesson_scene_key_info *info = lesson_scene_key_info(k);
        json_array_append_new(rows, json_pack("{s:s, s:s, s:s}", "name", info->name, "value",
                                              info->value, "doc", info->doc));
    }
    return rows;
}

/* "\\-\\-d\\-model": how the man page spells --name. */
static void roff_flag(const char *name, char *buf, size_t n)
{
    size_t k = 0;
    for (const char *p = "--"; *p && k + 3 < n; p++)
        k += (size_t)snprintf(buf + k, n - k, "\\-");
    for (const char *p = name; *p && k + 3 < n; p++)
        k += (size_t)(*p == '-' ? snprintf(buf + k, n - k, "\\-")
                                : snprintf(buf + k, n - k, "%c", *p));
}

/* Each row has a scope (where it applies; the named-again entries too) and
 * a man paragraph whose tag line names it: the problems on stderr, and
 * how many. */
static int check_rows(const struct cli_opt *t, int n)
{
    int bad = 0;
    for (int i = 0; i < n; i++) {
        const char *who = t[i].name ? t[i].name : t[i].usage;
        char flag[128];
        roff_flag(t[i].name ? t[i].name : "", flag, sizeof flag);
        if (!t[i].scope) {
            fprintf(stderr,
                    "option_tables: %s%s: its row in the option table has no scope (the modes it "
                    "applies to, enum cli_mode in src/cli/cli_opt_table.h)\n",
                    t[i].name ? "--" : "", who);
            bad++;
        }
        if (!t[i].man || !t[i].man[0]) {
            fprintf(stderr,
                    "option_tables: %s%s: its row in the option table has no man paragraph (its "
                    "entry in the man page's OPTIONS, roff after its .TP)\n",
                    t[i].name ? "--" : "", who);
            bad++;
        } else if (t[i].name && !strstr(t[i].man, flag)) {
            fprintf(stderr,
                    "option_tables: --%s: its man paragraph's tag line does not name it (%s)\n",
                    t[i].name, flag);
            bad++;
        } else if (!strchr(t[i].man, '\n') || strchr(t[i].man, '\n')[1] == '\0') {
            fprintf(stderr,
                    "option_tables: %s%s: its man paragraph is a tag line alone, with no words "
                    "after it\n",
                    t[i].name ? "--" : "", who);
            bad++;
        }
    }
    return bad;
}

/* Where scope applies, as the refusals name it: ["the explorer's screen", ...]. */
static json_t *scope_list(unsigned scope)
{
    json_t *a = json_array();
    for (int b = 0; b < CLI_MODE_COUNT; b++)
        if (scope >> b & 1)
            json_array_append_new(a, json_string(cli_mode_info(1u << b)->where));
    return a;
}

int main(int argc, char **argv)
{
    int n;
    const struct cli_opt *t = cli_opt_table(&n);
    const int bad = check_rows(t, n);
    if (bad) {
        fprintf(stderr, "option_tables: %d problem%s in the option table\n", bad,
                bad == 1 ? "" : "s");
        return 1;
    }
    if (argc > 1 && !strcmp(argv[1], "--check")) {
        printf("option_tables: each of the %d rows has a scope and a man paragraph\n", n);
        return 0;
    }
    json_t *opts = json_array(), *groups = json_array(), *group_man = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(
            opts, json_pack("{s:o, s:o, s:i, s:o, s:o, s:s, s:o, s:o, s:o, s:s}", "name",
                            str_or_null(t[i].name), "arg", str_or_null(t[i].arg), "group",
                            (int)t[i].group, "usage", str_or_null(t[i].usage), "default",
                            str_or_null(t[i].def), "help", t[i].help, "brief",
                            str_or_null(t[i].brief), "values", str_or_null(t[i].values), "scope",
                            scope_list(t[i].scope), "man", t[i].man));
    for (int g = 0; g < CLI_GROUP_COUNT; g++) {
        json_array_append_new(groups, json_string(cli_opt_group_heading(g)));
        json_array_append_new(group_man,
                              json_pack("{s:s, s:s}", "intro", cli_opt_group_man_intro(g), "outro",
                                        cli_opt_group_man_outro(g)));
    }
    json_t *stages = json_array(), *titles = json_array();
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        json_array_append_new(stages, json_string(mha_stage_name((enum mha_stage)s)));
        json_array_append_new(titles, json_string(mha_stage_info((enum mha_stage)s)->title));
    }
    char views[256], themes[256], formats[256], tasks[512], corpora[256];
    mha_view_names(views, sizeof views, ", ");
    colorscale_theme_names(themes, sizeof themes, ", ");
    mha_format_list(MHA_FORMAT_ANY, ", ", formats, sizeof formats);
    train_task_names(tasks, sizeof tasks);
    cli_text_corpus_names(corpora, sizeof corpora);
    json_t *task_names = split_list(tasks);
    json_t *root = json_pack(
        "{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:O, s:o, s:o, s:o, s:o, s:o}", "options",
        opts, "groups", groups, "group_man", group_man, "stages", stages, "views",
        split_list(views), "view_rows", view_rows(), "themes", split_list(themes), "formats",
        split_list(formats), "format_rows", format_rows(), "tasks", task_names, "task_rows",
        task_rows(task_names), "corpora", split_list(corpora), "scene_keys", scene_keys(),
        "stage_titles", titles, "stage_matrices", stage_matrices());
    json_decref(task_names);
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER);
    json_decref(root);
    if (!text)
        return 1;
    puts(text);
    free(text);
    return 0;
}
