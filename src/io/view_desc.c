/* view_desc.c - the views' registry, their descriptions made and freed, and
 * a description written as text and as HTML (view_desc.h). */
#include "io/view_desc.h"

#include <stdlib.h>
#include <string.h>

#include "io/colorscale.h"
#include "io/dump.h"
#include "io/export.h"
#include "io/model_io.h"
#include "io/utf8.h"

/* Each view's row, from its own file (engine/views.h's MHA_VIEWS). */
#define VIEW_KIND_ROW(id, name) [MHA_VIEW_##id] = &view_##name##_kind,
static const struct view_kind *const view_kinds[MHA_VIEW_COUNT] = {MHA_VIEWS(VIEW_KIND_ROW)};
#undef VIEW_KIND_ROW

const struct view_kind *view_kind(enum mha_view v)
{
    if (v <= MHA_VIEW_NONE || v >= MHA_VIEW_COUNT)
        return NULL;
    return view_kinds[v];
}

enum mha_view view_of_corrupt(void)
{
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++)
        if (view_kinds[v]->corrupt)
            return (enum mha_view)v;
    return MHA_VIEW_NONE;
}

const char *mha_view_name(enum mha_view v)
{
    const struct view_kind *k = view_kind(v);
    return k ? k->name : "none";
}

int mha_view_from_name(const char *name)
{
    if (!name)
        return -1;
    if (!strcmp(name, "stage") || !strcmp(name, "none"))
        return MHA_VIEW_NONE;
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++)
        if (view_kind((enum mha_view)v) && !strcmp(name, view_kind((enum mha_view)v)->name))
            return v;
    return -1;
}

