/* test_train_samples.c - the lines a text's model writes on the training
 * screen (o, trun_samples_show): a run that shows them trains to the same
 * bits as one that does not (they are written by a copy of the model with
 * a generator of their own); the same seed and step write the same lines,
 * whichever run writes them and whether live or from a checkpoint; every
 * word written is a word of the model's vocabulary, the lines are written
 * anew at each evaluation and change as the model learns; a task of
 * letters writes none. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli_train_screen.h"
#include "train/train.h"
#include "train/trun.h"
#include "check_run.h"

/* The training screen's setup of --train sentences (its run in ts->run). */
static void setup_text(struct cli_train_screen *ts, char *task)
{
    char prog[] = "mha-explorer", a0[] = "--train", a2[] = "--seed", a3[] = "5";
    char *argv[] = {prog, a0, task, a2, a3};
    struct cli_options o;
    ck_assert_int_eq(cli_parse(5, argv, &o), CLI_CONTINUE);
    ck_assert_int_eq(cli_train_screen_setup(&o, ts), 0);
    ck_assert_ptr_nonnull(ts->run);
}

static struct trun *another(const struct cli_train_screen *ts)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct trun *t = trun_new(&ts->setup, &err);
    ck_assert_msg(t != NULL, "%s", err.text);
    return t;
}

static void steps(struct trun *t, int n)
{
    for (int i = 0; i < n; i++)
        trun_step_once(t);
}

static void same_lines(const struct trun_samples *a, const struct trun_samples *b)
{
    ck_assert_int_eq(a->step, b->step);
    ck_assert_int_eq(a->n, b->n);
    for (int i = 0; i < a->n; i++)
        ck_assert_str_eq(a->line[i], b->line[i]);
}

/* Every word of s's lines is one of m's words (not <unk>), the last of
 * each a sentence's end or the line as long as the context. */
