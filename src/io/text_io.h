/* text_io.h - a text file to train on (--train FILE.txt), read from disk:
 * a regular file of at most TRAIN_TEXT_MAX_BYTES, and its jobs file beside
 * it when there is one; the words, rows and held-out lines are
 * train_text.h's. */
#ifndef MHA_TEXT_IO_H
#define MHA_TEXT_IO_H

#include <stdbool.h>

#include "train/train_text.h"

/* Whether --train reads path as text rather than as a JSON task file: a
 * name ending in .txt is text, one ending in .json a task file; any other
 * is a task file when its first byte that is not a space is '{'.  False
 * when the file cannot be read (the task-file reader then says why). */
bool text_io_is_text(const char *path);

/* The jobs file of a text: FILE.jobs for FILE.txt (FILE.jobs for FILE
 * too), into buf.  Returns buf. */
const char *text_io_jobs_path(const char *path, char *buf, size_t n);

/* Read the text at path (and its jobs file when it exists) into a new
 * dataset (train_text_dataset_new).  NULL + err naming the file (and line)
 * on anything wrong: not a regular file, larger than the cap, not text,
 * nothing to predict, a jobs file that does not match. */
struct train_dataset *text_io_load(const char *path, const struct train_text_options *o,
                                   struct mha_error *err);

/* Whether name can be a bundled corpus's: lower-case letters, digits and
 * '-' (no folder, no extension), at most 64 bytes. */
bool text_io_corpus_name(const char *name);
/* The bundled corpus name, assets_dir/corpus/NAME.txt, read as --train NAME
 * reads it at its defaults (TRAIN_TEXT_DEFAULT_VOCAB words, rows of
 * TRAIN_TEXT_DEFAULT_CONTEXT, lower-cased).  NULL + err when name is no
 * corpus's name or the file cannot be read. */
struct train_dataset *text_io_load_corpus(const char *assets_dir, const char *name,
                                          struct mha_error *err);

#endif
