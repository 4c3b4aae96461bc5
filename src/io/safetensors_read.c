/* safetensors_read.c - a safetensors file in TransformerLens's names
 * (safetensors.h) into a model, every name, shape, dtype, offset and
 * number checked; the header through jansson. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io/json_read.h"
#include "io/safe_file.h"
#include "io/safetensors.h"

/* The numbers of the largest model (train.h): the file's data at most, and
 * its size cap with the header's cap and the 8 bytes of its length. */
#define ST_MAX_FLOATS                                                                              \
    ((size_t)TRAIN_MAX_VOCAB * TRAIN_MAX_D_MODEL + (size_t)TRAIN_MAX_CONTEXT * TRAIN_MAX_D_MODEL + \
     (size_t)TRAIN_MAX_LAYERS *                                                                    \
         (4u * TRAIN_MAX_D_MODEL * TRAIN_MAX_D_MODEL + 4u * TRAIN_MAX_D_MODEL) +                   \
     (size_t)TRAIN_MAX_OUTPUTS * ((size_t)TRAIN_MAX_VOCAB * TRAIN_MAX_D_MODEL + TRAIN_MAX_VOCAB))
#define ST_FILE_MAX (8 + SAFETENSORS_HEADER_MAX + 4 * ST_MAX_FLOATS)
#define ST_MAX_DIMS 4
#define ST_NAME_MAX (TRAIN_NAME_MAX + 48)

static const char *const qkv[3] = {"Q", "K", "V"};

