/* trun_ring.c - checkpoints, curves and pace of a training run
 * (no curses: tested on its own). */
#include "train/trun_ring.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int trun_ring_init(struct trun_ring *r, int cap, size_t n_params, long every)
{
    memset(r, 0, sizeof *r);
    if (cap < 2 || n_params == 0 || every < 1 || n_params > ((size_t)1 << 28) / (size_t)cap)
        return -1;
    r->params = malloc((size_t)cap * n_params * sizeof *r->params);
    r->marks = malloc((size_t)cap * sizeof *r->marks);
    if (!r->params || !r->marks) {
        trun_ring_done(r);
        return -1;
    }
    r->cap = cap;
    r->n_params = n_params;
    r->every = every;
    return 0;
}

void trun_ring_done(struct trun_ring *r)
{
    free(r->params);
    free(r->marks);
    memset(r, 0, sizeof *r);
}

void trun_ring_clear(struct trun_ring *r, long every)
{
    r->n = 0;
    r->every = every > 0 ? every : 1;
}

/* Keep every other checkpoint (0, 2, 4, ...) and double the interval. */
static void thin(struct trun_ring *r)
{
    int kept = 0;
    for (int i = 0; i < r->n; i += 2, kept++) {
        if (i == kept)
            continue;
        memcpy(r->params + (size_t)kept * r->n_params, r->params + (size_t)i * r->n_params,
               r->n_params * sizeof *r->params);
        r->marks[kept] = r->marks[i];
    }
    r->n = kept;
    r->every *= 2;
}

bool trun_ring_offer(struct trun_ring *r, long step, const float *params,
                     const struct trun_mark *mark)
{
    if (!r->params || step < 0 || step % r->every != 0)
        return false;
    if (r->n > 0 && r->marks[r->n - 1].step >= step)
        return false;
    if (r->n == r->cap) {
        thin(r);
        if (step % r->every != 0)
            return false;
    }
    memcpy(r->params + (size_t)r->n * r->n_params, params, r->n_params * sizeof *params);
    r->marks[r->n] = *mark;
    r->marks[r->n].step = step;
    r->n++;
    return true;
}

bool trun_ring_put(struct trun_ring *r, long step, const float *params,
                   const struct trun_mark *mark)
{
    if (!r->params || step < 0)
        return false;
    int i = r->n; /* where it goes: after every checkpoint before step */
    while (i > 0 && r->marks[i - 1].step >= step)
        i--;
    const bool same = i < r->n && r->marks[i].step == step;
    if (!same && r->n == r->cap) {
        thin(r);
        for (i = r->n; i > 0 && r->marks[i - 1].step >= step;)
            i--;
    }
    if (!same && i < r->n) { /* room at i */
        memmove(r->params + (size_t)(i + 1) * r->n_params, r->params + (size_t)i * r->n_params,
                (size_t)(r->n - i) * r->n_params * sizeof *r->params);
        memmove(r->marks + i + 1, r->marks + i, (size_t)(r->n - i) * sizeof *r->marks);
    }
    memcpy(r->params + (size_t)i * r->n_params, params, r->n_params * sizeof *params);
    r->marks[i] = *mark;
    r->marks[i].step = step;
    if (!same)
        r->n++;
    return true;
}

int trun_ring_find(const struct trun_ring *r, long step)
{
    if (r->n == 0)
        return -1;
    int i = r->n - 1;
    while (i > 0 && r->marks[i].step > step)
        i--;
    return i;
}

const float *trun_ring_params(const struct trun_ring *r, int i)
{
    return i >= 0 && i < r->n ? r->params + (size_t)i * r->n_params : NULL;
}

const struct trun_mark *trun_ring_mark(const struct trun_ring *r, int i)
{
    return i >= 0 && i < r->n ? &r->marks[i] : NULL;
}

/* ---- the curves ----------------------------------------------------------------------- */

static void buckets_clear(struct trun_history *h)
{
    memset(h->bucket_sum, 0, sizeof h->bucket_sum);
    memset(h->bucket_count, 0, sizeof h->bucket_count);
    h->width = 1;
    h->top = 0.0f;
}

int trun_history_init(struct trun_history *h, long steps, int n_outputs, int eval_cap)
{
    memset(h, 0, sizeof *h);
    if (steps < 1 || eval_cap < 1 || steps > 10000000L)
        return -1;
    h->loss = malloc((size_t)steps * sizeof *h->loss);
    h->eval_step = malloc((size_t)eval_cap * sizeof *h->eval_step);
    h->eval_acc = malloc((size_t)eval_cap * TRUN_MAX_OUTPUTS * sizeof *h->eval_acc);
    h->eval_loss = malloc((size_t)eval_cap * sizeof *h->eval_loss);
    if (!h->loss || !h->eval_step || !h->eval_acc || !h->eval_loss) {
        trun_history_done(h);
        return -1;
    }
    buckets_clear(h);
    h->cap = steps;
    h->eval_cap = eval_cap;
    h->n_outputs = n_outputs;
    return 0;
}

void trun_history_done(struct trun_history *h)
{
    free(h->loss);
    free(h->eval_step);
    free(h->eval_acc);
    free(h->eval_loss);
    memset(h, 0, sizeof *h);
}

