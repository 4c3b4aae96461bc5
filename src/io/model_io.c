/* model_io.c - model files <-> struct train_model, and the --grad output. */
#include "io/model_io.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/example_io.h"
#include "io/json_read.h"
#include "io/safetensors.h"

static const char *const model_keys[] = {
    "vocab",     "d_model",     "num_heads", "context",  "causal",    "scaled",
    "embedding", "positions",   "w_q",       "w_k",      "w_v",       "w_o",
    "b_q",       "b_k",         "b_v",       "b_o",      "outputs",   "task",
    "sample",    "description", "words",     "layers",   "variant",   "w_q_left",
    "w_q_right", "w_k_left",    "w_k_right", "w_o_left", "w_o_right", NULL,
};
static const char *const layer_keys[] = {
    "w_q",      "w_k",       "w_v",      "w_o",       "b_q",      "b_k",       "b_v", "b_o",
    "w_q_left", "w_q_right", "w_k_left", "w_k_right", "w_o_left", "w_o_right", NULL};
static const char *const output_keys[] = {"name", "classes", "unembed", "bias", NULL};
static const char *const weight_names[4] = {"w_q", "w_k", "w_v", "w_o"};
static const char *const bias_names[4] = {"b_q", "b_k", "b_v", "b_o"};

/* The names of a variant's factors of matrix f (train_tensors' factor_a,
 * factor_b): "w_q_left" (d_model x R) and "w_q_right" (R x d_model). */
static const char *factor_name(const struct train_config *c, int f, bool right)
{
    static const char *const qk[2][2] = {{"w_q_left", "w_q_right"}, {"w_k_left", "w_k_right"}};
    if (c->variant.kind == TRAIN_VARIANT_LOW_RANK_WO)
        return right ? "w_o_right" : "w_o_left";
    return qk[f][right];
}

bool model_io_is_model_file(const char *path)
{
    /* a look at the top-level keys, no tree built, no further than a model
     * file may go; "model": a sentence file naming one */
    static const char *const keys[] = {"embedding", "outputs", "model", NULL};
    return safetensors_is_file(path) || json_scan_has_key(path, &jread_model_limits, keys);
}

/* ---- sentence files ---- */

static const char *const sentence_keys[] = {"model", "words", "description", NULL};

/* root, read from path, as a sentence file: the model file it names (beside
 * path unless absolute) into target, its words into words.  0, or -1 + the
 * error naming path's field. */
static int sentence_read(const struct jread *r, json_t *root, const char *path, char *target,
                         size_t tn, char *words, size_t wn)
{
    if (jread_keys(r, root, "a sentence file", sentence_keys))
        return -1;
    json_t *model = jread_need(r, root, "model", "the model file's path, beside this file");
    json_t *text = jread_need(r, root, "words", "the sentence the model is run on");
    if (!model || !text ||
        jread_text(r, model, "\"model\"", tn, ", which a terminal would obey instead of showing") ||
        jread_text(r, text, "\"words\"", wn, ", which a terminal would obey instead of showing"))
        return -1;
    json_t *desc = json_object_get(root, "description");
    if (desc && jread_text(r, desc, "\"description\"", 0, ", which a terminal would obey"))
        return -1;
    const char *name = json_string_value(model);
    const char *slash = strrchr(path, '/');
    const int dir = name[0] == '/' || !slash ? 0 : (int)(slash - path + 1);
    if (snprintf(target, tn, "%.*s%s", dir, path, name) >= (int)tn)
        return jread_fail(r, "\"model\": the path is too long");
    snprintf(words, wn, "%s", json_string_value(text));
    return 0;
}

int model_io_sentence_words(const char *path, char *words, size_t n, struct mha_error *err)
{
    mha_error_clear(err);
    static const char *const keys[] = {"model", NULL};
    if (!json_scan_has_key(path, &jread_model_limits, keys))
        return 0;
    const struct jread r = {.name = path, .err = err};
    json_t *root = jread_file(&r, path, &jread_model_limits);
    if (!root)
        return -1;
    char target[MODEL_IO_PATH_MAX];
    const int rc = sentence_read(&r, root, path, target, sizeof target, words, n);
    json_decref(root);
    return rc ? -1 : 1;
}

/* How many of b_q .. b_o obj has (0 to 4). */
static int biases_in(json_t *obj)
{
    int n = 0;
    for (int i = 0; i < 4; i++)
        n += json_object_get(obj, bias_names[i]) != NULL;
    return n;
}

