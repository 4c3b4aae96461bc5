/* test_ui_state.c - what keys and commands do to the explorer's state: live
 * changes rebuild the example through the engine, refused values are
 * explained, the key table drives the keys, and each stage's view points at
 * the right numbers.  No terminal needed. */
#include <check.h>
#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "engine/explain.h"
#include "ui/state/ui_keys.h"
#include "ui/commands/ui_cmd.h"
#include "ui/state/ui_state.h"
#include "ui/views/ui_view.h"
#include "ui/views/ui_views.h"
#include "ui/views/ui_views.h"

static struct ui_state st;

static void setup(void)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
}

static void teardown(void)
{
    ui_state_done(&st);
}

/* ------------------------------------------------------------ TCase heads */

START_TEST(test_heads_step_through_divisors)
{
    static const int up[] = {3, 6};
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(ui_state_step_heads(&st, +1), 0);
        ck_assert_int_eq(st.ex->heads, up[i]);
        ck_assert_int_eq(st.tr->heads, up[i]);
        ck_assert_int_eq(st.tr->d_k, 6 / up[i]);
    }
    ck_assert_int_eq(ui_state_step_heads(&st, +1), -1); /* no divisor above 6 */
    ck_assert_int_eq(st.ex->heads, 6);
    ck_assert_ptr_nonnull(strstr(st.msg, "1, 2, 3, 6"));
    static const int down[] = {3, 2, 1};
    for (int i = 0; i < 3; i++) {
        ck_assert_int_eq(ui_state_step_heads(&st, -1), 0);
        ck_assert_int_eq(st.ex->heads, down[i]);
    }
}
END_TEST

START_TEST(test_heads_keep_the_numbers)
{
    float q = st.tr->q[7], out = st.tr->output[5];
    ck_assert_int_eq(ui_state_command(&st, ":heads 3"), 0);
    ck_assert_int_eq(st.ex->heads, 3);
    ck_assert_float_eq(st.tr->q[7], q); /* projections do not depend on heads */
    ck_assert(st.tr->output[5] != out); /* the attention does */
}
END_TEST

START_TEST(test_non_divisor_is_explained)
{
    ck_assert_int_eq(ui_state_command(&st, ":heads 4"), -1);
    ck_assert_int_eq(st.ex->heads, 2); /* unchanged */
    ck_assert(st.msg_error);
    ck_assert_ptr_nonnull(strstr(st.msg, "4 heads do not divide d_model 6"));
    ck_assert_ptr_nonnull(strstr(st.msg, "d_k = d_model / heads"));
    ck_assert_ptr_nonnull(strstr(st.msg, "1, 2, 3, 6"));
    ck_assert_int_eq(ui_state_command(&st, "heads x"), -1);
    ck_assert_ptr_nonnull(strstr(st.msg, "1, 2, 3, 6"));
}
END_TEST

START_TEST(test_d_model_moves_heads)
{
    ck_assert_int_eq(ui_state_set_d_model(&st, 7), 0);
    ck_assert_int_eq(st.ex->d_model, 7);
    ck_assert_int_eq(st.ex->heads, 1); /* 2 does not divide 7: nearest divisor */
    ck_assert_ptr_nonnull(strstr(st.msg, "heads 2 -> 1"));
    ck_assert_int_eq(ui_state_set_d_model(&st, 8), 0);
    ck_assert_int_eq(st.ex->heads, 1);
    ck_assert_int_eq(ui_state_command(&st, "d_model 12"), 0);
    ck_assert_int_eq(st.tr->d_model, 12);
    ck_assert_int_eq(ui_state_command(&st, "d_model 0"), -1);
    ck_assert_int_eq(st.tr->d_model, 12);
    ck_assert_int_eq(ui_nearest_divisor(12, 5), 4);
    ck_assert_int_eq(ui_nearest_divisor(7, 4), 1);
    ck_assert_int_eq(ui_nearest_divisor(10, 4), 5); /* 2 and 5 are 2 and 1 away */
}
END_TEST

/* ------------------------------------------------------------ TCase changes */

START_TEST(test_toggles_and_seed)
{
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    ck_assert(st.ex->causal && st.tr->causal);
    ck_assert_float_eq(st.tr->weights[1], 0.0f); /* query 0 cannot see key 1 */
    ck_assert_int_eq(ui_state_toggle_scaled(&st), 0);
    ck_assert(!st.ex->scaled);
    ck_assert_float_eq(st.tr->scale, 1.0f);
    ck_assert_int_eq(ui_state_command(&st, "scale on"), 0);
    ck_assert(st.ex->scaled);
    ck_assert_int_eq(ui_state_command(&st, "causal off"), 0);
    ck_assert(!st.ex->causal);
    float before = st.ex->query[0];
    ck_assert_int_eq(ui_state_command(&st, "seed 7"), 0);
    ck_assert_int_eq((int)st.ex->seed, 7);
    ck_assert(st.ex->query[0] != before);
    ck_assert_int_eq(ui_state_command(&st, "seed -1"), -1);
}
END_TEST

