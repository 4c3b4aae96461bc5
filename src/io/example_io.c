/* example_io.c - reading and writing JSON example files. */
#include "io/example_io.h"
#include "io/example_stream.h"
#include "io/json_read.h"
#include "io/json_scan.h"
#include "io/safe_file.h"
#include "engine/text_check.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const known_keys[] = {
    "tokens", "key_tokens", "d_model", "num_heads", "causal", "scaled",      "seed",
    "query",  "key",        "value",   "w_q",       "w_k",    "w_v",         "w_o",
    "b_q",    "b_k",        "b_v",     "b_o",       "mask",   "description", NULL,
};

struct reader {
    struct jread j;            /* the file's name and err; numbers named "w_q"[i][j] */
    struct ex_side *side;      /* a large file's matrices, read in a second pass; or NULL */
    bool copy_key, copy_value; /* self-attention: key (and value) are the query */
};

static int check_keys(const struct reader *r, json_t *root)
{
    const char *key = jread_unknown_key(root, known_keys);
    if (!key)
        return 0;
    char shown[128], list[512];
    return jread_fail(&r->j, "unknown field \"%s\" (known fields: %s)",
                      mha_text_escape(key, shown, sizeof shown),
                      jread_key_list(known_keys, list, sizeof list));
}

/* A list of token labels; returns its length (>= 1) or -1. */
static int check_tokens(const struct reader *r, json_t *arr, const char *field)
{
    if (!json_is_array(arr))
        return jread_fail(&r->j, "\"%s\" must be an array of strings, not %s", field,
                          jread_type(arr));
    size_t n = json_array_size(arr);
    if (n < 1 || n > MHA_MAX_TOKENS)
        return jread_fail(&r->j, "\"%s\" has %zu entries; it must have between 1 and %d", field, n,
                          MHA_MAX_TOKENS);
    for (size_t i = 0; i < n; i++) {
        char where[96];
        snprintf(where, sizeof where, "\"%s\"[%zu]", field, i);
        if (jread_text(&r->j, json_array_get(arr, i), where, 0, "; token labels are plain text"))
            return -1;
    }
    return (int)n;
}

/* A bias the first pass took out of the skeleton: the messages read_vector
 * gives, and its numbers to come. */
static int side_vector(const struct reader *r, struct ex_side_field *sf, const char *field, int n,
                       float *dst)
{
    const struct ex_side_row *row = &sf->row[0];
    if (row->len != n)
        return jread_fail(&r->j, "\"%s\" has %zu numbers; expected %d (d_model)", field,
                          (size_t)row->len, n);
    if (row->bad >= 0) {
        char where[96];
        snprintf(where, sizeof where, "\"%s\"[%d]", field, row->bad);
        return jread_out_of_range(&r->j, where, row->bad_value);
    }
    sf->dst = dst;
    return 0;
}

