/* example_stream.c - the two passes of a large example file (see
 * example_stream.h). */
#include "io/example_stream.h"
#include "io/json_read.h"
#include "io/stream_in.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SKELETON_MAX ((size_t)16 << 20)

static const char *const field_names[EX_SIDE_FIELDS] = {
    "query", "key", "value", "w_q", "w_k", "w_v", "w_o", "b_q", "b_k", "b_v", "b_o"};

/* ---- pass 1 ------------------------------------------------------------------------------ */

static int skel_put(struct ex_side *side, const char *s, size_t n)
{
    if (side->skel_len + n + 1 > side->skel_cap) {
        size_t cap = side->skel_cap ? side->skel_cap * 2 : 4096;
        while (cap < side->skel_len + n + 1)
            cap *= 2;
        if (cap > SKELETON_MAX)
            return -1;
        char *g = realloc(side->skeleton, cap);
        if (!g)
            return -1;
        side->skeleton = g;
        side->skel_cap = cap;
    }
    memcpy(side->skeleton + side->skel_len, s, n);
    side->skel_len += n;
    side->skeleton[side->skel_len] = '\0';
    return 0;
}

/* Copy one byte at in to the skeleton. */
static int copy_byte(struct stream_in *in, struct ex_side *side)
{
    const int c = stream_peek(in);
    if (c < 0)
        return -1;
    const char ch = (char)c;
    in->pos++;
    return skel_put(side, &ch, 1);
}

/* Copy a string (at its opening quote) to the skeleton; its raw text (up
 * to 15 bytes, for a key) into raw.  jansson checks what is inside. */
static int copy_string(struct stream_in *in, struct ex_side *side, char *raw, size_t raw_n)
{
    size_t k = 0;
    if (copy_byte(in, side))
        return -1;
    for (;;) {
        const int c = stream_peek(in);
        if (c < 0 || copy_byte(in, side))
            return -1;
        if (c == '"')
            break;
        if (raw && k + 1 < raw_n)
            raw[k++] = (char)c;
        else if (raw)
            raw[0] = '\0', raw = NULL; /* too long for a field we look for */
        if (c == '\\' && copy_byte(in, side))
            return -1;
    }
    if (raw)
        raw[k] = '\0';
    return 0;
}

/* Copy any value (a field we do not take out) to the skeleton. */
static int copy_value(struct stream_in *in, struct ex_side *side)
{
    int c = stream_peek(in);
    if (c == '"')
        return copy_string(in, side, NULL, 0);
    if (c != '[' && c != '{') { /* a scalar runs to a delimiter; jansson reads it */
        while ((c = stream_peek(in)) >= 0 && c != ',' && c != '}' && c != ']' && c != ' ' &&
               c != '\t' && c != '\n' && c != '\r')
            if (copy_byte(in, side))
                return -1;
        return 0;
    }
    int depth = 0;
    do {
        c = stream_peek(in);
        if (c < 0)
            return -1;
        if (c == '"') {
            if (copy_string(in, side, NULL, 0))
                return -1;
            continue;
        }
        depth += c == '[' || c == '{';
        depth -= c == ']' || c == '}';
        if (copy_byte(in, side))
            return -1;
    } while (depth > 0);
    return 0;
}

/* Lists longer than the limits allow are the scanner's to name: the first
 * pass stops there (and its notes never outgrow what a file may hold). */
static size_t list_max = 2048;

static struct ex_side_row *add_row(struct ex_side_field *f)
{
    if ((size_t)f->rows >= list_max)
        return NULL;
    if (f->rows == f->cap) {
        const int cap = f->cap ? 2 * f->cap : 64;
        struct ex_side_row *g = realloc(f->row, (size_t)cap * sizeof *g);
        if (!g)
            return NULL;
        f->row = g;
        f->cap = cap;
    }
    struct ex_side_row *r = &f->row[f->rows++];
    memset(r, 0, sizeof *r);
    r->bad = -1;
    return r;
}

/* The numbers of a list at in ('[' next) into row: their count and the
 * first out of range.  0, or 1 when it holds anything but numbers. */
/* One entry the slow way: a number read whole when it may pass 10^6 (for
 * its message) or runs into the next block. 0, or 1 to fall back. */
