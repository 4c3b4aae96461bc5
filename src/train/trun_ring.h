/* trun_ring.h - a training run's memory (trun.h), without curses:
 *
 * - the checkpoints: copies of the parameters every so many steps, in one
 *   block allocated when the run starts.  Step 0 is always kept.  When the
 *   block is full every other checkpoint goes and the interval doubles, so a
 *   run of any length is covered from its first step to its last, more
 *   coarsely the longer it runs, and no step allocates.
 * - the loss of every step, and the held-out loss and accuracy of each
 *   output at every evaluation, for the curves (also allocated once, for
 *   the step limit).
 * - the pace: a fixed number of ticks a second; each tick runs the steps a
 *   rate in steps per second gives it (integer arithmetic, so a recording
 *   replays the same steps at the same ticks).
 */
#ifndef TRUN_RING_H
#define TRUN_RING_H

#include <stdbool.h>
#include <stddef.h>

/* Outputs a run can report accuracies for. */
#define TRUN_MAX_OUTPUTS 4

/* Heads and jobs a checkpoint keeps a text's jobs for. */
#define TRUN_MARK_HEADS 16
#define TRUN_MARK_JOBS 8

/* What a checkpoint remembers beside the parameters. */
struct trun_mark {
    long step;
    float loss;                  /* loss of the batch of that step (NaN: none yet) */
    float acc[TRUN_MAX_OUTPUTS]; /* held-out accuracy at the last evaluation */
    /* a text's jobs as last measured: each head's (a bit per job) and each
     * job's top-1 with every head */
    bool jobs_valid;
    int jobs_layer; /* the layer whose heads they are (a model of layers) */
    unsigned jobs[TRUN_MARK_HEADS];
    float job_top1[TRUN_MARK_JOBS];
    float knocked[TRUN_MARK_HEADS][TRUN_MARK_JOBS]; /* each job's top-1, head h out */
};

struct trun_ring {
    int cap;                 /* checkpoints it can hold (at least 2) */
    size_t n_params;         /* floats in one checkpoint */
    long every;              /* steps from one checkpoint to the next */
    int n;                   /* checkpoints held, oldest (step 0) first */
    float *params;           /* cap * n_params */
    struct trun_mark *marks; /* cap */
};

/* Allocate room for cap checkpoints of n_params floats, one every `every`
 * steps.  0, or -1 when out of memory or the sizes are not sensible. */
int trun_ring_init(struct trun_ring *r, int cap, size_t n_params, long every);
void trun_ring_done(struct trun_ring *r);
/* Forget every checkpoint (a new run of the same size), with this interval. */
void trun_ring_clear(struct trun_ring *r, long every);

/* Keep a checkpoint of params at step when one is due there (step is a
 * multiple of the interval and later than the last kept); thins the
 * checkpoints first when the block is full.  True when it was kept. */
bool trun_ring_offer(struct trun_ring *r, long step, const float *params,
                     const struct trun_mark *mark);

/* Keep a checkpoint of params at step whatever the interval (a watched
 * run's, from the teacher): in its place by step, over one at the same
 * step; the block full, every other checkpoint goes first.  True when kept. */
bool trun_ring_put(struct trun_ring *r, long step, const float *params,
                   const struct trun_mark *mark);

/* Index of the last checkpoint at or before step (0 when step is before
 * them all); -1 when there is none. */
int trun_ring_find(const struct trun_ring *r, long step);
const float *trun_ring_params(const struct trun_ring *r, int i);
const struct trun_mark *trun_ring_mark(const struct trun_ring *r, int i);

/* ---- the curves ----------------------------------------------------------------------- */

/* Buckets of the loss a curve is drawn from, whatever the steps so far. */
#define TRUN_BUCKETS 1024

struct trun_history {
    long cap;    /* steps it can hold: the step limit */
    long n;      /* steps recorded */
    float *loss; /* cap */
    float top;   /* the largest finite loss so far */
    /* the loss summed over runs of `width` steps (doubling as the run grows),
     * so drawing the curve costs the same at step 10 and step 10^6 */
    double bucket_sum[TRUN_BUCKETS];
    int bucket_count[TRUN_BUCKETS];
    long width;
    int n_outputs;
    int evals, eval_cap; /* evaluations recorded */
    long *eval_step;     /* eval_cap */
    float *eval_acc;     /* eval_cap * TRUN_MAX_OUTPUTS */
    float *eval_loss;    /* eval_cap: the held-out loss */
    float eval_top;      /* the largest finite held-out loss so far */
};

int trun_history_init(struct trun_history *h, long steps, int n_outputs, int eval_cap);
void trun_history_done(struct trun_history *h);
void trun_history_clear(struct trun_history *h, int n_outputs);
/* The loss of the next step (ignored past the limit). */
void trun_history_loss(struct trun_history *h, float loss);
/* An evaluation at step: acc[n_outputs] and the held-out loss (ignored
 * when full). */
void trun_history_eval(struct trun_history *h, long step, const float *acc, float loss);

/* The held-out loss on a plot cols wide over span steps: under each column
 * the last evaluation before the column's end, NaN past step reached (not
 * trained that far) or before the first evaluation. */
void trun_history_held_columns(const struct trun_history *h, long span, long reached, int cols,
                               float *out);

/* The curve of values v[0..n) on a plot cols wide whose x axis runs over
 * span steps (span >= n: the rest of the plot stays empty): the mean of the
 * steps under each column into out[cols] (NaN where no step falls). */
void trun_curve_columns(const float *v, long n, long span, int cols, float *out);

/* trun_curve_columns of h's loss, from its buckets: the same while a
 * bucket is one step, within a bucket's width of it after. */
void trun_history_columns(const struct trun_history *h, long span, int cols, float *out);

/* Level 0..levels of value in [lo, hi] (clamped; NaN gives -1). */
int trun_curve_level(float value, float lo, float hi, int levels);

/* ---- the pace ------------------------------------------------------------------------- */

/* Ticks a second, and the rates the speed keys step through (steps a
 * second); TRUN_RATE_DEFAULT is the index of the default. */
#define TRUN_TICK_MS 50
#define TRUN_RATE_COUNT 9
#define TRUN_RATE_DEFAULT 5
/* a text starts faster, so its step limit is reached in this many seconds */
#define TRUN_TEXT_SECONDS 10
extern const int trun_rates[TRUN_RATE_COUNT];

/* Steps tick number `tick` (1, 2, ...) runs at rate steps a second: the
 * ticks' shares add up exactly to rate a second. */
int trun_tick_steps(long tick, int rate);

/* A time in seconds as a recording writes it ("%.3f"), in milliseconds. */
long trun_ms(double seconds);

#endif
