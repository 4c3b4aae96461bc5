/* test_circuits.c - each head's QK and OV circuits and the direct path of
 * the training cases' model files, and their readable tops, against numpy
 * (tests/reference/generate_circuits.py -> tests/data/train/circuits.json). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_circuits.h"
#include "train/train_text.h"
#include "io/model_io.h"
#include "io/view_desc.h"
#include "check_run.h"

static json_t *reference(void)
{
    static json_t *ref;
    if (ref)
        return ref;
    const char *dir = getenv("MHA_TEST_DATA");
    ck_assert_ptr_nonnull(dir);
    char path[1024];
    snprintf(path, sizeof path, "%s/train/circuits.json", dir);
    json_error_t e;
    ref = json_load_file(path, 0, &e);
    ck_assert_msg(ref != NULL, "%s: %s", path, e.text);
    return ref;
}

static struct train_model *load(const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/train/%s.model.json", getenv("MHA_TEST_DATA"), name);
    struct mha_error err;
    struct train_model *m = model_io_load(path, 1, &err);
    ck_assert_msg(m != NULL, "%s: %s", name, err.text);
    return m;
}

/* The rows of ref (a list of lists of cols) against got (rows of cols):
 * within 1e-4 of the matrix's largest value, plus 1e-5. */
static void matrix(json_t *ref, const float *got, int cols, const char *what)
{
    double big = 0.0;
    size_t i, j;
    json_t *row, *v;
    json_array_foreach(ref, i, row) json_array_foreach(row, j, v) big =
        fmax(big, fabs(json_real_value(v)));
    ck_assert_int_gt((int)json_array_size(ref), 0);
    json_array_foreach(ref, i, row)
    {
        ck_assert_int_eq((int)json_array_size(row), cols);
        json_array_foreach(row, j, v)
        {
            const double want = json_real_value(v), have = got[i * (size_t)cols + j];
            ck_assert_msg(fabs(have - want) <= 1e-4 * big + 1e-5, "%s[%zu][%zu]: %.7g, numpy %.7g",
                          what, i, j, have, want);
        }
    }
}

static double near(double a, double b)
{
    return fabs(a - b) <= 1e-4 * fmax(1.0, fabs(b));
}

/* The readable OV tops against ref ([[j, [[o, value] ...]] ...]). */
static void ov_tops(json_t *ref, const float *ov, int V, int C, const char *what)
{
    struct train_circuit_pair top[TRAIN_CIRCUIT_TOP * TRAIN_CIRCUIT_RAISES];
    const int n = train_circuit_top_ov(ov, V, C, TRAIN_CIRCUIT_TOP, TRAIN_CIRCUIT_RAISES, top);
    ck_assert_int_eq(n, (int)json_array_size(ref));
    const int r = C < TRAIN_CIRCUIT_RAISES ? C : TRAIN_CIRCUIT_RAISES;
    for (int w = 0; w < n; w++) {
        json_t *item = json_array_get(ref, (size_t)w), *raised = json_array_get(item, 1);
        ck_assert_msg(
            top[w * TRAIN_CIRCUIT_RAISES].from == (int)json_integer_value(json_array_get(item, 0)),
            "%s: attended word %d is %d, numpy %d", what, w, top[w * TRAIN_CIRCUIT_RAISES].from,
            (int)json_integer_value(json_array_get(item, 0)));
        ck_assert_int_eq((int)json_array_size(raised), r);
        for (int k = 0; k < r; k++) {
            const struct train_circuit_pair *p = &top[w * TRAIN_CIRCUIT_RAISES + k];
            json_t *pair = json_array_get(raised, (size_t)k);
            ck_assert_msg(p->to == (int)json_integer_value(json_array_get(pair, 0)),
                          "%s: word %d's raise %d is %d", what, w, k, p->to);
            ck_assert_msg(near(p->value, json_real_value(json_array_get(pair, 1))),
                          "%s: word %d's raise %d: %.6g", what, w, k, (double)p->value);
        }
    }
}

