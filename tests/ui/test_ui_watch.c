/* test_ui_watch.c - a training run watched, not trained: a teacher's run
 * trains tick by tick writing its snapshots as a recording does (a pause,
 * single steps and a checkpoint scrubbed to among them), the recording is
 * read back, and a follower's run of the same setup, watching, ends with
 * the teacher's losses, evaluations, stopping, accuracies, heads and model
 * to the bit, and with its own step function never run: its ticks pass,
 * its single-step key and its catch-up leave the model as the snapshots
 * put it. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/record.h"
#include "train/trun.h"
#include "ui/follow/ui_stream.h"
#include "ui/modes/ui_app.h"
#include "ui/train/ui_train.h"

static struct trun *run_new(int steps)
{
    struct trun_setup s = {0};
    s.task = train_task_find("first-prev");
    ck_assert_ptr_nonnull(s.task);
    s.d_model = 8;
    s.vocab = 16;
    s.context = 8;
    train_run_options_default(&s.opt);
    s.opt.steps = steps;
    s.n_heads = 1;
    s.heads[0] = 2;
    struct mha_error err;
    mha_error_clear(&err);
    struct trun *t = trun_new(&s, &err);
    ck_assert_msg(t != NULL, "%s", err.text);
    return t;
}

/* The teacher's side: ticks to ms on the session clock, then what a
 * recording writes after them. */
static void teacher_at(struct ui_app *app, long ms)
{
    trun_catch_up(app->training.train, ms, true, 0);
    app->training.train_clock_ms = ms;
    ui_record_snaps(app);
}

static void check_same_run(const struct trun *a, const struct trun *b)
{
    const struct trun_pane *p = &a->panes[0], *q = &b->panes[0];
    ck_assert_int_eq(p->run->model->step, q->run->model->step);
    ck_assert_mem_eq(p->run->model->params, q->run->model->params,
                     p->run->model->n_params * sizeof(float));
    ck_assert_int_eq(p->hist.n, q->hist.n);
    ck_assert_mem_eq(p->hist.loss, q->hist.loss, (size_t)p->hist.n * sizeof(float));
    ck_assert_int_eq(p->hist.evals, q->hist.evals);
    ck_assert_mem_eq(p->hist.eval_step, q->hist.eval_step, (size_t)p->hist.evals * sizeof(long));
    ck_assert_mem_eq(p->hist.eval_loss, q->hist.eval_loss, (size_t)p->hist.evals * sizeof(float));
    ck_assert_mem_eq(p->hist.eval_acc, q->hist.eval_acc,
                     (size_t)p->hist.evals * TRUN_MAX_OUTPUTS * sizeof(float));
    ck_assert_int_eq(p->stop, q->stop);
    ck_assert_int_eq(p->stopping.best_step, q->stopping.best_step);
    ck_assert_mem_eq(&p->stopping.best, &q->stopping.best, sizeof(float));
    for (int k = 0; k < p->run->model->cfg.n_outputs; k++)
        ck_assert_mem_eq(&p->run->accuracy[k], &q->run->accuracy[k], sizeof(float));
    char why_a[256], why_b[256];
    trun_stop_text(p, why_a, sizeof why_a);
    trun_stop_text(q, why_b, sizeof why_b);
    ck_assert_str_eq(why_a, why_b);
    ck_assert(q->roles_valid);
    for (int h = 0; h < p->run->model->cfg.heads; h++) {
        ck_assert_int_eq(p->roles[h].kind, q->roles[h].kind);
        ck_assert_mem_eq(&p->roles[h].share, &q->roles[h].share, sizeof(float));
    }
}

