/* test_docs_lists.c - README.md and the man page (doc/mha-explorer.1) are
 * written by hand, so they are held to the program's tables (and README to
 * its length, 300 lines at most, and its links): every stage
 * (src/engine/stages.c), view (src/engine/views.h), output format
 * (src/io/format.c), theme (src/io/colorscale.c) and ':' command
 * (src/ui/commands/ui_cmd.c) is named where the page lists them.  A row added
 * to a table without a word in the docs fails here.  (lessons/README.md and
 * the scene keys: test_lesson_keys.c.)  So are the shell completion files
 * (scripts/completions).  The program's own words are
 * held to the tables too: the help screen, --help and the usage errors. */
#include <check.h>
#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mha_config.h"
#include "engine/stages.h"
#include "engine/views.h"
#include "io/colorscale.h"
#include "io/format.h"
#include "ui/panes/ui_panes.h"
#include "ui/commands/ui_cmd.h"
#include "ui/state/ui_words.h"
#include "hostile_run.h"
#include "io/view_desc.h"

/* A file of the source tree as a string, roff's "\-" read as "-". */
static char *source_file(const char *name)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", MHA_SOURCE_ROOT, name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char buf[1 << 18];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *text = malloc(n + 1), *o = text;
    ck_assert_ptr_nonnull(text);
    for (const char *s = buf; *s; s++) {
        if (s[0] == '\\' && s[1] == '-')
            s++;
        *o++ = *s;
    }
    *o = '\0';
    return text;
}

/* The part of text from the line that starts with start up to the next
 * line that starts with end (or the end of text): a new string. */
static char *part(const char *text, const char *start, const char *end)
{
    const char *from = text;
    size_t sl = strlen(start);
    while (from && !(strncmp(from, start, sl) == 0 && (from == text || from[-1] == '\n')))
        from = (from = strchr(from, '\n')) ? from + 1 : NULL;
    ck_assert_msg(from != NULL, "no line starts with \"%s\"", start);
    const char *to = strchr(from, '\n');
    while (to && strncmp(to + 1, end, strlen(end)) != 0)
        to = strchr(to + 1, '\n');
    const size_t n = to ? (size_t)(to - from) : strlen(from);
    char *p = strndup(from, n);
    ck_assert_ptr_nonnull(p);
    return p;
}

static bool word_char(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

/* word in text with no letter, digit or _ right before or after it. */
static bool has_word(const char *text, const char *word)
{
    const size_t n = strlen(word);
    for (const char *p = strstr(text, word); p; p = strstr(p + 1, word))
        if ((p == text || !word_char(p[-1])) && !word_char(p[n]))
            return true;
    return false;
}

/* ------------------------------------------------------------ the program's words */

/* Every name of every list in text (where says which text it is). */
static void names_all(const char *text, const char *where, bool stages, bool formats, bool views,
                      bool themes)
{
    for (int s = 0; stages && s < MHA_STAGE_COUNT; s++)
        ck_assert_msg(has_word(text, mha_stage_info((enum mha_stage)s)->name),
                      "%s does not name stage %s:\n%s", where,
                      mha_stage_info((enum mha_stage)s)->name, text);
    for (int f = 0; formats && f < MHA_FORMAT_COUNT; f++)
        ck_assert_msg(has_word(text, mha_format_get(f)->name), "%s does not name format %s", where,
                      mha_format_get(f)->name);
    for (int v = 1; views && v < MHA_VIEW_COUNT; v++)
        ck_assert_msg(has_word(text, mha_view_name((enum mha_view)v)),
                      "%s does not name view %s:\n%s", where, mha_view_name((enum mha_view)v),
                      text);
    for (int t = 0; themes && t < COLORSCALE_THEME_COUNT; t++)
        ck_assert_msg(has_word(text, colorscale_theme_name((enum colorscale_theme)t)),
                      "%s does not name theme %s:\n%s", where,
                      colorscale_theme_name((enum colorscale_theme)t), text);
}

START_TEST(test_words_expand)
{
    char buf[256], names[128];
    ck_assert_str_eq(ui_words_expand("next: {themes|, }.", buf, sizeof buf),
                     "next: dark, light, projector, mono.");
    ck_assert_str_eq(ui_words_expand("{views| or }", buf, sizeof buf),
                     mha_view_names(names, sizeof names, " or "));
    char range[16];
    snprintf(names, sizeof names, "(%s)", mha_stage_range(range, sizeof range));
    ck_assert_str_eq(ui_words_expand("({range})", buf, sizeof buf), names);
    snprintf(names, sizeof names, "0 … %d", MHA_STAGE_COUNT - 1);
    ck_assert_str_eq(ui_words_expand("0 … {last_stage}", buf, sizeof buf), names);
    ck_assert_str_eq(ui_words_expand("{stages| and }", buf, sizeof buf),
                     mha_stage_names(names, sizeof names, " and "));
    ck_assert_str_eq(ui_words_expand("{formats| or }", buf, sizeof buf),
                     mha_format_list(MHA_FORMAT_ANY, " or ", names, sizeof names));
    /* a brace that names no list stays as it is */
    ck_assert_str_eq(ui_words_expand("{x} {views", buf, sizeof buf), "{x} {views");
    ck_assert_str_eq(ui_words_expand("{themes| or }", buf, 12), "dark, light");
}
END_TEST

/* The help screen's lines for T, :stage, :view and :theme name every
 * entry of their tables (v names none: it goes through them in order), and
 * no line is left with a {list} in it. */
START_TEST(test_help_screen_lists_from_tables)
{
    char key[64], text[512], more_key[64], more[160];
    int found = 0;
    for (int i = 0; ui_help_line(i, key, sizeof key, text, sizeof text); i++) {
        /* a key's words go on under it on lines with no key */
        while (key[0] && ui_help_line(i + 1, more_key, sizeof more_key, more, sizeof more) &&
               !more_key[0] && more[0] && strlen(text) + strlen(more) + 2 < sizeof text) {
            strcat(strcat(text, " "), more);
            i++;
        }
        ck_assert_msg(!strchr(text, '{'), "help line %d keeps a list unexpanded: %s", i, text);
        if (!strcmp(key, "v")) { /* names none: it would grow with each view */
            for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++)
                ck_assert_msg(!has_word(text, mha_view_name((enum mha_view)v)),
                              "the help of v names view %s: %s", mha_view_name((enum mha_view)v),
                              text);
            found++;
        } else if (!strcmp(key, "T") || !strcmp(key, "theme NAME")) {
            names_all(text, key, false, false, false, true);
            found++;
        } else if (!strcmp(key, "view NAME")) {
            names_all(text, key, false, false, true, false);
            found++;
        } else if (!strcmp(key, "stage NAME")) {
            char range[16];
            ck_assert_ptr_nonnull(strstr(text, mha_stage_range(range, sizeof range)));
            found++;
        }
    }
    ck_assert_int_eq(found, 5);
}
END_TEST

