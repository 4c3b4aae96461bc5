/* test_ui_cmd.c - the ':' command table and what reads it (dispatch, the
 * closest command to a typo, Tab completion), the command line's history,
 * the key table bound once per mode, :load by name, /word, and :link's
 * pop-up lines and OSC 52 text.  No terminal needed. */
#include <check.h>
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/format.h"
#include "io/paths.h"
#include "ui/commands/ui_cmd.h"
#include "ui/commands/ui_complete.h"
#include "ui/state/ui_examples.h"
#include "ui/commands/ui_find.h"
#include "ui/state/ui_keys.h"
#include "ui/commands/ui_popup.h"
#include "ui/commands/ui_prompt.h"
#include "ui/state/ui_state.h"
#include "test_tmp.h"

static struct ui_state st;

static void setup(void)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
}

static void teardown(void)
{
    ui_state_done(&st);
}

/* ------------------------------------------------------------ TCase table */

START_TEST(test_every_name_once)
{
    for (int i = 0; i < ui_cmd_count; i++) {
        const struct ui_cmd *c = &ui_cmd_table[i];
        ck_assert(c->run != NULL);
        ck_assert_ptr_nonnull(c->usage);
        ck_assert_ptr_nonnull(c->help);
        ck_assert_ptr_eq(ui_cmd_find(c->name), c);
        for (int a = 0; a < UI_CMD_MAX_ALIASES && c->aliases[a]; a++)
            ck_assert_msg(ui_cmd_find(c->aliases[a]) == c, "alias %s of :%s belongs to another",
                          c->aliases[a], c->name);
        /* the help's usage starts with the name or an alias */
        char word[32];
        ui_command_split(c->usage, word, sizeof word);
        ck_assert_ptr_eq(ui_cmd_find(word), c);
    }
    ck_assert_ptr_null(ui_cmd_find("frobnicate"));
}
END_TEST

START_TEST(test_dispatch_through_the_table)
{
    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":h 3"), 0); /* an alias */
    ck_assert_int_eq(st.ex->heads, 3);
    /* 0 is a whole number: the message asks for a count, and lists the counts */
    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":heads 0"), -1);
    ck_assert_ptr_nonnull(strstr(st.msg, ":heads needs a count of heads; for d_model"));
    ck_assert_int_eq(st.ex->heads, 3);
    ck_assert_int_eq(ui_cmd_run(&st, NULL, "stage attention  "), 0); /* spaces after it */
    ck_assert_int_eq(st.stage, 4);
    ck_assert_int_eq(ui_cmd_run(&st, NULL, "help now"), -1);
    ck_assert_ptr_nonnull(strstr(st.msg, "takes nothing"));
    ck_assert_int_eq(ui_cmd_run(&st, NULL, "link"), -1); /* needs the explorer */
    ck_assert_ptr_nonnull(strstr(st.msg, "explorer"));
    ck_assert_int_eq(ui_cmd_run(&st, NULL, "help"), 0);
    ck_assert(st.help_open);
}
END_TEST

START_TEST(test_distance)
{
    /* the textbook cases of edit distance */
    ck_assert_int_eq(ui_cmd_distance("kitten", "sitting"), 3);
    ck_assert_int_eq(ui_cmd_distance("", "abc"), 3);
    ck_assert_int_eq(ui_cmd_distance("flaw", "lawn"), 2);
    ck_assert_int_eq(ui_cmd_distance("haeds", "heads"), 1); /* a swap of neighbours */
    ck_assert_int_eq(ui_cmd_distance("heads", "heads"), 0);
}
END_TEST

START_TEST(test_typo_suggests)
{
    ck_assert_str_eq(ui_cmd_suggest("haeds"), "heads");
    ck_assert_str_eq(ui_cmd_suggest("thme"), "theme");
    ck_assert_str_eq(ui_cmd_suggest("exprot"), "export");
    ck_assert_ptr_null(ui_cmd_suggest("zzzzzzzz"));
    ck_assert_ptr_null(ui_cmd_suggest("x")); /* one letter is no typo of anything */
    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":haeds 3"), -1);
    ck_assert_ptr_nonnull(strstr(st.msg, "Did you mean :heads?"));
    ck_assert_int_eq(st.ex->heads, 2);
}
END_TEST

/* ------------------------------------------------------------ TCase keys */

START_TEST(test_no_key_bound_twice)
{
    const struct ui_key_binding *a = NULL, *b = NULL;
    const int key = ui_key_find_double(&a, &b);
    ck_assert_msg(key == 0, "key %d is bound to \"%s\" and to \"%s\" in one mode", key,
                  a ? a->help : "", b ? b->help : "");
}
END_TEST

START_TEST(test_find_and_next_keys)
{
    ck_assert_int_eq(ui_key_action('/', false), UI_ACT_FIND);
    ck_assert_int_eq(ui_key_action('n', true), UI_ACT_FIND_NEXT);
}
END_TEST

