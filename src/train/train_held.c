/* train_held.c - held out means never trained on: which rows of a task
 * file are kept out of training, and for a generated task a held-out set of
 * different sequences that training draws never repeat (a hash set of them,
 * looked up for every sequence a training batch draws). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train.h"

/* ---- a task file's rows ---- */

static bool row_held(int rows, int i)
{
    return rows < TRAIN_HELD_OUT_EVERY ? i == rows - 1
                                       : i % TRAIN_HELD_OUT_EVERY == TRAIN_HELD_OUT_EVERY - 1;
}

static const int *row_at(const int *a, const struct train_dataset *d, int i)
{
    return a + (size_t)i * (size_t)d->len;
}

/* Targets (not -1) of output k in rows order[from .. to-1]. */
static long targets_in(const struct train_dataset *d, int k, int from, int to)
{
    long n = 0;
    for (int i = from; i < to; i++) {
        const int *t = row_at(d->targets[k], d, d->order[i]);
        for (int j = 0; j < d->len; j++)
            n += t[j] >= 0;
    }
    return n;
}

/* "4, 9, 14" (the held-out rows, the first few) into buf. */
static const char *held_rows_text(const struct train_dataset *d, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < d->n_held && used < n; i++) {
        if (i == 6) {
            snprintf(buf + used, n - used, ", ...");
            break;
        }
        used +=
            (size_t)snprintf(buf + used, n - used, "%s%d", i ? ", " : "", d->order[d->n_train + i]);
    }
    return buf;
}

int train_dataset_split(struct train_dataset *d, struct mha_error *err)
{
    if (d->rows < 2)
        return mha_error_set(err,
                             "\"tokens\" has %d row: too few to hold any out; a task file needs "
                             "2 rows or more (one row in %d, at least one, is held out: never "
                             "trained on, accuracy is measured on it)",
                             d->rows, TRAIN_HELD_OUT_EVERY);
    long all = 0;
    for (int k = 0; k < d->n_outputs; k++)
        for (size_t i = 0; i < (size_t)d->rows * (size_t)d->len; i++)
            all += d->targets[k][i] >= 0;
    if (!all)
        return mha_error_set(err, "no targets to learn: every target in \"targets\" is -1");
    /* held-out rows at the end of order, training rows at the front */
    int n_held = 0, n_train = 0;
    for (int i = 0; i < d->rows; i++)
        n_held += row_held(d->rows, i);
    for (int i = 0, h = d->rows - n_held; i < d->rows; i++)
        if (row_held(d->rows, i))
            d->order[h++] = i;
    const size_t bytes = (size_t)d->len * sizeof(int);
    for (int i = 0; i < d->rows; i++) {
        if (row_held(d->rows, i))
            continue;
        bool seen = false;
        for (int h = d->rows - n_held; h < d->rows && !seen; h++)
            seen = !memcmp(row_at(d->tokens, d, i), row_at(d->tokens, d, d->order[h]), bytes);
        if (!seen)
            d->order[n_train++] = i;
    }
    /* close the gap left by rows that repeat a held-out row */
    memmove(d->order + n_train, d->order + d->rows - n_held, (size_t)n_held * sizeof(int));
    d->n_train = n_train;
    d->n_held = n_held;
    char held[64];
    if (!n_train)
        return mha_error_set(err,
                             "every row kept for training has the same tokens as a held-out "
                             "row (%s): nothing is left to train on",
                             held_rows_text(d, held, sizeof held));
    for (int k = 0; k < d->n_outputs; k++) {
        const char *name = d->outputs[k].name;
        const long trained = targets_in(d, k, 0, n_train);
        const long measured = targets_in(d, k, n_train, n_train + n_held);
        if (!trained && !measured)
            return mha_error_set(err,
                                 "\"targets[%d] (%s)\": no targets to learn: every target of "
                                 "this output is -1",
                                 k, name);
        if (!trained)
            return mha_error_set(err,
                                 "\"targets[%d] (%s)\": only the held-out rows (%s) have "
                                 "targets for this output, and they are never trained on; "
                                 "give the other rows targets",
                                 k, name, held_rows_text(d, held, sizeof held));
        if (!measured)
            return mha_error_set(err,
                                 "\"targets[%d] (%s)\": the held-out rows (%s, one row in %d) "
                                 "have no target for this output, so its accuracy cannot be "
                                 "measured; give them targets or add rows",
                                 k, name, held_rows_text(d, held, sizeof held),
                                 TRAIN_HELD_OUT_EVERY);
    }
    return 0;
}

