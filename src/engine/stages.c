/* stages.c - the stage table (stages.h). */
#include "engine/stages.h"

#include <stdio.h>
#include <string.h>

static const struct mha_stage_info stages[MHA_STAGE_COUNT] = {
    [MHA_STAGE_INPUT] =
        {
            .name = "input",
            .title = "Input",
            .short_title = "Input",
            .subtitle = "what goes in",
            .heading = "Input",
            .formula = "query (L_q, d)   key, value (L_k, d)   W_q, W_k, W_v, W_o (d, d)",
            .sentence = "Each token enters as a row of numbers; the four weight matrices are "
                        "what the model learned, stored [out][in] as nn.Linear keeps them.",
            .dump_heading = "input: query, key and value, and the four weight matrices",
            .legend = MHA_LEGEND_SIGNED,
            .n_tensors = 7,
            .tensors = {MHA_TENSOR_QUERY, MHA_TENSOR_KEY, MHA_TENSOR_VALUE, MHA_TENSOR_W_Q,
                        MHA_TENSOR_W_K, MHA_TENSOR_W_V, MHA_TENSOR_W_O},
            .show = {{MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE, "query input", "query", "query"},
                     {MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE, "key input", "key", "key"},
                     {MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE, "value input", "value", "value"},
                     {MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE | MHA_SHOW_NEW_ROW, "W_q (out × in)",
                      "W_q", "W_q"},
                     {MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE, "W_k (out × in)", "W_k", "W_k"},
                     {MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE, "W_v (out × in)", "W_v", "W_v"},
                     {MHA_FORM_WHOLE, MHA_SHOW_EVERYWHERE, "W_o (out × in)", "W_o", "W_o"}},
            .with_params = true,
            .shape_line = "inputs (L, d) = ({Lq}, {d})   weights (d, d) = ({d}, {d}), "
                          "stored [out][in]",
            .focus = MHA_TENSOR_QUERY,
            .pane_formula = "query, key, value: (L, d) = ({Lq}, {d})\nW_q, W_k, W_v, W_o: (d, d) = "
                            "({d}, {d})",
            .pane_text = "Each token enters as a row of d_model numbers. Query rows are the "
                         "questions the tokens ask, key rows are what the questions are matched "
                         "against, and value rows are what a match hands back. The four weight "
                         "matrices are everything this layer learns; ",
        },
    [MHA_STAGE_PROJECTION] =
        {
            .name = "projection",
            .title = "Projection",
            .short_title = "Proj",
            .subtitle = "three roles",
            .heading = "Projection",
            .formula = "Q = query·W_qᵀ + b_q    K = key·W_kᵀ + b_k    V = value·W_vᵀ + b_v",
            .sentence = "Three learned matrices turn every token into a query (what it looks "
                        "for), a key (what it offers to others) and a value (what it hands on "
                        "when chosen).",
            .dump_heading = "projection: Q = query·W_qᵀ + b_q, K = key·W_kᵀ + b_k, "
                            "V = value·W_vᵀ + b_v",
            .legend = MHA_LEGEND_SIGNED,
            .n_tensors = 3,
            .tensors = {MHA_TENSOR_Q, MHA_TENSOR_K, MHA_TENSOR_V},
            .show = {{MHA_FORM_PRODUCT, MHA_SHOW_EVERYWHERE, NULL, "Q = query·W_qᵀ + b_q",
                      "Q = query·W_qᵀ + b_q"},
                     {MHA_FORM_PRODUCT, MHA_SHOW_EVERYWHERE, NULL, "K = key·W_kᵀ + b_k",
                      "K = key·W_kᵀ + b_k"},
                     {MHA_FORM_PRODUCT, MHA_SHOW_EVERYWHERE, NULL, "V = value·W_vᵀ + b_v",
                      "V = value·W_vᵀ + b_v"}},
            .shape_line = "(L, d) · (d, d)ᵀ → (L, d) = ({Lq}, {d}), once for each of Q, K, V",
            .focus = MHA_TENSOR_Q,
            .pane_formula = "Q = query · W_qᵀ   K = key · W_kᵀ\nV = value · W_vᵀ",
            .pane_text = "Every input row is multiplied by a weight matrix and comes out the same "
                         "width. The three matrices give one token three jobs: what it looks for "
                         "(Q), how it can be found (K) and what it passes on (V). Without them "
                         "tokens would be compared as they arrive, with no say in which features "
                         "matter. The weights are stored [out][in], as nn.Linear does, hence the "
                         "ᵀ.",
        },
    [MHA_STAGE_SPLIT] =
        {
            .name = "split",
            .title = "Split",
            .short_title = "Split",
            .subtitle = "a slice per head",
            .heading = "Split into heads",
            .formula = "(L, d) → (L, H, d_k)   with d_k = d ÷ H",
            .sentence = "Nothing is computed here: each row is cut into H pieces of d_k "
                        "columns, and piece h belongs to head h.",
            .dump_heading = "split: each row of Q, K and V cut into heads of d_k columns, "
                            "(L, d) -> (L, H, d_k)",
            .legend = MHA_LEGEND_HEADS,
            .n_tensors = 3,
            .tensors = {MHA_TENSOR_Q, MHA_TENSOR_K, MHA_TENSOR_V},
            .show = {{MHA_FORM_SPLIT, MHA_SHOW_EVERYWHERE | MHA_SHOW_HEAD_LABELS,
                      "Q split into heads", "Q split into heads", "Q as ({L}, {H}, {d_k})"},
                     {MHA_FORM_SPLIT, MHA_SHOW_EVERYWHERE | MHA_SHOW_HEAD_LABELS,
                      "K split into heads", "K split into heads", "K as ({L}, {H}, {d_k})"},
                     {MHA_FORM_SPLIT, MHA_SHOW_EVERYWHERE | MHA_SHOW_HEAD_LABELS,
                      "V split into heads", "V split into heads", "V as ({L}, {H}, {d_k})"}},
            .shape_line = "(L, d) = ({Lq}, {d}) → (L, H, d_k) = ({Lq}, {H}, {d_k}), "
                          "d_k = {d} / {H}",
            .dump_note = "Q, K and V viewed as (L, {H}, {d_k}): column h<i>.<j> is dimension j "
                         "of head i.\nNo number changes; only how the columns are grouped.\n\n",
            .focus = MHA_TENSOR_Q,
            .pane_formula = "d_k = d_model / heads = {d} / {H} = {d_k}",
            .pane_text =
                "Each row of Q, K and V is cut into {H} piece{heads>1?s} of {d_k} numbers: "
                "head 0 takes columns 0..{d_k-1}{heads>1?, head 1 the next ones, and so "
                "on}. No number changes; the width is shared out, not lost. One head can "
                "only form one blend per token; several heads can each follow a "
                "different kind of link. That is why heads must divide d_model (try "
                ":heads 4).",
        },
    [MHA_STAGE_TRANSPOSE] =
        {
            .name = "transpose",
            .title = "Transpose",
            .short_title = "Transp",
            .subtitle = "heads to the front",
            .heading = "Transpose",
            .formula = "(L, H, d_k) → (H, L, d_k)",
            .sentence = "The head axis moves to the front, so that every head owns a small "
                        "matrix of its own and can attend without looking at the others.",
            .dump_heading = "transpose: (L, H, d_k) -> (H, L, d_k), one block per head",
            .legend = MHA_LEGEND_HEADS,
            .n_tensors = 3,
            .tensors = {MHA_TENSOR_QH, MHA_TENSOR_KH, MHA_TENSOR_VH},
            .show = {{MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE | MHA_SHOW_HEAD_LABELS, "Q head {h}",
                      "head {h} · Q", "head {h} · Q{h}"},
                     {MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE | MHA_SHOW_HEAD_LABELS, "K head {h}",
                      "head {h} · K", "head {h} · K{h}"},
                     {MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE | MHA_SHOW_HEAD_LABELS, "V head {h}",
                      "head {h} · V", "head {h} · V{h}"}},
            .screen_order = MHA_ORDER_BY_TENSOR,
            .export_order = MHA_ORDER_BY_HEAD,
            .shape_line = "(L, H, d_k) = ({Lq}, {H}, {d_k}) → (H, L, d_k) = ({H}, {Lq}, {d_k})",
            .focus = MHA_TENSOR_Q,
            .pane_formula = "(L, H, d_k) = ({Lq}, {H}, {d_k}) → (H, L, d_k) = ({H}, {Lq}, {d_k})",
            .pane_text = "Moving the head axis first gives every head a complete small sequence of "
                         "its own: L tokens with d_k numbers each. The heads can now run side by "
                         "side without touching each other. Without this step Q·Kᵀ would "
                         "multiply across heads and tokens at once and mix numbers that do not "
                         "belong together.",
        },
    [MHA_STAGE_ATTENTION] =
        {
            .name = "attention",
            .title = "Attention",
            .short_title = "Attn",
            .subtitle = "who looks at whom",
            .heading = "Attention",
            .formula = "weights = softmax(Q_h·K_hᵀ ÷ √d_k)    context = weights·V_h",
            .sentence = "In every head each query is compared with each key; softmax turns a "
                        "row of scores into weights that sum to 1, and the context is the "
                        "values averaged with those weights.",
            .dump_heading = "attention: weights = softmax(Q·Kᵀ / √d_k), context = weights · V, "
                            "per head",
            .legend = MHA_LEGEND_SIGNED_PROB,
            .n_tensors = 4,
            .tensors = {MHA_TENSOR_SCORES, MHA_TENSOR_SCALED, MHA_TENSOR_WEIGHTS,
                        MHA_TENSOR_CONTEXT},
            .show = {{MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE, "head {h}: Q·Kᵀ",
                      "head {h} · scores = Q·Kᵀ", "head {h} · scores = Q{h}·K{h}ᵀ"},
                     {MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE,
                      "{scaled?÷ √{d_k}|not scaled}{causal?, masked|}",
                      "{scaled?head {h} · scaled = scores ÷ √{d_k}|head {h} · scaled (scaling "
                      "off)}",
                      "{scaled?head {h} · scaled = scores / √{d_k} (masked: -inf)|head {h} · "
                      "scaled (scaling off; masked: -inf)}"},
                     {MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE, "softmax → weights",
                      "head {h} · weights = softmax(scaled)",
                      "head {h} · weights = softmax(scaled), rows sum to 1"},
                     {MHA_FORM_HEADS, MHA_SHOW_EVERYWHERE, "weights · V_h",
                      "head {h} · context = weights·V", "head {h} · context = weights · V{h}"}},
            .screen_order = MHA_ORDER_BY_HEAD,
            .export_order = MHA_ORDER_BY_HEAD,
            .shape_line = "per head: scores (H, Lq, Lk) = ({H}, {Lq}, {Lk}) → weights → "
                          "context (H, L, d_k) = ({H}, {Lq}, {d_k})",
            .dump_note = "scale: {scaled?divide by √d_k|off (scores used as they are)}, "
                         "mask: {mask}\n\n",
            .focus = MHA_TENSOR_WEIGHTS,
            .pane_formula = "weights = softmax(Q_h · K_hᵀ {scaled?/ √d_k}{causal? + mask})\n"
                            "context = weights · V_h",
            .pane_text = "In every head each query row meets every key row in a dot product: the "
                         "scores. They are divided by √d_k = √{d_k} (s switches this off), masked "
                         "keys become −∞ (c turns on the causal mask), and softmax turns each row "
                         "into weights that are positive and add up to 1. The context row is the "
                         "weights' average of the value rows. Without the scaling, scores grow "
                         "with d_k and softmax gives nearly all the weight to one key.",
        },
    [MHA_STAGE_MERGE] =
        {
            .name = "merge",
            .title = "Merge",
            .short_title = "Merge",
            .subtitle = "heads side by side",
            .heading = "Merge",
            .formula = "(H, L, d_k) → (L, H·d_k) = (L, d)",
            .sentence = "The heads' contexts are laid side by side again: head 0 fills the "
                        "first d_k columns, head 1 the next d_k, and so on.",
            .dump_heading = "merge: the heads' contexts side by side, (H, L, d_k) -> (L, d)",
            .legend = MHA_LEGEND_HEADS,
            .n_tensors = 2,
            .tensors = {MHA_TENSOR_CONTEXT, MHA_TENSOR_MERGED},
            .show = {{MHA_FORM_HEADS, MHA_SHOW_SCREEN | MHA_SHOW_EXPORT, "head {h}",
                      "head {h} · context", NULL},
                     {MHA_FORM_HEAD_COLS, MHA_SHOW_EVERYWHERE | MHA_SHOW_NEW_ROW,
                      "merged: heads side by side", "merged: heads side by side",
                      "merged: head 0 in d0..d{d_k-1}{heads>1?, head 1 next, and so on|}"}},
            .screen_order = MHA_ORDER_BY_TENSOR,
            .export_order = MHA_ORDER_BY_TENSOR,
            .shape_line = "(H, L, d_k) = ({H}, {Lq}, {d_k}) → (L, H·d_k) = ({Lq}, {d})",
            .focus = MHA_TENSOR_MERGED,
            .pane_formula = "(H, L, d_k) = ({H}, {Lq}, {d_k}) → (L, H·d_k) = ({Lq}, {d})",
            .pane_text = "The heads' context rows are laid next to each other again, head 0 first, "
                         "so each token has one row of d_model numbers. This is only a "
                         "rearrangement: nothing is added or multiplied.",
        },
    [MHA_STAGE_OUTPUT] =
        {
            .name = "output",
            .title = "Output",
            .short_title = "Output",
            .subtitle = "mixing the heads",
            .heading = "Output",
            .formula = "output = merged·W_oᵀ + b_o",
            .sentence = "One last learned matrix mixes the heads' columns, so each output "
                        "column can draw on what every head found.",
            .dump_heading = "output: output = merged·W_oᵀ + b_o",
            .next_word = true,
            .legend = MHA_LEGEND_SIGNED,
            .n_tensors = 2, /* the query input, beside it on the screen only */
            .tensors = {MHA_TENSOR_OUTPUT, MHA_TENSOR_QUERY},
            .show = {{MHA_FORM_PRODUCT, MHA_SHOW_EVERYWHERE | MHA_SHOW_FACTORS, NULL,
                      "output = merged·W_oᵀ + b_o", "output = merged·W_oᵀ + b_o"},
                     {MHA_FORM_WHOLE, MHA_SHOW_SCREEN | MHA_SHOW_NEW_ROW,
                      "{wide?the |}query input it started from", NULL, NULL}},
            .shape_line = "(L, d) · W_oᵀ (d, d) → (L, d) = ({Lq}, {d})",
            .focus = MHA_TENSOR_OUTPUT,
            .pane_formula = "output = merged · W_oᵀ\nMHA = Concat(head_0{heads==2?, head_1}"
                            "{heads==3?, head_1, head_2}{heads>3? … head_H−1}) · W_oᵀ",
            .pane_text =
                "A last linear layer lets every output column read every head, so what the "
                "heads found separately can be combined and weighed. Without it each "
                "head's result would stay in its own columns. The output has the input's "
                "shape ({Lq}, {d}), so layers can be stacked.",
        },
};

