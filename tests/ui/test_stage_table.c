/* test_stage_table.c - a stage is one row of the stage table: the title
 * templates expand as documented, every row is complete, and the screen's
 * blocks, the exports' matrices, the JSON dump's keys and the text dump's
 * titles are exactly the row's tensors, in the row's order, for every stage
 * at several sizes, masks and scalings.  (tests/ui/table_literals.sh checks
 * that those builders name no stage.) */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "io/dump.h"
#include "io/example_io.h"
#include "io/export.h"
#include "ui/views/ui_views.h"

/* ---- templates ------------------------------------------------------------ */

static struct mha_title_ctx ctx(bool scaled, bool causal, int heads)
{
    return (struct mha_title_ctx){.head = 3,
                                  .rows = 5,
                                  .lq = 5,
                                  .lk = 7,
                                  .d_model = 8,
                                  .heads = heads,
                                  .d_k = 8 / heads,
                                  .scaled = scaled,
                                  .causal = causal,
                                  .wide = false,
                                  .mask = causal ? "causal" : "none"};
}

START_TEST(test_title_fields)
{
    char buf[128];
    struct mha_title_ctx c = ctx(true, false, 2);
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "head {h} · Q{h}", &c), "head 3 · Q3");
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "({L}, {H}, {d_k}) d{d_k-1}", &c),
                     "(5, 2, 4) d3");
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "{Lq}x{Lk}, d {d}, mask {mask}", &c),
                     "5x7, d 8, mask none");
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "no fields", &c), "no fields");
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "", &c), "");
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, NULL, &c), "");
    /* an unknown field is left out; an unclosed brace is kept as text */
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "a{nothing}b", &c), "ab");
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "a {h", &c), "a {h");
    /* a short buffer is cut, still terminated */
    ck_assert_str_eq(mha_title_expand(buf, 5, "head {h} · Q", &c), "head");
}
END_TEST

START_TEST(test_title_choices)
{
    char buf[128];
    const char *t = "{scaled?÷ √{d_k}|not scaled}{causal?, masked|}";
    struct mha_title_ctx c = ctx(true, false, 2);
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, t, &c), "÷ √4");
    c = ctx(false, true, 2);
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, t, &c), "not scaled, masked");
    c = ctx(true, true, 1);
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "h0{heads>1?, h1 next|}.", &c), "h0.");
    c = ctx(true, true, 4);
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "h0{heads>1?, h1 next|}.", &c),
                     "h0, h1 next.");
    c.wide = true;
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "{wide?the |}query", &c), "the query");
    c.wide = false;
    ck_assert_str_eq(mha_title_expand(buf, sizeof buf, "{wide?the |}query", &c), "query");
}
END_TEST

/* ---- every row complete --------------------------------------------------------- */

START_TEST(test_rows_complete)
{
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
        ck_assert_msg(info->shape_line && *info->shape_line, "stage %d: no shape line", s);
        ck_assert_msg(info->pane_formula && *info->pane_formula && info->pane_text &&
                          *info->pane_text,
                      "stage %d: no text for the text pane", s);
        /* the focus a lesson gets when it names no matrix is one the stage shows */
        ck_assert_msg(mha_stage_find(info, info->focus, MHA_SHOW_DUMP) >= 0,
                      "stage %d: its focus is not shown", s);
        for (int i = 0; i < info->n_tensors; i++) {
            const struct mha_stage_show *sh = &info->show[i];
            const enum mha_tensor x = info->tensors[i];
            const struct mha_tensor_desc *d = mha_tensor_desc(x);
            ck_assert_msg(sh->flags & MHA_SHOW_EVERYWHERE, "stage %d tensor %d shown nowhere", s,
                          i);
            if (sh->form == MHA_FORM_PRODUCT)
                ck_assert(d->from < MHA_TENSOR_COUNT && d->weight < MHA_TENSOR_COUNT);
            else if (sh->flags & MHA_SHOW_SCREEN)
                ck_assert_msg(sh->screen != NULL, "stage %d tensor %d: no screen title", s, i);
            if (sh->flags & MHA_SHOW_EXPORT)
                ck_assert_msg(sh->export_title != NULL, "stage %d tensor %d: no export title", s,
                              i);
            if (sh->flags & MHA_SHOW_DUMP) {
                ck_assert_msg(sh->dump != NULL, "stage %d tensor %d: no dump title", s, i);
                ck_assert(d->json_key && *d->json_key);
            }
            if (sh->form == MHA_FORM_SPLIT)
                ck_assert(d->heads < MHA_TENSOR_COUNT);
            if (sh->form == MHA_FORM_HEADS)
                ck_assert(d->kind == MHA_KIND_PER_HEAD || d->kind == MHA_KIND_SCORES ||
                          d->kind == MHA_KIND_PROBS);
        }
    }
}
END_TEST

