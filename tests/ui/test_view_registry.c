/* test_view_registry.c - a view is one row of MHA_VIEWS (engine/views.h)
 * naming its own file, whose struct view_kind describes it once: every view has a
 * complete row and describes its text pane, the screen's blocks are the
 * description's matrix and table, and :export writes the description as
 * text, under a name with the row's extension. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/views/ui_export.h"
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
    /* the name each row gives itself is its name in MHA_VIEWS */
#define VIEW_NAME(id, name) [MHA_VIEW_##id] = #name,
    static const char *const names[MHA_VIEW_COUNT] = {MHA_VIEWS(VIEW_NAME)};
#undef VIEW_NAME
    ck_assert_ptr_null(view_kind(MHA_VIEW_NONE));
    ck_assert_ptr_null(view_kind(MHA_VIEW_COUNT));
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        const struct view_kind *k = view_kind((enum mha_view)v);
        ck_assert_msg(k != NULL, "view %s has no registry row", mha_view_name(v));
        ck_assert_int_eq(k->id, v);
        ck_assert_str_eq(k->name, names[v]);
        ck_assert(k->cycle_msg && *k->cycle_msg);
        ck_assert(k->man && *k->man); /* the man page's words */
        ck_assert(k->make && k->extension && *k->extension);
        /* every view describes its text pane */
        ck_assert_int_eq(ui_state_set_view(&st, (enum mha_view)v), 0);
        ui_views_sync(&st);
        ck_assert_ptr_nonnull(st.vd);
        ck_assert(st.vd->heading[0] && st.vd->formula[0] && st.vd->text[0]);
    }
}
END_TEST

/* The blocks of the view on the screen are the row's, one for one. */
START_TEST(test_blocks_through_row)
{
    static struct ui_block a[UI_VIEW_MAX_BLOCKS];
    for (int v = MHA_VIEW_NONE + 1; v < MHA_VIEW_COUNT; v++) {
        ck_assert_int_eq(ui_state_set_view(&st, (enum mha_view)v), 0);
        ui_views_sync(&st);
        ck_assert_ptr_nonnull(st.vd);
        const int n = ui_view_build(&st, 120, a, UI_VIEW_MAX_BLOCKS);
        if (st.vd->error[0]) { /* a view that cannot be made here (circuits: no model) */
            ck_assert_int_eq(n, 0);
            continue;
        }
        /* the description's matrices (when it has them), then its table; a
         * paged view's small maps of weights alone, from its page's first */
        ck_assert_int_eq(n, st.vd->n_matrices + (st.vd->paged ? 0 : 1));
        for (int m = 0; m < st.vd->n_matrices; m++) {
            const bool prob = st.vd->matrices[m].prob;
            ck_assert_int_eq(a[m].kind, prob ? UI_BLOCK_HEATMAP : UI_BLOCK_MATRIX);
            ck_assert_int_eq(a[m].map_size > 0, st.vd->paged);
            ck_assert(a[m].data == st.vd->matrices[m].data);
            ck_assert_int_eq(a[m].rows, st.vd->matrices[m].rows);
            ck_assert_int_eq(a[m].cols, st.vd->matrices[m].cols);
        }
        if (st.vd->paged) {
            ck_assert_int_gt(n, 1);
            st.view_first = 1; /* a page on: from the second map */
            ck_assert_int_eq(ui_view_build(&st, 120, a, UI_VIEW_MAX_BLOCKS), n - 1);
            ck_assert(a[0].data == st.vd->matrices[1].data);
            st.view_first = 0;
            ck_assert_int_eq(ui_view_build(&st, 120, a, 0), 0);
            continue;
        }
        ck_assert_int_eq(a[n - 1].kind, UI_BLOCK_TABLE);
        ck_assert(a[n - 1].table == &st.vd->table);
        ck_assert_str_eq(a[n - 1].title, st.vd->table_title);
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
        ui_views_sync(&st);
        const struct view_kind *ops = view_kind((enum mha_view)v);
        char *want = NULL;
        size_t want_len = 0;
        FILE *mem = open_memstream(&want, &want_len);
        ck_assert_ptr_nonnull(mem);
        view_desc_write_text(mem, st.vd);
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
