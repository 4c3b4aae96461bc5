/* utf8.h - display width of UTF-8 text, for aligning labels and wrapping. */
#ifndef MHA_UTF8_H
#define MHA_UTF8_H

#include <stddef.h>

/* Bytes of the character starting at s (1 for a stray or invalid byte, 0 at
 * the end); *width gets its display width (0, 1 or 2). */
size_t utf8_next(const char *s, size_t len, int *width);

/* Strictly: the length of the valid UTF-8 character at s (at most len bytes)
 * and its code point; 0 when the bytes are not one (a stray byte, overlong,
 * a surrogate, above U+10FFFF or cut short).  utf8_next is lenient instead. */
size_t utf8_decode(const char *s, size_t len, unsigned long *cp);

/* Display width of the first len bytes of s. */
int utf8_width_n(const char *s, size_t len);
/* Display width of a NUL-terminated string. */
int utf8_width(const char *s);

/* Bytes of the longest prefix of s (NUL-terminated) that fits in max columns,
 * never cutting a character. */
size_t utf8_fit(const char *s, int max);

#endif