/* ---- the builders follow the rows -------------------------------------------------- */

/* (tensor index in the row, head) in the order the row asks for, read from
 * the row by this test's own loop. */
struct shown {
    int i, h;
};

static int expected(const struct mha_stage_info *info, enum mha_order order, int heads,
                    unsigned where, struct shown *out)
{
    int n = 0;
    if (order == MHA_ORDER_BY_HEAD) {
        for (int i = 0; i < info->n_tensors && info->show[i].form != MHA_FORM_HEADS; i++)
            if (info->show[i].flags & where)
                out[n++] = (struct shown){i, 0};
        for (int h = 0; h < heads; h++)
            for (int i = 0; i < info->n_tensors; i++)
                if ((info->show[i].flags & where) && info->show[i].form == MHA_FORM_HEADS)
                    out[n++] = (struct shown){i, h};
        bool seen = false;
        for (int i = 0; i < info->n_tensors; i++) {
            seen |= info->show[i].form == MHA_FORM_HEADS;
            if (seen && info->show[i].form != MHA_FORM_HEADS && (info->show[i].flags & where))
                out[n++] = (struct shown){i, 0};
        }
        return n;
    }
    for (int i = 0; i < info->n_tensors; i++)
        for (int h = 0; (info->show[i].flags & where) &&
                        h < (info->show[i].form == MHA_FORM_HEADS ? heads : 1);
             h++)
            out[n++] = (struct shown){i, h};
    return n;
}

static void check_exports(const struct ui_state *st, int s)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
    struct shown want[256];
    const int n = expected(info, info->export_order, st->tr->heads, MHA_SHOW_EXPORT, want);
    int got;
    struct export_matrix *m = export_stage_matrices(st->ex, st->tr, s, &got);
    ck_assert_ptr_nonnull(m);
    const int params = info->with_params && st->ex->has_bias ? 4 : 0;
    ck_assert_int_eq(got, n + params);
    for (int k = 0; k < n; k++) {
        ck_assert_msg(m[k].tensor == info->tensors[want[k].i] && m[k].head == want[k].h,
                      "stage %d matrix %d: tensor %d head %d, want %d head %d", s, k, m[k].tensor,
                      m[k].head, info->tensors[want[k].i], want[k].h);
        char title[96];
        int heads, rows, cols;
        mha_tensor_shape(st->tr, m[k].tensor, &heads, &rows, &cols);
        const struct mha_title_ctx c = mha_title_ctx_make(st->ex, st->tr, m[k].head, rows, true);
        ck_assert_str_eq(m[k].title, mha_title_expand(title, sizeof title,
                                                      info->show[want[k].i].export_title, &c));
    }
    for (int k = n; k < got; k++)
        ck_assert_int_eq(m[k].tensor, MHA_TENSOR_COUNT); /* the biases */
    free(m);
}

static void check_json(const struct ui_state *st, int s)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
    char *text = dump_json_string(st->ex, st->tr, s);
    ck_assert_ptr_nonnull(text);
    json_error_t jerr;
    json_t *doc = json_loads(text, 0, &jerr);
    ck_assert_msg(doc != NULL, "stage %d: %s", s, jerr.text);
    json_t *v = json_object_get(doc, info->name);
    ck_assert_ptr_nonnull(v);
    int dumped = 0;
    for (int i = 0; i < info->n_tensors; i++)
        dumped += (info->show[i].flags & MHA_SHOW_DUMP) != 0;
    if (dumped == 1 && !info->with_params) {
        ck_assert(json_is_array(v));
    } else {
        ck_assert(json_is_object(v));
        size_t keys = 0;
        for (int i = 0; i < info->n_tensors; i++)
            if (info->show[i].flags & MHA_SHOW_DUMP) {
                ck_assert_msg(
                    json_is_array(json_object_get(v, mha_tensor_desc(info->tensors[i])->json_key)),
                    "stage %d: no %s", s, mha_tensor_desc(info->tensors[i])->json_key);
                keys++;
            }
        keys += json_object_get(v, "fully_masked_rows") != NULL;
        if (info->with_params)
            keys += (st->ex->has_bias ? 4 : 0) + (st->ex->has_mask ? 1 : 0);
        ck_assert_int_eq(json_object_size(v), keys);
    }
    json_decref(doc);
    free(text);
}

