/* view_circuits.c - the circuits view: what each head of a trained
 * one-layer model does, read off its weights (train/train_circuits.h).
 * Where the vocabulary is small enough to see whole, each head's QK circuit
 * (query word x key word) and OV circuit (attended word x the class it
 * raises, per output) as heatmaps; for every model, a table of each head's
 * strongest pairs and where it looks by position. */
#include "io/view_desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_circuits.h"

/* Heatmaps up to this many words (or classes) a side: a letter task's 16
 * fit beside each other on a screen, a language model's hundreds do not. */
#define CIRCUITS_HEATMAP_MAX 24
/* Outputs given a column of the table (after head, position, looks). */
#define CIRCUITS_TABLE_OUTPUTS (VIEW_TABLE_MAX_COLS - 3)

static const char *word(const struct train_model *m, int id)
{
    return m->vocab_names[id];
}

/* Each row of a (rows, cols) less its mean: softmax over a row ignores a
 * constant, so only the differences within a row say anything.  Returns
 * the largest |value| left (1 when all are 0). */
static float centre_rows(float *a, int rows, int cols)
{
    float big = 0.0f;
    for (int i = 0; i < rows; i++) {
        float *row = a + (size_t)i * (size_t)cols;
        double mean = 0.0;
        for (int j = 0; j < cols; j++)
            mean += row[j];
        mean /= cols;
        for (int j = 0; j < cols; j++) {
            row[j] = (float)(row[j] - mean);
            big = row[j] > big ? row[j] : -row[j] > big ? -row[j] : big;
        }
    }
    return big > 0.0f ? big : 1.0f;
}

/* A heatmap of a (rows, cols), its rows centred, labelled with words (or
 * output k's classes for the columns when k >= 0). */
