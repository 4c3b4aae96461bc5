/* test_ui_train.c - the training screen's memory without a terminal: the
 * checkpoints (kept at their interval, thinned when full with step 0 kept,
 * found again when scrubbing), the curves (columns over the step limit,
 * levels), and the pace (ticks that add up to the rate, times rounded as a
 * recording writes them). */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "svg_fit.h"
#include "train/trun.h"
#include "ui/train/ui_train.h"
#include "engine/views.h"
#include "engine/views_drift.h"
#include "train/train_text.h"
#include "train/trun_ring.h"

/* Parameters that say which step they were taken at. */
static void params_at(float *p, size_t n, long step)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (float)step + (float)i / 100.0f;
}

START_TEST(test_ring_keeps_every_interval)
{
    struct trun_ring r;
    ck_assert_int_eq(trun_ring_init(&r, 8, 3, 10), 0);
    float p[3];
    struct trun_mark m = {0};
    for (long s = 0; s <= 50; s++) {
        params_at(p, 3, s);
        m.loss = (float)s;
        const bool kept = trun_ring_offer(&r, s, p, &m);
        ck_assert_int_eq(kept, s % 10 == 0);
    }
    ck_assert_int_eq(r.n, 6);
    for (int i = 0; i < r.n; i++) {
        ck_assert_int_eq(trun_ring_mark(&r, i)->step, 10 * i);
        ck_assert_float_eq(trun_ring_params(&r, i)[2], (float)(10 * i) + 0.02f);
    }
    /* the same step twice is kept once */
    params_at(p, 3, 50);
    ck_assert(!trun_ring_offer(&r, 50, p, &m));
    ck_assert_int_eq(r.n, 6);
    trun_ring_done(&r);
}
END_TEST

START_TEST(test_ring_thins_when_full)
{
    struct trun_ring r;
    ck_assert_int_eq(trun_ring_init(&r, 4, 2, 5), 0);
    float p[2];
    struct trun_mark m = {0};
    for (long s = 0; s <= 15; s += 5) {
        params_at(p, 2, s);
        ck_assert(trun_ring_offer(&r, s, p, &m));
    }
    ck_assert_int_eq(r.n, 4); /* 0 5 10 15: full */
    params_at(p, 2, 20);
    /* full: 0 and 10 stay, the interval becomes 10, and 20 is kept */
    ck_assert(trun_ring_offer(&r, 20, p, &m));
    ck_assert_int_eq(r.every, 10);
    ck_assert_int_eq(r.n, 3);
    ck_assert_int_eq(trun_ring_mark(&r, 0)->step, 0);
    ck_assert_int_eq(trun_ring_mark(&r, 1)->step, 10);
    ck_assert_int_eq(trun_ring_mark(&r, 2)->step, 20);
    ck_assert_float_eq(trun_ring_params(&r, 1)[1], 10.01f);
    ck_assert_float_eq(trun_ring_params(&r, 2)[0], 20.0f);
    /* 25 is no longer a checkpoint step */
    params_at(p, 2, 25);
    ck_assert(!trun_ring_offer(&r, 25, p, &m));
    /* a long run: step 0 is always there, the last checkpoint is recent */
    for (long s = 26; s <= 1000; s++) {
        params_at(p, 2, s);
        trun_ring_offer(&r, s, p, &m);
    }
    ck_assert_int_le(r.n, 4);
    ck_assert_int_eq(trun_ring_mark(&r, 0)->step, 0);
    ck_assert_float_eq(trun_ring_params(&r, 0)[0], 0.0f);
    const long last = trun_ring_mark(&r, r.n - 1)->step;
    ck_assert_int_gt(last, 1000 - r.every);
    ck_assert_float_eq(trun_ring_params(&r, r.n - 1)[0], (float)last);
    trun_ring_done(&r);
}
END_TEST