/* ------------------------------------------------------------ TCase completion */

static struct ui_completion comp;

/* How many commands of the table are named starting with prefix. */
static int commands_starting(const char *prefix)
{
    int n = 0;
    for (int i = 0; i < ui_cmd_count; i++)
        n += !strncmp(ui_cmd_table[i].name, prefix, strlen(prefix));
    return n;
}

static bool has_item(const char *item)
{
    for (int i = 0; i < comp.n; i++)
        if (!strcmp(comp.items[i], item))
            return true;
    return false;
}

START_TEST(test_complete_commands)
{
    ck_assert_int_eq(ui_complete(":he", NULL, &comp), commands_starting("he"));
    ck_assert(has_item("heads") && has_item("help"));
    ck_assert_str_eq(comp.common, "he");
    ck_assert_int_eq(comp.start, 1);
    char out[UI_CMD_MAX];
    ck_assert_int_eq(ui_complete_apply(":he", &comp, out, sizeof out), 0); /* nothing to add */
    ck_assert_int_eq(ui_complete("ex", NULL, &comp),
                     commands_starting("ex")); /* examples, export */
    ck_assert_str_eq(comp.common, "ex");
    ck_assert_int_eq(ui_complete(":expo", NULL, &comp), 1);
    ck_assert_int_eq(ui_complete_apply(":expo", &comp, out, sizeof out), 1);
    ck_assert_str_eq(out, ":export ");
    /* every command of the table can be completed from its first letters */
    for (int i = 0; i < ui_cmd_count; i++) {
        ck_assert_int_ge(ui_complete(ui_cmd_table[i].name, NULL, &comp), 1);
        ck_assert(has_item(ui_cmd_table[i].name));
    }
}
END_TEST

START_TEST(test_complete_arguments)
{
    char out[UI_CMD_MAX];
    ck_assert_int_eq(ui_complete(":stage att", NULL, &comp), 1);
    ck_assert_int_eq(ui_complete_apply(":stage att", &comp, out, sizeof out), 1);
    ck_assert_str_eq(out, ":stage attention ");
    ck_assert_int_eq(ui_complete(":s t", NULL, &comp), 1); /* an alias, transpose */
    ck_assert_str_eq(comp.items[0], "transpose");
    ck_assert_int_eq(ui_complete(":view ", NULL, &comp), MHA_VIEW_COUNT); /* every view, none */
    for (int v = MHA_VIEW_NONE; v < MHA_VIEW_COUNT; v++)
        ck_assert_msg(has_item(mha_view_name((enum mha_view)v)), "%s", mha_view_name(v));
    ck_assert_int_eq(ui_complete(":theme p", NULL, &comp), 1);
    ck_assert_str_eq(comp.items[0], "projector");
    ck_assert_int_eq(ui_complete(":causal o", NULL, &comp), 2);
    ck_assert_str_eq(comp.common, "o");
    ck_assert_int_eq(ui_complete(":export ", NULL, &comp), MHA_FORMAT_COUNT);
    ck_assert(has_item("svg") && has_item("markdown") && has_item("latex") && has_item("json"));
    ck_assert_int_eq(ui_complete(":export m", NULL, &comp), 1);
    ck_assert_int_eq(ui_complete(":heads ", NULL, &comp), 0); /* a number: nothing to offer */
    ck_assert_int_eq(ui_complete(":nosuch x", NULL, &comp), 0);
}
END_TEST

