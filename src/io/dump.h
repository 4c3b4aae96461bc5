/* dump.h - print stages of a trace for people (text) and programs (json). */
#ifndef MHA_DUMP_H
#define MHA_DUMP_H

#include <stdio.h>

#include "mha.h"

enum dump_format { DUMP_FORMAT_TEXT, DUMP_FORMAT_JSON };

/* "text" / "json" -> format; -1 if unknown. */
int dump_format_from_name(const char *name);

/* Which stages to print: one stage, or all of them (stage == -1). */
#define DUMP_ALL (-1)

/* Print the stage (or DUMP_ALL) of t, computed from ex, to out.
 * json: one object; "config" always, then the stage's key(s).
 * text: each matrix with its name, shape, row labels and aligned numbers.
 * Returns 0, or -1 on a write error. */
int dump_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
               enum dump_format fmt);

/* The JSON document as a newly allocated string (caller frees with free()). */
char *dump_json_string(const struct mha_example *ex, const struct mha_trace *t, int stage);

#endif
