/* test_cli_train.c - the training command line as a user meets it: --grad
 * against the PyTorch reference (one layer and several; the options of
 * layers are in test_cli_layers.c), --train ... --dump summary (deterministic,
 * text and json), --save and --load of a model file, a teacher's task file,
 * and every bad file or option: exit status 2, a message naming the file and
 * the field, nothing on stdout. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_max.h"
#include "cli_run.h"
#include "test_tmp.h"

static char *tmp_file(const char *text)
{
    static char path[512];
    test_tmp_template(path, sizeof path, "mha-cli-train");
    const int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    if (text)
        ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    return strdup(path);
}

/* Every number of the tree got against torch's want, same shape:
 * |got - want| <= abs_tol + rel_tol·|want|.  Returns the numbers compared. */
static size_t compare_tree(json_t *got, json_t *want, const char *where, double abs_tol,
                           double rel_tol)
{
    ck_assert_msg(got != NULL, "%s: missing in the output", where);
    char sub[256];
    size_t n = 0;
    if (json_is_object(want)) {
        ck_assert_uint_eq(json_object_size(got), json_object_size(want));
        const char *key;
        json_t *v;
        json_object_foreach(want, key, v)
        {
            snprintf(sub, sizeof sub, "%s.%s", where, key);
            n += compare_tree(json_object_get(got, key), v, sub, abs_tol, rel_tol);
        }
    } else if (json_is_array(want)) {
        ck_assert_msg(json_array_size(got) == json_array_size(want), "%s: %zu entries, torch %zu",
                      where, json_array_size(got), json_array_size(want));
        size_t i;
        json_t *v;
        json_array_foreach(want, i, v)
        {
            snprintf(sub, sizeof sub, "%s[%zu]", where, i);
            n += compare_tree(json_array_get(got, i), v, sub, abs_tol, rel_tol);
        }
    } else {
        const double x = json_number_value(got), y = json_number_value(want);
        ck_assert_msg(json_is_number(got) && fabs(x - y) <= abs_tol + rel_tol * fabs(y),
                      "%s: %.9g, torch %.9g", where, x, y);
        n = 1;
    }
    return n;
}

/* --grad against PyTorch autograd: ordinary logits, and logits in the
 * thousands where most targets' probabilities underflow a float (the loss
 * must still be the exact cross-entropy, not a clipped one). */
static const char *const grad_cases[] = {
    "causal_2heads_two_outputs", "large_logits_2heads_two_outputs",
    "large_logits_1head_plain",  "text_next_word_vocab300",
    "layers2_causal_2heads",     "layers4_causal_4heads_unscaled",
};

START_TEST(grad_matches_torch)
{
    const char *name = grad_cases[_i];
    char model[1024], batch[1024], grad[1024], rel[256];
    snprintf(rel, sizeof rel, "train/%s.model.json", name);
    snprintf(model, sizeof model, "%s", cli_data_path(rel));
    snprintf(rel, sizeof rel, "train/%s.batch.json", name);
    snprintf(batch, sizeof batch, "%s", cli_data_path(rel));
    snprintf(rel, sizeof rel, "train/%s.grad.json", name);
    snprintf(grad, sizeof grad, "%s", cli_data_path(rel));
    struct cli_result r = cli_run((const char *[]){"--grad", model, "--batch", batch, NULL});
    ck_assert_msg(r.status == 0, "status %d: %s", r.status, r.err);
    json_t *got = json_loads(r.out, 0, NULL), *want = json_load_file(grad, 0, NULL);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    /* the loss to float rounding of the logits: a few float epsilons */
    const double lg = json_number_value(json_object_get(got, "loss"));
    const double lw = json_number_value(json_object_get(want, "loss"));
    ck_assert_msg(fabs(lg - lw) <= 4e-6 * lw, "%s: loss %.9g, torch %.9g", name, lg, lw);
    /* every gradient in torch's layout, the read-outs' too; a float sum's
     * rounding grows with the size of its terms, so the absolute part of the
     * tolerance with the largest gradient (a gradient that is 0 in exact
     * arithmetic, like b_k's, comes out as rounding noise of that size) */
    json_t *gw = json_object_get(want, "grad");
    const double scale = fmax(1.0, tree_max_abs(gw));
    const size_t n = compare_tree(json_object_get(got, "grad"), gw, "grad", 2e-5 * scale, 2e-4);
    ck_assert_uint_gt(n, 100);
    json_decref(got);
    json_decref(want);
    cli_result_free(&r);
}
END_TEST

