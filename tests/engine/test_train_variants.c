/* test_train_variants.c - the attention block's variants (--variant): loss
 * and every gradient against PyTorch autograd of models written from the
 * variants' own parameters (tests/reference/generate_variants.py), for one
 * and two layers, with and without the causal mask; training keeps the
 * full matrices what the variant means; files round-trip and a file whose
 * matrices break its variant is refused, saying where; names, sizes and
 * counts. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ref_compare.h"
#include "json_max.h"
#include "io/model_io.h"
#include "io/view_desc.h"
#include "train/train.h"
#include "test_tmp.h"

static const char *const variants[] = {"shared-qk",    "low-rank-qk3", "no-wo",
                                       "low-rank-wo2", "mqa",          "gqa2"};
#define N_VARIANTS (int)(sizeof variants / sizeof variants[0])
#define N_CASES (N_VARIANTS * 4)

/* Case i: variant i / 4, layers 1 or 2, causal or plain. */
static const char *case_name(int i)
{
    static char buf[96];
    snprintf(buf, sizeof buf, "variant_%s_layers%d_%s", variants[i / 4], 1 + (i / 2) % 2,
             i % 2 ? "plain" : "causal");
    return buf;
}

static char *data_path(const char *name, const char *kind)
{
    const char *dir = getenv("MHA_TEST_DATA");
    ck_assert_ptr_nonnull(dir);
    static char buf[1024];
    snprintf(buf, sizeof buf, "%s/train/%s.%s.json", dir, name, kind);
    return buf;
}

static double abs_tol;

/* Every number of ref against n floats at got (ref_compare.h). */
static void compare(json_t *ref, const float *got, size_t n, const char *what)
{
    ref_compare(ref, got, n, what, abs_tol);
}

START_TEST(test_against_torch)
{
    char name[96];
    snprintf(name, sizeof name, "%s", case_name(_i));
    struct mha_error err;
    struct train_model *probe = model_io_load(data_path(name, "model"), 1, &err);
    ck_assert_msg(probe != NULL, "%s: %s", name, err.text);
    struct train_batch *b = model_io_load_batch(data_path(name, "batch"), probe, &err);
    ck_assert_msg(b != NULL, "%s: %s", name, err.text);
    struct train_model *m = train_model_new(&probe->cfg, b->size, &err);
    ck_assert_ptr_nonnull(m);
    ck_assert_int_eq(train_model_copy_params(m, probe, &err), 0);
    train_model_free(probe);
    ck_assert_int_ne(m->cfg.variant.kind, TRAIN_VARIANT_STANDARD);

    ck_assert_int_eq(train_forward(m, b, &err), 0);
    train_backward(m, b);
    json_t *ref = json_load_file(data_path(name, "grad"), 0, NULL);
    ck_assert_ptr_nonnull(ref);
    const double loss = json_number_value(json_object_get(ref, "loss"));
    ck_assert_msg(fabs(m->loss - loss) <= 1e-5 * fabs(loss), "%s: loss %.9g, torch %.9g", name,
                  (double)m->loss, loss);
    json_t *g = json_object_get(ref, "grad");
    abs_tol = 2e-5 * fmax(1.0, tree_max_abs(g));
    const struct train_config *c = &m->cfg;
    const size_t d = (size_t)c->d_model, r = (size_t)c->variant.n;
    compare(json_object_get(g, "embedding"), m->g.embedding, (size_t)c->vocab * d, "embedding");
    compare(json_object_get(g, "positions"), m->g.positions, (size_t)c->context * d, "positions");
    json_t *layers = json_object_get(g, "layers");
    ck_assert_int_eq(layers ? (int)json_array_size(layers) : 1, train_layers(c));
    for (int l = 0; l < train_layers(c); l++) {
        const struct mha_params *a = &m->g.attn[l];
        json_t *gl = layers ? json_array_get(layers, (size_t)l) : g;
        const float *w[8] = {a->w_q, a->w_k, a->w_v, a->w_o, a->b_q, a->b_k, a->b_v, a->b_o};
        const char *names[8] = {"w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"};
        for (int i = 0; i < (c->has_bias ? 8 : 4); i++)
            compare(json_object_get(gl, names[i]), w[i], i < 4 ? d * d : d, names[i]);
        static const char *const qk[2][2] = {{"w_q_left", "w_q_right"}, {"w_k_left", "w_k_right"}};
        for (int f = 0; f < train_variant_factored(&c->variant); f++) {
            const bool wo = c->variant.kind == TRAIN_VARIANT_LOW_RANK_WO;
            compare(json_object_get(gl, wo ? "w_o_left" : qk[f][0]), m->g.factor_a[l][f], d * r,
                    "left factor");
            compare(json_object_get(gl, wo ? "w_o_right" : qk[f][1]), m->g.factor_b[l][f], r * d,
                    "right factor");
        }
    }
    json_t *outs = json_object_get(g, "outputs");
    for (int k = 0; k < c->n_outputs; k++) {
        json_t *o = json_array_get(outs, (size_t)k);
        const size_t C = (size_t)c->outputs[k].classes;
        compare(json_object_get(o, "unembed"), m->g.unembed[k], C * d, "unembed");
        if (c->outputs[k].has_bias)
            compare(json_object_get(o, "bias"), m->g.bias[k], C, "bias");
    }
    json_decref(ref);
    train_batch_free(b);
    train_model_free(m);
}
END_TEST

