/* safetensors.c - a trained model as a safetensors file in
 * TransformerLens's names (safetensors.h), written and read in this
 * program's own C, the header through jansson. */
#include "io/safetensors.h"

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/safe_file.h"

#define ST_NAME_MAX (TRAIN_NAME_MAX + 48)

static const char *const qkv[3] = {"Q", "K", "V"};

/* ---- writing ---- */

struct st_writer {
    json_t *header;
    float *data;
    size_t used; /* floats written */
};

/* The header's entry for the next tensor, of n floats in shape. */
static float *st_add(struct st_writer *w, const char *name, int ndim, const int *shape)
{
    size_t n = 1;
    json_t *dims = json_array();
    for (int i = 0; i < ndim; i++) {
        n *= (size_t)shape[i];
        json_array_append_new(dims, json_integer(shape[i]));
    }
    json_t *e = json_object();
    json_object_set_new(e, "dtype", json_string("F32"));
    json_object_set_new(e, "shape", dims);
    json_object_set_new(
        e, "data_offsets",
        json_pack("[I, I]", (json_int_t)(w->used * 4), (json_int_t)((w->used + n) * 4)));
    json_object_set_new(w->header, name, e);
    float *at = w->data + w->used;
    w->used += n;
    return at;
}

/* value as the JSON text a metadata entry holds (value is taken). */
static void st_meta(json_t *meta, const char *key, json_t *value)
{
    char *text = json_dumps(value, JSON_ENCODE_ANY | JSON_COMPACT);
    json_object_set_new(meta, key, json_string(text ? text : "null"));
    free(text);
    json_decref(value);
}

static json_t *st_metadata(const struct train_model *m)
{
    const struct train_config *c = &m->cfg;
    json_t *meta = json_object();
    json_t *vocab = json_array();
    for (int i = 0; i < c->vocab; i++)
        json_array_append_new(vocab, json_string(m->vocab_names[i]));
    st_meta(meta, "vocab", vocab);
    st_meta(meta, "causal", json_boolean(c->causal));
    st_meta(meta, "scaled", json_boolean(c->scaled));
    st_meta(meta, "context", json_integer(c->context));
    if (m->task[0])
        st_meta(meta, "task", json_string(m->task));
    if (m->words != TRAIN_WORDS_NONE)
        st_meta(meta, "words", json_string(m->words == TRAIN_WORDS_LOWER ? "lower" : "case"));
    if (m->sample_len > 0) {
        json_t *s = json_array();
        for (int t = 0; t < m->sample_len; t++)
            json_array_append_new(s, json_integer(m->sample[t]));
        st_meta(meta, "sample", s);
    }
    json_t *outs = json_array();
    for (int k = 0; k < c->n_outputs; k++)
        json_array_append_new(outs,
                              json_pack("{s:s, s:i, s:b}", "name", c->outputs[k].name, "classes",
                                        c->outputs[k].classes, "bias", c->outputs[k].has_bias));
    st_meta(meta, "outputs", outs);
    st_meta(meta, "attention_biases", json_boolean(c->has_bias));
    /* HookedTransformerConfig */
    st_meta(meta, "n_layers", json_integer(train_layers(c)));
    st_meta(meta, "d_model", json_integer(c->d_model));
    st_meta(meta, "n_heads", json_integer(c->heads));
    st_meta(meta, "d_head", json_integer(c->d_model / c->heads));
    st_meta(meta, "n_ctx", json_integer(c->context));
    st_meta(meta, "d_vocab", json_integer(c->vocab));
    st_meta(meta, "d_vocab_out", json_integer(c->outputs[0].classes));
    st_meta(meta, "attn_only", json_true());
    st_meta(meta, "normalization_type", json_null());
    st_meta(meta, "positional_embedding_type", json_string("standard"));
    st_meta(meta, "attention_dir", json_string(c->causal ? "causal" : "bidirectional"));
    st_meta(meta, "use_attn_scale", json_boolean(c->scaled));
    return meta;
}

