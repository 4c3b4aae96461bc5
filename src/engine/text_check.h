/* text_check.h - text from files and the command line that must not steer
 * the terminal it is printed on.
 *
 * Token labels, lesson text and names from example files end up on a
 * terminal (the text dump, --print-lesson, messages on stderr).  Characters
 * that a terminal obeys instead of showing are unsafe there: the C0 controls
 * (ESC starts escape sequences, OSC 52 even writes the clipboard), DEL, the
 * C1 controls U+0080..U+009F (U+009B is a one-character CSI), and the
 * bidirectional controls (U+202A..U+202E, U+2066..U+2069, U+200E, U+200F,
 * U+061C) that reorder what is shown.  Bytes that are not UTF-8 are unsafe
 * too: a terminal may read them as C1 controls.
 */
#ifndef MHA_TEXT_CHECK_H
#define MHA_TEXT_CHECK_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha_error.h"

/* True for a code point that must not be printed as it is (see above);
 * tab and newline are unsafe here too (callers allow them where text has
 * lines). */
bool mha_text_unsafe_cp(unsigned long cp);

/* The byte offset of the first unsafe character in s[0..len) (len when
 * there is none).  lines: tab, newline and carriage return are allowed.
 * what (n bytes, may be NULL) gets a description: "the control character
 * ESC (U+001B)", "the bidirectional control U+202E", "a byte that is not
 * UTF-8 (0xC3)". */
size_t mha_text_find_unsafe(const char *s, size_t len, bool lines, char *what, size_t n);

/* A token label: non-empty, valid UTF-8, no unsafe character (tab and
 * newline included).  0, or -1 with err "token 3 (\"a<U+001B>b\") holds the
 * control character ESC (U+001B); ..." (index 0-based). */
int mha_label_check(const char *label, int index, struct mha_error *err);

/* s with every unsafe character written as <U+XXXX> and every byte that is
 * not UTF-8 as <0xNN>, into buf (n bytes, always NUL-terminated, cut at a
 * character boundary when too long).  Returns buf. */
char *mha_text_escape(const char *s, char *buf, size_t n);

#endif