static int list_entry(struct stream_in *in, struct ex_side_row *row)
{
    struct stream_number nb;
    if (stream_number_skip(in))
        return 0;
    stream_number_read(in, &nb);
    if (!nb.kind)
        return 1;
    if (nb.whole > 6 && row->bad < 0) {
        const double v = stream_number_value(&nb);
        if (!isfinite(v))
            return 1; /* jansson refuses an overflowing real */
        if (fabs(v) > JREAD_MAX_ABS) {
            row->bad = row->len;
            row->bad_value = v;
        }
    }
    return 0;
}

static bool ws(char c)
{
    return c == ' ' || c == '\n' || c == '\t' || c == '\r';
}

/* The numbers of a list at in ('[' next) into row: their count and the
 * first out of range.  Most are only stepped over (pass 2 reads them, and
 * a number jansson would refuse makes it leave the file to jansson).  0,
 * or 1 when it holds anything but numbers. */
static int number_list(struct stream_in *in, struct ex_side_row *row)
{
    in->pos++; /* [ */
    stream_skip_ws(in);
    row->start = stream_offset(in);
    if (stream_peek(in) == ']') {
        in->pos++;
        return 0;
    }
    bool want_number = true;
    for (;;) {
        /* the entries whole in the buffer, below 10^6 for sure (no exponent,
         * at most 6 digits before the point), a byte at a time */
        const char *p = in->buf + in->pos, *end = in->buf + in->len;
        while (p < end) {
            if (want_number) {
                while (p < end && ws(*p))
                    p++;
                const char *t = p;
                p += p < end && *p == '-';
                const char *d = p;
                while (p < end && *p >= '0' && *p <= '9')
                    p++;
                const long lead = p - d;
                while (p < end && ((*p >= '0' && *p <= '9') || *p == '.'))
                    p++;
                if (p == end || lead == 0 || lead > 6 || *p == 'e' || *p == 'E' || *p == '-' ||
                    *p == '+') {
                    p = t; /* the slow way, below */
                    break;
                }
                if ((size_t)++row->len > list_max)
                    return 1;
                want_number = false;
            }
            while (p < end && ws(*p))
                p++;
            if (p == end)
                break;
            if (*p == ']') {
                in->pos = (size_t)(p + 1 - in->buf);
                return 0;
            }
            if (*p != ',')
                return 1;
            p++;
            want_number = true;
        }
        in->pos = (size_t)(p - in->buf);
        if (want_number) {
            stream_skip_ws(in);
            if (list_entry(in, row) || (size_t)++row->len > list_max)
                return 1;
            want_number = false;
        }
        stream_skip_ws(in);
        const int c = stream_peek(in);
        if (c < 0)
            return 1;
        in->pos++;
        if (c == ']')
            return 0;
        if (c != ',')
            return 1;
        want_number = true;
    }
}

/* A matrix or a bias's value at in ('[' next). 0, or 1 to fall back. */
static int take_field(struct stream_in *in, struct ex_side_field *f)
{
    f->present = true;
    if (f->vector) {
        struct ex_side_row *r = add_row(f);
        return !r || number_list(in, r);
    }
    in->pos++; /* [ */
    stream_skip_ws(in);
    if (stream_peek(in) == ']') {
        in->pos++;
        return 0;
    }
    struct stream_number nb;
    for (;;) {
        stream_skip_ws(in);
        struct ex_side_row *r = add_row(f);
        if (!r)
            return 1;
        const int c = stream_peek(in);
        if (c == '[') {
            if (number_list(in, r))
                return 1;
        } else {
            stream_number_read(in, &nb); /* a row that is a number */
            if (!nb.kind || !isfinite(stream_number_value(&nb)))
                return 1;
            r->not_list = (signed char)nb.kind;
        }
        stream_skip_ws(in);
        const int d = stream_peek(in);
        in->pos++;
        if (d == ']')
            return 0;
        if (d != ',')
            return 1;
    }
}

/* A literal at in (true, false, null): 1 when the bytes there are word
 * followed by a delimiter. */