/* --help and the usage errors list stages, formats, views and themes from
 * the tables; --help's lines fit 80 columns. */
START_TEST(test_cli_lists_from_tables)
{
    struct hostile_result r = hostile_run((const char *[]){"--help", NULL}, NULL, NULL, 30);
    ck_assert_int_eq(r.status, 0);
    names_all(r.out, "--help", true, true, true, true);
    /* it fits a terminal of 80 columns: no line wraps there */
    int line = 1, cols = 0;
    for (const char *p = r.out; *p; p++) {
        if (*p == '\n') {
            line++;
            cols = 0;
        } else if (((unsigned char)*p & 0xC0) != 0x80) { /* a character's first byte */
            cols++;
            ck_assert_msg(cols <= 80, "--help line %d is wider than 80 columns", line);
        }
    }
    hostile_result_free(&r);
    static const struct {
        const char *option;
        bool stages, formats, themes;
    } errors[] = {{"--dump", true, false, false},
                  {"--stage", true, false, false},
                  {"--format", false, true, false},
                  {"--theme", false, false, true}};
    for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
        r = hostile_run((const char *[]){errors[i].option, "bogus", NULL}, NULL, "/dev/null", 30);
        ck_assert_int_eq(r.status, 2);
        names_all(r.err, errors[i].option, errors[i].stages, errors[i].formats, false,
                  errors[i].themes);
        hostile_result_free(&r);
    }
}
END_TEST

/* ------------------------------------------------------------ the man page */