START_TEST(test_complete_files)
{
    char dir[256];
    test_tmp_template(dir, sizeof dir, "mha-complete");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char path[PATH_MAX], line[PATH_MAX + 32], out[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/notes-one.csv", dir);
    fclose(fopen(path, "w"));
    snprintf(path, sizeof path, "%s/notes-two.csv", dir);
    fclose(fopen(path, "w"));
    snprintf(path, sizeof path, "%s/sub", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);

    snprintf(line, sizeof line, ":export csv %s/no", dir);
    ck_assert_int_eq(ui_complete(line, NULL, &comp), 2);
    snprintf(path, sizeof path, "%s/notes-", dir);
    ck_assert_str_eq(comp.common, path);
    snprintf(line, sizeof line, ":link %s/s", dir);
    ck_assert_int_eq(ui_complete(line, NULL, &comp), 1);
    ck_assert_int_eq(ui_complete_apply(line, &comp, out, sizeof out), 1);
    snprintf(path, sizeof path, ":link %s/sub/", dir); /* a folder: no space after it */
    ck_assert_str_eq(out, path);

    /* ~ is the home folder, and stays ~ on the line */
    setenv("HOME", dir, 1);
    ck_assert_int_eq(ui_complete(":load ~/notes-o", NULL, &comp), 1);
    ck_assert_str_eq(comp.items[0], "~/notes-one.csv");

    snprintf(path, sizeof path, "%s/notes-one.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/notes-two.csv", dir);
    unlink(path);
    snprintf(path, sizeof path, "%s/sub", dir);
    rmdir(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_complete_examples)
{
    const char *assets = mha_data_path("assets");
    ck_assert_ptr_nonnull(assets);
    char copy[PATH_MAX];
    snprintf(copy, sizeof copy, "%s", assets);
    ck_assert_int_ge(ui_complete(":load c", copy, &comp), 1);
    ck_assert(has_item("cat-sat"));
    ck_assert_int_ge(ui_complete(":load tr", copy, &comp), 1);
    ck_assert(has_item("translate"));
}
END_TEST

/* ------------------------------------------------------------ TCase history */

START_TEST(test_history)
{
    struct ui_history h;
    memset(&h, 0, sizeof h);
    ui_history_add(&h, "heads 3");
    ui_history_add(&h, "heads 3"); /* the same twice is kept once */
    ui_history_add(&h, "");
    ui_history_add(&h, "stage attention");
    ck_assert_int_eq(h.n, 2);
    ui_history_reset(&h);
    ck_assert_str_eq(ui_history_step(&h, -1, "tok"), "stage attention");
    ck_assert_str_eq(ui_history_step(&h, -1, "stage attention"), "heads 3");
    ck_assert_ptr_null(ui_history_step(&h, -1, "heads 3")); /* nothing older */
    ck_assert_str_eq(ui_history_step(&h, +1, "heads 3"), "stage attention");
    ck_assert_str_eq(ui_history_step(&h, +1, "stage attention"), "tok"); /* what was typed */
    ck_assert_ptr_null(ui_history_step(&h, +1, "tok"));
    for (int i = 0; i < UI_HISTORY_MAX + 10; i++) {
        char line[32];
        snprintf(line, sizeof line, "seed %d", i);
        ui_history_add(&h, line);
    }
    ck_assert_int_eq(h.n, UI_HISTORY_MAX);
    ck_assert_str_eq(h.lines[h.n - 1], "seed 73");
    ui_history_done(&h);
}
END_TEST

/* ------------------------------------------------------------ TCase examples */

START_TEST(test_load_by_name)
{
    const char *assets = mha_data_path("assets");
    ck_assert_ptr_nonnull(assets);
    char names[8][UI_EXAMPLE_NAME_MAX], path[PATH_MAX];
    ck_assert_int_eq(ui_examples_list(assets, names, 8), 2);
    ck_assert_str_eq(names[0], "cat-sat");
    ck_assert_str_eq(names[1], "translate");
    ck_assert_int_eq(ui_example_resolve(assets, "cat-sat", path, sizeof path), 0);
    ck_assert_ptr_nonnull(strstr(path, "examples/cat-sat.json"));
    ck_assert_int_eq(ui_example_resolve(assets, "no-such-example", path, sizeof path), -1);

    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":load cat-sat"), 0);
    ck_assert_str_eq(st.source, "cat-sat.json");
    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":load no-such-example"), -1);
    ck_assert_ptr_nonnull(strstr(st.msg, "cat-sat, translate"));
    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":examples"), 0);
    ck_assert_ptr_nonnull(strstr(st.msg, "cat-sat, translate"));
    ck_assert_int_eq(ui_cmd_run(&st, NULL, ":load /nonexistent/example.json"), -1);
}
END_TEST

START_TEST(test_tilde)
{
    char out[PATH_MAX];
    setenv("HOME", "/home/reader", 1);
    ck_assert_int_eq(ui_path_expand("~/a.json", out, sizeof out), 0);
    ck_assert_str_eq(out, "/home/reader/a.json");
    ck_assert_int_eq(ui_path_expand("~", out, sizeof out), 0);
    ck_assert_str_eq(out, "/home/reader");
    ck_assert_int_eq(ui_path_expand("~other/a.json", out, sizeof out), 0); /* left alone */
    ck_assert_str_eq(out, "~other/a.json");
    ck_assert_int_eq(ui_path_expand("a~b", out, sizeof out), 0);
    ck_assert_str_eq(out, "a~b");
}
END_TEST

START_TEST(test_find_row)
{
    char *labels[] = {"The", "cat", "sat", "on", "the", "mat"};
    ck_assert_int_eq(ui_find_row(labels, 6, "cat", -1), 1);
    ck_assert_int_eq(ui_find_row(labels, 6, "the", -1), 0); /* case ignored: The */
    ck_assert_int_eq(ui_find_row(labels, 6, "the", 0), 4);  /* n: the next one */
    ck_assert_int_eq(ui_find_row(labels, 6, "the", 4), 0);  /* and round again */
    ck_assert_int_eq(ui_find_row(labels, 6, "at", -1), 1);  /* contained: cat */
    ck_assert_int_eq(ui_find_row(labels, 6, "at", 1), 2);   /* sat */
    ck_assert_int_eq(ui_find_row(labels, 6, "dog", -1), -1);
    ck_assert_int_eq(ui_find_row(labels, 6, "", -1), -1);
}
END_TEST

