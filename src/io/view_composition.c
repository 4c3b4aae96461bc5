/* view_composition.c - the composition view: how much each head of a later
 * layer reads what each head of an earlier layer wrote (the Q, K and V
 * composition scores, engine/train_layers.h), with what every head was
 * measured to do and the accuracy left with it knocked out, where a
 * training measured them. */
#include "io/view_desc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_layers.h"

#define SCORES 3 /* Q, K, V */
/* Multiply-adds the scores may take (each is a product of two d × d
 * matrices, d³): a model that trains has the view made again at every
 * frame (about 0.05 s), a model file once (about a second).  d_model 32
 * with 2 heads in 2 layers takes 0.4 million. */
#define COMPOSITION_WORK_TRAINING 5e7
#define COMPOSITION_WORK_FILE 1e9

static const char *const score_names[SCORES] = {"Q", "K", "V"};

/* "1.0 induction 1.00" or "1.0": layer l head h, with its measured label
 * (brief: "1.0 ind", for a heatmap's rows and columns). */
static void head_name(const struct train_layer_measures *lm, int l, int h, bool brief, char *buf,
                      size_t n)
{
    char label[64] = "";
    if (lm && brief && lm->stats[l][h].kind != TRAIN_HEAD_NONE)
        snprintf(label, sizeof label, "%s", train_head_kind_short(lm->stats[l][h].kind));
    else if (lm && !brief)
        train_head_label(&lm->stats[l][h], label, sizeof label);
    snprintf(buf, n, "%d.%d%s%.40s", l, h, label[0] ? " " : "", label);
}

/* "next 0.52" (each output's accuracy left), into buf. */
static void accuracy_cell(const struct train_model *m, const float *acc, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int k = 0; k < m->cfg.n_outputs && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s %.2f", k ? ", " : "",
                                 m->cfg.outputs[k].name, (double)acc[k]);
}

/* With two layers: the K scores as a heatmap, a row per head of layer 1
 * and a column per head of layer 0 (the table has all three). */
static bool add_heatmaps(struct view_desc *vd, const struct train_model *m,
                         const struct train_layer_measures *lm, const float *scores)
{
    const int H = m->cfg.heads;
    for (int s = 1; s == 1; s++) {
        char title[128], short_t[64];
        snprintf(title, sizeof title,
                 "%s-composition: how much each head of layer 1 (row) reads through each head "
                 "of layer 0 (column), 0 to 1",
                 score_names[s]);
        snprintf(short_t, sizeof short_t, "%s: layer 1 reads layer 0", score_names[s]);
        struct view_matrix *x = view_matrix_add(vd, H, H, title, short_t);
        if (!x)
            return false;
        x->range = 1.0f;
        for (int h1 = 0; h1 < H; h1++)
            for (int h0 = 0; h0 < H; h0++)
                x->data[(size_t)h1 * (size_t)H + (size_t)h0] =
                    scores[((size_t)h1 * (size_t)H + (size_t)h0) * SCORES + (size_t)s];
        char name[64];
        for (int h = 0; h < H; h++) {
            head_name(lm, 1, h, true, name, sizeof name);
            if (!view_matrix_label(x, true, h, name))
                return false;
            head_name(lm, 0, h, true, name, sizeof name);
            if (!view_matrix_label(x, false, h, name))
                return false;
        }
    }
    return true;
}

/* The table: a row per head (what it was measured to do, the accuracy left
 * without it) and under each head above layer 0 a row per earlier head it
 * reads, with the three scores. */
