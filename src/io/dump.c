/* dump.c - stages of a trace as JSON (for programs) and text (for people). */
#include "io/dump.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "io/utf8.h"

int dump_format_from_name(const char *name)
{
    const int f = mha_format_from_name(name);
    return f >= 0 && mha_format_get(f)->kind == MHA_FORMAT_DUMP ? f : -1;
}

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

static void format_cell(char *buf, size_t n, float x)
{
    if (x == -INFINITY)
        snprintf(buf, n, "-inf");
    else if (fabsf(x) < 0.00005f)
        snprintf(buf, n, "0.0000"); /* no "-0.0000" */
    else if (fabsf(x) >= 1e5f)
        snprintf(buf, n, "%.4g", (double)x);
    else
        snprintf(buf, n, "%.4f", (double)x);
}

/* One matrix block: title line, then header and rows.  row_labels may be
 * NULL (rows numbered); col_labels NULL gives "d0".."dN". */
void dump_text_matrix(FILE *out, const char *title, const float *m, int rows, int cols,
                      char *const *row_labels, char *const *col_labels)
{
    fprintf(out, "%s  (%d × %d)\n", title, rows, cols);
    int lw = 0, cw = 6;
    char buf[48];
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
        format_cell(buf, sizeof buf, m[i]);
        int w = (int)strlen(buf);
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
        for (int j = 0; j < cols; j++) {
            format_cell(buf, sizeof buf, m[(size_t)i * (size_t)cols + (size_t)j]);
            fputs("  ", out);
            put_padded(out, buf, cw, true);
        }
        fputc('\n', out);
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

/* A weight matrix with "out i" rows and "in j" columns. */
static void text_weight(FILE *out, const char *title, const float *w, int d)
{
    char **rows = make_labels("out ", d, 0), **cols = make_labels("in ", d, 0);
    dump_text_matrix(out, title, w, d, d, rows, cols);
    free(rows);
    free(cols);
}

/* A projection (L, d) printed as (L, H·d_k) with head-labelled columns. */
static void text_split(FILE *out, const struct mha_trace *t, const char *title, const float *proj,
                       int len, char *const *labels)
{
    char **cols = make_labels("", t->d_model, t->d_k);
    dump_text_matrix(out, title, proj, len, t->d_model, labels, cols);
    free(cols);
}

void dump_text_stage(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int s)
{
    const int d = t->d_model, H = t->heads, dk = t->d_k, lq = t->lq, lk = t->lk;
    char title[160];
    fprintf(out, "== %d %s ==\n\n", s, mha_stage_info(s)->dump_heading);
    switch (s) {
    case MHA_STAGE_INPUT:
        dump_text_matrix(out, "query", ex->query, lq, d, ex->tokens, NULL);
        dump_text_matrix(out, "key", ex->key, lk, d, ex->key_tokens, NULL);
        dump_text_matrix(out, "value", ex->value, lk, d, ex->key_tokens, NULL);
        text_weight(out, "W_q", ex->w_q, d);
        text_weight(out, "W_k", ex->w_k, d);
        text_weight(out, "W_v", ex->w_v, d);
        text_weight(out, "W_o", ex->w_o, d);
        if (ex->has_bias) {
            dump_text_matrix(out, "b_q", ex->b_q, 1, d, NULL, NULL);
            dump_text_matrix(out, "b_k", ex->b_k, 1, d, NULL, NULL);
            dump_text_matrix(out, "b_v", ex->b_v, 1, d, NULL, NULL);
            dump_text_matrix(out, "b_o", ex->b_o, 1, d, NULL, NULL);
        }
        break;
    case MHA_STAGE_PROJECTION:
        dump_text_matrix(out, "Q = query·W_qᵀ + b_q", t->q, lq, d, ex->tokens, NULL);
        dump_text_matrix(out, "K = key·W_kᵀ + b_k", t->k, lk, d, ex->key_tokens, NULL);
        dump_text_matrix(out, "V = value·W_vᵀ + b_v", t->v, lk, d, ex->key_tokens, NULL);
        break;
    case MHA_STAGE_SPLIT:
        fprintf(out,
                "Q, K and V viewed as (L, %d, %d): column h<i>.<j> is dimension j of head "
                "i.\nNo number changes; only how the columns are grouped.\n\n",
                H, dk);
        snprintf(title, sizeof title, "Q as (%d, %d, %d)", lq, H, dk);
        text_split(out, t, title, t->q, lq, ex->tokens);
        snprintf(title, sizeof title, "K as (%d, %d, %d)", lk, H, dk);
        text_split(out, t, title, t->k, lk, ex->key_tokens);
        snprintf(title, sizeof title, "V as (%d, %d, %d)", lk, H, dk);
        text_split(out, t, title, t->v, lk, ex->key_tokens);
        break;
    case MHA_STAGE_TRANSPOSE:
        for (int h = 0; h < H; h++) {
            snprintf(title, sizeof title, "head %d · Q%d", h, h);
            dump_text_matrix(out, title, t->qh + mha_idx3(lq, dk, h, 0, 0), lq, dk, ex->tokens,
                             NULL);
            snprintf(title, sizeof title, "head %d · K%d", h, h);
            dump_text_matrix(out, title, t->kh + mha_idx3(lk, dk, h, 0, 0), lk, dk, ex->key_tokens,
                             NULL);
            snprintf(title, sizeof title, "head %d · V%d", h, h);
            dump_text_matrix(out, title, t->vh + mha_idx3(lk, dk, h, 0, 0), lk, dk, ex->key_tokens,
                             NULL);
        }
        break;
    case MHA_STAGE_ATTENTION: {
        const size_t att = (size_t)lq * (size_t)lk;
        fprintf(out, "scale: %s, mask: %s\n\n",
                t->scaled ? "divide by √d_k" : "off (scores used as they are)",
                ex->causal ? (ex->has_mask ? "causal + explicit" : "causal")
                           : (ex->has_mask ? "explicit" : "none"));
        for (int h = 0; h < H; h++) {
            snprintf(title, sizeof title, "head %d · scores = Q%d·K%dᵀ", h, h, h);
            dump_text_matrix(out, title, t->scores + h * att, lq, lk, ex->tokens, ex->key_tokens);
            if (t->scaled)
                snprintf(title, sizeof title, "head %d · scaled = scores / √%d (masked: -inf)", h,
                         dk);
            else
                snprintf(title, sizeof title, "head %d · scaled (scaling off; masked: -inf)", h);
            dump_text_matrix(out, title, t->scaled_scores + h * att, lq, lk, ex->tokens,
                             ex->key_tokens);
            snprintf(title, sizeof title, "head %d · weights = softmax(scaled), rows sum to 1", h);
            dump_text_matrix(out, title, t->weights + h * att, lq, lk, ex->tokens, ex->key_tokens);
            snprintf(title, sizeof title, "head %d · context = weights · V%d", h, h);
            dump_text_matrix(out, title, t->context + mha_idx3(lq, dk, h, 0, 0), lq, dk, ex->tokens,
                             NULL);
        }
        for (int i = 0; i < lq; i++)
            if (t->row_empty[i])
                fprintf(out,
                        "note: every key is masked for \"%s\": its weights and context are "
                        "all zero\n",
                        ex->tokens[i]);
        if (t->empty_rows)
            fputc('\n', out);
        break;
    }
    case MHA_STAGE_MERGE:
        snprintf(title, sizeof title, "merged: head 0 in d0..d%d%s", dk - 1,
                 H > 1 ? ", head 1 next, and so on" : "");
        dump_text_matrix(out, title, t->merged, lq, d, ex->tokens, NULL);
        break;
    case MHA_STAGE_OUTPUT:
        dump_text_matrix(out, "output = merged·W_oᵀ + b_o", t->output, lq, d, ex->tokens, NULL);
        break;
    }
}

static void text_header(FILE *out, const struct mha_example *ex, const struct mha_trace *t)
{
    fprintf(out, "mha-explorer: %d %s", t->lq, t->lq == 1 ? "token" : "tokens");
    if (ex->cross)
        fprintf(out, " attending to %d key tokens", t->lk);
    fprintf(out, ", d_model %d, %d %s, d_k %d, mask %s, %s\n", t->d_model, t->heads,
            t->heads == 1 ? "head" : "heads", t->d_k,
            ex->causal ? (ex->has_mask ? "causal + explicit" : "causal")
                       : (ex->has_mask ? "explicit" : "none"),
            t->scaled ? "scaled by 1/√d_k" : "scaling off");
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
               enum dump_format fmt, struct mha_error *err)
{
    if (fmt != DUMP_FORMAT_TEXT && fmt != DUMP_FORMAT_JSON) {
        char list[64];
        return mha_error_set(err, "not a dump format; expected %s",
                             mha_format_list(MHA_FORMAT_DUMP, " or ", list, sizeof list));
    }
    return mha_format_write(out, ex, t, stage, (int)fmt, err);
}
