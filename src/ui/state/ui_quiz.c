/* ui_quiz.c - the checkpoint's states: asking, typing, marked. */
#include "ui/state/ui_quiz.h"

#include <ctype.h>

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

#include "ui/state/ui_keymap.h"
#include "ui/state/ui_mode.h"

void ui_quiz_start(struct ui_quiz *z, const struct lesson_quiz *q, int previous)
{
    memset(z, 0, sizeof *z);
    z->q = q;
    z->phase = q ? UI_QUIZ_ASKING : UI_QUIZ_NONE;
    z->previous = previous;
}

bool ui_quiz_asking(const struct ui_quiz *z)
{
    return z->q && z->phase == UI_QUIZ_ASKING;
}

bool ui_quiz_numeric(const struct ui_quiz *z)
{
    return z->q && z->q->n_choices == 0;
}

enum quiz_act {
    QUIZ_CHOOSE, /* a choice's number */
    QUIZ_NO_CHOICE,
    QUIZ_DIGIT, /* a character of the number */
    QUIZ_EXPONENT,
    QUIZ_SUBMIT,
    QUIZ_ERASE,
    QUIZ_DROP,
    QUIZ_QUIT /* q: typed once typing began, else it leaves the lesson */
};

static const struct ui_keymap_row choice_rows[] = {
    {{'1', '2', '3', '4', '5', '6', '7', '8', '9'},
     "1 … 9",
     QUIZ_CHOOSE,
     "answer: the choice with that number",
     NULL},
    {{'0'}, "0", QUIZ_NO_CHOICE, "no choice: taken, the stage stays", NULL},
};
const struct ui_keymap ui_keymap_quiz_choice =
    UI_KEYMAP("A checkpoint with choices (Space goes on)", choice_rows);

