/* rec_stream.c - a recording read as it grows, from a file or a pipe. */
#include "io/rec_stream.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void rec_stream_init(struct rec_stream *s, const char *name)
{
    memset(s, 0, sizeof *s);
    s->rd.out = &s->rec;
    snprintf(s->name, sizeof s->name, "%s", name ? name : "the recording");
    mha_error_clear(&s->err);
}

void rec_stream_free(struct rec_stream *s)
{
    rec_reader_done(&s->rd);
    rec_free(&s->rec);
    s->rd.cap = 0;
    s->rd.state_cap = 0;
}

/* A message quotes the line it stopped at: no control bytes from the
 * stream reach a terminal through it. */
static void tame(struct mha_error *err)
{
    for (char *p = err->text; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

static int stop(struct rec_stream *s, int line, const char *what)
{
    mha_error_clear(&s->err);
    mha_error_set(&s->err, "%s", what);
    mha_error_at(&s->err, s->name, line, 0);
    s->failed = true;
    return -1;
}

/* A comment that carries the teacher's clock or the end. */
static void mark(struct rec_stream *s, const char *line)
{
    while (*line == ' ' || *line == '\t')
        line++;
    double t;
    int used = 0;
    if (sscanf(line, "# at %lf%n", &t, &used) == 1 && line[used] == '\0' && t >= s->clock &&
        t <= REC_MAX_SECONDS) {
        s->clock = t;
        s->started = s->rd.header;
    } else if (strcmp(line, "# end") == 0) {
        s->ended = true;
        s->started = s->rd.header;
    }
}

/* One whole line (without its newline). */
static int line_done(struct rec_stream *s)
{
    s->line[s->len] = '\0';
    s->len = 0;
    const int n0 = s->rec.n, snaps0 = s->rec.n_snaps;
    mark(s, s->line);
    if (rec_reader_line(&s->rd, s->line, s->name, &s->err) < 0) {
        tame(&s->err);
        s->failed = true;
        return -1;
    }
    if (s->rec.n_snaps > snaps0 && s->rec.snaps[s->rec.n_snaps - 1].t > s->clock &&
        s->rec.snaps[s->rec.n_snaps - 1].t <= REC_MAX_SECONDS) /* a snapshot's time too */
        s->clock = s->rec.snaps[s->rec.n_snaps - 1].t;
    if (s->rec.n > n0) {
        s->started = true;
        s->clock =
            s->rec.events[s->rec.n - 1].t > s->clock ? s->rec.events[s->rec.n - 1].t : s->clock;
        return 1;
    }
    return 0;
}

int rec_stream_feed(struct rec_stream *s, const char *buf, size_t n)
{
    if (s->failed)
        return -1;
    int added = 0;
    for (size_t i = 0; i < n; i++) {
        const char c = buf[i];
        /* a snapshot line's bytes after "# snap " count apart (rec_snap.h) */
        if (rec_is_snap_line(s->line, s->len)) {
            if (s->rec.snap_bytes++ >= REC_MAX_SNAP_BYTES)
                return stop(s, s->rd.line + 1,
                            "the teacher's training snapshots go on past 64 MiB; following "
                            "stopped here");
        } else if (s->bytes++ >= REC_MAX_BYTES) {
            return stop(s, s->rd.line + 1,
                        "the stream goes on past 8 MiB, more than a recording of 100000 keys "
                        "needs; following stopped here");
        }
        if (c == '\0')
            return stop(s, s->rd.line + 1, "the line holds a NUL byte; is the stream text?");
        if (c == '\n') {
            const int r = line_done(s);
            if (r < 0)
                return -1;
            added += r;
            continue;
        }
        if (s->len + 1 >= sizeof s->line)
            return stop(s, s->rd.line + 1, "line is too long");
        s->line[s->len++] = c;
    }
    return added;
}

int rec_write_mark(FILE *out, double t)
{
    return fprintf(out, "# at %.3f\n", t) < 0 || fflush(out) ? -1 : 0;
}

int rec_write_end(FILE *out)
{
    return fprintf(out, "# end\n") < 0 || fflush(out) ? -1 : 0;
}

/* ---- following ------------------------------------------------------------------------- */

static const char *kind_of(mode_t m)
{
    return S_ISDIR(m)    ? "a folder"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

int rec_follow_open(struct rec_follow *f, const char *path, double now, struct mha_error *err)
{
    memset(f, 0, sizeof *f);
    f->fd = -1;
    const bool in = strcmp(path, "-") == 0;
    rec_stream_init(&f->s, in ? "standard input" : path);
    snprintf(f->path, sizeof f->path, "%s", path);
    mha_error_clear(err);
    if (in) {
        if (isatty(STDIN_FILENO)) {
            mha_error_set(err, "--follow -: standard input is a terminal, not the teacher's "
                               "recording; pipe it in, e.g. ssh HOST tail -c +1 -f class.rec | "
                               "mha-explorer --follow -");
            return -1;
        }
        f->fd = STDIN_FILENO;
    } else {
        /* O_NONBLOCK: opening a FIFO no one writes yet must not hang */
        f->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (f->fd < 0) {
            mha_error_set(err, "cannot open: %s", strerror(errno));
            mha_error_at(err, path, 0, 0);
            return -1;
        }
    }
    struct stat st;
    if (fstat(f->fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
        mha_error_set(err, "is %s, not a recording", kind_of(st.st_mode));
        mha_error_at(err, in ? "standard input" : path, 0, 0);
        if (!in)
            close(f->fd);
        f->fd = -1;
        return -1;
    }
    f->pipe = S_ISFIFO(st.st_mode);
    f->dev = st.st_dev;
    f->ino = st.st_ino;
    f->last_data = now;
    if (!in && !f->pipe) { /* reads wait for nothing on a regular file */
        const int fl = fcntl(f->fd, F_GETFL);
        if (fl >= 0)
            fcntl(f->fd, F_SETFL, fl & ~O_NONBLOCK);
    }
    return 0;
}

static bool ready(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, 0) > 0;
}

/* What happened to the path: removed, or another file put there (also
 * after the teacher's session ended: the teacher may start again). */
static void check_path(struct rec_follow *f)
{
    if (f->pipe || (f->state != REC_FOLLOW_LIVE && f->state != REC_FOLLOW_ENDED))
        return;
    struct stat st;
    if (f->state == REC_FOLLOW_ENDED) {
        if (stat(f->path, &st) == 0 && (st.st_dev != f->dev || st.st_ino != f->ino))
            f->state = REC_FOLLOW_REPLACED;
        return;
    }
    if (stat(f->path, &st) != 0)
        f->state = REC_FOLLOW_GONE;
    else if (st.st_dev != f->dev || st.st_ino != f->ino)
        f->state = REC_FOLLOW_REPLACED;
    else if (fstat(f->fd, &st) == 0 && st.st_size < f->off)
        f->state = REC_FOLLOW_SHRANK;
}

int rec_follow_poll(struct rec_follow *f, double now, size_t max)
{
    if (f->s.failed)
        return -1;
    if (f->state == REC_FOLLOW_ENDED) {
        check_path(f);
        return 0;
    }
    if (f->fd < 0 || (f->state != REC_FOLLOW_LIVE && f->state != REC_FOLLOW_REPLACED &&
                      f->state != REC_FOLLOW_GONE))
        return 0;
    int added = 0;
    char buf[16384];
    size_t taken = 0;
    while (taken < max) {
        if (f->pipe && !ready(f->fd))
            break;
        const size_t want = max - taken < sizeof buf ? max - taken : sizeof buf;
        const ssize_t got = read(f->fd, buf, want);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            break;
        if (got < 0) {
            mha_error_clear(&f->s.err);
            mha_error_set(&f->s.err, "cannot read: %s", strerror(errno));
            mha_error_at(&f->s.err, f->s.name, 0, 0);
            f->s.failed = true;
            f->state = REC_FOLLOW_FAILED;
            return -1;
        }
        if (got == 0) {
            if (f->pipe)
                f->state = REC_FOLLOW_CLOSED;
            break;
        }
        f->off += got;
        taken += (size_t)got;
        f->last_data = now;
        const int r = rec_stream_feed(&f->s, buf, (size_t)got);
        if (r < 0) {
            f->state = REC_FOLLOW_FAILED;
            return -1;
        }
        added += r;
    }
    if (f->s.ended)
        f->state = REC_FOLLOW_ENDED;
    if (taken < max)
        check_path(f);
    return added;
}

void rec_follow_why(const struct rec_follow *f, double now, char *buf, size_t n)
{
    char where[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
    switch (f->state) {
    case REC_FOLLOW_LIVE:
        if (now - f->last_data >= REC_QUIET_AFTER)
            snprintf(buf, n, "nothing from the teacher for %.0f s", now - f->last_data);
        else
            buf[0] = '\0';
        return;
    case REC_FOLLOW_ENDED:
        snprintf(buf, n, "the teacher's session ended");
        return;
    case REC_FOLLOW_CLOSED:
        snprintf(buf, n, "the teacher's stream closed");
        return;
    case REC_FOLLOW_GONE:
        snprintf(buf, n, "%s was removed", f->s.name);
        return;
    case REC_FOLLOW_REPLACED:
        snprintf(buf, n, "a new recording is at %s", f->s.name);
        return;
    case REC_FOLLOW_SHRANK:
        snprintf(buf, n, "%s got shorter; following stopped", f->s.name);
        return;
    case REC_FOLLOW_FAILED:
        snprintf(buf, n, "following stopped: %s", mha_error_format(&f->s.err, where, sizeof where));
        return;
    }
    buf[0] = '\0';
}

void rec_follow_close(struct rec_follow *f)
{
    if (f->fd >= 0 && f->fd != STDIN_FILENO)
        close(f->fd);
    f->fd = -1;
    rec_stream_free(&f->s);
}
