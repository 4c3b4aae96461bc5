/* dump_json.c - the JSON dump written as it goes.
 *
 * The document is the one jansson would write for the same tree (compact,
 * keys in order, reals with 9 significant digits, "1.0" for a whole real,
 * exponents without "+" or leading zeros), but no tree is built: at the
 * largest example (1024 tokens, d_model 2048, 32 heads: 143 million
 * numbers) a tree needed over 9 GB before the first byte was written; this
 * needs nothing beyond the trace.  Strings are escaped as JSON requires;
 * a byte that is not UTF-8 is written as U+FFFD, so every label is kept and
 * config.tokens always has one label per row. */
#include "io/dump.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "io/num_text.h"

/* A float as jansson's jsonp_dtostr writes a real with precision 9 ("%.9g",
 * then ".0" when it reads as an integer, and no zeros leading the exponent),
 * or null for -inf (a masked score); its length in p (NUM_TEXT_MAX + 2). */
static int real_text(char *p, float x)
{
    if (!isfinite(x)) {
        memcpy(p, "null", 5);
        return 4;
    }
    return num_g9_json(p, x);
}

static void put_num(FILE *out, float x)
{
    char buf[NUM_TEXT_MAX + 2];
    fwrite(buf, 1, (size_t)real_text(buf, x), out);
}

/* Length of the valid UTF-8 character at s, 0 for a byte that starts none. */
static size_t utf8_len(const unsigned char *s)
{
    const size_t k = s[0] < 0x80             ? 1
                     : (s[0] & 0xE0) == 0xC0 ? 2
                     : (s[0] & 0xF0) == 0xE0 ? 3
                     : (s[0] & 0xF8) == 0xF0 ? 4
                                             : 0;
    unsigned long c = k == 2 ? (s[0] & 0x1Fu) : k == 3 ? (s[0] & 0x0Fu) : (s[0] & 0x07u);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (k > 1 && (c < least[k] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)))
        return 0;
    return k;
}

static void put_string(FILE *out, const char *str)
{
    fputc('"', out);
    for (const unsigned char *s = (const unsigned char *)(str ? str : ""); *s;) {
        const size_t k = utf8_len(s);
        if (k == 0) {
            fputs("\xEF\xBF\xBD", out); /* U+FFFD */
            s++;
            continue;
        }
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if (*s == '\b')
            fputs("\\b", out);
        else if (*s == '\f')
            fputs("\\f", out);
        else if (*s == '\n')
            fputs("\\n", out);
        else if (*s == '\r')
            fputs("\\r", out);
        else if (*s == '\t')
            fputs("\\t", out);
        else if (*s < 0x20 || *s == 0x7F)
            fprintf(out, "\\u%04X", *s);
        else
            fwrite(s, 1, k, out);
        s += k;
    }
    fputc('"', out);
}

static void put_key(FILE *out, bool first, const char *key)
{
    if (!first)
        fputc(',', out);
    put_string(out, key);
    fputc(':', out);
}

/* [v0,v1,...], written a piece at a time. */
static void vec(FILE *out, const float *v, int n)
{
    char line[8192];
    size_t at = 0;
    line[at++] = '[';
    for (int i = 0; i < n; i++) {
        if (at + NUM_TEXT_MAX + 4 > sizeof line) {
            fwrite(line, 1, at, out);
            at = 0;
        }
        if (i)
            line[at++] = ',';
        at += (size_t)real_text(line + at, v[i]);
    }
    line[at++] = ']';
    fwrite(line, 1, at, out);
}

/* rows x cols block starting at m. */
static void mat2(FILE *out, const float *m, int rows, int cols)
{
    fputc('[', out);
    for (int i = 0; i < rows; i++) {
        if (i)
            fputc(',', out);
        vec(out, m + (size_t)i * (size_t)cols, cols);
    }
    fputc(']', out);
}

/* (n, rows, cols) tensor. */
static void mat3(FILE *out, const float *m, int n, int rows, int cols)
{
    fputc('[', out);
    for (int h = 0; h < n; h++) {
        if (h)
            fputc(',', out);
        mat2(out, m + (size_t)h * (size_t)rows * (size_t)cols, rows, cols);
    }
    fputc(']', out);
}

/* A projection (L, d) seen as (L, H, d_k). */
static void split(FILE *out, const struct mha_trace *t, const float *proj, int len)
{
    fputc('[', out);
    for (int l = 0; l < len; l++) {
        fputs(l ? ",[" : "[", out);
        for (int h = 0; h < t->heads; h++) {
            fputs(h ? ",[" : "[", out);
            for (int j = 0; j < t->d_k; j++) {
                if (j)
                    fputc(',', out);
                put_num(out, mha_split_at(t, proj, l, h, j));
            }
            fputc(']', out);
        }
        fputc(']', out);
    }
    fputc(']', out);
}

static void labels(FILE *out, char *const *l, int n)
{
    fputc('[', out);
    for (int i = 0; i < n; i++) {
        if (i)
            fputc(',', out);
        put_string(out, l[i]);
    }
    fputc(']', out);
}

/* The example's biases and mask, after the tensors of the stage that shows
 * them. */
