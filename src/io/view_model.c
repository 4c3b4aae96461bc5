/* view_model.c - the model view: every head of every layer at once, each
 * as a small map of its attention weights on the sequence shown (rows the
 * queries, columns the keys), titled with its layer and head and, where a
 * training measured it, what it does.  The example's one layer from its
 * own forward pass; a model of layers (a model file, or one training)
 * layer by layer on its sample. */
#include "io/view_desc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"
#include "train/train_heads.h"
#include "train/train_layers.h"

/* "L1 H0" and, when measured, " prev .97", into short_t; the file's title
 * into title. */
static void map_titles(int l, int h, const char *measured, char *title, size_t tn, char *short_t,
                       size_t sn)
{
    const bool has = measured && measured[0];
    snprintf(short_t, sn, "L%d H%d%s%.40s", l, h, has ? " " : "", has ? measured : "");
    snprintf(title, tn, "layer %d, head %d%s%.40s: attention weights (query row × key column)", l,
             h, has ? ", " : "", has ? measured : "");
}

/* A map of rows x cols weights w (row-major), labelled with the row and
 * column tokens; masked (the same layout, or NULL) marks the cells a mask
 * set to 0. */
static bool add_map(struct view_desc *vd, int l, int h, const char *measured, const float *w,
                    int rows, int cols, char *const *row_tok, char *const *col_tok,
                    const unsigned char *masked)
{
    char title[128], short_t[64];
    map_titles(l, h, measured, title, sizeof title, short_t, sizeof short_t);
    struct view_matrix *x = view_matrix_add(vd, rows, cols, title, short_t);
    if (!x)
        return false;
    const size_t n = (size_t)rows * (size_t)cols;
    memcpy(x->data, w, n * sizeof *w);
    x->prob = true;
    x->range = 1.0f;
    if (masked) {
        x->masked = malloc(n);
        if (!x->masked)
            return false;
        memcpy(x->masked, masked, n);
    }
    bool ok = true;
    for (int i = 0; ok && i < rows; i++)
        ok = view_matrix_label(x, true, i, row_tok[i]);
    for (int j = 0; ok && j < cols; j++)
        ok = view_matrix_label(x, false, j, col_tok[j]);
    return ok;
}

static void words(struct view_desc *vd, int shown, int total)
{
    snprintf(vd->note, sizeof vd->note,
             "Each map is one head's attention weights on the sequence shown: a row per query "
             "token, a column per key token, each row summing to 1, darkest at 0 and brightest "
             "at 1 (on the screen the colours alone; the files give the numbers).%s",
             shown < total ? " The view holds the first maps only: --dump attention --layer L "
                             "gives every head of a layer."
                           : "");
}

/* The example's own heads: its forward pass, one layer. */
static bool from_example(struct view_desc *vd, const struct view_inputs *in)
{
    const struct mha_example *ex = in->ex;
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_trace *tr = mha_run(ex, &err);
    if (!tr) {
        snprintf(vd->error, sizeof vd->error, "The heads cannot be computed: %s", err.text);
        return true;
    }
    const int H = tr->heads, shown = H < VIEW_MATRIX_MAX ? H : VIEW_MATRIX_MAX;
    const size_t n = (size_t)tr->lq * (size_t)tr->lk;
    unsigned char *masked = malloc(n * (size_t)H);
    bool ok = masked != NULL;
    for (size_t i = 0; ok && i < n * (size_t)H; i++)
        masked[i] = isinf(tr->scaled_scores[i]) && tr->scaled_scores[i] < 0.0f;
    const bool titled = in->head_titles && ex->layers <= 1;
    for (int h = 0; ok && h < shown; h++)
        ok = add_map(vd, ex->layers > 1 ? ex->layer : 0, h,
                     titled && h < in->titled_heads ? in->head_titles[h] : NULL,
                     tr->weights + (size_t)h * n, tr->lq, tr->lk, ex->tokens, ex->key_tokens,
                     masked + (size_t)h * n);
    snprintf(vd->line, sizeof vd->line, "one layer of %d head%s on %d token%s%s%s", H,
             H == 1 ? "" : "s", tr->lq, tr->lq == 1 ? "" : "s", ex->causal ? ", causal" : "",
             shown < H ? " (the first 32 maps)" : "");
    words(vd, shown, H);
    free(masked);
    mha_trace_free(tr);
    return ok;
}

/* The ids of the tokens ex shows in m's words, into m's sample; false (and
 * vd->error says why) when one is not a word of m. */
static bool sample_of(struct view_desc *vd, const struct mha_example *ex, struct train_model *m)
{
    int ids[TRAIN_MAX_CONTEXT];
    if (ex->lq > m->cfg.context || ex->lq > TRAIN_MAX_CONTEXT) {
        snprintf(vd->error, sizeof vd->error, "%d tokens are more than the model reads (%d).",
                 ex->lq, m->cfg.context);
        return false;
    }
    for (int i = 0; i < ex->lq; i++) {
        ids[i] = -1;
        for (int v = 0; v < m->cfg.vocab && ids[i] < 0; v++)
            if (!strcmp(m->vocab_names[v], ex->tokens[i]))
                ids[i] = v;
        if (ids[i] < 0) {
            snprintf(vd->error, sizeof vd->error,
                     "The token \"%.40s\" is not a word of the model file: the view reads the "
                     "model's layers on its own words.",
                     ex->tokens[i]);
            return false;
        }
    }
    struct mha_error err;
    mha_error_clear(&err);
    if (train_model_set_sample(m, ids, ex->lq, &err)) {
        snprintf(vd->error, sizeof vd->error, "%s", err.text);
        return false;
    }
    return true;
}

