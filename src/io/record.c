/* record.c - reading and writing recordings. */
#include "io/record.h"
#include "io/safe_file.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define REC_MAGIC "mha-explorer-recording 1"
#define REC_MAGIC_2 "mha-explorer-recording 2"
/* what a message asks for: the line the program writes, and the older one */
#define REC_MAGIC_WORDS "\"" REC_MAGIC_2 "\" (or \"" REC_MAGIC "\", a recording of keys only)"

static const struct {
    const char *name;
    int key;
} named[] = {
    {"space", ' '},
    {"hash", '#'},
    {"enter", REC_KEY_ENTER},
    {"tab", REC_KEY_TAB},
    {"backspace", REC_KEY_BACKSPACE},
    {"escape", REC_KEY_ESCAPE},
    {"left", REC_KEY_LEFT},
    {"right", REC_KEY_RIGHT},
    {"up", REC_KEY_UP},
    {"down", REC_KEY_DOWN},
    {"pageup", REC_KEY_PAGEUP},
    {"pagedown", REC_KEY_PAGEDOWN},
    {"home", REC_KEY_HOME},
    {"end", REC_KEY_END},
    {"delete", REC_KEY_DELETE},
    {"resize", REC_KEY_RESIZE},
    {"backtab", REC_KEY_BACKTAB},
    {"f1", REC_KEY_F1},
    {"click", REC_KEY_CLICK},
    {"wheel-up", REC_KEY_WHEEL_UP},
    {"wheel-down", REC_KEY_WHEEL_DOWN},
};

const char *rec_key_name(int key, char *buf)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i].key == key) {
            snprintf(buf, 16, "%s", named[i].name);
            return buf;
        }
    if (key >= 1 && key <= 26)
        snprintf(buf, 16, "ctrl-%c", 'a' + key - 1);
    else if (key > 0x20 && key < 0x7f)
        snprintf(buf, 16, "%c", key);
    else
        snprintf(buf, 16, "U+%04X", (unsigned)key);
    return buf;
}

int rec_key_from_name(const char *name)
{
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (strcmp(named[i].name, name) == 0)
            return named[i].key;
    if (strncmp(name, "ctrl-", 5) == 0 && name[5] >= 'a' && name[5] <= 'z' && !name[6])
        return name[5] - 'a' + 1;
    if (name[0] > 0x20 && name[0] < 0x7f && name[0] != '#' && !name[1])
        return name[0];
    if (strncmp(name, "U+", 2) == 0 && name[2]) {
        char *end;
        unsigned long cp = strtoul(name + 2, &end, 16);
        if (!*end && cp > 0 && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF))
            return (int)cp;
    }
    return -1;
}

static int fail_at(struct mha_error *err, const char *name, int line, const char *fmt,
                   const char *arg)
{
    mha_error_clear(err);
    mha_error_set(err, fmt, arg);
    mha_error_at(err, name, line, 0);
    return -1;
}

/* "# state ...": the teacher's state after the events so far, at the
 * time of the last event or of a later "# at" (autoplay and training move
 * the teacher between keys).  Each line is an entry of its own, so a
 * replay plays the moves at their times and a follower sees each, but two
 * at the same place and time are one; past REC_MAX_STATES entries a line
 * merges into the last (state_lines still counts it: a follower applies
 * it). */
static int state_line(struct rec_reader *rd, const char *text, const char *name,
                      struct mha_error *err)
{
    struct recording *out = rd->out;
    const double t = rd->mark > rd->last ? rd->mark : rd->last;
    struct rec_state_at *last = out->n_states ? &out->states[out->n_states - 1] : NULL;
    if (!last || ((last->at != out->n || last->t != t) && out->n_states < REC_MAX_STATES)) {
        if (out->n_states == rd->state_cap) {
            const int cap = rd->state_cap ? 2 * rd->state_cap : 16;
            struct rec_state_at *g = realloc(out->states, (size_t)cap * sizeof *g);
            if (!g)
                return fail_at(err, name, rd->line, "out of memory%s", "");
            out->states = g;
            rd->state_cap = cap;
        }
        struct rec_state_at *e = &out->states[out->n_states];
        if (out->n_states)
            e->s = out->states[out->n_states - 1].s;
        else
            rec_state_clear(&e->s);
        e->at = out->n;
        e->t = t;
        out->n_states++;
    }
    rec_state_merge(&out->states[out->n_states - 1].s, text);
    out->state_lines++;
    return 1;
}

