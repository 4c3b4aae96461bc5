/* test_safetensors.c - models out to safetensors and back bit for bit
 * (every kind: a letters task of several outputs, the bundled language
 * model, layers, no biases, unscaled, not causal), the tensors' names and
 * layout, and hostile files refused with the tensor named. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/model_io.h"
#include "io/safetensors.h"
#include "test_tmp.h"
#include "train/train.h"

static char dir[512];

static void setup(void)
{
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "test-safetensors"));
}

static void teardown(void)
{
    test_tmp_remove(dir);
}

/* A model of task (its outputs, biases on) of the sizes given, seeded. */
static struct train_model *task_model(const char *task, int d, int h, int vocab, int context,
                                      int layers, uint32_t seed)
{
    struct train_config cfg;
    train_task_config(train_task_find(task), d, h, vocab, context, &cfg);
    cfg.layers = layers;
    struct mha_error err;
    struct train_model *m = train_model_new(&cfg, 1, &err);
    ck_assert_msg(m != NULL, "%s", err.text);
    train_model_init(m, seed);
    snprintf(m->task, sizeof m->task, "%s", task);
    int ids[TRAIN_MAX_CONTEXT];
    for (int t = 0; t < context; t++)
        ids[t] = (t * 3 + 1) % vocab;
    ck_assert_int_eq(train_model_set_sample(m, ids, context > 2 ? context - 1 : context, NULL), 0);
    return m;
}

/* Write m, read it back, and hold every number, label and setting equal. */
static void round_trip(const struct train_model *m)
{
    char path[600];
    test_tmp_path(dir, "m.safetensors", path, sizeof path);
    struct mha_error err;
    ck_assert_msg(safetensors_save(m, path, &err) == 0, "%s", err.text);
    ck_assert(safetensors_is_file(path));
    ck_assert(model_io_is_model_file(path));
    struct train_model *b = model_io_load(path, 1, &err);
    ck_assert_msg(b != NULL, "%s", err.text);
    const struct train_config *x = &m->cfg, *y = &b->cfg;
    ck_assert_int_eq(x->d_model, y->d_model);
    ck_assert_int_eq(x->heads, y->heads);
    ck_assert_int_eq(x->vocab, y->vocab);
    ck_assert_int_eq(x->context, y->context);
    ck_assert_int_eq(x->causal, y->causal);
    ck_assert_int_eq(x->scaled, y->scaled);
    ck_assert_int_eq(x->has_bias, y->has_bias);
    ck_assert_int_eq(train_layers(x), train_layers(y));
    ck_assert_int_eq(x->n_outputs, y->n_outputs);
    for (int k = 0; k < x->n_outputs; k++) {
        ck_assert_str_eq(x->outputs[k].name, y->outputs[k].name);
        ck_assert_int_eq(x->outputs[k].classes, y->outputs[k].classes);
        ck_assert_int_eq(x->outputs[k].has_bias, y->outputs[k].has_bias);
    }
    ck_assert_uint_eq(m->n_params, b->n_params);
    ck_assert(memcmp(m->params, b->params, sizeof(float) * m->n_params) == 0);
    for (int i = 0; i < x->vocab; i++)
        ck_assert_str_eq(m->vocab_names[i], b->vocab_names[i]);
    ck_assert_str_eq(m->task, b->task);
    ck_assert_int_eq(m->words, b->words);
    ck_assert_int_eq(m->sample_len, b->sample_len);
    ck_assert(memcmp(m->sample, b->sample, sizeof(int) * (size_t)m->sample_len) == 0);
    /* and written again, the same bytes */
    size_t la = 0, lb = 0;
    unsigned char *ba = safetensors_bytes(m, &la), *bb = safetensors_bytes(b, &lb);
    ck_assert_uint_eq(la, lb);
    ck_assert(memcmp(ba, bb, la) == 0);
    free(ba);
    free(bb);
    train_model_free(b);
}

START_TEST(letters_task_of_two_outputs)
{
    struct train_model *m = task_model("first-prev", 8, 2, 6, 8, 1, 3);
    ck_assert_int_ge(m->cfg.n_outputs, 2);
    round_trip(m);
    train_model_free(m);
}
END_TEST

START_TEST(two_and_four_layers)
{
    struct train_model *m = task_model("induction", 16, 4, 12, 12, 2, 5);
    round_trip(m);
    train_model_free(m);
    m = task_model("prev", 8, 1, 5, 6, 4, 9);
    round_trip(m);
    train_model_free(m);
}
END_TEST

START_TEST(no_biases_unscaled_not_causal)
{
    struct train_config cfg;
    train_task_config(train_task_find("majority"), 6, 3, 4, 5, &cfg);
    cfg.has_bias = false;
    cfg.scaled = false;
    cfg.causal = false;
    cfg.outputs[0].has_bias = false;
    struct mha_error err;
    struct train_model *m = train_model_new(&cfg, 1, &err);
    ck_assert_ptr_nonnull(m);
    train_model_init(m, 11);
    ck_assert_int_eq(train_model_set_sample(m, (const int[]){3, 1, 2}, 3, NULL), 0);
    round_trip(m);
    train_model_free(m);
}
END_TEST

