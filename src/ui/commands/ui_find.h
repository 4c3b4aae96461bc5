/* ui_find.h - /word: the cell cursor onto the row of a token, and n onto
 * the next row that matches. */
#ifndef UI_FIND_H
#define UI_FIND_H

#include <stdbool.h>

#include "ui/state/ui_state.h"

struct ui_app;

/* The row of labels (n of them) that matches word after row from
 * (cyclically; from -1 to start at the top): an exact match first (ASCII
 * case ignored), else one that contains word.  -1 when none matches. */
int ui_find_row(char *const *labels, int n, const char *word, int from);

/* Put the cursor on the row of the token word in the focused matrix, or in
 * the first one whose rows are tokens (next: the match after the cursor's
 * row).  Says where it went, or that nothing matched. */
void ui_app_find(struct ui_app *app, const char *word, bool next);

#endif