/* "# at T": the teacher's clock, for the state lines after it. */
static void mark_line(struct rec_reader *rd, const char *s)
{
    double t;
    int used = 0;
    if (sscanf(s, "# at %lf%n", &t, &used) == 1 && s[used] == '\0' && isfinite(t) &&
        t >= rd->last && t >= rd->mark && t <= REC_MAX_SECONDS)
        rd->mark = t;
}

bool rec_is_snap_line(const char *s, size_t len)
{
    return len >= strlen(REC_SNAP_PREFIX) && !memcmp(s, REC_SNAP_PREFIX, strlen(REC_SNAP_PREFIX));
}

/* "# snap ...": a part of a snapshot of the teacher's training run; a
 * whole one goes into out->snaps.  A bad one is dropped (rec_snap.h). */
static int snap_line(struct rec_reader *rd, const char *text, const char *name,
                     struct mha_error *err)
{
    struct recording *out = rd->out;
    struct rec_snap done;
    const int r = rec_snap_line(&rd->snap, text, &done);
    if (r < 0)
        return fail_at(err, name, rd->line,
                       "a training snapshot holds a number that is not finite (NaN or "
                       "infinity)%s",
                       "");
    if (r == 2)
        out->snaps_on = true;
    if (r != 1)
        return 1;
    if (out->n_snaps == rd->snap_cap) {
        const int cap = rd->snap_cap ? 2 * rd->snap_cap : 16;
        struct rec_snap *g = realloc(out->snaps, (size_t)cap * sizeof *g);
        if (!g) {
            rec_snap_free(&done);
            return fail_at(err, name, rd->line, "out of memory%s", "");
        }
        out->snaps = g;
        rd->snap_cap = cap;
    }
    done.at = out->n;
    out->snaps[out->n_snaps++] = done;
    return 1;
}

void rec_reader_done(struct rec_reader *rd)
{
    rec_snap_reader_free(&rd->snap);
}

/* A line that is not a key: blank, a comment, the first line, or one of
 * a version 2 recording's start lines.  1 when it was one of them, 0 when it
 * is an event to parse, -1 with err. */
static int other_line(struct rec_reader *rd, const char *s, const char *name, struct mha_error *err)
{
    struct recording *out = rd->out;
    if (rd->header && !strncmp(s, REC_STATE_PREFIX, strlen(REC_STATE_PREFIX)))
        return state_line(rd, s + strlen(REC_STATE_PREFIX), name, err);
    if (rd->header && rec_is_snap_line(s, strlen(s)))
        return snap_line(rd, s + strlen(REC_SNAP_PREFIX), name, err);
    if (rd->header && !strncmp(s, "# at ", 5))
        mark_line(rd, s);
    if (!*s || *s == '#')
        return 1;
    if (!rd->header) {
        if (strcmp(s, REC_MAGIC) != 0 && strcmp(s, REC_MAGIC_2) != 0)
            return fail_at(err, name, rd->line, "not a recording: the first line must be %s",
                           REC_MAGIC_WORDS);
        out->version = strcmp(s, REC_MAGIC) == 0 ? 1 : 2;
        rd->header = true;
        return 1;
    }
    if (out->version == 2 && out->n == 0) {
        const int st = rec_start_line(&out->start, s, err);
        if (st < 0)
            mha_error_at(err, name, rd->line, 0);
        return st;
    }
    return 0;
}

