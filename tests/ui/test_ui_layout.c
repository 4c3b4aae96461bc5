/* test_ui_layout.c - the explorer's screen arithmetic: panes at every size,
 * the pipeline bar, the flow of blocks, matrix windows, scrolling, numbers. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "ui/draw/ui_layout.h"

static void assert_inside(struct ui_rect r, int rows, int cols)
{
    ck_assert_int_ge(r.y, 0);
    ck_assert_int_ge(r.x, 0);
    ck_assert_int_gt(r.h, 0);
    ck_assert_int_gt(r.w, 0);
    ck_assert_int_le(r.y + r.h, rows);
    ck_assert_int_le(r.x + r.w, cols);
}

static bool overlap(struct ui_rect a, struct ui_rect b)
{
    return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/* ------------------------------------------------------------ TCase panes */

START_TEST(test_panes_tile_the_screen)
{
    static const int sizes[][2] = {{18, 64},  {24, 80},   {40, 120}, {60, 200},
                                   {30, 119}, {100, 300}, {19, 64}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int rows = sizes[s][0], cols = sizes[s][1];
        for (int msg = 1; msg <= 4; msg++)
            for (int side = 0; side <= 40; side += 8) {
                struct ui_layout l;
                ui_layout_compute(rows, cols, msg, side, &l);
                ck_assert(!l.too_small);
                struct ui_rect all[] = {l.bar, l.vis, l.side, l.msg, l.status};
                long area = 0;
                for (int i = 0; i < 5; i++) {
                    assert_inside(all[i], rows, cols);
                    area += (long)all[i].h * all[i].w;
                    for (int j = 0; j < i; j++)
                        ck_assert_msg(!overlap(all[i], all[j]), "panes %d and %d overlap", i, j);
                }
                ck_assert_int_eq(area, (long)rows * cols); /* nothing left over */
                ck_assert_int_eq(l.status.y, rows - 1);
                ck_assert_int_eq(l.bar.y, 0);
                ck_assert_int_eq(l.msg.h, msg);
                ck_assert_int_ge(l.vis.h, 5);
                ck_assert_int_eq(l.side_by_side, cols >= UI_WIDE_COLS);
            }
    }
}
END_TEST

START_TEST(test_reading_panes)
{
    static const int sizes[][2] = {{18, 64}, {24, 80}, {40, 120}, {60, 200}, {30, 99}, {19, 100}};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        const int rows = sizes[s][0], cols = sizes[s][1];
        for (int msg = 1; msg <= 4; msg++)
            for (int side = 0; side <= 60; side += 12) {
                struct ui_layout l;
                ui_layout_compute_reading(rows, cols, msg, side, &l);
                struct ui_rect all[] = {l.bar, l.vis, l.side, l.msg, l.status};
                long area = 0;
                for (int i = 0; i < 5; i++) {
                    assert_inside(all[i], rows, cols);
                    area += (long)all[i].h * all[i].w;
                    for (int j = 0; j < i; j++)
                        ck_assert(!overlap(all[i], all[j]));
                }
                ck_assert_int_eq(area, (long)rows * cols);
                ck_assert_int_ge(l.vis.h, 5);
                ck_assert_int_eq(l.side_by_side, cols >= UI_READING_WIDE_COLS);
                if (l.side_by_side) { /* reading width: 40 % of the screen, 40..60 columns */
                    ck_assert_int_ge(l.side.w, 40);
                    ck_assert_int_le(l.side.w, 60);
                }
                assert_inside(l.modal, rows, cols);
            }
    }
    /* 80 x 24 with a long step: the text gets more than half, the numbers keep room */
    struct ui_layout l;
    ui_layout_compute_reading(24, 80, 1, 40, &l);
    ck_assert_int_eq(l.side.h, 11);
    ck_assert_int_eq(l.vis.h, 10);
    ui_layout_compute_reading(40, 120, 1, 0, &l);
    ck_assert_int_eq(l.side.w, 48);
    ui_layout_compute_reading(60, 200, 1, 0, &l);
    ck_assert_int_eq(l.side.w, 60);
}
END_TEST

START_TEST(test_too_small)
{
    struct ui_layout l;
    ui_layout_compute(UI_MIN_ROWS - 1, 200, 1, 0, &l);
    ck_assert(l.too_small);
    ui_layout_compute(60, UI_MIN_COLS - 1, 1, 0, &l);
    ck_assert(l.too_small);
    ui_layout_compute(5, 10, 1, 0, &l);
    ck_assert(l.too_small);
    ui_layout_compute(UI_MIN_ROWS, UI_MIN_COLS, 1, 0, &l);
    ck_assert(!l.too_small);
}
END_TEST

