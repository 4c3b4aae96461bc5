/* ui_views.h - the views beyond the stages on screen: each view is described
 * once below the screen (io/view_desc.h: its make function and its struct
 * view_kind, in its own file); here the description becomes blocks, the text pane's words,
 * the legend and a file, the same way for every view. */
#ifndef UI_VIEWS_H
#define UI_VIEWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "io/view_desc.h"
#include "ui/state/ui_state.h"
#include "ui/views/ui_view.h"

/* What st's view is made from: its example, its sizes, its step 0. */
struct view_inputs ui_view_inputs(const struct ui_state *st);

/* Make st's view description when the state marked it stale (a view
 * chosen, the example changed): the screen and the exports call it before
 * they read st->vd.  Out of memory: back to the stage, and said. */
void ui_views_sync(struct ui_state *st);

/* The blocks of st's current stage, or of its view (made first when stale):
 * its matrix as numbers and its table, for a pane width columns wide
 * (ui_stage_build for a stage); the number of blocks. */
int ui_view_build(struct ui_state *st, int width, struct ui_block *out, int max);

/* A view's text pane: its heading, formula (lines apart by '\n') and words. */
void ui_view_describe(const struct view_desc *vd, char *head, size_t hn, char *formula, size_t fn,
                      char *text, size_t tn);

/* The legend drawn over a view (UI_LEGEND_* of ui_widget.h); 0: a key hint
 * back to the stages instead. */
unsigned ui_view_legend(const struct view_desc *vd);

/* A paged view (the model view) whose maps do not all show: "maps 1–6 of
 * 8, 2 more · Space next · PgUp back" into buf, with the keys that page on
 * and back; false (buf "") when every map shows or the view is not paged. */
bool ui_view_page_text(const struct ui_state *st, const char *next_keys, const char *prev_keys,
                       char *buf, size_t n);

#endif
