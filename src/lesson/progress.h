/* progress.h - which lesson steps a reader has seen and how their quizzes
 * went, kept across runs in $XDG_STATE_HOME/mha-explorer/progress.json
 * (default ~/.local/state/mha-explorer/progress.json). */
#ifndef MHA_LESSON_PROGRESS_H
#define MHA_LESSON_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "mha_error.h"

struct progress;

/* The default file path into buf; NULL when neither XDG_STATE_HOME nor HOME
 * is set. */
const char *progress_default_path(char *buf, size_t n);

/* Load progress from path (NULL: the default).  A missing file is an empty
 * record.  A file that is not a progress record is renamed aside (to
 * "<path>.corrupt") and an empty record returned, with warning filled (it is
 * "" otherwise).  Returns NULL only when out of memory. */
struct progress *progress_load(const char *path, char *warning, size_t warning_size);
void progress_free(struct progress *p);

/* Write the record (creating the folders); a temporary file is renamed over
 * the old one, so a failed save leaves the old file whole. */
int progress_save(const struct progress *p, struct mha_error *err);

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

/* Forget what the reader did in lesson (steps seen, answers, where they
 * were), or in every lesson when lesson is NULL.  progress_save keeps it. */
void progress_reset(struct progress *p, const char *lesson);

#endif
