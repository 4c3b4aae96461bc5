/* view_patching.c - the patching view: activation patching
 * (train/train_patch.h) of a trained model on the example's tokens (the
 * clean run) and a corrupted sentence of as many (:corrupt, --corrupt, a
 * lesson's corrupt:): the answers A and B, the logit differences d_clean
 * and d_corrupt, and the share of the way back each head's output brings
 * when it is the clean run's, at every position and at each alone. */
#include "io/view_desc.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_check.h"
#include "io/model_io.h"
#include "train/train.h"
#include "train/train_patch.h"
#include "train/train_text.h"

/* Multiply-adds the patching of each head at each position may take: a
 * model that trains has the view made again at every frame, a model file
 * once.  Two layers of two heads at d_model 32 on 16 tokens take 2×10^7. */
#define PATCHING_WORK_TRAINING 5e7
#define PATCHING_WORK_FILE 1e9
#define LABEL (TRAIN_LABEL_MAX * 4)

static void class_name(const struct train_model *m, int k, int j, char *buf, size_t n)
{
    if (m->cfg.outputs[k].classes == m->cfg.vocab)
        mha_text_escape(m->vocab_names[j], buf, n);
    else
        snprintf(buf, n, "%d", j);
}

/* The example's tokens as the model's ids: each label a word of its
 * vocabulary.  false + vd->error when one is not. */
static bool clean_ids(struct view_desc *vd, const struct mha_example *ex,
                      const struct train_model *m, int *ids)
{
    if (ex->lq > m->cfg.context) {
        snprintf(vd->error, sizeof vd->error,
                 "The example has %d tokens and the model takes at most %d.", ex->lq,
                 m->cfg.context);
        return false;
    }
    for (int t = 0; t < ex->lq; t++) {
        ids[t] = -1;
        for (int j = 0; j < m->cfg.vocab && ids[t] < 0; j++)
            if (!strcmp(ex->tokens[t], m->vocab_names[j]))
                ids[t] = j;
        if (ids[t] < 0) {
            char shown[LABEL];
            snprintf(vd->error, sizeof vd->error,
                     "The example's token \"%s\" is not a word of the model: the clean run is "
                     "the model's own sentence (:tokens WORDS gives another).",
                     mha_text_escape(ex->tokens[t], shown, sizeof shown));
            return false;
        }
    }
    return true;
}

/* "the cat sat" of ids, escaped, into buf. */
static void words_of(const struct train_model *m, const int *ids, int n, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int t = 0; t < n && used + 1 < size; t++) {
        char shown[LABEL];
        used += (size_t)snprintf(buf + used, size - used, "%s%s", t ? " " : "",
                                 mha_text_escape(m->vocab_names[ids[t]], shown, sizeof shown));
    }
}

/* The shares as heatmaps: a row per layer and a column per head, then a
 * row per head (layer.head) and a column per position, the position's
 * clean word (clean/corrupted where they differ). */
static bool add_matrices(struct view_desc *vd, const struct train_model *m,
                         const struct train_patching *p, const int *clean, const int *corrupt,
                         int n)
{
    const int L = train_layers(&m->cfg), H = m->cfg.heads;
    struct view_matrix *x = view_matrix_add(
        vd, L, H,
        "restored share, each head's output the clean run's at every position: layer (row) "
        "by head (column)",
        "restored: layer (row) by head");
    if (!x)
        return false;
    float top = 1.0f;
    char name[LABEL * 2 + 2];
    for (int l = 0; l < L; l++) {
        snprintf(name, sizeof name, "layer %d", l);
        if (!view_matrix_label(x, true, l, name))
            return false;
        for (int h = 0; h < H; h++) {
            const float v = (float)p->score[l][h];
            x->data[(size_t)l * (size_t)H + (size_t)h] = v;
            top = fabsf(v) > top ? fabsf(v) : top;
        }
    }
    for (int h = 0; h < H; h++) {
        snprintf(name, sizeof name, "head %d", h);
        if (!view_matrix_label(x, false, h, name))
            return false;
    }
    x->range = top;
    if (!p->positions)
        return true;
    x = view_matrix_add(vd, L * H, n,
                        "restored share, one head's output the clean run's at one position "
                        "alone: layer.head (row) by position (column)",
                        "restored at one position: layer.head by position");
    if (!x)
        return false;
    top = 1.0f;
    for (int l = 0; l < L; l++)
        for (int h = 0; h < H; h++) {
            const int r = l * H + h;
            snprintf(name, sizeof name, "%d.%d", l, h);
            if (!view_matrix_label(x, true, r, name))
                return false;
            for (int t = 0; t < n; t++) {
                const float v = (float)p->score_at[l][h][t];
                x->data[(size_t)r * (size_t)n + (size_t)t] = v;
                top = fabsf(v) > top ? fabsf(v) : top;
            }
        }
    x->range = top;
    for (int t = 0; t < n; t++) {
        char a[LABEL], b[LABEL];
        mha_text_escape(m->vocab_names[clean[t]], a, sizeof a);
        mha_text_escape(m->vocab_names[corrupt[t]], b, sizeof b);
        if (clean[t] == corrupt[t])
            snprintf(name, sizeof name, "%s", a);
        else
            snprintf(name, sizeof name, "%s/%s", a, b);
        if (!view_matrix_label(x, false, t, name))
            return false;
    }
    return true;
}

