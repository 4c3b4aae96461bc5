/* ui_views.h - the view registry: one row per view beyond the stages (the
 * shapes, cost and heads views), each pointing at its own file's functions:
 * how its numbers are made, the blocks the screen shows, what the text pane
 * says about it, how :export and e write it, and what the message line says
 * when v brings it up, the legend over it and whose sizes the status line
 * gives.  The blocks are drawn by the block widgets (a table, a matrix), so
 * a view has no drawing code of its own.
 *
 * Adding a view: a value in enum mha_view (views.h) with its name, a row in
 * ui_views.c, and one file views/ui_view_<name>.c with its functions (and
 * its line in meson.build). */
#ifndef UI_VIEWS_H
#define UI_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ui/state/ui_state.h"
#include "ui/views/ui_view.h"
#include "ui/views/ui_viewdata.h"

struct ui_view_ops {
    enum mha_view id;
    /* the message line when v brings the view up (a %d gets the heads) */
    const char *cycle_msg;
    /* fill vd's tables and matrices for st; false only when out of memory
     * (a view that cannot be made says why in vd->error) */
    bool (*make)(struct ui_viewdata *vd, const struct ui_state *st);
    /* the blocks the screen shows for vd (made, without an error) into out
     * (room for max); returns how many */
    int (*build)(const struct ui_viewdata *vd, struct ui_block *out, int max);
    /* the text pane's heading, formula (lines apart by '\n') and text */
    void (*describe)(const struct ui_state *st, char *head, size_t hn, char *formula, size_t fn,
                     char *text, size_t tn);
    /* the view written out (:export, e) as text; the file's extension */
    void (*export_text)(FILE *out, const struct ui_viewdata *vd);
    const char *extension;
    /* the legend drawn over the view (UI_LEGEND_* parts of ui_widget.h);
     * 0: a key hint back to the stages instead */
    unsigned legend;
    /* the status line gives the view's own sizes (vd->line: a batch, a
     * sequence length, a published model) rather than the example's */
    bool own_sizes;
};

/* The row of view v; NULL for MHA_VIEW_NONE (the stage) or no view. */
const struct ui_view_ops *ui_view_ops(enum mha_view v);

/* What the views share (ui_views.c). */
/* A table block for vd's table (title, note, rows and columns); NULL when
 * there is no room (n >= max). */
struct ui_block *ui_view_table_block(const struct ui_viewdata *vd, struct ui_block *out, int *n,
                                     int max);
/* "<Name> view: <line>" and a blank line; then the error and false when the
 * view could not be made. */
bool ui_view_write_heading(FILE *out, const struct ui_viewdata *vd);
/* vd's title, its table with a rule under the header, and its note. */
void ui_view_write_table(FILE *out, const struct ui_viewdata *vd);

/* The views' own functions, one file each: ui_view_shapes.c, ui_view_cost.c,
 * ui_view_heads.c. */
bool ui_view_shapes_make(struct ui_viewdata *vd, const struct ui_state *st);
int ui_view_shapes_build(const struct ui_viewdata *vd, struct ui_block *out, int max);
void ui_view_shapes_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                             size_t fn, char *text, size_t tn);
void ui_view_shapes_export(FILE *out, const struct ui_viewdata *vd);

bool ui_view_cost_make(struct ui_viewdata *vd, const struct ui_state *st);
int ui_view_cost_build(const struct ui_viewdata *vd, struct ui_block *out, int max);
void ui_view_cost_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                           size_t fn, char *text, size_t tn);
void ui_view_cost_export(FILE *out, const struct ui_viewdata *vd);

bool ui_view_heads_make(struct ui_viewdata *vd, const struct ui_state *st);
int ui_view_heads_build(const struct ui_viewdata *vd, struct ui_block *out, int max);
void ui_view_heads_describe(const struct ui_state *st, char *head, size_t hn, char *formula,
                            size_t fn, char *text, size_t tn);
void ui_view_heads_export(FILE *out, const struct ui_viewdata *vd);

/* Compute the view for st's example (st->view_batch, view_seq, view_preset
 * give the shapes and cost views their sizes).  Returns a new record (free
 * with ui_viewdata_free), NULL only when out of memory.  A view that cannot
 * be made (heads with d_model above 512) has its reason in error. */
struct ui_viewdata *ui_viewdata_new(enum mha_view mode, const struct ui_state *st);
/* Make st's view numbers when the state marked them stale (a view chosen,
 * the example changed): the screen and the exports call it before they
 * read st->vd.  Out of memory: back to the stage, and said. */
void ui_views_sync(struct ui_state *st);
/* The blocks of st's current stage, or of its view (made first when stale),
 * for a pane width columns wide (ui_stage_build, or the view's row); the
 * number of blocks. */
int ui_view_build(struct ui_state *st, int width, struct ui_block *out, int max);

#endif
