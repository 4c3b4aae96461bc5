/* test_ui_link.c - :link round trips: the explorer's state becomes a
 * command line (ui_link_fill + link_command), the command line is split as
 * a POSIX shell splits it and read by the program's own option parser
 * (cli_parse), the example it describes is built (cli_build_example), and
 * everything matches: the numbers, the tokens, the sizes, the mask and
 * scaling, the stage or view, the cell under the cursor, the lesson and
 * step, the theme and the presenter.  Every cell of every stage that
 * --focus can name comes back as the same cell.  No terminal needed. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lesson/lesson_state.h"
#include "mha_config.h"
#include "ui/state/ui_link.h"
#include "ui/views/ui_views.h"
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

/* ---- a POSIX shell's word splitting, for what link_shell_quote writes ---- */

#define MAX_ARGS 64

struct argv_buf {
    char *argv[MAX_ARGS];
    int argc;
    char text[4096];
};

static void shell_split(const char *line, struct argv_buf *a)
{
    a->argc = 0;
    char *o = a->text;
    const char *p = line;
    while (*p) {
        while (*p == ' ')
            p++;
        if (!*p)
            break;
        ck_assert_int_lt(a->argc, MAX_ARGS - 1);
        a->argv[a->argc++] = o;
        while (*p && *p != ' ') {
            if (*p == '\'') { /* a quoted run: everything up to the next quote */
                for (p++; *p && *p != '\''; p++)
                    *o++ = *p;
                ck_assert_msg(*p == '\'', "an unterminated quote in %s", line);
                p++;
            } else if (*p == '\\') {
                *o++ = *++p;
                p++;
            } else {
                ck_assert_msg(!strchr("\"$`*?[]{}()<>|&;~", *p), "'%c' unquoted in %s", *p, line);
                *o++ = *p++;
            }
        }
        *o++ = '\0';
    }
    a->argv[a->argc] = NULL;
}

/* The state's link, read back by the command line's parser. */
static char *link_of(const struct ui_lessons *ls, const struct mha_cell *cursor,
                     enum colorscale_theme theme, bool present, struct cli_options *o,
                     struct argv_buf *a, char *note, size_t note_n)
{
    struct ui_link link;
    ui_link_fill(&st, ls, cursor, theme, present, &link);
    snprintf(note, note_n, "%s", link.note);
    char *cmd = link_command(&link.ls);
    ck_assert_ptr_nonnull(cmd);
    shell_split(cmd, a);
    ck_assert_str_eq(a->argv[0], "mha-explorer");
    ck_assert_msg(cli_parse(a->argc, a->argv, o) == CLI_CONTINUE, "%s does not parse", cmd);
    return cmd;
}

/* The example the options build is the one on screen, number for number. */
static void assert_same_example(const struct cli_options *o, const char *cmd)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = cli_build_example(o, &err);
    ck_assert_msg(ex != NULL, "%s: %s", cmd, err.text);
    const struct mha_example *now = st.ex;
    ck_assert_int_eq(ex->lq, now->lq);
    ck_assert_int_eq(ex->lk, now->lk);
    ck_assert_int_eq(ex->d_model, now->d_model);
    ck_assert_int_eq(ex->heads, now->heads);
    ck_assert_int_eq(ex->causal, now->causal);
    ck_assert_int_eq(ex->scaled, now->scaled);
    const size_t d = (size_t)now->d_model;
    ck_assert(!memcmp(ex->query, now->query, (size_t)now->lq * d * sizeof(float)));
    ck_assert(!memcmp(ex->value, now->value, (size_t)now->lk * d * sizeof(float)));
    ck_assert(!memcmp(ex->w_q, now->w_q, d * d * sizeof(float)));
    ck_assert(!memcmp(ex->w_o, now->w_o, d * d * sizeof(float)));
    for (int i = 0; i < now->lq; i++)
        ck_assert_str_eq(ex->tokens[i], now->tokens[i]);
    mha_example_free(ex);
}

