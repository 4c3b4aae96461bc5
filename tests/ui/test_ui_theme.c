/* test_ui_theme.c - colour mapping: the diverging and sequential scales
 * (colorscale.c, shared with the exports), the themes (every theme has
 * every role, mono has no colour at all, text is legible on every fill, no
 * scale runs from red to green), head colours, shade glyphs, and the choice
 * of depth (NO_COLOR, monochrome, 8 and 256 colours).  No terminal needed. */
#include <check.h>
#include <curses.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/colorscale.h"
#include "ui/draw/ui_theme.h"

static const enum ui_depth depths[] = {UI_DEPTH_MONO, UI_DEPTH_8, UI_DEPTH_256};
static const enum colorscale_theme colour_themes[] = {COLORSCALE_THEME_DARK, COLORSCALE_THEME_LIGHT,
                                                      COLORSCALE_THEME_PROJECTOR};

START_TEST(test_diverging_levels)
{
    for (size_t d = 0; d < 3; d++) {
        const int n = ui_div_levels(depths[d]);
        ck_assert_int_eq(n % 2, 1); /* a middle level for zero */
        const int mid = n / 2;
        ck_assert_int_eq(colorscale_div_level(0.0f, 2.0f, n), mid);
        ck_assert_int_eq(colorscale_div_level(-2.0f, 2.0f, n), 0);
        ck_assert_int_eq(colorscale_div_level(2.0f, 2.0f, n), n - 1);
        ck_assert_int_eq(colorscale_div_level(-50.0f, 2.0f, n), 0);
        ck_assert_int_eq(colorscale_div_level(50.0f, 2.0f, n), n - 1);
        ck_assert_int_eq(colorscale_div_level(NAN, 2.0f, n), mid);
        ck_assert_int_eq(colorscale_div_level(1.0f, 0.0f, n), mid); /* an all-zero matrix */
        /* monotonic, and symmetric around zero */
        int last = 0;
        for (int i = -100; i <= 100; i++) {
            const float v = (float)i / 50.0f;
            const int l = colorscale_div_level(v, 2.0f, n);
            ck_assert_int_ge(l, last);
            ck_assert_int_eq(l - mid, mid - colorscale_div_level(-v, 2.0f, n));
            last = l;
        }
        /* the smallest values count as zero, anything clearly signed does not */
        ck_assert_int_eq(colorscale_div_level(0.01f, 2.0f, n), mid);
        ck_assert_int_gt(colorscale_div_level(1.0f, 2.0f, n), mid);
        ck_assert_int_lt(colorscale_div_level(-1.0f, 2.0f, n), mid);
    }
}
END_TEST

START_TEST(test_sequential_levels)
{
    for (size_t d = 0; d < 3; d++) {
        const int n = ui_seq_levels(depths[d]);
        ck_assert_int_ge(n, 5);
        ck_assert_int_eq(colorscale_seq_level(0.0f, n), 0);
        ck_assert_int_eq(colorscale_seq_level(-1.0f, n), 0);
        ck_assert_int_eq(colorscale_seq_level(NAN, n), 0);
        ck_assert_int_eq(colorscale_seq_level(1e-6f, n), 1); /* anything above zero shows */
        ck_assert_int_eq(colorscale_seq_level(1.0f, n), n - 1);
        ck_assert_int_eq(colorscale_seq_level(1.5f, n), n - 1);
        int last = 0;
        for (int i = 0; i <= 1000; i++) {
            const int l = colorscale_seq_level((float)i / 1000.0f, n);
            ck_assert_int_ge(l, last);
            ck_assert_int_lt(l, n);
            last = l;
        }
    }
}
END_TEST

