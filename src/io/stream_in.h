/* stream_in.h - a file read a 64 KiB block at a time (pread, so two
 * readers of one descriptor keep their own places), optionally through the
 * limits scanner, and the JSON numbers in it: internal to example_stream.c. */
#ifndef MHA_STREAM_IN_H
#define MHA_STREAM_IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "io/example_stream.h"
#include "io/json_scan.h"

#define STREAM_BLOCK ((size_t)1 << 16)
#define STREAM_NUMBER_MAX 64 /* longer number texts are left to jansson */

struct stream_in {
    int fd;
    char buf[STREAM_BLOCK];
    size_t len, pos;
    off_t base; /* the file offset of buf[0] */
    bool eof, err;
    struct json_scan *scan; /* scanned here (NULL: by another thread, or pass 2) */
    bool scan_bad;          /* the scanner refused the block in buf */
    struct ex_side *marks;  /* pass 1: the skeleton's length as each block starts */
    const off_t *refused;   /* pass 1: where the scanner thread refused a block, or -1 */
};

/* The next block: false at the end, on a read error, once the scanner
 * refused a block, or past where the scanner thread refused one. */
bool stream_refill(struct stream_in *in);
/* The next byte, or -1 at the end. */
int stream_peek(struct stream_in *in);
/* The file offset of the next byte. */
off_t stream_offset(const struct stream_in *in);
void stream_skip_ws(struct stream_in *in);

bool stream_number_char(int c);
struct stream_number {
    int kind;   /* 1 an integer, 2 a real; 0 not one jansson takes as it is here */
    bool exact; /* m * 10^scale is the value, both exact in a double */
    bool neg;
    uint64_t m;
    int scale;
    int whole;        /* digits before the point, plus the exponent: below 10^whole */
    const char *text; /* its text (n bytes), until the next read */
    size_t n;
    char own[STREAM_NUMBER_MAX]; /* the text when it was gathered a byte at a time */
};

/* The grammar of the number at t (up to end) and its digits into nb; the
 * bytes it takes (nb->kind 0 when it is not a number jansson takes). */
size_t stream_number_parse(const char *t, const char *end, struct stream_number *nb);
/* The number at in, in place or gathered across blocks. */
void stream_number_read(struct stream_in *in, struct stream_number *nb);
/* Step over a number below 10^6 for sure that is whole in the buffer: 1;
 * 0 (nothing stepped over) for any other. */
int stream_number_skip(struct stream_in *in);
/* strtod of the number, exactly. */
double stream_number_value(const struct stream_number *nb);

#endif