START_TEST(test_tokens_command)
{
    ck_assert_int_eq(ui_state_command(&st, ":tokens The cat sat on the mat"), 0);
    ck_assert_int_eq(st.ex->lq, 6);
    ck_assert_int_eq(st.tr->lq, 6);
    ck_assert_str_eq(st.ex->tokens[1], "cat");
    ck_assert_str_eq(st.ex->tokens[5], "mat");
    ck_assert_int_eq(ui_state_command(&st, "tokens 猫 が 座った"), 0);
    ck_assert_str_eq(st.ex->tokens[2], "座った");
    ck_assert_int_eq(ui_state_command(&st, "tokens   "), -1);
    ck_assert_int_eq(st.ex->lq, 3);
}
END_TEST

START_TEST(test_stage_and_unknown_commands)
{
    ck_assert_int_eq(ui_state_command(&st, "stage attention"), 0);
    ck_assert_int_eq(st.stage, MHA_STAGE_ATTENTION);
    char cmd[32]; /* the last stage by number, and the number after it: none */
    snprintf(cmd, sizeof cmd, "stage %d", MHA_STAGE_COUNT - 1);
    ck_assert_int_eq(ui_state_command(&st, cmd), 0);
    ck_assert_int_eq(st.stage, MHA_STAGE_COUNT - 1);
    snprintf(cmd, sizeof cmd, "stage %d", MHA_STAGE_COUNT);
    ck_assert_int_eq(ui_state_command(&st, cmd), -1);
    ck_assert_int_eq(ui_state_command(&st, "stage nowhere"), -1);
    ck_assert_int_eq(st.stage, MHA_STAGE_COUNT - 1);
    ck_assert_int_eq(ui_state_command(&st, "frobnicate"), -1);
    ck_assert(st.msg_error);
    ck_assert_int_eq(ui_state_command(&st, "load /nonexistent/example.json"), -1);
    ck_assert(st.msg_error);
    ck_assert_ptr_nonnull(strstr(st.msg, "nonexistent"));
    ck_assert_int_eq(ui_state_command(&st, "q"), 0);
    ck_assert(st.quit);
}
END_TEST

/* ------------------------------------------------------------ TCase keys */

START_TEST(test_key_table)
{
    ck_assert_int_eq(ui_key_action(KEY_RIGHT, false), UI_ACT_STAGE_NEXT);
    ck_assert_int_eq(ui_key_action('l', false), UI_ACT_STAGE_NEXT);
    ck_assert_int_eq(ui_key_action(KEY_RIGHT, true), UI_ACT_RIGHT); /* moves the cursor */
    ck_assert_int_eq(ui_key_action('h', true), UI_ACT_LEFT);
    ck_assert_int_eq(ui_key_action('4', false), UI_ACT_STAGE_JUMP);
    ck_assert_int_eq(ui_key_action('4', true), UI_ACT_STAGE_JUMP);
    ck_assert_int_eq(ui_key_action('+', false), UI_ACT_HEADS_MORE);
    ck_assert_int_eq(ui_key_action('-', false), UI_ACT_HEADS_FEWER);
    ck_assert_int_eq(ui_key_action(']', false), UI_ACT_DMODEL_UP);
    ck_assert_int_eq(ui_key_action('[', false), UI_ACT_DMODEL_DOWN);
    ck_assert_int_eq(ui_key_action('c', false), UI_ACT_CAUSAL);
    ck_assert_int_eq(ui_key_action('s', false), UI_ACT_SCALE);
    ck_assert_int_eq(ui_key_action('r', false), UI_ACT_RESEED);
    ck_assert_int_eq(ui_key_action(':', false), UI_ACT_COMMAND);
    ck_assert_int_eq(ui_key_action('\t', false), UI_ACT_FOCUS_NEXT);
    ck_assert_int_eq(ui_key_action('\r', true), UI_ACT_EXPLAIN);
    ck_assert_int_eq(ui_key_action('?', false), UI_ACT_HELP);
    ck_assert_int_eq(ui_key_action('q', true), UI_ACT_QUIT);
    ck_assert_int_eq(ui_key_action('Z', false), UI_ACT_NONE);
    ck_assert_int_eq(ui_key_action('v', false), UI_ACT_VIEW_CYCLE);
    ck_assert_int_eq(ui_key_action('L', true), UI_ACT_LESSONS);
    /* in a lesson Space reads on and Backspace goes back; elsewhere they page or do nothing */
    ck_assert_int_eq(ui_key_action_in(' ', false, true), UI_ACT_LESSON_NEXT);
    ck_assert_int_eq(ui_key_action_in(' ', true, true), UI_ACT_LESSON_NEXT);
    ck_assert_int_eq(ui_key_action_in(' ', false, false), UI_ACT_PAGE_DOWN);
    ck_assert_int_eq(ui_key_action_in(KEY_BACKSPACE, false, true), UI_ACT_LESSON_PREV);
    ck_assert_int_eq(ui_key_action_in(127, true, true), UI_ACT_LESSON_PREV);
    ck_assert_int_eq(ui_key_action_in(KEY_BACKSPACE, false, false), UI_ACT_NONE);
    ck_assert_int_eq(ui_key_action_in(KEY_NPAGE, true, true), UI_ACT_LESSON_PAGE_DOWN);
    ck_assert_int_eq(ui_key_action_in('J', false, true), UI_ACT_LESSON_LINE_DOWN);
    /* the stage keys still work inside a lesson */
    ck_assert_int_eq(ui_key_action_in('4', false, true), UI_ACT_STAGE_JUMP);
    ck_assert_int_eq(ui_key_action_in(KEY_RIGHT, false, true), UI_ACT_STAGE_NEXT);
    ck_assert_int_eq(ui_key_action_in(KEY_RIGHT, true, true), UI_ACT_RIGHT);
    /* every binding has keys, a label and a text for the help screen */
    for (int i = 0; i < ui_key_count; i++) {
        const struct ui_key_binding *b = &ui_key_table[i];
        ck_assert_int_ne(b->keys[0], 0);
        ck_assert(b->label && b->label[0] && b->help && b->help[0]);
        /* and its first key finds it (or a binding of the same action) */
        const bool focus = b->mode == UI_KEYS_FOCUS, lesson = b->mode == UI_KEYS_LESSON;
        ck_assert_int_eq(ui_key_action_in(b->keys[0], focus, lesson), b->action);
    }
}
END_TEST