/* The dark theme's 256-colour scales are the exports' scales. */
START_TEST(test_screen_and_exports_share_the_default_scales)
{
    short fg, bg;
    for (int l = 0; l < COLORSCALE_DIV_LEVELS; l++) {
        ck_assert(ui_div_colour(COLORSCALE_THEME_DARK, UI_DEPTH_256, l, &fg, &bg));
        ck_assert_int_eq(bg, colorscale_div256_bg[l]);
        ck_assert_int_eq(fg, colorscale_div256_fg[l]);
    }
    for (int l = 0; l < COLORSCALE_SEQ_LEVELS; l++) {
        ck_assert(ui_seq_colour(COLORSCALE_THEME_DARK, UI_DEPTH_256, l, &fg, &bg));
        ck_assert_int_eq(bg, colorscale_seq256_bg[l]);
        ck_assert_int_eq(fg, colorscale_seq256_fg[l]);
    }
}
END_TEST

START_TEST(test_palettes)
{
    short fg, bg;
    for (size_t t = 0; t < 3; t++) {
        const enum colorscale_theme th = colour_themes[t];
        ck_assert(!ui_div_colour(th, UI_DEPTH_MONO, 0, &fg, &bg));
        ck_assert(!ui_seq_colour(th, UI_DEPTH_MONO, 0, &fg, &bg));
        for (size_t d = 1; d < 3; d++) {
            const int limit = depths[d] == UI_DEPTH_256 ? 256 : 8;
            const int n = ui_div_levels(depths[d]);
            for (int l = 0; l < n; l++) {
                ck_assert(ui_div_colour(th, depths[d], l, &fg, &bg));
                ck_assert_int_lt(fg, limit);
                ck_assert_int_ge(fg, -1);
                ck_assert_int_lt(bg, limit);
                ck_assert_int_ge(bg, -1);
                if (l != n / 2)
                    ck_assert_int_ne(bg, -1); /* signed values are tinted */
            }
            ck_assert(ui_div_colour(th, depths[d], n / 2, &fg, &bg));
            ck_assert_int_eq(bg, -1); /* zero keeps the background */
            ck_assert(!ui_div_colour(th, depths[d], n, &fg, &bg));
            short b0, b1;
            ui_div_colour(th, depths[d], 0, &fg, &b0);
            ui_div_colour(th, depths[d], n - 1, &fg, &b1);
            ck_assert_int_ne(b0, b1);
            for (int l = 0; l < ui_seq_levels(depths[d]); l++) {
                ck_assert(ui_seq_colour(th, depths[d], l, &fg, &bg));
                ck_assert_int_lt(bg, limit);
                if (l > 0) {
                    short prev;
                    ui_seq_colour(th, depths[d], l - 1, &fg, &prev);
                    ck_assert_int_ne(prev, bg);
                }
            }
            /* heads: distinct colours as long as there are colours to give */
            const int hc = ui_head_colours(depths[d]);
            for (int a = 0; a < hc; a++)
                for (int b = a + 1; b < hc; b++)
                    ck_assert_int_ne(ui_head_colour(th, depths[d], a),
                                     ui_head_colour(th, depths[d], b));
            ck_assert_int_eq(ui_head_colour(th, depths[d], hc), ui_head_colour(th, depths[d], 0));
        }
    }
}
END_TEST

/* Text on every coloured cell of the 256-colour scales is legible (WCAG
 * contrast; the projector theme asks for the 4.5 of body text). */
START_TEST(test_text_is_legible_on_every_fill)
{
    for (size_t t = 0; t < 3; t++) {
        const double need = colour_themes[t] == COLORSCALE_THEME_PROJECTOR ? 4.5 : 3.5;
        for (int scale = 0; scale < 2; scale++) {
            const int n = scale ? ui_seq_levels(UI_DEPTH_256) : ui_div_levels(UI_DEPTH_256);
            for (int l = 0; l < n; l++) {
                short fg, bg;
                ck_assert(scale ? ui_seq_colour(colour_themes[t], UI_DEPTH_256, l, &fg, &bg)
                                : ui_div_colour(colour_themes[t], UI_DEPTH_256, l, &fg, &bg));
                if (bg < 0)
                    continue;
                const double c =
                    colorscale_contrast(colorscale_xterm_rgb(fg), colorscale_xterm_rgb(bg));
                ck_assert_msg(c >= need, "theme %s, %s level %d: contrast %.2f",
                              colorscale_theme_name(colour_themes[t]), scale ? "seq" : "div", l, c);
            }
        }
    }
}
END_TEST