/* The layers of the file and whether they have biases into cfg: the
 * weights at the top level (one layer), or "layers": [{w_q .. w_o, b_q ..
 * b_o}, ...], never both; biases all four or none, in every layer alike. */
static int read_layers_config(const struct jread *r, json_t *root, struct train_config *cfg)
{
    json_t *layers = json_object_get(root, "layers");
    if (!layers) {
        const int biases = biases_in(root);
        if (biases != 0 && biases != 4)
            return jread_fail(r, "give all four of \"b_q\", \"b_k\", \"b_v\", \"b_o\" or none");
        cfg->has_bias = biases == 4;
        cfg->layers = 1;
        return 0;
    }
    if (!json_is_array(layers) || json_array_size(layers) < 1 ||
        json_array_size(layers) > TRAIN_MAX_LAYERS)
        return jread_fail(r,
                          "\"layers\" must be an array of 1 to %d objects {\"w_q\", \"w_k\", "
                          "\"w_v\", \"w_o\", optional \"b_q\" .. \"b_o\"}",
                          TRAIN_MAX_LAYERS);
    for (int i = 0; i < 4; i++)
        if (json_object_get(root, weight_names[i]) || json_object_get(root, bias_names[i]))
            return jread_fail(r,
                              "\"%s\" is at the top level and the model has \"layers\": a "
                              "model's weights are in one place or the other",
                              json_object_get(root, weight_names[i]) ? weight_names[i]
                                                                     : bias_names[i]);
    cfg->layers = (int)json_array_size(layers);
    for (int l = 0; l < cfg->layers; l++) {
        json_t *o = json_array_get(layers, (size_t)l);
        char where[32];
        snprintf(where, sizeof where, "layers[%d]", l);
        if (!json_is_object(o))
            return jread_fail(r, "%s must be an object, not %s", where, jread_type(o));
        if (jread_keys(r, o, where, layer_keys))
            return -1;
        const int biases = biases_in(o);
        if (biases != 0 && biases != 4)
            return jread_fail(r,
                              "%s: give all four of \"b_q\", \"b_k\", \"b_v\", \"b_o\" or "
                              "none",
                              where);
        if (l > 0 && (biases == 4) != cfg->has_bias)
            return jread_fail(r, "%s: %s biases where layers[0] %s: every layer has them or none",
                              where, biases ? "has" : "has no", biases ? "has none" : "has them");
        cfg->has_bias = biases == 4;
    }
    return 0;
}