static int literal(struct stream_in *in, const char *word)
{
    for (const char *w = word; *w; w++) {
        if (stream_peek(in) != *w)
            return 0;
        in->pos++;
    }
    const int c = stream_peek(in);
    return c < 0 || !((c >= 'a' && c <= 'z') || stream_number_char(c));
}

/* One mask entry into m: 0 or 1 kept, anything else marked bad. 0, or 1
 * to fall back (what jansson would read differently). */
static int mask_entry(struct stream_in *in, struct ex_side_mask *m, int *len, int *bad)
{
    int keep = -1;
    const int c = stream_peek(in);
    if (c == 't' || c == 'f' || c == 'n') {
        if (!literal(in, c == 't' ? "true" : c == 'f' ? "false" : "null"))
            return 1;
        keep = c == 't' ? 1 : c == 'f' ? 0 : -1;
    } else {
        struct stream_number nb;
        stream_number_read(in, &nb);
        if (!nb.kind)
            return 1;
        if (nb.kind == 1 && nb.m <= 1 && !(nb.m == 1 && nb.neg)) /* 0, 1 or -0 */
            keep = (int)nb.m;
    }
    if ((size_t)*len >= list_max)
        return 1;
    if (keep < 0 && *bad < 0)
        *bad = *len;
    if (m->n == m->vcap) {
        const size_t cap = m->vcap ? 2 * m->vcap : 4096;
        unsigned char *g = realloc(m->v, cap);
        if (!g)
            return 1;
        m->v = g;
        m->vcap = cap;
    }
    m->v[m->n++] = (unsigned char)(keep > 0);
    (*len)++;
    return 0;
}

/* The mask's value at in ('[' next). 0, or 1 to fall back. */
static int take_mask(struct stream_in *in, struct ex_side_mask *m)
{
    m->present = true;
    in->pos++; /* [ */
    stream_skip_ws(in);
    if (stream_peek(in) == ']') {
        in->pos++;
        return 0;
    }
    for (;;) {
        stream_skip_ws(in);
        if ((size_t)m->rows >= list_max)
            return 1;
        if (m->rows == m->cap) {
            const int cap = m->cap ? 2 * m->cap : 64;
            int *l = realloc(m->len, (size_t)cap * sizeof *l);
            if (l)
                m->len = l;
            int *b = l ? realloc(m->bad, (size_t)cap * sizeof *b) : NULL;
            if (!b)
                return 1;
            m->bad = b;
            m->cap = cap;
        }
        int *len = &m->len[m->rows], *bad = &m->bad[m->rows];
        m->rows++;
        *len = 0;
        *bad = -1;
        if (stream_peek(in) == '[') {
            in->pos++;
            stream_skip_ws(in);
            if (stream_peek(in) == ']')
                in->pos++;
            else
                for (;;) {
                    stream_skip_ws(in);
                    if (mask_entry(in, m, len, bad))
                        return 1;
                    stream_skip_ws(in);
                    const int c = stream_peek(in);
                    in->pos++;
                    if (c == ']')
                        break;
                    if (c != ',')
                        return 1;
                }
        } else { /* a row that is not a list: jansson's "row N must hold" */
            int dummy = 0, dummy_bad = -1;
            if (mask_entry(in, m, &dummy, &dummy_bad))
                return 1;
            m->n--;
            *len = -1;
        }
        stream_skip_ws(in);
        const int d = stream_peek(in);
        in->pos++;
        if (d == ']')
            return 0;
        if (d != ',')
            return 1;
    }
}

static int field_index(const char *key)
{
    for (int i = 0; i < EX_SIDE_FIELDS; i++)
        if (!strcmp(key, field_names[i]))
            return i;
    return -1;
}

