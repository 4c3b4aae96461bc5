/* batch_io.c - batch files (for --grad) and a teacher's task files (for
 * --train FILE) -> the training engine. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json_read.h"
#include "io/model_io.h"

static const char *const batch_keys[] = {"tokens", "targets", NULL};
const char *const model_io_task_file_fields[] = {"vocab",  "outputs",     "tokens", "targets",
                                                 "causal", "description", NULL};

/* "[2 outputs: first, prev][5 rows][8 ids]": the shape "targets" must
 * have, for messages. */
static const char *targets_shape(int n_outputs, const struct train_output_spec *outs, int rows,
                                 int len, char *buf, size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "[%d output%s: ", n_outputs, n_outputs == 1 ? "" : "s");
    for (int k = 0; k < n_outputs && used < n; k++)
        used += (size_t)snprintf(buf + used, n - used, "%s%s", k ? ", " : "", outs[k].name);
    if (used < n)
        snprintf(buf + used, n - used, "][%d row%s, as \"tokens\"][%d ids, -1 = no target]", rows,
                 rows == 1 ? "" : "s", len);
    return buf;
}

/* The targets lists: one per output, each rows x len ids in -1..classes-1.
 * A list of the wrong shape is named with the shape expected. */
static int read_targets(const struct jread *r, json_t *root, int n_outputs,
                        const struct train_output_spec *outs, int rows, int len, int *const *dst)
{
    char shape[256];
    targets_shape(n_outputs, outs, rows, len, shape, sizeof shape);
    json_t *targets = jread_need(r, root, "targets", "one list of rows per output");
    if (!targets)
        return -1;
    if (!json_is_array(targets))
        return jread_fail(r, "\"targets\" must be an array of shape %s, not %s", shape,
                          jread_type(targets));
    if (json_array_size(targets) != (size_t)n_outputs)
        return jread_fail(r,
                          "\"targets\" has %zu entr%s; expected %d (one list per output), "
                          "shape %s",
                          json_array_size(targets), json_array_size(targets) == 1 ? "y" : "ies",
                          n_outputs, shape);
    for (int k = 0; k < n_outputs; k++) {
        char field[64];
        snprintf(field, sizeof field, "targets[%d] (%s)", k, outs[k].name);
        json_t *list = json_array_get(targets, (size_t)k);
        /* the shape first, for a message that says the whole shape */
        bool ok = json_is_array(list) && json_array_size(list) == (size_t)rows;
        for (int i = 0; ok && i < rows; i++) {
            json_t *row = json_array_get(list, (size_t)i);
            ok = json_is_array(row) && json_array_size(row) == (size_t)len;
        }
        if (!ok) {
            const char *what = !json_is_array(list) ? jread_type(list) : NULL;
            int bad = -1;
            for (int i = 0; !what && i < (int)json_array_size(list) && bad < 0; i++) {
                json_t *row = json_array_get(list, (size_t)i);
                if (!json_is_array(row) || json_array_size(row) != (size_t)len)
                    bad = i;
            }
            if (what)
                return jread_fail(r, "\"%s\" is %s; \"targets\" must have shape %s", field, what,
                                  shape);
            if (json_array_size(list) != (size_t)rows)
                return jread_fail(r,
                                  "\"%s\" has %zu rows; expected %d (one per row of "
                                  "\"tokens\"): \"targets\" must have shape %s",
                                  field, json_array_size(list), rows, shape);
            json_t *row = json_array_get(list, (size_t)bad);
            if (!json_is_array(row))
                return jread_fail(r,
                                  "\"%s\" row %d is %s, not a row of %d ids: \"targets\" must "
                                  "have shape %s",
                                  field, bad, jread_type(row), len, shape);
            return jread_fail(r,
                              "\"%s\" row %d has %zu entr%s; expected %d (one per token of "
                              "its sequence): \"targets\" must have shape %s",
                              field, bad, json_array_size(row),
                              json_array_size(row) == 1 ? "y" : "ies", len, shape);
        }
        if (jread_ids(r, list, field, rows, len, -1, outs[k].classes - 1, dst[k]))
            return -1;
    }
    return 0;
}

