/* dump.c - stages of a trace as JSON (for programs) and text (for people). */
#include "io/dump.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "io/export.h"
#include "io/num_text.h"
#include "io/utf8.h"

/* ---- text ---------------------------------------------------------------- */

/* Print s padded (right-aligned when right) to width columns. */
static void put_padded(FILE *out, const char *s, int width, bool right)
{
    int pad = width - utf8_width(s);
    if (right)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
    fputs(s, out);
    if (!right)
        for (int i = 0; i < pad; i++)
            fputc(' ', out);
}

/* A cell's text (at most NUM_TEXT_MAX bytes) into buf; its length. */
static int format_cell(char *buf, float x)
{
    return num_cell(buf, x, "-inf");
}

/* One matrix block: title line, then header and rows.  row_labels may be
 * NULL (rows numbered); col_labels NULL gives "d0".."dN". */
void dump_text_matrix(FILE *out, const char *title, const float *m, int rows, int cols,
                      char *const *row_labels, char *const *col_labels)
{
    fprintf(out, "%s  (%d × %d)\n", title, rows, cols);
    int lw = 0, cw = 6;
    char buf[NUM_TEXT_MAX];
    char line[8192]; /* a row's cells, written a piece at a time */
    for (int i = 0; i < rows; i++) {
        int w;
        if (row_labels)
            w = utf8_width(row_labels[i]);
        else
            w = snprintf(buf, sizeof buf, "%d", i);
        if (w > lw)
            lw = w;
    }
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++) {
        const int w = format_cell(buf, m[i]);
        if (w > cw)
            cw = w;
    }
    for (int j = 0; j < cols; j++) {
        int w = col_labels ? utf8_width(col_labels[j]) : snprintf(buf, sizeof buf, "d%d", j);
        if (w > cw)
            cw = w;
    }
    put_padded(out, "", lw, false);
    for (int j = 0; j < cols; j++) {
        fputs("  ", out);
        if (col_labels) {
            put_padded(out, col_labels[j], cw, true);
        } else {
            snprintf(buf, sizeof buf, "d%d", j);
            put_padded(out, buf, cw, true);
        }
    }
    fputc('\n', out);
    for (int i = 0; i < rows; i++) {
        if (row_labels) {
            put_padded(out, row_labels[i], lw, false);
        } else {
            snprintf(buf, sizeof buf, "%d", i);
            put_padded(out, buf, lw, false);
        }
        /* the row's cells in one piece: "  " and the number, right-aligned */
        size_t at = 0;
        for (int j = 0; j < cols && (size_t)cw + 3 > sizeof line; j++) { /* wide labels */
            format_cell(buf, m[(size_t)i * (size_t)cols + (size_t)j]);
            fputs("  ", out);
            put_padded(out, buf, cw, true);
        }
        for (int j = 0; j < cols && (size_t)cw + 3 <= sizeof line; j++) {
            if (at + (size_t)cw + 2 > sizeof line) {
                fwrite(line, 1, at, out);
                at = 0;
            }
            const int w = format_cell(buf, m[(size_t)i * (size_t)cols + (size_t)j]);
            memset(line + at, ' ', (size_t)(cw - w) + 2);
            at += (size_t)(cw - w) + 2;
            memcpy(line + at, buf, (size_t)w);
            at += (size_t)w;
        }
        line[at++] = '\n';
        fwrite(line, 1, at, out);
    }
    fputc('\n', out);
}

/* Labels "<prefix><i>" for i in 0..n-1, or "h<i/d_k>.<i%d_k>" when d_k > 0;
 * one allocation (pointers then strings), free() it.  NULL on out of memory. */
static char **make_labels(const char *prefix, int n, int d_k)
{
    const size_t each = 32;
    char **v = malloc((size_t)n * (sizeof *v + each));
    if (!v)
        return NULL;
    char *text = (char *)(v + n);
    for (int i = 0; i < n; i++) {
        v[i] = text + (size_t)i * each;
        if (d_k > 0)
            snprintf(v[i], each, "h%d.%d", i / d_k, i % d_k);
        else
            snprintf(v[i], each, "%s%d", prefix, i);
    }
    return v;
}

static char *const *side_labels(const struct mha_example *ex, enum mha_side side)
{
    return side == MHA_SIDE_QUERY ? ex->tokens : side == MHA_SIDE_KEY ? ex->key_tokens : NULL;
}

/* Head h of the stage's i-th tensor, in the form the stage shows it. */
static void text_shown(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                       const struct mha_stage_info *info, int i, int h)
{
    const enum mha_tensor x = info->tensors[i];
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    int heads, rows, cols;
    mha_tensor_shape(t, x, &heads, &rows, &cols);
    char title[160];
    const struct mha_title_ctx ctx = mha_title_ctx_make(ex, t, h, rows, true);
    mha_title_expand(title, sizeof title, info->show[i].dump, &ctx);
    const float *m = mha_tensor_data(ex, t, x) + mha_idx3(rows, cols, h, 0, 0);
    char **row_l = NULL, **col_l = NULL; /* made for weights and split columns */
    if (d->kind == MHA_KIND_WEIGHT) {
        row_l = make_labels("out ", rows, 0);
        col_l = make_labels("in ", cols, 0);
    } else if (info->show[i].form == MHA_FORM_SPLIT) {
        col_l = make_labels("", cols, t->d_k);
    }
    dump_text_matrix(out, title, m, rows, cols, row_l ? row_l : side_labels(ex, d->rows),
                     col_l ? col_l : side_labels(ex, d->cols));
    free(row_l);
    free(col_l);
}

