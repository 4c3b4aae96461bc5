/* example_io.c - reading and writing JSON example files. */
#include "io/example_io.h"
#include "io/example_stream.h"
#include "io/json_scan.h"
#include "io/safe_file.h"
#include "engine/text_check.h"

#include <stdarg.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Largest magnitude accepted for an input number: keeps every product of the
 * pipeline far from float overflow even at d_model 2048. */
#define MHA_IO_MAX_ABS 1e6

static const char *const known_keys[] = {
    "tokens", "key_tokens", "d_model", "num_heads", "causal", "scaled",      "seed",
    "query",  "key",        "value",   "w_q",       "w_k",    "w_v",         "w_o",
    "b_q",    "b_k",        "b_v",     "b_o",       "mask",   "description",
};

struct reader {
    const char *name; /* file name for messages */
    struct mha_error *err;
    struct ex_side *side;      /* a large file's matrices, read in a second pass; or NULL */
    bool copy_key, copy_value; /* self-attention: key (and value) are the query */
};

static int fail(const struct reader *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int fail(const struct reader *r, const char *fmt, ...)
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

static const char *type_name(const json_t *v)
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

static int check_keys(const struct reader *r, json_t *root)
{
    const char *key;
    json_t *value;
    char shown[128];
    json_object_foreach(root, key, value)
    {
        bool known = false;
        for (size_t i = 0; i < sizeof known_keys / sizeof known_keys[0]; i++)
            if (strcmp(key, known_keys[i]) == 0)
                known = true;
        if (!known)
            return fail(r,
                        "unknown field \"%s\" (known fields: tokens, key_tokens, d_model, "
                        "num_heads, causal, scaled, seed, query, key, value, w_q, w_k, w_v, "
                        "w_o, b_q, b_k, b_v, b_o, mask, description)",
                        mha_text_escape(key, shown, sizeof shown));
    }
    return 0;
}

/* An integer field in [lo, hi]; *out untouched when absent. Returns 1 if present. */
static int get_int(const struct reader *r, json_t *root, const char *field, long long lo,
                   long long hi, long long *out)
{
    json_t *v = json_object_get(root, field);
    if (!v)
        return 0;
    if (!json_is_integer(v))
        return fail(r, "\"%s\" must be an integer, not %s", field, type_name(v));
    long long n = json_integer_value(v);
    if (n < lo || n > hi)
        return fail(r, "\"%s\" is %lld; it must be between %lld and %lld", field, n, lo, hi);
    *out = n;
    return 1;
}

static int get_bool(const struct reader *r, json_t *root, const char *field, bool *out)
{
    json_t *v = json_object_get(root, field);
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return fail(r, "\"%s\" must be true or false, not %s", field, type_name(v));
    *out = json_is_true(v);
    return 1;
}

/* A list of token labels; returns its length (>= 1) or -1. */
static int check_tokens(const struct reader *r, json_t *arr, const char *field)
{
    if (!json_is_array(arr))
        return fail(r, "\"%s\" must be an array of strings, not %s", field, type_name(arr));
    size_t n = json_array_size(arr);
    if (n < 1 || n > MHA_MAX_TOKENS)
        return fail(r, "\"%s\" has %zu entries; it must have between 1 and %d", field, n,
                    MHA_MAX_TOKENS);
    for (size_t i = 0; i < n; i++) {
        json_t *t = json_array_get(arr, i);
        if (!json_is_string(t))
            return fail(r, "\"%s\"[%zu] must be a string, not %s", field, i, type_name(t));
        const char *s = json_string_value(t);
        if (s[0] == '\0' || strlen(s) != json_string_length(t))
            return fail(r, "\"%s\"[%zu] must be a non-empty string without NUL characters", field,
                        i);
        char what[64];
        if (mha_text_find_unsafe(s, strlen(s), false, what, sizeof what) != strlen(s))
            return fail(r, "\"%s\"[%zu] contains %s; token labels are plain text", field, i, what);
    }
    return (int)n;
}

static int read_number(const struct reader *r, json_t *v, const char *where, float *out)
{
    if (!json_is_number(v))
        return fail(r, "%s must be a number, not %s", where, type_name(v));
    double x = json_number_value(v);
    if (!isfinite(x) || fabs(x) > MHA_IO_MAX_ABS)
        return fail(r, "%s is %g; numbers must be finite and at most %g in size", where, x,
                    MHA_IO_MAX_ABS);
    *out = (float)x;
    return 0;
}

/* A bias the first pass took out of the skeleton: the messages read_vector
 * gives, and its numbers to come. */
static int side_vector(const struct reader *r, struct ex_side_field *sf, const char *field, int n,
                       float *dst)
{
    const struct ex_side_row *row = &sf->row[0];
    if (row->len != n)
        return fail(r, "\"%s\" has %zu numbers; expected %d (d_model)", field, (size_t)row->len, n);
    if (row->bad >= 0)
        return fail(r, "\"%s\"[%d] is %g; numbers must be finite and at most %g in size", field,
                    row->bad, row->bad_value, MHA_IO_MAX_ABS);
    sf->dst = dst;
    return 0;
}

/* The same for a matrix (read_matrix's messages). */
static int side_matrix(const struct reader *r, struct ex_side_field *sf, const char *field,
                       int rows, int cols, const char *what_rows, const char *what_cols, float *dst)
{
    if (sf->rows != rows)
        return fail(r, "\"%s\" has %zu rows; expected %d (%s)", field, (size_t)sf->rows, rows,
                    what_rows);
    for (int i = 0; i < rows; i++) {
        const struct ex_side_row *row = &sf->row[i];
        if (row->not_list)
            return fail(r, "\"%s\" row %d must be an array of numbers, not %s", field, i,
                        row->not_list == 1 ? "an integer" : "a number");
        if (row->len != cols)
            return fail(r, "\"%s\" row %d has %zu numbers; expected %d (%s)", field, i,
                        (size_t)row->len, cols, what_cols);
        if (row->bad >= 0)
            return fail(r, "\"%s\"[%d][%d] is %g; numbers must be finite and at most %g in size",
                        field, i, row->bad, row->bad_value, MHA_IO_MAX_ABS);
    }
    sf->dst = dst;
    return 0;
}

/* A vector of exactly n numbers. */
static int read_vector(const struct reader *r, json_t *arr, const char *field, int n, float *dst)
{
    struct ex_side_field *sf = ex_side_get(r->side, field);
    if (sf)
        return side_vector(r, sf, field, n, dst);
    if (!json_is_array(arr))
        return fail(r, "\"%s\" must be an array of %d numbers, not %s", field, n, type_name(arr));
    if (json_array_size(arr) != (size_t)n)
        return fail(r, "\"%s\" has %zu numbers; expected %d (d_model)", field, json_array_size(arr),
                    n);
    for (int i = 0; i < n; i++) {
        char where[96];
        snprintf(where, sizeof where, "\"%s\"[%d]", field, i);
        if (read_number(r, json_array_get(arr, (size_t)i), where, &dst[i]))
            return -1;
    }
    return 0;
}

/* A rows x cols matrix of numbers; what_rows/what_cols explain the shape. */
static int read_matrix(const struct reader *r, json_t *arr, const char *field, int rows, int cols,
                       const char *what_rows, const char *what_cols, float *dst)
{
    struct ex_side_field *sf = ex_side_get(r->side, field);
    if (sf)
        return side_matrix(r, sf, field, rows, cols, what_rows, what_cols, dst);
    if (!json_is_array(arr))
        return fail(r, "\"%s\" must be an array of rows, not %s", field, type_name(arr));
    if (json_array_size(arr) != (size_t)rows)
        return fail(r, "\"%s\" has %zu rows; expected %d (%s)", field, json_array_size(arr), rows,
                    what_rows);
    for (int i = 0; i < rows; i++) {
        json_t *row = json_array_get(arr, (size_t)i);
        if (!json_is_array(row))
            return fail(r, "\"%s\" row %d must be an array of numbers, not %s", field, i,
                        type_name(row));
        if (json_array_size(row) != (size_t)cols)
            return fail(r, "\"%s\" row %d has %zu numbers; expected %d (%s)", field, i,
                        json_array_size(row), cols, what_cols);
        for (int j = 0; j < cols; j++) {
            char where[96];
            snprintf(where, sizeof where, "\"%s\"[%d][%d]", field, i, j);
            if (read_number(r, json_array_get(row, (size_t)j), where,
                            &dst[(size_t)i * (size_t)cols + (size_t)j]))
                return -1;
        }
    }
    return 0;
}

static int read_mask(const struct reader *r, json_t *arr, int lq, int lk, unsigned char *dst)
{
    if (r->side && r->side->mask.present) { /* read in the first pass */
        const struct ex_side_mask *m = &r->side->mask;
        if (m->rows != lq)
            return fail(r, "\"mask\" must be an array of %d rows (one per query token)", lq);
        for (int i = 0; i < lq; i++) {
            if (m->len[i] != lk)
                return fail(r, "\"mask\" row %d must hold %d entries (one per key token)", i, lk);
            if (m->bad[i] >= 0)
                return fail(r, "\"mask\"[%d][%d] must be 0 (masked) or 1 (kept)", i, m->bad[i]);
        }
        memcpy(dst, m->v, (size_t)lq * (size_t)lk);
        return 0;
    }
    if (!json_is_array(arr) || json_array_size(arr) != (size_t)lq)
        return fail(r, "\"mask\" must be an array of %d rows (one per query token)", lq);
    for (int i = 0; i < lq; i++) {
        json_t *row = json_array_get(arr, (size_t)i);
        if (!json_is_array(row) || json_array_size(row) != (size_t)lk)
            return fail(r, "\"mask\" row %d must hold %d entries (one per key token)", i, lk);
        for (int j = 0; j < lk; j++) {
            json_t *v = json_array_get(row, (size_t)j);
            int keep;
            if (json_is_boolean(v))
                keep = json_is_true(v);
            else if (json_is_integer(v) &&
                     (json_integer_value(v) == 0 || json_integer_value(v) == 1))
                keep = (int)json_integer_value(v);
            else
                return fail(r, "\"mask\"[%d][%d] must be 0 (masked) or 1 (kept)", i, j);
            dst[(size_t)i * (size_t)lk + (size_t)j] = (unsigned char)keep;
        }
    }
    return 0;
}

static struct mha_example *from_json(struct reader *r, json_t *root)
{
    if (!json_is_object(root)) {
        fail(r, "the example must be a JSON object, not %s", type_name(root));
        return NULL;
    }
    if (check_keys(r, root))
        return NULL;

    json_t *tokens = json_object_get(root, "tokens");
    if (!tokens) {
        fail(r, "\"tokens\" is missing: give the token labels, e.g. [\"The\", \"cat\"]");
        return NULL;
    }
    int lq = check_tokens(r, tokens, "tokens");
    if (lq < 0)
        return NULL;
    json_t *key_tokens = json_object_get(root, "key_tokens");
    int lk = lq;
    if (key_tokens && (lk = check_tokens(r, key_tokens, "key_tokens")) < 0)
        return NULL;
    const bool cross = key_tokens != NULL;

    json_t *query = json_object_get(root, "query");
    long long d_model = 0, heads = 0, seed = 42;
    int got = get_int(r, root, "d_model", 1, MHA_MAX_D_MODEL, &d_model);
    if (got < 0)
        return NULL;
    if (!got) {
        json_t *row0 = json_is_array(query) ? json_array_get(query, 0) : NULL;
        if (!json_is_array(row0) || json_array_size(row0) < 1) {
            fail(r, "\"d_model\" is missing: give it, or give \"query\" rows it can be read "
                    "from");
            return NULL;
        }
        d_model = (long long)json_array_size(row0);
    }
    if ((got = get_int(r, root, "num_heads", 1, MHA_MAX_D_MODEL, &heads)) <= 0) {
        if (got == 0)
            fail(r,
                 "\"num_heads\" is missing: give the number of heads (a divisor of "
                 "d_model %lld)",
                 d_model);
        return NULL;
    }
    if (get_int(r, root, "seed", 0, 4294967295LL, &seed) < 0)
        return NULL;

    struct mha_error size_err;
    mha_error_clear(&size_err);
    if (mha_check_sizes(lq, lk, (int)d_model, (int)heads, &size_err)) {
        fail(r, "%s", size_err.text);
        return NULL;
    }
    struct mha_example *ex = mha_example_new(lq, lk, (int)d_model, (int)heads, cross, r->err);
    if (!ex) {
        if (r->err)
            mha_error_at(r->err, r->name, 0, 0);
        return NULL;
    }
    mha_example_generate(ex, (uint32_t)seed);
    if (get_bool(r, root, "causal", &ex->causal) < 0 ||
        get_bool(r, root, "scaled", &ex->scaled) < 0)
        goto bad;

    for (int i = 0; i < lq; i++)
        if (mha_example_set_token(ex, false, i, json_string_value(json_array_get(tokens, i))))
            goto oom;
    for (int j = 0; cross && j < lk; j++)
        if (mha_example_set_token(ex, true, j, json_string_value(json_array_get(key_tokens, j))))
            goto oom;

    const int d = (int)d_model;
    json_t *key = json_object_get(root, "key"), *value = json_object_get(root, "value");
    const char *q_rows = "one per token", *k_rows = cross ? "one per key token" : "one per token";
    if (query && read_matrix(r, query, "query", lq, d, q_rows, "d_model", ex->query))
        goto bad;
    if (key && read_matrix(r, key, "key", lk, d, k_rows, "d_model", ex->key))
        goto bad;
    if (value && read_matrix(r, value, "value", lk, d, k_rows, "d_model", ex->value))
        goto bad;
    /* self-attention: keys and values are the query (copied once the numbers are in) */
    r->copy_key = query && !key && !cross;
    r->copy_value = !value && (key || (query && !cross));

    static const char *const w_names[4] = {"w_q", "w_k", "w_v", "w_o"};
    static const char *const b_names[4] = {"b_q", "b_k", "b_v", "b_o"};
    float *w[4] = {ex->w_q, ex->w_k, ex->w_v, ex->w_o};
    float *b[4] = {ex->b_q, ex->b_k, ex->b_v, ex->b_o};
    for (int i = 0; i < 4; i++) {
        json_t *wv = json_object_get(root, w_names[i]);
        if (wv && read_matrix(r, wv, w_names[i], d, d, "d_model outputs", "d_model inputs", w[i]))
            goto bad;
        json_t *bv = json_object_get(root, b_names[i]);
        if (bv) {
            if (read_vector(r, bv, b_names[i], d, b[i]))
                goto bad;
            ex->has_bias = true;
        }
    }
    json_t *mask = json_object_get(root, "mask");
    if (mask) {
        if (read_mask(r, mask, lq, lk, ex->mask))
            goto bad;
        ex->has_mask = true;
    }
    json_t *desc = json_object_get(root, "description");
    if (desc && !json_is_string(desc)) {
        fail(r, "\"description\" must be a string, not %s", type_name(desc));
        goto bad;
    }
    return ex;
oom:
    fail(r, "out of memory");
bad:
    mha_example_free(ex);
    return NULL;
}

static const struct json_limits example_limits = {
    .what = "example file",
    .max_bytes = MHA_EXAMPLE_MAX_BYTES,
    .max_depth = 3, /* the file, a matrix, a row */
    .max_items = MHA_MAX_TOKENS > MHA_MAX_D_MODEL ? MHA_MAX_TOKENS : MHA_MAX_D_MODEL,
    .max_values = MHA_EXAMPLE_MAX_NUMBERS + MHA_EXAMPLE_MAX_ROWS + 2 * MHA_MAX_TOKENS + 64,
    .max_containers = MHA_EXAMPLE_MAX_ROWS + 64,
};

static void copy_self(const struct reader *r, struct mha_example *ex)
{
    const size_t d = (size_t)ex->d_model;
    if (r->copy_key)
        memcpy(ex->key, ex->query, (size_t)ex->lq * d * sizeof(float));
    if (r->copy_value)
        memcpy(ex->value, ex->key, (size_t)ex->lk * d * sizeof(float));
}

static struct mha_example *load_root(json_t *root, const char *name, struct mha_error *err)
{
    if (!root)
        return NULL;
    struct reader r = {name, err, NULL, false, false};
    struct mha_example *ex = from_json(&r, root);
    json_decref(root);
    if (ex)
        copy_self(&r, ex);
    return ex;
}

/* Files from this size up are read in two passes (example_stream.h). */
#define STREAM_FROM ((off_t)1 << 20)

/* The two passes; NULL with *fell_back when the file is to be read whole. */
static struct mha_example *load_streamed(int fd, const char *path, struct mha_error *err,
                                         bool *fell_back)
{
    *fell_back = true;
    struct ex_side side;
    struct mha_example *ex = NULL;
    struct reader r = {path, err, &side, false, false};
    json_t *root = NULL;
    int rc = ex_stream_scan(fd, &example_limits, &side);
    if (rc == 0) {
        json_error_t je; /* jansson names a mistake where it is in the file itself */
        root = json_loads(side.skeleton, JSON_REJECT_DUPLICATES, &je);
        rc = !root || !json_is_object(root) || !json_object_get(root, "d_model");
    }
    if (rc == 0) {
        ex = from_json(&r, root);
        if (!ex) /* refused: its buffers are gone, the numbers are only checked */
            for (int i = 0; i < EX_SIDE_FIELDS; i++)
                side.f[i].dst = NULL;
        /* the numbers, and a number jansson would refuse, which it names first */
        if ((rc = ex_stream_fill(fd, &side)) != 0) {
            mha_example_free(ex);
            ex = NULL;
        }
    }
    json_decref(root);
    /* the limits scanner, whose message comes first where it found an excess */
    const int verdict = ex_stream_verdict(&side, path, err);
    if (verdict != 0) {
        mha_example_free(ex);
        ex = NULL;
        rc = verdict;
    }
    if (ex)
        copy_self(&r, ex);
    ex_side_free(&side);
    *fell_back = rc > 0;
    return ex;
}

struct mha_example *mha_example_load_streamed(const char *path, struct mha_error *err,
                                              bool *streamed)
{
    mha_error_clear(err);
    *streamed = false;
    const int fd = safe_file_open(path, err);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) != 0 || (uintmax_t)st.st_size > MHA_EXAMPLE_MAX_BYTES) {
        close(fd); /* the whole reading says so */
        return load_root(json_scan_load(path, &example_limits, JSON_REJECT_DUPLICATES, err), path,
                         err);
    }
    bool fell_back;
    struct mha_example *ex = load_streamed(fd, path, err, &fell_back);
    close(fd);
    if (!fell_back) {
        *streamed = true;
        return ex;
    }
    mha_error_clear(err);
    return load_root(json_scan_load(path, &example_limits, JSON_REJECT_DUPLICATES, err), path, err);
}

