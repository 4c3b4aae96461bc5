/* train_text.c - words of a text as train_text.h cuts them: the word
 * iterator, lower-casing in place and the check that a file is text. */
#include "train/train_text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "engine/text_check.h"

/* The code point at s[*at] (valid UTF-8, at < len), *at moved past it. */
static uint32_t decode(const char *s, size_t len, size_t *at)
{
    const unsigned char *u = (const unsigned char *)s + *at;
    const size_t k = u[0] < 0x80 ? 1 : u[0] < 0xE0 ? 2 : u[0] < 0xF0 ? 3 : 4;
    if (*at + k > len) { /* cut short: one byte, as itself */
        *at += 1;
        return u[0];
    }
    uint32_t c = k == 1 ? u[0] : k == 2 ? u[0] & 0x1Fu : k == 3 ? u[0] & 0x0Fu : u[0] & 0x07u;
    for (size_t i = 1; i < k; i++)
        c = (c << 6) | (u[i] & 0x3Fu);
    *at += k;
    return c;
}

enum char_class { SPACE, PUNCT, WORD };

/* The invisible format characters (zero-width space, non-joiner and
 * joiner, word joiner, zero-width no-break space) are never a space: kept
 * inside the word they stand in (a text file refuses the zero-width spaces,
 * train_text_check). */
static enum char_class class_of(uint32_t c)
{
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f' || c == 0xA0 ||
        (c >= 0x2000 && c <= 0x200A) || c == 0x202F || c == 0x205F || c == 0x3000)
        return SPACE;
    if (c < 0x80)
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                       c < 0x21
                   ? WORD
                   : PUNCT;
    /* ¡ « · » ¿, the dashes, quotes and ellipsis of U+2010..U+205E, and
     * the CJK marks 、。「」 */
    if (c == 0xA1 || c == 0xAB || c == 0xB7 || c == 0xBB || c == 0xBF ||
        (c >= 0x2010 && c <= 0x205E) || (c >= 0x3001 && c <= 0x3003) ||
        (c >= 0x300C && c <= 0x300F))
        return PUNCT;
    return WORD;
}

static bool is_digit(uint32_t c)
{
    return c >= '0' && c <= '9';
}

/* A mark that stays inside a word between the two code points around it:
 * an apostrophe or hyphen between word characters, a point or comma
 * between digits. */
static bool joins(uint32_t before, uint32_t mark, uint32_t after)
{
    if (class_of(before) != WORD || class_of(after) != WORD)
        return false;
    if (mark == '\'' || mark == 0x2019 || mark == '-')
        return true;
    return (mark == '.' || mark == ',') && is_digit(before) && is_digit(after);
}

bool train_text_next_word(const char *s, size_t len, size_t *at, size_t *start, size_t *wlen)
{
    size_t i = *at, here = i;
    uint32_t c = 0;
    /* pass 1: the spaces before the word */
    while (i < len) {
        here = i;
        c = decode(s, len, &i);
        if (class_of(c) != SPACE)
            break;
        here = i;
    }
    if (here >= len) {
        *at = len;
        return false;
    }
    *start = here;
    if (class_of(c) == PUNCT) {
        /* pass 2a: a mark, and any more of the same mark right after it */
        size_t j = i;
        while (j < len) {
            size_t k = j;
            if (decode(s, len, &k) != c)
                break;
            j = k;
        }
        *wlen = j - here;
        *at = j;
        return true;
    }
    /* pass 2b: word characters, and the marks that join two of them */
    uint32_t prev = c;
    size_t end = i;
    while (end < len) {
        size_t k = end;
        const uint32_t d = decode(s, len, &k);
        const enum char_class cl = class_of(d);
        if (cl == WORD) {
            prev = d;
            end = k;
            continue;
        }
        if (cl == PUNCT && k < len) {
            size_t m = k;
            const uint32_t after = decode(s, len, &m);
            if (joins(prev, d, after)) {
                prev = after;
                end = m;
                continue;
            }
        }
        break;
    }
    *wlen = end - here;
    *at = end;
    return true;
}

/* ---- lower case ---- */