/* The root object, field by field. 0, or 1 to fall back. */
static int top_level(struct stream_in *in, struct ex_side *side)
{
    stream_skip_ws(in);
    if (stream_peek(in) != '{' || copy_byte(in, side))
        return 1;
    for (;;) {
        stream_skip_ws(in);
        int c = stream_peek(in);
        if (c == '}')
            break;
        char key[16];
        if (c != '"' || copy_string(in, side, key, sizeof key))
            return 1;
        stream_skip_ws(in);
        if (stream_peek(in) != ':' || copy_byte(in, side))
            return 1;
        stream_skip_ws(in);
        const int i = field_index(key);
        if (!strcmp(key, "mask") && stream_peek(in) == '[') {
            if (side->mask.present)
                return 1;
            if (take_mask(in, &side->mask) || skel_put(side, "[]", 2))
                return 1;
        } else if (i >= 0 && stream_peek(in) == '[') {
            if (side->f[i].present)
                return 1; /* jansson names the second one where it is */
            if (take_field(in, &side->f[i]) || skel_put(side, "[]", 2))
                return 1;
        } else if (copy_value(in, side)) {
            return 1;
        }
        stream_skip_ws(in);
        c = stream_peek(in);
        if (c == ',') {
            if (copy_byte(in, side))
                return 1;
            continue;
        }
        if (c != '}')
            return 1;
    }
    if (copy_byte(in, side))
        return 1;
    stream_skip_ws(in);
    return stream_peek(in) >= 0 || in->err; /* only white space after it */
}

/* The limits scanner over the whole file, a block at a time, in a thread
 * of its own beside the first pass. */
struct scanner {
    int fd;
    struct json_scan scan;
    off_t failed_at; /* the start of the block refused, or -1 */
};

static void *scan_file(void *arg)
{
    struct scanner *sc = arg;
    char *buf = malloc(STREAM_BLOCK);
    off_t at = 0;
    ssize_t got;
    while (buf) {
        while ((got = pread(sc->fd, buf, STREAM_BLOCK, at)) < 0 && errno == EINTR)
            ;
        if (got <= 0)
            break;
        if (json_scan_feed(&sc->scan, buf, (size_t)got) != 0) {
            __atomic_store_n(&sc->failed_at, at, __ATOMIC_RELEASE);
            break;
        }
        at += got;
    }
    free(buf);
    return NULL;
}

int ex_stream_scan(int fd, const struct json_limits *lim, struct ex_side *side)
{
    memset(side, 0, sizeof *side);
    for (int i = 0; i < EX_SIDE_FIELDS; i++)
        side->f[i].vector = field_names[i][0] == 'b';
    struct scanner *sc = calloc(1, sizeof *sc);
    struct stream_in *in = calloc(1, sizeof *in);
    if (!sc || !in) {
        free(sc);
        free(in);
        return 1;
    }
    sc->fd = fd;
    sc->failed_at = -1;
    json_scan_init(&sc->scan, lim);
    list_max = lim->max_items;
    side->scanner = sc;
    side->apart = pthread_create(&side->thread, NULL, scan_file, sc) == 0;
    in->fd = fd;
    in->marks = side;
    in->refused = side->apart ? &sc->failed_at : NULL;
    if (!side->apart)
        in->scan = &sc->scan; /* no thread: scan as the blocks come */
    const int rc = top_level(in, side);
    side->stopped = rc ? stream_offset(in) : -1;
    if (!side->apart)
        sc->failed_at = in->scan_bad ? in->base : -1;
    const bool read_err = in->err;
    free(in);
    return rc || read_err ? 1 : 0;
}

int ex_stream_verdict(struct ex_side *side, const char *path, struct mha_error *err)
{
    struct scanner *sc = side->scanner;
    if (!sc)
        return 1;
    if (side->apart)
        pthread_join(side->thread, NULL);
    side->apart = false;
    side->scanner = NULL;
    int rc = side->stopped >= 0 ? 1 : 0;
    if (sc->failed_at >= 0 && (side->stopped < 0 || side->stopped >= sc->failed_at)) {
        /* jansson would have read every byte before the refused block: the
         * scanner's message is the one, unless the skeleton up to there
         * holds a mistake jansson would have named first */
        const size_t k = (size_t)(sc->failed_at / (off_t)STREAM_BLOCK);
        const size_t len = k < side->n_marks && side->skeleton ? side->marks[k] : side->skel_len;
        char *prefix = strndup(side->skeleton ? side->skeleton : "", len);
        json_error_t je;
        json_t *root = prefix ? json_loads(prefix, JSON_REJECT_DUPLICATES, &je) : NULL;
        const bool clean = prefix && (root || (size_t)je.position >= len);
        json_decref(root);
        free(prefix);
        rc = 1;
        if (clean) {
            mha_error_clear(err);
            mha_error_set(err, "%s", sc->scan.why);
            mha_error_at(err, path, sc->scan.line > 0 ? sc->scan.line : 0,
                         sc->scan.column > 0 ? sc->scan.column : 0);
            rc = -1;
        }
    }
    free(sc);
    return rc;
}