START_TEST(test_man_page_lists_every_entry)
{
    char *man = source_file("doc/mha-explorer.1");
    char *dump = part(man, ".BI --dump", ".TP");
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        ck_assert_msg(has_word(dump, mha_stage_info((enum mha_stage)s)->name),
                      "mha-explorer.1, --dump: stage %s is not listed",
                      mha_stage_info((enum mha_stage)s)->name);
    char *format = part(man, ".BI --format", ".TP");
    for (int f = 0; f < MHA_FORMAT_COUNT; f++)
        ck_assert_msg(has_word(format, mha_format_get(f)->name),
                      "mha-explorer.1, --format: format %s is not listed", mha_format_get(f)->name);
    char *view = part(man, ".BI --view", ".TP");
    char *views = part(man, ".SH VIEWS", ".SH");
    for (int v = 1; v < MHA_VIEW_COUNT; v++) {
        const char *name = mha_view_name((enum mha_view)v);
        ck_assert_msg(has_word(view, name), "mha-explorer.1, --view: view %s is not listed", name);
        char entry[64];
        snprintf(entry, sizeof entry, "\n.B %s\n", name);
        ck_assert_msg(strstr(views, entry), "mha-explorer.1, VIEWS: view %s has no entry", name);
    }
    char *theme = part(man, ".BI --theme", ".TP");
    for (int t = 0; t < COLORSCALE_THEME_COUNT; t++) {
        const char *name = colorscale_theme_name((enum colorscale_theme)t);
        ck_assert_msg(has_word(theme, name), "mha-explorer.1, --theme: theme %s is not listed",
                      name);
    }
    /* each command has an entry of its own: ".TP", then ".B name", ".BI name ..." */
    char *commands = part(man, ".SH COMMANDS", ".SH");
    for (int i = 0; i < ui_cmd_count; i++) {
        const char *name = ui_cmd_table[i].name;
        bool found = false;
        for (const char *p = strstr(commands, ".TP\n.B"); p && !found;
             p = strstr(p + 1, ".TP\n.B")) {
            p += 6;
            while (*p && *p != ' ')
                p++; /* .B, .BI or .BR */
            while (*p == ' ' || *p == '"')
                p++;
            /* its name or one of its aliases ("q or quit") */
            for (int a = -1; a < UI_CMD_MAX_ALIASES && !found; a++) {
                const char *w = a < 0 ? name : ui_cmd_table[i].aliases[a];
                if (!w)
                    break;
                found = strncmp(p, w, strlen(w)) == 0 && !word_char(p[strlen(w)]);
            }
        }
        ck_assert_msg(found, "mha-explorer.1, COMMANDS: :%s has no entry", name);
    }
    free(dump);
    free(format);
    free(view);
    free(views);
    free(theme);
    free(commands);
    free(man);
}
END_TEST

/* ------------------------------------------------------------ README.md */

START_TEST(test_readme_lists_every_entry)
{
    char *readme = source_file("README.md");
    char *printing = part(readme, "## Printing stages", "## ");
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        ck_assert_msg(has_word(printing, mha_stage_info((enum mha_stage)s)->name),
                      "README.md, Printing stages: stage %s is not listed",
                      mha_stage_info((enum mha_stage)s)->name);
    for (int f = 0; f < MHA_FORMAT_COUNT; f++) {
        char quoted[32];
        snprintf(quoted, sizeof quoted, "`%s`", mha_format_get(f)->name);
        ck_assert_msg(strstr(printing, quoted),
                      "README.md, Printing stages: format %s is not listed",
                      mha_format_get(f)->name);
    }
    char *teaching = part(readme, "## Teaching", "## ");
    for (int t = 0; t < COLORSCALE_THEME_COUNT; t++) {
        const char *name = colorscale_theme_name((enum colorscale_theme)t);
        ck_assert_msg(has_word(teaching, name), "README.md, Teaching: theme %s is not listed",
                      name);
    }
    char *explorer = part(readme, "## The explorer", "## ");
    for (int i = 0; i < ui_cmd_count; i++) {
        char spelled[40];
        snprintf(spelled, sizeof spelled, "`:%s", ui_cmd_table[i].name);
        ck_assert_msg(strstr(explorer, spelled), "README.md, The explorer: :%s is not listed",
                      ui_cmd_table[i].name);
    }
    for (int v = 1; v < MHA_VIEW_COUNT; v++)
        ck_assert_msg(has_word(explorer, mha_view_name((enum mha_view)v)),
                      "README.md, The explorer: view %s is not listed",
                      mha_view_name((enum mha_view)v));
    free(printing);
    free(teaching);
    free(explorer);
    free(readme);
    /* doc/teaching.md, the whole of what README's Teaching gives in brief */
    char *teach = source_file("doc/teaching.md");
    for (int t = 0; t < COLORSCALE_THEME_COUNT; t++) {
        const char *name = colorscale_theme_name((enum colorscale_theme)t);
        ck_assert_msg(has_word(teach, name), "doc/teaching.md: theme %s is not listed", name);
    }
    free(teach);
}
END_TEST

/* How many links of the Markdown file name (a path from the source root)
 * are relative links; each must name a file that is there, read from the
 * file's own folder. */
static int links_resolve(const char *name)
{
    char *text = source_file(name);
    const char *slash = strrchr(name, '/');
    const int dir = slash ? (int)(slash - name + 1) : 0;
    int links = 0;
    for (const char *p = strstr(text, "]("); p; p = strstr(p + 1, "](")) {
        const char *target = p + 2;
        const size_t n = strcspn(target, ")# \n");
        if (n == 0 || strncmp(target, "http", 4) == 0)
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%.*s%.*s", MHA_SOURCE_ROOT, dir, name, (int)n, target);
        FILE *f = fopen(path, "r");
        ck_assert_msg(f != NULL, "%s links to %.*s, which is not there", name, (int)n, target);
        fclose(f);
        links++;
    }
    free(text);
    return links;
}