static uint64_t st_u64(const unsigned char *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

bool safetensors_is_file(const char *path)
{
    struct mha_error err;
    const int fd = safe_file_open(path, &err);
    if (fd < 0)
        return false;
    unsigned char head[9];
    size_t got = 0;
    while (got < sizeof head) {
        const ssize_t n = read(fd, head + got, sizeof head - got);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(fd);
    if (got < sizeof head)
        return false;
    const uint64_t n = st_u64(head);
    return n >= 2 && n <= SAFETENSORS_HEADER_MAX && head[8] == '{';
}

/* A tensor of the header. */
struct st_tensor {
    const char *name;
    int ndim;
    long long shape[ST_MAX_DIMS];
    size_t begin, end; /* bytes into the data */
    bool used;
};

struct st_reader {
    struct jread r;
    const unsigned char *data;
    size_t data_len;
    struct st_tensor *t;
    size_t n;
    json_t *meta; /* "__metadata__", values parsed: key -> JSON value */
};

/* One header entry into t: dtype F32, a shape, offsets inside the data. */
static int st_entry(const struct st_reader *s, const char *name, json_t *v, struct st_tensor *t)
{
    const struct jread *r = &s->r;
    static const char *const keys[] = {"dtype", "shape", "data_offsets", NULL};
    char where[ST_NAME_MAX + 16];
    snprintf(where, sizeof where, "tensor \"%.*s\"", ST_NAME_MAX, name);
    if (!json_is_object(v))
        return jread_fail(r, "%s must be an object {dtype, shape, data_offsets}, not %s", where,
                          jread_type(v));
    if (jread_keys(r, v, where, keys))
        return -1;
    json_t *dtype = json_object_get(v, "dtype"), *shape = json_object_get(v, "shape");
    json_t *off = json_object_get(v, "data_offsets");
    if (!dtype || !shape || !off)
        return jread_fail(r, "%s: missing \"%s\"", where,
                          !dtype   ? "dtype"
                          : !shape ? "shape"
                                   : "data_offsets");
    if (!json_is_string(dtype) || strcmp(json_string_value(dtype), "F32"))
        return jread_fail(r, "%s: dtype %s; this program reads F32 (float32) tensors", where,
                          json_is_string(dtype) ? json_string_value(dtype) : jread_type(dtype));
    if (!json_is_array(shape) || json_array_size(shape) > ST_MAX_DIMS)
        return jread_fail(r, "%s: \"shape\" must be a list of at most %d sizes", where,
                          ST_MAX_DIMS);
    t->name = name;
    t->ndim = (int)json_array_size(shape);
    size_t count = 1;
    for (int i = 0; i < t->ndim; i++) {
        json_t *e = json_array_get(shape, (size_t)i);
        if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > (1 << 20))
            return jread_fail(r, "%s: \"shape\"[%d] must be a size from 0 to %d", where, i,
                              1 << 20);
        t->shape[i] = json_integer_value(e);
        count *= (size_t)t->shape[i];
        if (count > ST_MAX_FLOATS)
            return jread_fail(r, "%s: more numbers than a model holds (at most %zu)", where,
                              (size_t)ST_MAX_FLOATS);
    }
    json_t *b = json_array_get(off, 0), *e = json_array_get(off, 1);
    if (!json_is_array(off) || json_array_size(off) != 2 || !json_is_integer(b) ||
        !json_is_integer(e) || json_integer_value(b) < 0 ||
        json_integer_value(e) < json_integer_value(b))
        return jread_fail(r, "%s: \"data_offsets\" must be [begin, end], 0 <= begin <= end", where);
    if ((unsigned long long)json_integer_value(e) > s->data_len)
        return jread_fail(r,
                          "%s: \"data_offsets\" [%lld, %lld] pass the end of the data (%zu "
                          "bytes after the header)",
                          where, (long long)json_integer_value(b), (long long)json_integer_value(e),
                          s->data_len);
    t->begin = (size_t)json_integer_value(b);
    t->end = (size_t)json_integer_value(e);
    if (t->end - t->begin != 4 * count)
        return jread_fail(r,
                          "%s: \"data_offsets\" [%zu, %zu] hold %zu bytes; its shape needs %zu "
                          "(4 bytes a float32)",
                          where, t->begin, t->end, t->end - t->begin, 4 * count);
    return 0;
}

static int st_by_begin(const void *a, const void *b)
{
    const struct st_tensor *x = a, *y = b;
    return x->begin < y->begin   ? -1
           : x->begin > y->begin ? 1
           : x->end < y->end     ? -1
                                 : x->end > y->end;
}

/* The header's tensors into s->t, their data laid end to end over the
 * whole data, nothing shared, nothing left over; its metadata's values
 * parsed into s->meta. */
static int st_header(struct st_reader *s, json_t *root)
{
    const struct jread *r = &s->r;
    s->t = calloc(json_object_size(root) + 1, sizeof *s->t);
    s->meta = json_object();
    if (!s->t || !s->meta)
        return jread_fail(r, "out of memory");
    const char *key;
    json_t *v;
    json_object_foreach(root, key, v)
    {
        if (strcmp(key, "__metadata__")) {
            if (st_entry(s, key, v, &s->t[s->n]))
                return -1;
            s->n++;
            continue;
        }
        if (!json_is_object(v))
            return jread_fail(r, "\"__metadata__\" must be an object of strings, not %s",
                              jread_type(v));
        const char *mk;
        json_t *mv;
        json_object_foreach(v, mk, mv)
        {
            if (!json_is_string(mv))
                return jread_fail(r, "\"__metadata__\" \"%.64s\" must be a string, not %s", mk,
                                  jread_type(mv));
            json_error_t je;
            json_t *parsed = json_loadb(json_string_value(mv), json_string_length(mv),
                                        JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &je);
            if (!parsed) /* a plain string someone else's tool wrote */
                parsed = json_string(json_string_value(mv));
            json_object_set_new(s->meta, mk, parsed);
        }
    }
    qsort(s->t, s->n, sizeof *s->t, st_by_begin);
    size_t at = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->t[i].begin < at)
            return jread_fail(r,
                              "tensor \"%s\": \"data_offsets\" [%zu, %zu] overlap tensor \"%s\"'s "
                              "[%zu, %zu]",
                              s->t[i].name, s->t[i].begin, s->t[i].end, s->t[i - 1].name,
                              s->t[i - 1].begin, s->t[i - 1].end);
        if (s->t[i].begin > at)
            return jread_fail(r, "bytes %zu to %zu of the data belong to no tensor (before \"%s\")",
                              at, s->t[i].begin, s->t[i].name);
        at = s->t[i].end;
    }
    if (at != s->data_len)
        return jread_fail(r, "bytes %zu to %zu of the data belong to no tensor", at, s->data_len);
    return 0;
}

