/* test_lesson.c - the lesson parser (steps, scenes, quizzes, call-outs, every
 * error with its line), scene state, quiz answers, wrapping, progress, and
 * the bundled lesson set. */
#include <check.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/stages.h"
#include "lesson/catalog.h"
#include "lesson/layout.h"
#include "lesson/lesson.h"
#include "lesson/lesson_state.h"
#include "lesson/progress.h"
#include "io/utf8.h"
#include "test_tmp.h"

static struct lesson *parse(const char *text)
{
    struct lesson *l = lesson_parse(text, strlen(text), "t.md");
    ck_assert_ptr_nonnull(l);
    return l;
}

/* The diagnostics must include one at line with text containing want. */
static void assert_diag(const struct lesson *l, int line, const char *want)
{
    for (int i = 0; i < l->n_diags; i++)
        if (l->diags[i].line == line && strstr(l->diags[i].text, want))
            return;
    char all[4096] = "";
    for (int i = 0; i < l->n_diags; i++) {
        size_t u = strlen(all);
        snprintf(all + u, sizeof all - u, "\n  %d: %s", l->diags[i].line, l->diags[i].text);
    }
    ck_abort_msg("no diagnostic at line %d with \"%s\"; got:%s", line, want, all);
}

static const char *assets(void)
{
    static char buf[PATH_MAX];
    const char *d = getenv("MHA_DATA_DIR");
    snprintf(buf, sizeof buf, "%s/assets", d ? d : ".");
    return buf;
}

static const char good[] = "# A good lesson\n"                          /* 1 */
                           "\n"                                         /* 2 */
                           "Some *emphasis*, **strong** and `code`.\n"  /* 3 */
                           "\n"                                         /* 4 */
                           "```mha\n"                                   /* 5 */
                           "stage: attention\n"                         /* 6 */
                           "tokens: The cat sat on\n"                   /* 7 */
                           "d_model: 8\n"                               /* 8 */
                           "heads: 4\n"                                 /* 9 */
                           "causal: on\n"                               /* 10 */
                           "focus: weights, head 1, row sat, col cat\n" /* 11 */
                           "```\n"                                      /* 12 */
                           "\n"                                         /* 13 */
                           "> **Analogy:** a library.\n"                /* 14 */
                           "\n"                                         /* 15 */
                           "> **What if we didn't?** chaos.\n"          /* 16 */
                           "\n"                                         /* 17 */
                           "> **Key insight** nothing is lost.\n"       /* 18 */
                           "\n"                                         /* 19 */
                           "---\n"                                      /* 20 */
                           "\n"                                         /* 21 */
                           "## Second step\n"                           /* 22 */
                           "\n"                                         /* 23 */
                           "- one\n"                                    /* 24 */
                           "- two\n"                                    /* 25 */
                           "\n"                                         /* 26 */
                           "| a | b |\n"                                /* 27 */
                           "|---|---|\n"                                /* 28 */
                           "| 1 | 2 |\n"                                /* 29 */
                           "\n"                                         /* 30 */
                           "```quiz\n"                                  /* 31 */
                           "question: Which token does sat attend to most?\n"
                           "choices: The | cat | sat | on\n"
                           "answer: computed\n"
                           "compute: argmax head 1 row sat\n"
                           "explain: It is what the weights say,\n"
                           "  read off the screen.\n"
                           "```\n"
                           "\n"
                           "```mha\n"
                           "scale: off\n"
                           "```\n"
                           "\n"
                           "---\n"
                           "\n"
                           "Third.\n"
                           "\n"
                           "```mha\n"
                           "view: cost\n"
                           "preset: bert-base\n"
                           "```\n"
                           "\n"
                           "```quiz\n"
                           "question: d_k?\n"
                           "answer: 2\n"
                           "explain: 8 / 4.\n"
                           "```\n";