/* ---- pass 2 ------------------------------------------------------------------------------ */

static int seek_to(struct stream_in *in, off_t at)
{
    if (at >= in->base && at <= in->base + (off_t)in->len) {
        in->pos = (size_t)(at - in->base);
        return 0;
    }
    in->base = at;
    in->len = in->pos = 0;
    in->eof = false;
    return 0;
}

static int fill_row(struct stream_in *in, const struct ex_side_row *r, float *dst, int fd)
{
    in->fd = fd;
    struct stream_number nb;
    if (seek_to(in, r->start))
        return -1;
    for (int j = 0; j < r->len; j++) {
        stream_skip_ws(in);
        stream_number_read(in, &nb);
        if (!nb.kind)
            return -1;
        dst[j] = (float)stream_number_value(&nb);
        stream_skip_ws(in);
        const int c = stream_peek(in);
        in->pos++;
        if (c != (j + 1 < r->len ? ',' : ']'))
            return -1;
    }
    return 0;
}

/* One thread's share of pass 2: the fields whose bit is set in mask. */
struct filler {
    int fd;
    struct ex_side *side;
    unsigned mask;
    int rc;
};

static void *fill_fields(void *arg)
{
    struct filler *w = arg;
    struct stream_in *in = calloc(1, sizeof *in);
    float *scratch = NULL; /* a field with nowhere to go: its numbers only checked */
    w->rc = in ? 0 : -1;
    for (int i = 0; i < EX_SIDE_FIELDS && !w->rc; i++) {
        const struct ex_side_field *f = &w->side->f[i];
        size_t at = 0;
        for (int r = 0; (w->mask >> i & 1) && f->present && r < f->rows && !w->rc; r++) {
            float *dst = f->dst ? f->dst + at : NULL;
            if (!dst) {
                free(scratch);
                scratch = malloc(((size_t)f->row[r].len + 1) * sizeof *scratch);
                dst = scratch;
            }
            w->rc = dst ? fill_row(in, &f->row[r], dst, w->fd) : -1;
            at += (size_t)f->row[r].len;
        }
    }
    free(scratch);
    free(in);
    return NULL;
}

int ex_stream_fill(int fd, struct ex_side *side)
{
    /* two threads, the fields shared out by how many numbers they hold */
    size_t load[2] = {0, 0};
    unsigned mask[2] = {0, 0};
    for (int i = 0; i < EX_SIDE_FIELDS; i++) {
        size_t n = 0;
        for (int r = 0; side->f[i].present && r < side->f[i].rows; r++)
            n += (size_t)side->f[i].row[r].len;
        const int k = load[1] < load[0];
        load[k] += n;
        mask[k] |= 1u << i;
    }
    struct filler w[2] = {{fd, side, mask[0], 0}, {fd, side, mask[1], 0}};
    pthread_t other;
    const bool two =
        load[1] > ((size_t)1 << 16) && pthread_create(&other, NULL, fill_fields, &w[1]) == 0;
    fill_fields(&w[0]);
    if (two)
        pthread_join(other, NULL);
    else
        fill_fields(&w[1]);
    return w[0].rc || w[1].rc ? 1 : 0;
}

struct ex_side_field *ex_side_get(struct ex_side *side, const char *name)
{
    const int i = field_index(name);
    return side && i >= 0 && side->f[i].present ? &side->f[i] : NULL;
}

void ex_side_free(struct ex_side *side)
{
    if (side->scanner) { /* the thread ends before its file is closed */
        struct mha_error ignored;
        ex_stream_verdict(side, "", &ignored);
    }
    for (int i = 0; i < EX_SIDE_FIELDS; i++)
        free(side->f[i].row);
    free(side->skeleton);
    free(side->marks);
    free(side->mask.len);
    free(side->mask.bad);
    free(side->mask.v);
    memset(side, 0, sizeof *side);
}
