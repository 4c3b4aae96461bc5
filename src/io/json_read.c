/* json_read.c - checked JSON field readers for the training files. */
#include "io/json_read.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/text_check.h"
#include "train/train.h"

int jread_fail(const struct jread *r, const char *fmt, ...)
{
    if (r->err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->err->text, sizeof r->err->text, fmt, ap);
        va_end(ap);
        mha_error_at(r->err, r->name, 0, 0);
    }
    return -1;
}

const char *jread_type(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "an array";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
        return "an integer";
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        return "null";
    }
    return "a value";
}

/* ---- the limits of each kind ---------------------------------------------------------
 *
 * Sums over the largest file of each kind (train.h): how many numbers and
 * lists it holds, the most entries in one list and how deep it nests.  The
 * size allows 48 bytes a number ("-1.2345678901234567e-05, " indented five
 * levels deep) and 32 bytes an id or a list, 400 bytes a label
 * (json_scan.h) and 1 MiB for the rest (field names, descriptions).  jansson's tree costs about 48
 * bytes a number and 150 bytes a list, so none of these reads more than about 150 MB. */
#define V TRAIN_MAX_VOCAB
#define T TRAIN_MAX_CONTEXT
#define D TRAIN_MAX_D_MODEL
#define K TRAIN_MAX_OUTPUTS
#define MIB ((size_t)1 << 20)

/* model: rows of d numbers: embedding V, positions T, w_q..w_o 4 d,
 * each output's unembed V (classes); vectors: b_q..b_o, each output's bias,
 * the sample */
#define MODEL_ROWS ((size_t)V + T + 4 * D + K * V)
#define MODEL_NUMBERS (MODEL_ROWS * D + 4 * D + K * V + T)
const struct json_limits jread_model_limits = {
    .what = "model file",
    .max_bytes = MODEL_NUMBERS * JSON_SCAN_NUMBER_BYTES + (size_t)V * JSON_SCAN_LABEL_BYTES + MIB,
    .max_depth = 5, /* the file, outputs, an output, unembed, a row */
    .max_items = V > D ? (V > T ? V : T) : (D > T ? D : T),
    .max_values = MODEL_NUMBERS + MODEL_ROWS + V + 256,
    .max_containers = MODEL_ROWS + 64,
};

/* batch: tokens and each output's targets, TRAIN_MAX_BATCH rows of T ids */
#define BATCH_ROWS ((size_t)TRAIN_MAX_BATCH * (1 + K))
#define BATCH_IDS (BATCH_ROWS * T)
const struct json_limits jread_batch_limits = {
    .what = "batch file",
    .max_bytes = (BATCH_IDS + BATCH_ROWS) * JSON_SCAN_ID_BYTES + MIB,
    .max_depth = 4, /* the file, targets, an output's rows, a row */
    .max_items = TRAIN_MAX_BATCH,
    .max_values = BATCH_IDS + BATCH_ROWS + 64,
    .max_containers = BATCH_ROWS + 64,
};

/* task: a batch of up to JREAD_TASK_MAX_ROWS rows and JREAD_TASK_MAX_IDS
 * ids in all, the vocabulary and the outputs */
#define TASK_ROWS ((size_t)JREAD_TASK_MAX_ROWS * (1 + K))
const struct json_limits jread_task_limits = {
    .what = "task file",
    .max_bytes = ((size_t)JREAD_TASK_MAX_IDS + TASK_ROWS) * JSON_SCAN_ID_BYTES +
                 (size_t)V * JSON_SCAN_LABEL_BYTES + MIB,
    .max_depth = 4,
    .max_items = JREAD_TASK_MAX_ROWS,
    .max_values = JREAD_TASK_MAX_IDS + TASK_ROWS + V + 4 * K + 64,
    .max_containers = TASK_ROWS + K + 64,
};

static json_t *object_root(const struct jread *r, json_t *root)
{
    if (root && !json_is_object(root)) {
        jread_fail(r, "the file must hold a JSON object { ... }, not %s", jread_type(root));
        json_decref(root);
        return NULL;
    }
    return root;
}

json_t *jread_file(const struct jread *r, const char *path, const struct json_limits *lim)
{
    /* only a regular file, never blocking, refused at the first excess */
    struct mha_error local;
    return object_root(r,
                       json_scan_load(path, lim, JSON_REJECT_DUPLICATES, r->err ? r->err : &local));
}

