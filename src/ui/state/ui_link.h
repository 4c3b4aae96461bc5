/* ui_link.h - :link: the command line that reopens the explorer as it is
 * now (link.h writes it; this fills its link_state from the explorer's
 * state), and the cell under the cursor as a --focus the command line
 * understands.  No curses, so the round trip through the real option
 * parser is tested without a terminal. */
#ifndef UI_LINK_H
#define UI_LINK_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "io/colorscale.h"
#include "io/link.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_state.h"

struct ui_link {
    struct link_state ls; /* its strings point into the state and the buffers below */
    char focus[256];
    char lesson[PATH_MAX];
    char load[PATH_MAX];
    char note[256]; /* what the command line cannot say, "" when it says everything */
};

/* Fill out from the explorer: st and the open lesson (ls->l, or none),
 * cursor the cell under the cursor (NULL: none), the theme and whether the
 * presenter's layout is on.  Inside a lesson whose screen still shows its
 * step's scene, or the model its step trained, the link names the lesson
 * and step; once the screen was changed it names the example itself (an
 * example of no file by its tokens and sizes).  Always fills out; note
 * says what is missing (a cross-attention or masked example drawn from a
 * seed, a mask or scaling a file turns on that was turned off, a cell
 * --focus cannot name, an example of no file). */
void ui_link_fill(const struct ui_state *st, const struct ui_lessons *ls,
                  const struct mha_cell *cursor, enum colorscale_theme theme, bool present,
                  struct ui_link *out);

/* "weights, head 1, row tok 2, col tok 3": cell as lesson_focus_resolve
 * reads it on st's stage, rows and columns by token where the token names
 * them and by index otherwise.  False when --focus cannot name the cell on
 * this stage (a view, or a matrix the stage shows only beside the others). */
bool ui_link_focus(const struct ui_state *st, const struct mha_cell *cell, char *buf, size_t n);

/* The newly allocated command line (link_command), with the note after it
 * when there is one; NULL when out of memory. */
char *ui_link_text(const struct ui_link *link);

#endif
