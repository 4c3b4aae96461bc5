/* cli_circuits.c - --load MODEL --dump circuits: what each head of a
 * trained model does, read off its weights (train/train_circuits.h): where
 * it looks by position, which word looks at which, and which next words
 * attending to a word raises; the direct path beside them.  Text for
 * reading, JSON with the whole matrices where the vocabulary is small. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "train/train.h"
#include "train/train_circuits.h"
#include "io/dump.h"
#include "io/model_io.h"

/* The matrices go into the JSON whole up to this many words a side. */
#define WHOLE_MAX 64

struct circuits {
    const struct train_model *m;
    float *qk, *pos, *ov, *scratch;
    struct train_circuit_pair qk_top[TRAIN_CIRCUIT_TOP];
    struct train_circuit_pair ov_top[TRAIN_CIRCUIT_TOP * TRAIN_CIRCUIT_RAISES];
    int n_qk, n_ov;
    struct train_circuit_place place;
    struct train_circuit_reading reading; /* the head's, in one line */
};

static const char *word(const struct train_model *m, int id)
{
    return m->vocab_names[id];
}

/* Head h's (h = -1: the direct path's) circuits for output k into c. */
static int compute(struct circuits *c, int h, int k, struct mha_error *err)
{
    const struct train_model *m = c->m;
    const int V = m->cfg.vocab, T = m->cfg.context, C = m->cfg.outputs[k].classes;
    c->n_qk = 0;
    if (h >= 0 && k == 0 &&
        train_circuit_read(m, h, c->qk, c->pos, c->ov, c->scratch, &c->reading, err))
        return -1;
    if (h >= 0) {
        if (train_circuit_qk(m, h, c->qk, c->scratch, err) ||
            train_circuit_qk_pos(m, h, c->pos, c->scratch, err))
            return -1;
        c->n_qk = train_circuit_top_qk(c->qk, V, TRAIN_CIRCUIT_TOP, c->qk_top);
        train_circuit_offset(c->pos, T, m->cfg.causal, &c->place);
    }
    if (train_circuit_ov(m, h, k, c->ov, c->scratch, err))
        return -1;
    c->n_ov = train_circuit_top_ov(c->ov, V, C, TRAIN_CIRCUIT_TOP, TRAIN_CIRCUIT_RAISES, c->ov_top);
    return 0;
}

/* ---- text ---- */

static void offset_text(const struct circuits *c, char *buf, size_t n)
{
    train_circuit_place_text(&c->place, buf, n);
    if (!buf[0])
        snprintf(buf, n, "(one position: nothing to choose)");
}

static void writes_text(FILE *f, const struct circuits *c, int k, const char *lead,
                        const char *from)
{
    const struct train_model *m = c->m;
    fprintf(f, "  %-11s %s: %s -> the %s it raises most (logit above its mean)\n", lead,
            m->cfg.outputs[k].name, from,
            m->cfg.outputs[k].classes == m->cfg.vocab ? "words" : "classes");
    for (int w = 0; w < c->n_ov; w++) {
        const struct train_circuit_pair *p = c->ov_top + (size_t)w * TRAIN_CIRCUIT_RAISES;
        fprintf(f, "              %-12s ->", word(m, p[0].from));
        for (int r = 0; r < TRAIN_CIRCUIT_RAISES && r < m->cfg.outputs[k].classes; r++) {
            char name[TRAIN_LABEL_MAX];
            train_circuit_class_name(m, k, p[r].to, name, sizeof name);
            fprintf(f, "%s %s %+.2f", r ? "," : "", name, (double)p[r].value);
        }
        fprintf(f, "\n");
    }
}

static void head_text(FILE *f, const struct circuits *c, int h, int k)
{
    const struct train_model *m = c->m;
    char where[96];
    if (k == 0) {
        offset_text(c, where, sizeof where);
        char reading[1024];
        train_circuit_reading_text(m, &c->reading, "", reading, sizeof reading);
        fprintf(f, "head %d\n  reading     %s\n  by position %s\n", h, reading, where);
        fprintf(f, "  looks at    query word -> key word (score above the query's mean)\n");
        for (int i = 0; i < c->n_qk; i++)
            fprintf(f, "              %-12s -> %s %+.2f\n", word(m, c->qk_top[i].from),
                    word(m, c->qk_top[i].to), (double)c->qk_top[i].value);
    }
    writes_text(f, c, k, k == 0 ? "writes" : "", "attended word");
}