const char *mha_view_names(char *buf, size_t n, const char *last_sep)
{
    size_t used = 0;
    if (n == 0)
        return buf;
    buf[0] = '\0';
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT && used < n; v++) {
        const char *sep = v == MHA_VIEW_NONE + 1 ? "" : v == MHA_VIEW_COUNT - 1 ? last_sep : ", ";
        const int w = snprintf(buf + used, n - used, "%s%s", sep, mha_view_name((enum mha_view)v));
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

struct view_desc *view_desc_new(enum mha_view v, const struct view_inputs *in)
{
    const struct view_kind *k = view_kind(v);
    if (!k)
        return NULL;
    struct view_desc *d = calloc(1, sizeof *d);
    if (!d)
        return NULL;
    d->mode = v;
    d->table.bar_col = -1;
    if (!k->make(d, in)) {
        view_desc_free(d);
        return NULL;
    }
    return d;
}

void view_desc_free(struct view_desc *d)
{
    if (!d)
        return;
    for (int i = 0; d->table.cells && i < d->table.rows * d->table.cols; i++)
        free(d->table.cells[i]);
    free(d->table.cells);
    for (int m = 0; m < d->n_matrices; m++) {
        struct view_matrix *x = &d->matrices[m];
        for (int i = 0; x->row_labels && i < x->rows; i++)
            free(x->row_labels[i]);
        for (int j = 0; x->col_labels && j < x->cols; j++)
            free(x->col_labels[j]);
        free(x->row_labels);
        free(x->col_labels);
        free(x->data);
        free(x->masked);
    }
    free(d->matrices);
    free(d->rank);
    free(d);
}

struct view_matrix *view_matrix_add(struct view_desc *d, int rows, int cols, const char *title,
                                    const char *short_t)
{
    if (!d->matrices) {
        d->matrices = calloc(VIEW_MATRIX_MAX, sizeof *d->matrices);
        if (!d->matrices)
            return NULL;
    }
    if (d->n_matrices >= VIEW_MATRIX_MAX || rows < 1 || cols < 1)
        return NULL;
    struct view_matrix *x = &d->matrices[d->n_matrices];
    memset(x, 0, sizeof *x);
    x->data = calloc((size_t)rows * (size_t)cols, sizeof *x->data);
    x->row_labels = calloc((size_t)rows, sizeof *x->row_labels);
    x->col_labels = calloc((size_t)cols, sizeof *x->col_labels);
    bool ok = x->data && x->row_labels && x->col_labels;
    for (int i = 0; ok && i < rows; i++)
        ok = (x->row_labels[i] = strdup("")) != NULL;
    for (int j = 0; ok && j < cols; j++)
        ok = (x->col_labels[j] = strdup("")) != NULL;
    /* counted even when incomplete, so that view_desc_free frees what is there */
    x->rows = rows;
    x->cols = cols;
    d->n_matrices++;
    if (!ok)
        return NULL;
    snprintf(x->title, sizeof x->title, "%s", title);
    snprintf(x->short_t, sizeof x->short_t, "%s", short_t);
    x->range = 1.0f;
    return x;
}

bool view_matrix_label(struct view_matrix *x, bool row, int i, const char *text)
{
    char **labels = row ? x->row_labels : x->col_labels;
    char *s = strdup(text);
    if (!s)
        return false;
    free(labels[i]);
    labels[i] = s;
    return true;
}

long long view_seq_len(const struct view_inputs *in, bool keys)
{
    if (in->seq > 0)
        return in->seq;
    return keys ? in->ex->lk : in->ex->lq;
}

bool view_table_alloc(struct view_table *t, int rows, int cols)
{
    t->cells = calloc((size_t)rows * (size_t)cols, sizeof *t->cells);
    if (!t->cells)
        return false;
    t->rows = rows;
    t->cols = cols;
    t->bar_col = -1;
    return true;
}

static bool set_cell(struct view_table *t, int r, int c, const char *text)
{
    char *s = strdup(text ? text : "");
    if (!s)
        return false;
    free(t->cells[r * t->cols + c]);
    t->cells[r * t->cols + c] = s;
    return true;
}

bool view_table_set_row(struct view_table *t, int r, const char *const *texts)
{
    bool ok = true;
    for (int c = 0; c < t->cols; c++)
        ok = set_cell(t, r, c, texts[c]) && ok;
    return ok;
}

/* ---- as text ------------------------------------------------------------------------------ */

/* text padded with spaces to width columns, on the left when right. */
static void cell(FILE *out, const char *text, int width, bool right)
{
    const int pad = width - utf8_width(text);
    if (right)
        fprintf(out, "%*s", pad > 0 ? pad : 0, "");
    fputs(text, out);
    if (!right)
        fprintf(out, "%*s", pad > 0 ? pad : 0, "");
}

static void write_table(FILE *out, const struct view_desc *d)
{
    const struct view_table *t = &d->table;
    int width[VIEW_TABLE_MAX_COLS] = {0}, total = 0;
    for (int c = 0; c < t->cols && c < VIEW_TABLE_MAX_COLS; c++) {
        for (int r = 0; r < t->rows; r++) {
            const int w = utf8_width(t->cells[r * t->cols + c]);
            width[c] = w > width[c] ? w : width[c];
        }
        total += width[c] + (c ? 2 : 0);
    }
    fprintf(out, "%s\n\n", d->table_title);
    for (int r = 0; r < t->rows; r++) {
        for (int c = 0; c < t->cols && c < VIEW_TABLE_MAX_COLS; c++) {
            fputs(c ? "  " : "", out);
            const bool last = c + 1 == t->cols;
            cell(out, t->cells[r * t->cols + c], last && !t->right[c] ? 0 : width[c], t->right[c]);
        }
        fputc('\n', out);
        for (int i = 0; r == 0 && i < total; i++)
            fputc(i + 1 == total ? '\n' : '-', out);
    }
    if (d->note[0])
        fprintf(out, "\n%s\n", d->note);
}

void view_desc_write_text(FILE *out, const struct view_desc *d)
{
    fprintf(out, "%s view: %s\n\n", d->name, d->line);
    if (d->error[0]) {
        fprintf(out, "%s\n", d->error);
        return;
    }
    for (int m = 0; m < d->n_matrices; m++) {
        const struct view_matrix *x = &d->matrices[m];
        dump_text_matrix(out, x->title, x->data, x->rows, x->cols, x->row_labels, x->col_labels);
        fputc('\n', out);
    }
    if (d->table.rows > 0)
        write_table(out, d);
    else if (d->note[0])
        fprintf(out, "%s\n", d->note);
}

/* ---- as HTML ------------------------------------------------------------------------------ */

static void element(FILE *out, const char *tag, const char *cls, const char *text)
{
    fprintf(out, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    export_xml_text(out, text);
    fprintf(out, "</%s>", tag);
}

static void html_matrix(FILE *out, const struct view_matrix *x)
{
    fputs("<p>", out);
    export_xml_text(out, x->title);
    fputs("</p>\n<table class=\"lt\">\n<thead><tr><th></th>", out);
    for (int j = 0; j < x->cols; j++)
        element(out, "th", NULL, x->col_labels[j]);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (int i = 0; i < x->rows; i++) {
        fputs("<tr>", out);
        element(out, "th", NULL, x->row_labels[i]);
        for (int j = 0; j < x->cols; j++) {
            const float v = x->data[(size_t)i * (size_t)x->cols + (size_t)j];
            if (!x->prob) {
                fprintf(out, "<td class=\"n\">%.3f</td>", (double)v);
                continue;
            }
            /* weights as a heatmap: the sequential scale's fill, its number on it */
            const struct colorscale_rgb c =
                colorscale_seq_fill(colorscale_seq_level(v, COLORSCALE_SEQ_LEVELS));
            char fill[8], text[8];
            fprintf(out, "<td class=\"n\" style=\"background:%s;color:%s\">%.3f</td>",
                    colorscale_hex(c, fill, sizeof fill),
                    colorscale_hex(colorscale_text_on(c), text, sizeof text), (double)v);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table>\n", out);
}

static void html_table(FILE *out, const struct view_desc *d)
{
    const struct view_table *t = &d->table;
    fputs("<p>", out);
    export_xml_text(out, d->table_title);
    fputs("</p>\n<table class=\"lt\">\n", out);
    for (int r = 0; r < t->rows; r++) {
        fputs(r == 0 ? "<thead><tr>" : "<tr>", out);
        for (int c = 0; c < t->cols; c++)
            element(out, r == 0 ? "th" : "td", r > 0 && t->right[c] ? "n" : NULL,
                    t->cells[r * t->cols + c]);
        fputs(r == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", out);
    }
    fputs("</tbody>\n</table>\n", out);
    if (d->note[0]) {
        fputs("<p>", out);
        export_xml_text(out, d->note);
        fputs("</p>\n", out);
    }
}

void view_desc_write_html(FILE *out, const struct view_desc *d)
{
    fputs("<p>", out);
    export_xml_text(out, d->name);
    fputs(" view: ", out);
    export_xml_text(out, d->line);
    fputs(".</p>\n", out);
    if (d->error[0]) {
        fputs("<p class=\"scene-error\">", out);
        export_xml_text(out, d->error);
        fputs("</p>\n", out);
        return;
    }
    for (int m = 0; m < d->n_matrices; m++)
        html_matrix(out, &d->matrices[m]);
    if (d->table.rows > 0)
        html_table(out, d);
    else if (d->note[0]) {
        fputs("<p>", out);
        export_xml_text(out, d->note);
        fputs("</p>\n", out);
    }
}

struct train_model *view_model_file(struct view_desc *vd, const struct view_inputs *in,
                                    const char *none, const char *what)
{
    const bool named = in->model_path && in->model_path[0];
    snprintf(vd->line, sizeof vd->line, "d_model %d, %d heads: %s", in->ex->d_model, in->ex->heads,
             named ? "a model file" : "no model");
    if (!named || !model_io_is_model_file(in->model_path)) {
        if (what)
            snprintf(vd->text, sizeof vd->text, "%s", what);
        snprintf(vd->error, sizeof vd->error, "%s", none);
        return NULL;
    }
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = model_io_load_kept(in->model_path, 1, &err);
    if (!m)
        snprintf(vd->error, sizeof vd->error, "The model cannot be read: %s", err.text);
    return m;
}
