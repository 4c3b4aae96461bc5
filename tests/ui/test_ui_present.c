/* test_ui_present.c - the presenter's screen arithmetic: the header, the
 * numbers and the text pane tile the screen at every size from the smallest
 * up; the title grows with the room (3 lines from 80x24, 5 on a big
 * screen) but never at the numbers' expense; and the big letters. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw/ui_bigtext.h"
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
    return a.h > 0 && b.h > 0 && a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h &&
           b.y < a.y + a.h;
}

static const int sizes[][2] = {{18, 64},  {24, 80},  {30, 100}, {40, 120},
                               {45, 160}, {60, 200}, {100, 300}};

START_TEST(test_present_panes_tile_the_screen)
{
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        const int rows = sizes[i][0], cols = sizes[i][1];
        for (int pane = 0; pane < 2; pane++)
            for (int msg = 0; msg <= 2; msg++)
                for (int fl = 1; fl <= 2; fl++) {
                    struct ui_present_need need = {msg, fl, 43, 26, pane, 12};
                    struct ui_layout l;
                    ui_layout_compute_present(rows, cols, &need, &l);
                    ck_assert(!l.too_small);
                    ck_assert(l.present);
                    ck_assert_int_eq(l.bar.h, 0); /* no pipeline bar */
                    ck_assert_int_eq(l.head.y, 0);
                    ck_assert_int_eq(l.head.h, ui_present_head_h(l.big, fl));
                    assert_inside(l.head, rows, cols);
                    assert_inside(l.vis, rows, cols);
                    assert_inside(l.status, rows, cols);
                    ck_assert_int_eq(l.status.y, rows - 1);
                    ck_assert_int_eq(l.msg.h, msg); /* no line when there is nothing to say */
                    if (msg)
                        assert_inside(l.msg, rows, cols);
                    ck_assert_int_eq(l.vis.y, l.head.h);
                    ck_assert(!overlap(l.head, l.vis));
                    ck_assert(!overlap(l.vis, l.msg));
                    ck_assert(!overlap(l.vis, l.status));
                    ck_assert_int_ge(l.vis.h, 6);
                    if (pane) {
                        assert_inside(l.side, rows, cols);
                        ck_assert(!overlap(l.vis, l.side));
                        ck_assert(!overlap(l.side, l.msg));
                        ck_assert_int_eq(l.side_by_side, cols >= UI_WIDE_COLS);
                        if (l.side_by_side) {
                            ck_assert_int_ge(l.side.w, 44);
                            ck_assert_int_le(l.side.w, 80);
                            ck_assert_int_eq(l.side.h, l.vis.h);
                        } else {
                            ck_assert_int_ge(l.side.h, 6);
                            ck_assert_int_eq(l.side.w, cols);
                        }
                    } else {
                        ck_assert_int_eq(l.side.h, 0);
                        /* the numbers take the width, inside the margins */
                        const int m = ui_present_margin(cols);
                        ck_assert_int_eq(l.vis.x, m);
                        ck_assert_int_eq(l.vis.w, cols - 2 * m);
                    }
                    /* every line is used: header, body, message, status */
                    const int body = pane && !l.side_by_side ? l.vis.h + l.side.h : l.vis.h;
                    ck_assert_int_eq(l.head.h + body + l.msg.h + 1, rows);
                }
    }
}
END_TEST

START_TEST(test_title_grows_with_the_room)
{
    struct ui_present_need need = {0, 1, 43, 26, false, 0};
    struct ui_layout l;
    ui_layout_compute_present(24, 80, &need, &l);
    ck_assert_int_eq(l.big, 1); /* 3 lines of big letters at 80x24 */
    ck_assert_int_ge(l.vis.h, UI_PRESENT_MIN_VIS);
    ui_layout_compute_present(60, 200, &need, &l);
    ck_assert_int_eq(l.big, 2); /* 5 lines on a big screen */
    ui_layout_compute_present(40, 120, &need, &l);
    ck_assert_int_eq(l.big, 1);
    ui_layout_compute_present(18, 64, &need, &l);
    ck_assert_int_eq(l.big, 0); /* the smallest screen: one plain line */
    ck_assert_int_eq(l.head.h, 2);
    /* a lesson below the numbers at 80x24 keeps the numbers their lines */
    need.pane = true;
    ui_layout_compute_present(24, 80, &need, &l);
    ck_assert_int_eq(l.big, 0);
    /* too wide for scale 2 (and its caption) on 160 columns: scale 1 */
    need = (struct ui_present_need){0, 1, 70, 30, false, 0};
    ui_layout_compute_present(60, 160, &need, &l);
    ck_assert_int_eq(l.big, 1);
    /* no big letters without UTF-8 */
    need.title_w = 0;
    ui_layout_compute_present(60, 200, &need, &l);
    ck_assert_int_eq(l.big, 0);
    /* too small is too small, as without the presenter */
    ui_layout_compute_present(17, 80, &need, &l);
    ck_assert(l.too_small);
    ui_layout_compute_present(24, 63, &need, &l);
    ck_assert(l.too_small);
}
END_TEST

