/* safetensors.h - a trained model (train.h) as a safetensors file in
 * TransformerLens's names, and back.
 *
 * The file: 8 bytes, the header's length N (little-endian), N bytes of a
 * JSON header (padded with spaces to a multiple of 8), then the tensors'
 * raw little-endian float32 numbers, one after another.  The header maps
 * each tensor's name to {"dtype": "F32", "shape": [...], "data_offsets":
 * [begin, end]} (bytes after the header) and "__metadata__" to strings.
 *
 * The tensors, as TransformerLens's HookedTransformer (attn_only, no
 * normalisation, standard positions) names and shapes them:
 *   embed.W_E [d_vocab, d_model]        the model's embedding
 *   pos_embed.W_pos [n_ctx, d_model]    its positions
 *   blocks.L.attn.W_Q, W_K, W_V [n_heads, d_model, d_head]
 *                                       W_Q[h][i][j] = w_q[h·d_head + j][i]
 *   blocks.L.attn.b_Q, b_K, b_V [n_heads, d_head]   b_q split by head
 *   blocks.L.attn.W_O [n_heads, d_head, d_model]    W_O[h][j][i] = w_o[i][h·d_head + j]
 *   blocks.L.attn.b_O [d_model]
 *   unembed.W_U [d_model, d_vocab_out], unembed.b_U [d_vocab_out]
 *                                       the first output (transposed)
 *   outputs.NAME.W_U, outputs.NAME.b_U  each further output, in the same shapes
 * so that q_h = x·W_Q[h] + b_Q[h] is the explorer's head h of x·w_qᵀ + b_q,
 * and Σ_h z_h·W_O[h] + b_O its merged heads times w_oᵀ plus b_o.  A model
 * without biases writes them as zeros.
 *
 * Every value of "__metadata__" is a JSON text (json.loads gives the
 * value): "vocab" (the token names, a list), "causal", "scaled",
 * "context", "task", "words", "sample", "outputs" ([{"name", "classes",
 * "bias"}], the first is unembed's), "attention_biases", and the
 * HookedTransformerConfig values n_layers, d_model, n_heads, d_head, n_ctx,
 * d_vocab, d_vocab_out, attn_only, normalization_type,
 * positional_embedding_type, attention_dir, use_attn_scale.
 */
#ifndef MHA_SAFETENSORS_H
#define MHA_SAFETENSORS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha_error.h"
#include "train/train.h"

/* The largest header read (the vocabulary of 512 names is most of it). */
#define SAFETENSORS_HEADER_MAX ((size_t)1 << 20)

/* m as a safetensors file in a new buffer (*len bytes; caller frees), or
 * NULL on out of memory. */
unsigned char *safetensors_bytes(const struct train_model *m, size_t *len);

/* Write m to path as every file is written (safe_file.h).  0, or -1 + err
 * naming path. */
int safetensors_save(const struct train_model *m, const char *path, struct mha_error *err);

/* Whether the file at path begins as a safetensors file does: a header
 * length within SAFETENSORS_HEADER_MAX followed by '{'.  False on any
 * error (the caller's reader then reports it). */
bool safetensors_is_file(const char *path);

/* Read the safetensors file at path into a new model able to forward
 * batch_cap sequences (its sample forwarded), checking every name, shape,
 * dtype, offset and number: NULL + err naming the file and the tensor or
 * metadata field.  Free with train_model_free. */
struct train_model *safetensors_load(const char *path, int batch_cap, struct mha_error *err);

/* The same from len bytes in memory, named name in messages. */
struct train_model *safetensors_load_bytes(const void *bytes, size_t len, const char *name,
                                           int batch_cap, struct mha_error *err);

#endif
