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
 * Version 2 (what --record writes) adds, between the first line and the
 * first key, what reproduces the start: the terminal's size and the
 * options the explorer was opened with, one argument a line (backslash,
 * newline and other control characters written as \\, \n, \xHH):
 *
 *   mha-explorer-recording 2
 *   size 120x40
 *   arg --lesson
 *   arg 7
 *   arg --step
 *   arg 3
 *
 * Each event is "<seconds since the start> <key>", times never decreasing.
 * A key is a printable character other than space and '#' as itself, or one
 * of the names: space hash enter tab backtab backspace escape left right up
 * down pageup pagedown home end delete resize f1 ctrl-a .. ctrl-z, or U+XXXX
 * for any other character.  A mouse event is "click", "wheel-up" or
 * "wheel-down" and the screen row and column it happened at (from 0):
 *
 *   3.100 click 12 40
 */
#ifndef MHA_RECORD_H
#define MHA_RECORD_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/mha_error.h"
#include "io/rec_snap.h"
#include "io/rec_state.h"

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
    REC_KEY_CLICK, /* mouse events: rec_event's y and x say where */
    REC_KEY_WHEEL_UP,
    REC_KEY_WHEEL_DOWN,
};

/* Rows and columns a mouse event may name. */
#define REC_MAX_SCREEN 10000

#define REC_MAX_EVENTS 100000
#define REC_MAX_SECONDS (24.0 * 3600.0)
/* A recording is read no further than this (100000 keys with a state line
 * each fit in under half of it): reading stops at the first bad line, a line holding a NUL byte,
 * or the line this many bytes fall in, and the message names that line.  The
 * bytes of training snapshots (rec_snap.h) after their "# snap " count
 * against REC_MAX_SNAP_BYTES instead. */
#define REC_MAX_BYTES ((size_t)8 << 20)

struct rec_event {
    double t;
    int key;  /* a Unicode code point (ctrl-x is 1..26), or an enum rec_key */
    int y, x; /* where a mouse event happened (screen row, column); 0 for keys */
};

/* key is a mouse event (it is written with its place). */
static inline int rec_key_is_mouse(int key)
{
    return key == REC_KEY_CLICK || key == REC_KEY_WHEEL_UP || key == REC_KEY_WHEEL_DOWN;
}

#define REC_MAX_START_ARGS 64
#define REC_MAX_ARG 2048 /* bytes of one argument */
#define REC_MAX_LINE (4 * REC_MAX_ARG + 16)

/* What a recording was started with. */
struct rec_start {
    char *args[REC_MAX_START_ARGS]; /* newly allocated, freed by rec_free */
    int n_args;
    int rows, cols; /* the terminal's size; 0 when not recorded */
};

/* The teacher's whole state once the first at events have been played
 * (rec_state.h), each line merged into the ones before: one entry a state
 * line (two of one place and time are one). */
struct rec_state_at {
    int at;
    double t; /* the teacher's clock when it was written: its key's, or a "# at" after it */
    struct rec_state s;
};
/* State entries kept at most; lines past it merge into the last. */
#define REC_MAX_STATES 100000

struct recording {
    struct rec_event *events;
    int n;
    struct rec_state_at *states; /* in order of at and t; none in a keys-only recording */
    int n_states;
    long state_lines; /* state lines read, merged ones too */
    /* the teacher's training runs (rec_snap.h), in order; snaps_on: the
     * teacher's explorer wrote them (a follower of it trains nothing) */
    struct rec_snap *snaps;
    int n_snaps;
    bool snaps_on;
    size_t snap_bytes; /* bytes of snapshot lines read */
    int version;       /* 1: keys only, 2: with its start */
    struct rec_start start;
    /* "" or what was left out while reading: a last line cut short (a
     * recording that was never finished), with its line number */
    char warning[256];
};

/* Parse a whole recording; on any problem nothing is returned (out stays
 * empty) and err names the line and what was wrong. */
int rec_parse(const char *text, const char *name, struct recording *out, struct mha_error *err);
int rec_load(const char *path, struct recording *out, struct mha_error *err);
void rec_free(struct recording *r);

/* Reading a recording a line at a time (what rec_parse and a followed
 * stream share): out gathers the version, the start and the events. */
struct rec_reader {
    struct recording *out;       /* the caller's, zeroed before the first line */
    int cap;                     /* events allocated in out */
    int line;                    /* lines read */
    bool header;                 /* the first line was read */
    double last;                 /* the time of the last event */
    double mark;                 /* the last "# at" time, for state lines after it */
    int state_cap;               /* states allocated in out */
    int snap_cap;                /* snapshots allocated in out */
    struct rec_snap_reader snap; /* the snapshot being read */
};
/* One line s (without its newline; changed in place): 1 when it was an
 * event (out->n grew), 0 for any other good line, -1 with err naming the
 * line.  On -1 the caller frees out (rec_free).  rec_reader_done frees a
 * snapshot left half read. */
int rec_reader_line(struct rec_reader *rd, char *s, const char *name, struct mha_error *err);
void rec_reader_done(struct rec_reader *rd);
/* Whether a line (or its start, len bytes of it) is a snapshot line:
 * those count against REC_MAX_SNAP_BYTES, not REC_MAX_BYTES. */
bool rec_is_snap_line(const char *s, size_t len);

/* The key's name as written in a recording, into buf (at least 16 bytes). */
const char *rec_key_name(int key, char *buf);
/* A name back to a key; -1 if unknown. */
int rec_key_from_name(const char *name);

/* Writing, one event at a time (the file stays readable if the session ends
 * early).  Return 0, or -1 on a write error.  rec_write_header starts a
 * version 1 recording (keys only), rec_write_start a version 2 one with
 * what it started from (start NULL: nothing but the first line). */
int rec_write_header(FILE *out);
int rec_write_start(FILE *out, const struct rec_start *start);
int rec_write_event(FILE *out, double t, int key);
/* A mouse event (REC_KEY_CLICK, _WHEEL_UP, _WHEEL_DOWN) at screen (y, x). */
int rec_write_mouse(FILE *out, double t, int key, int y, int x);

/* Reading the start of a version 2 recording (record_start.c): one line
 * before the first key, "size RxC" or "arg TEXT", into start.  1 when the
 * line was one of them, 0 when it is not, -1 with err's text filled when it
 * is one but malformed. */
int rec_start_line(struct rec_start *start, const char *line, struct mha_error *err);
/* Add a copy of arg to start's arguments; -1 when full or out of memory. */
int rec_start_add(struct rec_start *start, const char *arg);
void rec_start_free(struct rec_start *start);

#endif