const char *jread_unknown_key(json_t *obj, const char *const *known)
{
    const char *key;
    json_t *value;
    json_object_foreach(obj, key, value)
    {
        bool ok = false;
        for (const char *const *k = known; *k && !ok; k++)
            ok = !strcmp(*k, key);
        if (!ok)
            return key;
    }
    return NULL;
}

const char *jread_key_list(const char *const *known, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (const char *const *k = known; *k && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k == known ? "" : ", ", *k);
    return buf;
}

int jread_keys(const struct jread *r, json_t *obj, const char *where, const char *const *known)
{
    const char *key = jread_unknown_key(obj, known);
    if (!key)
        return 0;
    char list[512];
    return jread_fail(r, "%s: unknown field \"%s\" (known: %s)", where, key,
                      jread_key_list(known, list, sizeof list));
}

int jread_int(const struct jread *r, json_t *obj, const char *field, long long lo, long long hi,
              long long *out)
{
    json_t *v = json_object_get(obj, field);
    if (!v)
        return 0;
    if (!json_is_integer(v))
        return jread_fail(r, "\"%s\" must be an integer, not %s", field, jread_type(v));
    const long long n = json_integer_value(v);
    if (n < lo || n > hi)
        return jread_fail(r, "\"%s\" is %lld; it must be between %lld and %lld", field, n, lo, hi);
    *out = n;
    return 1;
}

int jread_bool(const struct jread *r, json_t *obj, const char *field, bool *out)
{
    json_t *v = json_object_get(obj, field);
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return jread_fail(r, "\"%s\" must be true or false, not %s", field, jread_type(v));
    *out = json_is_true(v);
    return 1;
}

json_t *jread_need(const struct jread *r, json_t *obj, const char *field, const char *what)
{
    json_t *v = json_object_get(obj, field);
    if (!v)
        jread_fail(r, "missing field \"%s\" (%s)", field, what);
    return v;
}

int jread_text(const struct jread *r, json_t *v, const char *where, size_t max,
               const char *unsafe_tail)
{
    if (!json_is_string(v))
        return jread_fail(r, "%s must be a string, not %s", where, jread_type(v));
    const char *s = json_string_value(v);
    const size_t n = json_string_length(v);
    if (n == 0 || strlen(s) != n)
        return jread_fail(r, "%s must be a non-empty string without NUL characters", where);
    if (max && n >= max)
        return jread_fail(r, "%s is %zu bytes long; at most %zu are allowed", where, n, max - 1);
    char what[96];
    if (mha_text_find_unsafe(s, n, false, what, sizeof what) < n)
        return jread_fail(r, "%s contains %s%s", where, what, unsafe_tail);
    return 0;
}

int jread_label(const struct jread *r, json_t *v, const char *where, char *out, size_t max)
{
    if (jread_text(r, v, where, max, ", which a terminal would obey instead of showing"))
        return -1;
    memcpy(out, json_string_value(v), json_string_length(v) + 1);
    return 0;
}

int jread_out_of_range(const struct jread *r, const char *where, double x)
{
    return jread_fail(r, "%s is %g; numbers must be finite and at most %g in size", where, x,
                      JREAD_MAX_ABS);
}

int jread_number(const struct jread *r, json_t *v, const char *where, float *out)
{
    if (!json_is_number(v))
        return jread_fail(r, "%s must be a number, not %s", where, jread_type(v));
    const double x = json_number_value(v);
    if (!isfinite(x) || fabs(x) > JREAD_MAX_ABS)
        return jread_out_of_range(r, where, x);
    *out = (float)x;
    return 0;
}

/* Entry i (j < 0) or row i, column j of field, named as r->cells says. */
static int read_number(const struct jread *r, json_t *v, const char *field, int i, int j,
                       float *out)
{
    char where[128];
    if (j < 0)
        snprintf(where, sizeof where, "\"%s\"[%d]", field, i);
    else if (r->cells == JREAD_BRACKETS)
        snprintf(where, sizeof where, "\"%s\"[%d][%d]", field, i, j);
    else
        snprintf(where, sizeof where, "\"%s\" row %d, column %d", field, i, j);
    return jread_number(r, v, where, out);
}