static void check_text(const struct ui_state *st, int s)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    ck_assert_ptr_nonnull(mem);
    dump_text_stage(mem, st->ex, st->tr, s);
    fclose(mem);
    struct shown want[256];
    const int n = expected(info, info->export_order, st->tr->heads, MHA_SHOW_DUMP, want);
    const char *at = buf;
    int blocks = 0;
    for (const char *p = buf; (p = strstr(p, "  (")); p++)
        blocks += strstr(p, " × ") != NULL && strchr(p, '\n') > strstr(p, " × ");
    for (int k = 0; k < n; k++) {
        int heads, rows, cols;
        mha_tensor_shape(st->tr, info->tensors[want[k].i], &heads, &rows, &cols);
        char title[200], line[260];
        const struct mha_title_ctx c = mha_title_ctx_make(st->ex, st->tr, want[k].h, rows, true);
        mha_title_expand(title, sizeof title, info->show[want[k].i].dump, &c);
        snprintf(line, sizeof line, "%s  (%d × %d)\n", title, rows, cols);
        const char *hit = strstr(at, line);
        ck_assert_msg(hit != NULL, "stage %d: no \"%s\" after the previous matrix", s, line);
        at = hit + strlen(line);
    }
    ck_assert_int_eq(blocks, n + (info->with_params && st->ex->has_bias ? 4 : 0));
    free(buf);
}

/* Every block the screen shows is a tensor of the row (or a factor of one
 * of its products), and every screen tensor of the row is shown. */
static void check_screen(struct ui_state *st, int s, int width)
{
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)s);
    static struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    ui_state_set_stage(st, s);
    const int n = ui_view_build(st, width, blocks, UI_VIEW_MAX_BLOCKS);
    int next = 0; /* the row's tensors are met in the row's order */
    for (int i = 0; i < info->n_tensors; i++) {
        if (!(info->show[i].flags & MHA_SHOW_SCREEN))
            continue;
        const struct mha_tensor_desc *d = mha_tensor_desc(info->tensors[i]);
        const enum mha_tensor x =
            info->show[i].form == MHA_FORM_SPLIT ? d->heads : info->tensors[i];
        int k = next;
        while (k < n && (blocks[k].kind == UI_BLOCK_OP || blocks[k].base.tensor != x))
            k++;
        ck_assert_msg(k < n, "stage %d width %d: tensor %d not shown in order", s, width, x);
        next = k + 1;
    }
    for (int k = 0; k < n; k++) {
        if (blocks[k].kind == UI_BLOCK_OP)
            continue;
        bool known = false;
        for (int i = 0; i < info->n_tensors && !known; i++) {
            const struct mha_tensor_desc *d = mha_tensor_desc(info->tensors[i]);
            const enum mha_tensor t = blocks[k].base.tensor;
            known = t == info->tensors[i] ||
                    (info->show[i].form == MHA_FORM_SPLIT && t == d->heads) ||
                    (info->show[i].form == MHA_FORM_PRODUCT && (t == d->from || t == d->weight));
        }
        ck_assert_msg(known, "stage %d: block \"%s\" is not in the row", s, blocks[k].title);
    }
}

static void check_all(struct ui_state *st)
{
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        check_exports(st, s);
        check_json(st, s);
        check_text(st, s);
        check_screen(st, s, 40);
        check_screen(st, s, 400);
    }
}

static const char *data_path(const char *rel, char *buf, size_t n)
{
    const char *dir = getenv("MHA_TEST_DATA");
    snprintf(buf, n, "%s/%s", dir ? dir : "tests/data", rel);
    return buf;
}

START_TEST(test_builders_follow_rows)
{
    static const char *const files[] = {NULL, "examples/cross.json", "examples/self.json"};
    for (size_t f = 0; f < sizeof files / sizeof files[0]; f++) {
        struct mha_error err;
        char path[512];
        struct mha_example *ex =
            files[f] ? mha_example_load(data_path(files[f], path, sizeof path), &err)
                     : mha_example_default(&err);
        ck_assert_msg(ex != NULL, "%s", err.text);
        struct ui_state st;
        ck_assert_int_eq(ui_state_init(&st, ex, files[f] == NULL, "", &err), 0);
        check_all(&st);
        ck_assert_int_eq(ui_state_toggle_causal(&st), 0);
        ck_assert_int_eq(ui_state_toggle_scaled(&st), 0);
        check_all(&st);
        ck_assert_int_eq(ui_state_set_heads(&st, 1), 0);
        check_all(&st);
        ui_state_done(&st);
    }
}
END_TEST

static Suite *stage_table_suite(void)
{
    Suite *s = suite_create("stage_table");
    TCase *t = tcase_create("templates");
    tcase_add_test(t, test_title_fields);
    tcase_add_test(t, test_title_choices);
    suite_add_tcase(s, t);
    t = tcase_create("rows");
    tcase_add_test(t, test_rows_complete);
    suite_add_tcase(s, t);
    t = tcase_create("builders");
    tcase_set_timeout(t, 60);
    tcase_add_test(t, test_builders_follow_rows);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(stage_table_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