START_TEST(parses_steps_scenes_quizzes_and_callouts)
{
    struct lesson *l = parse(good);
    ck_assert_msg(l->n_diags == 0, "unexpected: %d: %s", l->diags[0].line, l->diags[0].text);
    ck_assert_str_eq(l->title, "A good lesson");
    ck_assert_int_eq(l->n_steps, 3);
    struct lesson_step *s0 = &l->steps[0];
    ck_assert(s0->has_scene);
    ck_assert_int_eq(s0->scene.stage, MHA_STAGE_ATTENTION);
    ck_assert_str_eq(s0->scene.tokens, "The cat sat on");
    ck_assert_int_eq(s0->scene.d_model, 8);
    ck_assert_int_eq(s0->scene.heads, 4);
    ck_assert(s0->scene.causal);
    ck_assert_int_eq(s0->scene.key_line[SCENE_FOCUS], 11);
    ck_assert_int_eq(s0->scene.line, 5);
    /* paragraph spans with styles, then three call-outs */
    ck_assert_int_eq(s0->n_blocks, 4);
    ck_assert_int_eq(s0->blocks[0].kind, LESSON_PARAGRAPH);
    bool emph = false, strong = false, code = false;
    for (int i = 0; i < s0->blocks[0].n_spans; i++) {
        unsigned st = s0->blocks[0].spans[i].style;
        emph |= st == LESSON_EMPH && !strcmp(s0->blocks[0].spans[i].text, "emphasis");
        strong |= st == LESSON_STRONG && !strcmp(s0->blocks[0].spans[i].text, "strong");
        code |= st == LESSON_CODE && !strcmp(s0->blocks[0].spans[i].text, "code");
    }
    ck_assert(emph && strong && code);
    ck_assert_int_eq(s0->blocks[1].callout, LESSON_CALLOUT_ANALOGY);
    ck_assert_str_eq(s0->blocks[1].spans[0].text, "a library.");
    ck_assert_int_eq(s0->blocks[2].callout, LESSON_CALLOUT_WHATIF);
    ck_assert_int_eq(s0->blocks[3].callout, LESSON_CALLOUT_INSIGHT);

    struct lesson_step *s1 = &l->steps[1];
    ck_assert_str_eq(s1->title, "Second step");
    ck_assert_int_eq(s1->blocks[1].kind, LESSON_ITEM);
    ck_assert_str_eq(s1->blocks[1].bullet, "•");
    ck_assert_int_eq(s1->blocks[3].kind, LESSON_TABLE);
    ck_assert_int_eq(s1->blocks[3].rows, 2);
    ck_assert_int_eq(s1->blocks[3].cols, 2);
    ck_assert_str_eq(s1->blocks[3].cells[3], "2");
    ck_assert(s1->has_quiz);
    ck_assert(s1->quiz.computed);
    ck_assert_int_eq(s1->quiz.n_choices, 4);
    ck_assert_str_eq(s1->quiz.explain, "It is what the weights say, read off the screen.");
    ck_assert(l->steps[2].has_quiz);
    ck_assert(!l->steps[2].quiz.computed);
    lesson_free(l);
}
END_TEST

/* A typed number: digits as strtod reads them, commas only between groups
 * of three digits. */
START_TEST(typed_numbers_take_thousands_separators)
{
    static const struct {
        const char *s;
        bool ok;
        double v;
    } cases[] = {{"2359296", true, 2359296},  {"2,359,296", true, 2359296},
                 {"-1,000.5", true, -1000.5}, {"1,000e3", true, 1e6},
                 {"0.25", true, 0.25},        {"12,34", false, 0},
                 {"0,5", false, 0},           {",123", false, 0},
                 {"1,2345", false, 0},        {"1.000,5", false, 0},
                 {"three", false, 0},         {"", false, 0},
                 {"1,000,", false, 0},        {"3 ", false, 0}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double v = -1;
        ck_assert_msg(lesson_quiz_number(cases[i].s, &v) == cases[i].ok, "\"%s\"", cases[i].s);
        if (cases[i].ok)
            ck_assert_msg(v == cases[i].v, "\"%s\" read as %g", cases[i].s, v);
    }
}
END_TEST