static const struct ui_keymap_row number_rows[] = {
    {{'0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '.', '-'},
     "0 … 9 . - ,",
     QUIZ_DIGIT,
     "type the answer (2,359,296 or 2359296)",
     NULL},
    {{','}, NULL, QUIZ_DIGIT, NULL, NULL},
    {{'e'}, "e", QUIZ_EXPONENT, "an exponent, after a digit (1e-3)", NULL},
    {{KEY_ENTER, '\n', '\r'}, "Enter", QUIZ_SUBMIT, "mark it (nothing typed: explain)", NULL},
    {{KEY_BACKSPACE, 127, 8},
     "Backspace",
     QUIZ_ERASE,
     "one character (nothing typed: a step back)",
     NULL},
    {{27}, "Esc", QUIZ_DROP, "drop what was typed", NULL},
    {{'q', 'Q'}, "q Q", QUIZ_QUIT, "typed once typing began; else leaves the lesson", NULL},
};
const struct ui_keymap ui_keymap_quiz_number =
    UI_KEYMAP("A checkpoint that asks for a number", number_rows);

bool ui_quiz_is_quit(int key, bool is_char)
{
    return ui_keymap_action(&ui_keymap_quiz_number, ui_mode_keycode(key, is_char), -1) == QUIZ_QUIT;
}

bool ui_quiz_takes(const struct ui_quiz *z, int key)
{
    if (!ui_quiz_asking(z))
        return false;
    const bool is_char = key > 0 && key < KEY_MIN;
    if (!ui_quiz_numeric(z))
        return ui_keymap_action(&ui_keymap_quiz_choice, key, -1) >= 0 ||
               (is_char && key < 128 && isalpha(key) && !ui_quiz_is_quit(key, true));
    const size_t len = strlen(z->typed);
    switch (ui_keymap_action(&ui_keymap_quiz_number, key, -1)) {
    case QUIZ_DIGIT:
        return true;
    case QUIZ_QUIT: /* typed, or on to the main screen (leaving the lesson) */
        return len > 0;
    case QUIZ_SUBMIT:
    case QUIZ_ERASE:
    case QUIZ_EXPONENT:
    case QUIZ_DROP:
        return len > 0;
    default:
        return is_char && key > ' ' && key != 127 && (len > 0 || key != '?');
    }
}

static enum ui_quiz_input choose(struct ui_quiz *z, int key, bool is_char)
{
    switch (ui_keymap_action(&ui_keymap_quiz_choice, ui_mode_keycode(key, is_char), -1)) {
    case QUIZ_CHOOSE: {
        const int i = key - '1';
        if (i >= z->q->n_choices)
            return UI_QUIZ_TAKEN; /* no such choice: nothing happens */
        if (z->retry && !strcmp(z->q->choices[i], z->first))
            return UI_QUIZ_TAKEN; /* already tried */
        snprintf(z->given, sizeof z->given, "%s", z->q->choices[i]);
        return UI_QUIZ_SUBMIT;
    }
    case QUIZ_NO_CHOICE:
        return UI_QUIZ_TAKEN;
    default:
        /* a letter is an attempt at an answer, never one of the explorer's
         * keys (q still quits, Space still skips, ? still helps) */
        if (is_char && key < 128 && isalpha(key) && !ui_quiz_is_quit(key, is_char))
            return UI_QUIZ_TAKEN;
        return UI_QUIZ_IGNORED;
    }
}

enum ui_quiz_input ui_quiz_key(struct ui_quiz *z, int key, bool is_char)
{
    if (!ui_quiz_asking(z))
        return UI_QUIZ_IGNORED;
    if (!ui_quiz_numeric(z))
        return choose(z, key, is_char);
    size_t len = strlen(z->typed);
    switch (ui_keymap_action(&ui_keymap_quiz_number, ui_mode_keycode(key, is_char), -1)) {
    case QUIZ_SUBMIT:
        if (len == 0)
            return UI_QUIZ_IGNORED; /* Enter explains the number under the cursor */
        snprintf(z->given, sizeof z->given, "%s", z->typed);
        return UI_QUIZ_SUBMIT;
    case QUIZ_ERASE:
        if (len == 0)
            return UI_QUIZ_IGNORED; /* back to the previous step */
        do                          /* one whole character */
            len--;
        while (len > 0 && ((unsigned char)z->typed[len] & 0xC0u) == 0x80u);
        z->typed[len] = '\0';
        return UI_QUIZ_TAKEN;
    case QUIZ_EXPONENT:
        if (len == 0)
            return UI_QUIZ_IGNORED;
        /* fall through */
    case QUIZ_DIGIT:
        if (len + 1 < sizeof z->typed) {
            z->typed[len] = (char)key;
            z->typed[len + 1] = '\0';
        }
        return UI_QUIZ_TAKEN;
    case QUIZ_DROP:
        if (len == 0)
            return UI_QUIZ_IGNORED;
        z->typed[0] = '\0'; /* Esc drops what was typed */
        return UI_QUIZ_TAKEN;
    default:
        break;
    }
    if (is_char && key > ' ' && key != 127 &&
        (len > 0 || (key != '?' && !ui_quiz_is_quit(key, is_char)))) {
        /* every character is typed (once typing began, q and ? too): the
         * answer is marked as the reader wrote it, and a letter never
         * reaches the explorer's keys */
        char mb[MB_LEN_MAX];
        mbstate_t ps;
        memset(&ps, 0, sizeof ps);
        const size_t n = wcrtomb(mb, (wchar_t)key, &ps);
        if (n != (size_t)-1 && len + n < sizeof z->typed) {
            memcpy(z->typed + len, mb, n);
            z->typed[len + n] = '\0';
        }
        return UI_QUIZ_TAKEN;
    }
    return UI_QUIZ_IGNORED;
}

void ui_quiz_format_number(double v, char *buf, int n)
{
    if (isfinite(v) && fabs(v) < 1e15 && v == floor(v))
        snprintf(buf, (size_t)n, "%.0f", v);
    else
        snprintf(buf, (size_t)n, "%.4g", v);
}

bool ui_quiz_mark(struct ui_quiz *z, const struct lesson_answer *expected)
{
    if (!z->q)
        return true;
    z->right = lesson_quiz_is_right(z->q, expected, z->given);
    if (!z->right && !z->retry) { /* every checkpoint, two choices too: one more try */
        z->retry = true;
        snprintf(z->first, sizeof z->first, "%s", z->given);
        z->given[0] = '\0';
        z->typed[0] = '\0';
        return false;
    }
    if (expected->numeric)
        ui_quiz_format_number(expected->number, z->answer, (int)sizeof z->answer);
    else
        snprintf(z->answer, sizeof z->answer, "%s", expected->text);
    z->phase = UI_QUIZ_ANSWERED;
    return true;
}

void ui_quiz_reveal(struct ui_quiz *z, const struct lesson_answer *expected)
{
    if (!z->q)
        return;
    z->given[0] = '\0';
    z->right = false;
    z->revealed = true;
    if (expected->numeric)
        ui_quiz_format_number(expected->number, z->answer, (int)sizeof z->answer);
    else
        snprintf(z->answer, sizeof z->answer, "%s", expected->text);
    z->phase = UI_QUIZ_ANSWERED;
}