/* Each variant trains first-prev at d_model 16, 4 heads (the issue's
 * command), one and two layers: the loss falls, the full matrices still
 * hold what the variant means, and the file round-trips to the same bits. */
START_TEST(test_training_keeps_the_variant)
{
    static const char *const names[] = {"shared-qk",     "low-rank-qk:3", "no-wo",
                                        "low-rank-wo:2", "mqa",           "gqa:2"};
    struct train_run_options o;
    train_run_options_default(&o);
    o.steps = 40;
    o.batch = 16;
    o.eval_size = 64;
    o.layers = 1 + _i % 2;
    struct mha_error err;
    ck_assert_int_eq(train_variant_parse(names[_i / 2], &o.variant, &err), 0);
    const struct train_task *task = train_task_find("first-prev");
    struct train_run *run = train_run_new(task, 16, 4, 16, 8, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    struct train_model *m = run->model;
    for (int l = 0; l < train_layers(&m->cfg); l++)
        ck_assert_msg(train_variant_verify(m, l, &err) == 0, "%s at init: %s", names[_i / 2],
                      err.text);
    float first = 0.0f;
    for (int s = 0; s < 40; s++) {
        train_run_steps(run, 1);
        if (s == 0)
            first = run->last_loss;
    }
    ck_assert_msg(run->last_loss < first, "%s: loss %g after 40 steps, %g at the first",
                  names[_i / 2], (double)run->last_loss, (double)first);
    for (int l = 0; l < train_layers(&m->cfg); l++)
        ck_assert_msg(train_variant_verify(m, l, &err) == 0, "%s trained: %s", names[_i / 2],
                      err.text);
    char dir[256], path[300];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-variant"));
    test_tmp_path(dir, "m.json", path, sizeof path);
    ck_assert_int_eq(model_io_save(m, path, &err), 0);
    struct train_model *back = model_io_load(path, 1, &err);
    ck_assert_msg(back != NULL, "%s: %s", names[_i / 2], err.text);
    ck_assert_int_eq(memcmp(&back->cfg, &m->cfg, sizeof m->cfg), 0);
    ck_assert_mem_eq(back->params, m->params, m->n_params * sizeof(float));
    train_model_free(back);
    remove(path);
    rmdir(dir);
    train_run_free(run);
}
END_TEST

/* A file whose full matrices break its variant is refused, saying where. */
START_TEST(test_file_must_agree)
{
    static const struct {
        const char *file, *field, *says;
        int row, col;
    } bad[] = {
        {"variant_shared-qk_layers1_causal", "w_k", "w_k row 1 column 2", 1, 2},
        {"variant_no-wo_layers1_causal", "w_o", "w_o row 3 column 0", 3, 0},
        {"variant_mqa_layers1_plain", "w_v", "w_v row 5 (head 2)", 5, 1},
        {"variant_low-rank-wo2_layers1_plain", "w_o", "w_o row 0 column 4", 0, 4},
    };
    const int i = _i;
    json_t *root = json_load_file(data_path(bad[i].file, "model"), 0, NULL);
    ck_assert_ptr_nonnull(root);
    json_t *cell =
        json_array_get(json_array_get(json_object_get(root, bad[i].field), (size_t)bad[i].row),
                       (size_t)bad[i].col);
    json_real_set(cell, json_number_value(cell) + 0.5);
    char dir[256], path[300];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-variant"));
    test_tmp_path(dir, "bad.json", path, sizeof path);
    ck_assert_int_eq(json_dump_file(root, path, 0), 0);
    json_decref(root);
    struct mha_error err;
    ck_assert_ptr_null(model_io_load(path, 1, &err));
    ck_assert_msg(strstr(err.text, bad[i].says) != NULL, "%s: %s", bad[i].file, err.text);
    remove(path);
    rmdir(dir);
}
END_TEST

START_TEST(test_names_and_sizes)
{
    struct train_variant v;
    struct mha_error err;
    char name[TRAIN_VARIANT_NAME_MAX];
    static const char *const good[] = {"standard",      "shared-qk", "low-rank-qk:3", "no-wo",
                                       "low-rank-wo:2", "mqa",       "gqa:2"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        ck_assert_int_eq(train_variant_parse(good[i], &v, &err), 0);
        ck_assert_int_eq(train_variant_check(&v, 16, 4, &err), 0);
        ck_assert_str_eq(train_variant_name(&v, name, sizeof name), good[i]);
    }
    static const char *const unknown[] = {"tied",  "gqa",           "gqa:",           "gqa:x",
                                          "mqa:2", "low-rank-wo:0", "low-rank-wo:-1", ""};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++)
        ck_assert_msg(train_variant_parse(unknown[i], &v, &err) != 0, "%s", unknown[i]);
    ck_assert_int_eq(train_variant_parse("gqa:3", &v, &err), 0);
    ck_assert_int_ne(train_variant_check(&v, 16, 4, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "divide the 4 heads"));
    ck_assert_int_eq(train_variant_parse("low-rank-wo:16", &v, &err), 0);
    ck_assert_int_ne(train_variant_check(&v, 16, 4, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "from 1 to d_model − 1 = 15"));

    /* the parameters each variant learns, counted by hand at d 16, 4 heads,
     * one layer, attention biases on: the attention block is 4·256 + 4·16 */
    struct train_config c;
    train_task_config(train_task_find("first-prev"), 16, 4, 16, 8, &c);
    const size_t standard = train_variant_parameters(&c);
    ck_assert_uint_eq(standard, train_param_count(&c));
    static const struct {
        const char *v;
        long attention;
    } counts[] = {
        {"standard", 4 * 256 + 4 * 16},
        {"shared-qk", 3 * 256 + 3 * 16},
        {"low-rank-qk:3", 2 * 256 + 2 * (2 * 16 * 3) + 4 * 16},
        {"no-wo", 3 * 256 + 3 * 16},
        {"low-rank-wo:2", 3 * 256 + 2 * 16 * 2 + 4 * 16},
        {"mqa", 2 * 256 + 2 * 4 * 16 + 2 * 16 + 2 * 4},
        {"gqa:2", 2 * 256 + 2 * 8 * 16 + 2 * 16 + 2 * 8},
    };
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++) {
        ck_assert_int_eq(train_variant_parse(counts[i].v, &c.variant, &err), 0);
        ck_assert_msg((long)train_variant_parameters(&c) ==
                          (long)standard - (4 * 256 + 4 * 16) + counts[i].attention,
                      "%s: %zu", counts[i].v, train_variant_parameters(&c));
    }
    /* the cache per token and layer: keys and values of each group */
    ck_assert_int_eq(train_variant_parse("mqa", &v, &err), 0);
    ck_assert_uint_eq(train_variant_cache_floats(&v, 16, 4), 8);
    ck_assert_int_eq(train_variant_parse("gqa:2", &v, &err), 0);
    ck_assert_uint_eq(train_variant_cache_floats(&v, 16, 4), 16);
    ck_assert_int_eq(train_variant_parse("shared-qk", &v, &err), 0);
    ck_assert_uint_eq(train_variant_cache_floats(&v, 16, 4), 32);
}
END_TEST