/* The sizes and outputs of the file into cfg (no numbers yet). */
static int read_config(const struct jread *r, json_t *root, struct train_config *cfg)
{
    long long d = 0, h = 0, t = 0;
    memset(cfg, 0, sizeof *cfg);
    json_t *vocab = jread_need(r, root, "vocab", "the token names, an array of strings");
    if (!vocab)
        return -1;
    if (!json_is_array(vocab))
        return jread_fail(r, "\"vocab\" must be an array of token names, not %s",
                          jread_type(vocab));
    if (json_array_size(vocab) < 2 || json_array_size(vocab) > TRAIN_MAX_VOCAB)
        return jread_fail(r, "\"vocab\" has %zu names; a model has 2 to %d tokens",
                          json_array_size(vocab), TRAIN_MAX_VOCAB);
    cfg->vocab = (int)json_array_size(vocab);
    if (jread_int(r, root, "d_model", 1, TRAIN_MAX_D_MODEL, &d) != 1 ||
        jread_int(r, root, "num_heads", 1, d, &h) != 1 ||
        jread_int(r, root, "context", 1, TRAIN_MAX_CONTEXT, &t) != 1) {
        if (!r->err || !r->err->text[0])
            jread_fail(r, "\"d_model\", \"num_heads\" and \"context\" are required integers");
        return -1;
    }
    if (d % h)
        return jread_fail(r,
                          "\"num_heads\" %lld does not divide \"d_model\" %lld (every head "
                          "gets d_model / num_heads dimensions)",
                          h, d);
    cfg->d_model = (int)d;
    cfg->heads = (int)h;
    cfg->context = (int)t;
    cfg->scaled = true;
    if (jread_bool(r, root, "causal", &cfg->causal) < 0 ||
        jread_bool(r, root, "scaled", &cfg->scaled) < 0)
        return -1;
    if (read_layers_config(r, root, cfg))
        return -1;
    json_t *variant = json_object_get(root, "variant");
    if (variant) {
        struct mha_error why;
        if (!json_is_string(variant))
            return jread_fail(r, "\"variant\" must be a string (%s), not %s", train_variant_names(),
                              jread_type(variant));
        if (train_variant_parse(json_string_value(variant), &cfg->variant, &why) ||
            train_variant_check(&cfg->variant, cfg->d_model, cfg->heads, &why))
            return jread_fail(r, "\"variant\": %s", why.text);
    }

    json_t *outs = jread_need(r, root, "outputs", "a list of {name, classes, unembed, bias}");
    if (!outs)
        return -1;
    if (!json_is_array(outs) || json_array_size(outs) < 1 ||
        json_array_size(outs) > TRAIN_MAX_OUTPUTS)
        return jread_fail(r, "\"outputs\" must be an array of 1 to %d objects", TRAIN_MAX_OUTPUTS);
    cfg->n_outputs = (int)json_array_size(outs);
    for (int k = 0; k < cfg->n_outputs; k++) {
        json_t *o = json_array_get(outs, (size_t)k);
        char where[48];
        snprintf(where, sizeof where, "outputs[%d]", k);
        if (!json_is_object(o))
            return jread_fail(r, "%s must be an object, not %s", where, jread_type(o));
        if (jread_keys(r, o, where, output_keys))
            return -1;
        json_t *name = json_object_get(o, "name");
        char name_where[64];
        snprintf(name_where, sizeof name_where, "%s \"name\"", where);
        if (!name)
            return jread_fail(r, "%s: missing field \"name\"", where);
        if (jread_label(r, name, name_where, cfg->outputs[k].name, TRAIN_NAME_MAX))
            return -1;
        long long c = 0;
        if (jread_int(r, o, "classes", 2, TRAIN_MAX_VOCAB, &c) != 1) {
            if (!r->err || !r->err->text[0])
                jread_fail(r, "%s: missing field \"classes\" (how many classes it picks from)",
                           where);
            else {
                char text[MHA_ERROR_TEXT_MAX];
                snprintf(text, sizeof text, "%s", r->err->text);
                jread_fail(r, "%s: %s", where, text);
            }
            return -1;
        }
        cfg->outputs[k].classes = (int)c;
        cfg->outputs[k].has_bias = json_object_get(o, "bias") != NULL;
    }
    return 0;
}

/* One layer's weights and biases from obj (the file's top level where
 * layer is -1, else layers[layer]) into a. */
static int read_layer(const struct jread *r, json_t *obj, int layer, const struct train_config *c,
                      struct mha_params *a)
{
    float *w[4] = {a->w_q, a->w_k, a->w_v, a->w_o};
    float *b[4] = {a->b_q, a->b_k, a->b_v, a->b_o};
    for (int i = 0; i < 4; i++) {
        char wname[32], bname[32];
        if (layer < 0) {
            snprintf(wname, sizeof wname, "%s", weight_names[i]);
            snprintf(bname, sizeof bname, "%s", bias_names[i]);
        } else {
            snprintf(wname, sizeof wname, "layers[%d].%s", layer, weight_names[i]);
            snprintf(bname, sizeof bname, "layers[%d].%s", layer, bias_names[i]);
        }
        json_t *v = layer < 0 ? jread_need(r, obj, wname, "a d_model x d_model matrix")
                              : json_object_get(obj, weight_names[i]);
        if (!v && layer >= 0)
            return jread_fail(r, "layers[%d]: missing field \"%s\" (a d_model x d_model matrix)",
                              layer, weight_names[i]);
        if (!v)
            return -1;
        if (jread_matrix(r, v, wname, c->d_model, c->d_model, "d_model", "d_model", w[i]))
            return -1;
        if (c->has_bias && jread_vector(r, json_object_get(obj, bias_names[i]), bname, c->d_model,
                                        "d_model", b[i]))
            return -1;
    }
    return 0;
}