int jread_matrix(const struct jread *r, json_t *arr, const char *field, int rows, int cols,
                 const char *rows_why, const char *cols_why, float *dst)
{
    if (!json_is_array(arr))
        return jread_fail(r, "\"%s\" must be an array of rows, not %s", field, jread_type(arr));
    if (json_array_size(arr) != (size_t)rows)
        return jread_fail(r, "\"%s\" has %zu rows; expected %d (%s)", field, json_array_size(arr),
                          rows, rows_why);
    for (int i = 0; i < rows; i++) {
        json_t *row = json_array_get(arr, (size_t)i);
        if (!json_is_array(row))
            return jread_fail(r, "\"%s\" row %d must be an array of numbers, not %s", field, i,
                              jread_type(row));
        if (json_array_size(row) != (size_t)cols)
            return jread_fail(r, "\"%s\" row %d has %zu numbers; expected %d (%s)", field, i,
                              json_array_size(row), cols, cols_why);
        for (int j = 0; j < cols; j++)
            if (read_number(r, json_array_get(row, (size_t)j), field, i, j,
                            &dst[(size_t)i * (size_t)cols + (size_t)j]))
                return -1;
    }
    return 0;
}

int jread_vector(const struct jread *r, json_t *arr, const char *field, int n, const char *why,
                 float *dst)
{
    if (!json_is_array(arr))
        return jread_fail(r, "\"%s\" must be an array of %d numbers, not %s", field, n,
                          jread_type(arr));
    if (json_array_size(arr) != (size_t)n)
        return jread_fail(r, "\"%s\" has %zu numbers; expected %d (%s)", field,
                          json_array_size(arr), n, why);
    for (int i = 0; i < n; i++)
        if (read_number(r, json_array_get(arr, (size_t)i), field, i, -1, &dst[i]))
            return -1;
    return 0;
}

int jread_ids_shape(const struct jread *r, json_t *arr, const char *field, int max_rows,
                    int max_cols, int *rows, int *cols)
{
    if (!json_is_array(arr))
        return jread_fail(r, "\"%s\" must be an array of rows of token ids, not %s", field,
                          jread_type(arr));
    const size_t n = json_array_size(arr);
    if (n < 1 || n > (size_t)max_rows)
        return jread_fail(r, "\"%s\" has %zu rows; it must have between 1 and %d", field, n,
                          max_rows);
    json_t *first = json_array_get(arr, 0);
    if (!json_is_array(first))
        return jread_fail(r, "\"%s\" row 0 must be an array of ids, not %s", field,
                          jread_type(first));
    const size_t len = json_array_size(first);
    if (len < 1 || len > (size_t)max_cols)
        return jread_fail(r,
                          "\"%s\" row 0 has %zu tokens; sequences must have between 1 and %d "
                          "(the context)",
                          field, len, max_cols);
    *rows = (int)n;
    *cols = (int)len;
    return 0;
}

int jread_ids(const struct jread *r, json_t *arr, const char *field, int rows, int cols, int lo,
              int hi, int *dst)
{
    if (!json_is_array(arr))
        return jread_fail(r, "\"%s\" must be an array of rows, not %s", field, jread_type(arr));
    if (json_array_size(arr) != (size_t)rows)
        return jread_fail(r, "\"%s\" has %zu rows; expected %d (one per sequence)", field,
                          json_array_size(arr), rows);
    for (int i = 0; i < rows; i++) {
        json_t *row = json_array_get(arr, (size_t)i);
        if (!json_is_array(row))
            return jread_fail(r, "\"%s\" row %d must be an array of ids, not %s", field, i,
                              jread_type(row));
        if (json_array_size(row) != (size_t)cols)
            return jread_fail(r, "\"%s\" row %d has %zu entries; expected %d like row 0", field, i,
                              json_array_size(row), cols);
        for (int j = 0; j < cols; j++) {
            json_t *v = json_array_get(row, (size_t)j);
            if (!json_is_integer(v))
                return jread_fail(r, "\"%s\" row %d, column %d must be an integer id, not %s",
                                  field, i, j, jread_type(v));
            const json_int_t id = json_integer_value(v);
            if (id < lo || id > hi)
                return jread_fail(r,
                                  "\"%s\" row %d, column %d: id %lld is out of range; "
                                  "expected %d..%d",
                                  field, i, j, (long long)id, lo, hi);
            dst[(size_t)i * (size_t)cols + (size_t)j] = (int)id;
        }
    }
    return 0;
}

int jread_unique_labels(const struct jread *r, const char (*labels)[TRAIN_LABEL_MAX], int n,
                        const char *field)
{
    for (int i = 1; i < n; i++)
        for (int j = 0; j < i; j++)
            if (!strcmp(labels[i], labels[j])) {
                char shown[TRAIN_LABEL_MAX * 4];
                return jread_fail(r,
                                  "\"%s\"[%d] is \"%s\", the same as \"%s\"[%d]; every token "
                                  "needs a name of its own",
                                  field, i, mha_text_escape(labels[i], shown, sizeof shown), field,
                                  j);
            }
    return 0;
}