/* Diverging scales run from blue to red and never through green; the
 * sequential ones never put red next to green either. */
START_TEST(test_no_red_green_scale)
{
    for (size_t t = 0; t < 3; t++) {
        short fg, lo, hi;
        const int n = ui_div_levels(UI_DEPTH_256);
        ui_div_colour(colour_themes[t], UI_DEPTH_256, 0, &fg, &lo);
        ui_div_colour(colour_themes[t], UI_DEPTH_256, n - 1, &fg, &hi);
        const struct colorscale_rgb a = colorscale_xterm_rgb(lo), b = colorscale_xterm_rgb(hi);
        ck_assert_int_gt(a.b, a.r); /* blue end */
        ck_assert_int_gt(b.r, b.g); /* red end */
        ck_assert_int_gt(b.r, b.b);
        for (int l = 0; l < n; l++) {
            short bg;
            ui_div_colour(colour_themes[t], UI_DEPTH_256, l, &fg, &bg);
            const struct colorscale_rgb c = colorscale_xterm_rgb(bg);
            ck_assert_msg(!(c.g > c.r + 40 && c.g > c.b + 40), "a green in the diverging scale");
        }
        for (int l = 0; l < ui_seq_levels(UI_DEPTH_256); l++) {
            short bg;
            ui_seq_colour(colour_themes[t], UI_DEPTH_256, l, &fg, &bg);
            const struct colorscale_rgb c = colorscale_xterm_rgb(bg);
            ck_assert_msg(!(c.r > c.g + 40 && c.r > c.b + 40), "a red in the sequential scale");
        }
    }
}
END_TEST

START_TEST(test_every_theme_has_every_role)
{
    for (size_t t = 0; t < 3; t++)
        for (int r = 0; r < UI_ROLE_COUNT; r++) {
            const struct ui_role_style *s = ui_role_style(colour_themes[t], (enum ui_role)r);
            ck_assert_ptr_nonnull(s);
            ck_assert_msg(s->set, "theme %s has no colours for role %d",
                          colorscale_theme_name(colour_themes[t]), r);
            ck_assert(s->f256 >= -1 && s->f256 < 256 && s->b256 >= -1 && s->b256 < 256);
            ck_assert(s->f8 >= -1 && s->f8 < 8 && s->b8 >= -1 && s->b8 < 8);
        }
    ck_assert_ptr_null(ui_role_style(COLORSCALE_THEME_DARK, UI_ROLE_COUNT));
    /* projector: bold labels, and no mid-grey text (xterm greys 240..250) */
    for (int r = 0; r < UI_ROLE_COUNT; r++) {
        const struct ui_role_style *s = ui_role_style(COLORSCALE_THEME_PROJECTOR, r);
        ck_assert_msg(s->f256 < 232 || s->f256 > 250, "grey text in the projector theme");
    }
    ck_assert(ui_role_style(COLORSCALE_THEME_PROJECTOR, UI_ROLE_LABEL)->attr & A_BOLD);
}
END_TEST

