/* export_table.c - the matrices each stage exports, the choice of format,
 * and the table formats: markdown, csv and latex. */
#include "io/export.h"
#include "io/num_text.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"

/* ---- formats ---------------------------------------------------------------- */

/* ---- the matrices of a stage -------------------------------------------------- */

struct builder {
    const struct mha_example *ex;
    const struct mha_trace *t;
    int stage;
    struct export_matrix *m;
    int n;
};

/* Add head h of tensor x with its own shape and axes. */
static struct export_matrix *add(struct builder *b, enum mha_tensor x, int h, bool new_row,
                                 enum export_axis rows, enum export_axis cols, const char *title)
{
    struct export_matrix *m = &b->m[b->n++];
    int heads, r, c;
    mha_tensor_shape(b->t, x, &heads, &r, &c);
    memset(m, 0, sizeof *m);
    m->stage = b->stage;
    snprintf(m->title, sizeof m->title, "%s", title);
    snprintf(m->shape, sizeof m->shape, "%d × %d", r, c);
    m->data = mha_tensor_data(b->ex, b->t, x) + mha_idx3(r, c, h, 0, 0);
    m->rows = r;
    m->cols = c;
    m->row_axis = rows;
    m->col_axis = cols;
    m->tint = EXPORT_TINT_SIGNED;
    m->range = mha_tensor_range(b->ex, b->t, x);
    m->new_row = new_row;
    m->tensor = x;
    m->head = h;
    return m;
}

static void add_bias(struct builder *b, const char *name, const float *v)
{
    struct export_matrix *m = &b->m[b->n++];
    memset(m, 0, sizeof *m);
    m->stage = b->stage;
    snprintf(m->title, sizeof m->title, "%s", name);
    snprintf(m->shape, sizeof m->shape, "1 × %d", b->t->d_model);
    m->data = v;
    m->rows = 1;
    m->cols = b->t->d_model;
    m->row_axis = EXPORT_AXIS_NONE;
    m->col_axis = EXPORT_AXIS_DIM;
    m->tint = EXPORT_TINT_SIGNED;
    for (int i = 0; i < m->cols; i++)
        m->range = fabsf(v[i]) > m->range ? fabsf(v[i]) : m->range;
    m->new_row = name[2] == 'q';
    m->tensor = MHA_TENSOR_COUNT;
}

/* The axis of a tensor's rows or columns. */
static enum export_axis axis_of(enum mha_side side, const struct mha_tensor_desc *d, bool rows)
{
    if (side == MHA_SIDE_QUERY)
        return EXPORT_AXIS_QUERY;
    if (side == MHA_SIDE_KEY)
        return EXPORT_AXIS_KEY;
    if (d->kind == MHA_KIND_WEIGHT)
        return rows ? EXPORT_AXIS_OUT : EXPORT_AXIS_IN;
    return EXPORT_AXIS_DIM;
}

/* Head h of the stage's i-th tensor, in the form the stage shows it. */
static void add_shown(struct builder *b, const struct mha_stage_info *info, int i, int h,
                      bool new_row)
{
    const struct mha_trace *t = b->t;
    const enum mha_tensor x = info->tensors[i];
    const struct mha_stage_show *show = &info->show[i];
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    int heads, r, c;
    mha_tensor_shape(t, x, &heads, &r, &c);
    char title[96];
    const struct mha_title_ctx ctx = mha_title_ctx_make(b->ex, t, h, r, true);
    mha_title_expand(title, sizeof title, show->export_title, &ctx);
    struct export_matrix *m =
        add(b, x, h, new_row, axis_of(d->rows, d, true), axis_of(d->cols, d, false), title);
    if (show->form == MHA_FORM_SPLIT || show->form == MHA_FORM_HEAD_COLS) {
        m->col_axis = EXPORT_AXIS_HEAD;
        m->head_cols = t->d_k;
    }
    if (show->form == MHA_FORM_SPLIT)
        snprintf(m->shape, sizeof m->shape, "%d × %d × %d", m->rows, t->heads, t->d_k);
    if (d->kind == MHA_KIND_PROBS) {
        m->tint = EXPORT_TINT_PROB;
        m->range = 1.0f;
        if (d->mask_of != MHA_TENSOR_COUNT)
            m->masked_by = mha_tensor_data(b->ex, t, d->mask_of) + mha_idx3(t->lq, t->lk, h, 0, 0);
    }
}

static void add_one(void *arg, int i, int h, bool new_row)
{
    struct builder *b = arg;
    add_shown(b, mha_stage_info((enum mha_stage)b->stage), i, h, new_row);
}

