/* test_lesson_text.c - lesson text as printed and wrapped: the wrapper keeps
 * a code span and the punctuation after it on one line, and the printed
 * cost table lines up rows whose labels hold multi-byte characters (Q·Kᵀ). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "lesson/layout.h"
#include "lesson/lesson.h"
#include "io/utf8.h"
#include "io/view_desc.h"

START_TEST(code_span_keeps_its_punctuation)
{
    static const char text[] = "# T\n\nLook at row `tok 1`. Then at `W_q`, and `K`: done.\n\n"
                               "```mha\nstage: input\n```\n";
    struct lesson *l = lesson_parse(text, strlen(text), "t.md");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_eq(l->n_diags, 0);
    /* every width from 8 to 40: no line starts with the punctuation */
    for (int width = 10; width <= 40; width++) {
        struct lesson_layout lay;
        ck_assert_int_eq(lesson_layout_step(&l->steps[0], width, &lay), 0);
        for (int i = 0; i < lay.n_lines; i++) {
            char *t = lesson_line_text(&lay.lines[i]);
            ck_assert_ptr_nonnull(t);
            const char *p = t;
            while (*p == ' ')
                p++;
            ck_assert_msg(*p != '.' && *p != ',' && *p != ':',
                          "width %d: line %d starts with punctuation: \"%s\"", width, i, t);
            ck_assert_int_le(utf8_width(t), width);
            free(t);
        }
        lesson_layout_done(&lay);
    }
    lesson_free(l);
}
END_TEST

START_TEST(cost_table_lines_up_by_columns)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(f);
    struct mha_example ex = {.d_model = 512, .heads = 8, .lq = 10, .lk = 10};
    const struct view_inputs in = {.ex = &ex, .seq = 10};
    struct view_desc *vd = view_desc_new(MHA_VIEW_COST, &in);
    ck_assert_ptr_nonnull(vd);
    view_desc_write_text(f, vd);
    view_desc_free(vd);
    fclose(f);
    /* the table: the header, a rule, then a row per quantity up to a blank line */
    int width = -1, rows = 0;
    bool saw_qk = false, in_table = false;
    for (char *save = NULL, *line = strtok_r(buf, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (!in_table) {
            in_table = strstr(line, "1 head, d_k 512") != NULL;
            if (!in_table)
                continue;
        } else if (line[0] == '-') {
            continue;
        } else if (!strstr(line, "  ")) {
            break; /* the note under the table */
        }
        saw_qk = saw_qk || strstr(line, "Kᵀ");
        if (width < 0)
            width = utf8_width(line);
        ck_assert_msg(utf8_width(line) == width, "\"%s\" is %d columns, the others %d", line,
                      utf8_width(line), width);
        rows++;
    }
    ck_assert(saw_qk);
    ck_assert_int_ge(rows, 6);
    free(buf);
}
END_TEST

static Suite *text_suite(void)
{
    Suite *s = suite_create("lesson_text");
    TCase *t = tcase_create("text");
    tcase_add_test(t, code_span_keeps_its_punctuation);
    tcase_add_test(t, cost_table_lines_up_by_columns);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(text_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
