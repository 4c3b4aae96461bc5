/* explain.c - the arithmetic behind one number, written out for a person. */
#include "engine/explain.h"

#include "engine/stages.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* The few symbols the text uses, in UTF-8 and in plain ASCII. */
struct sym {
    const char *times, *dot, *t, *sqrt, *div, *minus, *sum, *inf, *arrow, *ellipsis;
};
static const struct sym sym_utf8 = {"×", "·", "ᵀ", "√", "÷", "−", "Σ", "−∞", "→", "…"};
static const struct sym sym_ascii = {"x", ".", "^T", "sqrt", "/", "-", "sum", "-inf", "->", "..."};

const char *mha_tensor_name(enum mha_tensor x)
{
    return (x >= 0 && x < MHA_TENSOR_COUNT) ? mha_tensor_desc(x)->name : "?";
}

/* The shape follows from the table's kind and rows (stages.h). */
void mha_tensor_shape(const struct mha_trace *t, enum mha_tensor x, int *heads, int *rows,
                      int *cols)
{
    *heads = *rows = *cols = 0;
    if (x < 0 || x >= MHA_TENSOR_COUNT)
        return;
    const struct mha_tensor_desc *d = mha_tensor_desc(x);
    const int side = d->rows == MHA_SIDE_KEY ? t->lk : t->lq;
    switch (d->kind) {
    case MHA_KIND_SEQUENCE:
        *heads = 1, *rows = side, *cols = t->d_model;
        break;
    case MHA_KIND_WEIGHT:
        *heads = 1, *rows = t->d_model, *cols = t->d_model;
        break;
    case MHA_KIND_PER_HEAD:
        *heads = t->heads, *rows = side, *cols = t->d_k;
        break;
    case MHA_KIND_SCORES:
    case MHA_KIND_PROBS:
        *heads = t->heads, *rows = t->lq, *cols = t->lk;
        break;
    }
}

const float *mha_tensor_data(const struct mha_example *ex, const struct mha_trace *t,
                             enum mha_tensor x)
{
    switch (x) {
    case MHA_TENSOR_QUERY:
        return ex->query;
    case MHA_TENSOR_KEY:
        return ex->key;
    case MHA_TENSOR_VALUE:
        return ex->value;
    case MHA_TENSOR_W_Q:
        return ex->w_q;
    case MHA_TENSOR_W_K:
        return ex->w_k;
    case MHA_TENSOR_W_V:
        return ex->w_v;
    case MHA_TENSOR_W_O:
        return ex->w_o;
    case MHA_TENSOR_Q:
        return t->q;
    case MHA_TENSOR_K:
        return t->k;
    case MHA_TENSOR_V:
        return t->v;
    case MHA_TENSOR_QH:
        return t->qh;
    case MHA_TENSOR_KH:
        return t->kh;
    case MHA_TENSOR_VH:
        return t->vh;
    case MHA_TENSOR_SCORES:
        return t->scores;
    case MHA_TENSOR_SCALED:
        return t->scaled_scores;
    case MHA_TENSOR_WEIGHTS:
        return t->weights;
    case MHA_TENSOR_CONTEXT:
        return t->context;
    case MHA_TENSOR_MERGED:
        return t->merged;
    case MHA_TENSOR_OUTPUT:
        return t->output;
    case MHA_TENSOR_COUNT:
        break;
    }
    return NULL;
}

float mha_tensor_range(const struct mha_example *ex, const struct mha_trace *t, enum mha_tensor x)
{
    int h, r, c;
    mha_tensor_shape(t, x, &h, &r, &c);
    const float *p = mha_tensor_data(ex, t, x);
    const size_t n = (size_t)h * (size_t)r * (size_t)c;
    float m = 0.0f;
    for (size_t i = 0; i < n; i++)
        if (isfinite(p[i]) && fabsf(p[i]) > m)
            m = fabsf(p[i]);
    return m;
}

bool mha_cell_valid(const struct mha_trace *t, const struct mha_cell *cell)
{
    int h, r, c;
    if (!cell || cell->tensor < 0 || cell->tensor >= MHA_TENSOR_COUNT)
        return false;
    mha_tensor_shape(t, cell->tensor, &h, &r, &c);
    return cell->head >= 0 && cell->head < h && cell->row >= 0 && cell->row < r && cell->col >= 0 &&
           cell->col < c;
}