START_TEST(grad_errors)
{
    char model[1024];
    snprintf(model, sizeof model, "%s",
             cli_data_path("train/plain_1head_unscaled_nobias.model.json"));
    cli_expect_error((const char *[]){"--grad", model, NULL}, "--grad needs --batch BATCH");
    /* it takes only --batch: another option is refused, not ignored */
    const char *batch = cli_data_path("train/plain_1head_unscaled_nobias.batch.json");
    char batch_path[1024];
    snprintf(batch_path, sizeof batch_path, "%s", batch);
    cli_expect_error(
        (const char *[]){"--grad", model, "--batch", batch_path, "--format", "svg", NULL},
        "--format cannot be combined with --grad, which takes only --batch BATCH");
    cli_expect_error(
        (const char *[]){"--grad", model, "--batch", batch_path, "--list-lessons", NULL},
        "--list-lessons cannot be combined with --grad");
    char *bad = tmp_file("{\"tokens\": [[0, 1, 9]], \"targets\": [[[0, 1, 2]]]}");
    cli_expect_error((const char *[]){"--grad", model, "--batch", bad, NULL},
                     "\"tokens\" row 0, column 2: id 9 is out of range");
    cli_expect_error((const char *[]){"--grad", model, "--batch", bad, NULL}, bad);
    remove(bad);
    free(bad);
    bad = tmp_file("{\"tokens\": [[0, 1, 2, 3, 4, 0, 1, 2]], \"targets\": [[[0, 1, 2, 3, 4, 0, "
                   "1, 2]]]}");
    cli_expect_error((const char *[]){"--grad", model, "--batch", bad, NULL},
                     "more than the model's context 6");
    remove(bad);
    free(bad);
    bad = tmp_file(
        "{\"vocab\": [\"a\", \"b\"], \"d_model\": 2, \"num_heads\": 1, \"context\": 2,"
        " \"embedding\": [[1, 2], [3, 4]], \"positions\": [[0, 0], [0, 0]],"
        " \"w_q\": [[1, 0], [0, 1]], \"w_k\": [[1, 0], [0, 1]],"
        " \"w_v\": [[1, 0], [0, 1]], \"w_o\": [[1, 0], [0, 1e999]],"
        " \"outputs\": [{\"name\": \"o\", \"classes\": 2, \"unembed\": [[1, 0], [0, 1]]}]}");
    cli_expect_error((const char *[]){"--grad", bad, "--batch", model, NULL}, bad);
    remove(bad);
    free(bad);
    bad = tmp_file(
        "{\"vocab\": [\"a\", \"b\"], \"d_model\": 2, \"num_heads\": 1, \"context\": 2,"
        " \"embedding\": [[1, 2], [3, 4]], \"positions\": [[0, 0]],"
        " \"w_q\": [[1, 0], [0, 1]], \"w_k\": [[1, 0], [0, 1]],"
        " \"w_v\": [[1, 0], [0, 1]], \"w_o\": [[1, 0], [0, 1]],"
        " \"outputs\": [{\"name\": \"o\", \"classes\": 2, \"unembed\": [[1, 0], [0, 1]]}]}");
    cli_expect_error((const char *[]){"--grad", bad, "--batch", model, NULL},
                     "\"positions\" has 1 rows; expected 2 (context)");
    remove(bad);
    free(bad);
}
END_TEST

/* The summary without its ms_per_step line. */
static char *without_timing(const char *text)
{
    char *s = strdup(text), *at = strstr(s, "ms_per_step");
    ck_assert_ptr_nonnull(at);
    *at = '\0';
    return s;
}

