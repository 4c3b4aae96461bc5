/* example_stream.h - a large example file read without a tree for its
 * numbers (internal to example_io.c).
 *
 * jansson's tree of a file at the engine's largest sizes costs about 1 GB
 * and 13 s; here the file is read twice, a piece at a time, through the
 * same limits scanner (json_scan.h).  The first pass copies everything but
 * the matrices and biases into a small "skeleton" (each of those becomes
 * []) that jansson parses, and notes each matrix's shape and first bad
 * number; from_json reads the skeleton with those notes, so every message
 * is the one the tree would give.  The second pass parses the numbers
 * straight into the example's own buffers.  Whatever the first pass does
 * not follow exactly as jansson would (strings, objects or nesting inside a
 * matrix, an escaped key, a syntax error, a number jansson would refuse, a
 * skeleton over 16 MiB, no "d_model") makes the caller read the file the
 * old way, so the result is the same either way. */
#ifndef MHA_EXAMPLE_STREAM_H
#define MHA_EXAMPLE_STREAM_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <sys/types.h>

#include "engine/mha_error.h"
#include "io/json_scan.h"

/* One entry of a matrix (a row) or, for a bias, the bias itself. */
struct ex_side_row {
    int len;              /* numbers in it (a row that is not a list: 0) */
    signed char not_list; /* 0: a list; 1: an integer; 2: a real (what it is instead) */
    int bad;              /* the first number out of range, or -1 */
    double bad_value;
    off_t start; /* where its numbers start in the file */
};

enum { EX_SIDE_FIELDS = 11 }; /* query key value w_q w_k w_v w_o b_q b_k b_v b_o */

struct ex_side_field {
    bool present;
    bool vector; /* a bias: one list of numbers */
    int rows;    /* entries of the matrix (a bias: 1) */
    int cap;
    struct ex_side_row *row; /* rows entries */
    float *dst;              /* where from_json wants the numbers (pass 2 fills it) */
};

/* The mask, read whole in the first pass (a byte an entry). */
struct ex_side_mask {
    bool present;
    int rows, cap;
    int *len; /* entries of each row (-1: not a list) */
    int *bad; /* each row's first entry that is not 0, 1, true or false, or -1 */
    unsigned char *v;
    size_t n, vcap;
};

struct ex_side {
    struct ex_side_field f[EX_SIDE_FIELDS];
    struct ex_side_mask mask;
    char *skeleton; /* the file without its matrices' numbers, NUL-terminated */
    size_t skel_len, skel_cap;
    size_t *marks; /* the skeleton's length as each 64 KiB block of the file starts */
    size_t n_marks;
    struct scanner *scanner; /* the limits scanner, in a thread of its own while apart */
    pthread_t thread;
    bool apart;
    off_t stopped; /* where the first pass fell back, or -1 */
};

/* The field's notes when the first pass took it out of the skeleton, else NULL. */
struct ex_side_field *ex_side_get(struct ex_side *side, const char *name);

/* Pass 1 on the open file fd, while the limits scanner reads the file in
 * a thread of its own.  0: side holds the skeleton and notes; 1: read it
 * the old way.  Either way ex_stream_verdict (or ex_side_free) ends the
 * scanner; pass 2 may run before. */
int ex_stream_scan(int fd, const struct json_limits *lim, struct ex_side *side);

/* What the scanner found: 0 nothing; -1 with err as json_scan_load would
 * say it; 1: read the file the old way. */
int ex_stream_verdict(struct ex_side *side, const char *path, struct mha_error *err);

/* Pass 2: every field whose dst is set gets its numbers, in two threads,
 * and the numbers of the others are checked (a file from_json refused is
 * still read whole first, so a number jansson would refuse is named by it).
 * 0, or 1 when a number is not one jansson would take as it is (or the
 * file changed between the passes): read the file the old way. */
int ex_stream_fill(int fd, struct ex_side *side);

void ex_side_free(struct ex_side *side);

#endif