START_TEST(check_passes_good_lesson)
{
    struct lesson *l = parse(good);
    ck_assert_int_eq(lesson_check(l, assets()), 0);
    lesson_free(l);
}
END_TEST

struct bad {
    const char *text;
    int line;
    const char *want;
};

static const struct bad bad_cases[] = {
    {"# T\n\n```mha\nstagee: input\n```\n", 4, "unknown scene key \"stagee\""},
    {"# T\n\n```mha\nstage: outputs\n```\n", 4, "unknown stage \"outputs\""},
    {"# T\n\n```mha\nheads: two\n```\n", 4, "heads: \"two\" is not a whole number"},
    {"# T\n\n```mha\nd_model: 5000\n```\n", 4, "d_model: 5000 is out of range"},
    {"# T\n\n```mha\nstage: input\nstage: output\n```\n", 5, "stage is given twice"},
    {"# T\n\n```mha\nstage: input\n```\n\n```mha\nstage: merge\n```\n", 7, "a second ```mha scene"},
    {"# T\n\n```mha\ncausal: maybe\n```\n", 4, "expected on or off"},
    {"# T\n\n```mha\nview: bars\n```\n", 4, "unknown view \"bars\""},
    {"# T\n\n```mha\npreset: gpt-9\n```\n", 4, "unknown preset \"gpt-9\""},
    {"# T\n\n```mha\nload: ../secret.json\n```\n", 4, "inside the assets folder"},
    {"# T\n\n```mha\nthis is not a pair\n```\n", 4, "expected \"key: value\""},
    {"# T\n\n```mha\n```\n", 3, "sets nothing"},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nchoices: a | b\nanswer: c\nexplain: x\n```\n", 7,
     "the quiz has no question"},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nquestion: q\nchoices: a | b\nanswer: c\n"
     "explain: x\n```\n",
     10, "\"c\" is not one of the choices"},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nquestion: q\nanswer: many\nexplain: x\n```\n", 9,
     "\"many\" is not a number"},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nquestion: q\nanswer: 1\nhint: x\n"
     "explain: x\n```\n",
     10, "unknown quiz key \"hint\""},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nquestion: q\nanswer: computed\nexplain: x\n"
     "```\n",
     9, "needs a \"compute: ...\" line"},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nquestion: q\nanswer: computed\n"
     "compute: the best one\nexplain: x\n```\n",
     10, "is not understood"},
    {"# T\n\n```mha\nstage: input\n```\n\n```quiz\nquestion: q\nanswer: 1\n```\n", 7,
     "no explanation"},
    {"# T\n\n```mha\nstage: input\n```\n\n---\n\n---\n\n```mha\nstage: merge\n```\n", 9,
     "empty step"},
    {"Just text.\n\n```mha\nstage: input\n```\n", 1, "no title"},
    {"# T\n\n<div>hi</div>\n\n```mha\nstage: input\n```\n", 3, "raw HTML"},
    {"# T\n\n| a | b |\n|---|---|\n| 1 |\n\n```mha\nstage: input\n```\n", 5,
     "table row has 1 cells; the header has 2"},
    {"# T\n\nbad \xff byte\n\n```mha\nstage: input\n```\n", 3, "not valid UTF-8"},
    {"# T\n\n```mha\nload: examples/cat-sat.json\ntokens: a b\n```\n", 4,
     "load and tokens/d_model/seed in one scene"},
};

START_TEST(parse_errors_have_lines)
{
    const struct bad *c = &bad_cases[_i];
    struct lesson *l = parse(c->text);
    assert_diag(l, c->line, c->want);
    lesson_free(l);
}
END_TEST

