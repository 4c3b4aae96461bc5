/* progress_file.h - the progress file on disk, for progress.c: read with
 * only the bad entries dropped, kept copies that are never overwritten
 * (<file>.corrupt.1, .2, ...), a lock that several explorers share, a
 * symlinked file written through to its target, and writes that replace
 * the file whole (a temporary file renamed over it). */
#ifndef MHA_LESSON_PROGRESS_FILE_H
#define MHA_LESSON_PROGRESS_FILE_H

#include <jansson.h>
#include <stddef.h>

#include "engine/mha_error.h"

enum progress_read {
    PROGRESS_READ_MISSING, /* no file: *root is an empty record */
    PROGRESS_READ_OK,      /* all of it read */
    PROGRESS_READ_PARTIAL, /* read, some entries dropped (named in dropped) */
    PROGRESS_READ_CORRUPT, /* not a progress record at all: *root is empty, why in dropped */
};

/* A new, empty record: { "version": 2, "lessons": {} }. */
json_t *progress_file_empty(void);

/* Read path into *root (always a new record, never NULL unless out of
 * memory).  dropped: what was left out, e.g. "lessons.\"b\" (not an
 * object), lessons.\"a\".seen[2] (not a step number)", cut to n bytes. */
enum progress_read progress_file_read(const char *path, json_t **root, char *dropped, size_t n);

/* The file path names once symbolic links are followed (the file itself
 * need not exist); -1 for a loop or a name too long. */
int progress_file_target(const char *path, char *out, size_t n);

/* Create the folders above target. */
int progress_file_mkdirs(const char *target, struct mha_error *err);

/* An exclusive lock on "<target>.lock" (created if needed), waited for;
 * returns the descriptor to pass to progress_file_unlock, or -1. */
int progress_file_lock(const char *target, struct mha_error *err);
void progress_file_unlock(int fd);

/* Keep target's contents as the first free "<target>.corrupt.N": moved
 * (move) or copied.  An existing copy is never replaced.  The name into
 * aside; -1 when no copy could be made. */
int progress_file_keep(const char *target, int move, char *aside, size_t n);

/* Write root to target through safe_file_create/commit (safe_file.h): a
 * temporary beside it renamed over it, so the old file stays whole if
 * anything fails.  err's text starts with target. */
int progress_file_write(const char *target, const json_t *root, struct mha_error *err);

#endif