/* ---- JSON ---- */

static void matrix_json(FILE *f, const char *name, const float *a, int rows, int cols)
{
    fprintf(f, ", \"%s\": [", name);
    for (int i = 0; i < rows; i++) {
        fprintf(f, "%s[", i ? ", " : "");
        for (int j = 0; j < cols; j++)
            fprintf(f, "%s%.6g", j ? ", " : "", (double)a[(size_t)i * (size_t)cols + (size_t)j]);
        fprintf(f, "]");
    }
    fprintf(f, "]");
}

static void writes_json(FILE *f, const struct circuits *c, int k)
{
    const struct train_model *m = c->m;
    const int V = m->cfg.vocab, C = m->cfg.outputs[k].classes;
    fprintf(f, "{\"output\": ");
    cli_json_string(f, m->cfg.outputs[k].name);
    fprintf(f, ", \"raises\": [");
    for (int w = 0; w < c->n_ov; w++) {
        const struct train_circuit_pair *p = c->ov_top + (size_t)w * TRAIN_CIRCUIT_RAISES;
        fprintf(f, "%s{\"attended\": ", w ? ", " : "");
        cli_json_string(f, word(m, p[0].from));
        fprintf(f, ", \"words\": [");
        for (int r = 0; r < TRAIN_CIRCUIT_RAISES && r < C; r++) {
            char name[TRAIN_LABEL_MAX];
            train_circuit_class_name(m, k, p[r].to, name, sizeof name);
            fprintf(f, "%s{\"word\": ", r ? ", " : "");
            cli_json_string(f, name);
            fprintf(f, ", \"logit\": %.4f, \"z\": %.4f}", (double)p[r].value,
                    (double)train_circuit_z(c->ov + (size_t)p[r].from * (size_t)C, C, p[r].to));
        }
        fprintf(f, "]}");
    }
    fprintf(f, "]");
    if (V <= WHOLE_MAX && C <= WHOLE_MAX)
        matrix_json(f, "ov", c->ov, V, C);
    fprintf(f, "}");
}

static void head_json(FILE *f, const struct circuits *c, int h)
{
    const struct train_model *m = c->m;
    const int V = m->cfg.vocab, T = m->cfg.context;
    fprintf(f,
            "    {\"head\": %d, \"position\": {\"offset\": %d, \"positions\": %d, \"first\": %d, "
            "\"of\": %d}",
            h, c->place.offset, c->place.count, c->place.first, c->place.rows);
    char reading[1024];
    train_circuit_reading_text(m, &c->reading, "", reading, sizeof reading);
    fprintf(f, ", \"reading\": ");
    cli_json_string(f, reading);
    fprintf(f, ", \"looks\": [");
    for (int i = 0; i < c->n_qk; i++) {
        fprintf(f, "%s{\"query\": ", i ? ", " : "");
        cli_json_string(f, word(m, c->qk_top[i].from));
        fprintf(f, ", \"key\": ");
        cli_json_string(f, word(m, c->qk_top[i].to));
        fprintf(f, ", \"score\": %.4f, \"z\": %.4f}", (double)c->qk_top[i].value,
                (double)train_circuit_z(c->qk + (size_t)c->qk_top[i].from * (size_t)V, V,
                                        c->qk_top[i].to));
    }
    fprintf(f, "]");
    if (V <= WHOLE_MAX)
        matrix_json(f, "qk", c->qk, V, V);
    matrix_json(f, "qk_position", c->pos, T, T);
    fprintf(f, ", \"writes\": [");
}

