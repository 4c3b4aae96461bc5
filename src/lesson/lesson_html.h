/* lesson_html.h - a lesson as one self-contained web page for handouts.
 *
 * The page has the lesson's title, then one section per step: its text
 * (headings, emphasis, code, lists, tables, block quotes; call-outs as
 * coloured boxes with their title), the screen the step sets up (the stage's
 * matrices as coloured tables with the cell the step points at outlined, or
 * the shapes, cost or heads view as a table), and its checkpoint quiz with the
 * answer folded away in a <details> element.  Inline CSS only: no scripts,
 * fonts, images or links to other sites; XHTML-compatible markup, so it can
 * be checked as XML and prints on a light background.
 */
#ifndef MHA_LESSON_HTML_H
#define MHA_LESSON_HTML_H

#include <stdio.h>

#include "lesson/lesson.h"

/* Write the page for l to out.  assets_dir is where scenes load example files
 * from (as for lesson_print_text).  A screen is drawn for the first step and
 * for every step with a scene of its own; steps without one keep the screen
 * above them.  Returns 0; -1 when a scene could not be built (the reason is
 * written in its place and the rest of the page still follows) or when
 * writing failed. */
int lesson_print_html(FILE *out, const struct lesson *l, const char *assets_dir);

#endif
