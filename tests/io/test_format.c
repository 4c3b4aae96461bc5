/* test_format.c - the one table of output formats (names, aliases,
 * extensions, kinds, one number space), dump_write's errors through
 * struct mha_error, and the streamed JSON dump: the document jansson would
 * write, every label kept, no tree built. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io/dump.h"
#include "io/example_io.h"
#include "io/export.h"
#include "io/format.h"

/* The names of the formats of kind, in table order, each after ", " (the
 * first after nothing), appended to buf. */
static void append_kind(char *buf, size_t n, enum mha_format_kind kind)
{
    for (int f = 0; f < MHA_FORMAT_COUNT; f++)
        if (mha_format_get(f)->kind == kind)
            snprintf(buf + strlen(buf), n - strlen(buf), "%s%s", buf[0] ? ", " : "",
                     mha_format_get(f)->name);
}

/* The list mha_format_list gives with last ", ": dumps, pictures, then
 * tables, each in table order, from the rows themselves. */
static const char *list_of(unsigned kinds, char *buf, size_t n)
{
    static const enum mha_format_kind order[] = {MHA_FORMAT_DUMP, MHA_FORMAT_PICTURE,
                                                 MHA_FORMAT_TABLE};
    buf[0] = '\0';
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++)
        if (kinds & order[k])
            append_kind(buf, n, order[k]);
    return buf;
}

START_TEST(table_is_one_number_space)
{
    /* every row: a name and extension, one kind, a writer, and its name and
     * alias found again, each unlike every other row's */
    for (int f = 0; f < MHA_FORMAT_COUNT; f++) {
        const struct mha_format_info *i = mha_format_get(f);
        ck_assert_ptr_nonnull(i);
        ck_assert(i->name[0] && i->extension[0]);
        ck_assert(i->kind == MHA_FORMAT_PICTURE || i->kind == MHA_FORMAT_TABLE ||
                  i->kind == MHA_FORMAT_DUMP);
        ck_assert(i->write != NULL);
        ck_assert_int_eq(mha_format_from_name(i->name), f);
        if (i->alias)
            ck_assert_int_eq(mha_format_from_name(i->alias), f);
        /* the exports before the dumps */
        ck_assert_int_eq(i->kind == MHA_FORMAT_DUMP, f >= MHA_FORMAT_EXPORTS);
    }
    ck_assert_ptr_null(mha_format_get(MHA_FORMAT_COUNT));
    ck_assert_ptr_null(mha_format_get(-1));
    ck_assert_int_eq(mha_format_from_name("pdf"), -1);
    ck_assert_int_eq(mha_format_from_name(NULL), -1);
    /* a name's kind: a dump, a picture */
    ck_assert_int_eq(mha_format_from_name("txt"), MHA_FORMAT_TEXT);
    ck_assert_int_eq(mha_format_get(MHA_FORMAT_TEXT)->kind, MHA_FORMAT_DUMP);
    ck_assert_int_eq(mha_format_get(mha_format_from_name("svg"))->kind, MHA_FORMAT_PICTURE);
    ck_assert_int_eq(mha_format_get(mha_format_from_name("json"))->kind, MHA_FORMAT_DUMP);
    ck_assert_str_eq(mha_format_get(mha_format_from_name("md"))->extension, "md");
    /* the lists: by kind, in table order, joined as asked */
    static const unsigned kinds[] = {MHA_FORMAT_ANY, MHA_FORMAT_DUMP,
                                     MHA_FORMAT_PICTURE | MHA_FORMAT_TABLE};
    for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
        char buf[256], want[256];
        ck_assert_str_eq(mha_format_list(kinds[k], ", ", buf, sizeof buf),
                         list_of(kinds[k], want, sizeof want));
        /* with " or ": the last ", " becomes " or " */
        mha_format_list(kinds[k], " or ", buf, sizeof buf);
        char *last = strrchr(want, ',');
        if (last) {
            char tail[256];
            snprintf(tail, sizeof tail, " or%s", last + 1);
            snprintf(last, sizeof want - (size_t)(last - want), "%s", tail);
        }
        ck_assert_str_eq(buf, want);
    }
    /* cut short: whole names only */
    char all[256], buf[12];
    list_of(MHA_FORMAT_ANY, all, sizeof all);
    mha_format_list(MHA_FORMAT_ANY, " or ", buf, sizeof buf);
    ck_assert(strlen(buf) > 0 && strncmp(all, buf, strlen(buf)) == 0);
    ck_assert(all[strlen(buf)] == ',');
}
END_TEST

static struct mha_example *example(int which)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = NULL;
    if (which == 0) {
        ex = mha_example_default(&err);
    } else if (which == 1) {
        ex = mha_example_load_string(
            "{\"tokens\": [\"Le\", \"chat\", \"\\\"q\\\\\"], \"key_tokens\": [\"The\", \"cat\"],"
            " \"d_model\": 4, \"num_heads\": 2, \"causal\": false, \"seed\": 7,"
            " \"b_q\": [1e-7, -2.5e5, 0, 1], \"mask\": [[1, 0], [0, 0], [1, 1]]}",
            "cross", &err);
    } else {
        ex = mha_example_generated(5, (const char *[]){"Grüße", "漢字", "a/b", "x", "y"}, 6, 3, 99,
                                   &err);
        ex->causal = true;
    }
    ck_assert_msg(ex != NULL, "example %d: %s", which, err.text);
    return ex;
}

