/* view_shapes.c - the shapes view: the shapes a tensor takes through
 * view, transpose, contiguous and merge in PyTorch code, as a table. */
#include "io/view_desc.h"

#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "engine/views.h"

static bool view_shapes_make(struct view_desc *vd, const struct view_inputs *in)
{
    const long long batch = in->batch > 0 ? in->batch : 2, seq = view_seq_len(in, false);
    const long long d = in->ex->d_model, h = in->ex->heads;
    struct views_shape_row rows[VIEWS_SHAPE_ROWS];
    const int n = views_shapes(batch, seq, d, h, rows);
    snprintf(vd->name, sizeof vd->name, "Shapes");
    snprintf(vd->line, sizeof vd->line,
             "batch B = %lld, seq L = %lld, d_model d = %lld, H = %lld, d_k = %lld", batch, seq, d,
             h, d / h);
    snprintf(vd->table_title, sizeof vd->table_title, "Shapes in PyTorch code");
    if (!view_table_alloc(&vd->table, n + 1, 4))
        return false;
    static const char *const head[] = {"step", "code", "shape", "memory"};
    bool ok = view_table_set_row(&vd->table, 0, head);
    for (int i = 0; i < n; i++) {
        char shape[96];
        const char *row[] = {rows[i].step, rows[i].code,
                             views_shape_string(&rows[i], shape, sizeof shape), rows[i].note};
        ok = view_table_set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "Splitting and transposing move no numbers: view reads the same memory with new "
             "strides, transpose swaps the strides. Only contiguous() copies, so that view "
             "can join the heads back into d = H·d_k = %lld columns.",
             d);
    char range[16];
    snprintf(vd->heading, sizeof vd->heading, "Shapes: the same numbers, new strides");
    snprintf(vd->formula, sizeof vd->formula,
             "(B, L, d) → (B, L, H, d_k) → (B, H, L, d_k)\nd = H · d_k = %lld · %lld", h, d / h);
    snprintf(vd->text, sizeof vd->text,
             "This is how the stages look in PyTorch code, with a batch of sequences. view "
             "and transpose only change how memory is read; nothing is copied until "
             "contiguous() before the heads are merged. v shows the next view, %s a stage.",
             mha_stage_range(range, sizeof range));
    return ok;
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_shapes_kind = {
    .id = MHA_VIEW_SHAPES,
    .name = "shapes",
    .make = view_shapes_make,
    .cycle_msg = "Shapes view: the tensor shapes through view, transpose, contiguous "
                 "and merge.",
    .extension = "txt",
    .man = "The tensor shapes through the layer as PyTorch code writes it (view, transpose, "
           "contiguous, the merge), for a batch (2 unless a lesson says otherwise), the sequence "
           "length, d_model and the heads.",
    .own_sizes = true,
};