/* ------------------------------------------------------------ TCase link */

START_TEST(test_shell_lines)
{
    const char *cmd = "mha-explorer --tokens 'the cat sat on the mat' --heads 3 --causal "
                      "--stage attention --theme projector";
    struct ui_line lines[16];
    const int n = ui_popup_shell_lines(cmd, 30, true, lines, 16);
    ck_assert_int_gt(n, 2);
    char joined[512] = "";
    for (int i = 0; i < n; i++) {
        char part[256];
        snprintf(part, sizeof part, "%.*s", (int)lines[i].len, lines[i].start);
        ck_assert_msg(ui_text_width(part, true) <= 28, "line %d too wide: %s", i, part);
        /* broken between arguments only: no line starts or ends inside the quotes */
        ck_assert_msg(part[0] != ' ' && part[strlen(part) - 1] != ' ', "%s", part);
        strcat(joined, i ? " " : "");
        strcat(joined, part);
    }
    ck_assert_str_eq(joined, cmd);
    ck_assert_int_eq(strncmp(lines[1].start, "'the cat sat on the mat'", 24), 0);
    /* wide enough: one line */
    ck_assert_int_eq(ui_popup_shell_lines(cmd, 200, true, lines, 16), 1);
    /* an argument longer than a line is cut between characters */
    const char *longarg = "mha-explorer --load /a/very/long/folder/name/that/goes/on/example.json";
    const int m = ui_popup_shell_lines(longarg, 20, true, lines, 16);
    size_t total = 0;
    for (int i = 0; i < m; i++) {
        ck_assert_int_le((int)lines[i].len, 18);
        total += lines[i].len;
    }
    ck_assert_int_eq((int)total + 2, (int)strlen(longarg)); /* two spaces between arguments */

    /* a quoted argument cut across lines keeps its spaces: the lines join back
     * exactly, with a space only where a line ended between arguments */
    const char *quoted = "mha-explorer --tokens 'a b c d e f g h i j k l m n o p q r' --heads 3";
    const int k = ui_popup_shell_lines(quoted, 14, true, lines, 16);
    char back[256] = "";
    for (int i = 0; i < k; i++) {
        strncat(back, lines[i].start, lines[i].len);
        if (i + 1 < k && lines[i].start + lines[i].len != lines[i + 1].start)
            strcat(back, " ");
    }
    ck_assert_str_eq(back, quoted);
}
END_TEST

START_TEST(test_base64)
{
    /* expected values from coreutils' base64 */
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"a", "YQ=="},
        {"ab", "YWI="},
        {"abc", "YWJj"},
        {"mha-explorer --heads 3", "bWhhLWV4cGxvcmVyIC0taGVhZHMgMw=="},
        {"mha-explorer --tokens 'l'\\''été là'",
         "bWhhLWV4cGxvcmVyIC0tdG9rZW5zICdsJ1wnJ8OpdMOpIGzDoCc="},
    };
    char out[128];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ck_assert_uint_eq(ui_base64(cases[i].in, strlen(cases[i].in), out, sizeof out),
                          strlen(cases[i].out));
        ck_assert_str_eq(out, cases[i].out);
    }
    ck_assert_uint_eq(ui_base64("abcdef", 6, out, 8), 0); /* 8 + NUL does not fit */
}
END_TEST

static Suite *cmd_suite(void)
{
    Suite *s = suite_create("ui_cmd");
    TCase *t = tcase_create("table");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_every_name_once);
    tcase_add_test(t, test_dispatch_through_the_table);
    tcase_add_test(t, test_distance);
    tcase_add_test(t, test_typo_suggests);
    suite_add_tcase(s, t);
    t = tcase_create("keys");
    tcase_add_test(t, test_no_key_bound_twice);
    tcase_add_test(t, test_find_and_next_keys);
    suite_add_tcase(s, t);
    t = tcase_create("completion");
    tcase_add_test(t, test_complete_commands);
    tcase_add_test(t, test_complete_arguments);
    tcase_add_test(t, test_complete_files);
    tcase_add_test(t, test_complete_examples);
    suite_add_tcase(s, t);
    t = tcase_create("history");
    tcase_add_test(t, test_history);
    suite_add_tcase(s, t);
    t = tcase_create("examples");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_load_by_name);
    tcase_add_test(t, test_tilde);
    tcase_add_test(t, test_find_row);
    suite_add_tcase(s, t);
    t = tcase_create("link");
    tcase_add_test(t, test_shell_lines);
    tcase_add_test(t, test_base64);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cmd_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
