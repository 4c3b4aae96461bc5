/* test_cli_generate.c - --generate: a language model writes lines, held to
 * the lines tests/reference/generate_writing.py wrote with its own forward
 * pass in PyTorch and its own sampling (data/generate/cases.json), on the
 * model it drew (data/generate/lm.model.json); and every way the options
 * can be wrong. */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_run.h"
#include "test_tmp.h"
#include "check_run.h"

static char model[4096];

static void setup(void)
{
    snprintf(model, sizeof model, "%s", cli_data_path("generate/lm.model.json"));
}

/* What the program prints for one case of cases.json, against its lines. */
static void run_case(json_t *c, int i)
{
    const char *tokens = json_string_value(json_object_get(c, "tokens"));
    char n[16], temperature[32], top_k[16], seed[16];
    snprintf(n, sizeof n, "%lld", json_integer_value(json_object_get(c, "n")));
    snprintf(temperature, sizeof temperature, "%.17g",
             json_number_value(json_object_get(c, "temperature")));
    snprintf(top_k, sizeof top_k, "%lld", json_integer_value(json_object_get(c, "top_k")));
    snprintf(seed, sizeof seed, "%lld", json_integer_value(json_object_get(c, "seed")));
    const bool greedy = json_number_value(json_object_get(c, "temperature")) == 0.0;
    const char *args[16] = {"--load", model, "--generate", n, "--temperature", temperature};
    int a = 6;
    if (tokens)
        args[a++] = "--tokens", args[a++] = tokens;
    if (!greedy) {
        args[a++] = "--seed", args[a++] = seed;
        if (strcmp(top_k, "0") != 0)
            args[a++] = "--top-k", args[a++] = top_k;
    }
    args[a] = NULL;
    char want[8192] = "";
    json_t *line;
    size_t k;
    json_array_foreach(json_object_get(c, "lines"), k, line)
    {
        strcat(want, json_string_value(line));
        strcat(want, "\n");
    }
    struct cli_result r = cli_run(args);
    ck_assert_msg(r.status == 0, "case %d: status %d, stderr %s", i, r.status, r.err);
    ck_assert_msg(strcmp(r.out, want) == 0, "case %d:\nwrote:\n%swanted:\n%s", i, r.out, want);
    ck_assert_str_eq(r.err, "");
    cli_result_free(&r);
}

START_TEST(test_reference_lines)
{
    json_error_t jerr;
    json_t *root = json_load_file(cli_data_path("generate/cases.json"), 0, &jerr);
    ck_assert_msg(root, "cases.json: %s", jerr.text);
    json_t *c;
    size_t i;
    size_t n = json_array_size(json_object_get(root, "cases"));
    ck_assert_uint_ge(n, 6);
    json_array_foreach(json_object_get(root, "cases"), i, c) run_case(c, (int)i);
    json_decref(root);
}
END_TEST

/* The same command writes the same lines; another seed writes others. */
START_TEST(test_seed_repeats)
{
    const char *a[] = {"--load", model, "--generate", "8", "--tokens", "the", "--seed", "5", NULL};
    const char *b[] = {"--load", model, "--generate", "8", "--tokens", "the", "--seed", "6", NULL};
    struct cli_result r1 = cli_run(a), r2 = cli_run(a), r3 = cli_run(b);
    ck_assert_int_eq(r1.status, 0);
    ck_assert_str_eq(r1.out, r2.out);
    ck_assert_str_ne(r1.out, r3.out);
    int lines = 0;
    for (const char *p = r1.out; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 8);
    cli_result_free(&r1);
    cli_result_free(&r2);
    cli_result_free(&r3);
}
END_TEST

/* <unk> is never written, and a line stops at its end mark or the context. */
START_TEST(test_lines_end)
{
    const char *args[] = {"--load", model,      "--generate", "200", "--temperature",
                          "3",      "--tokens", "a",          NULL};
    struct cli_result r = cli_run(args);
    ck_assert_int_eq(r.status, 0);
    ck_assert_ptr_null(strstr(r.out, "<unk>"));
    char *save = NULL;
    for (char *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
        int words = 1;
        for (const char *p = l; *p; p++)
            words += *p == ' ';
        const char *last = strrchr(l, ' ');
        last = last ? last + 1 : l;
        const bool mark = strspn(last, ".!?") == strlen(last);
        ck_assert_msg(words == 10 || (mark && words < 10), "line \"%s\"", l);
        for (const char *p = l; (p = strpbrk(p, ".!?")) && p < last; p++)
            ck_assert_msg(0, "an end mark inside \"%s\"", l);
    }
    cli_result_free(&r);
}
END_TEST