static void words_of(const struct train_model *m, const struct trun_samples *s)
{
    ck_assert_int_eq(s->n, TRUN_SAMPLE_LINES);
    for (int i = 0; i < s->n; i++) {
        char line[TRUN_SAMPLE_BYTES];
        strcpy(line, s->line[i]);
        int words = 0;
        const char *last = "";
        for (char *save, *w = strtok_r(line, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
            bool known = false;
            for (int v = 1; v < m->cfg.vocab && !known; v++) /* 0 is <unk> */
                known = !strcmp(m->vocab_names[v], w);
            ck_assert_msg(known, "\"%s\" of line \"%s\" is no word of the model", w, s->line[i]);
            ck_assert_msg(words > 0 || !strcmp(w, m->vocab_names[m->sample[0]]),
                          "line \"%s\" starts from the sample's first word", s->line[i]);
            words++;
            last = w;
        }
        ck_assert_msg(!strcmp(last, ".") || words == m->cfg.context,
                      "line \"%s\" ends with a sentence or fills the context", s->line[i]);
    }
}

START_TEST(test_trains_the_same)
{
    struct cli_train_screen ts;
    char task[] = "sentences";
    setup_text(&ts, task);
    struct trun *shown = ts.run, *plain = another(&ts);
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_eq(trun_samples_show(shown, true, 1.0f, &err), 0);
    const struct train_model *a = shown->panes[0].run->model, *b = plain->panes[0].run->model;
    /* three evaluations' lines, and a checkpoint's between them */
    steps(shown, 2 * TRUN_EVAL_EVERY + 1);
    trun_scrub_to(shown, TRUN_CHECKPOINT_EVERY);
    ck_assert_int_eq(trun_pane_samples(&shown->panes[0])->step, TRUN_CHECKPOINT_EVERY);
    trun_scrub_live(shown);
    steps(shown, 30);
    steps(plain, 2 * TRUN_EVAL_EVERY + 31);
    ck_assert_int_eq(a->step, b->step);
    ck_assert_int_eq(a->n_params, b->n_params);
    ck_assert_msg(!memcmp(a->params, b->params, a->n_params * sizeof *a->params),
                  "the run that shows its lines trained other numbers");
    ck_assert_mem_eq(&shown->panes[0].run->last_loss, &plain->panes[0].run->last_loss,
                     sizeof(float));
    ck_assert_mem_eq(shown->panes[0].run->accuracy, plain->panes[0].run->accuracy,
                     sizeof plain->panes[0].run->accuracy);
    trun_free(plain);
    cli_train_screen_done(&ts);
}
END_TEST

START_TEST(test_same_seed_and_step)
{
    struct cli_train_screen ts;
    char task[] = "sentences";
    setup_text(&ts, task);
    struct trun *t = ts.run;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_eq(trun_samples_show(t, true, 1.0f, &err), 0);
    const struct trun_samples *s = trun_pane_samples(&t->panes[0]);
    const struct train_model *m = t->panes[0].run->model;
    /* step 0's lines, written at the first evaluation */
    steps(t, 1);
    ck_assert_int_eq(s->step, 0);
    words_of(m, s);
    struct trun_samples first = *s;
    /* the lines of the evaluation at 2 * TRUN_EVAL_EVERY: written anew, other lines */
    steps(t, 2 * TRUN_EVAL_EVERY);
    ck_assert_int_eq(s->step, 2 * TRUN_EVAL_EVERY);
    words_of(m, s);
    struct trun_samples later = *s;
    bool differ = false;
    for (int i = 0; i < s->n; i++)
        differ = differ || strcmp(first.line[i], later.line[i]);
    ck_assert_msg(differ, "the lines at step %ld are those of step 0", later.step);

    /* the same step of another run of the same seed, never shown: the same
     * lines through a writer of its own */
    struct trun *other = another(&ts);
    steps(other, 2 * TRUN_EVAL_EVERY);
    const struct train_model *om = other->panes[0].run->model;
    ck_assert_int_eq(om->step, 2 * TRUN_EVAL_EVERY);
    struct train_model *writer = train_model_new(&om->cfg, 1, &err);
    ck_assert_msg(writer != NULL, "%s", err.text);
    struct trun_samples again;
    ck_assert_int_eq(trun_samples_write(writer, om, t->opt.seed, om->step, 1.0f, &again, &err), 0);
    same_lines(&later, &again);
    /* another seed writes other lines from the same weights */
    struct trun_samples seeded;
    ck_assert_int_eq(
        trun_samples_write(writer, om, t->opt.seed + 1u, om->step, 1.0f, &seeded, &err), 0);
    differ = false;
    for (int i = 0; i < seeded.n; i++)
        differ = differ || strcmp(seeded.line[i], later.line[i]);
    ck_assert(differ);

    /* the checkpoint of step 0 scrubbed to writes step 0's lines again, and
     * the live model's come back with End */
    trun_scrub_first(t);
    same_lines(s, &first);
    trun_scrub_live(t);
    ck_assert_int_eq(s->step, m->step);
    /* off: nothing written at the next evaluation */
    const long before = s->step;
    ck_assert_int_eq(trun_samples_show(t, false, 0.0f, &err), 0);
    steps(t, TRUN_EVAL_EVERY);
    ck_assert_int_eq(s->step, before);
    train_model_free(writer);
    trun_free(other);
    cli_train_screen_done(&ts);
}
END_TEST

START_TEST(test_letters_write_none)
{
    struct cli_train_screen ts;
    char task[] = "first-prev";
    setup_text(&ts, task);
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert(!trun_pane_writes(&ts.run->panes[0]));
    ck_assert_int_eq(trun_samples_show(ts.run, true, 1.0f, &err), -1);
    ck_assert_str_eq(err.text, "a task of letters writes no lines");
    ck_assert(!ts.run->samples);
    cli_train_screen_done(&ts);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("train_samples");
    TCase *t = tcase_create("samples");
    tcase_set_timeout(t, 120);
    tcase_add_test(t, test_trains_the_same);
    tcase_add_test(t, test_same_seed_and_step);
    tcase_add_test(t, test_letters_write_none);
    suite_add_tcase(s, t);
    return check_run(s);
}