float mha_cell_value(const struct mha_example *ex, const struct mha_trace *t,
                     const struct mha_cell *cell)
{
    int h, r, c;
    mha_tensor_shape(t, cell->tensor, &h, &r, &c);
    return mha_tensor_data(ex, t, cell->tensor)[mha_idx3(r, c, cell->head, cell->row, cell->col)];
}

/* ---- writing the text ------------------------------------------------------------------- */

struct writer {
    struct mha_explain *e;
    const struct sym *s;
    size_t len;
    int max_terms;
};

static void put(struct writer *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void put(struct writer *w, const char *fmt, ...)
{
    const size_t cap = sizeof w->e->text;
    if (w->len + 1 >= cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(w->e->text + w->len, cap - w->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if ((size_t)n >= cap - w->len) {
        /* cut: back off to the start of a UTF-8 character */
        size_t end = cap - 1;
        while (end > w->len && ((unsigned char)w->e->text[end] & 0xC0u) == 0x80u)
            end--;
        w->e->text[end] = '\0';
        w->len = end;
        return;
    }
    w->len += (size_t)n;
}

/* A number as the text writes it: 4 decimals, or 4 significant digits when
 * very large or very small. */
static const char *num(char buf[32], const struct sym *s, double v)
{
    if (isinf(v))
        snprintf(buf, 32, "%s%s", v < 0 ? "" : "+", v < 0 ? s->inf : "inf");
    else if (v == 0.0)
        snprintf(buf, 32, "0");
    else if (fabs(v) >= 1e5 || fabs(v) < 1e-3)
        snprintf(buf, 32, "%.4g", v);
    else
        snprintf(buf, 32, "%.4f", v);
    return buf;
}

/* A label short enough for one line, cut only between UTF-8 characters. */
static const char *label(char buf[48], const struct sym *s, const char *text)
{
    size_t n = strlen(text);
    if (n <= 20) {
        snprintf(buf, 48, "%s", text);
        return buf;
    }
    size_t cut = 17;
    while (cut > 0 && ((unsigned char)text[cut] & 0xC0u) == 0x80u)
        cut--;
    snprintf(buf, 48, "%.*s%s", (int)cut, text, s->ellipsis);
    return buf;
}

/* Write the terms a[m·sa] × b[m·sb], m = 0..n-1, one a line (at most
 * max_terms lines; the rest summed in one line) and return their sum.
 * names, when given, label each m with a token. */
static double terms(struct writer *w, const float *a, size_t sa, const float *b, size_t sb, int n,
                    char *const *names)
{
    char x[32], y[32], p[32], lb[48];
    const int show = n <= w->max_terms ? n : w->max_terms - 1;
    double sum = 0.0, rest = 0.0;
    for (int m = 0; m < n; m++) {
        const double prod = (double)a[(size_t)m * sa] * (double)b[(size_t)m * sb];
        sum += prod;
        if (m >= show && m != n - 1) {
            rest += prod;
            if (m == n - 2) {
                const int hidden = n - show - 1;
                put(w, "  %s %d more term%s up to %s\n", w->s->ellipsis, hidden,
                    hidden == 1 ? " adds" : "s add", num(p, w->s, rest));
            }
            continue;
        }
        if (names)
            put(w, "  %3d %-10s %9s %s %-9s = %s\n", m, label(lb, w->s, names[m]),
                num(x, w->s, a[(size_t)m * sa]), w->s->times, num(y, w->s, b[(size_t)m * sb]),
                num(p, w->s, prod));
        else
            put(w, "  m=%-3d %9s %s %-9s = %s\n", m, num(x, w->s, a[(size_t)m * sa]), w->s->times,
                num(y, w->s, b[(size_t)m * sb]), num(p, w->s, prod));
    }
    w->e->n_terms = n;
    return sum;
}

static void finish(struct writer *w)
{
    put(w, "= %.6g\n", (double)w->e->value);
}

/* ---- one function per kind of number ---------------------------------------------------- */

static void explain_input(struct writer *w, const struct mha_example *ex, const struct mha_cell *c,
                          bool generated, bool model)
{
    static const char *const uses[] = {"Q = query", "K = key", "V = value"};
    static const char *const ws[] = {"W_q", "W_k", "W_v"};
    const int k = c->tensor - MHA_TENSOR_QUERY;
    char **names = c->tensor == MHA_TENSOR_QUERY ? ex->tokens : ex->key_tokens;
    char lb[48];
    snprintf(w->e->title, sizeof w->e->title, "%s[%d, %d]: dimension %d of token \"%s\"",
             mha_tensor_name(c->tensor), c->row, c->col, c->col, label(lb, w->s, names[c->row]));
    put(w, "An input number: nothing computes it.\n");
    if (generated)
        put(w, "It was drawn from the mulberry32 generator seeded with %u, uniform in [-2, 2).\n",
            (unsigned)ex->seed);
    else if (model)
        put(w,
            "The model learned it: dimension %d of its embedding of \"%s\" plus dimension %d of "
            "its embedding of position %d, both trained.\n",
            c->col, label(lb, w->s, names[c->row]), c->col, c->row);
    else
        put(w, "The example file gives it.\n");
    put(w, "It feeds %s %s %s%s: every column of row %d reads it.\n", uses[k], w->s->dot, ws[k],
        w->s->t, c->row);
    w->e->total = w->e->value;
}

static void explain_weight(struct writer *w, const struct mha_example *ex, const struct mha_cell *c,
                           bool generated, bool model)
{
    static const char *const out[] = {"Q", "K", "V", "output"};
    static const char *const in[] = {"query", "key", "value", "merged"};
    const int k = c->tensor - MHA_TENSOR_W_Q;
    const char *name = mha_tensor_name(c->tensor);
    snprintf(w->e->title, sizeof w->e->title, "%s[%d, %d]: a learned weight", name, c->row, c->col);
    put(w, "Row %d of %s makes column %d of %s; column %d reads dimension %d of %s:\n", c->row,
        name, c->row, out[k], c->col, c->col, in[k]);
    put(w, "  %s[i, %d] = %s_m %s[i, m] %s %s[%d, m] and this weight is the term m = %d.\n", out[k],
        c->row, w->s->sum, in[k], w->s->times, name, c->row, c->col);
    if (generated)
        put(w, "Drawn from seed %u, uniform in [-1, 1); training would learn it.\n",
            (unsigned)ex->seed);
    else if (model)
        put(w, "Training learned it; the model file keeps it.\n");
    else
        put(w, "The example file gives it; training would learn it.\n");
    w->e->total = w->e->value;
}

/* The bias added after weight w (one of W_q, W_k, W_v, W_o). */
static const float *bias_of(const struct mha_example *ex, enum mha_tensor w)
{
    return w == MHA_TENSOR_W_Q   ? ex->b_q
           : w == MHA_TENSOR_W_K ? ex->b_k
           : w == MHA_TENSOR_W_V ? ex->b_v
                                 : ex->b_o;
}

/* Q, K, V from the inputs, and the output from merged: a row · a column + bias,
 * the factors named by the table (stages.h: from and weight). */
static void explain_linear(struct writer *w, const struct mha_example *ex,
                           const struct mha_trace *t, const struct mha_cell *c)
{
    const int d = t->d_model, i = c->row, j = c->col;
    const struct mha_tensor_desc *desc = mha_tensor_desc(c->tensor);
    const float *x = mha_tensor_data(ex, t, desc->from), *wm = mha_tensor_data(ex, t, desc->weight);
    const float *b = bias_of(ex, desc->weight);
    const char *xn = mha_tensor_name(desc->from), *wn = mha_tensor_name(desc->weight);
    char bn[8];
    snprintf(bn, sizeof bn, "b_%s", wn + 2);
    char **names = desc->rows == MHA_SIDE_KEY ? ex->key_tokens : ex->tokens;
    char lb[48], s1[32], s2[32];
    const char *name = mha_tensor_name(c->tensor);
    snprintf(w->e->title, sizeof w->e->title, "%s[%d, %d] = row %d of %s %s column %d of %s%s",
             name, i, j, i, xn, w->s->dot, j, wn, w->s->t);
    put(w, "Token \"%s\": row %d of %s times column %d of %s%s (= row %d of %s), term by term:\n",
        label(lb, w->s, names[i]), i, xn, j, wn, w->s->t, j, wn);
    put(w, "  %s[%d, m] %s %s[%d, m]\n", xn, i, w->s->times, wn, j);
    double sum = terms(w, x + (size_t)i * (size_t)d, 1, wm + (size_t)j * (size_t)d, 1, d, NULL);
    put(w, "  sum of %d terms = %s\n", d, num(s1, w->s, sum));
    if (ex->has_bias) {
        sum += (double)b[j];
        put(w, "  + %s[%d] = %s, giving %s\n", bn, j, num(s1, w->s, b[j]), num(s2, w->s, sum));
    }
    w->e->total = sum;
}

static void explain_head(struct writer *w, const struct mha_trace *t, const struct mha_cell *c)
{
    const int h = c->head, dk = t->d_k;
    const int col = h * dk + c->col;
    const char *src = "?"; /* the (L, d) tensor the table splits into this one */
    for (int x = 0; x < MHA_TENSOR_COUNT; x++)
        if (mha_tensor_desc((enum mha_tensor)x)->heads == c->tensor)
            src = mha_tensor_name((enum mha_tensor)x);
    snprintf(w->e->title, sizeof w->e->title, "%s[head %d][%d, %d] = %s[%d, %d]",
             mha_tensor_name(c->tensor), h, c->row, c->col, src, c->row, col);
    put(w,
        "Head %d owns columns %d..%d of %s: d_k = d_model / heads = %d / %d = %d columns each.\n",
        h, h * dk, h * dk + dk - 1, src, t->d_model, t->heads, dk);
    put(w,
        "Split reads row %d of %s as (H, d_k) = (%d, %d): this number is [%d][%d][%d] of "
        "(L, H, d_k).\n",
        c->row, src, t->heads, dk, c->row, h, c->col);
    put(w,
        "Transpose moves it to [%d][%d][%d] of (H, L, d_k), so each head works alone. "
        "Nothing is computed: the number is copied.\n",
        h, c->row, c->col);
    w->e->total = w->e->value;
}

static void explain_score(struct writer *w, const struct mha_example *ex, const struct mha_trace *t,
                          const struct mha_cell *c)
{
    const int h = c->head, i = c->row, j = c->col, dk = t->d_k;
    char la[48], lb[48], s1[32];
    snprintf(w->e->title, sizeof w->e->title, "scores[head %d][%d, %d] = q_%d %s k_%d", h, i, j, i,
             w->s->dot, j);
    put(w, "How well query \"%s\" matches key \"%s\" in head %d:\n", label(la, w->s, ex->tokens[i]),
        label(lb, w->s, ex->key_tokens[j]), h);
    put(w, "  Q_h[%d][%d, m] %s K_h[%d][%d, m]\n", h, i, w->s->times, h, j);
    double sum = terms(w, t->qh + mha_idx3(t->lq, dk, h, i, 0), 1,
                       t->kh + mha_idx3(t->lk, dk, h, j, 0), 1, dk, NULL);
    put(w, "  sum of %d terms = %s\n", dk, num(s1, w->s, sum));
    put(w, "Scaling and the mask come next (the scaled matrix).\n");
    w->e->total = sum;
}

static void explain_scaled(struct writer *w, const struct mha_example *ex,
                           const struct mha_trace *t, const struct mha_cell *c)
{
    const int h = c->head, i = c->row, j = c->col;
    const float s = t->scores[mha_idx3(t->lq, t->lk, h, i, j)];
    char a[32], b[32], r[32], la[48], lb[48];
    snprintf(w->e->title, sizeof w->e->title, "scaled[head %d][%d, %d]", h, i, j);
    if (mha_is_masked(ex, i, j)) {
        w->e->masked = true;
        if (ex->causal && j > i)
            put(w,
                "Masked: key %d \"%s\" comes after query %d \"%s\", and the causal mask "
                "lets a token see only itself and earlier tokens.\n",
                j, label(lb, w->s, ex->key_tokens[j]), i, label(la, w->s, ex->tokens[i]));
        else
            put(w, "Masked: the example's mask hides key %d from query %d.\n", j, i);
        put(w, "A masked score becomes %s, so exp(%s) = 0 gives it weight exactly 0.\n", w->s->inf,
            w->s->inf);
        w->e->total = -INFINITY;
        return;
    }
    const double scaled = (double)s * (double)t->scale;
    if (t->scaled) {
        put(w, "score %s %sd_k = %s %s %s%d = %s %s %.5f = %s\n", w->s->div, w->s->sqrt,
            num(a, w->s, s), w->s->div, w->s->sqrt, t->d_k, num(b, w->s, s), w->s->times,
            (double)t->scale, num(r, w->s, scaled));
        put(w,
            "Dividing by %sd_k keeps the scores' spread near 1 whatever d_k is, so softmax "
            "does not collapse onto one key.\n",
            w->s->sqrt);
    } else {
        put(w, "Scaling is off: the score %s is used as it is.\n", num(a, w->s, s));
        put(w, "With it on it would be %s %s %s%d = %s.\n", a, w->s->div, w->s->sqrt, t->d_k,
            num(b, w->s, (double)s / sqrt((double)t->d_k)));
    }
    w->e->total = scaled;
}

static void explain_weight_cell(struct writer *w, const struct mha_example *ex,
                                const struct mha_trace *t, const struct mha_cell *c)
{
    const int h = c->head, i = c->row, j = c->col, lk = t->lk;
    const float *row = t->scaled_scores + mha_idx3(t->lq, lk, h, i, 0);
    char a[32], b[32], e[32], lb[48];
    snprintf(w->e->title, sizeof w->e->title, "weights[head %d][%d, %d] = softmax of row %d", h, i,
             j, i);
    w->e->n_terms = lk;
    if (t->row_empty[i]) {
        put(w,
            "Every key is masked for query %d: there is nothing to share out, and the row "
            "stays all 0.\n",
            i);
        w->e->masked = true;
        w->e->total = 0.0;
        return;
    }
    double max = -INFINITY;
    for (int k = 0; k < lk; k++)
        if (row[k] > max)
            max = row[k];
    put(w, "weight = exp(s_%d %s max) / %s_k exp(s_k %s max), over row %d\n", j, w->s->minus,
        w->s->sum, w->s->minus, i);
    put(w, "  max of the row = %s\n", num(a, w->s, max));
    double total = 0.0, mine = 0.0, rest = 0.0;
    int hidden = 0;
    const int show = lk <= w->max_terms ? lk : w->max_terms - 1;
    for (int k = 0; k < lk; k++) {
        const double ek = isinf(row[k]) ? 0.0 : exp((double)row[k] - max);
        total += ek;
        if (k == j)
            mine = ek;
        if (k >= show && k != lk - 1 && k != j) {
            rest += ek;
            hidden++;
            continue;
        }
        if (isinf(row[k]))
            put(w, "  %3d %-10s masked %s 0\n", k, label(lb, w->s, ex->key_tokens[k]), w->s->arrow);
        else
            put(w, "  %3d %-10s exp(%s %s %s) = %s%s\n", k, label(lb, w->s, ex->key_tokens[k]),
                num(a, w->s, row[k]), w->s->minus, num(b, w->s, max), num(e, w->s, ek),
                k == j ? "  <" : "");
    }
    if (hidden > 0)
        put(w, "  %s %d other key%s %s\n", w->s->ellipsis, hidden, hidden == 1 ? " adds" : "s add",
            num(e, w->s, rest));
    put(w, "  %s = %s\n", w->s->sum, num(a, w->s, total));
    if (isinf(row[j])) {
        w->e->masked = true;
        put(w, "Key %d is masked: its weight is exactly 0.\n", j);
        w->e->total = 0.0;
        return;
    }
    put(w, "  %s / %s\n", num(a, w->s, mine), num(b, w->s, total));
    w->e->total = mine / total;
}

static void explain_context(struct writer *w, const struct mha_example *ex,
                            const struct mha_trace *t, const struct mha_cell *c)
{
    const int h = c->head, i = c->row, m = c->col, lk = t->lk, dk = t->d_k;
    char s1[32], la[48];
    snprintf(w->e->title, sizeof w->e->title, "context[head %d][%d, %d] = %s_j weight %s V_h", h, i,
             m, w->s->sum, w->s->times);
    put(w, "Query \"%s\" blends column %d of V_h over the keys, each value times its weight:\n",
        label(la, w->s, ex->tokens[i]), m);
    put(w, "  key        weights[%d][%d, j] %s V_h[%d][j, %d]\n", h, i, w->s->times, h, m);
    double sum = terms(w, t->weights + mha_idx3(t->lq, lk, h, i, 0), 1,
                       t->vh + mha_idx3(lk, dk, h, 0, m), (size_t)dk, lk, ex->key_tokens);
    put(w, "  sum over %d keys = %s\n", lk, num(s1, w->s, sum));
    w->e->total = sum;
}

static void explain_merged(struct writer *w, const struct mha_trace *t, const struct mha_cell *c)
{
    const int dk = t->d_k, h = c->col / dk, m = c->col % dk;
    snprintf(w->e->title, sizeof w->e->title, "merged[%d, %d] = context[head %d][%d, %d]", c->row,
             c->col, h, c->row, m);
    put(w,
        "Column %d comes from head %d, its column %d: head %d fills columns %d..%d of "
        "merged.\n",
        c->col, h, m, h, h * dk, h * dk + dk - 1);
    put(w,
        "Merge sets the heads side by side again, (H, L, d_k) %s (L, H%sd_k) = (%d, %d). "
        "Copied, not computed.\n",
        w->s->arrow, w->s->dot, t->lq, t->d_model);
    w->e->total = w->e->value;
}

int mha_explain_cell(const struct mha_example *ex, const struct mha_trace *t,
                     const struct mha_cell *cell, const struct mha_explain_options *opt,
                     struct mha_explain *out, struct mha_error *err)
{
    if (ex->lq != t->lq || ex->lk != t->lk || ex->d_model != t->d_model || ex->heads != t->heads)
        return mha_error_set(err, "the trace was made for other sizes than the example");
    if (!mha_cell_valid(t, cell))
        return mha_error_set(err, "no such cell");
    struct mha_explain_options o = {.max_terms = 12};
    if (opt)
        o = *opt;
    if (o.max_terms < 3)
        o.max_terms = 12;
    memset(out, 0, sizeof *out);
    struct writer w = {out, o.ascii ? &sym_ascii : &sym_utf8, 0, o.max_terms};
    out->value = mha_cell_value(ex, t, cell);

    switch (cell->tensor) {
    case MHA_TENSOR_QUERY:
    case MHA_TENSOR_KEY:
    case MHA_TENSOR_VALUE:
        explain_input(&w, ex, cell, o.generated, o.model);
        break;
    case MHA_TENSOR_W_Q:
    case MHA_TENSOR_W_K:
    case MHA_TENSOR_W_V:
    case MHA_TENSOR_W_O:
        explain_weight(&w, ex, cell, o.generated, o.model);
        break;
    case MHA_TENSOR_Q:
    case MHA_TENSOR_K:
    case MHA_TENSOR_V:
    case MHA_TENSOR_OUTPUT:
        explain_linear(&w, ex, t, cell);
        break;
    case MHA_TENSOR_QH:
    case MHA_TENSOR_KH:
    case MHA_TENSOR_VH:
        explain_head(&w, t, cell);
        break;
    case MHA_TENSOR_SCORES:
        explain_score(&w, ex, t, cell);
        break;
    case MHA_TENSOR_SCALED:
        explain_scaled(&w, ex, t, cell);
        break;
    case MHA_TENSOR_WEIGHTS:
        explain_weight_cell(&w, ex, t, cell);
        break;
    case MHA_TENSOR_CONTEXT:
        explain_context(&w, ex, t, cell);
        break;
    case MHA_TENSOR_MERGED:
        explain_merged(&w, t, cell);
        break;
    case MHA_TENSOR_COUNT:
        return mha_error_set(err, "no such tensor");
    }
    finish(&w);
    return 0;
}
