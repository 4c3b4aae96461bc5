/* utf8.c - decoding UTF-8 by hand (so it works in any locale) and asking
 * wcwidth for the width; characters it does not know count as one column. */
#include "io/utf8.h"

#include <string.h>
#include <wchar.h>

size_t utf8_next(const char *s, size_t len, int *width)
{
    *width = 0;
    if (len == 0 || *s == '\0')
        return 0;
    const unsigned char c = (unsigned char)s[0];
    size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || n > len) {
        *width = 1;
        return 1;
    }
    unsigned long cp = n == 1 ? c : n == 2 ? (c & 0x1Fu) : n == 3 ? (c & 0x0Fu) : (c & 0x07u);
    for (size_t i = 1; i < n; i++) {
        const unsigned char cc = (unsigned char)s[i];
        if ((cc & 0xC0) != 0x80) {
            *width = 1;
            return 1;
        }
        cp = (cp << 6) | (cc & 0x3Fu);
    }
    if (cp < 0x20 || cp == 0x7F) {
        *width = 0;
        return n;
    }
    int w = wcwidth((wchar_t)cp);
    if (w < 0) {
        /* unknown to this locale: wide for the common East Asian and emoji blocks */
        w = (cp >= 0x1100 &&
             (cp <= 0x115F || (cp >= 0x2E80 && cp <= 0xA4CF) || (cp >= 0xAC00 && cp <= 0xD7A3) ||
              (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0xFF00 && cp <= 0xFF60) ||
              (cp >= 0x1F300 && cp <= 0x1FAFF) || (cp >= 0x20000 && cp <= 0x3FFFD)))
                ? 2
                : 1;
    }
    *width = w;
    return n;
}

size_t utf8_decode(const char *str, size_t len, unsigned long *cp)
{
    const unsigned char *s = (const unsigned char *)str;
    size_t n = s[0] < 0x80         ? 1
               : (s[0] >> 5) == 6  ? 2
               : (s[0] >> 4) == 14 ? 3
               : (s[0] >> 3) == 30 ? 4
                                   : 0;
    if (n == 0 || n > len)
        return 0;
    unsigned long c = n == 1   ? s[0]
                      : n == 2 ? (s[0] & 0x1Fu)
                      : n == 3 ? (s[0] & 0x0Fu)
                               : (s[0] & 0x07u);
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[n] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return n;
}

int utf8_width_n(const char *s, size_t len)
{
    int total = 0, w;
    size_t n;
    while ((n = utf8_next(s, len, &w)) > 0) {
        total += w;
        s += n;
        len -= n;
    }
    return total;
}

int utf8_width(const char *s)
{
    return utf8_width_n(s, strlen(s));
}

size_t utf8_fit(const char *s, int max)
{
    size_t len = strlen(s), used = 0;
    int cols = 0, w;
    size_t n;
    while ((n = utf8_next(s + used, len - used, &w)) > 0 && cols + w <= max) {
        cols += w;
        used += n;
    }
    return used;
}
