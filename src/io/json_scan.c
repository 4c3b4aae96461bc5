/* json_scan.c - count what a JSON text will build before jansson builds
 * it, and feed jansson through that count. */
#include "io/json_scan.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/safe_file.h"

void json_scan_init(struct json_scan *s, const struct json_limits *lim)
{
    memset(s, 0, sizeof *s);
    s->lim = lim;
    s->line = 1;
}

/* "a batch file", "an example file". */
static const char *article(const char *what)
{
    return strchr("aeiou", what[0]) ? "an" : "a";
}

/* Where the container at depth d is: "\"tokens\"[17]" and the like. */
static void where(const struct json_scan *s, int d, char *out, size_t n)
{
    if (d < 1 || !s->object[1] || !s->top_key_len) {
        snprintf(out, n, "the file");
        return;
    }
    size_t used = (size_t)snprintf(out, n, "\"%s%s\"", s->top_key,
                                   s->top_key_len >= sizeof s->top_key ? "..." : "");
    for (int l = 2; l < d && used < n; l++)
        used += (size_t)snprintf(out + used, n - used, "[%zu]", s->items[l] - 1);
}

static int excess(struct json_scan *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static int excess(struct json_scan *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->why, sizeof s->why, fmt, ap);
    va_end(ap);
    return -1;
}

/* One more value at the current depth (an entry when that depth is a list). */
static int value(struct json_scan *s)
{
    const struct json_limits *lim = s->lim;
    char at[160];
    if (++s->values > lim->max_values) {
        where(s, s->depth, at, sizeof at);
        return excess(s, "more than %zu values in all (at %s); %s %s holds at most that many",
                      lim->max_values, at, article(lim->what), lim->what);
    }
    if (s->depth > 0 && !s->object[s->depth] && ++s->items[s->depth] > lim->max_items) {
        where(s, s->depth, at, sizeof at);
        return excess(s, "%s has more than %zu entries; no list in %s %s holds more", at,
                      lim->max_items, article(lim->what), lim->what);
    }
    return 0;
}

/* A key in the object at the current depth. */
static int key(struct json_scan *s)
{
    char at[160];
    if (++s->items[s->depth] > s->lim->max_items) {
        where(s, s->depth, at, sizeof at);
        return excess(s, "%s has more than %zu fields; no object in %s %s holds more", at,
                      s->lim->max_items, article(s->lim->what), s->lim->what);
    }
    s->key_string = true;
    if (s->depth == 1) {
        s->top_key_len = 0;
        s->top_key[0] = '\0';
        s->top_key_done = false;
    }
    return 0;
}

/* A list or object opens. */
static int open_container(struct json_scan *s, bool object)
{
    const struct json_limits *lim = s->lim;
    char at[160];
    if (value(s) != 0)
        return -1;
    if (++s->containers > lim->max_containers) {
        where(s, s->depth, at, sizeof at);
        return excess(s,
                      "more than %zu lists and objects in all (at %s); %s %s holds at most "
                      "that many",
                      lim->max_containers, at, article(lim->what), lim->what);
    }
    if (s->depth + 1 > lim->max_depth || s->depth + 1 > JSON_SCAN_MAX_DEPTH) {
        where(s, s->depth + 1, at, sizeof at);
        return excess(s, "%s nests lists and objects %d deep; %s %s nests at most %d", at,
                      s->depth + 1, article(lim->what), lim->what, lim->max_depth);
    }
    s->depth++;
    s->items[s->depth] = 0;
    s->object[s->depth] = object;
    s->want_key = object;
    return 0;
}

/* A character of a string: kept when it is a top-level key's. */
static void string_char(struct json_scan *s, char c)
{
    if (!s->key_string || s->depth != 1 || s->top_key_done)
        return;
    if (s->top_key_len < sizeof s->top_key - 1) {
        const unsigned char u = (unsigned char)c;
        s->top_key[s->top_key_len] = u >= 0x20 && u < 0x7f && c != '"' ? c : '?';
        s->top_key[s->top_key_len + 1] = '\0';
    }
    s->top_key_len++;
}

int json_scan_feed(struct json_scan *s, const char *text, size_t n)
{
    if (s->why[0])
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s->in_scalar && !s->in_string) {
            /* a number's digits at once: ASCII, no newline, nothing to count */
            size_t j = i;
            while (j < n && ((text[j] >= '0' && text[j] <= '9') || text[j] == '.' ||
                             text[j] == '-' || text[j] == '+' || text[j] == 'e' || text[j] == 'E'))
                j++;
            if (s->bytes + (j - i) <= s->lim->max_bytes) {
                s->bytes += j - i;
                s->column += (int)(j - i);
                i = j;
                if (i == n)
                    break;
            }
        }
        const char c = text[i];
        if (c == '\n') {
            s->line++;
            s->column = 0;
        } else if (((unsigned char)c & 0xc0) != 0x80) { /* a character, not a UTF-8 tail */
            s->column++;
        }
        if (++s->bytes > s->lim->max_bytes)
            return excess(s, "the file is larger than %zu bytes; is it %s %s?", s->lim->max_bytes,
                          article(s->lim->what), s->lim->what);
        if (s->in_string) {
            if (s->escape)
                s->escape = false;
            else if (c == '\\')
                s->escape = true;
            else if (c == '"') {
                s->in_string = false;
                if (s->key_string && s->depth == 1) {
                    s->top_key_done = true;
                    for (const char *const *k = s->watch; k && *k && !s->found; k++)
                        s->found = s->top_key_len < sizeof s->top_key && !strcmp(s->top_key, *k);
                    if (s->found)
                        return -1; /* what json_scan_has_key looks for */
                }
                continue;
            }
            string_char(s, c);
            continue;
        }
        if (s->in_scalar) {
            if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                c == '.' || c == '+' || c == '-')
                continue;
            s->in_scalar = false;
        }
        int rc = 0;
        switch (c) {
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            break;
        case '"':
            if (s->depth > 0 && s->object[s->depth] && s->want_key) {
                rc = key(s);
                s->want_key = false;
            } else {
                s->key_string = false;
                rc = value(s);
            }
            s->in_string = true;
            break;
        case '{':
        case '[':
            rc = open_container(s, c == '{');
            break;
        case '}':
        case ']':
            if (s->depth > 0)
                s->depth--;
            s->want_key = false;
            break;
        case ',':
            s->want_key = s->depth > 0 && s->object[s->depth];
            break;
        case ':':
            s->want_key = false;
            break;
        default: /* a number, true, false, null (or a mistake jansson names) */
            s->in_scalar = true;
            rc = value(s);
            break;
        }
        if (rc != 0)
            return -1;
    }
    return 0;
}