const struct mha_stage_info *mha_stage_info(enum mha_stage s)
{
    return &stages[s >= 0 && s < MHA_STAGE_COUNT ? s : 0];
}

void mha_stage_walk(const struct mha_stage_info *info, enum mha_order order, int heads,
                    unsigned where, mha_stage_fn fn, void *arg)
{
    const int n = info->n_tensors;
    int first = 0, last = 0; /* the per-head tensors walked head by head: [first, last) */
    if (order == MHA_ORDER_BY_HEAD) {
        while (first < n && info->show[first].form != MHA_FORM_HEADS)
            first++;
        last = first;
        while (last < n && info->show[last].form == MHA_FORM_HEADS)
            last++;
    }
    for (int i = 0; i < n; i++) {
        if (i == first && first < last) {
            for (int h = 0; h < heads; h++) {
                bool row = true;
                for (int k = first; k < last; k++)
                    if (info->show[k].flags & where) {
                        fn(arg, k, h, row);
                        row = false;
                    }
            }
            i = last - 1;
            continue;
        }
        if (!(info->show[i].flags & where))
            continue;
        if (info->show[i].form == MHA_FORM_HEADS)
            for (int h = 0; h < heads; h++)
                fn(arg, i, h, h == 0);
        else
            fn(arg, i, 0, (info->show[i].flags & MHA_SHOW_NEW_ROW) != 0);
    }
}

int mha_stage_find(const struct mha_stage_info *info, enum mha_tensor x, unsigned where)
{
    const enum mha_tensor heads = mha_tensor_desc(x)->heads;
    for (int i = 0; i < info->n_tensors; i++)
        if ((info->show[i].flags & where) && (info->tensors[i] == x || info->tensors[i] == heads))
            return i;
    return -1;
}

const char *mha_stage_range(char *buf, size_t n)
{
    snprintf(buf, n, "0-%d", MHA_STAGE_COUNT - 1);
    return buf;
}

const char *mha_stage_names(char *buf, size_t n, const char *last_sep)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int s = 0; s < MHA_STAGE_COUNT && used < n; s++) {
        const char *sep = s == 0 ? "" : s == MHA_STAGE_COUNT - 1 ? last_sep : ", ";
        const int w = snprintf(buf + used, n - used, "%s%s", sep, stages[s].name);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}
