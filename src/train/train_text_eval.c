/* train_text_eval.c - what a text model says: its held-out loss,
 * perplexity and top-1 / top-3 accuracy (over every predicted word and per
 * job); the next words themselves are train_generate.c's. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "train/train_heads.h"
#include "train/train_text.h"

/* Where target tg stands among the C probabilities of row p: how many are
 * likelier (a tie counts for the lower id, as train_predict picks). */
static int rank_of(const float *p, int C, int tg)
{
    int r = 0;
    for (int j = 0; j < C; j++)
        r += p[j] > p[tg] || (p[j] == p[tg] && j < tg);
    return r;
}

/* Chunk `chunk` of the held-out rows (from row s0), just forwarded: its
 * words' ranks into tm's counts. */
static void count_chunk(const struct train_run *run, const struct train_batch *chunk, int s0,
                        struct train_text_measure *tm)
{
    const struct train_dataset *d = run->task->data;
    const struct train_text *t = d->text;
    const struct train_model *m = run->model;
    const int C = m->cfg.outputs[0].classes, T = chunk->len;
    struct train_text_eval *out = &tm->out;
    tm->nll += (double)m->out_loss[0] * (double)m->out_count[0];
    for (int s = 0; s < chunk->size; s++) {
        const int row = d->order[d->n_train + s0 + s];
        for (int i = 0; i < T; i++) {
            const int tg = chunk->targets[0][(size_t)s * (size_t)T + (size_t)i];
            if (tg < 0)
                continue;
            const float *p = m->probs[0] + ((size_t)s * (size_t)T + (size_t)i) * (size_t)C;
            const int r = rank_of(p, C, tg);
            out->words++;
            tm->top1 += r == 0;
            tm->top3 += r < 3;
            const int j = t->jobs[(size_t)row * (size_t)d->len + (size_t)i];
            if (j >= 0) {
                out->job_words[j]++;
                tm->job1[j] += r == 0;
                tm->job3[j] += r < 3;
            }
        }
    }
}

/* The measure's figures from its counts. */
static void finish_measure(const struct train_text *t, struct train_text_measure *tm)
{
    struct train_text_eval *out = &tm->out;
    if (out->words) {
        out->loss = tm->nll / (double)out->words;
        out->top1 = (float)tm->top1 / (float)out->words;
        out->top3 = (float)tm->top3 / (float)out->words;
    }
    out->perplexity = exp(out->loss);
    out->n_jobs = t->n_jobs;
    for (int j = 0; j < t->n_jobs; j++)
        if (out->job_words[j]) {
            out->job_top1[j] = (float)tm->job1[j] / (float)out->job_words[j];
            out->job_top3[j] = (float)tm->job3[j] / (float)out->job_words[j];
        }
}

int train_text_measure_part(struct train_run *run, const bool *knock, struct train_text_measure *tm,
                            bool (*more)(void *ctx), void *ctx, struct mha_error *err)
{
    const struct train_dataset *d = run->task->data;
    if (!d || !d->text)
        return mha_error_set(err, "the run is not on a text");
    struct train_model *m = run->model;
    const struct train_batch *e = run->eval;
    if (tm->stage == 0)
        *tm = (struct train_text_measure){.stage = knock ? 1 : 2};
    /* a knocked measure's first pass: each column's mean of the merged
     * heads over every held-out position; then the forward passes */
    while (tm->stage < 3) {
        if (tm->s0 >= e->size) {
            if (tm->stage == 1)
                train_heads_merged_finish(m, tm->mean, tm->rows);
            tm->stage++;
            tm->s0 = 0;
            continue;
        }
        struct train_batch chunk;
        const int left = e->size - tm->s0;
        train_batch_view(e, tm->s0, left < m->batch_cap ? left : m->batch_cap, &chunk);
        if (tm->stage == 1) {
            if (train_heads_merged_add(m, &chunk, tm->mean, &tm->rows, err))
                return -1;
        } else {
            if (knock ? train_forward_knocked(m, &chunk, knock, tm->mean, err)
                      : train_forward(m, &chunk, err))
                return -1;
            count_chunk(run, &chunk, tm->s0, tm);
        }
        tm->s0 += chunk.size;
        if (more && !more(ctx))
            return 0;
    }
    finish_measure(d->text, tm);
    return 1;
}

int train_text_evaluate_knocked(struct train_run *run, const bool *knock,
                                struct train_text_eval *out, struct mha_error *err)
{
    struct train_text_measure tm = {0};
    const int rc = train_text_measure_part(run, knock, &tm, NULL, NULL, err);
    *out = tm.out;
    return rc < 0 ? -1 : 0;
}

int train_text_evaluate(struct train_run *run, struct train_text_eval *out, struct mha_error *err)
{
    return train_text_evaluate_knocked(run, NULL, out, err);
}

/* The jobs knocking a head out costs (the bits of train_text_head_jobs's
 * does), from the measure with every head and the one without it. */