START_TEST(train_summary_deterministic)
{
    const char *args[] = {"--train", "first-prev", "--steps", "150", "--seed",
                          "5",       "--dump",     "summary", NULL};
    struct cli_result a = cli_run(args), b = cli_run(args);
    ck_assert_msg(a.status == 0, "status %d: %s", a.status, a.err);
    ck_assert_str_eq(a.err, ""); /* no progress bar when stderr is not a terminal */
    char *ta = without_timing(a.out), *tb = without_timing(b.out);
    ck_assert_str_eq(ta, tb);
    ck_assert_ptr_nonnull(strstr(a.out, "task         first-prev"));
    ck_assert_ptr_nonnull(strstr(a.out, "steps        150"));
    ck_assert_ptr_nonnull(strstr(a.out, "accuracy     prev"));
    ck_assert_ptr_nonnull(strstr(a.out, "on 1024 held-out sequences, never drawn in training"));
    ck_assert_ptr_nonnull(strstr(a.out, "description  At every position after the first"));
    free(ta);
    free(tb);
    cli_result_free(&a);
    cli_result_free(&b);
    struct cli_result j = cli_run((const char *[]){"--train", "prev", "--steps", "20", "--dump",
                                                   "summary", "--format", "json", NULL});
    ck_assert_int_eq(j.status, 0);
    json_t *root = json_loads(j.out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_str_eq(json_string_value(json_object_get(root, "task")), "prev");
    ck_assert_int_eq(json_integer_value(json_object_get(root, "num_heads")), 2);
    json_t *held = json_object_get(root, "held_out");
    ck_assert_int_eq(json_integer_value(json_object_get(held, "sequences")), 1024);
    ck_assert_str_eq(json_string_value(json_object_get(held, "source")),
                     "generated, disjoint from training");
    ck_assert_ptr_nonnull(strstr(json_string_value(json_object_get(root, "description")),
                                 "which token came just before"));
    ck_assert(json_is_number(json_object_get(json_object_get(root, "accuracy"), "prev")));
    ck_assert(json_is_number(json_object_get(root, "ms_per_step")));
    json_decref(root);
    cli_result_free(&j);
}
END_TEST

/* A letter task's summary knocks each head out alone: the head labelled
 * `first` is the one whose loss takes `first` down to a guess and leaves
 * `prev`, and the other way round, so each label can be checked from the
 * program (seed 1, two heads: one per place). */
START_TEST(summary_knocks_each_head_out)
{
    struct cli_result r =
        cli_run((const char *[]){"--train", "first-prev", "--heads", "2", "--seed", "1", "--dump",
                                 "summary", "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *root = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *heads = json_object_get(root, "heads"), *k = json_object_get(root, "knocked_out");
    ck_assert_int_eq(json_array_size(k), 2);
    int seen = 0;
    for (size_t h = 0; h < 2; h++) {
        const char *label = json_string_value(json_object_get(json_array_get(heads, h), "label"));
        json_t *acc = json_object_get(json_array_get(k, h), "accuracy");
        ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(k, h), "head")),
                         (json_int_t)h);
        const double first = json_number_value(json_object_get(acc, "first"));
        const double prev = json_number_value(json_object_get(acc, "prev"));
        const bool is_first = !strncmp(label, "first", 5), is_prev = !strncmp(label, "prev", 4);
        ck_assert_msg(is_first || is_prev, "head %zu: label %s", h, label);
        seen |= is_first ? 1 : 2;
        /* 16 tokens: a guess is right about one time in 16 */
        ck_assert_msg(is_first ? first < 0.3 && prev > 0.95 : prev < 0.3 && first > 0.95,
                      "head %zu (%s) knocked out: first %.4f, prev %.4f", h, label, first, prev);
    }
    ck_assert_int_eq(seen, 3);
    json_decref(root);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--train", "first-prev", "--heads", "2", "--seed", "1", "--dump",
                                 "summary", NULL});
    ck_assert_ptr_nonnull(strstr(r.out, "\nknocked out  head 0: first "));
    ck_assert_ptr_nonnull(strstr(r.out, "\nknocked out  head 1: first "));
    cli_result_free(&r);
}
END_TEST