/* The lower case of c when the mapping keeps its UTF-8 length, else c. */
static uint32_t lower_of(uint32_t c)
{
    if (c >= 'A' && c <= 'Z')
        return c + 32;
    if (c < 0xC0)
        return c;
    if (c <= 0xDE && c != 0xD7) /* Latin-1 capitals */
        return c + 0x20;
    if (c >= 0x100 && c <= 0x17F) { /* Latin Extended-A: pairs */
        if (c == 0x130 || c == 0x131 || c == 0x138 || c == 0x149 || c == 0x17F)
            return c;
        if (c == 0x178)
            return 0xFF;
        const bool odd_capitals = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
        return odd_capitals ? (c % 2 ? c + 1 : c) : (c % 2 ? c : c + 1);
    }
    if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) /* Greek */
        return c + 0x20;
    if (c >= 0x410 && c <= 0x42F) /* Cyrillic */
        return c + 0x20;
    if (c >= 0x400 && c <= 0x40F)
        return c + 0x50;
    return c;
}

static size_t utf8_put(uint32_t c, char *out)
{
    unsigned char *u = (unsigned char *)out;
    if (c < 0x80) {
        u[0] = (unsigned char)c;
        return 1;
    }
    if (c < 0x800) {
        u[0] = (unsigned char)(0xC0 | (c >> 6));
        u[1] = (unsigned char)(0x80 | (c & 0x3F));
        return 2;
    }
    if (c < 0x10000) {
        u[0] = (unsigned char)(0xE0 | (c >> 12));
        u[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
        u[2] = (unsigned char)(0x80 | (c & 0x3F));
        return 3;
    }
    u[0] = (unsigned char)(0xF0 | (c >> 18));
    u[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    u[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
    u[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

void train_text_lower(char *s, size_t len)
{
    for (size_t i = 0; i < len;) {
        if ((unsigned char)s[i] < 0x80) { /* the common case, a byte at a time */
            if (s[i] >= 'A' && s[i] <= 'Z')
                s[i] = (char)(s[i] + 32);
            i++;
            continue;
        }
        size_t next = i;
        const uint32_t c = decode(s, len, &next), l = lower_of(c);
        if (l != c) {
            char buf[4];
            if (utf8_put(l, buf) == next - i)
                memcpy(s + i, buf, next - i);
        }
        i = next;
    }
}

/* ---- is it text? ---- */

/* Line and column (1-based, the column in characters) of byte at. */
static void line_col(const char *s, size_t at, int *line, int *col)
{
    int l = 1, c = 1;
    for (size_t i = 0; i < at; i++) {
        if (s[i] == '\n') {
            l++;
            c = 1;
        } else if (((unsigned char)s[i] & 0xC0) != 0x80) {
            c++;
        }
    }
    *line = l;
    *col = c;
}

/* A zero-width space (U+200B, or U+FEFF after the start) in valid UTF-8 s:
 * invisible, it would split a word where the reader sees one, or make two
 * words look like one.  0 without one, else -1 + err at its line and
 * column. */
static int zero_width(const char *s, size_t len, size_t from, const char *name,
                      struct mha_error *err)
{
    for (size_t at = from; at < len;) {
        const size_t here = at;
        const uint32_t c = decode(s, len, &at);
        if (c != 0x200B && c != 0xFEFF)
            continue;
        int line, col;
        line_col(s, here, &line, &col);
        mha_error_set(err,
                      "a zero-width %s (U+%04X): invisible, it would cut a word the reader sees "
                      "whole; remove it (a word is cut at spaces only)",
                      c == 0x200B ? "space" : "no-break space", (unsigned)c);
        mha_error_at(err, name, line, col);
        return -1;
    }
    return 0;
}

int train_text_check(const char *s, size_t len, const char *name, struct mha_error *err)
{
    size_t from = len >= 3 && !memcmp(s, "\xEF\xBB\xBF", 3) ? 3 : 0;
    const char *nul = memchr(s, '\0', len);
    char what[96];
    const size_t bad = from + mha_text_find_unsafe(s + from, len - from, true, what, sizeof what);
    if (!nul && bad >= len)
        return zero_width(s, len, from, name, err);
    int line, col;
    if (nul && (size_t)(nul - s) <= bad) {
        line_col(s, (size_t)(nul - s), &line, &col);
        mha_error_set(err, "a NUL byte: this looks like a binary file, not text (UTF-8 lines, "
                           "one sentence a line)");
    } else {
        line_col(s, bad, &line, &col);
        if (strstr(what, "not UTF-8"))
            mha_error_set(err, "%s: the text must be UTF-8 (one sentence a line)", what);
        else
            mha_error_set(err,
                          "%s: not text (is it a binary file?); a text file holds "
                          "printable UTF-8 lines",
                          what);
    }
    mha_error_at(err, name, line, col);
    return -1;
}