START_TEST(test_ring_find)
{
    struct trun_ring r;
    ck_assert_int_eq(trun_ring_init(&r, 16, 1, 25), 0);
    ck_assert_int_eq(trun_ring_find(&r, 100), -1);
    float p[1];
    struct trun_mark m = {0};
    for (long s = 0; s <= 100; s += 25) {
        p[0] = (float)s;
        trun_ring_offer(&r, s, p, &m);
    }
    ck_assert_int_eq(trun_ring_find(&r, 0), 0);
    ck_assert_int_eq(trun_ring_find(&r, 24), 0);
    ck_assert_int_eq(trun_ring_find(&r, 25), 1);
    ck_assert_int_eq(trun_ring_find(&r, 99), 3);
    ck_assert_int_eq(trun_ring_find(&r, 5000), 4);
    ck_assert_int_eq(trun_ring_find(&r, -3), 0);
    ck_assert_ptr_null(trun_ring_params(&r, 5));
    /* a new run forgets the old */
    trun_ring_clear(&r, 50);
    ck_assert_int_eq(trun_ring_find(&r, 10), -1);
    ck_assert(!trun_ring_offer(&r, 25, p, &m));
    ck_assert(trun_ring_offer(&r, 50, p, &m));
    trun_ring_done(&r);
}
END_TEST

START_TEST(test_ring_bad_sizes)
{
    struct trun_ring r;
    ck_assert_int_eq(trun_ring_init(&r, 1, 4, 10), -1);
    ck_assert_int_eq(trun_ring_init(&r, 8, 0, 10), -1);
    ck_assert_int_eq(trun_ring_init(&r, 8, 4, 0), -1);
    trun_ring_done(&r); /* safe after a refusal */
}
END_TEST

/* The screen's curve comes from buckets of the loss: the same as the
 * steps' own means while a bucket is one step, close after it grows, with
 * no column left empty, and the top kept as the steps come. */
START_TEST(test_history_columns)
{
    struct trun_history h;
    ck_assert_int_eq(trun_history_init(&h, 200000, 1, 16), 0);
    float want[400], got[400];
    for (long s = 0; s < 200000; s++) {
        const float loss = s == 7 ? NAN : 5.0f * expf(-(float)s / 20000.0f) + (float)(s % 3);
        trun_history_loss(&h, loss);
        if (s + 1 == 1000 || s + 1 == 5000 || s + 1 == 200000) {
            const long span = s + 1 == 1000 ? 1500 : s + 1;
            const int cols = s + 1 == 200000 ? 400 : 100; /* narrower than a bucket */
            trun_curve_columns(h.loss, h.n, span, cols, want);
            trun_history_columns(&h, span, cols, got);
            for (int c = 0; c < cols; c++) {
                if (isnan(want[c])) {
                    ck_assert(isnan(got[c]));
                    continue;
                }
                ck_assert(!isnan(got[c]));
                if (h.width == 1)
                    ck_assert_float_eq_tol(got[c], want[c], 1e-5f);
                else
                    ck_assert_float_eq_tol(got[c], want[c], 0.05f);
            }
        }
    }
    ck_assert_float_eq(h.top, 5.0f * expf(-2.0f / 20000.0f) + 2.0f);
    ck_assert_int_gt(h.width, 1);
    trun_history_clear(&h, 1);
    ck_assert_int_eq(h.width, 1);
    ck_assert_float_eq(h.top, 0.0f);
    trun_history_done(&h);
}
END_TEST

START_TEST(test_curve_columns)
{
    /* 4 steps on a plot of 8 columns over 8 steps: one step a column, then empty */
    const float v[] = {4.0f, 3.0f, 2.0f, 1.0f};
    float out[8];
    trun_curve_columns(v, 4, 8, 8, out);
    ck_assert_float_eq(out[0], 4.0f);
    ck_assert_float_eq(out[3], 1.0f);
    for (int c = 4; c < 8; c++)
        ck_assert(isnan(out[c]));
    /* two steps a column: their mean */
    trun_curve_columns(v, 4, 4, 2, out);
    ck_assert_float_eq(out[0], 3.5f);
    ck_assert_float_eq(out[1], 1.5f);
    /* more columns than steps: each step spreads over the columns it covers */
    trun_curve_columns(v, 4, 0, 8, out);
    ck_assert_float_eq(out[0], 4.0f);
    ck_assert_float_eq(out[1], 4.0f);
    ck_assert_float_eq(out[7], 1.0f);
    /* a NaN step is left out of its column */
    const float w[] = {NAN, 2.0f};
    trun_curve_columns(w, 2, 2, 1, out);
    ck_assert_float_eq(out[0], 2.0f);
}
END_TEST