/* Layer l's factors from obj (where read_layer read its weights) into m. */
static int read_factors(const struct jread *r, json_t *obj, int l, struct train_model *m)
{
    const struct train_config *c = &m->cfg;
    const int f_n = train_variant_factored(&c->variant);
    static const char *const all[6] = {"w_q_left",  "w_q_right", "w_k_left",
                                       "w_k_right", "w_o_left",  "w_o_right"};
    for (int i = 0; i < 6; i++) {
        bool wanted = false;
        for (int f = 0; f < f_n; f++)
            wanted |= !strcmp(all[i], factor_name(c, f, false)) ||
                      !strcmp(all[i], factor_name(c, f, true));
        if (!wanted && json_object_get(obj, all[i])) {
            char name[TRAIN_VARIANT_NAME_MAX];
            return jread_fail(r, "\"%s\": the variant %s has no such factor", all[i],
                              train_variant_name(&c->variant, name, sizeof name));
        }
    }
    for (int f = 0; f < f_n; f++)
        for (int right = 0; right < 2; right++) {
            const char *n = factor_name(c, f, right);
            char where[48];
            if (train_layers(c) > 1)
                snprintf(where, sizeof where, "layers[%d].%s", l, n);
            else
                snprintf(where, sizeof where, "%s", n);
            json_t *v = json_object_get(obj, n);
            if (!v)
                return jread_fail(r, "missing field \"%s\" (the variant's factor, %s)", where,
                                  right ? "R x d_model" : "d_model x R");
            if (jread_matrix(r, v, where, right ? c->variant.n : c->d_model,
                             right ? c->d_model : c->variant.n, right ? "R" : "d_model",
                             right ? "d_model" : "R",
                             right ? m->p.factor_b[l][f] : m->p.factor_a[l][f]))
                return -1;
        }
    return 0;
}

/* Every number of the file into m. */
static int read_numbers(const struct jread *r, json_t *root, struct train_model *m)
{
    const struct train_config *c = &m->cfg;
    json_t *vocab = json_object_get(root, "vocab");
    for (int i = 0; i < c->vocab; i++) {
        char where[48];
        snprintf(where, sizeof where, "\"vocab\"[%d]", i);
        if (jread_label(r, json_array_get(vocab, (size_t)i), where, m->vocab_names[i],
                        TRAIN_LABEL_MAX))
            return -1;
    }
    if (jread_unique_labels(r, (const char(*)[TRAIN_LABEL_MAX])m->vocab_names, c->vocab, "vocab"))
        return -1;
    json_t *v;
    if (!(v = jread_need(r, root, "embedding", "one row of d_model numbers per token")) ||
        jread_matrix(r, v, "embedding", c->vocab, c->d_model, "one per vocab entry", "d_model",
                     m->p.embedding))
        return -1;
    if (!(v = jread_need(r, root, "positions", "one row of d_model numbers per position")) ||
        jread_matrix(r, v, "positions", c->context, c->d_model, "context", "d_model",
                     m->p.positions))
        return -1;
    json_t *layers = json_object_get(root, "layers");
    for (int l = 0; l < train_layers(c); l++)
        if (read_layer(r, layers ? json_array_get(layers, (size_t)l) : root, layers ? l : -1, c,
                       &m->p.attn[l]) ||
            read_factors(r, layers ? json_array_get(layers, (size_t)l) : root, l, m))
            return -1;
    /* the full matrices hold what the variant means, and are made again
     * from its free parameters (the same bits for a file saved here) */
    for (int l = 0; l < train_layers(c); l++) {
        struct mha_error why;
        if (train_variant_verify(m, l, &why))
            return jread_fail(r, "%s", why.text);
    }
    if (c->variant.kind != TRAIN_VARIANT_STANDARD)
        train_variant_tie(m);
    json_t *outs = json_object_get(root, "outputs");
    for (int k = 0; k < c->n_outputs; k++) {
        json_t *o = json_array_get(outs, (size_t)k);
        char field[64];
        snprintf(field, sizeof field, "outputs[%d].unembed", k);
        if (!(v = json_object_get(o, "unembed")))
            return jread_fail(r, "outputs[%d]: missing field \"unembed\" (classes x d_model)", k);
        if (jread_matrix(r, v, field, c->outputs[k].classes, c->d_model, "classes", "d_model",
                         m->p.unembed[k]))
            return -1;
        snprintf(field, sizeof field, "outputs[%d].bias", k);
        if (c->outputs[k].has_bias && jread_vector(r, json_object_get(o, "bias"), field,
                                                   c->outputs[k].classes, "classes", m->p.bias[k]))
            return -1;
    }
    if ((v = json_object_get(root, "task")) &&
        jread_label(r, v, "\"task\"", m->task, sizeof m->task))
        return -1;
    if ((v = json_object_get(root, "words"))) {
        const char *w = json_string_value(v);
        if (w && !strcmp(w, "lower"))
            m->words = TRAIN_WORDS_LOWER;
        else if (w && !strcmp(w, "case"))
            m->words = TRAIN_WORDS_CASE;
        else
            return jread_fail(r,
                              "\"words\" must be \"lower\" or \"case\" (how a text model "
                              "reads a sentence), not %s",
                              w ? "another string" : jread_type(v));
    }
    if ((v = json_object_get(root, "sample"))) {
        if (!json_is_array(v))
            return jread_fail(r, "\"sample\" must be an array of token ids, not %s", jread_type(v));
        const size_t n = json_array_size(v);
        if (n < 1 || n > (size_t)c->context)
            return jread_fail(r, "\"sample\" has %zu tokens; it must have 1 to %d (context)", n,
                              c->context);
        json_t *rows = json_array();
        json_array_append(rows, v);
        int ids[TRAIN_MAX_CONTEXT];
        const int rc = jread_ids(r, rows, "sample", 1, (int)n, 0, c->vocab - 1, ids);
        json_decref(rows);
        if (rc)
            return -1;
        train_model_set_sample(m, ids, (int)n, NULL);
    } else {
        int ids[TRAIN_MAX_CONTEXT];
        for (int t = 0; t < c->context; t++)
            ids[t] = t % c->vocab;
        train_model_set_sample(m, ids, c->context, NULL);
    }
    return 0;
}