/* --top-p: lines drawn from the nucleus; a nucleus of one word is the
 * likeliest word, as --temperature 0 writes it; P = 1 is every word. */
START_TEST(test_top_p)
{
    const char *a[] = {"--load", model, "--generate", "3", "--top-p", "0.5", NULL};
    struct cli_result r = cli_run(a);
    ck_assert_msg(r.status == 0, "%s", r.err);
    int lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    ck_assert_int_eq(lines, 3);
    ck_assert_ptr_null(strstr(r.out, "<unk>"));
    cli_result_free(&r);
    const char *one[] = {"--load", model,     "--generate", "2", "--tokens",
                         "a",      "--top-p", "1e-9",       NULL};
    const char *greedy[] = {"--load", model,           "--generate", "2", "--tokens",
                            "a",      "--temperature", "0",          NULL};
    struct cli_result r1 = cli_run(one), r2 = cli_run(greedy);
    ck_assert_int_eq(r1.status, 0);
    ck_assert_str_eq(r1.out, r2.out);
    cli_result_free(&r1);
    cli_result_free(&r2);
    const char *all[] = {"--load", model, "--generate", "4", "--seed", "9", "--top-p", "1", NULL};
    const char *plain[] = {"--load", model, "--generate", "4", "--seed", "9", NULL};
    r1 = cli_run(all);
    r2 = cli_run(plain);
    ck_assert_int_eq(r1.status, 0);
    ck_assert_str_eq(r1.out, r2.out);
    cli_result_free(&r1);
    cli_result_free(&r2);
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--top-p", "0", NULL},
                     "--top-p: 0 is out of range; expected a number above 0 and at most 1");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--top-p", "1.5", NULL},
                     "--top-p: 1.5 is out of range");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--top-p", "x", NULL},
                     "--top-p: 'x' is not a number");
    cli_expect_error((const char *[]){"--load", model, "--top-p", "0.5", "--dump", "output", NULL},
                     "--top-p cannot be combined with --dump, which prints and opens no screen; "
                     "--top-p applies to the explorer's screen and --generate");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--temperature", "0",
                                      "--top-p", "0.5", NULL},
                     "--top-p: --temperature 0 writes the likeliest word every time");
}
END_TEST

/* A model whose sample begins with <unk> starts its lines at the first
 * word after it: no line holds <unk>. */