START_TEST(test_side_pane_below_grows_within_limits)
{
    struct ui_layout small, big;
    ui_layout_compute(40, 100, 1, 6, &small);
    ui_layout_compute(40, 100, 1, 200, &big);
    ck_assert_int_eq(small.side.h, 6);
    ck_assert_int_gt(big.side.h, small.side.h);
    ck_assert_int_lt(big.side.h, big.vis.h + big.side.h); /* the visualisation keeps room */
    ck_assert_int_ge(big.vis.h, 10);
}
END_TEST

/* ------------------------------------------------------------ TCase bar */

START_TEST(test_bar_forms)
{
    /* the names the pipeline bar shows, from the stage table */
    const char *full[MHA_STAGE_COUNT], *brief[MHA_STAGE_COUNT];
    for (int i = 0; i < MHA_STAGE_COUNT; i++) {
        full[i] = mha_stage_info((enum mha_stage)i)->title;
        brief[i] = mha_stage_info((enum mha_stage)i)->short_title;
    }
    const int last = MHA_STAGE_COUNT - 1;
    struct ui_bar_slot s[MHA_STAGE_COUNT];
    /* wide: every full name; slots do not overlap and are in order */
    int used = ui_bar_fit(200, full, brief, 3, s);
    ck_assert_int_le(used, 200);
    for (int i = 0; i < MHA_STAGE_COUNT; i++) {
        ck_assert(s[i].full_name);
        if (i)
            ck_assert_int_eq(s[i].x, s[i - 1].x + s[i - 1].w + 1);
    }
    ck_assert_int_eq(s[1].w, 4 + (int)strlen(full[1])); /* " 1 Projection " */
    /* 80 columns: short names, the current one in full */
    used = ui_bar_fit(80, full, brief, 4, s);
    ck_assert_int_le(used, 80);
    ck_assert(s[4].full_name);
    ck_assert(!s[1].full_name);
    ck_assert(!s[1].digit_only);
    /* very narrow: digits, still the current stage named */
    used = ui_bar_fit(40, full, brief, last, s);
    ck_assert_int_le(used, 40);
    ck_assert(s[0].digit_only);
    ck_assert(s[last].full_name);
}
END_TEST

/* ------------------------------------------------------------ TCase flow */

START_TEST(test_flow_wraps_and_breaks)
{
    struct ui_flow_item items[] = {
        {30, 5, false}, {30, 7, false}, {30, 4, false}, {10, 2, true}, {50, 3, false},
    };
    struct ui_rect r[5];
    int h = ui_flow(items, 5, 70, 2, 1, r);
    ck_assert_int_eq(r[0].x, 0);
    ck_assert_int_eq(r[0].y, 0);
    ck_assert_int_eq(r[1].x, 32);
    ck_assert_int_eq(r[1].y, 0);
    ck_assert_int_eq(r[2].x, 0);
    ck_assert_int_eq(r[2].y, 8); /* below the taller one + gap */
    ck_assert_int_eq(r[3].x, 0);
    ck_assert_int_eq(r[3].y, 13); /* new_row */
    ck_assert_int_eq(r[4].x, 12);
    ck_assert_int_eq(r[4].y, 13);
    ck_assert_int_eq(h, 16);
    ck_assert_int_eq(ui_flow(items, 0, 70, 2, 1, r), 0);
    /* an item wider than the pane still gets a row of its own */
    struct ui_flow_item wide[] = {{10, 1, false}, {100, 2, false}};
    ui_flow(wide, 2, 50, 1, 0, r);
    ck_assert_int_eq(r[1].x, 0);
    ck_assert_int_eq(r[1].y, 1);
}
END_TEST

/* ------------------------------------------------------------ TCase grid */

START_TEST(test_grid_fits_and_clips)
{
    struct ui_grid g;
    ui_grid_fit(4, 6, 5, 6, 100, 20, &g);
    ck_assert_int_eq(g.rows, 4);
    ck_assert_int_eq(g.cols, 6);
    ck_assert(!g.clipped);
    ck_assert_int_eq(g.w, 5 + 1 + 36);
    ck_assert_int_eq(g.h, 2 + 4);
    ui_grid_fit(1024, 512, 10, 6, 131, 40, &g);
    ck_assert(g.clipped);
    ck_assert_int_eq(g.cols, (131 - 11) / 6);
    ck_assert_int_eq(g.rows, 38);
    ck_assert_int_le(g.w, 131);
    ck_assert_int_le(g.h, 40);
    ui_grid_fit(10, 10, 30, 6, 20, 2, &g); /* never less than one cell */
    ck_assert_int_eq(g.rows, 1);
    ck_assert_int_eq(g.cols, 1);
}
END_TEST

START_TEST(test_window_follows_cursor)
{
    ck_assert_int_eq(ui_window_start(0, 10, 100), 0);
    ck_assert_int_eq(ui_window_start(50, 10, 100), 45);
    ck_assert_int_eq(ui_window_start(99, 10, 100), 90);
    ck_assert_int_eq(ui_window_start(7, 10, 8), 0);
    for (int c = 0; c < 100; c++) {
        int s = ui_window_start(c, 9, 100);
        ck_assert_int_le(s, c);
        ck_assert_int_gt(s + 9, c);
    }
}
END_TEST