struct text_walk {
    FILE *out;
    const struct mha_example *ex;
    const struct mha_trace *t;
    const struct mha_stage_info *info;
};

static void text_one(void *arg, int i, int h, bool new_row)
{
    (void)new_row;
    const struct text_walk *w = arg;
    text_shown(w->out, w->ex, w->t, w->info, i, h);
}

static bool dumped(const struct mha_stage_info *info, int i)
{
    return (info->show[i].flags & MHA_SHOW_DUMP) != 0;
}

/* The notes under a stage that shows weights: the rows every key is masked
 * for. */
static void text_masked_rows(FILE *out, const struct mha_example *ex, const struct mha_trace *t)
{
    for (int i = 0; i < t->lq; i++)
        if (t->row_empty[i])
            fprintf(out,
                    "note: every key is masked for \"%s\": its weights and context are "
                    "all zero\n",
                    ex->tokens[i]);
    if (t->empty_rows)
        fputc('\n', out);
}

/* A language model's next word after its position: word, p and a bar of
 * p in twentieths. */
static void text_next_word(FILE *out, const struct mha_example *ex)
{
    const struct mha_next_word *nw = &ex->next_word;
    const int pos = nw->position >= 0 && nw->position < ex->lq ? nw->position : ex->lq - 1;
    fprintf(out, "next word after [%s] (position %d, the model's read-out, temperature %g):\n",
            ex->tokens[pos], pos, (double)nw->temperature);
    int width = 4;
    for (int i = 0; i < nw->n; i++) {
        const int w = utf8_width(nw->word[i]);
        width = w > width ? w : width;
    }
    for (int i = 0; i < nw->n; i++) {
        fputs("  ", out);
        put_padded(out, nw->word[i], width, false);
        fprintf(out, "  %.4f  ", (double)nw->p[i]);
        const int bar = (int)(nw->p[i] * 20.0f + 0.5f);
        for (int b = 0; b < bar; b++)
            fputs("#", out);
        fputc('\n', out);
    }
    fputc('\n', out);
}

void dump_text_stage(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int s)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
    fprintf(out, "== %d %s ==\n\n", s, info->dump_heading);
    if (info->dump_note) {
        char note[400];
        const struct mha_title_ctx ctx = mha_title_ctx_make(ex, t, 0, t->lq, true);
        fputs(mha_title_expand(note, sizeof note, info->dump_note, &ctx), out);
    }
    bool probs = false;
    for (int i = 0; i < info->n_tensors; i++)
        probs |= dumped(info, i) && mha_tensor_desc(info->tensors[i])->kind == MHA_KIND_PROBS;
    struct text_walk w = {out, ex, t, info};
    mha_stage_walk(info, info->export_order, t->heads, MHA_SHOW_DUMP, text_one, &w);
    if (info->with_params && ex->has_bias) {
        const int d = t->d_model;
        dump_text_matrix(out, "b_q", ex->b_q, 1, d, NULL, NULL);
        dump_text_matrix(out, "b_k", ex->b_k, 1, d, NULL, NULL);
        dump_text_matrix(out, "b_v", ex->b_v, 1, d, NULL, NULL);
        dump_text_matrix(out, "b_o", ex->b_o, 1, d, NULL, NULL);
    }
    if (probs)
        text_masked_rows(out, ex, t);
    if (info->next_word && ex->has_next_word)
        text_next_word(out, ex);
}

static void text_header(FILE *out, const struct mha_example *ex, const struct mha_trace *t)
{
    fprintf(out, "mha-explorer: %d %s", t->lq, t->lq == 1 ? "token" : "tokens");
    if (ex->cross)
        fprintf(out, " attending to %d key tokens", t->lk);
    char layer[48]; /* a model of layers: the one shown */
    export_layer_words(layer, sizeof layer, ex);
    fprintf(out, ", d_model %d, %d %s, d_k %d, mask %s, %s%s%s\n", t->d_model, t->heads,
            t->heads == 1 ? "head" : "heads", t->d_k,
            ex->causal ? (ex->has_mask ? "causal + explicit" : "causal")
                       : (ex->has_mask ? "explicit" : "none"),
            t->scaled ? "scaled by 1/√d_k" : "scaling off", layer[0] ? ", " : "", layer);
    fputs("tokens:", out);
    for (int i = 0; i < ex->lq; i++)
        fprintf(out, " [%s]", ex->tokens[i]);
    fputs("\n\n", out);
}

int dump_text_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage)
{
    text_header(out, ex, t);
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        if (stage == DUMP_ALL || stage == s)
            dump_text_stage(out, ex, t, s);
    return ferror(out) ? -1 : 0;
}

int dump_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
               enum mha_format fmt, struct mha_error *err)
{
    if (fmt != MHA_FORMAT_TEXT && fmt != MHA_FORMAT_JSON) {
        char list[64];
        return mha_error_set(err, "not a dump format; expected %s",
                             mha_format_list(MHA_FORMAT_DUMP, " or ", list, sizeof list));
    }
    return mha_format_write(out, ex, t, stage, (int)fmt, err);
}
