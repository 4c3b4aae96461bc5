/* test_ui_keymap.c - every mode's key table: no key bound twice within one
 * table (the main screen's, the lesson list's, the command line's, a
 * pop-up's, the explain panel's, the presenter's, both checkpoints', the
 * help's and the training screen's), every bound key named in the help line
 * its row is shown on, every table's rows on the help screen, and no help
 * line wider than an 80-column terminal gives it.  No terminal needed. */
#include <check.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "ui/panes/ui_panes.h"
#include "ui/modes/ui_keymaps.h"
#include "ui/state/ui_words.h"
#include "ui/state/ui_keys.h"
#include "ui/draw/ui_text.h"

/* ------------------------------------------------------------ TCase tables */

START_TEST(test_no_key_bound_twice_in_any_mode)
{
    ck_assert_int_ge(ui_keymap_count, 9);
    for (int t = 0; t < ui_keymap_count; t++) {
        const struct ui_keymap_row *a = NULL, *b = NULL;
        char name[16];
        const int key = ui_keymap_find_double(ui_keymaps[t], &a, &b);
        ck_assert_msg(key == 0, "%s: %s is bound to \"%s\" and to \"%s\"", ui_keymaps[t]->heading,
                      ui_key_name(key, name, sizeof name), a && a->label ? a->label : "",
                      b && b->label ? b->label : "");
    }
}
END_TEST

/* The check itself finds a key bound twice, in two rows or in one. */
START_TEST(test_double_found)
{
    static const struct ui_keymap_row two_rows[] = {
        {{'a', 'b'}, "a b", 0, "one", NULL},
        {{'c', 'b'}, "c b", 1, "two", NULL},
    };
    static const struct ui_keymap_row one_row[] = {
        {{'x', KEY_UP, 'x'}, "x ↑", 0, "three", NULL},
    };
    const struct ui_keymap m1 = UI_KEYMAP("two rows", two_rows);
    const struct ui_keymap m2 = UI_KEYMAP("one row", one_row);
    const struct ui_keymap_row *a = NULL, *b = NULL;
    ck_assert_int_eq(ui_keymap_find_double(&m1, &a, &b), 'b');
    ck_assert_ptr_eq(a, &two_rows[0]);
    ck_assert_ptr_eq(b, &two_rows[1]);
    ck_assert_int_eq(ui_keymap_find_double(&m2, &a, &b), 'x');
    ck_assert_int_eq(ui_keymap_action(&m1, 'c', -1), 1);
    ck_assert_int_eq(ui_keymap_action(&m1, 'z', -1), -1);
    ck_assert_int_eq(ui_keymap_action(&m1, 0, -1), -1); /* 0 ends a row's keys: never bound */
}
END_TEST

/* Every key of a row is named in the label of the line it is shown on:
 * its own, or (a row without one) the nearest row above with a label. */
START_TEST(test_every_key_in_its_help_line)
{
    char name[16];
    for (int t = 0; t < ui_keymap_count; t++) {
        const struct ui_keymap *m = ui_keymaps[t];
        const char *label = NULL;
        ck_assert_int_gt(m->n, 0);
        ck_assert_ptr_nonnull(m->rows[0].label);
        for (int i = 0; i < m->n; i++) {
            const struct ui_keymap_row *r = &m->rows[i];
            ck_assert_msg((r->label == NULL) == (r->help == NULL),
                          "%s, row %d: a label without words, or words without a label", m->heading,
                          i);
            if (r->label)
                label = r->label;
            ck_assert_msg(r->keys[0] != 0, "%s, row %d binds no key", m->heading, i);
            for (int k = 0; k < UI_KEY_MAX_KEYS && r->keys[k]; k++)
                ck_assert_msg(ui_key_label_names(label, r->keys[k]),
                              "%s: %s is bound but its help line (\"%s\") does not name it",
                              m->heading, ui_key_name(r->keys[k], name, sizeof name), label);
        }
    }
    /* the main screen's table too */
    for (int i = 0; i < ui_key_count; i++) {
        const struct ui_key_binding *b = &ui_key_table[i];
        for (int k = 0; k < UI_KEY_MAX_KEYS && b->keys[k]; k++)
            ck_assert_msg(ui_key_label_names(b->label, b->keys[k]),
                          "main screen: %s is bound but its help line (\"%s\") does not name it",
                          ui_key_name(b->keys[k], name, sizeof name), b->label);
    }
}
END_TEST

