/* json_scan.h - JSON files read with memory bounded by what they may hold.
 *
 * jansson builds the whole tree of a file, and a tree costs far more than
 * its text: an empty list "[]," is 3 bytes of text and about 150 bytes of
 * tree, so 99 MB of them took 4.7 GB before a reader could count them.
 * Here the text is fed to jansson in pieces, and each piece is first run
 * through a small scanner that counts what the tree will hold (values,
 * lists and objects, the entries of each one, the nesting) against the
 * limits of the kind of file, so a file is refused at its first excess,
 * with the field and the line and column where it is, before jansson has
 * seen that far.  The limits of each kind are derived from its documented
 * maxima (see json_read.c, example_io.c, progress_file.c).  Internal to
 * src/io and src/lesson. */
#ifndef MHA_JSON_SCAN_H
#define MHA_JSON_SCAN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/mha_error.h"

#define JSON_SCAN_MAX_DEPTH 8 /* deepest any kind of file may nest */

/* Bytes of text allowed for each thing a file holds, when its size cap is
 * derived from its maxima: a number ("-1.2345678901234567e-05, " indented
 * five levels deep, as Python's json.dump(indent=4) writes it), a token id
 * or a list, a label (63 bytes written as \u escapes). */
#define JSON_SCAN_NUMBER_BYTES 48
#define JSON_SCAN_ID_BYTES 32
#define JSON_SCAN_LABEL_BYTES 400

struct json_limits {
    const char *what;      /* the kind of file, for messages ("batch file") */
    size_t max_bytes;      /* the file's size */
    int max_depth;         /* lists and objects inside one another */
    size_t max_items;      /* entries of any one list or object */
    size_t max_values;     /* values of every kind, in all */
    size_t max_containers; /* lists and objects, in all */
};

/* The scanner's state between pieces of text. */
struct json_scan {
    const struct json_limits *lim;
    int depth;
    size_t items[JSON_SCAN_MAX_DEPTH + 1]; /* entries so far at each depth */
    bool object[JSON_SCAN_MAX_DEPTH + 1];  /* that depth is an object */
    bool want_key;                         /* in an object, before a key */
    bool in_string, escape, in_scalar, key_string;
    size_t values, containers, bytes;
    int line, column;
    char top_key[48];   /* the top-level field being read, for messages */
    size_t top_key_len; /* bytes of it kept so far */
    bool top_key_done;
    const char *const *watch;     /* top-level keys looked for (json_scan_has_key) */
    bool found;                   /* one of them was read: scanning stops */
    char why[MHA_ERROR_TEXT_MAX]; /* the first excess, once found */
};

/* Start scanning a file of the kind lim describes. */
void json_scan_init(struct json_scan *s, const struct json_limits *lim);

/* Scan n more bytes: 0, or -1 with s->why, s->line and s->column set at
 * the first excess (scanning further is refused). */
int json_scan_feed(struct json_scan *s, const char *text, size_t n);

/* Parse the regular file at path (safe_file_open: no FIFOs or devices) as
 * JSON within lim, fed to jansson through the scanner.  A file over
 * lim->max_bytes is refused before it is read.  The new tree, or NULL with
 * err naming path, the line and column (JSON syntax or the first excess). */
json_t *json_scan_load(const char *path, const struct json_limits *lim, size_t flags,
                       struct mha_error *err);

/* The same for text in memory (name in messages). */
json_t *json_scan_loads(const char *text, const char *name, const struct json_limits *lim,
                        size_t flags, struct mha_error *err);

/* True when the file at path holds a JSON object with one of the top-level
 * keys given (NULL-terminated) before it passes lim; read with no tree
 * built, stopping at the first key found.  False on any error and for a
 * file larger than lim->max_bytes (not read). */
bool json_scan_has_key(const char *path, const struct json_limits *lim, const char *const *keys);

#endif
