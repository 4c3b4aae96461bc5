/* ui_find.h - /word: the cell cursor onto the row of a token, and n onto
 * the next row that matches. */
#ifndef UI_FIND_H
#define UI_FIND_H

#include <stdbool.h>
#include <stddef.h>

#include "ui/state/ui_state.h"

struct ui_block;

/* The row of labels (n of them) that matches word after row from
 * (cyclically; from -1 to start at the top): an exact match first (ASCII
 * case ignored), else one that contains word.  -1 when none matches. */
int ui_find_row(char *const *labels, int n, const char *word, int from);

/* Put st's cursor on the row of the token word in the focused matrix of
 * blocks (n_blocks of them, the view shown), or in the first one whose
 * rows are tokens (next: the match after the cursor's row).  Says where it
 * went, or that nothing matched.  last (last_size bytes) keeps the word
 * for n; word may be last itself. */
void ui_find_token(struct ui_state *st, const struct ui_block *blocks, int n_blocks, char *last,
                   size_t last_size, const char *word, bool next);

#endif