START_TEST(test_against_numpy)
{
    json_t *c = json_array_get(json_object_get(reference(), "cases"), (size_t)_i);
    ck_assert_ptr_nonnull(c);
    const char *name = json_string_value(json_object_get(c, "name"));
    struct train_model *m = load(name);
    const int V = m->cfg.vocab, T = m->cfg.context;
    ck_assert_int_eq(V, (int)json_integer_value(json_object_get(c, "vocab")));
    int C = 0;
    for (int k = 0; k < m->cfg.n_outputs; k++)
        C = m->cfg.outputs[k].classes > C ? m->cfg.outputs[k].classes : C;
    float *qk = malloc((size_t)V * V * sizeof *qk), *pos = malloc((size_t)T * T * sizeof *pos);
    float *ov = malloc((size_t)V * C * sizeof *ov);
    float *scratch = malloc(train_circuit_scratch(m) * sizeof *scratch);
    ck_assert(qk && pos && ov && scratch);
    struct mha_error err;
    json_t *heads = json_object_get(c, "heads");
    ck_assert_int_eq((int)json_array_size(heads), m->cfg.heads);
    for (int h = 0; h < m->cfg.heads; h++) {
        json_t *rh = json_array_get(heads, (size_t)h);
        char what[160];
        snprintf(what, sizeof what, "%s head %d", name, h);
        ck_assert_int_eq(train_circuit_qk(m, h, qk, scratch, &err), 0);
        ck_assert_int_eq(train_circuit_qk_pos(m, h, pos, scratch, &err), 0);
        matrix(json_object_get(rh, "qk"), qk, V, what);
        matrix(json_object_get(rh, "qk_position"), pos, T, what);
        /* the QK tops */
        struct train_circuit_pair top[TRAIN_CIRCUIT_TOP];
        const int n = train_circuit_top_qk(qk, V, TRAIN_CIRCUIT_TOP, top);
        json_t *rtop = json_object_get(rh, "top");
        ck_assert_int_eq(n, (int)json_array_size(rtop));
        for (int i = 0; i < n; i++) {
            json_t *p = json_array_get(rtop, (size_t)i);
            ck_assert_msg(top[i].from == (int)json_integer_value(json_array_get(p, 0)) &&
                              top[i].to == (int)json_integer_value(json_array_get(p, 1)) &&
                              near(top[i].value, json_real_value(json_array_get(p, 2))),
                          "%s: QK top %d is %d -> %d %.6g", what, i, top[i].from, top[i].to,
                          (double)top[i].value);
        }
        /* where it looks by position */
        struct train_circuit_place pl;
        train_circuit_offset(pos, T, m->cfg.causal, &pl);
        json_t *ro = json_object_get(rh, "offset");
        ck_assert_int_eq(pl.offset, (int)json_integer_value(json_array_get(ro, 0)));
        ck_assert_int_eq(pl.count, (int)json_integer_value(json_array_get(ro, 1)));
        ck_assert_int_eq(pl.rows, (int)json_integer_value(json_array_get(ro, 2)));
        ck_assert_int_eq(pl.first, (int)json_integer_value(json_array_get(ro, 3)));
        /* what it writes into each output */
        for (int k = 0; k < m->cfg.n_outputs; k++) {
            json_t *rw = json_array_get(json_object_get(rh, "writes"), (size_t)k);
            const int Ck = m->cfg.outputs[k].classes;
            ck_assert_int_eq(train_circuit_ov(m, h, k, ov, scratch, &err), 0);
            matrix(json_object_get(rw, "ov"), ov, Ck, what);
            ov_tops(json_object_get(rw, "top"), ov, V, Ck, what);
        }
    }
    /* each head's reading: its counts and z-scores */
    for (int h = 0; h < m->cfg.heads; h++) {
        json_t *rh = json_array_get(heads, (size_t)h), *rr = json_object_get(rh, "reading");
        struct train_circuit_reading rd;
        ck_assert_int_eq(train_circuit_read(m, h, qk, pos, ov, scratch, &rd, &err), 0);
        ck_assert_int_eq(rd.same, (int)json_integer_value(json_object_get(rr, "same")));
        ck_assert_int_eq(rd.same_of, V);
        json_t *t0 = json_array_get(json_object_get(rh, "top"), 0);
        ck_assert(rd.has_look);
        ck_assert_msg(near(rd.look_z, json_real_value(json_array_get(t0, 3))), "head %d: z %.5f", h,
                      (double)rd.look_z);
        int copy_k = -1, copies = -1, raise_k = 0;
        double raise_z = -INFINITY;
        for (int k = 0; k < m->cfg.n_outputs; k++) {
            const int ck =
                (int)json_integer_value(json_array_get(json_object_get(rr, "copies"), k));
            if (ck >= 0 && ck > copies) {
                copies = ck;
                copy_k = k;
            }
            const double zk = json_real_value(json_array_get(json_object_get(rr, "raise_z"), k));
            if (zk > raise_z) {
                raise_z = zk;
                raise_k = k;
            }
        }
        ck_assert_int_eq(rd.copy_k, copy_k);
        if (copy_k >= 0)
            ck_assert_int_eq(rd.copies, copies);
        ck_assert_int_eq(rd.raise_k, raise_k);
        ck_assert_msg(near(rd.raise_z, raise_z), "head %d: raise z %.5f, numpy %.5f", h,
                      (double)rd.raise_z, raise_z);
    }
    for (int k = 0; k < m->cfg.n_outputs; k++) {
        json_t *rd = json_array_get(json_object_get(c, "direct"), (size_t)k);
        const int Ck = m->cfg.outputs[k].classes;
        ck_assert_int_eq(train_circuit_ov(m, -1, k, ov, scratch, &err), 0);
        matrix(json_object_get(rd, "ov"), ov, Ck, "direct");
        ov_tops(json_object_get(rd, "top"), ov, V, Ck, "direct");
    }
    free(qk);
    free(pos);
    free(ov);
    free(scratch);
    train_model_free(m);
}
END_TEST