START_TEST(save_and_load_model)
{
    char *path = tmp_file(NULL);
    struct cli_result r = cli_run((const char *[]){"--train", "first-prev", "--steps", "30",
                                                   "--save", path, "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", path, "--dump", "input", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "8 tokens, d_model 8, 2 heads"));
    ck_assert_ptr_nonnull(strstr(r.out, "mask causal"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", path, "--dump", "attention", "--format", "json", NULL});
    ck_assert_int_eq(r.status, 0);
    cli_result_free(&r);
    cli_expect_error((const char *[]){"--load", path, "--heads", "1", "--dump", "all", NULL},
                     "--heads cannot be combined with a model file");
    remove(path);
    free(path);
    cli_expect_error((const char *[]){"--train", "first-prev", "--steps", "1", "--save",
                                      "/nonexistent-dir/m.json", "--dump", "summary", NULL},
                     "/nonexistent-dir/m.json");
}
END_TEST

/* A sentence file: a model file (beside it, or absolute) on its own words,
 * wherever a model file goes; bad ones name the file and what is wrong,
 * exit 2, and a sentence file naming a sentence file is refused. */
START_TEST(sentence_files)
{
    char *model = tmp_file(NULL);
    struct cli_result r = cli_run((const char *[]){"--train", "first-prev", "--steps", "30",
                                                   "--save", model, "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    const char *base = strrchr(model, '/') ? strrchr(model, '/') + 1 : model;
    char text[1024];
    snprintf(text, sizeof text, "{\"model\": \"%s\", \"words\": \"A B C D E\"}", base);
    char *sent = tmp_file(text);
    r = cli_run((const char *[]){"--load", sent, "--dump", "input", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "5 tokens, d_model 8, 2 heads"));
    ck_assert_ptr_nonnull(strstr(r.out, "[A] [B] [C] [D] [E]"));
    cli_result_free(&r);
    /* --tokens wins over the file's words; --dump circuits reads the model */
    r = cli_run((const char *[]){"--load", sent, "--tokens", "P O", "--dump", "input", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "[P] [O]"));
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", sent, "--dump", "circuits", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "d_model 8, 2 heads, 16 words"));
    cli_result_free(&r);
    /* bad ones */
    char *bad = tmp_file("{\"model\": \"no-such-model.json\", \"words\": \"A\"}");
    cli_expect_error((const char *[]){"--load", bad, "--dump", "input", NULL}, "names: cannot");
    remove(bad);
    free(bad);
    snprintf(text, sizeof text, "{\"model\": \"%s\"}", base);
    bad = tmp_file(text);
    cli_expect_error((const char *[]){"--load", bad, "--dump", "input", NULL}, "\"words\"");
    remove(bad);
    free(bad);
    snprintf(text, sizeof text, "{\"model\": \"%s\", \"words\": \"A zz\"}", base);
    bad = tmp_file(text);
    cli_expect_error((const char *[]){"--load", bad, "--dump", "input", NULL},
                     "\"zz\" has no embedding");
    remove(bad);
    free(bad);
    snprintf(text, sizeof text, "{\"model\": \"%s\", \"words\": \"A\", \"seed\": 3}", base);
    bad = tmp_file(text);
    cli_expect_error((const char *[]){"--load", bad, "--dump", "input", NULL}, "seed");
    remove(bad);
    free(bad);
    bad = tmp_file("{\"model\": 7, \"words\": \"A\"}");
    cli_expect_error((const char *[]){"--load", bad, "--dump", "input", NULL},
                     "\"model\" must be a string");
    remove(bad);
    free(bad);
    /* a sentence file naming a sentence file */
    const char *sbase = strrchr(sent, '/') ? strrchr(sent, '/') + 1 : sent;
    snprintf(text, sizeof text, "{\"model\": \"%s\", \"words\": \"A\"}", sbase);
    bad = tmp_file(text);
    cli_expect_error((const char *[]){"--load", bad, "--dump", "input", NULL},
                     "a sentence file names a model file");
    remove(bad);
    free(bad);
    remove(sent);
    free(sent);
    remove(model);
    free(model);
}
END_TEST

/* A task file of rows rows of 3 tokens over a, b, c (row i: i in base 3)
 * whose target is the next letter of every token; extra goes in first. */
static char *task_file(int rows, const char *extra)
{
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{%s\"vocab\": [\"a\", \"b\", \"c\"], \"outputs\": [\"next\"], "
                                "\"tokens\": [",
                                extra);
    for (int i = 0; i < rows; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s[%d, %d, %d]", i ? ", " : "", i % 3,
                              i / 3 % 3, i / 9 % 3);
    n += (size_t)snprintf(text + n, sizeof text - n, "], \"targets\": [[");
    for (int i = 0; i < rows; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s[%d, %d, %d]", i ? ", " : "",
                              (i + 1) % 3, (i / 3 + 1) % 3, (i / 9 + 1) % 3);
    snprintf(text + n, sizeof text - n, "]]}");
    return tmp_file(text);
}

START_TEST(train_task_file)
{
    /* a rule that generalises, measured on rows 4, 9, 14, 19 and 24, never
     * trained on (every token stands at every position in the others) */
    char *path = task_file(27, "\"description\": \"Name the letter after each one.\", ");
    struct cli_result r = cli_run((const char *[]){"--train", path, "--steps", "300", "--dump",
                                                   "summary", "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *root = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(root);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "vocab")), 3);
    ck_assert_int_eq(json_integer_value(json_object_get(root, "context")), 3);
    ck_assert_str_eq(json_string_value(json_object_get(root, "description")),
                     "Name the letter after each one.");
    json_t *held = json_object_get(root, "held_out");
    ck_assert_int_eq(json_integer_value(json_object_get(held, "sequences")), 5);
    ck_assert_str_eq(json_string_value(json_object_get(held, "source")), "task file rows");
    ck_assert_double_ge(
        json_number_value(json_object_get(json_object_get(root, "accuracy"), "next")), 0.99);
    json_decref(root);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--train", path, "--steps", "300", "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "description  Name the letter after each one.\n"));
    ck_assert_ptr_nonnull(strstr(r.out, "on 5 held-out rows of the file\n"));
    cli_result_free(&r);
    remove(path);
    free(path);
    path = tmp_file("{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"next\"],"
                    " \"tokens\": [[0, 1]], \"targets\": [[[1, 2]]]}");
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL},
                     "\"targets[0] (next)\" row 0, column 1: id 2 is out of range");
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL}, path);
    remove(path);
    free(path);
}
END_TEST

