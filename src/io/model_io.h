/* model_io.h - model files, batch files and a teacher's task files (JSON)
 * <-> the training engine (train.h), and the --grad output.
 *
 * Model file:
 *   { "vocab": ["a", "b", ...],            token names, V of them
 *     "d_model": 8, "num_heads": 2, "context": 8, "causal": true,
 *     "scaled": true,                       optional, default true
 *     "embedding": [V][d], "positions": [T][d],
 *     "w_q": [d][d], "w_k", "w_v", "w_o",  [out][in]
 *     "b_q": [d], "b_k", "b_v", "b_o",     optional, all four or none
 *     "outputs": [ {"name": "first", "classes": V, "unembed": [C][d],
 *                   "bias": [C] (optional)}, ... ],
 *     "task": "first-prev",                 optional
 *     "sample": [ids...] }                  optional, the sequence shown
 * A model file is told from an example file by "embedding" and "outputs"
 * (an example file has "tokens" and neither of them).
 *
 * Batch file:
 *   { "tokens": [[ids...] x B],  B sequences of the same length T <= context,
 *     "targets": [ [[ids or -1...] x B] per output ] }
 *
 * Task file (--train FILE): a batch file plus
 *   "vocab": [names...], "outputs": ["name" or {"name", "classes"}, ...]
 *   (one per targets list), optional "causal" (default true) and
 *   "description" (the task in words, one line).  One row in five is held
 *   out (train_dataset_split); the others are sampled into batches.
 *
 * Every error names the file and the field, row and column that is wrong
 * (shapes, ids out of range, T > context, non-finite numbers, unknown
 * fields or task), and nothing is returned half-made.
 */
#ifndef MHA_MODEL_IO_H
#define MHA_MODEL_IO_H

#include <stdbool.h>
#include <stdio.h>

#include "train/train.h"

/* True when path parses as a JSON object with "embedding" or "outputs" (a
 * model file rather than an example file), or "model" (a sentence file),
 * or begins as a safetensors file does.  False on any error (the example
 * reader then reports it). */
bool model_io_is_model_file(const char *path);

/* A sentence file is a trained model on a sentence of its own, by
 * reference: {"model": "PATH", "words": "SENTENCE", "description": "..."}
 * (PATH beside the file unless absolute, naming a model file, not another
 * sentence file).  Everything below that takes a model file takes one. */
#define MODEL_IO_PATH_MAX 4096
#define MODEL_IO_WORDS_MAX 4096
/* 1 with path's words in words (n bytes) when path is a sentence file, 0
 * when it is not, -1 + err when it is a bad one. */
int model_io_sentence_words(const char *path, char *words, size_t n, struct mha_error *err);

/* Read a model file into a new model able to forward batch_cap sequences:
 * JSON, or a safetensors file in TransformerLens's names (safetensors.h,
 * told by its first bytes), or a sentence file naming either.  NULL + err
 * (file and field) on any problem.  Free with train_model_free. */
struct train_model *model_io_load(const char *path, int batch_cap, struct mha_error *err);

/* model_io_load for a program that reads the same file again and again
 * (the explorer, on every new sentence and view): after model_io_keep(true)
 * the last model read stays in memory and a read of the same path, while
 * it and the model file a sentence file names are unchanged (device,
 * inode, size, modification time), copies it instead of parsing the file.
 * model_io_keep(false) frees what is kept and reads files every time
 * again (the default). */
void model_io_keep(bool on);
struct train_model *model_io_load_kept(const char *path, int batch_cap, struct mha_error *err);

/* The model file at path as an explorer example (model_example.c): run on
 * its own sample (a sentence file: its words), or on the words of tokens
 * when not NULL (a text model's
 * words as train_text.h cuts them, lower-cased when it was trained so;
 * else labels between spaces); a language model's example ends in its
 * next words after the last word (ex->next_word), their probabilities
 * softmax(logits / temperature).  NULL + err: the file
 * (named), or "WHAT: ..." for the sentence: an unknown word named with the
 * three closest known ones, no word, more words than the context. */
struct mha_example *model_io_example(const char *path, const char *tokens, float temperature,
                                     const char *what, struct mha_error *err);

/* The words of words as m reads them (as model_io_example cuts a typed
 * sentence), their ids into ids (TRAIN_MAX_CONTEXT of room) and their
 * number into *count.  0, or -1 + err "WHAT: ..." naming every unknown
 * word, or no word, or more words than m's context (path names the model
 * in the message; NULL: a model in memory, "the model"). */
int model_io_sentence_ids(struct train_model *m, const char *path, const char *what,
                          const char *words, int *ids, int *count, struct mha_error *err);

/* model_io_example on layer (0-based; -1: the last) of a model of layers:
 * its attention, its input the residual stream after the layers below.  A
 * layer the model does not have: NULL + err "--layer: ...". */
struct mha_example *model_io_example_layer(const char *path, const char *tokens, float temperature,
                                           const char *what, int layer, struct mha_error *err);
/* The same with its next words' nucleus at top_p (in (0, 1];
 * model_io_example_layer's is 1: every word): train_next_words_nucleus. */
struct mha_example *model_io_example_top_p(const char *path, const char *tokens, float temperature,
                                           double top_p, const char *what, int layer,
                                           struct mha_error *err);

/* Write m as a model file: to a temporary file in the same directory, then
 * renamed over path, so a failed save leaves nothing half-written.  0 or -1
 * + err. */
int model_io_save(const struct train_model *m, const char *path, struct mha_error *err);

/* The file --save FILE names for one run when --compare trains several:
 * "-heads" (or, where the runs differ in their layers, "-layers") and the
 * run's count before FILE's extension ("m.json" -> "m-heads2.json",
 * "out/m" -> "out/m-heads2", "m-layers1.json"), into out. */
void model_io_pane_name(const char *path, bool layers, int count, char *out, size_t n);
/* The same for runs that differ in their attention block: "-" and the
 * variant's name without its colon ("m.json" -> "m-shared-qk.json",
 * "m-gqa2.json"). */
void model_io_variant_pane_name(const char *path, const struct train_variant *v, char *out,
                                size_t n);

/* m as a model file in a new string (caller frees). NULL on out of memory. */
char *model_io_to_string(const struct train_model *m);

/* Read a batch file for m (ids < vocab and < each output's classes, T <=
 * context, one targets list per output).  New batch or NULL + err. */
struct train_batch *model_io_load_batch(const char *path, const struct train_model *m,
                                        struct mha_error *err);

/* Read a teacher's task file and hold its rows out (train_dataset_split).
 * New dataset or NULL + err. */
struct train_dataset *model_io_load_dataset(const char *path, struct mha_error *err);

/* The fields a task file may have, NULL-terminated (doc/files.md and the man
 * page document each one). */
extern const char *const model_io_task_file_fields[];

/* Print {"loss": x, "grad": {...}} for m's last forward+backward (the
 * --grad output): every parameter's gradient, the b_* only when the model
 * has them, "outputs": [{"unembed", "bias" if present}].  Numbers with 9
 * significant digits.  0, or -1 on a write error. */
int model_io_write_grad(FILE *out, const struct train_model *m);

#endif
