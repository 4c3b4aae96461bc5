/* ui_views.h - the view registry: one row per view beyond the stages (the
 * shapes, cost and heads views), saying how the screen makes its numbers,
 * what the text pane says about it, and what the message line says when v
 * brings it up.  Everything else about a view is generic: its blocks (a
 * table, and a matrix when it has one) are built by ui_view.c, drawn by the
 * block widgets, and written out by ui_export.c from the same ui_viewdata.
 *
 * Adding a view: a value in enum mha_view (views.h) with its name, a row in
 * ui_views.c, and one file with its make and describe functions. */
#ifndef UI_VIEWS_H
#define UI_VIEWS_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/core/ui_state.h"
#include "ui/views/ui_viewdata.h"

struct ui_view_ops {
    enum mha_view id;
    /* the message line when v brings the view up (a %d gets the heads) */
    const char *cycle_msg;
    /* fill vd's tables and matrices for st; false only when out of memory
     * (a view that cannot be made says why in vd->error) */
    bool (*make)(struct ui_viewdata *vd, const struct ui_state *st);
    /* the text pane's heading, formula (lines apart by '\n') and text */
    void (*describe)(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn,
                     char *text, size_t tn);
};

/* The row of view v; NULL for MHA_VIEW_NONE (the stage) or no view. */
const struct ui_view_ops *ui_view_ops(enum mha_view v);

/* The views' own functions (ui_viewdata.c and ui_describe.c). */
bool ui_view_shapes_make(struct ui_viewdata *vd, const struct ui_state *st);
bool ui_view_cost_make(struct ui_viewdata *vd, const struct ui_state *st);
bool ui_view_heads_make(struct ui_viewdata *vd, const struct ui_state *st);
void ui_view_shapes_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                             size_t fn, char *text, size_t tn);
void ui_view_cost_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                           size_t fn, char *text, size_t tn);
void ui_view_heads_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                            size_t fn, char *text, size_t tn);

#endif
