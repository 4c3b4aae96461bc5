/* trun_samples.c - what a text's model writes on the training screen
 * (trun.h): a few lines from its sample's first word, written by a copy of
 * the model shown (the writer) with a generator seeded from the run's seed
 * and the model's step, so that the training's own model, batches and
 * generator are never touched and the same seed and step write the same
 * lines.  No curses here. */
#include "train/trun.h"

#include "engine/rng.h"
#include "engine/text_check.h"
#include "train/train_text.h"
#include "train/trun_parts.h"

#include <stdio.h>
#include <string.h>

bool trun_pane_writes(const struct trun_pane *p)
{
    const struct train_model *m = p->run->model;
    return train_model_next_output(m) >= 0 && train_model_first_word(m) >= 0;
}

/* The generator of the lines written at step with seed: its own, apart
 * from the training's (a mix of the two, so that neighbouring steps or
 * seeds start far apart). */
static uint32_t lines_seed(uint32_t seed, long step)
{
    uint32_t h = seed * 0x9e3779b9u ^ (uint32_t)step * 0x85ebca6bu ^ 0x5a3ec7e5u;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    return h;
}

int trun_samples_write(struct train_model *writer, const struct train_model *m, uint32_t seed,
                       long step, float temperature, struct trun_samples *out,
                       struct mha_error *err)
{
    out->n = 0;
    out->step = step;
    out->temperature = temperature;
    const int k = train_model_next_output(m);
    if (k < 0 || train_model_first_word(m) < 0)
        return mha_error_set(err, "the model is not a language model: it writes nothing");
    if (train_model_copy_params(writer, m, err))
        return -1;
    struct rng r;
    rng_init(&r, lines_seed(seed, step));
    for (int i = 0; i < TRUN_SAMPLE_LINES; i++) {
        int ids[TRAIN_MAX_CONTEXT] = {train_model_first_word(m)};
        const int n = train_write_line(writer, k, ids, 1, temperature, 0, 1.0, &r, err);
        if (n < 0)
            return -1;
        size_t used = 0;
        char *line = out->line[i];
        line[0] = '\0';
        for (int w = 0; w < n && used < TRUN_SAMPLE_BYTES; w++) {
            char shown[TRAIN_LABEL_MAX * 4];
            used +=
                (size_t)snprintf(line + used, TRUN_SAMPLE_BYTES - used, "%s%s", w ? " " : "",
                                 mha_text_escape(writer->vocab_names[ids[w]], shown, sizeof shown));
        }
        out->n = i + 1;
    }
    return 0;
}

void trun_pane_write(const struct trun *t, struct trun_pane *p, const struct train_model *from,
                     long step)
{
    if (!t->samples || !trun_pane_writes(p))
        return;
    struct mha_error err;
    mha_error_clear(&err);
    if (!p->writer)
        p->writer = train_model_new(&from->cfg, 1, &err);
    if (!p->writer ||
        trun_samples_write(p->writer, from, t->opt.seed, step, t->temperature, &p->samples, &err))
        p->samples.n = 0;
}

long trun_pane_shown_step(const struct trun *t, const struct trun_pane *p)
{
    if (t->scrub < 0)
        return p->run->model->step;
    const struct trun_mark *mk = trun_ring_mark(&p->ring, trun_ring_find(&p->ring, t->scrub));
    return mk ? mk->step : 0; /* step 0 before its checkpoint: the model's start */
}

int trun_samples_show(struct trun *t, bool on, float temperature, struct mha_error *err)
{
    bool any = false;
    for (int i = 0; i < t->n_panes; i++)
        any = any || trun_pane_writes(&t->panes[i]);
    if (on && !any)
        return mha_error_set(err, "a task of letters writes no lines");
    if (on && !(temperature > 0.0f))
        return mha_error_set(err, "temperature %g: it must be above 0", (double)temperature);
    t->samples = on;
    if (!on)
        return 0;
    t->temperature = temperature;
    for (int i = 0; i < t->n_panes; i++) {
        struct trun_pane *p = &t->panes[i];
        trun_pane_write(t, p, trun_pane_model(p, t->scrub), trun_pane_shown_step(t, p));
    }
    return 0;
}

const struct trun_samples *trun_pane_samples(const struct trun_pane *p)
{
    return &p->samples;
}