/* Every layer's heads of m on its sample (m's shown layer changes). */
static bool from_model(struct view_desc *vd, const struct view_inputs *in, struct train_model *m)
{
    const int L = train_layers(&m->cfg), H = m->cfg.heads, T = m->sample_len;
    const struct train_layer_measures *lm = in->layer_measures;
    if (lm && (lm->layers != L || lm->heads != H))
        lm = NULL; /* measured on another model */
    if (T < 1) {
        snprintf(vd->error, sizeof vd->error, "The model has no sequence to show.");
        return true;
    }
    char *labels[TRAIN_MAX_CONTEXT];
    for (int i = 0; i < T; i++)
        labels[i] = m->vocab_names[m->sample[i]];
    unsigned char *masked = malloc((size_t)T * (size_t)T);
    if (!masked)
        return false;
    for (int i = 0; i < T; i++)
        for (int j = 0; j < T; j++)
            masked[(size_t)i * (size_t)T + (size_t)j] = m->cfg.causal && j > i;
    struct mha_error err;
    mha_error_clear(&err);
    bool ok = true;
    int shown = 0;
    for (int l = 0; ok && l < L && shown < VIEW_MATRIX_MAX; l++) {
        if (train_model_show_layer(m, l, &err) || train_model_sample_forward(m, &err))
            break;
        for (int h = 0; ok && h < H && shown < VIEW_MATRIX_MAX; h++, shown++) {
            char measured[VIEW_HEAD_TITLE] = "";
            if (lm)
                train_head_label(&lm->stats[l][h], measured, sizeof measured);
            ok =
                add_map(vd, l, h, measured, train_head_weights(m, h), T, T, labels, labels, masked);
        }
    }
    free(masked);
    if (err.text[0]) {
        snprintf(vd->error, sizeof vd->error, "The heads cannot be computed: %s", err.text);
        return true;
    }
    const char *from = in->trained && in->trained[0] ? in->trained : NULL;
    if (!from && in->model_path) {
        from = strrchr(in->model_path, '/');
        from = from ? from + 1 : in->model_path;
    }
    snprintf(vd->line, sizeof vd->line, "%s: %d layers of %d head%s on %d tokens%s%s",
             from ? from : "the model", L, H, H == 1 ? "" : "s", T, m->cfg.causal ? ", causal" : "",
             shown < L * H ? " (the first 32 maps)" : "");
    words(vd, shown, L * H);
    return ok;
}

static bool view_model_make(struct view_desc *vd, const struct view_inputs *in)
{
    snprintf(vd->name, sizeof vd->name, "Model");
    snprintf(vd->heading, sizeof vd->heading, "Model: every head at once");
    snprintf(
        vd->formula, sizeof vd->formula,
        "A_l,h = softmax(Q_l,h · K_l,hᵀ / √d_k)\nrow i: query token i   column j: key token j");
    snprintf(vd->text, sizeof vd->text,
             "Every head of every layer on the same sequence, each a small map of its attention "
             "weights: rows are the queries, columns the keys, brighter is more weight. Heads "
             "that do a job show it as a shape: a line one left of the diagonal looks at the "
             "previous token, a column at the first token, a line one right of an earlier copy "
             "is an induction head. Titles name the layer and head, and what a training "
             "measured the head doing where it did.");
    vd->paged = true;
    vd->heads = in->ex->heads;
    vd->d_k = in->ex->heads > 0 ? in->ex->d_model / in->ex->heads : 0;
    if (in->model && train_layers(&in->model->cfg) > 1) { /* a model training: a copy to run */
        struct mha_error err;
        mha_error_clear(&err);
        struct train_model *m = train_model_new(&in->model->cfg, 1, &err);
        if (!m || train_model_copy_params(m, in->model, &err)) {
            train_model_free(m);
            snprintf(vd->error, sizeof vd->error, "The heads cannot be computed: %s", err.text);
            return true;
        }
        const bool ok = from_model(vd, in, m);
        train_model_free(m);
        return ok;
    }
    if (in->ex->layers > 1) { /* a model file of layers: read again, on the words shown */
        struct train_model *m =
            view_model_file(vd, in, "The layers of this model are not at hand.", NULL);
        if (!m)
            return true;
        bool ok = true;
        if (sample_of(vd, in->ex, m))
            ok = from_model(vd, in, m);
        train_model_free(m);
        return ok;
    }
    return from_example(vd, in);
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_model_kind = {
    .id = MHA_VIEW_MODEL,
    .name = "model",
    .make = view_model_make,
    .cycle_msg = "Model view: every head of every layer at once, each a map of its attention "
                 "weights.",
    .extension = "txt",
    .man = "Every head of every layer at once, each a small map of its attention weights on the "
           "sequence shown (a row per query token, a column per key token, in the heat colours "
           "of the attention stage), titled with its layer and head (L0 H1) and, on a model that "
           "is training, what it was measured doing (prev .97). The example shows its one layer; "
           "a loaded model of layers or one training shows every layer on its sample. The maps "
           "are as large as the screen allows, with token labels along their edges where there "
           "is room (cut to their first letters where there is not); those that do not fit wait "
           "for the page keys, which the view's hint line names with the count of the rest. At "
           "most 32 maps are shown. Written to a file, each map is a table of its numbers (on a "
           "lesson's HTML page, its cells in the heat colours).",
    .own_sizes = false,
};
