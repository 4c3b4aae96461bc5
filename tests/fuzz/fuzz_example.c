/* fuzz_example.c - any bytes as an example file: load, run, dump, save. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "io/example_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    struct mha_error err;
    struct mha_example *ex = mha_example_load_string(text, "fuzz.json", &err);
    free(text);
    if (!ex)
        return 0;
    /* keep each run fast: the sizes a file can ask for are large */
    if ((size_t)ex->lq * (size_t)ex->lk * (size_t)ex->heads <= 4096 && ex->d_model <= 64) {
        struct mha_trace *t = mha_run(ex, &err);
        if (t) {
            FILE *null = fopen("/dev/null", "w");
            dump_write(null, ex, t, DUMP_ALL, MHA_FORMAT_TEXT, NULL);
            dump_write(null, ex, t, DUMP_ALL, MHA_FORMAT_JSON, NULL);
            fclose(null);
            mha_trace_free(t);
        }
        char *again = mha_example_to_string(ex);
        struct mha_example *back = again ? mha_example_load_string(again, "again", &err) : NULL;
        if (again && !back) {
            fprintf(stderr, "a saved example does not load again: %s\n", err.text);
            abort();
        }
        mha_example_free(back);
        free(again);
    }
    mha_example_free(ex);
    return 0;
}
