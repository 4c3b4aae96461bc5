/* fuzz_lesson.c - any bytes as a lesson: parse, check, lay out, print. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "lesson/catalog.h"
#include "lesson/layout.h"
#include "lesson/lesson.h"
#include "lesson/lesson_state.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct lesson *l = lesson_parse((const char *)data, size, "fuzz.md");
    if (!l)
        return 0;
    const char *assets = getenv("MHA_FUZZ_ASSETS");
    lesson_check(l, assets ? assets : "assets");
    for (int s = 0; s < l->n_steps; s++)
        for (int width = 10; width <= 70; width += 30) {
            struct lesson_layout lay;
            lesson_layout_step(&l->steps[s], width, &lay);
            lesson_layout_done(&lay);
        }
    if (l->n_diags == 0) {
        FILE *null = fopen("/dev/null", "w");
        lesson_print_text(null, l, assets ? assets : "assets", 60);
        fclose(null);
    }
    lesson_free(l);
    return 0;
}