/* README.md is the front door: at most 300 lines, the rest in doc/, and
 * every file it and the pages it sends the reader to link to is there. */
#define README_MAX_LINES 300
START_TEST(test_readme_is_short)
{
    char *readme = source_file("README.md");
    int lines = 0;
    for (const char *p = readme; *p; p++)
        lines += *p == '\n';
    ck_assert_msg(lines <= README_MAX_LINES,
                  "README.md has %d lines, more than %d: move reference text to doc/", lines,
                  README_MAX_LINES);
    free(readme);
    ck_assert_int_gt(links_resolve("README.md"), 0);
    static const char *const pages[] = {"doc/training.md", "doc/teaching.md", "doc/files.md",
                                        "doc/HACKING.md",  "bench/README.md", "lessons/README.md"};
    for (size_t i = 0; i < sizeof pages / sizeof pages[0]; i++)
        links_resolve(pages[i]);
}
END_TEST

/* ------------------------------------------------------------ shell completion */

/* True when one line of text names every name of list (n of them). */
static bool line_with_all(const char *text, const char *const *list, int n)
{
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        char *copy = strndup(line, end ? (size_t)(end - line) : strlen(line));
        ck_assert_ptr_nonnull(copy);
        int found = 0;
        for (int i = 0; i < n; i++)
            found += has_word(copy, list[i]);
        free(copy);
        if (found == n)
            return true;
        line = end ? end + 1 : NULL;
    }
    return false;
}

/* The bash and zsh completion files offer every stage, view, theme and
 * format: each list is written on one line of each file. */
START_TEST(test_completion_lists_every_entry)
{
    const char *stages[MHA_STAGE_COUNT], *formats[MHA_FORMAT_COUNT], *views[MHA_VIEW_COUNT];
    const char *themes[COLORSCALE_THEME_COUNT];
    for (int i = 0; i < MHA_STAGE_COUNT; i++)
        stages[i] = mha_stage_info((enum mha_stage)i)->name;
    for (int i = 0; i < MHA_FORMAT_COUNT; i++)
        formats[i] = mha_format_get(i)->name;
    for (int i = 1; i < MHA_VIEW_COUNT; i++)
        views[i - 1] = mha_view_name((enum mha_view)i);
    for (int i = 0; i < COLORSCALE_THEME_COUNT; i++)
        themes[i] = colorscale_theme_name((enum colorscale_theme)i);
    static const char *const files[] = {"scripts/completions/mha-explorer.bash",
                                        "scripts/completions/_mha-explorer"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        char *text = source_file(files[f]);
        ck_assert_msg(line_with_all(text, stages, MHA_STAGE_COUNT), "%s: no line lists every stage",
                      files[f]);
        ck_assert_msg(line_with_all(text, formats, MHA_FORMAT_COUNT),
                      "%s: no line lists every format", files[f]);
        ck_assert_msg(line_with_all(text, views, MHA_VIEW_COUNT - 1),
                      "%s: no line lists every view", files[f]);
        ck_assert_msg(line_with_all(text, themes, COLORSCALE_THEME_COUNT),
                      "%s: no line lists every theme", files[f]);
        free(text);
    }
}
END_TEST

/* The checks above find what is missing: a name that is in no page. */
START_TEST(test_the_checks_find_a_missing_name)
{
    ck_assert(has_word("one, two or three", "two"));
    ck_assert(!has_word("one, twofold", "two"));
    ck_assert(!has_word("network", "two"));
    char *p = part("a\n.TP\n.BI x\nwords\n.TP\nmore\n", ".BI x", ".TP");
    ck_assert_str_eq(p, ".BI x\nwords");
    free(p);
}
END_TEST

static Suite *docs_suite(void)
{
    Suite *s = suite_create("docs_lists");
    TCase *t = tcase_create("docs");
    tcase_add_test(t, test_man_page_lists_every_entry);
    tcase_add_test(t, test_readme_lists_every_entry);
    tcase_add_test(t, test_readme_is_short);
    tcase_add_test(t, test_the_checks_find_a_missing_name);
    tcase_add_test(t, test_completion_lists_every_entry);
    tcase_add_test(t, test_words_expand);
    tcase_add_test(t, test_help_screen_lists_from_tables);
    tcase_add_test(t, test_cli_lists_from_tables);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(docs_suite());
    srunner_run_all(r, CK_NORMAL);
    const int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
