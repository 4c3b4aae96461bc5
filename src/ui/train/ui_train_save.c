/* ui_train_save.c - the trained model written to a model file: when the
 * training screen is left (--save FILE, with no question: the step the
 * screen shows, a checkpoint after a scrub) and at any moment with
 * :save [FILE], on the training screen and on the stages of the model it
 * trains, or of a model file (or sentence file) loaded; :save FILE never
 * replaces a file that is there, :save! FILE does.  With --compare,
 * --save FILE is one file per pane (the pane's heads or layers in the
 * name, model_io_pane_name) and :save writes the pane in focus.  A class's
 * follower and a replay write nothing. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/model_io.h"
#include "io/safe_file.h"
#include "ui/modes/ui_parts.h"
#include "ui/train/ui_train.h"
#include "ui/state/ui_examples.h"
#include "ui/views/ui_export.h"
#include "train/trun.h"

/* What pane i's runs differ in: its layers (--compare layers=...), else
 * its heads. */
static int pane_count(const struct trun *t, int i)
{
    return t->compare_layers ? (t->layers[i] ? t->layers[i] : t->opt.layers) : t->heads[i];
}

/* The file --save names for pane i, into out. */
static void pane_path(const struct ui_train_part *training, int i, char *out, size_t n)
{
    const struct trun *t = training->train;
    if (t->compare && t->compare_variants)
        model_io_variant_pane_name(training->save_path, &t->variants[i], out, n);
    else if (t->compare)
        model_io_pane_name(training->save_path, t->compare_layers, pane_count(t, i), out, n);
    else
        snprintf(out, n, "%s", training->save_path);
}

/* "the model" or (--compare) "the 2-head model", "the 1-layer model",
 * into buf. */
static const char *which(const struct trun *t, int i, char *buf, size_t n)
{
    char v[TRAIN_VARIANT_NAME_MAX];
    if (t->compare && t->compare_variants)
        snprintf(buf, n, "the %s model", train_variant_name(&t->variants[i], v, sizeof v));
    else if (t->compare)
        snprintf(buf, n, "the %d-%s model", pane_count(t, i), t->compare_layers ? "layer" : "head");
    else
        snprintf(buf, n, "the model");
    return buf;
}

