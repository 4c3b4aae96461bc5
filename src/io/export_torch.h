/* export_torch.h - a trained model (train.h) for PyTorch: FILE.py, a
 * short script holding an nn.Module in TransformerLens's names and shapes
 * that takes batches (B, T) of token ids (or one sequence (T,)), and
 * FILE.safetensors beside it, the model's weights and settings as
 * safetensors.h writes them, from which the script loads it.  Run as
 * "python3 FILE.py WORD WORD ...", the script prints a language model's ten
 * likeliest next words after the last word as JSON in the shape of --dump
 * output's "next_word" ([{"word", "p"}, ...]), or a task's prediction per
 * output at the last token ({"name": [class, p]}); with no words, on the
 * model's sample. */
#ifndef MHA_EXPORT_TORCH_H
#define MHA_EXPORT_TORCH_H

#include <stddef.h>

#include "engine/mha_error.h"
#include "train/train.h"

/* The weights' file of the script at path, into out (n bytes): path
 * without a last ".py", then ".safetensors" ("lm.py" -> "lm.safetensors",
 * "lm" -> "lm.safetensors"), the rule the script finds it by.  0, or -1
 * when it does not fit. */
int export_torch_weights_path(const char *path, char *out, size_t n);

/* Write the script to path and m's weights beside it, each as every file
 * is written (safe_file.h) and neither over a file that is there (refused,
 * "exists"): both are placed, or neither (a script placed whose weights
 * cannot be is removed again).  0, or -1 + err naming the file. */
int export_torch_save(const struct train_model *m, const char *path, struct mha_error *err);

#endif