START_TEST(test_sample_starts_with_unk)
{
    char dir[256], path[512];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-generate-unk"));
    test_tmp_path(dir, "lm.json", path, sizeof path);
    json_t *m = json_load_file(model, 0, NULL);
    ck_assert_ptr_nonnull(m);
    json_object_set_new(m, "sample", json_pack("[i, i, i]", 0, 0, 4));
    ck_assert_int_eq(json_dump_file(m, path, 0), 0);
    json_decref(m);
    const char *args[] = {"--load", path, "--generate", "6", "--temperature", "2", NULL};
    struct cli_result r = cli_run(args);
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_null(strstr(r.out, "<unk>"));
    char *save = NULL;
    for (char *l = strtok_r(r.out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
        ck_assert_msg(!strncmp(l, "dog ", 4), "line \"%s\" does not start at \"dog\"", l);
    cli_result_free(&r);
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST

START_TEST(test_errors)
{
    cli_expect_error((const char *[]){"--generate", "2", NULL}, "give --load MODEL");
    /* a file that cannot be read says why, not that it is no model */
    cli_expect_error((const char *[]){"--load", "/nonexistent/m.json", "--generate", "2", NULL},
                     "/nonexistent/m.json: cannot open: No such file or directory");
    cli_expect_error((const char *[]){"--load", model, "--generate", "0", NULL},
                     "--generate: 0 is out of range");
    cli_expect_error((const char *[]){"--load", model, "--generate", "x", NULL},
                     "--generate: 'x' is not a whole number");
    cli_expect_error((const char *[]){"--load", model, "--temperature", "1", NULL},
                     "--temperature needs --generate N");
    cli_expect_error((const char *[]){"--load", model, "--top-k", "2", NULL},
                     "--top-k needs --generate N");
    cli_expect_error(
        (const char *[]){"--load", model, "--generate", "1", "--temperature", "-1", NULL},
        "--temperature: -1 is out of range");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--temperature", "0",
                                      "--seed", "3", NULL},
                     "--seed: --temperature 0 writes the likeliest word every time");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--top-k", "500", NULL},
                     "--top-k: 500 is more words than lm.model.json knows");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--dump", "all", NULL},
                     "--dump cannot be combined with --generate");
    /* an option of another tool is refused, not ignored or run instead */
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--format", "json", NULL},
                     "--format cannot be combined with --generate");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--save", "m.json", NULL},
                     "--save cannot be combined with --generate");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--steps", "5", NULL},
                     "--steps cannot be combined with --generate");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--grad", model, NULL},
                     "--grad cannot be combined with --generate");
    /* ... and so do a sentence file's, named as its */
    char dir[256], sentence[512], text[8400], real[4096];
    ck_assert_ptr_nonnull(realpath(model, real)); /* the sentence file is elsewhere */
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-generate-words"));
    test_tmp_path(dir, "s.json", sentence, sizeof sentence);
    snprintf(text, sizeof text, "{\"model\": \"%s\", \"words\": \"the cat .\"}\n", real);
    ck_assert_int_eq(test_tmp_put(sentence, text, 0644), 0);
    cli_expect_error((const char *[]){"--load", sentence, "--generate", "1", NULL},
                     "the \"words\" of s.json: the words end a sentence");
    ck_assert_int_eq(test_tmp_remove(dir), 0);
    char state[256];
    ck_assert_ptr_nonnull(test_tmp_dir(state, sizeof state, "mha-generate-state"));
    setenv("XDG_STATE_HOME", state, 1); /* where a reset would write */
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--reset-progress", NULL},
                     "--reset-progress cannot be combined with --generate");
    unsetenv("XDG_STATE_HOME");
    ck_assert_int_eq(rmdir(state), 0); /* nothing was written in it */
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--list-lessons", NULL},
                     "--list-lessons cannot be combined with --generate");
    cli_expect_error(
        (const char *[]){"--load", model, "--generate", "1", "--tokens", "the zebra", NULL},
        "--tokens: a word is unknown to lm.model.json");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--tokens",
                                      "the cat sat on the mat by the big log", NULL},
                     "fill the model's context of 10");
    /* a line stops at a sentence's end: words that end one leave nothing to write */
    cli_expect_error(
        (const char *[]){"--load", model, "--generate", "1", "--tokens", "the cat .", NULL},
        "--tokens: the words end a sentence (\".\")");
    cli_expect_error((const char *[]){"--load",
                                      cli_data_path("train/causal_3heads_20tokens"
                                                    ".model.json"),
                                      "--generate", "1", NULL},
                     "is not a language model");
}
END_TEST

/* --generate takes a language model only, one trained on a text: a model
 * of the induction task names its output "next" over the vocabulary too,
 * and is refused, whatever its layers. */
START_TEST(test_task_model_refused)
{
    char dir[256], path[512];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-generate-task"));
    test_tmp_path(dir, "m.json", path, sizeof path);
    struct cli_result r =
        cli_run((const char *[]){"--train", "induction", "--layers", "2", "--steps", "5", "--dump",
                                 "summary", "--save", path, NULL});
    ck_assert_msg(r.status == 0, "training: %s", r.err);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", path, "--generate", "3", NULL});
    ck_assert_int_eq(r.status, 2);
    ck_assert_str_eq(r.out, "");
    ck_assert_msg(strstr(r.err, "is not a language model (it was trained on the task induction)"),
                  "%s", r.err);
    cli_result_free(&r);
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cli_generate");
    TCase *tc = tcase_create("generate");
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_reference_lines);
    tcase_add_test(tc, test_seed_repeats);
    tcase_add_test(tc, test_lines_end);
    tcase_add_test(tc, test_errors);
    tcase_add_test(tc, test_task_model_refused);
    tcase_add_test(tc, test_top_p);
    tcase_add_test(tc, test_sample_starts_with_unk);
    suite_add_tcase(s, tc);
    return check_run(s);
}
