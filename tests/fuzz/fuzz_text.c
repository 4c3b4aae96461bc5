/* fuzz_text.c - any bytes as text someone else wrote: what the checks let
 * through and what the escapes print never holds a character a terminal
 * would obey, and any bytes as a token label still give one label per row
 * in a json dump that jansson reads back. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "engine/text_check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    const size_t len = strlen(text);

    /* the escape of anything is safe, at every buffer size */
    static const size_t sizes[] = {1, 2, 7, 16, 64, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        char *buf = malloc(sizes[i]);
        mha_text_escape(text, buf, sizes[i]);
        const size_t n = strlen(buf);
        if (n >= sizes[i] || mha_text_find_unsafe(buf, n, false, NULL, 0) != n)
            abort();
        free(buf);
    }
    /* a label the check accepts has nothing unsafe; one it refuses has */
    struct mha_error err;
    const bool ok = mha_label_check(text, 0, &err) == 0;
    if (ok != (len > 0 && mha_text_find_unsafe(text, len, false, NULL, 0) == len))
        abort();

    /* any label (behind the checks) in the json dump */
    struct mha_example *ex = mha_example_generated(2, NULL, 2, 1, 1, &err);
    if (ex && mha_example_set_token(ex, false, 1, text) == 0) {
        struct mha_trace *t = mha_run(ex, &err);
        char *s = t ? dump_json_string(ex, t, MHA_STAGE_OUTPUT) : NULL;
        if (s) {
            json_error_t jerr;
            json_t *root = json_loads(s, 0, &jerr);
            if (!root)
                abort();
            json_t *tokens = json_object_get(json_object_get(root, "config"), "tokens");
            if (json_array_size(tokens) != 2)
                abort();
            json_decref(root);
        }
        free(s);
        mha_trace_free(t);
    }
    mha_example_free(ex);
    free(text);
    return 0;
}
