/* cli_common.c - what every part of the command line shares: an error
 * reported on stderr, a usage error, a string written as JSON, the assets
 * folder.  The bottom of src/cli: it calls nothing else of the command
 * line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "cli/cli.h"
#include "io/model_io.h"
#include "engine/text_check.h"
#include "io/paths.h"

void cli_report(const struct mha_error *err)
{
    char buf[MHA_ERROR_FILE_MAX + MHA_ERROR_TEXT_MAX + 64];
    char shown[sizeof buf * 2];
    fprintf(stderr, "mha-explorer: %s\n",
            mha_text_escape(mha_error_format(err, buf, sizeof buf), shown, sizeof shown));
}

int cli_usage_error(const char *fmt, const char *arg)
{
    char shown[512];
    fprintf(stderr, "mha-explorer: ");
    fprintf(stderr, fmt, mha_text_escape(arg, shown, sizeof shown));
    fprintf(stderr, "\nTry 'mha-explorer --help' for more information.\n");
    return CLI_EXIT_USAGE;
}

void cli_json_string(FILE *f, const char *s)
{
    json_t *j = json_string(s);
    char *text = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    fputs(text ? text : "\"\"", f);
    free(text);
    json_decref(j);
}

char *cli_assets_dir(void)
{
    const char *p = mha_data_path("assets");
    return strdup(p ? p : "assets");
}

struct train_model *cli_load_model(const char *path)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = model_io_load(path, 1, &err);
    if (!m)
        cli_report(&err);
    return m;
}

int cli_model_words(const struct cli_options *o, struct train_model *m, int *ids, int *n,
                    struct mha_error *err)
{
    char words[MODEL_IO_WORDS_MAX];
    const char *tokens = o->tokens, *what = "--tokens";
    *n = 0;
    if (!tokens) {
        const int k = model_io_sentence_words(o->load, words, sizeof words, err);
        if (k < 0)
            return -1;
        if (k)
            tokens = words, what = "\"words\"";
    }
    return tokens ? model_io_sentence_ids(m, o->load, what, tokens, ids, n, err) : 0;
}
