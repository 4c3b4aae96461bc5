/* test_ui_export.c - e and :export without a terminal: new files get the
 * next free name and never replace one, a named file that exists is
 * refused, a folder that cannot be written is an error that leaves nothing
 * behind, the SVG is the export's own, a view writes its table as text. */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/export.h"
#include "ui/views/ui_export.h"
#include "test_tmp.h"

static struct ui_state st;
static char dir[512];

static void setup(void)
{
    struct mha_error err;
    struct mha_example *ex = mha_example_default(&err);
    ck_assert_ptr_nonnull(ex);
    ck_assert_int_eq(ui_state_init(&st, ex, true, "", &err), 0);
    test_tmp_template(dir, sizeof dir, "mha-ui-export");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
    ui_state_done(&st);
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "chmod -R u+w '%s'; rm -rf '%s'", dir, dir);
    ck_assert_int_eq(system(cmd), 0);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    ck_assert_ptr_nonnull(f);
    static char buf[1 << 20];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* The files in dir, hidden ones too. */
static int files_in(const char *d)
{
    DIR *dp = opendir(d);
    ck_assert_ptr_nonnull(dp);
    int n = 0;
    for (struct dirent *e; (e = readdir(dp));)
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(dp);
    return n;
}

START_TEST(test_new_names_never_replace)
{
    ui_state_set_stage(&st, MHA_STAGE_ATTENTION);
    char written[4200], want[2048];
    struct mha_error err;
    for (int n = 1; n <= 3; n++) {
        mha_error_clear(&err);
        ck_assert_int_eq(
            ui_export_write(&st, MHA_FORMAT_SVG, dir, NULL, written, sizeof written, &err), 0);
        snprintf(want, sizeof want, "%s/mha-attention-%d.svg", dir, n);
        ck_assert_str_eq(written, want);
    }
    ck_assert_int_eq(files_in(dir), 3); /* no temporary file left */
    /* a file someone else made keeps its name and its contents */
    snprintf(want, sizeof want, "%s/mha-attention-4.svg", dir);
    FILE *f = fopen(want, "w");
    fputs("mine", f);
    fclose(f);
    ck_assert_int_eq(ui_export_write(&st, MHA_FORMAT_SVG, dir, NULL, written, sizeof written, &err),
                     0);
    snprintf(want, sizeof want, "%s/mha-attention-5.svg", dir);
    ck_assert_str_eq(written, want);
    snprintf(want, sizeof want, "%s/mha-attention-4.svg", dir);
    ck_assert_str_eq(slurp(want), "mine");
    /* the picture is the export's own, whole */
    char *svg = slurp(written);
    ck_assert_ptr_nonnull(strstr(svg, "<svg"));
    ck_assert_ptr_nonnull(strstr(svg, "</svg>"));
    ck_assert_ptr_nonnull(strstr(svg, "Attention"));
}
END_TEST

START_TEST(test_formats_names_and_views)
{
    char written[4200], want[2048];
    struct mha_error err;
    mha_error_clear(&err);
    ui_state_set_stage(&st, MHA_STAGE_SPLIT);
    ck_assert_int_eq(
        ui_export_write(&st, mha_format_from_name("csv"), dir, NULL, written, sizeof written, &err),
        0);
    snprintf(want, sizeof want, "%s/mha-split-1.csv", dir);
    ck_assert_str_eq(written, want);
    ck_assert_int_eq(ui_export_write(&st, mha_format_from_name("text"), dir, NULL, written,
                                     sizeof written, &err),
                     0);
    ck_assert_ptr_nonnull(strstr(written, "mha-split-1.txt"));
    ck_assert_int_eq(mha_format_from_name("md"), MHA_FORMAT_MARKDOWN);
    ck_assert_int_eq(mha_format_from_name("json"), MHA_FORMAT_JSON);
    ck_assert_int_eq(mha_format_from_name("png"), -1);
    ck_assert_str_eq(ui_export_extension(MHA_FORMAT_LATEX), "tex");
    char name[64];
    ui_export_name("output", 12, "html", name, sizeof name);
    ck_assert_str_eq(name, "mha-output-12.html");
    /* a view: its table as text, whatever the format */
    ck_assert_int_eq(ui_state_set_view(&st, MHA_VIEW_COST), 0);
    ck_assert_int_eq(ui_export_write(&st, MHA_FORMAT_SVG, dir, NULL, written, sizeof written, &err),
                     0);
    snprintf(want, sizeof want, "%s/mha-cost-1.txt", dir);
    ck_assert_str_eq(written, want);
    char *text = slurp(written);
    ck_assert_ptr_nonnull(strstr(text, "Cost view"));
    ck_assert_ptr_nonnull(strstr(text, "multiply-adds: total"));
    ck_assert_ptr_null(strstr(text, " \n")); /* no trailing blanks */
}
END_TEST

START_TEST(test_a_named_file_and_errors)
{
    char written[4200], path[2048];
    struct mha_error err;
    mha_error_clear(&err);
    snprintf(path, sizeof path, "%s/slide.html", dir);
    ck_assert_int_eq(
        ui_export_write(&st, MHA_FORMAT_HTML, NULL, path, written, sizeof written, &err), 0);
    ck_assert_str_eq(written, path);
    ck_assert_ptr_nonnull(strstr(slurp(path), "</html>"));
    /* there now: refused, and the file stays as it was */
    const size_t len = strlen(slurp(path));
    ck_assert_int_eq(
        ui_export_write(&st, MHA_FORMAT_SVG, NULL, path, written, sizeof written, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "exists"));
    ck_assert_int_eq(strlen(slurp(path)), len);
    ck_assert_int_eq(files_in(dir), 1);
    /* a folder that cannot be written: an error, nothing behind */
    char ro[2048];
    snprintf(ro, sizeof ro, "%s/ro", dir);
    ck_assert_int_eq(mkdir(ro, 0555), 0);
    if (access(ro, W_OK) != 0) { /* (root writes anywhere) */
        ck_assert_int_eq(
            ui_export_write(&st, MHA_FORMAT_SVG, ro, NULL, written, sizeof written, &err), -1);
        ck_assert_ptr_nonnull(strstr(err.text, "cannot write in"));
        ck_assert_int_eq(files_in(ro), 0);
    }
    ck_assert_int_eq(ui_export_write(&st, MHA_FORMAT_SVG, "/nonexistent/folder", NULL, written,
                                     sizeof written, &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.text, "/nonexistent/folder"));
}
END_TEST

static Suite *export_suite(void)
{
    Suite *s = suite_create("ui_export");
    TCase *t = tcase_create("files");
    tcase_add_checked_fixture(t, setup, teardown);
    tcase_add_test(t, test_new_names_never_replace);
    tcase_add_test(t, test_formats_names_and_views);
    tcase_add_test(t, test_a_named_file_and_errors);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(export_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