START_TEST(bundled_language_model)
{
    char path[1024];
    const char *root = getenv("MHA_DATA_DIR");
    snprintf(path, sizeof path, "%s/assets/models/sentences.json", root ? root : ".");
    struct mha_error err;
    struct train_model *m = model_io_load(path, 1, &err);
    ck_assert_msg(m != NULL, "%s", err.text);
    ck_assert_int_ne(m->words, TRAIN_WORDS_NONE);
    round_trip(m);
    train_model_free(m);
}
END_TEST

/* ---- the layout TransformerLens reads ---- */

static json_t *header_of(const unsigned char *bytes, size_t *n)
{
    uint64_t h = 0;
    for (int i = 7; i >= 0; i--)
        h = h << 8 | bytes[i];
    *n = (size_t)h;
    json_t *root = json_loadb((const char *)bytes + 8, (size_t)h, 0, NULL);
    ck_assert_ptr_nonnull(root);
    return root;
}

static float tensor_at(const unsigned char *bytes, size_t hn, json_t *root, const char *name,
                       size_t i)
{
    json_t *e = json_object_get(root, name);
    ck_assert_msg(e != NULL, "no %s", name);
    const size_t begin =
        (size_t)json_integer_value(json_array_get(json_object_get(e, "data_offsets"), 0));
    float f;
    memcpy(&f, bytes + 8 + hn + begin + 4 * i, 4);
    return f;
}

START_TEST(names_shapes_and_layout)
{
    struct train_model *m = task_model("induction", 8, 2, 6, 6, 2, 7);
    size_t len = 0, hn = 0;
    unsigned char *bytes = safetensors_bytes(m, &len);
    json_t *root = header_of(bytes, &hn);
    ck_assert_uint_eq(hn % 8, 0);
    json_t *q = json_object_get(root, "blocks.1.attn.W_Q");
    ck_assert_str_eq(json_string_value(json_object_get(q, "dtype")), "F32");
    json_t *shape = json_object_get(q, "shape");
    ck_assert_int_eq(json_integer_value(json_array_get(shape, 0)), 2);
    ck_assert_int_eq(json_integer_value(json_array_get(shape, 1)), 8);
    ck_assert_int_eq(json_integer_value(json_array_get(shape, 2)), 4);
    /* W_Q[h][i][j] = w_q[h*dh + j][i]; W_O[h][j][i] = w_o[i][h*dh + j];
     * W_U[i][c] = unembed[c][i] */
    const struct mha_params *a = &m->p.attn[1];
    ck_assert(tensor_at(bytes, hn, root, "blocks.1.attn.W_Q", (1 * 8 + 3) * 4 + 2) ==
              a->w_q[(1 * 4 + 2) * 8 + 3]);
    ck_assert(tensor_at(bytes, hn, root, "blocks.1.attn.W_O", (1 * 4 + 2) * 8 + 5) ==
              a->w_o[5 * 8 + 1 * 4 + 2]);
    ck_assert(tensor_at(bytes, hn, root, "unembed.W_U", 3 * m->cfg.outputs[0].classes + 1) ==
              m->p.unembed[0][1 * 8 + 3]);
    json_t *meta = json_object_get(root, "__metadata__");
    ck_assert_str_eq(json_string_value(json_object_get(meta, "n_layers")), "2");
    ck_assert_str_eq(json_string_value(json_object_get(meta, "d_head")), "4");
    ck_assert_str_eq(json_string_value(json_object_get(meta, "normalization_type")), "null");
    ck_assert_str_eq(json_string_value(json_object_get(meta, "attn_only")), "true");
    json_t *vocab = json_loads(json_string_value(json_object_get(meta, "vocab")), 0, NULL);
    ck_assert_int_eq((int)json_array_size(vocab), 6);
    ck_assert_str_eq(json_string_value(json_array_get(vocab, 2)), m->vocab_names[2]);
    json_decref(vocab);
    json_decref(root);
    free(bytes);
    train_model_free(m);
}
END_TEST

/* ---- hostile files ---- */

static unsigned char *good;
static size_t good_len;

static void hostile_setup(void)
{
    setup();
    struct train_model *m = task_model("first-prev", 4, 2, 4, 4, 1, 1);
    good = safetensors_bytes(m, &good_len);
    train_model_free(m);
}

static void hostile_teardown(void)
{
    free(good);
    teardown();
}