START_TEST(test_bad_heads_and_outputs)
{
    struct train_model *m = load("causal_2heads_two_outputs");
    float *buf = malloc((size_t)m->cfg.vocab * m->cfg.vocab * sizeof *buf);
    float *scratch = malloc(train_circuit_scratch(m) * sizeof *scratch);
    struct mha_error err;
    ck_assert_int_eq(train_circuit_qk(m, 2, buf, scratch, &err), -1);
    ck_assert_str_eq(err.text, "head 3: the model has heads 1 to 2");
    ck_assert_int_eq(train_circuit_qk_pos(m, -1, buf, scratch, &err), -1);
    ck_assert_int_eq(train_circuit_ov(m, 0, 2, buf, scratch, &err), -1);
    ck_assert_str_eq(err.text, "output 3: the model has 2");
    free(buf);
    free(scratch);
    train_model_free(m);
}
END_TEST

/* The rows of ref less their means, against a view's heatmap x. */
static void centred(json_t *ref, const struct view_matrix *x, const char *what)
{
    const int rows = (int)json_array_size(ref);
    ck_assert_int_eq(x->rows, rows);
    float *want = malloc((size_t)rows * (size_t)x->cols * sizeof *want);
    ck_assert_ptr_nonnull(want);
    double big = 0.0;
    for (int i = 0; i < rows; i++) {
        json_t *row = json_array_get(ref, (size_t)i);
        ck_assert_int_eq((int)json_array_size(row), x->cols);
        double mean = 0.0;
        for (int j = 0; j < x->cols; j++)
            mean += json_real_value(json_array_get(row, (size_t)j)) / x->cols;
        for (int j = 0; j < x->cols; j++) {
            const double v = json_real_value(json_array_get(row, (size_t)j)) - mean;
            want[(size_t)i * (size_t)x->cols + (size_t)j] = (float)v;
            big = fmax(big, fabs(v));
        }
    }
    for (size_t i = 0; i < (size_t)rows * (size_t)x->cols; i++)
        ck_assert_msg(fabs(x->data[i] - want[i]) <= 1e-4 * big + 1e-5, "%s[%zu]: %.7g, numpy %.7g",
                      what, i, (double)x->data[i], (double)want[i]);
    ck_assert_float_eq_tol(x->range, big, 1e-4 * big + 1e-5);
    free(want);
}

/* The circuits view of each model: every head's QK and OV heatmaps (rows
 * less their means) where the vocabulary is small, and its table's pairs,
 * as numpy has them. */
