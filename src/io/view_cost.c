/* view_cost.c - the cost view: parameters and multiply-adds of one
 * attention block, one head of full width against the example's heads. */
#include "io/view_desc.h"

#include <stdio.h>
#include <string.h>

#include "engine/views.h"

static bool view_cost_make(struct view_desc *vd, const struct view_inputs *in)
{
    long long d = in->ex->d_model, h = in->ex->heads;
    const long long sq = view_seq_len(in, false), sk = view_seq_len(in, true);
    const struct views_preset *p =
        in->preset && in->preset[0] ? views_preset_find(in->preset) : NULL;
    bool bias = in->ex->has_bias;
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
    if (!view_table_alloc(&vd->table, n + 1, 3))
        return false;
    vd->table.right[1] = vd->table.right[2] = true;
    char one[64], many[64];
    snprintf(one, sizeof one, "1 head, d_k %lld", d);
    snprintf(many, sizeof many, "%lld heads, d_k %lld", h, multi.d_k);
    const char *head[] = {"", one, many};
    bool ok = view_table_set_row(&vd->table, 0, head);
    for (int i = 0; i < n; i++) {
        char a[40], b[40];
        const char *row[] = {cost[i].what, views_group_digits(cost[i].one, a, sizeof a),
                             views_group_digits(cost[i].many, b, sizeof b)};
        ok = view_table_set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "At equal width the heads cost the same parameters and the same multiply-adds: "
             "%lld heads of %lld share the %lld columns one head would use. Only the number of "
             "attention maps (softmax rows) grows with the heads.%s%s%s%s%s",
             h, multi.d_k, d, p ? " " : "", p ? p->name : "", p ? ": " : "", p ? p->note : "",
             p ? "." : "");
    snprintf(vd->heading, sizeof vd->heading, "Cost: what the heads cost");
    snprintf(vd->formula, sizeof vd->formula,
             "parameters = 4 · d_model² (+ 4 · d_model biases)\n"
             "Q·Kᵀ: H · L² · d_k = L² · d_model multiply-adds");
    snprintf(vd->text, sizeof vd->text,
             "Parameters and multiply-adds for one attention block, one head of full width "
             "against H heads of d_k = d_model / H. Splitting shares the width out, so the "
             "totals stay the same; only the number of attention maps grows. A lesson can "
             "show a published model's sizes here.");
    return ok;
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_cost_kind = {
    .id = MHA_VIEW_COST,
    .name = "cost",
    .make = view_cost_make,
    .cycle_msg = "Cost view: parameters and multiply-adds, one head against %d heads.",
    .extension = "txt",
    .man = "Parameters (4×d_model² plus biases) and multiply-adds of each part, one head of full "
           "width against the heads of the example at the same width; a lesson can show a "
           "published model's sizes.",
    .own_sizes = true,
};
