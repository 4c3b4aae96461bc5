/* ui_text.h - UTF-8 text measured in terminal columns.
 *
 * Tokens can be any UTF-8 text, so every label is measured with wcwidth and
 * shortened between characters, never inside one.  Output of these functions
 * is always safe to hand to waddstr: control bytes and invalid UTF-8 become
 * '?', and in a non-UTF-8 locale every non-ASCII character is written in
 * ASCII (the program's own symbols by name, anything else as '?').
 * The locale's LC_CTYPE must be UTF-8 for wcwidth to know wide characters.
 */
#ifndef UI_TEXT_H
#define UI_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/* Columns s takes on screen (utf8 false: as ui_text_fit would write it). */
int ui_text_width(const char *s, bool utf8);

/* Copy into out (size outsz) the longest start of s that fits in maxw
 * columns.  When s does not fit, the copy ends with an ellipsis ("…", or "~"
 * without UTF-8) inside the maxw columns.  Returns the columns written. */
int ui_text_fit(const char *s, int maxw, bool utf8, char *out, size_t outsz);

/* Same for the first n bytes of s. */
int ui_text_fit_n(const char *s, size_t n, int maxw, bool utf8, char *out, size_t outsz);

/* The arrow in front of a "N more below" ("↓ ") or "N more above" ("↑ ")
 * marker; without UTF-8 nothing, where the words say it (the arrows' ASCII
 * names are the keys' names, Up and Down). */
const char *ui_more_arrow(bool down, bool utf8);

/* One line of wrapped text: bytes [start, start + len) of the source. */
struct ui_line {
    const char *start;
    size_t len;
};

/* Word-wrap s into lines of at most width columns ('\n' forces a break; a
 * word longer than a line is cut between characters).  Fills at most
 * max_lines entries and returns how many lines the whole text needs. */
int ui_text_wrap(const char *s, int width, bool utf8, struct ui_line *lines, int max_lines);

#endif
