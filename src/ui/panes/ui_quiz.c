/* ui_quiz.c - the checkpoint's states: asking, typing, marked. */
#include "ui/panes/ui_quiz.h"

#include <curses.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <wchar.h>

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

static bool is_enter(int key, bool is_char)
{
    return is_char ? key == '\n' || key == '\r' : key == KEY_ENTER;
}

static bool is_backspace(int key, bool is_char)
{
    return is_char ? key == 127 || key == 8 : key == KEY_BACKSPACE;
}

enum ui_quiz_input ui_quiz_key(struct ui_quiz *z, int key, bool is_char)
{
    if (!ui_quiz_asking(z))
        return UI_QUIZ_IGNORED;
    if (!ui_quiz_numeric(z)) {
        if (is_char && key >= '1' && key <= '9') {
            const int i = key - '1';
            if (i >= z->q->n_choices)
                return UI_QUIZ_TAKEN; /* no such choice: nothing happens */
            if (z->retry && !strcmp(z->q->choices[i], z->first))
                return UI_QUIZ_TAKEN; /* already tried */
            snprintf(z->given, sizeof z->given, "%s", z->q->choices[i]);
            return UI_QUIZ_SUBMIT;
        }
        return is_char && key == '0' ? UI_QUIZ_TAKEN : UI_QUIZ_IGNORED;
    }
    size_t len = strlen(z->typed);
    if (is_enter(key, is_char)) {
        if (len == 0)
            return UI_QUIZ_IGNORED; /* Enter explains the number under the cursor */
        snprintf(z->given, sizeof z->given, "%s", z->typed);
        return UI_QUIZ_SUBMIT;
    }
    if (is_backspace(key, is_char)) {
        if (len == 0)
            return UI_QUIZ_IGNORED; /* back to the previous step */
        do                          /* one whole character */
            len--;
        while (len > 0 && ((unsigned char)z->typed[len] & 0xC0u) == 0x80u);
        z->typed[len] = '\0';
        return UI_QUIZ_TAKEN;
    }
    if (is_char && ((key >= '0' && key <= '9') || key == '.' || key == '-' || key == 'e')) {
        if (key == 'e' && len == 0)
            return UI_QUIZ_IGNORED;
        if (len + 1 < sizeof z->typed) {
            z->typed[len] = (char)key;
            z->typed[len + 1] = '\0';
        }
        return UI_QUIZ_TAKEN;
    }
    if (len > 0 && is_char && key == 27) { /* Esc drops what was typed */
        z->typed[0] = '\0';
        return UI_QUIZ_TAKEN;
    }
    if (len > 0 && is_char && key > ' ' && key != 127) {
        /* once typing began, every character is typed (q included): the
         * answer is marked as the reader wrote it */
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
    const bool one_choice_left = z->q->n_choices == 2; /* a retry would give it away */
    if (!z->right && !z->retry && !one_choice_left) {
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