struct mha_example *mha_example_load(const char *path, struct mha_error *err)
{
    mha_error_clear(err);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= STREAM_FROM) {
        bool streamed;
        return mha_example_load_streamed(path, err, &streamed);
    }
    return load_root(json_scan_load(path, &example_limits, JSON_REJECT_DUPLICATES, err), path, err);
}

struct mha_example *mha_example_load_string(const char *text, const char *name,
                                            struct mha_error *err)
{
    mha_error_clear(err);
    name = name ? name : "<string>";
    return load_root(json_scan_loads(text, name, &example_limits, JSON_REJECT_DUPLICATES, err),
                     name, err);
}

static json_t *matrix_json(const float *m, int rows, int cols)
{
    json_t *arr = json_array();
    for (int i = 0; i < rows; i++) {
        json_t *row = json_array();
        for (int j = 0; j < cols; j++)
            json_array_append_new(row, json_real(m[(size_t)i * (size_t)cols + (size_t)j]));
        json_array_append_new(arr, row);
    }
    return arr;
}

static json_t *vector_json(const float *v, int n)
{
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, json_real(v[i]));
    return arr;
}

static json_t *tokens_json(char *const *labels, int n)
{
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, json_string(labels[i]));
    return arr;
}

char *mha_example_to_string(const struct mha_example *ex)
{
    const int d = ex->d_model;
    json_t *root = json_object();
    json_object_set_new(root, "tokens", tokens_json(ex->tokens, ex->lq));
    if (ex->cross)
        json_object_set_new(root, "key_tokens", tokens_json(ex->key_tokens, ex->lk));
    json_object_set_new(root, "d_model", json_integer(d));
    json_object_set_new(root, "num_heads", json_integer(ex->heads));
    json_object_set_new(root, "causal", json_boolean(ex->causal));
    json_object_set_new(root, "scaled", json_boolean(ex->scaled));
    json_object_set_new(root, "seed", json_integer(ex->seed));
    json_object_set_new(root, "query", matrix_json(ex->query, ex->lq, d));
    json_object_set_new(root, "key", matrix_json(ex->key, ex->lk, d));
    json_object_set_new(root, "value", matrix_json(ex->value, ex->lk, d));
    json_object_set_new(root, "w_q", matrix_json(ex->w_q, d, d));
    json_object_set_new(root, "w_k", matrix_json(ex->w_k, d, d));
    json_object_set_new(root, "w_v", matrix_json(ex->w_v, d, d));
    json_object_set_new(root, "w_o", matrix_json(ex->w_o, d, d));
    if (ex->has_bias) {
        json_object_set_new(root, "b_q", vector_json(ex->b_q, d));
        json_object_set_new(root, "b_k", vector_json(ex->b_k, d));
        json_object_set_new(root, "b_v", vector_json(ex->b_v, d));
        json_object_set_new(root, "b_o", vector_json(ex->b_o, d));
    }
    if (ex->has_mask) {
        json_t *arr = json_array();
        for (int i = 0; i < ex->lq; i++) {
            json_t *row = json_array();
            for (int j = 0; j < ex->lk; j++)
                json_array_append_new(row, json_integer(ex->mask[(size_t)i * (size_t)ex->lk + j]));
            json_array_append_new(arr, row);
        }
        json_object_set_new(root, "mask", arr);
    }
    char *s = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(root);
    return s;
}

int io_save_text(const char *path, char *text, struct mha_error *err)
{
    mha_error_clear(err);
    if (!text)
        return mha_error_set(err, "out of memory");
    const size_t len = strlen(text);
    text[len] = '\n'; /* the terminating NUL becomes the file's last newline */
    const int rc = safe_file_write(path, text, len + 1, err);
    free(text);
    return rc;
}

int mha_example_save(const struct mha_example *ex, const char *path, struct mha_error *err)
{
    return io_save_text(path, mha_example_to_string(ex), err);
}
