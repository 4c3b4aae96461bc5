/* safe_file.h - opening files that someone else wrote: examples, lessons
 * and recordings shared between teachers and students.
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

#include <stddef.h>
#include <stdio.h>

#include "engine/mha_error.h"

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

#endif
