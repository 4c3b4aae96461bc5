/* rec_snap.h - the teacher's training run in a recording: a follower (or a
 * replay) shows the run from these snapshots instead of training the same
 * model itself.
 *
 * A snapshot is a few comment lines (older builds skip them as comments;
 * each is at most REC_SNAP_LINE bytes, so it fits a recording's line):
 *
 *   # snap on                                 once, before the first key: the
 *                                             teacher's runs come in snapshots
 *   # snap begin t=12.345 pane=0 kind=live step=650 stop=0 pace=145 params=17251
 *         loss=1.29 acc=0.59 losses=50 evals=1 jobs=1 roles=1 layer=1
 *                                             (one line: the parts that follow,
 *                                             counted; layer= only for a model
 *                                             of layers: the layer whose heads
 *                                             the jobs and roles measure)
 *   # snap loss 600 <base64>                  the training loss of steps 601...,
 *                                             little-endian float32
 *   # snap eval 650 1.29 1.38 0.59            step, training loss, held-out loss,
 *                                             each output's held-out accuracy
 *   # snap jobs 2 4 13,5 1,1,0.82,1 <knocked> a text's jobs: heads, jobs, what each
 *                                             head does (a bit a job), each job's
 *                                             top-1, then heads x jobs knocked out
 *   # snap roles 2 13 <floats>                what each head does, as measured at the
 *                                             last evaluation: heads, numbers a head,
 *                                             then heads x numbers
 *   # snap w 0 <base64>                       the model's parameters from float 0,
 *                                             little-endian float32, in chunks
 *   # snap end
 *
 * kind=live is the run as it is (its step, the losses and evaluations since
 * the snapshot before, its parameters); kind=ckpt is a checkpoint the
 * teacher scrubbed to (its step, loss and accuracies at the step, its
 * parameters).  A snapshot counts only once its end line came with every
 * part it announced; one malformed line drops the snapshot it belongs to,
 * and nothing else.  Numbers in text are written to read back to the same
 * float ("%.9g"). */
#ifndef MHA_REC_SNAP_H
#define MHA_REC_SNAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define REC_SNAP_PREFIX "# snap "
/* The longest snapshot line, in bytes with its newline: well inside a
 * recording's line (record.h's REC_MAX_LINE), so older builds read it. */
#define REC_SNAP_LINE 4096
/* Floats one base64 line carries: 720 floats are 3840 characters. */
#define REC_SNAP_CHUNK 720
/* Outputs, heads and jobs a snapshot carries (trun_ring.h's sizes). */
#define REC_SNAP_OUTPUTS 4
#define REC_SNAP_HEADS 16
#define REC_SNAP_JOBS 8
#define REC_SNAP_ROLE_VALUES 16
#define REC_SNAP_LAYERS 16
/* The most a snapshot may hold: parameters, losses, evaluations. */
#define REC_SNAP_MAX_PARAMS ((size_t)1 << 22)
#define REC_SNAP_MAX_LOSSES 10000000L
#define REC_SNAP_MAX_EVALS 200000
/* Bytes of snapshot lines a recording may hold (the 8 MiB of keys and
 * state lines are apart), and how often a teacher writes one (seconds). */
#define REC_MAX_SNAP_BYTES ((size_t)64 << 20)
#define REC_SNAP_EVERY 0.5

enum rec_snap_kind { REC_SNAP_LIVE, REC_SNAP_CKPT };

struct rec_snap_eval {
    long step;
    float train_loss, loss;
    float acc[REC_SNAP_OUTPUTS];
};

struct rec_snap {
    double t; /* the teacher's clock */
    int at;   /* events before it (set by the reader) */
    int pane;
    enum rec_snap_kind kind;
    long step;
    int stop; /* 0 running, 1 settled, 2 at the limit */
    int pace; /* steps a second, -1 unknown */
    float loss;
    int n_outputs;
    float acc[REC_SNAP_OUTPUTS];
    long loss_from; /* the losses of steps loss_from+1 .. loss_from+n_loss */
    long n_loss;
    float *losses; /* n_loss, newly allocated (rec_snap_free) */
    int n_evals;
    struct rec_snap_eval *evals; /* n_evals, newly allocated */
    bool jobs_valid;
    int jobs_heads, n_jobs;
    unsigned does[REC_SNAP_HEADS];
    float top1[REC_SNAP_JOBS];
    float knocked[REC_SNAP_HEADS][REC_SNAP_JOBS];
    int layer;                  /* the layer the jobs and roles are of; -1: unsaid (one layer, or an
                                   older build: the layer the follower shows) */
    int roles_heads, roles_per; /* 0: no roles */
    float roles[REC_SNAP_HEADS * REC_SNAP_ROLE_VALUES];
    size_t n_params;
    float *params; /* n_params, newly allocated; NULL once dropped */
};

/* Free what s holds (s itself is the caller's) and zero it. */
void rec_snap_free(struct rec_snap *s);

/* Write s as its lines to out.  0, or -1 on a write error. */
int rec_snap_write(FILE *out, const struct rec_snap *s);
/* "# snap on". */
int rec_snap_write_on(FILE *out);

/* Reading, a line at a time: the snapshot being read. */
struct rec_snap_reader {
    bool open; /* a begin line came */
    struct rec_snap s;
    size_t got_params; /* floats of the parameters read so far */
    long want_losses;  /* what its begin line announced */
    int want_evals;
    bool want_jobs, want_roles;
    long loss_cap;
    int eval_cap;
    bool not_finite; /* the line read holds an infinity, or a NaN where none may be */
};

/* One line's text after "# snap " (a NUL-terminated line without its
 * newline).  1 when it completed a snapshot: moved to *done (the caller's
 * to free), the reader empty again; 2 for "on"; 0 for any other line,
 * good or not (a bad one drops the snapshot being read); -1 for a line
 * holding an infinite number, or a NaN where nothing can be unknown (the
 * begin line's loss and accuracies and an evaluation's training loss may
 * be NaN, not measured yet): the snapshot is dropped, and the recording
 * refused at that line. */
int rec_snap_line(struct rec_snap_reader *rd, const char *text, struct rec_snap *done);
void rec_snap_reader_free(struct rec_snap_reader *rd);

/* Base64 of n little-endian float32s, into out (4 * ceil(n * 4 / 3) bytes
 * + 1; NUL-terminated); and back: the floats (at most max) of the text,
 * or -1 when it is not base64 of whole floats. */
void rec_snap_b64_put(const float *v, size_t n, char *out);
long rec_snap_b64_get(const char *text, float *out, size_t max);

#endif
