/* fuzz_safetensors.c - any bytes as a safetensors file: read, and a model
 * read is written and read again to the same numbers. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/safetensors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct mha_error err;
    struct train_model *m = safetensors_load_bytes(data, size, "fuzz.safetensors", 1, &err);
    if (!m)
        return 0;
    size_t len = 0;
    unsigned char *again = safetensors_bytes(m, &len);
    struct train_model *back = again ? safetensors_load_bytes(again, len, "again", 1, &err) : NULL;
    if (again && !back) {
        fprintf(stderr, "a written safetensors file does not read again: %s\n", err.text);
        abort();
    }
    if (back && memcmp(m->params, back->params, sizeof(float) * m->n_params) != 0) {
        fprintf(stderr, "a written safetensors file reads back other numbers\n");
        abort();
    }
    train_model_free(back);
    free(again);
    train_model_free(m);
    return 0;
}
