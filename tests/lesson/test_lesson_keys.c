/* test_lesson_keys.c - the scene keys are one table (src/lesson/scene_keys.c):
 * lessons/README.md lists every key with the same value and meaning, and
 * nothing else; the parser's "known keys" message names them all; every
 * key parses and applies from its row.  And the lesson layer's failure
 * policy, read from its sources: no abort() (out of memory is an error the
 * caller gets), and no matrix enum of its own beside enum mha_tensor. */
#include <dirent.h>
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson.h"
#include "lesson/lesson_state.h"

/* lessons/README.md as a string (the caller frees). */
static char *readme(void)
{
    const char *d = getenv("MHA_DATA_DIR");
    ck_assert_msg(d != NULL, "MHA_DATA_DIR is not set");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/lessons/README.md", d);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char buf[65536];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strdup(buf);
}

START_TEST(readme_lists_every_scene_key)
{
    char *text = readme();
    char *scenes = strstr(text, "## Scenes");
    ck_assert_ptr_nonnull(scenes);
    char *end = strstr(scenes + 3, "\n## ");
    if (end)
        *end = '\0';
    bool listed[SCENE_KEY_COUNT] = {0};
    int rows = 0;
    for (char *save = NULL, *line = strtok_r(scenes, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        if (strncmp(line, "| `", 3) != 0)
            continue;
        char name[64];
        if (sscanf(line + 3, "%63[^`]", name) != 1)
            continue;
        rows++;
        const int k = lesson_scene_key_from_name(name);
        ck_assert_msg(k >= 0, "lessons/README.md lists \"%s\", which is no scene key", name);
        const struct lesson_scene_key_info *info = lesson_scene_key_info(k);
        char want[1024];
        snprintf(want, sizeof want, "| `%s` | %s | %s |", info->name, info->value, info->doc);
        ck_assert_msg(!strcmp(line, want), "lessons/README.md has\n  %s\nthe table says\n  %s",
                      line, want);
        listed[k] = true;
    }
    for (int k = 0; k < SCENE_KEY_COUNT; k++)
        ck_assert_msg(listed[k], "lessons/README.md does not list the scene key \"%s\"",
                      lesson_scene_key_info(k)->name);
    ck_assert_int_eq(rows, SCENE_KEY_COUNT);
    free(text);
}
END_TEST

START_TEST(unknown_key_names_every_key)
{
    static const char src[] = "# T\n\n```mha\ncolour: red\n```\n";
    struct lesson *l = lesson_parse(src, strlen(src), "t.md");
    ck_assert_ptr_nonnull(l);
    ck_assert_int_ge(l->n_diags, 1);
    for (int k = 0; k < SCENE_KEY_COUNT; k++)
        ck_assert_msg(strstr(l->diags[0].text, lesson_scene_key_info(k)->name),
                      "\"%s\" does not name %s", l->diags[0].text, lesson_scene_key_info(k)->name);
    lesson_free(l);
}
END_TEST

/* Every key, given once, sets its bit and its member; applied in table
 * order a load comes before the heads that follow it. */
START_TEST(every_key_reads_and_applies)
{
    static const char src[] = "# T\n\n```mha\nheads: 4\nload: examples/cat-sat.json\n"
                              "causal: on\nscale: off\nstage: attention\nview: cost\n"
                              "focus: weights\nbatch: 3\nseq: 9\npreset: bert-base\n```\n\n---\n\n"
                              "## B\n\n```mha\ntokens: a b c\nd_model: 8\nseed: 7\n```\n";
    struct lesson *l = lesson_parse(src, strlen(src), "t.md");
    ck_assert_ptr_nonnull(l);
    for (int i = 0; i < l->n_diags; i++)
        fprintf(stderr, "%d: %s\n", l->diags[i].line, l->diags[i].text);
    ck_assert_int_eq(l->n_diags, 0);
    struct lesson_state st;
    lesson_state_at(l, 0, &st);
    ck_assert_str_eq(st.load, "examples/cat-sat.json");
    ck_assert_int_eq(st.heads, 4); /* not undone by the load */
    ck_assert_int_eq(st.causal, 1);
    ck_assert_int_eq(st.scaled, 0);
    ck_assert_int_eq(st.stage, MHA_STAGE_ATTENTION);
    ck_assert_int_eq(st.view, MHA_VIEW_COST); /* after the stage, which clears it */
    ck_assert_str_eq(st.focus, "weights");
    ck_assert_int_eq(st.batch, 3);
    ck_assert_int_eq(st.seq, 9);
    ck_assert_str_eq(st.preset, "bert-base");
    lesson_state_at(l, 1, &st);
    ck_assert_ptr_null(st.load);
    ck_assert_str_eq(st.tokens, "a b c");
    ck_assert_int_eq(st.d_model, 8);
    ck_assert_uint_eq(st.seed, 7);
    ck_assert_ptr_null(st.focus);
    lesson_free(l);
}
END_TEST

START_TEST(lesson_layer_never_aborts)
{
    const char *d = getenv("MHA_DATA_DIR");
    ck_assert_ptr_nonnull(d);
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/src/lesson", d);
    DIR *dp = opendir(dir);
    ck_assert_msg(dp != NULL, "cannot open %s", dir);
    int files = 0;
    for (struct dirent *e; (e = readdir(dp));) {
        const size_t n = strlen(e->d_name);
        if (n < 3 || (strcmp(e->d_name + n - 2, ".c") && strcmp(e->d_name + n - 2, ".h")))
            continue;
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "r");
        ck_assert_ptr_nonnull(f);
        char line[1024];
        for (int no = 1; fgets(line, sizeof line, f); no++) {
            ck_assert_msg(!strstr(line, "abort("), "%s:%d calls abort()", path, no);
            ck_assert_msg(!strstr(line, "enum lesson_matrix"), "%s:%d: tensors are enum mha_tensor",
                          path, no);
        }
        fclose(f);
        files++;
    }
    closedir(dp);
    ck_assert_int_ge(files, 10);
}
END_TEST

static Suite *keys_suite(void)
{
    Suite *s = suite_create("lesson_keys");
    TCase *t = tcase_create("keys");
    tcase_add_test(t, readme_lists_every_scene_key);
    tcase_add_test(t, unknown_key_names_every_key);
    tcase_add_test(t, every_key_reads_and_applies);
    tcase_add_test(t, lesson_layer_never_aborts);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(keys_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