static bool describe(struct view_desc *vd, const struct view_inputs *in,
                     const struct train_model *m)
{
    const struct train_config *cfg = &m->cfg;
    const int L = train_layers(cfg), H = cfg->heads;
    const struct train_layer_measures *lm = in->layer_measures;
    if (lm && (lm->layers != L || lm->heads != H))
        lm = NULL; /* measured on another model */
    const char *from = in->trained && in->trained[0] ? in->trained : NULL;
    if (!from && in->model_path) {
        from = strrchr(in->model_path, '/');
        from = from ? from + 1 : in->model_path;
    }
    snprintf(vd->line, sizeof vd->line, "%s: %d layer%s of %d head%s, d_model %d",
             from ? from : "the model", L, L == 1 ? "" : "s", H, H == 1 ? "" : "s", cfg->d_model);
    vd->heads = H;
    vd->d_k = cfg->d_model / H;
    if (L < 2) {
        snprintf(vd->error, sizeof vd->error,
                 "This model has one layer: its heads read the words and positions alone, and "
                 "no head reads another. Train one of two layers (--train induction --layers "
                 "2) to see them compose.");
        return true;
    }
    /* every pair's scores, later head by earlier head */
    const int pairs = H * H * L * (L - 1) / 2;
    const double d = cfg->d_model, work = (double)pairs * SCORES * d * d * d;
    if (work > (in->model ? COMPOSITION_WORK_TRAINING : COMPOSITION_WORK_FILE)) {
        snprintf(vd->error, sizeof vd->error,
                 "%d pairs of heads at d_model %d take %.1f billion multiply-adds, too many to "
                 "compute %s: training with --dump summary gives the scores.",
                 pairs, cfg->d_model, work / 1e9,
                 in->model ? "at every frame of a training" : "here");
        return true;
    }
    float *scores = malloc((size_t)pairs * SCORES * sizeof *scores);
    if (!scores)
        return false;
    struct mha_error err;
    mha_error_clear(&err);
    int rows = 1 + L * H, at = 0;
    for (int l1 = 1; l1 < L; l1++)
        for (int h1 = 0; h1 < H; h1++)
            for (int l0 = 0; l0 < l1; l0++)
                for (int h0 = 0; h0 < H; h0++, at++, rows++)
                    if (!err.text[0])
                        train_composition(m, l0, h0, l1, h1, scores + (size_t)at * SCORES, &err);
    if (err.text[0]) {
        snprintf(vd->error, sizeof vd->error, "The composition cannot be read: %s", err.text);
        free(scores);
        return true;
    }
    bool ok = L != 2 || add_heatmaps(vd, m, lm, scores);
    ok = ok && view_table_alloc(&vd->table, rows, 6);
    const char *header[] = {"head", "reads", "knocked out", "Q", "K", "V"};
    ok = ok && view_table_set_row(&vd->table, 0, header);
    for (int c = 3; c < 6; c++)
        vd->table.right[c] = true;
    snprintf(vd->table_title, sizeof vd->table_title,
             "Each head, and how much it reads through each earlier one");
    int r = 1;
    at = 0;
    for (int l = 0; ok && l < L; l++)
        for (int h = 0; ok && h < H; h++) {
            char name[64], knocked[96] = "";
            head_name(lm, l, h, false, name, sizeof name);
            if (lm)
                accuracy_cell(m, lm->knocked[l][h], knocked, sizeof knocked);
            const char *row[] = {name, l ? "" : "embedding", knocked, "", "", ""};
            ok = view_table_set_row(&vd->table, r++, row);
            for (int l0 = 0; ok && l0 < l; l0++)
                for (int h0 = 0; ok && h0 < H; h0++, at++) {
                    char reads[64], cell[SCORES][16];
                    snprintf(reads, sizeof reads, "%d.%d", l0, h0);
                    for (int s = 0; s < SCORES; s++)
                        snprintf(cell[s], sizeof cell[s], "%.2f",
                                 (double)scores[(size_t)at * SCORES + (size_t)s]);
                    const char *pair[] = {"", reads, "", cell[0], cell[1], cell[2]};
                    ok = view_table_set_row(&vd->table, r++, pair);
                }
        }
    free(scores);
    if (lm) {
        char all[96];
        accuracy_cell(m, lm->all, all, sizeof all);
        snprintf(vd->note, sizeof vd->note,
                 "Heads are named layer.head. Knocked out: the held-out accuracy left with that "
                 "head's output replaced by its mean (%s with every head), on %d held-out "
                 "sequences at step %ld; beside a head's name, what it was measured to do on "
                 "them. A knock-out that costs much says the model needs that head.",
                 all, lm->size, lm->step);
    } else {
        snprintf(vd->note, sizeof vd->note,
                 "Heads are named layer.head. The scores are read off the weights alone. What "
                 "each head does and what knocking it out costs are measured on a training's "
                 "held-out sequences: by --dump summary, and on the training screen at each "
                 "evaluation where the model is small enough to measure between steps.");
    }
    return ok;
}

static bool view_composition_make(struct view_desc *vd, const struct view_inputs *in)
{
    snprintf(vd->name, sizeof vd->name, "Composition");
    snprintf(vd->heading, sizeof vd->heading, "Composition: heads that read other heads");
    snprintf(vd->formula, sizeof vd->formula,
             "K = ‖W_QK,1 · W_OV,0‖ / (‖W_QK,1‖ ‖W_OV,0‖)\nQ: W_OV,0ᵀ · W_QK,1   V: W_OV,1 · "
             "W_OV,0");
    snprintf(vd->text, sizeof vd->text,
             "A head of a later layer reads the residual stream: the words and positions plus "
             "what every head below wrote. Its Q score with an earlier head says how much its "
             "queries read what that head writes, K its keys, V its values: 0 nothing, 1 all. "
             "K-composition is how an induction head finds its place: a head in layer 0 that "
             "looks at the previous token writes it into each position, the later head's keys "
             "read it, so a key says which token came before it, and the query (the current "
             "token) matches the position just after its own earlier copy.");
    if (in->model)
        return describe(vd, in, in->model);
    struct train_model *m =
        view_model_file(vd, in,
                        "The composition view reads a trained model of two or more layers, and "
                        "these numbers are not one. Train one (--train induction --layers 2) or "
                        "load one saved with --save.",
                        NULL);
    if (!m)
        return true;
    const bool ok = describe(vd, in, m);
    train_model_free(m);
    return ok;
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_composition_kind = {
    .id = MHA_VIEW_COMPOSITION,
    .name = "composition",
    .make = view_composition_make,
    .cycle_msg = "Composition view: how much each later head reads through each "
                 "earlier one (Q, K, V), and each head knocked out.",
    .extension = "txt",
    .man = "How the heads of a model of two or more layers work together (a loaded model file, a "
           "lesson's model, or the model training on the training screen): for each head of a "
           "later layer, its Q, K and V composition scores with each head of an earlier layer (as "
           "**--dump summary** gives them, see **LAYERS**), with a model of two layers the K "
           "scores as a heatmap too. On a model that is training, each head also carries what it "
           "was measured doing and the held-out accuracy left with it knocked out alone, both "
           "measured at the last evaluation on the held-out sequences its heads are measured on "
           "(the first 256, as **--dump summary** measures them: one knock-out, one number), "
           "where the knock-outs take at most 2×10^9 multiply-adds (two layers of two heads at "
           "d_model 32 take 0.3×10^9; a checkpoint shows the scores alone). A one-layer model, or "
           "numbers that are not a trained model, get a sentence saying why there is nothing to "
           "show, and so does a model whose scores would take too long to compute (more than "
           "5×10^7 multiply-adds while it trains, the view being made again at every frame, or "
           "10^9 for a model file).",
    .own_sizes = false,
};