START_TEST(test_mono_has_no_colour)
{
    for (int r = 0; r < UI_ROLE_COUNT; r++)
        ck_assert_ptr_null(ui_role_style(COLORSCALE_THEME_MONO, (enum ui_role)r));
    short fg, bg;
    for (size_t d = 0; d < 3; d++) {
        ck_assert(!ui_div_colour(COLORSCALE_THEME_MONO, depths[d], 0, &fg, &bg));
        ck_assert(!ui_seq_colour(COLORSCALE_THEME_MONO, depths[d], 1, &fg, &bg));
        ck_assert_int_eq(ui_head_colour(COLORSCALE_THEME_MONO, depths[d], 1), -1);
        ck_assert_int_eq(ui_theme_depth(COLORSCALE_THEME_MONO, depths[d]), UI_DEPTH_MONO);
    }
    ck_assert_int_eq(ui_theme_depth(COLORSCALE_THEME_LIGHT, UI_DEPTH_256), UI_DEPTH_256);
    ck_assert_int_eq(ui_theme_depth(COLORSCALE_THEME_DARK, UI_DEPTH_MONO), UI_DEPTH_MONO);
    /* the attributes a mono screen draws with carry no colour pair */
    struct ui_theme th = {
        COLORSCALE_THEME_MONO, UI_DEPTH_256, UI_DEPTH_MONO, false, true, 0, false};
    for (int r = 0; r < UI_ROLE_COUNT; r++)
        ck_assert_int_eq(ui_role_attr(&th, (enum ui_role)r) & (int)A_COLOR, 0);
    for (int i = -10; i <= 10; i++) {
        ck_assert_int_eq(ui_div_attr(&th, (float)i / 10.0f, 1.0f) & (int)A_COLOR, 0);
        ck_assert_int_eq(ui_seq_attr(&th, (float)(i + 10) / 20.0f) & (int)A_COLOR, 0);
        ck_assert_int_eq(ui_head_attr(&th, i + 10) & (int)A_COLOR, 0);
    }
    /* ... and a colour theme's do */
    th = (struct ui_theme){
        COLORSCALE_THEME_LIGHT, UI_DEPTH_256, UI_DEPTH_256, false, true, 0, false};
    ck_assert_int_ne(ui_role_attr(&th, UI_ROLE_TITLE) & (int)A_COLOR, 0);
}
END_TEST

START_TEST(test_theme_names_and_defaults)
{
    static const char *const names[] = {"dark", "light", "projector", "mono"};
    for (int t = 0; t < COLORSCALE_THEME_COUNT; t++) {
        ck_assert_str_eq(colorscale_theme_name((enum colorscale_theme)t), names[t]);
        ck_assert_int_eq(colorscale_theme_from_name(names[t]), t);
    }
    ck_assert_int_eq(colorscale_theme_from_name("solarized"), -1);
    ck_assert_int_eq(colorscale_theme_from_name(""), -1);
    ck_assert_ptr_null(colorscale_theme_name(COLORSCALE_THEME_COUNT));
    short fg, bg;
    ui_theme_defaults(COLORSCALE_THEME_PROJECTOR, UI_DEPTH_256, &fg, &bg);
    ck_assert_int_eq(fg, 16); /* black on white, whatever the terminal's colours */
    ck_assert_int_eq(bg, 231);
    ui_theme_defaults(COLORSCALE_THEME_DARK, UI_DEPTH_256, &fg, &bg);
    ck_assert(fg == -1 && bg == -1);
    ui_theme_defaults(COLORSCALE_THEME_PROJECTOR, UI_DEPTH_MONO, &fg, &bg);
    ck_assert(fg == -1 && bg == -1);
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
    tcase_add_test(t, test_screen_and_exports_share_the_default_scales);
    suite_add_tcase(s, t);
    t = tcase_create("palettes");
    tcase_add_test(t, test_palettes);
    tcase_add_test(t, test_text_is_legible_on_every_fill);
    tcase_add_test(t, test_no_red_green_scale);
    tcase_add_test(t, test_shade_glyphs);
    tcase_add_test(t, test_depth_choice);
    suite_add_tcase(s, t);
    t = tcase_create("themes");
    tcase_add_test(t, test_every_theme_has_every_role);
    tcase_add_test(t, test_mono_has_no_colour);
    tcase_add_test(t, test_theme_names_and_defaults);
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