static bool add_heatmap(struct view_desc *vd, const struct train_model *m, const float *a, int rows,
                        int cols, int k, const char *title, const char *short_t)
{
    struct view_matrix *x = view_matrix_add(vd, rows, cols, title, short_t);
    if (!x)
        return false;
    memcpy(x->data, a, (size_t)rows * (size_t)cols * sizeof *a);
    x->range = centre_rows(x->data, rows, cols);
    bool ok = true;
    for (int i = 0; ok && i < rows; i++)
        ok = view_matrix_label(x, true, i, word(m, i));
    for (int j = 0; ok && j < cols; j++) {
        char name[TRAIN_LABEL_MAX];
        if (k >= 0)
            train_circuit_class_name(m, k, j, name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", word(m, j));
        ok = view_matrix_label(x, false, j, name);
    }
    return ok;
}

/* The heatmaps the model gets: every head's QK circuit and its OV circuit
 * for each output of at most CIRCUITS_HEATMAP_MAX classes, when the words
 * are that few and all of them fit the description; else 0 (the table
 * alone). */
static int heatmap_count(const struct train_model *m)
{
    if (m->cfg.vocab > CIRCUITS_HEATMAP_MAX)
        return 0;
    int per_head = 1;
    for (int k = 0; k < m->cfg.n_outputs; k++)
        per_head += m->cfg.outputs[k].classes <= CIRCUITS_HEATMAP_MAX;
    const int n = per_head * m->cfg.heads;
    return n <= VIEW_MATRIX_MAX ? n : 0;
}

struct circuit_bufs {
    float *qk, *pos, *ov, *scratch;
};

/* The table's cell for pair i of head h's QK tops (qk: (V, V)): "it →
 * animal z 3.1", the score's z over its query word's row. */
static void looks_cell(const struct train_model *m, const float *qk,
                       const struct train_circuit_pair *p, int n, int i, char *buf, size_t size)
{
    const int V = m->cfg.vocab;
    if (i < n)
        snprintf(buf, size, "%s → %s z %.1f", word(m, p[i].from), word(m, p[i].to),
                 (double)train_circuit_z(qk + (size_t)p[i].from * (size_t)V, V, p[i].to));
    else
        buf[0] = '\0';
}

/* The cell for attended word i of output k's OV tops: "owl → roof, hay". */
static void raises_cell(const struct train_model *m, int k, const struct train_circuit_pair *p,
                        int n, int i, char *buf, size_t size)
{
    buf[0] = '\0';
    if (i >= n)
        return;
    const struct train_circuit_pair *row = p + (size_t)i * TRAIN_CIRCUIT_RAISES;
    size_t used = (size_t)snprintf(buf, size, "%s →", word(m, row[0].from));
    const int C = m->cfg.outputs[k].classes;
    for (int r = 0; r < TRAIN_CIRCUIT_RAISES && r < C && used < size; r++) {
        char name[TRAIN_LABEL_MAX];
        train_circuit_class_name(m, k, row[r].to, name, sizeof name);
        used += (size_t)snprintf(buf + used, size - used, "%s %s", r ? "," : "", name);
    }
}

/* Head h's rows of the table (TRAIN_CIRCUIT_TOP of them, from row r0) and,
 * when the vocabulary is small, its heatmaps. */
static bool head_circuits(struct view_desc *vd, const struct train_model *m, int h, int r0,
                          const char (*in_titles)[VIEW_HEAD_TITLE], int in_titled,
                          struct circuit_bufs *b, struct mha_error *err)
{
    const int V = m->cfg.vocab, T = m->cfg.context, K = m->cfg.n_outputs;
    const bool whole = heatmap_count(m) > 0;
    if (train_circuit_qk(m, h, b->qk, b->scratch, err) ||
        train_circuit_qk_pos(m, h, b->pos, b->scratch, err))
        return true; /* err says why; the caller shows it */
    struct train_circuit_pair qk_top[TRAIN_CIRCUIT_TOP];
    const int n_qk = train_circuit_top_qk(b->qk, V, TRAIN_CIRCUIT_TOP, qk_top);
    struct train_circuit_place place;
    train_circuit_offset(b->pos, T, m->cfg.causal, &place);
    char title[128], short_t[64];
    if (whole) {
        snprintf(title, sizeof title,
                 "head %d QK: the score a query word (row) gives a key word (column), above "
                 "the row's mean",
                 h);
        snprintf(short_t, sizeof short_t, "head %d QK: query → key", h);
        if (!add_heatmap(vd, m, b->qk, V, V, -1, title, short_t))
            return false;
    }
    char cells[TRAIN_CIRCUIT_TOP][VIEW_TABLE_MAX_COLS][128];
    memset(cells, 0, sizeof cells);
    snprintf(cells[0][0], sizeof cells[0][0], "head %d", h);
    if (h < in_titled && in_titles[h][0]) /* measured on held-out sequences */
        snprintf(cells[1][0], sizeof cells[1][0], "%s", in_titles[h]);
    train_circuit_place_text(&place, cells[0][1], sizeof cells[0][1]);
    if (!cells[0][1][0])
        snprintf(cells[0][1], sizeof cells[0][1], "one position");
    for (int i = 0; i < TRAIN_CIRCUIT_TOP; i++)
        looks_cell(m, b->qk, qk_top, n_qk, i, cells[i][2], sizeof cells[i][2]);
    for (int k = 0; k < K; k++) {
        const int C = m->cfg.outputs[k].classes;
        if (train_circuit_ov(m, h, k, b->ov, b->scratch, err))
            return true;
        struct train_circuit_pair ov_top[TRAIN_CIRCUIT_TOP * TRAIN_CIRCUIT_RAISES];
        const int n_ov =
            train_circuit_top_ov(b->ov, V, C, TRAIN_CIRCUIT_TOP, TRAIN_CIRCUIT_RAISES, ov_top);
        for (int i = 0; k < CIRCUITS_TABLE_OUTPUTS && i < TRAIN_CIRCUIT_TOP; i++)
            raises_cell(m, k, ov_top, n_ov, i, cells[i][3 + k], sizeof cells[i][3 + k]);
        if (whole && C <= CIRCUITS_HEATMAP_MAX) {
            snprintf(title, sizeof title,
                     "head %d OV, %s: what attending to a word (row) adds to each logit "
                     "(column), above the row's mean",
                     h, m->cfg.outputs[k].name);
            snprintf(short_t, sizeof short_t, "head %d OV → %s", h, m->cfg.outputs[k].name);
            if (!add_heatmap(vd, m, b->ov, V, C, k, title, short_t))
                return false;
        }
    }
    /* its reading in one line, ending in what it was measured doing */
    struct train_circuit_reading rd;
    if (train_circuit_read(m, h, b->qk, b->pos, b->ov, b->scratch, &rd, err))
        return true;
    char measured[VIEW_HEAD_TITLE + 48] = "", reading[1024];
    if (h < in_titled && in_titles[h][0])
        snprintf(measured, sizeof measured, "measured on held-out data: %s", in_titles[h]);
    train_circuit_reading_text(m, &rd, measured, reading, sizeof reading);
    const size_t used = strlen(vd->note);
    snprintf(vd->note + used, sizeof vd->note - used, "Head %d: %s. ", h, reading);
    for (int i = 0; i < TRAIN_CIRCUIT_TOP; i++) {
        const char *row[VIEW_TABLE_MAX_COLS];
        for (int c = 0; c < VIEW_TABLE_MAX_COLS; c++)
            row[c] = cells[i][c];
        if (!view_table_set_row(&vd->table, r0 + i, row))
            return false;
    }
    return true;
}

static void words_text(struct view_desc *vd, const struct train_model *m)
{
    char why[200];
    if (heatmap_count(m) > 0)
        snprintf(why, sizeof why,
                 "The heatmaps show every pair; the table lists each head's strongest.");
    else if (m->cfg.vocab <= CIRCUITS_HEATMAP_MAX)
        snprintf(why, sizeof why,
                 "With %d heads the heatmaps would be too many to read: the table lists each "
                 "head's strongest pairs (--dump circuits prints the matrices).",
                 m->cfg.heads);
    else
        snprintf(why, sizeof why,
                 "With this many words the matrices are too big to see whole: the table lists "
                 "each head's strongest pairs (--dump circuits prints more).");
    if (train_layers(&m->cfg) > 1) {
        snprintf(vd->text, sizeof vd->text,
                 "Layer %d of a model of %d layers (y shows another), read along its direct "
                 "path only: a head's QK circuit is the score a query word gives a key word "
                 "from the two words' embeddings alone, its OV circuit what attending to a word "
                 "adds straight to each output's logits. What the head reads of the heads below "
                 "and writes for those above is left out (the composition view). Both are "
                 "shown above their row's mean. %s",
                 m->shown_layer, train_layers(&m->cfg), why);
        return;
    }
    snprintf(vd->text, sizeof vd->text,
             "A model of one attention layer can be read straight from its weights. A head's "
             "QK circuit is the score a query word gives a key word from the two words alone "
             "(the positions' part is summed up as 'by position'); its OV circuit is what "
             "attending to a word adds to each output's logits. Softmax ignores a constant "
             "added to a whole row, so both are shown above their row's mean. %s",
             why);
}

/* The circuits of m into vd. */
static bool describe(struct view_desc *vd, const struct view_inputs *in,
                     const struct train_model *m)
{
    const struct train_config *cfg = &m->cfg;
    const int K = cfg->n_outputs;
    const char *from = in->trained && in->trained[0] ? in->trained : NULL;
    if (!from && in->model_path) {
        from = strrchr(in->model_path, '/');
        from = from ? from + 1 : in->model_path;
    }
    char layer[48] = "";
    if (train_layers(cfg) > 1)
        snprintf(layer, sizeof layer, ", layer %d of 0–%d", m->shown_layer, train_layers(cfg) - 1);
    snprintf(vd->line, sizeof vd->line, "%s: %d words, d_model %d, %d head%s%s%s",
             from ? from : "the model", cfg->vocab, cfg->d_model, cfg->heads,
             cfg->heads == 1 ? "" : "s", cfg->causal ? ", causal" : "", layer);
    words_text(vd, m);
    vd->heads = cfg->heads;
    vd->d_k = cfg->d_model / cfg->heads;
    const int cols = 3 + (K < CIRCUITS_TABLE_OUTPUTS ? K : CIRCUITS_TABLE_OUTPUTS);
    if (!view_table_alloc(&vd->table, 1 + cfg->heads * TRAIN_CIRCUIT_TOP, cols))
        return false;
    snprintf(vd->table_title, sizeof vd->table_title,
             "What each head does: its strongest pairs, from the weights alone");
    vd->note[0] = '\0'; /* each head's reading goes in first */
    char header_cells[VIEW_TABLE_MAX_COLS][64] = {"head", "by position", "looks at"};
    for (int k = 0; k < K && k < CIRCUITS_TABLE_OUTPUTS; k++)
        snprintf(header_cells[3 + k], sizeof header_cells[3 + k], "%s: word → raises",
                 cfg->outputs[k].name);
    const char *header_row[VIEW_TABLE_MAX_COLS];
    for (int c = 0; c < VIEW_TABLE_MAX_COLS; c++)
        header_row[c] = header_cells[c];
    if (!view_table_set_row(&vd->table, 0, header_row))
        return false;

    int C = 0;
    for (int k = 0; k < K; k++)
        C = cfg->outputs[k].classes > C ? cfg->outputs[k].classes : C;
    const size_t V = (size_t)cfg->vocab, T = (size_t)cfg->context;
    struct circuit_bufs b = {
        .qk = malloc(V * V * sizeof(float)),
        .pos = malloc(T * T * sizeof(float)),
        .ov = malloc(V * (size_t)C * sizeof(float)),
        .scratch = malloc(train_circuit_scratch(m) * sizeof(float)),
    };
    bool ok = b.qk && b.pos && b.ov && b.scratch;
    struct mha_error err;
    mha_error_clear(&err);
    for (int h = 0; ok && !err.text[0] && h < cfg->heads; h++)
        ok = head_circuits(vd, m, h, 1 + h * TRAIN_CIRCUIT_TOP, in->head_titles,
                           in->head_titles ? in->titled_heads : 0, &b, &err);
    if (err.text[0])
        snprintf(vd->error, sizeof vd->error, "The circuits cannot be read: %s", err.text);
    const size_t read = strlen(vd->note);
    snprintf(vd->note + read, sizeof vd->note - read,
             "Looks at: query word → key word, the score's z over the query's row (how many "
             "standard deviations above the row's mean). Raises: "
             "the %d words (or classes) attending to a word lifts most. By position: the key "
             "position the positions alone make a query prefer. Read off the weights, not "
             "measured on sequences: what a head does on one also depends on the words "
             "around it.%s%s",
             TRAIN_CIRCUIT_RAISES,
             in->titled_heads > 0 && in->head_titles
                 ? " Under a head's number: what it was measured to do on held-out sequences, "
                   "as the training screen titles it."
                 : "",
             K > CIRCUITS_TABLE_OUTPUTS ? " The table has room for the first three outputs; "
                                          "--dump circuits lists every one."
                                        : "");
    free(b.qk);
    free(b.pos);
    free(b.ov);
    free(b.scratch);
    return ok;
}

static bool view_circuits_make(struct view_desc *vd, const struct view_inputs *in)
{
    snprintf(vd->name, sizeof vd->name, "Circuits");
    snprintf(vd->heading, sizeof vd->heading, "Circuits: what each head does with words");
    snprintf(vd->formula, sizeof vd->formula,
             "QK_h = (E·W_q,hᵀ + b_q,h)(E·W_k,hᵀ)ᵀ / √d_k\nOV_h = U·W_o,h·W_v,h·Eᵀ");
    if (in->model)
        return describe(vd, in, in->model);
    struct train_model *m = view_model_file(
        vd, in,
        "The circuits view reads a trained model, and these numbers are not one. Load a model "
        "file (saved by --train … --save, or lesson 19's) or train one (--train first-prev).",
        "The circuits are read off a trained model's weights: its word embeddings, each head's "
        "projections and its read-out to the next word.");
    if (!m)
        return true;
    /* a model of layers: the layer the explorer shows */
    if (in->ex->layers > 1 && in->ex->layers == train_layers(&m->cfg))
        m->shown_layer = in->ex->layer;
    const bool ok = describe(vd, in, m);
    train_model_free(m);
    return ok;
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_circuits_kind = {
    .id = MHA_VIEW_CIRCUITS,
    .name = "circuits",
    .make = view_circuits_make,
    .cycle_msg = "Circuits view: what each of the %d heads does with words, read off "
                 "the trained weights.",
    .extension = "txt",
    .man = "What each head of a trained model does, read off its weights (a loaded model file, a "
           "lesson's model, or the model training on the training screen): its QK circuit, the "
           "score a query word gives a key word from the two words alone, (E·W_q,h^T + "
           "b_q,h)(E·W_k,h^T)^T / √ d_k, and its OV circuit, what attending to a word adds to each "
           "output's logits, U·W_o,h·W_v,h·E^T; both less their row's mean, since softmax ignores "
           "a constant added to a whole row. Up to 24 words the circuits are heatmaps (coloured "
           "cells alone where the numbers do not fit), while there are at most 32 of them (eight "
           "heads with three each); for every model a table lists each head's strongest pairs, the "
           "words it raises most when it attends to a word, and where the positions alone make it "
           "look. The pairs are given as z-scores over their row, and under the table each head's "
           "reading in one line (as **--dump circuits** gives it). On a model that is training, "
           "each head's number carries what the training measured it doing on held-out sequences "
           "(its title on the training screen), and its reading starts with it. On numbers that "
           "are not a trained model the view says how to load or train one. **--dump circuits** "
           "prints the same with the whole matrices in JSON.",
    .own_sizes = false,
};