/* "<seconds> <key>" or "<seconds> <mouse key> <row> <column>" into *e. */
static int event_line(struct rec_reader *rd, char *s, const char *name, struct rec_event *e,
                      struct mha_error *err)
{
    char *end;
    errno = 0;
    double t = strtod(s, &end);
    if (end == s || errno || !isfinite(t) || (*end != ' ' && *end != '\t'))
        return fail_at(err, name, rd->line, "expected \"<seconds> <key>\", got \"%s\"", s);
    if (t < rd->last || t > REC_MAX_SECONDS) {
        *end = '\0'; /* the time alone */
        return fail_at(err, name, rd->line,
                       t < rd->last ? "time %s goes backwards" : "time %s is beyond a day", s);
    }
    while (*end == ' ' || *end == '\t')
        end++;
    char *stop = end;
    while (*stop && *stop != ' ' && *stop != '\t')
        stop++;
    bool trailing = *stop != '\0';
    *stop = '\0';
    int key = rec_key_from_name(end);
    int y = 0, x = 0;
    if (key >= 0 && rec_key_is_mouse(key)) {
        int used = 0;
        if (!trailing || sscanf(stop + 1, " %d %d %n", &y, &x, &used) != 2 ||
            stop[1 + used] != '\0' || y < 0 || x < 0 || y >= REC_MAX_SCREEN || x >= REC_MAX_SCREEN)
            return fail_at(err, name, rd->line,
                           "\"%s\" needs the screen row and column it happened at, e.g. "
                           "\"click 12 40\"",
                           end);
        trailing = false;
    }
    if (key < 0 || trailing)
        return fail_at(err, name, rd->line,
                       trailing ? "one key per line; extra text after \"%s\""
                                : "unknown key \"%s\" (a character, a name such as "
                                  "left or enter, or U+XXXX)",
                       end);
    *e = (struct rec_event){.t = t, .key = key, .y = y, .x = x};
    return 0;
}

int rec_reader_line(struct rec_reader *rd, char *s, const char *name, struct mha_error *err)
{
    rd->line++;
    size_t len = strlen(s);
    if (len > 0 && s[len - 1] == '\r')
        s[--len] = '\0';
    while (*s == ' ' || *s == '\t')
        s++;
    const int other = other_line(rd, s, name, err);
    if (other != 0)
        return other < 0 ? -1 : 0;
    struct rec_event e;
    if (event_line(rd, s, name, &e, err) != 0)
        return -1;
    struct recording *out = rd->out;
    if (out->n == REC_MAX_EVENTS)
        return fail_at(err, name, rd->line, "more than 100000 keys%s", "");
    if (out->n == rd->cap) {
        const int cap = rd->cap ? 2 * rd->cap : 64;
        struct rec_event *g = realloc(out->events, (size_t)cap * sizeof *g);
        if (!g)
            return fail_at(err, name, rd->line, "out of memory%s", "");
        out->events = g;
        rd->cap = cap;
    }
    out->events[out->n++] = e;
    rd->last = e.t;
    return 1;
}

static void free_snaps(struct recording *r)
{
    for (int i = 0; i < r->n_snaps; i++)
        rec_snap_free(&r->snaps[i]);
    free(r->snaps);
    r->snaps = NULL;
    r->n_snaps = 0;
}

/* What was read of a recording that is refused. */
static void drop_events(struct recording *out)
{
    free(out->events);
    out->events = NULL;
    out->n = 0;
    free(out->states);
    out->states = NULL;
    out->n_states = 0;
    free_snaps(out);
}

/* Bytes of a line (with its newline) that count against the 8 MiB: all
 * but what follows a snapshot line's "# snap ", which counts against
 * REC_MAX_SNAP_BYTES (the rest of its bytes go to *snap). */
static size_t key_bytes(const char *line, size_t len, bool newline, size_t *snap)
{
    const size_t all = len + (newline ? 1 : 0);
    if (!rec_is_snap_line(line, len)) {
        *snap = 0;
        return all;
    }
    *snap = all - strlen(REC_SNAP_PREFIX);
    return strlen(REC_SNAP_PREFIX);
}

