/* ui_words.h - help words that name the program's lists read those lists
 * from their tables instead of spelling them out.
 *
 * A help text in a key table or the ':' command table may hold
 *   {stages|SEP}  the stage names (src/engine/stages.c),
 *   {views|SEP}   the view names (MHA_VIEWS, src/engine/views.h),
 *   {themes|SEP}  the theme names (src/io/colorscale.c),
 *   {formats|SEP} the output formats (src/io/format.c),
 *   {range}       the stage numbers, "0-6",
 * where SEP goes before the last name (" or ", " and ", ", "); the others
 * are joined by ", ".  "next theme: {themes|, }" is shown as "next theme:
 * dark, light, projector, mono", and a theme added to the table shows up in
 * the help without another edit. */
#ifndef UI_WORDS_H
#define UI_WORDS_H

#include <stddef.h>

/* text with its lists written out, into buf (n bytes; cut to fit).  A brace
 * that starts no known list is copied as it is.  Returns buf. */
const char *ui_words_expand(const char *text, char *buf, size_t n);

#endif
