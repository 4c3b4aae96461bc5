/* export_torch.h - a trained model (train.h) as a standalone PyTorch
 * script: run as "python3 FILE.py WORD WORD ...", it prints a language
 * model's ten likeliest next words after the last word as JSON in the shape
 * of --dump output's "next_word" ([{"word", "p"}, ...]), or a task's
 * prediction per output at the last token ({"name": [class, p]}); with no
 * words, on the model's sample.  The model file's JSON is inline, the
 * nn.Module written in the explorer's notation. */
#ifndef MHA_EXPORT_TORCH_H
#define MHA_EXPORT_TORCH_H

#include "engine/mha_error.h"
#include "train/train.h"

/* The script for m in a new string (caller frees); NULL on out of memory. */
char *export_torch_script(const struct train_model *m);

/* Write the script to path as every file is written (safe_file.h).  0, or
 * -1 + err naming path. */
int export_torch_save(const struct train_model *m, const char *path, struct mha_error *err);

#endif