/* The cost of a block: its parameters the trained model's (the block's
 * share of train_variant_parameters), and the cost view's rows at a
 * published model's sizes (d_model 512, 8 heads), counted by hand. */
START_TEST(test_cost)
{
    static const char *const names[] = {"standard",      "shared-qk", "low-rank-qk:3", "no-wo",
                                        "low-rank-wo:2", "mqa",       "gqa:2"};
    struct train_config c;
    struct mha_error err;
    train_task_config(train_task_find("first-prev"), 16, 4, 16, 8, &c);
    const size_t rest = train_param_count(&c) - (4 * 256 + 4 * 16);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        ck_assert_int_eq(train_variant_parse(names[i], &c.variant, &err), 0);
        struct train_variant_cost vc;
        train_variant_cost(&c.variant, 8, 8, 16, 4, true, &vc);
        ck_assert_msg((size_t)vc.params + rest == train_variant_parameters(&c), "%s", names[i]);
        ck_assert_uint_eq((size_t)vc.cache, train_variant_cache_floats(&c.variant, 16, 4));
    }
    struct mha_example ex = {.d_model = 512, .heads = 8, .lq = 10, .lk = 10, .has_bias = true};
    const struct view_inputs in = {.ex = &ex, .seq = 10};
    struct view_desc *vd = view_desc_new(MHA_VIEW_COST, &in);
    ck_assert_ptr_nonnull(vd);
    /* label, parameters, multiply-adds over 10 tokens: projections, scores and
     * weighted values (2·10·10·512), output */
    static const struct {
        const char *label, *params, *macs;
    } want[] = {
        {"standard (1,024)", "1,050,624", "10,588,160"},
        {"shared-qk (1,024)", "787,968", "10,588,160"},
        {"low-rank-qk:64 (1,024)", "657,408", "6,656,000"},
        {"no-wo (1,024)", "787,968", "7,966,720"},
        {"low-rank-wo:64 (1,024)", "854,016", "8,622,080"},
        {"mqa (128)", "590,976", "6,000,640"},
        {"gqa:2 (256)", "656,640", "6,656,000"},
    };
    size_t found = 0;
    for (int r = 0; r < vd->table.rows; r++) {
        const char *const *row = (const char *const *)vd->table.cells + r * vd->table.cols;
        for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
            if (!strcmp(row[0], want[i].label)) {
                ck_assert_msg(!strcmp(row[1], want[i].params), "%s: %s", row[0], row[1]);
                ck_assert_msg(!strcmp(row[2], want[i].macs), "%s: %s", row[0], row[2]);
                found++;
            }
    }
    ck_assert_uint_eq(found, sizeof want / sizeof want[0]);
    ck_assert_ptr_nonnull(strstr(vd->note, "saves 25% of the block's parameters"));
    ck_assert_ptr_nonnull(strstr(vd->note, "cache 8 times fewer floats"));
    view_desc_free(vd);
}
END_TEST

static Suite *variants_suite(void)
{
    Suite *s = suite_create("train_variants");
    TCase *tc = tcase_create("torch");
    tcase_add_loop_test(tc, test_against_torch, 0, N_CASES);
    suite_add_tcase(s, tc);
    tc = tcase_create("training");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, test_training_keeps_the_variant, 0, 2 * N_VARIANTS);
    tcase_add_loop_test(tc, test_file_must_agree, 0, 4);
    tcase_add_test(tc, test_names_and_sizes);
    tcase_add_test(tc, test_cost);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(variants_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