START_TEST(test_head_heights)
{
    ck_assert_int_eq(ui_present_head_h(0, 1), 2);
    ck_assert_int_eq(ui_present_head_h(0, 2), 3);
    ck_assert_int_eq(ui_present_head_h(1, 1), 5); /* 3 lines of letters, formula, rule */
    ck_assert_int_eq(ui_present_head_h(2, 2), 8);
    ck_assert_int_eq(ui_present_head_h(1, 7), 6); /* at most two formula lines */
    ck_assert_int_eq(ui_present_margin(80), 1);
    ck_assert_int_eq(ui_present_margin(200), 3);
}
END_TEST

/* ------------------------------------------------------------ TCase big letters */

START_TEST(test_big_letters)
{
    char line[256];
    static const char *const a1[] = {"▄▀▄", "█▀█", "▀ ▀"};
    for (int r = 0; r < 3; r++) {
        ck_assert_int_eq(ui_big_line("A", 1, r, line, sizeof line), 3);
        ck_assert_str_eq(line, a1[r]);
    }
    static const char *const a2[] = {"  ██  ", "██  ██", "██████", "██  ██", "██  ██"};
    for (int r = 0; r < 5; r++) {
        ck_assert_int_eq(ui_big_line("a", 2, r, line, sizeof line), 6);
        ck_assert_str_eq(line, a2[r]);
    }
    ck_assert_int_eq(ui_big_rows(0), 1);
    ck_assert_int_eq(ui_big_rows(1), 3);
    ck_assert_int_eq(ui_big_rows(2), 5);
    ck_assert_int_eq(ui_big_width("4 ATTENTION", 1), 11 * 3 + 10);
    ck_assert_int_eq(ui_big_width("4 ATTENTION", 2), 2 * (11 * 3 + 10));
    ck_assert_int_eq(ui_big_width("", 1), 0);
    /* plain capitals without the blocks */
    ck_assert_int_eq(ui_big_line("Split", 0, 0, line, sizeof line), 9);
    ck_assert_str_eq(line, "S P L I T");
    /* every line of a title is as wide as ui_big_width says; unknown
     * characters are blank letters */
    const char *titles[] = {"0 INPUT", "1 PROJECTION", "3 TRANSPOSE", "heads", "x?y"};
    for (size_t t = 0; t < sizeof titles / sizeof titles[0]; t++)
        for (int scale = 1; scale <= 2; scale++)
            for (int r = 0; r < ui_big_rows(scale); r++) {
                const int w = ui_big_line(titles[t], scale, r, line, sizeof line);
                ck_assert_int_eq(w, ui_big_width(titles[t], scale));
                int cols = 0; /* every character here is one column wide */
                for (const unsigned char *p = (const unsigned char *)line; *p; p++)
                    cols += (*p & 0xC0) != 0x80;
                ck_assert_int_eq(cols, w);
            }
    ui_big_line("?", 1, 1, line, sizeof line);
    ck_assert_str_eq(line, "   ");
    /* a short buffer is cut, never overrun */
    ui_big_line("ATTENTION", 1, 0, line, 8);
    ck_assert_int_lt((int)strlen(line), 8);
}
END_TEST

static Suite *present_suite(void)
{
    Suite *s = suite_create("ui_present");
    TCase *t = tcase_create("layout");
    tcase_add_test(t, test_present_panes_tile_the_screen);
    tcase_add_test(t, test_title_grows_with_the_room);
    tcase_add_test(t, test_head_heights);
    suite_add_tcase(s, t);
    t = tcase_create("big letters");
    tcase_add_test(t, test_big_letters);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(present_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
