/* safe_file.h - opening files that someone else wrote (examples, lessons
 * and recordings shared between teachers and students), and the one way
 * every file is written.
 *
 * A FIFO, a terminal, /dev/zero or a directory named where a file is
 * expected must never block or read without end: these open the path
 * without blocking (O_NONBLOCK, so a FIFO with no writer does not wait),
 * look at what it is (fstat) and refuse anything but a regular file before
 * a byte is read.  Sizes are capped, and checked against the file's size
 * first, so a huge file is refused without being read.
 */
#ifndef MHA_SAFE_FILE_H
#define MHA_SAFE_FILE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "engine/mha_error.h"

/* What went wrong (an errno), for a message: a full disk or a used-up
 * quota in the words the documentation uses ("no space left on device"),
 * anything else as strerror says it. */
const char *safe_file_reason(int code);
/* err says path could not be what'd ("cannot write: no space left on
 * device"), or what alone when code is 0; returns -1. */
int safe_file_fail(struct mha_error *err, const char *path, const char *what, int code);

/* What st is, for a message ("is a FIFO (named pipe), not a regular
 * file"); NULL for a regular file.  reading adds what to do with a FIFO
 * someone meant to share. */
struct stat;
const char *safe_file_not_regular(const struct stat *st, bool reading);

/* A descriptor open for reading on the regular file at path (blocking mode
 * restored, close-on-exec), or -1 with err = "path: cannot open: ..." or
 * "path: is a FIFO (named pipe), not a regular file" and the like. */
int safe_file_open(const char *path, struct mha_error *err);

/* The same as a stdio stream ("rb"); NULL with err.  fclose() it. */
FILE *safe_file_fopen(const char *path, struct mha_error *err);

/* Read the whole regular file at path, at most max bytes, into a newly
 * allocated NUL-terminated buffer (*out, free() it; *len its length).
 * what names the kind of file in messages ("recording").  A file larger than
 * max is refused before it is read ("larger than 4194304 bytes; is it a
 * recording?").  Returns 0, or -1 with err naming path. */
int safe_file_read(const char *path, size_t max, const char *what, char **out, size_t *len,
                   struct mha_error *err);

/* ---- writing ------------------------------------------------------------
 *
 * Every file the program writes (models, examples, the progress file,
 * exports, recordings, links) is written whole before it takes its name,
 * as git's lockfile does, and the program never removes a file it did not
 * make itself in this process:
 *   - the target's folder is opened a part of the path at a time
 *     (safe_path.h): a symbolic link anywhere in the path is followed only
 *     where the kernel's protected_symlinks rule would follow it (in a
 *     sticky folder anyone may write to, /tmp or a lab's shared folder, only
 *     a link of the user's or of the folder's owner: "FILE: is a symbolic
 *     link owned by uid 1001 in a shared folder ..."); a link to the file
 *     stays a link, and the file it names is replaced in its own folder;
 *   - a target that exists and is not a regular file (a FIFO, a device, a
 *     socket, a folder) is refused: "/dev/null: is a character device, not
 *     a regular file";
 *   - the temporary is a file with no name in that folder (O_TMPFILE), or,
 *     on a file system without them, a new name made there with O_EXCL
 *     (".NAME.mha-explorer-XXXXXX": never a name that was there, never
 *     through a link planted there); it gets the old file's mode (a new
 *     file: 0666 less the umask), is written, fsynced, given the old file's
 *     owner where the user may (only once whole: no one else can write into
 *     it), linked or renamed into place, and the folder fsynced;
 *   - on any failure the temporary is gone (a file with no name vanishes
 *     with its descriptor; a named one is removed after checking it is
 *     still the file this process made) and the old file is left byte for
 *     byte as it was, and the message says so ("no space left on device"
 *     for a full disk or a used-up quota).  A save killed outright
 *     (SIGKILL) leaves no file behind, or on a file system without O_TMPFILE
 *     its ".NAME.mha-explorer-XXXXXX", which no later save removes. */

