/* ui_views.c - the view registry (ui_views.h): one row per view. */
#include "ui/views/ui_views.h"

static const struct ui_view_ops views[MHA_VIEW_COUNT] = {
    [MHA_VIEW_SHAPES] = {MHA_VIEW_SHAPES,
                         "Shapes view: the tensor shapes through view, transpose, contiguous "
                         "and merge.",
                         ui_view_shapes_make, ui_view_shapes_describe},
    [MHA_VIEW_COST] = {MHA_VIEW_COST,
                       "Cost view: parameters and multiply-adds, one head against %d heads.",
                       ui_view_cost_make, ui_view_cost_describe},
    [MHA_VIEW_HEADS] = {MHA_VIEW_HEADS,
                        "Heads view: how the heads' score forms differ, and the effective rank "
                        "of each.",
                        ui_view_heads_make, ui_view_heads_describe},
};

const struct ui_view_ops *ui_view_ops(enum mha_view v)
{
    if (v <= MHA_VIEW_NONE || v >= MHA_VIEW_COUNT || !views[v].make)
        return NULL;
    return &views[v];
}