static struct train_model *load_root(const struct jread *r, json_t *root, int batch_cap)
{
    struct train_config cfg;
    if (jread_keys(r, root, "the model", model_keys) || read_config(r, root, &cfg))
        return NULL;
    struct train_model *m = train_model_new(&cfg, batch_cap, r->err);
    if (!m) {
        if (r->err)
            mha_error_at(r->err, r->name, 0, 0);
        return NULL;
    }
    if (read_numbers(r, root, m)) {
        train_model_free(m);
        return NULL;
    }
    train_model_sample_forward(m, NULL);
    return m;
}

/* model_io_load, and the model file a sentence file names into target
 * (empty for a model file). */
static struct train_model *load_file(const char *path, int batch_cap, struct mha_error *err,
                                     char *target, size_t tn)
{
    mha_error_clear(err);
    target[0] = '\0';
    if (safetensors_is_file(path))
        return safetensors_load(path, batch_cap, err);
    const struct jread r = {.name = path, .err = err};
    json_t *root = jread_file(&r, path, &jread_model_limits);
    if (!root)
        return NULL;
    if (json_is_object(root) && json_object_get(root, "model")) { /* a sentence file */
        char words[MODEL_IO_WORDS_MAX];
        const int bad = sentence_read(&r, root, path, target, tn, words, sizeof words);
        json_decref(root);
        if (bad)
            return NULL;
        if (safetensors_is_file(target))
            return safetensors_load(target, batch_cap, err);
        const struct jread t = {.name = target, .err = err};
        root = jread_file(&t, target, &jread_model_limits);
        if (!root) {
            char why[MHA_ERROR_TEXT_MAX];
            snprintf(why, sizeof why, "%s", err ? err->text : "");
            mha_error_set(err, "the model file %s names: %s", path, why);
            return NULL;
        }
        struct train_model *m = NULL;
        if (json_is_object(root) && json_object_get(root, "model"))
            jread_fail(&t,
                       "this is a sentence file too (%s names it); a sentence file names a "
                       "model file",
                       path);
        else
            m = load_root(&t, root, batch_cap);
        json_decref(root);
        return m;
    }
    struct train_model *m = load_root(&r, root, batch_cap);
    json_decref(root);
    return m;
}

struct train_model *model_io_load(const char *path, int batch_cap, struct mha_error *err)
{
    char target[MODEL_IO_PATH_MAX];
    return load_file(path, batch_cap, err, target, sizeof target);
}

/* ---- the last model read, kept (model_io_keep) ---- */

static struct {
    bool on;
    char path[MODEL_IO_PATH_MAX], target[MODEL_IO_PATH_MAX];
    struct stat file, model; /* path, and target when path is a sentence file */
    struct train_model *m;
} kept;

void model_io_keep(bool on)
{
    kept.on = on;
    if (!on) {
        train_model_free(kept.m);
        kept.m = NULL;
    }
}

