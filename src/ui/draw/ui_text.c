/* ui_text.c - UTF-8 decoding, display widths, shortening and wrapping. */
#include "ui/draw/ui_text.h"

#include <limits.h>
#include <string.h>
#include <wchar.h>

#include "io/utf8.h"

/* The program's own symbols and what they become without UTF-8.  A marker
 * (the arrows, which also name the arrow keys; the check mark) becomes no
 * key's letter: v opens the views. */
static const struct {
    const char *utf8, *ascii;
} fold[] = {
    {"×", "x"},     {"·", "."},   {"ᵀ", "^T"}, {"√", "sqrt"}, {"÷", "/"},    {"−", "-"},
    {"Σ", "sum"},   {"∞", "inf"}, {"→", "->"}, {"←", "<-"},   {"…", "~"},    {"›", ">"},
    {"│", "|"},     {"─", "-"},   {"░", "."},  {"▒", ":"},    {"▓", "*"},    {"█", "#"},
    {"±", "+-"},    {"≈", "~"},   {"ₖ", "k"},  {"↑", "Up"},   {"↓", "Down"}, {"▸", ">"},
    {"⏎", "Enter"}, {"•", "*"},   {"²", "^2"}, {"≥", ">="},   {"≤", "<="},   {"▌", "|"},
    {"✓", "*"},     {"✗", "x"},   {"▏", "_"},  {"–", "-"},
};

const char *ui_more_arrow(bool down, bool utf8)
{
    return !utf8 ? "" : down ? "↓ " : "↑ ";
}

/* Decode one UTF-8 character at s (n bytes available).  Returns its length
 * (1 for an invalid byte, with *cp = 0xFFFD). */
static size_t decode(const char *s, size_t n, unsigned *cp)
{
    unsigned long c;
    const size_t len = utf8_decode(s, n, &c);
    *cp = len ? (unsigned)c : 0xFFFD;
    return len ? len : 1;
}

/* The next character of s as it will be written: its bytes (*out, *out_len)
 * and columns.  Returns the bytes of s it consumes. */
static size_t next_char(const char *s, size_t n, bool utf8, const char **out, size_t *out_len,
                        int *cols)
{
    const unsigned char *u = (const unsigned char *)s;
    if (u[0] < 0x80) {
        bool ctl = u[0] < 0x20 || u[0] == 0x7F;
        *out = ctl ? "?" : s;
        *out_len = 1;
        *cols = 1;
        return 1;
    }
    if (!utf8) {
        for (size_t i = 0; i < sizeof fold / sizeof fold[0]; i++) {
            size_t l = strlen(fold[i].utf8);
            if (l <= n && memcmp(s, fold[i].utf8, l) == 0) {
                *out = fold[i].ascii;
                *out_len = strlen(fold[i].ascii);
                *cols = (int)*out_len;
                return l;
            }
        }
        unsigned cp;
        size_t used = decode(s, n, &cp);
        *out = "?";
        *out_len = 1;
        *cols = 1;
        return used;
    }
    unsigned cp;
    size_t used = decode(s, n, &cp);
    int w = cp == 0xFFFD ? -1 : wcwidth((wchar_t)cp);
    if (w < 0) {
        *out = "?";
        *out_len = 1;
        *cols = 1;
    } else {
        *out = s;
        *out_len = used;
        *cols = w;
    }
    return used;
}

/* Columns the first n bytes of s take, counted until they pass limit. */
static int width_n(const char *s, size_t n, bool utf8, int limit)
{
    int cols = 0;
    while (n > 0 && cols <= limit) {
        const char *o;
        size_t ol;
        int w;
        size_t used = next_char(s, n, utf8, &o, &ol, &w);
        cols += w;
        s += used, n -= used;
    }
    return cols;
}

int ui_text_width(const char *s, bool utf8)
{
    return width_n(s, strlen(s), utf8, INT_MAX);
}

int ui_text_fit_n(const char *s, size_t n, int maxw, bool utf8, char *out, size_t outsz)
{
    if (outsz == 0)
        return 0;
    out[0] = '\0';
    if (maxw <= 0)
        return 0;
    const char *ell = utf8 ? "…" : "~";
    const size_t ell_len = strlen(ell);

    /* Does the whole text fit? Then no ellipsis is needed. */
    const bool cut = width_n(s, n, utf8, maxw) > maxw;
    const int room = cut ? maxw - 1 : maxw;
    size_t len = 0;
    int cols = 0;
    while (n > 0) {
        const char *o;
        size_t ol;
        int w;
        size_t used = next_char(s, n, utf8, &o, &ol, &w);
        if (cols + w > room || len + ol + ell_len + 1 > outsz)
            break;
        memcpy(out + len, o, ol);
        len += ol, cols += w;
        s += used, n -= used;
    }
    if (cut && len + ell_len < outsz) {
        memcpy(out + len, ell, ell_len);
        len += ell_len;
        cols += 1;
    }
    out[len] = '\0';
    return cols;
}

int ui_text_fit(const char *s, int maxw, bool utf8, char *out, size_t outsz)
{
    return ui_text_fit_n(s, strlen(s), maxw, utf8, out, outsz);
}

int ui_text_wrap(const char *s, int width, bool utf8, struct ui_line *lines, int max_lines)
{
    int count = 0;
    if (width < 1)
        width = 1;
    size_t n = strlen(s);
    while (n > 0) {
        /* one line: take characters up to width, remember the last space */
        size_t pos = 0, last_space = 0;
        bool have_space = false;
        int cols = 0;
        while (pos < n && s[pos] != '\n') {
            const char *o;
            size_t ol;
            int w;
            size_t used = next_char(s + pos, n - pos, utf8, &o, &ol, &w);
            if (cols + w > width)
                break;
            if (s[pos] == ' ')
                last_space = pos, have_space = true;
            cols += w;
            pos += used;
        }
        size_t line_len = pos, skip = pos;
        const bool hard = pos < n && s[pos] == '\n';
        if (hard || (pos < n && s[pos] == ' ')) {
            skip = pos + 1; /* the break falls on a newline or a space */
        } else if (pos < n && have_space && last_space > 0) {
            line_len = last_space;
            skip = last_space + 1;
        } else if (pos == 0) {
            /* a character wider than the line: take it anyway */
            const char *o;
            size_t ol;
            int w;
            line_len = skip = next_char(s, n, utf8, &o, &ol, &w);
        }
        if (count < max_lines) {
            lines[count].start = s;
            lines[count].len = line_len;
        }
        count++;
        s += skip, n -= skip;
        /* spaces at the start of a wrapped line are dropped */
        while (!hard && n > 0 && *s == ' ')
            s++, n--;
    }
    return count;
}