struct train_batch *model_io_load_batch(const char *path, const struct train_model *m,
                                        struct mha_error *err)
{
    mha_error_clear(err);
    const struct jread r = {.name = path, .err = err};
    json_t *root = jread_file(&r, path, &jread_batch_limits);
    if (!root)
        return NULL;
    struct train_batch *b = NULL;
    int rows, len;
    json_t *tokens;
    if (jread_keys(&r, root, "the batch", batch_keys) ||
        !(tokens = jread_need(&r, root, "tokens", "one row of token ids per sequence")) ||
        jread_ids_shape(&r, tokens, "tokens", TRAIN_MAX_BATCH, TRAIN_MAX_CONTEXT, &rows, &len))
        goto done;
    if (len > m->cfg.context) {
        jread_fail(&r, "\"tokens\" row 0 has %d tokens, more than the model's context %d", len,
                   m->cfg.context);
        goto done;
    }
    b = train_batch_new(rows, len, m->cfg.n_outputs, err);
    if (!b)
        goto done;
    if (jread_ids(&r, tokens, "tokens", rows, len, 0, m->cfg.vocab - 1, b->tokens) ||
        read_targets(&r, root, m->cfg.n_outputs, m->cfg.outputs, rows, len, b->targets)) {
        train_batch_free(b);
        b = NULL;
    }
done:
    json_decref(root);
    return b;
}

/* The outputs list of a task file: names, or {name, classes}. */
static int read_outputs(const struct jread *r, json_t *root, int vocab, struct train_dataset *d)
{
    json_t *outs = jread_need(r, root, "outputs", "the names of the outputs, one per targets list");
    if (!outs)
        return -1;
    if (!json_is_array(outs) || json_array_size(outs) < 1 ||
        json_array_size(outs) > TRAIN_MAX_OUTPUTS)
        return jread_fail(r, "\"outputs\" must be an array of 1 to %d names", TRAIN_MAX_OUTPUTS);
    d->n_outputs = (int)json_array_size(outs);
    for (int k = 0; k < d->n_outputs; k++) {
        json_t *o = json_array_get(outs, (size_t)k);
        char where[48];
        snprintf(where, sizeof where, "\"outputs\"[%d]", k);
        d->outputs[k].classes = vocab;
        d->outputs[k].has_bias = true;
        if (json_is_object(o)) {
            static const char *const keys[] = {"name", "classes", NULL};
            long long c = vocab;
            if (jread_keys(r, o, where, keys) ||
                jread_int(r, o, "classes", 2, TRAIN_MAX_VOCAB, &c) < 0)
                return -1;
            d->outputs[k].classes = (int)c;
            o = json_object_get(o, "name");
            if (!o)
                return jread_fail(r, "%s: missing field \"name\"", where);
        }
        if (jread_label(r, o, where, d->outputs[k].name, TRAIN_NAME_MAX))
            return -1;
        for (int j = 0; j < k; j++)
            if (!strcmp(d->outputs[j].name, d->outputs[k].name))
                return jread_fail(r, "%s: the name \"%s\" is used twice", where,
                                  d->outputs[k].name);
    }
    return 0;
}

/* "dir/my-task.json" -> "my-task" (at most TRAIN_NAME_MAX - 1 bytes). */
static void name_from_path(const char *path, char *out)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 5 && !strcmp(base + n - 5, ".json"))
        n -= 5;
    if (n >= TRAIN_NAME_MAX)
        n = TRAIN_NAME_MAX - 1;
    memcpy(out, base, n);
    out[n] = '\0';
}

