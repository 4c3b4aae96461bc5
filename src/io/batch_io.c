/* batch_io.c - batch files (for --grad) and a teacher's task files (for
 * --train FILE) -> the training engine. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json_read.h"
#include "io/model_io.h"

static const char *const batch_keys[] = {"tokens", "targets", NULL};
static const char *const dataset_keys[] = {"tokens", "targets",     "vocab", "outputs",
                                           "causal", "description", NULL};

/* The targets lists: one per output, each rows x len ids in -1..classes-1. */
static int read_targets(const struct jread *r, json_t *root, int n_outputs,
                        const struct train_output_spec *outs, int rows, int len, int *const *dst)
{
    json_t *targets = jread_need(r, root, "targets", "one list of rows per output");
    if (!targets)
        return -1;
    if (!json_is_array(targets) || json_array_size(targets) != (size_t)n_outputs)
        return jread_fail(r, "\"targets\" must be an array of %d lists (one per output: %s%s%s)",
                          n_outputs, outs[0].name, n_outputs > 1 ? ", " : "",
                          n_outputs > 1 ? outs[1].name : "");
    for (int k = 0; k < n_outputs; k++) {
        char field[64];
        snprintf(field, sizeof field, "targets[%d] (%s)", k, outs[k].name);
        if (jread_ids(r, json_array_get(targets, (size_t)k), field, rows, len, -1,
                      outs[k].classes - 1, dst[k]))
            return -1;
    }
    return 0;
}

struct train_batch *model_io_load_batch(const char *path, const struct train_model *m,
                                        struct mha_error *err)
{
    mha_error_clear(err);
    const struct jread r = {path, err};
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
            long c = vocab;
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
    if (jread_keys(r, root, "the task file", dataset_keys) ||
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
    const size_t bytes = sizeof head + 64 + (size_t)head.vocab * TRAIN_LABEL_MAX +
                         cells * sizeof(int) * (size_t)(1 + head.n_outputs);
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
    return d;
fail:
    free(block);
    return NULL;
}

struct train_dataset *model_io_load_dataset(const char *path, struct mha_error *err)
{
    mha_error_clear(err);
    const struct jread r = {path, err};
    json_t *root = jread_file(&r, path, &jread_task_limits);
    if (!root)
        return NULL;
    struct train_dataset *d = read_dataset(&r, root, path);
    json_decref(root);
    return d;
}
