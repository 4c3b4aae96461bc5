/* train_fit.c - the held-out loss beside the training loss, and the signs
 * that a run's file is too small to learn from (train_fit.h). */
#include "train/train_fit.h"

#include <math.h>
#include <stdio.h>

void train_fit_init(struct train_fit *f)
{
    *f = (struct train_fit){0, NAN, 0, NAN, NAN, NAN, 0};
}

void train_fit_evaluated(struct train_fit *f, long step, float held, float train)
{
    if (!isfinite(held))
        return;
    if (f->evals == 0 || !(held >= f->best)) {
        f->best = held;
        f->best_step = step;
        f->train_best = train;
    }
    f->held = held;
    f->train = train;
    f->step = step;
    f->evals++;
}

/* The training loss where the held-out loss was lowest; at step 0, before
 * any step, the held-out loss itself (an untrained model does as well on
 * the lines it will train on as on the others). */
static float train_at_best(const struct train_fit *f)
{
    return isfinite(f->train_best) ? f->train_best : f->best;
}

unsigned train_fit_signs(const struct train_fit *f, long words)
{
    unsigned s = 0;
    if (words >= 0 && words < TRAIN_FIT_MIN_WORDS)
        s |= TRAIN_FIT_FEW_WORDS;
    if (f->evals >= 2 && f->best_step == 0)
        s |= TRAIN_FIT_BEST_AT_START;
    const float rise = f->best * 0.1f > TRAIN_FIT_RISE ? f->best * 0.1f : TRAIN_FIT_RISE;
    const float was = train_at_best(f);
    if (f->evals >= 2 && f->held >= f->best + rise && isfinite(was) && isfinite(f->train) &&
        f->train < TRAIN_FIT_FALL * was)
        s |= TRAIN_FIT_RISING;
    return s;
}

void train_fit_text(const struct train_fit *f, unsigned signs, long words, char *buf, size_t n)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    if (!signs || !n)
        return;
    used += (size_t)snprintf(buf, n, "Too small to learn from:");
    if (signs & TRAIN_FIT_FEW_WORDS && used < n)
        used += (size_t)snprintf(buf + used, n - used, " %ld word%s (a text needs %d or more).",
                                 words, words == 1 ? "" : "s", TRAIN_FIT_MIN_WORDS);
    const char *what = words >= 0 ? "lines" : "rows"; /* a text's, a task file's */
    if (signs & TRAIN_FIT_BEST_AT_START && used < n)
        used += (size_t)snprintf(buf + used, n - used,
                                 " Held-out loss lowest at step 0 (%.2f): no step lowered it.",
                                 (double)f->best);
    if (signs & TRAIN_FIT_RISING && used < n && signs & TRAIN_FIT_BEST_AT_START)
        snprintf(buf + used, n - used,
                 " Now %.2f, while the training loss fell to %.2f: it learns its %s by heart.",
                 (double)f->held, (double)f->train, what);
    else if (signs & TRAIN_FIT_RISING && used < n)
        snprintf(buf + used, n - used,
                 " Held-out loss up from %.2f (step %ld) to %.2f while the training loss fell "
                 "from %.2f to %.2f: it learns its %s by heart.",
                 (double)f->best, f->best_step, (double)f->held, (double)train_at_best(f),
                 (double)f->train, what);
}

const char *train_fit_sign_name(unsigned sign)
{
    switch (sign) {
    case TRAIN_FIT_FEW_WORDS:
        return "few_words";
    case TRAIN_FIT_BEST_AT_START:
        return "best_at_start";
    case TRAIN_FIT_RISING:
        return "rising";
    default:
        return "";
    }
}