START_TEST(test_view_against_numpy)
{
    json_t *c = json_array_get(json_object_get(reference(), "cases"), (size_t)_i);
    const char *name = json_string_value(json_object_get(c, "name"));
    struct train_model *m = load(name);
    const struct view_inputs in = {.model = m};
    struct view_desc *vd = view_desc_new(MHA_VIEW_CIRCUITS, &in);
    ck_assert_ptr_nonnull(vd);
    ck_assert_msg(!vd->error[0], "%s", vd->error);
    const int V = m->cfg.vocab, H = m->cfg.heads, K = m->cfg.n_outputs;
    /* a language model's hundreds of words get the table alone */
    ck_assert_int_eq(vd->n_matrices, V <= 24 ? H * (1 + K) : 0);
    ck_assert_int_eq(vd->table.rows, 1 + H * TRAIN_CIRCUIT_TOP);
    for (int h = 0; h < H; h++) {
        json_t *rh = json_array_get(json_object_get(c, "heads"), (size_t)h);
        char what[160];
        snprintf(what, sizeof what, "%s view, head %d", name, h);
        if (vd->n_matrices) {
            const struct view_matrix *qk = &vd->matrices[h * (1 + K)];
            centred(json_object_get(rh, "qk"), qk, what);
            ck_assert_str_eq(qk->row_labels[1], m->vocab_names[1]);
            ck_assert_str_eq(qk->col_labels[V - 1], m->vocab_names[V - 1]);
            for (int k = 0; k < K; k++)
                centred(
                    json_object_get(json_array_get(json_object_get(rh, "writes"), (size_t)k), "ov"),
                    &vd->matrices[h * (1 + K) + 1 + k], what);
        }
        /* the table: the head's first row names it, and its QK pairs are numpy's */
        const int cols = vd->table.cols;
        json_t *rtop = json_object_get(rh, "top");
        for (size_t i = 0; i < json_array_size(rtop); i++) {
            json_t *p = json_array_get(rtop, i);
            char want[160];
            snprintf(want, sizeof want, "%s → %s z %.1f",
                     m->vocab_names[json_integer_value(json_array_get(p, 0))],
                     m->vocab_names[json_integer_value(json_array_get(p, 1))],
                     json_real_value(json_array_get(p, 3)));
            ck_assert_str_eq(vd->table.cells[(1 + h * TRAIN_CIRCUIT_TOP + (int)i) * cols + 2],
                             want);
        }
        char head[16];
        snprintf(head, sizeof head, "head %d", h);
        ck_assert_str_eq(vd->table.cells[(1 + h * TRAIN_CIRCUIT_TOP) * cols], head);
        /* the first attended word of output 0 and the word it raises most */
        json_t *w0 = json_array_get(
            json_object_get(json_array_get(json_object_get(rh, "writes"), 0), "top"), 0);
        char lead[160];
        snprintf(lead, sizeof lead, "%s → ",
                 m->vocab_names[json_integer_value(json_array_get(w0, 0))]);
        const char *cell = vd->table.cells[(1 + h * TRAIN_CIRCUIT_TOP) * cols + 3];
        ck_assert_msg(!strncmp(cell, lead, strlen(lead)), "%s: %s", what, cell);
    }
    view_desc_free(vd);
    train_model_free(m);
}
END_TEST

/* The circuits view of a model of cfg with seeded weights (the model is
 * freed: the description holds copies). */
static struct view_desc *view_of(const struct train_config *cfg)
{
    struct mha_error err;
    struct train_model *m = train_model_new(cfg, 1, &err);
    ck_assert_msg(m != NULL, "%s", err.text);
    train_model_init(m, 3);
    const struct view_inputs in = {.model = m};
    struct view_desc *vd = view_desc_new(MHA_VIEW_CIRCUITS, &in);
    ck_assert_ptr_nonnull(vd);
    train_model_free(m);
    return vd;
}

/* Too many heads for heatmaps to be read (16 heads, 2 outputs: 48 of them):
 * the table alone, and the words say why. */