static struct st_tensor *st_find(const struct st_reader *s, const char *name)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->t[i].name, name))
            return &s->t[i];
    return NULL;
}

static void st_shape_text(const long long *shape, int ndim, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "[");
    for (int i = 0; i < ndim && used < n; i++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", i ? ", " : "", shape[i]);
    if (used < n)
        snprintf(buf + used, n - used, "]");
}

/* The tensor name of ndim sizes (a size of -1 is any), marked used;
 * NULL + err naming it when it is missing or of another shape. */
static struct st_tensor *st_need(struct st_reader *s, const char *name, int ndim,
                                 const long long *shape, const char *why)
{
    struct st_tensor *t = st_find(s, name);
    if (!t) {
        jread_fail(&s->r, "missing tensor \"%s\" (%s)", name, why);
        return NULL;
    }
    bool ok = t->ndim == ndim;
    for (int i = 0; ok && i < ndim; i++)
        ok = shape[i] < 0 || t->shape[i] == shape[i];
    if (!ok) {
        char got[96], want[96];
        st_shape_text(t->shape, t->ndim, got, sizeof got);
        st_shape_text(shape, ndim, want, sizeof want);
        for (char *p = want; (p = strstr(p, "-1")); p++)
            memcpy(p, " *", 2);
        jread_fail(&s->r, "tensor \"%s\" has shape %s; %s is %s", name, got, why, want);
        return NULL;
    }
    t->used = true;
    return t;
}

