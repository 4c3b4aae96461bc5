/* example_io.h - JSON example files <-> struct mha_example (jansson).
 *
 * File format (every field but "tokens" and "num_heads" optional):
 *   { "tokens": ["The", "cat"], "d_model": 6, "num_heads": 2, "causal": false,
 *     "scaled": true, "seed": 42,
 *     "query": [[...d numbers...], ...one row per token],
 *     "key_tokens": [...], "key": [[...]], "value": [[...]],   cross-attention
 *     "w_q": [[...]], "w_k": [[...]], "w_v": [[...]], "w_o": [[...]],  (d, d) [out][in]
 *     "b_q": [...], "b_k": [...], "b_v": [...], "b_o": [...],
 *     "mask": [[1, 0, ...], ...] }                               (lq, lk), 0 = masked
 * Numbers not given are drawn from "seed" (default 42) in the generator's
 * fixed order, so a file that gives only tokens is still deterministic.
 * Without key_tokens and key, attention is self-attention: key = value = query.
 */
#ifndef MHA_EXAMPLE_IO_H
#define MHA_EXAMPLE_IO_H

#include "engine/mha.h"

/* An example file at the largest sizes (1024 tokens, d_model 2048, every
 * matrix, bias and the mask given) holds this many numbers in this many
 * rows; one larger than MHA_EXAMPLE_MAX_BYTES (48 bytes a number, 400 a
 * token label, 1 MiB for the rest) is refused unread, and one that holds
 * more numbers or rows than that, or longer lists, is refused at the
 * first one too many (json_scan.h). */
#define MHA_EXAMPLE_MAX_ROWS ((size_t)4 * MHA_MAX_TOKENS + 4 * MHA_MAX_D_MODEL)
#define MHA_EXAMPLE_MAX_NUMBERS                                                                    \
    ((size_t)3 * MHA_MAX_TOKENS * MHA_MAX_D_MODEL +                                                \
     (size_t)4 * MHA_MAX_D_MODEL * MHA_MAX_D_MODEL + (size_t)4 * MHA_MAX_D_MODEL +                 \
     (size_t)MHA_MAX_TOKENS * MHA_MAX_TOKENS)
#define MHA_EXAMPLE_MAX_BYTES                                                                      \
    (MHA_EXAMPLE_MAX_NUMBERS * 48 + (size_t)2 * MHA_MAX_TOKENS * 400 + ((size_t)1 << 20))

/* Parse an example from a file.  Returns a new example (caller frees with
 * mha_example_free), or NULL with err naming the file, the line and column
 * (syntax errors, the first excess) or the field and what was expected.  A
 * FIFO, a device, a folder or a file over MHA_EXAMPLE_MAX_BYTES is refused
 * before reading. */
struct mha_example *mha_example_load(const char *path, struct mha_error *err);

/* mha_example_load's reading of a file of 1 MiB or more, at any size: two
 * passes with no tree for the numbers (example_stream.h), or the whole tree
 * where the passes leave it to jansson; *streamed says which.  The result
 * and every message are the same either way (tests/io/test_example_stream.c). */
struct mha_example *mha_example_load_streamed(const char *path, struct mha_error *err,
                                              bool *streamed);

/* Same from a string in memory; name is used as the file name in errors. */
struct mha_example *mha_example_load_string(const char *text, const char *name,
                                            struct mha_error *err);

/* Write ex as an example file (all numbers, so loading it gives the same
 * example).  Returns 0, or -1 + err.  Writes to a temporary file first and
 * renames it, so a failed save leaves nothing half-written. */
int mha_example_save(const struct mha_example *ex, const char *path, struct mha_error *err);

/* Write text (a new string, NULL for out of memory; freed here) and a
 * newline to path through safe_file_write (safe_file.h): a target that is
 * not a regular file is refused, a symbolic link stays one, the mode of an
 * existing file is kept, and a failed save leaves the old file as it was.
 * Returns 0, or -1 + err naming path.  Example and model files are saved
 * through it. */
int io_save_text(const char *path, char *text, struct mha_error *err);

/* The same as a newly allocated JSON string (caller frees with free()). */
char *mha_example_to_string(const struct mha_example *ex);

#endif