/* The streamed dump is byte for byte what jansson writes for the same
 * document (parse it, write it back with the flags the tree used). */
START_TEST(json_is_what_jansson_writes)
{
    struct mha_example *ex = example(_i);
    struct mha_error err;
    struct mha_trace *t = mha_run(ex, &err);
    ck_assert_ptr_nonnull(t);
    for (int stage = DUMP_ALL; stage < MHA_STAGE_COUNT; stage++) {
        char *s = dump_json_string(ex, t, stage);
        ck_assert_ptr_nonnull(s);
        json_error_t jerr;
        json_t *root = json_loads(s, JSON_REJECT_DUPLICATES, &jerr);
        ck_assert_msg(root != NULL, "example %d stage %d: %s", _i, stage, jerr.text);
        char *again = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9));
        ck_assert_str_eq(s, again);
        ck_assert_int_eq(
            json_array_size(json_object_get(json_object_get(root, "config"), "tokens")), ex->lq);
        free(again);
        json_decref(root);
        free(s);
    }
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* A label that is not UTF-8 (set behind every check) is written with
 * U+FFFD, never dropped. */
START_TEST(json_keeps_every_label)
{
    struct mha_example *ex = example(0);
    ck_assert_int_eq(mha_example_set_token(ex, false, 2, "ca\xfft"), 0);
    struct mha_error err;
    struct mha_trace *t = mha_run(ex, &err);
    char *s = dump_json_string(ex, t, DUMP_ALL);
    json_error_t jerr;
    json_t *root = json_loads(s, 0, &jerr);
    ck_assert_ptr_nonnull(root);
    json_t *tokens = json_object_get(json_object_get(root, "config"), "tokens");
    ck_assert_int_eq(json_array_size(tokens), 4);
    ck_assert_str_eq(json_string_value(json_array_get(tokens, 2)), "ca\xEF\xBF\xBDt");
    json_decref(root);
    free(s);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

START_TEST(dump_write_reports_through_mha_error)
{
    struct mha_example *ex = example(0);
    struct mha_error err;
    struct mha_trace *t = mha_run(ex, &err);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    mha_error_clear(&err);
    ck_assert_int_eq(dump_write(mem, ex, t, DUMP_ALL, (enum mha_format)MHA_FORMAT_SVG, &err), -1);
    char dumps[64], want[96];
    snprintf(want, sizeof want, "not a dump format; expected %s",
             mha_format_list(MHA_FORMAT_DUMP, " or ", dumps, sizeof dumps));
    ck_assert_str_eq(err.text, want);
    mha_error_clear(&err);
    ck_assert_int_eq(dump_write(mem, ex, t, 9, MHA_FORMAT_TEXT, &err), -1);
    snprintf(want, sizeof want, "unknown stage 9; expected 0..%d or all", MHA_STAGE_COUNT - 1);
    ck_assert_str_eq(err.text, want);
    fflush(mem);
    ck_assert_uint_eq(len, 0); /* nothing written before the refusal */
    ck_assert_int_eq(dump_write(mem, ex, t, DUMP_ALL, MHA_FORMAT_JSON, NULL), 0);
    fclose(mem);
    ck_assert_uint_gt(len, 100);
    free(buf);
    /* a write error part-way */
    FILE *full = fopen("/dev/full", "w");
    if (full) {
        setvbuf(full, NULL, _IONBF, 0);
        mha_error_clear(&err);
        ck_assert_int_eq(dump_write(full, ex, t, DUMP_ALL, MHA_FORMAT_TEXT, &err), -1);
        ck_assert_str_eq(err.text, "write error while writing the text dump");
        fclose(full);
    }
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* --dump all --format json of 256 tokens, d_model 512, 8 heads (50 MB of
 * output) in under 100 MB: the tree the dump used to build peaked at
 * 300 MB (23 MB now).  Not under AddressSanitizer, whose shadow memory
 * counts too. */
START_TEST(json_dump_needs_no_tree)
{
#if defined(__SANITIZE_ADDRESS__)
    return;
#endif
    const char *exe = getenv("MHA_EXPLORER");
    if (!exe)
        return;
    char tokens[2048] = "";
    for (int i = 0; i < 256; i++)
        snprintf(tokens + strlen(tokens), sizeof tokens - strlen(tokens), "t%d ", i);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout))
            _exit(126);
        execl(exe, exe, "--tokens", tokens, "--d-model", "512", "--heads", "8", "--dump", "all",
              "--format", "json", (char *)NULL);
        _exit(127);
    }
    int st;
    struct rusage ru;
    ck_assert_int_eq(wait4(pid, &st, 0, &ru), pid);
    ck_assert_msg(WIFEXITED(st) && WEXITSTATUS(st) == 0, "the dump failed (%d)", st);
    ck_assert_msg(ru.ru_maxrss < 100 * 1024, "the dump peaked at %ld KB", ru.ru_maxrss);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("format");
    TCase *tc = tcase_create("table");
    tcase_add_test(tc, table_is_one_number_space);
    tcase_add_test(tc, dump_write_reports_through_mha_error);
    suite_add_tcase(s, tc);
    tc = tcase_create("json");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, json_is_what_jansson_writes, 0, 3);
    tcase_add_test(tc, json_keeps_every_label);
    tcase_add_test(tc, json_dump_needs_no_tree);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
