/* test_ui_text.c - labels measured by display width: wide characters,
 * combining marks, emoji, invalid bytes; shortening with an ellipsis that
 * never cuts a character; ASCII folding; word wrap. */
#include <check.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/modes/ui_keymaps.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_keys.h"

static void utf8_locale(void)
{
    if (!setlocale(LC_CTYPE, "C.UTF-8"))
        setlocale(LC_CTYPE, "en_US.UTF-8");
}

/* True when s is valid UTF-8 with no character cut. */
static bool valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        int len = *p < 0x80 ? 1 : *p >= 0xF0 ? 4 : *p >= 0xE0 ? 3 : *p >= 0xC2 ? 2 : 0;
        if (!len)
            return false;
        for (int k = 1; k < len; k++)
            if ((p[k] & 0xC0) != 0x80)
                return false;
        p += len;
    }
    return true;
}

START_TEST(test_widths)
{
    ck_assert_int_eq(ui_text_width("cat", true), 3);
    ck_assert_int_eq(ui_text_width("", true), 0);
    ck_assert_int_eq(ui_text_width("猫", true), 2);
    ck_assert_int_eq(ui_text_width("猫が座った", true), 10);
    ck_assert_int_eq(ui_text_width("café", true), 4);
    ck_assert_int_eq(ui_text_width("cafe\xcc\x81", true), 4); /* e + combining acute */
    ck_assert_int_eq(ui_text_width("Wᵀ·x", true), 4);
    ck_assert_int_eq(ui_text_width("a\tb", true), 3); /* control: one '?' */
    ck_assert_int_eq(ui_text_width("a\xff"
                                   "b",
                                   true),
                     3); /* invalid byte: one '?' */
    /* without UTF-8: symbols by name, other characters as '?' */
    ck_assert_int_eq(ui_text_width("√3", false), 5);
    ck_assert_int_eq(ui_text_width("猫", false), 1);
}
END_TEST

START_TEST(test_fit_never_cuts_a_character)
{
    static const char *const samples[] = {
        "transformers",
        "猫が座ったマット",
        "Straße→Weg",
        "🐈🐈🐈🐈",
        "naïve café",
        "tok 0",
        "e\xcc\x81\xcc\x81\xcc\x81xyz",
    };
    char out[128];
    for (size_t i = 0; i < sizeof samples / sizeof samples[0]; i++) {
        const int full = ui_text_width(samples[i], true);
        for (int w = 1; w <= full + 2; w++) {
            const int cols = ui_text_fit(samples[i], w, true, out, sizeof out);
            ck_assert_int_le(cols, w);
            ck_assert_int_eq(cols, ui_text_width(out, true));
            ck_assert_msg(valid_utf8(out), "cut character in \"%s\" at %d", out, w);
            if (full <= w)
                ck_assert_str_eq(out, samples[i]);
            else
                ck_assert_ptr_nonnull(strstr(out, "…"));
        }
    }
    /* a wide character that does not fit next to the ellipsis is left out */
    ui_text_fit("猫猫猫", 4, true, out, sizeof out);
    ck_assert_str_eq(out, "猫…");
    ui_text_fit("transformers", 6, true, out, sizeof out);
    ck_assert_str_eq(out, "trans…");
    ui_text_fit("transformers", 6, false, out, sizeof out);
    ck_assert_str_eq(out, "trans~");
    ck_assert_int_eq(ui_text_fit("abc", 0, true, out, sizeof out), 0);
    ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_ascii_fold)
{
    char out[128];
    ui_text_fit("Q = query · W_qᵀ ÷ √3 → Σ", 80, false, out, sizeof out);
    ck_assert_str_eq(out, "Q = query . W_q^T / sqrt3 -> sum");
    ui_text_fit("░▒▓█", 80, false, out, sizeof out);
    ck_assert_str_eq(out, ".:*#");
    ui_text_fit("Katze猫", 80, false, out, sizeof out);
    ck_assert_str_eq(out, "Katze?");
    for (const char *p = out; *p; p++)
        ck_assert_int_lt((unsigned char)*p, 0x80);
}
END_TEST