START_TEST(test_view_many_heads)
{
    struct train_config cfg = {.d_model = 16,
                               .heads = 16,
                               .vocab = 5,
                               .context = 4,
                               .causal = true,
                               .scaled = true,
                               .n_outputs = 2};
    for (int k = 0; k < 4; k++) {
        snprintf(cfg.outputs[k].name, sizeof cfg.outputs[k].name, "out%d", k);
        cfg.outputs[k].classes = 5;
    }
    struct view_desc *vd = view_of(&cfg);
    ck_assert_str_eq(vd->error, "");
    ck_assert_int_eq(vd->n_matrices, 0);
    ck_assert_ptr_nonnull(strstr(vd->text, "With 16 heads the heatmaps would be too many"));
    ck_assert_int_eq(vd->table.rows, 1 + 16 * TRAIN_CIRCUIT_TOP);
    ck_assert_int_eq(vd->table.cols, 5);
    view_desc_free(vd);
    /* 8 of them (and three matrices each) still fit */
    cfg.heads = 8;
    vd = view_of(&cfg);
    ck_assert_int_eq(vd->n_matrices, 8 * 3);
    view_desc_free(vd);
    /* four outputs: a heatmap each, the table's room for three, and the note says so */
    cfg.heads = 2;
    cfg.n_outputs = 4;
    vd = view_of(&cfg);
    ck_assert_int_eq(vd->n_matrices, 2 * 5);
    ck_assert_int_eq(vd->table.cols, 6);
    ck_assert_ptr_nonnull(strstr(vd->note, "room for the first three outputs"));
    view_desc_free(vd);
}
END_TEST

/* Without a model: the view says what it needs, and how to get it. */
START_TEST(test_view_without_model)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    const struct view_inputs in = {.ex = ex};
    struct view_desc *vd = view_desc_new(MHA_VIEW_CIRCUITS, &in);
    ck_assert_ptr_nonnull(vd);
    ck_assert_ptr_nonnull(strstr(vd->error, "reads a trained model"));
    ck_assert_ptr_nonnull(strstr(vd->error, "--train"));
    ck_assert_int_eq(vd->n_matrices, 0);
    view_desc_free(vd);
    /* a file that is no model: the same words, nothing read */
    const struct view_inputs bad = {.ex = ex, .model_path = "/nonexistent/model.json"};
    vd = view_desc_new(MHA_VIEW_CIRCUITS, &bad);
    ck_assert_ptr_nonnull(vd);
    ck_assert_ptr_nonnull(strstr(vd->error, "trained model"));
    view_desc_free(vd);
    mha_example_free(ex);
}
END_TEST

/* One position: no query has a choice to make. */
START_TEST(test_offset_edges)
{
    const float one[1] = {0.0f};
    struct train_circuit_place pl;
    train_circuit_offset(one, 1, true, &pl);
    ck_assert_int_eq(pl.rows, 0);
    ck_assert_int_eq(pl.count, 0);
    ck_assert_int_eq(pl.offset, 0);
    ck_assert_int_eq(pl.first, 0);
    /* a tie between 1 back and 1 ahead goes to 1 back */
    const float three[9] = {0, 0, 0, 0, 0, 5, 0, 5, 0};
    train_circuit_offset(three, 3, false, &pl);
    ck_assert_int_eq(pl.rows, 2);
    ck_assert_int_eq(pl.offset, 1);
    ck_assert_int_eq(pl.count, 1);
    ck_assert_int_eq(pl.first, 0);
    /* a head on the first position wins there at every offset */
    const float firsts[9] = {0, 0, 0, 4, 1, 0, 4, 1, 2};
    train_circuit_offset(firsts, 3, true, &pl);
    ck_assert_int_eq(pl.first, 2);
    ck_assert_int_eq(pl.count, 1);
}
END_TEST

/* A head's reading in words, from readings set by hand: each clause says
 * its number; copies and same-word looks only from half the words, pairs
 * and raises only from a z-score of 3; what was measured goes first. */
