/* test_ui_theme.c - colour mapping: the diverging and sequential scales, the
 * palettes of each colour depth, head colours, shade glyphs, and the choice
 * of depth (NO_COLOR, monochrome, 8 and 256 colours).  No terminal needed. */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ui_theme.h"

static const enum ui_depth depths[] = {UI_DEPTH_MONO, UI_DEPTH_8, UI_DEPTH_256};

START_TEST(test_diverging_levels)
{
    for (size_t d = 0; d < 3; d++) {
        const int n = ui_div_levels(depths[d]);
        ck_assert_int_eq(n % 2, 1); /* a middle level for zero */
        const int mid = n / 2;
        ck_assert_int_eq(ui_div_level(0.0f, 2.0f, n), mid);
        ck_assert_int_eq(ui_div_level(-2.0f, 2.0f, n), 0);
        ck_assert_int_eq(ui_div_level(2.0f, 2.0f, n), n - 1);
        ck_assert_int_eq(ui_div_level(-50.0f, 2.0f, n), 0);
        ck_assert_int_eq(ui_div_level(50.0f, 2.0f, n), n - 1);
        ck_assert_int_eq(ui_div_level(NAN, 2.0f, n), mid);
        ck_assert_int_eq(ui_div_level(1.0f, 0.0f, n), mid); /* an all-zero matrix */
        /* monotonic, and symmetric around zero */
        int last = 0;
        for (int i = -100; i <= 100; i++) {
            const float v = (float)i / 50.0f;
            const int l = ui_div_level(v, 2.0f, n);
            ck_assert_int_ge(l, last);
            ck_assert_int_eq(l - mid, mid - ui_div_level(-v, 2.0f, n));
            last = l;
        }
        /* the smallest values count as zero, anything clearly signed does not */
        ck_assert_int_eq(ui_div_level(0.01f, 2.0f, n), mid);
        ck_assert_int_gt(ui_div_level(1.0f, 2.0f, n), mid);
        ck_assert_int_lt(ui_div_level(-1.0f, 2.0f, n), mid);
    }
}
END_TEST

START_TEST(test_sequential_levels)
{
    for (size_t d = 0; d < 3; d++) {
        const int n = ui_seq_levels(depths[d]);
        ck_assert_int_ge(n, 5);
        ck_assert_int_eq(ui_seq_level(0.0f, n), 0);
        ck_assert_int_eq(ui_seq_level(-1.0f, n), 0);
        ck_assert_int_eq(ui_seq_level(NAN, n), 0);
        ck_assert_int_eq(ui_seq_level(1e-6f, n), 1); /* anything above zero shows */
        ck_assert_int_eq(ui_seq_level(1.0f, n), n - 1);
        ck_assert_int_eq(ui_seq_level(1.5f, n), n - 1);
        int last = 0;
        for (int i = 0; i <= 1000; i++) {
            const int l = ui_seq_level((float)i / 1000.0f, n);
            ck_assert_int_ge(l, last);
            ck_assert_int_lt(l, n);
            last = l;
        }
    }
}
END_TEST

START_TEST(test_palettes)
{
    short fg, bg;
    ck_assert(!ui_div_colour(UI_DEPTH_MONO, 0, &fg, &bg));
    ck_assert(!ui_seq_colour(UI_DEPTH_MONO, 0, &fg, &bg));
    for (size_t d = 1; d < 3; d++) {
        const int limit = depths[d] == UI_DEPTH_256 ? 256 : 8;
        const int n = ui_div_levels(depths[d]);
        for (int l = 0; l < n; l++) {
            ck_assert(ui_div_colour(depths[d], l, &fg, &bg));
            ck_assert_int_lt(fg, limit);
            ck_assert_int_ge(fg, -1);
            ck_assert_int_lt(bg, limit);
            ck_assert_int_ge(bg, -1);
            if (l != n / 2)
                ck_assert_int_ne(bg, -1); /* signed values are tinted */
        }
        ck_assert(ui_div_colour(depths[d], n / 2, &fg, &bg));
        ck_assert_int_eq(bg, -1); /* zero keeps the terminal's background */
        ck_assert(!ui_div_colour(depths[d], n, &fg, &bg));
        /* the two ends differ, and the scale is not one colour twice in a row */
        short b0, b1;
        ui_div_colour(depths[d], 0, &fg, &b0);
        ui_div_colour(depths[d], n - 1, &fg, &b1);
        ck_assert_int_ne(b0, b1);
        for (int l = 0; l < ui_seq_levels(depths[d]); l++) {
            ck_assert(ui_seq_colour(depths[d], l, &fg, &bg));
            ck_assert_int_lt(bg, limit);
            if (l > 0) {
                short prev;
                ui_seq_colour(depths[d], l - 1, &fg, &prev);
                ck_assert_int_ne(prev, bg);
            }
        }
        /* heads: distinct colours as long as there are colours to give */
        const int hc = ui_head_colours(depths[d]);
        for (int a = 0; a < hc; a++)
            for (int b = a + 1; b < hc; b++)
                ck_assert_int_ne(ui_head_colour(depths[d], a), ui_head_colour(depths[d], b));
        ck_assert_int_eq(ui_head_colour(depths[d], hc), ui_head_colour(depths[d], 0));
    }
    ck_assert_int_eq(ui_head_colour(UI_DEPTH_MONO, 3), -1);
}
END_TEST

START_TEST(test_shade_glyphs)
{
    const char *utf8[] = {" ", "░", "▒", "▓", "█"};
    const char *ascii[] = {" ", ".", ":", "*", "#"};
    for (int l = 0; l < 5; l++) {
        ck_assert_str_eq(ui_shade_glyph(l, true), utf8[l]);
        ck_assert_str_eq(ui_shade_glyph(l, false), ascii[l]);
    }
    ck_assert_str_eq(ui_shade_glyph(-3, true), " ");
    ck_assert_str_eq(ui_shade_glyph(9, false), "#");
}
END_TEST

START_TEST(test_depth_choice)
{
    ck_assert_int_eq(ui_depth_choose(true, true, 256), UI_DEPTH_MONO); /* NO_COLOR wins */
    ck_assert_int_eq(ui_depth_choose(false, false, 0), UI_DEPTH_MONO);
    ck_assert_int_eq(ui_depth_choose(false, true, 2), UI_DEPTH_MONO);
    ck_assert_int_eq(ui_depth_choose(false, true, 8), UI_DEPTH_8);
    ck_assert_int_eq(ui_depth_choose(false, true, 16), UI_DEPTH_8);
    ck_assert_int_eq(ui_depth_choose(false, true, 256), UI_DEPTH_256);
    ck_assert_int_eq(ui_depth_choose(false, true, 16777216), UI_DEPTH_256);
}
END_TEST

static Suite *theme_suite(void)
{
    Suite *s = suite_create("ui_theme");
    TCase *t = tcase_create("scales");
    tcase_add_test(t, test_diverging_levels);
    tcase_add_test(t, test_sequential_levels);
    suite_add_tcase(s, t);
    t = tcase_create("palettes");
    tcase_add_test(t, test_palettes);
    tcase_add_test(t, test_shade_glyphs);
    tcase_add_test(t, test_depth_choice);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(theme_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