static void params(FILE *out, const struct mha_example *ex, const struct mha_trace *t)
{
    const int d = t->d_model, lq = t->lq, lk = t->lk;
    if (ex->has_bias) {
        const char *bn[] = {"b_q", "b_k", "b_v", "b_o"};
        const float *b[] = {ex->b_q, ex->b_k, ex->b_v, ex->b_o};
        for (int i = 0; i < 4; i++) {
            put_key(out, false, bn[i]);
            vec(out, b[i], d);
        }
    }
    if (ex->has_mask) {
        put_key(out, false, "mask");
        fputc('[', out);
        for (int i = 0; i < lq; i++) {
            fputs(i ? ",[" : "[", out);
            for (int j = 0; j < lk; j++)
                fprintf(out, j ? ",%d" : "%d", ex->mask[(size_t)i * (size_t)lk + (size_t)j]);
            fputc(']', out);
        }
        fputc(']', out);
    }
}

/* Tensor x in form f: (H, rows, cols) per head, (L, H, d_k) split, else
 * (rows, cols). */
static void tensor(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                   enum mha_tensor x, enum mha_form f)
{
    int heads, rows, cols;
    mha_tensor_shape(t, x, &heads, &rows, &cols);
    const float *data = mha_tensor_data(ex, t, x);
    if (f == MHA_FORM_HEADS)
        mat3(out, data, heads, rows, cols);
    else if (f == MHA_FORM_SPLIT)
        split(out, t, data, rows);
    else
        mat2(out, data, rows, cols);
}

/* The rows every key is masked for, when a stage dumps weights. */
static void masked_rows(FILE *out, const struct mha_trace *t)
{
    if (!t->empty_rows)
        return;
    fputs(",\"fully_masked_rows\":[", out);
    bool first = true;
    for (int i = 0; i < t->lq; i++)
        if (t->row_empty[i]) {
            fprintf(out, first ? "%d" : ",%d", i);
            first = false;
        }
    fputc(']', out);
}

/* A language model's next word: its likeliest words with probabilities. */
static void next_word(FILE *out, const struct mha_next_word *nw)
{
    fprintf(out, ",\"next_word_position\":%d,\"temperature\":", nw->position);
    put_num(out, nw->temperature);
    fputs(",\"next_word\":[", out);
    for (int i = 0; i < nw->n; i++) {
        fputs(i ? ",{\"word\":" : "{\"word\":", out);
        put_string(out, nw->word[i]);
        fputs(",\"p\":", out);
        put_num(out, nw->p[i]);
        fputc('}', out);
    }
    fputc(']', out);
}

/* A stage: its one dumped tensor as it is, or an object of them by key
 * (the output of a language model always an object: its next word too). */
static void stage(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int s)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
    const bool words = info->next_word && ex->has_next_word;
    int dumped = 0, only = 0;
    bool probs = false;
    for (int i = 0; i < info->n_tensors; i++)
        if (info->show[i].flags & MHA_SHOW_DUMP) {
            dumped++;
            only = i;
            probs |= mha_tensor_desc(info->tensors[i])->kind == MHA_KIND_PROBS;
        }
    if (dumped == 1 && !info->with_params && !words) {
        tensor(out, ex, t, info->tensors[only], info->show[only].form);
        return;
    }
    fputc('{', out);
    bool first = true;
    for (int i = 0; i < info->n_tensors; i++) {
        if (!(info->show[i].flags & MHA_SHOW_DUMP))
            continue;
        put_key(out, first, mha_tensor_desc(info->tensors[i])->json_key);
        tensor(out, ex, t, info->tensors[i], info->show[i].form);
        first = false;
    }
    if (info->with_params)
        params(out, ex, t);
    if (probs)
        masked_rows(out, t);
    if (words)
        next_word(out, &ex->next_word);
    fputc('}', out);
}

static void config(FILE *out, const struct mha_example *ex, const struct mha_trace *t)
{
    fputs("{\"tokens\":", out);
    labels(out, ex->tokens, ex->lq);
    fputs(",\"key_tokens\":", out);
    labels(out, ex->key_tokens, ex->lk);
    fprintf(out,
            ",\"d_model\":%d,\"num_heads\":%d,\"head_dim\":%d,\"causal\":%s,\"scaled\":%s,"
            "\"cross\":%s,\"has_mask\":%s,\"has_bias\":%s,\"seed\":%lu",
            t->d_model, t->heads, t->d_k, t->causal ? "true" : "false",
            t->scaled ? "true" : "false", ex->cross ? "true" : "false",
            ex->has_mask ? "true" : "false", ex->has_bias ? "true" : "false",
            (unsigned long)ex->seed);
    if (ex->layers > 1) /* a model of layers: the layer the stages are of, from 0 */
        fprintf(out, ",\"layers\":%d,\"layer\":%d", ex->layers, ex->layer);
    fputc('}', out);
}

int dump_json_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage_)
{
    fputs("{\"config\":", out);
    config(out, ex, t);
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        if (stage_ == DUMP_ALL || stage_ == s) {
            put_key(out, false, mha_stage_name((enum mha_stage)s));
            stage(out, ex, t, s);
        }
    fputc('}', out);
    return ferror(out) ? -1 : 0;
}

int dump_json_line_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                         int stage_)
{
    return dump_json_write(out, ex, t, stage_) != 0 || fputc('\n', out) == EOF ? -1 : 0;
}

char *dump_json_string(const struct mha_example *ex, const struct mha_trace *t, int stage_)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    if (!mem)
        return NULL;
    const int rc = dump_json_write(mem, ex, t, stage_);
    if (fclose(mem) != 0 || rc != 0) {
        free(buf);
        return NULL;
    }
    return buf;
}
