/* view_desc.c - the views' registry, their descriptions made and freed, and
 * a description written as text and as HTML (view_desc.h). */
#include "io/view_desc.h"

#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "io/export.h"
#include "io/utf8.h"

/* The views' own make functions, one file each. */
bool view_shapes_make(struct view_desc *d, const struct view_inputs *in);
bool view_cost_make(struct view_desc *d, const struct view_inputs *in);
bool view_heads_make(struct view_desc *d, const struct view_inputs *in);

static const struct view_kind view_kinds[MHA_VIEW_COUNT] = {
    [MHA_VIEW_SHAPES] = {MHA_VIEW_SHAPES, "shapes", view_shapes_make,
                         "Shapes view: the tensor shapes through view, transpose, contiguous "
                         "and merge.",
                         "txt", true},
    [MHA_VIEW_COST] = {MHA_VIEW_COST, "cost", view_cost_make,
                       "Cost view: parameters and multiply-adds, one head against %d heads.", "txt",
                       true},
    [MHA_VIEW_HEADS] = {MHA_VIEW_HEADS, "heads", view_heads_make,
                        "Heads view: how the heads' score forms differ, and the effective rank "
                        "of each.",
                        "txt", false},
};

const struct view_kind *view_kind(enum mha_view v)
{
    if (v <= MHA_VIEW_NONE || v >= MHA_VIEW_COUNT || !view_kinds[v].make)
        return NULL;
    return &view_kinds[v];
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
    for (int i = 0; i < d->heads; i++) {
        if (d->row_labels)
            free(d->row_labels[i]);
        if (d->col_labels)
            free(d->col_labels[i]);
    }
    free(d->row_labels);
    free(d->col_labels);
    free(d->similarity);
    free(d->rank);
    free(d);
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
    if (d->similarity) {
        dump_text_matrix(out, d->matrix_title, d->similarity, d->heads, d->heads, d->row_labels,
                         d->col_labels);
        fputc('\n', out);
    }
    write_table(out, d);
}

/* ---- as HTML ------------------------------------------------------------------------------ */

static void element(FILE *out, const char *tag, const char *cls, const char *text)
{
    fprintf(out, "<%s%s%s%s>", tag, cls ? " class=\"" : "", cls ? cls : "", cls ? "\"" : "");
    export_xml_text(out, text);
    fprintf(out, "</%s>", tag);
}

static void html_matrix(FILE *out, const struct view_desc *d)
{
    fputs("<p>", out);
    export_xml_text(out, d->matrix_title);
    fputs("</p>\n<table class=\"lt\">\n<thead><tr><th></th>", out);
    for (int j = 0; j < d->heads; j++)
        element(out, "th", NULL, d->col_labels[j]);
    fputs("</tr></thead>\n<tbody>\n", out);
    for (int i = 0; i < d->heads; i++) {
        fputs("<tr>", out);
        element(out, "th", NULL, d->row_labels[i]);
        for (int j = 0; j < d->heads; j++)
            fprintf(out, "<td class=\"n\">%.3f</td>",
                    (double)d->similarity[(size_t)i * (size_t)d->heads + (size_t)j]);
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
    if (d->similarity)
        html_matrix(out, d);
    html_table(out, d);
}