START_TEST(test_curve_level)
{
    ck_assert_int_eq(trun_curve_level(0.0f, 0.0f, 4.0f, 8), 0);
    ck_assert_int_eq(trun_curve_level(4.0f, 0.0f, 4.0f, 8), 8);
    ck_assert_int_eq(trun_curve_level(2.0f, 0.0f, 4.0f, 8), 4);
    ck_assert_int_eq(trun_curve_level(9.0f, 0.0f, 4.0f, 8), 8);
    ck_assert_int_eq(trun_curve_level(-1.0f, 0.0f, 4.0f, 8), 0);
    ck_assert_int_eq(trun_curve_level(NAN, 0.0f, 4.0f, 8), -1);
    ck_assert_int_eq(trun_curve_level(1.0f, 1.0f, 1.0f, 8), 0);
}
END_TEST

START_TEST(test_history)
{
    struct trun_history h;
    ck_assert_int_eq(trun_history_init(&h, 3, 2, 2), 0);
    for (int i = 0; i < 5; i++)
        trun_history_loss(&h, (float)i);
    ck_assert_int_eq(h.n, 3); /* the limit holds */
    const float a[2] = {0.5f, 0.25f};
    trun_history_eval(&h, 10, a, 2.0f);
    trun_history_eval(&h, 20, a, 3.0f);
    trun_history_eval(&h, 30, a, 9.0f);
    ck_assert_int_eq(h.evals, 2);
    ck_assert_float_eq(h.eval_top, 3.0f); /* the evaluation past the cap is not kept */
    /* the held-out loss on 4 columns of 40 steps, trained to step 25: the
     * last evaluation before each column's end, nothing past step 25 */
    float col[4];
    trun_history_held_columns(&h, 40, 25, 4, col);
    ck_assert(isnan(col[0]));
    ck_assert_float_eq(col[1], 2.0f);
    ck_assert_float_eq(col[2], 3.0f);
    ck_assert(isnan(col[3]));
    ck_assert_int_eq(h.eval_step[1], 20);
    ck_assert_float_eq(h.eval_acc[TRUN_MAX_OUTPUTS + 1], 0.25f);
    ck_assert(isnan(h.eval_acc[2]));
    trun_history_clear(&h, 1);
    ck_assert_int_eq(h.n, 0);
    ck_assert_int_eq(h.evals, 0);
    ck_assert_float_eq(h.eval_top, 0.0f);
    trun_history_done(&h);
}
END_TEST

START_TEST(test_pace)
{
    /* every rate: the ticks of one second add up to it, none more than one above another */
    for (int i = 0; i < TRUN_RATE_COUNT; i++) {
        const int rate = trun_rates[i];
        long sum = 0;
        int lo = 1 << 30, hi = 0;
        for (long t = 1; t <= 1000 / TRUN_TICK_MS; t++) {
            const int s = trun_tick_steps(t, rate);
            sum += s;
            lo = s < lo ? s : lo;
            hi = s > hi ? s : hi;
        }
        ck_assert_int_eq(sum, rate);
        ck_assert_int_le(hi - lo, 1);
        if (i > 0)
            ck_assert_int_gt(rate, trun_rates[i - 1]);
    }
    ck_assert_int_eq(trun_tick_steps(0, 300), 0);
    /* times as a recording writes them: to the millisecond */
    ck_assert_int_eq(trun_ms(0.0494), 49);
    ck_assert_int_eq(trun_ms(0.0496), 50);
    ck_assert_int_eq(trun_ms(12.25), 12250);
}
END_TEST