static const struct bad check_cases[] = {
    {"# T\n\n```mha\nd_model: 6\nheads: 4\n```\n", 5, "4 heads do not divide d_model 6"},
    {"# T\n\n```mha\nstage: attention\nfocus: weights, head 0, row dog\n```\n", 5,
     "row \"dog\" is not a row of weights"},
    {"# T\n\n```mha\nstage: attention\nfocus: weights, head 5\n```\n", 5,
     "heads are numbered 0..1"},
    {"# T\n\n```mha\nstage: merge\nfocus: weights\n```\n", 5,
     "the merge stage does not show \"weights\""},
    {"# T\n\n```mha\nstage: input\nfocus: head 1\n```\n", 5, "no per-head matrices"},
    {"# T\n\n```mha\nload: examples/missing.json\n```\n", 4, "cannot open"},
    /* a trained model keeps its heads, mask and scaling */
    {"# T\n\n```mha\nload: examples/cat-sat.json\ncausal: off\n```\n", 4,
     "causal: examples/cat-sat.json is a trained model, which keeps the causal mask (on) it was "
     "trained with; give causal: on"},
    {"# T\n\n```mha\nload: models/sentences.json\nheads: 4\n```\n", 4,
     "keeps the 2 heads it was trained with; give heads: 2"},
    {"# T\n\n```mha\nload: models/sentences.json\nscale: off\n```\n", 4,
     "keeps the scaling (on) it was trained with; give scale: on"},
    {"# T\n\nText.\n\n---\n\nMore.\n", 7, "step 2 has no ```mha scene"},
    {"# T\n\n```mha\nview: cost\nfocus: q\n```\n", 5, "this step shows the cost view"},
    /* a show: a matrix every head has, and a row of it */
    {"# T\n\n```mha\nstage: input\nshow: query, row 1\n```\n", 5,
     "the input stage does not show query head by head"},
    {"# T\n\n```mha\nstage: attention\nshow: weights, head 1, row 1\n```\n", 5,
     "a show names a matrix and a row, which every head shows"},
    {"# T\n\n```mha\nstage: attention\nshow: weights\n```\n", 5, "names no row"},
    {"# T\n\n```mha\nstage: attention\nshow: weights, row dog\n```\n", 5,
     "show: row \"dog\" is not a row of weights"},
    {"# T\n\n```mha\nview: cost\nshow: weights, row 1\n```\n", 5,
     "show names a row of a stage's matrix, but this step shows the cost view"},
    {"# T\n\n```mha\nstage: attention\n```\n\n```quiz\nquestion: q\nchoices: a | b\n"
     "answer: computed\ncompute: argmax head 0 row tok 1\nexplain: x\n```\n",
     11, "is not one of the choices"},
    {"# T\n\n```mha\nstage: attention\n```\n\n```quiz\nquestion: q\nanswer: computed\n"
     "compute: weight head 3 row tok 1 col tok 0\nexplain: x\n```\n",
     10, "head 3 does not exist"},
};

START_TEST(check_errors_have_lines)
{
    const struct bad *c = &check_cases[_i];
    struct lesson *l = parse(c->text);
    lesson_check(l, assets());
    assert_diag(l, c->line, c->want);
    lesson_free(l);
}
END_TEST

START_TEST(state_accumulates_and_replays)
{
    struct lesson *l = parse(good);
    struct lesson_state st;
    lesson_state_at(l, 0, &st);
    ck_assert_int_eq(st.stage, MHA_STAGE_ATTENTION);
    ck_assert_int_eq(st.d_model, 8);
    ck_assert_int_eq(st.causal, 1);
    ck_assert_int_eq(st.scaled, -1);
    ck_assert_ptr_nonnull(st.focus);
    lesson_state_at(l, 1, &st);
    ck_assert_int_eq(st.scaled, 0);
    ck_assert_int_eq(st.causal, 1); /* carried over */
    ck_assert_ptr_null(st.focus);   /* focus belongs to its own step */
    lesson_state_at(l, 2, &st);
    ck_assert_int_eq(st.view, MHA_VIEW_COST);
    ck_assert_str_eq(st.preset, "bert-base");
    /* going back replays from the start */
    lesson_state_at(l, 0, &st);
    ck_assert_int_eq(st.scaled, -1);
    struct mha_error err;
    struct mha_example *ex = lesson_state_example(&st, assets(), &err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ex->lq, 4);
    ck_assert_str_eq(ex->tokens[2], "sat");
    ck_assert(ex->causal);
    struct lesson_focus f;
    ck_assert_int_eq(lesson_focus_resolve(st.focus, st.stage, ex, &f, &err), 0);
    ck_assert_int_eq(f.matrix, MHA_TENSOR_WEIGHTS);
    ck_assert_int_eq(f.head, 1);
    ck_assert_int_eq(f.row, 2);
    ck_assert_int_eq(f.col, 1);
    mha_example_free(ex);
    lesson_free(l);
}
END_TEST

