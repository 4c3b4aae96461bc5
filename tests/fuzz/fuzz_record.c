/* fuzz_record.c - any bytes as a recording. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "io/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct recording r;
    struct mha_error err;
    if (rec_parse(text, "fuzz.rec", &r, &err) == 0)
        rec_free(&r);
    free(text);
    return 0;
}