/* The stage's tensors in its order, then the example's biases where the
 * stage shows them. */
static void build_stage(struct builder *b)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)b->stage);
    mha_stage_walk(info, info->export_order, b->t->heads, MHA_SHOW_EXPORT, add_one, b);
    if (info->with_params && b->ex->has_bias) {
        add_bias(b, "b_q", b->ex->b_q);
        add_bias(b, "b_k", b->ex->b_k);
        add_bias(b, "b_v", b->ex->b_v);
        add_bias(b, "b_o", b->ex->b_o);
    }
}

/* Room for every matrix of a stage: a per-head tensor's heads, the biases. */
static int stage_room(const struct mha_stage_info *info, int heads)
{
    int n = 4;
    for (int i = 0; i < info->n_tensors; i++)
        n += info->show[i].form == MHA_FORM_HEADS ? heads : 1;
    return n;
}

struct export_matrix *export_stage_matrices(const struct mha_example *ex, const struct mha_trace *t,
                                            int stage, int *n)
{
    *n = 0;
    if (stage < 0 || stage >= MHA_STAGE_COUNT)
        return NULL;
    const int room = stage_room(mha_stage_info((enum mha_stage)stage), t->heads);
    struct builder b = {ex, t, stage, calloc((size_t)room, sizeof *b.m), 0};
    if (!b.m)
        return NULL;
    build_stage(&b);
    *n = b.n;
    return b.m;
}

size_t export_cell_count(const struct mha_example *ex, const struct mha_trace *t, int stage)
{
    size_t total = 0;
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        if (stage != DUMP_ALL && stage != s)
            continue;
        int n;
        struct export_matrix *m = export_stage_matrices(ex, t, s, &n);
        for (int i = 0; i < n; i++)
            total += (size_t)m[i].rows * (size_t)m[i].cols;
        free(m);
    }
    return total;
}

static const char *axis_label(enum export_axis a, const struct export_matrix *m,
                              const struct mha_example *ex, int i, char *buf, size_t n)
{
    switch (a) {
    case EXPORT_AXIS_QUERY:
        return ex->tokens[i];
    case EXPORT_AXIS_KEY:
        return ex->key_tokens[i];
    case EXPORT_AXIS_DIM:
        snprintf(buf, n, "d%d", i);
        break;
    case EXPORT_AXIS_HEAD:
        snprintf(buf, n, "h%d.%d", i / m->head_cols, i % m->head_cols);
        break;
    case EXPORT_AXIS_OUT:
        snprintf(buf, n, "out %d", i);
        break;
    case EXPORT_AXIS_IN:
        snprintf(buf, n, "in %d", i);
        break;
    case EXPORT_AXIS_NONE:
        snprintf(buf, n, "%s", m->title);
        break;
    }
    return buf;
}

const char *export_row_label(const struct export_matrix *m, const struct mha_example *ex, int i,
                             char *buf, size_t n)
{
    return axis_label(m->row_axis, m, ex, i, buf, n);
}

const char *export_col_label(const struct export_matrix *m, const struct mha_example *ex, int j,
                             char *buf, size_t n)
{
    return axis_label(m->col_axis, m, ex, j, buf, n);
}

bool export_cell_masked(const struct export_matrix *m, int i, int j)
{
    size_t at = (size_t)i * (size_t)m->cols + (size_t)j;
    return m->data[at] == -INFINITY || (m->masked_by && m->masked_by[at] == -INFINITY);
}

void export_number(char *buf, size_t n, float x, const char *inf_text)
{
    char text[NUM_TEXT_MAX];
    num_cell(text, x, inf_text);
    snprintf(buf, n, "%s", text);
}

/* ---- what each stage is ---------------------------------------------------------- */

const char *export_stage_title(int stage)
{
    return stage >= 0 && stage < MHA_STAGE_COUNT ? mha_stage_info(stage)->heading : "";
}

const char *export_stage_formula(int stage)
{
    return stage >= 0 && stage < MHA_STAGE_COUNT ? mha_stage_info(stage)->formula : "";
}

const char *export_stage_sentence(int stage)
{
    return stage >= 0 && stage < MHA_STAGE_COUNT ? mha_stage_info(stage)->sentence : "";
}