static bool same_file(const char *path, const struct stat *was)
{
    struct stat now;
    return stat(path, &now) == 0 && now.st_dev == was->st_dev && now.st_ino == was->st_ino &&
           now.st_size == was->st_size && now.st_mtim.tv_sec == was->st_mtim.tv_sec &&
           now.st_mtim.tv_nsec == was->st_mtim.tv_nsec;
}

/* A new model (batch_cap) with m's numbers; NULL + err. */
static struct train_model *model_copy(const struct train_model *m, int batch_cap,
                                      struct mha_error *err)
{
    struct train_model *c = train_model_new(&m->cfg, batch_cap, err);
    if (c && (train_model_copy_params(c, m, err) || train_model_sample_forward(c, err))) {
        train_model_free(c);
        return NULL;
    }
    return c;
}

struct train_model *model_io_load_kept(const char *path, int batch_cap, struct mha_error *err)
{
    if (!kept.on)
        return model_io_load(path, batch_cap, err);
    mha_error_clear(err);
    if (kept.m && strcmp(kept.path, path) == 0 && same_file(path, &kept.file) &&
        (!kept.target[0] || same_file(kept.target, &kept.model)))
        return model_copy(kept.m, batch_cap, err);
    struct stat file, model;
    char target[MODEL_IO_PATH_MAX];
    const bool stat_ok = stat(path, &file) == 0;
    struct train_model *m = load_file(path, batch_cap, err, target, sizeof target);
    if (!m || !stat_ok || strlen(path) >= sizeof kept.path || (target[0] && stat(target, &model)))
        return m;
    struct train_model *keep = model_copy(m, 1, NULL);
    if (keep) { /* else nothing is kept: the next read reads the file */
        train_model_free(kept.m);
        kept.m = keep;
        snprintf(kept.path, sizeof kept.path, "%s", path);
        snprintf(kept.target, sizeof kept.target, "%s", target);
        kept.file = file;
        if (target[0])
            kept.model = model;
    }
    return m;
}

static json_t *matrix_json(const float *a, int rows, int cols)
{
    json_t *arr = json_array();
    for (int i = 0; i < rows; i++) {
        json_t *row = json_array();
        for (int j = 0; j < cols; j++)
            json_array_append_new(row, json_real(a[(size_t)i * (size_t)cols + (size_t)j]));
        json_array_append_new(arr, row);
    }
    return arr;
}

static json_t *vector_json(const float *a, int n)
{
    json_t *arr = json_array();
    for (int i = 0; i < n; i++)
        json_array_append_new(arr, json_real(a[i]));
    return arr;
}

/* Layer l's weights (and biases, where the model has them, and a
 * variant's factors) of t into obj. */
static void layer_json(json_t *obj, const struct train_config *c, const struct train_tensors *t,
                       int l)
{
    const int d = c->d_model;
    const struct mha_params *a = &t->attn[l];
    const float *w[4] = {a->w_q, a->w_k, a->w_v, a->w_o};
    const float *b[4] = {a->b_q, a->b_k, a->b_v, a->b_o};
    for (int i = 0; i < 4; i++)
        json_object_set_new(obj, weight_names[i], matrix_json(w[i], d, d));
    for (int i = 0; c->has_bias && i < 4; i++)
        json_object_set_new(obj, bias_names[i], vector_json(b[i], d));
    for (int f = 0; f < train_variant_factored(&c->variant); f++) {
        json_object_set_new(obj, factor_name(c, f, false),
                            matrix_json(t->factor_a[l][f], d, c->variant.n));
        json_object_set_new(obj, factor_name(c, f, true),
                            matrix_json(t->factor_b[l][f], c->variant.n, d));
    }
}

/* The tensors of t (parameters or gradients) as model-file fields into obj. */
static void tensors_json(json_t *obj, const struct train_model *m, const struct train_tensors *t)
{
    const struct train_config *c = &m->cfg;
    const int d = c->d_model;
    json_object_set_new(obj, "embedding", matrix_json(t->embedding, c->vocab, d));
    json_object_set_new(obj, "positions", matrix_json(t->positions, c->context, d));
    /* one layer at the top level, as model files always had it */
    if (train_layers(c) == 1) {
        layer_json(obj, c, t, 0);
        return;
    }
    json_t *layers = json_array();
    for (int l = 0; l < train_layers(c); l++) {
        json_t *o = json_object();
        layer_json(o, c, t, l);
        json_array_append_new(layers, o);
    }
    json_object_set_new(obj, "layers", layers);
}