/* The same for a matrix (read_matrix's messages). */
static int side_matrix(const struct reader *r, struct ex_side_field *sf, const char *field,
                       int rows, int cols, const char *what_rows, const char *what_cols, float *dst)
{
    if (sf->rows != rows)
        return jread_fail(&r->j, "\"%s\" has %zu rows; expected %d (%s)", field, (size_t)sf->rows,
                          rows, what_rows);
    for (int i = 0; i < rows; i++) {
        const struct ex_side_row *row = &sf->row[i];
        if (row->not_list)
            return jread_fail(&r->j, "\"%s\" row %d must be an array of numbers, not %s", field, i,
                              row->not_list == 1 ? "an integer" : "a number");
        if (row->len != cols)
            return jread_fail(&r->j, "\"%s\" row %d has %zu numbers; expected %d (%s)", field, i,
                              (size_t)row->len, cols, what_cols);
        if (row->bad >= 0) {
            char where[96];
            snprintf(where, sizeof where, "\"%s\"[%d][%d]", field, i, row->bad);
            return jread_out_of_range(&r->j, where, row->bad_value);
        }
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
    return jread_vector(&r->j, arr, field, n, "d_model", dst);
}

/* A rows x cols matrix of numbers; what_rows/what_cols explain the shape. */
static int read_matrix(const struct reader *r, json_t *arr, const char *field, int rows, int cols,
                       const char *what_rows, const char *what_cols, float *dst)
{
    struct ex_side_field *sf = ex_side_get(r->side, field);
    if (sf)
        return side_matrix(r, sf, field, rows, cols, what_rows, what_cols, dst);
    return jread_matrix(&r->j, arr, field, rows, cols, what_rows, what_cols, dst);
}

/* The mask as read in the first pass of a large file. */
static int side_mask(const struct reader *r, int lq, int lk, unsigned char *dst)
{
    const struct ex_side_mask *m = &r->side->mask;
    if (m->rows != lq)
        return jread_fail(&r->j, "\"mask\" must be an array of %d rows (one per query token)", lq);
    for (int i = 0; i < lq; i++) {
        if (m->len[i] != lk)
            return jread_fail(&r->j, "\"mask\" row %d must hold %d entries (one per key token)", i,
                              lk);
        if (m->bad[i] >= 0)
            return jread_fail(&r->j, "\"mask\"[%d][%d] must be 0 (masked) or 1 (kept)", i,
                              m->bad[i]);
    }
    memcpy(dst, m->v, (size_t)lq * (size_t)lk);
    return 0;
}

static int read_mask(const struct reader *r, json_t *arr, int lq, int lk, unsigned char *dst)
{
    if (r->side && r->side->mask.present)
        return side_mask(r, lq, lk, dst);
    if (!json_is_array(arr) || json_array_size(arr) != (size_t)lq)
        return jread_fail(&r->j, "\"mask\" must be an array of %d rows (one per query token)", lq);
    for (int i = 0; i < lq; i++) {
        json_t *row = json_array_get(arr, (size_t)i);
        if (!json_is_array(row) || json_array_size(row) != (size_t)lk)
            return jread_fail(&r->j, "\"mask\" row %d must hold %d entries (one per key token)", i,
                              lk);
        for (int j = 0; j < lk; j++) {
            json_t *v = json_array_get(row, (size_t)j);
            int keep;
            if (json_is_boolean(v))
                keep = json_is_true(v);
            else if (json_is_integer(v) &&
                     (json_integer_value(v) == 0 || json_integer_value(v) == 1))
                keep = (int)json_integer_value(v);
            else
                return jread_fail(&r->j, "\"mask\"[%d][%d] must be 0 (masked) or 1 (kept)", i, j);
            dst[(size_t)i * (size_t)lk + (size_t)j] = (unsigned char)keep;
        }
    }
    return 0;
}

/* The fields that size the example, read before it is made. */
struct shape {
    json_t *tokens, *key_tokens; /* key_tokens NULL: self-attention */
    int lq, lk;
    long long d_model, heads, seed;
};

/* "tokens" and "key_tokens". */
static int read_tokens(const struct reader *r, json_t *root, struct shape *s)
{
    s->tokens = json_object_get(root, "tokens");
    if (!s->tokens)
        return jread_fail(&r->j,
                          "\"tokens\" is missing: give the token labels, e.g. [\"The\", \"cat\"]");
    if ((s->lq = check_tokens(r, s->tokens, "tokens")) < 0)
        return -1;
    s->key_tokens = json_object_get(root, "key_tokens");
    s->lk = s->lq;
    if (s->key_tokens && (s->lk = check_tokens(r, s->key_tokens, "key_tokens")) < 0)
        return -1;
    return 0;
}

/* "d_model" (else the length of the first "query" row), "num_heads" and "seed". */
static int read_sizes(const struct reader *r, json_t *root, struct shape *s)
{
    s->d_model = 0;
    s->heads = 0;
    s->seed = 42;
    int got = jread_int(&r->j, root, "d_model", 1, MHA_MAX_D_MODEL, &s->d_model);
    if (got < 0)
        return -1;
    if (!got) {
        json_t *query = json_object_get(root, "query");
        json_t *row0 = json_is_array(query) ? json_array_get(query, 0) : NULL;
        if (!json_is_array(row0) || json_array_size(row0) < 1)
            return jread_fail(&r->j, "\"d_model\" is missing: give it, or give \"query\" rows it "
                                     "can be read from");
        s->d_model = (long long)json_array_size(row0);
    }
    if ((got = jread_int(&r->j, root, "num_heads", 1, MHA_MAX_D_MODEL, &s->heads)) <= 0) {
        if (got == 0)
            jread_fail(&r->j,
                       "\"num_heads\" is missing: give the number of heads (a divisor of "
                       "d_model %lld)",
                       s->d_model);
        return -1;
    }
    return jread_int(&r->j, root, "seed", 0, 4294967295LL, &s->seed) < 0 ? -1 : 0;
}

/* A new example of shape s with its generated numbers, "causal", "scaled"
 * and the token labels; NULL + err. */
static struct mha_example *new_example(const struct reader *r, json_t *root, const struct shape *s)
{
    struct mha_error size_err;
    mha_error_clear(&size_err);
    if (mha_check_sizes(s->lq, s->lk, (int)s->d_model, (int)s->heads, &size_err)) {
        jread_fail(&r->j, "%s", size_err.text);
        return NULL;
    }
    const bool cross = s->key_tokens != NULL;
    struct mha_example *ex =
        mha_example_new(s->lq, s->lk, (int)s->d_model, (int)s->heads, cross, r->j.err);
    if (!ex) {
        if (r->j.err)
            mha_error_at(r->j.err, r->j.name, 0, 0);
        return NULL;
    }
    mha_example_generate(ex, (uint32_t)s->seed);
    if (jread_bool(&r->j, root, "causal", &ex->causal) < 0 ||
        jread_bool(&r->j, root, "scaled", &ex->scaled) < 0)
        goto bad;
    for (int i = 0; i < s->lq; i++)
        if (mha_example_set_token(ex, false, i, json_string_value(json_array_get(s->tokens, i))))
            goto oom;
    for (int j = 0; cross && j < s->lk; j++)
        if (mha_example_set_token(ex, true, j, json_string_value(json_array_get(s->key_tokens, j))))
            goto oom;
    return ex;
oom:
    jread_fail(&r->j, "out of memory");
bad:
    mha_example_free(ex);
    return NULL;
}

/* "query", "key" and "value"; what self-attention copies is noted in r. */
static int read_inputs(struct reader *r, json_t *root, struct mha_example *ex)
{
    const int d = ex->d_model;
    const bool cross = ex->cross;
    json_t *query = json_object_get(root, "query");
    json_t *key = json_object_get(root, "key"), *value = json_object_get(root, "value");
    const char *q_rows = "one per token", *k_rows = cross ? "one per key token" : "one per token";
    if (query && read_matrix(r, query, "query", ex->lq, d, q_rows, "d_model", ex->query))
        return -1;
    if (key && read_matrix(r, key, "key", ex->lk, d, k_rows, "d_model", ex->key))
        return -1;
    if (value && read_matrix(r, value, "value", ex->lk, d, k_rows, "d_model", ex->value))
        return -1;
    /* self-attention: keys and values are the query (copied once the numbers are in) */
    r->copy_key = query && !key && !cross;
    r->copy_value = !value && (key || (query && !cross));
    return 0;
}

/* The weights and biases, the mask and the description. */
static int read_params(const struct reader *r, json_t *root, struct mha_example *ex)
{
    static const char *const w_names[4] = {"w_q", "w_k", "w_v", "w_o"};
    static const char *const b_names[4] = {"b_q", "b_k", "b_v", "b_o"};
    float *w[4] = {ex->w_q, ex->w_k, ex->w_v, ex->w_o};
    float *b[4] = {ex->b_q, ex->b_k, ex->b_v, ex->b_o};
    const int d = ex->d_model;
    for (int i = 0; i < 4; i++) {
        json_t *wv = json_object_get(root, w_names[i]);
        if (wv && read_matrix(r, wv, w_names[i], d, d, "d_model outputs", "d_model inputs", w[i]))
            return -1;
        json_t *bv = json_object_get(root, b_names[i]);
        if (bv) {
            if (read_vector(r, bv, b_names[i], d, b[i]))
                return -1;
            ex->has_bias = true;
        }
    }
    json_t *mask = json_object_get(root, "mask");
    if (mask) {
        if (read_mask(r, mask, ex->lq, ex->lk, ex->mask))
            return -1;
        ex->has_mask = true;
    }
    json_t *desc = json_object_get(root, "description");
    if (desc && !json_is_string(desc))
        return jread_fail(&r->j, "\"description\" must be a string, not %s", jread_type(desc));
    return 0;
}

static struct mha_example *from_json(struct reader *r, json_t *root)
{
    if (!json_is_object(root)) {
        jread_fail(&r->j, "the example must be a JSON object, not %s", jread_type(root));
        return NULL;
    }
    struct shape s;
    if (check_keys(r, root) || read_tokens(r, root, &s) || read_sizes(r, root, &s))
        return NULL;
    struct mha_example *ex = new_example(r, root, &s);
    if (ex && (read_inputs(r, root, ex) || read_params(r, root, ex))) {
        mha_example_free(ex);
        return NULL;
    }
    return ex;
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
    struct reader r = {.j = {.name = name, .err = err, .cells = JREAD_BRACKETS}};
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
    struct reader r = {.j = {.name = path, .err = err, .cells = JREAD_BRACKETS}, .side = &side};
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