static unsigned jobs_lost(const struct train_text_eval *all, const struct train_text_eval *knocked)
{
    unsigned does = 0;
    for (int j = 0; j < all->n_jobs; j++)
        if (all->job_words[j] && all->job_top1[j] - knocked->job_top1[j] >= TRAIN_TEXT_JOB_DROP)
            does |= 1u << j;
    return does;
}

int train_text_head_jobs(struct train_run *run, const struct train_text_eval *all,
                         struct train_text_eval *knocked, unsigned *does, struct mha_error *err)
{
    const int H = run->model->cfg.heads;
    bool knock[TRAIN_MAX_D_MODEL];
    for (int h = 0; h < H; h++) {
        for (int i = 0; i < H; i++)
            knock[i] = i == h;
        if (train_text_evaluate_knocked(run, knock, &knocked[h], err))
            return -1;
        does[h] = jobs_lost(all, &knocked[h]);
    }
    return 0;
}

int train_text_jobs_part(struct train_run *run, struct train_text_jobs *job,
                         bool (*more)(void *ctx), void *ctx, struct mha_error *err)
{
    const int H = run->model->cfg.heads;
    bool knock[TRAIN_MAX_D_MODEL];
    /* measure 0 with every head, measure h + 1 with head h knocked out */
    while (job->next <= H) {
        const int h = job->next - 1;
        for (int i = 0; i < H; i++)
            knock[i] = i == h;
        const int rc = train_text_measure_part(run, h < 0 ? NULL : knock, &job->m, more, ctx, err);
        if (rc <= 0)
            return rc;
        if (h < 0)
            job->all = job->m.out;
        else {
            job->does[h] = jobs_lost(&job->all, &job->m.out);
            memcpy(job->knocked[h], job->m.out.job_top1, sizeof job->knocked[h]);
        }
        job->m = (struct train_text_measure){0};
        job->next++;
        if (job->next <= H && more && !more(ctx))
            return 0;
    }
    return 1;
}

void train_text_jobs_label(const struct train_text *t, unsigned does, char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (int j = 0; j < t->n_jobs && used < n; j++)
        if (does & (1u << j))
            used +=
                (size_t)snprintf(buf + used, n - used, "%s%s", used ? "+" : "", t->job_names[j]);
}

void train_text_knocked_text(const struct train_text *t, const float *all, const float *knocked,
                             char *buf, size_t n)
{
    int worst = -1;
    for (int j = 0; j < t->n_jobs; j++)
        if (all[j] - knocked[j] >= TRAIN_TEXT_JOB_DROP &&
            (worst < 0 || all[j] - knocked[j] > all[worst] - knocked[worst]))
            worst = j;
    if (worst < 0)
        snprintf(buf, n, "knocked out alone, no job falls by %.1f", (double)TRAIN_TEXT_JOB_DROP);
    else
        snprintf(buf, n, "knocked out alone, %s falls from %.2f to %.2f", t->job_names[worst],
                 (double)all[worst], (double)knocked[worst]);
}

int train_slot_neighbours(struct train_model *m, int k, const int *tokens, int pos, int n,
                          int *best, float *cos, struct mha_error *err)
{
    const struct train_config *c = &m->cfg;
    if (pos < 1)
        return 0; /* nothing before it: nothing expected */
    if (k < 0 || k >= c->n_outputs || c->outputs[k].classes != c->vocab)
        return mha_error_set(err, "the model has no next-word output %d", k);
    double p[TRAIN_MAX_VOCAB];
    if (train_next_probs(m, k, tokens, pos, pos - 1, 1.0f, p, err))
        return -1;
    /* pass 1: what it expects, in its embedding: e = sum_w p(w) E[w] */
    const int d = c->d_model;
    double e[TRAIN_MAX_D_MODEL] = {0}, e2 = 0.0;
    for (int w = 0; w < c->vocab; w++)
        for (int i = 0; i < d; i++)
            e[i] += p[w] * (double)m->p.embedding[(size_t)w * (size_t)d + (size_t)i];
    for (int i = 0; i < d; i++)
        e2 += e[i] * e[i];
    if (!(e2 > 0.0))
        return 0;
    /* pass 2: each known word's cosine with it; the n highest, the lower
     * id on a tie (<unk> is no word to offer) */
    int found = 0;
    for (int w = 0; w < c->vocab; w++) {
        if (!strcmp(m->vocab_names[w], TRAIN_TEXT_UNKNOWN))
            continue;
        const float *ew = m->p.embedding + (size_t)w * (size_t)d;
        double dot = 0.0, w2 = 0.0;
        for (int i = 0; i < d; i++) {
            dot += (double)ew[i] * e[i];
            w2 += (double)ew[i] * (double)ew[i];
        }
        const float cw = w2 > 0.0 ? (float)(dot / sqrt(w2 * e2)) : 0.0f;
        int at = found < n ? found : n;
        while (at > 0 && cos[at - 1] < cw)
            at--;
        if (at >= n)
            continue;
        for (int j = (found < n ? found : n - 1); j > at; j--) {
            cos[j] = cos[j - 1];
            best[j] = best[j - 1];
        }
        cos[at] = cw;
        best[at] = w;
        found += found < n;
    }
    return found;
}
