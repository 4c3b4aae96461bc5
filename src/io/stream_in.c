/* stream_in.c - a file read a 64 KiB block at a time with pread, and the
 * JSON numbers in it (the two passes of example_stream.c). */
#include "io/stream_in.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- reading in blocks, each through the limits scanner ------------------------------- */

/* The skeleton's length where the block at base starts (pass 1). */
static int mark_block(struct ex_side *side, off_t base)
{
    const size_t k = (size_t)(base / (off_t)STREAM_BLOCK);
    if (k >= side->n_marks) {
        size_t cap = side->n_marks ? side->n_marks * 2 : 1024;
        while (cap <= k)
            cap *= 2;
        size_t *g = realloc(side->marks, cap * sizeof *g);
        if (!g)
            return -1;
        side->marks = g;
        side->n_marks = cap;
    }
    side->marks[k] = side->skel_len;
    return 0;
}

bool stream_refill(struct stream_in *in)
{
    if (in->eof || in->err || in->scan_bad)
        return false;
    if (in->refused) { /* nothing past the scanner's refusal is read */
        const off_t at = __atomic_load_n(in->refused, __ATOMIC_ACQUIRE);
        if (at >= 0 && in->base + (off_t)in->len > at) {
            in->eof = true;
            return false;
        }
    }
    in->base += (off_t)in->len;
    in->len = in->pos = 0;
    ssize_t got; /* pread: each reader keeps its own place (pass 2 runs two) */
    while ((got = pread(in->fd, in->buf, STREAM_BLOCK, in->base)) < 0 && errno == EINTR)
        ;
    if (got < 0) {
        in->err = true;
        return false;
    }
    if (got == 0) {
        in->eof = true;
        return false;
    }
    in->len = (size_t)got;
    if (in->marks && mark_block(in->marks, in->base)) {
        in->err = true;
        return false;
    }
    if (in->scan && json_scan_feed(in->scan, in->buf, in->len) != 0) {
        in->scan_bad = true; /* jansson would stop here: the scanner's message wins */
        return false;
    }
    return true;
}

int stream_peek(struct stream_in *in)
{
    if (in->pos == in->len && !stream_refill(in))
        return -1;
    return (unsigned char)in->buf[in->pos];
}

off_t stream_offset(const struct stream_in *in)
{
    return in->base + (off_t)in->pos;
}

void stream_skip_ws(struct stream_in *in)
{
    int c;
    while ((c = stream_peek(in)) == ' ' || c == '\t' || c == '\n' || c == '\r')
        in->pos++;
}

/* ---- numbers ----------------------------------------------------------------------------- */

bool stream_number_char(int c)
{
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

/* The number at t (at most up to end): the grammar
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? and its digits into nb.
 * Returns the bytes it takes (nb->kind 0 when it is not one). */
size_t stream_number_parse(const char *t, const char *end, struct stream_number *nb)
{
    const char *p = t;
    nb->kind = 0;
    nb->m = 0;
    nb->scale = 0;
    nb->neg = p < end && *p == '-';
    p += nb->neg;
    int digits = 0, whole = 0;
    if (p < end && *p == '0') {
        p++;
        whole = 1;
    } else if (p < end && *p >= '1' && *p <= '9') {
        for (; p < end && *p >= '0' && *p <= '9'; p++, digits++, whole++)
            nb->m = nb->m * 10 + (uint64_t)(*p - '0');
    } else {
        return (size_t)(p - t);
    }
    int kind = 1;
    if (p < end && *p == '.') {
        p++;
        if (!(p < end && *p >= '0' && *p <= '9'))
            return (size_t)(p - t);
        for (; p < end && *p >= '0' && *p <= '9'; p++, nb->scale--)
            if (digits || *p != '0') { /* leading zeros count for nothing */
                nb->m = nb->m * 10 + (uint64_t)(*p - '0');
                digits++;
            }
        kind = 2;
    }
    int e = 0;
    if (p < end && (*p == 'e' || *p == 'E')) {
        p++;
        const bool eneg = p < end && *p == '-';
        p += p < end && (*p == '-' || *p == '+');
        if (!(p < end && *p >= '0' && *p <= '9'))
            return (size_t)(p - t);
        for (; p < end && *p >= '0' && *p <= '9'; p++)
            e = e < 100000 ? e * 10 + (*p - '0') : e;
        e = eneg ? -e : e;
        kind = 2;
    }
    const size_t n = (size_t)(p - t);
    if ((p < end && stream_number_char((unsigned char)*p)) || n >= STREAM_NUMBER_MAX ||
        (kind == 1 && whole > 18)) /* jansson's integers stop at 2^63 */
        return n;
    nb->kind = kind;
    nb->scale += e;
    nb->whole = whole + e;
    nb->exact = digits <= 19 && nb->m < ((uint64_t)1 << 53) && nb->scale >= -22 && nb->scale <= 22;
    nb->text = t;
    nb->n = n;
    return n;
}

/* The number at in: read in place when the buffer holds all of it, else
 * gathered a byte at a time. */
void stream_number_read(struct stream_in *in, struct stream_number *nb)
{
    const char *t = in->buf + in->pos, *end = in->buf + in->len;
    const size_t n = stream_number_parse(t, end, nb);
    if (t + n < end || in->eof) { /* something follows it, or nothing does */
        in->pos += n;
        return;
    }
    size_t k = 0;
    int c;
    while ((c = stream_peek(in)) >= 0 && stream_number_char(c)) {
        if (k + 1 >= STREAM_NUMBER_MAX) {
            nb->kind = 0;
            return;
        }
        nb->own[k++] = (char)c;
        in->pos++;
    }
    char copy[STREAM_NUMBER_MAX];
    memcpy(copy, nb->own, k);
    if (stream_number_parse(copy, copy + k, nb) != k)
        nb->kind = 0;
    memcpy(nb->own, copy, k);
    nb->text = nb->own;
}

/* Step over a number that is whole in the buffer and below 10^6 for sure
 * (no exponent, at most 6 digits before the point): 1.  0 (nothing
 * stepped over) for any other, which number_read reads. */
int stream_number_skip(struct stream_in *in)
{
    const char *t = in->buf + in->pos, *end = in->buf + in->len, *p = t;
    p += p < end && *p == '-';
    const char *digits = p;
    while (p < end && *p >= '0' && *p <= '9')
        p++;
    if (p == digits || p - digits > 6)
        return 0;
    while (p < end && ((*p >= '0' && *p <= '9') || *p == '.' || *p == '-' || *p == '+'))
        p++;
    if (p == end || *p == 'e' || *p == 'E')
        return 0; /* it may go on in the next block, or has an exponent */
    in->pos += (size_t)(p - t);
    return 1;
}

static const double exact_pow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                     1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* strtod of the number: digits and a power of ten both exact in a double
 * give the correctly rounded quotient or product in one operation, as
 * strtod's result is; the rest goes to strtod. */
double stream_number_value(const struct stream_number *nb)
{
    if (!nb->exact) {
        char t[STREAM_NUMBER_MAX];
        memcpy(t, nb->text, nb->n);
        t[nb->n] = '\0';
        return strtod(t, NULL);
    }
    const double v = (double)nb->m;
    const double r = nb->scale < 0 ? v / exact_pow10[-nb->scale] : v * exact_pow10[nb->scale];
    return nb->neg ? -r : r;
}
