/* test_cli_layers.c - the command line of models of layers: --layers N
 * trained, saved and read back, the circuits and the stages of each layer
 * (--layer L), the induction task's two layers against one, a run that
 * slides from its best keeping its best, the logit lens of a two-layer
 * induction model (--dump lens), and every layer option out of range or
 * out of place: a message and status 2. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdbool.h>
#include <unistd.h>

#include "cli_run.h"
#include "test_tmp.h"

/* --layers N: the summary says how many, the saved model holds them in
 * "layers" and --grad reads it back; out of range or without --train, a
 * message and status 2. */
START_TEST(layers_train_and_save)
{
    char dir[256];
    test_tmp_template(dir, sizeof dir, "mha-layers");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char model[512];
    snprintf(model, sizeof model, "%s/l3.json", dir);
    struct cli_result r =
        cli_run((const char *[]){"--train", "first-prev", "--layers", "3", "--steps", "40",
                                 "--dump", "summary", "--format", "json", "--save", model, NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *sum = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(sum);
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "layers")), 3);
    json_decref(sum);
    cli_result_free(&r);
    json_t *saved = json_load_file(model, 0, NULL);
    ck_assert_ptr_nonnull(saved);
    ck_assert_uint_eq(json_array_size(json_object_get(saved, "layers")), 3);
    ck_assert_ptr_null(json_object_get(saved, "w_q"));
    json_decref(saved);
    cli_expect_error((const char *[]){"--train", "first-prev", "--layers", "5", NULL},
                     "--layers: 5 is out of range; expected 1..4");
    cli_expect_error((const char *[]){"--layers", "2", NULL}, "--layers needs --train");
    cli_expect_error((const char *[]){"--load", model, "--dump", "circuits", "--layer", "3", NULL},
                     "--layer: layer 3: the model has layers 0 to 2");
    /* --train TASK --layer L opens the training screen on layer L: one the
     * model trains (each pane's with --compare layers=...), never with the
     * summary; --generate and --export-torch run through every layer */
    cli_expect_error(
        (const char *[]){"--train", "first-prev", "--layers", "3", "--layer", "3", NULL},
        "--layer 3: the model trained has layers 0 to 2;");
    cli_expect_error((const char *[]){"--train", "first-prev", "--layer", "1", NULL},
                     "--layer 1: the model trained has one layer, layer 0;");
    cli_expect_error(
        (const char *[]){"--train", "induction", "--compare", "layers=2,1", "--layer", "1", NULL},
        "--layer 1: the pane of fewest layers trains one layer, layer 0;");
    cli_expect_error((const char *[]){"--train", "first-prev", "--format", "json", NULL},
                     "--format needs --dump summary");
    /* another option's options are refused with --train too, not ignored; a
     * screen's where no screen opens */
    cli_expect_error(
        (const char *[]){"--train", "first-prev", "--dump", "summary", "--step", "2", NULL},
        "--step cannot be combined with --dump summary, which trains without a terminal and "
        "prints the summary; --step applies to the explorer's screen and the training screen");
    cli_expect_error((const char *[]){"--train", "first-prev", "--speed", "2", NULL},
                     "--speed needs --replay FILE");
    cli_expect_error((const char *[]){"--train", "first-prev", "--force", NULL},
                     "--force needs --record FILE");
    cli_expect_error(
        (const char *[]){"--train", "first-prev", "--record", "a.rec", "--replay", "b.rec", NULL},
        "--record cannot be combined with --replay");
    /* --compare layers=... is spoken of in layers */
    cli_expect_error((const char *[]){"--train", "induction", "--compare", "layers=", NULL},
                     "--compare: expected layer counts such as layers=1,2");
    cli_expect_error((const char *[]){"--train", "induction", "--compare", "layers=1,2", "--dump",
                                      "summary", NULL},
                     "run --dump summary once per --layers");
    cli_expect_error(
        (const char *[]){"--train", "induction", "--compare", "layers=1,2", "--heads", "3", NULL},
        "mha-explorer: --heads: 3 heads do not divide d_model 32");
    /* each pane's file is named by its layers: a count given twice would be one file */
    cli_expect_error((const char *[]){"--train", "induction", "--compare", "layers=2,2", "--save",
                                      "m.json", NULL},
                     "mha-explorer: --save: --compare gives 2 layers twice, and the two runs "
                     "would be saved to one file; give each layer count once");
    cli_expect_error((const char *[]){"--train", "first-prev", "--layers", "2", "--layer", "1",
                                      "--dump", "summary", NULL},
                     "--layer cannot be combined with --dump summary");
    cli_expect_error((const char *[]){"--train", "first-prev", "--layers", "2", "--layer", "1",
                                      "--dump", "summary", NULL},
                     "; the summary gives every layer's heads");
    cli_expect_error((const char *[]){"--load", model, "--generate", "1", "--layer", "1", NULL},
                     "--layer cannot be combined with --generate");
    cli_expect_error(
        (const char *[]){"--load", model, "--export-torch", "m.py", "--layer", "1", NULL},
        "--layer cannot be combined with --export-torch");
    remove(model);
    rmdir(dir);
}
END_TEST

