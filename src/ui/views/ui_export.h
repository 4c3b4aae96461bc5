/* ui_export.h - e and :export: the current stage as a file for slides and
 * handouts (SVG by default, or any format of --dump), the shapes, cost and
 * heads views as their text tables.  A file appears whole or not at all:
 * it is written to a temporary file in the same folder and linked into
 * place, which never replaces a file that is there.  No curses. */
#ifndef UI_EXPORT_H
#define UI_EXPORT_H

#include <stddef.h>

#include "io/format.h"
#include "ui/state/ui_state.h"

/* :export knows every format of format.h's table (mha_format_from_name
 * reads its name): export.h's svg, html, markdown, csv and latex, and the
 * text and json of --dump. */

/* The file extension of a format ("svg", "txt", ...). */
const char *ui_export_extension(int fmt);

/* "mha-attention-3.svg": the n-th automatic name for a stage or view. */
void ui_export_name(const char *what, int n, const char *ext, char *buf, size_t size);

/* Write what st shows in fmt (a view writes its table as text whatever fmt
 * says) to path, or when path is NULL to the first mha-<stage>-<n>.<ext>
 * of dir that does not exist yet.  written gets the file's absolute path.
 * Returns 0, or -1 with err saying why (a file that exists, a folder that
 * cannot be written, a picture too large) and nothing left behind. */
int ui_export_write(struct ui_state *st, int fmt, const char *dir, const char *path, char *written,
                    size_t size, struct mha_error *err);

/* The same for text already rendered: buf (len bytes, freed here whatever
 * happens) to path, or to the first mha-<what>-<n>.<ext> of dir. */
int ui_export_write_buffer(char *buf, size_t len, const char *what, const char *ext,
                           const char *dir, const char *path, char *written, size_t size,
                           struct mha_error *err);

#endif
