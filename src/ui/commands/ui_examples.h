/* ui_examples.h - the bundled example files (assets/examples/NAME.json)
 * found by name, and file names with a leading ~ made whole.  No curses. */
#ifndef UI_EXAMPLES_H
#define UI_EXAMPLES_H

#include <stddef.h>

#define UI_EXAMPLE_NAME_MAX 64

/* The names of the bundled examples ("cat-sat", "translate") in
 * assets_dir/examples, sorted, at most max; returns how many there are
 * (0 when the folder cannot be read). */
int ui_examples_list(const char *assets_dir, char names[][UI_EXAMPLE_NAME_MAX], int max);

/* "~" or "~/rest" with $HOME in front; anything else as it is.  Returns 0,
 * or -1 when the result does not fit in n (or ~ has no $HOME). */
int ui_path_expand(const char *path, char *out, size_t n);

/* What :load NAME opens: an existing file (after ~ is expanded) as it is,
 * else the bundled example of that name (with or without .json).  Returns
 * 0 with the path in out, or -1 when there is neither. */
int ui_example_resolve(const char *assets_dir, const char *arg, char *out, size_t n);

#endif
