/* test_json_scan.c - the count that refuses a JSON file at its first
 * excess (json_scan.h): entries of a list, nesting, values and lists in
 * all, size; strings are not counted inside; a text fed in pieces gives
 * the same verdict as whole; the loaders name the field, line and column. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/json_scan.h"
#include "test_tmp.h"

static const struct json_limits small = {
    .what = "test file",
    .max_bytes = 1000,
    .max_depth = 3,
    .max_items = 4,
    .max_values = 20,
    .max_containers = 6,
};

/* Scan text whole, then a byte at a time: the same verdict both ways. */
static int scan(const char *text, struct json_scan *s)
{
    struct json_scan one;
    json_scan_init(s, &small);
    const int whole = json_scan_feed(s, text, strlen(text));
    json_scan_init(&one, &small);
    int bytes = 0;
    for (size_t i = 0; text[i] && bytes == 0; i++)
        bytes = json_scan_feed(&one, text + i, 1);
    ck_assert_int_eq(whole, bytes);
    ck_assert_str_eq(s->why, one.why);
    ck_assert_int_eq(s->line, one.line);
    ck_assert_int_eq(s->column, one.column);
    return whole;
}

START_TEST(within_the_limits_is_accepted)
{
    struct json_scan s;
    ck_assert_int_eq(scan("{\"a\": [[1, 2], [3, 4]], \"b\": \"[[[[,,,,]]]]\", \"c\": null}", &s),
                     0);
    /* a string's brackets, commas and escaped quotes count for nothing */
    ck_assert_int_eq(scan("{\"k\\\"[\": \"x\\\\\", \"q\": [\"]]]\", \"{{{\"]}", &s), 0);
    ck_assert_int_eq(s.values, 5u);
    ck_assert_int_eq(s.containers, 2u);
}
END_TEST

START_TEST(the_first_excess_is_named_where_it_is)
{
    struct json_scan s;
    ck_assert_int_eq(scan("{\"rows\": [[], [],\n [], [], []]}", &s), -1);
    ck_assert_str_eq(s.why, "\"rows\" has more than 4 entries; no list in a test file holds more");
    ck_assert_int_eq(s.line, 2);
    ck_assert_int_eq(s.column, 10);
    ck_assert_int_eq(scan("{\"m\": [[1, 2, 3, 4], [1, 2, 3, 4, 5]]}", &s), -1);
    ck_assert_str_eq(s.why, "\"m\"[1] has more than 4 entries; no list in a test file holds more");
    ck_assert_int_eq(scan("{\"deep\": [[[1]]]}", &s), -1);
    ck_assert_str_eq(s.why, "\"deep\"[0][0] nests lists and objects 4 deep; a test file nests at "
                            "most 3");
    ck_assert_int_eq(scan("{\"a\": [[1], [2], [3]], \"b\": [[4], [5]]}", &s), -1);
    ck_assert_ptr_nonnull(strstr(s.why, "more than 6 lists and objects in all (at \"b\")"));
    ck_assert_int_eq(scan("{\"a\": 1, \"b\": 2, \"c\": 3, \"d\": 4, \"e\": 5}", &s), -1);
    ck_assert_ptr_nonnull(strstr(s.why, "more than 4 fields"));
    ck_assert_int_eq(scan("{\"a\": [1, 2, 3, 4], \"b\": [1, 2, 3, 4], \"c\": [1, 2, 3, 4], "
                          "\"d\": [1, 2, 3, 4]}",
                          &s),
                     -1);
    ck_assert_ptr_nonnull(strstr(s.why, "more than 20 values in all (at \"d\")"));
}
END_TEST

START_TEST(the_loaders_refuse_with_file_line_and_column)
{
    char dir[256], path[300];
    ck_assert_ptr_nonnull(test_tmp_dir(dir, sizeof dir, "mha-json-scan"));
    snprintf(path, sizeof path, "%s/rows.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    /* more than one 64 KiB piece before the excess */
    fputs("{\"pad\": \"", f);
    for (int i = 0; i < 70000; i++)
        fputc('x', f);
    fputs("\",\n\"rows\": [[], [], [], [], [], []]}\n", f);
    ck_assert_int_eq(fclose(f), 0);
    struct json_limits lim = small;
    lim.max_bytes = 1 << 20;
    struct mha_error err;
    ck_assert_ptr_null(json_scan_load(path, &lim, 0, &err));
    ck_assert_str_eq(err.file, path);
    ck_assert_int_eq(err.line, 2);
    ck_assert_int_eq(err.column, 26);
    ck_assert_ptr_nonnull(strstr(err.text, "\"rows\" has more than 4 entries"));
    lim.max_bytes = 1000;
    ck_assert_ptr_null(json_scan_load(path, &lim, 0, &err));
    ck_assert_str_eq(err.text, "the file is larger than 1000 bytes; is it a test file?");
    ck_assert_ptr_null(json_scan_loads("{\"a\": [1,, 2]}", "x.json", &small, 0, &err));
    ck_assert_str_eq(err.file, "x.json");
    ck_assert_ptr_nonnull(strstr(err.text, "not valid JSON"));
    json_t *ok = json_scan_loads("{\"a\": [1, 2]}", "x.json", &small, 0, &err);
    ck_assert_ptr_nonnull(ok);
    json_decref(ok);
    /* the top-level keys, looked at without a tree */
    static const char *const keys[] = {"rows", NULL}, *const none[] = {"embedding", NULL};
    lim.max_bytes = 1 << 20;
    ck_assert(json_scan_has_key(path, &lim, keys));
    ck_assert(!json_scan_has_key(path, &lim, none));
    lim.max_bytes = 1000; /* larger than that: not read */
    ck_assert(!json_scan_has_key(path, &lim, keys));
    ck_assert_int_eq(test_tmp_remove(dir), 0);
}
END_TEST

static Suite *json_scan_suite(void)
{
    Suite *s = suite_create("json_scan");
    TCase *tc = tcase_create("limits");
    tcase_add_test(tc, within_the_limits_is_accepted);
    tcase_add_test(tc, the_first_excess_is_named_where_it_is);
    tcase_add_test(tc, the_loaders_refuse_with_file_line_and_column);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(json_scan_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
