/* cli_opt_rows.h - what the option table's row files (cli_opt_rows*.c)
 * write a row with: what parsing does with an option's value. */
#ifndef MHA_CLI_OPT_ROWS_H
#define MHA_CLI_OPT_ROWS_H

#include <stddef.h>

#include "cli/cli.h"
#include "cli/cli_opt_table.h"

/* What parsing does with an option's value: keeps it (a string) or notes
 * the option (a flag) in struct cli_options, or leaves it to the code of
 * cli_options.c (FIELD_OF checks the field's type); AGAIN for a help entry of an option named
 * again. */
#define FIELD_OF(f, type) /* its offset; a field of another type does not compile */               \
    (offsetof(struct cli_options, f) + 0 * sizeof(&((struct cli_options *)0)->f == (type *)0))
#define TEXT(f) CLI_STORE_TEXT, FIELD_OF(f, const char *)
#define FLAG(f) CLI_STORE_FLAG, FIELD_OF(f, bool)
#define CODE CLI_STORE_CODE, 0
#define AGAIN CLI_STORE_CODE, 0

#endif