/* --dump circuits --layer L of a model of layers: layer L's direct path,
 * the same circuits as a one-layer model made of the same embeddings,
 * layer L's attention and the same read-outs (whose circuits are held to
 * numpy by test_circuits); the JSON names the layer. */
START_TEST(layers_circuits_per_layer)
{
    char dir[256];
    test_tmp_template(dir, sizeof dir, "mha-layers-circuits");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    char model[512], one[512];
    snprintf(model, sizeof model, "%s/l2.json", dir);
    snprintf(one, sizeof one, "%s/one.json", dir);
    struct cli_result r =
        cli_run((const char *[]){"--train", "induction", "--layers", "2", "--steps", "60", "--dump",
                                 "summary", "--save", model, NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    for (int layer = 0; layer < 2; layer++) {
        json_t *m = json_load_file(model, 0, NULL);
        ck_assert_ptr_nonnull(m);
        json_t *attn = json_array_get(json_object_get(m, "layers"), (size_t)layer);
        const char *key;
        json_t *value;
        json_object_foreach(attn, key, value) json_object_set(m, key, value);
        json_object_del(m, "layers");
        ck_assert_int_eq(json_dump_file(m, one, 0), 0);
        json_decref(m);
        char l[8];
        snprintf(l, sizeof l, "%d", layer);
        struct cli_result a = cli_run((const char *[]){"--load", model, "--dump", "circuits",
                                                       "--layer", l, "--format", "json", NULL});
        struct cli_result b = cli_run(
            (const char *[]){"--load", one, "--dump", "circuits", "--format", "json", NULL});
        ck_assert_msg(a.status == 0 && b.status == 0, "%s%s", a.err, b.err);
        json_t *ja = json_loads(a.out, 0, NULL), *jb = json_loads(b.out, 0, NULL);
        ck_assert_ptr_nonnull(ja);
        ck_assert_ptr_nonnull(jb);
        json_t *ca = json_object_get(ja, "circuits"), *cb = json_object_get(jb, "circuits");
        ck_assert_int_eq(json_integer_value(json_object_get(ca, "layer")), layer);
        ck_assert_int_eq(json_integer_value(json_object_get(ca, "layers")), 2);
        ck_assert_ptr_null(json_object_get(cb, "layers"));
        ck_assert_msg(json_equal(json_object_get(ca, "heads"), json_object_get(cb, "heads")),
                      "layer %d's circuits differ from the one-layer model's", layer);
        ck_assert(json_equal(json_object_get(ca, "direct"), json_object_get(cb, "direct")));
        json_decref(ja);
        json_decref(jb);
        cli_result_free(&a);
        cli_result_free(&b);
    }
    remove(one);
    remove(model);
    rmdir(dir);
}
END_TEST

/* Two layers learn induction: a first-layer head that looks at the previous
 * token (the one whose knock-out costs most), a second-layer head that looks
 * just after the earlier copy of its token, whose keys read the first
 * (K composition above Q and V); one layer does not learn it. */
START_TEST(induction_two_layers)
{
    struct cli_result r =
        cli_run((const char *[]){"--train", "induction", "--layers", "2", "--seed", "35", "--steps",
                                 "400", "--dump", "summary", "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *sum = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(sum);
    const double acc = json_number_value(json_object_get(json_object_get(sum, "accuracy"), "next"));
    ck_assert_msg(acc >= 0.9, "two layers: %.4f", acc);
    json_t *layers = json_object_get(sum, "layers_heads");
    ck_assert_uint_eq(json_array_size(layers), 2);
    int prev = -1, induction = -1;
    double lowest = 2.0;
    json_t *h;
    size_t i;
    json_array_foreach(json_array_get(layers, 0), i, h)
    {
        const double left =
            json_number_value(json_object_get(json_object_get(h, "knocked"), "next"));
        if (!strncmp(json_string_value(json_object_get(h, "label")), "prev", 4) && left < lowest)
            prev = (int)i;
        lowest = left < lowest ? left : lowest;
    }
    ck_assert_msg(prev >= 0, "no previous-token head in layer 0, or another costs more");
    ck_assert_msg(lowest <= acc - 0.2, "knocking the prev head out left %.4f of %.4f", lowest, acc);
    json_array_foreach(json_array_get(layers, 1), i, h)
    {
        if (!strncmp(json_string_value(json_object_get(h, "label")), "induction", 9))
            induction = (int)i;
    }
    ck_assert_msg(induction >= 0, "no induction head in layer 1");
    json_array_foreach(json_object_get(sum, "composition"), i, h)
    {
        json_t *from = json_object_get(h, "from"), *to = json_object_get(h, "to");
        if (json_integer_value(json_array_get(from, 1)) != prev ||
            json_integer_value(json_array_get(to, 1)) != induction)
            continue;
        const double q = json_number_value(json_object_get(h, "q"));
        const double k = json_number_value(json_object_get(h, "k"));
        const double v = json_number_value(json_object_get(h, "v"));
        ck_assert_msg(k > q && k > v, "composition Q %.3f K %.3f V %.3f", q, k, v);
    }
    json_decref(sum);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--train", "induction", "--seed", "35", "--steps", "400", "--dump",
                                 "summary", "--format", "json", NULL});
    ck_assert_int_eq(r.status, 0);
    sum = json_loads(r.out, 0, NULL);
    const double one = json_number_value(json_object_get(json_object_get(sum, "stopped"), "best"));
    ck_assert_msg(one < 0.5, "one layer's best: %.4f", one);
    ck_assert_ptr_null(json_object_get(sum, "layers_heads"));
    json_decref(sum);
    cli_result_free(&r);
}
END_TEST

/* A run that slides from its best before it stops keeps its best: seed 63
 * reaches 100.0% held out at step 650 and is at 0.9839 when it stops at
 * step 1250; the summary's figures are step 650's, and it says which step
 * it keeps and what the last step had. */
START_TEST(keeps_the_best)
{
    struct cli_result r =
        cli_run((const char *[]){"--train", "induction", "--layers", "2", "--seed", "63", "--dump",
                                 "summary", "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *sum = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(sum);
    json_t *stopped = json_object_get(sum, "stopped"), *last = json_object_get(sum, "last");
    ck_assert_int_eq(json_integer_value(json_object_get(sum, "steps")), 1250);
    ck_assert_int_eq(json_integer_value(json_object_get(stopped, "step")), 1250);
    ck_assert_int_eq(json_integer_value(json_object_get(stopped, "best_step")), 650);
    ck_assert_int_eq(json_integer_value(json_object_get(stopped, "kept_step")), 650);
    const double acc = json_number_value(json_object_get(json_object_get(sum, "accuracy"), "next"));
    ck_assert_double_eq(acc, json_number_value(json_object_get(stopped, "best")));
    ck_assert_double_eq(acc, 1.0);
    ck_assert_int_eq(json_integer_value(json_object_get(last, "step")), 1250);
    ck_assert_double_eq_tol(
        json_number_value(json_object_get(json_object_get(last, "accuracy"), "next")), 0.9839,
        1e-9);
    json_decref(sum);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--train", "induction", "--layers", "2", "--seed", "63", "--dump",
                                 "summary", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    ck_assert_ptr_nonnull(strstr(r.out, "Stopped at step 1250, keeping step 650's model"));
    ck_assert_ptr_nonnull(strstr(r.out, "last step    1250: accuracy next 0.9839"));
    ck_assert_ptr_nonnull(strstr(r.out, "knocked out on 256 held-out sequences"));
    cli_result_free(&r);
}
END_TEST

/* --dump STAGE --layer L of a model of layers: layer 0's input is the
 * embedding plus the positions read from the file; layer 1's is layer 0's
 * input plus its output (the residual stream); a layer the model does not
 * have, or --layer without a model file, is refused. */
static json_t *dump_json(const char *model, const char *layer, const char *stage)
{
    struct cli_result r = cli_run((const char *[]){"--load", model, "--layer", layer, "--dump",
                                                   stage, "--format", "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *j = json_loads(r.out, 0, NULL);
    ck_assert_ptr_nonnull(j);
    cli_result_free(&r);
    return j;
}

START_TEST(layer_stages)
{
    char model[1024];
    snprintf(model, sizeof model, "%s", cli_data_path("train/layers2_causal_2heads.model.json"));
    json_t *file = json_load_file(model, 0, NULL);
    ck_assert_ptr_nonnull(file);
    json_t *in0 = dump_json(model, "0", "input"), *out0 = dump_json(model, "0", "output");
    json_t *in1 = dump_json(model, "1", "input");
    json_t *x0 = json_object_get(json_object_get(in0, "input"), "query");
    json_t *a0 = json_object_get(out0, "output");
    if (json_is_object(a0)) /* a language model's output stage: the matrix and its next words */
        a0 = json_object_get(a0, "output");
    json_t *x1 = json_object_get(json_object_get(in1, "input"), "query");
    json_t *tokens = json_object_get(json_object_get(in0, "config"), "tokens");
    json_t *vocab = json_object_get(file, "vocab");
    const size_t T = json_array_size(x0);
    ck_assert_uint_gt(T, 1);
    ck_assert_uint_eq(json_array_size(x1), T);
    for (size_t t = 0; t < T; t++) {
        size_t id = 0;
        while (id < json_array_size(vocab) && strcmp(json_string_value(json_array_get(vocab, id)),
                                                     json_string_value(json_array_get(tokens, t))))
            id++;
        json_t *e = json_array_get(json_object_get(file, "embedding"), id);
        json_t *p = json_array_get(json_object_get(file, "positions"), t);
        for (size_t i = 0; i < json_array_size(e); i++) {
            const double x = json_number_value(json_array_get(json_array_get(x0, t), i));
            const double want =
                json_number_value(json_array_get(e, i)) + json_number_value(json_array_get(p, i));
            ck_assert_msg(fabs(x - want) <= 1e-6 * (1 + fabs(want)), "layer 0 input [%zu][%zu]", t,
                          i);
            const double sum = x + json_number_value(json_array_get(json_array_get(a0, t), i));
            const double y = json_number_value(json_array_get(json_array_get(x1, t), i));
            ck_assert_msg(fabs(y - sum) <= 1e-5 * (1 + fabs(sum)), "layer 1 input [%zu][%zu]", t,
                          i);
        }
    }
    json_decref(in0);
    json_decref(out0);
    json_decref(in1);
    json_decref(file);
    cli_expect_error((const char *[]){"--load", model, "--layer", "2", "--dump", "input", NULL},
                     "--layer: layer 2: the model has layers 0 to 1");
    cli_expect_error((const char *[]){"--layer", "1", "--dump", "input", NULL},
                     "--layer shows a layer of a model of layers");
}

/* The logit lens of a two-layer induction model on a stretch that repeats:
 * read after layer 0 the residual stream does not hold the copied token
 * yet, after layer 1 it does, and layer 1's words are the model's own
 * output (--dump output's next words, the same numbers). */
START_TEST(lens_two_layers)
{
    char dir[256], model[512];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-lens"));
    snprintf(model, sizeof model, "%s/induction.json", dir);
    struct cli_result r =
        cli_run((const char *[]){"--train", "induction", "--layers", "2", "--seed", "35", "--steps",
                                 "400", "--dump", "summary", "--save", model, NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    cli_result_free(&r);
    const char *words = "X D P E U X D P";
    r = cli_run((const char *[]){"--load", model, "--tokens", words, "--dump", "lens", "--format",
                                 "json", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    json_t *root = json_loads(r.out, 0, NULL);
    json_t *lens = json_object_get(root, "lens");
    ck_assert_ptr_nonnull(lens);
    ck_assert_int_eq(json_integer_value(json_object_get(lens, "position")), 7);
    json_t *by = json_object_get(json_array_get(json_object_get(lens, "outputs"), 0), "by_layer");
    ck_assert_uint_eq(json_array_size(by), 2);
    json_t *l0 = json_array_get(by, 0), *l1 = json_array_get(by, 1);
    ck_assert_str_eq(json_string_value(json_object_get(l0, "name")), "layer 0");
    ck_assert_str_eq(json_string_value(json_object_get(l1, "name")), "layer 1");
    json_t *first0 = json_array_get(json_object_get(l0, "next"), 0);
    json_t *first1 = json_array_get(json_object_get(l1, "next"), 0);
    ck_assert_str_ne(json_string_value(json_object_get(first0, "word")), "E");
    ck_assert_str_eq(json_string_value(json_object_get(first1, "word")), "E");
    ck_assert_double_gt(json_number_value(json_object_get(first1, "p")), 0.9);
    struct cli_result o = cli_run((const char *[]){"--load", model, "--tokens", words, "--dump",
                                                   "output", "--format", "json", NULL});
    ck_assert_msg(o.status == 0, "%s", o.err);
    json_t *out = json_loads(o.out, 0, NULL);
    json_t *next = json_object_get(json_object_get(out, "output"), "next_word");
    json_t *e;
    size_t i;
    json_array_foreach(json_object_get(l1, "next"), i, e)
    {
        json_t *n = json_array_get(next, i);
        ck_assert_str_eq(json_string_value(json_object_get(e, "word")),
                         json_string_value(json_object_get(n, "word")));
        ck_assert_double_eq(json_number_value(json_object_get(e, "p")),
                            json_number_value(json_object_get(n, "p")));
    }
    json_decref(out);
    cli_result_free(&o);
    json_decref(root);
    cli_result_free(&r);
    r = cli_run((const char *[]){"--load", model, "--tokens", words, "--dump", "lens", NULL});
    ck_assert_msg(r.status == 0, "%s", r.err);
    /* the lines doc/training.md quotes */
    ck_assert_ptr_nonnull(
        strstr(r.out, "\n  layer 0    D 0.3011, G 0.1650, N 0.1409, L 0.0486, T 0.0446\n"));
    ck_assert_ptr_nonnull(
        strstr(r.out, "\n  layer 1    E 0.9865, G 0.0081, U 0.0017, D 0.0012, N 0.0007\n"));
    cli_result_free(&r);
    cli_expect_error((const char *[]){"--load", model, "--dump", "lens", "--layer", "1", NULL},
                     "--layer cannot be combined with --dump lens");
    cli_expect_error((const char *[]){"--load", model, "--dump", "lens", "--format", "svg", NULL},
                     "--format: the lens is text or json");
    cli_expect_error((const char *[]){"--dump", "lens", NULL}, "--dump lens reads a trained model");
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST
END_TEST

static Suite *cli_layers_suite(void)
{
    Suite *s = suite_create("cli_layers");
    TCase *tc = tcase_create("layers");
    tcase_add_test(tc, layers_train_and_save);
    tcase_add_test(tc, layers_circuits_per_layer);
    tcase_add_test(tc, induction_two_layers);
    tcase_add_test(tc, lens_two_layers);
    tcase_add_test(tc, keeps_the_best);
    tcase_add_test(tc, layer_stages);
    tcase_set_timeout(tc, 240);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(cli_layers_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