void trun_history_clear(struct trun_history *h, int n_outputs)
{
    buckets_clear(h);
    h->n = 0;
    h->evals = 0;
    h->eval_top = 0.0f;
    h->n_outputs = n_outputs;
}

void trun_history_loss(struct trun_history *h, float loss)
{
    if (h->n >= h->cap)
        return;
    h->loss[h->n] = loss;
    if ((h->n / h->width) >= TRUN_BUCKETS) { /* full: pairs become one */
        for (int b = 0; b < TRUN_BUCKETS / 2; b++) {
            h->bucket_sum[b] = h->bucket_sum[2 * b] + h->bucket_sum[2 * b + 1];
            h->bucket_count[b] = h->bucket_count[2 * b] + h->bucket_count[2 * b + 1];
        }
        for (int b = TRUN_BUCKETS / 2; b < TRUN_BUCKETS; b++) {
            h->bucket_sum[b] = 0.0;
            h->bucket_count[b] = 0;
        }
        h->width *= 2;
    }
    if (isfinite(loss)) {
        const long b = h->n / h->width;
        h->bucket_sum[b] += loss;
        h->bucket_count[b]++;
        if (loss > h->top)
            h->top = loss;
    }
    h->n++;
}

void trun_history_columns(const struct trun_history *h, long span, int cols, float *out)
{
    if (span < h->n)
        span = h->n;
    for (int c = 0; c < cols; c++) {
        /* the buckets whose first step falls under column c */
        const long lo = span > 0 ? (long)((long long)c * span / cols) : 0;
        long hi = span > 0 ? (long)((long long)(c + 1) * span / cols) : 0;
        if (hi <= lo)
            hi = lo + 1;
        double sum = 0.0;
        long count = 0;
        for (long b = (lo + h->width - 1) / h->width; b * h->width < hi && b * h->width < h->n;
             b++) {
            sum += h->bucket_sum[b];
            count += h->bucket_count[b];
        }
        if (!count && lo < h->n) { /* a column narrower than a bucket: the bucket it is in */
            sum = h->bucket_sum[lo / h->width];
            count = h->bucket_count[lo / h->width];
        }
        out[c] = count ? (float)(sum / (double)count) : NAN;
    }
}

void trun_history_eval(struct trun_history *h, long step, const float *acc, float loss)
{
    if (h->evals >= h->eval_cap)
        return;
    h->eval_step[h->evals] = step;
    h->eval_loss[h->evals] = loss;
    if (isfinite(loss) && loss > h->eval_top)
        h->eval_top = loss;
    for (int k = 0; k < TRUN_MAX_OUTPUTS; k++)
        h->eval_acc[(size_t)h->evals * TRUN_MAX_OUTPUTS + (size_t)k] =
            k < h->n_outputs ? acc[k] : NAN;
    h->evals++;
}

void trun_history_held_columns(const struct trun_history *h, long span, long reached, int cols,
                               float *out)
{
    int e = 0;
    float v = NAN;
    for (int c = 0; c < cols; c++) {
        const long begin = span > 0 ? (long)((long long)c * span / cols) : 0;
        const long end = span > 0 ? (long)((long long)(c + 1) * span / cols) : 1;
        for (; e < h->evals && h->eval_step[e] < (end > begin ? end : begin + 1); e++)
            v = h->eval_loss[e];
        out[c] = reached < begin ? NAN : v;
    }
}

void trun_curve_columns(const float *v, long n, long span, int cols, float *out)
{
    if (span < n)
        span = n;
    for (int c = 0; c < cols; c++) {
        /* steps [lo, hi) fall under column c */
        const long lo = span > 0 ? (long)((long long)c * span / cols) : 0;
        long hi = span > 0 ? (long)((long long)(c + 1) * span / cols) : 0;
        if (hi <= lo)
            hi = lo + 1;
        double sum = 0.0;
        long count = 0;
        for (long s = lo; s < hi && s < n; s++) {
            if (isfinite(v[s])) {
                sum += v[s];
                count++;
            }
        }
        out[c] = count ? (float)(sum / (double)count) : NAN;
    }
}

int trun_curve_level(float value, float lo, float hi, int levels)
{
    if (isnan(value))
        return -1;
    if (!(hi > lo))
        return value > lo ? levels : 0;
    const float t = (value - lo) / (hi - lo);
    if (t <= 0.0f)
        return 0;
    if (t >= 1.0f)
        return levels;
    return (int)lroundf(t * (float)levels);
}

/* ---- the pace ------------------------------------------------------------------------- */

const int trun_rates[TRUN_RATE_COUNT] = {2, 5, 10, 25, 60, 120, 250, 500, 1000};

int trun_tick_steps(long tick, int rate)
{
    const long long per_s = 1000 / TRUN_TICK_MS;
    if (tick < 1 || rate < 1)
        return 0;
    return (int)((long long)tick * rate / per_s - (long long)(tick - 1) * rate / per_s);
}

long trun_ms(double seconds)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%.3f", seconds);
    return lround(strtod(buf, NULL) * 1000.0);
}