/* ------------------------------------------------------------ TCase example */

START_TEST(test_the_default_is_the_bare_command)
{
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(NULL, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(cmd, "mha-explorer");
    ck_assert_str_eq(note, "");
    assert_same_example(&o, cmd);
    free(cmd);
}
END_TEST

START_TEST(test_sizes_tokens_seed_mask_scaling)
{
    ck_assert_int_eq(ui_state_set_tokens(&st, "l'été est là \"vraiment\" $HOME *"), 0);
    ck_assert_int_eq(ui_state_set_d_model(&st, 12), 0);
    ck_assert_int_eq(ui_state_set_heads(&st, 4), 0);
    ck_assert_int_eq(ui_state_set_seed(&st, 4000000000ul), 0);
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    ck_assert_int_eq(ui_state_toggle_scaled(&st), 0);
    ui_state_set_stage(&st, MHA_STAGE_MERGE);
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(NULL, NULL, COLORSCALE_THEME_PROJECTOR, true, &o, &a, note, sizeof note);
    ck_assert_str_eq(note, "");
    ck_assert_int_eq(o.stage, MHA_STAGE_MERGE);
    ck_assert_str_eq(o.theme, "projector");
    ck_assert(o.present);
    ck_assert(o.causal && o.no_scale);
    assert_same_example(&o, cmd);
    free(cmd);
}
END_TEST

START_TEST(test_a_view)
{
    ck_assert_int_eq(ui_state_set_heads(&st, 3), 0);
    ui_state_set_view(&st, MHA_VIEW_COST);
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(NULL, NULL, COLORSCALE_THEME_MONO, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(o.view, "cost");
    ck_assert_str_eq(o.theme, "mono");
    ck_assert_ptr_null(o.focus);
    assert_same_example(&o, cmd);
    free(cmd);
}
END_TEST

START_TEST(test_an_example_file)
{
    ck_assert_int_eq(ui_state_load(&st, MHA_SOURCE_ROOT "/tests/data/examples/self.json"), 0);
    ck_assert_int_eq(ui_state_set_heads(&st, 4), 0);
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(NULL, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(note, "");
    ck_assert_ptr_nonnull(o.load);
    ck_assert_int_eq(o.load[0], '/'); /* opens from anywhere */
    ck_assert_int_eq(o.heads, 4);
    assert_same_example(&o, cmd);
    free(cmd);
    /* what the command line cannot say is said: the file's keys as tokens
     * of a generated example (cross-attention) */
    ck_assert_int_eq(ui_state_load(&st, MHA_SOURCE_ROOT "/assets/examples/translate.json"), 0);
    ck_assert_int_eq(ui_state_set_d_model(&st, 10), 0);
    struct ui_link link;
    ui_link_fill(&st, NULL, NULL, COLORSCALE_THEME_DARK, false, &link);
    ck_assert_str_ne(link.note, "");
    char *text = ui_link_text(&link);
    ck_assert_ptr_nonnull(strstr(text, link.note));
    free(text);
}
END_TEST

/* A trained model (the cat sentence names one): --load and its words as
 * --tokens, and no --heads, --causal or --no-scale, which a model refuses;
 * when the screen split it into other heads, the note says the command
 * opens it as trained. */
START_TEST(test_a_model)
{
    ck_assert_int_eq(ui_state_load(&st, MHA_SOURCE_ROOT "/assets/examples/cat-sat.json"), 0);
    ck_assert_int_eq(ui_state_set_tokens(&st, "the dog sat on the"), 0);
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(NULL, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(note, "");
    ck_assert_ptr_nonnull(strstr(cmd, "--tokens 'the dog sat on the'"));
    ck_assert_ptr_null(strstr(cmd, "--heads"));
    ck_assert_ptr_null(strstr(cmd, "--causal"));
    assert_same_example(&o, cmd);
    free(cmd);
    ck_assert_int_eq(ui_state_set_heads(&st, 4), 0);
    cmd = link_of(NULL, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_ptr_nonnull(strstr(note, "its own heads"));
    ck_assert_ptr_null(strstr(cmd, "--heads"));
    free(cmd);
}
END_TEST

/* An example neither drawn from a seed nor read from a file (a model the
 * screen trained): the note says so, and the command still runs, on the
 * same tokens and sizes. */
START_TEST(test_an_example_of_no_file)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_generated(5, NULL, 8, 2, 3, &err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_set_example(&st, ex, false, "first-prev"), 0);
    ui_state_set_stage(&st, MHA_STAGE_ATTENTION);
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(NULL, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(note, "the example's file is not known");
    ck_assert_int_eq(o.d_model, 8);
    ck_assert_int_eq(o.stage, MHA_STAGE_ATTENTION);
    free(cmd);
}
END_TEST

/* ------------------------------------------------------------ TCase focus */

/* Every cell of every stage: a --focus the stage can name comes back as the
 * very same cell, through the command line and lesson_focus_resolve. */
START_TEST(test_every_cell_comes_back)
{
    ck_assert_int_eq(ui_state_set_tokens(&st, "The cat 1 0 cat"), 0); /* digits, repeats */
    ck_assert_int_eq(ui_state_set_heads(&st, 3), 0);
    static struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    for (int stage = 0; stage < MHA_STAGE_COUNT; stage++) {
        ui_state_set_stage(&st, stage);
        const int n = ui_view_build(&st, 80, blocks, UI_VIEW_MAX_BLOCKS); /* narrow: results */
        int named = 0, cells = 0;
        for (int b = 0; b < n; b++) {
            if (!ui_block_selectable(&blocks[b]))
                continue;
            for (int r = 0; r < blocks[b].rows; r++)
                for (int c = 0; c < blocks[b].cols; c++) {
                    const struct mha_cell cell = ui_block_cell(&blocks[b], r, c);
                    char spec[256];
                    cells++;
                    if (!ui_link_focus(&st, &cell, spec, sizeof spec))
                        continue;
                    named++;
                    struct cli_options o;
                    struct argv_buf a;
                    char note[256];
                    char *cmd = link_of(NULL, &cell, COLORSCALE_THEME_DARK, false, &o, &a, note,
                                        sizeof note);
                    ck_assert_str_eq(o.focus, spec);
                    ck_assert_int_eq(o.stage, stage);
                    struct lesson_focus f;
                    struct mha_error err;
                    mha_error_clear(&err);
                    ck_assert_msg(lesson_focus_resolve(o.focus, o.stage, st.ex, &f, &err) == 0,
                                  "%s: %s", cmd, err.text);
                    const struct mha_cell back = ui_lesson_focus_cell(&f, o.stage, st.tr);
                    ck_assert_int_eq(back.tensor, cell.tensor);
                    ck_assert_int_eq(back.head, cell.head);
                    ck_assert_int_eq(back.row, cell.row);
                    ck_assert_int_eq(back.col, cell.col);
                    free(cmd);
                }
        }
        /* the stages name every cell they show but for the merge stage's
         * heads, shown beside the merged matrix they make */
        ck_assert_int_gt(cells, 0);
        if (stage != MHA_STAGE_MERGE && stage != MHA_STAGE_OUTPUT)
            ck_assert_msg(named == cells, "stage %d: %d of %d cells named", stage, named, cells);
        else
            ck_assert_int_gt(named, 0);
    }
    /* "cat" is row 1, the second "cat" row 4 by its index; "1" and "0" as
     * tokens are rows 2 and 3 */
    ui_state_set_stage(&st, MHA_STAGE_ATTENTION);
    char spec[256];
    struct mha_cell cell = {MHA_TENSOR_WEIGHTS, 2, 4, 1};
    ck_assert(ui_link_focus(&st, &cell, spec, sizeof spec));
    ck_assert_str_eq(spec, "weights, head 2, row 4, col cat");
    cell = (struct mha_cell){MHA_TENSOR_SCORES, 0, 2, 3};
    ck_assert(ui_link_focus(&st, &cell, spec, sizeof spec));
    ck_assert_str_eq(spec, "scores, head 0, row 1, col 0");
    /* a cell on a view has no --focus */
    ui_state_set_view(&st, MHA_VIEW_SHAPES);
    ck_assert(!ui_link_focus(&st, &cell, spec, sizeof spec));
}
END_TEST

/* ------------------------------------------------------------ TCase lesson */

START_TEST(test_a_lesson_step)
{
    setenv("MHA_DATA_DIR", MHA_SOURCE_ROOT, 1);
    char state_dir[256];
    test_tmp_template(state_dir, sizeof state_dir, "mha-ui-link");
    ck_assert_ptr_nonnull(mkdtemp(state_dir));
    setenv("XDG_STATE_HOME", state_dir, 1);
    struct ui_lessons ls;
    char warning[600];
    ui_lessons_init(&ls, MHA_SOURCE_ROOT "/lessons", MHA_SOURCE_ROOT "/assets", warning,
                    (int)sizeof warning);
    char *path = cli_find_lesson("5");
    ck_assert_ptr_nonnull(path);
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 2), 0);
    struct cli_options o;
    struct argv_buf a;
    char note[256];
    char *cmd = link_of(&ls, NULL, COLORSCALE_THEME_LIGHT, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(o.lesson, "5");
    ck_assert_int_eq(o.step, 3);
    ck_assert_str_eq(o.theme, "light");
    char *again = cli_find_lesson(o.lesson);
    ck_assert_str_eq(again, ls.path);
    ck_assert_int_eq(cli_check_lesson_file(again, o.step), 0);
    free(again);
    free(cmd);
    /* the screen changed since the scene: the link says the example itself */
    ck_assert_int_eq(ui_state_step_heads(&st, -1), 0);
    cmd = link_of(&ls, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_ptr_null(o.lesson);
    assert_same_example(&o, cmd);
    free(cmd);
    free(path);
    /* a step that trains: the model on screen is the step's, which it trains again */
    path = cli_find_lesson("16");
    ck_assert_ptr_nonnull(path);
    ck_assert_int_eq(ui_lesson_open(&ls, &st, path, 0), 0);
    struct mha_error err;
    struct mha_example *trained = mha_example_generated(8, NULL, 8, 2, 1, &err);
    ck_assert_ptr_nonnull(trained);
    ck_assert_int_eq(ui_state_set_example(&st, trained, false, "first-prev"), 0);
    ui_state_set_stage(&st, MHA_STAGE_ATTENTION);
    cmd = link_of(&ls, NULL, COLORSCALE_THEME_DARK, false, &o, &a, note, sizeof note);
    ck_assert_str_eq(o.lesson, "16");
    ck_assert_int_eq(o.step, 0); /* the first step: --step is left out */
    /* the step shows its scene's stage: --stage, which --lesson refuses, is left out */
    ck_assert_msg(!strstr(cmd, "--stage"), "%s", cmd);
    free(cmd);
    free(path);
    ui_lessons_done(&ls);
    char rm[320];
    snprintf(rm, sizeof rm, "rm -rf '%s'", state_dir);
    ck_assert_int_eq(system(rm), 0);
}
END_TEST

static Suite *link_suite(void)
{
    Suite *s = suite_create("ui_link");
    TCase *t = tcase_create("example");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_the_default_is_the_bare_command);
    tcase_add_test(t, test_sizes_tokens_seed_mask_scaling);
    tcase_add_test(t, test_a_view);
    tcase_add_test(t, test_an_example_file);
    tcase_add_test(t, test_a_model);
    tcase_add_test(t, test_an_example_of_no_file);
    suite_add_tcase(s, t);
    t = tcase_create("focus");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_every_cell_comes_back);
    suite_add_tcase(s, t);
    t = tcase_create("lesson");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_a_lesson_step);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(link_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
