/* dump.h - print stages of a trace for people (text) and programs (json). */
#ifndef MHA_DUMP_H
#define MHA_DUMP_H

#include <stdbool.h>
#include <stdio.h>

#include "io/format.h"
#include "engine/mha.h"

/* Which stages to print: one stage, or all of them (stage == -1). */
#define DUMP_ALL (-1)

/* Print the stage (or DUMP_ALL) of t, computed from ex, to out.
 * json: one object; "config" always, then the stage's key(s).
 * text: each matrix with its name, shape, row labels and aligned numbers.
 * Both are written as they go (no copy of the output is built).
 * Returns 0; or -1 with err filled, writing nothing, for a format that is
 * not a dump format or an unknown stage; or -1 with err "write error ..."
 * when out fails part-way.  err may be NULL. */
int dump_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
               enum mha_format fmt, struct mha_error *err);

/* The writers behind dump_write (format.h's table calls them): 0, or -1
 * on a write error. */
int dump_text_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage);
int dump_json_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage);
/* The json dump and a newline, as --dump writes it (format.h's json row). */
int dump_json_line_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                         int stage);

/* The JSON document as a newly allocated string (caller frees with free());
 * NULL when out of memory. */
char *dump_json_string(const struct mha_example *ex, const struct mha_trace *t, int stage);

/* One matrix as text: "title  (rows × cols)", a header of column labels,
 * then one line per row with its label and aligned numbers (-inf shown as
 * such).  row_labels / col_labels may be NULL (rows numbered, columns d0..). */
void dump_text_matrix(FILE *out, const char *title, const float *m, int rows, int cols,
                      char *const *row_labels, char *const *col_labels);

/* The text of one stage without the example header (for lessons). */
void dump_text_stage(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage);

#endif