int ui_train_save_on_leave(const struct ui_train_part *training, int status)
{
    const struct trun *t = training->train;
    if (!t || t->lesson || !training->save_path)
        return status;
    const long step = trun_shown_step(t);
    for (int i = 0; i < t->n_panes; i++) {
        char path[PATH_MAX + 32], what[32], buf[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
        pane_path(training, i, path, sizeof path);
        struct mha_error err;
        mha_error_clear(&err);
        if (model_io_save(trun_pane_model(&t->panes[i], t->scrub), path, &err) != 0) {
            fprintf(stderr, "mha-explorer: --save: %s\n", mha_error_format(&err, buf, sizeof buf));
            if (status == 0)
                status = 1; /* the output could not be written */
            continue;
        }
        fprintf(stderr, "mha-explorer: saved %s at step %ld to %s\n",
                which(t, i, what, sizeof what), step, path);
    }
    return status;
}

/* The model the explorer shows and where it stands: the training's (the
 * focused pane at the step shown), or a loaded model file's, read again
 * into *loaded (free it).  NULL after a message when it shows none. */
static const struct train_model *shown_model(struct ui_state *st, const struct trun *t,
                                             struct train_model **loaded, char *what, size_t n)
{
    *loaded = NULL;
    if (t) {
        char which_one[32];
        snprintf(what, n, "%s at step %ld", which(t, t->focus, which_one, sizeof which_one),
                 trun_shown_step(t));
        return trun_pane_model(&t->panes[t->focus], t->scrub);
    }
    if (!st->load_path[0] || !model_io_is_model_file(st->load_path)) {
        ui_state_say(st, true,
                     ":save writes a trained model, and none is shown here: --train TASK trains "
                     "one, --load MODEL shows one.");
        return NULL;
    }
    struct mha_error err;
    mha_error_clear(&err);
    *loaded = model_io_load(st->load_path, 1, &err);
    if (!*loaded) {
        char buf[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
        ui_state_say(st, true, "Not saved: %s.", mha_error_format(&err, buf, sizeof buf));
        return NULL;
    }
    const char *slash = strrchr(st->load_path, '/');
    snprintf(what, n, "the model of %s", slash ? slash + 1 : st->load_path);
    return *loaded;
}

/* text (len bytes) as the new file path, never over one that is there
 * (linked into place, with the signals held): 0, 1 when path exists, or -1
 * with err. */
static int write_new(const char *path, const char *text, size_t len, struct mha_error *err)
{
    struct safe_file_signals held;
    safe_file_hold_signals(&held);
    struct safe_file sf;
    FILE *f = NULL;
    int rc = -1;
    if (safe_file_create(&sf, path, err) == 0) {
        if (sf.existed)
            rc = 1;
        else if ((f = safe_file_stream(&sf, err)) && fwrite(text, 1, len, f) == len &&
                 safe_file_finish(&sf, err) == 0)
            rc = safe_file_place(&sf, NULL, false, err);
        else if (!err->text[0])
            mha_error_set(err, "cannot write: %s; nothing was written", strerror(errno));
        safe_file_discard(&sf);
    }
    safe_file_release_signals(&held);
    return rc;
}

/* m to path (a new mha-model-N.json here when path is NULL), said on the
 * status line; a file at path is replaced only when replace. */
static int save_model(struct ui_state *st, const struct train_model *m, const char *what,
                      const char *path, bool replace)
{
    char written[PATH_MAX + 64], buf[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
    struct mha_error err;
    mha_error_clear(&err);
    if (path && replace) {
        if (safe_file_check_target(path, &err) != 0 || model_io_save(m, path, &err) != 0) {
            ui_state_say(st, true, "Not saved: %s.", mha_error_format(&err, buf, sizeof buf));
            return -1;
        }
        ui_state_say(st, false, "Saved %s to %s.", what, path);
        return 0;
    }
    char *text = model_io_to_string(m);
    if (!text) {
        ui_state_say(st, true, "Not saved: out of memory.");
        return -1;
    }
    const size_t len = strlen(text);
    text[len] = '\n'; /* the terminating NUL becomes the file's last newline */
    if (!path) {      /* never over a file */
        if (ui_export_write_buffer(text, len + 1, "model", "json", ".", NULL, written,
                                   sizeof written, &err) != 0) {
            ui_state_say(st, true, "Not saved: %s.", err.text);
            return -1;
        }
        path = written;
    } else {
        const int rc =
            safe_file_check_target(path, &err) ? -1 : write_new(path, text, len + 1, &err);
        free(text);
        if (rc == 1) {
            ui_state_say(st, true, "Not saved: %s exists; :save! %s replaces it.", path, path);
            return -1;
        }
        if (rc != 0) {
            ui_state_say(st, true, "Not saved: %s.", mha_error_format(&err, buf, sizeof buf));
            return -1;
        }
    }
    ui_state_say(st, false, "Saved %s to %s.", what, path);
    return 0;
}

int ui_train_save(struct ui_state *st, const struct ui_train_part *training,
                  const struct ui_stream *stream, const char *arg, bool replace)
{
    if (ui_stream_following(stream)) {
        ui_state_say(st, true,
                     ":save writes nothing while following a class: the teacher's stream never "
                     "writes on this machine.");
        return -1;
    }
    if (ui_stream_replaying(stream)) {
        ui_state_say(st, true, ":save writes nothing while a recording replays.");
        return -1;
    }
    char path[PATH_MAX + 32], what[PATH_MAX + 64];
    if (*arg && ui_path_expand(arg, path, sizeof path) != 0) {
        ui_state_say(st, true, "Not saved: %s is not a file name I can use.", arg);
        return -1;
    }
    struct train_model *loaded;
    const struct train_model *m = shown_model(st, training->train, &loaded, what, sizeof what);
    if (!m)
        return -1;
    if (!*arg && training->train && training->save_path)
        pane_path(training, training->train->focus, path, sizeof path);
    /* --save's file is replaced as leaving the screen replaces it: the
     * command line named it */
    const bool own = !*arg && training->train && training->save_path;
    const int rc = save_model(st, m, what, *arg || own ? path : NULL, replace || own);
    train_model_free(loaded);
    return rc;
}