struct safe_file {
    char target[PATH_MAX];   /* the file that is replaced (links followed), for messages */
    char base[NAME_MAX + 1]; /* its name in its folder */
    char tmp[NAME_MAX + 1];  /* the temporary's name in the folder; "" for one with no name
                                (O_TMPFILE) and once it is gone */
    const char *name;        /* the name the caller gave, for messages */
    int dir;                 /* the target's folder (safe_path.h), -1 once closed */
    int fd;                  /* the temporary, -1 once closed */
    int keep;                /* holds the temporary until it is placed or dropped */
    bool unnamed;            /* the temporary has no name (O_TMPFILE) */
    FILE *f;                 /* a stream on fd (safe_file_stream), or NULL */
    bool existed;            /* target was there when the temporary was made */
    bool hold;               /* set before safe_file_place: the placed file and its folder stay
                                held for safe_file_unplace, until safe_file_discard */
    mode_t mode;             /* the mode the file gets */
    uid_t uid;               /* the old file's owner and group (existed) */
    gid_t gid;
};

/* The file path names once symbolic links are followed (it need not
 * exist); 0, or -1 for a loop of links or a name longer than n. */
int safe_file_resolve(const char *path, char *out, size_t n);

/* The folder of path into dir: "." when it has none, "/" for a file at
 * the root. */
void safe_file_folder(const char *path, char *dir, size_t n);

/* Check, before any work, that a file may be written at path: refuse an
 * empty name, what exists there and is not a regular file (links followed
 * as above, a planted one refused), a folder that does not exist or is not
 * one, and a folder this user may not write in.  0, or -1 with err
 * "path: is a FIFO ...", "path: cannot write in out: no such folder; nothing
 * was written" and the like.  Nothing is created. */
int safe_file_check_target(const char *path, struct mha_error *err);

/* Start writing the file at path: check and resolve it (above), make the
 * temporary beside the target and give it the mode the file will have.
 * name is what messages call the file (path itself, usually; kept, not
 * copied).  0, or -1 with err (nothing made). */
int safe_file_create(struct safe_file *sf, const char *path, struct mha_error *err);

/* The same for a new file to be named later in folder (safe_file_place
 * with replace false): the temporary in folder, mode 0666 less the umask.
 * Its messages leave it to the caller to say that nothing was written. */
int safe_file_create_in(struct safe_file *sf, const char *folder, struct mha_error *err);

/* A stdio stream writing the temporary ("w"), kept in sf->f and closed by
 * safe_file_commit / safe_file_discard; NULL with err. */
FILE *safe_file_stream(struct safe_file *sf, struct mha_error *err);

/* Flush, fsync and close the temporary.  0, or -1 with err (the temporary
 * is still there: safe_file_discard it, or keep it as recordings do). */
int safe_file_finish(struct safe_file *sf, struct mha_error *err);

/* Put the finished temporary at name (NULL: the target; else a file of the
 * folder the temporary is in, of which only the last part is read),
 * replacing what is there when replace, else only where nothing is (a link
 * in the file system, so an existing name is never touched), and fsync the
 * folder.  0; 1 when !replace and name exists (the temporary stays); -1
 * with err (the temporary stays). */
int safe_file_place(struct safe_file *sf, const char *name, bool replace, struct mha_error *err);

/* Remove the file sf placed at its target (sf->hold set before
 * safe_file_place) while that name is still the file this process made,
 * then let go as safe_file_discard does: the first of a pair of files
 * whose second could not be placed.  A file put there by another since is
 * left alone. */
void safe_file_unplace(struct safe_file *sf);

/* safe_file_finish then safe_file_place(sf, NULL, true), removing the
 * temporary on any failure.  0, or -1 with err saying the old file is left
 * as it was (or that nothing was written). */
int safe_file_commit(struct safe_file *sf, struct mha_error *err);

/* Close and remove the temporary (nothing placed).  Safe to call twice. */
void safe_file_discard(struct safe_file *sf);

/* The finished temporary kept under a new name beside the target,
 * "NAME.kept-XXXXXX" (a recording that could not take its name): 0 with
 * the name into where, or -1 (the temporary stays). */
int safe_file_keep(struct safe_file *sf, char *where, size_t n);

/* Termination signals (INT, TERM, HUP, QUIT, PIPE, ALRM, USR1, USR2)
 * held back while a file is saved, so that whatever ends the program
 * leaves either the old file or the new one whole, never a temporary: they
 * take effect on release.  SIGXFSZ too: a write past the file-size limit
 * fails with EFBIG (said in the message) instead of killing the program. */
struct safe_file_signals {
    sigset_t set, before;
    bool xfsz_before;
};
void safe_file_hold_signals(struct safe_file_signals *held);
void safe_file_release_signals(const struct safe_file_signals *held);

/* The whole of data (len bytes) as the file at path, through the steps
 * above, with the signals held meanwhile.  0, or -1 with err. */
int safe_file_write(const char *path, const void *data, size_t len, struct mha_error *err);

#endif
