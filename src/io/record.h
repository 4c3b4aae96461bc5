/* record.h - recordings of explorer sessions: the keys pressed and when, as
 * plain text, so a teacher can rehearse a demo once and replay it in class.
 *
 *   mha-explorer-recording 1
 *   # comments and blank lines are ignored
 *   0.000 right
 *   0.850 +
 *   2.125 :
 *   2.300 h
 *
 * Each event is "<seconds since the start> <key>", times never decreasing.
 * A key is a printable character other than space and '#' as itself, or one
 * of the names: space hash enter tab backtab backspace escape left right up
 * down pageup pagedown home end delete resize f1 ctrl-a .. ctrl-z, or U+XXXX
 * for any other character.
 */
#ifndef MHA_RECORD_H
#define MHA_RECORD_H

#include <stdio.h>

#include "mha_error.h"

/* Keys that are not characters live above the Unicode range. */
enum rec_key {
    REC_KEY_ENTER = 0x110001,
    REC_KEY_TAB,
    REC_KEY_BACKSPACE,
    REC_KEY_ESCAPE,
    REC_KEY_LEFT,
    REC_KEY_RIGHT,
    REC_KEY_UP,
    REC_KEY_DOWN,
    REC_KEY_PAGEUP,
    REC_KEY_PAGEDOWN,
    REC_KEY_HOME,
    REC_KEY_END,
    REC_KEY_DELETE,
    REC_KEY_RESIZE,
    REC_KEY_BACKTAB, /* shift-tab */
    REC_KEY_F1,
};

#define REC_MAX_EVENTS 100000
#define REC_MAX_SECONDS (24.0 * 3600.0)
/* A recording file larger than this is refused unread (100000 keys fit in
 * a quarter of it). */
#define REC_MAX_BYTES ((size_t)8 << 20)

struct rec_event {
    double t;
    int key; /* a Unicode code point (ctrl-x is 1..26), or an enum rec_key */
};

struct recording {
    struct rec_event *events;
    int n;
};

/* Parse a whole recording; on any problem nothing is returned (out stays
 * empty) and err names the line and what was wrong. */
int rec_parse(const char *text, const char *name, struct recording *out, struct mha_error *err);
int rec_load(const char *path, struct recording *out, struct mha_error *err);
void rec_free(struct recording *r);

/* The key's name as written in a recording, into buf (at least 16 bytes). */
const char *rec_key_name(int key, char *buf);
/* A name back to a key; -1 if unknown. */
int rec_key_from_name(const char *name);

/* Writing, one event at a time (the file stays readable if the session ends
 * early).  Return 0, or -1 on a write error. */
int rec_write_header(FILE *out);
int rec_write_event(FILE *out, double t, int key);

#endif
