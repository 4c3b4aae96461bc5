/* text_check.c - finding and escaping characters a terminal would obey. */
#include "engine/text_check.h"

#include <stdio.h>
#include <string.h>

/* Strict UTF-8: length of the character at s (at most len bytes) and its
 * code point; 0 for a stray byte, an overlong form, a surrogate, a value
 * above U+10FFFF or a character cut short. */
static size_t decode(const unsigned char *s, size_t len, unsigned long *cp)
{
    const size_t k = s[0] < 0x80             ? 1
                     : (s[0] & 0xE0) == 0xC0 ? 2
                     : (s[0] & 0xF0) == 0xE0 ? 3
                     : (s[0] & 0xF8) == 0xF0 ? 4
                                             : 0;
    if (k == 0 || k > len)
        return 0;
    unsigned long c = k == 1   ? s[0]
                      : k == 2 ? (s[0] & 0x1Fu)
                      : k == 3 ? (s[0] & 0x0Fu)
                               : (s[0] & 0x07u);
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (s[i] & 0x3Fu);
    }
    static const unsigned long least[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (c < least[k] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return k;
}

bool mha_text_unsafe_cp(unsigned long cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
           cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

static const char *const c0_names[32] = {
    "NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "BEL", "BS",  "TAB", "LF",
    "VT",  "FF",  "CR",  "SO",  "SI",  "DLE", "DC1", "DC2", "DC3", "DC4", "NAK",
    "SYN", "ETB", "CAN", "EM",  "SUB", "ESC", "FS",  "GS",  "RS",  "US",
};

static void describe(unsigned long cp, char *what, size_t n)
{
    if (!what || n == 0)
        return;
    if (cp < 0x20)
        snprintf(what, n, "the control character %s (U+%04lX)", c0_names[cp], cp);
    else if (cp == 0x7F)
        snprintf(what, n, "the control character DEL (U+007F)");
    else if (cp <= 0x9F)
        snprintf(what, n, "the C1 control character U+%04lX", cp);
    else
        snprintf(what, n, "the bidirectional control U+%04lX", cp);
}

size_t mha_text_find_unsafe(const char *str, size_t len, bool lines, char *what, size_t n)
{
    const unsigned char *s = (const unsigned char *)str;
    for (size_t i = 0; i < len;) {
        unsigned long cp;
        size_t k = decode(s + i, len - i, &cp);
        if (k == 0) {
            if (what && n)
                snprintf(what, n, "a byte that is not UTF-8 (0x%02X)", s[i]);
            return i;
        }
        /* a carriage return only as part of a line end: alone it moves back
         * over what was printed */
        const bool line_end = cp == '\n' || (cp == '\r' && (i + 1 == len || s[i + 1] == '\n'));
        if (mha_text_unsafe_cp(cp) && !(lines && (cp == '\t' || line_end))) {
            describe(cp, what, n);
            return i;
        }
        i += k;
    }
    return len;
}

int mha_label_check(const char *label, int index, struct mha_error *err)
{
    if (!label || !*label)
        return mha_error_set(err, "token %d is empty", index);
    char what[64];
    size_t len = strlen(label);
    if (mha_text_find_unsafe(label, len, false, what, sizeof what) == len)
        return 0;
    char shown[96];
    return mha_error_set(err,
                         "token %d (\"%s\") holds %s; token labels are plain text without "
                         "control or bidirectional characters, in UTF-8",
                         index, mha_text_escape(label, shown, sizeof shown), what);
}

char *mha_text_escape(const char *str, char *buf, size_t n)
{
    if (n == 0)
        return buf;
    const unsigned char *s = (const unsigned char *)str;
    size_t len = str ? strlen(str) : 0, o = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < len;) {
        unsigned long cp;
        size_t k = decode(s + i, len - i, &cp);
        char piece[16];
        size_t plen;
        if (k == 0) {
            plen = (size_t)snprintf(piece, sizeof piece, "<0x%02X>", s[i]);
            k = 1;
        } else if (mha_text_unsafe_cp(cp)) {
            plen = (size_t)snprintf(piece, sizeof piece, "<U+%04lX>", cp);
        } else {
            memcpy(piece, s + i, k);
            plen = k;
        }
        if (o + plen + 1 > n)
            break;
        memcpy(buf + o, piece, plen);
        o += plen;
        buf[o] = '\0';
        i += k;
    }
    return buf;
}
