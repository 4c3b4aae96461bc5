/* test_view_registry.c - a view is one registry row pointing at its own
 * file: every view has a complete row, the screen's blocks for a view are
 * what the row's build gives, and :export writes what the row's export
 * writes, under a name with the row's extension. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/panes/ui_export.h"
#include "ui/views/ui_views.h"
#include "test_tmp.h"

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

START_TEST(test_rows_complete)
{
    ck_assert_ptr_null(ui_view_ops(MHA_VIEW_NONE));
    ck_assert_ptr_null(ui_view_ops(MHA_VIEW_COUNT));
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        const struct ui_view_ops *ops = ui_view_ops((enum mha_view)v);
        ck_assert_msg(ops != NULL, "view %s has no registry row", mha_view_name(v));
        ck_assert_int_eq(ops->id, v);
        ck_assert(ops->cycle_msg && *ops->cycle_msg);
        ck_assert(ops->make && ops->build && ops->describe && ops->export_text);
        ck_assert(ops->extension && *ops->extension);
    }
}
END_TEST

/* The blocks of the view on the screen are the row's, one for one. */
START_TEST(test_blocks_through_row)
{
    static struct ui_block a[UI_VIEW_MAX_BLOCKS], b[UI_VIEW_MAX_BLOCKS];
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        ck_assert_int_eq(ui_state_set_view(&st, (enum mha_view)v), 0);
        ck_assert_ptr_nonnull(st.vd);
        const int n = ui_view_build(&st, 120, a, UI_VIEW_MAX_BLOCKS);
        const int m = ui_view_ops((enum mha_view)v)->build(st.vd, b, UI_VIEW_MAX_BLOCKS);
        ck_assert_int_gt(n, 0);
        ck_assert_int_eq(n, m);
        for (int i = 0; i < n; i++) {
            ck_assert_int_eq(a[i].kind, b[i].kind);
            ck_assert_str_eq(a[i].title, b[i].title);
            ck_assert(a[i].table == b[i].table && a[i].data == b[i].data);
        }
        /* no room: nothing written past it */
        ck_assert_int_eq(ui_view_build(&st, 120, a, 0), 0);
    }
}
END_TEST

/* :export of a view: the row's text, in a file with the row's extension,
 * whatever format was asked for. */
START_TEST(test_export_through_row)
{
    char dir[256];
    test_tmp_template(dir, sizeof dir, "mha-view-registry");
    ck_assert_ptr_nonnull(mkdtemp(dir));
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        ck_assert_int_eq(ui_state_set_view(&st, (enum mha_view)v), 0);
        const struct ui_view_ops *ops = ui_view_ops((enum mha_view)v);
        char *want = NULL;
        size_t want_len = 0;
        FILE *mem = open_memstream(&want, &want_len);
        ck_assert_ptr_nonnull(mem);
        ops->export_text(mem, st.vd);
        fclose(mem);
        ck_assert_ptr_nonnull(strstr(want, " view: "));

        char written[4096], suffix[32];
        struct mha_error err;
        ck_assert_int_eq(ui_export_write(&st, 0, dir, NULL, written, sizeof written, &err), 0);
        snprintf(suffix, sizeof suffix, "-1.%s", ops->extension);
        ck_assert_msg(strstr(written, mha_view_name((enum mha_view)v)) && strstr(written, suffix),
                      "%s", written);
        FILE *f = fopen(written, "rb");
        ck_assert_ptr_nonnull(f);
        char *got = calloc(1, want_len + 2);
        ck_assert_ptr_nonnull(got);
        const size_t n = fread(got, 1, want_len + 1, f);
        fclose(f);
        ck_assert_uint_eq(n, want_len);
        ck_assert_str_eq(got, want);
        unlink(written);
        free(got);
        free(want);
    }
    rmdir(dir);
}
END_TEST

static Suite *registry_suite(void)
{
    Suite *s = suite_create("view_registry");
    TCase *t = tcase_create("rows");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_rows_complete);
    tcase_add_test(t, test_blocks_through_row);
    tcase_add_test(t, test_export_through_row);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(registry_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