START_TEST(quiz_answers_follow_the_example)
{
    struct lesson *l = parse(good);
    struct lesson_state st;
    lesson_state_at(l, 1, &st);
    struct mha_error err;
    struct mha_example *ex = lesson_state_example(&st, assets(), &err);
    struct mha_trace *t = mha_run(ex, &err);
    struct lesson_answer a;
    ck_assert_int_eq(lesson_quiz_expected(&l->steps[1].quiz, ex, t, &a, &err), 0);
    ck_assert(!a.numeric);
    /* independently: the largest weight of head 1, row 2 (causal: keys 0..2) */
    int best = 0;
    for (int j = 1; j < 4; j++)
        if (t->weights[mha_idx3(4, 4, 1, 2, j)] > t->weights[mha_idx3(4, 4, 1, 2, best)])
            best = j;
    ck_assert_str_eq(a.text, ex->tokens[best]);
    ck_assert(lesson_quiz_is_right(&l->steps[1].quiz, &a, ex->tokens[best]));
    ck_assert(!lesson_quiz_is_right(&l->steps[1].quiz, &a, best == 3 ? "The" : "on"));
    mha_trace_free(t);
    mha_example_free(ex);

    lesson_state_at(l, 2, &st);
    ex = lesson_state_example(&st, assets(), &err);
    t = mha_run(ex, &err);
    ck_assert_int_eq(lesson_quiz_expected(&l->steps[2].quiz, ex, t, &a, &err), 0);
    ck_assert(a.numeric);
    ck_assert(lesson_quiz_is_right(&l->steps[2].quiz, &a, "2"));
    ck_assert(lesson_quiz_is_right(&l->steps[2].quiz, &a, "2.005"));
    ck_assert(!lesson_quiz_is_right(&l->steps[2].quiz, &a, "3"));
    ck_assert(!lesson_quiz_is_right(&l->steps[2].quiz, &a, "two"));
    mha_trace_free(t);
    mha_example_free(ex);
    lesson_free(l);
}
END_TEST

START_TEST(layout_wraps_within_width)
{
    const char *text = "# T\n\nA fairly long paragraph with many words that must wrap "
                       "neatly, including 猫猫猫猫 wide characters and averyveryveryverylongword"
                       "thatcannotfitanywhere.\n\n- a list item that also has to wrap "
                       "around\n\n> **Key insight:** short.\n\n```mha\nstage: input\n```\n";
    struct lesson *l = parse(text);
    ck_assert_int_eq(l->n_diags, 0);
    for (int width = 12; width <= 40; width += 7) {
        struct lesson_layout lay;
        lesson_layout_step(&l->steps[0], width, &lay);
        bool bullet = false, title = false;
        for (int i = 0; i < lay.n_lines; i++) {
            char *t = lesson_line_text(&lay.lines[i]);
            ck_assert_msg(utf8_width(t) <= width, "width %d: line '%s' is %d wide", width, t,
                          utf8_width(t));
            bullet |= strncmp(t, "• a list", 8) == 0;
            title |= lay.lines[i].title && lay.lines[i].callout == LESSON_CALLOUT_INSIGHT;
            free(t);
        }
        ck_assert(bullet);
        ck_assert(title);
        lesson_layout_done(&lay);
    }
    lesson_free(l);
}
END_TEST

static char tmpdir[256];

static void make_tmp(void)
{
    ck_assert_ptr_nonnull(test_tmp_dir(tmpdir, sizeof tmpdir, "mha-progress"));
}

