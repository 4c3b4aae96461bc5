/* text_io.c - text files to train on, read from disk through safe_file
 * (regular files only, never blocking, refused above the size cap before a
 * byte is read). */
#include "io/text_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "io/safe_file.h"

static bool ends_with(const char *s, const char *tail)
{
    const size_t n = strlen(s), m = strlen(tail);
    return n >= m && !strcmp(s + n - m, tail);
}

bool text_io_is_text(const char *path)
{
    if (ends_with(path, ".txt"))
        return true;
    if (ends_with(path, ".json"))
        return false;
    FILE *f = safe_file_fopen(path, NULL);
    if (!f)
        return false;
    int c;
    while ((c = fgetc(f)) == ' ' || c == '\t' || c == '\r' || c == '\n')
        ;
    fclose(f);
    return c != '{';
}

const char *text_io_jobs_path(const char *path, char *buf, size_t n)
{
    size_t len = strlen(path);
    if (ends_with(path, ".txt"))
        len -= 4;
    snprintf(buf, n, "%.*s.jobs", (int)len, path);
    return buf;
}

struct train_dataset *text_io_load(const char *path, const struct train_text_options *o,
                                   struct mha_error *err)
{
    mha_error_clear(err);
    char *text = NULL, *jobs = NULL;
    size_t len = 0, jobs_len = 0;
    if (safe_file_read(path, TRAIN_TEXT_MAX_BYTES, "text file to train on", &text, &len, err))
        return NULL;
    char jobs_path[4096];
    text_io_jobs_path(path, jobs_path, sizeof jobs_path);
    struct stat st;
    const bool has_jobs = stat(jobs_path, &st) == 0 || errno != ENOENT;
    if (has_jobs &&
        safe_file_read(jobs_path, TRAIN_TEXT_MAX_BYTES, "jobs file", &jobs, &jobs_len, err)) {
        free(text);
        return NULL;
    }
    struct train_dataset *d =
        train_text_dataset_new(text, len, path, jobs, jobs_len, jobs_path, o, err);
    free(text);
    free(jobs);
    return d;
}

bool text_io_corpus_name(const char *name)
{
    size_t n = 0;
    for (; name[n]; n++)
        if (!((name[n] >= 'a' && name[n] <= 'z') || (name[n] >= '0' && name[n] <= '9') ||
              name[n] == '-'))
            return false;
    return n > 0 && n <= 64;
}

struct train_dataset *text_io_load_corpus(const char *assets_dir, const char *name,
                                          struct mha_error *err)
{
    if (!text_io_corpus_name(name)) {
        mha_error_set(err, "\"%s\" is no corpus's name (lower-case letters, digits and -)", name);
        return NULL;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/corpus/%s.txt", assets_dir ? assets_dir : ".", name);
    const struct train_text_options to = {
        .vocab = TRAIN_TEXT_DEFAULT_VOCAB,
        .context = TRAIN_TEXT_DEFAULT_CONTEXT,
        .keep_case = false,
    };
    return text_io_load(path, &to, err);
}