/* ------------------------------------------------------------ TCase views */

START_TEST(test_views_point_at_the_trace)
{
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        ui_state_set_stage(&st, s);
        for (int width = 60; width <= 200; width += 140) {
            const int n = ui_view_build(&st, width, blocks, UI_VIEW_MAX_BLOCKS);
            ck_assert_int_gt(n, 0);
            for (int i = 0; i < n; i++) {
                const struct ui_block *b = &blocks[i];
                if (!ui_block_selectable(b))
                    continue;
                for (int r = 0; r < b->rows; r++)
                    for (int c = 0; c < b->cols; c++) {
                        struct mha_cell cell = ui_block_cell(b, r, c);
                        ck_assert(mha_cell_valid(st.tr, &cell));
                        /* what the block shows is the cell the explain panel explains */
                        ck_assert_float_eq(ui_block_at(b, r, c),
                                           mha_cell_value(st.ex, st.tr, &cell));
                    }
            }
        }
    }
    /* the attention stage has a heatmap of the weights per head */
    ui_state_set_stage(&st, MHA_STAGE_ATTENTION);
    int n = ui_view_build(&st, 120, blocks, UI_VIEW_MAX_BLOCKS), heat = 0;
    for (int i = 0; i < n; i++)
        heat += blocks[i].kind == UI_BLOCK_HEATMAP;
    ck_assert_int_eq(heat, st.tr->heads);
}
END_TEST

/* ------------------------------------------------------------ TCase buffers */

/* The stage numbers of a trace equal a fresh run of ex. */
static void same_as_fresh_run(const struct mha_example *ex, const struct mha_trace *tr)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_trace *fresh = mha_run(ex, &err);
    ck_assert_ptr_nonnull(fresh);
    const size_t d = (size_t)ex->d_model, lq = (size_t)ex->lq, h = (size_t)ex->heads;
    ck_assert_mem_eq(tr->q, fresh->q, lq * d * sizeof(float));
    ck_assert_mem_eq(tr->weights, fresh->weights, h * lq * (size_t)ex->lk * sizeof(float));
    ck_assert_mem_eq(tr->output, fresh->output, lq * d * sizeof(float));
    mha_trace_free(fresh);
}

/* A change that keeps the sizes keeps the example's and the trace's
 * buffers (the screen's blocks point into them) and shows the new numbers. */
