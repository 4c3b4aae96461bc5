/* read_bench.c - read one file of a kind the program reads, and nothing
 * else, so that /usr/bin/time -v gives the memory and time reading it
 * costs (bench/file_limits.py runs it over the largest legal and the
 * over-cap file of each kind; README "Files and their limits").
 *
 *   mha-read-bench example|model|task|lesson|recording|progress FILE
 *   mha-read-bench batch FILE MODEL
 * Prints "read" or the message; exit status 0 or 2.
 *
 *   mha-read-bench again MODEL
 * times what the explorer does on every new sentence of a model file (or
 * sentence file): the example made from it, five times with the file read
 * each time, then five times with the model kept (model_io_keep); prints
 * the median ms of each. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "train/train.h"
#include "bench_clock.h"
#include "engine/mha.h"
#include "io/example_io.h"
#include "io/model_io.h"
#include "io/record.h"
#include "lesson/lesson.h"
#include "lesson/progress_file.h"

static int report(const struct mha_error *err)
{
    char msg[2048];
    printf("%s\n", mha_error_format(err, msg, sizeof msg));
    return 2;
}

/* mha-read-bench again MODEL: see the top of the file. */
static int again(const char *path)
{
    double median[2];
    for (int keep = 0; keep < 2; keep++) {
        double ms[5];
        model_io_keep(keep);
        for (int i = 0; i < 5; i++) {
            struct mha_error err;
            const double t0 = bench_now_ms();
            struct mha_example *ex = model_io_example(path, NULL, 1.0f, "the sentence", &err);
            ms[i] = bench_now_ms() - t0;
            if (!ex)
                return report(&err);
            mha_example_free(ex);
        }
        median[keep] = bench_median(ms, 5);
    }
    model_io_keep(false);
    printf("a new sentence of %s: %.2f ms read each time, %.2f ms kept (medians of 5)\n", path,
           median[0], median[1]);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3 || (!strcmp(argv[1], "batch") && argc < 4)) {
        fprintf(stderr, "usage: %s KIND FILE [MODEL]\n", argv[0]);
        return 2;
    }
    const char *kind = argv[1], *path = argv[2];
    if (!strcmp(kind, "again"))
        return again(path);
    struct mha_error err;
    mha_error_clear(&err);
    if (!strcmp(kind, "example")) {
        struct mha_example *ex = mha_example_load(path, &err);
        if (!ex)
            return report(&err);
        mha_example_free(ex);
    } else if (!strcmp(kind, "model")) {
        struct train_model *m = model_io_load(path, 1, &err);
        if (!m)
            return report(&err);
        train_model_free(m);
    } else if (!strcmp(kind, "batch")) {
        struct train_model *m = model_io_load(argv[3], 1, &err);
        if (!m)
            return report(&err);
        struct train_batch *b = model_io_load_batch(path, m, &err);
        train_model_free(m);
        if (!b)
            return report(&err);
        train_batch_free(b);
    } else if (!strcmp(kind, "task")) {
        struct train_dataset *d = model_io_load_dataset(path, &err);
        if (!d)
            return report(&err);
        train_dataset_free(d);
    } else if (!strcmp(kind, "lesson")) {
        struct lesson *l = lesson_load(path);
        const int bad = !l || l->n_diags > 0;
        printf("%s\n", !l ? "out of memory" : bad ? l->diags[0].text : "read");
        lesson_free(l);
        return bad ? 2 : 0;
    } else if (!strcmp(kind, "recording")) {
        struct recording rec;
        if (rec_load(path, &rec, &err))
            return report(&err);
        rec_free(&rec);
    } else if (!strcmp(kind, "progress")) {
        json_t *root;
        char dropped[400];
        const enum progress_read rs = progress_file_read(path, &root, dropped, sizeof dropped);
        json_decref(root);
        if (rs == PROGRESS_READ_CORRUPT) {
            printf("%s\n", dropped);
            return 2;
        }
    } else {
        fprintf(stderr, "%s: unknown kind %s\n", argv[0], kind);
        return 2;
    }
    printf("read\n");
    return 0;
}