START_TEST(progress_round_trip)
{
    make_tmp();
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/state/mha-explorer/progress.json", tmpdir);
    char warn[512];
    struct progress *p = progress_load(path, warn, sizeof warn);
    ck_assert_str_eq(warn, "");
    ck_assert(!progress_seen(p, "01-x.md", 0));
    progress_mark_seen(p, "01-x.md", 0);
    progress_mark_seen(p, "01-x.md", 2);
    progress_mark_seen(p, "01-x.md", 2);
    progress_set_quiz(p, "01-x.md", 2, true);
    progress_set_quiz(p, "02-y.md", 1, false);
    progress_set_last_step(p, "01-x.md", 2);
    struct mha_error err;
    ck_assert_int_eq(progress_save(p, &err), 0);
    progress_free(p);

    p = progress_load(path, warn, sizeof warn);
    ck_assert_str_eq(warn, "");
    ck_assert(progress_seen(p, "01-x.md", 2));
    ck_assert(!progress_seen(p, "01-x.md", 1));
    ck_assert_int_eq(progress_seen_count(p, "01-x.md"), 2);
    ck_assert_int_eq(progress_quiz(p, "01-x.md", 2), 1);
    ck_assert_int_eq(progress_quiz(p, "02-y.md", 1), 0);
    ck_assert_int_eq(progress_quiz(p, "02-y.md", 0), -1);
    ck_assert_int_eq(progress_last_step(p, "01-x.md"), 2);
    progress_free(p);

    /* XDG_STATE_HOME decides the default place */
    char state[PATH_MAX], want[PATH_MAX + 64], got[PATH_MAX + 64];
    snprintf(state, sizeof state, "%s/state", tmpdir);
    setenv("XDG_STATE_HOME", state, 1);
    snprintf(want, sizeof want, "%s/mha-explorer/progress.json", state);
    ck_assert_str_eq(progress_default_path(got, sizeof got), want);
    unsetenv("XDG_STATE_HOME");
    ck_assert_int_eq(test_tmp_remove(tmpdir), 0);
}
END_TEST

START_TEST(progress_corrupt_file_is_set_aside)
{
    make_tmp();
    char path[PATH_MAX], aside[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/progress.json", tmpdir);
    static const char *const corrupt[] = {"{ not json", "[1, 2]", "{\"lessons\": 3}", ""};
    for (size_t i = 0; i < sizeof corrupt / sizeof corrupt[0]; i++) {
        FILE *f = fopen(path, "w");
        fputs(corrupt[i], f);
        fclose(f);
        char warn[512];
        struct progress *p = progress_load(path, warn, sizeof warn);
        ck_assert_ptr_nonnull(p);
        ck_assert_msg(strstr(warn, "could not be read") != NULL, "case %zu: '%s'", i, warn);
        ck_assert_int_eq(progress_seen_count(p, "a"), 0);
        snprintf(aside, sizeof aside, "%s.corrupt.%zu", path, i + 1);
        ck_assert_int_eq(access(aside, F_OK), 0);
        ck_assert_int_ne(access(path, F_OK), 0);
        /* and it can be written again */
        progress_mark_seen(p, "a", 1);
        struct mha_error err;
        ck_assert_int_eq(progress_save(p, &err), 0);
        progress_free(p);
    }
    ck_assert_int_eq(test_tmp_remove(tmpdir), 0);
}
END_TEST

START_TEST(bundled_lessons_pass_the_check)
{
    const char *d = getenv("MHA_DATA_DIR");
    ck_assert_ptr_nonnull(d);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/lessons", d);
    struct lesson_catalog cat;
    ck_assert_int_eq(lesson_catalog_load(&cat, dir), 0);
    ck_assert_int_ge(cat.n, 12);
    int quizzes = 0;
    bool stage_seen[MHA_STAGE_COUNT] = {0}, view_seen[MHA_VIEW_COUNT] = {0};
    for (int i = 0; i < cat.n; i++) {
        struct lesson *l = lesson_load(cat.paths[i]);
        lesson_check(l, assets());
        ck_assert_msg(l->n_diags == 0, "%s:%d: %s", cat.paths[i], l->n_diags ? l->diags[0].line : 0,
                      l->n_diags ? l->diags[0].text : "");
        bool has_quiz = false;
        struct lesson_state st;
        for (int s = 0; s < l->n_steps; s++) {
            ck_assert_msg(l->steps[s].has_scene, "%s step %d has no scene", cat.paths[i], s);
            has_quiz |= l->steps[s].has_quiz;
            lesson_state_at(l, s, &st);
            if (st.view == MHA_VIEW_NONE)
                stage_seen[st.stage] = true;
            else
                view_seen[st.view] = true;
        }
        quizzes += has_quiz;
        lesson_free(l);
    }
    ck_assert_int_ge(2 * quizzes, cat.n);
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        ck_assert_msg(stage_seen[s], "no lesson shows stage %d", s);
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++)
        ck_assert_msg(view_seen[v], "no lesson shows the %s view", mha_view_name((enum mha_view)v));
    lesson_catalog_done(&cat);
}
END_TEST