/* Six rows of random targets: the held-out row is one the model never saw,
 * and the summary says it is one row of the file, not 1024 sequences. */
START_TEST(train_task_file_random_targets)
{
    char *path = tmp_file("{\"vocab\": [\"a\", \"b\", \"c\"], \"outputs\": [\"x\"],"
                          " \"tokens\": [[0, 1, 2], [1, 2, 0], [2, 0, 1], [0, 2, 1], [1, 0, 2],"
                          " [2, 1, 0]],"
                          " \"targets\": [[[1, 0, -1], [2, 2, -1], [0, 1, -1], [2, 0, -1],"
                          " [1, 1, -1], [0, 2, -1]]]}");
    struct cli_result r =
        cli_run((const char *[]){"--train", path, "--steps", "300", "--dump", "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "on 1 held-out row of the file\n"));
    ck_assert_ptr_null(strstr(r.out, "1024"));
    /* no description in the file: the general one */
    ck_assert_ptr_nonnull(strstr(r.out, "description  Sequences and targets from a file"));
    cli_result_free(&r);
    remove(path);
    free(path);
}
END_TEST

START_TEST(train_task_file_refused)
{
    char *path = tmp_file("{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"x\"],"
                          " \"tokens\": [[0, 1], [1, 0], [1, 1]],"
                          " \"targets\": [[[-1, -1], [-1, -1], [-1, -1]]]}");
    char want[256];
    snprintf(want, sizeof want, "%s: no targets to learn", path);
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL}, want);
    cli_expect_error((const char *[]){"--train", path, NULL}, want);
    remove(path);
    free(path);
    path = tmp_file("{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"x\"],"
                    " \"tokens\": [[0, 1]], \"targets\": [[[1, 0]]]}");
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL},
                     "\"tokens\" has 1 row: too few to hold any out; a task file needs 2 rows");
    remove(path);
    free(path);
    /* targets as rows of tokens, the per-output list left out */
    path = tmp_file("{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"x\"],"
                    " \"tokens\": [[0, 1], [1, 0]], \"targets\": [[1, 0], [0, 1]]}");
    cli_expect_error((const char *[]){"--train", path, "--dump", "summary", NULL},
                     "\"targets\" has 2 entries; expected 1 (one list per output), shape [1 "
                     "output: x][2 rows, as \"tokens\"][2 ids, -1 = no target]");
    remove(path);
    free(path);
}
END_TEST

