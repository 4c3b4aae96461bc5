/* test_top_p.c - top-p on the screen: the nucleus the output stage shows
 * (how many words, their summed probability, which listed rows) is the
 * fewest likeliest words whose probabilities first reach P of those w may
 * write, counted here from the model's own probabilities and by the
 * engine's nucleus function (train_next_nucleus, as --generate draws); :top-p
 * reads the words again at it, and w draws from the nucleus. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "io/model_io.h"
#include "train/train.h"
#include "train/train_text.h"
#include "ui/state/ui_state.h"

static const double top_ps[] = {0.1, 0.25, 0.5, 0.75, 0.9, 0.95, 1.0};
#define N_TOP_PS ((int)(sizeof top_ps / sizeof top_ps[0]))

static void model_path(char *path, size_t n)
{
    const char *root = getenv("MHA_DATA_DIR");
    snprintf(path, n, "%s/assets/models/sentences.json", root ? root : ".");
}

/* The nucleus counted here: the words but <unk> from the likeliest (the
 * lower id first on a tie), summed until the sum first reaches P of their
 * total.  Returns how many; *share gets their sum. */
static int nucleus_by_hand(const double *p, int C, int unk, double top_p, double *share)
{
    bool taken[TRAIN_MAX_VOCAB] = {false};
    double total = 0.0;
    for (int j = 0; j < C; j++)
        total += j == unk ? 0.0 : p[j];
    double sum = 0.0;
    int n = 0;
    while (n < C - (unk >= 0)) {
        int best = -1;
        for (int j = 0; j < C; j++)
            if (j != unk && !taken[j] && (best < 0 || p[j] > p[best]))
                best = j;
        taken[best] = true;
        sum += p[best];
        n++;
        if (sum >= top_p * total)
            break;
    }
    *share = sum;
    return n;
}

START_TEST(test_nucleus_shown)
{
    char path[1024];
    model_path(path, sizeof path);
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = model_io_load_kept(path, 1, &err);
    ck_assert_msg(m != NULL, "%s", err.text);
    const int k = train_model_next_output(m), C = m->cfg.outputs[k].classes;
    const int unk = !strcmp(m->vocab_names[0], TRAIN_TEXT_UNKNOWN) ? 0 : -1;
    ck_assert_int_ge(k, 0);
    for (int t = 0; t < 2; t++) {
        const float temperature = t ? 2.0f : 1.0f;
        double p[TRAIN_MAX_VOCAB];
        ck_assert_int_eq(train_next_probs(m, k, m->sample, m->sample_len, m->sample_len - 1,
                                          temperature, p, &err),
                         0);
        for (int i = 0; i < N_TOP_PS; i++) {
            struct mha_example *ex =
                model_io_example_top_p(path, NULL, temperature, top_ps[i], "test", -1, &err);
            ck_assert_msg(ex != NULL, "%s", err.text);
            const struct mha_next_word *nw = &ex->next_word;
            double share;
            const int want = nucleus_by_hand(p, C, unk, top_ps[i], &share);
            int pick[TRAIN_MAX_VOCAB];
            ck_assert_int_eq(train_next_nucleus(p, C, unk, 0, top_ps[i], pick), want);
            ck_assert_int_eq(nw->nucleus, want);
            ck_assert_float_eq_tol(nw->nucleus_p, share, 1e-6);
            ck_assert_float_eq_tol(nw->top_p, top_ps[i], 1e-7);
            /* the listed rows marked: those of the nucleus, <unk> never */
            bool in[MHA_NEXT_WORD_MAX];
            ui_state_nucleus_rows(nw, in);
            int marked = 0;
            for (int r = 0; r < nw->n; r++) {
                bool of = false;
                for (int j = 0; j < want && !of; j++)
                    of = !strcmp(nw->word[r], m->vocab_names[pick[j]]);
                ck_assert_msg(in[r] == of, "row %d (%s) at top-p %g", r, nw->word[r], top_ps[i]);
                marked += in[r];
            }
            ck_assert_int_eq(marked, want < nw->n ? want : marked);
            mha_example_free(ex);
        }
    }
    train_model_free(m);
}
END_TEST

/* :top-p on the screen's state: the words read again at it; w writes the
 * likeliest word where the nucleus holds it alone. */
START_TEST(test_top_p_on_the_state)
{
    char path[1024];
    model_path(path, sizeof path);
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = mha_example_new(4, 4, 6, 2, false, &err);
    ck_assert_ptr_nonnull(ex);
    struct ui_state st;
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    ck_assert_int_eq(ui_state_set_top_p(&st, 0.5, ":top-p"), 0); /* kept: no model yet */
    ck_assert_int_eq(ui_state_load(&st, path), 0);
    ck_assert_int_eq(ui_state_set_top_p(&st, 1.5, ":top-p"), -1);
    ck_assert(st.msg_error);
    ck_assert_int_eq(ui_state_set_top_p(&st, 0.001, ":top-p"), 0);
    ck_assert_int_eq(st.ex->next_word.nucleus, 1);
    bool in[MHA_NEXT_WORD_MAX];
    ui_state_nucleus_rows(&st.ex->next_word, in);
    int first = 0;
    while (!in[first])
        first++;
    char word[MHA_NEXT_WORD_LABEL];
    snprintf(word, sizeof word, "%s", st.ex->next_word.word[first]);
    const int before = st.ex->lq;
    ck_assert_int_eq(ui_state_write_word(&st, +1), 0);
    ck_assert_int_eq(st.ex->lq, before + 1);
    ck_assert_str_eq(st.ex->tokens[before], word);
    ck_assert_float_eq_tol(st.ex->next_word.top_p, 0.001, 1e-7); /* kept for the next word */
    ck_assert_int_eq(ui_state_step_top_p(&st, +1), 0);
    ck_assert_float_eq_tol(st.top_p, 0.1, 1e-7);
    ui_state_done(&st);
}
END_TEST

static Suite *top_p_suite(void)
{
    Suite *s = suite_create("top_p");
    TCase *tc = tcase_create("nucleus");
    tcase_add_test(tc, test_nucleus_shown);
    tcase_add_test(tc, test_top_p_on_the_state);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(top_p_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