/* ---- a generated task's held-out sequences ---- */

/* FNV-1a over a sequence's tokens. */
static uint32_t hash_tokens(const int *tok, int len)
{
    uint32_t h = 2166136261u;
    for (int t = 0; t < len; t++) {
        uint32_t v = (uint32_t)tok[t];
        for (int b = 0; b < 4; b++, v >>= 8) {
            h ^= v & 0xFFu;
            h *= 16777619u;
        }
    }
    return h;
}

/* The slot of tok in the set: the one holding it, or the empty one where it
 * would go. */
static int *held_slot(const struct train_run *run, const int *tok)
{
    const struct train_batch *e = run->eval;
    const uint32_t mask = (uint32_t)run->held_cap - 1u;
    for (uint32_t i = hash_tokens(tok, e->len) & mask;; i = (i + 1u) & mask) {
        int *slot = &run->held_set[i];
        if (!*slot || !memcmp(e->tokens + (size_t)(*slot - 1) * (size_t)e->len, tok,
                              (size_t)e->len * sizeof(int)))
            return slot;
    }
}

static bool is_held(const struct train_run *run, const int *tok)
{
    return *held_slot(run, tok) != 0;
}

/* Sequence s of b alone, as a batch of one. */
static struct train_batch one_row(const struct train_batch *b, int s)
{
    struct train_batch v = *b;
    const size_t off = (size_t)s * (size_t)b->len;
    v.size = 1;
    v.tokens += off;
    for (int k = 0; k < b->n_outputs; k++)
        v.targets[k] += off;
    return v;
}

int train_held_size(const struct train_task *task, int vocab, int len, int eval_size,
                    struct mha_error *err)
{
    if (task->data)
        return task->data->n_held;
    const double all = task->sequences(vocab, len);
    if (all < 2.0)
        return mha_error_set(err,
                             "task %s has only %.0f different sequence%s at vocab %d and context "
                             "%d: too few to hold one out; use a larger --vocab or --context",
                             task->name, all, all == 1.0 ? "" : "s", vocab, len);
    const double fifth = floor(all / TRAIN_HELD_OUT_EVERY);
    return fifth < 1.0 ? 1 : fifth < (double)eval_size ? (int)fifth : eval_size;
}

int train_held_fill(struct train_run *run, int vocab, struct rng *rng, struct mha_error *err)
{
    struct train_batch *e = run->eval;
    const struct train_dataset *d = run->task->data;
    if (d) {
        const size_t n = (size_t)d->len;
        for (int s = 0; s < e->size; s++) {
            const size_t row = (size_t)d->order[d->n_train + s] * n;
            memcpy(e->tokens + (size_t)s * n, d->tokens + row, n * sizeof(int));
            for (int k = 0; k < d->n_outputs; k++)
                memcpy(e->targets[k] + (size_t)s * n, d->targets[k] + row, n * sizeof(int));
        }
        return 0;
    }
    int cap = 16;
    while (cap < 2 * e->size)
        cap *= 2;
    if (run->held_set && run->held_cap == cap) { /* drawn again (a new seed): the same set */
        memset(run->held_set, 0, (size_t)cap * sizeof(int));
    } else {
        free(run->held_set);
        run->held_set = calloc((size_t)cap, sizeof(int));
        if (!run->held_set)
            return mha_error_set(err, "out of memory");
        run->held_cap = cap;
    }
    /* different sequences only: a draw already held is drawn again (the
     * set is at most a fifth of the task's sequences, so few are) */
    for (int s = 0; s < e->size; s++) {
        struct train_batch v = one_row(e, s);
        int *slot;
        do {
            run->task->generate(run->task, &v, vocab, rng);
            slot = held_slot(run, v.tokens);
        } while (*slot);
        *slot = s + 1;
    }
    return 0;
}

void train_held_redraw(struct train_run *run, struct train_batch *b, int vocab)
{
    if (!run->held_set)
        return;
    for (int s = 0; s < b->size; s++) {
        struct train_batch v = one_row(b, s);
        while (is_held(run, v.tokens))
            run->task->generate(run->task, &v, vocab, &run->rng);
    }
}