static json_t *outputs_json(const struct train_model *m, const struct train_tensors *t,
                            bool with_names)
{
    const struct train_config *c = &m->cfg;
    json_t *outs = json_array();
    for (int k = 0; k < c->n_outputs; k++) {
        json_t *o = json_object();
        if (with_names) {
            json_object_set_new(o, "name", json_string(c->outputs[k].name));
            json_object_set_new(o, "classes", json_integer(c->outputs[k].classes));
        }
        json_object_set_new(o, "unembed",
                            matrix_json(t->unembed[k], c->outputs[k].classes, c->d_model));
        if (c->outputs[k].has_bias)
            json_object_set_new(o, "bias", vector_json(t->bias[k], c->outputs[k].classes));
        json_array_append_new(outs, o);
    }
    return outs;
}

char *model_io_to_string(const struct train_model *m)
{
    const struct train_config *c = &m->cfg;
    json_t *root = json_object();
    json_t *vocab = json_array();
    for (int i = 0; i < c->vocab; i++)
        json_array_append_new(vocab, json_string(m->vocab_names[i]));
    json_object_set_new(root, "vocab", vocab);
    json_object_set_new(root, "d_model", json_integer(c->d_model));
    json_object_set_new(root, "num_heads", json_integer(c->heads));
    json_object_set_new(root, "context", json_integer(c->context));
    json_object_set_new(root, "causal", json_boolean(c->causal));
    json_object_set_new(root, "scaled", json_boolean(c->scaled));
    if (c->variant.kind != TRAIN_VARIANT_STANDARD) {
        char name[TRAIN_VARIANT_NAME_MAX];
        json_object_set_new(root, "variant",
                            json_string(train_variant_name(&c->variant, name, sizeof name)));
    }
    if (m->task[0])
        json_object_set_new(root, "task", json_string(m->task));
    if (m->words != TRAIN_WORDS_NONE)
        json_object_set_new(root, "words",
                            json_string(m->words == TRAIN_WORDS_LOWER ? "lower" : "case"));
    if (m->sample_len > 0) {
        json_t *s = json_array();
        for (int t = 0; t < m->sample_len; t++)
            json_array_append_new(s, json_integer(m->sample[t]));
        json_object_set_new(root, "sample", s);
    }
    tensors_json(root, m, &m->p);
    json_object_set_new(root, "outputs", outputs_json(m, &m->p, true));
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(root);
    return text;
}

int model_io_save(const struct train_model *m, const char *path, struct mha_error *err)
{
    return io_save_text(path, model_io_to_string(m), err);
}

void model_io_pane_name(const char *path, bool layers, int count, char *out, size_t n)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base) /* no extension ("m"), or a hidden file's name (".m") */
        dot = base + strlen(base);
    snprintf(out, n, "%.*s-%s%d%s", (int)(dot - path), path, layers ? "layers" : "heads", count,
             dot);
}

void model_io_variant_pane_name(const char *path, const struct train_variant *v, char *out,
                                size_t n)
{
    char name[TRAIN_VARIANT_NAME_MAX], bare[TRAIN_VARIANT_NAME_MAX];
    train_variant_name(v, name, sizeof name);
    size_t j = 0;
    for (size_t i = 0; name[i]; i++)
        if (name[i] != ':')
            bare[j++] = name[i];
    bare[j] = '\0';
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    const char *dot = strrchr(base, '.');
    if (!dot || dot == base)
        dot = base + strlen(base);
    snprintf(out, n, "%.*s-%s%s", (int)(dot - path), path, bare, dot);
}

int model_io_write_grad(FILE *out, const struct train_model *m)
{
    json_t *root = json_object();
    json_object_set_new(root, "loss", json_real(m->loss));
    json_t *grad = json_object();
    tensors_json(grad, m, &m->g);
    json_object_set_new(grad, "outputs", outputs_json(m, &m->g, false));
    json_object_set_new(root, "grad", grad);
    char *text = json_dumps(root, JSON_INDENT(1) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
    json_decref(root);
    if (!text)
        return -1;
    const int rc = fputs(text, out) < 0 || fputc('\n', out) == EOF ? -1 : 0;
    free(text);
    return rc;
}
