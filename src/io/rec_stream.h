/* rec_stream.h - a recording read while it is still being written: the
 * teacher's explorer writes its keys with --record, and each student's
 * explorer follows the file (or a pipe) as it grows.
 *
 * The stream is data only.  Every line goes through the same reader as a
 * recording read whole (record.h); a line longer than a recording's longest,
 * a NUL byte, more bytes than a recording may hold or a line that is not a
 * key stop the stream for good, with the line named.  Comments carry the
 * teacher's clock, so a student's training screen keeps pace between keys:
 *
 *   # at 12.000     the teacher's session reached 12 s
 *   # end           the teacher's explorer closed
 *   # state step=4  where the teacher is after the key before (rec_state.h)
 *   # snap ...      the teacher's training run (rec_snap.h)
 *
 * (older builds read them all as comments).  State lines count against the
 * line length and the 8 MiB as every line does, not against the 100000 keys;
 * the limits are the same (a key with its state line takes about 30 bytes,
 * so 100000 of them fit in well under half the 8 MiB).  A snapshot line is
 * at most REC_SNAP_LINE bytes, within the line length; its bytes after
 * "# snap " count against REC_MAX_SNAP_BYTES instead of the 8 MiB. */
#ifndef MHA_REC_STREAM_H
#define MHA_REC_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "engine/mha_error.h"
#include "io/record.h"

/* How often the teacher's explorer writes "# at" when nothing else was
 * written (seconds), and how long a student waits before saying the
 * teacher has gone quiet. */
#define REC_MARK_EVERY 1.0
#define REC_QUIET_AFTER 10.0

struct rec_stream {
    struct recording rec; /* what was read so far: version, start, events */
    struct rec_reader rd;
    char name[256]; /* for messages */
    char line[REC_MAX_LINE];
    size_t len;   /* bytes of the line being read */
    size_t bytes; /* read in all */
    double clock; /* the teacher's clock: the last event's time or "# at" */
    bool started; /* an event or a mark came: the start lines are whole */
    bool ended;   /* "# end" */
    bool failed;  /* stopped at a bad line: err says which */
    struct mha_error err;
};

void rec_stream_init(struct rec_stream *s, const char *name);
/* Bytes of the stream, in any pieces: the events they complete are added
 * to s->rec.  Returns how many, or -1 once the stream has failed. */
int rec_stream_feed(struct rec_stream *s, const char *buf, size_t n);
void rec_stream_free(struct rec_stream *s);

/* "# at T" with the teacher's clock, and "# end" (the writer's side). */
int rec_write_mark(FILE *out, double t);
int rec_write_end(FILE *out);

/* ---- following a file or standard input ----------------------------------------------- */

enum rec_follow_state {
    REC_FOLLOW_LIVE,     /* reading as it grows */
    REC_FOLLOW_ENDED,    /* the teacher's explorer closed ("# end") */
    REC_FOLLOW_CLOSED,   /* the pipe was closed */
    REC_FOLLOW_GONE,     /* the file was removed */
    REC_FOLLOW_REPLACED, /* another file is at the path now: a new session */
    REC_FOLLOW_SHRANK,   /* the file got shorter than what was read */
    REC_FOLLOW_FAILED,   /* a bad line, or a read error (s.err) */
};

struct rec_follow {
    struct rec_stream s;
    int fd;
    bool pipe; /* standard input or a FIFO: read what is ready */
    char path[4096];
    dev_t dev;
    ino_t ino;
    off_t off;
    double last_data; /* when bytes last came, on the caller's clock */
    enum rec_follow_state state;
};

/* Open path ("-": standard input, which must not be a terminal) to follow
 * it: a regular file or a pipe.  0, or -1 with err naming what is wrong. */
int rec_follow_open(struct rec_follow *f, const char *path, double now, struct mha_error *err);
/* Read what has come (at most max bytes) and what happened to the file.
 * Returns the events added (0 when nothing is new), or -1 once the stream
 * has failed. */
int rec_follow_poll(struct rec_follow *f, double now, size_t max);
/* A sentence for the status or message line when the stream is not live
 * (or has been quiet for REC_QUIET_AFTER seconds at now); "" otherwise. */
void rec_follow_why(const struct rec_follow *f, double now, char *buf, size_t n);
void rec_follow_close(struct rec_follow *f);

#endif