START_TEST(switch_words)
{
    const char *on[] = {"on", "yes", "true", "1"}, *off[] = {"off", "no", "false", "0"};
    for (int i = 0; i < 4; i++) {
        ck_assert_int_eq(lesson_switch_from_name(on[i]), 1);
        ck_assert_int_eq(lesson_switch_from_name(off[i]), 0);
    }
    ck_assert_int_eq(lesson_switch_from_name("maybe"), -1);
    ck_assert_int_eq(lesson_switch_from_name(""), -1);
}
END_TEST

/* The matrices a focus may name on each stage (lessons/README.md's table):
 * each resolves there, with a head where they take one, the first is the
 * stage's default, and each stage has one at least. */
START_TEST(stage_matrices_resolve)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const char *names[MHA_TENSOR_COUNT];
        bool per_head;
        const int n = lesson_stage_matrices(s, names, MHA_TENSOR_COUNT, &per_head);
        ck_assert_int_gt(n, 0);
        for (int i = 0; i < n; i++) {
            char spec[64];
            snprintf(spec, sizeof spec, "%s%s", names[i], per_head ? ", head 1" : "");
            struct lesson_focus f;
            ck_assert_msg(lesson_focus_resolve(spec, s, ex, &f, &err) == 0, "stage %d, %s: %s", s,
                          spec, err.text);
            if (i == 0)
                ck_assert_int_eq(f.matrix, mha_stage_info((enum mha_stage)s)->focus);
        }
    }
    mha_example_free(ex);
}
END_TEST

static Suite *lesson_suite(void)
{
    Suite *s = suite_create("lesson");
    TCase *tc = tcase_create("parse");
    tcase_add_test(tc, parses_steps_scenes_quizzes_and_callouts);
    tcase_add_test(tc, check_passes_good_lesson);
    tcase_add_test(tc, typed_numbers_take_thousands_separators);
    tcase_add_test(tc, switch_words);
    tcase_add_loop_test(tc, parse_errors_have_lines, 0,
                        (int)(sizeof bad_cases / sizeof bad_cases[0]));
    tcase_add_loop_test(tc, check_errors_have_lines, 0,
                        (int)(sizeof check_cases / sizeof check_cases[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("state");
    tcase_add_test(tc, state_accumulates_and_replays);
    tcase_add_test(tc, quiz_answers_follow_the_example);
    tcase_add_test(tc, stage_matrices_resolve);
    suite_add_tcase(s, tc);
    tc = tcase_create("layout");
    tcase_add_test(tc, layout_wraps_within_width);
    suite_add_tcase(s, tc);
    tc = tcase_create("progress");
    tcase_add_test(tc, progress_round_trip);
    tcase_add_test(tc, progress_corrupt_file_is_set_aside);
    suite_add_tcase(s, tc);
    tc = tcase_create("bundled");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bundled_lessons_pass_the_check);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(lesson_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