static int write_circuits(FILE *f, const char *path, struct circuits *c, int format,
                          struct mha_error *err)
{
    const struct train_model *m = c->m;
    const struct train_config *cfg = &m->cfg;
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const int L = train_layers(cfg);
    if (format == MHA_FORMAT_JSON) {
        fprintf(f, "{\"circuits\": {\n  \"model\": ");
        cli_json_string(f, base);
        fprintf(f, ", \"task\": ");
        cli_json_string(f, m->task);
        if (L > 1)
            fprintf(f, ", \"layers\": %d, \"layer\": %d", L, m->shown_layer);
        fprintf(f,
                ", \"d_model\": %d, \"num_heads\": %d, \"vocab\": %d, \"context\": %d, "
                "\"causal\": %s, \"scaled\": %s,\n  \"words\": [",
                cfg->d_model, cfg->heads, cfg->vocab, cfg->context, cfg->causal ? "true" : "false",
                cfg->scaled ? "true" : "false");
        for (int i = 0; i < cfg->vocab; i++) {
            fprintf(f, "%s", i ? ", " : "");
            cli_json_string(f, word(m, i));
        }
        fprintf(f, "],\n  \"heads\": [\n");
        for (int h = 0; h < cfg->heads; h++) {
            for (int k = 0; k < cfg->n_outputs; k++) {
                if (compute(c, h, k, err))
                    return -1;
                if (k == 0)
                    head_json(f, c, h);
                fprintf(f, "%s", k ? ", " : "");
                writes_json(f, c, k);
            }
            fprintf(f, "]}%s\n", h + 1 < cfg->heads ? "," : "");
        }
        fprintf(f, "  ],\n  \"direct\": [");
        for (int k = 0; k < cfg->n_outputs; k++) {
            if (compute(c, -1, k, err))
                return -1;
            fprintf(f, "%s", k ? ", " : "");
            writes_json(f, c, k);
        }
        fprintf(f, "]\n}}\n");
        return 0;
    }
    fprintf(f, "circuits     %s: d_model %d, %d head%s, %d words, context %d%s\n", base,
            cfg->d_model, cfg->heads, cfg->heads == 1 ? "" : "s", cfg->vocab, cfg->context,
            cfg->causal ? ", causal" : "");
    if (L > 1)
        fprintf(f,
                "layer        %d of 0-%d, its direct path only: the words straight into its "
                "heads,\n             their output straight to the read-out (what they read "
                "of the heads\n             below and write for those above: --dump summary's "
                "composition)\n",
                m->shown_layer, L - 1);
    fprintf(f, "             read off the weights: scores and logits from the words alone\n");
    for (int h = 0; h < cfg->heads; h++)
        for (int k = 0; k < cfg->n_outputs; k++) {
            if (compute(c, h, k, err))
                return -1;
            head_text(f, c, h, k);
        }
    fprintf(f, "direct path  (a word's own embedding through the read-out, no head)\n");
    for (int k = 0; k < cfg->n_outputs; k++) {
        if (compute(c, -1, k, err))
            return -1;
        writes_text(f, c, k, "", "word");
    }
    return 0;
}

int cli_dump_circuits(const struct cli_options *o)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = cli_load_model(o->load);
    if (!m)
        return CLI_EXIT_USAGE;
    if (o->layer >= 0 && train_model_show_layer(m, o->layer, &err)) {
        char text[MHA_ERROR_TEXT_MAX];
        snprintf(text, sizeof text, "%s", err.text);
        mha_error_set(&err, "--layer: %.900s", text);
        mha_error_at(&err, o->load, 0, 0);
        cli_report(&err);
        train_model_free(m);
        return CLI_EXIT_USAGE;
    }
    const struct train_config *cfg = &m->cfg;
    int C = 0;
    for (int k = 0; k < cfg->n_outputs; k++)
        if (cfg->outputs[k].classes > C)
            C = cfg->outputs[k].classes;
    const size_t V = (size_t)cfg->vocab, T = (size_t)cfg->context;
    struct circuits c = {.m = m};
    c.qk = malloc(V * V * sizeof *c.qk);
    c.pos = malloc(T * T * sizeof *c.pos);
    c.ov = malloc(V * (size_t)C * sizeof *c.ov);
    c.scratch = malloc(train_circuit_scratch(m) * sizeof *c.scratch);
    int rc = 0;
    if (!c.qk || !c.pos || !c.ov || !c.scratch) {
        mha_error_set(&err, "out of memory");
        rc = -1;
    } else if (train_circuit_qk(m, 0, c.qk, c.scratch, &err)) {
        rc = -1; /* a model the circuits do not read: said before a line is written */
        mha_error_at(&err, o->load, 0, 0);
    }
    if (rc == 0)
        rc = write_circuits(stdout, o->load, &c, o->format, &err);
    if (rc)
        cli_report(&err);
    free(c.qk);
    free(c.pos);
    free(c.ov);
    free(c.scratch);
    train_model_free(m);
    return rc ? CLI_EXIT_USAGE : 0;
}