/* A path that exists but cannot be opened is reported as such, not as an
 * unknown task. */
START_TEST(train_task_path_unreadable)
{
    char dir[] = "/tmp/mha-cli-train-dir-XXXXXX", loop[64], inner[64], file[96];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(loop, sizeof loop, "%s/loop.json", dir);
    ck_assert_int_eq(symlink(loop, loop), 0);
    cli_expect_error((const char *[]){"--train", loop, "--dump", "summary", NULL},
                     "loop.json: cannot open: Too many levels of symbolic links");
    struct cli_result r = cli_run((const char *[]){"--train", loop, "--dump", "summary", NULL});
    ck_assert_ptr_null(strstr(r.err, "unknown task"));
    cli_result_free(&r);
    /* a folder that may not be searched (root may search any) */
    snprintf(inner, sizeof inner, "%s/closed", dir);
    snprintf(file, sizeof file, "%s/task.json", inner);
    ck_assert_int_eq(mkdir(inner, 0700), 0);
    FILE *f = fopen(file, "w");
    ck_assert_ptr_nonnull(f);
    fputs("{}", f);
    fclose(f);
    ck_assert_int_eq(chmod(inner, 0), 0);
    if (geteuid() != 0)
        cli_expect_error((const char *[]){"--train", file, "--dump", "summary", NULL},
                         "task.json: cannot open: Permission denied");
    ck_assert_int_eq(chmod(inner, 0700), 0);
    remove(file);
    rmdir(inner);
    remove(loop);
    rmdir(dir);
    /* nothing of that name at all: an unknown task */
    cli_expect_error(
        (const char *[]){"--train", "/nonexistent-dir/task.json", "--dump", "summary", NULL},
        "--train: unknown task '/nonexistent-dir/task.json'");
}
END_TEST

START_TEST(train_usage_errors)
{
    cli_expect_error((const char *[]){"--train", "no-such-task", "--dump", "summary", NULL},
                     "--train: unknown task 'no-such-task'; expected first-prev, prev");
    cli_expect_error((const char *[]){"--dump", "summary", NULL}, "--dump summary needs --train");
    cli_expect_error((const char *[]){"--lr", "0.1", NULL}, "--lr needs --train");
    cli_expect_error((const char *[]){"--train", "prev", "--heads", "3", "--dump", "summary", NULL},
                     "--heads:");
    cli_expect_error(
        (const char *[]){"--train", "prev", "--batch", "x.json", "--dump", "summary", NULL},
        "--batch: with --train give the number");
    cli_expect_error(
        (const char *[]){"--train", "find-copy", "--vocab", "4", "--dump", "summary", NULL},
        "--vocab 4: task find-copy needs");
    cli_expect_error((const char *[]){"--train", "prev", "--batch", "4096", "--context", "64",
                                      "--d-model", "256", "--dump", "summary", NULL},
                     "GiB to keep every activation; the limit is 1 GiB");
    cli_expect_error((const char *[]){"--train", "prev", "--dump", "attention", NULL},
                     "--dump: with --train the dump is 'summary'");
    cli_expect_error(
        (const char *[]){"--train", "prev", "--dump", "summary", "--format", "svg", NULL},
        "--format: the training summary is text or json");
}
END_TEST

static Suite *cli_train_suite(void)
{
    Suite *s = suite_create("cli_train");
    TCase *tc = tcase_create("train");
    tcase_add_loop_test(tc, grad_matches_torch, 0, (int)(sizeof grad_cases / sizeof grad_cases[0]));
    tcase_add_test(tc, grad_errors);
    tcase_add_test(tc, train_summary_deterministic);
    tcase_add_test(tc, summary_knocks_each_head_out);
    tcase_add_test(tc, save_and_load_model);
    tcase_add_test(tc, sentence_files);
    tcase_add_test(tc, train_task_file);
    tcase_add_test(tc, train_task_file_random_targets);
    tcase_add_test(tc, train_task_file_refused);
    tcase_add_test(tc, train_task_path_unreadable);
    tcase_add_test(tc, train_usage_errors);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_train_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