START_TEST(test_scroll_follow)
{
    ck_assert_int_eq(ui_scroll_follow(0, 5, 1, 10, 100), 0);    /* visible already */
    ck_assert_int_eq(ui_scroll_follow(0, 12, 1, 10, 100), 3);   /* just enough */
    ck_assert_int_eq(ui_scroll_follow(20, 12, 1, 10, 100), 12); /* up */
    ck_assert_int_eq(ui_scroll_follow(50, 0, 0, 10, 8), 0);     /* canvas fits */
    ck_assert_int_eq(ui_scroll_follow(95, 95, 0, 10, 100), 90); /* not past the end */
    ck_assert_int_eq(ui_scroll_follow(0, 20, 30, 10, 100), 20); /* taller than the view */
}
END_TEST

/* ------------------------------------------------------------ TCase numbers */

/* Two matrices side by side write the same decimals, each in a width its
 * own numbers fit. */
START_TEST(test_shared_number_formats)
{
    static const float ranges[][2] = {{10.23f, 5.91f},   {8.19f, 4.73f}, {150.0f, 86.6f},
                                      {1234.5f, 712.7f}, {0.5f, 0.29f},  {2e6f, 1e6f}};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        const float a = ranges[i][0], b = ranges[i][1];
        const struct ui_numfmt fa = ui_numfmt_shared(a, b), fb = ui_numfmt_shared(b, a);
        ck_assert_int_eq(fa.decimals, fb.decimals);
        char buf[64];
        ck_assert_int_le((int)strlen(ui_num_format(buf, sizeof buf, -a, fa)), fa.width);
        ck_assert_int_le((int)strlen(ui_num_format(buf, sizeof buf, -b, fb)), fb.width);
        ck_assert_int_le(fa.width, 8);
    }
    /* the scores 10.23 and their scaled 5.91 both with two decimals */
    ck_assert_int_eq(ui_numfmt_shared(10.23f, 5.91f).decimals, 2);
    ck_assert_int_eq(ui_numfmt_for(10.23f, false).decimals, 1); /* alone: one */
}
END_TEST

START_TEST(test_number_formats)
{
    char buf[32];
    struct ui_numfmt f = ui_numfmt_for(2.0f, false);
    ck_assert_int_eq(f.decimals, 2);
    ck_assert_int_eq(f.width, 5);
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, -1.234f, f), "-1.23");
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, 0.5f, f), " 0.50");
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, -0.001f, f), " 0.00"); /* no "-0.00" */
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, -INFINITY, f), " -inf");
    f = ui_numfmt_for(42.0f, false);
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, -42.04f, f), "-42.0");
    f = ui_numfmt_for(4000.0f, false);
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, 3999.6f, f), "  4000");
    f = ui_numfmt_for(2e6f, false);
    ck_assert_int_lt(f.decimals, 0);
    ui_num_format(buf, sizeof buf, -1.5e6f, f);
    ck_assert_int_eq((int)strlen(buf), f.width);
    ck_assert_double_eq_tol(strtod(buf, NULL), -1.5e6, 1e5);
    f = ui_numfmt_for(1.0f, true);
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, 0.25f, f), "0.25");
    ck_assert_str_eq(ui_num_format(buf, sizeof buf, 1.0f, f), "1.00");
    /* every width holds the largest number of its range */
    const float ranges[] = {0.0f, 0.3f, 9.99f, 9.996f, 99.9f, 99.96f, 12345.0f, 99999.0f};
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++) {
        f = ui_numfmt_for(ranges[i], false);
        ui_num_format(buf, sizeof buf, -ranges[i], f);
        ck_assert_int_eq((int)strlen(buf), f.width);
    }
}
END_TEST

static Suite *layout_suite(void)
{
    Suite *s = suite_create("ui_layout");
    TCase *t = tcase_create("panes");
    tcase_add_test(t, test_reading_panes);
    tcase_add_test(t, test_panes_tile_the_screen);
    tcase_add_test(t, test_too_small);
    tcase_add_test(t, test_side_pane_below_grows_within_limits);
    suite_add_tcase(s, t);
    t = tcase_create("bar");
    tcase_add_test(t, test_bar_forms);
    suite_add_tcase(s, t);
    t = tcase_create("flow");
    tcase_add_test(t, test_flow_wraps_and_breaks);
    suite_add_tcase(s, t);
    t = tcase_create("grid");
    tcase_add_test(t, test_grid_fits_and_clips);
    tcase_add_test(t, test_window_follows_cursor);
    tcase_add_test(t, test_scroll_follow);
    suite_add_tcase(s, t);
    t = tcase_create("numbers");
    tcase_add_test(t, test_number_formats);
    tcase_add_test(t, test_shared_number_formats);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(layout_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
