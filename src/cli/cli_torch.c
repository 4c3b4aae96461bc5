/* cli_torch.c - --export-torch FILE.py: the model of --load as a PyTorch
 * script and its weights beside it (io/export_torch.h), and
 * --export-safetensors FILE: as a safetensors file in TransformerLens's
 * names (io/safetensors.h); on the words of --tokens (or a sentence file's)
 * when given, which become the sample it runs on with no words of its own. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/cli.h"
#include "engine/text_check.h"
#include "train/train.h"
#include "io/export_torch.h"
#include "io/link.h"
#include "io/model_io.h"
#include "io/safetensors.h"

/* "wrote FILE and its weights FILE.safetensors: run it with python3 FILE
 * WORD WORD ...", the files' names escaped (a control character in them is
 * shown, not obeyed) and, in the command, quoted for a shell and kept from
 * reading as an option; of a safetensors file, how to open it again. */
static void say_written(const char *path, bool script)
{
    char shown[4 * PATH_MAX];
    if (!script) {
        fprintf(stderr,
                "mha-explorer: wrote %s: safetensors in TransformerLens's names; --load opens "
                "it\n",
                mha_text_escape(path, shown, sizeof shown));
        return;
    }
    char dashed[PATH_MAX + 3], weights[PATH_MAX], shown_weights[4 * PATH_MAX],
        command[4 * PATH_MAX];
    snprintf(dashed, sizeof dashed, "%s%s", path[0] == '-' ? "./" : "", path);
    if (export_torch_weights_path(path, weights, sizeof weights))
        weights[0] = '\0';
    char *quoted = link_shell_quote(dashed);
    fprintf(stderr,
            "mha-explorer: wrote %s and its weights %s: run it with python3 %s WORD WORD ...\n",
            mha_text_escape(path, shown, sizeof shown),
            mha_text_escape(weights, shown_weights, sizeof shown_weights),
            mha_text_escape(quoted ? quoted : dashed, command, sizeof command));
    free(quoted);
}

/* The model of --load, its sample the words of --tokens, written to path
 * by save. */
static int export_model(const struct cli_options *o, const char *path,
                        int (*save)(const struct train_model *, const char *, struct mha_error *))
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *m = cli_load_model(o->load);
    if (!m)
        return CLI_EXIT_USAGE;
    int rc = CLI_EXIT_USAGE;
    int ids[TRAIN_MAX_CONTEXT], n = 0;
    if (cli_model_words(o, m, ids, &n, &err) || (n > 0 && train_model_set_sample(m, ids, n, &err)))
        goto fail;
    /* the target was checked before (cli_options.c): what fails now fails
     * on the way (a full disk), status 1 as a --save's; nothing was
     * written, the old file, if any, is as it was */
    if (save(m, path, &err)) {
        rc = EXIT_FAILURE;
        goto fail;
    }
    rc = 0;
    say_written(path, save == export_torch_save);
    goto done;
fail:
    cli_report(&err);
done:
    train_model_free(m);
    return rc;
}

int cli_export_torch(const struct cli_options *o)
{
    return export_model(o, o->export_torch, export_torch_save);
}

int cli_export_safetensors(const struct cli_options *o)
{
    return export_model(o, o->export_safetensors, safetensors_save);
}