/* The table: a row per head, its share and d_patched. */
static bool add_table(struct view_desc *vd, const struct train_model *m,
                      const struct train_patching *p)
{
    const int L = train_layers(&m->cfg), H = m->cfg.heads;
    bool ok = view_table_alloc(&vd->table, 1 + L * H, 3);
    const char *header[] = {"head", "restored", "d_patched"};
    ok = ok && view_table_set_row(&vd->table, 0, header);
    vd->table.right[1] = vd->table.right[2] = true;
    for (int l = 0; ok && l < L; l++)
        for (int h = 0; ok && h < H; h++) {
            char name[32], share[32], dp[32];
            snprintf(name, sizeof name, "layer %d head %d", l, h);
            if (p->measurable)
                snprintf(share, sizeof share, "%.3f", p->score[l][h]);
            else
                snprintf(share, sizeof share, "-");
            snprintf(dp, sizeof dp, "%.4f", p->d_patched[l][h]);
            const char *row[] = {name, share, dp};
            ok = view_table_set_row(&vd->table, 1 + l * H + h, row);
        }
    snprintf(vd->table_title, sizeof vd->table_title,
             "Each head's output in the corrupted run made the clean run's");
    return ok;
}

static bool describe(struct view_desc *vd, const struct view_inputs *in, struct train_model *m,
                     const char *path)
{
    const struct train_config *cfg = &m->cfg;
    const int L = train_layers(cfg), H = cfg->heads;
    vd->heads = H;
    vd->d_k = cfg->d_model / H;
    int clean[TRAIN_MAX_CONTEXT], corrupt[TRAIN_MAX_CONTEXT], n = in->ex->lq, nc = 0;
    struct mha_error err;
    mha_error_clear(&err);
    if (in->clean && in->clean[0]) { /* a lesson's own clean sentence */
        if (model_io_sentence_ids(m, path, "the clean sentence", in->clean, clean, &n, &err)) {
            snprintf(vd->error, sizeof vd->error, "%s", err.text);
            return true;
        }
    } else if (!clean_ids(vd, in->ex, m, clean)) {
        return true;
    }
    char words[MODEL_IO_WORDS_MAX * 2];
    words_of(m, clean, n, words, sizeof words);
    if (!in->corrupt || !in->corrupt[0]) {
        snprintf(vd->error, sizeof vd->error,
                 "Patching runs the model twice: on the clean sentence, \"%.300s\" (%d token%s), "
                 "and on a corrupted one of the same %d tokens, a word or two changed. Give "
                 "it with :corrupt WORDS (on the command line --corrupt \"WORDS\", in a lesson "
                 "corrupt:).",
                 words, n, n == 1 ? "" : "s", n);
        return true;
    }
    if (model_io_sentence_ids(m, path, "the corrupted sentence", in->corrupt, corrupt, &nc, &err)) {
        snprintf(vd->error, sizeof vd->error, "%s", err.text);
        return true;
    }
    if (nc != n) {
        snprintf(vd->error, sizeof vd->error,
                 "The corrupted sentence has %d token%s and the clean one, \"%.300s\", has %d: "
                 "patching puts each position of one run beside the same position of the "
                 "other, so both need the same number of tokens. :corrupt WORDS gives another.",
                 nc, nc == 1 ? "" : "s", words, n);
        return true;
    }
    /* each head at each position when it takes little enough */
    const double d = cfg->d_model, per_pass = (double)n * d * d * 4.0 * L +
                                              (double)n * d * (double)cfg->outputs[0].classes;
    const double work = (double)L * H * n * per_pass;
    const bool positions = work <= (in->model ? PATCHING_WORK_TRAINING : PATCHING_WORK_FILE);
    struct train_patching *p = malloc(sizeof *p);
    if (!p)
        return false;
    const int next = train_model_next_output(m), k = next >= 0 ? next : 0;
    if (train_patch_heads(m, k, clean, corrupt, n, -1, -1, positions, p, &err)) {
        snprintf(vd->error, sizeof vd->error, "The patching cannot be run: %s", err.text);
        free(p);
        return true;
    }
    char a[LABEL], b[LABEL], bad[LABEL * 2 + 200] = "";
    class_name(m, k, p->a, a, sizeof a);
    class_name(m, k, p->b, b, sizeof b);
    snprintf(vd->line, sizeof vd->line, "A \"%.60s\", B \"%.60s\": d_clean %.4f, d_corrupt %.4f", a,
             b, p->d_clean, p->d_corrupt);
    if (!p->measurable)
        snprintf(bad, sizeof bad,
                 "d_clean - d_corrupt is %.4f: too small to divide by (the two runs answer "
                 "alike), so no share is computed; the table gives each d_patched. ",
                 p->d_clean - p->d_corrupt);
    char corrupted[MODEL_IO_WORDS_MAX * 2];
    words_of(m, corrupt, n, corrupted, sizeof corrupted);
    bool ok = (!p->measurable || add_matrices(vd, m, p, clean, corrupt, n)) && add_table(vd, m, p);
    snprintf(vd->note, sizeof vd->note,
             "%sClean: \"%.400s\", whose likeliest next %s is A, \"%.60s\". Corrupted: \"%.400s\", "
             "whose likeliest is B, \"%.60s\". d is logit A - logit B of output %s after the last "
             "token: %.4f on the clean run (d_clean), %.4f on the corrupted (d_corrupt). Each "
             "head's output in the corrupted run made the clean run's gives d_patched, and the "
             "share restored is (d_patched - d_corrupt) / (d_clean - d_corrupt): 1 brings the "
             "clean answer's whole lead back, 0 none of it. Heads are named layer.head; at one "
             "position, the head's output is the clean run's there alone, the position named "
             "by its clean word (clean/corrupted where they differ).%s",
             bad, words, cfg->outputs[k].classes == cfg->vocab ? "word" : "class", a, corrupted, b,
             cfg->outputs[k].name, p->d_clean, p->d_corrupt,
             p->measurable && !positions
                 ? " The model is too large to patch each head at each position here: "
                   "the heads are patched at every position at once."
                 : "");
    free(p);
    return ok;
}

