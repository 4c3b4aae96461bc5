/* ui_view_shapes.c - the shapes view: the shapes a tensor takes through
 * view, transpose, contiguous and merge in PyTorch code, as a table. */
#include "ui/views/ui_views.h"

#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "engine/views.h"

bool ui_view_shapes_make(struct ui_viewdata *vd, const struct ui_state *st)
{
    const long long batch = st->view_batch > 0 ? st->view_batch : 2,
                    seq = ui_view_seq_len(st, false);
    const long long d = st->ex->d_model, h = st->ex->heads;
    struct views_shape_row rows[VIEWS_SHAPE_ROWS];
    const int n = views_shapes(batch, seq, d, h, rows);
    snprintf(vd->name, sizeof vd->name, "Shapes");
    snprintf(vd->line, sizeof vd->line,
             "batch B = %lld, seq L = %lld, d_model d = %lld, H = %lld, d_k = %lld", batch, seq, d,
             h, d / h);
    snprintf(vd->table_title, sizeof vd->table_title, "Shapes in PyTorch code");
    if (!ui_table_alloc(&vd->table, n + 1, 4))
        return false;
    static const char *const head[] = {"step", "code", "shape", "memory"};
    bool ok = ui_table_set_row(&vd->table, 0, head);
    for (int i = 0; i < n; i++) {
        char shape[96];
        const char *row[] = {rows[i].step, rows[i].code,
                             views_shape_string(&rows[i], shape, sizeof shape), rows[i].note};
        ok = ui_table_set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "Splitting and transposing move no numbers: view reads the same memory with new "
             "strides, transpose swaps the strides. Only contiguous() copies, so that view "
             "can join the heads back into d = H·d_k = %lld columns.",
             d);
    return ok;
}

int ui_view_shapes_build(const struct ui_viewdata *vd, struct ui_block *out, int max)
{
    int n = 0;
    ui_view_table_block(vd, out, &n, max);
    return n;
}

void ui_view_shapes_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                             size_t fn, char *text, size_t tn)
{
    const struct mha_trace *t = st->tr;
    char range[16];
    snprintf(head, hn, "Shapes: the same numbers, new strides");
    snprintf(formula, fn, "(B, L, d) → (B, L, H, d_k) → (B, H, L, d_k)\nd = H · d_k = %d · %d",
             t->heads, t->d_k);
    snprintf(text, tn,
             "This is how the stages look in PyTorch code, with a batch of sequences. view "
             "and transpose only change how memory is read; nothing is copied until "
             "contiguous() before the heads are merged. v shows the next view, %s a stage.",
             mha_stage_range(range, sizeof range));
}

void ui_view_shapes_export(FILE *out, const struct ui_viewdata *vd)
{
    if (ui_view_write_heading(out, vd))
        ui_view_write_table(out, vd);
}