/* bytes (len) as a file; reading it must fail with want in the message. */
static void refused(const unsigned char *bytes, size_t len, const char *want)
{
    char path[600];
    test_tmp_path(dir, "bad.safetensors", path, sizeof path);
    FILE *f = fopen(path, "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(bytes, 1, len, f), len);
    fclose(f);
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = safetensors_load(path, 1, &err);
    ck_assert_msg(m == NULL, "read although %s", want);
    ck_assert_msg(strstr(err.text, want) != NULL, "\"%s\" does not say \"%s\"", err.text, want);
    ck_assert_str_eq(err.file, path);
}

/* The good file with its header changed by edit (padded again). */
static void refused_edit(void (*edit)(json_t *root), const char *want)
{
    size_t hn = 0;
    json_t *root = header_of(good, &hn);
    edit(root);
    char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    const size_t n = strlen(text), data = good_len - 8 - hn;
    unsigned char *b = malloc(8 + n + data);
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)n >> (8 * i));
    memcpy(b + 8, text, n);
    memcpy(b + 8 + n, good + 8 + hn, data);
    refused(b, 8 + n + data, want);
    free(text);
    free(b);
}

static void overlap(json_t *root)
{
    json_t *e = json_object_get(json_object_get(root, "embed.W_E"), "data_offsets");
    json_t *p = json_object_get(root, "pos_embed.W_pos");
    json_object_set(p, "data_offsets", e);
}
static void wrong_dtype(json_t *root)
{
    json_object_set_new(json_object_get(root, "blocks.0.attn.W_K"), "dtype", json_string("F16"));
}
static void wrong_shape(json_t *root)
{
    json_object_set_new(json_object_get(root, "blocks.0.attn.b_V"), "shape", json_pack("[i]", 4));
}
static void unknown_tensor(json_t *root)
{
    json_object_set_new(
        root, "blocks.0.mlp.W_in",
        json_pack("{s:s, s:[i], s:[i,i]}", "dtype", "F32", "shape", 0, "data_offsets", 0, 0));
}
static void missing_tensor(json_t *root)
{
    json_t *b = json_object_get(root, "unembed.b_U");
    json_object_set(root, "unembed.b_X", b);
    json_object_del(root, "unembed.b_U");
}
static void no_vocab(json_t *root)
{
    json_object_del(json_object_get(root, "__metadata__"), "vocab");
}
static void wrong_layers(json_t *root)
{
    json_object_set_new(json_object_get(root, "__metadata__"), "n_layers", json_string("3"));
}

START_TEST(truncated_and_lengths)
{
    refused(good, good_len - 5, "pass the end of the data");
    refused(good, 5, "begins with 8 bytes");
    unsigned char *b = malloc(good_len);
    memcpy(b, good, good_len);
    b[5] = 1; /* 2^40 bytes of header */
    refused(b, good_len, "at most 1048576 are read");
    memcpy(b, good, good_len);
    const uint64_t past = good_len - 4;
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(past >> (8 * i));
    refused(b, good_len, "passes the end of the file");
    memcpy(b, good, 8);
    b[8] = '[';
    refused(b, good_len, "the header is not a JSON object");
    free(b);
}
END_TEST

START_TEST(offsets_dtype_shape_names)
{
    refused_edit(overlap, "overlap tensor \"embed.W_E\"");
    refused_edit(wrong_dtype, "tensor \"blocks.0.attn.W_K\": dtype F16");
    refused_edit(wrong_shape, "tensor \"blocks.0.attn.b_V\"");
    refused_edit(unknown_tensor, "unknown tensor \"blocks.0.mlp.W_in\"");
    refused_edit(missing_tensor, "missing tensor \"unembed.b_U\"");
    refused_edit(no_vocab, "no \"vocab\"");
    refused_edit(wrong_layers, "\"n_layers\" is 3, but the count of blocks gives 1");
}
END_TEST

START_TEST(numbers_not_finite)
{
    size_t hn = 0;
    json_t *root = header_of(good, &hn);
    json_t *e = json_object_get(root, "blocks.0.attn.W_V");
    const size_t begin =
        (size_t)json_integer_value(json_array_get(json_object_get(e, "data_offsets"), 0));
    json_decref(root);
    unsigned char *b = malloc(good_len);
    memcpy(b, good, good_len);
    const float bad[3] = {NAN, INFINITY, 3e7f};
    const char *want[3] = {"tensor \"blocks.0.attn.W_V\" [0, 2, 1] is NaN", "is infinite",
                           "must be at most"};
    for (int i = 0; i < 3; i++) {
        memcpy(b + 8 + hn + begin + 4 * 5, &bad[i], 4); /* [0][2][1] of [2][4][2] */
        refused(b, good_len, want[i]);
    }
    free(b);
}
END_TEST

static Suite *safetensors_suite(void)
{
    Suite *s = suite_create("safetensors");
    TCase *tc = tcase_create("round trip");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, letters_task_of_two_outputs);
    tcase_add_test(tc, two_and_four_layers);
    tcase_add_test(tc, no_biases_unscaled_not_causal);
    tcase_add_test(tc, bundled_language_model);
    tcase_add_test(tc, names_shapes_and_layout);
    suite_add_tcase(s, tc);
    tc = tcase_create("hostile");
    tcase_add_checked_fixture(tc, hostile_setup, hostile_teardown);
    tcase_add_test(tc, truncated_and_lengths);
    tcase_add_test(tc, offsets_dtype_shape_names);
    tcase_add_test(tc, numbers_not_finite);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(safetensors_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
