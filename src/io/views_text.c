/* views_text.c - the shapes, cost and heads views as text tables. */
#include <stdio.h>
#include <stdlib.h>

#include "io/dump.h"
#include "io/utf8.h"
#include "engine/views.h"

static void pad(FILE *out, const char *s, int width)
{
    fputs(s, out);
    for (int w = utf8_width(s); w < width; w++)
        fputc(' ', out);
}

void dump_view_shapes(FILE *out, long long batch, long long seq, long long d_model, long long heads)
{
    struct views_shape_row rows[VIEWS_SHAPE_ROWS];
    int n = views_shapes(batch, seq, d_model, heads, rows);
    fprintf(out,
            "Shapes through multi-head attention: batch B=%lld, seq L=%lld, d_model d=%lld, "
            "heads H=%lld, d_k=%lld\n\n",
            batch, seq, d_model, heads, d_model / heads);
    int w_step = 4, w_code = 4, w_shape = 5;
    char buf[96];
    for (int i = 0; i < n; i++) {
        w_step = utf8_width(rows[i].step) > w_step ? utf8_width(rows[i].step) : w_step;
        w_code = utf8_width(rows[i].code) > w_code ? utf8_width(rows[i].code) : w_code;
        int ws = utf8_width(views_shape_string(&rows[i], buf, sizeof buf));
        w_shape = ws > w_shape ? ws : w_shape;
    }
    pad(out, "step", w_step + 2);
    pad(out, "code", w_code + 2);
    pad(out, "shape", w_shape + 2);
    fputs("memory\n", out);
    for (int i = 0; i < n; i++) {
        pad(out, rows[i].step, w_step + 2);
        pad(out, rows[i].code, w_code + 2);
        pad(out, views_shape_string(&rows[i], buf, sizeof buf), w_shape + 2);
        fprintf(out, "%s\n", rows[i].note);
    }
    fputc('\n', out);
}

/* One row of the cost table: the quantity, then one head's count and the heads'. */
static void cost_line(FILE *out, const char *what, long long one, long long many)
{
    char a[40], b[40];
    pad(out, what, 28); /* by columns: "Q·Kᵀ" is 4 columns in 7 bytes */
    fprintf(out, " %20s %20s\n", views_group_digits(one, a, sizeof a),
            views_group_digits(many, b, sizeof b));
}

void dump_view_cost(FILE *out, long long seq_q, long long seq_k, long long d_model, long long heads,
                    bool bias, const char *preset_id)
{
    const struct views_preset *p = views_preset_find(preset_id);
    if (p) {
        d_model = p->d_model;
        heads = p->heads;
        fprintf(out, "%s: d_model %lld, %lld heads of d_k %lld (%s)\n", p->name, p->d_model,
                p->heads, p->d_k, p->note);
    }
    struct views_cost multi, single;
    views_cost(seq_q, seq_k, d_model, heads, bias, &multi);
    views_cost(seq_q, seq_k, d_model, 1, bias, &single);
    fprintf(out, "Cost of one attention block: %lld queries, %lld keys, d_model %lld\n\n", seq_q,
            seq_k, d_model);
    char title[48];
    snprintf(title, sizeof title, "%lld heads (d_k = %lld)", heads, multi.d_k);
    fprintf(out, "%-28s %20s %20s\n", "quantity", "1 head (d_k = d)", title);
    struct views_cost_row rows[VIEWS_COST_ROWS];
    const int n = views_cost_rows(&single, &multi, rows);
    for (int i = 0; i < n; i++)
        cost_line(out, rows[i].what, rows[i].one, rows[i].many);
    fputs("\nSame parameters and the same multiply-adds: the heads share the width, so\n"
          "only the number of softmax maps (and exponentials) grows with the heads.\n\n",
          out);
}

int dump_view_heads(FILE *out, const struct mha_example *ex)
{
    const int H = ex->heads, dk = ex->d_model / ex->heads;
    struct mha_error err;
    mha_error_clear(&err);
    struct views_heads_result *r = views_heads_new(ex, &err);
    if (!r) {
        fprintf(out, "Heads view: %s\n\n", err.text);
        return -1;
    }
    const double *sim = r->similarity, *rank = r->rank;
    fprintf(out,
            "How the %d heads differ: A_i = W_q,iᵀ·W_k,i is the form head i scores with.\n"
            "similarity = cosine of A_i and A_j (1 = the same pattern); effective rank = "
            "exp(entropy\nof A_i's singular values), from 1 (one direction) to d_k = %d.\n\n",
            H, dk);
    int show = H > 16 ? 16 : H;
    fprintf(out, "%-8s", "");
    for (int j = 0; j < show; j++)
        fprintf(out, " %7s%-2d", "head ", j);
    fprintf(out, "   eff. rank\n");
    for (int i = 0; i < show; i++) {
        fprintf(out, "head %-3d", i);
        for (int j = 0; j < show; j++)
            fprintf(out, " %9.3f", sim[(size_t)i * H + j]);
        fprintf(out, "   %8.2f\n", rank[i]);
    }
    if (show < H)
        fprintf(out, "(first 16 of %d heads)\n", H);
    fputc('\n', out);
    views_heads_free(r);
    return 0;
}