START_TEST(test_reading_text)
{
    struct train_model *m = load("causal_2heads_two_outputs");
    struct train_circuit_reading r = {
        .place = {.offset = 1, .count = 7, .first = 0, .rows = 7},
        .same = 7,
        .same_of = 16,
        .has_look = true,
        .look = {3, 5, 9.0f},
        .look_z = 2.9f,
        .copy_k = 1,
        .copies = 8,
        .copy_of = 16,
        .raise_k = 0,
        .has_raise = true,
        .raise = {2, 4, 7.0f},
        .raise_z = 3.5f,
    };
    char buf[512];
    train_circuit_reading_text(m, &r, "measured on held-out sequences: prev .99", buf, sizeof buf);
    ck_assert_str_eq(buf, "measured on held-out sequences: prev .99; by position it favours 1 "
                          "back (7 of 7); raises for prev the token it attends to (8 of 16)");
    r.copies = 7; /* under half: the strongest raise instead; the look still under z 3 */
    r.place = (struct train_circuit_place){.offset = 0, .count = 2, .first = 5, .rows = 7};
    train_circuit_reading_text(m, &r, "", buf, sizeof buf);
    ck_assert_str_eq(buf, "by position it favours the first (5 of 7); attending to \"tok2\" raises "
                          "\"tok4\" for first most (z 3.5)");
    r.look_z = 3.0f;
    r.same = 8; /* half the words look most at themselves: said in place of the pair */
    r.raise_z = 2.0f;
    train_circuit_reading_text(m, &r, NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "by position it favours the first (5 of 7); by its tokens it looks at "
                          "the same token (8 of 16)");
    r.same = 0;
    train_circuit_reading_text(m, &r, NULL, buf, sizeof buf);
    ck_assert_str_eq(buf, "by position it favours the first (5 of 7); from \"tok3\" it looks most "
                          "at \"tok5\" (z 3.0)");
    train_model_free(m);
}
END_TEST

/* The words offered in place of an unknown word: nearest by cosine in the
 * model's embedding to what it expects after the words before it, against
 * numpy (tests/reference/generate_words.py -> tests/data/train/words.json). */
START_TEST(test_slot_neighbours)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/train/words.json", getenv("MHA_TEST_DATA"));
    json_error_t e;
    json_t *ref = json_load_file(path, 0, &e);
    ck_assert_msg(ref != NULL, "%s: %s", path, e.text);
    size_t c, s, i;
    json_t *cs, *slot, *v;
    json_array_foreach(json_object_get(ref, "cases"), c, cs)
    {
        struct train_model *m = load(json_string_value(json_object_get(cs, "name")));
        const int k = train_model_next_output(m);
        ck_assert_int_ge(k, 0);
        json_array_foreach(json_object_get(cs, "slots"), s, slot)
        {
            int ids[TRAIN_MAX_CONTEXT], n = 0;
            json_array_foreach(json_object_get(slot, "before"), i, v) ids[n++] =
                (int)json_integer_value(v);
            int best[3];
            float cos[3];
            struct mha_error err;
            const int found = train_slot_neighbours(m, k, ids, n, 3, best, cos, &err);
            json_t *want = json_object_get(slot, "nearest");
            ck_assert_int_eq(found, (int)json_array_size(want));
            for (int w = 0; w < found; w++) {
                json_t *pair = json_array_get(want, (size_t)w);
                ck_assert_int_eq(best[w], (int)json_integer_value(json_array_get(pair, 0)));
                ck_assert_msg(near(cos[w], json_real_value(json_array_get(pair, 1))),
                              "slot %zu word %d: cosine %.6f, numpy %.6f", s, w, (double)cos[w],
                              json_real_value(json_array_get(pair, 1)));
            }
        }
        /* nothing before it: nothing expected */
        int best[3];
        float cos[3];
        ck_assert_int_eq(train_slot_neighbours(m, k, NULL, 0, 3, best, cos, NULL), 0);
        train_model_free(m);
    }
    json_decref(ref);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("circuits");
    TCase *tc = tcase_create("numpy");
    tcase_add_loop_test(tc, test_against_numpy, 0, 4);
    tcase_add_loop_test(tc, test_view_against_numpy, 0, 4);
    tcase_add_test(tc, test_view_without_model);
    tcase_add_test(tc, test_view_many_heads);
    tcase_add_test(tc, test_bad_heads_and_outputs);
    tcase_add_test(tc, test_offset_edges);
    tcase_add_test(tc, test_slot_neighbours);
    tcase_add_test(tc, test_reading_text);
    suite_add_tcase(s, tc);
    return check_run(s);
}
