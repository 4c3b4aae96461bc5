/* json_read.h - checked reading of JSON fields for the training files
 * (model_io.c, batch_io.c): every failure names the file and the field, row
 * and column, and what was expected.  Internal to src/io. */
#ifndef MHA_JSON_READ_H
#define MHA_JSON_READ_H

#include <jansson.h>
#include <stdbool.h>

#include "engine/mha_error.h"

struct jread {
    const char *name; /* file name for messages */
    struct mha_error *err;
};

/* Fill err with the file and the printf-style text; returns -1. */
int jread_fail(const struct jread *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* "an array", "a string", ... */
const char *jread_type(const json_t *v);

/* Parse text as a JSON object; NULL + err with line and column. */
json_t *jread_parse(const struct jread *r, const char *text);
/* Largest training file read (bytes). */
#define JREAD_MAX_FILE ((size_t)256 << 20)

/* Read the regular file whole (safe_file_read: no FIFOs or devices, at most
 * JREAD_MAX_FILE bytes; what names the kind of file) and parse it; NULL +
 * err. */
json_t *jread_file(const struct jread *r, const char *path, const char *what);

/* Every key of obj is one of the NULL-terminated known list; where names
 * the object ("the model", "outputs[1]"). */
int jread_keys(const struct jread *r, json_t *obj, const char *where, const char *const *known);

/* An integer in [lo, hi]: 1 when present (*out set), 0 when absent, -1 bad. */
int jread_int(const struct jread *r, json_t *obj, const char *field, long lo, long hi, long *out);
/* A boolean: 1 present, 0 absent, -1 bad. */
int jread_bool(const struct jread *r, json_t *obj, const char *field, bool *out);
/* A required field (present), else -1 naming it. */
json_t *jread_need(const struct jread *r, json_t *obj, const char *field, const char *what);

/* A label: a non-empty string of at most max-1 bytes, no control
 * characters, copied into out.  where names it in messages. */
int jread_label(const struct jread *r, json_t *v, const char *where, char *out, size_t max);

/* rows x cols finite numbers (|x| <= 1e6); rows_why/cols_why explain the
 * expected sizes ("V, the vocabulary", "d_model"). */
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
