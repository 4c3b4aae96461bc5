/* catalog.h - the set of lessons in a directory, and printing a lesson as
 * plain text with its scenes rendered as numbers. */
#ifndef MHA_LESSON_CATALOG_H
#define MHA_LESSON_CATALOG_H

#include <stdio.h>

#include "lesson/lesson.h"

struct lesson_catalog {
    char **paths; /* NN-slug.md files, sorted by name */
    int n;
};

/* List dir's lesson files (names starting with a digit, ending in .md).
 * Returns 0, or -1 when the directory cannot be read. */
int lesson_catalog_load(struct lesson_catalog *c, const char *dir);
void lesson_catalog_done(struct lesson_catalog *c);

/* Path of lesson "N" (its number) or a file path as given.  Returns a new
 * string (free it), or NULL when N matches no lesson of the catalog. */
char *lesson_catalog_resolve(const struct lesson_catalog *c, const char *spec);

/* Print l as text wrapped to width: title, then each step with its text,
 * its scene (the stage's matrices or the view's table, computed from the
 * example the lesson builds), and its quiz with the answer.  assets_dir is
 * where scenes load example files from.  Returns 0, or -1 if a scene could
 * not be built (the reason is printed in its place). */
int lesson_print_text(FILE *out, const struct lesson *l, const char *assets_dir, int width);

#endif