static int parse_text(const char *text, const char *name, struct recording *out,
                      struct mha_error *err)
{
    out->events = NULL;
    out->n = 0;
    out->states = NULL;
    out->n_states = 0;
    out->state_lines = 0;
    out->version = 0;
    out->snaps = NULL;
    out->n_snaps = 0;
    out->snaps_on = false;
    out->snap_bytes = 0;
    struct rec_reader rd = {.out = out};
    const char *p = text;
    size_t keys = 0; /* bytes against REC_MAX_BYTES */
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char buf[REC_MAX_LINE];
        if (len >= sizeof buf) {
            drop_events(out);
            rec_reader_done(&rd);
            return fail_at(err, name, rd.line + 1, "line is too long%s", "");
        }
        size_t snap;
        keys += key_bytes(p, len, nl != NULL, &snap);
        out->snap_bytes += snap;
        if (keys > REC_MAX_BYTES || out->snap_bytes > REC_MAX_SNAP_BYTES) {
            drop_events(out);
            rec_reader_done(&rd);
            char cap[32];
            snprintf(cap, sizeof cap, "%zu",
                     keys > REC_MAX_BYTES ? (size_t)REC_MAX_BYTES : (size_t)REC_MAX_SNAP_BYTES);
            return fail_at(err, name, rd.line + 1,
                           keys > REC_MAX_BYTES
                               ? "the recording goes on past %s bytes here, more than a "
                                 "recording of 100000 keys needs"
                               : "the recording's training snapshots go on past %s bytes here",
                           cap);
        }
        memcpy(buf, p, len);
        buf[len] = '\0';
        p = nl ? nl + 1 : p + len;
        if (rec_reader_line(&rd, buf, name, err) < 0) {
            drop_events(out);
            rec_reader_done(&rd);
            return -1;
        }
    }
    rec_reader_done(&rd);
    if (!rd.header) {
        drop_events(out);
        return fail_at(err, name, rd.line ? rd.line : 1,
                       "the recording is empty: its first line must be %s", REC_MAGIC_WORDS);
    }
    return 0;
}

/* The last line when text does not end with a newline (NULL when it does):
 * a line cut short if the recording was never finished. */
static const char *unterminated_last_line(const char *text)
{
    const size_t len = strlen(text);
    if (len == 0 || text[len - 1] == '\n')
        return NULL;
    const char *nl = strrchr(text, '\n');
    return nl ? nl + 1 : NULL; /* a file of one line is not a torn recording */
}

/* Read text.  The program writes version 2 and ends every line it writes,
 * so there a last line without its newline was cut short (a full disk, a
 * crash): it is left out with a warning and the complete lines before it
 * are kept.  Version 1 is read as it always was. */
int rec_parse(const char *text, const char *name, struct recording *out, struct mha_error *err)
{
    memset(out, 0, sizeof *out);
    const char *torn = unterminated_last_line(text);
    const bool v2 = strncmp(text, REC_MAGIC_2 "\n", sizeof REC_MAGIC_2) == 0;
    if (!torn || !v2) {
        const int rc = parse_text(text, name, out, err);
        if (rc != 0)
            rec_start_free(&out->start);
        return rc;
    }
    int torn_line = 1;
    for (const char *p = text; p < torn; p++)
        torn_line += *p == '\n';
    char *head = strndup(text, (size_t)(torn - text));
    if (!head)
        return fail_at(err, name, torn_line, "out of memory%s", "");
    const int rc = parse_text(head, name, out, err);
    free(head);
    if (rc != 0) {
        rec_start_free(&out->start);
        return rc;
    }
    snprintf(out->warning, sizeof out->warning,
             "%s:%d: the last line is cut short (the recording was not finished); "
             "playing the %d keys before it",
             name, torn_line, out->n);
    return 0;
}

/* At most max bytes of the regular file at path (NUL-terminated, *len of
 * them), and whether it goes on past them.  0, or -1 with err. */
static int read_head(const char *path, size_t max, char **out, size_t *len, bool *more,
                     struct mha_error *err)
{
    *out = NULL;
    *len = 0;
    *more = false;
    const int fd = safe_file_open(path, err);
    if (fd < 0)
        return -1;
    struct stat st;
    size_t cap = fstat(fd, &st) == 0 && st.st_size > 0 ? (size_t)st.st_size : 4096, n = 0;
    cap = cap > max ? max : cap;
    char *buf = malloc(cap + 1);
    int e = 0;
    for (;;) {
        if (!buf) {
            e = ENOMEM;
            break;
        }
        if (n == cap) {
            if (cap == max) {
                char probe;
                ssize_t got;
                while ((got = read(fd, &probe, 1)) < 0 && errno == EINTR)
                    ;
                *more = got > 0;
                break;
            }
            const size_t grow = cap * 2 > max ? max : cap * 2;
            char *g = realloc(buf, grow + 1);
            if (!g) {
                e = ENOMEM;
                break;
            }
            buf = g;
            cap = grow;
        }
        const ssize_t got = read(fd, buf + n, cap - n);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            e = errno;
            break;
        }
        if (got == 0)
            break;
        n += (size_t)got;
    }
    close(fd);
    if (e) {
        free(buf);
        mha_error_clear(err);
        mha_error_set(err, "cannot read: %s", strerror(e));
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    buf[n] = '\0';
    *out = buf;
    *len = n;
    return 0;
}