/* A copy of a model in training to run (its own buffers stay as the
 * screen shows them).  NULL when out of memory. */
static struct train_model *copy_of(const struct train_model *src)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = train_model_new(&src->cfg, 1, &err);
    if (m && train_model_copy_params(m, src, &err)) {
        train_model_free(m);
        return NULL;
    }
    if (m)
        m->words = src->words;
    return m;
}

static bool view_patching_make(struct view_desc *vd, const struct view_inputs *in)
{
    snprintf(vd->name, sizeof vd->name, "Patching");
    snprintf(vd->heading, sizeof vd->heading, "Patching: which heads carry the answer");
    snprintf(vd->formula, sizeof vd->formula,
             "d = logit A − logit B\nrestored = (d_patched − d_corrupt) / (d_clean − d_corrupt)");
    snprintf(vd->text, sizeof vd->text,
             "Run the model on a clean sentence and on a corrupted one, a word changed: the "
             "clean run's likeliest next word is A, the corrupted run's B. Then run the "
             "corrupted sentence again with one head's output taken from the clean run. If "
             "the answer swings back to A, that head carried what the change took away. A "
             "knock-out asks what the model loses without a head; patching asks which head "
             "brings one piece of information, and at which position.");
    struct train_model *m = NULL;
    const char *path = NULL;
    if (in->model) {
        const char *from = in->trained && in->trained[0] ? in->trained : "the model";
        snprintf(vd->line, sizeof vd->line, "%s", from);
        m = copy_of(in->model);
        if (!m)
            return false;
    } else {
        m = view_model_file(vd, in,
                            "The patching view runs a trained model, and these numbers are not "
                            "one. Load a model file (--load MODEL, :load) or train one.",
                            NULL);
        if (!m)
            return true;
        path = in->model_path;
    }
    const bool ok = describe(vd, in, m, path);
    train_model_free(m);
    return ok;
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_patching_kind = {
    .id = MHA_VIEW_PATCHING,
    .name = "patching",
    .make = view_patching_make,
    .cycle_msg = "Patching view: how much of the clean answer each head brings back into "
                 "the corrupted run (:corrupt WORDS gives the corrupted sentence).",
    .extension = "txt",
    .man = "Activation patching of a trained model (a loaded model file, a lesson's model, or "
           "the model training on the training screen), as **--dump patching** computes it: "
           "the model runs on the example's words (the clean run) and on a corrupted sentence "
           "of as many, given by **:corrupt** (**--corrupt** on the command line, "
           "**corrupt:** in a lesson); A is the clean run's likeliest next word, B the "
           "corrupted run's, and d the logit difference A − B after the last word. For each "
           "layer and head, the corrupted run again with that head's output the clean run's "
           "gives d_patched, and the share restored, (d_patched − d_corrupt) / (d_clean − "
           "d_corrupt), is shown as a heatmap of layers by heads and in a table; a second "
           "heatmap patches each head at each position alone (where that takes at most "
           "5×10^7 multiply-adds on a model that trains, 10^9 on a model file). The line "
           "over it names A and B and gives d_clean and d_corrupt. Without a corrupted "
           "sentence, or with one of another length, the view says what to give; when the "
           "two runs' differences are within 0.001 it says the gap is too small to divide "
           "by and gives each d_patched.",
    .own_sizes = false,
    .corrupt = true,
};
