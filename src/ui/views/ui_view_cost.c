/* ui_view_cost.c - the cost view: parameters and multiply-adds of one
 * attention block, one head of full width against the example's heads. */
#include "ui/views/ui_views.h"

#include <stdio.h>
#include <string.h>

#include "engine/views.h"

bool ui_view_cost_make(struct ui_viewdata *vd, const struct ui_state *st)
{
    long long d = st->ex->d_model, h = st->ex->heads;
    const long long sq = ui_view_seq_len(st, false), sk = ui_view_seq_len(st, true);
    const struct views_preset *p = st->view_preset[0] ? views_preset_find(st->view_preset) : NULL;
    bool bias = st->ex->has_bias;
    snprintf(vd->name, sizeof vd->name, "Cost");
    if (p) {
        d = p->d_model;
        h = p->heads;
        bias = true;
        snprintf(vd->line, sizeof vd->line, "%s: d_model %lld, %lld heads of d_k %lld, %lld tokens",
                 p->name, d, h, p->d_k, sq);
    } else {
        snprintf(vd->line, sizeof vd->line, "%lld queries, %lld keys, d_model %lld, %lld heads", sq,
                 sk, d, h);
    }
    struct views_cost multi, single;
    views_cost(sq, sk, d, h, bias, &multi);
    views_cost(sq, sk, d, 1, bias, &single);
    snprintf(vd->table_title, sizeof vd->table_title, "One attention block, one sequence");
    struct views_cost_row cost[VIEWS_COST_ROWS];
    const int n = views_cost_rows(&single, &multi, cost);
    if (!ui_table_alloc(&vd->table, n + 1, 3))
        return false;
    vd->table.right[1] = vd->table.right[2] = true;
    char one[64], many[64];
    snprintf(one, sizeof one, "1 head, d_k %lld", d);
    snprintf(many, sizeof many, "%lld heads, d_k %lld", h, multi.d_k);
    const char *head[] = {"", one, many};
    bool ok = ui_table_set_row(&vd->table, 0, head);
    for (int i = 0; i < n; i++) {
        char a[40], b[40];
        const char *row[] = {cost[i].what, views_group_digits(cost[i].one, a, sizeof a),
                             views_group_digits(cost[i].many, b, sizeof b)};
        ok = ui_table_set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "At equal width the heads cost the same parameters and the same multiply-adds: "
             "%lld heads of %lld share the %lld columns one head would use. Only the number of "
             "attention maps (softmax rows) grows with the heads.",
             h, multi.d_k, d);
    return ok;
}

int ui_view_cost_build(const struct ui_viewdata *vd, struct ui_block *out, int max)
{
    int n = 0;
    ui_view_table_block(vd, out, &n, max);
    return n;
}

void ui_view_cost_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                           size_t fn, char *text, size_t tn)
{
    (void)st;
    snprintf(head, hn, "Cost: what the heads cost");
    snprintf(formula, fn,
             "parameters = 4 · d_model² (+ 4 · d_model biases)\n"
             "Q·Kᵀ: H · L² · d_k = L² · d_model multiply-adds");
    snprintf(text, tn,
             "Parameters and multiply-adds for one attention block, one head of full width "
             "against H heads of d_k = d_model / H. Splitting shares the width out, so the "
             "totals stay the same; only the number of attention maps grows. A lesson can "
             "show a published model's sizes here.");
}

void ui_view_cost_export(FILE *out, const struct ui_viewdata *vd)
{
    if (ui_view_write_heading(out, vd))
        ui_view_write_table(out, vd);
}