static struct train_dataset *read_dataset(const struct jread *r, json_t *root, const char *path)
{
    struct train_dataset head;
    memset(&head, 0, sizeof head);
    head.causal = true;
    json_t *vocab, *tokens;
    int rows, len;
    if (jread_keys(r, root, "the task file", model_io_task_file_fields) ||
        !(vocab = jread_need(r, root, "vocab", "the token names, an array of strings")))
        return NULL;
    if (!json_is_array(vocab) || json_array_size(vocab) < 2 ||
        json_array_size(vocab) > TRAIN_MAX_VOCAB) {
        jread_fail(r, "\"vocab\" must be an array of 2 to %d token names", TRAIN_MAX_VOCAB);
        return NULL;
    }
    head.vocab = (int)json_array_size(vocab);
    if (jread_bool(r, root, "causal", &head.causal) < 0 ||
        read_outputs(r, root, head.vocab, &head) ||
        !(tokens = jread_need(r, root, "tokens", "one row of token ids per example")) ||
        jread_ids_shape(r, tokens, "tokens", JREAD_TASK_MAX_ROWS, TRAIN_MAX_CONTEXT, &rows, &len))
        return NULL;
    const size_t ids = (size_t)rows * (size_t)len * (size_t)(1 + head.n_outputs);
    if (ids > JREAD_TASK_MAX_IDS) {
        jread_fail(r,
                   "\"tokens\" and \"targets\" hold %zu ids (%d rows of %d tokens, %d "
                   "outputs); a task file holds at most %d",
                   ids, rows, len, head.n_outputs, JREAD_TASK_MAX_IDS);
        return NULL;
    }
    head.rows = rows;
    head.len = len;
    const size_t cells = (size_t)rows * (size_t)len;
    json_t *desc = json_object_get(root, "description");
    if (desc && jread_label(r, desc, "\"description\"", head.description, TRAIN_DESCRIPTION_MAX))
        return NULL;
    const size_t bytes = sizeof head + 64 + (size_t)head.vocab * TRAIN_LABEL_MAX +
                         cells * sizeof(int) * (size_t)(1 + head.n_outputs) +
                         (size_t)rows * sizeof(int);
    char *block = calloc(1, bytes);
    if (!block) {
        jread_fail(r, "out of memory reading %d examples", rows);
        return NULL;
    }
    struct train_dataset *d = (struct train_dataset *)(void *)block;
    *d = head;
    d->block = block;
    char *p = block + ((sizeof *d + 63u) & ~(size_t)63u);
    d->vocab_names = (char(*)[TRAIN_LABEL_MAX])(void *)p;
    p += (size_t)d->vocab * TRAIN_LABEL_MAX;
    int *ip = (int *)(void *)p;
    d->tokens = ip, ip += cells;
    for (int k = 0; k < d->n_outputs; k++)
        d->targets[k] = ip, ip += cells;
    d->order = ip;
    name_from_path(path, d->name);
    for (int i = 0; i < d->vocab; i++) {
        char where[48];
        snprintf(where, sizeof where, "\"vocab\"[%d]", i);
        if (jread_label(r, json_array_get(vocab, (size_t)i), where, d->vocab_names[i],
                        TRAIN_LABEL_MAX))
            goto fail;
    }
    if (jread_unique_labels(r, (const char(*)[TRAIN_LABEL_MAX])d->vocab_names, d->vocab, "vocab"))
        goto fail;
    if (jread_ids(r, tokens, "tokens", rows, len, 0, d->vocab - 1, d->tokens) ||
        read_targets(r, root, d->n_outputs, d->outputs, rows, len, d->targets))
        goto fail;
    /* the rows held out to measure on, never trained on */
    if (train_dataset_split(d, r->err)) {
        mha_error_at(r->err, path, 0, 0);
        goto fail;
    }
    return d;
fail:
    free(block);
    return NULL;
}

struct train_dataset *model_io_load_dataset(const char *path, struct mha_error *err)
{
    mha_error_clear(err);
    const struct jread r = {.name = path, .err = err};
    json_t *root = jread_file(&r, path, &jread_task_limits);
    if (!root)
        return NULL;
    struct train_dataset *d = read_dataset(&r, root, path);
    json_decref(root);
    return d;
}
