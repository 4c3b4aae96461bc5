/* test_cli.c - the command line as a user meets it: exit statuses, messages
 * on stderr, nothing on stdout after an error, and the default example's
 * numbers end to end against the PyTorch reference. */
#include <check.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_run.h"
#include "io/format.h"
#include "test_tmp.h"

START_TEST(help_and_version)
{
    struct cli_result r = cli_run((const char *[]){"--help", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Usage: mha-explorer"));
    ck_assert_ptr_nonnull(strstr(r.out, "--dump STAGE"));
    ck_assert_str_eq(r.err, "");
    cli_result_free(&r);
    r = cli_run((const char *[]){"--version", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "mha-explorer "));
    cli_result_free(&r);
}
END_TEST

START_TEST(usage_errors)
{
    cli_expect_error((const char *[]){"--dump", "bogus", NULL}, "--dump: unknown stage 'bogus'");
    cli_expect_error((const char *[]){"--dump", "all", "--format", "xml", NULL},
                     "--format: unknown format 'xml'");
    cli_expect_error((const char *[]){"--d-model", "abc", "--dump", "all", NULL},
                     "--d-model: 'abc' is not a whole number");
    cli_expect_error((const char *[]){"--d-model", "0", "--dump", "all", NULL},
                     "--d-model: 0 is out of range");
    cli_expect_error((const char *[]){"--d-model", "4096", "--dump", "all", NULL},
                     "--d-model: 4096 is out of range");
    cli_expect_error((const char *[]){"--seed", "-1", "--dump", "all", NULL}, "--seed:");
    /* a number past what the parser holds is a number: too large or too close to 0 */
    cli_expect_error((const char *[]){"--seed", "99999999999999999999", "--dump", "all", NULL},
                     "--seed: 99999999999999999999 is too large; expected 0..4294967295");
    cli_expect_error((const char *[]){"--lr", "5e-324", "--train", "first-prev", NULL},
                     "--lr: 5e-324 is too close to 0");
    cli_expect_error((const char *[]){"--autoplay", "1e999", NULL},
                     "--autoplay: 1e999 is too large; expected a number from 0.1 to 3600");
    cli_expect_error((const char *[]){"--tokens", "   ", "--dump", "all", NULL},
                     "--tokens: give at least one token");
    cli_expect_error((const char *[]){"--bogus", NULL}, "unknown option '--bogus'");
    cli_expect_error((const char *[]){"--dump", NULL}, "--dump needs a value");
    cli_expect_error((const char *[]){"extra", NULL}, "unexpected argument 'extra'");
    cli_expect_error((const char *[]){"--format", "json", NULL}, "--format needs --dump STAGE");
    cli_expect_error((const char *[]){"--stage", "nowhere", NULL}, "--stage: unknown stage");
    cli_expect_error((const char *[]){"--load", "x.json", "--tokens", "a b", NULL},
                     "--tokens cannot be combined with --load");
}
END_TEST

START_TEST(heads_that_do_not_divide_are_explained)
{
    cli_expect_error((const char *[]){"--heads", "4", "--dump", "all", NULL},
                     "--heads: 4 heads do not divide d_model 6: every head gets d_k = d_model / "
                     "heads dimensions, so heads must divide d_model (here: 1, 2, 3, 6)");
    cli_expect_error((const char *[]){"--d-model", "8", "--heads", "3", "--dump", "all", NULL},
                     "(here: 1, 2, 4, 8)");
    cli_expect_error((const char *[]){"--heads", "7", "--dump", "all", NULL},
                     "7 heads: heads must be between 1 and d_model (6)");
}
END_TEST

START_TEST(bad_files_name_file_line_and_column)
{
    char p[1024];
    snprintf(p, sizeof p, "%s", cli_data_path("bad/syntax.json"));
    struct cli_result r = cli_run((const char *[]){"--load", p, "--dump", "all", NULL});
    ck_assert_int_eq(r.status, 2);
    char want[1100];
    snprintf(want, sizeof want, "mha-explorer: %s:4:", p);
    ck_assert_msg(strncmp(r.err, want, strlen(want)) == 0, "stderr: %s", r.err);
    ck_assert_str_eq(r.out, "");
    cli_result_free(&r);
    snprintf(p, sizeof p, "%s", cli_data_path("bad/ragged.json"));
    cli_expect_error((const char *[]){"--load", p, "--dump", "all", "--format", "json", NULL},
                     "\"query\" row 1 has 1 numbers; expected 2");
    cli_expect_error((const char *[]){"--load", "/nonexistent/file.json", "--dump", "all", NULL},
                     "/nonexistent/file.json: cannot open");
    snprintf(p, sizeof p, "%s", cli_data_path("examples/self.json"));
    cli_expect_error((const char *[]){"--load", p, "--heads", "3", "--dump", "all", NULL},
                     "--heads: 3 heads do not divide d_model 4");
}
END_TEST

START_TEST(explorer_without_a_terminal_points_to_dump)
{
    cli_expect_error((const char *[]){NULL}, "the explorer cannot draw here");
    cli_expect_error((const char *[]){"--tokens", "a b", NULL}, "--dump STAGE");
    /* --no-mouse is an option of the explorer: it reaches the terminal check */
    cli_expect_error((const char *[]){"--no-mouse", NULL}, "the explorer cannot draw here");
}
END_TEST

static json_t *dump_json(const char *const *args)
{
    struct cli_result r = cli_run(args);
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    ck_assert_str_eq(r.err, "");
    json_error_t jerr;
    json_t *root = json_loads(r.out, 0, &jerr);
    ck_assert_msg(root != NULL, "stdout is not one JSON object: %s", jerr.text);
    cli_result_free(&r);
    return root;
}

/* Compare two nested arrays of numbers (null == null) within tol. */
static void assert_close(const json_t *got, const json_t *want, double tol, const char *what)
{
    if (json_is_array(want)) {
        ck_assert_msg(json_is_array(got) && json_array_size(got) == json_array_size(want),
                      "%s: shape differs", what);
        for (size_t i = 0; i < json_array_size(want); i++)
            assert_close(json_array_get(got, i), json_array_get(want, i), tol, what);
        return;
    }
    if (json_is_null(want)) {
        ck_assert_msg(json_is_null(got), "%s: expected null (masked)", what);
        return;
    }
    double g = json_number_value(got), w = json_number_value(want);
    ck_assert_msg(json_is_number(got) && fabs(g - w) <= tol * (1.0 + fabs(w)),
                  "%s: %.9g vs reference %.9g", what, g, w);
}

START_TEST(default_example_matches_reference)
{
    json_error_t jerr;
    json_t *ref = json_load_file(cli_data_path("engine_cases.json"), 0, &jerr);
    ck_assert_msg(ref != NULL, "reference: %s", jerr.text);
    json_t *cases = json_object_get(ref, "cases"), *c = NULL;
    for (size_t i = 0; i < json_array_size(cases); i++)
        if (strcmp(json_string_value(json_object_get(json_array_get(cases, i), "name")),
                   "default") == 0)
            c = json_array_get(cases, i);
    ck_assert_ptr_nonnull(c);
    json_t *e = json_object_get(c, "expected");
    json_t *got = dump_json((const char *[]){"--dump", "all", "--format", "json", NULL});
    json_t *cfg = json_object_get(got, "config");
    ck_assert_int_eq(json_integer_value(json_object_get(cfg, "d_model")), 6);
    ck_assert_int_eq(json_integer_value(json_object_get(cfg, "num_heads")), 2);
    ck_assert_int_eq(json_integer_value(json_object_get(cfg, "head_dim")), 3);
    ck_assert_str_eq(json_string_value(json_array_get(json_object_get(cfg, "tokens"), 3)), "tok 3");
    const double tol = 1e-5;
    json_t *in = json_object_get(got, "input");
    assert_close(json_object_get(in, "query"), json_object_get(c, "query"), tol, "query");
    assert_close(json_object_get(in, "w_o"), json_object_get(c, "w_o"), tol, "w_o");
    json_t *proj = json_object_get(got, "projection");
    assert_close(json_object_get(proj, "q"), json_object_get(e, "q"), tol, "Q");
    assert_close(json_object_get(proj, "v"), json_object_get(e, "v"), tol, "V");
    json_t *tr = json_object_get(got, "transpose");
    assert_close(json_object_get(tr, "k"), json_object_get(e, "kh"), tol, "K heads");
    json_t *att = json_object_get(got, "attention");
    assert_close(json_object_get(att, "scores"), json_object_get(e, "scores"), tol, "scores");
    assert_close(json_object_get(att, "scaled"), json_object_get(e, "scaled"), tol, "scaled");
    assert_close(json_object_get(att, "weights"), json_object_get(e, "weights"), tol, "weights");
    assert_close(json_object_get(att, "context"), json_object_get(e, "context"), tol, "context");
    assert_close(json_object_get(got, "merge"), json_object_get(e, "merged"), tol, "merge");
    assert_close(json_object_get(got, "output"), json_object_get(e, "output"), tol, "output");
    json_decref(got);
    json_decref(ref);
}
END_TEST

START_TEST(one_stage_causal_and_sizes)
{
    json_t *got = dump_json((const char *[]){"--dump", "attention", "--format", "json", "--causal",
                                             "--tokens", "The cat sat on the mat", "--d-model", "8",
                                             "--heads", "4", NULL});
    ck_assert_int_eq(json_object_size(got), 2);
    json_t *cfg = json_object_get(got, "config");
    ck_assert(json_is_true(json_object_get(cfg, "causal")));
    ck_assert_int_eq(json_array_size(json_object_get(cfg, "tokens")), 6);
    ck_assert_int_eq(json_integer_value(json_object_get(cfg, "head_dim")), 2);
    json_t *att = json_object_get(got, "attention");
    json_t *scaled = json_object_get(att, "scaled"), *weights = json_object_get(att, "weights");
    ck_assert_int_eq(json_array_size(scaled), 4);
    for (int h = 0; h < 4; h++)
        for (int i = 0; i < 6; i++)
            for (int j = 0; j < 6; j++) {
                json_t *s = json_array_get(json_array_get(json_array_get(scaled, h), i), j);
                json_t *w = json_array_get(json_array_get(json_array_get(weights, h), i), j);
                ck_assert_int_eq(json_is_null(s), j > i);
                if (j > i)
                    ck_assert(json_number_value(w) == 0.0);
            }
    json_decref(got);
}
END_TEST

START_TEST(generated_examples_are_deterministic)
{
    const char *a[] = {"--dump", "output", "--format", "json", "--seed", "9", NULL};
    const char *b[] = {"--dump", "output", "--format", "json", "--seed", "10", NULL};
    struct cli_result r1 = cli_run(a), r2 = cli_run(a), r3 = cli_run(b);
    ck_assert_int_eq(r1.status, 0);
    ck_assert_str_eq(r1.out, r2.out);
    ck_assert_str_ne(r1.out, r3.out);
    cli_result_free(&r1);
    cli_result_free(&r2);
    cli_result_free(&r3);
}
END_TEST

START_TEST(text_format_reads_like_a_slide)
{
    struct cli_result r = cli_run((const char *[]){"--dump", "projection", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "d_model 6, 2 heads, d_k 3"));
    ck_assert_ptr_nonnull(strstr(r.out, "Q = query·W_qᵀ + b_q  (4 × 6)"));
    ck_assert_ptr_nonnull(strstr(r.out, "\ntok 3 "));
    ck_assert_ptr_null(strstr(r.out, "== 0 input"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--dump", "4", "--no-scale", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "scaling off"));
    cli_result_free(&r);
}
END_TEST

START_TEST(export_formats_and_lessons)
{
    /* every export of the format table; how some of them start */
    static const struct {
        const char *format, *start;
    } starts[] = {
        {"svg", "<"}, {"html", "<!DOCTYPE html>"}, {"markdown", "#"}, {"csv", "#"}, {"latex", "%"}};
    for (int f = 0; f < MHA_FORMAT_EXPORTS; f++) {
        const char *name = mha_format_get(f)->name;
        struct cli_result r =
            cli_run((const char *[]){"--dump", "attention", "--format", name, NULL});
        ck_assert_msg(r.status == 0, "%s: status %d: %s", name, r.status, r.err);
        for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
            if (!strcmp(starts[i].format, name))
                ck_assert_msg(strncmp(r.out, starts[i].start, strlen(starts[i].start)) == 0,
                              "%s starts '%.40s'", name, r.out);
        ck_assert_msg(strstr(r.out, "tok 3") != NULL, "%s lacks the token labels", name);
        cli_result_free(&r);
    }
    struct cli_result r =
        cli_run((const char *[]){"--print-lesson", "1", "--format", "html", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Why one head is not enough"));
    ck_assert_ptr_nonnull(strstr(r.out, "</html>"));
    cli_result_free(&r);
    /* a show: every head's part of the row, the part a checkpoint hides as ? */
    r = cli_run((const char *[]){"--print-lesson", "8", "--format", "html", NULL});
    ck_assert_int_eq(r.status, 0);
    const char *show = strstr(r.out, "Every head's weights, row sat: head 0 → ");
    ck_assert_ptr_nonnull(show);
    const char *end = strstr(show, "</p>");
    ck_assert_ptr_nonnull(end);
    char line[256];
    snprintf(line, sizeof line, "%.*s", (int)(end - show), show);
    ck_assert_msg(strstr(line, "· head 1 → ?") != NULL, "head 1's row is not hidden: %s", line);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--print-lesson", "1", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, "Lesson 1: Why one head is not enough"));
    cli_result_free(&r);
    cli_expect_error((const char *[]){"--print-lesson", "1", "--format", "csv", NULL},
                     "--print-lesson prints text or html");
    cli_expect_error((const char *[]){"--print-lesson", "99", NULL}, "there is no lesson 99");
    char formats[256], want[300];
    snprintf(want, sizeof want, "expected %s",
             mha_format_list(MHA_FORMAT_ANY, " or ", formats, sizeof formats));
    cli_expect_error((const char *[]){"--dump", "all", "--format", "pdf", NULL}, want);
}
END_TEST

START_TEST(lesson_commands)
{
    struct cli_result r = cli_run((const char *[]){"--list-lessons", NULL});
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_nonnull(strstr(r.out, " 1  Why one head is not enough"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--check-lessons", NULL});
    ck_assert_msg(r.status == 0, "bundled lessons: %s%s", r.out, r.err);
    cli_result_free(&r);
    char p[1024];
    snprintf(p, sizeof p, "%s", cli_data_path("bad/lesson.md"));
    r = cli_run((const char *[]){"--check-lessons", p, NULL});
    ck_assert_int_eq(r.status, 2);
    char want[1100];
    snprintf(want, sizeof want, "%s:6: unknown scene key \"stagee\"", p);
    ck_assert_msg(strstr(r.out, want) != NULL, "output: %s", r.out);
    snprintf(want, sizeof want, "%s:12: answer: \"7\" is not one of the choices", p);
    ck_assert_msg(strstr(r.out, want) != NULL, "output: %s", r.out);
    ck_assert_ptr_nonnull(strstr(r.err, "1 lesson checked, "));
    cli_result_free(&r);
}
END_TEST

/* The messages of files say what is wrong in the user's words: a string
 * with \u0000 in an example names no flag of the JSON library, and a file
 * that is no recording is asked for the line the program writes. */
START_TEST(file_messages)
{
    char dir[256], path[512];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-cli-words"));
    test_tmp_path(dir, "nul.json", path, sizeof path);
    ck_assert_int_eq(test_tmp_put(path, "{\"d_model\": 2, \"tokens\": [\"a\\u0000\"]}\n", 0644), 0);
    struct cli_result r = cli_run((const char *[]){"--load", path, "--dump", "all", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "a string holds \\u0000") && !strstr(r.err, "JSON_"), "%s", r.err);
    cli_result_free(&r);
    test_tmp_path(dir, "x.rec", path, sizeof path);
    ck_assert_int_eq(test_tmp_put(path, "hello\n", 0644), 0);
    r = cli_run((const char *[]){"--replay", path, NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "the first line must be \"mha-explorer-recording 2\""), "%s",
                  r.err);
    cli_result_free(&r);
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST

/* A lesson of one step (a teacher's own) is listed as "1 step". */
START_TEST(lesson_of_one_step)
{
    char dir[256], lessons[512], file[600];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-one-step"));
    test_tmp_path(dir, "lessons", lessons, sizeof lessons);
    ck_assert_int_eq(mkdir(lessons, 0755), 0);
    test_tmp_path(lessons, "01-one.md", file, sizeof file);
    ck_assert_int_eq(test_tmp_put(file, "# A lesson of one step\n\n## Only\n\nText.\n", 0644), 0);
    const char *before = getenv("MHA_DATA_DIR");
    char *kept = before ? strdup(before) : NULL;
    setenv("MHA_DATA_DIR", dir, 1);
    struct cli_result r = cli_run((const char *[]){"--list-lessons", NULL});
    if (kept)
        setenv("MHA_DATA_DIR", kept, 1);
    else
        unsetenv("MHA_DATA_DIR");
    free(kept);
    ck_assert_int_eq(r.status, 0);
    ck_assert_msg(strstr(r.out, "A lesson of one step") && strstr(r.out, " 1 step\n"), "%s", r.out);
    cli_result_free(&r);
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST

/* The lesson tools print or forget and exit: an option they do not read
 * is refused (status 2, nothing printed), not ignored; --print-lesson
 * reads --format. */
START_TEST(lesson_tools_refuse_what_they_ignore)
{
    const struct {
        const char *args[6], *says;
    } cases[] = {
        {{"--print-lesson", "3", "--format", "json"},
         "--format: --print-lesson prints text or html"},
        {{"--print-lesson", "20", "--seed", "5"}, "--seed cannot be combined with --print-lesson"},
        {{"--print-lesson", "3", "--format", "html", "--theme", "light"},
         "--theme cannot be combined with --print-lesson"},
        {{"--list-lessons", "--train", "induction"},
         "--train cannot be combined with --list-lessons, which lists the lessons and exits"},
        {{"--print-lesson", "2", "--list-lessons"},
         "--print-lesson cannot be combined with --list-lessons"},
        {{"--check-lessons", "--dump", "all"}, "--dump cannot be combined with --check-lessons"},
        {{"--reset-progress", "--step", "2"}, "--step cannot be combined with --reset-progress"},
        {{"--reset-progress", "--present"}, "--present cannot be combined with --reset-progress"},
    };
    char state[256];
    ck_assert_ptr_nonnull(test_tmp_dir(state, sizeof state, "mha-lesson-tools"));
    setenv("XDG_STATE_HOME", state, 1); /* where a reset would write */
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *args[7] = {0};
        memcpy(args, cases[i].args, sizeof cases[i].args);
        cli_expect_error(args, cases[i].says);
    }
    unsetenv("XDG_STATE_HOME");
    ck_assert_int_eq(rmdir(state), 0); /* nothing was written in it */
    /* what they take still works */
    struct cli_result r =
        cli_run((const char *[]){"--print-lesson", "1", "--format", "text", NULL});
    ck_assert_msg(r.status == 0, "stderr: %s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Why one head is not enough"));
    cli_result_free(&r);
}
END_TEST

/* --lesson, --step, --view and --focus are checked before the terminal is
 * needed; --bench-frames needs none at all. */
START_TEST(explorer_options)
{
    cli_expect_error((const char *[]){"--lesson", "99", NULL}, "there is no lesson 99");
    cli_expect_error((const char *[]){"--lesson", "2", "--step", "9", NULL}, "--step 9: ");
    cli_expect_error((const char *[]){"--step", "2", NULL}, "--step needs --lesson");
    cli_expect_error((const char *[]){"--lesson", "2", "--tokens", "a b", NULL},
                     "--tokens cannot be combined with --lesson");
    /* a step's scene sets the mask, the scaling and the stage */
    cli_expect_error((const char *[]){"--lesson", "2", "--causal", NULL},
                     "--causal cannot be combined with --lesson");
    cli_expect_error((const char *[]){"--lesson", "2", "--no-scale", NULL},
                     "--no-scale cannot be combined with --lesson");
    cli_expect_error((const char *[]){"--lesson", "2", "--stage", "input", NULL},
                     "--stage cannot be combined with --lesson: each step shows the stage");
    cli_expect_error((const char *[]){"--view", "sideways", NULL},
                     "--view: unknown view 'sideways'");
    cli_expect_error((const char *[]){"--stage", "attention", "--focus", "weights, head 7", NULL},
                     "--focus: \"head 7\": heads are numbered 0..1");
    cli_expect_error((const char *[]){"--stage", "merge", "--focus", "q, row 1", NULL},
                     "the merge stage does not show \"q\"");
    /* the explorer's options with --dump, which opens none, are refused, not ignored */
    cli_expect_error((const char *[]){"--dump", "attention", "--lesson", "3", NULL},
                     "--lesson cannot be combined with --dump");
    cli_expect_error((const char *[]){"--dump", "attention", "--lesson", "3", NULL},
                     "; --print-lesson N prints a lesson's scenes");
    cli_expect_error((const char *[]){"--dump", "all", "--view", "heads", NULL},
                     "--view cannot be combined with --dump");
    cli_expect_error(
        (const char *[]){"--dump", "attention", "--format", "svg", "--theme", "light", NULL},
        "--theme cannot be combined with --dump");
    cli_expect_error((const char *[]){"--dump", "attention", "--focus", "weights, row 1", NULL},
                     "--focus cannot be combined with --dump");
    char p[1024];
    snprintf(p, sizeof p, "%s", cli_data_path("bad/lesson.md"));
    struct cli_result r = cli_run((const char *[]){"--lesson", p, NULL});
    ck_assert_int_eq(r.status, 2);
    char want[1100];
    snprintf(want, sizeof want, "%s:6: unknown scene key", p);
    ck_assert_msg(strstr(r.err, want) != NULL, "stderr: %s", r.err);
    ck_assert_ptr_nonnull(strstr(r.err, "has problems; it cannot be opened"));
    ck_assert_str_eq(r.out, "");
    cli_result_free(&r);
    /* good options reach the terminal check (stdin is not a terminal here) */
    r = cli_run((const char *[]){"--lesson", "7", "--step", "3", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "the explorer cannot draw here"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--bench-frames", "20", "--view", "heads", NULL});
    ck_assert_msg(r.status == 0, "stderr: %s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "redraw after a keypress: median"));
    ck_assert_ptr_nonnull(strstr(r.out, "over 20 frames"));
    cli_result_free(&r);
    /* it takes no keys, clicks or time, and saves nothing: those are refused */
    static const char *const off_screen[][5] = {
        {"--record", "x.rec"},
        {"--replay", "x.rec"},
        {"--autoplay", "1"},
        {"--no-mouse"},
        {"--train", "induction", "--save", "m.json"},
    };
    for (size_t i = 0; i < sizeof off_screen / sizeof off_screen[0]; i++) {
        const char *args[8] = {"--bench-frames", "2"};
        memcpy(args + 2, off_screen[i], sizeof off_screen[i]);
        char says[96];
        snprintf(says, sizeof says, "%s cannot be combined with --bench-frames",
                 off_screen[i][off_screen[i][2] ? 2 : 0]);
        cli_expect_error(args, says);
    }
    r = cli_run((const char *[]){"--help", NULL});
    ck_assert_ptr_nonnull(strstr(r.out, "--lesson N|FILE"));
    ck_assert_ptr_nonnull(strstr(r.out, "--bench-frames N"));
    cli_result_free(&r);
}
END_TEST

/* --record and --replay: --force needs --record; a recording's own options
 * are read as if given, before the terminal is needed, and named when they
 * are wrong; options given with --replay win. */
static const char *write_recording(char *path, const char *text)
{
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
    close(fd);
    return path;
}

START_TEST(recordings_carry_their_start)
{
    cli_expect_error((const char *[]){"--force", NULL}, "--force needs --record FILE");
    char p[256];
    test_tmp_template(p, sizeof p, "mha-cli-rec");
    write_recording(p, "mha-explorer-recording 2\nsize 80x24\narg --heads\narg 0\n0.5 right\n");
    struct cli_result r = cli_run((const char *[]){"--replay", p, NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "--heads: 0 is out of range") != NULL, "%s", r.err);
    ck_assert_msg(strstr(r.err, "those ") && strstr(r.err, p) && strstr(r.err, "was recorded with"),
                  "%s", r.err);
    cli_result_free(&r);
    unlink(p);
    /* a lesson and step that do not exist: refused as if given */
    char q[256];
    test_tmp_template(q, sizeof q, "mha-cli-rec");
    write_recording(q, "mha-explorer-recording 2\narg --lesson\narg 7\narg --step\narg 99\n");
    r = cli_run((const char *[]){"--replay", q, NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "step 99") != NULL, "%s", r.err);
    cli_result_free(&r);
    /* the step given now wins over the recorded one */
    r = cli_run((const char *[]){"--replay", q, "--step", "2", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_msg(strstr(r.err, "the explorer cannot draw here") != NULL, "%s", r.err);
    cli_result_free(&r);
    unlink(q);
    /* --step with a recording that names no lesson */
    char v[256];
    test_tmp_template(v, sizeof v, "mha-cli-rec");
    write_recording(v, "mha-explorer-recording 1\n0.5 right\n");
    cli_expect_error((const char *[]){"--replay", v, "--step", "2", NULL},
                     "--step needs --lesson N|FILE");
    unlink(v);
}
END_TEST

START_TEST(classroom_options)
{
    cli_expect_error((const char *[]){"--theme", "pink", NULL}, "--theme: unknown theme 'pink'");
    cli_expect_error((const char *[]){"--autoplay", "0", NULL},
                     "--autoplay: 0 is out of range; expected a number from 0.1 to 3600");
    cli_expect_error((const char *[]){"--autoplay", "2s", NULL},
                     "--autoplay: '2s' is not a number");
    cli_expect_error((const char *[]){"--autoplay", "nan", NULL}, "is not a number");
    cli_expect_error((const char *[]){"--replay", "x.rec", "--speed", "0", NULL},
                     "--speed: 0 is out of range");
    cli_expect_error((const char *[]){"--speed", "2", NULL}, "--speed needs --replay FILE");
    cli_expect_error((const char *[]){"--record", "a.rec", "--replay", "b.rec", NULL},
                     "--record cannot be combined with --replay");
    /* a replay never writes a model, as a follower never does */
    cli_expect_error((const char *[]){"--replay", "x.rec", "--save", "m.json", NULL},
                     "--save cannot be combined with --replay: a replay never writes a model");
    cli_expect_error((const char *[]){"--follow", "x", "--save", "m.json", NULL},
                     "--save cannot be combined with --follow");
    cli_expect_error((const char *[]){"--replay", "/nonexistent/x.rec", NULL},
                     "/nonexistent/x.rec: cannot open");
    /* a malformed recording: its file and line, before anything else */
    char p[256];
    test_tmp_template(p, sizeof p, "mha-cli-rec");
    int fd = mkstemp(p);
    ck_assert_int_ge(fd, 0);
    const char text[] = "mha-explorer-recording 1\n0.5 right\n0.7 sideways\n";
    ck_assert_int_eq(write(fd, text, sizeof text - 1), (int)sizeof text - 1);
    close(fd);
    char want[384];
    snprintf(want, sizeof want, "%s:3: unknown key \"sideways\"", p);
    cli_expect_error((const char *[]){"--replay", p, NULL}, want);
    unlink(p);
    /* good ones reach the terminal check */
    struct cli_result r = cli_run((const char *[]){
        "--theme", "projector", "--present", "--autoplay", "0.5", "--stage", "attention", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_ptr_nonnull(strstr(r.err, "the explorer cannot draw here"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--bench-frames", "3", "--theme", "light", "--present", "--tokens",
                                 "a b c", "--d-model", "8", "--heads", "4", "--stage", "attention",
                                 "--focus", "weights, head 3, row c, col a", NULL});
    ck_assert_msg(r.status == 0, "stderr: %s", r.err);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--help", NULL});
    static const char *const options[] = {"--theme NAME",  "--present",     "--autoplay SECONDS",
                                          "--record FILE", "--replay FILE", "--speed X",
                                          "--force"};
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        ck_assert_msg(strstr(r.out, options[i]) != NULL, "--help lacks %s", options[i]);
    cli_result_free(&r);
}
END_TEST

static Suite *cli_suite(void)
{
    Suite *s = suite_create("cli");
    TCase *tc = tcase_create("errors");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, help_and_version);
    tcase_add_test(tc, usage_errors);
    tcase_add_test(tc, heads_that_do_not_divide_are_explained);
    tcase_add_test(tc, bad_files_name_file_line_and_column);
    tcase_add_test(tc, explorer_without_a_terminal_points_to_dump);
    suite_add_tcase(s, tc);
    tc = tcase_create("dump");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, default_example_matches_reference);
    tcase_add_test(tc, one_stage_causal_and_sizes);
    tcase_add_test(tc, generated_examples_are_deterministic);
    tcase_add_test(tc, text_format_reads_like_a_slide);
    tcase_add_test(tc, export_formats_and_lessons);
    tcase_add_test(tc, lesson_commands);
    tcase_add_test(tc, lesson_of_one_step);
    tcase_add_test(tc, file_messages);
    tcase_add_test(tc, lesson_tools_refuse_what_they_ignore);
    tcase_add_test(tc, explorer_options);
    tcase_add_test(tc, classroom_options);
    tcase_add_test(tc, recordings_carry_their_start);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
