/* progress.h - which lesson steps a reader has seen and how their quizzes
 * went, kept across runs in $XDG_STATE_HOME/mha-explorer/progress.json
 * (default ~/.local/state/mha-explorer/progress.json). */
#ifndef MHA_LESSON_PROGRESS_H
#define MHA_LESSON_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha_error.h"

struct progress;

/* The default file path into buf; NULL when neither XDG_STATE_HOME nor HOME
 * is set. */
const char *progress_default_path(char *buf, size_t n);

/* Load progress from path (NULL: the default; a symbolic link is followed).
 * A missing file is an empty record.  Entries that cannot be read are left
 * out and named in warning, and the file is kept whole as the first free
 * "<path>.corrupt.N" (never replacing an earlier copy) before it is written
 * again without them; a file that is not a progress record at all is moved
 * to such a name and an empty record returned.  warning is "" when all was
 * read.  Returns NULL only when out of memory. */
struct progress *progress_load(const char *path, char *warning, size_t warning_size);
void progress_free(struct progress *p);

/* Write the record (creating the folders).  Under a lock on
 * "<file>.lock", the file is read again and this explorer's changes merged
 * into it (steps seen: the union; a quiz answer: the newer one; the last
 * step: ours if we moved it), and a temporary file renamed over it, so a
 * failed save leaves the old file whole and explorers running at once keep
 * each other's progress.  A symbolic link stays one: its target is written.
 * p then holds the merged record. */
int progress_save(struct progress *p, struct mha_error *err);

/* Forget a lesson's progress (lesson NULL: every lesson's); the next save
 * removes it from the file too, even if another explorer saved it since. */
void progress_forget(struct progress *p, const char *lesson);

/* lesson: a stable id, the lesson's file name ("01-why-heads.md"). */
void progress_mark_seen(struct progress *p, const char *lesson, int step);
bool progress_seen(const struct progress *p, const char *lesson, int step);
int progress_seen_count(const struct progress *p, const char *lesson);
/* The step the reader was last on (0 if none). */
int progress_last_step(const struct progress *p, const char *lesson);
void progress_set_last_step(struct progress *p, const char *lesson, int step);

void progress_set_quiz(struct progress *p, const char *lesson, int step, bool right);
/* -1: not answered, 0: wrong, 1: right */
int progress_quiz(const struct progress *p, const char *lesson, int step);
/* Whether the answer just set (progress_set_quiz) came at the first try:
 * kept apart ("first"), so a second try that is right does not count as
 * right the first time. */
void progress_set_quiz_first(struct progress *p, const char *lesson, int step, bool first);
/* -1: not answered; 1: right at the first try; 0: not (an answer written
 * before tries were kept apart counts as its right) */
int progress_quiz_first(const struct progress *p, const char *lesson, int step);

/* Forget what the reader did in lesson (steps seen, answers, where they
 * were), or in every lesson when lesson is NULL.  progress_save keeps it. */
void progress_reset(struct progress *p, const char *lesson);

#endif