void export_summary(char *buf, size_t n, const struct mha_example *ex, const struct mha_trace *t)
{
    char keys[48] = "";
    if (ex->cross)
        snprintf(keys, sizeof keys, " attending to %d keys", t->lk);
    const char *mask = ex->causal ? (ex->has_mask ? "causal + explicit" : "causal")
                                  : (ex->has_mask ? "explicit" : "none");
    char scale[32];
    if (t->scaled)
        snprintf(scale, sizeof scale, "scaled by 1/√%d", t->d_k);
    else
        snprintf(scale, sizeof scale, "scaling off");
    char layer[48];
    export_layer_words(layer, sizeof layer, ex);
    snprintf(buf, n, "%d %s%s · d_model %d · %d %s · d_k %d · mask %s · %s%s%s", t->lq,
             t->lq == 1 ? "token" : "tokens", keys, t->d_model, t->heads,
             t->heads == 1 ? "head" : "heads", t->d_k, mask, scale, layer[0] ? " · " : "", layer);
}

const char *export_layer_words(char *buf, size_t n, const struct mha_example *ex)
{
    if (ex->layers > 1)
        snprintf(buf, n, "layer %d of 0–%d", ex->layer, ex->layers - 1);
    else if (n)
        buf[0] = '\0';
    return buf;
}

/* ---- the dispatcher ------------------------------------------------------------ */

int export_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
                 enum mha_format fmt, struct mha_error *err)
{
    if (fmt < 0 || fmt >= MHA_FORMAT_EXPORTS) {
        char list[96];
        return mha_error_set(
            err, "unknown export format; expected one of %s",
            mha_format_list(MHA_FORMAT_PICTURE | MHA_FORMAT_TABLE, ", ", list, sizeof list));
    }
    return mha_format_write(out, ex, t, stage, (int)fmt, err);
}

/* Call fn for every matrix of the stage (or of all stages) in order. */
typedef void (*matrix_fn)(FILE *out, const struct mha_example *ex, const struct export_matrix *m,
                          bool first_of_stage);

static int each_matrix(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                       int stage, matrix_fn fn)
{
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        if (stage != DUMP_ALL && stage != s)
            continue;
        int n;
        struct export_matrix *m = export_stage_matrices(ex, t, s, &n);
        if (!m)
            return -1;
        for (int i = 0; i < n; i++)
            fn(out, ex, &m[i], i == 0);
        free(m);
    }
    return ferror(out) ? -1 : 0;
}

/* ---- markdown ------------------------------------------------------------------ */

/* Text for markdown: characters that would start emphasis, code, links, HTML
 * or a table cell are backslash-escaped; line breaks become spaces. */
static void md_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\n' || *s == '\r')
            fputc(' ', out);
        else {
            if (strchr("\\`*_[]<>|&~$#", *s))
                fputc('\\', out);
            fputc(*s, out);
        }
    }
}

static void md_matrix(FILE *out, const struct mha_example *ex, const struct export_matrix *m,
                      bool first)
{
    char buf[64];
    if (first) {
        char layer[48];
        export_layer_words(layer, sizeof layer, ex);
        fprintf(out, "### Stage %d · %s%s%s\n\n", m->stage,
                mha_stage_name((enum mha_stage)m->stage), layer[0] ? " · " : "", layer);
        fputc('`', out);
        fputs(export_stage_formula(m->stage), out);
        fputs("`\n\n", out);
    }
    fputs("**", out);
    md_text(out, m->title);
    fprintf(out, "** (%s)\n\n|  |", m->shape);
    for (int j = 0; j < m->cols; j++) {
        fputc(' ', out);
        md_text(out, export_col_label(m, ex, j, buf, sizeof buf));
        fputs(" |", out);
    }
    fputs("\n|---|", out);
    for (int j = 0; j < m->cols; j++)
        fputs("---:|", out);
    fputc('\n', out);
    for (int i = 0; i < m->rows; i++) {
        fputs("| ", out);
        md_text(out, export_row_label(m, ex, i, buf, sizeof buf));
        fputs(" |", out);
        for (int j = 0; j < m->cols; j++) {
            export_number(buf, sizeof buf, m->data[(size_t)i * (size_t)m->cols + (size_t)j],
                          "-inf");
            fprintf(out, " %s |", buf);
        }
        fputc('\n', out);
    }
    fputc('\n', out);
}

int export_markdown_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                          int stage)
{
    return each_matrix(out, ex, t, stage, md_matrix);
}

/* ---- csv ------------------------------------------------------------------------ */

/* One field, quoted (quotes doubled) when it holds a comma, quote, CR or LF.
 * A label a spreadsheet would take for a formula (it starts with =, +, -,
 * @, tab or CR) is written as text: quoted, with a leading '. */