START_TEST(test_same_sizes_keep_the_buffers)
{
    const struct mha_example *ex = st.ex;
    const struct mha_trace *tr = st.tr;
    const float *q = st.tr->q, *wq = st.ex->w_q;
    const float before = st.tr->output[0];
    ck_assert_int_eq(ui_state_set_seed(&st, 7), 0);
    ck_assert_ptr_eq(st.ex, ex);
    ck_assert_ptr_eq(st.tr, tr);
    ck_assert_ptr_eq(st.tr->q, q);
    ck_assert_ptr_eq(st.ex->w_q, wq);
    ck_assert_uint_eq(st.ex->seed, 7);
    ck_assert(st.tr->output[0] != before);
    same_as_fresh_run(st.ex, st.tr);
    ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
    ck_assert_ptr_eq(st.tr, tr);
    ck_assert(st.ex->causal);
    ck_assert_float_eq(st.tr->weights[1], 0.0f); /* row 0 sees only itself */
    same_as_fresh_run(st.ex, st.tr);
    /* other sizes need other buffers */
    ck_assert_int_eq(ui_state_set_heads(&st, 3), 0);
    ck_assert_int_eq(st.tr->heads, 3);
    same_as_fresh_run(st.ex, st.tr);
}
END_TEST

/* A model changed in place is drawn as it is: refresh runs it again into
 * the same trace. */
START_TEST(test_refresh_in_place)
{
    const struct mha_trace *tr = st.tr;
    const unsigned gen = st.ex_gen;
    for (int i = 0; i < st.ex->d_model * st.ex->d_model; i++)
        st.ex->w_q[i] *= 2.0f;
    ui_state_refresh(&st);
    ck_assert_ptr_eq(st.tr, tr);
    ck_assert_uint_eq(st.ex_gen, gen);
    same_as_fresh_run(st.ex, st.tr);
}
END_TEST

/* The view registry: a row for every view beyond the stages, each one
 * made, described and named from it; the list of names is generated. */
START_TEST(test_view_registry)
{
    ck_assert_ptr_null(view_kind(MHA_VIEW_NONE));
    ck_assert_ptr_null(view_kind(MHA_VIEW_COUNT));
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        const struct view_kind *ops = view_kind((enum mha_view)v);
        ck_assert_ptr_nonnull(ops);
        ck_assert_int_eq(ops->id, v);
        ck_assert(ops->make && ops->cycle_msg && *ops->cycle_msg);
        ck_assert_int_eq(ui_view_mode_from_name(mha_view_name((enum mha_view)v)), v);
        ck_assert_int_eq(ui_state_set_view(&st, (enum mha_view)v), 0);
        ui_views_sync(&st);
        ck_assert_ptr_nonnull(st.vd);
        ck_assert_int_eq(st.vd->mode, v);
        ck_assert(st.vd->name[0]);
        struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
        if (st.vd->error[0]) { /* circuits: these numbers are no trained model */
            ck_assert_int_eq(ui_view_build(&st, 100, blocks, UI_VIEW_MAX_BLOCKS), 0);
            continue;
        }
        /* a table of rows, or a paged view's maps (a map a head, no table) */
        ck_assert(st.vd->paged ? st.vd->n_matrices == st.ex->heads : st.vd->table.rows > 1);
        ck_assert_int_gt(ui_view_build(&st, 100, blocks, UI_VIEW_MAX_BLOCKS), 0);
    }
    ck_assert_int_eq(ui_view_mode_from_name("none"), MHA_VIEW_NONE);
    char names[96];
    /* the names of the registry's rows, in its order */
    char want[96] = "";
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        const size_t len = strlen(want);
        snprintf(want + len, sizeof want - len, "%s%s",
                 v == MHA_VIEW_NONE + 1    ? ""
                 : v == MHA_VIEW_COUNT - 1 ? " or "
                                           : ", ",
                 view_kind((enum mha_view)v)->name);
    }
    ck_assert_str_eq(mha_view_names(names, sizeof names, " or "), want);
    /* the message for an unknown view lists them, from the same table */
    ck_assert_int_eq(ui_state_command(&st, "view nope"), -1);
    ck_assert_ptr_nonnull(strstr(st.msg, mha_view_names(names, sizeof names, " and ")));
}
END_TEST

static Suite *state_suite(void)
{
    Suite *s = suite_create("ui_state");
    TCase *t = tcase_create("heads");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_heads_step_through_divisors);
    tcase_add_test(t, test_heads_keep_the_numbers);
    tcase_add_test(t, test_non_divisor_is_explained);
    tcase_add_test(t, test_d_model_moves_heads);
    suite_add_tcase(s, t);
    t = tcase_create("changes");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_toggles_and_seed);
    tcase_add_test(t, test_tokens_command);
    tcase_add_test(t, test_stage_and_unknown_commands);
    suite_add_tcase(s, t);
    t = tcase_create("buffers");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_same_sizes_keep_the_buffers);
    tcase_add_test(t, test_refresh_in_place);
    suite_add_tcase(s, t);
    t = tcase_create("keys");
    tcase_add_test(t, test_key_table);
    suite_add_tcase(s, t);
    t = tcase_create("views");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_views_point_at_the_trace);
    tcase_add_test(t, test_view_registry);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(state_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