START_TEST(test_follower_watches)
{
    struct ui_app *teacher = calloc(1, sizeof *teacher);
    char *text = NULL;
    size_t len = 0;
    teacher->stream.record = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(teacher->stream.record);
    fprintf(teacher->stream.record, "mha-explorer-recording 2\n");
    rec_snap_write_on(teacher->stream.record);
    teacher->training.train = run_new(600);
    struct trun *t = teacher->training.train;
    long ms = 0;
    for (; ms <= 1500; ms += 50) /* 1.5 s, a snapshot at most every half */
        teacher_at(teacher, ms);
    t->paused = true; /* a pause, two single steps, a checkpoint */
    teacher_at(teacher, ms += 50);
    trun_step_once(t);
    teacher_at(teacher, ms += 50);
    trun_step_once(t);
    teacher_at(teacher, ms += 50);
    trun_scrub(t, -1);
    const long scrub_ms = ms += 50;
    teacher_at(teacher, scrub_ms);
    const long scrubbed = t->scrub;
    ck_assert_int_ge(scrubbed, 0);
    trun_scrub_live(t);
    t->paused = false;
    for (; !trun_done(t); ms += 50)
        teacher_at(teacher, ms);
    teacher_at(teacher, ms += 50);
    fclose(teacher->stream.record);

    struct recording rec;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_eq(rec_parse(text, "t.rec", &rec, &err), 0);
    ck_assert(rec.snaps_on);
    ck_assert_int_gt(rec.n_snaps, 4);

    struct ui_app *student = calloc(1, sizeof *student);
    student->training.train = run_new(600);
    struct trun *w = student->training.train;
    w->watch = true;
    w->follow_gen = 1; /* no explorer example to keep in step here */
    student->st.ex_gen = 2;
    const float *start = w->panes[0].run->model->params;
    float *before = malloc(w->panes[0].run->model->n_params * sizeof *before);
    memcpy(before, start, w->panes[0].run->model->n_params * sizeof *before);
    /* its ticks pass and its single-step key is pressed: nothing trains */
    ck_assert(!trun_catch_up(w, 5000, true, 0));
    trun_step_once(w);
    ck_assert_int_eq(w->panes[0].run->model->step, 0);
    ck_assert_int_eq(w->panes[0].hist.n, 0);
    ck_assert_mem_eq(w->panes[0].run->model->params, before,
                     w->panes[0].run->model->n_params * sizeof *before);
    w->paused = false;

    /* the snapshots up to the checkpoint: the student is on the teacher's
     * step, the second single step's */
    int next = 0;
    ck_assert(ui_watch_apply(student, &rec, &next, 0, scrub_ms - 1));
    ck_assert_int_lt(next, rec.n_snaps);
    const long paused_at = w->panes[0].run->model->step;
    ck_assert_int_gt(paused_at, 0);
    /* the checkpoint the teacher scrubbed to is among the student's */
    ck_assert(ui_watch_apply(student, &rec, &next, 0, scrub_ms));
    const int c = trun_ring_find(&w->panes[0].ring, scrubbed);
    ck_assert_int_eq(trun_ring_mark(&w->panes[0].ring, c)->step, scrubbed);
    ck_assert_mem_eq(
        trun_ring_params(&w->panes[0].ring, c),
        trun_ring_params(&t->panes[0].ring, trun_ring_find(&t->panes[0].ring, scrubbed)),
        w->panes[0].ring.n_params * sizeof(float));
    /* to the end: the same run, to the bit */
    ck_assert(ui_watch_apply(student, &rec, &next, 0, LONG_MAX));
    ck_assert_int_eq(next, rec.n_snaps);
    check_same_run(t, w);
    ck_assert(trun_done(w));
    /* nothing more, nothing changes */
    ck_assert(!ui_watch_apply(student, &rec, &next, 0, LONG_MAX));
    ck_assert(!trun_catch_up(w, ms + 10000, true, 0));
    check_same_run(t, w);

    /* a student who detaches at the pause trains on from the teacher's model */
    struct ui_app *other = calloc(1, sizeof *other);
    other->training.train = run_new(600);
    struct trun *d = other->training.train;
    d->watch = true;
    d->follow_gen = 1;
    other->st.ex_gen = 2;
    next = 0;
    ck_assert(ui_watch_apply(other, &rec, &next, 0, scrub_ms - 1));
    ck_assert_int_eq(d->panes[0].run->model->step, paused_at);
    d->watch = false;
    trun_catch_up(d, 10000, true, 0);
    trun_catch_up(d, 10300, true, 0);
    /* the step it trained to: once it stops, its model is its best
     * evaluation's, and the losses go on to the step it stopped at */
    const long reached = train_stopping_last_step(&d->panes[0].stopping, d->panes[0].run);
    ck_assert_int_gt(reached, paused_at);
    ck_assert_int_eq(d->panes[0].hist.n, reached);
    ck_assert_int_le(d->panes[0].run->model->step, reached);
    trun_free(d);
    free(other);

    free(before);
    rec_free(&rec);
    trun_free(w);
    trun_free(t);
    free(student);
    free(teacher);
    free(text);
}
END_TEST

/* A snapshot of another size or pane is left alone. */
START_TEST(test_other_runs_refused)
{
    struct trun *t = run_new(200);
    float params[4] = {0};
    struct trun_mark m = {.step = 5};
    ck_assert_int_eq(trun_watch_model(t, 0, params, 4, &m, NULL, 0, -1), -1);
    ck_assert_int_eq(trun_watch_model(t, 3, params, 4, &m, NULL, 0, -1), -1);
    ck_assert_int_eq(trun_watch_checkpoint(t, 0, params, 4, &m), -1);
    ck_assert_int_eq(trun_watch_losses(t, 1, 0, params, 4), -1);
    ck_assert_int_eq(t->panes[0].run->model->step, 0);
    /* losses with a gap: the steps between carry no loss */
    ck_assert_int_eq(trun_watch_losses(t, 0, 3, params, 2), 0);
    ck_assert_int_eq(t->panes[0].hist.n, 5);
    ck_assert(isnan(t->panes[0].hist.loss[0]));
    ck_assert(t->panes[0].hist.loss[4] == 0.0f);
    /* and again: what it had is not counted twice */
    ck_assert_int_eq(trun_watch_losses(t, 0, 3, params, 2), 0);
    ck_assert_int_eq(t->panes[0].hist.n, 5);
    trun_free(t);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("ui_watch");
    TCase *tc = tcase_create("watch");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_follower_watches);
    tcase_add_test(tc, test_other_runs_refused);
    suite_add_tcase(s, tc);
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
