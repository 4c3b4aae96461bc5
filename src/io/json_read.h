/* json_read.h - checked reading of JSON fields for the example and training
 * files (example_io.c, model_io.c, batch_io.c): every failure names the file
 * and the field, row and column, and what was expected.  Internal to src/io. */
#ifndef MHA_JSON_READ_H
#define MHA_JSON_READ_H

#include <jansson.h>
#include <stdbool.h>

#include "engine/mha_error.h"
#include "train/train.h"
#include "io/json_scan.h"

/* Largest magnitude accepted for a number: keeps every product of the
 * pipeline far from float overflow even at d_model 2048. */
#define JREAD_MAX_ABS 1e6

/* How a message names a matrix's number: "\"w_q\" row 1, column 2" (the
 * training files) or "\"w_q\"[1][2]" (example files). */
enum jread_cells { JREAD_ROW_COLUMN, JREAD_BRACKETS };

struct jread {
    const char *name; /* file name for messages */
    struct mha_error *err;
    enum jread_cells cells;
};

/* Fill err with the file and the printf-style text; returns -1. */
int jread_fail(const struct jread *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* "an array", "a string", ... */
const char *jread_type(const json_t *v);

/* A task file holds at most this many rows, and this many token ids and
 * targets in all (rows x length x (1 + outputs)): 8192 rows of 64 tokens
 * with 3 outputs, or 131072 rows of 8 tokens with 1 output. */
#define JREAD_TASK_MAX_ROWS (1 << 17)
#define JREAD_TASK_MAX_IDS (1 << 21)

/* The limits of each kind of training file, derived from the maxima of
 * train.h (json_read.c shows the sums). */
extern const struct json_limits jread_model_limits, jread_batch_limits, jread_task_limits;

/* Read the regular file (no FIFOs or devices) within lim and parse it
 * (json_scan_load: refused at the first excess); NULL + err. */
json_t *jread_file(const struct jread *r, const char *path, const struct json_limits *lim);

/* Every key of obj is one of the NULL-terminated known list; where names
 * the object ("the model", "outputs[1]"). */
int jread_keys(const struct jread *r, json_t *obj, const char *where, const char *const *known);
/* The first key of obj not in the NULL-terminated known list, or NULL. */
const char *jread_unknown_key(json_t *obj, const char *const *known);
/* The known list as "a, b, c" in buf (n bytes); returns buf. */
const char *jread_key_list(const char *const *known, char *buf, size_t n);

/* An integer in [lo, hi]: 1 when present (*out set), 0 when absent, -1 bad. */
int jread_int(const struct jread *r, json_t *obj, const char *field, long long lo, long long hi,
              long long *out);
/* A boolean: 1 present, 0 absent, -1 bad. */
int jread_bool(const struct jread *r, json_t *obj, const char *field, bool *out);
/* A required field (present), else -1 naming it. */
json_t *jread_need(const struct jread *r, json_t *obj, const char *field, const char *what);

/* A non-empty string without NUL characters, of fewer than max bytes (max
 * 0: any length), and no character a terminal would obey: "<where> contains
 * <the character><unsafe_tail>" names one.  where names it in messages. */
int jread_text(const struct jread *r, json_t *v, const char *where, size_t max,
               const char *unsafe_tail);

/* A label: a non-empty string of at most max-1 bytes, no control
 * characters, copied into out.  where names it in messages. */
int jread_label(const struct jread *r, json_t *v, const char *where, char *out, size_t max);

/* Every one of the n labels differs from the others; else -1 naming both
 * entries of field ("\"vocab\"[3] is \"A\", the same as \"vocab\"[1]"). */
int jread_unique_labels(const struct jread *r, const char (*labels)[TRAIN_LABEL_MAX], int n,
                        const char *field);

/* A finite number of at most JREAD_MAX_ABS in size; where names it. */
int jread_number(const struct jread *r, json_t *v, const char *where, float *out);
/* The message for the number x at where, out of range; returns -1. */
int jread_out_of_range(const struct jread *r, const char *where, double x);

/* rows x cols finite numbers (|x| <= 1e6); rows_why/cols_why explain the
 * expected sizes ("V, the vocabulary", "d_model"); r->cells says how a
 * number is named. */
int jread_matrix(const struct jread *r, json_t *arr, const char *field, int rows, int cols,
                 const char *rows_why, const char *cols_why, float *dst);
int jread_vector(const struct jread *r, json_t *arr, const char *field, int n, const char *why,
                 float *dst);

/* rows x cols integer ids in [lo, hi] (lo may be -1 for "no target");
 * rows is checked when >= 0, else taken from the array (*rows_out); cols
 * likewise (the first row sets it; every row must match). */
int jread_ids(const struct jread *r, json_t *arr, const char *field, int rows, int cols, int lo,
              int hi, int *dst);
/* The shape of an array of equal-length integer rows: rows and cols, each
 * within max_rows / max_cols.  -1 + err naming the first wrong row. */
int jread_ids_shape(const struct jread *r, json_t *arr, const char *field, int max_rows,
                    int max_cols, int *rows, int *cols);

#endif