/* text has a line that is neither blank nor a comment */
static bool has_content(const char *text)
{
    for (const char *p = text; *p;) {
        while (*p == ' ' || *p == '\t' || *p == '\r')
            p++;
        if (*p && *p != '\n' && *p != '#')
            return true;
        p = strchr(p, '\n');
        if (!p)
            break;
        p++;
    }
    return false;
}

/* Read the file's complete lines up to the first that holds a NUL byte or
 * that goes past the size cap; when those lines are a good recording, the
 * bad line is the one the reading stopped at. */
int rec_load(const char *path, struct recording *out, struct mha_error *err)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t len;
    bool more;
    if (read_head(path, REC_MAX_BYTES + REC_MAX_SNAP_BYTES, &buf, &len, &more, err) != 0)
        return -1;
    const char *nul = memchr(buf, '\0', len);
    if (!nul && !more) {
        const int rc = rec_parse(buf, path, out, err);
        free(buf);
        return rc;
    }
    /* the start of the line that holds the NUL, or of the line the cap cut */
    size_t cut = nul ? (size_t)(nul - buf) : len;
    while (cut > 0 && buf[cut - 1] != '\n')
        cut--;
    int line = 1;
    for (size_t i = 0; i < cut; i++)
        line += buf[i] == '\n';
    const char saved = buf[cut];
    buf[cut] = '\0';
    const bool header = strstr(buf, "mha-explorer-recording ") != NULL;
    if (has_content(buf) && rec_parse(buf, path, out, err) != 0) {
        free(buf); /* a bad line before it: that is the first */
        return -1;
    }
    rec_free(out);
    memset(out, 0, sizeof *out);
    buf[cut] = saved;
    if (!nul && cut == 0) { /* one line longer than the cap: too long, or not a recording */
        const int rc = parse_text(buf, path, out, err);
        free(buf);
        rec_free(out);
        return rc ? rc : fail_at(err, path, 1, "the first line goes on past the size cap%s", "");
    }
    free(buf);
    if (!header)
        return fail_at(err, path, line,
                       nul ? "not a recording: the line holds a NUL byte (is it text?); the "
                             "first line must be %s"
                           : "not a recording: its first line must be %s, and no such line came "
                             "before the size cap",
                       REC_MAGIC_WORDS);
    if (nul)
        return fail_at(err, path, line,
                       "the line holds a NUL byte; is the recording text?%s (the lines before "
                       "it are fine)",
                       "");
    char cap[32];
    snprintf(cap, sizeof cap, "%zu", (size_t)REC_MAX_BYTES + REC_MAX_SNAP_BYTES);
    return fail_at(err, path, line,
                   "the recording goes on past %s bytes here, more than a recording of "
                   "100000 keys and its training snapshots need",
                   cap);
}

void rec_free(struct recording *r)
{
    free(r->events);
    r->events = NULL;
    r->n = 0;
    free(r->states);
    r->states = NULL;
    r->n_states = 0;
    free_snaps(r);
    rec_start_free(&r->start);
}

int rec_write_header(FILE *out)
{
    return fprintf(out, "%s\n# seconds key\n", REC_MAGIC) < 0 || fflush(out) ? -1 : 0;
}

int rec_write_mouse(FILE *out, double t, int key, int y, int x)
{
    char name[16];
    return fprintf(out, "%.3f %s %d %d\n", t, rec_key_name(key, name), y, x) < 0 || fflush(out) ? -1
                                                                                                : 0;
}

int rec_write_event(FILE *out, double t, int key)
{
    char name[16];
    return fprintf(out, "%.3f %s\n", t, rec_key_name(key, name)) < 0 || fflush(out) ? -1 : 0;
}