START_TEST(test_key_names)
{
    char name[16];
    ck_assert_str_eq(ui_key_name('\r', name, sizeof name), "Enter");
    ck_assert_str_eq(ui_key_name(KEY_ENTER, name, sizeof name), "Enter");
    ck_assert_str_eq(ui_key_name(21, name, sizeof name), "^U");
    ck_assert_str_eq(ui_key_name(KEY_F(1), name, sizeof name), "F1");
    ck_assert_str_eq(ui_key_name(KEY_BTAB, name, sizeof name), "S-Tab");
    ck_assert(ui_key_label_names("0 … 9 . -", '7'));
    ck_assert(ui_key_label_names("0 … 9 . -", '-'));
    ck_assert(!ui_key_label_names("0 … 6", '7'));
    ck_assert(!ui_key_label_names("PgUp b", 'g')); /* words, not letters */
    ck_assert(ui_key_label_names("Enter Space", '\n'));
}
END_TEST

/* ------------------------------------------------------------ TCase help */

static int help_find(const char *key, const char *text)
{
    char k[64], t[160];
    for (int i = 0; ui_help_line(i, k, sizeof k, t, sizeof t); i++)
        if (!strcmp(k, key) && !strcmp(t, text))
            return i;
    return -1;
}

/* Each table is on the help screen under its heading, every row that has a
 * line of its own after it, in the table's order. */
START_TEST(test_help_lists_every_table)
{
    for (int t = 0; t < ui_keymap_count; t++) {
        const struct ui_keymap *m = ui_keymaps[t];
        int at = help_find("", m->heading);
        ck_assert_msg(at >= 0, "the help has no section \"%s\"", m->heading);
        for (int i = 0; i < m->n; i++) {
            if (!m->rows[i].label)
                continue;
            char label[64], help[160]; /* as the help writes them: "0 … {last_stage}" out */
            ui_words_expand(m->rows[i].label, label, sizeof label);
            ui_words_expand(m->rows[i].help, help, sizeof help);
            const int line = help_find(label, help);
            ck_assert_msg(line > at, "%s: \"%s\" is not in its section of the help", m->heading,
                          m->rows[i].label);
            at = line;
        }
    }
    ck_assert_int_gt(ui_help_lines(), 100);
}
END_TEST

/* At 80 columns the help gives keys 20 columns and words 54: none is cut. */
START_TEST(test_help_fits_80_columns)
{
    char k[64], t[160];
    int n = 0;
    for (int i = 0; ui_help_line(i, k, sizeof k, t, sizeof t); i++, n++) {
        ck_assert_msg(ui_text_width(k, true) <= 20, "help line %d: \"%s\" is wider than 20", i, k);
        ck_assert_msg(ui_text_width(t, true) <= (k[0] ? 54 : 78),
                      "help line %d: \"%s\" is wider than the room", i, t);
    }
    ck_assert_int_eq(n, ui_help_lines());
}
END_TEST

/* The hint lines come from the same rows as the keys. */
START_TEST(test_hint_lines)
{
    char hint[160];
    ck_assert_str_eq(ui_keymap_hint(&ui_keymap_help, hint, sizeof hint),
                     "q, Esc or ? closes · ↑ ↓ scroll");
    ui_keymap_hint(&ui_keymap_menu, hint, sizeof hint);
    ck_assert_ptr_nonnull(strstr(hint, "r restarts it"));
    /* the training screen's line: its hints in the table's order (y's only
     * for a model of layers, ui_train_keys_hint; tests/screen/hints.sh) */
    ck_assert_str_eq(ui_keymap_hint(&ui_keymap_train, hint, sizeof hint),
                     "Space pause · n step · < > pace · ← → checkpoints · y layer · r reseed · + - "
                     "heads · {range} stages");
    ck_assert_int_eq(ui_keymap_action(&ui_keymap_menu, 'r', -1),
                     ui_keymap_find(&ui_keymap_menu, 'r')->action);
}
END_TEST

static Suite *keymap_suite(void)
{
    Suite *s = suite_create("ui_keymap");
    TCase *t = tcase_create("tables");
    tcase_add_test(t, test_no_key_bound_twice_in_any_mode);
    tcase_add_test(t, test_double_found);
    tcase_add_test(t, test_every_key_in_its_help_line);
    tcase_add_test(t, test_key_names);
    suite_add_tcase(s, t);
    t = tcase_create("help");
    tcase_add_test(t, test_help_lists_every_table);
    tcase_add_test(t, test_help_fits_80_columns);
    tcase_add_test(t, test_hint_lines);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *r = srunner_create(keymap_suite());
    srunner_run_all(r, CK_NORMAL);
    const int failed = srunner_ntests_failed(r);
    srunner_free(r);
    return failed == 0 ? 0 : 1;
}