/* Whether key is bound on the main screen or in any mode over it. */
static bool bound(int key)
{
    for (int i = 0; i < ui_key_count; i++)
        for (int k = 0; k < UI_KEY_MAX_KEYS && ui_key_table[i].keys[k]; k++)
            if (ui_key_table[i].keys[k] == key)
                return true;
    for (int t = 0; t < ui_keymap_count; t++)
        for (int i = 0; i < ui_keymaps[t]->n; i++)
            for (int k = 0; k < UI_KEY_MAX_KEYS && ui_keymaps[t]->rows[i].keys[k]; k++)
                if (ui_keymaps[t]->rows[i].keys[k] == key)
                    return true;
    return false;
}

/* Without UTF-8 a marker (the scroll arrows, which also name the arrow
 * keys, the check and cross marks, the pointers) is written as no key's
 * letter: "v 16 more below" would read as the views key.  The "N more
 * below" marker drops its arrow there; the words say it. */
START_TEST(test_ascii_markers_are_no_keys)
{
    static const char *const markers[] = {"↓", "↑", "✓", "✗", "▸", "›", "•", "←", "→"};
    ck_assert(bound('v')); /* the check sees the keys */
    char out[32];
    for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
        ui_text_fit(markers[i], 10, false, out, sizeof out);
        ck_assert_msg(strlen(out) > 0, "%s folds to nothing", markers[i]);
        const bool letter = strlen(out) == 1 &&
                            ((out[0] >= 'a' && out[0] <= 'z') || (out[0] >= 'A' && out[0] <= 'Z'));
        ck_assert_msg(!(letter && bound((unsigned char)out[0])),
                      "%s is written \"%s\" without UTF-8, a key's letter", markers[i], out);
    }
    ck_assert_str_eq(ui_more_arrow(true, false), "");
    ck_assert_str_eq(ui_more_arrow(false, false), "");
    ck_assert_str_eq(ui_more_arrow(true, true), "↓ ");
}
END_TEST

START_TEST(test_wrap)
{
    struct ui_line lines[16];
    int n = ui_text_wrap("the cat sat on the mat", 10, true, lines, 16);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq((int)lines[0].len, 7); /* "the cat" */
    ck_assert(strncmp(lines[1].start, "sat on the", lines[1].len) == 0);
    ck_assert(strncmp(lines[2].start, "mat", lines[2].len) == 0);
    /* hard breaks keep the next line's indentation */
    n = ui_text_wrap("a\n  b", 10, true, lines, 16);
    ck_assert_int_eq(n, 2);
    ck_assert(strncmp(lines[1].start, "  b", lines[1].len) == 0);
    /* a word longer than the line is cut between characters */
    n = ui_text_wrap("猫猫猫猫猫", 4, true, lines, 16);
    ck_assert_int_eq(n, 3);
    ck_assert_int_eq((int)lines[0].len, 6);
    /* counting without storing */
    ck_assert_int_eq(ui_text_wrap("one two three four", 5, true, lines, 0), 4);
    ck_assert_int_eq(ui_text_wrap("", 5, true, lines, 16), 0);
}
END_TEST

static Suite *text_suite(void)
{
    Suite *s = suite_create("ui_text");
    TCase *t = tcase_create("width");
    tcase_add_unchecked_fixture(t, utf8_locale, NULL);
    tcase_add_test(t, test_widths);
    tcase_add_test(t, test_fit_never_cuts_a_character);
    tcase_add_test(t, test_ascii_fold);
    tcase_add_test(t, test_ascii_markers_are_no_keys);
    suite_add_tcase(s, t);
    t = tcase_create("wrap");
    tcase_add_unchecked_fixture(t, utf8_locale, NULL);
    tcase_add_test(t, test_wrap);
    suite_add_tcase(s, t);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(text_suite());
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