/* ---- feeding jansson ------------------------------------------------------------------- */

struct feeder {
    int fd;
    struct json_scan scan;
    int read_errno;
    char buf[1 << 16];
    size_t len, pos;
};

static size_t feed(void *out, size_t size, void *data)
{
    struct feeder *f = data;
    if (f->pos == f->len) {
        ssize_t got;
        while ((got = read(f->fd, f->buf, sizeof f->buf)) < 0 && errno == EINTR)
            ;
        if (got < 0) {
            f->read_errno = errno;
            return (size_t)-1;
        }
        if (got == 0)
            return 0;
        if (json_scan_feed(&f->scan, f->buf, (size_t)got) != 0)
            return (size_t)-1; /* jansson stops before the excess */
        f->len = (size_t)got;
        f->pos = 0;
    }
    const size_t n = f->len - f->pos < size ? f->len - f->pos : size;
    memcpy(out, f->buf + f->pos, n);
    f->pos += n;
    return n;
}

static void set_error(struct mha_error *err, const char *name, int line, int column,
                      const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;

/* jansson's words for a mistake in the user's: it names a flag of its own
 * where a string holds \u0000 (a text with a NUL in it). */
static const char *jansson_words(const json_error_t *je)
{
    if (strstr(je->text, "JSON_ALLOW_NUL"))
        return "a string holds \\u0000, a NUL character, which no text of the file may hold";
    return je->text;
}

static void set_error(struct mha_error *err, const char *name, int line, int column,
                      const char *fmt, ...)
{
    if (!err)
        return;
    mha_error_clear(err);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->text, sizeof err->text, fmt, ap);
    va_end(ap);
    mha_error_at(err, name, line > 0 ? line : 0, column > 0 ? column : 0);
}

json_t *json_scan_load(const char *path, const struct json_limits *lim, size_t flags,
                       struct mha_error *err)
{
    const int fd = safe_file_open(path, err);
    if (fd < 0)
        return NULL;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size > 0 && (uintmax_t)st.st_size > lim->max_bytes) {
        close(fd);
        set_error(err, path, 0, 0, "the file is larger than %zu bytes; is it %s %s?",
                  lim->max_bytes, article(lim->what), lim->what);
        return NULL;
    }
    struct feeder *f = calloc(1, sizeof *f);
    if (!f) {
        close(fd);
        set_error(err, path, 0, 0, "out of memory");
        return NULL;
    }
    f->fd = fd;
    json_scan_init(&f->scan, lim);
    json_error_t je;
    json_t *root = json_load_callback(feed, f, flags, &je);
    close(fd);
    if (f->scan.why[0]) {
        json_decref(root);
        root = NULL;
        set_error(err, path, f->scan.line, f->scan.column, "%s", f->scan.why);
    } else if (f->read_errno) {
        json_decref(root);
        root = NULL;
        set_error(err, path, 0, 0, "cannot read: %s", strerror(f->read_errno));
    } else if (!root) {
        set_error(err, path, je.line, je.column, "not valid JSON: %s", jansson_words(&je));
    }
    free(f);
    return root;
}

json_t *json_scan_loads(const char *text, const char *name, const struct json_limits *lim,
                        size_t flags, struct mha_error *err)
{
    struct json_scan s;
    json_scan_init(&s, lim);
    if (json_scan_feed(&s, text, strlen(text)) != 0) {
        set_error(err, name, s.line, s.column, "%s", s.why);
        return NULL;
    }
    json_error_t je;
    json_t *root = json_loads(text, flags, &je);
    if (!root)
        set_error(err, name, je.line, je.column, "not valid JSON: %s", jansson_words(&je));
    return root;
}

bool json_scan_has_key(const char *path, const struct json_limits *lim, const char *const *keys)
{
    struct mha_error err;
    const int fd = safe_file_open(path, &err);
    if (fd < 0)
        return false;
    struct stat st;
    if (fstat(fd, &st) != 0 || (uintmax_t)st.st_size > lim->max_bytes) {
        close(fd);
        return false;
    }
    /* a file past lim (an example's long rows) stops the scan: not this kind */
    struct json_scan s;
    json_scan_init(&s, lim);
    s.watch = keys;
    char buf[1 << 16];
    for (;;) {
        const ssize_t got = read(fd, buf, sizeof buf);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0 || json_scan_feed(&s, buf, (size_t)got) != 0 || (s.depth == 0 && s.values > 0))
            break;
    }
    close(fd);
    return s.found && s.object[1];
}