/* One layer's tensors: a's [out][in] weights cut by head. */
static void st_layer(struct st_writer *w, const struct train_config *c, int l,
                     const struct mha_params *a)
{
    const int d = c->d_model, h = c->heads, dh = d / h;
    const float *wq[3] = {a->w_q, a->w_k, a->w_v}, *bq[3] = {a->b_q, a->b_k, a->b_v};
    char name[ST_NAME_MAX];
    for (int p = 0; p < 3; p++) {
        snprintf(name, sizeof name, "blocks.%d.attn.W_%s", l, qkv[p]);
        float *W = st_add(w, name, 3, (const int[]){h, d, dh});
        for (int hh = 0; hh < h; hh++) /* W[hh][i][j] = w[hh·dh + j][i] */
            for (int i = 0; i < d; i++)
                for (int j = 0; j < dh; j++)
                    W[((size_t)hh * d + i) * dh + j] = wq[p][(size_t)(hh * dh + j) * d + i];
    }
    snprintf(name, sizeof name, "blocks.%d.attn.W_O", l);
    float *W = st_add(w, name, 3, (const int[]){h, dh, d});
    for (int hh = 0; hh < h; hh++) /* W[hh][j][i] = w_o[i][hh·dh + j] */
        for (int j = 0; j < dh; j++)
            for (int i = 0; i < d; i++)
                W[((size_t)hh * dh + j) * d + i] = a->w_o[(size_t)i * d + hh * dh + j];
    for (int p = 0; p < 3; p++) {
        snprintf(name, sizeof name, "blocks.%d.attn.b_%s", l, qkv[p]);
        memcpy(st_add(w, name, 2, (const int[]){h, dh}), bq[p], sizeof(float) * (size_t)d);
    }
    snprintf(name, sizeof name, "blocks.%d.attn.b_O", l);
    memcpy(st_add(w, name, 1, (const int[]){d}), a->b_o, sizeof(float) * (size_t)d);
}

/* Output k's read-out, transposed to [d_model, classes], and its bias. */
static void st_output(struct st_writer *w, const struct train_model *m, int k)
{
    const int d = m->cfg.d_model, cl = m->cfg.outputs[k].classes;
    char wn[ST_NAME_MAX], bn[ST_NAME_MAX];
    if (k == 0) {
        snprintf(wn, sizeof wn, "unembed.W_U");
        snprintf(bn, sizeof bn, "unembed.b_U");
    } else {
        snprintf(wn, sizeof wn, "outputs.%s.W_U", m->cfg.outputs[k].name);
        snprintf(bn, sizeof bn, "outputs.%s.b_U", m->cfg.outputs[k].name);
    }
    float *U = st_add(w, wn, 2, (const int[]){d, cl});
    for (int i = 0; i < d; i++)
        for (int j = 0; j < cl; j++)
            U[(size_t)i * cl + j] = m->p.unembed[k][(size_t)j * d + i];
    memcpy(st_add(w, bn, 1, (const int[]){cl}), m->p.bias[k], sizeof(float) * (size_t)cl);
}

unsigned char *safetensors_bytes(const struct train_model *m, size_t *len)
{
    const struct train_config *c = &m->cfg;
    struct st_writer w = {.header = json_object(), .data = malloc(sizeof(float) * m->n_params)};
    unsigned char *out = NULL;
    char *text = NULL;
    if (!w.header || !w.data)
        goto done;
    json_object_set_new(w.header, "__metadata__", st_metadata(m));
    memcpy(st_add(&w, "embed.W_E", 2, (const int[]){c->vocab, c->d_model}), m->p.embedding,
           sizeof(float) * (size_t)c->vocab * (size_t)c->d_model);
    memcpy(st_add(&w, "pos_embed.W_pos", 2, (const int[]){c->context, c->d_model}), m->p.positions,
           sizeof(float) * (size_t)c->context * (size_t)c->d_model);
    for (int l = 0; l < train_layers(c); l++)
        st_layer(&w, c, l, &m->p.attn[l]);
    for (int k = 0; k < c->n_outputs; k++)
        st_output(&w, m, k);
    text = json_dumps(w.header, JSON_COMPACT | JSON_PRESERVE_ORDER);
    if (!text)
        goto done;
    const size_t n = strlen(text), padded = (n + 7) / 8 * 8;
    *len = 8 + padded + 4 * w.used;
    out = malloc(*len);
    if (!out)
        goto done;
    for (int i = 0; i < 8; i++)
        out[i] = (unsigned char)((uint64_t)padded >> (8 * i));
    memcpy(out + 8, text, n);
    memset(out + 8 + n, ' ', padded - n);
    unsigned char *p = out + 8 + padded;
    for (size_t i = 0; i < w.used; i++) {
        uint32_t u;
        memcpy(&u, &w.data[i], 4);
        for (int b = 0; b < 4; b++)
            *p++ = (unsigned char)(u >> (8 * b));
    }
done:
    free(text);
    free(w.data);
    json_decref(w.header);
    return out;
}

int safetensors_save(const struct train_model *m, const char *path, struct mha_error *err)
{
    mha_error_clear(err);
    size_t len = 0;
    unsigned char *bytes = safetensors_bytes(m, &len);
    if (!bytes) {
        mha_error_set(err, "out of memory");
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    const int rc = safe_file_write(path, bytes, len, err);
    free(bytes);
    return rc;
}
