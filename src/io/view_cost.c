/* view_cost.c - the cost view: parameters and multiply-adds of one
 * attention block, one head of full width against the example's heads. */
#include "io/view_desc.h"

#include <stdio.h>
#include <string.h>

#include "engine/views.h"
#include "train/train_variant.h"

/* The variants the table compares at d_model d and h heads, into v: the
 * standard block, shared W_q = W_k, W_q and W_k of rank d_k, no W_O, W_O
 * of rank d_k, multi-query, and grouped-query with four heads a group (two
 * where h is 4 or not a multiple of four); a rank of d_k only below d_model,
 * groups only where there are more than one and fewer than the heads.
 * Returns how many. */
static int cost_variants(long long d, long long h, struct train_variant *v)
{
    const long long dk = d / h, r = dk < d ? dk : d / 2;
    const long long per = h % 4 == 0 && h > 4 ? 4 : h % 2 == 0 ? 2 : h;
    int n = 0;
    v[n++] = (struct train_variant){TRAIN_VARIANT_STANDARD, 0};
    v[n++] = (struct train_variant){TRAIN_VARIANT_SHARED_QK, 0};
    if (r >= 1)
        v[n++] = (struct train_variant){TRAIN_VARIANT_LOW_RANK_QK, (int)r};
    v[n++] = (struct train_variant){TRAIN_VARIANT_NO_WO, 0};
    if (r >= 1)
        v[n++] = (struct train_variant){TRAIN_VARIANT_LOW_RANK_WO, (int)r};
    if (h > 1)
        v[n++] = (struct train_variant){TRAIN_VARIANT_MQA, 0};
    if (h / per > 1)
        v[n++] = (struct train_variant){TRAIN_VARIANT_GQA, (int)(h / per)};
    return n;
}

#define COST_VARIANTS 7

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
    struct train_variant var[COST_VARIANTS];
    const int nv = cost_variants(d, h, var);
    if (!view_table_alloc(&vd->table, n + 2 + nv, 3))
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
    /* the design choices at the heads' sizes: what each learns, what it
     * multiplies, what a decoder caches */
    char title[64];
    snprintf(title, sizeof title, "%lld heads: block (cache/token)", h);
    const char *sub[] = {title, "parameters", "multiply-adds"};
    ok = view_table_set_row(&vd->table, n + 1, sub) && ok;
    struct train_variant_cost vc, std;
    train_variant_cost(&var[0], sq, sk, d, h, bias, &std);
    for (int i = 0; i < nv; i++) {
        char name[TRAIN_VARIANT_NAME_MAX], label[96], a[40], b[40], kv[40];
        train_variant_cost(&var[i], sq, sk, d, h, bias, &vc);
        snprintf(label, sizeof label, "%s (%s)", train_variant_name(&var[i], name, sizeof name),
                 views_group_digits(vc.cache, kv, sizeof kv));
        const char *row[] = {label, views_group_digits(vc.params, a, sizeof a),
                             views_group_digits(vc.macs_total, b, sizeof b)};
        ok = view_table_set_row(&vd->table, n + 2 + i, row) && ok;
    }
    train_variant_cost(&(struct train_variant){TRAIN_VARIANT_SHARED_QK, 0}, sq, sk, d, h, bias,
                       &vc);
    const double qk_saves = 100.0 * (double)(std.params - vc.params) / (double)std.params;
    train_variant_cost(&(struct train_variant){TRAIN_VARIANT_MQA, 0}, sq, sk, d, h, bias, &vc);
    const long long cache_less = vc.cache ? std.cache / vc.cache : 1;
    snprintf(vd->note, sizeof vd->note,
             "At equal width the heads cost the same parameters and the same multiply-adds: "
             "%lld heads of %lld share the %lld columns one head would use. Only the number of "
             "attention maps (softmax rows) grows with the heads.%s%s%s%s%s The design choices "
             "below them (--variant): sharing W_q and W_k saves %.0f%% of the block's "
             "parameters; multi-query heads cache %lld times fewer floats of keys and values "
             "per token (the number in brackets, per layer) than %lld heads of their own.",
             h, multi.d_k, d, p ? " " : "", p ? p->name : "", p ? ": " : "", p ? p->note : "",
             p ? "." : "", qk_saves, cache_less, h);
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
           "width against the heads of the example at the same width, then each variant of the "
           "block (**--variant**) at those heads: its parameters, its multiply-adds and the "
           "keys and values a decoder caches per token; a lesson can show a published model's "
           "sizes.",
    .own_sizes = true,
};