static void csv_field(FILE *out, const char *s)
{
    const bool formula = s[0] && strchr("=+-@\t\r", s[0]);
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    if (formula)
        fputc('\'', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void csv_matrix(FILE *out, const struct mha_example *ex, const struct export_matrix *m,
                       bool first)
{
    (void)first;
    char buf[64];
    char layer[48];
    export_layer_words(layer, sizeof layer, ex);
    fprintf(out, "# %s: %s (%d x %d)%s%s\r\n", mha_stage_name((enum mha_stage)m->stage), m->title,
            m->rows, m->cols, layer[0] ? " · " : "", layer);
    for (int j = 0; j < m->cols; j++) {
        fputc(',', out);
        csv_field(out, export_col_label(m, ex, j, buf, sizeof buf));
    }
    fputs("\r\n", out);
    for (int i = 0; i < m->rows; i++) {
        csv_field(out, export_row_label(m, ex, i, buf, sizeof buf));
        for (int j = 0; j < m->cols; j++) {
            export_number(buf, sizeof buf, m->data[(size_t)i * (size_t)m->cols + (size_t)j],
                          "-inf");
            fprintf(out, ",%s", buf);
        }
        fputs("\r\n", out);
    }
    fputs("\r\n", out);
}

int export_csv_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage)
{
    return each_matrix(out, ex, t, stage, csv_matrix);
}

/* ---- latex ---------------------------------------------------------------------- */

/* Text for LaTeX: the special characters escaped, the few symbols the titles
 * use written as math, other UTF-8 passed on (inputenc reads it). */
static void tex_text(FILE *out, const char *s)
{
    static const struct {
        const char *from, *to;
    } sym[] = {
        {"·", "$\\cdot$"},
        {"ᵀ", "$^{\\top}$"},
        {"√", "$\\surd$"},
        {"÷", "$\\div$"},
        {"×", "$\\times$"},
        {"→", "$\\to$"},
        {"−", "$-$"},
        {"∞", "$\\infty$"},
        {"\\", "\\textbackslash{}"},
        {"~", "\\textasciitilde{}"},
        {"^", "\\textasciicircum{}"},
        {"<", "\\textless{}"},
        {">", "\\textgreater{}"},
        {"\n", " "},
        {"\r", " "},
    };
    while (*s) {
        size_t k = 0;
        for (; k < sizeof sym / sizeof sym[0]; k++)
            if (strncmp(s, sym[k].from, strlen(sym[k].from)) == 0)
                break;
        if (k < sizeof sym / sizeof sym[0]) {
            fputs(sym[k].to, out);
            s += strlen(sym[k].from);
            continue;
        }
        if (strchr("&%$#_{}", *s))
            fputc('\\', out);
        fputc(*s++, out);
    }
}

static void tex_matrix(FILE *out, const struct mha_example *ex, const struct export_matrix *m,
                       bool first)
{
    char buf[64];
    if (first) {
        char layer[48];
        export_layer_words(layer, sizeof layer, ex);
        fprintf(out, "%% ---- stage %d: %s%s%s ----\n\n", m->stage,
                mha_stage_name((enum mha_stage)m->stage), layer[0] ? ", " : "", layer);
    }
    fprintf(out, "%% %s (%d x %d)\n\\begin{center}\n\\textbf{", m->title, m->rows, m->cols);
    tex_text(out, m->title);
    fprintf(out, "} \\quad ($%d \\times %d$)\\\\[4pt]\n\\begin{tabular}{l|", m->rows, m->cols);
    for (int j = 0; j < m->cols; j++)
        fputs(m->head_cols > 0 && j > 0 && j % m->head_cols == 0 ? "|r" : "r", out);
    fputs("}\n", out);
    for (int j = 0; j < m->cols; j++) {
        fputs(" & ", out);
        tex_text(out, export_col_label(m, ex, j, buf, sizeof buf));
    }
    fputs(" \\\\\n\\hline\n", out);
    for (int i = 0; i < m->rows; i++) {
        tex_text(out, export_row_label(m, ex, i, buf, sizeof buf));
        for (int j = 0; j < m->cols; j++) {
            float v = m->data[(size_t)i * (size_t)m->cols + (size_t)j];
            export_number(buf, sizeof buf, v, "$-\\infty$");
            fprintf(out, " & %s%s", buf[0] == '-' ? "$-$" : "", buf[0] == '-' ? buf + 1 : buf);
        }
        fputs(" \\\\\n", out);
    }
    fputs("\\end{tabular}\n\\end{center}\n\n", out);
}

int export_latex_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                       int stage)
{
    return each_matrix(out, ex, t, stage, tex_matrix);
}