/* Number i of t (finite, at most JREAD_MAX_ABS in size) into *out. */
static int st_float(const struct st_reader *s, const struct st_tensor *t, size_t i, float *out)
{
    const unsigned char *p = s->data + t->begin + 4 * i;
    const uint32_t u =
        (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    memcpy(out, &u, 4);
    if (isfinite(*out) && fabsf(*out) <= JREAD_MAX_ABS)
        return 0;
    char idx[96];
    long long at[ST_MAX_DIMS];
    size_t rest = i;
    for (int d = t->ndim - 1; d >= 0; d--) {
        at[d] = t->shape[d] ? (long long)(rest % (size_t)t->shape[d]) : 0;
        rest = t->shape[d] ? rest / (size_t)t->shape[d] : 0;
    }
    st_shape_text(at, t->ndim, idx, sizeof idx);
    if (!isfinite(*out))
        return jread_fail(&s->r, "tensor \"%s\" %s is %s; every number must be finite", t->name,
                          idx, isnan(*out) ? "NaN" : "infinite");
    return jread_fail(&s->r, "tensor \"%s\" %s is %g; numbers must be at most %g in size", t->name,
                      idx, (double)*out, JREAD_MAX_ABS);
}

/* A metadata value as an integer in [lo, hi] (1), absent (0), or -1. */
static int st_meta_int(const struct st_reader *s, const char *key, long long lo, long long hi,
                       long long *out)
{
    json_t *v = json_object_get(s->meta, key);
    if (!v)
        return 0;
    if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
        return jread_fail(&s->r, "\"__metadata__\" \"%s\" must be an integer from %lld to %lld",
                          key, lo, hi);
    *out = json_integer_value(v);
    return 1;
}

static int st_meta_bool(const struct st_reader *s, const char *key, bool *out)
{
    json_t *v = json_object_get(s->meta, key);
    if (!v)
        return 0;
    if (!json_is_boolean(v))
        return jread_fail(&s->r, "\"__metadata__\" \"%s\" must be true or false", key);
    *out = json_is_true(v);
    return 1;
}

/* The vocabulary, "vocab" of the metadata: V unique labels. */
static int st_vocab(const struct st_reader *s, struct train_model *m)
{
    json_t *v = json_object_get(s->meta, "vocab");
    if (!v)
        return jread_fail(&s->r, "\"__metadata__\" has no \"vocab\" (the token names, a JSON "
                                 "list as a string)");
    if (!json_is_array(v) || json_array_size(v) != (size_t)m->cfg.vocab)
        return jread_fail(&s->r,
                          "\"__metadata__\" \"vocab\" must be a list of %d token names, one a "
                          "row of embed.W_E",
                          m->cfg.vocab);
    for (int i = 0; i < m->cfg.vocab; i++) {
        char where[48];
        snprintf(where, sizeof where, "\"vocab\"[%d]", i);
        if (jread_label(&s->r, json_array_get(v, (size_t)i), where, m->vocab_names[i],
                        TRAIN_LABEL_MAX))
            return -1;
    }
    return jread_unique_labels(&s->r, (const char(*)[TRAIN_LABEL_MAX])m->vocab_names, m->cfg.vocab,
                               "vocab");
}

/* The outputs: "outputs" of the metadata, else one named "next". */
static int st_outputs(struct st_reader *s, struct train_config *c)
{
    const struct jread *r = &s->r;
    json_t *outs = json_object_get(s->meta, "outputs");
    if (outs && (!json_is_array(outs) || json_array_size(outs) < 1 ||
                 json_array_size(outs) > TRAIN_MAX_OUTPUTS))
        return jread_fail(r,
                          "\"__metadata__\" \"outputs\" must be a list of 1 to %d objects "
                          "{\"name\", \"classes\", \"bias\"}",
                          TRAIN_MAX_OUTPUTS);
    c->n_outputs = outs ? (int)json_array_size(outs) : 1;
    for (int k = 0; k < c->n_outputs; k++) {
        struct train_output_spec *o = &c->outputs[k];
        json_t *e = outs ? json_array_get(outs, (size_t)k) : NULL;
        char where[64];
        snprintf(where, sizeof where, "\"outputs\"[%d]", k);
        static const char *const keys[] = {"name", "classes", "bias", NULL};
        if (e && !json_is_object(e))
            return jread_fail(r, "%s must be an object, not %s", where, jread_type(e));
        if (e && jread_keys(r, e, where, keys))
            return -1;
        json_t *name = e ? json_object_get(e, "name") : NULL;
        if (e && !name)
            return jread_fail(r, "%s: missing \"name\"", where);
        if (name && jread_label(r, name, where, o->name, TRAIN_NAME_MAX))
            return -1;
        if (!name)
            snprintf(o->name, sizeof o->name, "next");
        for (int j = 0; j < k; j++)
            if (!strcmp(c->outputs[j].name, o->name))
                return jread_fail(r, "%s is named \"%s\", as \"outputs\"[%d] is", where, o->name,
                                  j);
        char wn[ST_NAME_MAX];
        if (k == 0)
            snprintf(wn, sizeof wn, "unembed.W_U");
        else
            snprintf(wn, sizeof wn, "outputs.%s.W_U", o->name);
        const struct st_tensor *u = st_find(s, wn);
        if (!u)
            return jread_fail(r,
                              "missing tensor \"%s\" (output \"%s\"'s read-out, [d_model, "
                              "classes])",
                              wn, o->name);
        if (u->ndim != 2 || u->shape[1] < 2 || u->shape[1] > TRAIN_MAX_VOCAB)
            return jread_fail(r, "tensor \"%s\" must be [d_model, classes], classes 2 to %d", wn,
                              TRAIN_MAX_VOCAB);
        o->classes = (int)u->shape[1];
        json_t *cl = e ? json_object_get(e, "classes") : NULL;
        if (cl && (!json_is_integer(cl) || json_integer_value(cl) != o->classes))
            return jread_fail(r, "%s: \"classes\" must be %d, the columns of \"%s\"", where,
                              o->classes, wn);
        json_t *b = e ? json_object_get(e, "bias") : NULL;
        if (b && !json_is_boolean(b))
            return jread_fail(r, "%s: \"bias\" must be true or false", where);
        o->has_bias = !b || json_is_true(b);
    }
    return 0;
}

/* A size of the model the metadata may repeat (a HookedTransformerConfig
 * value): the same as the tensors give, when it is there. */
static int st_agrees(const struct st_reader *s, const char *key, int value, const char *from)
{
    long long v = 0;
    const int rc = st_meta_int(s, key, 0, 1 << 20, &v);
    if (rc < 0)
        return -1;
    if (rc == 1 && v != value)
        return jread_fail(&s->r, "\"__metadata__\" \"%s\" is %lld, but %s gives %d", key, v, from,
                          value);
    return 0;
}

/* The sizes and switches, from the tensors' shapes and the metadata. */
static int st_config(struct st_reader *s, struct train_config *c)
{
    const struct jread *r = &s->r;
    memset(c, 0, sizeof *c);
    const struct st_tensor *e = st_find(s, "embed.W_E"), *p = st_find(s, "pos_embed.W_pos");
    const struct st_tensor *q = st_find(s, "blocks.0.attn.W_Q");
    if (!e || !p || !q)
        return jread_fail(r, "missing tensor \"%s\"",
                          !e   ? "embed.W_E"
                          : !p ? "pos_embed.W_pos"
                               : "blocks.0.attn.W_Q");
    if (e->ndim != 2 || e->shape[0] < 2 || e->shape[0] > TRAIN_MAX_VOCAB || e->shape[1] < 1 ||
        e->shape[1] > TRAIN_MAX_D_MODEL)
        return jread_fail(r,
                          "tensor \"embed.W_E\" must be [d_vocab, d_model]: 2 to %d tokens, "
                          "d_model 1 to %d",
                          TRAIN_MAX_VOCAB, TRAIN_MAX_D_MODEL);
    c->vocab = (int)e->shape[0];
    c->d_model = (int)e->shape[1];
    if (p->ndim != 2 || p->shape[0] < 1 || p->shape[0] > TRAIN_MAX_CONTEXT)
        return jread_fail(r, "tensor \"pos_embed.W_pos\" must be [n_ctx, d_model], n_ctx 1 to %d",
                          TRAIN_MAX_CONTEXT);
    c->context = (int)p->shape[0];
    if (q->ndim != 3 || q->shape[0] < 1 || q->shape[1] != c->d_model ||
        q->shape[0] * q->shape[2] != c->d_model)
        return jread_fail(r,
                          "tensor \"blocks.0.attn.W_Q\" must be [n_heads, d_model, d_head] with "
                          "n_heads x d_head = d_model %d",
                          c->d_model);
    c->heads = (int)q->shape[0];
    char name[ST_NAME_MAX];
    for (c->layers = 1;; c->layers++) {
        snprintf(name, sizeof name, "blocks.%d.attn.W_Q", c->layers);
        if (!st_find(s, name))
            break;
        if (c->layers == TRAIN_MAX_LAYERS)
            return jread_fail(r, "tensor \"%s\": a model has at most %d layers", name,
                              TRAIN_MAX_LAYERS);
    }
    c->causal = c->scaled = true;
    json_t *dir = json_object_get(s->meta, "attention_dir");
    if (dir && json_is_string(dir))
        c->causal = strcmp(json_string_value(dir), "bidirectional") != 0;
    if (st_meta_bool(s, "use_attn_scale", &c->scaled) < 0 ||
        st_meta_bool(s, "causal", &c->causal) < 0 || st_meta_bool(s, "scaled", &c->scaled) < 0 ||
        st_agrees(s, "n_layers", c->layers, "the count of blocks") ||
        st_agrees(s, "d_model", c->d_model, "embed.W_E") ||
        st_agrees(s, "d_vocab", c->vocab, "embed.W_E") ||
        st_agrees(s, "n_ctx", c->context, "pos_embed.W_pos") ||
        st_agrees(s, "context", c->context, "pos_embed.W_pos") ||
        st_agrees(s, "n_heads", c->heads, "blocks.0.attn.W_Q") ||
        st_agrees(s, "d_head", c->d_model / c->heads, "blocks.0.attn.W_Q") || st_outputs(s, c) ||
        st_agrees(s, "d_vocab_out", c->outputs[0].classes, "unembed.W_U"))
        return -1;
    c->has_bias = true; /* the biases are read; the metadata may say they are off */
    return 0;
}

/* rows x cols numbers of t into dst, transposed or not, checked. */
static int st_copy(const struct st_reader *s, const struct st_tensor *t, float *dst)
{
    const size_t n = (t->end - t->begin) / 4;
    for (size_t i = 0; i < n; i++)
        if (st_float(s, t, i, &dst[i]))
            return -1;
    return 0;
}

/* Whether the n floats at a are all zero (a bias a model does not have). */
static bool st_zero(const float *a, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (a[i] != 0.0f)
            return false;
    return true;
}

/* One layer's tensors into a, uncut back to [out][in]. */
static int st_layer(struct st_reader *s, const struct train_config *c, int l, struct mha_params *a,
                    float *work)
{
    const int d = c->d_model, h = c->heads, dh = d / h;
    float *w[3] = {a->w_q, a->w_k, a->w_v}, *b[3] = {a->b_q, a->b_k, a->b_v};
    char name[ST_NAME_MAX];
    const struct st_tensor *t;
    for (int p = 0; p < 3; p++) {
        snprintf(name, sizeof name, "blocks.%d.attn.W_%s", l, qkv[p]);
        if (!(t = st_need(s, name, 3, (const long long[]){h, d, dh},
                          "[n_heads, d_model, d_head]")) ||
            st_copy(s, t, work))
            return -1;
        for (int hh = 0; hh < h; hh++)
            for (int i = 0; i < d; i++)
                for (int j = 0; j < dh; j++)
                    w[p][(size_t)(hh * dh + j) * d + i] = work[((size_t)hh * d + i) * dh + j];
        snprintf(name, sizeof name, "blocks.%d.attn.b_%s", l, qkv[p]);
        if (!(t = st_need(s, name, 2, (const long long[]){h, dh}, "[n_heads, d_head]")) ||
            st_copy(s, t, b[p]))
            return -1;
    }
    snprintf(name, sizeof name, "blocks.%d.attn.W_O", l);
    if (!(t = st_need(s, name, 3, (const long long[]){h, dh, d}, "[n_heads, d_head, d_model]")) ||
        st_copy(s, t, work))
        return -1;
    for (int hh = 0; hh < h; hh++)
        for (int j = 0; j < dh; j++)
            for (int i = 0; i < d; i++)
                a->w_o[(size_t)i * d + hh * dh + j] = work[((size_t)hh * dh + j) * d + i];
    snprintf(name, sizeof name, "blocks.%d.attn.b_O", l);
    if (!(t = st_need(s, name, 1, (const long long[]){d}, "[d_model]")) || st_copy(s, t, a->b_o))
        return -1;
    return 0;
}

/* Every number into m, and the switches the metadata gives. */
static int st_numbers(struct st_reader *s, struct train_model *m, float *work)
{
    struct train_config *c = &m->cfg;
    const int d = c->d_model;
    const struct st_tensor *t;
    if (!(t = st_need(s, "embed.W_E", 2, (const long long[]){c->vocab, d}, "[d_vocab, d_model]")) ||
        st_copy(s, t, m->p.embedding) ||
        !(t = st_need(s, "pos_embed.W_pos", 2, (const long long[]){c->context, d},
                      "[n_ctx, d_model]")) ||
        st_copy(s, t, m->p.positions))
        return -1;
    for (int l = 0; l < train_layers(c); l++)
        if (st_layer(s, c, l, &m->p.attn[l], work))
            return -1;
    bool biases = true;
    if (st_meta_bool(s, "attention_biases", &biases) < 0)
        return -1;
    for (int l = 0; !biases && l < train_layers(c); l++) {
        const struct mha_params *a = &m->p.attn[l];
        const float *b[4] = {a->b_q, a->b_k, a->b_v, a->b_o};
        for (int i = 0; i < 4; i++)
            if (!st_zero(b[i], (size_t)d))
                return jread_fail(&s->r,
                                  "tensor \"blocks.%d.attn.b_%s\" holds numbers other than 0, "
                                  "but \"__metadata__\" \"attention_biases\" is false",
                                  l, i < 3 ? qkv[i] : "O");
    }
    c->has_bias = biases;
    for (int k = 0; k < c->n_outputs; k++) {
        const int cl = c->outputs[k].classes;
        char wn[ST_NAME_MAX], bn[ST_NAME_MAX];
        snprintf(wn, sizeof wn, "%s%s%s", k ? "outputs." : "unembed", k ? c->outputs[k].name : "",
                 ".W_U");
        snprintf(bn, sizeof bn, "%s%s%s", k ? "outputs." : "unembed", k ? c->outputs[k].name : "",
                 ".b_U");
        if (!(t = st_need(s, wn, 2, (const long long[]){d, cl}, "[d_model, classes]")) ||
            st_copy(s, t, work))
            return -1;
        for (int i = 0; i < d; i++)
            for (int j = 0; j < cl; j++)
                m->p.unembed[k][(size_t)j * d + i] = work[(size_t)i * cl + j];
        if (!(t = st_need(s, bn, 1, (const long long[]){cl}, "[classes]")) ||
            st_copy(s, t, m->p.bias[k]))
            return -1;
        if (!c->outputs[k].has_bias && !st_zero(m->p.bias[k], (size_t)cl))
            return jread_fail(&s->r,
                              "tensor \"%s\" holds numbers other than 0, but \"__metadata__\" "
                              "\"outputs\"[%d] has no bias",
                              bn, k);
    }
    for (size_t i = 0; i < s->n; i++)
        if (!s->t[i].used)
            return jread_fail(&s->r,
                              "unknown tensor \"%s\" (a model of %d layer%s, %d output%s has "
                              "embed, pos_embed, blocks.0 .. %d, unembed%s)",
                              s->t[i].name, train_layers(c), train_layers(c) == 1 ? "" : "s",
                              c->n_outputs, c->n_outputs == 1 ? "" : "s", train_layers(c) - 1,
                              c->n_outputs > 1 ? " and outputs.NAME" : "");
    return 0;
}

/* The labels and settings of the metadata: vocab, task, words, sample. */
static int st_labels(const struct st_reader *s, struct train_model *m)
{
    const struct jread *r = &s->r;
    const struct train_config *c = &m->cfg;
    if (st_vocab(s, m))
        return -1;
    json_t *v;
    if ((v = json_object_get(s->meta, "task")) &&
        jread_label(r, v, "\"task\"", m->task, sizeof m->task))
        return -1;
    if ((v = json_object_get(s->meta, "words"))) {
        const char *w = json_string_value(v);
        if (w && !strcmp(w, "lower"))
            m->words = TRAIN_WORDS_LOWER;
        else if (w && !strcmp(w, "case"))
            m->words = TRAIN_WORDS_CASE;
        else
            return jread_fail(r, "\"__metadata__\" \"words\" must be \"lower\" or \"case\"");
    }
    int ids[TRAIN_MAX_CONTEXT], n = c->context;
    for (int t = 0; t < c->context; t++)
        ids[t] = t % c->vocab;
    if ((v = json_object_get(s->meta, "sample"))) {
        if (!json_is_array(v) || json_array_size(v) < 1 || json_array_size(v) > (size_t)c->context)
            return jread_fail(r, "\"__metadata__\" \"sample\" must be a list of 1 to %d token ids",
                              c->context);
        n = (int)json_array_size(v);
        json_t *rows = json_pack("[O]", v);
        const int rc = jread_ids(r, rows, "sample", 1, n, 0, c->vocab - 1, ids);
        json_decref(rows);
        if (rc)
            return -1;
    }
    return train_model_set_sample(m, ids, n, NULL);
}

struct train_model *safetensors_load(const char *path, int batch_cap, struct mha_error *err)
{
    mha_error_clear(err);
    char *buf = NULL;
    size_t len = 0;
    if (safe_file_read(path, ST_FILE_MAX, "safetensors file", &buf, &len, err))
        return NULL;
    struct train_model *m = safetensors_load_bytes(buf, len, path, batch_cap, err);
    free(buf);
    return m;
}

struct train_model *safetensors_load_bytes(const void *bytes, size_t len, const char *name,
                                           int batch_cap, struct mha_error *err)
{
    mha_error_clear(err);
    struct st_reader s = {.r = {.name = name, .err = err}};
    const struct jread *r = &s.r;
    const char *buf = bytes;
    json_t *root = NULL;
    struct train_model *m = NULL;
    float *work = NULL;
    if (len > ST_FILE_MAX) {
        jread_fail(r, "%zu bytes; a safetensors file of a model holds at most %zu", len,
                   (size_t)ST_FILE_MAX);
        return NULL;
    }
    if (len < 8) {
        jread_fail(r,
                   "%zu bytes; a safetensors file begins with 8 bytes giving its header's "
                   "length",
                   len);
        goto fail;
    }
    const uint64_t n = st_u64((const unsigned char *)buf);
    if (n > SAFETENSORS_HEADER_MAX) {
        jread_fail(r, "the header's length is %llu bytes; at most %zu are read",
                   (unsigned long long)n, SAFETENSORS_HEADER_MAX);
        goto fail;
    }
    if (n > len - 8) {
        jread_fail(r,
                   "the header's length, %llu bytes, passes the end of the file (%zu bytes "
                   "after the length)",
                   (unsigned long long)n, len - 8);
        goto fail;
    }
    json_error_t je;
    root = json_loadb(buf + 8, (size_t)n, JSON_REJECT_DUPLICATES, &je);
    if (!root || !json_is_object(root)) {
        jread_fail(r, "the header is not a JSON object%s%s", root ? "" : ": ", root ? "" : je.text);
        goto fail;
    }
    s.data = (const unsigned char *)buf + 8 + n;
    s.data_len = len - 8 - (size_t)n;
    struct train_config cfg;
    if (st_header(&s, root) || st_config(&s, &cfg))
        goto fail;
    if (!(m = train_model_new(&cfg, batch_cap, err))) {
        mha_error_at(err, name, 0, 0);
        goto fail;
    }
    const size_t most =
        (size_t)(cfg.vocab > cfg.d_model ? cfg.vocab : cfg.d_model) * (size_t)cfg.d_model;
    if (!(work = malloc(sizeof(float) * most))) {
        jread_fail(r, "out of memory");
        goto fail;
    }
    for (int k = 0; k < cfg.n_outputs; k++)
        if ((size_t)cfg.outputs[k].classes * (size_t)cfg.d_model > most) {
            float *more =
                realloc(work, sizeof(float) * (size_t)cfg.outputs[k].classes * (size_t)cfg.d_model);
            if (!more) {
                jread_fail(r, "out of memory");
                goto fail;
            }
            work = more;
        }
    if (st_numbers(&s, m, work) || st_labels(&s, m))
        goto fail;
    train_model_sample_forward(m, NULL);
    goto done;
fail:
    train_model_free(m);
    m = NULL;
done:
    free(work);
    free(s.t);
    json_decref(s.meta);
    json_decref(root);
    return m;
}