static struct trun *train_new(int n, const int *heads, int steps)
{
    struct trun_setup s = {0};
    s.task = train_task_find("first-prev");
    ck_assert_ptr_nonnull(s.task);
    s.d_model = 8;
    s.vocab = 16;
    s.context = 8;
    train_run_options_default(&s.opt);
    s.opt.steps = steps;
    s.n_heads = n;
    s.compare = n > 1;
    for (int i = 0; i < n; i++)
        s.heads[i] = heads[i];
    struct mha_error err;
    mha_error_clear(&err);
    struct trun *t = trun_new(&s, &err);
    ck_assert_msg(t != NULL, "%s", err.text);
    return t;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* A text starts at the slowest rate that reaches its step limit in
 * TRUN_TEXT_SECONDS; a built-in task at the default whatever its limit. */
START_TEST(test_first_pace)
{
    static const char text[] = "the cat sat on the mat .\nthe dog sat on the rug .\n"
                               "the owl sat on the roof .\nthe cow sat on the grass .\n";
    struct train_text_options o = {.vocab = 32, .context = 8};
    struct mha_error err;
    mha_error_clear(&err);
    struct train_dataset *d =
        train_text_dataset_new(text, sizeof text - 1, "four", NULL, 0, NULL, &o, &err);
    ck_assert_msg(d != NULL, "%s", err.text);
    struct train_task task;
    train_task_from_dataset(&task, d);
    static const struct {
        int steps, rate;
    } cases[] = {{4000, 500}, {1200, 120}, {1201, 250}, {10, 120}, {100000, 1000}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct trun_setup s = {0};
        s.task = &task;
        s.d_model = 8;
        s.vocab = d->vocab;
        s.context = d->len;
        train_run_options_default(&s.opt);
        s.opt.steps = cases[i].steps;
        s.n_heads = 1;
        s.heads[0] = 2;
        struct trun *t = trun_new(&s, &err);
        ck_assert_msg(t != NULL, "%s", err.text);
        ck_assert_msg(trun_rates[t->rate] == cases[i].rate, "%d steps: %d a second, not %d",
                      cases[i].steps, trun_rates[t->rate], cases[i].rate);
        trun_free(t);
    }
    train_dataset_free(d);
    const int two[] = {2};
    struct trun *t = train_new(1, two, 100000);
    ck_assert_int_eq(t->rate, TRUN_RATE_DEFAULT);
    trun_free(t);
}
END_TEST

START_TEST(test_run_ticks_and_scrub)
{
    const int heads[] = {2};
    struct trun *t = train_new(1, heads, 400);
    /* 60 steps a second: three 50 ms ticks run 3 steps (one every tick) */
    t->rate = 4;
    ck_assert_int_eq(trun_rates[t->rate], 60);
    ck_assert(trun_catch_up(t, 150, true, 0));
    ck_assert_int_eq(t->panes[0].run->model->step, 9);
    ck_assert_int_eq(t->panes[0].hist.n, 9);
    /* a pause: ticks pass, no steps */
    t->paused = true;
    ck_assert(!trun_catch_up(t, 500, true, 0));
    ck_assert_int_eq(t->panes[0].run->model->step, 9);
    trun_step_once(t);
    ck_assert_int_eq(t->panes[0].run->model->step, 10);
    /* to the end: it stops by itself, at the latest at the limit */
    t->paused = false;
    t->rate = TRUN_RATE_COUNT - 1;
    trun_catch_up(t, 100000, true, 0);
    ck_assert(trun_done(t));
    ck_assert_int_le(t->panes[0].run->model->step, 400);
    ck_assert_int_eq(t->panes[0].ring.marks[0].step, 0);
    /* scrub to step 0: the checkpoint's parameters are the initial ones */
    trun_scrub_first(t);
    ck_assert_int_eq(trun_shown_step(t), 0);
    const struct train_model *m0 = trun_pane_model(&t->panes[0], t->scrub);
    ck_assert_ptr_eq(m0, t->panes[0].shown);
    ck_assert_mem_eq(m0->params, trun_ring_params(&t->panes[0].ring, 0),
                     m0->n_params * sizeof(float));
    trun_scrub(t, +1);
    ck_assert_int_eq(trun_shown_step(t), t->panes[0].ring.marks[1].step);
    trun_scrub_live(t);
    ck_assert_ptr_eq(trun_pane_model(&t->panes[0], t->scrub), t->panes[0].run->model);
    trun_free(t);
}
END_TEST

/* the screen's key hook, with a key always waiting */
static bool key_waits(void)
{
    return true;
}

/* With a key always waiting, each catch-up takes one part of a step (or of
 * an evaluation) and gives the screen back; a pause leaves the step in
 * flight, a single step finishes it; the runs end where runs taken a tick
 * at a time end, to the bit. */
START_TEST(test_parts_between_keys)
{
    const int heads[] = {1, 2};
    struct trun *a = train_new(2, heads, 30), *b = train_new(2, heads, 30);
    trun_catch_up(a, 1000000, true, 0);
    ck_assert(trun_done(a));
    b->interrupt = key_waits;
    long now = 0;
    int calls = 0;
    while (!trun_done(b) && calls < 200000) {
        now += TRUN_TICK_MS;
        const long before = b->panes[0].run->model->step + b->panes[1].run->model->step;
        trun_catch_up(b, now, false, 0);
        const long after = b->panes[0].run->model->step + b->panes[1].run->model->step;
        ck_assert_int_le(after - before, 1); /* a part at a time: one pane's step at most */
        if (++calls == 37) {
            ck_assert(b->round_open);
            ck_assert_int_eq(trun_wait_ms(b, now, 250), 0); /* it goes on at once */
            b->paused = true;
            trun_catch_up(b, now += TRUN_TICK_MS, false, 0);
            ck_assert(b->round_open);
            ck_assert_int_eq(b->panes[0].run->model->step, 0);
            trun_step_once(b);
            ck_assert(!b->round_open);
            ck_assert_int_eq(b->panes[0].run->model->step, 1);
            ck_assert_int_eq(b->panes[1].run->model->step, 1);
            b->paused = false;
        }
    }
    ck_assert(trun_done(b));
    for (int i = 0; i < 2; i++) {
        const struct train_model *ma = a->panes[i].run->model, *mb = b->panes[i].run->model;
        ck_assert_int_eq(mb->step, ma->step);
        ck_assert_int_eq(b->panes[i].stop, a->panes[i].stop);
        ck_assert_int_eq(b->panes[i].hist.n, a->panes[i].hist.n);
        ck_assert_mem_eq(mb->params, ma->params, ma->n_params * sizeof(float));
        ck_assert_float_eq(b->panes[i].run->eval_loss, a->panes[i].run->eval_loss);
    }
    trun_free(a);
    trun_free(b);
}
END_TEST

START_TEST(test_svg)
{
    const int heads[] = {1, 2};
    struct trun *t = train_new(2, heads, 100);
    trun_catch_up(t, 100000, true, 0);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ck_assert_int_eq(ui_train_svg_write(mem, t), 0);
    fclose(mem);
    ck_assert(strncmp(buf, "<svg ", 5) == 0);
    ck_assert_ptr_nonnull(strstr(buf, "</svg>"));
    ck_assert_ptr_nonnull(strstr(buf, ">1 head<"));
    ck_assert_ptr_nonnull(strstr(buf, ">2 heads<"));
    /* one cell per query and key for each of the three heads, and per pane the
     * training loss, the held-out loss and 2 outputs */
    const int sample = t->panes[0].run->model->sample_len;
    ck_assert_int_eq(count(buf, "<rect x="), 3 * sample * sample);
    ck_assert_int_eq(count(buf, "<polyline"), 2 * 4);
    ck_assert_ptr_nonnull(strstr(buf, ">held-out</text>"));
    free(buf);
    trun_free(t);
}
END_TEST

/* Every text of the training picture lies inside it (svg_fit.h): one run
 * and compare, heads 1 to 8, d_model 8 to 16, sequences of 4 to 16, before
 * and after the runs stopped, at a checkpoint too. */
START_TEST(test_svg_text_fits)
{
    static const struct {
        int d_model, context, n, heads[2];
    } cases[] = {{8, 8, 1, {2}},  {8, 8, 1, {1}},      {8, 8, 2, {1, 2}}, {8, 8, 2, {2, 4}},
                 {16, 4, 1, {8}}, {16, 16, 2, {1, 8}}, {8, 16, 1, {4}}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int phase = 0; phase < 3; phase++) {
            struct trun_setup s = {0};
            s.task = train_task_find("first-prev");
            s.d_model = cases[i].d_model;
            s.vocab = 16;
            s.context = cases[i].context;
            train_run_options_default(&s.opt);
            s.opt.steps = 120;
            s.n_heads = cases[i].n;
            s.compare = cases[i].n > 1;
            for (int k = 0; k < cases[i].n; k++)
                s.heads[k] = cases[i].heads[k];
            struct mha_error err;
            mha_error_clear(&err);
            struct trun *t = trun_new(&s, &err);
            ck_assert_msg(t != NULL, "%s", err.text);
            if (phase > 0)
                trun_catch_up(t, 100000, true, 0);
            if (phase == 2)
                trun_scrub_first(t);
            char *buf = NULL;
            size_t len = 0;
            FILE *mem = open_memstream(&buf, &len);
            ck_assert_int_eq(ui_train_svg_write(mem, t), 0);
            fclose(mem);
            const char *why = svg_text_outside(buf);
            ck_assert_msg(why == NULL, "case %zu, phase %d: %s", i, phase, why);
            free(buf);
            trun_free(t);
        }
}
END_TEST

/* Each head's form compared with itself is 1; with W_q negated -1; scaled 1;
 * with another head's rows in its place, the cosine of the two forms. */
START_TEST(test_drift)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *a = mha_example_generated(4, NULL, 8, 2, 5, &err);
    struct mha_example *b = mha_example_generated(4, NULL, 8, 2, 5, &err);
    struct mha_example *c = mha_example_generated(4, NULL, 8, 4, 5, &err);
    ck_assert(a && b && c);
    double cos[2];
    ck_assert_int_eq(views_heads_drift(a, b, cos), 0);
    ck_assert_float_eq_tol(cos[0], 1.0, 1e-9);
    ck_assert_float_eq_tol(cos[1], 1.0, 1e-9);
    for (int i = 0; i < 64; i++)
        b->w_q[i] = -3.0f * a->w_q[i];
    ck_assert_int_eq(views_heads_drift(a, b, cos), 0);
    ck_assert_float_eq_tol(cos[0], -1.0, 1e-9);
    ck_assert_float_eq_tol(cos[1], -1.0, 1e-9);
    /* head 0's rows swapped with head 1's: the cosine of the two heads' forms, which
     * the heads view's similarity gives */
    for (int i = 0; i < 32; i++) {
        b->w_q[i] = a->w_q[32 + i], b->w_q[32 + i] = a->w_q[i];
        b->w_k[i] = a->w_k[32 + i], b->w_k[32 + i] = a->w_k[i];
    }
    ck_assert_int_eq(views_heads_drift(a, b, cos), 0);
    double sim[4], rank[2], sv[8];
    ck_assert_int_eq(views_heads(a, sim, rank, sv, &err), 0);
    ck_assert_float_eq_tol(cos[0], sim[1], 1e-9);
    ck_assert_float_eq_tol(cos[1], sim[2], 1e-9);
    /* other sizes are refused */
    ck_assert_int_eq(views_heads_drift(a, c, cos), -1);
    mha_example_free(a);
    mha_example_free(b);
    mha_example_free(c);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ui_train");
    TCase *ring = tcase_create("checkpoints");
    tcase_add_test(ring, test_ring_keeps_every_interval);
    tcase_add_test(ring, test_ring_thins_when_full);
    tcase_add_test(ring, test_ring_find);
    tcase_add_test(ring, test_ring_bad_sizes);
    suite_add_tcase(s, ring);
    TCase *curve = tcase_create("curves");
    tcase_add_test(curve, test_curve_columns);
    tcase_add_test(curve, test_history_columns);
    tcase_add_test(curve, test_curve_level);
    tcase_add_test(curve, test_history);
    suite_add_tcase(s, curve);
    TCase *pace = tcase_create("pace");
    tcase_add_test(pace, test_pace);
    suite_add_tcase(s, pace);
    TCase *run = tcase_create("runs");
    tcase_set_timeout(run, 60);
    tcase_add_test(run, test_first_pace);
    tcase_add_test(run, test_run_ticks_and_scrub);
    tcase_add_test(run, test_parts_between_keys);
    tcase_add_test(run, test_svg);
    tcase_add_test(run, test_svg_text_fits);
    tcase_add_test(run, test_drift);
    suite_add_tcase(s, run);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
